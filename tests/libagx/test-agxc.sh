#!/bin/sh
# test-agxc.sh AGXC SHADER-DIR [SPIRV-VAL]: agxc's verdicts on the test
# shaders (--check, and --check --expect as piglit's glslparsertest),
# --lowered, --spirv (checked by spirv-val when given), standard input,
# and its refusals.  TAP on stdout.
set -u
agxc=$1
shaders=$2
spirv_val=${3:-}
dir=$(mktemp -d /tmp/agx-test-agxc-XXXXXX)
trap 'rm -rf "$dir"' EXIT
out="$dir/out"
n=0

ok() {
	n=$((n + 1))
	echo "ok $n - $1"
}

not_ok() {
	n=$((n + 1))
	echo "not ok $n - $1"
	sed 's/^/# /' "$out"
}

# run DESCRIPTION EXPECTED-STATUS ARGS...: agxc ARGS into $out
run() {
	desc=$1 want=$2
	shift 2
	"$agxc" "$@" >"$out" 2>&1
	got=$?
	if [ "$got" -eq "$want" ]; then
		ok "$desc"
	else
		echo "agxc $* exited with $got, not $want" >>"$out"
		not_ok "$desc"
	fi
}

# has DESCRIPTION TEXT: whether the last output holds TEXT
has() {
	if grep -qF -- "$2" "$out"; then ok "$1"; else not_ok "$1"; fi
}

# The shaders say what they expect, as piglit's do.
for f in "$shaders"/*.vert "$shaders"/*.frag "$shaders"/*.comp; do
	name=$(basename "$f")
	expect=$(sed -n 's/.*expect_result: *\([a-z]*\).*/\1/p' "$f")
	if [ "$expect" = pass ]; then
		run "--check $name compiles" 0 --check "$f"
	else
		run "--check $name does not compile" 1 --check "$f"
		has "--check $name prints the log" "ERROR:"
	fi
	run "--check --expect $expect $name passes" 0 --check --expect "$expect" "$f"
	has "--check --expect $expect $name reports pass" 'PIGLIT: {"result": "pass" }'
done

run "--check --expect fail on a valid shader fails" 1 --check --expect fail "$shaders/valid-100.frag"
has "it says it compiled" "Successfully compiled fragment shader"
has "and reports fail" 'PIGLIT: {"result": "fail" }'
run "--check --expect pass on an invalid shader fails" 1 --check --expect pass \
	"$shaders/invalid-300-attribute.vert"
has "it says it did not compile" "Failed to compile vertex shader"

run "--lowered of a 1.00 shader" 0 --lowered "$shaders/valid-100.frag"
has "is 3.10" "#version 310 es"
has "with gl_FragColor as an output" "out mediump vec4 agx_FragColor;"

for f in "$shaders"/valid-*; do
	name=$(basename "$f")
	run "--spirv of $name" 0 --spirv -o "$dir/out.spv" "$f"
	magic=$(od -A n -t x1 -N 4 "$dir/out.spv" | tr -d ' ')
	if [ "$magic" = 03022307 ]; then
		ok "$name: SPIR-V magic"
	else
		echo "magic $magic" >"$out"
		not_ok "$name: SPIR-V magic"
	fi
	if [ -n "$spirv_val" ]; then
		if "$spirv_val" --target-env opengl4.5 "$dir/out.spv" >"$out" 2>&1; then
			ok "$name: spirv-val accepts it"
		else
			not_ok "$name: spirv-val accepts it"
		fi
	fi
done
run "--spirv of an invalid shader" 1 --spirv -o "$dir/bad.spv" "$shaders/invalid-300-fragcolor.frag"
has "prints why" "'gl_FragColor' : undeclared identifier"

"$agxc" --stage frag - <"$shaders/valid-100.frag" >"$out" 2>&1
if [ $? -eq 0 ]; then ok "standard input with --stage"; else not_ok "standard input with --stage"; fi
run "no stage for standard input" 2 -
has "says so" "no stage"
run "--spirv without -o" 2 --spirv "$shaders/valid-100.frag"

# --check --link, as glslparsertest --check-link: a shader without main()
# compiles but does not link; a compile failure is reported as one
run "--check --link --expect pass of a valid shader" 0 --check --link --expect pass \
	"$shaders/valid-100.frag"
has "says it compiled and linked" "Successfully compiled and linked fragment shader"
printf 'precision mediump float;\nvoid f() { }\n' >"$dir/no-main.frag"
run "--check of a shader without main()" 0 --check "$dir/no-main.frag"
run "--check --link of it" 1 --check --link "$dir/no-main.frag"
has "says why" "Missing entry point"
run "--check --link --expect fail of it" 0 --check --link --expect fail "$dir/no-main.frag"
has "says it did not link" "Failed to link fragment shader"
run "--check --link --expect pass of an invalid shader" 1 --check --link --expect pass \
	"$shaders/invalid-300-attribute.vert"
has "says it did not compile" "Failed to compile vertex shader"
run "--link without --check" 2 --link "$shaders/valid-100.frag"
run "no back-end options yet" 2 --disasm "$shaders/valid-100.frag"
run "--help" 0 --help
if grep -qE -- '--(disasm|ir|reflect)' "$out"; then
	not_ok "--help offers no back-end options"
else
	ok "--help offers no back-end options"
fi
echo "1..$n"
