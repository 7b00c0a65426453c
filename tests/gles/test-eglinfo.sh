#!/bin/sh
# test-eglinfo.sh AGX-STACK EGLINFO [PRELOAD]: Mesa's eglinfo (mesa-utils),
# unmodified, run by 'agx-stack run' as './agx run' does -- the stack in a
# state directory of its own, __EGL_VENDOR_LIBRARY_FILENAMES naming the
# build tree's vendor file -- finds libEGL_agx on the surfaceless platform:
# its vendor, version, client APIs, extensions and the 50 configs, and no
# other vendor's platforms.  eglinfo also goes through the X11 and Wayland
# platforms, which the client extensions name: X11 on an Xvfb of the
# test's own, or, with no Xvfb, failing to initialize it (test-es2info.sh
# checks that section); Wayland failing to, with no compositor
# (test-egl-wayland has one).
# PRELOAD: the sanitizer runtime an uninstrumented eglinfo needs to load a
# sanitized libEGL_agx.  TAP on stdout.
set -u
stack=$1 eglinfo=$2 preload=${3:-}
# shellcheck source=tests/gles/xvfb.sh
. "$(dirname "$0")/xvfb.sh"
# shellcheck source=tests/tap.sh
. "$(dirname "$0")/../tap.sh"

if [ ! -x "$eglinfo" ]; then
	echo "1..0 # SKIP no eglinfo (Debian's mesa-utils)"
	exit 0
fi
dir=$(mktemp -d /tmp/agx-test-eglinfo-XXXXXX)
export AGX_RUNTIME_DIR="$dir"
out="$dir/eglinfo.out"

