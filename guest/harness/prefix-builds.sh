#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Build every prefix of the series (bisectability): onto a worktree of
# the pristine tree, apply patches/ one at a time with git am and build
# the guest kernel after each, the poll configuration once the series
# has CONFIG_RCU_POLL, the tree one before.  Options of the fragments
# that only later patches add are reported, not fatal; compiler warnings
# in kernel/rcu are (build-kernel.sh).  One TAP line per prefix, then
# "N passed, N failed".  FROM=K starts at patch K (the earlier ones are
# applied unbuilt).  Long: an incremental build per patch, some of them
# (Kconfig, widely included headers) rebuild most of the kernel.  QUICK=1
# compiles only the objects the series touches (TARGETS of
# build-kernel.sh: kernel/rcu/, kernel/fork.o, kernel/sched/core.o,
# kernel/sysctl.o), with no link: minutes instead of hours.
#
# Usage: prefix-builds.sh   (KSRC, BUILD from the environment)
set -uo pipefail

TOP=$(cd "$(dirname "$0")/../.." && pwd)
: "${KSRC:?}"
BUILD=${BUILD:-$TOP/build}
WT=$BUILD/prefix-src
OUT=$BUILD/prefix-builds
FROM=${FROM:-1}
mkdir -p "$OUT"

"$TOP/guest/harness/tree.sh" check "$WT" > /dev/null || { echo "prefix-builds: no pristine worktree" >&2; exit 1; }
# check leaves the whole series applied: start again from pristine.
git -C "$WT" checkout -q --detach "$(git -C "$KSRC" rev-parse pristine)"

mapfile -t patches < <(grep -v -e '^#' -e '^[[:space:]]*$' "$TOP/patches/series")
n=0 passed=0 failed=0
for p in "${patches[@]}"; do
	n=$((n + 1))
	git -C "$WT" -c user.name=check -c user.email=check@localhost am -q "$TOP/patches/$p" ||
		{ echo "not ok $n $p # does not apply"; failed=$((failed + 1)); break; }
	[ "$n" -ge "$FROM" ] || continue
	variant=tree
	grep -q '^config RCU_POLL$' "$WT/kernel/rcu/Kconfig" && variant=poll
	log=$OUT/$(printf %04d "$n")-$variant.log
	start=$(date +%s)
	targets=
	[ "${QUICK:-0}" = 1 ] && targets="kernel/rcu/ kernel/fork.o kernel/sched/core.o kernel/sysctl.o"
	if TARGETS=$targets KSRC=$WT OBJ=$BUILD/obj-prefix-$variant VARIANT=$variant ALLOW_MISSING=1 LOG=$log \
		"$TOP/guest/harness/build-kernel.sh" > "$log.out" 2>&1; then
		passed=$((passed + 1))
		echo "ok $n $p ($variant, $(( $(date +%s) - start ))s)"
	else
		failed=$((failed + 1))
		echo "not ok $n $p ($variant) # $(grep -m 1 -E 'error:|warning:|failed' "$log.out" "$log" | head -n 1)"
	fi
done
echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
