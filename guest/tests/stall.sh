#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# A stuck grace period, diagnosed: test_rcu_poll holds CPU 1 for 7 s
# (hold: preemption off; irqoff: interrupts off; preempt: a task preempted
# inside a preempt-flavour reader) with rcu_cpu_stall_timeout=3.  The
# stall warning names the batch, CPU 1 (not CPU 0) and the holding task;
# the stall and holdout events say the same; debugfs gp shows the batch
# and its holdout while it lasts; the end of the batch is reported.
# With interrupts off, CPU 1 cannot poll its own batch nor start one for
# the callback the hold queues there, and our own writes may wait for the
# hold to end: the first warning may be about CPU 0's batch, about CPU 1's
# (every counter moved, but CPU 1 has not polled it) or about CPU 1's
# callbacks waiting for a batch; each must name CPU 1 alone.
# The callback is queued once the hold is seen to be on (not after a
# fixed delay), and the test checks that the hold was still on when it
# read debugfs gp.
# starved: preempt, with every unbound worker starved for the hold (the
# unbound workqueues confined to CPU 1, where the SCHED_FIFO hog runs,
# RT throttling off): the work that names the preempted tasks cannot run
# until the hold ends, but the warning, from the tick, must come while
# the hold lasts, give the number of tasks, and say that the list waits
# for the work; the work lists them (or says the batch ended) later.
# The hold is long enough for a second warning (2 timeouts after the
# first), which must come too, while the work is still pending.
. /usr/share/rcu_poll/lib.sh
mode=${1:?usage: stall.sh hold|irqoff|preempt|starved|torture}
starve=0
[ "$mode" = starved ] && { starve=1; mode=preempt; }
W=/sys/devices/virtual/workqueue/cpumask
RT=/proc/sys/kernel/sched_rt_runtime_us
# A stalled batch ends, or a CPU's callbacks that waited start a batch.
END='ended after stalling\|started batch [0-9]* after its callbacks waited'
D=/sys/kernel/debug/rcu
T=/sys/kernel/tracing
S=/sys/module/rcupdate/parameters/rcu_cpu_stall_timeout
[ "$(nproc)" -ge 2 ] || fail "needs 2 CPUs"

