/*
 * matrix.c: kernels of the matrix types (mat2..mat4, matCxR): the
 * operators * + - on matrices, vectors and scalars, the matrix built-ins
 * (matrixCompMult, outerProduct, transpose, determinant, inverse), ==,
 * constructors and column access, and matrices in std430 storage.  Each
 * invocation builds its operands from 16 floats (column-major, as GLSL's
 * constructors take them) and writes the result's components.  Products
 * are sums of correctly rounded products (GLSL ES 3.00 5.11, with 4.5.1's
 * a * b + c rule); determinant and inverse, whose precision GLSL ES leaves
 * undefined, get the error of their cofactor formulas.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "exec-internal.h"

#define INVOCATIONS 64
#define LOCAL	    64
#define IN_WORDS    48 /* three operands of up to 16 floats */
#define OUT_WORDS   16

enum mop {
	M_MUL_V,     /* A * v */
	V_MUL_M,     /* v * A */
	M_MUL_M,     /* A * B */
	M_ADD,	     /* A + B */
	M_SUB,	     /* A - B */
	M_COMP,	     /* matrixCompMult(A, B) */
	M_SCALE,     /* A * s */
	M_NEG,	     /* -A */
	M_TRANSPOSE, /* transpose(A) */
	M_OUTER,     /* outerProduct(u, v) */
	M_DET,	     /* determinant(A) */
	M_INV,	     /* inverse(A) */
	M_EQ,	     /* A == B (1.0 or 0.0) */
	M_COLUMN,    /* A[k] with a dynamic k, and A[k][j] */
	M_MUL_ASSIGN /* A *= B */
};

struct mspec {
	enum mop op;
	unsigned c, r, k; /* A is c columns of r rows; B is k columns of c rows */
};

static const char *mat_name(unsigned c, unsigned r)
{
	static char names[5][5][16];

	if (c == r)
		snprintf(names[c][r], 16, "mat%u", c % 10);
	else
		snprintf(names[c][r], 16, "mat%ux%u", c % 10, r % 10);
	return names[c][r];
}

static const char *vec_name(unsigned n)
{
	return (const char *[]){ "", "float", "vec2", "vec3", "vec4" }[n];
}

/* Operand inputs: mostly [-4, 4], some exact edges; no denormals, so no flush to allow for. */
static float mat_input(struct exec_rng *r, unsigned index)
{
	static const float edges[] = { 0.0f, 1.0f, -1.0f, 0.5f, -0.0f, 2.0f, -3.0f, 0.25f };

	if (index < 8 && (index * 7) % 3 == 0)
		return edges[index];
	return (float)exec_rng_range(r, -4.0, 4.0);
}

/* A matrix with its columns; m[col][row]. */
struct emat {
	struct ev m[4][4];
	unsigned c, r;
};

static struct emat load(const float *x, unsigned c, unsigned r)
{
	struct emat m = { .c = c, .r = r };

	for (unsigned i = 0; i < c; i++)
		for (unsigned j = 0; j < r; j++)
			m.m[i][j] = ev_exact(x[i * r + j]);
	return m;
}

static struct ev sum_products(const struct exec_prec *p, const struct ev *a, const struct ev *b,
			      unsigned n, unsigned sa, unsigned sb)
{
	struct ev s = ev_mul(p, a[0], b[0]);
	double mag = fabs(a[0].v * b[0].v);

	for (unsigned i = 1; i < n; i++) {
		s = ev_mad(p, a[i * sa], b[i * sb], s);
		mag += fabs(a[i * sa].v * b[i * sb].v);
	}
	/* in any order: no partial sum is larger than the sum of the magnitudes */
	s.e += (n - 1) * ev_ulp(exec_prec(PREC_HIGH), mag);
	return s;
}

static struct ev det(const struct exec_prec *p, const struct emat *a, unsigned n);

/* The minor of (col, row) as a matrix of n - 1. */
static struct emat minor_of(const struct emat *a, unsigned n, unsigned col, unsigned row)
{
	struct emat m = { .c = n - 1, .r = n - 1 };

