#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Contracts of the RCU implementation that rcutorture does not check,
# each driven through test_rcu_poll.  One mode per contract:
#
#   tasks-reader   a reader that only relies on not scheduling holds
#                  synchronize_rcu() without PREEMPTION (no kernel-mode
#                  tick may end its grace period), synchronize_rcu_tasks()
#                  with it
#   preempt-user   a task preempted in the kernel that then spins in user
#                  mode does not hold the preempt flavour back
#   poll-offline   a polled grace period started on a CPU that goes
#                  offline before its batch ends still completes
#   softirq-qs     rcu_softirq_qs() is a Tasks RCU quiescent state too
#   irqoff-calls   call_rcu_preempt()/start_poll_synchronize_rcu() with
#                  interrupts disabled wake nobody
#   stall-reset    rcu_cpu_stall_reset() holds stall warnings off
#   cookies        outstanding polled cookies <= NUM_ACTIVE_RCU_POLL_*
#   flood-bound    a callback flood is invoked in bounded passes
#   rekick         a batch kicks the CPUs it still waits for again,
#                  every 20 ms
#   rekick-irqoff  ... with irq_work, not sent again to a CPU with
#                  interrupts off while the last one is pending
#   no-preempt     preempt_reader is refused where nothing can preempt
#   early-call-rcu a callback queued before rcu_init() (boot parameter
#                  rcu_poll.early_call_rcu) is invoked
#   panic-stall    kernel.panic_on_rcu_stall exists and, set, panics the
#                  guest at the first stall warning (the host checks)
. /usr/share/rcu_poll/lib.sh
mode=${1:?usage: contracts.sh MODE}
D=/sys/kernel/debug/rcu
T=/sys/kernel/tracing
P=/sys/module/rcu_poll/parameters
load test_rcu_poll

stats() { cat $D/test/stats; }

# queued_since N: test_rcu_poll has queued more than N callbacks
queued_since() { [ "$(field queued "$(stats)")" -gt "$1" ]; }

# wait until the scenario threads of test_rcu_poll are over
threads_done() {
	wait_for "${1:-30}" sh -c "grep -q ' threads=0 ' $D/test/stats" ||
		fail "scenario threads still running: $(stats)"
}

# trace_kicks EVENT...: trace these rcu_poll events (and batch starts)
# into an empty buffer.
trace_kicks() {
	put $T/tracing_on 0
	: > $T/trace
	for e in rcu_poll_batch_start "$@"; do
		put $T/events/rcu_poll/$e/enable 1
	done
	put $T/tracing_on 1
}

# kicks_done FILE: wait for the hold and the queued callback, then keep
# the normal flavour's events in FILE.
kicks_done() {
	threads_done 20
	wait_for 10 sh -c "grep -q ' pending=0 ' $D/test/stats" ||
		fail "the callback was not invoked: $(stats)"
	put $T/tracing_on 0
	grep -E 'rcu_poll_[a-z_]*: rcu_poll ' $T/trace > "$1"
}

