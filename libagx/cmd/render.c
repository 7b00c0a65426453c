/*
 * render.c: the render-pass builder of agx/render.h -- the tilebuffer
 * layout, the tile programs generated from it (assembled from G13 text
 * with libagx's assembler), ZLS, and the VDM stream of draws.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "agx/compiler.h"
#include "agx/isa.h"
#include "agx/render.h"
#include "agx_cmdbuf.h"

/* The tilebuffer holds at most 64 bytes a pixel (docs/firmware-abi.md). */
#define MAX_SAMPLE_SIZE 64
/* The longest tile program: per target a few instructions of at most 12 bytes. */
#define MAX_PROGRAM 1024

static bool packed(enum agx_isa_memformat f)
{
	return f == AGX_ISA_MEMFORMAT_RGB10A2 || f == AGX_ISA_MEMFORMAT_RG11B10F ||
	       f == AGX_ISA_MEMFORMAT_RGB9E5;
}

bool agx_tilebuffer_format(enum agx_format format, enum agx_isa_memformat *memformat,
			   unsigned *item_bytes)
{
	const struct agx_format_info *fi = agx_format_info(format);
	unsigned bits = 0;

	if (!fi || !fi->pbe)
		return false;
	for (unsigned c = 0; c < fi->channels; c++)
		bits = fi->bits[c] > bits ? fi->bits[c] : bits;
	/*
	 * The packed formats have tile formats of their own.  Otherwise, as
	 * Mesa's agx_tilebuffer: normalized channels of up to 8 bits in bytes
	 * (sRGB encoded, so blending reads linear values back), 16-bit ones
	 * in halves, floats whole (their 32-bit registers' bits), unsigned
	 * integers in items of their size, and signed ones in words, so that
	 * the PBE sees their sign.
	 */
	switch (format) {
	case AGX_FORMAT_R10G10B10A2_UNORM:
		*memformat = AGX_ISA_MEMFORMAT_RGB10A2;
		*item_bytes = 4;
		return true;
	case AGX_FORMAT_R11G11B10_FLOAT:
		*memformat = AGX_ISA_MEMFORMAT_RG11B10F;
		*item_bytes = 4;
		return true;
	case AGX_FORMAT_R9G9B9E5_FLOAT:
		*memformat = AGX_ISA_MEMFORMAT_RGB9E5;
		*item_bytes = 4;
		return true;
	default:
		break;
	}
	switch (fi->kind) {
	case AGX_FORMAT_KIND_FLOAT:
		if (fi->hw_type == AGX_CMD_TEXTURE_TYPE_FLOAT) {
			*memformat = AGX_ISA_MEMFORMAT_I32, *item_bytes = 4;
		} else if (bits <= 8) {
			*memformat = fi->hw_type == AGX_CMD_TEXTURE_TYPE_SNORM
					 ? AGX_ISA_MEMFORMAT_S8NORM
				     : fi->srgb ? AGX_ISA_MEMFORMAT_SRGBA8
						: AGX_ISA_MEMFORMAT_U8NORM;
			*item_bytes = 1;
		} else if (bits <= 16) {
			*memformat = fi->hw_type == AGX_CMD_TEXTURE_TYPE_SNORM
					 ? AGX_ISA_MEMFORMAT_S16NORM
					 : AGX_ISA_MEMFORMAT_U16NORM;
			*item_bytes = 2;
		} else {
			return false;
		}
		return true;
	case AGX_FORMAT_KIND_UINT:
		*memformat = bits <= 8	  ? AGX_ISA_MEMFORMAT_I8
			     : bits <= 16 ? AGX_ISA_MEMFORMAT_I16
					  : AGX_ISA_MEMFORMAT_I32;
		*item_bytes = bits <= 8 ? 1 : bits <= 16 ? 2 : 4;
		return true;
	case AGX_FORMAT_KIND_SINT:
		*memformat = AGX_ISA_MEMFORMAT_I32, *item_bytes = 4;
		return true;
	default:
		return false;
	}
}

int agx_tilebuffer_layout(const enum agx_format *formats, unsigned count, unsigned samples,
			  struct agx_tilebuffer *out)
{
	unsigned at = 0, pixel;

	memset(out, 0, sizeof(*out));
	samples = samples ? samples : 1;
	if (count > AGX_RENDER_MAX_TARGETS || (samples != 1 && samples != 2 && samples != 4))
		return -EINVAL;
	out->samples = samples;
	for (unsigned i = 0; i < count; i++) {
		const struct agx_format_info *fi = agx_format_info(formats[i]);
		enum agx_isa_memformat mf;
		unsigned item, bytes;

		if (formats[i] == AGX_FORMAT_NONE)
			continue;
		if (!agx_tilebuffer_format(formats[i], &mf, &item))
			return -EINVAL;
		bytes = packed(mf) ? 4 : item * fi->channels;
		out->rt[i].present = true;
		out->rt[i].format = mf;
		out->rt[i].components = fi->channels;
		/*
		 * A target that does not fit what is left of the sample is
		 * spilled, as Mesa's agx_tilebuffer does: it stays in memory,
		 * which the fragment shader writes and reads at the pixel.
		 */
		if ((at + item - 1) / item * item + bytes > MAX_SAMPLE_SIZE) {
			out->rt[i].spilled = true;
		} else {
			at = (at + item - 1) / item * item;
			out->rt[i].offset = at;
			at += bytes;
		}
		out->rt[i].type = fi->kind == AGX_FORMAT_KIND_UINT	      ? AGX_RT_UINT
				  : fi->kind == AGX_FORMAT_KIND_SINT	      ? AGX_RT_SINT
				  : fi->hw_type == AGX_CMD_TEXTURE_TYPE_FLOAT ? AGX_RT_FLOAT
				  : fi->hw_type == AGX_CMD_TEXTURE_TYPE_SNORM ? AGX_RT_SNORM
									      : AGX_RT_UNORM;
	}
	out->sample_size = (at + 3) / 4 * 4;
	pixel = out->sample_size * samples;
	/*
	 * A spilled target is a single-sampled image at the pixel; and a
	 * tile has at least 16x16 pixels of at most 32 KiB - 1 together
	 * (Mesa agx_tilebuffer.c).
	 */
	for (unsigned i = 0; i < count && samples > 1; i++)
		if (out->rt[i].spilled)
			return -ENOSPC;
	if (pixel * 16 * 16 > 32767)
		return -ENOSPC;
	/* 16 KiB tiles where they fit: 32x32 pixels of up to 16 bytes, 32x16 of 32, else 16x16 */
	out->tile_width = pixel <= 32 ? 32 : 16;
	out->tile_height = pixel <= 16 ? 32 : 16;
	return 0;
}

