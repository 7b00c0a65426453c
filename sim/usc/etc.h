/*
 * etc.h: the texture unit's decoder of the ETC2 and EAC block formats of
 * OpenGL ES 3.0 (the Khronos Data Format Specification's ETC2 chapter,
 * the same text as OpenGL ES 3.0 appendix C): 4x4 texel blocks of 8 bytes,
 * each read big-endian, texels numbered down columns.
 */
#ifndef USC_ETC_H
#define USC_ETC_H

#include <stdbool.h>
#include <stdint.h>

/*
 * Texel (x, y) of an ETC2 colour block: R, G, B, A as 8-bit values.  With
 * punch-through alpha, bit 33 says opaque and the texel may be
 * transparent black; without, A is 255.
 */
void usc_etc2_texel(const uint8_t block[8], unsigned x, unsigned y, bool punchthrough,
		    uint8_t out[4]);

/* Texel (x, y) of an EAC block as RGBA8's alpha: 0..255. */
unsigned usc_eac_alpha(const uint8_t block[8], unsigned x, unsigned y);

/* Texel (x, y) of an EAC R11 block: 0..2047, or signed, -1023..1023. */
int usc_eac_r11(const uint8_t block[8], unsigned x, unsigned y, bool is_signed);

#endif
