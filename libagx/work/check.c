/*
 * check.c: a work descriptor's own rules (agx/work.h).  The depth and
 * stencil buffers' sizes are ZLS's: one twiddled level of their format
 * (agx/layout.h).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "agx/layout.h"
#include "agx/work.h"
#include "agx_cmdbuf.h"

static int refuse(char *why, size_t size, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static int refuse(char *why, size_t size, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, size, fmt, ap);
	va_end(ap);
	return -EINVAL;
}

static bool stream_ok(uint64_t encoder, uint64_t end, uint64_t usc_base)
{
	return encoder % 4 == 0 && encoder < end && end - encoder <= AGX_WORK_MAX_STREAM &&
	       usc_base % 64 == 0;
}

int agx_work_compute_ranges(const Agx__Work__Compute *c, struct agx_work_range *r, unsigned *count,
			    char *why, size_t why_size)
{
	if (!c)
		return refuse(why, why_size, "a compute command without its body");
	if (!stream_ok(c->encoder, c->encoder_end, c->usc_base))
		return refuse(why, why_size,
			      "stream %#" PRIx64 "..%#" PRIx64
			      " (4-byte aligned, not empty, at most 16 MiB) or usc_base %#" PRIx64
			      " (64-byte aligned) refused",
			      c->encoder, c->encoder_end, c->usc_base);
	r[0] = (struct agx_work_range){ c->encoder, c->encoder_end - c->encoder, AGX_WORK_READ };
	r[1] = (struct agx_work_range){ c->usc_base, 1, 0 };
	*count = 2;
	return 0;
}

/* Bytes of a depth or stencil buffer: one twiddled level, as ZLS reads it (0: no layout). */
static uint64_t zls_bytes(unsigned width, unsigned height, unsigned bytes_per_texel)
{
	struct agx_layout l = { .twiddled = true,
				.bytes_per_texel = bytes_per_texel,
				.width = width,
				.height = height,
				.levels = 1 };

	return agx_layout_init(&l) ? l.layer_stride : 0;
}

int agx_work_render_ranges(const Agx__Work__Render *r, struct agx_work_range *out, unsigned *count,
			   char *why, size_t why_size)
{
	struct agx_cmd_zls_control z;
	uint8_t raw[8];
	unsigned c = 0;

	if (!r)
		return refuse(why, why_size, "a render command without its body");
	if (!stream_ok(r->encoder, r->encoder_end, r->usc_base))
		return refuse(why, why_size,
			      "stream %#" PRIx64 "..%#" PRIx64
			      " (4-byte aligned, not empty, at most 16 MiB) or usc_base %#" PRIx64
			      " (64-byte aligned) refused",
			      r->encoder, r->encoder_end, r->usc_base);
	if (!r->width || !r->height || r->width > 16384 || r->height > 16384 ||
	    (r->samples != 1 && r->samples != 2 && r->samples != 4))
		return refuse(why, why_size,
			      "%ux%u with %u samples: 1..16384 pixels, 1, 2 or 4 samples", r->width,
			      r->height, r->samples);
	if (!((r->utile_width == 32 && (r->utile_height == 32 || r->utile_height == 16)) ||
	      (r->utile_width == 16 && r->utile_height == 16)) ||
	    r->sample_size % 4 || r->sample_size > 64)
		return refuse(why, why_size,
			      "tiles of %ux%u (32x32, 32x16, 16x16) with %u bytes a sample "
			      "(a multiple of 4, at most 64)",
			      r->utile_width, r->utile_height, r->sample_size);
	if (!r->tvb || r->tvb % 16 || !r->tvb_size)
		return refuse(why, why_size,
			      "the TVB heap %#" PRIx64
			      " (%u bytes) is not 16-byte aligned or empty",
			      r->tvb, r->tvb_size);
	memcpy(raw, &r->zls_control, 8);
	if (!agx_cmd_zls_control_unpack(raw, &z))
		return refuse(why, why_size, "zls_control %#" PRIx64 " has bits no one knows",
			      r->zls_control);
	if (r->scissor_count > 0xffff || r->depth_bias_count > 0xffff ||
	    r->visibility_count > 0xffff || r->stencil_clear > 0xff)
		return refuse(why, why_size, "counts are 16 bits and the stencil clear 8");
	if (((z.z_load_enable || z.z_store_enable) && !r->depth_buffer) ||
	    ((z.s_load_enable || z.s_store_enable) && !r->stencil_buffer))
		return refuse(why, why_size,
			      "depth or stencil loaded or stored, and no buffer named");
	out[c++] =
	    (struct agx_work_range){ r->encoder, r->encoder_end - r->encoder, AGX_WORK_READ };
	out[c++] = (struct agx_work_range){ r->usc_base, 1, 0 };
	out[c++] = (struct agx_work_range){ r->tvb, r->tvb_size, AGX_WORK_READ | AGX_WORK_WRITE };
	if (r->depth_buffer)
		out[c++] = (struct agx_work_range){
			r->depth_buffer,
			zls_bytes(r->width, r->height,
				  z.z_format == AGX_CMD_ZLS_FORMAT_Z16 ? 2 : 4),
			AGX_WORK_READ | AGX_WORK_WRITE
		};
	if (r->stencil_buffer)
		out[c++] =
		    (struct agx_work_range){ r->stencil_buffer, zls_bytes(r->width, r->height, 1),
					     AGX_WORK_READ | AGX_WORK_WRITE };
	if (r->scissor_count)
		out[c++] = (struct agx_work_range){ r->scissor_array, 16ull * r->scissor_count,
						    AGX_WORK_READ };
	if (r->depth_bias_count)
		out[c++] = (struct agx_work_range){ r->depth_bias_array,
						    12ull * r->depth_bias_count, AGX_WORK_READ };
	if (r->visibility_count)
		out[c++] = (struct agx_work_range){ r->visibility_result_buffer,
						    8ull * r->visibility_count,
						    AGX_WORK_READ | AGX_WORK_WRITE };
	for (unsigned i = 0; i < c; i++)
		if (!out[i].size)
			return refuse(why, why_size,
				      "a %ux%u depth or stencil buffer cannot be laid out",
				      r->width, r->height);
	*count = c;
	return 0;
}
