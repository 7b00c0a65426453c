/*
 * astc.c: ASTC LDR blocks (astc.h), written from the Khronos Data Format
 * Specification's ASTC chapter: the block-mode table, integer sequence
 * encoding (trits and quints), colour endpoint modes, the partition hash,
 * dual planes, bilinear weight infill and void-extent blocks.  Bits are
 * numbered from bit 0 of byte 0 up; weights are stored from bit 127 down.
 */
#include <string.h>

#include "astc.h"

/* --- bits -------------------------------------------------------------------------- */

/* n (<= 32) bits of a 128-bit block from bit at; bits at or past end read as zero. */
static uint32_t bits_at(const uint8_t b[16], unsigned at, unsigned n, unsigned end)
{
	uint32_t v = 0;

	for (unsigned i = 0; i < n; i++) {
		unsigned p = at + i;

		if (p < end && p < 128)
			v |= (uint32_t)((b[p / 8] >> (p % 8)) & 1) << i;
	}
	return v;
}

static uint32_t field(const uint8_t b[16], unsigned at, unsigned n)
{
	return bits_at(b, at, n, 128);
}

/* The block read from bit 127 down: the weights' bit order. */
static void reverse_block(const uint8_t b[16], uint8_t out[16])
{
	for (unsigned i = 0; i < 16; i++) {
		uint8_t v = b[15 - i], r = 0;

		for (unsigned k = 0; k < 8; k++)
			r |= (uint8_t)(((v >> k) & 1) << (7 - k));
		out[i] = r;
	}
}

/* --- integer sequence encoding ----------------------------------------------------- */

enum { PLAIN, TRIT, QUINT };

/* The ranges, by index: how many values, the low bits of each, and a trit or quint on top. */
static const struct range {
	uint16_t levels;
	uint8_t bits, kind;
} ranges[] = {
	{ 2, 1, PLAIN },   { 3, 0, TRIT },   { 4, 2, PLAIN },	{ 5, 0, QUINT },   { 6, 1, TRIT },
	{ 8, 3, PLAIN },   { 10, 1, QUINT }, { 12, 2, TRIT },	{ 16, 4, PLAIN },  { 20, 2, QUINT },
	{ 24, 3, TRIT },   { 32, 5, PLAIN }, { 40, 3, QUINT },	{ 48, 4, TRIT },   { 64, 6, PLAIN },
	{ 80, 4, QUINT },  { 96, 5, TRIT },  { 128, 7, PLAIN }, { 160, 5, QUINT }, { 192, 6, TRIT },
	{ 256, 8, PLAIN },
};

#define RANGES		   (sizeof(ranges) / sizeof(ranges[0]))
#define FIRST_COLOUR_RANGE 4 /* endpoints take 6 levels or more */

static const struct range *range_of(unsigned levels)
{
	for (unsigned i = 0; i < RANGES; i++)
		if (ranges[i].levels == levels)
			return &ranges[i];
	return NULL;
}

/* Bits of n values: 8 bits a 5 trits, 7 bits a 3 quints, rounded up. */
static unsigned sequence_bits(const struct range *r, unsigned n)
{
	unsigned extra = r->kind == TRIT ? (8 * n + 4) / 5 : r->kind == QUINT ? (7 * n + 2) / 3 : 0;

	return n * r->bits + extra;
}

/* The five trits packed in 8 bits (the specification's decoding of T). */
static void unpack_trits(unsigned t, unsigned out[5])
{
	unsigned c;

	if (((t >> 2) & 7) == 7) {
		c = ((t >> 5) & 7) << 2 | (t & 3);
		out[4] = 2, out[3] = 2;
	} else {
		c = t & 0x1f;
		if (((t >> 5) & 3) == 3)
			out[4] = 2, out[3] = (t >> 7) & 1;
		else
			out[4] = (t >> 7) & 1, out[3] = (t >> 5) & 3;
	}
	if ((c & 3) == 3) {
		out[2] = 2, out[1] = (c >> 4) & 1;
		out[0] = ((c >> 3) & 1) << 1 | (((c >> 2) & 1) & ~(c >> 3) & 1);
	} else if (((c >> 2) & 3) == 3) {
		out[2] = 2, out[1] = 2, out[0] = c & 3;
	} else {
		out[2] = (c >> 4) & 1, out[1] = (c >> 2) & 3;
		out[0] = ((c >> 1) & 1) << 1 | ((c & 1) & ~(c >> 1) & 1);
	}
}

