/*
 * agx_spirv_glsl450.c: the GLSL.std.450 extended instructions and the
 * core matrix instructions (agx_spirv_to_ir.h), expanded into scalar IR
 * ops.  GLSL ES 3.00 section 8 defines most built-ins by a formula, and
 * section 4.5.1 gives those the precision of what the formula is made
 * of; the trigonometric inverses, whose precision GLSL ES leaves open, get
 * a polynomial good to a few ulp.
 */
#include <errno.h>
#include <string.h>

#include <spirv/unified1/GLSL.std.450.h>

#include "agx_spirv_to_ir.h"

#define F(x) agx_imm_f32(x)
#define U(x) agx_imm_u32(x)

static const float pi_2 = 1.57079632679489662f, pi = 3.14159265358979324f;

struct agx_ir_value tr_dot(struct tr *t, const struct agx_ir_value *a, const struct agx_ir_value *b,
			   unsigned n)
{
	struct agx_ir_value r = agx_fmul(&t->b, a[0], b[0]);

	for (unsigned i = 1; i < n; i++)
		r = agx_ffma(&t->b, a[i], b[i], r);
	return r;
}

/* ---- one float at a time --------------------------------------------------------------- */

/*
 * atan on [0, 1]: x times a polynomial in x^2, Abramowitz and Stegun
 * 4.4.49 (Hastings' approximation, |error| <= 2e-8).
 */
static struct agx_ir_value atan_01(struct agx_builder *b, struct agx_ir_value x)
{
	static const float c[] = { 0.0028662257f,  -0.0161657367f, 0.0429096138f,
				   -0.0752896400f, 0.1065626393f,  -0.1420889944f,
				   0.1999355085f,  -0.3333314528f, 1.0f };
	struct agx_ir_value x2 = agx_fmul(b, x, x), p = F(c[0]);

	for (unsigned i = 1; i < sizeof(c) / sizeof(c[0]); i++)
		p = agx_ffma(b, p, x2, F(c[i]));
	return agx_fmul(b, p, x);
}

static struct agx_ir_value f_atan(struct agx_builder *b, struct agx_ir_value x)
{
	struct agx_ir_value ax = agx_fabs(b, x), big = agx_flt(b, F(1.0f), ax);
	struct agx_ir_value u = agx_bcsel(b, big, agx_frcp(b, ax), ax);
	struct agx_ir_value a = atan_01(b, u);

	/* atan(x) = pi/2 - atan(1/x) above 1, and odd */
	a = agx_bcsel(b, big, agx_fsub(b, F(pi_2), a), a);
	return agx_bcsel(b, agx_flt(b, x, F(0.0f)), agx_fneg(b, a), a);
}

static struct agx_ir_value f_atan2(struct agx_builder *b, struct agx_ir_value y,
				   struct agx_ir_value x)
{
	struct agx_ir_value ax = agx_fabs(b, x), ay = agx_fabs(b, y);
	struct agx_ir_value mx = agx_fmax(b, ax, ay), mn = agx_fmin(b, ax, ay);
	/* atan2(0, 0) is undefined in GLSL; 0 rather than a NaN */
	struct agx_ir_value q = agx_bcsel(b, agx_feq(b, mx, F(0.0f)), F(0.0f), agx_fdiv(b, mn, mx));
	struct agx_ir_value a = atan_01(b, q);

	a = agx_bcsel(b, agx_flt(b, ax, ay), agx_fsub(b, F(pi_2), a), a);
	a = agx_bcsel(b, agx_flt(b, x, F(0.0f)), agx_fsub(b, F(pi), a), a);
	return agx_bcsel(b, agx_flt(b, y, F(0.0f)), agx_fneg(b, a), a);
}

/* sqrt(1 - x^2), as (1 - x)(1 + x) to keep it exact near 1 */
static struct agx_ir_value cos_of_asin(struct agx_builder *b, struct agx_ir_value x)
{
	return agx_fsqrt(
	    b, agx_fmax(b, agx_fmul(b, agx_fsub(b, F(1.0f), x), agx_fadd(b, F(1.0f), x)), F(0.0f)));
}

static struct agx_ir_value f_asin(struct agx_builder *b, struct agx_ir_value x)
{
	return f_atan2(b, x, cos_of_asin(b, x));
}

static struct agx_ir_value f_acos(struct agx_builder *b, struct agx_ir_value x)
{
	return f_atan2(b, cos_of_asin(b, x), x);
}

static struct agx_ir_value f_exp(struct agx_builder *b, struct agx_ir_value x)
{
	return agx_fexp2(b, agx_fmul(b, x, F(1.44269504088896341f)));
}

static struct agx_ir_value f_log(struct agx_builder *b, struct agx_ir_value x)
{
	return agx_fmul(b, agx_flog2(b, x), F(0.693147180559945309f));
}

static struct agx_ir_value f_sinh(struct agx_builder *b, struct agx_ir_value x)
{
	return agx_fmul(b, agx_fsub(b, f_exp(b, x), f_exp(b, agx_fneg(b, x))), F(0.5f));
}

static struct agx_ir_value f_cosh(struct agx_builder *b, struct agx_ir_value x)
{
	return agx_fmul(b, agx_fadd(b, f_exp(b, x), f_exp(b, agx_fneg(b, x))), F(0.5f));
}

