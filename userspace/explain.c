// SPDX-License-Identifier: GPL-2.0
/*
 * rcupoll: why a grace period took long, as one of a few named causes.
 *
 * A batch of rcu_poll ends when its own CPU polls it and finds that every
 * CPU it waits for has passed a quiescent state since it started.  So its
 * duration is the later of two waits:
 *  - the last CPU to pass a quiescent state (CPU_HELD: what ran there,
 *    without a context switch, and whether interrupts were on);
 *  - the batch's own CPU polling it after that (NOT_POLLED: RCU_SOFTIRQ
 *    did not run there, and what ran instead).
 * The preempt flavour also waits for tasks preempted inside readers
 * (PREEMPTED).  Callbacks can also wait for a batch to start at all
 * (NO_START).
 *
 * A CPU's quiescent state is when it really passed one: its own
 * rcu_poll_cpu_qs event after the batch started, if the trace has them;
 * otherwise inferred from the first context switch there (every context
 * switch is one), or from the kick if the CPU was idle.  When a poller
 * noticed it (rcu_poll_qs) is not when it happened: one poll emits the
 * events of every CPU, in CPU order.
 *
 * A grace period of Tree RCU ends when its kthread sees that every CPU's
 * quiescent state has been reported to the rcu_node tree.  A CPU passes
 * one ("cpuqs", traced on that CPU: exact), then reports it from its
 * RCU_SOFTIRQ (rcu_quiescent_state_report); an idle CPU is reported by
 * an FQS scan ("dti").  So the wait is the latest of: a CPU passing its
 * quiescent state (CPU_HELD, as for rcu_poll), a CPU reporting one it
 * passed (NOT_POLLED: its RCU_SOFTIRQ did not run), or the kthread ending
 * the grace period after the last report (NOT_POLLED, cpu -1).
 */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "trace-model.h"

#define MS(ns) ((double)(ns) / 1e6)

