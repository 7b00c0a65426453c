/*
 * pass.c: the context's render pass (pass.h).  The pass's targets are
 * the draw framebuffer's images as they are when a draw needs them: a
 * pass stays open while later draws find the same images (the same BOs,
 * levels, layers and formats) and ends when they do not.
 *
 * What the hardware takes as targets (docs/render.md, "Targets"): colour
 * images of formats the PBE writes, and depth and stencil images the ZLS
 * reads (Z16, Z32F, S8; twiddled; level 0; the pass's size).  A depth or
 * stencil attachment that is none of these cannot be rendered to here.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "context.h"
#include "objects.h"
#include "pass.h"
#include "submit.h"

/* Tile programs kept across passes (docs/render.md, "Tile programs"). */
#define PROGRAMS_SIZE (256u << 10)

#define SURFACES (AGX_RENDER_MAX_TARGETS + 2) /* colour, then depth and stencil */

/* What makes two passes' targets the same: per surface, its memory and where in it. */
#define surface_key gles_target_key
_Static_assert(sizeof(struct surface_key) == 24, "a surface key has no padding");
_Static_assert(GLES_MAX_DRAW_BUFFERS == AGX_RENDER_MAX_TARGETS,
	       "draw buffer i is colour target i, and depth and stencil follow");

struct gles_pass {
	bool open;
	struct agx_render r;
	struct agx_render_pass desc;
	struct surface_key key[SURFACES];
	unsigned key_mask; /* the surfaces key[] has (bit i: a nonzero handle) */
	/* counts the passes begun: a draw's fragment key holds while it stays (gles_pass_serial) */
	unsigned serial;
	/* the targets' layouts: a default framebuffer's image is refreshed by every lookup */
	struct agx_layout layouts[SURFACES];
	struct agx_tile_programs programs;
	struct agx_bo programs_bo;
	uint64_t programs_va;
	bool programs_ready;
	bool warned;
	/* what the open pass's end does not store (gles_pass_invalidate) */
	struct discard {
		unsigned colour;
		bool depth, stencil;
	} discard;
	/* occlusion counters, GLES_PASS_COUNTERS of 8 bytes; size 0 until a query needs them */
	struct agx_bo counters;
	uint64_t counters_va;
	unsigned next_counter;
};

bool gles_pass_is_open(const struct gles_context *ctx)
{
	return ctx->pass && ctx->pass->open;
}

unsigned gles_pass_serial(const struct gles_context *ctx)
{
	return ctx->pass ? ctx->pass->serial : 0;
}

/* The surfaces of keys that have a target. */
static unsigned mask_of(const struct surface_key *keys)
{
	unsigned mask = 0;

	for (unsigned i = 0; i < SURFACES; i++)
		mask |= keys[i].handle ? 1u << i : 0;
	return mask;
}

static bool is_zls_format(enum agx_format f, bool stencil)
{
	return stencil ? f == AGX_FORMAT_S8_UINT
		       : f == AGX_FORMAT_Z16_UNORM || f == AGX_FORMAT_Z32_FLOAT;
}

static void refuse(struct gles_pass *p, const char *why)
{
	if (!p->warned)
		fprintf(stderr, "libEGL_agx: cannot draw into this framebuffer: %s\n", why);
	p->warned = true;
}

/* What makes surface i of a pass the same as another's: the image's memory and where in it. */
static void key_of(const struct gles_image_target *t, struct surface_key *key)
{
	memset(key, 0, sizeof(*key));
	key->handle = t->image->bo.handle;
	/* where in the BO: two dma-buf images may share one at different offsets */
	key->map = (const uint8_t *)t->image->bo.map + t->image->offset;
	key->level = t->level;
	key->layer = t->layer;
	key->format = t->image->format;
}

/* Surface i of the draw framebuffer (colour 0..7, depth, stencil): false when it has none. */
static bool target(struct gles_context *ctx, unsigned i, struct gles_image_target *t)
{
	bool have = i < AGX_RENDER_MAX_TARGETS	  ? gles_framebuffer_color_target(ctx, false, i, t)
		    : i == AGX_RENDER_MAX_TARGETS ? gles_framebuffer_depth_target(ctx, false, t)
						  : gles_framebuffer_stencil_target(ctx, false, t);

	return have && t->image->bo.size;
}

