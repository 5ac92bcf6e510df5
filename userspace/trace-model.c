// SPDX-License-Identifier: GPL-2.0
/*
 * rcupoll: read a trace.dat into the event model (trace-model.h).
 *
 * Every value comes from an event field through libtraceevent
 * (tep_read_number_field() on fields looked up once per event,
 * tep_get_field_raw() for CPU masks and comm arrays,
 * tep_print_field_content() for tracepoint strings such as the flavour):
 * a changed print format cannot change the numbers, and CPU masks have
 * as many bits as the kernel recorded.  A trace that lacks an event
 * (an older kernel, a recording without sched events) loads all the
 * same; the model says what it has, and explain.c says what it cannot
 * tell.
 *
 * A trace of a Tree RCU kernel (no rcu_poll events, but rcu:rcu_grace_period)
 * is read into the same objects: see tree_*() below.
 */

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <event-parse.h>
#include <trace-cmd.h>

#include "trace-model.h"

/* --- interned strings: a comm or function name is stored once ----------- */

struct strtab {
	char **slot;
	size_t cap, n;
};

static size_t hash_str(const char *s, size_t len)
{
	size_t h = 1469598103934665603ULL;

	while (len--)
		h = (h ^ (unsigned char)*s++) * 1099511628211ULL;
	return h;
}

static const char *intern_n(struct model *m, const char *s, size_t len)
{
	struct strtab *t = m->strings;
	size_t i;

	if (2 * (t->n + 1) > t->cap) {
		struct strtab old = *t;

		t->cap = t->cap ? 2 * t->cap : 1024;
		t->slot = xcalloc(t->cap, sizeof(char *));
		t->n = 0;
		for (i = 0; i < old.cap; i++) {
			if (old.slot[i]) {
				size_t j = hash_str(old.slot[i], strlen(old.slot[i])) & (t->cap - 1);

				while (t->slot[j])
					j = (j + 1) & (t->cap - 1);
				t->slot[j] = old.slot[i];
				t->n++;
			}
		}
		free(old.slot);
	}
	for (i = hash_str(s, len) & (t->cap - 1); t->slot[i]; i = (i + 1) & (t->cap - 1)) {
		if (!strncmp(t->slot[i], s, len) && !t->slot[i][len])
			return t->slot[i];
	}
	t->slot[i] = xmalloc(len + 1);
	memcpy(t->slot[i], s, len);
	t->slot[i][len] = '\0';
	t->n++;
	return t->slot[i];
}

static const char *intern(struct model *m, const char *s)
{
	return intern_n(m, s, strlen(s));
}

/* --- u64 -> index map (grace periods by number, callbacks by rhp) ------ */

struct hmap {
	u64 *key;
	size_t *val;		/* index + 1; 0 empty, SIZE_MAX deleted */
	size_t cap, used;
};

#define HMAP_DEL ((size_t)-1)

static size_t hash_u64(u64 k)
{
	k ^= k >> 33;
	k *= 0xff51afd7ed558ccdULL;
	k ^= k >> 33;
	return k;
}

static void hmap_put(struct hmap *h, u64 key, size_t val);

static void hmap_grow(struct hmap *h)
{
	struct hmap old = *h;
	size_t i;

	h->cap = h->cap ? 2 * h->cap : 1024;
	h->key = xcalloc(h->cap, sizeof(u64));
	h->val = xcalloc(h->cap, sizeof(size_t));
	h->used = 0;
	for (i = 0; i < old.cap; i++) {
		if (old.val[i] && old.val[i] != HMAP_DEL)
			hmap_put(h, old.key[i], old.val[i] - 1);
	}
	free(old.key);
	free(old.val);
}

static size_t *hmap_slot(struct hmap *h, u64 key)
{
	size_t i;

	if (!h->cap)
		return NULL;
	for (i = hash_u64(key) & (h->cap - 1); h->val[i]; i = (i + 1) & (h->cap - 1)) {
		if (h->val[i] != HMAP_DEL && h->key[i] == key)
			return &h->val[i];
	}
	return NULL;
}

static void hmap_put(struct hmap *h, u64 key, size_t val)
{
	size_t *s = hmap_slot(h, key), i;

	if (s) {
		*s = val + 1;
		return;
	}
	if (2 * (h->used + 1) > h->cap)
		hmap_grow(h);
	for (i = hash_u64(key) & (h->cap - 1); h->val[i] && h->val[i] != HMAP_DEL;
	     i = (i + 1) & (h->cap - 1))
		;
	if (!h->val[i])
		h->used++;
	h->key[i] = key;
	h->val[i] = val + 1;
}

/* The value stored for @key, or -1. */
static long hmap_get(struct hmap *h, u64 key)
{
	size_t *s = hmap_slot(h, key);

	return s ? (long)(*s - 1) : -1;
}

static void hmap_del(struct hmap *h, u64 key)
{
	size_t *s = hmap_slot(h, key);

	if (s)
		*s = HMAP_DEL;
}

static void hmap_free(struct hmap *h)
{
	free(h->key);
	free(h->val);
	free(h);
}

/* --- events and their fields, looked up once --------------------------- */

enum ev_kind {
	EV_SWITCH, EV_WAKEUP, EV_SIRQ_RAISE, EV_SIRQ_ENTRY, EV_SIRQ_EXIT,
	EV_START, EV_QS, EV_END, EV_KICK, EV_CALL, EV_INVOKE, EV_STALL,
	EV_HOLDOUT, EV_CPU_QS, EV_PREEMPT_TASK,
	/* upstream's events that rcu_poll emits too */
	EV_BARRIER, EV_BSTART, EV_BEND,
	/* Tree RCU (include/trace/events/rcu.h, CONFIG_TREE_RCU) */
	EV_T_GP, EV_T_INIT, EV_T_REPORT, EV_T_FQS, EV_T_STALL, EV_T_CALL, EV_T_INVOKE,
	EV_T_PTASK, EV_T_UNLOCK,
	EV_NKINDS
};

