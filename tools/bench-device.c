/*
 * bench-device: `./agx bench device`.  Starts agx-sim (next to this
 * program in the build tree, or the path given), boots its firmware with
 * the sim host, then measures the mailbox round trip: the host queues a
 * PING and rings the doorbell, the firmware answers with a PONG and raises
 * the IRQ, the host sees it.
 *
 *   device.mbox_rtt_p50_us, device.mbox_rtt_p99_us
 *
 * then the GPU: compute work items, each one launch of 65,536 threads
 * running 1,024 float ALU instructions, submitted and completed one after
 * another through the firmware ABI (lane-operations per second, all GPU
 * cores):
 *
 *   device.compute_lane_ops_per_s
 *
 * and items of the smallest work (one SIMD group that stops), 32 to a
 * doorbell:
 *
 *   device.dispatches_per_s
 *
 * then renders (sim/host/scene.h) of a 512x512 RGBA8 image in 32x32
 * tiles, one after another: each tile cleared, two triangles covering the
 * image shaded with a perspective-correct colour, and stored -- pixels
 * per second through the whole render -- and renders of 2,048 small
 * triangles (4 pixels wide) on a 128x128 image, triangles per second:
 *
 *   device.render_pixels_per_s, device.render_triangles_per_s
 *
 * and, in this process, the UAT: translations per second by a GPU unit
 * whose pages are all in the TLB (256 pages, every access a hit).
 *
 *   device.mmu_translations_per_s
 */
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "agx_cmdbuf.h"
#include "agx_rtkit.h"
#include "bench-asm.h"
#include "bench.h"
#include "device.h"
#include "agx/cmd.h"
#include "host/fwhost.h"
#include "host/host.h"
#include "host/pagetable.h"
#include "host/scene.h"
#include "uat.h"

#define WARMUP	2000
#define SAMPLES 20000

#define RAM_PADDR 0x100000u
#define RAM_SIZE  (4u << 20)
#define CODE_VA	  0x10000000ull
#define DATA_VA	  0x10004000ull
#define CODE_RAM  0x200000u
#define ALU_OPS	  1024
#define THREADS	  65536

/*
 * Lane-operations per second of large compute items run one after another,
 * and items per second of the smallest ones; false on failure.
 */
static bool measure_compute(struct sim_host *h, struct sim_fwhost *fh, double *lane_ops,
			    double *dispatches)
{
	static const char *const alu[] = { "fmadd r2, r3, r4, r2", "fadd r5, r2, r6",
					   "fmul r7, r5, r3", "fmadd r8, r7, r4, r5" };
	struct sim_fwqueue q;
	struct agx_fw_event e;
	uint8_t *code = h->ram + CODE_RAM, *data = code + 0x4000;
	struct agx_fw_work_header head = { .type = AGX_FW_WORK_TYPE_COMPUTE };
	struct agx_fw_work_compute body = { .encoder = DATA_VA, .usc_base = CODE_VA };
	size_t n = 0;
	uint64_t item, items = 0;
	double t0, elapsed;

	if (sim_fwhost_map(fh, 1, CODE_VA, CODE_RAM, 0x4000, true) < 0 ||
	    sim_fwhost_map(fh, 1, DATA_VA, CODE_RAM + 0x4000, 0x4000, false) < 0 ||
	    sim_fwhost_queue_create(fh, &q, 1, 1, AGX_FW_PIPE_COMPUTE, 64, 0) < 0 ||
	    !sim_fwhost_alloc(fh, 8, &head.stamp))
		return false;
	bench_assemble(alu, 4, ALU_OPS, "stop", code, 0x2000);
	agx_pipeline_pack(code + 0x2000, &(struct agx_pipeline){ .code = 0 });
	n += agx_cdm_launch(data, 0x2000, 0, (uint32_t[]){ THREADS, 1, 1 },
			    (uint32_t[]){ 256, 1, 1 });
	n += agx_cdm_terminate(data + n);
	body.encoder_end = DATA_VA + n;
	item = sim_fwhost_compute(fh, &head, &body);
	t0 = bench_now_us();
	do {
		if (!item || !sim_fwhost_submit(fh, &q, item) || !sim_fwhost_event(fh, &e, 10000) ||
		    e.type != AGX_FW_EVENT_TYPE_COMPLETION || e.result != AGX_FW_RESULT_OK)
			return false;
		items++;
		elapsed = bench_now_us() - t0;
	} while (elapsed < 2e6);
	*lane_ops = (double)items * THREADS * ALU_OPS / (elapsed / 1e6);

	/* the smallest work: one SIMD group that stops, 32 items a doorbell */
	bench_assemble(NULL, 1, 0, "stop", code + 0x3000, 16);
	agx_pipeline_pack(code + 0x3800, &(struct agx_pipeline){ .code = 0x3000 });
	n = agx_cdm_launch(data + 0x100, 0x3800, 0, (uint32_t[]){ 32, 1, 1 },
			   (uint32_t[]){ 32, 1, 1 });
	n += agx_cdm_terminate(data + 0x100 + n);
	body = (struct agx_fw_work_compute){ .encoder = DATA_VA + 0x100,
					     .encoder_end = DATA_VA + 0x100 + n,
					     .usc_base = CODE_VA };
	item = sim_fwhost_compute(fh, &head, &body);
	items = 0;
	t0 = bench_now_us();
	do {
		for (unsigned i = 0; i < 32; i++)
			if (!item || !sim_fwhost_append(fh, &q, item))
				return false;
		if (!sim_fwhost_kick(fh, &q))
			return false;
		for (unsigned i = 0; i < 32; i++)
			if (!sim_fwhost_event(fh, &e, 10000) ||
			    e.type != AGX_FW_EVENT_TYPE_COMPLETION || e.result != AGX_FW_RESULT_OK)
				return false;
		items += 32;
		elapsed = bench_now_us() - t0;
	} while (elapsed < 2e6);
	*dispatches = (double)items / (elapsed / 1e6);
	return true;
}

