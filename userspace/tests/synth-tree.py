#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""synth-tree.py EVENTS OUT: a small Tree RCU trace.dat with known answers.

Writes a version 6 trace.dat, event by event, on two CPUs, of a kernel
running Tree RCU (no rcu_poll events): one grace period of each kind that
"rcupoll report" names, plus callbacks and a stall warning.  EVENTS is
"trace-cmd dump --events" of a real trace.dat, for the sched and irq
formats; the rcu formats are written here from Linux 6.1's
include/trace/events/rcu.h (x86_64 offsets), so the test needs no Tree
RCU guest.  The answers are in the comments below and in test-tree.sh.
"""
import re
import struct
import sys

import tracedat

from tracedat import COMMON


def f(decl, off, size, signed):
    return '\tfield:%s;\toffset:%d;\tsize:%d;\tsigned:%d;\n' % (decl, off, size, signed)


NAME = f('const char * rcuname', 8, 8, 0)
RCU_EVENTS = {
    'rcu_grace_period': (9101, NAME + f('long gp_seq', 16, 8, 1) + f('const char * gpevent', 24, 8, 0),
                         '"%s %ld %s", REC->rcuname, REC->gp_seq, REC->gpevent'),
    'rcu_grace_period_init': (9102, NAME + f('long gp_seq', 16, 8, 1) + f('u8 level', 24, 1, 0) +
                              f('int grplo', 28, 4, 1) + f('int grphi', 32, 4, 1) +
                              f('unsigned long qsmask', 40, 8, 0),
                              '"%s %ld %u %d %d %lx", REC->rcuname, REC->gp_seq, REC->level, '
                              'REC->grplo, REC->grphi, REC->qsmask'),
    'rcu_quiescent_state_report': (9103, NAME + f('long gp_seq', 16, 8, 1) +
                                   f('unsigned long mask', 24, 8, 0) + f('unsigned long qsmask', 32, 8, 0) +
                                   f('u8 level', 40, 1, 0) + f('int grplo', 44, 4, 1) +
                                   f('int grphi', 48, 4, 1) + f('u8 gp_tasks', 52, 1, 0),
                                   '"%s %ld %lx>%lx %u %d %d %u", REC->rcuname, REC->gp_seq, REC->mask, '
                                   'REC->qsmask, REC->level, REC->grplo, REC->grphi, REC->gp_tasks'),
    'rcu_fqs': (9104, NAME + f('long gp_seq', 16, 8, 1) + f('int cpu', 24, 4, 1) +
                f('const char * qsevent', 32, 8, 0),
                '"%s %ld %d %s", REC->rcuname, REC->gp_seq, REC->cpu, REC->qsevent'),
    'rcu_stall_warning': (9105, NAME + f('const char * msg', 16, 8, 0), '"%s %s", REC->rcuname, REC->msg'),
    'rcu_callback': (9106, NAME + f('void * rhp', 16, 8, 0) + f('void * func', 24, 8, 0) +
                     f('long qlen', 32, 8, 1),
                     '"%s rhp=%p func=%ps %ld", REC->rcuname, REC->rhp, REC->func, REC->qlen'),
    'rcu_preempt_task': (9108, NAME + f('long gp_seq', 16, 8, 1) + f('int pid', 24, 4, 1),
                         '"%s %ld %d", REC->rcuname, REC->gp_seq, REC->pid'),
    'rcu_unlock_preempted_task': (9109, NAME + f('long gp_seq', 16, 8, 1) + f('int pid', 24, 4, 1),
                                  '"%s %ld %d", REC->rcuname, REC->gp_seq, REC->pid'),
    'rcu_barrier': (9110, NAME + f('const char * s', 16, 8, 0) + f('int cpu', 24, 4, 1) +
                    f('int cnt', 28, 4, 1) + f('unsigned long done', 32, 8, 0),
                    '"%s %s cpu %d remaining %d # %lu", REC->rcuname, REC->s, REC->cpu, REC->cnt, REC->done'),
    'rcu_invoke_callback': (9107, NAME + f('void * rhp', 16, 8, 0) + f('void * func', 24, 8, 0),
                            '"%s rhp=%p func=%ps", REC->rcuname, REC->rhp, REC->func'),
}
SYSTEMS = {'sched': ['sched_switch', 'sched_wakeup'],
           'irq': ['softirq_raise', 'softirq_entry', 'softirq_exit'],
           'rcu': list(RCU_EVENTS)}

dump = open(sys.argv[1]).read()
formats, layout, ids = {}, {}, {}
for sysname, names in SYSTEMS.items():
    for name in names:
        if name in RCU_EVENTS:
            i, fields, fmt = RCU_EVENTS[name]
            text = 'name: %s\nID: %d\nformat:\n%s%s\nprint fmt: %s\n' % (name, i, COMMON, fields, fmt)
        else:
            m = re.search(r'(name: %s\nID: \d+\nformat:\n.*?print fmt: [^\n]*\n)' % name, dump, re.S)
            text = m.group(1)
        formats[name] = text
        ids[name] = int(re.search(r'ID: (\d+)', text).group(1))
        layout[name] = [(fl.split()[-1].split('[')[0], fl, int(o), int(s))
                        for fl, o, s in re.findall(r'field:([^;]*);\toffset:(\d+);\tsize:(\d+);', text)]

# Tracepoint strings and functions, at made-up kernel addresses.
STRINGS = {}
for s in ['rcu_preempt', 'preempt_rcu', 'rcu_preempt-GPS', 'start', 'end', 'cpustart', 'cpuqs', 'fqsstart', 'fqsend', 'dti',
          'StallDetected', 'newreq', 'Begin', 'IRQ', 'CB', 'LastCB', 'End', 'EarlyExit']:
    STRINGS[s] = 0xffffffff82000000 + 0x40 * len(STRINGS)
FUNCS = {fn: 0xffffffff81000000 + 0x100 * i for i, fn in enumerate(['cb_a', 'cb_b', 'cb_c', 'cb_d'])}


def pack(name, pid, kw):
    """The payload of one event: common fields, then fields by name."""
    size = max(o + s for _, _, o, s in layout[name])
    rec = bytearray(size)
    struct.pack_into('<HBBi', rec, 0, ids[name], 0, 0, pid)
    for fname, decl, off, sz in layout[name]:
        if fname.startswith('common_') or fname not in kw:
            continue
        v = kw[fname]
        if '[' in decl:            # char comm[16]
            rec[off:off + sz] = v.encode()[:sz - 1].ljust(sz, b'\0')
            continue
        if isinstance(v, str):
            v = STRINGS[v] if v in STRINGS else FUNCS[v]
        fmt = {1: 'b', 2: 'h', 4: 'i', 8: 'q'}[sz]
        struct.pack_into('<' + (fmt.upper() if v >= 1 << (8 * sz - 1) else fmt), rec, off, v)
    return bytes(rec)


EVENTS = []  # (ts in ns, cpu, payload)
KTHREAD = 16  # rcu_preempt, the grace-period kthread


def ev(t, on_cpu, name, common_pid=0, **kw):
    EVENTS.append((round(t * 1e9), on_cpu, pack(name, common_pid, kw)))


def switch(t, cpu, prev, prev_pid, nxt, next_pid, state=0):
    ev(t, cpu, 'sched_switch', prev_pid, prev_comm=prev, prev_pid=prev_pid, prev_prio=120,
       prev_state=state, next_comm=nxt, next_pid=next_pid, next_prio=120)


def sirq(t, cpu, vec, pid):
    ev(t, cpu, 'softirq_entry', pid, vec=vec)
    ev(t + 2e-6, cpu, 'softirq_exit', pid, vec=vec)


def gp(t, cpu, seq, what, pid):
    ev(t, cpu, 'rcu_grace_period', pid, rcuname='rcu_preempt', gp_seq=seq, gpevent=what)


def start(t, seq):
    gp(t, 0, seq, 'start', KTHREAD)
    ev(t + 1e-6, 0, 'rcu_grace_period_init', KTHREAD, rcuname='rcu_preempt', gp_seq=seq, level=0,
       grplo=0, grphi=1, qsmask=3)


def report(t, cpu, seq, mask, left, pid):
    ev(t, cpu, 'rcu_quiescent_state_report', pid, rcuname='rcu_preempt', gp_seq=seq, mask=mask,
       qsmask=left, level=0, grplo=0, grphi=1, gp_tasks=0)


def call(t, cpu, rhp, func, pid):
    ev(t, cpu, 'rcu_callback', pid, rcuname='rcu_preempt', rhp=rhp, func=func, qlen=1)


def invoke(t, cpu, rhp, func, pid):
    ev(t, cpu, 'rcu_invoke_callback', pid, rcuname='rcu_preempt', rhp=rhp, func=func)


# CPU 0 runs "worker" (pid 200), CPU 1 "spinner" (pid 300) from 0.9 s.
switch(0.5, 0, 'swapper/0', 0, 'worker', 200)
switch(0.9, 1, 'swapper/1', 0, 'spinner', 300)
call(0.95, 0, 0x4000, 'cb_d', 200)
# 1. gp_seq -1195 (gp_seq starts at -1200 at boot): CPU 1 passes its
#    quiescent state only at 1.020, spinner in a reader, interrupts on;
#    two FQS scans meanwhile.  cb_d waited for it: 70.5 ms.
start(1.0, -1195)
gp(1.000005, 0, -1195, 'cpustart', 200)
gp(1.000010, 0, -1195, 'cpuqs', 200)
report(1.000012, 0, -1195, 1, 2, 200)
gp(1.003, 0, -1195, 'fqsstart', KTHREAD)
gp(1.003002, 0, -1195, 'fqsend', KTHREAD)
sirq(1.005, 1, 1, 300)
gp(1.005001, 1, -1195, 'cpustart', 300)
gp(1.013, 0, -1195, 'fqsstart', KTHREAD)
gp(1.013002, 0, -1195, 'fqsend', KTHREAD)
sirq(1.015, 0, 1, 200)  # CPU 0's interrupts are on meanwhile
gp(1.020, 1, -1195, 'cpuqs', 300)
switch(1.020001, 1, 'spinner', 300, 'hog', 301)
report(1.020050, 1, -1195, 2, 0, 301)
gp(1.020100, 0, -1195, 'end', KTHREAD)
invoke(1.0205, 0, 0x4000, 'cb_d', 200)
# rcu_barrier(): worker (CPU 0) from 1.1 waits 30 ms for its two
# callbacks (one per CPU); spinner (CPU 1) calls it at 1.11 and exits
# early at 1.130005, when worker's call is done.
def barrier(t, cpu, what, pid, cnt=0):
    ev(t, cpu, 'rcu_barrier', pid, rcuname='rcu_preempt', s=what, cpu=-1, cnt=cnt, done=4)


barrier(1.1, 0, 'Begin', 200)
barrier(1.1001, 0, 'IRQ', 200, 2)
barrier(1.11, 1, 'Begin', 300)
barrier(1.12, 0, 'CB', 200, 1)
barrier(1.129, 1, 'LastCB', 300)
barrier(1.13, 0, 'End', 200)
barrier(1.130005, 1, 'EarlyExit', 300)
# 2. gp_seq -1191: CPU 1 idle, reported by an FQS scan (dti) at 2.003;
#    the kthread ends the grace period only 27 ms later.
switch(1.5, 1, 'hog', 301, 'swapper/1', 0)
start(2.0, -1191)
gp(2.000010, 0, -1191, 'cpuqs', 200)
report(2.000012, 0, -1191, 1, 2, 200)
gp(2.003, 0, -1191, 'fqsstart', KTHREAD)
ev(2.003001, 0, 'rcu_fqs', KTHREAD, rcuname='rcu_preempt', gp_seq=-1195, cpu=1, qsevent='dti')
report(2.003002, 0, -1191, 2, 0, KTHREAD)
gp(2.003010, 0, -1191, 'fqsend', KTHREAD)
gp(2.030, 0, -1191, 'end', KTHREAD)
# 3. gp_seq -1187: CPU 1 passes its quiescent state at 3.001 (spinner,
#    outside a reader) but its RCU_SOFTIRQ reports it only at 3.015.
#    Before it, a grace period asked for at 2.6 (newreq) starts only at
#    3.0: the kthread, woken onto CPU 1 at 2.6001, where spinner runs with
#    interrupts off, gets CPU 1 only at 2.99999.
switch(2.5, 1, 'swapper/1', 0, 'spinner', 300)
gp(2.6, 0, -1188, 'newreq', 200)
ev(2.6001, 0, 'sched_wakeup', 200, comm='rcu_preempt', pid=KTHREAD, prio=120, target_cpu=1)
for i in range(1, 8):  # CPU 0's interrupts are on: softirqs every 50 ms
    sirq(2.6 + 0.05 * i, 0, 1, 200)
switch(2.99999, 1, 'spinner', 300, 'rcu_preempt', KTHREAD)
switch(3.00002, 1, 'rcu_preempt', KTHREAD, 'spinner', 300)
start(3.0, -1187)
gp(3.000010, 0, -1187, 'cpuqs', 200)
report(3.000012, 0, -1187, 1, 2, 200)
gp(3.001, 1, -1187, 'cpuqs', 300)
sirq(3.0149, 1, 9, 300)
report(3.015, 1, -1187, 2, 0, 300)
gp(3.0151, 0, -1187, 'end', KTHREAD)
# 4. gp_seq -1183: "reader" (pid 400), running on CPU 1 from 3.19, is
#    preempted inside its reader at 3.194, before the grace period
#    starts, and leaves it at 3.2501; rcu_gp_init() names it as the
#    first blocked task with rcu_unlock_preempted_task "rcu_preempt-GPS"
#    (it does not leave its reader there); both CPUs reported by 3.2001,
#    but the rcu_node tree waits for the reader (gp_tasks) until 3.2501.
#    "other" (pid 401), preempted in a reader and out of it before any
#    CPU reported, did not hold it.
ev(3.189, 1, 'rcu_preempt_task', 401, rcuname='rcu_preempt', pid=401, gp_seq=-1183)
ev(3.1891, 1, 'rcu_unlock_preempted_task', 401, rcuname='rcu_preempt', gp_seq=-1183, pid=401)
switch(3.19, 1, 'spinner', 300, 'reader', 400)
ev(3.194, 1, 'rcu_preempt_task', 400, rcuname='rcu_preempt', pid=400, gp_seq=-1187)
switch(3.194001, 1, 'reader', 400, 'spinner', 300)
start(3.195, -1183)
ev(3.195001, 0, 'rcu_unlock_preempted_task', KTHREAD, rcuname='rcu_preempt-GPS', gp_seq=-1183, pid=400)
gp(3.195010, 0, -1183, 'cpuqs', 200)
report(3.195012, 0, -1183, 1, 2, 200)
gp(3.2, 1, -1183, 'cpuqs', 300)
ev(3.200100, 1, 'rcu_quiescent_state_report', 300, rcuname='rcu_preempt', gp_seq=-1183, mask=2,
   qsmask=0, level=0, grplo=0, grphi=1, gp_tasks=1)
switch(3.25, 1, 'spinner', 300, 'reader', 400)
ev(3.2501, 1, 'rcu_unlock_preempted_task', 400, rcuname='rcu_preempt', gp_seq=-1183, pid=400)
# The last blocked reader's report: 6.1's rcu_read_unlock_special() names
# it "preempt_rcu", though it is rcu_preempt's (tree_plugin.h).
ev(3.25011, 1, 'rcu_quiescent_state_report', 400, rcuname='preempt_rcu', gp_seq=-1183, mask=0,
   qsmask=0, level=0, grplo=0, grphi=1, gp_tasks=0)
switch(3.2502, 1, 'reader', 400, 'spinner', 300)
gp(3.250300, 0, -1183, 'end', KTHREAD)
# 5. gp_seq -1179: CPU 1 is idle when it starts; spinner wakes there
#    0.1 ms later (no quiescent state: CPU 1 has not noticed the grace
#    period) and holds CPU 1 with interrupts off until 3.6999, when the
#    pending timer interrupt runs its softirq; its cpuqs at 3.7.  The
#    holder is spinner, not the idle task of the start.  Interrupts were
#    off for 199.9 ms of the 200: one softirq at the edge does not make
#    them on.
switch(3.4, 1, 'spinner', 300, 'swapper/1', 0)
start(3.5, -1179)
switch(3.5001, 1, 'swapper/1', 0, 'spinner', 300)
gp(3.500010, 0, -1179, 'cpuqs', 200)
report(3.500012, 0, -1179, 1, 2, 200)
sirq(3.6999, 1, 1, 300)
gp(3.7, 1, -1179, 'cpuqs', 300)
report(3.700010, 1, -1179, 2, 0, 300)
gp(3.700020, 0, -1179, 'end', KTHREAD)
# 6. gp_seq -1175: both CPUs report within 1.01 ms; the kthread, woken
#    onto CPU 0 at 3.75102, where ipisend (pid 600) spins (in an IPI to
#    CPU 1: interrupts on, softirqs every 10 ms) without a switch, runs only
#    at 3.9, on CPU 1; CPU 1 ran spinner meanwhile with interrupts off
#    (no softirq there since 3.6999).  The report names both.
switch(3.74, 0, 'worker', 200, 'ipisend', 600)
start(3.75, -1175)
gp(3.750010, 0, -1175, 'cpuqs', 600)
report(3.750012, 0, -1175, 1, 2, 600)
gp(3.751, 1, -1175, 'cpuqs', 300)
report(3.751010, 1, -1175, 2, 0, 300)
ev(3.75102, 1, 'sched_wakeup', 300, comm='rcu_preempt', pid=KTHREAD, prio=120, target_cpu=0)
for i in range(1, 15):  # CPU 0's interrupts are on: softirqs every 10 ms
    sirq(3.75 + 0.01 * i, 0, 1, 600)
switch(3.9, 1, 'spinner', 300, 'rcu_preempt', KTHREAD)
gp(3.900010, 1, -1175, 'end', KTHREAD)
switch(3.90002, 1, 'rcu_preempt', KTHREAD, 'spinner', 300)
switch(3.9001, 0, 'ipisend', 600, 'worker', 200)
# 7. gp_seq -1171, in flight at the end: CPU 1 runs "irqoff" (pid 500)
#    from 3.99 with no interrupt; cb_a queued before it started, three
#    behind it; a stall warning at 4.4 names CPU 1.
switch(3.99, 1, 'spinner', 300, 'irqoff', 500)
call(3.995, 0, 0x1000, 'cb_a', 200)
start(4.0, -1171)
gp(4.000010, 0, -1171, 'cpuqs', 200)
report(4.000012, 0, -1171, 1, 2, 200)
for i, fn in enumerate(['cb_b', 'cb_b', 'cb_c']):
    call(4.01 + i * 0.01, 0, 0x2000 + 0x100 * i, fn, 200)
ev(4.4, 0, 'rcu_stall_warning', 200, rcuname='rcu_preempt', msg='StallDetected')
sirq(4.5, 0, 1, 200)


tracedat.write(sys.argv[2], SYSTEMS, formats, FUNCS, STRINGS,
               b'16 rcu_preempt\n200 worker\n300 spinner\n301 hog\n400 reader\n401 other\n500 irqoff\n600 ipisend\n', EVENTS)
