#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# rcu_cpu_stall_reset() with stale jiffies, as kgdb calls it: every CPU
# stopped with interrupts off for 3.6 s (jiffies stop), a grace period
# waiting across the stop for CPU 1, which holds a reader; then
# rcu_cpu_stall_reset() before interrupts come back, the first tick
# catching jiffies up by 3.6 s, and the reader ending 300 ms later.  The
# stall timeout is 3 s (its minimum), so the 3.9 s grace period lasted
# 300 ms of time the kernel was running: no stall warning (a warning
# would fail the console check too).  The premises are checked: the
# callback was pending at the reset, jiffies did not move during the
# stop (under 10% of it) and caught up after it.  rcu_poll only (Tree
# RCU does not export rcu_cpu_stall_reset() to modules).
. /usr/share/rcu_poll/lib.sh
S=/sys/kernel/debug/rcu_scenario
T=/sys/module/rcupdate/parameters/rcu_cpu_stall_timeout
MS=3600
[ "$(nproc)" -ge 2 ] || fail "needs 2 CPUs"
echo "clocksource: $(cat /sys/devices/system/clocksource/clocksource0/current_clocksource)"
load rcu_scenario
old=$(cat $T)
put $T 3
kmsg_mark
put $S/frozen "1 $MS"
put $T "$old"
st=$(grep '^fz_' $S/stats)
echo "$st"
kmsg_since | grep -E 'stall|Stall' && fail "a stall warning for a grace period that waited while every CPU was stopped"
expect_eq "callback pending when rcu_cpu_stall_reset() ran" 1 "$(field fz_pending_at_reset "$st")"
[ "$(field fz_frozen_ms "$st")" -lt $((MS / 10)) ] ||
	fail "jiffies moved $(field fz_frozen_ms "$st") ms during the stop: not frozen"
[ "$(field fz_jump_ms "$st")" -ge $MS ] ||
	fail "jiffies caught up only $(field fz_jump_ms "$st") ms after a $MS ms stop"
echo "ok: no stall warning; jiffies frozen, then caught up $(field fz_jump_ms "$st") ms"
