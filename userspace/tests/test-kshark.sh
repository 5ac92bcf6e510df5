#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Host test of the KernelShark plugin (tracepoints/kshark): it builds and
# exports its entry points; KernelShark, headless, opens two streams with
# it (one file whose two buffers hold the fixture and a copy of it
# without its stuck batch) and the plugin draws each stream from its own
# data: the stuck
# batch's red box appears in one stream's graphs only, quiescent-state
# ticks in both.
#
#   TOP=<project> OUT=<scratch dir> bash userspace/tests/test-kshark.sh
# Needs kernelshark, Xvfb and ImageMagick (installed if missing, as the
# screenshot script does), python3 and trace-cmd.  Prints FAIL: lines and
# exits 1 on any failure.
set -uo pipefail
: "${TOP:?}" "${OUT:?}"
FIX=$TOP/userspace/tests/stall-flight.dat
KSO=${KSO:-$TOP/build/kshark}
mkdir -p "$OUT"
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
ok() { echo "ok: $*"; }

# 1. The plugin builds against Debian's libkshark-dev and exports what
#    KernelShark looks for.
# (PLUGIN=path: test that build of the plugin instead.)
if [ -z "${PLUGIN:-}" ]; then
	make --no-print-directory -s -C "$TOP/tracepoints/kshark" O="$KSO" || { echo "FAIL: plugin build"; exit 1; }
fi
make --no-print-directory -s -C "$TOP/tracepoints" O="$TOP/build/tracepoints" || { echo "FAIL: libtraceevent plugin build"; exit 1; }
so=${PLUGIN:-$KSO/plugin-rcu_poll.so}
for sym in kshark_data_plugin_initializer kshark_data_plugin_deinitializer kshark_plugin_menu_initializer; do
	nm -D --defined-only "$so" | grep " T $sym$" > /dev/null && ok "exports $sym" || fail "$so does not export $sym"
done

# 2. One file, two buffers, two different rcu_poll traces: the fixture in
#    its instance buffer, and in the top buffer a copy without its stuck
#    batch (ks-streams.py).  KernelShark opens each buffer as a stream.
V6=$OUT/ks-v6.dat TWO=$OUT/ks-two.dat
R=$TOP/build/userspace/rcupoll
trace-cmd convert --file-version 6 --compression none -i "$FIX" -o "$V6" > /dev/null 2>&1 || fail "trace-cmd convert"
trace-cmd dump --events -i "$V6" > "$OUT/ks-events.txt" 2>/dev/null || fail "trace-cmd dump --events"
python3 "$TOP/userspace/tests/ks-streams.py" "$V6" "$OUT/ks-events.txt" "$TWO" || fail "could not make the two buffers"
"$R" report -B rcupoll_flight -b 5721 "$TWO" > /dev/null 2>&1 && ok "buffer rcupoll_flight has batch 5721 in flight" ||
	fail "buffer rcupoll_flight lacks batch 5721"
"$R" report -B top -b 5721 "$TWO" > /dev/null 2>&1 && fail "the top buffer still has batch 5721" ||
	ok "the top buffer has no batch in flight"

# 3. KernelShark with both streams, headless, as nobody (as root it stops
#    at a warning dialog).
for p in Xvfb:xvfb import:imagemagick kernelshark:kernelshark; do
	command -v "${p%%:*}" > /dev/null || apt-get install -y -q --no-install-recommends "${p#*:}" > /dev/null
done
work=$(mktemp -d /tmp/rcupoll-ks.XXXXXX)
ks= xvfb=
trap 'kill $ks $xvfb 2>/dev/null; rm -rf "$work"' EXIT
cp "$TWO" "$work/two.dat"
cp "$so" "$TOP/build/tracepoints/plugin_rcu_poll.so" "$work/"
chown -R 65534:65534 "$work"
chmod 700 "$work"
disp=:$((80 + RANDOM % 9))
Xvfb "$disp" -screen 0 1400x1000x24 -ac -nolisten tcp > "$work/xvfb.log" 2>&1 &
xvfb=$!
sleep 2
DISPLAY=$disp setpriv --reuid=65534 --regid=65534 --clear-groups \
	env HOME="$work" XDG_RUNTIME_DIR="$work" TRACEEVENT_PLUGIN_DIR="$work" RCUPOLL_KS_DEBUG=1 \
	kernelshark -geometry 1380x960+0+0 -p "$work/plugin-rcu_poll.so" "$work/two.dat" \
	> "$work/kernelshark.log" 2>&1 &
