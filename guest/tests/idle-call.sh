#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# call_rcu() from the idle task with interrupts off, after the idle loop
# may have stopped the tick (as a BPF program on the cpu_idle tracepoint
# may do): rcu_scenario's idle_call queues one callback from a probe on
# cpu_idle on CPU 1.  When it is the first callback there with no batch
# in flight (idle_first=1: then the CPU's tick had no RCU work to keep
# it), rcu_poll must raise its softirq from an irq_work (a self-interrupt
# taken as soon as the CPU halts), not leave the batch to whatever wakes
# the CPU next: an irq_work ran on CPU 1 between the queueing and the
# callback.  Exact: rcu_poll queues that irq_work before the idle task
# enables interrupts, and the callback needs a batch that only a softirq
# of CPU 1 starts.  Otherwise (other work there) the callback must only
# be invoked.  Rounds until three first callbacks were seen (at most 20).
# The writer stays on CPU 0 and arms after a quiet second, so CPU 1 has
# nothing to do: idle with its tick stopped, it enters idle again only
# when something wakes it, and idle_call must wake it (it may sleep
# longer than the 5 s the callback is waited for).
. /usr/share/rcu_poll/lib.sh
S=/sys/kernel/debug/rcu_scenario
[ "$(nproc)" -ge 2 ] || fail "needs 2 CPUs"
[ -d /sys/kernel/tracing/events/rcu_poll ] || fail "not an rcu_poll kernel"
load rcu_scenario
taskset -p 1 $$ > /dev/null || fail "cannot pin the test to CPU 0"
first=0
round=0
while [ $first -lt 3 ] && [ $round -lt 20 ]; do
	round=$((round + 1))
	# Quiet first: no batch left whose kick would wake CPU 1.
	sleep 1
	before=$(grep '^cpu1 ' /proc/stat)
	put $S/idle_call 1
	st=$(grep '^idle_' $S/stats)
	echo "round $round: $st"
	# Not queued: was CPU 1 busy, or idle and never woken?  /proc/stat's
	# cpu1 line (user nice system idle ...) before and after says which.
	[ "$(field idle_queued "$st")" = 1 ] || echo "round $round: /proc/stat before '$before', after '$(grep '^cpu1 ' /proc/stat)'"
	expect_eq "round $round: queued from CPU 1's idle task" 1 "$(field idle_queued "$st")"
	expect_eq "round $round: invoked within 5 s" 1 "$(field idle_invoked "$st")"
	[ "$(field idle_first "$st")" = 1 ] || continue
	first=$((first + 1))
	expect_eq "round $round: first callback: RCU_SOFTIRQ raised from an irq_work on CPU 1" 1 \
		"$(field idle_irq_work "$st")"
done
[ $first -ge 3 ] || fail "only $first of $round rounds queued the first callback on an idle CPU 1"
