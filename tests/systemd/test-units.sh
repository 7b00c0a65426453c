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

echo "1..2"
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
