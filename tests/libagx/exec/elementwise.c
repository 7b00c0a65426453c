/*
 * elementwise.c: kernels made from one template -- invocation i reads its
 * operands a[i], b[i], c[i] from binding 0, evaluates one GLSL expression
 * (a built-in function or an operator) and writes r[i] to binding 1 --
 * instantiated for each type (float, vec2..4, int, ivec*, uint, uvec*,
 * bool, bvec*) and, for some, at mediump and lowp.  The references follow
 * the definitions of GLSL ES 3.00 section 8 (built-ins) and 5 (operators);
 * the tolerances come from struct ev (exec-kernels.c).
 */
#include <errno.h>
#include <float.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "exec-internal.h"

#define INVOCATIONS 64
#define LOCAL	    32

/* Operand and result shapes: a base type and a size. */
struct shape {
	char base; /* 'f' float, 'i' int, 'u' uint, 'b' bool */
	bool scalar;
};

typedef struct ev (*f1_fn)(const struct exec_prec *p, struct ev a, struct ev b, struct ev c);
typedef uint32_t (*x1_fn)(uint32_t a, uint32_t b, uint32_t c);
typedef void (*fv_fn)(const struct exec_prec *p, unsigned n, const struct ev *a, const struct ev *b,
		      const struct ev *c, struct ev *r);
/* Returns the components whose expectations it set itself (a bit each); the others are r's. */
typedef unsigned (*xv_fn)(unsigned n, const uint32_t *a, const uint32_t *b, const uint32_t *c,
			  uint32_t *r, struct exec_expect *x);
typedef void (*fix_fn)(uint32_t *a, uint32_t *b, uint32_t *c);

struct ew {
	const char *name; /* with $T for the type */
	const char *expr; /* GLSL over a, b, c */
	const char *sig;  /* "R=A,B,C": each f/i/u/b then g (the kernel's size) or 1 */
	unsigned sizes;	  /* bit n: instantiate at size n (1..4) */
	unsigned precs;	  /* bit PREC_*: the precisions to instantiate (highp always) */
	enum exec_domain dom[3];
	f1_fn f1;
	x1_fn x1;
	fv_fn fv;
	xv_fn xv;
	fix_fn fix;
	const char *helper; /* GLSL before main, $T for the type */
};

#define SZ_ALL 0x1e
#define SZ_VEC 0x1c
#define SZ_1   0x02
#define SZ_2   0x04
#define SZ_3   0x08
#define MEDIUM (1u << PREC_MEDIUM)
#define LOW    (1u << PREC_LOW)

struct parsed {
	struct shape r, arg[3];
	unsigned nargs;
};

static void parse_sig(const char *sig, struct parsed *p)
{
	memset(p, 0, sizeof(*p));
	p->r.base = sig[0];
	p->r.scalar = sig[1] == '1';
	const char *s = sig + 2; /* '=' */
	while (*s == '=' || *s == ',') {
		s++;
		p->arg[p->nargs].base = s[0];
		p->arg[p->nargs].scalar = s[1] == '1';
		p->nargs++;
		s += 2;
	}
}

static unsigned comps(struct shape s, unsigned n)
{
	return s.scalar ? 1 : n;
}

/* The GLSL type of a shape at size n: in a local variable, and in memory (bools as uint). */
static const char *type_name(char base, unsigned n, bool memory)
{
	static const char *names[4][5] = {
		{ "", "float", "vec2", "vec3", "vec4" },
		{ "", "int", "ivec2", "ivec3", "ivec4" },
		{ "", "uint", "uvec2", "uvec3", "uvec4" },
		{ "", "bool", "bvec2", "bvec3", "bvec4" },
	};
	int row = base == 'f' ? 0 : base == 'i' ? 1 : base == 'u' ? 2 : 3;

	if (memory && row == 3)
		row = 2;
	return names[row][n];
}

/* std430: a scalar array's stride is 4, vec2's 8, vec3's and vec4's 16. */
static unsigned stride_words(unsigned n)
{
	return n == 1 ? 1 : n == 2 ? 2 : 4;
}

/* text with $T replaced by type and $R by rtype. */
static char *subst(const char *text, const char *type, const char *rtype)
{
	struct exec_text t = { 0 };

	for (const char *s = text; *s; s++) {
		if (s[0] == '$' && (s[1] == 'T' || s[1] == 'R')) {
			exec_text_printf(&t, "%s", s[1] == 'T' ? type : rtype);
			s++;
		} else {
			exec_text_printf(&t, "%c", *s);
		}
	}
	return exec_text_take(&t);
}

struct variant {
	unsigned n;
	enum exec_precision prec;
};

static struct variant decode_variant(unsigned v)
{
	return (struct variant){ v & 7, (enum exec_precision)(v >> 3) };
}

static struct ev arg_ev(char base, uint32_t bits, bool flush)
{
	switch (base) {
	case 'f':
		return ev_exact(flush ? exec_flush(exec_bitsf(bits)) : exec_bitsf(bits));
	case 'i':
		return ev_exact((int32_t)bits);
	case 'u':
		return ev_exact(bits);
	default:
		return ev_exact(bits ? 1.0 : 0.0);
	}
}

/* Invocation inv's expectations for components r of the result. */
static void reference(const struct ew *d, const struct parsed *ps, struct variant v,
		      uint32_t args[3][4], struct exec_expect *x)
{
	const struct exec_prec *p = exec_prec(v.prec);
	unsigned rn = comps(ps->r, v.n);
	bool any_denormal = false;

	for (unsigned j = 0; j < ps->nargs; j++)
		for (unsigned k = 0; k < comps(ps->arg[j], v.n); k++)
			any_denormal |=
			    ps->arg[j].base == 'f' && exec_is_denormal(exec_bitsf(args[j][k]));

	if (d->x1 || d->xv) {
		uint32_t r[2][4] = { { 0 } };
		unsigned own = 0;

		for (unsigned k = 0; k < rn; k++)
			memset(&x[k], 0, sizeof(x[k]));
		/* the inputs as they are, then with denormals flushed (4.5.1 allows either) */
		for (unsigned pass = 0; pass < (any_denormal ? 2u : 1u); pass++) {
			uint32_t fa[3][4];

			for (unsigned j = 0; j < 3; j++) {
				for (unsigned k = 0; k < 4; k++) {
					fa[j][k] = args[j][k];
					if (pass && ps->arg[j].base == 'f' &&
					    exec_is_denormal(exec_bitsf(fa[j][k])))
						fa[j][k] &= 0x80000000u;
				}
			}
			if (d->x1) {
				for (unsigned k = 0; k < rn; k++) {
					uint32_t a[3] = { 0 };
					for (unsigned j = 0; j < ps->nargs; j++)
						a[j] = fa[j][ps->arg[j].scalar ? 0 : k];
					r[pass][k] = d->x1(a[0], a[1], a[2]);
				}
			} else {
				struct exec_expect tmp[4];
				unsigned o =
				    d->xv(v.n, fa[0], fa[1], fa[2], r[pass], pass ? tmp : x);
				own |= o;
				/* (an expectation it set itself with flushed inputs: unconstrained)
				 */
				for (unsigned k = 0; pass && k < rn; k++)
					if ((o & (1u << k)) &&
					    memcmp(&tmp[k], &x[k], sizeof(tmp[k])))
						x[k].kind = EXEC_ANY;
			}
		}
		for (unsigned k = 0; k < rn; k++) {
			if (own & (1u << k))
				continue;
			if (ps->r.base == 'f') {
				/* a float result that is exact: only a flush may change it */
				float f = exec_bitsf(r[0][k]);
				x[k] =
				    (struct exec_expect){ .kind = isnan(f) ? EXEC_ANY : EXEC_FLOAT,
							  .value = f,
							  .flush = ldexp(1.0, p->emin) };
				if (any_denormal && r[1][k] != r[0][k]) {
					x[k].has_alt = true;
					x[k].alt = exec_bitsf(r[1][k]);
				}
			} else {
				exec_expect_bits(&x[k], r[0][k]);
				if (any_denormal && r[1][k] != r[0][k]) {
					x[k].has_alt = true;
					x[k].alt_bits = r[1][k];
				}
			}
		}
		return;
	}

	for (unsigned pass = 0; pass < (any_denormal ? 2u : 1u); pass++) {
		struct ev a[3][4], r[4];

		for (unsigned j = 0; j < 3; j++)
			for (unsigned k = 0; k < 4; k++)
				a[j][k] = ev_exact(0.0);
		for (unsigned j = 0; j < ps->nargs; j++)
			for (unsigned k = 0; k < comps(ps->arg[j], v.n); k++)
				a[j][k] = arg_ev(ps->arg[j].base, args[j][k], pass == 1);
		if (d->f1) {
			for (unsigned k = 0; k < rn; k++) {
				struct ev s[3];
				for (unsigned j = 0; j < 3; j++)
					s[j] = a[j][ps->arg[j].scalar ? 0 : k];
				r[k] = d->f1(p, s[0], s[1], s[2]);
			}
		} else {
			d->fv(p, v.n, a[0], a[1], a[2], r);
		}
		for (unsigned k = 0; k < rn; k++) {
			if (pass == 0)
				exec_expect_ev(&x[k], p, r[k]);
			else
				exec_expect_alt(&x[k], p, r[k]);
		}
	}
}

/*
 * Whether a mediump or lowp result stays inside its precision's range
 * (4.5.2: floats (-2^14, 2^14) and (-2, 2), integers [-2^15, 2^15 - 1] and
 * [-2^8, 2^8 - 1]); outside it the result is undefined.
 */
