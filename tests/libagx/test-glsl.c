/*
 * test-glsl: the compiler's front end.  Each lowering rule on its own
 * (preprocessed source in, exact 3.10 text out, no glslang), the verdicts
 * of each version's rules through glslang, the limits, the rename map,
 * and SPIR-V that spirv-val accepts.
 *
 *   test-glsl [SPIRV-VAL]
 */
#include <errno.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "agx/glsl.h"
#include "glsl/lower.h"

static const char *spirv_val; /* argv[1]: spirv-val, when there is one */

/* Lowering: the exact text */

static void lower_ok(enum agx_glsl_stage stage, int version, const char *in, const char *want,
		     struct agx_glsl_lowered *l)
{
	int ret = agx_glsl_lower(stage, version, in, strlen(in), NULL, l);

	if (ret)
		print_error("lowering failed: %d %s\n", ret, l->error ? l->error : "");
	assert_int_equal(ret, 0);
	assert_string_equal(l->source, want);
	assert_int_equal(l->length, strlen(want));
}

static void lower_expect(enum agx_glsl_stage stage, int version, const char *in, const char *want)
{
	struct agx_glsl_lowered l;

	lower_ok(stage, version, in, want, &l);
	agx_glsl_lowered_finish(&l);
}

/* #version 310 es replaces the shader's own line (or its absence), and the lines keep their
 * numbers. */
static void test_lower_version(void **state)
{
	(void)state;
	lower_expect(AGX_GLSL_FRAGMENT, 100, "precision mediump float;\nvoid main(){}\n",
		     "#version 310 es\n#line 1\nprecision mediump float;\nvoid main(){}\n");
	lower_expect(AGX_GLSL_VERTEX, 100, "#version 100\nvoid main(){}\n",
		     "#version 310 es\n#line 1\n\nvoid main(){}\n");
	lower_expect(AGX_GLSL_VERTEX, 300, "#version 300 es\nvoid main(){}\n",
		     "#version 310 es\n#line 1\n\nvoid main(){}\n");
}

/* attribute becomes in, in vertex shaders (the only ones that have it). */
static void test_lower_attribute(void **state)
{
	(void)state;
	lower_expect(AGX_GLSL_VERTEX, 100, "attribute vec4 p;\nattribute  mediump vec2 t;",
		     "#version 310 es\n#line 1\nin vec4 p;\nin  mediump vec2 t;");
}

/* varying becomes out in vertex shaders, in in fragment shaders. */
static void test_lower_varying(void **state)
{
	(void)state;
	lower_expect(AGX_GLSL_VERTEX, 100, "varying vec2 uv;\ninvariant varying vec4 c;",
		     "#version 310 es\n#line 1\nout vec2 uv;\ninvariant out vec4 c;");
	lower_expect(AGX_GLSL_FRAGMENT, 100, "varying vec2 uv;",
		     "#version 310 es\n#line 1\nin vec2 uv;");
}

/*
 * A fragment shader's invariant inputs: "invariant varying" loses
 * invariant, "invariant a, b;" goes but for its newlines.  Vertex
 * shaders keep theirs.
 */
static void test_lower_fragment_invariant(void **state)
{
	(void)state;
	lower_expect(AGX_GLSL_FRAGMENT, 100,
		     "invariant varying vec2 uv;\nvarying vec4 c;\ninvariant c,\n gl_FragCoord;\nx",
		     "#version 310 es\n#line 1\nin vec2 uv;\nin vec4 c;\n\n\nx");
	lower_expect(AGX_GLSL_VERTEX, 100, "invariant gl_Position;",
		     "#version 310 es\n#line 1\ninvariant gl_Position;");
	/* rule 21: gl_FrontFacing's invariance is gl_Position's, declaring it is an error */
	{
		struct agx_glsl_lowered l;
		const char *in = "x;\ninvariant a,\n gl_FrontFacing;\n";

		assert_int_equal(agx_glsl_lower(AGX_GLSL_FRAGMENT, 100, in, strlen(in), NULL, &l),
				 -EINVAL);
		assert_non_null(strstr(l.error, "0:3: 'invariant' : gl_FrontFacing"));
		agx_glsl_lowered_finish(&l);
	}
}

/* Rule 22 on its own: the text in, the text glslang parses out. */
static void sequences_expect(int version, const char *in, const char *want)
{
	char *code = strdup(in);
	int ret;

	assert_non_null(code);
	ret = agx_glsl_constant_sequences(version, &code);
	assert_int_equal(ret, want ? 1 : 0);
	assert_string_equal(code, want ? want : in);
	free(code);
}

/*
 * A 1.00 sequence where the expression must be constant: each left
 * operand compared with itself, the last chosen; the second copy on one
 * line.  Calls' and constructors' commas, sequences in function bodies
 * outside const declarations, 3.00, and shaders whose globals may be
 * initialized with anything stay as they are.
 */
static void test_lower_constant_sequences(void **state)
{
	(void)state;
	sequences_expect(100, "uniform float uf[(1, 2)];",
			 "uniform float uf[((1)==(1)?( 2):( 2))];");
	sequences_expect(100, "const float f = 3.0 + (1.0,\n 2.0);\nx",
			 "const float f = 3.0 + ((1.0)==(1.0)?(\n 2.0):(  2.0));\nx");
	sequences_expect(100, "const float f = cos((a, b, c));",
			 "const float f = cos(((a)==(a)&&( b)==( b)?( c):( c)));");
	sequences_expect(100, "float g = ((1, 2), 3);",
			 "float g = ((((1)==(1)?( 2):( 2)))==(((1)==(1)?( 2):( 2)))?( 3):( 3));");
	sequences_expect(100, "struct S { float a[(1, 2)]; };\nvoid f(float x[(1, 2)]);",
			 "struct S { float a[((1)==(1)?( 2):( 2))]; };\n"
			 "void f(float x[((1)==(1)?( 2):( 2))]);");
	sequences_expect(100, "void main() {\n const float l = (1.0, 2.0);\n}",
			 "void main() {\n const float l = ((1.0)==(1.0)?( 2.0):( 2.0));\n}");
	sequences_expect(100, "const vec2 v = vec2(1.0, 2.0);\nvoid f(float a, float b);", NULL);
	sequences_expect(100, "void main() { x = (a++, b); if (c) { y[(i, j)] = 1.0; } }", NULL);
	sequences_expect(100, "void main() { float x = (1.0, 2.0); }", NULL);
	sequences_expect(100, "void main() { highp float a[(1, 2)]; a[(i, j)] = 1.0; }",
			 "void main() { highp float a[((1)==(1)?( 2):( 2))]; a[(i, j)] = 1.0; }");
	sequences_expect(100, "void main() { return a[(i, j)]; do b[(i, j)]++; while (c); }", NULL);
	sequences_expect(300, "const float f = (1.0, 2.0);", NULL);
	sequences_expect(100,
			 "#extension GL_EXT_shader_non_constant_global_initializers : enable\n"
			 "float g = (f(), 2.0);",
			 NULL);
}

/*
 * Rule 23: a function's declarations agree on the precision of its return
 * type, the default precision where they name none.
 */
static void test_lower_return_precision(void **state)
{
	static const struct {
		enum agx_glsl_stage stage;
		const char *in, *error;
	} cases[] = {
		{ AGX_GLSL_FRAGMENT,
		  "#version 100\nprecision mediump float;\nfloat\nget_three();\nhighp float\n"
		  "get_three()\n{ return 3.0; }\n",
		  "ERROR: 0:6: 'get_three' : return precision highp differs from the mediump" },
		{ AGX_GLSL_FRAGMENT,
		  "precision mediump float;\nfloat f();\nmediump float f() { return 1.0; }\n",
		  NULL },
		/* the default where each declaration is */
		{ AGX_GLSL_FRAGMENT,
		  "precision mediump float;\nfloat f();\nprecision highp float;\n"
		  "float f() { return 1.0; }\n",
		  "ERROR: 0:4: 'f' : return precision highp" },
		{ AGX_GLSL_VERTEX, "float f(void);\nhighp float f() { return 1.0; }\n", NULL },
		{ AGX_GLSL_VERTEX, "int f(int a);\nlowp int f(in int b) { return 1; }\n",
		  "ERROR: 0:2: 'f' : return precision lowp differs from the highp" },
		{ AGX_GLSL_FRAGMENT, "int f(int a);\nint f(const in highp int b) { return 1; }\n",
		  NULL },
		/* overloads are other functions */
		{ AGX_GLSL_VERTEX,
		  "lowp float f(float a);\nhighp float f(vec2 a) { return 1.0; }\n"
		  "lowp float f(float x[2]);\nhighp float f(float x[3]) { return 1.0; }\n",
		  NULL },
		/* no precision for bool or structs; a local's precision is not global */
		{ AGX_GLSL_VERTEX,
		  "struct S { float x; };\nS s();\nS s() { return S(1.0); }\nbool b();\n"
		  "bool b() { precision lowp float; return true; }\nfloat f();\n"
		  "float f() { return 1.0; }\n",
		  NULL },
		{ AGX_GLSL_VERTEX, "float x = float(1.0);\nmediump float g = float(2.0);\n", NULL },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct agx_glsl_lowered l;
		int ret =
		    agx_glsl_lower(cases[i].stage, 100, cases[i].in, strlen(cases[i].in), NULL, &l);

		if (cases[i].error) {
			if (ret != -EINVAL || !l.error || !strstr(l.error, cases[i].error))
				print_error("case %zu: %d %s\n", i, ret, l.error ? l.error : "");
			assert_int_equal(ret, -EINVAL);
			assert_non_null(strstr(l.error, cases[i].error));
		} else {
			if (ret)
				print_error("case %zu: %d %s\n", i, ret, l.error ? l.error : "");
			assert_int_equal(ret, 0);
		}
		agx_glsl_lowered_finish(&l);
	}
	/* 3.00 is glslang's to judge */
	{
		struct agx_glsl_lowered l;
		const char *in = "precision mediump float;\nfloat f();\nhighp float f() { return "
				 "1.0; }\n";

		assert_int_equal(agx_glsl_lower(AGX_GLSL_FRAGMENT, 300, in, strlen(in), NULL, &l),
				 0);
		agx_glsl_lowered_finish(&l);
	}
}

/* gl_FragColor becomes a mediump output of its own, and the rename map says so. */
static void test_lower_frag_color(void **state)
{
	struct agx_glsl_lowered l;

	(void)state;
	lower_ok(AGX_GLSL_FRAGMENT, 100, "void main(){ gl_FragColor = vec4(1.0); }",
		 "#version 310 es\nout mediump vec4 agx_FragColor;\n#line 1\n"
		 "void main(){ agx_FragColor = vec4(1.0); }",
		 &l);
	assert_int_equal(l.num_renames, 1);
	assert_string_equal(l.renames[0].original, "gl_FragColor");
	assert_string_equal(l.renames[0].lowered, "agx_FragColor");
	agx_glsl_lowered_finish(&l);

	/* a vertex shader has no gl_FragColor to lower */
	lower_expect(AGX_GLSL_VERTEX, 100, "gl_FragColor",
		     "#version 310 es\n#line 1\ngl_FragColor");
}

/* gl_FragData becomes an output array of gl_MaxDrawBuffers. */
static void test_lower_frag_data(void **state)
{
	struct agx_glsl_lowered l;

	(void)state;
	lower_ok(AGX_GLSL_FRAGMENT, 100, "void main(){ gl_FragData[1] = vec4(1.0); }",
		 "#version 310 es\nout mediump vec4 agx_FragData[gl_MaxDrawBuffers];\n#line 1\n"
		 "void main(){ agx_FragData[1] = vec4(1.0); }",
		 &l);
	assert_int_equal(l.num_renames, 1);
	assert_string_equal(l.renames[0].original, "gl_FragData");
	assert_string_equal(l.renames[0].lowered, "agx_FragData");
	agx_glsl_lowered_finish(&l);
}

