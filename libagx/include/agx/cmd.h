/*
 * cmd.h: the words of the GPU's control streams, packed from what a driver
 * means -- the CDM words of compute, the USC state words of a pipeline
 * (shared by compute and graphics), the texture, sampler and PBE
 * descriptors of an image, the VDM words of draws, a PPP state block and a
 * fragment shader's coefficient bindings.  Every word comes from the
 * generated packers of libagx/hw/cmdbuf.hw (docs/control-streams.md says
 * what each does); these functions choose the words and their order.
 *
 * Each writer puts its words at out and returns their length in bytes;
 * out has room for the longest form (the AGX_*_MAX_LENGTH constants).  A
 * value the hardware cannot take is the caller's bug, caught by the
 * packers' assertions; the descriptor functions, whose inputs come from
 * images a user made, check them and return false instead.
 */
#ifndef AGX_CMD_H
#define AGX_CMD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "agx/format.h"
#include "agx/layout.h"
/* the enums the words take: zs_func, stencil_op, primitive, shade_model, ... */
#include "agx_cmdbuf.h"

/* --- CDM: compute ------------------------------------------------------------------- */

/* A direct launch of the pipeline (an offset from usc_base) over global threads, local a group. */
size_t agx_cdm_launch(uint8_t *out, uint32_t pipeline, unsigned uniform_halves,
		      const uint32_t global[3], const uint32_t local[3]);
/* A barrier; with usc_cache_inval the GPU fetches shader code afresh. */
size_t agx_cdm_barrier(uint8_t *out, bool usc_cache_inval);
size_t agx_cdm_link(uint8_t *out, uint64_t target);
size_t agx_cdm_terminate(uint8_t *out);

/* --- USC state words: a pipeline -------------------------------------------------------- */

/* A pipeline starts on 64 bytes: the words keep bits 31..6 of its offset. */
#define AGX_PIPELINE_ALIGN 64
/* The longest: 8 uniform words, shared, texture, sampler, shader, registers, preshader. */
#define AGX_PIPELINE_MAX_LENGTH 104

struct agx_pipeline {
	uint32_t code;		/* the shader: an offset from usc_base */
	unsigned num_registers; /* 32-bit registers it uses; 0: all 128 */
	/* uniform registers u0.. loaded from memory: 16-bit halves [0, uniform_halves) */
	uint64_t uniforms;
	unsigned uniform_halves; /* 0..512 */
	uint32_t shared_size;	 /* bytes of threadgroup memory (compute), up to 64 KiB */
	/* texture descriptors into ts0.., samplers into ss0.. (8 bytes each, or 24 extended) */
	uint64_t textures;
	unsigned num_textures;
	uint64_t samplers;
	unsigned num_samplers;
	bool preshader; /* runs preshader_code once before the launch */
	uint32_t preshader_code;
};

/* The USC words at out (AGX_PIPELINE_ALIGN-aligned); returns their length. */
size_t agx_pipeline_pack(uint8_t *out, const struct agx_pipeline *p);
/*
 * The first of those words alone, the uniform words (which only they
 * depend on uniforms and uniform_halves for); returns their length.
 */
size_t agx_pipeline_pack_uniforms(uint8_t *out, const struct agx_pipeline *p);

/* --- descriptors ------------------------------------------------------------------------- */

#define AGX_TEXTURE_LENGTH 24
#define AGX_SAMPLER_LENGTH 8
#define AGX_PBE_LENGTH	   24

/*
 * An image in memory as the texture unit and the PBE see it: its format,
 * its layout (agx/layout.h, initialized), the address of level 0 of its
 * first layer, and how many layers (array layers, 3D slices, or cubes
 * for a cube map).
 */
enum agx_image_dim {
	AGX_IMAGE_2D,
	AGX_IMAGE_2D_ARRAY,
	AGX_IMAGE_3D,
	AGX_IMAGE_CUBE,
};

