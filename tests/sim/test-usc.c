/*
 * test-usc: the USC core executing real G13 code, checked lane by lane
 * against references written here, independently of the simulator: integer
 * arithmetic in plain 64/128-bit C, floats in quad precision with our own
 * half-precision rounding, the execution mask as per-lane structured
 * control flow.  Programs are assembled from text with libagx's assembler.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "agx/isa.h"
#include "agx/layout.h"
#include "asm.h"
#include "agx_cmdbuf.h"
#include "cache.h"
#include "fp16.h"
#include "usc.h"

#define L USC_LANES

/* --- harness ------------------------------------------------------------------------ */

static uint64_t rng = 0x9e3779b97f4a7c15ull;

static uint32_t rnd(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (uint32_t)(rng >> 11);
}

static struct usc_result run(const char *text, struct usc_state *s)
{
	uint8_t code[4096];
	size_t len = test_assemble(text, code, sizeof(code));
	struct usc_program *p = usc_program_create(code, len);
	struct usc_result r;

	assert_non_null(p);
	r = usc_run(p, s, 100000);
	usc_program_destroy(p);
	return r;
}

static void run_ok(const char *text, struct usc_state *s)
{
	struct usc_result r = run(text, s);

	if (r.status != USC_DONE)
		fail_msg("program ended with status %d at 0x%x: %s", r.status, r.pc, r.message);
}

static struct usc_state *new_state(unsigned lanes)
{
	struct usc_state *s = malloc(sizeof(*s));

	usc_state_init(s, lanes);
	return s;
}

static uint32_t fbits(float f)
{
	uint32_t u;

	memcpy(&u, &f, 4);
	return u;
}

static float bitsf(uint32_t u)
{
	float f;

	memcpy(&f, &u, 4);
	return f;
}

/* --- integer ------------------------------------------------------------------------- */

static const uint32_t edge32[] = { 0,	       1,	   2,	       0x7fffffff,
				   0x80000000, 0x80000001, 0xffffffff, 0xfffffffe,
				   0x0000ffff, 0x00010000, 0x12345678, 0xdeadbeef };

/* Fills r1, r2, r3 with edge values and random ones, lane by lane. */
static void fill_int_sources(struct usc_state *s)
{
	for (unsigned l = 0; l < L; l++) {
		s->r[1][l] = l < 12 ? edge32[l] : rnd();
		s->r[2][l] = edge32[(l * 7) % 12] ^ (l >= 24 ? rnd() : 0);
		s->r[3][l] = rnd();
	}
}

static int64_t ref_sx(uint64_t v, unsigned bits)
{
	return (int64_t)(v << (64 - bits)) >> (64 - bits);
}

static void test_iadd(void **state)
{
	static const struct {
		const char *text;
		int neg, shift, sat, asx, bsx;
	} cases[] = {
		{ "iadd r4, r1, r2", 0, 0, 0, 0, 0 },
		{ "isub r4, r1, r2", 1, 0, 0, 0, 0 },
		{ "iadd r4, r1.sx, r2.sx, lsl 3", 0, 3, 0, 1, 1 },
		{ "isub r4, r1, r2, lsl 4", 1, 4, 0, 0, 0 },
		{ "iadd r4, r1, r2, lsl 5", 0, 5, 0, 0, 0 }, /* a shift of 5 drops b */
		{ "iadd.sat r4, r1, r2", 0, 0, 1, 0, 0 },
		{ "isub.sat r4, r1, r2", 1, 0, 1, 0, 0 },
		{ "iadd.sat r4, r1.sx, r2.sx", 0, 0, 1, 1, 1 },
		{ "isub.sat r4, r1.sx, r2.sx", 1, 0, 1, 1, 1 },
	};

	(void)state;
	for (unsigned c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
		struct usc_state *s = new_state(L);
		char prog[128];

		fill_int_sources(s);
		snprintf(prog, sizeof(prog), "%s\nstop", cases[c].text);
		run_ok(prog, s);
		for (unsigned l = 0; l < L; l++) {
			int64_t a = cases[c].asx ? ref_sx(s->r[1][l], 32) : (int64_t)s->r[1][l];
			int64_t b = cases[c].bsx ? ref_sx(s->r[2][l], 32) : (int64_t)s->r[2][l];
			int64_t sum;
			uint32_t want;

			if (cases[c].neg)
				b = -b;
			b = cases[c].shift < 5 ? b * (1 << cases[c].shift) : 0;
			sum = a + b;
			if (cases[c].sat) {
				bool sgn = cases[c].asx || cases[c].bsx;
				int64_t lo = sgn ? INT32_MIN : 0, hi = sgn ? INT32_MAX : UINT32_MAX;

				sum = sum < lo ? lo : sum > hi ? hi : sum;
			}
			want = (uint32_t)sum;
			if (s->r[4][l] != want)
				fail_msg("%s lane %u: a=%#x b=%#x got %#x want %#x", cases[c].text,
					 l, s->r[1][l], s->r[2][l], s->r[4][l], want);
		}
		free(s);
	}
}

static void test_iadd_16_and_64(void **state)
{
	struct usc_state *s = new_state(L);

	(void)state;
	fill_int_sources(s);
	run_ok("iadd r5l, r1l.sx, r2h\n"
	       "iadd r6_r7, r1_r2, r3\n"
	       "imadd r8, r1, r2, r3\n"
	       "imadd r9_r10, r1.sx, r2.sx, r3.sx\n"
	       "imsub r11, r1, 7, r3, lsl 2\n"
	       "stop",
	       s);
	for (unsigned l = 0; l < L; l++) {
		uint32_t a = s->r[1][l], b = s->r[2][l], c = s->r[3][l];
		uint64_t pair = a | (uint64_t)b << 32;
		int64_t wide = ref_sx(a, 32) * ref_sx(b, 32) + ref_sx(c, 32);

		assert_int_equal(s->r[5][l] & 0xffff,
				 (uint16_t)(ref_sx(a & 0xffff, 16) + (b >> 16)));
		assert_int_equal(s->r[6][l] | (uint64_t)s->r[7][l] << 32, pair + c);
		assert_int_equal(s->r[8][l], (uint32_t)(a * b + c));
		assert_int_equal(s->r[9][l] | (uint64_t)s->r[10][l] << 32, (uint64_t)wide);
		assert_int_equal(s->r[11][l], (uint32_t)(a * 7u - c * 4u));
	}
	free(s);
}

static uint32_t ref_mask(unsigned m)
{
	return m ? (uint32_t)((1ull << m) - 1) : 0xffffffffu;
}

static void test_bitfield(void **state)
{
	(void)state;
	for (unsigned m = 0; m < 32; m += 5) {
		struct usc_state *s = new_state(L);
		char prog[512];

		fill_int_sources(s);
		for (unsigned l = 0; l < L; l++)
			s->r[3][l] = (l * 5) & 0x7f; /* shift amounts 0..127 */
		snprintf(prog, sizeof(prog),
			 "bfi r4, r1, r2, r3%s%.0u\n"
			 "bfeil r5, r1, r2, r3%s%.0u\n"
			 "extr r6, r1, r2, r3%s%.0u\n"
			 "asr r7, r1, r3\n"
			 "shlhi r8, r1, r2, r3%s%.0u\n"
			 "shrhi r9, r1, r2, r3%s%.0u\n"
			 "stop",
			 "", 0, "", 0, "", 0, "", 0, "", 0);
		if (m) {
			char mask[32];

			snprintf(mask, sizeof(mask), ", mask 0x%X", ref_mask(m));
			snprintf(
			    prog, sizeof(prog),
			    "bfi r4, r1, r2, r3%s\nbfeil r5, r1, r2, r3%s\nextr r6, r1, r2, r3%s\n"
			    "asr r7, r1, r3\nshlhi r8, r1, r2, r3%s\nshrhi r9, r1, r2, r3%s\nstop",
			    mask, mask, mask, mask, mask);
		}
		run_ok(prog, s);
		for (unsigned l = 0; l < L; l++) {
			uint32_t a = s->r[1][l], b = s->r[2][l], mk = ref_mask(m);
			unsigned sh = s->r[3][l];
			uint32_t want_bfi = a, want_bfeil = a & ~mk, want_extr = 0, want_asr;
			uint32_t want_shlhi = a, want_shrhi = a;

			/* bit by bit, straight from applegpu's definitions */
			for (unsigned i = 0; i < 32; i++) {
				unsigned src = i - sh; /* bfi: bit i comes from b bit i - sh */

				if (i >= sh && src < 32 && ((mk >> src) & 1)) {
					want_bfi =
					    (want_bfi & ~(1u << i)) | (((b >> src) & 1) << i);
				}
				if (((mk >> i) & 1) && i + sh < 32)
					want_bfeil |= ((b >> (i + sh)) & 1) << i;
				if (((mk >> i) & 1) && i + sh < 64)
					want_extr |=
					    (uint32_t)(((i + sh < 32 ? a >> (i + sh)
								     : b >> (i + sh - 32))) &
						       1)
					    << i;
			}
			want_asr = (uint32_t)(sh >= 32 ? ((int32_t)a >> 31) : ((int32_t)a >> sh));
			{
				/* shlhi: ((b << sh) >> 32) under mask << max(sh - 32, 0) */
				unsigned __int128 wide = (unsigned __int128)b << sh;
				uint64_t hi = (uint64_t)(wide >> 32);
				uint64_t sm =
				    sh > 32 ? (sh - 32 < 64 ? (uint64_t)mk << (sh - 32) : 0) : mk;

				want_shlhi = (uint32_t)((hi & sm) | (a & ~sm));
			}
			{
				uint64_t wide = (uint64_t)b << 32;
				uint64_t sm = ((uint64_t)mk << 32) >> (sh < 32 ? sh : 32);

				want_shrhi =
				    (uint32_t)(((sh < 64 ? wide >> sh : 0) & sm) | (a & ~sm));
			}
			assert_int_equal(s->r[4][l], want_bfi);
			assert_int_equal(s->r[5][l], want_bfeil);
			assert_int_equal(s->r[6][l], want_extr);
			assert_int_equal(s->r[7][l], want_asr);
			assert_int_equal(s->r[8][l], want_shlhi);
			assert_int_equal(s->r[9][l], want_shrhi);
		}
		free(s);
	}
}

static void test_bitop_truth_tables(void **state)
{
	(void)state;
	for (unsigned tt = 0; tt < 16; tt++) {
		struct usc_state *s = new_state(L);
		char prog[64];

		fill_int_sources(s);
		snprintf(prog, sizeof(prog), "bitop %u%u%u%u, r4, r1, r2\nstop", tt & 1,
			 (tt >> 1) & 1, (tt >> 2) & 1, (tt >> 3) & 1);
		run_ok(prog, s);
		for (unsigned l = 0; l < L; l++) {
			uint32_t a = s->r[1][l], b = s->r[2][l], want = 0;

			for (unsigned i = 0; i < 32; i++) {
				unsigned ab = ((a >> i) & 1) | ((b >> i) & 1) << 1;

				want |= ((tt >> ab) & 1) << i;
			}
			/* applegpu's exec: the tables 0011 and 1100 give a */
			if (tt == 0xc || tt == 0x3)
				want = a;
			assert_int_equal(s->r[4][l], want);
		}
		free(s);
	}
}

static void test_iunary(void **state)
{
	struct usc_state *s = new_state(L);

	(void)state;
	fill_int_sources(s);
	run_ok("popcount r4, r1\nbitrev r5, r1\nffs r6, r1\nstop", s);
	for (unsigned l = 0; l < L; l++) {
		uint32_t a = s->r[1][l], pop = 0, rev = 0, high = 0xffffffff;

		for (unsigned i = 0; i < 32; i++) {
			pop += (a >> i) & 1;
			rev |= ((a >> i) & 1) << (31 - i);
			if ((a >> i) & 1)
				high = i;
		}
		assert_int_equal(s->r[4][l], pop);
		assert_int_equal(s->r[5][l], rev);
		assert_int_equal(s->r[6][l], high);
	}
	free(s);
}

/* --- floating point ------------------------------------------------------------------------ */

static const uint32_t fedge[] = {
	0x00000000, 0x80000000, 0x00000001, 0x807fffff, /* zeros, denormals */
	0x00800000, 0x80800000, 0x3f800000, 0xbf800000, /* min normal, +-1 */
	0x7f7fffff, 0xff7fffff, 0x7f800000, 0xff800000, /* max, inf */
	0x7fc00000, 0x7f800001, 0xffffffff, 0x40490fdb, /* NaNs, pi */
	0x3eaaaaab, 0x33800000, 0x4b800001, 0xc2f60000,
};
#define NFEDGE (sizeof(fedge) / sizeof(fedge[0]))

/* The hardware's float32 input: denormals are zero. */
static __float128 q_in(uint32_t u)
{
	if (!(u & 0x7f800000))
		u &= 0x80000000;
	return (__float128)bitsf(u);
}

static bool q_isnan(__float128 q)
{
	return q != q;
}

/* The hardware's float32 output: canonical NaN, denormals flushed. */
static uint32_t q_out32(__float128 q)
{
	uint32_t u;

	if (q_isnan(q))
		return 0x7fc00000;
	u = fbits((float)q);
	if (!(u & 0x7f800000))
		u &= 0x80000000;
	return u;
}

static void check_falu32(const char *op, int kind /* 0 add, 1 mul, 2 fma */, bool sat)
{
	for (unsigned round = 0; round < NFEDGE * NFEDGE / L + 20; round++) {
		struct usc_state *s = new_state(L);
		char prog[96];

		for (unsigned l = 0; l < L; l++) {
			unsigned k = round * L + l;

			s->r[1][l] = k < NFEDGE * NFEDGE ? fedge[k % NFEDGE] : rnd();
			s->r[2][l] = k < NFEDGE * NFEDGE ? fedge[k / NFEDGE] : rnd();
			s->r[3][l] = (k & 1) ? fedge[(k / 3) % NFEDGE] : rnd();
		}
		snprintf(prog, sizeof(prog), "%s%s r4, r1, r2%s\nstop", op, sat ? ".sat" : "",
			 kind == 2 ? ", r3" : "");
		run_ok(prog, s);
		for (unsigned l = 0; l < L; l++) {
			__float128 a = q_in(s->r[1][l]), b = q_in(s->r[2][l]), c = q_in(s->r[3][l]);
			__float128 r;
			uint32_t want;

			if (kind == 0)
				r = a + b;
			else if (kind == 1)
				/* fma(a, b, +0): an exact zero product comes out +0 */
				r = a * b + (__float128)0.0;
			else
				r = a * b + c;
			if (sat)
				r = q_isnan(r) ? 0 : r > 1 ? 1 : r > 0 ? r : 0;
			want = q_out32(r);
			if (s->r[4][l] != want)
				fail_msg("%s%s(%#x, %#x, %#x) = %#x, want %#x", op,
					 sat ? ".sat" : "", s->r[1][l], s->r[2][l], s->r[3][l],
					 s->r[4][l], want);
		}
		free(s);
	}
}

static void test_float32_alu(void **state)
{
	(void)state;
	check_falu32("fadd", 0, false);
	check_falu32("fmul", 1, false);
	check_falu32("fmadd", 2, false);
	check_falu32("fadd", 0, true);
	check_falu32("fmadd", 2, true);
}

