/*
 * draw.c: glDrawArrays, glDrawElements and their instanced and ranged
 * forms (GLES 3.0.6 sections 2.8.3, 2.9) -- their errors, and the draw
 * itself: the program's variants for the vertex arrays and the render
 * targets (variants.h), the uniform registers each stage reads (the
 * default block, uniform buffers, vertex arrays, texture sizes, the blend
 * colour), the textures (sampling.h), client memory copied where the GPU
 * reads it (vertex arrays, indices, constant attributes), and the fixed
 * function state, appended to the context's render pass (pass.h).  No
 * IPC happens here: the pass goes to the GPU when it ends.
 *
 * Row 0 of every image is window y = 0 (clear.c), so GL's window
 * coordinates are the hardware's as they are: window y grows with NDC y.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "context.h"
#include "draw.h"
#include "extensions.h"
#include "gl_functions.h"
#include "objects.h"
#include "pass.h"
#include "program.h"
#include "sampling.h"
#include "state.h"
#include "submit.h"
#include "variants.h"
#include "xfb.h"

/* What the draw call asks for, once its arguments are checked. */
struct call {
	GLenum mode;
	uint32_t first, count, instances;
	GLenum type;	     /* 0: not indexed; else the index type */
	const void *indices; /* an offset into the element buffer, or client memory */
	bool capture;	     /* transform feedback records the vertices (count: whole primitives) */
	bool driver;	     /* a driver's draw (gles_draw_driver): another state vector */
	/* EXT_base_instance: the first instance's element of instanced arrays; indexed: base vertex
	 */
	uint32_t base_instance;
	int32_t base_vertex;
};

/* Texture state registers a stage may bind: its samplers, then spilled targets. */
#define MAX_TEXTURES (GLES_MAX_TEXTURE_IMAGE_UNITS + AGX_RENDER_MAX_TARGETS)
#define MAX_UNIFORMS 256

/* ---- the compiler's keys -------------------------------------------------------------- */

static bool vertex_type(GLenum type, enum agx_vertex_type *out, unsigned *bytes)
{
	static const struct {
		GLenum gl;
		enum agx_vertex_type agx;
		unsigned bytes;
	} types[] = {
		{ GL_FLOAT, AGX_VERTEX_FLOAT, 4 },
		{ GL_HALF_FLOAT, AGX_VERTEX_HALF_FLOAT, 2 },
		{ GL_HALF_FLOAT_OES, AGX_VERTEX_HALF_FLOAT, 2 },
		{ GL_BYTE, AGX_VERTEX_BYTE, 1 },
		{ GL_UNSIGNED_BYTE, AGX_VERTEX_UNSIGNED_BYTE, 1 },
		{ GL_SHORT, AGX_VERTEX_SHORT, 2 },
		{ GL_UNSIGNED_SHORT, AGX_VERTEX_UNSIGNED_SHORT, 2 },
		{ GL_INT, AGX_VERTEX_INT, 4 },
		{ GL_UNSIGNED_INT, AGX_VERTEX_UNSIGNED_INT, 4 },
		{ GL_FIXED, AGX_VERTEX_FIXED, 4 },
		{ GL_INT_2_10_10_10_REV, AGX_VERTEX_INT_2_10_10_10_REV, 0 },
		{ GL_UNSIGNED_INT_2_10_10_10_REV, AGX_VERTEX_UNSIGNED_INT_2_10_10_10_REV, 0 },
	};

	for (unsigned i = 0; i < sizeof(types) / sizeof(types[0]); i++)
		if (types[i].gl == type) {
			*out = types[i].agx;
			*bytes = types[i].bytes;
			return true;
		}
	return false;
}

/* Bytes of one element of an array: its components, or the packed word. */
static unsigned element_bytes(const struct gles_vertex_attrib_array *a)
{
	enum agx_vertex_type t;
	unsigned bytes;

	if (!vertex_type(a->type, &t, &bytes))
		return 0;
	return bytes ? bytes * (unsigned)a->size : 4;
}

static uint32_t array_stride(const struct gles_vertex_attrib_array *a)
{
	return a->stride ? (uint32_t)a->stride : element_bytes(a);
}

/* The vertex key: what is behind each attribute location the vertex shader reads. */
static void vertex_key(const struct gles_context *ctx, const struct agx_shader_info *info,
		       struct agx_compile_options *o)
{
	const struct gles_vertex_array *vao = ctx->objects->vao;

	memset(o, 0, sizeof(*o));
	o->robust_access = ctx->robust_access;
	for (unsigned i = 0; i < info->num_vars; i++) {
		const struct agx_shader_var *v = &info->vars[i];

		if (v->kind != AGX_SHADER_INPUT || v->uniform < 0)
			continue;
		for (unsigned k = 0; k < (v->locations ? v->locations : 1); k++) {
			unsigned loc = v->location + k;
			const struct gles_vertex_attrib_array *a = &vao->attribs[loc];
			struct agx_vertex_attrib *out = &o->attribs[loc];
			unsigned bytes;

			if (loc >= AGX_MAX_VERTEX_ATTRIBS)
				continue;
			if (a->enabled && vertex_type(a->type, &out->type, &bytes)) {
				out->size = (unsigned)a->size;
				out->normalized = a->normalized;
				out->integer = a->integer;
				out->divisor = a->divisor;
			} else {
				/* a constant attribute: four values of the type they were given as
				 */
				enum gles_attrib_type t = gles_state_current_attrib(ctx, loc)->type;

				out->type = t == GLES_ATTRIB_INT    ? AGX_VERTEX_INT
					    : t == GLES_ATTRIB_UINT ? AGX_VERTEX_UNSIGNED_INT
								    : AGX_VERTEX_FLOAT;
				out->size = 4;
				out->integer = t != GLES_ATTRIB_FLOAT;
			}
		}
	}
}

static enum agx_blend_op blend_op(GLenum e)
{
	switch (e) {
	case GL_FUNC_SUBTRACT:
		return AGX_BLEND_SUBTRACT;
	case GL_FUNC_REVERSE_SUBTRACT:
		return AGX_BLEND_REVERSE_SUBTRACT;
	case GL_MIN:
		return AGX_BLEND_MIN;
	case GL_MAX:
		return AGX_BLEND_MAX;
	default:
		return AGX_BLEND_ADD;
	}
}

static enum agx_blend_factor blend_factor(GLenum f)
{
	switch (f) {
	case GL_ZERO:
		return AGX_BLEND_ZERO;
	case GL_SRC_COLOR:
		return AGX_BLEND_SRC_COLOR;
	case GL_ONE_MINUS_SRC_COLOR:
		return AGX_BLEND_ONE_MINUS_SRC_COLOR;
	case GL_DST_COLOR:
		return AGX_BLEND_DST_COLOR;
	case GL_ONE_MINUS_DST_COLOR:
		return AGX_BLEND_ONE_MINUS_DST_COLOR;
	case GL_SRC_ALPHA:
		return AGX_BLEND_SRC_ALPHA;
	case GL_ONE_MINUS_SRC_ALPHA:
		return AGX_BLEND_ONE_MINUS_SRC_ALPHA;
	case GL_DST_ALPHA:
		return AGX_BLEND_DST_ALPHA;
	case GL_ONE_MINUS_DST_ALPHA:
		return AGX_BLEND_ONE_MINUS_DST_ALPHA;
	case GL_CONSTANT_COLOR:
		return AGX_BLEND_CONSTANT_COLOR;
	case GL_ONE_MINUS_CONSTANT_COLOR:
		return AGX_BLEND_ONE_MINUS_CONSTANT_COLOR;
	case GL_CONSTANT_ALPHA:
		return AGX_BLEND_CONSTANT_ALPHA;
	case GL_ONE_MINUS_CONSTANT_ALPHA:
		return AGX_BLEND_ONE_MINUS_CONSTANT_ALPHA;
	case GL_SRC_ALPHA_SATURATE:
		return AGX_BLEND_SRC_ALPHA_SATURATE;
	case GL_SRC1_COLOR_EXT:
		return AGX_BLEND_SRC1_COLOR;
	case GL_ONE_MINUS_SRC1_COLOR_EXT:
		return AGX_BLEND_ONE_MINUS_SRC1_COLOR;
	case GL_SRC1_ALPHA_EXT:
		return AGX_BLEND_SRC1_ALPHA;
	case GL_ONE_MINUS_SRC1_ALPHA_EXT:
		return AGX_BLEND_ONE_MINUS_SRC1_ALPHA;
	default:
		return AGX_BLEND_ONE;
	}
}

