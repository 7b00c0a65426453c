/*
 * agx_backend.c: agx_backend_compile() of agx_compile.h -- the lowering
 * passes in order (transform feedback, GL's clip z, framebuffer fetch and
 * blending first: they make ops that agx_lower_io places; the pixel-order
 * fences last), then the code generator (agx_codegen.c) on the lowered
 * IR, which refuses, with a reason, what it cannot select.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "agx_compile.h"
#include "agx_mir.h"

int agx_backend_compile(struct agx_ir_shader *shader, const struct agx_compile_options *options,
			struct agx_shader_binary *out, char **log)
{
	FILE *fp = options ? options->ir_dump : NULL;

	if (options)
		memcpy(shader->attribs, options->attribs, sizeof(shader->attribs));
	/* before clip z: the captured gl_Position is the shader's own */
	agx_pass_options(shader, agx_lower_xfb, options);
	agx_ir_shader_dump(fp, "agx_lower_xfb", shader);
	if (!options || !options->depth_zero_to_one) {
		agx_pass(shader, agx_lower_clip_z);
		agx_ir_shader_dump(fp, "agx_lower_clip_z", shader);
	}
	/* the fragment's kill first: what follows it may assume a live fragment */
	agx_pass_options(shader, agx_lower_cull, options);
	agx_ir_shader_dump(fp, "agx_lower_cull", shader);
	/* the fetched colours are the tile's before blending's loads and stores */
	agx_pass_options(shader, agx_lower_fetch, options);
	agx_ir_shader_dump(fp, "agx_lower_fetch", shader);
	/* the shader's own alpha, before blending makes it the blended one */
	agx_pass_options(shader, agx_lower_coverage, options);
	agx_ir_shader_dump(fp, "agx_lower_coverage", shader);
	agx_pass_options(shader, agx_lower_blend, options);
	agx_ir_shader_dump(fp, "agx_lower_blend", shader);
	/* after blending's stores: they are the colour stores the tests must precede */
	agx_pass(shader, agx_lower_tests);
	agx_ir_shader_dump(fp, "agx_lower_tests", shader);
	agx_pass_options(shader, agx_lower_robust, options);
	agx_ir_shader_dump(fp, "agx_lower_robust", shader);
	agx_pass(shader, agx_lower_io);
	agx_ir_shader_dump(fp, "agx_lower_io", shader);
	agx_pass(shader, agx_lower_alu);
	agx_ir_shader_dump(fp, "agx_lower_alu", shader);
	/* lowering repeats itself (a division's corrections, address shifts): clean up again */
	agx_optimize(shader, fp);
	agx_ir_shader_dump(fp, "lowered", shader);
	/* last: nothing moves a tile access across its wait after it */
	agx_pass_options(shader, agx_lower_pixel_order, options);
	agx_ir_shader_dump(fp, "agx_lower_pixel_order", shader);
	return agx_codegen(shader, options, out, log);
}
