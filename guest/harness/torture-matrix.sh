#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The scenario matrix, after upstream's rcutorture kvm.sh: every file
# guest/configs/scenarios/NAME.config is a kernel configuration fragment
# (merged over common.config and poll.config) plus "#@" lines read here:
#
#   #@ smp N          start a boot group: N vCPUs
#   #@ boot ARGS      kernel arguments; several lines: one boot each
#   #@ test T ARGS    a guest test of the group (guest/tests/T.sh)
#   #@ include F      also merge guest/configs/F
#
# Each scenario builds one kernel in build/obj-NAME (one build at a
# time, all from the one patched tree), boots every group and boot line,
# prints one TAP line per scenario x test and the console verdict, then
# "N passed, N failed".  A table goes to $OUT/torture-matrix.md.
#
# Environment: TOP KSRC OUT; SMOKE=1 shortens every torture run to
# SMOKE_SECS (10 s) and skips locktorture; ONLY=regex picks scenarios.
# Usage: torture-matrix.sh [NAME...]
set -uo pipefail
: "${TOP:?}" "${KSRC:?}" "${OUT:?}"
H=$TOP/guest/harness
SCEN=$TOP/guest/configs/scenarios
BUILD=${BUILD:-$TOP/build}
mkdir -p "$OUT"
n=0 passed=0 failed=0
table=$OUT/torture-matrix.md
: > "$OUT/rows"

tap() {
	n=$((n + 1))
	if [ "$1" = OK ]; then
		passed=$((passed + 1)); echo "ok $n $2"
	else
		failed=$((failed + 1)); echo "not ok $n $2${3:+ # $3}"
	fi
}

# directives NAME: the "#@" lines of a scenario, without the marker
directives() { sed -n 's/^#@ *//p' "$SCEN/$1.config"; }

# KCSAN reports that name kernel/rcu/poll*.c: resolve each report's
# "in A / B" functions with faddr2line against the scenario's vmlinux.
kcsan_ours() {
	local log=$1 vmlinux=$2 f
	grep -a -o 'BUG: KCSAN: [a-z-]* in [^ ]* / [^ ]*\|BUG: KCSAN: [a-z-]* in [^ ]*$' "$log" |
		sed 's/.* in //; s| / |\n|' | sort -u | while read -r f; do
		[ -n "$f" ] || continue
		if "$KSRC/scripts/faddr2line" "$vmlinux" "$f" 2>/dev/null | grep -q 'kernel/rcu/poll'; then
			echo "$f"
		fi
	done
}

# figures of the last rcutorture run in a test log: Reader Pipe, onoff
torture_figures() {
	local log=$1 pipe onoff
	pipe=$(grep -a 'Reader Pipe:' "$log" | tail -n 1 | sed 's/.*Reader Pipe: *//' | awk '{print $1, $2, $3}')
	onoff=$(grep -a -o 'onoff: [0-9/:]*' "$log" | tail -n 1 | sed 's/onoff: //')
	echo "${pipe:--} | ${onoff:--}"
}

# boot_group NAME LABEL SMP ARGS TESTS...: one boot, one TAP line per test
boot_group() {
	local name=$1 label=$2 smp=$3 args=$4
	shift 4
	local share=$OUT/$label obj=$BUILD/obj-$name start rc=0 i=0 t line secs
	rm -rf "$share"
	mkdir -p "$share"
	printf '%s\n' "$@" > "$share/plan"
	start=$(date +%s)
	secs=$(awk '{ if ($1 ~ /torture$/) s += $2 + 30; else s += 60 } END { print s + 120 }' "$share/plan")
	echo "# boot $label: $smp vCPUs, '${args}', ${#} tests, timeout ${secs}s"
	"$H/qemu.sh" -k "$obj/arch/x86/boot/bzImage" -r "$BUILD/initramfs-$name.cpio" -s "$share" \
		-l "$share/console.log" -c "$smp" -t "$secs" -a "$args" || rc=$?
	echo "#   exited ($rc) after $(( $(date +%s) - start ))s"
	for t in "$@"; do
		i=$((i + 1))
		line=$(grep -E "^(not )?ok $i " "$share/results" 2>/dev/null | head -n 1)
		case "$line" in
		"ok $i "*) tap OK "$label/${line#ok $i }" ;;
		"not ok $i "*) line=${line#not ok $i }; tap FAIL "$label/${line%% # *}" "${line#* # }" ;;
		*) tap FAIL "$label/${t%% *}" "no result (guest died or timed out)" ;;
		esac
		case "$t" in
		rcutorture*|locktorture*)
			local log res
			log=$(ls "$share"/logs/"$i"-*.log 2>/dev/null | head -n 1)
			res=$([ "${line#ok }" != "$line" ] && echo pass || echo FAIL)
			case "$line" in "ok "*) res=pass ;; *) res=FAIL ;; esac
			echo "| $label | $smp | ${t#* } | $res | $(torture_figures "${log:-/dev/null}") |" >> "$OUT/rows"
			;;
		esac
	done
	# The console: any splat fails the boot; under KCSAN, only reports
	# in rcu_poll's files do (the others are listed).
	local allow="" ours
	if grep -q '^CONFIG_KCSAN=y' "$obj/.config"; then
		grep -a 'BUG: KCSAN:' "$share/console.log" | sort | uniq -c > "$share/kcsan.txt"
		ours=$(kcsan_ours "$share/console.log" "$obj/vmlinux")
		[ -s "$share/kcsan.txt" ] && { echo "#   KCSAN reports outside rcu_poll:"; sed 's/^/#     /' "$share/kcsan.txt"; }
		if [ -n "$ours" ]; then
			tap FAIL "$label: no KCSAN report in kernel/rcu/poll*.c" "$(echo "$ours" | tr '\n' ' ')"
		else
			tap OK "$label: no KCSAN report in kernel/rcu/poll*.c"
		fi
		allow='KCSAN|read to|write to|value changed|Reported by Kernel Concurrency Sanitizer|^\[ *[0-9.]*\] *(=|\|)'
	fi
	if [ "$rc" = 124 ]; then
		tap FAIL "$label: console clean" "guest hung"
	elif "$H/scan-console.sh" "$share/console.log" "$allow" > "$share/scan.log"; then
		tap OK "$label: console clean"
	else
		tap FAIL "$label: console clean" "see $share/console.log"
		head -n 20 "$share/scan.log" | sed 's/^/    /'
	fi
}

