/*
 * image.h: the storage of a texture's levels or a renderbuffer -- one BO of
 * the context's device holding the images of some levels and layers in one
 * agx_layout, in one hardware format (agx/format.h) -- and the same
 * description of the default framebuffer's buffers (a drawable's colour,
 * depth and stencil buffers viewed as images), so that clears, reads and
 * uploads treat the default framebuffer and framebuffer objects alike.
 *
 * Who makes which image:
 * - a mutable texture (glTexImage*) has one image per level it was given
 *   (and per cube face), each with one level: levels are specified one by
 *   one, in any sizes;
 * - an immutable texture (glTexStorage*) has one image holding all its
 *   levels, cube faces as layers 0..5;
 * - a renderbuffer has one image of one level.
 * A depth/stencil format with a stencil (DEPTH24_STENCIL8,
 * DEPTH32F_STENCIL8) has a second image beside each: its S8 stencil.
 * Textures are twiddled (what the texture unit reads fastest, and the only
 * layout for compressed formats and mip chains); colour renderbuffers are
 * linear, like the default framebuffer's colour buffer (rows 16-byte
 * aligned, as the PBE writes); depth and stencil renderbuffers and the
 * default framebuffer's depth and stencil buffers are twiddled, the only
 * layout the ZLS renders to (docs/render.md, "Targets").
 *
 * GPU addresses are not here: gles/submit.{c,h} maps an image's BO into the
 * context's VM when GPU work first uses it.
 */
#ifndef GLES_IMAGE_H
#define GLES_IMAGE_H

#include <stdbool.h>
#include <stdint.h>

#include <GLES3/gl3.h>

#include "agx/device.h"
#include "agx/format.h"
#include "agx/layout.h"

struct gles_drawable;

struct gles_image {
	/*
	 * References to an image on the heap (gles_image_unref): each texture
	 * level or chain that points into it, and each EGLImage made of it
	 * (egl_image.c); 1 from gles_image_init, unused by embedded images.
	 */
	unsigned refs;
	/* The BO's device; NULL for a view of a drawable's buffer, whose BO the surface owns. */
	struct agx_device *dev;
	struct agx_bo bo; /* bo.size 0: no storage (an image without texels) */
	struct agx_layout layout;
	enum agx_format format;
	GLenum internalformat; /* the GL sized internal format: GL_RGBA8, GL_DEPTH24_STENCIL8 ... */
	/* level 0's size; depth: array layers, cube faces (6) or 3D slices, else 1 */
	unsigned width, height, depth;
	unsigned levels;
	/*
	 * 0 for a single-sampled image.  A multisampled image (a renderbuffer
	 * of glRenderbufferStorageMultisample: 2 or 4 samples) is laid out as
	 * the hardware keeps it: one level of its sample grid, each pixel's
	 * samples side by side (agx_sample_grid(), agx/layout.h), so that the
	 * layout is 2x or 4x the pixels.  gles_image_sample() finds a sample.
	 */
	unsigned samples;
	unsigned layers; /* of the layout: depth */
	/*
	 * Bytes from the BO's start to the layout's: a dma-buf plane's offset
	 * (egl_image.c; a multiple of 16, as the descriptors take), else 0.
	 */
	uint64_t offset;
};

/*
 * One 2D slice of an image, as a framebuffer attachment sees it: a level,
 * and a layer (an array layer, a cube face, a 3D slice; 0 otherwise).
 */
struct gles_image_target {
	const struct gles_image *image;
	unsigned level, layer;
};

/*
 * Makes img the storage of levels levels of a w x h image with depth
 * layers (or samples samples, samples > 1 making it multisampled), in
 * format, twiddled or linear, in a new BO of dev (zeroed, as every new BO
 * is).  0, -EINVAL for a size or format the layout cannot take, or the
 * BO's -errno; img is untouched on failure.
 */
int gles_image_init(struct gles_image *img, struct agx_device *dev, GLenum internalformat,
		    enum agx_format format, unsigned w, unsigned h, unsigned depth, unsigned levels,
		    unsigned samples, bool twiddled);
/* Frees the BO of an image made by gles_image_init (a drawable's view owns none). */
void gles_image_finish(struct gles_image *img);
/* References to an image on the heap: the last unref finishes and frees it; NULL is a no-op. */
struct gles_image *gles_image_ref(struct gles_image *img);
void gles_image_unref(struct gles_image *img);

/* A level's size: max(size >> level, 1); 3D images minify their depth, others do not. */
static inline unsigned gles_image_width(const struct gles_image *img, unsigned level)
{
	return agx_layout_minify(img->width, level);
}

static inline unsigned gles_image_height(const struct gles_image *img, unsigned level)
{
	return agx_layout_minify(img->height, level);
}

/*
 * The bytes of element (x, y) (a texel; a 4x4 block of a compressed
 * format, x and y counted in blocks) of a level and layer, in the caller's
 * mapping of the BO.  The caller checks the bounds.
 */
static inline uint8_t *gles_image_texel(const struct gles_image *img, unsigned level,
					unsigned layer, unsigned x, unsigned y)
{
	return (uint8_t *)img->bo.map + img->offset +
	       agx_layout_texel(&img->layout, level, layer, x, y);
}

/* The bytes of sample s of pixel (x, y) of a multisampled image, as gles_image_texel's. */
static inline uint8_t *gles_image_sample(const struct gles_image *img, unsigned x, unsigned y,
					 unsigned s)
{
	unsigned sx, sy;

	agx_sample_grid(img->samples, &sx, &sy);
	return gles_image_texel(img, 0, 0, x * sx + s % sx, y * sy + s / sx);
}

/*
 * Pixel (x, y) of level 0 of img, resolved into out in img's format: a
 * multisampled image's samples averaged (colour formats of normalized and
 * float channels; others take sample 0), else the texel as it is.  The
 * caller checks the bounds and that the GPU is done with the image.
 */
void gles_image_resolve_texel(const struct gles_image *img, unsigned x, unsigned y, uint8_t *out);

/*
 * A multisampled drawable's resolve: ms_color averaged into color, which
 * windows present (the caller has waited for the GPU).  True, or false
 * when its buffers have no storage; nothing to do for one sample.
 */
bool gles_drawable_resolve(const struct gles_drawable *d);

/*
 * The default framebuffer's buffers as images: the drawable's colour,
 * depth (Z32F) or stencil (S8) buffer.  False (and *out untouched) when
 * the drawable has no such buffer or it has no storage (a 0x0 pbuffer).
 */
bool gles_drawable_color_image(const struct gles_drawable *d, struct gles_image *out);
bool gles_drawable_depth_image(const struct gles_drawable *d, struct gles_image *out);
bool gles_drawable_stencil_image(const struct gles_drawable *d, struct gles_image *out);
/*
 * What such an image would be over, without making it (a draw's check of
 * its targets): the BO's handle and map and the format of buffer which
 * (GLES_DEFAULT_COLOR, _DEPTH, _STENCIL); false when there is no image.
 */
bool gles_drawable_view_key(const struct gles_drawable *d, unsigned which, uint32_t *handle,
			    const void **map, enum agx_format *format);

#endif
