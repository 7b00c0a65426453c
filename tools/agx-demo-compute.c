/*
 * agx-demo-compute [--out DIR] [--size WxH] [--iterations N] (`./agx demo
 * compute`): compute through the whole stack, end to end.  The Mandelbrot shader
 * (tools/demo/mandelbrot.comp, built in) is compiled by libagx's compiler, its machine code and
 * command buffers go into BOs in this client's own VM, one job per band of rows runs through
 * agx-scheduler, agx-fwchan and the GPU of agx-sim (the bands submitted together, each a timeline
 * point), and once the last fence signals the image is read back and written as DIR/mandelbrot.png.
 * Prints what each step took and the scheduler's metrics.
 *
 * The stack must run: `./agx demo compute` starts it (agx-stack run) and points
 * this program at it with AGX_MEMMGR_SOCKET, AGX_SCHEDULER_SOCKET and
 * AGX_RUNTIME_DIR (whose metrics.sock has the metrics).
 */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "agx/cmdbuf.h"
#include "agx/compiler.h"
#include "agx/device.h"
#include "demo-common.h"
#include "demo_shader.h"

#define WAIT_NS (60ll * 1000 * 1000 * 1000)
/* Jobs the image is split into: each stays well inside a job's GPU time limit. */
#define BANDS		    16
#define PAGE_ROUND(x, page) (((x) + (page)-1) / (page) * (page))

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static int die(const char *what, const char *why)
{
	fprintf(stderr, "agx-demo-compute: %s: %s\n", what, why);
	return 1;
}

static const struct agx_shader_var *find_var(const struct agx_shader_info *info,
					     enum agx_shader_var_kind kind, const char *name,
					     unsigned binding)
{
	for (unsigned i = 0; i < info->num_vars; i++) {
		const struct agx_shader_var *v = &info->vars[i];

		if (v->kind == kind && (name ? !strcmp(v->name, name) : v->binding == binding))
			return v;
	}
	return NULL;
}

/* A uniform's registers, as the reflection places them: false when the shader has none for it. */
static bool set_uniform(struct agx_dispatch *d, const struct agx_shader_info *info,
			const char *name, const uint32_t *words, unsigned count)
{
	const struct agx_shader_var *v = find_var(info, AGX_SHADER_UNIFORM, name, 0);

	if (!v || v->uniform < 0 || v->uniform + count > AGX_CMDBUF_MAX_UNIFORMS)
		return false;
	memcpy(&d->uniforms[v->uniform], words, 4 * count);
	if (d->num_uniforms < v->uniform + count)
		d->num_uniforms = v->uniform + count;
	return true;
}

