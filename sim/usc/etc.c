/*
 * etc.c: ETC2 and EAC blocks (etc.h).  Every bit position and table below
 * is the Khronos Data Format Specification's ("ETC2 compressed texture
 * image formats"), cross-checked with the decoders of Mesa
 * (src/mesa/main/texcompress_etc.c) and the Android emulator.
 */
#include "etc.h"

/* The block as one 64-bit word, byte 0 on top. */
static uint64_t word(const uint8_t b[8])
{
	uint64_t v = 0;

	for (unsigned i = 0; i < 8; i++)
		v = v << 8 | b[i];
	return v;
}

static unsigned bits(uint64_t v, unsigned hi, unsigned lo)
{
	return (unsigned)((v >> lo) & ((1ull << (hi - lo + 1)) - 1));
}

static int clamp255(int v)
{
	return v < 0 ? 0 : v > 255 ? 255 : v;
}

static unsigned extend4(unsigned v)
{
	return v << 4 | v;
}

static unsigned extend5(unsigned v)
{
	return v << 3 | v >> 2;
}

static unsigned extend6(unsigned v)
{
	return v << 2 | v >> 4;
}

static unsigned extend7(unsigned v)
{
	return v << 1 | v >> 6;
}

/* A 3-bit two's complement delta. */
static int delta(unsigned v)
{
	return v & 4 ? (int)v - 8 : (int)v;
}

/* The colour index of texel k = 4x + y: its MSB at bit 16 + k, its LSB at bit k. */
static unsigned colour_index(uint64_t v, unsigned k)
{
	return ((unsigned)(v >> (16 + k)) & 1) << 1 | ((unsigned)(v >> k) & 1);
}

/* The modifier tables, by index: +a, +b, -a, -b. */
static const int modifiers[8][4] = { { 2, 8, -2, -8 },	     { 5, 17, -5, -17 },
				     { 9, 29, -9, -29 },     { 13, 42, -13, -42 },
				     { 18, 60, -18, -60 },   { 24, 80, -24, -80 },
				     { 33, 106, -33, -106 }, { 47, 183, -47, -183 } };

/* T and H modes' distances. */
static const int distances[8] = { 3, 6, 11, 16, 23, 32, 41, 64 };

static void paint(uint8_t out[4], const unsigned base[3], int d)
{
	for (unsigned c = 0; c < 3; c++)
		out[c] = (uint8_t)clamp255((int)base[c] + d);
}

void usc_etc2_texel(const uint8_t block[8], unsigned x, unsigned y, bool punchthrough,
		    uint8_t out[4])
{
	uint64_t v = word(block);
	unsigned k = 4 * x + y, index = colour_index(v, k);
	bool diff = bits(v, 33, 33) || punchthrough; /* punch-through has no individual mode */
	bool opaque = !punchthrough || bits(v, 33, 33);
	unsigned r = bits(v, 63, 59), g = bits(v, 55, 51), b = bits(v, 47, 43);
	int rd = delta(bits(v, 58, 56)), gd = delta(bits(v, 50, 48)), bd = delta(bits(v, 42, 40));
	unsigned base1[3], base2[3], p[4][3];
	bool second, flip = bits(v, 32, 32);

	out[3] = 255;
	if (!diff || (r + rd <= 31 && (int)r + rd >= 0 && (int)g + gd >= 0 && g + gd <= 31 &&
		      (int)b + bd >= 0 && b + bd <= 31)) {
		/* individual or differential: two sub-blocks, a base colour and table each */
		unsigned table;
		int m;

		if (!diff) {
			base1[0] = extend4(bits(v, 63, 60)), base2[0] = extend4(bits(v, 59, 56));
			base1[1] = extend4(bits(v, 55, 52)), base2[1] = extend4(bits(v, 51, 48));
			base1[2] = extend4(bits(v, 47, 44)), base2[2] = extend4(bits(v, 43, 40));
		} else {
			base1[0] = extend5(r), base2[0] = extend5((unsigned)((int)r + rd));
			base1[1] = extend5(g), base2[1] = extend5((unsigned)((int)g + gd));
			base1[2] = extend5(b), base2[2] = extend5((unsigned)((int)b + bd));
		}
		second = flip ? y >= 2 : x >= 2;
		table = second ? bits(v, 36, 34) : bits(v, 39, 37);
		m = modifiers[table][index];
		if (!opaque) {
			/* punch-through: index 2 is transparent black, and +-a become 0 */
			if (index == 2) {
				out[0] = out[1] = out[2] = out[3] = 0;
				return;
			}
			if (index == 0)
				m = 0;
		}
		paint(out, second ? base2 : base1, m);
		return;
	}
	if ((int)r + rd < 0 || r + rd > 31) {
		/* T mode */
		unsigned c1[3] = { extend4(bits(v, 60, 59) << 2 | bits(v, 57, 56)),
				   extend4(bits(v, 55, 52)), extend4(bits(v, 51, 48)) };
		unsigned c2[3] = { extend4(bits(v, 47, 44)), extend4(bits(v, 43, 40)),
				   extend4(bits(v, 39, 36)) };
		int d = distances[bits(v, 35, 34) << 1 | bits(v, 32, 32)];

		for (unsigned c = 0; c < 3; c++) {
			p[0][c] = c1[c];
			p[1][c] = (unsigned)clamp255((int)c2[c] + d);
			p[2][c] = c2[c];
			p[3][c] = (unsigned)clamp255((int)c2[c] - d);
		}
	} else if ((int)g + gd < 0 || g + gd > 31) {
		/* H mode: the distance's last bit is whether the first colour is not below */
		unsigned c1[3] = { extend4(bits(v, 62, 59)),
				   extend4(bits(v, 58, 56) << 1 | bits(v, 52, 52)),
				   extend4(bits(v, 51, 51) << 3 | bits(v, 49, 47)) };
		unsigned c2[3] = { extend4(bits(v, 46, 43)), extend4(bits(v, 42, 39)),
				   extend4(bits(v, 38, 35)) };
		unsigned v1 = c1[0] << 16 | c1[1] << 8 | c1[2],
			 v2 = c2[0] << 16 | c2[1] << 8 | c2[2];
		int d = distances[bits(v, 34, 34) << 2 | bits(v, 32, 32) << 1 | (v1 >= v2)];

		for (unsigned c = 0; c < 3; c++) {
			p[0][c] = (unsigned)clamp255((int)c1[c] + d);
			p[1][c] = (unsigned)clamp255((int)c1[c] - d);
			p[2][c] = (unsigned)clamp255((int)c2[c] + d);
			p[3][c] = (unsigned)clamp255((int)c2[c] - d);
		}
	} else {
		/* planar: three colours, interpolated across the block; always opaque */
		int o[3] = { (int)extend6(bits(v, 62, 57)),
			     (int)extend7(bits(v, 56, 56) << 6 | bits(v, 54, 49)),
			     (int)extend6(bits(v, 48, 48) << 5 | bits(v, 44, 43) << 3 |
					  bits(v, 41, 39)) };
		int h[3] = { (int)extend6(bits(v, 38, 34) << 1 | bits(v, 32, 32)),
			     (int)extend7(bits(v, 31, 25)), (int)extend6(bits(v, 24, 19)) };
		int vv[3] = { (int)extend6(bits(v, 18, 13)), (int)extend7(bits(v, 12, 6)),
			      (int)extend6(bits(v, 5, 0)) };

		for (unsigned c = 0; c < 3; c++)
			out[c] = (uint8_t)clamp255(
			    ((int)x * (h[c] - o[c]) + (int)y * (vv[c] - o[c]) + 4 * o[c] + 2) >> 2);
		return;
	}
	if (!opaque && index == 2) {
		out[0] = out[1] = out[2] = out[3] = 0;
		return;
	}
	for (unsigned c = 0; c < 3; c++)
		out[c] = (uint8_t)p[index][c];
}

