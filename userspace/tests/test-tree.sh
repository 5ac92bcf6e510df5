#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Host test of "rcupoll report" on Tree RCU traces: a synthetic trace
# (synth-tree.py) with one grace period of each kind gets every answer
# exactly, and the committed fixture recorded on the Tree RCU guest
# (tree-hold.dat: CPU 1 held by rcupoll_hold/1 for 3 s) names CPU 1 and
# the holding task, with Tree's gp_seq.
#
#   TOP=<project> OUT=<scratch dir> bash userspace/tests/test-tree.sh
# Needs build/userspace/rcupoll, trace-cmd and python3; valgrind if
# installed.  Prints FAIL: lines and exits 1 on any failure.
set -uo pipefail
: "${TOP:?}" "${OUT:?}"
R=${RCUPOLL:-$TOP/build/userspace/rcupoll}
T=$TOP/userspace/tests
mkdir -p "$OUT"
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
ok() { echo "ok: $*"; }
expect_line() {	# FILE LINE WHAT
	grep -qxF -- "$2" "$1" && ok "$3" || fail "$3: no line '$2' in $1"
}
[ -x "$R" ] || { echo "FAIL: no $R (make -C userspace O=build/userspace)"; exit 1; }

# --- 1. the synthetic Tree RCU trace: every cause, exactly --------------
trace-cmd dump --events -i "$T/stall-flight.dat" > "$OUT/events.txt" 2>/dev/null ||
	fail "trace-cmd dump --events of the fixture failed"
SYN=$OUT/tree-synth.dat
python3 "$T/synth-tree.py" "$OUT/events.txt" "$SYN" || fail "synth-tree.py failed"
"$R" report "$SYN" > "$OUT/synth.txt" 2> "$OUT/synth.err" ||
	fail "report of the synthetic Tree trace failed: $(cat "$OUT/synth.err")"
cat "$OUT/synth.txt"
expect_line "$OUT/synth.txt" \
	"$SYN: 147 events on 2 CPUs over 4.000 s, 0 lost; 57 Tree RCU grace-period events, 7 grace periods" \
	"a Tree RCU trace is read as grace periods"
# rcu_read_unlock_special() traces the last blocked reader's report as
# "preempt_rcu": rcu_preempt's, not an RCU of its own.
grep -q '^  preempt_rcu ' "$OUT/synth.txt" &&
	fail "preempt_rcu (the last blocked reader's report) is listed as an RCU of its own"
expect_line "$OUT/synth.txt" \
	"  rcu_preempt gp_seq -1171, started 4.000000, in flight for 500.0 ms at the end of the trace:" \
	"the grace period in flight at the end, by its (negative) gp_seq"
expect_line "$OUT/synth.txt" \
	"    CPU 1 passed no quiescent state for 500.0 ms: irqoff (pid 500) ran there without a context switch from 3.990000 to the end of the trace; no softirq ran on CPU 1 from 4.000000 to 4.500002: interrupts were probably off" \
	"in flight: CPU 1 held with interrupts off by irqoff"
expect_line "$OUT/synth.txt" \
	"    waiting: 1 callback queued before it started and not invoked (cb_a 1), 3 queued behind it (cb_b 2, cb_c 1)" \
	"callbacks waiting for the grace period in flight and behind it"
expect_line "$OUT/synth.txt" \
	"    CPU 1 passed no quiescent state for 20.0 ms: spinner (pid 300) ran there without a context switch from 0.900000 until its quiescent state (cpuqs) at 1.020000; interrupts on (1 softirqs ran on CPU 1 meanwhile)" \
	"the last CPU to pass its quiescent state (cpuqs) and what ran there"
expect_line "$OUT/synth.txt" \
	"    every CPU's quiescent state was reported within 3.00 ms; the grace-period kthread ended it 27.0 ms later (1 FQS scan)" \
	"an idle CPU reported by the FQS scan; the kthread late"
expect_line "$OUT/synth.txt" \
	"    every CPU passed a quiescent state within 1.00 ms; CPU 1 reported its own 14.0 ms after passing it (its RCU_SOFTIRQ waited behind spinner (pid 300)); RCU_SOFTIRQ ran at 3.014900" \
	"a CPU that passed its quiescent state but reported it late"
