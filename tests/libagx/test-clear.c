/*
 * test-clear: GPU clears (agx/clear.h) over the real stack.  Images of
 * each texel size, linear and twiddled (levels of a mip chain down to the
 * ones whose tiles are narrower than a word, and a second layer), are
 * filled with a pattern on the CPU, cleared on the GPU -- a rectangle, with
 * and without a write mask, several clears in one command buffer -- and
 * the whole BO is compared with what the CPU works out through
 * agx_layout_texel: every texel of the rectangle changed exactly as the
 * mask says, every other byte untouched.
 */
#include <errno.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "agx/clear.h"
#include "agx/cmdbuf.h"
#include "agx/device.h"
#include "agx/format.h"
#include "agx/layout.h"
#include "stack.h"

#define WAIT_NS (60ll * 1000 * 1000 * 1000)

static struct test_stack_options options;

struct fixture {
	struct test_stack stack;
	struct agx_device *dev;
	struct agx_device_vm *vm;
	uint32_t queue, syncobj;
	uint64_t point;
	struct agx_clear clear;
	struct agx_bo cmds;
	uint64_t cmds_va;
};

/* One clear of a test: where, what, which bits. */
struct op {
	unsigned level, layer;
	struct agx_clear_rect rect;
	uint8_t value[16], mask[16];
	bool masked;
};

static uint8_t pattern(size_t i)
{
	return (uint8_t)(i * 131 + (i >> 8) * 7 + 3);
}

/* What the clears do, on the CPU: each texel of each rectangle merged under the mask. */
static void expect(const struct agx_layout *l, uint8_t *mem, const struct op *ops, unsigned n)
{
	for (unsigned k = 0; k < n; k++) {
		const struct op *o = &ops[k];
		unsigned w = agx_layout_minify(l->width, o->level);
		unsigned h = agx_layout_minify(l->height, o->level);

		for (unsigned y = o->rect.y; y < o->rect.y + o->rect.height && y < h; y++)
			for (unsigned x = o->rect.x; x < o->rect.x + o->rect.width && x < w; x++) {
				uint8_t *t = mem + agx_layout_texel(l, o->level, o->layer, x, y);

				for (unsigned b = 0; b < l->bytes_per_texel; b++) {
					uint8_t m = o->masked ? o->mask[b] : 0xff;

					t[b] = (uint8_t)((t[b] & ~m) | (o->value[b] & m));
				}
			}
	}
}

/* Runs the clears in one command buffer on an image of layout l with `layers` layers. */
static void run(struct fixture *f, struct agx_layout *l, unsigned layers, const struct op *ops,
		unsigned n)
{
	const struct agx_device_info *info = agx_device_info(f->dev);
	uint64_t size = l->layer_stride * layers, va;
	uint64_t bo_size = (size + info->page_size - 1) / info->page_size * info->page_size;
	struct agx_bo bo;
	struct agx_cmdbuf cb;
	struct agx_sched_cmd cmd = { .kind = AGX_SCHED_CMD_COMPUTE };
	struct agx_sched_point point;
	uint8_t *want;
	int status = -1;

	assert_int_equal(agx_device_bo_create(f->dev, bo_size, 0, &bo), 0);
	assert_int_equal(agx_device_vm_map(f->dev, f->vm, &bo, AGX_BIND_READ | AGX_BIND_WRITE, &va),
			 0);
	want = malloc(bo_size);
	assert_non_null(want);
	for (size_t i = 0; i < bo_size; i++)
		want[i] = ((uint8_t *)bo.map)[i] = pattern(i);
	expect(l, want, ops, n);

	assert_int_equal(
	    agx_cmdbuf_init(&cb, f->cmds.map, f->cmds_va, f->cmds.size, info->usc_base), 0);
	for (unsigned k = 0; k < n; k++) {
		struct agx_clear_image img = { va, l, ops[k].level, ops[k].layer };

		assert_int_equal(agx_clear_record(&f->clear, &cb, &img, &ops[k].rect, ops[k].value,
						  ops[k].masked ? ops[k].mask : NULL),
				 0);
	}
	assert_int_equal(agx_cmdbuf_finish(&cb, &cmd.compute), 0);
	point = (struct agx_sched_point){ f->syncobj, ++f->point };
	assert_int_equal(agx_device_submit(f->dev, f->queue, &cmd, 1, NULL, 0, &point, 1), 0);
	assert_int_equal(agx_device_wait(f->dev, &point, 1, true, WAIT_NS, &status), 0);
	assert_int_equal(status, 0);
	for (size_t i = 0; i < bo_size; i++)
		if (((uint8_t *)bo.map)[i] != want[i])
			fail_msg("%u-byte %s image: byte 0x%zx is 0x%02x, not 0x%02x",
				 l->bytes_per_texel, l->twiddled ? "twiddled" : "linear", i,
				 ((uint8_t *)bo.map)[i], want[i]);
	free(want);
	assert_int_equal(agx_device_vm_unmap(f->dev, f->vm, va), 0);
	assert_int_equal(agx_device_bo_close(f->dev, &bo), 0);
}

