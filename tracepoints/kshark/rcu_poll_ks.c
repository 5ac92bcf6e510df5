// SPDX-License-Identifier: LGPL-2.1
/*
 * KernelShark plugin for rcu_poll, data side: while a stream loads,
 * collect every batch start and end (keyed by flavour and batch number)
 * and every quiescent-state observation (with the CPU observed), in the
 * stream's own context; kicks and stall warnings as marks.  The drawing
 * side (RcuPollPlot.cpp) pairs them.  A Tree RCU stream gives the same:
 * rcu_grace_period "start"/"end" (keyed by gp_seq), "cpuqs" as the
 * quiescent states, "cpustart" to "cpuqs" per CPU, rcu_fqs and
 * "fqsstart" as kicks and FQS marks, rcu_stall_warning.
 *
 *   kernelshark -p plugin-rcu_poll.so trace.dat
 *   RCUPOLL_KS_SLOW_MS=50 kernelshark ...   red above 50 ms (default 10)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <event-parse.h>

#include "libkshark-tepdata.h"
#include "rcu_poll_ks.h"

static void rcu_poll_free_context(struct plugin_rcu_poll_context *ctx)
{
	if (!ctx)
		return;
	kshark_free_data_container(ctx->starts);
	kshark_free_data_container(ctx->ends);
	kshark_free_data_container(ctx->qs);
	kshark_free_data_container(ctx->cpustarts);
	kshark_free_data_container(ctx->cpuqs);
	kshark_free_data_container(ctx->marks);
	rcu_poll_free_pairs(ctx->pairs);
	ctx->pairs = NULL;
}

KS_DEFINE_PLUGIN_CONTEXT(struct plugin_rcu_poll_context, rcu_poll_free_context);

static int64_t slow_ns_from_env(void)
{
	const char *s = getenv("RCUPOLL_KS_SLOW_MS");
	char *end;
	double ms;

	if (!s || !*s)
		return 10000000LL;
	ms = strtod(s, &end);
	if (*end || ms <= 0) {
		fprintf(stderr, "rcu_poll plugin: RCUPOLL_KS_SLOW_MS='%s' is not a positive number of ms; using 10\n",
			s);
		return 10000000LL;
	}
	return (int64_t)(ms * 1e6);
}

static bool rcu_poll_init_context(struct kshark_data_stream *stream,
				  struct plugin_rcu_poll_context *ctx)
{
	const char *dbg = getenv("RCUPOLL_KS_DEBUG");

	ctx->stream_id = stream->stream_id;
	ctx->start_id = kshark_find_event_id(stream, "rcu_poll/rcu_poll_batch_start");
	ctx->end_id = kshark_find_event_id(stream, "rcu_poll/rcu_poll_batch_end");
	ctx->qs_id = kshark_find_event_id(stream, "rcu_poll/rcu_poll_qs");
	ctx->kick_id = kshark_find_event_id(stream, "rcu_poll/rcu_poll_kick");
	ctx->stall_id = kshark_find_event_id(stream, "rcu_poll/rcu_poll_stall");
	ctx->tree = false;
	if (ctx->start_id < 0 || ctx->end_id < 0 || ctx->qs_id < 0) {
		struct tep_handle *tep = kshark_get_tep(stream);
		struct tep_event *ev;

		/* Not rcu_poll: Tree RCU's rcu_grace_period says as much. */
		ctx->start_id = kshark_find_event_id(stream, "rcu/rcu_grace_period");
		ev = tep && ctx->start_id >= 0 ? tep_find_event(tep, ctx->start_id) : NULL;
		if (!ev)
			return false;	/* neither an rcu_poll nor a Tree RCU trace */
		ctx->tree = true;
		ctx->end_id = ctx->qs_id = ctx->start_id;
		ctx->gpevent_field = tep_find_field(ev, "gpevent");
		ctx->rcuname_field = tep_find_field(ev, "rcuname");
		if (!ctx->gpevent_field || !ctx->rcuname_field)
			return false;
		ctx->nwords = 0;
		ctx->kick_id = kshark_find_event_id(stream, "rcu/rcu_fqs");
		ctx->stall_id = kshark_find_event_id(stream, "rcu/rcu_stall_warning");
	}
	ctx->starts = kshark_init_data_container();
	ctx->ends = kshark_init_data_container();
	ctx->qs = kshark_init_data_container();
	ctx->cpustarts = kshark_init_data_container();
	ctx->cpuqs = kshark_init_data_container();
	ctx->marks = kshark_init_data_container();
	ctx->nflavours = 0;
	ctx->slow_ns = slow_ns_from_env();
	ctx->debug = dbg && *dbg && *dbg != '0';
	ctx->pairs = NULL;
	return ctx->starts && ctx->ends && ctx->qs && ctx->cpustarts && ctx->cpuqs && ctx->marks;
}

