/* SPDX-License-Identifier: GPL-2.0 */
/*
 * rcupoll: what the subcommands share.  Each subcommand lives in a file of
 * its own (record.c, flight.c, report.c), as trace-cmd splits trace-record.c
 * and trace-read.c; this header declares the helpers they have in common:
 * messages and exit codes (util.c), option parsing (cli.c), the tracefs
 * instance and its clean-up (tracing.c), and the trace.dat writer
 * (datfile.c).
 */
#ifndef RCUPOLL_H
#define RCUPOLL_H

#include <getopt.h>
#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <sys/types.h>

#define RCUPOLL_VERSION	"2.0"

/* Exit codes, as trace-cmd and perf use them. */
#define EXIT_RUNTIME	1	/* something failed */
#define EXIT_USAGE	2	/* bad command line */
#define EXIT_NOCATCH	3	/* flight: no batch caught in time */

typedef unsigned long long u64;

/* --- util.c ------------------------------------------------------------ */

extern const char *rcupoll_cmd;		/* "record", ... for messages */

void die(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));
void die_usage(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));
void warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void *xmalloc(size_t n);
void *xcalloc(size_t n, size_t m);
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);
char *xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* A growable array of fixed-size elements. */
struct vec {
	void *v;
	size_t n, cap, size;
};
void *vec_push(struct vec *a);
#define VEC_INIT(type) { NULL, 0, 0, sizeof(type) }
#define VEC_AT(a, type, i) (&((type *)(a)->v)[i])
void vec_free(struct vec *a);

unsigned long parse_num(const char *s, const char *what, unsigned long min, unsigned long max);
double parse_ms(const char *s, const char *what, double min, double max);

/* --- cli.c ------------------------------------------------------------- */

/*
 * getopt_long with rcupoll's messages: an unknown option or a missing
 * argument is a usage error ("rcupoll: record: ..."), exit 2 with a hint
 * to --help.
 */
int cli_getopt(int argc, char **argv, const char *shortopts,
	       const struct option *longopts);
void cli_help_hint(void) __attribute__((noreturn));

int cmd_record(int argc, char **argv);
int cmd_flight(int argc, char **argv);
int cmd_report(int argc, char **argv);
void usage_record(FILE *f);
void usage_flight(FILE *f);
void usage_report(FILE *f);

/* --- cleanup.c: every exit path undoes what the run set up ------------- */

/*
 * Clean-up actions run, newest first, on exit(), on die() and on a fatal
 * signal (SIGHUP, SIGINT, SIGTERM, SIGQUIT, SIGPIPE), so that no tracefs
 * instance keeps tracing and no temporary file stays behind.
 */
typedef void (*cleanup_fn)(void *arg);
int cleanup_push(cleanup_fn fn, void *arg);
void cleanup_pop(int handle, bool run);
void cleanup_run_all(void);

/*
 * Signals: while a recording runs, the first SIGINT/SIGTERM/SIGHUP only
 * asks it to stop (signal_stop becomes the signal number); outside a
 * recording (setup, writing the file) a signal aborts the run through
 * the clean-up actions.
 */
extern volatile sig_atomic_t signal_stop;
void signals_install(void);
void signals_set_recording(bool recording);
void check_interrupted(void);		/* abort if a signal came */

/* --- tracing.c: the tracefs instance of one run ------------------------ */

struct tracefs_instance;

struct rp_instance {
	struct tracefs_instance *inst;
	char *name;
	int ncpus;			/* per_cpu directories */
	int cleanup;			/* handle of its clean-up action */
};

/* The tracefs directory, without mounting anything; dies if absent. */
const char *tracing_dir_checked(void);
void check_root(void);
/*
 * rcu_poll's events, or (@tree_ok) Tree RCU's rcu:rcu_grace_period: sets
 * rp_tree_kernel; dies naming both paths if the kernel has neither.
 */
void check_rcu_poll_events(const char *tdir, bool tree_ok);
extern bool rp_tree_kernel;

/*
 * A new instance "rcupoll-<what>-<pid>" with rcupoll's events enabled,
 * tracing off, @kb KB per CPU, @overwrite as asked.  Registered for
 * clean-up: it is destroyed on every exit path.
 */
struct rp_instance *instance_create(const char *what, unsigned long kb, bool overwrite);
void instance_destroy(struct rp_instance *ri);
int instance_write(struct rp_instance *ri, const char *file, const char *val);

/* Per-CPU ring buffer statistics of an instance, summed. */
struct rb_stats {
	u64 entries, overrun, commit_overrun, dropped, read;
};
void instance_stats(struct rp_instance *ri, struct rb_stats *tot, char **text);

/* The events a batch needs to be explained; the first ones are required. */
struct rp_event {
	const char *system, *name;
	bool required;
};
extern const struct rp_event rp_events[];
extern const size_t rp_nevents;

/* --- datfile.c: trace.dat (version 6) from per-CPU ring buffer pages ---- */

/*
 * An output file under construction: created O_EXCL 0600 next to its
 * final name before tracing starts, with one temporary file per CPU for
 * the raw pages; renamed into place when complete, removed on any other
 * exit.
 */
struct datfile {
	char *path, *tmp;
	int fd;
	int ncpus;
	char **cpu_path;
	int *cpu_fd;
	int cleanup;
};

struct datfile *datfile_open(const char *path, int ncpus, const char *tempdir);
/* Write the header from tracefs, append the CPU data, rename into place. */
void datfile_finish(struct datfile *df, const char *cpustats);
u64 file_size(const char *path);

/* Stream each CPU's ring buffer into its temporary file (one thread per CPU). */
struct streamer;
struct streamer *stream_start(struct rp_instance *ri, struct datfile *df);
void stream_stop(struct streamer *s);		/* drain and join */
/* Read whatever the (stopped) ring buffers hold, page by page. */
void drain_buffers(struct rp_instance *ri, struct datfile *df);

#endif