static const struct {
	const char *system, *name;
	const char *fields[9];
} ev_def[EV_NKINDS] = {
	[EV_SWITCH] = { "sched", "sched_switch",
			{ "prev_comm", "prev_pid", "prev_state", "next_comm", "next_pid" } },
	[EV_WAKEUP] = { "sched", "sched_wakeup", { "comm", "pid", "target_cpu" } },
	[EV_SIRQ_RAISE] = { "irq", "softirq_raise", { "vec" } },
	[EV_SIRQ_ENTRY] = { "irq", "softirq_entry", { "vec" } },
	[EV_SIRQ_EXIT] = { "irq", "softirq_exit", { "vec" } },
	[EV_START] = { "rcu_poll", "rcu_poll_batch_start",
		       { "flavour", "cpu", "batch", "ncbs", "waits" } },
	[EV_QS] = { "rcu_poll", "rcu_poll_qs",
		    { "flavour", "cpu", "batch", "qs_cpu", "how", "qs_before", "qs_after" } },
	[EV_END] = { "rcu_poll", "rcu_poll_batch_end", { "flavour", "cpu", "batch", "ncbs" } },
	[EV_KICK] = { "rcu_poll", "rcu_poll_kick", { "flavour", "cpu", "batch", "target" } },
	[EV_CALL] = { "rcu_poll", "rcu_poll_call_rcu", { "flavour", "cpu", "rhp", "func", "batch" } },
	[EV_INVOKE] = { "rcu_poll", "rcu_poll_invoke",
			{ "flavour", "cpu", "rhp", "func", "batch", "age_ns" } },
	[EV_STALL] = { "rcu_poll", "rcu_poll_stall",
		       { "flavour", "cpu", "batch", "age_ms", "ncbs", "holdouts", "ntasks",
			 "nwarn" } },
	[EV_HOLDOUT] = { "rcu_poll", "rcu_poll_holdout",
			 { "flavour", "batch", "kind", "holdout_cpu", "pid", "comm" } },
	[EV_CPU_QS] = { "rcu_poll", "rcu_poll_cpu_qs", { "how", "qs" } },
	[EV_PREEMPT_TASK] = { "rcu_poll", "rcu_poll_preempt_task",
			      { "pid", "comm", "how", "cntr_cpu" } },
	[EV_BARRIER] = { "rcu", "rcu_barrier", { "rcuname", "s", "cpu", "cnt", "done" } },
	[EV_BSTART] = { "rcu", "rcu_batch_start", { "rcuname", "qlen", "blimit" } },
	[EV_BEND] = { "rcu", "rcu_batch_end", { "rcuname", "callbacks_invoked" } },
	[EV_T_GP] = { "rcu", "rcu_grace_period", { "rcuname", "gp_seq", "gpevent" } },
	[EV_T_INIT] = { "rcu", "rcu_grace_period_init",
			{ "rcuname", "gp_seq", "level", "grplo", "grphi", "qsmask" } },
	[EV_T_REPORT] = { "rcu", "rcu_quiescent_state_report",
			  { "rcuname", "gp_seq", "mask", "qsmask", "level", "grplo", "grphi",
			    "gp_tasks" } },
	[EV_T_FQS] = { "rcu", "rcu_fqs", { "rcuname", "gp_seq", "cpu", "qsevent" } },
	[EV_T_STALL] = { "rcu", "rcu_stall_warning", { "rcuname", "msg" } },
	[EV_T_CALL] = { "rcu", "rcu_callback", { "rcuname", "rhp", "func", "qlen" } },
	[EV_T_INVOKE] = { "rcu", "rcu_invoke_callback", { "rcuname", "rhp", "func" } },
	[EV_T_PTASK] = { "rcu", "rcu_preempt_task", { "rcuname", "pid", "gp_seq" } },
	[EV_T_UNLOCK] = { "rcu", "rcu_unlock_preempted_task", { "rcuname", "gp_seq", "pid" } },
};

struct evinfo {
	struct tep_event *ev;
	struct tep_format_field *f[9];
};

struct loader {
	struct model *m;
	struct evinfo e[EV_NKINDS];
	struct tep_event *rcu_poll_any;	/* any event of the system */
	int rcu_poll_sys_id;		/* not used for matching: by name */
	struct trace_seq seq;
	struct { u64 ptr; const char *s; } strs[32];
	int nstrs;
	int long_size;
	int file_cpus;		/* CPUs the file has buffers of */
	bool tree;		/* decode Tree RCU's events (the file has them) */
};

static void lookup_events(struct loader *l)
{
	int k, i;

	for (k = 0; k < EV_NKINDS; k++) {
		struct evinfo *e = &l->e[k];

		e->ev = tep_find_event_by_name(l->m->tep, ev_def[k].system, ev_def[k].name);
		if (!e->ev)
			continue;
		for (i = 0; i < 9 && ev_def[k].fields[i]; i++)
			e->f[i] = tep_find_field(e->ev, ev_def[k].fields[i]);
	}
}

/* A number field, sign-extended if the field is signed; 0 if absent. */
static long long fnum(struct tep_format_field *f, struct tep_record *r)
{
	unsigned long long v;

	if (!f || tep_read_number_field(f, r->data, &v))
		return 0;
	if ((f->flags & TEP_FIELD_IS_SIGNED) && f->size < 8) {
		int shift = 64 - 8 * f->size;

		return (long long)(v << shift) >> shift;
	}
	return (long long)v;
}

/*
 * A tracepoint string field (a pointer the trace.dat's printk formats
 * name): printed by the event's own format argument for that field.
 */
static const char *fstr(struct loader *l, struct tep_format_field *f, struct tep_record *r)
{
	u64 ptr;
	int i;

	if (!f)
		return "?";
	ptr = (u64)fnum(f, r);
	for (i = 0; i < l->nstrs; i++) {
		if (l->strs[i].ptr == ptr)
			return l->strs[i].s;
	}
	trace_seq_reset(&l->seq);
	tep_print_field_content(&l->seq, r->data, r->size, f);
	trace_seq_terminate(&l->seq);
	if (l->nstrs < (int)(sizeof(l->strs) / sizeof(l->strs[0]))) {
		l->strs[l->nstrs].ptr = ptr;
		l->strs[l->nstrs].s = intern(l->m, l->seq.buffer);
		return l->strs[l->nstrs++].s;
	}
	return intern(l->m, l->seq.buffer);
}

/* A char[] field (comm), up to its first NUL. */
static const char *farr(struct loader *l, struct tep_format_field *f, struct tep_record *r)
{
	const char *p;

	if (!f || f->offset + f->size > r->size)
		return intern(l->m, "?");
	p = (const char *)r->data + f->offset;
	return intern_n(l->m, p, strnlen(p, f->size));
}

static const char *func_name(struct loader *l, u64 addr)
{
	const char *name = tep_find_function(l->m->tep, addr);
	char buf[32];

	if (name)
		return intern(l->m, name);
	snprintf(buf, sizeof(buf), "0x%llx", addr);
	return intern(l->m, buf);
}

static struct cpu_tl *tl(struct model *m, int cpu)
{
	if (cpu >= m->ncpus) {
		int n = cpu + 1, i;

		m->cpus = xrealloc(m->cpus, n * sizeof(*m->cpus));
		memset(m->cpus + m->ncpus, 0, (n - m->ncpus) * sizeof(*m->cpus));
		for (i = m->ncpus; i < n; i++) {
			m->cpus[i].sw.size = sizeof(struct sw_ev);
			m->cpus[i].sirq.size = sizeof(struct sirq_ev);
			m->cpus[i].cqs.size = sizeof(struct cqs_ev);
			m->cpus[i].wake.size = sizeof(struct wake_ev);
			m->cpus[i].lost_at.size = sizeof(u64);
		}
		m->ncpus = n;
	}
	return &m->cpus[cpu];
}

