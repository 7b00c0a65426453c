/*
 * tex-model.c: the texture model of tex-model.h -- textures laid out and
 * described for the simulated texture unit, and the reference lookups of
 * GLES 3.0 section 3.8, written from the spec (section and table numbers
 * are the OpenGL ES 3.0.6 specification's):
 *
 *   3.8.9    cube map face selection (table 3.21)
 *   3.8.10   the scale factor rho, lambda and its clamp (eq. 3.17-3.22),
 *            the texel wrap modes (table 3.20), nearest and linear
 *            filtering (eq. 3.23-3.25), the 2D array layer
 *   3.8.10.4 mipmap selection (nearest and linear between levels)
 *   3.8.11   the magnification switch-over point c
 *   3.8.13   completeness (what makes a lookup undefined here)
 *   3.8.16   the depth comparison
 *
 * Where the spec leaves the precision open the answer widens by the
 * tolerances of tex-model.h; where it leaves a discrete choice open (two
 * texels, two levels, two faces) the answer is TEX_AMBIGUOUS and the
 * caller picks other inputs.
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "agx_cmdbuf.h"
#include "tex-model.h"

/* ---- formats ------------------------------------------------------------------- */

enum kind { UNORM, FLOAT, UINT, SINT, DEPTH };

struct format_info {
	const char *name;
	enum kind kind;
	unsigned count, bits; /* channels stored, bits each (r first, from bit 0) */
	unsigned channels;    /* the descriptor's channel layout */
	bool filterable;      /* GLES 3.0 table 3.13 */
};

static const struct format_info formats[TEX_NUM_FORMATS] = {
	[TEX_R8] = { "R8", UNORM, 1, 8, AGX_CMD_CHANNELS_R8, true },
	[TEX_RG8] = { "RG8", UNORM, 2, 8, AGX_CMD_CHANNELS_R8G8, true },
	[TEX_RGBA8] = { "RGBA8", UNORM, 4, 8, AGX_CMD_CHANNELS_R8G8B8A8, true },
	[TEX_R16F] = { "R16F", FLOAT, 1, 16, AGX_CMD_CHANNELS_R16, true },
	[TEX_RGBA16F] = { "RGBA16F", FLOAT, 4, 16, AGX_CMD_CHANNELS_R16G16B16A16, true },
	[TEX_R32F] = { "R32F", FLOAT, 1, 32, AGX_CMD_CHANNELS_R32, false },
	[TEX_RG32F] = { "RG32F", FLOAT, 2, 32, AGX_CMD_CHANNELS_R32G32, false },
	[TEX_RGBA32F] = { "RGBA32F", FLOAT, 4, 32, AGX_CMD_CHANNELS_R32G32B32A32, false },
	[TEX_RGBA8UI] = { "RGBA8UI", UINT, 4, 8, AGX_CMD_CHANNELS_R8G8B8A8, false },
	[TEX_RGBA8I] = { "RGBA8I", SINT, 4, 8, AGX_CMD_CHANNELS_R8G8B8A8, false },
	[TEX_RGBA16UI] = { "RGBA16UI", UINT, 4, 16, AGX_CMD_CHANNELS_R16G16B16A16, false },
	[TEX_RGBA16I] = { "RGBA16I", SINT, 4, 16, AGX_CMD_CHANNELS_R16G16B16A16, false },
	[TEX_R32UI] = { "R32UI", UINT, 1, 32, AGX_CMD_CHANNELS_R32, false },
	[TEX_R32I] = { "R32I", SINT, 1, 32, AGX_CMD_CHANNELS_R32, false },
	[TEX_RG32I] = { "RG32I", SINT, 2, 32, AGX_CMD_CHANNELS_R32G32, false },
	/* depth: filterable only when compared (3.8.13) */
	[TEX_DEPTH16] = { "DEPTH_COMPONENT16", DEPTH, 1, 16, AGX_CMD_CHANNELS_R16, false },
	[TEX_DEPTH32F] = { "DEPTH_COMPONENT32F", DEPTH, 1, 32, AGX_CMD_CHANNELS_R32, false },
};

const char *tex_format_name(enum tex_format f)
{
	return f < TEX_NUM_FORMATS ? formats[f].name : "?";
}

bool tex_format_integer(enum tex_format f)
{
	return formats[f].kind == UINT || formats[f].kind == SINT;
}

bool tex_format_unsigned(enum tex_format f)
{
	return formats[f].kind == UINT;
}

bool tex_format_depth(enum tex_format f)
{
	return formats[f].kind == DEPTH;
}

bool tex_format_filterable(enum tex_format f)
{
	return formats[f].filterable;
}