# Kicks of CPU 1 by batches of CPU 0, from trace_kicks' events.
# mode=rekick: the batch that kicked CPU 1 most, at least 3 times and
# at most 2 + span/10 ms.  mode=irqoff: every batch that started within
# a second of the hold's callback and ended a second or more after it,
# at most twice in the 1.5 s after that callback; one batch at least.
KICKS_AWK='
function kv(k,   i) {
	for (i = ev + 1; i <= NF; i++)
		if (index($i, k "=") == 1)
			return substr($i, length(k) + 2)
	return ""
}
{
	for (ev = 1; ev <= NF && $ev !~ /^rcu_poll_/; ev++)
		;
	ts = $(ev - 1); sub(/:$/, "", ts)
}
$ev == "rcu_poll_call_rcu:" && kv("cpu") == 1 && kv("func") == "rcu_poll_test_cb" && hold == "" {
	hold = ts
}
$ev == "rcu_poll_kick:" && kv("cpu") == 0 && kv("target") == 1 {
	b = kv("batch")
	if (!(b in first))
		first[b] = ts
	last[b] = ts
	n[b]++
	if (hold != "" && ts >= hold && ts - hold <= 1.5)
		held[b]++
}
$ev == "rcu_poll_batch_end:" && kv("cpu") == 0 {
	end[kv("batch")] = ts
}
END {
	if (mode == "rekick") {
		for (b in n)
			if (n[b] > max) { max = n[b]; mb = b }
		span = max ? (last[mb] - first[mb]) * 1000 : 0
		printf "most kicks of CPU 1 by one batch of CPU 0: %d (batch %s, over %d ms)\n", max, mb, span
		if (max < 3) { print "FAIL: no batch kicked CPU 1 again while it held it"; bad++ }
		if (max > 2 + span / 10) { print "FAIL: more than one kick per 10 ms"; bad++ }
		exit bad > 0
	}
	if (hold == "") { print "FAIL: no callback of the hold on CPU 1 in the trace"; exit 1 }
	for (b in n) {
		if (!(b in end) || first[b] - hold > 1 || end[b] - hold < 1)
			continue
		waited++
		printf "batch %s of CPU 0 ended %d ms into the hold, kicked CPU 1 %d times in its first 1.5 s\n", b, (end[b] - hold) * 1000, held[b]
		if (held[b] > 2) { print "FAIL: CPU 1 kicked again with interrupts off"; bad++ }
	}
	if (!waited) { print "FAIL: no batch of CPU 0 waited for the hold"; bad++ }
	exit bad > 0
}'

case $mode in
tasks-reader)
	# Reader on CPU 1 for 3 s, updater on another CPU swapping and
	# poisoning after each synchronize_rcu_tasks().
	put $D/test/tasks_reader "1 3000"
	threads_done 30
	s=$(stats)
	echo "$s"
	[ "$(field tasks_swaps "$s")" -gt 10 ] || fail "too few grace periods to judge: $s"
	expect_eq "poisoned reads (grace period ended under a reader)" 0 "$(field tasks_bad "$s")"
	;;
preempt-user)
	# A shell pinned to CPU 1 spends 1.5 s in one preemptible system
	# call, then spins in user mode forever.  A preempt batch starts
	# meanwhile: its forced reschedule preempts the shell in the kernel,
	# so the shell holds a reference on CPU 1's counter.  Back in user
	# mode it holds no reader: the batch must end although nothing else
	# may ever force a reschedule there.  The module waits, queueing
	# nothing (sync_kernel): 3 s after the system call ends at most.
	# The file stays open: a close() at the end of the system call would
	# run the task through the kernel once more (fput()'s task work).
	taskset -c 1 sh -c "exec 3> $D/test/spin; echo 1500 >&3; while :; do :; done" &
	hog=$!
	wait_for 10 sh -c "grep -q ' spinning=1' $D/test/stats" || fail "the shell never entered the spin"
	out=$( { echo 4500 > $D/test/sync_kernel; } 2>&1 ); rc=$?
	grep '' $D/gp | grep -v '^hist\|^#' | head -n 10
	kill -9 $hog
	wait $hog 2> /dev/null
	[ $rc = 0 ] || fail "synchronize_kernel() did not return with the preempted task spinning in user mode: $out"
	# It ends at the task's first tick in user mode, not whenever some
	# other batch's forced reschedule happens to find it there.
	lag=$(field sync_after_spin_ms "$(stats)")
	echo "the preempt grace period ended $lag ms after the system call"
	[ "$lag" -le 200 ] ||
		fail "the preempt grace period ended $lag ms after the task returned to user mode"
	;;
