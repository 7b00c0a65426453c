/*
 * readpixels.c: glReadPixels (GLES 3.0.6 section 4.3.2).  The read
 * buffer's image is read on the CPU once the GPU work writing it has
 * finished (the context's last fence, submit.h), each texel unpacked
 * (agx/format.h) and converted to the format/type asked for (pixels.h),
 * into client memory or a pixel pack buffer.  Pixels outside the read
 * framebuffer are not written.  sRGB buffers are read as stored: section
 * 4.3.2 converts no colour encoding (only blending, 4.1.8, and texture
 * fetches, 3.8.16, do).
 */
#include <math.h>
#include <string.h>

#include "context.h"
#include "extensions.h"
#include "formats.h"
#include "gl_functions.h"
#include "objects.h"
#include "pixels.h"
#include "state.h"
#include "submit.h"

/*
 * The format/type combinations of section 4.3.2 for a read buffer: the
 * one its component type fixes (normalized: RGBA/UNSIGNED_BYTE; signed
 * and unsigned integer: RGBA_INTEGER with INT or UNSIGNED_INT; float, with
 * EXT_color_buffer_float: RGBA/FLOAT), RGBA/UNSIGNED_INT_2_10_10_10_REV
 * for RGB10_A2, and the implementation's pair (GL_IMPLEMENTATION_COLOR_READ_*,
 * gles_format_read_pair).
 */
static bool accepted(const struct gles_format *f, GLenum format, GLenum type)
{
	GLenum impl_format, impl_type;

	if (gles_format_read_pair(f, &impl_format, &impl_type) && format == impl_format &&
	    type == impl_type)
		return true;
	switch (f->component_type) {
	case GL_UNSIGNED_NORMALIZED:
		/* EXT_read_format_bgra: from a normalized fixed-point buffer */
		if (format == GL_BGRA_EXT)
			return type == GL_UNSIGNED_BYTE ||
			       type == GL_UNSIGNED_SHORT_4_4_4_4_REV_EXT ||
			       type == GL_UNSIGNED_SHORT_1_5_5_5_REV_EXT;
		/* fallthrough */
	case GL_SIGNED_NORMALIZED:
		if (format == GL_RGBA && type == GL_UNSIGNED_BYTE)
			return true;
		return f->internalformat == GL_RGB10_A2 && format == GL_RGBA &&
		       type == GL_UNSIGNED_INT_2_10_10_10_REV;
	case GL_INT:
		return format == GL_RGBA_INTEGER && type == GL_INT;
	case GL_UNSIGNED_INT:
		return format == GL_RGBA_INTEGER && type == GL_UNSIGNED_INT;
	case GL_FLOAT:
		return format == GL_RGBA && type == GL_FLOAT;
	default:
		return false;
	}
}

/* One texel of the read image as the pixel of format/type. */
static void convert(const struct agx_format_info *info, enum agx_format hw, const uint8_t *texel,
		    GLenum format, GLenum type, uint8_t *out)
{
	if (info->kind == AGX_FORMAT_KIND_UINT) {
		uint32_t u[4];
		int64_t v[4];

		agx_format_unpack_uint(hw, texel, u);
		for (unsigned c = 0; c < 4; c++)
			v[c] = u[c];
		gles_pixels_pack_int(format, type, v, out);
	} else if (info->kind == AGX_FORMAT_KIND_SINT) {
		int32_t s[4];
		int64_t v[4];

		agx_format_unpack_sint(hw, texel, s);
		for (unsigned c = 0; c < 4; c++)
			v[c] = s[c];
		gles_pixels_pack_int(format, type, v, out);
	} else {
		float f[4];

		agx_format_unpack_float(hw, texel, f);
		gles_pixels_pack_float(format, type, f, out);
	}
}

/*
 * NV_read_depth: DEPTH_COMPONENT of the depth attachment -- a float depth
 * buffer's as FLOAT, a fixed-point one's as UNSIGNED_SHORT or
 * UNSIGNED_INT (normalized to the type's bits) or UNSIGNED_INT_24_8 (24
 * bits, in bits 31..8), the pairs Mesa takes.
 */
static bool depth_type(const struct gles_image_target *t, GLenum type)
{
	GLenum f = t->image ? t->image->internalformat : GL_NONE;
	bool is_float = f == GL_DEPTH_COMPONENT32F || f == GL_DEPTH32F_STENCIL8;

	if (is_float)
		return type == GL_FLOAT;
	return type == GL_UNSIGNED_SHORT || type == GL_UNSIGNED_INT || type == GL_UNSIGNED_INT_24_8;
}

static void depth_pixel(float depth, GLenum type, uint8_t *out)
{
	double d = isnan(depth) ? 0 : fmin(fmax(depth, 0.0), 1.0);
	uint32_t u;
	uint16_t h;

	switch (type) {
	case GL_FLOAT:
		memcpy(out, &depth, 4);
		return;
	case GL_UNSIGNED_SHORT:
		h = (uint16_t)nearbyint(d * 65535.0);
		memcpy(out, &h, 2);
		return;
	case GL_UNSIGNED_INT:
		u = (uint32_t)nearbyint(d * 4294967295.0);
		break;
	default:
		u = (uint32_t)nearbyint(d * 16777215.0) << 8;
		break;
	}
	memcpy(out, &u, 4);
}

/*
 * glReadPixels, and EXT_robustness's glReadnPixelsEXT when buf_size >= 0:
 * then client memory of buf_size bytes, which the pixels must fit in
 * (INVALID_OPERATION), as Mesa checks; a pack buffer's own size bounds it
 * instead.
 */