/* The three quints packed in 7 bits. */
static void unpack_quints(unsigned q, unsigned out[3])
{
	unsigned c;

	if (((q >> 1) & 3) == 3 && ((q >> 5) & 3) == 0) {
		unsigned q0 = q & 1, inv = q0 ^ 1;

		out[2] = q0 << 2 | (((q >> 4) & 1) & inv) << 1 | (((q >> 3) & 1) & inv);
		out[1] = 4, out[0] = 4;
		return;
	}
	if (((q >> 1) & 3) == 3) {
		out[2] = 4;
		c = ((q >> 3) & 3) << 3 | ((~q >> 5) & 3) << 1 | (q & 1);
	} else {
		out[2] = (q >> 5) & 3;
		c = q & 0x1f;
	}
	if ((c & 7) == 5)
		out[1] = 4, out[0] = (c >> 3) & 3;
	else
		out[1] = (c >> 3) & 3, out[0] = c & 7;
}

/*
 * n values of range r from the bits [at, end) of b, in order; a sequence
 * cut short reads zeros.
 */
static void decode_sequence(const uint8_t b[16], unsigned at, unsigned end, const struct range *r,
			    unsigned n, uint8_t *out)
{
	/* where each value's low bits and its share of the packed trits or quints lie */
	static const uint8_t trit_bits[5] = { 2, 2, 1, 2, 1 }, quint_bits[3] = { 3, 2, 2 };
	unsigned group = r->kind == TRIT ? 5 : r->kind == QUINT ? 3 : 1;

	/* the packed bits of a last, partial group that the sequence does not hold are zeros */
	if (end > at + sequence_bits(r, n))
		end = at + sequence_bits(r, n);
	for (unsigned first = 0; first < n; first += group) {
		unsigned low[5] = { 0 }, high[5] = { 0 }, packed = 0, shift = 0;

		for (unsigned i = 0; i < group; i++) {
			low[i] = bits_at(b, at, r->bits, end);
			at += r->bits;
			if (r->kind == PLAIN)
				continue;
			unsigned w = r->kind == TRIT ? trit_bits[i] : quint_bits[i];

			packed |= bits_at(b, at, w, end) << shift;
			at += w;
			shift += w;
		}
		if (r->kind == TRIT)
			unpack_trits(packed, high);
		else if (r->kind == QUINT)
			unpack_quints(packed, high);
		for (unsigned i = 0; i < group && first + i < n; i++)
			out[first + i] = (uint8_t)(high[i] << r->bits | low[i]);
	}
}

/* --- unquantization ---------------------------------------------------------------- */

/* v's low bits (count of them) repeated to fill width bits, most significant first. */
static unsigned replicate(unsigned v, unsigned count, unsigned width)
{
	unsigned out = 0, have = 0;

	while (have < width) {
		out = out << count | v;
		have += count;
	}
	return out >> (have - width);
}

/*
 * The B term of trit and quint unquantization: the bits of v above bit 0
 * (b, c, d, ... of the specification's tables) at the positions the table
 * for this many bits gives, as a sum of those bits' weights.
 */
static unsigned b_term(const uint16_t *weight, unsigned v, unsigned bits)
{
	unsigned sum = 0;

	for (unsigned k = 1; k < bits; k++)
		if ((v >> k) & 1)
			sum += weight[k - 1];
	return sum;
}

