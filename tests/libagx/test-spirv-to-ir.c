/*
 * test-spirv-to-ir: the SPIR-V translator (agx_spirv_to_ir, agx_compile.h)
 * on SPIR-V that glslang makes of GLSL ES through our front end: the exact
 * IR of small straight-line shaders, the values that fold out of promoted
 * variables, the interface variables of each stage, the structure that
 * control flow becomes, one compute shader per family of built-ins, and
 * malformed modules (truncated, bad ids, wrong word counts, corrupted
 * types, every word mutated), which must be refused with a log and never
 * crash.
 */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <spirv/unified1/spirv.h>

#include "agx/glsl.h"
#include "agx_compile.h"
#include "ir-interp.h"
#include "ir-test.h"

/* ---- helpers ---------------------------------------------------------------------------- */

static enum agx_glsl_stage glsl_stage(enum agx_ir_stage stage)
{
	return stage == AGX_IR_STAGE_VERTEX	? AGX_GLSL_VERTEX
	       : stage == AGX_IR_STAGE_FRAGMENT ? AGX_GLSL_FRAGMENT
						: AGX_GLSL_COMPUTE;
}

/* SPIR-V of a shader our front end accepts (malloc'd words). */
static uint32_t *spirv_of(enum agx_ir_stage stage, const char *src, size_t *words)
{
	struct agx_glsl_result r;
	uint32_t *copy;
	int ret = agx_glsl_to_spirv(glsl_stage(stage), src, strlen(src), &r);

	if (ret != 0)
		note("front end: %d: %s", ret, r.log.text);
	assert_int_equal(ret, 0);
	copy = malloc(r.spirv_words * 4);
	assert_non_null(copy);
	memcpy(copy, r.spirv, r.spirv_words * 4);
	*words = r.spirv_words;
	agx_glsl_result_finish(&r);
	return copy;
}

static int translate_words(const uint32_t *w, size_t n, enum agx_ir_stage stage,
			   struct agx_ir_shader **out, char **log)
{
	int ret = agx_spirv_to_ir(w, n, stage, out, log);

	if (ret == 0) {
		assert_non_null(*out);
		assert_null(*log);
	} else {
		assert_null(*out);
		/* every refusal says why, in a sentence */
		assert_non_null(*log);
		assert_true(strlen(*log) > 10);
	}
	return ret;
}

/* The translated shader, which must be valid. */
static struct agx_ir_shader *translate(enum agx_ir_stage stage, const char *src)
{
	size_t n;
	uint32_t *w = spirv_of(stage, src, &n);
	struct agx_ir_shader *s = NULL;
	char *log = NULL;
	int ret = translate_words(w, n, stage, &s, &log);

	if (ret != 0)
		note("translator: %d: %s", ret, log);
	assert_int_equal(ret, 0);
	free(w);
	assert_valid(s);
	return s;
}

static char *text_of(struct agx_ir_shader *s)
{
	char *text = agx_ir_shader_to_string(s);

	assert_non_null(text);
	return text;
}

static void check_text(struct agx_ir_shader *s, const char *want)
{
	char *got = text_of(s);

	if (strcmp(got, want) != 0)
		note("got:\n%s\nwant:\n%s", got, want);
	assert_string_equal(got, want);
	free(got);
}

static unsigned count_op(struct agx_ir_shader *s, enum agx_ir_op op)
{
	unsigned n = 0;

	agx_ir_foreach_function(s, f) {
		agx_ir_foreach_block(f, blk) {
			agx_ir_foreach_instr(blk, i)
				n += i->op == op;
		}
	}
	return n;
}

static unsigned count_cf(struct agx_ir_cf_list *list, enum agx_ir_cf_type type)
{
	unsigned n = 0;

	for (struct agx_ir_link *l = list->nodes.next; l != &list->nodes; l = l->next) {
		struct agx_ir_cf_node *node = agx_ir_container_of(l, struct agx_ir_cf_node, link);

		n += node->type == type;
		if (node->type == AGX_IR_CF_IF) {
			n += count_cf(&agx_ir_node_if(node)->then_list, type);
			n += count_cf(&agx_ir_node_if(node)->else_list, type);
		} else if (node->type == AGX_IR_CF_LOOP) {
			n += count_cf(&agx_ir_node_loop(node)->body, type);
		}
	}
	return n;
}

static const struct agx_ir_var *find_var(struct agx_ir_shader *s, const char *name)
{
	for (unsigned i = 0; i < s->num_vars; i++)
		if (strcmp(s->vars[i].name, name) == 0)
			return &s->vars[i];
	note("no interface variable %s", name);
	fail();
	return NULL;
}

/* The values stored to an SSBO at constant addresses, in order: "addr=value" words. */
static void check_stores(struct agx_ir_shader *s, const char *want)
{
	char got[1024] = "";
	size_t at = 0;

	agx_ir_foreach_function(s, f) {
		agx_ir_foreach_block(f, blk) {
			agx_ir_foreach_instr(blk, i) {
				if (i->op != AGX_IR_OP_store_ssbo)
					continue;
				assert_null(i->src[0].def);
				assert_null(i->src[1].def);
				if (i->src[0].type == AGX_IR_TYPE_F32) {
					float v;

					memcpy(&v, &i->src[0].imm, 4);
					at += snprintf(got + at, sizeof(got) - at, "%s%u=%g",
						       at ? " " : "", i->src[1].imm, v);
				} else {
					at += snprintf(got + at, sizeof(got) - at, "%s%u=%d",
						       at ? " " : "", i->src[1].imm,
						       (int)i->src[0].imm);
				}
			}
		}
	}
	if (strcmp(got, want) != 0)
		note("stores: %s, want %s", got, want);
	assert_string_equal(got, want);
}

/* ---- exact IR ----------------------------------------------------------------------------- */

static void test_straight_line_exact(void **state)
{
	/* a function, a promoted variable and a swizzle: no memory but the SSBO */
	struct agx_ir_shader *s = translate(
	    AGX_IR_STAGE_COMPUTE, "#version 310 es\n"
				  "layout(local_size_x = 8) in;\n"
				  "layout(std430, binding = 2) buffer B { vec2 a; float v[]; } b;\n"
				  "float twice(float x) { return x * 2.0; }\n"
				  "void main() {\n"
				  "  vec2 p = b.a.yx;\n"
				  "  p.x = twice(p.x) + p.y;\n"
				  "  b.v[gl_LocalInvocationID.x] = p.x;\n"
				  "}\n");

	(void)state;
	check_text(s, "shader compute\n"
		      "function main {\n"
		      "  block 0:\n"
		      "    %0:f32 = load_ssbo 0:i32, binding=2\n"
		      "    %1:f32 = load_ssbo 4:i32, binding=2\n"
		      "    %2:f32 = fmul %1, 2.0:f32\n"
		      "    %3:f32 = fadd %2, %0\n"
		      "    %4:i32 = load_local_id component=0\n"
		      "    %5:i32 = imul %4, 4:i32\n"
		      "    %6:i32 = iadd 8:i32, %5\n"
		      "    store_ssbo %3, %6, binding=2\n"
		      "}\n");
	assert_int_equal(s->local_size[0], 8);
	assert_int_equal(s->local_size[1], 1);
	agx_ir_shader_destroy(s);
}

static void test_if_exact(void **state)
{
	/* a variable assigned in one arm becomes a phi at the merge */
	struct agx_ir_shader *s =
	    translate(AGX_IR_STAGE_COMPUTE, "#version 310 es\n"
					    "layout(local_size_x = 1) in;\n"
					    "layout(std430, binding = 0) buffer B { int v[]; } b;\n"
					    "void main() {\n"
					    "  int x = b.v[0];\n"
					    "  if (x > 3) x = 7;\n"
					    "  b.v[1] = x;\n"
					    "}\n");

	(void)state;
	check_text(s, "shader compute\n"
		      "function main {\n"
		      "  block 0:\n"
		      "    %0:i32 = load_ssbo 0:i32, binding=0\n"
		      "    %1:b1 = ilt 3:i32, %0\n"
		      "  if %1 {\n"
		      "    block 1:\n"
		      "  } else {\n"
		      "    block 2:\n"
		      "  }\n"
		      "  block 3:\n"
		      "    %2:i32 = phi [7:i32, block 1], [%0, block 2]\n"
		      "    store_ssbo %2, 4:i32, binding=0\n"
		      "}\n");
	agx_ir_shader_destroy(s);
}

