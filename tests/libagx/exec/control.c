/*
 * control.c: hand-written kernels of the language beyond single
 * expressions -- control flow (if/else chains, nested loops with break and
 * continue, do-while, early return, switch with fall-through and default,
 * invocations diverging by their data), functions with in, out and inout
 * parameters, local arrays and structs, swizzles, constructors, ++ and --,
 * compound assignment and integer edge values.  The references are the
 * same programs in C.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "exec-internal.h"

#define N 64

#define PRE_I                                                                                      \
	"#version 310 es\n"                                                                        \
	"layout(local_size_x = 32) in;\n"                                                          \
	"layout(std430, binding = 0) buffer In { int x[]; };\n"                                    \
	"layout(std430, binding = 1) buffer Out { int r[]; };\n"
#define PRE_U                                                                                      \
	"#version 310 es\n"                                                                        \
	"layout(local_size_x = 32) in;\n"                                                          \
	"layout(std430, binding = 0) buffer In { uint x[]; };\n"                                   \
	"layout(std430, binding = 1) buffer Out { uint r[]; };\n"
#define PRE_F                                                                                      \
	"#version 310 es\n"                                                                        \
	"layout(local_size_x = 32) in;\n"                                                          \
	"layout(std430, binding = 0) buffer In { float x[]; };\n"                                  \
	"layout(std430, binding = 1) buffer Out { float r[]; };\n"

#define GRID .local = { 32, 1, 1 }, .groups = { 2, 1, 1 }

static void set(struct exec_expect *x, unsigned k, int32_t v)
{
	exec_expect_bits(&x[k], (uint32_t)v);
}

static void setf(struct exec_expect *x, unsigned k, struct ev v)
{
	exec_expect_ev(&x[k], exec_prec(PREC_HIGH), v);
}

#define IN(k) exec_in_i(in, inv, IN_WORDS, k)

/* ---- if / else ---------------------------------------------------------------------------- */

#undef IN_WORDS
#define IN_WORDS 1
static void ref_if_chain(const uint32_t *in, unsigned inv, unsigned n, struct exec_expect *x)
{
	int32_t v = IN(0);

	set(x, 0, v < -100 ? 1 : v < 0 ? 2 : v == 0 ? 3 : v < 100 ? 4 : 5);
}

static const struct exec_hand if_chain = {
	"if_else_chain",
	PRE_I "void main()\n{\n\tuint i = gl_GlobalInvocationID.x;\n\tint v = x[i], s;\n"
	      "\tif (v < -100)\n\t\ts = 1;\n\telse if (v < 0)\n\t\ts = 2;\n"
	      "\telse if (v == 0)\n\t\ts = 3;\n\telse if (v < 100)\n\t\ts = 4;\n"
	      "\telse\n\t\ts = 5;\n\tr[i] = s;\n}\n",
	GRID,
	1,
	DOM_INT,
	1,
	'i',
	ref_if_chain,
};

#undef IN_WORDS
#define IN_WORDS 2
static void ref_nested_if(const uint32_t *in, unsigned inv, unsigned n, struct exec_expect *x)
{
	int32_t a = IN(0), b = IN(1), s;

	if (a > 0) {
		if (b > 0)
			s = a + b;
		else
			s = a - b;
	} else {
		if (b > a)
			s = b * 3;
		else
			s = -a;
	}
	set(x, 0, s);
	set(x, 1, a > b ? a : b);
}

static const struct exec_hand nested_if = {
	"if_nested",
	PRE_I
	"void main()\n{\n\tuint i = gl_GlobalInvocationID.x;\n\tint a = x[2u * i], b = x[2u * i + "
	"1u], s;\n"
	"\tif (a > 0) {\n\t\tif (b > 0)\n\t\t\ts = a + b;\n\t\telse\n\t\t\ts = a - b;\n"
	"\t} else {\n\t\tif (b > a)\n\t\t\ts = b * 3;\n\t\telse\n\t\t\ts = -a;\n\t}\n"
	"\tr[2u * i] = s;\n\tint m = a;\n\tif (b > m)\n\t\tm = b;\n\tr[2u * i + 1u] = m;\n}\n",
	GRID,
	2,
	DOM_INT_SMALL,
	2,
	'i',
	ref_nested_if,
};

/* The condition of an if is a value computed with && || and ! of comparisons. */
static void ref_if_logic(const uint32_t *in, unsigned inv, unsigned n, struct exec_expect *x)
{
	int32_t a = IN(0), b = IN(1);
	int32_t s = 0;

	if ((a > 0 && b > 0) || !(a != b))
		s |= 1;
	if ((a < 0) != (b < 0))
		s |= 2;
	if (!(a > 10) && b <= 50)
		s |= 4;
	set(x, 0, s);
	set(x, 1, 0);
}

static const struct exec_hand if_logic = {
	"if_logic",
	PRE_I "void main()\n{\n\tuint i = gl_GlobalInvocationID.x;\n\tint a = x[2u * i], b = x[2u "
	      "* i + 1u], s = 0;\n"
	      "\tif ((a > 0 && b > 0) || !(a != b))\n\t\ts |= 1;\n"
	      "\tif ((a < 0) ^^ (b < 0))\n\t\ts |= 2;\n"
	      "\tif (!(a > 10) && b <= 50)\n\t\ts |= 4;\n"
	      "\tr[2u * i] = s;\n\tr[2u * i + 1u] = 0;\n}\n",
	GRID,
	2,
	DOM_INT_SMALL,
	2,
	'i',
	ref_if_logic,
};

/* ---- loops -------------------------------------------------------------------------------- */

#undef IN_WORDS
#define IN_WORDS 1
static void ref_for_sum(const uint32_t *in, unsigned inv, unsigned n, struct exec_expect *x)
{
	int32_t c = IN(0) & 63, s = 0;

	for (int32_t k = 0; k < c; k++)
		s += k * k;
	set(x, 0, s);
}

static const struct exec_hand for_sum = {
	"loop_for_divergent",
	PRE_I "void main()\n{\n\tuint i = gl_GlobalInvocationID.x;\n\tint n = x[i] & 63, s = 0;\n"
	      "\tfor (int k = 0; k < n; k++)\n\t\ts += k * k;\n\tr[i] = s;\n}\n",
	GRID,
	1,
	DOM_INT,
	1,
	'i',
	ref_for_sum,
};

static void ref_nested_loops(const uint32_t *in, unsigned inv, unsigned n, struct exec_expect *x)
{
	int32_t c = IN(0) & 15, s = 0;

	for (int32_t a = 0; a < c; a++) {
		if (a == 7)
			break;
		for (int32_t b = 0; b < 10; b++) {
			if ((a + b) % 3 == 0)
				continue;
			if (b > a)
				break;
			s += a * 10 + b;
		}
	}
	set(x, 0, s);
}

static const struct exec_hand nested_loops = {
	"loop_nested_break_continue",
	PRE_I
	"void main()\n{\n\tuint i = gl_GlobalInvocationID.x;\n\tint n = x[i] & 15, s = 0;\n"
	"\tfor (int a = 0; a < n; a++) {\n\t\tif (a == 7)\n\t\t\tbreak;\n"
	"\t\tfor (int b = 0; b < 10; b++) {\n\t\t\tif ((a + b) % 3 == 0)\n\t\t\t\tcontinue;\n"
	"\t\t\tif (b > a)\n\t\t\t\tbreak;\n\t\t\ts += a * 10 + b;\n\t\t}\n\t}\n\tr[i] = s;\n}\n",
	GRID,
	1,
	DOM_INT,
	1,
	'i',
	ref_nested_loops,
};

