#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Queue exactly N callbacks on CPU 0 with test_rcu_poll while tracing:
# exactly N call and N invoke events for rcu_poll_test_cb, in our events
# and in the rcu: ones; each callback invoked after the end of the batch
# it was queued before (callbacks of one CPU are invoked in order, so
# the k-th invoked is the k-th queued); each batch sees one quiescent state from every
# CPU it waits for, before it ends, and accounts for every online CPU (waited for, or idle at the start); no
# event lost.  The rcu_barrier() after them: one Begin and one End, each
# online CPU either entrains a callback (IRQ) or has none (IRQNQ), one
# CB/LastCB per entrained callback, at most one LastCB, and End after
# the last test callback and after LastCB.
#
# What rcu_barrier() guarantees, and no more (kernel/rcu/poll.c): the
# count starts at 1 for the caller, each entrained callback adds one;
# a barrier callback decrements it and traces LastCB if it reached zero,
# CB otherwise.  If every barrier callback runs before the caller drops
# its own reference, they all trace CB and the caller's decrement
# completes the barrier: no LastCB at all (Tree RCU does the same).  A
# CB is traced after its decrement, so it may come after End, even after
# the write returns: wait until every entrained callback has traced.
# The timestamps of different CPUs are compared: the global trace clock.
. /usr/share/rcu_poll/lib.sh
N=${1:-1000}
T=/sys/kernel/tracing
D=/sys/kernel/debug/rcu
load test_rcu_poll
online=$(nproc)

put $T/tracing_on 0
put $T/buffer_size_kb 8192
put $T/trace_clock global
: > $T/trace
put $T/events/rcu_poll/enable 1
put $T/events/rcu/rcu_callback/enable 1
put $T/events/rcu/rcu_invoke_callback/enable 1
put $T/events/rcu/rcu_barrier/enable 1
put $T/tracing_on 1
put $D/test/queue "$N 0"
put $D/test/barrier 1
selftest_point
# barrier_traced: every callback rcu_barrier() entrained has traced CB
# or LastCB, and End is there.
barrier_traced() {
	awk '$0 ~ /rcu_barrier: rcu_poll / {
		for (i = 1; i <= NF; i++) if ($i == "rcu_barrier:") ph = $(i + 2)
		if (ph == "IRQ" || ph == "OfflineQ" || ph == "LateQ" || ph == "MigrateQ") q++
		if (ph == "CB" || ph == "LastCB") cb++
		if (ph == "End") e++
	} END { exit !(e >= 1 && cb >= q) }' $T/trace
}
wait_for 30 barrier_traced || echo "rcu_barrier: not every entrained callback traced in 30 s (judged below)"
put $T/tracing_on 0
put $T/events/rcu_poll/enable 0
put $T/events/rcu/enable 0
cat $T/trace > /tmp/events.txt
cat $D/test/stats

for s in $T/per_cpu/cpu*/stats; do
	expect_eq "events overrun in $s" 0 "$(sed -n 's/^overrun: //p' "$s")"
done

grep -m 3 'rcu_poll_call_rcu:.*rcu_poll_test_cb' /tmp/events.txt
grep -m 2 'rcu_poll_batch_start:' /tmp/events.txt
grep -m 2 'rcu_poll_qs:' /tmp/events.txt
grep -m 2 'rcu_poll_batch_end:' /tmp/events.txt
grep -m 2 'rcu_poll_invoke:.*rcu_poll_test_cb' /tmp/events.txt
grep -m 2 'rcu_poll_kick:' /tmp/events.txt