	for (unsigned i = 0, mi = 0; i < n; i++) {
		if (i == col)
			continue;
		for (unsigned j = 0, mj = 0; j < n; j++) {
			if (j == row)
				continue;
			m.m[mi][mj++] = a->m[i][j];
		}
		mi++;
	}
	return m;
}

/* Cofactor expansion along the first column. */
static struct ev det(const struct exec_prec *p, const struct emat *a, unsigned n)
{
	if (n == 1)
		return a->m[0][0];
	if (n == 2)
		return ev_sub(p, ev_mul(p, a->m[0][0], a->m[1][1]),
			      ev_mul(p, a->m[1][0], a->m[0][1]));
	struct ev s = ev_exact(0.0);
	for (unsigned j = 0; j < n; j++) {
		struct emat m = minor_of(a, n, 0, j);
		struct ev t = ev_mul(p, a->m[0][j], det(p, &m, n - 1));
		s = j ? (j % 2 ? ev_sub(p, s, t) : ev_add(p, s, t)) : t;
	}
	return s;
}

/* The kernel's result, components in order (a matrix column by column). */
static unsigned reference(const struct mspec *s, const float *in, struct ev *out)
{
	const struct exec_prec *p = exec_prec(PREC_HIGH);
	struct emat a = load(in, s->c, s->r), b = load(in + 16, s->k ? s->k : s->c, s->c);
	struct ev v[4], n = { 0 };
	unsigned count = 0;

	for (unsigned i = 0; i < 4; i++)
		v[i] = ev_exact(in[32 + i]);
	switch (s->op) {
	case M_MUL_V: /* r rows: row j = sum_i a[i][j] v[i] */
		for (unsigned j = 0; j < s->r; j++)
			out[count++] = sum_products(p, &a.m[0][j], v, s->c, 4, 1);
		break;
	case V_MUL_M: /* c columns: column i = dot(v, a[i]) */
		for (unsigned i = 0; i < s->c; i++)
			out[count++] = sum_products(p, v, a.m[i], s->r, 1, 1);
		break;
	case M_MUL_M: /* (A B)[col][row] = sum_i A[i][row] B[col][i] */
		for (unsigned col = 0; col < s->k; col++)
			for (unsigned row = 0; row < s->r; row++)
				out[count++] =
				    sum_products(p, &a.m[0][row], &b.m[col][0], s->c, 4, 1);
		break;
	case M_MUL_ASSIGN:
		b = load(in + 16, s->c, s->c);
		for (unsigned col = 0; col < s->c; col++)
			for (unsigned row = 0; row < s->r; row++)
				out[count++] =
				    sum_products(p, &a.m[0][row], &b.m[col][0], s->c, 4, 1);
		break;
	case M_ADD:
	case M_SUB:
	case M_COMP:
		b = load(in + 16, s->c, s->r);
		for (unsigned i = 0; i < s->c; i++)
			for (unsigned j = 0; j < s->r; j++)
				out[count++] = s->op == M_ADD	? ev_add(p, a.m[i][j], b.m[i][j])
					       : s->op == M_SUB ? ev_sub(p, a.m[i][j], b.m[i][j])
								: ev_mul(p, a.m[i][j], b.m[i][j]);
		break;
	case M_SCALE:
		for (unsigned i = 0; i < s->c; i++)
			for (unsigned j = 0; j < s->r; j++)
				out[count++] = ev_mul(p, a.m[i][j], v[0]);
		break;
	case M_NEG:
		for (unsigned i = 0; i < s->c; i++)
			for (unsigned j = 0; j < s->r; j++)
				out[count++] = ev_neg(a.m[i][j]);
		break;
	case M_TRANSPOSE:
		for (unsigned j = 0; j < s->r; j++)
			for (unsigned i = 0; i < s->c; i++)
				out[count++] = a.m[i][j];
		break;
	case M_OUTER: /* outerProduct(u, w)[i][j] = u[j] * w[i]: u has r, w c components */
		for (unsigned i = 0; i < s->c; i++)
			for (unsigned j = 0; j < s->r; j++)
				out[count++] =
				    ev_mul(p, ev_exact(in[16 + j]), ev_exact(in[32 + i]));
		break;
	case M_DET:
		out[count++] = det(p, &a, s->c);
		break;
	case M_INV: {
		/* inverse = adjugate / determinant */
		struct ev d = det(p, &a, s->c);
		for (unsigned i = 0; i < s->c; i++) {
			for (unsigned j = 0; j < s->c; j++) {
				struct emat m = minor_of(&a, s->c, j, i);
				struct ev cof = det(p, &m, s->c - 1);
				if ((i + j) % 2)
					cof = ev_neg(cof);
				out[count++] = ev_div(p, cof, d);
			}
		}
		break;
	}
	case M_EQ: {
		bool eq = true;
		b = load(in + 16, s->c, s->r);
		for (unsigned i = 0; i < s->c; i++)
			for (unsigned j = 0; j < s->r; j++)
				eq &= a.m[i][j].v == b.m[i][j].v;
		out[count++] = ev_exact(eq ? 1.0 : 0.0);
		break;
	}
	case M_COLUMN: {
		/* column k = bits of in[40] mod c, and element [k][(k + 1) % r] */
		unsigned k = (unsigned)in[40] % s->c;
		for (unsigned j = 0; j < s->r; j++)
			out[count++] = a.m[k][j];
		out[count++] = a.m[k][(k + 1) % s->r];
		break;
	}
	}
	(void)n;
	return count;
}