#define RENDER_SIZE  512
#define RENDER_CODE  0x208000u /* RAM: code, data, image, TVB heap */
#define RENDER_DATA  0x20c000u
#define RENDER_IMAGE 0x260000u
#define RENDER_TVB   0x360000u
#define RENDER_HEAP  (640u << 10)
#define SMALL_TRIS   2048
#define SMALL_SIZE   128

/* Renders per second of a render item submitted again and again; 0 on failure. */
static double renders_per_s(struct sim_fwhost *fh, struct sim_fwqueue *q,
			    const struct agx_fw_work_render *r)
{
	struct agx_fw_work_header head = { .type = AGX_FW_WORK_TYPE_RENDER };
	struct agx_fw_event e;
	uint64_t item, renders = 0;
	double t0, elapsed;

	if (!sim_fwhost_alloc(fh, 8, &head.stamp) || !(item = sim_fwhost_render(fh, &head, r)))
		return 0;
	t0 = bench_now_us();
	do {
		if (!sim_fwhost_submit(fh, q, item) || !sim_fwhost_event(fh, &e, 10000))
			return 0;
		if (e.type != AGX_FW_EVENT_TYPE_COMPLETION || e.result != AGX_FW_RESULT_OK) {
			char line[64];

			while (sim_fwhost_log(fh, line, sizeof(line)))
				fprintf(stderr, "agx-bench-device: firmware: %s\n", line);
			return 0;
		}
		renders++;
		elapsed = bench_now_us() - t0;
	} while (elapsed < 2e6);
	return (double)renders / (elapsed / 1e6);
}

