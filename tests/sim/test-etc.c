/*
 * test-etc: the texture unit's ETC2 and EAC decoder against the worked
 * examples of the Khronos Data Format Specification's ETC2 chapter (its
 * field values made into bytes, its colours) and the public test blocks of
 * the Android emulator's ETC2 decoder tests (Etc2_unittest.cpp: bytes and
 * texels, as numbers).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "etc.h"

static void expect_rgba(const uint8_t block[8], bool punchthrough, unsigned x, unsigned y,
			unsigned r, unsigned g, unsigned b, unsigned a)
{
	uint8_t out[4];

	usc_etc2_texel(block, x, y, punchthrough, out);
	if (out[0] != r || out[1] != g || out[2] != b || out[3] != a)
		fail_msg("texel (%u, %u): (%u, %u, %u, %u), want (%u, %u, %u, %u)", x, y, out[0],
			 out[1], out[2], out[3], r, g, b, a);
}

/* Individual and differential modes: the Khronos examples. */
static void test_individual_differential(void **state)
{
	static const uint8_t individual[8] = { 0x4e, 0xb3, 0x98, 0x80, 0xf0, 0x0f, 0x33, 0x55 };
	static const uint8_t flat[8] = { 0x4e, 0xb3, 0x98, 0x80, 0, 0, 0, 0 };
	static const uint8_t differential[8] = { 0xec, 0xd5, 0x43, 0x4e, 0xf0, 0x0f, 0x33, 0x55 };
	static const uint8_t dflat[8] = { 0xec, 0xd5, 0x43, 0x4e, 0, 0, 0, 0 };

	(void)state;
	expect_rgba(individual, false, 0, 0, 8, 127, 93, 255);
	expect_rgba(individual, false, 1, 0, 128, 247, 213, 255);
	expect_rgba(individual, false, 0, 1, 50, 169, 135, 255);
	expect_rgba(individual, false, 1, 1, 86, 205, 171, 255);
	expect_rgba(individual, false, 2, 0, 246, 59, 144, 255);
	expect_rgba(individual, false, 3, 0, 230, 43, 128, 255);
	expect_rgba(individual, false, 3, 3, 236, 49, 134, 255);
	expect_rgba(flat, false, 1, 2, 86, 205, 171, 255);
	expect_rgba(flat, false, 2, 3, 240, 53, 138, 255);
	expect_rgba(dflat, false, 0, 3, 248, 223, 75, 255);
	expect_rgba(dflat, false, 3, 1, 219, 202, 103, 255);
	expect_rgba(differential, false, 0, 0, 210, 185, 37, 255);
	expect_rgba(differential, false, 1, 0, 255, 243, 95, 255);
	expect_rgba(differential, false, 2, 0, 248, 231, 132, 255);
	expect_rgba(differential, false, 3, 0, 164, 147, 48, 255);
	expect_rgba(differential, false, 3, 3, 193, 176, 77, 255);
}

