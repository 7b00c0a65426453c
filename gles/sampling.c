/*
 * sampling.c: textures and samplers of a draw (sampling.h).
 *
 * The texture unit reads a mip chain from one image, while a mutable
 * texture's levels are specified one by one, each into an image of its
 * own (texture.c).  So the first draw that samples more than one level of
 * a mutable texture moves them into one image holding the chain (as
 * Mesa's drivers validate a miptree), and the levels point into it from
 * then on; a level specified again later gets an image of its own, and
 * the next such draw makes the chain again.  One level needs no chain:
 * the descriptor starts at the level's place in its image, which for an
 * EGLImage target (texture.c) is another texture's level.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "context.h"
#include "extensions.h"
#include "objects.h"
#include "program.h"
#include "sampling.h"
#include "submit.h"

/* The sampler kinds an incomplete texture stands in for: float, int, uint. */
enum { KIND_FLOAT, KIND_SINT, KIND_UINT, KINDS };

struct gles_sampling {
	bool ready;
	struct agx_bo bo; /* 1x1 texels of (0, 0, 0, 1) of each kind, six layers */
	uint64_t va;
	struct agx_layout layout;
};

/* objects->textures[unit][i]: 0 2D, 1 3D, 2 2D array, 3 cube */
static unsigned target_index(const char *type, enum agx_image_dim *dim)
{
	if (strstr(type, "Cube")) {
		*dim = AGX_IMAGE_CUBE;
		return 3;
	}
	if (strstr(type, "2DArray")) {
		*dim = AGX_IMAGE_2D_ARRAY;
		return 2;
	}
	if (strstr(type, "3D")) {
		*dim = AGX_IMAGE_3D;
		return 1;
	}
	*dim = AGX_IMAGE_2D;
	return 0;
}

static unsigned sampler_kind(const char *type)
{
	return type[0] == 'i' ? KIND_SINT : type[0] == 'u' ? KIND_UINT : KIND_FLOAT;
}

static bool mipmapped(GLenum min_filter)
{
	return min_filter != GL_NEAREST && min_filter != GL_LINEAR;
}

static unsigned log2_floor(unsigned x)
{
	unsigned n = 0;

	while (x >>= 1)
		n++;
	return n;
}

/*
 * Section 3.8.13: whether the texture is complete with this sampling
 * state, and the levels the texture unit reads: [*first, *last].
 */
static bool complete(const struct gles_texture *t, const struct gles_sampler_state *s,
		     unsigned *first, unsigned *last)
{
	unsigned faces = t->target == GL_TEXTURE_CUBE_MAP ? 6 : 1, base, max, q;
	const struct gles_texture_level *b;
	const struct gles_format *f;

	if (t->immutable) {
		/* section 3.8.9: the levels clamped to what the storage has */
		base = (unsigned)t->base_level < t->immutable_levels - 1 ? (unsigned)t->base_level
									 : t->immutable_levels - 1;
		max = (unsigned)t->max_level < t->immutable_levels - 1 ? (unsigned)t->max_level
								       : t->immutable_levels - 1;
		max = max < base ? base : max;
	} else {
		if ((unsigned)t->base_level >= GLES_MAX_TEXTURE_LEVELS ||
		    t->base_level > t->max_level)
			return false;
		base = (unsigned)t->base_level;
		max = (unsigned)t->max_level < GLES_MAX_TEXTURE_LEVELS - 1
			  ? (unsigned)t->max_level
			  : GLES_MAX_TEXTURE_LEVELS - 1;
	}
	b = &t->levels[0][base];
	f = b->format;
	if (!f || !b->width || !b->height || !b->depth || !b->image || !b->image->bo.size)
		return false;
	q = base + log2_floor(b->width > b->height ? b->width : b->height);
	if (t->target == GL_TEXTURE_3D && base + log2_floor(b->depth) > q)
		q = base + log2_floor(b->depth);
	*first = base;
	*last = mipmapped(s->min_filter) ? (q < max ? q : max) : base;
	for (unsigned face = 0; face < faces; face++) {
		for (unsigned l = base; l <= *last; l++) {
			const struct gles_texture_level *x = &t->levels[face][l];
			unsigned k = l - base;

			if (!x->format || x->internalformat != b->internalformat || !x->image ||
			    x->width != agx_layout_minify(b->width, k) ||
			    x->height != agx_layout_minify(b->height, k) ||
			    x->depth != (t->target == GL_TEXTURE_3D ? agx_layout_minify(b->depth, k)
								    : b->depth))
				return false;
		}
	}
	/* filtering a format that cannot be filtered: not complete (section 3.8.13) */
	if (!(f->flags & GLES_FORMAT_FILTERABLE) ||
	    ((f->base == GL_DEPTH_COMPONENT || f->base == GL_DEPTH_STENCIL) &&
	     s->compare_mode == GL_NONE)) {
		if (s->mag_filter != GL_NEAREST ||
		    (s->min_filter != GL_NEAREST && s->min_filter != GL_NEAREST_MIPMAP_NEAREST))
			return false;
	}
	return true;
}

