#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# rcupoll, the capture tool, in the guest: record around a command that
# queues exactly N callbacks, report them back by function; the flight
# recorder catches a batch held back by CPU 1 and writes what led up to
# it; bad arguments and bad files are refused with a message and leave
# no output file.  The recordings go to /host/out for the host tests.
. /usr/share/rcu_poll/lib.sh
N=${1:-300}
D=/sys/kernel/debug/rcu
load test_rcu_poll
mkdir -p /host/out
cd /tmp || fail "no /tmp"

# 1. record around a command.
rcupoll record -o /tmp/tool.dat -- sh -c "echo '$N 0' > $D/test/queue && echo 1 > $D/test/barrier" > /tmp/rec.txt 2>&1 ||
	{ cat /tmp/rec.txt; fail "rcupoll record failed"; }
cat /tmp/rec.txt
grep -q '^rcupoll: recorded [1-9][0-9]* events (0 lost) into /tmp/tool.dat ([1-9][0-9]* bytes)$' /tmp/rec.txt ||
	fail "record did not say what it recorded, or lost events"
[ -e /tmp/tool.dat.tmp.* ] 2>/dev/null && fail "temporary file left behind"
rcupoll report /tmp/tool.dat > /tmp/rep.txt || fail "rcupoll report failed"
cat /tmp/rep.txt
line=$(grep '^  rcu_poll_test_cb ' /tmp/rep.txt) || fail "report has no latency line for rcu_poll_test_cb"
expect_eq "callbacks of rcu_poll_test_cb in the report" "$N" "$(echo "$line" | awk '{print $2}')"
grep -q '^  rcu_poll  *[1-9]' /tmp/rep.txt || fail "report has no rcu_poll batch summary"
rcupoll report -f json /tmp/tool.dat | grep -q "\"func\":\"rcu_poll_test_cb\",\"count\":$N," ||
	fail "json report lacks rcu_poll_test_cb count $N"
rcupoll report -f csv /tmp/tool.dat | grep -q "^callback,rcu_poll_test_cb,$N," ||
	fail "csv report lacks rcu_poll_test_cb count $N"
cp /tmp/tool.dat /host/out/tool.dat || fail "copy to host failed"
echo "$N" > /host/out/tool.dat.n

# 2. the flight recorder catches a batch older than 1.5 s: CPU 1 is held
#    for 4 s once the recorder says it is armed, and a callback is queued
#    on CPU 0 once the hold thread is seen spinning.
rm -rf /tmp/fl && mkdir /tmp/fl
rcupoll flight -o /tmp/fl -t 1500 -w 60 > /tmp/fl.out 2>&1 &
fpid=$!
wait_for 30 grep -q '^rcupoll: flight recorder armed' /tmp/fl.out ||
	{ cat /tmp/fl.out; fail "flight recorder not armed after 30 s"; }
echo "1 4000" > $D/test/hold || fail "hold failed"
wait_for 20 task_ran rcupoll_hold/1 || fail "the hold thread never ran on CPU 1"
echo "1 0" > $D/test/queue || fail "queue failed"
wait $fpid
rc=$?
cat /tmp/fl.out
expect_eq "flight exit status" 0 "$rc"
[ -s /tmp/fl/rcupoll-stall.dat ] || fail "no rcupoll-stall.dat"
grep -q 'kind=cpu cpu=1 .*comm=rcupoll_hold/1' /tmp/fl/rcupoll-stall.txt ||
	{ cat /tmp/fl/rcupoll-stall.txt; fail "diagnosis does not name rcupoll_hold/1 on CPU 1"; }
rcupoll report /tmp/fl/rcupoll-stall.dat > /tmp/flrep.txt || fail "report of the flight recording failed"
cat /tmp/flrep.txt
grep -q '^  rcu_poll  *[0-9]*  *0  *[0-9.]*  1$' /tmp/flrep.txt ||
	fail "report of the flight recording does not show CPU 0's batch still waiting for CPU 1"
cp /tmp/fl/rcupoll-stall.dat /tmp/fl/rcupoll-stall.txt /host/out/ || fail "copy to host failed"
echo 1 > $D/test/barrier

# 3. errors: a message, a non-zero status, no output file.
expect_fail() {
	"$@" > /tmp/err.txt 2>&1 && fail "'$*' succeeded"
	grep -q '^rcupoll: \|^usage:' /tmp/err.txt || { cat /tmp/err.txt; fail "'$*': no message"; }
	echo "ok: '$*' refused: $(head -n 1 /tmp/err.txt)"
}
expect_fail rcupoll
expect_fail rcupoll frobnicate
expect_fail rcupoll record -d 0
expect_fail rcupoll record -d abc
expect_fail rcupoll flight -t -5
expect_fail rcupoll report
expect_fail rcupoll report -f xml /tmp/tool.dat
expect_fail rcupoll report /nonexistent.dat
head -c 3000 /tmp/tool.dat > /tmp/trunc.dat
expect_fail rcupoll report /tmp/trunc.dat
echo "not a trace" > /tmp/junk.dat
expect_fail rcupoll report /tmp/junk.dat
expect_fail rcupoll record -o /nonexistent/dir/x.dat -d 1
[ -e /nonexistent/dir/x.dat ] && fail "output written despite the error"
rmmod test_rcu_poll || fail "rmmod failed"