/* Flavours are numbered as they appear; global ones have one queue. */
static int flavour_of(struct loader *l, struct evinfo *e, struct tep_record *r)
{
	struct model *m = l->m;
	const char *name = fstr(l, e->f[0], r);
	int i;

again:
	for (i = 0; i < m->nflv; i++) {
		if (m->flv[i].name == name)
			return i;
	}
	/*
	 * 6.1's rcu_read_unlock_special() traces the report of a leaf's last
	 * blocked reader as "preempt_rcu" (tree_plugin.h): rcu_preempt's own.
	 * Checked here, for a name not seen yet, not on every event.
	 */
	if (l->tree && !strcmp(name, "preempt_rcu")) {
		name = intern(m, "rcu_preempt");
		goto again;
	}
	if (m->nflv == (int)(sizeof(m->flv) / sizeof(m->flv[0])))
		return m->nflv - 1;
	m->flv[m->nflv].name = name;
	/* rcu_poll_preempt has one queue for all CPUs (patch 0003). */
	m->flv[m->nflv].global = !strcmp(name, "rcu_poll_preempt") || l->tree;
	/* Tree RCU: one grace period at a time for all CPUs, numbered by gp_seq. */
	m->flv[m->nflv].tree = l->tree;
	return m->nflv++;
}

static u64 gp_key(int flavour, unsigned long nr)
{
	return ((u64)flavour << 56) ^ nr;
}

struct gp *model_gp(struct model *m, size_t i)
{
	return VEC_AT(&m->gps, struct gp, i);
}

struct gp *model_find_gp(struct model *m, int flavour, unsigned long nr)
{
	long i = hmap_get(m->gp_index, gp_key(flavour, nr));

	return i < 0 ? NULL : model_gp(m, i);
}

struct gp_cpu *gp_cpu(struct gp *g, int cpu)
{
	return cpu >= 0 && cpu < g->ncpu ? &g->cpu[cpu] : NULL;
}

bool gp_waits_for(struct gp *g, int cpu)
{
	const int bits = 8 * sizeof(unsigned long);

	return cpu >= 0 && cpu < g->ncpu && (g->waits[cpu / bits] >> (cpu % bits)) & 1;
}

/*
 * The CPU mask of a __bitmask field: unsigned longs of the kernel's size
 * (long_size), least significant word first, as many as were recorded.
 */
static void read_mask(struct loader *l, struct evinfo *e, int fi, struct tep_record *r,
		      struct gp *g)
{
	const int bits = 8 * sizeof(unsigned long);
	int len = 0, w, b, top = -1, nwords;
	unsigned char *p;

	p = tep_get_field_raw(&l->seq, e->ev, ev_def[EV_START].fields[fi], r, &len, 0);
	nwords = p && l->long_size ? len / l->long_size : 0;
	for (w = 0; w < nwords; w++) {
		u64 v = tep_read_number(l->m->tep, p + w * l->long_size, l->long_size);

		for (b = 0; b < 8 * l->long_size; b++) {
			if ((v >> b) & 1)
				top = w * 8 * l->long_size + b;
		}
	}
	g->ncpu = top + 1;
	g->waits = xcalloc((g->ncpu + bits - 1) / bits + 1, sizeof(unsigned long));
	g->cpu = xcalloc(g->ncpu + 1, sizeof(struct gp_cpu));
	for (w = 0; w < nwords; w++) {
		u64 v = tep_read_number(l->m->tep, p + w * l->long_size, l->long_size);

		for (b = 0; b < 8 * l->long_size; b++) {
			int cpu = w * 8 * l->long_size + b;

			if ((v >> b) & 1) {
				g->waits[cpu / bits] |= 1UL << (cpu % bits);
				g->nwait++;
			}
		}
	}
}

/* A CPU list ("0-1,3") of a bitmask field, for stall events. */
static void mask_list(struct loader *l, struct evinfo *e, int fi, struct tep_record *r,
		      char *out, size_t outlen)
{
	int len = 0, bits, cpu, first = -1;
	unsigned char *p = e->f[fi] ? tep_get_field_raw(&l->seq, e->ev, e->f[fi]->name, r, &len, 0)
				    : NULL;
	size_t n = 0;

	out[0] = '\0';
	bits = p && l->long_size ? len / l->long_size * 8 * l->long_size : 0;
	for (cpu = 0; cpu <= bits; cpu++) {
		bool set = false;

		if (cpu < bits) {
			int w = cpu / (8 * l->long_size), b = cpu % (8 * l->long_size);

			set = (tep_read_number(l->m->tep, p + w * l->long_size, l->long_size) >> b) & 1;
		}
		if (set && first < 0)
			first = cpu;
		if (!set && first >= 0) {
			n += snprintf(out + n, n < outlen ? outlen - n : 0,
				      first == cpu - 1 ? "%s%d" : "%s%d-%d", n ? "," : "", first,
				      cpu - 1);
			first = -1;
		}
	}
}

static void on_start(struct loader *l, struct evinfo *e, struct tep_record *r)
{
	struct model *m = l->m;
	struct gp *g = vec_push(&m->gps);

	g->flavour = flavour_of(l, e, r);
	g->owner = m->flv[g->flavour].global ? -1 : (int)fnum(e->f[1], r);
	g->start_cpu = r->cpu;
	g->end_cpu = -1;
	g->nr = fnum(e->f[2], r);
	g->ncbs = fnum(e->f[3], r);
	g->start = r->ts;
	g->start_pid = tep_data_pid(m->tep, r);
	read_mask(l, e, 4, r, g);
	hmap_put(m->gp_index, gp_key(g->flavour, g->nr), m->gps.n - 1);
}

static void on_qs(struct loader *l, struct evinfo *e, struct tep_record *r)
{
	struct gp *g = model_find_gp(l->m, flavour_of(l, e, r), fnum(e->f[2], r));
	struct gp_cpu *c;

	if (!g || g->end)
		return;
	c = gp_cpu(g, fnum(e->f[3], r));
	if (!c || c->seen)
		return;
	c->seen = r->ts;
	c->seen_how = fstr(l, e->f[4], r);
	c->qs_before = fnum(e->f[5], r);
	c->qs_after = fnum(e->f[6], r);
}

static void on_end(struct loader *l, struct evinfo *e, struct tep_record *r)
{
	struct gp *g = model_find_gp(l->m, flavour_of(l, e, r), fnum(e->f[2], r));

	if (g && !g->end) {
		g->end = r->ts;
		g->end_cpu = r->cpu;
	}
}

static void on_kick(struct loader *l, struct evinfo *e, struct tep_record *r)
{
	struct gp *g = model_find_gp(l->m, flavour_of(l, e, r), fnum(e->f[2], r));
	struct gp_cpu *c = g ? gp_cpu(g, fnum(e->f[3], r)) : NULL;

	if (c && !c->kick)
		c->kick = r->ts;
}

static struct func_lat *lat_of(struct model *m, int flavour, const char *func)
{
	struct func_lat *f;
	size_t i;

	for (i = 0; i < m->lat.n; i++) {
		f = VEC_AT(&m->lat, struct func_lat, i);
		if (f->flavour == flavour && f->func == func)
			return f;
	}
	f = vec_push(&m->lat);
	f->flavour = flavour;
	f->func = func;
	f->us.size = sizeof(double);
	return f;
}

