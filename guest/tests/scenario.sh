#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The "make trace" scenario: a callback flood on CPU 0 while a reader
# holds CPU 1 for a while, recorded with rcupoll into /host/out.  On
# rcu_poll with test_rcu_poll (and its debugfs gp file); on Tree RCU
# (make trace VARIANT=tree) with rcu_scenario, which offers the same
# flood, hold and barrier.
. /usr/share/rcu_poll/lib.sh
D=/sys/kernel/debug/rcu
if [ -d /sys/kernel/tracing/events/rcu_poll ]; then
	load test_rcu_poll
	S=$D/test after="cat $D/gp"
else
	load rcu_scenario
	S=/sys/kernel/debug/rcu_scenario after="cat $S/stats"
fi
mkdir -p /host/out
cd /tmp || fail "no /tmp"
rcupoll record -o /tmp/rcupoll.dat -- sh -c "
	echo '0 20000 3000' > $S/flood
	sleep 0.5
	echo '1 1500' > $S/hold
	sleep 3
	echo 1 > $S/barrier
	$after" || fail "rcupoll record failed"
rcupoll report /tmp/rcupoll.dat > /tmp/rcupoll-report.txt || fail "rcupoll report failed"
cp /tmp/rcupoll.dat /tmp/rcupoll-report.txt /host/out/ || fail "copy to host failed"
cat /tmp/rcupoll-report.txt
