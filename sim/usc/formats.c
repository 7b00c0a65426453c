/*
 * formats.c: the number formats of packed texels and items (formats.h).
 */
#include <math.h>

#include "formats.h"

double usc_srgb_to_linear(double c)
{
	return c <= 0.04045 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4);
}

double usc_linear_to_srgb(double c)
{
	return c <= 0.0031308 ? c * 12.92 : 1.055 * pow(c, 1 / 2.4) - 0.055;
}

/* Small floats of rg11b10f (applegpu decode_float11/decode_float10). */
double usc_small_float(uint32_t v, unsigned mantissa_bits)
{
	unsigned e = (v >> mantissa_bits) & 0x1f, m = v & ((1u << mantissa_bits) - 1);

	if (e == 0x1f)
		return m ? NAN : INFINITY;
	if (e == 0)
		return ldexp(m, -14 - (int)mantissa_bits);
	return ldexp((1u << mantissa_bits) | m, (int)e - 15 - (int)mantissa_bits);
}

/*
 * An unsigned small float of rg11b10f: 5 exponent bits and 6 or 5 mantissa
 * bits, rounded to nearest even or toward zero; negative values and -0 are
 * 0, NaN stays NaN, what is too large becomes infinity (IEEE's rules).
 */
uint32_t usc_to_small_float(double x, unsigned mantissa_bits, bool rtz)
{
	uint32_t inf = 0x1fu << mantissa_bits;
	double scaled;
	int e;

	if (isnan(x))
		return inf | 1;
	if (!(x > 0))
		return 0;
	frexp(x, &e); /* x = m * 2^e, 0.5 <= m < 1 */
	e -= 1;	      /* x = 1.m * 2^e */
	if (e < -14)
		e = -14; /* denormal: the smallest exponent's scale */
	scaled = ldexp(x, (int)mantissa_bits - e);
	scaled = rtz ? trunc(scaled) : nearbyint(scaled);
	if (scaled >= (double)(2u << mantissa_bits)) { /* rounding carried into the exponent */
		scaled /= 2;
		e++;
	}
	if (e > 15)
		return rtz ? inf - 1 : inf;
	if (scaled < (double)(1u << mantissa_bits)) /* denormal */
		return (uint32_t)scaled;
	return (uint32_t)(e + 15) << mantissa_bits |
	       ((uint32_t)scaled & ((1u << mantissa_bits) - 1));
}

/* rgb9e5 with the shared exponent chosen as EXT_texture_shared_exponent describes. */
uint32_t usc_to_rgb9e5(const double c[3], bool rtz)
{
	const double max = ldexp(511, 16 - 9); /* (2^9 - 1) / 2^9 * 2^(31 - 15) */
	double v[3], m = 0;
	int shared;
	uint32_t word;

	for (int i = 0; i < 3; i++) {
		v[i] = isnan(c[i]) ? 0 : fmin(fmax(c[i], 0.0), max);
		m = fmax(m, v[i]);
	}
	shared = (m > 0 ? (int)fmax(-16, floor(log2(m))) : -16) + 1 + 15;
	if (floor(m / ldexp(1, shared - 15 - 9) + 0.5) == 512)
		shared++;
	word = (uint32_t)shared << 27;
	for (int i = 0; i < 3; i++) {
		double q = v[i] / ldexp(1, shared - 15 - 9);

		word |= ((uint32_t)(rtz ? floor(q) : floor(q + 0.5)) & 0x1ff) << (9 * i);
	}
	return word;
}