struct agx_image {
	enum agx_format format;
	enum agx_image_dim dim;
	const struct agx_layout *layout;
	uint64_t address;
	unsigned depth; /* layers, slices, or cubes; 1 for 2D */
	/*
	 * 2 or 4: a multisampled 2D image, whose layout is its sample grid's
	 * (agx_sample_grid()); 0 or 1: single-sampled.
	 */
	unsigned samples;
	/*
	 * Texture descriptors of an sRGB format: read the stored values as
	 * they are, not decoded to linear (EXT_texture_sRGB_decode's
	 * SKIP_DECODE_EXT): the descriptor's srgb bit clear.
	 */
	bool skip_srgb_decode;
};

/*
 * A texture descriptor of the levels [first_level, last_level] with a
 * swizzle of PIPE-style components (0..3 a component as the format reads
 * it, AGX_FORMAT_SWIZZLE_0 or _1); NULL swizzle: as the format reads.
 * false when the texture unit cannot read it (the format, a linear image
 * that is not 2D or has levels, sizes the descriptor cannot hold).
 */
bool agx_texture_descriptor(uint8_t out[AGX_TEXTURE_LENGTH], const struct agx_image *image,
			    unsigned first_level, unsigned last_level, const uint8_t *swizzle);

/*
 * The PBE descriptor that writes one level of one layer of an image (a
 * cube face is layer 6 * cube + face, a 3D slice its z) as a 2D image:
 * the layer's own address, the image's levels.  false when the PBE
 * cannot write the format or the level or layer is past the image.
 */
bool agx_pbe_descriptor(uint8_t out[AGX_PBE_LENGTH], const struct agx_image *image, unsigned level,
			unsigned layer);

/* The address of one layer of an image (as agx_pbe_descriptor() writes it). */
uint64_t agx_image_layer_address(const struct agx_image *image, unsigned layer);

enum agx_filter { AGX_FILTER_NEAREST, AGX_FILTER_LINEAR };
enum agx_mip_filter { AGX_MIP_NONE, AGX_MIP_NEAREST, AGX_MIP_LINEAR };
enum agx_wrap { AGX_WRAP_REPEAT, AGX_WRAP_CLAMP_TO_EDGE, AGX_WRAP_MIRRORED_REPEAT };

struct agx_sampler {
	enum agx_filter mag, min;
	enum agx_mip_filter mip;
	enum agx_wrap wrap[3]; /* s, t, r */
	float min_lod, max_lod;
	bool compare;
	unsigned compare_func; /* cmdbuf.hw compare_func */
	bool seamful_cube_maps;
};

/* A sampler word: LODs clamped to the hardware's 0..15.98 (4.6 fixed point). */
void agx_sampler_descriptor(uint8_t out[AGX_SAMPLER_LENGTH], const struct agx_sampler *s);

/* --- VDM: draws --------------------------------------------------------------------------- */

#define AGX_VDM_VERTEX_LENGTH	 16
#define AGX_VDM_RESTART_LENGTH	 8
#define AGX_VDM_PPP_LENGTH	 8
#define AGX_VDM_DRAW_MAX_LENGTH	 24
#define AGX_VDM_BARRIER_LENGTH	 4
#define AGX_VDM_LINK_LENGTH	 8
#define AGX_VDM_TERMINATE_LENGTH 8

/* The vertex shader's pipeline (an offset from usc_base) and the 32-bit words a vertex writes. */
size_t agx_vdm_vertex(uint8_t *out, uint32_t pipeline, unsigned outputs);
/* The primitive restart index. */
size_t agx_vdm_restart(uint8_t *out, uint32_t index);
/* A PPP state update: the block at va, size bytes (a multiple of 4). */
size_t agx_vdm_ppp(uint8_t *out, uint64_t va, size_t size);

struct agx_vdm_draw {
	unsigned primitive; /* cmdbuf.hw `primitive` */
	uint32_t count, instances;
	/* not indexed: the first vertex; indexed: the base vertex added to each index */
	uint32_t start;
	unsigned index_size; /* 0: not indexed; else 1, 2 or 4 bytes */
	uint64_t indices;
	uint32_t index_bytes; /* the index buffer's size from indices, a multiple of 4 */
	bool restart;
};
size_t agx_vdm_draw(uint8_t *out, const struct agx_vdm_draw *d);
size_t agx_vdm_barrier(uint8_t *out, bool usc_cache_inval);
size_t agx_vdm_link(uint8_t *out, uint64_t target, bool with_return);
size_t agx_vdm_terminate(uint8_t *out);