/*
 * Makes the levels [first, last] of every face one image (the chain), if
 * they are not: 0, or -ENOMEM.
 */
static int chain(struct gles_texture *t, unsigned first, unsigned last)
{
	unsigned faces = t->target == GL_TEXTURE_CUBE_MAP ? 6 : 1;
	const struct gles_texture_level *b = &t->levels[0][first];
	struct gles_image *img, *old[6 * GLES_MAX_TEXTURE_LEVELS];
	unsigned n_old = 0, layers = faces == 6 ? 6 : b->depth;
	bool one = true;
	int ret;

	/* one level needs no chain: the descriptor starts at the level's place in its image */
	if (first == last)
		return 0;
	for (unsigned face = 0; face < faces; face++)
		for (unsigned l = first; l <= last; l++) {
			const struct gles_texture_level *x = &t->levels[face][l];

			one &= x->image == b->image && x->image_level == l &&
			       x->image_layer == (faces == 6 ? face : 0);
		}
	if (one || t->immutable)
		return 0;
	if (!(img = calloc(1, sizeof(*img))))
		return -ENOMEM;
	/* the chain from level 0 (its size from the base level's), so levels keep their numbers */
	ret = gles_image_init(img, t->dev, b->format->internalformat, b->format->hw,
			      b->width << first, b->height << first,
			      t->target == GL_TEXTURE_3D ? b->depth << first : layers, last + 1, 0,
			      true);
	if (ret < 0) {
		free(img);
		return ret;
	}
	for (unsigned face = 0; face < faces; face++) {
		for (unsigned l = first; l <= last; l++) {
			struct gles_texture_level *x = &t->levels[face][l];
			const struct agx_layout *sl = &x->image->layout;
			unsigned bw = sl->block_w > 1 ? sl->block_w : 1;
			unsigned bh = sl->block_h > 1 ? sl->block_h : 1;
			bool seen = false;

			/* draws may have rendered into the level: they run first */
			gles_submit_cpu_access(x->image->dev, &x->image->bo);
			for (unsigned z = 0; z < (faces == 6 ? 1 : x->depth); z++)
				for (unsigned y = 0; y < (x->height + bh - 1) / bh; y++)
					for (unsigned e = 0; e < (x->width + bw - 1) / bw; e++)
						memcpy(gles_image_texel(
							   img, l, faces == 6 ? face : z, e, y),
						       gles_image_texel(x->image, x->image_level,
									x->image_layer + z, e, y),
						       sl->bytes_per_texel);
			for (unsigned i = 0; i < n_old; i++)
				seen |= old[i] == x->image;
			if (!seen && x->image != t->storage)
				old[n_old++] = x->image;
			x->image = img;
			x->image_level = l;
			x->image_layer = faces == 6 ? face : 0;
			/* its texels moved: it shares no storage with an EGLImage any more */
			x->egl_sibling = false;
		}
	}
	/* the images no level points into any more */
	for (unsigned i = 0; i < n_old; i++) {
		bool used = false;

		for (unsigned face = 0; face < 6; face++)
			for (unsigned l = 0; l < GLES_MAX_TEXTURE_LEVELS; l++)
				used |= t->levels[face][l].image == old[i];
		if (!used && old[i] != t->storage)
			gles_image_unref(old[i]);
	}
	/* the texture owns the chain as it owns immutable storage (freed when it goes) */
	if (t->storage && !t->immutable) {
		bool used = false;

		for (unsigned face = 0; face < 6; face++)
			for (unsigned l = 0; l < GLES_MAX_TEXTURE_LEVELS; l++)
				used |= t->levels[face][l].image == t->storage;
		if (!used)
			gles_image_unref(t->storage);
	}
	t->storage = img;
	return 0;
}

