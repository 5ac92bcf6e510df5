#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Host test of "rcupoll report" on the committed fixtures: the exact
# answers (why each slow or stuck batch took long, what waits behind it),
# output that real parsers read (python3 json and csv) with hostile task
# names, numbers that come from fields and not from printed text, and
# bad input refused with one line and a usage or runtime status.
#
#   TOP=<project> OUT=<scratch dir> bash userspace/tests/test-report.sh
# Needs build/userspace/rcupoll (make -C userspace O=build/userspace),
# trace-cmd and python3; valgrind if installed.  Prints FAIL: lines and
# exits 1 on any failure.
set -uo pipefail
: "${TOP:?}" "${OUT:?}"
R=${RCUPOLL:-$TOP/build/userspace/rcupoll}
FIX=$TOP/userspace/tests/stall-flight.dat
mkdir -p "$OUT"
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
ok() { echo "ok: $*"; }
[ -x "$R" ] || { echo "FAIL: no $R (make -C userspace O=build/userspace)"; exit 1; }

# --- 1. the answers on the flight-recorder fixture (CPU 1 held by
#        rcupoll_hold/1; caught while CPU 0's batch 5721 waits for it) ----
"$R" report "$FIX" > "$OUT/fix.txt" 2> "$OUT/fix.err" || fail "report of the fixture failed: $(cat "$OUT/fix.err")"
cat "$OUT/fix.txt"
expect_line() {	# FILE LINE WHAT
	grep -qxF -- "$2" "$1" && ok "$3" || fail "$3: no line '$2' in $1"
}
expect_line "$OUT/fix.txt" \
	"    CPU 1 passed no quiescent state for 1590.0 ms: rcupoll_hold/1 (pid 628) ran there without a context switch from 42.692511 to the end of the trace; interrupts on (26 softirqs ran on CPU 1 meanwhile)" \
	"the stuck batch names rcupoll_hold/1 on CPU 1"
expect_line "$OUT/fix.txt" \
	"    every CPU passed a quiescent state within 0.05 ms; the batch's own CPU 1 did not poll it for 7.8 ms (RCU_SOFTIRQ waited behind rcupoll_hold/1 (pid 628), running there since 42.692511); no interrupt was seen on CPU 1 from 42.692511 until RCU_SOFTIRQ ran at 42.700291" \
	"the slowest ended batch is CPU 1 not polling, not ksoftirqd/1"
expect_line "$OUT/fix.txt" \
	"    waiting: 1 callback in it (kmem_rcu_free 1), 43 queued behind it on CPU 0 (file_free_rcu 18, kmem_rcu_free 9, mt_free_rcu 9, i_callback 2, __d_free 2, delayed_put_pid 1, rcu_poll_test_cb 1, delayed_put_task_struct 1)" \
	"the callbacks waiting behind the stuck batch, by function"
expect_line "$OUT/fix.txt" \
	"$FIX (buffer rcupoll_flight): 3973 events on 2 CPUs over 2.345 s, 0 lost; 190 rcu_poll events, 16 batches" \
	"event and batch counts"
grep -q 'ksoftirqd' "$OUT/fix.txt" && fail "the report blames ksoftirqd somewhere"

"$R" report -f csv "$FIX" > "$OUT/fix.csv" || fail "csv report failed"
expect_line "$OUT/fix.csv" \
	"rcu_poll,5720,1,42.692462,42.700315,7852.6,0,1,1,not_polled,1,628,rcupoll_hold/1,7804.3,\"every CPU passed a quiescent state within 0.05 ms; the batch's own CPU 1 did not poll it for 7.8 ms (RCU_SOFTIRQ waited behind rcupoll_hold/1 (pid 628), running there since 42.692511); no interrupt was seen on CPU 1 from 42.692511 until RCU_SOFTIRQ ran at 42.700291\"" \
	"csv row of batch 5720"
grep -q '^rcu_poll,5721,0,42.710995,,1590006.0,1,1,1,cpu_held,1,628,rcupoll_hold/1,1590006.0,' "$OUT/fix.csv" &&
	ok "csv row of batch 5721" || fail "csv row of batch 5721"
"$R" report -f csv -t summary "$FIX" > "$OUT/sum.csv"
expect_line "$OUT/sum.csv" "rcu_poll,15,1,843.8,7852.6,7852.6,492.0" "batch duration summary"

