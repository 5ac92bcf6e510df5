#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Bad input gets -EINVAL and changes nothing: every control of
# test_rcu_poll, the debugfs reset file, the rcu_poll module parameters.
. /usr/share/rcu_poll/lib.sh
D=/sys/kernel/debug/rcu
P=/sys/module/rcu_poll/parameters
load test_rcu_poll
T=$D/test
before=$(cat $T/stats)

for v in "" "x" "10" "10 0 0" "0 0" "-1 0" "1000001 0" "10 -1" "10 8" "10 4294967296" \
	 "10  0" " 10 0" "10 0x1" "1e3 0" "99999999999999999999 0"; do
	expect_einval $T/queue "$v"
	expect_einval $T/queue_preempt "$v"
done
for v in "" "1" "1 0 0" "1 0" "1 60001" "8 100" "-1 100" "1 abc" "1 100 " ; do
	expect_einval $T/hold "$v"
	expect_einval $T/hold_irqoff "$v"
	expect_einval $T/preempt_reader "$v"
	expect_einval $T/sync "$v"
done
for v in "" "1 100" "1 0 100" "1 10000001 100" "1 100 0" "1 100 60001" "8 1 1"; do
	expect_einval $T/flood "$v"
done
for v in "" "0" "2" "1 1" "yes"; do
	expect_einval $T/barrier "$v"
done

# An offline CPU is refused too.
put /sys/devices/system/cpu/cpu1/online 0
expect_einval $T/queue "10 1"
expect_einval $T/hold "1 100"
expect_einval $T/flood "1 100 100"
put /sys/devices/system/cpu/cpu1/online 1

sleep 0.5
expect_eq "test_rcu_poll stats after bad input" "$before" "$(cat $T/stats)"

# reset takes "1" only.
c0=$(field count "$(grep '^latency flavour=rcu_poll ' $D/gp)")
for v in "" "0" "2" "11" "1 1" "one"; do
	expect_einval $D/reset "$v"
done
c1=$(field count "$(grep '^latency flavour=rcu_poll ' $D/gp)")
[ "$c1" -ge "$c0" ] || fail "a refused reset cleared the statistics ($c0 -> $c1)"
put $D/reset 1

# Module parameters: positive numbers only, pending_max at most 10000.
for p in blimit qhimark pending_max; do
	old=$(cat $P/$p)
	for v in "" "0" "-1" "abc" "1.5" "99999999999999999999999"; do
		expect_einval $P/$p "$v"
	done
	expect_eq "$p unchanged" "$old" "$(cat $P/$p)"
done
expect_einval $P/pending_max 10001
put $P/pending_max 10000
put $P/pending_max 100
expect_eq "pending_max" 100 "$(cat $P/pending_max)"

# Scenario files are write-only, stats read-only.
cat $T/queue 2>/dev/null && fail "queue is readable"
rmmod test_rcu_poll || fail "rmmod failed"

# Unloading with callbacks in flight waits for them (rcu_barrier in exit).
load test_rcu_poll
put $T/queue "100000 0"
put $T/queue_preempt "1000 1"
rmmod test_rcu_poll || fail "rmmod with callbacks pending failed"
rcudata_invariant || fail "invariant broken after unload"
grep -q 'rcu_poll_test' $D/pending && fail "callbacks of the unloaded module still pending"
echo "ok: module unloaded with 101000 callbacks in flight, none left behind"
