/*
 * state.c: the per-context fixed-function state vector (state.h), its
 * initial values (GLES 3.0.6 tables 6.4-6.19), the GL entry points that
 * set it with the errors of their sections, and its part of glGet* and
 * glIsEnabled.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "context.h"
#include "extensions.h"
#include "get.h"
#include "gl_functions.h"
#include "state.h"

/* The context, if the call may go on: one is current. */
static struct gles_context *current(void)
{
	return gles_current();
}

static GLfloat clamp01(GLfloat x)
{
	/* NaN becomes 0: the spec leaves it undefined, and 0 is in range */
	return x > 1.0f ? 1.0f : x >= 0.0f ? x : 0.0f;
}

/* ---- initial values --------------------------------------------------------------------- */

static void init_stencil(struct gles_stencil_face *s)
{
	s->func = GL_ALWAYS;
	s->ref = 0;
	s->value_mask = ~0u;
	s->write_mask = ~0u;
	s->fail = GL_KEEP;
	s->depth_fail = GL_KEEP;
	s->depth_pass = GL_KEEP;
}

int gles_state_init(struct gles_context *ctx)
{
	struct gles_state *s = calloc(1, sizeof(*s));

	if (!s)
		return -ENOMEM;
	/* calloc: every enable false, colours, offsets, viewport and pixel skips 0 */
	s->dither = true;
	s->blend_equation_rgb = GL_FUNC_ADD;
	s->blend_equation_alpha = GL_FUNC_ADD;
	s->blend_src_rgb = GL_ONE;
	s->blend_src_alpha = GL_ONE;
	s->blend_dst_rgb = GL_ZERO;
	s->blend_dst_alpha = GL_ZERO;
	for (unsigned c = 0; c < 4; c++)
		s->color_mask[c] = true;
	s->depth_func = GL_LESS;
	s->depth_mask = true;
	s->depth_range[1] = 1.0f;
	init_stencil(&s->stencil[0]);
	init_stencil(&s->stencil[1]);
	s->clear_depth = 1.0f;
	s->line_width = 1.0f;
	s->sample_coverage_value = 1.0f;
	s->cull_face_mode = GL_BACK;
	s->front_face = GL_CCW;
	s->generate_mipmap_hint = GL_DONT_CARE;
	s->fragment_shader_derivative_hint = GL_DONT_CARE;
	s->pack.alignment = 4;
	s->unpack.alignment = 4;
	for (unsigned a = 0; a < GLES_MAX_VERTEX_ATTRIBS; a++) {
		s->current_attrib[a].type = GLES_ATTRIB_FLOAT;
		s->current_attrib[a].f[3] = 1.0f;
	}
	if (gles_query_init(&s->queries) < 0)
		goto fail_queries;
	if (gles_xfb_init(&s->xfb) < 0)
		goto fail_xfb;
	ctx->state = s;
	return 0;

fail_xfb:
	gles_query_finish(&s->queries);
fail_queries:
	free(s);
	return -ENOMEM;
}

void gles_state_finish(struct gles_context *ctx)
{
	if (!ctx->state)
		return;
	gles_xfb_finish(&ctx->state->xfb);
	gles_query_finish(&ctx->state->queries);
	free(ctx->state);
	ctx->state = NULL;
}

void gles_state_bind_drawable(struct gles_context *ctx, const struct gles_drawable *draw)
{
	struct gles_state *s = ctx->state;

	if (!draw || s->sized_to_surface)
		return;
	s->viewport[0] = s->viewport[1] = 0;
	s->viewport[2] =
	    (GLint)(draw->width < GLES_MAX_VIEWPORT_WIDTH ? draw->width : GLES_MAX_VIEWPORT_WIDTH);
	s->viewport[3] =
	    (GLint)(draw->height < GLES_MAX_VIEWPORT_HEIGHT ? draw->height
							    : GLES_MAX_VIEWPORT_HEIGHT);
	s->scissor[0] = s->scissor[1] = 0;
	s->scissor[2] = (GLint)draw->width;
	s->scissor[3] = (GLint)draw->height;
	s->sized_to_surface = true;
	ctx->dirty |= GLES_DIRTY_VIEWPORT | GLES_DIRTY_SCISSOR;
}

const struct gles_current_attrib *gles_state_current_attrib(const struct gles_context *ctx,
							    unsigned index)
{
	return index < GLES_MAX_VERTEX_ATTRIBS ? &ctx->state->current_attrib[index] : NULL;
}

/* ---- enables ---------------------------------------------------------------------------- */