poll-offline)
	[ "$(nproc)" -ge 3 ] || fail "needs 3 CPUs"
	# CPU 1 asks for a polled grace period late on its way offline,
	# after the offline's own grace periods and callbacks, while CPU 2
	# holds every batch back (test_rcu_poll's poll_offline says how).
	# Then the module waits, queueing nothing, for the grace period:
	# what CPU 1 handed on when it died ends it.  On 6.1 that includes
	# callbacks the rest of the offline queues on CPU 1 after the cookie
	# (workqueue_offline_cpu() frees radix-tree nodes), so a lost
	# request alone does not fail this here; a lost batch or lost
	# callbacks do.
	out=$( { echo 1 > $D/test/poll_offline; } 2>&1 ); rc=$?
	cat $D/test/poll
	put /sys/devices/system/cpu/cpu1/online 1
	[ $rc = 0 ] || fail "polled grace period of the offlined CPU did not complete within 3 s: $out"
	echo "ok: $(cat $D/test/poll)"
	;;
softirq-qs)
	# A kthread that never blocks but calls rcu_softirq_qs_periodic(),
	# as threaded NAPI does, for 10 s: a Tasks RCU grace period started
	# meanwhile must end while it still runs.
	out=$( { echo "1 10000" > $D/test/softirq_qs; } 2>&1 ) ||
		fail "softirq_qs refused ($out): kernel without TASKS_RCU?"
	usleep 300000
	put $D/test/sync_tasks 1
	s=$(stats)
	echo "$s"
	expect_eq "the kthread still runs when synchronize_rcu_tasks() returns" 1 "$(field threads "$s")"
	threads_done 30
	;;
irqoff-calls)
	# 20 rounds on CPU 1; ksoftirqd/1 must not be woken between the two
	# call_rcu_preempt() events of a round (interrupts are off there, so
	# nothing else runs on CPU 1 in between).
	put $T/tracing_on 0
	: > $T/trace
	put $T/events/rcu_poll/rcu_poll_call_rcu/enable 1
	put $T/events/sched/sched_wakeup/filter 'comm ~ "ksoftirqd/*"'
	put $T/events/sched/sched_wakeup/enable 1
	put $T/tracing_on 1
	put $D/test/irqoff_calls "1 20"
	put $T/tracing_on 0
	put $T/events/rcu_poll/rcu_poll_call_rcu/enable 0
	put $T/events/sched/sched_wakeup/enable 0
	put $T/events/sched/sched_wakeup/filter 0
	grep -E 'rcu_poll_call_rcu: rcu_poll_preempt|sched_wakeup' $T/per_cpu/cpu1/trace > /tmp/irqoff.txt
	head -n 8 /tmp/irqoff.txt
	awk '
	/rcu_poll_call_rcu: rcu_poll_preempt/ { n++; inside = (n % 2 == 1); next }
	/sched_wakeup/ && inside { bad++; if (bad < 4) print "FAIL: woken with interrupts off: " $0 }
	END {
		if (n != 40) { print "FAIL: " n + 0 " call_rcu_preempt() events on CPU 1, want 40"; exit 1 }
		print "rounds: " n / 2 ", wakeups inside: " bad + 0
		exit bad > 0
	}' /tmp/irqoff.txt || fail "a wakeup from call_rcu_preempt()/start_poll_synchronize_rcu() with interrupts off"
	;;
stall-reset)
	S=/sys/module/rcupdate/parameters/rcu_cpu_stall_timeout
	old=$(cat $S)
	put $S 3
	kmsg_mark
	# rcu_cpu_stall_reset() every 250 ms for 7 s, CPU 1 held 4.5 s: no
	# warning, although the hold outlasts the 3 s timeout.
	put $D/test/stall_reset "0 7000"
	put $D/test/hold "1 4500"
	threads_done 30
	put $S "$old"
	kmsg_since | grep 'rcu_poll' && fail "stall warning despite rcu_cpu_stall_reset()"
	echo "ok: no stall warning while rcu_cpu_stall_reset() was called"
	;;
