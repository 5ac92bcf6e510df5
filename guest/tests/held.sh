#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The same diagnosis on either RCU: rcu_scenario (guest/modules, built for
# rcu_poll and Tree RCU alike) holds CPU 1 in a reader (preemption off)
# for 3 s while its sync thread on CPU 0 keeps asking for grace periods;
# rcupoll record traces it (rcu_poll's events, or Tree RCU's rcu:*), and
# rcupoll report must say that a grace period was late because CPU 1 ran
# rcupoll_hold/1, numbered as the kernel's own events number it (the
# rcu_poll batch, or Tree's gp_seq: cross-checked against trace-cmd).
# The recording goes to /host/out/held-VARIANT.dat for the host tests.
. /usr/share/rcu_poll/lib.sh
R=${RCUPOLL:-rcupoll}
S=/sys/kernel/debug/rcu_scenario
T=/sys/kernel/tracing
[ "$(nproc)" -ge 2 ] || fail "needs 2 CPUs"
if [ -d $T/events/rcu_poll ]; then
	variant=poll flavour=rcu_poll start_ev=rcu_poll_batch_start
else
	variant=tree flavour=rcu_preempt start_ev=rcu_grace_period
fi
load rcu_scenario
mkdir -p /host/out
cd /tmp || fail "no /tmp"
$R record -o /tmp/held.dat -- sh -c "
	echo '0 4500' > $S/sync
	sleep 0.5
	echo '1 3000' > $S/hold
	sleep 3.5" > /tmp/rec.txt 2>&1 || { cat /tmp/rec.txt; fail "rcupoll record failed"; }
cat /tmp/rec.txt
cp /tmp/held.dat "/host/out/held-$variant.dat" || fail "copy to /host/out failed"
$R report /tmp/held.dat > /tmp/held.txt || fail "rcupoll report failed"
cat /tmp/held.txt
# One CSV row per grace period: flavour,batch,cpu,start_s,end_s,duration_us,
# in_flight,slow,ncbs,cause,cause_cpu,cause_pid,cause_comm,wait_us,why.
$R report -f csv -t batches /tmp/held.dat > /tmp/held.csv || fail "rcupoll report -f csv failed"
row=$(awk -F, -v f=$flavour '$1 == f && $10 == "cpu_held" && $11 == 1 && $13 == "rcupoll_hold/1"' /tmp/held.csv |
	sort -t, -k6 -g | tail -n 1)
[ -n "$row" ] || fail "no $flavour grace period held by rcupoll_hold/1 on CPU 1 in the report"
nr=$(echo "$row" | cut -d, -f2)
us=$(echo "$row" | cut -d, -f6)
echo "ok: $flavour $nr was held by rcupoll_hold/1 on CPU 1 for ${us} us"
# The slowest of all is that one (nothing else holds a grace period 3 s).
top=$(sort -t, -k6 -g /tmp/held.csv | tail -n 1 | cut -d, -f2)
expect_eq "the slowest grace period" "$nr" "$top"
# The hold spins 3000 ms; the sync thread asks again within about 10 ms of
# each grace period's end, so one starts early in the hold: over 1.5 s.
[ "${us%.*}" -ge 1500000 ] || fail "the held grace period took only $us us of the 3 s hold"
# Its number is the kernel's: a start event of the trace carries it.
if [ $variant = tree ]; then
	pat="$start_ev: *$flavour $nr start\$"
	title="  $flavour gp_seq $nr, started "
else
	pat="$start_ev: *$flavour cpu=[0-9]* batch=$nr "
	title="  $flavour $nr of CPU "
fi
trace-cmd report -i /tmp/held.dat 2> /dev/null | grep -q "$pat" ||
	fail "no '$pat' event in the trace: the report's number is not the kernel's"
echo "ok: trace-cmd shows the start of $flavour $nr"
grep -A1 "^$title" /tmp/held.txt | grep -q "^    CPU 1 passed no quiescent state for [0-9.]* ms: rcupoll_hold/1 (pid [0-9]*) ran there without a context switch" ||
	fail "the text report does not name CPU 1 and rcupoll_hold/1 under '$title'"
echo "ok: the report names CPU 1 and rcupoll_hold/1 for $flavour $nr"