static struct agx_ir_value f_tanh(struct agx_builder *b, struct agx_ir_value x)
{
	/* beyond |x| = 10 tanh is 1 in a float; clamping keeps e^2x finite */
	struct agx_ir_value c = agx_fmin(b, agx_fmax(b, x, F(-10.0f)), F(10.0f));
	struct agx_ir_value e = f_exp(b, agx_fmul(b, c, F(2.0f)));

	return agx_fdiv(b, agx_fsub(b, e, F(1.0f)), agx_fadd(b, e, F(1.0f)));
}

static struct agx_ir_value f_asinh(struct agx_builder *b, struct agx_ir_value x)
{
	struct agx_ir_value ax = agx_fabs(b, x);
	struct agx_ir_value r = f_log(b, agx_fadd(b, ax, agx_fsqrt(b, agx_ffma(b, x, x, F(1.0f)))));

	return agx_bcsel(b, agx_flt(b, x, F(0.0f)), agx_fneg(b, r), r);
}

static struct agx_ir_value f_acosh(struct agx_builder *b, struct agx_ir_value x)
{
	return f_log(b, agx_fadd(b, x, agx_fsqrt(b, agx_ffma(b, x, x, F(-1.0f)))));
}

static struct agx_ir_value f_atanh(struct agx_builder *b, struct agx_ir_value x)
{
	return agx_fmul(b, f_log(b, agx_fdiv(b, agx_fadd(b, F(1.0f), x), agx_fsub(b, F(1.0f), x))),
			F(0.5f));
}

static struct agx_ir_value f_tan(struct agx_builder *b, struct agx_ir_value x)
{
	return agx_fdiv(b, agx_fsin(b, x), agx_fcos(b, x));
}

static struct agx_ir_value f_radians(struct agx_builder *b, struct agx_ir_value x)
{
	return agx_fmul(b, x, F(0.0174532925199432958f));
}

static struct agx_ir_value f_degrees(struct agx_builder *b, struct agx_ir_value x)
{
	return agx_fmul(b, x, F(57.2957795130823209f));
}

static struct agx_ir_value f_sign(struct agx_builder *b, struct agx_ir_value x)
{
	return agx_bcsel(b, agx_flt(b, F(0.0f), x), F(1.0f),
			 agx_bcsel(b, agx_flt(b, x, F(0.0f)), F(-1.0f), F(0.0f)));
}

static struct agx_ir_value i_sign(struct agx_builder *b, struct agx_ir_value x)
{
	return agx_imin(b, agx_imax(b, x, agx_imm_i32(-1)), agx_imm_i32(1));
}

static struct agx_ir_value i_abs(struct agx_builder *b, struct agx_ir_value x)
{
	return agx_imax(b, x, agx_ineg(b, x));
}

static struct agx_ir_value f_step(struct agx_builder *b, struct agx_ir_value edge,
				  struct agx_ir_value x)
{
	return agx_bcsel(b, agx_flt(b, x, edge), F(0.0f), F(1.0f));
}

static struct agx_ir_value f_smoothstep(struct agx_builder *b, struct agx_ir_value e0,
					struct agx_ir_value e1, struct agx_ir_value x)
{
	struct agx_ir_value tt = agx_fdiv(b, agx_fsub(b, x, e0), agx_fsub(b, e1, e0));

	tt = agx_fmin(b, agx_fmax(b, tt, F(0.0f)), F(1.0f));
	return agx_fmul(b, agx_fmul(b, tt, tt), agx_ffma(b, tt, F(-2.0f), F(3.0f)));
}

static struct agx_ir_value f_mix(struct agx_builder *b, struct agx_ir_value x,
				 struct agx_ir_value y, struct agx_ir_value a)
{
	/* x * (1 - a) + y * a (GLSL ES 3.00 section 8.3): exactly y at a = 1 */
	return agx_ffma(b, y, a, agx_fmul(b, x, agx_fsub(b, F(1.0f), a)));
}

static struct agx_ir_value f_clamp(struct agx_builder *b, struct agx_ir_value x,
				   struct agx_ir_value lo, struct agx_ir_value hi)
{
	return agx_fmin(b, agx_fmax(b, x, lo), hi);
}

static struct agx_ir_value u_clamp(struct agx_builder *b, struct agx_ir_value x,
				   struct agx_ir_value lo, struct agx_ir_value hi)
{
	return agx_umin(b, agx_umax(b, x, lo), hi);
}

static struct agx_ir_value s_clamp(struct agx_builder *b, struct agx_ir_value x,
				   struct agx_ir_value lo, struct agx_ir_value hi)
{
	return agx_imin(b, agx_imax(b, x, lo), hi);
}

static struct agx_ir_value f_fma(struct agx_builder *b, struct agx_ir_value x,
				 struct agx_ir_value y, struct agx_ir_value z)
{
	return agx_ffma(b, x, y, z);
}

static struct agx_ir_value f_pow(struct agx_builder *b, struct agx_ir_value x,
				 struct agx_ir_value y)
{
	return agx_fpow(b, x, y);
}

/* the number of bits set below the lowest set one, -1 for 0 */
static struct agx_ir_value b_popcount(struct agx_builder *b, struct agx_ir_value x)
{
	struct agx_ir_value v = agx_isub(b, x, agx_iand(b, agx_ushr(b, x, U(1)), U(0x55555555)));

	v = agx_iadd(b, agx_iand(b, v, U(0x33333333)),
		     agx_iand(b, agx_ushr(b, v, U(2)), U(0x33333333)));
	v = agx_iand(b, agx_iadd(b, v, agx_ushr(b, v, U(4))), U(0x0f0f0f0f));
	return agx_ushr(b, agx_imul(b, v, U(0x01010101)), U(24));
}

