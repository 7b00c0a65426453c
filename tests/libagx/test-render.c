/*
 * test-render: render passes through libagx's device API (agx/device.h)
 * over the real stack -- agx-sim, agx-memmgr, agx-fwchan, agx-scheduler.
 * The render items are real words and G13 code (sim/host/scene.c: a
 * vertex shader fetching its vertices, a colour, a clear and a block
 * store into a linear RGBA8 image); each image is checked pixel by pixel.
 * Covered: a render as agx_device_submit() takes it; a compute dispatch
 * that writes the vertices and the render that draws them, in one job;
 * the TVB-heap protocol end to end -- a heap too small without partial
 * pipelines fails the render with -ENOSPC and nothing else (the queue
 * stays OK and runs on), the firmware's size reaches the client, the
 * device's heap grows to it and the render then draws; with partial
 * pipelines the same heap draws the right image and still asks for more.
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

#include "agx/cmdbuf.h"
#include "agx/device.h"
#include "agx_cmdbuf.h"
#include "asm.h"
#include "host/scene.h"
#include "metric.h"
#include "stack.h"

#define WAIT_NS	    (10ll * 1000 * 1000 * 1000)
#define TVB_INITIAL 0x4000u /* one page: small scenes fit, a 256x256 one does not */
#define CODE_SIZE   0x8000u /* the scene's code arena, then the copy kernel */
#define KERNEL_AT   0x7000u
#define DATA_SIZE   0x10000u /* the scene's data arena: streams, state, vertices */
#define CMDS_SIZE   0x4000u
#define VBUF_SIZE   0x4000u
#define RED	    0xff0000ffu /* RGBA8 (1, 0, 0, 1) */

/* dst[i] = src[i], i the thread's position in the grid (u0_u1 src, u2_u3 dst) */
static const char copy_kernel[] = "get_sr r1, sr80\n"
				  "device_load 0, i32, x, r2, u0_u1, r1, unsigned\n"
				  "wait 0\n"
				  "device_store 0, i32, x, r2, u2_u3, r1, unsigned, 0\n"
				  "stop";

/* A client with a VM, a queue, the scene's programs and memory for compute work. */
struct rig {
	struct agx_device *dev;
	struct agx_device_vm *vm;
	struct agx_bo code, data, cmds, vbuf;
	uint64_t code_va, data_va, cmds_va, vbuf_va;
	uint32_t queue, syncobj;
	uint64_t point;
	struct sim_scene sc;
};

/* An image a render draws into, linear RGBA8. */
struct target {
	struct agx_bo bo;
	uint64_t va;
	unsigned width, height, stride;
};

static void map(struct rig *r, struct agx_bo *bo, uint64_t size, unsigned flags, uint64_t *va)
{
	if (agx_device_bo_create(r->dev, size, 0, bo) < 0 ||
	    agx_device_vm_map(r->dev, r->vm, bo, flags, va) < 0)
		fail_msg("%s", agx_device_error());
}

static struct agx_device *open_device(const struct test_stack *s)
{
	struct agx_device_config config = { .memmgr_socket = s->memmgr,
					    .scheduler_socket = s->sched,
					    .name = "test-render",
					    .tvb_initial = TVB_INITIAL };
	struct agx_device *dev;

	if (agx_device_open(&config, &dev) < 0)
		fail_msg("agx_device_open: %s", agx_device_error());
	return dev;
}

