#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Build the guest's initramfs (uncompressed newc cpio: no decompressor
# needed in tinyconfig, and TCG unpacks it faster than it would inflate it).
#
# Contents: busybox-static with its applet links, guest/harness/init, the
# guest test runner (guest/harness/run-guest-tests), the guest tests and
# their library (guest/tests/), the kernel modules of this variant, the project's
# userspace binaries, and trace-cmd with every shared library and the loader
# it needs, resolved on the host with ldd and kept at their host paths.
#
# Usage: mkinitramfs.sh OUT.cpio MODROOT [USERSPACE_BIN_DIR [EXTRA_MODULE_DIR]]
# EXTRA_MODULE_DIR: out-of-tree modules (*.ko, build-modules.sh) for the
# modules/extra folder of the kernel release MODROOT has.
set -euo pipefail

TOP=$(cd "$(dirname "$0")/../.." && pwd)
OUT=${1:?usage: mkinitramfs.sh OUT.cpio MODROOT [BINDIR]}
MODROOT=${2:?}
BINDIR=${3:-}
EXTRA=${4:-}
ROOT=$OUT.d

rm -rf "$ROOT"
mkdir -p "$ROOT"/{bin,sbin,usr/bin,usr/sbin,usr/lib,usr/lib64,etc,proc,sys,dev,tmp,host,root,var/tmp}
mkdir -p "$ROOT"/sys/kernel/debug "$ROOT"/sys/kernel/tracing "$ROOT"/usr/share/rcu_poll/tests
ln -s usr/lib "$ROOT/lib"
ln -s usr/lib64 "$ROOT/lib64"

# busybox and its applets
cp /bin/busybox "$ROOT/bin/busybox"
for applet in $(/bin/busybox --list-full); do
	[ -e "$ROOT/$applet" ] || ln -s /bin/busybox "$ROOT/$applet"
done

# a dynamically linked program and the libraries it needs, at host paths
copy_with_libs() {
	install -D -m 0755 "$1" "$ROOT$1"
	copy_libs "$1"
}

# the shared libraries (and loader) a program needs, at host paths
copy_libs() {
	local prog=$1 lib
	for lib in $(ldd "$prog" | awk '/=> \//{print $3} /^[ \t]*\/.*ld-linux/{print $1}'); do
		local real
		real=$(readlink -f "$lib")
		[ -e "$ROOT$lib" ] && continue
		install -D -m 0755 "$real" "$ROOT$real"
		# /lib and /lib64 are links into /usr: the library may be there already
		[ -e "$ROOT$lib" ] || { mkdir -p "$ROOT$(dirname "$lib")"; ln -s "$real" "$ROOT$lib"; }
	done
}
copy_with_libs /usr/bin/trace-cmd

# the project's userspace tools
if [ -n "$BINDIR" ] && [ -d "$BINDIR" ]; then
	for prog in "$BINDIR"/*; do
		[ -x "$prog" ] && [ -f "$prog" ] || continue
		install -m 0755 "$prog" "$ROOT/usr/bin/"
		if ldd "$prog" >/dev/null 2>&1; then
			copy_libs "$prog"
		fi
	done
fi

# kernel modules
if [ -d "$MODROOT/lib/modules" ]; then
	cp -a "$MODROOT/lib/modules" "$ROOT/usr/lib/"
fi
if [ -n "$EXTRA" ] && compgen -G "$EXTRA/*.ko" > /dev/null; then
	rel=$(ls "$ROOT/usr/lib/modules" | head -n 1)
	[ -n "$rel" ] || { echo "mkinitramfs: no kernel release under $MODROOT/lib/modules" >&2; exit 1; }
	install -D -m 0644 -t "$ROOT/usr/lib/modules/$rel/extra" "$EXTRA"/*.ko
	/sbin/depmod -b "$ROOT/usr" "$rel"
fi

# init, test runner, tests
install -m 0755 "$TOP/guest/harness/init" "$ROOT/init"
install -m 0755 "$TOP/guest/harness/run-guest-tests" "$ROOT/usr/share/rcu_poll/run-guest-tests"
for t in "$TOP"/guest/tests/*.sh; do
	[ "$(basename "$t")" = lib.sh ] && continue	# the library, not a test
	install -m 0755 "$t" "$ROOT/usr/share/rcu_poll/tests/"
done
install -m 0644 "$TOP/guest/tests/lib.sh" "$ROOT/usr/share/rcu_poll/lib.sh"
install -m 0644 "$TOP/guest/harness/banner" "$ROOT/etc/banner"
echo "root:x:0:0:root:/root:/bin/sh" > "$ROOT/etc/passwd"
echo "root:x:0:" > "$ROOT/etc/group"
printf 'export PS1="[rcu_poll guest \\\\w]# "\nexport PATH=/bin:/sbin:/usr/bin:/usr/sbin\n' > "$ROOT/etc/profile"

mknod -m 600 "$ROOT/dev/console" c 5 1
mknod -m 666 "$ROOT/dev/null" c 1 3

(cd "$ROOT" && find . -mindepth 1 | LC_ALL=C sort | cpio --quiet -o -H newc -R 0:0) > "$OUT.tmp"
mv "$OUT.tmp" "$OUT"
rm -rf "$ROOT"
echo "  INITRAMFS $(basename "$OUT") ($(du -h "$OUT" | cut -f1))"
