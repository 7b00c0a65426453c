#!/bin/sh
# test-webgl.sh AGX-STACK: WebGL in Debian's Chromium, unmodified.  Each
# page of tests/gles/webgl/ (a WebGL 1 and a WebGL 2 scene: textured, lit,
# blended; the WebGL 2 one instanced, with a uniform block and a
# multisampled drawing buffer) is opened by headless Chromium twice: its
# GPU process on ANGLE's OpenGL ES back end over EGL (--use-gl=angle
# --use-angle=gles-egl, the flags for a native EGL/GLES driver), through
# libglvnd first to Mesa's llvmpipe, then to our vendor under 'agx-stack
# run' as './agx run' does.  The page reports in its title that it drew
# with no GL error and which renderer it ran on -- so a run that fell back
# to another renderer fails -- and the two screenshots are compared:
# snapshots-close.py allows 0.5% of the pixels past 12 of 255 (measured:
# none past 3).  TAP on stdout.
#
# Not in the sanitizer build: Chromium's GPU process would need the
# sanitizer runtime preloaded into a program built with its own allocator.
set -u
stack=$1
here=$(dirname "$0")
mesa=/usr/share/glvnd/egl_vendor.d/50_mesa.json
# shellcheck source=tests/tap.sh
. "$here/../tap.sh"

if ! command -v chromium >/dev/null; then
	echo "1..0 # SKIP no chromium (Debian's chromium)"
	exit 0
fi
if [ ! -f "$mesa" ]; then
	echo "1..0 # SKIP no Mesa EGL vendor (Debian's libegl-mesa0)"
	exit 0
fi
dir=$(mktemp -d /tmp/agx-test-webgl-XXXXXX)
export AGX_RUNTIME_DIR="$dir"

# shellcheck disable=SC2317 # called by the trap
cleanup() {
	"$stack" down >/dev/null 2>&1
	[ "$failed" -eq 0 ] || show "$dir"/*.err "$dir"/*.log
	rm -rf "$dir"
}
trap cleanup EXIT

# PAGE WHO [COMMAND...]: screenshot of PAGE into $dir/WHO-PAGE.png, its
# title into $dir/WHO-PAGE.title
shoot() {
	page=$1 who=$2
	shift 2
	# a profile of its own each time, so that no run sees another's GPU state
	timeout 120 "$@" chromium --headless=new --no-sandbox --user-data-dir="$dir/profile-$who-$page" \
		--use-gl=angle --use-angle=gles-egl --ignore-gpu-blocklist --window-size=320,240 \
		--screenshot="$dir/$who-$page.png" --dump-dom "file://$(realpath "$here")/webgl/$page.html" \
		2>"$dir/$who-$page.err" | sed -n 's/.*<title>\(.*\)<\/title>.*/\1/p' >"$dir/$who-$page.title"
}

echo "1..6"
for page in webgl1 webgl2; do
	shoot "$page" mesa env __EGL_VENDOR_LIBRARY_FILENAMES=$mesa
	grep -q "^ok ANGLE (Mesa.*llvmpipe" "$dir/mesa-$page.title"
	check $? "$page draws on llvmpipe ($(cat "$dir/mesa-$page.title"))"
	shoot "$page" agx "$stack" run --
	grep -q "^ok ANGLE (AGX driver stack" "$dir/agx-$page.title" &&
		! grep -q "GL call .* generated error\|submission failed\|was reset" "$dir/agx-$page.err"
	check $? "$page draws on our stack, no GL error in the GPU process ($(cat "$dir/agx-$page.title"))"
	# Debian's python3, with Pillow (python3-pil, which apitrace brings)
	close=$(/usr/bin/python3 "$here/snapshots-close.py" "$dir/mesa-$page" "$dir/agx-$page" 0.5 2>&1)
	check $? "$page: the screenshot is llvmpipe's ($close)"
done
exit $failed
