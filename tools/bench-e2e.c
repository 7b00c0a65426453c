/*
 * bench-e2e: `./agx bench e2e`.  Starts the stack (agx-sim, agx-memmgr,
 * agx-fwchan, agx-scheduler, next to this program in the build tree) and,
 * as a driver would through libagx's device API, runs a trivial compute
 * kernel compiled by libagx's compiler (one 64-thread threadgroup writing
 * its invocation ids):
 *   - dispatch -> fence latency: one dispatch submitted, its fence seen
 *     signalled on the fence page (p50, p99 over many);
 *   - dispatches per second: jobs of one dispatch each from one client,
 *     kept 64 deep, for two seconds, every one completed.
 * Prints `e2e.<metric> <value> <unit>` lines.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "agx/cmdbuf.h"
#include "agx/compiler.h"
#include "agx/device.h"
#include "bench.h"

#define LATENCY_SAMPLES	   2000
#define THROUGHPUT_SECONDS 2.0
#define DEPTH		   64
#define WAIT_NS		   (10ll * 1000 * 1000 * 1000)

static const char kernel_source[] = "#version 310 es\n"
				    "layout(local_size_x = 64) in;\n"
				    "layout(std430, binding = 0) buffer Out { uint b[]; };\n"
				    "void main() { b[gl_GlobalInvocationID.x] = "
				    "gl_GlobalInvocationID.x; }\n";

static int fail(const char *what)
{
	fprintf(stderr, "agx-bench-e2e: %s: %s\n", what, agx_device_error());
	return 1;
}

int main(void)
{
	struct bench_stack st;
	struct agx_shader_binary kernel;
	struct agx_device *dev = NULL;
	struct agx_device_vm *vm;
	struct agx_bo code, cmds, out;
	uint64_t code_va, cmds_va, out_va;
	uint32_t queue, syncobj;
	struct agx_dispatch d = { .threadgroups = { 1, 1, 1 }, .local_size = { 64, 1, 1 } };
	struct agx_cmdbuf cb;
	struct agx_sched_cmd cmd = { .kind = AGX_SCHED_CMD_COMPUTE };
	double *samples, t0, elapsed;
	uint64_t value = 0, done;
	int status = 0, rc = 1, binding = -1;

	if (agx_compile_glsl(AGX_SHADER_COMPUTE, kernel_source, sizeof(kernel_source) - 1, NULL,
			     &kernel) < 0) {
		fprintf(stderr, "agx-bench-e2e: the kernel does not compile: %s\n", kernel.log);
		return 1;
	}
	for (unsigned i = 0; i < kernel.info.num_vars; i++)
		if (kernel.info.vars[i].kind == AGX_SHADER_STORAGE_BLOCK)
			binding = kernel.info.vars[i].uniform;
	samples = calloc(LATENCY_SAMPLES, sizeof(*samples));
	if (!samples || binding < 0 || bench_stack_start(&st, 4) < 0)
		return 1;
	if (agx_device_open(
		&(struct agx_device_config){ .memmgr_socket = st.sock[BENCH_MEMMGR],
					     .scheduler_socket = st.sock[BENCH_SCHEDULER],
					     .name = "bench-e2e" },
		&dev) < 0) {
		rc = fail("opening the device");
		goto out;
	}
	if (agx_device_vm_create(dev, &vm) < 0 || agx_device_bo_create(dev, 0x4000, 0, &code) < 0 ||
	    agx_device_bo_create(dev, 0x4000, 0, &cmds) < 0 ||
	    agx_device_bo_create(dev, 0x4000, 0, &out) < 0 ||
	    agx_device_vm_map(dev, vm, &code, AGX_BIND_READ | AGX_BIND_EXECUTE | AGX_MAP_USC,
			      &code_va) < 0 ||
	    agx_device_vm_map(dev, vm, &cmds, AGX_BIND_READ | AGX_MAP_USC, &cmds_va) < 0 ||
	    agx_device_vm_map(dev, vm, &out, AGX_BIND_READ | AGX_BIND_WRITE, &out_va) < 0 ||
	    agx_device_queue_create(dev, vm, AGX_PRIORITY_NORMAL, &queue) < 0 ||
	    agx_device_syncobj_create(dev, &syncobj) < 0) {
		rc = fail("setting up");
		goto out;
	}
	memcpy(code.map, kernel.code, kernel.size);
	d.code_va = code_va;
	d.num_registers = kernel.info.num_registers;
	d.num_uniforms = kernel.info.num_uniforms;
	agx_dispatch_set_address(&d, (unsigned)binding, out_va);
	if (agx_cmdbuf_init(&cb, cmds.map, cmds_va, cmds.size, agx_device_info(dev)->usc_base) <
		0 ||
	    agx_cmdbuf_dispatch(&cb, &d) < 0 || agx_cmdbuf_finish(&cb, &cmd.compute) < 0)
		goto out;

	/* latency: one dispatch at a time, submit to fence */
	for (unsigned i = 0; i < LATENCY_SAMPLES; i++) {
		struct agx_sched_point p = { syncobj, ++value };

		t0 = bench_now_us();
		if (agx_device_submit(dev, queue, &cmd, 1, NULL, 0, &p, 1) < 0 ||
		    agx_device_wait(dev, &p, 1, true, WAIT_NS, &status) < 0 || status) {
			rc = fail("a dispatch");
			goto out;
		}
		samples[i] = bench_now_us() - t0;
	}
	for (unsigned i = 0; i < 64; i++)
		if (((uint32_t *)out.map)[i] != i) {
			fprintf(stderr, "agx-bench-e2e: the kernel wrote %u at %u\n",
				((uint32_t *)out.map)[i], i);
			goto out;
		}
	bench_sort(samples, LATENCY_SAMPLES);

	/* throughput: DEPTH jobs in flight, for a while */
	done = value;
	t0 = bench_now_us();
	do {
		struct agx_sched_point p = { syncobj, ++value };
		struct agx_sched_point behind = { syncobj, value - DEPTH };

		if (value - done > DEPTH &&
		    (agx_device_wait(dev, &behind, 1, true, WAIT_NS, &status) < 0 || status)) {
			rc = fail("waiting");
			goto out;
		}
		if (agx_device_submit(dev, queue, &cmd, 1, NULL, 0, &p, 1) < 0) {
			rc = fail("submitting");
			goto out;
		}
		elapsed = (bench_now_us() - t0) / 1e6;
	} while (elapsed < THROUGHPUT_SECONDS);
	{
		struct agx_sched_point last = { syncobj, value };

		if (agx_device_wait(dev, &last, 1, true, WAIT_NS, &status) < 0 || status) {
			rc = fail("the last dispatch");
			goto out;
		}
	}
	elapsed = (bench_now_us() - t0) / 1e6;

	printf("e2e.latency_p50_us %.1f us\n", samples[LATENCY_SAMPLES / 2]);
	printf("e2e.latency_p99_us %.1f us\n", samples[LATENCY_SAMPLES * 99 / 100]);
	printf("e2e.dispatches_per_s %.0f 1/s\n", (double)(value - done) / elapsed);
	rc = 0;

out:
	agx_device_close(dev);
	bench_stack_stop(&st);
	agx_shader_binary_finish(&kernel);
	free(samples);
	return rc;
}
