/*
 * compress.h: the compressed formats glTexImage and glTexSubImage take
 * uncompressed pixels for (EXT_texture_compression_s3tc and _rgtc say
 * the GL compresses them): one 4x4 block at a time.
 */
#ifndef GLES_COMPRESS_H
#define GLES_COMPRESS_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* BC1 (8 bytes), BC2 or BC3 (16 bytes) of 16 RGBA8 texels in rows, by libsquish. */
void gles_squish_block(const uint8_t rgba[64], unsigned bc, uint8_t *out);

#ifdef __cplusplus
}

#else

#include "formats.h"

/*
 * The block of format f (GLES_FORMAT_ENCODE) for 16 texels in rows, as
 * RGBA floats (values past the image's edge repeat its last ones).  S3TC
 * through libsquish, RGTC by the nearest of each block's eight values
 * between its lowest and highest.
 */
void gles_compress_block(const struct gles_format *f, const float rgba[16][4], uint8_t *out);

#endif

#endif
