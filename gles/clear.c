/*
 * clear.c: glClear and glClearBuffer{iv,uiv,fv,fi} (GLES 3.0.6 section
 * 4.2.3).  Each buffer a clear reaches -- the draw framebuffer's draw
 * buffers, its depth and stencil attachments -- gets its value packed in
 * the buffer's format (agx/format.h) and a write mask from the colour,
 * depth and stencil write masks.  A buffer cleared whole -- every bit of
 * every pixel: no scissor that leaves some out, no write mask that keeps
 * some, the size of the framebuffer -- is cleared by the render pass's
 * load program, as a tiler does (pass.h: no pass over the image reloads
 * it); the others by one draw into the pass of a program of the driver's
 * own (draw.h), and only those a pass cannot draw into (multisampled, or
 * larger than the framebuffer) by a GPU clear of the rectangle the
 * scissor leaves (submit.h), compute work ahead of the pass.  glFlush,
 * glFinish, eglSwapBuffers and glReadPixels hand them to the GPU.
 *
 * Row 0 of every image is window y = 0, the bottom row (the default
 * framebuffer's as well as a texture's, whose first row is t = 0): window
 * coordinates address images directly.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "context.h"
#include "draw.h"
#include "gl_functions.h"
#include "objects.h"
#include "program.h"
#include "pass.h"
#include "state.h"
#include "submit.h"

enum value_kind { VALUE_FLOAT, VALUE_INT, VALUE_UINT };

/* What one clear writes into one buffer. */
struct clear_job {
	uint8_t value[16], mask[16];
	bool any; /* some bit of the mask is set */
};

/*
 * One glClear or glClearBuffer*: the buffers the pass can clear whole
 * (pass.h), with their compute jobs for when it cannot.
 */
struct plan {
	struct gles_pass_clear pass;
	struct gles_image_target colour[GLES_MAX_DRAW_BUFFERS], depth, stencil;
	struct clear_job colour_job[GLES_MAX_DRAW_BUFFERS], depth_job, stencil_job;
	/* the buffers cleared, and the values as the call gave them (for a clear as a draw) */
	unsigned cleared; /* colour draw buffers */
	bool cleared_depth, cleared_stencil;
	enum value_kind kind;
	uint32_t value[4];
	GLfloat depth_value;
	GLint stencil_value;
};

/* The window rectangle the clear covers in a w x h buffer: the scissor box, if enabled. */
static bool clear_rect(const struct gles_context *ctx, unsigned w, unsigned h,
		       struct agx_clear_rect *r)
{
	int64_t x0 = 0, y0 = 0, x1 = w, y1 = h;

	if (ctx->state->scissor_test) {
		const GLint *s = ctx->state->scissor;

		x0 = s[0] > 0 ? s[0] : 0;
		y0 = s[1] > 0 ? s[1] : 0;
		if ((int64_t)s[0] + s[2] < x1)
			x1 = (int64_t)s[0] + s[2];
		if ((int64_t)s[1] + s[3] < y1)
			y1 = (int64_t)s[1] + s[3];
	}
	if (x0 >= x1 || y0 >= y1)
		return false;
	*r = (struct agx_clear_rect){ (unsigned)x0, (unsigned)y0, (unsigned)(x1 - x0),
				      (unsigned)(y1 - y0) };
	return true;
}

static bool mask_any(const struct gles_image *img, const uint8_t mask[16])
{
	for (unsigned i = 0; i < agx_format_info(img->format)->bytes; i++)
		if (mask[i])
			return true;
	return false;
}

static bool mask_full(const struct gles_image *img, const uint8_t mask[16])
{
	for (unsigned i = 0; i < agx_format_info(img->format)->bytes; i++)
		if (mask[i] != 0xff)
			return false;
	return true;
}

/*
 * Records job on t's slice under the scissor; a multisampled image's
 * every sample, as the rectangle of its sample grid (agx/layout.h).
 */
static void record(struct gles_context *ctx, const struct gles_image_target *t,
		   const struct clear_job *job)
{
	const struct gles_image *img = t->image;
	struct agx_clear_rect r;
	unsigned sx, sy;

	if (!job->any || !img->bo.size ||
	    !clear_rect(ctx, gles_image_width(img, t->level), gles_image_height(img, t->level), &r))
		return;
	agx_sample_grid(img->samples, &sx, &sy);
	r.x *= sx, r.width *= sx;
	r.y *= sy, r.height *= sy;
	if (gles_submit_clear(ctx, img, t->level, t->layer, &r, job->value,
			      mask_full(img, job->mask) ? NULL : job->mask) < 0)
		gles_error(ctx, GL_OUT_OF_MEMORY);
}