int main(int argc, char **argv)
{
	static const struct option options[] = {
		{ "out", required_argument, NULL, 'o' },
		{ "size", required_argument, NULL, 's' },
		{ "iterations", required_argument, NULL, 'i' },
		{ 0 },
	};
	const char *out_dir = "out";
	unsigned width = 1024, height = 768, iterations = 256;
	struct agx_shader_binary shader;
	struct agx_device *dev = NULL;
	struct agx_device_vm *vm = NULL;
	struct agx_bo code = { .fd = -1 }, cmds = { .fd = -1 }, image = { .fd = -1 };
	uint64_t code_va, cmds_va, image_va;
	uint32_t queue, syncobj;
	struct agx_dispatch d = { 0 };
	struct agx_cmdbuf cb;
	struct agx_sched_cmd cmd = { .kind = AGX_SCHED_CMD_COMPUTE };
	struct agx_sched_point point;
	unsigned band_pixels, pixels;
	char path[PATH_MAX];
	double t0, t_compile, t_setup, t_gpu, t_png;
	int opt, ret, status = 0, rc = 1;

	while ((opt = getopt_long(argc, argv, "", options, NULL)) != -1) {
		if (opt == 'o')
			out_dir = optarg;
		else if (opt == 's' && sscanf(optarg, "%ux%u", &width, &height) == 2 && width &&
			 height && width <= 8192 && height <= 8192)
			;
		else if (opt == 'i' && (iterations = (unsigned)strtoul(optarg, NULL, 0)) > 0)
			;
		else {
			fprintf(stderr,
				"usage: agx-demo-compute [--out DIR] [--size WxH (up to 8192)] "
				"[--iterations N]\n");
			return 2;
		}
	}

	t0 = now_ms();
	ret = agx_compile_glsl(AGX_SHADER_COMPUTE, demo_shader, strlen(demo_shader), NULL, &shader);
	if (ret < 0)
		return die("compiling mandelbrot.comp", shader.log ? shader.log : strerror(-ret));
	t_compile = now_ms() - t0;

	t0 = now_ms();
	if (agx_device_open(&(struct agx_device_config){ .name = "agx-demo" }, &dev) < 0) {
		rc = die("opening the device (is the stack up? ./agx up)", agx_device_error());
		goto out;
	}
	const struct agx_device_info *info = agx_device_info(dev);
	size_t image_bytes = PAGE_ROUND((size_t)width * height * 4, info->page_size);

	if (agx_device_vm_create(dev, &vm) < 0 ||
	    agx_device_bo_create(dev, PAGE_ROUND(shader.size, info->page_size), 0, &code) < 0 ||
	    agx_device_bo_create(dev, BANDS * (uint64_t)info->page_size, 0, &cmds) < 0 ||
	    agx_device_bo_create(dev, image_bytes, 0, &image) < 0 ||
	    agx_device_vm_map(dev, vm, &code, AGX_BIND_READ | AGX_BIND_EXECUTE | AGX_MAP_USC,
			      &code_va) < 0 ||
	    agx_device_vm_map(dev, vm, &cmds, AGX_BIND_READ | AGX_MAP_USC, &cmds_va) < 0 ||
	    agx_device_vm_map(dev, vm, &image, AGX_BIND_READ | AGX_BIND_WRITE, &image_va) < 0 ||
	    agx_device_queue_create(dev, vm, AGX_PRIORITY_NORMAL, &queue) < 0 ||
	    agx_device_syncobj_create(dev, &syncobj) < 0) {
		rc = die("setting up the GPU's memory", agx_device_error());
		goto out;
	}
	memcpy(code.map, shader.code, shader.size);

	/* the uniforms, where the compiler put them */
	float x0 = -2.2f, span = 3.2f, step = span / (float)width;
	float y0 = -step * (float)height / 2;
	uint32_t size_words[2] = { width, height }, view[4];
	float view_f[4] = { x0, y0, step, step };
	const struct agx_shader_var *buffer =
	    find_var(&shader.info, AGX_SHADER_STORAGE_BLOCK, NULL, 0);

	memcpy(view, view_f, sizeof(view));
	if (!buffer || buffer->uniform < 0 ||
	    !set_uniform(&d, &shader.info, "size", size_words, 2) ||
	    !set_uniform(&d, &shader.info, "view", view, 4) ||
	    !set_uniform(&d, &shader.info, "max_iterations", &iterations, 1)) {
		rc = die("mandelbrot.comp", "its reflection lacks the image or a uniform");
		goto out;
	}
	agx_dispatch_set_address(&d, (unsigned)buffer->uniform, image_va);
	if (d.num_uniforms < shader.info.num_uniforms)
		d.num_uniforms = shader.info.num_uniforms;
	d.code_va = code_va;
	d.num_registers = shader.info.num_registers;
	d.scratch_size = shader.info.scratch_size;
	d.shared_size = shader.info.shared_size;
	for (unsigned i = 0; i < 3; i++)
		d.local_size[i] = shader.info.local_size[i] ? shader.info.local_size[i] : 1;
	d.threadgroups[1] = d.threadgroups[2] = 1;
	pixels = width * height;
	band_pixels = (pixels / BANDS + d.local_size[0] - 1) / d.local_size[0] * d.local_size[0];
	t_setup = now_ms() - t0;

	/* a job per band, each its own command buffer (a page of cmds) and timeline point */
	t0 = now_ms();
	for (unsigned b = 0; b < BANDS && b * band_pixels < pixels; b++) {
		uint32_t first = b * band_pixels;
		size_t page = (size_t)b * info->page_size;

		if (!set_uniform(&d, &shader.info, "first", &first, 1)) {
			rc = die("mandelbrot.comp", "its reflection lacks the uniform first");
			goto out;
		}
		d.threadgroups[0] = band_pixels / d.local_size[0];
		if ((ret = agx_cmdbuf_init(&cb, (uint8_t *)cmds.map + page, cmds_va + page,
					   info->page_size, info->usc_base)) < 0 ||
		    (ret = agx_cmdbuf_dispatch(&cb, &d)) < 0 ||
		    (ret = agx_cmdbuf_finish(&cb, &cmd.compute)) < 0) {
			rc = die("building a command buffer", strerror(-ret));
			goto out;
		}
		point = (struct agx_sched_point){ syncobj, b + 1 };
		if (agx_device_submit(dev, queue, &cmd, 1, NULL, 0, &point, 1) < 0) {
			rc = die("submitting a job", agx_device_error());
			goto out;
		}
	}
	/* the jobs of a queue end in order: the last point is all of them */
	if (agx_device_wait(dev, &point, 1, true, WAIT_NS, &status) < 0) {
		rc = die("waiting for the jobs", agx_device_error());
		goto out;
	}
	if (status) {
		rc = die("the job failed on the GPU", strerror(-status));
		goto out;
	}
	t_gpu = now_ms() - t0;

	t0 = now_ms();
	if (mkdir(out_dir, 0755) < 0 && errno != EEXIST) {
		rc = die(out_dir, strerror(errno));
		goto out;
	}
	snprintf(path, sizeof(path), "%s/mandelbrot.png", out_dir);
	ret = write_png(path, image.map, width, height);
	if (ret < 0) {
		rc = die(path, strerror(-ret));
		goto out;
	}
	t_png = now_ms() - t0;

	printf("agx-demo-compute: the Mandelbrot set, %ux%u pixels, up to %u iterations\n", width,
	       height, iterations);
	printf("  compiled by libagx:   %8.2f ms  (glslang's set-up included; %u instructions, "
	       "%u registers, %u uniforms)\n",
	       t_compile, shader.info.num_instructions, shader.info.num_registers,
	       shader.info.num_uniforms);
	printf("  device and memory:    %8.2f ms  (chip 0x%x, G%u, %u cores)\n", t_setup,
	       info->chip_id, info->generation, info->num_cores);
	printf("  on the GPU:           %8.2f ms  (%u jobs of %u threadgroups of %u threads, "
	       "submit to fence)\n",
	       t_gpu, (unsigned)point.value, d.threadgroups[0], d.local_size[0]);
	printf("  written:              %8.2f ms  %s\n", t_png, path);
	print_metrics();
	rc = 0;

out:
	if (dev) {
		struct agx_bo *bos[] = { &image, &cmds, &code };

		for (unsigned i = 0; i < 3; i++)
			if (bos[i]->map)
				agx_device_bo_close(dev, bos[i]);
		agx_device_vm_destroy(dev, vm);
		agx_device_close(dev);
	}
	agx_shader_binary_finish(&shader);
	return rc;
}
