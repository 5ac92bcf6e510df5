#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# rcupoll record and flight disturb nothing and leave nothing behind:
#  - the top-level tracing state a user set up (an event with a filter,
#    tracing_on, buffer size, trace clock, the buffer's contents) is the
#    same after a record and after a flight catch;
#  - two concurrent runs use two instances and both write good files;
#  - every way out (SIGHUP, SIGTERM, SIGINT at any moment, an error
#    after tracing started) removes the instance and temporary files.
. /usr/share/rcu_poll/lib.sh
R=${RCUPOLL:-rcupoll}
T=/sys/kernel/tracing
D=/sys/kernel/debug/rcu
cd /tmp || fail "no /tmp"

no_leftovers() {	# WHAT
	ls $T/instances | grep -q '^rcupoll' && fail "$1: instance left behind: $(ls $T/instances)"
	find /tmp -name '.*rcupoll-[0-9]*.*' | grep -q . && fail "$1: temporary files left behind: $(find /tmp -name '.*rcupoll-[0-9]*.*')"
	echo "ok: $1: nothing left behind"
}

# The top-level state, one line per setting, and the buffer's contents.
top_state() {
	for f in tracing_on buffer_size_kb trace_clock current_tracer set_event \
		events/sched/sched_switch/enable events/sched/sched_switch/filter \
		events/rcu_poll/enable events/irq/enable options/overwrite; do
		echo "$f: $(cat $T/$f | tr '\n' ' ')"
	done
	echo "trace: $(grep -v '^#' $T/trace | md5sum)"
	echo "trace lines: $(grep -vc '^#' $T/trace)"
}

# 1. A user's top-level tracing: sched_switch with a filter, a buffer
#    size, a clock.  Frozen (tracing_on 0) so its contents can be compared.
echo 0 > $T/tracing_on
echo > $T/trace
echo 1234 > $T/buffer_size_kb
echo global > $T/trace_clock
echo 'prev_pid != 0' > $T/events/sched/sched_switch/filter
echo 1 > $T/events/sched/sched_switch/enable
echo 1 > $T/tracing_on
sleep 0.3
echo 0 > $T/tracing_on
top_state > /tmp/top.before
cat /tmp/top.before
grep -q 'trace lines: [1-9]' /tmp/top.before || fail "the top-level buffer recorded nothing to compare"
$R record -d 1 -o /tmp/r.dat > /tmp/r.out 2>&1 || { cat /tmp/r.out; fail "record failed"; }
cat /tmp/r.out
top_state > /tmp/top.after
diff /tmp/top.before /tmp/top.after || fail "rcupoll record changed the top-level tracing state"
echo "ok: record left the top-level tracing state and buffer as they were"
load test_rcu_poll
$R flight -o /tmp -t 300 -w 60 > /tmp/f.out 2>&1 &
fpid=$!
wait_for 30 grep -q '^rcupoll: flight recorder armed' /tmp/f.out || fail "flight did not arm"
echo "1 600" > $D/test/hold
echo "1 0" > $D/test/queue
wait $fpid || { cat /tmp/f.out; fail "flight failed"; }
cat /tmp/f.out
top_state > /tmp/top.after
diff /tmp/top.before /tmp/top.after || fail "rcupoll flight changed the top-level tracing state"
echo "ok: flight left the top-level tracing state and buffer as they were"
# Tracing on at top level stays on.
echo 1 > $T/tracing_on
$R record -d 1 -o /tmp/r.dat > /dev/null 2>&1 || fail "record failed"
expect_eq "top-level tracing_on after a record" 1 "$(cat $T/tracing_on)"
expect_eq "top-level sched_switch after a record" 1 "$(cat $T/events/sched/sched_switch/enable)"
echo 0 > $T/tracing_on
echo 0 > $T/events/sched/sched_switch/enable
echo 0 > $T/events/sched/sched_switch/filter
echo local > $T/trace_clock
echo > $T/trace
no_leftovers "record and flight"

