/*
 * exec-kernels.c: the corpus's framework -- the registry of kernels, cases
 * and their checking, deterministic inputs by domain, and the error
 * arithmetic (struct ev) that turns GLSL ES 3.00's precision rules into a
 * tolerance per output.  The kernels themselves are in exec/.
 */
#include <errno.h>
#include <float.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "exec/exec-internal.h"

/* ---- the registry ------------------------------------------------------------ */

static struct exec_list corpus;
static bool corpus_built;

void exec_add(struct exec_list *l, int (*make)(const struct exec_kernel *, struct exec_case *),
	      const void *param, unsigned variant, const char *fmt, ...)
{
	va_list ap;
	char *name;

	if (l->count == l->capacity) {
		l->capacity = l->capacity ? 2 * l->capacity : 256;
		l->k = realloc(l->k, l->capacity * sizeof(*l->k));
		if (!l->k)
			abort();
	}
	va_start(ap, fmt);
	if (vasprintf(&name, fmt, ap) < 0)
		abort();
	va_end(ap);
	for (unsigned i = 0; i < l->count; i++) {
		if (!strcmp(l->k[i].name, name)) {
			fprintf(stderr, "exec-kernels: two kernels named %s\n", name);
			abort();
		}
	}
	l->k[l->count++] = (struct exec_kernel){ name, make, param, variant };
}

static void build_corpus(void)
{
	if (corpus_built)
		return;
	corpus_built = true;
	exec_builtins_register(&corpus);
	exec_operators_register(&corpus);
	exec_matrix_register(&corpus);
	exec_control_register(&corpus);
	exec_memory_register(&corpus);
	exec_texture_register(&corpus);
}

unsigned exec_kernel_count(void)
{
	build_corpus();
	return corpus.count;
}

const struct exec_kernel *exec_kernel_get(unsigned i)
{
	build_corpus();
	return i < corpus.count ? &corpus.k[i] : NULL;
}

const struct exec_kernel *exec_kernel_find(const char *name)
{
	build_corpus();
	for (unsigned i = 0; i < corpus.count; i++)
		if (!strcmp(corpus.k[i].name, name))
			return &corpus.k[i];
	return NULL;
}

/* ---- text -------------------------------------------------------------------- */

void exec_text_printf(struct exec_text *t, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (t->failed)
		return;
	for (;;) {
		size_t room = t->capacity - t->len;

		va_start(ap, fmt);
		n = vsnprintf(t->s ? t->s + t->len : NULL, room, fmt, ap);
		va_end(ap);
		if (n < 0) {
			t->failed = true;
			return;
		}
		if ((size_t)n < room) {
			t->len += (size_t)n;
			return;
		}
		size_t cap = (t->capacity + (size_t)n + 1) * 2;
		char *s = realloc(t->s, cap);
		if (!s) {
			t->failed = true;
			return;
		}
		t->s = s;
		t->capacity = cap;
	}
}

char *exec_text_take(struct exec_text *t)
{
	if (t->failed) {
		free(t->s);
		t->s = NULL;
	}
	return t->s;
}

/* ---- cases ---------------------------------------------------------------------- */

uint8_t *exec_case_buffer(struct exec_case *c, unsigned binding, bool ubo, size_t size)
{
	if (c->num_buffers == EXEC_MAX_BUFFERS)
		abort(); /* a kernel's own mistake */
	struct exec_buffer *b = &c->buffers[c->num_buffers];
	b->data = calloc(1, size ? size : 4);
	if (!b->data)
		return NULL;
	b->binding = binding;
	b->ubo = ubo;
	b->size = size;
	c->num_buffers++;
	return b->data;
}

struct exec_expect *exec_case_expect(struct exec_case *c, unsigned buffer)
{
	const struct exec_buffer *b = &c->buffers[buffer];

	c->check_buffer = buffer;
	c->num_expect = (unsigned)(b->size / 4);
	c->expect = calloc(c->num_expect ? c->num_expect : 1, sizeof(*c->expect));
	if (!c->expect)
		return NULL;
	/* What the reference does not say stays as it was: a stray write is wrong too. */
	for (unsigned w = 0; w < c->num_expect; w++) {
		uint32_t v;

		memcpy(&v, b->data + 4 * w, 4);
		exec_expect_bits(&c->expect[w], v);
	}
	return c->expect;
}

void exec_case_view(struct exec_case *c, const char *name, unsigned buffer, unsigned offset,
		    unsigned stride, unsigned words, char type)
{
	struct exec_view v = { name, buffer, offset, stride, words, type };

	if (c->num_in < EXEC_MAX_VIEWS)
		c->in[c->num_in++] = v;
}

void exec_case_out(struct exec_case *c, const char *name, unsigned offset, unsigned stride,
		   unsigned words, char type)
{
	c->out = (struct exec_view){ name, c->check_buffer, offset, stride, words, type };
}

