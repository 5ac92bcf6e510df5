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

# rcupoll report on the host reads what rcupoll record wrote in the guest,
# and refuses corrupt files.
t_host_tool_report() {
	local dat=$OUT/$1/out/tool.dat rep=$OUT/host-tool-report.txt n
	[ -f "$dat" ] || { echo "FAIL: no $dat from the guest"; return 1; }
	n=$(cat "$dat.n")
	"$TOP/build/userspace/rcupoll" report "$dat" > "$rep" 2>&1 || { cat "$rep"; echo "FAIL: rcupoll report failed"; return 1; }
	cat "$rep"
	grep -q "^  rcu_poll_test_cb  *$n " "$rep" || { echo "FAIL: host report lacks $n rcu_poll_test_cb callbacks"; return 1; }
	head -c 5000 "$dat" > "$OUT/truncated.dat"
	if "$TOP/build/userspace/rcupoll" report "$OUT/truncated.dat" > "$rep.err" 2>&1; then
		echo "FAIL: a truncated trace.dat was accepted"; return 1
	fi
	grep -q '^rcupoll: ' "$rep.err" || { echo "FAIL: no message for a truncated file"; return 1; }
	cat "$rep.err"
}

# The libtraceevent plugin makes trace-cmd report print CPU lists and
# durations; without it, the raw masks and nanoseconds.
t_host_plugin() {
	local dat=$OUT/$1/out/tool.dat plug=$TOP/build/tracepoints rep=$OUT/host-plugin.txt
	[ -f "$plug/plugin_rcu_poll.so" ] || { echo "FAIL: plugin not built"; return 1; }
	TRACEEVENT_PLUGIN_DIR=$plug trace-cmd report -V -i "$dat" 2>&1 | grep "registering plugin: .*plugin_rcu_poll.so" >/dev/null ||
		{ echo "FAIL: trace-cmd does not load plugin_rcu_poll"; return 1; }
	TRACEEVENT_PLUGIN_DIR=$plug trace-cmd report -i "$dat" > "$rep" 2>&1 || { echo "FAIL: report failed"; return 1; }
	grep -m 2 'rcu_poll_batch_start:' "$rep"
	grep -m 2 'rcu_poll_batch_end:' "$rep"
	grep -q 'rcu_poll_batch_start: *rcu_poll cpu=[0-9]* batch=[0-9]* ncbs=[0-9]* nwait=2 waits=0-1$' "$rep" ||
		{ echo "FAIL: plugin does not print waits as a CPU list"; return 1; }
	grep -q 'rcu_poll_batch_end: .* duration=[0-9.]*[mu]s$' "$rep" ||
		{ echo "FAIL: plugin does not print durations"; return 1; }
	trace-cmd report -N -i "$dat" 2>/dev/null | grep 'waits=00000000,00000003' >/dev/null ||
		{ echo "FAIL: without plugins the raw mask should show"; return 1; }
	echo "plugin output checked"
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

# rcupoll report on a committed flight-recorder fixture (recorded in the
# guest by the tool test: CPU 1 held 3 s, caught at 1.5 s): exact numbers.
t_report_fixture() {
	local dat=$TOP/userspace/tests/stall-flight.dat out=$OUT/report-fixture
	"$TOP/build/userspace/rcupoll" report "$dat" > "$out.txt" || { echo "FAIL: report failed"; return 1; }
	"$TOP/build/userspace/rcupoll" report -f csv "$dat" > "$out.csv" || return 1
	"$TOP/build/userspace/rcupoll" report -f json "$dat" > "$out.json" || return 1
	cat "$out.txt"
	grep -qx '3973 events, 190 rcu_poll events, 16 batches started' "$out.txt" ||
		{ echo "FAIL: event or batch counts changed"; return 1; }
	grep -qx 'batches,rcu_poll,15,843.8,7852.6,7852.6,492.0' "$out.csv" ||
		{ echo "FAIL: batch duration summary changed"; return 1; }
	grep -qx 'in_flight,rcu_poll/5721,1,1590006.0,,,,cpu=0 waiting_for=1' "$out.csv" ||
		{ echo "FAIL: the stuck batch of CPU 0 waiting for CPU 1 is not reported"; return 1; }
	grep -qx 'slow_batch,rcu_poll/5720,1,7852.6,,,,cpu=1 last_cpu=1 comm=ksoftirqd/1' "$out.csv" ||
		{ echo "FAIL: slowest ended batch changed"; return 1; }
	python3 -c 'import json, sys; [json.loads(l) for l in open(sys.argv[1])]' "$out.json" ||
		{ echo "FAIL: json output is not JSON lines"; return 1; }
	echo "fixture report exact"
}

# The KernelShark plugin builds against Debian's libkshark-dev and exports
# the entry points KernelShark looks for (make screenshot runs it).
t_kshark_plugin() {
	local so=$TOP/build/kshark/plugin-rcu_poll.so sym
	make --no-print-directory -s -C "$TOP/tracepoints/kshark" O="$TOP/build/kshark" || return 1
	for sym in kshark_data_plugin_initializer kshark_data_plugin_deinitializer; do
		nm -D --defined-only "$so" | grep -q " T $sym$" || { echo "FAIL: $so does not export $sym"; return 1; }
	done
	echo "$so exports the KernelShark plugin entry points"
}
