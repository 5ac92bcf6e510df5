#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make bench: rcu_poll against Tree RCU, from the same patched tree.
# RUNS boots of each variant at 2 vCPUs, alternating poll, tree and
# notrace (rcu_poll with RCU_TRACE off, for the cost of the events) so that
# drift hits all alike, then one boot of poll and tree at 1, 4 and 8
# vCPUs for scaling.  Each boot runs guest/tests/bench.sh.  Medians, spread and
# poll/tree ratios go to docs/performance.md (and $OUT/results.csv).
# Environment: TOP KERNEL_poll INITRD_poll KERNEL_tree INITRD_tree OUT RUNS
set -uo pipefail
: "${TOP:?}" "${OUT:?}"
RUNS=${RUNS:-3}
SCALE_SMP=${SCALE_SMP:-"1 2 4 8"}
mkdir -p "$OUT"
csv=$OUT/results.csv
echo "run,variant,smp,key,value" > "$csv"

# bench_boot RUN VARIANT SMP: one guest boot, its BENCH lines into the csv
bench_boot() {
	local run=$1 v=$2 smp=$3 share=$OUT/$1-$2-smp$3 k i
	local kvar=KERNEL_$v ivar=INITRD_$v
	rm -rf "$share"
	mkdir -p "$share"
	echo "bench" > "$share/plan"
	echo "  BENCH    run $run: $v, $smp vCPUs"
	TCG_THREAD=${TCG_THREAD:-multi} "$TOP/guest/harness/qemu.sh" -k "${!kvar}" -r "${!ivar}" -s "$share" -l "$share/console.log" \
		-c "$smp" -t 600 > /dev/null 2>&1
	if ! grep -q '^BENCH done=1' "$share/logs/1-bench.log" 2>/dev/null; then
		echo "    failed: see $share/logs/ and $share/console.log" >&2
		return 1
	fi
	sed -n 's/^BENCH \([a-z_0-9]*\)=\(.*\)/\1 \2/p' "$share/logs/1-bench.log" |
		while read -r k i; do echo "$run,$v,$smp,$k,$i"; done >> "$csv"
}

fails=0
MAIN="poll tree"
[ -n "${KERNEL_notrace:-}" ] && MAIN="poll tree notrace"
for run in $(seq 1 "$RUNS"); do
	for v in $MAIN; do
		bench_boot "$run" "$v" 2 || fails=$((fails + 1))
	done
done
for smp in $SCALE_SMP; do
	[ "$smp" = 2 ] && continue
	for v in poll tree; do
		bench_boot "s$smp" "$v" "$smp" || fails=$((fails + 1))
	done
done
rm -f "$OUT/scaling.dat"
python3 "$TOP/guest/bench/bench-report.py" "$csv" "$RUNS" "$OUT" > "$OUT/performance.md" || exit 1

# Pictures: synchronize_rcu() latency distributions (all 2-vCPU boots) and
# the scaling curve.
for v in poll tree; do
	cat "$OUT"/[0-9]*-$v-smp2/sync.us 2>/dev/null | sort -n > "$OUT/sync-$v.us"
	awk -v n="$(wc -l < "$OUT/sync-$v.us")" '{ print $1, NR / n }' "$OUT/sync-$v.us" > "$OUT/cdf-$v.dat"
done
if command -v gnuplot > /dev/null; then
	gnuplot <<EOG || echo "    gnuplot failed" >&2
set terminal pngcairo size 900,500 noenhanced
set output "$OUT/performance-latency.png"
set title "synchronize_rcu() latency under QEMU/TCG, 2 vCPUs (rcuscale, all runs)"
set logscale x
set xlabel "latency (us)"
set ylabel "fraction of grace periods"
set key bottom right
set grid
plot "$OUT/cdf-poll.dat" using 1:2 with steps lw 2 title "rcu_poll", \
     "$OUT/cdf-tree.dat" using 1:2 with steps lw 2 title "Tree RCU"
set output "$OUT/performance-scaling.png"
set title "synchronize_rcu() median latency by vCPU count (TCG on 2 host cores: oversubscribed past 2)"
unset logscale x
set logscale y
set xlabel "vCPUs"
set ylabel "median latency (us)"
set xtics (1, 2, 4, 8)
plot "$OUT/scaling.dat" using 1:2 with linespoints lw 2 title "rcu_poll", \
     "$OUT/scaling.dat" using 1:3 with linespoints lw 2 title "Tree RCU"
EOG
fi
echo "  RESULTS  $OUT/performance.md ($fails failed boots)"
[ "$fails" = 0 ]
