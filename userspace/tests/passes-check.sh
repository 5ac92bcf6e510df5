#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# passes-check.sh RCUPOLL FILE OUTPREFIX: "rcupoll report -t passes" of
# FILE against trace-cmd's own reading (rcu_batch_end per CPU: passes,
# CBs-invoked summed).  Prints the per-CPU triples; exits 1 if they differ
# or the file has none.
R=$1 F=$2 O=$3
"$R" report -f csv -t passes "$F" | awk -F, 'NR > 1 { print $2, $3, $4 }' > "$O.got"
trace-cmd report -i "$F" 2>/dev/null | awk '/ rcu_batch_end: / {
	cpu = $0; sub(/^.*\[0*/, "", cpu); sub(/\].*$/, "", cpu); cpu += 0
	n[cpu]++; x = $0; sub(/^.*CBs-invoked=/, "", x); c[cpu] += x + 0 }
	END { for (i in n) print i, n[i], c[i] }' | sort -n > "$O.want"
echo "report $(tr '\n' ';' < "$O.got") trace-cmd $(tr '\n' ';' < "$O.want")"
[ -s "$O.want" ] && cmp -s "$O.got" "$O.want"