/*
 * The fragment key: the pass's tilebuffer, and blending and the colour
 * mask for every target (ES 3.0 has one of each for all draw buffers).
 */
static void fragment_key(const struct gles_context *ctx, const struct agx_render *r,
			 struct agx_compile_options *o)
{
	const struct gles_state *st = ctx->state;
	unsigned keep = 0;

	for (unsigned c = 0; c < 4; c++)
		keep |= st->color_mask[c] ? 0 : 1u << c;
	/* the key is compared byte by byte (variants.c): fields are set one by one, never copied */
	memset(o, 0, sizeof(*o));
	agx_tilebuffer_compile_options(&r->tib, o);
	o->robust_access = ctx->robust_access;
	/*
	 * Section 4.1.3's coverage operations, on multisampled targets only;
	 * glSampleCoverage keeps value x samples of them, from the first
	 * (as Mesa's state tracker chooses), or the others when inverted.
	 */
	if (o->samples > 1) {
		unsigned all = (1u << o->samples) - 1,
			 first =
			     (1u << (unsigned)(st->sample_coverage_value * (float)o->samples)) - 1;

		o->alpha_to_coverage = st->sample_alpha_to_coverage;
		o->sample_coverage = st->sample_coverage;
		if (st->sample_coverage)
			o->sample_coverage_mask =
			    (st->sample_coverage_invert ? ~first : first) & all;
	}
	for (unsigned i = 0; i < o->num_rts; i++) {
		struct agx_blend_rt *b = &o->rt[i].blend;

		if (o->rt[i].none)
			continue;
		o->rt[i].keep = keep;
		if (!st->blend)
			continue;
		b->enable = true;
		b->rgb_op = blend_op(st->blend_equation_rgb);
		b->alpha_op = blend_op(st->blend_equation_alpha);
		b->rgb_src = blend_factor(st->blend_src_rgb);
		b->rgb_dst = blend_factor(st->blend_dst_rgb);
		b->alpha_src = blend_factor(st->blend_src_alpha);
		b->alpha_dst = blend_factor(st->blend_dst_alpha);
	}
}

/* ---- uniform registers ---------------------------------------------------------------- */

static void set_pair(uint32_t *u, int reg, uint64_t va)
{
	if (reg < 0 || reg + 1 >= MAX_UNIFORMS)
		return;
	u[reg] = (uint32_t)va;
	u[reg + 1] = (uint32_t)(va >> 32);
}

/*
 * A stage's default block and uniform buffers into its registers: the
 * block's words as glUniform* left them (or the address of a copy, when
 * the block lives in memory), each buffer's bound range's address.
 */
static int stage_uniforms(struct gles_context *ctx, const struct gles_linked *l, unsigned stage,
			  const struct agx_shader_info *info, uint32_t *u)
{
	const struct gles_program_stage *ps = &l->stages[stage];
	int ret;

	if (ps->uniform_size && info->uniform_block_uniform >= 0) {
		void *map;
		uint64_t va;

		if ((ret = gles_submit_upload(ctx, ps->uniform_size, 16, &map, &va)) < 0)
			return ret;
		memcpy(map, ps->uniform_data, ps->uniform_size);
		set_pair(u, info->uniform_block_uniform, va);
	} else if (ps->uniform_size && ps->first_uniform >= 0) {
		/* the block's own words: the registers after it are others' (attributes) */
		unsigned words = (info->uniform_size + 3) / 4;

		if ((unsigned)ps->first_uniform + words > MAX_UNIFORMS)
			words = MAX_UNIFORMS - (unsigned)ps->first_uniform;
		memcpy(u + ps->first_uniform, ps->uniform_data, words * 4);
	}
	for (unsigned b = 0; b < l->num_blocks; b++) {
		const struct gles_uniform_block *blk = &l->blocks[b];
		const struct gles_buffer_range *range;
		int var = blk->stage_var[stage];
		uint64_t va = 0;

		if (var < 0 || (unsigned)var >= info->num_vars ||
		    blk->binding >= GLES_MAX_UNIFORM_BUFFER_BINDINGS)
			continue;
		range = &ctx->objects->uniform_ranges[blk->binding];
		if (range->buffer && range->buffer->bo.size) {
			if ((ret = gles_submit_map(ctx, &range->buffer->bo, false, &va)) < 0)
				return ret;
			va += (uint64_t)range->offset;
		}
		set_pair(u, info->vars[var].uniform, va);
	}
	return 0;
}

/* ---- vertex arrays and indices ------------------------------------------------------- */

/* GL's fixed restart index of an index size (section 2.8.3): all its bits set. */
static uint32_t fixed_restart_index(unsigned size)
{
	return size == 4 ? 0xffffffffu : (1u << (8 * size)) - 1;
}

/* The smallest and largest index the draw reads, restart indices left out. */
static void index_range(const struct call *c, const void *indices, bool restart,
			uint32_t restart_index, uint32_t *min, uint32_t *max)
{
	uint32_t lo = UINT32_MAX, hi = 0;

	for (uint32_t i = 0; i < c->count; i++) {
		uint32_t x = c->type == GL_UNSIGNED_BYTE    ? ((const uint8_t *)indices)[i]
			     : c->type == GL_UNSIGNED_SHORT ? ((const uint16_t *)indices)[i]
							    : ((const uint32_t *)indices)[i];

		if (restart && x == restart_index)
			continue;
		lo = x < lo ? x : lo;
		hi = x > hi ? x : hi;
	}
	*min = lo;
	*max = hi;
}

static unsigned index_bytes(GLenum type)
{
	return type == GL_UNSIGNED_BYTE ? 1 : type == GL_UNSIGNED_SHORT ? 2 : 4;
}

/*
 * Where the vertex shader finds attribute location loc: a buffer's
 * address, a copy of the client memory the draw reads, or the current
 * value (stride 0).
 */
static int attrib_source(struct gles_context *ctx, unsigned loc, uint32_t min, uint32_t max,
			 uint32_t instances, uint32_t base_instance, uint64_t *address,
			 uint32_t *stride)
{
	const struct gles_vertex_attrib_array *a = &ctx->objects->vao->attribs[loc];
	void *map;
	uint64_t va;
	int ret;

	if (!a->enabled) {
		const struct gles_current_attrib *cur = gles_state_current_attrib(ctx, loc);

		if ((ret = gles_submit_upload(ctx, 16, 16, &map, &va)) < 0)
			return ret;
		memcpy(map, cur->f, 16);
		*address = va;
		*stride = 0;
		return 0;
	}
	*stride = array_stride(a);
	if (a->buffer) {
		if (!a->buffer->bo.size) {
			/*
			 * A buffer with no data store: what the draw reads is
			 * undefined; it reads zeros, as robust buffer access would,
			 * not address 0, whose GPU fault would lose the context.
			 */
			if ((ret = gles_submit_upload(ctx, 16, 16, &map, &va)) < 0)
				return ret;
			memset(map, 0, 16);
			*address = va;
			*stride = 0;
			return 0;
		}
		if ((ret = gles_submit_map(ctx, &a->buffer->bo, false, &va)) < 0)
			return ret;
		/* an instanced array's elements start at the base instance's */
		*address = va + (uintptr_t)a->pointer +
			   (a->divisor ? (uint64_t)base_instance * *stride : 0);
		return 0;
	}
	/* client memory: the elements [first, last] the draw reads */
	{
		uint32_t first = a->divisor ? base_instance : min;
		uint32_t last = a->divisor
				    ? base_instance + (instances ? (instances - 1) / a->divisor : 0)
				    : max;
		uint64_t size = (uint64_t)(last - first) * *stride + element_bytes(a);

		if (!a->pointer || size > (1u << 30))
			return -EINVAL;
		if ((ret = gles_submit_upload(ctx, size, 16, &map, &va)) < 0)
			return ret;
		memcpy(map, (const uint8_t *)a->pointer + (uint64_t)first * *stride, size);
		/* the shader reads element (instance / divisor) from the base instance's */
		*address = va - (uint64_t)(a->divisor ? 0 : first) * *stride;
	}
	return 0;
}

