# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# Show that a long, quiet step is alive and how far it is: while it runs,
# print a plain line every PROGRESS_INTERVAL (30) seconds, e.g.
#   "  ...      poll: 1234 objects compiled, 4m30s"
# counting the lines of its log that match a pattern.  Plain lines, no
# terminal tricks, so CI logs stay readable.  Source it, then:
#   progress_start LABEL LOG [WHAT [ERE]]   (default: kbuild's CC/LD/AR lines)
#   ... the long step, output to LOG ...
#   progress_stop                          (also safe if never started)

# progress_start LABEL LOG [WHAT [ERE]]: start the background loop.
progress_start() {
	local label=$1 log=$2 what=${3:-objects compiled} re=${4:-'^  (CC|LD|AR)( \[M\])? '}
	local interval=${PROGRESS_INTERVAL:-30} start
	start=$(date +%s)
	# Safe under set -e: nothing in the loop may end it but the signal.
	(
		sp=""
		trap '[ -z "$sp" ] || kill "$sp" 2>/dev/null || true; exit 0' TERM
		while :; do
			sleep "$interval" &
			sp=$!
			wait "$sp" || true
			sp=""
			e=$(( $(date +%s) - start ))
			c=$(grep -c -E -- "$re" "$log" 2>/dev/null || true)
			printf '  ...      %s: %d %s, %dm%02ds\n' "$label" "${c:-0}" "$what" $((e / 60)) $((e % 60)) || true
		done
	) &
	PROGRESS_PID=$!
}

# progress_stop: end the loop (and its sleep) and wait for it.
progress_stop() {
	[ -n "${PROGRESS_PID:-}" ] || return 0
	kill "$PROGRESS_PID" 2>/dev/null || true
	wait "$PROGRESS_PID" 2>/dev/null || true
	PROGRESS_PID=""
}