#undef IN_WORDS
#define IN_WORDS 2
static void ref_while_gcd(const uint32_t *in, unsigned inv, unsigned n, struct exec_expect *x)
{
	uint32_t a = in[2 * inv] | 1, b = in[2 * inv + 1] % 1000;

	while (b != 0) {
		uint32_t t = a % b;
		a = b;
		b = t;
	}
	exec_expect_bits(&x[0], a);
	exec_expect_bits(&x[1], 0);
}

static const struct exec_hand while_gcd = {
	"loop_while_gcd",
	PRE_U "void main()\n{\n\tuint i = gl_GlobalInvocationID.x;\n"
	      "\tuint a = x[2u * i] | 1u, b = x[2u * i + 1u] % 1000u;\n"
	      "\twhile (b != 0u) {\n\t\tuint t = a % b;\n\t\ta = b;\n\t\tb = t;\n\t}\n"
	      "\tr[2u * i] = a;\n\tr[2u * i + 1u] = 0u;\n}\n",
	GRID,
	2,
	DOM_INT,
	2,
	'u',
	ref_while_gcd,
};

#undef IN_WORDS
#define IN_WORDS 1
static void ref_do_collatz(const uint32_t *in, unsigned inv, unsigned n, struct exec_expect *x)
{
	uint32_t v = (in[inv] & 0xff) + 1, steps = 0;

	do {
		v = v % 2 == 0 ? v / 2 : 3 * v + 1;
		steps++;
	} while (v != 1 && steps < 200);
	exec_expect_bits(&x[0], steps);
}

static const struct exec_hand do_collatz = {
	"loop_do_while",
	PRE_U "void main()\n{\n\tuint i = gl_GlobalInvocationID.x;\n\tuint v = (x[i] & 255u) + 1u, "
	      "steps = 0u;\n"
	      "\tdo {\n\t\tv = v % 2u == 0u ? v / 2u : 3u * v + 1u;\n\t\tsteps++;\n"
	      "\t} while (v != 1u && steps < 200u);\n\tr[i] = steps;\n}\n",
	GRID,
	1,
	DOM_INT,
	1,
	'u',
	ref_do_collatz,
};

/* continue in a do-while goes to the condition (6.3). */
static void ref_do_continue(const uint32_t *in, unsigned inv, unsigned n, struct exec_expect *x)
{
	int32_t c = IN(0) & 31, k = 0, s = 0;

	do {
		k++;
		if (k % 2 == 0)
			continue;
		s += k;
	} while (k < c);
	set(x, 0, s);
}

static const struct exec_hand do_continue = {
	"loop_do_while_continue",
	PRE_I
	"void main()\n{\n\tuint i = gl_GlobalInvocationID.x;\n\tint n = x[i] & 31, k = 0, s = 0;\n"
	"\tdo {\n\t\tk++;\n\t\tif (k % 2 == 0)\n\t\t\tcontinue;\n\t\ts += k;\n"
	"\t} while (k < n);\n\tr[i] = s;\n}\n",
	GRID,
	1,
	DOM_INT,
	1,
	'i',
	ref_do_continue,
};

/* Each invocation leaves an endless loop at its own iteration, carrying two values out. */
static void ref_for_ever(const uint32_t *in, unsigned inv, unsigned n, struct exec_expect *x)
{
	int32_t c = IN(0) & 127, k = 0;
	uint32_t s = 1; /* (wrapping, as GLSL's int) */

	for (;;) {
		if (k >= c)
			break;
		s = s * 3 + (uint32_t)k;
		k++;
	}
	set(x, 0, (int32_t)s);
	set(x, 1, k);
}

static const struct exec_hand for_ever = {
	"loop_endless_break",
	PRE_I
	"void main()\n{\n\tuint i = gl_GlobalInvocationID.x;\n\tint n = x[i] & 127, k = 0, s = 1;\n"
	"\tfor (;;) {\n\t\tif (k >= n)\n\t\t\tbreak;\n\t\ts = s * 3 + k;\n\t\tk++;\n\t}\n"
	"\tr[2u * i] = s;\n\tr[2u * i + 1u] = k;\n}\n",
	GRID,
	1,
	DOM_INT,
	2,
	'i',
	ref_for_ever,
};

/* Leaving two loops at once with a flag. */
static void ref_break_flag(const uint32_t *in, unsigned inv, unsigned n, struct exec_expect *x)
{
	int32_t t = IN(0) & 63, res = -1;
	bool found = false;

	for (int32_t a = 0; a < 8 && !found; a++) {
		for (int32_t b = 0; b < 8; b++) {
			if (a * b == t) {
				found = true;
				res = a * 8 + b;
				break;
			}
		}
	}
	set(x, 0, res);
}

static const struct exec_hand break_flag = {
	"loop_break_outer_flag",
	PRE_I
	"void main()\n{\n\tuint i = gl_GlobalInvocationID.x;\n\tint t = x[i] & 63, res = -1;\n"
	"\tbool found = false;\n\tfor (int a = 0; a < 8 && !found; a++) {\n"
	"\t\tfor (int b = 0; b < 8; b++) {\n\t\t\tif (a * b == t) {\n"
	"\t\t\t\tfound = true;\n\t\t\t\tres = a * 8 + b;\n\t\t\t\tbreak;\n\t\t\t}\n\t\t}\n\t}\n"
	"\tr[i] = res;\n}\n",
	GRID,
	1,
	DOM_INT,
	1,
	'i',
	ref_break_flag,
};

#undef IN_WORDS
#define IN_WORDS 2
static void ref_while_and(const uint32_t *in, unsigned inv, unsigned n, struct exec_expect *x)
{
	int32_t a = IN(0) & 255, b = IN(1) & 255, k = 0;

	while (a < 300 && b > 0) {
		a += 7;
		b -= 5;
		k++;
	}
	set(x, 0, a * 1000 + k);
}

static const struct exec_hand while_and = {
	"loop_while_and",
	PRE_I "void main()\n{\n\tuint i = gl_GlobalInvocationID.x;\n"
	      "\tint a = x[2u * i] & 255, b = x[2u * i + 1u] & 255, k = 0;\n"
	      "\twhile (a < 300 && b > 0) {\n\t\ta += 7;\n\t\tb -= 5;\n\t\tk++;\n\t}\n"
	      "\tr[i] = a * 1000 + k;\n}\n",
	GRID,
	2,
	DOM_INT,
	1,
	'i',
	ref_while_and,
};

/* A float carried round a loop: s = s * 0.5 + k * a, ten times. */
static void ref_loop_float(const uint32_t *in, unsigned inv, unsigned n, struct exec_expect *x)
{
	const struct exec_prec *p = exec_prec(PREC_HIGH);
	struct ev s = ev_exact(0.0), a = ev_exact(exec_in_f(in, inv, 2, 0));
	struct ev b = ev_exact(exec_in_f(in, inv, 2, 1));

	for (int k = 0; k < 10; k++)
		s = ev_mad(p, s, ev_exact(0.5), ev_mul(p, ev_exact(k), a));
	setf(x, 0, s);
	setf(x, 1, ev_add(p, s, b));
}