/* The flag of capability cap (section 2.1 lists them), NULL if none. */
static bool *capability(struct gles_state *s, GLenum cap)
{
	switch (cap) {
	case GL_BLEND:
		return &s->blend;
	case GL_CULL_FACE:
		return &s->cull_face;
	case GL_DEPTH_TEST:
		return &s->depth_test;
	case GL_DITHER:
		return &s->dither;
	case GL_POLYGON_OFFSET_FILL:
		return &s->polygon_offset_fill;
	case GL_SAMPLE_ALPHA_TO_COVERAGE:
		return &s->sample_alpha_to_coverage;
	case GL_SAMPLE_COVERAGE:
		return &s->sample_coverage;
	case GL_SCISSOR_TEST:
		return &s->scissor_test;
	case GL_STENCIL_TEST:
		return &s->stencil_test;
	case GL_PRIMITIVE_RESTART_FIXED_INDEX:
		return &s->primitive_restart_fixed_index;
	case GL_RASTERIZER_DISCARD:
		return &s->rasterizer_discard;
	case GL_BLACKHOLE_RENDER_INTEL:
		return &s->blackhole_render;
	default:
		if (cap >= GL_CLIP_DISTANCE0_APPLE &&
		    cap - GL_CLIP_DISTANCE0_APPLE < GLES_MAX_CLIP_DISTANCES)
			return &s->clip_distance[cap - GL_CLIP_DISTANCE0_APPLE];
		return NULL;
	}
}

/*
 * The state groups a capability is part of (context.h's GLES_DIRTY_*):
 * every one is in the fragment key's, as the key reads enables.
 */
static unsigned capability_dirty(GLenum cap)
{
	switch (cap) {
	case GL_CULL_FACE:
	case GL_POLYGON_OFFSET_FILL:
	case GL_RASTERIZER_DISCARD:
		return GLES_DIRTY_FRAGMENT_KEY | GLES_DIRTY_RASTER;
	case GL_DEPTH_TEST:
	case GL_STENCIL_TEST:
		return GLES_DIRTY_FRAGMENT_KEY | GLES_DIRTY_ZS;
	case GL_SCISSOR_TEST:
		return GLES_DIRTY_FRAGMENT_KEY | GLES_DIRTY_SCISSOR;
	default:
		return GLES_DIRTY_FRAGMENT_KEY;
	}
}

static void set_capability(GLenum cap, bool value)
{
	struct gles_context *ctx = current();
	bool *flag;

	if (!ctx || gles_debug_enable(ctx, cap, value))
		return;
	flag = capability(ctx->state, cap);
	if (!flag) {
		gles_error(ctx, GL_INVALID_ENUM);
		return;
	}
	*flag = value;
	ctx->dirty |= capability_dirty(cap);
}

void gles_Enable(GLenum cap)
{
	set_capability(cap, true);
}

void gles_Disable(GLenum cap)
{
	set_capability(cap, false);
}

bool gles_state_is_enabled(const struct gles_context *ctx, GLenum cap, bool *value)
{
	bool *flag = capability(ctx->state, cap);

	if (!flag)
		return gles_debug_is_enabled(ctx, cap, value); /* KHR_debug's (debug.c) */
	*value = *flag;
	return true;
}

/* ---- blending (section 4.1.7) ----------------------------------------------------------- */

static bool blend_equation_valid(GLenum mode)
{
	switch (mode) {
	case GL_FUNC_ADD:
	case GL_FUNC_SUBTRACT:
	case GL_FUNC_REVERSE_SUBTRACT:
	case GL_MIN:
	case GL_MAX:
		return true;
	default:
		return false;
	}
}

/*
 * Table 4.2: every factor is valid for source and destination; so are
 * EXT_blend_func_extended's second-source ones.
 */
static bool blend_factor_valid(GLenum factor)
{
	switch (factor) {
	case GL_SRC1_COLOR_EXT:
	case GL_ONE_MINUS_SRC1_COLOR_EXT:
	case GL_SRC1_ALPHA_EXT:
	case GL_ONE_MINUS_SRC1_ALPHA_EXT:
	case GL_ZERO:
	case GL_ONE:
	case GL_SRC_COLOR:
	case GL_ONE_MINUS_SRC_COLOR:
	case GL_DST_COLOR:
	case GL_ONE_MINUS_DST_COLOR:
	case GL_SRC_ALPHA:
	case GL_ONE_MINUS_SRC_ALPHA:
	case GL_DST_ALPHA:
	case GL_ONE_MINUS_DST_ALPHA:
	case GL_CONSTANT_COLOR:
	case GL_ONE_MINUS_CONSTANT_COLOR:
	case GL_CONSTANT_ALPHA:
	case GL_ONE_MINUS_CONSTANT_ALPHA:
	case GL_SRC_ALPHA_SATURATE:
		return true;
	default:
		return false;
	}
}