static void on_call(struct loader *l, struct evinfo *e, struct tep_record *r)
{
	struct model *m = l->m;
	struct cb_call *c = vec_push(&m->calls);

	c->ts = r->ts;
	c->flavour = flavour_of(l, e, r);
	c->cpu = fnum(e->f[1], r);
	c->rec_cpu = r->cpu;
	c->rhp = fnum(e->f[2], r);
	c->func = func_name(l, fnum(e->f[3], r));
	c->inflight = fnum(e->f[4], r);
	lat_of(m, c->flavour, c->func)->queued++;
	/* An rhp queued again before its invocation was seen replaces it. */
	hmap_put(m->pending, c->rhp, m->calls.n - 1);
}

static void on_invoke(struct loader *l, struct evinfo *e, struct tep_record *r)
{
	struct model *m = l->m;
	int flavour = flavour_of(l, e, r);
	const char *func = func_name(l, fnum(e->f[3], r));
	u64 rhp = fnum(e->f[2], r);
	long ci = hmap_get(m->pending, rhp);
	double us = fnum(e->f[5], r) / 1000.0;

	if (ci >= 0) {
		struct cb_call *c = VEC_AT(&m->calls, struct cb_call, ci);

		c->invoked = r->ts;
		c->batch = fnum(e->f[4], r);
		hmap_del(m->pending, rhp);
		/* Both ends traced: the exact latency, not the kernel's estimate. */
		if (c->func == func && r->ts >= c->ts)
			us = (r->ts - c->ts) / 1000.0;
	}
	*(double *)vec_push(&lat_of(m, flavour, func)->us) = us;
}

static void on_stall(struct loader *l, struct evinfo *e, struct tep_record *r, bool holdout)
{
	struct stall_ev *s = vec_push(&l->m->stalls);

	s->ts = r->ts;
	s->holdout = holdout;
	s->flavour = flavour_of(l, e, r);
	if (!holdout) {
		s->cpu = fnum(e->f[1], r);
		s->batch = fnum(e->f[2], r);
		s->age_ms = fnum(e->f[3], r);
		s->ncbs = fnum(e->f[4], r);
		mask_list(l, e, 5, r, s->holdouts, sizeof(s->holdouts));
		s->ntasks = fnum(e->f[6], r);
		s->nwarn = fnum(e->f[7], r);
		s->kind = "";
		s->comm = "";
		s->holdout_cpu = s->pid = -1;
	} else {
		s->cpu = -1;
		s->batch = fnum(e->f[1], r);
		s->kind = fstr(l, e->f[2], r);
		s->holdout_cpu = fnum(e->f[3], r);
		s->pid = fnum(e->f[4], r);
		s->comm = farr(l, e->f[5], r);
	}
}

static void on_switch(struct loader *l, struct evinfo *e, struct tep_record *r)
{
	struct sw_ev *s = vec_push(&tl(l->m, r->cpu)->sw);

	s->ts = r->ts;
	s->prev_comm = farr(l, e->f[0], r);
	s->prev_pid = fnum(e->f[1], r);
	s->prev_state = fnum(e->f[2], r);
	s->next_comm = farr(l, e->f[3], r);
	s->next_pid = fnum(e->f[4], r);
	l->m->has_switch = true;
}

static void on_wakeup(struct loader *l, struct evinfo *e, struct tep_record *r)
{
	struct wake_ev *w = vec_push(&tl(l->m, r->cpu)->wake);

	w->ts = r->ts;
	w->comm = farr(l, e->f[0], r);
	w->pid = fnum(e->f[1], r);
	w->target_cpu = fnum(e->f[2], r);
	l->m->has_wakeup = true;
}

static void on_sirq(struct loader *l, struct evinfo *e, struct tep_record *r, int what)
{
	struct sirq_ev *s = vec_push(&tl(l->m, r->cpu)->sirq);

	s->ts = r->ts;
	s->vec = fnum(e->f[0], r);
	s->what = what;
	s->pid = tep_data_pid(l->m->tep, r);
	l->m->has_softirq = true;
}

static void on_cpu_qs(struct loader *l, struct evinfo *e, struct tep_record *r)
{
	struct cqs_ev *q = vec_push(&tl(l->m, r->cpu)->cqs);

	q->ts = r->ts;
	q->how = fstr(l, e->f[0], r);
	q->qs = fnum(e->f[1], r);
	q->pid = tep_data_pid(l->m->tep, r);
	l->m->has_cpu_qs = true;
}

static void on_preempt_task(struct loader *l, struct evinfo *e, struct tep_record *r)
{
	struct pt_ev *p = vec_push(&l->m->pts);

	p->ts = r->ts;
	p->pid = fnum(e->f[0], r);
	p->comm = farr(l, e->f[1], r);
	p->get = !strcmp(fstr(l, e->f[2], r), "get");
	p->cntr_cpu = fnum(e->f[3], r);
	p->cpu = r->cpu;
	l->m->has_preempt_task = true;
}

/* --- rcu_barrier(), callback invocation passes (both RCUs) --------------- */

/*
 * rcu_barrier: the caller traces "Begin" and then "EarlyExit" or "End";
 * the barrier's callbacks trace "CB" or "LastCB" as they run.  Callers
 * are serialized by a mutex, but each traces "Begin" before taking it:
 * pair the caller's events by pid, and give each callback to the
 * earliest barrier still open.
 */
static void on_barrier(struct loader *l, struct evinfo *e, struct tep_record *r)
{
	struct model *m = l->m;
	int flavour = flavour_of(l, e, r), pid = tep_data_pid(m->tep, r);
	const char *what = fstr(l, e->f[1], r);
	struct barrier_ev *b;
	size_t i;

	if (!strcmp(what, "Begin")) {
		b = vec_push(&m->barriers);
		b->flavour = flavour;
		b->begin = r->ts;
		b->pid = pid;
		b->cpu = r->cpu;
		return;
	}
	for (i = 0; i < m->barriers.n; i++) {
		b = VEC_AT(&m->barriers, struct barrier_ev, i);
		if (b->flavour != flavour || b->end)
			continue;
		if (!strcmp(what, "CB") || !strcmp(what, "LastCB")) {
			b->ncb++;
			return;
		}
		if (b->pid == pid && (!strcmp(what, "End") || !strcmp(what, "EarlyExit"))) {
			b->end = r->ts;
			b->early = what[0] == 'E' && what[1] == 'a';
			return;
		}
	}
}

/* rcu_batch_start/end: one pass of callback invocation on a CPU. */
static void on_batch(struct loader *l, struct evinfo *e, struct tep_record *r, bool start)
{
	struct model *m = l->m;
	int flavour = flavour_of(l, e, r);
	struct pass_ev *p;
	size_t i;

	if (start) {
		p = vec_push(&m->passes);
		p->flavour = flavour;
		p->cpu = r->cpu;
		p->start = r->ts;
		p->qlen = fnum(e->f[1], r);
		p->invoked = -1;
		return;
	}
	for (i = m->passes.n; i-- > 0;) {
		p = VEC_AT(&m->passes, struct pass_ev, i);
		if (p->cpu == r->cpu && p->flavour == flavour) {
			if (p->invoked < 0) {
				p->end = r->ts;
				p->invoked = fnum(e->f[1], r);
			}
			return;
		}
	}
}

