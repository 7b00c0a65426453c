/*
 * layout.c: texture layouts (agx/layout.h).  Twiddled textures: a level
 * too large for one tile is a grid of the largest tile for its texel
 * size, 16 KiB each; from the first level that is smaller than that tile
 * in either direction ("pot_level") on, levels are power-of-two squares of
 * Morton order.  Facts from Mesa src/asahi/layout (ail).
 */
#include "agx/layout.h"

#define ALIGN(x, a) (((x) + (a)-1) & ~(uint64_t)((a)-1))

/* The largest tile for a texel size: one 16 KiB page (Mesa ail_get_max_tile_size). */
static bool max_tile(unsigned bytes, unsigned *tw, unsigned *th)
{
	switch (bytes) {
	case 1:
		*tw = 128, *th = 128;
		return true;
	case 2:
		*tw = 128, *th = 64;
		return true;
	case 4:
		*tw = 64, *th = 64;
		return true;
	case 8:
		*tw = 64, *th = 32;
		return true;
	case 16:
		*tw = 32, *th = 32;
		return true;
	default:
		return false;
	}
}

static unsigned next_pow2(unsigned x)
{
	unsigned p = 1;

	while (p < x)
		p <<= 1;
	return p;
}

static unsigned div_round_up(unsigned a, unsigned b)
{
	return (a + b - 1) / b;
}

/* The first level smaller than the largest tile in either direction. */
static unsigned pot_level(const struct agx_layout *l, unsigned tw, unsigned th)
{
	unsigned level = 0;

	while (level < l->levels && agx_layout_minify(l->width, level) >= tw &&
	       agx_layout_minify(l->height, level) >= th)
		level++;
	return level;
}

/* The tile a level is cut into. */
static void level_tile(const struct agx_layout *l, unsigned level, unsigned *tw, unsigned *th)
{
	unsigned pot;

	max_tile(l->bytes_per_texel, tw, th);
	pot = pot_level(l, *tw, *th);
	if (level >= pot) {
		unsigned w = agx_layout_minify(l->width, level),
			 h = agx_layout_minify(l->height, level);

		*tw = *th = next_pow2(w < h ? w : h);
	}
}

bool agx_layout_init(struct agx_layout *l)
{
	unsigned tw, th, pot;
	uint64_t offset = 0;

	if (!l->levels || l->levels > AGX_LAYOUT_MAX_LEVELS || !l->width || !l->height ||
	    !max_tile(l->bytes_per_texel, &tw, &th))
		return false;
	if (!l->twiddled) {
		if (l->levels != 1 || l->stride < (uint64_t)l->width * l->bytes_per_texel)
			return false; /* linear textures have one level */
		l->level_offset[0] = 0;
		l->layer_stride = ALIGN(l->stride * l->height, 128);
		return true;
	}
	pot = pot_level(l, tw, th);
	for (unsigned level = 0; level < l->levels; level++) {
		uint64_t size;

		offset = ALIGN(offset, 128);
		l->level_offset[level] = offset;
		if (level < pot) {
			/* whole tiles of the largest size (Mesa ail_initialize_twiddled) */
			unsigned stx = div_round_up(l->width, tw),
				 sty = div_round_up(l->height, th);
			uint64_t tiles = ((uint64_t)stx * sty) >> (2 * level);
			bool x_rest = stx & ((1u << level) - 1), y_rest = sty & ((1u << level) - 1);

			tiles += (x_rest ? sty >> level : 0) + (y_rest ? stx >> level : 0) +
				 (x_rest && y_rest);
			size = tiles * tw * th * l->bytes_per_texel;
		} else {
			unsigned potw = next_pow2(agx_layout_minify(l->width, pot));
			unsigned poth = next_pow2(agx_layout_minify(l->height, pot));

			size = (uint64_t)agx_layout_minify(potw, level - pot) *
			       agx_layout_minify(poth, level - pot) * l->bytes_per_texel;
		}
		offset += size;
	}
	l->layer_stride = ALIGN(offset, 128);
	if (l->page_aligned_layers)
		l->layer_stride = ALIGN(l->layer_stride, 16384);
	return true;
}

/* Interleaves x and y bits, x in the even positions; what does not pair goes on top. */
static uint64_t morton(unsigned x, unsigned y, unsigned tw, unsigned th)
{
	uint64_t out = 0;
	unsigned bit = 0;

	for (unsigned i = 0; (1u << i) < tw || (1u << i) < th; i++) {
		if ((1u << i) < tw)
			out |= (uint64_t)((x >> i) & 1) << bit++;
		if ((1u << i) < th)
			out |= (uint64_t)((y >> i) & 1) << bit++;
	}
	return out;
}

uint64_t agx_layout_texel(const struct agx_layout *l, unsigned level, unsigned layer, unsigned x,
			  unsigned y)
{
	unsigned tw = 1, th = 1, per_row;
	uint64_t element;

	if (!l->twiddled)
		return layer * l->layer_stride + (uint64_t)y * l->stride +
		       (uint64_t)x * l->bytes_per_texel;
	level_tile(l, level, &tw, &th);
	per_row = div_round_up(agx_layout_minify(l->width, level), tw);
	element =
	    ((uint64_t)(y / th) * per_row + x / tw) * tw * th + morton(x % tw, y % th, tw, th);
	return layer * l->layer_stride + l->level_offset[level] + element * l->bytes_per_texel;
}
