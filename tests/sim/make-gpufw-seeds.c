/*
 * make-gpufw-seeds DIR: seed inputs for fuzz-gpufw (fuzz-gpufw.h), packed
 * with the ABI's own packers: good initdata and channels, fwctl entries of
 * each op, a devctl entry, and a compute queue holding a dispatch (a CDM
 * stream: launch, barrier, terminate) and a barrier item -- with a program
 * that stores, one that spins into its time limit, and one that faults --
 * and a render queue holding a render item (a VDM stream: the vertex
 * shader, PPP state, a draw; a clear, a fragment shader, a block store).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "agx/isa.h"
#include "agx_cmdbuf.h"
#include "agx_fwabi.h"
#include "fuzz-gpufw.h"
#include "agx/cmd.h"
#include "host/scene.h"

#define PAGE 0x4000u

static uint8_t fw[3 * PAGE + 0x600], user[2 * PAGE];

static void channel(unsigned block, unsigned ring, unsigned entries, unsigned write)
{
	struct agx_fw_channel c = { .entries = entries,
				    .write_ptr = write,
				    .ring = FUZZ_FWVA + ring };

	agx_fw_channel_pack(fw + block, &c);
}

/* Assembles a program into user[0..]. */
static void assemble(const char *text)
{
	char err[512];

	if (agx_isa_assemble(text, user, 0x100, err, sizeof(err)) < 0) {
		fprintf(stderr, "make-gpufw-seeds: %s\n", err);
		exit(1);
	}
}

/*
 * A render into a 16x16 RGBA8 image (small: the fuzzer's jobs have 2 ms),
 * the textbook scene (sim/host/scene.h) with its code from 0x140 of the
 * code page and its data from 0x100 of the uniform page; the TVB heap, the
 * image, depth and stencil in the buffer page.  Each seed draws something
 * else: a culled triangle; a strip tested and written to depth and
 * stencil, counted by an occlusion query; a wide flat line loop; points
 * with point coordinates and a depth bias.
 */
static void render_layout(unsigned variant)
{
	static const float vertices[3][8] = { { -1, -1, 0, 1, 1, 0, 0, 1 },
					      { 1, -1, 0, 2, 0, 1, 0, 1 },
					      { 0, 1, 0, 1, 0, 0, 1, 1 } };
	struct agx_fw_work_queue wq = { .write_ptr = 1,
					.entries = 8,
					.ring = FUZZ_FWVA + FUZZ_WORK + 0x480,
					.context = 1,
					.pipe = AGX_FW_PIPE_VERTEX };
	struct agx_fw_work_header h = { .type = AGX_FW_WORK_TYPE_RENDER,
					.event_slot = 3,
					.stamp_value = 3,
					.stamp = FUZZ_FWVA + FUZZ_WORK + 0x240 };
	struct agx_fw_run_queue run = { .queue = FUZZ_FWVA + FUZZ_WORK + 0x400 };
	struct sim_scene_target t = { .va = FUZZ_BUF_VA + 0x2000,
				      .width = 16,
				      .height = 16,
				      .stride = 64,
				      .tile_w = 16,
				      .tile_h = 16,
				      .tvb = FUZZ_BUF_VA,
				      .tvb_size = 0x2000 };
	struct sim_scene_draw d = { .vertices = vertices,
				    .num_vertices = 3,
				    .primitive = AGX_CMD_PRIMITIVE_TRIANGLES,
				    .count = 3,
				    .cull_back = true };
	struct sim_scene scene;
	struct agx_fw_work_render r;
	char err[256];
	static const float bias[3] = { -2, 0.5f, 0 };

	switch (variant) {
	case 1:
		d.primitive = AGX_CMD_PRIMITIVE_TRIANGLE_STRIP;
		d.depth_func = AGX_CMD_ZS_FUNC_LESS;
		d.depth_write = d.stencil = true;
		d.stencil_compare = AGX_CMD_ZS_FUNC_ALWAYS;
		d.depth_pass = AGX_CMD_STENCIL_OP_REPLACE;
		d.stencil_ref = 3;
		d.visibility = AGX_CMD_VISIBILITY_MODE_COUNTING;
		t.depth = FUZZ_BUF_VA + 0x2400;
		t.stencil = FUZZ_BUF_VA + 0x2800;
		t.z_store = t.s_store = true;
		t.depth_clear = 1;
		t.visibility = FUZZ_UNIF_VA + 0x2f0;
		t.visibility_count = 1;
		break;
	case 2:
		d.primitive = AGX_CMD_PRIMITIVE_LINE_LOOP;
		d.line_width = 2.5f;
		d.flat = true;
		break;
	case 3:
		d.primitive = AGX_CMD_PRIMITIVE_POINTS;
		d.point_size = 3;
		d.point_coord = d.depth_bias = true;
		d.depth_func = AGX_CMD_ZS_FUNC_LEQUAL;
		t.depth = FUZZ_BUF_VA + 0x2400;
		t.depth_clear = 0.5f;
		t.depth_bias = FUZZ_UNIF_VA + 0x2e0;
		t.depth_bias_count = 1;
		memcpy(user + PAGE + 0x2e0, bias, sizeof(bias));
		break;
	}

	/* the code arena starts at 0 so that usc_base is the code page; 0x140 are the compute's */
	if (!sim_scene_init(&scene, (struct sim_arena){ user, FUZZ_CODE_VA, 0x600, 0x140 },
			    (struct sim_arena){ user + PAGE, FUZZ_UNIF_VA, 0x2e0, 0x100 }, err,
			    sizeof(err)) ||
	    !sim_scene_render(&scene, &t, &d, 1, &r)) {
		fprintf(stderr, "make-gpufw-seeds: the render does not fit: %s\n", err);
		exit(1);
	}
	agx_fw_work_queue_pack(fw + FUZZ_WORK + 0x400, &wq);
	memcpy(fw + FUZZ_WORK + 0x480, &(uint64_t){ FUZZ_FWVA + FUZZ_WORK + 0x500 }, 8);
	agx_fw_run_queue_pack(fw + FUZZ_PIPE_RINGS + FUZZ_RENDER_PIPE * 0x400, &run);
	agx_fw_work_header_pack(fw + FUZZ_WORK + 0x500, &h);
	agx_fw_work_render_pack(fw + FUZZ_WORK + 0x500 + AGX_FW_WORK_HEADER_LENGTH, &r);
}

