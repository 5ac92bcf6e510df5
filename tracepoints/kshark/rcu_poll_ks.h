/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * KernelShark plugin for rcu_poll: the data collected while KernelShark
 * loads a trace (C, rcu_poll_ks.c) and drawn on the CPU graphs (C++,
 * RcuPollPlot.cpp).
 */
#ifndef _RCU_POLL_KS_H
#define _RCU_POLL_KS_H

#include "libkshark.h"
#include "libkshark-plugin.h"

#ifdef __cplusplus
extern "C" {
#endif

struct plugin_rcu_poll_context {
	int start_id;		/* rcu_poll/rcu_poll_batch_start */
	int end_id;		/* rcu_poll/rcu_poll_batch_end */
	int qs_id;		/* rcu_poll/rcu_poll_qs */
	/* entries with their "batch" field (start, end) or "qs_cpu" (qs) */
	struct kshark_data_container *starts;
	struct kshark_data_container *ends;
	struct kshark_data_container *qs;
	bool paired;		/* the draw side paired starts with ends */
};

KS_DECLARE_PLUGIN_CONTEXT_METHODS(struct plugin_rcu_poll_context)

void draw_rcu_poll(struct kshark_cpp_argv *argv, int sd, int val, int draw_action);

#ifdef __cplusplus
}
#endif

#endif