/* One surface of the pass from an attachment's image: its key, and its agx_image. */
static int surface(struct gles_context *ctx, struct gles_pass *p, unsigned i,
		   const struct gles_image_target *t, struct agx_render_surface *out,
		   struct surface_key *key)
{
	const struct gles_image *img = t->image;
	uint64_t va;
	int ret;

	if ((ret = gles_submit_map(ctx, &img->bo, img->dev == NULL, &va)) < 0)
		return ret;
	p->layouts[i] = img->layout;
	key_of(t, key);
	*out = (struct agx_render_surface){
		.image = { .format = img->format,
			   .dim = img->layers > 1 ? AGX_IMAGE_2D_ARRAY : AGX_IMAGE_2D,
			   .layout = &p->layouts[i],
			   .address = va + img->offset,
			   .depth = img->layers ? img->layers : 1,
			   .samples = img->samples },
		.level = t->level,
		.layer = t->layer,
	};
	return 0;
}

/*
 * The draw framebuffer's targets as a pass: every colour draw buffer, the
 * depth and stencil attachments; the size is the smallest attachment's.
 */
static int describe(struct gles_context *ctx, struct gles_pass *p, struct agx_render_pass *desc,
		    struct surface_key *key)
{
	struct gles_image_target t[SURFACES];
	bool have[SURFACES];
	unsigned w = ~0u, h = ~0u;
	int ret;

	memset(desc, 0, sizeof(*desc));
	memset(key, 0, sizeof(*key) * SURFACES);
	for (unsigned i = 0; i < SURFACES; i++) {
		if (!(have[i] = target(ctx, i, &t[i])))
			continue;
		/* a complete framebuffer's attachments have one sample count */
		desc->samples = t[i].image->samples ? t[i].image->samples : 1;
		w = gles_image_width(t[i].image, t[i].level) < w
			? gles_image_width(t[i].image, t[i].level)
			: w;
		h = gles_image_height(t[i].image, t[i].level) < h
			? gles_image_height(t[i].image, t[i].level)
			: h;
	}
	if (p->counters.size) {
		desc->visibility = p->counters_va;
		desc->visibility_count = GLES_PASS_COUNTERS;
	}
	if (w == ~0u) {
		/* nothing to draw into: a framebuffer whose draw buffers are all NONE */
		return -ENOENT;
	}
	desc->width = w;
	desc->height = h;
	for (unsigned i = 0; i < AGX_RENDER_MAX_TARGETS; i++) {
		struct agx_render_target *c = &desc->colour[i];

		if (!have[i])
			continue;
		if ((ret = surface(ctx, p, i, &t[i], &c->surface, &key[i])) < 0)
			return ret;
		c->load = AGX_LOAD_RELOAD;
		c->store = AGX_STORE_STORE;
		desc->num_colour = i + 1;
	}
	for (unsigned i = AGX_RENDER_MAX_TARGETS; i < SURFACES; i++) {
		bool stencil = i == AGX_RENDER_MAX_TARGETS + 1;
		struct agx_render_zs *zs = stencil ? &desc->stencil : &desc->depth;
		const struct gles_image *img = have[i] ? t[i].image : NULL;

		if (!img)
			continue;
		if (!is_zls_format(img->format, stencil) || !img->layout.twiddled || t[i].level ||
		    gles_image_width(img, 0) != w || gles_image_height(img, 0) != h) {
			refuse(p, "depth and stencil need level 0 of a Z16, Z32F or S8 image the "
				  "framebuffer's size");
			return -EINVAL;
		}
		if ((ret = surface(ctx, p, i, &t[i], &zs->surface, &key[i])) < 0)
			return ret;
		zs->load = AGX_LOAD_RELOAD;
		zs->store = AGX_STORE_STORE;
	}
	return 0;
}

static int begin(struct gles_context *ctx, struct gles_pass *p)
{
	void *map;
	uint64_t va;
	size_t size;
	uint32_t tvb_size;
	int ret;

	if (!p->programs_ready) {
		if ((ret = gles_submit_bo(ctx, PROGRAMS_SIZE,
					  AGX_BIND_READ | AGX_BIND_EXECUTE | AGX_MAP_USC,
					  &p->programs_bo, &p->programs_va)) < 0)
			return ret;
		agx_tile_programs_init(&p->programs, p->programs_bo.map, p->programs_va,
				       p->programs_bo.size);
		p->programs_ready = true;
	}
	p->desc.programs = &p->programs;
	if ((ret = gles_submit_pass_memory(ctx, &map, &va, &size, &p->desc.tvb, &tvb_size)) < 0)
		return ret;
	p->desc.tvb_size = tvb_size;
	p->discard = (struct discard){ 0 };
	p->serial++;
	ret = agx_render_begin(&p->r, map, va, size, agx_device_info(ctx->dev)->usc_base, &p->desc);
	if (ret < 0) {
		refuse(p, "the render pass refused its targets");
		return ret;
	}
	p->open = true;
	return 0;
}

