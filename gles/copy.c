/*
 * copy.c: copies out of the framebuffer -- glCopyTexImage2D,
 * glCopyTexSubImage2D and glCopyTexSubImage3D (GLES 3.0.6 section 3.8.5)
 * from the read framebuffer's read buffer into a texture level, and
 * glBlitFramebuffer (section 4.3.3) from the read framebuffer to every
 * draw buffer, depth and stencil of the draw framebuffer.
 *
 * Both run on the CPU, as glReadPixels and the texture uploads do: the
 * GPU work that wrote the source, or may read or write the destination,
 * is submitted and waited for first (settle()), and the next draw's pass
 * reloads what was written here.  Texels are converted through
 * agx/format.h's unpack and pack: copies keep sRGB values as stored (both
 * ends must be sRGB or neither), blits decode an sRGB source and encode
 * into an sRGB draw buffer (sections 4.3.3 and 4.1.8).  Source pixels
 * outside the read framebuffer are undefined: nothing is written for them.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "context.h"
#include "gl_functions.h"
#include "objects.h"
#include "state.h"
#include "submit.h"

/*
 * The CPU is about to touch img: the GPU work that may use it has run.  A
 * drawable's image (no device of its own) is used by this context alone;
 * a texture's or renderbuffer's by any context of the share group.
 */
static int settle(struct gles_context *ctx, const struct gles_image *img)
{
	if (!img->dev)
		return gles_submit_wait(ctx);
	gles_submit_cpu_access(img->dev, &img->bo);
	return 0;
}

/* ---- one texel from one format to another ---------------------------------------------- */

/* Unpacked texel values: colour as floats or integers, depth in f[0], stencil in u[0]. */
union texel_value {
	float f[4];
	uint32_t u[4];
	int32_t i[4];
};

static void unpack(enum agx_format hw, const uint8_t *texel, union texel_value *v)
{
	const struct agx_format_info *info = agx_format_info(hw);

	memset(v, 0, sizeof(*v));
	switch (info->kind) {
	case AGX_FORMAT_KIND_UINT:
		agx_format_unpack_uint(hw, texel, v->u);
		break;
	case AGX_FORMAT_KIND_SINT:
		agx_format_unpack_sint(hw, texel, v->i);
		break;
	case AGX_FORMAT_KIND_DEPTH:
		agx_format_unpack_depth(hw, texel, &v->f[0]);
		break;
	case AGX_FORMAT_KIND_STENCIL:
		agx_format_unpack_stencil(hw, texel, &v->u[0]);
		break;
	default:
		agx_format_unpack_float(hw, texel, v->f);
		break;
	}
}

/* The texel of v in hw, in place: the value classes of both ends already match. */
static void pack(enum agx_format hw, const union texel_value *v, uint8_t *texel)
{
	switch (agx_format_info(hw)->kind) {
	case AGX_FORMAT_KIND_UINT:
		agx_format_pack_uint(hw, v->u, texel);
		break;
	case AGX_FORMAT_KIND_SINT:
		agx_format_pack_sint(hw, v->i, texel);
		break;
	case AGX_FORMAT_KIND_DEPTH:
		agx_format_pack_depth(hw, v->f[0], texel);
		break;
	case AGX_FORMAT_KIND_STENCIL:
		agx_format_pack_stencil(hw, v->u[0], texel);
		break;
	default:
		agx_format_pack_float(hw, v->f, texel);
		break;
	}
}

/* Integer formats, which blits keep apart from normalized and float ones (section 4.3.3). */
static bool is_integer(const struct gles_format *f)
{
	return f->component_type == GL_INT || f->component_type == GL_UNSIGNED_INT;
}

/* ---- the source: a box of the read framebuffer, unpacked --------------------------------- */

/*
 * A copy of the source texels a copy or blit reads, unpacked, taken
 * before anything is written: a copy's read buffer may be the very level
 * it replaces, and a multisampled source is resolved into it (colour
 * averaged; integers, depth and stencil from sample 0).
 */
