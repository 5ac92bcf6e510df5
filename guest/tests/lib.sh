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
		set -- ${_s##*) }	# from field 3 (state): utime is 12th, stime 13th
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

# --- the harness's side: a known state before and after every test -----
#
# run-guest-tests calls guest_state_save once at boot, and
# guest_state_reset before and after every test, whatever the test did
# and whether it passed.  The reset prints one "reset: ..." line for
# each thing it had to put back, and returns 1 (after a "reset: FAILED:"
# line) if something would not go back: a module that will not unload,
# a CPU that will not come online, a tracing instance still busy.

STATE_DIR=/var/tmp/rcu_poll-state
T_=/sys/kernel/tracing

# buffer_kb: the per-CPU ring buffer size in KB; before the first use the
# file reads "7 (expanded: 1408)", and 1408 is what tracing will ask for.
buffer_kb() {
	read -r _b < $T_/buffer_size_kb
	case "$_b" in
	*expanded:*) _b=${_b#*expanded: }; echo "${_b%)}" ;;
	*) echo "${_b%% *}" ;;
	esac
}

# trace_clock_now: the selected trace clock ("[local] global ..." -> local).
trace_clock_now() {
	read -r _b < $T_/trace_clock
	_b=${_b#*[}
	echo "${_b%%]*}"
}

# The parameters the reset restores: rcu_poll's and rcupdate's stall ones,
# RT throttling (starved.sh and stall.sh starved turn it off) and the
# unbound workqueues' CPUs (stall.sh starved confines them).
state_params() {
	ls /sys/module/rcu_poll/parameters/* /sys/module/rcupdate/parameters/*stall* \
		/proc/sys/kernel/sched_rt_runtime_us /sys/devices/virtual/workqueue/cpumask 2> /dev/null
}

guest_state_save() {
	mkdir -p $STATE_DIR
	# Expand the ring buffer to the size it would get at first use: it
	# reads back rounded to whole pages (1408 -> 1410), the value to keep.
	case "$(cat $T_/buffer_size_kb)" in
	*expanded:*) buffer_kb > $T_/buffer_size_kb ;;
	esac
	cut -d' ' -f1 /proc/modules > $STATE_DIR/modules
	for _f in $(state_params); do
		echo "$_f $(cat "$_f")"
	done > $STATE_DIR/params
	{
		echo "tracing_on $(cat $T_/tracing_on)"
		echo "current_tracer $(cat $T_/current_tracer)"
		echo "trace_clock $(trace_clock_now)"
		echo "buffer_size_kb $(buffer_kb)"
	} > $STATE_DIR/tracing
}

# reset_put FILE VALUE WHAT: write VALUE, or say it would not go back.
reset_put() {
	if ! printf '%s\n' "$2" > "$1" 2> /dev/null; then
		echo "reset: FAILED: $3: cannot write '$2' to $1"
		_rbad=1
	fi
}

guest_state_reset() {
	_rbad=0
	[ -f $STATE_DIR/tracing ] || { echo "reset: FAILED: no state saved at boot"; return 1; }

	# 1. Processes a test left behind (started with &, or orphaned by
	#    the timeout): every user process but init, the harness
	#    (RESET_KEEP_PIDS) and this shell.
	_keep=" 1 $$ $PPID ${RESET_KEEP_PIDS:-} "
	_killed=""
	for _p in /proc/[0-9]*; do
		_p=${_p#/proc/}
		case "$_keep" in *" $_p "*) continue ;; esac
		[ -e "/proc/$_p/exe" ] || continue	# kernel thread (or gone)
		read -r _c < "/proc/$_p/comm" 2> /dev/null || continue
		# busybox timeout's watcher: it ends with what it watches.
		[ "$_c" = timeout ] && continue
		kill -9 "$_p" 2> /dev/null || continue
		_killed="$_killed $_p"
		echo "reset: killed process $_p ($_c) left behind"
	done
	for _p in $_killed; do
		_i=0
		while [ -e "/proc/$_p/exe" ] && [ $_i -lt 50 ]; do
			sleep 0.1
			_i=$((_i + 1))
		done
	done

	# 2. Every CPU online.
	for _f in /sys/devices/system/cpu/cpu[0-9]*/online; do
		[ -f "$_f" ] || continue
		[ "$(cat "$_f")" = 1 ] && continue
		_c=${_f%/online}
		reset_put "$_f" 1 "${_c##*/} online" && echo "reset: ${_c##*/} back online"
	done

	# 3. Modules loaded since boot (test_rcu_poll, rcutorture and torture,
	#    rcuscale, refscale, locktorture, ...), in dependency order.  A
	#    module whose threads still run (a test_rcu_poll hold of up to
	#    60 s) is busy until they end: retry for 90 s.
	_t=0
	while :; do
		_left=""
		# shellcheck disable=SC2013 # module names have no spaces
		for _m in $(cut -d' ' -f1 /proc/modules); do
			grep -qx "$_m" $STATE_DIR/modules && continue
			if _err=$(rmmod "$_m" 2>&1); then
				echo "reset: unloaded module $_m"
			else
				_left="$_left $_m"
				_why=$_err
			fi
		done
		[ -z "$_left" ] && break
		[ $_t -lt 90 ] || break
		[ $_t = 0 ] && echo "reset: waiting for module(s)$_left to unload: $_why"
		sleep 1
		_t=$((_t + 1))
	done
	if [ -n "$_left" ]; then
		echo "reset: FAILED: module(s)$_left will not unload: $_why"
		_rbad=1
	fi

	# 4. Tracing back to its boot defaults.
	while read -r _k _v; do
		case $_k in
		tracing_on) _boot_on=$_v ;;
		current_tracer) _boot_tracer=$_v ;;
		trace_clock) _boot_clock=$_v ;;
		buffer_size_kb) _boot_kb=$_v ;;
		esac
	done < $STATE_DIR/tracing
	_on=$(cat $T_/tracing_on)
	printf '0\n' > $T_/tracing_on
	[ "$(cat $T_/current_tracer)" = "$_boot_tracer" ] || {
		echo "reset: current_tracer $(cat $T_/current_tracer) -> $_boot_tracer"
		reset_put $T_/current_tracer "$_boot_tracer" current_tracer
	}
	if grep -q -v -x 0 $T_/events/enable; then
		echo "reset: events disabled (events/enable was $(cat $T_/events/enable))"
		reset_put $T_/events/enable 0 "events off"
	fi
	# Unset: "none" (and comment lines in a subsystem's filter file).
	grep -l -v -E '^(none|#.*)$' $T_/events/*/filter $T_/events/*/*/filter > $STATE_DIR/now 2> /dev/null
	while read -r _f; do
		echo "reset: filter cleared: ${_f#"$T_"/events/} ($(head -n 1 "$_f"))"
		reset_put "$_f" 0 "filter ${_f#"$T_"/events/}"
	done < $STATE_DIR/now
	# "traceoff:unlimited if cpu == 0" goes with "!traceoff".
	grep -H -v '^#' $T_/events/*/*/trigger > $STATE_DIR/now 2> /dev/null
	while IFS= read -r _l; do
		_f=${_l%%:*}
		_t=${_l#*:}
		_t=${_t%% if *}
		_t=${_t%:unlimited}
		_t=$(echo "$_t" | sed 's/:[0-9]*$//')
		echo "reset: trigger removed: ${_f#"$T_"/events/}: $_t"
		reset_put "$_f" "!$_t" "trigger ${_f#"$T_"/events/}"
	done < $STATE_DIR/now
	for _d in "$T_"/instances/*; do
		[ -d "$_d" ] || continue
		if rmdir "$_d" 2> /dev/null; then
			echo "reset: tracing instance ${_d##*/} removed"
		else
			echo "reset: FAILED: tracing instance ${_d##*/} will not go (busy)"
			_rbad=1
		fi
	done
	[ "$(trace_clock_now)" = "$_boot_clock" ] || {
		echo "reset: trace_clock $(trace_clock_now) -> $_boot_clock"
		reset_put $T_/trace_clock "$_boot_clock" trace_clock
	}
	[ "$(buffer_kb)" = "$_boot_kb" ] || {
		echo "reset: buffer_size_kb $(buffer_kb) -> $_boot_kb"
		reset_put $T_/buffer_size_kb "$_boot_kb" buffer_size_kb
	}
	: > $T_/trace
	[ "$_on" = "$_boot_on" ] ||
		echo "reset: tracing_on $_on -> $_boot_on"
	reset_put $T_/tracing_on "$_boot_on" tracing_on

	# 5. rcu_poll's parameters and rcupdate's stall parameters.
	while read -r _f _v; do
		_c=$(cat "$_f" 2> /dev/null)
		[ "$_c" = "$_v" ] && continue
		echo "reset: ${_f#/sys/module/} $_c -> $_v"
		reset_put "$_f" "$_v" "${_f#/sys/module/}"
	done < $STATE_DIR/params

	# 6. rcu_poll's statistics, and the scratch space.
	[ -e /sys/kernel/debug/rcu/reset ] && reset_put /sys/kernel/debug/rcu/reset 1 "debug/rcu/reset"
	rm -rf /tmp/* /tmp/.[!.]* 2> /dev/null
	echo "reset: done (trace buffer, /tmp$([ -e /sys/kernel/debug/rcu/reset ] && echo ', debug/rcu/reset') cleared)"
	return $_rbad
}

# selftest_point: the harness's isolation self-test (kernel command line
# rcupoll_selftest=fail:NAME makes run-guest-tests set
# RCUPOLL_SELFTEST_FAIL for test NAME) fails the test here, on purpose,
# after leaving behind one of everything the reset must undo.  A test
# calls it once, mid-way: after it loaded modules and changed tracing.
selftest_point() {
	[ -n "${RCUPOLL_SELFTEST_FAIL:-}" ] || return 0
	echo "selftest: leaving a mess and failing on purpose"
	modprobe torture
	for _f in /sys/module/rcu_poll/parameters/blimit:3 /sys/module/rcu_poll/parameters/qhimark:12345 \
		  /sys/module/rcu_poll/parameters/pending_max:7 \
		  /sys/module/rcupdate/parameters/rcu_cpu_stall_suppress:1 \
		  /sys/module/rcupdate/parameters/rcu_cpu_stall_timeout:42; do
		[ -e "${_f%:*}" ] && echo "${_f##*:}" > "${_f%:*}"
	done
	echo 'common_pid != 0' > $T_/events/rcu_poll/rcu_poll_qs/filter 2> /dev/null
	echo 'traceoff' > $T_/events/sched/sched_switch/trigger 2> /dev/null
	mkdir $T_/instances/selftest 2> /dev/null
	echo 1 > $T_/events/sched/sched_switch/enable
	echo 64 > $T_/buffer_size_kb
	echo counter > $T_/trace_clock
	echo 0 > $T_/tracing_on
	echo 0 > /sys/devices/system/cpu/cpu1/online
	sleep 3600 &
	fail "selftest: failing on purpose after leaving a mess"
}
