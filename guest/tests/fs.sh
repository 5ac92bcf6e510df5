#!/bin/sh
# debugfs and tracefs are mounted where users expect them, and the kernel's
# rcu: trace events are there to enable.
. /usr/share/rcu_poll/lib.sh
grep -q ' /sys/kernel/debug debugfs ' /proc/mounts || fail "debugfs not mounted"
grep -q ' /sys/kernel/tracing tracefs ' /proc/mounts || fail "tracefs not mounted"
ev=/sys/kernel/tracing/events/rcu
[ -d "$ev" ] || fail "no rcu event system in $ev"
ls "$ev"
for e in ${*:-rcu_utilization}; do
	[ -f "$ev/$e/format" ] || fail "event rcu:$e missing"
	echo "ok: rcu:$e"
done