ks=$!
sleep "${WAIT:-20}"
kill -0 "$ks" 2>/dev/null || { cat "$work/kernelshark.log"; echo "FAIL: kernelshark died"; exit 1; }
DISPLAY=$disp import -window root -crop 1390x970+0+0 "$OUT/kshark-two-streams.png"
cp "$work/kernelshark.log" "$OUT/kshark-two-streams.log"
grep 'rcu_poll plugin: stream [0-9]*:' "$OUT/kshark-two-streams.log"

# Each stream paired its own batches: 0 in flight in the top buffer
# (stream 0), 1 in the fixture's instance buffer (stream 1).
grep -q 'rcu_poll plugin: stream 0: 15 batches paired (0 slow), 0 in flight, 33 quiescent states' "$OUT/kshark-two-streams.log" &&
	ok "stream 0 (top, no stuck batch): 15 batches, 0 in flight" || fail "stream 0 was not paired from its own data"
grep -q 'rcu_poll plugin: stream 1: 15 batches paired (0 slow), 1 in flight, 33 quiescent states' "$OUT/kshark-two-streams.log" &&
	ok "stream 1 (the fixture): 15 batches, 1 in flight" || fail "stream 1 was not paired from its own data"
for s in 0 1; do
	grep -q "rcu_poll plugin: stream $s CPU [01]: [1-9][0-9]* shapes drawn" "$OUT/kshark-two-streams.log" &&
		ok "stream $s drawn" || fail "nothing drawn on stream $s"
done

# The picture: the stuck batch's red (220,30,30) in one band of rows (one
# CPU graph of one stream), quiescent-state ticks (30,60,200) in both
# streams' graphs.
convert "$OUT/kshark-two-streams.png" txt:- > "$OUT/ks.txt" || fail "convert"
python3 - "$OUT/ks.txt" <<'EOF' || fail "the picture does not show the streams apart"
import re, sys
red, blue = set(), set()
for line in open(sys.argv[1]):
    m = re.match(r'(\d+),(\d+): .*#(DC1E1E|1E3CC8)', line)
    if m:
        (red if m.group(3) == 'DC1E1E' else blue).add(int(m.group(2)))
def bands(rows):
    out, last = [], None
    for y in sorted(rows):
        if last is None or y - last > 3:
            out.append([y, y])
        else:
            out[-1][1] = y
        last = y
    return out
print('red rows', bands(red), 'blue rows', bands(blue))
if len(bands(red)) != 1:
    sys.exit('the stuck batch should be red in one graph only, not %d' % len(bands(red)))
if len(bands(blue)) < 3:
    sys.exit('quiescent-state ticks should show on the graphs of both streams')