/*
 * EXT_blend_func_extended's 1.00 outputs become index-1 outputs at
 * location 0, and the first output is at location 0 too; the extension
 * is enabled before the declarations that need it.
 */
static void test_lower_secondary_outputs(void **state)
{
	struct agx_glsl_lowered l;

	(void)state;
	lower_ok(AGX_GLSL_FRAGMENT, 100,
		 "void main(){ gl_FragColor = vec4(1.0); gl_SecondaryFragColorEXT = vec4(0.5); }",
		 "#version 310 es\n#extension GL_EXT_blend_func_extended : enable\n"
		 "layout(location = 0) out mediump vec4 agx_FragColor;\n"
		 "layout(location = 0, index = 1) out mediump vec4 agx_SecondaryFragColorEXT;\n"
		 "#line 1\n"
		 "void main(){ agx_FragColor = vec4(1.0); agx_SecondaryFragColorEXT = vec4(0.5); }",
		 &l);
	assert_int_equal(l.num_renames, 2);
	assert_string_equal(l.renames[1].original, "gl_SecondaryFragColorEXT");
	agx_glsl_lowered_finish(&l);
	lower_ok(AGX_GLSL_FRAGMENT, 100, "void main(){ gl_SecondaryFragDataEXT[0] = vec4(0.5); }",
		 "#version 310 es\n#extension GL_EXT_blend_func_extended : enable\n"
		 "layout(location = 0, index = 1) out mediump vec4 "
		 "agx_SecondaryFragDataEXT[gl_MaxDualSourceDrawBuffersEXT];\n"
		 "#line 1\n"
		 "void main(){ agx_SecondaryFragDataEXT[0] = vec4(0.5); }",
		 &l);
	agx_glsl_lowered_finish(&l);
	/* a vertex shader has none */
	lower_expect(AGX_GLSL_VERTEX, 100, "gl_SecondaryFragColorEXT",
		     "#version 310 es\n#line 1\ngl_SecondaryFragColorEXT");
	/* gl_FragColor pairs with gl_SecondaryFragColorEXT, gl_FragData with
	 * gl_SecondaryFragDataEXT */
	{
		static const char *const mixed[] = {
			"void main(){ gl_FragColor = vec4(0);\n gl_SecondaryFragDataEXT[0] = "
			"vec4(0); }",
			"void main(){ gl_FragData[0] = vec4(0);\n gl_SecondaryFragColorEXT = "
			"vec4(0); }",
		};

		for (unsigned i = 0; i < 2; i++) {
			assert_int_equal(agx_glsl_lower(AGX_GLSL_FRAGMENT, 100, mixed[i],
							strlen(mixed[i]), NULL, &l),
					 -EINVAL);
			assert_non_null(strstr(l.error, "ERROR: 0:2: 'gl_Secondary"));
			agx_glsl_lowered_finish(&l);
		}
	}
}

/*
 * Rule 16: several 3.00 fragment outputs, some without a location: those
 * get the lowest locations the others leave free (an array a run of
 * them), and the result names them.  One output alone, a declaration of
 * two, and the outputs of a vertex shader are left as they are.
 */
static void test_lower_place_outputs(void **state)
{
	struct agx_glsl_lowered l;

	(void)state;
	lower_ok(AGX_GLSL_FRAGMENT, 300,
		 "layout(location = 1) out vec4 k;\nout vec4 a;\nout vec4 b[2];\n"
		 "void f(out vec4 x) { x = vec4(1.0); }\n",
		 "#version 310 es\n#line 1\nlayout(location = 1) out vec4 k;\n"
		 "layout(location = 0) out vec4 a;\nlayout(location = 2) out vec4 b[2];\n"
		 "void f(out vec4 x) { x = vec4(1.0); }\n",
		 &l);
	assert_int_equal(l.num_placed, 2);
	assert_string_equal(l.placed[0], "a");
	assert_string_equal(l.placed[1], "b");
	agx_glsl_lowered_finish(&l);
	/* an index-1 output takes no location of index 0's */
	lower_expect(AGX_GLSL_FRAGMENT, 300,
		     "layout(location = 0, index = 1) out vec4 s;\nout vec4 a;\n",
		     "#version 310 es\n#line 1\nlayout(location = 0, index = 1) out vec4 s;\n"
		     "layout(location = 0) out vec4 a;\n");
	lower_expect(AGX_GLSL_FRAGMENT, 300, "out vec4 a;\n",
		     "#version 310 es\n#line 1\nout vec4 a;\n");
	lower_expect(AGX_GLSL_FRAGMENT, 300, "out vec4 a, b;\n",
		     "#version 310 es\n#line 1\nout vec4 a, b;\n");
	lower_expect(AGX_GLSL_VERTEX, 300, "out vec4 a;\nout vec4 b;\n",
		     "#version 310 es\n#line 1\nout vec4 a;\nout vec4 b;\n");
}

/* "defined" of the built-in macros glslang keeps as tokens is 1 in #if and #elif lines. */
static void test_defined_builtins(void **state)
{
	char code[] = "#if defined __VERSION__ && defined( __LINE__ )\n"
		      "x defined __FILE__\n"
		      "  #  elif !defined(__FILE__) || defined __VERSION__X\n";
	static const char want[] = "#if 1                   && 1                  \n"
				   "x defined __FILE__\n"
				   "  #  elif !1                 || defined __VERSION__X\n";
	struct agx_glsl_log log;

	(void)state;
	agx_glsl_source_defined_builtins(code);
	assert_string_equal(code, want);
	/* through glslang: GLSL ES 1.00 section 3.4 defines them */
	{
		static const char src[] = "#version 300 es\n#if !defined __VERSION__ || "
					  "!defined(__LINE__)\n#error no\n#endif\nvoid main(){}\n";

		assert_int_equal(agx_glsl_check(AGX_GLSL_FRAGMENT, src, strlen(src), &log), 0);
	}
	agx_glsl_log_finish(&log);
}

/* Rewrites one source by agx_glsl_source_extensions and compares the text. */
static void extensions_expect(enum agx_glsl_stage stage, int version, const char *in,
			      const char *want)
{
	char *code = strdup(in);

	assert_non_null(code);
	assert_int_equal(agx_glsl_source_extensions(stage, version, &code), 0);
	assert_string_equal(code, want);
	free(code);
}

/*
 * GL_APPLE_clip_distance (extensions.c): the enabling line becomes the
 * declaration, on that line; gl_ClipDistance is renamed after it, in
 * vertex shaders only; gl_MaxClipDistances becomes 8; a disable stops
 * the renames; a shader's own declaration is kept, without ours.
 */
static void test_source_extensions(void **state)
{
	struct agx_glsl_log log;

	(void)state;
	extensions_expect(AGX_GLSL_VERTEX, 300,
			  "#version 300 es\n#extension GL_APPLE_clip_distance : require\n"
			  "void main() { gl_ClipDistance[gl_MaxClipDistances - 1] = 0.0; }\n",
			  "#version 300 es\nout highp float agx_ClipDistance[8];\n"
			  "void main() { agx_ClipDistance[8 - 1] = 0.0; }\n");
	extensions_expect(AGX_GLSL_VERTEX, 100,
			  "#extension GL_APPLE_clip_distance:enable\nx = gl_ClipDistance[0];\n",
			  "varying highp float agx_ClipDistance[8];\nx = agx_ClipDistance[0];\n");
	extensions_expect(AGX_GLSL_FRAGMENT, 300,
			  "#extension GL_APPLE_clip_distance : enable\n"
			  "x = gl_ClipDistance[gl_MaxClipDistances];\n",
			  "\nx = gl_ClipDistance[8];\n");
	extensions_expect(AGX_GLSL_VERTEX, 300,
			  "gl_ClipDistance;\n#extension GL_APPLE_clip_distance : warn\n"
			  "gl_ClipDistance;\n#extension GL_APPLE_clip_distance : disable\n"
			  "gl_ClipDistance;\n",
			  "gl_ClipDistance;\nout highp float agx_ClipDistance[8];\n"
			  "agx_ClipDistance;\n\ngl_ClipDistance;\n");
	extensions_expect(AGX_GLSL_VERTEX, 300,
			  "#extension GL_APPLE_clip_distance : require\n"
			  "out highp float gl_ClipDistance[2];\n",
			  "\nout highp float agx_ClipDistance[2];\n");
	/* GL_EXT_draw_buffers: its lines go, whatever they say; gl_FragData is glslang's */
	extensions_expect(AGX_GLSL_FRAGMENT, 100,
			  "#extension GL_EXT_draw_buffers : require\ngl_FragData[1] = x;\n",
			  "\ngl_FragData[1] = x;\n");
	/* another extension's line, a malformed one, and a source without it: as they were */
	extensions_expect(AGX_GLSL_VERTEX, 300,
			  "#extension GL_OES_standard_derivatives : enable\n"
			  "#extension GL_APPLE_clip_distance\n// GL_APPLE_clip_distance\n",
			  "#extension GL_OES_standard_derivatives : enable\n"
			  "#extension GL_APPLE_clip_distance\n// GL_APPLE_clip_distance\n");
	/* through glslang: its macro is defined, in every stage */
	{
		static const char src[] = "#version 300 es\n#if GL_APPLE_clip_distance != 1 || "
					  "GL_EXT_draw_buffers != 1\n"
					  "#error no\n#endif\nvoid main(){}\n";

		assert_int_equal(agx_glsl_check(AGX_GLSL_FRAGMENT, src, strlen(src), &log), 0);
		agx_glsl_log_finish(&log);
		assert_int_equal(agx_glsl_check(AGX_GLSL_VERTEX, src, strlen(src), &log), 0);
		agx_glsl_log_finish(&log);
	}
}

static void sizes_expect(const char *in, const char *want)
{
	char *code = strdup(in), *error = NULL;

	assert_non_null(code);
	assert_int_equal(agx_glsl_size_distances(&code, &error), 0);
	assert_null(error);
	assert_string_equal(code, want);
	free(code);
}

static void sizes_refused(const char *in, const char *want_error)
{
	char *code = strdup(in), *error = NULL;

	assert_non_null(code);
	assert_int_equal(agx_glsl_size_distances(&code, &error), -EINVAL);
	assert_non_null(error);
	if (!strstr(error, want_error))
		fail_msg("error \"%s\" does not say \"%s\"", error, want_error);
	free(error);
	free(code);
}

static int check_source(enum agx_glsl_stage stage, const char *src, const char *want_log)
{
	struct agx_glsl_log log;
	int ret = agx_glsl_check(stage, src, strlen(src), &log);

	if (want_log && !strstr(log.text, want_log))
		fail_msg("log \"%s\" does not say \"%s\"", log.text, want_log);
	agx_glsl_log_finish(&log);
	return ret;
}

/*
 * GL_EXT_clip_cull_distance (extensions.c, distances.c): 3.00 only; the
 * enabling line declares both arrays with the marker's size, in either
 * stage; after the preprocessor each implicit one is sized by its
 * largest constant index (a number, or a const int of one), dropped when
 * unused; a redeclared one keeps its size; a non-constant index without
 * a redeclaration, and more than 8 together, are errors.
 */