/* The EAC modifier tables, by 3-bit index. */
static const int eac[16][8] = {
	{ -3, -6, -9, -15, 2, 5, 8, 14 }, { -3, -7, -10, -13, 2, 6, 9, 12 },
	{ -2, -5, -8, -13, 1, 4, 7, 12 }, { -2, -4, -6, -13, 1, 3, 5, 12 },
	{ -3, -6, -8, -12, 2, 5, 7, 11 }, { -3, -7, -9, -11, 2, 6, 8, 10 },
	{ -4, -7, -8, -11, 3, 6, 7, 10 }, { -3, -5, -8, -11, 2, 4, 7, 10 },
	{ -2, -6, -8, -10, 1, 5, 7, 9 },  { -2, -5, -8, -10, 1, 4, 7, 9 },
	{ -2, -4, -8, -10, 1, 3, 7, 9 },  { -2, -5, -7, -10, 1, 4, 6, 9 },
	{ -3, -4, -7, -10, 2, 3, 6, 9 },  { -1, -2, -3, -10, 0, 1, 2, 9 },
	{ -4, -6, -8, -9, 3, 5, 7, 8 },	  { -3, -5, -7, -9, 2, 4, 6, 8 },
};

/* An EAC block's base, multiplier and the texel's modifier (its index at bits 47 - 3k). */
static void eac_fields(const uint8_t block[8], unsigned x, unsigned y, unsigned *base,
		       unsigned *multiplier, int *modifier)
{
	uint64_t v = word(block);
	unsigned k = 4 * x + y;

	*base = bits(v, 63, 56);
	*multiplier = bits(v, 55, 52);
	*modifier = eac[bits(v, 51, 48)][bits(v, 47 - 3 * k, 45 - 3 * k)];
}

unsigned usc_eac_alpha(const uint8_t block[8], unsigned x, unsigned y)
{
	unsigned base, multiplier;
	int modifier;

	eac_fields(block, x, y, &base, &multiplier, &modifier);
	return (unsigned)clamp255((int)base + modifier * (int)multiplier);
}

int usc_eac_r11(const uint8_t block[8], unsigned x, unsigned y, bool is_signed)
{
	unsigned base, multiplier;
	int modifier, v;

	eac_fields(block, x, y, &base, &multiplier, &modifier);
	/* a multiplier of 0 means an eighth: the modifier unscaled */
	modifier = multiplier ? modifier * (int)multiplier * 8 : modifier;
	if (!is_signed) {
		v = (int)base * 8 + 4 + modifier;
		return v < 0 ? 0 : v > 2047 ? 2047 : v;
	}
	/* the base is a signed byte, -128 taken as -127 */
	v = (int8_t)base == -128 ? -127 : (int8_t)base;
	v = v * 8 + modifier;
	return v < -1023 ? -1023 : v > 1023 ? 1023 : v;
}
