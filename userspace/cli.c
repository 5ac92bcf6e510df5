// SPDX-License-Identifier: GPL-2.0
/*
 * rcupoll: option parsing with the conventions of trace-cmd and perf: long
 * options, --help for every subcommand, usage errors exit 2 with a
 * message that starts "rcupoll: SUBCOMMAND:" (getopt's own messages would
 * start with argv[0]).
 */
#include <stdlib.h>
#include <string.h>

#include "rcupoll.h"

void cli_help_hint(void)
{
	fprintf(stderr, "rcupoll: see 'rcupoll %s%s--help'\n",
		rcupoll_cmd ? rcupoll_cmd : "", rcupoll_cmd ? " " : "");
	exit(EXIT_USAGE);
}

static const struct option *find_long(const struct option *lo, const char *name, size_t len)
{
	for (; lo && lo->name; lo++) {
		if (strlen(lo->name) == len && !strncmp(lo->name, name, len))
			return lo;
	}
	return NULL;
}

int cli_getopt(int argc, char **argv, const char *shortopts, const struct option *longopts)
{
	int c;

	opterr = 0;
	c = getopt_long(argc, argv, shortopts, longopts, NULL);
	if (c != '?' && c != ':')
		return c;
	/* What was wrong: an unknown option, or one missing its value. */
	if (optopt && strncmp(argv[optind - 1], "--", 2)) {
		const char *p = strchr(shortopts, optopt);

		if (p && p[1] == ':')
			die_usage("option -%c needs a value", optopt);
		die_usage("unknown option -%c", optopt);
	} else {
		const char *arg = argv[optind - 1];
		const char *name = arg + 2, *eq = strchr(name, '=');
		const struct option *lo = find_long(longopts, name,
						    eq ? (size_t)(eq - name) : strlen(name));

		if (lo && lo->has_arg == required_argument && !eq)
			die_usage("option --%s needs a value", lo->name);
		if (lo && lo->has_arg == no_argument && eq)
			die_usage("option --%s takes no value", lo->name);
		die_usage("unknown option '%s'", arg);
	}
}