int usc_astc_unquantize_colour(unsigned levels, unsigned v)
{
	/*
	 * The colour tables, by low-bit count: C, and the value each of bits
	 * b..f adds to B (the tables' patterns read as numbers: for trits
	 * with 2 bits "b000b0bb0" is 278 b).
	 */
	static const struct {
		uint16_t c;
		uint16_t b[5];
	} trit[7] = { { 0 },
		      { 204, { 0 } },
		      { 93, { 278 } },
		      { 44, { 133, 266 } },
		      { 22, { 65, 130, 260 } },
		      { 11, { 32, 64, 129, 258 } },
		      { 5, { 16, 32, 64, 128, 257 } } },
	  quint[6] = { { 0 },
		       { 113, { 0 } },
		       { 54, { 268 } },
		       { 26, { 130, 261 } },
		       { 13, { 64, 129, 258 } },
		       { 6, { 32, 64, 128, 257 } } };
	const struct range *r = range_of(levels);
	unsigned a, b, c, d, t;

	if (!r || r < &ranges[FIRST_COLOUR_RANGE] || v >= levels)
		return -1;
	if (r->kind == PLAIN)
		return (int)replicate(v, r->bits, 8);
	d = v >> r->bits;
	a = (v & 1) ? 0x1ff : 0;
	if (r->kind == TRIT)
		c = trit[r->bits].c, b = b_term(trit[r->bits].b, v, r->bits);
	else
		c = quint[r->bits].c, b = b_term(quint[r->bits].b, v, r->bits);
	t = (d * c + b) ^ a;
	return (int)((a & 0x80) | (t >> 2));
}

int usc_astc_unquantize_weight(unsigned levels, unsigned v)
{
	static const struct {
		uint16_t c;
		uint16_t b[2];
	} trit[4] = { { 0 }, { 50, { 0 } }, { 23, { 69 } }, { 11, { 33, 66 } } },
	  quint[3] = { { 0 }, { 28, { 0 } }, { 13, { 66 } } };
	const struct range *r = range_of(levels);
	unsigned a, b, c, d, t;

	if (!r || levels > 32 || v >= levels)
		return -1;
	if (r->kind == PLAIN) {
		t = replicate(v, r->bits, 6);
	} else if (r->bits == 0) {
		/* a bare trit or quint: evenly spread over 0..64 */
		return (int)(v * 64 / (levels - 1));
	} else {
		d = v >> r->bits;
		a = (v & 1) ? 0x7f : 0;
		if (r->kind == TRIT)
			c = trit[r->bits].c, b = b_term(trit[r->bits].b, v, r->bits);
		else
			c = quint[r->bits].c, b = b_term(quint[r->bits].b, v, r->bits);
		t = (d * c + b) ^ a;
		t = (a & 0x20) | (t >> 2);
	}
	/* 0..63 becomes 0..64 by skipping 32's successor */
	return (int)(t > 32 ? t + 1 : t);
}

/* --- partitions -------------------------------------------------------------------- */

static uint32_t hash52(uint32_t v)
{
	v ^= v >> 15;
	v *= 0xeede0891u;
	v ^= v >> 5;
	v += v << 16;
	v ^= v >> 7;
	v ^= v >> 3;
	v ^= v << 6;
	v ^= v >> 17;
	return v;
}

