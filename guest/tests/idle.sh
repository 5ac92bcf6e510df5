#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Idle is a quiescent state nobody has to wake.  CPU 0 queues one
# callback every 20 ms (N batches) while the other CPUs idle; the trace
# must account for every other CPU in every batch: either the batch
# waited for it (it was busy at the start) and kicked it, or counted it
# idle (rcu_poll_qs how=idle) and kicked nothing.  No kick ever goes to
# a CPU the batch counted idle, and on an idle guest most batches find
# the other CPUs idle.  Usage: idle.sh [N]
. /usr/share/rcu_poll/lib.sh
N=${1:-50}
T=/sys/kernel/tracing
D=/sys/kernel/debug/rcu
load test_rcu_poll
[ "$(nproc)" -ge 2 ] || fail "needs 2 CPUs"
put $T/tracing_on 0
put $T/buffer_size_kb 4096
: > $T/trace
for e in rcu_poll_batch_start rcu_poll_qs rcu_poll_kick; do
	put $T/events/rcu_poll/$e/enable 1
done
grep RES /proc/interrupts > /tmp/res.before
put $T/tracing_on 1
i=0
while [ $i -lt "$N" ]; do
	echo "1 0" > $D/test/queue || fail "queue failed"
	usleep 20000
	i=$((i + 1))
done
put $D/test/barrier 1
put $T/tracing_on 0
grep RES /proc/interrupts > /tmp/res.after
put $T/events/rcu_poll/enable 0
cat /tmp/res.before /tmp/res.after
grep -E 'rcu_poll_(batch_start|qs|kick): rcu_poll ' $T/trace > /tmp/idle.txt
awk -v ncpu="$(nproc)" '
# bit C of a hex mask (comma-separated 32-bit words, lowest last)
function bit(m, c,   d, i, v) {
	gsub(/,/, "", m)
	d = substr(m, length(m) - int(c / 4), 1)
	v = index("0123456789abcdef", tolower(d)) - 1
	for (i = 0; i < c % 4; i++) v = int(v / 2)
	return v % 2
}
function kv(k,   i) { for (i = 1; i <= NF; i++) if (index($i, k "=") == 1) return substr($i, length(k) + 2); return "" }
# Only batches of CPU 0: each accounts for CPUs 1..ncpu-1.
/rcu_poll_batch_start:/ && kv("cpu") == 0 {
	b = kv("batch"); batches++; owner[b] = 1
	w = kv("waits"); waitmask[b] = w
}
/rcu_poll_qs:/ && kv("cpu") == 0 && kv("how") == "idle" { idle[kv("batch"), kv("qs_cpu")] = 1 }
/rcu_poll_kick:/ && kv("cpu") == 0 { kick[kv("batch"), kv("target")]++ }
END {
	for (b in owner) {
		for (c = 1; c < ncpu; c++) {
			waited = bit(waitmask[b], c)
			if (waited && (b, c) in idle) { print "FAIL: batch " b " waited for CPU " c " and counted it idle"; bad++ }
			if (!waited && !((b, c) in idle)) { print "FAIL: batch " b " neither waited for CPU " c " nor counted it idle"; bad++ }
			if (!waited && kick[b, c]) { print "FAIL: batch " b " kicked CPU " c ", which it counted idle"; bad++ }
			if (waited && !kick[b, c]) { print "FAIL: batch " b " waited for busy CPU " c " without kicking it"; bad++ }
			if (!waited) nidle++; else nbusy++
		}
	}
	printf "batches of CPU 0: %d; other CPUs counted idle %d times, busy (kicked) %d times\n", batches, nidle, nbusy
	if (batches < 10) { print "FAIL: only " batches " batches of CPU 0"; bad++ }
	if (nidle <= nbusy) { print "FAIL: an idle guest, yet the other CPUs were idle at only " nidle " of " nidle + nbusy " batch starts"; bad++ }
	exit bad > 0
}' /tmp/idle.txt || fail "idle CPUs not accounted as quiescent (see above)"
rmmod test_rcu_poll || fail "rmmod failed"