static const struct exec_hand loop_float = {
	"loop_float_accumulate",
	PRE_F "void main()\n{\n\tuint i = gl_GlobalInvocationID.x;\n"
	      "\tfloat a = x[2u * i], b = x[2u * i + 1u], s = 0.0;\n"
	      "\tfor (int k = 0; k < 10; k++)\n\t\ts = s * 0.5 + float(k) * a;\n"
	      "\tr[2u * i] = s;\n\tr[2u * i + 1u] = s + b;\n}\n",
	GRID,
	2,
	DOM_MID,
	2,
	'f',
	ref_loop_float,
};

/* The iteration each invocation broke out at, and its counter's values on the way. */
#undef IN_WORDS
#define IN_WORDS 1
static void ref_break_lanes(const uint32_t *in, unsigned inv, unsigned n, struct exec_expect *x)
{
	int32_t limit = (int32_t)(inv % 13), k, acc = 0;

	for (k = 0; k < 20; k++) {
		if (k == limit)
			break;
		if (k % 4 == 1)
			continue;
		acc += k;
	}
	set(x, 0, k);
	set(x, 1, acc);
}

static const struct exec_hand break_lanes = {
	"loop_diverging_by_invocation",
	PRE_I "void main()\n{\n\tuint i = gl_GlobalInvocationID.x;\n\tint limit = int(i % 13u), k, "
	      "acc = 0;\n"
	      "\tfor (k = 0; k < 20; k++) {\n\t\tif (k == limit)\n\t\t\tbreak;\n"
	      "\t\tif (k % 4 == 1)\n\t\t\tcontinue;\n\t\tacc += k;\n\t}\n"
	      "\tr[2u * i] = k;\n\tr[2u * i + 1u] = acc;\n}\n",
	GRID,
	0,
	DOM_INT,
	2,
	'i',
	ref_break_lanes,
};

/* ---- return ---------------------------------------------------------------------------- */

static void ref_early_return(const uint32_t *in, unsigned inv, unsigned n, struct exec_expect *x)
{
	int32_t v = IN(0);

	set(x, 0, v < 0 ? -1 : 7 + (v & 0xffff));
}

static const struct exec_hand early_return = {
	"return_early",
	PRE_I
	"void main()\n{\n\tuint i = gl_GlobalInvocationID.x;\n\tint v = x[i];\n\tr[i] = 7;\n"
	"\tif (v < 0) {\n\t\tr[i] = -1;\n\t\treturn;\n\t}\n\tr[i] = r[i] + (v & 0xffff);\n}\n",
	GRID,
	1,
	DOM_INT,
	1,
	'i',
	ref_early_return,
};

static void ref_return_loop(const uint32_t *in, unsigned inv, unsigned n, struct exec_expect *x)
{
	int32_t v = IN(0) & 0x3fff;

	for (int32_t k = 0; k < 100; k++) {
		if (k * k > v) {
			set(x, 0, k);
			return;
		}
	}
	set(x, 0, -1);
}

static const struct exec_hand return_loop = {
	"return_from_loop",
	PRE_I "void main()\n{\n\tuint i = gl_GlobalInvocationID.x;\n\tint v = x[i] & 0x3fff;\n"
	      "\tfor (int k = 0; k < 100; k++) {\n\t\tif (k * k > v) {\n\t\t\tr[i] = k;\n"
	      "\t\t\treturn;\n\t\t}\n\t}\n\tr[i] = -1;\n}\n",
	GRID,
	1,
	DOM_INT,
	1,
	'i',
	ref_return_loop,
};

static void ref_return_function(const uint32_t *in, unsigned inv, unsigned n, struct exec_expect *x)
{
	int32_t v = IN(0) & 0xfff, found = -1;

	for (int32_t k = 1; k < 64; k++) {
		if (v % k == 0 && k > 9) {
			found = k;
			break;
		}
	}
	set(x, 0, v == 0 ? -2 : found);
}

static const struct exec_hand return_function = {
	"return_from_function_loop",
	PRE_I
	"int first_divisor(int v)\n{\n\tif (v == 0)\n\t\treturn -2;\n"
	"\tfor (int k = 1; k < 64; k++) {\n\t\tif (v % k == 0 && k > 9)\n\t\t\treturn k;\n\t}\n"
	"\treturn -1;\n}\n"
	"void main()\n{\n\tuint i = gl_GlobalInvocationID.x;\n\tr[i] = first_divisor(x[i] & "
	"0xfff);\n}\n",
	GRID,
	1,
	DOM_INT,
	1,
	'i',
	ref_return_function,
};

/* ---- switch ------------------------------------------------------------------------------- */

static void ref_switch(const uint32_t *in, unsigned inv, unsigned n, struct exec_expect *x)
{
	int32_t s = 0;

	switch (IN(0) & 7) {
	case 0:
		s += 1;
		/* fall through */
	case 1:
		s += 2;
		break;
	case 2:
	case 3:
		s += 4;
		/* fall through */
	case 4:
		s += 8;
		break;
	default:
		s += 16;
		/* fall through */
	case 6:
		s += 32;
	}
	set(x, 0, s);
}

static const struct exec_hand switch_fall = {
	"switch_fallthrough_default",
	PRE_I "void main()\n{\n\tuint i = gl_GlobalInvocationID.x;\n\tint s = 0;\n"
	      "\tswitch (x[i] & 7) {\n\tcase 0:\n\t\ts += 1;\n\tcase 1:\n\t\ts += 2;\n\t\tbreak;\n"
	      "\tcase 2:\n\tcase 3:\n\t\ts += 4;\n\tcase 4:\n\t\ts += 8;\n\t\tbreak;\n"
	      "\tdefault:\n\t\ts += 16;\n\tcase 6:\n\t\ts += 32;\n\t}\n\tr[i] = s;\n}\n",
	GRID,
	1,
	DOM_INT,
	1,
	'i',
	ref_switch,
};

/* continue inside a switch goes to the loop; break leaves the switch only. */
static void ref_switch_loop(const uint32_t *in, unsigned inv, unsigned n, struct exec_expect *x)
{
	int32_t c = IN(0) & 15, s = 0;

	for (int32_t k = 0; k < c; k++) {
		switch (k % 3) {
		case 0:
			s += 1;
			continue;
		case 1:
			s += 10;
			break;
		default:
			if (s > 40)
				break;
			s += 100;
		}
		s *= 2;
	}
	set(x, 0, s);
}

static const struct exec_hand switch_loop = {
	"switch_in_loop",
	PRE_I "void main()\n{\n\tuint i = gl_GlobalInvocationID.x;\n\tint n = x[i] & 15, s = 0;\n"
	      "\tfor (int k = 0; k < n; k++) {\n\t\tswitch (k % 3) {\n\t\tcase 0:\n\t\t\ts += 1;\n"
	      "\t\t\tcontinue;\n\t\tcase 1:\n\t\t\ts += 10;\n\t\t\tbreak;\n\t\tdefault:\n"
	      "\t\t\tif (s > 40)\n\t\t\t\tbreak;\n\t\t\ts += 100;\n\t\t}\n\t\ts *= 2;\n\t}\n"
	      "\tr[i] = s;\n}\n",
	GRID,
	1,
	DOM_INT,
	1,
	'i',
	ref_switch_loop,
};

static void ref_switch_uint(const uint32_t *in, unsigned inv, unsigned n, struct exec_expect *x)
{
	uint32_t v = in[inv], s;

	switch (v % 5u) {
	case 4u:
		s = v / 3u;
		break;
	case 0u:
		s = 0xdeadu;
		break;
	default:
		s = v + 1u;
		break;
	}
	exec_expect_bits(&x[0], s);
}

