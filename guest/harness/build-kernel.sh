#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Configure and build one guest kernel variant out of tree:
#   tinyconfig + guest/configs/common.config + guest/configs/$VARIANT.config
# The merged .config is regenerated every time but only replaces the old
# one when it differs, so an unchanged configuration rebuilds nothing.
# Fails when any option the fragments ask for is missing from the result
# (merge_config.sh only warns about that).
#
# Usage: build-kernel.sh   (KSRC, OBJ, VARIANT, LOG from the environment)
# TARGETS="kernel/rcu/" builds only those make targets, from scratch for
# kernel/rcu's objects so that their warnings are seen on every run
# (ccache replays them); no modules, no bzImage.
set -euo pipefail

TOP=$(cd "$(dirname "$0")/../.." && pwd)
: "${KSRC:?}" "${OBJ:?}" "${VARIANT:?}" "${LOG:?}"
JOBS=${JOBS:-$(nproc)}
FRAGS="$TOP/guest/configs/common.config $TOP/guest/configs/$VARIANT.config"
for f in $FRAGS; do
	[ -f "$f" ] || { echo "build-kernel: no fragment $f" >&2; exit 1; }
done
for f in ${EXTRA_FRAGS:-}; do
	[ -f "$f" ] || { echo "build-kernel: no fragment $f" >&2; exit 1; }
	FRAGS="$FRAGS $f"
done

CC_CMD="gcc"
if command -v ccache >/dev/null; then
	CC_CMD="ccache gcc"
	export CCACHE_DIR=${CCACHE_DIR:-$HOME/.cache/ccache}
	export CCACHE_BASEDIR=$KSRC
	# The kernel embeds its build time; keep it out of the cache keys.
	export KBUILD_BUILD_TIMESTAMP="rcu_poll" KBUILD_BUILD_USER=rcu_poll KBUILD_BUILD_HOST=guest
fi
KMAKE=(make -C "$KSRC" O="$OBJ" CC="$CC_CMD" HOSTCC=gcc -j"$JOBS")

mkdir -p "$OBJ" "$(dirname "$LOG")"
: > "$LOG"

# 1. The configuration, in a scratch directory so $OBJ/.config is only
#    touched when it really changes.
CFG=$OBJ/.cfg-new
rm -rf "$CFG"
mkdir -p "$CFG"
{
	make -C "$KSRC" O="$CFG" HOSTCC=gcc tinyconfig
	# shellcheck disable=SC2086
	(cd "$KSRC" && scripts/kconfig/merge_config.sh -m -O "$CFG" "$CFG/.config" $FRAGS)
	make -C "$KSRC" O="$CFG" HOSTCC=gcc olddefconfig
} >> "$LOG" 2>&1 || { echo "build-kernel: configuration failed, see $LOG" >&2; tail -20 "$LOG" >&2; exit 1; }

missing=0
# The last fragment to mention an option wins (a variant may override the
# common fragment), so only its request is checked.
declare -A last=()
order=()
# shellcheck disable=SC2086
while read -r line; do
	case "$line" in
	CONFIG_*=*|"# CONFIG_"*" is not set") ;;
	*) continue ;;
	esac
	name=${line#\# }; name=${name%%[= ]*}
	[ -n "${last[$name]:-}" ] || order+=("$name")
	last[$name]=$line
done < <(cat $FRAGS)
for name in "${order[@]}"; do
	want=${last[$name]}
	if ! grep -qxF -- "$want" "$CFG/.config"; then
		got=$(grep -E "^(# )?$name[= ]" "$CFG/.config" || echo "$name absent")
		echo "build-kernel: fragment asks for '$want', .config has '$got'" >&2
		missing=1
	fi
done
# ALLOW_MISSING=1 (series-prefix builds: options later patches add) only
# reports them.
[ "$missing" = 0 ] || [ "${ALLOW_MISSING:-0}" = 1 ] ||
	{ echo "build-kernel: unmet config requests (fix the fragment's dependencies)" >&2; exit 1; }

if ! cmp -s "$CFG/.config" "$OBJ/.config"; then
	cp "$CFG/.config" "$OBJ/.config"
	echo "  CONFIG   $VARIANT: .config updated"
fi
rm -rf "$CFG"

# 2. The kernel and its modules.  A first build is quiet for many
#    minutes: a line every 30 s says how far it is.
# shellcheck source=progress.sh
. "$TOP/guest/harness/progress.sh"
trap progress_stop EXIT
start=$(date +%s)
progress_start "$VARIANT" "$LOG"
if [ -n "${TARGETS:-}" ]; then
	rm -f "$OBJ"/kernel/rcu/*.o
	# shellcheck disable=SC2086
	if ! "${KMAKE[@]}" $TARGETS >> "$LOG" 2>&1; then
		echo "build-kernel: build of $TARGETS failed, see $LOG" >&2
		grep -E -m 20 'error:|Error [0-9]|warning:' "$LOG" >&2 || tail -20 "$LOG" >&2
		exit 1
	fi
	progress_stop
	if grep -E 'kernel/rcu/.*warning:' "$LOG" >&2; then
		echo "build-kernel: compiler warnings in kernel/rcu (above)" >&2
		exit 1
	fi
	echo "  BUILT    $VARIANT $TARGETS in $(( $(date +%s) - start ))s"
	exit 0
fi
if ! "${KMAKE[@]}" bzImage modules >> "$LOG" 2>&1; then
	echo "build-kernel: build failed, see $LOG" >&2
	grep -E -m 20 'error:|Error [0-9]|undefined reference|warning:' "$LOG" >&2 || tail -20 "$LOG" >&2
	exit 1
fi
# Install modules beside the old set and swap only if something changed,
# so the initramfs (which depends on modroot) is not rebuilt for nothing.
rm -rf "$OBJ/modroot.new"
"${KMAKE[@]}" INSTALL_MOD_PATH="$OBJ/modroot.new" INSTALL_MOD_STRIP=1 DEPMOD=/sbin/depmod \
	modules_install >> "$LOG" 2>&1 || { echo "build-kernel: modules_install failed, see $LOG" >&2; exit 1; }
progress_stop
if diff -r -q "$OBJ/modroot.new" "$OBJ/modroot" > /dev/null 2>&1; then
	rm -rf "$OBJ/modroot.new"
else
	rm -rf "$OBJ/modroot"
	mv "$OBJ/modroot.new" "$OBJ/modroot"
	touch "$OBJ/modroot"
fi
# New warnings are errors for our code: surface them.
if grep -E 'kernel/rcu/.*warning:' "$LOG" >&2; then
	echo "build-kernel: compiler warnings in kernel/rcu (above)" >&2
	exit 1
fi
echo "  BUILT    $VARIANT kernel in $(( $(date +%s) - start ))s ($OBJ/arch/x86/boot/bzImage)"