struct source {
	int x0, y0; /* the box in the read framebuffer */
	unsigned w, h;
	union texel_value *v; /* w x h, row by row; NULL for an empty box */
};

/* Intersects [*a0, *a1) with [b0, b1). */
static void clip_span(int64_t *a0, int64_t *a1, int64_t b0, int64_t b1)
{
	*a0 = *a0 > b0 ? *a0 : b0;
	*a1 = *a1 < b1 ? *a1 : b1;
}

/*
 * Reads the box [x0, x1) x [y0, y1) of t (clipped to fb_w x fb_h) into s.
 * 0, -ENOMEM, or the wait's error.
 */
static int source_read(struct gles_context *ctx, const struct gles_image_target *t, bool linear,
		       int64_t x0, int64_t y0, int64_t x1, int64_t y1, unsigned fb_w, unsigned fb_h,
		       struct source *s)
{
	const struct gles_image *img = t->image;
	enum agx_format hw = linear ? agx_format_linear(img->format) : img->format;
	bool average = img->samples && agx_format_info(hw)->kind == AGX_FORMAT_KIND_FLOAT;
	unsigned samples = img->samples ? img->samples : 1;
	int ret;

	*s = (struct source){ 0 };
	clip_span(&x0, &x1, 0, fb_w);
	clip_span(&y0, &y1, 0, fb_h);
	if (x0 >= x1 || y0 >= y1 || !img->bo.size)
		return 0;
	s->x0 = (int)x0, s->y0 = (int)y0;
	s->w = (unsigned)(x1 - x0), s->h = (unsigned)(y1 - y0);
	s->v = calloc((size_t)s->w * s->h, sizeof(*s->v));
	if (!s->v)
		return -ENOMEM;
	if ((ret = settle(ctx, img)) < 0)
		return ret;
	for (unsigned y = 0; y < s->h; y++) {
		for (unsigned x = 0; x < s->w; x++) {
			union texel_value *v = &s->v[(size_t)y * s->w + x];

			for (unsigned k = 0; k < (average ? samples : 1); k++) {
				union texel_value one;
				unsigned px = (unsigned)s->x0 + x, py = (unsigned)s->y0 + y;

				unpack(hw,
				       img->samples
					   ? gles_image_sample(img, px, py, k)
					   : gles_image_texel(img, t->level, t->layer, px, py),
				       &one);
				if (!average) {
					*v = one;
					break;
				}
				for (unsigned c = 0; c < 4; c++)
					v->f[c] += one.f[c] / (float)samples;
			}
		}
	}
	return 0;
}

/* The value at (x, y) of the read framebuffer, NULL outside the box. */
static const union texel_value *source_at(const struct source *s, int64_t x, int64_t y)
{
	if (!s->v || x < s->x0 || y < s->y0 || x >= (int64_t)s->x0 + s->w ||
	    y >= (int64_t)s->y0 + s->h)
		return NULL;
	return &s->v[(size_t)(y - s->y0) * s->w + (size_t)(x - s->x0)];
}

static void source_finish(struct source *s)
{
	free(s->v);
	s->v = NULL;
}

/* ---- glCopyTexImage2D, glCopyTexSubImage2D/3D (section 3.8.5) ----------------------------- */

/*
 * The effective internal format of an unsized internalformat for a
 * normalized, linear source of src's bits (table 3.17); NULL when it has
 * none.
 */