/* Our own half rounding, independent of sim/usc/fp16.c: by searching. */
static uint16_t ref_half(__float128 q)
{
	uint16_t sign = 0;

	if (q_isnan(q))
		return 0x7e00;
	if (q < 0 || (q == 0 && 1 / q < 0)) {
		sign = 0x8000;
		q = -q;
	}
	/* candidates in increasing order: the nearest, ties to even */
	{
		uint16_t lo = 0, best = 0;
		__float128 vlo, vhi;

		while (lo < 0x7c00) {
			__float128 v;
			uint16_t e = lo >> 10, f = lo & 0x3ff;

			v = e ? (__float128)(f | 0x400) * powf(2, (float)e - 25)
			      : (__float128)f * powf(2, -24);
			if (v > q)
				break;
			best = lo;
			lo++;
		}
		if (best == 0x7bff && q > (__float128)65504) {
			/* beyond the largest half: inf from halfway to the next power */
			return sign | (q >= (__float128)65520 ? 0x7c00 : 0x7bff);
		}
		{
			uint16_t e = best >> 10, f = best & 0x3ff, nb = (uint16_t)(best + 1);
			uint16_t e2 = nb >> 10, f2 = nb & 0x3ff;

			vlo = e ? (__float128)(f | 0x400) * powf(2, (float)e - 25)
				: (__float128)f * powf(2, -24);
			vhi = e2 ? (__float128)(f2 | 0x400) * powf(2, (float)e2 - 25)
				 : (__float128)f2 * powf(2, -24);
			if (q - vlo < vhi - q || (q - vlo == vhi - q && !(best & 1)))
				return sign | best;
			return sign | nb;
		}
	}
}

static __float128 q_half(uint16_t h)
{
	unsigned e = (h >> 10) & 0x1f, f = h & 0x3ff;
	__float128 v;

	if (e == 0x1f)
		v = f ? (__float128)NAN : (__float128)INFINITY;
	else
		v = e ? (__float128)(f | 0x400) * powf(2, (float)e - 25)
		      : (__float128)f * powf(2, -24);
	return (h & 0x8000) ? -v : v;
}

static const uint16_t hedge[] = { 0x0000, 0x8000, 0x0001, 0x83ff, 0x0400, 0x3c00, 0xbc00, 0x7bff,
				  0xfbff, 0x7c00, 0xfc00, 0x7e00, 0x3555, 0x4248, 0x1400, 0x5640 };
#define NHEDGE (sizeof(hedge) / sizeof(hedge[0]))

static void test_float16_alu(void **state)
{
	(void)state;
	for (unsigned round = 0; round < NHEDGE * NHEDGE / L + 8; round++) {
		struct usc_state *s = new_state(L);

		for (unsigned l = 0; l < L; l++) {
			unsigned k = round * L + l;
			uint16_t a = k < NHEDGE * NHEDGE ? hedge[k % NHEDGE] : (uint16_t)rnd();
			uint16_t b = k < NHEDGE * NHEDGE ? hedge[k / NHEDGE] : (uint16_t)rnd();
			uint16_t c = (uint16_t)((k & 1) ? hedge[(k / 3) % NHEDGE] : rnd());

			s->r[1][l] = a | (uint32_t)b << 16; /* r1l = a, r1h = b */
			s->r[2][l] = c;
		}
		run_ok("fadd16 r4l, r1l, r1h\n"
		       "fmul16 r4h, r1l, r1h\n"
		       "fmadd16 r5l, r1l, r1h, r2l\n"
		       "fadd r5h, r1l, r1h\n" /* half sources, half destination, 32-bit op */
		       "stop",
		       s);
		for (unsigned l = 0; l < L; l++) {
			__float128 a = q_half(s->r[1][l] & 0xffff), b = q_half(s->r[1][l] >> 16);
			__float128 c = q_half(s->r[2][l] & 0xffff);
			uint16_t add = ref_half(a + b), mul = ref_half(a * b + (__float128)0.0);
			uint16_t fma = ref_half(a * b + c);

			if ((s->r[4][l] & 0xffff) != add || (s->r[4][l] >> 16) != mul ||
			    (s->r[5][l] & 0xffff) != fma || (s->r[5][l] >> 16) != add)
				fail_msg("lane %u: a=%#x b=%#x c=%#x: add %#x/%#x mul %#x/%#x fma "
					 "%#x/%#x",
					 l, s->r[1][l] & 0xffff, s->r[1][l] >> 16,
					 s->r[2][l] & 0xffff, s->r[4][l] & 0xffff, add,
					 s->r[4][l] >> 16, mul, s->r[5][l] & 0xffff, fma);
		}
		free(s);
	}
}

static void test_float_unary(void **state)
{
	struct usc_state *s = new_state(L);

	(void)state;
	for (unsigned l = 0; l < L; l++)
		s->r[1][l] = fbits((float)l * 0.37f - 5.5f);
	s->r[1][0] = fbits(2.5f);
	s->r[1][1] = fbits(-2.5f);
	s->r[1][2] = fbits(3.5f);
	run_ok("floor r2, r1\nceil r3, r1\ntrunc r4, r1\nrint r5, r1\nrcp r6, r1\nstop", s);
	for (unsigned l = 0; l < L; l++) {
		float x = bitsf(s->r[1][l]);
		/* reference: through integers, not libm */
		double t = (double)(int64_t)x;
		double fl = t > x ? t - 1 : t, ce = t < x ? t + 1 : t;
		double frac = x - fl, ri = frac > 0.5	? fl + 1
					   : frac < 0.5 ? fl
							: ((int64_t)fl % 2 ? fl + 1 : fl);

		assert_true(bitsf(s->r[2][l]) == (float)fl);
		assert_true(bitsf(s->r[3][l]) == (float)ce);
		assert_true(bitsf(s->r[4][l]) == (float)t);
		assert_true(bitsf(s->r[5][l]) == (float)ri);
		assert_int_equal(s->r[6][l], q_out32((__float128)1 / (__float128)x));
	}
	free(s);

	/* sin through sin_pt_1/sin_pt_2 as the applegpu docs describe */
	s = new_state(L);
	for (unsigned l = 0; l < L; l++)
		s->r[1][l] = fbits((float)l / 8.0f); /* quarter turns in [0, 4) */
	run_ok("sin_pt_1 r2, r1\nsin_pt_2 r3, r2\nfmul r4, r2, r3\nstop", s);
	for (unsigned l = 0; l < L; l++) {
		double want = sin((double)l / 8.0 * M_PI / 2);

		/* a numerical property of the model, not bit-exactness */
		assert_true(fabs(bitsf(s->r[4][l]) - want) < 1e-6);
	}
	free(s);
}

static void test_convert(void **state)
{
	struct usc_state *s = new_state(L);

	(void)state;
	fill_int_sources(s);
	for (unsigned l = 0; l < L; l++)
		s->r[5][l] = fbits(l < 8 ? (float[]){ 1.5f, -1.5f, 2.5f, 1e10f, -1e10f, NAN, -0.7f,
						      4294967040.0f }[l]
					 : (float)(int32_t)rnd() / 3.0f);
	run_ok("convert u32_to_f, r2, r1, rte\n"
	       "convert s32_to_f, r3, r1, rtz\n"
	       "convert f_to_s32, r6, r5, rtz\n"
	       "convert f_to_u32, r7, r5, rte\n"
	       "stop",
	       s);
	for (unsigned l = 0; l < L; l++) {
		uint32_t a = s->r[1][l];
		double x = bitsf(s->r[5][l]);
		float rz = (float)(int32_t)a;
		double tr, ne;

		if (fabs((double)rz) > fabs((double)(int32_t)a))
			rz = nextafterf(rz, 0);
		assert_true(bitsf(s->r[2][l]) == (float)a);
		assert_true(bitsf(s->r[3][l]) == rz);
		tr = isnan(x)		  ? 0
		     : x >= 2147483647.0  ? 2147483647.0
		     : x <= -2147483648.0 ? -2147483648.0
					  : (double)(int64_t)x;
		ne = isnan(x) ? 0 : x >= 4294967295.0 ? 4294967295.0 : x <= 0 ? 0 : nearbyint(x);
		assert_int_equal(s->r[6][l], (uint32_t)(int32_t)tr);
		assert_int_equal(s->r[7][l], (uint32_t)ne);
	}
	free(s);
}

static void test_select(void **state)
{
	struct usc_state *s = new_state(L);

	(void)state;
	fill_int_sources(s);
	for (unsigned l = 0; l < L; l++)
		s->r[6][l] = fedge[l % NFEDGE], s->r[7][l] = fedge[(l * 3) % NFEDGE];
	run_ok("icmpsel slt, r4, r1, r2, r1, r2\n" /* signed min */
	       "icmpsel ugt, r5, r1, r2, r1, r2\n" /* unsigned max */
	       "fcmpsel ltn, r8, r6, r7, r6, r7\n" /* fmin: a NaN loses */
	       "fcmpsel gte, r9, r6, r7, 1, 2\n"
	       "stop",
	       s);
	for (unsigned l = 0; l < L; l++) {
		int32_t a = (int32_t)s->r[1][l], b = (int32_t)s->r[2][l];
		float x = bitsf(q_out32(q_in(s->r[6][l]))), y = bitsf(q_out32(q_in(s->r[7][l])));

		assert_int_equal(s->r[4][l], (uint32_t)(a < b ? a : b));
		assert_int_equal(s->r[5][l], (uint32_t)a > (uint32_t)b ? (uint32_t)a : (uint32_t)b);
		assert_int_equal(s->r[8][l], (x < y || y != y) ? s->r[6][l] : s->r[7][l]);
		assert_int_equal(s->r[9][l], x >= y ? 1 : 2);
	}
	free(s);
}

/* --- control flow ---------------------------------------------------------------------------- */

/* if A { r10 = 1; if B { r11 = 2 } else { r12 = 3 }; r13 += 1 } else { r14 = 4 }; r15 += 1 */
static const char nested_program[] = "if_icmp r0l, ult, r1, r2, 1\n"
				     "mov_imm r10, 1\n"
				     "if_icmp r0l, ueq, r3, 0, 1\n"
				     "mov_imm r11, 2\n"
				     "else_exec r0l, 1\n"
				     "mov_imm r12, 3\n"
				     "pop_exec r0l, 1\n"
				     "iadd r13, r13, 1\n"
				     "else_exec r0l, 1\n"
				     "mov_imm r14, 4\n"
				     "pop_exec r0l, 1\n"
				     "iadd r15, r15, 1\n"
				     "stop";

static void test_exec_nested(void **state)
{
	(void)state;
	for (unsigned trial = 0; trial < 300; trial++) {
		unsigned lanes = trial < 200 ? L : 1 + trial % L;
		uint32_t pa = trial == 0 ? 0 : trial == 1 ? ~0u : trial == 2 ? 0x55555555 : rnd();
		uint32_t pb = trial == 3 ? 0 : trial == 4 ? ~0u : rnd();
		struct usc_state *s = new_state(lanes);

		for (unsigned l = 0; l < L; l++) {
			s->r[1][l] = (pa >> l) & 1 ? 1 : 5; /* A: r1 < r2 */
			s->r[2][l] = 3;
			s->r[3][l] = (pb >> l) & 1 ? 0 : 9; /* B: r3 == 0 */
			for (unsigned r = 10; r < 16; r++)
				s->r[r][l] = 100 + r;
		}
		run_ok(nested_program, s);
		for (unsigned l = 0; l < L; l++) {
			bool present = l < lanes, a = (pa >> l) & 1, b = (pb >> l) & 1;
			uint32_t want[16] = { 0 };

			for (unsigned r = 10; r < 16; r++)
				want[r] = 100 + r;
			if (present) {
				if (a) {
					want[10] = 1;
					if (b)
						want[11] = 2;
					else
						want[12] = 3;
					want[13]++;
				} else {
					want[14] = 4;
				}
				want[15]++;
			}
			for (unsigned r = 10; r < 16; r++)
				if (s->r[r][l] != want[r])
					fail_msg("trial %u lane %u (A=%d B=%d present=%d): r%u = "
						 "%u, want %u",
						 trial, l, a, b, present, r, s->r[r][l], want[r]);
			/* the counter is back to zero where the lane exists */
			if (present)
				assert_int_equal(s->r[0][l] & 0xffff, 0);
		}
		free(s);
	}
}

/* Inside "if r9 != 0": do { r5++; r7 += r5 } while (r5 < r6) -- a loop per lane. */
static void test_exec_loops(void **state)
{
	(void)state;
	for (unsigned trial = 0; trial < 100; trial++) {
		struct usc_state *s = new_state(L);
		uint32_t outer = trial == 0 ? ~0u : rnd();

		for (unsigned l = 0; l < L; l++) {
			s->r[6][l] = 1 + rnd() % (trial < 50 ? 5 : 40);
			s->r[9][l] = (outer >> l) & 1;
		}
		run_ok("if_icmp r0l, nueq, r9, 0, 1\n"
		       "mov_imm r5, 0\n"
		       "mov_imm r7, 0\n"
		       "push_exec r0l, 2\n"
		       "loop:\n"
		       "iadd r5, r5, 1\n"
		       "iadd r7, r7, r5\n"
		       "while_icmp r0l, ult, r5, r6, 2\n"
		       "jmp_exec_any @loop\n"
		       "pop_exec r0l, 2\n"
		       "iadd r8, r5, 200\n"
		       "pop_exec r0l, 1\n"
		       "stop",
		       s);
		for (unsigned l = 0; l < L; l++) {
			uint32_t n = s->r[6][l];

			if ((outer >> l) & 1) {
				assert_int_equal(s->r[5][l], n);
				assert_int_equal(s->r[7][l], n * (n + 1) / 2);
				assert_int_equal(s->r[8][l], n + 200);
			} else {
				/* never entered: untouched */
				assert_int_equal(s->r[5][l], 0);
				assert_int_equal(s->r[8][l], 0);
			}
			assert_int_equal(s->r[0][l] & 0xffff, 0);
		}
		free(s);
	}
}

static void test_jumps_and_stops(void **state)
{
	struct usc_state *s = new_state(L);
	struct usc_result r;

	(void)state;
	/* jmp_exec_none jumps over work when no lane is active */
	for (unsigned l = 0; l < L; l++)
		s->r[1][l] = 7;
	run_ok("if_icmp r0l, ueq, r1, 0, 1\n" /* no lane has r1 == 0 */
	       "jmp_exec_none @skip\n"
	       "mov_imm r2, 99\n"
	       "skip:\n"
	       "pop_exec r0l, 1\n"
	       "mov_imm r3, 5\n"
	       "stop",
	       s);
	for (unsigned l = 0; l < L; l++) {
		assert_int_equal(s->r[2][l], 0);
		assert_int_equal(s->r[3][l], 5);
	}
	free(s);

	/* a loop with no way out stops at the instruction budget */
	s = new_state(L);
	r = run("top:\njmp_exec_any @top\nstop", s);
	assert_int_equal(r.status, USC_LIMIT);
	assert_int_equal(r.instructions, 100000);
	free(s);

	/* trap and undecodable bytes end the run with their status */
	s = new_state(L);
	assert_int_equal(run("trap", s).status, USC_TRAP);
	free(s);
	{
		uint8_t junk[] = { 0xff, 0xff, 0x88, 0x00 };
		struct usc_program *p = usc_program_create(junk, sizeof(junk));

		s = new_state(L);
		r = usc_run(p, s, 100);
		assert_int_equal(r.status, USC_BAD_INSTR);
		assert_int_equal(r.pc, 0);
		usc_program_destroy(p);
		free(s);
	}
}

/* --- SIMD group ------------------------------------------------------------------------------ */