static int vertex_attribs(struct gles_context *ctx, const struct agx_shader_info *info,
			  uint32_t min, uint32_t max, uint32_t instances, uint32_t base_instance,
			  uint32_t *u)
{
	for (unsigned i = 0; i < info->num_vars; i++) {
		const struct agx_shader_var *v = &info->vars[i];

		if (v->kind != AGX_SHADER_INPUT || v->uniform < 0)
			continue;
		for (unsigned k = 0; k < (v->locations ? v->locations : 1); k++) {
			uint64_t address;
			uint32_t stride;
			int ret = attrib_source(ctx, v->location + k, min, max, instances,
						base_instance, &address, &stride);

			if (ret < 0)
				return ret;
			agx_render_set_attrib(info, u, v->location + k, address, stride);
		}
	}
	return 0;
}

/* ---- robust buffer access ------------------------------------------------------------- */

/*
 * The elements an attribute array's buffer holds from the one the
 * shader's element 0 is (attrib_source's address): those whose bytes all
 * lie in the buffer.  What the draw copied of client memory, all of what
 * it reads; a constant, any.
 */
static uint32_t attrib_limit(const struct gles_context *ctx, unsigned loc, uint32_t max,
			     uint32_t instances, uint32_t base_instance)
{
	const struct gles_vertex_attrib_array *a = &ctx->objects->vao->attribs[loc];
	uint64_t stride = array_stride(a), bytes = element_bytes(a), origin, n;

	if (!a->enabled || (a->buffer && !a->buffer->bo.size) || !stride)
		return UINT32_MAX; /* a constant, or zeros at stride 0 (attrib_source) */
	if (!a->buffer) {
		/* the copy: elements [base_instance, last] as 0.., or [min, max] as themselves */
		if (a->divisor)
			return instances ? (instances - 1) / a->divisor + 1 : 1;
		return max + 1;
	}
	origin = (uintptr_t)a->pointer + (a->divisor ? (uint64_t)base_instance * stride : 0);
	if (origin + bytes > (uint64_t)a->buffer->size)
		return 0;
	n = ((uint64_t)a->buffer->size - origin - bytes) / stride + 1;
	return n > UINT32_MAX ? UINT32_MAX : (uint32_t)n;
}

/* The bytes of the range bound at a uniform buffer binding that lie in its buffer. */
static uint32_t ubo_size(const struct gles_buffer_range *range)
{
	const struct gles_buffer_object *buf = range->buffer;
	uint64_t avail;

	if (!buf || !buf->bo.size || range->offset < 0 || range->offset >= buf->size)
		return 0;
	avail = (uint64_t)(buf->size - range->offset);
	if (range->size > 0 && (uint64_t)range->size < avail)
		avail = (uint64_t)range->size;
	return avail > UINT32_MAX ? UINT32_MAX : (uint32_t)avail;
}

/* 64 zero bytes for this draw, made the first time: the largest element (4 words) read there. */
static int zeros_va(struct gles_context *ctx, uint64_t *va)
{
	void *map;
	int ret;

	if (*va)
		return 0;
	if ((ret = gles_submit_upload(ctx, 64, 16, &map, va)) < 0)
		return ret;
	memset(map, 0, 64);
	return 0;
}

/*
 * A robust context's bounds (agx_lower_robust.c): each attribute's
 * element count and each uniform block's bound size in the registers the
 * variants' reflection names.  An array or a block that holds nothing is
 * pointed at zeros instead, since the shader reads its first element in
 * place of one out of range.  Runs after vertex_attribs and
 * stage_uniforms, whose addresses it may replace.
 */
static int robust_bounds(struct gles_context *ctx, const struct gles_linked *l,
			 const struct agx_shader_info *vi, const struct agx_shader_info *fi,
			 uint32_t max, uint32_t instances, uint32_t base_instance, uint32_t *vu,
			 uint32_t *fu)
{
	const struct agx_shader_info *infos[GLES_STAGES] = {
		[GLES_STAGE_VERTEX] = vi, [GLES_STAGE_FRAGMENT] = fi
	};
	uint32_t *regs[GLES_STAGES] = { [GLES_STAGE_VERTEX] = vu, [GLES_STAGE_FRAGMENT] = fu };
	uint64_t zeros = 0;
	int ret;

	for (unsigned i = 0; i < vi->num_vars; i++) {
		const struct agx_shader_var *v = &vi->vars[i];

		if (v->kind != AGX_SHADER_INPUT || v->uniform < 0 || v->size_uniform < 0)
			continue;
		for (unsigned k = 0; k < (v->locations ? v->locations : 1); k++) {
			unsigned loc = v->location + k, reg = (unsigned)v->size_uniform + k;
			uint32_t n;

			if (loc >= GLES_MAX_VERTEX_ATTRIBS || reg >= MAX_UNIFORMS)
				continue;
			n = attrib_limit(ctx, loc, max, instances, base_instance);
			vu[reg] = n;
			if (n)
				continue;
			if ((ret = zeros_va(ctx, &zeros)) < 0)
				return ret;
			agx_render_set_attrib(vi, vu, loc, zeros, 0);
		}
	}
	for (unsigned s = 0; s < GLES_STAGES; s++) {
		for (unsigned b = 0; b < l->num_blocks; b++) {
			const struct gles_uniform_block *blk = &l->blocks[b];
			int var = blk->stage_var[s];
			const struct agx_shader_var *v;
			uint32_t size;

			if (var < 0 || (unsigned)var >= infos[s]->num_vars ||
			    blk->binding >= GLES_MAX_UNIFORM_BUFFER_BINDINGS)
				continue;
			v = &infos[s]->vars[var];
			if (v->size_uniform < 0 || v->size_uniform >= MAX_UNIFORMS)
				continue;
			size = ubo_size(&ctx->objects->uniform_ranges[blk->binding]);
			regs[s][v->size_uniform] = size;
			if (size)
				continue;
			if ((ret = zeros_va(ctx, &zeros)) < 0)
				return ret;
			set_pair(regs[s], v->uniform, zeros);
		}
	}
	return 0;
}

/* ---- fixed-function state -------------------------------------------------------------- */

static unsigned zs_func(GLenum f)
{
	switch (f) {
	case GL_NEVER:
		return AGX_CMD_ZS_FUNC_NEVER;
	case GL_LESS:
		return AGX_CMD_ZS_FUNC_LESS;
	case GL_EQUAL:
		return AGX_CMD_ZS_FUNC_EQUAL;
	case GL_LEQUAL:
		return AGX_CMD_ZS_FUNC_LEQUAL;
	case GL_GREATER:
		return AGX_CMD_ZS_FUNC_GREATER;
	case GL_NOTEQUAL:
		return AGX_CMD_ZS_FUNC_NOT_EQUAL;
	case GL_GEQUAL:
		return AGX_CMD_ZS_FUNC_GEQUAL;
	default:
		return AGX_CMD_ZS_FUNC_ALWAYS;
	}
}

static unsigned stencil_op(GLenum op)
{
	switch (op) {
	case GL_ZERO:
		return AGX_CMD_STENCIL_OP_ZERO;
	case GL_REPLACE:
		return AGX_CMD_STENCIL_OP_REPLACE;
	case GL_INCR:
		return AGX_CMD_STENCIL_OP_INCR_SAT;
	case GL_DECR:
		return AGX_CMD_STENCIL_OP_DECR_SAT;
	case GL_INVERT:
		return AGX_CMD_STENCIL_OP_INVERT;
	case GL_INCR_WRAP:
		return AGX_CMD_STENCIL_OP_INCR_WRAP;
	case GL_DECR_WRAP:
		return AGX_CMD_STENCIL_OP_DECR_WRAP;
	default:
		return AGX_CMD_STENCIL_OP_KEEP;
	}
}

static struct agx_ppp_stencil stencil_face(const struct gles_stencil_face *f)
{
	/* section 4.1.4: the reference clamped to the 8 bits the buffer has */
	GLint ref = f->ref < 0 ? 0 : f->ref > 255 ? 255 : f->ref;

