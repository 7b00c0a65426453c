/*
 * layout.c: the simulated GPU's texel addressing (layout.h), written apart
 * from libagx's on purpose.  tests/sim/test-layout.c holds it to the
 * public record's numbers and to the driver's layouts over many sizes.
 */
#include "layout.h"

static uint64_t round_up(uint64_t v, uint64_t a)
{
	return (v + a - 1) / a * a;
}

static unsigned ceil_div(unsigned a, unsigned b)
{
	return (a + b - 1) / b;
}

static unsigned pow2_at_least(unsigned v)
{
	return v <= 1 ? 1 : 1u << (32 - __builtin_clz(v - 1));
}

/*
 * The page's tile for an element size: 16 KiB of elements in a
 * power-of-two rectangle, square, or twice as wide as high.
 */
static bool page_tile(unsigned bytes, unsigned *w, unsigned *h)
{
	unsigned bits;

	if (!bytes || bytes > 16 || (bytes & (bytes - 1)))
		return false;
	bits = 14 - (unsigned)__builtin_ctz(bytes);
	*h = 1u << (bits / 2);
	*w = 1u << (bits - bits / 2);
	return true;
}

/* Spreads the low 16 bits of v to the even bit positions. */
static uint64_t spread(uint32_t v)
{
	uint64_t x = v & 0xffff;

	x = (x | (x << 8)) & 0x00ff00ffull;
	x = (x | (x << 4)) & 0x0f0f0f0full;
	x = (x | (x << 2)) & 0x33333333ull;
	x = (x | (x << 1)) & 0x55555555ull;
	return x;
}

/*
 * The element's place in a w x h tile (powers of two, w = h or 2h):
 * Morton order with x in the even bits; a wide tile's top x bit above
 * them all.
 */
static uint64_t morton(unsigned x, unsigned y, unsigned w, unsigned h)
{
	if (w > h)
		return ((uint64_t)(x / h) * h * h) + (spread(x % h) | spread(y) << 1);
	if (h > w)
		return ((uint64_t)(y / w) * w * w) + (spread(x) | spread(y % w) << 1);
	return spread(x) | spread(y) << 1;
}

static uint64_t twiddled(struct usc_layout *l)
{
	unsigned bw = l->block_w > 1 ? l->block_w : 1, bh = l->block_h > 1 ? l->block_h : 1;
	bool compressed = bw > 1 || bh > 1;
	unsigned ew = ceil_div(l->width, bw), eh = ceil_div(l->height, bh);
	unsigned tw, th, pages_x, pages_y, first_small = 0;
	uint64_t at = 0;

	page_tile(l->bytes_per_texel, &tw, &th);
	pages_x = ceil_div(ew, tw);
	pages_y = ceil_div(eh, th);
	/* the first level that no longer covers a page: minified as texels, counted in elements */
	for (unsigned w = ew * bw, h = eh * bh; ceil_div(w, bw) >= tw && ceil_div(h, bh) >= th;
	     first_small++) {
		w = usc_layout_minify(w, 1);
		h = usc_layout_minify(h, 1);
	}

	for (unsigned i = 0; i < l->levels; i++) {
		if (i < first_small) {
			/*
			 * The level-0 page grid quartered, plus the column and
			 * row a grid that does not halve evenly keeps (as the
			 * hardware counts them: Mesa ail_initialize_gpu_tiled).
			 */
			uint32_t mask = (1u << i) - 1;
			bool odd_x = pages_x & mask, odd_y = pages_y & mask;
			uint64_t pages = ((uint64_t)pages_x * pages_y) >> (2 * i);
			unsigned row = ceil_div(usc_layout_minify(l->width, i), bw);

			pages += (odd_x ? pages_y >> i : 0) + (odd_y ? pages_x >> i : 0) +
				 (odd_x && odd_y ? 1 : 0);
			/* compressed rows count that extra column too */
			if (compressed && odd_x)
				row++;
			l->level[i].offset = at;
			l->level[i].tile_w = tw;
			l->level[i].tile_h = th;
			l->level[i].tiles_across = ceil_div(row, tw);
			at = round_up(at + pages * tw * th * l->bytes_per_texel, 128);
			continue;
		}
		/*
		 * The first small level rounded up to powers of two (compressed
		 * images round level 0 first), each level after it half that.
		 */
		unsigned k = i - first_small;
		unsigned sw =
		    compressed
			? usc_layout_minify(pow2_at_least(ew), i)
			: usc_layout_minify(pow2_at_least(usc_layout_minify(ew, first_small)), k);
		unsigned sh =
		    compressed
			? usc_layout_minify(pow2_at_least(eh), i)
			: usc_layout_minify(pow2_at_least(usc_layout_minify(eh, first_small)), k);
		unsigned side = compressed ? pow2_at_least(sw < sh ? sw : sh)
					   : pow2_at_least(usc_layout_minify(ew < eh ? ew : eh, i));

		l->level[i].offset = at;
		l->level[i].tile_w = l->level[i].tile_h = side;
		l->level[i].tiles_across =
		    ceil_div(ceil_div(usc_layout_minify(l->width, i), bw), side);
		at = round_up(at + (uint64_t)sw * sh * l->bytes_per_texel, 128);
	}
	return at;
}

bool usc_layout_init(struct usc_layout *l)
{
	unsigned tw, th;

	if (!l->width || !l->height || !l->levels || l->levels > USC_LAYOUT_MAX_LEVELS ||
	    l->block_w > 12 || l->block_h > 12 || !page_tile(l->bytes_per_texel, &tw, &th))
		return false;
	if (!l->twiddled) {
		if (l->levels > 1 || l->block_w > 1 || l->block_h > 1 ||
		    l->stride < (uint64_t)l->width * l->bytes_per_texel)
			return false;
		l->level[0].offset = 0;
		l->layer_stride = round_up(l->stride * l->height, 128);
		return true;
	}
	l->layer_stride = round_up(twiddled(l), l->page_aligned_layers ? 16384 : 128);
	return true;
}

uint64_t usc_layout_element(const struct usc_layout *l, unsigned level, unsigned layer, unsigned x,
			    unsigned y)
{
	uint64_t base = layer * l->layer_stride;
	unsigned w, h;

	if (!l->twiddled)
		return base + (uint64_t)y * l->stride + (uint64_t)x * l->bytes_per_texel;
	w = l->level[level].tile_w;
	h = l->level[level].tile_h;
	return base + l->level[level].offset +
	       (((uint64_t)(y / h) * l->level[level].tiles_across + x / w) * w * h +
		morton(x % w, y % h, w, h)) *
		   l->bytes_per_texel;
}