# rcutorture's own stall injector: a thread spins 6 s with interrupts off
# on some CPU; our warning must name that CPU, and only it.  Only RCU work
# that waits is a stall, and on 2 CPUs every rcutorture thread, and this
# shell, may be stuck behind the stalled CPU (a wakeup or timer aimed at
# it needs it to take interrupts): test_rcu_poll's sync threads keep
# asking for grace periods on every CPU meanwhile.
if [ "$mode" = torture ]; then
	# On failure: what RCU did meanwhile, and no rcutorture left behind.
	torture_fail() {
		echo "rcu_poll events from 20 ms before the stall on:"
		grep 'rcu_poll_' $T/trace | awk -v t="$(sed -n 's/^\[ *\([0-9.]*\)\] rcu_torture_stall start.*/\1/p' /tmp/kmsg | head -n 1)" \
			'{ for (i = 1; i <= NF; i++) if ($i ~ /^[0-9]+\.[0-9]+:$/) { ts = $i + 0; break } }
			 t == "" || ts >= t - 0.02' | head -n 50
		rmmod rcutorture 2> /dev/null
		fail "$@"
	}
	old_timeout=$(cat $S)
	put $S 3
	load test_rcu_poll
	for c in $(seq 0 $(($(nproc) - 1))); do
		put $D/test/sync "$c 10000"
	done
	put $T/tracing_on 0
	: > $T/trace
	for e in rcu_poll_batch_start rcu_poll_batch_end rcu_poll_stall rcu_poll_holdout; do
		put $T/events/rcu_poll/$e/enable 1
	done
	put $T/tracing_on 1
	echo "rcu_poll-test: expect stall begin (torture)" > /dev/kmsg
	kmsg_mark
	load rcutorture torture_type=rcu stall_cpu=6 stall_cpu_holdoff=2 stall_cpu_irqsoff=1 fwd_progress=0
	wait_for 40 sh -c "dmesg | tail -n +$((KMSG_MARK + 1)) | grep -q 'rcu_torture_stall end'" ||
		{ kmsg_since > /tmp/kmsg; torture_fail "rcutorture's stall did not end"; }
	wait_for 20 sh -c "dmesg | tail -n +$((KMSG_MARK + 1)) | grep -q '$END'" ||
		{ kmsg_since > /tmp/kmsg; torture_fail "no end-of-stall message ('$END')"; }
	rmmod rcutorture || fail "rmmod rcutorture failed"
	put $T/tracing_on 0
	put $T/events/rcu_poll/enable 0
	echo "rcu_poll-test: expect stall end (torture)" > /dev/kmsg
	kmsg_since > /tmp/kmsg
	grep 'rcu_torture_stall\|rcu_poll' /tmp/kmsg
	cpu=$(sed -n 's/.*rcu_torture_stall start on CPU \([0-9]*\)\..*/\1/p' /tmp/kmsg | head -n 1)
	[ -n "$cpu" ] || fail "rcutorture did not say which CPU it stalls"
	grep "INFO: rcu_poll stall: \\(batch [0-9]* of CPU [0-9]* waited [0-9]* ms for CPUs $cpu\\|CPU $cpu started no batch in [0-9]* ms\\) (warning" /tmp/kmsg ||
		fail "no stall warning naming CPU $cpu alone"
	grep "INFO: rcu_poll stall:" /tmp/kmsg | grep -v "for CPUs $cpu (warning\\|CPU $cpu started no batch" &&
		fail "a warning names CPUs other than $cpu"
	grep -q "rcu_poll:   holdout CPU $cpu: pid [0-9]* comm rcu_torture_sta" /tmp/kmsg ||
		fail "warning does not name rcutorture's stall thread on CPU $cpu"
	grep "holdout CPU" /tmp/kmsg | grep -v "holdout CPU $cpu:" && fail "a holdout other than CPU $cpu"
	put $S "$old_timeout"
	wait_for 20 sh -c "grep -q ' threads=0 ' $D/test/stats" || fail "sync threads did not end"
	[ "$(field syncs "$(cat $D/test/stats)")" -gt 0 ] || fail "no grace period from the sync threads"
	rmmod test_rcu_poll || fail "rmmod test_rcu_poll failed"
	echo "ok: rcutorture stalled CPU $cpu and the warning names CPU $cpu and its thread"
	exit 0
fi
load test_rcu_poll

case $mode in
hold) file=hold comm=rcupoll_hold/1 flavour=rcu_poll queue=queue ;;
irqoff) file=hold_irqoff comm=rcupoll_irqs/1 flavour=rcu_poll queue=queue ;;
preempt) file=preempt_reader comm=rcupoll_read/1 flavour=rcu_poll_preempt queue=queue_preempt ;;
*) fail "unknown mode $mode" ;;
esac

# hold_started: the hold is on.  A hold or preempt thread has had the
# CPU for a tick (the preempt hog runs only by preempting the reader);
# with interrupts off there are no ticks on CPU 1, but the thread queues
# its callback after turning them off: test_rcu_poll's queued count moves.
hold_started() {
	case $mode in
	hold) task_ran rcupoll_hold/1 ;;
	preempt) task_ran rcupoll_hog/1 ;;
	irqoff)
		read -r _st < $D/test/stats
		_q=${_st#queued=}
		[ "${_q%% *}" -gt "$queued0" ] ;;
	esac
}

