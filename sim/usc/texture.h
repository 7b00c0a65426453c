/*
 * texture.h: agx-sim's texture unit, for the USC's texture instructions:
 * reads a texel of a texture described by a descriptor (libagx/hw/cmdbuf.hw
 * `texture`), through the USC's memory callbacks, and converts it by the
 * descriptor's format and swizzle.
 */
#ifndef USC_TEXTURE_H
#define USC_TEXTURE_H

#include <stdbool.h>
#include <stdint.h>

#include "layout.h"
#include "agx_cmdbuf.h"
#include "usc.h"

#define USC_TEXTURE_STATE 24 /* bytes of a texture descriptor */
#define USC_SAMPLER_STATE 24 /* a sampler (8 bytes) and its custom border (16) */

enum usc_texel_status {
	USC_TEXEL_OK,
	USC_TEXEL_BORDER, /* outside the texture: the sampler's border */
	USC_TEXEL_FAULT,  /* the memory read failed, at *fault */
	USC_TEXEL_BAD,	  /* a descriptor or access the unit does not take; why says it */
};

struct usc_texture_channels {
	uint8_t bytes; /* of a texel, or of a block of block-compressed formats */
	uint8_t count;
	uint8_t bits[4]; /* from the lowest bit up; none for block formats */
	/* texels a block is wide and high: 4x4 (ETC2, EAC), 4x4..12x12 (ASTC); 1x1: texels */
	uint8_t block_w, block_h;
};

/* A texture as the unit sees it: the descriptor decoded, its layout laid out. */
struct usc_texture_view {
	struct agx_cmd_texture t;
	struct usc_texture_channels ch;
	struct usc_layout l;
	unsigned layers; /* array layers, 3D slices (level 0's) or cube faces */
	unsigned depth;	 /* the descriptor's depth: layers, slices or cubes */
	bool integer;	 /* uint or sint: values are integers, not float bits */
	/*
	 * A multisampled PBE image's samples (2 or 4), else 1; its layout
	 * (l) is then the sample grid's (usc_sample_grid()).
	 */
	unsigned samples;
};

/*
 * Decodes a descriptor for an instruction of texture dimension dim; the
 * view then serves every access to that texture.
 */
enum usc_texel_status usc_texture_view_init(struct usc_texture_view *v, const uint8_t *texture,
					    unsigned dim, char *why, unsigned why_size);

/*
 * The image a PBE descriptor (cmdbuf.hw `pbe`) writes, as a view for
 * usc_texel_store at *level; dim is the block store's dimension.
 */
enum usc_texel_status usc_pbe_view_init(struct usc_texture_view *v, const uint8_t *pbe,
					unsigned dim, unsigned *level, char *why,
					unsigned why_size);

/*
 * The texel at integer (x, y), array layer and mip level (counted from the
 * view's first level): four 32-bit values, floats as bits for unorm, snorm
 * and float formats, integers for uint and sint (v->integer).
 */
enum usc_texel_status usc_texel_fetch(const struct usc_texture_view *v,
				      const struct usc_memory *mem, int32_t x, int32_t y,
				      uint32_t layer, int32_t level, uint32_t out[4],
				      uint64_t *fault, char *why, unsigned why_size);

/* What one lane's texture_sample asks. */
struct usc_sample {
	float s[3];	   /* coordinates by dimension: u, v, r (3D), a direction (cube) */
	uint32_t layer;	   /* arrays: the layer; cube arrays: the cube */
	const float *grad; /* d/dx, d/dy of each coordinate in turn; NULL: lod alone */
	double lod;	   /* the LOD, or with grad the bias added to GL's */
	int offset[3];	   /* texel offsets (-8..7) */
	bool compare;	   /* compare component 0 with reference, by the sampler's function */
	float reference;
};

/*
 * texture_sample for one lane: normalized coordinates (or texel ones if the
 * sampler says so); the LOD from grad (GL's scale factor) plus a bias, or
 * given; the sampler's LOD clamp, wrap modes and filters, mip levels; cube
 * faces chosen as GL chooses them, filtered seamlessly unless the sampler
 * is seamful; with compare, each texel 1 or 0 before filtering (in all four
 * components).  Floats out (integers for integer formats, not filtered).
 */
enum usc_texel_status usc_texture_sample(const struct usc_texture_view *v,
					 const struct usc_memory *mem, const uint8_t *sampler,
					 const struct usc_sample *a, uint32_t out[4],
					 uint64_t *fault, char *why, unsigned why_size);

/*
 * image_write for one lane: four components (float bits, or integers for
 * uint and sint formats; halves of them from 16-bit registers) encoded by
 * the texture's format into the texel at integer (x, y), layer and level;
 * outside the texture nothing is written (USC_TEXEL_BORDER).
 */
enum usc_texel_status usc_texel_store(const struct usc_texture_view *v,
				      const struct usc_memory *mem, int32_t x, int32_t y,
				      uint32_t layer, int32_t level, const uint32_t in[4],
				      bool halves, uint64_t *fault, char *why, unsigned why_size);

/* image_write's encoding alone: the texel's bytes (v->ch.bytes of them) for four components. */
enum usc_texel_status usc_texel_encode(const struct usc_texture_view *v, const uint32_t in[4],
				       bool halves, uint8_t texel[16], char *why,
				       unsigned why_size);

/*
 * Writes count encoded texels, a row from (x, y) rightwards, as far as it
 * is inside the texture (USC_TEXEL_BORDER if it starts outside).
 */
enum usc_texel_status usc_texel_write(const struct usc_texture_view *v,
				      const struct usc_memory *mem, int32_t x, int32_t y,
				      uint32_t layer, int32_t level, unsigned count,
				      const uint8_t *texels, uint64_t *fault);

/* The border of a sampler state (sampler, then custom border words): four values as above. */
void usc_sampler_border(const uint8_t *sampler, bool integer, uint32_t out[4]);

#endif