# --batch: one batch CPU by CPU.
"$R" report --batch 5720 "$FIX" > "$OUT/b5720.txt" || fail "--batch 5720 failed"
cat "$OUT/b5720.txt"
grep -q '^    1  42.692511 +0.048 ms switch (inferred) ' "$OUT/b5720.txt" &&
	ok "--batch: CPU 1's quiescent state is its context switch" ||
	fail "--batch 5720 does not show CPU 1's context switch at 42.692511"
grep -q '^  42.692511  + *0.048 ms  CPU 1   context switch ksoftirqd/1 (14) -> rcupoll_hold/1 (628) <- quiescent state$' "$OUT/b5720.txt" &&
	ok "--batch timeline" || fail "--batch 5720 timeline lacks the switch to rcupoll_hold/1"
"$R" report -f csv -t cpus -b 5721 "$FIX" > "$OUT/cpus.csv"
expect_line "$OUT/cpus.csv" "rcu_poll,5721,1,,,,none,,,,,42.711007" "CPU 1 passed no quiescent state in 5721"

# --- 2. machine-readable output parses, with hostile task names ---------
# The fixture as an uncompressed v6 file, with the comm of rcupoll_hold/1
# (15 bytes with its NUL) turned into a quote, a comma, a newline, an
# e-acute, an invalid byte, a control character and a backslash.
V6=$OUT/v6.dat EVIL=$OUT/evil.dat FMT=$OUT/fmtchange.dat
trace-cmd convert --file-version 6 --compression none -i "$FIX" -o "$V6" > /dev/null 2>&1 ||
	fail "trace-cmd convert failed"
python3 - "$V6" "$EVIL" "$FMT" <<'EOF' || fail "could not make the hostile fixtures"
import sys
d = open(sys.argv[1], 'rb').read()
old = b'rcupoll_hold/1\x00'
new = b'h"o,l\nd\xc3\xa9\xff\x01/1\\\x00'
assert len(old) == len(new) and d.count(old) == 2, d.count(old)
open(sys.argv[2], 'wb').write(d.replace(old, new))
# Only the printed label changes, not the field: numbers must not.
old = b'qs_cpu=%d how=%s'
assert d.count(old) == 1
open(sys.argv[3], 'wb').write(d.replace(old, b'xx_cpu=%d how=%s'))
EOF
for f in "$FIX" "$EVIL"; do
	"$R" report -f json "$f" > "$OUT/all.json" || fail "json report of $f failed"
	for t in trace summary batches delays slowest callbacks waiting stalls barriers passes; do
		"$R" report -f csv -t $t "$f" > "$OUT/$t.csv" || fail "csv table $t of $f failed"
	done
	python3 - "$OUT" "$f" <<'EOF' || fail "json/csv of $f do not parse or have varying columns"
import csv, json, sys
out, f = sys.argv[1], sys.argv[2]
keys = {}
for n, line in enumerate(open(out + '/all.json', encoding='utf-8'), 1):
    o = json.loads(line)
    k = tuple(o.keys())
    if keys.setdefault(o['table'], k) != k:
        sys.exit('json line %d: keys %s differ from %s' % (n, k, keys[o['table']]))
for t in ('trace', 'summary', 'batches', 'delays', 'slowest', 'callbacks', 'waiting', 'stalls',
          'barriers', 'passes'):
    rows = list(csv.reader(open('%s/%s.csv' % (out, t), encoding='utf-8', newline='')))
    if not rows:
        sys.exit('csv table %s: no header' % t)
    bad = [r for r in rows if len(r) != len(rows[0])]
    if bad:
        sys.exit('csv table %s: %d rows with a column count other than the header\'s %d' % (t, len(bad), len(rows[0])))
    if 'json' and t not in keys and t not in ('delays', 'stalls', 'barriers'):
        sys.exit('json has no table %s' % t)
    if t in keys and list(keys[t][1:]) != rows[0]:
        sys.exit('table %s: json keys %s, csv header %s' % (t, keys[t][1:], rows[0]))
if 'evil' in f:
    want = 'h"o,l\nd\u00e9\ufffd\u0001/1\\'
    js = [json.loads(l) for l in open(out + '/all.json', encoding='utf-8')]
    got = [o['cause_comm'] for o in js if o['table'] == 'batches' and o['batch'] in (5720, 5721)]
    if got != [want, want]:
        sys.exit('json cause_comm %r, want %r' % (got, want))
    rows = list(csv.DictReader(open(out + '/batches.csv', encoding='utf-8', newline='')))
    got = [r['cause_comm'] for r in rows if r['batch'] in ('5720', '5721')]
    if got != [want, want]:
        sys.exit('csv cause_comm %r, want %r' % (got, want))