HOLD_MS=7000
# Warnings 1 and 2 at 3 and 9 s, the third not before 21 s.
[ $starve = 1 ] && HOLD_MS=13000
nwarn_end=$((starve + 1))
old_timeout=$(cat $S)
put $S 3
put $D/test/barrier 1
read -r _st < $D/test/stats
queued0=${_st#queued=}
queued0=${queued0%% *}
put $T/tracing_on 0
: > $T/trace
put $T/events/rcu_poll/rcu_poll_stall/enable 1
put $T/events/rcu_poll/rcu_poll_holdout/enable 1
put $T/tracing_on 1
echo "rcu_poll-test: expect stall begin ($mode)" > /dev/kmsg
kmsg_mark

# Wait with shell builtins only: a fork during the hold copies the
# shell's mm, whose TLB flush may IPI CPU 1 and, with interrupts off
# there, spin on CPU 0 with preemption off until the hold ends: then
# CPU 0 really holds batches up too, and the warning rightly says so.
[ -p /tmp/stall.fifo ] || mkfifo /tmp/stall.fifo || fail "mkfifo"
exec 3<> /tmp/stall.fifo
uptime_s
t_hold_cs=$UPTIME_CS
if [ $starve = 1 ]; then
	# This shell stays on CPU 0 (builtins only from here on).
	taskset -p 1 $$ > /dev/null || fail "cannot pin the test to CPU 0"
	old_wq=$(cat $W) old_rt=$(cat $RT)
	put $W 2
	put $RT -1
fi
put $D/test/$file "1 $HOLD_MS"
i=0
until hold_started; do
	i=$((i + 1))
	[ $i -le 400 ] || fail "the hold on CPU 1 did not start in 20 s"
	read -t 0.05 x <&3
done
put $D/test/$queue "1 0"
# held_batch: debugfs gp names $comm on CPU 1 as a holdout of a $flavour
# batch; its number into HELD (builtins only).
held_batch() {
	while read -r _l; do
		case $_l in
		"holdout flavour=$flavour batch="*" cpu=1 pid="*" comm=$comm"*)
			_l=${_l#*batch=}
			HELD=${_l%% *}
			return 0 ;;
		esac
	done < $D/gp
	return 1
}
# With interrupts off on CPU 1, anything here that needs an IPI to CPU 1
# waits for the hold to end: only the warning, from CPU 0's tick, can
# report it.  The other two are inspected while they last: once gp shows
# the batch CPU 1 holds up, it must still be there 4 s later, that old.
HELD=""
if [ "$mode" != irqoff ]; then
	i=0
	until held_batch; do
		i=$((i + 1))
		[ $i -le 400 ] || fail "gp named no $comm on CPU 1 as a holdout in 20 s"
		read -t 0.05 x <&3
	done
	echo "gp: batch $HELD held up by $comm on CPU 1"
fi
read -t 4 x <&3
exec 3<&-
if [ "$mode" != irqoff ]; then
	grep -v '^hist' $D/gp > /tmp/gp
	uptime_s
	gp_cs=$UPTIME_CS
	cat /tmp/gp
	# The hold began after t_hold_cs: still on when gp was read?
	[ $((gp_cs - t_hold_cs)) -lt $((HOLD_MS / 10)) ] ||
		fail "gp was read $((gp_cs - t_hold_cs))0 ms after the hold began, past its $HOLD_MS ms: inconclusive"
	b=$(grep "^batch flavour=$flavour cpu=[-0-9]* batch=$HELD " /tmp/gp) ||
		fail "gp no longer shows batch $HELD, which $comm on CPU 1 held up"
	age=$(field age_ms "$b")
	[ "$age" -ge 3000 ] || fail "gp batch $HELD age $age ms, want >= 3000 (it was in flight 4 s ago)"
	grep -q "^holdout flavour=$flavour batch=$HELD kind=$([ $mode = preempt ] && echo task || echo cpu) cpu=1 pid=[0-9]* comm=$comm" /tmp/gp ||
		fail "gp does not name $comm on CPU 1 as the holdout of batch $HELD"
fi

wait_for 20 sh -c "dmesg | tail -n +$((KMSG_MARK + 1)) | grep -q '$END'" ||
	fail "no end-of-stall message ('$END')"
if [ $starve = 1 ]; then
	put $RT "$old_rt"
	put $W "$old_wq"
	# The work runs once the hold is over: its list, the batch ended,
	# or, if it ran after the reader dropped its reference but before
	# a poll ended the batch, that no task holds the batch any more.
	wait_for 20 sh -c "dmesg | tail -n +$((KMSG_MARK + 1)) | grep -q 'holdout task pid [0-9]* comm $comm\|ended before its holdout tasks were listed\|no preempted task holds batch $HELD any more'" ||
		fail "the work never named the preempted tasks, nor said the batch had ended or was no longer held"
fi
echo "rcu_poll-test: expect stall end ($mode)" > /dev/kmsg
put $T/tracing_on 0
kmsg_since > /tmp/kmsg
grep 'rcu_poll' /tmp/kmsg

# The dmesg timestamp of message $1, in centiseconds.
stamp_cs() {
	echo "$1" | sed -n 's/^\[ *\([0-9]*\)\.\([0-9][0-9]\).*/\1\2/p' | sed 's/^0*\(.\)/\1/'
}

if [ "$mode" = preempt ]; then
	w=$(grep -m 1 "INFO: rcu_poll_preempt stall: batch [0-9]* waited [0-9]* ms for 1 preempted tasks (warning 1)" /tmp/kmsg) ||
		fail "no preempt-flavour stall warning naming 1 preempted task"
	if [ $starve = 1 ]; then
		# Stamped (centiseconds) before the hold ended, the work starved.
		w_cs=$(stamp_cs "$w")
		[ -n "$w_cs" ] || fail "no timestamp on '$w'"
		[ "$w_cs" -lt $((t_hold_cs + HOLD_MS / 10)) ] ||
			fail "the warning came at ${w_cs}0 ms, after the hold (${t_hold_cs}0 ms + $HOLD_MS ms): it waited for the starved work"
		b=$(echo "$w" | sed 's/.*stall: batch \([0-9]*\).*/\1/')
		grep -q "rcu_poll:   preempt batch $b: holdout tasks not listed, the work that lists them has waited [0-9]* ms to run" /tmp/kmsg ||
			fail "the warning does not say that the work listing the tasks is starved"
		# The pending work holds no later warning back.
		w2=$(grep -m 1 "INFO: rcu_poll_preempt stall: batch $b waited [0-9]* ms for 1 preempted tasks (warning 2)" /tmp/kmsg) ||
			fail "no second warning for batch $b while the work was starved"
		w2_cs=$(stamp_cs "$w2")
		[ -n "$w2_cs" ] && [ "$w2_cs" -lt $((t_hold_cs + HOLD_MS / 10)) ] ||
			fail "the second warning came at ${w2_cs}0 ms, after the hold (${t_hold_cs}0 ms + $HOLD_MS ms)"
		grep -q "rcu_poll:   preempt batch $b: holdout tasks not listed, the work that lists them is still busy with the warning of [0-9]* ms ago" /tmp/kmsg ||
			fail "the second warning does not say that the work of the first is still pending"
	else
		grep -q "rcu_poll:   holdout task pid [0-9]* comm $comm, preempted on CPU 1" /tmp/kmsg ||
			fail "warning does not name task $comm preempted on CPU 1"
	fi
	grep -q "holdout CPU" /tmp/kmsg && fail "warning names a CPU, but only a task holds the batch"
elif [ "$mode" = hold ]; then
	w=$(grep -m 1 "INFO: rcu_poll stall: batch [0-9]* of CPU 0 waited [0-9]* ms for CPUs 1 (warning 1)" /tmp/kmsg) ||
		fail "no stall warning for CPU 0's batch naming CPU 1 alone"
else
	w=$(grep -m 1 "INFO: rcu_poll stall: \(batch [0-9]* of CPU [01] waited [0-9]* ms for CPUs 1\|CPU 1 started no batch in [0-9]* ms\) (warning 1)" /tmp/kmsg) ||
		fail "no stall warning naming CPU 1 alone"
	case $w in
	*"of CPU 1 waited"*)
		grep -q "rcu_poll:   every CPU passed a quiescent state, but CPU 1 has not polled its batch since" /tmp/kmsg ||
			fail "CPU 1's batch named CPU 1, but the warning does not say it is unpolled"
		;;
	esac