static void test_loop_exact(void **state)
{
	/* a for loop: the counter's phi, the exit as a break, the increment at the end */
	struct agx_ir_shader *s = translate(
	    AGX_IR_STAGE_COMPUTE, "#version 310 es\n"
				  "layout(local_size_x = 1) in;\n"
				  "layout(std430, binding = 0) buffer B { int n; int v[]; } b;\n"
				  "void main() {\n"
				  "  int acc = 0;\n"
				  "  for (int i = 0; i < b.n; i++) acc += i;\n"
				  "  b.v[0] = acc;\n"
				  "}\n");

	(void)state;
	check_text(s, "shader compute\n"
		      "function main {\n"
		      "  block 0:\n"
		      "  loop {\n"
		      "    block 1:\n"
		      "      %1:i32 = phi [0:i32, block 0], [%5, block 4]\n"
		      "      %2:i32 = phi [0:i32, block 0], [%6, block 4]\n"
		      "      %3:i32 = load_ssbo 0:i32, binding=0\n"
		      "      %4:b1 = ilt %2, %3\n"
		      "    if %4 {\n"
		      "      block 2:\n"
		      "        %5:i32 = iadd %1, %2\n"
		      "    } else {\n"
		      "      block 3:\n"
		      "        break\n"
		      "    }\n"
		      "    block 4:\n"
		      "      %6:i32 = iadd %2, 1:i32\n"
		      "  }\n"
		      "  block 5:\n"
		      "    store_ssbo %1, 4:i32, binding=0\n"
		      "}\n");
	agx_ir_shader_destroy(s);
}

/* ---- values that fold out of promoted variables ------------------------------------------------
 */

static void test_constant_stores(void **state)
{
	/* locals, arrays, structs, swizzles, matrices and inlined calls: only immediates stay */
	struct agx_ir_shader *s =
	    translate(AGX_IR_STAGE_COMPUTE,
		      "#version 310 es\n"
		      "layout(local_size_x = 1) in;\n"
		      "layout(std430, binding = 0) buffer B { float f[8]; int i[4]; } b;\n"
		      "struct S { int k; vec2 w; };\n"
		      "S make(int k) { S s; s.k = k; s.w = vec2(0.5, 1.5); return s; }\n"
		      "void swap(inout float x, inout float y) { float t = x; x = y; y = t; }\n"
		      "void main() {\n"
		      "  vec4 v = vec4(1.0, 2.0, 3.0, 4.0);\n"
		      "  v.yz = v.zy;\n"
		      "  swap(v.x, v.w);\n"
		      "  float a[3];\n"
		      "  a[0] = v.x; a[1] = a[0]; a[2] = 9.0;\n"
		      "  S s = make(6);\n"
		      "  mat2 m = mat2(1.0, 2.0, 3.0, 4.0);\n"
		      "  b.f[0] = v.x; b.f[1] = v.y; b.f[2] = v.z; b.f[3] = v.w;\n"
		      "  b.f[4] = a[1]; b.f[5] = s.w.y; b.f[6] = m[1][0]; b.f[7] = a[2];\n"
		      "  b.i[0] = s.k; b.i[1] = ivec2(3, 8).y;\n"
		      "}\n");

	(void)state;
	check_stores(s, "0=4 4=3 8=2 12=1 16=4 20=1.5 24=3 28=9 32=6 36=8");
	agx_ir_shader_destroy(s);
}

static void test_switch_and_returns(void **state)
{
	/* every path of a constant selector through a switch with fall-through */
	static const char *src = "#version 310 es\n"
				 "layout(local_size_x = 1) in;\n"
				 "layout(std430, binding = 0) buffer B { int v[]; } b;\n"
				 "int f(int k) {\n"
				 "  int y = 0;\n"
				 "  switch (k) {\n"
				 "  case 1: y = 10;\n"
				 "  case 2: y += 1;\n"
				 "  default: y += 100; break;\n"
				 "  case 7: return 7;\n"
				 "  }\n"
				 "  return y;\n"
				 "}\n"
				 "void main() { b.v[0] = f(int(gl_GlobalInvocationID.x)); }\n";
	struct agx_ir_shader *s = translate(AGX_IR_STAGE_COMPUTE, src);

	(void)state;
	/* one if per case and no loop: a switch needs none */
	assert_int_equal(count_cf(&agx_ir_shader_first_function(s)->body, AGX_IR_CF_LOOP), 0);
	assert_true(count_cf(&agx_ir_shader_first_function(s)->body, AGX_IR_CF_IF) >= 4);
	assert_int_equal(count_op(s, AGX_IR_OP_store_ssbo), 1);
	agx_ir_shader_destroy(s);
}

/* ---- interfaces
 * ----------------------------------------------------------------------------------- */

static void test_interface_compute(void **state)
{
	struct agx_ir_shader *s = translate(
	    AGX_IR_STAGE_COMPUTE,
	    "#version 310 es\n"
	    "layout(local_size_x = 16, local_size_y = 2) in;\n"
	    "layout(std430, binding = 3) buffer Data { uint count; vec4 c; float d[]; } data;\n"
	    "layout(std140, binding = 1) uniform Params { vec3 scale; float k[2]; mat3 m; };\n"
	    "uniform float gain;\n"
	    "uniform vec2 offs[3];\n"
	    "uniform mat3 rot;\n"
	    "shared float tile[32];\n"
	    "shared int flag;\n"
	    "void main() {\n"
	    "  uint i = gl_LocalInvocationIndex;\n"
	    "  tile[i] = data.d[i] * gain + offs[2].y + rot[1][2] + scale.z + k[1] + m[2][0];\n"
	    "  memoryBarrierShared();\n"
	    "  barrier();\n"
	    "  data.d[i] = tile[31u - i];\n"
	    "  atomicAdd(data.count, 1u);\n"
	    "  atomicMax(flag, int(i));\n"
	    "}\n");
	const struct agx_ir_var *v;

	(void)state;
	assert_int_equal(s->local_size[0], 16);
	assert_int_equal(s->local_size[1], 2);
	assert_int_equal(s->local_size[2], 1);
	v = find_var(s, "data");
	assert_int_equal(v->kind, AGX_IR_VAR_SSBO);
	assert_string_equal(v->glsl_type, "Data");
	assert_int_equal(v->binding, 3);
	assert_int_equal(v->size, 32); /* the runtime array starts at 32 */
	v = find_var(s, "Params");     /* a block without an instance name goes by its own */
	assert_int_equal(v->kind, AGX_IR_VAR_UBO);
	assert_int_equal(v->binding, 1);
	assert_int_equal(v->size, 96); /* std140: vec3 at 0, k at 16 (stride 16), m at 48 */
	v = find_var(s, "gain");
	assert_int_equal(v->kind, AGX_IR_VAR_UNIFORM);
	assert_string_equal(v->glsl_type, "float");
	assert_int_equal(v->offset, 0);
	assert_int_equal(v->size, 4);
	v = find_var(s, "offs");
	assert_string_equal(v->glsl_type, "vec2");
	assert_int_equal(v->array_size, 3);
	assert_int_equal(v->components, 2);
	assert_int_equal(v->offset, 16);
	assert_int_equal(v->size, 48);
	v = find_var(s, "rot");
	assert_string_equal(v->glsl_type, "mat3");
	assert_int_equal(v->components, 9);
	assert_int_equal(v->offset, 64);
	assert_int_equal(v->size, 48);
	assert_int_equal(s->uniform_size, 112);
	v = find_var(s, "tile");
	assert_int_equal(v->kind, AGX_IR_VAR_SHARED);
	assert_int_equal(v->offset, 0);
	assert_int_equal(v->size, 128);
	v = find_var(s, "flag");
	assert_int_equal(v->offset, 128);
	assert_int_equal(v->size, 4);
	assert_int_equal(s->shared_size, 132);
	/* offs[2].y at 16 + 2 * 16 + 4, rot[1][2] at 64 + 16 + 8 */
	{
		char *text = text_of(s);

		assert_non_null(strstr(text, "load_uniform offset=52"));
		assert_non_null(strstr(text, "load_uniform offset=88"));
		/* k[1] at 32 and m[2][0] at 48 + 32 in the UBO */
		assert_non_null(strstr(text, "load_ubo 32:i32, binding=1"));
		assert_non_null(strstr(text, "load_ubo 80:i32, binding=1"));
		assert_non_null(strstr(text, "atomic_ssbo 0:i32, 1:i32, binding=3, op=0"));
		assert_non_null(strstr(text, "op=7"));
		free(text);
	}
	assert_int_equal(count_op(s, AGX_IR_OP_barrier), 2);
	assert_int_equal(count_op(s, AGX_IR_OP_store_shared), 1);
	agx_ir_shader_destroy(s);
}

