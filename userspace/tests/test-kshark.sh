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
[ "$fails" = 0 ] && echo "test-kshark: all passed" || echo "test-kshark: $fails failed"
[ "$fails" = 0 ]
