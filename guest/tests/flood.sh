#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# A traced call_rcu() flood from test_rcu_poll on CPU 0, recorded by
# rcupoll record at the default buffer size, streaming and then as a
# snapshot (the same flood): the stream keeps every event (0 lost, and
# every queued test callback is in the file), the snapshot says how many
# it lost.  Args: RATE MS (callbacks per second asked, milliseconds).
. /usr/share/rcu_poll/lib.sh
RATE=${1:-1000000}
MS=${2:-300}
R=${RCUPOLL:-rcupoll}
D=/sys/kernel/debug/rcu
cd /tmp || fail "no /tmp"
cat > /tmp/flood1.sh <<EOF
echo "0 $RATE $MS" > $D/test/flood || exit 1
sleep 0.2
while [ "\$(sed -n 's/.* threads=\([0-9]*\).*/\1/p' $D/test/stats)" != 0 ]; do sleep 0.1; done
echo 1 > $D/test/barrier
cat $D/test/stats > /tmp/stats
EOF

flood() {	# MODE [record options]
	mode=$1
	shift
	load test_rcu_poll
	$R record "$@" -o /tmp/flood.dat -- sh /tmp/flood1.sh > /tmp/rec 2>&1 ||
		{ cat /tmp/rec; fail "$mode: traced flood failed"; }
	cat /tmp/rec
	q=$(sed -n 's/^queued=\([0-9]*\) .*/\1/p' /tmp/stats)
	inv=$(sed -n 's/.* invoked=\([0-9]*\) .*/\1/p' /tmp/stats)
	kept=$(sed -n 's/^rcupoll: recorded \([0-9]*\) events.*/\1/p' /tmp/rec)
	lost=$(sed -n 's/.* events (\([0-9]*\) lost).*/\1/p' /tmp/rec)
	$R report -f csv -t trace /tmp/flood.dat | tail -n 1 > /tmp/trace.csv
	infile=$(cut -d, -f3 /tmp/trace.csv)
	line=$($R report -f csv -t callbacks /tmp/flood.dat | grep '^rcu_poll,rcu_poll_test_cb,')
	tq=$(echo "$line" | cut -d, -f3)
	ti=$(echo "$line" | cut -d, -f4)
	echo "FLOOD mode=$mode queued=$q invoked=$inv kept=$kept lost=$lost events_in_file=$infile test_cb_queued_in_file=${tq:-0} test_cb_invoked_in_file=${ti:-0} bytes=$(stat -c %s /tmp/flood.dat)"
	rm -f /tmp/flood.dat
	rmmod test_rcu_poll
}

flood stream
[ "$lost" = 0 ] || fail "streaming lost $lost events"
expect_eq "events in the streamed file" "$kept" "$infile"
expect_eq "test callbacks queued, in the streamed file" "$q" "$tq"
expect_eq "test callbacks invoked, in the streamed file" "$inv" "$ti"
flood snapshot --snapshot
echo "ok: streaming kept every event; the snapshot lost $lost"