static void test_interface_vertex(void **state)
{
	struct agx_ir_shader *s =
	    translate(AGX_IR_STAGE_VERTEX, "#version 300 es\n"
					   "layout(location = 2) in vec4 pos;\n"
					   "layout(location = 5) in mat2 m;\n"
					   "in ivec2 idx;\n"
					   "flat out int k;\n"
					   "out vec2 uv[2];\n"
					   "centroid out float c;\n"
					   "uniform mat4 mvp;\n"
					   "void main() {\n"
					   "  gl_Position = mvp * pos;\n"
					   "  uv[0] = m[1]; uv[1] = pos.xy;\n"
					   "  k = gl_VertexID + gl_InstanceID + idx.y;\n"
					   "  c = 1.0;\n"
					   "}\n");
	const struct agx_ir_var *v;
	char *text;

	(void)state;
	v = find_var(s, "pos");
	assert_int_equal(v->kind, AGX_IR_VAR_INPUT);
	assert_int_equal(v->location, 2);
	assert_string_equal(v->glsl_type, "vec4");
	v = find_var(s, "m");
	assert_int_equal(v->location, 5);
	assert_string_equal(v->glsl_type, "mat2");
	v = find_var(s, "idx");
	assert_string_equal(v->glsl_type, "ivec2");
	assert_int_equal(v->type, AGX_IR_TYPE_I32);
	v = find_var(s, "k");
	assert_int_equal(v->kind, AGX_IR_VAR_OUTPUT);
	assert_int_equal(v->interp, AGX_IR_INTERP_FLAT);
	v = find_var(s, "uv");
	assert_int_equal(v->array_size, 2);
	v = find_var(s, "c");
	assert_int_equal(v->interp, AGX_IR_INTERP_CENTROID);
	v = find_var(s, "gl_Position");
	assert_int_equal(v->location, AGX_IR_LOCATION_POSITION);
	v = find_var(s, "mvp");
	assert_int_equal(v->kind, AGX_IR_VAR_UNIFORM);
	text = text_of(s);
	/* m[1] is the next location, and each uv element its own */
	assert_non_null(strstr(text, "load_input location=6, component=1"));
	assert_non_null(strstr(text, "location=256, component=3"));
	assert_non_null(strstr(text, "load_vertex_id"));
	assert_non_null(strstr(text, "load_instance_id"));
	assert_null(strstr(text, "location=257")); /* gl_PointSize is not written */
	free(text);
	assert_int_equal(count_op(s, AGX_IR_OP_store_output), 4 + 4 + 1 + 1);
	agx_ir_shader_destroy(s);
}

static void test_interface_fragment(void **state)
{
	struct agx_ir_shader *s =
	    translate(AGX_IR_STAGE_FRAGMENT,
		      "#version 100\n"
		      "precision mediump float;\n"
		      "varying vec2 uv;\n"
		      "uniform sampler2D tex;\n"
		      "uniform samplerCube env;\n"
		      "void main() {\n"
		      "  if (uv.x < 0.0) discard;\n"
		      "  gl_FragColor = vec4(uv, gl_FragCoord.x,\n"
		      "                      gl_FrontFacing ? gl_PointCoord.y : 0.0);\n"
		      "}\n");
	const struct agx_ir_var *v;
	char *text;

	(void)state;
	v = find_var(s, "uv");
	assert_int_equal(v->kind, AGX_IR_VAR_INPUT);
	v = find_var(s, "agx_FragColor"); /* the lowering's name for gl_FragColor */
	assert_int_equal(v->kind, AGX_IR_VAR_OUTPUT);
	assert_int_equal(v->components, 4);
	v = find_var(s, "tex");
	assert_int_equal(v->kind, AGX_IR_VAR_SAMPLER);
	assert_string_equal(v->glsl_type, "sampler2D");
	v = find_var(s, "env");
	assert_string_equal(v->glsl_type, "samplerCube");
	/* glslang's placeholder bindings are all 0; the locations tell the samplers apart */
	assert_int_equal(v->location, 1);
	assert_int_equal(find_var(s, "tex")->location, 0);
	assert_int_equal(count_op(s, AGX_IR_OP_discard), 1);
	assert_int_equal(count_op(s, AGX_IR_OP_load_frag_coord), 1);
	assert_int_equal(count_op(s, AGX_IR_OP_load_front_facing), 1);
	text = text_of(s);
	assert_non_null(strstr(text, "load_input location=259, component=1"));
	free(text);
	agx_ir_shader_destroy(s);
}

/*
 * A struct varying is a var per member, named as GL names it ("s.m"), at
 * the consecutive locations its members take from the struct's (a mat2
 * two), each with the struct's interpolation; the fragment shader's
 * inputs the same.
 */
static void test_interface_struct(void **state)
{
	static const char *decls = "struct S { float a; mat2 m; ivec3 i; };\n"
				   "struct P { vec3 p; float q; };\n";
	char vs[1024], fs[1024];
	struct agx_ir_shader *s;
	const struct agx_ir_var *v;
	unsigned base;
	char *text, want[64];

	(void)state;
	snprintf(vs, sizeof(vs),
		 "#version 300 es\n%s"
		 "in vec4 pos;\n"
		 "flat out S s;\n"
		 "out P p;\n"
		 "centroid out P c;\n"
		 "void main() {\n"
		 "  gl_Position = pos;\n"
		 "  s.a = pos.x; s.m = mat2(pos); s.i = ivec3(1, 2, 3);\n"
		 "  p.p = pos.xyz; p.q = pos.w; c = p;\n"
		 "}\n",
		 decls);
	s = translate(AGX_IR_STAGE_VERTEX, vs);
	for (unsigned i = 0; i < s->num_vars; i++)
		assert_string_not_equal(s->vars[i].name, "s"); /* no var of the whole struct */
	v = find_var(s, "s.a");
	base = v->location;
	assert_int_equal(v->kind, AGX_IR_VAR_OUTPUT);
	assert_string_equal(v->glsl_type, "float");
	assert_int_equal(v->interp, AGX_IR_INTERP_FLAT);
	v = find_var(s, "s.m");
	assert_int_equal(v->location, base + 1);
	assert_string_equal(v->glsl_type, "mat2");
	assert_int_equal(v->components, 4);
	assert_int_equal(v->interp, AGX_IR_INTERP_FLAT);
	v = find_var(s, "s.i");
	assert_int_equal(v->location, base + 3);
	assert_int_equal(v->type, AGX_IR_TYPE_I32);
	assert_int_equal(v->components, 3);
	assert_int_equal(find_var(s, "p.q")->location, find_var(s, "p.p")->location + 1);
	assert_int_equal(find_var(s, "p.p")->interp, AGX_IR_INTERP_SMOOTH);
	assert_int_equal(find_var(s, "c.p")->interp, AGX_IR_INTERP_CENTROID);
	assert_int_equal(find_var(s, "c.q")->interp, AGX_IR_INTERP_CENTROID);
	/* the second column of s.m is the location after the first */
	text = text_of(s);
	snprintf(want, sizeof(want), "location=%u, component=1", base + 2);
	assert_non_null(strstr(text, want));
	free(text);
	/* 1 + 4 + 3 and 4 twice, and gl_Position */
	assert_int_equal(count_op(s, AGX_IR_OP_store_output), 8 + 4 + 4 + 4);
	agx_ir_shader_destroy(s);

	snprintf(fs, sizeof(fs),
		 "#version 300 es\nprecision highp float;\n%s"
		 "flat in S s;\n"
		 "centroid in P c;\n"
		 "out vec4 o;\n"
		 "void main() { o = vec4(s.m[1].y, float(s.i.z), c.p.x, c.q); }\n",
		 decls);
	s = translate(AGX_IR_STAGE_FRAGMENT, fs);
	v = find_var(s, "s.m");
	assert_int_equal(v->kind, AGX_IR_VAR_INPUT);
	assert_int_equal(v->interp, AGX_IR_INTERP_FLAT);
	base = v->location;
	assert_int_equal(find_var(s, "s.a")->location + 1, base);
	assert_int_equal(find_var(s, "s.i")->location, base + 2);
	assert_int_equal(find_var(s, "c.q")->interp, AGX_IR_INTERP_CENTROID);
	text = text_of(s);
	snprintf(want, sizeof(want), "load_input location=%u, component=1", base + 1);
	assert_non_null(strstr(text, want));
	snprintf(want, sizeof(want), "load_input location=%u, component=2", base + 2);
	assert_non_null(strstr(text, want));
	free(text);
	agx_ir_shader_destroy(s);
}

/* ---- a module written out by hand -------------------------------------------------------- */

struct words {
	uint32_t w[512];
	size_t n;
};

/* An instruction: the opcode, its operands, and a string operand last when s is not NULL. */
static void inst(struct words *m, SpvOp op, const uint32_t *ops, size_t n, const char *s)
{
	size_t len = s ? strlen(s) / 4 + 1 : 0;

	assert_true(m->n + 1 + n + len <= sizeof(m->w) / 4);
	m->w[m->n++] = (uint32_t)(1 + n + len) << 16 | op;
	for (size_t i = 0; i < n; i++)
		m->w[m->n++] = ops[i];
	if (s) {
		memset(&m->w[m->n], 0, len * 4);
		memcpy(&m->w[m->n], s, strlen(s));
		m->n += len;
	}
}

#define INST(m, op, ...)                                                                           \
	inst(m, op, (const uint32_t[]){ __VA_ARGS__ },                                             \
	     sizeof((const uint32_t[]){ __VA_ARGS__ }) / 4, NULL)
#define INST_S(m, op, s, ...)                                                                      \
	inst(m, op, (const uint32_t[]){ __VA_ARGS__ },                                             \
	     sizeof((const uint32_t[]){ __VA_ARGS__ }) / 4, s)