static void rig_init(struct rig *r, const struct test_stack *s)
{
	uint8_t kernel[256];
	char err[256];

	memset(r, 0, sizeof(*r));
	r->dev = open_device(s);
	assert_int_equal(agx_device_vm_create(r->dev, &r->vm), 0);
	map(r, &r->code, CODE_SIZE, AGX_BIND_READ | AGX_BIND_EXECUTE | AGX_MAP_USC, &r->code_va);
	map(r, &r->data, DATA_SIZE, AGX_BIND_READ | AGX_MAP_USC, &r->data_va);
	map(r, &r->cmds, CMDS_SIZE, AGX_BIND_READ | AGX_MAP_USC, &r->cmds_va);
	map(r, &r->vbuf, VBUF_SIZE, AGX_BIND_READ | AGX_BIND_WRITE, &r->vbuf_va);
	assert_int_equal(agx_device_queue_create(r->dev, r->vm, AGX_PRIORITY_NORMAL, &r->queue), 0);
	assert_int_equal(agx_device_syncobj_create(r->dev, &r->syncobj), 0);
	memcpy((uint8_t *)r->code.map + KERNEL_AT, kernel,
	       test_assemble(copy_kernel, kernel, sizeof(kernel)));
	if (!sim_scene_init(&r->sc, (struct sim_arena){ r->code.map, r->code_va, KERNEL_AT, 0 },
			    (struct sim_arena){ r->data.map, r->data_va, DATA_SIZE, 0 }, err,
			    sizeof(err)))
		fail_msg("%s", err);
}

static void rig_fini(struct rig *r)
{
	assert_int_equal(agx_device_queue_destroy(r->dev, r->queue), 0);
	agx_device_bo_close(r->dev, &r->code);
	agx_device_bo_close(r->dev, &r->data);
	agx_device_bo_close(r->dev, &r->cmds);
	agx_device_bo_close(r->dev, &r->vbuf);
	agx_device_vm_destroy(r->dev, r->vm);
	agx_device_close(r->dev);
}

static struct target target(struct rig *r, unsigned width, unsigned height)
{
	struct target t = { .width = width, .height = height, .stride = (width * 4 + 15) & ~15u };

	map(r, &t.bo, (uint64_t)t.stride * height, AGX_BIND_READ | AGX_BIND_WRITE, &t.va);
	return t;
}

/* Two triangles making the rectangle (-e, -e)..(e, e) in clip space, red. */
static void rectangle(float e, float v[6][8])
{
	static const float corners[6][2] = { { -1, -1 }, { 1, -1 }, { 1, 1 },
					     { -1, -1 }, { 1, 1 },  { -1, 1 } };

	for (unsigned i = 0; i < 6; i++) {
		const float vertex[8] = {
			corners[i][0] * e, corners[i][1] * e, 0.5f, 1, 1, 0, 0, 1
		};

		memcpy(v[i], vertex, sizeof(vertex));
	}
}

/*
 * The render of the rectangle onto t, as the scheduler takes it: its
 * vertices copied in, or at vertex_buffer; partial pipelines or none.
 */
static struct agx_sched_cmd render(struct rig *r, const struct target *t, float e,
				   uint64_t vertex_buffer, bool partial)
{
	float v[6][8];
	struct sim_scene_target st = { .va = t->va,
				       .width = t->width,
				       .height = t->height,
				       .stride = t->stride,
				       .tile_w = 16,
				       .tile_h = 16,
				       .partial = partial };
	struct sim_scene_draw d = { .vertices = (const float(*)[8])v,
				    .num_vertices = 6,
				    .vertex_buffer = vertex_buffer,
				    .primitive = AGX_CMD_PRIMITIVE_TRIANGLES,
				    .count = 6 };
	struct agx_fw_work_render w;

	rectangle(e, v);
	memset(t->bo.map, 0xee, t->bo.size);
	assert_true(sim_scene_render(&r->sc, &st, &d, 1, &w));
	/* the firmware's render item body has every field of the scheduler's, by name */
	return agx_sched_cmd_render((struct agx_sched_render){
#define F(name) .name = w.name
	    F(encoder),
	    F(encoder_end),
	    F(usc_base),
	    F(width),
	    F(height),
	    F(samples),
	    F(utile_width),
	    F(utile_height),
	    F(sample_size),
	    F(load_pipeline),
	    F(load_pipeline_bind),
	    F(store_pipeline),
	    F(store_pipeline_bind),
	    F(partial_reload_pipeline),
	    F(partial_reload_pipeline_bind),
	    F(partial_store_pipeline),
	    F(partial_store_pipeline_bind),
	    F(zls_control),
	    F(depth_buffer),
	    F(stencil_buffer),
	    F(depth_clear),
	    F(stencil_clear),
	    F(scissor_array),
	    F(scissor_count),
	    F(depth_bias_array),
	    F(depth_bias_count),
	    F(visibility_result_buffer),
	    F(visibility_count),
#undef F
	});
}

