/*
 * exec-internal.h: what the corpus's files share (exec-kernels.c and
 * the files of exec/): adding kernels, building a case, deterministic inputs from
 * each domain, and the error arithmetic the references compute their
 * tolerances with.
 */
#ifndef TESTS_LIBAGX_EXEC_INTERNAL_H
#define TESTS_LIBAGX_EXEC_INTERNAL_H

#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>

#include "../exec-kernels.h"

/* ---- the registry ------------------------------------------------------------ */

struct exec_list {
	struct exec_kernel *k;
	unsigned count, capacity;
};

/* Adds a kernel named by fmt (copied); aborts when out of memory (the corpus is fixed). */
void exec_add(struct exec_list *l, int (*make)(const struct exec_kernel *, struct exec_case *),
	      const void *param, unsigned variant, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));

void exec_builtins_register(struct exec_list *l);
void exec_operators_register(struct exec_list *l);
void exec_matrix_register(struct exec_list *l);
void exec_control_register(struct exec_list *l);
void exec_memory_register(struct exec_list *l);
void exec_texture_register(struct exec_list *l);

/* ---- text -------------------------------------------------------------------- */

struct exec_text {
	char *s;
	size_t len, capacity;
	bool failed; /* out of memory */
};

void exec_text_printf(struct exec_text *t, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* The text (the caller frees it), NULL when out of memory. */
char *exec_text_take(struct exec_text *t);

/* ---- cases ---------------------------------------------------------------------- */

/* A zeroed buffer of the case; NULL when out of memory. */
uint8_t *exec_case_buffer(struct exec_case *c, unsigned binding, bool ubo, size_t size);
/* The expectations of the checked buffer (index), words of them, all EXEC_ANY. */
struct exec_expect *exec_case_expect(struct exec_case *c, unsigned buffer);
/* An input to print with a wrong word's invocation (buffer index, words). */
void exec_case_view(struct exec_case *c, const char *name, unsigned buffer, unsigned offset,
		    unsigned stride, unsigned words, char type);
/* Where the checked buffer's invocations are: word offset + i * stride, `words` of them. */
void exec_case_out(struct exec_case *c, const char *name, unsigned offset, unsigned stride,
		   unsigned words, char type);
void exec_case_uniform(struct exec_case *c, const char *name, unsigned components,
		       const uint32_t *value);
/*
 * A texture for element `element` of the sampler uniform `name`, laid out
 * at the case's next texture address with contents seeded by the
 * kernel's name; NULL when it cannot be made (out of memory, or a
 * description the model refuses).
 */
struct exec_texture *exec_case_texture(struct exec_case *c, const char *name, unsigned element,
				       const struct tex_desc *desc, const struct tex_sampler *s);
/* 1D grid of groups x local invocations. */
void exec_case_grid(struct exec_case *c, unsigned local, unsigned groups);

static inline uint32_t exec_fbits(float f)
{
	uint32_t b;

	__builtin_memcpy(&b, &f, 4);
	return b;
}

static inline float exec_bitsf(uint32_t b)
{
	float f;

	__builtin_memcpy(&f, &b, 4);
	return f;
}

static inline void exec_expect_bits(struct exec_expect *x, uint32_t bits)
{
	x->kind = EXEC_EXACT;
	x->bits = bits;
}

/* A float copied or made exactly: these bits, or a zero for a denormal (4.5.1's flush). */
static inline void exec_expect_float(struct exec_expect *x, float f)
{
	*x = (struct exec_expect){ .kind = f != f ? EXEC_ANY : EXEC_FLOAT,
				   .value = f,
				   .flush = 0x1p-126 };
}

/* ---- inputs ------------------------------------------------------------------------ */

struct exec_rng {
	uint64_t state;
};

/* Seeded from a name and a number: every run makes the same inputs. */
void exec_rng_seed(struct exec_rng *r, const char *name, unsigned n);
uint64_t exec_rng_next(struct exec_rng *r);
/* Uniform in [lo, hi). */
double exec_rng_range(struct exec_rng *r, double lo, double hi);

enum exec_domain {
	/* floats */
	DOM_ANY,     /* finite: signed zeros, denormals, 1, -1, large, small, random magnitudes */
	DOM_INF,     /* DOM_ANY and the infinities */
	DOM_SPECIAL, /* DOM_ANY, the infinities and NaN */
	DOM_POS,     /* > 0 */
	DOM_NONNEG,  /* >= 0 (with +0 and denormals) */
	DOM_MID,     /* |x| < 1e4 */
	DOM_UNIT,    /* [-1, 1] */
	DOM_OPEN,    /* (-1, 1) */
	DOM_ANGLE,   /* [-pi, pi] */
	DOM_EXP,     /* [-80, 80]: exp's results stay finite */
	DOM_GE1,     /* >= 1 */
	DOM_POW_X,   /* (0, 100] */
	DOM_POW_Y,   /* [-8, 8] */
	DOM_NORM,    /* [-2, 2]: snorm/unorm packing, with the clamped ends */
	DOM_FBITS,   /* bit patterns of finite floats, as int or uint */
	/* integers */
	DOM_INT,     /* 0, 1, -1, INT_MIN, INT_MAX, 0xffff, ... and random magnitudes */
	DOM_INT_NZ,  /* DOM_INT without 0 */
	DOM_INT_POS, /* > 0 */
	DOM_INT_NONNEG,
	DOM_INT_SMALL, /* [-100, 100]: mediump and lowp */
	DOM_SHIFT,     /* [0, 31] */
	DOM_BOOL,      /* 0 or 1 */
};

/*
 * The precision a kernel declares (GLSL ES 3.00 section 4.5.2): highp is
 * IEEE single; mediump has a relative precision of 2^-10 over
 * (2^-14, 2^14), lowp an absolute 2^-8 over (-2, 2).  An implementation
 * may compute them at highp.
 */
enum exec_precision {
	PREC_HIGH,
	PREC_MEDIUM,
	PREC_LOW,
};

struct exec_prec {
	int mant;	/* bits of the ULP below the leading one */
	int emin;	/* smallest exponent of a normal value (ULPs below it stay this size) */
	double max;	/* largest magnitude */
	double min;	/* smallest magnitude a divisor may have */
	double log_abs; /* log's and log2's absolute error inside [0.5, 2] */
	double trig_abs;
};

const struct exec_prec *exec_prec(enum exec_precision p);
const char *exec_prec_name(enum exec_precision p);

/*
 * The index-th input of a domain (the edge values first, then random
 * ones), as the bits of a float or an integer, representable at the
 * precision.
 */
uint32_t exec_gen(struct exec_rng *r, enum exec_domain dom, unsigned index,
		  enum exec_precision prec);

/* ---- error arithmetic ----------------------------------------------------------------- */

/*
 * A value computed in double precision and the bound of the error an
 * implementation may make computing it: each operation adds what GLSL ES
 * 3.00 section 4.5.1 allows it, and carries its inputs' errors through its
 * derivative.  `amb` marks a result the allowed errors make ambiguous (a
 * floor of something within its error of an integer, a comparison within
 * its error): any value is then acceptable.
 */
struct ev {
	double v, e;
	bool amb;
	bool ovf; /* the last operation overflowed the precision's range */
};

static inline struct ev ev_exact(double v)
{
	return (struct ev){ v, 0.0, false, false };
}

double ev_ulp(const struct exec_prec *p, double v);
/* Correctly rounded: half an ULP. */
struct ev ev_round(const struct exec_prec *p, struct ev a);
struct ev ev_add(const struct exec_prec *p, struct ev a, struct ev b);
struct ev ev_sub(const struct exec_prec *p, struct ev a, struct ev b);
struct ev ev_mul(const struct exec_prec *p, struct ev a, struct ev b);
/* a * b + c: "a single correctly rounded operation or two" (4.5.1): the looser, two. */
struct ev ev_mad(const struct exec_prec *p, struct ev a, struct ev b, struct ev c);
struct ev ev_div(const struct exec_prec *p, struct ev a, struct ev b);
struct ev ev_neg(struct ev a);
struct ev ev_abs(struct ev a);
struct ev ev_exp2(const struct exec_prec *p, struct ev a);
struct ev ev_exp(const struct exec_prec *p, struct ev a);
struct ev ev_log2(const struct exec_prec *p, struct ev a);
struct ev ev_log(const struct exec_prec *p, struct ev a);
struct ev ev_inversesqrt(const struct exec_prec *p, struct ev a);
struct ev ev_sqrt(const struct exec_prec *p, struct ev a);
struct ev ev_pow(const struct exec_prec *p, struct ev x, struct ev y);
struct ev ev_sin(const struct exec_prec *p, struct ev a);
struct ev ev_cos(const struct exec_prec *p, struct ev a);
struct ev ev_atan2(const struct exec_prec *p, struct ev y, struct ev x);
struct ev ev_atan(const struct exec_prec *p, struct ev a);
struct ev ev_floor(struct ev a);
struct ev ev_ceil(struct ev a);
struct ev ev_trunc(struct ev a);
struct ev ev_min(struct ev a, struct ev b);
struct ev ev_max(struct ev a, struct ev b);
struct ev ev_clamp(struct ev x, struct ev lo, struct ev hi);
/* a < b, ambiguous within the errors; as 0 or 1. */
struct ev ev_lt(struct ev a, struct ev b);
struct ev ev_select(struct ev cond, struct ev a, struct ev b);
/* Any of the arguments ambiguous makes the result so. */
struct ev ev_amb(struct ev r, struct ev a);

/* What a float result must be: EXEC_FLOAT within the error, infinity, or EXEC_ANY. */
void exec_expect_ev(struct exec_expect *x, const struct exec_prec *p, struct ev r);
/* Adds the result of the inputs with denormals flushed as an alternative. */
void exec_expect_alt(struct exec_expect *x, const struct exec_prec *p, struct ev alt);

/* IEEE half precision, our own conversions (round to nearest even), to judge the compiler's. */
uint16_t exec_f32_to_f16(float f);
float exec_f16_to_f32(uint16_t h);

/* A denormal (at highp) flushed to a zero of its sign. */
double exec_flush(double v);
bool exec_is_denormal(float f);

/* ---- hand-written kernels ------------------------------------------------------------ */

/*
 * A hand-written kernel: its whole source, a grid, in_words per invocation
 * at binding 0 (from one domain), out_words per invocation at binding 1,
 * and a reference giving invocation inv's expectations from all inputs.
 */
struct exec_hand {
	const char *name;
	const char *source;
	unsigned local[3], groups[3]; /* 0 counts as 1 */
	unsigned in_words;
	enum exec_domain dom;
	unsigned out_words;
	char type; /* how its words print: 'i', 'u', 'f' */
	void (*ref)(const uint32_t *in, unsigned inv, unsigned count, struct exec_expect *x);
	/* More for the case: uniform blocks, uniforms, a check of its own; 0 or -ENOMEM. */
	int (*setup)(const struct exec_hand *h, struct exec_case *c);
};

int exec_make_hand(const struct exec_kernel *k, struct exec_case *c);

static inline void exec_add_hand(struct exec_list *l, const struct exec_hand *h)
{
	exec_add(l, exec_make_hand, h, 0, "%s", h->name);
}

/* Invocation inv's word w of n per invocation. */
static inline int32_t exec_in_i(const uint32_t *in, unsigned inv, unsigned n, unsigned w)
{
	return (int32_t)in[inv * n + w];
}

static inline float exec_in_f(const uint32_t *in, unsigned inv, unsigned n, unsigned w)
{
	return exec_bitsf(in[inv * n + w]);
}

#endif