static struct agx_ir_value i_find_lsb(struct agx_builder *b, struct agx_ir_value x)
{
	struct agx_ir_value low = agx_iand(b, x, agx_ineg(b, x));
	struct agx_ir_value n = b_popcount(b, agx_isub(b, low, U(1)));

	return agx_bcsel(b, agx_ieq(b, x, U(0)), agx_imm_i32(-1), n);
}

/* the highest set bit by smearing it down and counting, -1 for 0 */
static struct agx_ir_value u_find_msb(struct agx_builder *b, struct agx_ir_value x)
{
	for (unsigned s = 1; s <= 16; s *= 2)
		x = agx_ior(b, x, agx_ushr(b, x, U(s)));
	return agx_isub(b, b_popcount(b, x), U(1));
}

static struct agx_ir_value s_find_msb(struct agx_builder *b, struct agx_ir_value x)
{
	/* a negative number's highest bit that differs from its sign: that of ~x */
	return u_find_msb(b, agx_bcsel(b, agx_ilt(b, x, U(0)), agx_inot(b, x), x));
}

/* ---- packing ------------------------------------------------------------------------------ */

static struct agx_ir_value pack_field(struct agx_builder *b, struct agx_ir_value f, bool snorm,
				      unsigned bits)
{
	float scale = snorm ? (float)((1u << (bits - 1)) - 1) : (float)((1u << bits) - 1);
	struct agx_ir_value c =
	    snorm ? f_clamp(b, f, F(-1.0f), F(1.0f)) : f_clamp(b, f, F(0.0f), F(1.0f));
	struct agx_ir_value r = agx_fround_even(b, agx_fmul(b, c, F(scale)));

	r = snorm ? agx_f2i(b, AGX_IR_TYPE_I32, r) : agx_f2u(b, AGX_IR_TYPE_I32, r);
	return agx_iand(b, r, U((1u << bits) - 1));
}

static struct agx_ir_value unpack_field(struct agx_builder *b, struct agx_ir_value u,
					unsigned shift, bool snorm, unsigned bits)
{
	float scale = snorm ? (float)((1u << (bits - 1)) - 1) : (float)((1u << bits) - 1);
	struct agx_ir_value f;

	if (snorm) {
		/* the field to the top, then back with its sign */
		struct agx_ir_value v =
		    agx_ishr(b, agx_ishl(b, u, U(32 - shift - bits)), U(32 - bits));

		f = agx_fdiv(b, agx_i2f(b, AGX_IR_TYPE_F32, v), F(scale));
		return f_clamp(b, f, F(-1.0f), F(1.0f));
	}
	f = agx_u2f(b, AGX_IR_TYPE_F32, agx_iand(b, agx_ushr(b, u, U(shift)), U((1u << bits) - 1)));
	return agx_fdiv(b, f, F(scale));
}

/* ---- matrices ------------------------------------------------------------------------------ */

/* The determinant of the n x n matrix m[col * stride + row], rows and columns picked. */
static struct agx_ir_value det(struct agx_builder *b, const struct agx_ir_value *m, unsigned stride,
			       const unsigned *cols, const unsigned *rows, unsigned n)
{
	struct agx_ir_value r = F(0.0f);

	if (n == 1)
		return m[cols[0] * stride + rows[0]];
	if (n == 2)
		return agx_fsub(
		    b, agx_fmul(b, m[cols[0] * stride + rows[0]], m[cols[1] * stride + rows[1]]),
		    agx_fmul(b, m[cols[1] * stride + rows[0]], m[cols[0] * stride + rows[1]]));
	/* Laplace expansion along the first row */
	for (unsigned j = 0; j < n; j++) {
		unsigned sub_cols[3], k = 0;
		struct agx_ir_value minor, term;

		for (unsigned c = 0; c < n; c++)
			if (c != j)
				sub_cols[k++] = cols[c];
		minor = det(b, m, stride, sub_cols, rows + 1, n - 1);
		term = agx_fmul(b, m[cols[j] * stride + rows[0]], minor);
		r = j == 0 ? term : (j % 2 ? agx_fsub(b, r, term) : agx_fadd(b, r, term));
	}
	return r;
}

static void inverse(struct agx_builder *b, const struct agx_ir_value *m, unsigned n,
		    struct agx_ir_value *out)
{
	static const unsigned all[4] = { 0, 1, 2, 3 };
	struct agx_ir_value cof[16], d = F(0.0f), inv;

	/* the adjugate: out[c][r] is the cofactor of row c, column r */
	for (unsigned r = 0; r < n; r++)
		for (unsigned c = 0; c < n; c++) {
			unsigned rows[3], cols[3], kr = 0, kc = 0;

			for (unsigned i = 0; i < n; i++) {
				if (i != r)
					rows[kr++] = i;
				if (i != c)
					cols[kc++] = i;
			}
			cof[c * n + r] = n == 1 ? F(1.0f) : det(b, m, n, cols, rows, n - 1);
			if ((r + c) % 2)
				cof[c * n + r] = agx_fneg(b, cof[c * n + r]);
		}
	for (unsigned c = 0; c < n; c++)
		d = c == 0 ? agx_fmul(b, m[c * n], cof[c * n])
			   : agx_ffma(b, m[c * n], cof[c * n], d);
	(void)all;
	inv = agx_frcp(b, d);
	for (unsigned c = 0; c < n; c++)
		for (unsigned r = 0; r < n; r++)
			out[c * n + r] = agx_fmul(b, cof[r * n + c], inv);
}

