/*
 * ir-interp.h: an interpreter of the compiler's IR (libagx/compiler/agx_ir.h)
 * for compute shaders, the tests' model of what a shader means.  It runs
 * the IR as the SPIR-V translator makes it (the LOWERED ops evaluated by
 * their mathematical definitions) and after lowering (uniform_reg, the
 * *_global memory ops, the lowered ALU ops).
 *
 * A threadgroup's invocations run together, SIMT style, over the
 * structured control flow tree: each node runs for the invocations active
 * there (an if splits them, a loop goes round while any is still in it,
 * break and continue take invocations out until the loop ends or the next
 * iteration starts), and a phi takes the source of the block each
 * invocation came from.  Every instruction runs for all active
 * invocations before the next one starts, which is what makes barrier()
 * hold; a barrier some invocations of the group do not reach is an error.
 */
#ifndef TESTS_LIBAGX_IR_INTERP_H
#define TESTS_LIBAGX_IR_INTERP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "agx_ir.h"

/* An SSBO or a UBO: the buffer bound at a binding. */
struct ir_interp_buffer {
	unsigned binding;
	void *data;
	size_t size;
};

/* Device memory at an address, for the lowered *_global ops. */
struct ir_interp_memory {
	uint64_t address;
	void *data;
	size_t size;
};

/*
 * A texture op of one invocation, its sources decoded by
 * agx_ir_tex_layout() (agx_ir_ops.h, "Textures"), for the caller's
 * texture model.
 */
struct ir_interp_tex {
	enum agx_ir_op op; /* texture_sample, texture_load or texture_size */
	unsigned unit, dim, lod_mode, component;
	bool compare;
	int offset[3]; /* the 4-bit fields, sign-extended */
	unsigned num_coords;
	uint32_t coord[3]; /* f32 bits (texture_sample), i32 (texture_load) */
	bool has_layer;
	int32_t layer;
	/* the bias or LOD (f32 bits), texture_load's and texture_size's level (i32) */
	uint32_t lod;
	float grad[6]; /* dPdx of each coordinate, then dPdy */
	float reference;
};

/* Returns 0 with the op's result bits in *result, or -1 with why[whysize] saying why not. */
typedef int (*ir_interp_texture_fn)(void *ctx, const struct ir_interp_tex *q, uint32_t *result,
				    char *why, size_t whysize);

struct ir_interp_args {
	/* Storage blocks (AGX_IR_VAR_SSBO vars) and uniform blocks (AGX_IR_VAR_UBO) by binding. */
	const struct ir_interp_buffer *ssbos, *ubos;
	unsigned num_ssbos, num_ubos;
	/* The default-block uniforms: shader->uniform_size bytes, each var at var.offset. */
	const void *uniforms;
	size_t uniform_size;
	/* After lowering: the uniform registers u0.. (uniform_reg, the *_global bases). */
	const uint32_t *uniform_regs;
	unsigned num_uniform_regs;
	const struct ir_interp_memory *memory;
	unsigned num_memory;
	/* The texture ops (an error when NULL). */
	ir_interp_texture_fn texture;
	void *texture_ctx;
	/* The grid in threadgroups; their size is shader->local_size. */
	unsigned groups[3];
	/* Instructions one invocation may execute before the run is stopped; 0: 1 << 22. */
	uint64_t max_steps;
};

/*
 * Runs every threadgroup of the grid, one after the other, on the
 * shader's first function.  Returns 0, or -1 with a sentence saying why
 * (the instruction, the threadgroup and the invocation) in why[whysize]:
 * an op it does not know, memory outside a buffer, a binding no var
 * names, a phi without a source for the block an invocation came from, a
 * barrier in divergent control flow, the step limit.
 */
int ir_interp_run(struct agx_ir_shader *shader, const struct ir_interp_args *args, char *why,
		  size_t whysize);

#endif
