// SPDX-License-Identifier: GPL-2.0+
/*
 * The scenarios of test_rcu_poll that need only the RCU API, as a module
 * built out of tree against any kernel, so that the same walkthrough runs
 * on rcu_poll and on Tree RCU.  Driven through /sys/kernel/debug/rcu_scenario/:
 *
 *   queue        "COUNT CPU"    call_rcu() COUNT callbacks on CPU
 *   hold         "CPU MS"       spin MS ms on CPU with preemption off
 *   hold_irqoff  "CPU MS"       the same with interrupts off, after
 *                               queueing one callback there
 *   preempt_reader "CPU MS"     a reader (rcu_read_lock()) on CPU, preempted
 *                               by a SCHED_FIFO hog there for MS ms; with
 *                               a non-preemptible RCU it holds the CPU
 *                               MS ms instead, the hog waiting
 *   flood        "CPU RATE MS"  call_rcu() RATE callbacks/s for MS ms
 *   fifo_hog     "CPU RATE MS"  a SCHED_FIFO thread busy on CPU for MS ms
 *                               (preemption and interrupts on) that
 *                               starves the CPU's softirqs (see below)
 *                               while it queues RATE callbacks/s there
 *   sync         "CPU MS"       synchronize_rcu() every 10 ms for MS ms
 *   idle_call    "CPU"          call_rcu() once from CPU's idle task with
 *                               interrupts off (a probe on the cpu_idle
 *                               tracepoint), and wait up to 5 s for the
 *                               callback; stats: idle_* (see below);
 *                               rcu_poll only
 *   barrier      "1"            rcu_barrier()
 *   frozen       "CPU MS"       every CPU with interrupts off for MS ms
 *                               (jiffies stop, as in kgdb or a paused
 *                               VM) while CPU holds a reader that a grace
 *                               period waits for, then
 *                               rcu_cpu_stall_reset() with those stale
 *                               jiffies, as kgdb calls it, and the reader
 *                               300 ms more; synchronous; stats: fz_*;
 *                               rcu_poll only (Tree RCU does not export
 *                               rcu_cpu_stall_reset())
 *   barrier_online "CPU"        rcu_barrier() while offline CPU comes
 *                               online, with a callback it queued from
 *                               a STARTING callback; stats: bo_* (see
 *                               below); needs 3 CPUs
 *   stats        (read)         callbacks queued, invoked, pending
 *
 * The threads are named as test_rcu_poll names them (rcupoll_hold/CPU,
 * ...), so a trace of either kernel names the same task.  A malformed
 * value, a count or time out of range, or an offline or nonexistent CPU
 * gets -EINVAL and starts nothing.  Scenarios that run in a thread return
 * at once; the threads hold a module reference, so the module cannot go
 * away under them, and unloading waits for every callback with
 * rcu_barrier().
 */
#include <linux/atomic.h>
#include <linux/cpu.h>
#include <linux/cpuhotplug.h>
#include <linux/debugfs.h>
#include <linux/delay.h>
#include <linux/interrupt.h>
#include <linux/kthread.h>
#include <linux/module.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/timekeeping.h>
#include <linux/tracepoint.h>
#include <linux/uaccess.h>
#include <linux/workqueue.h>

MODULE_LICENSE("GPL");
MODULE_AUTHOR("rcu_poll dev <dev@rcu-poll.invalid>");
MODULE_DESCRIPTION("RCU scenarios for any RCU: hold a CPU in a reader, flood callbacks, keep grace periods coming");

#define SCEN_MAX_COUNT	1000000UL
#define SCEN_MAX_MS	60000UL
#define SCEN_MAX_RATE	10000000UL

static atomic_long_t n_queued, n_invoked, n_alloc_failed, n_syncs;
static atomic_t n_threads;
static struct dentry *scen_dir;

static void scen_cb(struct rcu_head *rhp)
{
	kfree(rhp);
	atomic_long_inc(&n_invoked);
}

/* Queue one callback; false if out of memory. */
static bool scen_queue_one(void)
{
	struct rcu_head *rhp = kmalloc(sizeof(*rhp), GFP_KERNEL | __GFP_NOWARN);

	if (!rhp) {
		atomic_long_inc(&n_alloc_failed);
		return false;
	}
	atomic_long_inc(&n_queued);
	call_rcu(rhp, scen_cb);
	return true;
}

/*
 * Parse exactly @n unsigned numbers separated by single spaces, with an
 * optional trailing newline, from a user buffer.
 */
static int scen_parse(const char __user *ubuf, size_t count, unsigned long *val, int n)
{
	char buf[64], *p, *tok;
	int i;

	if (!count || count >= sizeof(buf))
		return -EINVAL;
	if (copy_from_user(buf, ubuf, count))
		return -EFAULT;
	buf[count] = '\0';
	if (buf[count - 1] == '\n')
		buf[count - 1] = '\0';
	p = buf;
	for (i = 0; i < n; i++) {
		tok = strsep(&p, " ");
		if (!tok || !*tok || kstrtoul(tok, 10, &val[i]))
			return -EINVAL;
	}
	return p ? -EINVAL : 0;
}

static bool scen_range(unsigned long v, unsigned long lo, unsigned long hi)
{
	return v >= lo && v <= hi;
}

/* --- queue ------------------------------------------------------------ */

