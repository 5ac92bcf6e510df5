#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Record the flight-recorder fixtures of userspace/tests/ (not part of
# make test: run it by hand, "fixture" in a plan, when the kernel's events
# change).  Three scenarios of test_rcu_poll, each caught by rcupoll flight
# into /host/out/fixtures/:
#   hold-stall.dat     CPU 1 in a reader with preemption off; caught at the
#                      stall warning, CPU 0's batch in flight
#   irqoff-stall.dat   the same with interrupts off
#   preempt-end.dat    a task preempted inside a preempt-flavour reader on
#                      CPU 1; caught at the end of the batch it held
# and what rcupoll report says of each (.txt beside it).
. /usr/share/rcu_poll/lib.sh
R=${RCUPOLL:-rcupoll}
D=/sys/kernel/debug/rcu
P=/sys/module/rcupdate/parameters/rcu_cpu_stall_timeout
load test_rcu_poll
out=/host/out/fixtures
mkdir -p $out
cd /tmp || fail "no /tmp"
old_tmo=$(cat $P)

# catch NAME FLIGHT-ARGS -- SHELL-COMMANDS: run the scenario under a flight recorder.
catch() {
	name=$1
	shift
	args=
	while [ "$1" != -- ]; do args="$args $1"; shift; done
	shift
	rm -rf /tmp/fx && mkdir /tmp/fx
	# shellcheck disable=SC2086
	$R flight -o /tmp/fx -b 1024 -w 60 $args > /tmp/fx.out 2>&1 &
	fpid=$!
	wait_for 30 grep -q '^rcupoll: flight recorder armed' /tmp/fx.out || fail "$name: flight did not arm"
	sh -c "$*" || fail "$name: scenario failed"
	wait $fpid || { cat /tmp/fx.out; fail "$name: nothing caught"; }
	cat /tmp/fx.out
	cp /tmp/fx/rcupoll-stall.dat $out/$name.dat || fail "$name: copy failed"
	$R report $out/$name.dat > $out/$name.txt 2>&1
	cat $out/$name.txt
}

echo 3 > $P
echo "rcu_poll-test: expect stall begin" > /dev/kmsg
catch hold-stall -t 100000 -- "echo '1 5000' > $D/test/hold; sleep 0.2; echo '1 0' > $D/test/queue"
sleep 5
catch irqoff-stall -t 100000 -- "echo '1 0' > $D/test/queue; sleep 0.1; echo '1 5000' > $D/test/hold_irqoff"
sleep 6
echo "rcu_poll-test: expect stall end" > /dev/kmsg
echo "$old_tmo" > $P
echo 1 > $D/test/barrier
catch preempt-end -t 1000 --no-stall -- "echo '1 2000' > $D/test/preempt_reader; sleep 0.2; echo '1 0' > $D/test/queue_preempt"
sleep 2
echo 1 > $D/test/barrier
rmmod test_rcu_poll || fail "rmmod failed"
