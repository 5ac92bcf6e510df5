// SPDX-License-Identifier: GPL-2.0
/*
 * rcupoll: write trace.dat files, and stream ring buffers into them.
 *
 * libtracecmd 1.3 has no public writer, and "trace-cmd extract"/"record"
 * reach beyond one instance (3.1.6's extract always reads, and without -k
 * resets, the top instance).  So rcupoll writes the file itself, in the
 * documented version 6 layout (trace-cmd.dat.v6(5)): the tracefs headers
 * and formats of the events it traces, kallsyms, printk formats, saved
 * command lines, options (per-CPU statistics, trace clock), then each
 * CPU's raw ring buffer pages, page aligned.  trace-cmd, KernelShark and
 * rcupoll report read it.
 *
 * The raw pages come from per_cpu/cpuN/trace_pipe_raw of rcupoll's own
 * instance: streamed while tracing (one thread per CPU, splice into a
 * temporary file, as trace-cmd record does), or drained once tracing has
 * stopped (a snapshot).
 */

#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <poll.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <tracefs.h>

#include "rcupoll.h"

u64 file_size(const char *path)
{
	struct stat st;

	return stat(path, &st) ? 0 : (u64)st.st_size;
}

static void remove_tmp(void *arg)
{
	struct datfile *df = arg;

	if (df->fd >= 0)
		close(df->fd);
	df->fd = -1;
	if (df->tmp)
		unlink(df->tmp);
}

/*
 * Create the temporary output next to @path before tracing starts, so a
 * path that cannot be written (a directory, a missing or read-only
 * directory, an empty name) fails at once.  The per-CPU files are
 * unlinked as soon as they are open: they vanish with the process.
 */
struct datfile *datfile_open(const char *path, int ncpus, const char *tempdir)
{
	struct datfile *df = xcalloc(1, sizeof(*df));
	char *copy, *dir, *base;
	struct stat st;
	int cpu;