/* The GLSL of operand `m` (A at 0, B at 16) built from the input floats. */
static void ctor(struct exec_text *t, const char *var, unsigned c, unsigned r, unsigned at)
{
	exec_text_printf(t, "\t%s %s = %s(", mat_name(c, r), var, mat_name(c, r));
	for (unsigned i = 0; i < c * r; i++)
		exec_text_printf(t, "%sx[b + %uu]", i ? ", " : "", at + i);
	exec_text_printf(t, ");\n");
}

static void vctor(struct exec_text *t, const char *var, unsigned n, unsigned at)
{
	if (n == 1) {
		exec_text_printf(t, "\tfloat %s = x[b + %uu];\n", var, at);
		return;
	}
	exec_text_printf(t, "\t%s %s = %s(", vec_name(n), var, vec_name(n));
	for (unsigned i = 0; i < n; i++)
		exec_text_printf(t, "%sx[b + %uu]", i ? ", " : "", at + i);
	exec_text_printf(t, ");\n");
}

/* Writes the result: a matrix (column by column), a vector or a float. */
static void store(struct exec_text *t, const char *expr, unsigned c, unsigned r)
{
	if (c == 0) {
		exec_text_printf(t, "\toutp.r[o] = %s;\n", expr);
		return;
	}
	if (r == 0) {
		exec_text_printf(t, "\t%s res = %s;\n", vec_name(c), expr);
		for (unsigned j = 0; j < c; j++)
			exec_text_printf(t, "\toutp.r[o + %uu] = res[%u];\n", j, j);
		return;
	}
	exec_text_printf(t, "\t%s res = %s;\n", mat_name(c, r), expr);
	for (unsigned i = 0; i < c; i++)
		for (unsigned j = 0; j < r; j++)
			exec_text_printf(t, "\toutp.r[o + %uu] = res[%u][%u];\n", i * r + j, i, j);
}

