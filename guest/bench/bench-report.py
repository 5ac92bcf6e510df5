#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Turn make bench's results.csv into docs/performance.md (markdown on stdout)."""
import csv
import datetime
import statistics
import sys

rows = list(csv.DictReader(open(sys.argv[1])))
runs = int(sys.argv[2])


def values(variant, smp, key, main_only=True):
    out = []
    for r in rows:
        if r['variant'] == variant and r['smp'] == str(smp) and r['key'] == key:
            if main_only and r['run'].startswith('s'):
                continue
            try:
                out.append(float(r['value']))
            except ValueError:
                pass
    return out


def med(v):
    return statistics.median(v) if v else None


def fmt(x):
    if x is None:
        return 'n/a'
    if abs(x) >= 100:
        return f'{x:,.0f}'
    return f'{x:.2f}'


METRICS = [
    ('sync_median_us', 'synchronize_rcu() latency, median (us)', 'lower', '<= 0.5'),
    ('sync_p99_us', 'synchronize_rcu() latency, p99 (us)', 'lower', ''),
    ('async_cbs_per_s', 'async updates, rcuscale gp_async, 100 call_rcu() (callbacks/s)', 'higher', '>= 1.0'),
    ('async20_cbs_per_s', 'async updates, gp_async_max=20: rcu_barrier() every 20 (callbacks/s)', 'higher', ''),
    ('read_ns', 'read side, refscale (ns per lock/unlock pair)', 'lower', '<= 1.0'),
    ('idle_res_ipis_per_s', 'idle guest: rescheduling IPIs per second', 'lower', 'zero'),
    ('idle_kicks_per_s', 'idle guest: rcu_poll forced reschedules per second', 'lower', 'zero'),
    ('flood_cbs_per_s', 'call_rcu() flood, test_rcu_poll, median of 3 per boot (callbacks/s queued and invoked)', 'higher', ''),
    ('flood_lat_p50_us', 'call_rcu() flood: call_rcu() to invocation, median (us)', '', ''),
    ('flood_lat_p99_us', 'call_rcu() flood: call_rcu() to invocation, p99 (us)', '', ''),
    ('flood_peak_pending', 'call_rcu() flood: peak pending callbacks on CPU 0', '', ''),
    ('flood_alloc_failed', 'call_rcu() flood: allocation failures (OOM)', '', ''),
]

print('# Performance: rcu_poll against Tree RCU\n')
print(f'Measured by `make bench` on {datetime.date.today().isoformat()}: the same patched 6.1 tree built twice '
      '(RCU_POLL and Tree RCU, same configuration otherwise), booted in QEMU/TCG on this 2-core machine, '
      f'{runs} boots of each at 2 vCPUs alternating poll, tree and notrace (rcu_poll built without trace events), then one boot of poll and tree at 1, 4 and 8 vCPUs. '
      'Medians over the boots, with the spread (min-max) in brackets; ratios are poll/tree from this one '
      'invocation. Absolute times under TCG are only indicative.\n')
print('| measurement | rcu_poll | Tree RCU | poll/tree | target |')
print('|---|---|---|---|---|')
for key, label, better, target in METRICS:
    p, t = values('poll', 2, key), values('tree', 2, key)
    if not p and not t:
        continue
    mp, mt = med(p), med(t)

    def cell(v, m):
        if not v:
            return 'n/a'
        return f'{fmt(m)} [{fmt(min(v))}-{fmt(max(v))}]'
    ratio = f'{mp / mt:.2f}' if mp is not None and mt else 'n/a'
    print(f'| {label} | {cell(p, mp)} | {cell(t, mt)} | {ratio} | {target} |')

print('\n## The cost of observability\n')
print('rcu_poll with its events compiled in but disabled (`poll`) against the same kernel built with '
      '`RCU_TRACE` off (`notrace`), and with every RCU event enabled and recorded by `rcupoll record` '
      'during the same flood.\n')
print('| measurement | poll (events off) | notrace (compiled out) | poll/notrace | target |')
print('|---|---|---|---|---|')
for key, label, target in (('sync_median_us', 'synchronize_rcu() latency, median (us)', '<= 1.02'),
                           ('flood_cbs_per_s', 'call_rcu() flood (callbacks/s)', '>= 0.98')):
    p, n = values('poll', 2, key), values('notrace', 2, key)
    if not p or not n:
        continue
    print(f'| {label} | {fmt(med(p))} [{fmt(min(p))}-{fmt(max(p))}] | {fmt(med(n))} [{fmt(min(n))}-{fmt(max(n))}] '
          f'| {med(p) / med(n):.3f} | {target} |')
for key, label in (('traced_flood_cbs_per_s', 'flood with all events recorded (callbacks/s)'),
                   ('traced_events', 'events recorded during that flood'),
                   ('traced_lost', 'events overwritten in the 8 MB per-CPU buffer (lost)'),
                   ('ns_per_event', 'extra flood time per event generated (ns)')):
    p = values('poll', 2, key)
    if p:
        print(f'| {label} | {fmt(med(p))} [{fmt(min(p))}-{fmt(max(p))}] | | | |')