static long scen_queue_fn(void *arg)
{
	unsigned long i, count = *(unsigned long *)arg;

	for (i = 0; i < count; i++) {
		if (!scen_queue_one())
			return -ENOMEM;
		if (!(i % 1024))
			cond_resched();
	}
	return 0;
}

/* Queue COUNT callbacks on CPU, synchronously: they are queued on return. */
static ssize_t scen_queue_write(struct file *file, const char __user *ubuf, size_t count,
				loff_t *ppos)
{
	unsigned long v[2];
	long ret = scen_parse(ubuf, count, v, 2);

	if (ret)
		return ret;
	if (!scen_range(v[0], 1, SCEN_MAX_COUNT) || v[1] >= nr_cpu_ids)
		return -EINVAL;
	ret = work_on_cpu_safe(v[1], scen_queue_fn, &v[0]);
	if (ret == -ENODEV)
		return -EINVAL;
	return ret ? ret : count;
}

/* --- threads: hold, hold_irqoff, flood, fifo_hog, sync ----------------- */

struct scen_thread {
	int (*fn)(struct scen_thread *st);
	unsigned long ms, rate;
	bool irqoff;
	struct tasklet_struct tasklet;	/* fifo_hog */
	bool tasklet_ran;
};

/* Spin until @end (ktime_get_mono_fast_ns()), without sleeping. */
static void scen_spin_until(u64 end)
{
	while (ktime_get_mono_fast_ns() < end)
		cpu_relax();
}

/*
 * hold, hold_irqoff: a reader that will not end for ms milliseconds
 * (preemption off is a reader of every RCU flavour since 4.20).  With
 * interrupts off, it first queues one callback on its CPU, so that RCU
 * has work held up by this CPU even if nothing else gets queued.
 */
static int scen_hold_fn(struct scen_thread *st)
{
	unsigned long flags = 0;
	u64 end;

	if (st->irqoff) {
		struct rcu_head *rhp = kmalloc(sizeof(*rhp), GFP_KERNEL | __GFP_NOWARN);

		if (!rhp)
			atomic_long_inc(&n_alloc_failed);
		local_irq_save(flags);
		if (rhp) {
			atomic_long_inc(&n_queued);
			call_rcu(rhp, scen_cb);
		}
	} else {
		preempt_disable();
	}
	end = ktime_get_mono_fast_ns() + st->ms * NSEC_PER_MSEC;
	scen_spin_until(end);
	if (st->irqoff)
		local_irq_restore(flags);
	else
		preempt_enable();
	return 0;
}

/*
 * preempt_reader, the reader: an RCU reader for ms milliseconds, spinning
 * with preemption enabled, so that a preemptible RCU lets the hog preempt
 * it inside the reader (it then blocks grace periods as a preempted
 * reader), and a non-preemptible one keeps the hog off the CPU.
 */
static int scen_reader_fn(struct scen_thread *st)
{
	u64 end = ktime_get_mono_fast_ns() + st->ms * NSEC_PER_MSEC;

	rcu_read_lock();
	scen_spin_until(end);
	rcu_read_unlock();
	return 0;
}

/*
 * preempt_reader, the hog: a SCHED_FIFO thread on the reader's CPU that
 * keeps it off the CPU for ms milliseconds, calling schedule() so that
 * the CPU itself keeps passing quiescent states.
 */
static int scen_hog_fn(struct scen_thread *st)
{
	u64 end = ktime_get_mono_fast_ns() + st->ms * NSEC_PER_MSEC;

	sched_set_fifo(current);
	while (ktime_get_mono_fast_ns() < end)
		schedule();
	return 0;
}

/*
 * Queue rate callbacks a second from @start for ms milliseconds, in 1 ms
 * steps; false if out of memory (then it stops at once).
 */
static bool scen_queue_paced(unsigned long rate, unsigned long ms, u64 start)
{
	unsigned long queued = 0, i;

	for (i = 1; i <= ms; i++) {
		unsigned long want = div_u64((u64)rate * i, MSEC_PER_SEC);

		while (queued < want && scen_queue_one())
			queued++;
		if (queued < want)
			return false;
		scen_spin_until(start + i * NSEC_PER_MSEC);
		cond_resched();
	}
	return true;
}

/* flood: rate callbacks per second for ms milliseconds. */
static int scen_flood_fn(struct scen_thread *st)
{
	scen_queue_paced(st->rate, st->ms, ktime_get_mono_fast_ns());
	return 0;
}

static void scen_tasklet_fn(struct tasklet_struct *t)
{
	struct scen_thread *st = from_tasklet(st, t, tasklet);

	WRITE_ONCE(st->tasklet_ran, true);
}

/*
 * fifo_hog: a real-time task that never sleeps, as a busy SCHED_FIFO
 * thread of a real-time application.  Softirqs raised outside an
 * interrupt wake ksoftirqd; while ksoftirqd is runnable, an interrupt's
 * exit leaves it the softirqs (but HI and TASKLET: 6.1's
 * ksoftirqd_running()), and the hog keeps it off the CPU.  So schedule
 * a tasklet (which wakes ksoftirqd) and wait for it to run at an
 * interrupt's exit: from then on RCU_SOFTIRQ waits until the hog ends
 * (or RT throttling lets ksoftirqd in).  Meanwhile queue callbacks on
 * the CPU, for RCU to be starved of, and spin to the end.
 */
