/*
 * variants.h: a context's compiled shader variants.  A program's stage is
 * compiled again for what a draw adds to its source (agx/compiler.h's
 * options: the vertex arrays' formats, the render targets' formats,
 * blending and colour masks); each variant's machine code is placed in
 * an executable BO of the context's VM, and kept, keyed by the program's
 * executable, the stage and the options.
 */
#ifndef GLES_VARIANTS_H
#define GLES_VARIANTS_H

#include <stdint.h>

#include "agx/compiler.h"

struct gles_context;
struct gles_linked;

struct gles_variant {
	struct agx_shader_binary binary;
	uint64_t va; /* the code, in the context's VM */
};

/*
 * The variant of stage (GLES_STAGE_*) of the executable for options
 * (zeroed where unused: the key is its bytes).  NULL with *err: the
 * compiler's refusal (-EINVAL, -ENOTSUP: its log on stderr once) or
 * -ENOMEM.  Valid until a call compiles a variant that does not fit the
 * code BO any more (which drops them all).
 */
const struct gles_variant *gles_variant_get(struct gles_context *ctx, struct gles_linked *linked,
					    unsigned stage, const struct agx_compile_options *opts,
					    int *err);

/* Changes each time the variants are dropped (what gles_variant_get gave is gone). */
unsigned gles_variants_generation(const struct gles_context *ctx);

/* Frees every variant and the code BO (the context's work has finished). */
void gles_variants_context_finish(struct gles_context *ctx);

#endif
