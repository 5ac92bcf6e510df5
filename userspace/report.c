// SPDX-License-Identifier: GPL-2.0
/*
 * rcupoll report: what a trace.dat says about rcu_poll's batches.
 *
 * For every slow batch and every batch still in flight at the end, why it
 * took long (explain.c), with numbers and timestamps; callbacks that
 * waited for a batch to start; the slowest batches; callback latency by
 * function; the callbacks still waiting at the end, by batch and
 * function; stall warnings.  --batch N shows one batch CPU by CPU.
 * Every table can be had as CSV or JSON lines, with fixed columns.
 */

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "output.h"
#include "trace-model.h"

struct opts {
	enum fmt fmt;
	const char *table;	/* only this one (CSV: one table per output) */
	int top;
	double slow_ms;
	long batch;		/* --batch (Tree's gp_seq may be negative) */
	bool has_batch;
	const char *flavour;
	const char *buffer;
	const char *file;
};

void usage_report(FILE *f)
{
	fprintf(f,
		"usage: rcupoll report [OPTIONS] FILE\n"
		"\n"
		"Explain the rcu_poll batches of a trace.dat (from rcupoll record or flight, or\n"
		"trace-cmd record -e rcu_poll -e sched -e irq): why each slow batch and each\n"
		"batch still in flight took long, callbacks that waited for a batch to start,\n"
		"callback latency by function, callbacks still waiting, stall warnings,\n"
		"rcu_barrier() calls, callback invocation passes per CPU.\n"
		"\n"
		"  -s, --slow=MS       a batch is slow above MS milliseconds (default 5)\n"
		"  -n, --top=N         list the N slowest batches (default 5)\n"
		"  -b, --batch=N       show batch N alone, CPU by CPU, with its timeline\n"
		"  -F, --flavour=NAME  the flavour of --batch N (rcu_poll, rcu_poll_preempt)\n"
		"  -f, --format=FMT    text (default), csv or json (JSON lines: one object per\n"
		"                      row, with a \"table\" key)\n"
		"  -t, --table=NAME    only this table: trace, summary, batches, delays, slowest,\n"
		"                      callbacks, waiting, stalls, barriers, passes, cpus\n"
		"                      (--batch); csv prints one table (default batches)\n"
		"  -B, --buffer=NAME   read this buffer of the file (default: the one with rcu_poll\n"
		"                      events; \"top\" for the top one)\n"
		"  -h, --help          this help\n"
		"\n"
		"Exit status: 0, 1 if the file cannot be read, 2 for a bad command line.\n");
}