static int scen_fifo_fn(struct scen_thread *st)
{
	u64 start, end;

	sched_set_fifo(current);
	tasklet_setup(&st->tasklet, scen_tasklet_fn);
	tasklet_schedule(&st->tasklet);
	start = ktime_get_mono_fast_ns();
	end = start + st->ms * NSEC_PER_MSEC;
	while (!READ_ONCE(st->tasklet_ran) && ktime_get_mono_fast_ns() < end)
		cpu_relax();
	scen_queue_paced(st->rate, st->ms, start);
	scen_spin_until(end);
	/* Not run if no interrupt came: sleeps until ksoftirqd ran it. */
	tasklet_kill(&st->tasklet);
	return 0;
}

/* sync: a grace period every 10 ms for ms milliseconds. */
static int scen_sync_fn(struct scen_thread *st)
{
	unsigned long end = jiffies + msecs_to_jiffies(st->ms);

	while (time_before(jiffies, end)) {
		synchronize_rcu();
		atomic_long_inc(&n_syncs);
		usleep_range(10000, 11000);
	}
	return 0;
}

/* Every scenario thread: run it, free its state, drop the module reference. */
static int scen_thread_fn(void *arg)
{
	struct scen_thread *st = arg;

	st->fn(st);
	kfree(st);
	atomic_dec(&n_threads);
	module_put_and_kthread_exit(0);
}

/* Start a thread running @st->fn, bound to @cpu, named @name/@cpu; owns @st. */
static int scen_start(struct scen_thread *st, unsigned long cpu, const char *name)
{
	struct task_struct *t;

	if (!try_module_get(THIS_MODULE))
		return -ENODEV;
	t = kthread_create(scen_thread_fn, st, "%s/%lu", name, cpu);
	if (IS_ERR(t)) {
		module_put(THIS_MODULE);
		return PTR_ERR(t);
	}
	kthread_bind(t, cpu);
	atomic_inc(&n_threads);
	wake_up_process(t);
	return 0;
}

/*
 * Parse "CPU MS" (or "CPU RATE MS") and start the thread @name/CPU, and
 * with @fn2 a second one, @name2/CPU, on the same CPU with the same times.
 */
static ssize_t scen_threads_write(const char __user *ubuf, size_t count,
				  int (*fn)(struct scen_thread *), const char *name,
				  int (*fn2)(struct scen_thread *), const char *name2,
				  bool irqoff, bool rate)
{
	struct scen_thread *st = kzalloc(sizeof(*st), GFP_KERNEL);
	struct scen_thread *st2 = fn2 ? kzalloc(sizeof(*st2), GFP_KERNEL) : NULL;
	unsigned long v[3];
	int ret = -ENOMEM;

	if (!st || (fn2 && !st2))
		goto out_free;
	st->fn = fn;
	st->irqoff = irqoff;
	ret = scen_parse(ubuf, count, v, rate ? 3 : 2);
	if (ret)
		goto out_free;
	st->ms = v[rate ? 2 : 1];
	st->rate = rate ? v[1] : 0;
	ret = -EINVAL;
	if (!scen_range(st->ms, 1, SCEN_MAX_MS) ||
	    (rate && !scen_range(st->rate, 1, SCEN_MAX_RATE)))
		goto out_free;
	if (st2) {
		*st2 = *st;
		st2->fn = fn2;
	}
	cpus_read_lock();
	if (v[0] >= nr_cpu_ids || !cpu_online(v[0]))
		goto out_unlock;
	ret = scen_start(st, v[0], name);
	if (ret)
		goto out_unlock;
	st = NULL;
	if (st2) {
		/* Let the reader enter its read-side critical section first. */
		msleep(20);
		ret = scen_start(st2, v[0], name2);
		if (ret)
			goto out_unlock;
	}
	cpus_read_unlock();
	return count;
out_unlock:
	cpus_read_unlock();
out_free:
	kfree(st);
	kfree(st2);
	return ret;
}

static ssize_t scen_thread_write(const char __user *ubuf, size_t count,
				 int (*fn)(struct scen_thread *), const char *name,
				 bool irqoff, bool rate)
{
	return scen_threads_write(ubuf, count, fn, name, NULL, NULL, irqoff, rate);
}

static ssize_t scen_hold_write(struct file *file, const char __user *ubuf, size_t count,
			       loff_t *ppos)
{
	return scen_thread_write(ubuf, count, scen_hold_fn, "rcupoll_hold", false, false);
}

static ssize_t scen_hold_irqoff_write(struct file *file, const char __user *ubuf,
				      size_t count, loff_t *ppos)
{
	return scen_thread_write(ubuf, count, scen_hold_fn, "rcupoll_irqs", true, false);
}

static ssize_t scen_preempt_reader_write(struct file *file, const char __user *ubuf,
					 size_t count, loff_t *ppos)
{
	return scen_threads_write(ubuf, count, scen_reader_fn, "rcupoll_read", scen_hog_fn,
				  "rcupoll_hog", false, false);
}

static ssize_t scen_flood_write(struct file *file, const char __user *ubuf, size_t count,
				loff_t *ppos)
{
	return scen_thread_write(ubuf, count, scen_flood_fn, "rcupoll_flood", false, true);
}

static ssize_t scen_fifo_hog_write(struct file *file, const char __user *ubuf,
				   size_t count, loff_t *ppos)
{
	return scen_thread_write(ubuf, count, scen_fifo_fn, "rcupoll_fifo", false, true);
}

