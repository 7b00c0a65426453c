/*
 * formats.h: the GL internal formats of OpenGL ES 3.0 (the sized formats
 * of tables 3.13 and 3.14, the unsized ones of table 3.3, the ETC2/EAC
 * compressed formats of table 3.16) and what each one is here: its
 * hardware format (agx/format.h), its bits, whether it is colour-, depth-
 * or stencil-renderable and texture-filterable; the format/type
 * combinations glTexImage takes (tables 3.2 and 3.3); and the conversion
 * of one client pixel of a format/type into a texel (pixel unpacking,
 * section 3.7).
 */
#ifndef GLES_FORMATS_H
#define GLES_FORMATS_H

#include <stdbool.h>
#include <stdint.h>

#include <GLES3/gl3.h>

#include "agx/format.h"

enum gles_format_flags {
	GLES_FORMAT_COLOR_RENDERABLE = 1 << 0,
	GLES_FORMAT_DEPTH_RENDERABLE = 1 << 1,
	GLES_FORMAT_STENCIL_RENDERABLE = 1 << 2,
	GLES_FORMAT_FILTERABLE = 1 << 3,
	GLES_FORMAT_TEXTURE = 1 << 4,	   /* a texture may have it */
	GLES_FORMAT_RENDERBUFFER = 1 << 5, /* glRenderbufferStorage takes it */
	GLES_FORMAT_SIZED = 1 << 6,
	GLES_FORMAT_COMPRESSED = 1 << 7,
	/*
	 * Compressed, and glTexImage and glTexSubImage take uncompressed
	 * pixels for it, which the GL compresses (compress.h): S3TC, RGTC.
	 */
	GLES_FORMAT_ENCODE = 1 << 8,
};

struct gles_format {
	GLenum internalformat;
	/* GL_RED .. GL_RGBA, GL_LUMINANCE(_ALPHA), GL_ALPHA, GL_DEPTH_COMPONENT,
	 * GL_DEPTH_STENCIL, GL_STENCIL_INDEX8 (the renderbuffer-only stencil format) */
	GLenum base;
	/* GL_UNSIGNED_NORMALIZED, GL_SIGNED_NORMALIZED, GL_FLOAT, GL_INT, GL_UNSIGNED_INT, GL_NONE
	 */
	GLenum component_type;
	bool srgb;
	enum agx_format hw; /* the colour, depth or stencil texels */
	/* a second image for the stencil (DEPTH24_STENCIL8, DEPTH32F_STENCIL8), else NONE */
	enum agx_format hw_stencil;
	uint8_t red, green, blue, alpha, depth, stencil, shared; /* bits, table 3.13 */
	unsigned flags;
};

/*
 * The format an internalformat names, NULL when OpenGL ES 3.0 has no such
 * internal format.  Unsized formats (GL_RGBA ...) give their own entry;
 * gles_format_teximage finds the effective one.
 */
const struct gles_format *gles_format_get(GLenum internalformat);

/*
 * glTexImage's internalformat/format/type (GLES 3.0 section 3.8.3 and
 * tables 3.2, 3.3): the format of the texels made, or NULL with *error:
 * GL_INVALID_ENUM for a format or type that is none, GL_INVALID_VALUE for
 * an internalformat that is none, GL_INVALID_OPERATION for a combination
 * the tables do not list.  An unsized internalformat gives the effective
 * sized format for its type (RGBA/UNSIGNED_SHORT_4_4_4_4: RGBA4).  A
 * format the GL compresses (GLES_FORMAT_ENCODE) takes what its
 * uncompressed counterparts do: RGBA or RGB (S3TC), RED or RG (RGTC),
 * of unsigned bytes (signed bytes for signed RGTC), halves or floats.
 */
const struct gles_format *gles_format_teximage(GLenum internalformat, GLenum format, GLenum type,
					       GLenum *error);

/* Whether format/type is a combination a sized internalformat takes (table 3.2). */
bool gles_format_matches(const struct gles_format *f, GLenum format, GLenum type);

/* Bytes of one client pixel of format/type, 0 if they are not GL enums of that kind. */
unsigned gles_pixel_bytes(GLenum format, GLenum type);
/* Whether format is a pixel format enum / type a pixel type enum. */
bool gles_pixel_format_valid(GLenum format);
bool gles_pixel_type_valid(GLenum type);

/*
 * One client pixel (format/type, section 3.7.2's unpacking and 3.8.3's
 * conversion to the internal format) into a texel of f: texel gets
 * agx_format_info(f->hw)->bytes bytes, stencil (formats with a stencil
 * image) one byte of f->hw_stencil.  Fixed-point depth is rounded to the
 * format's bits before it is stored, in a Z32F texel for the 24-bit
 * formats.  sRGB formats store the values as given: they are sRGB
 * already.
 */
void gles_pixel_to_texel(const struct gles_format *f, GLenum format, GLenum type,
			 const uint8_t *pixel, uint8_t *texel, uint8_t *stencil);

/* A compressed format's bytes for a w x h x d image (whole blocks of its size). */
uint64_t gles_format_compressed_size(const struct gles_format *f, unsigned w, unsigned h,
				     unsigned d);

/*
 * Whether f is one of KHR_texture_compression_astc_ldr's formats, which
 * (KHR_texture_compression_astc_sliced_3d) 3D textures may have too.
 */
bool gles_format_is_astc(const struct gles_format *f);

/*
 * The compressed formats GL_COMPRESSED_TEXTURE_FORMATS lists, in its
 * order: ES 3.0's ten and S3TC's eight.  Not RGTC's or ASTC's, which their
 * extensions keep out of that query.
 */
#define GLES_NUM_COMPRESSED_FORMATS 18
extern const GLenum gles_compressed_formats[GLES_NUM_COMPRESSED_FORMATS];

/*
 * GL_IMPLEMENTATION_COLOR_READ_FORMAT and _TYPE for a colour buffer of f
 * (GLES 3.0.6 section 4.3.1): the pair that is f's own texel layout -- for
 * RGB565 (GL_RGB, GL_UNSIGNED_SHORT_5_6_5), for R8 (GL_RED,
 * GL_UNSIGNED_BYTE), for RG16I (GL_RG_INTEGER, GL_SHORT) -- which
 * glReadPixels takes besides GL_RGBA/GL_UNSIGNED_BYTE (normalized
 * formats) or GL_RGBA_INTEGER with GL_INT/GL_UNSIGNED_INT (integer
 * formats).  False for formats that are no colour buffer.
 */
bool gles_format_read_pair(const struct gles_format *f, GLenum *format, GLenum *type);

/*
 * The DRM fourcc formats (drm_fourcc.h) images are imported and exported
 * in: ARGB8888, XRGB8888, ABGR8888, XBGR8888 and RGB565, linear.  The
 * format of a fourcc (NULL: none of them); the fourcc of a hardware format
 * (0: none); and the list, up to max of them in fourccs, its length
 * returned.
 */
const struct gles_format *gles_format_of_fourcc(uint32_t fourcc);
uint32_t gles_format_fourcc(enum agx_format hw);
unsigned gles_format_fourccs(uint32_t *fourccs, unsigned max);

#endif
