#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# One benchmark run in the guest (either RCU): prints "BENCH key=value"
# lines for guest/bench/bench.sh to collect.  SMOKE=1 in the args: short runs.
#   bench.sh [smoke]
. /usr/share/rcu_poll/lib.sh
smoke=${1:-}
idle_s=10 loops=10000 nruns=10 flood_ms=2000 asyncn=5 floodn=3
[ "$smoke" = smoke ] && idle_s=2 loops=1000 nruns=3 flood_ms=300 asyncn=1 floodn=1

# Wait until dmesg since the mark shows $1, at most $2 seconds.
wait_log() {
	wait_for "$2" sh -c "dmesg | tail -n +$((KMSG_MARK + 1)) | grep -q '$1'"
}

# 1. Idle cost: rescheduling IPIs and rcu_poll kicks per second with
#    nothing queued.  Every process exit queues RCU callbacks, so the
#    window is timed and sampled by shell builtins only: "read -t" on a
#    FIFO nobody writes, and /proc files read with "read".
sample() {
	RES=0 KICKS=0
	while read -r name rest; do
		[ "$name" = "RES:" ] || continue
		for x in $rest; do
			case $x in *[!0-9]*) break ;; esac
			RES=$((RES + x))
		done
	done < /proc/interrupts
	[ -e /sys/kernel/debug/rcu/rcudata ] || return 0
	while read -r line; do
		case $line in cpu=*) ;; *) continue ;; esac
		k=${line#* kicks=}
		KICKS=$((KICKS + ${k%% *}))
	done < /sys/kernel/debug/rcu/rcudata
}
mkfifo /tmp/idle.fifo || fail "mkfifo"
exec 3<> /tmp/idle.fifo
read -t 3 x <&3		# let the callbacks of earlier exits drain
sample
r0=$RES k0=$KICKS
read -t $idle_s x <&3
sample
exec 3<&-
echo "BENCH idle_res_ipis_per_s=$(awk -v a=$r0 -v b=$RES -v t=$idle_s 'BEGIN { printf "%.2f", (b - a) / t }')"
[ -e /sys/kernel/debug/rcu/rcudata ] &&
	echo "BENCH idle_kicks_per_s=$(awk -v a=$k0 -v b=$KICKS -v t=$idle_s 'BEGIN { printf "%.2f", (b - a) / t }')"

# 2. synchronize_rcu() latency: rcuscale, one synchronous writer.
kmsg_mark
load rcuscale scale_type=rcu nwriters=1 nreaders=0 holdoff=1 verbose=1
wait_log 'Test complete' 120 || fail "rcuscale did not complete"
rmmod rcuscale || fail "rmmod rcuscale"
kmsg_since | awk '/writer-duration:/ { print $NF / 1000 }' | sort -n > /tmp/sync.us
n=$(wc -l < /tmp/sync.us)
[ "$n" -ge 50 ] || fail "rcuscale gave $n durations"
echo "BENCH sync_n=$n"
echo "BENCH sync_median_us=$(awk -v n=$n 'NR == int((n + 1) / 2) { print; exit }' /tmp/sync.us)"
echo "BENCH sync_p99_us=$(awk -v n=$n 'NR == int(n * 0.99 + 0.5) { print; exit }' /tmp/sync.us)"
cp /tmp/sync.us /host/sync.us 2>/dev/null

# 3. Asynchronous updates: rcuscale with gp_async (call_rcu; a writer
#    measures 100 calls, then is done): callbacks per second over its
#    measured interval, the median of $asyncn loads.  With the default
#    gp_async_max (1000 in flight) that is the cost of call_rcu() plus
#    whatever RCU work lands on the writer's CPU meanwhile; with
#    gp_async_max=20 the writer waits in rcu_barrier() every 20 callbacks,
#    so grace periods bound it.
median() {
	sort -n | awk '{ v[NR] = $1 } END { if (NR) print v[int((NR + 1) / 2)] }'
}
async_run() {
	kmsg_mark
	load rcuscale scale_type=rcu nwriters=1 nreaders=0 holdoff=1 gp_async=1 "$@"
	wait_log 'Test complete' 120 || fail "rcuscale gp_async $* did not complete"
	sleep 0.5
	rmmod rcuscale || fail "rmmod rcuscale"
	line=$(kmsg_since | grep -m 1 ' start: [0-9]* end: [0-9]* duration: ')
	echo "$line" >&2
	echo "$line" | awk '{ for (i = 1; i <= NF; i++) { if ($i == "duration:") d = $(i + 1); if ($i == "gps:") g = $(i + 1) } } END { printf "%.0f\n", g / (d / 1e9) }'
}
: > /tmp/async
: > /tmp/async20
for i in $(seq "$asyncn"); do
	async_run >> /tmp/async
	async_run gp_async_max=20 >> /tmp/async20
done
echo "BENCH async_cbs_per_s=$(median < /tmp/async)"
echo "BENCH async20_cbs_per_s=$(median < /tmp/async20)"