/*
 * job clears every bit of t's slice: the pass's load program can do it
 * (an image the framebuffer's size, all of it in the scissor).
 */
static bool whole(struct gles_context *ctx, const struct gles_image_target *t,
		  const struct clear_job *job)
{
	const struct gles_image *img = t->image;
	unsigned w = gles_image_width(img, t->level), h = gles_image_height(img, t->level), fw, fh;
	struct agx_clear_rect r;

	return job->any && img->bo.size && mask_full(img, job->mask) &&
	       gles_framebuffer_size(ctx, false, &fw, &fh) && fw == w && fh == h &&
	       clear_rect(ctx, w, h, &r) && r.width == w && r.height == h;
}

/* ---- clears as draws -------------------------------------------------------------------- */

/* Programs kept: a context clears few combinations of buffers and value types. */
#define CLEAR_PROGRAMS 16

struct gles_clear_programs {
	struct {
		unsigned
		    key; /* the draw buffers written (bits 0..7) and the value type (bits 8..) */
		struct gles_linked *linked;
	} p[CLEAR_PROGRAMS];
	unsigned count, next;
};

/* A big triangle over the whole viewport, from gl_VertexID (no attributes). */
static const char clear_vs[] =
    "#version 300 es\n"
    "void main() {\n"
    "	gl_Position = vec4(float(gl_VertexID & 1) * 4.0 - 1.0,\n"
    "			   float(gl_VertexID >> 1) * 4.0 - 1.0, 0.0, 1.0);\n"
    "}\n";

/* The program that writes uniform c to the draw buffers in colour, as values of kind. */
static struct gles_linked *clear_program(struct gles_context *ctx, unsigned colour,
					 enum value_kind kind)
{
	static const char *const types[] = { "vec4", "ivec4", "uvec4" };
	struct gles_clear_programs *cp = ctx->clear_programs;
	unsigned key = colour | (unsigned)kind << 8, slot;
	char fs[2048];
	size_t n;

	if (!cp && !(cp = ctx->clear_programs = calloc(1, sizeof(*cp))))
		return NULL;
	for (unsigned i = 0; i < cp->count; i++)
		if (cp->p[i].key == key)
			return cp->p[i].linked;
	n = (size_t)snprintf(fs, sizeof(fs),
			     "#version 300 es\nprecision highp float;\nprecision highp int;\n"
			     "uniform highp %s c;\n",
			     types[kind]);
	for (unsigned i = 0; i < GLES_MAX_DRAW_BUFFERS; i++)
		if (colour & 1u << i)
			n += (size_t)snprintf(fs + n, sizeof(fs) - n,
					      "layout(location = %u) out highp %s o%u;\n", i,
					      types[kind], i);
	n += (size_t)snprintf(fs + n, sizeof(fs) - n, "void main() {\n");
	for (unsigned i = 0; i < GLES_MAX_DRAW_BUFFERS; i++)
		if (colour & 1u << i)
			n += (size_t)snprintf(fs + n, sizeof(fs) - n, "	o%u = c;\n", i);
	snprintf(fs + n, sizeof(fs) - n, "}\n");
	/* full: the oldest goes (the variants made of it hold their own references) */
	slot = cp->count < CLEAR_PROGRAMS ? cp->count++ : cp->next++ % CLEAR_PROGRAMS;
	gles_linked_unref(cp->p[slot].linked);
	cp->p[slot].key = key;
	cp->p[slot].linked = gles_program_link_internal(clear_vs, fs);
	if (!cp->p[slot].linked)
		cp->p[slot].key = ~0u;
	return cp->p[slot].linked;
}

void gles_clear_context_finish(struct gles_context *ctx)
{
	struct gles_clear_programs *cp = ctx->clear_programs;

	for (unsigned i = 0; cp && i < cp->count; i++)
		gles_linked_unref(cp->p[i].linked);
	free(cp);
	ctx->clear_programs = NULL;
}

/* A target a clear draw reaches: the framebuffer's size at its level. */
static bool drawable(const struct gles_image_target *t, unsigned fw, unsigned fh)
{
	const struct gles_image *img = t->image;

	return img->bo.size && gles_image_width(img, t->level) == fw &&
	       gles_image_height(img, t->level) == fh;
}

/*
 * The clear of these buffers as a draw into the pass, as a tiler driver
 * does a clear its load program cannot (scissored, masked, after draws):
 * the program writes the value where the scissor lets it, the colour
 * mask keeps what it keeps, depth is written as the viewport's depth
 * with the test ALWAYS, stencil replaced under the front write mask.
 * 0, or -errno for the caller to clear them another way.
 */