/*
 * A mipmap-complete texture's levels [*first, *last] as a mipmapped
 * filter reads them, whatever its own filters: what EGL calls a complete
 * texture when it makes an EGLImage of one of its levels.
 */
static bool mipmap_complete(const struct gles_texture *t, unsigned *first, unsigned *last)
{
	struct gles_sampler_state s;

	gles_sampler_state_init(&s);
	s.min_filter = GL_NEAREST_MIPMAP_NEAREST;
	s.mag_filter = GL_NEAREST;
	return complete(t, &s, first, last);
}

bool gles_texture_mipmap_complete(const struct gles_texture *t)
{
	unsigned first, last;

	return mipmap_complete(t, &first, &last);
}

int gles_texture_chain(struct gles_texture *t)
{
	unsigned first, last;

	return mipmap_complete(t, &first, &last) ? chain(t, first, last) : 0;
}

bool gles_sampling_level_readable(const struct gles_image *img, unsigned level)
{
	uint8_t tex[AGX_TEXTURE_LENGTH];
	struct agx_image image = {
		.format = img->format, .dim = AGX_IMAGE_2D, .layout = &img->layout, .depth = 1
	};

	return agx_texture_descriptor(tex, &image, level, level, NULL);
}

/* The unit's sampler object's state, or the texture's own (section 3.8.2). */
static const struct gles_sampler_state *sampler_of(const struct gles_objects *o,
						   const struct gles_texture *t, GLint unit)
{
	return o->samplers[unit] ? &o->samplers[unit]->state : &t->sampler;
}

static int dummy_ready(struct gles_context *ctx, struct gles_sampling *d)
{
	static const uint8_t texel[KINDS][4] = { { 0, 0, 0, 255 }, { 0, 0, 0, 1 }, { 0, 0, 0, 1 } };
	int ret;

	if (d->ready)
		return 0;
	d->layout = (struct agx_layout){ .twiddled = true,
					 .bytes_per_texel = 4,
					 .block_w = 1,
					 .block_h = 1,
					 .width = 1,
					 .height = 1,
					 .levels = 1 };
	if (!agx_layout_init(&d->layout))
		return -EINVAL;
	if ((ret = gles_submit_bo(ctx, KINDS * 6 * d->layout.layer_stride, AGX_BIND_READ, &d->bo,
				  &d->va)) < 0)
		return ret;
	for (unsigned k = 0; k < KINDS; k++)
		for (unsigned layer = 0; layer < 6; layer++)
			memcpy((uint8_t *)d->bo.map + (k * 6 + layer) * d->layout.layer_stride,
			       texel[k], 4);
	d->ready = true;
	return 0;
}

static const enum agx_format dummy_format[KINDS] = {
	AGX_FORMAT_R8G8B8A8_UNORM,
	AGX_FORMAT_R8G8B8A8_SINT,
	AGX_FORMAT_R8G8B8A8_UINT,
};

static uint8_t swizzle_of(GLenum s, unsigned own)
{
	switch (s) {
	case GL_RED:
		return 0;
	case GL_GREEN:
		return 1;
	case GL_BLUE:
		return 2;
	case GL_ALPHA:
		return 3;
	case GL_ZERO:
		return AGX_FORMAT_SWIZZLE_0;
	case GL_ONE:
		return AGX_FORMAT_SWIZZLE_1;
	default:
		return (uint8_t)own;
	}
}

static enum agx_wrap wrap_of(GLenum w)
{
	return w == GL_CLAMP_TO_EDGE	 ? AGX_WRAP_CLAMP_TO_EDGE
	       : w == GL_MIRRORED_REPEAT ? AGX_WRAP_MIRRORED_REPEAT
					 : AGX_WRAP_REPEAT;
}

