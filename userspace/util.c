// SPDX-License-Identifier: GPL-2.0
/*
 * rcupoll: messages, memory and number parsing shared by every subcommand.
 * Every message is one line on stderr starting "rcupoll: " (plus the
 * subcommand), so scripts can tell them from output.
 */

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "rcupoll.h"

const char *rcupoll_cmd;

static void vmsg(const char *fmt, va_list ap)
{
	fflush(stdout);
	if (rcupoll_cmd)
		fprintf(stderr, "rcupoll: %s: ", rcupoll_cmd);
	else
		fputs("rcupoll: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
}

/* A runtime error: clean up (exit handlers) and exit 1. */
void die(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmsg(fmt, ap);
	va_end(ap);
	exit(EXIT_RUNTIME);
}

/* A bad command line: exit 2, pointing at --help. */
void die_usage(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmsg(fmt, ap);
	va_end(ap);
	cli_help_hint();
}

void warn(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmsg(fmt, ap);
	va_end(ap);
}

void *xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);

	if (!p)
		die("out of memory");
	return p;
}

void *xcalloc(size_t n, size_t m)
{
	void *p = calloc(n ? n : 1, m ? m : 1);

	if (!p)
		die("out of memory");
	return p;
}

void *xrealloc(void *p, size_t n)
{
	p = realloc(p, n ? n : 1);
	if (!p)
		die("out of memory");
	return p;
}

char *xstrdup(const char *s)
{
	char *p = strdup(s);

	if (!p)
		die("out of memory");
	return p;
}

char *xasprintf(const char *fmt, ...)
{
	va_list ap;
	char *s;
	int n;

	va_start(ap, fmt);
	n = vasprintf(&s, fmt, ap);
	va_end(ap);
	if (n < 0)
		die("out of memory");
	return s;
}

void *vec_push(struct vec *a)
{
	if (a->n == a->cap) {
		a->cap = a->cap ? 2 * a->cap : 64;
		a->v = xrealloc(a->v, a->cap * a->size);
	}
	memset((char *)a->v + a->n * a->size, 0, a->size);
	return (char *)a->v + a->n++ * a->size;
}

void vec_free(struct vec *a)
{
	free(a->v);
	a->v = NULL;
	a->n = a->cap = 0;
}

/*
 * A whole decimal number from @min to @max; anything else (signs,
 * spaces, suffixes, overflow) is a usage error naming the option.
 */
unsigned long parse_num(const char *s, const char *what, unsigned long min, unsigned long max)
{
	unsigned long v;
	char *end;

	errno = 0;
	v = strtoul(s, &end, 10);
	if (errno || *s < '0' || *s > '9' || *end || v < min || v > max)
		die_usage("%s must be a whole number from %lu to %lu, not '%s'", what, min, max, s);
	return v;
}

/* Milliseconds, with a fraction if wanted ("0.5"), from @min to @max. */
double parse_ms(const char *s, const char *what, double min, double max)
{
	double v;
	char *end;

	errno = 0;
	v = strtod(s, &end);
	if (errno || *s < '0' || *s > '9' || *end || !isfinite(v) || v < min || v > max)
		die_usage("%s must be a number of milliseconds from %g to %g, not '%s'", what,
			  min, max, s);
	return v;
}
