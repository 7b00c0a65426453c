#!/bin/sh
# test-socket-activation.sh BUILD_DIR: the daemons take their listening
# sockets from a service manager.  systemd-socket-activate (Debian's
# systemd package) listens on agx-sim's and agx-memmgr's sockets and
# starts each daemon, in its own process, only when the first client
# connects, handing it the sockets as systemd would (LISTEN_FDS).  Then
# agx-fwchan, started plainly, boots the firmware through both: its socket
# appears only once the firmware runs.  TAP on stdout.
set -u
build=$1
# the daemons say at info level where their sockets came from (and
# systemd-socket-activate passes on only the environment it is told to)
export AGX_LOG_LEVEL=info
command -v systemd-socket-activate >/dev/null ||
	{ echo "1..0 # SKIP no systemd-socket-activate"; exit 77; }
dir=$(mktemp -d /tmp/agx-test-activation-XXXXXX) || exit 1
n=0
failed=0
pids=

cleanup() {
	for pid in $pids; do kill "$pid" 2>/dev/null; done
	for pid in $pids; do wait "$pid" 2>/dev/null; done
	if [ "$failed" -ne 0 ]; then
		for log in "$dir"/*.log; do
			echo "# --- $log"
			sed 's/^/# /' "$log"
		done
	fi
	rm -rf "$dir"
}
trap cleanup EXIT

ok() { n=$((n + 1)); echo "ok $n - $1"; }
not_ok() { n=$((n + 1)); failed=1; echo "not ok $n - $1"; }

# the program the process runs now (systemd-socket-activate execs the daemon in its place)
runs() { tr '\0' '\n' <"/proc/$1/cmdline" 2>/dev/null | head -n 1; }

# waits up to 10 s for a file
appears() {
	i=0
	while [ ! -e "$1" ] && [ $i -lt 1000 ]; do sleep 0.01; i=$((i + 1)); done
	[ -e "$1" ]
}

echo "1..6"
systemd-socket-activate --seqpacket -E AGX_LOG_LEVEL=info -l "$dir/sim.sock" \
	"$build/sim/agx-sim" --socket "$dir/sim.sock" 2>"$dir/sim.log" &
sim=$!
pids="$sim"
systemd-socket-activate --seqpacket -E AGX_LOG_LEVEL=info -l "$dir/memmgr.sock" -l "$dir/memmgr-priv.sock" \
	"$build/memmgr/agx-memmgr" --socket "$dir/memmgr.sock" \
	--privileged-socket "$dir/memmgr-priv.sock" --device "$dir/sim.sock" \
	--fwchan "$dir/fwchan.sock" 2>"$dir/memmgr.log" &
memmgr=$!
pids="$pids $memmgr"

if appears "$dir/sim.sock" && appears "$dir/memmgr-priv.sock"; then
	case "$(runs $sim) $(runs $memmgr)" in
	*agx-sim*|*agx-memmgr*) not_ok "the daemons started before anyone connected" ;;
	*) ok "the sockets listen before the daemons run" ;;
	esac
else
	not_ok "systemd-socket-activate did not listen"
fi

"$build/fwchan/agx-fwchan" --socket "$dir/fwchan.sock" --device "$dir/sim.sock" \
	--memmgr "$dir/memmgr-priv.sock" 2>"$dir/fwchan.log" &
pids="$pids $!"
if appears "$dir/fwchan.sock"; then
	ok "agx-fwchan booted the firmware through the activated daemons"
else
	not_ok "agx-fwchan never listened"
fi

case "$(runs $memmgr)" in
*agx-memmgr*) ok "the first connection started agx-memmgr" ;;
*) not_ok "agx-memmgr was not started: $(runs $memmgr)" ;;
esac
case "$(runs $sim)" in
*agx-sim*) ok "agx-memmgr's connection started agx-sim" ;;
*) not_ok "agx-sim was not started: $(runs $sim)" ;;
esac
grep -q "listening on $dir/sim.sock (from the service manager)" "$dir/sim.log" &&
	ok "agx-sim took its socket from the service manager" ||
	not_ok "agx-sim did not say it took the socket it was given"
if grep -q "listening on $dir/memmgr.sock (from the service manager)" "$dir/memmgr.log" &&
	grep -q "listening on $dir/memmgr-priv.sock (from the service manager)" "$dir/memmgr.log"; then
	ok "agx-memmgr took both its sockets from the service manager"
else
	not_ok "agx-memmgr did not take both sockets it was given"
fi
exit 0
