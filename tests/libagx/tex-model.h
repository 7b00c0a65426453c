/*
 * tex-model.h: the texture tests' model of a GLES 3.0 texture and sampler
 * (docs/compiler.md, "Texture execution tests").  A texture is laid out
 * in a host buffer the way agx/layout.h says and described by a packed
 * texture descriptor (libagx/hw/cmdbuf.hw `texture`); a sampler is packed
 * as the sampler descriptor.  Beside them, a reference of GLES 3.0
 * section 3.8's texel fetches and filtering, written from the spec and
 * sharing nothing with the simulator's texture unit (sim/usc/texture.c):
 * what a lookup may return, as an interval per component and a
 * tolerance, or "ambiguous" when the rules leave the choice between two
 * texels, two levels or two faces open for those inputs.
 */
#ifndef TESTS_LIBAGX_TEX_MODEL_H
#define TESTS_LIBAGX_TEX_MODEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "agx/layout.h"

/* GLES 3.0 sized internal formats the simulated unit reads (table 3.13's names). */
enum tex_format {
	TEX_R8,
	TEX_RG8,
	TEX_RGBA8,
	TEX_R16F,
	TEX_RGBA16F,
	TEX_R32F,
	TEX_RG32F,
	TEX_RGBA32F,
	TEX_RGBA8UI,
	TEX_RGBA8I,
	TEX_RGBA16UI,
	TEX_RGBA16I,
	TEX_R32UI,
	TEX_R32I,
	TEX_RG32I,
	TEX_DEPTH16,  /* DEPTH_COMPONENT16 */
	TEX_DEPTH32F, /* DEPTH_COMPONENT32F */
	TEX_NUM_FORMATS,
};

enum tex_target {
	TEX_2D,
	TEX_3D,
	TEX_CUBE,
	TEX_2D_ARRAY,
};

enum tex_filter {
	TEX_NEAREST,
	TEX_LINEAR,
};

/* The mipmap half of GL's minification filter: none (NEAREST, LINEAR), or *_MIPMAP_*. */
enum tex_mip {
	TEX_MIP_NONE,
	TEX_MIP_NEAREST,
	TEX_MIP_LINEAR,
};

enum tex_wrap {
	TEX_REPEAT,
	TEX_CLAMP_TO_EDGE,
	TEX_MIRRORED_REPEAT,
};

/* TEXTURE_COMPARE_FUNC (GLES 3.0 table 3.22). */
enum tex_compare {
	TEX_LEQUAL,
	TEX_GEQUAL,
	TEX_LESS,
	TEX_GREATER,
	TEX_EQUAL,
	TEX_NOTEQUAL,
	TEX_ALWAYS,
	TEX_NEVER,
};

struct tex_desc {
	enum tex_format format;
	enum tex_target target;
	unsigned width, height;
	unsigned depth;	 /* 3D: slices; 2D array: layers; otherwise 1 (0 counts as 1) */
	unsigned levels; /* 0 counts as 1; at most the full chain */
	bool linear;	 /* a linear layout (2D, one level); otherwise twiddled */
};

struct tex_texture {
	struct tex_desc desc;
	uint64_t address; /* of data in device memory (the descriptor names it) */
	struct agx_layout layout;
	uint8_t *data; /* the texels as the texture unit reads them */
	size_t size;
	uint8_t descriptor[24];
	/* what GL reads from each texel (after conversion: floats or integers), by
	 * level from level_start[level]: (layer * h + y) * w + x, four each */
	double *values;
	size_t level_start[AGX_LAYOUT_MAX_LEVELS];
};

struct tex_sampler {
	enum tex_filter mag, min;
	enum tex_mip mip;
	enum tex_wrap wrap_s, wrap_t, wrap_r;
	double min_lod, max_lod; /* multiples of 1/64 in [0, 15]; max 0 counts as 15 */
	bool compare;		 /* TEXTURE_COMPARE_MODE COMPARE_REF_TO_TEXTURE */
	enum tex_compare func;
};

/*
 * Lays a texture out at address (16-byte aligned) with deterministic
 * contents from seed, and packs its descriptor.  0, -EINVAL for a
 * description the layout or the descriptor cannot hold, -ENOMEM.
 * tex_texture_finish frees it whatever the result.
 */