static void layout(const char *program, unsigned variant)
{
	struct agx_fw_initdata init = { .fwctl = FUZZ_FWVA + FUZZ_FWCTL_BLOCK,
					.event = FUZZ_FWVA + FUZZ_EVENT_BLOCK,
					.devctl = FUZZ_FWVA + FUZZ_DEVCTL_BLOCK,
					.log = FUZZ_FWVA + FUZZ_LOG_BLOCK,
					.pipes = FUZZ_FWVA + FUZZ_PIPE_BLOCKS };
	struct agx_fw_devctl devctl = { .op = AGX_FW_DEVCTL_OP_ABORT_CONTEXT, .context = 2 };
	struct agx_fw_run_queue run = { .queue = FUZZ_FWVA + FUZZ_WORK };
	struct agx_fw_work_queue wq = { .write_ptr = 2,
					.entries = 8,
					.ring = FUZZ_FWVA + FUZZ_WORK + 0x80,
					.context = 1,
					.pipe = AGX_FW_PIPE_COMPUTE };
	struct agx_fw_work_header compute = { .type = AGX_FW_WORK_TYPE_COMPUTE,
					      .event_slot = 1,
					      .stamp_value = 1,
					      .stamp = FUZZ_FWVA + FUZZ_WORK + 0x200 };
	struct agx_fw_work_header barrier = { .type = AGX_FW_WORK_TYPE_BARRIER,
					      .event_slot = 2,
					      .stamp_value = 2,
					      .stamp = FUZZ_FWVA + FUZZ_WORK + 0x220 };
	struct agx_fw_work_compute body = { .encoder = FUZZ_UNIF_VA + 0x40,
					    .usc_base = FUZZ_CODE_VA };
	size_t n = 0;
	struct agx_fw_work_barrier wait = { .wait = compute.stamp, .wait_value = 1 };
	uint64_t items[2] = { FUZZ_FWVA + FUZZ_WORK + 0x100, FUZZ_FWVA + FUZZ_WORK + 0x180 };
	uint32_t uniforms[3] = { (uint32_t)FUZZ_BUF_VA, (uint32_t)(FUZZ_BUF_VA >> 32), 7 };

	memset(fw, 0, sizeof(fw));
	memset(user, 0, sizeof(user));
	agx_fw_initdata_pack(fw + FUZZ_INITDATA, &init);
	channel(FUZZ_FWCTL_BLOCK, FUZZ_FWCTL_RING, 64, 3);
	channel(FUZZ_EVENT_BLOCK, FUZZ_EVENT_RING, 256, 0);
	channel(FUZZ_DEVCTL_BLOCK, FUZZ_DEVCTL_RING, 64, 1);
	channel(FUZZ_LOG_BLOCK, FUZZ_LOG_RING, 128, 0);
	for (unsigned i = 0; i < 12; i++)
		channel(FUZZ_PIPE_BLOCKS + i * 64, FUZZ_PIPE_RINGS + i * 0x400, 64,
			i == FUZZ_PIPE || i == FUZZ_RENDER_PIPE);
	for (unsigned i = 0; i < 3; i++) {
		struct agx_fw_fwctl op = { .op = i + 1,
					   .context = i,
					   .va = 0x100000000ull,
					   .size = 0x4000,
					   .seq = i + 1 };

		agx_fw_fwctl_pack(fw + FUZZ_FWCTL_RING + i * 32, &op);
	}
	agx_fw_devctl_pack(fw + FUZZ_DEVCTL_RING, &devctl);
	agx_fw_run_queue_pack(fw + FUZZ_PIPE_RINGS + FUZZ_PIPE * 0x400, &run);
	agx_fw_work_queue_pack(fw + FUZZ_WORK, &wq);
	memcpy(fw + FUZZ_WORK + 0x80, items, sizeof(items));
	assemble(program);
	/* a texture (16x16 RGBA8, linear, in the buffer page) and a sampler, at 0xa0 and 0xc0 */
	{
		struct agx_cmd_texture t = { .dimension = AGX_CMD_TEXTURE_DIM_TEX_2D,
					     .channels = AGX_CMD_CHANNELS_R8G8B8A8,
					     .swizzle_g = AGX_CMD_CHANNEL_G,
					     .swizzle_b = AGX_CMD_CHANNEL_B,
					     .swizzle_a = AGX_CMD_CHANNEL_A,
					     .width = 16,
					     .height = 16,
					     .address = FUZZ_BUF_VA,
					     .stride = 64 };
		struct agx_cmd_sampler sm = { AGX_CMD_SAMPLER_DEFAULTS,
					      .magnify = AGX_CMD_FILTER_LINEAR,
					      .wrap_s = AGX_CMD_WRAP_REPEAT };
		struct agx_pipeline pl = { .uniforms = FUZZ_UNIF_VA,
					   .uniform_halves = 6,
					   .shared_size = 256,
					   .textures = FUZZ_UNIF_VA + 0xa0,
					   .num_textures = 1,
					   .samplers = FUZZ_UNIF_VA + 0xc0,
					   .num_samplers = 1 };

		agx_cmd_texture_pack(user + PAGE + 0xa0, &t);
		agx_cmd_sampler_pack(user + PAGE + 0xc0, &sm);
		agx_pipeline_pack(user + 0x100, &pl);
	}
	n += agx_cdm_launch(user + PAGE + 0x40, 0x100, 0, (uint32_t[]){ 128, 1, 1 },
			    (uint32_t[]){ 64, 1, 1 });
	n += agx_cdm_barrier(user + PAGE + 0x40 + n, true);
	n += agx_cdm_terminate(user + PAGE + 0x40 + n);
	body.encoder_end = body.encoder + n;
	agx_fw_work_header_pack(fw + FUZZ_WORK + 0x100, &compute);
	agx_fw_work_compute_pack(fw + FUZZ_WORK + 0x100 + AGX_FW_WORK_HEADER_LENGTH, &body);
	agx_fw_work_header_pack(fw + FUZZ_WORK + 0x180, &barrier);
	agx_fw_work_barrier_pack(fw + FUZZ_WORK + 0x180 + AGX_FW_WORK_HEADER_LENGTH, &wait);
	memcpy(user + PAGE, uniforms, sizeof(uniforms));
	render_layout(variant);
}

