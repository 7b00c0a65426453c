#!/bin/sh
# test-apitrace.sh AGX-STACK [PRELOAD]: Debian's apitrace
# records unmodified GLES programs on Mesa's llvmpipe -- Mesa's es2gears
# (its first 50 frames) and a short run of glmark2-es2 scenes -- on an
# Xvfb of the test's own; its eglretrace replays each trace headless
# (surfaceless EGL) on llvmpipe and on our stack, run by 'agx-stack run'
# as './agx run' does, snapshotting frames, which are then compared:
# snapshots-close.py allows 2% of a snapshot's pixels past 'apitrace
# diff-images' fuzz (12 of 255), for what GL leaves to rounding: effect2d
# samples an 800x600 texture NEAREST at 200x150, every pixel centre
# exactly on a texel boundary, so the last bit of the interpolated
# coordinate picks the texel (1.3% of its pixels differ, along edges);
# shading's specular powers differ in 0.2%.
# The traces are recorded in the test, so a recording is always of the
# installed programs.  PRELOAD: the sanitizer runtime the uninstrumented
# eglretrace needs to load a sanitized libEGL_agx.  TAP on stdout.
set -u
stack=$1 preload=${2:-}
mesa=/usr/share/glvnd/egl_vendor.d/50_mesa.json
# shellcheck source=tests/gles/xvfb.sh
. "$(dirname "$0")/xvfb.sh"
# shellcheck source=tests/tap.sh
. "$(dirname "$0")/../tap.sh"

for p in apitrace eglretrace glmark2-es2 es2gears_x11; do
	if ! command -v "$p" >/dev/null; then
		echo "1..0 # SKIP no $p (Debian's apitrace, glmark2-es2-x11, mesa-utils)"
		exit 0
	fi
done
if [ ! -f "$mesa" ]; then
	echo "1..0 # SKIP no Mesa EGL vendor (Debian's libegl-mesa0)"
	exit 0
fi
dir=$(mktemp -d /tmp/agx-test-apitrace-XXXXXX)
export AGX_RUNTIME_DIR="$dir"
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
echo "1..8"

# NAME: record, then replay on both and compare; SNAPSHOT: eglretrace's frame interval
replay() {
	name=$1 every=$2
	WAFFLE_PLATFORM=surfaceless_egl __EGL_VENDOR_LIBRARY_FILENAMES=$mesa \
		eglretrace --headless -s "$dir/$name-mesa-" --snapshot-interval="$every" \
		"$dir/$name.trace" >"$dir/$name-mesa.out" 2>&1 &&
		[ -n "$(ls "$dir/$name-mesa-"*.png 2>/dev/null)" ]
	check $? "$name: eglretrace replays the trace on llvmpipe, with snapshots"
	if [ -n "$preload" ]; then
		set -- env LD_PRELOAD="$preload"
	else
		set --
	fi
	WAFFLE_PLATFORM=surfaceless_egl "$stack" run -- "$@" eglretrace --headless -s "$dir/$name-agx-" \
		--snapshot-interval="$every" "$dir/$name.trace" >"$dir/$name-agx.out" 2>&1 &&
		! grep -q "submission failed\|was reset\|failed to get snapshot" \
			"$dir/$name-agx.out"
	check $? "$name: eglretrace replays it on our stack, no submission failing"
	apitrace diff-images -v -o "$dir/$name-diff.html" "$dir/$name-mesa-" "$dir/$name-agx-" \
		>"$dir/$name-diff.out" 2>&1
	# Debian's python3, whose Pillow apitrace's diff-images uses too
	close=$(/usr/bin/python3 "$(dirname "$0")/snapshots-close.py" "$dir/$name-mesa-" \
		"$dir/$name-agx-" 2 2>&1)
	check $? "$name: every snapshot is llvmpipe's ($(grep -c " MATCH" "$dir/$name-diff.out") \
exactly within diff-images' fuzz; $close)"
}

# es2gears runs until it is stopped: three seconds recorded, its first 50 frames kept
__EGL_VENDOR_LIBRARY_FILENAMES=$mesa timeout -s TERM 3 \
	apitrace trace --api egl -o "$dir/gears-full.trace" es2gears_x11 >"$dir/record.out" 2>&1
apitrace trim --frames=0-49 -o "$dir/gears.trace" "$dir/gears-full.trace" >>"$dir/record.out" 2>&1
check $? "apitrace records es2gears on llvmpipe"
replay gears 10

__EGL_VENDOR_LIBRARY_FILENAMES=$mesa \
	apitrace trace --api egl -o "$dir/glmark2.trace" glmark2-es2 -s 200x150 \
	-b build:use-vbo=true:duration=0.05 -b texture:texture-filter=mipmap:duration=0.05 \
	-b shading:shading=phong:duration=0.05 -b bump:bump-render=normals:duration=0.05 \
	-b effect2d:duration=0.05 -b jellyfish:duration=0.05 >>"$dir/record.out" 2>&1
check $? "apitrace records glmark2-es2's build, texture, shading, bump, effect2d, jellyfish"
replay glmark2 8
exit $failed