static int make_mat(const struct exec_kernel *k, struct exec_case *c)
{
	const struct mspec *s = k->param;
	struct exec_text t = { 0 };

	exec_case_grid(c, LOCAL, INVOCATIONS / LOCAL);
	float *in = (float *)exec_case_buffer(c, 0, false, INVOCATIONS * IN_WORDS * 4);
	float *out = (float *)exec_case_buffer(c, 1, false, INVOCATIONS * OUT_WORDS * 4);
	if (!in || !out || !exec_case_expect(c, 1))
		return -ENOMEM;
	exec_case_out(c, "r", 0, OUT_WORDS, OUT_WORDS, 'f');
	exec_case_view(c, "A", 0, 0, IN_WORDS, s->c * s->r, 'f');
	exec_case_view(c, "B", 0, 16, IN_WORDS, 16, 'f');
	exec_case_view(c, "v", 0, 32, IN_WORDS, 4, 'f');

	struct exec_rng rng;
	exec_rng_seed(&rng, k->name, 0);
	for (unsigned i = 0; i < INVOCATIONS; i++) {
		float *x = in + i * IN_WORDS;
		struct ev r[OUT_WORDS];

		for (unsigned j = 0; j < IN_WORDS; j++)
			x[j] = mat_input(&rng, i + j);
		if (s->op == M_EQ && i % 2 == 0)
			memcpy(x + 16, x, 16 * 4); /* half of them equal */
		if (s->op == M_EQ && i % 4 == 2)
			x[16 + i % (s->c * s->r)] += 1.0f; /* differing in one component */
		if (s->op == M_COLUMN)
			x[40] = (float)(i % 7);
		unsigned n = reference(s, x, r);
		for (unsigned j = 0; j < n; j++)
			exec_expect_ev(&c->expect[i * OUT_WORDS + j], exec_prec(PREC_HIGH), r[j]);
	}

	exec_text_printf(&t, "#version 310 es\nlayout(local_size_x = %u) in;\n", LOCAL);
	exec_text_printf(&t, "layout(std430, binding = 0) buffer In { float x[]; };\n");
	exec_text_printf(&t, "layout(std430, binding = 1) buffer Out { float r[]; } outp;\n");
	exec_text_printf(&t, "void main()\n{\n\tuint i = gl_GlobalInvocationID.x;\n");
	exec_text_printf(&t, "\tuint b = i * %uu, o = i * %uu;\n", IN_WORDS, OUT_WORDS);
	ctor(&t, "A", s->c, s->r, 0);
	switch (s->op) {
	case M_MUL_V:
		vctor(&t, "v", s->c, 32);
		store(&t, "A * v", s->r, 0);
		break;
	case V_MUL_M:
		vctor(&t, "v", s->r, 32);
		store(&t, "v * A", s->c, 0);
		break;
	case M_MUL_M:
		ctor(&t, "B", s->k, s->c, 16);
		store(&t, "A * B", s->k, s->r);
		break;
	case M_MUL_ASSIGN:
		ctor(&t, "B", s->c, s->c, 16);
		exec_text_printf(&t, "\tA *= B;\n");
		store(&t, "A", s->c, s->r);
		break;
	case M_ADD:
	case M_SUB:
	case M_COMP:
	case M_EQ:
		ctor(&t, "B", s->c, s->r, 16);
		store(&t,
		      s->op == M_ADD   ? "A + B"
		      : s->op == M_SUB ? "A - B"
		      : s->op == M_EQ  ? "A == B ? 1.0 : 0.0"
				       : "matrixCompMult(A, B)",
		      s->op == M_EQ ? 0 : s->c, s->r);
		break;
	case M_SCALE:
		vctor(&t, "v", 1, 32);
		store(&t, "A * v", s->c, s->r);
		break;
	case M_NEG:
		store(&t, "-A", s->c, s->r);
		break;
	case M_TRANSPOSE:
		store(&t, "transpose(A)", s->r, s->c);
		break;
	case M_OUTER:
		vctor(&t, "u", s->r, 16);
		vctor(&t, "w", s->c, 32);
		store(&t, "outerProduct(u, w)", s->c, s->r);
		break;
	case M_DET:
		store(&t, "determinant(A)", 0, 0);
		break;
	case M_INV:
		store(&t, "inverse(A)", s->c, s->c);
		break;
	case M_COLUMN:
		exec_text_printf(&t, "\tint k = int(x[b + 40u]) %% %u;\n", s->c);
		store(&t, "A[k]", s->r, 0);
		exec_text_printf(&t, "\toutp.r[o + %uu] = A[k][(k + 1) %% %u];\n", s->r, s->r);
		break;
	}
	exec_text_printf(&t, "}\n");
	c->source = exec_text_take(&t);
	return c->source ? 0 : -ENOMEM;
}

