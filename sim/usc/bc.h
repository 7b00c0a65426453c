/*
 * bc.h: the texture unit's decoder of the BC1-BC5 block formats (S3TC,
 * EXT_texture_compression_s3tc; RGTC, EXT_texture_compression_rgtc; the
 * Khronos Data Format Specification's "S3TC" and "RGTC" chapters): 4x4
 * texel blocks of 8 or 16 bytes, little-endian, texels numbered across
 * rows.  Every bit pattern is a valid block.
 */
#ifndef USC_BC_H
#define USC_BC_H

#include <stdbool.h>
#include <stdint.h>

/*
 * Texel (x, y) of a BC1 colour block as R, G, B, A in [0, 1].  A block
 * whose first colour is not greater than its second has three colours
 * and transparent black; always_four reads it as four colours (the
 * colour half of BC2 and BC3).
 */
void usc_bc1_texel(const uint8_t block[8], unsigned x, unsigned y, bool always_four, float out[4]);

/* Texel (x, y) of BC2's explicit 4-bit alpha, in [0, 1]. */
float usc_bc2_alpha(const uint8_t block[8], unsigned x, unsigned y);

/*
 * Texel (x, y) of an interpolated single-channel block: BC3's alpha,
 * BC4, each half of BC5.  Unsigned in [0, 1], or signed in [-1, 1].
 */
float usc_bc4_texel(const uint8_t block[8], unsigned x, unsigned y, bool is_signed);

#endif