static void test_simd(void **state)
{
	struct usc_state *s = new_state(L);

	(void)state;
	for (unsigned l = 0; l < L; l++) {
		s->r[1][l] = 1000 + l;
		s->r[2][l] = l % 3;
	}
	run_ok("simd_shuffle_xor r3, r1, 5\n"
	       "simd_shuffle_down r4, r1, 3\n"
	       "simd_shuffle_up r5, r1, 2\n"
	       "simd_shuffle r6, r1, 17\n"
	       "quad_shuffle r7, r1, 2\n"
	       "icmp_ballot r8, ueq, r2, 0\n"
	       "stop",
	       s);
	for (unsigned l = 0; l < L; l++) {
		uint32_t ballot = 0;

		for (unsigned k = 0; k < L; k++)
			ballot |= (k % 3 == 0) << k;
		assert_int_equal(s->r[3][l], 1000 + (l ^ 5));
		assert_int_equal(s->r[4][l], 1000 + (l + 3 < L ? l + 3 : l));
		assert_int_equal(s->r[5][l], 1000 + (l >= 2 ? l - 2 : l));
		assert_int_equal(s->r[6][l], 1017);
		assert_int_equal(s->r[7][l], 1000 + ((l & ~3u) | 2));
		assert_int_equal(s->r[8][l], ballot);
	}
	free(s);
}

static void test_simd_reductions(void **state)
{
	struct usc_state *s = new_state(L);

	(void)state;
	for (unsigned l = 0; l < L; l++) {
		s->r[1][l] = l * 3 + 1;
		s->r[2][l] = fbits((float)l * 0.25f);
	}
	s->r[0][5] = 1; /* lane 5 does not execute: it neither counts nor changes */
	s->r[9][5] = 0xdead;
	run_ok("simd_op r9, r1, simd, reduce, iadd\n"
	       "simd_op r10, r1, simd, prefix, iadd\n"
	       "simd_op r11, r1, quad, reduce, umax\n"
	       "simd_op r12, r2, simd, reduce, fadd\n"
	       "simd_op r13, r1, quad, prefix, xor\n"
	       "stop",
	       s);
	for (unsigned l = 0; l < L; l++) {
		uint32_t sum = 0, below = 0, qmax = 0, qxor = 0;
		float fsum = 0;

		if (l == 5) {
			assert_int_equal(s->r[9][l], 0xdead);
			continue;
		}
		for (unsigned k = 0; k < L; k++) {
			if (k == 5)
				continue;
			sum += k * 3 + 1;
			fsum += (float)k * 0.25f; /* exact: quarters add exactly */
			if (k < l)
				below += k * 3 + 1;
			if ((k & ~3u) == (l & ~3u)) {
				qmax = k * 3 + 1 > qmax ? k * 3 + 1 : qmax;
				if (k < l)
					qxor ^= k * 3 + 1;
			}
		}
		assert_int_equal(s->r[9][l], sum);
		assert_int_equal(s->r[10][l], below);
		assert_int_equal(s->r[11][l], qmax);
		assert_true(bitsf(s->r[12][l]) == fsum);
		assert_int_equal(s->r[13][l], qxor);
	}
	free(s);
}

/*
 * The shuffles beyond test_simd.  simd_shuffle_rotate_up follows applegpu's
 * exec; with one delta for the whole SIMD group that is Metal's
 * simd_shuffle_rotate_up, lane l reading lane (l - delta) mod 32.  The quad
 * forms have no applegpu exec and follow Metal: within the quad, lane q
 * reads q - delta (up) or q + delta (down), keeping its own value past the
 * quad's edge, or (q - delta) mod 4 (rotate_up).
 */
static void test_shuffle_forms(void **state)
{
	struct usc_state *s = new_state(L);

	(void)state;
	for (unsigned l = 0; l < L; l++) {
		s->r[1][l] = 1000 + l;
		s->r[2][l] = l % 2;
		s->r[7][l] = 77;
	}
	run_ok("simd_shuffle_rotate_up r3, r1, 3\n"
	       "quad_shuffle_up r4, r1, 1\n"
	       "quad_shuffle_down r5, r1, 2\n"
	       "quad_shuffle_rotate_up r6, r1, 3\n"
	       /* only even lanes execute; they still read the odd lanes' values */
	       "if_icmp r0l, ueq, r2, 0, 1\n"
	       "simd_shuffle_rotate_up r7, r1, 1\n"
	       "pop_exec r0l, 1\n"
	       "stop",
	       s);
	for (unsigned l = 0; l < L; l++) {
		unsigned q = l % 4, quad = l - q;

		assert_int_equal(s->r[3][l], 1000 + (l + L - 3) % L);
		assert_int_equal(s->r[4][l], 1000 + (q >= 1 ? l - 1 : l));
		assert_int_equal(s->r[5][l], 1000 + (q + 2 < 4 ? l + 2 : l));
		assert_int_equal(s->r[6][l], 1000 + quad + (q + 4 - 3) % 4);
		assert_int_equal(s->r[7][l], l % 2 ? 77u : 1000 + (l + L - 1) % L);
	}
	free(s);
}

/* Morton code by spreading bits with masks, not bit by bit as the simulator does. */
static uint32_t ref_spread(uint32_t x)
{
	x &= 0xffff;
	x = (x | x << 8) & 0x00ff00ffu;
	x = (x | x << 4) & 0x0f0f0f0fu;
	x = (x | x << 2) & 0x33333333u;
	x = (x | x << 1) & 0x55555555u;
	return x;
}

/* intl: A's bits to the even positions, B's to the odd (Mesa nir_interleave_agx). */
static void test_intl(void **state)
{
	struct usc_state *s = new_state(L);

	(void)state;
	for (unsigned l = 0; l < L; l++) {
		s->r[1][l] = l < 4 ? (uint32_t[]){ 0, 0xffff, 0xffff0000u, 0x00015555u }[l] : rnd();
		s->r[2][l] = 0xdeadbeef;
	}
	run_ok("intl r3, r1l, r1h\nintl r2l, r1h, 3\nstop", s);
	for (unsigned l = 0; l < L; l++) {
		uint32_t lo = s->r[1][l] & 0xffff, hi = s->r[1][l] >> 16;

		assert_int_equal(s->r[3][l], ref_spread(lo) | ref_spread(hi) << 1);
		/* a 16-bit destination keeps the low half; the high half is untouched */
		assert_int_equal(s->r[2][l],
				 0xdead0000u | ((ref_spread(hi) | ref_spread(3) << 1) & 0xffff));
	}
	free(s);
}

/*
 * Where element e (0, 1) of lane l sits in the 8x8 simdgroup_matrix, as
 * metal-flash-attention's morton_order writes it (from Apple patent
 * US11256518B2): quad q = l / 4; row 4 * (q / 4) + (l / 2) % 4, column
 * 2 * (q & 2) + 2 * (l % 2) + e.
 */
static void ref_matrix_slot(unsigned l, unsigned e, unsigned *row, unsigned *col)
{
	unsigned q = l / 4;

	*row = (q / 4) * 4 + (l / 2) % 4;
	*col = (q & 2) * 2 + (l % 2) * 2 + e;
}

static int mat_a(unsigned r, unsigned c)
{
	return (int)((r * 8 + c) % 7) - 3;
}

static int mat_b(unsigned r, unsigned c)
{
	return (int)((r + 2 * c) % 5) - 2;
}

static int mat_c(unsigned r, unsigned c)
{
	return (int)r - (int)c;
}

/* D = A x B + C, every term a small integer, so the result is exact in f16 and f32. */
static int mat_d(unsigned r, unsigned c, int sign_a)
{
	int sum = mat_c(r, c);

	for (unsigned k = 0; k < 8; k++)
		sum += sign_a * mat_a(r, k) * mat_b(k, c);
	return sum;
}

static void test_matrix_fmadd(void **state)
{
	struct usc_state *s = new_state(L);

	(void)state;
	/* f32: pairs r10_r11 (A), r12_r13 (B), r14_r15 (C); f16: pairs of halves r16.. */
	for (unsigned l = 0; l < L; l++) {
		for (unsigned e = 0; e < 2; e++) {
			unsigned row, col;

			ref_matrix_slot(l, e, &row, &col);
			s->r[10 + e][l] = fbits((float)mat_a(row, col));
			s->r[12 + e][l] = fbits((float)mat_b(row, col));
			s->r[14 + e][l] = fbits((float)mat_c(row, col));
			s->r[16][l] |= (uint32_t)ref_half(mat_a(row, col)) << (16 * e);
			s->r[17][l] |= (uint32_t)ref_half(mat_b(row, col)) << (16 * e);
			s->r[18][l] |= (uint32_t)ref_half(mat_c(row, col)) << (16 * e);
		}
	}
	run_ok("simd_matrix_fmadd32 r20_r21, r10_r11, r12_r13, r14_r15\n"
	       "simd_matrix_fmadd32 r22_r23, r10_r11.neg, r12_r13, r14_r15\n"
	       "simd_matrix_fmadd16 r24l_r24h, r16l_r16h, r17l_r17h, r18l_r18h\n"
	       "stop",
	       s);
	for (unsigned l = 0; l < L; l++) {
		for (unsigned e = 0; e < 2; e++) {
			unsigned row, col;

			ref_matrix_slot(l, e, &row, &col);
			assert_int_equal(s->r[20 + e][l], fbits((float)mat_d(row, col, 1)));
			assert_int_equal(s->r[22 + e][l], fbits((float)mat_d(row, col, -1)));
			assert_int_equal((s->r[24][l] >> (16 * e)) & 0xffff,
					 ref_half(mat_d(row, col, 1)));
		}
	}
	/* the f32 form into halves is not something anyone has described */
	assert_int_equal(
	    run("simd_matrix_fmadd32 r24l_r24h, r10_r11, r12_r13, r14_r15\nstop", s).status,
	    USC_BAD_INSTR);
	free(s);
}

static void test_special_registers(void **state)
{
	struct usc_state *s = new_state(20);

	(void)state;
	s->dispatch.threadgroup_position[0] = 3;
	s->dispatch.threadgroup_position[1] = 2;
	s->dispatch.threads_per_threadgroup[0] = 8;
	s->dispatch.threads_per_threadgroup[1] = 16;
	s->dispatch.simdgroup_index = 1;
	run_ok("get_sr r1, sr80\nget_sr r2, sr81\nget_sr r3, sr52\nget_sr r4, sr51\nstop", s);
	for (unsigned l = 0; l < 20; l++) {
		unsigned linear = 32 + l;

		assert_int_equal(s->r[1][l], 3 * 8 + linear % 8);
		assert_int_equal(s->r[2][l], 2 * 16 + linear / 8);
		assert_int_equal(s->r[3][l], l);
		assert_int_equal(s->r[4][l], linear);
	}
	for (unsigned l = 20; l < L; l++)
		assert_int_equal(s->r[1][l], 0); /* absent lanes never run */
	free(s);
}

/* --- memory ------------------------------------------------------------------------------------
 */

struct flat {
	uint64_t base;
	uint8_t bytes[4096];
};

static bool flat_read(void *ctx, uint64_t addr, void *dst, unsigned size)
{
	struct flat *f = ctx;

	if (addr < f->base || addr - f->base + size > sizeof(f->bytes))
		return false;
	memcpy(dst, f->bytes + (addr - f->base), size);
	return true;
}

static bool flat_write(void *ctx, uint64_t addr, const void *src, unsigned size)
{
	struct flat *f = ctx;

	if (addr < f->base || addr - f->base + size > sizeof(f->bytes))
		return false;
	memcpy(f->bytes + (addr - f->base), src, size);
	return true;
}

static void *flat_translate(void *ctx, uint64_t addr, size_t size, bool write)
{
	struct flat *f = ctx;

	(void)write;
	if (addr < f->base || addr - f->base + size > sizeof(f->bytes))
		return NULL;
	return f->bytes + (addr - f->base);
}

static struct usc_state *memory_state(struct flat *f)
{
	struct usc_state *s = new_state(L);

	f->base = 0x100000000ull;
	for (unsigned i = 0; i < sizeof(f->bytes); i++)
		f->bytes[i] = (uint8_t)(i * 7 + 3);
	s->memory = (struct usc_memory){ .read = flat_read, .write = flat_write, .ctx = f };
	s->u[8] = (uint32_t)f->base;
	s->u[9] = (uint32_t)(f->base >> 32);
	for (unsigned l = 0; l < L; l++)
		s->r[1][l] = l; /* per-lane index */
	return s;
}

static void test_device_memory(void **state)
{
	struct flat *f = malloc(sizeof(*f));
	struct usc_state *s = memory_state(f);
	struct usc_result r;

	(void)state;
	run_ok("device_load 0, i32, xyzw, r4_r5_r6_r7, u8_u9, r1, unsigned, lsl 2\n"
	       "device_load 0, i16, xz, r8l_r8h, u8_u9, r1, unsigned\n"
	       "device_load 0, u8norm, x, r9, u8_u9, 5, signed\n"
	       "device_load 0, i8, y, r10l, u8_u9, r1, unsigned\n"
	       "stop",
	       s);
	for (unsigned l = 0; l < L; l++) {
		const uint8_t *m = f->bytes;

		for (unsigned k = 0; k < 4; k++) {
			/* offset l, scaled by 4 bytes and the extra lsl 2 */
			uint32_t want;

			memcpy(&want, m + (l * 4 + k) * 4, 4);
			assert_int_equal(s->r[4 + k][l], want);
		}
		assert_int_equal(s->r[8][l] & 0xffff, m[l * 2] | m[l * 2 + 1] << 8);
		assert_int_equal(s->r[8][l] >> 16, m[(l + 2) * 2] | m[(l + 2) * 2 + 1] << 8);
		assert_true(bitsf(s->r[9][l]) == (float)(m[5] / 255.0));
		assert_int_equal(s->r[10][l] & 0xffff, m[l + 1]);
	}

	/* stores go where loads come from, only for executing lanes */
	for (unsigned l = 0; l < L; l++)
		s->r[4][l] = 0xabc00000u + l;
	s->r[0][3] = 1; /* lane 3 disabled */
	run_ok("device_store 0, i32, x, r4, u8_u9, r1, unsigned, 0\nstop", s);
	for (unsigned l = 0; l < L; l++) {
		uint32_t got;

		memcpy(&got, f->bytes + l * 4, 4);
		if (l == 3)
			assert_int_not_equal(got, 0xabc00000u + l);
		else
			assert_int_equal(got, 0xabc00000u + l);
	}

	/* the host-pointer fast path gives the same results */
	s->memory.translate = flat_translate;
	for (unsigned l = 0; l < L; l++)
		s->r[5][l] = 0;
	run_ok("device_load 0, i32, xy, r5_r6, u8_u9, r1, unsigned, lsl 1\nstop", s);
	for (unsigned l = 0; l < L; l++) {
		uint32_t want;

		if (l == 3)
			continue;
		memcpy(&want, f->bytes + (l * 2) * 4, 4);
		assert_int_equal(s->r[5][l], want);
	}

	/* an address outside memory faults, with the address, on either path */
	s->r[0][3] = 0;
	r = run("device_load 0, i32, x, r4, u8_u9, 5000, signed\nstop", s);
	assert_int_equal(r.status, USC_FAULT);
	assert_int_equal(r.fault_address, f->base + 5000 * 4);
	assert_false(r.fault_write);
	free(s);
	free(f);
}

/*
 * Memory barriers order a SIMD group's accesses: a value stored before one
 * is what a load after it sees.  Doorbells and async copies are decoded but
 * end the run with a named error: what they do is not public enough.
 */