static bool in_range(const struct exec_expect *x, unsigned rn, enum exec_precision prec, char rbase)
{
	const struct exec_prec *p = exec_prec(prec);
	int32_t ilim = prec == PREC_MEDIUM ? 32768 : 256;

	if (prec == PREC_HIGH)
		return true;
	for (unsigned k = 0; k < rn; k++) {
		if (x[k].kind == EXEC_FLOAT && !(fabs(x[k].value) + x[k].tol < p->max))
			return false;
		if (x[k].kind == EXEC_EXACT && rbase == 'i' &&
		    ((int32_t)x[k].bits >= ilim || (int32_t)x[k].bits < -ilim))
			return false;
	}
	return true;
}

static int make_ew(const struct exec_kernel *k, struct exec_case *c)
{
	const struct ew *d = k->param;
	struct variant v = decode_variant(k->variant);
	struct parsed ps;
	struct exec_text t = { 0 };
	unsigned offset[3] = { 0 }, size = 0;
	static const char names[3] = { 'a', 'b', 'c' };

	parse_sig(d->sig, &ps);
	exec_case_grid(c, LOCAL, INVOCATIONS / LOCAL);

	/* the input block's layout (std430): each member an array, aligned to its element */
	for (unsigned j = 0; j < ps.nargs; j++) {
		unsigned n = comps(ps.arg[j], v.n), align = stride_words(n);

		size = (size + align - 1) / align * align;
		offset[j] = size;
		size += INVOCATIONS * stride_words(n);
	}
	uint8_t *in = exec_case_buffer(c, 0, false, size * 4);
	unsigned rn = comps(ps.r, v.n), rstride = stride_words(rn);
	uint8_t *out = exec_case_buffer(c, 1, false, INVOCATIONS * rstride * 4);
	if (!in || !out)
		return -ENOMEM;
	struct exec_expect *x = exec_case_expect(c, 1);
	if (!x)
		return -ENOMEM;
	exec_case_out(c, "r", 0, rstride, rn,
		      ps.r.base == 'f'	 ? 'f'
		      : ps.r.base == 'i' ? 'i'
					 : 'u');
	for (unsigned j = 0; j < ps.nargs; j++) {
		char base = ps.arg[j].base;
		exec_case_view(c, (const char *[]){ "a", "b", "c" }[j], 0, offset[j],
			       stride_words(comps(ps.arg[j], v.n)), comps(ps.arg[j], v.n),
			       base == 'f'   ? 'f'
			       : base == 'i' ? 'i'
					     : 'u');
	}

	/* the inputs, and the reference's expectations */
	struct exec_rng rng[3];
	for (unsigned j = 0; j < 3; j++)
		exec_rng_seed(&rng[j], k->name, j);
	for (unsigned i = 0; i < INVOCATIONS; i++) {
		uint32_t args[3][4] = { { 0 } };

		for (unsigned attempt = 0; attempt < 200; attempt++) {
			for (unsigned j = 0; j < ps.nargs; j++) {
				unsigned n = comps(ps.arg[j], v.n);
				for (unsigned q = 0; q < n; q++) {
					unsigned index =
					    attempt ? 4000 + 8 * attempt + q : i * n + q;
					enum exec_precision gp =
					    ps.arg[j].base == 'b' ? PREC_HIGH : v.prec;
					args[j][q] = exec_gen(&rng[j], d->dom[j], index, gp);
				}
			}
			if (d->fix) {
				for (unsigned q = 0; q < 4; q++) {
					uint32_t *aa = &args[0][ps.arg[0].scalar ? 0 : q];
					uint32_t *bb = &args[1][ps.arg[1].scalar ? 0 : q];
					uint32_t *cc = &args[2][ps.arg[2].scalar ? 0 : q];
					d->fix(aa, bb, cc);
				}
			}
			reference(d, &ps, v, args, &x[i * rstride]);
			/* mediump and lowp: inputs whose results the rules constrain */
			bool constrained = true;
			for (unsigned q = 0; q < rn && v.prec != PREC_HIGH; q++)
				constrained &= x[i * rstride + q].kind != EXEC_ANY;
			if (in_range(&x[i * rstride], rn, v.prec, ps.r.base) && constrained)
				break;
			if (attempt == 199) /* (no inputs found: nothing to check) */
				memset(&x[i * rstride], 0, rn * sizeof(*x));
		}
		for (unsigned j = 0; j < ps.nargs; j++) {
			unsigned n = comps(ps.arg[j], v.n);
			memcpy(in + 4 * (offset[j] + i * stride_words(n)), args[j], 4 * n);
		}
	}

	/* the source */
	const char *rtype = type_name(ps.r.base, rn, false);
	const char *gtype = type_name(ps.arg[0].base, ps.arg[0].scalar ? 1 : v.n, false);
	const char *prec = v.prec == PREC_HIGH ? "" : exec_prec_name(v.prec);
	exec_text_printf(&t, "#version 310 es\nlayout(local_size_x = %u) in;\n", LOCAL);
	exec_text_printf(&t, "layout(std430, binding = 0) buffer In {\n");
	for (unsigned j = 0; j < ps.nargs; j++)
		exec_text_printf(&t, "\t%s %c[%u];\n",
				 type_name(ps.arg[j].base, comps(ps.arg[j], v.n), true), names[j],
				 INVOCATIONS);
	exec_text_printf(&t,
			 "} inp;\nlayout(std430, binding = 1) buffer Out {\n\t%s r[%u];\n} outp;\n",
			 type_name(ps.r.base, rn, true), INVOCATIONS);
	if (d->helper) {
		char *h = subst(d->helper, gtype, rtype);
		exec_text_printf(&t, "%s\n", h ? h : "");
		free(h);
	}
	exec_text_printf(&t, "void main()\n{\n\tuint i = gl_GlobalInvocationID.x;\n");
	for (unsigned j = 0; j < ps.nargs; j++) {
		unsigned n = comps(ps.arg[j], v.n);
		const char *ty = type_name(ps.arg[j].base, n, false);
		if (ps.arg[j].base == 'b')
			exec_text_printf(&t, "\t%s %c = %s(inp.%c[i]);\n", ty, names[j], ty,
					 names[j]);
		else
			exec_text_printf(&t, "\t%s%s%s %c = inp.%c[i];\n", prec, *prec ? " " : "",
					 ty, names[j], names[j]);
	}
	char *expr = subst(d->expr, gtype, rtype);
	if (ps.r.base == 'b')
		exec_text_printf(&t, "\toutp.r[i] = %s(%s);\n}\n", type_name('u', rn, true),
				 expr ? expr : "");
	else
		exec_text_printf(&t, "\t%s%s%s res = %s;\n\toutp.r[i] = res;\n}\n", prec,
				 *prec ? " " : "", rtype, expr ? expr : "");
	free(expr);
	c->source = exec_text_take(&t);
	return c->source ? 0 : -ENOMEM;
}

static void add_all(struct exec_list *l, const struct ew *defs, unsigned count)
{
	for (unsigned i = 0; i < count; i++) {
		const struct ew *d = &defs[i];
		struct parsed ps;

		parse_sig(d->sig, &ps);
		for (unsigned prec = PREC_HIGH; prec <= PREC_LOW; prec++) {
			if (prec != PREC_HIGH && !(d->precs & (1u << prec)))
				continue;
			for (unsigned n = 1; n <= 4; n++) {
				if (!(d->sizes & (1u << n)))
					continue;
				/* the type in the name: the first vector operand's, or the result's
				 */
				struct shape s = ps.arg[0];
				for (unsigned j = 0; j < ps.nargs; j++)
					if (!ps.arg[j].scalar) {
						s = ps.arg[j];
						break;
					}
				if (s.scalar && !ps.r.scalar)
					s = ps.r;
				char *name =
				    subst(d->name, type_name(s.base, s.scalar ? 1 : n, false), "");
				if (!name)
					abort();
				exec_add(l, make_ew, d, n | prec << 3, "%s%s%s",
					 prec == PREC_HIGH ? "" : exec_prec_name(prec),
					 prec == PREC_HIGH ? "" : "_", name);
				free(name);
			}
		}
	}
}

/* ---- references: GLSL ES 3.00 section 8 ---------------------------------------------- */

/* A constant of the formula, rounded to float once. */
static struct ev cst(const struct exec_prec *p, double v)
{
	return ev_round(p, ev_exact(v));
}

static struct ev f_radians(const struct exec_prec *p, struct ev a, struct ev b, struct ev c)
{
	return ev_mul(p, cst(p, M_PI / 180.0), a);
}

static struct ev f_degrees(const struct exec_prec *p, struct ev a, struct ev b, struct ev c)
{
	return ev_mul(p, cst(p, 180.0 / M_PI), a);
}

static struct ev f_sin(const struct exec_prec *p, struct ev a, struct ev b, struct ev c)
{
	return ev_sin(p, a);
}

static struct ev f_cos(const struct exec_prec *p, struct ev a, struct ev b, struct ev c)
{
	return ev_cos(p, a);
}

/* The functions GLSL ES leaves undefined get Vulkan's derivations (sin/cos, atan2, log, exp). */
static struct ev f_tan(const struct exec_prec *p, struct ev a, struct ev b, struct ev c)
{
	return ev_div(p, ev_sin(p, a), ev_cos(p, a));
}

static struct ev one_minus_sq(const struct exec_prec *p, struct ev a)
{
	return ev_sqrt(p, ev_sub(p, ev_exact(1.0), ev_mul(p, a, a)));
}

static struct ev f_asin(const struct exec_prec *p, struct ev a, struct ev b, struct ev c)
{
	return ev_atan2(p, a, one_minus_sq(p, a));
}

static struct ev f_acos(const struct exec_prec *p, struct ev a, struct ev b, struct ev c)
{
	return ev_atan2(p, one_minus_sq(p, a), a);
}

static struct ev f_atan2(const struct exec_prec *p, struct ev a, struct ev b, struct ev c)
{
	return ev_atan2(p, a, b);
}