/* T, H and planar: the Khronos examples and the Android emulator's blocks. */
static void test_t_h_planar(void **state)
{
	static const uint8_t t1[8] = { 0xf9, 0x18, 0x4c, 0xdb, 0x00, 0x00, 0xff, 0xff };
	static const uint8_t t2[8] = { 0xf9, 0x18, 0x4c, 0xdb, 0x00, 0xff, 0x00, 0xff };
	static const uint8_t h1[8] = { 0x68, 0x1c, 0x26, 0x6e, 0x00, 0x00, 0xff, 0xff };
	static const uint8_t h2[8] = { 0x68, 0x1c, 0x26, 0x6e, 0x00, 0xff, 0x00, 0xff };
	static const uint8_t planar[8] = { 0x19, 0x01, 0xfb, 0x66, 0x0b, 0x2d, 0x1c, 0x2d };
	static const uint8_t t[8] = { 21, 101, 186, 135, 166, 238, 74, 106 };
	static const uint8_t h[8] = { 110, 13, 228, 186, 119, 119, 255, 117 };
	static const uint8_t p[8] = { 89, 138, 250, 79, 120, 181, 146, 29 };

	(void)state;
	expect_rgba(t1, false, 2, 1, 100, 236, 253, 255);
	expect_rgba(t2, false, 1, 2, 36, 172, 189, 255);
	expect_rgba(t2, false, 3, 0, 221, 17, 136, 255);
	expect_rgba(h1, false, 0, 0, 189, 0, 104, 255);
	expect_rgba(h2, false, 0, 3, 36, 172, 189, 255);
	expect_rgba(h2, false, 2, 2, 253, 49, 168, 255);
	expect_rgba(planar, false, 0, 0, 48, 129, 251, 255);
	expect_rgba(planar, false, 1, 0, 87, 99, 226, 255);
	expect_rgba(planar, false, 3, 0, 164, 40, 175, 255);
	expect_rgba(planar, false, 0, 1, 77, 153, 234, 255);
	expect_rgba(planar, false, 1, 2, 144, 147, 191, 255);
	expect_rgba(planar, false, 3, 3, 250, 112, 124, 255);
	for (unsigned x = 0; x < 4; x++)
		expect_rgba(t, false, x, 0, 153, 102, 85, 255);
	expect_rgba(t, false, 3, 1, 187, 170, 136, 255);
	expect_rgba(t, false, 3, 2, 203, 186, 152, 255);
	expect_rgba(t, false, 0, 3, 171, 154, 120, 255);
	expect_rgba(h, false, 0, 1, 210, 159, 125, 255);
	expect_rgba(h, false, 1, 3, 227, 210, 193, 255);
	expect_rgba(h, false, 3, 3, 215, 198, 181, 255);
	expect_rgba(p, false, 0, 0, 178, 139, 113, 255);
	expect_rgba(p, false, 3, 0, 163, 125, 95, 255);
	expect_rgba(p, false, 0, 3, 178, 144, 116, 255);
	expect_rgba(p, false, 3, 3, 163, 129, 98, 255);
}

/* Punch-through alpha: opaque blocks of each mode, and transparent texels. */
static void test_punchthrough(void **state)
{
	static const uint8_t clear[8] = { 0, 0, 0, 0, 255, 255, 0, 0 };
	static const uint8_t diff[8] = { 76, 206, 232, 35, 126, 232, 34, 21 };
	static const uint8_t t[8] = { 4, 90, 75, 238, 98, 49, 81, 32 };
	static const uint8_t h[8] = { 54, 251, 38, 114, 55, 126, 64, 133 };
	static const uint8_t planar[8] = { 133, 15, 243, 23, 187, 211, 189, 62 };
	static const uint8_t diff0[8] = { 118, 223, 240, 4, 193, 19, 210, 0 };
	static const uint8_t t0[8] = { 6, 173, 5, 168, 230, 102, 76, 128 };
	static const uint8_t h0[8] = { 149, 14, 131, 89, 19, 55, 117, 81 };
	static const uint8_t planar0[8] = { 35, 73, 249, 152, 191, 212, 60, 253 };

	(void)state;
	for (unsigned k = 0; k < 16; k++)
		expect_rgba(clear, true, k / 4, k % 4, 0, 0, 0, 0);
	expect_rgba(diff, true, 0, 0, 91, 223, 255, 255);
	expect_rgba(diff, true, 2, 0, 79, 211, 244, 255);
	expect_rgba(diff, true, 3, 3, 43, 191, 241, 255);
	expect_rgba(t, true, 0, 0, 68, 187, 238, 255);
	expect_rgba(t, true, 2, 0, 109, 228, 255, 255);
	expect_rgba(t, true, 0, 1, 0, 85, 170, 255);
	expect_rgba(t, true, 1, 1, 27, 146, 197, 255);
	expect_rgba(h, true, 0, 0, 96, 215, 232, 255);
	expect_rgba(h, true, 1, 0, 74, 210, 244, 255);
	expect_rgba(h, true, 0, 2, 62, 198, 232, 255);
	expect_rgba(h, true, 2, 3, 108, 227, 244, 255);
	expect_rgba(planar, true, 0, 0, 8, 143, 219, 255);
	expect_rgba(planar, true, 3, 0, 35, 176, 231, 255);
	expect_rgba(planar, true, 3, 3, 117, 244, 255, 255);
	expect_rgba(diff0, true, 0, 0, 0, 0, 0, 0);
	expect_rgba(diff0, true, 3, 0, 116, 231, 255, 255);
	expect_rgba(diff0, true, 1, 1, 115, 222, 247, 255);
	expect_rgba(diff0, true, 3, 2, 82, 197, 230, 255);
	expect_rgba(t0, true, 1, 0, 34, 170, 221, 255);
	expect_rgba(t0, true, 2, 1, 0, 0, 0, 0);
	expect_rgba(t0, true, 2, 2, 0, 62, 147, 255);
	expect_rgba(t0, true, 1, 3, 23, 108, 193, 255);
	expect_rgba(t0, true, 3, 3, 0, 0, 0, 0);
	expect_rgba(h0, true, 2, 0, 0, 86, 171, 255);
	expect_rgba(h0, true, 0, 1, 0, 0, 0, 0);
	expect_rgba(h0, true, 3, 1, 18, 154, 205, 255);
	expect_rgba(h0, true, 1, 3, 50, 186, 237, 255);
	expect_rgba(planar0, true, 0, 0, 69, 201, 239, 255);
	expect_rgba(planar0, true, 3, 0, 53, 194, 236, 255);
	expect_rgba(planar0, true, 0, 3, 118, 224, 245, 255);
	expect_rgba(planar0, true, 3, 3, 102, 216, 242, 255);
}

