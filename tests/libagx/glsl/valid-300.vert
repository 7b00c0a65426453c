// [config]
// expect_result: pass
// glsl_version: 3.00
// [end config]
#version 300 es
layout(location = 0) in vec4 position;
in ivec2 cell;
uniform mat4 mvp;
out vec2 uv;
flat out int buffer;

void main()
{
	uv = vec2(cell) / 16.0;
	buffer = cell.x ^ cell.y;
	gl_Position = mvp * position;
}
