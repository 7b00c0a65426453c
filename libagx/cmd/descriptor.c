/*
 * descriptor.c: the texture, sampler and PBE descriptors of agx/cmd.h, from
 * a format's entry in agx/format.h and an image's layout in agx/layout.h.
 */
#include <math.h>

#include "agx/cmd.h"
#include "agx_cmdbuf.h"

static const struct agx_format_info *image_format(const struct agx_image *image)
{
	const struct agx_format_info *fi = agx_format_info(image->format);
	const struct agx_layout *l = image->layout;

	if (!fi || !l || !l->width || !l->height || !l->levels || l->width > 16384 ||
	    l->height > 16384 || l->levels > AGX_LAYOUT_MAX_LEVELS || !image->depth ||
	    image->depth > 16384)
		return NULL;
	/* linear images are 2D, one level, rows a multiple of 16 bytes apart (control-streams.md)
	 */
	if (!l->twiddled &&
	    (image->dim != AGX_IMAGE_2D || image->depth != 1 || l->levels != 1 || l->stride % 16))
		return NULL;
	if (image->dim == AGX_IMAGE_2D && image->depth != 1)
		return NULL;
	return fi;
}

static unsigned layers(const struct agx_image *image)
{
	return image->dim == AGX_IMAGE_CUBE ? 6 * image->depth : image->depth;
}

uint64_t agx_image_layer_address(const struct agx_image *image, unsigned layer)
{
	return image->address + (uint64_t)layer * image->layout->layer_stride;
}

/* A channel of the texel (0..3) or a constant, as the descriptors' swizzles name them. */
static unsigned hw_channel(unsigned c)
{
	return c < 4			   ? AGX_CMD_CHANNEL_R + c
	       : c == AGX_FORMAT_SWIZZLE_1 ? AGX_CMD_CHANNEL_ONE
					   : AGX_CMD_CHANNEL_ZERO;
}

bool agx_texture_descriptor(uint8_t out[AGX_TEXTURE_LENGTH], const struct agx_image *image,
			    unsigned first_level, unsigned last_level, const uint8_t *swizzle)
{
	static const unsigned dims[] = {
		[AGX_IMAGE_2D] = AGX_CMD_TEXTURE_DIM_TEX_2D,
		[AGX_IMAGE_2D_ARRAY] = AGX_CMD_TEXTURE_DIM_TEX_2D_ARRAY,
		[AGX_IMAGE_3D] = AGX_CMD_TEXTURE_DIM_TEX_3D,
		[AGX_IMAGE_CUBE] = AGX_CMD_TEXTURE_DIM_TEX_CUBE,
	};
	const struct agx_format_info *fi = image_format(image);
	const struct agx_layout *l = image->layout;
	unsigned full = 1, max;
	uint8_t sw[4];

	/* multisampled images are read as their sample grid's 2D image (agx_sample_grid()) */
	if (!fi || !fi->texture || first_level > last_level || last_level >= l->levels ||
	    image->samples > 1)
		return false;
	/*
	 * The texture unit lays the chain out by the view's last level, or
	 * whole when the descriptor says mipmapped (agx-sim, Mesa's ail).  A
	 * layout with more levels than the view and fewer than the whole
	 * chain: a level is where any longer chain puts it, so one layer of
	 * it is the view's own chain; with more layers (whose stride is the
	 * whole layout's) it has no descriptor.
	 */
	max = l->width > l->height ? l->width : l->height;
	if (image->dim == AGX_IMAGE_3D && image->depth > max)
		max = image->depth;
	while (max >> full)
		full++;
	if (l->levels != last_level + 1 && l->levels != full && layers(image) != 1)
		return false;
	for (unsigned c = 0; c < 4; c++) {
		unsigned want = swizzle ? swizzle[c] : c;

		sw[c] = (uint8_t)(want < 4 ? hw_channel(fi->read[want]) : hw_channel(want));
	}

	struct agx_cmd_texture t = {
		.dimension = image->dim == AGX_IMAGE_CUBE && image->depth > 1
				 ? AGX_CMD_TEXTURE_DIM_TEX_CUBE_ARRAY
				 : dims[image->dim],
		.layout = l->twiddled ? AGX_CMD_LAYOUT_TWIDDLED : AGX_CMD_LAYOUT_LINEAR,
		.channels = fi->hw_channels,
		.type = fi->hw_type,
		.srgb = fi->srgb && !image->skip_srgb_decode,
		.swizzle_r = sw[0],
		.swizzle_g = sw[1],
		.swizzle_b = sw[2],
		.swizzle_a = sw[3],
		.width = l->width,
		.height = l->height,
		.first_level = first_level,
		.last_level = last_level,
		.address = image->address,
		.unk_mipmapped = l->levels == full && l->levels != last_level + 1,
		.page_aligned_layers = l->page_aligned_layers,
	};

	if (l->twiddled)
		t.depth = image->depth;
	else
		t.stride = l->stride;
	if (image->address % 16 || !agx_cmd_texture_fits(&t))
		return false;
	agx_cmd_texture_pack(out, &t);
	return true;
}

