#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Host test of rcupoll's command line, the conventions of trace-cmd and
# perf: --help for every subcommand (exit 0, on stdout), --version, long
# options, usage errors exit 2 and runtime errors exit 1, every message
# one line starting "rcupoll:", and a man page that man -l renders
# without warnings.  Nothing here traces: record and flight are only
# given command lines they refuse before touching tracefs (or run as
# nobody, which they refuse first).
#
#   TOP=<project> OUT=<scratch dir> bash userspace/tests/test-cli.sh
set -uo pipefail
: "${TOP:?}" "${OUT:?}"
R=${RCUPOLL:-$TOP/build/userspace/rcupoll}
mkdir -p "$OUT"
# Run as nobody when root: a command line that wrongly passed parsing is
# then refused for not being root, and never traces the host.
AS=()
if [ "$(id -u)" = 0 ] && command -v setpriv > /dev/null; then
	AS=(setpriv --reuid=65534 --regid=65534 --clear-groups)
	chmod 1777 "$OUT" 2> /dev/null
fi
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
ok() { echo "ok: $*"; }

expect() {	# RC STDOUT-PATTERN STDERR-PATTERN ARGS...
	local rc=$1 outp=$2 errp=$3
	shift 3
	"${AS[@]}" "$R" "$@" > "$OUT/cli.out" 2> "$OUT/cli.err"
	local got=$?
	if [ "$got" != "$rc" ]; then
		fail "'rcupoll $*': exit $got, want $rc ($(head -n 1 "$OUT/cli.err"))"
	elif [ -n "$outp" ] && ! grep -q -- "$outp" "$OUT/cli.out"; then
		fail "'rcupoll $*': stdout lacks '$outp'"
	elif [ -z "$outp" ] && [ -s "$OUT/cli.out" ]; then
		fail "'rcupoll $*': wrote to stdout"
	elif [ -n "$errp" ] && { [ "$(wc -l < "$OUT/cli.err")" -gt 2 ] || ! head -n 1 "$OUT/cli.err" | grep -q -- "^rcupoll: $errp"; }; then
		fail "'rcupoll $*': stderr '$(head -n 3 "$OUT/cli.err")' is not one 'rcupoll: $errp' line (+ hint)"
	elif [ -z "$errp" ] && [ -s "$OUT/cli.err" ]; then
		fail "'rcupoll $*': wrote to stderr: $(head -n 1 "$OUT/cli.err")"
	else
		ok "'rcupoll $*' -> $got"
	fi
}

expect 0 '^usage: rcupoll \[--version\]' '' --help
expect 0 '^usage: rcupoll \[--version\]' '' -h
expect 0 '^usage: rcupoll \[--version\]' '' help
expect 0 '^rcupoll [0-9]' '' --version
expect 0 '^rcupoll [0-9]' '' -V
for c in record flight report; do
	expect 0 "^usage: rcupoll $c" '' $c --help
	expect 0 "^usage: rcupoll $c" '' $c -h
	expect 0 "^usage: rcupoll $c" '' help $c
done
expect 2 '' 'which command' 
expect 2 '' "no command 'frobnicate'" frobnicate
expect 2 '' "unknown option '--frobnicate'" --frobnicate
expect 2 '' "no command 'nope'" help nope
expect 2 '' "record: --duration must be a whole number from 1 to 86400, not '0'" record -d 0
expect 2 '' "record: --duration must be a whole number from 1 to 86400, not 'abc'" record --duration=abc
expect 2 '' "record: --duration must be a whole number" record -d 5s
expect 2 '' "record: --duration must be a whole number" record -d ' 5'
expect 2 '' "record: --duration must be a whole number" record -d +5
expect 2 '' "record: --duration must be a whole number" record -d 99999999999999999999999
expect 2 '' "record: --buffer-size must be a whole number from 1 to 1048576, not '8M'" record -b 8M
expect 2 '' "record: option --output needs a value" record --output
expect 2 '' "record: option -o needs a value" record -o
expect 2 '' "record: option --snapshot takes no value" record --snapshot=yes
expect 2 '' "record: unknown option -x" record -x
expect 2 '' "record: --duration or a COMMAND, not both" record -d 1 -- true
expect 2 '' "flight: --threshold must be a number of milliseconds" flight -t -5
expect 2 '' "flight: --threshold must be a number of milliseconds" flight -t 0
expect 2 '' "flight: --catches must be a whole number from 1 to 1000" flight -n 0
expect 2 '' "flight: --wait must be a whole number" flight -w 0
expect 2 '' "flight: flight takes no arguments, not 'x'" flight x
expect 2 '' "report: which trace.dat" report
expect 2 '' "report: --format takes text, csv or json, not 'xml'" report -f xml x.dat
if [ "$(id -u)" = 0 ] && command -v setpriv > /dev/null; then
	for c in "record -d 1 -o $OUT/nobody.dat" "flight -o $OUT -w 1"; do
		# shellcheck disable=SC2086
		setpriv --reuid=65534 --regid=65534 --clear-groups "$R" $c > "$OUT/cli.out" 2> "$OUT/cli.err"
		rc=$?
		[ "$rc" = 1 ] && grep -qx "rcupoll: ${c%% *}: must run as root (tracefs and debugfs are root-only)" "$OUT/cli.err" &&
			ok "'rcupoll $c' as nobody -> 1" || fail "'rcupoll $c' as nobody: exit $rc: $(cat "$OUT/cli.err")"
	done
fi

# The man page.
MANWIDTH=80 man --warnings -l "$TOP/userspace/rcupoll.1" > "$OUT/man.txt" 2> "$OUT/man.err"
[ -s "$OUT/man.txt" ] && [ ! -s "$OUT/man.err" ] && ok "man -l rcupoll.1 renders without warnings" ||
	{ cat "$OUT/man.err"; fail "man -l userspace/rcupoll.1"; }
for o in --output --duration --buffer-size --snapshot --temp --threshold --catches --wait --no-stall \
	--slow --top --batch --flavour --format --table --buffer; do
	grep -q -- "$o" "$OUT/man.txt" || fail "the man page does not describe $o"
done
for c in record flight report; do
	"$R" $c --help > "$OUT/help.txt"
	for o in $(grep -o -- '--[a-z-]*' "$OUT/help.txt" | sort -u); do
		grep -q -- "$o" "$OUT/man.txt" || fail "the man page lacks $o of rcupoll $c --help"
	done
done
[ "$fails" = 0 ] && echo "test-cli: all passed" || echo "test-cli: $fails failed"
[ "$fails" = 0 ]
