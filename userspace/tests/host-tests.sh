# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# Host tests of the userspace tools (rcupoll, the libtraceevent plugin, the
# KernelShark plugin), sourced by guest/harness/test.sh, which runs each
# through host_test.  Functions only: each writes its output to stdout,
# says "FAIL: reason" and returns 1 on failure.  Uses TOP and OUT; the
# t_host_* tests read what a guest boot left in $OUT/BOOT/out/.

# trace.dat recorded in the guest reads back on the host.
t_host_report() {
	local dat=$OUT/$1/out/trace.dat want got rep=$OUT/host-report.txt
	[ -f "$dat" ] || { echo "FAIL: no $dat from the guest"; return 1; }
	trace-cmd report -i "$dat" > "$rep" 2>&1 || { echo "FAIL: trace-cmd report failed"; return 1; }
	head -n 5 "$rep"
	want=$(cat "$dat.sched_switch")
	got=$(grep -c 'sched_switch:' "$rep")
	[ "$got" = "$want" ] || { echo "FAIL: host sees $got sched_switch events, guest saw $want"; return 1; }
	want=$(cat "$dat.rcu_callback")
	got=$(grep -c 'rcu_callback:' "$rep")
	[ "$got" = "$want" ] || { echo "FAIL: host sees $got rcu_callback events, guest saw $want"; return 1; }
	trace-cmd dump --events -i "$dat" 2>/dev/null > "$rep.events"
	grep -q 'name: rcu_callback' "$rep.events" ||
		{ echo "FAIL: rcu_callback format missing from trace.dat"; return 1; }
	# The RCU name is a tracepoint string: the host prints it as text.
	grep -q "rcu_callback: *$2 " "$rep" ||
		{ echo "FAIL: no 'rcu_callback: $2' line: tracepoint string unreadable on the host"; return 1; }
	grep -m 2 'rcu_callback:' "$rep"
	echo "host report: $got rcu_callback events named $2, as in the guest"
}

# make static (sparse, coccinelle) on the kernels make test just built.
t_static() {
	OUT=$OUT/static OBJ_POLL=${KERNEL_poll%/arch/x86/boot/bzImage} \
		OBJ_TREE=${KERNEL_tree%/arch/x86/boot/bzImage} "$TOP/guest/harness/static.sh"
}

# KernelShark, headless, opens the fixture with both plugins and keeps
# running; the rcu_poll plugin loads without complaint.
t_kshark_loads() {
	local png=$OUT/kshark-fixture.png log=$OUT/kshark-fixture.log
	TOP=$TOP DAT=$TOP/userspace/tests/stall-flight.dat PNG=$png WAIT=15 KSLOG=$log \
		"$TOP/guest/dev/screenshot.sh" || return 1
	cat "$log"
	grep -i 'rcu_poll.*fail\|fail.*rcu_poll' "$log" && { echo "FAIL: the rcu_poll plugin failed"; return 1; }
	# The plugin's own colours: quiescent-state ticks (30,60,200) and the
	# red bar of the batch that never ends in this recording (220,30,30).
	convert "$png" txt:- > "$OUT/kshark-fixture.txt" || return 1
	grep -qi '#1E3CC8' "$OUT/kshark-fixture.txt" || { echo "FAIL: no quiescent-state ticks drawn"; return 1; }
	grep -qi '#DC1E1E' "$OUT/kshark-fixture.txt" || { echo "FAIL: no stuck-batch bar drawn"; return 1; }
	rm -f "$OUT/kshark-fixture.txt"
	echo "KernelShark loaded the fixture with the rcu_poll plugins: $png"
}

# The host test scripts of userspace/tests, each in its own scratch dir.
# test-report: rcupoll report's exact answers on the fixtures, json/csv
# read by real parsers, bad input refused.  test-tree: the same on Tree
# RCU traces (synthetic, and the tree-hold.dat fixture).  test-cli: options, exit
# codes, messages, man page.  test-kshark: two streams, each drawn.
t_userspace_script() {
	TOP=$TOP OUT=$OUT/$1 bash "$TOP/userspace/tests/$1.sh"
}

# What the guest's tool test left in BOOT/out: read back on the host by
# rcupoll report, trace-cmd and the libtraceevent plugin.
t_guest_files() {
	GUEST_OUT=$OUT/$1/out TOP=$TOP OUT=$OUT/guest-files bash "$TOP/userspace/tests/test-guest-files.sh"
}
