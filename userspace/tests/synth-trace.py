#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""synth-trace.py EVENTS OUT: a small trace.dat with known answers.

Writes a version 6 trace.dat (trace-cmd.dat.v6(5)) whose events are
written here, event by event, on two CPUs: every kind of slow batch that
"rcupoll report" names, with the CPUs' own quiescent states
(rcu_poll_cpu_qs) and the preempt-flavour references of tasks
(rcu_poll_preempt_task), which a kernel may or may not have.  EVENTS is
"trace-cmd dump --events" of a real trace.dat: the formats of the events
the kernel has; the two newer events get formats written here, with the
fields their definition has (how, qs; pid, comm, how, cntr_cpu).
"""
import re
import struct
import sys

import tracedat

from tracedat import COMMON
NEW_EVENTS = {
    'rcu_poll_cpu_qs': (9001, '\tfield:const char * how;\toffset:8;\tsize:8;\tsigned:0;\n'
                              '\tfield:unsigned long qs;\toffset:16;\tsize:8;\tsigned:0;\n',
                        '"how=%s qs=%lu", REC->how, REC->qs'),
    'rcu_poll_preempt_task': (9002, '\tfield:pid_t pid;\toffset:8;\tsize:4;\tsigned:1;\n'
                                    '\tfield:char comm[16];\toffset:12;\tsize:16;\tsigned:1;\n'
                                    '\tfield:const char * how;\toffset:32;\tsize:8;\tsigned:0;\n'
                                    '\tfield:int cntr_cpu;\toffset:40;\tsize:4;\tsigned:1;\n',
                              '"pid=%d comm=%s how=%s cntr_cpu=%d", REC->pid, REC->comm, REC->how, REC->cntr_cpu'),
}
SYSTEMS = {'sched': ['sched_switch', 'sched_wakeup'],
           'irq': ['softirq_raise', 'softirq_entry', 'softirq_exit'],
           'rcu_poll': ['rcu_poll_call_rcu', 'rcu_poll_batch_start', 'rcu_poll_qs', 'rcu_poll_batch_end',
                        'rcu_poll_invoke', 'rcu_poll_kick', 'rcu_poll_stall', 'rcu_poll_holdout',
                        'rcu_poll_cpu_qs', 'rcu_poll_preempt_task']}

dump = open(sys.argv[1]).read()
formats, layout, ids = {}, {}, {}
for sysname, names in SYSTEMS.items():
    for name in names:
        if name in NEW_EVENTS:
            i, fields, fmt = NEW_EVENTS[name]
            text = 'name: %s\nID: %d\nformat:\n%s%s\nprint fmt: %s\n' % (name, i, COMMON, fields, fmt)
        else:
            m = re.search(r'(name: %s\nID: \d+\nformat:\n.*?print fmt: [^\n]*\n)' % name, dump, re.S)
            text = m.group(1)
        formats[name] = text
        ids[name] = int(re.search(r'ID: (\d+)', text).group(1))
        layout[name] = [(f.split()[-1].split('[')[0], f, int(o), int(s))
                        for f, o, s in re.findall(r'field:([^;]*);\toffset:(\d+);\tsize:(\d+);', text)]

# Tracepoint strings and functions, at made-up kernel addresses.
STRINGS = {}
for s in ['rcu_poll', 'rcu_poll_preempt', 'qs', 'flip', 'offline', 'switch', 'preempt', 'user', 'idle',
          'kernel', 'softirq', 'get', 'put', 'cpu', 'task']:
    STRINGS[s] = 0xffffffff82000000 + 0x40 * len(STRINGS)
FUNCS = {f: 0xffffffff81000000 + 0x100 * i for i, f in enumerate(['cb_a', 'cb_b', 'cb_c', 'cb_d'])}


def pack(name, pid, kw):
    """The payload of one event: common fields, then fields by name."""
    size = max(o + s for _, _, o, s in layout[name])
    rec = bytearray(size)
    dyn = b''
    struct.pack_into('<HBBi', rec, 0, ids[name], 0, 0, pid)
    for fname, decl, off, sz in layout[name]:
        if fname.startswith('common_') or fname not in kw:
            continue
        v = kw[fname]
        if '__data_loc' in decl:   # bitmask: (length << 16 | offset), data after the record
            data = struct.pack('<Q', v)
            struct.pack_into('<I', rec, off, (len(data) << 16) | (size + len(dyn)))
            dyn += data
        elif '[' in decl:          # char comm[16]
            rec[off:off + sz] = v.encode()[:sz - 1].ljust(sz, b'\0')
        else:
            if isinstance(v, str):
                v = STRINGS[v] if v in STRINGS else FUNCS[v]
            fmt = {1: 'b', 2: 'h', 4: 'i', 8: 'q'}[sz]
            struct.pack_into('<' + (fmt.upper() if v >= 1 << (8 * sz - 1) else fmt), rec, off, v)
    return bytes(rec + dyn)


EVENTS = []  # (ts in ns, cpu, payload)


def ev(t, on_cpu, name, common_pid=0, **kw):
    """Event @name recorded on CPU @on_cpu at @t seconds, fields @kw."""
    EVENTS.append((round(t * 1e9), on_cpu, pack(name, common_pid, kw)))


def switch(t, cpu, prev, prev_pid, nxt, next_pid, state=0):
    ev(t, cpu, 'sched_switch', prev_pid, prev_comm=prev, prev_pid=prev_pid, prev_prio=120,
       prev_state=state, next_comm=nxt, next_pid=next_pid, next_prio=120)


def sirq(t, cpu, vec, pid):
    ev(t, cpu, 'softirq_entry', pid, vec=vec)
    ev(t + 2e-6, cpu, 'softirq_exit', pid, vec=vec)


def cpu_qs(t, cpu, how, qs, pid):
    ev(t, cpu, 'rcu_poll_cpu_qs', pid, how=how, qs=qs)


def start(t, cpu, fl, nr, ncbs, pid):
    ev(t, cpu, 'rcu_poll_batch_start', pid, flavour=fl, cpu=cpu, batch=nr, ncbs=ncbs, nwait=2, waits=3)


def seen(t, cpu, fl, nr, qs_cpu, how, before, after, pid):
    ev(t, cpu, 'rcu_poll_qs', pid, flavour=fl, cpu=cpu, batch=nr, qs_cpu=qs_cpu, how=how,
       qs_before=before, qs_after=after, age_ns=0)


def end(t, cpu, fl, nr, ncbs, pid):
    ev(t, cpu, 'rcu_poll_batch_end', pid, flavour=fl, cpu=cpu, batch=nr, ncbs=ncbs, duration_ns=0)


def call(t, cpu, fl, rhp, func, inflight, pid):
    ev(t, cpu, 'rcu_poll_call_rcu', pid, flavour=fl, cpu=cpu, rhp=rhp, func=func, nxt=1, cur=0,
       batch=inflight)


# CPU 0 runs "worker" (pid 200), CPU 1 "spinner" (pid 300) from 0.9 s.
switch(0.5, 0, 'swapper/0', 0, 'worker', 200)
switch(0.9, 1, 'swapper/1', 0, 'spinner', 300)
# 1. rcu_poll 10 of CPU 0: CPU 1 passes its first quiescent state only at
#    a tick 20 ms on (spinner in a reader), interrupts on.
start(1.0, 0, 'rcu_poll', 10, 1, 200)
cpu_qs(1.000010, 0, 'switch', 101, 200)
switch(1.000010, 0, 'worker', 200, 'worker2', 201)
sirq(1.005, 1, 1, 300)
cpu_qs(1.020, 1, 'kernel', 51, 300)
sirq(1.0209, 0, 9, 201)
seen(1.021, 0, 'rcu_poll', 10, 0, 'qs', 100, 101, 201)
seen(1.021005, 0, 'rcu_poll', 10, 1, 'qs', 50, 51, 201)
end(1.021010, 0, 'rcu_poll', 10, 1, 201)
# 2. rcu_poll 11 of CPU 1: both CPUs pass within 0.1 ms, but CPU 1 takes
#    no interrupt, so does not poll, for 14.9 ms while "hog" runs.
start(2.0, 1, 'rcu_poll', 11, 1, 300)
cpu_qs(2.000050, 0, 'idle', 102, 0)
cpu_qs(2.000100, 1, 'switch', 52, 300)
switch(2.000100, 1, 'spinner', 300, 'hog', 301)
sirq(2.015, 1, 9, 301)
seen(2.015010, 1, 'rcu_poll', 11, 0, 'qs', 101, 102, 301)
seen(2.015015, 1, 'rcu_poll', 11, 1, 'qs', 51, 52, 301)
end(2.015020, 1, 'rcu_poll', 11, 1, 301)
# 2b. rcu_poll 20 of CPU 1: both CPUs pass within 0.05 ms, but "fifo"
#    (pid 302), a SCHED_FIFO task on CPU 1 from 2.1, wakes ksoftirqd/1 at
#    2.1001 and keeps it off the CPU: CPU 1's softirqs, RCU_SOFTIRQ too,
#    wait 300 ms for ksoftirqd/1 (interrupts on), which runs at 2.4.
start(2.09, 1, 'rcu_poll', 20, 1, 301)
cpu_qs(2.09005, 0, 'idle', 103, 0)
cpu_qs(2.1, 1, 'switch', 53, 301)
switch(2.1, 1, 'hog', 301, 'fifo', 302)
ev(2.1001, 1, 'sched_wakeup', 302, comm='ksoftirqd/1', pid=14, prio=120, target_cpu=1)
switch(2.4, 1, 'fifo', 302, 'ksoftirqd/1', 14)
sirq(2.40001, 1, 9, 14)
seen(2.40002, 1, 'rcu_poll', 20, 0, 'qs', 102, 103, 14)
seen(2.40003, 1, 'rcu_poll', 20, 1, 'qs', 52, 53, 14)
end(2.40004, 1, 'rcu_poll', 20, 1, 14)
switch(2.5, 1, 'ksoftirqd/1', 14, 'hog', 301)
# 3. rcu_poll_preempt 3: "reader" (pid 400) preempted on CPU 1 inside a
#    reader holds CPU 1's counter 50 ms after every CPU flipped.
ev(2.9, 1, 'rcu_poll_preempt_task', 400, pid=400, comm='reader', how='get', cntr_cpu=1)
ev(2.95, 1, 'rcu_poll_preempt_task', 401, pid=401, comm='other', how='get', cntr_cpu=1)
ev(2.96, 1, 'rcu_poll_preempt_task', 401, pid=401, comm='other', how='put', cntr_cpu=1)
start(3.0, 0, 'rcu_poll_preempt', 3, 1, 201)
cpu_qs(3.000010, 0, 'switch', 104, 201)
cpu_qs(3.000015, 1, 'kernel', 54, 301)
cpu_qs(3.000020, 1, 'switch', 55, 301)
seen(3.000030, 0, 'rcu_poll_preempt', 3, 0, 'flip', 0, 0, 201)
ev(3.050, 1, 'rcu_poll_preempt_task', 400, pid=400, comm='reader', how='put', cntr_cpu=1)
seen(3.050010, 1, 'rcu_poll_preempt', 3, 1, 'flip', 0, 0, 400)
end(3.050020, 1, 'rcu_poll_preempt', 3, 1, 400)
# 4. rcu_poll 12 of CPU 0, in flight at the end: CPU 1 runs "irqoff"
#    (pid 500) from 3.99 s with no interrupt; callbacks in it and behind.
switch(3.99, 1, 'reader', 400, 'irqoff', 500)
call(3.995, 0, 'rcu_poll', 0x1000, 'cb_a', 0, 201)
start(4.0, 0, 'rcu_poll', 12, 1, 201)
cpu_qs(4.000010, 0, 'switch', 105, 201)
switch(4.000010, 0, 'worker2', 201, 'worker', 200)
for i, f in enumerate(['cb_b', 'cb_b', 'cb_c']):
    call(4.01 + i * 0.01, 0, 'rcu_poll', 0x2000 + 0x100 * i, f, 12, 200)
sirq(4.2, 0, 1, 200)
# 5. A callback on CPU 1 with no batch in flight there: none starts.
call(4.1, 1, 'rcu_poll', 0x3000, 'cb_d', 0, 500)
sirq(4.5, 0, 1, 200)


tracedat.write(sys.argv[2], SYSTEMS, formats, FUNCS, STRINGS,
               b'14 ksoftirqd/1\n200 worker\n201 worker2\n300 spinner\n301 hog\n302 fifo\n400 reader\n401 other\n500 irqoff\n', EVENTS)