print('parsed: json tables', sorted(keys))
EOF
done
# Invocation passes (rcu_batch_start/end) per CPU, against trace-cmd's
# own reading of the fixture: passes and callbacks invoked per CPU.
r=$(bash "$(dirname "$0")/passes-check.sh" "$R" "$FIX" "$OUT/passes") &&
	ok "passes: per CPU as trace-cmd counts them ($r)" || fail "passes: $r"
"$R" report "$EVIL" > "$OUT/evil.txt" || fail "text report with a hostile comm failed"
grep -qF 'CPU 1 passed no quiescent state for 1590.0 ms: h"o,l\x0ad'$'\xc3\xa9''\xff\x01/1\\ (pid 628) ran there' "$OUT/evil.txt" &&
	ok "text shows the hostile comm escaped on one line" || { grep -a 'pid 628' "$OUT/evil.txt"; fail "text output of a hostile comm"; }

# --- 3. fields, not text: a changed print format changes nothing -------
"$R" report "$FMT" | tail -n +2 > "$OUT/fmt.txt"
"$R" report "$V6" | tail -n +2 > "$OUT/v6.txt"
cmp -s "$OUT/fmt.txt" "$OUT/v6.txt" && ok "a changed print format changes no number" ||
	{ diff "$OUT/v6.txt" "$OUT/fmt.txt" | head; fail "the report depends on the printed format"; }

# --- 4. bad input: one line, exit 2 for usage and 1 for runtime --------
expect_rc() {	# RC PATTERN ARGS...
	local rc=$1 pat=$2
	shift 2
	"$R" "$@" > "$OUT/bad.out" 2> "$OUT/bad.err"
	local got=$?
	if [ "$got" != "$rc" ]; then
		fail "'rcupoll $*': exit $got, want $rc"
	elif [ -s "$OUT/bad.out" ]; then
		fail "'rcupoll $*': wrote to stdout"
	elif ! head -n 1 "$OUT/bad.err" | grep -q "^rcupoll: $pat"; then
		fail "'rcupoll $*': message '$(head -n 1 "$OUT/bad.err")' does not match 'rcupoll: $pat'"
	else
		ok "'rcupoll $*' -> $rc: $(head -n 1 "$OUT/bad.err")"
	fi
}
head -c 100000 "$FIX" > "$OUT/trunc.dat"
echo "not a trace" > "$OUT/junk.dat"
expect_rc 2 "report: which trace.dat" report
expect_rc 2 "report: one trace.dat at a time" report "$FIX" "$FIX"
expect_rc 2 "report: unknown option '--frobnicate'" report --frobnicate "$FIX"
expect_rc 2 "report: unknown option -x" report -x "$FIX"
expect_rc 2 "report: --format takes text, csv or json, not 'xml'" report --format=xml "$FIX"
expect_rc 2 "report: option --format needs a value" report "$FIX" --format
expect_rc 2 "report: --top must be a whole number from 1 to" report -n 0 "$FIX"
expect_rc 2 "report: --top must be a whole number" report -n ' 5' "$FIX"
expect_rc 2 "report: --slow must be a number of milliseconds" report --slow=-1 "$FIX"
expect_rc 2 "report: --table takes" report -t nope "$FIX"
expect_rc 2 "report: --flavour goes with --batch" report -F rcu_poll "$FIX"
expect_rc 1 "report: cannot read /nonexistent.dat" report /nonexistent.dat
expect_rc 1 "report: .*not a readable trace.dat" report "$OUT/trunc.dat"
expect_rc 1 "report: .*not a readable trace.dat" report "$OUT/junk.dat"
expect_rc 1 "report: .* has no batch 1 " report -b 1 "$FIX"
expect_rc 1 "report: .* has no batches of flavour 'rcu_poll_preempt'" report -b 5720 -F rcu_poll_preempt "$FIX"
expect_rc 1 "report: .* has no buffer 'nope'" report -B nope "$FIX"
expect_rc 2 "no command 'frobnicate'" frobnicate
"$R" report --help | grep '^usage: rcupoll report' > /dev/null && ok "report --help" || fail "report --help"

