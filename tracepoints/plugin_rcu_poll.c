// SPDX-License-Identifier: LGPL-2.1
/*
 * libtraceevent plugin for the rcu_poll trace events: trace-cmd report
 * and KernelShark print CPU masks as CPU lists (waits=0-1 instead of
 * waits=00000000,00000003) and times in microseconds or milliseconds
 * (duration=3.329ms instead of duration_ns=3329186).
 *
 * Each event is first printed by its own format, which resolves the
 * flavour (a tracepoint string) and function names, then rewritten
 * field by field; unknown fields pass through unchanged, so the plugin
 * keeps working if an event gains fields.
 *
 * Tree RCU's grace-period events (rcu system) print their fields by
 * position ("rcu_preempt -1195 1>2 0 0 1 0"); the plugin names them
 * ("rcu_preempt gp_seq=-1195 level=0 cpus=0-1 reported=0x1 still=0x2
 * tasks=0"), reading the fields themselves.
 *
 * Install: make -C tracepoints install (into
 * ~/.local/lib/traceevent/plugins/), or point TRACEEVENT_PLUGIN_DIR at
 * the directory holding plugin_rcu_poll.so.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <event-parse.h>
#include <trace-seq.h>

static const char *const rcu_poll_events[] = {
	"rcu_poll_call_rcu", "rcu_poll_batch_start", "rcu_poll_qs",
	"rcu_poll_batch_end", "rcu_poll_invoke", "rcu_poll_kick",
	"rcu_poll_stall", "rcu_poll_holdout",
};

/* "00000000,00000003" (32-bit words, most significant first) -> "0-1". */
static void print_cpulist(struct trace_seq *s, const char *hex)
{
	int nwords = 1, bit, first = -1, any = 0, w;
	const char *p;

	for (p = hex; *p; p++)
		nwords += *p == ',';
	for (bit = 0; bit <= nwords * 32; bit++) {
		int set = 0;

		if (bit < nwords * 32) {
			char word[9] = "";
			const char *q = hex;

			/* word w counts from the least significant, i.e. the end */
			w = nwords - 1 - bit / 32;
			while (w-- > 0 && (q = strchr(q, ',')))
				q++;
			if (q) {
				sscanf(q, "%8[0-9a-fA-F]", word);
				set = (strtoul(word, NULL, 16) >> (bit % 32)) & 1;
			}
		}
		if (set && first < 0) {
			first = bit;
		} else if (!set && first >= 0) {
			trace_seq_printf(s, "%s%d", any ? "," : "", first);
			if (bit - 1 > first)
				trace_seq_printf(s, "-%d", bit - 1);
			any = 1;
			first = -1;
		}
	}
	if (!any)
		trace_seq_puts(s, "-");
}

/* Nanoseconds as a short human duration. */
static void print_ns(struct trace_seq *s, const char *name, unsigned long long ns)
{
	if (ns >= 1000000ULL)
		trace_seq_printf(s, "%s=%llu.%03llums", name, ns / 1000000ULL, (ns / 1000) % 1000);
	else
		trace_seq_printf(s, "%s=%llu.%03lluus", name, ns / 1000ULL, ns % 1000);
}

/* Rewrite one "key=value" token of the default output. */
static void print_token(struct trace_seq *s, const char *tok)
{
	const char *eq = strchr(tok, '=');
	size_t klen = eq ? (size_t)(eq - tok) : 0;

	if (eq && (!strncmp(tok, "waits", klen) || !strncmp(tok, "holdouts", klen)) &&
	    strchr(eq + 1, ',')) {
		trace_seq_printf(s, "%.*s=", (int)klen, tok);
		print_cpulist(s, eq + 1);
	} else if (eq && klen > 3 && !strncmp(eq - 3, "_ns", 3)) {
		char name[32];

		snprintf(name, sizeof(name), "%.*s", (int)(klen - 3), tok);
		print_ns(s, name, strtoull(eq + 1, NULL, 10));
	} else {
		trace_seq_puts(s, tok);
	}
}

static int rcu_poll_handler(struct trace_seq *s, struct tep_record *record,
			    struct tep_event *event, void *context)
{
	tep_event_handler_func self = event->handler;
	struct trace_seq raw;
	char *save, *tok;
	int first = 1;

	/* The event's own format resolves strings and symbols. */
	trace_seq_init(&raw);
	event->handler = NULL;
	tep_print_event(event->tep, &raw, record, "%s", TEP_PRINT_INFO);
	event->handler = self;
	trace_seq_terminate(&raw);
	for (tok = strtok_r(raw.buffer, " ", &save); tok; tok = strtok_r(NULL, " ", &save)) {
		if (!first)
			trace_seq_putc(s, ' ');
		print_token(s, tok);
		first = 0;
	}
	trace_seq_destroy(&raw);
	return 0;
}