void exec_case_uniform(struct exec_case *c, const char *name, unsigned components,
		       const uint32_t *value)
{
	struct exec_uniform *u = &c->uniforms[c->num_uniforms++];

	snprintf(u->name, sizeof(u->name), "%s", name);
	u->components = components;
	memcpy(u->value, value, components * 4);
}

struct exec_texture *exec_case_texture(struct exec_case *c, const char *name, unsigned element,
				       const struct tex_desc *desc, const struct tex_sampler *s)
{
	struct exec_texture *t;
	uint64_t seed = 1469598103934665603ull; /* FNV-1a of the kernel's name and the index */

	if (c->num_textures == EXEC_MAX_TEXTURES)
		abort(); /* a kernel's own mistake */
	for (const char *p = c->kernel->name; *p; p++)
		seed = (seed ^ (uint8_t)*p) * 1099511628211ull;
	t = &c->textures[c->num_textures];
	snprintf(t->name, sizeof(t->name), "%s", name);
	t->element = element;
	t->sampler = *s;
	c->num_textures++;
	if (tex_texture_init(&t->texture, desc, EXEC_TEXTURE_ADDRESS(c->num_textures - 1),
			     seed + c->num_textures))
		return NULL;
	return t;
}

const struct exec_texture *exec_case_find_texture(const struct exec_case *c, const char *name,
						  unsigned element)
{
	for (unsigned i = 0; i < c->num_textures; i++)
		if (name && !strcmp(c->textures[i].name, name) && c->textures[i].element == element)
			return &c->textures[i];
	return NULL;
}

void exec_case_grid(struct exec_case *c, unsigned local, unsigned groups)
{
	c->local[0] = local;
	c->local[1] = c->local[2] = 1;
	c->groups[0] = groups;
	c->groups[1] = c->groups[2] = 1;
}

int exec_case_make(const struct exec_kernel *k, struct exec_case *c)
{
	memset(c, 0, sizeof(*c));
	c->kernel = k;
	int ret = k->make(k, c);
	if (!ret && (!c->source || !c->expect))
		ret = -ENOMEM;
	return ret;
}

void exec_case_finish(struct exec_case *c)
{
	free(c->source);
	for (unsigned i = 0; i < c->num_buffers; i++)
		free(c->buffers[i].data);
	free(c->expect);
	free(c->priv);
	for (unsigned i = 0; i < c->num_textures; i++)
		tex_texture_finish(&c->textures[i].texture);
	memset(c, 0, sizeof(*c));
}

/* ---- checking -------------------------------------------------------------------- */

static bool float_ok(double want, double tol, double got)
{
	return fabs(got - want) <= tol;
}

/* A half of packHalf2x16: either rounding, or a denormal result flushed to a zero. */
static bool half_ok(uint16_t got, uint16_t rne, uint16_t rtz)
{
	bool denormal = (rne & 0x7c00) == 0 && (rne & 0x3ff) != 0;

	return got == rne || got == rtz || (denormal && (got & 0x7fff) == 0);
}

bool exec_expect_ok(const struct exec_expect *x, uint32_t got)
{
	double g = exec_bitsf(got);

	switch (x->kind) {
	case EXEC_ANY:
		return true;
	case EXEC_EXACT:
		return got == x->bits || (x->has_alt && got == x->alt_bits);
	case EXEC_HALF2:
		return half_ok(got & 0xffff, x->bits & 0xffff, x->alt_bits & 0xffff) &&
		       half_ok(got >> 16, x->bits >> 16, x->alt_bits >> 16);
	case EXEC_FLOAT:
		if (isinf(x->value))
			return g == x->value;
		if (isnan(g) || isinf(g))
			return false;
		if (float_ok(x->value, x->tol, g))
			return true;
		if (x->has_alt && float_ok(x->alt, x->alt_tol, g))
			return true;
		/* a denormal result flushed to zero */
		if (g == 0.0 && fabs(x->value) <= x->flush + x->tol)
			return true;
		return false;
	}
	return false;
}

static void print_word(FILE *f, uint32_t w, char type)
{
	switch (type) {
	case 'f':
		fprintf(f, "%.9g (0x%08" PRIx32 ")", exec_bitsf(w), w);
		break;
	case 'i':
		fprintf(f, "%" PRId32 " (0x%08" PRIx32 ")", (int32_t)w, w);
		break;
	default:
		fprintf(f, "%" PRIu32 " (0x%08" PRIx32 ")", w, w);
		break;
	}
}

