#!/bin/sh
# test-units.sh BUILD_SYSTEMD_DIR SOURCE_SYSTEMD_DIR BUILD_DIR: the unit
# files as `meson install` installs them, checked by systemd-analyze
# verify.  verify exits 0 even when it warns (an unknown key, a missing
# binary), so any line it prints fails the test.  The units name the
# installed binaries; for the check they name the build tree's.
set -u
built=$1 src=$2 build=$3
command -v systemd-analyze >/dev/null || { echo "1..0 # SKIP no systemd-analyze"; exit 77; }
dir=$(mktemp -d) || exit 1
trap 'rm -rf "$dir"' EXIT

cp "$built"/*.service "$src"/*.socket "$dir"/ || exit 1
for unit in "$dir"/*.service; do
	sed -i -E "s#(ExecStart=)[^ ]*/agx-([a-z]+)#\\1$build/\\2/agx-\\2#" "$unit"
done

echo "1..3"
out=$(cd "$dir" && systemd-analyze verify --man=no ./*.service ./*.socket 2>&1)
if [ $? -eq 0 ] && [ -z "$out" ]; then
	echo "ok 1 - systemd-analyze verify: no complaints about $(ls "$dir" | wc -l) units"
else
	echo "not ok 1 - systemd-analyze verify complained:"
	echo "$out" | sed 's/^/# /'
fi

# every daemon's service is Type=notify with a watchdog, restarted on failure, hardened
bad=
for unit in "$dir"/*.service; do
	for want in Type=notify WatchdogSec= Restart=on-failure NoNewPrivileges=yes \
		ProtectSystem=strict CapabilityBoundingSet= RestrictAddressFamilies=; do
		grep -q "^$want" "$unit" || bad="$bad ${unit##*/}:$want"
	done
done
if [ -z "$bad" ]; then
	echo "ok 2 - every service is notify, watched, restarted and hardened"
else
	echo "not ok 2 - missing:$bad"
fi

# a daemon goes, and comes back, with the peers it cannot work without
# (docs/security.md, "Peers"): bound to them, restarted on its own failure
bad=
binds() {
	unit=$dir/$1
	shift
	line=$(grep '^BindsTo=' "$unit" | tr ' ' '\n' | sed 's/^BindsTo=//')
	for peer in "$@"; do
		echo "$line" | grep -qx "$peer" || bad="$bad ${unit##*/}:BindsTo=$peer"
	done
}
binds agx-memmgr.service agx-sim.service
binds agx-fwchan.service agx-sim.service agx-memmgr.service
binds agx-scheduler.service agx-fwchan.service agx-memmgr.service
if [ -z "$bad" ]; then
	echo "ok 3 - memmgr, fwchan and the scheduler are bound to the peers they need"
else
	echo "not ok 3 - missing:$bad"
fi