static const struct exec_hand switch_uint = {
	"switch_uint_default_middle",
	PRE_U
	"void main()\n{\n\tuint i = gl_GlobalInvocationID.x, v = x[i], s;\n"
	"\tswitch (v % 5u) {\n\tcase 4u:\n\t\ts = v / 3u;\n\t\tbreak;\n"
	"\tdefault:\n\t\ts = v + 1u;\n\t\tbreak;\n\tcase 0u:\n\t\ts = 0xdeadu;\n\t\tbreak;\n\t}\n"
	"\tr[i] = s;\n}\n",
	GRID,
	1,
	DOM_INT,
	1,
	'u',
	ref_switch_uint,
};

/* ---- selection, short-circuits -----------------------------------------------------------------
 */

static void ref_ternary(const uint32_t *in, unsigned inv, unsigned n, struct exec_expect *x)
{
	int32_t v = IN(0);

	set(x, 0, v > 10 ? 1 : v > 0 ? 2 : v == 0 ? 3 : 4);
}

static const struct exec_hand ternary = {
	"select_chain",
	PRE_I "void main()\n{\n\tuint i = gl_GlobalInvocationID.x;\n\tint v = x[i];\n"
	      "\tr[i] = v > 10 ? 1 : v > 0 ? 2 : v == 0 ? 3 : 4;\n}\n",
	GRID,
	1,
	DOM_INT_SMALL,
	1,
	'i',
	ref_ternary,
};

/* && and || evaluate their right operand only when needed (5.9): the counts show it. */
static void ref_short_circuit(const uint32_t *in, unsigned inv, unsigned n, struct exec_expect *x)
{
	int32_t v = IN(0), cnt = 0;
	bool t = v > 0 && ++cnt > 0;
	bool u = v < 0 || ++cnt > 5;
	int32_t w = v == 0 ? (cnt += 100) : (cnt -= 1);

	set(x, 0, cnt * 4 + (t ? 2 : 0) + (u ? 1 : 0));
	set(x, 1, w);
}

static const struct exec_hand short_circuit = {
	"short_circuit_side_effects",
	PRE_I "void main()\n{\n\tuint i = gl_GlobalInvocationID.x;\n\tint v = x[i], cnt = 0;\n"
	      "\tbool t = v > 0 && ++cnt > 0;\n\tbool u = v < 0 || ++cnt > 5;\n"
	      "\tint w = v == 0 ? (cnt += 100) : (cnt -= 1);\n"
	      "\tr[2u * i] = cnt * 4 + (t ? 2 : 0) + (u ? 1 : 0);\n\tr[2u * i + 1u] = w;\n}\n",
	GRID,
	1,
	DOM_INT_SMALL,
	2,
	'i',
	ref_short_circuit,
};

/* ---- functions ------------------------------------------------------------------------------- */

static void ref_inout(const uint32_t *in, unsigned inv, unsigned n, struct exec_expect *x)
{
	int32_t a = IN(0), b = a * 2, c = 3 + a;

	set(x, 0, a); /* in: the callee's write is its own */
	set(x, 1, b);
	set(x, 2, c);
}

static const struct exec_hand inout = {
	"function_in_out_inout",
	PRE_I
	"void f(in int a, out int b, inout int c)\n{\n\tb = a * 2;\n\tc += a;\n\ta = 100;\n}\n"
	"void main()\n{\n\tuint i = gl_GlobalInvocationID.x;\n\tint a = x[i], b, c = 3;\n"
	"\tf(a, b, c);\n\tr[3u * i] = a;\n\tr[3u * i + 1u] = b;\n\tr[3u * i + 2u] = c;\n}\n",
	GRID,
	1,
	DOM_INT_SMALL,
	3,
	'i',
	ref_inout,
};

/* out parameters of vector and struct types, and a function's value a struct. */
static void ref_fn_struct(const uint32_t *in, unsigned inv, unsigned n, struct exec_expect *x)
{
	int32_t v = IN(0);

	set(x, 0, v + 1);
	set(x, 1, v * 2);
	set(x, 2, v - 3);
	set(x, 3, (v + 1) * (v * 2));
}

static const struct exec_hand fn_struct = {
	"function_struct_vector_params",
	PRE_I "struct S { int a; ivec2 b; };\n"
	      "S make(int v)\n{\n\treturn S(v + 1, ivec2(v * 2, v - 3));\n}\n"
	      "void split(S s, out ivec2 o, out int p)\n{\n\to = s.b;\n\tp = s.a * s.b.x;\n}\n"
	      "void main()\n{\n\tuint i = gl_GlobalInvocationID.x;\n\tS s = make(x[i]);\n"
	      "\tivec2 o;\n\tint p;\n\tsplit(s, o, p);\n"
	      "\tr[4u * i] = s.a;\n\tr[4u * i + 1u] = o.x;\n\tr[4u * i + 2u] = o.y;\n"
	      "\tr[4u * i + 3u] = p;\n}\n",
	GRID,
	1,
	DOM_INT_SMALL,
	4,
	'i',
	ref_fn_struct,
};

static void ref_fn_overload(const uint32_t *in, unsigned inv, unsigned n, struct exec_expect *x)
{
	int32_t v = IN(0);

	set(x, 0, v * 3);
	exec_expect_bits(&x[1], exec_fbits((float)v * 0.5f));
	set(x, 2, (v * 3) * 3 + 1);
}

static const struct exec_hand fn_overload = {
	"function_overload_nested",
	"#version 310 es\nlayout(local_size_x = 32) in;\n"
	"layout(std430, binding = 0) buffer In { int x[]; };\n"
	"layout(std430, binding = 1) buffer Out { int r[]; };\n"
	"int f(int a)\n{\n\treturn a * 3;\n}\nfloat f(float a)\n{\n\treturn a * 0.5;\n}\n"
	"int g(int a)\n{\n\treturn f(f(a)) + 1;\n}\n"
	"void main()\n{\n\tuint i = gl_GlobalInvocationID.x;\n\tint v = x[i];\n"
	"\tr[3u * i] = f(v);\n\tr[3u * i + 1u] = floatBitsToInt(f(float(v)));\n"
	"\tr[3u * i + 2u] = g(v);\n}\n",
	GRID,
	1,
	DOM_INT_SMALL,
	3,
	'i',
	ref_fn_overload,
};

static void ref_fn_array(const uint32_t *in, unsigned inv, unsigned n, struct exec_expect *x)
{
	int32_t v = IN(0), s = 0;

	for (int k = 0; k < 4; k++)
		s += (v + k) * (k + 1);
	set(x, 0, s);
	set(x, 1, v + 3);
}

static const struct exec_hand fn_array = {
	"function_array_param",
	PRE_I "int weighted(int a[4])\n{\n\tint s = 0;\n\tfor (int k = 0; k < 4; k++)\n"
	      "\t\ts += a[k] * (k + 1);\n\treturn s;\n}\n"
	      "void bump(inout int a[4])\n{\n\ta[0] = a[3];\n}\n"
	      "void main()\n{\n\tuint i = gl_GlobalInvocationID.x;\n\tint v = x[i];\n"
	      "\tint a[4] = int[4](v, v + 1, v + 2, v + 3);\n\tr[2u * i] = weighted(a);\n"
	      "\tbump(a);\n\tr[2u * i + 1u] = a[0];\n}\n",
	GRID,
	1,
	DOM_INT_SMALL,
	2,
	'i',
	ref_fn_array,
};