	return (struct agx_ppp_stencil){ .ref = (uint8_t)ref,
					 .read_mask = (uint8_t)f->value_mask,
					 .write_mask = (uint8_t)f->write_mask,
					 .compare = zs_func(f->func),
					 .stencil_fail = stencil_op(f->fail),
					 .depth_fail = stencil_op(f->depth_fail),
					 .depth_pass = stencil_op(f->depth_pass) };
}

static unsigned primitive(GLenum mode)
{
	switch (mode) {
	case GL_POINTS:
		return AGX_CMD_PRIMITIVE_POINTS;
	case GL_LINES:
		return AGX_CMD_PRIMITIVE_LINES;
	case GL_LINE_STRIP:
		return AGX_CMD_PRIMITIVE_LINE_STRIP;
	case GL_LINE_LOOP:
		return AGX_CMD_PRIMITIVE_LINE_LOOP;
	case GL_TRIANGLE_STRIP:
		return AGX_CMD_PRIMITIVE_TRIANGLE_STRIP;
	case GL_TRIANGLE_FAN:
		return AGX_CMD_PRIMITIVE_TRIANGLE_FAN;
	default:
		return AGX_CMD_PRIMITIVE_TRIANGLES;
	}
}

/* The fixed-function groups a draw keeps while their bits are clear (context.h). */
#define FIXED_GROUPS (GLES_DIRTY_VIEWPORT | GLES_DIRTY_SCISSOR | GLES_DIRTY_ZS | GLES_DIRTY_RASTER)

/*
 * The groups of the viewport, depth range, culling, depth, stencil,
 * scissor, polygon offset and line width as the PPP takes them, into a
 * draw's state: each group's fields are all written, whatever they held,
 * so that a draw kept from the last one (record()) is the same as one
 * built afresh.  The scissor leaving nothing to draw is *empty (its
 * rectangle then 0).
 */
static void fixed_groups(const struct gles_state *st, const struct agx_render *r,
			 struct agx_render_draw *d, unsigned groups, bool *empty)
{
	struct agx_ppp_state *p = &d->state;

	if (groups & GLES_DIRTY_VIEWPORT) {
		const GLint *vp = st->viewport;

		p->translate[0] = (float)vp[0] + vp[2] / 2.0f;
		p->translate[1] = (float)vp[1] + vp[3] / 2.0f;
		p->translate[2] = st->depth_range[0];
		p->scale[0] = vp[2] / 2.0f;
		p->scale[1] = vp[3] / 2.0f;
		p->scale[2] = st->depth_range[1] - st->depth_range[0];
	}
	if (groups & GLES_DIRTY_RASTER) {
		p->cull_front = st->cull_face && st->cull_face_mode != GL_BACK;
		p->cull_back = st->cull_face && st->cull_face_mode != GL_FRONT;
		/*
		 * The PPP's winding is the one seen with window y growing
		 * downwards (the image's rows in memory order); GL's window y
		 * grows upwards, and row 0 is its bottom row, so GL's
		 * counter-clockwise is the PPP's clockwise.
		 */
		p->front_ccw = st->front_face == GL_CW;
		p->provoking = 2; /* GL's: the last vertex of a primitive (section 2.18) */
		p->depth_clip = true;
		p->line_width = st->line_width < 1 ? 1 : st->line_width > 16 ? 16 : st->line_width;
		/* draws get here discarding only to capture */
		p->rasterizer_discard = st->rasterizer_discard;
		p->depth_bias = st->polygon_offset_fill &&
				(st->polygon_offset_units != 0 || st->polygon_offset_factor != 0);
		d->depth_bias = p->depth_bias ? st->polygon_offset_units : 0;
		d->slope_scale = p->depth_bias ? st->polygon_offset_factor : 0;
		d->bias_clamp = p->depth_bias ? st->polygon_offset_clamp : 0;
	}
	if (groups & GLES_DIRTY_ZS) {
		bool depth = r->pass.depth.surface.image.format != AGX_FORMAT_NONE;
		bool stencil = r->pass.stencil.surface.image.format != AGX_FORMAT_NONE;

		p->depth_func =
		    depth && st->depth_test ? zs_func(st->depth_func) : AGX_CMD_ZS_FUNC_ALWAYS;
		p->depth_write = depth && st->depth_test && st->depth_mask;
		p->stencil = stencil && st->stencil_test;
		p->front =
		    p->stencil ? stencil_face(&st->stencil[0]) : (struct agx_ppp_stencil){ 0 };
		p->back =
		    p->stencil ? stencil_face(&st->stencil[1]) : (struct agx_ppp_stencil){ 0 };
	}
	if (groups & GLES_DIRTY_SCISSOR) {
		int64_t x0 = 0, y0 = 0, x1 = 0, y1 = 0;

		*empty = false;
		p->scissor = st->scissor_test;
		if (st->scissor_test) {
			x0 = st->scissor[0] > 0 ? st->scissor[0] : 0;
			y0 = st->scissor[1] > 0 ? st->scissor[1] : 0;
			x1 = (int64_t)st->scissor[0] + st->scissor[2];
			y1 = (int64_t)st->scissor[1] + st->scissor[3];
			x1 = x1 < r->pass.width ? x1 : r->pass.width;
			y1 = y1 < r->pass.height ? y1 : r->pass.height;
			if (x0 >= x1 || y0 >= y1) {
				*empty = true;
				x0 = y0 = x1 = y1 = 0;
			}
		}
		d->scissor[0] = (unsigned)x0;
		d->scissor[1] = (unsigned)y0;
		d->scissor[2] = (unsigned)x1;
		d->scissor[3] = (unsigned)y1;
	}
}

/*
 * All of a draw's fixed-function state, built afresh into d (zeroed):
 * false when the scissor leaves nothing to draw (a capturing draw still
 * runs its vertices, rasterizing nothing).
 */
static bool fixed_function(const struct gles_context *ctx, const struct agx_render *r,
			   struct agx_render_draw *d, bool capture)
{
	bool empty;

	fixed_groups(ctx->state, r, d, FIXED_GROUPS, &empty);
	if (empty) {
		if (!capture)
			return false;
		d->state.rasterizer_discard = true;
	}
	return true;
}

/* ---- transform feedback (section 2.15.2) ------------------------------------------------ */

/* Vertices of a primitive of the mode transform feedback records (POINTS, LINES, TRIANGLES). */
static unsigned primitive_vertices(GLenum mode)
{
	return mode == GL_TRIANGLES ? 3 : mode == GL_LINES ? 2 : 1;
}

/*
 * The vertex shader's capture (agx/compiler.h's xfb): the varyings' words
 * in glTransformFeedbackVaryings' order, all in buffer 0 (interleaved) or
 * each varying in a buffer of its own (separate).  Word w of a varying is
 * component w % width of the location w / width past its var's.
 */
static void xfb_key(const struct gles_linked *l, struct agx_compile_options *o)
{
	const struct agx_shader_info *info = &l->stages[GLES_STAGE_VERTEX].binary.info;
	unsigned n = 0;

	for (unsigned i = 0; i < l->num_xfb; i++) {
		const struct gles_xfb_varying *x = &l->xfb[i];
		const struct agx_shader_var *v = &info->vars[x->vertex_var];
		unsigned buffer = l->xfb_mode == GL_SEPARATE_ATTRIBS ? i : 0;
		unsigned width = x->width ? x->width : 1;

		if (buffer >= AGX_MAX_XFB_BUFFERS)
			break;
		for (unsigned w = x->first_word; w < x->first_word + x->components; w++) {
			if (n == AGX_MAX_XFB_WORDS)
				break;
			struct agx_xfb_word *word = &o->xfb.words[n++];

			word->location = (uint16_t)(v->location + w / width);
			word->component = (uint8_t)(w % width);
			word->buffer = (uint8_t)buffer;
			word->word = o->xfb.stride[buffer]++;
		}
	}
	o->xfb.num_words = n;
}

/*
 * The addresses of the draw's first records in the buffers the capture
 * writes, and room in each for records more: -ENOSPC when one would go
 * past its binding's range or its buffer (section 2.15.2's
 * INVALID_OPERATION), -EINVAL when one is mapped (section 2.9.3).
 */