	if (!*path)
		die_usage("the output file name is empty");
	if (!stat(path, &st) && S_ISDIR(st.st_mode))
		die("cannot write %s: it is a directory", path);
	copy = xstrdup(path);
	dir = xstrdup(dirname(copy));
	free(copy);
	copy = xstrdup(path);
	base = basename(copy);
	df->path = xstrdup(path);
	df->tmp = xasprintf("%s/.%s.rcupoll-%d.tmp", dir, base, (int)getpid());
	df->fd = open(df->tmp, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	if (df->fd < 0) {
		int err = errno;

		free(df->tmp);
		df->tmp = NULL;
		die("cannot write %s: %s", path, strerror(err));
	}
	df->cleanup = cleanup_push(remove_tmp, df);
	df->ncpus = ncpus;
	df->cpu_fd = xcalloc(ncpus, sizeof(int));
	for (cpu = 0; cpu < ncpus; cpu++) {
		char *p = xasprintf("%s/.%s.rcupoll-%d.cpu%d", tempdir ? tempdir : dir, base,
				    (int)getpid(), cpu);

		df->cpu_fd[cpu] = open(p, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
		if (df->cpu_fd[cpu] < 0)
			die("cannot create %s: %s", p, strerror(errno));
		unlink(p);
		free(p);
	}
	free(copy);
	free(dir);
	return df;
}

/* --- writing the header ------------------------------------------------ */

static void wr(struct datfile *df, const void *buf, size_t len)
{
	const char *p = buf;

	while (len) {
		ssize_t n = write(df->fd, p, len);

		if (n < 0 && errno == EINTR) {
			check_interrupted();
			continue;
		}
		if (n <= 0)
			die("cannot write %s: %s", df->tmp, n < 0 ? strerror(errno) : "disk full?");
		p += n;
		len -= n;
	}
}

/* Numbers in the host's byte order: the file says little endian (x86). */
static void wr32(struct datfile *df, unsigned int v) { wr(df, &v, 4); }
static void wr64(struct datfile *df, u64 v) { wr(df, &v, 8); }
static void wr16(struct datfile *df, unsigned short v) { wr(df, &v, 2); }

static char *read_top(const char *file, int *len)
{
	char *buf = tracefs_instance_file_read(NULL, file, len);

	if (!buf)
		die("cannot read %s/%s", tracefs_tracing_dir(), file);
	return buf;
}

static void wr_sized8(struct datfile *df, const char *buf, int len)
{
	wr64(df, len);
	wr(df, buf, len);
}

/* The format files of every event of @system (all of them: cheap). */
static void wr_system(struct datfile *df, const char *system, bool with_name)
{
	char **ev = tracefs_system_events(NULL, system);
	int i, n = 0;

	for (i = 0; ev && ev[i]; i++)
		n++;
	if (with_name)
		wr(df, system, strlen(system) + 1);
	wr32(df, n);
	for (i = 0; i < n; i++) {
		int len = 0;
		char *fmt = tracefs_event_file_read(NULL, system, ev[i], "format", &len);

		if (!fmt)
			die("cannot read the format of %s:%s", system, ev[i]);
		wr_sized8(df, fmt, len);
		free(fmt);
	}
	tracefs_list_free(ev);
}

/* The systems rcupoll enables, once each. */
static int our_systems(const char **sys)
{
	size_t i, j;
	int n = 0;

	for (i = 0; i < rp_nevents; i++) {
		for (j = 0; j < (size_t)n; j++) {
			if (!strcmp(sys[j], rp_events[i].system))
				break;
		}
		if (j == (size_t)n)
			sys[n++] = rp_events[i].system;
	}
	return n;
}

static char *slurp(const char *path, size_t *len)
{
	size_t cap = 1 << 20, n = 0;
	char *buf = xmalloc(cap);
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		die("cannot read %s: %s", path, strerror(errno));
	for (;;) {
		ssize_t r;

		if (n == cap)
			buf = xrealloc(buf, cap *= 2);
		r = read(fd, buf + n, cap - n);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			die("cannot read %s: %s", path, strerror(errno));
		if (!r)
			break;
		n += r;
	}
	close(fd);
	*len = n;
	return buf;
}

static void wr_header(struct datfile *df, const char *cpustats)
{
	const char *systems[16];
	char *buf;
	size_t klen;
	int len, i, n;

	wr(df, "\x17\x08\x44tracing", 10);
	wr(df, "6", 2);
	wr(df, "\0", 1);			/* little endian */
	wr(df, (char[]){ sizeof(long) }, 1);
	wr32(df, getpagesize());

	buf = read_top("events/header_page", &len);
	wr(df, "header_page", 12);
	wr_sized8(df, buf, len);
	free(buf);
	buf = read_top("events/header_event", &len);
	wr(df, "header_event", 13);
	wr_sized8(df, buf, len);
	free(buf);

	wr_system(df, "ftrace", false);
	n = our_systems(systems);
	wr32(df, n);
	for (i = 0; i < n; i++)
		wr_system(df, systems[i], true);

	buf = slurp("/proc/kallsyms", &klen);
	wr32(df, klen);
	wr(df, buf, klen);
	free(buf);
	buf = read_top("printk_formats", &len);
	wr32(df, len);
	wr(df, buf, len);
	free(buf);
	buf = read_top("saved_cmdlines", &len);
	wr_sized8(df, buf, len);
	free(buf);

	wr32(df, df->ncpus);
	wr(df, "options  ", 10);
	/* TRACECMD_OPTION_CPUSTAT (2), one per CPU: trace-cmd report --stat */
	for (; cpustats && *cpustats; cpustats += strlen(cpustats) + 1) {
		wr16(df, 2);
		wr32(df, strlen(cpustats) + 1);
		wr(df, cpustats, strlen(cpustats) + 1);
	}
	/*
	 * No TRACECMD_OPTION_TRACECLOCK: the instance keeps the default
	 * "local" clock, which readers assume (and libtracecmd 1.3 leaks
	 * the name it reads from that option).
	 */
	wr16(df, 0);				/* TRACECMD_OPTION_DONE */
	wr(df, "flyrecord", 10);
}

static void copy_cpu(struct datfile *df, int cpu)
{
	char buf[1 << 16];
	off_t off = 0;

	for (;;) {
		ssize_t n = pread(df->cpu_fd[cpu], buf, sizeof(buf), off);

		if (n < 0 && errno == EINTR) {
			check_interrupted();
			continue;
		}
		if (n < 0)
			die("cannot read back the data of CPU %d: %s", cpu, strerror(errno));
		if (!n)
			return;
		wr(df, buf, n);
		off += n;
	}
}

void datfile_finish(struct datfile *df, const char *cpustats)
{
	long page = getpagesize();
	u64 *size = xcalloc(df->ncpus, sizeof(u64)), off;
	int cpu;

	check_interrupted();
	wr_header(df, cpustats);
	/* Offsets follow the table; CPU data starts page aligned. */
	off = lseek(df->fd, 0, SEEK_CUR) + 16ULL * df->ncpus;
	off = (off + page - 1) / page * page;
	for (cpu = 0; cpu < df->ncpus; cpu++) {
		struct stat st;

		if (fstat(df->cpu_fd[cpu], &st))
			die("cannot stat the data of CPU %d: %s", cpu, strerror(errno));
		size[cpu] = st.st_size;
		wr64(df, size[cpu] ? off : 0);
		wr64(df, size[cpu]);
		off = (off + size[cpu] + page - 1) / page * page;
	}
	for (cpu = 0; cpu < df->ncpus; cpu++) {
		off_t here = lseek(df->fd, 0, SEEK_CUR);
		off_t at = (here + page - 1) / page * page;

		if (!size[cpu])
			continue;
		if (at != here && lseek(df->fd, at, SEEK_SET) < 0)
			die("cannot seek in %s: %s", df->tmp, strerror(errno));
		copy_cpu(df, cpu);
		check_interrupted();
	}
	if (fsync(df->fd) && errno != EINVAL)
		die("cannot write %s: %s", df->tmp, strerror(errno));
	if (close(df->fd))
		die("cannot write %s: %s", df->tmp, strerror(errno));
	df->fd = -1;
	check_interrupted();
	if (rename(df->tmp, df->path))
		die("cannot rename %s to %s: %s", df->tmp, df->path, strerror(errno));
	cleanup_pop(df->cleanup, false);
	for (cpu = 0; cpu < df->ncpus; cpu++)
		close(df->cpu_fd[cpu]);
	free(size);
}

/* --- reading the ring buffers ------------------------------------------ */

static int open_raw(struct rp_instance *ri, int cpu)
{
	char *f = xasprintf("per_cpu/cpu%d/trace_pipe_raw", cpu);
	int fd = tracefs_instance_file_open(ri->inst, f, O_RDONLY | O_NONBLOCK);

	if (fd < 0)
		die("cannot open %s of instance %s: %s", f, ri->name, strerror(errno));
	free(f);
	return fd;
}

static int write_all(int fd, const char *p, size_t len)
{
	while (len) {
		ssize_t n = write(fd, p, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return -1;
		p += n;
		len -= n;
	}
	return 0;
}

/*
 * Read whatever is left in a raw buffer, page by page: read() also
 * returns the last, partly filled page, which splice() does not.
 */
static int drain_fd(int rfd, int wfd)
{
	long page = getpagesize();
	char *buf = xmalloc(page);
	int ret = 0;

	for (;;) {
		ssize_t n = read(rfd, buf, page);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && errno == EAGAIN)
			break;
		if (n < 0) {
			ret = -1;
			break;
		}
		if (!n)
			break;
		if (write_all(wfd, buf, n)) {
			ret = -1;
			break;
		}
	}
	free(buf);
	return ret;
}

void drain_buffers(struct rp_instance *ri, struct datfile *df)
{
	int cpu;

	for (cpu = 0; cpu < ri->ncpus && cpu < df->ncpus; cpu++) {
		int fd = open_raw(ri, cpu);

		if (drain_fd(fd, df->cpu_fd[cpu]))
			die("cannot save the buffer of CPU %d: %s", cpu, strerror(errno));
		close(fd);
		check_interrupted();
	}
}

struct cpu_stream {
	struct streamer *s;
	int cpu, rfd, wfd;
	int pipe[2];
	pthread_t thread;
	int err;		/* errno of a failure, 0 if none */
	bool started;
};

struct streamer {
	struct rp_instance *ri;
	int stop[2];		/* written once: every thread drains and ends */
	int n;
	struct cpu_stream *cs;
	int cleanup;
};

/* Move @len bytes from the pipe to the file, by splice or by copying. */
static int pipe_to_file(struct cpu_stream *cs, size_t len)
{
	char buf[1 << 14];

	while (len) {
		ssize_t n = splice(cs->pipe[0], NULL, cs->wfd, NULL, len, SPLICE_F_MOVE);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && errno == EINVAL) {
			/* This file system cannot splice: copy. */
			n = read(cs->pipe[0], buf, len < sizeof(buf) ? len : sizeof(buf));
			if (n > 0 && write_all(cs->wfd, buf, n))
				return -1;
		}
		if (n <= 0)
			return -1;
		len -= n;
	}
	return 0;
}

/* Splice every full page the buffer holds now; 0 when there is none left. */
static int splice_pages(struct cpu_stream *cs)
{
	for (;;) {
		ssize_t n = splice(cs->rfd, NULL, cs->pipe[1], NULL, 1 << 20,
				   SPLICE_F_MOVE | SPLICE_F_NONBLOCK);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && errno == EAGAIN)
			return 0;
		if (n < 0)
			return -1;
		if (!n)
			return 0;
		if (pipe_to_file(cs, n))
			return -1;
	}
}