static void print_expect(FILE *f, const struct exec_expect *x)
{
	switch (x->kind) {
	case EXEC_ANY:
		fprintf(f, "anything");
		break;
	case EXEC_EXACT:
		fprintf(f, "0x%08" PRIx32 " (%" PRId32 ", %.9g)", x->bits, (int32_t)x->bits,
			exec_bitsf(x->bits));
		if (x->has_alt)
			fprintf(f, " or 0x%08" PRIx32 " (with denormal inputs flushed)",
				x->alt_bits);
		break;
	case EXEC_HALF2:
		fprintf(f, "halves 0x%08" PRIx32 " (or 0x%08" PRIx32 " toward zero)", x->bits,
			x->alt_bits);
		break;
	case EXEC_FLOAT:
		fprintf(f, "%.9g +- %.3g", x->value, x->tol);
		if (x->has_alt)
			fprintf(f, " (or %.9g +- %.3g with denormal inputs flushed)", x->alt,
				x->alt_tol);
		break;
	}
}

/* The invocation a checked word belongs to, or -1. */
static int word_invocation(const struct exec_case *c, unsigned w)
{
	const struct exec_view *o = &c->out;

	if (!o->words || !o->stride || w < o->offset)
		return -1;
	unsigned i = (w - o->offset) / o->stride;
	if ((w - o->offset) % o->stride >= o->words)
		return -1;
	return (int)i;
}

static void report_word(const struct exec_case *c, const uint8_t *got, unsigned w, FILE *f)
{
	int inv = word_invocation(c, w);
	uint32_t g;

	memcpy(&g, got + 4 * w, 4);
	fprintf(f, "%s: word %u", c->kernel->name, w);
	if (inv >= 0)
		fprintf(f, " (invocation %d, %s component %u)", inv,
			c->out.name ? c->out.name : "r", (w - c->out.offset) % c->out.stride);
	fprintf(f, ": expected ");
	print_expect(f, &c->expect[w]);
	fprintf(f, ", got ");
	print_word(f, g, c->expect[w].kind == EXEC_FLOAT ? 'f' : c->out.type ? c->out.type : 'u');
	fprintf(f, "\n");
	for (unsigned v = 0; inv >= 0 && v < c->num_in; v++) {
		const struct exec_view *in = &c->in[v];
		const struct exec_buffer *b = &c->buffers[in->buffer];

		fprintf(f, "    %s =", in->name);
		for (unsigned k = 0; k < in->words; k++) {
			size_t at = 4 * ((size_t)in->offset + (size_t)inv * in->stride + k);
			uint32_t x;

			if (at + 4 > b->size)
				break;
			memcpy(&x, b->data + at, 4);
			fprintf(f, " ");
			print_word(f, x, in->type);
		}
		fprintf(f, "\n");
	}
}

unsigned exec_case_check(const struct exec_case *c, const uint8_t *got, FILE *report,
			 unsigned max_reports, unsigned *checked)
{
	unsigned wrong = 0, constrained = 0;

	if (c->check) {
		if (checked)
			*checked = c->num_expect;
		return c->check(c, got, report, max_reports);
	}
	for (unsigned w = 0; w < c->num_expect; w++) {
		uint32_t g;

		memcpy(&g, got + 4 * w, 4);
		constrained += c->expect[w].kind != EXEC_ANY;
		if (exec_expect_ok(&c->expect[w], g))
			continue;
		if (wrong++ < max_reports && report)
			report_word(c, got, w, report);
	}
	if (checked)
		*checked = constrained;
	return wrong;
}

/* ---- inputs ------------------------------------------------------------------------ */

void exec_rng_seed(struct exec_rng *r, const char *name, unsigned n)
{
	uint64_t h = 1469598103934665603ull; /* FNV-1a */

	for (const char *p = name; *p; p++)
		h = (h ^ (uint8_t)*p) * 1099511628211ull;
	r->state = h ^ ((uint64_t)n * 0x9e3779b97f4a7c15ull);
}