/*
 * What GLSL ES 3.00 refuses as a varying but SPIR-V has, the same code
 * places: an array of structs holding an array of structs, a member of
 * its own interpolation.  A vertex shader with
 *
 *   struct S { float f; mat2 m; };
 *   struct T { S s[2]; vec2 v; };     // v: MemberDecorate Flat
 *   layout(location = 2) out T o[2];
 *   o[1].s[1].m[1].y = 1.0;
 *
 * is a var per leaf, "o[1].s[0].m", each S 3 locations and T 7.
 */
static void test_interface_struct_nested(void **state)
{
	enum {
		MAIN = 1,
		VOID,
		FN,
		FLOAT,
		V2,
		MAT2,
		S,
		INT,
		C0,
		C1,
		C2,
		ARR_S,
		T,
		ARR_T,
		PTR_T,
		OUT,
		PTR_F,
		LABEL,
		CHAIN,
		ONE,
		BOUND
	};
	struct words m = { .n = 0 };
	struct agx_ir_shader *s = NULL;
	const struct agx_ir_var *v;
	char *log = NULL, *text, name[32];
	size_t at;

	(void)state;
	m.w[m.n++] = SpvMagicNumber;
	m.w[m.n++] = 0x00010000;
	m.w[m.n++] = 0;
	m.w[m.n++] = BOUND;
	m.w[m.n++] = 0;
	INST(&m, SpvOpCapability, SpvCapabilityShader);
	INST(&m, SpvOpMemoryModel, SpvAddressingModelLogical, SpvMemoryModelGLSL450);
	at = m.n;
	inst(&m, SpvOpEntryPoint, (const uint32_t[]){ SpvExecutionModelVertex, MAIN }, 2, "main");
	m.w[m.n++] = OUT; /* the interface, after the name */
	m.w[at] += 1u << 16;
	INST_S(&m, SpvOpName, "o", OUT);
	INST_S(&m, SpvOpName, "S", S);
	INST_S(&m, SpvOpMemberName, "f", S, 0);
	INST_S(&m, SpvOpMemberName, "m", S, 1);
	INST_S(&m, SpvOpName, "T", T);
	INST_S(&m, SpvOpMemberName, "s", T, 0);
	INST_S(&m, SpvOpMemberName, "v", T, 1);
	INST(&m, SpvOpDecorate, OUT, SpvDecorationLocation, 2);
	INST(&m, SpvOpMemberDecorate, T, 1, SpvDecorationFlat);
	INST(&m, SpvOpTypeVoid, VOID);
	INST(&m, SpvOpTypeFunction, FN, VOID);
	INST(&m, SpvOpTypeFloat, FLOAT, 32);
	INST(&m, SpvOpTypeVector, V2, FLOAT, 2);
	INST(&m, SpvOpTypeMatrix, MAT2, V2, 2);
	INST(&m, SpvOpTypeStruct, S, FLOAT, MAT2);
	INST(&m, SpvOpTypeInt, INT, 32, 1);
	INST(&m, SpvOpConstant, INT, C0, 0);
	INST(&m, SpvOpConstant, INT, C1, 1);
	INST(&m, SpvOpConstant, INT, C2, 2);
	INST(&m, SpvOpTypeArray, ARR_S, S, C2);
	INST(&m, SpvOpTypeStruct, T, ARR_S, V2);
	INST(&m, SpvOpTypeArray, ARR_T, T, C2);
	INST(&m, SpvOpTypePointer, PTR_T, SpvStorageClassOutput, ARR_T);
	INST(&m, SpvOpVariable, PTR_T, OUT, SpvStorageClassOutput);
	INST(&m, SpvOpTypePointer, PTR_F, SpvStorageClassOutput, FLOAT);
	INST(&m, SpvOpConstant, FLOAT, ONE, 0x3f800000);
	INST(&m, SpvOpFunction, VOID, MAIN, SpvFunctionControlMaskNone, FN);
	INST(&m, SpvOpLabel, LABEL);
	/* o[1].s[1].m[1].y */
	INST(&m, SpvOpAccessChain, PTR_F, CHAIN, OUT, C1, C0, C1, C1, C1, C1);
	INST(&m, SpvOpStore, CHAIN, ONE);
	INST(&m, SpvOpReturn);
	INST(&m, SpvOpFunctionEnd);

	if (translate_words(m.w, m.n, AGX_IR_STAGE_VERTEX, &s, &log) != 0)
		note("translator: %s", log);
	assert_non_null(s);
	assert_valid(s);
	for (unsigned e = 0; e < 2; e++) {
		for (unsigned k = 0; k < 2; k++) {
			unsigned loc = 2 + 7 * e + 3 * k;

			snprintf(name, sizeof(name), "o[%u].s[%u].f", e, k);
			v = find_var(s, name);
			assert_int_equal(v->kind, AGX_IR_VAR_OUTPUT);
			assert_int_equal(v->location, loc);
			assert_string_equal(v->glsl_type, "float");
			assert_int_equal(v->interp, AGX_IR_INTERP_SMOOTH);
			snprintf(name, sizeof(name), "o[%u].s[%u].m", e, k);
			v = find_var(s, name);
			assert_int_equal(v->location, loc + 1);
			assert_string_equal(v->glsl_type, "mat2");
		}
		snprintf(name, sizeof(name), "o[%u].v", e);
		v = find_var(s, name);
		assert_int_equal(v->location, 2 + 7 * e + 6);
		assert_int_equal(v->components, 2);
		assert_int_equal(v->interp, AGX_IR_INTERP_FLAT);
	}
	assert_int_equal(s->num_vars, 2 * (2 * 2 + 1));
	/* o[1].s[1].m is at 2 + 7 + 3 + 1, its second column the location after */
	text = text_of(s);
	assert_non_null(strstr(text, "store_output 1.0:f32, location=14, component=1"));
	free(text);
	agx_ir_shader_destroy(s);
}

static void test_frag_depth_and_readback(void **state)
{
	/* an output read back keeps its current value and is stored once, at the end */
	struct agx_ir_shader *s = translate(AGX_IR_STAGE_FRAGMENT, "#version 300 es\n"
								   "precision highp float;\n"
								   "in float z;\n"
								   "out vec4 color;\n"
								   "void main() {\n"
								   "  color = vec4(z);\n"
								   "  color.y = color.x * 2.0;\n"
								   "  gl_FragDepth = color.y;\n"
								   "}\n");
	char *text;

	(void)state;
	assert_int_equal(count_op(s, AGX_IR_OP_store_output), 5);
	assert_int_equal(find_var(s, "gl_FragDepth")->location, AGX_IR_LOCATION_FRAG_DEPTH);
	text = text_of(s);
	assert_non_null(strstr(text, "location=258, component=0"));
	free(text);
	agx_ir_shader_destroy(s);
}

/*
 * Framebuffer fetch: an output the shader reads starts as its target's
 * colour (load_framebuffer) and is stored whole; an inout output that is
 * written in part keeps the rest of what it fetched.
 */
static void test_fetch_output(void **state)
{
	struct agx_ir_shader *s = translate(AGX_IR_STAGE_FRAGMENT,
					    "#version 300 es\n"
					    "#extension GL_EXT_shader_framebuffer_fetch : require\n"
					    "precision highp float;\n"
					    "layout(location = 1) inout vec2 c;\n"
					    "void main() { c.y += 0.5; }\n");

	(void)state;
	check_text(s, "shader fragment\n"
		      "function main {\n"
		      "  block 0:\n"
		      "    %0:f32 = load_framebuffer location=1, component=0\n"
		      "    %1:f32 = load_framebuffer location=1, component=1\n"
		      "    %2:f32 = fadd %1, 0.5:f32\n"
		      "    store_output %0, location=1, component=0\n"
		      "    store_output %2, location=1, component=1\n"
		      "}\n");
	agx_ir_shader_destroy(s);
}

/* ---- control flow
 * -------------------------------------------------------------------------------- */

static void test_early_returns(void **state)
{
	struct agx_ir_shader *s =
	    translate(AGX_IR_STAGE_COMPUTE,
		      "#version 310 es\n"
		      "layout(local_size_x = 4) in;\n"
		      "layout(std430, binding = 0) buffer B { float v[]; } b;\n"
		      "float f(float x) {\n"
		      "  for (int i = 0; i < 10; i++) {\n"
		      "    for (int j = 0; j < 3; j++) { if (x > 100.0) return x; x += 1.0; }\n"
		      "    x = x * 2.0;\n"
		      "    if (x < 0.0) break;\n"
		      "    if (x == 3.0) continue;\n"
		      "    x += 1.0;\n"
		      "  }\n"
		      "  return -x;\n"
		      "}\n"
		      "void main() {\n"
		      "  uint i = gl_GlobalInvocationID.x;\n"
		      "  if (i >= 64u) return;\n"
		      "  float x = b.v[i];\n"
		      "  do { x -= 1.0; } while (x > 5.0);\n"
		      "  b.v[i] = f(x) + f(x * 3.0);\n"
		      "}\n");

	(void)state;
	/* the do-while, and each call's two loops: a return needs no loop of its own */
	assert_int_equal(count_cf(&agx_ir_shader_first_function(s)->body, AGX_IR_CF_LOOP), 5);
	assert_int_equal(count_op(s, AGX_IR_OP_store_ssbo), 1);
	agx_ir_shader_destroy(s);
}