/* Full-image pixels per second and small triangles per second; false on failure. */
static bool measure_render(struct sim_host *h, struct sim_fwhost *fh, double *pixels,
			   double *triangles)
{
	static float quad[4][8] = { { -1, -1, 0, 1, 1, 0, 0, 1 },
				    { 1, -1, 0, 2, 0, 1, 0, 1 },
				    { -1, 1, 0, 2, 0, 0, 1, 1 },
				    { 1, 1, 0, 1, 1, 1, 1, 1 } };
	static float small[3 * SMALL_TRIS][8];
	const uint64_t code_va = 0x40000000ull, data_va = 0x40004000ull, image_va = 0x50000000ull,
		       tvb_va = 0x60000000ull;
	struct sim_fwqueue q;
	struct sim_scene sc;
	struct sim_scene_target t = { .va = image_va,
				      .width = RENDER_SIZE,
				      .height = RENDER_SIZE,
				      .stride = RENDER_SIZE * 4,
				      .tile_w = 32,
				      .tile_h = 32,
				      .tvb = tvb_va,
				      .tvb_size = RENDER_HEAP };
	struct sim_scene_draw full = { .vertices = (const float(*)[8])quad,
				       .num_vertices = 4,
				       .primitive = AGX_CMD_PRIMITIVE_TRIANGLE_STRIP,
				       .count = 4 },
			      many = { .vertices = (const float(*)[8])small,
				       .num_vertices = 3 * SMALL_TRIS,
				       .primitive = AGX_CMD_PRIMITIVE_TRIANGLES,
				       .count = 3 * SMALL_TRIS };
	struct agx_fw_work_render r;
	char err[256];
	double rate;

	/* a 64x32 grid of them, 2 pixels apart */
	for (unsigned i = 0; i < SMALL_TRIS; i++) {
		float x = (float)(i % 64) / 32 - 1, y = (float)(i / 64) / 16 - 1, d = 4.0f / 64;
		const float corner[3][2] = { { x, y }, { x + d, y }, { x, y + d } };

		for (unsigned k = 0; k < 3; k++) {
			float *v = small[3 * i + k];

			v[0] = corner[k][0];
			v[1] = corner[k][1];
			v[3] = 1;
			v[4 + k] = v[7] = 1;
		}
	}
	if (sim_fwhost_map(fh, 2, code_va, RENDER_CODE, 0x4000, true) < 0 ||
	    sim_fwhost_map(fh, 2, data_va, RENDER_DATA, RENDER_IMAGE - RENDER_DATA, false) < 0 ||
	    sim_fwhost_map(fh, 2, image_va, RENDER_IMAGE, RENDER_TVB - RENDER_IMAGE, false) < 0 ||
	    sim_fwhost_map(fh, 2, tvb_va, RENDER_TVB, RENDER_HEAP, false) < 0 ||
	    sim_fwhost_queue_create(fh, &q, 2, 1, AGX_FW_PIPE_VERTEX, 64, 0) < 0 ||
	    !sim_scene_init(
		&sc, (struct sim_arena){ h->ram + RENDER_CODE, code_va, 0x4000, 0 },
		(struct sim_arena){ h->ram + RENDER_DATA, data_va, RENDER_IMAGE - RENDER_DATA, 0 },
		err, sizeof(err)) ||
	    !sim_scene_render(&sc, &t, &full, 1, &r) || !(rate = renders_per_s(fh, &q, &r)))
		return false;
	*pixels = rate * RENDER_SIZE * RENDER_SIZE;
	t.width = t.height = SMALL_SIZE;
	t.stride = SMALL_SIZE * 4;
	if (!sim_scene_render(&sc, &t, &many, 1, &r) || !(rate = renders_per_s(fh, &q, &r)))
		return false;
	*triangles = rate * SMALL_TRIS;
	return true;
}