static ssize_t scen_sync_write(struct file *file, const char __user *ubuf, size_t count,
			       loff_t *ppos)
{
	return scen_thread_write(ubuf, count, scen_sync_fn, "rcupoll_sync", false, false);
}

/* --- idle_call ---------------------------------------------------------- */

/*
 * call_rcu() from the idle task with interrupts off, as a BPF program on
 * the cpu_idle tracepoint may do: the idle loop may have stopped the
 * tick already.  A probe on cpu_idle (idle entry, on the chosen CPU)
 * queues one callback; a probe on x86's irq_work_entry notes whether an
 * irq_work ran on that CPU between the queueing and the callback (how
 * rcu_poll gets its softirq raised from there), and one on rcu_poll's
 * rcu_poll_call_rcu whether the callback was the first on its CPU with
 * no batch in flight (only then does the CPU's tick not already have
 * work to do).  One at a time; the rcu_head is static, so a callback not
 * invoked yet refuses another.  rcu_poll only (the tracepoints).
 */
#define IDLE_EXIT	((unsigned int)-1)	/* cpu_idle's PWR_EVENT_EXIT */
#define IDLE_OFF	0
#define IDLE_ARMED	1
#define IDLE_QUEUED	2
#define IDLE_DONE	3

static DEFINE_MUTEX(idle_mutex);
static struct rcu_head idle_head;
static atomic_t idle_state = ATOMIC_INIT(IDLE_OFF);
static int idle_call_cpu = -1;
static u64 idle_armed_ns, idle_queued_ns, idle_irq_work_ns, idle_invoked_ns;
static int idle_first = -1;
static DECLARE_COMPLETION(idle_done);
static struct tracepoint *idle_tp, *irq_work_tp, *call_tp;

static void idle_cb(struct rcu_head *rhp)
{
	WRITE_ONCE(idle_invoked_ns, ktime_get_mono_fast_ns());
	atomic_set(&idle_state, IDLE_DONE);
	complete(&idle_done);
}

static void idle_probe(void *data, unsigned int state, unsigned int cpu)
{
	if (state == IDLE_EXIT || cpu != READ_ONCE(idle_call_cpu) ||
	    atomic_cmpxchg(&idle_state, IDLE_ARMED, IDLE_QUEUED) != IDLE_ARMED)
		return;
	WRITE_ONCE(idle_queued_ns, ktime_get_mono_fast_ns());
	call_rcu(&idle_head, idle_cb);
}

static void irq_work_probe(void *data, int vector)
{
	if (smp_processor_id() == READ_ONCE(idle_call_cpu) &&
	    atomic_read(&idle_state) == IDLE_QUEUED && !READ_ONCE(idle_irq_work_ns))
		WRITE_ONCE(idle_irq_work_ns, ktime_get_mono_fast_ns());
}

static void call_probe(void *data, const char *flavour, int cpu, struct rcu_head *rhp,
		       long nxt, long cur, unsigned long batch)
{
	if (rhp == &idle_head)
		WRITE_ONCE(idle_first, nxt == 1 && !batch);
}

static void idle_find_tp(struct tracepoint *tp, void *priv)
{
	if (!strcmp(tp->name, "cpu_idle"))
		idle_tp = tp;
	else if (!strcmp(tp->name, "irq_work_entry"))
		irq_work_tp = tp;
	else if (!strcmp(tp->name, "rcu_poll_call_rcu"))
		call_tp = tp;
}

static void idle_kick(void *info)
{
}

/*
 * Idle with its tick stopped, a CPU enters idle again (and so runs the
 * probe) only when something wakes it, which may take longer than the
 * callback's wait below: wake it with an empty IPI every 10 ms until
 * the probe queued.  The IPI is no irq_work, so it cannot pass for the
 * one rcu_poll queues.
 */
static void idle_wake(unsigned long cpu)
{
	int i;

	for (i = 0; i < 500 && atomic_read(&idle_state) == IDLE_ARMED; i++) {
		smp_call_function_single(cpu, idle_kick, NULL, 1);
		schedule_timeout_uninterruptible(msecs_to_jiffies(10));
	}
}

static int idle_call(unsigned long cpu)
{
	int ret;

	for_each_kernel_tracepoint(idle_find_tp, NULL);
	if (!idle_tp || !irq_work_tp || !call_tp)
		return -ENODEV;	/* no cpu_idle, irq_work_entry or rcu_poll_call_rcu */
	if (atomic_read(&idle_state) == IDLE_QUEUED)
		return -EBUSY;	/* the last callback is still waiting */
	WRITE_ONCE(idle_queued_ns, 0);
	WRITE_ONCE(idle_irq_work_ns, 0);
	WRITE_ONCE(idle_invoked_ns, 0);
	WRITE_ONCE(idle_first, -1);
	reinit_completion(&idle_done);
	WRITE_ONCE(idle_call_cpu, cpu);
	ret = tracepoint_probe_register(call_tp, call_probe, NULL);
	if (ret)
		return ret;
	ret = tracepoint_probe_register(irq_work_tp, irq_work_probe, NULL);
	if (ret)
		goto out_call;
	ret = tracepoint_probe_register(idle_tp, idle_probe, NULL);
	if (ret)
		goto out_irq_work;
	WRITE_ONCE(idle_armed_ns, ktime_get_mono_fast_ns());
	atomic_set(&idle_state, IDLE_ARMED);
	idle_wake(cpu);
	wait_for_completion_timeout(&idle_done, 5 * HZ);
	/* Not queued (the CPU never went idle): disarm. */
	atomic_cmpxchg(&idle_state, IDLE_ARMED, IDLE_OFF);
	tracepoint_probe_unregister(idle_tp, idle_probe, NULL);
out_irq_work:
	tracepoint_probe_unregister(irq_work_tp, irq_work_probe, NULL);
out_call:
	tracepoint_probe_unregister(call_tp, call_probe, NULL);
	tracepoint_synchronize_unregister();
	return ret;
}

