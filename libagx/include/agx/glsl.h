/*
 * glsl.h: the shader compiler's front end.  GLSL ES 1.00 and 3.00 vertex
 * and fragment shaders, and 3.10 compute shaders (the driver's own
 * kernels), are checked by glslang under their own version's rules; a
 * valid shader becomes SPIR-V, through an equivalent 3.10 source for 1.00
 * and 3.00 (glslang makes SPIR-V from ES 3.10 only).  docs/compiler.md,
 * "Front end", has the rules, the glslang settings and the limits.
 *
 * Any thread may call these functions at any time; sources are untrusted.
 */
#ifndef AGX_GLSL_H
#define AGX_GLSL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum agx_glsl_stage {
	AGX_GLSL_VERTEX,
	AGX_GLSL_FRAGMENT,
	AGX_GLSL_COMPUTE,
};

/* What a check said: glslang's info log (warnings as well as errors). */
struct agx_glsl_log {
	int version; /* the number on its #version line; 100 without one, 0 unreadable */
	char *text;  /* NUL-terminated, never NULL once a check returned */
};

/*
 * Whether source (length bytes, no NUL needed) compiles as a shader of
 * stage, the way glCompileShader decides: 0 valid, -EINVAL invalid (the
 * log says why), -ENOMEM or -EAGAIN (no compile thread) when it could not
 * tell.  Vertex and fragment shaders may declare 100 or 300 es; compute
 * shaders 310 es.  Free the log with agx_glsl_log_finish whatever the
 * result.
 */
int agx_glsl_check(enum agx_glsl_stage stage, const char *source, size_t length,
		   struct agx_glsl_log *log);
void agx_glsl_log_finish(struct agx_glsl_log *log);

/*
 * An identifier the lowering renamed: 3.10 reserves it, or it is a 1.00
 * built-in output 3.10 no longer has (gl_FragColor, gl_FragData).  The
 * SPIR-V carries the lowered name; reflection reports the original.
 */
struct agx_glsl_rename {
	char *original;
	char *lowered;
};

struct agx_glsl_result {
	struct agx_glsl_log log;
	char *lowered;	 /* the 3.10 source compiled (compute: NULL, the source itself was) */
	uint32_t *spirv; /* little-endian words, starting with 0x07230203 */
	size_t spirv_words;
	struct agx_glsl_rename *renames;
	unsigned num_renames;
	/*
	 * The shader has #pragma STDGL invariant(all): every output is
	 * invariant.  glslang's SPIR-V does not say so; the back end must.
	 */
	bool invariant_all;
	/*
	 * The fragment outputs (the shader's names) the lowering gave
	 * placeholder locations, which are not the shader's: several
	 * outputs without a location, whose places the GL link decides
	 * (docs/compiler.md, rule 16).
	 */
	char **placed;
	unsigned num_placed;
};

/*
 * Checks source like agx_glsl_check, and makes SPIR-V of a valid shader
 * (OpenGL semantics: default-block uniforms stay, every input, output,
 * uniform and sampler has a location or binding).  0; -EINVAL invalid, or
 * no program can be made of it (no main()); -ENOTSUP valid but beyond what
 * the lowering or glslang's SPIR-V back end does yet (the log says what);
 * -ENOMEM, -EAGAIN.  Free with agx_glsl_result_finish whatever the result.
 */
int agx_glsl_to_spirv(enum agx_glsl_stage stage, const char *source, size_t length,
		      struct agx_glsl_result *out);
void agx_glsl_result_finish(struct agx_glsl_result *result);

/* The name reflection reports for a name in the SPIR-V (itself when not renamed). */
const char *agx_glsl_original_name(const struct agx_glsl_result *result, const char *lowered);

/*
 * The same for a path of names, a struct leaf's ("s[1].f"): each
 * identifier in it the source's.  malloc'd; NULL when out of memory.
 */
char *agx_glsl_original_path(const struct agx_glsl_result *result, const char *lowered);

/* Whether the lowering placed the output of this (original) name (agx_glsl_result.placed). */
bool agx_glsl_placed(const struct agx_glsl_result *result, const char *original);

/* The name in the SPIR-V for a name in the source (itself when not renamed). */
const char *agx_glsl_lowered_name(const struct agx_glsl_result *result, const char *original);

/* "vertex", "fragment", "compute" */
const char *agx_glsl_stage_name(enum agx_glsl_stage stage);

#endif
