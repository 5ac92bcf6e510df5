#!/bin/sh
# Upstream rcutorture, unchanged: load, let it run, unload, judge by its
# own verdict.  Usage: rcutorture.sh SECONDS [module parameters...]
. /usr/share/rcu_poll/lib.sh
secs=${1:?usage: rcutorture.sh SECONDS [params]}
shift
kmsg_mark
load rcutorture "$@"
sleep "$secs"
rmmod rcutorture || fail "rmmod rcutorture failed"
out=$(kmsg_since)
echo "$out" | grep -E 'rcu-torture|torture' | tail -n 30
echo "$out" | grep -q 'End of test: SUCCESS' || fail "no 'End of test: SUCCESS'"
echo "$out" | grep -q 'End of test: FAILURE' && fail "rcutorture reports FAILURE"
echo "$out" | grep -q '!!!' && fail "rcutorture printed a '!!!' line"
# Reader Pipe: how many readers saw each grace-period age; anything past
# the second column is a reader that outlived a grace period.
pipe=$(echo "$out" | grep 'Reader Pipe:' | tail -n 1 | sed 's/.*Reader Pipe: *//')
[ -n "$pipe" ] || fail "no Reader Pipe line"
late=$(echo "$pipe" | awk '{ s = 0; for (i = 3; i <= NF; i++) s += $i; print s }')
expect_eq "Reader Pipe past column 2 ($pipe)" 0 "$late"
