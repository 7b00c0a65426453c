#!/bin/sh
# test-es2info.sh AGX-STACK ES2_INFO EGLINFO [PRELOAD]: Mesa's es2_info and
# eglinfo (mesa-utils), unmodified, on an X server of the test's own (Xvfb,
# one 24-bit screen), run by 'agx-stack run' as './agx run' does (the stack
# in a state directory of its own, glvnd loading this build's vendor).
# es2_info opens the X display, takes the first EGL config for an ES 2.0
# window, makes a window of its visual and an ES 2.0 context (ES 3.0 here)
# current on it, and prints the GL strings: ours (gles/context.c).
# eglinfo's X11 section shows the window configs.  PRELOAD: the sanitizer
# runtime the uninstrumented programs need to load a sanitized libEGL_agx.
# TAP on stdout.
set -u
stack=$1 es2_info=$2 eglinfo=$3 preload=${4:-}
# shellcheck source=tests/gles/xvfb.sh
. "$(dirname "$0")/xvfb.sh"
# shellcheck source=tests/tap.sh
. "$(dirname "$0")/../tap.sh"

if [ ! -x "$es2_info" ] || [ ! -x "$eglinfo" ]; then
	echo "1..0 # SKIP no es2_info or eglinfo (Debian's mesa-utils)"
	exit 0
fi
dir=$(mktemp -d /tmp/agx-test-es2info-XXXXXX)
export AGX_RUNTIME_DIR="$dir"

