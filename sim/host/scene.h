/*
 * scene.h: a textbook render for tests and benchmarks, built from real
 * words and real G13 code: a vertex shader that fetches 8 floats a vertex
 * (clip x, y, z, w, then r, g, b, a), a fragment shader that interpolates
 * the colour perspective-correct (or flat) into the tilebuffer, a clear to
 * one colour, and a block store through a PBE into a linear RGBA8 image.
 * Everything goes into two arenas of the caller's memory, mapped in the
 * GPU context: code (usc_base) and data.
 */
#ifndef SIM_HOST_SCENE_H
#define SIM_HOST_SCENE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "agx_fwabi.h"

/* Memory the caller mapped: host and GPU views, filled upwards. */
struct sim_arena {
	uint8_t *host;
	uint64_t va;
	uint32_t size, used;
};

/* size bytes copied in at align; returns the GPU address, 0 when full. */
uint64_t sim_arena_put(struct sim_arena *a, const void *bytes, size_t size, unsigned align);

#define SIM_SCENE_CLEAR 0xffbf8040u /* the clear colour, RGBA8: 0.25, 0.5, 0.75, 1 */

struct sim_scene {
	struct sim_arena code, data; /* code.va is usc_base */
	/* pipelines (offsets from usc_base) and the vertex shader's code */
	uint32_t clear, colour, flat, store_code, vs_code, vs_sized_code, reload_code;
};

struct sim_scene_draw {
	const float (*vertices)[8];
	unsigned num_vertices;
	uint64_t vertex_buffer;	 /* 0, or the vertices already in GPU memory (the GPU wrote them) */
	unsigned primitive;	 /* cmdbuf.hw `primitive` */
	const uint16_t *indices; /* NULL: not indexed */
	unsigned count, instances;
	bool restart; /* 0xffff restarts */
	bool flat;    /* flat colours, from each triangle's last vertex */
	bool cull_back, front_ccw;
	uint32_t fs; /* a fragment pipeline of sim_scene_pipeline() instead of the colour's */
	/* depth and stencil (cmdbuf.hw zs_func and stencil_op; depth_func 0: always) */
	unsigned depth_func;
	bool depth_write, stencil;
	uint8_t stencil_ref;
	unsigned stencil_compare, stencil_fail, depth_fail, depth_pass;
	float line_width; /* pixels; 0: 1 */
	float point_size; /* written by the vertex shader after the colour; 0: not written */
	bool point_coord; /* cf5 and cf6: the point coordinates s and t */
	/* depth bias: the render's entry bias_index; occlusion counting into query */
	bool depth_bias;
	unsigned bias_index;
	unsigned visibility, query;
};

/* The image a render writes: linear RGBA8, rows stride bytes apart (a multiple of 16). */
struct sim_scene_target {
	uint64_t va;
	unsigned width, height, stride;
	unsigned tile_w, tile_h;
	uint64_t tvb;
	uint32_t tvb_size;
	/* depth (z32f, or z16) and stencil buffers, twiddled; loaded, stored, or cleared */
	uint64_t depth, stencil;
	bool z16, z_load, z_store, s_load, s_store;
	float depth_clear;
	uint8_t stencil_clear;
	/* depth bias entries (cmdbuf.hw depth_bias) and occlusion counters */
	uint64_t depth_bias;
	unsigned depth_bias_count;
	uint64_t visibility;
	unsigned visibility_count;
	/* partial renders: the store pipeline, and a reload that reads the image back */
	bool partial;
};

/* Assembles the programs; false (why in err) when they do not fit. */
bool sim_scene_init(struct sim_scene *s, struct sim_arena code, struct sim_arena data, char *err,
		    size_t err_size);

/*
 * A pipeline running the program in text (applegpu syntax) with the
 * uniform halves [0, halves) from uniforms; ~0u when it does not assemble
 * (why in err) or fit.
 */
uint32_t sim_scene_pipeline(struct sim_scene *s, const char *text, uint64_t uniforms,
			    unsigned halves, char *err, size_t err_size);

/*
 * A render item's body drawing the draws, in order, onto a cleared target
 * (viewport: the whole target, y up); false when the arenas are full.
 */
bool sim_scene_render(struct sim_scene *s, const struct sim_scene_target *t,
		      const struct sim_scene_draw *draws, unsigned num_draws,
		      struct agx_fw_work_render *r);

#endif
