/* SPDX-License-Identifier: GPL-2.0 */
/*
 * rcupoll: the event model of a trace.dat, built from event fields (never
 * from printed text).
 *
 * Two kinds of objects:
 *  - grace periods (struct gp): an rcu_poll batch, or a grace period of
 *    Tree RCU.  A grace period has a flavour (a domain with its own
 *    numbering), a number, an owner CPU (-1 for a global one), a start,
 *    an end (0: still in flight), the CPUs it waits for and, per CPU,
 *    when a poller saw it pass a quiescent state.  Tree RCU's grace
 *    periods (rcu:rcu_grace_period "start"/"end", numbered by gp_seq,
 *    global) fill the same fields: the CPUs waited for from
 *    rcu_grace_period_init's leaf qsmasks, a CPU's own quiescent state
 *    from its "cpuqs" (or the FQS scan's "dti" for an idle CPU), "seen"
 *    from rcu_quiescent_state_report, plus when each CPU noticed the
 *    grace period ("cpustart") and how many FQS scans it took.
 *  - per-CPU timelines (struct cpu_tl): what ran on each CPU (context
 *    switches), softirqs, wake-ups and the CPU's own quiescent states
 *    (rcu_poll_cpu_qs), which explain why a grace period took long.
 * Plus callbacks (queued, invoked, still waiting), preempt-flavour
 * references of tasks, and stall warnings.
 */
#ifndef TRACE_MODEL_H
#define TRACE_MODEL_H

#include <stdbool.h>
#include "rcupoll.h"

struct tep_handle;
struct tracecmd_input;

/* How a CPU's quiescent state for a grace period is known. */
enum qs_src {
	QS_NONE,		/* it passed none (yet) */
	QS_EXACT,		/* rcu_poll_cpu_qs on that CPU */
	QS_SWITCH,		/* inferred: a context switch there */
	QS_IDLE,		/* inferred: idle there, so at the kick */
	QS_SEEN,		/* only known to be before the poller saw it */
};

struct gp_cpu {
	u64 seen;		/* a poller saw its quiescent state (0: not) */
	const char *seen_how;	/* "qs", "offline", "flip" */
	unsigned long qs_before, qs_after;
	u64 kick;		/* forced reschedule for this grace period */
	/* Tree RCU only (0: not traced) */
	u64 noticed;		/* "cpustart": the CPU noticed the grace period */
	u64 cpuqs;		/* "cpuqs": the CPU passed its quiescent state */
	u64 fqs;		/* rcu_fqs: an FQS scan found it idle ("dti") */
	const char *fqs_how;
	/* filled by explain.c */
	u64 qs;			/* when it really passed one */
	enum qs_src qs_src;
	const char *qs_how;	/* "switch", "user", "idle", ... */
	int qs_pid;		/* the task that ran until then */
	const char *qs_comm;
};

enum cause_kind {
	CAUSE_NONE,		/* not slow, nothing to explain */
	CAUSE_CPU_HELD,		/* a CPU passed no quiescent state */
	CAUSE_NOT_POLLED,	/* all passed; the owner did not poll */
	CAUSE_PREEMPTED,	/* preempted tasks held the preempt flavour */
	CAUSE_NO_START,		/* callbacks waited, no batch started */
	CAUSE_UNKNOWN,		/* the trace lacks what would tell */
	CAUSE_NOT_REPORTED,	/* Tree: a CPU passed one, reported it late */
	CAUSE_KTHREAD,		/* Tree: all reported; the kthread ended it late */
};

#define CAUSE_MAX_TASKS 8

struct cause {
	enum cause_kind kind;
	int cpu;		/* the CPU that held it, or the owner */
	int pid;		/* what ran there (-1: unknown) */
	const char *comm;
	u64 since;		/* that task ran from (0: before the trace) */
	u64 from, to;		/* the window of the delay */
	u64 wait;		/* its length (ns) */
	u64 qs_within;		/* NOT_POLLED: all CPUs passed one within */
	int irq;		/* -1 unknown, 0 probably off, 1 on, 2 softirqs left to ksoftirqd */
	unsigned long nsoftirq;	/* softirqs on that CPU in the window */
	u64 quiet_from, quiet_to;	/* irq 0, 2: the softirq-free stretch of it */
	u64 ksoftirqd_woken;	/* irq 2: when ksoftirqd was woken, not to run */
	u64 lost;		/* events lost in the window */
	bool inferred;		/* quiescent states inferred, not traced */
	int ntasks;
	struct { int pid; const char *comm; int cpu; u64 got, put; } tasks[CAUSE_MAX_TASKS];
	char brief[128];	/* a few words, for tables */
	char text[768];		/* the sentence */
};