static void test_source_cull_distances(void **state)
{
	(void)state;
	extensions_expect(AGX_GLSL_VERTEX, 300,
			  "#extension GL_EXT_clip_cull_distance : enable\n"
			  "gl_ClipDistance[1] = gl_CullDistance[0] + float(gl_MaxCullDistances + "
			  "gl_MaxCombinedClipAndCullDistances + gl_MaxClipDistances);\n",
			  "const int agx_ImplicitDistances = 8;"
			  "out highp float agx_ClipDistance[agx_ImplicitDistances];"
			  "out highp float agx_CullDistance[agx_ImplicitDistances];\n"
			  "agx_ClipDistance[1] = agx_CullDistance[0] + float(8 + 8 + 8);\n");
	extensions_expect(AGX_GLSL_FRAGMENT, 300,
			  "#extension GL_EXT_clip_cull_distance : require\n"
			  "in highp float gl_CullDistance[3];\nx = gl_ClipDistance[0];\n",
			  "const int agx_ImplicitDistances = 8;"
			  "in highp float agx_ClipDistance[agx_ImplicitDistances];\n"
			  "in highp float agx_CullDistance[3];\nx = agx_ClipDistance[0];\n");
	/* not in 1.00: glslang says the extension is not supported */
	extensions_expect(AGX_GLSL_VERTEX, 100,
			  "#extension GL_EXT_clip_cull_distance : enable\ngl_CullDistance[0];\n",
			  "#extension GL_EXT_clip_cull_distance : enable\ngl_CullDistance[0];\n");

	sizes_expect(
	    "const int agx_ImplicitDistances = 8 ; out highp float agx_ClipDistance "
	    "[ agx_ImplicitDistances ] ; out highp float agx_CullDistance [ "
	    "agx_ImplicitDistances ] ;\nconst int k = 5 ; agx_CullDistance [ 2 ] = 1.0 ; "
	    "agx_CullDistance [ k ] = 0.0 ;",
	    "const int agx_ImplicitDistances = 8 ;  out highp float agx_CullDistance [ "
	    "6 ] ;\nconst int k = 5 ; agx_CullDistance [ 2 ] = 1.0 ; agx_CullDistance [ k ] "
	    "= 0.0 ;");
	sizes_expect("const int agx_ImplicitDistances = 8;out highp float agx_ClipDistance["
		     "agx_ImplicitDistances];\nagx_ClipDistance[3] = agx_ClipDistance[0];",
		     "const int agx_ImplicitDistances = 8;out highp float agx_ClipDistance[4];\n"
		     "agx_ClipDistance[3] = agx_ClipDistance[0];");
	sizes_refused("const int agx_ImplicitDistances = 8;out highp float agx_CullDistance["
		      "agx_ImplicitDistances];\n\nagx_CullDistance[i] = 1.0;",
		      "ERROR: 0:3: 'gl_CullDistance' : an array indexed by other than constant");
	sizes_refused("const int agx_ImplicitDistances = 8;out highp float agx_CullDistance["
		      "agx_ImplicitDistances];\nf(agx_CullDistance);",
		      "'gl_CullDistance' : an array indexed by other than constant");
	sizes_refused("const int agx_ImplicitDistances = 8;out highp float agx_ClipDistance[6];"
		      "out highp float agx_CullDistance[agx_ImplicitDistances];\n"
		      "agx_CullDistance[2] = 1.0;",
		      "gl_ClipDistance's 6 and gl_CullDistance's 3 elements are more than "
		      "gl_MaxCombinedClipAndCullDistances (8)");

	/* through glslang */
	assert_int_equal(
	    check_source(AGX_GLSL_VERTEX,
			 "#version 300 es\n#extension GL_EXT_clip_cull_distance : enable\n"
			 "out highp float gl_CullDistance[2];\nvoid main() {\n"
			 "  for (int i = 0; i < 2; i++) gl_CullDistance[i] = 1.0;\n"
			 "  gl_ClipDistance[5] = 0.0;\n  gl_Position = vec4(0.0);\n}\n",
			 NULL),
	    0);
	assert_int_equal(
	    check_source(AGX_GLSL_VERTEX,
			 "#version 300 es\n#extension GL_EXT_clip_cull_distance : enable\n"
			 "void main() {\n"
			 "  for (int i = 0; i < 2; i++) gl_CullDistance[i] = 1.0;\n}\n",
			 "'gl_CullDistance'"),
	    -EINVAL);
	assert_int_equal(
	    check_source(AGX_GLSL_VERTEX,
			 "#version 300 es\n#extension GL_EXT_clip_cull_distance : enable\n"
			 "void main() { gl_CullDistance[8] = 1.0; }\n",
			 NULL),
	    -EINVAL);
	assert_int_equal(
	    check_source(AGX_GLSL_FRAGMENT,
			 "#version 300 es\n#if GL_EXT_clip_cull_distance != 1\n#error no\n"
			 "#endif\nvoid main(){}\n",
			 NULL),
	    0);
	assert_int_equal(check_source(AGX_GLSL_FRAGMENT,
				      "#ifdef GL_EXT_clip_cull_distance\n#error defined\n#endif\n"
				      "void main(){}\n",
				      NULL),
			 0);
}

/* Writing both is a 1.00 error glslang misses (GLSL ES 1.00 section 7.2); #line counts. */
static void test_lower_frag_color_and_data(void **state)
{
	const char *in = "void main(){\n gl_FragColor = vec4(1.0);\n#line 20\n gl_FragData[0] = "
			 "vec4(0.0);\n}\n";
	struct agx_glsl_lowered l;

	(void)state;
	assert_int_equal(agx_glsl_lower(AGX_GLSL_FRAGMENT, 100, in, strlen(in), NULL, &l), -EINVAL);
	assert_non_null(l.error);
	assert_non_null(strstr(l.error, "ERROR: 0:20: 'gl_FragData'"));
	assert_null(l.source);
	agx_glsl_lowered_finish(&l);
}

/* The lowering refuses, at the later write's line, a shader that writes both. */
static void lower_both_written(const char *in, const char *where)
{
	struct agx_glsl_lowered l;

	assert_int_equal(agx_glsl_lower(AGX_GLSL_FRAGMENT, 100, in, strlen(in), NULL, &l), -EINVAL);
	assert_non_null(l.error);
	if (!strstr(l.error, where))
		print_error("%s\nwants %s, says %s", in, where, l.error);
	assert_non_null(strstr(l.error, where));
	assert_null(l.source);
	agx_glsl_lowered_finish(&l);
}

/*
 * Section 7.2 forbids writing both, not naming both (piglit's
 * glsl-es-1.00/compiler/invariant.frag).  A write is an assignment, an
 * increment, or an out or inout argument; what is only named or read
 * becomes a plain global, so that 3.10 sees one output.
 */
static void test_lower_frag_color_and_data_named(void **state)
{
	(void)state;
	lower_expect(AGX_GLSL_FRAGMENT, 100,
		     "invariant gl_FragColor;\ninvariant gl_FragData;\nvoid main(){ }",
		     "#version 310 es\nmediump vec4 agx_FragColor;\n"
		     "mediump vec4 agx_FragData[gl_MaxDrawBuffers];\n#line 1\n\n\nvoid main(){ }");
	lower_expect(AGX_GLSL_FRAGMENT, 100, "void main(){ gl_FragData[0] = gl_FragColor; }",
		     "#version 310 es\nmediump vec4 agx_FragColor;\n"
		     "out mediump vec4 agx_FragData[gl_MaxDrawBuffers];\n#line 1\n"
		     "void main(){ agx_FragData[0] = agx_FragColor; }");
	/* an in parameter reads; == is no assignment */
	lower_expect(AGX_GLSL_FRAGMENT, 100,
		     "void h(vec4 v){ }\nvoid main(){ h(gl_FragColor); "
		     "gl_FragColor = vec4(gl_FragColor == gl_FragData[0]); }",
		     "#version 310 es\nout mediump vec4 agx_FragColor;\n"
		     "mediump vec4 agx_FragData[gl_MaxDrawBuffers];\n#line 1\n"
		     "void h(vec4 v){ }\nvoid main(){ h(agx_FragColor); "
		     "agx_FragColor = vec4(agx_FragColor == agx_FragData[0]); }");

	lower_both_written("void f(out vec4 v){ v = vec4(1.0); }\nvoid main(){\n"
			   " gl_FragData[0] = vec4(0.0);\n f(gl_FragColor);\n}",
			   "ERROR: 0:4: 'gl_FragColor'");
	lower_both_written("void g(float a, inout vec4 v){ }\nvoid main(){\n"
			   " gl_FragColor.x = 1.0;\n g(1.0, gl_FragData[1]);\n}",
			   "ERROR: 0:4: 'gl_FragData'");
	lower_both_written("void main(){\n gl_FragData[0] = vec4(0.0);\n ++gl_FragColor.x;\n}",
			   "ERROR: 0:3: 'gl_FragColor'");
	lower_both_written("void main(){\n gl_FragColor *= 2.0;\n gl_FragData[0].xy--;\n}",
			   "ERROR: 0:3: 'gl_FragData'");
}

/* Every 1.00 texture built-in, core and from extensions, gets its 3.00 name. */
static void test_lower_texture_functions(void **state)
{
	static const char *const pairs[][2] = {
		{ "texture2D", "texture" },
		{ "texture2DProj", "textureProj" },
		{ "texture2DLod", "textureLod" },
		{ "texture2DProjLod", "textureProjLod" },
		{ "textureCube", "texture" },
		{ "textureCubeLod", "textureLod" },
		{ "texture2DLodEXT", "textureLod" },
		{ "texture2DProjLodEXT", "textureProjLod" },
		{ "textureCubeLodEXT", "textureLod" },
		{ "texture2DGradEXT", "textureGrad" },
		{ "texture2DProjGradEXT", "textureProjGrad" },
		{ "textureCubeGradEXT", "textureGrad" },
		{ "texture3D", "texture" },
		{ "texture3DProj", "textureProj" },
		{ "texture3DLod", "textureLod" },
		{ "texture3DProjLod", "textureProjLod" },
		{ "shadow2DEXT", "texture" },
		{ "shadow2DProjEXT", "textureProj" },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(pairs) / sizeof(pairs[0]); i++) {
		char in[128], want[128];

		snprintf(in, sizeof(in), "c = %s(s, uv);", pairs[i][0]);
		snprintf(want, sizeof(want), "#version 310 es\n#line 1\nc = %s(s, uv);",
			 pairs[i][1]);
		lower_expect(AGX_GLSL_VERTEX, 100, in, want);
	}
	/* 3.00 has them no more: a 3.00 shader's own texture2D is not touched */
	lower_expect(AGX_GLSL_VERTEX, 300, "#version 300 es\ntexture2D",
		     "#version 310 es\n#line 1\n\ntexture2D");
}

/* GL_EXT_frag_depth's gl_FragDepthEXT is 3.00's gl_FragDepth. */
static void test_lower_frag_depth(void **state)
{
	(void)state;
	lower_expect(AGX_GLSL_FRAGMENT, 100,
		     "#extension GL_EXT_frag_depth : enable\nvoid main(){ gl_FragDepthEXT = 0.5; }",
		     "#version 310 es\n#line 1\n#extension GL_EXT_frag_depth : enable\n"
		     "void main(){ gl_FragDepth = 0.5; }");
}

/* 3.00 dropped gl_MaxVaryingVectors; 1.00 gets its value. */
static void test_lower_max_varying_vectors(void **state)
{
	char want[128];

	(void)state;
	snprintf(want, sizeof(want), "#version 310 es\n#line 1\nint n = %d;",
		 AGX_GLSL_MAX_VARYING_VECTORS);
	lower_expect(AGX_GLSL_VERTEX, 100, "int n = gl_MaxVaryingVectors;", want);
}

/*
 * A 1.00 identifier 3.10 reserves is renamed, the same way at every use,
 * to a name the shader does not spell; 3.00 renames only what became
 * reserved after it.
 */