static void fill(uint8_t *bytes, unsigned n, uint8_t seed)
{
	for (unsigned i = 0; i < n; i++)
		bytes[i] = (uint8_t)(seed + 37 * i);
}

static const unsigned sizes[] = { 1, 2, 4, 8, 16 };

/* Linear images: a rectangle not aligned to words, with and without a mask. */
static void test_linear(void **state)
{
	struct fixture *f = *state;

	for (unsigned s = 0; s < 5; s++) {
		unsigned bpp = sizes[s];
		struct agx_layout l = {
			.bytes_per_texel = bpp, .width = 37, .height = 13, .levels = 1
		};
		struct op ops[3] = {
			{ .rect = { 3, 2, 29, 7 } },
			{ .rect = { 1, 5, 5, 100 }, .masked = true }, /* cut at the bottom */
			{ .rect = { 36, 12, 1, 1 } },		      /* the last texel */
		};

		l.stride = (37 * bpp + 15) / 16 * 16;
		assert_true(agx_layout_init(&l));
		for (unsigned k = 0; k < 3; k++) {
			fill(ops[k].value, 16, (uint8_t)(0x40 + k));
			fill(ops[k].mask, 16, (uint8_t)(0x0f * k + 1));
		}
		run(f, &l, 1, ops, 3);
	}
}

/* Twiddled images: levels of a chain, the tiny last levels, a second layer. */
static void test_twiddled(void **state)
{
	struct fixture *f = *state;

	for (unsigned s = 0; s < 5; s++) {
		unsigned bpp = sizes[s];
		struct agx_layout l = { .twiddled = true,
					.bytes_per_texel = bpp,
					.width = 150,
					.height = 70,
					.levels = 8 };
		struct op ops[] = {
			{ .level = 0, .rect = { 5, 3, 140, 60 } }, /* across tiles */
			{ .level = 0, .rect = { 0, 0, 150, 70 }, .masked = true, .layer = 1 },
			{ .level = 1, .rect = { 1, 1, 2, 30 } },
			{ .level = 3, .rect = { 0, 0, 19, 9 } },
			{ .level = 5, .rect = { 1, 0, 3, 2 } },
			{ .level = 6, .rect = { 0, 0, 2, 1 }, .masked = true },
			{ .level = 7, .rect = { 0, 0, 1, 1 } }, /* 1x1 */
		};
		unsigned n = sizeof(ops) / sizeof(ops[0]);

		assert_true(agx_layout_init(&l));
		for (unsigned k = 0; k < n; k++) {
			fill(ops[k].value, 16, (uint8_t)(0x90 + 3 * k));
			fill(ops[k].mask, 16, (uint8_t)(0x55 + 11 * k));
		}
		run(f, &l, 2, ops, n);
	}
}

/* Clears in one command buffer land in order: the barrier after each. */
static void test_order(void **state)
{
	struct fixture *f = *state;
	struct agx_layout l = {
		.twiddled = true, .bytes_per_texel = 4, .width = 64, .height = 64, .levels = 1
	};
	struct op ops[4] = {
		{ .rect = { 0, 0, 64, 64 } },
		{ .rect = { 8, 8, 40, 40 }, .masked = true },
		{ .rect = { 16, 0, 8, 64 } },
		{ .rect = { 0, 20, 64, 4 }, .masked = true },
	};

	assert_true(agx_layout_init(&l));
	for (unsigned k = 0; k < 4; k++) {
		fill(ops[k].value, 16, (uint8_t)(k * 50));
		fill(ops[k].mask, 16, (uint8_t)(k * 7 + 2));
	}
	run(f, &l, 1, ops, 4);
}

