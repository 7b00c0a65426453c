/*
 * bc.c: BC1-BC5 blocks, one texel at a time (bc.h).  The extensions
 * leave the interpolation's precision open, and the texture unit's is
 * not public: the endpoints are expanded to 8 bits (RGB565 by repeating
 * each field's bits) and the values between them computed in integers,
 * divisions truncated, as Mesa's decoders do (src/util/format
 * texcompress_s3tc_tmp.h, texcompress_rgtc_tmp.h), so that the texels
 * are 8-bit values (over 127 when signed).
 */
#include "bc.h"

static uint32_t le32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* An RGB565 colour as three 8-bit values: each field's bits repeated below it. */
static void rgb565(unsigned c, unsigned out[3])
{
	unsigned r = c >> 11 & 31, g = c >> 5 & 63, b = c & 31;

	out[0] = r << 3 | r >> 2;
	out[1] = g << 2 | g >> 4;
	out[2] = b << 3 | b >> 2;
}

void usc_bc1_texel(const uint8_t block[8], unsigned x, unsigned y, bool always_four, float out[4])
{
	unsigned c0 = block[0] | block[1] << 8, c1 = block[2] | block[3] << 8;
	unsigned code = le32(block + 4) >> (2 * (4 * (y & 3) + (x & 3))) & 3;
	unsigned a[3], b[3], v;

	rgb565(c0, a);
	rgb565(c1, b);
	out[3] = 1.0f;
	for (unsigned k = 0; k < 3; k++) {
		if (code == 0)
			v = a[k];
		else if (code == 1)
			v = b[k];
		else if (c0 > c1 || always_four)
			v = code == 2 ? (2 * a[k] + b[k]) / 3 : (a[k] + 2 * b[k]) / 3;
		else
			v = code == 2 ? (a[k] + b[k]) / 2 : 0;
		out[k] = (float)v / 255.0f;
	}
	if (code == 3 && c0 <= c1 && !always_four)
		out[3] = 0.0f; /* transparent black; RGB formats read alpha as one */
}

float usc_bc2_alpha(const uint8_t block[8], unsigned x, unsigned y)
{
	unsigned i = 4 * (y & 3) + (x & 3);

	return (float)(block[i / 2] >> (4 * (i % 2)) & 15) / 15.0f;
}

float usc_bc4_texel(const uint8_t block[8], unsigned x, unsigned y, bool is_signed)
{
	uint64_t bits = (uint64_t)le32(block + 2) | (uint64_t)(block[6] | block[7] << 8) << 32;
	unsigned code = (unsigned)(bits >> (3 * (4 * (y & 3) + (x & 3)))) & 7;
	int e0 = is_signed ? (int8_t)block[0] : block[0],
	    e1 = is_signed ? (int8_t)block[1] : block[1];
	int lo = is_signed ? -127 : 0, hi = is_signed ? 127 : 255, v;

	/* RGTC: -128 is -1.0, as -127 is */
	e0 = e0 < lo ? lo : e0;
	e1 = e1 < lo ? lo : e1;
	if (code < 2)
		v = code ? e1 : e0;
	else if (e0 > e1)
		v = ((int)(8 - code) * e0 + (int)(code - 1) * e1) / 7;
	else if (code < 6)
		v = ((int)(6 - code) * e0 + (int)(code - 1) * e1) / 5;
	else
		v = code == 6 ? lo : hi;
	return (float)v / (float)hi;
}
