/*
 * gpu.h: agx-sim's GPU cores: worker threads that execute one compute
 * dispatch at a time on USC cores, its threadgroups spread over them.  The
 * GPU firmware (gpufw.c) decides what runs; this part only runs it, in one
 * UAT context, and says how it ended: done, a fault (with the address and
 * why), over its time limit, or aborted.
 */
#ifndef SIM_GPU_H
#define SIM_GPU_H

#include <stdbool.h>
#include <stdint.h>

#include "uat.h"
#include "usc.h"

#define SIM_GPU_MAX_UNIFORMS 256
#define SIM_GPU_MAX_THREADS  1024  /* per threadgroup */
#define SIM_GPU_STACK_BYTES  1024  /* each thread's stack (stack_load/stack_store) */
#define SIM_GPU_MAX_TEXTURES 128   /* texture state registers ts0.. */
#define SIM_GPU_MAX_SAMPLERS 16	   /* sampler state registers ss0.. */
#define SIM_GPU_MAX_SHARED   65536 /* threadgroup memory, bytes */

struct sim_device;

enum sim_gpu_result {
	SIM_GPU_OK,
	SIM_GPU_FAULT,	 /* a memory access faulted: fault says where */
	SIM_GPU_ILLEGAL, /* an instruction the USC cannot execute, at fault.va */
	SIM_GPU_TIMEOUT, /* over its time limit */
	SIM_GPU_ABORTED, /* sim_gpu_abort() */
};

struct sim_gpu_job {
	/* what to run */
	unsigned context; /* UAT context */
	const struct usc_program *program;
	uint64_t program_va;
	/* run once, as one thread, before any threadgroup: the uniforms it leaves are every
	 * thread's */
	const struct usc_program *preshader;
	uint64_t preshader_va;
	uint32_t uniforms[SIM_GPU_MAX_UNIFORMS]; /* the uniform registers, u0..u255 */
	/* texture unit state: descriptors (24 bytes), samplers with their borders (24) */
	uint8_t textures[SIM_GPU_MAX_TEXTURES][24];
	uint8_t samplers[SIM_GPU_MAX_SAMPLERS][24];
	unsigned num_textures, num_samplers;
	uint32_t grid[3];   /* threadgroups */
	uint32_t group[3];  /* threads per threadgroup */
	uint32_t global[3]; /* threads in all: the last threadgroups may be partial */
	uint32_t shared_size;
	uint64_t deadline_ns; /* CLOCK_MONOTONIC; 0: none */
	uint64_t delay_ns;    /* injected: finish this much later */

	/* how it ended, once sim_gpu_finished() */
	enum sim_gpu_result result;
	struct sim_uat_fault fault; /* SIM_GPU_FAULT; va also for SIM_GPU_ILLEGAL */
	char message[128];
};

struct sim_gpu;

/*
 * Worker threads for `workers` cores; 0 runs each job inline, inside
 * sim_gpu_start() (fuzzing).  done(arg) is called from a worker when a
 * job has finished.
 */
struct sim_gpu *sim_gpu_create(struct sim_device *dev, unsigned workers, void (*done)(void *),
			       void *arg);
/* Aborts a running job, waits for the workers and frees them. */
void sim_gpu_destroy(struct sim_gpu *gpu);

/* Starts a job on an idle GPU; the job must stay valid until it has finished. */
void sim_gpu_start(struct sim_gpu *gpu, struct sim_gpu_job *job);
/* True once the started job has finished (and until the next start). */
bool sim_gpu_finished(struct sim_gpu *gpu);
/* Stops the job at the workers' next check; it ends SIM_GPU_ABORTED unless it ended already. */
void sim_gpu_abort(struct sim_gpu *gpu);
/* Waits until the started job has finished. */
void sim_gpu_wait(struct sim_gpu *gpu);

uint64_t sim_gpu_now_ns(void);

#endif
