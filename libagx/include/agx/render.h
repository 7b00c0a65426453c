/*
 * render.h: a render pass, built for the GPU -- its colour, depth and
 * stencil targets with what happens to each when a tile starts (cleared,
 * reloaded, or left undefined) and ends (stored or discarded), the
 * tilebuffer layout that holds them on chip, the driver's tile programs
 * (load, store and the partial-render pair) generated from that layout,
 * and the draws: a VDM stream of vertex pipelines, PPP state, coefficient
 * bindings and index lists.  docs/render.md is the contract.
 *
 * Like agx/cmdbuf.h, a pass is built into one piece of memory the caller
 * owns, mapped in the process and in the GPU VM within 4 GiB above
 * usc_base: the stream grows from its start, programs, pipelines,
 * uniforms and state from its end.  A builder is used by one thread at a
 * time; every call after a failure returns that failure.
 */
#ifndef AGX_RENDER_H
#define AGX_RENDER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "agx/cmd.h"
#include "agx/compiler.h"
#include "agx/sched.h"
#include "agx_isa_table.h"

#define AGX_RENDER_MAX_TARGETS 8

/* What a target holds when a tile starts, and what becomes of it at its end. */
enum agx_load_op {
	AGX_LOAD_DONT_CARE, /* undefined: whatever the tilebuffer had */
	AGX_LOAD_CLEAR,
	AGX_LOAD_RELOAD, /* the image's contents */
};

enum agx_store_op {
	AGX_STORE_STORE,
	AGX_STORE_DISCARD,
};

union agx_clear_colour {
	float f[4];    /* float, unorm and snorm formats */
	uint32_t u[4]; /* uint */
	int32_t i[4];  /* sint */
};

/*
 * One level of one layer of an image (agx/cmd.h): a cube face is layer
 * 6 * cube + face, a 3D slice its z.
 */
struct agx_render_surface {
	struct agx_image image; /* image.format AGX_FORMAT_NONE: no target */
	unsigned level, layer;
};

struct agx_render_target {
	struct agx_render_surface surface;
	enum agx_load_op load;
	enum agx_store_op store;
	union agx_clear_colour clear;
};

/*
 * Depth (AGX_FORMAT_Z16_UNORM or Z32_FLOAT) or stencil (S8_UINT): the
 * ZLS loads and stores them, so the surface must be level 0 of a
 * twiddled image the size of the pass (docs/render.md says why).
 */
struct agx_render_zs {
	struct agx_render_surface surface;
	enum agx_load_op load;
	enum agx_store_op store;
	float depth_clear;
	uint8_t stencil_clear;
};

/*
 * Tile programs kept across passes: a pass whose targets need programs
 * built before takes them from here instead of assembling them again
 * into its own memory.  The code lives in memory the caller owns
 * (executable, within 4 GiB above usc_base, mapped as long as any pass
 * that used it may run); it is only ever appended to, so a program a
 * submitted pass runs is never overwritten.  When the memory or the
 * table is full, passes assemble their programs into their own memory
 * as without a cache.  Used by one thread at a time, as a builder is.
 */
#define AGX_TILE_PROGRAMS_MAX 128

struct agx_tile_programs {
	uint8_t *map;
	uint64_t va;
	size_t size, used;
	unsigned count;
	struct {
		char *text; /* the program's assembly: the key */
		uint64_t va;
	} entry[AGX_TILE_PROGRAMS_MAX];
	unsigned hits, misses; /* lookups that found a program, and that built one */
};

/* An empty cache over size bytes at map and va (64-byte aligned); false for bad memory. */
bool agx_tile_programs_init(struct agx_tile_programs *c, void *map, uint64_t va, size_t size);
void agx_tile_programs_finish(struct agx_tile_programs *c);

struct agx_render_pass {
	unsigned width, height; /* pixels, 1..16384: the targets' common size */
	/*
	 * 1 (or 0), 2 or 4: the samples of a pixel, which every target has
	 * (agx_image.samples); the rasterizer takes them at the standard
	 * positions (docs/firmware-abi.md, "Render").
	 */
	unsigned samples;
	struct agx_tile_programs *programs; /* NULL: none kept */
	struct agx_render_target colour[AGX_RENDER_MAX_TARGETS];
	unsigned num_colour; /* targets [0, num_colour); a slot may be empty */
	struct agx_render_zs depth, stencil;
	/* the TVB heap (agx_device_queue_tvb()) */
	uint64_t tvb;
	uint32_t tvb_size;
	/* occlusion counters, 8 bytes each, that draws' state names (0: none) */
	uint64_t visibility;
	unsigned visibility_count;
};