/* Many clears of one image in one command buffer: the last one's value stays. */
static void test_many(void **state)
{
	struct fixture *f = *state;
	struct agx_layout l = {
		.bytes_per_texel = 4, .width = 17, .height = 11, .levels = 1, .stride = 80
	};
	struct op ops[120];

	assert_true(agx_layout_init(&l));
	for (unsigned k = 0; k < 120; k++) {
		ops[k] = (struct op){ .rect = { 0, 0, 17, 11 } };
		fill(ops[k].value, 16, (uint8_t)k);
	}
	run(f, &l, 1, ops, 120);
}

/* Depth and stencil: a Z24S8 word's parts alone, a stencil write mask, Z32F and S8 images. */
static void test_depth_stencil(void **state)
{
	struct fixture *f = *state;
	struct agx_layout l = {
		.bytes_per_texel = 4, .width = 20, .height = 10, .levels = 1, .stride = 80
	};
	struct agx_layout s8 = {
		.twiddled = true, .bytes_per_texel = 1, .width = 20, .height = 10, .levels = 1
	};
	struct op ops[3] = { 0 }, sop = { .rect = { 2, 2, 10, 5 }, .masked = true };

	assert_true(agx_layout_init(&l));
	assert_true(agx_layout_init(&s8));
	/* all of it, then depth only, then stencil 0x5a under a write mask 0x0f */
	ops[0].rect = (struct agx_clear_rect){ 0, 0, 20, 10 };
	assert_true(agx_format_pack_depth(AGX_FORMAT_Z24_UNORM_S8_UINT, 1.0f, ops[0].value));
	assert_true(agx_format_pack_stencil(AGX_FORMAT_Z24_UNORM_S8_UINT, 0x81, ops[0].value));
	ops[1].rect = (struct agx_clear_rect){ 3, 1, 10, 5 };
	ops[1].masked = true;
	assert_true(agx_format_pack_depth(AGX_FORMAT_Z24_UNORM_S8_UINT, 0.25f, ops[1].value));
	assert_true(agx_format_zs_mask(AGX_FORMAT_Z24_UNORM_S8_UINT, true, 0, ops[1].mask));
	ops[2].rect = (struct agx_clear_rect){ 5, 0, 10, 10 };
	ops[2].masked = true;
	assert_true(agx_format_pack_stencil(AGX_FORMAT_Z24_UNORM_S8_UINT, 0x5a, ops[2].value));
	assert_true(agx_format_zs_mask(AGX_FORMAT_Z24_UNORM_S8_UINT, false, 0x0f, ops[2].mask));
	run(f, &l, 1, ops, 3);

	/* a texel inside all three, as the format reads it: the masks kept the other parts */
	{
		uint8_t mem[4] = { 0 };
		float d;
		uint32_t st;

		memcpy(mem, ops[0].value, 4);
		for (unsigned b = 0; b < 4; b++) {
			mem[b] = (uint8_t)((mem[b] & ~ops[1].mask[b]) |
					   (ops[1].value[b] & ops[1].mask[b]));
			mem[b] = (uint8_t)((mem[b] & ~ops[2].mask[b]) |
					   (ops[2].value[b] & ops[2].mask[b]));
		}
		assert_true(agx_format_unpack_depth(AGX_FORMAT_Z24_UNORM_S8_UINT, mem, &d));
		assert_float_equal(d, 0.25, 1e-7);
		assert_true(agx_format_unpack_stencil(AGX_FORMAT_Z24_UNORM_S8_UINT, mem, &st));
		assert_int_equal(st, 0x8a); /* 0x81's high half, 0x5a's low */
	}

	assert_true(agx_format_pack_stencil(AGX_FORMAT_S8_UINT, 0xc3, sop.value));
	assert_true(agx_format_zs_mask(AGX_FORMAT_S8_UINT, false, 0x3c, sop.mask));
	run(f, &s8, 1, &sop, 1);
}