static void read_pixels(GLint x, GLint y, GLsizei width, GLsizei height, GLenum format, GLenum type,
			GLsizei buf_size, void *pixels)
{
	struct gles_context *ctx = gles_current();
	struct gles_buffer_object *pbo;
	const struct gles_format *f;
	const struct agx_format_info *info;
	struct gles_image_target t;
	struct gles_pixel_layout pl;
	uint8_t *dst;
	bool depth;

	if (!ctx)
		return;
	/* EXT_read_format_bgra's two packed types are pixel types of ReadPixels alone */
	if (!gles_pixel_format_valid(format) ||
	    !(gles_pixel_type_valid(type) || type == GL_UNSIGNED_SHORT_4_4_4_4_REV_EXT ||
	      type == GL_UNSIGNED_SHORT_1_5_5_5_REV_EXT)) {
		gles_error(ctx, GL_INVALID_ENUM);
		return;
	}
	if (width < 0 || height < 0) {
		gles_error(ctx, GL_INVALID_VALUE);
		return;
	}
	if (gles_framebuffer_status(ctx, true) != GL_FRAMEBUFFER_COMPLETE) {
		gles_error(ctx, GL_INVALID_FRAMEBUFFER_OPERATION);
		return;
	}
	/*
	 * a multisampled read framebuffer, no read buffer (no depth buffer for
	 * NV_read_depth's DEPTH_COMPONENT), or a combination not accepted
	 */
	depth = format == GL_DEPTH_COMPONENT;
	/*
	 * Section 4.3.2 refuses a multisampled framebuffer object; a
	 * multisampled default framebuffer is read resolved.
	 */
	if ((gles_framebuffer_bound(ctx, true) && gles_framebuffer_samples(ctx, true)) ||
	    (depth ? !gles_framebuffer_depth_target(ctx, true, &t) || !depth_type(&t, type)
		   : !(f = gles_framebuffer_read_format(ctx)) ||
			 !gles_framebuffer_color_target(ctx, true, 0, &t) ||
			 !accepted(f, format, type)) ||
	    !gles_pixels_layout(&ctx->state->pack, format, type, (unsigned)width, (unsigned)height,
				&pl)) {
		gles_error(ctx, GL_INVALID_OPERATION);
		return;
	}
	pbo = ctx->objects->pixel_pack_buffer;
	if (pbo) {
		/* section 4.3.2's errors: the buffer not mapped, the offset a multiple of
		 * the type's size, the pixels inside it */
		uintptr_t offset = (uintptr_t)pixels;

		if (gles_buffer_is_mapped(pbo) || offset % pl.type_bytes ||
		    offset > (uint64_t)pbo->size || pl.size > (uint64_t)pbo->size - offset) {
			gles_error(ctx, GL_INVALID_OPERATION);
			return;
		}
		if (!pl.size)
			return;
		dst = gles_buffer_data(pbo) + offset;
	} else {
		if (buf_size >= 0 && pl.size > (uint64_t)buf_size) {
			gles_error(ctx, GL_INVALID_OPERATION);
			return;
		}
		if (!pl.size || !pixels)
			return;
		dst = pixels;
	}

	/* the reads see every clear and draw before them: the GPU finishes first */
	if (gles_submit_wait(ctx) < 0) {
		gles_error(ctx, GL_OUT_OF_MEMORY);
		return;
	}
	info = agx_format_info(t.image->format);
	if (!info || !t.image->bo.size)
		return;
	{
		const struct gles_image *img = t.image;
		int64_t w = gles_image_width(img, t.level), h = gles_image_height(img, t.level);

		for (int64_t j = 0; j < height; j++) {
			int64_t wy = (int64_t)y + j;

			if (wy < 0 || wy >= h)
				continue;
			for (int64_t i = 0; i < width; i++) {
				int64_t wx = (int64_t)x + i;

				if (wx < 0 || wx >= w)
					continue;
				const uint8_t *texel;
				uint8_t resolved[16];

				if (img->samples) {
					gles_image_resolve_texel(img, (unsigned)wx, (unsigned)wy,
								 resolved);
					texel = resolved;
				} else {
					texel = gles_image_texel(img, t.level, t.layer,
								 (unsigned)wx, (unsigned)wy);
				}
				uint8_t *out = dst + pl.first + (size_t)j * pl.row_stride +
					       (size_t)i * pl.pixel_bytes;
				float z = 0;

				if (depth) {
					agx_format_unpack_depth(img->format, texel, &z);
					depth_pixel(z, type, out);
				} else {
					convert(info, agx_format_linear(img->format), texel, format,
						type, out);
				}
			}
		}
	}
}

void gles_ReadPixels(GLint x, GLint y, GLsizei width, GLsizei height, GLenum format, GLenum type,
		     void *pixels)
{
	read_pixels(x, y, width, height, format, type, -1, pixels);
}

void gles_ReadnPixelsEXT(GLint x, GLint y, GLsizei width, GLsizei height, GLenum format,
			 GLenum type, GLsizei buf_size, void *pixels)
{
	struct gles_context *ctx = gles_current();

	if (!ctx)
		return;
	/* KHR_robustness's error; EXT_robustness does not say */
	if (buf_size < 0) {
		gles_error(ctx, GL_INVALID_VALUE);
		return;
	}
	read_pixels(x, y, width, height, format, type, buf_size, pixels);
}
