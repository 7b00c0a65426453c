#!/bin/sh
# test-demo.sh AGX-STACK AGX-DEMO: ./agx demo as a user runs it, smaller --
# agx-demo, a GLES 3.0 program through glvnd, run by 'agx-stack run' over a
# state directory of its own: it exits with 0, writes its frames (which
# differ: the scene moves), and its last frame agrees with llvmpipe's to
# within a few steps on all but a few pixels.  TAP on stdout.
set -u
stack=$1 demo=$2
# shellcheck source=tests/tap.sh
. "$(dirname "$0")/../tap.sh"
dir=$(mktemp -d /tmp/agx-test-demo-XXXXXX)
export AGX_RUNTIME_DIR="$dir"
out="$dir/demo.out"

# shellcheck disable=SC2317 # called by the trap
cleanup() {
	"$stack" down >/dev/null 2>&1
	[ "$failed" -eq 0 ] || show "$out" "$dir"/*.log
	rm -rf "$dir"
}
trap cleanup EXIT

echo "1..4"
"$stack" run -- "$demo" --out "$dir/frames" --frames 2 --size 160x90 >"$out" 2>&1
check $? "agx-demo exits with 0"
[ -s "$dir/frames/frame-000.png" ] && [ -s "$dir/frames/frame-001.png" ]
check $? "both frames written"
[ -s "$dir/frames/frame-001.png" ] &&
	! cmp -s "$dir/frames/frame-000.png" "$dir/frames/frame-001.png"
check $? "the second frame is not the first: the scene moves"
if grep -q "no comparison with llvmpipe" "$out"; then
	echo "ok 4 # SKIP no Mesa EGL vendor to compare with"
	exit $failed
fi
off=$(sed -n 's/^demo.llvmpipe_pixels_off //p' "$out")
# of 14,400 pixels: a few may differ where an edge or a filter rounds otherwise
[ -n "$off" ] && [ "$off" -le 30 ]
check $? "the last frame is llvmpipe's but for $off pixels"
exit $failed
