#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Boot the guest kernel in QEMU (TCG unless KVM=1).
#
#   qemu.sh [-i] -k BZIMAGE -r INITRD -s SHARE_DIR -l CONSOLE_LOG
#           [-c SMP] [-m MEM] [-t TIMEOUT_S] [-a "extra kernel args"]
#
# -i: interactive, the console is this terminal (and is logged too).
# Otherwise the console goes to the log only, and a guest still running
# after TIMEOUT seconds is killed: exit status 124.  The guest powers off
# with "reboot -f"; -no-reboot turns that, and a panic, into a QEMU exit.
set -euo pipefail

interactive=0 smp=${SMP:-2} mem=${MEM:-1024} timeout=${TIMEOUT:-600} append=""
kernel="" initrd="" share="" log=""
while getopts "ik:r:s:l:c:m:t:a:" o; do
	case $o in
	i) interactive=1 ;;
	k) kernel=$OPTARG ;;
	r) initrd=$OPTARG ;;
	s) share=$OPTARG ;;
	l) log=$OPTARG ;;
	c) smp=$OPTARG ;;
	m) mem=$OPTARG ;;
	t) timeout=$OPTARG ;;
	a) append=$OPTARG ;;
	*) echo "usage: see the head of $0" >&2; exit 2 ;;
	esac
done
for v in kernel initrd share log; do
	[ -n "${!v}" ] || { echo "qemu.sh: -${v:0:1} is required" >&2; exit 2; }
done
mkdir -p "$share" "$(dirname "$log")"

# One host thread for all vCPUs unless TCG_THREAD=multi.  Multi-threaded
# TCG (QEMU 7.2) does not keep cross-vCPU code modification coherent: a
# vCPU may still run the int3 of a text_poke_bp() after the patch is
# complete, and the kernel dies with "int3: 0000" in a tracepoint call
# site.  Enabling and disabling trace events patches those sites, and
# every guest test does (300 toggles under load: 2 of 2 boots crashed
# multi-threaded, 0 of 2 single-threaded).  make bench keeps multi, for
# real parallelism in its scaling points.
accel=(-accel "tcg,thread=${TCG_THREAD:-single}" -cpu max)
if [ "${KVM:-0}" = 1 ]; then
	accel=(-accel kvm -cpu host)
fi

# panic=-1: reboot at once on panic, which -no-reboot makes a QEMU exit.
cmdline="console=ttyS0,115200 panic=-1 oops=panic loglevel=6 $append"
args=(qemu-system-x86_64 "${accel[@]}" -smp "$smp" -m "$mem" -no-reboot
	-kernel "$kernel" -initrd "$initrd" -append "$cmdline"
	-virtfs "local,path=$share,mount_tag=host0,security_model=none,id=host0"
	-nic none)

if [ "$interactive" = 1 ]; then
	"${args[@]}" -nographic 2>&1 | tee "$log"
	exit "${PIPESTATUS[0]}"
fi

rc=0
timeout --foreground -k 5 "$timeout" "${args[@]}" -display none -monitor none -serial "file:$log" \
	< /dev/null > "$log.qemu" 2>&1 || rc=$?
if [ "$rc" = 124 ]; then
	echo "qemu.sh: guest still running after ${timeout}s: killed" >> "$log"
fi
exit "$rc"