struct gp {
	int flavour;
	unsigned long nr;
	int owner;		/* the CPU whose batch it is; -1: global */
	int start_cpu, end_cpu;	/* where start and end were recorded */
	u64 start, end;		/* ns; end 0: in flight at the end */
	long ncbs;
	int ncpu;		/* CPUs 0..ncpu-1 have a slot below */
	unsigned long *waits;	/* bitmap of ncpu bits */
	int nwait;
	struct gp_cpu *cpu;	/* [ncpu] */
	int start_pid;
	const char *start_comm;
	bool slow;		/* over the threshold, or in flight */
	bool before_trace;	/* started before the trace: known from a stall warning */
	int init_level;		/* Tree: leaf level of rcu_grace_period_init; -1: none seen */
	int nfqs;		/* Tree: FQS scans ("fqsstart") during it */
	bool tasks;		/* Tree: preempted readers blocked it (gp_tasks) */
	struct cause cause;
};

struct sw_ev {			/* sched_switch */
	u64 ts;
	int prev_pid, next_pid;
	long prev_state;
	const char *prev_comm, *next_comm;
};

struct sirq_ev {		/* softirq_raise/entry/exit */
	u64 ts;
	unsigned char vec, what;	/* SIRQ_* */
	int pid;		/* current task */
};
enum { SIRQ_RAISE, SIRQ_ENTRY, SIRQ_EXIT };
#define RCU_SOFTIRQ_VEC 9

struct cqs_ev {			/* rcu_poll_cpu_qs: a CPU's own quiescent state */
	u64 ts;
	const char *how;
	unsigned long qs;
	int pid;
};

struct wake_ev {		/* sched_wakeup, recorded on this CPU */
	u64 ts;
	int pid, target_cpu;
	const char *comm;
};

struct cpu_tl {
	struct vec sw, sirq, cqs, wake;
	u64 first, last;	/* events recorded on this CPU */
	u64 nevents;
	u64 lost;		/* events the ring buffer dropped */
	struct vec lost_at;	/* u64 timestamps of records after a loss */
};

struct cb_call {
	u64 ts;
	int flavour, cpu, rec_cpu;
	u64 rhp;
	const char *func;
	unsigned long inflight;	/* the batch in flight on that queue then (0: none) */
	u64 invoked;		/* 0: not (yet) */
	unsigned long batch;	/* of the invocation */
};

struct gp_req {			/* Tree RCU: rcu_grace_period "newreq" */
	u64 ts;
	int flavour, cpu;
};

struct barrier_ev {		/* one rcu_barrier() call */
	int flavour, pid, cpu;
	u64 begin, end;		/* end 0: not ended in the trace */
	unsigned long ncb;	/* its callbacks that ran ("CB", "LastCB") */
	bool early;		/* "EarlyExit": another call did the work */
};

struct pass_ev {		/* rcu_batch_start/end: an invocation pass */
	int flavour, cpu;
	u64 start, end;
	long qlen, invoked;	/* invoked -1: no end in the trace */
};

struct pt_ev {			/* rcu_poll_preempt_task */
	u64 ts;
	int pid, cntr_cpu, cpu;
	bool get;
	const char *comm;
};

struct stall_ev {		/* rcu_poll_stall or rcu_poll_holdout */
	u64 ts;
	bool holdout;
	int flavour, cpu;
	unsigned long batch, age_ms;
	long ncbs;
	int ntasks, nwarn;
	char holdouts[64];	/* CPU list */
	const char *kind;	/* holdout: "cpu", "task"; Tree: the message */
	int holdout_cpu, pid;
	const char *comm;
};

