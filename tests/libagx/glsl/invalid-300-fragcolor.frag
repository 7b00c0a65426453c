// [config]
// expect_result: fail
// glsl_version: 3.00
// [end config]
//
// gl_FragColor is not a 3.00 built-in.
#version 300 es
precision mediump float;

void main()
{
	gl_FragColor = vec4(1.0);
}
