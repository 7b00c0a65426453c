#!/bin/sh
# test-stack.sh AGX-STACK: agx-stack up, status, top and down over a
# state directory of their own (AGX_RUNTIME_DIR): the whole stack started
# and idempotent, a daemon killed and the stack started afresh, agx-top on
# its metrics, everything stopped and the pid files gone.  TAP on stdout.
set -u
stack=$1
dir=$(mktemp -d /tmp/agx-test-stack-XXXXXX)
export AGX_RUNTIME_DIR="$dir"
daemons="sim memmgr fwchan scheduler"
out="$dir/out"
n=0
failed=0

# shellcheck disable=SC2317 # called by the trap
cleanup() {
	"$stack" down >/dev/null 2>&1
	if [ "$failed" -ne 0 ]; then
		for log in "$dir"/*.log; do
			[ -e "$log" ] || continue
			echo "# --- $log"
			sed 's/^/# /' "$log"
		done
	fi
	rm -rf "$dir"
}
trap cleanup EXIT

ok() {
	n=$((n + 1))
	echo "ok $n - $1"
}

not_ok() {
	n=$((n + 1))
	failed=1
	echo "not ok $n - $1"
	sed 's/^/# /' "$out"
}

# check DESCRIPTION EXPECTED-STATUS ARGS...: runs agx-stack ARGS into $out
check() {
	desc=$1 want=$2
	shift 2
	"$stack" "$@" >"$out" 2>&1
	got=$?
	if [ "$got" -eq "$want" ]; then
		ok "$desc"
	else
		echo "agx-stack $* exited with $got, not $want" >>"$out"
		not_ok "$desc"
	fi
}

# A process is gone once it does not run; a zombie nobody reaps
# (the daemons' parent is pid 1, which may not reap) is gone too.
gone() {
	state=$(sed 's/.*) \(.\).*/\1/' "/proc/$1/stat" 2>/dev/null) || return 0
	[ "$state" = Z ]
}

# expect DESCRIPTION PATTERN: $out has a line matching PATTERN
expect() {
	if grep -q "$2" "$out"; then
		ok "$1"
	else
		echo "no line matching '$2'" >>"$out"
		not_ok "$1"
	fi
}

echo "1..22"

check "up starts the stack" 0 up
if [ "$failed" -ne 0 ]; then
	echo "Bail out! the stack does not start"
	exit 1
fi
missing=""
for s in sim.sock memmgr.sock memmgr-priv.sock fwchan.sock scheduler.sock metrics.sock; do
	[ -S "$dir/$s" ] || missing="$missing $s"
done
if [ -z "$missing" ]; then ok "up made every socket"; else
	echo "missing:$missing" >"$out"
	not_ok "up made every socket"
fi
check "status after up exits 0" 0 status
if [ "$(grep -c ' running ' "$out")" -eq 4 ]; then ok "status lists four running"; else
	not_ok "status lists four running"
fi

check "up again succeeds" 0 up
expect "up again says the stack is already up" "already up"

# agx-sim killed: memmgr exits without its device, and up starts it all afresh
sim=$(cat "$dir/sim.pid")
kill -9 "$sim"
for _ in $(seq 100); do
	gone "$sim" && break
	sleep 0.05
done
check "status with agx-sim killed exits 3" 3 status
expect "status names agx-sim dead" "^agx-sim  *dead"
check "up starts the stack afresh" 0 up
check "status after the restart exits 0" 0 status
check "top --once on the running stack" 0 top --once --interval 100
expect "top shows the scheduler's header" "^agx-scheduler  up"

# run: the program gets the stack's sockets, its own stdout, and its exit status
check "run -- PROGRAM on the running stack" 0 run -- true
# shellcheck disable=SC2016 # expanded by the program run, not here
"$stack" run -- sh -c 'echo "memmgr=$AGX_MEMMGR_SOCKET scheduler=$AGX_SCHEDULER_SOCKET"' \
	2>/dev/null >"$out"
if [ "$(cat "$out")" = "memmgr=$dir/memmgr.sock scheduler=$dir/scheduler.sock" ]; then
	ok "run's program saw the stack's sockets, and nothing else on its stdout"
else
	not_ok "run's program saw the stack's sockets, and nothing else on its stdout"
fi
check "run passes on the program's exit status" 3 run -- sh -c 'exit 3'
"$stack" down >/dev/null 2>&1
check "run brings a stopped stack up first" 0 run -- true

pids=""
for d in $daemons; do
	pids="$pids $(cat "$dir/$d.pid")"
done
check "down stops the stack" 0 down
left=""
for p in $pids; do
	gone "$p" || left="$left $p"
done
for d in $daemons; do
	[ -e "$dir/$d.pid" ] && left="$left $d.pid"
done
if [ -z "$left" ]; then ok "down left no process and no pid file"; else
	echo "still there:$left" >"$out"
	not_ok "down left no process and no pid file"
fi
check "status after down exits 3" 3 status
check "down again succeeds" 0 down
expect "down again says nothing runs" "not running"

# in the sanitizer build, the daemons' reports are in their logs
if grep -E 'ERROR: [A-Za-z]+Sanitizer|runtime error:' "$dir"/*.log >"$out"; then
	not_ok "no sanitizer report in the daemons' logs"
else
	ok "no sanitizer report in the daemons' logs"
fi
exit $failed