static void test_lower_reserved(void **state)
{
	struct agx_glsl_lowered l;

	(void)state;
	lower_ok(
	    AGX_GLSL_FRAGMENT, 100,
	    "uniform float sample; float agx_sample; float coherent(float buffer) "
	    "{ return buffer * sample; }\nuniform sampler2D texture;",
	    "#version 310 es\n#line 1\n"
	    "uniform float agx_sample_2; float agx_sample; float agx_coherent(float "
	    "agx_buffer) { return agx_buffer * agx_sample_2; }\nuniform sampler2D agx_texture;",
	    &l);
	assert_int_equal(l.num_renames, 4);
	assert_string_equal(l.renames[0].original, "sample");
	assert_string_equal(l.renames[0].lowered, "agx_sample_2");
	assert_string_equal(l.renames[1].original, "coherent");
	assert_string_equal(l.renames[2].original, "buffer");
	assert_string_equal(l.renames[3].original, "texture");
	agx_glsl_lowered_finish(&l);

	/* in 3.00, buffer is renamed; texture is a built-in, sample reserved already */
	lower_ok(AGX_GLSL_VERTEX, 300, "#version 300 es\nfloat buffer = texture(s, uv).x + sample;",
		 "#version 310 es\n#line 1\n\nfloat agx_buffer = texture(s, uv).x + sample;", &l);
	assert_int_equal(l.num_renames, 1);
	agx_glsl_lowered_finish(&l);
}

/*
 * glslang's preprocessor writes "#pragma STDGLinvariant(all)"; the blank
 * comes back, and the lowering says it saw it (glslang's SPIR-V does not).
 */
static void test_lower_pragma_invariant(void **state)
{
	struct agx_glsl_lowered l;
	struct agx_glsl_result r;
	const char *s = "#pragma STDGL invariant(all)\nattribute vec4 p;\n"
			"void main(){ gl_Position = p; }";

	(void)state;
	lower_ok(AGX_GLSL_VERTEX, 300, "#version 300 es\n#pragma STDGLinvariant(all)\n",
		 "#version 310 es\n#line 1\n\n#pragma STDGL invariant(all)\n", &l);
	assert_true(l.invariant_all);
	agx_glsl_lowered_finish(&l);
	lower_ok(AGX_GLSL_VERTEX, 100, "#pragma optimize(off)\n",
		 "#version 310 es\n#line 1\n#pragma optimize(off)\n", &l);
	assert_false(l.invariant_all);
	agx_glsl_lowered_finish(&l);

	assert_int_equal(agx_glsl_to_spirv(AGX_GLSL_VERTEX, s, strlen(s), &r), 0);
	assert_true(r.invariant_all);
	agx_glsl_result_finish(&r);
}

/*
 * "It is an error to use this pragma in a fragment shader" (GLSL ES 3.00
 * section 4.6.1; piglit's glsl-es-3.00/compiler/invariant_all.frag), which
 * glslang does not check; 1.00 has no such rule.
 */
static void test_lower_pragma_invariant_fragment(void **state)
{
	const char *in = "#version 300 es\n#line 7\n#pragma STDGLinvariant(all)\n";
	struct agx_glsl_lowered l;

	(void)state;
	assert_int_equal(agx_glsl_lower(AGX_GLSL_FRAGMENT, 300, in, strlen(in), NULL, &l), -EINVAL);
	assert_non_null(l.error);
	assert_non_null(strstr(l.error, "ERROR: 0:7: '#pragma'"));
	assert_null(l.source);
	agx_glsl_lowered_finish(&l);
	lower_ok(AGX_GLSL_FRAGMENT, 100, "#pragma STDGLinvariant(all)\n",
		 "#version 310 es\n#line 1\n#pragma STDGL invariant(all)\n", &l);
	assert_true(l.invariant_all);
	agx_glsl_lowered_finish(&l);
}

/* shared and packed layouts are std140 (SPIR-V has neither); only inside layout(). */
static void test_lower_block_layout(void **state)
{
	(void)state;
	lower_expect(AGX_GLSL_FRAGMENT, 300,
		     "#version 300 es\nlayout(shared) uniform A { vec4 x; };\n"
		     "layout (packed, row_major) uniform;\nlayout(location = 0) out vec4 shared;",
		     "#version 310 es\n#line 1\n\nlayout(std140) uniform A { vec4 x; };\n"
		     "layout (std140, row_major) uniform;\nlayout(location = 0) out vec4 shared;");
}

/* Other directives, comments and unknown bytes pass through as they are. */
static void test_lower_passes_through(void **state)
{
	(void)state;
	lower_expect(AGX_GLSL_VERTEX, 100,
		     "#extension GL_OES_texture_3D : enable\n#line 7 2\n/* varying */ $ @\n",
		     "#version 310 es\n#line 1\n#extension GL_OES_texture_3D : enable\n#line 7 "
		     "2\n/* varying */ $ @\n");
}

/* The lowering takes 1.00 and 3.00 vertex and fragment shaders only. */
/* Rules 17-20 before glslang (fetch.c): the text glslang checks, and what it says. */
static void fetch_expect(enum agx_glsl_stage stage, int version, const char *in, const char *want,
			 struct agx_glsl_fetch *f)
{
	char *code = strdup(in), *error = NULL;
	int ret;

	assert_non_null(code);
	ret = agx_glsl_fetch_prepare(stage, version, &code, f, &error);
	if (ret)
		print_error("fetch_prepare failed: %d %s\n", ret, error ? error : "");
	assert_int_equal(ret, 0);
	assert_string_equal(code, want);
	free(code);
}

static void test_fetch_prepare(void **state)
{
	struct agx_glsl_fetch f;
	char *code, *error;

	(void)state;
	/* 3.00: the #extension line goes, inout becomes out, the names are kept */
	fetch_expect(AGX_GLSL_FRAGMENT, 300,
		     "#version 300 es\n#extension GL_EXT_shader_framebuffer_fetch : enable\n"
		     "layout(location = 1) inout highp vec4 c[2], d;\n"
		     "void f(inout vec4 p);\nvoid main() { c[0] += c[1]; }\n",
		     "#version 300 es\n\nlayout(location = 1) out highp vec4 c[2], d;\n"
		     "void f(inout vec4 p);\nvoid main() { c[0] += c[1]; }\n",
		     &f);
	assert_true(f.coherent);
	assert_false(f.non_coherent);
	assert_int_equal(f.num_inout, 2);
	assert_string_equal(f.inout[0], "c");
	assert_string_equal(f.inout[1], "d");
	assert_null(f.last_frag_data);
	agx_glsl_fetch_finish(&f);
	/* the non-coherent extension's layout goes, alone or with others */
	fetch_expect(AGX_GLSL_FRAGMENT, 300,
		     "#version 300 es\n"
		     "#extension GL_EXT_shader_framebuffer_fetch_non_coherent : require\n"
		     "layout(noncoherent) inout vec4 a;\n"
		     "layout(location = 2, noncoherent) inout vec4 b;\n",
		     "#version 300 es\n\n out vec4 a;\nlayout(location = 2 ) out vec4 b;\n", &f);
	assert_true(f.non_coherent);
	assert_int_equal(f.num_inout, 2);
	agx_glsl_fetch_finish(&f);
	/* ... which it needs without the coherent one */
	code = strdup("#version 300 es\n"
		      "#extension GL_EXT_shader_framebuffer_fetch_non_coherent : require\n"
		      "inout vec4 a;\n");
	assert_int_equal(agx_glsl_fetch_prepare(AGX_GLSL_FRAGMENT, 300, &code, &f, &error),
			 -EINVAL);
	assert_non_null(strstr(error, "ERROR: 0:3: 'inout'"));
	free(error);
	free(code);
	agx_glsl_fetch_finish(&f);
	/* left for glslang: a vertex output, gl_FragDepth, a layout without its extension */
	fetch_expect(AGX_GLSL_VERTEX, 300,
		     "#version 300 es\n#extension GL_EXT_shader_framebuffer_fetch : enable\n"
		     "inout vec4 v;\n",
		     "#version 300 es\n\ninout vec4 v;\n", &f);
	agx_glsl_fetch_finish(&f);
	fetch_expect(AGX_GLSL_FRAGMENT, 300,
		     "#version 300 es\n#extension GL_EXT_shader_framebuffer_fetch : enable\n"
		     "inout float gl_FragDepth;\nlayout(noncoherent) inout vec4 c;\n",
		     "#version 300 es\n\ninout float gl_FragDepth;\n"
		     "layout(noncoherent) inout vec4 c;\n",
		     &f);
	assert_int_equal(f.num_inout, 0);
	agx_glsl_fetch_finish(&f);
	/* 1.00: gl_LastFragData a uniform of ours, redeclared with its precision */
	fetch_expect(AGX_GLSL_FRAGMENT, 100,
		     "#version 100\n#extension GL_EXT_shader_framebuffer_fetch : enable\n"
		     "highp vec4 gl_LastFragData[gl_MaxDrawBuffers];\n"
		     "void main() { gl_FragColor = gl_LastFragData[0]; }\n",
		     "#version 100\nuniform highp vec4 agx_LastFragData[gl_MaxDrawBuffers];\n"
		     "#line 2\n\n  \nvoid main() { gl_FragColor = agx_LastFragData[0]; }\n",
		     &f);
	assert_string_equal(f.last_frag_data, "agx_LastFragData");
	agx_glsl_fetch_finish(&f);
	/* no #version, a name the shader spells, the non-coherent redeclaration */
	fetch_expect(AGX_GLSL_FRAGMENT, 100,
		     "#extension GL_EXT_shader_framebuffer_fetch_non_coherent : enable\n"
		     "layout(noncoherent) mediump vec4 gl_LastFragData[8];\n"
		     "float agx_LastFragData;\n"
		     "void main() { gl_FragColor = gl_LastFragData[1]; }\n",
		     "uniform mediump vec4 agx_LastFragData_2[gl_MaxDrawBuffers];\n#line 1\n\n"
		     "   \nfloat agx_LastFragData;\n"
		     "void main() { gl_FragColor = agx_LastFragData_2[1]; }\n",
		     &f);
	assert_string_equal(f.last_frag_data, "agx_LastFragData_2");
	agx_glsl_fetch_finish(&f);
	/* the non-coherent one alone has no gl_LastFragData unless so redeclared */
	fetch_expect(AGX_GLSL_FRAGMENT, 100,
		     "#extension GL_EXT_shader_framebuffer_fetch_non_coherent : enable\n"
		     "void main() { gl_FragColor = gl_LastFragData[0]; }\n",
		     "\nvoid main() { gl_FragColor = gl_LastFragData[0]; }\n", &f);
	assert_null(f.last_frag_data);
	agx_glsl_fetch_finish(&f);
	/* disabled, or not named: nothing */
	fetch_expect(AGX_GLSL_FRAGMENT, 300,
		     "#version 300 es\n#extension GL_EXT_shader_framebuffer_fetch : disable\n"
		     "inout vec4 c;\n",
		     "#version 300 es\n\ninout vec4 c;\n", &f);
	agx_glsl_fetch_finish(&f);
	fetch_expect(AGX_GLSL_FRAGMENT, 300, "#version 300 es\ninout vec4 c;\n",
		     "#version 300 es\ninout vec4 c;\n", &f);
	agx_glsl_fetch_finish(&f);
}