/* --- Tree RCU ------------------------------------------------------------ */

/*
 * Tree RCU has one grace period in flight at a time per RCU (rcu_preempt
 * or rcu_sched), numbered by its gp_seq: "start" and "end" carry the same
 * number (rcu_gp_init() traces after rcu_seq_start(), rcu_gp_cleanup()
 * before rcu_seq_end()).  A CPU's "cpustart" is when it noticed it, its
 * "cpuqs" when it passed a quiescent state (rcu_qs(), on that CPU), the
 * leaf rcu_quiescent_state_report with its bit in mask when the rcu_node
 * tree learned of it; an FQS scan reports an idle CPU itself (rcu_fqs
 * "dti").  rcu_fqs and cpuqs carry the CPU's own view of gp_seq, which can
 * lag: events are tied to the grace period in flight when they happen.
 */
static struct gp *tree_current(struct model *m, int flavour)
{
	size_t i;

	for (i = m->gps.n; i-- > 0;) {
		struct gp *g = model_gp(m, i);

		if (g->flavour == flavour)
			return g->end ? NULL : g;
	}
	return NULL;
}

/* The grace period @nr of @flavour, else the one in flight. */
static struct gp *tree_gp_of(struct model *m, int flavour, long nr)
{
	struct gp *g = model_find_gp(m, flavour, (unsigned long)nr);

	return g && !g->end ? g : tree_current(m, flavour);
}

static void tree_set_wait(struct gp *g, int cpu)
{
	const int bits = 8 * sizeof(unsigned long);

	if (cpu < 0 || cpu >= g->ncpu || gp_waits_for(g, cpu))
		return;
	g->waits[cpu / bits] |= 1UL << (cpu % bits);
	g->nwait++;
}

static void tree_start(struct loader *l, int flavour, long nr, struct tep_record *r)
{
	struct model *m = l->m;
	struct gp *g = vec_push(&m->gps);
	const int bits = 8 * sizeof(unsigned long);
	int cpu;

	g->flavour = flavour;
	g->owner = -1;
	g->start_cpu = r->cpu;
	g->end_cpu = -1;
	g->nr = (unsigned long)nr;
	g->start = r->ts;
	g->start_pid = tep_data_pid(m->tep, r);
	g->ncbs = -1;
	g->init_level = -1;
	/* Every CPU of the file until rcu_grace_period_init says which. */
	g->ncpu = l->file_cpus > m->ncpus ? l->file_cpus : m->ncpus;
	g->waits = xcalloc((g->ncpu + bits - 1) / bits + 1, sizeof(unsigned long));
	g->cpu = xcalloc(g->ncpu + 1, sizeof(struct gp_cpu));
	for (cpu = 0; cpu < g->ncpu; cpu++)
		tree_set_wait(g, cpu);
	hmap_put(m->gp_index, gp_key(g->flavour, g->nr), m->gps.n - 1);
}

static void tree_gp(struct loader *l, struct evinfo *e, struct tep_record *r)
{
	struct model *m = l->m;
	int flavour = flavour_of(l, e, r);
	long nr = fnum(e->f[1], r);
	const char *what = fstr(l, e->f[2], r);
	struct gp *g;
	struct gp_cpu *c;

	if (!strcmp(what, "start")) {
		tree_start(l, flavour, nr, r);
		return;
	}
	if (!strcmp(what, "newreq")) {	/* rcu_start_this_gp() asked for one */
		struct gp_req *q = vec_push(&m->gpreqs);

		q->ts = r->ts;
		q->flavour = flavour;
		q->cpu = r->cpu;
		return;
	}
	if (!strcmp(what, "end")) {
		g = model_find_gp(m, flavour, (unsigned long)nr);
		if (g && !g->end) {
			g->end = r->ts;
			g->end_cpu = r->cpu;
		}
		return;
	}
	g = tree_gp_of(m, flavour, nr);
	if (!g)
		return;
	if (!strcmp(what, "fqsstart")) {
		g->nfqs++;
		return;
	}
	c = gp_cpu(g, r->cpu);
	if (!c)
		return;
	if (!strcmp(what, "cpustart") && !c->noticed) {
		c->noticed = r->ts;
	} else if (!strcmp(what, "cpuqs") && !c->cpuqs && r->ts >= g->start) {
		struct cqs_ev *q = vec_push(&tl(m, r->cpu)->cqs);

		c->cpuqs = r->ts;
		q->ts = r->ts;
		q->how = what;
		q->qs = g->nr;
		q->pid = tep_data_pid(m->tep, r);
		m->has_cpu_qs = true;
	}
}

/*
 * The CPUs a grace period waits for: the qsmask of each leaf rcu_node
 * (the deepest level traced), bit i being CPU grplo + i.  The nodes are
 * traced breadth first, so the leaves come last.
 */
static void tree_init(struct loader *l, struct evinfo *e, struct tep_record *r)
{
	struct model *m = l->m;
	struct gp *g = tree_gp_of(m, flavour_of(l, e, r), fnum(e->f[1], r));
	int level = fnum(e->f[2], r), lo = fnum(e->f[3], r), hi = fnum(e->f[4], r), b;
	u64 mask = (u64)fnum(e->f[5], r);

	if (!g || level < g->init_level)
		return;
	if (level > g->init_level) {
		memset(g->waits, 0, ((g->ncpu + 8 * sizeof(unsigned long) - 1) /
				     (8 * sizeof(unsigned long)) + 1) * sizeof(unsigned long));
		g->nwait = 0;
		g->init_level = level;
	}
	for (b = 0; b < 64 && lo + b <= hi; b++) {
		if ((mask >> b) & 1)
			tree_set_wait(g, lo + b);
	}
}

/* A leaf's report: the CPUs of mask have their quiescent states counted. */
static void tree_report(struct loader *l, struct evinfo *e, struct tep_record *r)
{
	struct model *m = l->m;
	struct gp *g = tree_gp_of(m, flavour_of(l, e, r), fnum(e->f[1], r));
	u64 mask = (u64)fnum(e->f[2], r);
	int level = fnum(e->f[4], r), lo = fnum(e->f[5], r), b;

	if (!g)
		return;
	if (fnum(e->f[7], r))
		g->tasks = true;
	if (level != (g->init_level < 0 ? 0 : g->init_level))
		return;
	for (b = 0; b < 64; b++) {
		struct gp_cpu *c = gp_cpu(g, lo + b);

		if ((mask >> b) & 1 && c && !c->seen) {
			c->seen = r->ts;
			c->seen_how = "report";
		}
	}
}

static void tree_fqs(struct loader *l, struct evinfo *e, struct tep_record *r)
{
	struct gp *g = tree_current(l->m, flavour_of(l, e, r));
	struct gp_cpu *c = g ? gp_cpu(g, fnum(e->f[2], r)) : NULL;

	if (c && !c->fqs) {
		c->fqs = r->ts;
		c->fqs_how = fstr(l, e->f[3], r);
	}
}