static void test_dynamic_index(void **state)
{
	/* a local array indexed at run time: bcsel chains, no memory */
	struct agx_ir_shader *s = translate(
	    AGX_IR_STAGE_COMPUTE, "#version 310 es\n"
				  "layout(local_size_x = 1) in;\n"
				  "layout(std430, binding = 0) buffer B { int n; float v[]; } b;\n"
				  "void main() {\n"
				  "  float a[4] = float[4](1.0, 2.0, 3.0, 4.0);\n"
				  "  a[b.n & 3] = 8.0;\n"
				  "  b.v[0] = a[(b.n + 1) & 3];\n"
				  "}\n");

	(void)state;
	assert_int_equal(count_op(s, AGX_IR_OP_bcsel), 4 + 3);
	assert_int_equal(count_op(s, AGX_IR_OP_load_ssbo), 2);
	assert_int_equal(count_op(s, AGX_IR_OP_store_ssbo), 1);
	agx_ir_shader_destroy(s);
}

static void test_row_major_ubo(void **state)
{
	struct agx_ir_shader *s = translate(
	    AGX_IR_STAGE_COMPUTE,
	    "#version 310 es\n"
	    "layout(local_size_x = 1) in;\n"
	    "layout(std140, binding = 0) uniform U { layout(row_major) mat3x2 r; mat2 c[2]; } u;\n"
	    "layout(std430, binding = 1) buffer B { float v[]; } b;\n"
	    "void main() { b.v[0] = u.r[2][1]; b.v[1] = u.c[1][1][0]; }\n");
	char *text = text_of(s);

	(void)state;
	/* row_major mat3x2: rows of 16 bytes, r[2][1] in row 1 at column 2: 16 + 8 */
	assert_non_null(strstr(text, "load_ubo 24:i32, binding=0"));
	/* c at 32 (two rows of r), c[1] 32 bytes on, its column 1 16 on */
	assert_non_null(strstr(text, "load_ubo 80:i32, binding=0"));
	free(text);
	agx_ir_shader_destroy(s);
}

/* ---- the built-ins, a family at a time
 * ------------------------------------------------------------- */

struct family {
	const char *name, *body;
	enum agx_ir_op op; /* one op the expansion must have */
};

static const struct family families[] = {
	{ "angle and trigonometry",
	  "f = vec4(radians(x.x), degrees(x.y), sin(x.z), cos(x.w)) + tan(x) + asin(x) + acos(x)"
	  " + atan(x) + atan(x, y);",
	  AGX_IR_OP_fsin },
	{ "hyperbolic", "f = sinh(x) + cosh(x) + tanh(x) + asinh(x) + acosh(y) + atanh(x);",
	  AGX_IR_OP_fexp2 },
	{ "exponential",
	  "f = pow(x, y) + exp(x) + log(y) + exp2(x) + log2(y) + sqrt(y) + inversesqrt(y);",
	  AGX_IR_OP_flog2 },
	{ "common float",
	  "f = abs(x) + sign(x) + floor(x) + trunc(x) + round(x) + roundEven(x) + ceil(x) +"
	  " fract(x) + mod(x, y) + mod(x, 2.0) + min(x, y) + max(x, 1.0) + clamp(x, 0.0, 1.0) +"
	  " mix(x, y, 0.25) + mix(x, y, lessThan(x, y)) + step(y, x) + smoothstep(0.0, 1.0, x);"
	  " vec4 ip; f += modf(x, ip) + ip; f.x += float(isnan(x.x)) + float(isinf(x.y));",
	  AGX_IR_OP_ffloor },
	{ "common integer",
	  "i = abs(i) + sign(i) + min(i, ivec4(3)) + max(i, ivec4(1)) + clamp(i, 0, 7) + i / 3 +"
	  " i % 5; u = min(u, uvec4(2u)) + max(u, uvec4(9u)) + clamp(u, 1u, 4u) + u / 7u + u % 3u;",
	  AGX_IR_OP_idiv },
	{ "bits of floats",
	  "i = floatBitsToInt(x); u = floatBitsToUint(y); f = intBitsToFloat(i) +"
	  " uintBitsToFloat(u); vec4 m; ivec4 e; m = frexp(x, e); f += ldexp(m, e);",
	  AGX_IR_OP_bitcast },
	{ "packing",
	  "u.x = packSnorm2x16(x.xy); u.y = packUnorm2x16(x.zw); u.z = packHalf2x16(y.xy);"
	  " u.w = packUnorm4x8(x); f = vec4(unpackSnorm2x16(u.x), unpackUnorm2x16(u.y)) +"
	  " vec4(unpackHalf2x16(u.z), 0.0, 0.0) + unpackSnorm4x8(u.w);",
	  AGX_IR_OP_f2f16 },
	{ "geometric",
	  "f = vec4(length(x), distance(x, y), dot(x, y), 0.0) + vec4(cross(x.xyz, y.xyz), 1.0) +"
	  " normalize(x) + faceforward(x, y, x) + reflect(x, y) + refract(x, y, 0.5);",
	  AGX_IR_OP_frsqrt },
	{ "matrices",
	  "mat4 m = mat4(x, y, x.yzwx, y.wzyx); mat3 n = mat3(m); mat2 p = mat2(x); f ="
	  " matrixCompMult(m, m)[1] + outerProduct(x, y)[2] + transpose(m)[3] + inverse(m)[0] +"
	  " vec4(determinant(m), determinant(n), determinant(p), inverse(n)[1][2]) +"
	  " vec4(inverse(p)[0], 0.0, 0.0) + m * x + x * m + (m * m)[0] + (m * 2.0)[1];"
	  " mat2x3 q = mat2x3(x.xyz, y.xyz); f.xyz += q * x.xy; f.xy += x.xyz * q;",
	  AGX_IR_OP_frcp },
	{ "vector relational",
	  "bvec4 b = lessThan(x, y); b = bvec4(any(b), all(b), any(not(b)), all(equal(x, y)));"
	  " b = notEqual(b, notEqual(lessThanEqual(x, y), greaterThan(x, y))); f = vec4(b) +"
	  " vec4(greaterThanEqual(i, ivec4(2))) + vec4(lessThan(u, uvec4(3u)));",
	  AGX_IR_OP_flt },
	{ "integer functions",
	  "i = bitfieldExtract(i, 3, 5) + bitfieldInsert(i, i.yxwz, 4, 8) + bitCount(i) +"
	  " findLSB(i) + findMSB(i) + findMSB(u) + bitfieldReverse(i); uvec4 c, h, l;"
	  " u = uaddCarry(u, u.yxwz, c) + usubBorrow(u, u.wzyx, h) + c + h;"
	  " umulExtended(u, u, h, l); imulExtended(i, i, i, i); u += h + l;",
	  AGX_IR_OP_umul_high },
	{ "operators",
	  "f = -x * y / (x + 1.0) - y; i = (i << 2) >> 1 ^ (i & 7) | ~i; u = u >> 3u;"
	  " f += x++ + --y; bool c = x.x > y.x ^^ x.y < y.y; f.x += c ? 1.0 : 2.0;"
	  " i.x = int(x.x) + int(u.x); u.y = uint(x.y) + uint(i.y); f.z += float(u.z);",
	  AGX_IR_OP_f2u },
	{ "shared memory and atomics",
	  "s[gl_LocalInvocationIndex] = u.x; barrier(); u.y = s[3u - gl_LocalInvocationIndex];"
	  " u.z = atomicAdd(s[0], 1u) + atomicMin(s[1], 2u) + atomicMax(s[2], 3u) +"
	  " atomicAnd(s[3], 4u) + atomicOr(bu.a, 5u) + atomicXor(bu.a, 6u) +"
	  " atomicExchange(s[0], 7u) + atomicCompSwap(bu.a, 8u, 9u); memoryBarrier();"
	  " groupMemoryBarrier(); memoryBarrierBuffer();",
	  AGX_IR_OP_cmpxchg_ssbo },
	{ "compute built-ins",
	  "u.xyz = gl_GlobalInvocationID + gl_LocalInvocationID + gl_WorkGroupID +"
	  " gl_NumWorkGroups + gl_WorkGroupSize; u.w = gl_LocalInvocationIndex;",
	  AGX_IR_OP_load_num_workgroups },
};

static void test_builtin_families(void **state)
{
	(void)state;
	for (size_t k = 0; k < sizeof(families) / sizeof(families[0]); k++) {
		char src[4096];
		struct agx_ir_shader *s;

		snprintf(src, sizeof(src),
			 "#version 310 es\n"
			 "layout(local_size_x = 4) in;\n"
			 "layout(std430, binding = 0) buffer B { vec4 x, y, f; ivec4 i; uvec4 u; "
			 "uint a; } "
			 "bu;\n"
			 "shared uint s[4];\n"
			 "void main() {\n"
			 "  vec4 x = bu.x, y = bu.y, f; ivec4 i = bu.i; uvec4 u = bu.u;\n"
			 "  %s\n"
			 "  bu.f = f; bu.i = i; bu.u = u;\n"
			 "}\n",
			 families[k].body);
		note("%s", families[k].name);
		s = translate(AGX_IR_STAGE_COMPUTE, src);
		assert_true(count_op(s, families[k].op) > 0);
		agx_ir_shader_destroy(s);
	}
}

