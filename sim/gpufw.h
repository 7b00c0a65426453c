/*
 * gpufw.h: agx-sim's GPU firmware, the part behind RTKit endpoints 0x20
 * and 0x21 (docs/firmware-abi.md): initdata, the channels, the work queues
 * and the scheduling of their work onto the GPU cores (gpu.h).  It runs on
 * the firmware thread; rtkit.c hands it its messages and its wake-ups.
 */
#ifndef SIM_GPUFW_H
#define SIM_GPUFW_H

#include <stdbool.h>
#include <stdint.h>

#include "agx_fwabi.h"
#include "cdm.h"
#include "gpu.h"
#include "render.h"
#include "uat.h"

#define SIM_EP_GPU_FIRMWARE 0x20
#define SIM_EP_GPU_DOORBELL 0x21

#define SIM_GPUFW_PRIORITIES 4
#define SIM_GPUFW_PIPES	     3 /* vertex, fragment, compute */
#define SIM_GPUFW_CHANNELS   (SIM_GPUFW_PRIORITIES * SIM_GPUFW_PIPES)
#define SIM_GPUFW_QUEUES     256 /* work queues the firmware keeps track of */

struct sim_rtkit;

/* A ring the firmware reads or writes (docs/firmware-abi.md, "Channels"). */
struct sim_ring {
	uint64_t block; /* the control block */
	uint64_t ring;
	unsigned entries;
};

/* A work queue the host announced on a pipe channel. */
struct sim_queue {
	uint64_t va; /* its descriptor; 0: a free entry */
	unsigned priority, pipe;
};

/* One bit a queue entry, per priority: the queues that may have work. */
#define SIM_GPUFW_RUN_WORDS (SIM_GPUFW_QUEUES / 64)

struct sim_gpufw {
	bool running;
	uint64_t initdata; /* firmware VAs */
	struct sim_ring fwctl, event, devctl, log, pipe[SIM_GPUFW_CHANNELS];
	bool ring_host; /* events posted since the last rx_doorbell */
	uint32_t log_seq;

	struct sim_queue queues[SIM_GPUFW_QUEUES];
	/* the run lists: a queue's bit is set, under its priority, while it may have work */
	uint64_t runnable[SIM_GPUFW_PRIORITIES][SIM_GPUFW_RUN_WORDS];
	unsigned next[SIM_GPUFW_PRIORITIES]; /* round robin within a priority */

	/* the GPU cores and what runs on them: a compute item's stream, a launch at a time */
	struct sim_gpu *gpu;
	struct sim_gpu_job job;
	struct sim_pipeline compute_pipe; /* the launch's */
	struct sim_cdm cdm;
	struct sim_render render;
	bool busy;
	unsigned job_context; /* the running item's */
	struct sim_queue *job_queue;
	struct agx_fw_work_header job_header; /* the running item's slot and stamp */
	uint64_t job_start_ns;		      /* when the firmware began it: its stamp's start */
	uint64_t limit_ns;		      /* the item's GPU time; 0: no limit */
	uint64_t used_ns;		      /* spent by its launches so far */

	/* decoded shaders per context; stale after the host changed that context's memory */
	struct usc_cache *programs[SIM_UAT_CONTEXTS];
	bool programs_stale[SIM_UAT_CONTEXTS];

	uint64_t time_limit_ns; /* for queues that name none */
	/* injected (--test-faults): the next delay_count jobs finish delay_ns late */
	unsigned delay_count; /* atomic: set from the setup socket's thread */
	uint64_t delay_ns;
};

/* Power-on: the GPU cores started (workers threads, 0: jobs run inline). */
int sim_gpufw_init(struct sim_rtkit *rt, struct sim_gpufw *gpu, unsigned workers,
		   uint64_t time_limit_ns);
/* Power-off: a running job is abandoned, the cores stop. */
void sim_gpufw_finish(struct sim_gpufw *gpu);

/* A message for endpoint 0x20 or 0x21. */
void sim_gpufw_message(struct sim_rtkit *rt, struct sim_gpufw *gpu, uint8_t ep,
		       const uint8_t msg[8]);
/* The firmware thread woke: a finished job is completed, the next one started. */
void sim_gpufw_poll(struct sim_rtkit *rt, struct sim_gpufw *gpu);
/* Fault injection: the next count jobs finish delay_ns late (any thread). */
void sim_gpufw_delay(struct sim_gpufw *gpu, unsigned count, uint64_t delay_ns);
/* A job has finished and waits for sim_gpufw_poll(). */
bool sim_gpufw_pending(struct sim_gpufw *gpu);

/* What rtkit.c lends the GPU firmware. */
void sim_fw_send(struct sim_rtkit *rt, uint8_t ep, const uint8_t msg[8]);
void sim_fw_log(struct sim_rtkit *rt, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
struct sim_device *sim_fw_device(struct sim_rtkit *rt);
/* Wakes the firmware thread (a GPU job finished). */
void sim_fw_wake(struct sim_rtkit *rt);

#endif
