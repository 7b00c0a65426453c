/*
 * make-spirv-to-ir-seeds DIR: fuzz-spirv-to-ir's seeds, the SPIR-V our front
 * end makes of shaders of each stage that use what the translator takes:
 * functions and early returns, loops, switches, local arrays, blocks,
 * uniforms, shared memory, atomics, built-ins, varyings and discard.
 */
#include <stdio.h>
#include <string.h>

#include "agx/glsl.h"

static const struct {
	const char *name;
	enum agx_glsl_stage stage;
	const char *src;
} shaders[] = {
	{ "compute", AGX_GLSL_COMPUTE,
	  "#version 310 es\n"
	  "layout(local_size_x = 4) in;\n"
	  "layout(std430, binding = 0) buffer B { uint n; vec4 c; float v[]; } b;\n"
	  "layout(std140, binding = 1) uniform U { mat3 m; float k[2]; } u;\n"
	  "uniform float g;\n"
	  "shared float t[4];\n"
	  "struct S { int a; vec2 w; };\n"
	  "float f(float x) { for (int i = 0; i < 4; i++) { if (x > 9.0) return x; x *= 2.0; } "
	  "return -x; }\n"
	  "void main() {\n"
	  "  uint i = gl_LocalInvocationIndex; S s; s.a = int(i); s.w = vec2(b.v[i], g);\n"
	  "  float a[3]; for (int k = 0; k < 3; k++) a[k] = f(s.w.x + float(k));\n"
	  "  switch (s.a) { case 0: a[0] += 1.0; case 1: a[1] = u.k[1]; break; default: a[2] = "
	  "(u.m * b.c.xyz).y; }\n"
	  "  t[i] = a[i % 3u]; barrier();\n"
	  "  b.v[i] = t[3u - i] + atan(a[0], a[1]) + (s.w.y > 0.0 && a[2] < 1.0 ? 1.0 : 0.0);\n"
	  "  atomicAdd(b.n, 1u);\n"
	  "}\n" },
	{ "vertex", AGX_GLSL_VERTEX,
	  "#version 300 es\n"
	  "in vec4 pos; in mat2 m; flat out int k; out vec2 uv[2];\n"
	  "uniform mat4 mvp; uniform vec4 cols[4];\n"
	  "void main() { gl_Position = mvp * pos; uv[0] = m[0] * cols[gl_VertexID & 3].xy;\n"
	  "  uv[1] = pos.xy; k = gl_InstanceID; gl_PointSize = 2.0; }\n" },
	{ "fragment", AGX_GLSL_FRAGMENT,
	  "#version 100\n"
	  "precision mediump float;\n"
	  "varying vec2 uv; uniform vec4 tint;\n"
	  "void main() { if (uv.x < 0.0) discard;\n"
	  "  gl_FragColor = vec4(uv, gl_FragCoord.x, gl_FrontFacing ? 1.0 : 0.0) * tint; }\n" },
};

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: %s DIR\n", argv[0]);
		return 2;
	}
	for (size_t i = 0; i < sizeof(shaders) / sizeof(shaders[0]); i++) {
		struct agx_glsl_result r;
		char path[512];
		FILE *f;
		int ret =
		    agx_glsl_to_spirv(shaders[i].stage, shaders[i].src, strlen(shaders[i].src), &r);

		if (ret != 0) {
			fprintf(stderr, "%s: %d: %s\n", shaders[i].name, ret, r.log.text);
			agx_glsl_result_finish(&r);
			return 1;
		}
		snprintf(path, sizeof(path), "%s/%s", argv[1], shaders[i].name);
		f = fopen(path, "wb");
		if (!f || fwrite(r.spirv, 4, r.spirv_words, f) != r.spirv_words || fclose(f) != 0) {
			perror(path);
			agx_glsl_result_finish(&r);
			return 1;
		}
		agx_glsl_result_finish(&r);
	}
	return 0;
}
