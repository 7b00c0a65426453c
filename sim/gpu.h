/*
 * gpu.h: agx-sim's GPU cores: worker threads that execute one job at a
 * time on USC cores, its parts spread over them -- a compute dispatch's
 * threadgroups, or the units of work a graphics stage hands out (vertex
 * batches, tiles).  The GPU firmware (gpufw.c) decides what runs; this
 * part only runs it, in one UAT context, and says how it ended: done, a
 * fault (with the unit, the address and why), over its time limit, or
 * aborted.
 */
#ifndef SIM_GPU_H
#define SIM_GPU_H

#include <stdbool.h>
#include <stdint.h>

#include "agx_uat.h"
#include "pipeline.h"
#include "uat.h"
#include "usc.h"

#define SIM_GPU_MAX_THREADS 1024  /* per threadgroup */
#define SIM_GPU_STACK_BYTES 1024  /* each thread's stack (stack_load/stack_store) */
#define SIM_GPU_MAX_SHARED  65536 /* threadgroup memory, bytes */

struct sim_device;

enum sim_gpu_result {
	SIM_GPU_OK,
	SIM_GPU_FAULT,	   /* a memory access faulted: fault says where */
	SIM_GPU_ILLEGAL,   /* an instruction the USC cannot execute, at fault.va */
	SIM_GPU_TIMEOUT,   /* over its time limit */
	SIM_GPU_ABORTED,   /* sim_gpu_abort() */
	SIM_GPU_MALFORMED, /* a unit refused its input: message says why */
};

/* One worker's USC core, lent to a job's run callback. */
struct sim_gpu_core;

struct sim_gpu_job {
	unsigned context; /* UAT context */
	/*
	 * What to run: a compute dispatch -- pipe's shader (after its
	 * preshader) over the grid; or, when run is set, run(core, arg, unit)
	 * for every unit in [0, units), spread over the cores.
	 */
	struct sim_pipeline *pipe;
	uint32_t grid[3];   /* threadgroups */
	uint32_t group[3];  /* threads per threadgroup */
	uint32_t global[3]; /* threads in all: the last threadgroups may be partial */
	void (*run)(struct sim_gpu_core *core, void *arg, uint64_t unit);
	void *arg;
	uint64_t units;
	/*
	 * GPU time the job may take, 0: no limit.  A job's GPU time is its
	 * busiest core's: the CPU time that core's thread spent in it
	 * (CLOCK_THREAD_CPUTIME_ID), so a host that is busy with other work
	 * slows the simulated GPU down without making its jobs look long.
	 */
	uint64_t budget_ns;
	uint64_t delay_ns; /* injected: finish this much later */

	/* how it ended, once sim_gpu_finished() */
	enum sim_gpu_result result;
	uint64_t busy_ns; /* its GPU time: the busiest core's (an injected delay not counted) */
	enum agx_uat_fault_unit fault_unit; /* SIM_GPU_FAULT: who made the access */
	struct sim_uat_fault fault;	    /* SIM_GPU_FAULT; va also for SIM_GPU_ILLEGAL */
	char message[128];
};

struct sim_gpu;

/* --- for run callbacks ------------------------------------------------------------ */

/* SIMD group state i (0..31) of the core: the callback's to use. */
struct usc_state *sim_gpu_core_state(struct sim_gpu_core *core, unsigned i);
/*
 * Puts st in its power-on form for the lanes in present, with pipe's
 * uniforms and texture state, the job's memory and the lanes' stacks.
 */
void sim_gpu_core_prepare(struct sim_gpu_core *core, struct usc_state *st,
			  const struct sim_pipeline *pipe, uint32_t present);
/* Runs program (at va) on st until it stops; false when that ended the job. */
bool sim_gpu_core_run(struct sim_gpu_core *core, const struct usc_program *program, uint64_t va,
		      struct usc_state *st);
/* A fixed-function unit's access in the job's context; false when it faulted and ended the job. */
bool sim_gpu_core_access(struct sim_gpu_core *core, enum agx_uat_fault_unit unit, uint64_t va,
			 void *buf, unsigned size, bool write);
/* Ends the job as malformed: its input is not what the unit accepts (message says why). */
void sim_gpu_core_malformed(struct sim_gpu_core *core, const char *message);
/* The core's local memory: SIM_GPU_MAX_SHARED bytes (threadgroup memory, the tilebuffer). */
uint8_t *sim_gpu_core_local(struct sim_gpu_core *core);
/* False once the job has ended (another core failed, abort, deadline). */
bool sim_gpu_core_live(struct sim_gpu_core *core);

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
/* The calling thread's CPU time, in ns: what the simulated GPU's time is measured in. */
uint64_t sim_gpu_thread_ns(void);

#endif
