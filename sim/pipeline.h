/*
 * pipeline.h: what the data masters (cdm.c, vdm.c) share: reading a
 * control stream word by word through the UAT in the work's context, and
 * reading a pipeline -- the USC state words that give a shader its code,
 * uniforms, threadgroup memory, textures and samplers (docs/control-streams.md).
 */
#ifndef SIM_PIPELINE_H
#define SIM_PIPELINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cache.h"
#include "uat.h"
#include "usc.h"

#define SIM_GPU_MAX_UNIFORMS 256
#define SIM_GPU_MAX_TEXTURES 128 /* texture state registers ts0.. */
#define SIM_GPU_MAX_SAMPLERS 16	 /* sampler state registers ss0.. */

struct sim_device;

/* A shader and the state its USC words set up. */
struct sim_pipeline {
	const struct usc_program *program;
	uint64_t program_va;
	/* run once, as one thread, before the shader's threads: the uniforms it leaves are theirs
	 */
	const struct usc_program *preshader;
	uint64_t preshader_va;
	uint32_t uniforms[SIM_GPU_MAX_UNIFORMS]; /* the uniform registers, u0..u255 */
	/* texture unit state: descriptors (24 bytes), samplers with their borders (24) */
	uint8_t textures[SIM_GPU_MAX_TEXTURES][24];
	uint8_t samplers[SIM_GPU_MAX_SAMPLERS][24];
	unsigned num_textures, num_samplers;
	uint32_t shared_size; /* threadgroup memory, bytes */
};

enum sim_read {
	SIM_READ_OK,
	SIM_READ_FAULT,	    /* an access faulted: the fault says where */
	SIM_READ_MALFORMED, /* a word the unit does not accept: why says which */
};

/* A control stream being read, and where its problems are reported. */
struct sim_stream {
	struct sim_device *dev;
	unsigned context;
	const char *name; /* "CDM", "VDM" */
	uint64_t at, end; /* end bounds the stream until its first link */
	uint64_t usc_base;
	bool linked;
	unsigned commands; /* read so far: a stream that links in circles ends */
	struct usc_cache *programs;
	struct sim_uat_fault *fault;
	char *why;
	size_t why_size;
};

void sim_stream_init(struct sim_stream *s, struct sim_device *dev, unsigned context,
		     const char *name, uint64_t encoder, uint64_t encoder_end, uint64_t usc_base);

/* Where a step of reading the stream gets its shaders and reports its problems. */
void sim_stream_begin(struct sim_stream *s, struct usc_cache *programs, struct sim_uat_fault *fault,
		      char *why, size_t why_size);

/* Sets why and returns SIM_READ_MALFORMED. */
enum sim_read sim_stream_malformed(struct sim_stream *s, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* Reads memory in the stream's context; false with *s->fault set. */
bool sim_stream_read(struct sim_stream *s, uint64_t va, void *buf, uint64_t size);
/* The stream's next size bytes. */
enum sim_read sim_stream_take(struct sim_stream *s, void *buf, unsigned size);
/* The stream goes on at target (a link). */
void sim_stream_jump(struct sim_stream *s, uint64_t target);

/*
 * The pipeline whose USC words are at usc_base + offset: *p is reset, then
 * filled.  Extended samplers carry a custom border each.
 */
enum sim_read sim_pipeline_read(struct sim_stream *s, uint64_t offset, bool extended_samplers,
				struct sim_pipeline *p);

#endif