print('\n![synchronize_rcu() latency distribution, rcu_poll and Tree RCU](performance-latency.png)\n')
print('\n## Scaling (one boot per point; TCG on 2 host cores oversubscribes past 2 vCPUs)\n')
print('| vCPUs | sync median us, poll | sync median us, tree | poll/tree | async cbs/s, poll | async cbs/s, tree |')
print('|---|---|---|---|---|---|')
for smp in (1, 2, 4, 8):
    main = smp == 2
    sp = med(values('poll', smp, 'sync_median_us', main))
    st = med(values('tree', smp, 'sync_median_us', main))
    ap = med(values('poll', smp, 'async_cbs_per_s', main))
    at = med(values('tree', smp, 'async_cbs_per_s', main))
    if sp is None and st is None:
        continue
    ratio = f'{sp / st:.2f}' if sp is not None and st else 'n/a'
    print(f'| {smp} | {fmt(sp)} | {fmt(st)} | {ratio} | {fmt(ap)} | {fmt(at)} |')
    if len(sys.argv) > 3 and sp is not None and st is not None:
        with open(sys.argv[3] + '/scaling.dat', 'a') as f:
            f.write(f'{smp} {sp} {st}\n')
print('\n![synchronize_rcu() median latency by vCPU count](performance-scaling.png)')

print('''
## What limits rcu_poll, and when Tree RCU wins

- **Grace-period latency** is where the seed's design shines: a batch forces a reschedule of every CPU
  it waits for as it starts and polls from the next tick, so `synchronize_rcu()` takes about one tick
  (HZ=1000 here) plus the IPIs, where Tree RCU's grace-period kthread waits out its own jiffies-based
  delays (`jiffies_till_first_fqs` and friends). The price is an IPI to every other online CPU per
  batch: O(CPUs) IPIs and O(CPUs) counter reads per poll, per CPU with a batch in flight.
- **Asynchronous throughput** (`gp_async`, median of 5 loads per boot) is two different things. With
  the default `gp_async_max`, a writer's 100 measured `call_rcu()`s take about half a millisecond and
  never wait: the row measures `call_rcu()` plus whatever RCU work lands on the writer's CPU in that
  window. Tree RCU does none there (its grace period is longer than the window, and its grace-period
  kthread runs on the other CPU); rcu_poll starts the batch from that CPU's tick, and invokes there any
  callbacks whose batch ends: the seed's design does a CPU's RCU work on that CPU. Before the series
  started batches from the tick, that work was starved behind the SCHED_FIFO writer until it finished
  (see the commit "Start rcu_poll batches from the tick"); in a 7-run probe the change took 100 calls
  from 0.71 to 1.38 ms, while `make bench` gave a ratio of 0.89 before the change and 0.89 and 1.08 in
  two runs after it: at half a millisecond, where the ticks fall decides this row. With
  `gp_async_max=20` the writer waits in `rcu_barrier()` every 20 callbacks, grace periods bound it,
  and rcu_poll's one-tick batches win.
- **Callback flood**: `test_rcu_poll` asks 1M `call_rcu()`/s on CPU 0 for 2 s, three times per boot; the
  rate is what the guest manages, queued and invoked, until `rcu_barrier()` returns, timed by the shell
  (0.1 s polling, so a few percent of resolution: compare the events-off and compiled-out rows with that
  in mind, and with their spread). Callbacks are invoked
  `rcu_poll.blimit` (10) per softirq pass until `qhimark` (10,000) are ready; the latency percentiles
  are from `test/latency`, a log-linear histogram (within 1/16).
- **Read side**: rcu_poll is a non-preemptible RCU, so `rcu_read_lock()` is `preempt_disable()`; the
  baseline Tree RCU is the preemptible one (the guest kernel is `PREEMPT`), whose nesting counter and
  unlock-time special-case check cost more. Against a non-preemptible Tree RCU the two would be equal.
- **Idle**: with nothing queued rcu_poll raises no softirq, keeps no tick (`rcu_needs_cpu()`) and
  sends no IPI. The idle window is timed and sampled with shell builtins only (every process exit queues
  RCU callbacks), but reading `/proc/interrupts` and `rcudata` still closes two files, and a closed file is
  freed by `call_rcu()` (`file_free_rcu`): that is the one batch, and its kicks and IPIs, left in the
  window. A 10 s `rcupoll record` of an idle guest shows exactly one callback, the recorder's own
  `file_free_rcu`. Any callback, however rare, costs a batch: one IPI per other CPU, where Tree RCU
  usually needs none. That is the idle gap to Tree RCU, and it is per callback, not per second. Closing
  it means treating a tickless idle CPU as quiescent without waking it, as Tree RCU does, which needs
  dynticks-style tracking of idle and interrupt entry (`CONTEXT_TRACKING_IDLE`, selected only by Tree RCU
  in 6.1); rcu_poll does not have it.
- **Scaling**: past 2 vCPUs TCG oversubscribes the 2 host cores, so the 4-vCPU points say more about
  QEMU than about either RCU; what grows with CPUs in rcu_poll is the per-batch polling and IPIs above.

Reproduce: `make bench` (RUNS=3 by default; `RUNS=5 make bench` for tighter medians). The raw numbers
are in `build/bench/results.csv`, each boot's log under `build/bench/`.''')
