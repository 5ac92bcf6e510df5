#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Install the Debian packages the project needs, if any is missing.
# As root: apt-get does it.  Otherwise: print the command and stop.
set -euo pipefail
PKGS="linux-source-6.1 gcc make bc flex bison libelf-dev libssl-dev cpio kmod xz-utils
 qemu-system-x86 busybox-static trace-cmd kernelshark libtracefs-dev libtraceevent-dev
 libtracecmd-dev libkshark-dev libjson-c-dev ccache man-db valgrind git perl python3 python3-ply python3-git pkg-config g++ xvfb imagemagick gnuplot-nox sparse coccinelle"
missing=()
for p in $PKGS; do
	dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
[ ${#missing[@]} = 0 ] && exit 0
if [ "$(id -u)" != 0 ]; then
	echo "Missing Debian packages. Run as root:" >&2
	echo "  apt-get update && apt-get install -y ${missing[*]}" >&2
	exit 1
fi
echo "  APT      installing ${missing[*]} (log: ${DEPS_LOG:-/tmp/rcu_poll-apt.log})"
log=${DEPS_LOG:-/tmp/rcu_poll-apt.log}
export DEBIAN_FRONTEND=noninteractive
# A first install (qemu, kernelshark, ...) takes minutes: a line every 30 s.
# shellcheck source=progress.sh
. "$(dirname "$0")/progress.sh"
trap progress_stop EXIT
: > "$log"
progress_start apt "$log" "packages unpacked" '^Unpacking '
if ! apt-get install -y -q --no-install-recommends "${missing[@]}" >> "$log" 2>&1; then
	apt-get update -q >> "$log" 2>&1
	apt-get install -y -q --no-install-recommends "${missing[@]}" >> "$log" 2>&1 ||
		{ echo "deps: apt-get install failed, see $log" >&2; tail -n 5 "$log" >&2; exit 1; }
fi
