/* fp16.c: see fp16.h. */
#include <math.h>
#include <string.h>

#include "fp16.h"

float fp16_to_float(uint16_t h)
{
	unsigned sign = h >> 15, exp = (h >> 10) & 0x1f, frac = h & 0x3ff;
	float v;

	if (exp == 0x1f)
		v = frac ? NAN : INFINITY;
	else if (exp == 0)
		v = ldexpf((float)frac, -24);
	else
		v = ldexpf((float)(frac | 0x400), (int)exp - 25);
	return sign ? -v : v;
}

uint16_t fp16_from_double(double d)
{
	uint16_t sign = signbit(d) ? 0x8000 : 0;
	double a = fabs(d), scaled, rounded;
	int exp;

	if (isnan(d))
		return FP16_CANONICAL_NAN;
	if (isinf(a) || a >= 65520.0) /* 65520 rounds up past the largest half */
		return sign | 0x7c00;
	if (a < 0x1p-14) {
		/* subnormal (or zero): units of 2^-24, nearest even */
		rounded = nearbyint(a * 0x1p24);
		return sign | (uint16_t)rounded;
	}
	frexp(a, &exp);		     /* a = m * 2^exp, m in [0.5, 1) */
	scaled = ldexp(a, 11 - exp); /* 11 significant bits as an integer */
	rounded = nearbyint(scaled);
	if (rounded >= 2048.0) {
		rounded /= 2;
		exp++;
	}
	if (exp + 14 >= 31)
		return sign | 0x7c00;
	return sign | (uint16_t)((unsigned)(exp + 14) << 10) | ((uint16_t)rounded & 0x3ff);
}

/*
 * r + err is the exact value, r its rounding to nearest.  Returns it rounded
 * to odd instead: truncated toward zero, lowest bit set if inexact.
 */
static double round_to_odd(double r, double err)
{
	uint64_t bits;

	if (err == 0 || isinf(r) || isnan(r))
		return r;
	if (signbit(err) != signbit(r))
		r = nextafter(r, 0.0); /* rounding went away from zero: undo it */
	memcpy(&bits, &r, sizeof(bits));
	bits |= 1;
	memcpy(&r, &bits, sizeof(bits));
	return r;
}

double fp16_exact_add(double x, double y)
{
	/* Knuth's TwoSum: s + err == x + y exactly. */
	double s = x + y, bb = s - x, err = (x - (s - bb)) + (y - bb);

	return round_to_odd(s, err);
}

double fp16_exact_fma(double x, double y, double z)
{
	/* floats multiply exactly in double (24 + 24 bits) */
	return fp16_exact_add(x * y, z);
}