cookies)
	n=$(nproc)
	[ "$n" -ge 3 ] || fail "needs 3 CPUs"
	put $D/test/cookies_start "$((n - 1))"
	c=$(cat $D/test/cookies)
	echo "$c"
	threads_done 30
	# The module takes its first cookie under the hold (every batch
	# numbered above it begins under the hold and cannot end) and its
	# last once such a batch began: both stay outstanding, so 2 at
	# least, whatever the timing.
	out=$(field outstanding "$c")
	[ "$out" = -1 ] && fail "no batch began within 1 s under the hold (every other CPU had one stuck already)"
	[ "$out" = -2 ] && fail "the hold ended before the cookies were counted"
	[ "$out" -ge 2 ] || fail "only $out cookies outstanding: batches ended under the hold?"
	[ "$out" -le "$(field max_full "$c")" ] ||
		fail "$out distinct cookies outstanding, NUM_ACTIVE_RCU_POLL_FULL_OLDSTATE is $(field max_full "$c")"
	[ "$out" -le "$(field max "$c")" ] ||
		fail "$out distinct cookies outstanding, NUM_ACTIVE_RCU_POLL_OLDSTATE is $(field max "$c")"
	;;
flood-bound)
	# Above qhimark a softirq pass invokes callbacks in chunks of 32 and
	# stops after the chunk in which rcu_poll.resched_ns (3 ms) ran out.
	# Every chunk before the last one started before 3 ms had passed,
	# so with callbacks of 100 us each (test_rcu_poll's queue_slow) a
	# pass runs at most 29 of them before its last chunk: at most
	# 29 + 32 = 61 in one pass, whatever other callbacks share it.
	# 2000 of them wait behind a hold of CPU 1, so they are ready at
	# once, far above qhimark (100 for the test).
	old_q=$(cat $P/qhimark)
	put $P/qhimark 100
	put $T/tracing_on 0
	put $T/buffer_size_kb 4096
	: > $T/trace
	put $T/events/rcu/rcu_batch_start/enable 1
	put $T/events/rcu/rcu_batch_end/enable 1
	put $T/events/rcu/rcu_invoke_callback/enable 1
	put $T/tracing_on 1
	put $D/test/hold "1 1000"
	put $D/test/queue_slow "2000 0"
	put $D/test/barrier 1
	put $T/tracing_on 0
	put $T/events/rcu/enable 0
	put $P/qhimark "$old_q"
	expect_eq "events overrun" 0 "$(sed -n 's/^overrun: //p' $T/per_cpu/cpu0/stats)"
	grep -E 'rcu_batch_(start|end): rcu_poll |rcu_invoke_callback: rcu_poll .*func=rcu_poll_test_slow_cb' \
		$T/trace > /tmp/flood.txt
	awk '
	{ cpu = $0; sub(/^[^[]*\[/, "", cpu); sub(/\].*/, "", cpu); cpu += 0 }
	/rcu_batch_start:/ { slow[cpu] = 0; open[cpu] = 1; next }
	/rcu_invoke_callback:/ { slow[cpu]++; total++; next }
	/rcu_batch_end:/ {
		if (!open[cpu]) next
		open[cpu] = 0; passes++
		n = $0; sub(/.*CBs-invoked=/, "", n); n += 0
		if (n > maxn) maxn = n
		if (slow[cpu] > maxs) maxs = slow[cpu]
	}
	END {
		printf "passes %d, slow callbacks %d, most slow ones in one pass %d (callbacks in that pass or another: at most %d)\n", passes, total, maxs, maxn
		if (total != 2000) { print "FAIL: " total + 0 " slow callbacks traced, want 2000"; exit 1 }
		if (maxs > 61) { print "FAIL: one softirq pass invoked " maxs " callbacks of 100 us (bound: 61)"; exit 1 }
	}' /tmp/flood.txt || fail "unbounded invocation pass"
	;;
rekick)
	# A batch kicks the CPUs it waits for at its start and, while it
	# still waits for them, again every 20 ms: a kick that reaches a CPU
	# on its way to idle can be lost, and without PREEMPTION the idle
	# CPU would then hold the batch until something else woke it (see
	# rcu_poll_rekick_due()).  CPU 1 holds a reader for 2 s; a callback
	# queued on CPU 0 once the hold is on starts a batch that waits for
	# CPU 1 until the hold ends.  That batch must kick CPU 1 at least 3
	# times (the hold outlasts its start by more than two intervals).
	# Kicks are at least an interval of jiffies apart, which is 20 ms at
	# every HZ; a late tick that catches jiffies up can crowd two in wall
	# time, so no more than 2 + span/10 ms (twice that rate) may come
	# between a batch's first and last kick of CPU 1.
	[ "$(nproc)" -ge 2 ] || fail "needs 2 CPUs"
	trace_kicks rcu_poll_kick
	put $D/test/hold "1 2000"
	wait_for 10 task_ran rcupoll_hold/1 || fail "the hold did not start"
	put $D/test/queue "1 0"
	kicks_done /tmp/rekick.txt
	awk -v mode=rekick "$KICKS_AWK" /tmp/rekick.txt ||
		fail "kicks of the held batch (trace in /tmp/rekick.txt)"
	;;
