#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Build the out-of-tree modules of guest/modules/ (rcu_scenario.ko: the
# scenarios that need only the RCU API, for rcu_poll and Tree RCU alike)
# against a built kernel's object dir, in a folder of their own: kbuild
# writes its output beside the sources, so they are copied there first.
# mkinitramfs.sh packs OUTDIR/*.ko into the initramfs's modules/extra.
#
# Usage: build-modules.sh OBJ OUTDIR
set -euo pipefail

TOP=$(cd "$(dirname "$0")/../.." && pwd)
OBJ=${1:?usage: build-modules.sh OBJ OUTDIR}
OUTDIR=${2:?usage: build-modules.sh OBJ OUTDIR}
[ -f "$OBJ/Module.symvers" ] || { echo "build-modules: $OBJ is not a built kernel (no Module.symvers)" >&2; exit 1; }
mkdir -p "$OUTDIR/src"
OUTDIR=$(cd "$OUTDIR" && pwd)
rm -f "$OUTDIR"/*.ko
cp "$TOP"/guest/modules/*.c "$TOP"/guest/modules/Kbuild "$OUTDIR/src/"
log=$OUTDIR/build.log
make -C "$OBJ" M="$OUTDIR/src" modules > "$log" 2>&1 ||
	{ tail -n 20 "$log" >&2; echo "build-modules: failed, see $log" >&2; exit 1; }
for ko in "$OUTDIR"/src/*.ko; do
	strip --strip-debug -o "$OUTDIR/$(basename "$ko")" "$ko"
done
echo "  MODULES  $(cd "$OUTDIR" && ls ./*.ko | sed 's|^\./||' | tr '\n' ' ')for $(cat "$OBJ/include/config/kernel.release")"