int tex_texture_init(struct tex_texture *t, const struct tex_desc *desc, uint64_t address,
		     uint64_t seed);
void tex_texture_finish(struct tex_texture *t);

/* The sampler descriptor and its 16-byte custom border (zeros): 24 bytes. */
bool tex_sampler_pack(const struct tex_sampler *s, uint8_t out[24]);

/* A format's description, for messages and for the kernels' choices. */
const char *tex_format_name(enum tex_format f);
bool tex_format_integer(enum tex_format f); /* uint or sint: integer results */
bool tex_format_unsigned(enum tex_format f);
bool tex_format_depth(enum tex_format f);
/* Whether LINEAR filters are allowed without comparison (GLES 3.0 table 3.13's "filterable"). */
bool tex_format_filterable(enum tex_format f);

/* Level l's size: width, height, and depth (3D slices minified, array layers not, else 1). */
void tex_level_size(const struct tex_texture *t, unsigned level, unsigned size[3]);

/* The value GL reads at texel (x, y) of a layer (a 3D slice, a cube face) of a level. */
const double *tex_texel(const struct tex_texture *t, unsigned level, unsigned layer, unsigned x,
			unsigned y);

/* ---- lookups ---------------------------------------------------------------------- */

enum tex_kind {
	TEX_SAMPLE, /* texture, textureLod, textureGrad, ...: filtered */
	TEX_FETCH,  /* texelFetch */
	TEX_SIZE,   /* textureSize */
};

/*
 * One lookup as the texture unit sees it, GLSL's own arithmetic done
 * (projection divided out, layer not yet rounded).
 */
struct tex_query {
	enum tex_kind kind;
	double coord[3]; /* s, t, r (3D); a cube's direction */
	double layer;	 /* 2D arrays: the third coordinate as the shader gives it */
	bool grad;	 /* explicit gradients; otherwise the LOD */
	double lod;
	double dpdx[3], dpdy[3]; /* of s, t (and r, or a cube's direction) */
	int offset[3];		 /* texel offsets (-8..7) */
	bool compare;
	double reference;
	int icoord[3]; /* texelFetch: x, y, and the slice or layer */
	int level;     /* texelFetch, textureSize */
};

enum tex_status {
	TEX_OK,
	TEX_AMBIGUOUS, /* the rules leave a choice open for these inputs: choose others */
	TEX_UNDEFINED, /* GLES leaves the result undefined (outside a texelFetch, an
			  incomplete texture): a kernel's mistake */
};

/*
 * What a lookup may give, per component: any value in [lo - tol, hi +
 * tol] (integers: exactly lo, as int32 or uint32 bits in ivalue).  point
 * is the result of the ideal rho and exact weights, which lies inside;
 * the IR interpreter returns it.  sizes: textureSize's.
 */
struct tex_answer {
	bool integer;
	double lo[4], hi[4], tol[4], point[4];
	uint32_t ivalue[4];
	bool mixed; /* a filtered comparison whose taps disagree: [0, 1] */
};

/*
 * Answers q on texture t with sampler s (s may be NULL for TEX_FETCH and
 * TEX_SIZE); `why` says what makes it ambiguous or undefined.
 */
enum tex_status tex_model_query(const struct tex_texture *t, const struct tex_sampler *s,
				const struct tex_query *q, struct tex_answer *a, char *why,
				size_t whysize);

/* The tolerances (docs/compiler.md, "Texture execution tests", says where each comes from). */
#define TEX_WEIGHT_ERROR 0x1p-8 /* a filter weight's error, per axis and for the mip blend */
#define TEX_LOD_ERROR	 0x1p-6 /* lambda's */
#define TEX_VALUE_ERROR	 1e-5	/* relative error of a filtered value's arithmetic */
#define TEX_TEXEL_MARGIN 0.04	/* texels: a nearest sample closer to a texel edge is ambiguous */
#define TEX_FACE_MARGIN	 1e-3	/* relative: a cube direction this near a tie of two axes */
#define TEX_DEPTH_MARGIN 4e-5	/* a reference this near a texel's depth */

#endif