/* EAC: RGBA8's alpha, R11 and signed R11 (the Khronos numbers, the emulator's blocks). */
static void test_eac(void **state)
{
	static const uint8_t m2[8] = { 0x67, 0x2d, 0x6d, 0xb6, 0xdb, 0x6d, 0xb6, 0xdb };
	static const uint8_t m0[8] = { 0x67, 0x0d, 0x6d, 0xb6, 0xdb, 0x6d, 0xb6, 0xdb };
	static const uint8_t s2[8] = { 0x3c, 0x2d, 0x6d, 0xb6, 0xdb, 0x6d, 0xb6, 0xdb };
	static const uint8_t s0[8] = { 0x3c, 0x0d, 0x6d, 0xb6, 0xdb, 0x6d, 0xb6, 0xdb };
	static const uint8_t alpha[8] = { 101, 65, 229, 178, 147, 5, 32, 2 };
	static const unsigned alpha_rows[4][4] = {
		{ 149, 73, 89, 89 }, { 73, 61, 73, 89 }, { 49, 61, 61, 89 }, { 49, 49, 61, 61 }
	};
	static const uint8_t r11[8] = { 45, 16, 23, 116, 38, 100, 86, 208 };
	static const int r11_rows[4][4] = { { 340, 292, 244, 244 },
					    { 404, 340, 316, 244 },
					    { 428, 380, 340, 292 },
					    { 476, 428, 404, 340 } };
	static const uint8_t sr11[8] = { 198, 123, 74, 150, 120, 104, 6, 137 };
	static const int sr11_rows[4][4] = { { -856, -1023, -1023, -1023 },
					     { -856, -744, -856, -856 },
					     { -240, 40, -576, -744 },
					     { -744, -576, -576, -744 } };
	static const uint8_t zero[8] = { 0, 0, 36, 146, 73, 36, 146, 73 };

	(void)state;
	for (unsigned k = 0; k < 16; k++) {
		unsigned x = k % 4, y = k / 4;

		assert_int_equal(usc_eac_alpha(m2, x, y), 83);
		assert_int_equal(usc_eac_r11(m2, x, y, false), 668);
		assert_int_equal(usc_eac_r11(m0, x, y, false), 818);
		assert_int_equal(usc_eac_r11(s2, x, y, true), 320);
		assert_int_equal(usc_eac_r11(s0, x, y, true), 470);
		assert_int_equal(usc_eac_alpha(alpha, x, y), alpha_rows[y][x]);
		assert_int_equal(usc_eac_r11(r11, x, y, false), r11_rows[y][x]);
		assert_int_equal(usc_eac_r11(sr11, x, y, true), sr11_rows[y][x]);
		assert_int_equal(usc_eac_r11(zero, x, y, false), 0);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_individual_differential),
		cmocka_unit_test(test_t_h_planar),
		cmocka_unit_test(test_punchthrough),
		cmocka_unit_test(test_eac),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
