/*
 * bench-render: `./agx bench render`.  Starts the stack and, as a driver
 * would, renders passes built by libagx's render builder with shaders from
 * libagx's compiler, each timed from submit to its fence:
 *   - render.tris_per_s: small triangles (about a pixel each, a strip over
 *     a 512x512 target), binned and shaded;
 *   - render.mpix_per_s: a fill-bound pass: full-screen rectangles over a
 *     1024x1024 target;
 *   - render.pass_overhead_us: an empty pass (a 64x64 clear and store),
 *     submit to fence, the median;
 *   - render.partial_render_ms: what one partial render of a full 1080p
 *     target adds: the same scene with a heap that needs one, less the
 *     scene with a heap that needs none.
 * Prints `render.<metric> <value> <unit>` lines.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "agx/compiler.h"
#include "agx/device.h"
#include "agx/render.h"
#include "bench.h"

#define WAIT_NS	  (60ll * 1000 * 1000 * 1000)
#define PASS_SIZE (8u << 20)

static const char vs_source[] = "#version 300 es\n"
				"layout(location = 0) in vec2 pos;\n"
				"void main() { gl_Position = vec4(pos, 0.5, 1.0); }\n";
static const char fs_source[] = "#version 300 es\n"
				"precision mediump float;\n"
				"uniform vec4 colour;\n"
				"out vec4 o;\n"
				"void main() { o = colour; }\n";

struct bench {
	struct agx_device *dev;
	struct agx_device_vm *vm;
	struct agx_bo code, pass, verts, image;
	uint64_t code_va, pass_va, verts_va, image_va, usc_base;
	uint32_t queue, syncobj;
	uint64_t point;
	struct agx_shader_binary vs, fs;
	struct agx_layout layout;
	uint32_t vu[64], fu[64];
	struct agx_tile_programs programs; /* in the code BO, from 0x8000: as a driver keeps them */
};

static int fail(const char *what)
{
	fprintf(stderr, "agx-bench-render: %s: %s\n", what, agx_device_error());
	return -1;
}

static int map(struct bench *b, struct agx_bo *bo, uint64_t size, unsigned flags, uint64_t *va)
{
	if (agx_device_bo_create(b->dev, size, 0, bo) < 0 ||
	    agx_device_vm_map(b->dev, b->vm, bo, flags, va) < 0)
		return fail("memory");
	return 0;
}

/* A pass of size w x h over the RGBA8 image, its tilebuffer; the heap of tvb_size bytes (0: all).
 */
static int begin(struct bench *b, struct agx_render *rp, unsigned w, unsigned h, uint32_t tvb_size)
{
	struct agx_render_pass pass = {
		.width = w, .height = h, .num_colour = 1, .programs = &b->programs
	};
	uint32_t size;

	b->layout = (struct agx_layout){
		.twiddled = true, .bytes_per_texel = 4, .width = w, .height = h, .levels = 1
	};
	if (!agx_layout_init(&b->layout) || b->layout.layer_stride > b->image.size)
		return -1;
	pass.colour[0] = (struct agx_render_target){
		.surface = { .image = { .format = AGX_FORMAT_R8G8B8A8_UNORM,
					.dim = AGX_IMAGE_2D,
					.layout = &b->layout,
					.address = b->image_va,
					.depth = 1 } },
		.load = AGX_LOAD_CLEAR,
		.store = AGX_STORE_STORE,
	};
	if (agx_device_queue_tvb(b->dev, b->queue, &pass.tvb, &size) < 0)
		return fail("TVB heap");
	pass.tvb_size = tvb_size && tvb_size < size ? tvb_size : size;
	return agx_render_begin(rp, b->pass.map, b->pass_va, PASS_SIZE, b->usc_base, &pass);
}