void gles_BlendColor(GLfloat red, GLfloat green, GLfloat blue, GLfloat alpha)
{
	struct gles_context *ctx = current();

	if (!ctx)
		return;
	ctx->state->blend_color[0] = red;
	ctx->state->blend_color[1] = green;
	ctx->state->blend_color[2] = blue;
	ctx->state->blend_color[3] = alpha;
}

void gles_BlendEquationSeparate(GLenum modeRGB, GLenum modeAlpha)
{
	struct gles_context *ctx = current();

	if (!ctx)
		return;
	if (!blend_equation_valid(modeRGB) || !blend_equation_valid(modeAlpha)) {
		gles_error(ctx, GL_INVALID_ENUM);
		return;
	}
	ctx->state->blend_equation_rgb = modeRGB;
	ctx->state->blend_equation_alpha = modeAlpha;
	ctx->dirty |= GLES_DIRTY_FRAGMENT_KEY;
}

void gles_BlendEquation(GLenum mode)
{
	gles_BlendEquationSeparate(mode, mode);
}

void gles_BlendFuncSeparate(GLenum srcRGB, GLenum dstRGB, GLenum srcAlpha, GLenum dstAlpha)
{
	struct gles_context *ctx = current();
	struct gles_state *s;

	if (!ctx)
		return;
	if (!blend_factor_valid(srcRGB) || !blend_factor_valid(dstRGB) ||
	    !blend_factor_valid(srcAlpha) || !blend_factor_valid(dstAlpha)) {
		gles_error(ctx, GL_INVALID_ENUM);
		return;
	}
	s = ctx->state;
	s->blend_src_rgb = srcRGB;
	s->blend_dst_rgb = dstRGB;
	s->blend_src_alpha = srcAlpha;
	s->blend_dst_alpha = dstAlpha;
	ctx->dirty |= GLES_DIRTY_FRAGMENT_KEY;
}

void gles_BlendFunc(GLenum sfactor, GLenum dfactor)
{
	gles_BlendFuncSeparate(sfactor, dfactor, sfactor, dfactor);
}

/* ---- masks, depth, stencil (sections 4.1.4, 4.1.5, 4.2.2) --------------------------------- */

void gles_ColorMask(GLboolean red, GLboolean green, GLboolean blue, GLboolean alpha)
{
	struct gles_context *ctx = current();

	if (!ctx)
		return;
	ctx->state->color_mask[0] = red != GL_FALSE;
	ctx->state->color_mask[1] = green != GL_FALSE;
	ctx->state->color_mask[2] = blue != GL_FALSE;
	ctx->state->color_mask[3] = alpha != GL_FALSE;
	ctx->dirty |= GLES_DIRTY_FRAGMENT_KEY;
}

static bool compare_func_valid(GLenum func)
{
	return func >= GL_NEVER && func <= GL_ALWAYS; /* the eight are consecutive, 0x0200.. */
}

void gles_DepthFunc(GLenum func)
{
	struct gles_context *ctx = current();

	if (!ctx)
		return;
	if (!compare_func_valid(func)) {
		gles_error(ctx, GL_INVALID_ENUM);
		return;
	}
	ctx->state->depth_func = func;
	ctx->dirty |= GLES_DIRTY_ZS;
}

void gles_DepthMask(GLboolean flag)
{
	struct gles_context *ctx = current();

	if (!ctx)
		return;
	ctx->state->depth_mask = flag != GL_FALSE;
	ctx->dirty |= GLES_DIRTY_ZS;
}

void gles_DepthRangef(GLfloat n, GLfloat f)
{
	struct gles_context *ctx = current();

	if (!ctx)
		return;
	/* Section 2.12.1: each is clamped to [0, 1] */
	ctx->state->depth_range[0] = clamp01(n);
	ctx->state->depth_range[1] = clamp01(f);
	ctx->dirty |= GLES_DIRTY_VIEWPORT;
}

/* The faces a face argument names: bit 0 front, bit 1 back; 0 if it names none. */
static unsigned faces(GLenum face)
{
	switch (face) {
	case GL_FRONT:
		return 1;
	case GL_BACK:
		return 2;
	case GL_FRONT_AND_BACK:
		return 3;
	default:
		return 0;
	}
}

void gles_StencilFuncSeparate(GLenum face, GLenum func, GLint ref, GLuint mask)
{
	struct gles_context *ctx = current();
	unsigned which = faces(face);

	if (!ctx)
		return;
	if (!which || !compare_func_valid(func)) {
		gles_error(ctx, GL_INVALID_ENUM);
		return;
	}
	for (unsigned k = 0; k < 2; k++) {
		if (!(which & (1u << k)))
			continue;
		ctx->state->stencil[k].func = func;
		ctx->state->stencil[k].ref = ref;
		ctx->state->stencil[k].value_mask = mask;
	}
	ctx->dirty |= GLES_DIRTY_ZS;
}