static const struct gles_format *effective_unsized(GLenum internalformat,
						   const struct gles_format *src)
{
	unsigned r = src->red, g = src->green, b = src->blue, a = src->alpha;
	GLenum sized;

	switch (internalformat) {
	case GL_ALPHA:
	case GL_LUMINANCE:
	case GL_LUMINANCE_ALPHA:
		/* stored as their own L8/A8/L8A8 texels: 8 bits of each is what there is */
		return (r <= 8 && a <= 8) ? gles_format_get(internalformat) : NULL;
	case GL_RGB:
		sized = r <= 5 && g <= 6 && b <= 5   ? GL_RGB565
			: r <= 8 && g <= 8 && b <= 8 ? GL_RGB8
						     : GL_NONE;
		break;
	case GL_RGBA:
		sized = r <= 4 && g <= 4 && b <= 4 && a <= 4   ? GL_RGBA4
			: r <= 5 && g <= 5 && b <= 5 && a == 1 ? GL_RGB5_A1
			: r <= 8 && g <= 8 && b <= 8 && a <= 8 ? GL_RGBA8
							       : GL_NONE;
		break;
	default:
		return NULL;
	}
	/* wider sources (RGB10_A2) keep their own format, as the spec's last row says */
	if (sized == GL_NONE && src->base == gles_format_get(internalformat)->base)
		return src;
	return sized == GL_NONE ? NULL : gles_format_get(sized);
}

/* Which of R, G, B, A a base format has (the luminance formats' L counts as R). */
static unsigned base_components(GLenum base)
{
	switch (base) {
	case GL_ALPHA:
		return 8;
	case GL_LUMINANCE:
	case GL_RED:
		return 1;
	case GL_LUMINANCE_ALPHA:
		return 1 | 8;
	case GL_RG:
		return 1 | 2;
	case GL_RGB:
		return 1 | 2 | 4;
	case GL_RGBA:
		return 1 | 2 | 4 | 8;
	default:
		return 0;
	}
}

/*
 * The format a copy from a read buffer of src into internalformat stores
 * (section 3.8.5 and table 3.15), or NULL with *err: GL_INVALID_ENUM for
 * no internal format, GL_INVALID_OPERATION for one a copy cannot make
 * (depth, stencil, compressed) or cannot make from src -- components the
 * source lacks, another value class or colour encoding, or (a sized
 * internalformat) component sizes that are not the source's.
 */
static const struct gles_format *copy_format(GLenum internalformat, const struct gles_format *src,
					     GLenum *err)
{
	const struct gles_format *f = gles_format_get(internalformat);
	const uint8_t src_bits[4] = { src->red, src->green, src->blue, src->alpha };
	unsigned need;

	*err = GL_INVALID_ENUM;
	if (!f)
		return NULL;
	*err = GL_INVALID_OPERATION;
	if (!(f->flags & GLES_FORMAT_TEXTURE) || (f->flags & GLES_FORMAT_COMPRESSED) ||
	    !(need = base_components(f->base)))
		return NULL;
	if (f->srgb != src->srgb || f->component_type != src->component_type)
		return NULL;
	for (unsigned c = 0; c < 4; c++)
		if ((need & 1u << c) && !src_bits[c])
			return NULL;
	if (!(f->flags & GLES_FORMAT_SIZED))
		return src->component_type == GL_UNSIGNED_NORMALIZED
			   ? effective_unsized(internalformat, src)
			   : NULL;
	{
		const uint8_t bits[4] = { f->red, f->green, f->blue, f->alpha };

		for (unsigned c = 0; c < 4; c++)
			if ((need & 1u << c) && bits[c] != src_bits[c])
				return NULL;
	}
	return f;
}

/*
 * The read buffer's checks of a copy, after the texture's: complete, single
 * sampled, with a read buffer (section 3.8.5).  Its image in *t and its
 * format; NULL with the error recorded.
 */
static const struct gles_format *copy_source(struct gles_context *ctx, struct gles_image_target *t)
{
	const struct gles_format *f;

	if (gles_framebuffer_status(ctx, true) != GL_FRAMEBUFFER_COMPLETE) {
		gles_error(ctx, GL_INVALID_FRAMEBUFFER_OPERATION);
		return NULL;
	}
	/* a multisampled default framebuffer is copied resolved (source_read) */
	if ((gles_framebuffer_bound(ctx, true) && gles_framebuffer_samples(ctx, true)) ||
	    !(f = gles_framebuffer_read_format(ctx)) ||
	    !gles_framebuffer_color_target(ctx, true, 0, t)) {
		gles_error(ctx, GL_INVALID_OPERATION);
		return NULL;
	}
	return f;
}

