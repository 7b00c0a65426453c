// [config]
// expect_result: pass
// glsl_version: 3.00
// [end config]
#version 300 es
#extension GL_EXT_clip_cull_distance : require
/* a fuzz seed and an agxc test: the distances read in a fragment shader */
precision mediump float;
out vec4 colour;
void main() {
	colour = vec4(gl_ClipDistance[1], gl_CullDistance[2], 0.0, 1.0);
}