/* The flavour is a tracepoint string: its address tells flavours apart. */
static int flavour_index(struct plugin_rcu_poll_context *ctx, int64_t ptr)
{
	int i;

	for (i = 0; i < ctx->nflavours; i++) {
		if (ctx->flavour_ptr[i] == ptr)
			return i;
	}
	if (ctx->nflavours == RCU_POLL_KS_FLAVOURS)
		return RCU_POLL_KS_FLAVOURS - 1;
	ctx->flavour_ptr[ctx->nflavours] = ptr;
	return ctx->nflavours++;
}

static void append_batch(struct kshark_data_stream *stream, void *rec,
			 struct kshark_entry *entry, struct kshark_data_container *c)
{
	struct plugin_rcu_poll_context *ctx = __get_context(stream->stream_id);
	int64_t flavour, nr;

	if (!ctx || kshark_read_record_field_int(stream, rec, "flavour", &flavour) ||
	    kshark_read_record_field_int(stream, rec, "batch", &nr))
		return;
	kshark_data_container_append(c, entry, RCU_POLL_KEY(flavour_index(ctx, flavour), nr));
}

static void on_start(struct kshark_data_stream *stream, void *rec, struct kshark_entry *entry)
{
	struct plugin_rcu_poll_context *ctx = __get_context(stream->stream_id);

	if (ctx)
		append_batch(stream, rec, entry, ctx->starts);
}

static void on_end(struct kshark_data_stream *stream, void *rec, struct kshark_entry *entry)
{
	struct plugin_rcu_poll_context *ctx = __get_context(stream->stream_id);

	if (ctx)
		append_batch(stream, rec, entry, ctx->ends);
}

static void on_qs(struct kshark_data_stream *stream, void *rec, struct kshark_entry *entry)
{
	struct plugin_rcu_poll_context *ctx = __get_context(stream->stream_id);
	int64_t cpu;

	if (ctx && !kshark_read_record_field_int(stream, rec, "qs_cpu", &cpu))
		kshark_data_container_append(ctx->qs, entry, cpu);
}

static int tree_flavour(struct plugin_rcu_poll_context *ctx, struct tep_record *rec, int64_t ptr);

static void on_kick(struct kshark_data_stream *stream, void *rec, struct kshark_entry *entry)
{
	struct plugin_rcu_poll_context *ctx = __get_context(stream->stream_id);
	int64_t cpu, name, seq;

	if (!ctx || kshark_read_record_field_int(stream, rec, ctx->tree ? "cpu" : "target", &cpu))
		return;
	kshark_data_container_append(ctx->marks, entry, ((int64_t)RCU_POLL_MARK_KICK << 32) | cpu);
	/* Tree: an FQS scan reporting an idle CPU ends that CPU's bar. */
	if (ctx->tree && !kshark_read_record_field_int(stream, rec, "rcuname", &name) &&
	    !kshark_read_record_field_int(stream, rec, "gp_seq", &seq))
		kshark_data_container_append(ctx->cpuqs, entry,
					     RCU_POLL_KEY(tree_flavour(ctx, rec, name), seq) |
					     (cpu << 56));
}

static void on_stall(struct kshark_data_stream *stream, void *rec, struct kshark_entry *entry)
{
	struct plugin_rcu_poll_context *ctx = __get_context(stream->stream_id);

	if (ctx)
		kshark_data_container_append(ctx->marks, entry,
					     ((int64_t)RCU_POLL_MARK_STALL << 32) | entry->cpu);
}

enum { W_OTHER, W_START, W_END, W_CPUSTART, W_CPUQS, W_FQSSTART };

/* The text of a tracepoint-string field, printed by the event's format. */
static void field_text(struct tep_record *rec, void *field, char *buf, size_t len)
{
	struct trace_seq s;

	trace_seq_init(&s);
	tep_print_field_content(&s, rec->data, rec->size, field);
	trace_seq_terminate(&s);
	snprintf(buf, len, "%s", s.buffer);
	trace_seq_destroy(&s);
}

/*
 * Tree: the flavour of a record by the text of its rcuname: rcu_qs()
 * names rcu_preempt with a string of its own, at another address than
 * rcu_state.name's.  Cached by address (the words cache, what = -1 - index).
 */
static int tree_flavour(struct plugin_rcu_poll_context *ctx, struct tep_record *rec, int64_t ptr)
{
	char name[32];
	int i;

	for (i = 0; i < ctx->nwords; i++) {
		if (ctx->words[i].ptr == ptr && ctx->words[i].what < 0)
			return -1 - ctx->words[i].what;
	}
	field_text(rec, ctx->rcuname_field, name, sizeof(name));
	for (i = 0; i < ctx->nflavours && strcmp(ctx->flavour_name[i], name); i++)
		;
	if (i == ctx->nflavours && ctx->nflavours < RCU_POLL_KS_FLAVOURS)
		snprintf(ctx->flavour_name[ctx->nflavours++], sizeof(name), "%s", name);
	if (i >= RCU_POLL_KS_FLAVOURS)
		i = RCU_POLL_KS_FLAVOURS - 1;
	if (ctx->nwords < RCU_POLL_KS_WORDS) {
		ctx->words[ctx->nwords].ptr = ptr;
		ctx->words[ctx->nwords++].what = -1 - i;
	}
	return i;
}

