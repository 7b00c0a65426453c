/*
 * layout.h: the simulated GPU's own texel addressing -- where the texture
 * unit, the PBE and the ZLS find an element of a linear or twiddled image.
 * The driver has its layout code (libagx's agx/layout.h); the device does
 * not share it, so that a layout bug in the driver shows as a wrong image
 * instead of being agreed with.  The rules are the hardware's as the
 * public record gives them (Mesa src/asahi/layout): linear images are rows
 * of `stride` bytes; a twiddled level is 16 KiB pages of Morton-ordered
 * elements while it covers a whole page, then a power-of-two square of
 * Morton order; levels follow each other at 128-byte boundaries, layers
 * at the chain's size rounded to 128 bytes (or 16 KiB).
 */
#ifndef SIM_USC_LAYOUT_H
#define SIM_USC_LAYOUT_H

#include <stdbool.h>
#include <stdint.h>

#define USC_LAYOUT_MAX_LEVELS 16

struct usc_layout {
	/* what the descriptor says */
	bool twiddled;
	unsigned bytes_per_texel;  /* of an element: 1, 2, 4, 8 or 16 */
	unsigned block_w, block_h; /* texels an element covers: a block (<= 12x12), else 1 or 0 */
	unsigned width, height;	   /* level 0, in texels */
	unsigned levels;
	uint64_t stride; /* linear: bytes a row */
	bool page_aligned_layers;
	/* usc_layout_init's */
	uint64_t layer_stride;
	struct {
		uint64_t offset;
		unsigned tile_w, tile_h; /* in elements: a page, or the level's square */
		unsigned tiles_across;
	} level[USC_LAYOUT_MAX_LEVELS];
};

/* Lays the levels out; false for what no descriptor can describe. */
bool usc_layout_init(struct usc_layout *l);

/* The byte offset of element (x, y) of a level and layer; the caller checks bounds. */
uint64_t usc_layout_element(const struct usc_layout *l, unsigned level, unsigned layer, unsigned x,
			    unsigned y);

/*
 * A multisampled image keeps each pixel's samples side by side: it is
 * laid out as a single-sampled image of width * sx by height * sy
 * elements, 2x: 1x2 (samples one above the other), 4x: 2x2 (Mesa
 * ail_effective_width_sa / _height_sa).  Which sample of the block is
 * which is not public: ours are in row order, sample s at (s % sx, s / sx).
 */
static inline void usc_sample_grid(unsigned samples, unsigned *sx, unsigned *sy)
{
	*sx = samples == 4 ? 2 : 1;
	*sy = samples >= 2 ? 2 : 1;
}

static inline unsigned usc_layout_minify(unsigned size, unsigned level)
{
	return size >> level ? size >> level : 1;
}

#endif