/* The descriptor's type of a format's channels. */
static unsigned hw_type(const struct format_info *fi)
{
	switch (fi->kind) {
	case UNORM:
		return AGX_CMD_TEXTURE_TYPE_UNORM;
	case UINT:
		return AGX_CMD_TEXTURE_TYPE_UINT;
	case SINT:
		return AGX_CMD_TEXTURE_TYPE_SINT;
	case DEPTH: /* Mesa's asahi formats: Z16 is R16 unorm, Z32F is R32 float */
		return fi->bits == 16 ? AGX_CMD_TEXTURE_TYPE_UNORM : AGX_CMD_TEXTURE_TYPE_FLOAT;
	default:
		return AGX_CMD_TEXTURE_TYPE_FLOAT;
	}
}

/* ---- deterministic contents --------------------------------------------------------- */

static uint64_t mix(uint64_t z)
{
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull; /* splitmix64's finalizer */
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static uint64_t texel_random(uint64_t seed, unsigned level, unsigned layer, unsigned x, unsigned y,
			     unsigned c)
{
	uint64_t h = mix(seed + 0x9e3779b97f4a7c15ull);

	h = mix(h ^ ((uint64_t)level << 56 | (uint64_t)layer << 40 | (uint64_t)y << 20 | x));
	return mix(h + c + 1);
}

static double half_value(uint16_t h)
{
	int e = (h >> 10) & 0x1f;
	double m = h & 0x3ff, v;

	v = e ? ldexp(1024 + m, e - 25) : ldexp(m, -24);
	return h & 0x8000 ? -v : v;
}

/*
 * A channel's stored bits and the value GL reads from them (GLES 3.0
 * section 2.1.6.1 for unorm: c / (2^b - 1)).  Floats have a limited
 * exponent range so that filtered sums stay well inside the format.
 */
static uint32_t make_channel(const struct format_info *fi, uint64_t r, double *value)
{
	uint32_t mask = fi->bits == 32 ? ~0u : (1u << fi->bits) - 1, bits = (uint32_t)r & mask;

	switch (fi->kind) {
	case UNORM:
		*value = bits / (double)mask;
		return bits;
	case DEPTH:
		if (fi->bits == 16) {
			*value = bits / 65535.0;
			return bits;
		} else {
			float f = (float)((r >> 40) * 0x1p-24); /* [0, 1), exactly */

			memcpy(&bits, &f, 4);
			*value = f;
			return bits;
		}
	case UINT:
		*value = bits;
		return bits;
	case SINT:
		*value = fi->bits == 32
			     ? (double)(int32_t)bits
			     : (double)((int32_t)(bits << (32 - fi->bits)) >> (32 - fi->bits));
		return bits;
	default:
		break;
	}
	if ((r >> 60) == 0) {
		*value = 0; /* a zero now and then */
		return 0;
	}
	if (fi->bits == 16) {
		/* sign, exponent 2^-6 .. 2^3, any mantissa */
		uint16_t h =
		    (uint16_t)(((r >> 32) & 0x8000) | ((9 + (r >> 20) % 10) << 10) | (r & 0x3ff));

		*value = half_value(h);
		return h;
	}
	/* f32: sign, exponent 2^-8 .. 2^7 */
	uint32_t f =
	    (uint32_t)(((r >> 32) & 0x80000000u) | ((119 + (r >> 24) % 16) << 23) | (r & 0x7fffff));
	float fv;

	memcpy(&fv, &f, 4);
	*value = fv;
	return f;
}

/* ---- textures ------------------------------------------------------------------------ */

static unsigned layers_of(const struct tex_desc *d, unsigned level)
{
	switch (d->target) {
	case TEX_3D:
		return agx_layout_minify(d->depth, level);
	case TEX_2D_ARRAY:
		return d->depth;
	case TEX_CUBE:
		return 6;
	default:
		return 1;
	}
}

void tex_level_size(const struct tex_texture *t, unsigned level, unsigned size[3])
{
	size[0] = agx_layout_minify(t->desc.width, level);
	size[1] = agx_layout_minify(t->desc.height, level);
	size[2] = t->desc.target == TEX_3D	   ? agx_layout_minify(t->desc.depth, level)
		  : t->desc.target == TEX_2D_ARRAY ? t->desc.depth
						   : 1;
}

/* Levels of the full chain: floor(log2(the largest dimension)) + 1 (3.8.10.4). */
static unsigned full_chain(const struct tex_desc *d)
{
	unsigned max = d->width > d->height ? d->width : d->height, n = 1;

	if (d->target == TEX_3D && d->depth > max)
		max = d->depth;
	while (max >> n)
		n++;
	return n;
}

const double *tex_texel(const struct tex_texture *t, unsigned level, unsigned layer, unsigned x,
			unsigned y)
{
	unsigned w = agx_layout_minify(t->desc.width, level),
		 h = agx_layout_minify(t->desc.height, level);

	return &t->values[t->level_start[level] + 4 * (((size_t)layer * h + y) * w + x)];
}

int tex_texture_init(struct tex_texture *t, const struct tex_desc *desc, uint64_t address,
		     uint64_t seed)
{
	const struct format_info *fi;
	struct agx_cmd_texture d = { 0 };
	size_t nvalues = 0;
	unsigned total_layers;

	memset(t, 0, sizeof(*t));
	t->desc = *desc;
	t->desc.depth = desc->depth ? desc->depth : 1;
	t->desc.levels = desc->levels ? desc->levels : 1;
	if (desc->format >= TEX_NUM_FORMATS || !desc->width || !desc->height || address % 16 ||
	    t->desc.levels > full_chain(&t->desc) ||
	    (desc->target == TEX_CUBE && desc->width != desc->height) ||
	    (desc->linear && (desc->target != TEX_2D || t->desc.levels != 1)))
		return -EINVAL;
	fi = &formats[desc->format];
	t->address = address;

	/* the layout: a mipmapped texture has its whole chain in memory */
	t->layout.twiddled = !desc->linear;
	t->layout.bytes_per_texel = fi->count * fi->bits / 8;
	t->layout.width = desc->width;
	t->layout.height = desc->height;
	t->layout.levels = t->desc.levels > 1 ? full_chain(&t->desc) : 1;
	t->layout.stride = ((uint64_t)desc->width * t->layout.bytes_per_texel + 15) & ~15ull;
	if (!agx_layout_init(&t->layout))
		return -EINVAL;
	total_layers = layers_of(&t->desc, 0);
	t->size = (size_t)(t->layout.layer_stride * total_layers);
	t->data = calloc(1, t->size ? t->size : 1);
	for (unsigned l = 0; l < t->desc.levels; l++) {
		unsigned size[3];

		tex_level_size(t, l, size);
		t->level_start[l] = nvalues;
		nvalues += 4 * (size_t)size[0] * size[1] * layers_of(&t->desc, l);
	}
	t->values = calloc(nvalues ? nvalues : 1, sizeof(double));
	if (!t->data || !t->values)
		return -ENOMEM;

	for (unsigned l = 0; l < t->desc.levels; l++) {
		unsigned size[3];

		tex_level_size(t, l, size);
		for (unsigned z = 0; z < layers_of(&t->desc, l); z++) {
			for (unsigned y = 0; y < size[1]; y++) {
				for (unsigned x = 0; x < size[0]; x++) {
					double *v = (double *)tex_texel(t, l, z, x, y);
					uint8_t *p =
					    t->data + agx_layout_texel(&t->layout, l, z, x, y);

					/* components GL fills in: (0, 0, 1), integer or not */
					v[0] = v[1] = v[2] = 0;
					v[3] = 1;
					for (unsigned c = 0; c < fi->count; c++) {
						uint64_t r = texel_random(seed, l, z, x, y, c);
						uint32_t bits = make_channel(fi, r, &v[c]);

						memcpy(p + c * fi->bits / 8, &bits, fi->bits / 8);
					}
				}
			}
		}
	}

	static const unsigned swizzles[4][4] = {
		{ AGX_CMD_CHANNEL_R, AGX_CMD_CHANNEL_ZERO, AGX_CMD_CHANNEL_ZERO,
		  AGX_CMD_CHANNEL_ONE },
		{ AGX_CMD_CHANNEL_R, AGX_CMD_CHANNEL_G, AGX_CMD_CHANNEL_ZERO, AGX_CMD_CHANNEL_ONE },
		{ 0 },
		{ AGX_CMD_CHANNEL_R, AGX_CMD_CHANNEL_G, AGX_CMD_CHANNEL_B, AGX_CMD_CHANNEL_A },
	};
	static const unsigned dims[] = { [TEX_2D] = AGX_CMD_TEXTURE_DIM_TEX_2D,
					 [TEX_3D] = AGX_CMD_TEXTURE_DIM_TEX_3D,
					 [TEX_CUBE] = AGX_CMD_TEXTURE_DIM_TEX_CUBE,
					 [TEX_2D_ARRAY] = AGX_CMD_TEXTURE_DIM_TEX_2D_ARRAY };
	d.dimension = dims[desc->target];
	d.layout = desc->linear ? AGX_CMD_LAYOUT_LINEAR : AGX_CMD_LAYOUT_TWIDDLED;
	d.channels = fi->channels;
	d.type = hw_type(fi);
	d.swizzle_r = swizzles[fi->count - 1][0];
	d.swizzle_g = swizzles[fi->count - 1][1];
	d.swizzle_b = swizzles[fi->count - 1][2];
	d.swizzle_a = swizzles[fi->count - 1][3];
	d.width = desc->width;
	d.height = desc->height;
	d.first_level = 0;
	d.last_level = t->desc.levels - 1;
	d.address = address;
	d.unk_mipmapped = t->desc.levels > 1;
	/* linear: the row stride; otherwise the layers (cubes) */
	if (desc->linear)
		d.stride = t->layout.stride;
	else
		d.depth = desc->target == TEX_CUBE || desc->target == TEX_2D ? 1 : t->desc.depth;
	if (!agx_cmd_texture_fits(&d))
		return -EINVAL;
	agx_cmd_texture_pack(t->descriptor, &d);
	return 0;
}

void tex_texture_finish(struct tex_texture *t)
{
	free(t->data);
	free(t->values);
	t->data = NULL;
	t->values = NULL;
}

bool tex_sampler_pack(const struct tex_sampler *s, uint8_t out[24])
{
	static const unsigned wraps[] = { [TEX_REPEAT] = AGX_CMD_WRAP_REPEAT,
					  [TEX_CLAMP_TO_EDGE] = AGX_CMD_WRAP_CLAMP_TO_EDGE,
					  [TEX_MIRRORED_REPEAT] = AGX_CMD_WRAP_MIRRORED_REPEAT };
	static const unsigned funcs[] = {
		[TEX_LEQUAL] = AGX_CMD_COMPARE_FUNC_LEQUAL,
		[TEX_GEQUAL] = AGX_CMD_COMPARE_FUNC_GEQUAL,
		[TEX_LESS] = AGX_CMD_COMPARE_FUNC_LESS,
		[TEX_GREATER] = AGX_CMD_COMPARE_FUNC_GREATER,
		[TEX_EQUAL] = AGX_CMD_COMPARE_FUNC_EQUAL,
		[TEX_NOTEQUAL] = AGX_CMD_COMPARE_FUNC_NOT_EQUAL,
		[TEX_ALWAYS] = AGX_CMD_COMPARE_FUNC_ALWAYS,
		[TEX_NEVER] = AGX_CMD_COMPARE_FUNC_NEVER,
	};
	double max = s->max_lod > 0 ? s->max_lod : 15.0;
	struct agx_cmd_sampler d = {
		AGX_CMD_SAMPLER_DEFAULTS,
		/* unsigned 4.6 fixed point (cmdbuf.hw): GL's default min of -1000 behaves as 0,
		 * lambda <= 0 magnifying either way */
		.min_lod = (uint64_t)lround(fmax(s->min_lod, 0) * 64),
		.max_lod = (uint64_t)lround(fmin(max, 15.0) * 64),
		.magnify = s->mag == TEX_LINEAR ? AGX_CMD_FILTER_LINEAR : AGX_CMD_FILTER_NEAREST,
		.minify = s->min == TEX_LINEAR ? AGX_CMD_FILTER_LINEAR : AGX_CMD_FILTER_NEAREST,
		.mip_filter = s->mip == TEX_MIP_LINEAR	  ? AGX_CMD_MIP_FILTER_LINEAR
			      : s->mip == TEX_MIP_NEAREST ? AGX_CMD_MIP_FILTER_NEAREST
							  : AGX_CMD_MIP_FILTER_NONE,
		.wrap_s = wraps[s->wrap_s],
		.wrap_t = wraps[s->wrap_t],
		.wrap_r = wraps[s->wrap_r],
		.compare_func = funcs[s->func],
		.compare_enable = s->compare,
		.border = AGX_CMD_BORDER_TRANSPARENT_BLACK,
	};

	memset(out, 0, 24);
	agx_cmd_sampler_pack(out, &d);
	return true;
}

/* ---- lookups ------------------------------------------------------------------------- */

struct lookup {
	const struct tex_texture *t;
	const struct tex_sampler *s;
	const struct tex_query *q;
	enum tex_target target;
	double st[3];	  /* normalized coordinates: a cube's on its face */
	unsigned layer;	  /* a 2D array's, a cube's face */
	double dst[3][2]; /* d/dx, d/dy of st (cube: on the face) */
	char *why;
	size_t whysize;
	bool ambiguous;
};

static void say(struct lookup *lk, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void say(struct lookup *lk, const char *fmt, ...)
{
	va_list ap;

	if (!lk->why || !lk->whysize)
		return;
	va_start(ap, fmt);
	vsnprintf(lk->why, lk->whysize, fmt, ap);
	va_end(ap);
}

static int64_t mod_floor(int64_t a, int64_t n)
{
	return ((a % n) + n) % n;
}

/* Table 3.20: a texel coordinate wrapped into [0, size). */
static int64_t wrap(enum tex_wrap w, int64_t i, int64_t size)
{
	int64_t m;

	switch (w) {
	case TEX_REPEAT:
		return mod_floor(i, size);
	case TEX_MIRRORED_REPEAT:
		/* (size - 1) - mirror((i mod 2size) - size), mirror(a) = a >= 0 ? a : -(1 + a) */
		m = mod_floor(i, 2 * size) - size;
		return (size - 1) - (m >= 0 ? m : -(1 + m));
	default:
		return i < 0 ? 0 : i >= size ? size - 1 : i;
	}
}

/* One level's filtered value: [lo, hi] (comparisons may disagree), tol, and the exact pt. */
struct sample {
	double lo[4], hi[4], tol[4], pt[4];
	bool mixed;
};

static bool compare_pass(enum tex_compare f, double ref, double d)
{
	switch (f) {
	case TEX_LEQUAL:
		return ref <= d;
	case TEX_GEQUAL:
		return ref >= d;
	case TEX_LESS:
		return ref < d;
	case TEX_GREATER:
		return ref > d;
	case TEX_EQUAL:
		return ref == d;
	case TEX_NOTEQUAL:
		return ref != d;
	case TEX_ALWAYS:
		return true;
	default:
		return false;
	}
}

/* Filters level `level` with `filter` (eq. 3.23-3.25; 3.8.16 for comparisons). */
static void sample_level(struct lookup *lk, unsigned level, enum tex_filter filter,
			 struct sample *out)
{
	const struct tex_texture *t = lk->t;
	const struct tex_sampler *s = lk->s;
	const struct tex_query *q = lk->q;
	bool is3d = lk->target == TEX_3D, cube = lk->target == TEX_CUBE;
	unsigned dims = is3d ? 3 : 2, taps = filter == TEX_LINEAR ? 2 : 1, size[3];
	const enum tex_wrap wraps[3] = { s->wrap_s, s->wrap_t, s->wrap_r };
	int64_t base[3] = { 0 }, at[3][2] = { { 0 } };
	double alpha[3] = { 0 }, delta[3] = { 0 };
	double ref = q->reference;

	tex_level_size(t, level, size);
	for (unsigned k = 0; k < dims; k++) {
		double u = lk->st[k] * size[k] + (cube ? 0 : q->offset[k]);
		/* the coordinate's own error: a few ULPs of an f32 from the shader */
		double cerr = size[k] * 0x1p-21 * fmax(fabs(lk->st[k]), 1.0);

		delta[k] = TEX_WEIGHT_ERROR + cerr;
		if (filter == TEX_NEAREST) {
			int64_t a = (int64_t)floor(u - TEX_TEXEL_MARGIN),
				b = (int64_t)floor(u + TEX_TEXEL_MARGIN);

			base[k] = (int64_t)floor(u);
			at[k][0] = cube ? wrap(TEX_CLAMP_TO_EDGE, base[k], size[k])
					: wrap(wraps[k], base[k], size[k]);
			if ((cube ? wrap(TEX_CLAMP_TO_EDGE, a, size[k]) !=
					wrap(TEX_CLAMP_TO_EDGE, b, size[k])
				  : wrap(wraps[k], a, size[k]) != wrap(wraps[k], b, size[k])) &&
			    !lk->ambiguous) {
				lk->ambiguous = true;
				say(lk,
				    "coordinate %c at %.4f texels of level %u is on a texel edge",
				    "str"[k], u, level);
			}
		} else {
			u -= 0.5;
			base[k] = (int64_t)floor(u);
			alpha[k] = u - floor(u);
			for (unsigned b = 0; b < 2; b++)
				at[k][b] = cube ? wrap(TEX_CLAMP_TO_EDGE, base[k] + b, size[k])
						: wrap(wraps[k], base[k] + b, size[k]);
			/* seamless cube filtering takes such taps from the next face: left out */
			if (cube && (base[k] < 0 || base[k] + 1 >= size[k]) && !lk->ambiguous) {
				lk->ambiguous = true;
				say(lk, "a bilinear tap past the edge of cube face %u", lk->layer);
			}
		}
	}
	if (q->compare && formats[t->desc.format].bits == 16)
		ref = fmin(fmax(ref, 0.0), 1.0); /* fixed-point depth: D_ref clamped (3.8.16) */

	double tmin[4], tmax[4];
	bool first = true;

	for (int c = 0; c < 4; c++)
		out->pt[c] = 0;
	for (unsigned n = 0; n < (is3d ? taps : 1) * taps * taps; n++) {
		unsigned bit[3] = { n % taps, n / taps % taps, n / (taps * taps) };
		double w = 1, v[4];
		unsigned layer = is3d ? (unsigned)at[2][bit[2]] : lk->layer;
		const double *texel;

		for (unsigned k = 0; k < dims; k++)
			if (taps == 2)
				w *= bit[k] ? alpha[k] : 1 - alpha[k];
		texel =
		    tex_texel(t, level, layer, (unsigned)at[0][bit[0]], (unsigned)at[1][bit[1]]);
		memcpy(v, texel, sizeof(v));
		if (q->compare) {
			if (fabs(ref - v[0]) < TEX_DEPTH_MARGIN && s->func != TEX_ALWAYS &&
			    s->func != TEX_NEVER && !lk->ambiguous) {
				lk->ambiguous = true;
				say(lk, "the reference %.6f is within %g of the depth %.6f", ref,
				    TEX_DEPTH_MARGIN, v[0]);
			}
			v[0] = compare_pass(s->func, ref, v[0]) ? 1 : 0;
			v[1] = v[2] = 0;
			v[3] = 1;
		}
		for (int c = 0; c < 4; c++) {
			out->pt[c] += w * v[c];
			tmin[c] = first || v[c] < tmin[c] ? v[c] : tmin[c];
			tmax[c] = first || v[c] > tmax[c] ? v[c] : tmax[c];
		}
		first = false;
	}
	out->mixed = false;
	for (int c = 0; c < 4; c++) {
		if (q->compare) {
			/* filtered comparisons: "a value in [0, 1] proportional to the number of
			 * passes" (3.8.16): anything between the taps' results */
			out->lo[c] = tmin[c];
			out->hi[c] = tmax[c];
			out->tol[c] = 0;
			out->mixed |= tmin[c] != tmax[c];
			continue;
		}
		out->lo[c] = out->hi[c] = out->pt[c];
		out->tol[c] = TEX_VALUE_ERROR * fmax(fabs(tmin[c]), fabs(tmax[c]));
		if (taps == 2)
			for (unsigned k = 0; k < dims; k++)
				out->tol[c] += delta[k] * (tmax[c] - tmin[c]);
	}
}

/* What decides the result discontinuously at a lambda: the filter, and a nearest mip's level. */
struct mode {
	enum tex_filter filter;
	int level; /* -1: a linear blend of levels (continuous) */
};

/* Mipmapping at lambda (3.8.10.4, 3.8.11): the sample and its mode. */
static void sample_lambda(struct lookup *lk, double lambda, struct sample *out, struct mode *m)
{
	const struct tex_sampler *s = lk->s;
	int top = (int)lk->t->desc.levels - 1;
	/* 3.8.11: c = 0.5 for a LINEAR magnification with a NEAREST_MIPMAP_* minification */
	double c =
	    s->mag == TEX_LINEAR && s->min == TEX_NEAREST && s->mip != TEX_MIP_NONE ? 0.5 : 0;

	if (lambda <= c) {
		m->filter = s->mag;
		m->level = s->mip == TEX_MIP_LINEAR ? -1 : 0;
		sample_level(lk, 0, s->mag, out);
		return;
	}
	m->filter = s->min;
	if (s->mip == TEX_MIP_NONE) {
		m->level = 0;
		sample_level(lk, 0, s->min, out);
	} else if (s->mip == TEX_MIP_NEAREST) {
		int d = lambda <= 0.5 ? 0 : (int)ceil(lambda + 0.5) - 1;

		m->level = d > top ? top : d;
		sample_level(lk, (unsigned)m->level, s->min, out);
	} else {
		int d1 = (int)floor(lambda);
		double f = lambda - floor(lambda);
		struct sample a, b;

		m->level = -1;
		if (d1 >= top) {
			sample_level(lk, (unsigned)top, s->min, out);
			return;
		}
		sample_level(lk, (unsigned)d1, s->min, &a);
		sample_level(lk, (unsigned)d1 + 1, s->min, &b);
		out->mixed = a.mixed || b.mixed;
		for (int k = 0; k < 4; k++) {
			out->lo[k] = (1 - f) * a.lo[k] + f * b.lo[k];
			out->hi[k] = (1 - f) * a.hi[k] + f * b.hi[k];
			out->pt[k] = (1 - f) * a.pt[k] + f * b.pt[k];
			/* the blend weight's error, as a filter weight's */
			out->tol[k] = (1 - f) * a.tol[k] + f * b.tol[k] +
				      TEX_WEIGHT_ERROR * fabs(a.pt[k] - b.pt[k]);
		}
	}
}

/*
 * Cube face selection (table 3.21): the face, s and t on it, and their
 * derivatives from the direction's.  false on a tie of two major axes.
 */
static bool cube_select(struct lookup *lk)
{
	const struct tex_query *q = lk->q;
	double r[3] = { q->coord[0], q->coord[1], q->coord[2] };
	double a[3] = { fabs(r[0]), fabs(r[1]), fabs(r[2]) };
	unsigned major = a[0] >= a[1] && a[0] >= a[2] ? 0 : a[1] >= a[2] ? 1 : 2;
	unsigned face = 2 * major + (r[major] < 0);
	/* sc and tc: which component, and its sign, per face */
	static const int sc[6][2] = {
		{ 2, -1 }, { 2, 1 }, { 0, 1 }, { 0, 1 }, { 0, 1 }, { 0, -1 }
	};
	static const int tc[6][2] = { { 1, -1 }, { 1, -1 }, { 2, 1 },
				      { 2, -1 }, { 1, -1 }, { 1, -1 } };
	double ma = a[major];

	for (unsigned k = 0; k < 3; k++) {
		if (k != major && a[k] >= ma * (1 - TEX_FACE_MARGIN)) {
			say(lk, "the direction (%g, %g, %g) is on the edge of two faces", r[0],
			    r[1], r[2]);
			return false;
		}
	}
	if (ma == 0) {
		say(lk, "a zero direction");
		return false;
	}
	lk->layer = face;
	double vs = sc[face][1] * r[sc[face][0]], vt = tc[face][1] * r[tc[face][0]];
	lk->st[0] = (vs / ma + 1) / 2;
	lk->st[1] = (vt / ma + 1) / 2;
	for (unsigned k = 0; k < 2; k++) {
		const double *d = k ? q->dpdy : q->dpdx;
		double dma = (r[major] < 0 ? -1 : 1) * d[major];
		double dvs = sc[face][1] * d[sc[face][0]], dvt = tc[face][1] * d[tc[face][0]];

		/* d/dx of (v / |ma| + 1) / 2 */
		lk->dst[0][k] = (dvs * ma - vs * dma) / (2 * ma * ma);
		lk->dst[1][k] = (dvt * ma - vt * dma) / (2 * ma * ma);
	}
	return true;
}

static enum tex_status fetch(const struct tex_texture *t, const struct tex_query *q,
			     struct tex_answer *a, struct lookup *lk)
{
	unsigned size[3];
	int x = q->icoord[0] + q->offset[0], y = q->icoord[1] + q->offset[1], z = q->icoord[2];

	if (t->desc.target == TEX_CUBE) {
		say(lk, "texelFetch of a cube map");
		return TEX_UNDEFINED;
	}
	if (q->level < 0 || q->level >= (int)t->desc.levels) {
		say(lk, "texelFetch of level %d of %u", q->level, t->desc.levels);
		return TEX_UNDEFINED;
	}
	tex_level_size(t, (unsigned)q->level, size);
	if (t->desc.target == TEX_3D)
		z += q->offset[2];
	if (t->desc.target == TEX_2D)
		z = 0;
	if (x < 0 || y < 0 || z < 0 || x >= (int)size[0] || y >= (int)size[1] ||
	    z >= (int)size[2]) {
		say(lk, "texelFetch at (%d, %d, %d) outside level %d's %ux%ux%u", x, y, z, q->level,
		    size[0], size[1], size[2]);
		return TEX_UNDEFINED;
	}
	const double *v = tex_texel(t, (unsigned)q->level, (unsigned)z, (unsigned)x, (unsigned)y);
	for (int c = 0; c < 4; c++) {
		a->lo[c] = a->hi[c] = a->point[c] = v[c];
		a->tol[c] = TEX_VALUE_ERROR * fabs(v[c]);
		a->ivalue[c] = (uint32_t)(int64_t)v[c];
	}
	return TEX_OK;
}

enum tex_status tex_model_query(const struct tex_texture *t, const struct tex_sampler *s,
				const struct tex_query *q, struct tex_answer *a, char *why,
				size_t whysize)
{
	struct lookup lk = {
		.t = t, .s = s, .q = q, .target = t->desc.target, .why = why, .whysize = whysize
	};
	const struct format_info *fi = &formats[t->desc.format];

	memset(a, 0, sizeof(*a));
	a->integer = fi->kind == UINT || fi->kind == SINT;
	if (why && whysize)
		why[0] = '\0';
	if (q->kind == TEX_SIZE) {
		unsigned size[3];

		if (q->level < 0 || q->level >= (int)t->desc.levels) {
			say(&lk, "textureSize of level %d of %u", q->level, t->desc.levels);
			return TEX_UNDEFINED;
		}
		tex_level_size(t, (unsigned)q->level, size);
		a->integer = true;
		for (int c = 0; c < 3; c++)
			a->ivalue[c] = size[c], a->lo[c] = a->hi[c] = a->point[c] = size[c];
		return TEX_OK;
	}
	if (q->kind == TEX_FETCH)
		return fetch(t, q, a, &lk);

	/* 3.8.13: what makes the texture incomplete, the lookup undefined */
	bool any_linear = s->mag == TEX_LINEAR || s->min == TEX_LINEAR || s->mip == TEX_MIP_LINEAR;
	if (any_linear && !fi->filterable && !(fi->kind == DEPTH && q->compare)) {
		say(&lk, "%s is not filterable: LINEAR makes the texture incomplete", fi->name);
		return TEX_UNDEFINED;
	}
	if (q->compare != s->compare || (q->compare && fi->kind != DEPTH)) {
		say(&lk, "a shadow lookup needs a depth texture compared by its sampler");
		return TEX_UNDEFINED;
	}

	/* coordinates, the layer or face, the derivatives */
	double scale[3];
	unsigned size0[3], dims = lk.target == TEX_3D ? 3 : 2;

	tex_level_size(t, 0, size0);
	for (unsigned k = 0; k < 3; k++) {
		lk.st[k] = q->coord[k];
		lk.dst[k][0] = q->dpdx[k];
		lk.dst[k][1] = q->dpdy[k];
		scale[k] = size0[k];
	}
	if (lk.target == TEX_CUBE && !cube_select(&lk))
		return TEX_AMBIGUOUS;
	if (lk.target == TEX_2D_ARRAY) {
		/* the layer: clamp(floor(r + 0.5), 0, d - 1) */
		double l = q->layer + 0.5;
		int d = (int)t->desc.depth;
		int la = (int)fmin(fmax(floor(l - TEX_TEXEL_MARGIN), 0), d - 1);
		int lb = (int)fmin(fmax(floor(l + TEX_TEXEL_MARGIN), 0), d - 1);

		if (la != lb) {
			say(&lk, "the layer %.4f is halfway between two", q->layer);
			return TEX_AMBIGUOUS;
		}
		lk.layer = (unsigned)la;
	}

	/* lambda: the LOD given, or from the gradients (eq. 3.18-3.22) */
	double lam_lo, lam_hi, lam_pt;
	if (q->grad) {
		double rx = 0, ry = 0, msum = 0, mmax = 0;

		for (unsigned k = 0; k < dims; k++) {
			double ux = lk.dst[k][0] * scale[k], uy = lk.dst[k][1] * scale[k];
			double m = fmax(fabs(ux), fabs(uy));

			rx += ux * ux;
			ry += uy * uy;
			msum += m;
			mmax = fmax(mmax, m);
		}
		/* the ideal rho, and the bounds an implementation's f(x, y) must keep:
		 * max(m_u, m_v, m_w) <= f <= m_u + m_v + m_w */
		lam_pt = log2(fmax(sqrt(fmax(rx, ry)), 0x1p-100));
		lam_lo = log2(fmax(mmax, 0x1p-100));
		lam_hi = log2(fmax(msum, 0x1p-100));
	} else {
		lam_pt = lam_lo = lam_hi = q->lod;
	}
	double min_lod = s->min_lod, max_lod = s->max_lod > 0 ? s->max_lod : 15.0;
	lam_lo = fmin(fmax(lam_lo - TEX_LOD_ERROR, min_lod), max_lod);
	lam_hi = fmin(fmax(lam_hi + TEX_LOD_ERROR, min_lod), max_lod);
	lam_pt = fmin(fmax(lam_pt, min_lod), max_lod);

	/* where the result may jump: c, the nearest mip's half levels; and the blend's kinks */
	double points[64];
	unsigned n = 0;
	double c =
	    s->mag == TEX_LINEAR && s->min == TEX_NEAREST && s->mip != TEX_MIP_NONE ? 0.5 : 0;

	points[n++] = lam_lo;
	points[n++] = lam_hi;
	if (c > lam_lo && c < lam_hi)
		points[n++] = c, points[n++] = c + 1e-9;
	for (int k = (int)ceil(lam_lo); k <= (int)floor(lam_hi) && k < 16 && n + 4 < 64; k++) {
		if (k > lam_lo && k < lam_hi)
			points[n++] = k;
		if (k + 0.5 > lam_lo && k + 0.5 < lam_hi)
			points[n++] = k + 0.5, points[n++] = k + 0.5 + 1e-9;
	}

	struct sample sm, pt;
	struct mode m0, m;
	for (unsigned i = 0; i < n; i++) {
		sample_lambda(&lk, points[i], &sm, &m);
		if (lk.ambiguous)
			return TEX_AMBIGUOUS;
		if (i == 0)
			m0 = m;
		if (m.filter != m0.filter || m.level != m0.level) {
			say(&lk, "lambda in [%.4f, %.4f] picks different filters or levels", lam_lo,
			    lam_hi);
			return TEX_AMBIGUOUS;
		}
		a->mixed |= sm.mixed;
		for (int k = 0; k < 4; k++) {
			a->lo[k] = i == 0 || sm.lo[k] < a->lo[k] ? sm.lo[k] : a->lo[k];
			a->hi[k] = i == 0 || sm.hi[k] > a->hi[k] ? sm.hi[k] : a->hi[k];
			a->tol[k] = i == 0 || sm.tol[k] > a->tol[k] ? sm.tol[k] : a->tol[k];
		}
	}
	sample_lambda(&lk, lam_pt, &pt, &m);
	if (lk.ambiguous)
		return TEX_AMBIGUOUS;
	for (int k = 0; k < 4; k++) {
		a->point[k] = pt.pt[k];
		a->ivalue[k] = (uint32_t)(int64_t)pt.pt[k];
	}
	return TEX_OK;
}