static void mat_dims(struct tr *t, uint32_t type, unsigned *cols, unsigned *rows)
{
	const struct tr_type *mt = tr_type(t, type);

	*cols = mt->len;
	*rows = tr_type(t, mt->elem)->len;
}

static bool is_matrix(struct tr *t, uint32_t id)
{
	return id < t->m->bound && t->vals[id].kind == TR_V_SSA &&
	       tr_type(t, t->vals[id].type)->kind == TR_T_MATRIX;
}

int tr_matrix_op(struct tr *t, const struct agx_spirv_inst *in)
{
	struct agx_builder *b = &t->b;
	const struct tr_type *type = tr_type(t, in->type);
	uint32_t a_id = agx_spirv_operand(in, 0), b_id = agx_spirv_operand(in, 1);
	struct agx_ir_value *x, *y = NULL, r[16];
	unsigned nx = 0, ny = 0, cols, rows, k;
	int ret;

	if (!type || type->n == 0 || type->n > 16)
		return tr_fail(t, -EINVAL, "a matrix or vector instruction of type %u", in->type);
	if ((ret = tr_get_ssa(t, a_id, &x, &nx)) < 0 ||
	    (in->opcode != SpvOpTranspose && (ret = tr_get_ssa(t, b_id, &y, &ny)) < 0))
		return ret;
	switch (in->opcode) {
	case SpvOpVectorTimesScalar:
	case SpvOpMatrixTimesScalar:
		if (ny != 1 || nx != type->n)
			break;
		for (unsigned i = 0; i < nx; i++)
			r[i] = agx_fmul(b, x[i], y[0]);
		return tr_set_ssa(t, in->result, in->type, r, nx);
	case SpvOpDot:
		if (nx != ny || nx > 4 || type->n != 1)
			break;
		r[0] = tr_dot(t, x, y, nx);
		return tr_set_ssa(t, in->result, in->type, r, 1);
	case SpvOpMatrixTimesVector:
		/* (cols x rows) * cols -> rows */
		if (!is_matrix(t, a_id))
			break;
		mat_dims(t, t->vals[a_id].type, &cols, &rows);
		if (ny != cols || type->n != rows)
			break;
		for (unsigned i = 0; i < rows; i++) {
			r[i] = agx_fmul(b, x[i], y[0]);
			for (unsigned j = 1; j < cols; j++)
				r[i] = agx_ffma(b, x[j * rows + i], y[j], r[i]);
		}
		return tr_set_ssa(t, in->result, in->type, r, rows);
	case SpvOpVectorTimesMatrix:
		/* rows * (cols x rows) -> cols: a dot with each column */
		if (!is_matrix(t, b_id))
			break;
		mat_dims(t, t->vals[b_id].type, &cols, &rows);
		if (nx != rows || type->n != cols)
			break;
		for (unsigned j = 0; j < cols; j++)
			r[j] = tr_dot(t, x, y + j * rows, rows);
		return tr_set_ssa(t, in->result, in->type, r, cols);
	case SpvOpMatrixTimesMatrix: {
		unsigned bcols, brows;

		if (!is_matrix(t, a_id) || !is_matrix(t, b_id))
			break;
		mat_dims(t, t->vals[a_id].type, &cols, &rows);
		mat_dims(t, t->vals[b_id].type, &bcols, &brows);
		if (brows != cols || type->n != bcols * rows)
			break;
		for (unsigned j = 0; j < bcols; j++)
			for (unsigned i = 0; i < rows; i++) {
				struct agx_ir_value acc = agx_fmul(b, x[i], y[j * brows]);

				for (k = 1; k < cols; k++)
					acc = agx_ffma(b, x[k * rows + i], y[j * brows + k], acc);
				r[j * rows + i] = acc;
			}
		return tr_set_ssa(t, in->result, in->type, r, bcols * rows);
	}
	case SpvOpOuterProduct:
		/* column j is x * y[j] */
		if (type->kind != TR_T_MATRIX)
			break;
		mat_dims(t, in->type, &cols, &rows);
		if (nx != rows || ny != cols)
			break;
		for (unsigned j = 0; j < cols; j++)
			for (unsigned i = 0; i < rows; i++)
				r[j * rows + i] = agx_fmul(b, x[i], y[j]);
		return tr_set_ssa(t, in->result, in->type, r, cols * rows);
	case SpvOpTranspose:
		if (!is_matrix(t, a_id) || type->kind != TR_T_MATRIX)
			break;
		mat_dims(t, t->vals[a_id].type, &cols, &rows);
		if (type->n != nx || type->len != rows)
			break;
		for (unsigned j = 0; j < cols; j++)
			for (unsigned i = 0; i < rows; i++)
				r[i * cols + j] = x[j * rows + i];
		return tr_set_ssa(t, in->result, in->type, r, nx);
	default:
		break;
	}
	return tr_fail(t, -EINVAL, "opcode %u of operands whose shapes do not fit",
		       (unsigned)in->opcode);
}

/* ---- the extended instructions --------------------------------------------------------------- */

typedef struct agx_ir_value (*fn1)(struct agx_builder *b, struct agx_ir_value x);
typedef struct agx_ir_value (*fn2)(struct agx_builder *b, struct agx_ir_value x,
				   struct agx_ir_value y);