static const struct option report_long[] = {
	{ "slow", required_argument, NULL, 's' },
	{ "top", required_argument, NULL, 'n' },
	{ "batch", required_argument, NULL, 'b' },
	{ "flavour", required_argument, NULL, 'F' },
	{ "flavor", required_argument, NULL, 'F' },
	{ "format", required_argument, NULL, 'f' },
	{ "table", required_argument, NULL, 't' },
	{ "buffer", required_argument, NULL, 'B' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

static const char *const table_names[] = {
	"trace", "summary", "batches", "delays", "slowest", "callbacks", "waiting", "stalls",
	"barriers", "passes", "cpus", NULL,
};

static bool want(struct opts *o, const char *table)
{
	return !o->table || !strcmp(o->table, table);
}

#define MS(ns) ((double)(ns) / 1e6)
#define US(ns) ((double)(ns) / 1e3)
#define I(x) ((long long)(x))

static const char *cause_code(enum cause_kind k)
{
	switch (k) {
	case CAUSE_CPU_HELD: return "cpu_held";
	case CAUSE_NOT_POLLED: return "not_polled";
	case CAUSE_PREEMPTED: return "preempted";
	case CAUSE_NO_START: return "no_start";
	case CAUSE_UNKNOWN: return "unknown";
	case CAUSE_NOT_REPORTED: return "not_reported";
	case CAUSE_KTHREAD: return "gp_kthread";
	default: return "";
	}
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* Percentile @p (0..100) of sorted @v[n], nearest rank. */
static double pct(const double *v, size_t n, double p)
{
	size_t i = (size_t)((p / 100.0) * (n - 1) + 0.5);

	return n ? v[i < n ? i : n - 1] : 0;
}

/* --- the tables ---------------------------------------------------------- */

static void table_trace(struct model *m, struct opts *o)
{
	static const struct col cols[] = {
		{ "file", COL_STR, -24, NULL }, { "buffer", COL_STR, -16, NULL },
		{ "events", COL_INT, 9, NULL }, { "lost", COL_INT, 6, NULL },
		{ "cpus", COL_INT, 4, NULL }, { "first_s", COL_TS, 14, NULL },
		{ "last_s", COL_TS, 14, NULL }, { "rcu_poll_events", COL_INT, 15, NULL },
		{ "batches", COL_INT, 8, NULL }, { "cpu_qs_traced", COL_INT, 13, NULL },
	};
	struct table t = TABLE("trace", "the trace", cols);

	if (o->fmt == FMT_TEXT) {
		printf("%s", o->file);
		if (*m->buffer)
			printf(" (buffer %s)", m->buffer);
		printf(": %llu events on %d CPUs over %.3f s, %llu lost; %llu %s events, %zu %s\n",
		       m->nevents, m->ncpus, (m->last_ts - m->first_ts) / 1e9, m->lost, m->nrcu_poll,
		       m->tree ? "Tree RCU grace-period" : "rcu_poll", m->gps.n, gp_nouns(m));
		if (m->tree)
			printf("Tree RCU: grace periods numbered by gp_seq; a CPU's quiescent state is its cpuqs event (exact), or the FQS scan that found it idle\n");
		else if (!m->has_cpu_qs)
			printf("quiescent states are inferred from context switches (no rcu_poll_cpu_qs events in this trace)\n");
		if (!m->has_switch)
			printf("the trace has no sched_switch events: what ran on a CPU is unknown\n");
		return;
	}
	table_begin(&t, o->fmt);
	table_row(&t, o->file, m->buffer, I(m->nevents), I(m->lost), I(m->ncpus), m->first_ts,
		  m->last_ts, I(m->nrcu_poll), I(m->gps.n), I(m->has_cpu_qs));
	table_end(&t);
}

static void table_summary(struct model *m, struct opts *o)
{
	static const struct col cols[] = {
		{ "flavour", COL_STR, -18, NULL }, { "count", COL_INT, 8, NULL },
		{ "in_flight", COL_INT, 9, "in flight" }, { "median_us", COL_US, 10, "median" },
		{ "p99_us", COL_US, 10, "p99" }, { "max_us", COL_US, 10, "max" },
		{ "min_us", COL_US, 10, "min" },
	};
	struct table t = TABLE("summary", "batch durations (us), batches that ended", cols);
	char title[80];
	double *d = xmalloc((m->gps.n + 1) * sizeof(double));
	int f;

	snprintf(title, sizeof(title), "%s durations (us), %s that ended", gp_noun(m), gp_nouns(m));
	t.title = title;
	table_begin(&t, o->fmt);
	for (f = 0; f < m->nflv; f++) {
		size_t i, n = 0, inflight = 0;

		for (i = 0; i < m->gps.n; i++) {
			struct gp *g = model_gp(m, i);

			if (g->flavour != f)
				continue;
			if (g->end)
				d[n++] = US(g->end - g->start);
			else
				inflight++;
		}
		qsort(d, n, sizeof(*d), cmp_double);
		table_row(&t, m->flv[f].name, I(n), I(inflight), pct(d, n, 50), pct(d, n, 99),
			  n ? d[n - 1] : 0.0, n ? d[0] : 0.0);
	}
	table_end(&t);
	free(d);
}

/* "kmem_rcu_free 10, mt_free_rcu 9" for one group of waiting callbacks. */
static void waiting_words(struct model *m, struct gp *g, bool in, char *buf, size_t len,
			  unsigned long *total)
{
	struct wait_group *w;
	size_t n = model_waiting(m, &w), i, used = 0;
	bool *done = xcalloc(n + 1, 1);

	*total = 0;
	buf[0] = '\0';
	for (;;) {
		size_t best = n;

		/* The biggest group first. */
		for (i = 0; i < n; i++) {
			int cpu = g->owner;

			if (done[i] || w[i].flavour != g->flavour || w[i].cpu != cpu ||
			    (in ? w[i].batch != g->nr : w[i].batch != 0))
				continue;
			if (best == n || w[i].count > w[best].count)
				best = i;
		}
		if (best == n)
			break;
		done[best] = true;
		*total += w[best].count;
		used += snprintf(buf + used, used < len ? len - used : 0, "%s%s %lu", used ? ", " : "",
				 w[best].func, w[best].count);
	}
	free(done);
	free(w);
}

static void print_waiting_line(struct model *m, struct gp *g)
{
	char in[512], behind[1024];
	unsigned long nin, nbehind;

	long ncbs;

	waiting_words(m, g, true, in, sizeof(in), &nin);
	waiting_words(m, g, false, behind, sizeof(behind), &nbehind);
	/* Tree RCU does not trace how many wait for a grace period: those seen queued. */
	ncbs = g->ncbs >= 0 ? g->ncbs : (long)nin;
	printf("    waiting: %ld callback%s %s", ncbs, ncbs == 1 ? "" : "s",
	       g->ncbs >= 0 ? "in it" : "queued before it started and not invoked");
	if (nin)
		printf(" (%s%s)", in, (long)nin < ncbs ? ", the rest queued before the trace began" : "");
	if (g->owner >= 0)
		printf(", %lu queued behind it on CPU %d", nbehind, g->owner);
	else
		printf(", %lu queued behind it", nbehind);
	if (nbehind) {
		printf(" (");
		put_text(stdout, behind);
		printf(")");
	}
	printf("\n");
}

static void print_gp_title(struct model *m, struct gp *g)
{
	char ts[TS_BUF];

	printf("  %s %s%ld", m->flv[g->flavour].name, m->flv[g->flavour].tree ? "gp_seq " : "",
	       GP_NR(g));
	if (g->owner >= 0)
		printf(" of CPU %d", g->owner);
	printf(", started %s%s, ", fmt_ts(g->start, ts),
	       g->before_trace ? " (before the trace: a stall warning's age)" : "");
	if (g->end)
		printf("took %.1f ms:\n", MS(g->end - g->start));
	else
		printf("in flight for %.1f ms at the end of the trace:\n", MS(m->last_ts - g->start));
}

static int cmp_gp_slow(const void *a, const void *b)
{
	const struct gp *x = *(struct gp *const *)a, *y = *(struct gp *const *)b;

	/* In flight first, then the longest. */
	if (!x->end != !y->end)
		return !x->end ? -1 : 1;
	if (x->end - x->start != y->end - y->start)
		return x->end - x->start < y->end - y->start ? 1 : -1;
	return x->start < y->start ? -1 : 1;
}

/* Slow batches and batches in flight, most important first. */
static size_t slow_list(struct model *m, struct gp ***out)
{
	struct gp **v = xmalloc((m->gps.n + 1) * sizeof(*v));
	size_t i, n = 0;

	for (i = 0; i < m->gps.n; i++) {
		if (model_gp(m, i)->slow)
			v[n++] = model_gp(m, i);
	}
	qsort(v, n, sizeof(*v), cmp_gp_slow);
	*out = v;
	return n;
}

/* Batches cut off by the end of the trace, too young to be slow: one line. */
static void young_in_flight(struct model *m)
{
	size_t i, n = 0;

	for (i = 0; i < m->gps.n; i++) {
		struct gp *g = model_gp(m, i);

		if (g->end || g->slow)
			continue;
		printf("%s %s %ld", n++ ? "," : "  also in flight at the end, younger than that:",
		       m->flv[g->flavour].name, GP_NR(g));
		if (g->owner >= 0)
			printf(" of CPU %d", g->owner);
		printf(" (%.1f ms)", MS(m->last_ts - g->start));
	}
	if (n)
		printf("\n");
}

static void text_why(struct model *m, struct opts *o)
{
	struct gp **v;
	size_t n = slow_list(m, &v), i;

	printf("\nslow %s (over %g ms, ended or still in flight at the end), and why\n", gp_nouns(m),
	       o->slow_ms);
	for (i = 0; i < n; i++) {
		print_gp_title(m, v[i]);
		printf("    ");
		put_text(stdout, v[i]->cause.text);
		printf("\n");
		if (!v[i]->end)
			print_waiting_line(m, v[i]);
	}
	if (!n)
		printf("  (none)\n");
	free(v);
	young_in_flight(m);
}

static void table_batches(struct model *m, struct opts *o)
{
	static const struct col cols[] = {
		{ "flavour", COL_STR, 0, NULL }, { "batch", COL_INT, 0, NULL },
		{ "cpu", COL_INT, 0, NULL }, { "start_s", COL_TS, 0, NULL },
		{ "end_s", COL_TS, 0, NULL }, { "duration_us", COL_US, 0, NULL },
		{ "in_flight", COL_INT, 0, NULL }, { "slow", COL_INT, 0, NULL },
		{ "ncbs", COL_INT, 0, NULL }, { "cause", COL_STR, 0, NULL },
		{ "cause_cpu", COL_INT, 0, NULL }, { "cause_pid", COL_INT, 0, NULL },
		{ "cause_comm", COL_STR, 0, NULL }, { "wait_us", COL_US, 0, NULL },
		{ "why", COL_STR, 0, NULL },
	};
	struct table t = TABLE("batches", "batches", cols);
	size_t i;

	if (o->fmt == FMT_TEXT) {
		text_why(m, o);
		return;
	}
	table_begin(&t, o->fmt);
	for (i = 0; i < m->gps.n; i++) {
		struct gp *g = model_gp(m, i);
		struct cause *k = &g->cause;
		bool has = k->kind != CAUSE_NONE;

		if (o->has_batch && g->nr != (unsigned long)o->batch)
			continue;
		table_row(&t, m->flv[g->flavour].name, I(g->nr),
			  g->owner >= 0 ? I(g->owner) : TABLE_NULL_INT, g->start, g->end,
			  US(gp_duration(m, g)), I(!g->end), I(g->slow),
			  g->ncbs >= 0 ? I(g->ncbs) : TABLE_NULL_INT,
			  cause_code(k->kind), has && k->cpu >= 0 ? I(k->cpu) : TABLE_NULL_INT,
			  has && k->pid >= 0 ? I(k->pid) : TABLE_NULL_INT,
			  has && k->pid >= 0 ? k->comm : NULL, has ? US(k->wait) : NAN,
			  has ? k->text : NULL);
	}
	table_end(&t);
}

static void table_delays(struct model *m, struct opts *o)
{
	static const struct col cols[] = {
		{ "flavour", COL_STR, 0, NULL }, { "cpu", COL_INT, 0, NULL },
		{ "batch", COL_INT, 0, NULL }, { "from_s", COL_TS, 0, NULL },
		{ "to_s", COL_TS, 0, NULL }, { "wait_us", COL_US, 0, NULL },
		{ "callbacks", COL_INT, 0, NULL }, { "cause_pid", COL_INT, 0, NULL },
		{ "cause_comm", COL_STR, 0, NULL }, { "why", COL_STR, 0, NULL },
	};
	struct table t = TABLE("delays", "", cols);
	size_t i;

	if (o->fmt == FMT_TEXT) {
		char ts[TS_BUF];

		if (m->tree)
			printf("\ngrace periods asked for (newreq) that waited over %g ms to start\n",
			       o->slow_ms);
		else
			printf("\ncallbacks that waited over %g ms for a batch to start\n", o->slow_ms);
		for (i = 0; i < m->delays.n; i++) {
			struct delay *d = VEC_AT(&m->delays, struct delay, i);

			if (m->flv[d->flavour].tree)
				printf("  %s from %s", m->flv[d->flavour].name, fmt_ts(d->from, ts));
			else
				printf("  CPU %d from %s", d->cpu, fmt_ts(d->from, ts));
			if (d->started && m->flv[d->flavour].tree)
				printf(" until gp_seq %ld started:\n    ", (long)d->nr);
			else if (d->started)
				printf(" until %s %lu started:\n    ", m->flv[d->flavour].name, d->nr);
			else
				printf(" to the end of the trace:\n    ");
			put_text(stdout, d->cause.text);
			printf("\n");
		}
		if (!m->delays.n)
			printf("  (none)\n");
		return;
	}
	table_begin(&t, o->fmt);
	for (i = 0; i < m->delays.n; i++) {
		struct delay *d = VEC_AT(&m->delays, struct delay, i);

		table_row(&t, m->flv[d->flavour].name, d->cpu >= 0 ? I(d->cpu) : TABLE_NULL_INT,
			  d->started ? I((long)d->nr) : TABLE_NULL_INT,
			  d->from, d->to, US(d->to - d->from), I(d->ncbs),
			  d->cause.pid >= 0 ? I(d->cause.pid) : TABLE_NULL_INT,
			  d->cause.pid >= 0 ? d->cause.comm : NULL, d->cause.text);
	}
	table_end(&t);
}

static int cmp_gp_dur(const void *a, const void *b)
{
	const struct gp *x = *(struct gp *const *)a, *y = *(struct gp *const *)b;
	u64 dx = x->end - x->start, dy = y->end - y->start;

	return dx < dy ? 1 : dx > dy ? -1 : (x->start > y->start) - (x->start < y->start);
}

static void table_slowest(struct model *m, struct opts *o)
{
	static const struct col cols[] = {
		{ "flavour", COL_STR, -18, NULL }, { "batch", COL_INT, 8, NULL },
		{ "cpu", COL_INT, 4, NULL }, { "start_s", COL_TS, 16, "start" },
		{ "duration_us", COL_US, 11, "us" }, { "why", COL_STR, 0, "why" },
	};
	struct table t = TABLE("slowest", "slowest batches that ended", cols);
	struct gp **v = xmalloc((m->gps.n + 1) * sizeof(*v));
	size_t i, n = 0;
	char title[64];

	snprintf(title, sizeof(title), "slowest %s that ended", gp_nouns(m));
	t.title = title;

	for (i = 0; i < m->gps.n; i++) {
		if (model_gp(m, i)->end)
			v[n++] = model_gp(m, i);
	}
	qsort(v, n, sizeof(*v), cmp_gp_dur);
	table_begin(&t, o->fmt);
	for (i = 0; i < n && (int)i < o->top; i++) {
		/* Below the threshold nothing is explained: say so. */
		table_row(&t, m->flv[v[i]->flavour].name, I(GP_NR(v[i])),
			  v[i]->owner >= 0 ? I(v[i]->owner) : TABLE_NULL_INT, v[i]->start,
			  US(v[i]->end - v[i]->start),
			  v[i]->slow ? v[i]->cause.brief : "not slow");
	}
	table_end(&t);
	free(v);
}

static int cmp_lat(const void *a, const void *b)
{
	const struct func_lat *x = a, *y = b;

	if (x->flavour != y->flavour)
		return x->flavour - y->flavour;
	if (x->us.n != y->us.n)
		return x->us.n < y->us.n ? 1 : -1;
	if (x->queued != y->queued)
		return x->queued < y->queued ? 1 : -1;
	return strcmp(x->func, y->func);
}

static void table_callbacks(struct model *m, struct opts *o)
{
	static const struct col cols[] = {
		{ "flavour", COL_STR, -18, NULL }, { "function", COL_STR, -32, NULL },
		{ "queued", COL_INT, 8, NULL }, { "count", COL_INT, 8, "invoked" },
		{ "median_us", COL_US, 11, "median" },
		{ "p99_us", COL_US, 11, "p99" }, { "max_us", COL_US, 11, "max" },
		{ "min_us", COL_US, 11, "min" },
	};
	struct table t = TABLE("callbacks",
			       "callbacks by function: queued and invoked in the trace, latency queued to invoked (us)",
			       cols);
	size_t i;

	qsort(m->lat.v, m->lat.n, m->lat.size, cmp_lat);
	table_begin(&t, o->fmt);
	for (i = 0; i < m->lat.n; i++) {
		struct func_lat *f = VEC_AT(&m->lat, struct func_lat, i);
		double *d = f->us.v;
		size_t n = f->us.n;

		qsort(d, n, sizeof(*d), cmp_double);
		table_row(&t, m->flv[f->flavour].name, f->func, I(f->queued), I(n),
			  n ? pct(d, n, 50) : NAN, n ? pct(d, n, 99) : NAN, n ? d[n - 1] : NAN,
			  n ? d[0] : NAN);
	}
	table_end(&t);
}

static int cmp_wait(const void *a, const void *b)
{
	const struct wait_group *x = a, *y = b;

	if (x->flavour != y->flavour)
		return x->flavour - y->flavour;
	if (x->cpu != y->cpu)
		return x->cpu - y->cpu;
	if (!x->batch != !y->batch)
		return x->batch ? -1 : 1;
	return x->count < y->count ? 1 : x->count > y->count ? -1 : strcmp(x->func, y->func);
}

static void table_waiting(struct model *m, struct opts *o)
{
	static const struct col cols[] = {
		{ "flavour", COL_STR, -18, NULL }, { "cpu", COL_INT, 4, NULL },
		{ "batch", COL_INT, 8, NULL }, { "function", COL_STR, -32, NULL },
		{ "count", COL_INT, 8, NULL }, { "oldest_s", COL_TS, 16, "oldest queued" },
	};
	struct table t = TABLE("waiting",
			       "callbacks still waiting at the end of the trace (batch -: queued behind it)",
			       cols);
	struct wait_group *w;
	size_t n = model_waiting(m, &w), i;

	qsort(w, n, sizeof(*w), cmp_wait);
	table_begin(&t, o->fmt);
	for (i = 0; i < n; i++)
		table_row(&t, m->flv[w[i].flavour].name,
			  w[i].cpu >= 0 ? I(w[i].cpu) : TABLE_NULL_INT,
			  w[i].batch ? I(w[i].batch) : TABLE_NULL_INT, w[i].func, I(w[i].count),
			  w[i].oldest);
	table_end(&t);
	free(w);
}

static void table_stalls(struct model *m, struct opts *o)
{
	static const struct col cols[] = {
		{ "ts_s", COL_TS, 16, "time" }, { "event", COL_STR, -8, NULL },
		{ "flavour", COL_STR, -18, NULL }, { "cpu", COL_INT, 4, NULL },
		{ "batch", COL_INT, 8, NULL }, { "age_ms", COL_INT, 7, NULL },
		{ "ncbs", COL_INT, 6, NULL }, { "holdouts", COL_STR, -9, NULL },
		{ "ntasks", COL_INT, 6, NULL }, { "nwarn", COL_INT, 5, NULL },
		{ "kind", COL_STR, -5, NULL }, { "holdout_cpu", COL_INT, 11, NULL },
		{ "pid", COL_INT, 6, NULL }, { "comm", COL_STR, 0, NULL },
	};
	struct table t = TABLE("stalls", "stall warnings (rcu_poll_stall, rcu_poll_holdout)", cols);
	size_t i;

	if (m->tree)
		t.title = "stall warnings (rcu_stall_warning: the grace period in flight, the CPUs not yet reported)";

	table_begin(&t, o->fmt);
	for (i = 0; i < m->stalls.n; i++) {
		struct stall_ev *s = VEC_AT(&m->stalls, struct stall_ev, i);
		long long nul = TABLE_NULL_INT;

		if (s->holdout)
			table_row(&t, s->ts, "holdout", m->flv[s->flavour].name, nul, I(s->batch), nul,
				  nul, NULL, nul, nul, s->kind, I(s->holdout_cpu), I(s->pid), s->comm);
		else
			table_row(&t, s->ts, "stall", m->flv[s->flavour].name, I(s->cpu),
				  s->batch || !m->tree ? I((long)s->batch) : nul, I(s->age_ms),
				  s->ncbs >= 0 ? I(s->ncbs) : nul, s->holdouts, I(s->ntasks),
				  I(s->nwarn), *s->kind ? s->kind : NULL, nul, nul, NULL);
	}
	table_end(&t);
}

/* rcu_barrier() calls: who, how long, how many callbacks it waited for. */
static void table_barriers(struct model *m, struct opts *o)
{
	static const struct col cols[] = {
		{ "flavour", COL_STR, -18, NULL }, { "begin_s", COL_TS, 16, "begin" },
		{ "end_s", COL_TS, 16, "end" }, { "duration_us", COL_US, 12, "us" },
		{ "callbacks", COL_INT, 9, NULL }, { "early_exit", COL_INT, 10, NULL },
		{ "cpu", COL_INT, 4, NULL }, { "pid", COL_INT, 6, NULL },
	};
	struct table t = TABLE("barriers",
			       "rcu_barrier() calls (rcu_barrier: callbacks are the barrier's own, one per CPU with callbacks)",
			       cols);
	size_t i;

	table_begin(&t, o->fmt);
	for (i = 0; i < m->barriers.n; i++) {
		struct barrier_ev *b = VEC_AT(&m->barriers, struct barrier_ev, i);

		table_row(&t, m->flv[b->flavour].name, b->begin, b->end,
			  b->end ? US(b->end - b->begin) : NAN, I(b->ncb), I(b->early), I(b->cpu),
			  I(b->pid));
	}
	table_end(&t);
}

/*
 * Callback invocation passes (rcu_batch_start/end), per flavour and CPU:
 * how many, how many callbacks, the longest pass and the largest.
 */
static void table_passes(struct model *m, struct opts *o)
{
	static const struct col cols[] = {
		{ "flavour", COL_STR, -18, NULL }, { "cpu", COL_INT, 4, NULL },
		{ "passes", COL_INT, 7, NULL }, { "callbacks", COL_INT, 10, NULL },
		{ "max_callbacks", COL_INT, 13, "max cbs" }, { "max_us", COL_US, 10, "max us" },
		{ "max_at_s", COL_TS, 16, "longest at" },
	};
	struct table t = TABLE("passes",
			       "callback invocation passes (rcu_batch_start/end), per CPU", cols);
	int f, cpu;
	size_t i;

	table_begin(&t, o->fmt);
	for (f = 0; f < m->nflv; f++) {
		for (cpu = 0; cpu < m->ncpus; cpu++) {
			long n = 0, cbs = 0, maxcb = 0;
			u64 maxd = 0, at = 0;

			for (i = 0; i < m->passes.n; i++) {
				struct pass_ev *p = VEC_AT(&m->passes, struct pass_ev, i);

				if (p->flavour != f || p->cpu != cpu || p->invoked < 0)
					continue;
				n++;
				cbs += p->invoked;
				if (p->invoked > maxcb)
					maxcb = p->invoked;
				if (!at || p->end - p->start > maxd) {
					maxd = p->end - p->start;
					at = p->start;
				}
			}
			if (n)
				table_row(&t, m->flv[f].name, I(cpu), I(n), I(cbs), I(maxcb), US(maxd), at);
		}
	}
	table_end(&t);
}

/* --- one batch, CPU by CPU ----------------------------------------------- */

static const char *qs_src_word(enum qs_src s)
{
	switch (s) {
	case QS_EXACT: return "traced";
	case QS_SWITCH: return "inferred";
	case QS_IDLE: return "inferred: idle, rescheduled by the kick";
	case QS_SEEN: return "upper bound: when the poller saw it";
	default: return "none";
	}
}

static void table_cpus(struct model *m, struct gp *g, struct opts *o)
{
	static const struct col cols[] = {
		{ "flavour", COL_STR, 0, NULL }, { "batch", COL_INT, 0, NULL },
		{ "cpu", COL_INT, 0, NULL }, { "qs_s", COL_TS, 0, NULL },
		{ "qs_after_us", COL_US, 0, NULL }, { "qs_how", COL_STR, 0, NULL },
		{ "qs_known_by", COL_STR, 0, NULL }, { "qs_pid", COL_INT, 0, NULL },
		{ "qs_comm", COL_STR, 0, NULL }, { "seen_s", COL_TS, 0, NULL },
		{ "seen_after_us", COL_US, 0, NULL }, { "kick_s", COL_TS, 0, NULL },
	};
	struct table t = TABLE("cpus", "", cols);
	int cpu;

	table_begin(&t, o->fmt);
	for (cpu = 0; cpu < g->ncpu; cpu++) {
		struct gp_cpu *c = gp_cpu(g, cpu);

		if (!gp_waits_for(g, cpu))
			continue;
		table_row(&t, m->flv[g->flavour].name, I(g->nr), I(cpu), c->qs,
			  c->qs_src ? US(c->qs - g->start) : NAN, c->qs_src ? c->qs_how : NULL,
			  qs_src_word(c->qs_src), c->qs_pid >= 0 ? I(c->qs_pid) : TABLE_NULL_INT,
			  c->qs_pid >= 0 ? c->qs_comm : NULL, c->seen,
			  c->seen ? US(c->seen - g->start) : NAN, c->kick);
	}
	table_end(&t);
}

struct tl_item {
	u64 ts;
	int cpu;
	char text[200];
};

static void tl_add(struct vec *v, u64 ts, int cpu, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static void tl_add(struct vec *v, u64 ts, int cpu, const char *fmt, ...)
{
	struct tl_item *it = vec_push(v);
	va_list ap;

	it->ts = ts;
	it->cpu = cpu;
	va_start(ap, fmt);
	vsnprintf(it->text, sizeof(it->text), fmt, ap);
	va_end(ap);
}

static int cmp_item(const void *a, const void *b)
{
	const struct tl_item *x = a, *y = b;

	return (x->ts > y->ts) - (x->ts < y->ts);
}

#define TL_PER_CPU 6

/* What happened on each CPU the batch involves, from its start to its end. */
static void gp_timeline(struct model *m, struct gp *g, struct vec *items)
{
	u64 to = g->end ? g->end : m->last_ts;
	int cpu;

	bool tree = m->flv[g->flavour].tree;

	if (tree)
		tl_add(items, g->start, g->start_cpu, "grace period start (gp_seq %ld)", GP_NR(g));
	else
		tl_add(items, g->start, g->start_cpu, "batch start: %ld callback%s", g->ncbs,
		       g->ncbs == 1 ? "" : "s");
	if (g->end)
		tl_add(items, g->end, g->end_cpu, "%s end", gp_noun(m));
	for (cpu = 0; cpu < g->ncpu; cpu++) {
		struct gp_cpu *c = gp_cpu(g, cpu);
		struct cpu_tl *t = cpu < m->ncpus ? &m->cpus[cpu] : NULL;
		struct sw_ev *s;
		size_t i, shown = 0, more = 0;

		if (!gp_waits_for(g, cpu))
			continue;
		if (c->kick)
			tl_add(items, c->kick, g->start_cpu, "kick CPU %d", cpu);
		if (c->seen && tree)
			tl_add(items, c->seen, cpu, "CPU %d's quiescent state reported to the rcu_node tree",
			       cpu);
		else if (c->seen)
			tl_add(items, c->seen, g->end_cpu >= 0 ? g->end_cpu : g->start_cpu,
			       "poller saw CPU %d pass a quiescent state (%s)", cpu, c->seen_how);
		if (c->noticed)
			tl_add(items, c->noticed, cpu, "noticed the grace period (cpustart)");
		if (c->fqs)
			tl_add(items, c->fqs, g->start_cpu, "FQS scan: CPU %d %s", cpu,
			       !strcmp(c->fqs_how, "dti") ? "idle (dti), reported for it" : c->fqs_how);
		if (c->qs_src == QS_EXACT)
			tl_add(items, c->qs, cpu, "quiescent state (%s) <- counts for this %s",
			       c->qs_how, gp_noun(m));
		if (!t)
			continue;
		for (s = tl_switch_after(t, g->start); s && s->ts <= to;
		     s = (size_t)(s - (struct sw_ev *)t->sw.v) + 1 < t->sw.n ? s + 1 : NULL) {
			if (shown++ >= TL_PER_CPU) {
				more++;
				continue;
			}
			tl_add(items, s->ts, cpu, "context switch %s (%d) -> %s (%d)%s", s->prev_comm,
			       s->prev_pid, s->next_comm, s->next_pid,
			       c->qs_src == QS_SWITCH && c->qs == s->ts ? " <- quiescent state" : "");
		}
		if (more)
			tl_add(items, to, cpu, "... and %zu more context switches on CPU %d", more, cpu);
		shown = more = 0;
		for (i = 0; i < t->sirq.n; i++) {
			struct sirq_ev *q = VEC_AT(&t->sirq, struct sirq_ev, i);

			if (q->ts <= g->start || q->ts > to || q->vec != RCU_SOFTIRQ_VEC ||
			    q->what != SIRQ_ENTRY ||
			    (!tree && cpu != (g->owner >= 0 ? g->owner : g->end_cpu)))
				continue;
			if (shown++ >= TL_PER_CPU) {
				more++;
				continue;
			}
			tl_add(items, q->ts, cpu, "RCU_SOFTIRQ runs");
		}
		if (more)
			tl_add(items, to, cpu, "... and %zu more RCU_SOFTIRQ runs", more);
	}
}

static void text_batch(struct model *m, struct gp *g, struct opts *o)
{
	struct vec items = VEC_INIT(struct tl_item);
	char ts[TS_BUF], ts2[TS_BUF];
	int pid, cpu;
	const char *comm;
	u64 since;
	size_t i;

	explain_gp(m, g);
	if (m->flv[g->flavour].tree)
		printf("%s grace period, gp_seq %ld", m->flv[g->flavour].name, GP_NR(g));
	else
		printf("%s batch %lu", m->flv[g->flavour].name, g->nr);
	if (g->owner >= 0)
		printf(" of CPU %d", g->owner);
	printf(" (%s)\n", o->file);
	tl_task_at(m, g->start_cpu, g->start, &pid, &comm, &since);
	printf("  started %s on CPU %d", fmt_ts(g->start, ts), g->start_cpu);
	if (pid >= 0) {
		printf(" in ");
		put_text(stdout, comm);
	}
	if (g->ncbs >= 0)
		printf(" with %ld callback%s,", g->ncbs, g->ncbs == 1 ? "" : "s");
	printf("%s waiting for %d CPUs", g->ncbs >= 0 ? "" : ",", g->nwait);
	if (m->flv[g->flavour].tree)
		printf(", %d FQS scan%s", g->nfqs, g->nfqs == 1 ? "" : "s");
	printf("\n");
	if (g->end)
		printf("  ended   %s on CPU %d after %.3f ms\n", fmt_ts(g->end, ts), g->end_cpu,
		       MS(g->end - g->start));
	else
		printf("  still in flight at the end of the trace (%s), %.3f ms after it started\n",
		       fmt_ts(m->last_ts, ts), MS(m->last_ts - g->start));
	printf("  why: ");
	put_text(stdout, g->cause.text);
	if (!g->slow)
		printf(" (not slow: under the --slow threshold)");
	printf("\n");
	if (!g->end)
		print_waiting_line(m, g);
	printf("\n  CPU  quiescent state (after start, how, what ran until then)       %s (after)\n",
	       m->tree ? "reported" : "seen by the poller");
	for (cpu = 0; cpu < g->ncpu; cpu++) {
		struct gp_cpu *c = gp_cpu(g, cpu);
		char qs[160];

		if (!gp_waits_for(g, cpu))
			continue;
		if (c->qs_src == QS_NONE)
			snprintf(qs, sizeof(qs), "none");
		else
			snprintf(qs, sizeof(qs), "%s +%.3f ms %s (%s)", fmt_ts(c->qs, ts),
				 MS(c->qs - g->start), c->qs_how, qs_src_word(c->qs_src));
		printf("  %3d  %-58s  ", cpu, qs);
		if (c->seen)
			printf("%s +%.3f ms\n", fmt_ts(c->seen, ts2), MS(c->seen - g->start));
		else
			printf("not seen\n");
		if (c->qs_src != QS_NONE && c->qs_pid >= 0) {
			printf("       until then: ");
			put_text(stdout, c->qs_comm ? c->qs_comm : "?");
			printf(" (pid %d)\n", c->qs_pid);
		}
	}
	if (!m->has_cpu_qs && !m->tree)
		printf("  (quiescent states inferred: the first context switch after the start, or the kick of an idle CPU;\n"
		       "   record rcu_poll:rcu_poll_cpu_qs for the exact ones)\n");
	gp_timeline(m, g, &items);
	qsort(items.v, items.n, items.size, cmp_item);
	printf("\n  timeline\n");
	for (i = 0; i < items.n; i++) {
		struct tl_item *it = VEC_AT(&items, struct tl_item, i);

		printf("  %s  +%10.3f ms  CPU %-3d ", fmt_ts(it->ts, ts), MS(it->ts - g->start),
		       it->cpu);
		put_text(stdout, it->text);
		printf("\n");
	}
	vec_free(&items);
}

static struct gp *pick_batch(struct model *m, struct opts *o)
{
	struct gp *found = NULL;
	size_t i;
	int f = -1;

	if (o->flavour) {
		f = model_flavour_by_name(m, o->flavour);
		if (f < 0)
			die("%s has no batches of flavour '%s'", o->file, o->flavour);
	}
	for (i = 0; i < m->gps.n; i++) {
		struct gp *g = model_gp(m, i);

		if (g->nr != (unsigned long)o->batch || (f >= 0 && g->flavour != f))
			continue;
		if (found)
			die("%s %ld is in both %s and %s: choose with --flavour", gp_noun(m), o->batch,
			    m->flv[found->flavour].name, m->flv[g->flavour].name);
		found = g;
	}
	if (!found)
		die("%s has no %s %ld%s%s (its %s: %ld to %ld)", o->file, gp_noun(m), o->batch,
		    o->flavour ? " of flavour " : "", o->flavour ? o->flavour : "", gp_nouns(m),
		    m->gps.n ? GP_NR(model_gp(m, 0)) : 0,
		    m->gps.n ? GP_NR(model_gp(m, m->gps.n - 1)) : 0);
	return found;
}

static void report_batch(struct model *m, struct opts *o)
{
	struct gp *g = pick_batch(m, o);

	if (o->fmt == FMT_TEXT) {
		text_batch(m, g, o);
		return;
	}
	explain_gp(m, g);
	if (want(o, "batches"))
		table_batches(m, o);
	if (o->fmt == FMT_JSON && want(o, "cpus"))
		table_cpus(m, g, o);
	else if (o->fmt == FMT_CSV && o->table && !strcmp(o->table, "cpus"))
		table_cpus(m, g, o);
}

static void report_all(struct model *m, struct opts *o)
{
	if (want(o, "trace"))
		table_trace(m, o);
	if (want(o, "summary"))
		table_summary(m, o);
	if (want(o, "batches"))
		table_batches(m, o);
	if (want(o, "delays"))
		table_delays(m, o);
	if (want(o, "slowest"))
		table_slowest(m, o);
	if (want(o, "callbacks"))
		table_callbacks(m, o);
	if (want(o, "waiting"))
		table_waiting(m, o);
	if (want(o, "stalls"))
		table_stalls(m, o);
	if (want(o, "barriers"))
		table_barriers(m, o);
	if (want(o, "passes"))
		table_passes(m, o);
}

static void parse_report(int argc, char **argv, struct opts *o)
{
	int c, i;

	while ((c = cli_getopt(argc, argv, "s:n:b:F:f:t:B:h", report_long)) != -1) {
		switch (c) {
		case 's': o->slow_ms = parse_ms(optarg, "--slow", 0, 3600000); break;
		case 'n': o->top = parse_num(optarg, "--top", 1, 100000); break;
		case 'b':
			/* A Tree RCU gp_seq starts negative at boot (-1200). */
			if (optarg[0] == '-' && optarg[1] >= '0' && optarg[1] <= '9')
				o->batch = -(long)parse_num(optarg + 1, "--batch", 1, LONG_MAX);
			else
				o->batch = parse_num(optarg, "--batch", 0, LONG_MAX);
			o->has_batch = true;
			break;
		case 'F': o->flavour = optarg; break;
		case 'B': o->buffer = optarg; break;
		case 'f':
			if (!strcmp(optarg, "text"))
				o->fmt = FMT_TEXT;
			else if (!strcmp(optarg, "csv"))
				o->fmt = FMT_CSV;
			else if (!strcmp(optarg, "json"))
				o->fmt = FMT_JSON;
			else
				die_usage("--format takes text, csv or json, not '%s'", optarg);
			break;
		case 't':
			for (i = 0; table_names[i] && strcmp(table_names[i], optarg); i++)
				;
			if (!table_names[i])
				die_usage("--table takes trace, summary, batches, delays, slowest, callbacks, waiting, stalls or cpus, not '%s'",
					  optarg);
			o->table = optarg;
			break;
		case 'h': usage_report(stdout); exit(0);
		}
	}
	if (optind >= argc)
		die_usage("which trace.dat? (rcupoll report FILE)");
	if (optind < argc - 1)
		die_usage("one trace.dat at a time, not '%s' and '%s'", argv[optind], argv[optind + 1]);
	o->file = argv[optind];
	if (o->flavour && !o->has_batch)
		die_usage("--flavour goes with --batch N");
	if (o->table && !strcmp(o->table, "cpus") && !o->has_batch)
		die_usage("--table cpus goes with --batch N");
	if (o->fmt == FMT_CSV && !o->table)
		o->table = "batches";
}

int cmd_report(int argc, char **argv)
{
	struct opts o = { .fmt = FMT_TEXT, .top = 5, .slow_ms = 5 };
	struct model *m;

	parse_report(argc, argv, &o);
	m = model_load(o.file, o.buffer, (u64)(o.slow_ms * 1e6));
	if (o.has_batch)
		report_batch(m, &o);
	else
		report_all(m, &o);
	model_free(m);
	if (fflush(stdout) || ferror(stdout))
		die("cannot write the report: %s", strerror(errno));
	return 0;
}