static ssize_t scen_idle_call_write(struct file *file, const char __user *ubuf, size_t count,
				    loff_t *ppos)
{
	unsigned long cpu;
	int ret = scen_parse(ubuf, count, &cpu, 1);

	if (ret)
		return ret;
	if (cpu >= nr_cpu_ids || !cpu_online(cpu))
		return -EINVAL;
	mutex_lock(&idle_mutex);
	ret = idle_call(cpu);
	mutex_unlock(&idle_mutex);
	return ret ? ret : count;
}

/* --- frozen ------------------------------------------------------------ */

/*
 * kgdb stops every CPU with interrupts off, so jiffies stop too, and
 * calls rcu_cpu_stall_reset() before it lets them go, with jiffies as
 * they were when it stopped them; the first tick afterwards catches
 * jiffies up by the whole pause.  A grace period that waited across the
 * pause must not be reported as stalled for it.  Here: CPU holds a
 * reader with interrupts off (rcupoll_hold/CPU), one callback waits for
 * it, a second CPU (rcupoll_frz/N) stops every other CPU with an IPI
 * that spins with interrupts off and spins itself for MS ms, calls
 * rcu_cpu_stall_reset() and lets every CPU go on, as kgdb does; the
 * reader ends 300 ms later.  Stats: the callback was still pending at the reset, how far
 * jiffies moved during the freeze and in the 50 ms after it.
 */
#define FZ_TAIL_MS	300

static DEFINE_MUTEX(fz_mutex);
static struct rcu_head fz_head;
static atomic_t fz_invoked = ATOMIC_INIT(0);
static bool fz_held, fz_reset_done;
static u64 fz_deadline;
static unsigned long fz_ms;
static int fz_pending_at_reset = -1;
static long fz_frozen_ms = -1, fz_jump_ms = -1;
static DECLARE_COMPLETION(fz_hold_done);
static DECLARE_COMPLETION(fz_freeze_done);

#ifdef CONFIG_RCU_POLL
#define FZ_SUPPORTED	true
static void fz_stall_reset(void)
{
	rcu_cpu_stall_reset();
}
#else
#define FZ_SUPPORTED	false
static void fz_stall_reset(void)
{
}
#endif

static void fz_cb(struct rcu_head *rhp)
{
	atomic_inc(&fz_invoked);
}

/* Until the freezer set the deadline and it passed, at most ms + 5 s. */
static void fz_spin_deadline(u64 cap)
{
	u64 d;

	while ((!(d = READ_ONCE(fz_deadline)) || ktime_get_mono_fast_ns() < d) &&
	       ktime_get_mono_fast_ns() < cap)
		cpu_relax();
}

static int fz_hold_fn(void *unused)
{
	u64 cap = ktime_get_mono_fast_ns() + (fz_ms + 5000) * NSEC_PER_MSEC;

	preempt_disable();
	local_irq_disable();
	WRITE_ONCE(fz_held, true);
	/*
	 * As kgdb: no CPU goes on before the reset.  Acquire pairs with
	 * the release in fz_freeze_fn(): the reset is seen before we go on.
	 */
	while (!smp_load_acquire(&fz_reset_done) && ktime_get_mono_fast_ns() < cap)
		cpu_relax();
	local_irq_enable();
	scen_spin_until(ktime_get_mono_fast_ns() + FZ_TAIL_MS * NSEC_PER_MSEC);
	preempt_enable();
	complete(&fz_hold_done);
	return 0;
}

static void fz_ipi(void *unused)
{
	u64 cap = ktime_get_mono_fast_ns() + (fz_ms + 5000) * NSEC_PER_MSEC;

	/* Acquire pairs with fz_freeze_fn()'s release, as in fz_hold_fn(). */
	while (!smp_load_acquire(&fz_reset_done) && ktime_get_mono_fast_ns() < cap)
		cpu_relax();
}