typedef struct agx_ir_value (*fn3)(struct agx_builder *b, struct agx_ir_value x,
				   struct agx_ir_value y, struct agx_ir_value z);

/*
 * Component-wise: each argument has the result's components, or one
 * (a scalar edge of step, the interpolant of mix, the bounds of clamp
 * may be scalars in GLSL, which glslang widens; one is taken either way).
 */
static int componentwise(struct tr *t, const struct agx_spirv_inst *in, unsigned nargs, fn1 f1,
			 fn2 f2, fn3 f3)
{
	const struct tr_type *type = tr_type(t, in->type);
	struct agx_ir_value *a[3], r[4];
	unsigned n;
	int ret;

	if (!type || type->n == 0 || type->n > 4 || agx_spirv_num_operands(in) != 2 + nargs)
		return tr_fail(t, -EINVAL, "GLSL.std.450 instruction %u of %u operands",
			       agx_spirv_operand(in, 1), agx_spirv_num_operands(in));
	for (unsigned i = 0; i < nargs; i++) {
		unsigned count = 0;

		if ((ret = tr_get_ssa(t, agx_spirv_operand(in, 2 + i), &a[i], &count)) < 0)
			return ret;
		if (count != type->n && count != 1)
			return tr_fail(t, -EINVAL,
				       "GLSL.std.450 instruction %u: an argument of "
				       "%u components for a result of %u",
				       agx_spirv_operand(in, 1), count, type->n);
		if (count == 1 && type->n > 1) {
			struct agx_ir_value *wide = tr_alloc(t, type->n * sizeof(*wide));

			if (!wide)
				return t->err;
			for (unsigned c = 0; c < type->n; c++)
				wide[c] = a[i][0];
			a[i] = wide;
		}
	}
	n = type->n;
	for (unsigned c = 0; c < n; c++)
		r[c] = nargs == 1   ? f1(&t->b, a[0][c])
		       : nargs == 2 ? f2(&t->b, a[0][c], a[1][c])
				    : f3(&t->b, a[0][c], a[1][c], a[2][c]);
	return tr_set_ssa(t, in->result, in->type, r, n);
}

/* An argument of exactly n components (n = 0: any, *count gets it). */
static int arg(struct tr *t, const struct agx_spirv_inst *in, unsigned i, struct agx_ir_value **v,
	       unsigned *count)
{
	if (agx_spirv_num_operands(in) <= 2 + i)
		return tr_fail(t, -EINVAL, "GLSL.std.450 instruction %u without argument %u",
			       agx_spirv_operand(in, 1), i);
	return tr_get_ssa(t, agx_spirv_operand(in, 2 + i), v, count);
}

static int geometric(struct tr *t, const struct agx_spirv_inst *in, unsigned op)
{
	struct agx_builder *b = &t->b;
	struct agx_ir_value *x, *y = NULL, *z = NULL, r[4], d, k;
	unsigned n = 0, m, one = 1;
	int ret;

	if ((ret = arg(t, in, 0, &x, &n)) < 0)
		return ret;
	if (n > 4)
		return tr_fail(t, -EINVAL, "a geometric function of %u components", n);
	m = n;
	switch (op) {
	case GLSLstd450Length:
		r[0] = agx_fsqrt(b, tr_dot(t, x, x, n));
		return tr_set_ssa(t, in->result, in->type, r, 1);
	case GLSLstd450Distance:
		if ((ret = arg(t, in, 1, &y, &m)) < 0)
			return ret;
		for (unsigned i = 0; i < n; i++)
			r[i] = agx_fsub(b, x[i], y[i]);
		r[0] = agx_fsqrt(b, tr_dot(t, r, r, n));
		return tr_set_ssa(t, in->result, in->type, r, 1);
	case GLSLstd450Normalize:
		d = agx_frsqrt(b, tr_dot(t, x, x, n));
		for (unsigned i = 0; i < n; i++)
			r[i] = agx_fmul(b, x[i], d);
		return tr_set_ssa(t, in->result, in->type, r, n);
	case GLSLstd450Cross:
		if (n != 3)
			return tr_fail(t, -EINVAL, "cross of %u components", n);
		if ((ret = arg(t, in, 1, &y, &m)) < 0)
			return ret;
		for (unsigned i = 0; i < 3; i++) {
			unsigned j = (i + 1) % 3, l = (i + 2) % 3;

			r[i] = agx_fsub(b, agx_fmul(b, x[j], y[l]), agx_fmul(b, y[j], x[l]));
		}
		return tr_set_ssa(t, in->result, in->type, r, 3);
	case GLSLstd450FaceForward:
		/* N if dot(Nref, I) < 0, else -N */
		if ((ret = arg(t, in, 1, &y, &m)) < 0 || (ret = arg(t, in, 2, &z, &m)) < 0)
			return ret;
		d = agx_flt(b, tr_dot(t, z, y, n), F(0.0f));
		for (unsigned i = 0; i < n; i++)
			r[i] = agx_bcsel(b, d, x[i], agx_fneg(b, x[i]));
		return tr_set_ssa(t, in->result, in->type, r, n);
	case GLSLstd450Reflect:
		/* I - 2 dot(N, I) N */
		if ((ret = arg(t, in, 1, &y, &m)) < 0)
			return ret;
		d = agx_fmul(b, tr_dot(t, y, x, n), F(2.0f));
		for (unsigned i = 0; i < n; i++)
			r[i] = agx_fsub(b, x[i], agx_fmul(b, d, y[i]));
		return tr_set_ssa(t, in->result, in->type, r, n);
	default: /* Refract */
		if ((ret = arg(t, in, 1, &y, &m)) < 0 || (ret = arg(t, in, 2, &z, &one)) < 0)
			return ret;
		/* k = 1 - eta^2 (1 - dot(N, I)^2); 0 if k < 0, else eta I - (eta dot + sqrt k) N */
		d = tr_dot(t, y, x, n);
		k = agx_fsub(
		    b, F(1.0f),
		    agx_fmul(b, agx_fmul(b, z[0], z[0]), agx_fsub(b, F(1.0f), agx_fmul(b, d, d))));
		{
			struct agx_ir_value neg = agx_flt(b, k, F(0.0f));
			struct agx_ir_value s =
			    agx_ffma(b, z[0], d, agx_fsqrt(b, agx_fmax(b, k, F(0.0f))));

			for (unsigned i = 0; i < n; i++)
				r[i] = agx_bcsel(
				    b, neg, F(0.0f),
				    agx_fsub(b, agx_fmul(b, z[0], x[i]), agx_fmul(b, s, y[i])));
		}
		return tr_set_ssa(t, in->result, in->type, r, n);
	}
}