/* A draw of count vertices at the vertex buffer's offset, as prim. */
static int draw(struct bench *b, struct agx_render *rp, unsigned w, unsigned h, unsigned prim,
		uint32_t count, uint64_t offset)
{
	struct agx_cf_binding cf[AGX_RENDER_MAX_CF];
	struct agx_render_draw d = { 0 };
	const float colour[4] = { 0.25f, 0.5f, 0.75f, 1 };
	unsigned n, regs;

	for (unsigned i = 0; i < b->vs.info.num_vars; i++)
		if (b->vs.info.vars[i].kind == AGX_SHADER_INPUT && b->vs.info.vars[i].uniform >= 0)
			agx_render_set_attrib(&b->vs.info, b->vu, b->vs.info.vars[i].location,
					      b->verts_va + offset, 8);
	for (unsigned i = 0; i < b->fs.info.num_vars; i++)
		if (b->fs.info.vars[i].kind == AGX_SHADER_UNIFORM)
			memcpy(&b->fu[b->fs.info.vars[i].uniform], colour, 16);
	if (agx_render_link_varyings(&b->vs.info, &b->fs.info, 2, NULL, cf, &n, &regs))
		return -1;
	d.vs = (struct agx_render_stage){ .code_va = b->code_va,
					  .num_registers = b->vs.info.num_registers,
					  .uniforms = b->vu,
					  .num_uniforms = b->vs.info.num_uniforms };
	d.fs = (struct agx_render_stage){ .code_va = b->code_va + 0x4000,
					  .num_registers = b->fs.info.num_registers,
					  .uniforms = b->fu,
					  .num_uniforms = b->fs.info.num_uniforms };
	d.vs_outputs = b->vs.info.num_vertex_outputs;
	d.cf = cf, d.num_cf = n, d.cf_registers = regs;
	d.state = (struct agx_ppp_state){ .translate = { w / 2.0f, h / 2.0f, 0 },
					  .scale = { w / 2.0f, h / 2.0f, 1 },
					  .provoking = 2,
					  .depth_clip = true,
					  .depth_func = AGX_CMD_ZS_FUNC_ALWAYS,
					  .varying_words = d.vs_outputs - 4 };
	d.draw = (struct agx_vdm_draw){ .primitive = prim, .count = count, .instances = 1 };
	return agx_render_draw(rp, &d);
}

/* Ends the pass, submits it and waits: the microseconds from submit to fence, < 0 on failure. */
static double run(struct bench *b, struct agx_render *rp)
{
	struct agx_sched_cmd cmd = { .kind = AGX_SCHED_CMD_RENDER };
	struct agx_sched_point p = { b->syncobj, ++b->point };
	int status = 0;
	double t0;

	if (agx_render_end(rp, &cmd.render))
		return -1;
	t0 = bench_now_us();
	if (agx_device_submit(b->dev, b->queue, &cmd, 1, NULL, 0, &p, 1) < 0 ||
	    agx_device_wait(b->dev, &p, 1, true, WAIT_NS, &status) < 0)
		return fail("render");
	if (status) {
		fprintf(stderr, "agx-bench-render: the render failed: %d\n", status);
		return -1;
	}
	return bench_now_us() - t0;
}

/* A strip of n + 2 vertices walking rows of a w x h target, triangles of about a pixel. */
static void small_triangles(float *v, unsigned n, unsigned w, unsigned h)
{
	unsigned per_row = w;

	for (unsigned i = 0; i < n + 2; i++) {
		unsigned step = i / 2, row = step / per_row % (h / 2);
		float x = (float)(step % per_row) + (float)(i % 3) * 0.3f;
		float y = (float)(2 * row + (i & 1));

		v[2 * i] = x / (w / 2.0f) - 1;
		v[2 * i + 1] = y / (h / 2.0f) - 1;
	}
}