static int xfb_buffers(struct gles_context *ctx, const struct agx_compile_options *vo,
		       uint64_t records, uint64_t *va)
{
	const struct gles_xfb_object *x = ctx->state->xfb.bound;
	int err;

	for (unsigned k = 0; k < AGX_MAX_XFB_BUFFERS; k++) {
		const struct gles_buffer_range *r = &x->ranges[k];
		uint64_t record = 4ull * vo->xfb.stride[k], room, base;

		if (!vo->xfb.stride[k])
			continue;
		if (!r->buffer || gles_buffer_is_mapped(r->buffer))
			return -EINVAL;
		room = (uint64_t)r->buffer->size > (uint64_t)r->offset
			   ? (uint64_t)(r->buffer->size - r->offset)
			   : 0;
		if (r->size && (uint64_t)r->size < room)
			room = (uint64_t)r->size;
		if ((x->vertices + records) * record > room)
			return -ENOSPC;
		if (!records)
			continue;
		if ((err = gles_submit_map(ctx, &r->buffer->bo, false, &base)) < 0)
			return err;
		va[k] = base + (uint64_t)r->offset + x->vertices * record;
	}
	return 0;
}

/* ---- one draw ------------------------------------------------------------------------ */

/*
 * What the last draw chose, kept while what it depends on stays: the
 * variants while the keys' state is clean (ctx->dirty), the program the
 * same, and the variants not dropped (their generation); the fragment
 * variant also while the pass's tilebuffer is the same; the coefficient
 * bindings while the variants are.  Draws that capture, and the driver's
 * draws (another state vector), neither use nor fill it.
 */
struct key_cache {
	bool vertex, fragment, link; /* which parts are valid */
	const struct gles_linked *linked;
	unsigned generation;
	const struct gles_variant *vs, *fs;
	struct agx_tilebuffer tib;
	unsigned pass; /* the pass (gles_pass_serial) whose tilebuffer tib was seen the same in */
	/* the link of vs and fs */
	struct agx_cf_binding cf[AGX_RENDER_MAX_CF];
	unsigned ncf, cf_regs;
	const struct agx_shader_var *point_size, *clip;
};

/*
 * The last cached draw's words for the builder, kept from draw to draw:
 * its fixed-function groups stay while their dirty bits are clear and
 * the pass has the same depth and stencil targets (the depth and stencil
 * groups) and size (the scissor, clamped to it); every other field is
 * written by each draw.  Draws that capture, and the driver's draws,
 * build theirs afresh.
 */
struct fixed_cache {
	bool valid;
	bool depth, stencil;	/* the pass's depth and stencil targets the ZS group saw */
	unsigned width, height; /* the pass's size the scissor was clamped to */
	bool empty;		/* the scissor leaves nothing to draw */
	uint64_t key;		/* draw.state_key: counts the changes of draw's state */
	struct agx_render_draw draw;
};

/* Everything a draw needs that lives past the call: kept here so a retry starts afresh. */
struct gles_draw_record {
	struct key_cache cache;
	struct fixed_cache fixed;
	const struct gles_variant *vs, *fs;
	uint32_t vu[MAX_UNIFORMS], fu[MAX_UNIFORMS];
	uint8_t tex[GLES_STAGES][MAX_TEXTURES][AGX_TEXTURE_LENGTH];
	uint8_t smp[GLES_STAGES][MAX_TEXTURES][AGX_SAMPLER_LENGTH];
	int matched[256];
	/* a capturing draw: the vertex shader's capture, and its buffers' first records */
	struct agx_compile_options xfb;
	uint64_t xfb_va[AGX_MAX_XFB_BUFFERS];
};

/* The stage's texture and sampler descriptors, copied where its pipeline reads them. */
static int stage_textures(struct gles_context *ctx, struct gles_draw_record *rec, unsigned stage,
			  const struct agx_render *r, const struct gles_linked *l,
			  struct agx_render_stage *out, uint32_t *u)
{
	const struct agx_shader_info *info =
	    stage == GLES_STAGE_VERTEX ? &rec->vs->binary.info : &rec->fs->binary.info;
	unsigned n = info->num_textures;
	void *map;
	uint64_t va;
	int ret;

	/* nothing sampled, nothing spilled: no descriptors */
	if (!n && info->spill_textures < 0)
		return 0;
	if (n > GLES_MAX_TEXTURE_IMAGE_UNITS)
		return -EINVAL;
	if ((ret = gles_sampling_stage(ctx, &l->stages[stage], info, rec->tex[stage],
				       rec->smp[stage], u)) < 0)
		return ret;
	/* the spilled targets' views after the shader's own (docs/render.md) */
	if (stage == GLES_STAGE_FRAGMENT && info->spill_textures >= 0) {
		unsigned k = 0;

		for (unsigned t = 0; t < AGX_RENDER_MAX_TARGETS; t++) {
			unsigned ts = (unsigned)info->spill_textures + k;

			if (ts >= MAX_TEXTURES)
				return -EINVAL;
			if (agx_render_spill_state(r, t, rec->tex[stage][ts],
						   rec->smp[stage][ts])) {
				k++;
				n = ts + 1 > n ? ts + 1 : n;
			}
		}
	}
	if (!n)
		return 0;
	if ((ret = gles_submit_upload(ctx, n * (AGX_TEXTURE_LENGTH + AGX_SAMPLER_LENGTH), 64, &map,
				      &va)) < 0)
		return ret;
	memcpy(map, rec->tex[stage], n * AGX_TEXTURE_LENGTH);
	memcpy((uint8_t *)map + n * AGX_TEXTURE_LENGTH, rec->smp[stage], n * AGX_SAMPLER_LENGTH);
	out->textures = va;
	out->num_textures = n;
	out->samplers = va + n * AGX_TEXTURE_LENGTH;
	out->num_samplers = n;
	return 0;
}

/*
 * The cull distances the program's vertex shader writes (agx_lower_cull.c):
 * its fragment variants test them.
 */
static unsigned cull_distances(const struct gles_linked *l)
{
	const struct agx_shader_info *vi = &l->stages[GLES_STAGE_VERTEX].binary.info;

	for (unsigned i = 0; i < vi->num_vars; i++)
		if (vi->vars[i].kind == AGX_SHADER_OUTPUT &&
		    vi->vars[i].location == AGX_SHADER_LOCATION_CULL_FLAG)
			return vi->vars[i].array_size ? vi->vars[i].array_size : 1;
	return 0;
}

/* A stage's output var at a built-in location, or NULL. */
static const struct agx_shader_var *builtin_output(const struct agx_shader_info *info,
						   unsigned location)
{
	for (unsigned i = 0; i < info->num_vars; i++)
		if (info->vars[i].kind == AGX_SHADER_OUTPUT && info->vars[i].location == location &&
		    info->vars[i].slot >= 0)
			return &info->vars[i];
	return NULL;
}

/*
 * The draw's variants: the cache's while their keys' state is clean, else
 * looked up (or compiled) from keys built afresh.  0 or -errno.
 */
static int choose_variants(struct gles_context *ctx, const struct agx_render *r,
			   struct gles_linked *l, const struct call *c,
			   struct gles_draw_record *rec, bool cached)
{
	struct key_cache *k = &rec->cache;
	unsigned generation = gles_variants_generation(ctx);
	bool same = cached && k->linked == l && k->generation == generation;
	bool vertex = same && k->vertex && !(ctx->dirty & GLES_DIRTY_VERTEX_KEY);
	/* a pass's tilebuffer is the one it began with: compared once a pass */
	unsigned pass = gles_pass_serial(ctx);
	bool fragment = same && k->fragment && !(ctx->dirty & GLES_DIRTY_FRAGMENT_KEY) &&
			(k->pass == pass || !memcmp(&k->tib, &r->tib, sizeof(r->tib)));
	struct agx_compile_options o;
	int err;

