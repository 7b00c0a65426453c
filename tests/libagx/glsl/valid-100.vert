// [config]
// expect_result: pass
// glsl_version: 1.00
// [end config]
//
// A 1.00 vertex shader: attributes, varyings, texture2DLod in a vertex
// shader, and identifiers 3.10 reserves.
attribute vec4 position;
attribute vec2 coherent;
uniform mat4 mvp;
uniform sampler2D heights;
varying vec2 uv;
invariant varying float buffer;

#define SCALE(x) ((x) * 0.5)

void main()
{
	float h = texture2DLod(heights, coherent, 0.0).r;
	uv = coherent;
	buffer = SCALE(h);
	gl_Position = mvp * position + vec4(0.0, h, 0.0, 0.0);
}