/* What the kernel cannot address is refused; an empty rectangle records nothing. */
static void test_refusals(void **state)
{
	struct fixture *f = *state;
	const struct agx_device_info *info = agx_device_info(f->dev);
	struct agx_layout etc = { .twiddled = true,
				  .bytes_per_texel = 8,
				  .block_w = 4,
				  .block_h = 4,
				  .width = 16,
				  .height = 16,
				  .levels = 1 };
	struct agx_layout odd = {
		.bytes_per_texel = 4, .width = 3, .height = 3, .levels = 1, .stride = 14
	};
	struct agx_layout ok = {
		.bytes_per_texel = 4, .width = 3, .height = 3, .levels = 1, .stride = 16
	};
	struct agx_clear_rect r = { 0, 0, 1, 1 }, empty = { 2, 2, 0, 5 }, outside = { 9, 9, 1, 1 };
	uint8_t v[16] = { 0 };
	struct agx_cmdbuf cb;
	size_t head;

	assert_true(agx_layout_init(&etc));
	assert_true(agx_layout_init(&odd));
	assert_true(agx_layout_init(&ok));
	assert_int_equal(
	    agx_cmdbuf_init(&cb, f->cmds.map, f->cmds_va, f->cmds.size, info->usc_base), 0);
	head = cb.head;
	assert_int_equal(agx_clear_record(&f->clear, &cb,
					  &(struct agx_clear_image){ 0x100000000, &etc, 0, 0 }, &r,
					  v, NULL),
			 -EINVAL);
	assert_int_equal(agx_clear_record(&f->clear, &cb,
					  &(struct agx_clear_image){ 0x100000000, &odd, 0, 0 }, &r,
					  v, NULL),
			 -EINVAL);
	assert_int_equal(agx_clear_record(&f->clear, &cb,
					  &(struct agx_clear_image){ 0x100000000, &ok, 1, 0 }, &r,
					  v, NULL),
			 -EINVAL);
	assert_int_equal(agx_clear_record(&f->clear, &cb,
					  &(struct agx_clear_image){ 0x100000002, &ok, 0, 0 }, &r,
					  v, NULL),
			 -EINVAL);
	assert_int_equal(agx_clear_record(&f->clear, &cb,
					  &(struct agx_clear_image){ 0x100000000, &ok, 0, 0 },
					  &empty, v, NULL),
			 0);
	assert_int_equal(agx_clear_record(&f->clear, &cb,
					  &(struct agx_clear_image){ 0x100000000, &ok, 0, 0 },
					  &outside, v, NULL),
			 0);
	assert_int_equal(cb.head, head);
}

static int setup(void **state)
{
	struct fixture *f = calloc(1, sizeof(*f));
	struct agx_device_config config = { 0 };

	test_stack_start(&f->stack, &options);
	config.memmgr_socket = f->stack.memmgr;
	config.scheduler_socket = f->stack.sched;
	config.name = "test-clear";
	if (agx_device_open(&config, &f->dev) < 0 || agx_device_vm_create(f->dev, &f->vm) < 0 ||
	    agx_device_queue_create(f->dev, f->vm, AGX_PRIORITY_NORMAL, &f->queue) < 0 ||
	    agx_device_syncobj_create(f->dev, &f->syncobj) < 0 ||
	    agx_device_bo_create(f->dev, 0x40000, 0, &f->cmds) < 0 ||
	    agx_device_vm_map(f->dev, f->vm, &f->cmds, AGX_BIND_READ | AGX_MAP_USC, &f->cmds_va) <
		0) {
		fprintf(stderr, "test-clear: the device: %s\n", agx_device_error());
		return -1;
	}
	if (agx_clear_init(&f->clear, f->dev, f->vm) < 0) {
		fprintf(stderr, "test-clear: agx_clear_init: %s\n", agx_device_error());
		return -1;
	}
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *f = *state;
	bool clean;

	if (!f)
		return -1; /* setup failed and said why */
	agx_clear_finish(&f->clear);
	agx_device_bo_close(f->dev, &f->cmds);
	agx_device_vm_destroy(f->dev, f->vm);
	agx_device_close(f->dev);
	clean = test_stack_stop(&f->stack);
	free(f);
	return clean ? 0 : -1;
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_linear),	      cmocka_unit_test(test_twiddled),
		cmocka_unit_test(test_order),	      cmocka_unit_test(test_many),
		cmocka_unit_test(test_depth_stencil), cmocka_unit_test(test_refusals),
	};

	if (argc != 5) {
		fprintf(stderr, "usage: %s AGX-SIM AGX-MEMMGR AGX-FWCHAN AGX-SCHEDULER\n", argv[0]);
		return 2;
	}
	for (int i = 0; i < 4; i++)
		options.paths[i] = argv[i + 1];
	signal(SIGPIPE, SIG_IGN);
	return cmocka_run_group_tests(tests, setup, teardown);
}