/* The queue's TVB heap for the command, tvb_size bytes of it (0: all). */
static void use_heap(struct rig *r, struct agx_sched_cmd *cmd, uint32_t tvb_size)
{
	uint32_t size;

	assert_int_equal(agx_device_queue_tvb(r->dev, r->queue, &cmd->render.tvb, &size), 0);
	assert_true(tvb_size <= size);
	cmd->render.tvb_size = tvb_size ? tvb_size : size;
}

/* Submits a job of the commands and waits for it: its status. */
static int run(struct rig *r, const struct agx_sched_cmd *cmds, unsigned n)
{
	struct agx_sched_point p = { r->syncobj, ++r->point };
	int status = 1;

	if (agx_device_submit(r->dev, r->queue, cmds, n, NULL, 0, &p, 1) < 0)
		fail_msg("submit: %s", agx_device_error());
	if (agx_device_wait(r->dev, &p, 1, true, WAIT_NS, &status) < 0)
		fail_msg("wait: %s", agx_device_error());
	return status;
}

/* The rectangle (-e, -e)..(e, e), red, on the scene's clear colour, every pixel. */
static void expect_rectangle(const struct target *t, float e)
{
	/* the viewport maps clip x to w/2 + w/2 x; no pixel centre is near an edge */
	double lo_x = t->width / 2.0 * (1 - e), hi_x = t->width / 2.0 * (1 + e);
	double lo_y = t->height / 2.0 * (1 - e), hi_y = t->height / 2.0 * (1 + e);
	unsigned wrong = 0, first_x = 0, first_y = 0;
	uint32_t first = 0, want_first = 0;

	for (unsigned y = 0; y < t->height; y++)
		for (unsigned x = 0; x < t->width; x++) {
			uint32_t got, want;
			bool in =
			    x + 0.5 > lo_x && x + 0.5 < hi_x && y + 0.5 > lo_y && y + 0.5 < hi_y;

			memcpy(&got, (const uint8_t *)t->bo.map + y * t->stride + x * 4, 4);
			want = in ? RED : SIM_SCENE_CLEAR;
			if (got != want && !wrong++) {
				first_x = x, first_y = y;
				first = got, want_first = want;
			}
		}
	if (wrong)
		fail_msg("%u pixels wrong, the first (%u, %u): %08x, not %08x", wrong, first_x,
			 first_y, first, want_first);
}

static uint64_t wanted(struct rig *r)
{
	uint64_t bytes = ~0ull;

	assert_int_equal(agx_device_queue_tvb_wanted(r->dev, r->queue, &bytes), 0);
	return bytes;
}

static enum agx_queue_status status_of(struct rig *r)
{
	enum agx_queue_status st = AGX_QUEUE_DEVICE_LOST;

	assert_int_equal(agx_device_queue_status(r->dev, r->queue, &st), 0);
	return st;
}

/* A render as agx_device_submit() takes it, on the device's TVB heap. */
static void test_render(void **state)
{
	struct rig r;
	struct target t;
	struct agx_sched_cmd cmd;
	uint64_t va;
	uint32_t size;

	rig_init(&r, *state);
	t = target(&r, 64, 64);
	/* the heap: tvb_initial at first, writable in the queue's VM, the same until it grows */
	assert_int_equal(agx_device_queue_tvb(r.dev, r.queue, &va, &size), 0);
	assert_int_equal(size, TVB_INITIAL);
	assert_true(va && va % 16 == 0);
	cmd = render(&r, &t, 0.5f, 0, false);
	use_heap(&r, &cmd, 0);
	assert_true(cmd.render.tvb == va);
	assert_int_equal(run(&r, &cmd, 1), 0);
	expect_rectangle(&t, 0.5f);
	/* it fitted: the firmware asked for nothing */
	assert_int_equal(wanted(&r), 0);
	/* a command of no known kind is refused, with a sentence */
	cmd.kind = 0;
	assert_int_equal(agx_device_submit(r.dev, r.queue, &cmd, 1, NULL, 0, NULL, 0), -EINVAL);
	assert_non_null(strstr(agx_device_error(), "neither compute nor render"));
	agx_device_bo_close(r.dev, &t.bo);
	rig_fini(&r);
}