void gles_StencilFunc(GLenum func, GLint ref, GLuint mask)
{
	gles_StencilFuncSeparate(GL_FRONT_AND_BACK, func, ref, mask);
}

void gles_StencilMaskSeparate(GLenum face, GLuint mask)
{
	struct gles_context *ctx = current();
	unsigned which = faces(face);

	if (!ctx)
		return;
	if (!which) {
		gles_error(ctx, GL_INVALID_ENUM);
		return;
	}
	for (unsigned k = 0; k < 2; k++)
		if (which & (1u << k))
			ctx->state->stencil[k].write_mask = mask;
	ctx->dirty |= GLES_DIRTY_ZS;
}

void gles_StencilMask(GLuint mask)
{
	gles_StencilMaskSeparate(GL_FRONT_AND_BACK, mask);
}

static bool stencil_op_valid(GLenum op)
{
	switch (op) {
	case GL_KEEP:
	case GL_ZERO:
	case GL_REPLACE:
	case GL_INCR:
	case GL_DECR:
	case GL_INVERT:
	case GL_INCR_WRAP:
	case GL_DECR_WRAP:
		return true;
	default:
		return false;
	}
}

void gles_StencilOpSeparate(GLenum face, GLenum sfail, GLenum dpfail, GLenum dppass)
{
	struct gles_context *ctx = current();
	unsigned which = faces(face);

	if (!ctx)
		return;
	if (!which || !stencil_op_valid(sfail) || !stencil_op_valid(dpfail) ||
	    !stencil_op_valid(dppass)) {
		gles_error(ctx, GL_INVALID_ENUM);
		return;
	}
	for (unsigned k = 0; k < 2; k++) {
		if (!(which & (1u << k)))
			continue;
		ctx->state->stencil[k].fail = sfail;
		ctx->state->stencil[k].depth_fail = dpfail;
		ctx->state->stencil[k].depth_pass = dppass;
	}
	ctx->dirty |= GLES_DIRTY_ZS;
}

void gles_StencilOp(GLenum fail, GLenum zfail, GLenum zpass)
{
	gles_StencilOpSeparate(GL_FRONT_AND_BACK, fail, zfail, zpass);
}

/* ---- clear values (section 4.2.3) ------------------------------------------------------- */

void gles_ClearColor(GLfloat red, GLfloat green, GLfloat blue, GLfloat alpha)
{
	struct gles_context *ctx = current();

	if (!ctx)
		return;
	/*
	 * Stored as given: ES 3.0 has floating-point and integer colour
	 * buffers; a clear of a normalized one clamps (section 4.2.3).
	 */
	ctx->state->clear_color[0] = red;
	ctx->state->clear_color[1] = green;
	ctx->state->clear_color[2] = blue;
	ctx->state->clear_color[3] = alpha;
}

void gles_ClearDepthf(GLfloat d)
{
	struct gles_context *ctx = current();

	if (ctx)
		ctx->state->clear_depth = clamp01(d);
}

void gles_ClearStencil(GLint s)
{
	struct gles_context *ctx = current();

	if (ctx)
		ctx->state->clear_stencil = s;
}

/* ---- viewport, scissor, rasterization (sections 2.12.1, 3.4-3.6, 4.1.2) ----------------- */

void gles_Viewport(GLint x, GLint y, GLsizei width, GLsizei height)
{
	struct gles_context *ctx = current();
	struct gles_state *s;

	if (!ctx)
		return;
	if (width < 0 || height < 0) {
		gles_error(ctx, GL_INVALID_VALUE);
		return;
	}
	s = ctx->state;
	/* Section 2.12.1: the width and height are clamped to MAX_VIEWPORT_DIMS */
	s->viewport[0] = x;
	s->viewport[1] = y;
	s->viewport[2] = width < GLES_MAX_VIEWPORT_WIDTH ? width : GLES_MAX_VIEWPORT_WIDTH;
	s->viewport[3] = height < GLES_MAX_VIEWPORT_HEIGHT ? height : GLES_MAX_VIEWPORT_HEIGHT;
	ctx->dirty |= GLES_DIRTY_VIEWPORT;
}

void gles_Scissor(GLint x, GLint y, GLsizei width, GLsizei height)
{
	struct gles_context *ctx = current();

	if (!ctx)
		return;
	if (width < 0 || height < 0) {
		gles_error(ctx, GL_INVALID_VALUE);
		return;
	}
	ctx->state->scissor[0] = x;
	ctx->state->scissor[1] = y;
	ctx->state->scissor[2] = width;
	ctx->state->scissor[3] = height;
	ctx->dirty |= GLES_DIRTY_SCISSOR;
}

