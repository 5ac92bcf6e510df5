#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# When a CPU really passes a quiescent state: rcu_poll_cpu_qs fires for
# every one while enabled, so on each CPU consecutive events count up by
# exactly one, and every context switch (sched_switch) comes with one
# (how=switch or preempt) on its CPU just before it.  A task preempted
# inside a preempt-flavour reader takes a reference (rcu_poll_preempt_task
# how=get) and drops it (how=put) once it runs and blocks again.
. /usr/share/rcu_poll/lib.sh
T=/sys/kernel/tracing
D=/sys/kernel/debug/rcu
load test_rcu_poll
put $T/tracing_on 0
put $T/buffer_size_kb 8192
: > $T/trace
put $T/events/rcu_poll/rcu_poll_cpu_qs/enable 1
put $T/events/rcu_poll/rcu_poll_preempt_task/enable 1
put $T/events/sched/sched_switch/enable 1
put $T/tracing_on 1
put $D/test/preempt_reader "1 300"
put $D/test/queue "100 0"
wait_for 20 sh -c "grep -q ' threads=0 ' $D/test/stats" || fail "preempt_reader did not end"
put $T/tracing_on 0
put $T/events/rcu_poll/enable 0
put $T/events/sched/sched_switch/enable 0
for s in $T/per_cpu/cpu*/stats; do
	expect_eq "events overrun in $s" 0 "$(sed -n 's/^overrun: //p' "$s")"
done
cat $T/trace > /tmp/qs.txt
grep -m 3 'rcu_poll_cpu_qs:' /tmp/qs.txt
grep -m 2 'rcu_poll_preempt_task:' /tmp/qs.txt
awk '
function kv(k,   i) { for (i = 1; i <= NF; i++) if (index($i, k "=") == 1) return substr($i, length(k) + 2); return "" }
function bad(m) { if (nbad++ < 10) print "FAIL: " m }
{
	cpu = $0; sub(/^[^[]*\[/, "", cpu); sub(/\].*/, "", cpu); cpu += 0
}
/rcu_poll_cpu_qs:/ {
	q = kv("qs") + 0; h = kv("how")
	if ((cpu in last) && q != last[cpu] + 1) bad("CPU " cpu ": qs " last[cpu] " then " q)
	last[cpu] = q; prev_sw[cpu] = (h == "switch" || h == "preempt"); nqs++
	next
}
/sched_switch:/ {
	nsw++
	if (!prev_sw[cpu]) bad("CPU " cpu ": context switch without a quiescent state before it: " $0)
	prev_sw[cpu] = 0
	next
}
/rcu_poll_preempt_task:/ && kv("comm") ~ /^rcupoll_read/ { pt[kv("how")]++ }
END {
	print nqs + 0 " quiescent states, " nsw + 0 " context switches; rcupoll_read: get " pt["get"] + 0 ", put " pt["put"] + 0
	if (nsw < 10) bad("only " nsw + 0 " context switches traced")
	if (pt["get"] < 1) bad("the preempted reader took no reference")
	if (pt["get"] != pt["put"]) bad("the reader took " pt["get"] + 0 " references and dropped " pt["put"] + 0)
	exit nbad > 0
}' /tmp/qs.txt || fail "quiescent-state events do not tell every quiescent state"
rmmod test_rcu_poll || fail "rmmod failed"
