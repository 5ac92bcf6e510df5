// SPDX-License-Identifier: LGPL-2.1
/*
 * KernelShark plugin for rcu_poll, data side: while a trace loads,
 * collect every batch start and end (with its batch number) and every
 * quiescent-state observation (with the CPU observed).  The drawing side
 * (RcuPollPlot.cpp) pairs them into intervals.
 *
 *   kernelshark -p plugin-rcu_poll.so trace.dat
 */
#include <stdio.h>

#include "rcu_poll_ks.h"

static void rcu_poll_free_context(struct plugin_rcu_poll_context *ctx)
{
	if (!ctx)
		return;
	kshark_free_data_container(ctx->starts);
	kshark_free_data_container(ctx->ends);
	kshark_free_data_container(ctx->qs);
}

KS_DEFINE_PLUGIN_CONTEXT(struct plugin_rcu_poll_context, rcu_poll_free_context);

static bool rcu_poll_init_context(struct kshark_data_stream *stream,
				  struct plugin_rcu_poll_context *ctx)
{
	ctx->start_id = kshark_find_event_id(stream, "rcu_poll/rcu_poll_batch_start");
	ctx->end_id = kshark_find_event_id(stream, "rcu_poll/rcu_poll_batch_end");
	ctx->qs_id = kshark_find_event_id(stream, "rcu_poll/rcu_poll_qs");
	if (ctx->start_id < 0 || ctx->end_id < 0 || ctx->qs_id < 0)
		return false;	/* not an rcu_poll trace (or another buffer) */
	ctx->starts = kshark_init_data_container();
	ctx->ends = kshark_init_data_container();
	ctx->qs = kshark_init_data_container();
	ctx->paired = false;
	return ctx->starts && ctx->ends && ctx->qs;
}

static void append_field(struct kshark_data_stream *stream, void *rec,
			 struct kshark_entry *entry, const char *field,
			 struct kshark_data_container *c)
{
	int64_t val;

	if (!kshark_read_record_field_int(stream, rec, field, &val))
		kshark_data_container_append(c, entry, val);
}

static void on_start(struct kshark_data_stream *stream, void *rec, struct kshark_entry *entry)
{
	struct plugin_rcu_poll_context *ctx = __get_context(stream->stream_id);

	if (ctx)
		append_field(stream, rec, entry, "batch", ctx->starts);
}

static void on_end(struct kshark_data_stream *stream, void *rec, struct kshark_entry *entry)
{
	struct plugin_rcu_poll_context *ctx = __get_context(stream->stream_id);

	if (ctx)
		append_field(stream, rec, entry, "batch", ctx->ends);
}

static void on_qs(struct kshark_data_stream *stream, void *rec, struct kshark_entry *entry)
{
	struct plugin_rcu_poll_context *ctx = __get_context(stream->stream_id);

	if (ctx)
		append_field(stream, rec, entry, "qs_cpu", ctx->qs);
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