/* Matrices in storage (std430, 4.3.9 of 3.10 / 7.6.2.2 of ES 3.1): column vectors at their
 * own stride -- 8 bytes for mat2's, 16 for mat3's and mat4's -- read, transposed, written. */
static int make_mat_ssbo(const struct exec_kernel *k, struct exec_case *c)
{
	unsigned n = k->variant, stride = n == 2 ? 2 : 4, words = n * stride;
	struct exec_text t = { 0 };

	exec_case_grid(c, 32, 2);
	uint32_t *in = (uint32_t *)exec_case_buffer(c, 0, false, INVOCATIONS * words * 4);
	uint32_t *out = (uint32_t *)exec_case_buffer(c, 1, false, INVOCATIONS * words * 4);
	struct exec_expect *x = exec_case_expect(c, 1);
	if (!in || !out || !x)
		return -ENOMEM;
	exec_case_out(c, "r", 0, words, words, 'f');
	exec_case_view(c, "m", 0, 0, words, words, 'f');
	struct exec_rng rng;
	exec_rng_seed(&rng, k->name, 0);
	for (unsigned i = 0; i < INVOCATIONS * words; i++)
		in[i] = exec_fbits(mat_input(&rng, i));
	for (unsigned i = 0; i < INVOCATIONS; i++)
		for (unsigned col = 0; col < n; col++)
			for (unsigned row = 0; row < n; row++) {
				/* out column col, row row = in column row, row col */
				uint32_t v = in[i * words + row * stride + col];
				x[i * words + col * stride + row] =
				    (struct exec_expect){ .kind = EXEC_FLOAT,
							  .value = exec_bitsf(v) };
			}
	exec_text_printf(&t,
			 "#version 310 es\nlayout(local_size_x = 32) in;\n"
			 "layout(std430, binding = 0) buffer In { mat%u m[]; };\n"
			 "layout(std430, binding = 1) buffer Out { mat%u r[]; };\n"
			 "void main()\n{\n\tuint i = gl_GlobalInvocationID.x;\n"
			 "\tr[i] = transpose(m[i]);\n}\n",
			 n, n);
	c->source = exec_text_take(&t);
	return c->source ? 0 : -ENOMEM;
}

/* Constructors between matrix types (5.4.2): the upper-left part kept, the identity beyond. */
struct mconv {
	unsigned from, to;
};

static int make_mat_convert(const struct exec_kernel *k, struct exec_case *c)
{
	const struct mconv *m = k->param;
	struct exec_text t = { 0 };

	exec_case_grid(c, LOCAL, 1);
	float *in = (float *)exec_case_buffer(c, 0, false, LOCAL * IN_WORDS * 4);
	float *out = (float *)exec_case_buffer(c, 1, false, LOCAL * OUT_WORDS * 4);
	if (!in || !out || !exec_case_expect(c, 1))
		return -ENOMEM;
	exec_case_out(c, "r", 0, OUT_WORDS, OUT_WORDS, 'f');
	exec_case_view(c, "A", 0, 0, IN_WORDS, m->from * m->from, 'f');
	struct exec_rng rng;
	exec_rng_seed(&rng, k->name, 0);
	for (unsigned i = 0; i < LOCAL; i++) {
		float *x = in + i * IN_WORDS;
		for (unsigned j = 0; j < 16; j++)
			x[j] = mat_input(&rng, i + j);
		for (unsigned col = 0; col < m->to; col++) {
			for (unsigned row = 0; row < m->to; row++) {
				double v = col < m->from && row < m->from ? x[col * m->from + row]
					   : col == row			  ? 1.0
									  : 0.0;
				c->expect[i * OUT_WORDS + col * m->to + row] =
				    (struct exec_expect){ .kind = EXEC_FLOAT, .value = v };
			}
		}
	}
	exec_text_printf(&t, "#version 310 es\nlayout(local_size_x = %u) in;\n", LOCAL);
	exec_text_printf(&t, "layout(std430, binding = 0) buffer In { float x[]; };\n");
	exec_text_printf(&t, "layout(std430, binding = 1) buffer Out { float r[]; } outp;\n");
	exec_text_printf(&t, "void main()\n{\n\tuint i = gl_GlobalInvocationID.x;\n");
	exec_text_printf(&t, "\tuint b = i * %uu, o = i * %uu;\n", IN_WORDS, OUT_WORDS);
	ctor(&t, "A", m->from, m->from, 0);
	char expr[32];
	snprintf(expr, sizeof(expr), "mat%u(A)", m->to);
	store(&t, expr, m->to, m->to);
	exec_text_printf(&t, "}\n");
	c->source = exec_text_take(&t);
	return c->source ? 0 : -ENOMEM;
}

