/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * KernelShark plugin for rcu_poll and Tree RCU: the data collected while
 * KernelShark loads a stream (C, rcu_poll_ks.c) and drawn on its CPU
 * graphs (C++, RcuPollPlot.cpp).  A stream of a Tree RCU kernel (no
 * rcu_poll events, rcu:rcu_grace_period) fills the same containers: its
 * grace periods ("start"/"end", keyed by gp_seq) are the batches, each
 * CPU's "cpuqs" a quiescent-state tick, and per CPU "cpustart" to
 * "cpuqs" a bar of its own.  Everything lives in the per-stream context:
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
#define RCU_POLL_KS_WORDS	32	/* Tree: gpevent strings told apart */

/* Marks, the field of an entry of the marks container: kind << 32 | CPU. */
enum rcu_poll_mark {
	RCU_POLL_MARK_KICK = 1,	/* rcu_poll_kick of CPU, or rcu_fqs ("dti") */
	RCU_POLL_MARK_FQS,	/* Tree: an FQS scan started ("fqsstart") */
	RCU_POLL_MARK_STALL,	/* rcu_poll_stall, rcu_stall_warning */
};

struct plugin_rcu_poll_context {
	int stream_id;
	int start_id;		/* rcu_poll/rcu_poll_batch_start */
	int end_id;		/* rcu_poll/rcu_poll_batch_end */
	int qs_id;		/* rcu_poll/rcu_poll_qs */
	int kick_id;		/* rcu_poll/rcu_poll_kick or rcu/rcu_fqs */
	int stall_id;		/* rcu_poll/rcu_poll_stall or rcu/rcu_stall_warning */
	bool tree;		/* Tree RCU: start_id is rcu/rcu_grace_period */
	/* Tree: "gpevent" and "rcuname" of rcu_grace_period, words by address */
	void *gpevent_field, *rcuname_field;
	struct { int64_t ptr; int what; } words[RCU_POLL_KS_WORDS];
	int nwords;
	/* Tree: rcuname texts by flavour index (two addresses can say "rcu_preempt") */
	char flavour_name[RCU_POLL_KS_FLAVOURS][32];
	/*
	 * Batch starts and ends, each with its key (flavour index << 48 |
	 * batch number: numbers count from 1 per flavour); quiescent-state
	 * observations with the CPU observed.
	 */
	struct kshark_data_container *starts;
	struct kshark_data_container *ends;
	struct kshark_data_container *qs;
	/*
	 * Tree: per CPU, when it noticed each grace period and passed its
	 * quiescent state (cpuqs, or an FQS scan found it idle), keyed by the
	 * grace period's key | CPU << 56.
	 */
	struct kshark_data_container *cpustarts, *cpuqs;
	struct kshark_data_container *marks;
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
