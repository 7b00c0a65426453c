// [config]
// expect_result: pass
// glsl_version: 3.00
// [end config]
//
// A 3.00 fragment shader: integer operations, a uniform block of the
// default (shared) layout, and "buffer", which 3.10 reserves.
#version 300 es
precision highp float;
precision highp int;
layout(location = 0) out vec4 color;
uniform Material { vec4 tint; int mask; };
uniform highp usampler2D ids;
in vec2 uv;
flat in int buffer;

void main()
{
	uint id = texture(ids, uv).r;
	int bits = (mask & buffer) << 2;
	color = tint * float(bits % 7) + vec4(float(id >> 1u));
}
