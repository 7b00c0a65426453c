/*
 * cmdbuf.h: a few control-stream words for tests and benchmarks, packed
 * with the generated packers of libagx/hw/cmdbuf.hw: a direct CDM launch,
 * a barrier, a link, a terminate, the USC state words of a pipeline, and
 * the VDM and PPP words of simple draws.  libagx's command builder is the
 * drivers' real one.
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

/* --- graphics ------------------------------------------------------------------------ */

/* VDM state: the vertex shader's pipeline and the 32-bit words each vertex writes. */
size_t sim_cmd_vdm_vertex(uint8_t *out, uint32_t pipeline, unsigned outputs);
/* VDM state: the primitive restart index. */
size_t sim_cmd_vdm_restart(uint8_t *out, uint32_t index);
/* A PPP state update: the words at va (size bytes, a multiple of 4). */
size_t sim_cmd_vdm_ppp(uint8_t *out, uint64_t va, size_t size);
/* A draw: index_size 0 for none (then start is the first vertex, else the base vertex). */
size_t sim_cmd_vdm_draw(uint8_t *out, unsigned primitive, uint32_t count, uint32_t instances,
			uint32_t start, unsigned index_size, uint64_t indices, uint32_t index_bytes,
			bool restart);
size_t sim_cmd_vdm_terminate(uint8_t *out);

/* The PPP state of a simple draw. */
struct sim_cmd_ppp {
	float translate[3], scale[3];
	bool cull_front, cull_back, front_ccw;
	unsigned provoking; /* 0..2 */
	unsigned outputs;   /* 32-bit words a vertex writes */
	/* the fragment shader: its pipeline (0: none), coefficient bindings at usc_base + cf */
	uint32_t fs_pipeline, cf;
	unsigned cf_count;
	bool scissor;
	unsigned scissor_index;
	/* depth: the test (cmdbuf.hw zs_func; 0 is taken as always) and writes */
	unsigned depth_func;
	bool depth_write;
	/* stencil, the same for both faces */
	bool stencil;
	uint8_t stencil_ref, stencil_read_mask, stencil_write_mask;
	unsigned stencil_compare, stencil_fail, depth_fail, depth_pass; /* zs_func, stencil_op */
	float line_width; /* pixels, 1/16 to 16; 0: 1 */
	unsigned
	    varying_words; /* varying counts 32 (smooth), when point_size says it is after them */
	bool point_size;   /* the vertex outputs a point size after its varyings */
	/* depth bias from the render's entry bias_index; occlusion counting into query */
	bool depth_bias;
	unsigned bias_index;
	unsigned visibility; /* cmdbuf.hw visibility_mode */
	unsigned query;
};

/* Writes the PPP words (header, then what it says) at out; returns their length. */
size_t sim_cmd_ppp(uint8_t *out, const struct sim_cmd_ppp *p);

/*
 * Coefficient bindings: a header and count bindings, each (components,
 * shade model, base slot, base register) as in cmdbuf.hw `cf_binding`.
 */
struct sim_cmd_cf {
	unsigned components, shade_model, source, slot, reg;
};
size_t sim_cmd_cf_bindings(uint8_t *out, const struct sim_cmd_cf *b, unsigned count, unsigned slots,
			   unsigned registers);

#endif
