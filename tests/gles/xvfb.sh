# shellcheck shell=sh
# xvfb.sh: sourced by the shell tests that need an X server of their own.
#
# xvfb_start DIR [XVFB-ARGS...]: Xvfb on a display number it picks itself
# (-displayfd: no two tests collide), its log in DIR/xvfb.log; once it
# accepts connections DISPLAY names it and XVFB_PID is its pid.  False if
# there is no Xvfb or it did not get ready (within a minute).
# xvfb_stop: stops it; without one, nothing.
XVFB_PID=

xvfb_start() {
	xvfb_dir=$1
	shift
	command -v Xvfb >/dev/null 2>&1 || return 1
	: >"$xvfb_dir/displayfd"
	Xvfb -displayfd 9 -nolisten tcp "$@" 9>"$xvfb_dir/displayfd" \
		>"$xvfb_dir/xvfb.log" 2>&1 &
	XVFB_PID=$!
	tries=0
	while [ "$tries" -lt 600 ]; do
		# Xvfb writes the number and a newline at once, when it is ready
		if grep -q '^[0-9][0-9]*$' "$xvfb_dir/displayfd"; then
			DISPLAY=:$(head -n 1 "$xvfb_dir/displayfd")
			export DISPLAY
			return 0
		fi
		if ! kill -0 "$XVFB_PID" 2>/dev/null; then
			XVFB_PID=
			return 1
		fi
		sleep 0.1
		tries=$((tries + 1))
	done
	xvfb_stop
	return 1
}

xvfb_stop() {
	if [ -n "$XVFB_PID" ]; then
		kill "$XVFB_PID" 2>/dev/null
		wait "$XVFB_PID" 2>/dev/null
	fi
	XVFB_PID=
}