fi
if [ "$mode" != preempt ]; then
	grep -q "rcu_poll:   holdout CPU 1: pid [0-9]* comm $comm, qs [0-9]*" /tmp/kmsg ||
		fail "warning does not name $comm on CPU 1"
	grep -q "holdout CPU 0" /tmp/kmsg && fail "warning names CPU 0, which was not holding"
	grep "INFO: rcu_poll stall:" /tmp/kmsg | grep -v "for CPUs 1 (warning\|CPU 1 started no batch" &&
		fail "a warning names CPUs other than CPU 1"
	grep -q "NMI backtrace for cpu 1\|Task dump for CPU 1\|CPU: 1 PID" /tmp/kmsg ||
		fail "no stack of CPU 1"
	# The holdout's context: its ticks interrupt the hold with
	# preemption disabled; with interrupts off it takes none (its last
	# tick came before the hold, and the warning comes 3 s later).
	if [ "$mode" = hold ]; then
		ctx="CPU 1 context: kernel, preemption disabled (preempt_count 0x1) at its last tick [0-9]* ms ago;"
	else
		ctx="CPU 1 context: [a-z, ]* (preempt_count 0x[0-9a-f]*) at its last tick [0-9]* ms ago (no tick since: interrupts disabled?);"
	fi
	grep "rcu_poll:   CPU 1 context" /tmp/kmsg | head -n 2
	grep -q "rcu_poll:   $ctx RCU_SOFTIRQ [a-z ]*, ksoftirqd/1 [a-z]*; callbacks nxt [0-9]* cur [0-9]* done [0-9]*; its batch [0-9]*$" /tmp/kmsg ||
		fail "the warning does not give CPU 1's context as '$ctx'"
	if [ "$mode" = hold ]; then
		grep -q "^context cpu=1 where=kernel pc=0x1 tick_ms=[0-9]* no_tick=0 rcu_softirq=[01] ksoftirqd=[a-z]* nxt=[0-9]* cur=[0-9]* done=[0-9]* batch=[0-9]*$" /tmp/gp ||
			fail "debugfs gp has no context record for CPU 1 with preemption disabled"
	fi
