#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Upstream locktorture, unchanged: a lock implementation's grace-period
# users (lockdep, the torture writers' frees) run on the RCU under test.
# Usage: locktorture.sh SECONDS [module parameters...]
. /usr/share/rcu_poll/lib.sh
secs=${1:?usage: locktorture.sh SECONDS [params]}
shift
kmsg_mark
load locktorture "$@"
sleep "$secs"
rmmod locktorture || fail "rmmod locktorture failed"
out=$(kmsg_since)
echo "$out" | grep -i 'torture' | tail -n 20
echo "$out" | grep -q 'End of test: SUCCESS' || fail "no 'End of test: SUCCESS'"
echo "$out" | grep -q 'End of test: FAILURE' && fail "locktorture reports FAILURE"
exit 0
