/*
 * test-hw: the words genhw.py generates.  Pack, unpack and print of a test
 * word with every field type, reserved and fixed bits refused, values that
 * do not fit caught by _fits(), the modifiers (shifts, split addresses,
 * groups, minus, log2, overlapping layouts, defaults), and the RTKit
 * messages against the layouts of Linux's rtkit.c.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "agx_rtkit.h"
#include "hwtest.h"

static uint64_t le64(const uint8_t *b)
{
	uint64_t v = 0;

	for (int i = 7; i >= 0; i--)
		v = v << 8 | b[i];
	return v;
}

static void test_round_trip(void **state)
{
	uint64_t rng = 88172645463325252ull;

	(void)state;
	for (int i = 0; i < 10000; i++) {
		struct hwtest_mixed a, b;
		uint8_t bytes[HWTEST_MIXED_LENGTH], again[HWTEST_MIXED_LENGTH];

		rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
		a.flag = rng & 1;
		a.small = (rng >> 1) & 7;
		a.delta = (int64_t)((rng >> 4) & 0xff) - 128;
		a.kind = (rng >> 12) & 0xf;
		a.address = (rng >> 16) & 0xffffffffffull;
		a.wide = (rng >> 20) & 0x3fffffff;
		assert_true(hwtest_mixed_fits(&a));
		hwtest_mixed_pack(bytes, &a);
		assert_true(hwtest_mixed_unpack(bytes, &b));
		assert_int_equal(a.flag, b.flag);
		assert_int_equal(a.small, b.small);
		assert_int_equal(a.delta, b.delta);
		assert_int_equal(a.kind, b.kind);
		assert_int_equal(a.address, b.address);
		assert_int_equal(a.wide, b.wide);
		hwtest_mixed_pack(again, &b);
		assert_memory_equal(bytes, again, sizeof(bytes));
		assert_int_equal(bytes[7], 0xa5); /* the fixed field */
	}
}

static void test_refusals(void **state)
{
	struct hwtest_mixed a = { .small = 8 }, b;
	uint8_t bytes[HWTEST_MIXED_LENGTH];

	(void)state;
	/* values that do not fit */
	assert_false(hwtest_mixed_fits(&a));
	a.small = 7;
	a.delta = 128;
	assert_false(hwtest_mixed_fits(&a));
	a.delta = -128;
	assert_true(hwtest_mixed_fits(&a));
	hwtest_mixed_pack(bytes, &a);
	/* a reserved bit (bit 94, above "wide") */
	bytes[11] |= 0x40;
	assert_false(hwtest_mixed_unpack(bytes, &b));
	bytes[11] &= (uint8_t)~0x40;
	/* a fixed field with another value */
	bytes[7] = 0xa4;
	assert_false(hwtest_mixed_unpack(bytes, &b));
	bytes[7] = 0xa5;
	assert_true(hwtest_mixed_unpack(bytes, &b));
	assert_int_equal(b.delta, -128);
}

static void test_print(void **state)
{
	struct hwtest_mixed a = {
		.flag = true, .small = 3, .delta = -5, .kind = 5, .address = 0xabc, .wide = 7
	};
	char out[256] = "";
	FILE *fp = fmemopen(out, sizeof(out) - 1, "w");

	(void)state;
	hwtest_mixed_print(fp, &a);
	a.kind = 9; /* no name: printed as a number */
	hwtest_mixed_print(fp, &a);
	fclose(fp);
	assert_string_equal(out, "mixed flag=true small=3 delta=-5 kind=blue address=0xabc wide=7\n"
				 "mixed flag=true small=3 delta=-5 kind=9 address=0xabc wide=7\n");
}

