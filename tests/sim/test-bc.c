/*
 * test-bc: the texture unit's BC1-BC5 decoder (sim/usc/bc.c) against
 * blocks worked out by hand from the S3TC and RGTC extensions' equations,
 * in 8-bit integers as bc.c computes them: RGB565 endpoints expanded by
 * repeating their bits, divisions truncated; the four- and three-colour modes
 * of BC1 (and BC2/BC3's colour half, always four), BC2's 4-bit alpha,
 * the eight- and six-value modes of BC3's alpha and BC4, signed BC4 with
 * -128, and the texel order (rows of 2- or 3-bit codes from bit 0).
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "bc.h"

static void expect(float got, float want, const char *what, unsigned x, unsigned y)
{
	if (fabsf(got - want) > 1e-6f)
		fail_msg("%s at (%u, %u): %.7f, want %.7f", what, x, y, got, want);
}

/*
 * c0 = 0xf800 (red), c1 = 0x001f (blue): c0 > c1, four colours.  Codes
 * 0, 1, 2, 3 across the first row, then 3, 2, 1, 0; the rest 0.
 */
static void test_bc1_four(void **state)
{
	/* row 0: 0b11100100 = 0xe4; row 1: 0b00011011 = 0x1b */
	static const uint8_t block[8] = { 0x00, 0xf8, 0x1f, 0x00, 0xe4, 0x1b, 0x00, 0x00 };
	static const float want[4][3] = {
		{ 1, 0, 0 }, { 0, 0, 1 }, { 2.0f / 3, 0, 1.0f / 3 }, { 1.0f / 3, 0, 2.0f / 3 }
	};
	float out[4];

	(void)state;
	for (unsigned x = 0; x < 4; x++) {
		usc_bc1_texel(block, x, 0, false, out);
		for (unsigned c = 0; c < 3; c++)
			expect(out[c], want[x][c], "colour", x, 0);
		expect(out[3], 1, "alpha", x, 0);
		usc_bc1_texel(block, x, 1, false, out);
		expect(out[0], want[3 - x][0], "red", x, 1);
		usc_bc1_texel(block, x, 3, false, out);
		expect(out[0], 1, "red", x, 3);
	}
}

/*
 * c0 = 0x07e0 (green) <= c1 = 0xffff (white): three colours and
 * transparent black, unless always four (BC2, BC3).  Green's 6 bits
 * expand to exactly 1.
 */
static void test_bc1_three(void **state)
{
	static const uint8_t block[8] = { 0xe0, 0x07, 0xff, 0xff, 0xe4, 0x00, 0x00, 0x00 };
	float out[4];

	(void)state;
	usc_bc1_texel(block, 2, 0, false, out);
	expect(out[0], 127.0f / 255, "red", 2, 0); /* (0 + 255) / 2, truncated */
	expect(out[1], 1.0f, "green", 2, 0);
	expect(out[3], 1.0f, "alpha", 2, 0);
	usc_bc1_texel(block, 3, 0, false, out);
	for (unsigned c = 0; c < 4; c++)
		expect(out[c], 0, "transparent black", 3, 0);
	/* always four: code 3 is (c0 + 2 c1) / 3 */
	usc_bc1_texel(block, 3, 0, true, out);
	expect(out[0], 2.0f / 3, "red", 3, 0);
	expect(out[1], 1.0f, "green", 3, 0);
	expect(out[3], 1.0f, "alpha", 3, 0);
	/* equal colours: three-colour mode, code 0 the colour */
	{
		static const uint8_t same[8] = { 0x1f, 0x00, 0x1f, 0x00, 0, 0, 0, 0 };

		usc_bc1_texel(same, 1, 1, false, out);
		expect(out[2], 1.0f, "blue", 1, 1);
		expect(out[3], 1.0f, "alpha", 1, 1);
	}
}

/* BC2: texel i's alpha is nibble i, low nibble first. */
static void test_bc2_alpha(void **state)
{
	static const uint8_t block[8] = { 0x10, 0x32, 0x54, 0x76, 0x98, 0xba, 0xdc, 0xfe };

	(void)state;
	for (unsigned i = 0; i < 16; i++)
		expect(usc_bc2_alpha(block, i % 4, i / 4), (float)i / 15.0f, "alpha", i % 4, i / 4);
}

/* The 48 bits of 3-bit codes: texel i's code at bit 3i. */
static void codes(uint8_t block[8], const unsigned code[16])
{
	uint64_t bits = 0;

	for (unsigned i = 0; i < 16; i++)
		bits |= (uint64_t)code[i] << (3 * i);
	for (unsigned k = 0; k < 6; k++)
		block[2 + k] = (uint8_t)(bits >> (8 * k));
}

/* e0 = 210 > e1 = 70: eight values, (8 - c) e0 + (c - 1) e1 over 7; then six, 0 and 1. */
static void test_bc4_unsigned(void **state)
{
	static const unsigned code[16] = { 0, 1, 2, 3, 4, 5, 6, 7, 7, 6, 5, 4, 3, 2, 1, 0 };
	uint8_t block[8] = { 210, 70 };

	(void)state;
	codes(block, code);
	for (unsigned i = 0; i < 16; i++) {
		unsigned c = code[i];
		float want = c == 0 ? 210 : c == 1 ? 70 : ((8.0f - c) * 210 + (c - 1.0f) * 70) / 7;

		expect(usc_bc4_texel(block, i % 4, i / 4, false), want / 255.0f, "eight", i % 4,
		       i / 4);
	}
	block[0] = 70, block[1] = 210;
	for (unsigned i = 0; i < 16; i++) {
		unsigned c = code[i];
		float want = c == 0   ? 70.0f / 255
			     : c == 1 ? 210.0f / 255
			     : c == 6 ? 0
			     : c == 7 ? 1
				      : ((6.0f - c) * 70 + (c - 1.0f) * 210) / 5 / 255;

		expect(usc_bc4_texel(block, i % 4, i / 4, false), want, "six", i % 4, i / 4);
	}
}

/* Signed: -128 reads as -127 (-1.0); the six-value mode's ends are -1 and 1. */
static void test_bc4_signed(void **state)
{
	static const unsigned code[16] = { 0, 1, 2, 7, 6, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0 };
	uint8_t block[8] = { 0x80, 0x40 }; /* -128 <= 64: six values */

	(void)state;
	codes(block, code);
	expect(usc_bc4_texel(block, 0, 0, true), -1.0f, "e0", 0, 0);
	expect(usc_bc4_texel(block, 1, 0, true), 64.0f / 127, "e1", 1, 0);
	/* (4 * -127 + 64) / 5 = -88.8, truncated towards 0 */
	expect(usc_bc4_texel(block, 2, 0, true), -88.0f / 127, "code 2", 2, 0);
	expect(usc_bc4_texel(block, 3, 0, true), 1.0f, "code 7", 3, 0);
	expect(usc_bc4_texel(block, 0, 1, true), -1.0f, "code 6", 0, 1);
	/* 64 > -128: eight values */
	block[0] = 0x40, block[1] = 0x80;
	expect(usc_bc4_texel(block, 2, 0, true), 36.0f / 127, "eight", 2, 0); /* 257 / 7 */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_bc1_four),   cmocka_unit_test(test_bc1_three),
		cmocka_unit_test(test_bc2_alpha),  cmocka_unit_test(test_bc4_unsigned),
		cmocka_unit_test(test_bc4_signed),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
