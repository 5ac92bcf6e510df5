// SPDX-License-Identifier: GPL-2.0
/*
 * rcupoll: record and read rcu_poll traces.
 *
 *   rcupoll record [OPTIONS] [-- COMMAND...]   trace.dat of rcu_poll, rcu, sched, irq events
 *   rcupoll flight [OPTIONS]                   catch a slow batch or a stall, armed by the kernel
 *   rcupoll report [OPTIONS] FILE              why each slow batch took long
 *
 * This file is the command line: subcommand dispatch, --help and
 * --version.  Each subcommand has its own file (record.c, flight.c,
 * report.c), as trace-cmd has trace-record.c and trace-read.c; the event
 * model is trace-model.c with explain.c, output formats are output.c,
 * and the tracefs instance and trace.dat writer are tracing.c and
 * datfile.c.
 */
#include <stdlib.h>
#include <string.h>

#include "rcupoll.h"

static void usage(FILE *f)
{
	fprintf(f,
		"usage: rcupoll [--version] [--help] COMMAND [ARGS]\n"
		"\n"
		"  record   trace rcu_poll, rcu, scheduler and softirq events into a trace.dat,\n"
		"           streaming every CPU's buffer (or a snapshot of the last ones)\n"
		"  flight   keep tracing in an overwriting buffer until the kernel freezes it\n"
		"           at a slow batch or a stall warning; write what led up to it\n"
		"  report   explain a trace.dat: why each slow batch took long, callbacks\n"
		"           waiting, latency by function, stalls\n"
		"  help     help on a command (rcupoll help report = rcupoll report --help)\n"
		"\n"
		"'rcupoll COMMAND --help' for the options of a command; man rcupoll.\n"
		"Exit status: 0 success, 1 runtime error, 2 bad command line, 3 flight caught nothing.\n");
}

static int help(int argc, char **argv)
{
	if (argc < 3) {
		usage(stdout);
		return 0;
	}
	if (!strcmp(argv[2], "record"))
		usage_record(stdout);
	else if (!strcmp(argv[2], "flight"))
		usage_flight(stdout);
	else if (!strcmp(argv[2], "report"))
		usage_report(stdout);
	else
		die_usage("no command '%s' (record, flight, report)", argv[2]);
	return 0;
}

int main(int argc, char **argv)
{
	static const struct {
		const char *name;
		int (*fn)(int, char **);
	} cmds[] = {
		{ "record", cmd_record },
		{ "flight", cmd_flight },
		{ "report", cmd_report },
	};
	size_t i;

	if (argc < 2)
		die_usage("which command? record, flight or report");
	if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help"))
		return help(argc - 1, argv);
	if (!strcmp(argv[1], "help"))
		return help(argc, argv);
	if (!strcmp(argv[1], "-V") || !strcmp(argv[1], "--version")) {
		printf("rcupoll %s\n", RCUPOLL_VERSION);
		return 0;
	}
	for (i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++) {
		if (!strcmp(argv[1], cmds[i].name)) {
			rcupoll_cmd = cmds[i].name;
			/* getopt sees the subcommand as argv[0]. */
			optind = 1;
			return cmds[i].fn(argc - 1, argv + 1);
		}
	}
	if (argv[1][0] == '-')
		die_usage("unknown option '%s' (a command comes first: record, flight, report)",
			  argv[1]);
	die_usage("no command '%s' (record, flight, report)", argv[1]);
}