static int clear_draw(struct gles_context *ctx, const struct plan *plan, unsigned colour,
		      bool depth, bool stencil)
{
	const struct gles_state *own = ctx->state;
	struct gles_linked *l;
	struct gles_state *st;
	unsigned fw, fh;
	int ret;

	if (!gles_framebuffer_size(ctx, false, &fw, &fh))
		return -EINVAL;
	for (unsigned i = 0; i < GLES_MAX_DRAW_BUFFERS; i++)
		if (colour & 1u << i && !drawable(&plan->colour[i], fw, fh))
			return -EINVAL;
	if ((depth && !drawable(&plan->depth, fw, fh)) ||
	    (stencil && !drawable(&plan->stencil, fw, fh)))
		return -EINVAL;
	if (!(l = clear_program(ctx, colour, plan->kind)))
		return -ENOMEM;
	for (unsigned u = 0; u < l->num_uniforms; u++) {
		const struct gles_uniform *c = &l->uniforms[u];
		int at = c->stage_offset[GLES_STAGE_FRAGMENT];

		if (!strcmp(c->name, "c") && at >= 0 &&
		    (unsigned)at + 16 <= l->stages[GLES_STAGE_FRAGMENT].uniform_size)
			memcpy((uint8_t *)l->stages[GLES_STAGE_FRAGMENT].uniform_data + at,
			       plan->value, 16);
	}
	if (!(st = malloc(sizeof(*st))))
		return -ENOMEM;
	*st = *own;
	/* what a clear honours: the scissor, the colour, depth and stencil write masks */
	st->blend = st->cull_face = st->polygon_offset_fill = st->rasterizer_discard = false;
	st->sample_alpha_to_coverage = st->sample_coverage = false;
	memset(st->clip_distance, 0, sizeof(st->clip_distance));
	st->queries.active_samples = NULL;
	st->viewport[0] = st->viewport[1] = 0;
	st->viewport[2] = (GLint)fw;
	st->viewport[3] = (GLint)fh;
	/* the viewport's depth is the value: window z = near + (far - near) * z */
	st->depth_test = st->depth_mask = depth;
	st->depth_func = GL_ALWAYS;
	st->depth_range[0] = st->depth_range[1] = plan->depth_value;
	st->stencil_test = stencil;
	for (unsigned f = 0; f < 2; f++)
		st->stencil[f] = (struct gles_stencil_face){
			.func = GL_ALWAYS,
			.ref = plan->stencil_value & 0xff,
			.value_mask = ~0u,
			.write_mask = own->stencil[0].write_mask,
			.fail = GL_KEEP,
			.depth_fail = GL_KEEP,
			.depth_pass = GL_REPLACE,
		};
	ret = gles_draw_driver(ctx, l, st, NULL);
	free(st);
	return ret;
}

/* The buffers the pass did not take: a clear draw, or else compute clears. */
static void finish(struct gles_context *ctx, struct plan *plan)
{
	struct gles_pass_clear want = plan->pass;
	unsigned colour;
	bool depth, stencil;

	if ((want.colour || want.depth || want.stencil) && gles_pass_clear(ctx, &plan->pass) < 0) {
		gles_error(ctx, GL_OUT_OF_MEMORY);
		return;
	}
	colour = plan->cleared & ~plan->pass.colour;
	depth = plan->cleared_depth && !plan->pass.depth;
	stencil = plan->cleared_stencil && !plan->pass.stencil;
	if ((!colour && !depth && !stencil) || clear_draw(ctx, plan, colour, depth, stencil) == 0)
		return;
	for (unsigned i = 0; i < GLES_MAX_DRAW_BUFFERS; i++)
		if (colour & 1u << i)
			record(ctx, &plan->colour[i], &plan->colour_job[i]);
	if (depth)
		record(ctx, &plan->depth, &plan->depth_job);
	if (stencil)
		record(ctx, &plan->stencil, &plan->stencil_job);
}

/* The colour write mask as agx_format_color_mask's bits. */
static unsigned color_write_mask(const struct gles_context *ctx)
{
	unsigned m = 0;

	for (unsigned c = 0; c < 4; c++)
		m |= ctx->state->color_mask[c] ? 1u << c : 0;
	return m;
}

/*
 * Draw buffer i cleared to a colour given as floats, ints or uints.  A
 * buffer whose type is not the value's is left alone: section 4.2.3 leaves
 * its contents undefined (glClear of integer buffers, glClearBufferfv of
 * them, glClearBufferiv of unsigned ones ...).
 */
