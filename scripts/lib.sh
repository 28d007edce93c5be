# shellcheck shell=bash
# Common helpers for the project's scripts. Source it; do not run it.

TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BUILD=${BUILD:-$TOP/build}
TREE=${TREE:-$BUILD/linux}
# shellcheck source=base.conf
. "$TOP/base.conf"

log() { printf '[%s] %s\n' "$(date +%H:%M:%S)" "$*" >&2; }
warn() { printf '[%s] WARNING: %s\n' "$(date +%H:%M:%S)" "$*" >&2; }
die() { printf '[%s] ERROR: %s\n' "$(date +%H:%M:%S)" "$*" >&2; exit 1; }

# step "what" cmd args...: say what a long step does, run it, say how long it took.
step() {
	local what=$1 t0 rc=0
	shift
	t0=$(date +%s)
	log "$what ..."
	"$@" || rc=$?
	if [ "$rc" -ne 0 ]; then
		log "$what failed after $(($(date +%s) - t0)) s (exit $rc)"
		return "$rc"
	fi
	log "$what done in $(($(date +%s) - t0)) s"
}

# check_mode MODE: the value of CONFIG_HIGHATOMIC_RESERVE a build is for, or
# "base": the pinned base without the series, to compare the series with;
# y-debug or n-debug: y or n with the debug profile (qemu/debug.config).
# y+VARIANT or n+VARIANT: y or n with the build matrix's
# qemu/matrix/VARIANT.config on top (scripts/build-matrix); y+VARIANT-debug:
# the same with the debug profile too.
# y@NAME: a benchmark baseline, =y with bench/baselines/NAME.patch applied
# (not part of the series; built from its own worktree, see baseline_tree).
check_mode() {
	case "${1:-}" in
	y|n|base|y-debug|n-debug) ;;
	y@*)
		if ! [[ ${1#y@} =~ ^[a-z0-9]+$ ]] || [ ! -r "$TOP/bench/baselines/${1#y@}.patch" ]; then
			die "no benchmark baseline '${1#y@}' (bench/baselines/: $(baseline_names))"
		fi ;;
	[yn]+*)
		# y+VARIANT-debug: the variant under the debug profile
		local v=${1#?+}
		v=${v%-debug}
		if ! [[ $v =~ ^[a-z0-9-]+$ ]] || [ ! -r "$TOP/qemu/matrix/$v.config" ]; then
			die "no build matrix variant '$v' (qemu/matrix/: $(matrix_variants))"
		fi ;;
	*) die "MODE must be y or n (CONFIG_HIGHATOMIC_RESERVE), y-debug or n-debug (with qemu/debug.config), y+VARIANT or n+VARIANT (qemu/matrix/VARIANT.config), y@BASELINE (bench/baselines/BASELINE.patch) or base (no series), got '${1:-}'" ;;
	esac
}

# names_in DIR SUFFIX: the names of DIR's files that end in SUFFIX,
# without it, one word each
names_in() {
	local f names=()
	for f in "$1"/*"$2"; do
		[ -e "$f" ] || continue
		f=${f##*/}
		names+=("${f%"$2"}")
	done
	echo "${names[*]}"
}

# matrix_variants: the build matrix's variants, one word each
matrix_variants() { names_in "$TOP/qemu/matrix" .config; }

# baseline_names: the benchmark's baselines, one word each
baseline_names() { names_in "$TOP/bench/baselines" .patch; }

# reserve_mode MODE: the value of CONFIG_HIGHATOMIC_RESERVE a mode builds
reserve_mode() {
	local m=${1%%[+@]*}
	echo "${m%-debug}"
}

# debug_cmdline MODE: what the debug profile's checkers need on the kernel
# command line to be on
debug_cmdline() {
	case "$1" in
	*-debug) echo "debug_pagealloc=on page_owner=on page_poison=1" ;;
	esac
}