expect_line "$OUT/synth.txt" \
	"    CPU 1 passed no quiescent state for 200.0 ms: spinner (pid 300) ran there without a context switch from 3.500100 until its quiescent state (cpuqs) at 3.700000; no softirq ran on CPU 1 from 3.500000 to 3.699900 (199.9 ms of the 200.0): interrupts were probably off (1 softirqs ran there outside that)" \
	"interrupts off but for a softirq at the edge (a pending interrupt when they came back on)"
expect_line "$OUT/synth.txt" \
	"    every CPU passed a quiescent state within 5.00 ms, but preempted readers held the grace period 50.0 ms longer: reader (pid 400), preempted in its reader on CPU 1 at 3.194000, left it at 3.250100" \
	"a reader preempted on CPU 1 before the grace period began held it after every CPU reported (its -GPS event is no exit; not the one that left before)"
expect_line "$OUT/synth.txt" \
	"    no grace period started for 400.0 ms after one was asked for at 2.600000 (newreq, on CPU 0); rcu_preempt (pid 16) was woken at 2.600100 on CPU 1, where spinner (pid 300) ran; it ran at 2.999990 on CPU 1; no softirq ran on CPU 1 from 2.600000 to 3.000000: interrupts were probably off" \
	"a grace period asked for and started 400 ms late: its kthread woken onto a CPU with interrupts off"
expect_line "$OUT/synth.txt" \
	"    every CPU's quiescent state was reported within 1.01 ms; the grace-period kthread ended it 149.0 ms later (0 FQS scans); rcu_preempt (pid 16) was woken at 3.751020 on CPU 0, where ipisend (pid 600) ran; it ran at 3.900000 on CPU 1; CPU 1 ran spinner (pid 300) without a context switch for 149.0 ms meanwhile; no softirq ran on CPU 1 from 3.751010 to 3.900000: interrupts were probably off (a task that sends CPU 1 an IPI waits as long)" \
	"a kthread kept off a CPU with interrupts on: the CPU that ran one task with interrupts off meanwhile is named too"
"$R" report -f csv -t delays "$SYN" > "$OUT/delays.csv" || fail "report -t delays failed"
expect_line "$OUT/delays.csv" \
	"rcu_preempt,1,-1187,2.600000,3.000000,400000.0,0,300,spinner,\"no grace period started for 400.0 ms after one was asked for at 2.600000 (newreq, on CPU 0); rcu_preempt (pid 16) was woken at 2.600100 on CPU 1, where spinner (pid 300) ran; it ran at 2.999990 on CPU 1; no softirq ran on CPU 1 from 2.600000 to 3.000000: interrupts were probably off\"" \
	"the late start in the delays table: the CPU the kthread waited on, the task there, the gp_seq that started"
grep -qE '^  rcu_preempt +cb_d +1 +1 +70500\.0 ' "$OUT/synth.txt" && ok "callback latency per function (rcu_callback to rcu_invoke_callback)" ||
	fail "no cb_d latency of 70500.0 us"
grep -qE '^ +4\.400000 stall +rcu_preempt +0 +-1171 +400 +- 1 .*StallDetected' "$OUT/synth.txt" &&
	ok "the stall warning tied to the grace period in flight and CPU 1" ||
	fail "no stall warning row for gp_seq -1171, 400 ms, holdouts 1"

# Invocation passes on the guest fixture, against trace-cmd's reading.
r=$(bash "$(dirname "$0")/passes-check.sh" "$R" "$T/tree-hold.dat" "$OUT/passes") &&
	ok "tree-hold.dat passes: per CPU as trace-cmd counts them ($r)" || fail "tree-hold.dat passes: $r"
# rcu_barrier(): the synthetic trace's two calls, one early exit.
"$R" report -f csv -t barriers "$SYN" > "$OUT/barriers.csv" || fail "report -t barriers failed"
expect_line "$OUT/barriers.csv" "rcu_preempt,1.100000,1.130000,30000.0,2,0,0,200" \
	"rcu_barrier(): the call that waited for its 2 callbacks (CB, LastCB), 30 ms"
expect_line "$OUT/barriers.csv" "rcu_preempt,1.110000,1.130005,20005.0,0,1,1,300" \
	"rcu_barrier(): a concurrent call that exited early"

