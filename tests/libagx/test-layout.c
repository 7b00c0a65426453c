/*
 * test-layout: texture layouts against the numbers of Mesa's own layout
 * tests (src/asahi/layout/tests/test-layout.cpp) and a Morton order worked
 * out here bit by bit.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "agx/layout.h"

/* 1024x1024 RGBA8 with every level: 0x555680 bytes in all. */
static void test_full_chain(void **state)
{
	struct agx_layout l = {
		.twiddled = true, .bytes_per_texel = 4, .width = 1024, .height = 1024, .levels = 11
	};

	(void)state;
	assert_true(agx_layout_init(&l));
	assert_int_equal(l.layer_stride, 0x555680);
	assert_int_equal(l.level_offset[1], 0x400000); /* 256 tiles of 64x64x4 */
}

/* 63x63 R32, six levels: Mesa's level offsets, and a page-aligned layer stride. */
static void test_small_chain(void **state)
{
	struct agx_layout l = { .twiddled = true,
				.bytes_per_texel = 4,
				.width = 63,
				.height = 63,
				.levels = 6,
				.page_aligned_layers = true };
	static const uint64_t want[] = { 0, 0x4000, 0x5000, 0x5400, 0x5500 };

	(void)state;
	assert_true(agx_layout_init(&l));
	for (unsigned i = 0; i < 5; i++)
		assert_int_equal(l.level_offset[i], want[i]);
	assert_int_equal(l.layer_stride, 0x8000);
}

/*
 * Inside a 128x64 tile (2-byte texels) x bits take the even positions, y
 * the odd ones, and x's seventh bit goes on top; tiles follow in rows.
 */
static void test_texel_order(void **state)
{
	struct agx_layout l = {
		.twiddled = true, .bytes_per_texel = 2, .width = 300, .height = 100, .levels = 1
	};

	(void)state;
	assert_true(agx_layout_init(&l));
	assert_int_equal(agx_layout_texel(&l, 0, 0, 1, 0), 2 * 1);
	assert_int_equal(agx_layout_texel(&l, 0, 0, 0, 1), 2 * 2);
	assert_int_equal(agx_layout_texel(&l, 0, 0, 3, 3), 2 * 15);
	assert_int_equal(agx_layout_texel(&l, 0, 0, 64, 0), 2 * (1 << 12));
	assert_int_equal(agx_layout_texel(&l, 0, 0, 127, 63), 2 * 8191);
	/* the next tile on the row, and the first of the next row (3 tiles a row) */
	assert_int_equal(agx_layout_texel(&l, 0, 0, 128, 0), 0x4000);
	assert_int_equal(agx_layout_texel(&l, 0, 0, 0, 64), 3 * 0x4000);

	/* linear: rows of stride bytes */
	l = (struct agx_layout){
		.bytes_per_texel = 4, .width = 10, .height = 10, .levels = 1, .stride = 64
	};
	assert_true(agx_layout_init(&l));
	assert_int_equal(agx_layout_texel(&l, 0, 0, 3, 2), 2 * 64 + 3 * 4);
	l.stride = 16; /* narrower than a row */
	assert_false(agx_layout_init(&l));
}

/*
 * Block formats (4x4 texels an element), by Mesa ail's rules for them,
 * worked out here by hand.  1024x1024 ETC2 RGB8 (8-byte blocks, 64x32
 * tiles): 256x256 blocks, levels 0-2 in whole tiles (32, 8 and 2 of 16
 * KiB), level 3 (32x32 blocks) the first under a tile.
 */
static void test_blocks(void **state)
{
	struct agx_layout l = { .twiddled = true,
				.bytes_per_texel = 8,
				.block_w = 4,
				.block_h = 4,
				.width = 1024,
				.height = 1024,
				.levels = 11 };
	static const uint64_t want[] = { 0, 0x80000, 0xa0000, 0xa8000, 0xaa000 };

	(void)state;
	assert_true(agx_layout_init(&l));
	for (unsigned i = 0; i < 5; i++)
		assert_int_equal(l.level_offset[i], want[i]);

	/*
	 * 257x1024 ETC2 RGBA8 (16-byte blocks, 32x32 tiles): 65x256 blocks,
	 * 3x8 tiles.  Level 1 (128 texels wide: 32 blocks) has
	 * 6 tiles and a column of 4 more, as 3 does not halve; block formats
	 * count that column in the row, so block (0, 32) is in tile 2, not 1.
	 * Level 2 (17 blocks wide) is the first power-of-two level: 128x256
	 * rounded, minified twice, 32x64 blocks in 32x32 tiles.
	 */
	l = (struct agx_layout){ .twiddled = true,
				 .bytes_per_texel = 16,
				 .block_w = 4,
				 .block_h = 4,
				 .width = 257,
				 .height = 1024,
				 .levels = 11 };
	assert_true(agx_layout_init(&l));
	assert_int_equal(l.level_offset[1], 24 * 0x4000);
	assert_int_equal(l.level_offset[2], 34 * 0x4000);
	assert_int_equal(l.level_offset[3], 34 * 0x4000 + 32 * 64 * 16);
	assert_int_equal(agx_layout_texel(&l, 1, 0, 0, 32), 24 * 0x4000 + 2 * 0x4000);
	assert_int_equal(agx_layout_texel(&l, 2, 0, 0, 32), 34 * 0x4000 + 1024 * 16);

	/* no linear block textures */
	l = (struct agx_layout){ .bytes_per_texel = 8,
				 .block_w = 4,
				 .block_h = 4,
				 .width = 16,
				 .height = 16,
				 .levels = 1,
				 .stride = 64 };
	assert_false(agx_layout_init(&l));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_full_chain),
		cmocka_unit_test(test_small_chain),
		cmocka_unit_test(test_texel_order),
		cmocka_unit_test(test_blocks),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