# shellcheck disable=SC2317 # called by the trap
cleanup() {
	"$stack" down >/dev/null 2>&1
	xvfb_stop
	[ "$failed" -eq 0 ] || show "$dir"/*.out "$dir"/*.log
	rm -rf "$dir"
}
trap cleanup EXIT

# a compositor that is not there, whatever the environment has
export WAYLAND_DISPLAY="$dir/no-compositor"
if ! xvfb_start "$dir" -screen 0 256x256x24; then
	echo "1..0 # SKIP no Xvfb (Debian's xvfb)"
	exit 0
fi
echo "1..11"

# agx-stack run -- PROGRAM > OUT
run() {
	program=$1 output=$2
	if [ -n "$preload" ]; then
		"$stack" run -- env LD_PRELOAD="$preload" "$program" >"$output" 2>&1
	else
		"$stack" run -- "$program" >"$output" 2>&1
	fi
}

out="$dir/es2_info.out"
run "$es2_info" "$out"
check $? "agx-stack run -- es2_info exits with 0"
line() {
	grep -qx -- "$1" "$out"
}
line "EGL_VENDOR: AGX driver stack"
check $? "EGL_VENDOR is ours"
line "EGL_VERSION: 1.5"
check $? "EGL 1.5"
line "GL_VENDOR: AGX driver stack"
check $? "GL_VENDOR is ours"
# GLES 3.0 section 6.1.6: "OpenGL ES N.M", then the driver's own words; the
# ES 2.0 request gets ES 3.0 (EGL 1.5 section 3.7.1.1, docs/gles.md)
line "GL_VERSION: OpenGL ES 3.0 agx-[0-9.]*"
check $? "GL_VERSION: an OpenGL ES 3.0 context of ours for the ES 2.0 request"
line "GL_SHADING_LANGUAGE_VERSION: OpenGL ES GLSL ES 3.00"
check $? "GL_SHADING_LANGUAGE_VERSION of ES 3.0"
# "AGX G<generation> (t<chip>, <firmware>)", from the device's info (egl_main.c)
line "GL_RENDERER: AGX G[0-9]* (t[0-9a-f]*, .*)"
check $? "GL_RENDERER: the AGX device"

out="$dir/eglinfo.out"
run "$eglinfo" "$out"
# no Wayland compositor here (test-egl-wayland has one): eglinfo says so
# in the Wayland section and exits with 1
[ $? = 1 ] && sed -n '/^Wayland platform:/{n;p;}' "$out" | grep -qx "eglinfo: eglInitialize failed" &&
	! sed -n '/^X11 platform:/{n;p;}' "$out" | grep -q "failed"
check $? "agx-stack run -- eglinfo fails only for the Wayland platform on the X server"
section=$(sed -n '/^X11 platform:/,/^$/p' "$out")
printf '%s\n' "$section" | grep -qx "EGL vendor string: AGX driver stack"
check $? "an X11 platform section with our vendor string"
# id, the 32-bit visual id, its class (TC: TrueColor), and the surfaces:
# RGBA8888 and RGB888 windows of the 24-bit visual (1, 2, 5, 6, 9 to 13,
# 24) and RGBA8888 ones of a 32-bit one (26 to 30); RGB565 pbuffers only
# (no 16-bit visual on this screen), RGB10_A2 and half float pbuffers only;
# then the 4x twins of each: 31 to 55 of 1 to 25, 56 to 60 of 26 to 30
# (eglGetConfigs's order: 1 to 25, 31 to 55, 26 to 30, 56 to 60)
configs=$(printf '%s\n' "$section" | grep -E '^0x[0-9a-f][0-9a-f] ' |
	awk '{ n = length($12); print $1, $2, $4, $5, $6, $7, $8, $9, substr($12, 1, n - 2),
		substr($12, n - 1), $NF, $10 }')
summary=$(printf '%s\n' "$configs" | awk '{ print $1, $2, $3, $4, $5, $6, $7, $8, $12, $10, $11 }' |
	tr '\n' ';')
want="0x01 32 8 8 8 8 0 0 0 TC win,pb;0x02 32 8 8 8 8 24 8 0 TC win,pb;\
0x03 16 5 6 5 0 0 0 0 -- pb;0x04 16 5 6 5 0 24 8 0 -- pb;0x05 32 8 8 8 8 16 0 0 TC win,pb;\
0x06 32 8 8 8 8 24 0 0 TC win,pb;0x07 16 5 6 5 0 16 0 0 -- pb;0x08 16 5 6 5 0 24 0 0 -- pb;\
0x09 24 8 8 8 0 0 0 0 TC win,pb;0x0a 24 8 8 8 0 24 8 0 TC win,pb;0x0b 24 8 8 8 0 16 0 0 TC win,pb;\
0x0c 24 8 8 8 0 24 0 0 TC win,pb;0x0d 24 8 8 8 0 32 0 0 TC win,pb;0x0e 32 10 10 10 2 0 0 0 -- pb;\
0x0f 32 10 10 10 2 24 8 0 -- pb;0x10 32 10 10 10 2 16 0 0 -- pb;0x11 32 10 10 10 2 24 0 0 -- pb;\
0x12 32 10 10 10 2 32 0 0 -- pb;0x13 64 16 16 16 16 0 0 0 -- pb;0x14 64 16 16 16 16 24 8 0 -- pb;\
0x15 64 16 16 16 16 16 0 0 -- pb;0x16 64 16 16 16 16 24 0 0 -- pb;\
0x17 64 16 16 16 16 32 0 0 -- pb;0x18 32 8 8 8 8 32 0 0 TC win,pb;0x19 16 5 6 5 0 32 0 0 -- pb;\
0x1f 32 8 8 8 8 0 0 4 TC win,pb;0x20 32 8 8 8 8 24 8 4 TC win,pb;0x21 16 5 6 5 0 0 0 4 -- pb;\
0x22 16 5 6 5 0 24 8 4 -- pb;0x23 32 8 8 8 8 16 0 4 TC win,pb;0x24 32 8 8 8 8 24 0 4 TC win,pb;\
0x25 16 5 6 5 0 16 0 4 -- pb;0x26 16 5 6 5 0 24 0 4 -- pb;0x27 24 8 8 8 0 0 0 4 TC win,pb;\
0x28 24 8 8 8 0 24 8 4 TC win,pb;0x29 24 8 8 8 0 16 0 4 TC win,pb;\
0x2a 24 8 8 8 0 24 0 4 TC win,pb;0x2b 24 8 8 8 0 32 0 4 TC win,pb;0x2c 32 10 10 10 2 0 0 4 -- pb;\
0x2d 32 10 10 10 2 24 8 4 -- pb;0x2e 32 10 10 10 2 16 0 4 -- pb;0x2f 32 10 10 10 2 24 0 4 -- pb;\
0x30 32 10 10 10 2 32 0 4 -- pb;0x31 64 16 16 16 16 0 0 4 -- pb;0x32 64 16 16 16 16 24 8 4 -- pb;\
0x33 64 16 16 16 16 16 0 4 -- pb;0x34 64 16 16 16 16 24 0 4 -- pb;\
0x35 64 16 16 16 16 32 0 4 -- pb;0x36 32 8 8 8 8 32 0 4 TC win,pb;0x37 16 5 6 5 0 32 0 4 -- pb;\
0x1a 32 8 8 8 8 0 0 0 TC win,pb;0x1b 32 8 8 8 8 24 8 0 TC win,pb;0x1c 32 8 8 8 8 16 0 0 TC win,pb;\
0x1d 32 8 8 8 8 24 0 0 TC win,pb;0x1e 32 8 8 8 8 32 0 0 TC win,pb;0x38 32 8 8 8 8 0 0 4 TC win,pb;\
0x39 32 8 8 8 8 24 8 4 TC win,pb;0x3a 32 8 8 8 8 16 0 4 TC win,pb;\
0x3b 32 8 8 8 8 24 0 4 TC win,pb;0x3c 32 8 8 8 8 32 0 4 TC win,pb;"
[ "$summary" = "$want" ]
check $? "the window and pbuffer configs (got: $summary)"
# the 24-bit visual's configs share it, 26 to 30 another one, the others none
# (the k-th config listed: 26 to 30 are the 51st to 55th)
visuals=$(printf '%s\n' "$configs" | awk '{ print $9 }' | tr '\n' ' ')
ok=0 k=0
for v in $visuals; do
	k=$((k + 1))
	case $k in
	1) v24=$v ;;
	51) v32=$v ;;
	esac
done
k=0
for v in $visuals; do
	k=$((k + 1))
	case $k in
	1 | 2 | 5 | 6 | 9 | 10 | 11 | 12 | 13 | 24) [ "$v" = "$v24" ] || ok=1 ;;
	26 | 27 | 30 | 31 | 34 | 35 | 36 | 37 | 38 | 49) [ "$v" = "$v24" ] || ok=1 ;;
	5[1-9] | 60) [ "$v" = "$v32" ] || ok=1 ;;
	*) [ "$v" = 0x00 ] || ok=1 ;;
	esac
done
[ "$ok" -eq 0 ] && [ "$k" -eq 60 ] && [ "$v24" != 0x00 ] && [ "$v32" != 0x00 ] &&
	[ "$v24" != "$v32" ]
check $? "the visuals of the window configs (got: $visuals)"
exit $failed