static void test_barriers_and_unsimulated(void **state)
{
	static const char *const barriers[] = {
		"memory_barrier",	   "memory_barrier_2",	"memory_barrier_3",
		"device_barrier_1",	   "device_barrier_2",	"image_barrier_1",
		"image_barrier_2",	   "image_barrier_3",	"image_barrier_4",
		"flush_memory_to_texture", "unknown_barrier_1", "unknown_barrier_2",
	};
	struct flat *f = malloc(sizeof(*f));
	struct usc_state *s = memory_state(f);
	struct usc_result r;
	char text[256];

	(void)state;
	for (unsigned b = 0; b < sizeof(barriers) / sizeof(barriers[0]); b++) {
		for (unsigned l = 0; l < L; l++) {
			s->r[4][l] = 0x5a000000u + b * 0x100 + l;
			s->r[5][l] = 0;
		}
		snprintf(text, sizeof(text),
			 "device_store 0, i32, x, r4, u8_u9, r1, unsigned, 0\n%s\n"
			 "device_load 0, i32, x, r5, u8_u9, r1, unsigned\nwait 0\nstop",
			 barriers[b]);
		run_ok(text, s);
		for (unsigned l = 0; l < L; l++)
			assert_int_equal(s->r[5][l], 0x5a000000u + b * 0x100 + l);
	}
	r = run("doorbell 32\nstop", s);
	assert_int_equal(r.status, USC_BAD_INSTR);
	assert_non_null(strstr(r.message, "doorbell"));
	r = run("jmp_if_skipping_doorbell pc+6\ndoorbell 48\nstop", s);
	assert_int_equal(r.status, USC_BAD_INSTR);
	assert_non_null(strstr(r.message, "jmp_if_skipping_doorbell"));
	r = run("async_load copy_1d, r4_r5, r8_r9_r10\nstop", s);
	assert_int_equal(r.status, USC_BAD_INSTR);
	assert_non_null(strstr(r.message, "async_load"));
	free(s);
	free(f);
}

/* Reference decoders for the packed formats, written from their definitions. */
static float ref_small_float(uint32_t v, int mbits)
{
	int e = (int)((v >> mbits) & 31);
	uint32_t m = v & ((1u << mbits) - 1);

	if (e == 31)
		return m ? NAN : INFINITY;
	/* denormals: 0.m * 2^-14; normals: 1.m * 2^(e-15) */
	return e ? ldexpf(1.0f + (float)m / (float)(1 << mbits), e - 15)
		 : ldexpf((float)m / (float)(1 << mbits), -14);
}

static void test_packed_formats(void **state)
{
	struct flat *f = malloc(sizeof(*f));
	struct usc_state *s = memory_state(f);

	(void)state;
	for (unsigned i = 0; i < 64; i++) {
		uint32_t w = rnd();

		if (i < 4) /* rgb9e5 with small exponents too */
			w = (w & 0x07ffffff) | (i << 27);
		memcpy(f->bytes + i * 4, &w, 4);
	}
	for (unsigned l = 0; l < L; l++)
		s->r[2][l] = 32 + l;
	run_ok("device_load 0, rgb10a2, xyzw, r4_r5_r6_r7, u8_u9, r1, unsigned\n"
	       "device_load 0, rg11b10f, xyz, r8_r9_r10, u8_u9, r1, unsigned\n"
	       "device_load 0, rgb9e5, xyz, r12_r13_r14, u8_u9, r1, unsigned\n"
	       "device_load 0, srgba8, xyzw, r16_r17_r18_r19, u8_u9, r2, unsigned\n"
	       "stop",
	       s);
	for (unsigned l = 0; l < L; l++) {
		uint32_t w, b;

		memcpy(&w, f->bytes + l * 4, 4);
		for (unsigned c = 0; c < 3; c++)
			assert_true(bitsf(s->r[4 + c][l]) ==
				    (float)(((w >> (10 * c)) & 1023) / 1023.0));
		assert_true(bitsf(s->r[7][l]) == (float)((w >> 30) / 3.0));
		for (unsigned c = 0; c < 3; c++) {
			float want =
			    c < 2 ? ref_small_float(w >> (11 * c), 6) : ref_small_float(w >> 22, 5);
			float got = bitsf(s->r[8 + c][l]);

			assert_true(got == want || (got != got && want != want));
			assert_true(bitsf(s->r[12 + c][l]) ==
				    (float)((double)((w >> (9 * c)) & 511) / 512.0 *
					    pow(2.0, (double)(w >> 27) - 15)));
		}
		/* srgba8: one-byte items, the offset r2 (= 32 + l) counts them */
		for (unsigned c = 0; c < 4; c++) {
			double x;

			b = f->bytes[32 + l + c];
			x = b / 255.0;
			if (c < 3)
				x = x <= 0.04045 ? x / 12.92 : pow((x + 0.055) / 1.055, 2.4);
			assert_true(bitsf(s->r[16 + c][l]) == (float)x);
		}
	}
	free(s);
	free(f);
}

static uint32_t flat_word(const struct flat *f, unsigned i)
{
	uint32_t w;

	memcpy(&w, f->bytes + 4 * i, 4);
	return w;
}

/* Stores of the packed formats: words checked against encodings worked out by hand. */
static void test_packed_stores(void **state)
{
	struct flat *f = malloc(sizeof(*f));
	struct usc_state *s = memory_state(f);
	const float in[4] = { 1.0f, 0.5f, 0.25f, 1.0f / 3 };

	(void)state;
	for (unsigned l = 0; l < L; l++)
		for (unsigned k = 0; k < 4; k++)
			memcpy(&s->r[4 + k][l], &in[k], 4);
	run_ok("device_store 0, rgb10a2, xyzw, r4_r5_r6_r7, u8_u9, r1, unsigned, 0\nstop", s);
	/* 1023, 0.5 * 1023 = 511.5 to even 512, 0.25 * 1023 = 255.75 to 256, a = 1 */
	for (unsigned l = 0; l < L; l++)
		assert_int_equal(flat_word(f, l), 1023u | 512u << 10 | 256u << 20 | 1u << 30);

	run_ok("device_store 0, rg11b10f, xyz, r4_r5_r6, u8_u9, r1, unsigned, 0\nstop", s);
	/* 1.0 = exponent 15, 0.5 = 14, 0.25 = 13, mantissas 0 */
	assert_int_equal(flat_word(f, 3), 15u << 6 | (14u << 6) << 11 | (13u << 5) << 22);
	/* and it loads back as it was */
	run_ok("device_load 0, rg11b10f, xyz, r8_r9_r10, u8_u9, r1, unsigned\nstop", s);
	assert_true(bitsf(s->r[9][3]) == 0.5f); /* lane 3 reads word 3 */

	run_ok("device_store 0, rgb9e5, xyz, r4_r5_r6, u8_u9, r1, unsigned, 0\nstop", s);
	/* the largest, 1.0, sets the shared exponent 16: 1.0 = 256 * 2^-8 */
	assert_int_equal(flat_word(f, 5), 16u << 27 | 256u | 128u << 9 | 64u << 18);

	/* srgba8: the sRGB curve for colour (0.5 -> 187.5, to even 188), alpha linear */
	for (unsigned l = 0; l < L; l++)
		for (unsigned k = 0; k < 4; k++)
			memcpy(&s->r[4 + k][l], &in[1], 4);
	run_ok("device_store 0, srgba8, xyzw, r4_r5_r6_r7, u8_u9, r1, unsigned, lsl 2, 0\nstop", s);
	assert_int_equal(flat_word(f, 2), 188u | 188u << 8 | 188u << 16 | 128u << 24);

	/* part of a packed format is not a store we know */
	assert_int_equal(
	    run("device_store 0, rgb10a2, xy, r4_r5, u8_u9, r1, unsigned, 0\nstop", s).status,
	    USC_BAD_INSTR);
	free(s);
	free(f);
}

/* The reference for an atomic: the new word for op from old, operand and compare value. */
static uint32_t atomic_reference(unsigned op, uint32_t old, uint32_t v, uint32_t cmp)
{
	int32_t so = (int32_t)old, sv = (int32_t)v;

	switch (op) {
	case 0:
		return old + v;
	case 1:
		return old - v;
	case 2:
		return v;
	case 3:
		return old == cmp ? v : old;
	case 4:
		return v < old ? v : old;
	case 5:
		return (uint32_t)(sv < so ? sv : so);
	case 6:
		return v > old ? v : old;
	case 7:
		return (uint32_t)(sv > so ? sv : so);
	case 8:
		return old & v;
	case 9:
		return old | v;
	default:
		return old ^ v;
	}
}

/* Device atomics: every op on a word per lane, through both memory paths; then contention. */
static void test_atomics(void **state)
{
	static const char *const ops[] = { "add",  "sub",  "xchg", "cmpxchg", "umin", "imin",
					   "umax", "imax", "and",  "or",      "xor" };
	struct flat *f = malloc(sizeof(*f));
	char text[160];

	(void)state;
	for (int fast = 0; fast < 2; fast++) {
		for (unsigned op = 0; op < 11; op++) {
			struct usc_state *s = memory_state(f);
			uint32_t before[L];

			if (fast)
				s->memory.translate = flat_translate;
			for (unsigned l = 0; l < L; l++) {
				s->r[2][l] = rnd() % 4 ? rnd() : 0x80000000u;
				memcpy(&before[l], f->bytes + l * 4, 4);
				/* cmpxchg: half the lanes compare equal */
				s->r[3][l] = l % 2 ? before[l] : rnd();
				s->r[4][l] = 0xdeadu;
			}
			snprintf(text, sizeof(text),
				 "atomic 0, %s, r4, %s, u8_u9, r1, unsigned, coherent1\nstop",
				 ops[op], op == 3 ? "r2_r3" : "r2");
			run_ok(text, s);
			for (unsigned l = 0; l < L; l++) {
				uint32_t after;

				memcpy(&after, f->bytes + l * 4, 4);
				assert_int_equal(s->r[4][l], before[l]);
				assert_int_equal(
				    after, atomic_reference(op, before[l], s->r[2][l], s->r[3][l]));
			}
			free(s);
		}
	}

	/* every lane on one word, in lane order; no old value asked for with "_" */
	{
		struct usc_state *s = memory_state(f);
		uint32_t start, sum, after;

		memcpy(&start, f->bytes, 4);
		sum = start;
		for (unsigned l = 0; l < L; l++)
			s->r[2][l] = l + 1;
		run_ok("atomic 0, add, r4, r2, u8_u9, 0, signed, coherent1\n"
		       "atomic 0, add, _, r2, u8_u9, 0, signed, coherent1\nstop",
		       s);
		for (unsigned l = 0; l < L; l++) {
			assert_int_equal(s->r[4][l], sum);
			sum += l + 1;
		}
		memcpy(&after, f->bytes, 4);
		assert_int_equal(after, start + 2 * (L * (L + 1) / 2));
		/* outside memory: a fault */
		s->u[9] = 7;
		assert_int_equal(
		    run("atomic 0, add, r4, r2, u8_u9, 0, signed, coherent1\nstop", s).status,
		    USC_FAULT);
		free(s);
	}

	/* threadgroup memory: a byte address in r5l, one word per four lanes */
	{
		struct usc_state *s = new_state(L);
		uint8_t shared[64] = { 0 };
		uint32_t word;

		s->threadgroup_memory = shared;
		s->threadgroup_memory_size = sizeof(shared);
		for (unsigned l = 0; l < L; l++) {
			s->r[5][l] = 4 * (l / 4);
			s->r[2][l] = 1u << (l % 4);
		}
		run_ok("threadgroup_atomic or, r4, r2, r5l, 0\nstop", s);
		for (unsigned w = 0; w < L / 4; w++) {
			memcpy(&word, shared + 4 * w, 4);
			assert_int_equal(word, 0xf);
		}
		for (unsigned l = 0; l < L; l++)
			assert_int_equal(s->r[4][l], (1u << (l % 4)) - 1);
		s->r[5][0] = 62; /* past the end */
		assert_int_equal(run("threadgroup_atomic add, r4, r2, r5l, 0\nstop", s).status,
				 USC_FAULT);
		free(s);
	}
	free(f);
}

/* The element of (x, y) in a small twiddled tile, worked out here: x bits even, y bits odd. */
static unsigned morton8(unsigned x, unsigned y)
{
	unsigned out = 0;

	for (unsigned i = 0; i < 3; i++)
		out |= ((x >> i) & 1) << (2 * i) | ((y >> i) & 1) << (2 * i + 1);
	return out;
}

/*
 * texture_load from a linear RGBA8 unorm texture and a twiddled 2D array
 * of R32 uint; outside the texture, or past its levels, the sampler's
 * border.
 */
static void test_texture_load(void **state)
{
	struct flat *f = malloc(sizeof(*f));
	struct usc_state *s = memory_state(f);
	uint8_t textures[2][24] = { { 0 } }, samplers[1][24] = { { 0 } };
	struct agx_cmd_texture linear = { .dimension = AGX_CMD_TEXTURE_DIM_TEX_2D,
					  .layout = AGX_CMD_LAYOUT_LINEAR,
					  .channels = AGX_CMD_CHANNELS_R8G8B8A8,
					  .type = AGX_CMD_TEXTURE_TYPE_UNORM,
					  .swizzle_r = AGX_CMD_CHANNEL_R,
					  .swizzle_g = AGX_CMD_CHANNEL_G,
					  .swizzle_b = AGX_CMD_CHANNEL_B,
					  .swizzle_a = AGX_CMD_CHANNEL_A,
					  .width = 4,
					  .height = 3,
					  .address = 0x100000000ull + 0x100,
					  .stride = 16 };
	struct agx_cmd_texture tiled = { .dimension = AGX_CMD_TEXTURE_DIM_TEX_2D_ARRAY,
					 .layout = AGX_CMD_LAYOUT_TWIDDLED,
					 .channels = AGX_CMD_CHANNELS_R32,
					 .type = AGX_CMD_TEXTURE_TYPE_UINT,
					 .swizzle_r = AGX_CMD_CHANNEL_R,
					 .swizzle_g = AGX_CMD_CHANNEL_ZERO,
					 .swizzle_b = AGX_CMD_CHANNEL_ZERO,
					 .swizzle_a = AGX_CMD_CHANNEL_ONE,
					 .width = 8,
					 .height = 8,
					 .address = 0x100000000ull + 0x400,
					 .depth = 2 };
	struct agx_cmd_sampler white = { AGX_CMD_SAMPLER_DEFAULTS,
					 .border = AGX_CMD_BORDER_OPAQUE_WHITE };

	(void)state;
	agx_cmd_texture_pack(textures[0], &linear);
	agx_cmd_texture_pack(textures[1], &tiled);
	agx_cmd_sampler_pack(samplers[0], &white);
	s->textures = &textures[0][0];
	s->num_textures = 2;
	s->samplers = &samplers[0][0];
	s->num_samplers = 1;
	for (unsigned l = 0; l < L; l++) {
		s->r[8][l] = l % 5; /* x = 4 is past the edge */
		s->r[9][l] = l / 5 % 3;
		s->r[10][l] = l == 31; /* lane 31 asks for level 1, which is not there */
	}
	run_ok(
	    "texture_load r4_r5_r6_r7, ts0, ss0, tex_2d, r8_r9, lod_min, r10l, xyzw, 0, 0, 0, 0, "
	    "12, 0\n"
	    "texture_load r12l_r12h, ts0, ss0, tex_2d, r8_r9, lod_min, r10l, yw, 0, 0, 0, 0, 12, "
	    "0\n"
	    "stop",
	    s);
	for (unsigned l = 0; l < L; l++) {
		unsigned x = l % 5, y = l / 5 % 3;
		bool border = x == 4 || l == 31;

		for (unsigned c = 0; c < 4; c++) {
			float want =
			    border ? 1.0f : (float)(f->bytes[0x100 + y * 16 + x * 4 + c] / 255.0);

			assert_true(bitsf(s->r[4 + c][l]) == want);
		}
		/* y and w packed into two halves, as f16 */
		assert_int_equal(
		    s->r[12][l] & 0xffff,
		    fp16_from_double(border ? 1.0 : f->bytes[0x100 + y * 16 + x * 4 + 1] / 255.0));
	}

	/* the array: layer 1 of 8x8, one 256-byte layer after another */
	for (unsigned l = 0; l < L; l++) {
		s->r[8][l] = l % 8;
		s->r[9][l] = l / 8;
		s->r[10][l] = 1; /* the layer, in the low half after the coordinates */
	}
	run_ok("texture_load r4_r5_r6_r7, ts1, ss0, tex_2d_array, r8l_r8h_r9l_r9h_r10l, auto_lod, "
	       "0, xyzw, 0, 0, 0, 0, 12, 0\n"
	       "stop",
	       s);
	for (unsigned l = 0; l < L; l++) {
		uint32_t want;

		memcpy(&want, f->bytes + 0x400 + 256 + 4 * morton8(l % 8, l / 8), 4);
		assert_int_equal(s->r[4][l], want);
		assert_int_equal(s->r[5][l], 0);
		assert_int_equal(s->r[7][l], 1); /* the integer one */
	}

	/* state that is not there */
	s->num_textures = 1;
	assert_int_equal(run("texture_load r4, ts1, ss0, tex_2d_array, r8l_r8h_r9l_r9h_r10l, "
			     "auto_lod, 0, x, 0, 0, 0, 0, 12, 0\nstop",
			     s)
			     .status,
			 USC_BAD_INSTR);
	free(s);
	free(f);
}