static struct ev f_atan(const struct exec_prec *p, struct ev a, struct ev b, struct ev c)
{
	return ev_atan(p, a);
}

static struct ev f_sinh(const struct exec_prec *p, struct ev a, struct ev b, struct ev c)
{
	return ev_mul(p, ev_sub(p, ev_exp(p, a), ev_exp(p, ev_neg(a))), ev_exact(0.5));
}

static struct ev f_cosh(const struct exec_prec *p, struct ev a, struct ev b, struct ev c)
{
	return ev_mul(p, ev_add(p, ev_exp(p, a), ev_exp(p, ev_neg(a))), ev_exact(0.5));
}

static struct ev f_tanh(const struct exec_prec *p, struct ev a, struct ev b, struct ev c)
{
	return ev_div(p, f_sinh(p, a, b, c), f_cosh(p, a, b, c));
}

static struct ev f_asinh(const struct exec_prec *p, struct ev a, struct ev b, struct ev c)
{
	struct ev s = ev_sqrt(p, ev_add(p, ev_mul(p, a, a), ev_exact(1.0)));

	return ev_log(p, ev_add(p, a, s));
}

static struct ev f_acosh(const struct exec_prec *p, struct ev a, struct ev b, struct ev c)
{
	struct ev s = ev_sqrt(p, ev_sub(p, ev_mul(p, a, a), ev_exact(1.0)));

	return ev_log(p, ev_add(p, a, s));
}

static struct ev f_atanh(const struct exec_prec *p, struct ev a, struct ev b, struct ev c)
{
	struct ev q = ev_div(p, ev_add(p, ev_exact(1.0), a), ev_sub(p, ev_exact(1.0), a));

	return ev_mul(p, ev_exact(0.5), ev_log(p, q));
}

static struct ev f_pow(const struct exec_prec *p, struct ev a, struct ev b, struct ev c)
{
	return ev_pow(p, a, b);
}

static struct ev f_exp(const struct exec_prec *p, struct ev a, struct ev b, struct ev c)
{
	return ev_exp(p, a);
}

static struct ev f_log(const struct exec_prec *p, struct ev a, struct ev b, struct ev c)
{
	return ev_log(p, a);
}

static struct ev f_exp2(const struct exec_prec *p, struct ev a, struct ev b, struct ev c)
{
	return ev_exp2(p, a);
}

static struct ev f_log2(const struct exec_prec *p, struct ev a, struct ev b, struct ev c)
{
	return ev_log2(p, a);
}

static struct ev f_sqrt(const struct exec_prec *p, struct ev a, struct ev b, struct ev c)
{
	return ev_sqrt(p, a);
}

static struct ev f_inversesqrt(const struct exec_prec *p, struct ev a, struct ev b, struct ev c)
{
	return ev_inversesqrt(p, a);
}

static struct ev f_abs(const struct exec_prec *p, struct ev a, struct ev b, struct ev c)
{
	return ev_abs(a);
}

static struct ev f_neg(const struct exec_prec *p, struct ev a, struct ev b, struct ev c)
{
	return ev_neg(a);
}

static struct ev f_sign(const struct exec_prec *p, struct ev a, struct ev b, struct ev c)
{
	return ev_exact(a.v > 0 ? 1.0 : a.v < 0 ? -1.0 : 0.0);
}

static struct ev f_floor(const struct exec_prec *p, struct ev a, struct ev b, struct ev c)
{
	return ev_floor(a);
}

static struct ev f_ceil(const struct exec_prec *p, struct ev a, struct ev b, struct ev c)
{
	return ev_ceil(a);
}

static struct ev f_trunc(const struct exec_prec *p, struct ev a, struct ev b, struct ev c)
{
	return ev_trunc(a);
}

/* round: "a fraction of 0.5 will round in a direction chosen by the implementation" (8.3). */
static struct ev f_round(const struct exec_prec *p, struct ev a, struct ev b, struct ev c)
{
	double f = a.v - floor(a.v);

	if (f == 0.5)
		return (struct ev){ floor(a.v), 0.0, true, false };
	return ev_exact(round(a.v));
}

static struct ev f_round_even(const struct exec_prec *p, struct ev a, struct ev b, struct ev c)
{
	return ev_exact(nearbyint(a.v));
}

/* fract(x) = x - floor(x) (8.3). */
static struct ev f_fract(const struct exec_prec *p, struct ev a, struct ev b, struct ev c)
{
	if (isinf(a.v))
		return (struct ev){ NAN, 0, true, false };
	return ev_sub(p, a, ev_floor(a));
}

/* mod(x, y) = x - y * floor(x / y) (8.3). */
static struct ev f_mod(const struct exec_prec *p, struct ev a, struct ev b, struct ev c)
{
	return ev_sub(p, a, ev_mul(p, b, ev_floor(ev_div(p, a, b))));
}

static struct ev f_min(const struct exec_prec *p, struct ev a, struct ev b, struct ev c)
{
	return ev_min(a, b);
}

static struct ev f_max(const struct exec_prec *p, struct ev a, struct ev b, struct ev c)
{
	return ev_max(a, b);
}

static struct ev f_clamp(const struct exec_prec *p, struct ev a, struct ev b, struct ev c)
{
	return ev_clamp(a, b, c);
}

/* mix(x, y, a) = x * (1 - a) + y * a (8.3). */
static struct ev f_mix(const struct exec_prec *p, struct ev a, struct ev b, struct ev c)
{
	return ev_add(p, ev_mul(p, a, ev_sub(p, ev_exact(1.0), c)), ev_mul(p, b, c));
}

/* step(edge, x) = x < edge ? 0.0 : 1.0 */
static struct ev f_step(const struct exec_prec *p, struct ev a, struct ev b, struct ev c)
{
	return ev_exact(b.v < a.v ? 0.0 : 1.0);
}

/* smoothstep: t = clamp((x - edge0) / (edge1 - edge0), 0, 1); t * t * (3 - 2 * t) (8.3). */
static struct ev f_smoothstep(const struct exec_prec *p, struct ev a, struct ev b, struct ev c)
{
	struct ev t =
	    ev_clamp(ev_div(p, ev_sub(p, c, a), ev_sub(p, b, a)), ev_exact(0.0), ev_exact(1.0));
	struct ev u = ev_sub(p, ev_exact(3.0), ev_mul(p, ev_exact(2.0), t));

	return ev_mul(p, ev_mul(p, t, t), u);
}

/* modf: the fraction and the whole part, both exact and of x's sign (8.3). */
static struct ev f_modf_fract(const struct exec_prec *p, struct ev a, struct ev b, struct ev c)
{
	if (isinf(a.v))
		return (struct ev){ 0.0, 0.0, true,
				    false }; /* the fraction of infinity: unspecified */
	return ev_exact(copysign(a.v - trunc(a.v), a.v));
}

static struct ev f_modf_whole(const struct exec_prec *p, struct ev a, struct ev b, struct ev c)
{
	return ev_exact(trunc(a.v));
}

/* float(int), float(uint): correctly rounded (4.5.1, conversions). */
static struct ev f_convert(const struct exec_prec *p, struct ev a, struct ev b, struct ev c)
{
	return ev_round(p, a);
}

/* ---- exact references on bits ----------------------------------------------------------- */

static uint32_t x_isnan(uint32_t a, uint32_t b, uint32_t c)
{
	return isnan(exec_bitsf(a)) != 0;
}

static uint32_t x_isinf(uint32_t a, uint32_t b, uint32_t c)
{
	return isinf(exec_bitsf(a)) != 0; /* (glibc's isinf is -1 for -inf) */
}

static uint32_t x_bits(uint32_t a, uint32_t b, uint32_t c)
{
	return a;
}

/* mix(x, y, bvec a): y where a is true (8.3). */
static uint32_t x_mix_bool(uint32_t a, uint32_t b, uint32_t c)
{
	return c ? b : a;
}

static uint32_t x_flt(uint32_t a, uint32_t b, uint32_t c)
{
	return exec_bitsf(a) < exec_bitsf(b);
}

static uint32_t x_fle(uint32_t a, uint32_t b, uint32_t c)
{
	return exec_bitsf(a) <= exec_bitsf(b);
}

static uint32_t x_fgt(uint32_t a, uint32_t b, uint32_t c)
{
	return exec_bitsf(a) > exec_bitsf(b);
}

static uint32_t x_fge(uint32_t a, uint32_t b, uint32_t c)
{
	return exec_bitsf(a) >= exec_bitsf(b);
}

static uint32_t x_feq(uint32_t a, uint32_t b, uint32_t c)
{
	return exec_bitsf(a) == exec_bitsf(b);
}

static uint32_t x_fne(uint32_t a, uint32_t b, uint32_t c)
{
	return exec_bitsf(a) != exec_bitsf(b);
}

static uint32_t x_ilt(uint32_t a, uint32_t b, uint32_t c)
{
	return (int32_t)a < (int32_t)b;
}

static uint32_t x_ile(uint32_t a, uint32_t b, uint32_t c)
{
	return (int32_t)a <= (int32_t)b;
}

static uint32_t x_igt(uint32_t a, uint32_t b, uint32_t c)
{
	return (int32_t)a > (int32_t)b;
}

static uint32_t x_ige(uint32_t a, uint32_t b, uint32_t c)
{
	return (int32_t)a >= (int32_t)b;
}

static uint32_t x_ult(uint32_t a, uint32_t b, uint32_t c)
{
	return a < b;
}

static uint32_t x_ule(uint32_t a, uint32_t b, uint32_t c)
{
	return a <= b;
}

static uint32_t x_ugt(uint32_t a, uint32_t b, uint32_t c)
{
	return a > b;
}

static uint32_t x_uge(uint32_t a, uint32_t b, uint32_t c)
{
	return a >= b;
}

static uint32_t x_eq(uint32_t a, uint32_t b, uint32_t c)
{
	return a == b;
}