"$R" report --batch -1195 "$SYN" > "$OUT/b.txt" || fail "report --batch -1195 failed"
cat "$OUT/b.txt"
expect_line "$OUT/b.txt" "  started 1.000000 on CPU 0 in worker, waiting for 2 CPUs, 2 FQS scans" \
	"--batch: the CPUs waited for (rcu_grace_period_init) and the FQS scans"
expect_line "$OUT/b.txt" "    1  1.020000 +20.000 ms cpuqs (traced)                          1.020050 +20.050 ms" \
	"--batch: CPU 1's cpuqs and its report"
expect_line "$OUT/b.txt" "  1.005001  +     5.001 ms  CPU 1   noticed the grace period (cpustart)" \
	"--batch: cpustart in the timeline"

"$R" report -f json "$SYN" > "$OUT/synth.json" || fail "report -f json failed"
python3 - "$OUT/synth.json" <<'PY' && ok "JSON: causes by code" || fail "JSON causes"
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
b = {r['batch']: r for r in rows if r['table'] == 'batches'}
want = {-1195: ('cpu_held', 1, 'spinner'), -1191: ('gp_kthread', None, None),
        -1187: ('not_reported', 1, 'spinner'), -1183: ('preempted', 1, 'reader'),
        -1179: ('cpu_held', 1, 'spinner'),
        -1175: ('gp_kthread', 0, 'ipisend'), -1171: ('cpu_held', 1, 'irqoff')}
got = {k: (b[k]['cause'], b[k]['cause_cpu'], b[k]['cause_comm']) for k in want}
assert got == want, got
assert b[-1171]['in_flight'] == 1 and b[-1171]['ncbs'] is None
PY
"$R" report --batch 7 "$SYN" > /dev/null 2> "$OUT/err.txt"; rc=$?
[ $rc = 1 ] && grep -qxF "rcupoll: report: $SYN has no grace period 7 (its grace periods: -1195 to -1171)" "$OUT/err.txt" &&
	ok "an unknown gp_seq is refused with one line" || fail "--batch 7: rc $rc, $(cat "$OUT/err.txt")"
if command -v valgrind > /dev/null; then
	valgrind -q --error-exitcode=9 --leak-check=full "$R" report "$SYN" > /dev/null 2> "$OUT/vg.txt" &&
		ok "valgrind clean on the Tree trace" || fail "valgrind: $(head -5 "$OUT/vg.txt")"
fi

# --- 3. the libtraceevent plugin names the positional fields ------------
make --no-print-directory -s -C "$TOP/tracepoints" O="$OUT/tracepoints" || fail "libtraceevent plugin build"
TRACEEVENT_PLUGIN_DIR=$OUT/tracepoints trace-cmd report -i "$SYN" > "$OUT/plugin.txt" 2>/dev/null
trace-cmd report -N -i "$SYN" > "$OUT/noplugin.txt" 2>/dev/null
for want in \
	"rcu_grace_period_init: rcu_preempt gp_seq=-1195 level=0 cpus=0-1 qsmask=0x3" \
	"rcu_quiescent_state_report: rcu_preempt gp_seq=-1195 level=0 cpus=0-1 reported=0x1 still=0x2 tasks=0" \
	"rcu_grace_period:     rcu_preempt gp_seq=-1195 cpuqs" \
	"rcu_fqs:              rcu_preempt gp_seq=-1195 cpu=1 dti"; do
	grep -qF -- "$want" "$OUT/plugin.txt" && ok "plugin: '$want'" || fail "plugin: no '$want' in $OUT/plugin.txt"
done
grep -qF "rcu_quiescent_state_report: rcu_preempt -1195 1>2 0 0 1 0" "$OUT/noplugin.txt" &&
	ok "without the plugin: the positional default" || fail "trace-cmd report -N does not print the default"