static void clear_color_buffer(struct gles_context *ctx, struct plan *plan, unsigned i,
			       enum value_kind kind, const void *value)
{
	struct gles_image_target t;
	const struct agx_format_info *info;
	struct clear_job job;
	bool ok;

	if (!gles_framebuffer_color_target(ctx, false, i, &t))
		return;
	info = agx_format_info(t.image->format);
	if (!info)
		return;
	switch (kind) {
	case VALUE_FLOAT:
		ok = info->kind == AGX_FORMAT_KIND_FLOAT &&
		     agx_format_pack_float(t.image->format, value, job.value);
		break;
	case VALUE_INT:
		ok = info->kind == AGX_FORMAT_KIND_SINT &&
		     agx_format_pack_sint(t.image->format, value, job.value);
		break;
	default:
		ok = info->kind == AGX_FORMAT_KIND_UINT &&
		     agx_format_pack_uint(t.image->format, value, job.value);
		break;
	}
	/* a mask the format cannot take alone (RGB9E5's shared exponent) is not renderable */
	if (!ok || !agx_format_color_mask(t.image->format, color_write_mask(ctx), job.mask))
		return;
	job.any = mask_any(t.image, job.mask);
	if (!job.any)
		return;
	plan->cleared |= 1u << i;
	plan->colour[i] = t;
	plan->colour_job[i] = job;
	plan->kind = kind;
	memcpy(plan->value, value, sizeof(plan->value));
	if (!whole(ctx, &t, &job))
		return;
	/* the load program's value: what the buffer holds once cleared */
	union agx_clear_colour *v = &plan->pass.value[i];

	ok = kind == VALUE_FLOAT ? agx_format_unpack_float(t.image->format, job.value, v->f)
	     : kind == VALUE_INT ? agx_format_unpack_sint(t.image->format, job.value, v->i)
				 : agx_format_unpack_uint(t.image->format, job.value, v->u);
	if (ok)
		plan->pass.colour |= 1u << i;
}

/*
 * The depth and stencil attachments: depth (when clear_depth) to `depth`
 * under the depth mask, stencil (when clear_stencil) to `stencil` under the
 * front stencil write mask.  Depth and stencil are always images of their
 * own here (image.h), one clear each.
 */
static void clear_depth_stencil(struct gles_context *ctx, struct plan *plan, bool clear_depth,
				GLfloat depth, bool clear_stencil, GLint stencil)
{
	const struct gles_state *st = ctx->state;
	struct gles_image_target dt, stt;
	bool has_depth =
	    clear_depth && st->depth_mask && gles_framebuffer_depth_target(ctx, false, &dt);
	bool has_stencil = clear_stencil && gles_framebuffer_stencil_target(ctx, false, &stt);
	GLuint write_mask = st->stencil[0].write_mask;
	struct clear_job job;

	/* GL clamps depth to [0, 1] wherever it is stored (sections 2.13.1, 4.2.3) */
	depth = depth > 0 ? (depth < 1 ? depth : 1) : 0;
	if (has_depth) {
		memset(job.value, 0, sizeof(job.value));
		if (agx_format_pack_depth(dt.image->format, depth, job.value) &&
		    agx_format_zs_mask(dt.image->format, true, 0, job.mask) &&
		    (job.any = mask_any(dt.image, job.mask))) {
			plan->cleared_depth = true;
			plan->depth = dt;
			plan->depth_job = job;
			plan->depth_value = depth;
			plan->pass.depth = whole(ctx, &dt, &job) &&
					   agx_format_unpack_depth(dt.image->format, job.value,
								   &plan->pass.depth_value);
		}
	}
	if (has_stencil) {
		memset(job.value, 0, sizeof(job.value));
		if (agx_format_pack_stencil(stt.image->format, (GLuint)stencil, job.value) &&
		    agx_format_zs_mask(stt.image->format, false, write_mask, job.mask) &&
		    (job.any = mask_any(stt.image, job.mask))) {
			uint32_t s = 0;

			plan->cleared_stencil = true;
			plan->stencil = stt;
			plan->stencil_job = job;
			plan->stencil_value = stencil;
			plan->pass.stencil =
			    whole(ctx, &stt, &job) &&
			    agx_format_unpack_stencil(stt.image->format, job.value, &s);
			plan->pass.stencil_value = (uint8_t)s;
		}
	}
}

/* Section 4.4.4.4: clears of an incomplete draw framebuffer fail. */
static bool draw_framebuffer_complete(struct gles_context *ctx)
{
	if (gles_framebuffer_status(ctx, false) == GL_FRAMEBUFFER_COMPLETE)
		return true;
	gles_error(ctx, GL_INVALID_FRAMEBUFFER_OPERATION);
	return false;
}

