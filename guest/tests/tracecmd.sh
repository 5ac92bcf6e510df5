#!/bin/sh
# trace-cmd, shipped in the initramfs, records in the guest; the file goes
# to the host folder, where the host test reads it back.  Exiting processes
# free their task_struct through call_rcu(), so the workload makes rcu:
# events whatever the RCU implementation.
. /usr/share/rcu_poll/lib.sh
cd /tmp || fail "no /tmp"
trace-cmd record -q -o /tmp/trace.dat -e rcu:rcu_callback -e sched:sched_switch \
	sh -c 'for i in 1 2 3 4 5; do sleep 0.1; done' || fail "trace-cmd record failed"
[ -s /tmp/trace.dat ] || fail "no trace.dat"
trace-cmd report -i /tmp/trace.dat > /tmp/report.txt 2>/dev/null
n=$(grep -c 'sched_switch:' /tmp/report.txt)
cb=$(grep -c 'rcu_callback:' /tmp/report.txt)
echo "guest report: $n sched_switch, $cb rcu_callback"
[ "$n" -gt 0 ] || fail "trace.dat has no sched_switch events"
[ "$cb" -gt 0 ] || fail "trace.dat has no rcu_callback events"
mkdir -p /host/out
cp /tmp/trace.dat /host/out/trace.dat || fail "copy to host failed"
echo "$n" > /host/out/trace.dat.sched_switch
echo "$cb" > /host/out/trace.dat.rcu_callback