/* Rules 19, 20: the outputs' first values copied at main()'s start. */
static void test_lower_fetch(void **state)
{
	char *inout[] = { "c", "precise" };
	struct agx_glsl_fetch f = { .coherent = true, .inout = inout, .num_inout = 2 };
	struct agx_glsl_lowered l;
	const char *in;

	(void)state;
	in = "out vec4 c;\nout vec4 precise;\nvoid main()\n{\n  c.x = precise.y;\n}\n";
	assert_int_equal(agx_glsl_lower(AGX_GLSL_FRAGMENT, 300, in, strlen(in), &f, &l), 0);
	assert_string_equal(l.source,
			    "#version 310 es\n#line 1\n"
			    "layout(location = 0) out vec4 c;\nlayout(location = 1) out vec4 "
			    "agx_precise;\nvoid main()\n{ c = c; agx_precise = agx_precise;\n"
			    "  c.x = agx_precise.y;\n}\n");
	agx_glsl_lowered_finish(&l);

	f = (struct agx_glsl_fetch){ .coherent = true, .last_frag_data = "agx_LastFragData" };
	in = "uniform mediump vec4 agx_LastFragData[gl_MaxDrawBuffers];\n#line 1\n"
	     "void main() { gl_FragData[1] = agx_LastFragData[1]; }\n";
	assert_int_equal(agx_glsl_lower(AGX_GLSL_FRAGMENT, 100, in, strlen(in), &f, &l), 0);
	assert_string_equal(l.source,
			    "#version 310 es\nout mediump vec4 agx_FragData[gl_MaxDrawBuffers];\n"
			    "#line 1\n mediump vec4 agx_LastFragData[gl_MaxDrawBuffers];\n#line 1\n"
			    "void main() { agx_LastFragData = agx_FragData; agx_FragData[1] = "
			    "agx_LastFragData[1]; }\n");
	agx_glsl_lowered_finish(&l);
	/* gl_FragColor: element 0 of outputs at every location */
	in = "uniform mediump vec4 agx_LastFragData[gl_MaxDrawBuffers];\n#line 1\n"
	     "invariant gl_FragColor;\n"
	     "void main() { gl_FragColor = agx_LastFragData[0]; }\n";
	assert_int_equal(agx_glsl_lower(AGX_GLSL_FRAGMENT, 100, in, strlen(in), &f, &l), 0);
	assert_string_equal(l.source,
			    "#version 310 es\nout mediump vec4 agx_FragColor[gl_MaxDrawBuffers];\n"
			    "#line 1\n mediump vec4 agx_LastFragData[gl_MaxDrawBuffers];\n#line 1\n"
			    "\n"
			    "void main() { agx_LastFragData = agx_FragColor; agx_FragColor[0] = "
			    "agx_LastFragData[0]; }\n");
	agx_glsl_lowered_finish(&l);
}

static void test_lower_versions_taken(void **state)
{
	struct agx_glsl_lowered l;

	(void)state;
	assert_int_equal(agx_glsl_lower(AGX_GLSL_COMPUTE, 310, "", 0, NULL, &l), -ENOTSUP);
	assert_int_equal(agx_glsl_lower(AGX_GLSL_VERTEX, 310, "", 0, NULL, &l), -ENOTSUP);
	assert_int_equal(agx_glsl_lower(AGX_GLSL_FRAGMENT, 120, "", 0, NULL, &l), -ENOTSUP);
}

/* The tokenizer: kinds, the longest punctuator, directives only first on a line, #line. */
static void test_tokenize(void **state)
{
	static const char text[] = "a+=.5e-3 //c\n  #define X 1\nb # c <<= 0x1Fu\n#line 9\nd";
	static const struct {
		enum agx_glsl_token_kind kind;
		const char *text;
		unsigned line;
	} want[] = {
		{ AGX_GLSL_TOKEN_IDENT, "a", 1 },
		{ AGX_GLSL_TOKEN_PUNCT, "+=", 1 },
		{ AGX_GLSL_TOKEN_NUMBER, ".5e-3", 1 },
		{ AGX_GLSL_TOKEN_SPACE, " ", 1 },
		{ AGX_GLSL_TOKEN_COMMENT, "//c", 1 },
		{ AGX_GLSL_TOKEN_NEWLINE, "\n", 1 },
		{ AGX_GLSL_TOKEN_SPACE, "  ", 2 },
		{ AGX_GLSL_TOKEN_DIRECTIVE, "#define X 1", 2 },
		{ AGX_GLSL_TOKEN_NEWLINE, "\n", 2 },
		{ AGX_GLSL_TOKEN_IDENT, "b", 3 },
		{ AGX_GLSL_TOKEN_SPACE, " ", 3 },
		{ AGX_GLSL_TOKEN_PUNCT, "#", 3 },
		{ AGX_GLSL_TOKEN_SPACE, " ", 3 },
		{ AGX_GLSL_TOKEN_IDENT, "c", 3 },
		{ AGX_GLSL_TOKEN_SPACE, " ", 3 },
		{ AGX_GLSL_TOKEN_PUNCT, "<<=", 3 },
		{ AGX_GLSL_TOKEN_SPACE, " ", 3 },
		{ AGX_GLSL_TOKEN_NUMBER, "0x1Fu", 3 },
		{ AGX_GLSL_TOKEN_NEWLINE, "\n", 3 },
		{ AGX_GLSL_TOKEN_DIRECTIVE, "#line 9", 4 },
		{ AGX_GLSL_TOKEN_NEWLINE, "\n", 4 },
		{ AGX_GLSL_TOKEN_IDENT, "d", 9 },
	};
	struct agx_glsl_tokens t;

	(void)state;
	assert_int_equal(agx_glsl_tokenize(text, strlen(text), &t), 0);
	assert_int_equal(t.count, sizeof(want) / sizeof(want[0]));
	for (size_t i = 0; i < t.count; i++) {
		assert_int_equal(t.v[i].kind, want[i].kind);
		assert_int_equal(t.v[i].length, strlen(want[i].text));
		assert_memory_equal(t.v[i].text, want[i].text, t.v[i].length);
		assert_int_equal(t.v[i].line, want[i].line);
	}
	agx_glsl_tokens_finish(&t);
}

/* The source checks before glslang */

static void test_source_version(void **state)
{
	char profile[8];

	(void)state;
	assert_int_equal(agx_glsl_source_version("void main(){}", 13, profile, 8), 100);
	assert_int_equal(
	    agx_glsl_source_version("// c\n/* d */ #  version 300 es\n", 31, profile, 8), 300);
	assert_string_equal(profile, "es");
	assert_int_equal(agx_glsl_source_version("#version 450 core", 17, profile, 8), 450);
	assert_string_equal(profile, "core");
	assert_int_equal(agx_glsl_source_version("#version x", 10, profile, 8), 0);
	assert_int_equal(agx_glsl_source_version("#version 3a0", 12, profile, 8), 0);
	assert_int_equal(agx_glsl_source_version("#define A\n#version 300 es", 25, profile, 8),
			 100);
}

/* glslang wants #version first in ES; GLSL ES lets comments come before it. */
static void test_source_version_first(void **state)
{
	char *s;

	(void)state;
	s = "// c\n\n#version 300 es\nx;\n";
	s = agx_glsl_source_version_first(s, strlen(s));
	assert_string_equal(s, "#version 300 es\n#line 4\nx;\n");
	free(s);
	s = agx_glsl_source_version_first("/**/#version 100", 16);
	assert_string_equal(s, "#version 100\n");
	free(s);
	s = agx_glsl_source_version_first("#version 300 es\nx", 17);
	assert_string_equal(s, "#version 300 es\nx");
	free(s);
}

/* Enough of some text in a malloc'd string. */
static char *repeat(const char *head, const char *unit, unsigned n, const char *tail)
{
	size_t hl = strlen(head), ul = strlen(unit), tl = strlen(tail);
	char *s = malloc(hl + ul * n + tl + 1), *p = s;

	assert_non_null(s);
	memcpy(p, head, hl);
	p += hl;
	for (unsigned i = 0; i < n; i++, p += ul)
		memcpy(p, unit, ul);
	memcpy(p, tail, tl + 1);
	return s;
}

static void test_source_limits(void **state)
{
	char *error, *s;

	(void)state;
	s = repeat("float x = ", "(", AGX_GLSL_MAX_NESTING + 1, "");
	assert_false(agx_glsl_source_check(s, strlen(s), &error));
	assert_non_null(strstr(error, "nested"));
	free(error);
	free(s);
	s = repeat("float x = ", "(", AGX_GLSL_MAX_NESTING, "");
	assert_true(agx_glsl_source_check(s, strlen(s), &error));
	free(s);

	s = repeat("#if 1", " + 1", AGX_GLSL_MAX_IF_TOKENS / 2, "\n#endif\n");
	assert_false(agx_glsl_source_check(s, strlen(s), &error));
	assert_non_null(strstr(error, "'#if'"));
	free(error);
	free(s);

	assert_false(agx_glsl_source_check("a\0b", 3, &error));
	assert_non_null(strstr(error, "NUL"));
	free(error);

	/* glslang would read the file: no #include extension at all */
	s = "#extension GL_GOOGLE_include_\\\ndirective : enable\n";
	assert_false(agx_glsl_source_check(s, strlen(s), &error));
	assert_non_null(strstr(error, "GL_GOOGLE_include_directive"));
	free(error);

	s = repeat("x = a", " + a", AGX_GLSL_MAX_STATEMENT_TOKENS / 2, ";");
	assert_false(agx_glsl_preprocessed_check(s, strlen(s), &error));
	assert_non_null(strstr(error, "statement"));
	free(error);
	free(s);
	s = repeat("x = a", " + a", AGX_GLSL_MAX_STATEMENT_TOKENS / 2 - 2, ";");
	assert_true(agx_glsl_preprocessed_check(s, strlen(s), &error));
	free(s);
}

/* s with n ")" after it. */
static char *close_parens(char *s, unsigned n)
{
	size_t length = strlen(s);

	s = realloc(s, length + n + 1);
	assert_non_null(s);
	memset(s + length, ')', n);
	s[length + n] = '\0';
	return s;
}

/* Whether the expansion check takes a source, and if not, whether its error holds what. */
static bool expansion_ok(const char *source, const char *what)
{
	struct agx_glsl_tokens t;
	char *error;
	bool ok;

	assert_int_equal(agx_glsl_tokenize(source, strlen(source), &t), 0);
	ok = agx_glsl_expansion_check(&t, &error);
	agx_glsl_tokens_finish(&t);
	if (!ok) {
		assert_non_null(error);
		if (what && !strstr(error, what))
			print_error("%s", error);
		assert_true(!what || strstr(error, what));
		free(error);
	}
	return ok;
}

/* Macro expansion, bounded before glslang expands anything. */
static void test_expansion(void **state)
{
	char *s;

	(void)state;
	/* what shaders do: constants, helpers, self and mutual reference, ##, defined */
	assert_true(expansion_ok("#define N 4\n#define SQ(x) ((x) * (x))\n#define x x\n"
				 "#define a b\n#define b a\n#define CAT(p, q) p##q\n"
				 "#if defined(N) && N > 2 && !defined X\n#endif\n"
				 "float f = SQ(SQ(N)) + x + a + CAT(N, 1) + SQ();\n",
				 NULL));

	/* 2^30 tokens from 31 lines */
	s = repeat("#define A0 x\n", "", 0, "");
	for (unsigned k = 1; k <= 30; k++) {
		char line[64], *grown;

		snprintf(line, sizeof(line), "#define A%u A%u A%u\n", k, k - 1, k - 1);
		grown = malloc(strlen(s) + strlen(line) + 1);
		assert_non_null(grown);
		strcpy(grown, s);
		strcat(grown, line);
		free(s);
		s = grown;
	}
	s = realloc(s, strlen(s) + 8);
	assert_non_null(s);
	strcat(s, "A30\n");
	assert_false(expansion_ok(s, "the macros expand to more than"));
	free(s);

	/* through arguments: D(D(D(...))) doubles at each level */
	s = close_parens(repeat("#define D(x) x x\n", "D(", 30, "a"), 30);
	assert_false(expansion_ok(s, "steps to expand"));
	free(s);

	/* a million unary minuses in an #if, which glslang would evaluate recursively */
	assert_false(expansion_ok("#define U1 - - - - - - - - - -\n#define U2 U1 U1 U1 U1 U1 U1 U1 "
				  "U1 U1 U1\n#define U3 U2 U2 U2 U2 U2 U2 U2 U2 U2 U2\n"
				  "#define U4 U3 U3 U3 U3 U3 U3 U3 U3 U3 U3\n#if U4 1\n#endif\n",
				  "ERROR: 0:5: '#if' : expands to more than"));

	/*
	 * Invocations nested without a nested parenthesis in the text: each
	 * O opens an A( whose argument is all that follows, expanded inside.
	 */
	s = repeat("#define O A(\n#define A(x) x\n", "O ", AGX_GLSL_MAX_NESTING + 8, "a\n");
	assert_false(expansion_ok(s, "nested more than"));
	free(s);
	/* D_k(x) is D_k-1(D_k-1(x)): twice the work at each level, one token out */
	assert_true(expansion_ok("#define A(x) x\n#define D1(x) A(x)\n#define D2(x) D1(D1(x))\n"
				 "#define D3(x) D2(D2(x))\nD3(a)\n",
				 NULL));
	s = repeat("#define D0(x) x\n", "", 0, "");
	for (unsigned k = 1; k <= 30; k++) {
		char line[64], *grown;

		snprintf(line, sizeof(line), "#define D%u(x) D%u(D%u(x))\n", k, k - 1, k - 1);
		grown = malloc(strlen(s) + strlen(line) + 1);
		assert_non_null(grown);
		strcpy(grown, s);
		strcat(grown, line);
		free(s);
		s = grown;
	}
	s = realloc(s, strlen(s) + 12);
	assert_non_null(s);
	strcat(s, "D30(a)\n");
	assert_false(expansion_ok(s, "steps to expand"));
	free(s);

	/* every definition counts, whichever branch holds it: over-counted, never under */
	s = repeat("#if 0\n#define BIG", " 1 +", AGX_GLSL_MAX_IF_TOKENS / 2,
		   " 1\n#else\n#define BIG 1\n#endif\n#if BIG\n#endif\n");
	assert_false(expansion_ok(s, "'#if'"));
	free(s);
}