/* A global variable that functions change. */
static void ref_globals(const uint32_t *in, unsigned inv, unsigned n, struct exec_expect *x)
{
	int32_t v = IN(0) & 7;

	set(x, 0, 5 + v * 2 + 10);
}

static const struct exec_hand globals = {
	"function_global_variable",
	PRE_I "int g = 5;\nvoid add(int k)\n{\n\tg += k;\n}\n"
	      "void main()\n{\n\tuint i = gl_GlobalInvocationID.x;\n\tint v = x[i] & 7;\n"
	      "\tfor (int k = 0; k < v; k++)\n\t\tadd(2);\n\tadd(10);\n\tr[i] = g;\n}\n",
	GRID,
	1,
	DOM_INT,
	1,
	'i',
	ref_globals,
};

/* ---- arrays -----------------------------------------------------------------------------------
 */

static const int32_t table[8] = { 3, -1, 4, 1, -5, 9, 2, -6 };

static void ref_const_array(const uint32_t *in, unsigned inv, unsigned n, struct exec_expect *x)
{
	int32_t v = IN(0);

	set(x, 0, table[v & 7] * 10 + table[(v >> 3) & 7]);
}

static const struct exec_hand const_array = {
	"array_const_dynamic_index",
	PRE_I "const int tbl[8] = int[8](3, -1, 4, 1, -5, 9, 2, -6);\n"
	      "void main()\n{\n\tuint i = gl_GlobalInvocationID.x;\n\tint v = x[i];\n"
	      "\tr[i] = tbl[v & 7] * 10 + tbl[(v >> 3) & 7];\n}\n",
	GRID,
	1,
	DOM_INT,
	1,
	'i',
	ref_const_array,
};

static void ref_local_array(const uint32_t *in, unsigned inv, unsigned n, struct exec_expect *x)
{
	int32_t v = IN(0), a[16];

	for (int k = 0; k < 16; k++)
		a[k] = k * (v & 0xff) - k;
	a[v & 15] += 1000;
	set(x, 0, a[((uint32_t)v + 3) & 15] + a[v & 15]); /* (v + 3 wraps in GLSL) */
	set(x, 1, a[15]);
}

static const struct exec_hand local_array = {
	"array_local_dynamic_write",
	PRE_I "void main()\n{\n\tuint i = gl_GlobalInvocationID.x;\n\tint v = x[i], a[16];\n"
	      "\tfor (int k = 0; k < 16; k++)\n\t\ta[k] = k * (v & 0xff) - k;\n"
	      "\ta[v & 15] += 1000;\n\tr[2u * i] = a[(v + 3) & 15] + a[v & 15];\n"
	      "\tr[2u * i + 1u] = a[15];\n}\n",
	GRID,
	1,
	DOM_INT,
	2,
	'i',
	ref_local_array,
};

static void ref_array_vec(const uint32_t *in, unsigned inv, unsigned n, struct exec_expect *x)
{
	int32_t v = IN(0) & 0xffff;
	int32_t a[3][2] = { { v, 1 }, { 2, v * 2 }, { -v, 3 } };
	unsigned k = (unsigned)v % 3;

	a[k][1] = 77;
	set(x, 0, a[0][0] + a[1][1] + a[2][0]);
	set(x, 1, a[k][0]);
	set(x, 2, a[(k + 1) % 3][1]);
	set(x, 3, a[k][1]);
}

static const struct exec_hand array_vec = {
	"array_of_vectors",
	PRE_I "void main()\n{\n\tuint i = gl_GlobalInvocationID.x;\n\tint v = x[i] & 0xffff;\n"
	      "\tivec2 a[3] = ivec2[3](ivec2(v, 1), ivec2(2, v * 2), ivec2(-v, 3));\n"
	      "\tint k = v % 3;\n\ta[k].y = 77;\n"
	      "\tr[4u * i] = a[0].x + a[1].y + a[2].x;\n\tr[4u * i + 1u] = a[k].x;\n"
	      "\tr[4u * i + 2u] = a[(k + 1) % 3][1];\n\tr[4u * i + 3u] = a[k][1];\n}\n",
	GRID,
	1,
	DOM_INT,
	4,
	'i',
	ref_array_vec,
};

/* Arrays assigned whole and compared with == (5.9: all elements). */
#undef IN_WORDS
#define IN_WORDS 2
static void ref_array_compare(const uint32_t *in, unsigned inv, unsigned n, struct exec_expect *x)
{
	int32_t v = IN(0), w = IN(1);

	set(x, 0, (v + 1 == w) ? 1 : 0);
	set(x, 1, (v + 1 != w) ? 1 : 0);
	set(x, 2, 3 * 5);
}

static const struct exec_hand array_compare = {
	"array_assign_compare_length",
	PRE_I "void main()\n{\n\tuint i = gl_GlobalInvocationID.x;\n\tint v = x[2u * i], w = x[2u "
	      "* i + 1u];\n"
	      "\tint a[3] = int[3](v, v + 1, v + 2);\n\tint b[3] = a;\n\tb[1] = w;\n"
	      "\tr[3u * i] = a == b ? 1 : 0;\n\tr[3u * i + 1u] = a != b ? 1 : 0;\n"
	      "\tint c[5];\n\tr[3u * i + 2u] = a.length() * c.length();\n}\n",
	GRID,
	2,
	DOM_BOOL,
	3,
	'i',
	ref_array_compare,
};

/* ---- structs ------------------------------------------------------------------------------------
 */

#undef IN_WORDS
#define IN_WORDS 1
static void ref_struct_nested(const uint32_t *in, unsigned inv, unsigned n, struct exec_expect *x)
{
	int32_t v = IN(0) & 0xfff;
	unsigned k = (unsigned)v & 1;
	int32_t arr_a[2] = { v + 10, v + 20 }, arr_b[2][2] = { { 1, 2 }, { 3, 4 } };

	arr_b[k][1] = v;
	set(x, 0, v * 2);
	set(x, 1, arr_a[k] + arr_b[k][0]);
	set(x, 2, arr_b[0][1] + arr_b[1][1]);
	set(x, 3, v + 5);
}

static const struct exec_hand struct_nested = {
	"struct_nested_array",
	PRE_I "struct Inner { int a; ivec2 b; };\n"
	      "struct Outer { Inner first; int c; Inner arr[2]; };\n"
	      "void main()\n{\n\tuint i = gl_GlobalInvocationID.x;\n\tint v = x[i] & 0xfff;\n"
	      "\tOuter o;\n\to.first = Inner(v, ivec2(v * 2, 0));\n\to.c = v + 5;\n"
	      "\to.arr[0] = Inner(v + 10, ivec2(1, 2));\n\to.arr[1] = Inner(v + 20, ivec2(3, 4));\n"
	      "\tint k = v & 1;\n\to.arr[k].b.y = v;\n"
	      "\tr[4u * i] = o.first.b.x;\n\tr[4u * i + 1u] = o.arr[k].a + o.arr[k].b.x;\n"
	      "\tr[4u * i + 2u] = o.arr[0].b.y + o.arr[1].b[1];\n\tr[4u * i + 3u] = o.c;\n}\n",
	GRID,
	1,
	DOM_INT,
	4,
	'i',
	ref_struct_nested,
};