# 2. Two runs at once: two instances, two good files.
$R record -d 3 -o /tmp/a.dat > /tmp/a.out 2>&1 &
a=$!
$R record -d 3 -o /tmp/b.dat > /tmp/b.out 2>&1 &
b=$!
sleep 1.5
ls $T/instances
expect_eq "instances of two concurrent runs" 2 "$(ls $T/instances | grep -c '^rcupoll-record-')"
wait $a || { cat /tmp/a.out; fail "first concurrent record failed"; }
wait $b || { cat /tmp/b.out; fail "second concurrent record failed"; }
for f in a b; do
	$R report /tmp/$f.dat > /dev/null || fail "concurrent record $f wrote a bad file"
done
echo "ok: two concurrent records wrote two readable files"
no_leftovers "concurrent records"

# 3. Signals.  Closing the terminal of an armed flight recorder (SIGHUP):
$R flight -o /tmp -w 600 > /tmp/f.out 2>&1 &
fpid=$!
wait_for 30 grep -q '^rcupoll: flight recorder armed' /tmp/f.out || fail "flight did not arm"
[ -d $T/instances/rcupoll-flight-$fpid ] || fail "no flight instance"
kill -HUP $fpid
wait $fpid
expect_eq "flight exit status after SIGHUP" 3 "$?"
no_leftovers "flight after SIGHUP"
# SIGTERM ends a recording early; the file is still written.
$R record -d 600 -o /tmp/t.dat > /tmp/t.out 2>&1 &
rpid=$!
sleep 1.5
kill -TERM $rpid
wait $rpid
expect_eq "record exit status after SIGTERM" 0 "$?"
$R report /tmp/t.dat > /dev/null || fail "record stopped by SIGTERM wrote a bad file"
no_leftovers "record after SIGTERM"
# SIGINT at any moment: setting up, recording, writing (after 1 s).
for d in 0 0.01 0.03 0.06 0.1 0.2 0.4 0.8 1 1.05 1.1 1.2 1.4 1.7; do
	$R record -d 1 -o /tmp/i.dat > /tmp/i.out 2>&1 &
	rpid=$!
	sleep $d
	kill -INT $rpid 2>/dev/null
	wait $rpid
	rc=$?
	echo "SIGINT after ${d}s: exit $rc: $(head -n 1 /tmp/i.out)"
	no_leftovers "record interrupted after ${d}s"
	rm -f /tmp/i.dat
done
for d in 0 0.02 0.1 0.5; do
	$R flight -o /tmp -w 60 > /tmp/i.out 2>&1 &
	rpid=$!
	sleep $d
	kill -INT $rpid 2>/dev/null
	wait $rpid
	echo "flight SIGINT after ${d}s: exit $?: $(head -n 1 /tmp/i.out)"
	no_leftovers "flight interrupted after ${d}s"
done

# 4. An error after tracing started: the disk fills up.
mkdir -p /tmp/small
mount -t tmpfs -o size=256k tmpfs /tmp/small || fail "cannot mount a small tmpfs"
$R record -d 1 -o /tmp/small/x.dat > /tmp/s.out 2>&1 && fail "record into a full file system succeeded"
cat /tmp/s.out
grep -q '^rcupoll: record: ' /tmp/s.out || fail "no message for a full file system"
[ -e /tmp/small/x.dat ] && fail "a partial output file was left"
expect_eq "files left in the full file system" 0 "$(ls -A /tmp/small | wc -l)"
umount /tmp/small
no_leftovers "record into a full file system"

# 5. The output is checked before anything is traced.
$R record -d 5 -o /tmp > /tmp/d.out 2>&1 && fail "record into a directory succeeded"
cat /tmp/d.out
grep -q '^rcupoll: record: cannot write /tmp: it is a directory' /tmp/d.out ||
	fail "no message for an output that is a directory"
no_leftovers "record into a directory"
rmmod test_rcu_poll
