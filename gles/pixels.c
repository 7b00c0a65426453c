/*
 * pixels.c: writing pixels to client memory (pixels.h).  The packed types
 * put their first component in the high bits (GLES 3.0.6 table 3.5), the
 * _REV ones in the low bits (table 3.6); the conversions are section
 * 4.3.2's: normalized types by equation 2.3 (round(c * (2^b - 1)), c
 * clamped to [0, 1]) and 2.4 (signed, c clamped to [-1, 1]), integers
 * clamped to the type's range.  Rounding is to nearest, ties to even, as
 * in agx/format.h's packing of the same values into buffers.
 */
#include <math.h>
#include <string.h>

#include "agx/format.h"
#include "extensions.h"
#include "pixels.h"
#include "state.h"

static unsigned components(GLenum format)
{
	switch (format) {
	case GL_RED:
	case GL_RED_INTEGER:
		return 1;
	case GL_RG:
	case GL_RG_INTEGER:
		return 2;
	case GL_RGB:
	case GL_RGB_INTEGER:
		return 3;
	case GL_RGBA:
	case GL_RGBA_INTEGER:
	case GL_BGRA_EXT: /* EXT_read_format_bgra */
		return 4;
	case GL_DEPTH_COMPONENT: /* NV_read_depth */
		return 1;
	default:
		return 0;
	}
}

/* Bytes of one element of type, and whether it is a packed type (a whole pixel). */
static unsigned type_size(GLenum type, bool *packed)
{
	*packed = false;
	switch (type) {
	case GL_UNSIGNED_BYTE:
	case GL_BYTE:
		return 1;
	case GL_UNSIGNED_SHORT:
	case GL_SHORT:
	case GL_HALF_FLOAT:
		return 2;
	case GL_UNSIGNED_INT:
	case GL_INT:
	case GL_FLOAT:
		return 4;
	case GL_UNSIGNED_SHORT_5_6_5:
	case GL_UNSIGNED_SHORT_4_4_4_4:
	case GL_UNSIGNED_SHORT_5_5_5_1:
	case GL_UNSIGNED_SHORT_4_4_4_4_REV_EXT: /* EXT_read_format_bgra */
	case GL_UNSIGNED_SHORT_1_5_5_5_REV_EXT:
		*packed = true;
		return 2;
	case GL_UNSIGNED_INT_2_10_10_10_REV:
	case GL_UNSIGNED_INT_10F_11F_11F_REV:
	case GL_UNSIGNED_INT_24_8: /* NV_read_depth: depth in bits 31..8 */
		*packed = true;
		return 4;
	default:
		return 0;
	}
}

bool gles_pixels_layout(const struct gles_pixel_store *pack, GLenum format, GLenum type, unsigned w,
			unsigned h, struct gles_pixel_layout *out)
{
	unsigned n = components(format);
	bool packed;
	size_t s = type_size(type, &packed), a = (size_t)pack->alignment, l, elements;

	if (!n || !s ||
	    (packed &&
	     n != (type == GL_UNSIGNED_SHORT_5_6_5 || type == GL_UNSIGNED_INT_10F_11F_11F_REV ? 3u
		   : type == GL_UNSIGNED_INT_24_8					      ? 1u
						  : 4u)))
		return false;
	out->type_bytes = s;
	out->pixel_bytes = packed ? s : n * s;
	elements = packed ? 1 : n;
	/* section 3.7.1: rows of l groups, each padded to a multiple of the alignment */
	l = pack->row_length > 0 ? (size_t)pack->row_length : w;
	out->row_stride = s >= a ? elements * l * s : a * ((s * elements * l + a - 1) / a);
	out->first = (size_t)pack->skip_rows * out->row_stride +
		     (size_t)pack->skip_pixels * out->pixel_bytes;
	out->size = w && h ? out->first + (h - 1) * out->row_stride + w * out->pixel_bytes : 0;
	return true;
}

static uint32_t unorm(double c, unsigned bits)
{
	c = isnan(c) ? 0 : fmin(fmax(c, 0.0), 1.0);
	return (uint32_t)nearbyint(c * (double)((1ull << bits) - 1));
}

static int32_t snorm(double c, unsigned bits)
{
	c = isnan(c) ? 0 : fmin(fmax(c, -1.0), 1.0);
	return (int32_t)nearbyint(c * (double)((1ull << (bits - 1)) - 1));
}

static int64_t clamp64(int64_t v, int64_t lo, int64_t hi)
{
	return v < lo ? lo : v > hi ? hi : v;
}

