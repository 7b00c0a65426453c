/*
 * astc.h: the texture unit's decoder of ASTC blocks, the LDR profile of
 * the Khronos Data Format Specification's ASTC chapter (the same text as
 * KHR_texture_compression_astc_hdr's): 16-byte blocks of 4x4 to 12x12
 * texels, 2D only.  HDR endpoint modes and HDR void-extent blocks are
 * errors in this profile.
 */
#ifndef USC_ASTC_H
#define USC_ASTC_H

#include <stdbool.h>
#include <stdint.h>

/*
 * Texel (x, y) of a bw x bh block (x < bw, y < bh): R, G, B, A as the
 * decoder's 16-bit values.  With srgb the endpoints expand as the sRGB
 * formats want (the top 8 bits of each value are then the sRGB-encoded
 * 8-bit colour); otherwise the values are UNORM16.  A block with an
 * illegal encoding (or bw/bh that are not an ASTC block size), and a
 * texel of a partition whose endpoint mode is HDR, yield the error
 * colour, magenta (0xffff, 0, 0xffff, 0xffff), and false.  Reads the 16
 * bytes of block and nothing else.
 */
bool usc_astc_texel(const uint8_t block[16], unsigned bw, unsigned bh, unsigned x, unsigned y,
		    bool srgb, uint16_t out[4]);

/*
 * The colour-endpoint unquantization of the integer sequence range with
 * `levels` values (6 to 256): value v (0..levels-1) as 0..255; and the
 * weight unquantization of a range (2 to 32 levels) as 0..64.  -1 for
 * ranges ASTC does not have.  Exposed for the unit tests.
 */
int usc_astc_unquantize_colour(unsigned levels, unsigned v);
int usc_astc_unquantize_weight(unsigned levels, unsigned v);

/* The partition (0..count-1) of texel (x, y, z) for a partition index (seed) and count. */
unsigned usc_astc_partition(unsigned seed, unsigned x, unsigned y, unsigned z, unsigned count,
			    bool small_block);

#endif
