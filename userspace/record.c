// SPDX-License-Identifier: GPL-2.0
/*
 * rcupoll record: trace rcu_poll, rcu, scheduler and softirq events into a
 * trace.dat, in an instance of its own.
 *
 * By default every CPU's ring buffer is streamed into the file while
 * tracing (splice, one reader thread per CPU, woken at 10% full), so a
 * long recording or a callback flood keeps its events; --snapshot keeps
 * the old behaviour of tracing into an overwriting buffer and saving what
 * it holds at the end (the last seconds before the end, whatever the
 * length).  Either way the output is checked (its temporary file created
 * with O_EXCL, mode 0600) before tracing starts, the top-level tracing
 * state is never touched, and every way out removes the instance and the
 * temporary files.
 */
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <tracefs.h>

#include "rcupoll.h"

void usage_record(FILE *f)
{
	fprintf(f,
		"usage: rcupoll record [OPTIONS] [--] [COMMAND [ARGS...]]\n"
		"\n"
		"Trace rcu_poll:*, rcu:*, sched:sched_switch, sched:sched_wakeup and\n"
		"irq:softirq_raise/entry/exit while COMMAND runs, or for --duration seconds (on a\n"
		"Tree RCU kernel: rcu:* but rcu_utilization and rcu_dyntick), in a\n"
		"tracefs instance of its own (rcupoll-record-PID), and write a trace.dat that\n"
		"trace-cmd, KernelShark and rcupoll report read.  The top-level tracing state\n"
		"is not touched.\n"
		"\n"
		"  -o, --output=FILE       the trace.dat to write (default trace.dat), mode 0600:\n"
		"                          it holds kernel addresses\n"
		"  -d, --duration=SECONDS  record this long (default 5) when there is no COMMAND;\n"
		"                          Ctrl-C stops earlier and still writes the file\n"
		"  -b, --buffer-size=KB    ring buffer per CPU (default 8192)\n"
		"  -s, --snapshot          do not stream: trace into an overwriting buffer and save\n"
		"                          what it holds at the end (the last -b KB per CPU)\n"
		"  -T, --temp=DIR          keep the per-CPU data there while recording (default:\n"
		"                          beside FILE)\n"
		"  -h, --help              this help\n"
		"\n"
		"Prints 'rcupoll: recorded N events (M lost) into FILE (S bytes)': N events were\n"
		"read from the ring buffers, M were overwritten or dropped before they could be.\n"
		"Exit status: 0; 1 on an error or if COMMAND failed (the file is still written);\n"
		"2 for a bad command line.\n");
}

static const struct option record_long[] = {
	{ "output", required_argument, NULL, 'o' },
	{ "duration", required_argument, NULL, 'd' },
	{ "buffer-size", required_argument, NULL, 'b' },
	{ "snapshot", no_argument, NULL, 's' },
	{ "temp", required_argument, NULL, 'T' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

static pid_t child;

/* The command runs with the signals and mask rcupoll found. */
static pid_t start_command(char **argv)
{
	pid_t pid = fork();

	if (pid < 0)
		die("cannot fork: %s", strerror(errno));
	if (!pid) {
		sigset_t none;

		signal(SIGINT, SIG_DFL);
		signal(SIGTERM, SIG_DFL);
		signal(SIGHUP, SIG_DFL);
		signal(SIGQUIT, SIG_DFL);
		signal(SIGPIPE, SIG_DFL);
		sigemptyset(&none);
		sigprocmask(SIG_SETMASK, &none, NULL);
		execvp(argv[0], argv);
		fprintf(stderr, "rcupoll: record: cannot run %s: %s\n", argv[0], strerror(errno));
		_exit(127);
	}
	return pid;
}

/* Wait for the command; a signal to rcupoll alone is passed on to it. */
static int wait_command(pid_t pid)
{
	int status, forwarded = 0;

	for (;;) {
		if (waitpid(pid, &status, 0) == pid)
			break;
		if (errno != EINTR)
			die("waiting for the command failed: %s", strerror(errno));
		if (signal_stop && signal_stop != forwarded) {
			kill(pid, signal_stop);
			forwarded = signal_stop;
		}
	}
	if (WIFEXITED(status))
		return WEXITSTATUS(status);
	return 128 + WTERMSIG(status);
}

static void sleep_until_stopped(unsigned long secs)
{
	struct timespec ts = { .tv_sec = secs };

	while (nanosleep(&ts, &ts) && errno == EINTR && !signal_stop)
		;
}

static int count_top_cpus(const char *tdir)
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

int cmd_record(int argc, char **argv)
{
	const char *out = "trace.dat", *temp = NULL;
	unsigned long secs = 5, kb = 8192;
	bool snapshot = false, dur_given = false;
	struct rp_instance *ri;
	struct streamer *st = NULL;
	struct datfile *df;
	struct rb_stats s;
	char *stats;
	const char *tdir;
	int c, status = 0;

	while ((c = cli_getopt(argc, argv, "+o:d:b:sT:h", record_long)) != -1) {
		switch (c) {
		case 'o': out = optarg; break;
		case 'd': secs = parse_num(optarg, "--duration", 1, 86400); dur_given = true; break;
		case 'b': kb = parse_num(optarg, "--buffer-size", 1, 1 << 20); break;
		case 's': snapshot = true; break;
		case 'T': temp = optarg; break;
		case 'h': usage_record(stdout); exit(0);
		}
	}
	if (dur_given && optind < argc)
		die_usage("--duration or a COMMAND, not both");
	check_root();
	tdir = tracing_dir_checked();
	check_rcu_poll_events(tdir, true);
	signals_install();
	/* The output first: a bad path fails before anything is traced. */
	df = datfile_open(out, count_top_cpus(tdir), temp);
	ri = instance_create("record", kb, true);
	if (!snapshot)
		st = stream_start(ri, df);
	check_interrupted();
	signals_set_recording(true);
	if (tracefs_trace_on(ri->inst) < 0)
		die("cannot turn tracing on in instance %s", ri->name);
	if (optind < argc) {
		child = start_command(argv + optind);
		status = wait_command(child);
	} else {
		sleep_until_stopped(secs);
	}
	tracefs_trace_off(ri->inst);
	signals_set_recording(false);
	if (st)
		stream_stop(st);
	else
		drain_buffers(ri, df);
	instance_stats(ri, &s, &stats);
	datfile_finish(df, stats);
	free(stats);
	instance_destroy(ri);
	printf("rcupoll: recorded %llu events (%llu lost) into %s (%llu bytes)\n", s.read,
	       s.overrun + s.dropped + s.commit_overrun, out, file_size(out));
	if (status) {
		fflush(stdout);
		warn("%s exited with status %d", argv[optind], status);
		return EXIT_RUNTIME;
	}
	return 0;
}