rekick-irqoff)
	# A batch's kicks again are irq_work, not resched_cpu(): no poller
	# may spin, interrupts off, on the runqueue lock of a holdout hung
	# holding it with interrupts off (no poller could warn then), and
	# a kick still pending on the holdout is not sent again (see
	# rcu_poll_rekick_fn()).  CPU 1 holds a reader with interrupts off
	# for 2 s, queueing a callback (traced) once they are off; a
	# callback queued on CPU 0 then makes sure a batch of CPU 0 waits
	# for CPU 1 through the hold.  In the hold's first 1.5 s such a
	# batch kicks CPU 1 at most twice: at its start (resched_cpu()) and
	# once again, whose irq_work stays pending while interrupts are off.
	# With resched_cpu() for every kick it kicked CPU 1 75 times then.
	[ "$(nproc)" -ge 2 ] || fail "needs 2 CPUs"
	trace_kicks rcu_poll_kick rcu_poll_batch_end rcu_poll_call_rcu
	q0=$(field queued "$(stats)")
	put $D/test/hold_irqoff "1 2000"
	wait_for 10 queued_since "$q0" ||
		fail "the hold did not start: $(stats)"
	put $D/test/queue "1 0"
	kicks_done /tmp/rekick-irqoff.txt
	awk -v mode=irqoff "$KICKS_AWK" /tmp/rekick-irqoff.txt ||
		fail "kicks of CPU 1 with interrupts off (trace in /tmp/rekick-irqoff.txt)"
	;;
no-preempt)
	out=$( { echo "1 100" > $D/test/preempt_reader; } 2>&1 ) &&
		fail "preempt_reader accepted on a kernel that cannot preempt the reader"
	echo "preempt_reader refused: $out"
	case "$out" in
	*"not supported"*) ;;
	*) fail "preempt_reader: expected 'Operation not supported', got: $out" ;;
	esac
	;;
early-call-rcu)
	grep -q 'rcu_poll.early_call_rcu' /proc/cmdline || fail "boot with rcu_poll.early_call_rcu"
	dmesg | grep 'callback queued before rcu_init()' ||
		fail "no word of the callback queued before rcu_init()"
	dmesg | grep -q 'rcu_poll: callback queued before rcu_init(): invoked' ||
		fail "the callback queued before rcu_init() was not invoked"
	;;
panic-stall)
	for f in panic_on_rcu_stall max_rcu_stall_to_panic; do
		[ -f /proc/sys/kernel/$f ] || fail "no /proc/sys/kernel/$f"
	done
	put /sys/module/rcupdate/parameters/rcu_cpu_stall_timeout 3
	put /proc/sys/kernel/panic_on_rcu_stall 1
	echo "rcu_poll-test: expect stall begin (panic)" > /dev/kmsg
	put $D/test/hold "1 8000"
	sleep 10
	fail "still alive 10 s into an 8 s hold with panic_on_rcu_stall=1"
	;;
*) fail "unknown mode $mode" ;;
esac
threads_done 30
rmmod test_rcu_poll || fail "rmmod test_rcu_poll failed"