void gles_PolygonOffset(GLfloat factor, GLfloat units)
{
	struct gles_context *ctx = current();

	if (!ctx)
		return;
	ctx->state->polygon_offset_factor = factor;
	ctx->state->polygon_offset_units = units;
	ctx->state->polygon_offset_clamp = 0;
	ctx->dirty |= GLES_DIRTY_RASTER;
}

/* EXT_polygon_offset_clamp: glPolygonOffset with the offset's magnitude bounded by |clamp|. */
void gles_PolygonOffsetClampEXT(GLfloat factor, GLfloat units, GLfloat clamp)
{
	struct gles_context *ctx = current();

	if (!ctx)
		return;
	ctx->state->polygon_offset_factor = factor;
	ctx->state->polygon_offset_units = units;
	ctx->state->polygon_offset_clamp = clamp;
	ctx->dirty |= GLES_DIRTY_RASTER;
}

void gles_LineWidth(GLfloat width)
{
	struct gles_context *ctx = current();

	if (!ctx)
		return;
	/* Section 3.5: "LineWidth... width less than or equal to zero": INVALID_VALUE (and NaN) */
	if (!(width > 0.0f)) {
		gles_error(ctx, GL_INVALID_VALUE);
		return;
	}
	ctx->state->line_width = width;
	ctx->dirty |= GLES_DIRTY_RASTER;
}

void gles_SampleCoverage(GLfloat value, GLboolean invert)
{
	struct gles_context *ctx = current();

	if (!ctx)
		return;
	ctx->state->sample_coverage_value = clamp01(value);
	ctx->state->sample_coverage_invert = invert != GL_FALSE;
	ctx->dirty |= GLES_DIRTY_FRAGMENT_KEY;
}

void gles_CullFace(GLenum mode)
{
	struct gles_context *ctx = current();

	if (!ctx)
		return;
	if (!faces(mode)) {
		gles_error(ctx, GL_INVALID_ENUM);
		return;
	}
	ctx->state->cull_face_mode = mode;
	ctx->dirty |= GLES_DIRTY_RASTER;
}

void gles_FrontFace(GLenum mode)
{
	struct gles_context *ctx = current();

	if (!ctx)
		return;
	if (mode != GL_CW && mode != GL_CCW) {
		gles_error(ctx, GL_INVALID_ENUM);
		return;
	}
	ctx->state->front_face = mode;
	ctx->dirty |= GLES_DIRTY_RASTER;
}

void gles_Hint(GLenum target, GLenum mode)
{
	struct gles_context *ctx = current();
	GLenum *hint;

	if (!ctx)
		return;
	switch (target) {
	case GL_GENERATE_MIPMAP_HINT:
		hint = &ctx->state->generate_mipmap_hint;
		break;
	case GL_FRAGMENT_SHADER_DERIVATIVE_HINT:
		hint = &ctx->state->fragment_shader_derivative_hint;
		break;
	default:
		gles_error(ctx, GL_INVALID_ENUM);
		return;
	}
	if (mode != GL_FASTEST && mode != GL_NICEST && mode != GL_DONT_CARE) {
		gles_error(ctx, GL_INVALID_ENUM);
		return;
	}
	*hint = mode;
}

/* ---- pixel storage (section 3.7.1, table 3.1) -------------------------------------------- */

void gles_PixelStorei(GLenum pname, GLint param)
{
	struct gles_context *ctx = current();
	struct gles_state *s;
	GLint *value;
	bool alignment = false;

	if (!ctx)
		return;
	s = ctx->state;
	switch (pname) {
	case GL_PACK_ALIGNMENT:
		value = &s->pack.alignment;
		alignment = true;
		break;
	case GL_UNPACK_ALIGNMENT:
		value = &s->unpack.alignment;
		alignment = true;
		break;
	case GL_PACK_ROW_LENGTH:
		value = &s->pack.row_length;
		break;
	case GL_PACK_SKIP_ROWS:
		value = &s->pack.skip_rows;
		break;
	case GL_PACK_SKIP_PIXELS:
		value = &s->pack.skip_pixels;
		break;
	case GL_UNPACK_ROW_LENGTH:
		value = &s->unpack.row_length;
		break;
	case GL_UNPACK_IMAGE_HEIGHT:
		value = &s->unpack.image_height;
		break;
	case GL_UNPACK_SKIP_ROWS:
		value = &s->unpack.skip_rows;
		break;
	case GL_UNPACK_SKIP_PIXELS:
		value = &s->unpack.skip_pixels;
		break;
	case GL_UNPACK_SKIP_IMAGES:
		value = &s->unpack.skip_images;
		break;
	default:
		value = NULL;
		break;
	}
	if (!value) {
		gles_error(ctx, GL_INVALID_ENUM);
		return;
	}
	/* Table 3.1: alignments 1, 2, 4 or 8; the others at least 0 */
	if (alignment ? !(param == 1 || param == 2 || param == 4 || param == 8) : param < 0) {
		gles_error(ctx, GL_INVALID_VALUE);
		return;
	}
	*value = param;
}