static void *stream_cpu(void *arg)
{
	struct cpu_stream *cs = arg;
	struct pollfd pfd[2] = {
		{ .fd = cs->rfd, .events = POLLIN },
		{ .fd = cs->s->stop[0], .events = POLLIN },
	};

	for (;;) {
		int r = poll(pfd, 2, -1);

		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			cs->err = errno;
			break;
		}
		/* A possible CPU that is not online has no buffer to read. */
		if (pfd[0].revents & (POLLERR | POLLNVAL))
			return NULL;
		if (pfd[0].revents & POLLIN && splice_pages(cs)) {
			cs->err = errno;
			break;
		}
		if (pfd[1].revents)
			break;
	}
	/* Tracing is off now: take the rest, full pages and the last one. */
	if (!cs->err && (splice_pages(cs) || drain_fd(cs->rfd, cs->wfd)))
		cs->err = errno ? errno : EIO;
	return NULL;
}

static void streamer_cleanup(void *arg)
{
	struct streamer *s = arg;
	int i;
	/* If this fails the threads still end with the process. */
	ssize_t w = write(s->stop[1], "x", 1);

	(void)w;
	for (i = 0; i < s->n; i++) {
		struct cpu_stream *cs = &s->cs[i];

		if (cs->started)
			pthread_join(cs->thread, NULL);
		close(cs->rfd);
		close(cs->pipe[0]);
		close(cs->pipe[1]);
	}
	close(s->stop[0]);
	close(s->stop[1]);
}

