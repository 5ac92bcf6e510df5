#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Host test of what the guest's tool test (guest/tests/tool.sh) left in
# /host/out: the host's rcupoll report and trace-cmd read the trace.dat
# that rcupoll record wrote in the guest (the same N test callbacks,
# queued and invoked), the libtraceevent plugin prints CPU lists and
# durations in it, the flight recorder's files are private, and a
# truncated copy is refused.  Replaces host-tool-report and host-plugin.
#
#   TOP=<project> OUT=<scratch dir> GUEST_OUT=<the guest's /host/out> \
#     bash userspace/tests/test-guest-files.sh
set -uo pipefail
: "${TOP:?}" "${OUT:?}" "${GUEST_OUT:?}"
R=${RCUPOLL:-$TOP/build/userspace/rcupoll}
PLUG=$TOP/build/tracepoints
mkdir -p "$OUT"
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
ok() { echo "ok: $*"; }
dat=$GUEST_OUT/tool.dat
[ -f "$dat" ] && [ -f "$dat.n" ] || { echo "FAIL: no $dat from the guest"; exit 1; }
n=$(cat "$dat.n")

"$R" report "$dat" > "$OUT/gf-report.txt" 2>&1 || { cat "$OUT/gf-report.txt"; fail "rcupoll report failed"; }
cat "$OUT/gf-report.txt"
grep -q "^  rcu_poll  *rcu_poll_test_cb  *$n  *$n " "$OUT/gf-report.txt" &&
	ok "the host's report counts $n test callbacks queued and invoked" ||
	fail "the host's report lacks $n rcu_poll_test_cb callbacks queued and invoked"
trace-cmd report -i "$dat" > "$OUT/gf-tc.txt" 2>&1 || fail "trace-cmd report failed"
got=$(grep -c 'rcu_poll_call_rcu: .*func=rcu_poll_test_cb' "$OUT/gf-tc.txt")
[ "$got" = "$n" ] && ok "trace-cmd reads $n rcu_poll_call_rcu events of the test" ||
	fail "trace-cmd reads $got rcu_poll_call_rcu events of the test, not $n"
[ "$(stat -c %a "$dat")" = 600 ] && ok "tool.dat is mode 0600" || fail "tool.dat is mode $(stat -c %a "$dat")"
for f in rcupoll-stall.dat rcupoll-stall.txt; do
	[ -f "$GUEST_OUT/$f" ] || { fail "no $f from the guest"; continue; }
	[ "$(stat -c %a "$GUEST_OUT/$f")" = 600 ] && ok "$f is mode 0600" || fail "$f is mode $(stat -c %a "$GUEST_OUT/$f")"
done

# The libtraceevent plugin: CPU lists and durations; without it, raw.
[ -f "$PLUG/plugin_rcu_poll.so" ] || make --no-print-directory -s -C "$TOP/tracepoints" O="$PLUG"
TRACEEVENT_PLUGIN_DIR=$PLUG trace-cmd report -V -i "$dat" 2>&1 | grep "registering plugin: .*plugin_rcu_poll.so" > /dev/null &&
	ok "trace-cmd loads plugin_rcu_poll.so" || fail "trace-cmd does not load plugin_rcu_poll"
TRACEEVENT_PLUGIN_DIR=$PLUG trace-cmd report -i "$dat" > "$OUT/gf-plugin.txt" 2>&1 || fail "report with the plugin failed"
grep -q 'rcu_poll_batch_start: *rcu_poll cpu=[0-9]* batch=[0-9]* ncbs=[0-9]* nwait=2 waits=0-1$' "$OUT/gf-plugin.txt" &&
	ok "the plugin prints waits as a CPU list" || fail "the plugin does not print waits as a CPU list"
grep -q 'rcu_poll_batch_end: .* duration=[0-9.]*[mu]s$' "$OUT/gf-plugin.txt" &&
	ok "the plugin prints durations" || fail "the plugin does not print durations"
trace-cmd report -N -i "$dat" 2>/dev/null | grep "waits=00000000,00000003" > /dev/null &&
	ok "without plugins the raw mask shows" || fail "without plugins the raw mask should show"

# A truncated copy: one line, exit 1.
head -c 5000 "$dat" > "$OUT/gf-truncated.dat"
"$R" report "$OUT/gf-truncated.dat" > "$OUT/gf-trunc.out" 2> "$OUT/gf-trunc.err"
rc=$?
[ "$rc" = 1 ] && grep -q '^rcupoll: report: .*not a readable trace.dat' "$OUT/gf-trunc.err" &&
	ok "a truncated trace.dat is refused: $(cat "$OUT/gf-trunc.err")" || fail "a truncated trace.dat: exit $rc, $(cat "$OUT/gf-trunc.err")"
[ "$fails" = 0 ] && echo "test-guest-files: all passed" || echo "test-guest-files: $fails failed"
[ "$fails" = 0 ]