/*
 * rcu_stall_warning names no grace period and no CPU: the one in flight,
 * its age, and the CPUs it still waits for (no report traced yet) are
 * what the model knows when it fires.
 */
static void tree_stall(struct loader *l, struct evinfo *e, struct tep_record *r)
{
	struct model *m = l->m;
	struct stall_ev *s = vec_push(&m->stalls);
	int flavour = flavour_of(l, e, r), cpu, first = -1, n = 0;
	struct gp *g = tree_current(m, flavour);

	s->ts = r->ts;
	s->flavour = flavour;
	s->cpu = r->cpu;
	s->kind = fstr(l, e->f[1], r);
	s->comm = "";
	s->holdout_cpu = s->pid = -1;
	s->ncbs = -1;
	if (!g)
		return;
	s->batch = g->nr;
	s->age_ms = (r->ts - g->start) / 1000000ULL;
	for (cpu = 0; cpu <= g->ncpu; cpu++) {
		bool held = cpu < g->ncpu && gp_waits_for(g, cpu) && !g->cpu[cpu].seen;

		if (held && first < 0)
			first = cpu;
		if (!held && first >= 0) {
			n += snprintf(s->holdouts + n, n < (int)sizeof(s->holdouts) ?
				      sizeof(s->holdouts) - n : 0,
				      first == cpu - 1 ? "%s%d" : "%s%d-%d", n ? "," : "", first,
				      cpu - 1);
			first = -1;
		}
	}
}

static void tree_call(struct loader *l, struct evinfo *e, struct tep_record *r)
{
	struct model *m = l->m;
	struct cb_call *c = vec_push(&m->calls);

	c->ts = r->ts;
	c->flavour = flavour_of(l, e, r);
	c->cpu = r->cpu;
	c->rec_cpu = r->cpu;
	c->rhp = fnum(e->f[1], r);
	c->func = func_name(l, fnum(e->f[2], r));
	lat_of(m, c->flavour, c->func)->queued++;
	hmap_put(m->pending, c->rhp, m->calls.n - 1);
}

/* Latency only when both ends are traced: Tree's event has no age. */
static void tree_invoke(struct loader *l, struct evinfo *e, struct tep_record *r)
{
	struct model *m = l->m;
	u64 rhp = fnum(e->f[1], r);
	long ci = hmap_get(m->pending, rhp);
	struct cb_call *c;

	if (ci < 0)
		return;
	c = VEC_AT(&m->calls, struct cb_call, ci);
	c->invoked = r->ts;
	hmap_del(m->pending, rhp);
	if (r->ts >= c->ts)
		*(double *)vec_push(&lat_of(m, c->flavour, c->func)->us) = (r->ts - c->ts) / 1000.0;
}

/*
 * A task preempted inside a reader (rcu_preempt_task, traced as it is
 * switched out, on its CPU) and leaving that reader
 * (rcu_unlock_preempted_task): the references of a preemptible RCU's
 * grace periods to tasks, as rcu_poll_preempt_task's are to its counter.
 */
static void tree_preempted(struct loader *l, struct evinfo *e, struct tep_record *r, bool get)
{
	struct model *m = l->m;
	struct pt_ev *p;
	const char *comm;
	size_t n;

	/*
	 * rcu_gp_init() traces the first task blocking a new grace period
	 * as "<flavour>-GPS" with this event: that task is still inside its
	 * reader, and it holds the grace period rather than leaving it.
	 */
	if (!get) {
		const char *how = fstr(l, e->f[0], r);

		n = strlen(how);
		if (n >= 4 && !strcmp(how + n - 4, "-GPS"))
			return;
	}
	m->has_preempt_task = true;
	p = vec_push(&m->pts);
	p->ts = r->ts;
	p->pid = fnum(e->f[get ? 1 : 2], r);
	comm = tep_data_comm_from_pid(m->tep, p->pid);
	p->comm = intern(m, comm ? comm : "?");
	p->get = get;
	p->cntr_cpu = -1;
	p->cpu = r->cpu;
}

static int on_record(struct tracecmd_input *h, struct tep_record *r, int cpu, void *data)
{
	struct loader *l = data;
	struct model *m = l->m;
	struct tep_event *ev;
	struct cpu_tl *t;
	int k;

	if (r->cpu < 0)
		return 0;
	t = tl(m, r->cpu);
	m->nevents++;
	t->nevents++;
	if (!m->first_ts || r->ts < m->first_ts)
		m->first_ts = r->ts;
	if (r->ts > m->last_ts)
		m->last_ts = r->ts;
	if (!t->first)
		t->first = r->ts;
	t->last = r->ts;
	if (r->missed_events) {
		u64 n = r->missed_events > 0 ? (u64)r->missed_events : 1;

		t->lost += n;
		m->lost += n;
		*(u64 *)vec_push(&t->lost_at) = r->ts;
	}
	ev = tep_find_event_by_record(m->tep, r);
	if (!ev)
		return 0;
	for (k = 0; k < EV_NKINDS; k++) {
		if (l->e[k].ev == ev)
			break;
	}
	if (!strcmp(ev->system, "rcu_poll") || (k >= EV_T_GP && k <= EV_T_STALL))
		m->nrcu_poll++;
	if (k >= EV_T_GP && !l->tree)
		k = EV_NKINDS;	/* rcu_callback of an rcu_poll kernel: its own events say more */
	switch (k) {
	case EV_SWITCH: on_switch(l, &l->e[k], r); break;
	case EV_WAKEUP: on_wakeup(l, &l->e[k], r); break;
	case EV_SIRQ_RAISE: on_sirq(l, &l->e[k], r, SIRQ_RAISE); break;
	case EV_SIRQ_ENTRY: on_sirq(l, &l->e[k], r, SIRQ_ENTRY); break;
	case EV_SIRQ_EXIT: on_sirq(l, &l->e[k], r, SIRQ_EXIT); break;
	case EV_START: on_start(l, &l->e[k], r); break;
	case EV_QS: on_qs(l, &l->e[k], r); break;
	case EV_END: on_end(l, &l->e[k], r); break;
	case EV_KICK: on_kick(l, &l->e[k], r); break;
	case EV_CALL: on_call(l, &l->e[k], r); break;
	case EV_INVOKE: on_invoke(l, &l->e[k], r); break;
	case EV_STALL: on_stall(l, &l->e[k], r, false); break;
	case EV_HOLDOUT: on_stall(l, &l->e[k], r, true); break;
	case EV_CPU_QS: on_cpu_qs(l, &l->e[k], r); break;
	case EV_PREEMPT_TASK: on_preempt_task(l, &l->e[k], r); break;
	case EV_BARRIER: on_barrier(l, &l->e[k], r); break;
	case EV_BSTART: on_batch(l, &l->e[k], r, true); break;
	case EV_BEND: on_batch(l, &l->e[k], r, false); break;
	case EV_T_GP: tree_gp(l, &l->e[k], r); break;
	case EV_T_INIT: tree_init(l, &l->e[k], r); break;
	case EV_T_REPORT: tree_report(l, &l->e[k], r); break;
	case EV_T_FQS: tree_fqs(l, &l->e[k], r); break;
	case EV_T_STALL: tree_stall(l, &l->e[k], r); break;
	case EV_T_CALL: tree_call(l, &l->e[k], r); break;
	case EV_T_INVOKE: tree_invoke(l, &l->e[k], r); break;
	case EV_T_PTASK: tree_preempted(l, &l->e[k], r, true); break;
	case EV_T_UNLOCK: tree_preempted(l, &l->e[k], r, false); break;
	default: break;
	}
	return 0;
}

