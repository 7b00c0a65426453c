/*
 * compress.c: one block of a format the GL compresses itself (compress.h).
 */
#include <math.h>
#include <string.h>

#include "compress.h"

static float clampf(float v, float lo, float hi)
{
	return !(v > lo) ? lo : v > hi ? hi : v;
}

/*
 * A BC4 block of 16 values (one channel): the first endpoint the
 * highest, the second the lowest, so that the block has eight values
 * between them (a block of one value has it exactly, as code 0), and
 * each texel the code of the nearest.
 */
static void bc4_block(const float v[16], bool is_signed, uint8_t out[8])
{
	int hi = is_signed ? -127 : 0, lo = is_signed ? 127 : 255, q[16];
	uint64_t bits = 0;

	for (unsigned i = 0; i < 16; i++) {
		q[i] = is_signed ? (int)lrintf(clampf(v[i], -1, 1) * 127.0f)
				 : (int)lrintf(clampf(v[i], 0, 1) * 255.0f);
		hi = q[i] > hi ? q[i] : hi;
		lo = q[i] < lo ? q[i] : lo;
	}
	out[0] = (uint8_t)hi;
	out[1] = (uint8_t)lo;
	for (unsigned i = 0; i < 16; i++) {
		unsigned best = 0;
		double best_d = INFINITY;

		for (unsigned c = 0; c < 8 && hi != lo; c++) {
			/* code 0 is hi, 1 lo, 2..7 the six between, hi's side first */
			double val = c == 0   ? hi
				     : c == 1 ? lo
					      : ((8.0 - c) * hi + (c - 1.0) * lo) / 7.0;
			double d = fabs(val - q[i]);

			if (d < best_d)
				best_d = d, best = c;
		}
		bits |= (uint64_t)best << (3 * i);
	}
	for (unsigned k = 0; k < 6; k++)
		out[2 + k] = (uint8_t)(bits >> (8 * k));
}

void gles_compress_block(const struct gles_format *f, const float rgba[16][4], uint8_t *out)
{
	enum agx_format hw = f->hw;
	bool is_signed = hw == AGX_FORMAT_BC4_SNORM || hw == AGX_FORMAT_BC5_SNORM;
	uint8_t px[64];
	float ch[16];

	if (hw >= AGX_FORMAT_BC4_UNORM && hw <= AGX_FORMAT_BC5_SNORM) {
		unsigned n = hw == AGX_FORMAT_BC5_UNORM || hw == AGX_FORMAT_BC5_SNORM ? 2 : 1;

		for (unsigned c = 0; c < n; c++) {
			for (unsigned i = 0; i < 16; i++)
				ch[i] = rgba[i][c];
			bc4_block(ch, is_signed, out + 8 * c);
		}
		return;
	}
	for (unsigned i = 0; i < 16; i++)
		for (unsigned c = 0; c < 4; c++)
			px[4 * i + c] = (uint8_t)lrintf(clampf(rgba[i][c], 0, 1) * 255.0f);
	/* RGB formats have no alpha to keep: opaque, so BC1 uses its four colours */
	if (f->base == GL_RGB)
		for (unsigned i = 0; i < 16; i++)
			px[4 * i + 3] = 255;
	gles_squish_block(px,
			  hw <= AGX_FORMAT_BC1_SRGB_ALPHA   ? 1
			  : hw <= AGX_FORMAT_BC2_SRGB_ALPHA ? 2
							    : 3,
			  out);
}