/* ---- texture units (section 3.8) --------------------------------------------------------- */

void gles_ActiveTexture(GLenum texture)
{
	struct gles_context *ctx = current();

	if (!ctx)
		return;
	if (texture < GL_TEXTURE0 ||
	    texture - GL_TEXTURE0 >= GLES_MAX_COMBINED_TEXTURE_IMAGE_UNITS) {
		gles_error(ctx, GL_INVALID_ENUM);
		return;
	}
	ctx->state->active_texture = texture - GL_TEXTURE0;
}

/* ---- current vertex attributes (section 2.8) --------------------------------------------- */

static void set_attrib_f(struct gles_context *ctx, GLuint index, GLfloat x, GLfloat y, GLfloat z,
			 GLfloat w)
{
	struct gles_current_attrib *a;

	if (index >= GLES_MAX_VERTEX_ATTRIBS) {
		gles_error(ctx, GL_INVALID_VALUE);
		return;
	}
	a = &ctx->state->current_attrib[index];
	/* a disabled array's type is its current value's (the vertex key) */
	if (a->type != GLES_ATTRIB_FLOAT)
		ctx->dirty |= GLES_DIRTY_VERTEX_KEY;
	a->type = GLES_ATTRIB_FLOAT;
	a->f[0] = x;
	a->f[1] = y;
	a->f[2] = z;
	a->f[3] = w;
}

void gles_VertexAttrib1f(GLuint index, GLfloat x)
{
	struct gles_context *ctx = current();

	if (ctx)
		set_attrib_f(ctx, index, x, 0.0f, 0.0f, 1.0f);
}

void gles_VertexAttrib2f(GLuint index, GLfloat x, GLfloat y)
{
	struct gles_context *ctx = current();

	if (ctx)
		set_attrib_f(ctx, index, x, y, 0.0f, 1.0f);
}

void gles_VertexAttrib3f(GLuint index, GLfloat x, GLfloat y, GLfloat z)
{
	struct gles_context *ctx = current();

	if (ctx)
		set_attrib_f(ctx, index, x, y, z, 1.0f);
}

void gles_VertexAttrib4f(GLuint index, GLfloat x, GLfloat y, GLfloat z, GLfloat w)
{
	struct gles_context *ctx = current();

	if (ctx)
		set_attrib_f(ctx, index, x, y, z, w);
}

/*
 * The v forms read nothing from a NULL pointer: the spec does not say, and
 * reading it would crash; the index is still checked first.
 */
void gles_VertexAttrib1fv(GLuint index, const GLfloat *v)
{
	struct gles_context *ctx = current();

	if (ctx && (v || index >= GLES_MAX_VERTEX_ATTRIBS))
		set_attrib_f(ctx, index, v ? v[0] : 0.0f, 0.0f, 0.0f, 1.0f);
}

void gles_VertexAttrib2fv(GLuint index, const GLfloat *v)
{
	struct gles_context *ctx = current();

	if (ctx && (v || index >= GLES_MAX_VERTEX_ATTRIBS))
		set_attrib_f(ctx, index, v ? v[0] : 0.0f, v ? v[1] : 0.0f, 0.0f, 1.0f);
}

void gles_VertexAttrib3fv(GLuint index, const GLfloat *v)
{
	struct gles_context *ctx = current();

	if (ctx && (v || index >= GLES_MAX_VERTEX_ATTRIBS))
		set_attrib_f(ctx, index, v ? v[0] : 0.0f, v ? v[1] : 0.0f, v ? v[2] : 0.0f, 1.0f);
}

void gles_VertexAttrib4fv(GLuint index, const GLfloat *v)
{
	struct gles_context *ctx = current();

	if (ctx && (v || index >= GLES_MAX_VERTEX_ATTRIBS))
		set_attrib_f(ctx, index, v ? v[0] : 0.0f, v ? v[1] : 0.0f, v ? v[2] : 0.0f,
			     v ? v[3] : 1.0f);
}

static void set_attrib_i(struct gles_context *ctx, GLuint index, enum gles_attrib_type type,
			 const GLint v[4])
{
	struct gles_current_attrib *a;

	if (index >= GLES_MAX_VERTEX_ATTRIBS) {
		gles_error(ctx, GL_INVALID_VALUE);
		return;
	}
	a = &ctx->state->current_attrib[index];
	if (a->type != type)
		ctx->dirty |= GLES_DIRTY_VERTEX_KEY;
	a->type = type;
	memcpy(a->i, v, sizeof(a->i));
}