/* --- PPP state ----------------------------------------------------------------------------- */

/* The stencil state of one face (cmdbuf.hw zs_func and stencil_op values). */
struct agx_ppp_stencil {
	uint8_t ref, read_mask, write_mask;
	unsigned compare, stencil_fail, depth_fail, depth_pass;
};

/*
 * A draw's whole PPP state, as one block with every word it has.  The
 * render's arrays are indexed by scissor_index, bias_index and query.
 */
struct agx_ppp_state {
	float translate[3], scale[3]; /* the viewport: window = translate + scale * NDC */
	bool cull_front, cull_back, front_ccw, rasterizer_discard;
	unsigned provoking; /* 0..2: the vertex whose flat varyings a primitive takes */
	bool depth_clip;    /* clip to 0 <= z <= w (else clamp) */
	unsigned outputs;   /* 32-bit words a vertex writes */
	/* the fragment shader: its pipeline (0: none), its coefficient bindings at usc_base + cf */
	uint32_t fs_pipeline, cf;
	unsigned cf_count;
	unsigned fs_textures; /* texture state registers the fragment pipeline binds */
	bool scissor;
	unsigned scissor_index;
	/* depth: the test (cmdbuf.hw zs_func) and writes */
	unsigned depth_func;
	bool depth_write;
	bool stencil; /* the stencil test, with the front and back faces' state */
	struct agx_ppp_stencil front, back;
	float line_width;	/* pixels, 1/16 to 16 */
	unsigned varying_words; /* 32-bit varying words after the position */
	bool point_size;	/* the vertex writes a point size after its varyings */
	/*
	 * The clip-distance planes that clip (bit i: plane i, kept where
	 * the vertex's distance i is >= 0); the distances are the vertex's
	 * words after its point size (or its varyings), plane i the i-th.
	 */
	unsigned clip_distances;
	bool point_sprite_uv10; /* point coordinates from the lower left, as GL has them */
	bool frag_coord_z;	/* coefficient slot 1 is the window z */
	bool depth_bias;
	unsigned bias_index;
	unsigned visibility; /* cmdbuf.hw visibility_mode */
	unsigned query;
};

/* The longest block the state makes. */
#define AGX_PPP_MAX_LENGTH 128

size_t agx_ppp_pack(uint8_t *out, const struct agx_ppp_state *p);
/*
 * The words of p that differ from prev, the state the previous block
 * left (the PPP keeps each group's words until a block replaces them):
 * every word when prev is NULL, 0 bytes when nothing differs (no block
 * is needed).
 */
size_t agx_ppp_pack_changed(uint8_t *out, const struct agx_ppp_state *p,
			    const struct agx_ppp_state *prev);
/*
 * The block of a state that differs from the previous block's only in
 * the fragment shader's words: fs_pipeline (nonzero), cf, cf_count
 * (zero in both states or in neither) and fs_textures -- what
 * agx_ppp_pack_changed() gives for such a state, without comparing.
 */
size_t agx_ppp_pack_shader(uint8_t *out, uint32_t fs_pipeline, uint32_t cf, unsigned cf_count,
			   unsigned fs_textures);

/* --- coefficient bindings -------------------------------------------------------------------- */

struct agx_cf_binding {
	unsigned components;  /* 1..4 */
	unsigned shade_model; /* cmdbuf.hw shade_model */
	unsigned source;      /* cmdbuf.hw cf_source */
	unsigned slot;	      /* the first vertex output slot (varyings) */
	unsigned reg;	      /* the first coefficient register */
};

/* A header of slots output slots and registers coefficient registers, then count bindings. */
size_t agx_cf_bindings(uint8_t *out, const struct agx_cf_binding *b, unsigned count, unsigned slots,
		       unsigned registers);

#endif
