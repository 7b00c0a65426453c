/*
 * test-astc: the texture unit's ASTC LDR decoder against blocks built here
 * field by field from the Khronos Data Format Specification's ASTC
 * chapter, with the texels each must give worked out by hand from its
 * rules (the arithmetic is in the comments): void-extent blocks, a
 * single-partition RGB block with plain 8-bit endpoints, weights in trits
 * and quints, dual planes, bilinear weight infill for every block size,
 * two partitions of different endpoint modes, and the illegal encodings
 * that must decode to the error colour.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "astc.h"

static const unsigned sizes[14][2] = { { 4, 4 },  { 5, 4 },   { 5, 5 },	  { 6, 5 },  { 6, 6 },
				       { 8, 5 },  { 8, 6 },   { 8, 8 },	  { 10, 5 }, { 10, 6 },
				       { 10, 8 }, { 10, 10 }, { 12, 10 }, { 12, 12 } };

/* n bits of v into the block from bit at (bit 0 of byte 0 first). */
static void put(uint8_t b[16], unsigned at, unsigned n, unsigned v)
{
	for (unsigned i = 0; i < n; i++) {
		unsigned p = at + i;

		b[p / 8] = (uint8_t)((b[p / 8] & ~(1u << (p % 8))) | ((v >> i) & 1) << (p % 8));
	}
}

/* n bits of v into the weight stream at its bit at: the stream runs from bit 127 down. */
static void put_weights(uint8_t b[16], unsigned at, unsigned n, unsigned v)
{
	for (unsigned i = 0; i < n; i++)
		put(b, 127 - (at + i), 1, (v >> i) & 1);
}

static void expect(const uint8_t b[16], unsigned bw, unsigned bh, unsigned x, unsigned y, bool srgb,
		   unsigned r, unsigned g, unsigned bl, unsigned a)
{
	uint16_t out[4];

	if (!usc_astc_texel(b, bw, bh, x, y, srgb, out))
		fail_msg("%ux%u texel (%u, %u): an error block", bw, bh, x, y);
	if (out[0] != r || out[1] != g || out[2] != bl || out[3] != a)
		fail_msg("%ux%u texel (%u, %u): (%u, %u, %u, %u), want (%u, %u, %u, %u)", bw, bh, x,
			 y, out[0], out[1], out[2], out[3], r, g, bl, a);
}

static void expect_error(const uint8_t b[16], unsigned bw, unsigned bh, const char *what)
{
	uint16_t out[4];

	for (unsigned y = 0; y < bh; y++)
		for (unsigned x = 0; x < bw; x++) {
			if (usc_astc_texel(b, bw, bh, x, y, false, out))
				fail_msg("%s: texel (%u, %u) decoded", what, x, y);
			if (out[0] != 0xffff || out[1] != 0 || out[2] != 0xffff || out[3] != 0xffff)
				fail_msg("%s: texel (%u, %u) is not magenta", what, x, y);
		}
}

/* Block mode 0x42: a 4x4 weight grid of 2-bit weights (R = 4, H = 0, A = 2, B = 0). */
#define GRID_4X4_2BIT 0x042

/*
 * Void extent: block mode 0x1fc, bit 9 LDR, bits 10-11 reserved ones,
 * four 13-bit extents (all ones: no extent), RGBA as UNORM16 from bit 64.
 */
static void test_void_extent(void **state)
{
	uint8_t b[16] = { 0 };

	(void)state;
	put(b, 0, 9, 0x1fc);
	put(b, 10, 2, 3);
	for (unsigned i = 0; i < 4; i++)
		put(b, 12 + 13 * i, 13, 0x1fff);
	put(b, 64, 16, 0x1234);
	put(b, 80, 16, 0x8000);
	put(b, 96, 16, 0xffff);
	put(b, 112, 16, 0x0042);
	for (unsigned s = 0; s < 14; s++)
		expect(b, sizes[s][0], sizes[s][1], sizes[s][0] - 1, sizes[s][1] - 1, false, 0x1234,
		       0x8000, 0xffff, 0x0042);
	expect(b, 4, 4, 0, 0, true, 0x1234, 0x8000, 0xffff, 0x0042);

	/* a real extent, min < max in both directions, is fine: its texels are the colour */
	put(b, 12, 13, 0), put(b, 25, 13, 100), put(b, 38, 13, 0), put(b, 51, 13, 100);
	expect(b, 6, 6, 2, 3, false, 0x1234, 0x8000, 0xffff, 0x0042);
	/* min >= max while not all ones: illegal */
	put(b, 25, 13, 0);
	expect_error(b, 4, 4, "void extent with an empty S range");
	/* HDR void extent: an error in the LDR profile */
	for (unsigned i = 0; i < 4; i++)
		put(b, 12 + 13 * i, 13, 0x1fff);
	put(b, 9, 1, 1);
	expect_error(b, 4, 4, "HDR void extent");
}