static unsigned compare_of(GLenum f)
{
	switch (f) {
	case GL_LEQUAL:
		return AGX_CMD_COMPARE_FUNC_LEQUAL;
	case GL_GEQUAL:
		return AGX_CMD_COMPARE_FUNC_GEQUAL;
	case GL_LESS:
		return AGX_CMD_COMPARE_FUNC_LESS;
	case GL_GREATER:
		return AGX_CMD_COMPARE_FUNC_GREATER;
	case GL_EQUAL:
		return AGX_CMD_COMPARE_FUNC_EQUAL;
	case GL_NOTEQUAL:
		return AGX_CMD_COMPARE_FUNC_NOT_EQUAL;
	case GL_ALWAYS:
		return AGX_CMD_COMPARE_FUNC_ALWAYS;
	default:
		return AGX_CMD_COMPARE_FUNC_NEVER;
	}
}

static void sampler_word(const struct gles_sampler_state *s, uint8_t out[AGX_SAMPLER_LENGTH])
{
	struct agx_sampler a = {
		.mag = s->mag_filter == GL_LINEAR ? AGX_FILTER_LINEAR : AGX_FILTER_NEAREST,
		.min = s->min_filter == GL_LINEAR || s->min_filter == GL_LINEAR_MIPMAP_NEAREST ||
			       s->min_filter == GL_LINEAR_MIPMAP_LINEAR
			   ? AGX_FILTER_LINEAR
			   : AGX_FILTER_NEAREST,
		.mip = !mipmapped(s->min_filter) ? AGX_MIP_NONE
		       : s->min_filter == GL_NEAREST_MIPMAP_LINEAR ||
			       s->min_filter == GL_LINEAR_MIPMAP_LINEAR
			   ? AGX_MIP_LINEAR
			   : AGX_MIP_NEAREST,
		.wrap = { wrap_of(s->wrap_s), wrap_of(s->wrap_t), wrap_of(s->wrap_r) },
		/* the descriptor's first level is the base level: LODs count from it */
		.min_lod = s->min_lod,
		.max_lod = s->max_lod,
		.compare = s->compare_mode == GL_COMPARE_REF_TO_TEXTURE,
		.compare_func = compare_of(s->compare_func),
	};

	agx_sampler_descriptor(out, &a);
}

/* One texture state register: the unit's texture of the sampler's target, or a stand-in. */
static int bind(struct gles_context *ctx, const struct agx_shader_var *v, GLint unit,
		uint8_t tex[AGX_TEXTURE_LENGTH], uint8_t smp[AGX_SAMPLER_LENGTH], uint32_t *size)
{
	struct gles_objects *o = ctx->objects;
	struct gles_sampling *d = ctx->sampling;
	enum agx_image_dim dim;
	unsigned ti = target_index(v->glsl_type, &dim), first, last;
	struct gles_texture *t = NULL;
	const struct gles_sampler_state *s;
	struct agx_image image;
	uint64_t va;
	int ret;

	if (unit >= 0 && unit < GLES_MAX_TEXTURE_UNITS)
		t = o->textures[unit][ti] ? o->textures[unit][ti] : o->default_textures[ti];
	s = t ? sampler_of(o, t, unit) : NULL;
	if (t && complete(t, s, &first, &last)) {
		const struct gles_texture_level *b;
		uint8_t swz[4];

		b = &t->levels[0][first];
		if ((ret = gles_submit_map(ctx, &b->image->bo, false, &va)) < 0)
			return ret;
		for (unsigned c = 0; c < 4; c++)
			swz[c] = swizzle_of(t->swizzle[c], c);
		image =
		    (struct agx_image){ .format = b->image->format,
					.dim = dim,
					.layout = &b->image->layout,
					.address = va + b->image->offset,
					.depth = dim == AGX_IMAGE_CUBE ? 1 : b->image->layers,
					.skip_srgb_decode = s->srgb_decode == GL_SKIP_DECODE_EXT };
		if (agx_texture_descriptor(tex, &image, b->image_level,
					   b->image_level + last - first, swz)) {
			sampler_word(s, smp);
			if (size) {
				size[0] = b->width;
				size[1] = b->height;
				size[2] =
				    dim == AGX_IMAGE_2D || dim == AGX_IMAGE_CUBE ? 1 : b->depth;
			}
			return 0;
		}
	}
	/* incomplete (or a texture the unit cannot read): (0, 0, 0, 1) */
	if ((ret = dummy_ready(ctx, d)) < 0)
		return ret;
	{
		unsigned k = sampler_kind(v->glsl_type);
		struct gles_sampler_state nearest;

		image = (struct agx_image){ .format = dummy_format[k],
					    .dim = dim,
					    .layout = &d->layout,
					    .address = d->va + k * 6 * d->layout.layer_stride,
					    .depth = 1 };
		if (!agx_texture_descriptor(tex, &image, 0, 0, NULL))
			return -EINVAL;
		gles_sampler_state_init(&nearest);
		nearest.min_filter = nearest.mag_filter = GL_NEAREST;
		sampler_word(&nearest, smp);
		if (size)
			size[0] = size[1] = size[2] = 0;
	}
	return 0;
}