static int pack(struct tr *t, const struct agx_spirv_inst *in, unsigned op)
{
	struct agx_builder *b = &t->b;
	struct agx_ir_value *x, r[4];
	unsigned n = 0, one = 1;
	int ret;

	switch (op) {
	case GLSLstd450PackSnorm2x16:
	case GLSLstd450PackUnorm2x16:
	case GLSLstd450PackSnorm4x8:
	case GLSLstd450PackUnorm4x8: {
		bool snorm = op == GLSLstd450PackSnorm2x16 || op == GLSLstd450PackSnorm4x8;
		unsigned fields =
		    op == GLSLstd450PackSnorm2x16 || op == GLSLstd450PackUnorm2x16 ? 2 : 4;

		n = fields;
		if ((ret = arg(t, in, 0, &x, &n)) < 0)
			return ret;
		r[0] = U(0);
		/* the first component in the least significant bits */
		for (unsigned i = 0; i < fields; i++)
			r[0] = agx_ior(b, r[0],
				       agx_ishl(b, pack_field(b, x[i], snorm, 32 / fields),
						U(i * (32 / fields))));
		return tr_set_ssa(t, in->result, in->type, r, 1);
	}
	case GLSLstd450UnpackSnorm2x16:
	case GLSLstd450UnpackUnorm2x16:
	case GLSLstd450UnpackSnorm4x8:
	case GLSLstd450UnpackUnorm4x8: {
		bool snorm = op == GLSLstd450UnpackSnorm2x16 || op == GLSLstd450UnpackSnorm4x8;
		unsigned fields =
		    op == GLSLstd450UnpackSnorm2x16 || op == GLSLstd450UnpackUnorm2x16 ? 2 : 4;

		if ((ret = arg(t, in, 0, &x, &one)) < 0)
			return ret;
		for (unsigned i = 0; i < fields; i++)
			r[i] = unpack_field(b, x[0], i * (32 / fields), snorm, 32 / fields);
		return tr_set_ssa(t, in->result, in->type, r, fields);
	}
	case GLSLstd450PackHalf2x16:
		n = 2;
		if ((ret = arg(t, in, 0, &x, &n)) < 0)
			return ret;
		for (unsigned i = 0; i < 2; i++)
			r[i] = agx_u2u32(b, agx_bitcast(b, AGX_IR_TYPE_I16, agx_f2f16(b, x[i])));
		r[0] = agx_ior(b, r[0], agx_ishl(b, r[1], U(16)));
		return tr_set_ssa(t, in->result, in->type, r, 1);
	default: /* UnpackHalf2x16 */
		if ((ret = arg(t, in, 0, &x, &one)) < 0)
			return ret;
		for (unsigned i = 0; i < 2; i++) {
			struct agx_ir_value h = agx_i2i16(b, i ? agx_ushr(b, x[0], U(16)) : x[0]);

			r[i] = agx_f2f32(b, agx_bitcast(b, AGX_IR_TYPE_F16, h));
		}
		return tr_set_ssa(t, in->result, in->type, r, 2);
	}
}

