/*
 * image.c: images (image.h) -- the BO and layout of a texture's levels or
 * a renderbuffer, and the drawable's buffers seen as images.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "context.h"
#include "image.h"
#include "objects.h"
#include "submit.h"

#define ALIGN(x, a) (((x) + (a)-1) / (a) * (a))

int gles_image_init(struct gles_image *img, struct agx_device *dev, GLenum internalformat,
		    enum agx_format format, unsigned w, unsigned h, unsigned depth, unsigned levels,
		    unsigned samples, bool twiddled)
{
	const struct agx_format_info *info = agx_format_info(format);
	unsigned sx, sy;
	struct gles_image out = {
		.refs = 1,
		.dev = dev,
		.format = format,
		.internalformat = internalformat,
		.width = w,
		.height = h,
		.depth = depth,
		.levels = levels,
		.samples = samples > 1 ? samples : 0,
		.layers = depth,
	};
	uint64_t size;
	int ret;

	if (!info || !levels || levels > AGX_LAYOUT_MAX_LEVELS)
		return -EINVAL;
	/* a multisampled image: one twiddled level of its sample grid (agx/layout.h) */
	if (out.samples && (out.samples > 4 || levels != 1 || depth != 1 || !twiddled))
		return -EINVAL;
	agx_sample_grid(out.samples, &sx, &sy);
	/* linear images have one level of whole texels (agx/layout.h) */
	if (!twiddled && (levels != 1 || (info->block_w > 1 || info->block_h > 1)))
		return -EINVAL;
	if (!w || !h || !out.layers) {
		/* no texels: a level given as 0x0, which GL allows */
		*img = out;
		return 0;
	}
	out.layout = (struct agx_layout){
		.twiddled = twiddled,
		.bytes_per_texel = info->bytes,
		.block_w = info->block_w,
		.block_h = info->block_h,
		.width = w * sx,
		.height = h * sy,
		.levels = levels,
		/* rows 16-byte aligned, as the texture unit and the PBE take linear images */
		.stride = twiddled ? 0 : ALIGN((uint64_t)w * info->bytes, 16),
	};
	if (!agx_layout_init(&out.layout))
		return -EINVAL;
	size = out.layout.layer_stride * out.layers;
	ret = agx_device_bo_create(dev, size, 0, &out.bo);
	if (ret < 0)
		return ret;
	*img = out;
	return 0;
}

void gles_image_finish(struct gles_image *img)
{
	if (img->dev && img->bo.size) {
		/* clears may have mapped it into a context's VM */
		gles_submit_forget_bo(img->dev, &img->bo);
		agx_device_bo_close(img->dev, &img->bo);
	}
	img->bo.size = 0;
	img->dev = NULL;
}

struct gles_image *gles_image_ref(struct gles_image *img)
{
	if (img)
		__atomic_add_fetch(&img->refs, 1, __ATOMIC_RELAXED);
	return img;
}

void gles_image_unref(struct gles_image *img)
{
	if (!img || __atomic_sub_fetch(&img->refs, 1, __ATOMIC_ACQ_REL))
		return;
	gles_image_finish(img);
	free(img);
}

/* The hardware format and GL sized internal format of a surface format; false for none. */
bool gles_surface_format_image(enum gles_surface_format f, enum agx_format *format,
			       GLenum *internalformat)
{
	static const struct {
		enum agx_format format;
		GLenum internalformat;
	} formats[] = {
		[GLES_FORMAT_RGBA8_UNORM] = { AGX_FORMAT_R8G8B8A8_UNORM, GL_RGBA8 },
		/* red in bits 15..11, as the surface format says */
		[GLES_FORMAT_B5G6R5_UNORM] = { AGX_FORMAT_B5G6R5_UNORM, GL_RGB565 },
		[GLES_FORMAT_RGBX8_UNORM] = { AGX_FORMAT_R8G8B8X8_UNORM, GL_RGB8 },
		[GLES_FORMAT_RGB10A2_UNORM] = { AGX_FORMAT_R10G10B10A2_UNORM, GL_RGB10_A2 },
		[GLES_FORMAT_RGBA16_FLOAT] = { AGX_FORMAT_R16G16B16A16_FLOAT, GL_RGBA16F },
		/* the configs' D24S8 (egl_config.c), stored as DEPTH24_STENCIL8 is */
		[GLES_FORMAT_Z32_FLOAT] = { AGX_FORMAT_Z32_FLOAT, GL_DEPTH24_STENCIL8 },
		[GLES_FORMAT_S8_UINT] = { AGX_FORMAT_S8_UINT, GL_DEPTH24_STENCIL8 },
		[GLES_FORMAT_Z24_FLOAT] = { AGX_FORMAT_Z32_FLOAT, GL_DEPTH_COMPONENT24 },
		[GLES_FORMAT_Z16_UNORM] = { AGX_FORMAT_Z16_UNORM, GL_DEPTH_COMPONENT16 },
		[GLES_FORMAT_D32_FLOAT] = { AGX_FORMAT_Z32_FLOAT, GL_DEPTH_COMPONENT32F },
	};

	if ((unsigned)f >= sizeof(formats) / sizeof(formats[0]) || !formats[f].internalformat)
		return false;
	*format = formats[f].format;
	*internalformat = formats[f].internalformat;
	return true;
}

