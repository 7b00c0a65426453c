#!/bin/sh
# test-piglit.sh AGX-STACK PIGLIT-BIN EXPECTED [PRELOAD]: Debian piglit's
# GLES and EGL API tests that need no drawing, unmodified, each run by
# 'agx-stack run' on one stack with our vendor file only
# (__EGL_VENDOR_LIBRARY_FILENAMES), PIGLIT_PLATFORM=surfaceless_egl, and
# the arguments piglit's runner gives them (-auto, and -fbo for the tests
# it runs concurrently: framework/test/piglit_test.py).  EXPECTED
# (piglit-expected.txt) lists each test with the result it must have:
#
#   RESULT COMMAND [ARGS] [# why, for anything but pass]
#
# RESULT is pass, fail, skip or crash (a signal, or no PIGLIT result line).
# A test passes when piglit's result is the expected one.  PRELOAD: the
# sanitizer runtime an uninstrumented piglit needs to load a sanitized
# libEGL_agx.  TAP on stdout; the output of each mismatch as comments.
set -u
stack=$1 bindir=$2 expected=$3 preload=${4:-}
# the tests run in another directory: the stack's path must not be relative
case $stack in
/*) ;;
*) stack="$(pwd)/$stack" ;;
esac

if [ ! -d "$bindir" ]; then
	echo "1..0 # SKIP no piglit in $bindir (Debian's piglit)"
	exit 0
fi
dir=$(mktemp -d /tmp/agx-test-piglit-XXXXXX)
export AGX_RUNTIME_DIR="$dir"
export PIGLIT_PLATFORM=surfaceless_egl
# The tests run in piglit's tests/ directory, where piglit's runner finds
# the files some take as arguments (built-in-constants' lists).
testsdir="${bindir%/bin}/tests"
failed=0

# shellcheck disable=SC2317 # called by the trap
cleanup() {
	"$stack" down >/dev/null 2>&1
	rm -rf "$dir"
}
trap cleanup EXIT

if ! "$stack" up >"$dir/up.out" 2>&1; then
	echo "1..0 # SKIP the stack did not start"
	sed 's/^/# /' "$dir/up.out"
	exit 1
fi

# The tests, without comments and blank lines.
list="$dir/list"
sed -e 's/[[:space:]]*$//' -e '/^#/d' -e '/^$/d' "$expected" >"$list"
echo "1..$(wc -l <"$list")"
n=0
npass=0
while read -r want rest; do
	n=$((n + 1))
	cmd=$(printf '%s' "${rest%%#*}" | sed 's/[[:space:]]*$//')
	# shellcheck disable=SC2086 # the command's words
	set -- $cmd
	prog=$1
	shift
	out="$dir/out"
	(
		cd "$testsdir" || exit 1
		if [ -n "$preload" ]; then
			exec timeout 120 "$stack" run -- env LD_PRELOAD="$preload" "$bindir/$prog" "$@"
		fi
		exec timeout 120 "$stack" run -- "$bindir/$prog" "$@"
	) >"$out" 2>&1 </dev/null
	status=$?
	got=$(sed -n 's/^PIGLIT: {"result": "\([a-z]*\)".*/\1/p' "$out" | tail -n 1)
	if [ -z "$got" ] || [ "$status" -gt 128 ]; then
		got=crash
	fi
	[ "$got" = pass ] && npass=$((npass + 1))
	if [ "$got" = "$want" ]; then
		echo "ok $n - $cmd: $got"
	else
		failed=1
		echo "not ok $n - $cmd: $got, expected $want (exit status $status)"
		sed 's/^/# /' "$out" | tail -n 40
	fi
done <"$list"
echo "# $npass of $n pass"
exit $failed
