#!/bin/sh
# test-agxc.sh AGXC SHADER-DIR [SPIRV-VAL]: agxc's verdicts on the test
# shaders (--check, and --check --expect as piglit's glslparsertest),
# --lowered, --spirv (checked by spirv-val when given), standard input,
# compiling (-o, --disasm, --reflect, --ir, --max-registers, --robust,
# SPIR-V in),
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

# compiling: machine code, its listing, the IR, reflection, a budget, SPIR-V in
comp="$shaders/valid-310.comp"
run "-o compiles to machine code" 0 -o "$dir/k.bin" "$comp"
if [ -s "$dir/k.bin" ]; then ok "the machine code is written"; else not_ok "the machine code is written"; fi
run "--disasm lists it" 0 --disasm "$comp"
has "the listing reads the invocation's position" "get_sr"
has "the listing stores to the buffer" "device_store"
has "the listing ends with stop" "stop"
cp "$out" "$dir/listing-glsl"
run "--reflect describes it" 0 --reflect "$comp"
has "reflection says the stage" '"stage": "compute"'
has "reflection names the uniform" '"name": "scale"'
has "reflection names the buffer" '"kind": "storage_block"'
has "reflection gives the local size" '"local_size": ['
run "--ir prints the IR after translation" 0 --ir "$comp"
has "the IR as translated" "translated:"
has "the IR after a pass" "after agx_opt_"
run "--max-registers 8 compiles" 0 --max-registers 8 --disasm "$comp"
run "--max-registers 2 is refused" 2 --max-registers 2 "$comp"
run "--spirv for compiling" 0 --spirv -o "$dir/k.comp.spv" "$comp"
run "SPIR-V compiles" 0 --disasm "$dir/k.comp.spv"
if cmp -s "$out" "$dir/listing-glsl"; then ok "SPIR-V gives the GLSL's machine code"; else
	not_ok "SPIR-V gives the GLSL's machine code"
fi
run "SPIR-V without a stage in its name" 2 --disasm "$dir/k.bin.spv"
run "SPIR-V cannot be checked" 2 --check "$dir/k.comp.spv"
run "-o - with a listing is refused" 2 -o - --disasm "$comp"
run "a listing with --check is refused" 2 --check --disasm "$comp"
run "a textured 1.00 fragment shader compiles" 0 --disasm "$shaders/valid-100.frag"
has "it samples its textures" "texture_sample"
run "its reflection gives the samplers their units" 0 --reflect "$shaders/valid-100.frag"
has "a sampler's unit" '"texture":'
cat >"$dir/leaves.frag" <<'EOF'
precision mediump float;
struct S { float sample; vec2 buffer[2]; };
uniform S shared;
void main() { gl_FragColor = vec4(shared.sample, shared.buffer[1], 1.0); }
EOF
run "a struct uniform's reflection" 0 --reflect "$dir/leaves.frag"
has "its members as GL names them, the shader's own names" '"name": "shared.buffer"'
has "a member's array stride" '"array_stride": 16'
has "the default block's size" '"uniform_size": 48'
cat >"$dir/gather.comp" <<'EOF'
#version 310 es
layout(local_size_x = 1) in;
layout(binding = 0) buffer B { vec4 v; } b;
uniform highp sampler2D t;
void main() { b.v = textureGather(t, vec2(0.5)); }
EOF
run "what the compiler does not do fails with why" 1 --disasm "$dir/gather.comp"
has "it says what it lacks" "not GLSL ES 3.00's"
# --robust: the attribute's and the block's bounds get registers, which
# the reflection names; without it they have none
cat >"$dir/robust.vert" <<'EOF'
#version 300 es
in vec4 a;
layout(std140) uniform U { vec4 c[4]; };
void main() { gl_Position = a + c[gl_VertexID & 3]; }
EOF
run "--robust compiles" 0 --robust --reflect "$dir/robust.vert"
has "the attribute's element count register" '"size_uniform": '
n_robust=$(grep -c '"size_uniform"' "$out")
run "without --robust" 0 --reflect "$dir/robust.vert"
if [ "$n_robust" -eq 2 ] && ! grep -qF '"size_uniform"' "$out"; then
	ok "only --robust places two bounds, the attribute's and the block's"
else
	echo "size_uniform: $n_robust with --robust" >>"$out"
	not_ok "only --robust places two bounds, the attribute's and the block's"
fi
run "--robust with --check is refused" 2 --robust --check "$dir/robust.vert"
run "--help" 0 --help
has "--help offers the compiling options" "--max-registers"
has "--help offers --robust" "--robust"
echo "1..$n"