/* modf, frexp and their struct forms: two results, one through a pointer or in a struct. */
static int two_results(struct tr *t, const struct agx_spirv_inst *in, unsigned op)
{
	struct agx_builder *b = &t->b;
	const struct tr_type *type = tr_type(t, in->type);
	bool in_struct = op == GLSLstd450ModfStruct || op == GLSLstd450FrexpStruct;
	bool frexp = op == GLSLstd450Frexp || op == GLSLstd450FrexpStruct;
	struct agx_ir_value *x, first[4], second[4], r[8];
	struct tr_ptr *p = NULL;
	unsigned n;
	int ret;

	if (!type || (in_struct && (type->kind != TR_T_STRUCT || type->len != 2)))
		return tr_fail(t, -EINVAL, "modf or frexp of type %u", in->type);
	n = in_struct ? type->n / 2 : type->n;
	if (n == 0 || n > 4)
		return tr_fail(t, -EINVAL, "modf or frexp of %u components", n);
	if ((ret = arg(t, in, 0, &x, &n)) < 0)
		return ret;
	if (!in_struct) {
		if ((ret = tr_get_ptr(t, agx_spirv_operand(in, 3), &p)) < 0)
			return ret;
		if (tr_type(t, p->type)->n != n)
			return tr_fail(t, -EINVAL,
				       "modf or frexp storing through the wrong pointer");
	}
	for (unsigned i = 0; i < n; i++) {
		if (frexp) {
			/* x = m * 2^e with m in [0.5, 1): from the exponent bits */
			struct agx_ir_value bits = agx_bitcast(b, AGX_IR_TYPE_I32, x[i]);
			struct agx_ir_value zero = agx_feq(b, x[i], F(0.0f));
			struct agx_ir_value e =
			    agx_isub(b, agx_iand(b, agx_ushr(b, bits, U(23)), U(0xff)), U(126));
			struct agx_ir_value m =
			    agx_ior(b, agx_iand(b, bits, U(0x807fffff)), U(0x3f000000));

			first[i] = agx_bcsel(b, zero, x[i], agx_bitcast(b, AGX_IR_TYPE_F32, m));
			second[i] = agx_bcsel(b, zero, U(0), e);
		} else {
			/* the whole part and what is left, both with x's sign */
			second[i] = agx_ftrunc(b, x[i]);
			first[i] = agx_fsub(b, x[i], second[i]);
		}
	}
	if (in_struct) {
		memcpy(r, first, n * sizeof(*r));
		memcpy(r + n, second, n * sizeof(*r));
		return tr_set_ssa(t, in->result, in->type, r, 2 * n);
	}
	if ((ret = tr_store(t, p, second, n)) < 0)
		return ret;
	return tr_set_ssa(t, in->result, in->type, first, n);
}

static int ldexp_op(struct tr *t, const struct agx_spirv_inst *in)
{
	struct agx_builder *b = &t->b;
	const struct tr_type *type = tr_type(t, in->type);
	struct agx_ir_value *x, *e, r[4];
	unsigned n;
	int ret;

	if (!type || type->n == 0 || type->n > 4)
		return tr_fail(t, -EINVAL, "ldexp of type %u", in->type);
	n = type->n;
	if ((ret = arg(t, in, 0, &x, &n)) < 0 || (ret = arg(t, in, 1, &e, &n)) < 0)
		return ret;
	for (unsigned i = 0; i < n; i++) {
		/* two factors 2^(e/2) and 2^(e - e/2), each a normal float for |e| <= 252 */
		struct agx_ir_value c = s_clamp(b, e[i], agx_imm_i32(-252), agx_imm_i32(252));
		struct agx_ir_value h = agx_ishr(b, c, U(1)), l = agx_isub(b, c, h);
		struct agx_ir_value f1 =
		    agx_bitcast(b, AGX_IR_TYPE_F32, agx_ishl(b, agx_iadd(b, h, U(127)), U(23)));
		struct agx_ir_value f2 =
		    agx_bitcast(b, AGX_IR_TYPE_F32, agx_ishl(b, agx_iadd(b, l, U(127)), U(23)));

		r[i] = agx_fmul(b, agx_fmul(b, x[i], f1), f2);
	}
	return tr_set_ssa(t, in->result, in->type, r, n);
}

static int matrix_fn(struct tr *t, const struct agx_spirv_inst *in, unsigned op)
{
	static const unsigned all[4] = { 0, 1, 2, 3 };
	struct agx_ir_value *x, r[16];
	unsigned n = 0, cols, rows;
	uint32_t id = agx_spirv_operand(in, 2);
	int ret;

	if ((ret = arg(t, in, 0, &x, &n)) < 0)
		return ret;
	if (!is_matrix(t, id))
		return tr_fail(t, -EINVAL, "determinant or inverse of what is no matrix");
	mat_dims(t, t->vals[id].type, &cols, &rows);
	if (cols != rows)
		return tr_fail(t, -EINVAL, "determinant or inverse of a matrix that is not square");
	if (op == GLSLstd450Determinant) {
		r[0] = det(&t->b, x, rows, all, all, cols);
		return tr_set_ssa(t, in->result, in->type, r, 1);
	}
	inverse(&t->b, x, cols, r);
	return tr_set_ssa(t, in->result, in->type, r, n);
}