void agx_tilebuffer_compile_options(const struct agx_tilebuffer *tib,
				    struct agx_compile_options *options)
{
	options->num_rts = 0;
	options->samples = tib->samples;
	for (unsigned i = 0; i < AGX_RENDER_MAX_TARGETS; i++) {
		/* an empty slot: the shader's writes there go nowhere */
		options->rt[i].none = !tib->rt[i].present;
		options->rt[i].format = tib->rt[i].format;
		options->rt[i].offset = tib->rt[i].offset;
		options->rt[i].components = tib->rt[i].components;
		options->rt[i].type = tib->rt[i].type;
		options->rt[i].spilled = tib->rt[i].spilled;
		if (tib->rt[i].present)
			options->num_rts = i + 1;
	}
	/*
	 * No colour target at all (a depth-only pass): one empty slot, since
	 * num_rts 0 is the compiler's default of one RGBA8 target, which
	 * would st_tile into a tilebuffer of no bytes.
	 */
	if (!options->num_rts)
		options->num_rts = 1;
}

/* --- memory -------------------------------------------------------------------------- */

static int fail(struct agx_render *r, int error)
{
	if (!r->error)
		r->error = error;
	return r->error;
}

/* size bytes below the tail, aligned; NULL (and -ENOSPC) when they do not fit. */
static void *take(struct agx_render *r, size_t size, size_t align, uint64_t *va)
{
	size_t start;

	if (r->error)
		return NULL;
	if (size > r->tail) {
		fail(r, -ENOSPC);
		return NULL;
	}
	start = (r->tail - size) / align * align;
	/* the stream keeps room for its terminate word */
	if (start < r->head + AGX_VDM_TERMINATE_LENGTH) {
		fail(r, -ENOSPC);
		return NULL;
	}
	r->tail = start;
	*va = r->va + start;
	return r->map + start;
}

/* The bytes copied in; their GPU address, 0 when full. */
static uint64_t put(struct agx_render *r, const void *bytes, size_t size, size_t align)
{
	uint64_t va = 0;
	void *at = take(r, size, align, &va);

	if (at)
		memcpy(at, bytes, size);
	return at ? va : 0;
}

static uint32_t usc_offset(const struct agx_render *r, uint64_t va)
{
	return (uint32_t)(va - r->usc_base);
}

static bool in_usc_range(const struct agx_render *r, uint64_t va)
{
	return va >= r->usc_base && va - r->usc_base <= UINT32_MAX;
}

/* A pipeline's USC words; its offset from usc_base, ~0u when full (*size: their bytes). */
static uint32_t pipeline(struct agx_render *r, const struct agx_pipeline *p, size_t *size)
{
	uint8_t words[AGX_PIPELINE_MAX_LENGTH];
	size_t n = agx_pipeline_pack(words, p);
	uint64_t va = put(r, words, n, AGX_PIPELINE_ALIGN);

	if (size)
		*size = n;
	return va ? usc_offset(r, va) : ~0u;
}

/* A stage's pipeline state, its uniforms' address aside. */
static struct agx_pipeline stage_state(const struct agx_render *r, const struct agx_render_stage *s)
{
	return (struct agx_pipeline){ .code = usc_offset(r, s->code_va),
				      .num_registers = s->num_registers,
				      .uniform_halves = 2 * s->num_uniforms,
				      .textures = s->textures,
				      .num_textures = s->num_textures,
				      .samplers = s->samplers,
				      .num_samplers = s->num_samplers };
}

/* A stage's pipeline: its uniforms copied, its state bound. */
static uint32_t stage_pipeline(struct agx_render *r, const struct agx_render_stage *s,
			       uint64_t *uniforms, size_t *size)
{
	struct agx_pipeline p = stage_state(r, s);

	if (s->num_uniforms && !(p.uniforms = put(r, s->uniforms, 4 * (size_t)s->num_uniforms, 16)))
		return ~0u;
	*uniforms = p.uniforms;
	return pipeline(r, &p, size);
}

/* Whether stage s has the state of the last draw's stage *last, its uniforms' values aside. */
static bool same_state(const struct agx_render_stage *s, const struct agx_render_stage *last)
{
	return s->code_va == last->code_va && s->num_registers == last->num_registers &&
	       s->num_uniforms == last->num_uniforms && s->textures == last->textures &&
	       s->num_textures == last->num_textures && s->samplers == last->samplers &&
	       s->num_samplers == last->num_samplers;
}

/*
 * The stage's pipeline: the last draw's (*last, its uniforms at *uniforms,
 * its words at usc_base + *pipe, *size bytes) when it is the same; when
 * only the uniforms' values differ, the last one's words with the uniform
 * words of a new copy; else a new one.  ~0u when full.
 */
static uint32_t draw_pipeline(struct agx_render *r, const struct agx_render_stage *s,
			      const struct agx_render_stage *last, uint64_t *uniforms,
			      uint32_t pipe, size_t *size)
{
	/* the uniform words' fields: all agx_pipeline_pack_uniforms reads */
	struct agx_pipeline p = { .uniform_halves = 2 * s->num_uniforms };
	uint64_t va;
	uint8_t *at;

	if (!r->last.valid || !same_state(s, last))
		return stage_pipeline(r, s, uniforms, size);
	if (!s->num_uniforms ||
	    !memcmp(r->map + (*uniforms - r->va), s->uniforms, 4 * (size_t)s->num_uniforms))
		return pipe;
	if (!(p.uniforms = put(r, s->uniforms, 4 * (size_t)s->num_uniforms, 16)) ||
	    !(at = take(r, *size, AGX_PIPELINE_ALIGN, &va)))
		return ~0u;
	memcpy(at, r->map + (r->usc_base + pipe - r->va), *size);
	agx_pipeline_pack_uniforms(at, &p);
	*uniforms = p.uniforms;
	return usc_offset(r, va);
}

