// [config]
// expect_result: fail
// glsl_version: 3.00
// [end config]
//
// GLSL ES 3.00 removed "attribute" (it is reserved).
#version 300 es
attribute vec4 position;

void main()
{
	gl_Position = position;
}