/* Whether a surface buffer can be viewed: it has storage, laid out at the drawable's size. */
static bool viewable(const struct gles_drawable *d, const struct gles_buffer *buf)
{
	unsigned sx, sy;

	/* the layout's size is the drawable's (its sample grid's), or clears would reach past
	 * the BO */
	agx_sample_grid(d->samples, &sx, &sy);
	return buf->bo.size && buf->layout.width == d->width * sx &&
	       buf->layout.height == d->height * sy;
}

/* A one-level image over a surface buffer's BO, in its layout, owned by the surface. */
static bool view(const struct gles_drawable *d, const struct gles_buffer *buf,
		 struct gles_image *out)
{
	enum agx_format format;
	GLenum internalformat;

	if (!gles_surface_format_image(buf->format, &format, &internalformat) || !viewable(d, buf))
		return false;
	/*
	 * Every draw looks its targets up: a view that is already this
	 * buffer's is left as it is rather than written again (the layout
	 * alone is hundreds of bytes).
	 */
	if (out->bo.handle == buf->bo.handle && out->bo.map == buf->bo.map &&
	    out->bo.size == buf->bo.size && out->bo.fd == buf->bo.fd && out->format == format &&
	    out->internalformat == internalformat && out->width == d->width &&
	    out->height == d->height && out->levels == 1 && out->samples == d->samples &&
	    !memcmp(&out->layout, &buf->layout, sizeof(out->layout)))
		return true;
	*out = (struct gles_image){
		.bo = buf->bo,
		.layout = buf->layout,
		.format = format,
		.internalformat = internalformat,
		.width = d->width,
		.height = d->height,
		.depth = 1,
		.levels = 1,
		.samples = d->samples,
		.layers = 1,
	};
	return true;
}

/* The buffer the GL renders colour to: the multisampled one where there is one. */
static const struct gles_buffer *drawn_color(const struct gles_drawable *d)
{
	return d->samples ? &d->ms_color : &d->color;
}

bool gles_drawable_view_key(const struct gles_drawable *d, unsigned which, uint32_t *handle,
			    const void **map, enum agx_format *format)
{
	const struct gles_buffer *buf;
	GLenum internalformat;

	if (!d)
		return false;
	buf = which == GLES_DEFAULT_DEPTH     ? &d->depth
	      : which == GLES_DEFAULT_STENCIL ? &d->stencil
					      : drawn_color(d);
	if (!gles_surface_format_image(buf->format, format, &internalformat) || !viewable(d, buf))
		return false;
	*handle = buf->bo.handle;
	*map = buf->bo.map;
	return true;
}

bool gles_drawable_color_image(const struct gles_drawable *d, struct gles_image *out)
{
	return d && view(d, drawn_color(d), out);
}

bool gles_drawable_depth_image(const struct gles_drawable *d, struct gles_image *out)
{
	return d && view(d, &d->depth, out);
}

bool gles_drawable_stencil_image(const struct gles_drawable *d, struct gles_image *out)
{
	return d && view(d, &d->stencil, out);
}

void gles_image_resolve_texel(const struct gles_image *img, unsigned x, unsigned y, uint8_t *out)
{
	enum agx_format hw = agx_format_linear(img->format);
	const struct agx_format_info *info = agx_format_info(hw);
	float sum[4] = { 0 }, one[4];

	if (!img->samples) {
		memcpy(out, gles_image_texel(img, 0, 0, x, y), info->bytes);
		return;
	}
	/* integers, depth and stencil are not averaged: sample 0, as blits resolve them */
	if (info->kind != AGX_FORMAT_KIND_FLOAT ||
	    !agx_format_unpack_float(hw, gles_image_sample(img, x, y, 0), one)) {
		memcpy(out, gles_image_sample(img, x, y, 0), info->bytes);
		return;
	}
	for (unsigned s = 0; s < img->samples; s++) {
		agx_format_unpack_float(hw, gles_image_sample(img, x, y, s), one);
		for (unsigned c = 0; c < 4; c++)
			sum[c] += one[c];
	}
	for (unsigned c = 0; c < 4; c++)
		sum[c] /= (float)img->samples;
	agx_format_pack_float(hw, sum, out);
}

bool gles_drawable_resolve(const struct gles_drawable *d)
{
	struct gles_image ms = { 0 }, ss = { 0 };
	const struct gles_drawable single = { .width = d->width, .height = d->height };

	if (!d->samples)
		return true;
	if (!view(d, &d->ms_color, &ms) || !view(&single, &d->color, &ss))
		return false;
	for (unsigned y = 0; y < d->height; y++)
		for (unsigned x = 0; x < d->width; x++)
			gles_image_resolve_texel(&ms, x, y, gles_image_texel(&ss, 0, 0, x, y));
	return true;
}
