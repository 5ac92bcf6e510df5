#!/bin/sh
# The guest has exactly the number of online CPUs QEMU was asked for.
. /usr/share/rcu_poll/lib.sh
want=${1:?usage: cpus.sh N}
online=$(cat /sys/devices/system/cpu/online)
n=0
for c in /sys/devices/system/cpu/cpu[0-9]*; do
	if [ ! -f "$c/online" ] || [ "$(cat "$c/online")" = 1 ]; then
		n=$((n + 1))
	fi
done
echo "online: $online"
expect_eq "online CPUs" "$want" "$n"
expect_eq "nproc" "$want" "$(nproc)"