int tr_glsl450(struct tr *t, const struct agx_spirv_inst *in)
{
	unsigned op = agx_spirv_operand(in, 1);

	switch (op) {
	case GLSLstd450Round:
	case GLSLstd450RoundEven:
		/* round() may go either way at one half (GLSL ES 3.00 section 8.3) */
		return componentwise(t, in, 1, agx_fround_even, NULL, NULL);
	case GLSLstd450Trunc:
		return componentwise(t, in, 1, agx_ftrunc, NULL, NULL);
	case GLSLstd450FAbs:
		return componentwise(t, in, 1, agx_fabs, NULL, NULL);
	case GLSLstd450SAbs:
		return componentwise(t, in, 1, i_abs, NULL, NULL);
	case GLSLstd450FSign:
		return componentwise(t, in, 1, f_sign, NULL, NULL);
	case GLSLstd450SSign:
		return componentwise(t, in, 1, i_sign, NULL, NULL);
	case GLSLstd450Floor:
		return componentwise(t, in, 1, agx_ffloor, NULL, NULL);
	case GLSLstd450Ceil:
		return componentwise(t, in, 1, agx_fceil, NULL, NULL);
	case GLSLstd450Fract:
		return componentwise(t, in, 1, agx_ffract, NULL, NULL);
	case GLSLstd450Radians:
		return componentwise(t, in, 1, f_radians, NULL, NULL);
	case GLSLstd450Degrees:
		return componentwise(t, in, 1, f_degrees, NULL, NULL);
	case GLSLstd450Sin:
		return componentwise(t, in, 1, agx_fsin, NULL, NULL);
	case GLSLstd450Cos:
		return componentwise(t, in, 1, agx_fcos, NULL, NULL);
	case GLSLstd450Tan:
		return componentwise(t, in, 1, f_tan, NULL, NULL);
	case GLSLstd450Asin:
		return componentwise(t, in, 1, f_asin, NULL, NULL);
	case GLSLstd450Acos:
		return componentwise(t, in, 1, f_acos, NULL, NULL);
	case GLSLstd450Atan:
		return componentwise(t, in, 1, f_atan, NULL, NULL);
	case GLSLstd450Sinh:
		return componentwise(t, in, 1, f_sinh, NULL, NULL);
	case GLSLstd450Cosh:
		return componentwise(t, in, 1, f_cosh, NULL, NULL);
	case GLSLstd450Tanh:
		return componentwise(t, in, 1, f_tanh, NULL, NULL);
	case GLSLstd450Asinh:
		return componentwise(t, in, 1, f_asinh, NULL, NULL);
	case GLSLstd450Acosh:
		return componentwise(t, in, 1, f_acosh, NULL, NULL);
	case GLSLstd450Atanh:
		return componentwise(t, in, 1, f_atanh, NULL, NULL);
	case GLSLstd450Atan2:
		return componentwise(t, in, 2, NULL, f_atan2, NULL);
	case GLSLstd450Pow:
		return componentwise(t, in, 2, NULL, f_pow, NULL);
	case GLSLstd450Exp:
		return componentwise(t, in, 1, f_exp, NULL, NULL);
	case GLSLstd450Log:
		return componentwise(t, in, 1, f_log, NULL, NULL);
	case GLSLstd450Exp2:
		return componentwise(t, in, 1, agx_fexp2, NULL, NULL);
	case GLSLstd450Log2:
		return componentwise(t, in, 1, agx_flog2, NULL, NULL);
	case GLSLstd450Sqrt:
		return componentwise(t, in, 1, agx_fsqrt, NULL, NULL);
	case GLSLstd450InverseSqrt:
		return componentwise(t, in, 1, agx_frsqrt, NULL, NULL);
	case GLSLstd450Determinant:
	case GLSLstd450MatrixInverse:
		return matrix_fn(t, in, op);
	case GLSLstd450Modf:
	case GLSLstd450ModfStruct:
	case GLSLstd450Frexp:
	case GLSLstd450FrexpStruct:
		return two_results(t, in, op);
	case GLSLstd450Ldexp:
		return ldexp_op(t, in);
	case GLSLstd450FMin:
	case GLSLstd450NMin:
		return componentwise(t, in, 2, NULL, agx_fmin, NULL);
	case GLSLstd450UMin:
		return componentwise(t, in, 2, NULL, agx_umin, NULL);
	case GLSLstd450SMin:
		return componentwise(t, in, 2, NULL, agx_imin, NULL);
	case GLSLstd450FMax:
	case GLSLstd450NMax:
		return componentwise(t, in, 2, NULL, agx_fmax, NULL);
	case GLSLstd450UMax:
		return componentwise(t, in, 2, NULL, agx_umax, NULL);
	case GLSLstd450SMax:
		return componentwise(t, in, 2, NULL, agx_imax, NULL);
	case GLSLstd450FClamp:
	case GLSLstd450NClamp:
		return componentwise(t, in, 3, NULL, NULL, f_clamp);
	case GLSLstd450UClamp:
		return componentwise(t, in, 3, NULL, NULL, u_clamp);
	case GLSLstd450SClamp:
		return componentwise(t, in, 3, NULL, NULL, s_clamp);
	case GLSLstd450FMix:
		return componentwise(t, in, 3, NULL, NULL, f_mix);
	case GLSLstd450Step:
		return componentwise(t, in, 2, NULL, f_step, NULL);
	case GLSLstd450SmoothStep:
		return componentwise(t, in, 3, NULL, NULL, f_smoothstep);
	case GLSLstd450Fma:
		return componentwise(t, in, 3, NULL, NULL, f_fma);
	case GLSLstd450PackSnorm4x8:
	case GLSLstd450PackUnorm4x8:
	case GLSLstd450PackSnorm2x16:
	case GLSLstd450PackUnorm2x16:
	case GLSLstd450PackHalf2x16:
	case GLSLstd450UnpackSnorm2x16:
	case GLSLstd450UnpackUnorm2x16:
	case GLSLstd450UnpackHalf2x16:
	case GLSLstd450UnpackSnorm4x8:
	case GLSLstd450UnpackUnorm4x8:
		return pack(t, in, op);
	case GLSLstd450Length:
	case GLSLstd450Distance:
	case GLSLstd450Cross:
	case GLSLstd450Normalize:
	case GLSLstd450FaceForward:
	case GLSLstd450Reflect:
	case GLSLstd450Refract:
		return geometric(t, in, op);
	case GLSLstd450FindILsb:
		return componentwise(t, in, 1, i_find_lsb, NULL, NULL);
	case GLSLstd450FindSMsb:
		return componentwise(t, in, 1, s_find_msb, NULL, NULL);
	case GLSLstd450FindUMsb:
		return componentwise(t, in, 1, u_find_msb, NULL, NULL);
	default:
		return tr_fail(t, -ENOTSUP, "GLSL.std.450 instruction %u is not translated", op);
	}
}