void gles_Clear(GLbitfield mask)
{
	struct gles_context *ctx = gles_current();
	struct plan plan = { 0 };

	if (!ctx)
		return;
	if (mask &
	    ~(GLbitfield)(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT | GL_STENCIL_BUFFER_BIT)) {
		gles_error(ctx, GL_INVALID_VALUE);
		return;
	}
	if (!draw_framebuffer_complete(ctx))
		return;
	/* rasterizer discard discards clears too (OpenGL 4.6 section 14.1, as Mesa does in ES) */
	if (ctx->state->rasterizer_discard || ctx->state->blackhole_render)
		return;
	if (mask & GL_COLOR_BUFFER_BIT)
		for (unsigned i = 0; i < GLES_MAX_DRAW_BUFFERS; i++)
			clear_color_buffer(ctx, &plan, i, VALUE_FLOAT, ctx->state->clear_color);
	if (mask & (GL_DEPTH_BUFFER_BIT | GL_STENCIL_BUFFER_BIT))
		clear_depth_stencil(ctx, &plan, mask & GL_DEPTH_BUFFER_BIT, ctx->state->clear_depth,
				    mask & GL_STENCIL_BUFFER_BIT, ctx->state->clear_stencil);
	finish(ctx, &plan);
}

/*
 * The checks every glClearBuffer* shares (section 4.2.3, "Errors"): buffer
 * one of those the variant takes (GL_INVALID_ENUM); drawbuffer a draw
 * buffer for GL_COLOR, 0 otherwise (GL_INVALID_VALUE); then a complete
 * draw framebuffer.  False when the clear stops.
 */
static bool clear_buffer_begin(struct gles_context *ctx, GLenum buffer, GLint drawbuffer, GLenum a,
			       GLenum b)
{
	if (buffer != a && buffer != b) {
		gles_error(ctx, GL_INVALID_ENUM);
		return false;
	}
	if (buffer == GL_COLOR ? drawbuffer < 0 || drawbuffer >= GLES_MAX_DRAW_BUFFERS
			       : drawbuffer != 0) {
		gles_error(ctx, GL_INVALID_VALUE);
		return false;
	}
	return draw_framebuffer_complete(ctx) && !ctx->state->rasterizer_discard &&
	       !ctx->state->blackhole_render;
}

void gles_ClearBufferiv(GLenum buffer, GLint drawbuffer, const GLint *value)
{
	struct gles_context *ctx = gles_current();
	struct plan plan = { 0 };

	if (!ctx || !clear_buffer_begin(ctx, buffer, drawbuffer, GL_COLOR, GL_STENCIL))
		return;
	if (buffer == GL_COLOR)
		clear_color_buffer(ctx, &plan, (unsigned)drawbuffer, VALUE_INT, value);
	else
		clear_depth_stencil(ctx, &plan, false, 0, true, value[0]);
	finish(ctx, &plan);
}

void gles_ClearBufferuiv(GLenum buffer, GLint drawbuffer, const GLuint *value)
{
	struct gles_context *ctx = gles_current();
	struct plan plan = { 0 };

	if (!ctx || !clear_buffer_begin(ctx, buffer, drawbuffer, GL_COLOR, GL_COLOR))
		return;
	clear_color_buffer(ctx, &plan, (unsigned)drawbuffer, VALUE_UINT, value);
	finish(ctx, &plan);
}

void gles_ClearBufferfv(GLenum buffer, GLint drawbuffer, const GLfloat *value)
{
	struct gles_context *ctx = gles_current();
	struct plan plan = { 0 };

	if (!ctx || !clear_buffer_begin(ctx, buffer, drawbuffer, GL_COLOR, GL_DEPTH))
		return;
	if (buffer == GL_COLOR)
		clear_color_buffer(ctx, &plan, (unsigned)drawbuffer, VALUE_FLOAT, value);
	else
		clear_depth_stencil(ctx, &plan, true, value[0], false, 0);
	finish(ctx, &plan);
}

void gles_ClearBufferfi(GLenum buffer, GLint drawbuffer, GLfloat depth, GLint stencil)
{
	struct gles_context *ctx = gles_current();
	struct plan plan = { 0 };

	if (!ctx ||
	    !clear_buffer_begin(ctx, buffer, drawbuffer, GL_DEPTH_STENCIL, GL_DEPTH_STENCIL))
		return;
	clear_depth_stencil(ctx, &plan, true, depth, true, stencil);
	finish(ctx, &plan);
}