/* --- Tree RCU ----------------------------------------------------------- */

/* A tracepoint-string field (rcuname, gpevent, qsevent) as text. */
static void put_str(struct trace_seq *s, struct tep_event *event, struct tep_record *record,
		    const char *name)
{
	struct tep_format_field *f = tep_find_field(event, name);

	if (f)
		tep_print_field_content(s, record->data, record->size, f);
	else
		trace_seq_puts(s, "?");
}

static long long num(struct tep_event *event, struct tep_record *record, const char *name)
{
	unsigned long long v = 0;
	struct tep_format_field *f = tep_find_field(event, name);

	if (!f || tep_read_number_field(f, record->data, &v))
		return 0;
	if ((f->flags & TEP_FIELD_IS_SIGNED) && f->size < 8) {
		int shift = 64 - 8 * f->size;

		return (long long)(v << shift) >> shift;
	}
	return (long long)v;
}

/* "rcu_preempt gp_seq=N": every Tree grace-period event starts so. */
static void tree_head(struct trace_seq *s, struct tep_event *event, struct tep_record *record)
{
	put_str(s, event, record, "rcuname");
	trace_seq_printf(s, " gp_seq=%lld", num(event, record, "gp_seq"));
}

/* rcu_node's CPUs: "cpus=0-1" or "cpus=4". */
static void tree_node(struct trace_seq *s, struct tep_event *event, struct tep_record *record)
{
	long long lo = num(event, record, "grplo"), hi = num(event, record, "grphi");

	trace_seq_printf(s, " level=%lld cpus=%lld", num(event, record, "level"), lo);
	if (hi != lo)
		trace_seq_printf(s, "-%lld", hi);
}

static int tree_gp_handler(struct trace_seq *s, struct tep_record *record,
			   struct tep_event *event, void *context)
{
	tree_head(s, event, record);
	trace_seq_putc(s, ' ');
	put_str(s, event, record, "gpevent");
	return 0;
}

static int tree_init_handler(struct trace_seq *s, struct tep_record *record,
			     struct tep_event *event, void *context)
{
	tree_head(s, event, record);
	tree_node(s, event, record);
	trace_seq_printf(s, " qsmask=0x%llx", (unsigned long long)num(event, record, "qsmask"));
	return 0;
}

static int tree_report_handler(struct trace_seq *s, struct tep_record *record,
			       struct tep_event *event, void *context)
{
	tree_head(s, event, record);
	tree_node(s, event, record);
	trace_seq_printf(s, " reported=0x%llx still=0x%llx tasks=%lld",
			 (unsigned long long)num(event, record, "mask"),
			 (unsigned long long)num(event, record, "qsmask"),
			 num(event, record, "gp_tasks"));
	return 0;
}

static int tree_fqs_handler(struct trace_seq *s, struct tep_record *record,
			    struct tep_event *event, void *context)
{
	tree_head(s, event, record);
	trace_seq_printf(s, " cpu=%lld ", num(event, record, "cpu"));
	put_str(s, event, record, "qsevent");
	return 0;
}

static const struct {
	const char *name;
	tep_event_handler_func fn;
} tree_events[] = {
	{ "rcu_grace_period", tree_gp_handler },
	{ "rcu_grace_period_init", tree_init_handler },
	{ "rcu_quiescent_state_report", tree_report_handler },
	{ "rcu_fqs", tree_fqs_handler },
};

int TEP_PLUGIN_LOADER(struct tep_handle *tep)
{
	size_t i;

	for (i = 0; i < sizeof(rcu_poll_events) / sizeof(rcu_poll_events[0]); i++)
		tep_register_event_handler(tep, -1, "rcu_poll", rcu_poll_events[i],
					   rcu_poll_handler, NULL);
	for (i = 0; i < sizeof(tree_events) / sizeof(tree_events[0]); i++)
		tep_register_event_handler(tep, -1, "rcu", tree_events[i].name, tree_events[i].fn,
					   NULL);
	return 0;
}

void TEP_PLUGIN_UNLOADER(struct tep_handle *tep)
{
	size_t i;

	for (i = 0; i < sizeof(rcu_poll_events) / sizeof(rcu_poll_events[0]); i++)
		tep_unregister_event_handler(tep, -1, "rcu_poll", rcu_poll_events[i],
					     rcu_poll_handler, NULL);
	for (i = 0; i < sizeof(tree_events) / sizeof(tree_events[0]); i++)
		tep_unregister_event_handler(tep, -1, "rcu", tree_events[i].name, tree_events[i].fn,
					     NULL);
}
