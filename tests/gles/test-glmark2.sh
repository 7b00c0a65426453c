#!/bin/sh
# test-glmark2.sh AGX-STACK GLMARK2-ES2 [PRELOAD]: Debian's glmark2-es2
# (glmark2-es2-x11), unmodified, on an X server of the test's own (Xvfb),
# run by 'agx-stack run' as './agx run' does.  'glmark2-es2 --validate'
# draws a few frames of every default scene at 800x600 and checks, for
# the scenes that have one, its rendering against glmark2's own reference
# (pixels read back and compared): each must say "Success" (the others
# "Unknown"), and no submission may fail on the way.  PRELOAD: the
# sanitizer runtime the uninstrumented program needs to load a sanitized
# libEGL_agx.  TAP on stdout.
set -u
stack=$1 glmark2=$2 preload=${3:-}
# shellcheck source=tests/gles/xvfb.sh
. "$(dirname "$0")/xvfb.sh"
# shellcheck source=tests/tap.sh
. "$(dirname "$0")/../tap.sh"

if [ ! -x "$glmark2" ]; then
	echo "1..0 # SKIP no glmark2-es2 (Debian's glmark2-es2-x11)"
	exit 0
fi
dir=$(mktemp -d /tmp/agx-test-glmark2-XXXXXX)
export AGX_RUNTIME_DIR="$dir"
# terrain's frame takes some 4 s of the simulated GPU's time at 800x600,
# near agx-sim's default limit of 5 s an item: the interpreter's speed, not
# a hang (tests/stack.c gives the sanitizer build's stacks 100 s likewise)
export AGX_SIM_JOB_TIME_LIMIT_MS=60000

# shellcheck disable=SC2317 # called by the trap
cleanup() {
	"$stack" down >/dev/null 2>&1
	xvfb_stop
	[ "$failed" -eq 0 ] || show "$dir"/*.out "$dir"/*.log
	rm -rf "$dir"
}
trap cleanup EXIT

if ! xvfb_start "$dir" -screen 0 1024x768x24; then
	echo "1..0 # SKIP no Xvfb (Debian's xvfb)"
	exit 0
fi
echo "1..5"

out="$dir/glmark2.out"
if [ -n "$preload" ]; then
	"$stack" run -- env LD_PRELOAD="$preload" "$glmark2" --validate >"$out" 2>&1
else
	"$stack" run -- "$glmark2" --validate >"$out" 2>&1
fi
check $? "agx-stack run -- glmark2-es2 --validate exits with 0"
# glmark2's score prefers the deepest depth buffer: the 32-bit one, as on llvmpipe
grep -q "Surface Config: buf=32 r=8 g=8 b=8 a=8 depth=32 stencil=0" "$out"
check $? "glmark2 takes the RGBA8888 config with a 32-bit depth buffer and no stencil"
scenes=$(grep -c "Validation: " "$out")
success=$(grep -c "Validation: Success" "$out")
unknown=$(grep -c "Validation: Unknown" "$out")
# glmark2 2023.01's default list: 33 scenes, 27 of them with a reference
[ "$scenes" -ge 33 ] && [ "$success" -ge 27 ]
check $? "every default scene ran ($scenes), $success validated"
[ $((success + unknown)) -eq "$scenes" ]
check $? "no scene failed its validation (got: $(grep "Validation: " "$out" |
	grep -v "Success\|Unknown" | tr '\n' ';'))"
! grep -q "submission failed\|was reset\|Error" "$out"
check $? "no submission failed and glmark2 reported no error"
exit $failed