unsigned usc_astc_partition(unsigned seed, unsigned x, unsigned y, unsigned z, unsigned count,
			    bool small_block)
{
	/* the nibble each of the twelve multipliers is taken from, in rnum's bits */
	static const uint8_t at[12] = { 0, 4, 8, 12, 16, 20, 24, 28, 18, 22, 26, 30 };
	uint32_t rnum;
	unsigned m[12], sh1, sh2, sh3, lines[4];

	if (count <= 1)
		return 0;
	if (small_block)
		x <<= 1, y <<= 1, z <<= 1;
	seed += (count - 1) * 1024;
	rnum = hash52(seed);
	for (unsigned i = 0; i < 12; i++) {
		/* the last nibble wraps around the word */
		uint32_t n = at[i] == 30 ? (rnum >> 30 | rnum << 2) : rnum >> at[i];

		m[i] = (n & 0xf) * (n & 0xf);
	}
	if (seed & 1) {
		sh1 = seed & 2 ? 4 : 5;
		sh2 = count == 3 ? 6 : 5;
	} else {
		sh1 = count == 3 ? 6 : 5;
		sh2 = seed & 2 ? 4 : 5;
	}
	sh3 = seed & 0x10 ? sh1 : sh2;
	for (unsigned i = 0; i < 8; i++)
		m[i] >>= i % 2 ? sh2 : sh1;
	for (unsigned i = 8; i < 12; i++)
		m[i] >>= sh3;
	lines[0] = (m[0] * x + m[1] * y + m[10] * z + (rnum >> 14)) & 0x3f;
	lines[1] = (m[2] * x + m[3] * y + m[11] * z + (rnum >> 10)) & 0x3f;
	lines[2] = count < 3 ? 0 : (m[4] * x + m[5] * y + m[8] * z + (rnum >> 6)) & 0x3f;
	lines[3] = count < 4 ? 0 : (m[6] * x + m[7] * y + m[9] * z + (rnum >> 2)) & 0x3f;
	if (lines[0] >= lines[1] && lines[0] >= lines[2] && lines[0] >= lines[3])
		return 0;
	if (lines[1] >= lines[2] && lines[1] >= lines[3])
		return 1;
	return lines[2] >= lines[3] ? 2 : 3;
}

/* --- the block mode ---------------------------------------------------------------- */

struct mode {
	unsigned grid_w, grid_h;
	bool dual;
	const struct range *weights;
};

/* The eleven block-mode bits (2D); false for the reserved encodings. */
static bool block_mode(unsigned bm, struct mode *m)
{
	unsigned a = (bm >> 5) & 3, b = (bm >> 7) & 3, r, high = (bm >> 9) & 1;

	m->dual = (bm >> 10) & 1;
	if (bm & 3) {
		r = (bm >> 4 & 1) | (bm & 3) << 1;
		switch ((bm >> 2) & 3) {
		case 0:
			m->grid_w = b + 4, m->grid_h = a + 2;
			break;
		case 1:
			m->grid_w = b + 8, m->grid_h = a + 2;
			break;
		case 2:
			m->grid_w = a + 2, m->grid_h = b + 8;
			break;
		default:
			if (bm & 0x100)
				m->grid_w = (b & 1) + 2, m->grid_h = a + 2;
			else
				m->grid_w = a + 2, m->grid_h = (b & 1) + 6;
			break;
		}
	} else {
		r = (bm >> 4 & 1) | ((bm >> 2) & 3) << 1;
		if ((bm & 0xf) == 0)
			return false;
		switch ((bm >> 7) & 3) {
		case 0:
			m->grid_w = 12, m->grid_h = a + 2;
			break;
		case 1:
			m->grid_w = a + 2, m->grid_h = 12;
			break;
		case 2:
			/* bits 9 and 10 are the height here: no dual plane, low precision */
			m->grid_w = a + 6, m->grid_h = ((bm >> 9) & 3) + 6;
			m->dual = false, high = 0;
			break;
		default:
			if (bm & 0x40)
				return false; /* 111xxxx00: reserved (void extent is apart) */
			m->grid_w = bm & 0x20 ? 10 : 6, m->grid_h = bm & 0x20 ? 6 : 10;
			break;
		}
	}
	if (r < 2)
		return false;
	/* R 2..7 picks 2, 3, 4, 5, 6, 8 levels, or with the high-precision bit 10 to 32 */
	m->weights = &ranges[r - 2 + 6 * high];
	return true;
}