/*
 * image_write: texels encoded by the format into a twiddled RGBA8 unorm
 * texture (bytes checked where Morton order puts them) and a linear RG16
 * sint one from 16-bit registers; a write outside the texture writes
 * nothing.
 */
static void test_image_write(void **state)
{
	struct flat *f = malloc(sizeof(*f));
	struct usc_state *s = memory_state(f);
	uint8_t textures[2][24] = { { 0 } };
	struct agx_cmd_texture rgba = { .dimension = AGX_CMD_TEXTURE_DIM_TEX_2D,
					.layout = AGX_CMD_LAYOUT_TWIDDLED,
					.channels = AGX_CMD_CHANNELS_R8G8B8A8,
					.type = AGX_CMD_TEXTURE_TYPE_UNORM,
					.swizzle_g = AGX_CMD_CHANNEL_G,
					.swizzle_b = AGX_CMD_CHANNEL_B,
					.swizzle_a = AGX_CMD_CHANNEL_A,
					.width = 8,
					.height = 8,
					.address = 0x100000000ull + 0x800 };
	struct agx_cmd_texture rg16 = { .dimension = AGX_CMD_TEXTURE_DIM_TEX_2D,
					.layout = AGX_CMD_LAYOUT_LINEAR,
					.channels = AGX_CMD_CHANNELS_R16G16,
					.type = AGX_CMD_TEXTURE_TYPE_SINT,
					.width = 8,
					.height = 4,
					.address = 0x100000000ull + 0xc00,
					.stride = 32 };

	(void)state;
	memset(f->bytes + 0x800, 0xee, 0x800);
	agx_cmd_texture_pack(textures[0], &rgba);
	agx_cmd_texture_pack(textures[1], &rg16);
	s->textures = &textures[0][0];
	s->num_textures = 2;
	for (unsigned l = 0; l < L; l++) {
		float c[4] = { (float)l / 31, 0.5f, -1.0f, 2.0f }; /* the last two clamp */

		s->r[8][l] = l % 8;
		s->r[9][l] = l / 8 + (l == 31 ? 8 : 0); /* lane 31 writes past the bottom */
		for (unsigned k = 0; k < 4; k++)
			memcpy(&s->r[4 + k][l], &c[k], 4);
		s->r[10][l] = (uint32_t)(-(int)l) & 0xffff; /* r10l = -l, r10h = l */
		s->r[10][l] |= l << 16;
		s->r[11][l] = 0;
	}
	run_ok("image_write r4_r5_r6_r7, ts0, r8_r9, 0, tex_2d, coherent0, 0\n"
	       "image_write r10l_r10h_r11l_r11h, ts1, r8_r9, 0, tex_2d, coherent0, 0\n"
	       "stop",
	       s);
	for (unsigned l = 0; l < 31; l++) {
		const uint8_t *t = f->bytes + 0x800 + 4 * morton8(l % 8, l / 8);
		int16_t rg[2];

		assert_int_equal(t[0], (unsigned)nearbyint((double)((float)l / 31) * 255));
		assert_int_equal(t[1], 128); /* 127.5 to even */
		assert_int_equal(t[2], 0);
		assert_int_equal(t[3], 255);
		memcpy(rg, f->bytes + 0xc00 + (l / 8) * 32 + (l % 8) * 4, 4);
		assert_int_equal(rg[0], -(int)l);
		assert_int_equal(rg[1], (int)l);
	}
	/* lane 31's (7, 11) is outside both: the texel (7, 3) keeps its old bytes */
	assert_int_equal(f->bytes[0x800 + 4 * morton8(7, 3)], 0xee);

	/* R11G11B10 float, packed whole: 1.0, 0.5, 0.25 are exponents 15, 14, 13 */
	rg16.channels = AGX_CMD_CHANNELS_R11G11B10;
	rg16.type = AGX_CMD_TEXTURE_TYPE_FLOAT;
	agx_cmd_texture_pack(textures[1], &rg16);
	for (unsigned l = 0; l < L; l++) {
		const float c[3] = { 1.0f, 0.5f, 0.25f };

		for (unsigned k = 0; k < 3; k++)
			memcpy(&s->r[4 + k][l], &c[k], 4);
	}
	run_ok("image_write r4_r5_r6_r7, ts1, r8_r9, 0, tex_2d, coherent0, 0\nstop", s);
	{
		uint32_t w;

		memcpy(&w, f->bytes + 0xc00 + 2 * 32 + 3 * 4, 4); /* (3, 2) */
		assert_int_equal(w, 15u << 6 | (14u << 6) << 11 | (13u << 5) << 22);
	}
	free(s);
	free(f);
}

static void put_float(struct flat *f, unsigned offset, float v)
{
	memcpy(f->bytes + offset, &v, 4);
}

/*
 * texture_sample: nearest and bilinear filtering, wrap modes and the
 * border, an explicit LOD and one from the quad's derivatives, over a
 * linear 4x4 R32 float texture (x + 10y) and a twiddled one with three
 * levels (level n holds 100n + x + 10y).
 */
static void test_texture_sample(void **state)
{
	struct flat *f = malloc(sizeof(*f));
	struct usc_state *s = memory_state(f);
	uint8_t textures[2][24] = { { 0 } }, samplers[3][24] = { { 0 } };
	struct agx_cmd_texture t = { .dimension = AGX_CMD_TEXTURE_DIM_TEX_2D,
				     .layout = AGX_CMD_LAYOUT_LINEAR,
				     .channels = AGX_CMD_CHANNELS_R32,
				     .type = AGX_CMD_TEXTURE_TYPE_FLOAT,
				     .swizzle_r = AGX_CMD_CHANNEL_R,
				     .swizzle_g = AGX_CMD_CHANNEL_ZERO,
				     .swizzle_b = AGX_CMD_CHANNEL_ZERO,
				     .swizzle_a = AGX_CMD_CHANNEL_ONE,
				     .width = 4,
				     .height = 4,
				     .address = 0x100000000ull + 0x200,
				     .stride = 16 };
	struct agx_cmd_sampler nearest = { AGX_CMD_SAMPLER_DEFAULTS, .wrap_s = AGX_CMD_WRAP_REPEAT,
					   .wrap_t = AGX_CMD_WRAP_CLAMP_TO_EDGE };
	struct agx_cmd_sampler linear = { AGX_CMD_SAMPLER_DEFAULTS,
					  .magnify = AGX_CMD_FILTER_LINEAR,
					  .minify = AGX_CMD_FILTER_LINEAR,
					  .wrap_s = AGX_CMD_WRAP_CLAMP_TO_BORDER,
					  .wrap_t = AGX_CMD_WRAP_MIRRORED_REPEAT,
					  .border = AGX_CMD_BORDER_OPAQUE_WHITE };
	struct agx_cmd_sampler mips = { AGX_CMD_SAMPLER_DEFAULTS,
					.mip_filter = AGX_CMD_MIP_FILTER_NEAREST,
					.max_lod = 2 * 64 };
	static const unsigned level_offset[3] = { 0, 128, 256 };

	(void)state;
	for (unsigned y = 0; y < 4; y++)
		for (unsigned x = 0; x < 4; x++)
			put_float(f, 0x200 + y * 16 + x * 4, (float)(x + 10 * y));
	/* the twiddled chain at 0x400: 4x4, 2x2, 1x1, Morton order in each */
	for (unsigned n = 0; n < 3; n++)
		for (unsigned y = 0; y < (4u >> n); y++)
			for (unsigned x = 0; x < (4u >> n); x++)
				put_float(f, 0x400 + level_offset[n] + 4 * morton8(x, y),
					  (float)(100 * n + x + 10 * y));
	agx_cmd_texture_pack(textures[0], &t);
	t.layout = AGX_CMD_LAYOUT_TWIDDLED;
	t.address = 0x100000000ull + 0x400;
	t.last_level = 2;
	agx_cmd_texture_pack(textures[1], &t);
	agx_cmd_sampler_pack(samplers[0], &nearest);
	agx_cmd_sampler_pack(samplers[1], &linear);
	agx_cmd_sampler_pack(samplers[2], &mips);
	s->textures = &textures[0][0];
	s->num_textures = 2;
	s->samplers = &samplers[0][0];
	s->num_samplers = 3;

	for (unsigned l = 0; l < L; l++) {
		float u = ((float)(l % 4) + 0.5f) / 4 + (l >= 16 ? 1.0f : 0.0f); /* repeat */
		float v = ((float)(l / 4 % 4) + 0.5f) / 4;

		memcpy(&s->r[8][l], &u, 4);
		memcpy(&s->r[9][l], &v, 4);
	}
	run_ok("texture_sample r4, ts0, ss0, tex_2d, r8_r9, auto_lod, 0, x, 0, 0, 0, 0, 12, 0\n"
	       "texture_sample r5, ts0, ss1, tex_2d, r8_r9, auto_lod, 0, x, 0, 0, 0, 0, 12, 0\n"
	       "stop",
	       s);
	for (unsigned l = 0; l < L; l++) {
		float x = (float)(l % 4), y = (float)(l / 4 % 4);

		/* nearest: the texel itself, wherever the repeat put it */
		assert_true(bitsf(s->r[4][l]) == x + 10 * y);
		/* bilinear at texel centres is the texel too, inside the texture */
		if (l < 16)
			assert_true(fabsf(bitsf(s->r[5][l]) - (x + 10 * y)) < 1e-5f);
	}

	/* bilinear between texels, and past the left edge into a white border */
	for (unsigned l = 0; l < L; l++) {
		float u = l % 2 ? 0.5f : 0.0f, v = 0.375f; /* y = 1.5 - 0.5 = 1.0 exactly */

		memcpy(&s->r[8][l], &u, 4);
		memcpy(&s->r[9][l], &v, 4);
	}
	run_ok("texture_sample r5, ts0, ss1, tex_2d, r8_r9, lod_min, r10l, x, 0, 0, 0, 0, 12, 0\n"
	       "stop",
	       s);
	for (unsigned l = 0; l < L; l++) {
		/* u = 0.5: x = 1.5 between texels 1 and 2 of row 1: 11.5; u = 0: x = -0.5,
		 * half border (1.0) and half texel 0 of row 1 (10) */
		float want = l % 2 ? 11.5f : 0.5f * 1.0f + 0.5f * 10.0f;

		assert_true(fabsf(bitsf(s->r[5][l]) - want) < 1e-5f);
	}

	/* levels: explicit LOD 1, then LOD 1 from derivatives (two texels a lane) */
	for (unsigned l = 0; l < L; l++) {
		float u = (float)(l & 1) * 0.5f + 0.25f, v = (float)((l >> 1) & 1) * 0.5f + 0.25f;

		memcpy(&s->r[8][l], &u, 4);
		memcpy(&s->r[9][l], &v, 4);
		s->r[10][l] = fp16_from_double(1.0);
	}
	/* gradients given: dP/dx = (0.5, 0), dP/dy = (0, 0.5), two texels a lane: LOD 1 */
	for (unsigned l = 0; l < L; l++) {
		const float g[4] = { 0.5f, 0.0f, 0.0f, 0.5f }; /* dx.x, dy.x, dx.y, dy.y */

		for (unsigned k = 0; k < 4; k++)
			memcpy(&s->r[12 + k][l], &g[k], 4);
	}
	run_ok("texture_sample r4, ts1, ss2, tex_2d, r8_r9, lod_min, r10l, x, 0, 0, 0, 0, 12, 0\n"
	       "texture_sample r5, ts1, ss2, tex_2d, r8_r9, auto_lod, 0, x, 0, 0, 0, 0, 12, 0\n"
	       "texture_sample r6, ts1, ss2, tex_2d, r8_r9, lod_grad, r12_r13_r14_r15, x, 0, 0, "
	       "0, 0, 12, 0\n"
	       "stop",
	       s);
	for (unsigned l = 0; l < L; l++) {
		float want = 100 + (float)(l & 1) + 10 * (float)((l >> 1) & 1);

		assert_true(bitsf(s->r[4][l]) == want);
		assert_true(bitsf(s->r[5][l]) == want);
		assert_true(bitsf(s->r[6][l]) == want);
	}
	free(s);
	free(f);
}

/* call leaves the return address in r1; ret goes back to it. */
static void test_call_ret(void **state)
{
	struct usc_state *s = new_state(L);
	struct usc_result r;

	(void)state;
	run_ok("mov_imm r5, 0\n"
	       "call @func\n"
	       "iadd r5, r5, 100\n"
	       "stop\n"
	       "func:\n"
	       "iadd r5, r5, 1\n"
	       "ret r1",
	       s);
	for (unsigned l = 0; l < L; l++) {
		assert_int_equal(s->r[5][l], 101);
		assert_int_equal(s->r[1][l], 6 + 6); /* mov_imm (6 bytes), call (6) */
	}
	/* a return into the middle of an instruction */
	r = run("mov_imm r2, 1\nret r2\nstop", s);
	assert_int_equal(r.status, USC_BAD_BRANCH);
	free(s);
}

/*
 * call rN: the target from the register, the return address in r1 of the
 * executing lanes only.  The byte offsets are counted by hand: mov_imm of a
 * 32-bit register is 6 bytes, call rN and stop 2.
 */
static void test_call_register(void **state)
{
	struct usc_state *s = new_state(L);
	struct usc_result r;

	(void)state;
	for (unsigned l = 0; l < L; l++) {
		s->r[1][l] = 0xdead0000u + l;
		s->r[5][l] = 40 + l;
	}
	s->r[0][0] = 1; /* lane 0 does not execute */
	/* 0: mov_imm, 6: call r7 (returns to 8), 8: stop, 10: the function */
	run_ok("mov_imm r7, 10\n"
	       "call r7\n"
	       "stop\n"
	       "iadd r5, r5, 1\n"
	       "ret r1",
	       s);
	assert_int_equal(s->r[1][0], 0xdead0000u);
	assert_int_equal(s->r[5][0], 40);
	for (unsigned l = 1; l < L; l++) {
		assert_int_equal(s->r[1][l], 8);
		assert_int_equal(s->r[5][l], 41 + l);
	}

	/* call r1 jumps where r1 pointed before it took the return address */
	s->r[0][0] = 0;
	run_ok("mov_imm r1, 10\n"
	       "call r1\n"
	       "stop\n"
	       "mov_imm r6, 7\n"
	       "ret r1",
	       s);
	for (unsigned l = 0; l < L; l++) {
		assert_int_equal(s->r[1][l], 8);
		assert_int_equal(s->r[6][l], 7);
	}

	/* to the middle of an instruction */
	r = run("mov_imm r7, 3\ncall r7\nstop", s);
	assert_int_equal(r.status, USC_BAD_BRANCH);

	/* lanes with different targets: how the hardware splits them is not public */
	for (unsigned l = 0; l < L; l++)
		s->r[7][l] = l < 16 ? 8 : 10;
	r = run("call r7\nstop\nstop\nstop\nstop\nstop", s);
	assert_int_equal(r.status, USC_BAD_INSTR);
	assert_non_null(strstr(r.message, "different"));
	/* the same with the odd lanes off: all executing lanes agree */
	for (unsigned l = 0; l < L; l++)
		s->r[7][l] = l % 2 ? 4 : 8;
	run_ok("if_icmp r0l, ueq, r7, 8, 1\n"
	       "call r7\n"
	       "stop\n"
	       "stop\n"
	       "pop_exec r0l, 1\n"
	       "stop",
	       s);
	free(s);
}

