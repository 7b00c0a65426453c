/*
 * agx_compile.h: how the compiler's stages meet (agx_compile.c runs them):
 *
 *   SPIR-V --agx_spirv_to_ir--> IR --agx_optimize--> IR
 *          --agx_backend_compile--> machine code and reflection
 *
 * The IR between them is agx_ir.h's, with the shader's interface in
 * shader->vars.  docs/compiler.md describes each stage.
 */
#ifndef AGX_COMPILE_H
#define AGX_COMPILE_H

#include "agx/compiler.h"
#include "agx_ir.h"

/*
 * Translates the module's entry point of the stage into a new shader: one
 * function, everything called inlined, function variables promoted to SSA
 * values, vectors and matrices split into scalars, the interface in vars.
 * Returns 0, -EINVAL (malformed SPIR-V, or what GLSL ES could not make),
 * -ENOTSUP (valid, not translated yet), -ENOMEM; on an error *log (when
 * log is not NULL) is a malloc'd sentence saying why.
 */
int agx_spirv_to_ir(const uint32_t *words, size_t num_words, enum agx_ir_stage stage,
		    struct agx_ir_shader **out, char **log);

/* The machine-independent optimizations, run until nothing changes. */
void agx_optimize(struct agx_ir_shader *shader, FILE *ir_dump);

/*
 * Lowers, selects instructions, allocates registers and encodes: fills
 * out->code, out->size and out->info (all but the names' mapping back to
 * the original source, which agx_compile_glsl() does).  The shader is
 * changed on the way.  Returns 0, -ENOTSUP with *log saying what it could
 * not do, -ENOMEM.
 */
int agx_backend_compile(struct agx_ir_shader *shader, const struct agx_compile_options *options,
			struct agx_shader_binary *out, char **log);

#endif
