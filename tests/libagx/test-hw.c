/*
 * test-hw: the words genhw.py generates.  Pack, unpack and print of a test
 * word with every field type, reserved and fixed bits refused, and the
 * RTKit messages against the layouts of Linux's rtkit.c.
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
		assert_true(hwtest_mixed_pack(bytes, &a));
		assert_true(hwtest_mixed_unpack(bytes, &b));
		assert_int_equal(a.flag, b.flag);
		assert_int_equal(a.small, b.small);
		assert_int_equal(a.delta, b.delta);
		assert_int_equal(a.kind, b.kind);
		assert_int_equal(a.address, b.address);
		assert_int_equal(a.wide, b.wide);
		assert_true(hwtest_mixed_pack(again, &b));
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
	assert_false(hwtest_mixed_pack(bytes, &a));
	a.small = 7;
	a.delta = 128;
	assert_false(hwtest_mixed_pack(bytes, &a));
	a.delta = -128;
	assert_true(hwtest_mixed_pack(bytes, &a));
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
	assert_true(agx_rtkit_hello_pack(b, &hello));
	assert_int_equal(le64(b), 0x00100000000c000bull);
	assert_true(agx_rtkit_startep_pack(b, &start));
	assert_int_equal(le64(b), 0x0050002000000002ull);
	assert_true(agx_rtkit_buffer_request_pack(b, &buf));
	assert_int_equal(le64(b), 0x0010400123456000ull);
	/* an epmap, last, endpoints 0, 1, 2, 4 and 0x20 of base 0 */
	memcpy(b, (uint8_t[]){ 0x17, 0, 0, 0, 0, 0, 0x88, 0x00 }, 8);
	assert_true(agx_rtkit_epmap_unpack(b, &map));
	assert_int_equal(map.bitmap, 0x17);
	assert_true(map.last);
	/* a hello is no hello_reply */
	assert_true(agx_rtkit_hello_pack(b, &hello));
	assert_false(agx_rtkit_hello_reply_unpack(b, &reply));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_round_trip),
		cmocka_unit_test(test_refusals),
		cmocka_unit_test(test_print),
		cmocka_unit_test(test_rtkit_layouts),
	};

	return cmocka_run_group_tests_name("hw", tests, NULL, NULL);
}