/* --- colour endpoints -------------------------------------------------------------- */

static int clamp255(int v)
{
	return v < 0 ? 0 : v > 255 ? 255 : v;
}

/* The specification's bit_transfer_signed: a's top bit goes to b, a becomes -32..31. */
static void transfer(int *a, int *b)
{
	*b = (*b >> 1) | (*a & 0x80);
	*a = (*a >> 1) & 0x3f;
	if (*a & 0x20)
		*a -= 0x40;
}

static void blue_contract(int e[4])
{
	e[0] = (e[0] + e[2]) >> 1;
	e[1] = (e[1] + e[2]) >> 1;
}

static void set(int e[4], int r, int g, int b, int a)
{
	e[0] = r, e[1] = g, e[2] = b, e[3] = a;
}

/* The two endpoints (0..255) of an LDR endpoint mode from its values; false for HDR modes. */
static bool endpoints(unsigned cem, const uint8_t *val, int e0[4], int e1[4])
{
	int v[8];

	for (unsigned i = 0; i < 2 * (cem / 4 + 1); i++)
		v[i] = val[i];
	switch (cem) {
	case 0: /* luminance, direct */
		set(e0, v[0], v[0], v[0], 255);
		set(e1, v[1], v[1], v[1], 255);
		return true;
	case 1: { /* luminance, base and offset */
		int l0 = (v[0] >> 2) | (v[1] & 0xc0), l1 = l0 + (v[1] & 0x3f);

		l1 = l1 > 255 ? 255 : l1;
		set(e0, l0, l0, l0, 255);
		set(e1, l1, l1, l1, 255);
		return true;
	}
	case 4: /* luminance and alpha, direct */
		set(e0, v[0], v[0], v[0], v[2]);
		set(e1, v[1], v[1], v[1], v[3]);
		return true;
	case 5: /* luminance and alpha, base and offset */
		transfer(&v[1], &v[0]);
		transfer(&v[3], &v[2]);
		set(e0, v[0], v[0], v[0], v[2]);
		set(e1, v[0] + v[1], v[0] + v[1], v[0] + v[1], v[2] + v[3]);
		break;
	case 6: /* RGB, base and scale */
		set(e0, v[0] * v[3] >> 8, v[1] * v[3] >> 8, v[2] * v[3] >> 8, 255);
		set(e1, v[0], v[1], v[2], 255);
		return true;
	case 8: /* RGB, direct */
	case 12: /* RGBA, direct */ {
		int a0 = cem == 12 ? v[6] : 255, a1 = cem == 12 ? v[7] : 255;

		if (v[1] + v[3] + v[5] >= v[0] + v[2] + v[4]) {
			set(e0, v[0], v[2], v[4], a0);
			set(e1, v[1], v[3], v[5], a1);
		} else {
			set(e0, v[1], v[3], v[5], a1);
			set(e1, v[0], v[2], v[4], a0);
			blue_contract(e0);
			blue_contract(e1);
		}
		return true;
	}
	case 9: /* RGB, base and offset */
	case 13: /* RGBA, base and offset */ {
		int a0 = 255, a1 = 255;

		transfer(&v[1], &v[0]);
		transfer(&v[3], &v[2]);
		transfer(&v[5], &v[4]);
		if (cem == 13) {
			transfer(&v[7], &v[6]);
			a0 = v[6], a1 = v[6] + v[7];
		}
		if (v[1] + v[3] + v[5] >= 0) {
			set(e0, v[0], v[2], v[4], a0);
			set(e1, v[0] + v[1], v[2] + v[3], v[4] + v[5], a1);
		} else {
			set(e0, v[0] + v[1], v[2] + v[3], v[4] + v[5], a1);
			set(e1, v[0], v[2], v[4], a0);
			blue_contract(e0);
			blue_contract(e1);
		}
		break;
	}
	case 10: /* RGB base and scale, and two alphas */
		set(e0, v[0] * v[3] >> 8, v[1] * v[3] >> 8, v[2] * v[3] >> 8, v[4]);
		set(e1, v[0], v[1], v[2], v[5]);
		return true;
	default: /* 2, 3, 7, 11, 14, 15: HDR */
		return false;
	}
	for (unsigned c = 0; c < 4; c++)
		e0[c] = clamp255(e0[c]), e1[c] = clamp255(e1[c]);
	return true;
}

