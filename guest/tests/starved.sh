#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# A grace period late because a real-time task starved RCU_SOFTIRQ.
# rcu_scenario's fifo_hog runs a SCHED_FIFO thread (rcupoll_fifo/1) busy
# on CPU 1 for 2 s, preemption and interrupts on, queueing 500 callbacks
# a second there; it first wakes ksoftirqd/1, which it then keeps off the
# CPU, so every softirq of CPU 1 waits for the hog to end (RT throttling
# off for the test, as on a real-time system, so that the starvation is
# whole).  CPU 0 asks for grace periods meanwhile.  rcupoll record traces
# it and rcupoll report must say so, naming CPU 1, rcupoll_fifo/1 and
# ksoftirqd/1 kept off the CPU (not "interrupts were probably off"):
#  - rcu_poll starts and polls a CPU's batches only from its RCU_SOFTIRQ:
#    the hog's callbacks wait over 1.5 s for a batch to start on CPU 1
#    (no_start), or, if CPU 1 had a batch in flight when the hog began,
#    that batch waits as long for CPU 1 to poll it (not_polled);
#  - Tree RCU: CPU 1 notices the grace period, and reports its quiescent
#    state, only from RCU_SOFTIRQ: the grace period waits over 1.5 s for
#    CPU 1 (cpu_held, or not_reported if it noticed the grace period just
#    before the hog began).
# The recording goes to /host/out/starved-VARIANT.dat.
. /usr/share/rcu_poll/lib.sh
R=${RCUPOLL:-rcupoll}
S=/sys/kernel/debug/rcu_scenario
T=/sys/kernel/tracing
[ "$(nproc)" -ge 2 ] || fail "needs 2 CPUs"
[ -d $T/events/rcu_poll ] && variant=poll || variant=tree
task=rcupoll_fifo/1
RT=/proc/sys/kernel/sched_rt_runtime_us
old_rt=$(cat $RT)
load rcu_scenario
put $RT -1
mkdir -p /host/out
cd /tmp || fail "no /tmp"
$R record -o /tmp/starved.dat -- sh -c "
	echo '0 3000' > $S/sync
	sleep 0.3
	echo '1 500 2000' > $S/fifo_hog
	sleep 2.5" > /tmp/rec.txt 2>&1 || { cat /tmp/rec.txt; fail "rcupoll record failed"; }
echo "$old_rt" > $RT
cat /tmp/rec.txt
cp /tmp/starved.dat "/host/out/starved-$variant.dat" || fail "copy to /host/out failed"
wait_for 30 sh -c "grep -q ' threads=0 ' $S/stats" || fail "the scenario threads did not end"
st=$(cat $S/stats)
echo "$st"
[ "$(field alloc_failed "$st")" = 0 ] || fail "callbacks not queued: $st"
$R report /tmp/starved.dat > /tmp/starved.txt || fail "rcupoll report failed"
cat /tmp/starved.txt
$R report -f csv -t batches /tmp/starved.dat > /tmp/batches.csv || fail "report -t batches failed"
$R report -f csv -t delays /tmp/starved.dat > /tmp/delays.csv || fail "report -t delays failed"
# batches: flavour,batch,cpu,start_s,end_s,duration_us,in_flight,slow,ncbs,
# cause,cause_cpu,cause_pid,cause_comm,wait_us,why; delays: flavour,cpu,
# batch,from_s,to_s,wait_us,callbacks,cause_pid,cause_comm,why.
kept="they waited for ksoftirqd/1, runnable from [0-9.]* but kept off the CPU"
if [ $variant = poll ]; then
	b=$(awk -F, -v t="$task" '$1 == "rcu_poll" && $10 == "not_polled" && $11 == 1 &&
		$13 == t && $6 >= 1500000' /tmp/batches.csv | head -n 1)
	d=$(awk -F, -v t="$task" '$1 == "rcu_poll" && $2 == 1 && $9 == t && $6 >= 1500000 &&
		$7 >= 500' /tmp/delays.csv | head -n 1)
	[ -n "$b$d" ] || fail "no batch of CPU 1 unpolled, nor callbacks of CPU 1 waiting for a batch, for 1.5 s behind $task"
	if [ -n "$d" ]; then
		echo "ok: callbacks waited for a batch on CPU 1 behind $task: $d"
		grep -q "no batch started for [0-9.]* ms while [0-9]* callbacks waited on CPU 1: $task (pid [0-9]*) ran there.*; no softirq ran on CPU 1 from .*: $kept" /tmp/starved.txt ||
			fail "the text report does not say that $task kept ksoftirqd/1 off CPU 1 while callbacks waited"
	else
		echo "ok: CPU 1 did not poll its batch behind $task: $b"
		grep -q "the batch's own CPU 1 did not poll it for [0-9.]* ms (RCU_SOFTIRQ waited behind $task (pid [0-9]*).*; no softirq ran on CPU 1 from .*: $kept" /tmp/starved.txt ||
			fail "the text report does not say that $task kept ksoftirqd/1 off CPU 1 while its batch waited"
	fi
else
	row=$(sort -t, -k6 -g /tmp/batches.csv | tail -n 1)
	echo "$row" | awk -F, -v t="$task" '$1 == "rcu_preempt" && ($10 == "cpu_held" ||
		$10 == "not_reported") && $11 == 1 && $13 == t && $6 >= 1500000 { ok = 1 } END { exit !ok }' ||
		fail "the slowest grace period is not one held 1.5 s by $task on CPU 1: $row"
	echo "ok: the slowest grace period was held by $task on CPU 1: $row"
	grep -q "CPU 1 .*$task (pid [0-9]*).*; no softirq ran on CPU 1 from .*: $kept" /tmp/starved.txt ||
		fail "the text report does not say that $task kept ksoftirqd/1 off CPU 1"
fi
echo "ok: the report says that ksoftirqd/1 was kept off CPU 1 (not that interrupts were off)"
grep -q "interrupts were probably off" /tmp/starved.txt &&
	fail "the report says interrupts were probably off, but they were on: $(grep 'interrupts were probably off' /tmp/starved.txt | head -n 1)"
put $S/barrier 1
expect_eq "pending after barrier" 0 "$(field pending "$(cat $S/stats)")"