/* The verdicts through glslang */

static int check(enum agx_glsl_stage stage, const char *source, int *version)
{
	struct agx_glsl_log log;
	int ret = agx_glsl_check(stage, source, strlen(source), &log);

	assert_non_null(log.text);
	if (version)
		*version = log.version;
	agx_glsl_log_finish(&log);
	return ret;
}

/* ret, and whether the log holds what (NULL: anything) */
static void check_log(enum agx_glsl_stage stage, const char *source, int want, const char *what)
{
	struct agx_glsl_log log;
	int ret = agx_glsl_check(stage, source, strlen(source), &log);

	if (ret != want || (what && !strstr(log.text, what)))
		print_error("%s\n--- log:\n%s\n", source, log.text);
	assert_int_equal(ret, want);
	if (what)
		assert_non_null(strstr(log.text, what));
	agx_glsl_log_finish(&log);
}

#define V300 "#version 300 es\n"

static void test_check_attribute(void **state)
{
	int version;

	(void)state;
	assert_int_equal(
	    check(AGX_GLSL_VERTEX, "attribute vec4 p; void main(){ gl_Position = p; }", &version),
	    0);
	assert_int_equal(version, 100);
	check_log(AGX_GLSL_VERTEX, V300 "attribute vec4 p; void main(){ gl_Position = p; }",
		  -EINVAL, "'attribute'");
}

static void test_check_frag_color(void **state)
{
	int version;

	(void)state;
	assert_int_equal(check(AGX_GLSL_FRAGMENT, "void main(){ gl_FragColor = vec4(1.0); }", NULL),
			 0);
	check_log(AGX_GLSL_FRAGMENT,
		  V300 "precision mediump float;\nvoid main(){ gl_FragColor = vec4(1.0); }",
		  -EINVAL, "'gl_FragColor' : undeclared identifier");
	assert_int_equal(check(AGX_GLSL_FRAGMENT,
			       V300 "out mediump vec4 c;\nvoid main(){ c = vec4(1.0); }", &version),
			 0);
	assert_int_equal(version, 300);
	/* both outputs in one 1.00 shader: our check, glslang has none */
	check_log(AGX_GLSL_FRAGMENT,
		  "void main(){ gl_FragColor = vec4(1.0);\n gl_FragData[0] = vec4(1.0); }", -EINVAL,
		  "ERROR: 0:2: 'gl_FragData'");
	/* naming both is no error, and makes one output */
	assert_int_equal(check(AGX_GLSL_FRAGMENT,
			       "invariant gl_FragColor;\ninvariant gl_FragData;\nvoid main() { }",
			       NULL),
			 0);
}

static void to_spirv(enum agx_glsl_stage stage, const char *source, struct agx_glsl_result *r);

/*
 * Rule 22 through glslang: piglit's 1.00 sequences in constant
 * expressions compile; a sequence with an operand that is not constant,
 * one without parentheses, and 3.00's stay refused, and errors after a
 * rewritten line keep their line numbers.
 */
static void test_check_constant_sequences(void **state)
{
	struct agx_glsl_result r;

	(void)state;
	assert_int_equal(
	    check(AGX_GLSL_VERTEX,
		  "uniform float uf[(1, 2)];\nvoid main() { gl_Position = vec4(uf[1]); }", NULL),
	    0);
	assert_int_equal(
	    check(AGX_GLSL_FRAGMENT,
		  "precision mediump float;\nconst float cf = 2.0;\nfloat gf2 = (cf, 3.0);\n"
		  "const float f = cos((1.0, 2.0)) + (cf, 3.0);\n"
		  "void main() { const float l = (f,\n cf);\n float a[(1, 2)];\n a[1] = 1.0;\n"
		  " gl_FragData[0] = vec4(gf2, l, f, a[1]); }",
		  NULL),
	    0);
	check_log(AGX_GLSL_VERTEX,
		  "uniform float u;\nfloat g = (u, 3.0);\nvoid main() { gl_Position = vec4(g); }",
		  -EINVAL, "ERROR: 0:2:");
	check_log(AGX_GLSL_VERTEX,
		  "uniform float uf[1, 2];\nvoid main() { gl_Position = vec4(uf[0]); }", -EINVAL,
		  "ERROR: 0:1:");
	check_log(AGX_GLSL_VERTEX,
		  V300 "const float f = (1.0, 2.0);\nvoid main() { gl_Position = vec4(f); }",
		  -EINVAL, "ERROR: 0:2:");
	check_log(AGX_GLSL_VERTEX,
		  "const float f = (1.0,\n 2.0);\nvoid main() {\n gl_Position = vec4(f) + q; }",
		  -EINVAL, "ERROR: 0:4: 'q' : undeclared identifier");

	/* and the lowered 3.10 source makes SPIR-V */
	to_spirv(AGX_GLSL_VERTEX,
		 "uniform float uf[(1, 2)];\nconst float f = 3.0 + (1.0, 2.0);\n"
		 "void main() { gl_Position = vec4(uf[1] + f); }",
		 &r);
	assert_non_null(strstr(r.lowered, "uf[((1)==(1)?( 2):( 2))]"));
	agx_glsl_result_finish(&r);
}

/*
 * Rule 23 through glslang, piglit's mismatched-return-precision.frag, and
 * the parameters' precisions, which glslang checks itself.
 */
static void test_check_function_declarations(void **state)
{
	(void)state;
	check_log(AGX_GLSL_FRAGMENT,
		  "#version 100\nprecision mediump float;\nfloat\nget_three();\nhighp float\n"
		  "get_three()\n{\n return 3.0;\n}\nvoid\nmain(void)\n{\n"
		  " gl_FragColor = vec4(get_three());\n}\n",
		  -EINVAL, "ERROR: 0:6: 'get_three' : return precision highp");
	assert_int_equal(check(AGX_GLSL_FRAGMENT,
			       "precision mediump float;\nfloat f();\nmediump float f() { "
			       "return 3.0; }\nvoid main() { gl_FragColor = vec4(f()); }",
			       NULL),
			 0);
	check_log(AGX_GLSL_FRAGMENT,
		  "precision mediump float;\nfloat f(float x);\nfloat f(highp float x) { "
		  "return x; }\nvoid main() { gl_FragColor = vec4(f(1.0)); }",
		  -EINVAL,
		  "ERROR: 0:3: 'highp' : overloaded functions must have the same parameter "
		  "precision");
}

/*
 * What 1.00 takes of arrays: C-style out and inout array parameters, but
 * no array type ("float[2] x", 3.00's), as glslang and ANGLE have it;
 * piglit's fn-*-array-allowed-cstyle tests declare one (Mesa takes it).
 */
static void test_check_array_syntax(void **state)
{
	(void)state;
	assert_int_equal(check(AGX_GLSL_FRAGMENT,
			       "precision mediump float;\nvoid f(out float x[2]) { }\n"
			       "void g(inout float x[2]) { }\n"
			       "void main() { float x[2]; f(x); g(x); }",
			       NULL),
			 0);
	check_log(AGX_GLSL_FRAGMENT,
		  "precision mediump float;\nvoid f(out float x[2]) { }\n"
		  "void main() { float[2] x; f(x); }",
		  -EINVAL, "'arrayed type'");
	assert_int_equal(check(AGX_GLSL_FRAGMENT,
			       V300 "precision mediump float;\nvoid f(out float x[2]) { }\n"
				    "void main() { float[2] x; f(x); }",
			       NULL),
			 0);
}

static void test_check_invariant_all(void **state)
{
	const char *body = "#pragma STDGL invariant(all)\nvoid main(){ }";
	char source[128];

	(void)state;
	snprintf(source, sizeof(source), V300 "%s", body);
	check_log(AGX_GLSL_FRAGMENT, source, -EINVAL,
		  "ERROR: 0:2: '#pragma' : STDGL invariant(all)");
	assert_int_equal(check(AGX_GLSL_VERTEX, source, NULL), 0);
	assert_int_equal(check(AGX_GLSL_FRAGMENT, body, NULL), 0);
}

/* The extensions' rules through glslang, piglit's compiler tests among them. */
static void test_check_fetch(void **state)
{
	static const char ext[] = "#extension GL_EXT_shader_framebuffer_fetch : require\n";
	static const char nc[] =
	    "#extension GL_EXT_shader_framebuffer_fetch_non_coherent : require\n";
	static const struct {
		enum agx_glsl_stage stage;
		const char *version, *ext, *body, *error;
	} cases[] = {
		{ AGX_GLSL_FRAGMENT, V300, ext,
		  "inout highp vec4 c;\nvoid main() { c += vec4(0.5); }\n", NULL },
		{ AGX_GLSL_FRAGMENT, V300, nc,
		  "layout(noncoherent, location = 0) inout highp ivec4 c;\nvoid main() { c.x++; "
		  "}\n",
		  NULL },
		{ AGX_GLSL_FRAGMENT, "", ext,
		  "void main() { gl_FragData[0] = gl_LastFragData[0] + vec4(0.5); }\n", NULL },
		{ AGX_GLSL_FRAGMENT, "", nc,
		  "layout(noncoherent) lowp vec4 gl_LastFragData[gl_MaxDrawBuffers];\n"
		  "void main() { gl_FragColor = gl_LastFragData[0]; }\n",
		  NULL },
		{ AGX_GLSL_FRAGMENT, V300, "",
		  "#if GL_EXT_shader_framebuffer_fetch != 1 || "
		  "GL_EXT_shader_framebuffer_fetch_non_coherent != 1\n#error no macro\n#endif\n"
		  "void main() {}\n",
		  NULL },
		{ AGX_GLSL_VERTEX, V300, ext, "void main() {}\n", NULL },
		/* what the extensions forbid */
		{ AGX_GLSL_FRAGMENT, "", ext, "void main() { gl_LastFragData[0] = vec4(1.0); }\n",
		  "l-value required" },
		{ AGX_GLSL_FRAGMENT, "", ext,
		  "inout highp vec4 c;\nvoid main() { c += vec4(0.5); }\n", "'inout'" },
		{ AGX_GLSL_FRAGMENT, "", ext,
		  "layout(noncoherent) mediump vec4 gl_LastFragData[gl_MaxDrawBuffers];\n"
		  "void main() { gl_LastFragData[0]; }\n",
		  "ERROR: 0:2:" },
		{ AGX_GLSL_FRAGMENT, "", nc, "void main() { gl_LastFragData[0]; }\n",
		  "'gl_LastFragData' : undeclared identifier" },
		{ AGX_GLSL_FRAGMENT, V300, ext,
		  "out highp vec4 c;\nvoid main() { c = gl_LastFragData[0]; }\n",
		  "'gl_LastFragData' : undeclared identifier" },
		{ AGX_GLSL_FRAGMENT, V300, ext,
		  "inout highp float gl_FragDepth;\nvoid main() { gl_FragDepth += 0.5; }\n",
		  "'inout'" },
		{ AGX_GLSL_VERTEX, V300, ext, "inout highp vec4 v;\nvoid main() {}\n", "'inout'" },
		{ AGX_GLSL_FRAGMENT, V300, ext,
		  "layout(noncoherent) inout mediump vec4 c;\nvoid main() { c; }\n",
		  "'noncoherent'" },
		{ AGX_GLSL_FRAGMENT, V300, nc, "inout mediump vec4 c;\nvoid main() { c; }\n",
		  "ERROR: 0:3: 'inout'" },
	};
	char source[512];

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		snprintf(source, sizeof(source), "%s%s%s", cases[i].version, cases[i].ext,
			 cases[i].body);
		check_log(cases[i].stage, source, cases[i].error ? -EINVAL : 0, cases[i].error);
	}
}

