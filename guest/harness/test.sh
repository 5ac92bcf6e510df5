#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The test driver behind "make test": host tests, then guest boots, one TAP
# line per test, then the closing line "N passed, N failed".  Exit 1 on any
# failure.  Everything a test prints goes to $OUT/<test>.log; a failure
# prints the log's path and its telling lines.
#
# Environment (set by the Makefile): TOP, KSRC, OUT, and per variant
# KERNEL_<variant>, INITRD_<variant>.  ONLY=regex runs the matching tests.
# REPEAT=N boots the guest suites N times (host tests once; guest output
# in $OUT/passK/), then prints how many of N passes each test passed, a
# table also written to $OUT/repeat.md.
set -uo pipefail

: "${TOP:?}" "${KSRC:?}" "${OUT:?}"
REPEAT=${REPEAT:-1}
[[ $REPEAT =~ ^[1-9][0-9]*$ ]] || { echo "test.sh: REPEAT=$REPEAT is not a positive number" >&2; exit 2; }
mkdir -p "$OUT"
RESULTS=$OUT/results.tap
: > "$RESULTS"
n=0 passed=0 failed=0
# Per test name: how many times it ran and passed (REPEAT's table).
declare -A runs=() oks=()
order=()
# Where a boot's files go under $OUT: "" for one pass, "passK/" for pass K.
PASS_DIR=""

selected() { [ -z "${ONLY:-}" ] || [[ $1 =~ $ONLY ]]; }

# tap OK|FAIL NAME [REASON]
tap() {
	n=$((n + 1))
	[ -n "${runs[$2]:-}" ] || order+=("$2")
	runs[$2]=$(( ${runs[$2]:-0} + 1 ))
	[ "$1" = OK ] && oks[$2]=$(( ${oks[$2]:-0} + 1 ))
	if [ "$1" = OK ]; then
		passed=$((passed + 1))
		echo "ok $n $2" | tee -a "$RESULTS"
	else
		failed=$((failed + 1))
		echo "not ok $n $2${3:+ # $3}" | tee -a "$RESULTS"
	fi
}

# host_test NAME COMMAND...: run on the host, output to $OUT/NAME.log
host_test() {
	local name=$1 log=$OUT/$1.log
	shift
	selected "$name" || return 0
	if "$@" > "$log" 2>&1; then
		tap OK "$name"
	else
		tap FAIL "$name" "$(grep -m1 '^FAIL' "$log" || echo "see $log")"
		echo "    log: $log"
		tail -n 12 "$log" | sed 's/^/    | /'
	fi
}

# boot NAME VARIANT SMP "KERNEL ARGS" "ALLOW_ERE" TIMEOUT TEST...
# One guest boot running the given guest tests ("name args" strings).
# Reports each guest test, then "NAME: console clean".  Returns 1 if any
# failed.
boot() {
	local name=$1 variant=$2 smp=$3 append=$4 allow=$5 timeout=$6
	shift 6
	local t want=() any=0
	for t in "$@"; do
		selected "$name/${t%% *}" && want+=("$t")
	done
	[ ${#want[@]} -gt 0 ] || selected "$name" || return 0
	local kvar=KERNEL_$variant ivar=INITRD_$variant
	local kernel=${!kvar:-} initrd=${!ivar:-}
	[ -f "$kernel" ] && [ -f "$initrd" ] || {
		tap FAIL "$name: boot" "kernel or initramfs for variant '$variant' not built"
		return 1
	}
	local share=$OUT/$PASS_DIR$name
	rm -rf "$share"
	mkdir -p "$share"
	printf '%s\n' "${want[@]}" > "$share/plan"
	echo "# boot $name: $variant kernel, $smp vCPUs, ${#want[@]} guest test(s)"
	local start rc=0
	start=$(date +%s)
	"$TOP/guest/harness/qemu.sh" -k "$kernel" -r "$initrd" -s "$share" -l "$share/console.log" \
		-c "$smp" -t "$timeout" -a "$append" || rc=$?
	echo "#   guest exited ($rc) after $(( $(date +%s) - start ))s; console: $share/console.log"
	local i=0 line
	for t in "${want[@]}"; do
		i=$((i + 1))
		line=$(grep -E "^(not )?ok $i " "$share/results" 2>/dev/null | head -n 1)
		case "$line" in
		"ok $i "*) tap OK "$name/${line#ok $i }" ;;
		"not ok $i "*)
			line=${line#not ok $i }
			tap FAIL "$name/${line%% # *}" "${line#* # }"
			echo "    log: $(ls "$share"/logs/"$i"-*.log 2>/dev/null)"
			any=1 ;;
		*) tap FAIL "$name/${t%% *}" "no result (guest died or timed out)"; any=1 ;;
		esac
	done
	if [ "$rc" = 124 ]; then
		tap FAIL "$name: console clean" "guest hung: killed after ${timeout}s"
		tail -n 15 "$share/console.log" | sed 's/^/    | /'
		return 1
	fi
	if "$TOP/guest/harness/scan-console.sh" "$share/console.log" "$allow" > "$share/scan.log"; then
		tap OK "$name: console clean"
	else
		tap FAIL "$name: console clean" "kernel complained, see $share/console.log"
		sed 's/^/  /' "$share/scan.log" | head -n 40
		any=1
	fi
	return $any
}

