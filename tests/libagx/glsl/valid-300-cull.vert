// [config]
// expect_result: pass
// glsl_version: 3.00
// [end config]
#version 300 es
#extension GL_EXT_clip_cull_distance : enable
/* a fuzz seed and an agxc test: EXT_clip_cull_distance's arrays, implicitly sized and redeclared */
#define LAST 2
in vec4 p;
out highp float gl_ClipDistance[2];
const int first = 0;
void main() {
	gl_Position = p;
	for (int i = 0; i < 2; i++)
		gl_ClipDistance[i] = p[i];
	gl_CullDistance[first] = p.z;
	gl_CullDistance[LAST] = p.w - float(gl_MaxCombinedClipAndCullDistances);
}