uint64_t exec_rng_next(struct exec_rng *r)
{
	uint64_t z = (r->state += 0x9e3779b97f4a7c15ull); /* splitmix64 */

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

double exec_rng_range(struct exec_rng *r, double lo, double hi)
{
	return lo + (hi - lo) * ((double)(exec_rng_next(r) >> 11) / 9007199254740992.0);
}

static const struct exec_prec precs[] = {
	/* highp: IEEE single; log's 2^-21 and 4.5.1's table; sin/cos undefined in GLSL ES
	 * (4.5.1: "not listed above ... undefined precision"): Vulkan's 2^-11 inside [-pi, pi]
	 * (Vulkan 1.3, "Precision and Operation of SPIR-V Instructions"). */
	[PREC_HIGH] = { 23, -126, FLT_MAX, 0x1p-126, 0x1p-21, 0x1p-11 },
	/* mediump: 2^-10 relative over (2^-14, 2^14) (4.5.2); the table's highp absolute
	 * bounds scaled by the same 13 bits (log: 2^-8), trig Vulkan's relaxed 2^-7. */
	[PREC_MEDIUM] = { 10, -14, 16384.0, 0x1p-14, 0x1p-8, 0x1p-7 },
	/* lowp: 2^-8 absolute over (-2, 2) (4.5.2). */
	[PREC_LOW] = { 8, 0, 2.0, 0x1p-8, 0x1p-7, 0x1p-7 },
};

const struct exec_prec *exec_prec(enum exec_precision p)
{
	return &precs[p];
}

const char *exec_prec_name(enum exec_precision p)
{
	return p == PREC_HIGH ? "highp" : p == PREC_MEDIUM ? "mediump" : "lowp";
}

bool exec_is_denormal(float f)
{
	return f != 0.0f && fabsf(f) < FLT_MIN;
}

double exec_flush(double v)
{
	return v != 0.0 && fabs(v) < FLT_MIN ? copysign(0.0, v) : v;
}

/* Random magnitudes: 2^[lo, hi] with a random mantissa and sign. */
static float random_float(struct exec_rng *r, int lo, int hi, bool sign)
{
	double m = exec_rng_range(r, 1.0, 2.0);
	int e = lo + (int)(exec_rng_next(r) % (uint64_t)(hi - lo + 1));
	double v = ldexp(m, e);

	return (float)(sign && (exec_rng_next(r) & 1) ? -v : v);
}

static float float_domain(struct exec_rng *r, enum exec_domain dom, unsigned index)
{
	static const float any_edges[] = { 0.0f,   -0.0f,  1.0f,    -1.0f,	    0.5f,
					   -2.5f,  3.0f,   1e-40f,  -1e-40f,	    1e30f,
					   -1e30f, 1e-30f, FLT_MAX, FLT_MIN,	    -FLT_MIN,
					   1.5f,   -7.25f, 100.0f,  0x1.fffffep-1f, 65504.0f };
	static const float pos_edges[] = { 1.0f,    0.5f,   2.0f, FLT_MIN, 1e-30f, 1e30f,
					   FLT_MAX, 1e-40f, 3.0f, 0.25f,   1e-7f,  4096.0f };
	static const float unit_edges[] = { 0.0f, -0.0f, 1.0f, -1.0f, 0.5f, -0.5f, 1e-40f, 0.25f };
	static const float angle_edges[] = { 0.0f,	     -0.0f,	   1.0f,	  -1.0f,
					     (float)M_PI,    -(float)M_PI, (float)M_PI_2, 1e-40f,
					     -(float)M_PI_2, 0.5f };
	static const float exp_edges[] = { 0.0f, -0.0f, 1.0f, -1.0f, 80.0f, -80.0f, 0.5f, 1e-40f };
	static const float ge1_edges[] = { 1.0f, 2.0f, 1e30f, 1.5f, 10.0f };
	static const float norm_edges[] = { 0.0f, -0.0f, 1.0f, -1.0f, 2.0f, -2.0f, 0.5f, 1.5f };

#define EDGE(list)                                                                                 \
	if (index < sizeof(list) / sizeof(list[0]))                                                \
		return list[index];

	switch (dom) {
	case DOM_ANY:
	case DOM_INF:
	case DOM_SPECIAL:
		if (dom == DOM_SPECIAL && index < 3)
			return index == 0 ? INFINITY : index == 1 ? -INFINITY : NAN;
		if (dom == DOM_INF && index < 2)
			return index == 0 ? INFINITY : -INFINITY;
		if (dom != DOM_ANY)
			index -= dom == DOM_SPECIAL ? 3 : 2;
		EDGE(any_edges);
		return random_float(r, -20, 20, true);
	case DOM_POS:
		EDGE(pos_edges);
		return random_float(r, -20, 20, false);
	case DOM_NONNEG:
		if (index == 0)
			return 0.0f;
		EDGE(pos_edges);
		return random_float(r, -20, 20, false);
	case DOM_MID:
		EDGE(unit_edges);
		return random_float(r, -10, 12, true);
	case DOM_UNIT:
		EDGE(unit_edges);
		return (float)exec_rng_range(r, -1.0, 1.0);
	case DOM_OPEN:
		if (index < 4)
			return (float[]){ 0.0f, -0.0f, 0.5f, -0.5f }[index];
		return (float)exec_rng_range(r, -0.999, 0.999);
	case DOM_ANGLE:
		EDGE(angle_edges);
		return (float)exec_rng_range(r, -M_PI, M_PI) * 0.99999f;
	case DOM_EXP:
		EDGE(exp_edges);
		return (float)exec_rng_range(r, -80.0, 80.0);
	case DOM_GE1:
		EDGE(ge1_edges);
		return (float)(1.0 + fabs(random_float(r, -10, 10, false)));
	case DOM_POW_X:
		EDGE(pos_edges);
		return (float)exec_rng_range(r, 0.001, 100.0);
	case DOM_POW_Y:
		EDGE(unit_edges);
		return (float)exec_rng_range(r, -8.0, 8.0);
	case DOM_NORM:
		EDGE(norm_edges);
		return (float)exec_rng_range(r, -2.0, 2.0);
	default:
		return 0.0f;
	}
#undef EDGE
}

static uint32_t int_domain(struct exec_rng *r, enum exec_domain dom, unsigned index)
{
	static const uint32_t int_edges[] = { 0,	  1,	   0xffffffff, 0x80000000,
					      0x7fffffff, 2,	   0xfffffffe, 0xffff,
					      0xffff8000, 0x10000, 0x7fff,     0x80000001 };
	uint64_t x = exec_rng_next(r);
	/* random magnitudes: the bits shifted right by a random amount, random sign */
	uint32_t v = (uint32_t)(x >> (32 + (x & 31)));

	v = (x >> 5) & 1 ? (uint32_t) - (int32_t)v : v;
	switch (dom) {
	case DOM_INT:
		if (index < sizeof(int_edges) / sizeof(int_edges[0]))
			return int_edges[index];
		return v;
	case DOM_INT_NZ:
		if (index < sizeof(int_edges) / sizeof(int_edges[0]) - 1)
			return int_edges[index + 1];
		return v ? v : 7;
	case DOM_INT_POS:
		if (index < 4)
			return (uint32_t[]){ 1, 0x7fffffff, 2, 3 }[index];
		return (v & 0x7fffffff) ? (v & 0x7fffffff) : 5;
	case DOM_INT_NONNEG:
		if (index < 4)
			return (uint32_t[]){ 0, 1, 0x7fffffff, 0x7ffffffe }[index];
		return v & 0x7fffffff;
	case DOM_INT_SMALL:
		if (index < 5)
			return (uint32_t[]){ 0, 1, (uint32_t)-1, 100, (uint32_t)-100 }[index];
		return (uint32_t)(int32_t)(exec_rng_next(r) % 201) - 100;
	case DOM_SHIFT:
		if (index < 4)
			return (uint32_t[]){ 0, 1, 31, 16 }[index];
		return exec_rng_next(r) % 32;
	case DOM_BOOL:
		if (index < 4)
			return (uint32_t[]){ 0, 1, 1, 0 }[index];
		return exec_rng_next(r) & 1;
	case DOM_FBITS: {
		/* finite patterns, denormals and zeros included */
		if (index < 6)
			return (uint32_t[]){ 0,		 0x80000000, 0x3f800000,
					     0x00000001, 0x7f7fffff, 0xbf800000 }[index];
		uint32_t b = (uint32_t)x;
		if (((b >> 23) & 0xff) == 0xff)
			b &= ~(1u << 30);
		return b;
	}
	default:
		return 0;
	}
}

static bool is_float_domain(enum exec_domain dom)
{
	return dom < DOM_FBITS;
}

/* A value of the precision's range and grid: mediump's 11 bits and range, lowp's 2^-8 steps. */
static bool fits(float f, enum exec_precision prec, float *out)
{
	if (prec == PREC_HIGH) {
		*out = f;
		return true;
	}
	if (isnan(f) || isinf(f))
		return false;
	if (prec == PREC_MEDIUM) {
		if (fabsf(f) >= 16384.0f)
			return false;
		if (fabsf(f) < 0x1p-14f)
			f = copysignf(0.0f, f);
		int e;
		frexpf(f, &e);
		*out = f == 0.0f ? f : ldexpf(rintf(ldexpf(f, 11 - e)), e - 11);
		return true;
	}
	if (fabsf(f) >= 2.0f)
		return false;
	*out = ldexpf(rintf(ldexpf(f, 8)), -8);
	if (fabsf(*out) >= 2.0f)
		*out = copysignf(255.0f / 128.0f, f);
	return true;
}

uint32_t exec_gen(struct exec_rng *r, enum exec_domain dom, unsigned index,
		  enum exec_precision prec)
{
	if (!is_float_domain(dom)) {
		uint32_t v = int_domain(r, dom, index);

		/* mediump and lowp integers: small values, whose results stay in range */
		if (prec != PREC_HIGH && dom != DOM_BOOL && dom != DOM_SHIFT && dom != DOM_FBITS) {
			v = int_domain(r, DOM_INT_SMALL, index);
			if ((dom == DOM_INT_POS || dom == DOM_INT_NONNEG) && (int32_t)v < 0)
				v = (uint32_t)(-(int32_t)v);
			if ((dom == DOM_INT_POS || dom == DOM_INT_NZ) && v == 0)
				v = 3;
		}
		return v;
	}
	for (unsigned tries = 0;; tries++) {
		float f = float_domain(r, dom, index), q;

		if (fits(f, prec, &q) && (prec == PREC_HIGH || q != 0.0f || f == 0.0f ||
					  dom == DOM_ANY || dom == DOM_UNIT || dom == DOM_MID)) {
			if (!(dom == DOM_POS && q <= 0.0f))
				return exec_fbits(q);
		}
		/* outside the precision's range: the next random value */
		index = 1000 + tries;
	}
}

/* ---- error arithmetic ------------------------------------------------------------- */

/* An input that overflowed makes what follows unconstrained. */
#define AMB(x) ((x).amb || (x).ovf)

double ev_ulp(const struct exec_prec *p, double v)
{
	int e = v == 0.0 || isinf(v) || isnan(v) ? p->emin : ilogb(v);

	if (isinf(v))
		return INFINITY;
	return ldexp(1.0, (e < p->emin ? p->emin : e) - p->mant);
}

/* The double computation of an exactly rounded result is itself off by 2^-53 or so. */
static double slack(double v)
{
	return fabs(v) * 0x1p-50;
}

/*
 * A result of one operation: finite beyond the precision's range, it
 * overflowed -- the operation's own result is then infinity, and what an
 * implementation makes of a formula through it is anyone's guess.
 */
static struct ev mk(const struct exec_prec *p, double v, double e, bool amb)
{
	bool ovf = isfinite(v) && fabs(v) > p->max * (1.0 + ldexp(1.0, -p->mant - 1));

	return (struct ev){ v, e + slack(v), amb, ovf };
}

struct ev ev_round(const struct exec_prec *p, struct ev a)
{
	return mk(p, a.v, a.e + 0.5 * ev_ulp(p, a.v), AMB(a));
}

struct ev ev_add(const struct exec_prec *p, struct ev a, struct ev b)
{
	double v = a.v + b.v;

	return mk(p, v, a.e + b.e + 0.5 * ev_ulp(p, v), AMB(a) || AMB(b));
}

struct ev ev_sub(const struct exec_prec *p, struct ev a, struct ev b)
{
	return ev_add(p, a, ev_neg(b));
}

struct ev ev_mul(const struct exec_prec *p, struct ev a, struct ev b)
{
	double v = a.v * b.v;
	double prop = fabs(a.v) * b.e + fabs(b.v) * a.e + a.e * b.e;

	if (a.e == 0.0 && b.e == 0.0)
		prop = 0.0; /* (0 * inf stays out of it) */
	return mk(p, v, prop + 0.5 * ev_ulp(p, v), AMB(a) || AMB(b));
}

struct ev ev_mad(const struct exec_prec *p, struct ev a, struct ev b, struct ev c)
{
	return ev_add(p, ev_mul(p, a, b), c);
}

/* 2.5 ULP for a divisor in [2^-126, 2^126] (4.5.1); outside it, undefined. */
struct ev ev_div(const struct exec_prec *p, struct ev a, struct ev b)
{
	double v = a.v / b.v, lo = fabs(b.v) - b.e;

	if (isinf(b.v) && !isinf(a.v) && b.e == 0.0)
		return mk(p, copysign(0.0, v), a.e, AMB(a) || AMB(b));
	if (lo <= 0.0 || fabs(b.v) < p->min || fabs(b.v) > 1.0 / p->min)
		return (struct ev){ v, INFINITY, true, false };
	double prop = (a.e + fabs(v) * b.e) / lo;
	return mk(p, v, prop + 2.5 * ev_ulp(p, v), AMB(a) || AMB(b));
}

struct ev ev_neg(struct ev a)
{
	return (struct ev){ -a.v, a.e, a.amb, a.ovf };
}

struct ev ev_abs(struct ev a)
{
	return (struct ev){ fabs(a.v), a.e, a.amb, a.ovf };
}

/* exp and exp2: (3 + 2|x|) ULP (4.5.1); the input's error scales by the derivative. */
static struct ev exp_common(const struct exec_prec *p, struct ev a, double base_ln)
{
	double v = exp(a.v * base_ln);
	double prop = fabs(v) * expm1(a.e * base_ln);

	return mk(p, v, (3.0 + 2.0 * fabs(a.v)) * ev_ulp(p, v) + prop, AMB(a));
}

struct ev ev_exp2(const struct exec_prec *p, struct ev a)
{
	return exp_common(p, a, M_LN2);
}

struct ev ev_exp(const struct exec_prec *p, struct ev a)
{
	return exp_common(p, a, 1.0);
}

/* log and log2: 3 ULP outside [0.5, 2], an absolute 2^-21 inside (4.5.1). */
static struct ev log_common(const struct exec_prec *p, struct ev a, double scale)
{
	if (a.v <= 0.0 || a.v - a.e <= 0.0)
		return (struct ev){ NAN, INFINITY, true, false };
	double v = log(a.v) * scale;
	double base = a.v >= 0.5 && a.v <= 2.0 ? p->log_abs : 3.0 * ev_ulp(p, v);
	double prop = -log1p(-a.e / a.v) * scale;
	return mk(p, v, base + prop, AMB(a));
}

struct ev ev_log2(const struct exec_prec *p, struct ev a)
{
	return log_common(p, a, 1.0 / M_LN2);
}

struct ev ev_log(const struct exec_prec *p, struct ev a)
{
	return log_common(p, a, 1.0);
}

/* 2 ULP (4.5.1). */
struct ev ev_inversesqrt(const struct exec_prec *p, struct ev a)
{
	if (a.v <= 0.0 || a.v - a.e <= 0.0)
		return (struct ev){ a.v == 0.0 ? INFINITY : NAN, INFINITY, true, false };
	double v = 1.0 / sqrt(a.v);
	double prop = 1.0 / sqrt(a.v - a.e) - v;
	return mk(p, v, 2.0 * ev_ulp(p, v) + prop, AMB(a));
}

/* "Inherited from 1.0 / inversesqrt()" (4.5.1); sqrt(0) is 0 through 1 / infinity. */
struct ev ev_sqrt(const struct exec_prec *p, struct ev a)
{
	if (a.v == 0.0 && a.e == 0.0)
		return (struct ev){ a.v, 0.0, AMB(a), false };
	if (isinf(a.v) && a.v > 0)
		return (struct ev){ INFINITY, 0.0, AMB(a), false };
	return ev_div(p, ev_exact(1.0), ev_inversesqrt(p, a));
}

/* "Inherited from exp2(y * log2(x))" (4.5.1). */
struct ev ev_pow(const struct exec_prec *p, struct ev x, struct ev y)
{
	return ev_exp2(p, ev_mul(p, y, ev_log2(p, x)));
}

static struct ev trig(const struct exec_prec *p, struct ev a, double v)
{
	if (fabs(a.v) > M_PI * (1.0 + 0x1p-20))
		return (struct ev){ v, INFINITY, true, false };
	return mk(p, v, p->trig_abs + a.e, AMB(a));
}

struct ev ev_sin(const struct exec_prec *p, struct ev a)
{
	return trig(p, a, sin(a.v));
}

struct ev ev_cos(const struct exec_prec *p, struct ev a)
{
	return trig(p, a, cos(a.v));
}

/* atan and atan(y, x): undefined in GLSL ES; Vulkan's 4096 ULP. */
struct ev ev_atan2(const struct exec_prec *p, struct ev y, struct ev x)
{
	double v = atan2(y.v, x.v), r2 = x.v * x.v + y.v * y.v;

	if (r2 == 0.0 || (x.e + y.e) * (x.e + y.e) >= r2)
		return (struct ev){ v, INFINITY, true, false };
	double rlo = sqrt(r2) - (x.e + y.e);
	double prop = (fabs(x.v) * y.e + fabs(y.v) * x.e + x.e * y.e) / (rlo * rlo);
	return mk(p, v, 4096.0 * ev_ulp(p, v) + prop, AMB(x) || AMB(y));
}

struct ev ev_atan(const struct exec_prec *p, struct ev a)
{
	double v = atan(a.v);

	return mk(p, v, 4096.0 * ev_ulp(p, v) + a.e / (1.0 + a.v * a.v - 2 * fabs(a.v) * a.e),
		  AMB(a));
}

/* A step function of a value with an error: ambiguous where the error reaches a step. */
static struct ev stepwise(struct ev a, double (*f)(double))
{
	double v = f(a.v);

	return (struct ev){ v, 0.0, AMB(a) || f(a.v - a.e) != f(a.v + a.e), false };
}

struct ev ev_floor(struct ev a)
{
	return stepwise(a, floor);
}

struct ev ev_ceil(struct ev a)
{
	return stepwise(a, ceil);
}

struct ev ev_trunc(struct ev a)
{
	return stepwise(a, trunc);
}

struct ev ev_min(struct ev a, struct ev b)
{
	return (struct ev){ fmin(a.v, b.v), fmax(a.e, b.e), AMB(a) || AMB(b), false };
}

struct ev ev_max(struct ev a, struct ev b)
{
	return (struct ev){ fmax(a.v, b.v), fmax(a.e, b.e), AMB(a) || AMB(b), false };
}

struct ev ev_clamp(struct ev x, struct ev lo, struct ev hi)
{
	return ev_min(ev_max(x, lo), hi);
}

struct ev ev_lt(struct ev a, struct ev b)
{
	bool amb = AMB(a) || AMB(b) || (a.e + b.e > 0.0 && fabs(a.v - b.v) <= a.e + b.e);

	return (struct ev){ a.v < b.v ? 1.0 : 0.0, 0.0, amb, false };
}

struct ev ev_select(struct ev cond, struct ev a, struct ev b)
{
	struct ev r = cond.v != 0.0 ? a : b;

	r.amb = r.amb || AMB(cond);
	return r;
}

struct ev ev_amb(struct ev r, struct ev a)
{
	r.amb = r.amb || AMB(a);
	return r;
}

void exec_expect_ev(struct exec_expect *x, const struct exec_prec *p, struct ev r)
{
	/* The largest finite value and where rounding goes to infinity. */
	double overflow = p->max * (1.0 + ldexp(1.0, -p->mant - 1));

	memset(x, 0, sizeof(*x));
	x->kind = EXEC_ANY;
	if (r.amb || isnan(r.v) || isnan(r.e))
		return; /* NaNs need not be generated (4.5.1) */
	if (isinf(r.v)) {
		x->kind = EXEC_FLOAT;
		x->value = r.v;
		return;
	}
	if (isinf(r.e))
		return;
	if (fabs(r.v) - r.e > overflow && p->max == FLT_MAX) {
		x->kind = EXEC_FLOAT;
		x->value = copysign(INFINITY, r.v);
		return;
	}
	if (fabs(r.v) + r.e >= overflow)
		return;
	x->kind = EXEC_FLOAT;
	x->value = r.v;
	x->tol = r.e;
	x->flush = ldexp(1.0, p->emin);
}

void exec_expect_alt(struct exec_expect *x, const struct exec_prec *p, struct ev alt)
{
	struct exec_expect a;

	if (x->kind != EXEC_FLOAT)
		return;
	exec_expect_ev(&a, p, alt);
	if (a.kind == EXEC_ANY) {
		x->kind = EXEC_ANY;
		return;
	}
	if (isinf(a.value) || isinf(x->value)) {
		/* one of them infinite: then both must agree to be checked */
		if (a.value != x->value)
			x->kind = EXEC_ANY;
		return;
	}
	x->has_alt = true;
	x->alt = a.value;
	x->alt_tol = a.tol;
}

/* ---- half precision ----------------------------------------------------------------- */

float exec_f16_to_f32(uint16_t h)
{
	int e = (h >> 10) & 0x1f, m = h & 0x3ff;
	double v;

	if (e == 0x1f)
		v = m ? NAN : INFINITY;
	else if (e == 0)
		v = ldexp(m, -24);
	else
		v = ldexp(m | 0x400, e - 25);
	return (float)((h & 0x8000) ? -v : v);
}

uint16_t exec_f32_to_f16(float f)
{
	uint16_t sign = signbit(f) ? 0x8000 : 0;
	double a = fabs((double)f);

	if (isnan(f))
		return 0x7e00;
	if (a >= 65520.0) /* 65504 + half its ULP rounds up to infinity */
		return sign | 0x7c00;
	/* the value in units of the smallest denormal, 2^-24, rounded to nearest even */
	if (a < 0x1p-14) {
		double q = nearbyint(ldexp(a, 24));
		return sign | (uint16_t)q; /* 1024 denormal steps reach the first normal */
	}
	int e = ilogb(a);
	double m = nearbyint(ldexp(a, 10 - e)); /* 1024 .. 2048 */
	if (m == 2048.0) {
		m = 1024.0;
		e++;
	}
	if (e > 15)
		return sign | 0x7c00;
	return sign | (uint16_t)((e + 15) << 10) | (uint16_t)((int)m - 1024);
}

/* ---- hand-written kernels ------------------------------------------------------------ */

int exec_make_hand(const struct exec_kernel *k, struct exec_case *c)
{
	const struct exec_hand *h = k->param;
	unsigned count = 1;
	struct exec_rng rng;

	for (unsigned d = 0; d < 3; d++) {
		c->local[d] = h->local[d] ? h->local[d] : 1;
		c->groups[d] = h->groups[d] ? h->groups[d] : 1;
		count *= c->local[d] * c->groups[d];
	}
	uint32_t *in = (uint32_t *)exec_case_buffer(c, 0, false, (size_t)count * h->in_words * 4);
	uint32_t *out = (uint32_t *)exec_case_buffer(c, 1, false, (size_t)count * h->out_words * 4);
	if (!in || !out || !exec_case_expect(c, 1))
		return -ENOMEM;
	exec_case_out(c, "r", 0, h->out_words, h->out_words, h->type);
	if (h->in_words)
		exec_case_view(c, "x", 0, 0, h->in_words, h->in_words,
			       h->dom < DOM_FBITS ? 'f'
			       : h->type == 'u'	  ? 'u'
						  : 'i');
	exec_rng_seed(&rng, k->name, 0);
	for (unsigned i = 0; i < count * h->in_words; i++)
		in[i] = exec_gen(&rng, h->dom, i, PREC_HIGH);
	/* (setup may replace inputs and add buffers the reference reads) */
	int ret = h->setup ? h->setup(h, c) : 0;
	if (ret)
		return ret;
	for (unsigned i = 0; i < count; i++)
		if (h->ref)
			h->ref(in, i, count, &c->expect[i * h->out_words]);
	c->source = strdup(h->source);
	return c->source ? 0 : -ENOMEM;
}
