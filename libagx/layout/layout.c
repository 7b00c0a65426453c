/*
 * layout.c: texture layouts (agx/layout.h).  Twiddled textures: a level
 * too large for one tile is a grid of the largest tile for its element
 * size, 16 KiB each; from the first level that is smaller than that tile
 * in either direction ("pot_level") on, levels are power-of-two squares of
 * Morton order.  Block-compressed formats round differently in two places,
 * said where.  Facts from Mesa src/asahi/layout (ail_initialize_gpu_tiled).
 */
#include "agx/layout.h"

#define ALIGN(x, a) (((x) + (a)-1) & ~(uint64_t)((a)-1))

/* The largest tile for an element size: one 16 KiB page (Mesa ail_get_max_tile_size). */
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
		*tw = *th = 1; /* defined for callers that checked the size before */
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

static unsigned min_u(unsigned a, unsigned b)
{
	return a < b ? a : b;
}

/* Twiddled levels, their tiles and offsets; returns the bytes of all levels. */
static uint64_t twiddled_levels(struct agx_layout *l)
{
	unsigned bw = l->block_w ? l->block_w : 1, bh = l->block_h ? l->block_h : 1;
	bool blocks = bw > 1 || bh > 1;
	unsigned w_el = div_round_up(l->width, bw), h_el = div_round_up(l->height, bh);
	unsigned tw, th, stx, sty, pot = 0, potw, poth;
	uint64_t offset = 0;

	max_tile(l->bytes_per_texel, &tw, &th);
	stx = div_round_up(w_el, tw);
	sty = div_round_up(h_el, th);
	/* the first level under one tile, minifying the size rounded to whole blocks */
	for (unsigned pw = w_el * bw, ph = h_el * bh;
	     div_round_up(pw, bw) >= tw && div_round_up(ph, bh) >= th; pot++)
		pw = agx_layout_minify(pw, 1), ph = agx_layout_minify(ph, 1);

	for (unsigned level = 0; level < min_u(pot, l->levels); level++) {
		/* whole tiles of the largest size, a column and row more where they do not halve */
		uint64_t tiles = ((uint64_t)stx * sty) >> (2 * level);
		bool x_rest = stx & ((1u << level) - 1), y_rest = sty & ((1u << level) - 1);

		tiles +=
		    (x_rest ? sty >> level : 0) + (y_rest ? stx >> level : 0) + (x_rest && y_rest);
		l->level_offset[level] = offset;
		offset = ALIGN(offset + tiles * tw * th * l->bytes_per_texel, 128);
		/* block formats count that extra column in the row too (Mesa: "pad the stride") */
		l->stride_el[level] =
		    div_round_up(agx_layout_minify(l->width, level), bw) + (blocks && x_rest);
		l->tile_w[level] = tw, l->tile_h[level] = th;
	}

	/* block formats round to a power of two before minifying, the others after */
	potw = blocks ? agx_layout_minify(next_pow2(w_el), pot)
		      : next_pow2(agx_layout_minify(w_el, pot));
	poth = blocks ? agx_layout_minify(next_pow2(h_el), pot)
		      : next_pow2(agx_layout_minify(h_el, pot));
	for (unsigned level = pot; level < l->levels; level++) {
		/* the largest square tile that fits the level (blocks: the rounded level) */
		unsigned tile = blocks ? next_pow2(min_u(potw, poth))
				       : next_pow2(agx_layout_minify(min_u(w_el, h_el), level));

		l->level_offset[level] = offset;
		offset = ALIGN(offset + (uint64_t)potw * poth * l->bytes_per_texel, 128);
		l->stride_el[level] = div_round_up(agx_layout_minify(l->width, level), bw);
		l->tile_w[level] = l->tile_h[level] = tile;
		potw = agx_layout_minify(potw, 1);
		poth = agx_layout_minify(poth, 1);
	}
	return offset;
}

bool agx_layout_init(struct agx_layout *l)
{
	unsigned tw, th;
	uint64_t bytes;

	if (!l->levels || l->levels > AGX_LAYOUT_MAX_LEVELS || !l->width || !l->height ||
	    l->block_w > 12 || l->block_h > 12 || !max_tile(l->bytes_per_texel, &tw, &th))
		return false;
	if (!l->twiddled) {
		/* linear textures have one level, and no blocks (Mesa ail_make_miptree) */
		if (l->levels != 1 || l->block_w > 1 || l->block_h > 1 ||
		    l->stride < (uint64_t)l->width * l->bytes_per_texel)
			return false;
		l->level_offset[0] = 0;
		l->layer_stride = ALIGN(l->stride * l->height, 128);
		return true;
	}
	bytes = twiddled_levels(l);
	l->layer_stride = ALIGN(bytes, 128);
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
	unsigned tw, th, per_row;
	uint64_t element;

	if (!l->twiddled)
		return layer * l->layer_stride + (uint64_t)y * l->stride +
		       (uint64_t)x * l->bytes_per_texel;
	tw = l->tile_w[level], th = l->tile_h[level];
	per_row = div_round_up(l->stride_el[level], tw);
	element =
	    ((uint64_t)(y / th) * per_row + x / tw) * tw * th + morton(x % tw, y % th, tw, th);
	return layer * l->layer_stride + l->level_offset[level] + element * l->bytes_per_texel;
}
