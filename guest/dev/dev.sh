#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Developer helper: boot one guest running the given guest tests, without
# the whole of make test.  Rebuilds the initramfs if needed.
#   guest/dev/dev.sh SMP "test args"...     e.g. guest/dev/dev.sh 2 "stall hold" "events 100"
# Environment: VARIANT (poll), APPEND (kernel args), TMO (timeout, 300 s),
# ALLOW (console lines to accept).  Logs: build/dev/logs/N-test.log,
# console: build/dev/console.log.
set -uo pipefail
TOP=$(cd "$(dirname "$0")/../.." && pwd)
V=${VARIANT:-poll}
smp=${1:?usage: guest/dev/dev.sh SMP "test args"...}
shift
make -C "$TOP" --no-print-directory initramfs VARIANT="$V" > /dev/null || exit 1
share=$TOP/build/dev
rm -rf "$share"
mkdir -p "$share"
printf '%s\n' "$@" > "$share/plan"
"$TOP/guest/harness/qemu.sh" -k "$TOP/build/obj-$V/arch/x86/boot/bzImage" -r "$TOP/build/initramfs-$V.cpio" \
	-s "$share" -l "$share/console.log" -c "$smp" -t "${TMO:-300}" -a "${APPEND:-}"
echo "qemu exit: $?"
cat "$share/results"
"$TOP/guest/harness/scan-console.sh" "$share/console.log" "${ALLOW:-}" | head -n 30
