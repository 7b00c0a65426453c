/*
 * vdm.h: agx-sim's vertex data master.  It reads a render's VDM control
 * stream (libagx/hw/cmdbuf.hw) through the UAT in the work's context:
 * VDM state (the vertex shader's pipeline, its outputs, the restart
 * index), PPP state blocks (how primitives are set up and shaded:
 * viewport, culling, scissor, the fragment shader and its coefficient
 * bindings), links and calls, and turns each index list into a draw for
 * the vertex stage (render.c).  It runs on the firmware thread.
 */
#ifndef SIM_VDM_H
#define SIM_VDM_H

#include <stdbool.h>
#include <stdint.h>

#include "agx_cmdbuf.h"
#include "pipeline.h"

#define SIM_VDM_MAX_CF		   64	/* coefficient bindings of a fragment shader */
#define SIM_VDM_MAX_CLIP_DISTANCES 8	/* planes simulated, of ppp_output_select's 16 bits */
#define SIM_VDM_MAX_STATES	   4096 /* fragment states in one render */

/* One face's depth and stencil state (PPP face, face 2 and stencil words). */
struct sim_zs_face {
	unsigned depth_func, depth_func_2; /* cmdbuf.hw zs_func: both must pass */
	bool depth_write, depth_write_2;   /* depth is written if either says so */
	uint8_t reference;
	struct agx_cmd_ppp_fragment_stencil stencil;
};

/* What a draw's primitives carry to the fragment stage: the PPP state at the draw. */
struct sim_draw_state {
	bool has_fs;
	struct sim_pipeline fs;
	struct agx_cmd_cf_binding cf[SIM_VDM_MAX_CF];
	unsigned num_cf, num_cf_regs;
	float translate[3], scale[3]; /* the viewport: window = translate + scale * NDC */
	bool cull_front, cull_back, front_ccw, discard, depth_clip;
	unsigned provoking;	     /* the vertex of a primitive whose flat values count: 0..2 */
	unsigned slots;		     /* 32-bit output words of a vertex (PPP output size) */
	bool frag_z;		     /* coefficient slot 1 is the fragment's z */
	bool scissor, scissor_entry; /* enabled; the entry named exists */
	uint32_t scissor_min[2], scissor_max[2]; /* pixels, max exclusive */
	bool stencil_test, two_sided;
	struct sim_zs_face face[2]; /* front, back */
	float line_width;	    /* pixels (the front face word's) */
	unsigned point_size_slot;   /* the output word of a point's size; 0: none (1 pixel) */
	unsigned varying_words;	    /* varying counts 32: smooth + flat + linear */
	/*
	 * The clip-distance planes enabled (bit i: plane i); the distances
	 * are the vertex's words after the point size, plane i the i-th.
	 */
	unsigned clip_distances;
	bool point_origin_lower;     /* point coordinates' t grows upwards (object type UV=10) */
	bool depth_bias, bias_entry; /* enabled; the entry named exists */
	float bias[3];		     /* depth bias entry: constant, slope scale, clamp */
	unsigned visibility;	     /* cmdbuf.hw visibility_mode: none, counting, boolean */
	unsigned query;		     /* its counter in the render's visibility results */
};

struct sim_vdm_draw {
	enum agx_cmd_primitive primitive;
	unsigned index_size; /* bytes: 1, 2, 4; 0 for a non-indexed draw */
	uint64_t index_buffer, index_buffer_size;
	uint32_t count, instances;
	uint32_t start; /* first vertex, or base vertex of an indexed draw */
	bool restart;
	uint32_t restart_index;
	const struct sim_pipeline *vs;
	unsigned vs_slots; /* output words the vertex shader writes */
	unsigned state;	   /* into the render's states */
};

/* The render's bounds the VDM checks state against. */
struct sim_vdm_limits {
	uint64_t scissor_array, depth_bias_array;
	unsigned scissor_count, depth_bias_count, visibility_count;
	unsigned width, height;
};

struct sim_vdm {
	struct sim_stream s;
	struct sim_vdm_limits limits;
	uint64_t return_to; /* a call's way back; 0: none */
	/* VDM state */
	struct sim_pipeline vs;
	bool have_vs;
	unsigned vs_slots;
	uint32_t restart_index;
	/* PPP state as set so far, and the fragment states made of it */
	struct sim_draw_state ppp;
	struct agx_cmd_ppp_fragment_shader_word_0 fs0;
	struct agx_cmd_ppp_fragment_shader_word_1 fs1;
	struct agx_cmd_ppp_fragment_shader_word_2 fs2;
	bool ppp_dirty;
	struct sim_draw_state *states;
	unsigned num_states;
};

enum sim_vdm_status {
	SIM_VDM_DRAW,	   /* *draw is ready for the vertex stage */
	SIM_VDM_END,	   /* the stream terminated */
	SIM_VDM_FAULT,	   /* reading the stream or its state faulted */
	SIM_VDM_MALFORMED, /* a word the VDM does not accept; why says which */
};

void sim_vdm_init(struct sim_vdm *vdm, struct sim_device *dev, unsigned context, uint64_t encoder,
		  uint64_t encoder_end, uint64_t usc_base, const struct sim_vdm_limits *limits);
void sim_vdm_finish(struct sim_vdm *vdm);

/* Reads up to the next draw (programs: the context's decoded shaders). */
enum sim_vdm_status sim_vdm_next(struct sim_vdm *vdm, struct usc_cache *programs,
				 struct sim_vdm_draw *draw, struct sim_uat_fault *fault, char *why,
				 size_t why_size);

#endif
