// SPDX-License-Identifier: GPL-2.0
/*
 * rcupoll: record and read rcu_poll traces.
 *
 *   rcupoll record [-o FILE] [-b KB] [-d SECONDS | -- COMMAND...]
 *   rcupoll flight [-o DIR] [-t MS] [-b KB] [-w SECONDS]
 *   rcupoll report [-f text|csv|json] [-n N] FILE
 *
 * record and flight use libtracefs for tracefs (an instance of their own,
 * events, buffer sizes) and "trace-cmd extract" to write trace.dat, since
 * libtracecmd has no public writer; report reads trace.dat with
 * libtracecmd and libtraceevent.  Output files are written under a
 * temporary name and renamed when complete.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <libgen.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <tracefs.h>
#include <event-parse.h>
#include <trace-cmd.h>

#define INSTANCE	"rcupoll"
#define FLIGHT_INSTANCE	"rcupoll_flight"
#define GP_FILE		"/sys/kernel/debug/rcu/gp"

static const char *prog = "rcupoll";

static void die(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: ", prog);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(1);
}

static void usage(FILE *f)
{
	fprintf(f,
		"usage: rcupoll record [-o FILE] [-b KB] [-d SECONDS | -- COMMAND...]\n"
		"       rcupoll flight [-o DIR] [-t MS] [-b KB] [-w SECONDS]\n"
		"       rcupoll report [-f text|csv|json] [-n N] FILE\n"
		"\n"
		"record  trace rcu_poll, rcu and scheduler events for SECONDS (default 5)\n"
		"        or while COMMAND runs, into FILE (default trace.dat)\n"
		"flight  keep tracing in an overwriting buffer; when a batch is older than\n"
		"        MS (default 1000) in " GP_FILE ", write the trace leading up\n"
		"        to it and a diagnosis to DIR (default .); give up after -w SECONDS\n"
		"report  summarise a trace.dat: batch durations, slowest batches and who\n"
		"        reported last, callback latency by function, stalls\n");
}

static unsigned long parse_num(const char *s, const char *what, unsigned long max)
{
	unsigned long v;
	char *end;

	errno = 0;
	v = strtoul(s, &end, 10);
	if (errno || !*s || *end || *s == '-' || v == 0 || v > max)
		die("%s must be a number from 1 to %lu, not '%s'", what, max, s);
	return v;
}

/* --- recording ------------------------------------------------------- */

/* The events a batch needs to be explained. */
static const char *const events[][2] = {
	{ "rcu_poll", NULL },
	{ "rcu", NULL },
	{ "sched", "sched_switch" },
	{ "sched", "sched_wakeup" },
	{ "irq", "softirq_entry" },
	{ "irq", "softirq_exit" },
};

static void check_environment(void)
{
	const char *dir;
	char *path;

	if (geteuid())
		die("must run as root (tracefs and debugfs are root-only)");
	dir = tracefs_tracing_dir();
	if (!dir)
		die("tracefs is not mounted: mount -t tracefs tracefs /sys/kernel/tracing");
	if (asprintf(&path, "%s/events/rcu_poll", dir) < 0)
		die("out of memory");
	if (access(path, F_OK))
		die("this kernel has no rcu_poll trace events (%s): boot an RCU_POLL kernel with CONFIG_RCU_TRACE",
		    path);
	free(path);
}

/* A fresh instance with our events enabled, tracing off. */
static struct tracefs_instance *setup_instance(const char *name, unsigned long kb)
{
	struct tracefs_instance *inst;
	size_t i;

	inst = tracefs_instance_create(name);
	if (!inst)
		die("cannot create tracefs instance %s: %s", name, strerror(errno));
	tracefs_trace_off(inst);
	tracefs_event_disable(inst, NULL, NULL);
	if (tracefs_instance_set_buffer_size(inst, kb, -1) < 0)
		die("cannot set the buffer size of instance %s to %lu KB", name, kb);
	tracefs_instance_file_clear(inst, "trace");
	for (i = 0; i < sizeof(events) / sizeof(events[0]); i++) {
		if (tracefs_event_enable(inst, events[i][0], events[i][1]) < 0 &&
		    !strcmp(events[i][0], "rcu_poll"))
			die("cannot enable the rcu_poll events");
	}
	return inst;
}