/*
 * Tree: which grace-period event a record is.  "gpevent" is a tracepoint
 * string: its address is looked up once, its text read with the event's
 * own print of that field.
 */
static int tree_word(struct plugin_rcu_poll_context *ctx, struct kshark_data_stream *stream,
		     struct tep_record *rec, int64_t ptr)
{
	static const char *const names[] = {
		[W_START] = "start", [W_END] = "end", [W_CPUSTART] = "cpustart",
		[W_CPUQS] = "cpuqs", [W_FQSSTART] = "fqsstart",
	};
	char word[32];
	int i, what = W_OTHER;

	for (i = 0; i < ctx->nwords; i++) {
		if (ctx->words[i].ptr == ptr && ctx->words[i].what >= 0)
			return ctx->words[i].what;
	}
	field_text(rec, ctx->gpevent_field, word, sizeof(word));
	for (i = W_START; i <= W_FQSSTART; i++) {
		if (!strcmp(word, names[i]))
			what = i;
	}
	if (ctx->nwords < RCU_POLL_KS_WORDS) {
		ctx->words[ctx->nwords].ptr = ptr;
		ctx->words[ctx->nwords++].what = what;
	}
	return what;
}

/* Tree RCU's rcu_grace_period: batches, per-CPU bars, ticks and FQS marks. */
static void on_tree_gp(struct kshark_data_stream *stream, void *rec, struct kshark_entry *entry)
{
	struct plugin_rcu_poll_context *ctx = __get_context(stream->stream_id);
	int64_t name, seq, ev, key;

	if (!ctx || kshark_read_record_field_int(stream, rec, "rcuname", &name) ||
	    kshark_read_record_field_int(stream, rec, "gp_seq", &seq) ||
	    kshark_read_record_field_int(stream, rec, "gpevent", &ev))
		return;
	key = RCU_POLL_KEY(tree_flavour(ctx, rec, name), seq);
	switch (tree_word(ctx, stream, rec, ev)) {
	case W_START:
		kshark_data_container_append(ctx->starts, entry, key);
		break;
	case W_END:
		kshark_data_container_append(ctx->ends, entry, key);
		break;
	case W_CPUSTART:
		kshark_data_container_append(ctx->cpustarts, entry, key | ((int64_t)entry->cpu << 56));
		break;
	case W_CPUQS:
		kshark_data_container_append(ctx->cpuqs, entry, key | ((int64_t)entry->cpu << 56));
		kshark_data_container_append(ctx->qs, entry, entry->cpu);
		break;
	case W_FQSSTART:
		kshark_data_container_append(ctx->marks, entry,
					     ((int64_t)RCU_POLL_MARK_FQS << 32) | entry->cpu);
		break;
	}
}

int KSHARK_PLOT_PLUGIN_INITIALIZER(struct kshark_data_stream *stream)
{
	struct plugin_rcu_poll_context *ctx = __init(stream->stream_id);

	if (!ctx || !rcu_poll_init_context(stream, ctx)) {
		__close(stream->stream_id);
		return 0;
	}
	if (ctx->tree) {
		kshark_register_event_handler(stream, ctx->start_id, on_tree_gp);
	} else {
		kshark_register_event_handler(stream, ctx->start_id, on_start);
		kshark_register_event_handler(stream, ctx->end_id, on_end);
		kshark_register_event_handler(stream, ctx->qs_id, on_qs);
	}
	if (ctx->kick_id >= 0)
		kshark_register_event_handler(stream, ctx->kick_id, on_kick);
	if (ctx->stall_id >= 0)
		kshark_register_event_handler(stream, ctx->stall_id, on_stall);
	kshark_register_draw_handler(stream, draw_rcu_poll);
	return 1;
}

int KSHARK_PLOT_PLUGIN_DEINITIALIZER(struct kshark_data_stream *stream)
{
	struct plugin_rcu_poll_context *ctx = __get_context(stream->stream_id);
	int ret = 0;

	if (ctx) {
		if (ctx->tree) {
			kshark_unregister_event_handler(stream, ctx->start_id, on_tree_gp);
		} else {
			kshark_unregister_event_handler(stream, ctx->start_id, on_start);
			kshark_unregister_event_handler(stream, ctx->end_id, on_end);
			kshark_unregister_event_handler(stream, ctx->qs_id, on_qs);
		}
		if (ctx->kick_id >= 0)
			kshark_unregister_event_handler(stream, ctx->kick_id, on_kick);
		if (ctx->stall_id >= 0)
			kshark_unregister_event_handler(stream, ctx->stall_id, on_stall);
		kshark_unregister_draw_handler(stream, draw_rcu_poll);
		ret = 1;
	}
	__close(stream->stream_id);
	return ret;
}

/* No menu; KernelShark hands over its main window, for marking entries. */
void *KSHARK_MENU_PLUGIN_INITIALIZER(void *gui_ptr)
{
	rcu_poll_set_gui(gui_ptr);
	return NULL;
}
