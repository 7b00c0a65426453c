// [config]
// expect_result: pass
// glsl_version: 1.00
// [end config]
//
// A 1.00 fragment shader: gl_FragColor, texture2D and textureCube, and a
// uniform named "sample", which 3.10 reserves.
#extension GL_OES_standard_derivatives : enable
precision mediump float;
uniform sampler2D texture;
uniform samplerCube sky;
uniform float sample;
varying vec2 uv;
invariant varying float buffer;

void main()
{
	vec4 c = texture2D(texture, uv) + textureCube(sky, vec3(uv, 1.0));
	gl_FragColor = c * sample * buffer + vec4(fwidth(uv.x));
}
