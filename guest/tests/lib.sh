# SPDX-License-Identifier: GPL-2.0
# Helpers for guest tests: source it, then call fail/expect_eq/... .
# A test exits 0 on success; fail() prints "FAIL: reason" and exits 1.

fail() {
	echo "FAIL: $*"
	exit 1
}

# expect_eq WHAT EXPECTED ACTUAL
expect_eq() {
	[ "$2" = "$3" ] || fail "$1: expected '$2', got '$3'"
	echo "ok: $1 = $3"
}

# kmsg_mark: remember where the kernel log is now; kmsg_since prints what
# came after the mark (dmesg is a ring: compare by line count).
kmsg_mark() {
	KMSG_MARK=$(dmesg | wc -l)
}
kmsg_since() {
	dmesg | tail -n +$((KMSG_MARK + 1))
}

# load MODULE [params]: modprobe, failing the test if it will not load.
load() {
	modprobe "$@" || fail "modprobe $* failed"
}

# expect_einval FILE VALUE: writing VALUE (plus a newline) to FILE must
# fail with "Invalid argument".
expect_einval() {
	_out=$( { echo "$2" > "$1"; } 2>&1 ) &&
		fail "writing '$2' to $1 succeeded"
	case "$_out" in
	*"Invalid argument"*) echo "ok: '$2' > $1: EINVAL" ;;
	*) fail "writing '$2' to $1: expected EINVAL, got: $_out" ;;
	esac
}

# put FILE VALUE: write VALUE to FILE, failing the test if refused.
put() {
	printf '%s\n' "$2" > "$1" || fail "writing '$2' to $1 failed"
}

# field KEY LINE: the value of KEY=value in a key=value record.
field() {
	echo "$2" | tr ' ' '\n' | sed -n "s/^$1=//p" | head -n 1
}

# wait_for SECONDS COMMAND...: retry COMMAND every 0.2 s until it succeeds.
wait_for() {
	_end=$(( $(date +%s) + $1 ))
	shift
	until "$@"; do
		[ "$(date +%s)" -lt "$_end" ] || return 1
		sleep 0.2
	done
}

# rcudata_invariant: on every CPU, under its lock,
# queued + mig_in == invoked + nxt + cur + done + mig_out.
rcudata_invariant() {
	awk '/^cpu=/ {
		for (i = 1; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] }
		in_ = v["queued"] + v["mig_in"]
		out = v["invoked"] + v["nxt"] + v["cur"] + v["done"] + v["mig_out"]
		if (in_ != out) { print "FAIL: " v["cpu"] ": queued+mig_in " in_ " != invoked+pending+mig_out " out; bad = 1 }
		q += v["queued"]; iv += v["invoked"]; p += v["nxt"] + v["cur"] + v["done"]
		mi += v["mig_in"]; mo += v["mig_out"]
	}
	END {
		if (mi != mo) { print "FAIL: migrated in " mi " != migrated out " mo; bad = 1 }
		if (q != iv + p) { print "FAIL: total queued " q " != invoked " iv " + pending " p; bad = 1 }
		if (!bad) print "ok: invariant holds: queued " q " = invoked " iv " + pending " p
		exit bad
	}' /sys/kernel/debug/rcu/rcudata
}

# task_ran COMM: a task named COMM exists and has had the CPU for at
# least one clock tick (utime + stime in /proc/PID/stat), so it is past
# its first instructions: a hold thread is holding.  Shell builtins only
# (no fork): safe while a CPU spins with interrupts off.  Sets TASK_PID.
task_ran() {
	for _p in /proc/[0-9]*; do
		read -r _c < "$_p/comm" 2> /dev/null || continue
		[ "$_c" = "$1" ] || continue
		read -r _s < "$_p/stat" 2> /dev/null || continue
		# shellcheck disable=SC2086
		set -- ${_s#*) }	# from field 3 (state): utime is 12th, stime 13th
		# shellcheck disable=SC2034 # for the caller
		TASK_PID=${_p#/proc/}
		[ $(( ${12} + ${13} )) -gt 0 ]
		return
	done
	return 1
}

# uptime_s: seconds since boot with two decimals into UPTIME, and in
# hundredths into UPTIME_CS (shell builtins only).
uptime_s() {
	read -r UPTIME _ < /proc/uptime
	# shellcheck disable=SC2034 # for the caller
	UPTIME_CS=$(( ${UPTIME%.*} * 100 + 1${UPTIME#*.} - 100 ))
}
