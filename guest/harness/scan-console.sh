#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Scan a guest console log for signs of a sick kernel: oops, BUG, WARNING,
# panic, lockdep reports, RCU stall warnings, KASAN/UBSAN reports.  Lines
# matching ALLOW (an extended regex, for splats a test provokes on purpose)
# are not counted.  Between the lines "rcu_poll-test: expect stall begin"
# and "rcu_poll-test: expect stall end", which stall tests write to
# /dev/kmsg, the stall warnings and backtraces they provoke are expected
# (EXPECTED below); everything else still counts there.  Prints the
# offending lines with context; exit 1 if any.
#
# Usage: scan-console.sh CONSOLE_LOG [ALLOW_ERE]
set -u
log=${1:?usage: scan-console.sh LOG [ALLOW_ERE]}
allow=${2:-}
bad='Kernel panic|BUG:|Oops|WARNING:|general protection fault|Call Trace:'
bad+='|possible circular locking|possible recursive locking|inconsistent lock state'
bad+='|suspicious RCU usage|detected stall|self-detected stall|rcu_poll(_preempt)? stall:'
bad+='|ended after stalling|NMI backtrace|NMI handler'
bad+='|UBSAN:|KASAN:|kernel BUG at|stack-protector|hung_task|blocked for more than'
bad+='|still running after .*killed'

[ -f "$log" ] || { echo "scan-console: no log $log"; exit 1; }
expected='Call Trace:|rcu_poll(_preempt)? stall:|ended after stalling|NMI backtrace|NMI handler'

hits=$(grep -n -E -a "$bad" "$log" || true)
# Drop expected lines inside expect-stall regions.
if [ -n "$hits" ] && grep -q -a 'rcu_poll-test: expect stall begin' "$log"; then
	inside=$(awk '/rcu_poll-test: expect stall begin/ { on = 1 }
		on { print NR }
		/rcu_poll-test: expect stall end/ { on = 0 }' "$log")
	hits=$(echo "$hits" | awk -F: -v inside="$inside" -v re="$expected" '
		BEGIN { n = split(inside, a, "\n"); for (i = 1; i <= n; i++) in_region[a[i]] = 1 }
		!($1 in in_region && $0 ~ re)')
fi
if [ -n "$allow" ] && [ -n "$hits" ]; then
	hits=$(echo "$hits" | grep -v -E -a "$allow" || true)
fi
[ -z "$hits" ] && exit 0
echo "console $log has unexpected lines:"
echo "$hits" | head -n 20 | sed 's/^/    /'
first=$(echo "$hits" | head -n 1 | cut -d: -f1)
echo "  context around line $first:"
sed -n "$((first > 5 ? first - 5 : 1)),$((first + 25))p" "$log" | sed 's/^/    | /'
exit 1
