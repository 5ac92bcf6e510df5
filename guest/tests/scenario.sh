#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The "make trace" scenario: a callback flood on CPU 0 while a reader
# holds CPU 1 for a while, recorded with rcupoll into /host/out.
. /usr/share/rcu_poll/lib.sh
D=/sys/kernel/debug/rcu
load test_rcu_poll
mkdir -p /host/out
cd /tmp || fail "no /tmp"
rcupoll record -o /tmp/rcupoll.dat -- sh -c "
	echo '0 20000 3000' > $D/test/flood
	sleep 0.5
	echo '1 1500' > $D/test/hold
	sleep 3
	echo 1 > $D/test/barrier
	cat $D/gp" || fail "rcupoll record failed"
rcupoll report /tmp/rcupoll.dat > /tmp/rcupoll-report.txt || fail "rcupoll report failed"
cp /tmp/rcupoll.dat /tmp/rcupoll-report.txt /host/out/ || fail "copy to host failed"
cat /tmp/rcupoll-report.txt