# OBJ_PREFIX=NAME puts a mode's build in build/NAME-MODE instead, e.g. to
# build and boot a revision of the series beside the one a running
# benchmark uses (scripts/build, qemu/run and selftests/run all follow it)
objdir() { echo "$BUILD/${OBJ_PREFIX:-obj}-$1"; }

# check_qemu_args ARGS...: the qemu/run options a runner passes on, checked
# before the first guest boots (qemu/run checks their values)
check_qemu_args() {
	while [ $# -gt 0 ]; do
		case "$1" in
		--cpus|--mem|--nodes|--node-mem|--append|--disk|--overlay)
			[ $# -ge 2 ] || die "$1 needs a value"
			shift 2 ;;
		*) die "unknown option '$1' (see --help)" ;;
		esac
	done
}

# print_usage: the running script's header comment (its lines 2 up to
# "set -euo pipefail"), without the "# ", on stdout: what --help prints
print_usage() {
	sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'
}

# no_args "$@": for the commands that take none but --help (or -h)
no_args() {
	case "$*" in
	-h|--help) print_usage; exit 0 ;;
	esac
	[ $# -eq 0 ] || die "$(basename "$0") takes no arguments, got '$*' (see --help)"
}

# tree_of MODE: the source tree a mode builds from. The base is a worktree of
# the kernel tree, detached at BASE_COMMIT, with one change in its working
# tree: the series' build fix for the mm selftests (khugepaged.c), without
# which none of them builds. The kernel sources are the base's.
# ccache for every kernel build of the project, one cache (build/ccache):
# paths under build/ hashed relative to the compiler's directory, so that
# trees and build directories laid out alike (../linux from the build
# directory) share objects, and the cwd left out of the hash.
ccache_env() {
	export CCACHE_DIR=${CCACHE_DIR:-$BUILD/ccache}
	export CCACHE_BASEDIR=$BUILD CCACHE_NOHASHDIR=1 CCACHE_COMPILERCHECK=content
	export CCACHE_MAXSIZE=${CCACHE_MAXSIZE:-8G}
}

BASE_TREE=$BUILD/base-tree
# One worktree for every baseline: the series' tip with one baseline's
# patch at a time. One path for all of them, so that ccache serves every
# file the patches do not touch from the first baseline's build.
BASELINE_TREE=$BUILD/baseline-tree
tree_of() {
	case "$1" in
	base) echo "$BASE_TREE" ;;
	y@*) echo "$BASELINE_TREE" ;;
	*) echo "$TREE" ;;
	esac
}
SELFTEST_FIX='^selftests/mm: khugepaged: include kselftest.h'

# ensure_baseline_tree NAME: $BASELINE_TREE at the series' tip with
# bench/baselines/NAME.patch applied, and nothing else; a worktree that
# holds anything else is reset to that (it is build output, not work)
ensure_baseline_tree() {
	local patch=$TOP/bench/baselines/$1.patch tip stamp
	[ -d "$TREE/.git" ] || die "$TREE missing: run make tree"
	tip=$(git -C "$TREE" rev-parse "$SERIES_BRANCH") || die "no branch $SERIES_BRANCH in $TREE"
	if [ ! -e "$BASELINE_TREE/.git" ]; then
		git -C "$TREE" worktree prune
		git -C "$TREE" worktree add -q --detach "$BASELINE_TREE" "$tip" ||
			die "cannot add the worktree $BASELINE_TREE"
	fi
	stamp="$tip $(sha1sum <"$patch" | cut -d' ' -f1)"
	if [ "$(cat "$BASELINE_TREE/.baseline" 2>/dev/null)" = "$stamp" ] &&
		[ "$(git -C "$BASELINE_TREE" rev-parse HEAD)" = "$tip" ]; then
		return 0
	fi
	# checkout -f rewrites only the files that differ (the last patch's):
	# make rebuilds no more than those. The stamp goes first: a tree left
	# between patches (apply failed, interrupted) must not pass for one
	rm -f "$BASELINE_TREE/.baseline"
	git -C "$BASELINE_TREE" checkout -q -f --detach "$tip" || die "cannot check out $tip in $BASELINE_TREE"
	git -C "$BASELINE_TREE" diff --quiet HEAD || die "$BASELINE_TREE: cannot reset to $tip"
	git -C "$BASELINE_TREE" apply "$patch" || die "bench/baselines/$1.patch does not apply to $SERIES_BRANCH ($tip)"
	echo "$stamp" >"$BASELINE_TREE/.baseline"
	log "baseline $1: $BASELINE_TREE is $tip with bench/baselines/$1.patch"
}