int gles_sampling_prepare(struct gles_context *ctx, const struct gles_linked *l)
{
	struct gles_objects *o = ctx->objects;

	for (unsigned stage = 0; stage < GLES_STAGES; stage++) {
		const struct gles_program_stage *ps = &l->stages[stage];
		const struct agx_shader_info *info = &ps->binary.info;

		/* no sampler slots: no unit, nothing to sample */
		if (!ps->num_units)
			continue;
		for (unsigned i = 0; i < info->num_vars; i++) {
			const struct agx_shader_var *v = &info->vars[i];
			unsigned n = v->array_size ? v->array_size : 1;
			enum agx_image_dim dim;
			unsigned ti;

			if (v->kind != AGX_SHADER_SAMPLER || v->slot < 0)
				continue;
			ti = target_index(v->glsl_type, &dim);
			for (unsigned e = 0; e < n; e++) {
				unsigned ts = (unsigned)v->slot + e, first, last;
				GLint unit = ts < ps->num_units ? ps->units[ts] : -1;
				struct gles_texture *t;
				int ret;

				if (unit < 0 || unit >= GLES_MAX_TEXTURE_UNITS)
					continue;
				t = o->textures[unit][ti] ? o->textures[unit][ti]
							  : o->default_textures[ti];
				if (t && complete(t, sampler_of(o, t, unit), &first, &last) &&
				    (ret = chain(t, first, last)) < 0)
					return ret;
			}
		}
	}
	return 0;
}

int gles_sampling_stage(struct gles_context *ctx, const struct gles_program_stage *ps,
			const struct agx_shader_info *info, uint8_t (*tex)[AGX_TEXTURE_LENGTH],
			uint8_t (*smp)[AGX_SAMPLER_LENGTH], uint32_t *uniforms)
{
	int ret;

	/* no texture state registers: nothing is bound (a sampler's slot is below their count) */
	if (!info->num_textures)
		return 0;
	if (!ctx->sampling && !(ctx->sampling = calloc(1, sizeof(*ctx->sampling))))
		return -ENOMEM;
	for (unsigned i = 0; i < info->num_vars; i++) {
		const struct agx_shader_var *v = &info->vars[i];
		unsigned n = v->array_size ? v->array_size : 1;

		if (v->kind != AGX_SHADER_SAMPLER || v->slot < 0)
			continue;
		for (unsigned e = 0; e < n; e++) {
			unsigned ts = (unsigned)v->slot + e;
			GLint unit = ts < ps->num_units ? ps->units[ts] : -1;

			if (ts >= info->num_textures)
				continue;
			ret = bind(ctx, v, unit, tex[ts], smp[ts],
				   v->uniform >= 0 ? uniforms + v->uniform + 3 * e : NULL);
			if (ret < 0)
				return ret;
		}
	}
	return 0;
}

void gles_sampling_context_finish(struct gles_context *ctx)
{
	struct gles_sampling *d = ctx->sampling;

	if (!d)
		return;
	if (d->ready)
		gles_submit_bo_free(ctx, &d->bo, d->va);
	free(d);
	ctx->sampling = NULL;
}
