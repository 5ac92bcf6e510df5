# SPDX-License-Identifier: GPL-2.0
# Helpers for guest tests: source it, then call fail/expect_eq/... .
# A test exits 0 on success; fail() prints "FAIL: reason" and exits 1.

fail() {
	echo "FAIL: $*"
	exit 1
}

# expect_eq WHAT EXPECTED ACTUAL
expect_eq() {
	[ "$2" = "$3" ] || fail "$1: expected '$2', got '$3'"
	echo "ok: $1 = $3"
}

# kmsg_mark: remember where the kernel log is now; kmsg_since prints what
# came after the mark (dmesg is a ring: compare by line count).
kmsg_mark() {
	KMSG_MARK=$(dmesg | wc -l)
}
kmsg_since() {
	dmesg | tail -n +$((KMSG_MARK + 1))
}

# load MODULE [params]: modprobe, failing the test if it will not load.
load() {
	modprobe "$@" || fail "modprobe $* failed"
}
