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
/*
 * A pipeline (64-byte aligned, at usc_base + pipeline): the uniform halves
 * [0, halves) from memory at uniforms, shared_bytes of threadgroup memory
 * (a multiple of 256), the shader at usc_base + code, and a preshader at
 * usc_base + *preshader if preshader is not NULL.
 */
size_t sim_cmd_pipeline(uint8_t *out, uint64_t uniforms, unsigned halves, uint32_t shared_bytes,
			uint32_t code, const uint32_t *preshader);

#endif