#undef IN_WORDS
#define IN_WORDS 2
static void ref_struct_compare(const uint32_t *in, unsigned inv, unsigned n, struct exec_expect *x)
{
	int32_t v = IN(0), w = IN(1);
	bool eq = w == 0;

	set(x, 0, eq ? 1 : 0);
	set(x, 1, eq ? 0 : 1);
	set(x, 2, v + w);
}

static const struct exec_hand struct_compare = {
	"struct_assign_compare",
	"#version 310 es\nlayout(local_size_x = 32) in;\n"
	"layout(std430, binding = 0) buffer In { int x[]; };\n"
	"layout(std430, binding = 1) buffer Out { int r[]; };\n"
	"struct P { float f; ivec3 v; };\nstruct S { P p; int k; };\n"
	"void main()\n{\n\tuint i = gl_GlobalInvocationID.x;\n\tint v = x[2u * i], w = x[2u * i + "
	"1u];\n"
	"\tS a = S(P(1.5, ivec3(v, 2, 3)), 9);\n\tS b = a;\n\tb.p.v.z += w;\n"
	"\tr[3u * i] = a == b ? 1 : 0;\n\tr[3u * i + 1u] = a != b ? 1 : 0;\n"
	"\tr[3u * i + 2u] = b.p.v.x + b.p.v.z - 3;\n}\n",
	GRID,
	2,
	DOM_BOOL,
	3,
	'i',
	ref_struct_compare,
};

#undef IN_WORDS
#define IN_WORDS 1
static void ref_struct_array(const uint32_t *in, unsigned inv, unsigned n, struct exec_expect *x)
{
	int32_t v = IN(0) & 0xffff, ids[4];
	float ws[4];

	for (int k = 0; k < 4; k++) {
		ids[k] = v + k;
		ws[k] = (float)k * 0.25f;
	}
	unsigned k = (unsigned)v & 3;
	ids[k] = -ids[k];
	set(x, 0, ids[0] + ids[1] + ids[2] + ids[3]);
	exec_expect_bits(&x[1], exec_fbits(ws[(k + 1) & 3]));
}

static const struct exec_hand struct_array = {
	"struct_array_dynamic_index",
	PRE_I "struct Item { int id; float w; };\n"
	      "void main()\n{\n\tuint i = gl_GlobalInvocationID.x;\n\tint v = x[i] & 0xffff;\n"
	      "\tItem items[4];\n\tfor (int k = 0; k < 4; k++)\n"
	      "\t\titems[k] = Item(v + k, float(k) * 0.25);\n"
	      "\tint k = v & 3;\n\titems[k].id = -items[k].id;\n"
	      "\tr[2u * i] = items[0].id + items[1].id + items[2].id + items[3].id;\n"
	      "\tr[2u * i + 1u] = floatBitsToInt(items[(k + 1) & 3].w);\n}\n",
	GRID,
	1,
	DOM_INT,
	2,
	'i',
	ref_struct_array,
};

/* ---- vectors: swizzles, constructors, dynamic components
 * ------------------------------------------ */

#undef IN_WORDS
#define IN_WORDS 4
static void ref_swizzle_read(const uint32_t *in, unsigned inv, unsigned n, struct exec_expect *x)
{
	int32_t v[4];

	for (int k = 0; k < 4; k++)
		v[k] = IN(k);
	/* v.wzyx + v.xxyy * 2 + ivec4(v.zw, v.yx) */
	const int a[4] = { 3, 2, 1, 0 }, b[4] = { 0, 0, 1, 1 }, c[4] = { 2, 3, 1, 0 };
	for (int k = 0; k < 4; k++)
		set(x, k, v[a[k]] + v[b[k]] * 2 + v[c[k]]);
}

static const struct exec_hand swizzle_read = {
	"swizzle_read",
	PRE_I "void main()\n{\n\tuint i = gl_GlobalInvocationID.x;\n"
	      "\tivec4 v = ivec4(x[4u * i], x[4u * i + 1u], x[4u * i + 2u], x[4u * i + 3u]);\n"
	      "\tivec4 s = v.wzyx + v.xxyy * 2 + ivec4(v.zw, v.yx);\n"
	      "\tr[4u * i] = s.x;\n\tr[4u * i + 1u] = s.y;\n\tr[4u * i + 2u] = s.z;\n"
	      "\tr[4u * i + 3u] = s.w;\n}\n",
	GRID,
	4,
	DOM_INT_SMALL,
	4,
	'i',
	ref_swizzle_read,
};

static void ref_swizzle_write(const uint32_t *in, unsigned inv, unsigned n, struct exec_expect *x)
{
	int32_t v[4], a = IN(0), b = IN(1), t;

	for (int k = 0; k < 4; k++)
		v[k] = IN(k) + 1;
	v[2] = a; /* v.zx = ivec2(a, b) */
	v[0] = b;
	v[1] += 3;
	t = v[3]; /* v.wy = v.yw */
	v[3] = v[1];
	v[1] = t;
	for (int k = 0; k < 4; k++)
		set(x, k, v[k]);
}

static const struct exec_hand swizzle_write = {
	"swizzle_write_mask",
	PRE_I "void main()\n{\n\tuint i = gl_GlobalInvocationID.x;\n"
	      "\tint a = x[4u * i], b = x[4u * i + 1u];\n"
	      "\tivec4 v = ivec4(x[4u * i], x[4u * i + 1u], x[4u * i + 2u], x[4u * i + 3u]) + 1;\n"
	      "\tv.zx = ivec2(a, b);\n\tv.y += 3;\n\tv.wy = v.yw;\n"
	      "\tr[4u * i] = v.r;\n\tr[4u * i + 1u] = v.g;\n\tr[4u * i + 2u] = v.s * 0 + v.p;\n"
	      "\tr[4u * i + 3u] = v.a;\n}\n",
	GRID,
	4,
	DOM_INT_SMALL,
	4,
	'i',
	ref_swizzle_write,
};

#undef IN_WORDS
#define IN_WORDS 4
static void ref_ctor(const uint32_t *in, unsigned inv, unsigned n, struct exec_expect *x)
{
	float f[4];

	for (int k = 0; k < 4; k++)
		f[k] = exec_in_f(in, inv, 4, k);
	/* vec4(vec2(f0, f1), f2, f3).yxwz, vec3(f3) .z, vec2(vec4).y, ivec2(vec2(f0 f1)) */
	exec_expect_float(&x[0], f[1]);
	exec_expect_float(&x[1], f[0]);
	exec_expect_float(&x[2], f[3]);
	exec_expect_float(&x[3], f[2]);
	exec_expect_float(&x[4], f[3]);
	exec_expect_float(&x[5], f[1]);
	exec_expect_float(&x[6], (float)(int32_t)truncf(f[0]));
	exec_expect_float(&x[7], (float)(int32_t)truncf(f[1]));
}