bool agx_pbe_descriptor(uint8_t out[AGX_PBE_LENGTH], const struct agx_image *image, unsigned level,
			unsigned layer)
{
	const struct agx_format_info *fi = image_format(image);
	const struct agx_layout *l = image->layout;
	bool ms = image->samples > 1;
	unsigned sw[4], sx, sy;

	if (!fi || !fi->pbe || level >= l->levels || layer >= layers(image))
		return false;
	/* a multisampled image: one twiddled level of its sample grid */
	agx_sample_grid(image->samples, &sx, &sy);
	if (ms && (image->samples != 2 && image->samples != 4))
		return false;
	if (ms && (image->dim != AGX_IMAGE_2D || !l->twiddled || l->levels != 1 || l->width % sx ||
		   l->height % sy))
		return false;
	/* the PBE's swizzle: the tilebuffer component each stored channel takes */
	for (unsigned i = 0; i < 4; i++)
		sw[i] = i < fi->channels && fi->store[i] < 4 ? fi->store[i]
			: i < fi->channels		     ? 3 /* padding: read as 1 anyway */
							     : i;

	struct agx_cmd_pbe p = {
		.dimension = ms ? AGX_CMD_TEXTURE_DIM_TEX_2D_MS : AGX_CMD_TEXTURE_DIM_TEX_2D,
		.samples = image->samples == 4,
		.layout = l->twiddled ? AGX_CMD_LAYOUT_TWIDDLED : AGX_CMD_LAYOUT_LINEAR,
		.channels = fi->hw_channels,
		.type = fi->hw_type,
		.srgb = fi->srgb,
		.swizzle_r = AGX_CMD_CHANNEL_R + sw[0],
		.swizzle_g = AGX_CMD_CHANNEL_R + sw[1],
		.swizzle_b = AGX_CMD_CHANNEL_R + sw[2],
		.swizzle_a = AGX_CMD_CHANNEL_R + sw[3],
		.width = l->width / sx,
		.height = l->height / sy,
		.buffer = agx_image_layer_address(image, layer),
		.level = level,
	};

	/* one layer, written as a 2D image of the image's levels */
	if (l->twiddled) {
		p.levels = l->levels;
		p.layers = 1;
	} else {
		p.stride = l->stride;
	}
	if (p.buffer % 16 || !agx_cmd_pbe_fits(&p))
		return false;
	agx_cmd_pbe_pack(out, &p);
	return true;
}

/* A LOD in the sampler's unsigned 4.6 fixed point, clamped to what it holds. */
static uint64_t lod(float value)
{
	double v = isnan(value) ? 0 : fmin(fmax(value, 0.0), 1023.0 / 64);

	return (uint64_t)lround(v * 64);
}

void agx_sampler_descriptor(uint8_t out[AGX_SAMPLER_LENGTH], const struct agx_sampler *s)
{
	static const unsigned wraps[] = {
		[AGX_WRAP_REPEAT] = AGX_CMD_WRAP_REPEAT,
		[AGX_WRAP_CLAMP_TO_EDGE] = AGX_CMD_WRAP_CLAMP_TO_EDGE,
		[AGX_WRAP_MIRRORED_REPEAT] = AGX_CMD_WRAP_MIRRORED_REPEAT,
	};
	static const unsigned mips[] = {
		[AGX_MIP_NONE] = AGX_CMD_MIP_FILTER_NONE,
		[AGX_MIP_NEAREST] = AGX_CMD_MIP_FILTER_NEAREST,
		[AGX_MIP_LINEAR] = AGX_CMD_MIP_FILTER_LINEAR,
	};
	struct agx_cmd_sampler d = {
		AGX_CMD_SAMPLER_DEFAULTS,
		.min_lod = lod(s->min_lod),
		.max_lod = lod(s->max_lod),
		.magnify =
		    s->mag == AGX_FILTER_LINEAR ? AGX_CMD_FILTER_LINEAR : AGX_CMD_FILTER_NEAREST,
		.minify =
		    s->min == AGX_FILTER_LINEAR ? AGX_CMD_FILTER_LINEAR : AGX_CMD_FILTER_NEAREST,
		.mip_filter = mips[s->mip],
		.wrap_s = wraps[s->wrap[0]],
		.wrap_t = wraps[s->wrap[1]],
		.wrap_r = wraps[s->wrap[2]],
		.compare_enable = s->compare,
		.compare_func = s->compare_func,
		.seamful_cube_maps = s->seamful_cube_maps,
	};

	agx_cmd_sampler_pack(out, &d);
}