/* The register counts a tile program's pipeline is launched with (render.*_bind). */
static uint32_t bind_word(unsigned uniform_halves, unsigned textures)
{
	struct agx_cmd_ppp_fragment_shader_word_0 w = {
		.uniform_register_count = uniform_halves,
		.texture_state_register_count = textures,
		.sampler_state_register_count =
		    textures ? AGX_CMD_SAMPLER_STATES_COMPACT4 : AGX_CMD_SAMPLER_STATES_NONE,
	};

	return (uint32_t)agx_cmd_ppp_fragment_shader_word_0_pack_u64(&w);
}

/* --- tile programs ---------------------------------------------------------------------- */

struct text {
	char buf[4096];
	size_t len;
	bool overflow;
};

static void emit(struct text *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void emit(struct text *t, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(t->buf + t->len, sizeof(t->buf) - t->len, fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= sizeof(t->buf) - t->len)
		t->overflow = true;
	else
		t->len += (size_t)n;
}

static const char *const masks[5] = { "", "x", "xy", "xyz", "xyzw" };

/* The registers rN_.. of an n-register tuple from first. */
static const char *tuple(char *buf, size_t size, unsigned first, unsigned n)
{
	size_t len = 0;

	for (unsigned i = 0; i < n; i++)
		len += (size_t)snprintf(buf + len, size - len, "%sr%u", i ? "_" : "", first + i);
	return buf;
}

/* Registers a target's st_tile takes: a packed format's components, else its channels. */
static unsigned tile_registers(const struct agx_tilebuffer *tib, unsigned i)
{
	if (tib->rt[i].format == AGX_ISA_MEMFORMAT_RGB10A2)
		return 4;
	if (packed(tib->rt[i].format))
		return 3;
	return tib->rt[i].components;
}

bool agx_tile_programs_init(struct agx_tile_programs *c, void *map, uint64_t va, size_t size)
{
	memset(c, 0, sizeof(*c));
	if (!map || (uintptr_t)map % 64 || va % 64)
		return false;
	c->map = map;
	c->va = va;
	c->size = size;
	return true;
}

void agx_tile_programs_finish(struct agx_tile_programs *c)
{
	for (unsigned i = 0; i < c->count; i++)
		free(c->entry[i].text);
	memset(c, 0, sizeof(*c));
}

/* The cached program of this text, or 0. */
static uint64_t cached(struct agx_tile_programs *c, const char *text)
{
	for (unsigned i = 0; c && i < c->count; i++)
		if (!strcmp(c->entry[i].text, text)) {
			c->hits++;
			return c->entry[i].va;
		}
	return 0;
}

/* The code kept in the cache under its text; 0 when it is full (or out of memory). */
static uint64_t keep(struct agx_tile_programs *c, const struct agx_render *r, const char *text,
		     const uint8_t *code, size_t n)
{
	size_t at = (c->used + AGX_PIPELINE_ALIGN - 1) / AGX_PIPELINE_ALIGN * AGX_PIPELINE_ALIGN;
	char *copy;

	c->misses++;
	if (c->count == AGX_TILE_PROGRAMS_MAX || at > c->size || n > c->size - at ||
	    !in_usc_range(r, c->va + at) || !in_usc_range(r, c->va + at + n) ||
	    !(copy = strdup(text)))
		return 0;
	memcpy(c->map + at, code, n);
	c->entry[c->count].text = copy;
	c->entry[c->count++].va = c->va + at;
	c->used = at + n;
	return c->va + at;
}

/*
 * The program's code, from the pass's program cache or assembled (into
 * the cache, or else the pass's memory); its offset, ~0u on failure.
 */
static uint32_t assemble(struct agx_render *r, struct text *t)
{
	struct agx_tile_programs *c = r->pass.programs;
	uint8_t code[MAX_PROGRAM];
	char why[160];
	long n;
	uint64_t va;

	emit(t, "stop\n");
	if (t->overflow)
		return fail(r, -ENOSPC), ~0u;
	if ((va = cached(c, t->buf)))
		return usc_offset(r, va);
	n = agx_isa_assemble(t->buf, code, sizeof(code), why, sizeof(why));
	if (n < 0)
		return fail(r, -EINVAL), ~0u; /* a generator bug: the text is ours */
	if (!c || !(va = keep(c, r, t->buf, code, (size_t)n)))
		va = put(r, code, (size_t)n, AGX_PIPELINE_ALIGN);
	return va ? usc_offset(r, va) : ~0u;
}

/*
 * The texture descriptor of colour target i's level and layer, as a 2D
 * texture whose first level is the target's: what the reload reads and a
 * spilled target is written and read through.
 */
static bool target_view(const struct agx_render *r, unsigned i, uint8_t out[AGX_TEXTURE_LENGTH])
{
	const struct agx_render_target *rt = &r->pass.colour[i];
	struct agx_image view = rt->surface.image;
	unsigned levels = view.layout ? view.layout->levels : 0;

	/* a multisampled target's view is of its sample grid (agx_sample_grid()) */
	view.dim = AGX_IMAGE_2D;
	view.depth = 1;
	view.samples = 0;
	view.address = agx_image_layer_address(&rt->surface.image, rt->surface.layer);
	return levels && agx_texture_descriptor(out, &view, rt->surface.level, levels - 1, NULL);
}

bool agx_render_spill_state(const struct agx_render *r, unsigned target,
			    uint8_t texture[AGX_TEXTURE_LENGTH],
			    uint8_t sampler[AGX_SAMPLER_LENGTH])
{
	if (target >= AGX_RENDER_MAX_TARGETS || !r->tib.rt[target].spilled ||
	    !target_view(r, target, texture))
		return false;
	agx_sampler_descriptor(sampler, &(struct agx_sampler){ .max_lod = 15 });
	return true;
}

/*
 * The load program: the cleared targets take their clear values from the
 * uniforms (four words each, from u0), the reloaded ones their image's
 * texel at the pixel, through texture state ts(i) and one sampler.  all:
 * reload every target (a partial render's second pass on).
 */
static uint32_t load_program(struct agx_render *r, bool all, uint32_t *bind)
{
	const struct agx_tilebuffer *tib = &r->tib;
	uint8_t textures[AGX_RENDER_MAX_TARGETS][AGX_TEXTURE_LENGTH] = { { 0 } };
	uint8_t sampler[AGX_SAMPLER_LENGTH];
	uint32_t clears[4 * AGX_RENDER_MAX_TARGETS] = { 0 };
	unsigned num_textures = 0, clear_words = 0;
	struct agx_pipeline p = { .num_registers = 16 };
	struct text t = { .len = 0 };
	bool coords = false;
	char regs[32];

	for (unsigned i = 0; i < r->pass.num_colour; i++) {
		const struct agx_render_target *rt = &r->pass.colour[i];
		enum agx_load_op op = all ? AGX_LOAD_RELOAD : rt->load;
		unsigned n = tile_registers(tib, i);

		if (!tib->rt[i].present || op == AGX_LOAD_DONT_CARE ||
		    (tib->rt[i].spilled && op == AGX_LOAD_RELOAD))
			continue; /* a spilled target's memory is already what it holds */
		if (op == AGX_LOAD_CLEAR) {
			/* the clear values from the uniforms: into r0.. for st_tile, r4.. for
			 * image_write */
			unsigned first = tib->rt[i].spilled ? 4 : 0,
				 count = tib->rt[i].spilled ? 4 : n;

			for (unsigned k = 0; k < count; k++)
				emit(&t, "iadd r%u, u%u, 0\n", first + k, 4 * i + k);
			memcpy(&clears[4 * i], rt->clear.u, sizeof(rt->clear.u));
			clear_words = 4 * i + 4;
			if (!tib->rt[i].spilled) {
				emit(&t, "st_tile %s, %s, 0, %s, %u, 255, 0\n",
				     tuple(regs, sizeof(regs), 0, n),
				     agx_isa_memformat_name(tib->rt[i].format), masks[n],
				     tib->rt[i].offset);
				continue;
			}
		}

		if (!target_view(r, i, textures[i]))
			return fail(r, -EINVAL), ~0u;
		num_textures = i + 1;
		if (!coords) {
			emit(&t, "get_sr r8, sr80\nget_sr r9, sr81\n");
			coords = true;
		}
		if (op == AGX_LOAD_CLEAR) {
			/* spilled: the clear colour written to memory at the pixel (ts i: the view)
			 */
			emit(&t, "image_write r4_r5_r6_r7, ts%u, r8_r9, 0, tex_2d, coherent0, 0\n",
			     i);
			continue;
		}
		/*
		 * Sample by sample, each from its element of the image's sample
		 * grid; a single-sampled target's pixel is its element.
		 */
		for (unsigned k = 0; k < tib->samples; k++) {
			bool ms = tib->samples > 1;
			unsigned sx, sy;

			agx_sample_grid(tib->samples, &sx, &sy);
			if (ms)
				emit(&t, "iadd r10, %u, r8, lsl %u\niadd r11, %u, r9, lsl 1\n",
				     k % sx, sx - 1, k / sx);
			emit(&t,
			     "texture_load %s, ts%u, ss0, tex_2d, %s, auto_lod, 0, %s, 0, 0, 0, "
			     "0, 12, 0\n"
			     "wait 0\n",
			     tuple(regs, sizeof(regs), 4, n), i, ms ? "r10_r11" : "r8_r9",
			     masks[n]);
			emit(&t, "st_tile %s, %s, 0, %s, %u, %u, 0\n",
			     tuple(regs, sizeof(regs), 4, n),
			     agx_isa_memformat_name(tib->rt[i].format), masks[n], tib->rt[i].offset,
			     ms ? 1u << k : 255u);
		}
	}
	p.code = assemble(r, &t);
	if (clear_words && !(p.uniforms = put(r, clears, 4 * (size_t)clear_words, 16)))
		return ~0u;
	p.uniform_halves = 2 * clear_words;
	if (num_textures) {
		agx_sampler_descriptor(sampler, &(struct agx_sampler){ .max_lod = 15 });
		p.textures = put(r, textures, AGX_TEXTURE_LENGTH * (size_t)num_textures, 16);
		p.num_textures = num_textures;
		p.samplers = put(r, sampler, sizeof(sampler), 16);
		p.num_samplers = 1;
	}
	if (r->error || p.code == ~0u)
		return ~0u;
	*bind = bind_word(p.uniform_halves, num_textures);
	return pipeline(r, &p, NULL);
}

/* The store program: each stored target's tile through its PBE descriptor in ts(i). */
static uint32_t store_program(struct agx_render *r, bool all, uint32_t *bind)
{
	const struct agx_tilebuffer *tib = &r->tib;
	uint8_t pbes[AGX_RENDER_MAX_TARGETS][AGX_PBE_LENGTH] = { { 0 } };
	unsigned num = 0;
	struct agx_pipeline p = { .num_registers = 8 };
	struct text t = { .len = 0 };

	for (unsigned i = 0; i < r->pass.num_colour; i++) {
		const struct agx_render_target *rt = &r->pass.colour[i];

		/* a spilled target was written where it lives */
		if (!tib->rt[i].present || tib->rt[i].spilled ||
		    (!all && rt->store == AGX_STORE_DISCARD))
			continue;
		if (!agx_pbe_descriptor(pbes[i], &rt->surface.image, rt->surface.level,
					rt->surface.layer))
			return fail(r, -EINVAL), ~0u;
		num = i + 1;
		emit(&t, "mov_imm r0, %u\nimgwblk r0l, ts%u, r0, 0, 0, %s, %s, 0\n",
		     tib->rt[i].offset, i, tib->samples > 1 ? "tex_2d_ms" : "tex_2d",
		     agx_isa_memformat_name(tib->rt[i].format));
	}
	p.code = assemble(r, &t);
	if (num) {
		p.textures = put(r, pbes, AGX_PBE_LENGTH * (size_t)num, 16);
		p.num_textures = num;
	}
	if (r->error || p.code == ~0u)
		return ~0u;
	*bind = bind_word(0, num);
	return pipeline(r, &p, NULL);
}

/* --- the pass -------------------------------------------------------------------------- */

/* Whether a surface covers the pass, with its samples (a multisampled one's layout is its grid's).
 */
static bool surface_fits(const struct agx_render_surface *s, const struct agx_render_pass *pass)
{
	const struct agx_layout *l = s->image.layout;
	unsigned samples = pass->samples > 1 ? pass->samples : 1, sx, sy;

	agx_sample_grid(samples, &sx, &sy);
	return l && s->level < l->levels &&
	       (s->image.samples > 1 ? s->image.samples : 1) == samples &&
	       agx_layout_minify(l->width, s->level) >= pass->width * sx &&
	       agx_layout_minify(l->height, s->level) >= pass->height * sy &&
	       s->layer < (s->image.dim == AGX_IMAGE_CUBE ? 6 : 1) * s->image.depth;
}

/*
 * A depth or stencil buffer as the ZLS reads it: one twiddled level the
 * size of the pass (docs/firmware-abi.md), so level 0 of an image of
 * exactly that size; its layer's address.
 */
static bool zs_buffer(const struct agx_render_zs *zs, const struct agx_render_pass *pass,
		      enum agx_format want, uint64_t *va)
{
	const struct agx_render_surface *s = &zs->surface;
	const struct agx_layout *l = s->image.layout;
	unsigned sx, sy;

	agx_sample_grid(pass->samples, &sx, &sy);
	if (s->image.format != want || !l || !l->twiddled || s->level != 0 ||
	    l->width != pass->width * sx || l->height != pass->height * sy ||
	    !surface_fits(s, pass))
		return false;
	*va = agx_image_layer_address(&s->image, s->layer);
	return *va % 16 == 0;
}

static int zls(struct agx_render *r)
{
	const struct agx_render_pass *pass = &r->pass;
	struct agx_cmd_zls_control z = { .z_format = AGX_CMD_ZLS_FORMAT_Z32F };
	struct agx_sched_render *o = &r->out;
	enum agx_format df = pass->depth.surface.image.format;

	if (df != AGX_FORMAT_NONE) {
		bool z16 = df == AGX_FORMAT_Z16_UNORM;
		float clear = pass->depth.depth_clear;

		if (!zs_buffer(&pass->depth, pass,
			       z16 ? AGX_FORMAT_Z16_UNORM : AGX_FORMAT_Z32_FLOAT, &o->depth_buffer))
			return -EINVAL;
		z.z_format = z16 ? AGX_CMD_ZLS_FORMAT_Z16 : AGX_CMD_ZLS_FORMAT_Z32F;
		z.z_load_enable = pass->depth.load == AGX_LOAD_RELOAD;
		z.z_store_enable = pass->depth.store == AGX_STORE_STORE;
		clear = clear < 0 ? 0 : clear > 1 ? 1 : clear;
		if (z16)
			o->depth_clear = (uint32_t)(clear * 65535.0f + 0.5f);
		else
			memcpy(&o->depth_clear, &clear, 4);
	}
	if (pass->stencil.surface.image.format != AGX_FORMAT_NONE) {
		if (!zs_buffer(&pass->stencil, pass, AGX_FORMAT_S8_UINT, &o->stencil_buffer))
			return -EINVAL;
		z.s_load_enable = pass->stencil.load == AGX_LOAD_RELOAD;
		z.s_store_enable = pass->stencil.store == AGX_STORE_STORE;
		o->stencil_clear = pass->stencil.stencil_clear;
	}
	o->zls_control = agx_cmd_zls_control_pack_u64(&z);
	return 0;
}

int agx_render_begin(struct agx_render *r, void *map, uint64_t va, size_t size, uint64_t usc_base,
		     const struct agx_render_pass *pass)
{
	enum agx_format formats[AGX_RENDER_MAX_TARGETS] = { AGX_FORMAT_NONE };
	uint32_t bind = 0;
	int ret;

	memset(r, 0, sizeof(*r));
	r->map = map;
	r->va = va;
	r->size = size;
	r->tail = size;
	r->usc_base = usc_base;
	if (!map || (uintptr_t)map % 64 || va % 64 || size % 64 || size < 4096 || !pass ||
	    !in_usc_range(r, va) || size - 1 > UINT32_MAX - (va - usc_base))
		return fail(r, -EINVAL);
	if (!pass->width || !pass->height || pass->width > 16384 || pass->height > 16384 ||
	    pass->num_colour > AGX_RENDER_MAX_TARGETS || pass->tvb % 16 || !pass->tvb_size ||
	    pass->visibility % 8 || pass->visibility_count > 0xffff)
		return fail(r, -EINVAL);
	r->pass = *pass;
	for (unsigned i = 0; i < pass->num_colour; i++) {
		const struct agx_render_surface *s = &pass->colour[i].surface;

		formats[i] = s->image.format;
		if (formats[i] != AGX_FORMAT_NONE && !surface_fits(s, pass))
			return fail(r, -EINVAL);
	}
	ret = agx_tilebuffer_layout(formats, pass->num_colour, pass->samples, &r->tib);
	if (ret)
		return fail(r, ret);
	ret = zls(r);
	if (ret)
		return fail(r, ret);

	struct agx_sched_render *o = &r->out;

	o->usc_base = usc_base;
	o->tvb = pass->tvb;
	o->tvb_size = pass->tvb_size;
	o->width = pass->width;
	o->height = pass->height;
	o->samples = r->tib.samples;
	o->utile_width = r->tib.tile_width;
	o->utile_height = r->tib.tile_height;
	o->sample_size = r->tib.sample_size;
	o->visibility_result_buffer = pass->visibility;
	o->visibility_count = pass->visibility_count;
	/* the draws' scissor and depth-bias entries */
	if (!take(r, AGX_CMD_SCISSOR_LENGTH * AGX_RENDER_MAX_SCISSORS, 16, &r->scissors) ||
	    !take(r, AGX_CMD_DEPTH_BIAS_LENGTH * AGX_RENDER_MAX_DEPTH_BIAS, 16, &r->biases))
		return r->error;
	o->scissor_array = r->scissors;
	o->depth_bias_array = r->biases;
	o->load_pipeline = load_program(r, false, &bind);
	o->load_pipeline_bind = bind;
	o->store_pipeline = store_program(r, false, &bind);
	o->store_pipeline_bind = bind;
	/* partial renders store every target and reload it in the next pass */
	o->partial_reload_pipeline = load_program(r, true, &bind);
	o->partial_reload_pipeline_bind = bind;
	o->partial_store_pipeline = store_program(r, true, &bind);
	o->partial_store_pipeline_bind = bind;
	/*
	 * The tile programs are new code where an earlier pass may have had
	 * other code: the GPU must fetch shaders afresh (docs/control-streams.md,
	 * "Shaders").
	 */
	if (!r->error)
		r->head += agx_vdm_barrier(r->map + r->head, true);
	return r->error;
}

/* The index of an entry equal to the last one, or of a new one; -1 when the array is full. */
static int array_entry(struct agx_render *r, uint64_t array, unsigned *count, unsigned max,
		       const uint8_t *entry, size_t size)
{
	uint8_t *base = r->map + (array - r->va);

	if (*count && !memcmp(base + (*count - 1) * size, entry, size))
		return (int)*count - 1;
	if (*count == max)
		return -1;
	memcpy(base + *count * size, entry, size);
	return (int)(*count)++;
}

/* Field by field: the struct has padding. */
static bool same_index_list(const struct agx_vdm_draw *a, const struct agx_vdm_draw *b)
{
	return a->primitive == b->primitive && a->count == b->count &&
	       a->instances == b->instances && a->start == b->start &&
	       a->index_size == b->index_size && a->indices == b->indices &&
	       a->index_bytes == b->index_bytes && a->restart == b->restart;
}

_Static_assert(AGX_CMD_CF_BINDING_HEADER_LENGTH + 4 * 127 >= AGX_PPP_MAX_LENGTH,
	       "a draw's word buffer holds its PPP block");

static int draw(struct agx_render *r, const struct agx_render_draw *d)
{
	struct agx_ppp_state ppp;
	const struct agx_ppp_state *q = &r->last.ppp;
	/* the state the caller's key says is the last draw's: only the fields filled here differ */
	bool kept = d->state_key && r->last.valid && d->state_key == r->last.state_key;
	unsigned scissor_index = d->state.scissor_index, bias_index = d->state.bias_index;
	unsigned cf_count = d->state.cf_count, fs_textures = d->state.fs_textures;
	uint32_t cf_offset = d->state.cf;
	/* the coefficient bindings' words (up to 127 bindings), then the PPP block's */
	uint8_t words[AGX_CMD_CF_BINDING_HEADER_LENGTH + 4 * 127];
	size_t need = AGX_VDM_VERTEX_LENGTH + AGX_VDM_RESTART_LENGTH + AGX_VDM_PPP_LENGTH +
		      AGX_VDM_DRAW_MAX_LENGTH;
	uint32_t vs, fs = 0;
	uint64_t pva = 0, vs_uniforms, fs_uniforms, cf;
	size_t n, vs_size, fs_size;
	bool new_cf = false;

	if (r->error)
		return r->error;
	if (!in_usc_range(r, d->vs.code_va) || (d->fs.code_va && !in_usc_range(r, d->fs.code_va)) ||
	    d->vs_outputs < 4 || d->vs_outputs > 255 || d->num_cf > 127 ||
	    (d->draw.index_size && d->draw.index_bytes % 4) || !d->draw.instances)
		return -EINVAL; /* the draw is wrong, not the pass: it stays usable */
	if (r->head + need + AGX_VDM_TERMINATE_LENGTH > r->tail || r->draws >= AGX_RENDER_MAX_DRAWS)
		return fail(r, -ENOSPC);

	if (d->state.scissor) {
		struct agx_cmd_scissor s = { .min_x = d->scissor[0],
					     .min_y = d->scissor[1],
					     .max_x = d->scissor[2],
					     .max_y = d->scissor[3],
					     .min_z = 0,
					     .max_z = 1 };
		uint8_t raw[AGX_CMD_SCISSOR_LENGTH];
		int at;

		if (!agx_cmd_scissor_fits(&s))
			return -EINVAL;
		agx_cmd_scissor_pack(raw, &s);
		at = array_entry(r, r->scissors, &r->num_scissors, AGX_RENDER_MAX_SCISSORS, raw,
				 sizeof(raw));
		if (at < 0)
			return fail(r, -ENOSPC);
		scissor_index = (unsigned)at;
	}
	if (d->state.depth_bias) {
		struct agx_cmd_depth_bias b = { .depth_bias = d->depth_bias,
						.slope_scale = d->slope_scale,
						.clamp = d->bias_clamp };
		uint8_t raw[AGX_CMD_DEPTH_BIAS_LENGTH];
		int at;

		agx_cmd_depth_bias_pack(raw, &b);
		at = array_entry(r, r->biases, &r->num_biases, AGX_RENDER_MAX_DEPTH_BIAS, raw,
				 sizeof(raw));
		if (at < 0)
			return fail(r, -ENOSPC);
		bias_index = (unsigned)at;
	}

	/* what the last draw placed, unless this draw's differs */
	vs_uniforms = r->last.vs_uniforms;
	fs_uniforms = r->last.fs_uniforms;
	cf = r->last.cf;
	vs_size = r->last.vs_size;
	fs_size = r->last.fs_size;
	vs = draw_pipeline(r, &d->vs, &r->last.vs, &vs_uniforms, r->last.vs_pipeline, &vs_size);
	if (d->fs.code_va) {
		fs = draw_pipeline(r, &d->fs, &r->last.fs, &fs_uniforms, r->last.fs_pipeline,
				   &fs_size);
		/* the last draw's bindings, when they are the same */
		if (!r->last.valid || !cf || d->num_cf > AGX_RENDER_MAX_CF ||
		    d->num_cf != r->last.num_cf || d->vs_outputs != r->last.cf_slots ||
		    d->cf_registers != r->last.cf_registers ||
		    (d->num_cf && memcmp(d->cf, r->last.cf_bindings, d->num_cf * sizeof(*d->cf)))) {
			n = agx_cf_bindings(words, d->cf, d->num_cf, d->vs_outputs,
					    d->cf_registers);
			if (!(cf = put(r, words, n, 4)))
				return r->error;
			new_cf = true;
		}
		cf_offset = usc_offset(r, cf);
		cf_count = d->num_cf;
		fs_textures = d->fs.num_textures;
	}
	if (r->error || vs == ~0u || fs == ~0u)
		return fail(r, -ENOSPC);
	/*
	 * Only the words that changed: none at all when nothing did.  A kept
	 * state differing only in the fragment shader's words (the usual draw
	 * after a glUniform*) sends those, as agx_ppp_pack_changed() would,
	 * without comparing the rest.
	 */
	kept = kept && fs && d->vs_outputs == q->outputs && scissor_index == q->scissor_index &&
	       bias_index == q->bias_index && (cf_count != 0) == (q->cf_count != 0);
	if (kept) {
		n = fs == q->fs_pipeline && cf_offset == q->cf && cf_count == q->cf_count &&
			    fs_textures == q->fs_textures
			? 0
			: agx_ppp_pack_shader(words, fs, cf_offset, cf_count, fs_textures);
	} else {
		ppp = d->state;
		ppp.scissor_index = scissor_index;
		ppp.bias_index = bias_index;
		ppp.cf = cf_offset;
		ppp.cf_count = cf_count;
		ppp.fs_textures = fs_textures;
		ppp.fs_pipeline = fs;
		ppp.outputs = d->vs_outputs;
		n = agx_ppp_pack_changed(words, &ppp, r->last.valid ? q : NULL);
	}
	if (n && !(pva = put(r, words, n, 16)))
		return fail(r, -ENOSPC);
	/* the data just taken from the tail must have left the draw's words their room */
	if (r->head + need + AGX_VDM_TERMINATE_LENGTH > r->tail)
		return fail(r, -ENOSPC);

	uint8_t *out = r->map + r->head;

	if (!r->last.valid || vs != r->last.vs_pipeline || d->vs_outputs != r->last.vs_outputs)
		out += agx_vdm_vertex(out, vs, d->vs_outputs);
	if (d->draw.restart)
		out += agx_vdm_restart(out, d->restart_index);
	if (n)
		out += agx_vdm_ppp(out, pva, n);
	/* an index list like the last one: its words again */
	if (r->last.valid && same_index_list(&d->draw, &r->last.draw)) {
		memcpy(out, r->map + r->last.draw_words, r->last.draw_size);
		r->last.draw_words = (size_t)(out - r->map);
		out += r->last.draw_size;
	} else {
		r->last.draw = d->draw;
		r->last.draw_words = (size_t)(out - r->map);
		r->last.draw_size = agx_vdm_draw(out, &d->draw);
		out += r->last.draw_size;
	}
	r->head = (size_t)(out - r->map);
	r->draws++;

	/* the draw is whole: what it left is what the next one compares with */
	r->last.valid = true;
	if (kept) {
		r->last.ppp.fs_pipeline = fs;
		r->last.ppp.cf = cf_offset;
		r->last.ppp.cf_count = cf_count;
		r->last.ppp.fs_textures = fs_textures;
	} else {
		r->last.ppp = ppp;
	}
	r->last.state_key = d->state_key;
	r->last.vs = d->vs;
	r->last.vs_uniforms = vs_uniforms;
	r->last.vs_pipeline = vs;
	r->last.vs_size = vs_size;
	r->last.vs_outputs = d->vs_outputs;
	if (d->fs.code_va) {
		r->last.fs = d->fs;
		r->last.fs_uniforms = fs_uniforms;
		r->last.fs_pipeline = fs;
		r->last.fs_size = fs_size;
		r->last.cf = cf;
		r->last.num_cf = d->num_cf;
		r->last.cf_slots = d->vs_outputs;
		r->last.cf_registers = d->cf_registers;
		if (new_cf && d->num_cf && d->num_cf <= AGX_RENDER_MAX_CF)
			memcpy(r->last.cf_bindings, d->cf, d->num_cf * sizeof(*d->cf));
		else if (d->num_cf > AGX_RENDER_MAX_CF)
			r->last.cf = 0; /* too many to keep: packed afresh */
	}
	return 0;
}

int agx_render_draw(struct agx_render *r, const struct agx_render_draw *d)
{
	size_t tail = r->tail;
	unsigned scissors = r->num_scissors, biases = r->num_biases;
	int ret;

	if (r->error)
		return r->error;
	/*
	 * A draw that does not fit takes back what it took from the tail: the
	 * draws before it stay whole, and the pass can still be ended.
	 */
	if ((ret = draw(r, d)) == -ENOSPC) {
		r->error = 0;
		r->tail = tail;
		r->num_scissors = scissors;
		r->num_biases = biases;
	}
	return ret;
}

int agx_render_discard(struct agx_render *r, unsigned colour, bool depth, bool stencil)
{
	struct agx_render_pass pass = r->pass;
	struct agx_sched_render out = r->out;
	size_t tail = r->tail;
	uint32_t bind;
	int ret;

	if (r->error)
		return r->error;
	for (unsigned i = 0; i < r->pass.num_colour; i++)
		if (colour & 1u << i)
			r->pass.colour[i].store = AGX_STORE_DISCARD;
	if (depth)
		r->pass.depth.store = AGX_STORE_DISCARD;
	if (stencil)
		r->pass.stencil.store = AGX_STORE_DISCARD;
	if ((ret = zls(r)) == 0) {
		r->out.store_pipeline = store_program(r, false, &bind);
		r->out.store_pipeline_bind = bind;
		ret = r->error;
	}
	if (ret) {
		/* no room (or no program): the pass stays as it was */
		r->pass = pass;
		r->out = out;
		r->tail = tail;
		r->error = 0;
	}
	return ret;
}

int agx_render_end(struct agx_render *r, struct agx_sched_render *out)
{
	if (r->error)
		return r->error;
	/* every other call kept room for this word */
	r->head += agx_vdm_terminate(r->map + r->head);
	r->out.encoder = r->va;
	r->out.encoder_end = r->va + r->head;
	r->out.scissor_count = r->num_scissors;
	r->out.depth_bias_count = r->num_biases;
	*out = r->out;
	return 0;
}

/* --- varyings ----------------------------------------------------------------------------- */

static unsigned io_words(const struct agx_shader_var *v)
{
	return v->components * (v->array_size ? v->array_size : 1);
}

static const struct agx_shader_var *output_at(const struct agx_shader_info *vs, unsigned location)
{
	for (unsigned i = 0; i < vs->num_vars; i++)
		if (vs->vars[i].kind == AGX_SHADER_OUTPUT && vs->vars[i].location == location &&
		    vs->vars[i].slot >= 0)
			return &vs->vars[i];
	return NULL;
}

bool agx_render_set_attrib(const struct agx_shader_info *vs, uint32_t *uniforms, unsigned location,
			   uint64_t address, uint32_t stride)
{
	for (unsigned i = 0; i < vs->num_vars; i++) {
		const struct agx_shader_var *v = &vs->vars[i];
		unsigned regs;

		if (v->kind != AGX_SHADER_INPUT || v->uniform < 0 || location < v->location ||
		    location - v->location >= v->locations)
			continue;
		/* docs/compiler.md's ABI: the word-aligned address, the stride, the offset */
		regs = (unsigned)v->uniform + 4 * (location - v->location);
		uniforms[regs] = (uint32_t)(address & ~3ull);
		uniforms[regs + 1] = (uint32_t)(address >> 32);
		uniforms[regs + 2] = stride;
		uniforms[regs + 3] = (uint32_t)(address & 3);
		return true;
	}
	return false;
}

int agx_render_link_varyings(const struct agx_shader_info *vs, const struct agx_shader_info *fs,
			     unsigned flat_vertex, const int *matched, struct agx_cf_binding *out,
			     unsigned *count, unsigned *registers)
{
	static const unsigned flat[3] = { AGX_CMD_SHADE_MODEL_FLAT_VERTEX_0,
					  AGX_CMD_SHADE_MODEL_FLAT_VERTEX_1,
					  AGX_CMD_SHADE_MODEL_FLAT_VERTEX_2 };
	/* coefficient slots: 0 is 1/w, 1 window z when read, then vertex output word 4 on */
	unsigned first = fs->frag_coord_z_cf >= 0 ? 2 : 1, n = 0, regs = 1;

	if (flat_vertex > 2)
		return -EINVAL;
	out[n++] = (struct agx_cf_binding){ 1, AGX_CMD_SHADE_MODEL_LINEAR,
					    AGX_CMD_CF_SOURCE_VARYING, 0, 0 };
	if (fs->frag_coord_z_cf >= 0) {
		out[n++] = (struct agx_cf_binding){ 1, AGX_CMD_SHADE_MODEL_LINEAR,
						    AGX_CMD_CF_SOURCE_FRAGCOORD_Z, 1,
						    (unsigned)fs->frag_coord_z_cf };
		regs = (unsigned)fs->frag_coord_z_cf + 1;
	}
	for (unsigned i = 0; i < fs->num_vars; i++) {
		const struct agx_shader_var *in = &fs->vars[i], *o;
		unsigned words, shade;

		if (in->kind != AGX_SHADER_INPUT || in->cf < 0)
			continue;
		words = io_words(in);
		if (in->location == AGX_SHADER_LOCATION_POINT_COORD) {
			if (n == AGX_RENDER_MAX_CF)
				return -EINVAL;
			out[n++] = (struct agx_cf_binding){ 2, AGX_CMD_SHADE_MODEL_LINEAR,
							    AGX_CMD_CF_SOURCE_POINT_COORD, 0,
							    (unsigned)in->cf };
			regs = regs > (unsigned)in->cf + 2 ? regs : (unsigned)in->cf + 2;
			continue;
		}
		if (matched && matched[i] < 0)
			continue; /* the vertex shader leaves it undefined */
		o = !matched				  ? output_at(vs, in->location)
		    : (unsigned)matched[i] < vs->num_vars ? &vs->vars[matched[i]]
							  : NULL;
		if (!o || o->kind != AGX_SHADER_OUTPUT || io_words(o) != words || o->slot < 4)
			return -EINVAL;
		shade = in->interp == AGX_SHADER_FLAT		 ? flat[flat_vertex]
			: in->interp == AGX_SHADER_NOPERSPECTIVE ? AGX_CMD_SHADE_MODEL_LINEAR
								 : AGX_CMD_SHADE_MODEL_PERSPECTIVE;
		/* a binding fills at most four registers */
		for (unsigned w = 0; w < words; w += 4) {
			unsigned c = words - w < 4 ? words - w : 4;

			if (n == AGX_RENDER_MAX_CF)
				return -EINVAL;
			out[n++] = (struct agx_cf_binding){ c, shade, AGX_CMD_CF_SOURCE_VARYING,
							    first + (unsigned)o->slot - 4 + w,
							    (unsigned)in->cf + w };
		}
		regs = regs > (unsigned)in->cf + words ? regs : (unsigned)in->cf + words;
	}
	*count = n;
	*registers = regs;
	return 0;
}