static struct gles_pass *pass_of(struct gles_context *ctx)
{
	return ctx->pass ? ctx->pass : (ctx->pass = calloc(1, sizeof(*ctx->pass)));
}

int gles_pass_counter(struct gles_context *ctx, unsigned *counter)
{
	struct gles_pass *p = pass_of(ctx);
	int ret;

	if (!p)
		return -ENOMEM;
	if (!p->counters.size) {
		/* the open pass has no counters: draws from here on go into one that has */
		if ((ret = gles_submit_flush(ctx)) < 0 ||
		    (ret =
			 gles_submit_bo(ctx, 8 * GLES_PASS_COUNTERS, AGX_BIND_READ | AGX_BIND_WRITE,
					&p->counters, &p->counters_va)) < 0)
			return ret;
	}
	/* all of them given out: the work that used them finishes before they are again */
	if (p->next_counter == GLES_PASS_COUNTERS) {
		if ((ret = gles_submit_wait(ctx)) < 0)
			return ret;
		p->next_counter = 0;
	}
	*counter = p->next_counter++;
	((uint64_t *)p->counters.map)[*counter] = 0;
	return 0;
}

uint64_t gles_pass_counter_value(struct gles_context *ctx, unsigned counter)
{
	struct gles_pass *p = ctx->pass;

	return p && p->counters.size && counter < GLES_PASS_COUNTERS
		   ? ((volatile uint64_t *)p->counters.map)[counter]
		   : 0;
}

static bool same_keys(const struct surface_key *a, const struct surface_key *b)
{
	return !memcmp(a, b, sizeof(*a) * SURFACES);
}

/*
 * Whether the keys describe() would give the draw framebuffer's targets
 * are these (mask: those with a target), found without mapping their
 * memory or making a pass of them: what every draw checks.  Only the
 * surfaces that can have a target now, or had one, are looked at.
 */
static bool same_targets(struct gles_context *ctx, const struct surface_key *keys, unsigned mask)
{
	/* only draw buffers that are not NONE, and attached depth and stencil, have targets */
	unsigned look = gles_framebuffer_draw_surfaces(ctx);
	struct surface_key key;

	if (mask & ~look)
		return false; /* a target the framebuffer cannot have now */
	for (; look; look &= look - 1) {
		unsigned i = (unsigned)__builtin_ctz(look);

		gles_framebuffer_draw_key(ctx, i, &key);
		/* field by field: a call to memcmp costs more than these */
		if (key.handle != keys[i].handle || key.map != keys[i].map ||
		    key.format != keys[i].format || key.level != keys[i].level ||
		    key.layer != keys[i].layer)
			return false;
	}
	return true;
}

/*
 * Whether the open pass is over the draw framebuffer's targets as they
 * are now: 1 or 0, or describe()'s error.  The same targets as the open
 * pass's passed describe() when it began; others are described again.
 */
static int open_over_targets(struct gles_context *ctx, struct gles_pass *p)
{
	struct agx_render_pass desc;
	struct surface_key key[SURFACES];
	int ret;

	if (p->open && same_targets(ctx, p->key, p->key_mask))
		return 1;
	ret = describe(ctx, p, &desc, key);
	return ret < 0 ? ret : p->open && same_keys(key, p->key);
}

struct agx_render *gles_pass_get(struct gles_context *ctx, int *err)
{
	struct gles_pass *p = pass_of(ctx);
	int same;

	if (!p) {
		*err = -ENOMEM;
		return NULL;
	}
	if ((*err = same = open_over_targets(ctx, p)) < 0)
		return NULL;
	if (same) {
		/* drawn into: what was invalidated is stored again */
		p->discard = (struct discard){ 0 };
		return &p->r;
	}
	if (p->open && (*err = gles_submit_next(ctx)) < 0)
		return NULL;
	/* describe() again: the layouts it keeps are the new pass's */
	if ((*err = describe(ctx, p, &p->desc, p->key)) < 0)
		return NULL;
	p->key_mask = mask_of(p->key);
	if ((*err = begin(ctx, p)) < 0)
		return NULL;
	return &p->r;
}

