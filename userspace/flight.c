// SPDX-License-Identifier: GPL-2.0
/*
 * rcupoll flight: the flight recorder the kernel arms.
 *
 * rcupoll traces into an overwriting buffer of its own instance and lets
 * the kernel freeze it at the exact event, with event triggers in that
 * instance:
 *   rcu_poll_batch_end  "traceoff if duration_ns > T"  a batch slower than T
 *   rcu_poll_stall      "traceoff"                      a stall warning
 * so the trace ends at the batch's end (the whole batch is in it) or at
 * the warning.  traceoff triggers need only CONFIG_EVENT_TRACING (the
 * guest kernel has no CONFIG_TRACER_SNAPSHOT or CONFIG_HIST_TRIGGERS for
 * a snapshot trigger or an onmax() histogram).  rcupoll only looks at
 * the instance's tracing_on ten times a second: when the kernel has
 * turned it off, it saves the buffer (DIR/rcupoll-stall.dat) and a
 * diagnosis (DIR/rcupoll-stall.txt: rcupoll report's answer for that
 * batch, the debugfs state, the kernel log), then re-arms for the next
 * catch (--catches N).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <tracefs.h>

#include "rcupoll.h"
#include "trace-model.h"

#define DEBUGFS_RCU "/sys/kernel/debug/rcu"

void usage_flight(FILE *f)
{
	fprintf(f,
		"usage: rcupoll flight [OPTIONS]\n"
		"\n"
		"Keep tracing rcu_poll, rcu, scheduler and softirq events into an overwriting\n"
		"buffer of an instance of its own (rcupoll-flight-PID) until the kernel itself\n"
		"stops it, with event triggers: at the end of a batch slower than --threshold,\n"
		"or at a stall warning (rcu_poll_stall).  Then write the trace leading up to it\n"
		"to DIR/rcupoll-stall.dat and a diagnosis (rcupoll report's answer, debugfs,\n"
		"kernel log) to DIR/rcupoll-stall.txt, both mode 0600.\n"
		"\n"
		"  -o, --output=DIR        where to write (default .)\n"
		"  -t, --threshold=MS      catch a batch that takes longer (default 1000)\n"
		"  -n, --catches=N         re-arm and catch N times (default 1); files are then\n"
		"                          rcupoll-stall-1.dat, -2, ...\n"
		"  -b, --buffer-size=KB    ring buffer per CPU (default 2048: the last seconds)\n"
		"  -w, --wait=SECONDS      give up after SECONDS (default: wait for ever)\n"
		"  -S, --no-stall          do not stop at stall warnings, only at slow batches\n"
		"  -h, --help              this help\n"
		"\n"
		"A batch stuck for longer than MS is caught when it ends, or at the kernel's\n"
		"stall warning (rcupdate.rcu_cpu_stall_timeout), whichever comes first.\n"
		"Exit status: 0 caught; 3 nothing caught in time (or stopped by a signal);\n"
		"1 on an error; 2 for a bad command line.\n");
}

static const struct option flight_long[] = {
	{ "output", required_argument, NULL, 'o' },
	{ "threshold", required_argument, NULL, 't' },
	{ "catches", required_argument, NULL, 'n' },
	{ "buffer-size", required_argument, NULL, 'b' },
	{ "wait", required_argument, NULL, 'w' },
	{ "no-stall", no_argument, NULL, 'S' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

struct flight {
	const char *dir;
	double thresh_ms;
	unsigned long catches, kb, wait;
	bool stall;
	struct rp_instance *ri;
	int ncpus;
};

/* Can files be created in @dir?  Checked before anything is traced. */
static void check_dir(const char *dir)
{
	struct stat st;
	char *p;
	int fd;

	if (stat(dir, &st))
		die("cannot write to directory %s: %s", dir, strerror(errno));
	if (!S_ISDIR(st.st_mode))
		die("cannot write to directory %s: not a directory", dir);
	p = xasprintf("%s/.rcupoll-flight-%d.probe", dir, (int)getpid());
	fd = open(p, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	if (fd < 0)
		die("cannot write to directory %s: %s", dir, strerror(errno));
	close(fd);
	unlink(p);
	free(p);
}

static void arm(struct flight *fl)
{
	char *trig = xasprintf("traceoff if duration_ns > %llu",
			       (unsigned long long)(fl->thresh_ms * 1e6));

	if (tracefs_event_file_write(fl->ri->inst, "rcu_poll", "rcu_poll_batch_end", "trigger",
				     trig) < 0)
		die("cannot set the trigger '%s' on rcu_poll_batch_end in instance %s: %s", trig,
		    fl->ri->name, strerror(errno));
	if (fl->stall && tracefs_event_file_write(fl->ri->inst, "rcu_poll", "rcu_poll_stall",
						  "trigger", "traceoff") < 0)
		die("cannot set a traceoff trigger on rcu_poll_stall in instance %s: %s",
		    fl->ri->name, strerror(errno));
	free(trig);
}

/* Wait until a trigger turned tracing off; false if time ran out or a signal came. */
static bool wait_for_catch(struct flight *fl, time_t deadline)
{
	for (;;) {
		struct timespec ts = { .tv_nsec = 100 * 1000 * 1000 };

		if (!tracefs_trace_is_on(fl->ri->inst))
			return true;
		if (signal_stop || (deadline && time(NULL) >= deadline))
			return false;
		nanosleep(&ts, NULL);
	}
}

/* Append @path's contents (a debugfs file) to @f, if it can be read. */
static void append_file(FILE *f, const char *title, const char *path, int max_lines)
{
	char line[1024];
	FILE *in = fopen(path, "r");
	int n = 0;

	fprintf(f, "\n== %s (%s)\n", title, path);
	if (!in) {
		fprintf(f, "(cannot read it: %s)\n", strerror(errno));
		return;
	}
	while (fgets(line, sizeof(line), in) && n++ < max_lines)
		fputs(line, f);
	if (n > max_lines)
		fprintf(f, "... (more lines not shown)\n");
	fclose(in);
}

static void append_cmd(FILE *f, const char *title, const char *cmd)
{
	char line[1024];
	FILE *p = popen(cmd, "r");

	fprintf(f, "\n== %s (%s)\n", title, cmd);
	if (!p)
		return;
	while (fgets(line, sizeof(line), p))
		fputs(line, f);
	pclose(p);
}

/* rcupoll report's text for @args, into @f (a child process: report prints to stdout). */
static void append_report(FILE *f, char **args)
{
	pid_t pid;
	int status;

	fflush(f);
	pid = fork();
	if (pid < 0)
		return;
	if (!pid) {
		int n = 0;

		dup2(fileno(f), 1);
		dup2(fileno(f), 2);
		while (args[n])
			n++;
		rcupoll_cmd = "report";
		optind = 1;
		_exit(cmd_report(n, args));
	}
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
}

/* What the kernel stopped at: the last stall event, or the last slow batch end. */
static void what_fired(struct model *m, u64 thresh_ns, char *what, size_t len,
		       struct gp **gp_out)
{
	struct stall_ev *last_stall = m->stalls.n ?
		VEC_AT(&m->stalls, struct stall_ev, m->stalls.n - 1) : NULL;
	struct gp *last_end = NULL;
	char ts[TS_BUF];
	size_t i;

	*gp_out = NULL;
	for (i = 0; i < m->gps.n; i++) {
		struct gp *g = model_gp(m, i);

		if (g->end && g->end - g->start > thresh_ns && (!last_end || g->end > last_end->end))
			last_end = g;
	}
	while (last_stall && last_stall->holdout)
		last_stall = last_stall > (struct stall_ev *)m->stalls.v ? last_stall - 1 : NULL;
	if (last_stall && (!last_end || last_stall->ts > last_end->end)) {
		*gp_out = model_find_gp(m, last_stall->flavour, last_stall->batch);
		if (last_stall->batch)
			snprintf(what, len, "a stall warning at %s: %s batch %lu, %lu ms old",
				 fmt_ts(last_stall->ts, ts), m->flv[last_stall->flavour].name,
				 last_stall->batch, last_stall->age_ms);
		else
			snprintf(what, len, "a stall warning at %s: CPU %d started no batch in %lu ms",
				 fmt_ts(last_stall->ts, ts), last_stall->cpu, last_stall->age_ms);
	} else if (last_end) {
		*gp_out = last_end;
		snprintf(what, len, "%s batch %lu ended at %s after %.1f ms",
			 m->flv[last_end->flavour].name, last_end->nr, fmt_ts(last_end->end, ts),
			 (last_end->end - last_end->start) / 1e6);
	} else {
		snprintf(what, len, "tracing stopped, but the trace shows no slow batch or stall");
	}
}

/* Create @path via a temporary O_EXCL 0600 file; returns the stream and tmp name. */
static FILE *create_private(const char *path, char **tmp)
{
	int fd;
	FILE *f;

	*tmp = xasprintf("%s.rcupoll-%d.tmp", path, (int)getpid());
	fd = open(*tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	if (fd < 0 || !(f = fdopen(fd, "w")))
		die("cannot write %s: %s", *tmp, strerror(errno));
	return f;
}

static void remove_file(void *arg)
{
	unlink(arg);
}

/* What a catch saves, taken while tracing is off, written once re-armed. */
struct catch {
	char *dat, *txt;
	struct datfile *df;
	char *stats;
	char *state;		/* debugfs files and kernel log at the catch */
	size_t state_len;
};

/* Save the frozen buffers and the kernel's state now: tracing can then resume. */
static void take_catch(struct flight *fl, unsigned long k, struct catch *c)
{
	struct rb_stats s;
	FILE *f;

	if (fl->catches > 1) {
		c->dat = xasprintf("%s/rcupoll-stall-%lu.dat", fl->dir, k);
		c->txt = xasprintf("%s/rcupoll-stall-%lu.txt", fl->dir, k);
	} else {
		c->dat = xasprintf("%s/rcupoll-stall.dat", fl->dir);
		c->txt = xasprintf("%s/rcupoll-stall.txt", fl->dir);
	}
	c->df = datfile_open(c->dat, fl->ncpus, NULL);
	drain_buffers(fl->ri, c->df);
	instance_stats(fl->ri, &s, &c->stats);
	f = open_memstream(&c->state, &c->state_len);
	if (!f)
		die("out of memory");
	append_file(f, "grace periods", DEBUGFS_RCU "/gp", 200);
	append_file(f, "per-CPU state", DEBUGFS_RCU "/rcudata", 200);
	append_file(f, "pending callbacks", DEBUGFS_RCU "/pending", 50);
	append_cmd(f, "kernel log, last 60 lines", "dmesg 2>/dev/null | tail -n 60");
	fclose(f);
}

static void write_diagnosis(struct catch *c, const char *what, struct gp *g, struct model *m)
{
	char *tmp, nr[32];
	FILE *f = create_private(c->txt, &tmp);
	int h = cleanup_push(remove_file, tmp);

	fprintf(f, "rcupoll flight recorder: caught %s\ntrace: %s\n", what, c->dat);
	if (g) {
		char *args[] = { "report", "--batch", nr, "--flavour",
				 (char *)m->flv[g->flavour].name, c->dat, NULL };

		snprintf(nr, sizeof(nr), "%lu", g->nr);
		fprintf(f, "\n== rcupoll report --batch %s --flavour %s %s\n", nr,
			m->flv[g->flavour].name, c->dat);
		append_report(f, args);
	}
	fwrite(c->state, 1, c->state_len, f);
	if (fclose(f) || rename(tmp, c->txt))
		die("cannot write %s: %s", c->txt, strerror(errno));
	cleanup_pop(h, false);
	free(tmp);
}

/* Write the trace.dat and the diagnosis of a catch, and say what it was. */
static void write_catch(struct flight *fl, struct catch *c)
{
	u64 thresh = (u64)(fl->thresh_ms * 1e6);
	struct model *m;
	char what[256];
	struct gp *g;

	datfile_finish(c->df, c->stats);
	m = model_load(c->dat, NULL, thresh);
	what_fired(m, thresh, what, sizeof(what), &g);
	if (g)
		explain_gp(m, g);	/* caught at a stall: may be younger than -t */
	write_diagnosis(c, what, g, m);
	printf("rcupoll: caught %s\n", what);
	if (g && g->cause.kind != CAUSE_NONE)
		printf("rcupoll: why: %s\n", g->cause.text);
	printf("rcupoll: wrote %s (%llu bytes) and %s\n", c->dat, file_size(c->dat), c->txt);
	fflush(stdout);
	model_free(m);
	free(c->dat);
	free(c->txt);
	free(c->stats);
	free(c->state);
}

static int count_cpus(const char *tdir)
{
	int n = 0;

	for (;;) {
		char *p = xasprintf("%s/per_cpu/cpu%d", tdir, n);
		bool there = !access(p, F_OK);

		free(p);
		if (!there)
			return n;
		n++;
	}
}

int cmd_flight(int argc, char **argv)
{
	struct flight fl = { .dir = ".", .thresh_ms = 1000, .catches = 1, .kb = 2048, .stall = true };
	struct catch ct;
	time_t deadline = 0;
	const char *tdir;
	unsigned long k;
	int c;

	while ((c = cli_getopt(argc, argv, "o:t:n:b:w:Sh", flight_long)) != -1) {
		switch (c) {
		case 'o': fl.dir = optarg; break;
		case 't': fl.thresh_ms = parse_ms(optarg, "--threshold", 0.001, 3600000); break;
		case 'n': fl.catches = parse_num(optarg, "--catches", 1, 1000); break;
		case 'b': fl.kb = parse_num(optarg, "--buffer-size", 1, 1 << 20); break;
		case 'w': fl.wait = parse_num(optarg, "--wait", 1, 86400 * 365); break;
		case 'S': fl.stall = false; break;
		case 'h': usage_flight(stdout); exit(0);
		}
	}
	if (optind != argc)
		die_usage("flight takes no arguments, not '%s'", argv[optind]);
	check_root();
	tdir = tracing_dir_checked();
	check_rcu_poll_events(tdir, false);
	check_dir(fl.dir);
	signals_install();
	fl.ncpus = count_cpus(tdir);
	fl.ri = instance_create("flight", fl.kb, true);
	arm(&fl);
	if (fl.wait)
		deadline = time(NULL) + fl.wait;
	for (k = 1; k <= fl.catches; k++) {
		check_interrupted();
		signals_set_recording(true);
		/* Re-armed as soon as the last catch was saved: the buffers are empty. */
		if (k == 1 && tracefs_trace_on(fl.ri->inst) < 0)
			die("cannot turn tracing on in instance %s", fl.ri->name);
		if (k == 1) {
			printf("rcupoll: flight recorder armed: batches over %g ms%s, %lu KB per CPU, instance %s\n",
			       fl.thresh_ms, fl.stall ? " and stall warnings" : "", fl.kb, fl.ri->name);
			fflush(stdout);
		}
		if (!wait_for_catch(&fl, deadline)) {
			int sig = signal_stop;

			tracefs_trace_off(fl.ri->inst);
			signals_set_recording(false);
			instance_destroy(fl.ri);
			if (sig)
				printf("rcupoll: stopped by signal %d after %lu catches\n", sig, k - 1);
			else
				printf("rcupoll: nothing over %g ms in %lu s (%lu caught)\n", fl.thresh_ms,
				       fl.wait, k - 1);
			return EXIT_NOCATCH;
		}
		signals_set_recording(false);
		take_catch(&fl, k, &ct);
		if (k < fl.catches && tracefs_trace_on(fl.ri->inst) < 0)
			die("cannot turn tracing on again in instance %s", fl.ri->name);
		write_catch(&fl, &ct);
	}
	instance_destroy(fl.ri);
	return 0;
}