# --- 5. a synthetic trace with the CPUs' own quiescent states
#        (rcu_poll_cpu_qs) and preempt-flavour references
#        (rcu_poll_preempt_task): every cause, exactly (synth-trace.py).
SYN=$OUT/synth.dat
trace-cmd dump --events -i "$FIX" > "$OUT/events.txt" 2>/dev/null || fail "trace-cmd dump --events"
python3 "$TOP/userspace/tests/synth-trace.py" "$OUT/events.txt" "$SYN" || fail "synth-trace.py failed"
"$R" report "$SYN" > "$OUT/synth.txt" || fail "report of the synthetic trace failed"
cat "$OUT/synth.txt"
grep -q '^quiescent states are inferred' "$OUT/synth.txt" && fail "the synthetic trace's quiescent states are traced, not inferred"
expect_line "$OUT/synth.txt" \
	"    CPU 1 passed no quiescent state for 500.0 ms: irqoff (pid 500) ran there without a context switch from 3.990000 to the end of the trace; no softirq ran on CPU 1 from 4.000000 to 4.500002: interrupts were probably off" \
	"synthetic: a CPU held with interrupts off"
expect_line "$OUT/synth.txt" "    waiting: 1 callback in it (cb_a 1), 3 queued behind it on CPU 0 (cb_b 2, cb_c 1)" \
	"synthetic: callbacks in and behind the stuck batch"
expect_line "$OUT/synth.txt" \
	"    preempted tasks held the preempt flavour: 400 reader (preempted on CPU 1, released at 3.050000); CPU 1's counter drained 50.0 ms after every CPU had flipped (within 0.02 ms)" \
	"synthetic: the preempted task named, not the one that let go before the flip"
expect_line "$OUT/synth.txt" \
	"    CPU 1 passed no quiescent state for 20.0 ms: spinner (pid 300) ran there without a context switch from 0.900000 until its tick outside any reader at 1.020000; interrupts on (1 softirqs ran on CPU 1 meanwhile)" \
	"synthetic: the CPU's own quiescent state (a tick), not when the poller saw it"
expect_line "$OUT/synth.txt" \
	"    every CPU passed a quiescent state within 0.10 ms; the batch's own CPU 1 did not poll it for 14.9 ms (RCU_SOFTIRQ waited behind hog (pid 301), running there since 2.000100); no interrupt was seen on CPU 1 from 2.000100 until RCU_SOFTIRQ ran at 2.015000" \
	"synthetic: the batch's own CPU not polling"
expect_line "$OUT/synth.txt" \
	"    every CPU passed a quiescent state within 10.00 ms; the batch's own CPU 1 did not poll it for 300.0 ms (RCU_SOFTIRQ waited behind fifo (pid 302), running there since 2.100000); no softirq ran on CPU 1 from 2.100000 to 2.400010: they waited for ksoftirqd/1, runnable from 2.100100 but kept off the CPU" \
	"synthetic: a SCHED_FIFO task kept ksoftirqd off the batch's own CPU (interrupts on, softirqs left to ksoftirqd)"
expect_line "$OUT/synth.txt" \
	"    no batch started for 400.0 ms while 1 callbacks waited on CPU 1: irqoff (pid 500) ran there without a context switch from 3.990000; no softirq ran on CPU 1 from 4.100000 to 4.500002: interrupts were probably off" \
	"synthetic: callbacks waiting for a batch to start"
"$R" report -f csv -t cpus -b 10 "$SYN" > "$OUT/synth-cpus.csv"
expect_line "$OUT/synth-cpus.csv" "rcu_poll,10,1,1.020000,20000.0,kernel,traced,300,spinner,1.021005,21005.0," \
	"synthetic: CPU 1's traced quiescent state in --batch"

# --- 6. valgrind: no invalid access, no leak -------------------------------
vg() {	# FILE ARGS...
	local f=$1
	shift
	# shellcheck disable=SC2068
	valgrind -q --leak-check=full --show-leak-kinds=all --error-exitcode=9 \
		--suppressions="$TOP/userspace/tests/valgrind.supp" "$R" report $@ "$f" > /dev/null 2> "$OUT/vg.log"
	[ $? = 0 ] && [ ! -s "$OUT/vg.log" ] && ok "valgrind clean: report $* $(basename "$f")" ||
		{ cat "$OUT/vg.log"; fail "valgrind: report $* $(basename "$f")"; }
}
if command -v valgrind > /dev/null; then
	for a in "" "-f json" "-f csv" "--batch 5720" "--batch 5721 -f json"; do
		vg "$EVIL" $a
	done
	for a in "" "-f json" "--batch 3" "--batch 12 -f json"; do
		vg "$SYN" $a
	done
fi
[ "$fails" = 0 ] && echo "test-report: all passed" || echo "test-report: $fails failed"
[ "$fails" = 0 ]