struct streamer *stream_start(struct rp_instance *ri, struct datfile *df)
{
	struct streamer *s = xcalloc(1, sizeof(*s));
	sigset_t all, old;
	int i;

	s->ri = ri;
	s->n = ri->ncpus < df->ncpus ? ri->ncpus : df->ncpus;
	s->cs = xcalloc(s->n, sizeof(*s->cs));
	if (pipe2(s->stop, O_CLOEXEC))
		die("cannot create a pipe: %s", strerror(errno));
	/* Readers wake at 10% full: room for a burst while they write. */
	instance_write(ri, "buffer_percent", "10");
	for (i = 0; i < s->n; i++) {
		struct cpu_stream *cs = &s->cs[i];

		cs->s = s;
		cs->cpu = i;
		cs->rfd = open_raw(ri, i);
		cs->wfd = df->cpu_fd[i];
		if (pipe2(cs->pipe, O_CLOEXEC))
			die("cannot create a pipe: %s", strerror(errno));
		fcntl(cs->pipe[0], F_SETPIPE_SZ, 1 << 20);
	}
	s->cleanup = cleanup_push(streamer_cleanup, s);
	/* Signals go to the main thread, which decides what they mean. */
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, &old);
	for (i = 0; i < s->n; i++) {
		if (pthread_create(&s->cs[i].thread, NULL, stream_cpu, &s->cs[i]))
			die("cannot start a reader thread for CPU %d", i);
		s->cs[i].started = true;
	}
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	return s;
}

void stream_stop(struct streamer *s)
{
	int i;

	cleanup_pop(s->cleanup, true);
	for (i = 0; i < s->n; i++) {
		if (s->cs[i].err)
			die("reading the buffer of CPU %d failed: %s", i, strerror(s->cs[i].err));
	}
	free(s->cs);
	free(s);
}