# --- host tests ----------------------------------------------------------

# The series applies with git am to the pristine tree, and every patch is
# checkpatch --strict clean.
t_series_applies() {
	local n
	n=$(KSRC=$KSRC "$TOP/guest/harness/tree.sh" check "$OUT/am-check" | tail -n 1) || return 1
	echo "applied $n patch(es) with git am onto pristine linux-source-6.1"
}
# kernel/rcu built as distribution kernels are (POLL05: NR_CPUS=8192,
# cpumasks off the stack, so a struct cpumask is 1 KiB; the 64-bit
# default 2048-byte frame limit): no compiler warning there, none of
# -Wframe-larger-than in particular.  Booting it is the matrix's part.
t_frame_maxsmp() {
	local b=${BUILD:-$TOP/build}
	KSRC=$KSRC OBJ=$b/obj-POLL05 VARIANT=poll TARGETS=kernel/rcu/ \
		EXTRA_FRAGS="$TOP/guest/configs/scenarios/POLL05.config" \
		LOG=$b/log/kernel-POLL05-rcu.log "$TOP/guest/harness/build-kernel.sh" || {
		echo "FAIL: kernel/rcu with NR_CPUS=8192: $(grep -m 1 -o 'warning: .*' "$b/log/kernel-POLL05-rcu.log" || echo 'build failed')"
		return 1
	}
}
t_checkpatch() {
	local p bad=0 count=0
	for p in $(grep -v -e '^#' -e '^$' "$TOP/patches/series" 2>/dev/null); do
		count=$((count + 1))
		# Debian's python3 (with python3-ply) for the SPDX check, not a
		# pyenv shim that may lack it.
		if ! (cd "$KSRC" && PATH=/usr/bin:$PATH ./scripts/checkpatch.pl --strict -q "$TOP/patches/$p"); then
			echo "FAIL: checkpatch --strict: $p"
			bad=1
		fi
	done
	echo "$count patch(es) checked"
	# The out-of-tree modules are kernel code too.
	for p in "$TOP"/guest/modules/*.c; do
		if ! (cd "$KSRC" && PATH=/usr/bin:$PATH ./scripts/checkpatch.pl --strict -q --no-tree -f "$p"); then
			echo "FAIL: checkpatch --strict: guest/modules/$(basename "$p")"
			bad=1
		fi
	done
	return $bad
}

# The harness itself: a guest that panics, or hangs, must fail a boot.
t_harness_panic() {
	(RESULTS=/dev/null ONLY='' && boot selftest-panic "$1" 1 "rcupoll_selftest=panic" "" 60 "cpus 1") && {
		echo "FAIL: a panicking guest was not detected"; return 1; }
	grep -q 'Kernel panic' "$OUT/selftest-panic/console.log" || {
		echo "FAIL: console has no panic message"; return 1; }
	echo "panicking guest detected"
}
t_harness_hang() {
	(RESULTS=/dev/null ONLY='' && boot selftest-hang "$1" 1 "rcupoll_selftest=hang" "" 20 "cpus 1") && {
		echo "FAIL: a hanging guest was not detected"; return 1; }
	grep -q 'killed' "$OUT/selftest-hang/console.log" || {
		echo "FAIL: hung guest was not killed by the timeout"; return 1; }
	echo "hanging guest detected and killed"
}

# kernel.panic_on_rcu_stall: set, the first stall warning panics the
# guest.  The boot must fail (the guest dies mid-test) with the stall
# warning, then the panic, on its console.
t_panic_on_stall() {
	local con=$OUT/panic-on-stall/console.log
	(RESULTS=/dev/null ONLY='' PASS_DIR='' &&
		boot panic-on-stall "$1" 2 "" "" 120 "contracts panic-stall") && {
		echo "FAIL: the guest survived a stall with panic_on_rcu_stall=1"; return 1; }
	grep -E 'rcu_poll: INFO: rcu_poll stall|Kernel panic' "$con"
	grep -q 'rcu_poll: INFO: rcu_poll stall: batch [0-9]* of CPU [0-9]* waited [0-9]* ms for CPUs 1 ' "$con" ||
		{ echo "FAIL: no stall warning naming CPU 1 before the panic"; return 1; }
	grep -q 'Kernel panic - not syncing: RCU Stall' "$con" ||
		{ echo "FAIL: no 'Kernel panic - not syncing: RCU Stall'"; return 1; }
	awk '/rcu_poll: INFO: rcu_poll stall/ { w = NR } /Kernel panic - not syncing: RCU Stall/ { p = NR } END { exit !(w && p > w) }' "$con" ||
		{ echo "FAIL: the panic did not follow the warning"; return 1; }
	echo "panic_on_rcu_stall=1: the stall warning, then the panic"
}

# Isolation: the named test fails on purpose mid-way, leaving modules
# loaded, tracing and parameters changed, CPU 1 offline and a process
# behind (selftest_point in lib.sh); every other test of the suite must
# pass as usual, and the reset after the failed test must say it put
# each of those back.  ISOLATION_NORESET=1 boots without the resets, to
# see this test fail.
t_harness_isolation() {
	local variant=$1 share=$OUT/selftest-isolation i=0 t want got bad=0 sel=fail:events
	[ -n "${ISOLATION_NORESET:-}" ] && sel=$sel,noreset
	(RESULTS=/dev/null ONLY='' PASS_DIR='' &&
		boot selftest-isolation "$variant" 2 "rcupoll_selftest=$sel" "" 900 "${POLL_DIAG[@]}") \
		> "$OUT/selftest-isolation.boot" 2>&1
	cat "$OUT/selftest-isolation.boot"
	for t in "${POLL_DIAG[@]}"; do
		i=$((i + 1))
		want=ok
		[ "${t%% *}" = events ] && want="not ok"
		got=$(grep -E "^(not )?ok $i " "$share/results" 2>/dev/null | head -n 1)
		case "$got" in
		"$want $i "*) echo "as it should: $got" ;;
		*) echo "FAIL: test $i ($t): want '$want', got '${got:-no result}'"; bad=1 ;;
		esac
	done
	grep -q '^not ok 1 events # FAIL: selftest: failing on purpose' "$share/results" 2>/dev/null ||
		{ echo "FAIL: events did not fail at its selftest point"; bad=1; }
	grep -q '^ok [0-9]* selftest-isolation: console clean$' "$OUT/selftest-isolation.boot" ||
		{ echo "FAIL: the console of the isolation boot is not clean"; bad=1; }
	local log pat
	log=$(ls "$share"/logs/1-*.log 2>/dev/null)
	for pat in 'killed process [0-9]* (sleep)' 'cpu1 back online' 'unloaded module torture' \
		'unloaded module test_rcu_poll' 'events disabled' 'filter cleared: rcu_poll/rcu_poll_qs/filter' \
		'trigger removed: sched/sched_switch/trigger: traceoff' 'tracing instance selftest removed' \
		'trace_clock counter -> ' 'buffer_size_kb 6[4-9] -> ' 'tracing_on 0 -> 1' \
		'rcu_poll/parameters/blimit 3 -> ' 'rcu_poll/parameters/qhimark 12345 -> ' \
		'rcu_poll/parameters/pending_max 7 -> ' 'rcupdate/parameters/rcu_cpu_stall_suppress 1 -> ' \
		'rcupdate/parameters/rcu_cpu_stall_timeout 42 -> '; do
		grep -q "^reset: $pat" "$log" 2>/dev/null ||
			{ echo "FAIL: the reset after the failed test does not say: $pat"; bad=1; }
	done
	[ "$bad" = 0 ] && echo "one test failed on purpose; the reset put everything back and the others passed"
	return $bad
}

# progress.sh prints a line every PROGRESS_INTERVAL seconds while a log
# grows (the kernel build, apt), with the count of matching lines, and
# stops with no process left behind.  A fake build writes the log here.
t_harness_progress() {
	local log=$OUT/progress-fake.log out=$OUT/progress-fake.out i pid
	: > "$log"
	(
		set -euo pipefail	# as in build-kernel.sh
		# shellcheck source=progress.sh
		. "$TOP/guest/harness/progress.sh"
		PROGRESS_INTERVAL=1 progress_start fake "$log"
		for i in $(seq 1 25); do
			echo "  CC      obj$i.o" >> "$log"
			[ $((i % 5)) = 0 ] && echo "  LD [M]  mod$i.ko" >> "$log"
			echo "warning: not counted" >> "$log"
			sleep 0.15
		done
		echo "$PROGRESS_PID" > "$out.pid"
		progress_stop
		echo "(stopped)" >> "$out.pid"
	) > "$out" 2>&1
	cat "$out"
	pid=$(head -n 1 "$out.pid")
	grep -q '^(stopped)$' "$out.pid" || { echo "FAIL: progress_stop ended the caller (set -e)"; return 1; }
	[ "$(grep -c -E '^  \.\.\.      fake: [0-9]+ objects compiled, [0-9]+m[0-9]{2}s$' "$out")" -ge 2 ] ||
		{ echo "FAIL: fewer than 2 progress lines in about 4 s at 1 s intervals"; return 1; }
	grep -v -q -E '^  \.\.\.      fake: ' "$out" && { echo "FAIL: unexpected output"; return 1; }
	awk '{ n = $3 + 0; if (n < last || n > 30) exit 1; last = n } END { exit !(last > 0) }' "$out" ||
		{ echo "FAIL: counts are not growing CC/LD lines (at most 30 here)"; return 1; }
	sleep 1.5
	[ -e "/proc/$pid" ] && { echo "FAIL: progress loop $pid still running after progress_stop"; return 1; }
	echo "progress lines every second, counts growing, loop gone after stop"
}

# Host tests of the userspace tools: t_kshark_loads, t_host_report,
# t_userspace_script (test-report, test-cli, test-kshark), t_guest_files.
# shellcheck source=../../userspace/tests/host-tests.sh
. "$TOP/userspace/tests/host-tests.sh"

# --- the suite -----------------------------------------------------------

TORTURE_HOTPLUG="onoff_interval=3000 onoff_holdoff=5"
TORTURE_FULL="$TORTURE_HOTPLUG n_barrier_cbs=4 fwd_progress=1 fwd_progress_holdoff=10 stat_interval=15"

# closing line and exit status; with REPEAT, first the table.
finish() {
	if [ "$REPEAT" -gt 1 ]; then
		local t
		{
			echo "# make test REPEAT=$REPEAT: passes per test"
			echo
			echo "| test | passed | runs |"
			echo "|---|---|---|"
			for t in "${order[@]}"; do
				echo "| $t | ${oks[$t]:-0} | ${runs[$t]} |"
			done
		} > "$OUT/repeat.md"
		echo "# passes per test over $REPEAT guest passes (also $OUT/repeat.md):"
		for t in "${order[@]}"; do
			printf '#   %3d/%-3d %s%s\n' "${oks[$t]:-0}" "${runs[$t]}" "$t" \
				"$([ "${oks[$t]:-0}" = "${runs[$t]}" ] || echo '   <-- flaky or broken')"
		done
	fi
	echo "$passed passed, $failed failed"
	[ "$failed" = 0 ]
	exit
}

# scenario_smoke NAME...: kernels of configurations the suite's own do
# not cover, from the scenario matrix (torture-matrix.sh, SMOKE=1:
# shortened torture runs), each of its lines reported here.  Build
# progress goes to the terminal.
scenario_smoke() {
	local log=$OUT/matrix-smoke.log line
	selected matrix || return 0
	OUT=$OUT/matrix SMOKE=1 "$TOP/guest/harness/torture-matrix.sh" "$@" 2>&1 | tee "$log" |
		grep --line-buffered -E '^(  [A-Z.]|# boot|#   scenario)'
	while read -r line; do
		case "$line" in
		"ok "*) line=${line#ok }; tap OK "matrix/${line#* }" ;;
		"not ok "*)
			line=${line#not ok }; line=${line#* }
			tap FAIL "matrix/${line%% # *}" "$([[ $line == *' # '* ]] && echo "${line#* # }")" ;;
		esac
	done < "$log"
}

# rcu_poll under lockdep (PROVE_RCU), rcu_head debug objects and KASAN.
# no5lvl: with 5-level paging (TCG's "max" CPU has LA57), an interrupt
# during identify_boot_cpu(), which clears the CPU's feature bits before
# alternatives are patched, makes KASAN compute its shadow bounds for
# 4-level paging and report a "wild-memory-access" on any per-CPU read
# (seen in lockdep's rcu_is_watching() check; not RCU's doing, Tree RCU
# reads the same counter).  pci=noacpi: under TCG, lockdep and KASAN make the ACPI interpreter so
# slow that evaluating _PRT for PCI interrupt routing hits AML loop
# timeouts and virtio gets no interrupt; the BIOS's PIRQ table works.
debug_boot() {
	boot debug-smp2 debug 2 "pci=noacpi no5lvl" "" 900 \
		"cpus 2" "rcutorture 60 torture_type=rcu $TORTURE_FULL" \
		"rcutorture 30 torture_type=rcu_poll_preempt $TORTURE_HOTPLUG stat_interval=15"
}

case "${SUITE:-all}" in
torture)
	secs=${TORTURE_SECS:-1800}
	boot "torture-smp${TORTURE_SMP:-4}" poll "${TORTURE_SMP:-4}" "" "" $((secs + 600)) \
		"cpus ${TORTURE_SMP:-4}" "rcutorture $secs torture_type=rcu ${TORTURE_FULL/stat_interval=15/stat_interval=60}"
	finish ;;
debug)
	debug_boot
	finish ;;
all) ;;
*) echo "test.sh: unknown SUITE '$SUITE' (all, debug, torture)" >&2; exit 2 ;;
esac

host_test series-applies t_series_applies
host_test frame-maxsmp t_frame_maxsmp
host_test checkpatch t_checkpatch
host_test static t_static
host_test report t_userspace_script test-report
host_test report-tree t_userspace_script test-tree
host_test cli t_userspace_script test-cli
host_test kshark-streams t_userspace_script test-kshark
host_test kshark-loads t_kshark_loads

# The observability boot's tests (also booted by the isolation self-test).
POLL_DIAG=("events 1000" "debugfs 500" "stall hold" "stall irqoff" "stall preempt" "stall starved" "stall torture"
	"inputs" "tool 300")

for pass in $(seq 1 "$REPEAT"); do
	if [ "$REPEAT" -gt 1 ]; then
		echo "# guest pass $pass of $REPEAT"
		PASS_DIR=pass$pass/
	fi
	# rcu_poll: the whole kernel runs on it, at 1, 2 and 4 vCPUs.
	boot poll-smp1 poll 1 "" "" 300 \
		"cpus 1" "rcutorture 15 torture_type=rcu"
	boot poll-smp2 poll 2 "" "" 900 \
		"cpus 2" \
		"fs rcu_utilization rcu_callback rcu_invoke_callback rcu_batch_start rcu_batch_end" \
		"tracecmd" \
		"rcutorture 60 torture_type=rcu $TORTURE_FULL gp_exp=1" \
		"rcutorture 30 torture_type=rcu_poll_preempt $TORTURE_HOTPLUG stat_interval=15" \
		"rcutorture 15 torture_type=tasks $TORTURE_HOTPLUG stat_interval=5" \
		"locktorture 15 torture_type=mutex_lock"
	[ "$pass" = 1 ] && host_test host-report-trace t_host_report "${PASS_DIR}poll-smp2" rcu_poll
	# Observability: trace events, debugfs files, stall warnings, with the
	# test_rcu_poll scenario module; stall tests mark their expected splats.
	boot poll-diag poll 2 "" "" 900 "${POLL_DIAG[@]}" "qs-events" "recorder" "flood 1000000 300" \
		"held" "held preempt" "held irqoff" "starved" "frozen"
	[ "$pass" = 1 ] && host_test guest-files t_guest_files "${PASS_DIR}poll-diag"
	# Contracts rcutorture does not check (guest/tests/contracts.sh),
	# trace events toggled under load.
	boot poll-contracts poll 4 "" "" 900 \
		"contracts preempt-user" "contracts poll-offline" "contracts softirq-qs" \
		"contracts irqoff-calls" "contracts stall-reset" "contracts cookies" \
		"contracts flood-bound" "contracts rekick" "contracts rekick-irqoff" "idle-call" "barrier-online" "trace-toggle 200"
	# A callback queued before rcu_init().
	boot poll-early poll 2 "rcu_poll.early_call_rcu" "" 300 \
		"cpus 2" "contracts early-call-rcu"
	boot poll-smp4 poll 4 "" "" 600 \
		"cpus 4" "rcutorture 30 torture_type=rcu $TORTURE_HOTPLUG n_barrier_cbs=4 gp_exp=1"

	# Tree RCU, the baseline, from the same patched tree; held: rcupoll
	# records and explains a grace period CPU 1 holds 3 s (rcu_scenario);
	# starved: one a SCHED_FIFO task holds by starving RCU_SOFTIRQ.
	boot tree-smp2 tree 2 "" "" 600 \
		"cpus 2" "rcutorture 30 torture_type=rcu $TORTURE_HOTPLUG n_barrier_cbs=4" "held" \
		"held preempt" "held irqoff" "starved"

	# make bench, smoke mode: one short run of every measurement on each RCU,
	# so the benchmark cannot rot (no assertions on speed).
	boot bench-poll poll 2 "" "" 300 "bench smoke"
	boot bench-tree tree 2 "" "" 300 "bench smoke"
done
PASS_DIR=""

# No kernel preemption, HZ=100, periodic tick: cond_resched() and the
# Tasks RCU contract of a kernel-mode tick (guest/configs/scenarios).
scenario_smoke POLL02

host_test panic-on-stall t_panic_on_stall poll
host_test harness-detects-panic t_harness_panic poll
host_test harness-detects-hang t_harness_hang poll
host_test harness-isolation t_harness_isolation poll
host_test harness-progress t_harness_progress

finish