static int fz_freeze_fn(void *arg)
{
	int cpu = (long)arg, i;
	unsigned long j0, j1;
	struct cpumask *others = kmalloc(cpumask_size(), GFP_KERNEL);

	for (i = 0; i < 500 && !READ_ONCE(fz_held); i++)
		schedule_timeout_uninterruptible(msecs_to_jiffies(10));
	call_rcu(&fz_head, fz_cb);
	/* The grace period starts and waits for the held CPU. */
	schedule_timeout_uninterruptible(msecs_to_jiffies(100));
	preempt_disable();
	if (others) {
		cpumask_copy(others, cpu_online_mask);
		cpumask_clear_cpu(cpu, others);
		cpumask_clear_cpu(smp_processor_id(), others);
	}
	WRITE_ONCE(fz_deadline, ktime_get_mono_fast_ns() + fz_ms * NSEC_PER_MSEC);
	if (others)
		smp_call_function_many(others, fz_ipi, NULL, false);
	local_irq_disable();
	j0 = jiffies;
	fz_spin_deadline(ktime_get_mono_fast_ns() + (fz_ms + 5000) * NSEC_PER_MSEC);
	j1 = jiffies;
	WRITE_ONCE(fz_pending_at_reset, !atomic_read(&fz_invoked));
	fz_stall_reset();
	/* Release orders the reset before any held CPU goes on. */
	smp_store_release(&fz_reset_done, true);
	local_irq_enable();
	preempt_enable();
	scen_spin_until(ktime_get_mono_fast_ns() + 50 * NSEC_PER_MSEC);
	WRITE_ONCE(fz_frozen_ms, jiffies_to_msecs(j1 - j0));
	WRITE_ONCE(fz_jump_ms, jiffies_to_msecs(jiffies - j1));
	kfree(others);
	complete(&fz_freeze_done);
	return 0;
}

static int frozen(unsigned long cpu, unsigned long ms)
{
	int other = cpumask_any_but(cpu_online_mask, cpu);
	struct task_struct *h, *f;

	if (other >= nr_cpu_ids)
		return -EINVAL;
	fz_ms = ms;
	fz_held = false;
	fz_reset_done = false;
	fz_deadline = 0;
	fz_pending_at_reset = -1;
	fz_frozen_ms = -1;
	fz_jump_ms = -1;
	atomic_set(&fz_invoked, 0);
	reinit_completion(&fz_hold_done);
	reinit_completion(&fz_freeze_done);
	h = kthread_create(fz_hold_fn, NULL, "rcupoll_hold/%lu", cpu);
	if (IS_ERR(h))
		return PTR_ERR(h);
	f = kthread_create(fz_freeze_fn, (void *)(long)cpu, "rcupoll_frz/%d", other);
	if (IS_ERR(f)) {
		kthread_stop(h);
		return PTR_ERR(f);
	}
	kthread_bind(h, cpu);
	kthread_bind(f, other);
	wake_up_process(h);
	wake_up_process(f);
	wait_for_completion(&fz_hold_done);
	wait_for_completion(&fz_freeze_done);
	rcu_barrier();	/* fz_head is static */
	return 0;
}

static ssize_t scen_frozen_write(struct file *file, const char __user *ubuf, size_t count,
				 loff_t *ppos)
{
	unsigned long v[2];
	int ret = scen_parse(ubuf, count, v, 2);

	if (ret)
		return ret;
	if (v[0] >= nr_cpu_ids || !cpu_online(v[0]) || !scen_range(v[1], 1, 10000))
		return -EINVAL;
	if (!FZ_SUPPORTED)
		return -ENODEV;
	mutex_lock(&fz_mutex);
	ret = frozen(v[0], v[1]);
	mutex_unlock(&fz_mutex);
	return ret ? ret : count;
}

/* --- barrier_online ------------------------------------------------ */

/*
 * rcu_barrier() against a CPU coming online.  From rcu_cpu_starting() on,
 * before cpu_online_mask has it, a CPU runs its STARTING callbacks with
 * RCU usable, and one may queue a callback there; rcu_barrier() must wait
 * for it like for any callback queued before it was called, although its
 * IPIs (on_each_cpu(), cpu_online_mask) miss that CPU.  The worst case:
 * the CPU is online by the time rcu_barrier() looks for offline CPUs.
 *
 * A STARTING callback of ours (in a slot of the STARTING section that
 * x86 leaves unused) queues one callback on the incoming CPU and holds it
 * there, interrupts off, until rcu_barrier() has chosen the CPUs for its
 * IPIs: rcu_poll's on_each_cpu() runs the caller's own share after that,
 * and the rcu_barrier event of that share releases the CPU and waits
 * there until it is online (rcu_poll only, where that event comes from
 * the caller).  That needs a third CPU: a kthread elsewhere brings the CPU up
 * with add_cpu() and runs the boot CPU's side of its bringup.  The writer
 * must be pinned to one CPU, not the target.  Exact: the callback was
 * queued before rcu_barrier() was called, so it must be invoked when
 * rcu_barrier() returns, whatever the timing; bo_opened says whether the
 * CPU came online between the IPIs and the offline pass (the window).
 */
#define BO_STATE	CPUHP_AP_ARM_CACHE_B15_RAC_DYING	/* ARM only */
#define BO_HOLD_NS	(3000ULL * NSEC_PER_MSEC)

static DEFINE_MUTEX(bo_mutex);
static struct rcu_head bo_head;
static struct task_struct *bo_caller;
static int bo_cpu = -1;
static bool bo_armed, bo_release, bo_in_hold;
static int bo_queued = -1, bo_invoked_at_return = -1, bo_opened = -1, bo_add_ret;
static atomic_t bo_invoked = ATOMIC_INIT(0);
static DECLARE_COMPLETION(bo_added);
static struct tracepoint *bo_tp;

static void bo_cb(struct rcu_head *rhp)
{
	atomic_inc(&bo_invoked);
}