/*
 * The w x h read framebuffer rectangle at (x, y), read before the level is
 * (re)made: the read buffer may be that very level.  False with
 * GL_OUT_OF_MEMORY recorded.
 */
static bool copy_read(struct gles_context *ctx, const struct gles_image_target *src, GLint x,
		      GLint y, GLsizei w, GLsizei h, struct source *s)
{
	unsigned fb_w = 0, fb_h = 0;

	gles_framebuffer_size(ctx, true, &fb_w, &fb_h);
	/* the stored values, encoded or not: both ends are sRGB or neither */
	if (source_read(ctx, src, true, x, y, (int64_t)x + w, (int64_t)y + h, fb_w, fb_h, s) == 0)
		return true;
	source_finish(s);
	gles_error(ctx, GL_OUT_OF_MEMORY);
	return false;
}

/* Writes s, read from (x, y), into level l at (xoff, yoff) of its layer zoff. */
static void copy_write(struct gles_context *ctx, struct source *s,
		       const struct gles_texture_level *l, GLint xoff, GLint yoff, GLint zoff,
		       GLint x, GLint y)
{
	const struct gles_image *img = l->image;
	enum agx_format hw;

	if (!s->v || !img || !img->bo.size)
		goto out;
	hw = agx_format_linear(img->format);
	if (settle(ctx, img) < 0) {
		gles_error(ctx, GL_OUT_OF_MEMORY);
		goto out;
	}
	for (unsigned j = 0; j < s->h; j++) {
		for (unsigned i = 0; i < s->w; i++) {
			int64_t sx = (int64_t)s->x0 + i, sy = (int64_t)s->y0 + j;

			pack(hw, source_at(s, sx, sy),
			     gles_image_texel(img, l->image_level, l->image_layer + (unsigned)zoff,
					      (unsigned)(xoff + (sx - x)),
					      (unsigned)(yoff + (sy - y))));
		}
	}
out:
	source_finish(s);
}

void gles_CopyTexImage2D(GLenum target, GLint level, GLenum internalformat, GLint x, GLint y,
			 GLsizei width, GLsizei height, GLint border)
{
	struct gles_context *ctx = gles_current();
	const struct gles_format *src_format, *f;
	struct gles_image_target src;
	struct gles_texture *t;
	struct source s;
	GLenum err;

	if (!ctx || !(t = gles_texture_of_image_target(ctx, target, false)))
		return;
	/* Mesa's order, which the spec leaves open: the level, the framebuffer, then the rest */
	if (gles_texture_check_size(target, level, 0, 0, 1, 0) != GL_NO_ERROR) {
		gles_error(ctx, GL_INVALID_VALUE);
		return;
	}
	if (!(src_format = copy_source(ctx, &src)))
		return;
	if ((err = gles_texture_check_size(target, level, width, height, 1, border)) !=
	    GL_NO_ERROR) {
		gles_error(ctx, err);
		return;
	}
	if (!(f = copy_format(internalformat, src_format, &err))) {
		gles_error(ctx, err);
		return;
	}
	if (t->immutable) {
		gles_error(ctx, GL_INVALID_OPERATION);
		return;
	}
	if (!copy_read(ctx, &src, x, y, width, height, &s))
		return;
	if (gles_texture_make_level(t, target, level, f, internalformat, (unsigned)width,
				    (unsigned)height, 1) < 0) {
		source_finish(&s);
		gles_error(ctx, GL_OUT_OF_MEMORY);
		return;
	}
	copy_write(ctx, &s, gles_texture_level(t, target, level), 0, 0, 0, x, y);
}

