#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Manage the extracted kernel tree: a git repository whose first commit
# (tag "pristine") is Debian's linux-source-6.1 exactly as shipped, with
# the project's patches/ applied on top by git am.
#
#   tree.sh prepare   extract if missing, (re)apply patches/ if the series changed
#   tree.sh export    write the tree's commits since "pristine" back to patches/
#   tree.sh check     apply patches/ to a fresh checkout of "pristine" (git am)
#
# The state file $KSRC/.git/rcu_poll-applied records the checksum of the
# series that was applied and the commit it produced, so a re-run is a
# no-op, and a developer's unexported commits are never thrown away.
set -euo pipefail

TOP=$(cd "$(dirname "$0")/../.." && pwd)
TARBALL=${TARBALL:-/usr/src/linux-source-6.1.tar.xz}
KSRC=${KSRC:?KSRC must name the extracted tree}
PATCHES=$TOP/patches
STATE=$KSRC/.git/rcu_poll-applied

say() { printf '  %-8s %s\n' "$1" "$2"; }
die() { echo "tree.sh: $*" >&2; exit 1; }

gitk() { git -C "$KSRC" -c user.name=rcu_poll -c user.email=rcu_poll@localhost "$@"; }

series_files() {
	[ -f "$PATCHES/series" ] || return 0
	{ grep -v -e '^#' -e '^[[:space:]]*$' "$PATCHES/series" || true; } | while read -r p; do
		[ -f "$PATCHES/$p" ] || die "patches/series names $p, which does not exist"
		echo "$PATCHES/$p"
	done
}

series_sum() {
	{ cat "$PATCHES/series" 2>/dev/null; series_files | xargs -r cat; } | sha1sum | cut -d' ' -f1
}

extract() {
	[ -f "$TARBALL" ] || die "$TARBALL missing (apt-get install linux-source-6.1)"
	say EXTRACT "$TARBALL -> $KSRC"
	local tmp=$KSRC.tmp
	rm -rf "$tmp"
	mkdir -p "$tmp"
	tar -xJf "$TARBALL" -C "$tmp" --strip-components=1
	git -C "$tmp" init -q -b pristine-base
	# Debian's .gitignore ignores everything at the top level: force-add.
	git -C "$tmp" add -f -A .
	git -C "$tmp" -c user.name=rcu_poll -c user.email=rcu_poll@localhost \
		commit -q -m "linux-source-6.1 as shipped by Debian ($(basename "$TARBALL"))"
	git -C "$tmp" tag pristine
	git -C "$tmp" checkout -q -b rcu_poll
	mv "$tmp" "$KSRC"
}

apply_series() {
	say PATCH "applying $(series_files | wc -l) patch(es) from patches/series"
	gitk am --abort >/dev/null 2>&1 || true
	gitk checkout -q -f -B rcu_poll pristine
	local p
	for p in $(series_files); do
		gitk am -q --keep-cr "$p" || die "git am failed on $p"
	done
	record_state
}

record_state() {
	echo "$(series_sum) $(gitk rev-parse HEAD)" > "$STATE"
}

prepare() {
	[ -d "$KSRC/.git" ] || extract
	local want have_sum have_head head
	want=$(series_sum)
	head=$(gitk rev-parse HEAD)
	if [ -f "$STATE" ]; then
		read -r have_sum have_head < "$STATE"
	else
		have_sum=none have_head=$(gitk rev-parse pristine)
	fi
	if [ "$want" = "$have_sum" ]; then
		return 0
	fi
	if [ -n "$(gitk status --porcelain --untracked-files=no)" ]; then
		die "patches/ changed, but $KSRC has uncommitted changes.
  Commit and export them (make export), or discard them (git -C $KSRC checkout -f)."
	fi
	if [ "$head" != "$have_head" ]; then
		die "patches/ changed, but $KSRC has commits that are not exported (HEAD $head).
  Export them first (make export), or discard them (make reset-tree)."
	fi
	apply_series
}

# The cover letter: format-patch's shortlog and diffstat under the subject
# (first line) and text of patches/cover-letter.txt.  Not in the series.
fill_cover_letter() {
	local cl=$1 txt=$PATCHES/cover-letter.txt
	[ -f "$txt" ] || die "no $txt: the cover letter's subject and text"
	python3 - "$cl" "$txt" "$(gitk log -1 --format='%an <%ae>' HEAD)" <<'PY'
import re
import sys
cl, txt = sys.argv[1], open(sys.argv[2]).read().split('\n', 1)
s = open(cl).read()
s = re.sub(r'(?m)^From: .*$', lambda _: 'From: ' + sys.argv[3], s, count=1)
s = s.replace('*** SUBJECT HERE ***', txt[0].strip())
s = s.replace('*** BLURB HERE ***', txt[1].strip('\n'))
open(cl, 'w').write(s)
PY
}

export_series() {
	[ -d "$KSRC/.git" ] || die "no tree at $KSRC (make tree)"
	[ -z "$(gitk status --porcelain --untracked-files=no)" ] ||
		echo "tree.sh: warning: uncommitted changes in $KSRC are not exported" >&2
	rm -f "$PATCHES"/*.patch
	mkdir -p "$PATCHES"
	gitk format-patch -q --zero-commit --no-signature --cover-letter -o "$PATCHES" pristine..HEAD
	fill_cover_letter "$PATCHES/0000-cover-letter.patch"
	(cd "$PATCHES" && ls -1 -- *.patch 2>/dev/null | grep -vx '0000-cover-letter.patch' || true) \
		> "$PATCHES/series.new"
	{
		echo "# Applied in this order with git am onto pristine linux-source-6.1."
		echo "# Written by 'make export'; do not edit by hand."
		cat "$PATCHES/series.new"
	} > "$PATCHES/series"
	rm -f "$PATCHES/series.new"
	record_state
	say EXPORT "$(series_files | wc -l) patch(es) -> patches/"
}

# Apply the series with git am onto a fresh checkout of the pristine
# commit, which is the tarball byte for byte.  Leaves the checkout in $1.
check_series() {
	local wt=${1:?usage: tree.sh check DIR}
	[ -d "$KSRC/.git" ] || extract
	rm -rf "$wt"
	gitk worktree prune
	gitk worktree add -q --detach "$wt" pristine
	local p n=0
	for p in $(series_files); do
		git -C "$wt" -c user.name=check -c user.email=check@localhost am -q "$p" ||
			die "series does not apply: $p"
		n=$((n + 1))
	done
	echo "$n"
}

case "${1:-}" in
prepare) prepare ;;
export) export_series ;;
reset) [ -d "$KSRC/.git" ] || die "no tree"; apply_series ;;
check) check_series "${2:-}" ;;
*) die "usage: tree.sh prepare|export|reset|check DIR" ;;
esac