/* Encodings without public semantics stop the run with their name. */
static void test_not_simulated(void **state)
{
	static const char *const programs[] = {
		"jmp_incomplete pc+4\nstop\nstop",
		"stack_adjust r5\nstop",
		"stack_get_ptr r2, 0, 1, 0, 4, 0\nstop",
		"stack_map r6, 0, 16\nstop",
		"stack_unmap r4, 0, 16\nstop",
		"simd_shuffle_rotate r1, r2, r0l\nstop",
		"simd_shuffle_rotate_xor r1, r2, 1\nstop",
		"simd_shuffle_rotate_down r1, r2, 3\nstop",
		"quad_shuffle_rotate r1, r2, 2\nstop",
		"quad_shuffle_rotate_xor r1, r2, 1\nstop",
		"quad_shuffle_rotate_down r1, r2, 1\nstop",
	};
	struct usc_state *s = new_state(L);

	(void)state;
	for (unsigned i = 0; i < sizeof(programs) / sizeof(programs[0]); i++) {
		char name[32];
		struct usc_result r;

		for (unsigned l = 0; l < L; l++)
			s->r[1][l] = 0x1234;
		r = run(programs[i], s);
		snprintf(name, sizeof(name), "%.*s", (int)strcspn(programs[i], " "), programs[i]);
		if (r.status != USC_BAD_INSTR || r.pc != 0 || !strstr(r.message, name))
			fail_msg("%s: status %d at 0x%x: %s", name, r.status, r.pc, r.message);
		for (unsigned l = 0; l < L; l++)
			assert_int_equal(s->r[1][l], 0x1234); /* nothing written */
	}
	free(s);
}

/*
 * Fields the table gained as optional operands: device_load's coherency
 * only tunes caches, so the load reads what the plain one reads; the others
 * stop the run, naming the field.
 */
static void test_optional_fields(void **state)
{
	static const struct {
		const char *program, *field;
	} stops[] = {
		{ "dfdx r0, r1, kill=0x1\nstop", "kill=0x1" },
		{ "st_tile r4_r5_r6_r7, u8norm, 1, xyzw, 0, 1, 18, Creg=0x1\nstop", "Creg=0x1" },
		{ "image_write r8_r9_r10_r11, u54_u55, r1, r6_r7, 0, tex_2d, coherent0, 0, "
		  "coord16=0x1\nstop",
		  "coord16=0x1" },
		{ "imgwblk r0l, ts0, r0, 0, 0, tex_2d, u8norm, 0, lu=0x1\nstop", "lu=0x1" },
		{ "image_write r8_r9_r10_r11, ts0, r6, 0, tex_2d_ms_array, coherent0, 0\nstop",
		  "multisampled array" },
	};
	struct flat *f = malloc(sizeof(*f));
	struct usc_state *s = memory_state(f);
	struct usc_result r;

	(void)state;
	for (unsigned c = 0; c < 4; c++) {
		char text[256];

		for (unsigned l = 0; l < L; l++)
			s->r[4][l] = 0;
		snprintf(text, sizeof(text),
			 "device_load 0, i32, x, r4, u8_u9, r1, unsigned%s\nwait 0\nstop",
			 c ? (c == 1   ? ", c=0x1"
			      : c == 2 ? ", c=0x2"
				       : ", c=0x3")
			   : "");
		run_ok(text, s);
		for (unsigned l = 0; l < L; l++) {
			uint32_t want;

			memcpy(&want, f->bytes + 4 * l, 4);
			assert_int_equal(s->r[4][l], want);
		}
	}
	for (unsigned i = 0; i < sizeof(stops) / sizeof(stops[0]); i++) {
		for (unsigned l = 0; l < L; l++)
			s->r[0][l] = 0x4321;
		r = run(stops[i].program, s);
		if (r.status != USC_BAD_INSTR || r.pc != 0 || !strstr(r.message, stops[i].field))
			fail_msg("%s: status %d at 0x%x: %s", stops[i].program, r.status, r.pc,
				 r.message);
		for (unsigned l = 0; l < L; l++)
			assert_int_equal(s->r[0][l], 0x4321);
	}
	free(s);
	free(f);
}

/*
 * The encodings the table gained from applegpu's TODO.* placeholders and
 * Mesa AGX2.xml's state and uniform stores: each stops the run with its name
 * and the reason, and changes nothing.
 */
static void test_placeholders_not_simulated(void **state)
{
	static const struct {
		const char *program, *reason;
	} cases[] = {
		{ "after_sampling1\nstop", "placeholder" },
		{ "after_sampling2\nstop", "placeholder" },
		{ "unk30c0 3735928559\nstop", "placeholder" },
		{ "unk40c0\nstop", "placeholder" },
		{ "unkc0000000\nstop", "placeholder" },
		{ "unk51\nstop", "placeholder" },
		{ "unke800\nstop", "placeholder" },
		{ "unk0c00\nstop", "placeholder" },
		{ "unkb1\nstop", "placeholder" },
		{ "unk75 r1, -254, 1\nstop", "placeholder" },
		{ "sr_thing r1, sr80\nstop", "extra bits" },
		{ "pop_exec2 r0l, 1\nstop", "extra bits" },
		{ "unkf59 0, 0\nstop", "extra bits" },
		{ "uniform_store_unk 0, i16, xy, r2l_r2h, 4, signed, lsl 1, 0\nstop", "16-bit" },
		{ "tex_state_store ts0, u8_u9, 64, 0\nstop", "index" },
		{ "sampler_state_store ss1, u4_u5, r1, 0\nstop", "index" },
	};
	struct usc_state *s = new_state(L);
	const uint16_t *halves = (const uint16_t *)s->u;

	(void)state;
	for (unsigned i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const char *text = cases[i].program;
		char name[32];
		struct usc_result r;

		for (unsigned l = 0; l < L; l++) {
			s->r[0][l] = 0; /* r0l: every lane executes */
			s->r[1][l] = 0x1234;
			s->r[2][l] = 0xabcd0000u + l;
		}
		s->u[2] = 0x5555aaaau;
		r = run(text, s);
		snprintf(name, sizeof(name), "%.*s", (int)strcspn(text, " \n"), text);
		if (r.status != USC_BAD_INSTR || r.pc != 0 || !strstr(r.message, name) ||
		    !strstr(r.message, cases[i].reason))
			fail_msg("%s: status %d at 0x%x: %s", name, r.status, r.pc, r.message);
		for (unsigned l = 0; l < L; l++) {
			assert_int_equal(s->r[0][l], 0);
			assert_int_equal(s->r[1][l], 0x1234);
		}
		assert_int_equal(halves[4], 0xaaaa); /* uniform half 4 is not written */
		assert_int_equal(halves[5], 0x5555);
	}
	free(s);
}

/* uniform_store: the first executing lane's halves into the uniform file. */
static void test_uniform_store(void **state)
{
	struct usc_state *s = new_state(L);
	const uint16_t *halves = (const uint16_t *)s->u;

	(void)state;
	for (unsigned l = 0; l < L; l++) {
		s->r[2][l] = 0x12345678u + l;
		s->r[4][l] = 0xaaaa0000u + l;
		s->r[5][l] = 0xbbbb0000u + l;
	}
	s->r[0][0] = 1; /* lane 0 is off: lane 1 stores */
	run_ok("uniform_store xy, r2l_r2h, 20\n"
	       "uniform_store xyz, r4l_r4h_r5l, 41\n"
	       "iadd r3, u10, 1\n"
	       "stop",
	       s);
	assert_int_equal(s->u[10], 0x12345679u);
	assert_int_equal(halves[41], 1);
	assert_int_equal(halves[42], 0xaaaa);
	assert_int_equal(halves[43], 1);
	assert_int_equal(halves[44], 0); /* nothing past the mask */
	for (unsigned l = 1; l < L; l++)
		assert_int_equal(s->r[3][l], 0x1234567au);
	free(s);
}

/* stack_load/stack_store: each lane's own bytes, bounded. */
static void test_stack(void **state)
{
	struct usc_state *s = new_state(L);
	uint8_t stack[L * 64] = { 0 };
	struct usc_result r;

	(void)state;
	s->stack = stack;
	s->stack_size = 64;
	for (unsigned l = 0; l < L; l++) {
		s->r[1][l] = 16 + 2 * (l % 8); /* a byte offset per lane, past the words at 8 */
		s->r[4][l] = 0x4000u + l;
		s->r[5][l] = 0x5000u + l;
	}
	run_ok("stack_store 0, i32, xy, r4_r5, 8, signed\n"
	       "stack_store 0, i16, x, r5l, r1, signed\n"
	       "stack_load 0, i32, xy, r6_r7, 8, signed\n"
	       "stack_load 0, i16, x, r8l, r1, signed\n"
	       "stop",
	       s);
	for (unsigned l = 0; l < L; l++) {
		uint32_t word;

		memcpy(&word, stack + l * 64 + 8, 4);
		assert_int_equal(word, 0x4000u + l);
		assert_int_equal(s->r[6][l], 0x4000u + l);
		assert_int_equal(s->r[7][l], 0x5000u + l);
		assert_int_equal(s->r[8][l] & 0xffff, 0x5000u + l);
	}
	/* past the lane's bytes: a fault, not another lane's memory */
	r = run("stack_load 0, i32, x, r6, 62, signed\nstop", s);
	assert_int_equal(r.status, USC_FAULT);
	assert_non_null(strstr(r.message, "stack"));
	s->stack = NULL;
	assert_int_equal(run("stack_load 0, i32, x, r6, 0, signed\nstop", s).status, USC_FAULT);
	/* the stack pointer's unit is not public: not executed, and said so */
	r = run("stack_adjust 8\nstop", s);
	assert_int_equal(r.status, USC_BAD_INSTR);
	free(s);
}

static void test_threadgroup_memory(void **state)
{
	struct usc_state *s = new_state(L);
	uint8_t shared[512] = { 0 };

	(void)state;
	s->threadgroup_memory = shared;
	s->threadgroup_memory_size = sizeof(shared);
	for (unsigned l = 0; l < L; l++) {
		s->r[1][l] = 0x11110000u + l;
		s->r[2][l] = l; /* r2l: the index */
	}
	run_ok("threadgroup_store i32, x, r1, r2l, 0\n"
	       "threadgroup_load i32, x, r3, r2l, 32\n"
	       "stop",
	       s);
	for (unsigned l = 0; l < L; l++) {
		uint32_t got;

		memcpy(&got, shared + l * 4, 4);
		assert_int_equal(got, 0x11110000u + l);
		assert_int_equal(s->r[3][l], 0); /* items 32.. were never written */
	}
	assert_int_equal(run("threadgroup_load i32, x, r3, r2l, 200\nstop", s).status, USC_FAULT);
	free(s);
}

/* Programs decode once per address, until the device says the code changed. */
static void test_program_cache(void **state)
{
	struct flat *f = malloc(sizeof(*f));
	struct usc_cache *cache = usc_cache_create(2, 1024);
	const struct usc_program *p1, *p2, *again;
	struct usc_state *s = new_state(L);
	uint8_t code[64];
	size_t n;

	(void)state;
	f->base = 0x10000;
	memset(f->bytes, 0, sizeof(f->bytes));
	n = test_assemble("mov_imm r1, 11\nstop", code, sizeof(code));
	memcpy(f->bytes, code, n);
	n = test_assemble("mov_imm r1, 22\nstop", code, sizeof(code));
	memcpy(f->bytes + 256, code, n);

	p1 = usc_cache_get(cache, f->base, flat_read, f);
	again = usc_cache_get(cache, f->base, flat_read, f);
	assert_non_null(p1);
	assert_ptr_equal(p1, again);
	assert_int_equal(usc_cache_stats(cache).decodes, 1);
	assert_int_equal(usc_cache_stats(cache).hits, 1);
	assert_int_equal(usc_run(p1, s, 100).status, USC_DONE);
	assert_int_equal(s->r[1][0], 11);

	/* new code at the same address runs only after an invalidation */
	n = test_assemble("mov_imm r1, 33\nstop", code, sizeof(code));
	memcpy(f->bytes, code, n);
	usc_cache_invalidate(cache, f->base + 4, 2);
	p1 = usc_cache_get(cache, f->base, flat_read, f);
	assert_int_equal(usc_cache_stats(cache).decodes, 2);
	assert_int_equal(usc_run(p1, s, 100).status, USC_DONE);
	assert_int_equal(s->r[1][0], 33);

	/* two entries: a third program pushes out the least recently used */
	p2 = usc_cache_get(cache, f->base + 256, flat_read, f);
	assert_non_null(p2);
	usc_cache_get(cache, f->base, flat_read, f);	   /* p1 used again */
	usc_cache_get(cache, f->base + 512, flat_read, f); /* evicts p2 */
	usc_cache_get(cache, f->base, flat_read, f);
	assert_int_equal(usc_cache_stats(cache).decodes, 4);
	usc_cache_get(cache, f->base + 256, flat_read, f);
	assert_int_equal(usc_cache_stats(cache).decodes, 5);

	/*
	 * A program evicted or invalidated while work still holds it (a
	 * render's tile programs, a stream's own cache invalidation) runs on
	 * until the cache is collected, between work items.
	 */
	p2 = usc_cache_get(cache, f->base + 256, flat_read, f);
	usc_cache_get(cache, f->base + 512, flat_read, f);
	usc_cache_get(cache, f->base, flat_read, f); /* evicts p2 */
	usc_cache_invalidate(cache, 0, ~0ull);
	assert_int_equal(usc_run(p2, s, 100).status, USC_DONE);
	assert_int_equal(s->r[1][0], 22);
	usc_cache_collect(cache);

	/* code at the very end of a mapping decodes as far as the mapping goes */
	n = test_assemble("mov_imm r1, 44\nstop", code, sizeof(code));
	memcpy(f->bytes + sizeof(f->bytes) - n, code, n);
	p1 = usc_cache_get(cache, f->base + sizeof(f->bytes) - n, flat_read, f);
	assert_non_null(p1);
	assert_int_equal(usc_run(p1, s, 100).status, USC_DONE);
	assert_int_equal(s->r[1][0], 44);
	/* and nothing at all is no program */
	assert_null(usc_cache_get(cache, 0x1, flat_read, f));

	usc_cache_destroy(cache);
	free(s);
	free(f);
}

/*
 * A program ends at its first stop that no branch jumps past
 * (usc_program_extent): the cache decodes that far and no further, and a
 * stop a forward branch goes around does not end it.
 */
