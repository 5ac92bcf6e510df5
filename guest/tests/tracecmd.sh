#!/bin/sh
# trace-cmd, shipped in the initramfs, records in the guest; the file goes
# to the host folder, where the host test reads it back.
. /usr/share/rcu_poll/lib.sh
cd /tmp || fail "no /tmp"
trace-cmd record -q -o /tmp/trace.dat -e rcu:rcu_utilization -e sched:sched_switch \
	sh -c 'for i in 1 2 3 4 5; do sleep 0.1; done' || fail "trace-cmd record failed"
[ -s /tmp/trace.dat ] || fail "no trace.dat"
n=$(trace-cmd report -i /tmp/trace.dat 2>/dev/null | grep -c 'sched_switch:')
echo "sched_switch events in guest report: $n"
[ "$n" -gt 0 ] || fail "trace.dat has no sched_switch events"
mkdir -p /host/out
cp /tmp/trace.dat /host/out/trace.dat || fail "copy to host failed"
echo "$n" > /host/out/trace.dat.sched_switch