static void copy_tex_sub_image(GLenum target, GLint level, GLint xoff, GLint yoff, GLint zoff,
			       GLint x, GLint y, GLsizei w, GLsizei h, bool three_d)
{
	struct gles_context *ctx = gles_current();
	const struct gles_format *src_format;
	struct gles_image_target src;
	struct gles_texture_level *l;
	struct source s;
	GLenum err;

	if (!ctx)
		return;
	if (!(l = gles_texture_sub_level(ctx, target, level, xoff, yoff, zoff, w, h, 1, three_d)))
		return;
	if (!(src_format = copy_source(ctx, &src)))
		return;
	/* the level's format as the application named it (an unsized one too) */
	if ((l->format->flags & GLES_FORMAT_COMPRESSED) ||
	    !copy_format(l->internalformat, src_format, &err)) {
		gles_error(ctx, GL_INVALID_OPERATION);
		return;
	}
	if (copy_read(ctx, &src, x, y, w, h, &s))
		copy_write(ctx, &s, l, xoff, yoff, zoff, x, y);
}

void gles_CopyTexSubImage2D(GLenum target, GLint level, GLint xoffset, GLint yoffset, GLint x,
			    GLint y, GLsizei width, GLsizei height)
{
	copy_tex_sub_image(target, level, xoffset, yoffset, 0, x, y, width, height, false);
}

void gles_CopyTexSubImage3D(GLenum target, GLint level, GLint xoffset, GLint yoffset, GLint zoffset,
			    GLint x, GLint y, GLsizei width, GLsizei height)
{
	copy_tex_sub_image(target, level, xoffset, yoffset, zoffset, x, y, width, height, true);
}

/* ---- glBlitFramebuffer (section 4.3.3) ------------------------------------------------------ */

/* The source and destination rectangles as given: x0 > x1 (or y) mirrors. */
struct blit_rects {
	GLint src[4], dst[4]; /* x0, y0, x1, y1 */
};

/*
 * The colour buffers' rules: integer to integer of the same signedness,
 * normalized or float to either, no LINEAR filter for integers, a resolve
 * into the read buffer's format.  False: GL_INVALID_OPERATION is due.
 */
static bool blit_color_ok(struct gles_context *ctx, GLenum filter,
			  const struct gles_image_target *src, bool read_samples)
{
	const struct gles_format *sf = gles_format_get(src->image->internalformat);

	if (!sf || (filter == GL_LINEAR && is_integer(sf)))
		return false;
	for (unsigned i = 0; i < GLES_MAX_DRAW_BUFFERS; i++) {
		struct gles_image_target dst;
		const struct gles_format *df;

		if (!gles_framebuffer_color_target(ctx, false, i, &dst))
			continue;
		df = gles_format_get(dst.image->internalformat);
		if (!df || is_integer(sf) != is_integer(df) ||
		    (is_integer(sf) && sf->component_type != df->component_type))
			return false;
		/*
		 * A resolve writes the read buffer's format, at the same place:
		 * the same format as stored (GL_RGBA of GL_UNSIGNED_BYTE is
		 * RGBA8's, ES 3.0 table 3.12's effective format)
		 */
		if (read_samples && dst.image->format != src->image->format)
			return false;
	}
	return true;
}

/* Depth or stencil: both framebuffers' images of the same format (section 4.3.3). */
static bool blit_zs_ok(struct gles_context *ctx, bool stencil)
{
	struct gles_image_target s, d;
	bool has_s = stencil ? gles_framebuffer_stencil_target(ctx, true, &s)
			     : gles_framebuffer_depth_target(ctx, true, &s);
	bool has_d = stencil ? gles_framebuffer_stencil_target(ctx, false, &d)
			     : gles_framebuffer_depth_target(ctx, false, &d);

	return !has_s || !has_d || s.image->internalformat == d.image->internalformat;
}