/* ---- what the translated shaders compute (the IR interpreter, tests/libagx/ir-interp.h) -------
 */

/* Runs a compute shader of one threadgroup on the SSBO at binding 0. */
static void run(const char *src, void *data, size_t size)
{
	struct agx_ir_shader *s = translate(AGX_IR_STAGE_COMPUTE, src);
	struct ir_interp_buffer buf = { 0, data, size };
	struct ir_interp_args args = { .ssbos = &buf, .num_ssbos = 1, .groups = { 1, 1, 1 } };
	char why[256];
	int ret = ir_interp_run(s, &args, why, sizeof(why));

	if (ret != 0)
		note("interpreter: %s", why);
	assert_int_equal(ret, 0);
	agx_ir_shader_destroy(s);
}

/* The shader's f and g in C, the reference. */
static int ref_f(int k)
{
	int y = 0;

	switch (k) {
	case 1:
		y = 10;
		/* fall through */
	case 2:
		y += 1;
		/* fall through */
	default:
		y += 100;
		break;
	case 7:
		return 7;
	}
	return y;
}

static int ref_g(int n)
{
	int acc = 0;

	for (int i = 0; i < 10; i++) {
		if (i == 3)
			continue;
		for (int j = 0; j < 10; j++) {
			if (j > i)
				break;
			acc += j;
			if (acc > n)
				return acc * 2;
		}
		if (i == n)
			return i;
	}
	return -1;
}

static void test_run_control_flow(void **state)
{
	/* the switch of test_switch_and_returns, nested loops left by return, break and continue */
	int32_t v[16], want[16];

	for (int i = 0; i < 8; i++) {
		want[i] = ref_f(i);
		want[8 + i] = i == 0 ? ref_g(1) : ref_g(i * 2 + 1);
	}

	(void)state;
	for (int i = 0; i < 16; i++)
		v[i] = -1;
	run("#version 310 es\n"
	    "layout(local_size_x = 8) in;\n"
	    "layout(std430, binding = 0) buffer B { int v[]; } b;\n"
	    "int f(int k) {\n"
	    "  int y = 0;\n"
	    "  switch (k) {\n"
	    "  case 1: y = 10;\n"
	    "  case 2: y += 1;\n"
	    "  default: y += 100; break;\n"
	    "  case 7: return 7;\n"
	    "  }\n"
	    "  return y;\n"
	    "}\n"
	    "int g(int n) {\n"
	    "  int acc = 0;\n"
	    "  for (int i = 0; i < 10; i++) {\n"
	    "    if (i == 3) continue;\n"
	    "    for (int j = 0; j < 10; j++) {\n"
	    "      if (j > i) break;\n"
	    "      acc += j;\n"
	    "      if (acc > n) return acc * 2;\n"
	    "    }\n"
	    "    if (i == n) return i;\n"
	    "  }\n"
	    "  return -1;\n"
	    "}\n"
	    "void main() {\n"
	    "  int i = int(gl_LocalInvocationIndex);\n"
	    "  b.v[i] = f(i);\n"
	    "  if (i == 0) { b.v[8] = g(1); return; }\n"
	    "  b.v[8 + i] = g(i * 2 + 1);\n"
	    "}\n",
	    v, sizeof(v));
	for (int i = 0; i < 16; i++) {
		if (v[i] != want[i])
			note("v[%d] = %d, want %d", i, v[i], want[i]);
		assert_int_equal(v[i], want[i]);
	}
}

static void test_run_local_arrays(void **state)
{
	/* dynamic indexing of a local array of structs, read and written, inout parameters */
	int32_t v[8];

	(void)state;
	memset(v, 0, sizeof(v));
	run("#version 310 es\n"
	    "layout(local_size_x = 8) in;\n"
	    "layout(std430, binding = 0) buffer B { int v[]; } b;\n"
	    "struct P { int a; ivec2 b; };\n"
	    "void bump(inout P p, int by) { p.b[by & 1] += by; p.a++; }\n"
	    "void main() {\n"
	    "  int i = int(gl_LocalInvocationIndex);\n"
	    "  P ps[4];\n"
	    "  for (int k = 0; k < 4; k++) ps[k] = P(k, ivec2(10 * k, 100 * k));\n"
	    "  bump(ps[i & 3], i);\n"
	    "  ps[(i + 1) & 3].b.y = -i;\n"
	    "  b.v[i] = ps[i & 3].a * 1000 + ps[i & 3].b.x + ps[i & 3].b.y;\n"
	    "}\n",
	    v, sizeof(v));
	for (int i = 0; i < 8; i++) {
		int k = i & 3, a = k + 1, bx = 10 * k + (i & 1 ? 0 : i),
		    by = 100 * k + (i & 1 ? i : 0);

		assert_int_equal(v[i], a * 1000 + bx + by);
	}
}

static void test_run_precision(void **state)
{
	/* the expansions of the inverse trigonometry, hyperbolics, inverse and packing */
	enum { N = 64 };
	float v[8 * N];

	(void)state;
	for (int i = 0; i < N; i++)
		v[i] = -1.0f + 2.0f * (float)i / (N - 1);
	run("#version 310 es\n"
	    "layout(local_size_x = 64) in;\n"
	    "layout(std430, binding = 0) buffer B { float v[]; } b;\n"
	    "void main() {\n"
	    "  uint i = gl_LocalInvocationIndex;\n"
	    "  float x = b.v[i];\n"
	    "  b.v[64u + i] = asin(x);\n"
	    "  b.v[128u + i] = acos(x);\n"
	    "  b.v[192u + i] = atan(x * 7.0);\n"
	    "  b.v[256u + i] = atan(x, x - 0.5);\n"
	    "  b.v[320u + i] = tanh(x * 3.0) + atanh(x * 0.9);\n"
	    "  mat3 m = mat3(2.0, x, 0.5, 1.0, 3.0, x, 0.25, 1.0, 4.0);\n"
	    "  b.v[384u + i] = (inverse(m) * m)[1][1] + determinant(m) * 0.0;\n"
	    "  b.v[448u + i] = unpackSnorm2x16(packSnorm2x16(vec2(x, 0.5))).x +\n"
	    "                  unpackHalf2x16(packHalf2x16(vec2(0.0, x))).y;\n"
	    "}\n",
	    v, sizeof(v));
	for (int i = 0; i < N; i++) {
		float x = -1.0f + 2.0f * (float)i / (N - 1);
		float snorm = roundf(x * 32767.0f) / 32767.0f;

		assert_float_equal(v[64 + i], asinf(x), 2e-6);
		assert_float_equal(v[128 + i], acosf(x), 2e-6);
		assert_float_equal(v[192 + i], atanf(x * 7.0f), 2e-6);
		assert_float_equal(v[256 + i], atan2f(x, x - 0.5f), 4e-6);
		assert_float_equal(v[320 + i], tanhf(x * 3.0f) + atanhf(x * 0.9f), 2e-5);
		assert_float_equal(v[384 + i], 1.0f, 1e-5);
		assert_float_equal(v[448 + i], snorm + x, 1e-3);
	}
}

/* ---- refusals
 * ------------------------------------------------------------------------------------------ */

static void expect_refusal(const uint32_t *w, size_t n, enum agx_ir_stage stage, int want,
			   const char *words)
{
	struct agx_ir_shader *s = NULL;
	char *log = NULL;
	int ret = translate_words(w, n, stage, &s, &log);

	if (ret != want)
		note("got %d (%s), want %d", ret, log ? log : "", want);
	assert_int_equal(ret, want);
	if (words && !strstr(log, words))
		note("log: %s; want it to say %s", log, words);
	if (words)
		assert_non_null(strstr(log, words));
	free(log);
}

static const char *simple_comp = "#version 310 es\n"
				 "layout(local_size_x = 1) in;\n"
				 "layout(std430, binding = 0) buffer B { float v[]; } b;\n"
				 "void main() { b.v[0] = sin(b.v[1]) + 1.0; }\n";

/* The word index of the first instruction of opcode op in w. */
static size_t find_inst(const uint32_t *w, size_t n, SpvOp op)
{
	for (size_t at = 5; at < n; at += w[at] >> 16) {
		if ((w[at] & 0xffff) == op)
			return at;
		if ((w[at] >> 16) == 0)
			break;
	}
	fail();
	return 0;
}