static uint32_t x_ne(uint32_t a, uint32_t b, uint32_t c)
{
	return a != b;
}

static uint32_t x_not(uint32_t a, uint32_t b, uint32_t c)
{
	return !a;
}

static uint32_t x_iabs(uint32_t a, uint32_t b, uint32_t c)
{
	return (int32_t)a < 0 ? -a : a;
}

static uint32_t x_isign(uint32_t a, uint32_t b, uint32_t c)
{
	return (int32_t)a > 0 ? 1 : (int32_t)a < 0 ? (uint32_t)-1 : 0;
}

static uint32_t x_imin(uint32_t a, uint32_t b, uint32_t c)
{
	return (int32_t)a < (int32_t)b ? a : b;
}

static uint32_t x_imax(uint32_t a, uint32_t b, uint32_t c)
{
	return (int32_t)a > (int32_t)b ? a : b;
}

static uint32_t x_umin(uint32_t a, uint32_t b, uint32_t c)
{
	return a < b ? a : b;
}

static uint32_t x_umax(uint32_t a, uint32_t b, uint32_t c)
{
	return a > b ? a : b;
}

static uint32_t x_iclamp(uint32_t a, uint32_t b, uint32_t c)
{
	return x_imin(x_imax(a, b, 0), c, 0);
}

static uint32_t x_uclamp(uint32_t a, uint32_t b, uint32_t c)
{
	return x_umin(x_umax(a, b, 0), c, 0);
}

static uint32_t x_add(uint32_t a, uint32_t b, uint32_t c)
{
	return a + b;
}

static uint32_t x_sub(uint32_t a, uint32_t b, uint32_t c)
{
	return a - b;
}

static uint32_t x_mul(uint32_t a, uint32_t b, uint32_t c)
{
	return a * b;
}

/* Integer division truncates toward zero (GLSL ES 3.00 5.9, as C does). */
static uint32_t x_idiv(uint32_t a, uint32_t b, uint32_t c)
{
	return (uint32_t)((int32_t)a / (int32_t)b);
}

static uint32_t x_udiv(uint32_t a, uint32_t b, uint32_t c)
{
	return a / b;
}

static uint32_t x_irem(uint32_t a, uint32_t b, uint32_t c)
{
	return (uint32_t)((int32_t)a % (int32_t)b);
}

static uint32_t x_umod(uint32_t a, uint32_t b, uint32_t c)
{
	return a % b;
}

static uint32_t x_and(uint32_t a, uint32_t b, uint32_t c)
{
	return a & b;
}

static uint32_t x_or(uint32_t a, uint32_t b, uint32_t c)
{
	return a | b;
}

static uint32_t x_xor(uint32_t a, uint32_t b, uint32_t c)
{
	return a ^ b;
}

static uint32_t x_inot(uint32_t a, uint32_t b, uint32_t c)
{
	return ~a;
}

static uint32_t x_ineg(uint32_t a, uint32_t b, uint32_t c)
{
	return -a;
}

static uint32_t x_shl(uint32_t a, uint32_t b, uint32_t c)
{
	return a << (b & 31);
}

/* >> of a signed integer extends the sign (5.9). */
static uint32_t x_ishr(uint32_t a, uint32_t b, uint32_t c)
{
	return (uint32_t)((int32_t)a >> (b & 31));
}

static uint32_t x_ushr(uint32_t a, uint32_t b, uint32_t c)
{
	return a >> (b & 31);
}

static uint32_t x_band(uint32_t a, uint32_t b, uint32_t c)
{
	return a && b;
}

static uint32_t x_bor(uint32_t a, uint32_t b, uint32_t c)
{
	return a || b;
}

static uint32_t x_bxor(uint32_t a, uint32_t b, uint32_t c)
{
	return !a != !b;
}

static uint32_t x_bsel(uint32_t a, uint32_t b, uint32_t c)
{
	return a ? b : c;
}

/* int(float): truncation (5.4.1); the domain keeps it in range. */
static uint32_t x_f2i(uint32_t a, uint32_t b, uint32_t c)
{
	return (uint32_t)(int32_t)truncf(exec_bitsf(a));
}

static uint32_t x_f2u(uint32_t a, uint32_t b, uint32_t c)
{
	return (uint32_t)truncf(exec_bitsf(a));
}

static uint32_t x_to_bool_f(uint32_t a, uint32_t b, uint32_t c)
{
	return exec_bitsf(a) != 0.0f;
}

static uint32_t x_to_bool_i(uint32_t a, uint32_t b, uint32_t c)
{
	return a != 0;
}

static uint32_t x_b2f(uint32_t a, uint32_t b, uint32_t c)
{
	return a ? 0x3f800000 : 0;
}

static uint32_t x_b2i(uint32_t a, uint32_t b, uint32_t c)
{
	return a ? 1 : 0;
}

/* ---- fix-ups of operands the rules leave undefined -------------------------------------- */

/* clamp: undefined for min > max (8.3). */
static void fix_clamp_f(uint32_t *a, uint32_t *b, uint32_t *c)
{
	if (exec_bitsf(*b) > exec_bitsf(*c)) {
		uint32_t t = *b;
		*b = *c;
		*c = t;
	}
}

static void fix_clamp_i(uint32_t *a, uint32_t *b, uint32_t *c)
{
	if ((int32_t)*b > (int32_t)*c) {
		uint32_t t = *b;
		*b = *c;
		*c = t;
	}
}

static void fix_clamp_u(uint32_t *a, uint32_t *b, uint32_t *c)
{
	if (*b > *c) {
		uint32_t t = *b;
		*b = *c;
		*c = t;
	}
}

/* smoothstep: undefined for edge0 >= edge1 (8.3). */
static void fix_smoothstep(uint32_t *a, uint32_t *b, uint32_t *c)
{
	fix_clamp_f(c, a, b);
	if (exec_bitsf(*a) == exec_bitsf(*b))
		*b = exec_fbits(exec_bitsf(*a) + 0.5f);
}

/* mod by 0 is x - 0 * floor(inf): not a number; make y nonzero. */
static void fix_nonzero_b(uint32_t *a, uint32_t *b, uint32_t *c)
{
	if (exec_bitsf(*b) == 0.0f || exec_is_denormal(exec_bitsf(*b)))
		*b = exec_fbits(1.5f);
}

/* INT_MIN / -1 overflows (undefined); abs(INT_MIN) too. */
static void fix_idiv(uint32_t *a, uint32_t *b, uint32_t *c)
{
	if (*a == 0x80000000u && *b == 0xffffffffu)
		*b = 3;
}

static void fix_int_min(uint32_t *a, uint32_t *b, uint32_t *c)
{
	if (*a == 0x80000000u)
		*a = 0x80000001u;
}

/* uint(float): a negative value is undefined (5.4.1). */
static void fix_abs_a(uint32_t *a, uint32_t *b, uint32_t *c)
{
	*a &= 0x7fffffffu;
}

/* ---- whole-vector references: geometry (8.4), vectors (8.6), packing (8.4 of 3.00) -------- */

static struct ev dot(const struct exec_prec *p, unsigned n, const struct ev *a, const struct ev *b)
{
	struct ev s = ev_mul(p, a[0], b[0]);
	double mag = fabs(a[0].v * b[0].v);

	for (unsigned k = 1; k < n; k++) {
		s = ev_mad(p, a[k], b[k], s);
		mag += fabs(a[k].v * b[k].v);
	}
	/* summed in any order: no partial sum is larger than the sum of the magnitudes */
	s.e += (n - 1) * ev_ulp(p, mag);
	return s;
}

static void v_dot(const struct exec_prec *p, unsigned n, const struct ev *a, const struct ev *b,
		  const struct ev *c, struct ev *r)
{
	r[0] = dot(p, n, a, b);
}

static void v_length(const struct exec_prec *p, unsigned n, const struct ev *a, const struct ev *b,
		     const struct ev *c, struct ev *r)
{
	r[0] = ev_sqrt(p, dot(p, n, a, a));
}

static void v_distance(const struct exec_prec *p, unsigned n, const struct ev *a,
		       const struct ev *b, const struct ev *c, struct ev *r)
{
	struct ev d[4];

	for (unsigned k = 0; k < n; k++)
		d[k] = ev_sub(p, a[k], b[k]);
	v_length(p, n, d, NULL, NULL, r);
}

static void v_normalize(const struct exec_prec *p, unsigned n, const struct ev *a,
			const struct ev *b, const struct ev *c, struct ev *r)
{
	struct ev len;

	v_length(p, n, a, NULL, NULL, &len);
	for (unsigned k = 0; k < n; k++)
		r[k] = ev_div(p, a[k], len);
}

static void v_cross(const struct exec_prec *p, unsigned n, const struct ev *a, const struct ev *b,
		    const struct ev *c, struct ev *r)
{
	for (unsigned k = 0; k < 3; k++) {
		unsigned i = (k + 1) % 3, j = (k + 2) % 3;
		r[k] = ev_sub(p, ev_mul(p, a[i], b[j]), ev_mul(p, b[i], a[j]));
	}
}

/* faceforward(N, I, Nref) = dot(Nref, I) < 0 ? N : -N */
static void v_faceforward(const struct exec_prec *p, unsigned n, const struct ev *a,
			  const struct ev *b, const struct ev *c, struct ev *r)
{
	struct ev d = dot(p, n, c, b);
	struct ev lt = ev_lt(d, ev_exact(0.0));

	for (unsigned k = 0; k < n; k++)
		r[k] = ev_select(lt, a[k], ev_neg(a[k]));
}

/* reflect(I, N) = I - 2 * dot(N, I) * N */
static void v_reflect(const struct exec_prec *p, unsigned n, const struct ev *a, const struct ev *b,
		      const struct ev *c, struct ev *r)
{
	struct ev d2 = ev_mul(p, ev_exact(2.0), dot(p, n, b, a));

	for (unsigned k = 0; k < n; k++)
		r[k] = ev_sub(p, a[k], ev_mul(p, d2, b[k]));
}