static const struct exec_hand ctor = {
	"constructors_vector",
	PRE_F "void main()\n{\n\tuint i = gl_GlobalInvocationID.x;\n"
	      "\tfloat a = x[4u * i], b = x[4u * i + 1u], c = x[4u * i + 2u], d = x[4u * i + 3u];\n"
	      "\tvec4 v = vec4(vec2(a, b), c, d).yxwz;\n\tvec3 s = vec3(d);\n"
	      "\tvec2 t = vec2(vec4(a, b, c, d));\n\tivec2 iv = ivec2(vec2(a, b));\n"
	      "\tvec2 back = vec2(iv);\n"
	      "\tr[8u * i] = v.x;\n\tr[8u * i + 1u] = v.y;\n\tr[8u * i + 2u] = v.z;\n"
	      "\tr[8u * i + 3u] = v.w;\n\tr[8u * i + 4u] = s.z;\n\tr[8u * i + 5u] = t.y;\n"
	      "\tr[8u * i + 6u] = float(iv.x);\n\tr[8u * i + 7u] = back.y;\n}\n",
	GRID,
	4,
	DOM_MID,
	8,
	'f',
	ref_ctor,
};

#undef IN_WORDS
#define IN_WORDS 1
static void ref_dyn_component(const uint32_t *in, unsigned inv, unsigned n, struct exec_expect *x)
{
	int32_t v = IN(0) & 0xffff, c[4] = { v, v + 1, v + 2, v + 3 };
	unsigned k = (unsigned)v & 3;

	c[(k + 2) & 3] = -7;
	set(x, 0, c[k] * 10 + c[(k + 1) & 3]);
	set(x, 1, c[(k + 2) & 3]);
}

static const struct exec_hand dyn_component = {
	"vector_dynamic_component",
	PRE_I "void main()\n{\n\tuint i = gl_GlobalInvocationID.x;\n\tint v = x[i] & 0xffff;\n"
	      "\tivec4 c = ivec4(v, v + 1, v + 2, v + 3);\n\tint k = v & 3;\n"
	      "\tc[(k + 2) & 3] = -7;\n\tr[2u * i] = c[k] * 10 + c[(k + 1) & 3];\n"
	      "\tr[2u * i + 1u] = c[(k + 2) & 3];\n}\n",
	GRID,
	1,
	DOM_INT,
	2,
	'i',
	ref_dyn_component,
};

/* ---- ++ --, compound assignment
 * ---------------------------------------------------------------------- */

static void ref_inc_dec(const uint32_t *in, unsigned inv, unsigned n, struct exec_expect *x)
{
	uint32_t a = (uint32_t)IN(0), b, c, d, e; /* (wrapping, as GLSL's int) */

	b = a++;
	c = ++a;
	d = a--;
	e = --a;
	set(x, 0, a);
	set(x, 1, b);
	set(x, 2, c);
	set(x, 3, d);
	set(x, 4, e);
}

static const struct exec_hand inc_dec = {
	"increment_decrement_int",
	PRE_I "void main()\n{\n\tuint i = gl_GlobalInvocationID.x;\n\tint a = x[i];\n"
	      "\tint b = a++;\n\tint c = ++a;\n\tint d = a--;\n\tint e = --a;\n"
	      "\tr[5u * i] = a;\n\tr[5u * i + 1u] = b;\n\tr[5u * i + 2u] = c;\n"
	      "\tr[5u * i + 3u] = d;\n\tr[5u * i + 4u] = e;\n}\n",
	GRID,
	1,
	DOM_INT,
	5,
	'i',
	ref_inc_dec,
};

static void ref_inc_dec_vec(const uint32_t *in, unsigned inv, unsigned n, struct exec_expect *x)
{
	const struct exec_prec *p = exec_prec(PREC_HIGH);
	float f = exec_in_f(in, inv, 1, 0);
	struct ev a = ev_exact(f), one = ev_exact(1.0);

	/* vec2 v = vec2(f, -f); v++; ++v; v--; float g = f; g--; */
	struct ev v0 = ev_sub(p, ev_add(p, ev_add(p, a, one), one), one);
	struct ev v1 = ev_sub(p, ev_add(p, ev_add(p, ev_neg(a), one), one), one);
	setf(x, 0, v0);
	setf(x, 1, v1);
	setf(x, 2, ev_sub(p, a, one));
}

static const struct exec_hand inc_dec_vec = {
	"increment_decrement_vec2",
	PRE_F "void main()\n{\n\tuint i = gl_GlobalInvocationID.x;\n\tfloat f = x[i];\n"
	      "\tvec2 v = vec2(f, -f);\n\tv++;\n\t++v;\n\tv--;\n\tfloat g = f;\n\tg--;\n"
	      "\tr[3u * i] = v.x;\n\tr[3u * i + 1u] = v.y;\n\tr[3u * i + 2u] = g;\n}\n",
	GRID,
	1,
	DOM_MID,
	3,
	'f',
	ref_inc_dec_vec,
};

#undef IN_WORDS
#define IN_WORDS 2
static void ref_compound(const uint32_t *in, unsigned inv, unsigned n, struct exec_expect *x)
{
	int32_t a = IN(0), b = IN(1);

	a += b;
	a -= 3;
	a *= b;
	a /= (b | 1);
	int32_t m = a < 0 ? -a : a;
	m %= 7;
	m <<= 2;
	a >>= 1;
	a &= 0xff;
	a |= 0x100;
	a ^= b;
	set(x, 0, a);
	set(x, 1, m);
}

static const struct exec_hand compound = {
	"compound_assignment_int",
	PRE_I "void main()\n{\n\tuint i = gl_GlobalInvocationID.x;\n\tint a = x[2u * i], b = x[2u "
	      "* i + 1u];\n"
	      "\ta += b;\n\ta -= 3;\n\ta *= b;\n\ta /= (b | 1);\n\tint m = abs(a);\n\tm %= 7;\n"
	      "\tm <<= 2;\n\ta >>= 1;\n\ta &= 0xff;\n\ta |= 0x100;\n\ta ^= b;\n"
	      "\tr[2u * i] = a;\n\tr[2u * i + 1u] = m;\n}\n",
	GRID,
	2,
	DOM_INT_SMALL,
	2,
	'i',
	ref_compound,
};

static void ref_compound_vec(const uint32_t *in, unsigned inv, unsigned n, struct exec_expect *x)
{
	const struct exec_prec *p = exec_prec(PREC_HIGH);
	struct ev a = ev_exact(exec_in_f(in, inv, 2, 0)), b = ev_exact(exec_in_f(in, inv, 2, 1));
	struct ev v[3] = { a, b, ev_add(p, a, b) };

	for (int k = 0; k < 3; k++) {
		v[k] = ev_mul(p, v[k], ev_exact(2.0));
		v[k] = ev_add(p, v[k], ev_exact(1.0));
		v[k] = ev_div(p, v[k], ev_exact(4.0));
		v[k] = ev_sub(p, v[k], b);
	}
	for (int k = 0; k < 3; k++)
		setf(x, k, v[k]);
}

static const struct exec_hand compound_vec = {
	"compound_assignment_vec3",
	PRE_F
	"void main()\n{\n\tuint i = gl_GlobalInvocationID.x;\n\tfloat a = x[2u * i], b = x[2u * i "
	"+ 1u];\n"
	"\tvec3 v = vec3(a, b, a + b);\n\tv *= 2.0;\n\tv += vec3(1.0);\n\tv /= 4.0;\n"
	"\tv -= b;\n\tr[3u * i] = v.x;\n\tr[3u * i + 1u] = v.y;\n\tr[3u * i + 2u] = v.z;\n}\n",
	GRID,
	2,
	DOM_MID,
	3,
	'f',
	ref_compound_vec,
};

/* ---- integer edges
 * --------------------------------------------------------------------------------- */