	if (fragment)
		k->pass = pass;
	if (vertex && fragment) {
		rec->vs = k->vs;
		rec->fs = k->fs;
		return 0;
	}
	if (!fragment) {
		fragment_key(ctx, r, &o);
		o.cull_distances = cull_distances(l);
		if (!(rec->fs = gles_variant_get(ctx, l, GLES_STAGE_FRAGMENT, &o, &err)))
			return err;
	} else {
		rec->fs = k->fs;
	}
	/* compiling the fragment variant may have dropped the cache's vertex one */
	if (!vertex || gles_variants_generation(ctx) != generation) {
		vertex_key(ctx, &l->stages[GLES_STAGE_VERTEX].binary.info, &o);
		if (c->capture)
			o.xfb = rec->xfb.xfb;
		if (!(rec->vs = gles_variant_get(ctx, l, GLES_STAGE_VERTEX, &o, &err)))
			return err;
	} else {
		rec->vs = k->vs;
	}
	/* and compiling the vertex one the fragment one: it comes again */
	if (gles_variants_generation(ctx) != generation) {
		generation = gles_variants_generation(ctx);
		fragment_key(ctx, r, &o);
		o.cull_distances = cull_distances(l);
		if (!(rec->fs = gles_variant_get(ctx, l, GLES_STAGE_FRAGMENT, &o, &err)))
			return err;
		if (gles_variants_generation(ctx) != generation)
			return -ENOMEM; /* the two do not fit the code BO together */
	}
	k->vertex = k->fragment = k->link = false;
	if (!cached)
		return 0;
	k->vertex = k->fragment = true;
	k->linked = l;
	k->generation = gles_variants_generation(ctx);
	k->vs = rec->vs;
	k->fs = rec->fs;
	memcpy(&k->tib, &r->tib, sizeof(r->tib));
	k->pass = pass;
	ctx->dirty &= ~(GLES_DIRTY_VERTEX_KEY | GLES_DIRTY_FRAGMENT_KEY);
	return 0;
}

/*
 * The coefficient bindings that feed the fragment variant's inputs from
 * the vertex variant's outputs, and the vertex outputs the PPP needs: the
 * cache's when it holds the link of these variants.  0 or -EINVAL.
 */
static int link_stages(const struct gles_linked *l, struct gles_draw_record *rec, bool cached)
{
	const struct agx_shader_info *vi = &rec->vs->binary.info, *fi = &rec->fs->binary.info;
	struct key_cache *k = &rec->cache;

	if (cached && k->link && k->vertex && k->fragment && k->vs == rec->vs && k->fs == rec->fs)
		return 0;
	k->link = false;
	/* the fragment shader's inputs from the vertex shader's outputs the link matched */
	for (unsigned i = 0; i < fi->num_vars && i < 256; i++)
		rec->matched[i] = -1;
	for (unsigned i = 0; i < l->num_varyings; i++)
		if (l->varyings[i].fragment_var >= 0 && l->varyings[i].fragment_var < 256)
			rec->matched[l->varyings[i].fragment_var] = l->varyings[i].vertex_var;
	/* the cull flags are the compiler's, not the program's varyings: matched by location */
	for (unsigned i = 0; i < fi->num_vars && i < 256; i++)
		if (fi->vars[i].kind == AGX_SHADER_INPUT &&
		    fi->vars[i].location == AGX_SHADER_LOCATION_CULL_FLAG)
			for (unsigned j = 0; j < vi->num_vars; j++)
				if (vi->vars[j].kind == AGX_SHADER_OUTPUT &&
				    vi->vars[j].location == AGX_SHADER_LOCATION_CULL_FLAG)
					rec->matched[i] = (int)j;
	if (fi->num_vars > 256 ||
	    agx_render_link_varyings(vi, fi, 2, rec->matched, k->cf, &k->ncf, &k->cf_regs) < 0)
		return -EINVAL;
	k->point_size = builtin_output(vi, AGX_SHADER_LOCATION_POINT_SIZE);
	k->clip = builtin_output(vi, AGX_SHADER_LOCATION_CLIP_DISTANCE);
	/* valid for these variants only while the cache holds them */
	k->link = cached && k->vertex && k->fragment && k->vs == rec->vs && k->fs == rec->fs;
	return 0;
}

/*
 * The kept state changed: a new key names it (never 0), at once -- a draw
 * that records nothing after changing it (an empty scissor, only restart
 * indices, an error) must not leave the next draw the old key.
 */
static void new_state_key(struct fixed_cache *f)
{
	if (!++f->key)
		f->key = 1;
	f->draw.state_key = f->key;
}

/*
 * The cached draw's fixed-function state: the groups whose bits are set,
 * or whose pass targets changed, built again (and their bits cleared, a
 * new state key taken), the others as the last draw left them.  False
 * when the scissor leaves nothing to draw.
 */
static bool kept_fixed_function(struct gles_context *ctx, const struct agx_render *r,
				struct fixed_cache *f)
{
	bool depth = r->pass.depth.surface.image.format != AGX_FORMAT_NONE;
	bool stencil = r->pass.stencil.surface.image.format != AGX_FORMAT_NONE;
	unsigned groups = f->valid ? ctx->dirty & FIXED_GROUPS : FIXED_GROUPS;

	if (depth != f->depth || stencil != f->stencil)
		groups |= GLES_DIRTY_ZS;
	if (r->pass.width != f->width || r->pass.height != f->height)
		groups |= GLES_DIRTY_SCISSOR;
	if (groups) {
		fixed_groups(ctx->state, r, &f->draw, groups, &f->empty);
		f->valid = true;
		f->depth = depth;
		f->stencil = stencil;
		f->width = r->pass.width;
		f->height = r->pass.height;
		ctx->dirty &= ~FIXED_GROUPS;
		new_state_key(f);
	}
	return !f->empty;
}

/*
 * Records the draw into the pass r: its uploads and the builder's words.
 * -ENOSPC when the pass or the slot's memory is full (the caller starts
 * another pass and tries again).
 */