/* On the incoming CPU, interrupts off, after rcu_cpu_starting(). */
static int bo_starting(unsigned int cpu)
{
	u64 end = ktime_get_mono_fast_ns() + BO_HOLD_NS;

	if (cpu != READ_ONCE(bo_cpu) || !READ_ONCE(bo_armed))
		return 0;
	WRITE_ONCE(bo_armed, false);
	call_rcu(&bo_head, bo_cb);
	WRITE_ONCE(bo_queued, 1);
	/* Release: whoever sees bo_in_hold also sees the callback queued. */
	smp_store_release(&bo_in_hold, true);
	/* Acquire pairs with the release in bo_barrier_probe()/barrier_online(). */
	while (!smp_load_acquire(&bo_release) && ktime_get_mono_fast_ns() < end)
		cpu_relax();
	return 0;
}

static void bo_barrier_probe(void *data, const char *rcuname, const char *s, int cpu,
			     int cnt, unsigned long done)
{
	u64 end = ktime_get_mono_fast_ns() + BO_HOLD_NS;

	/* rcu_poll's on_each_cpu() running the caller's own share. */
	if (strncmp(s, "IRQ", 3) || current != READ_ONCE(bo_caller) ||
	    cpu != smp_processor_id() || !READ_ONCE(bo_in_hold) || READ_ONCE(bo_opened) != -1)
		return;
	/* Release pairs with bo_starting()'s acquire: let the CPU go on. */
	smp_store_release(&bo_release, true);
	while (!cpu_online(READ_ONCE(bo_cpu)) && ktime_get_mono_fast_ns() < end)
		cpu_relax();
	WRITE_ONCE(bo_opened, cpu_online(READ_ONCE(bo_cpu)));
}

static void bo_find_tp(struct tracepoint *tp, void *priv)
{
	if (!strcmp(tp->name, "rcu_barrier"))
		bo_tp = tp;
}

static int bo_add_fn(void *arg)
{
	WRITE_ONCE(bo_add_ret, add_cpu((unsigned long)arg));
	complete(&bo_added);
	return 0;
}

/* Start bringing @cpu up from @helper; wait until it holds in bo_starting(). */
static int bo_bring_up(unsigned long cpu, int helper)
{
	struct task_struct *t;
	int i;

	t = kthread_create(bo_add_fn, (void *)cpu, "rcupoll_up/%lu", cpu);
	if (IS_ERR(t))
		return PTR_ERR(t);
	kthread_bind(t, helper);
	WRITE_ONCE(bo_armed, true);
	wake_up_process(t);
	/* Acquire pairs with bo_starting()'s release. */
	for (i = 0; i < 500 && !smp_load_acquire(&bo_in_hold); i++)
		schedule_timeout_uninterruptible(msecs_to_jiffies(10));
	return 0;
}

static int barrier_online(unsigned long cpu)
{
	int ret, helper = cpumask_any_but(cpu_online_mask, smp_processor_id());

	for_each_kernel_tracepoint(bo_find_tp, NULL);
	if (!bo_tp)
		return -ENODEV;	/* no rcu_barrier event (CONFIG_RCU_TRACE) */
	if (helper >= nr_cpu_ids)
		return -EINVAL;
	ret = cpuhp_setup_state_nocalls(BO_STATE, "rcu_scenario:starting", bo_starting, NULL);
	if (ret)
		return ret == -EBUSY ? -ENODEV : ret;
	ret = tracepoint_probe_register(bo_tp, bo_barrier_probe, NULL);
	if (ret)
		goto out_state;
	WRITE_ONCE(bo_caller, current);
	WRITE_ONCE(bo_cpu, cpu);
	bo_queued = -1;
	bo_opened = -1;
	bo_invoked_at_return = -1;
	bo_in_hold = false;
	bo_release = false;
	atomic_set(&bo_invoked, 0);
	reinit_completion(&bo_added);
	ret = bo_bring_up(cpu, helper);
	if (ret)
		goto out_probe;
	if (READ_ONCE(bo_queued) == 1) {
		rcu_barrier();
		bo_invoked_at_return = atomic_read(&bo_invoked);
	}
	/* Not held (never reached STARTING?): let it through, then wait. */
	WRITE_ONCE(bo_armed, false);
	/* Release pairs with bo_starting()'s acquire. */
	smp_store_release(&bo_release, true);
	wait_for_completion(&bo_added);
	ret = READ_ONCE(bo_add_ret);
	rcu_barrier();	/* bo_head is static: invoked before we return */
out_probe:
	tracepoint_probe_unregister(bo_tp, bo_barrier_probe, NULL);
	tracepoint_synchronize_unregister();
	WRITE_ONCE(bo_caller, NULL);
out_state:
	cpuhp_remove_state_nocalls(BO_STATE);
	return ret;
}

static ssize_t scen_barrier_online_write(struct file *file, const char __user *ubuf,
					 size_t count, loff_t *ppos)
{
	unsigned long cpu;
	int ret = scen_parse(ubuf, count, &cpu, 1);

	if (ret)
		return ret;
	/* An offline CPU but the boot CPU; a caller pinned to another. */
	if (!cpu || cpu >= nr_cpu_ids || !cpu_present(cpu) || cpu_online(cpu) ||
	    current->nr_cpus_allowed != 1)
		return -EINVAL;
	mutex_lock(&bo_mutex);
	ret = barrier_online(cpu);
	mutex_unlock(&bo_mutex);
	return ret ? ret : count;
}