/* Each modifier stores what it says, and unpack gives the value meant back. */
static void test_modifiers(void **state)
{
	struct hwtest_modified a = { HWTEST_MODIFIED_DEFAULTS }, b;
	uint8_t bytes[HWTEST_MODIFIED_LENGTH];

	(void)state;
	/* the defaults pack to zero bits */
	assert_int_equal(a.width, 1);
	assert_int_equal(a.samples, 1);
	hwtest_modified_pack(bytes, &a);
	for (unsigned i = 0; i < sizeof(bytes); i++)
		assert_int_equal(bytes[i], 0);

	a.pipeline = 0x12340;
	a.target = 0xab12345678ull;
	a.count = 130; /* three groups of 64, rounded up */
	a.width = 640;
	a.samples = 4;
	a.high = 0xa123456789ull; /* only bits 39..36 are this word's */
	a.stride = 96;
	assert_true(hwtest_modified_fits(&a));
	hwtest_modified_pack(bytes, &a);
	assert_int_equal(hwtest_get(bytes, 6, 26), 0x12340 >> 6);
	assert_int_equal(hwtest_get(bytes, 96, 32), 0x12345678);
	assert_int_equal(hwtest_get(bytes, 32, 8), 0xab);
	assert_int_equal(hwtest_get(bytes, 40, 3), 3);
	assert_int_equal(hwtest_get(bytes, 43, 14), 639);
	assert_int_equal(hwtest_get(bytes, 57, 2), 2);
	assert_int_equal(hwtest_get(bytes, 59, 4), 0xa);
	assert_int_equal(hwtest_get(bytes, 64, 16), 96 / 16 - 1);
	assert_true(hwtest_modified_unpack(bytes, &b));
	assert_int_equal(b.pipeline, 0x12340);
	assert_int_equal(b.target, 0xab12345678ull);
	assert_int_equal(b.count, 192);
	assert_int_equal(b.width, 640);
	assert_int_equal(b.samples, 4);
	assert_int_equal(b.high, 0xa000000000ull);
	assert_int_equal(b.stride, 96);
	assert_int_equal(b.depth, 96 / 16); /* the same bits, read the other way */

	/* the largest group count is stored as 0 and read back as itself */
	a.count = 512;
	assert_true(hwtest_modified_fits(&a));
	hwtest_modified_pack(bytes, &a);
	assert_int_equal(hwtest_get(bytes, 40, 3), 0);
	assert_true(hwtest_modified_unpack(bytes, &b));
	assert_int_equal(b.count, 512);

	/* the other layout of the overlapping bits */
	a.stride = 0;
	a.depth = 6;
	hwtest_modified_pack(bytes, &a);
	assert_int_equal(hwtest_get(bytes, 64, 16), 5);
}

/* Values a modifier cannot store are refused by _fits(), one at a time. */
static void test_modifier_refusals(void **state)
{
	const struct hwtest_modified good = { HWTEST_MODIFIED_DEFAULTS, .pipeline = 64 };
	struct hwtest_modified a;

	(void)state;
	assert_true(hwtest_modified_fits(&good));
	a = good, a.pipeline = 65; /* not 64-byte aligned */
	assert_false(hwtest_modified_fits(&a));
	a = good, a.pipeline = 1ull << 32; /* past the 26 bits left after the shift */
	assert_false(hwtest_modified_fits(&a));
	a = good, a.target = 1ull << 40;
	assert_false(hwtest_modified_fits(&a));
	a = good, a.count = 513;
	assert_false(hwtest_modified_fits(&a));
	a = good, a.width = 0; /* minus one: at least 1 */
	assert_false(hwtest_modified_fits(&a));
	a = good, a.width = 16385;
	assert_false(hwtest_modified_fits(&a));
	a = good, a.samples = 3; /* not a power of two */
	assert_false(hwtest_modified_fits(&a));
	a = good, a.samples = 0;
	assert_false(hwtest_modified_fits(&a));
	a = good, a.samples = 16; /* log2 4 does not fit 2 bits */
	assert_false(hwtest_modified_fits(&a));
	a = good, a.high = 1ull << 40;
	assert_false(hwtest_modified_fits(&a));
	a = good, a.stride = 24; /* not a multiple of 16 */
	assert_false(hwtest_modified_fits(&a));
	a = good, a.stride = 32, a.depth = 2; /* both layouts at once */
	assert_false(hwtest_modified_fits(&a));
}

/* Linux rtkit.c: type in 59:52, versions in 15:0 and 31:16, and so on. */
static void test_rtkit_layouts(void **state)
{
	struct agx_rtkit_hello hello = { .min_ver = 11, .max_ver = 12 };
	struct agx_rtkit_startep start = { .ep = 0x20, .flag = true };
	struct agx_rtkit_buffer_request buf = { .iova = 0x123456000ull, .pages = 4 };
	struct agx_rtkit_epmap map;
	struct agx_rtkit_hello_reply reply;
	uint8_t b[8];

	(void)state;
	agx_rtkit_hello_pack(b, &hello);
	assert_int_equal(le64(b), 0x00100000000c000bull);
	agx_rtkit_startep_pack(b, &start);
	assert_int_equal(le64(b), 0x0050002000000002ull);
	agx_rtkit_buffer_request_pack(b, &buf);
	assert_int_equal(le64(b), 0x0010400123456000ull);
	/* an epmap, last, endpoints 0, 1, 2, 4 and 0x20 of base 0 */
	memcpy(b, (uint8_t[]){ 0x17, 0, 0, 0, 0, 0, 0x88, 0x00 }, 8);
	assert_true(agx_rtkit_epmap_unpack(b, &map));
	assert_int_equal(map.bitmap, 0x17);
	assert_true(map.last);
	/* a hello is no hello_reply */
	agx_rtkit_hello_pack(b, &hello);
	assert_false(agx_rtkit_hello_reply_unpack(b, &reply));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_round_trip), cmocka_unit_test(test_refusals),
		cmocka_unit_test(test_modifiers),  cmocka_unit_test(test_modifier_refusals),
		cmocka_unit_test(test_print),	   cmocka_unit_test(test_rtkit_layouts),
	};

	return cmocka_run_group_tests_name("hw", tests, NULL, NULL);
}