# --- 2. the fixture from the Tree RCU guest: CPU 1 held 3 s --------------
FIX=$T/tree-hold.dat
if [ -f "$FIX" ]; then
	"$R" report "$FIX" > "$OUT/fix.txt" 2>&1 || fail "report of $FIX failed: $(head -3 "$OUT/fix.txt")"
	sed -n '1,20p' "$OUT/fix.txt"
	expect_line "$OUT/fix.txt" "  rcu_preempt gp_seq 385, started 3.375224, took 2991.8 ms:" \
		"tree-hold.dat: the held grace period by its gp_seq"
	expect_line "$OUT/fix.txt" \
		"    CPU 1 passed no quiescent state for 2991.3 ms: rcupoll_hold/1 (pid 97) ran there without a context switch from 3.366325 until its quiescent state (cpuqs) at 6.366489; interrupts on (49 softirqs ran on CPU 1 meanwhile)" \
		"tree-hold.dat: CPU 1 and rcupoll_hold/1 named as the reason"
	expect_line "$OUT/fix.txt" \
		"    every CPU's quiescent state was reported within 1.10 ms; the grace-period kthread ended it 8.5 ms later (0 FQS scans); rcu_preempt (pid 11) was woken at 3.366731 on CPU 0, where sh (pid 94) ran; it ran at 3.375119 on CPU 0" \
		"tree-hold.dat: a late kthread, where it was woken and when it ran"
	"$R" report --batch 385 "$FIX" > "$OUT/fix-385.txt" || fail "report --batch 385 of the fixture failed"
	expect_line "$OUT/fix-385.txt" "    1  6.366489 +2991.265 ms cpuqs (traced)                        6.366540 +2991.316 ms" \
		"tree-hold.dat --batch 385: CPU 1's cpuqs and its report"
	expect_line "$OUT/fix-385.txt" "       until then: rcupoll_hold/1 (pid 97)" \
		"tree-hold.dat --batch 385: what ran on CPU 1 until then"
	if command -v valgrind > /dev/null; then
		valgrind -q --error-exitcode=9 --leak-check=full "$R" report --batch 385 -f json "$FIX" > /dev/null 2> "$OUT/vg-fix.txt" &&
			ok "valgrind clean on tree-hold.dat" || fail "valgrind on tree-hold.dat: $(head -5 "$OUT/vg-fix.txt")"
	fi
	# The slowest grace period: held by rcupoll_hold/1 on CPU 1.
	python3 - "$R" "$FIX" <<'PY' && ok "tree-hold.dat: the 3 s grace period was held by rcupoll_hold/1 on CPU 1" || fail "tree-hold.dat: no grace period held by rcupoll_hold/1 on CPU 1 for over 2.5 s"
import json, subprocess, sys
out = subprocess.run([sys.argv[1], 'report', '-f', 'json', '-t', 'batches', sys.argv[2]],
                     capture_output=True, text=True, check=True).stdout
rows = [json.loads(l) for l in out.splitlines()]
slow = max(rows, key=lambda r: r['duration_us'])
print('slowest:', slow['flavour'], slow['batch'], slow['duration_us'], slow['why'])
assert slow['flavour'] == 'rcu_preempt' and slow['cause'] == 'cpu_held'
assert slow['cause_cpu'] == 1 and slow['cause_comm'] == 'rcupoll_hold/1'
assert slow['duration_us'] > 2.5e6
PY
else
	fail "no Tree RCU fixture $FIX"
fi

# tree-ipi.dat.xz (tree-smp2 "held irqoff", trimmed with trace-cmd split):
# CPU 1 reported in time, then rcupoll_irqs/1 held it 3 s with interrupts
# off; CPU 0's sh spun as long, interrupts on, in an IPI to CPU 1.  The
# report blames CPU 0 and must name CPU 1 and its task as well.
if xz -dc "$T/tree-ipi.dat.xz" > "$OUT/tree-ipi.dat" &&
	"$R" report -f csv -t batches "$OUT/tree-ipi.dat" > "$OUT/ipi.csv"; then
	grep -q '^rcu_preempt,49145,.*,cpu_held,0,472,sh,.*interrupts on ([0-9]* softirqs ran on CPU 0 meanwhile); CPU 1 ran rcupoll_irqs/1 (pid 475) without a context switch for 3000.9 ms meanwhile; no softirq ran on CPU 1 from 53.735248 to 56.735784 .*interrupts were probably off' "$OUT/ipi.csv" &&
		ok "tree-ipi.dat: CPU 0, spinning in an IPI, blamed; CPU 1 with interrupts off named too" ||
		fail "tree-ipi.dat: CPU 1 and rcupoll_irqs/1 not named beside CPU 0: $(grep '^rcu_preempt,49145,' "$OUT/ipi.csv")"
else
	fail "tree-ipi.dat: cannot decompress or report"
fi

[ $fails = 0 ] && echo "test-tree: all passed" && exit 0
echo "test-tree: $fails failed"
exit 1
