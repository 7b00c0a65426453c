# shellcheck shell=sh
# tap.sh: sourced by the shell tests: their TAP results and what they show
# when one fails.
#
# check STATUS TEXT: "ok N - TEXT" when STATUS is 0, else "not ok N - TEXT"
# (and $failed becomes 1).
# show FILES...: each file that exists, as TAP comments under its name.
n=0
# shellcheck disable=SC2034 # read by the scripts that source this one
failed=0

check() {
	n=$((n + 1))
	if [ "$1" = 0 ]; then
		echo "ok $n - $2"
	else
		# shellcheck disable=SC2034
		failed=1
		echo "not ok $n - $2"
	fi
}

show() {
	for f in "$@"; do
		[ -e "$f" ] || continue
		echo "# --- $f"
		sed 's/^/# /' "$f"
	done
}