static double measure_mmu(void)
{
	enum { PAGES = 256, RAM = 8 << 20 };
	const uint64_t ram_paddr = 0x40000000, base = 0x100000000ull;
	struct sim_device *dev = sim_device_create(1ull << 36, 1);
	static struct sim_uat uat;
	struct sim_pagetable pt;
	struct sim_uat_fault fault;
	int fd = memfd_create("bench-uat", MFD_CLOEXEC);
	uint8_t *ram;
	uint64_t pa, sum = 0, n = 0;
	double t0, elapsed;

	if (!dev || fd < 0 || ftruncate(fd, RAM) < 0)
		return 0;
	ram = mmap(NULL, RAM, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (ram == MAP_FAILED || sim_device_dma_map(dev, ram_paddr, RAM, fd, 0, true, 1) < 0 ||
	    sim_pagetable_init(&pt, ram, ram_paddr, RAM) < 0)
		return 0;
	for (unsigned i = 0; i < PAGES; i++)
		if (sim_pagetable_map(&pt, 1, base + i * SIM_UAT_PAGE_SIZE,
				      (1000 + i) * SIM_UAT_PAGE_SIZE, 1, true, true) < 0)
			return 0;
	sim_uat_init(&uat, dev, pt.context_table);
	t0 = bench_now_us();
	do {
		for (unsigned i = 0; i < 1u << 20; i++, n++) {
			/* a stride through the pages, as a SIMD group's accesses would */
			uint64_t va = base + (n * 4160) % (PAGES * SIM_UAT_PAGE_SIZE);

			if (!sim_uat_translate(&uat, 1, va, SIM_UAT_READ, false, &pa, &fault))
				return 0;
			sum += pa;
		}
		elapsed = bench_now_us() - t0;
	} while (elapsed < 1e6);
	if (uat.walks != PAGES || sum == 0)
		return 0; /* not the warm TLB this figure is about */
	munmap(ram, RAM);
	close(fd);
	sim_device_destroy(dev);
	return (double)n / (elapsed / 1e6);
}

int main(int argc, char **argv)
{
	static double samples[SAMPLES];
	char sim[PATH_MAX + 32], dir[] = "/tmp/agx-bench-device-XXXXXX", sock[64];
	struct sim_host h;
	int status, ret = 1;
	pid_t pid;

	if (argc > 2) {
		fprintf(stderr, "usage: %s [AGX-SIM]\n", argv[0]);
		return 2;
	}
	if (argc == 2)
		snprintf(sim, sizeof(sim), "%s", argv[1]);
	else
		bench_sibling(sim, sizeof(sim), "sim/agx-sim");
	if (!mkdtemp(dir)) {
		perror("mkdtemp");
		return 1;
	}
	snprintf(sock, sizeof(sock), "%s/sim.sock", dir);
	pid = fork();
	if (pid == 0) {
		execl(sim, sim, "--socket", sock, (char *)NULL);
		perror(sim);
		_exit(127);
	}
	if (sim_host_connect(&h, sock, 5000) < 0 || sim_host_attach(&h) < 0 ||
	    sim_host_give_ram(&h, RAM_PADDR, RAM_SIZE) < 0 || !sim_host_boot(&h, 5000)) {
		fprintf(stderr, "agx-bench-device: cannot bring up %s: %s\n", sim, h.error);
		goto out;
	}
	for (uint64_t i = 1; i <= WARMUP; i++)
		if (!sim_host_ping(&h, i, 5000))
			goto fail;
	for (int i = 0; i < SAMPLES; i++) {
		double t0 = bench_now_us();

		if (!sim_host_ping(&h, WARMUP + 1 + (uint64_t)i, 5000))
			goto fail;
		samples[i] = bench_now_us() - t0;
	}
	bench_sort(samples, SAMPLES);
	printf("device.mbox_rtt_p50_us %.2f us\n", samples[SAMPLES / 2]);
	printf("device.mbox_rtt_p99_us %.2f us\n", samples[SAMPLES * 99 / 100]);
	double compute, dispatches;
	struct sim_fwhost fh;

	if (sim_fwhost_init(&fh, &h, 0x40000, 0x80000, 0xc0000, 16) < 0 ||
	    !sim_fwhost_start(&fh, 5000)) {
		fprintf(stderr, "agx-bench-device: the GPU firmware did not start: %s\n", h.error);
		goto out;
	}
	if (!measure_compute(&h, &fh, &compute, &dispatches)) {
		fprintf(stderr, "agx-bench-device: the compute measurement failed: %s\n", h.error);
		goto out;
	}
	printf("device.compute_lane_ops_per_s %.3g lane-ops/s\n", compute);
	printf("device.dispatches_per_s %.0f items/s\n", dispatches);
	double pixels, triangles;

	if (!measure_render(&h, &fh, &pixels, &triangles)) {
		fprintf(stderr, "agx-bench-device: the render measurement failed: %s\n", h.error);
		goto out;
	}
	printf("device.render_pixels_per_s %.3g pixels/s\n", pixels);
	printf("device.render_triangles_per_s %.3g triangles/s\n", triangles);
	double mmu = measure_mmu();

	if (mmu == 0) {
		fprintf(stderr, "agx-bench-device: the UAT measurement failed\n");
		goto out;
	}
	printf("device.mmu_translations_per_s %.0f translations/s\n", mmu);
	ret = 0;
	goto out;
fail:
	fprintf(stderr, "agx-bench-device: ping: %s\n", h.error);
out:
	sim_host_release(&h);
	kill(pid, SIGTERM);
	waitpid(pid, &status, 0);
	unlink(sock);
	rmdir(dir);
	return ret;
}