# 4. Read side: refscale, ns per rcu_read_lock()/rcu_read_unlock() pair.
kmsg_mark
load refscale scale_type=rcu nreaders=1 loops=$loops nruns=$nruns
wait_log 'END OF TEST' 120 || fail "refscale did not complete"
sleep 1
rmmod refscale || fail "rmmod refscale"
kmsg_since | awk '/Runs.Time\(ns\)/ { on = 1; next }
	on && $(NF - 1) ~ /^[0-9]+$/ && $NF ~ /^[0-9]+\.[0-9]+$/ { print $NF }' | sort -n > /tmp/read.ns
kmsg_since | grep -A 3 'Runs.Time' | head -n 5
n=$(wc -l < /tmp/read.ns)
[ "$n" -ge 1 ] || fail "refscale gave no runs"
echo "BENCH read_ns=$(awk -v n=$n 'NR == int((n + 1) / 2) { print; exit }' /tmp/read.ns)"

# 5. rcu_poll only: a call_rcu() flood from test_rcu_poll on CPU 0 (1M/s
#    asked; what the guest manages), untraced $floodn times (medians; the
#    module is reloaded for each, so its counters start at zero), then
#    once with every RCU event recorded by rcupoll.
D=/sys/kernel/debug/rcu
cat > /tmp/flood.sh <<'FLOOD'
# flood.sh MS: one flood of MS ms on CPU 0; prints "queued seconds"
D=/sys/kernel/debug/rcu
t0=$(cut -d' ' -f1 /proc/uptime)
echo "0 1000000 $1" > $D/test/flood || exit 1
sleep 0.2
while [ "$(sed -n 's/.* threads=\([0-9]*\).*/\1/p' $D/test/stats)" != 0 ]; do sleep 0.1; done
echo 1 > $D/test/barrier
t1=$(cut -d' ' -f1 /proc/uptime)
echo "$(sed -n 's/^queued=\([0-9]*\) .*/\1/p' $D/test/stats) $(awk -v a=$t0 -v b=$t1 'BEGIN { print b - a }')"
FLOOD
if modprobe test_rcu_poll 2>/dev/null; then
	rmmod test_rcu_poll || fail "rmmod test_rcu_poll"
	: > /tmp/f_rate
	: > /tmp/f_p50
	: > /tmp/f_p99
	: > /tmp/f_peak
	failed=0
	for i in $(seq "$floodn"); do
		load test_rcu_poll
		put $D/reset 1
		sh /tmp/flood.sh $flood_ms > /tmp/flood1 || fail "flood failed"
		read -r q secs < /tmp/flood1
		st=$(cat $D/test/stats)
		lat=$(cat $D/test/latency)
		echo "flood $i: $q callbacks in $secs s; $st; $lat"
		awk -v q=$q -v s=$secs 'BEGIN { printf "%.0f\n", q / s }' >> /tmp/f_rate
		field p50_us "$lat" >> /tmp/f_p50
		field p99_us "$lat" >> /tmp/f_p99
		field peak "$(grep '^cpu=0 ' $D/rcudata)" >> /tmp/f_peak
		failed=$((failed + $(field alloc_failed "$st")))
		rmmod test_rcu_poll || fail "rmmod test_rcu_poll"
	done
	rate=$(median < /tmp/f_rate)
	echo "BENCH flood_cbs_per_s=$rate"
	echo "BENCH flood_lat_p50_us=$(median < /tmp/f_p50)"
	echo "BENCH flood_lat_p99_us=$(median < /tmp/f_p99)"
	echo "BENCH flood_peak_pending=$(median < /tmp/f_peak)"
	echo "BENCH flood_alloc_failed=$failed"
	if [ -d /sys/kernel/tracing/events/rcu_poll ]; then
		load test_rcu_poll
		cd /tmp || fail "no /tmp"
		rcupoll record -o /tmp/flood.dat -- sh -c "sh /tmp/flood.sh $flood_ms > /tmp/flood2" > /tmp/rec 2>&1 ||
			{ cat /tmp/rec; fail "traced flood failed"; }
		cat /tmp/rec
		read -r q2 secs2 < /tmp/flood2
		ev=$(sed -n 's/^rcupoll: recorded \([0-9]*\) events.*/\1/p' /tmp/rec)
		lost=$(sed -n 's/.* events (\([0-9]*\) lost).*/\1/p' /tmp/rec)
		echo "BENCH traced_flood_cbs_per_s=$(awk -v q=$q2 -v s=$secs2 'BEGIN { printf "%.0f", q / s }')"
		echo "BENCH traced_events=$ev"
		echo "BENCH traced_lost=$lost"
		# Per event generated: recorded plus overwritten ("lost"), against
		# the untraced median rate.
		echo "BENCH ns_per_event=$(awk -v r=$rate -v q2=$q2 -v s2=$secs2 -v e=$ev -v l=$lost 'BEGIN { printf "%.0f", (s2 - q2 / r) * 1e9 / (e + l + 0.000001) }')"
		rm -f /tmp/flood.dat
		rmmod test_rcu_poll
	fi
fi
echo "BENCH done=1"