/*
 * One partition, CEM 8 (RGB direct), a 4x4 grid of 2-bit weights in a
 * 4x4 block.  Weight bits: 16 x 2 = 32, from bit 127 down; colour bits
 * 17..95, 79 of them, so six endpoint values take 8 bits each (48 <= 79):
 * v0..v5 = 0x10, 0xf0, 0x20, 0x80, 0x00, 0xff at bits 17, 25, .. 57.
 * v1 + v3 + v5 >= v0 + v2 + v4: e0 = (0x10, 0x20, 0x00), e1 = (0xf0, 0x80,
 * 0xff), alpha 0xff.  Weights 0, 1, 2, 3 by column unquantize (2 bits
 * replicated to 6, +1 above 32) to 0, 21, 43, 64; a 4x4 grid on a 4x4
 * block lands on the texels.  LDR endpoints expand to e * 257, sRGB to
 * e << 8 | 0x80; texel = (c0 * (64 - w) + c1 * w + 32) / 64.  Column 1
 * (w = 21): red (0x1010 * 43 + 0xf0f0 * 21 + 32) / 64 = 23002, green
 * (0x2020 * 43 + 0x8080 * 21 + 32) / 64 = 16320, blue (65535 * 21 + 32) /
 * 64 = 21504.
 */
static void rgb_block(uint8_t b[16])
{
	static const unsigned v[6] = { 0x10, 0xf0, 0x20, 0x80, 0x00, 0xff };

	memset(b, 0, 16);
	put(b, 0, 11, GRID_4X4_2BIT);
	put(b, 11, 2, 0); /* one partition */
	put(b, 13, 4, 8);
	for (unsigned i = 0; i < 6; i++)
		put(b, 17 + 8 * i, 8, v[i]);
	for (unsigned i = 0; i < 16; i++)
		put_weights(b, 2 * i, 2, i % 4);
}

static void test_rgb_direct(void **state)
{
	uint8_t b[16];

	(void)state;
	rgb_block(b);
	for (unsigned y = 0; y < 4; y++) {
		expect(b, 4, 4, 0, y, false, 0x1010, 0x2020, 0, 0xffff);
		expect(b, 4, 4, 1, y, false, 23002, 16320, 21504, 0xffff);
		expect(b, 4, 4, 3, y, false, 0xf0f0, 0x8080, 0xffff, 0xffff);
		expect(b, 4, 4, 0, y, true, 0x1080, 0x2080, 0x0080, 0xff80);
		expect(b, 4, 4, 3, y, true, 0xf080, 0x8080, 0xff80, 0xff80);
	}
	/* the sum rule the other way round: the endpoints swap and blue-contract */
	put(b, 17 + 8 * 1, 8, 0x00), put(b, 17 + 8 * 3, 8, 0x00), put(b, 17 + 8 * 5, 8, 0x00);
	put(b, 17 + 8 * 4, 8, 0x40);
	/*
	 * v = 0x10, 0, 0x20, 0, 0x40, 0: s1 = 0 < s0 = 0x70, so e0 = bc(v1, v3,
	 * v5) = (0, 0, 0) and e1 = bc(v0, v2, v4) = ((0x10 + 0x40) / 2, (0x20 +
	 * 0x40) / 2, 0x40) = (0x28, 0x30, 0x40).
	 */
	expect(b, 4, 4, 0, 0, false, 0, 0, 0, 0xffff);
	expect(b, 4, 4, 3, 2, false, 0x2828, 0x3030, 0x4040, 0xffff);
}