/* --- the block --------------------------------------------------------------------- */

static bool error_colour(uint16_t out[4])
{
	out[0] = 0xffff, out[1] = 0, out[2] = 0xffff, out[3] = 0xffff;
	return false;
}

static bool is_block_size(unsigned bw, unsigned bh)
{
	static const uint8_t sizes[][2] = { { 4, 4 },  { 5, 4 },   { 5, 5 },   { 6, 5 },  { 6, 6 },
					    { 8, 5 },  { 8, 6 },   { 8, 8 },   { 10, 5 }, { 10, 6 },
					    { 10, 8 }, { 10, 10 }, { 12, 10 }, { 12, 12 } };

	for (unsigned i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++)
		if (sizes[i][0] == bw && sizes[i][1] == bh)
			return true;
	return false;
}

/* A void-extent block: one colour, UNORM16 in LDR; HDR ones are errors here. */
static bool void_extent(const uint8_t b[16], uint16_t out[4])
{
	unsigned s0 = field(b, 12, 13), s1 = field(b, 25, 13);
	unsigned t0 = field(b, 38, 13), t1 = field(b, 51, 13);
	bool all_ones = s0 == 0x1fff && s1 == 0x1fff && t0 == 0x1fff && t1 == 0x1fff;

	if (field(b, 9, 1) || (!all_ones && (s0 >= s1 || t0 >= t1)))
		return error_colour(out);
	for (unsigned c = 0; c < 4; c++)
		out[c] = (uint16_t)field(b, 64 + 16 * c, 16);
	return true;
}

/* The weight (0..64) of a texel from the grid's weights of one plane, bilinearly. */
static unsigned infill(const uint8_t *w, unsigned planes, unsigned plane, unsigned gw, unsigned gh,
		       unsigned bw, unsigned bh, unsigned x, unsigned y)
{
	unsigned ds = (1024 + bw / 2) / (bw - 1), dt = (1024 + bh / 2) / (bh - 1);
	unsigned gs = (ds * x * (gw - 1) + 32) >> 6, gt = (dt * y * (gh - 1) + 32) >> 6;
	unsigned js = gs >> 4, fs = gs & 0xf, jt = gt >> 4, ft = gt & 0xf;
	unsigned w11 = (fs * ft + 8) >> 4, w10 = ft - w11, w01 = fs - w11;
	unsigned w00 = 16 - fs - ft + w11;
	/* the neighbours right and below; at the grid's edge their share is 0 */
	unsigned js1 = js + 1 < gw ? js + 1 : js, jt1 = jt + 1 < gh ? jt + 1 : jt;
	unsigned p00 = w[(jt * gw + js) * planes + plane],
		 p01 = w[(jt * gw + js1) * planes + plane];
	unsigned p10 = w[(jt1 * gw + js) * planes + plane];
	unsigned p11 = w[(jt1 * gw + js1) * planes + plane];

	return (p00 * w00 + p01 * w01 + p10 * w10 + p11 * w11 + 8) >> 4;
}

