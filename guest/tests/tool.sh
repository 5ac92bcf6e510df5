#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# rcupoll, the capture tool, in the guest: record around a command that
# queues exactly N callbacks and report them back by function; the flight
# recorder, armed by kernel triggers, catches a batch held back by CPU 1
# (at its end) and a stall warning (at the warning), and its diagnosis
# names the holder; bad arguments and bad files are refused with one line
# and exit 2 (usage) or 1 (runtime), leaving no output file.  The
# recordings go to /host/out for the host tests.
. /usr/share/rcu_poll/lib.sh
N=${1:-300}
R=${RCUPOLL:-rcupoll}
D=/sys/kernel/debug/rcu
T=/sys/kernel/tracing
load test_rcu_poll
mkdir -p /host/out
cd /tmp || fail "no /tmp"

# Wait until a flight recorder writing to FILE says it is armed.
armed() {
	wait_for 30 grep -q '^rcupoll: flight recorder armed' "$1" || { cat "$1"; fail "flight did not arm"; }
}

no_leftovers() {	# WHAT: no rcupoll instance, no temporary file
	ls $T/instances | grep -q '^rcupoll' && fail "$1: instance left behind: $(ls $T/instances)"
	ls -a /tmp /tmp/fl 2>/dev/null | grep -q 'rcupoll-[0-9]*\.\(tmp\|cpu\)' && fail "$1: temporary file left behind"
	echo "ok: $1: nothing left behind"
}

# 1. record around a command.
$R record -o /tmp/tool.dat -- sh -c "echo '$N 0' > $D/test/queue && echo 1 > $D/test/barrier" > /tmp/rec.txt 2>&1 ||
	{ cat /tmp/rec.txt; fail "rcupoll record failed"; }
cat /tmp/rec.txt
grep -q '^rcupoll: recorded [1-9][0-9]* events (0 lost) into /tmp/tool.dat ([1-9][0-9]* bytes)$' /tmp/rec.txt ||
	fail "record did not say what it recorded, or lost events"
expect_eq "mode of the trace.dat (kernel addresses)" 600 "$(stat -c %a /tmp/tool.dat)"
no_leftovers "record"
$R report /tmp/tool.dat > /tmp/rep.txt || fail "rcupoll report failed"
cat /tmp/rep.txt
line=$(grep '^  rcu_poll  *rcu_poll_test_cb ' /tmp/rep.txt) || fail "report has no latency line for rcu_poll_test_cb"
expect_eq "callbacks of rcu_poll_test_cb queued in the report" "$N" "$(echo "$line" | awk '{print $3}')"
expect_eq "callbacks of rcu_poll_test_cb invoked in the report" "$N" "$(echo "$line" | awk '{print $4}')"
grep -q '^  rcu_poll  *[1-9]' /tmp/rep.txt || fail "report has no rcu_poll batch summary"
$R report -f json /tmp/tool.dat | grep -q "\"function\":\"rcu_poll_test_cb\",\"queued\":$N,\"count\":$N," ||
	fail "json report lacks rcu_poll_test_cb count $N"
$R report -f csv -t callbacks /tmp/tool.dat | grep -q "^rcu_poll,rcu_poll_test_cb,$N,$N," ||
	fail "csv report lacks rcu_poll_test_cb count $N"
trace-cmd report -i /tmp/tool.dat > /tmp/tc.txt 2>&1 || fail "trace-cmd cannot read rcupoll's trace.dat"
expect_eq "rcu_poll_call_rcu events of rcu_poll_test_cb that trace-cmd reads" "$N" \
	"$(grep -c 'rcu_poll_call_rcu: .*func=rcu_poll_test_cb' /tmp/tc.txt)"
cp /tmp/tool.dat /host/out/tool.dat || fail "copy to host failed"
echo "$N" > /host/out/tool.dat.n

# 2. the flight recorder, armed by a trigger on rcu_poll_batch_end,
#    catches the batch CPU 1 holds for 3 s when it ends.
rm -rf /tmp/fl && mkdir /tmp/fl
$R flight -o /tmp/fl -t 1500 -w 60 > /tmp/fl.out 2>&1 &
fpid=$!
armed /tmp/fl.out
cat $T/instances/rcupoll-flight-$fpid/events/rcu_poll/rcu_poll_batch_end/trigger
grep -q '^traceoff.* if duration_ns > 1500000000' $T/instances/rcupoll-flight-$fpid/events/rcu_poll/rcu_poll_batch_end/trigger ||
	fail "flight did not arm a traceoff trigger on rcu_poll_batch_end"
echo "1 3000" > $D/test/hold || fail "hold failed"
wait_for 20 task_ran rcupoll_hold/1 || fail "the hold thread never ran on CPU 1"
echo "1 0" > $D/test/queue || fail "queue failed"
wait $fpid
rc=$?
cat /tmp/fl.out
expect_eq "flight exit status" 0 "$rc"
[ -s /tmp/fl/rcupoll-stall.dat ] || fail "no rcupoll-stall.dat"
expect_eq "mode of rcupoll-stall.dat" 600 "$(stat -c %a /tmp/fl/rcupoll-stall.dat)"
expect_eq "mode of rcupoll-stall.txt" 600 "$(stat -c %a /tmp/fl/rcupoll-stall.txt)"
grep -q '^rcupoll: caught rcu_poll batch [0-9]* ended at [0-9.]* after [0-9.]* ms$' /tmp/fl.out ||
	fail "flight did not say which batch it caught"