/* refract(I, N, eta): k = 1 - eta^2 (1 - dot(N, I)^2); 0 if k < 0, else
 * eta * I - (eta * dot(N, I) + sqrt(k)) * N */
static void v_refract(const struct exec_prec *p, unsigned n, const struct ev *a, const struct ev *b,
		      const struct ev *c, struct ev *r)
{
	struct ev d = dot(p, n, b, a), eta = c[0];
	struct ev kk =
	    ev_sub(p, ev_exact(1.0),
		   ev_mul(p, ev_mul(p, eta, eta), ev_sub(p, ev_exact(1.0), ev_mul(p, d, d))));
	struct ev neg = ev_lt(kk, ev_exact(0.0));

	for (unsigned k = 0; k < n; k++) {
		struct ev t = ev_add(p, ev_mul(p, eta, d), ev_sqrt(p, kk.v < 0 ? ev_exact(0) : kk));
		struct ev v = ev_sub(p, ev_mul(p, eta, a[k]), ev_mul(p, t, b[k]));
		r[k] = ev_select(neg, ev_exact(0.0), v);
		if (kk.v >= 0 && kk.v - kk.e <= 0)
			r[k].amb = true; /* the square root of an uncertain sign */
	}
}

static unsigned xv_any(unsigned n, const uint32_t *a, const uint32_t *b, const uint32_t *c,
		       uint32_t *r, struct exec_expect *x)
{
	r[0] = 0;
	for (unsigned k = 0; k < n; k++)
		r[0] |= a[k] != 0;
	return 0;
}

static unsigned xv_all(unsigned n, const uint32_t *a, const uint32_t *b, const uint32_t *c,
		       uint32_t *r, struct exec_expect *x)
{
	r[0] = 1;
	for (unsigned k = 0; k < n; k++)
		r[0] &= a[k] != 0;
	return 0;
}

/* The vector operators == and != compare all components (5.9). */
static unsigned xv_veq(unsigned n, const uint32_t *a, const uint32_t *b, const uint32_t *c,
		       uint32_t *r, struct exec_expect *x)
{
	r[0] = memcmp(a, b, 4 * n) == 0;
	return 0;
}

static unsigned xv_vne(unsigned n, const uint32_t *a, const uint32_t *b, const uint32_t *c,
		       uint32_t *r, struct exec_expect *x)
{
	r[0] = memcmp(a, b, 4 * n) != 0;
	return 0;
}

static unsigned xv_vfeq(unsigned n, const uint32_t *a, const uint32_t *b, const uint32_t *c,
			uint32_t *r, struct exec_expect *x)
{
	r[0] = 1;
	for (unsigned k = 0; k < n; k++)
		r[0] &= exec_bitsf(a[k]) == exec_bitsf(b[k]);
	return 0;
}

/*
 * packSnorm2x16: round(clamp(c, -1, 1) * 32767.0); packUnorm2x16:
 * round(clamp(c, 0, 1) * 65535.0).  A product at .5 rounds either way
 * (round()'s own rule), which leaves that word unconstrained.
 */
static unsigned pack_norm(const uint32_t *a, uint32_t *r, struct exec_expect *x, bool is_signed)
{
	uint32_t word = 0;
	bool amb = false;

	for (unsigned k = 0; k < 2; k++) {
		double v = exec_flush(exec_bitsf(a[k]));
		double lo = is_signed ? -1.0 : 0.0, scale = is_signed ? 32767.0 : 65535.0;
		double t = fmin(fmax(v, lo), 1.0) * scale;
		double f = t - floor(t);

		amb |= fabs(f - 0.5) < 1e-3;
		word |= ((uint32_t)(int32_t)round(t) & 0xffff) << (16 * k);
	}
	r[0] = word;
	x[0].kind = EXEC_ANY;
	return amb ? 1 : 0; /* ambiguous: left unconstrained */
}

static unsigned xv_pack_snorm(unsigned n, const uint32_t *a, const uint32_t *b, const uint32_t *c,
			      uint32_t *r, struct exec_expect *x)
{
	return pack_norm(a, r, x, true);
}

static unsigned xv_pack_unorm(unsigned n, const uint32_t *a, const uint32_t *b, const uint32_t *c,
			      uint32_t *r, struct exec_expect *x)
{
	return pack_norm(a, r, x, false);
}

/* f32 to f16 toward zero, for the rounding packHalf2x16 may also use. */
static uint16_t f16_rtz(float f)
{
	uint16_t h = exec_f32_to_f16(f);
	float back = exec_f16_to_f32(h);

	if (fabsf(back) > fabsf(f))
		h = (uint16_t)(h - 1); /* one step toward zero (same sign, smaller magnitude) */
	return h;
}

static unsigned xv_pack_half(unsigned n, const uint32_t *a, const uint32_t *b, const uint32_t *c,
			     uint32_t *r, struct exec_expect *x)
{
	uint32_t rne = 0, rtz = 0;

	for (unsigned k = 0; k < 2; k++) {
		float f = exec_bitsf(a[k]);
		rne |= (uint32_t)exec_f32_to_f16(f) << (16 * k);
		rtz |= (uint32_t)f16_rtz(f) << (16 * k);
	}
	x[0].kind = EXEC_HALF2;
	x[0].bits = rne;
	x[0].alt_bits = rtz;
	r[0] = rne;
	return 1;
}

/* unpackSnorm2x16: clamp(f / 32767.0, -1, 1); unpackUnorm2x16: f / 65535.0 (a division). */
static void v_unpack_snorm(const struct exec_prec *p, unsigned n, const struct ev *a,
			   const struct ev *b, const struct ev *c, struct ev *r)
{
	uint32_t w = (uint32_t)a[0].v;

	for (unsigned k = 0; k < 2; k++) {
		int16_t s = (int16_t)(w >> (16 * k));
		r[k] = ev_clamp(ev_div(p, ev_exact(s), ev_exact(32767.0)), ev_exact(-1.0),
				ev_exact(1.0));
	}
}

static void v_unpack_unorm(const struct exec_prec *p, unsigned n, const struct ev *a,
			   const struct ev *b, const struct ev *c, struct ev *r)
{
	uint32_t w = (uint32_t)a[0].v;

	for (unsigned k = 0; k < 2; k++)
		r[k] = ev_div(p, ev_exact((w >> (16 * k)) & 0xffff), ev_exact(65535.0));
}

static void v_unpack_half(const struct exec_prec *p, unsigned n, const struct ev *a,
			  const struct ev *b, const struct ev *c, struct ev *r)
{
	uint32_t w = (uint32_t)a[0].v;

	for (unsigned k = 0; k < 2; k++) {
		float f = exec_f16_to_f32((uint16_t)(w >> (16 * k)));
		r[k] = isnan(f) ? (struct ev){ NAN, 0, true, false } : ev_exact(f);
	}
}

/* ---- the tables --------------------------------------------------------------------------- */

#define D1(d)                                                                                      \
	{                                                                                          \
		d, d, d                                                                            \
	}
#define D2(x, y)                                                                                   \
	{                                                                                          \
		x, y, y                                                                            \
	}
#define D3(x, y, z)                                                                                \
	{                                                                                          \
		x, y, z                                                                            \
	}