bool usc_astc_texel(const uint8_t b[16], unsigned bw, unsigned bh, unsigned x, unsigned y,
		    bool srgb, uint16_t out[4])
{
	struct mode m;
	unsigned bm = field(b, 0, 11), parts, count, weight_bits, extra = 0, cem[4];
	unsigned colour_start, colour_end, values = 0, first = 0, part = 0, ccs = 4;
	const struct range *colour = NULL;
	uint8_t rev[16], weights[64], colours[18];
	int e0[4], e1[4];

	if (!is_block_size(bw, bh) || x >= bw || y >= bh)
		return error_colour(out);
	if ((bm & 0x1ff) == 0x1fc)
		return void_extent(b, out);
	if (!block_mode(bm, &m) || m.grid_w > bw || m.grid_h > bh)
		return error_colour(out);
	count = m.grid_w * m.grid_h * (m.dual ? 2 : 1);
	weight_bits = sequence_bits(m.weights, count);
	if (count > 64 || weight_bits < 24 || weight_bits > 96)
		return error_colour(out);

	parts = field(b, 11, 2) + 1;
	if (m.dual && parts == 4)
		return error_colour(out);
	if (parts == 1) {
		cem[0] = field(b, 13, 4);
		colour_start = 17;
	} else {
		unsigned sel = field(b, 23, 6);

		colour_start = 29;
		if ((sel & 3) == 0) {
			for (unsigned i = 0; i < parts; i++)
				cem[i] = sel >> 2;
		} else {
			/*
			 * A class for all and a bit each to go one up, then
			 * two mode bits each; what does not fit in the six
			 * bits sits just under the weights.
			 */
			unsigned base = (sel & 3) - 1, more;

			extra = 3 * parts - 4;
			more = (sel >> 2) | field(b, 128 - weight_bits - extra, extra) << 4;
			for (unsigned i = 0; i < parts; i++)
				cem[i] = (base + ((more >> i) & 1)) * 4 +
					 ((more >> (parts + 2 * i)) & 3);
		}
	}
	if (128 < weight_bits + extra + (m.dual ? 2 : 0) + colour_start)
		return error_colour(out);
	colour_end = 128 - weight_bits - extra - (m.dual ? 2 : 0);
	if (m.dual)
		ccs = field(b, colour_end, 2);
	for (unsigned i = 0; i < parts; i++)
		values += 2 * (cem[i] / 4 + 1);
	if (values > 18)
		return error_colour(out);
	/* the endpoints take the finest range that fits what the weights left */
	for (unsigned i = RANGES; i-- > FIRST_COLOUR_RANGE;)
		if (sequence_bits(&ranges[i], values) <= colour_end - colour_start) {
			colour = &ranges[i];
			break;
		}
	if (!colour)
		return error_colour(out);

	decode_sequence(b, colour_start, colour_end, colour, values, colours);
	for (unsigned i = 0; i < values; i++)
		colours[i] = (uint8_t)usc_astc_unquantize_colour(colour->levels, colours[i]);
	reverse_block(b, rev);
	decode_sequence(rev, 0, weight_bits, m.weights, count, weights);
	for (unsigned i = 0; i < count; i++)
		weights[i] = (uint8_t)usc_astc_unquantize_weight(m.weights->levels, weights[i]);

	if (parts > 1)
		part = usc_astc_partition(field(b, 13, 10), x, y, 0, parts, bw * bh < 31);
	for (unsigned i = 0; i < part; i++)
		first += 2 * (cem[i] / 4 + 1);
	if (!endpoints(cem[part], colours + first, e0, e1))
		return error_colour(out);

	for (unsigned c = 0; c < 4; c++) {
		unsigned plane = m.dual && c == ccs ? 1 : 0;
		unsigned w =
		    infill(weights, m.dual ? 2 : 1, plane, m.grid_w, m.grid_h, bw, bh, x, y);
		/* sRGB endpoints keep 8 bits and round in the middle of the low byte */
		unsigned c0 = srgb ? (unsigned)e0[c] << 8 | 0x80 : (unsigned)e0[c] * 257;
		unsigned c1 = srgb ? (unsigned)e1[c] << 8 | 0x80 : (unsigned)e1[c] * 257;

		out[c] = (uint16_t)((c0 * (64 - w) + c1 * w + 32) / 64);
	}
	return true;
}
