#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Grace periods that move under a real-time hog.  A SCHED_FIFO kthread
# busy on CPU 1 for 4 s starves ksoftirqd there (so every softirq of CPU
# 1 waits) while queueing 500 callbacks a second on CPU 1; CPU 0 runs
# synchronize_rcu() every 10 ms.  Grace periods must keep completing,
# and CPU 1's callbacks must be invoked while the hog still runs (by
# another CPU): its queue stays bounded.
. /usr/share/rcu_poll/lib.sh
D=/sys/kernel/debug/rcu
load test_rcu_poll
[ "$(nproc)" -ge 2 ] || fail "needs 2 CPUs"
cpu1() { grep '^cpu=1 ' $D/rcudata; }
# No RT throttling, as on a real-time system: otherwise the hog leaves
# ksoftirqd 5 % of the CPU and the starvation is partial.
R=/proc/sys/kernel/sched_rt_runtime_us
old_rt=$(cat $R)
put $R -1
trap 'echo "$old_rt" > $R' EXIT
s0=$(field syncs "$(cat $D/test/stats)")
inv0=$(field invoked "$(cpu1)")
put $D/test/sync "0 4000"
put $D/test/fifo_hog "1 500 4000"
usleep 3000000
l=$(cpu1)
s=$(cat $D/test/stats)
echo "$l"
echo "$s"
syncs=$(( $(field syncs "$s") - s0 ))
inv=$(( $(field invoked "$l") - inv0 ))
pend=$(( $(field nxt "$l") + $(field cur "$l") + $(field done "$l") ))
echo "3 s into the hog: $syncs grace periods on CPU 0, $inv callbacks invoked for CPU 1, $pend pending there, helped $(field helped "$l") times"
wait_for 30 sh -c "grep -q ' threads=0 ' $D/test/stats" || fail "threads did not end"
[ "$syncs" -gt 10 ] || fail "only $syncs grace periods in 3 s with CPU 1 hogged"
[ "$inv" -gt 0 ] || fail "no callback of CPU 1 invoked while its softirq was starved ($pend pending)"
[ "$(field helped "$l")" -gt 0 ] || fail "nobody helped the starved CPU"
put $D/test/barrier 1
expect_eq "pending after barrier" 0 "$(field pending "$(cat $D/test/stats)")"
rmmod test_rcu_poll || fail "rmmod failed"