/*
 * Luminance endpoints 0 and 255 (CEM 0, 8-bit values at bits 17 and 25):
 * a texel's value shows its weight w: (65535 * w + 32) / 64.
 */
static void luminance_block(uint8_t b[16], unsigned mode)
{
	memset(b, 0, 16);
	put(b, 0, 11, mode);
	put(b, 13, 4, 0);
	put(b, 17, 8, 0);
	put(b, 25, 8, 255);
}

static unsigned lum(unsigned w)
{
	return (65535 * w + 32) / 64;
}

/*
 * Weights of trits: block mode 0x51 (R = 3, H = 0: 0..2, a bare trit; 4x4
 * grid), 16 weights in ceil(16 * 8 / 5) = 26 bits.  Each group of five
 * is the 8 bits T (no low bits).  T = 0xc6: T[4:2] = 001, T[6:5] = 10, so
 * t4 = T7 = 1, t3 = 2, C = 00110: t2 = C4 = 0, t1 = C[3:2] = 1, t0 =
 * {C1, C0 & ~C1} = 2 -- trits (2, 1, 0, 2, 1).  T = 0x5d: T[4:2] = 111,
 * so t4 = t3 = 2 and C = {T[7:5], T[1:0]} = 01001: t2 = 0, t1 = 2, t0 = 1
 * -- (1, 2, 0, 2, 2).  Group 3 has only T[1:0] (bits 24-25) = 2: C = 10,
 * t0 = 2.  Trits unquantize to 0, 32, 64.
 */
static void test_trits(void **state)
{
	static const unsigned want[16] = {
		64, 32, 0, 64, 32, 32, 64, 0, 64, 64, 0, 0, 0, 0, 0, 64
	};
	uint8_t b[16];

	(void)state;
	luminance_block(b, 0x051);
	put_weights(b, 0, 8, 0xc6);
	put_weights(b, 8, 8, 0x5d);
	put_weights(b, 24, 2, 2);
	for (unsigned i = 0; i < 16; i++)
		expect(b, 4, 4, i % 4, i / 4, false, lum(want[i]), lum(want[i]), lum(want[i]),
		       0xffff);
}

/*
 * Weights of quints: block mode 0x52 (R = 5: 0..4, a bare quint), 16
 * weights in ceil(16 * 7 / 3) = 38 bits, groups of three in 7 bits Q.
 * Q = 0x5d: Q[2:1] = 10, so q2 = Q[6:5] = 2, C = 11101, C[2:0] = 101:
 * q1 = 4, q0 = C[4:3] = 3 -- (3, 4, 2).  Q = 0x1e: Q[2:1] = 11 and
 * Q[6:5] = 00: q1 = q0 = 4, q2 = {Q0, Q4 & ~Q0, Q3 & ~Q0} = 011 -- (4, 4,
 * 3).  Quints unquantize to 0, 16, 32, 48, 64: 48 is (65535 * 48 + 32) /
 * 64 = 49151.
 */
static void test_quints(void **state)
{
	static const unsigned want[16] = { 48, 64, 32, 64, 64, 48 };
	uint8_t b[16];

	(void)state;
	luminance_block(b, 0x052);
	put_weights(b, 0, 7, 0x5d);
	put_weights(b, 7, 7, 0x1e);
	for (unsigned i = 0; i < 16; i++)
		expect(b, 4, 4, i % 4, i / 4, false, lum(want[i]), lum(want[i]), lum(want[i]),
		       0xffff);
	assert_int_equal(lum(48), 49151);
}

/*
 * The unquantization tables: every range's values, sorted, run from 0 to
 * 255 (weights: 0 to 64) nearly evenly, within 1.5 of i * 255 / (n - 1)
 * (the bit patterns approximate the even spread: the 40-level range's
 * 16th value is 97 for 98.1), mirror each other (the k-th smallest and
 * the k-th largest add up to the top), and are all different.
 */
