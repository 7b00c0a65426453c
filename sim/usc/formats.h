/*
 * formats.h: number formats of memory items and texels that are not plain
 * integers, floats or halves: the sRGB curve, the unsigned small floats of
 * R11G11B10 and the shared-exponent R9G9B9E5.  The USC's loads and stores
 * and the texture unit both use them.
 */
#ifndef USC_FORMATS_H
#define USC_FORMATS_H

#include <stdbool.h>
#include <stdint.h>

double usc_srgb_to_linear(double c);
double usc_linear_to_srgb(double c);

/* An unsigned small float (5 exponent bits, 6 or 5 mantissa bits) as a value. */
double usc_small_float(uint32_t v, unsigned mantissa_bits);
/* And back: round to nearest even or toward zero; negative -> 0, too large -> infinity. */
uint32_t usc_to_small_float(double x, unsigned mantissa_bits, bool rtz);

/* R9G9B9E5 from three values, the shared exponent as EXT_texture_shared_exponent says. */
uint32_t usc_to_rgb9e5(const double c[3], bool rtz);

#endif