static int record(struct gles_context *ctx, struct agx_render *r, struct gles_linked *l,
		  const struct call *c, struct gles_draw_record *rec)
{
	const struct agx_shader_info *vi, *fi;
	const struct agx_shader_var *clip;
	struct agx_render_draw own, *d;
	unsigned clip_distances = 0, visibility = 0, query = 0, varying_words;
	bool point_size, point_sprite_uv10, frag_coord_z;
	uint32_t min = c->first, max = c->first + (c->count ? c->count - 1 : 0);
	bool restart = c->type && ctx->state->primitive_restart_fixed_index;
	/* the driver's draws run under a state vector of their own: not the cache's */
	bool cached = !c->capture && !c->driver;
	int err;

	if ((err = choose_variants(ctx, r, l, c, rec, cached)) < 0)
		return err;
	vi = &rec->vs->binary.info;
	fi = &rec->fs->binary.info;
	if (vi->num_uniforms > MAX_UNIFORMS || fi->num_uniforms > MAX_UNIFORMS)
		return -EINVAL;

	if (cached) {
		d = &rec->fixed.draw;
		if (!kept_fixed_function(ctx, r, &rec->fixed))
			return 0;
	} else {
		d = &own;
		memset(d, 0, sizeof(*d));
		if (!fixed_function(ctx, r, d, c->capture))
			return 0;
	}
	/* what is not fixed function, written for every draw (d may be the last one's) */
	d->vs = d->fs = (struct agx_render_stage){ 0 };
	d->draw = (struct agx_vdm_draw){ 0 };
	d->restart_index = 0;
	memset(rec->vu, 0, 4 * vi->num_uniforms);
	memset(rec->fu, 0, 4 * fi->num_uniforms);

	/* the indices: the element buffer's, or a copy of the client's */
	if (c->type) {
		struct gles_buffer_object *eb = ctx->objects->vao->element_buffer;
		unsigned size = index_bytes(c->type);
		uint64_t bytes = ((uint64_t)c->count * size + 3) & ~3ull;
		const void *cpu;
		void *map;
		uint64_t va;

		if (eb) {
			if ((err = gles_submit_map(ctx, &eb->bo, false, &va)) < 0)
				return err;
			d->draw.indices = va + (uintptr_t)c->indices;
			cpu = gles_buffer_data(eb) + (uintptr_t)c->indices;
		} else {
			if ((err = gles_submit_upload(ctx, bytes, 16, &map, &va)) < 0)
				return err;
			memcpy(map, c->indices, (size_t)c->count * size);
			d->draw.indices = va;
			cpu = c->indices;
		}
		d->draw.index_size = size;
		d->draw.index_bytes = (uint32_t)bytes;
		d->draw.restart = restart;
		d->restart_index = fixed_restart_index(size);
		/* client arrays copy what the indices reach: read them (a range is not trusted) */
		index_range(c, cpu, restart, d->restart_index, &min, &max);
		if (min > max)
			return 0; /* only restart indices */
		/* the vertices are the indices plus the base vertex (a negative one's below 0:
		 * undefined) */
		min = (int64_t)min + c->base_vertex < 0 ? 0
							: (uint32_t)((int64_t)min + c->base_vertex);
		max = (int64_t)max + c->base_vertex < 0 ? 0
							: (uint32_t)((int64_t)max + c->base_vertex);
	}
	if ((err = stage_uniforms(ctx, l, GLES_STAGE_VERTEX, vi, rec->vu)) < 0 ||
	    (err = vertex_attribs(ctx, vi, min, max, c->instances, c->base_instance, rec->vu)) <
		0 ||
	    (err = stage_uniforms(ctx, l, GLES_STAGE_FRAGMENT, fi, rec->fu)) < 0 ||
	    (err = stage_textures(ctx, rec, GLES_STAGE_VERTEX, r, l, &d->vs, rec->vu)) < 0 ||
	    (err = stage_textures(ctx, rec, GLES_STAGE_FRAGMENT, r, l, &d->fs, rec->fu)) < 0)
		return err;
	if (ctx->robust_access && (err = robust_bounds(ctx, l, vi, fi, max, c->instances,
						       c->base_instance, rec->vu, rec->fu)) < 0)
		return err;
	if (fi->blend_constant_uniform >= 0 && fi->blend_constant_uniform + 4 <= (int)MAX_UNIFORMS)
		memcpy(rec->fu + fi->blend_constant_uniform, ctx->state->blend_color, 16);
	if (c->capture && vi->xfb_uniform >= 0) {
		/* each buffer's first record, then the vertex that writes it and vertices an
		 * instance */
		int reg = vi->xfb_uniform;

		for (unsigned k = 0; k < AGX_MAX_XFB_BUFFERS; k++) {
			if (rec->xfb.xfb.stride[k]) {
				set_pair(rec->vu, reg, rec->xfb_va[k]);
				reg += 2;
			}
		}
		if (reg + 1 >= MAX_UNIFORMS)
			return -EINVAL;
		rec->vu[reg] = c->first;
		rec->vu[reg + 1] = c->count;
	}

	if ((err = link_stages(l, rec, cached)) < 0)
		return err;

	d->vs.code_va = rec->vs->va;
	d->vs.num_registers = vi->num_registers;
	d->vs.uniforms = rec->vu;
	d->vs.num_uniforms = vi->num_uniforms;
	d->fs.code_va = rec->fs->va;
	d->fs.num_registers = fi->num_registers;
	d->fs.uniforms = rec->fu;
	d->fs.num_uniforms = fi->num_uniforms;
	d->vs_outputs = vi->num_vertex_outputs;
	d->cf = rec->cache.cf;
	d->num_cf = rec->cache.ncf;
	d->cf_registers = rec->cache.cf_regs;
	point_size = rec->cache.point_size != NULL;
	/*
	 * gl_PointCoord's t grows down GL's window (GLES 3.0.6 section 3.4.1),
	 * that is from the PPP's lower left: row 0 is GL's bottom row
	 */
	point_sprite_uv10 = c->mode == GL_POINTS;
	varying_words = vi->num_vertex_outputs - 4 - (point_size ? 1 : 0);
	if ((clip = rec->cache.clip)) {
		/* a plane the shader has no distance for clips nothing (its distance is undefined)
		 */
		unsigned n = clip->array_size ? clip->array_size : 1;

		varying_words -= n;
		for (unsigned i = 0; i < n && i < GLES_MAX_CLIP_DISTANCES; i++)
			clip_distances |= (unsigned)ctx->state->clip_distance[i] << i;
	}
	frag_coord_z = fi->frag_coord_z_cf >= 0;
	if (ctx->state->queries.active_samples) {
		visibility = AGX_CMD_VISIBILITY_MODE_BOOLEAN;
		query = ctx->state->queries.active_samples->counter;
	}
	/* the state fields the variants, the mode and the query give, set where they differ */
	if (d->state.point_size != point_size || d->state.point_sprite_uv10 != point_sprite_uv10 ||
	    d->state.varying_words != varying_words || d->state.clip_distances != clip_distances ||
	    d->state.frag_coord_z != frag_coord_z || d->state.visibility != visibility ||
	    d->state.query != query) {
		d->state.point_size = point_size;
		d->state.point_sprite_uv10 = point_sprite_uv10;
		d->state.varying_words = varying_words;
		d->state.clip_distances = clip_distances;
		d->state.frag_coord_z = frag_coord_z;
		d->state.visibility = visibility;
		d->state.query = query;
		/* the key names the cached draw's state while it stays; the others' have none */
		if (cached)
			new_state_key(&rec->fixed);
	}
	d->draw.primitive = primitive(c->mode);
	d->draw.count = c->count;
	d->draw.instances = c->instances;
	d->draw.start = c->type ? (uint32_t)c->base_vertex : c->first;
	return agx_render_draw(r, d);
}

/*
 * A capturing draw: only its whole primitives, and room for their
 * records.  False, with the error recorded, when there is none.
 */
static bool capture(struct gles_context *ctx, const struct gles_linked *l, struct call *c,
		    struct gles_draw_record *rec)
{
	unsigned n = primitive_vertices(c->mode);
	int err;

	c->count -= c->count % n;
	memset(&rec->xfb, 0, sizeof(rec->xfb));
	xfb_key(l, &rec->xfb);
	err = xfb_buffers(ctx, &rec->xfb, (uint64_t)c->count * c->instances, rec->xfb_va);
	if (err < 0) {
		gles_error(ctx, err == -ENOSPC || err == -EINVAL ? GL_INVALID_OPERATION
								 : GL_OUT_OF_MEMORY);
		return false;
	}
	return true;
}

/* What the draw recorded: the vertices in the buffers, the primitives a query counts. */
static void captured(struct gles_context *ctx, const struct call *c)
{
	uint64_t records = (uint64_t)c->count * c->instances;
	struct gles_query *q = ctx->state->queries.active_primitives;

	ctx->state->xfb.bound->vertices += records;
	if (q)
		q->result += (GLuint)(records / primitive_vertices(c->mode));
}

/* Kilobytes of scratch for one draw: the context's own, as it is current in one thread at a time.
 */
static struct gles_draw_record *draw_record(struct gles_context *ctx)
{
	if (!ctx->draw_record)
		ctx->draw_record = calloc(1, sizeof(*ctx->draw_record));
	return ctx->draw_record;
}

/*
 * The call into the draw framebuffer's pass, or the next one when the pass
 * or the slot is full: 0, or -errno (-ENOENT: nothing to draw into).
 */
static int record_in_pass(struct gles_context *ctx, struct gles_linked *l, const struct call *c,
			  struct gles_draw_record *rec)
{
	struct agx_render *r;
	int err;

	if (!(r = gles_pass_get(ctx, &err)))
		return err;
	if ((err = record(ctx, r, l, c, rec)) != -ENOSPC)
		return err;
	if (!(r = gles_pass_restart(ctx, &err)))
		return err;
	return record(ctx, r, l, c, rec);
}

static void draw(struct gles_context *ctx, const struct call *call)
{
	struct gles_linked *l;
	struct gles_draw_record *rec;
	struct call cc = *call, *c = &cc;
	int err = 0;

	c->capture = gles_xfb_running(ctx);
	if (!c->count || !c->instances || (ctx->state->rasterizer_discard && !c->capture))
		return;
	if (!(rec = draw_record(ctx))) {
		gles_error(ctx, GL_OUT_OF_MEMORY);
		return;
	}
	gles_programs_lock(ctx);
	gles_objects_lock(ctx);
	/* no program: nothing is drawn (section 2.11.3 leaves the results undefined) */
	l = gles_program_current_linked(ctx);
	if (!l)
		goto out;
	if (c->capture && !capture(ctx, l, c, rec))
		goto out;
	/* INTEL_blackhole_render: checked as any draw, then nothing happens (state.h) */
	if (!c->count || ctx->state->blackhole_render)
		goto out;
	if ((err = gles_sampling_prepare(ctx, l)) < 0)
		goto fail;
	if ((err = record_in_pass(ctx, l, c, rec)) == 0 && c->capture)
		captured(ctx, c);
fail:
	if (err < 0 && err != -ENOENT)
		gles_error(ctx, GL_OUT_OF_MEMORY);
out:
	gles_objects_unlock(ctx);
	gles_programs_unlock(ctx);
}