void gles_VertexAttribI4i(GLuint index, GLint x, GLint y, GLint z, GLint w)
{
	struct gles_context *ctx = current();
	const GLint v[4] = { x, y, z, w };

	if (ctx)
		set_attrib_i(ctx, index, GLES_ATTRIB_INT, v);
}

void gles_VertexAttribI4iv(GLuint index, const GLint *v)
{
	struct gles_context *ctx = current();
	const GLint zero[4] = { 0, 0, 0, 0 };

	if (ctx && (v || index >= GLES_MAX_VERTEX_ATTRIBS))
		set_attrib_i(ctx, index, GLES_ATTRIB_INT, v ? v : zero);
}

void gles_VertexAttribI4ui(GLuint index, GLuint x, GLuint y, GLuint z, GLuint w)
{
	struct gles_context *ctx = current();
	const GLint v[4] = { (GLint)x, (GLint)y, (GLint)z, (GLint)w };

	if (ctx)
		set_attrib_i(ctx, index, GLES_ATTRIB_UINT, v);
}

void gles_VertexAttribI4uiv(GLuint index, const GLuint *v)
{
	struct gles_context *ctx = current();
	GLint c[4] = { 0, 0, 0, 0 };

	if (!ctx || (!v && index < GLES_MAX_VERTEX_ATTRIBS))
		return;
	if (v)
		memcpy(c, v, sizeof(c));
	set_attrib_i(ctx, index, GLES_ATTRIB_UINT, c);
}

/* ---- queries ------------------------------------------------------------------------------ */

static void get_stencil(const struct gles_stencil_face *f, GLenum what, struct gles_get_value *out)
{
	switch (what) {
	case GL_STENCIL_FUNC:
		gles_get_set_enum(out, f->func);
		break;
	case GL_STENCIL_REF:
		gles_get_set_int(out, f->ref);
		break;
	case GL_STENCIL_VALUE_MASK:
		gles_get_set_uint(out, f->value_mask);
		break;
	case GL_STENCIL_WRITEMASK:
		gles_get_set_uint(out, f->write_mask);
		break;
	case GL_STENCIL_FAIL:
		gles_get_set_enum(out, f->fail);
		break;
	case GL_STENCIL_PASS_DEPTH_FAIL:
		gles_get_set_enum(out, f->depth_fail);
		break;
	default: /* GL_STENCIL_PASS_DEPTH_PASS */
		gles_get_set_enum(out, f->depth_pass);
		break;
	}
}