static int write_seed(const char *dir, const char *name)
{
	char path[4096];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "wb");
	if (!f)
		goto fail;
	for (unsigned i = 0; i < sizeof(fuzz_regions) / sizeof(fuzz_regions[0]); i++) {
		const struct fuzz_region *r = &fuzz_regions[i];
		const uint8_t *src = (r->context ? user : fw) + r->page_offset;

		if (fwrite(src, 1, r->size, f) != r->size)
			goto fail;
	}
	if (fclose(f) == 0)
		return 0;
fail:
	perror(path);
	return 1;
}

int main(int argc, char **argv)
{
	static const struct {
		const char *name, *program;
	} seeds[] = {
		{ "store", "get_sr r1, sr80\n"
			   "iadd r2, r1, u2\n"
			   "device_store 0, i32, x, r2, u0_u1, r1, unsigned, 0\n"
			   "stop" },
		{ "spin", "top:\nmov_imm r1, 1\njmp_exec_any @top\nstop" },
		{ "fault", "mov_imm r1, 0x40000\n"
			   "device_store 0, i32, x, r1, u0_u1, r1, unsigned, 0\n"
			   "stop" },
		{ "texture",
		  "get_sr r8, sr80\n"
		  "mov_imm r9, 3\n"
		  "texture_load r4_r5_r6_r7, ts0, ss0, tex_2d, r8_r9, auto_lod, 0, xyzw, "
		  "0, 0, 0, 0, 12, 0\n"
		  "texture_sample r4, ts0, ss0, tex_2d, r8_r9, auto_lod, 0, x, 0, 0, 0, 0, "
		  "12, 0\n"
		  "image_write r4_r5_r6_r7, ts0, r8_r9, 0, tex_2d, coherent0, 0\n"
		  "stop" },
	};

	if (argc != 2) {
		fprintf(stderr, "usage: %s DIR\n", argv[0]);
		return 2;
	}
	for (unsigned i = 0; i < sizeof(seeds) / sizeof(seeds[0]); i++) {
		layout(seeds[i].program, i);
		if (write_seed(argv[1], seeds[i].name))
			return 1;
	}
	return 0;
}