/* objects->textures[unit][i]: 0 2D, 1 3D, 2 2D array, 3 cube */
static unsigned texture_slot(GLenum target)
{
	switch (target) {
	case GL_TEXTURE_3D:
		return 1;
	case GL_TEXTURE_2D_ARRAY:
		return 2;
	case GL_TEXTURE_CUBE_MAP:
		return 3;
	default:
		return 0;
	}
}

int gles_draw_driver(struct gles_context *ctx, struct gles_linked *l, struct gles_state *st,
		     const struct gles_draw_bindings *b)
{
	const struct call c = { .mode = GL_TRIANGLES, .count = 3, .instances = 1, .driver = true };
	struct gles_state *own = ctx->state;
	struct gles_objects *o = ctx->objects;
	struct gles_framebuffer *fb = o->draw_fb;
	struct gles_sampler *sampler = o->samplers[0];
	struct gles_texture *tex = NULL;
	unsigned slot = 0;
	struct gles_draw_record *rec;
	int err;

	if (!(rec = draw_record(ctx)))
		return -ENOMEM;
	gles_programs_lock(ctx);
	gles_objects_lock(ctx);
	/*
	 * Only st, and b's bindings, are the draw's own: the bindings are the
	 * context's (one thread uses it), swapped for the draw without
	 * references, as nothing can unbind them before they are restored.
	 */
	ctx->state = st;
	if (b && b->fb)
		o->draw_fb = b->fb;
	if (b && b->texture) {
		slot = texture_slot(b->texture->target);
		tex = o->textures[0][slot];
		o->textures[0][slot] = b->texture;
		o->samplers[0] = NULL;
	}
	err = record_in_pass(ctx, l, &c, rec);
	if (b && b->texture) {
		o->textures[0][slot] = tex;
		o->samplers[0] = sampler;
	}
	o->draw_fb = fb;
	ctx->state = own;
	gles_objects_unlock(ctx);
	gles_programs_unlock(ctx);
	return err;
}

/* ---- the entry points -------------------------------------------------------------------- */

static bool mode_valid(GLenum mode)
{
	return mode <= GL_TRIANGLE_FAN; /* GL_POINTS (0) .. GL_TRIANGLE_FAN (6) */
}

/*
 * What every draw checks after its arguments (section 2.8.3, 2.15.2,
 * 4.4.4.4, 2.9.3): transform feedback's mode, a complete framebuffer,
 * no mapped buffer the draw reads.
 */
static bool draw_allowed(struct gles_context *ctx, GLenum mode, bool indexed)
{
	const struct gles_xfb_object *x = ctx->state->xfb.bound;
	const struct gles_vertex_array *vao = ctx->objects->vao;

	if (gles_xfb_running(ctx) && (indexed || mode != x->primitive_mode)) {
		gles_error(ctx, GL_INVALID_OPERATION);
		return false;
	}
	if (gles_framebuffer_status(ctx, false) != GL_FRAMEBUFFER_COMPLETE) {
		gles_error(ctx, GL_INVALID_FRAMEBUFFER_OPERATION);
		return false;
	}
	for (uint32_t m = vao->enabled; m; m &= m - 1) {
		unsigned i = (unsigned)__builtin_ctz(m);

		if (gles_buffer_is_mapped(vao->attribs[i].buffer)) {
			gles_error(ctx, GL_INVALID_OPERATION);
			return false;
		}
	}
	if (indexed && gles_buffer_is_mapped(vao->element_buffer)) {
		gles_error(ctx, GL_INVALID_OPERATION);
		return false;
	}
	return true;
}

static void draw_arrays(GLenum mode, GLint first, GLsizei count, GLsizei instances,
			GLuint base_instance)
{
	struct gles_context *ctx = gles_current();

	if (!ctx)
		return;
	if (!mode_valid(mode)) {
		gles_error(ctx, GL_INVALID_ENUM);
		return;
	}
	if (first < 0 || count < 0 || instances < 0) {
		gles_error(ctx, GL_INVALID_VALUE);
		return;
	}
	if (!draw_allowed(ctx, mode, false))
		return;
	draw(ctx, &(struct call){ .mode = mode,
				  .first = (uint32_t)first,
				  .count = (uint32_t)count,
				  .instances = (uint32_t)instances,
				  .base_instance = base_instance });
}

static void draw_elements(GLenum mode, GLsizei count, GLenum type, const void *indices,
			  GLsizei instances, GLint base_vertex, GLuint base_instance)
{
	struct gles_context *ctx = gles_current();

	if (!ctx)
		return;
	if (!mode_valid(mode) ||
	    (type != GL_UNSIGNED_BYTE && type != GL_UNSIGNED_SHORT && type != GL_UNSIGNED_INT)) {
		gles_error(ctx, GL_INVALID_ENUM);
		return;
	}
	if (count < 0 || instances < 0) {
		gles_error(ctx, GL_INVALID_VALUE);
		return;
	}
	if (!draw_allowed(ctx, mode, true))
		return;
	{
		struct gles_buffer_object *eb = ctx->objects->vao->element_buffer;

		/* indices past the element buffer's end: nothing the GPU may read (section 2.9.7)
		 */
		if (eb &&
		    (uintptr_t)indices + (uint64_t)count * index_bytes(type) > (uint64_t)eb->size) {
			return;
		}
		if (!eb && !indices && count)
			return;
	}
	draw(ctx, &(struct call){ .mode = mode,
				  .count = (uint32_t)count,
				  .instances = (uint32_t)instances,
				  .type = type,
				  .indices = indices,
				  .base_instance = base_instance,
				  .base_vertex = base_vertex });
}

void gles_DrawArrays(GLenum mode, GLint first, GLsizei count)
{
	draw_arrays(mode, first, count, 1, 0);
}

void gles_DrawArraysInstanced(GLenum mode, GLint first, GLsizei count, GLsizei instancecount)
{
	draw_arrays(mode, first, count, instancecount, 0);
}

/* EXT_base_instance: instanced arrays start at element baseinstance; gl_InstanceID does not */
void gles_DrawArraysInstancedBaseInstanceEXT(GLenum mode, GLint first, GLsizei count,
					     GLsizei instancecount, GLuint baseinstance)
{
	draw_arrays(mode, first, count, instancecount, baseinstance);
}

void gles_DrawElementsInstancedBaseInstanceEXT(GLenum mode, GLsizei count, GLenum type,
					       const void *indices, GLsizei instancecount,
					       GLuint baseinstance)
{
	draw_elements(mode, count, type, indices, instancecount, 0, baseinstance);
}

void gles_DrawElementsInstancedBaseVertexBaseInstanceEXT(GLenum mode, GLsizei count, GLenum type,
							 const void *indices, GLsizei instancecount,
							 GLint basevertex, GLuint baseinstance)
{
	draw_elements(mode, count, type, indices, instancecount, basevertex, baseinstance);
}

void gles_DrawElements(GLenum mode, GLsizei count, GLenum type, const void *indices)
{
	draw_elements(mode, count, type, indices, 1, 0, 0);
}

void gles_DrawElementsInstanced(GLenum mode, GLsizei count, GLenum type, const void *indices,
				GLsizei instancecount)
{
	draw_elements(mode, count, type, indices, instancecount, 0, 0);
}

void gles_DrawRangeElements(GLenum mode, GLuint start, GLuint end, GLsizei count, GLenum type,
			    const void *indices)
{
	struct gles_context *ctx = gles_current();

	if (!ctx)
		return;
	/* section 2.8.3: end < start is GL_INVALID_VALUE; the range is a hint, not trusted */
	if (end < start && mode_valid(mode) &&
	    (type == GL_UNSIGNED_BYTE || type == GL_UNSIGNED_SHORT || type == GL_UNSIGNED_INT)) {
		gles_error(ctx, GL_INVALID_VALUE);
		return;
	}
	draw_elements(mode, count, type, indices, 1, 0, 0);
}
