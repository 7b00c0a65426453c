/*
 * pixels.h: pixels written to client memory (GLES 3.0.6 section 4.3.2,
 * with the addressing of section 3.7.1 under the pack parameters): where
 * each pixel of a rectangle goes, and one RGBA value converted to a
 * format/type ("final conversion").  glReadPixels (readpixels.c) uses them.
 */
#ifndef GLES_PIXELS_H
#define GLES_PIXELS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <GLES3/gl3.h>

struct gles_pixel_store;

/* Where the pixels of a w x h rectangle of format/type go. */
struct gles_pixel_layout {
	size_t pixel_bytes; /* one group (section 3.7.1) */
	size_t type_bytes;  /* one element of type: what a buffer offset is a multiple of */
	size_t row_stride;  /* from row to row */
	size_t first;	    /* the first pixel, after the skipped rows and pixels */
	size_t size;	    /* bytes from the start to the end of the last pixel (0: none) */
};

/* False when format/type is no combination this code writes. */
bool gles_pixels_layout(const struct gles_pixel_store *pack, GLenum format, GLenum type, unsigned w,
			unsigned h, struct gles_pixel_layout *out);

/*
 * One pixel into out (pixel_bytes bytes): from normalized or float RGBA
 * (float), or from integer RGBA (integer, each component clamped to the
 * type's range).  Components the format lacks are dropped.
 */
void gles_pixels_pack_float(GLenum format, GLenum type, const float rgba[4], uint8_t *out);
void gles_pixels_pack_int(GLenum format, GLenum type, const int64_t rgba[4], uint8_t *out);

#endif