/* The pass's targets are reloaded from here on: what it cleared is in them. */
static void reload_all(struct agx_render_pass *desc)
{
	for (unsigned i = 0; i < desc->num_colour; i++)
		if (desc->colour[i].surface.image.format != AGX_FORMAT_NONE)
			desc->colour[i].load = AGX_LOAD_RELOAD;
	if (desc->depth.surface.image.format != AGX_FORMAT_NONE)
		desc->depth.load = AGX_LOAD_RELOAD;
	if (desc->stencil.surface.image.format != AGX_FORMAT_NONE)
		desc->stencil.load = AGX_LOAD_RELOAD;
}

struct agx_render *gles_pass_restart(struct gles_context *ctx, int *err)
{
	struct gles_pass *p = ctx->pass;

	gles_submit_grow(ctx);
	if ((*err = gles_submit_next(ctx)) < 0)
		return NULL;
	reload_all(&p->desc);
	if ((*err = begin(ctx, p)) < 0)
		return NULL;
	return &p->r;
}

int gles_pass_clear(struct gles_context *ctx, struct gles_pass_clear *c)
{
	struct gles_pass *p = pass_of(ctx);
	struct gles_pass_clear took = *c;
	int ret, same;

	took.colour = 0;
	took.depth = took.stencil = false;
	if (!p)
		return -ENOMEM;
	if ((same = open_over_targets(ctx, p)) < 0) {
		*c = took; /* not a pass here (multisampled, a depth format the ZLS lacks) */
		return 0;
	}
	if (same && !p->r.draws) {
		/* nothing drawn in it yet: it begins again, clearing these too */
		p->open = false;
	} else {
		if (p->open && (ret = gles_submit_next(ctx)) < 0)
			return ret;
		if ((ret = describe(ctx, p, &p->desc, p->key)) < 0)
			return ret;
		p->key_mask = mask_of(p->key);
	}
	for (unsigned i = 0; i < p->desc.num_colour; i++) {
		struct agx_render_target *t = &p->desc.colour[i];

		if (!(c->colour & 1u << i) || t->surface.image.format == AGX_FORMAT_NONE)
			continue;
		t->load = AGX_LOAD_CLEAR;
		t->clear = c->value[i];
		took.colour |= 1u << i;
	}
	if (c->depth && p->desc.depth.surface.image.format != AGX_FORMAT_NONE) {
		p->desc.depth.load = AGX_LOAD_CLEAR;
		p->desc.depth.depth_clear = c->depth_value;
		took.depth = true;
	}
	if (c->stencil && p->desc.stencil.surface.image.format != AGX_FORMAT_NONE) {
		p->desc.stencil.load = AGX_LOAD_CLEAR;
		p->desc.stencil.stencil_clear = c->stencil_value;
		took.stencil = true;
	}
	*c = took;
	return begin(ctx, p);
}

void gles_pass_invalidate(struct gles_context *ctx, unsigned colour, bool depth, bool stencil)
{
	struct gles_pass *p = ctx->pass;

	if (!p || !p->open || open_over_targets(ctx, p) != 1)
		return;
	p->discard.colour |= colour;
	p->discard.depth |= depth;
	p->discard.stencil |= stencil;
}

int gles_pass_end(struct gles_context *ctx)
{
	struct gles_pass *p = ctx->pass;
	struct agx_sched_render out;
	int ret;

	if (!p || !p->open)
		return 0;
	p->open = false;
	/* -ENOSPC leaves the pass storing them: a correct way to make them undefined */
	if (p->discard.colour || p->discard.depth || p->discard.stencil)
		agx_render_discard(&p->r, p->discard.colour, p->discard.depth, p->discard.stencil);
	if ((ret = agx_render_end(&p->r, &out)) < 0)
		return ret;
	gles_submit_render(ctx, &out);
	return 0;
}

void gles_pass_context_finish(struct gles_context *ctx)
{
	struct gles_pass *p = ctx->pass;

	if (!p)
		return;
	if (p->programs_ready) {
		agx_tile_programs_finish(&p->programs);
		gles_submit_bo_free(ctx, &p->programs_bo, p->programs_va);
	}
	gles_submit_bo_free(ctx, &p->counters, p->counters_va);
	free(p);
	ctx->pass = NULL;
}