static void test_program_extent(void **state)
{
	struct flat *f = malloc(sizeof(*f));
	struct usc_cache *cache = usc_cache_create(2, sizeof(f->bytes));
	const struct usc_program *p;
	struct usc_state *s = new_state(L);
	struct usc_extent e = { 0 };
	uint8_t code[128];
	size_t n, m;

	(void)state;
	f->base = 0x10000;
	memset(f->bytes, 0, sizeof(f->bytes));
	n = test_assemble("mov_imm r1, 1\n"
			  "if_icmp r0l, ueq, r1, 0, 1\n" /* no lane: the branch is taken */
			  "jmp_exec_none @on\n"
			  "stop\n"
			  "on:\n"
			  "pop_exec r0l, 1\n"
			  "mov_imm r1, 2\n"
			  "stop",
			  code, sizeof(code));
	m = test_assemble("mov_imm r1, 1\nstop", code + 64, 64);
	memcpy(f->bytes, code, n);
	/* the extent: all of it, not the first stop; nothing before the last stop arrives */
	assert_int_equal(usc_program_extent(&e, f->bytes, n - 2), 0);
	assert_int_equal(usc_program_extent(&e, f->bytes, sizeof(f->bytes)), n);
	e = (struct usc_extent){ 0 };
	assert_int_equal(usc_program_extent(&e, code + 64, m), m);
	/* decoded to its end (the mapping's zeros after it are not code), and run past the first
	 * stop */
	p = usc_cache_get(cache, f->base, flat_read, f);
	assert_non_null(p);
	assert_int_equal(usc_run(p, s, 100).status, USC_DONE);
	assert_int_equal(s->r[1][0], 2);
	/* a write past the program's end does not touch it, one inside does */
	usc_cache_invalidate(cache, f->base + n + 16, 4);
	assert_int_equal(usc_cache_stats(cache).invalidations, 0);
	usc_cache_invalidate(cache, f->base + n - 2, 2);
	assert_int_equal(usc_cache_stats(cache).invalidations, 1);

	usc_cache_destroy(cache);
	free(s);
	free(f);
}

/* An R32 float texture's texels, laid out as agx/layout.h says, at offset of the memory. */
static void put_texels(struct flat *f, unsigned offset, unsigned w, unsigned h, unsigned layers,
		       float (*value)(unsigned x, unsigned y, unsigned layer))
{
	struct agx_layout l = {
		.twiddled = true, .bytes_per_texel = 4, .width = w, .height = h, .levels = 1
	};

	assert_true(agx_layout_init(&l));
	for (unsigned n = 0; n < layers; n++)
		for (unsigned y = 0; y < h; y++)
			for (unsigned x = 0; x < w; x++)
				put_float(f, offset + (unsigned)agx_layout_texel(&l, 0, n, x, y),
					  value(x, y, n));
}

static float cube_texel(unsigned x, unsigned y, unsigned face)
{
	return (float)(100 * face + x + 10 * y);
}

/*
 * The face and texel a direction picks, by GL's table (OpenGL ES 3.0,
 * table 3.21), written out here: major axis, then sc, tc for each face.
 */
static float cube_reference(float dx, float dy, float dz, unsigned size)
{
	float ax = fabsf(dx), ay = fabsf(dy), az = fabsf(dz), sc, tc, ma;
	unsigned face;

	if (ax >= ay && ax >= az) {
		face = dx >= 0 ? 0 : 1;
		sc = dx >= 0 ? -dz : dz;
		tc = -dy;
		ma = ax;
	} else if (ay >= az) {
		face = dy >= 0 ? 2 : 3;
		sc = dx;
		tc = dy >= 0 ? dz : -dz;
		ma = ay;
	} else {
		face = dz >= 0 ? 4 : 5;
		sc = dz >= 0 ? dx : -dx;
		tc = -dy;
		ma = az;
	}
	return cube_texel((unsigned)floorf((sc / ma + 1) / 2 * size),
			  (unsigned)floorf((tc / ma + 1) / 2 * size), face);
}

static float volume_texel(unsigned x, unsigned y, unsigned z)
{
	return (float)(x + 10 * y + 100 * z);
}

/*
 * Cube maps: every face picked as GL's table says, nearest; bilinear on a
 * face's edge takes half from the next face (seamless), or clamps to the
 * edge when the sampler is seamful.  3D: nearest slices, and a trilinear
 * sample halfway between two.
 */
static void test_texture_cube_3d(void **state)
{
	struct flat *f = malloc(sizeof(*f));
	struct usc_state *s = memory_state(f);
	uint8_t textures[2][24] = { { 0 } }, samplers[3][24] = { { 0 } };
	struct agx_cmd_texture cube = { .dimension = AGX_CMD_TEXTURE_DIM_TEX_CUBE,
					.layout = AGX_CMD_LAYOUT_TWIDDLED,
					.channels = AGX_CMD_CHANNELS_R32,
					.type = AGX_CMD_TEXTURE_TYPE_FLOAT,
					.swizzle_r = AGX_CMD_CHANNEL_R,
					.swizzle_g = AGX_CMD_CHANNEL_ZERO,
					.swizzle_b = AGX_CMD_CHANNEL_ZERO,
					.swizzle_a = AGX_CMD_CHANNEL_ONE,
					.width = 4,
					.height = 4,
					.address = 0x100000000ull + 0x400,
					.depth = 1 }, /* one cube */
	    volume = cube;
	struct agx_cmd_sampler nearest = { AGX_CMD_SAMPLER_DEFAULTS,
					   .wrap_r = AGX_CMD_WRAP_REPEAT },
			       linear = { AGX_CMD_SAMPLER_DEFAULTS,
					  .magnify = AGX_CMD_FILTER_LINEAR,
					  .minify = AGX_CMD_FILTER_LINEAR },
			       seamful = linear;
	static const float dirs[][3] = { { 1, 0.2f, -0.3f }, { -1, -0.6f, 0.1f },
					 { 0.3f, 1, 0.7f },  { -0.8f, -1, 0.4f },
					 { 0.1f, 0.1f, 1 },  { -0.45f, 0.3f, -1 },
					 { 2, -1.5f, 1.2f }, { 0.5f, -3, -2.9f } };
	const unsigned ndirs = sizeof(dirs) / sizeof(dirs[0]);

	(void)state;
	volume.dimension = AGX_CMD_TEXTURE_DIM_TEX_3D;
	volume.address = 0x100000000ull + 0xc00;
	volume.depth = 4; /* 4 slices */
	seamful.seamful_cube_maps = true;
	put_texels(f, 0x400, 4, 4, 6, cube_texel);
	put_texels(f, 0xc00, 4, 4, 4, volume_texel);
	agx_cmd_texture_pack(textures[0], &cube);
	agx_cmd_texture_pack(textures[1], &volume);
	agx_cmd_sampler_pack(samplers[0], &nearest);
	agx_cmd_sampler_pack(samplers[1], &linear);
	agx_cmd_sampler_pack(samplers[2], &seamful);
	s->textures = &textures[0][0];
	s->num_textures = 2;
	s->samplers = &samplers[0][0];
	s->num_samplers = 3;

	/* nearest: lanes 0..7 the directions, lanes 8..15 the same directions scaled */
	for (unsigned l = 0; l < L; l++) {
		const float *d = dirs[l % ndirs];
		float k = l / ndirs % 2 ? 3.5f : 1.0f;

		for (unsigned c = 0; c < 3; c++) {
			float v = d[c] * k;

			memcpy(&s->r[8 + c][l], &v, 4);
		}
	}
	run_ok(
	    "texture_sample r4, ts0, ss0, tex_cube, r8_r9_r10, lod_min, r12l, x, 0, 0, 0, 0, 12, "
	    "0\n"
	    "stop",
	    s);
	for (unsigned l = 0; l < L; l++) {
		const float *d = dirs[l % ndirs];

		assert_true(bitsf(s->r[4][l]) == cube_reference(d[0], d[1], d[2], 4));
	}

	/*
	 * The +X face's left edge (s = 0, t at row 1's centre): bilinear takes
	 * half from +X texel (0, 1) and half from the +Z face's texel (3, 1),
	 * which lies past that edge; seamful, the edge texel alone.
	 */
	for (unsigned l = 0; l < L; l++) {
		float x = 1, y = -(2 * 1.5f / 4 - 1), z = 1; /* tc = -y, sc = -z = -1: s = 0 */

		memcpy(&s->r[8][l], &x, 4);
		memcpy(&s->r[9][l], &y, 4);
		memcpy(&s->r[10][l], &z, 4);
	}
	/* z = 1 = x: a tie the major axis resolves to x; nudge z below it */
	for (unsigned l = 0; l < L; l++) {
		float z = 0.99999994f;

		memcpy(&s->r[10][l], &z, 4);
	}
	run_ok(
	    "texture_sample r4, ts0, ss1, tex_cube, r8_r9_r10, lod_min, r12l, x, 0, 0, 0, 0, 12, "
	    "0\n"
	    "texture_sample r5, ts0, ss2, tex_cube, r8_r9_r10, lod_min, r12l, x, 0, 0, 0, 0, 12, "
	    "0\n"
	    "stop",
	    s);
	for (unsigned l = 0; l < L; l++) {
		float seamless = 0.5f * cube_texel(0, 1, 0) + 0.5f * cube_texel(3, 1, 4);

		assert_true(fabsf(bitsf(s->r[4][l]) - seamless) < 0.01f);
		assert_true(fabsf(bitsf(s->r[5][l]) - cube_texel(0, 1, 0)) < 0.01f);
	}

	/* 3D: nearest in each slice (r repeats past 1), and halfway between slices 1 and 2 */
	for (unsigned l = 0; l < L; l++) {
		float u = ((float)(l % 4) + 0.5f) / 4, v = ((float)(l / 4 % 4) + 0.5f) / 4;
		float r = (float)(l / 16) + 0.625f; /* slice 2 */

		memcpy(&s->r[8][l], &u, 4);
		memcpy(&s->r[9][l], &v, 4);
		memcpy(&s->r[10][l], &r, 4);
		r = 0.5f; /* slices 1 and 2 evenly */
		memcpy(&s->r[11][l], &r, 4);
	}
	run_ok(
	    "texture_sample r4, ts1, ss0, tex_3d, r8_r9_r10, lod_min, r12l, x, 0, 0, 0, 0, 12, 0\n"
	    "mov_imm r10, 0x3f000000\n"
	    "texture_sample r5, ts1, ss1, tex_3d, r8_r9_r10, lod_min, r12l, x, 0, 0, 0, 0, 12, 0\n"
	    "stop",
	    s);
	for (unsigned l = 0; l < L; l++) {
		unsigned x = l % 4, y = l / 4 % 4;

		assert_true(bitsf(s->r[4][l]) == volume_texel(x, y, 2));
		assert_true(fabsf(bitsf(s->r[5][l]) - (volume_texel(x, y, 1) + 50)) < 1e-4f);
	}
	free(s);
	free(f);
}

/* GL's sRGB decode (OpenGL ES 3.0, equation 3.24). */
static double srgb_decode(double c)
{
	return c <= 0.04045 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4);
}

/*
 * ETC2 and EAC textures, read through texture_load.  The colour blocks are
 * the Khronos Data Format Specification's examples with every pixel index
 * zero, so each 2x4 half of a block is one colour (test-etc checks those
 * colours bit by bit); EAC blocks with multiplier 0 and table 0, so every
 * texel is the base, or the base times 8 plus -3 (+4 unsigned) for R11.
 * An 8x8 RGBA8 texture is 2x2 blocks of 16 bytes in Morton order (a 2x2
 * tile, Mesa ail); a 12x4 RGB8 sRGB one is 3x1 blocks, cut into 1x1 tiles
 * (the POT tile of min(4, 1)), so block bx is at 8 * bx.
 */
static void test_texture_etc(void **state)
{
	static const uint8_t flat[8] = { 0x4e, 0xb3, 0x98, 0x80, 0, 0, 0, 0 };
	static const uint8_t dflat[8] = { 0xec, 0xd5, 0x43, 0x4e, 0, 0, 0, 0 };
	static const uint8_t colours[2][2][3] = { { { 86, 205, 171 }, { 240, 53, 138 } },
						  { { 248, 223, 75 }, { 219, 202, 103 } } };
	struct flat *f = malloc(sizeof(*f));
	struct usc_state *s = memory_state(f);
	uint8_t textures[4][24] = { { 0 } }, samplers[1][24] = { { 0 } };
	struct agx_cmd_texture t = { .dimension = AGX_CMD_TEXTURE_DIM_TEX_2D,
				     .layout = AGX_CMD_LAYOUT_TWIDDLED,
				     .channels = AGX_CMD_CHANNELS_ETC2_RGBA8,
				     .type = AGX_CMD_TEXTURE_TYPE_UNORM,
				     .swizzle_r = AGX_CMD_CHANNEL_R,
				     .swizzle_g = AGX_CMD_CHANNEL_G,
				     .swizzle_b = AGX_CMD_CHANNEL_B,
				     .swizzle_a = AGX_CMD_CHANNEL_A,
				     .width = 8,
				     .height = 8,
				     .address = 0x100000000ull + 0x100 };
	struct agx_cmd_sampler nearest = { AGX_CMD_SAMPLER_DEFAULTS,
					   .border = AGX_CMD_BORDER_OPAQUE_WHITE };

	(void)state;
	for (unsigned b = 0; b < 4; b++) {
		/* block b = (b & 1, b >> 1): alpha base 16 (b + 1), colour flat or dflat */
		f->bytes[0x100 + 16 * b] = (uint8_t)(16 * (b + 1));
		memset(f->bytes + 0x100 + 16 * b + 1, 0, 7);
		memcpy(f->bytes + 0x100 + 16 * b + 8, b == 1 || b == 2 ? dflat : flat, 8);
	}
	agx_cmd_texture_pack(textures[0], &t);
	/* 12x4 RGB8 sRGB: dflat, flat, dflat */
	t.channels = AGX_CMD_CHANNELS_ETC2_RGB8;
	t.srgb = true;
	t.width = 12;
	t.height = 4;
	t.address = 0x100000000ull + 0x200;
	for (unsigned b = 0; b < 3; b++)
		memcpy(f->bytes + 0x200 + 8 * b, b == 1 ? flat : dflat, 8);
	agx_cmd_texture_pack(textures[1], &t);
	/* 4x4 RG11 snorm: red base 64, green base -128 (taken as -127) */
	t.channels = AGX_CMD_CHANNELS_EAC_RG11;
	t.type = AGX_CMD_TEXTURE_TYPE_SNORM;
	t.srgb = false;
	t.width = t.height = 4;
	t.address = 0x100000000ull + 0x300;
	memset(f->bytes + 0x300, 0, 16);
	f->bytes[0x300] = 64;
	f->bytes[0x308] = 0x80;
	agx_cmd_texture_pack(textures[2], &t);
	/* the same bytes as an unsigned R11: 64 * 8 + 4 - 3 */
	t.channels = AGX_CMD_CHANNELS_EAC_R11;
	t.type = AGX_CMD_TEXTURE_TYPE_UNORM;
	agx_cmd_texture_pack(textures[3], &t);
	agx_cmd_sampler_pack(samplers[0], &nearest);
	s->textures = &textures[0][0];
	s->num_textures = 4;
	s->samplers = &samplers[0][0];
	s->num_samplers = 1;

	for (unsigned half = 0; half < 2; half++) {
		for (unsigned l = 0; l < L; l++) {
			s->r[8][l] = l % 8;
			s->r[9][l] = l / 8 + 4 * half;
			s->r[10][l] = 0;
		}
		run_ok("texture_load r4_r5_r6_r7, ts0, ss0, tex_2d, r8_r9, lod_min, r10l, xyzw, 0, "
		       "0, 0, 0, 12, 0\n"
		       "stop",
		       s);
		for (unsigned l = 0; l < L; l++) {
			unsigned x = l % 8, y = l / 8 + 4 * half, b = x / 4 + 2 * (y / 4);
			const uint8_t *c = colours[b == 1 || b == 2][x % 4 >= 2];

			for (unsigned k = 0; k < 3; k++)
				assert_true(bitsf(s->r[4 + k][l]) == (float)(c[k] / 255.0));
			assert_true(bitsf(s->r[7][l]) == (float)(16 * (b + 1) / 255.0));
		}
	}

	/* sRGB RGB8, the third block and a texel past the right edge */
	for (unsigned l = 0; l < L; l++) {
		s->r[8][l] = l % 13;
		s->r[9][l] = l / 13;
	}
	run_ok("texture_load r4_r5_r6_r7, ts1, ss0, tex_2d, r8_r9, lod_min, r10l, xyzw, 0, 0, 0, "
	       "0, 12, 0\n"
	       "stop",
	       s);
	for (unsigned l = 0; l < L; l++) {
		unsigned x = l % 13;
		const uint8_t *c = colours[x / 4 != 1][x % 4 >= 2];

		for (unsigned k = 0; k < 3; k++)
			assert_true(fabs(bitsf(s->r[4 + k][l]) -
					 (x == 12 ? 1.0 : srgb_decode(c[k] / 255.0))) < 1e-6);
		assert_true(bitsf(s->r[7][l]) == 1.0f);
	}

	/* EAC: snorm RG11 (509 / 1023 and -1019 / 1023), unorm R11 (513 / 2047) */
	run_ok("texture_load r4_r5_r6_r7, ts2, ss0, tex_2d, r8_r9, lod_min, r10l, xyzw, 0, 0, 0, "
	       "0, 12, 0\n"
	       "texture_load r12, ts3, ss0, tex_2d, r8_r9, lod_min, r10l, x, 0, 0, 0, 0, 12, 0\n"
	       "stop",
	       s);
	for (unsigned l = 0; l < L; l++) {
		if (l % 13 >= 4 || l / 13 >= 4)
			continue;
		assert_true(bitsf(s->r[4][l]) == (float)(509 / 1023.0));
		assert_true(bitsf(s->r[5][l]) == (float)(-1019 / 1023.0));
		assert_true(bitsf(s->r[6][l]) == 0.0f);
		assert_true(bitsf(s->r[12][l]) == (float)(513 / 2047.0));
	}

	/* block formats are not written, and are never linear */
	assert_int_equal(
	    run("image_write r4_r5_r6_r7, ts0, r8_r9, 0, tex_2d, coherent0, 0\nstop", s).status,
	    USC_BAD_INSTR);
	t.layout = AGX_CMD_LAYOUT_LINEAR;
	agx_cmd_texture_pack(textures[3], &t);
	assert_int_equal(
	    run("texture_load r12, ts3, ss0, tex_2d, r8_r9, lod_min, r10l, x, 0, 0, 0, "
		"0, 12, 0\nstop",
		s)
		.status,
	    USC_BAD_INSTR);
	free(s);
	free(f);
}