EOF
# 4. Tree RCU: the synthetic trace (synth-tree.py: 7 grace periods, one in
#    flight; CPU 1 noticed the first at 1.005 and passed its quiescent
#    state at 1.020) and the trace of the Tree RCU guest (tree-hold.dat:
#    CPU 1 held 3 s).  Each grace period is a box, each CPU's part of it
#    (cpustart to cpuqs) a bar, FQS scans and kicks orange ticks, the
#    stall warning a dark red line.
# ks_open DAT NAME: KernelShark on DAT, headless; its log and picture in
# $OUT/NAME.log and $OUT/NAME.png.
ks_open() {
	local w
	w=$(mktemp -d /tmp/rcupoll-ks.XXXXXX)
	cp "$1" "$w/t.dat"
	cp "$so" "$w/"
	chown -R 65534:65534 "$w"
	chmod 700 "$w"
	DISPLAY=$disp setpriv --reuid=65534 --regid=65534 --clear-groups \
		env HOME="$w" XDG_RUNTIME_DIR="$w" RCUPOLL_KS_DEBUG=1 \
		kernelshark -geometry 1380x960+0+0 -p "$w/plugin-rcu_poll.so" "$w/t.dat" \
		> "$w/kernelshark.log" 2>&1 &
	ks=$!
	sleep "${WAIT:-20}"
	kill -0 "$ks" 2>/dev/null || { cat "$w/kernelshark.log"; fail "kernelshark died on $2"; rm -rf "$w"; return 1; }
	DISPLAY=$disp import -window root -crop 1390x970+0+0 "$OUT/$2.png"
	kill "$ks"
	wait "$ks" 2>/dev/null
	cp "$w/kernelshark.log" "$OUT/$2.log"
	rm -rf "$w"
	grep 'rcu_poll plugin: stream [0-9]*:' "$OUT/$2.log"
	convert "$OUT/$2.png" txt:- > "$OUT/$2.txt" || fail "convert $2"
}
# colour_rows NAME RGB: the bands of picture rows holding colour RGB.
colour_rows() {
	python3 - "$OUT/$1.txt" "$2" <<'PY'
import re, sys
rows = sorted({int(m.group(1)) for m in (re.match(r'\d+,(\d+): .*#' + sys.argv[2], l) for l in open(sys.argv[1])) if m})
bands, last = [], None
for y in rows:
    if last is None or y - last > 3:
        bands.append([y, y])
    else:
        bands[-1][1] = y
    last = y
print(len(bands))
PY
}
kill "$ks" 2>/dev/null
trace-cmd dump --events -i "$FIX" > "$OUT/events.txt" 2>/dev/null
python3 "$TOP/userspace/tests/synth-tree.py" "$OUT/events.txt" "$OUT/tree-synth.dat" || fail "synth-tree.py"
if ks_open "$OUT/tree-synth.dat" kshark-tree-synth; then
	L=$OUT/kshark-tree-synth.log
	grep -q 'rcu_poll plugin: stream 0: 6 grace periods paired (6 slow), 1 in flight, 12 quiescent states' "$L" &&
		ok "Tree: 6 grace periods paired, 1 in flight, 12 cpuqs ticks" || fail "Tree grace periods not paired as synth-tree.py made them"
	grep -q 'rcu_poll plugin: stream 0: 2 per-CPU bars cpustart to cpuqs (1 slow), 0 in flight' "$L" &&
		ok "Tree: per-CPU bars from cpustart to cpuqs (CPU 1's 15 ms one slow)" || fail "Tree per-CPU bars"
	grep -q 'rcu_poll plugin: stream 0: 5 marks (kicks, FQS scans, stall warnings)' "$L" &&
		ok "Tree: 3 FQS scans, 1 FQS kick, 1 stall warning marked" || fail "Tree marks"
	grep -q 'rcu_poll plugin: stream 0 CPU 1: [1-9][0-9]* shapes drawn' "$L" && ok "Tree: CPU 1 drawn" || fail "nothing drawn on CPU 1"
	# Red: the grace periods (on CPU 0, where the kthread started them) and
	# CPU 1's slow bar: two graphs.  Orange ticks and the stall line.
	[ "$(colour_rows kshark-tree-synth DC1E1E)" = 2 ] && ok "Tree: red boxes and bars on both CPU graphs" ||
		fail "Tree: red in $(colour_rows kshark-tree-synth DC1E1E) graphs, not 2"
	[ "$(colour_rows kshark-tree-synth F08C00)" -ge 1 ] && ok "Tree: FQS ticks drawn" || fail "Tree: no orange FQS ticks"
	[ "$(colour_rows kshark-tree-synth 780000)" -ge 1 ] && ok "Tree: stall warning drawn" || fail "Tree: no stall warning line"
fi
TREE_FIX=$TOP/userspace/tests/tree-hold.dat
if [ -f "$TREE_FIX" ]; then
	if ks_open "$TREE_FIX" kshark-tree-hold; then
		L=$OUT/kshark-tree-hold.log
		grep -q 'rcu_poll plugin: stream 0: [1-9][0-9]* grace periods paired ([1-9][0-9]* slow)' "$L" &&
			ok "tree-hold.dat: grace periods paired, slow ones among them" || fail "tree-hold.dat: no grace periods paired"
		grep -q 'rcu_poll plugin: stream 0: [1-9][0-9]* per-CPU bars cpustart to cpuqs ([1-9][0-9]* slow)' "$L" &&
			ok "tree-hold.dat: per-CPU bars, slow ones among them" || fail "tree-hold.dat: no slow per-CPU bar"
		grep -q 'rcu_poll plugin: stream 0: [1-9][0-9]* per-CPU bars cpustart to cpuqs ([1-9][0-9]* slow), 0 in flight' "$L" &&
			ok "tree-hold.dat: every CPU's bar ends (cpuqs, FQS, or with its grace period)" ||
			fail "tree-hold.dat: per-CPU bars left open"
		# Red in two graphs: the 3 s grace period on CPU 0 (its kthread
		# started it there) and CPU 1's bar under rcupoll_hold/1.  (The
		# other grace periods, about 4 ms, are narrower than the 4 bins
		# KernelShark draws an interval at in the full view.)
		[ "$(colour_rows kshark-tree-hold DC1E1E)" = 2 ] && ok "tree-hold.dat: the held grace period and CPU 1's bar drawn red" ||
			fail "tree-hold.dat: red in $(colour_rows kshark-tree-hold DC1E1E) graphs, not 2"
		[ "$(colour_rows kshark-tree-hold 1E3CC8)" -ge 2 ] && ok "tree-hold.dat: cpuqs ticks on both CPUs" ||
			fail "tree-hold.dat: no cpuqs ticks"
	fi
else
	fail "no Tree RCU fixture $TREE_FIX"
fi

[ "$fails" = 0 ] && echo "test-kshark: all passed" || echo "test-kshark: $fails failed"
[ "$fails" = 0 ]