/*
 * The tilebuffer: where each colour target lives in a pixel's sample on
 * chip (the fragment shader's agx_compile_options.rt[] come from here),
 * and the tile size the sample's bytes allow.
 */
struct agx_tilebuffer {
	unsigned sample_size; /* bytes a sample, a multiple of 4, at most 64 */
	unsigned samples;     /* a pixel's: 1, 2 or 4 */
	unsigned tile_width, tile_height;
	struct {
		bool present;
		enum agx_isa_memformat format; /* how st_tile / ld_tile / imgwblk keep it */
		unsigned offset;	       /* bytes into the sample */
		unsigned components;	       /* items the tile holds (the image's channels) */
		enum agx_rt_type type;	       /* what blending makes of it */
		/*
		 * Past the sample's 64 bytes: kept in memory, which fragment
		 * shaders write and read at the pixel (offset unused).
		 */
		bool spilled;
	} rt[AGX_RENDER_MAX_TARGETS];
};

/*
 * Lays out the targets of these formats (AGX_FORMAT_NONE: an empty slot),
 * in order, each one that does not fit what is left of the 64 bytes a
 * sample spilled, for pixels of samples samples (0 or 1, 2, 4): 0,
 * -EINVAL for a format the PBE cannot write, -ENOSPC when multisampled
 * targets do not fit the tile (they cannot spill).
 */
int agx_tilebuffer_layout(const enum agx_format *formats, unsigned count, unsigned samples,
			  struct agx_tilebuffer *out);

struct agx_compile_options;

/* The fragment shader's render targets (agx_compile_options.rt, num_rts) for the layout. */
void agx_tilebuffer_compile_options(const struct agx_tilebuffer *tib,
				    struct agx_compile_options *options);

/* The tilebuffer format a colour format takes (AGX_ISA_MEMFORMAT_*); false if none. */
bool agx_tilebuffer_format(enum agx_format format, enum agx_isa_memformat *memformat,
			   unsigned *item_bytes);

struct agx_shader_info;

/*
 * The coefficient bindings that feed a fragment shader's inputs from a
 * vertex shader's outputs (their reflections, agx/compiler.h), matched by
 * location, or by matched[i]: the index in vs->vars of the output that
 * fs->vars[i] reads, -1 for an input no output feeds (left undefined, as
 * a GLSL ES 1.00 varying the vertex shader does not write is): cf0 the 1/w plane, window z when the
 * fragment shader reads gl_FragCoord.z, each input as its interpolation says (flat ones from vertex
 * flat_vertex, 0..2: the draw's provoking vertex), then gl_PointCoord.  out has room for
 * AGX_RENDER_MAX_CF bindings; *registers is the coefficient registers they fill.  -EINVAL when an
 * input has no output of its location or their sizes differ (a link error GL reports).
 */
#define AGX_RENDER_MAX_CF 64
int agx_render_link_varyings(const struct agx_shader_info *vs, const struct agx_shader_info *fs,
			     unsigned flat_vertex, const int *matched, struct agx_cf_binding *out,
			     unsigned *count, unsigned *registers);

/*
 * Fills the vertex shader's uniform registers (its reflection's, from
 * u0) for the attribute array at location: its element for vertex 0 at
 * address, the next stride bytes on (0: a constant attribute), each
 * component at its own alignment; the array's type is the compile's
 * (agx_compile_options.attribs).  False when the shader has no
 * attribute there.
 */
bool agx_render_set_attrib(const struct agx_shader_info *vs, uint32_t *uniforms, unsigned location,
			   uint64_t address, uint32_t stride);

/* One programmable stage of a draw. */
struct agx_render_stage {
	uint64_t code_va; /* within 4 GiB above usc_base */
	unsigned num_registers;
	const uint32_t *uniforms; /* copied into the pass's memory */
	unsigned num_uniforms;
	uint64_t textures; /* texture descriptors, AGX_TEXTURE_LENGTH apart */
	unsigned num_textures;
	uint64_t samplers; /* sampler words, AGX_SAMPLER_LENGTH apart */
	unsigned num_samplers;
};