/* The inputs are INT_MAX, INT_MIN, 0xffffffff, 31 -- as data, then as constants. */
static void ref_int_edges(const uint32_t *in, unsigned inv, unsigned n, struct exec_expect *x)
{
	uint32_t r[8] = {
		0x80000000u,		   /* INT_MAX + 1 */
		0x7fffffffu,		   /* INT_MIN - 1 */
		0x80000000u,		   /* -INT_MIN */
		1u,			   /* 0xffffffff * 0xffffffff */
		0x80000000u,		   /* 1u << 31 */
		0xffffffffu,		   /* INT_MIN >> 31 */
		1u,			   /* 0x80000000u >> 31 */
		(uint32_t)(INT32_MIN / 3), /* INT_MIN / 3 */
	};

	for (int k = 0; k < 8; k++) {
		exec_expect_bits(&x[k], r[k]);
		exec_expect_bits(&x[8 + k], r[k]);
	}
}

static int setup_int_edges(const struct exec_hand *h, struct exec_case *c)
{
	uint32_t *in = (uint32_t *)c->buffers[0].data;

	for (unsigned i = 0; i < N; i++) {
		in[4 * i] = 0x7fffffffu;
		in[4 * i + 1] = 0x80000000u;
		in[4 * i + 2] = 0xffffffffu;
		in[4 * i + 3] = 31u;
	}
	return 0;
}

static const struct exec_hand int_edges = {
	"integer_edges",
	PRE_U
	"void main()\n{\n\tuint i = gl_GlobalInvocationID.x, o = 16u * i;\n"
	"\tint mx = int(x[4u * i]), mn = int(x[4u * i + 1u]);\n"
	"\tuint ones = x[4u * i + 2u], s = x[4u * i + 3u];\n"
	"\tr[o] = uint(mx + 1);\n\tr[o + 1u] = uint(mn - 1);\n\tr[o + 2u] = uint(-mn);\n"
	"\tr[o + 3u] = ones * ones;\n\tr[o + 4u] = 1u << s;\n\tr[o + 5u] = uint(mn >> int(s));\n"
	"\tr[o + 6u] = 0x80000000u >> s;\n\tr[o + 7u] = uint(mn / 3);\n"
	"\tconst int cmx = 2147483647;\n\tconst int cmn = -2147483647 - 1;\n"
	"\tr[o + 8u] = uint(cmx + 1);\n\tr[o + 9u] = uint(cmn - 1);\n\tr[o + 10u] = uint(-cmn);\n"
	"\tr[o + 11u] = 0xffffffffu * 0xffffffffu;\n\tr[o + 12u] = 1u << 31;\n"
	"\tr[o + 13u] = uint(cmn >> 31);\n\tr[o + 14u] = 0x80000000u >> 31;\n"
	"\tr[o + 15u] = uint(cmn / 3);\n}\n",
	GRID,
	4,
	DOM_INT,
	16,
	'u',
	ref_int_edges,
	setup_int_edges,
};

/* Constant expressions folded by the compiler: the same built-ins as at run time. */
static void ref_const_fold(const uint32_t *in, unsigned inv, unsigned n, struct exec_expect *x)
{
	const struct exec_prec *p = exec_prec(PREC_HIGH);

	exec_expect_ev(&x[0], p, ev_sqrt(p, ev_exact(2.0)));
	exec_expect_ev(&x[1], p, ev_exp2(p, ev_exact(10.5)));
	exec_expect_ev(&x[2], p, ev_exact(-3.0)); /* floor(-2.5) */
	exec_expect_ev(&x[3], p, ev_exact(0.75)); /* fract(-2.25) */
	exec_expect_ev(&x[4], p, ev_exact(1.0));  /* clamp(3.0, 0.0, 1.0) */
	exec_expect_ev(&x[5], p, ev_div(p, ev_exact(1.0), ev_exact(3.0)));
	exec_expect_ev(&x[6], p, ev_exact(7.0));  /* float(7 / 1) + 0 */
	exec_expect_ev(&x[7], p, ev_exact(-2.0)); /* float(-7 / 3) */
}

static const struct exec_hand const_fold = {
	"constant_expressions",
	PRE_F
	"void main()\n{\n\tuint i = gl_GlobalInvocationID.x, o = 8u * i;\n"
	"\tr[o] = sqrt(2.0);\n\tr[o + 1u] = exp2(10.5);\n\tr[o + 2u] = floor(-2.5);\n"
	"\tr[o + 3u] = fract(-2.25);\n\tr[o + 4u] = clamp(3.0, 0.0, 1.0);\n"
	"\tr[o + 5u] = 1.0 / 3.0;\n\tr[o + 6u] = float(7 / 1);\n\tr[o + 7u] = float(-7 / 3);\n}\n",
	GRID,
	0,
	DOM_MID,
	8,
	'f',
	ref_const_fold,
};

/* Booleans as values: in vectors, stored in variables, compared, selected. */
#undef IN_WORDS
#define IN_WORDS 3
static void ref_bools(const uint32_t *in, unsigned inv, unsigned n, struct exec_expect *x)
{
	int32_t a = IN(0), b = IN(1), c = IN(2);
	bool lt[3] = { a < b, b < c, c < a };
	bool any = lt[0] || lt[1] || lt[2], all = lt[0] && lt[1] && lt[2];
	bool same = (a < b) == (b < c);

	set(x, 0, (any ? 1 : 0) | (all ? 2 : 0) | (same ? 4 : 0));
	set(x, 1, (!lt[0] ? 1 : 0) + (!lt[1] ? 2 : 0) + (!lt[2] ? 4 : 0));
}

static const struct exec_hand bools = {
	"bool_vector_values",
	PRE_I "void main()\n{\n\tuint i = gl_GlobalInvocationID.x;\n"
	      "\tint a = x[3u * i], b = x[3u * i + 1u], c = x[3u * i + 2u];\n"
	      "\tbvec3 lt = lessThan(ivec3(a, b, c), ivec3(b, c, a));\n"
	      "\tbool same = lt.x == lt.y;\n\tbvec3 n = not(lt);\n"
	      "\tr[2u * i] = (any(lt) ? 1 : 0) | (all(lt) ? 2 : 0) | (same ? 4 : 0);\n"
	      "\tivec3 w = ivec3(n) * ivec3(1, 2, 4);\n\tr[2u * i + 1u] = w.x + w.y + w.z;\n}\n",
	GRID,
	3,
	DOM_INT_SMALL,
	2,
	'i',
	ref_bools,
};

void exec_control_register(struct exec_list *l)
{
	static const struct exec_hand *all[] = {
		&if_chain,	&nested_if,	&if_logic,	&for_sum,
		&nested_loops,	&while_gcd,	&do_collatz,	&do_continue,
		&for_ever,	&break_flag,	&while_and,	&loop_float,
		&break_lanes,	&early_return,	&return_loop,	&return_function,
		&switch_fall,	&switch_loop,	&switch_uint,	&ternary,
		&short_circuit, &inout,		&fn_struct,	&fn_overload,
		&fn_array,	&globals,	&const_array,	&local_array,
		&array_vec,	&array_compare, &struct_nested, &struct_compare,
		&struct_array,	&swizzle_read,	&swizzle_write, &ctor,
		&dyn_component, &inc_dec,	&inc_dec_vec,	&compound,
		&compound_vec,	&int_edges,	&const_fold,	&bools,
	};

	for (unsigned i = 0; i < sizeof(all) / sizeof(all[0]); i++)
		exec_add_hand(l, all[i]);
}