static void add(char *buf, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void add(char *buf, size_t len, const char *fmt, ...)
{
	size_t n = strlen(buf);
	va_list ap;

	if (n >= len - 1)
		return;
	va_start(ap, fmt);
	vsnprintf(buf + n, len - n, fmt, ap);
	va_end(ap);
}

/* The preempt flavour's quiescent states: a switch, user mode or idle. */
static bool preempt_qs(const char *how)
{
	return !strcmp(how, "switch") || !strcmp(how, "preempt") || !strcmp(how, "user") ||
	       !strcmp(how, "idle");
}

/* The first rcu_poll_cpu_qs that counts for @g on @cpu, or NULL. */
static struct cqs_ev *exact_qs(struct model *m, struct gp *g, int cpu, struct gp_cpu *c)
{
	struct cpu_tl *t = &m->cpus[cpu];
	bool global = m->flv[g->flavour].global;
	struct cqs_ev *q;
	size_t i;

	/* The counter snapshot precedes the start event a little: go back 1 ms. */
	q = tl_cqs_after(t, g->start > 1000000 ? g->start - 1000000 : 0);
	if (!q)
		return NULL;
	for (i = q - (struct cqs_ev *)t->cqs.v; i < t->cqs.n; i++) {
		q = VEC_AT(&t->cqs, struct cqs_ev, i);
		if (g->end && q->ts > g->end)
			return NULL;
		if (global && !preempt_qs(q->how))
			continue;
		/* With the poller's snapshot, the counter says which one counted. */
		if (c->seen && !global && c->qs_after != c->qs_before) {
			if (q->qs > c->qs_before)
				return q;
			continue;
		}
		if (q->ts >= g->start)
			return q;
	}
	return NULL;
}

/*
 * Tree RCU: the CPU's own "cpuqs", else the FQS scan that found it idle,
 * else the report (a quiescent state the trace did not show, such as
 * going offline).  What ran there until then: the task at that moment
 * (cpuqs is traced before the context switch it belongs to).
 */
static void find_qs_tree(struct model *m, struct gp *g, int cpu, struct gp_cpu *c)
{
	u64 since;

	if (c->cpuqs && (!c->fqs || c->cpuqs <= c->fqs)) {
		c->qs = c->cpuqs;
		c->qs_src = QS_EXACT;
		c->qs_how = "cpuqs";
	} else if (c->fqs) {
		c->qs = c->fqs;
		c->qs_src = QS_IDLE;
		c->qs_how = "idle";
	} else if (c->seen) {
		c->qs = c->seen;
		c->qs_src = QS_SEEN;
		c->qs_how = "report";
	} else {
		return;
	}
	tl_task_at(m, cpu, c->qs, &c->qs_pid, &c->qs_comm, &since);
}

/* When CPU @cpu really passed a quiescent state for @g, and how we know. */
static void find_qs(struct model *m, struct gp *g, int cpu)
{
	struct gp_cpu *c = gp_cpu(g, cpu);
	struct cpu_tl *t = cpu < m->ncpus ? &m->cpus[cpu] : NULL;
	u64 horizon = g->end ? g->end : m->last_ts;
	struct sw_ev *sw;
	int pid;
	const char *comm;
	u64 since;

	c->qs_src = QS_NONE;
	c->qs_pid = -1;
	if (m->flv[g->flavour].tree) {
		find_qs_tree(m, g, cpu, c);
		return;
	}
	if (c->seen_how && !strcmp(c->seen_how, "offline")) {
		c->qs = c->seen;
		c->qs_src = QS_SEEN;
		c->qs_how = "offline";
		return;
	}
	if (m->has_cpu_qs && t) {
		struct cqs_ev *q = exact_qs(m, g, cpu, c);

		if (q && q->ts <= horizon) {
			c->qs = q->ts;
			c->qs_src = QS_EXACT;
			c->qs_how = q->how;
			tl_task_at(m, cpu, q->ts, &c->qs_pid, &c->qs_comm, &since);
			if (q->pid >= 0 && (c->qs_pid < 0 || !strcmp(q->how, "switch") ||
					    !strcmp(q->how, "preempt"))) {
				struct sw_ev *s = tl_switch_before(t, q->ts);

				if (s && s->ts == q->ts) {
					c->qs_pid = s->prev_pid;
					c->qs_comm = s->prev_comm;
				}
			}
			return;
		}
		if (!c->seen)
			return;
	}
	/* Inferred: every context switch is a quiescent state. */
	sw = t ? tl_switch_after(t, g->start) : NULL;
	if (sw && sw->ts <= horizon) {
		c->qs = sw->ts;
		c->qs_src = QS_SWITCH;
		c->qs_how = "switch";
		c->qs_pid = sw->prev_pid;
		c->qs_comm = sw->prev_comm;
	}
	/* Idle at the start: the kick's reschedule is a quiescent state. */
	tl_task_at(m, cpu, g->start, &pid, &comm, &since);
	if (pid == 0 && m->has_switch) {
		u64 at = c->kick >= g->start ? c->kick : g->start;

		if (c->qs_src == QS_NONE || at < c->qs) {
			c->qs = at;
			c->qs_src = QS_IDLE;
			c->qs_how = "idle";
			c->qs_pid = 0;
			c->qs_comm = comm;
		}
	}
	/* A tick (user mode, idle, outside a reader) before the poller saw it. */
	if (c->seen && (c->qs_src == QS_NONE || c->seen < c->qs)) {
		c->qs = c->seen;
		c->qs_src = QS_SEEN;
		c->qs_how = "tick";
		tl_task_at(m, cpu, c->seen, &c->qs_pid, &c->qs_comm, &since);
	}
}

/* A CPU's own quiescent state (rcu_poll_cpu_qs "how"), in words. */
static const char *qs_phrase(const char *how)
{
	static const struct { const char *how, *words; } w[] = {
		{ "switch", "context switch" },
		{ "preempt", "context switch (preempting a kernel-mode task)" },
		{ "user", "tick in user mode" },
		{ "idle", "quiescent state in idle" },
		{ "kernel", "tick outside any reader" },
		{ "softirq", "quiescent state between ksoftirqd's handlers" },
		{ "cpuqs", "quiescent state (cpuqs)" },
		{ "report", "quiescent state (reported)" },
	};
	size_t i;

	for (i = 0; i < sizeof(w) / sizeof(w[0]); i++) {
		if (!strcmp(how, w[i].how))
			return w[i].words;
	}
	return how;
}

/* Interrupts on @cpu in (from, to]: softirqs ran, or none for long. */
/*
 * ksoftirqd/@cpu runnable but kept off @cpu over most of (@from, @to]:
 * from its last wakeup before @to until it ran there (it runs the
 * softirqs that end the window).  While ksoftirqd is runnable, an
 * interrupt's exit leaves it the softirqs (6.1's ksoftirqd_running()),
 * so none running there says nothing about interrupts: a real-time task
 * starved them.
 */
static bool ksoftirqd_kept_off(struct model *m, int cpu, u64 from, u64 to, u64 *woken)
{
	struct cpu_tl *t = &m->cpus[cpu];
	char name[32];
	u64 last = 0, ran = to;
	size_t i;
	int c;

	if (!m->has_wakeup)
		return false;
	snprintf(name, sizeof(name), "ksoftirqd/%d", cpu);
	for (c = 0; c < m->ncpus; c++) {
		for (i = 0; i < m->cpus[c].wake.n; i++) {
			struct wake_ev *w = VEC_AT(&m->cpus[c].wake, struct wake_ev, i);

			if (w->ts < to && w->ts > last && w->comm && !strcmp(w->comm, name))
				last = w->ts;
		}
	}
	if (!last)
		return false;
	for (i = 0; i < t->sw.n; i++) {
		struct sw_ev *s = VEC_AT(&t->sw, struct sw_ev, i);

		if (s->ts > last && s->ts < ran && s->next_comm && !strcmp(s->next_comm, name))
			ran = s->ts;
	}
	if (ran <= from || 2 * (ran - (last > from ? last : from)) < to - from)
		return false;
	*woken = last;
	return true;
}

static void irq_evidence_softirqs(struct model *m, struct cause *k, int cpu);

/* Were interrupts on in k->from..k->to on @cpu?  From softirqs seen there. */
static void irq_evidence(struct model *m, struct cause *k, int cpu)
{
	irq_evidence_softirqs(m, k, cpu);
	if (k->irq == 0 &&
	    ksoftirqd_kept_off(m, cpu, k->quiet_from, k->quiet_to, &k->ksoftirqd_woken))
		k->irq = 2;
}

static void irq_evidence_softirqs(struct model *m, struct cause *k, int cpu)
{
	struct cpu_tl *t = cpu >= 0 && cpu < m->ncpus ? &m->cpus[cpu] : NULL;

	k->irq = -1;
	if (!t || !m->has_softirq)
		return;
	k->nsoftirq = tl_softirqs(t, k->from, k->to, -1);
	k->quiet_from = k->from;
	k->quiet_to = k->to;
	if (!k->nsoftirq) {
		if (k->to - k->from >= 20000000ULL)
			k->irq = 0;
		return;
	}
	k->irq = 1;
	/*
	 * A few softirqs at an edge of the window (pending interrupts run as
	 * soon as a CPU enables them again) do not make interrupts on: the
	 * longest softirq-free stretch, if it is most of the window.
	 */
	{
		u64 prev = k->from, best = 0, bfrom = 0, bto = 0;
		size_t i;

		for (i = 0; i <= t->sirq.n; i++) {
			struct sirq_ev *s = i < t->sirq.n ? VEC_AT(&t->sirq, struct sirq_ev, i) : NULL;
			u64 at = s ? s->ts : k->to;

			if (s && (s->ts <= k->from || s->what != SIRQ_ENTRY))
				continue;
			if (at > k->to)
				at = k->to;
			if (at - prev > best) {
				best = at - prev;
				bfrom = prev;
				bto = at;
			}
			if (!s || s->ts >= k->to)
				break;
			prev = s->ts;
		}
		if (best >= 20000000ULL && 2 * best >= k->to - k->from) {
			k->irq = 0;
			k->quiet_from = bfrom;
			k->quiet_to = bto;
		}
	}
}

static const char *comm_or(const char *comm)
{
	return comm ? comm : "?";
}

/* "rcupoll_hold/1 (pid 628)", or what is known of it. */
static void task_words(char *buf, size_t len, struct model *m, int pid, const char *comm)
{
	if (!m->has_switch && pid < 0)
		add(buf, len, "an unknown task (the trace has no sched_switch events)");
	else if (pid < 0)
		add(buf, len, "an unknown task (no context switch there in the trace)");
	else if (pid == 0)
		add(buf, len, "the idle task");
	else
		add(buf, len, "%s (pid %d)", comm_or(comm), pid);
}

static void irq_words(char *buf, size_t len, struct cause *k, int cpu)
{
	char ts[TS_BUF], ts2[TS_BUF], ts3[TS_BUF];

	if (k->irq == 1)
		add(buf, len, "; interrupts on (%lu softirqs ran on CPU %d meanwhile)", k->nsoftirq,
		    cpu);
	else if (k->irq == 0 && !k->nsoftirq)
		add(buf, len, "; no softirq ran on CPU %d from %s to %s: interrupts were probably off",
		    cpu, fmt_ts(k->from, ts), fmt_ts(k->to, ts2));
	else if (k->irq == 0)
		add(buf, len, "; no softirq ran on CPU %d from %s to %s (%.1f ms of the %.1f): interrupts were probably off (%lu softirqs ran there outside that)",
		    cpu, fmt_ts(k->quiet_from, ts), fmt_ts(k->quiet_to, ts2),
		    (k->quiet_to - k->quiet_from) / 1e6, (k->to - k->from) / 1e6, k->nsoftirq);
	else if (k->irq == 2)
		add(buf, len, "; no softirq ran on CPU %d from %s to %s: they waited for ksoftirqd/%d, runnable from %s but kept off the CPU",
		    cpu, fmt_ts(k->quiet_from, ts), fmt_ts(k->quiet_to, ts2), cpu,
		    fmt_ts(k->ksoftirqd_woken, ts3));
}

static void lost_words(char *buf, size_t len, struct model *m, struct cause *k, int cpu)
{
	k->lost = cpu >= 0 && cpu < m->ncpus ? tl_lost_in(&m->cpus[cpu], k->from, k->to) : 0;
	if (k->lost)
		add(buf, len, " (the ring buffer lost events on CPU %d in this window: the answer may be wrong)",
		    cpu);
}

/*
 * Other CPUs that held @g for most of the time too (a CPU spinning in an
 * IPI to a CPU with interrupts off passes no quiescent state either, and
 * either may be the last to pass one): each in a few words.
 */
static void longest_task(struct model *m, int cpu, u64 from, u64 to, int *pid, const char **comm,
			 u64 *since);

static int also_held(struct model *m, struct gp *g, int cpu)
{
	struct cause *k = &g->cause;
	char ts[TS_BUF];
	int c, named = 0;

	for (c = 0; c < g->ncpu; c++) {
		struct gp_cpu *d = gp_cpu(g, c);
		struct cause o;
		u64 until;

		if (c == cpu || !gp_waits_for(g, c))
			continue;
		/* Tree: passed one in time, but could not report it for long. */
		if (m->flv[g->flavour].tree && d->qs_src == QS_EXACT && d->seen > d->qs &&
		    d->seen - d->qs > m->slow_ns && 2 * (d->seen - d->qs) >= k->wait) {
			memset(&o, 0, sizeof(o));
			o.from = d->qs;
			o.to = d->seen;
			longest_task(m, c, d->qs, d->seen, &o.pid, &o.comm, &o.since);
			irq_evidence(m, &o, c);
			add(k->text, sizeof(k->text),
			    "; CPU %d passed one at %s but reported it only %.1f ms later (its RCU_SOFTIRQ waited behind ",
			    c, fmt_ts(d->qs, ts), MS(d->seen - d->qs));
			task_words(k->text, sizeof(k->text), m, o.pid, o.comm);
			add(k->text, sizeof(k->text), ")");
			if (o.irq != 1)
				irq_words(k->text, sizeof(k->text), &o, c);
			named++;
			continue;
		}
		until = d->qs_src == QS_NONE ? (g->end ? g->end : m->last_ts) : d->qs;
		if (until < g->start || until - g->start <= m->slow_ns ||
		    2 * (until - g->start) < k->wait)
			continue;
		memset(&o, 0, sizeof(o));
		o.from = g->start;
		o.to = until;
		longest_task(m, c, g->start, until, &o.pid, &o.comm, &o.since);
		irq_evidence(m, &o, c);
		add(k->text, sizeof(k->text), "; CPU %d passed none for %.1f ms either: ", c,
		    MS(until - g->start));
		if (o.pid == 0)
			add(k->text, sizeof(k->text), "it was idle");
		else
			task_words(k->text, sizeof(k->text), m, o.pid, o.comm);
		irq_words(k->text, sizeof(k->text), &o, c);
		named++;
	}
	return named;
}

static void kthread_also(struct model *m, struct cause *k);

/*
 * @cpu's holder ran with interrupts on, and no other CPU held the grace
 * period too: it may have spun with preemption off in an IPI to a CPU
 * that had interrupts off (smp_call_function() with wait), having
 * reported that CPU's quiescent state in time.  Name such a CPU.
 */
static void held_also(struct model *m, struct gp *g, int cpu)
{
	if (!also_held(m, g, cpu) && g->cause.irq == 1)
		kthread_also(m, &g->cause);
}

static void explain_held(struct model *m, struct gp *g, int cpu, u64 to, bool none)
{
	struct cause *k = &g->cause;
	struct gp_cpu *c = gp_cpu(g, cpu);
	char ts[TS_BUF], ts2[TS_BUF];

	k->kind = CAUSE_CPU_HELD;
	k->cpu = cpu;
	k->from = g->start;
	k->to = to;
	k->wait = to - g->start;
	/*
	 * Not the task running when the grace period started: a CPU idle
	 * then may wake a task that holds it before Tree RCU's FQS scan finds
	 * it idle (waking from idle is no quiescent state for a grace period
	 * the CPU has not noticed yet).
	 */
	longest_task(m, cpu, g->start, to, &k->pid, &k->comm, &k->since);
	irq_evidence(m, k, cpu);
	snprintf(k->brief, sizeof(k->brief), "CPU %d held it: %s", cpu,
		 k->pid < 0 ? "?" : comm_or(k->comm));
	snprintf(k->text, sizeof(k->text), "CPU %d passed no quiescent state for %.1f ms: ", cpu,
		 MS(k->wait));
	if (k->pid == 0) {
		/* Idle counts at its next tick or reschedule: the kick brings one. */
		add(k->text, sizeof(k->text), "it was idle");
		if (none)
			add(k->text, sizeof(k->text), " and no tick or reschedule came to the end of the trace");
		else if (c && c->qs_src == QS_IDLE && m->flv[g->flavour].tree)
			add(k->text, sizeof(k->text), ", and the FQS scan that found it idle (dti) came only at %s",
			    fmt_ts(c->qs, ts2));
		else if (c && c->qs_src == QS_IDLE)
			add(k->text, sizeof(k->text), ", and the kick that rescheduled it came only at %s",
			    fmt_ts(c->qs, ts2));
		else if (c && c->qs_src != QS_NONE)
			add(k->text, sizeof(k->text), " until its %s at %s",
			    c->qs_src == QS_SEEN ? "quiescent state (seen by the poller)" :
			    qs_phrase(c->qs_how), fmt_ts(c->qs, ts2));
		irq_words(k->text, sizeof(k->text), k, cpu);
		lost_words(k->text, sizeof(k->text), m, k, cpu);
		also_held(m, g, cpu);
		return;
	}
	task_words(k->text, sizeof(k->text), m, k->pid, k->comm);
	if (k->pid >= 0) {
		add(k->text, sizeof(k->text), " ran there without a context switch");
		if (k->since)
			add(k->text, sizeof(k->text), " from %s", fmt_ts(k->since, ts));
		else
			add(k->text, sizeof(k->text), " since before the trace began");
	}
	if (none)
		add(k->text, sizeof(k->text), " to the end of the trace");
	else if (c && (c->qs_src == QS_SWITCH || c->qs_src == QS_EXACT))
		add(k->text, sizeof(k->text), " until its %s at %s", qs_phrase(c->qs_how),
		    fmt_ts(c->qs, ts2));
	else if (c && c->qs_src == QS_IDLE)
		add(k->text, sizeof(k->text), " until it went idle at %s", fmt_ts(c->qs, ts2));
	else if (c && c->qs_src == QS_SEEN)
		add(k->text, sizeof(k->text),
		    " until the poller saw it pass one at %s (a tick in user mode, idle or outside a reader)",
		    fmt_ts(c->qs, ts2));
	irq_words(k->text, sizeof(k->text), k, cpu);
	lost_words(k->text, sizeof(k->text), m, k, cpu);
	held_also(m, g, cpu);
}

/*
 * The task that ran longest on @cpu in (@from, @to], and since when it
 * ran there (0: before the trace).
 */
static void longest_task(struct model *m, int cpu, u64 from, u64 to, int *pid, const char **comm,
			 u64 *since)
{
	struct cpu_tl *t = cpu >= 0 && cpu < m->ncpus ? &m->cpus[cpu] : NULL;
	struct sw_ev *sw = t ? tl_switch_after(t, from) : NULL;
	u64 at = from, best = 0, cur_since;
	int cur_pid;
	const char *cur_comm;

	tl_task_at(m, cpu, from, pid, comm, since);
	if (!sw)
		return;
	cur_pid = *pid;
	cur_comm = *comm;
	cur_since = *since;
	for (size_t i = sw - (struct sw_ev *)t->sw.v; i <= t->sw.n; i++) {
		sw = i < t->sw.n ? VEC_AT(&t->sw, struct sw_ev, i) : NULL;
		u64 end = sw && sw->ts < to ? sw->ts : to;

		if (end - at > best) {
			best = end - at;
			*pid = cur_pid;
			*comm = cur_comm;
			*since = cur_since;
		}
		if (!sw || sw->ts >= to)
			break;
		at = sw->ts;
		cur_pid = sw->next_pid;
		cur_comm = sw->next_comm;
		cur_since = sw->ts;
	}
}

/* The first entry of softirq @vec on a CPU in (from, to], 0 if none. */
static u64 first_softirq(struct cpu_tl *t, u64 from, u64 to, int vec)
{
	size_t i;

	for (i = 0; i < t->sirq.n; i++) {
		struct sirq_ev *s = VEC_AT(&t->sirq, struct sirq_ev, i);

		if (s->ts > to)
			break;
		if (s->ts > from && s->what == SIRQ_ENTRY && s->vec == vec)
			return s->ts;
	}
	return 0;
}

/* ksoftirqd/@cpu woken in the window: RCU_SOFTIRQ was deferred to it. */
static struct wake_ev *ksoftirqd_woken(struct model *m, int cpu, u64 from, u64 to)
{
	char name[32];
	int c;

	snprintf(name, sizeof(name), "ksoftirqd/%d", cpu);
	for (c = 0; c < m->ncpus; c++) {
		struct cpu_tl *t = &m->cpus[c];
		size_t i;

		for (i = 0; i < t->wake.n; i++) {
			struct wake_ev *w = VEC_AT(&t->wake, struct wake_ev, i);

			if (w->ts > from && w->ts < to && !strcmp(w->comm, name))
				return w;
		}
	}
	return NULL;
}

static void explain_not_polled(struct model *m, struct gp *g, u64 last_qs, u64 to)
{
	struct cause *k = &g->cause;
	int cpu = g->owner >= 0 ? g->owner : g->end_cpu;
	struct wake_ev *w;
	char ts[TS_BUF], ts2[TS_BUF];

	k->kind = CAUSE_NOT_POLLED;
	k->cpu = cpu;
	k->from = last_qs;
	k->to = to;
	k->wait = to - last_qs;
	k->qs_within = last_qs - g->start;
	longest_task(m, cpu, last_qs, to, &k->pid, &k->comm, &k->since);
	irq_evidence(m, k, cpu);
	snprintf(k->brief, sizeof(k->brief), "CPU %d did not poll: %s", cpu,
		 k->pid < 0 ? "?" : comm_or(k->comm));
	if (g->owner >= 0)
		snprintf(k->text, sizeof(k->text),
			 "every CPU passed a quiescent state within %.2f ms; the batch's own CPU %d did not poll it for %.1f ms (RCU_SOFTIRQ waited behind ",
			 MS(k->qs_within), cpu, MS(k->wait));
	else	/* one queue, polled from any CPU's softirq; CPU @cpu ended it */
		snprintf(k->text, sizeof(k->text),
			 "every CPU passed a quiescent state within %.2f ms; no CPU polled the batch for %.1f ms (CPU %d, which ended it: RCU_SOFTIRQ waited behind ",
			 MS(k->qs_within), MS(k->wait), cpu);
	task_words(k->text, sizeof(k->text), m, k->pid, k->comm);
	if (k->pid > 0 && k->since && k->since <= last_qs)
		add(k->text, sizeof(k->text), ", running there since %s", fmt_ts(k->since, ts));
	else if (k->pid > 0 && k->since)
		add(k->text, sizeof(k->text), ", there from %s", fmt_ts(k->since, ts));
	add(k->text, sizeof(k->text), ")");
	if (k->irq != 1)
		irq_words(k->text, sizeof(k->text), k, cpu);
	/* ksoftirqd kept off the CPU says it all (irq_words). */
	w = m->has_wakeup && k->irq != 2 ? ksoftirqd_woken(m, cpu, last_qs, to) : NULL;
	if (w)
		add(k->text, sizeof(k->text), "; ksoftirqd/%d was woken at %s", cpu, fmt_ts(w->ts, ts));
	if (m->has_softirq && cpu < m->ncpus && k->irq != 2) {
		struct cpu_tl *t = &m->cpus[cpu];
		u64 rcu_at = first_softirq(t, last_qs, to, RCU_SOFTIRQ_VEC);
		u64 until = rcu_at ? rcu_at : to;
		unsigned long other = tl_softirqs(t, last_qs, until, -1) -
				      tl_softirqs(t, last_qs, until, RCU_SOFTIRQ_VEC);

		if (!other)
			add(k->text, sizeof(k->text), "; no interrupt was seen on CPU %d from %s %s %s",
			    cpu, fmt_ts(last_qs, ts), rcu_at ? "until RCU_SOFTIRQ ran at" : "to",
			    rcu_at ? fmt_ts(rcu_at, ts2) : "the end of the trace");
		else
			add(k->text, sizeof(k->text), "; %lu other softirqs ran there before %s", other,
			    rcu_at ? "RCU_SOFTIRQ did" : "the end of the trace");
	}
	lost_words(k->text, sizeof(k->text), m, k, cpu);
}

/*
 * Tasks holding CPU @cpu's counter when it flipped for @g: they took a
 * reference before the flip and dropped it after (or never).
 */
static void holders(struct model *m, struct gp *g, int cpu, u64 flip, struct cause *k)
{
	size_t i, j;

	for (i = 0; i < m->pts.n && k->ntasks < CAUSE_MAX_TASKS; i++) {
		struct pt_ev *p = VEC_AT(&m->pts, struct pt_ev, i);
		u64 put = 0;

		if (!p->get || p->cntr_cpu != cpu || p->ts > flip)
			continue;
		for (j = i + 1; j < m->pts.n; j++) {
			struct pt_ev *q = VEC_AT(&m->pts, struct pt_ev, j);

			if (q->pid == p->pid && !q->get) {
				put = q->ts;
				break;
			}
		}
		if (put && put <= flip)
			continue;
		k->tasks[k->ntasks].pid = p->pid;
		k->tasks[k->ntasks].comm = p->comm;
		k->tasks[k->ntasks].cpu = p->cpu;
		k->tasks[k->ntasks].got = p->ts;
		k->tasks[k->ntasks].put = put;
		k->ntasks++;
	}
}

/* Stall warnings name the preempted tasks too (kind=task holdouts). */
static void holders_from_stalls(struct model *m, struct gp *g, struct cause *k)
{
	size_t i;
	int j;

	for (i = 0; i < m->stalls.n && k->ntasks < CAUSE_MAX_TASKS; i++) {
		struct stall_ev *s = VEC_AT(&m->stalls, struct stall_ev, i);

		if (!s->holdout || s->flavour != g->flavour || s->batch != g->nr ||
		    strcmp(s->kind, "task"))
			continue;
		for (j = 0; j < k->ntasks; j++) {
			if (k->tasks[j].pid == s->pid)
				break;
		}
		if (j < k->ntasks)
			continue;
		k->tasks[k->ntasks].pid = s->pid;
		k->tasks[k->ntasks].comm = s->comm;
		k->tasks[k->ntasks].cpu = s->holdout_cpu;
		k->tasks[k->ntasks].got = 0;
		k->tasks[k->ntasks].put = 0;
		k->ntasks++;
	}
}

static void explain_preempted(struct model *m, struct gp *g, int cpu, u64 flip, u64 to,
			      u64 flipped_within)
{
	struct cause *k = &g->cause;
	char ts[TS_BUF];
	int i;

	k->kind = CAUSE_PREEMPTED;
	k->cpu = cpu;
	k->from = flip;
	k->to = to;
	k->wait = to - flip;
	k->pid = -1;
	if (m->has_preempt_task)
		holders(m, g, cpu, flip, k);
	holders_from_stalls(m, g, k);
	snprintf(k->brief, sizeof(k->brief), "preempted tasks: %s",
		 k->ntasks ? comm_or(k->tasks[0].comm) : "?");
	snprintf(k->text, sizeof(k->text), "preempted tasks held the preempt flavour:");
	for (i = 0; i < k->ntasks; i++) {
		add(k->text, sizeof(k->text), "%s %d %s (preempted on CPU %d", i ? "," : "",
		    k->tasks[i].pid, comm_or(k->tasks[i].comm), k->tasks[i].cpu);
		if (k->tasks[i].put)
			add(k->text, sizeof(k->text), ", released at %s)", fmt_ts(k->tasks[i].put, ts));
		else
			add(k->text, sizeof(k->text), ", %s)",
			    g->end || k->tasks[i].got ? "still holding at the end" : "named by the stall warning");
	}
	if (!k->ntasks)
		add(k->text, sizeof(k->text), " which ones, the trace cannot tell (record rcu_poll:rcu_poll_preempt_task)");
	add(k->text, sizeof(k->text), "; CPU %d's counter drained %.1f ms after every CPU had flipped (within %.2f ms)",
	    cpu, MS(k->wait), MS(flipped_within));
	lost_words(k->text, sizeof(k->text), m, k, cpu);
}

/*
 * Tree RCU: the grace-period kthread (named as its RCU) woken in the
 * window of @k: on which CPU, and what ran there then, until it ran.
 */
static void kthread_words(struct model *m, int flavour, struct cause *k)
{
	const char *name = m->flv[flavour].name;
	struct wake_ev *w = NULL;
	struct sw_ev *sw, *run;
	char ts[TS_BUF], ts2[TS_BUF];
	int c, pid, rcpu;
	const char *comm;
	u64 since;

	for (c = 0; c < m->ncpus && !w; c++) {
		struct cpu_tl *t = &m->cpus[c];
		size_t i;

		for (i = 0; i < t->wake.n; i++) {
			struct wake_ev *x = VEC_AT(&t->wake, struct wake_ev, i);

			if (x->ts >= k->from && x->ts < k->to && !strcmp(x->comm, name)) {
				w = x;
				break;
			}
		}
	}
	if (!w || w->target_cpu < 0 || w->target_cpu >= m->ncpus)
		return;
	tl_task_at(m, w->target_cpu, w->ts, &pid, &comm, &since);
	k->cpu = w->target_cpu;
	k->pid = pid;
	k->comm = comm;
	k->since = since;
	add(k->text, sizeof(k->text), "; %s (pid %d) was woken at %s on CPU %d, where ", name, w->pid,
	    fmt_ts(w->ts, ts), w->target_cpu);
	task_words(k->text, sizeof(k->text), m, pid, comm);
	add(k->text, sizeof(k->text), " ran");
	/* When it got a CPU: the first switch to it anywhere after the wake-up. */
	for (c = 0, run = NULL, rcpu = -1; c < m->ncpus; c++) {
		struct cpu_tl *t = &m->cpus[c];
		size_t i;

		for (sw = tl_switch_after(t, w->ts), i = sw ? (size_t)(sw - (struct sw_ev *)t->sw.v) : t->sw.n;
		     i < t->sw.n; i++) {
			sw = VEC_AT(&t->sw, struct sw_ev, i);
			if (sw->ts > k->to || (run && sw->ts >= run->ts))
				break;
			if (sw->next_pid == w->pid) {
				run = sw;
				rcpu = c;
				break;
			}
		}
	}
	if (run)
		add(k->text, sizeof(k->text), "; it ran at %s on CPU %d", fmt_ts(run->ts, ts2), rcpu);
	snprintf(k->brief, sizeof(k->brief), "kthread waited on CPU %d: %s", w->target_cpu,
		 pid < 0 ? "?" : comm_or(comm));
}

/*
 * Tree RCU: the kthread waited on CPU k->cpu, but another CPU ran one
 * task for most of that wait with interrupts probably off.  A task on
 * the kthread's CPU that sends that CPU an IPI (a TLB shootdown,
 * smp_call_function() with wait) spins with preemption off until the
 * IPI is taken, so the kthread waits exactly as long: name that CPU and
 * its task too, since it is the likelier culprit.
 */
static void kthread_also(struct model *m, struct cause *k)
{
	int c;

	for (c = 0; c < m->ncpus; c++) {
		struct sw_ev *next;
		struct cause o;
		u64 from, run;

		if (c == k->cpu)
			continue;
		memset(&o, 0, sizeof(o));
		longest_task(m, c, k->from, k->to, &o.pid, &o.comm, &o.since);
		if (o.pid <= 0)
			continue;
		/* How long it ran in the window without a switch. */
		from = o.since > k->from ? o.since : k->from;
		next = tl_switch_after(&m->cpus[c], from);
		run = (next && next->ts < k->to ? next->ts : k->to) - from;
		o.from = from;
		o.to = from + run;
		if (run <= m->slow_ns || 2 * run < k->wait)
			continue;
		irq_evidence(m, &o, c);
		if (o.irq != 0)
			continue;
		add(k->text, sizeof(k->text), "; CPU %d ran ", c);
		task_words(k->text, sizeof(k->text), m, o.pid, o.comm);
		add(k->text, sizeof(k->text), " without a context switch for %.1f ms meanwhile", MS(run));
		irq_words(k->text, sizeof(k->text), &o, c);
		add(k->text, sizeof(k->text), " (a task that sends CPU %d an IPI waits as long)", c);
	}
}

/*
 * Tree RCU (preemptible): tasks preempted inside a reader before the last
 * CPU report, and still inside it after, kept the rcu_node tree from
 * reporting (gp_tasks).  If that is the longest wait, say which tasks.
 */
static bool tree_blocked(struct model *m, struct gp *g, u64 last_qs, u64 last_rep, u64 horizon)
{
	struct cause *k = &g->cause;
	u64 unblock = 0, held = last_qs - g->start;
	char ts[TS_BUF], ts2[TS_BUF];
	size_t i, j;
	int n = 0;

	if (!g->tasks && !m->has_preempt_task)
		return false;
	for (i = 0; i < m->pts.n; i++) {
		struct pt_ev *p = VEC_AT(&m->pts, struct pt_ev, i);
		u64 put = 0;

		if (!p->get || p->ts > last_rep || p->ts >= horizon)
			continue;
		for (j = i + 1; j < m->pts.n; j++) {
			struct pt_ev *q = VEC_AT(&m->pts, struct pt_ev, j);

			if (q->pid == p->pid) {
				put = q->get ? 0 : q->ts;
				if (!q->get)
					break;
			}
		}
		if (put && put <= last_rep)
			continue;
		if (n < CAUSE_MAX_TASKS) {
			k->tasks[n].pid = p->pid;
			k->tasks[n].comm = p->comm;
			k->tasks[n].cpu = p->cpu;
			k->tasks[n].got = p->ts;
			k->tasks[n].put = put && put <= horizon ? put : 0;
			n++;
		}
		unblock = !put || put > horizon ? horizon : (put > unblock ? put : unblock);
	}
	if (!n && g->tasks)
		unblock = 0;	/* blocked, but by whom the trace does not say */
	if (!unblock || unblock - last_rep < held || unblock - last_rep < horizon - unblock)
		return false;
	k->kind = CAUSE_PREEMPTED;
	k->ntasks = n;
	k->cpu = k->tasks[0].cpu;
	k->pid = k->tasks[0].pid;
	k->comm = k->tasks[0].comm;
	k->from = last_rep;
	k->to = unblock;
	k->wait = unblock - last_rep;
	k->qs_within = held;
	snprintf(k->brief, sizeof(k->brief), "preempted reader: %s", comm_or(k->comm));
	snprintf(k->text, sizeof(k->text),
		 "every CPU passed a quiescent state within %.2f ms, but preempted readers held the grace period %.1f ms longer:",
		 MS(held), MS(k->wait));
	for (i = 0; i < (size_t)n; i++) {
		add(k->text, sizeof(k->text), "%s %s (pid %d), preempted in its reader on CPU %d at %s, ",
		    i ? ";" : "", comm_or(k->tasks[i].comm), k->tasks[i].pid, k->tasks[i].cpu,
		    fmt_ts(k->tasks[i].got, ts));
		if (k->tasks[i].put)
			add(k->text, sizeof(k->text), "left it at %s", fmt_ts(k->tasks[i].put, ts2));
		else
			add(k->text, sizeof(k->text), "still in it at the end of the trace");
	}
	return true;
}

/*
 * Tree RCU, every CPU passed its quiescent state, the last one (@cpu) at
 * @last_qs: the longest of three waits made the grace period late.
 */
static void explain_tree(struct model *m, struct gp *g, int cpu, u64 last_qs, u64 horizon)
{
	struct cause *k = &g->cause;
	u64 last_rep = 0, held = last_qs - g->start;
	int rcpu = -1, c;
	char ts[TS_BUF];

	for (c = 0; c < g->ncpu; c++) {
		struct gp_cpu *d = gp_cpu(g, c);

		if (gp_waits_for(g, c) && d->seen > last_rep) {
			last_rep = d->seen;
			rcpu = c;
		}
	}
	if (rcpu < 0 || last_rep < last_qs)
		last_rep = last_qs;
	if (tree_blocked(m, g, last_qs, last_rep, horizon))
		return;
	if (held >= last_rep - last_qs && held >= horizon - last_rep) {
		explain_held(m, g, cpu, last_qs, false);
		return;
	}
	k->qs_within = held;
	if (rcpu >= 0 && last_rep - gp_cpu(g, rcpu)->qs > horizon - last_rep &&
	    gp_cpu(g, rcpu)->qs_src == QS_EXACT) {
		/* Passed, but its RCU_SOFTIRQ did not report it. */
		u64 qs = gp_cpu(g, rcpu)->qs;

		k->kind = CAUSE_NOT_REPORTED;
		k->cpu = rcpu;
		k->from = qs;
		k->to = last_rep;
		k->wait = last_rep - qs;
		longest_task(m, rcpu, qs, last_rep, &k->pid, &k->comm, &k->since);
		irq_evidence(m, k, rcpu);
		snprintf(k->brief, sizeof(k->brief), "CPU %d did not report: %s", rcpu,
			 k->pid < 0 ? "?" : comm_or(k->comm));
		snprintf(k->text, sizeof(k->text),
			 "every CPU passed a quiescent state within %.2f ms; CPU %d reported its own %.1f ms after passing it (its RCU_SOFTIRQ waited behind ",
			 MS(k->qs_within), rcpu, MS(k->wait));
		task_words(k->text, sizeof(k->text), m, k->pid, k->comm);
		if (k->pid > 0 && k->since > qs)
			add(k->text, sizeof(k->text), ", there from %s", fmt_ts(k->since, ts));
		add(k->text, sizeof(k->text), ")");
		if (k->irq != 1)
			irq_words(k->text, sizeof(k->text), k, rcpu);
		if (m->has_softirq && rcpu < m->ncpus) {
			u64 at = first_softirq(&m->cpus[rcpu], qs, last_rep, RCU_SOFTIRQ_VEC);

			if (at)
				add(k->text, sizeof(k->text), "; RCU_SOFTIRQ ran at %s", fmt_ts(at, ts));
		}
		lost_words(k->text, sizeof(k->text), m, k, rcpu);
		return;
	}
	/* Reported in time; the grace-period kthread ended it late. */
	k->kind = CAUSE_KTHREAD;
	k->cpu = -1;
	k->from = last_rep;
	k->to = horizon;
	k->wait = horizon - last_rep;
	k->pid = -1;
	snprintf(k->brief, sizeof(k->brief), "kthread ended it late");
	snprintf(k->text, sizeof(k->text),
		 "every CPU's quiescent state was reported within %.2f ms; the grace-period kthread %s it %.1f ms later (%d FQS scan%s)",
		 MS(last_rep - g->start), g->end ? "ended" : "had not ended", MS(k->wait), g->nfqs,
		 g->nfqs == 1 ? "" : "s");
	if (g->tasks)
		add(k->text, sizeof(k->text), "; preempted readers blocked it (gp_tasks)");
	kthread_words(m, g->flavour, k);
	if (k->cpu < 0)
		return;
	irq_evidence(m, k, k->cpu);
	if (k->irq != 1)
		irq_words(k->text, sizeof(k->text), k, k->cpu);
	kthread_also(m, k);
	lost_words(k->text, sizeof(k->text), m, k, k->cpu);
}

/* Why @g took as long as it did (whether or not it counts as slow). */
void explain_gp(struct model *m, struct gp *g)
{
	u64 horizon = g->end ? g->end : m->last_ts, last_qs = g->start;
	int cpu, last_cpu = -1, none_cpu = -1;
	struct gp_cpu *c;

	memset(&g->cause, 0, sizeof(g->cause));
	g->cause.pid = -1;
	g->cause.inferred = !m->has_cpu_qs;
	for (cpu = 0; cpu < g->ncpu; cpu++) {
		if (!gp_waits_for(g, cpu))
			continue;
		find_qs(m, g, cpu);
		c = gp_cpu(g, cpu);
		if (c->qs_src == QS_NONE) {
			if (none_cpu < 0)
				none_cpu = cpu;
		} else if (c->qs >= last_qs) {
			last_qs = c->qs;
			last_cpu = cpu;
		}
	}
	if (none_cpu >= 0) {
		explain_held(m, g, none_cpu, horizon, true);
		return;
	}
	if (last_cpu < 0) {
		g->cause.kind = CAUSE_UNKNOWN;
		snprintf(g->cause.text, sizeof(g->cause.text), "it waited for no CPU the trace knows of");
		return;
	}
	c = gp_cpu(g, last_cpu);
	if (m->flv[g->flavour].tree) {
		explain_tree(m, g, last_cpu, last_qs, horizon);
		return;
	}
	/* The preempt flavour: flipped early, but the counter drained late. */
	if (m->flv[g->flavour].global) {
		u64 drained = 0;
		int dcpu = -1;

		for (cpu = 0; cpu < g->ncpu; cpu++) {
			struct gp_cpu *d = gp_cpu(g, cpu);

			if (gp_waits_for(g, cpu) && d->seen > drained) {
				drained = d->seen;
				dcpu = cpu;
			}
		}
		if (!g->end && drained < horizon)
			drained = horizon;
		if (dcpu >= 0 && drained - gp_cpu(g, dcpu)->qs > last_qs - g->start &&
		    drained - gp_cpu(g, dcpu)->qs > (horizon - drained)) {
			explain_preempted(m, g, dcpu, gp_cpu(g, dcpu)->qs, drained,
					  last_qs - g->start);
			return;
		}
	}
	if (last_qs - g->start >= horizon - last_qs)
		explain_held(m, g, last_cpu, last_qs, false);
	else
		explain_not_polled(m, g, last_qs, horizon);
}

/* --- callbacks that waited for a batch to start ------------------------- */

static void explain_delay(struct model *m, struct delay *d)
{
	struct cause *k = &d->cause;
	char ts[TS_BUF];

	k->kind = CAUSE_NO_START;
	k->cpu = d->cpu;
	k->from = d->from;
	k->to = d->to;
	k->wait = d->to - d->from;
	k->inferred = !m->has_cpu_qs;
	longest_task(m, d->cpu, d->from, d->to, &k->pid, &k->comm, &k->since);
	irq_evidence(m, k, d->cpu);
	snprintf(k->brief, sizeof(k->brief), "no batch started on CPU %d: %s", d->cpu,
		 k->pid < 0 ? "?" : comm_or(k->comm));
	snprintf(k->text, sizeof(k->text),
		 "no batch started for %.1f ms while %lu callbacks waited on CPU %d: ",
		 MS(k->wait), d->ncbs, d->cpu);
	task_words(k->text, sizeof(k->text), m, k->pid, k->comm);
	if (k->pid >= 0) {
		struct sw_ev *sw = tl_switch_after(&m->cpus[d->cpu], d->from);

		add(k->text, sizeof(k->text), " ran there");
		if (!sw || sw->ts > d->to)
			add(k->text, sizeof(k->text), " without a context switch");
		if (k->since)
			add(k->text, sizeof(k->text), " from %s", fmt_ts(k->since, ts));
	}
	irq_words(k->text, sizeof(k->text), k, d->cpu);
	lost_words(k->text, sizeof(k->text), m, k, d->cpu);
}

static void add_delay(struct model *m, int flavour, int cpu, struct gp *next, u64 from, u64 to,
		      unsigned long n)
{
	struct delay *d;

	if (to <= from || to - from <= m->slow_ns)
		return;
	d = vec_push(&m->delays);
	d->flavour = flavour;
	d->cpu = cpu;
	d->nr = next ? next->nr : 0;
	d->started = next;
	d->req_cpu = -1;
	d->from = from;
	d->to = to;
	d->ncbs = next && next->ncbs > (long)n ? (unsigned long)next->ncbs : n;
	explain_delay(m, d);
}

/*
 * For each CPU's batches (and its callbacks still queued at the end with
 * no batch in flight), how long the oldest callback waited for a batch to
 * start once the previous one had ended.  Only a CPU's own RCU_SOFTIRQ
 * starts its batches.  Both lists are in time order: one pass each.
 */
static void find_delays_on(struct model *m, int flavour, int cpu)
{
	u64 prev_start = 0, prev_end = 0;
	size_t gi, ci = 0;
	bool in_flight = false;

	for (gi = 0; gi <= m->gps.n; gi++) {
		struct gp *g = gi < m->gps.n ? model_gp(m, gi) : NULL;
		u64 limit = g ? g->start : m->last_ts, first = 0;
		unsigned long n = 0;

		if (g && (g->flavour != flavour || g->owner != cpu || g->before_trace))
			continue;
		for (; ci < m->calls.n; ci++) {
			struct cb_call *c = VEC_AT(&m->calls, struct cb_call, ci);

			if (c->ts > limit)
				break;
			if (c->flavour != flavour || c->cpu != cpu || c->ts <= prev_start)
				continue;
			/* Before the first batch seen: from a call that found none in flight. */
			if (!first && (prev_start || !c->inflight))
				first = c->ts;
			n++;
		}
		/* Callbacks behind a batch still in flight wait for it, not for a start. */
		if (n && first && !(g == NULL && in_flight))
			add_delay(m, flavour, cpu, g, first > prev_end ? first : prev_end, limit, n);
		if (!g)
			break;
		prev_start = g->start;
		prev_end = g->end ? g->end : m->last_ts;
		in_flight = !g->end;
	}
}

/*
 * Tree RCU: a grace period requested (rcu_grace_period "newreq", from
 * rcu_start_this_gp()) waits for the grace-period kthread to start it.
 * Its usual reason to be late: the kthread was woken onto a CPU that
 * did not let it run (a task with interrupts or preemption off there).
 */
static void explain_tree_delay(struct model *m, struct delay *d)
{
	struct cause *k = &d->cause;
	char ts[TS_BUF];

	k->kind = CAUSE_NO_START;
	k->cpu = -1;
	k->pid = -1;
	k->from = d->from;
	k->to = d->to;
	k->wait = d->to - d->from;
	snprintf(k->brief, sizeof(k->brief), "no grace period started");
	snprintf(k->text, sizeof(k->text),
		 "no grace period started for %.1f ms after one was asked for at %s (newreq, on CPU %d)",
		 MS(k->wait), fmt_ts(d->from, ts), d->req_cpu);
	kthread_words(m, d->flavour, k);
	if (k->cpu < 0) {
		add(k->text, sizeof(k->text), "; the trace has no wakeup of the grace-period kthread %s in that time",
		    m->flv[d->flavour].name);
		return;
	}
	d->cpu = k->cpu;
	irq_evidence(m, k, k->cpu);
	irq_words(k->text, sizeof(k->text), k, k->cpu);
	kthread_also(m, k);
	lost_words(k->text, sizeof(k->text), m, k, k->cpu);
}

/* The grace period of @flavour in flight at @t, if any. */
static struct gp *tree_gp_at(struct model *m, int flavour, u64 t, struct gp **next)
{
	size_t i;

	*next = NULL;
	for (i = 0; i < m->gps.n; i++) {
		struct gp *g = model_gp(m, i);

		if (g->flavour != flavour)
			continue;
		if (g->start > t) {
			*next = g;
			return NULL;
		}
		if (!g->end || g->end > t)
			return g;
	}
	return NULL;
}

/*
 * Tree RCU: from each request not already waited for, until a grace
 * period started.  A request while one is in flight waits for its end.
 */
static void find_tree_delays(struct model *m, int flavour)
{
	u64 covered = 0;
	size_t i;

	for (i = 0; i < m->gpreqs.n; i++) {
		struct gp_req *q = VEC_AT(&m->gpreqs, struct gp_req, i);
		struct gp *g, *next;
		struct delay *d;
		u64 from = q->ts, to;
		unsigned long n = 0;
		size_t ci;

		if (q->flavour != flavour || q->ts < covered)
			continue;
		g = tree_gp_at(m, flavour, from, &next);
		if (g && !g->end)
			return;		/* in flight to the end: its own cause */
		if (g) {
			from = g->end;
			tree_gp_at(m, flavour, from, &next);
		}
		to = next ? next->start : m->last_ts;
		covered = to;
		if (to <= from || to - from <= m->slow_ns)
			continue;
		for (ci = 0; ci < m->calls.n; ci++) {
			struct cb_call *c = VEC_AT(&m->calls, struct cb_call, ci);

			if (c->flavour == flavour && c->ts <= to && (!c->invoked || c->invoked > to))
				n++;
		}
		d = vec_push(&m->delays);
		d->flavour = flavour;
		d->cpu = -1;
		d->req_cpu = q->cpu;
		d->nr = next ? next->nr : 0;
		d->started = next;
		d->from = from;
		d->to = to;
		d->ncbs = n;
		explain_tree_delay(m, d);
	}
}

static void find_delays(struct model *m)
{
	int f, cpu;

	for (f = 0; f < m->nflv; f++) {
		if (m->flv[f].tree) {
			find_tree_delays(m, f);
			continue;
		}
		if (m->flv[f].global)
			continue;
		for (cpu = 0; cpu < m->ncpus; cpu++)
			find_delays_on(m, f, cpu);
	}
}

void explain_all(struct model *m)
{
	size_t i;

	for (i = 0; i < m->gps.n; i++) {
		struct gp *g = model_gp(m, i);

		/* In flight but younger than the threshold: only cut off by the end. */
		g->slow = gp_duration(m, g) > m->slow_ns;
		if (g->slow)
			explain_gp(m, g);
	}
	find_delays(m);
}