struct agx_render_draw {
	struct agx_render_stage vs;
	struct agx_render_stage fs; /* fs.code_va 0: no fragment shader (depth and stencil only) */
	unsigned vs_outputs;	    /* 32-bit words a vertex writes */
	/* the fragment shader's coefficient bindings (agx/cmd.h) */
	const struct agx_cf_binding *cf;
	unsigned num_cf, cf_registers;
	/*
	 * The draw's fixed-function state; the builder fills fs_pipeline, cf,
	 * cf_count, fs_textures, outputs, scissor_index and bias_index.
	 */
	struct agx_ppp_state state;
	/*
	 * Nonzero: the caller's name for state, scissor and the depth bias
	 * as they are -- a draw with the same key as the render's last draw
	 * promises they are that draw's, and the builder compares only the
	 * PPP fields it fills itself.  0: compared word group by word group.
	 */
	uint64_t state_key;
	/* with state.scissor: the rectangle, min inclusive, max exclusive */
	unsigned scissor[4]; /* min x, min y, max x, max y */
	/* with state.depth_bias: GL's polygon offset */
	float depth_bias, slope_scale, bias_clamp;
	struct agx_vdm_draw draw;
	uint32_t restart_index; /* with draw.restart */
};

/*
 * Draws a pass holds: each is a fragment state of the render, and the
 * simulated device takes 4096 of them in one render (sim/vdm.h).
 */
#define AGX_RENDER_MAX_DRAWS 4096

/* Scissor and depth-bias entries a pass holds (one per distinct rectangle or bias). */
#define AGX_RENDER_MAX_SCISSORS	  256
#define AGX_RENDER_MAX_DEPTH_BIAS 256

struct agx_render {
	uint8_t *map;
	uint64_t va, usc_base;
	size_t size, head, tail;
	int error;
	struct agx_render_pass pass;
	struct agx_tilebuffer tib;
	uint64_t scissors, biases; /* the arrays */
	unsigned num_scissors, num_biases;
	unsigned draws;
	struct agx_sched_render out;
	/*
	 * The state the last draw's words left (the VDM and the PPP keep
	 * theirs from draw to draw within a render): a draw sends only the
	 * words that differ, and takes the pipelines and coefficient bindings
	 * the last draw placed when its own are the same.
	 */
	struct agx_render_last {
		bool valid;
		struct agx_ppp_state ppp;
		uint64_t state_key;		/* the draw's agx_render_draw.state_key */
		struct agx_render_stage vs, fs; /* uniforms: unused (compared at vs_uniforms) */
		uint64_t vs_uniforms, fs_uniforms;
		uint32_t vs_pipeline, fs_pipeline; /* from usc_base */
		size_t vs_size, fs_size;	   /* the pipelines' bytes */
		unsigned vs_outputs;
		/* the coefficient bindings at cf (0: none to take), and what they were made of */
		uint64_t cf;
		struct agx_cf_binding cf_bindings[AGX_RENDER_MAX_CF];
		unsigned num_cf, cf_slots, cf_registers;
		/* the index list's words at draw_words into the memory, draw_size bytes */
		struct agx_vdm_draw draw;
		size_t draw_words, draw_size;
	} last;
};

/*
 * Starts a pass over size bytes at map (CPU) and va (GPU), both 64-byte
 * aligned, within 4 GiB above usc_base: lays out the tilebuffer and
 * writes the tile programs.  -EINVAL for targets the hardware cannot
 * have (formats, surfaces, sizes), -ENOSPC when the memory is too small
 * or the targets do not fit the tilebuffer.
 */
int agx_render_begin(struct agx_render *r, void *map, uint64_t va, size_t size, uint64_t usc_base,
		     const struct agx_render_pass *pass);

/*
 * Appends a draw.  -ENOSPC when the memory, the pass's draws
 * (AGX_RENDER_MAX_DRAWS) or its scissor or bias arrays are full: the draw is not in the pass, which
 * stays usable (end it and go on in another that reloads the targets); -EINVAL for a draw the
 * hardware cannot do.
 */
int agx_render_draw(struct agx_render *r, const struct agx_render_draw *d);

/*
 * The texture and sampler state a fragment shader needs for spilled
 * colour target `target` (agx_shader_info.spill_textures: the k-th
 * spilled target, in location order, at that register + k): the pass's
 * view of the target's level and layer, and a sampler for reading it back.
 * False when the target is not spilled.
 */
bool agx_render_spill_state(const struct agx_render *r, unsigned target,
			    uint8_t texture[AGX_TEXTURE_LENGTH],
			    uint8_t sampler[AGX_SAMPLER_LENGTH]);

/*
 * The pass's end stores nothing of these targets (their store op becomes
 * AGX_STORE_DISCARD; glInvalidateFramebuffer): colour targets by bit,
 * depth, stencil.  A partial render still stores them all (the next part
 * reloads them).  -ENOSPC when the pass has no room for its new store
 * program: the pass is as it was, and stores them.
 */
int agx_render_discard(struct agx_render *r, unsigned colour, bool depth, bool stencil);

/* Ends the stream and fills the render command for agx_device_submit(). */
int agx_render_end(struct agx_render *r, struct agx_sched_render *out);

#endif
