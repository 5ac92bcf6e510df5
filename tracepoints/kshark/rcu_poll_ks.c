// SPDX-License-Identifier: LGPL-2.1
/*
 * KernelShark plugin for rcu_poll, data side: while a stream loads,
 * collect every batch start and end (keyed by flavour and batch number)
 * and every quiescent-state observation (with the CPU observed), in the
 * stream's own context.  The drawing side (RcuPollPlot.cpp) pairs them.
 *
 *   kernelshark -p plugin-rcu_poll.so trace.dat
 *   RCUPOLL_KS_SLOW_MS=50 kernelshark ...   red above 50 ms (default 10)
 */
#include <stdio.h>
#include <stdlib.h>

#include "rcu_poll_ks.h"

static void rcu_poll_free_context(struct plugin_rcu_poll_context *ctx)
{
	if (!ctx)
		return;
	kshark_free_data_container(ctx->starts);
	kshark_free_data_container(ctx->ends);
	kshark_free_data_container(ctx->qs);
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
	if (ctx->start_id < 0 || ctx->end_id < 0 || ctx->qs_id < 0)
		return false;	/* not an rcu_poll trace */
	ctx->starts = kshark_init_data_container();
	ctx->ends = kshark_init_data_container();
	ctx->qs = kshark_init_data_container();
	ctx->nflavours = 0;
	ctx->slow_ns = slow_ns_from_env();
	ctx->debug = dbg && *dbg && *dbg != '0';
	ctx->pairs = NULL;
	return ctx->starts && ctx->ends && ctx->qs;
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

int KSHARK_PLOT_PLUGIN_INITIALIZER(struct kshark_data_stream *stream)
{
	struct plugin_rcu_poll_context *ctx = __init(stream->stream_id);

	if (!ctx || !rcu_poll_init_context(stream, ctx)) {
		__close(stream->stream_id);
		return 0;
	}
	kshark_register_event_handler(stream, ctx->start_id, on_start);
	kshark_register_event_handler(stream, ctx->end_id, on_end);
	kshark_register_event_handler(stream, ctx->qs_id, on_qs);
	kshark_register_draw_handler(stream, draw_rcu_poll);
	return 1;
}

int KSHARK_PLOT_PLUGIN_DEINITIALIZER(struct kshark_data_stream *stream)
{
	struct plugin_rcu_poll_context *ctx = __get_context(stream->stream_id);
	int ret = 0;

	if (ctx) {
		kshark_unregister_event_handler(stream, ctx->start_id, on_start);
		kshark_unregister_event_handler(stream, ctx->end_id, on_end);
		kshark_unregister_event_handler(stream, ctx->qs_id, on_qs);
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
