#!/bin/sh
# run-fuzz.sh FUZZER SECONDS SEED_COMMAND [ARGS...]
# Writes the seed corpus (SEED_COMMAND ARGS... DIR) into a temporary
# directory, then runs one fuzz target, libFuzzer or the standalone driver,
# on it for a bounded time.  A crash, a leak or a sanitizer report fails the
# test, and the input that caused it is printed in hex for the log.
set -u
fuzzer=$1
seconds=$2
shift 2
dir=$(mktemp -d /tmp/agx-fuzz-XXXXXX)
trap 'rm -rf "$dir"' EXIT
mkdir "$dir/corpus" "$dir/artifacts"
"$@" "$dir/corpus" || exit 1
"$fuzzer" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
	-artifact_prefix="$dir/artifacts/" -print_final_stats=1 "$dir/corpus"
status=$?
for f in "$dir"/artifacts/*; do
	[ -e "$f" ] || continue
	echo "failing input $f:"
	od -A x -t x1z "$f" | head -64
done
exit $status
