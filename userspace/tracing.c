// SPDX-License-Identifier: GPL-2.0
/*
 * rcupoll: the tracefs instance of one record or flight run.
 *
 * Each run gets an instance of its own, "rcupoll-<kind>-<pid>", so two
 * runs never share one and the top-level instance (what "trace-cmd start"
 * or a user's current_tracer set up) is never written: rcupoll does not
 * call trace-cmd to record or extract (trace-cmd 3.1.6's extract always
 * includes the top instance and, without -k, resets it).  Nothing is
 * mounted either: tracefs must be mounted already.
 */

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <tracefs.h>

#include "rcupoll.h"

/*
 * The events a batch needs to be explained: rcu_poll is required, or on a
 * Tree RCU kernel (no rcu_poll events) rcu is.
 */
bool rp_tree_kernel;

const struct rp_event rp_events[] = {
	{ "rcu_poll", NULL, true },
	{ "rcu", NULL, false },
	{ "sched", "sched_switch", false },
	{ "sched", "sched_wakeup", false },
	{ "irq", "softirq_raise", false },
	{ "irq", "softirq_entry", false },
	{ "irq", "softirq_exit", false },
};
const size_t rp_nevents = sizeof(rp_events) / sizeof(rp_events[0]);

const char *tracing_dir_checked(void)
{
	const char *dir = NULL;

	/* false: libtracefs would otherwise mount tracefs, even debugfs. */
	if (tracefs_tracing_dir_is_mounted(false, &dir) != 1 || !dir)
		die("tracefs is not mounted: mount -t tracefs nodev /sys/kernel/tracing");
	return dir;
}

void check_root(void)
{
	if (geteuid())
		die("must run as root (tracefs and debugfs are root-only)");
}

void check_rcu_poll_events(const char *tdir, bool tree_ok)
{
	char *path = xasprintf("%s/events/rcu_poll", tdir);
	char *tree = xasprintf("%s/events/rcu/rcu_grace_period", tdir);

	rp_tree_kernel = access(path, F_OK) && !access(tree, F_OK);
	if (rp_tree_kernel && !tree_ok)
		die("this kernel runs Tree RCU (%s, no %s): %s needs rcu_poll's events; use rcupoll record",
		    tree, path, rcupoll_cmd);
	if (access(path, F_OK) && !rp_tree_kernel)
		die("this kernel has neither rcu_poll's trace events (%s) nor Tree RCU's (%s): boot a kernel with CONFIG_RCU_TRACE",
		    path, tree);
	free(path);
	free(tree);
}

static int count_cpus(struct tracefs_instance *inst)
{
	int n = 0;

	for (;;) {
		char *f = xasprintf("per_cpu/cpu%d", n);
		bool there = tracefs_dir_exists(inst, f);

		free(f);
		if (!there)
			return n;
		n++;
	}
}

int instance_write(struct rp_instance *ri, const char *file, const char *val)
{
	return tracefs_instance_file_write(ri->inst, file, val) < 0 ? -1 : 0;
}

/* Stop tracing and remove the instance: its buffers go with it. */
static void instance_cleanup(void *arg)
{
	struct rp_instance *ri = arg;

	tracefs_trace_off(ri->inst);
	tracefs_event_disable(ri->inst, NULL, NULL);
	if (tracefs_instance_destroy(ri->inst) < 0)
		warn("could not remove tracefs instance %s: rmdir %s/instances/%s", ri->name,
		     tracefs_tracing_dir(), ri->name);
	tracefs_instance_free(ri->inst);
	free(ri->name);
	free(ri);
}