/*
 * Compute, then render, in one job: the dispatch copies the vertices into
 * a buffer the render then draws from.  The buffer starts zeroed (a new
 * BO), so a render that ran first would draw nothing.
 */
static void test_compute_then_render(void **state)
{
	struct rig r;
	struct target t;
	struct agx_sched_cmd cmds[2] = { { .kind = AGX_SCHED_CMD_COMPUTE } };
	struct agx_dispatch d = { .num_registers = 4,
				  .threadgroups = { 1, 1, 1 },
				  .local_size = { 64, 1, 1 } };
	struct agx_cmdbuf cb;
	float v[8][8] = { { 0 } };
	uint64_t src;

	rig_init(&r, *state);
	d.code_va = r.code_va + KERNEL_AT;
	t = target(&r, 64, 64);
	/* the source: 48 words of vertices and 16 of padding, for 64 threads */
	rectangle(0.5f, v);
	src = sim_arena_put(&r.sc.data, v, sizeof(v), 16);
	assert_true(src != 0);
	for (unsigned i = 0; i < VBUF_SIZE / 4; i++)
		assert_int_equal(((const uint32_t *)r.vbuf.map)[i], 0);
	agx_dispatch_set_address(&d, 0, src);
	agx_dispatch_set_address(&d, 2, r.vbuf_va);
	d.num_uniforms = 4;
	assert_int_equal(agx_cmdbuf_init(&cb, r.cmds.map, r.cmds_va, r.cmds.size,
					 agx_device_info(r.dev)->usc_base),
			 0);
	assert_int_equal(agx_cmdbuf_dispatch(&cb, &d), 0);
	assert_int_equal(agx_cmdbuf_finish(&cb, &cmds[0].compute), 0);
	cmds[1] = render(&r, &t, 0.5f, r.vbuf_va, false);
	use_heap(&r, &cmds[1], 0);
	assert_int_equal(run(&r, cmds, 2), 0);
	assert_memory_equal(r.vbuf.map, v, 6 * 32);
	expect_rectangle(&t, 0.5f);
	agx_device_bo_close(r.dev, &t.bo);
	rig_fini(&r);
}

/*
 * A heap too small and no partial pipelines: -ENOSPC, and nothing more --
 * the queue stays OK and its next job runs; the firmware's size reaches
 * the client (exactly: 16 bytes less overflows again), the device's heap
 * grows to it, and the render then draws.
 */