/* Callbacks that waited for a batch to start on their CPU. */
struct delay {
	int flavour, cpu;	/* Tree RCU: cpu -1, the request's CPU in req_cpu */
	int req_cpu;
	unsigned long nr;	/* the batch that then started; 0: none did */
	bool started;		/* one did (Tree RCU: gp_seq nr may be 0) */
	u64 from, to;		/* waiting from, until */
	unsigned long ncbs;	/* callbacks waiting (as traced) */
	struct cause cause;
};

struct flavour {
	const char *name;
	u64 ptr;		/* the tracepoint string's address */
	bool global;		/* one queue for all CPUs (rcu_poll_preempt, Tree) */
	bool tree;		/* Tree RCU's rcu_preempt or rcu_sched (gp_seq) */
};

struct func_lat {
	int flavour;
	const char *func;
	unsigned long queued;	/* rcu_poll_call_rcu events */
	struct vec us;		/* double */
};

struct model {
	struct tep_handle *tep;
	const char *file, *buffer;
	int ncpus;
	struct cpu_tl *cpus;
	struct flavour flv[8];
	int nflv;
	struct vec gps;		/* struct gp */
	struct vec calls;	/* struct cb_call */
	struct vec lat;		/* struct func_lat */
	struct vec pts;		/* struct pt_ev */
	struct vec stalls;	/* struct stall_ev */
	struct vec delays;	/* struct delay, found by explain.c */
	struct vec gpreqs;	/* struct gp_req */
	struct vec barriers;	/* struct barrier_ev */
	struct vec passes;	/* struct pass_ev */
	u64 first_ts, last_ts, nevents, nrcu_poll, lost;
	bool tree;		/* Tree RCU's events: grace periods, not batches */
	/* which events the trace has records of */
	bool has_switch, has_softirq, has_cpu_qs, has_preempt_task, has_wakeup;
	u64 slow_ns;		/* the threshold of a slow grace period */
	struct strtab *strings;
	struct hmap *gp_index;	/* (flavour, nr) -> gp */
	struct hmap *pending;	/* rhp -> call */
};

/*
 * Read @file's buffer @buffer (NULL: the one with rcu_poll events) into a
 * model; dies with a one-line message on an unreadable file.
 */
struct model *model_load(const char *file, const char *buffer, u64 slow_ns);
void model_free(struct model *m);

struct gp *model_gp(struct model *m, size_t i);
struct gp *model_find_gp(struct model *m, int flavour, unsigned long nr);
int model_flavour_by_name(struct model *m, const char *name);
bool gp_waits_for(struct gp *g, int cpu);
struct gp_cpu *gp_cpu(struct gp *g, int cpu);	/* NULL outside the mask */
u64 gp_duration(struct model *m, struct gp *g);

/* Timeline queries. */
struct sw_ev *tl_switch_before(struct cpu_tl *t, u64 ts);	/* last at or before */
struct sw_ev *tl_switch_after(struct cpu_tl *t, u64 ts);	/* first after */
struct cqs_ev *tl_cqs_after(struct cpu_tl *t, u64 ts);
unsigned long tl_softirqs(struct cpu_tl *t, u64 from, u64 to, int vec);
u64 tl_lost_in(struct cpu_tl *t, u64 from, u64 to);
/* What ran on @cpu at @ts: pid, comm, since when (0: before the trace). */
void tl_task_at(struct model *m, int cpu, u64 ts, int *pid, const char **comm, u64 *since);

/* explain.c: why each slow grace period took long. */
void explain_all(struct model *m);
void explain_gp(struct model *m, struct gp *g);

/* Callbacks still waiting at the end of the trace. */
struct wait_group {
	int flavour, cpu;
	unsigned long batch;	/* the batch they are in; 0: queued behind */
	const char *func;
	unsigned long count;
	u64 oldest;
};
size_t model_waiting(struct model *m, struct wait_group **out);

/* Seconds.microseconds of a timestamp, as trace-cmd prints it. */
const char *fmt_ts(u64 ts, char *buf);
#define TS_BUF 32

/* "batch" for rcu_poll, "grace period" for Tree RCU, in messages. */
const char *gp_noun(struct model *m);
const char *gp_nouns(struct model *m);
/* A grace period's number as the kernel prints it (gp_seq is a long). */
#define GP_NR(g) ((long)(g)->nr)

#endif
