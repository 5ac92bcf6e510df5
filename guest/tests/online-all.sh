#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Bring every present CPU online by hotplug (a guest booted with
# maxcpus=1): then exactly N CPUs are online and RCU waits for them all.
. /usr/share/rcu_poll/lib.sh
want=${1:?usage: online-all.sh N}
for c in /sys/devices/system/cpu/cpu[0-9]*; do
	[ -f "$c/online" ] || continue
	[ "$(cat "$c/online")" = 1 ] && continue
	put "$c/online" 1
done
expect_eq "online CPUs after hotplug" "$want" "$(nproc)"
expect_eq "online mask" "0-$((want - 1))" "$(cat /sys/devices/system/cpu/online)"