/* --- barrier, stats ---------------------------------------------------- */

static ssize_t scen_barrier_write(struct file *file, const char __user *ubuf, size_t count,
				  loff_t *ppos)
{
	unsigned long v;
	int ret = scen_parse(ubuf, count, &v, 1);

	if (ret)
		return ret;
	if (v != 1)
		return -EINVAL;
	rcu_barrier();
	return count;
}

static int scen_stats_show(struct seq_file *m, void *v)
{
	long q = atomic_long_read(&n_queued), i = atomic_long_read(&n_invoked);

	u64 qd = READ_ONCE(idle_queued_ns), iw = READ_ONCE(idle_irq_work_ns);
	u64 inv = READ_ONCE(idle_invoked_ns);

	seq_printf(m, "queued=%ld invoked=%ld pending=%ld alloc_failed=%ld threads=%d syncs=%ld\n",
		   q, i, q - i, atomic_long_read(&n_alloc_failed), atomic_read(&n_threads),
		   atomic_long_read(&n_syncs));
	/*
	 * idle_call: queued, the first callback with no batch in flight
	 * (-1: not seen), an irq_work ran before the callback, invoked;
	 * how long CPU 1 took to enter idle once armed.
	 */
	seq_printf(m, "idle_queued=%d idle_first=%d idle_irq_work=%d idle_invoked=%d idle_gp_us=%llu idle_wait_us=%llu\n",
		   !!qd, READ_ONCE(idle_first), iw && (!inv || iw <= inv), !!inv,
		   qd && inv ? div_u64(inv - qd, 1000) : 0,
		   qd ? div_u64(qd - READ_ONCE(idle_armed_ns), 1000) : 0);
	/*
	 * barrier_online: the callback was queued on the incoming CPU (-1:
	 * not yet), it came online between rcu_barrier()'s IPIs and its
	 * offline pass (-1: that pass was not reached from the caller), the
	 * callback was invoked when rcu_barrier() returned (-1: not called).
	 */
	/*
	 * frozen: the callback was pending at the reset; jiffies moved
	 * during the freeze (ms; 0: frozen) and in the 50 ms after it.
	 */
	seq_printf(m, "fz_pending_at_reset=%d fz_frozen_ms=%ld fz_jump_ms=%ld\n",
		   READ_ONCE(fz_pending_at_reset), READ_ONCE(fz_frozen_ms), READ_ONCE(fz_jump_ms));
	seq_printf(m, "bo_queued=%d bo_opened=%d bo_invoked_at_return=%d\n",
		   READ_ONCE(bo_queued), READ_ONCE(bo_opened), READ_ONCE(bo_invoked_at_return));
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(scen_stats);

#define SCEN_FOPS(name, writefn)				\
static const struct file_operations name = {			\
	.owner = THIS_MODULE,					\
	.open = simple_open,					\
	.write = writefn,					\
	.llseek = noop_llseek,					\
}

SCEN_FOPS(queue_fops, scen_queue_write);
SCEN_FOPS(hold_fops, scen_hold_write);
SCEN_FOPS(hold_irqoff_fops, scen_hold_irqoff_write);
SCEN_FOPS(preempt_reader_fops, scen_preempt_reader_write);
SCEN_FOPS(flood_fops, scen_flood_write);
SCEN_FOPS(fifo_hog_fops, scen_fifo_hog_write);
SCEN_FOPS(sync_fops, scen_sync_write);
SCEN_FOPS(idle_call_fops, scen_idle_call_write);
SCEN_FOPS(barrier_fops, scen_barrier_write);
SCEN_FOPS(frozen_fops, scen_frozen_write);
SCEN_FOPS(barrier_online_fops, scen_barrier_online_write);

static int __init rcu_scenario_init(void)
{
	scen_dir = debugfs_create_dir("rcu_scenario", NULL);
	if (IS_ERR(scen_dir))
		return PTR_ERR(scen_dir);
	debugfs_create_file("queue", 0200, scen_dir, NULL, &queue_fops);
	debugfs_create_file("hold", 0200, scen_dir, NULL, &hold_fops);
	debugfs_create_file("hold_irqoff", 0200, scen_dir, NULL, &hold_irqoff_fops);
	debugfs_create_file("preempt_reader", 0200, scen_dir, NULL, &preempt_reader_fops);
	debugfs_create_file("flood", 0200, scen_dir, NULL, &flood_fops);
	debugfs_create_file("fifo_hog", 0200, scen_dir, NULL, &fifo_hog_fops);
	debugfs_create_file("sync", 0200, scen_dir, NULL, &sync_fops);
	debugfs_create_file("idle_call", 0200, scen_dir, NULL, &idle_call_fops);
	debugfs_create_file("barrier", 0200, scen_dir, NULL, &barrier_fops);
	debugfs_create_file("frozen", 0200, scen_dir, NULL, &frozen_fops);
	debugfs_create_file("barrier_online", 0200, scen_dir, NULL, &barrier_online_fops);
	debugfs_create_file("stats", 0400, scen_dir, NULL, &scen_stats_fops);
	return 0;
}

/* No thread runs (each holds a module reference): wait for the callbacks. */
static void __exit rcu_scenario_exit(void)
{
	debugfs_remove_recursive(scen_dir);
	rcu_barrier();
}

module_init(rcu_scenario_init);
module_exit(rcu_scenario_exit);
