#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# rcu_barrier() must wait for a callback queued on a CPU that is coming
# online: from rcu_cpu_starting() on, before cpu_online_mask has it, a
# CPU's STARTING callbacks may queue callbacks, and rcu_barrier()'s IPIs
# miss it.  rcu_scenario's barrier_online holds CPU 1 in a STARTING
# callback that queued one, calls rcu_barrier() and lets CPU 1 finish
# coming online after rcu_barrier() chose the CPUs for its IPIs and
# before it looks at offline CPUs (the window: bo_opened=1).  Exact: the
# callback was queued before rcu_barrier() was called, so it must have
# been invoked when rcu_barrier() returns (bo_invoked_at_return=1).
# Three rounds; rcu_poll only (the window is opened from its rcu_barrier
# event).  Bad input is refused: an online CPU, the boot CPU.
. /usr/share/rcu_poll/lib.sh
S=/sys/kernel/debug/rcu_scenario
C=/sys/devices/system/cpu/cpu1/online
[ "$(nproc)" -ge 3 ] || fail "needs 3 CPUs"
[ -d /sys/kernel/tracing/events/rcu_poll ] || fail "not an rcu_poll kernel"
load rcu_scenario
# The writer pinned to the last CPU; the module brings CPU 1 up from another.
last=$(($(nproc) - 1))
taskset -p -c $last $$ > /dev/null || fail "cannot pin the test to CPU $last"
expect_einval $S/barrier_online 1
expect_einval $S/barrier_online 0
for round in 1 2 3; do
	put $C 0
	put $S/barrier_online 1
	st=$(grep '^bo_' $S/stats)
	echo "round $round: $st"
	expect_eq "round $round: CPU 1 online again" 1 "$(cat $C)"
	expect_eq "round $round: callback queued from CPU 1's STARTING callback" 1 "$(field bo_queued "$st")"
	expect_eq "round $round: CPU 1 came online inside rcu_barrier()'s window" 1 "$(field bo_opened "$st")"
	expect_eq "round $round: the callback invoked when rcu_barrier() returned" 1 \
		"$(field bo_invoked_at_return "$st")"
done
