/*
 * cdm.h: agx-sim's compute data master.  It reads a compute work item's
 * CDM control stream (libagx/hw/cmdbuf.hw) through the UAT in the work's
 * context, follows stream links, applies barriers, and turns each launch —
 * its USC state words, uniforms and sizes — into a job for the GPU cores
 * (gpu.h).  It runs on the firmware thread, between jobs.
 */
#ifndef SIM_CDM_H
#define SIM_CDM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cache.h"
#include "gpu.h"
#include "pipeline.h"

struct sim_device;

struct sim_cdm {
	struct sim_stream s;
};

enum sim_cdm_status {
	SIM_CDM_LAUNCH,	   /* the job is ready for the GPU cores */
	SIM_CDM_END,	   /* the stream terminated */
	SIM_CDM_FAULT,	   /* reading the stream or its state faulted */
	SIM_CDM_MALFORMED, /* a word the CDM does not accept; why says which */
};

void sim_cdm_init(struct sim_cdm *cdm, struct sim_device *dev, unsigned context, uint64_t encoder,
		  uint64_t encoder_end, uint64_t usc_base);

/*
 * Reads up to the next launch and prepares it in *job, whose pipe it fills
 * (its programs from programs, the context's decoded-shader cache;
 * deadline and delay are left alone).  On SIM_CDM_FAULT *fault says where, on SIM_CDM_MALFORMED why
 * does.
 */
enum sim_cdm_status sim_cdm_next(struct sim_cdm *cdm, struct usc_cache *programs,
				 struct sim_gpu_job *job, struct sim_uat_fault *fault, char *why,
				 size_t why_size);

#endif