void gles_pixels_pack_float(GLenum format, GLenum type, const float colour[4], uint8_t *out)
{
	unsigned n = components(format);
	/* EXT_read_format_bgra: blue, green, red, alpha in that order */
	const float bgra[4] = { colour[2], colour[1], colour[0], colour[3] };
	const float *rgba = format == GL_BGRA_EXT ? bgra : colour;
	uint32_t w;
	uint16_t h;

	switch (type) {
	case GL_UNSIGNED_SHORT_4_4_4_4_REV_EXT:
		/* _REV: the first component (blue of BGRA) in the low bits */
		h = (uint16_t)(unorm(rgba[0], 4) | unorm(rgba[1], 4) << 4 | unorm(rgba[2], 4) << 8 |
			       unorm(rgba[3], 4) << 12);
		memcpy(out, &h, 2);
		return;
	case GL_UNSIGNED_SHORT_1_5_5_5_REV_EXT:
		h = (uint16_t)(unorm(rgba[0], 5) | unorm(rgba[1], 5) << 5 |
			       unorm(rgba[2], 5) << 10 | unorm(rgba[3], 1) << 15);
		memcpy(out, &h, 2);
		return;
	case GL_UNSIGNED_SHORT_5_6_5:
		h = (uint16_t)(unorm(rgba[0], 5) << 11 | unorm(rgba[1], 6) << 5 |
			       unorm(rgba[2], 5));
		memcpy(out, &h, 2);
		return;
	case GL_UNSIGNED_SHORT_4_4_4_4:
		h = (uint16_t)(unorm(rgba[0], 4) << 12 | unorm(rgba[1], 4) << 8 |
			       unorm(rgba[2], 4) << 4 | unorm(rgba[3], 4));
		memcpy(out, &h, 2);
		return;
	case GL_UNSIGNED_SHORT_5_5_5_1:
		h = (uint16_t)(unorm(rgba[0], 5) << 11 | unorm(rgba[1], 5) << 6 |
			       unorm(rgba[2], 5) << 1 | unorm(rgba[3], 1));
		memcpy(out, &h, 2);
		return;
	case GL_UNSIGNED_INT_2_10_10_10_REV:
		w = unorm(rgba[0], 10) | unorm(rgba[1], 10) << 10 | unorm(rgba[2], 10) << 20 |
		    unorm(rgba[3], 2) << 30;
		memcpy(out, &w, 4);
		return;
	case GL_UNSIGNED_INT_10F_11F_11F_REV:
		/* red in the low bits: the R11G11B10 texel's layout, and its conversion */
		agx_format_pack_float(AGX_FORMAT_R11G11B10_FLOAT, rgba, out);
		return;
	}
	for (unsigned c = 0; c < n; c++) {
		double v = rgba[c];

		switch (type) {
		case GL_UNSIGNED_BYTE:
			out[c] = (uint8_t)unorm(v, 8);
			break;
		case GL_BYTE:
			out[c] = (uint8_t)(int8_t)snorm(v, 8);
			break;
		case GL_UNSIGNED_SHORT:
			h = (uint16_t)unorm(v, 16);
			memcpy(out + 2 * c, &h, 2);
			break;
		case GL_SHORT:
			h = (uint16_t)(int16_t)snorm(v, 16);
			memcpy(out + 2 * c, &h, 2);
			break;
		case GL_UNSIGNED_INT:
			w = unorm(v, 32);
			memcpy(out + 4 * c, &w, 4);
			break;
		case GL_INT:
			w = (uint32_t)snorm(v, 32);
			memcpy(out + 4 * c, &w, 4);
			break;
		case GL_HALF_FLOAT: {
			const float one[4] = { rgba[c], 0, 0, 0 };

			agx_format_pack_float(AGX_FORMAT_R16_FLOAT, one, out + 2 * c);
			break;
		}
		case GL_FLOAT:
			memcpy(out + 4 * c, &rgba[c], 4);
			break;
		}
	}
}

void gles_pixels_pack_int(GLenum format, GLenum type, const int64_t rgba[4], uint8_t *out)
{
	unsigned n = components(format);
	uint32_t w;
	uint16_t h;

	if (type == GL_UNSIGNED_INT_2_10_10_10_REV) {
		w = (uint32_t)clamp64(rgba[0], 0, 1023) |
		    (uint32_t)clamp64(rgba[1], 0, 1023) << 10 |
		    (uint32_t)clamp64(rgba[2], 0, 1023) << 20 |
		    (uint32_t)clamp64(rgba[3], 0, 3) << 30;
		memcpy(out, &w, 4);
		return;
	}
	for (unsigned c = 0; c < n; c++) {
		switch (type) {
		case GL_UNSIGNED_BYTE:
			out[c] = (uint8_t)clamp64(rgba[c], 0, UINT8_MAX);
			break;
		case GL_BYTE:
			out[c] = (uint8_t)(int8_t)clamp64(rgba[c], INT8_MIN, INT8_MAX);
			break;
		case GL_UNSIGNED_SHORT:
			h = (uint16_t)clamp64(rgba[c], 0, UINT16_MAX);
			memcpy(out + 2 * c, &h, 2);
			break;
		case GL_SHORT:
			h = (uint16_t)(int16_t)clamp64(rgba[c], INT16_MIN, INT16_MAX);
			memcpy(out + 2 * c, &h, 2);
			break;
		case GL_UNSIGNED_INT:
			w = (uint32_t)clamp64(rgba[c], 0, UINT32_MAX);
			memcpy(out + 4 * c, &w, 4);
			break;
		case GL_INT:
			w = (uint32_t)(int32_t)clamp64(rgba[c], INT32_MIN, INT32_MAX);
			memcpy(out + 4 * c, &w, 4);
			break;
		}
	}
}