grep -q '^rcupoll: why: CPU 1 passed no quiescent state for [0-9.]* ms: rcupoll_hold/1 (pid [0-9]*) ran there without a context switch' /tmp/fl.out ||
	fail "flight's answer does not name rcupoll_hold/1 holding CPU 1"
cat /tmp/fl/rcupoll-stall.txt
grep -q '^  why: CPU 1 passed no quiescent state for [0-9.]* ms: rcupoll_hold/1 (pid [0-9]*)' /tmp/fl/rcupoll-stall.txt ||
	fail "the diagnosis does not name rcupoll_hold/1 on CPU 1"
$R report /tmp/fl/rcupoll-stall.dat > /tmp/flrep.txt || fail "report of the flight recording failed"
cat /tmp/flrep.txt
no_leftovers "flight"
cp /tmp/fl/rcupoll-stall.dat /tmp/fl/rcupoll-stall.txt /host/out/ || fail "copy to host failed"
echo 1 > $D/test/barrier

# 3. ...and, re-armed (-n 2), a stall warning first (at the warning: the
#    batch is still in flight), then the next warning or the batch's end.
old_tmo=$(cat /sys/module/rcupdate/parameters/rcu_cpu_stall_timeout)
echo 3 > /sys/module/rcupdate/parameters/rcu_cpu_stall_timeout
rm -rf /tmp/fl && mkdir /tmp/fl
$R flight -o /tmp/fl -n 2 -t 10000 -w 60 > /tmp/fl.out 2>&1 &
fpid=$!
armed /tmp/fl.out
echo "rcu_poll-test: expect stall begin" > /dev/kmsg
echo "1 15000" > $D/test/hold || fail "hold failed"
sleep 0.2
echo "1 0" > $D/test/queue || fail "queue failed"
wait $fpid
rc=$?
echo "rcu_poll-test: expect stall end" > /dev/kmsg
echo "$old_tmo" > /sys/module/rcupdate/parameters/rcu_cpu_stall_timeout
cat /tmp/fl.out
expect_eq "flight -n 2 exit status" 0 "$rc"
grep '^rcupoll: caught' /tmp/fl.out | head -n 1 | grep -q '^rcupoll: caught a stall warning at [0-9.]*: rcu_poll batch [0-9]*, [0-9]* ms old$' ||
	fail "flight did not catch the stall warning first"
expect_eq "catches" 2 "$(grep -c '^rcupoll: caught' /tmp/fl.out)"
grep -q '^rcupoll: why: CPU 1 passed no quiescent state for [0-9.]* ms: rcupoll_hold/1 (pid [0-9]*)' /tmp/fl.out ||
	fail "flight's answer at the stall does not name rcupoll_hold/1 on CPU 1"
[ -s /tmp/fl/rcupoll-stall-1.dat ] && [ -s /tmp/fl/rcupoll-stall-2.dat ] || fail "no rcupoll-stall-1.dat and -2.dat"
$R report -f csv /tmp/fl/rcupoll-stall-1.dat > /tmp/fl1.csv || fail "report of the stall catch failed"
grep -q '^rcu_poll,[0-9]*,0,[0-9.]*,,[0-9.]*,1,1,[0-9]*,cpu_held,1,[0-9]*,rcupoll_hold/1,' /tmp/fl1.csv ||
	{ cat /tmp/fl1.csv; fail "at the stall, the batch of CPU 0 in flight is not held by rcupoll_hold/1 on CPU 1"; }
no_leftovers "flight -n 2"
echo 1 > $D/test/barrier

# 4. errors: one line, exit 2 for usage and 1 for runtime, no output file.
expect_fail() {	# STATUS COMMAND...
	want=$1
	shift
	"$@" > /tmp/err.txt 2>&1
	got=$?
	[ "$got" = "$want" ] || { cat /tmp/err.txt; fail "'$*': exit $got, want $want"; }
	grep -q '^rcupoll: ' /tmp/err.txt || { cat /tmp/err.txt; fail "'$*': no rcupoll: message"; }
	echo "ok: '$*' refused ($got): $(head -n 1 /tmp/err.txt)"
}
expect_fail 2 $R
expect_fail 2 $R frobnicate
expect_fail 2 $R record -d 0
expect_fail 2 $R record -d abc
expect_fail 2 $R record --frobnicate
expect_fail 2 $R flight -t -5
expect_fail 2 $R report
expect_fail 2 $R report -f xml /tmp/tool.dat
expect_fail 1 $R report /nonexistent.dat
head -c 3000 /tmp/tool.dat > /tmp/trunc.dat
expect_fail 1 $R report /tmp/trunc.dat
echo "not a trace" > /tmp/junk.dat
expect_fail 1 $R report /tmp/junk.dat
mkdir -p /tmp/ro
expect_fail 1 $R record -o /nonexistent/dir/x.dat -d 1
[ -e /nonexistent/dir/x.dat ] && fail "output written despite the error"
expect_fail 1 $R record -o /tmp -d 1
expect_fail 2 $R record -o '' -d 1
expect_fail 1 $R flight -o /nonexistent -w 1
no_leftovers "errors"
for c in record flight report; do
	$R $c --help | grep -q "^usage: rcupoll $c" || fail "rcupoll $c --help"
done
$R --version | grep -q '^rcupoll [0-9]' || fail "rcupoll --version"
rmmod test_rcu_poll || fail "rmmod failed"