static const struct ew builtins[] = {
	/* 8.1 angle and trigonometry */
	{ "radians_$T", "radians(a)", "fg=fg", SZ_ALL, MEDIUM, D1(DOM_MID), .f1 = f_radians },
	{ "degrees_$T", "degrees(a)", "fg=fg", SZ_ALL, MEDIUM, D1(DOM_UNIT), .f1 = f_degrees },
	{ "sin_$T", "sin(a)", "fg=fg", SZ_ALL, MEDIUM | LOW, D1(DOM_ANGLE), .f1 = f_sin },
	{ "cos_$T", "cos(a)", "fg=fg", SZ_ALL, MEDIUM | LOW, D1(DOM_ANGLE), .f1 = f_cos },
	{ "tan_$T", "tan(a)", "fg=fg", SZ_ALL, 0, D1(DOM_ANGLE), .f1 = f_tan },
	{ "asin_$T", "asin(a)", "fg=fg", SZ_ALL, 0, D1(DOM_UNIT), .f1 = f_asin },
	{ "acos_$T", "acos(a)", "fg=fg", SZ_ALL, 0, D1(DOM_UNIT), .f1 = f_acos },
	{ "atan_$T", "atan(a)", "fg=fg", SZ_ALL, 0, D1(DOM_ANY), .f1 = f_atan },
	{ "atan2_$T", "atan(a, b)", "fg=fg,fg", SZ_ALL, 0, D1(DOM_MID), .f1 = f_atan2 },
	{ "sinh_$T", "sinh(a)", "fg=fg", SZ_ALL, 0, D1(DOM_EXP), .f1 = f_sinh },
	{ "cosh_$T", "cosh(a)", "fg=fg", SZ_ALL, 0, D1(DOM_EXP), .f1 = f_cosh },
	{ "tanh_$T", "tanh(a)", "fg=fg", SZ_ALL, 0, D1(DOM_EXP), .f1 = f_tanh },
	{ "asinh_$T", "asinh(a)", "fg=fg", SZ_ALL, 0, D1(DOM_MID), .f1 = f_asinh },
	{ "acosh_$T", "acosh(a)", "fg=fg", SZ_ALL, 0, D1(DOM_GE1), .f1 = f_acosh },
	{ "atanh_$T", "atanh(a)", "fg=fg", SZ_ALL, 0, D1(DOM_OPEN), .f1 = f_atanh },
	/* 8.2 exponential */
	{ "pow_$T", "pow(a, b)", "fg=fg,fg", SZ_ALL, MEDIUM, D2(DOM_POW_X, DOM_POW_Y),
	  .f1 = f_pow },
	{ "exp_$T", "exp(a)", "fg=fg", SZ_ALL, MEDIUM, D1(DOM_EXP), .f1 = f_exp },
	{ "log_$T", "log(a)", "fg=fg", SZ_ALL, MEDIUM, D1(DOM_POS), .f1 = f_log },
	{ "exp2_$T", "exp2(a)", "fg=fg", SZ_ALL, MEDIUM, D1(DOM_EXP), .f1 = f_exp2 },
	{ "log2_$T", "log2(a)", "fg=fg", SZ_ALL, MEDIUM | LOW, D1(DOM_POS), .f1 = f_log2 },
	{ "sqrt_$T", "sqrt(a)", "fg=fg", SZ_ALL, MEDIUM | LOW, D1(DOM_NONNEG), .f1 = f_sqrt },
	{ "inversesqrt_$T", "inversesqrt(a)", "fg=fg", SZ_ALL, MEDIUM, D1(DOM_POS),
	  .f1 = f_inversesqrt },
	/* 8.3 common */
	{ "abs_$T", "abs(a)", "fg=fg", SZ_ALL, MEDIUM | LOW, D1(DOM_INF), .f1 = f_abs },
	{ "abs_$T", "abs(a)", "ig=ig", SZ_ALL, MEDIUM, D1(DOM_INT), .x1 = x_iabs,
	  .fix = fix_int_min },
	{ "sign_$T", "sign(a)", "fg=fg", SZ_ALL, MEDIUM, D1(DOM_INF), .f1 = f_sign },
	{ "sign_$T", "sign(a)", "ig=ig", SZ_ALL, 0, D1(DOM_INT), .x1 = x_isign },
	{ "floor_$T", "floor(a)", "fg=fg", SZ_ALL, MEDIUM | LOW, D1(DOM_INF), .f1 = f_floor },
	{ "trunc_$T", "trunc(a)", "fg=fg", SZ_ALL, 0, D1(DOM_INF), .f1 = f_trunc },
	{ "round_$T", "round(a)", "fg=fg", SZ_ALL, 0, D1(DOM_INF), .f1 = f_round },
	{ "roundEven_$T", "roundEven(a)", "fg=fg", SZ_ALL, 0, D1(DOM_INF), .f1 = f_round_even },
	{ "ceil_$T", "ceil(a)", "fg=fg", SZ_ALL, MEDIUM, D1(DOM_INF), .f1 = f_ceil },
	{ "fract_$T", "fract(a)", "fg=fg", SZ_ALL, MEDIUM | LOW, D1(DOM_ANY), .f1 = f_fract },
	{ "mod_$T", "mod(a, b)", "fg=fg,fg", SZ_ALL, MEDIUM, D1(DOM_MID), .f1 = f_mod,
	  .fix = fix_nonzero_b },
	{ "mod_$T_float", "mod(a, b)", "fg=fg,f1", SZ_VEC, 0, D1(DOM_MID), .f1 = f_mod,
	  .fix = fix_nonzero_b },
	{ "modf_$T", "modf(a, whole)", "fg=fg", SZ_ALL, 0, D1(DOM_INF), .f1 = f_modf_fract,
	  .helper = "$T whole;" },
	{ "modf_whole_$T", "whole_of(a)", "fg=fg", SZ_ALL, 0, D1(DOM_INF), .f1 = f_modf_whole,
	  .helper = "$T whole_of($T x)\n{\n\t$T w;\n\tmodf(x, w);\n\treturn w;\n}" },
	{ "min_$T", "min(a, b)", "fg=fg,fg", SZ_ALL, MEDIUM | LOW, D1(DOM_INF), .f1 = f_min },
	{ "min_$T_float", "min(a, b)", "fg=fg,f1", SZ_VEC, 0, D1(DOM_INF), .f1 = f_min },
	{ "min_$T", "min(a, b)", "ig=ig,ig", SZ_ALL, 0, D1(DOM_INT), .x1 = x_imin },
	{ "min_$T_int", "min(a, b)", "ig=ig,i1", SZ_VEC, 0, D1(DOM_INT), .x1 = x_imin },
	{ "min_$T", "min(a, b)", "ug=ug,ug", SZ_ALL, 0, D1(DOM_INT), .x1 = x_umin },
	{ "min_$T_uint", "min(a, b)", "ug=ug,u1", SZ_VEC, 0, D1(DOM_INT), .x1 = x_umin },
	{ "max_$T", "max(a, b)", "fg=fg,fg", SZ_ALL, MEDIUM | LOW, D1(DOM_INF), .f1 = f_max },
	{ "max_$T_float", "max(a, b)", "fg=fg,f1", SZ_VEC, 0, D1(DOM_INF), .f1 = f_max },
	{ "max_$T", "max(a, b)", "ig=ig,ig", SZ_ALL, MEDIUM, D1(DOM_INT), .x1 = x_imax },
	{ "max_$T_int", "max(a, b)", "ig=ig,i1", SZ_VEC, 0, D1(DOM_INT), .x1 = x_imax },
	{ "max_$T", "max(a, b)", "ug=ug,ug", SZ_ALL, 0, D1(DOM_INT), .x1 = x_umax },
	{ "max_$T_uint", "max(a, b)", "ug=ug,u1", SZ_VEC, 0, D1(DOM_INT), .x1 = x_umax },
	{ "clamp_$T", "clamp(a, b, c)", "fg=fg,fg,fg", SZ_ALL, MEDIUM | LOW, D1(DOM_INF),
	  .f1 = f_clamp, .fix = fix_clamp_f },
	{ "clamp_$T_float", "clamp(a, b, c)", "fg=fg,f1,f1", SZ_VEC, 0, D1(DOM_INF), .f1 = f_clamp,
	  .fix = fix_clamp_f },
	{ "clamp_$T", "clamp(a, b, c)", "ig=ig,ig,ig", SZ_ALL, 0, D1(DOM_INT), .x1 = x_iclamp,
	  .fix = fix_clamp_i },
	{ "clamp_$T_int", "clamp(a, b, c)", "ig=ig,i1,i1", SZ_VEC, 0, D1(DOM_INT), .x1 = x_iclamp,
	  .fix = fix_clamp_i },
	{ "clamp_$T", "clamp(a, b, c)", "ug=ug,ug,ug", SZ_ALL, 0, D1(DOM_INT), .x1 = x_uclamp,
	  .fix = fix_clamp_u },
	{ "clamp_$T_uint", "clamp(a, b, c)", "ug=ug,u1,u1", SZ_VEC, 0, D1(DOM_INT), .x1 = x_uclamp,
	  .fix = fix_clamp_u },
	{ "mix_$T", "mix(a, b, c)", "fg=fg,fg,fg", SZ_ALL, MEDIUM | LOW,
	  D3(DOM_MID, DOM_MID, DOM_UNIT), .f1 = f_mix },
	{ "mix_$T_float", "mix(a, b, c)", "fg=fg,fg,f1", SZ_VEC, 0, D3(DOM_MID, DOM_MID, DOM_UNIT),
	  .f1 = f_mix },
	{ "mix_$T_bool", "mix(a, b, c)", "fg=fg,fg,bg", SZ_ALL, 0, D3(DOM_ANY, DOM_ANY, DOM_BOOL),
	  .x1 = x_mix_bool },
	{ "step_$T", "step(a, b)", "fg=fg,fg", SZ_ALL, MEDIUM, D1(DOM_MID), .f1 = f_step },
	{ "step_float_$T", "step(a, b)", "fg=f1,fg", SZ_VEC, 0, D1(DOM_MID), .f1 = f_step },
	{ "smoothstep_$T", "smoothstep(a, b, c)", "fg=fg,fg,fg", SZ_ALL, MEDIUM, D1(DOM_UNIT),
	  .f1 = f_smoothstep, .fix = fix_smoothstep },
	{ "smoothstep_float_$T", "smoothstep(a, b, c)", "fg=f1,f1,fg", SZ_VEC, 0, D1(DOM_UNIT),
	  .f1 = f_smoothstep, .fix = fix_smoothstep },
	{ "isnan_$T", "isnan(a)", "bg=fg", SZ_ALL, 0, D1(DOM_SPECIAL), .x1 = x_isnan },
	{ "isinf_$T", "isinf(a)", "bg=fg", SZ_ALL, 0, D1(DOM_SPECIAL), .x1 = x_isinf },
	{ "floatBitsToInt_$T", "floatBitsToInt(a)", "ig=fg", SZ_ALL, 0, D1(DOM_INF), .x1 = x_bits },
	{ "floatBitsToUint_$T", "floatBitsToUint(a)", "ug=fg", SZ_ALL, 0, D1(DOM_INF),
	  .x1 = x_bits },
	{ "intBitsToFloat_$T", "intBitsToFloat(a)", "fg=ig", SZ_ALL, 0, D1(DOM_FBITS),
	  .x1 = x_bits },
	{ "uintBitsToFloat_$T", "uintBitsToFloat(a)", "fg=ug", SZ_ALL, 0, D1(DOM_FBITS),
	  .x1 = x_bits },
	/* 8.4 floating-point pack and unpack */
	{ "packSnorm2x16", "packSnorm2x16(a)", "u1=fg", SZ_2, 0, D1(DOM_NORM),
	  .xv = xv_pack_snorm },
	{ "packUnorm2x16", "packUnorm2x16(a)", "u1=fg", SZ_2, 0, D1(DOM_NORM),
	  .xv = xv_pack_unorm },
	{ "packHalf2x16", "packHalf2x16(a)", "u1=fg", SZ_2, 0, D1(DOM_MID), .xv = xv_pack_half },
	{ "unpackSnorm2x16", "unpackSnorm2x16(a)", "fg=u1", SZ_2, 0, D1(DOM_INT),
	  .fv = v_unpack_snorm },
	{ "unpackUnorm2x16", "unpackUnorm2x16(a)", "fg=u1", SZ_2, 0, D1(DOM_INT),
	  .fv = v_unpack_unorm },
	{ "unpackHalf2x16", "unpackHalf2x16(a)", "fg=u1", SZ_2, 0, D1(DOM_INT),
	  .fv = v_unpack_half },
	/* 8.5 geometric */
	{ "length_$T", "length(a)", "f1=fg", SZ_ALL, MEDIUM, D1(DOM_MID), .fv = v_length },
	{ "distance_$T", "distance(a, b)", "f1=fg,fg", SZ_ALL, 0, D1(DOM_MID), .fv = v_distance },
	{ "dot_$T", "dot(a, b)", "f1=fg,fg", SZ_ALL, MEDIUM | LOW, D1(DOM_MID), .fv = v_dot },
	{ "cross_$T", "cross(a, b)", "fg=fg,fg", SZ_3, MEDIUM, D1(DOM_MID), .fv = v_cross },
	{ "normalize_$T", "normalize(a)", "fg=fg", SZ_ALL, MEDIUM, D1(DOM_MID), .fv = v_normalize },
	{ "faceforward_$T", "faceforward(a, b, c)", "fg=fg,fg,fg", SZ_ALL, 0, D1(DOM_MID),
	  .fv = v_faceforward },
	{ "reflect_$T", "reflect(a, b)", "fg=fg,fg", SZ_ALL, 0, D1(DOM_UNIT), .fv = v_reflect },
	{ "refract_$T", "refract(a, b, c)", "fg=fg,fg,f1", SZ_ALL, 0, D1(DOM_UNIT),
	  .fv = v_refract },
	/* 8.7 vector relational */
	{ "lessThan_$T", "lessThan(a, b)", "bg=fg,fg", SZ_VEC, 0, D1(DOM_SPECIAL), .x1 = x_flt },
	{ "lessThanEqual_$T", "lessThanEqual(a, b)", "bg=fg,fg", SZ_VEC, 0, D1(DOM_SPECIAL),
	  .x1 = x_fle },
	{ "greaterThan_$T", "greaterThan(a, b)", "bg=fg,fg", SZ_VEC, 0, D1(DOM_SPECIAL),
	  .x1 = x_fgt },
	{ "greaterThanEqual_$T", "greaterThanEqual(a, b)", "bg=fg,fg", SZ_VEC, 0, D1(DOM_SPECIAL),
	  .x1 = x_fge },
	{ "equal_$T", "equal(a, b)", "bg=fg,fg", SZ_VEC, 0, D1(DOM_SPECIAL), .x1 = x_feq },
	{ "notEqual_$T", "notEqual(a, b)", "bg=fg,fg", SZ_VEC, 0, D1(DOM_SPECIAL), .x1 = x_fne },
	{ "lessThan_$T", "lessThan(a, b)", "bg=ig,ig", SZ_VEC, 0, D1(DOM_INT), .x1 = x_ilt },
	{ "lessThanEqual_$T", "lessThanEqual(a, b)", "bg=ig,ig", SZ_VEC, 0, D1(DOM_INT),
	  .x1 = x_ile },
	{ "greaterThan_$T", "greaterThan(a, b)", "bg=ig,ig", SZ_VEC, 0, D1(DOM_INT), .x1 = x_igt },
	{ "greaterThanEqual_$T", "greaterThanEqual(a, b)", "bg=ig,ig", SZ_VEC, 0, D1(DOM_INT),
	  .x1 = x_ige },
	{ "equal_$T", "equal(a, b)", "bg=ig,ig", SZ_VEC, 0, D1(DOM_INT), .x1 = x_eq },
	{ "notEqual_$T", "notEqual(a, b)", "bg=ig,ig", SZ_VEC, 0, D1(DOM_INT), .x1 = x_ne },
	{ "lessThan_$T", "lessThan(a, b)", "bg=ug,ug", SZ_VEC, 0, D1(DOM_INT), .x1 = x_ult },
	{ "lessThanEqual_$T", "lessThanEqual(a, b)", "bg=ug,ug", SZ_VEC, 0, D1(DOM_INT),
	  .x1 = x_ule },
	{ "greaterThan_$T", "greaterThan(a, b)", "bg=ug,ug", SZ_VEC, 0, D1(DOM_INT), .x1 = x_ugt },
	{ "greaterThanEqual_$T", "greaterThanEqual(a, b)", "bg=ug,ug", SZ_VEC, 0, D1(DOM_INT),
	  .x1 = x_uge },
	{ "equal_$T", "equal(a, b)", "bg=ug,ug", SZ_VEC, 0, D1(DOM_INT), .x1 = x_eq },
	{ "notEqual_$T", "notEqual(a, b)", "bg=ug,ug", SZ_VEC, 0, D1(DOM_INT), .x1 = x_ne },
	{ "equal_$T", "equal(a, b)", "bg=bg,bg", SZ_VEC, 0, D1(DOM_BOOL), .x1 = x_eq },
	{ "notEqual_$T", "notEqual(a, b)", "bg=bg,bg", SZ_VEC, 0, D1(DOM_BOOL), .x1 = x_ne },
	{ "any_$T", "any(a)", "b1=bg", SZ_VEC, 0, D1(DOM_BOOL), .xv = xv_any },
	{ "all_$T", "all(a)", "b1=bg", SZ_VEC, 0, D1(DOM_BOOL), .xv = xv_all },
	{ "not_$T", "not(a)", "bg=bg", SZ_VEC, 0, D1(DOM_BOOL), .x1 = x_not },
};