static void enable_events(struct rp_instance *ri)
{
	size_t i;

	for (i = 0; i < rp_nevents; i++) {
		const struct rp_event *e = &rp_events[i];
		bool poll = !strcmp(e->system, "rcu_poll");
		bool required = rp_tree_kernel ? !strcmp(e->system, "rcu") : e->required;

		if (poll && rp_tree_kernel)
			continue;
		if (tracefs_event_enable(ri->inst, e->system, e->name) < 0 && required)
			die("cannot enable the %s events in instance %s", e->system, ri->name);
	}
	/*
	 * Tree RCU: rcu_utilization and rcu_dyntick fire at every context
	 * switch and idle transition, two thirds of the events of an idle
	 * guest, and nothing read from a trace uses them.
	 */
	if (rp_tree_kernel) {
		tracefs_event_disable(ri->inst, "rcu", "rcu_utilization");
		tracefs_event_disable(ri->inst, "rcu", "rcu_dyntick");
	}
}

struct rp_instance *instance_create(const char *what, unsigned long kb, bool overwrite)
{
	struct rp_instance *ri = xcalloc(1, sizeof(*ri));

	ri->name = xasprintf("rcupoll-%s-%d", what, (int)getpid());
	ri->inst = tracefs_instance_create(ri->name);
	if (!ri->inst)
		die("cannot create tracefs instance %s: %s", ri->name, strerror(errno));
	/* Not ours (a run killed with -9 whose pid came back): leave it alone. */
	if (!tracefs_instance_is_new(ri->inst))
		die("tracefs instance %s already exists (left by a killed run?): remove it with rmdir %s/instances/%s",
		    ri->name, tracefs_tracing_dir(), ri->name);
	ri->cleanup = cleanup_push(instance_cleanup, ri);
	tracefs_trace_off(ri->inst);
	if (tracefs_instance_set_buffer_size(ri->inst, kb, -1) < 0)
		die("cannot set the buffer of instance %s to %lu KB per CPU", ri->name, kb);
	if (instance_write(ri, "options/overwrite", overwrite ? "1" : "0"))
		die("cannot set options/overwrite of instance %s", ri->name);
	tracefs_instance_file_clear(ri->inst, "trace");
	enable_events(ri);
	ri->ncpus = count_cpus(ri->inst);
	if (ri->ncpus < 1)
		die("instance %s has no per_cpu buffers", ri->name);
	check_interrupted();
	return ri;
}

void instance_destroy(struct rp_instance *ri)
{
	cleanup_pop(ri->cleanup, true);
}

/* The value after @key in a per_cpu stats file, 0 if absent. */
static u64 stat_val(const char *buf, const char *key)
{
	const char *p = buf;
	size_t kl = strlen(key);

	while ((p = strstr(p, key))) {
		if (p == buf || p[-1] == '\n')
			return strtoull(p + kl, NULL, 10);
		p += kl;
	}
	return 0;
}

/*
 * Sum the per-CPU ring buffer statistics; @text (if wanted) gets them
 * as trace-cmd stores them in a trace.dat ("CPU: N" then the file).
 */
void instance_stats(struct rp_instance *ri, struct rb_stats *tot, char **text)
{
	char *all = NULL;
	size_t len = 0;
	int cpu;

	memset(tot, 0, sizeof(*tot));
	for (cpu = 0; cpu < ri->ncpus; cpu++) {
		char *f = xasprintf("per_cpu/cpu%d/stats", cpu);
		char *buf = tracefs_instance_file_read(ri->inst, f, NULL);

		free(f);
		if (!buf)
			continue;
		tot->entries += stat_val(buf, "entries: ");
		tot->overrun += stat_val(buf, "overrun: ");
		tot->commit_overrun += stat_val(buf, "commit overrun: ");
		tot->dropped += stat_val(buf, "dropped events: ");
		tot->read += stat_val(buf, "read events: ");
		if (text) {
			char *s = xasprintf("CPU: %d\n%s", cpu, buf);
			size_t sl = strlen(s) + 1;

			all = xrealloc(all, len + sl);
			memcpy(all + len, s, sl);	/* NUL-separated, one per CPU */
			len += sl;
			free(s);
		}
		free(buf);
	}
	if (text) {
		all = xrealloc(all, len + 1);
		all[len] = '\0';		/* an empty string ends the list */
		*text = all;
	}
}