/* "0-1,3" -> bitmap of a new grace period's waits. */
static void parse_list(struct gp *g, const char *list)
{
	const int bits = 8 * sizeof(unsigned long);
	const char *p;
	int top = -1, a, b, n;

	for (p = list; sscanf(p, "%d%n", &a, &n) == 1; ) {
		b = a;
		p += n;
		if (*p == '-' && sscanf(p + 1, "%d%n", &b, &n) == 1)
			p += 1 + n;
		if (b > top)
			top = b;
		if (*p != ',')
			break;
		p++;
	}
	g->ncpu = top + 1;
	g->waits = xcalloc((g->ncpu + bits - 1) / bits + 1, sizeof(unsigned long));
	g->cpu = xcalloc(g->ncpu + 1, sizeof(struct gp_cpu));
	for (p = list; sscanf(p, "%d%n", &a, &n) == 1; ) {
		b = a;
		p += n;
		if (*p == '-' && sscanf(p + 1, "%d%n", &b, &n) == 1)
			p += 1 + n;
		for (; a <= b && a >= 0; a++) {
			g->waits[a / bits] |= 1UL << (a % bits);
			g->nwait++;
		}
		if (*p != ',')
			break;
		p++;
	}
}

/*
 * A stall warning about a batch that started before the trace: the
 * warning says how old it is and which CPUs hold it, enough to explain
 * it.  (A flight recorder re-armed after a first catch sees the next
 * warning of the same batch this way.)
 */
static void add_stalled_gps(struct model *m)
{
	size_t i, n = m->stalls.n;

	for (i = 0; i < n; i++) {
		struct stall_ev *s = VEC_AT(&m->stalls, struct stall_ev, i);
		struct gp *g;

		if (s->holdout || !s->batch || model_find_gp(m, s->flavour, s->batch) ||
		    s->age_ms * 1000000ULL > s->ts)
			continue;
		g = vec_push(&m->gps);
		g->flavour = s->flavour;
		g->nr = s->batch;
		g->owner = m->flv[s->flavour].global ? -1 : s->cpu;
		g->start_cpu = g->owner >= 0 ? g->owner : 0;
		g->end_cpu = -1;
		g->start = s->ts - s->age_ms * 1000000ULL;
		g->ncbs = s->ncbs;
		g->start_pid = -1;
		g->before_trace = true;
		parse_list(g, s->holdouts);
		hmap_put(m->gp_index, gp_key(g->flavour, g->nr), m->gps.n - 1);
	}
}

/* The buffers of the file: [0] the top one, then the instances. */
static struct tracecmd_input *open_buffer(struct tracecmd_input *top, const char *file, int i)
{
	if (i == 0)
		return tracecmd_open(file, TRACECMD_FL_LOAD_NO_PLUGINS |
				     TRACECMD_FL_LOAD_NO_SYSTEM_PLUGINS);
	return tracecmd_buffer_instance_handle(top, i - 1);
}

static struct model *model_new(const char *file, const char *buffer, u64 slow_ns)
{
	struct model *m = xcalloc(1, sizeof(*m));

	m->file = file;
	m->buffer = xstrdup(buffer);
	m->slow_ns = slow_ns;
	m->strings = xcalloc(1, sizeof(*m->strings));
	m->gp_index = xcalloc(1, sizeof(*m->gp_index));
	m->pending = xcalloc(1, sizeof(*m->pending));
	m->gps.size = sizeof(struct gp);
	m->calls.size = sizeof(struct cb_call);
	m->lat.size = sizeof(struct func_lat);
	m->pts.size = sizeof(struct pt_ev);
	m->stalls.size = sizeof(struct stall_ev);
	m->delays.size = sizeof(struct delay);
	m->gpreqs.size = sizeof(struct gp_req);
	m->barriers.size = sizeof(struct barrier_ev);
	m->passes.size = sizeof(struct pass_ev);
	return m;
}

/* Read buffer @i of the file into a new model. */
static struct model *load_buffer(struct tracecmd_input *top, const char *file, int i,
				 u64 slow_ns)
{
	struct tracecmd_input *h = open_buffer(top, file, i);
	struct model *m;
	struct loader l = { 0 };

	if (!h)
		die("%s: cannot read buffer %d (truncated?): record it again", file, i);
	m = model_new(file, i ? tracecmd_buffer_instance_name(top, i - 1) : "", slow_ns);
	l.m = m;
	m->tep = tracecmd_get_tep(h);
	l.long_size = tep_get_long_size(m->tep);
	l.file_cpus = tep_get_cpus(m->tep);
	trace_seq_init(&l.seq);
	lookup_events(&l);
	/* No rcu_poll batches but Tree's grace periods: a Tree RCU kernel. */
	l.tree = !l.e[EV_START].ev && l.e[EV_T_GP].ev;
	m->tree = l.tree;
	if (tracecmd_iterate_events(h, NULL, 0, on_record, &l) < 0)
		die("%s: reading the events failed (truncated?): record it again", file);
	trace_seq_destroy(&l.seq);
	m->tep = NULL;		/* closed below: the model holds copies */
	tracecmd_close(h);
	return m;
}

/*
 * The buffer asked for, or the first one (top, then the instances in
 * file order) that has rcu_poll events: rcupoll writes them to the top
 * buffer, trace-cmd extract -B to an instance.
 */
struct model *model_load(const char *file, const char *buffer, u64 slow_ns)
{
	struct tracecmd_input *top;
	struct model *m = NULL;
	int i, n;

	if (access(file, R_OK))
		die("cannot read %s: %s", file, strerror(errno));
	tracecmd_set_loglevel(TEP_LOG_NONE);
	top = tracecmd_open_head(file, TRACECMD_FL_LOAD_NO_PLUGINS |
				 TRACECMD_FL_LOAD_NO_SYSTEM_PLUGINS);
	if (!top || tracecmd_init_data(top) < 0)
		die("%s is not a readable trace.dat (truncated or corrupt?): record it again", file);
	if (!tep_find_event_by_name(tracecmd_get_tep(top), "rcu_poll", "rcu_poll_batch_start") &&
	    !tep_find_event_by_name(tracecmd_get_tep(top), "rcu", "rcu_grace_period"))
		die("%s has no rcu_poll or Tree RCU (rcu:rcu_grace_period) event formats: record it with 'rcupoll record' on a kernel with CONFIG_RCU_TRACE",
		    file);
	n = tracecmd_buffer_instances(top) + 1;
	for (i = 0; i < n; i++) {
		const char *name = i ? tracecmd_buffer_instance_name(top, i - 1) : "";

		if (buffer && strcmp(buffer, name) && !(!i && !strcmp(buffer, "top")))
			continue;
		m = load_buffer(top, file, i, slow_ns);
		if (buffer || m->nrcu_poll)
			break;
		model_free(m);
		m = NULL;
	}
	tracecmd_close(top);
	if (m)
		add_stalled_gps(m);
	if (!m && buffer)
		die("%s has no buffer '%s'", file, buffer);
	if (!m)
		die("%s has no rcu_poll or Tree RCU grace-period events: nothing happened to RCU while it was recorded?",
		    file);
	explain_all(m);
	return m;
}