bool gles_state_get(struct gles_context *ctx, GLenum pname, int index, struct gles_get_value *out)
{
	const struct gles_state *s = ctx->state;
	bool enabled;

	if (index >= 0)
		return false;
	/* The capabilities are booleans of the state tables too (table 6.5 and others) */
	if (gles_state_is_enabled(ctx, pname, &enabled)) {
		gles_get_set_bool(out, enabled);
		return true;
	}
	switch (pname) {
	case GL_BLEND_COLOR:
		gles_get_set_floats(out, GLES_GET_NORM, 4, s->blend_color);
		return true;
	case GL_BLEND_EQUATION_RGB: /* also GL_BLEND_EQUATION: the same value */
		gles_get_set_enum(out, s->blend_equation_rgb);
		return true;
	case GL_BLEND_EQUATION_ALPHA:
		gles_get_set_enum(out, s->blend_equation_alpha);
		return true;
	case GL_BLEND_SRC_RGB:
		gles_get_set_enum(out, s->blend_src_rgb);
		return true;
	case GL_BLEND_DST_RGB:
		gles_get_set_enum(out, s->blend_dst_rgb);
		return true;
	case GL_BLEND_SRC_ALPHA:
		gles_get_set_enum(out, s->blend_src_alpha);
		return true;
	case GL_BLEND_DST_ALPHA:
		gles_get_set_enum(out, s->blend_dst_alpha);
		return true;
	case GL_COLOR_WRITEMASK:
		out->type = GLES_GET_BOOL;
		out->count = 4;
		for (unsigned c = 0; c < 4; c++)
			out->b[c] = s->color_mask[c];
		return true;
	case GL_DEPTH_FUNC:
		gles_get_set_enum(out, s->depth_func);
		return true;
	case GL_DEPTH_WRITEMASK:
		gles_get_set_bool(out, s->depth_mask);
		return true;
	case GL_DEPTH_RANGE:
		gles_get_set_floats(out, GLES_GET_NORM, 2, s->depth_range);
		return true;
	case GL_STENCIL_FUNC:
	case GL_STENCIL_REF:
	case GL_STENCIL_VALUE_MASK:
	case GL_STENCIL_WRITEMASK:
	case GL_STENCIL_FAIL:
	case GL_STENCIL_PASS_DEPTH_FAIL:
	case GL_STENCIL_PASS_DEPTH_PASS:
		get_stencil(&s->stencil[0], pname, out);
		return true;
	case GL_STENCIL_BACK_FUNC:
		get_stencil(&s->stencil[1], GL_STENCIL_FUNC, out);
		return true;
	case GL_STENCIL_BACK_REF:
		get_stencil(&s->stencil[1], GL_STENCIL_REF, out);
		return true;
	case GL_STENCIL_BACK_VALUE_MASK:
		get_stencil(&s->stencil[1], GL_STENCIL_VALUE_MASK, out);
		return true;
	case GL_STENCIL_BACK_WRITEMASK:
		get_stencil(&s->stencil[1], GL_STENCIL_WRITEMASK, out);
		return true;
	case GL_STENCIL_BACK_FAIL:
		get_stencil(&s->stencil[1], GL_STENCIL_FAIL, out);
		return true;
	case GL_STENCIL_BACK_PASS_DEPTH_FAIL:
		get_stencil(&s->stencil[1], GL_STENCIL_PASS_DEPTH_FAIL, out);
		return true;
	case GL_STENCIL_BACK_PASS_DEPTH_PASS:
		get_stencil(&s->stencil[1], GL_STENCIL_PASS_DEPTH_PASS, out);
		return true;
	case GL_COLOR_CLEAR_VALUE:
		gles_get_set_floats(out, GLES_GET_NORM, 4, s->clear_color);
		return true;
	case GL_DEPTH_CLEAR_VALUE:
		gles_get_set_floats(out, GLES_GET_NORM, 1, &s->clear_depth);
		return true;
	case GL_STENCIL_CLEAR_VALUE:
		gles_get_set_int(out, s->clear_stencil);
		return true;
	case GL_VIEWPORT:
		gles_get_set_ints(out, GLES_GET_INT, 4, s->viewport);
		return true;
	case GL_SCISSOR_BOX:
		gles_get_set_ints(out, GLES_GET_INT, 4, s->scissor);
		return true;
	case GL_POLYGON_OFFSET_FACTOR:
		gles_get_set_float(out, s->polygon_offset_factor);
		return true;
	case GL_POLYGON_OFFSET_UNITS:
		gles_get_set_float(out, s->polygon_offset_units);
		return true;
	case GL_POLYGON_OFFSET_CLAMP_EXT:
		gles_get_set_float(out, s->polygon_offset_clamp);
		return true;
	case GL_LINE_WIDTH:
		gles_get_set_float(out, s->line_width);
		return true;
	case GL_SAMPLE_COVERAGE_VALUE:
		gles_get_set_float(out, s->sample_coverage_value);
		return true;
	case GL_SAMPLE_COVERAGE_INVERT:
		gles_get_set_bool(out, s->sample_coverage_invert);
		return true;
	case GL_CULL_FACE_MODE:
		gles_get_set_enum(out, s->cull_face_mode);
		return true;
	case GL_FRONT_FACE:
		gles_get_set_enum(out, s->front_face);
		return true;
	case GL_GENERATE_MIPMAP_HINT:
		gles_get_set_enum(out, s->generate_mipmap_hint);
		return true;
	case GL_FRAGMENT_SHADER_DERIVATIVE_HINT:
		gles_get_set_enum(out, s->fragment_shader_derivative_hint);
		return true;
	case GL_PACK_ALIGNMENT:
		gles_get_set_int(out, s->pack.alignment);
		return true;
	case GL_PACK_ROW_LENGTH:
		gles_get_set_int(out, s->pack.row_length);
		return true;
	case GL_PACK_SKIP_ROWS:
		gles_get_set_int(out, s->pack.skip_rows);
		return true;
	case GL_PACK_SKIP_PIXELS:
		gles_get_set_int(out, s->pack.skip_pixels);
		return true;
	case GL_UNPACK_ALIGNMENT:
		gles_get_set_int(out, s->unpack.alignment);
		return true;
	case GL_UNPACK_ROW_LENGTH:
		gles_get_set_int(out, s->unpack.row_length);
		return true;
	case GL_UNPACK_IMAGE_HEIGHT:
		gles_get_set_int(out, s->unpack.image_height);
		return true;
	case GL_UNPACK_SKIP_ROWS:
		gles_get_set_int(out, s->unpack.skip_rows);
		return true;
	case GL_UNPACK_SKIP_PIXELS:
		gles_get_set_int(out, s->unpack.skip_pixels);
		return true;
	case GL_UNPACK_SKIP_IMAGES:
		gles_get_set_int(out, s->unpack.skip_images);
		return true;
	case GL_ACTIVE_TEXTURE:
		gles_get_set_enum(out, GL_TEXTURE0 + s->active_texture);
		return true;
	default:
		return false;
	}
}
