/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * KernelShark plugin for rcu_poll: the data collected while KernelShark
 * loads a stream (C, rcu_poll_ks.c) and drawn on its CPU graphs (C++,
 * RcuPollPlot.cpp).  Everything lives in the per-stream context:
 * KernelShark opens each buffer of a file, and each file added with -a,
 * as a stream of its own, and calls the draw handler with the stream's id.
 */
#ifndef _RCU_POLL_KS_H
#define _RCU_POLL_KS_H

#include "libkshark.h"
#include "libkshark-plugin.h"

#ifdef __cplusplus
extern "C" {
#endif

#define RCU_POLL_KS_FLAVOURS	8	/* flavours told apart per stream */

struct plugin_rcu_poll_context {
	int stream_id;
	int start_id;		/* rcu_poll/rcu_poll_batch_start */
	int end_id;		/* rcu_poll/rcu_poll_batch_end */
	int qs_id;		/* rcu_poll/rcu_poll_qs */
	/*
	 * Batch starts and ends, each with its key (flavour index << 48 |
	 * batch number: numbers count from 1 per flavour); quiescent-state
	 * observations with the CPU observed.
	 */
	struct kshark_data_container *starts;
	struct kshark_data_container *ends;
	struct kshark_data_container *qs;
	/* flavour tracepoint-string addresses, their index is the key's */
	int64_t flavour_ptr[RCU_POLL_KS_FLAVOURS];
	int nflavours;
	int64_t slow_ns;	/* red above this (RCUPOLL_KS_SLOW_MS) */
	bool debug;		/* RCUPOLL_KS_DEBUG: say what is drawn */
	/* Paired batches, built on the first draw (C++: RcuPollPairs). */
	void *pairs;
};

KS_DECLARE_PLUGIN_CONTEXT_METHODS(struct plugin_rcu_poll_context)

void draw_rcu_poll(struct kshark_cpp_argv *argv, int sd, int val, int draw_action);
void rcu_poll_free_pairs(void *pairs);
void rcu_poll_set_gui(void *gui);

/* Key of a batch: flavour index and number. */
#define RCU_POLL_KEY(f, nr)	(((int64_t)(f) << 48) | ((nr) & ((1LL << 48) - 1)))
#define RCU_POLL_KEY_FLAVOUR(k)	((int)((k) >> 48))

#ifdef __cplusplus
}
#endif

#endif
