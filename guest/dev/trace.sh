#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make trace: boot the guest, run the scenario (a callback flood on CPU 0
# while CPU 1 is held in a reader for 1.5 s), record it with rcupoll,
# bring trace.dat and the report to $OUTDIR, print how to open it.
# VARIANT=tree: on Tree RCU (rcu_scenario's flood and hold), into
# rcupoll-tree.dat and rcupoll-tree-report.txt.
# Environment: TOP KERNEL INITRD OUTDIR SMP [VARIANT]
set -euo pipefail
: "${TOP:?}" "${KERNEL:?}" "${INITRD:?}" "${OUTDIR:?}"
sfx=
[ "${VARIANT:-poll}" = poll ] || sfx=-$VARIANT
share=$TOP/build/trace$sfx
rm -rf "$share"
mkdir -p "$share" "$OUTDIR"
echo "scenario" > "$share/plan"
echo "  BOOT     ${VARIANT:-poll} scenario: callback flood on CPU 0, CPU 1 held 1.5 s, recorded by rcupoll"
"$TOP/guest/harness/qemu.sh" -k "$KERNEL" -r "$INITRD" -s "$share" -l "$share/console.log" \
	-c "${SMP:-2}" -t 300 || { echo "trace: guest failed, see $share/console.log" >&2; exit 1; }
grep -q '^ok 1 ' "$share/results" 2>/dev/null ||
	{ echo "trace: scenario failed:" >&2; cat "$share/logs/"*.log >&2; exit 1; }
dat=$OUTDIR/rcupoll$sfx.dat rep=$OUTDIR/rcupoll$sfx-report.txt
cp "$share/out/rcupoll.dat" "$dat"
"$TOP/build/userspace/rcupoll" report "$dat" > "$rep"
cat "$rep"
cat <<EOM

  trace:  $dat
  report: $rep
  read it:  TRACEEVENT_PLUGIN_DIR=$TOP/build/tracepoints trace-cmd report -i $dat
  open it:  TRACEEVENT_PLUGIN_DIR=$TOP/build/tracepoints kernelshark -p $TOP/build/kshark/plugin-rcu_poll.so $dat
  (make plugin-install puts the plugin where both find it without the variable)
EOM