static void test_check_texture2d(void **state)
{
	const char *body = "uniform sampler2D s;\nvoid main(){ gl_Position = texture2D(s, "
			   "vec2(0.5)); }";
	char source[256];

	(void)state;
	assert_int_equal(check(AGX_GLSL_VERTEX, body, NULL), 0);
	snprintf(source, sizeof(source), V300 "%s", body);
	check_log(AGX_GLSL_VERTEX, source, -EINVAL, "'texture2D'");
}

static void test_check_integer_ops(void **state)
{
	const char *body = "uniform int m;\nvoid main(){ gl_Position = vec4(float((m & 3) << 1 "
			   "| m % 5)); }";
	char source[256];

	(void)state;
	check_log(AGX_GLSL_VERTEX, body, -EINVAL, "ERROR: 0:2:");
	snprintf(source, sizeof(source), V300 "%s", body);
	assert_int_equal(check(AGX_GLSL_VERTEX, source, NULL), 0);
	check_log(AGX_GLSL_VERTEX, "void main(){ uint u = 1u; }", -EINVAL, NULL);
}

/* 3.10's new words are 1.00 (and some 3.00) identifiers. */
static void test_check_reserved_words(void **state)
{
	static const char *const words[] = { "sample", "buffer", "coherent", "shared", "texture" };

	(void)state;
	for (size_t i = 0; i < sizeof(words) / sizeof(words[0]); i++) {
		char source[256];

		snprintf(source, sizeof(source),
			 "uniform float %s;\nvoid main(){ gl_Position = vec4(%s); }", words[i],
			 words[i]);
		assert_int_equal(check(AGX_GLSL_VERTEX, source, NULL), 0);
	}
	check_log(AGX_GLSL_VERTEX, V300 "uniform float sample;\nvoid main(){}", -EINVAL,
		  "'sample' : Reserved word");
	check_log(AGX_GLSL_VERTEX, V300 "uniform float coherent;\nvoid main(){}", -EINVAL,
		  "'coherent'");
	assert_int_equal(check(AGX_GLSL_VERTEX, V300 "uniform float buffer;\nvoid main(){}", NULL),
			 0);
}

/* Vertex and fragment shaders take 100 and 300 es, compute shaders 310 es. */
static void test_check_versions(void **state)
{
	int version;

	(void)state;
	check_log(AGX_GLSL_VERTEX, "#version 310 es\nvoid main(){}", -EINVAL,
		  "vertex shaders take 100 or 300 es");
	check_log(AGX_GLSL_FRAGMENT, "#version 330\nvoid main(){}", -EINVAL, "'#version'");
	check_log(AGX_GLSL_FRAGMENT, "#version 300\nvoid main(){}", -EINVAL, "es");
	check_log(AGX_GLSL_FRAGMENT, "#version 100 es\nvoid main(){}", -EINVAL, "profile");
	check_log(AGX_GLSL_COMPUTE, "void main(){}", -EINVAL, "compute shaders take 310 es");
	assert_int_equal(check(AGX_GLSL_COMPUTE,
			       "#version 310 es\nlayout(local_size_x = 8) in;\nvoid main(){}",
			       &version),
			 0);
	assert_int_equal(version, 310);
	assert_int_equal(check(AGX_GLSL_VERTEX, "#version x\nvoid main(){}", &version), -EINVAL);
	assert_int_equal(version, 0);
	/* comments may come before #version, and lines keep their numbers */
	check_log(AGX_GLSL_VERTEX, "// [config]\n/* */\n" V300 "void main(){ x; }", -EINVAL,
		  "ERROR: 0:4: 'x' : undeclared identifier");
}

/* The length is the shader's; no NUL needed, and one inside is an error. */
static void test_check_length(void **state)
{
	static const char text[] = "void main(){}garbage";
	struct agx_glsl_log log;

	(void)state;
	assert_int_equal(agx_glsl_check(AGX_GLSL_VERTEX, text, 13, &log), 0);
	agx_glsl_log_finish(&log);
	assert_int_equal(agx_glsl_check(AGX_GLSL_VERTEX, text, sizeof(text) - 1, &log), -EINVAL);
	agx_glsl_log_finish(&log);
	assert_int_equal(agx_glsl_check(AGX_GLSL_VERTEX, "void main(){}\0x", 15, &log), -EINVAL);
	assert_non_null(strstr(log.text, "NUL"));
	agx_glsl_log_finish(&log);
}

/*
 * A warning glslang gives twice (its parser reads the directives again) is
 * in the log once: an extension neither glslang nor the front end knows.
 */
static void test_check_log(void **state)
{
	const char *s = "#extension GL_EXT_draw_instanced : enable\nprecision mediump float;\n"
			"void main(){ gl_FragColor = vec4(1.0); }";
	const char *bad = "#extension GL_EXT_draw_instanced : enable\nvoid main(){ x; }";
	struct agx_glsl_log log;
	const char *first;

	(void)state;
	assert_int_equal(agx_glsl_check(AGX_GLSL_FRAGMENT, s, strlen(s), &log), 0);
	first = strstr(log.text, "WARNING: 0:1: '#extension'");
	assert_non_null(first);
	assert_null(strstr(first + 1, "WARNING"));
	agx_glsl_log_finish(&log);

	assert_int_equal(agx_glsl_check(AGX_GLSL_FRAGMENT, bad, strlen(bad), &log), -EINVAL);
	first = strstr(log.text, "WARNING: 0:1: '#extension'");
	assert_non_null(first);
	assert_null(strstr(first + 1, "WARNING"));
	assert_non_null(strstr(log.text, "ERROR: 0:2: 'x' : undeclared identifier"));
	agx_glsl_log_finish(&log);
}

/* An #include would read a file: refused, and the file's text never shows. */
static void test_check_include(void **state)
{
	char dir[] = "/tmp/agx-test-glsl-XXXXXX", path[64], cwd[4096];
	FILE *f;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/secret.h", dir);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs("SECRET_TEXT\n", f);
	fclose(f);
	assert_non_null(getcwd(cwd, sizeof(cwd)));
	assert_int_equal(chdir(dir), 0);
	check_log(AGX_GLSL_VERTEX,
		  "#extension GL_GOOGLE_include_directive : enable\n#include \"secret.h\"\n"
		  "void main(){}",
		  -EINVAL, "GL_GOOGLE_include_directive");
	/* without the extension glslang refuses #include itself */
	check_log(AGX_GLSL_VERTEX, "#include \"secret.h\"\nvoid main(){}", -EINVAL, "#include");
	assert_int_equal(chdir(cwd), 0);
	unlink(path);
	rmdir(dir);
}

static void *check_deep_thread(void *arg)
{
	struct agx_glsl_log log;
	const char *s = arg;
	int ret = agx_glsl_check(AGX_GLSL_VERTEX, s, strlen(s), &log);

	agx_glsl_log_finish(&log);
	return (void *)(intptr_t)ret;
}

/*
 * Deep shaders: the nesting limit refuses what glslang's parser would
 * recurse through; the longest expression the statement limit lets
 * through compiles, glslang recursing once per operator on the compile
 * thread's stack, even when the caller's own stack is 256 KiB.
 */
static void test_check_deep(void **state)
{
	pthread_attr_t attr;
	pthread_t thread;
	void *ret;
	char *s;

	(void)state;
	s = repeat("void main(){ float a = 1.0; a = ", "(", 5000, "");
	check_log(AGX_GLSL_VERTEX, s, -EINVAL, "nested");
	free(s);
	s = repeat("void main(){ float a = 1.0; a = a", " + a",
		   AGX_GLSL_MAX_STATEMENT_TOKENS / 2 - 8, "; }");
	assert_int_equal(pthread_attr_init(&attr), 0);
	assert_int_equal(pthread_attr_setstacksize(&attr, 256 << 10), 0);
	assert_int_equal(pthread_create(&thread, &attr, check_deep_thread, s), 0);
	assert_int_equal(pthread_join(thread, &ret), 0);
	assert_int_equal((intptr_t)ret, 0);
	pthread_attr_destroy(&attr);
	free(s);
	s = repeat("#define A a + a + a + a + a + a + a + a\nvoid main(){ float a = 1.0; a = a",
		   " + A", AGX_GLSL_MAX_STATEMENT_TOKENS / 16, "; }");
	check_log(AGX_GLSL_VERTEX, s, -EINVAL, "a statement of more than");
	free(s);
}

/* SPIR-V */

/* Whether spirv-val takes the words under OpenGL 4.5's rules (true without spirv-val). */
static bool spirv_valid(const uint32_t *words, size_t n)
{
	char path[] = "/tmp/agx-test-glsl-XXXXXX", command[4096];
	FILE *f;
	int fd, status;

	if (!spirv_val)
		return true;
	fd = mkstemp(path);
	assert_true(fd >= 0);
	f = fdopen(fd, "wb");
	assert_non_null(f);
	assert_int_equal(fwrite(words, 4, n, f), n);
	fclose(f);
	snprintf(command, sizeof(command), "%s --target-env opengl4.5 %s", spirv_val, path);
	status = system(command);
	unlink(path);
	return status == 0;
}

/* Whether the words hold an OpString/OpName of s (a nul-terminated literal). */
static bool spirv_has_name(const struct agx_glsl_result *r, const char *s)
{
	size_t n = strlen(s) + 1;

	for (size_t i = 5; i < r->spirv_words; i++) {
		if (n <= (r->spirv_words - i) * 4 && !memcmp(&r->spirv[i], s, n))
			return true;
	}
	return false;
}

static void to_spirv(enum agx_glsl_stage stage, const char *source, struct agx_glsl_result *r)
{
	int ret = agx_glsl_to_spirv(stage, source, strlen(source), r);

	if (ret)
		print_error("%s\n--- log:\n%s\n--- lowered:\n%s\n", source, r->log.text,
			    r->lowered ? r->lowered : "");
	assert_int_equal(ret, 0);
	assert_true(r->spirv_words > 5);
	assert_int_equal(r->spirv[0], 0x07230203);
	assert_true(spirv_valid(r->spirv, r->spirv_words));
}

