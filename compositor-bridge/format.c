/*
 * format.c: the pixel formats frames may have, named by DRM fourcc codes
 * (drm_fourcc.h: each is a little-endian word of the given width, its
 * channels listed from the most significant bits), and the conversion of
 * an image from one to another, which also puts the top row first.
 */
#include <string.h>

#include <drm_fourcc.h>

#include "present_priv.h"

static const struct present_format formats[] = {
	{ DRM_FORMAT_ABGR8888, 4, true, "ABGR8888" }, { DRM_FORMAT_XBGR8888, 4, false, "XBGR8888" },
	{ DRM_FORMAT_ARGB8888, 4, true, "ARGB8888" }, { DRM_FORMAT_XRGB8888, 4, false, "XRGB8888" },
	{ DRM_FORMAT_RGB565, 2, false, "RGB565" },
};

const struct present_format *present_format(uint32_t fourcc)
{
	for (unsigned i = 0; i < sizeof(formats) / sizeof(formats[0]); i++)
		if (formats[i].fourcc == fourcc)
			return &formats[i];
	return NULL;
}

bool agx_present_format_supported(uint32_t fourcc)
{
	return present_format(fourcc) != NULL;
}

/* One pixel of f at p as bytes R, G, B, A. */
static void unpack(const struct present_format *f, const uint8_t *p, uint8_t rgba[4])
{
	uint16_t v;

	switch (f->fourcc) {
	case DRM_FORMAT_ABGR8888: /* bytes R, G, B, A */
	case DRM_FORMAT_XBGR8888:
		rgba[0] = p[0], rgba[1] = p[1], rgba[2] = p[2];
		rgba[3] = f->alpha ? p[3] : 0xff;
		break;
	case DRM_FORMAT_ARGB8888: /* bytes B, G, R, A */
	case DRM_FORMAT_XRGB8888:
		rgba[0] = p[2], rgba[1] = p[1], rgba[2] = p[0];
		rgba[3] = f->alpha ? p[3] : 0xff;
		break;
	case DRM_FORMAT_RGB565:
		v = (uint16_t)(p[0] | p[1] << 8);
		/* widened by repeating the top bits: 0 stays 0, the maximum becomes 255 */
		rgba[0] = (uint8_t)((v >> 11) << 3 | (v >> 13));
		rgba[1] = (uint8_t)(((v >> 5) & 0x3f) << 2 | ((v >> 9) & 0x3));
		rgba[2] = (uint8_t)((v & 0x1f) << 3 | ((v >> 2) & 0x7));
		rgba[3] = 0xff;
		break;
	}
}

/* Rounds an 8-bit channel to bits bits. */
static unsigned narrow(uint8_t c, unsigned bits)
{
	unsigned max = (1u << bits) - 1;

	return (c * max + 127) / 255;
}

static void pack(const struct present_format *f, const uint8_t rgba[4], uint8_t *p)
{
	uint16_t v;

	switch (f->fourcc) {
	case DRM_FORMAT_ABGR8888:
	case DRM_FORMAT_XBGR8888:
		p[0] = rgba[0], p[1] = rgba[1], p[2] = rgba[2];
		p[3] = f->alpha ? rgba[3] : 0xff;
		break;
	case DRM_FORMAT_ARGB8888:
	case DRM_FORMAT_XRGB8888:
		p[0] = rgba[2], p[1] = rgba[1], p[2] = rgba[0];
		p[3] = f->alpha ? rgba[3] : 0xff;
		break;
	case DRM_FORMAT_RGB565:
		v = (uint16_t)(narrow(rgba[0], 5) << 11 | narrow(rgba[1], 6) << 5 |
			       narrow(rgba[2], 5));
		p[0] = (uint8_t)v, p[1] = (uint8_t)(v >> 8);
		break;
	}
}

void present_convert(const struct agx_present_image *image, const uint8_t *pixels,
		     const struct present_format *dst_format, uint8_t *dst, uint64_t dst_stride)
{
	const struct present_format *src_format = present_format(image->fourcc);
	uint64_t row_bytes = (uint64_t)image->width * dst_format->bytes;

	for (uint32_t y = 0; y < image->height; y++) {
		uint32_t src_y = image->bottom_up ? image->height - 1 - y : y;
		const uint8_t *s = pixels + (uint64_t)src_y * image->stride;
		uint8_t *d = dst + y * dst_stride;

		if (src_format == dst_format) {
			memcpy(d, s, row_bytes);
			continue;
		}
		for (uint32_t x = 0; x < image->width; x++) {
			uint8_t rgba[4] = { 0, 0, 0, 0xff };

			unpack(src_format, s + (uint64_t)x * src_format->bytes, rgba);
			pack(dst_format, rgba, d + (uint64_t)x * dst_format->bytes);
		}
	}
}
