#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make trace: boot the guest, run the scenario (a callback flood on CPU 0
# while CPU 1 is held in a reader for 1.5 s), record it with rcupoll,
# bring trace.dat and the report to $OUTDIR, print how to open it.
# Environment: TOP KERNEL INITRD OUTDIR SMP
set -euo pipefail
: "${TOP:?}" "${KERNEL:?}" "${INITRD:?}" "${OUTDIR:?}"
share=$TOP/build/trace
rm -rf "$share"
mkdir -p "$share" "$OUTDIR"
echo "scenario" > "$share/plan"
echo "  BOOT     scenario: callback flood on CPU 0, CPU 1 held 1.5 s, recorded by rcupoll"
"$TOP/guest/harness/qemu.sh" -k "$KERNEL" -r "$INITRD" -s "$share" -l "$share/console.log" \
	-c "${SMP:-2}" -t 300 || { echo "trace: guest failed, see $share/console.log" >&2; exit 1; }
grep -q '^ok 1 ' "$share/results" 2>/dev/null ||
	{ echo "trace: scenario failed:" >&2; cat "$share/logs/"*.log >&2; exit 1; }
cp "$share/out/rcupoll.dat" "$OUTDIR/rcupoll.dat"
"$TOP/build/userspace/rcupoll" report "$OUTDIR/rcupoll.dat" > "$OUTDIR/rcupoll-report.txt"
cat "$OUTDIR/rcupoll-report.txt"
cat <<EOM

  trace:  $OUTDIR/rcupoll.dat
  report: $OUTDIR/rcupoll-report.txt
  read it:  TRACEEVENT_PLUGIN_DIR=$TOP/build/tracepoints trace-cmd report -i $OUTDIR/rcupoll.dat
  open it:  TRACEEVENT_PLUGIN_DIR=$TOP/build/tracepoints kernelshark $OUTDIR/rcupoll.dat
  (make plugin-install puts the plugin where both find it without the variable)
EOM