static void test_spirv_100(void **state)
{
	struct agx_glsl_result r;

	(void)state;
	to_spirv(AGX_GLSL_VERTEX,
		 "attribute vec4 p;\nuniform mat4 m;\nuniform sampler2D h;\nvarying vec2 uv;\n"
		 "void main(){ uv = p.xy; gl_Position = m * p + texture2DLod(h, uv, 0.0); }",
		 &r);
	assert_non_null(strstr(r.lowered, "in vec4 p;"));
	assert_non_null(strstr(r.lowered, "out vec2 uv;"));
	assert_int_equal(r.log.version, 100);
	agx_glsl_result_finish(&r);

	to_spirv(AGX_GLSL_FRAGMENT,
		 "precision mediump float;\nuniform sampler2D s;\nuniform samplerCube c;\n"
		 "varying vec2 uv;\nvoid main(){ gl_FragColor = texture2D(s, uv) + "
		 "textureCube(c, vec3(uv, 1.0)) + texture2DProj(s, vec3(uv, 2.0)); }",
		 &r);
	agx_glsl_result_finish(&r);

	to_spirv(AGX_GLSL_FRAGMENT,
		 "precision mediump float;\nvoid main(){ gl_FragData[0] = vec4(1.0); "
		 "gl_FragData[3] = vec4(0.5); }",
		 &r);
	assert_string_equal(agx_glsl_original_name(&r, "agx_FragData"), "gl_FragData");
	agx_glsl_result_finish(&r);

	/*
	 * gl_FragColor only named: gl_FragData is the one output.  (Read, it
	 * would be refused by glslang's link: "Cannot use both gl_FragColor
	 * and gl_FragData".)
	 */
	to_spirv(AGX_GLSL_FRAGMENT,
		 "precision mediump float;\ninvariant gl_FragColor;\n"
		 "void main(){ gl_FragData[1] = vec4(1.0); }",
		 &r);
	assert_non_null(strstr(r.lowered, "\nmediump vec4 agx_FragColor;\n"));
	assert_non_null(strstr(r.lowered, "\nout mediump vec4 agx_FragData["));
	assert_true(spirv_has_name(&r, "agx_FragData"));
	agx_glsl_result_finish(&r);

	/* EXT_blend_func_extended: both outputs of location 0 */
	to_spirv(AGX_GLSL_FRAGMENT,
		 "#extension GL_EXT_blend_func_extended : require\nprecision mediump float;\n"
		 "void main(){ gl_FragColor = vec4(1.0); gl_SecondaryFragColorEXT = vec4(0.5); }",
		 &r);
	assert_string_equal(agx_glsl_original_name(&r, "agx_SecondaryFragColorEXT"),
			    "gl_SecondaryFragColorEXT");
	agx_glsl_result_finish(&r);
}

static void test_spirv_300(void **state)
{
	struct agx_glsl_result r;

	(void)state;
	to_spirv(AGX_GLSL_FRAGMENT,
		 V300 "precision highp float;\nlayout(location = 0) out vec4 c;\n"
		      "uniform B { vec4 t; int m; };\nlayout(shared) uniform S { vec4 u; };\n"
		      "in vec2 uv;\nflat in int buffer;\n"
		      "void main(){ c = t * float((m & buffer) << 1) + u + vec4(uv, 0.0, 1.0); }",
		 &r);
	assert_int_equal(r.log.version, 300);
	assert_string_equal(agx_glsl_lowered_name(&r, "buffer"), "agx_buffer");
	agx_glsl_result_finish(&r);

	/* rule 16: SPIR-V of several outputs without locations, whose places the GL link decides */
	to_spirv(AGX_GLSL_FRAGMENT,
		 V300 "precision highp float;\nout vec4 a;\nout vec4 b;\n"
		      "void main(){ a = vec4(1.0); b = vec4(0.5); }",
		 &r);
	assert_true(agx_glsl_placed(&r, "a"));
	assert_true(agx_glsl_placed(&r, "b"));
	assert_false(agx_glsl_placed(&r, "c"));
	agx_glsl_result_finish(&r);

	to_spirv(AGX_GLSL_VERTEX,
		 V300 "in vec4 p;\nin mat4 m;\nout vec4 v;\nflat out uint k;\n"
		      "void main(){ v = p; k = uint(gl_VertexID); gl_Position = m * p; }",
		 &r);
	agx_glsl_result_finish(&r);
}

static void test_spirv_310_compute(void **state)
{
	struct agx_glsl_result r;

	(void)state;
	to_spirv(AGX_GLSL_COMPUTE,
		 "#version 310 es\nlayout(local_size_x = 64) in;\n"
		 "layout(std430, binding = 0) buffer D { uint v[]; };\n"
		 "shared uint tmp[64];\nvoid main(){ tmp[gl_LocalInvocationIndex] = "
		 "v[gl_GlobalInvocationID.x]; barrier(); v[gl_GlobalInvocationID.x] = "
		 "tmp[63u - gl_LocalInvocationIndex]; }",
		 &r);
	assert_null(r.lowered);
	assert_int_equal(r.num_renames, 0);
	agx_glsl_result_finish(&r);
}

/* The SPIR-V names what was renamed by its new name; the map leads back, paths too. */
static void test_spirv_renames(void **state)
{
	struct agx_glsl_result r;

	(void)state;
	to_spirv(AGX_GLSL_FRAGMENT,
		 "precision mediump float;\nuniform float sample;\nuniform sampler2D texture;\n"
		 "void main(){ gl_FragColor = texture2D(texture, vec2(sample)); }",
		 &r);
	assert_int_equal(r.num_renames, 3);
	assert_string_equal(agx_glsl_original_name(&r, "agx_sample"), "sample");
	assert_string_equal(agx_glsl_original_name(&r, "agx_texture"), "texture");
	assert_string_equal(agx_glsl_original_name(&r, "agx_FragColor"), "gl_FragColor");
	assert_string_equal(agx_glsl_lowered_name(&r, "sample"), "agx_sample");
	assert_string_equal(agx_glsl_original_name(&r, "unrenamed"), "unrenamed");
	/* a path: each identifier mapped, the rest kept, even a prefix of a renamed one */
	{
		static const char *const paths[][2] = {
			{ "agx_sample", "sample" },
			{ "s[12].agx_texture.agx_sample", "s[12].texture.sample" },
			{ "agx_texture[1].agx_samplex", "texture[1].agx_samplex" },
			{ "", "" },
		};

		for (unsigned i = 0; i < 4; i++) {
			char *got = agx_glsl_original_path(&r, paths[i][0]);

			assert_non_null(got);
			assert_string_equal(got, paths[i][1]);
			free(got);
		}
	}
	assert_true(spirv_has_name(&r, "agx_sample"));
	assert_true(spirv_has_name(&r, "agx_FragColor"));
	assert_false(spirv_has_name(&r, "gl_FragColor"));
	agx_glsl_result_finish(&r);
}

/* Invalid shaders make no SPIR-V; nor does a shader without main (a program needs one). */
static void test_spirv_errors(void **state)
{
	struct agx_glsl_result r;
	const char *s;

	(void)state;
	s = V300 "attribute vec4 p;\nvoid main(){}";
	assert_int_equal(agx_glsl_to_spirv(AGX_GLSL_VERTEX, s, strlen(s), &r), -EINVAL);
	assert_null(r.spirv);
	assert_non_null(strstr(r.log.text, "'attribute'"));
	agx_glsl_result_finish(&r);

	s = "float f(float x) { return x; }";
	assert_int_equal(check(AGX_GLSL_VERTEX, s, NULL), 0);
	assert_int_equal(agx_glsl_to_spirv(AGX_GLSL_VERTEX, s, strlen(s), &r), -EINVAL);
	assert_non_null(strstr(r.log.text, "entry point"));
	agx_glsl_result_finish(&r);
}

/*
 * Every entry of the reserved-word table, in every version it is renamed
 * in: used as a uniform, a function or a local, a shader its version
 * takes (one form at least; glslang has built-ins of its own that a 1.00
 * function cannot overload) is lowered to one that compiles to SPIR-V.
 * This checks the table against the glslang installed.
 */
static void test_reserved_table(void **state)
{
	static const char *const forms[] = {
		"uniform float %s;\nvoid main(){ %s = vec4(%s); }",
		"float %s(float x) { return x; }\nvoid main(){ %s = vec4(%s(1.0)); }",
		"void main(){ float %s = 1.0; %s = vec4(%s); }",
	};

	(void)state;
	for (unsigned i = 0; i < agx_glsl_num_reserved; i++) {
		const struct agx_glsl_reserved *w = &agx_glsl_reserved[i];

		for (unsigned v = 0; v < 2; v++) {
			if (!(w->versions & (v ? AGX_GLSL_RENAME_IN_300 : AGX_GLSL_RENAME_IN_100)))
				continue;
			unsigned valid = 0;

			for (size_t f = 0; f < sizeof(forms) / sizeof(forms[0]); f++) {
				struct agx_glsl_result r;
				char body[512], source[600];
				int ret;

				snprintf(body, sizeof(body), forms[f], w->name,
					 v ? "o" : "gl_FragColor", w->name);
				snprintf(source, sizeof(source), "%sprecision mediump float;\n%s%s",
					 v ? V300 : "", v ? "out vec4 o;\n" : "", body);
				if (check(AGX_GLSL_FRAGMENT, source, NULL))
					continue;
				valid++;
				ret = agx_glsl_to_spirv(AGX_GLSL_FRAGMENT, source, strlen(source),
							&r);
				if (ret)
					print_error("%s\n--- log:\n%s\n", source, r.log.text);
				assert_int_equal(ret, 0);
				assert_string_equal(
				    agx_glsl_original_name(&r, agx_glsl_lowered_name(&r, w->name)),
				    w->name);
				assert_string_not_equal(agx_glsl_lowered_name(&r, w->name),
							w->name);
				agx_glsl_result_finish(&r);
			}
		}
	}
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_lower_version),
		cmocka_unit_test(test_lower_attribute),
		cmocka_unit_test(test_lower_varying),
		cmocka_unit_test(test_lower_fragment_invariant),
		cmocka_unit_test(test_lower_constant_sequences),
		cmocka_unit_test(test_lower_return_precision),
		cmocka_unit_test(test_lower_frag_color),
		cmocka_unit_test(test_lower_secondary_outputs),
		cmocka_unit_test(test_lower_place_outputs),
		cmocka_unit_test(test_defined_builtins),
		cmocka_unit_test(test_source_extensions),
		cmocka_unit_test(test_source_cull_distances),
		cmocka_unit_test(test_lower_frag_data),
		cmocka_unit_test(test_lower_frag_color_and_data),
		cmocka_unit_test(test_lower_frag_color_and_data_named),
		cmocka_unit_test(test_lower_texture_functions),
		cmocka_unit_test(test_lower_frag_depth),
		cmocka_unit_test(test_lower_max_varying_vectors),
		cmocka_unit_test(test_lower_reserved),
		cmocka_unit_test(test_lower_pragma_invariant),
		cmocka_unit_test(test_lower_pragma_invariant_fragment),
		cmocka_unit_test(test_lower_block_layout),
		cmocka_unit_test(test_lower_passes_through),
		cmocka_unit_test(test_fetch_prepare),
		cmocka_unit_test(test_lower_fetch),
		cmocka_unit_test(test_lower_versions_taken),
		cmocka_unit_test(test_tokenize),
		cmocka_unit_test(test_source_version),
		cmocka_unit_test(test_source_version_first),
		cmocka_unit_test(test_source_limits),
		cmocka_unit_test(test_expansion),
		cmocka_unit_test(test_check_attribute),
		cmocka_unit_test(test_check_frag_color),
		cmocka_unit_test(test_check_constant_sequences),
		cmocka_unit_test(test_check_function_declarations),
		cmocka_unit_test(test_check_array_syntax),
		cmocka_unit_test(test_check_invariant_all),
		cmocka_unit_test(test_check_fetch),
		cmocka_unit_test(test_check_texture2d),
		cmocka_unit_test(test_check_integer_ops),
		cmocka_unit_test(test_check_reserved_words),
		cmocka_unit_test(test_check_versions),
		cmocka_unit_test(test_check_length),
		cmocka_unit_test(test_check_log),
		cmocka_unit_test(test_check_include),
		cmocka_unit_test(test_check_deep),
		cmocka_unit_test(test_spirv_100),
		cmocka_unit_test(test_spirv_300),
		cmocka_unit_test(test_spirv_310_compute),
		cmocka_unit_test(test_spirv_renames),
		cmocka_unit_test(test_spirv_errors),
		cmocka_unit_test(test_reserved_table),
	};

	if (argc > 1)
		spirv_val = argv[1];
	return cmocka_run_group_tests_name("glsl", tests, NULL, NULL);
}
