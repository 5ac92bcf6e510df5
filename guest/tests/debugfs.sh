#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# /sys/kernel/debug/rcu: N callbacks queued on CPU 0 while CPU 1 holds
# every batch back show up in pending (exactly N, then bounded by
# pending_max with "... K more"), in rcudata and in gp with CPU 1 and
# its task as the holdout; after the hold, pending drops to 0.
# queued = invoked + pending holds per CPU and in total, also after
# CPU 1 goes offline with callbacks queued and comes back.
. /usr/share/rcu_poll/lib.sh
N=${1:-500}
D=/sys/kernel/debug/rcu
P=/sys/module/rcu_poll/parameters
load test_rcu_poll
[ "$(nproc)" -ge 2 ] || fail "needs 2 CPUs"

for f in rcudata pending gp reset; do
	[ -e $D/$f ] || fail "no $D/$f"
done
expect_eq "rcudata mode" "-r--------" "$(ls -l $D/rcudata | cut -c1-10)"
expect_eq "reset mode" "--w-------" "$(ls -l $D/reset | cut -c1-10)"
head -n 1 $D/rcudata | grep -q '^# cpu online qs batch' || fail "rcudata has no header"
expect_eq "rcudata records" "$(nproc)" "$(grep -c '^cpu=' $D/rcudata)"
rcudata_invariant || fail "invariant broken at start"

# 1. CPU 1 holds batches back for 4 s; N callbacks wait on CPU 0.
put $P/pending_max 10000
put $D/test/hold "1 4000"
sleep 0.3
put $D/test/queue "$N 0"
grep -c 'func=rcu_poll_test_cb' $D/pending > /tmp/n
expect_eq "pending lines for rcu_poll_test_cb" "$N" "$(cat /tmp/n)"
expect_eq "pending lines on CPU 0 list cur or nxt" "$N" \
	"$(grep 'func=rcu_poll_test_cb' $D/pending | grep -c '^flavour=rcu_poll cpu=0 list=\(cur\|nxt\) ')"
expect_eq "test stats pending" "$N" "$(field pending "$(cat $D/test/stats)")"
grep -m 2 'rcu_poll_test_cb' $D/pending
line=$(grep '^cpu=0 ' $D/rcudata)
echo "$line"
expect_eq "rcudata cpu 0 polling" 1 "$(field polling "$line")"
expect_eq "rcudata cpu 0 waits" 1 "$(field waits "$line")"
pend=$(( $(field nxt "$line") + $(field cur "$line") + $(field done "$line") ))
[ "$pend" -ge "$N" ] || fail "rcudata cpu 0 has $pend pending, want >= $N"
rcudata_invariant || fail "invariant broken while held"
grep -v '^hist' $D/gp
gpline=$(grep '^batch flavour=rcu_poll cpu=0 ' $D/gp) || fail "gp shows no batch of CPU 0"
expect_eq "gp batch waits" 1 "$(field waits "$gpline")"
grep -q '^holdout flavour=rcu_poll batch=[0-9]* kind=cpu cpu=1 pid=[0-9]* comm=rcupoll_hold/1 ' $D/gp ||
	fail "gp does not name rcupoll_hold/1 on CPU 1 as the holdout"
grep -q '^holdout flavour=rcu_poll batch=[0-9]* kind=cpu cpu=0 ' $D/gp &&
	grep '^batch flavour=rcu_poll cpu=0 ' $D/gp | grep -q 'waits=1$' &&
	fail "gp names CPU 0 as a holdout of a batch that only waits for CPU 1"

# 2. A smaller pending_max bounds the listing: "... K more" completes it.
put $P/pending_max 50
awk '/func=rcu_poll_test_cb/ { n++ } / \.\.\. [0-9]+ more$/ { m += $(NF - 1) }
	END { print n + 0, m + 0 }' $D/pending > /tmp/nm
read -r listed more < /tmp/nm
echo "pending_max=50: $listed listed, $more more"
[ "$listed" -le 100 ] || fail "pending_max 50 listed $listed test callbacks (two lists at most: <= 100)"
[ $((listed + more)) -ge "$N" ] || fail "listed $listed + more $more < $N"
put $P/pending_max 100

# 3. The hold ends: everything is invoked, nothing is pending.
put $D/test/barrier 1
expect_eq "pending lines after barrier" 0 "$(grep -c 'func=rcu_poll_test_cb' $D/pending)"
stats=$(cat $D/test/stats)
echo "$stats"
expect_eq "test stats pending" 0 "$(field pending "$stats")"
expect_eq "test stats invoked" "$N" "$(field invoked "$stats")"
rcudata_invariant || fail "invariant broken after barrier"
# Each of the N callbacks waited for the hold, queued 0.3 s into 4 s.
lat=$(cat $D/test/latency)
echo "$lat"
expect_eq "latency callbacks" "$N" "$(field callbacks "$lat")"
[ "$(field p50_us "$lat")" -ge 3000000 ] || fail "median latency under 3 s with CPU 1 held 4 s"
[ "$(field p50_us "$lat")" -le "$(field p99_us "$lat")" ] &&
	[ "$(field p99_us "$lat")" -le "$(field max_us "$lat")" ] ||
	fail "latency percentiles out of order"
grep -q '^latency flavour=rcu_poll count=[1-9]' $D/gp || fail "no latency summary"
grep -q '^hist flavour=rcu_poll lo_us=' $D/gp || fail "no latency histogram"

# 4. CPU 1 goes offline with callbacks queued: they move to CPU 0 and
#    are invoked there, none lost.  blimit 1 keeps them pending.
mig0=$(field mig_out "$(grep '^cpu=1 ' $D/rcudata)")
put $P/blimit 1
put $P/qhimark 1000000000
put $D/test/queue "200000 1"
put /sys/devices/system/cpu/cpu1/online 0
line=$(grep '^cpu=1 ' $D/rcudata)
echo "$line"
expect_eq "rcudata cpu 1 online" 0 "$(field online "$line")"
mig=$(( $(field mig_out "$line") - mig0 ))
[ "$mig" -gt 0 ] || fail "CPU 1 went offline with nothing to hand over (mig_out $mig): test did not test"
echo "ok: CPU 1 handed $mig callbacks over"
expect_eq "rcudata cpu 1 pending" 0 $(( $(field nxt "$line") + $(field cur "$line") + $(field done "$line") ))
rcudata_invariant || fail "invariant broken with CPU 1 offline"
put $P/blimit 10
put $P/qhimark 10000
put /sys/devices/system/cpu/cpu1/online 1
put $D/test/barrier 1
stats=$(cat $D/test/stats)
echo "$stats"
expect_eq "test stats pending after hotplug" 0 "$(field pending "$stats")"
expect_eq "test stats invoked after hotplug" $((N + 200000)) "$(field invoked "$stats")"
rcudata_invariant || fail "invariant broken after hotplug"
expect_eq "online CPUs" 1 "$(field online "$(grep '^cpu=1 ' $D/rcudata)")"

# 5. reset clears the statistics.
put $D/reset 1
grep '^latency flavour=rcu_poll ' $D/gp
count=$(field count "$(grep '^latency flavour=rcu_poll ' $D/gp)")
[ "$count" -lt 50 ] || fail "latency count $count after reset"
rmmod test_rcu_poll || fail "rmmod failed"