static void test_malformed(void **state)
{
	size_t n, at;
	uint32_t *w = spirv_of(AGX_IR_STAGE_COMPUTE, simple_comp, &n), *c = malloc(n * 4);

	(void)state;
	assert_non_null(c);
	/* truncated: in the header, and in the middle of an instruction */
	expect_refusal(w, 3, AGX_IR_STAGE_COMPUTE, -EINVAL, "malformed");
	expect_refusal(w, n - 1, AGX_IR_STAGE_COMPUTE, -EINVAL, "OpFunctionEnd");
	expect_refusal(w, n - 2, AGX_IR_STAGE_COMPUTE, -EINVAL, "does not end with a branch");
	/* the wrong stage */
	expect_refusal(w, n, AGX_IR_STAGE_FRAGMENT, -EINVAL, "stage");
	/* a bad id: the stored value is an id never defined */
	memcpy(c, w, n * 4);
	at = find_inst(c, n, SpvOpStore);
	c[at + 2] = c[3] - 1;
	expect_refusal(c, n, AGX_IR_STAGE_COMPUTE, -EINVAL, NULL);
	/* wrong word counts: an OpFAdd cut short */
	memcpy(c, w, n * 4);
	at = find_inst(c, n, SpvOpFAdd);
	c[at] = (4u << 16) | SpvOpFAdd;
	c[at + 4] = SpvOpNop | (1u << 16);
	expect_refusal(c, n, AGX_IR_STAGE_COMPUTE, -EINVAL, NULL);
	/* a corrupted type: a vector of 9 components */
	memcpy(c, w, n * 4);
	at = find_inst(c, n, SpvOpTypeInt);
	c[at + 2] = 64;
	expect_refusal(c, n, AGX_IR_STAGE_COMPUTE, -ENOTSUP, "64-bit");
	memcpy(c, w, n * 4);
	at = find_inst(c, n, SpvOpTypeRuntimeArray);
	c[at + 2] = c[at + 1]; /* an array of itself */
	expect_refusal(c, n, AGX_IR_STAGE_COMPUTE, -EINVAL, NULL);
	/* an extended-instruction set we do not have */
	memcpy(c, w, n * 4);
	at = find_inst(c, n, SpvOpExtInstImport);
	c[at + 2] ^= 0x20; /* "gLSL.std.450" */
	expect_refusal(c, n, AGX_IR_STAGE_COMPUTE, -ENOTSUP, "extended instructions");
	free(c);
	free(w);
}

/* The instruction of op whose indices are imms (unit, dim, lod, compare, offset, component). */
static struct agx_ir_instr *find_tex(struct agx_ir_shader *s, enum agx_ir_op op,
				     const uint32_t *imms)
{
	agx_ir_foreach_function(s, f) {
		agx_ir_foreach_block(f, b) {
			agx_ir_foreach_instr(b, in) {
				if (in->op == op && !memcmp(in->imm, imms, 6 * sizeof(uint32_t)))
					return in;
			}
		}
	}
	return NULL;
}

/*
 * The texture built-ins: each sampler a unit in the order of the vars
 * (arrays one per element), the source layout of each form, the texel's
 * components one op each, offsets packed, the layer rounded, the
 * projective divide, shadows' one compare component.
 */
static void test_textures(void **state)
{
	struct agx_ir_shader *s = translate(
	    AGX_IR_STAGE_FRAGMENT, "#version 300 es\n"
				   "precision highp float;\n"
				   "uniform sampler2D t;\n"
				   "uniform highp isampler2DArray a[2];\n"
				   "uniform highp sampler2DShadow sh;\n"
				   "uniform samplerCube cube;\n"
				   "uniform highp sampler3D vol;\n"
				   "in vec4 uv;\n"
				   "out vec4 c;\n"
				   "void main() {\n"
				   "  c = texture(t, uv.xy) + texture(t, uv.zw, 1.5).wzyx;\n"
				   "  c += vec4(texelFetch(a[1], ivec3(3, 4, 5), 2));\n"
				   "  c.x += textureProj(sh, uv);\n"
				   "  c += textureGrad(cube, uv.xyz, uv.xyz, uv.wzy);\n"
				   "  c += textureLodOffset(vol, uv.xyz, 2.0, ivec3(-1, 7, -8));\n"
				   "  c += vec4(texture(a[0], uv.xyz).x, textureSize(vol, 1));\n"
				   "}\n");
	struct agx_ir_instr *in;
	struct agx_ir_tex_layout l;

	(void)state;
	assert_int_equal(find_var(s, "t")->slot, 0);
	assert_int_equal(find_var(s, "a")->slot, 1);
	assert_int_equal(find_var(s, "a")->array_size, 2);
	assert_int_equal(find_var(s, "sh")->slot, 3);
	assert_int_equal(find_var(s, "cube")->slot, 4);
	assert_int_equal(find_var(s, "vol")->slot, 5);
	assert_string_equal(find_var(s, "a")->glsl_type, "isampler2DArray");

	/* texture(t, uv.xy): the implicit LOD, four components */
	for (uint32_t c = 0; c < 4; c++) {
		in = find_tex(s, AGX_IR_OP_texture_sample, (uint32_t[]){ 0, 2, 0, 0, 0, c });
		assert_non_null(in);
		assert_int_equal(in->num_srcs, 2);
		assert_int_equal(in->dest.type, AGX_IR_TYPE_F32);
	}
	/* with a bias */
	in = find_tex(s, AGX_IR_OP_texture_sample, (uint32_t[]){ 0, 2, 5, 0, 0, 3 });
	assert_non_null(in);
	assert_int_equal(in->num_srcs, 3);
	assert_false(in->src[2].def);
	assert_int_equal(in->src[2].imm, 0x3fc00000); /* 1.5 */
	/* texelFetch of element 1 of an integer array: coordinates, layer and level as they are */
	in = find_tex(s, AGX_IR_OP_texture_load, (uint32_t[]){ 2, 3, 6, 0, 0, 0 });
	assert_non_null(in);
	assert_int_equal(in->dest.type, AGX_IR_TYPE_I32);
	assert_int_equal(in->num_srcs, 4);
	for (unsigned i = 0; i < 4; i++) {
		static const uint32_t want[4] = { 3, 4, 5, 2 };

		assert_int_equal(in->src[i].imm, want[i]);
	}
	/* textureProj of a shadow: one compare, its coordinates and reference divided by q */
	in = find_tex(s, AGX_IR_OP_texture_sample, (uint32_t[]){ 3, 2, 0, 1, 0, 0 });
	assert_non_null(in);
	assert_int_equal(in->num_srcs, 3);
	assert_null(find_tex(s, AGX_IR_OP_texture_sample, (uint32_t[]){ 3, 2, 0, 1, 0, 1 }));
	for (unsigned i = 0; i < 3; i++) {
		assert_non_null(in->src[i].def);
		assert_int_equal(in->src[i].def->instr->op, AGX_IR_OP_fdiv);
	}
	/* textureGrad on a cube: three coordinates, then dPdx, then dPdy */
	in = find_tex(s, AGX_IR_OP_texture_sample, (uint32_t[]){ 4, 6, 4, 0, 0, 0 });
	assert_non_null(in);
	assert_true(agx_ir_tex_layout(in->op, in->imm, &l));
	assert_int_equal(l.grad, 3);
	assert_int_equal(in->num_srcs, 9);
	/* dPdx = uv.xyz, dPdy = uv.wzy: the inputs' components in that order */
	for (unsigned i = 0; i < 6; i++) {
		static const uint32_t comp[6] = { 0, 1, 2, 3, 2, 1 };
		const struct agx_ir_instr *d = in->src[3 + i].def->instr;

		assert_int_equal(d->op, AGX_IR_OP_load_input);
		assert_int_equal(d->imm[1], comp[i]);
	}
	/* an offset of (-1, 7, -8) packed four bits each, an explicit LOD */
	in = find_tex(s, AGX_IR_OP_texture_sample,
		      (uint32_t[]){ 5, 5, 6, 0, 0xf | (7 << 4) | (8 << 8), 1 });
	assert_non_null(in);
	assert_int_equal(in->src[3].imm, 0x40000000); /* 2.0 */
	/* the array's layer: floor(l + 0.5), at least 0, an integer */
	in = find_tex(s, AGX_IR_OP_texture_sample, (uint32_t[]){ 1, 3, 0, 0, 0, 0 });
	assert_non_null(in);
	assert_int_equal(in->dest.type, AGX_IR_TYPE_I32);
	assert_int_equal(agx_ir_src_type(&in->src[2]), AGX_IR_TYPE_I32);
	assert_int_equal(in->src[2].def->instr->op, AGX_IR_OP_f2u);
	/* textureSize of a 3D texture: three components at level 1 */
	assert_int_equal(count_op(s, AGX_IR_OP_texture_size), 3);
	agx_ir_shader_destroy(s);
}

/*
 * An array of blocks is a binding per element, picked by the constant
 * index; .length() divides what of the bound size is past the array.
 */