static void test_tvb_overflow(void **state)
{
	const struct test_stack *s = *state;
	const char *const guilty[] = { "kind", "guilty", NULL };
	double overflows = test_stack_metric(s, "agx_scheduler_tvb_overflows_total", NULL);
	double resets = test_stack_metric(s, "agx_scheduler_resets_total", guilty);
	struct rig r;
	struct target big, small;
	struct agx_sched_cmd cmd;
	uint64_t va, va2, want;
	uint32_t size, size2;

	rig_init(&r, s);
	/* 256 tiles of 16x16 that both triangles cover: their lists are over a page */
	big = target(&r, 256, 256);
	small = target(&r, 64, 64);
	assert_int_equal(agx_device_queue_tvb(r.dev, r.queue, &va, &size), 0);
	cmd = render(&r, &big, 0.9f, 0, false);
	use_heap(&r, &cmd, 0);
	assert_int_equal(run(&r, &cmd, 1), -ENOSPC);
	assert_int_equal(status_of(&r), AGX_QUEUE_OK);
	want = wanted(&r);
	assert_true(want > size && want <= 64 * size);

	/* the queue goes on: a render that fits, on the same heap */
	cmd = render(&r, &small, 0.5f, 0, false);
	cmd.render.tvb = va;
	cmd.render.tvb_size = size;
	assert_int_equal(run(&r, &cmd, 1), 0);
	expect_rectangle(&small, 0.5f);

	/* the heap grew: a new one, the want rounded up to a power of two */
	assert_int_equal(agx_device_queue_tvb(r.dev, r.queue, &va2, &size2), 0);
	assert_true(va2 != va && size2 >= want && size2 < 2 * want);
	assert_int_equal(size2 & (size2 - 1), 0);
	/* exactly what the firmware said: a little less overflows, that much draws */
	cmd = render(&r, &big, 0.9f, 0, false);
	use_heap(&r, &cmd, (uint32_t)want - 16);
	assert_int_equal(run(&r, &cmd, 1), -ENOSPC);
	assert_int_equal(status_of(&r), AGX_QUEUE_OK);
	cmd = render(&r, &big, 0.9f, 0, false);
	use_heap(&r, &cmd, (uint32_t)want);
	assert_int_equal(run(&r, &cmd, 1), 0);
	expect_rectangle(&big, 0.9f);
	cmd = render(&r, &big, 0.9f, 0, false);
	use_heap(&r, &cmd, 0);
	assert_int_equal(run(&r, &cmd, 1), 0);
	expect_rectangle(&big, 0.9f);
	assert_int_equal(wanted(&r), want);
	assert_int_equal(status_of(&r), AGX_QUEUE_OK);

	/* counted as overflows, not as resets */
	assert_int_equal(
	    test_stack_metric(s, "agx_scheduler_tvb_overflows_total", NULL) - overflows, 2);
	assert_int_equal(test_stack_metric(s, "agx_scheduler_resets_total", guilty), resets);
	agx_device_bo_close(r.dev, &big.bo);
	agx_device_bo_close(r.dev, &small.bo);
	rig_fini(&r);
}

/*
 * The same too-small heap with partial pipelines: the render draws the
 * right image in passes, and still asks for the heap that needs none.
 */
static void test_partial_renders(void **state)
{
	struct rig a, b;
	struct target t;
	struct agx_sched_cmd cmd;
	uint64_t need, want;

	/* how much the scene needs, from an overflow on another queue */
	rig_init(&a, *state);
	t = target(&a, 64, 64);
	cmd = render(&a, &t, 0.5f, 0, false);
	use_heap(&a, &cmd, 256);
	assert_int_equal(run(&a, &cmd, 1), -ENOSPC);
	need = wanted(&a);
	assert_true(need > 256 && need < TVB_INITIAL);
	agx_device_bo_close(a.dev, &t.bo);
	rig_fini(&a);

	/* one triangle's record and lists fit in 16 bytes less, both do not */
	rig_init(&b, *state);
	t = target(&b, 64, 64);
	cmd = render(&b, &t, 0.5f, 0, true);
	assert_true(cmd.render.partial_reload_pipeline && cmd.render.partial_store_pipeline);
	use_heap(&b, &cmd, (uint32_t)need - 16);
	assert_int_equal(run(&b, &cmd, 1), 0);
	expect_rectangle(&t, 0.5f);
	want = wanted(&b);
	assert_true(want > need - 16);
	/* what it asked for takes one pass, partial pipelines or not */
	cmd = render(&b, &t, 0.5f, 0, false);
	use_heap(&b, &cmd, (uint32_t)want);
	assert_int_equal(run(&b, &cmd, 1), 0);
	expect_rectangle(&t, 0.5f);
	assert_int_equal(status_of(&b), AGX_QUEUE_OK);
	agx_device_bo_close(b.dev, &t.bo);
	rig_fini(&b);
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_render),
		cmocka_unit_test(test_compute_then_render),
		cmocka_unit_test(test_tvb_overflow),
		cmocka_unit_test(test_partial_renders),
	};

	return test_stack_main(argc, argv, tests, sizeof(tests) / sizeof(tests[0]));
}
