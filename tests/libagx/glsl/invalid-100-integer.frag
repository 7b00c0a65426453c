// [config]
// expect_result: fail
// glsl_version: 1.00
// [end config]
//
// The bitwise operators are reserved in GLSL ES 1.00.
precision mediump float;
uniform int mask;

void main()
{
	int bits = mask & 3;
	gl_FragColor = vec4(float(bits));
}