ensure_base_tree() {
	local fix changed
	[ -d "$TREE/.git" ] || die "$TREE missing: run make tree"
	if [ ! -e "$BASE_TREE/.git" ]; then
		git -C "$TREE" worktree prune
		log "checking out the base $BASE_COMMIT in $BASE_TREE"
		git -C "$TREE" worktree add -q --detach "$BASE_TREE" "$BASE_COMMIT"
	fi
	[ "$(git -C "$BASE_TREE" rev-parse HEAD)" = "$BASE_COMMIT" ] ||
		die "$BASE_TREE is not at the base $BASE_COMMIT"
	if git -C "$BASE_TREE" diff --quiet; then
		fix=$(git -C "$TREE" log -1 --format=%H --grep="$SELFTEST_FIX" "$BASE_COMMIT..$SERIES_BRANCH")
		[ -n "$fix" ] || die "the series has no commit '$SELFTEST_FIX'"
		git -C "$TREE" diff "$fix^" "$fix" | git -C "$BASE_TREE" apply ||
			die "cannot apply $fix to $BASE_TREE"
	fi
	changed=$(git -C "$BASE_TREE" diff --name-only)
	[ "$changed" = tools/testing/selftests/mm/khugepaged.c ] ||
		die "$BASE_TREE has changes besides the selftest build fix: $changed"
}

# Fixed identity and dates: the base import must give the same commit id every time.
base_git() {
	GIT_AUTHOR_NAME="Debian linux-source" GIT_AUTHOR_EMAIL="debian-kernel@lists.debian.org" \
	GIT_COMMITTER_NAME="Debian linux-source" GIT_COMMITTER_EMAIL="debian-kernel@lists.debian.org" \
	GIT_AUTHOR_DATE="2000-01-01T00:00:00Z" GIT_COMMITTER_DATE="2000-01-01T00:00:00Z" \
	git -c core.autocrlf=false -c core.filemode=true -c core.symlinks=true \
		-c commit.gpgsign=false -c i18n.commitEncoding=UTF-8 "$@"
}

base_message() {
	printf '%s %s\n\nImported from %s of Debian package %s %s.\n' \
		"$LINUX_SOURCE_PACKAGE" "$LINUX_SOURCE_VERSION" \
		"$(basename "$LINUX_SOURCE_TARBALL")" "$LINUX_SOURCE_PACKAGE" "$LINUX_SOURCE_VERSION"
}

# verify_bundle FILE [GIT-DIR]: the bundle's header names refs and a base
# the tree has (git bundle verify), and its pack is whole: git bundle verify
# does not read the pack, and git fetch skips it when it already has the
# objects, so check the pack's trailing SHA-1 over its contents.
verify_bundle() {
	local file=$1 dir=${2:-$TREE}
	git -C "$dir" bundle verify -q "$file" >/dev/null 2>"$BUILD/bundle-verify.err" || {
		cat "$BUILD/bundle-verify.err" >&2
		return 1
	}
	python3 - "$file" <<'PY'
import hashlib
import sys

data = open(sys.argv[1], 'rb').read()
end = data.find(b'\n\n')
pack = data[end + 2:] if end >= 0 else b''
if len(pack) < 32 or not pack.startswith(b'PACK'):
    sys.exit(f'{sys.argv[1]}: no pack after the header (truncated?)')
if hashlib.sha1(pack[:-20]).digest() != pack[-20:]:
    sys.exit(f'{sys.argv[1]}: the pack checksum does not match (corrupt)')
PY
}