static void test_block_arrays(void **state)
{
	struct agx_ir_shader *s =
	    translate(AGX_IR_STAGE_COMPUTE,
		      "#version 310 es\n"
		      "layout(local_size_x = 1) in;\n"
		      "layout(std140, binding = 2) uniform P { vec4 s; } p[3];\n"
		      "layout(std430, binding = 0) buffer O { uint n; vec2 o[]; } outs[2];\n"
		      "void main() { outs[1].n = uint(outs[1].o.length()) + uint(p[2].s.x); }\n");
	const struct agx_ir_var *v;
	bool store = false, load = false, size = false;

	(void)state;
	v = find_var(s, "p");
	assert_int_equal(v->array_size, 3);
	assert_int_equal(v->binding, 2);
	assert_string_equal(v->glsl_type, "P");
	assert_int_equal(v->size, 16);
	assert_false(v->sized);
	v = find_var(s, "outs");
	assert_int_equal(v->array_size, 2);
	assert_true(v->sized);
	agx_ir_foreach_function(s, f) {
		agx_ir_foreach_block(f, b) {
			agx_ir_foreach_instr(b, in) {
				store |= in->op == AGX_IR_OP_store_ssbo && in->imm[0] == 1;
				load |= in->op == AGX_IR_OP_load_ubo && in->imm[0] == 4;
				size |= in->op == AGX_IR_OP_load_ssbo_size && in->imm[0] == 1;
			}
		}
	}
	assert_true(store && load && size);
	assert_int_equal(count_op(s, AGX_IR_OP_udiv), 1);
	agx_ir_shader_destroy(s);
}

/*
 * The default-block uniforms as GL lists them: each basic-typed leaf, an
 * array of structs element by element, where std140 puts them.
 */
static void test_uniform_leaves(void **state)
{
	struct agx_ir_shader *s = translate(
	    AGX_IR_STAGE_FRAGMENT,
	    "#version 300 es\n"
	    "precision highp float;\n"
	    "struct L { vec3 dir; float power[2]; mat3 m; };\n"
	    "uniform L lights[2];\n"
	    "uniform vec4 tint;\n"
	    "uniform float weights[3];\n"
	    "uniform mat2x3 mm;\n"
	    "out vec4 c;\n"
	    "void main() { c = tint * weights[2] + vec4(lights[1].dir, lights[0].power[1])\n"
	    "  + vec4(lights[1].m[2], mm[1].x); }\n");
	static const struct {
		const char *name, *type;
		unsigned array_size, array_stride, matrix_stride, offset; /* from its var's */
	} want[] = {
		{ "lights[0].dir", "vec3", 0, 0, 0, 0 },
		{ "lights[0].power", "float", 2, 16, 0, 16 },
		{ "lights[0].m", "mat3", 0, 0, 16, 48 },
		{ "lights[1].dir", "vec3", 0, 0, 0, 96 },
		{ "lights[1].power", "float", 2, 16, 0, 112 },
		{ "lights[1].m", "mat3", 0, 0, 16, 144 },
		{ "tint", "vec4", 0, 0, 0, 0 },
		{ "weights", "float", 3, 16, 0, 0 },
		{ "mm", "mat2x3", 0, 0, 16, 0 },
	};

	(void)state;
	assert_int_equal(s->num_leaves, 9);
	for (unsigned i = 0; i < 9; i++) {
		const struct agx_ir_uniform_leaf *l = NULL;

		for (unsigned k = 0; k < s->num_leaves; k++)
			if (!strcmp(s->leaves[k].name, want[i].name))
				l = &s->leaves[k];
		assert_non_null(l);
		assert_string_equal(l->glsl_type, want[i].type);
		assert_int_equal(l->array_size, want[i].array_size);
		assert_int_equal(l->array_stride, want[i].array_stride);
		assert_int_equal(l->matrix_stride, want[i].matrix_stride);
		assert_int_equal(l->offset, s->vars[l->var].offset + want[i].offset);
		assert_int_equal(s->vars[l->var].kind, AGX_IR_VAR_UNIFORM);
	}
	agx_ir_shader_destroy(s);
}

/* Outside a fragment shader the implicit LOD is the base level; derivatives are fddx/fddy. */
static void test_texture_stages(void **state)
{
	struct agx_ir_shader *s =
	    translate(AGX_IR_STAGE_VERTEX, "#version 300 es\n"
					   "uniform sampler2D t;\n"
					   "in vec2 p;\n"
					   "void main() { gl_Position = texture(t, p); }\n");
	struct agx_ir_instr *in;

	(void)state;
	in = find_tex(s, AGX_IR_OP_texture_sample, (uint32_t[]){ 0, 2, 6, 0, 0, 2 });
	assert_non_null(in);
	assert_int_equal(in->src[2].imm, 0); /* LOD 0.0 */
	agx_ir_shader_destroy(s);

	s = translate(AGX_IR_STAGE_FRAGMENT,
		      "#version 300 es\n"
		      "precision highp float;\n"
		      "in vec2 p;\n"
		      "out vec4 c;\n"
		      "void main() { c = vec4(dFdx(p), dFdy(p.x), fwidth(p.y)); }\n");
	assert_int_equal(count_op(s, AGX_IR_OP_fddx), 3);
	assert_int_equal(count_op(s, AGX_IR_OP_fddy), 2);
	assert_int_equal(count_op(s, AGX_IR_OP_fabs), 2);
	agx_ir_shader_destroy(s);
}

static void test_unsupported(void **state)
{
	size_t n;
	/* textureGather is GLSL ES 3.10's */
	uint32_t *w = spirv_of(AGX_IR_STAGE_COMPUTE,
			       "#version 310 es\n"
			       "layout(local_size_x = 1) in;\n"
			       "layout(binding = 0) buffer B { vec4 v; } b;\n"
			       "uniform highp sampler2D t;\n"
			       "void main() { b.v = textureGather(t, vec2(0.5)); }\n",
			       &n);

	(void)state;
	expect_refusal(w, n, AGX_IR_STAGE_COMPUTE, -ENOTSUP, "not GLSL ES 3.00's");
	free(w);
}

/* Every word of a module set to a few values: refused or translated, valid, never a crash. */
static void test_mutations(void **state)
{
	static const uint32_t values[] = { 0, 1, 2, 0xffffffff, 0x10000, 3 };
	static const char *sources[] = {
		"#version 310 es\n"
		"layout(local_size_x = 2) in;\n"
		"layout(std430, binding = 0) buffer B { int n; float v[]; } b;\n"
		"shared float t[2];\n"
		"float f(float x) { if (x > 1.0) return x; return -x; }\n"
		"void main() {\n"
		"  float a[3]; int i = b.n;\n"
		"  for (int k = 0; k < 3; k++) a[k] = f(b.v[k]);\n"
		"  switch (i) { case 0: a[0] += 1.0; case 1: a[1] = 2.0; break; default: return; "
		"}\n"
		"  t[gl_LocalInvocationIndex] = a[i & 1]; barrier();\n"
		"  b.v[0] = t[1] + (i > 2 && a[2] < 1.0 ? 1.0 : 0.0);\n"
		"}\n",
	};
	unsigned translated = 0, refused = 0;

	(void)state;
	for (size_t k = 0; k < sizeof(sources) / sizeof(sources[0]); k++) {
		size_t n;
		uint32_t *w = spirv_of(AGX_IR_STAGE_COMPUTE, sources[k], &n), *c = malloc(n * 4);

		assert_non_null(c);
		for (size_t at = 5; at < n; at++)
			for (size_t v = 0; v < sizeof(values) / sizeof(values[0]); v++) {
				struct agx_ir_shader *s = NULL;
				char *log = NULL;
				int ret;

				memcpy(c, w, n * 4);
				c[at] = values[v];
				ret = translate_words(c, n, AGX_IR_STAGE_COMPUTE, &s, &log);
				assert_true(ret == 0 || ret == -EINVAL || ret == -ENOTSUP);
				if (ret == 0) {
					assert_valid(s);
					translated++;
				} else {
					refused++;
				}
				agx_ir_shader_destroy(s);
				free(log);
			}
		free(c);
		free(w);
	}
	note("%u mutations translated, %u refused", translated, refused);
	assert_true(refused > 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_straight_line_exact),
		cmocka_unit_test(test_if_exact),
		cmocka_unit_test(test_loop_exact),
		cmocka_unit_test(test_constant_stores),
		cmocka_unit_test(test_switch_and_returns),
		cmocka_unit_test(test_interface_compute),
		cmocka_unit_test(test_interface_vertex),
		cmocka_unit_test(test_interface_fragment),
		cmocka_unit_test(test_interface_struct),
		cmocka_unit_test(test_interface_struct_nested),
		cmocka_unit_test(test_frag_depth_and_readback),
		cmocka_unit_test(test_fetch_output),
		cmocka_unit_test(test_early_returns),
		cmocka_unit_test(test_dynamic_index),
		cmocka_unit_test(test_row_major_ubo),
		cmocka_unit_test(test_builtin_families),
		cmocka_unit_test(test_run_control_flow),
		cmocka_unit_test(test_run_local_arrays),
		cmocka_unit_test(test_run_precision),
		cmocka_unit_test(test_malformed),
		cmocka_unit_test(test_textures),
		cmocka_unit_test(test_texture_stages),
		cmocka_unit_test(test_block_arrays),
		cmocka_unit_test(test_uniform_leaves),
		cmocka_unit_test(test_unsupported),
		cmocka_unit_test(test_mutations),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
