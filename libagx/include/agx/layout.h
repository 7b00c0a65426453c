/*
 * layout.h: where a texel of a texture lives in memory, for the layouts
 * the texture unit reads: linear (rows of `stride` bytes) and twiddled
 * (16 KiB tiles in row order, Morton order inside a tile, each mip level
 * after the last, 128-byte aligned).  The twiddled rules are those of
 * Mesa's src/asahi/layout (layout.c, tiling.cc); its tests' numbers are
 * ours (tests/libagx/test-layout.c).
 *
 * Block-compressed formats (ETC2, EAC: 4x4 texels a block; ASTC: 4x4 to
 * 12x12) are laid out in elements, a block each; sizes stay in texels.
 */
#ifndef AGX_LAYOUT_H
#define AGX_LAYOUT_H

#include <stdbool.h>
#include <stdint.h>

#define AGX_LAYOUT_MAX_LEVELS 16

struct agx_layout {
	bool twiddled;
	unsigned bytes_per_texel;  /* of an element: 1, 2, 4, 8 or 16 */
	unsigned block_w, block_h; /* texels an element covers: a block (<= 12x12); 0 or 1 */
	unsigned width, height;	   /* level 0, in texels */
	unsigned levels;
	uint64_t stride; /* linear: bytes from row to row */
	bool page_aligned_layers;
	/* filled by agx_layout_init */
	uint64_t level_offset[AGX_LAYOUT_MAX_LEVELS];
	uint64_t layer_stride;
	/* twiddled, by level: a row's width in elements (tiles per row follow), the tile */
	unsigned stride_el[AGX_LAYOUT_MAX_LEVELS];
	unsigned tile_w[AGX_LAYOUT_MAX_LEVELS], tile_h[AGX_LAYOUT_MAX_LEVELS];
};

/* Computes level offsets and the layer stride; false for sizes it cannot lay out. */
bool agx_layout_init(struct agx_layout *l);

/*
 * The byte offset of element (x, y) of a level and layer (a texel, or the
 * block of a block-compressed format); the caller checks the bounds.
 */
uint64_t agx_layout_texel(const struct agx_layout *l, unsigned level, unsigned layer, unsigned x,
			  unsigned y);

/*
 * A multisampled image keeps each pixel's samples side by side: its
 * layout is that of a single-sampled image of its sample grid, width * sx
 * by height * sy elements -- 2x: 1x2, 4x: 2x2 (Mesa ail_effective_width_sa,
 * _height_sa).  Which sample of the block is which is not public; ours are
 * in row order, sample s at (s % sx, s / sx) of the pixel's block.
 */
static inline void agx_sample_grid(unsigned samples, unsigned *sx, unsigned *sy)
{
	*sx = samples == 4 ? 2 : 1;
	*sy = samples >= 2 ? 2 : 1;
}

/* The size of a level's dimension: max(size >> level, 1). */
static inline unsigned agx_layout_minify(unsigned size, unsigned level)
{
	return size >> level ? size >> level : 1;
}

#endif