static const unsigned dims[][2] = { { 2, 2 }, { 3, 3 }, { 4, 4 }, { 2, 3 }, { 3, 2 },
				    { 2, 4 }, { 4, 2 }, { 3, 4 }, { 4, 3 } };

void exec_matrix_register(struct exec_list *l)
{
	static struct mspec specs[160];
	static const struct mconv convs[] = { { 4, 3 }, { 3, 4 }, { 2, 4 }, { 4, 2 }, { 3, 2 } };
	static const struct {
		enum mop op;
		const char *name;
		bool square;
	} each[] = {
		{ M_MUL_V, "mul_%s_vec", false },
		{ V_MUL_M, "mul_vec_%s", false },
		{ M_ADD, "add_%s", false },
		{ M_SUB, "sub_%s", false },
		{ M_COMP, "matrixCompMult_%s", false },
		{ M_SCALE, "mul_%s_float", false },
		{ M_NEG, "neg_%s", false },
		{ M_TRANSPOSE, "transpose_%s", false },
		{ M_OUTER, "outerProduct_%s", false },
		{ M_EQ, "eq_%s", false },
		{ M_COLUMN, "column_%s", false },
		{ M_DET, "determinant_%s", true },
		{ M_INV, "inverse_%s", true },
		{ M_MUL_ASSIGN, "mul_assign_%s", false },
	};
	unsigned n = 0;

	for (unsigned e = 0; e < sizeof(each) / sizeof(each[0]); e++) {
		for (unsigned d = 0; d < sizeof(dims) / sizeof(dims[0]); d++) {
			if (each[e].square && dims[d][0] != dims[d][1])
				continue;
			specs[n] = (struct mspec){ each[e].op, dims[d][0], dims[d][1], 0 };
			exec_add(l, make_mat, &specs[n], 0, each[e].name,
				 mat_name(dims[d][0], dims[d][1]));
			n++;
		}
	}
	/* A (c x r) * B (k x c): each A with B of 2 and of 4 columns */
	for (unsigned d = 0; d < sizeof(dims) / sizeof(dims[0]); d++) {
		for (unsigned kk = 2; kk <= 4; kk += 2) {
			specs[n] = (struct mspec){ M_MUL_M, dims[d][0], dims[d][1], kk };
			exec_add(l, make_mat, &specs[n], 0, "mul_%s_%s",
				 mat_name(dims[d][0], dims[d][1]), mat_name(kk, dims[d][0]));
			n++;
		}
	}
	for (unsigned m = 2; m <= 4; m++)
		exec_add(l, make_mat_ssbo, NULL, m, "ssbo_mat%u", m);
	for (unsigned i = 0; i < sizeof(convs) / sizeof(convs[0]); i++)
		exec_add(l, make_mat_convert, &convs[i], 0, "mat%u_from_mat%u", convs[i].to,
			 convs[i].from);
}