int main(void)
{
	struct bench_stack st;
	struct bench b = { 0 };
	struct agx_render rp;
	const unsigned tris = 200000, quads = 16;
	double us, *samples = calloc(200, sizeof(double)), t_fit = 0, t_partial = 0;
	float *v = malloc((tris + 2) * 8ull);
	uint64_t wanted = 0;
	int rc = 1;

	if (!samples || !v ||
	    agx_compile_glsl(AGX_SHADER_VERTEX, vs_source, sizeof(vs_source) - 1, NULL, &b.vs) < 0)
		return 1;
	{
		struct agx_compile_options fo = { .num_rts = 1 };

		fo.rt[0].format = AGX_ISA_MEMFORMAT_U8NORM;
		fo.rt[0].components = 4;
		if (agx_compile_glsl(AGX_SHADER_FRAGMENT, fs_source, sizeof(fs_source) - 1, &fo,
				     &b.fs) < 0)
			return 1;
	}
	if (bench_stack_start(&st, 4) < 0)
		return 1;
	if (agx_device_open(
		&(struct agx_device_config){ .memmgr_socket = st.sock[BENCH_MEMMGR],
					     .scheduler_socket = st.sock[BENCH_SCHEDULER],
					     .name = "bench-render" },
		&b.dev) < 0) {
		fail("opening the device");
		goto out;
	}
	b.usc_base = agx_device_info(b.dev)->usc_base;
	if (agx_device_vm_create(b.dev, &b.vm) < 0 ||
	    map(&b, &b.code, 0xc000, AGX_BIND_READ | AGX_BIND_EXECUTE | AGX_MAP_USC, &b.code_va) ||
	    map(&b, &b.pass, PASS_SIZE, AGX_BIND_READ | AGX_BIND_EXECUTE | AGX_MAP_USC,
		&b.pass_va) ||
	    map(&b, &b.verts, (tris + 2) * 8ull + 0x4000, AGX_BIND_READ, &b.verts_va) ||
	    map(&b, &b.image, 16u << 20, AGX_BIND_READ | AGX_BIND_WRITE, &b.image_va) ||
	    agx_device_queue_create(b.dev, b.vm, AGX_PRIORITY_NORMAL, &b.queue) < 0 ||
	    agx_device_syncobj_create(b.dev, &b.syncobj) < 0)
		goto out;
	if (!agx_tile_programs_init(&b.programs, (uint8_t *)b.code.map + 0x8000, b.code_va + 0x8000,
				    0x4000))
		goto out;
	memcpy(b.code.map, b.vs.code, b.vs.size);
	memcpy((uint8_t *)b.code.map + 0x4000, b.fs.code, b.fs.size);

	/* the empty pass, first: its median */
	for (unsigned i = 0; i < 200; i++) {
		if (begin(&b, &rp, 64, 64, 0) || (samples[i] = run(&b, &rp)) < 0)
			goto out;
	}
	bench_sort(samples, 200);

	/* a full-screen rectangle, two triangles, at the start of the vertex buffer */
	const float quad[6][2] = {
		{ -1, -1 }, { 1, -1 }, { 1, 1 }, { -1, -1 }, { 1, 1 }, { -1, 1 }
	};

	memcpy(b.verts.map, quad, sizeof(quad));
	if (begin(&b, &rp, 1024, 1024, 0))
		goto out;
	for (unsigned i = 0; i < quads; i++)
		if (draw(&b, &rp, 1024, 1024, AGX_CMD_PRIMITIVE_TRIANGLES, 6, 0))
			goto out;
	if ((us = run(&b, &rp)) < 0)
		goto out;
	printf("render.mpix_per_s %.1f Mpixel/s\n", quads * 1024.0 * 1024.0 / us);

	/* small triangles: once to learn the heap they need, then timed in a heap that holds them
	 */
	small_triangles(v, tris, 512, 512);
	memcpy((uint8_t *)b.verts.map + 0x4000, v, (tris + 2) * 8ull);
	for (unsigned pass = 0; pass < 2; pass++) {
		if (begin(&b, &rp, 512, 512, 0) ||
		    draw(&b, &rp, 512, 512, AGX_CMD_PRIMITIVE_TRIANGLE_STRIP, tris + 2, 0x4000) ||
		    (us = run(&b, &rp)) < 0)
			goto out;
	}
	printf("render.tris_per_s %.0f 1/s\n", tris / us * 1e6);

	/*
	 * One partial render of 1080p: full-screen rectangles and a strip of
	 * triangles; the heap they need in one pass, then a little over half
	 * of it (one partial render).
	 */
	/* a queue of its own: the heap size it asks for is this scene's alone */
	if (agx_device_queue_create(b.dev, b.vm, AGX_PRIORITY_NORMAL, &b.queue) < 0)
		goto out;
	for (unsigned round = 0; round < 3; round++) {
		uint32_t heap = round == 0 ? 0 : round == 1 ? 0 : (uint32_t)(wanted / 2 + 4096);

		if (begin(&b, &rp, 1920, 1080, heap))
			goto out;
		for (unsigned i = 0; i < 2; i++)
			if (draw(&b, &rp, 1920, 1080, AGX_CMD_PRIMITIVE_TRIANGLES, 6, 0) ||
			    draw(&b, &rp, 1920, 1080, AGX_CMD_PRIMITIVE_TRIANGLE_STRIP, 20002,
				 0x4000))
				goto out;
		if ((us = run(&b, &rp)) < 0 ||
		    agx_device_queue_tvb_wanted(b.dev, b.queue, &wanted) < 0)
			goto out;
		if (round == 1)
			t_fit = us;
		if (round == 2)
			t_partial = us;
	}
	printf("render.partial_render_ms %.2f ms\n", (t_partial - t_fit) / 1e3);
	printf("render.pass_overhead_us %.1f us\n", samples[100]);
	rc = 0;
out:
	if (b.dev)
		agx_device_close(b.dev);
	bench_stack_stop(&st);
	agx_shader_binary_finish(&b.vs);
	agx_shader_binary_finish(&b.fs);
	agx_tile_programs_finish(&b.programs);
	free(samples);
	free(v);
	return rc;
}