# shellcheck disable=SC2317 # called by the trap
cleanup() {
	"$stack" down >/dev/null 2>&1
	xvfb_stop
	[ "$failed" -eq 0 ] || show "$out" "$dir"/*.log
	rm -rf "$dir"
}
trap cleanup EXIT

echo "1..10"
# a compositor that is not there, whatever the environment has
export WAYLAND_DISPLAY="$dir/no-compositor"
if xvfb_start "$dir" -screen 0 256x256x24; then
	x11=1
else
	x11=0
	unset DISPLAY
fi
if [ -n "$preload" ]; then
	"$stack" run -- env LD_PRELOAD="$preload" "$eglinfo" >"$out" 2>&1
else
	"$stack" run -- "$eglinfo" >"$out" 2>&1
fi
status=$?
# no compositor: eglinfo says so in the Wayland section and exits with 1
[ "$status" = 1 ] &&
	sed -n '/^Wayland platform:/{n;p;}' "$out" | grep -qx "eglinfo: eglInitialize failed"
wayland_failed=$?
if [ "$x11" = 1 ]; then
	[ "$wayland_failed" = 0 ] && ! sed -n '/^X11 platform:/{n;p;}' "$out" | grep -q failed
	check $? "agx-stack run -- eglinfo fails only for the Wayland platform (no compositor)"
else
	# no X server either: the X11 section says so too
	[ "$wayland_failed" = 0 ] &&
		sed -n '/^X11 platform:/{n;p;}' "$out" | grep -qx "eglinfo: eglInitialize failed"
	check $? "agx-stack run -- eglinfo fails only for the X11 and Wayland platforms (no servers)"
fi

# the surfaceless platform's section: from its heading to the end
section=$(sed -n '/^Surfaceless platform:/,$p' "$out")
has() {
	printf '%s\n' "$section" | grep -qx -- "$1"
}
client=$(sed -n '/^EGL client extensions string:/,/^$/p' "$out")

printf '%s\n' "$client" | grep -qw EGL_MESA_platform_surfaceless
check $? "the client extensions name the surfaceless platform"
printf '%s\n' "$client" | grep -qw EGL_KHR_platform_x11 &&
	printf '%s\n' "$client" | grep -qw EGL_KHR_platform_wayland
check $? "the client extensions name the X11 and Wayland platforms"
# only libEGL_agx is loaded: no other vendor's platforms
! printf '%s\n' "$client" | grep -qw -e EGL_KHR_platform_gbm -e EGL_MESA_platform_gbm \
	-e EGL_EXT_platform_device
check $? "no platform of another vendor"
has "EGL API version: 1.5"
check $? "EGL 1.5"
has "EGL vendor string: AGX driver stack"
check $? "our vendor string"
has "EGL version string: 1.5"
check $? "our version string"
has "EGL client APIs: OpenGL_ES"
check $? "OpenGL ES, the one client API"
# eglinfo wraps the list over indented lines
exts=$(printf '%s\n' "$section" | sed -n '/^EGL extensions string:/,/^[^ ]/p' | grep '^    ' |
	tr -s ' \n' ' ' | sed 's/^ //; s/ $//')
[ "$exts" = "EGL_ANDROID_native_fence_sync EGL_EXT_create_context_robustness EGL_EXT_image_dma_buf_import EGL_EXT_image_dma_buf_import_modifiers EGL_EXT_pixel_format_float EGL_KHR_create_context EGL_KHR_fence_sync EGL_KHR_get_all_proc_addresses EGL_KHR_gl_renderbuffer_image EGL_KHR_gl_texture_2D_image EGL_KHR_image_base EGL_KHR_surfaceless_context EGL_KHR_wait_sync EGL_MESA_image_dma_buf_export" ]
check $? "our display extensions, and only those"
# the 50 configurations, pbuffers only: id, buffer size, r g b a, depth,
# stencil, samples -- the 25 single-sampled ones, then their 4x twins
configs=$(printf '%s\n' "$section" | grep -E '^0x[0-9a-f][0-9a-f] ' |
	awk '{ print $1, $2, $4, $5, $6, $7, $8, $9, $10, $NF }' | tr '\n' ';')
[ "$configs" = "0x01 32 8 8 8 8 0 0 0 pb;0x02 32 8 8 8 8 24 8 0 pb;0x03 16 5 6 5 0 0 0 0 pb;0x04 16 5 6 5 0 24 8 0 pb;0x05 32 8 8 8 8 16 0 0 pb;0x06 32 8 8 8 8 24 0 0 pb;0x07 16 5 6 5 0 16 0 0 pb;0x08 16 5 6 5 0 24 0 0 pb;0x09 24 8 8 8 0 0 0 0 pb;0x0a 24 8 8 8 0 24 8 0 pb;0x0b 24 8 8 8 0 16 0 0 pb;0x0c 24 8 8 8 0 24 0 0 pb;0x0d 24 8 8 8 0 32 0 0 pb;0x0e 32 10 10 10 2 0 0 0 pb;0x0f 32 10 10 10 2 24 8 0 pb;0x10 32 10 10 10 2 16 0 0 pb;0x11 32 10 10 10 2 24 0 0 pb;0x12 32 10 10 10 2 32 0 0 pb;0x13 64 16 16 16 16 0 0 0 pb;0x14 64 16 16 16 16 24 8 0 pb;0x15 64 16 16 16 16 16 0 0 pb;0x16 64 16 16 16 16 24 0 0 pb;0x17 64 16 16 16 16 32 0 0 pb;0x18 32 8 8 8 8 32 0 0 pb;0x19 16 5 6 5 0 32 0 0 pb;0x1f 32 8 8 8 8 0 0 4 pb;0x20 32 8 8 8 8 24 8 4 pb;0x21 16 5 6 5 0 0 0 4 pb;0x22 16 5 6 5 0 24 8 4 pb;0x23 32 8 8 8 8 16 0 4 pb;0x24 32 8 8 8 8 24 0 4 pb;0x25 16 5 6 5 0 16 0 4 pb;0x26 16 5 6 5 0 24 0 4 pb;0x27 24 8 8 8 0 0 0 4 pb;0x28 24 8 8 8 0 24 8 4 pb;0x29 24 8 8 8 0 16 0 4 pb;0x2a 24 8 8 8 0 24 0 4 pb;0x2b 24 8 8 8 0 32 0 4 pb;0x2c 32 10 10 10 2 0 0 4 pb;0x2d 32 10 10 10 2 24 8 4 pb;0x2e 32 10 10 10 2 16 0 4 pb;0x2f 32 10 10 10 2 24 0 4 pb;0x30 32 10 10 10 2 32 0 4 pb;0x31 64 16 16 16 16 0 0 4 pb;0x32 64 16 16 16 16 24 8 4 pb;0x33 64 16 16 16 16 16 0 4 pb;0x34 64 16 16 16 16 24 0 4 pb;0x35 64 16 16 16 16 32 0 4 pb;0x36 32 8 8 8 8 32 0 4 pb;0x37 16 5 6 5 0 32 0 4 pb;" ]
check $? "the 50 configs (got: $configs)"
exit $failed