/*
 * The destination pixels of the blit: the dst rectangle clipped to the
 * draw framebuffer and the scissor box.  False when none is left.
 */
static bool blit_dst_box(struct gles_context *ctx, const struct blit_rects *r, int64_t box[4])
{
	unsigned w, h;

	if (!gles_framebuffer_size(ctx, false, &w, &h))
		return false;
	box[0] = r->dst[0] < r->dst[2] ? r->dst[0] : r->dst[2];
	box[2] = r->dst[0] < r->dst[2] ? r->dst[2] : r->dst[0];
	box[1] = r->dst[1] < r->dst[3] ? r->dst[1] : r->dst[3];
	box[3] = r->dst[1] < r->dst[3] ? r->dst[3] : r->dst[1];
	clip_span(&box[0], &box[2], 0, w);
	clip_span(&box[1], &box[3], 0, h);
	if (ctx->state->scissor_test) {
		const GLint *sc = ctx->state->scissor;

		clip_span(&box[0], &box[2], sc[0], (int64_t)sc[0] + sc[2]);
		clip_span(&box[1], &box[3], sc[1], (int64_t)sc[1] + sc[3]);
	}
	return box[0] < box[2] && box[1] < box[3];
}

/*
 * Where the centre of destination pixel d falls in the source, along one
 * axis: the rectangles' corners map onto each other, mirrored when one
 * runs the other way.
 */
static double src_coord(int64_t d, GLint d0, GLint d1, GLint s0, GLint s1)
{
	return s0 + ((double)d + 0.5 - d0) * ((double)s1 - s0) / ((double)d1 - d0);
}

/*
 * The source value for a destination pixel: NEAREST, the texel under the
 * mapped centre; LINEAR, the four nearest texel centres weighted, clamped
 * to the read framebuffer's edge as CLAMP_TO_EDGE would.  False when the
 * centre falls outside the read framebuffer (undefined: not written).
 */
static bool blit_sample(const struct source *s, double u, double v, bool linear, unsigned fb_w,
			unsigned fb_h, union texel_value *out)
{
	int64_t x = (int64_t)floor(u), y = (int64_t)floor(v);
	const union texel_value *t[4];
	double fx, fy;
	int64_t x0, y0;

	if (x < 0 || y < 0 || x >= fb_w || y >= fb_h)
		return false;
	if (!linear) {
		if (!(t[0] = source_at(s, x, y)))
			return false;
		*out = *t[0];
		return true;
	}
	x0 = (int64_t)floor(u - 0.5), y0 = (int64_t)floor(v - 0.5);
	fx = u - 0.5 - (double)x0, fy = v - 0.5 - (double)y0;
	for (unsigned k = 0; k < 4; k++) {
		int64_t tx = x0 + (k & 1), ty = y0 + (k >> 1);

		tx = tx < 0 ? 0 : tx >= fb_w ? fb_w - 1 : tx;
		ty = ty < 0 ? 0 : ty >= fb_h ? fb_h - 1 : ty;
		if (!(t[k] = source_at(s, tx, ty)))
			return false;
	}
	for (unsigned c = 0; c < 4; c++)
		out->f[c] = (float)((1 - fy) * ((1 - fx) * t[0]->f[c] + fx * t[1]->f[c]) +
				    fy * ((1 - fx) * t[2]->f[c] + fx * t[3]->f[c]));
	return true;
}

/*
 * One buffer kind of the blit: the source image src read (the part the
 * destination box maps to, a texel more for LINEAR), then each destination
 * image of dsts written.  0 or a negative errno.
 */
