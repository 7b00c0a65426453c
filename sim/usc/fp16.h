/*
 * fp16.h: IEEE half-precision conversions with the rounding the G13 ALU is
 * documented to use (applegpu's fma.py model): round to nearest even, no
 * flush of half-precision denormals, one canonical NaN.
 */
#ifndef USC_FP16_H
#define USC_FP16_H

#include <stdint.h>

#define FP16_CANONICAL_NAN 0x7e00u
#define FP32_CANONICAL_NAN 0x7fc00000u

/* Exact: every half is a float. */
float fp16_to_float(uint16_t h);

/* Correctly rounded (nearest even) from a double; NaN -> canonical NaN. */
uint16_t fp16_from_double(double d);

/*
 * x + y and x * y + z for values that are floats, rounded once to half.
 * The double result carries a sticky bit (round to odd) so that rounding it
 * again to half is the single correct rounding of the exact value.
 */
double fp16_exact_add(double x, double y);
double fp16_exact_fma(double x, double y, double z);

#endif