static void test_unquantize(void **state)
{
	static const unsigned colour[] = { 6,  8,  10, 12, 16,	20,  24,  32, 40,
					   48, 64, 80, 96, 128, 160, 192, 256 };
	static const unsigned weight[] = { 2, 3, 4, 5, 6, 8, 10, 12, 16, 20, 24, 32 };

	(void)state;
	for (unsigned k = 0; k < 2; k++) {
		const unsigned *list = k ? weight : colour;
		unsigned count = k ? 12 : 17, top = k ? 64 : 255;

		for (unsigned r = 0; r < count; r++) {
			unsigned n = list[r], sorted[256], m = 0;
			uint8_t seen[256] = { 0 };

			for (unsigned v = 0; v < n; v++) {
				int u = k ? usc_astc_unquantize_weight(n, v)
					  : usc_astc_unquantize_colour(n, v);

				assert_true(u >= 0 && u <= (int)top);
				if (seen[u]++)
					fail_msg("range %u: %d twice", n, u);
			}
			for (unsigned u = 0; u <= top; u++)
				if (seen[u])
					sorted[m++] = u;
			for (unsigned i = 0; i < n; i++) {
				double even = (double)i * top / (n - 1);

				if (sorted[i] + 1.5 < even || sorted[i] > even + 1.5)
					fail_msg("range %u: value %u is %u", n, i, sorted[i]);
				assert_int_equal(sorted[i] + sorted[n - 1 - i], top);
			}
		}
	}
	/* ranges ASTC does not have for the purpose */
	assert_int_equal(usc_astc_unquantize_colour(5, 0), -1);
	assert_int_equal(usc_astc_unquantize_weight(40, 0), -1);
	assert_int_equal(usc_astc_unquantize_weight(7, 0), -1);
	/* two values worked by hand: a trit with one bit, 6 levels; a quint with two, 20 */
	assert_int_equal(usc_astc_unquantize_colour(6, 3),
			 204); /* t1 m1: 204 ^ 0x1ff = 307: 128 | 76 */
	assert_int_equal(usc_astc_unquantize_weight(20, 2), 16); /* q0, m = 2: B = 66: 66 >> 2 */
}

/*
 * Bilinear infill: the 4x4 grid's weights by column 0, 21, 43, 64 (and
 * 64 everywhere) on every block size.  The edges land on the grid;
 * inside, the weights grow with x and do not change with y.  Two texels
 * by hand: 12x12, x = 6: Ds = (1024 + 6) / 11 = 93, s = 93 * 6 = 558,
 * gs = (558 * 3 + 32) >> 6 = 26: column 1, fraction 10, so w = (21 * 6 +
 * 43 * 10 + 8) >> 4 = 35.  5x4, x = 2: Ds = 1026 / 4 = 256, gs = (512 *
 * 3 + 32) >> 6 = 24: column 1, fraction 8: (21 * 8 + 43 * 8 + 8) >> 4 =
 * 32.
 */
static void test_infill(void **state)
{
	uint8_t ramp[16], flat[16];

	(void)state;
	luminance_block(ramp, GRID_4X4_2BIT);
	luminance_block(flat, GRID_4X4_2BIT);
	for (unsigned i = 0; i < 16; i++) {
		put_weights(ramp, 2 * i, 2, i % 4);
		put_weights(flat, 2 * i, 2, 3);
	}
	for (unsigned s = 0; s < 14; s++) {
		unsigned bw = sizes[s][0], bh = sizes[s][1];

		for (unsigned y = 0; y < bh; y++) {
			uint16_t prev[4] = { 0 }, out[4];

			for (unsigned x = 0; x < bw; x++) {
				expect(flat, bw, bh, x, y, false, 65535, 65535, 65535, 65535);
				assert_true(usc_astc_texel(ramp, bw, bh, x, y, false, out));
				if (out[0] < prev[0])
					fail_msg("%ux%u: texel (%u, %u) %u after %u", bw, bh, x, y,
						 out[0], prev[0]);
				memcpy(prev, out, sizeof(out));
				if (y) {
					uint16_t top[4];

					usc_astc_texel(ramp, bw, bh, x, 0, false, top);
					assert_int_equal(out[0], top[0]);
				}
			}
			expect(ramp, bw, bh, 0, y, false, 0, 0, 0, 0xffff);
			expect(ramp, bw, bh, bw - 1, y, false, 65535, 65535, 65535, 0xffff);
		}
	}
	expect(ramp, 12, 12, 6, 5, false, lum(35), lum(35), lum(35), 0xffff);
	expect(ramp, 5, 4, 2, 3, false, lum(32), lum(32), lum(32), 0xffff);
	assert_int_equal(lum(35), 35839);
}