static int blit_images(struct gles_context *ctx, const struct blit_rects *r, const int64_t box[4],
		       bool linear, const struct gles_image_target *src,
		       const struct gles_image_target *dsts, unsigned n)
{
	const struct blit_rects *q = r;
	unsigned fb_w, fb_h;
	double u[2], v[2];
	struct source s;
	int ret;

	if (!n || !gles_framebuffer_size(ctx, true, &fb_w, &fb_h))
		return 0;
	/* the source box under the destination box's corner pixels' centres */
	u[0] = src_coord(box[0], q->dst[0], q->dst[2], q->src[0], q->src[2]);
	u[1] = src_coord(box[2] - 1, q->dst[0], q->dst[2], q->src[0], q->src[2]);
	v[0] = src_coord(box[1], q->dst[1], q->dst[3], q->src[1], q->src[3]);
	v[1] = src_coord(box[3] - 1, q->dst[1], q->dst[3], q->src[1], q->src[3]);
	ret =
	    source_read(ctx, src, false, (int64_t)floor(fmin(u[0], u[1]) - 1),
			(int64_t)floor(fmin(v[0], v[1]) - 1), (int64_t)floor(fmax(u[0], u[1]) + 2),
			(int64_t)floor(fmax(v[0], v[1]) + 2), fb_w, fb_h, &s);
	for (unsigned k = 0; ret == 0 && k < n; k++)
		ret = settle(ctx, dsts[k].image);
	if (ret < 0) {
		source_finish(&s);
		return ret;
	}
	for (int64_t y = box[1]; y < box[3]; y++) {
		double sv = src_coord(y, q->dst[1], q->dst[3], q->src[1], q->src[3]);

		for (int64_t x = box[0]; x < box[2]; x++) {
			double su = src_coord(x, q->dst[0], q->dst[2], q->src[0], q->src[2]);
			union texel_value val;

			if (!blit_sample(&s, su, sv, linear, fb_w, fb_h, &val))
				continue;
			for (unsigned k = 0; k < n; k++)
				pack(dsts[k].image->format, &val,
				     gles_image_texel(dsts[k].image, dsts[k].level, dsts[k].layer,
						      (unsigned)x, (unsigned)y));
		}
	}
	source_finish(&s);
	return 0;
}

static bool same_image(const struct gles_image_target *a, const struct gles_image_target *b)
{
	return a->image->bo.handle == b->image->bo.handle && a->level == b->level &&
	       a->layer == b->layer;
}

/*
 * Whether a buffer kind the mask names is read and drawn in the same
 * image.  The spec leaves such a blit undefined when the rectangles
 * overlap; Mesa refuses it with GL_INVALID_OPERATION whatever the
 * rectangles, and so does this.
 */
static bool blit_same_image(struct gles_context *ctx, GLbitfield mask)
{
	struct gles_image_target s, d;

	if ((mask & GL_COLOR_BUFFER_BIT) && gles_framebuffer_color_target(ctx, true, 0, &s))
		for (unsigned i = 0; i < GLES_MAX_DRAW_BUFFERS; i++)
			if (gles_framebuffer_color_target(ctx, false, i, &d) && same_image(&s, &d))
				return true;
	if ((mask & GL_DEPTH_BUFFER_BIT) && gles_framebuffer_depth_target(ctx, true, &s) &&
	    gles_framebuffer_depth_target(ctx, false, &d) && same_image(&s, &d))
		return true;
	return (mask & GL_STENCIL_BUFFER_BIT) && gles_framebuffer_stencil_target(ctx, true, &s) &&
	       gles_framebuffer_stencil_target(ctx, false, &d) && same_image(&s, &d);
}

/*
 * Checks everything section 4.3.3 asks, in Mesa's order where a call has
 * more than one fault (the spec gives none): the framebuffers, the
 * filter, the mask, then the rest.  False with the error recorded.
 */