fi
echo "ok: $w"
case $w in
*"started no batch"*)
	# Batch 0 in the events: no batch had started.
	batch=0
	grep -q "rcu_poll: $flavour CPU 1 started batch [0-9]* after its callbacks waited [0-9]* ms (1 warnings)" /tmp/kmsg ||
		fail "no message that CPU 1 started a batch for its callbacks"
	;;
*)
	batch=$(echo "$w" | sed 's/.*stall: batch \([0-9]*\).*/\1/')
	grep -q "rcu_poll: $flavour batch $batch ended after stalling [0-9]* ms ($nwarn_end warnings)" /tmp/kmsg ||
		fail "no end message for batch $batch"
	;;
esac

cat $T/trace | grep 'rcu_poll_' > /tmp/ev
cat /tmp/ev
grep -q "rcu_poll_stall: $flavour .*batch=$batch .*nwarn=1" /tmp/ev || fail "no rcu_poll_stall event for batch $batch"
if [ "$mode" = preempt ]; then
	grep -q "rcu_poll_stall: $flavour .*batch=$batch .*ntasks=1 " /tmp/ev || fail "stall event: ntasks != 1"
fi
if [ "$mode" = preempt ] && [ $starve = 0 ]; then
	grep -q "rcu_poll_holdout: $flavour batch=$batch kind=task cpu=1 pid=[0-9]* comm=$comm" /tmp/ev ||
		fail "no holdout event for task $comm"
	# Finding the preempted tasks walks every thread: not from the
	# tick.  The event's flags (irqs-off, need-resched, hardirq/softirq,
	# ...) say where it was emitted: task context, interrupts on.
	flags=$(grep -m 1 "rcu_poll_holdout: $flavour batch=$batch kind=task" /tmp/ev |
		sed 's/^.*\] \([^ ]*\) .*/\1/')
	case "$flags" in
	.?.*) ;;
	*) fail "holdout task event emitted with flags '$flags': not task context with interrupts on" ;;
	esac
elif [ "$mode" != preempt ]; then
	grep -q "rcu_poll_stall: $flavour .*batch=$batch .*holdouts=0*,*0*2 " /tmp/ev ||
		fail "stall event holdouts is not CPU 1 alone"
	grep -q "rcu_poll_holdout: $flavour batch=$batch kind=cpu cpu=1 pid=[0-9]* comm=$comm" /tmp/ev ||
		fail "no holdout event for CPU 1"
fi

put $T/events/rcu_poll/enable 0
put $D/test/barrier 1
expect_eq "pending after barrier" 0 "$(field pending "$(cat $D/test/stats)")"
expect_eq "pending_preempt after barrier" 0 "$(field pending_preempt "$(cat $D/test/stats)")"
put $S "$old_timeout"
wait_for 30 sh -c "grep -q ' threads=0 ' $D/test/stats" || fail "test_rcu_poll threads still run 30 s after the barrier"
rmmod test_rcu_poll || fail "rmmod failed"
