/*
 * variants.c: compiled shader variants (variants.h).  A hash table of
 * entries, each holding a reference to the executable it was compiled
 * from (so that its address stays its own), the options and the binary;
 * the code goes into an append-only BO.  When the BO is full every
 * variant is dropped once the context's work has finished, and compiled
 * again as draws need it.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "context.h"
#include "program.h"
#include "submit.h"
#include "variants.h"

/*
 * The context's code BO: small at first (an application may have a
 * thousand contexts), twice as large each time it fills, up to the most.
 */
#define CODE_SIZE_FIRST (256u << 10)
#define CODE_SIZE	(4u << 20)
#define CODE_ALIGN	64
#define BUCKETS		256

struct entry {
	struct entry *next;
	uint64_t hash;
	struct gles_linked *linked; /* a reference */
	unsigned stage;
	struct agx_compile_options opts;
	struct gles_variant v;
};

struct gles_variants {
	struct entry *buckets[BUCKETS];
	/* each stage's last variant: draws after the first mostly want it again */
	struct entry *last[GLES_STAGES];
	struct agx_bo code;
	uint64_t code_va;
	size_t used;
	unsigned generation; /* counts drop_all()s */
	bool warned;
};

/*
 * The bytes of the options a stage's key is: the vertex stage's fields
 * (attribute arrays, clip z, transform feedback) or the fragment stage's
 * (render targets); robust_access, between them, is in both.  The rest
 * are zero in every key of the stage, so only these are hashed and
 * compared -- the draw's cheapest test.
 */
_Static_assert(offsetof(struct agx_compile_options, rt) <
		       offsetof(struct agx_compile_options, num_rts) &&
		   offsetof(struct agx_compile_options, num_rts) <
		       offsetof(struct agx_compile_options, robust_access) &&
		   offsetof(struct agx_compile_options, robust_access) <
		       offsetof(struct agx_compile_options, attribs) &&
		   offsetof(struct agx_compile_options, attribs) <
		       offsetof(struct agx_compile_options, depth_zero_to_one) &&
		   offsetof(struct agx_compile_options, depth_zero_to_one) <
		       offsetof(struct agx_compile_options, xfb),
	       "the stages' fields of agx_compile_options are where key_bytes() takes them");

static void key_bytes(unsigned stage, const struct agx_compile_options *o, const uint8_t **b,
		      size_t *n)
{
	size_t from = stage == GLES_STAGE_VERTEX
			  ? offsetof(struct agx_compile_options, robust_access)
			  : offsetof(struct agx_compile_options, rt);
	size_t to =
	    stage == GLES_STAGE_VERTEX ? sizeof(*o) : offsetof(struct agx_compile_options, attribs);

	*b = (const uint8_t *)o + from;
	*n = to - from;
}

static bool same_key(unsigned stage, const struct agx_compile_options *a,
		     const struct agx_compile_options *b)
{
	const uint8_t *ka, *kb;
	size_t n;

	key_bytes(stage, a, &ka, &n);
	key_bytes(stage, b, &kb, &n);
	return !memcmp(ka, kb, n);
}

static uint64_t hash_key(const struct gles_linked *l, unsigned stage,
			 const struct agx_compile_options *o)
{
	const uint8_t *b;
	uint64_t h = 0xcbf29ce484222325ull ^ (uintptr_t)l ^ ((uint64_t)stage << 56), w;
	size_t i = 0, n;

	key_bytes(stage, o, &b, &n);
	/* FNV-1a over 64-bit words, then the bytes left */
	for (; i + 8 <= n; i += 8) {
		memcpy(&w, b + i, 8);
		h = (h ^ w) * 0x100000001b3ull;
	}
	for (; i < n; i++)
		h = (h ^ b[i]) * 0x100000001b3ull;
	return h ^ (h >> 29);
}

static void drop_all(struct gles_variants *vs)
{
	for (unsigned i = 0; i < BUCKETS; i++) {
		for (struct entry *e = vs->buckets[i], *n; e; e = n) {
			n = e->next;
			agx_shader_binary_finish(&e->v.binary);
			gles_linked_unref(e->linked);
			free(e);
		}
		vs->buckets[i] = NULL;
	}
	vs->used = 0;
	vs->generation++;
	memset(vs->last, 0, sizeof(vs->last));
}