static bool blit_check(struct gles_context *ctx, const struct blit_rects *r, GLbitfield mask,
		       GLenum filter)
{
	struct gles_image_target src;
	unsigned read_samples;
	GLenum err = GL_NO_ERROR;

	if (gles_framebuffer_status(ctx, false) != GL_FRAMEBUFFER_COMPLETE ||
	    gles_framebuffer_status(ctx, true) != GL_FRAMEBUFFER_COMPLETE)
		err = GL_INVALID_FRAMEBUFFER_OPERATION;
	else if (filter != GL_NEAREST && filter != GL_LINEAR)
		err = GL_INVALID_ENUM;
	else if (mask &
		 ~(GLbitfield)(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT | GL_STENCIL_BUFFER_BIT))
		err = GL_INVALID_VALUE;
	else if (filter == GL_LINEAR && (mask & (GL_DEPTH_BUFFER_BIT | GL_STENCIL_BUFFER_BIT)))
		err = GL_INVALID_OPERATION;
	if (err != GL_NO_ERROR) {
		gles_error(ctx, err);
		return false;
	}
	read_samples = gles_framebuffer_samples(ctx, true);
	/* no multisampled destination; a resolve copies the same rectangle */
	if (gles_framebuffer_samples(ctx, false) ||
	    (read_samples && memcmp(r->src, r->dst, sizeof(r->src))) ||
	    ((mask & GL_COLOR_BUFFER_BIT) && gles_framebuffer_color_target(ctx, true, 0, &src) &&
	     !blit_color_ok(ctx, filter, &src, read_samples)) ||
	    ((mask & GL_DEPTH_BUFFER_BIT) && !blit_zs_ok(ctx, false)) ||
	    ((mask & GL_STENCIL_BUFFER_BIT) && !blit_zs_ok(ctx, true)) ||
	    blit_same_image(ctx, mask)) {
		gles_error(ctx, GL_INVALID_OPERATION);
		return false;
	}
	return true;
}

void gles_BlitFramebuffer(GLint srcX0, GLint srcY0, GLint srcX1, GLint srcY1, GLint dstX0,
			  GLint dstY0, GLint dstX1, GLint dstY1, GLbitfield mask, GLenum filter)
{
	struct gles_context *ctx = gles_current();
	const struct blit_rects r = { { srcX0, srcY0, srcX1, srcY1 },
				      { dstX0, dstY0, dstX1, dstY1 } };
	struct gles_image_target src, dsts[GLES_MAX_DRAW_BUFFERS];
	int64_t box[4];
	unsigned n = 0;
	int ret = 0;

	if (!ctx || !blit_check(ctx, &r, mask, filter))
		return;
	/* empty rectangles copy nothing, and nothing is blitted into a black hole (state.h) */
	if (ctx->state->blackhole_render || srcX0 == srcX1 || srcY0 == srcY1 || dstX0 == dstX1 ||
	    dstY0 == dstY1 || !blit_dst_box(ctx, &r, box))
		return;
	/* a buffer that either framebuffer lacks is skipped (section 4.3.3) */
	if ((mask & GL_COLOR_BUFFER_BIT) && gles_framebuffer_color_target(ctx, true, 0, &src)) {
		for (unsigned i = 0; i < GLES_MAX_DRAW_BUFFERS; i++)
			if (gles_framebuffer_color_target(ctx, false, i, &dsts[n]))
				n++;
		ret = blit_images(ctx, &r, box, filter == GL_LINEAR, &src, dsts, n);
	}
	if (ret == 0 && (mask & GL_DEPTH_BUFFER_BIT) &&
	    gles_framebuffer_depth_target(ctx, true, &src) &&
	    gles_framebuffer_depth_target(ctx, false, &dsts[0]))
		ret = blit_images(ctx, &r, box, false, &src, dsts, 1);
	if (ret == 0 && (mask & GL_STENCIL_BUFFER_BIT) &&
	    gles_framebuffer_stencil_target(ctx, true, &src) &&
	    gles_framebuffer_stencil_target(ctx, false, &dsts[0]))
		ret = blit_images(ctx, &r, box, false, &src, dsts, 1);
	if (ret < 0)
		gles_error(ctx, GL_OUT_OF_MEMORY);
}