/*
 * Dual plane: block mode 0x442 (the 4x4 grid of 2-bit weights with D
 * set): 32 interleaved weights, 64 bits; the colour component selector
 * sits in the two bits under them (62..63) = 3, alpha.  CEM 4
 * (luminance-alpha direct): v0..v3 = 10, 200, 30, 220 give e0 = (10, 10,
 * 10, 30), e1 = (200, 200, 200, 220).  Plane 0 weights 0, plane 1
 * weights 3 (64): RGB is e0, alpha e1.
 */
static void test_dual_plane(void **state)
{
	static const unsigned v[4] = { 10, 200, 30, 220 };
	uint8_t b[16] = { 0 };

	(void)state;
	put(b, 0, 11, 0x442);
	put(b, 13, 4, 4);
	for (unsigned i = 0; i < 4; i++)
		put(b, 17 + 8 * i, 8, v[i]);
	put(b, 62, 2, 3);
	for (unsigned i = 0; i < 16; i++)
		put_weights(b, 4 * i + 2, 2, 3);
	for (unsigned i = 0; i < 16; i++)
		expect(b, 4, 4, i % 4, i / 4, false, 10 * 257, 10 * 257, 10 * 257, 220 * 257);
	/* the selector on red instead: red follows plane 1 */
	put(b, 62, 2, 0);
	expect(b, 4, 4, 1, 1, false, 200 * 257, 10 * 257, 10 * 257, 30 * 257);
}

/*
 * Two partitions (bits 11-12 = 1), partition index 0x025 (bits 13-22),
 * endpoint modes of two classes: bits 23-24 = 1 (base class 0), C0 = 0,
 * C1 = 1, M0 = 0 (bits 25..28 = C0 C1 M0), M1 = 0 in the two bits under
 * the weights -- CEM 0 for partition 0 and CEM 4 for partition 1.  Weights
 * all 3 (64): each texel is its partition's e1.  Values from bit 29: the
 * 4x4 grid leaves bits 29..93 (65) for 6 values, 8 bits each: partition
 * 0's L 0, 100; partition 1's L 0, 200 and A 0, 50.  Which texel is in
 * which partition is the specification's hash (usc_astc_partition); the
 * 4x4 block is "small" (fewer than 31 texels).
 */
static void test_partitions(void **state)
{
	static const unsigned v[6] = { 0, 100, 0, 200, 0, 50 };
	unsigned in[2] = { 0 };
	uint8_t b[16] = { 0 };

	(void)state;
	put(b, 0, 11, GRID_4X4_2BIT);
	put(b, 11, 2, 1);
	put(b, 13, 10, 0x025);
	put(b, 23, 2, 1);
	put(b, 25, 4, 0x2); /* C0 = 0, C1 = 1, M0 = 0 */
	put(b, 128 - 32 - 2, 2, 0);
	for (unsigned i = 0; i < 6; i++)
		put(b, 29 + 8 * i, 8, v[i]);
	for (unsigned i = 0; i < 16; i++)
		put_weights(b, 2 * i, 2, 3);
	for (unsigned y = 0; y < 4; y++)
		for (unsigned x = 0; x < 4; x++) {
			unsigned p = usc_astc_partition(0x025, x, y, 0, 2, true);

			assert_true(p < 2);
			in[p]++;
			if (p == 0)
				expect(b, 4, 4, x, y, false, 100 * 257, 100 * 257, 100 * 257,
				       0xffff);
			else
				expect(b, 4, 4, x, y, false, 200 * 257, 200 * 257, 200 * 257,
				       50 * 257);
		}
	/* the hash splits this block: both partitions have texels */
	assert_true(in[0] && in[1]);
	/* a single partition is partition 0; a count's answers stay below it */
	assert_int_equal(usc_astc_partition(0x155, 3, 2, 0, 1, false), 0);
	for (unsigned seed = 0; seed < 1024; seed += 37)
		for (unsigned n = 2; n <= 4; n++)
			assert_true(usc_astc_partition(seed, seed % 12, seed % 7, 0, n, false) < n);
}