/*
 * Depth compare (each texel against the reference, then filtered) and
 * texel offsets, on a linear 4x4 R32 float texture holding x / 4 + y.
 */
static void test_texture_compare_offset(void **state)
{
	struct flat *f = malloc(sizeof(*f));
	struct usc_state *s = memory_state(f);
	uint8_t textures[1][24] = { { 0 } }, samplers[3][24] = { { 0 } };
	struct agx_cmd_texture t = { .dimension = AGX_CMD_TEXTURE_DIM_TEX_2D,
				     .layout = AGX_CMD_LAYOUT_LINEAR,
				     .channels = AGX_CMD_CHANNELS_R32,
				     .type = AGX_CMD_TEXTURE_TYPE_FLOAT,
				     .swizzle_r = AGX_CMD_CHANNEL_R,
				     .swizzle_g = AGX_CMD_CHANNEL_ZERO,
				     .swizzle_b = AGX_CMD_CHANNEL_ZERO,
				     .swizzle_a = AGX_CMD_CHANNEL_ONE,
				     .width = 4,
				     .height = 4,
				     .address = 0x100000000ull + 0x200 };
	struct agx_cmd_sampler less = { AGX_CMD_SAMPLER_DEFAULTS, .compare_enable = true,
					.compare_func = AGX_CMD_COMPARE_FUNC_LEQUAL },
			       linear = { AGX_CMD_SAMPLER_DEFAULTS,
					  .magnify = AGX_CMD_FILTER_LINEAR, .compare_enable = true,
					  .compare_func = AGX_CMD_COMPARE_FUNC_LEQUAL },
			       plain = { AGX_CMD_SAMPLER_DEFAULTS };

	(void)state;
	for (unsigned y = 0; y < 4; y++)
		for (unsigned x = 0; x < 4; x++)
			put_float(f, 0x200 + y * 16 + x * 4, (float)x / 4 + (float)y);
	agx_cmd_texture_pack(textures[0], &t);
	agx_cmd_sampler_pack(samplers[0], &less);
	agx_cmd_sampler_pack(samplers[1], &linear);
	agx_cmd_sampler_pack(samplers[2], &plain);
	s->textures = &textures[0][0];
	s->num_textures = 1;
	s->samplers = &samplers[0][0];
	s->num_samplers = 3;
	for (unsigned l = 0; l < L; l++) {
		float u = ((float)(l % 4) + 0.5f) / 4, v = 0.125f, ref = 0.3f;

		memcpy(&s->r[8][l], &u, 4);
		memcpy(&s->r[9][l], &v, 4);
		memcpy(&s->r[12][l], &ref, 4);
		/* packed offsets: x = +1, y = -1 (0xf) */
		s->r[13][l] = 0xf1;
		s->r[15][l] = (uint32_t)(l % 4);
		s->r[16][l] = 2;
	}
	run_ok(
	    "texture_sample r4, ts0, ss0, tex_2d, r8_r9, lod_min, r10l, r12, x, 1, 0, 0, 0, 12, "
	    "0\n"
	    "texture_sample r5, ts0, ss2, tex_2d, r8_r9, lod_min, r10l, r13l, x, 0, 0, 0, 0, 12, "
	    "0\n"
	    "mov_imm r8, 0x3f000000\n" /* u = 0.5: x = 2 - 0.5, halfway between 1 and 2 */
	    "texture_sample r6, ts0, ss1, tex_2d, r8_r9, lod_min, r10l, r12, x, 1, 0, 0, 0, 12, "
	    "0\n"
	    "texture_load r7, ts0, ss2, tex_2d, r15_r16, auto_lod, 0, r13l, x, 0, 0, 0, 0, 12, 0\n"
	    "stop",
	    s);
	for (unsigned l = 0; l < L; l++) {
		unsigned x = l % 4;
		/* LEQUAL: reference 0.3 <= texel x / 4: texels 2 and 3 pass */
		float want = 0.3f <= (float)x / 4 ? 1.0f : 0.0f;
		/* offset (+1, -1) from texel (x, 0): (x + 1, -1), clamped to the edge */
		float moved = (float)(x + 1 > 3 ? 3 : x + 1) / 4;

		assert_true(bitsf(s->r[4][l]) == want);
		assert_true(bitsf(s->r[5][l]) == moved);
		/* between texel 1 (0.25: fails) and 2 (0.5: passes): half */
		assert_true(bitsf(s->r[6][l]) == 0.5f);
		/* texture_load from (x, 2) plus (+1, -1): (x + 1, 1), or the border past the edge
		 */
		assert_true(bitsf(s->r[7][l]) == (x + 1 > 3 ? 0.0f : (float)(x + 1) / 4 + 1));
	}
	free(s);
	free(f);
}

/*
 * Pixel order (usc.h): one SIMD group of an 8x4 block whose lanes 0..15
 * have pixels an earlier fragment used.  A use needs its fences there
 * (st_tile 0xc, ld_tile 0x8, a test 0x1), not elsewhere; a kill needs
 * none; a signalled fence no longer covers; outside a fragment the
 * fences are illegal.
 */
static struct usc_result run_fragment(const char *text, struct usc_fragment_io *f,
				      struct usc_pixel_order *o, uint32_t earlier_colour,
				      uint32_t earlier_zs)
{
	struct usc_state *s = new_state(USC_LANES);
	struct usc_result r;

	memset(o, 0, sizeof(*o));
	o->earlier[USC_PIXEL_COLOUR] = earlier_colour;
	o->earlier[USC_PIXEL_ZS] = earlier_zs;
	f->order = o;
	f->killed = f->tested = 0;
	memset(f->cover, 1, sizeof(f->cover));
	s->fragment = f;
	for (unsigned l = 0; l < USC_LANES; l++)
		s->r[2][l] = 100 + l;
	r = run(text, s);
	free(s);
	return r;
}

/* iter's sample index (AGX2.xml): with one sample per pixel, only 0 runs */
static void test_iter_sample_index(void **state)
{
	static const char *const programs[] = {
		"iter r4_r5, perspective, cf1, cf0, 6, forward, sample, centroid, 0\nstop",
		"iter r4_r5, perspective, cf1, cf0, 2, forward, sample, no_centroid, 0\nstop",
	};
	uint32_t tile[8 * 4];
	struct usc_fragment_io f = {
		.tile = (uint8_t *)tile, .width = 8, .height = 4, .sample_size = 4, .samples = 1
	};
	struct usc_pixel_order o;

	(void)state;
	for (unsigned i = 0; i < sizeof(programs) / sizeof(programs[0]); i++) {
		struct usc_result r = run_fragment(programs[i], &f, &o, 0, 0);

		if (r.status != USC_BAD_INSTR || !strstr(r.message, "sample index"))
			fail_msg("%s: status %d: %s", programs[i], r.status, r.message);
	}
}

static void test_pixel_order(void **state)
{
	uint32_t tile[8 * 4];
	struct usc_fragment_io f = { .tile = (uint8_t *)tile,
				     .width = 8,
				     .height = 4,
				     .sample_size = 4,
				     .samples = 1,
				     .x0 = 64,
				     .y0 = 32 };
	struct usc_pixel_order o;
	struct usc_result r;
	struct usc_state *s;

	(void)state;
	for (unsigned l = 0; l < USC_LANES; l++) {
		f.px[l] = (uint8_t)(l % 8);
		f.py[l] = (uint8_t)(l / 8);
	}
	/* a store without its wait, where lane 4's pixel was used before */
	r = run_fragment("st_tile r2, i32, 0, x, 0, 255, 0\nstop", &f, &o, 0xfff0, 0);
	assert_int_equal(r.status, USC_ORDER);
	assert_string_equal(r.message, "st_tile without wait_pix 0xc at pixel (68, 32): an "
				       "earlier fragment may still use its tilebuffer");
	/* the first fragment of its pixels needs no wait */
	memset(tile, 0, sizeof(tile));
	r = run_fragment("st_tile r2, i32, 0, x, 0, 255, 0\nstop", &f, &o, 0, 0);
	assert_int_equal(r.status, USC_DONE);
	assert_int_equal(o.used[USC_PIXEL_COLOUR], 0xffffffffu);
	assert_int_equal(tile[9], 109);
	/* with its wait, the store and the load after it go on */
	r = run_fragment("wait_pix 12, 0\nst_tile r2, i32, 0, x, 0, 255, 0\n"
			 "ld_tile r3, i32, 1, x, 0, 255, 0\nstop",
			 &f, &o, 0xffff, 0);
	assert_int_equal(r.status, USC_DONE);
	/* a wait on 0x4 alone does not cover a store, nor 0x8 a store */
	r = run_fragment("wait_pix 4, 0\nst_tile r2, i32, 0, x, 0, 255, 0\nstop", &f, &o, 0xffff,
			 0);
	assert_int_equal(r.status, USC_ORDER);
	r = run_fragment("wait_pix 8, 0\nld_tile r3, i32, 1, x, 0, 255, 0\n"
			 "st_tile r2, i32, 0, x, 0, 255, 0\nstop",
			 &f, &o, 0xffff, 0);
	assert_int_equal(r.status, USC_ORDER);
	assert_int_equal(r.pc, 12);
	/* released, then used */
	r = run_fragment("wait_pix 12, 0\nsignal_pix 8, 0\nst_tile r2, i32, 0, x, 0, 255, 0\nstop",
			 &f, &o, 0x1, 0);
	assert_int_equal(r.status, USC_ORDER);
	assert_string_equal(r.message, "st_tile after signal_pix 0xc at pixel (64, 32): an "
				       "earlier fragment may still use its tilebuffer");
	/* a kill needs no wait, a test does */
	r = run_fragment("sample_mask 255, 0\nstop", &f, &o, 0, ~0u);
	assert_int_equal(r.status, USC_DONE);
	r = run_fragment("sample_mask 255, 255\nstop", &f, &o, 0, 0x100);
	assert_int_equal(r.status, USC_ORDER);
	assert_string_equal(r.message, "sample_mask without wait_pix 0x1 at pixel (64, 33): an "
				       "earlier fragment may still use its depth and stencil");
	r = run_fragment("wait_pix 1, 0\nsample_mask 255, 255\nstop", &f, &o, 0, ~0u);
	assert_int_equal(r.status, USC_DONE);
	assert_int_equal(o.used[USC_PIXEL_ZS], 0xffffffffu);
	/* lanes that do not run wait on nothing: the others' use is still checked */
	r = run_fragment("get_sr r4, sr52\n"
			 "if_icmp r0l, ult, r4, 16, 1\n"
			 "wait_pix 12, 0\n"
			 "pop_exec r0l, 1\n"
			 "st_tile r2, i32, 0, x, 0, 255, 0\nstop",
			 &f, &o, 0x10000, 0);
	assert_int_equal(r.status, USC_ORDER);
	r = run_fragment("get_sr r4, sr52\n"
			 "if_icmp r0l, ult, r4, 16, 1\n"
			 "wait_pix 12, 0\n"
			 "pop_exec r0l, 1\n"
			 "st_tile r2, i32, 0, x, 0, 255, 0\nstop",
			 &f, &o, 0x8000, 0);
	assert_int_equal(r.status, USC_DONE);
	/* unchecked without the order, illegal outside a fragment */
	f.order = NULL;
	s = new_state(USC_LANES);
	s->fragment = &f;
	run_ok("st_tile r2, i32, 0, x, 0, 255, 0\nstop", s);
	s->fragment = NULL;
	assert_int_equal(run("wait_pix 12, 0\nstop", s).status, USC_BAD_INSTR);
	free(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_iadd),
		cmocka_unit_test(test_iadd_16_and_64),
		cmocka_unit_test(test_bitfield),
		cmocka_unit_test(test_bitop_truth_tables),
		cmocka_unit_test(test_iunary),
		cmocka_unit_test(test_float32_alu),
		cmocka_unit_test(test_float16_alu),
		cmocka_unit_test(test_float_unary),
		cmocka_unit_test(test_convert),
		cmocka_unit_test(test_select),
		cmocka_unit_test(test_exec_nested),
		cmocka_unit_test(test_exec_loops),
		cmocka_unit_test(test_jumps_and_stops),
		cmocka_unit_test(test_simd),
		cmocka_unit_test(test_shuffle_forms),
		cmocka_unit_test(test_intl),
		cmocka_unit_test(test_matrix_fmadd),
		cmocka_unit_test(test_barriers_and_unsimulated),
		cmocka_unit_test(test_simd_reductions),
		cmocka_unit_test(test_special_registers),
		cmocka_unit_test(test_device_memory),
		cmocka_unit_test(test_packed_formats),
		cmocka_unit_test(test_threadgroup_memory),
		cmocka_unit_test(test_call_ret),
		cmocka_unit_test(test_call_register),
		cmocka_unit_test(test_not_simulated),
		cmocka_unit_test(test_placeholders_not_simulated),
		cmocka_unit_test(test_optional_fields),
		cmocka_unit_test(test_iter_sample_index),
		cmocka_unit_test(test_texture_load),
		cmocka_unit_test(test_pixel_order),
		cmocka_unit_test(test_texture_sample),
		cmocka_unit_test(test_texture_cube_3d),
		cmocka_unit_test(test_texture_compare_offset),
		cmocka_unit_test(test_texture_etc),
		cmocka_unit_test(test_image_write),
		cmocka_unit_test(test_uniform_store),
		cmocka_unit_test(test_atomics),
		cmocka_unit_test(test_packed_stores),
		cmocka_unit_test(test_stack),
		cmocka_unit_test(test_program_cache),
		cmocka_unit_test(test_program_extent),
	};

	return cmocka_run_group_tests_name("usc", tests, NULL, NULL);
}