static void destroy_instance(struct tracefs_instance *inst)
{
	tracefs_trace_off(inst);
	tracefs_instance_destroy(inst);
	tracefs_instance_free(inst);
}

/* Sum "KEY: N" over the per-CPU stats files of @inst. */
static unsigned long long instance_stat(struct tracefs_instance *inst, const char *key)
{
	unsigned long long sum = 0;
	int cpu, ncpus = sysconf(_SC_NPROCESSORS_CONF);

	for (cpu = 0; cpu < ncpus; cpu++) {
		char file[64], *buf, *p;

		snprintf(file, sizeof(file), "per_cpu/cpu%d/stats", cpu);
		buf = tracefs_instance_file_read(inst, file, NULL);
		if (!buf)
			continue;
		p = strstr(buf, key);
		if (p)
			sum += strtoull(p + strlen(key), NULL, 10);
		free(buf);
	}
	return sum;
}

static volatile sig_atomic_t stop;

static void on_signal(int sig)
{
	stop = 1;
}

/* Run a program, return its exit status (or -1); @quiet: no stdout. */
static int run(char *const argv[], bool quiet)
{
	int status;
	pid_t pid = fork();

	if (pid < 0)
		return -1;
	if (!pid) {
		if (quiet && (!freopen("/dev/null", "w", stdout) ||
			      !freopen("/dev/null", "w", stderr)))
			_exit(127);
		execvp(argv[0], argv);
		fprintf(stderr, "%s: cannot run %s: %s\n", prog, argv[0], strerror(errno));
		_exit(127);
	}
	while (waitpid(pid, &status, 0) < 0) {
		if (errno != EINTR)
			return -1;
	}
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/*
 * Write the buffer of instance @name to @out as trace.dat, through a
 * temporary file: "trace-cmd extract" is the writer.
 */
static void extract(const char *name, const char *out)
{
	char *tmp;
	char *argv[] = { "trace-cmd", "extract", "-B", (char *)name, "-o", NULL, NULL };

	if (asprintf(&tmp, "%s.tmp.%d", out, getpid()) < 0)
		die("out of memory");
	argv[5] = tmp;
	if (run(argv, true)) {
		unlink(tmp);
		die("trace-cmd extract -B %s failed: is trace-cmd installed, is there room for %s?",
		    name, out);
	}
	/* extract -B writes FILE as given; some versions add the instance. */
	if (access(tmp, F_OK)) {
		char *alt;

		if (asprintf(&alt, "%s.%s", tmp, name) < 0)
			die("out of memory");
		if (rename(alt, tmp))
			die("trace-cmd extract wrote no %s", tmp);
		free(alt);
	}
	if (rename(tmp, out))
		die("cannot rename %s to %s: %s", tmp, out, strerror(errno));
	free(tmp);
}

/* Fail before tracing if @out cannot be created where it is to go. */
static void check_output_dir(const char *out)
{
	char *copy = strdup(out);
	const char *dir;

	if (!copy)
		die("out of memory");
	dir = dirname(copy);
	if (access(dir, W_OK))
		die("cannot write %s: directory %s: %s", out, dir, strerror(errno));
	free(copy);
}

static off_t file_size(const char *path)
{
	struct stat st;

	return stat(path, &st) ? 0 : st.st_size;
}

static int cmd_record(int argc, char **argv)
{
	const char *out = "trace.dat";
	unsigned long secs = 5, kb = 8192;
	struct tracefs_instance *inst;
	unsigned long long entries, overrun;
	int c, status = 0;

	while ((c = getopt(argc, argv, "+o:d:b:h")) != -1) {
		switch (c) {
		case 'o': out = optarg; break;
		case 'd': secs = parse_num(optarg, "-d SECONDS", 86400); break;
		case 'b': kb = parse_num(optarg, "-b KB", 1 << 20); break;
		case 'h': usage(stdout); return 0;
		default: usage(stderr); return 2;
		}
	}
	check_output_dir(out);
	check_environment();
	inst = setup_instance(INSTANCE, kb);
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
	tracefs_trace_on(inst);
	if (optind < argc) {
		status = run(argv + optind, false);
	} else {
		struct timespec ts = { .tv_sec = secs };

		while (nanosleep(&ts, &ts) && errno == EINTR && !stop)
			;
	}
	tracefs_trace_off(inst);
	entries = instance_stat(inst, "entries: ");
	overrun = instance_stat(inst, "overrun: ");
	extract(INSTANCE, out);
	destroy_instance(inst);
	printf("rcupoll: recorded %llu events (%llu lost) into %s (%lld bytes)\n",
	       entries, overrun, out, (long long)file_size(out));
	return status ? 1 : 0;
}

/* --- flight recorder ------------------------------------------------- */

/* The oldest batch in flight in the gp file, in ms, and its line. */
static long oldest_batch(char *line, size_t len)
{
	FILE *f = fopen(GP_FILE, "r");
	char buf[512];
	long max = -1;

	if (!f)
		die("cannot read %s: %s (is debugfs mounted, is this an RCU_POLL kernel?)",
		    GP_FILE, strerror(errno));
	while (fgets(buf, sizeof(buf), f)) {
		char *p = strstr(buf, " age_ms=");
		long age;

		if (strncmp(buf, "batch ", 6) || !p)
			continue;
		age = strtol(p + 8, NULL, 10);
		if (age > max) {
			max = age;
			snprintf(line, len, "%s", buf);
		}
	}
	fclose(f);
	return max;
}

/* Append the output of a shell command to @f. */
static void append_cmd(FILE *f, const char *title, const char *cmd)
{
	char buf[1024];
	FILE *p = popen(cmd, "r");

	fprintf(f, "\n== %s (%s)\n", title, cmd);
	if (!p)
		return;
	while (fgets(buf, sizeof(buf), p))
		fputs(buf, f);
	pclose(p);
}

static void write_diagnosis(const char *path, const char *line, long age)
{
	char *tmp;
	FILE *f;

	if (asprintf(&tmp, "%s.tmp", path) < 0)
		die("out of memory");
	f = fopen(tmp, "w");
	if (!f)
		die("cannot write %s: %s", tmp, strerror(errno));
	fprintf(f, "rcupoll flight recorder: a batch was %ld ms old\n%s", age, line);
	append_cmd(f, "grace periods", "cat " GP_FILE);
	append_cmd(f, "per-CPU state", "cat /sys/kernel/debug/rcu/rcudata");
	append_cmd(f, "pending callbacks", "head -n 50 /sys/kernel/debug/rcu/pending");
	append_cmd(f, "kernel log", "dmesg | grep 'rcu_poll' | tail -n 40");
	if (fclose(f) || rename(tmp, path))
		die("cannot write %s", path);
	free(tmp);
}

static int cmd_flight(int argc, char **argv)
{
	const char *dir = ".";
	unsigned long thresh = 1000, kb = 2048, wait = 0;
	struct tracefs_instance *inst;
	char line[512] = "", *dat, *txt;
	time_t start = time(NULL);
	long age;
	int c;

	while ((c = getopt(argc, argv, "o:t:b:w:h")) != -1) {
		switch (c) {
		case 'o': dir = optarg; break;
		case 't': thresh = parse_num(optarg, "-t MS", 3600000); break;
		case 'b': kb = parse_num(optarg, "-b KB", 1 << 20); break;
		case 'w': wait = parse_num(optarg, "-w SECONDS", 86400 * 365); break;
		case 'h': usage(stdout); return 0;
		default: usage(stderr); return 2;
		}
	}
	if (optind != argc) {
		usage(stderr);
		return 2;
	}
	if (access(dir, W_OK))
		die("cannot write to directory %s: %s", dir, strerror(errno));
	check_environment();
	oldest_batch(line, sizeof(line));	/* fails early without debugfs */
	if (asprintf(&dat, "%s/rcupoll-stall.dat", dir) < 0 ||
	    asprintf(&txt, "%s/rcupoll-stall.txt", dir) < 0)
		die("out of memory");
	inst = setup_instance(FLIGHT_INSTANCE, kb);
	tracefs_instance_file_write(inst, "options/overwrite", "1");
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
	tracefs_trace_on(inst);
	printf("rcupoll: flight recorder armed: batches older than %lu ms, %lu KB per CPU\n",
	       thresh, kb);
	fflush(stdout);
	for (;;) {
		struct timespec ts = { .tv_nsec = 100 * 1000 * 1000 };

		age = oldest_batch(line, sizeof(line));
		if (age >= (long)thresh)
			break;
		if (stop || (wait && time(NULL) - start >= (time_t)wait)) {
			destroy_instance(inst);
			printf("rcupoll: no batch reached %lu ms\n", thresh);
			return 3;
		}
		nanosleep(&ts, NULL);
	}
	tracefs_trace_off(inst);	/* freeze what led up to it */
	write_diagnosis(txt, line, age);
	extract(FLIGHT_INSTANCE, dat);
	destroy_instance(inst);
	printf("rcupoll: batch %ld ms old: %s", age, line);
	printf("rcupoll: wrote %s (%lld bytes) and %s\n", dat, (long long)file_size(dat), txt);
	return 0;
}

/* --- report ---------------------------------------------------------- */

struct batch {
	char flavour[24];
	unsigned long batch;
	int cpu;
	unsigned long long start, end;	/* ns */
	int last_qs_cpu;
	unsigned long long last_qs_ts;
	char last_comm[24];		/* what ran on last_qs_cpu then */
	long ncbs;
	unsigned long long waits;	/* CPUs 0-63 it waits for */
	unsigned long long seen;	/* those a poller saw */
};

struct func_lat {
	char name[64];
	unsigned long n;
	double *lat;			/* us */
	unsigned long cap;
};

struct stall {
	unsigned long long ts;
	char text[256];
};

/* The last context switch seen on a CPU. */
struct cpu_sw {
	unsigned long long ts;
	char prev[24];			/* ran until then */
	char next[24];			/* runs since */
};

struct report {
	struct tep_handle *tep;
	struct trace_seq seq;
	struct batch *b;
	size_t nb, capb;
	struct func_lat *f;
	size_t nf;
	struct stall *s;
	size_t ns, caps;
	struct cpu_sw *cpu;		/* last sched_switch per CPU */
	int ncpus;
	unsigned long long nevents, nrcu_poll;
	unsigned long long last_ts;	/* of the newest event */
};

static void *xrealloc(void *p, size_t n)
{
	p = realloc(p, n);
	if (!p)
		die("out of memory");
	return p;
}

/* The value of KEY=... in @info, up to the next space, into @out. */
static bool kv(const char *info, const char *key, char *out, size_t len)
{
	size_t kl = strlen(key);
	const char *p = info;

	while ((p = strstr(p, key))) {
		if ((p == info || p[-1] == ' ') && p[kl] == '=') {
			size_t n = strcspn(p + kl + 1, " \n");

			if (n >= len)
				n = len - 1;
			memcpy(out, p + kl + 1, n);
			out[n] = '\0';
			return true;
		}
		p += kl;
	}
	return false;
}

static unsigned long long kvnum(const char *info, const char *key)
{
	char v[32];

	return kv(info, key, v, sizeof(v)) ? strtoull(v, NULL, 0) : 0;
}

/*
 * The "waits" bitmask of a batch start as printed ("00000000,00000003":
 * 32-bit words, most significant first): CPUs 0-63.
 */
static unsigned long long parse_mask(const char *info)
{
	unsigned long long m = 0;
	char v[256], *w, *save;

	if (!kv(info, "waits", v, sizeof(v)))
		return 0;
	for (w = strtok_r(v, ",", &save); w; w = strtok_r(NULL, ",", &save))
		m = (m << 32) | strtoull(w, NULL, 16);
	return m;
}

static struct batch *find_batch(struct report *r, const char *fl, unsigned long nr)
{
	size_t i;

	for (i = r->nb; i-- > 0;) {
		if (r->b[i].batch == nr && !strcmp(r->b[i].flavour, fl))
			return &r->b[i];
	}
	return NULL;
}

static void add_latency(struct report *r, const char *func, double us)
{
	struct func_lat *f = NULL;
	size_t i;

	for (i = 0; i < r->nf; i++) {
		if (!strcmp(r->f[i].name, func)) {
			f = &r->f[i];
			break;
		}
	}
	if (!f) {
		r->f = xrealloc(r->f, (r->nf + 1) * sizeof(*r->f));
		f = &r->f[r->nf++];
		memset(f, 0, sizeof(*f));
		snprintf(f->name, sizeof(f->name), "%s", func);
	}
	if (f->n == f->cap) {
		f->cap = f->cap ? 2 * f->cap : 64;
		f->lat = xrealloc(f->lat, f->cap * sizeof(*f->lat));
	}
	f->lat[f->n++] = us;
}

static void on_sched_switch(struct report *r, struct tep_event *ev, struct tep_record *rec)
{
	struct tep_format_field *prev = tep_find_field(ev, "prev_comm");
	struct tep_format_field *next = tep_find_field(ev, "next_comm");
	struct cpu_sw *c;

	if (!prev || !next || rec->cpu < 0)
		return;
	if (rec->cpu >= r->ncpus) {
		int n = rec->cpu + 1;

		r->cpu = xrealloc(r->cpu, n * sizeof(*r->cpu));
		memset(r->cpu + r->ncpus, 0, (n - r->ncpus) * sizeof(*r->cpu));
		r->ncpus = n;
	}
	c = &r->cpu[rec->cpu];
	c->ts = rec->ts;
	snprintf(c->prev, sizeof(c->prev), "%.*s", (int)prev->size,
		 (char *)rec->data + prev->offset);
	snprintf(c->next, sizeof(c->next), "%.*s", (int)next->size,
		 (char *)rec->data + next->offset);
}

/*
 * What held @b back on its last CPU: the task that ran there until the
 * context switch that gave the quiescent state, if that switch came
 * during the batch; otherwise the task running there since before it.
 */
static void blame(struct report *r, struct batch *b)
{
	struct cpu_sw *c;

	if (b->last_qs_cpu < 0 || b->last_qs_cpu >= r->ncpus)
		return;
	c = &r->cpu[b->last_qs_cpu];
	if (!c->ts)
		return;
	snprintf(b->last_comm, sizeof(b->last_comm), "%s", c->ts > b->start ? c->prev : c->next);
}

static void on_rcu_poll(struct report *r, const char *name, const char *info,
			unsigned long long ts)
{
	char fl[24] = "", func[64];
	struct batch *b;

	sscanf(info, "%23s", fl);
	r->nrcu_poll++;
	if (!strcmp(name, "rcu_poll_batch_start")) {
		if (r->nb == r->capb) {
			r->capb = r->capb ? 2 * r->capb : 256;
			r->b = xrealloc(r->b, r->capb * sizeof(*r->b));
		}
		b = &r->b[r->nb++];
		memset(b, 0, sizeof(*b));
		snprintf(b->flavour, sizeof(b->flavour), "%s", fl);
		b->batch = kvnum(info, "batch");
		b->cpu = kvnum(info, "cpu");
		b->ncbs = kvnum(info, "ncbs");
		b->start = ts;
		b->last_qs_cpu = -1;
		b->waits = parse_mask(info);
	} else if (!strcmp(name, "rcu_poll_qs")) {
		b = find_batch(r, fl, kvnum(info, "batch"));
		if (b && !b->end) {
			b->last_qs_cpu = kvnum(info, "qs_cpu");
			if (b->last_qs_cpu >= 0 && b->last_qs_cpu < 64)
				b->seen |= 1ULL << b->last_qs_cpu;
			b->last_qs_ts = ts;
			blame(r, b);
		}
	} else if (!strcmp(name, "rcu_poll_batch_end")) {
		b = find_batch(r, fl, kvnum(info, "batch"));
		if (b && !b->end)
			b->end = ts;
	} else if (!strcmp(name, "rcu_poll_invoke")) {
		if (kv(info, "func", func, sizeof(func)))
			add_latency(r, func, kvnum(info, "age_ns") / 1000.0);
	} else if (!strcmp(name, "rcu_poll_stall") || !strcmp(name, "rcu_poll_holdout")) {
		if (r->ns == r->caps) {
			r->caps = r->caps ? 2 * r->caps : 16;
			r->s = xrealloc(r->s, r->caps * sizeof(*r->s));
		}
		r->s[r->ns].ts = ts;
		snprintf(r->s[r->ns].text, sizeof(r->s[0].text), "%s: %s", name, info);
		r->ns++;
	}
}

static int on_record(struct tracecmd_input *handle, struct tep_record *rec, int cpu, void *data)
{
	struct report *r = data;
	struct tep_event *ev = tep_find_event_by_record(r->tep, rec);

	r->nevents++;
	if (rec->ts > r->last_ts)
		r->last_ts = rec->ts;
	if (!ev)
		return 0;
	if (!strcmp(ev->name, "sched_switch")) {
		on_sched_switch(r, ev, rec);
		return 0;
	}
	if (strcmp(ev->system, "rcu_poll"))
		return 0;
	trace_seq_reset(&r->seq);
	tep_print_event(r->tep, &r->seq, rec, "%s", TEP_PRINT_INFO);
	trace_seq_terminate(&r->seq);
	on_rcu_poll(r, ev->name, r->seq.buffer, rec->ts);
	return 0;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* Percentile @p (0..100) of sorted @v[n]. */
static double pct(const double *v, size_t n, double p)
{
	size_t i = (size_t)((p / 100.0) * (n - 1) + 0.5);

	return n ? v[i < n ? i : n - 1] : 0;
}

static int cmp_batch_dur(const void *a, const void *b)
{
	const struct batch *x = a, *y = b;
	unsigned long long dx = x->end - x->start, dy = y->end - y->start;

	return dx < dy ? 1 : dx > dy ? -1 : 0;
}

enum fmt { FMT_TEXT, FMT_CSV, FMT_JSON };

static void print_summary(const char *flavour, double *d, size_t n, enum fmt fmt)
{
	if (!n)
		return;
	qsort(d, n, sizeof(*d), cmp_double);
	if (fmt == FMT_TEXT)
		printf("  %-18s %8zu %10.1f %10.1f %10.1f %10.1f\n", flavour, n,
		       pct(d, n, 50), pct(d, n, 99), d[n - 1], d[0]);
	else if (fmt == FMT_CSV)
		printf("batches,%s,%zu,%.1f,%.1f,%.1f,%.1f\n", flavour, n, pct(d, n, 50),
		       pct(d, n, 99), d[n - 1], d[0]);
	else
		printf("{\"type\":\"batches\",\"flavour\":\"%s\",\"count\":%zu,\"median_us\":%.1f,\"p99_us\":%.1f,\"max_us\":%.1f,\"min_us\":%.1f}\n",
		       flavour, n, pct(d, n, 50), pct(d, n, 99), d[n - 1], d[0]);
}

static void print_report(struct report *r, enum fmt fmt, int top)
{
	static const char *const flavours[] = { "rcu_poll", "rcu_poll_preempt" };
	double *d = xrealloc(NULL, (r->nb + 1) * sizeof(*d));
	size_t i, k, n, ended = 0;

	if (fmt == FMT_TEXT) {
		printf("%llu events, %llu rcu_poll events, %zu batches started\n\n",
		       r->nevents, r->nrcu_poll, r->nb);
		printf("batch durations (us)\n  %-18s %8s %10s %10s %10s %10s\n",
		       "flavour", "count", "median", "p99", "max", "min");
	} else if (fmt == FMT_CSV) {
		printf("type,name,count,median_us,p99_us,max_us,min_us\n");
	}
	for (k = 0; k < 2; k++) {
		for (i = n = 0; i < r->nb; i++) {
			if (r->b[i].end && !strcmp(r->b[i].flavour, flavours[k]))
				d[n++] = (r->b[i].end - r->b[i].start) / 1000.0;
		}
		print_summary(flavours[k], d, n, fmt);
	}
	/* Batches in flight when the trace ends: what a stall recording shows. */
	if (fmt == FMT_TEXT)
		printf("\nbatches still in flight at the end of the trace\n  %-18s %8s %4s %10s  %s\n",
		       "flavour", "batch", "cpu", "age us", "CPUs not seen yet");
	for (i = 0; i < r->nb; i++) {
		struct batch *b = &r->b[i];
		char cpus[256] = "";
		int c;

		if (b->end)
			continue;
		for (c = 0; c < 64; c++) {
			if ((b->waits & ~b->seen) & (1ULL << c))
				snprintf(cpus + strlen(cpus), sizeof(cpus) - strlen(cpus), "%s%d",
					 cpus[0] ? "," : "", c);
		}
		if (fmt == FMT_TEXT)
			printf("  %-18s %8lu %4d %10.1f  %s\n", b->flavour, b->batch, b->cpu,
			       (r->last_ts - b->start) / 1000.0, cpus[0] ? cpus : "-");
		else if (fmt == FMT_CSV)
			printf("in_flight,%s/%lu,1,%.1f,,,,cpu=%d waiting_for=%s\n", b->flavour, b->batch,
			       (r->last_ts - b->start) / 1000.0, b->cpu, cpus);
		else
			printf("{\"type\":\"in_flight\",\"flavour\":\"%s\",\"batch\":%lu,\"cpu\":%d,\"age_us\":%.1f,\"waiting_for\":\"%s\"}\n",
			       b->flavour, b->batch, b->cpu, (r->last_ts - b->start) / 1000.0, cpus);
	}

	/* Slowest batches: the CPU that reported last held them back. */
	for (i = 0; i < r->nb; i++) {
		if (r->b[i].end)
			r->b[ended++] = r->b[i];
	}
	qsort(r->b, ended, sizeof(*r->b), cmp_batch_dur);
	if (fmt == FMT_TEXT)
		printf("\nslowest batches (last: the CPU seen last, and what ran there)\n  %-18s %8s %4s %10s %5s  %s\n",
		       "flavour", "batch", "cpu", "us", "last", "task");
	for (i = 0; i < ended && (int)i < top; i++) {
		struct batch *b = &r->b[i];
		double us = (b->end - b->start) / 1000.0;

		if (fmt == FMT_TEXT)
			printf("  %-18s %8lu %4d %10.1f %5d  %s\n", b->flavour, b->batch, b->cpu, us,
			       b->last_qs_cpu, b->last_comm[0] ? b->last_comm : "?");
		else if (fmt == FMT_CSV)
			printf("slow_batch,%s/%lu,1,%.1f,,,,cpu=%d last_cpu=%d comm=%s\n", b->flavour,
			       b->batch, us, b->cpu, b->last_qs_cpu, b->last_comm);
		else
			printf("{\"type\":\"slow_batch\",\"flavour\":\"%s\",\"batch\":%lu,\"cpu\":%d,\"us\":%.1f,\"last_cpu\":%d,\"last_comm\":\"%s\"}\n",
			       b->flavour, b->batch, b->cpu, us, b->last_qs_cpu, b->last_comm);
	}
	if (fmt == FMT_TEXT)
		printf("\ncallback latency, queued to invoked (us)\n  %-32s %8s %10s %10s %10s\n",
		       "function", "count", "median", "p99", "max");
	for (i = 0; i < r->nf; i++) {
		struct func_lat *f = &r->f[i];

		qsort(f->lat, f->n, sizeof(*f->lat), cmp_double);
		if (fmt == FMT_TEXT)
			printf("  %-32s %8lu %10.1f %10.1f %10.1f\n", f->name, f->n,
			       pct(f->lat, f->n, 50), pct(f->lat, f->n, 99), f->lat[f->n - 1]);
		else if (fmt == FMT_CSV)
			printf("callback,%s,%lu,%.1f,%.1f,%.1f,%.1f\n", f->name, f->n,
			       pct(f->lat, f->n, 50), pct(f->lat, f->n, 99), f->lat[f->n - 1],
			       f->lat[0]);
		else
			printf("{\"type\":\"callback\",\"func\":\"%s\",\"count\":%lu,\"median_us\":%.1f,\"p99_us\":%.1f,\"max_us\":%.1f}\n",
			       f->name, f->n, pct(f->lat, f->n, 50), pct(f->lat, f->n, 99),
			       f->lat[f->n - 1]);
	}
	if (fmt == FMT_TEXT)
		printf("\nstalls: %zu events\n", r->ns);
	for (i = 0; i < r->ns; i++) {
		if (fmt == FMT_TEXT)
			printf("  %llu.%06llu %s\n", r->s[i].ts / 1000000000ULL,
			       (r->s[i].ts / 1000) % 1000000, r->s[i].text);
		else if (fmt == FMT_CSV)
			printf("stall,\"%s\",1,,,,\n", r->s[i].text);
		else
			printf("{\"type\":\"stall\",\"ts_ns\":%llu,\"event\":\"%s\"}\n", r->s[i].ts,
			       r->s[i].text);
	}
	free(d);
}

static int cmd_report(int argc, char **argv)
{
	struct report r = { 0 };
	struct tracecmd_input *h;
	enum fmt fmt = FMT_TEXT;
	int c, top = 5;
	size_t i;

	while ((c = getopt(argc, argv, "f:n:h")) != -1) {
		switch (c) {
		case 'f':
			if (!strcmp(optarg, "text"))
				fmt = FMT_TEXT;
			else if (!strcmp(optarg, "csv"))
				fmt = FMT_CSV;
			else if (!strcmp(optarg, "json"))
				fmt = FMT_JSON;
			else
				die("-f takes text, csv or json, not '%s'", optarg);
			break;
		case 'n': top = parse_num(optarg, "-n N", 1000); break;
		case 'h': usage(stdout); return 0;
		default: usage(stderr); return 2;
		}
	}
	if (optind != argc - 1) {
		usage(stderr);
		return 2;
	}
	if (access(argv[optind], R_OK))
		die("cannot read %s: %s", argv[optind], strerror(errno));
	tracecmd_set_loglevel(TEP_LOG_NONE);
	h = tracecmd_open(argv[optind], TRACECMD_FL_LOAD_NO_PLUGINS |
			  TRACECMD_FL_LOAD_NO_SYSTEM_PLUGINS);
	if (!h)
		die("%s is not a readable trace.dat (truncated or corrupt?): record it again",
		    argv[optind]);
	r.tep = tracecmd_get_tep(h);
	if (!tep_find_event_by_name(r.tep, "rcu_poll", "rcu_poll_batch_start"))
		die("%s has no rcu_poll events: record with 'rcupoll record' on an RCU_POLL kernel",
		    argv[optind]);
	trace_seq_init(&r.seq);
	if (tracecmd_iterate_events(h, NULL, 0, on_record, &r) < 0)
		die("%s: reading the events failed (truncated?)", argv[optind]);
	/* record and flight write their instance as a buffer of the file. */
	for (i = 0; i < (size_t)tracecmd_buffer_instances(h); i++) {
		struct tracecmd_input *b = tracecmd_buffer_instance_handle(h, i);

		if (!b)
			continue;
		r.tep = tracecmd_get_tep(b);
		if (tracecmd_iterate_events(b, NULL, 0, on_record, &r) < 0)
			die("%s: reading buffer %s failed (truncated?)", argv[optind],
			    tracecmd_buffer_instance_name(h, i));
		tracecmd_close(b);
	}
	print_report(&r, fmt, top);
	trace_seq_destroy(&r.seq);
	for (i = 0; i < r.nf; i++)
		free(r.f[i].lat);
	free(r.f);
	free(r.b);
	free(r.s);
	free(r.cpu);
	tracecmd_close(h);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		usage(stderr);
		return 2;
	}
	if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help")) {
		usage(stdout);
		return 0;
	}
	optind = 2;
	if (!strcmp(argv[1], "record"))
		return cmd_record(argc, argv);
	if (!strcmp(argv[1], "flight"))
		return cmd_flight(argc, argv);
	if (!strcmp(argv[1], "report"))
		return cmd_report(argc, argv);
	fprintf(stderr, "%s: unknown command '%s'\n", prog, argv[1]);
	usage(stderr);
	return 2;
}
