#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Static checkers nobody here wrote, on the RCU code of the patched tree:
# sparse (make C=2, every file of kernel/rcu/ checked whether rebuilt or
# not) and coccinelle (make coccicheck MODE=report M=kernel/rcu/, every
# semantic patch of scripts/coccinelle/).  rcu_poll's files (poll*.c,
# poll*.h, test_rcu_poll.c, include/linux/rcupoll.h) must get no report;
# what they say about upstream's files is listed, and held against us only
# where the tree build of the same sources does not say it too.
#
#   TOP=... KSRC=... OUT=... OBJ_POLL=... OBJ_TREE=... static.sh
# Prints one TAP line per check and "N passed, N failed"; exits 1 on any
# failure.  Installs sparse and coccinelle if missing (Debian packages).
set -uo pipefail
: "${TOP:?}" "${KSRC:?}" "${OUT:?}" "${OBJ_POLL:?}" "${OBJ_TREE:?}"
mkdir -p "$OUT"
n=0 passed=0 failed=0
tap() {
	n=$((n + 1))
	if [ "$1" = OK ]; then
		passed=$((passed + 1)); echo "ok $n $2"
	else
		failed=$((failed + 1)); echo "not ok $n $2${3:+ # $3}"
	fi
}
OURS='kernel/rcu/poll[a-z_]*\.[ch]|kernel/rcu/test_rcu_poll\.c|include/linux/rcupoll\.h|include/trace/events/rcu_poll\.h'

need=()
command -v sparse > /dev/null || need+=(sparse)
command -v spatch > /dev/null || need+=(coccinelle)
if [ ${#need[@]} -gt 0 ]; then
	echo "# installing ${need[*]}"
	DEBIAN_FRONTEND=noninteractive apt-get install -y -q "${need[@]}" > "$OUT/apt.log" 2>&1 ||
		{ tail -n 5 "$OUT/apt.log"; echo "static: could not install ${need[*]}" >&2; exit 1; }
fi

# sparse: C=2 checks every source of the directory, and the two C files
# outside kernel/rcu/ the series touches; -j2, 2 cores.
for v in poll tree; do
	obj=OBJ_${v^^}
	make -C "$KSRC" O="${!obj}" -j2 C=2 kernel/rcu/ kernel/fork.o kernel/sysctl.o \
		> "$OUT/sparse-$v.log" 2>&1
	grep -E '^[^ ]*\.(c|h):[0-9]+:[0-9]+: (warning|error):' "$OUT/sparse-$v.log" |
		sed "s|^$KSRC/||; s|^\.\./||" | sort -u > "$OUT/sparse-$v.txt"
done
ours=$(grep -cE "^($OURS):" "$OUT/sparse-poll.txt")
echo "# sparse, rcu_poll's files: $ours report(s); upstream files: $(grep -cvE "^($OURS):" "$OUT/sparse-poll.txt") (poll build), $(wc -l < "$OUT/sparse-tree.txt") (tree build)"
grep -E "^($OURS):" "$OUT/sparse-poll.txt" | sed 's/^/#   /'
[ "$ours" = 0 ] && tap OK "sparse: no report in rcu_poll's files" ||
	tap FAIL "sparse: no report in rcu_poll's files" "$ours, see $OUT/sparse-poll.txt"
# The upstream files the poll build compiles are compiled by the tree
# build too, from the same patched sources: a report only the poll build
# gets there is one the series caused (through a header or an #ifdef).
grep -vE "^($OURS):" "$OUT/sparse-poll.txt" | grep -vxF -f "$OUT/sparse-tree.txt" > "$OUT/sparse-new.txt"
new=$(wc -l < "$OUT/sparse-new.txt")
sed 's/^/#   new: /' "$OUT/sparse-new.txt"
[ "$new" = 0 ] && tap OK "sparse: no report in upstream files that Tree RCU's build does not have" ||
	tap FAIL "sparse: no report in upstream files that Tree RCU's build does not have" \
		"$new, see $OUT/sparse-new.txt"

# coccinelle: every semantic patch, report mode, on kernel/rcu/ (the
# poll build's configuration: M= reads the sources, not the objects).
make -C "$KSRC" O="$OBJ_POLL" coccicheck MODE=report M=kernel/rcu/ J=2 > "$OUT/cocci.log" 2>&1
grep -E '^[^ ]*\.(c|h):[0-9]+:' "$OUT/cocci.log" | sed "s|^$KSRC/||; s|^\./||" | sort -u > "$OUT/cocci.txt"
ours=$(grep -cE "^($OURS):" "$OUT/cocci.txt")
echo "# coccinelle, rcu_poll's files: $ours report(s); upstream kernel/rcu/ files: $(grep -cvE "^($OURS):" "$OUT/cocci.txt")"
grep -E "^($OURS):" "$OUT/cocci.txt" | sed 's/^/#   /'
[ "$ours" = 0 ] && tap OK "coccinelle: no report in rcu_poll's files" ||
	tap FAIL "coccinelle: no report in rcu_poll's files" "$ours, see $OUT/cocci.txt"
echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
