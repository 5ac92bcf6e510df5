#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The guest survives trace events being enabled and disabled while every
# CPU runs through them: each toggle patches the tracepoint call sites
# (text_poke_bp()), which multi-threaded TCG does not keep coherent
# across vCPUs (guest/harness/qemu.sh).  With TCG_THREAD=multi this kills
# the guest within a few hundred toggles.  Usage: trace-toggle.sh [N]
. /usr/share/rcu_poll/lib.sh
T=/sys/kernel/tracing
N=${1:-200}
# wakeups and context switches on every CPU
pids=
for c in $(seq 0 $(($(nproc) - 1))); do
	taskset -c "$c" sh -c 'while :; do usleep 1000; done' &
	pids="$pids $!"
done
i=0
while [ $i -lt "$N" ]; do
	put $T/events/sched/sched_wakeup/enable 1
	put $T/events/sched/sched_switch/enable 1
	put $T/events/sched/sched_wakeup/enable 0
	put $T/events/sched/sched_switch/enable 0
	i=$((i + 1))
done
# shellcheck disable=SC2086
kill $pids
echo "ok: toggled two events $i times under load"
