/*
 * cmdbuf.h: a few control-stream words for tests and benchmarks, packed
 * with the generated packers of libagx/hw/cmdbuf.hw: a direct CDM launch,
 * a barrier, a link, a terminate, and the USC state words of a compute
 * pipeline.  libagx's command builder is the drivers' real one.
 */
#ifndef SIM_HOST_CMDBUF_H
#define SIM_HOST_CMDBUF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Each writes its words at out and returns their length in bytes. */
size_t sim_cmd_launch(uint8_t *out, uint32_t pipeline, const uint32_t global[3],
		      const uint32_t local[3]);
size_t sim_cmd_barrier(uint8_t *out, bool usc_cache_inval);
size_t sim_cmd_link(uint8_t *out, uint64_t target);
size_t sim_cmd_terminate(uint8_t *out);
/* Texture and sampler state a pipeline binds: ts0.. and ss0.. from memory. */
struct sim_cmd_bindings {
	uint64_t textures; /* descriptors, 24 bytes each, 8-byte aligned */
	unsigned num_textures;
	uint64_t samplers; /* samplers, 8 bytes each (not extended) */
	unsigned num_samplers;
};

/*
 * A pipeline (64-byte aligned, at usc_base + pipeline): the uniform halves
 * [0, halves) from memory at uniforms, shared_bytes of threadgroup memory
 * (a multiple of 256), texture and sampler state if bind is not NULL, the
 * shader at usc_base + code, and a preshader at usc_base + *preshader if
 * preshader is not NULL.
 */
size_t sim_cmd_pipeline(uint8_t *out, uint64_t uniforms, unsigned halves, uint32_t shared_bytes,
			const struct sim_cmd_bindings *bind, uint32_t code,
			const uint32_t *preshader);

#endif