/* Encodings the specification calls illegal: every texel is the error colour. */
static void test_illegal(void **state)
{
	uint8_t b[16];

	(void)state;
	memset(b, 0, 16);
	expect_error(b, 4, 4, "block mode 0 (reserved)");
	rgb_block(b);
	put(b, 0, 11, 0x1c0 | 0x10); /* 111xxxx00 not a void extent: reserved */
	expect_error(b, 4, 4, "reserved block mode 1 1 1 x x x x 0 0");
	/*
	 * Block mode 0x48: bits[1:0] = 00 and bits[8:7] = 00, a 12-wide grid
	 * A + 2 = 4 high, R = 4 (bits 4, 3, 2 = R0, R2, R1 = 0, 1, 0): 48
	 * 2-bit weights, 96 bits.  Legal in a 12x12 block, not in an 8x8 one.
	 */
	luminance_block(b, 0x048);
	expect(b, 12, 12, 0, 0, false, 0, 0, 0, 0xffff);
	expect_error(b, 8, 8, "weight grid wider than the block");
	/* block mode 0x3d6: bits[3:2] = 01, an 11x4 grid (B = 3, A = 2) of 0..19 (R = 5,
	 * H = 1): 44 x 2 + ceil(44 * 7 / 3) = 191 weight bits, more than 96 */
	luminance_block(b, 0x3d6);
	expect_error(b, 12, 12, "more than 96 weight bits");
	/* block mode 0x41: the 4x4 grid of 1-bit weights (R = 2), 16 bits: fewer than 24 */
	luminance_block(b, 0x041);
	expect_error(b, 4, 4, "fewer than 24 weight bits");
	/* dual plane with four partitions */
	rgb_block(b);
	put(b, 0, 11, 0x442);
	put(b, 11, 2, 3);
	expect_error(b, 4, 4, "dual plane and four partitions");
	/* an HDR endpoint mode (2: HDR luminance) in the LDR profile */
	rgb_block(b);
	put(b, 13, 4, 2);
	expect_error(b, 4, 4, "HDR endpoint mode");
	/* more than 18 endpoint values: four partitions of RGBA (8 each) */
	rgb_block(b);
	put(b, 11, 2, 3);
	put(b, 23, 6, 12 << 2);
	expect_error(b, 4, 4, "32 endpoint values");
	/* not an ASTC block size */
	rgb_block(b);
	expect_error(b, 7, 7, "7x7 blocks");
}

/*
 * Pseudo-random blocks, every size, every texel: the decoder reads only
 * the block (the sanitizer builds see to that) and a block it calls
 * illegal is magenta, one it decodes as legal has every texel decoded.
 */
static void test_random_blocks(void **state)
{
	uint32_t x = 0x12345678u;
	unsigned legal = 0, illegal = 0;

	(void)state;
	for (unsigned n = 0; n < 3000; n++) {
		uint8_t b[16];
		const unsigned *size = sizes[n % 14];

		for (unsigned i = 0; i < 16; i++) {
			x ^= x << 13, x ^= x >> 17, x ^= x << 5;
			b[i] = (uint8_t)(x >> 24);
		}
		for (unsigned y = 0; y < size[1]; y++)
			for (unsigned t = 0; t < size[0]; t++) {
				uint16_t out[4];

				if (usc_astc_texel(b, size[0], size[1], t, y, n % 2, out)) {
					legal++;
				} else {
					illegal++;
					assert_true(out[0] == 0xffff && out[1] == 0 &&
						    out[2] == 0xffff && out[3] == 0xffff);
				}
			}
	}
	/* random bits make both kinds */
	assert_true(legal > 1000 && illegal > 1000);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_void_extent), cmocka_unit_test(test_rgb_direct),
		cmocka_unit_test(test_trits),	    cmocka_unit_test(test_quints),
		cmocka_unit_test(test_unquantize),  cmocka_unit_test(test_infill),
		cmocka_unit_test(test_dual_plane),  cmocka_unit_test(test_partitions),
		cmocka_unit_test(test_illegal),	    cmocka_unit_test(test_random_blocks),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