/* ---- operators (GLSL ES 3.00 section 5) --------------------------------------------------- */

static struct ev f_add(const struct exec_prec *p, struct ev a, struct ev b, struct ev c)
{
	return ev_add(p, a, b);
}

static struct ev f_sub(const struct exec_prec *p, struct ev a, struct ev b, struct ev c)
{
	return ev_sub(p, a, b);
}

static struct ev f_mul(const struct exec_prec *p, struct ev a, struct ev b, struct ev c)
{
	return ev_mul(p, a, b);
}

static struct ev f_div(const struct exec_prec *p, struct ev a, struct ev b, struct ev c)
{
	return ev_div(p, a, b);
}

static struct ev f_rcp(const struct exec_prec *p, struct ev a, struct ev b, struct ev c)
{
	return ev_div(p, ev_exact(1.0), a);
}

/* a * b + c as one expression: one rounding or two (4.5.1). */
static struct ev f_mad(const struct exec_prec *p, struct ev a, struct ev b, struct ev c)
{
	return ev_mad(p, a, b, c);
}

static struct ev f_bsel(const struct exec_prec *p, struct ev a, struct ev b, struct ev c)
{
	return a.v != 0.0 ? b : c;
}

static const struct ew operators[] = {
	/* float arithmetic: + - * correctly rounded, / 2.5 ULP (4.5.1) */
	{ "add_$T", "a + b", "fg=fg,fg", SZ_ALL, MEDIUM | LOW, D1(DOM_INF), .f1 = f_add },
	{ "sub_$T", "a - b", "fg=fg,fg", SZ_ALL, MEDIUM | LOW, D1(DOM_INF), .f1 = f_sub },
	{ "mul_$T", "a * b", "fg=fg,fg", SZ_ALL, MEDIUM | LOW, D1(DOM_INF), .f1 = f_mul },
	{ "div_$T", "a / b", "fg=fg,fg", SZ_ALL, MEDIUM, D1(DOM_ANY), .f1 = f_div },
	{ "rcp_$T", "1.0 / a", "fg=fg", SZ_ALL, 0, D1(DOM_ANY), .f1 = f_rcp },
	{ "mad_$T", "a * b + c", "fg=fg,fg,fg", SZ_ALL, MEDIUM, D1(DOM_MID), .f1 = f_mad },
	{ "neg_$T", "-a", "fg=fg", SZ_ALL, 0, D1(DOM_INF), .f1 = f_neg },
	{ "add_$T_float", "a + b", "fg=fg,f1", SZ_VEC, 0, D1(DOM_MID), .f1 = f_add },
	{ "sub_float_$T", "a - b", "fg=f1,fg", SZ_VEC, 0, D1(DOM_MID), .f1 = f_sub },
	{ "mul_$T_float", "a * b", "fg=fg,f1", SZ_VEC, 0, D1(DOM_MID), .f1 = f_mul },
	{ "mul_float_$T", "a * b", "fg=f1,fg", SZ_VEC, 0, D1(DOM_MID), .f1 = f_mul },
	{ "div_$T_float", "a / b", "fg=fg,f1", SZ_VEC, 0, D1(DOM_MID), .f1 = f_div },
	/* integer arithmetic: wraps on overflow (4.1.3) */
	{ "add_$T", "a + b", "ig=ig,ig", SZ_ALL, MEDIUM | LOW, D1(DOM_INT), .x1 = x_add },
	{ "sub_$T", "a - b", "ig=ig,ig", SZ_ALL, MEDIUM, D1(DOM_INT), .x1 = x_sub },
	{ "mul_$T", "a * b", "ig=ig,ig", SZ_ALL, MEDIUM, D1(DOM_INT), .x1 = x_mul },
	{ "div_$T", "a / b", "ig=ig,ig", SZ_ALL, MEDIUM, D2(DOM_INT, DOM_INT_NZ), .x1 = x_idiv,
	  .fix = fix_idiv },
	/* % of negative operands is undefined (5.9) */
	{ "mod_op_$T", "a % b", "ig=ig,ig", SZ_ALL, 0, D2(DOM_INT_NONNEG, DOM_INT_POS),
	  .x1 = x_irem },
	{ "neg_$T", "-a", "ig=ig", SZ_ALL, 0, D1(DOM_INT), .x1 = x_ineg },
	{ "and_$T", "a & b", "ig=ig,ig", SZ_ALL, 0, D1(DOM_INT), .x1 = x_and },
	{ "or_$T", "a | b", "ig=ig,ig", SZ_ALL, 0, D1(DOM_INT), .x1 = x_or },
	{ "xor_$T", "a ^ b", "ig=ig,ig", SZ_ALL, 0, D1(DOM_INT), .x1 = x_xor },
	{ "not_op_$T", "~a", "ig=ig", SZ_ALL, 0, D1(DOM_INT), .x1 = x_inot },
	{ "shl_$T", "a << b", "ig=ig,ig", SZ_ALL, 0, D2(DOM_INT, DOM_SHIFT), .x1 = x_shl },
	{ "shr_$T", "a >> b", "ig=ig,ig", SZ_ALL, 0, D2(DOM_INT, DOM_SHIFT), .x1 = x_ishr },
	{ "shl_$T_int", "a << b", "ig=ig,i1", SZ_VEC, 0, D2(DOM_INT, DOM_SHIFT), .x1 = x_shl },
	{ "shr_$T_int", "a >> b", "ig=ig,i1", SZ_VEC, 0, D2(DOM_INT, DOM_SHIFT), .x1 = x_ishr },
	{ "add_$T_int", "a + b", "ig=ig,i1", SZ_VEC, 0, D1(DOM_INT), .x1 = x_add },
	{ "mul_int_$T", "a * b", "ig=i1,ig", SZ_VEC, 0, D1(DOM_INT), .x1 = x_mul },
	{ "add_$T", "a + b", "ug=ug,ug", SZ_ALL, 0, D1(DOM_INT), .x1 = x_add },
	{ "sub_$T", "a - b", "ug=ug,ug", SZ_ALL, 0, D1(DOM_INT), .x1 = x_sub },
	{ "mul_$T", "a * b", "ug=ug,ug", SZ_ALL, 0, D1(DOM_INT), .x1 = x_mul },
	{ "div_$T", "a / b", "ug=ug,ug", SZ_ALL, 0, D2(DOM_INT, DOM_INT_NZ), .x1 = x_udiv },
	{ "mod_op_$T", "a % b", "ug=ug,ug", SZ_ALL, 0, D2(DOM_INT, DOM_INT_NZ), .x1 = x_umod },
	{ "neg_$T", "-a", "ug=ug", SZ_ALL, 0, D1(DOM_INT), .x1 = x_ineg },
	{ "and_$T", "a & b", "ug=ug,ug", SZ_ALL, 0, D1(DOM_INT), .x1 = x_and },
	{ "or_$T", "a | b", "ug=ug,ug", SZ_ALL, 0, D1(DOM_INT), .x1 = x_or },
	{ "xor_$T", "a ^ b", "ug=ug,ug", SZ_ALL, 0, D1(DOM_INT), .x1 = x_xor },
	{ "not_op_$T", "~a", "ug=ug", SZ_ALL, 0, D1(DOM_INT), .x1 = x_inot },
	{ "shl_$T", "a << b", "ug=ug,ug", SZ_ALL, 0, D2(DOM_INT, DOM_SHIFT), .x1 = x_shl },
	{ "shr_$T", "a >> b", "ug=ug,ug", SZ_ALL, 0, D2(DOM_INT, DOM_SHIFT), .x1 = x_ushr },
	{ "shr_$T_uint", "a >> b", "ug=ug,u1", SZ_VEC, 0, D2(DOM_INT, DOM_SHIFT), .x1 = x_ushr },
	{ "div_$T_uint", "a / b", "ug=ug,u1", SZ_VEC, 0, D2(DOM_INT, DOM_INT_NZ), .x1 = x_udiv },
	/* scalar comparisons: the correct result (4.5.1), NaN compares unordered */
	{ "lt_$T", "a < b", "b1=f1,f1", SZ_1, 0, D1(DOM_SPECIAL), .x1 = x_flt },
	{ "le_$T", "a <= b", "b1=f1,f1", SZ_1, 0, D1(DOM_SPECIAL), .x1 = x_fle },
	{ "gt_$T", "a > b", "b1=f1,f1", SZ_1, 0, D1(DOM_SPECIAL), .x1 = x_fgt },
	{ "ge_$T", "a >= b", "b1=f1,f1", SZ_1, 0, D1(DOM_SPECIAL), .x1 = x_fge },
	{ "eq_$T", "a == b", "b1=f1,f1", SZ_1, 0, D1(DOM_SPECIAL), .x1 = x_feq },
	{ "ne_$T", "a != b", "b1=f1,f1", SZ_1, 0, D1(DOM_SPECIAL), .x1 = x_fne },
	{ "lt_$T", "a < b", "b1=i1,i1", SZ_1, 0, D1(DOM_INT), .x1 = x_ilt },
	{ "le_$T", "a <= b", "b1=i1,i1", SZ_1, 0, D1(DOM_INT), .x1 = x_ile },
	{ "gt_$T", "a > b", "b1=i1,i1", SZ_1, 0, D1(DOM_INT), .x1 = x_igt },
	{ "ge_$T", "a >= b", "b1=i1,i1", SZ_1, 0, D1(DOM_INT), .x1 = x_ige },
	{ "eq_$T", "a == b", "b1=i1,i1", SZ_1, 0, D1(DOM_INT), .x1 = x_eq },
	{ "ne_$T", "a != b", "b1=i1,i1", SZ_1, 0, D1(DOM_INT), .x1 = x_ne },
	{ "lt_$T", "a < b", "b1=u1,u1", SZ_1, 0, D1(DOM_INT), .x1 = x_ult },
	{ "le_$T", "a <= b", "b1=u1,u1", SZ_1, 0, D1(DOM_INT), .x1 = x_ule },
	{ "gt_$T", "a > b", "b1=u1,u1", SZ_1, 0, D1(DOM_INT), .x1 = x_ugt },
	{ "ge_$T", "a >= b", "b1=u1,u1", SZ_1, 0, D1(DOM_INT), .x1 = x_uge },
	/* == and != of whole vectors */
	{ "eq_$T", "a == b", "b1=fg,fg", SZ_VEC, 0, D1(DOM_UNIT), .xv = xv_vfeq },
	{ "eq_$T", "a == b", "b1=ig,ig", SZ_VEC, 0, D1(DOM_BOOL), .xv = xv_veq },
	{ "ne_$T", "a != b", "b1=ig,ig", SZ_VEC, 0, D1(DOM_BOOL), .xv = xv_vne },
	{ "eq_$T", "a == b", "b1=ug,ug", SZ_VEC, 0, D1(DOM_BOOL), .xv = xv_veq },
	{ "eq_$T", "a == b", "b1=bg,bg", SZ_VEC, 0, D1(DOM_BOOL), .xv = xv_veq },
	{ "ne_$T", "a != b", "b1=bg,bg", SZ_VEC, 0, D1(DOM_BOOL), .xv = xv_vne },
	/* logical operators and selection (5.9, 5.10) */
	{ "land_$T", "a && b", "b1=b1,b1", SZ_1, 0, D1(DOM_BOOL), .x1 = x_band },
	{ "lor_$T", "a || b", "b1=b1,b1", SZ_1, 0, D1(DOM_BOOL), .x1 = x_bor },
	{ "lxor_$T", "a ^^ b", "b1=b1,b1", SZ_1, 0, D1(DOM_BOOL), .x1 = x_bxor },
	{ "lnot_$T", "!a", "b1=b1", SZ_1, 0, D1(DOM_BOOL), .x1 = x_not },
	{ "select_$T", "a ? b : c", "fg=b1,fg,fg", SZ_ALL, 0, D3(DOM_BOOL, DOM_MID, DOM_MID),
	  .f1 = f_bsel },
	{ "select_$T", "a ? b : c", "ig=b1,ig,ig", SZ_ALL, 0, D3(DOM_BOOL, DOM_INT, DOM_INT),
	  .x1 = x_bsel },
	/* conversions and constructors (5.4.1) */
	{ "float_from_$T", "$R(a)", "fg=ig", SZ_ALL, 0, D1(DOM_INT), .f1 = f_convert },
	{ "float_from_$T", "$R(a)", "fg=ug", SZ_ALL, 0, D1(DOM_INT), .f1 = f_convert },
	{ "int_from_$T", "$R(a)", "ig=fg", SZ_ALL, 0, D1(DOM_MID), .x1 = x_f2i },
	{ "uint_from_$T", "$R(a)", "ug=fg", SZ_ALL, 0, D1(DOM_MID), .x1 = x_f2u, .fix = fix_abs_a },
	{ "int_from_$T", "$R(a)", "ig=ug", SZ_ALL, 0, D1(DOM_INT), .x1 = x_bits },
	{ "uint_from_$T", "$R(a)", "ug=ig", SZ_ALL, 0, D1(DOM_INT), .x1 = x_bits },
	{ "bool_from_$T", "$R(a)", "bg=fg", SZ_ALL, 0, D1(DOM_UNIT), .x1 = x_to_bool_f },
	{ "bool_from_$T", "$R(a)", "bg=ig", SZ_ALL, 0, D1(DOM_BOOL), .x1 = x_to_bool_i },
	{ "float_from_$T", "$R(a)", "fg=bg", SZ_ALL, 0, D1(DOM_BOOL), .x1 = x_b2f },
	{ "int_from_$T", "$R(a)", "ig=bg", SZ_ALL, 0, D1(DOM_BOOL), .x1 = x_b2i },
};

void exec_builtins_register(struct exec_list *l)
{
	add_all(l, builtins, sizeof(builtins) / sizeof(builtins[0]));
}

void exec_operators_register(struct exec_list *l)
{
	add_all(l, operators, sizeof(operators) / sizeof(operators[0]));
}