unsigned gles_variants_generation(const struct gles_context *ctx)
{
	return ctx->variants ? ctx->variants->generation : 0;
}

/* Room for size bytes of code: the BO made, or emptied once the GPU is done with it. */
static int code_room(struct gles_context *ctx, struct gles_variants *vs, size_t size)
{
	int ret;

	size_t want = vs->code.size ? vs->code.size * 2 : CODE_SIZE_FIRST;

	if (size > CODE_SIZE)
		return -ENOMEM;
	if (vs->code.size && vs->used + size <= vs->code.size)
		return 0;
	/* full (or none yet): the GPU done with what it holds, every variant goes */
	if (vs->code.size) {
		if ((ret = gles_submit_wait(ctx)) < 0)
			return ret;
		drop_all(vs);
		if (vs->code.size >= CODE_SIZE && size <= vs->code.size)
			return 0;
		gles_submit_bo_free(ctx, &vs->code, vs->code_va);
	}
	while (want < size)
		want *= 2;
	return gles_submit_bo(ctx, want > CODE_SIZE ? CODE_SIZE : want,
			      AGX_BIND_READ | AGX_BIND_EXECUTE | AGX_MAP_USC, &vs->code,
			      &vs->code_va);
}

const struct gles_variant *gles_variant_get(struct gles_context *ctx, struct gles_linked *linked,
					    unsigned stage, const struct agx_compile_options *opts,
					    int *err)
{
	struct gles_variants *vs = ctx->variants;
	const struct gles_program_stage *ps = &linked->stages[stage];
	struct entry *e;
	uint64_t h;
	size_t at;

	if (!vs && !(vs = ctx->variants = calloc(1, sizeof(*vs)))) {
		*err = -ENOMEM;
		return NULL;
	}
	e = vs->last[stage];
	if (e && e->linked == linked && same_key(stage, &e->opts, opts))
		return &e->v;
	h = hash_key(linked, stage, opts);
	for (e = vs->buckets[h % BUCKETS]; e; e = e->next)
		if (e->hash == h && e->linked == linked && e->stage == stage &&
		    same_key(stage, &e->opts, opts))
			return &(vs->last[stage] = e)->v;
	if (!(e = calloc(1, sizeof(*e)))) {
		*err = -ENOMEM;
		return NULL;
	}
	*err = agx_compile_spirv(ps->code->stage, ps->spirv ? ps->spirv : ps->code->glsl.spirv,
				 ps->spirv ? ps->spirv_words : ps->code->glsl.spirv_words, opts,
				 &e->v.binary);
	if (*err == 0)
		*err = code_room(ctx, vs, e->v.binary.size + CODE_ALIGN);
	if (*err < 0) {
		if (!vs->warned && *err != -ENOMEM)
			fprintf(stderr, "libEGL_agx: a shader variant does not compile: %s\n",
				e->v.binary.log ? e->v.binary.log : "no reason given");
		vs->warned = true;
		agx_shader_binary_finish(&e->v.binary);
		free(e);
		return NULL;
	}
	at = (vs->used + CODE_ALIGN - 1) / CODE_ALIGN * CODE_ALIGN;
	memcpy((uint8_t *)vs->code.map + at, e->v.binary.code, e->v.binary.size);
	vs->used = at + e->v.binary.size;
	e->v.va = vs->code_va + at;
	e->hash = h;
	e->linked = gles_linked_ref(linked);
	e->stage = stage;
	e->opts = *opts;
	e->next = vs->buckets[h % BUCKETS];
	vs->buckets[h % BUCKETS] = e;
	vs->last[stage] = e;
	return &e->v;
}

void gles_variants_context_finish(struct gles_context *ctx)
{
	struct gles_variants *vs = ctx->variants;

	if (!vs)
		return;
	gles_programs_lock(ctx); /* the executables' references */
	drop_all(vs);
	gles_programs_unlock(ctx);
	gles_submit_bo_free(ctx, &vs->code, vs->code_va);
	free(vs);
	ctx->variants = NULL;
}