awk -v N="$N" -v online="$online" '
function kv(k,   i) {
	for (i = ev + 1; i <= NF; i++)
		if (index($i, k "=") == 1)
			return substr($i, length(k) + 2)
	return ""
}
function bad(msg) { if (nbad++ < 10) print "FAIL: " msg; }
{
	ev = 0
	for (i = 2; i <= NF; i++)
		if ($i ~ /^rcu(_poll)?_[a-z_]+:$/) { ev = i; break }
	if (!ev) next
	name = $ev; sub(/:$/, "", name)
	ts = $(ev - 1); sub(/:$/, "", ts); ts += 0
	fl = $(ev + 1)
	test_cb = kv("func") == "rcu_poll_test_cb"
}
name == "rcu_callback" && fl == "rcu_poll" && test_cb { rcu_calls++ }
name == "rcu_invoke_callback" && fl == "rcu_poll" && test_cb { rcu_invokes++ }
fl != "rcu_poll" { next }
name == "rcu_barrier" {
	ph = $(ev + 2); bar[ph]++
	if (ph == "IRQ" || ph == "IRQNQ") {
		c = $(ev + 4)
		if (c in barcpu) bad("rcu_barrier: CPU " c " reported twice: " $0)
		barcpu[c] = 1
	}
	if (ph == "Begin") bar_begin = ts
	else if (ph == "End") bar_end = ts
	else if (!bar_first || ts < bar_first) bar_first = ts
	# The IPIs are waited for and LastCB completes the wait: before End.
	if ((ph == "IRQ" || ph == "IRQNQ" || ph == "LastCB") && ts > bar_before_end)
		bar_before_end = ts
}
name == "rcu_poll_call_rcu" && test_cb {
	calls++
	if (kv("cpu") != 0) bad("callback queued on CPU " kv("cpu") ", not 0: " $0)
}
name == "rcu_poll_batch_start" {
	b = kv("batch"); start[b] = ts; nwait[b] = kv("nwait"); batches++
	queued_before[b] = calls
}
name == "rcu_poll_qs" {
	b = kv("batch"); c = kv("qs_cpu")
	if (!(b in start)) next
	if ((b, c) in seen) bad("batch " b ": CPU " c " seen twice")
	seen[b, c] = 1; nqs[b]++
	# A CPU idle at the start is quiescent at once and not waited for.
	if (kv("how") == "idle") nidle[b]++
	if (kv("how") == "qs" && kv("qs_after") == kv("qs_before")) bad("qs event without counter change: " $0)
}
name == "rcu_poll_batch_end" {
	b = kv("batch")
	if (!(b in start)) next
	ended[b] = ts
	if (nqs[b] - nidle[b] != nwait[b])
		bad("batch " b " ended after " nqs[b] - nidle[b] " quiescent states of the " nwait[b] " CPUs it waited for")
	if (nwait[b] + nidle[b] != online)
		bad("batch " b " waited for " nwait[b] " CPUs and counted " nidle[b] + 0 " idle, " online " are online")
}
name == "rcu_poll_invoke" && test_cb {
	invokes++; b = kv("batch"); last_invoke = ts
	if (!(b in ended)) bad("callback invoked in batch " b ", which has not ended: " $0)
	# One CPU queues and invokes in order: the k-th callback invoked is
	# the k-th queued, and must have been queued before its batch began.
	else if (invokes > queued_before[b])
		bad("callback " invokes " invoked in batch " b ", which began after only " queued_before[b] " were queued")
}
END {
	if (calls != N) bad("rcu_poll_call_rcu events: " calls + 0 ", want " N)
	if (invokes != N) bad("rcu_poll_invoke events: " invokes + 0 ", want " N)
	if (rcu_calls != N) bad("rcu:rcu_callback events: " rcu_calls + 0 ", want " N)
	if (rcu_invokes != N) bad("rcu:rcu_invoke_callback events: " rcu_invokes + 0 ", want " N)
	if (bar["Begin"] != 1 || bar["End"] != 1)
		bad("rcu_barrier Begin/End events: " bar["Begin"] + 0 "/" bar["End"] + 0 ", want 1/1")
	if (bar["IRQ"] + bar["IRQNQ"] != online)
		bad("rcu_barrier: " bar["IRQ"] + 0 " IRQ + " bar["IRQNQ"] + 0 " IRQNQ events, want one per online CPU (" online ")")
	nq = bar["IRQ"] + bar["OfflineQ"] + bar["LateQ"] + bar["MigrateQ"]
	if (bar["CB"] + bar["LastCB"] != nq)
		bad("rcu_barrier: " bar["CB"] + 0 " CB + " bar["LastCB"] + 0 " LastCB for " nq " entrained callbacks")
	if (bar["LastCB"] > 1)
		bad("rcu_barrier: " bar["LastCB"] " LastCB events, want at most 1")
	if (bar_end < last_invoke) bad("rcu_barrier ended at " bar_end " before the last callback ran at " last_invoke)
	if (bar_end < bar_before_end) bad("rcu_barrier ended at " bar_end " before its IRQ/IRQNQ/LastCB event at " bar_before_end)
	if (bar_first && bar_first < bar_begin) bad("rcu_barrier event at " bar_first " before Begin at " bar_begin)
	if (!nbad) print "ok: " N " callbacks queued and invoked in " batches " traced batches, each after its batch ended; every batch saw all " online " CPUs; rcu_barrier entrained on " bar["IRQ"] + 0 " CPUs, " bar["IRQNQ"] + 0 " had nothing, " bar["CB"] + 0 " CB + " bar["LastCB"] + 0 " LastCB"
	exit nbad > 0
}' /tmp/events.txt || fail "trace does not tell the story of $N callbacks (see above)"

# The events print flavours and functions as text: the formats say so.
grep -q 'print fmt: "%s cpu=%d rhp=%p func=%ps' $T/events/rcu_poll/rcu_poll_call_rcu/format ||
	fail "rcu_poll_call_rcu format changed"
grep -q '__data_loc unsigned long\[\] waits' $T/events/rcu_poll/rcu_poll_batch_start/format ||
	fail "rcu_poll_batch_start has no waits bitmask"
rmmod test_rcu_poll || fail "rmmod failed"