# smoke TEST: a shortened test line for SMOKE=1 (or nothing to skip it)
smoke() {
	local t=$1
	[ "${SMOKE:-0}" = 1 ] || { echo "$t"; return; }
	case "$t" in
	locktorture*) ;;
	rcutorture\ *) set -- $t; shift 2; echo "rcutorture ${SMOKE_SECS:-10} $*" ;;
	*) echo "$t" ;;
	esac
}

scenario() {
	local name=$1 frags="$SCEN/$1.config" d start
	[ -f "$frags" ] || { tap FAIL "$name" "no scenario $SCEN/$name.config"; return; }
	for d in $(directives "$name" | sed -n 's/^include //p'); do
		frags="$frags $TOP/guest/configs/$d"
	done
	start=$(date +%s)
	echo "  KERNEL   scenario $name (log: $BUILD/log/kernel-$name.log)"
	if ! KSRC=$KSRC OBJ=$BUILD/obj-$name VARIANT=poll EXTRA_FRAGS="$frags" \
		LOG=$BUILD/log/kernel-$name.log "$H/build-kernel.sh"; then
		tap FAIL "$name: build" "see $BUILD/log/kernel-$name.log"
		return
	fi
	"$H/mkinitramfs.sh" "$BUILD/initramfs-$name.cpio" "$BUILD/obj-$name/modroot" \
		"$BUILD/userspace" > /dev/null || { tap FAIL "$name: initramfs"; return; }
	# Groups: each "smp" line starts one; "boot" lines multiply it.
	local smp="" boots=() tests=() g=0 line
	flush() {
		[ -n "$smp" ] || return 0
		g=$((g + 1))
		[ ${#boots[@]} -gt 0 ] || boots=("")
		local b k=0
		for b in "${boots[@]}"; do
			k=$((k + 1))
			local label=$name
			[ "$g" -gt 1 ] || [ ${#boots[@]} -gt 1 ] && label=$name-$g$([ ${#boots[@]} -gt 1 ] && echo ".$k")
			boot_group "$name" "$label" "$smp" "$b" "${tests[@]}"
		done
	}
	while read -r line; do
		case "$line" in
		"smp "*) flush; smp=${line#smp }; boots=(); tests=() ;;
		"boot "*) boots+=("${line#boot }") ;;
		"test "*) t=$(smoke "${line#test }"); [ -n "$t" ] && tests+=("$t") ;;
		esac
	done < <(directives "$name")
	flush
	echo "#   scenario $name took $(( $(date +%s) - start ))s"
}

if [ $# -gt 0 ]; then
	names=("$@")
else
	mapfile -t names < <(cd "$SCEN" && ls -1 POLL*.config | sed 's/\.config$//')
fi
matrix_start=$(date +%s)
for s in "${names[@]}"; do
	[ -z "${ONLY:-}" ] || [[ $s =~ $ONLY ]] || continue
	scenario "$s"
done
{
	echo "| boot | vCPUs | torture parameters | result | Reader Pipe (first 3 columns) | onoff |"
	echo "|---|---|---|---|---|---|"
	cat "$OUT/rows"
	echo
	echo "$passed passed, $failed failed in $(( ($(date +%s) - matrix_start) / 60 )) min"
} > "$table"
echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
