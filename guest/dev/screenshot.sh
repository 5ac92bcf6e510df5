#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make screenshot: open the "make trace" recording in KernelShark with the
# rcu_poll plugins, on a headless X server (Xvfb), and save the window as
# a PNG.  KernelShark runs as nobody: as root it stops at a warning dialog.
# Environment: TOP DAT PNG [WAIT seconds before the shot] [KSLOG: keep
# KernelShark's output there]
set -euo pipefail
: "${TOP:?}" "${DAT:?}" "${PNG:?}"
for p in Xvfb:xvfb import:imagemagick kernelshark:kernelshark; do
	command -v "${p%%:*}" >/dev/null || apt-get install -y -q --no-install-recommends "${p#*:}" >/dev/null
done
[ -f "$DAT" ] || { echo "screenshot: no $DAT (make trace)" >&2; exit 1; }
work=$(mktemp -d /tmp/rcupoll-shot.XXXXXX)
trap 'kill $ks $xvfb 2>/dev/null || true; rm -rf "$work"' EXIT
cp "$DAT" "$work/trace.dat"
cp "$TOP/build/kshark/plugin-rcu_poll.so" "$TOP/build/tracepoints/plugin_rcu_poll.so" "$work/"
chown -R 65534:65534 "$work"
chmod 700 "$work"
disp=:$((90 + RANDOM % 9))
Xvfb "$disp" -screen 0 1400x900x24 -ac -nolisten tcp > "$work/xvfb.log" 2>&1 &
xvfb=$!
sleep 2
DISPLAY=$disp setpriv --reuid=65534 --regid=65534 --clear-groups \
	env HOME="$work" XDG_RUNTIME_DIR="$work" TRACEEVENT_PLUGIN_DIR="$work" \
	kernelshark -geometry 1380x860+0+0 -p "$work/plugin-rcu_poll.so" "$work/trace.dat" \
	> "$work/kernelshark.log" 2>&1 &
ks=$!
sleep "${WAIT:-25}"
kill -0 "$ks" 2>/dev/null || { cat "$work/kernelshark.log" >&2; echo "screenshot: kernelshark died" >&2; exit 1; }
DISPLAY=$disp import -window root -crop 1390x870+0+0 "$PNG.tmp.png"
mv "$PNG.tmp.png" "$PNG"
[ -z "${KSLOG:-}" ] || cp "$work/kernelshark.log" "$KSLOG"
echo "  SHOT     $PNG"