void model_free(struct model *m)
{
	size_t i;
	int c;

	for (i = 0; i < m->gps.n; i++) {
		free(model_gp(m, i)->waits);
		free(model_gp(m, i)->cpu);
	}
	for (i = 0; i < m->lat.n; i++)
		vec_free(&VEC_AT(&m->lat, struct func_lat, i)->us);
	for (c = 0; c < m->ncpus; c++) {
		vec_free(&m->cpus[c].sw);
		vec_free(&m->cpus[c].sirq);
		vec_free(&m->cpus[c].cqs);
		vec_free(&m->cpus[c].wake);
		vec_free(&m->cpus[c].lost_at);
	}
	free(m->cpus);
	vec_free(&m->gps);
	vec_free(&m->calls);
	vec_free(&m->lat);
	vec_free(&m->pts);
	vec_free(&m->stalls);
	vec_free(&m->delays);
	vec_free(&m->gpreqs);
	vec_free(&m->barriers);
	vec_free(&m->passes);
	for (i = 0; i < m->strings->cap; i++)
		free(m->strings->slot[i]);
	free(m->strings->slot);
	free(m->strings);
	hmap_free(m->gp_index);
	hmap_free(m->pending);
	free((char *)m->buffer);
	free(m);
}

int model_flavour_by_name(struct model *m, const char *name)
{
	int i;

	for (i = 0; i < m->nflv; i++) {
		if (!strcmp(m->flv[i].name, name))
			return i;
	}
	return -1;
}

u64 gp_duration(struct model *m, struct gp *g)
{
	return (g->end ? g->end : m->last_ts) - g->start;
}

/* --- timeline queries --------------------------------------------------- */

/* Index of the first element with ts > @ts in a vector sorted by time. */
static size_t upper(struct vec *a, size_t stride_off, u64 ts)
{
	size_t lo = 0, hi = a->n;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		u64 t = *(u64 *)((char *)a->v + mid * a->size + stride_off);

		if (t <= ts)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

struct sw_ev *tl_switch_before(struct cpu_tl *t, u64 ts)
{
	size_t i = upper(&t->sw, 0, ts);

	return i ? VEC_AT(&t->sw, struct sw_ev, i - 1) : NULL;
}

struct sw_ev *tl_switch_after(struct cpu_tl *t, u64 ts)
{
	size_t i = upper(&t->sw, 0, ts);

	return i < t->sw.n ? VEC_AT(&t->sw, struct sw_ev, i) : NULL;
}

struct cqs_ev *tl_cqs_after(struct cpu_tl *t, u64 ts)
{
	size_t i = upper(&t->cqs, 0, ts);

	return i < t->cqs.n ? VEC_AT(&t->cqs, struct cqs_ev, i) : NULL;
}

/* Softirq entries (of @vec, or any if -1) in (from, to]. */
unsigned long tl_softirqs(struct cpu_tl *t, u64 from, u64 to, int vec)
{
	size_t i;
	unsigned long n = 0;

	for (i = upper(&t->sirq, 0, from); i < t->sirq.n; i++) {
		struct sirq_ev *s = VEC_AT(&t->sirq, struct sirq_ev, i);

		if (s->ts > to)
			break;
		if (s->what == SIRQ_ENTRY && (vec < 0 || s->vec == vec))
			n++;
	}
	return n;
}

u64 tl_lost_in(struct cpu_tl *t, u64 from, u64 to)
{
	size_t i;
	u64 n = 0;

	for (i = upper(&t->lost_at, 0, from); i < t->lost_at.n; i++) {
		if (*VEC_AT(&t->lost_at, u64, i) > to)
			break;
		n++;
	}
	return n;
}

void tl_task_at(struct model *m, int cpu, u64 ts, int *pid, const char **comm, u64 *since)
{
	struct cpu_tl *t = cpu >= 0 && cpu < m->ncpus ? &m->cpus[cpu] : NULL;
	struct sw_ev *s = t ? tl_switch_before(t, ts) : NULL;

	*pid = -1;
	*comm = NULL;
	*since = 0;
	if (s) {
		*pid = s->next_pid;
		*comm = s->next_comm;
		*since = s->ts;
	} else if (t && (s = tl_switch_after(t, ts))) {
		/* It was running when the trace began. */
		*pid = s->prev_pid;
		*comm = s->prev_comm;
	}
}

const char *gp_noun(struct model *m)
{
	return m->tree ? "grace period" : "batch";
}

const char *gp_nouns(struct model *m)
{
	return m->tree ? "grace periods" : "batches";
}

const char *fmt_ts(u64 ts, char *buf)
{
	/* Rounded to the microsecond, as trace-cmd report prints it. */
	u64 us = (ts + 500) / 1000;

	snprintf(buf, TS_BUF, "%llu.%06llu", us / 1000000ULL, us % 1000000ULL);
	return buf;
}

/* --- callbacks still waiting -------------------------------------------- */

static struct gp *in_flight_on(struct model *m, int flavour, int cpu)
{
	size_t i;

	for (i = m->gps.n; i-- > 0;) {
		struct gp *g = model_gp(m, i);

		if (g->flavour == flavour && !g->end && (g->owner == cpu || g->owner < 0))
			return g;
	}
	return NULL;
}

/*
 * Group the callbacks queued and never seen invoked by flavour, CPU,
 * batch (queued before the batch in flight on that queue started: in it;
 * after: behind it) and function.
 */
size_t model_waiting(struct model *m, struct wait_group **out)
{
	struct vec groups = VEC_INIT(struct wait_group);
	size_t i, j;

	for (i = 0; i < m->calls.n; i++) {
		struct cb_call *c = VEC_AT(&m->calls, struct cb_call, i);
		int cpu = m->flv[c->flavour].global ? -1 : c->cpu;
		struct gp *g;
		unsigned long batch;
		struct wait_group *w = NULL;

		if (c->invoked || hmap_get(m->pending, c->rhp) != (long)i)
			continue;
		g = in_flight_on(m, c->flavour, cpu);
		batch = g && c->ts <= g->start ? g->nr : 0;
		for (j = 0; j < groups.n; j++) {
			w = VEC_AT(&groups, struct wait_group, j);
			if (w->flavour == c->flavour && w->cpu == cpu && w->batch == batch &&
			    w->func == c->func)
				break;
			w = NULL;
		}
		if (!w) {
			w = vec_push(&groups);
			w->flavour = c->flavour;
			w->cpu = cpu;
			w->batch = batch;
			w->func = c->func;
			w->oldest = c->ts;
		}
		w->count++;
	}
	*out = groups.v;
	return groups.n;
}
