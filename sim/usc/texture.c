/*
 * texture.c: the texture unit of texture.h.  Formats are a channel layout
 * and a type (Mesa src/asahi/layout/formats.c); texels are where the
 * device's own layout.h puts them.  Descriptors come from memory the client
 * wrote: every field is checked, and what the unit does not take is said.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "layout.h"
#include "agx_cmdbuf.h"
#include "bc.h"
#include "astc.h"
#include "etc.h"
#include "formats.h"
#include "fp16.h"
#include "texture.h"

/* Bytes per texel and channel widths of a channel layout; false for those not read. */
static bool channel_layout(unsigned c, struct usc_texture_channels *out)
{
	static const struct {
		uint8_t value;
		struct usc_texture_channels ch;
	} table[] = {
		{ AGX_CMD_CHANNELS_R8, { 1, 1, { 8 }, 1, 1 } },
		{ AGX_CMD_CHANNELS_R16, { 2, 1, { 16 }, 1, 1 } },
		{ AGX_CMD_CHANNELS_R8G8, { 2, 2, { 8, 8 }, 1, 1 } },
		{ AGX_CMD_CHANNELS_R5G6B5, { 2, 3, { 5, 6, 5 }, 1, 1 } },
		{ AGX_CMD_CHANNELS_R4G4B4A4, { 2, 4, { 4, 4, 4, 4 }, 1, 1 } },
		{ AGX_CMD_CHANNELS_R5G5B5A1, { 2, 4, { 5, 5, 5, 1 }, 1, 1 } },
		{ AGX_CMD_CHANNELS_R32, { 4, 1, { 32 }, 1, 1 } },
		{ AGX_CMD_CHANNELS_R16G16, { 4, 2, { 16, 16 }, 1, 1 } },
		{ AGX_CMD_CHANNELS_R10G10B10A2, { 4, 4, { 10, 10, 10, 2 }, 1, 1 } },
		{ AGX_CMD_CHANNELS_R8G8B8A8, { 4, 4, { 8, 8, 8, 8 }, 1, 1 } },
		{ AGX_CMD_CHANNELS_R32G32, { 8, 2, { 32, 32 }, 1, 1 } },
		{ AGX_CMD_CHANNELS_R16G16B16A16, { 8, 4, { 16, 16, 16, 16 }, 1, 1 } },
		{ AGX_CMD_CHANNELS_R32G32B32A32, { 16, 4, { 32, 32, 32, 32 }, 1, 1 } },
		{ AGX_CMD_CHANNELS_R11G11B10, { 4, 3, { 11, 11, 10 }, 1, 1 } },
		{ AGX_CMD_CHANNELS_R9G9B9E5, { 4, 3, { 9, 9, 9 }, 1, 1 } },
		/* blocks: RGBA8 and RG11 are two 8-byte blocks, alpha or red first */
		{ AGX_CMD_CHANNELS_ETC2_RGB8, { 8, 3, { 0 }, 4, 4 } },
		{ AGX_CMD_CHANNELS_ETC2_RGB8A1, { 8, 4, { 0 }, 4, 4 } },
		{ AGX_CMD_CHANNELS_ETC2_RGBA8, { 16, 4, { 0 }, 4, 4 } },
		{ AGX_CMD_CHANNELS_EAC_R11, { 8, 1, { 0 }, 4, 4 } },
		{ AGX_CMD_CHANNELS_EAC_RG11, { 16, 2, { 0 }, 4, 4 } },
		/* ASTC: 16 bytes a block of every size */
		{ AGX_CMD_CHANNELS_ASTC_4X4, { 16, 4, { 0 }, 4, 4 } },
		{ AGX_CMD_CHANNELS_ASTC_5X4, { 16, 4, { 0 }, 5, 4 } },
		{ AGX_CMD_CHANNELS_ASTC_5X5, { 16, 4, { 0 }, 5, 5 } },
		{ AGX_CMD_CHANNELS_ASTC_6X5, { 16, 4, { 0 }, 6, 5 } },
		{ AGX_CMD_CHANNELS_ASTC_6X6, { 16, 4, { 0 }, 6, 6 } },
		{ AGX_CMD_CHANNELS_ASTC_8X5, { 16, 4, { 0 }, 8, 5 } },
		{ AGX_CMD_CHANNELS_ASTC_8X6, { 16, 4, { 0 }, 8, 6 } },
		{ AGX_CMD_CHANNELS_ASTC_8X8, { 16, 4, { 0 }, 8, 8 } },
		{ AGX_CMD_CHANNELS_ASTC_10X5, { 16, 4, { 0 }, 10, 5 } },
		{ AGX_CMD_CHANNELS_ASTC_10X6, { 16, 4, { 0 }, 10, 6 } },
		{ AGX_CMD_CHANNELS_ASTC_10X8, { 16, 4, { 0 }, 10, 8 } },
		{ AGX_CMD_CHANNELS_ASTC_10X10, { 16, 4, { 0 }, 10, 10 } },
		{ AGX_CMD_CHANNELS_ASTC_12X10, { 16, 4, { 0 }, 12, 10 } },
		{ AGX_CMD_CHANNELS_ASTC_12X12, { 16, 4, { 0 }, 12, 12 } },
		/* BC2 and BC3: alpha, then a BC1 colour block; BC5: red, then green */
		{ AGX_CMD_CHANNELS_BC1, { 8, 4, { 0 }, 4, 4 } },
		{ AGX_CMD_CHANNELS_BC2, { 16, 4, { 0 }, 4, 4 } },
		{ AGX_CMD_CHANNELS_BC3, { 16, 4, { 0 }, 4, 4 } },
		{ AGX_CMD_CHANNELS_BC4, { 8, 1, { 0 }, 4, 4 } },
		{ AGX_CMD_CHANNELS_BC5, { 16, 2, { 0 }, 4, 4 } },
	};

	for (unsigned i = 0; i < sizeof(table) / sizeof(table[0]); i++)
		if (table[i].value == c) {
			*out = table[i].ch;
			return true;
		}
	return false;
}

static uint32_t fbits(float f)
{
	uint32_t u;

	memcpy(&u, &f, 4);
	return u;
}

static float fval(uint32_t bits)
{
	float f;

	memcpy(&f, &bits, 4);
	return f;
}

/* One channel of raw bits as the type says. */
static bool convert(unsigned type, unsigned bits, uint32_t v, uint32_t *out)
{
	switch (type) {
	case AGX_CMD_TEXTURE_TYPE_UNORM:
		if (bits > 16)
			return false;
		*out = fbits((float)(v / (double)((1u << bits) - 1)));
		return true;
	case AGX_CMD_TEXTURE_TYPE_SNORM: {
		int32_t s = (int32_t)(v << (32 - bits)) >> (32 - bits);
		double max = (double)((1u << (bits - 1)) - 1);

		if (bits > 16)
			return false;
		*out = fbits((float)(fmax(s, -max) / max));
		return true;
	}
	case AGX_CMD_TEXTURE_TYPE_UINT:
		*out = v;
		return true;
	case AGX_CMD_TEXTURE_TYPE_SINT:
		*out = bits == 32 ? v : (uint32_t)((int32_t)(v << (32 - bits)) >> (32 - bits));
		return true;
	case AGX_CMD_TEXTURE_TYPE_FLOAT:
		if (bits == 16)
			*out = fbits(fp16_to_float((uint16_t)v));
		else if (bits == 32)
			*out = v;
		else
			return false;
		return true;
	default:
		return false;
	}
}

static uint64_t field(const uint8_t *texel, unsigned bit, unsigned width)
{
	uint64_t v = 0;

	for (unsigned i = 0; i < width; i++)
		v |= (uint64_t)((texel[(bit + i) / 8] >> ((bit + i) % 8)) & 1) << i;
	return v;
}

/* A texel's bytes as four channel values (missing ones 0, 0, 0, 1). */
static bool decode(const struct agx_cmd_texture *t, const struct usc_texture_channels *ch,
		   const uint8_t *texel, uint32_t v[4], bool integer)
{
	uint32_t one = integer ? 1 : fbits(1.0f);

	v[0] = v[1] = v[2] = 0;
	v[3] = one;
	if (t->channels == AGX_CMD_CHANNELS_R11G11B10 || t->channels == AGX_CMD_CHANNELS_R9G9B9E5) {
		uint32_t w;

		if (t->type != AGX_CMD_TEXTURE_TYPE_FLOAT)
			return false;
		memcpy(&w, texel, 4);
		for (unsigned n = 0; n < 3; n++)
			v[n] = fbits(
			    (float)(t->channels == AGX_CMD_CHANNELS_R11G11B10
					? (n < 2 ? usc_small_float(w >> (11 * n), 6)
						 : usc_small_float(w >> 22, 5))
					: ldexp((w >> (9 * n)) & 0x1ff, (int)(w >> 27) - 24)));
		return true;
	}
	for (unsigned n = 0, bit = 0; n < ch->count; bit += ch->bits[n], n++) {
		if (!convert(t->type, ch->bits[n], (uint32_t)field(texel, bit, ch->bits[n]), &v[n]))
			return false;
		if (t->srgb && n < 3 && t->type == AGX_CMD_TEXTURE_TYPE_UNORM) {
			float f;

			memcpy(&f, &v[n], 4);
			v[n] = fbits((float)usc_srgb_to_linear(f));
		}
	}
	return true;
}

/*
 * Texel (x, y) of an ASTC block.  LDR unorm: the decoder's UNORM16 values
 * (the specification's decode to FP16 differs from them by less than an
 * 8-bit step); sRGB: their top 8 bits are the sRGB-encoded colour and the
 * alpha, as the sRGB formats' decode says.  HDR (float) is not simulated.
 */
static bool decode_astc(const struct agx_cmd_texture *t, const struct usc_texture_channels *ch,
			const uint8_t *block, unsigned x, unsigned y, uint32_t v[4])
{
	uint16_t c[4];

	if (t->type != AGX_CMD_TEXTURE_TYPE_UNORM)
		return false;
	usc_astc_texel(block, ch->block_w, ch->block_h, x, y, t->srgb, c);
	for (unsigned n = 0; n < 4; n++) {
		double f = t->srgb ? (c[n] >> 8) / 255.0 : c[n] / 65535.0;

		v[n] = fbits((float)(t->srgb && n < 3 ? usc_srgb_to_linear(f) : f));
	}
	return true;
}

/*
 * Texel (x, y) of an ETC2 or EAC block (OpenGL ES 3.0 appendix C), as
 * unorm or snorm floats; ETC2 colours may be sRGB.  Mesa's format table
 * (src/asahi/layout/formats.c) pairs ETC2 with unorm and EAC with unorm
 * or snorm; other types are refused.
 */
/*
 * Texel (x, y) of a BC1-BC5 block (bc.h), as floats: BC1-3 unorm, their
 * colours perhaps sRGB; BC4 and BC5 unorm or snorm (Mesa's format table
 * pairs them so).  False for another type.
 */
static bool decode_bc(const struct agx_cmd_texture *t, const uint8_t *block, unsigned x, unsigned y,
		      uint32_t v[4])
{
	bool snorm = t->type == AGX_CMD_TEXTURE_TYPE_SNORM;
	float c[4];

	if (t->channels == AGX_CMD_CHANNELS_BC4 || t->channels == AGX_CMD_CHANNELS_BC5) {
		if (t->type != AGX_CMD_TEXTURE_TYPE_UNORM && !snorm)
			return false;
		for (unsigned n = 0; n < (t->channels == AGX_CMD_CHANNELS_BC5 ? 2u : 1u); n++)
			v[n] = fbits(usc_bc4_texel(block + 8 * n, x, y, snorm));
		return true;
	}
	if (t->type != AGX_CMD_TEXTURE_TYPE_UNORM)
		return false;
	usc_bc1_texel(t->channels == AGX_CMD_CHANNELS_BC1 ? block : block + 8, x, y,
		      t->channels != AGX_CMD_CHANNELS_BC1, c);
	if (t->channels == AGX_CMD_CHANNELS_BC2)
		c[3] = usc_bc2_alpha(block, x, y);
	else if (t->channels == AGX_CMD_CHANNELS_BC3)
		c[3] = usc_bc4_texel(block, x, y, false);
	for (unsigned n = 0; n < 4; n++)
		v[n] = fbits(t->srgb && n < 3 ? (float)usc_srgb_to_linear(c[n]) : c[n]);
	return true;
}

static bool decode_block(const struct agx_cmd_texture *t, const struct usc_texture_channels *ch,
			 const uint8_t *block, unsigned x, unsigned y, uint32_t v[4])
{
	bool snorm = t->type == AGX_CMD_TEXTURE_TYPE_SNORM;
	uint8_t rgba[4];

	v[0] = v[1] = v[2] = 0;
	v[3] = fbits(1.0f);
	if (t->channels >= AGX_CMD_CHANNELS_BC1 && t->channels <= AGX_CMD_CHANNELS_BC5)
		return decode_bc(t, block, x, y, v);
	if (t->channels >= AGX_CMD_CHANNELS_ASTC_4X4 && t->channels <= AGX_CMD_CHANNELS_ASTC_12X12)
		return decode_astc(t, ch, block, x, y, v);
	if (t->channels == AGX_CMD_CHANNELS_EAC_R11 || t->channels == AGX_CMD_CHANNELS_EAC_RG11) {
		if (t->type != AGX_CMD_TEXTURE_TYPE_UNORM && !snorm)
			return false;
		for (unsigned n = 0; n < (t->channels == AGX_CMD_CHANNELS_EAC_RG11 ? 2u : 1u); n++)
			v[n] = fbits((float)(usc_eac_r11(block + 8 * n, x, y, snorm) /
					     (snorm ? 1023.0 : 2047.0)));
		return true;
	}
	if (t->type != AGX_CMD_TEXTURE_TYPE_UNORM)
		return false;
	if (t->channels == AGX_CMD_CHANNELS_ETC2_RGBA8) {
		usc_etc2_texel(block + 8, x, y, false, rgba);
		rgba[3] = (uint8_t)usc_eac_alpha(block, x, y);
	} else {
		usc_etc2_texel(block, x, y, t->channels == AGX_CMD_CHANNELS_ETC2_RGB8A1, rgba);
	}
	for (unsigned n = 0; n < 4; n++) {
		double f = rgba[n] / 255.0;

		v[n] = fbits((float)(t->srgb && n < 3 ? usc_srgb_to_linear(f) : f));
	}
	return true;
}

static void swizzle(const struct agx_cmd_texture *t, const uint32_t in[4], bool integer,
		    uint32_t out[4])
{
	const unsigned sw[4] = { t->swizzle_r, t->swizzle_g, t->swizzle_b, t->swizzle_a };

	for (unsigned n = 0; n < 4; n++)
		out[n] = sw[n] <= AGX_CMD_CHANNEL_A	? in[sw[n]]
			 : sw[n] == AGX_CMD_CHANNEL_ONE ? (integer ? 1 : fbits(1.0f))
							: 0;
}

void usc_sampler_border(const uint8_t *sampler, bool integer, uint32_t out[4])
{
	struct agx_cmd_sampler s = { 0 };
	uint32_t one = integer ? 1 : fbits(1.0f);

	agx_cmd_sampler_unpack(sampler, &s);
	switch (s.border) {
	case AGX_CMD_BORDER_OPAQUE_BLACK:
		out[0] = out[1] = out[2] = 0, out[3] = one;
		break;
	case AGX_CMD_BORDER_OPAQUE_WHITE:
		out[0] = out[1] = out[2] = out[3] = one;
		break;
	case AGX_CMD_BORDER_CUSTOM:
		/* the four words after the sampler, taken as the values themselves */
		memcpy(out, sampler + AGX_CMD_SAMPLER_LENGTH, 16);
		break;
	default:
		out[0] = out[1] = out[2] = out[3] = 0;
		break;
	}
}

static enum usc_texel_status bad(char *why, unsigned size, const char *text)
{
	snprintf(why, size, "%s", text);
	return USC_TEXEL_BAD;
}

/* The rest of a view, once v->t holds the descriptor. */
static enum usc_texel_status view_finish(struct usc_texture_view *v, char *why, unsigned why_size)
{
	if (v->t.null)
		return bad(why, why_size, "null texture");
	if (!channel_layout((unsigned)v->t.channels, &v->ch))
		return bad(why, why_size, "texture channels not read by the simulator");
	v->integer =
	    v->t.type == AGX_CMD_TEXTURE_TYPE_UINT || v->t.type == AGX_CMD_TEXTURE_TYPE_SINT;
	if (v->t.layout != AGX_CMD_LAYOUT_LINEAR && v->t.layout != AGX_CMD_LAYOUT_TWIDDLED)
		return bad(why, why_size, "compressed texture layouts are not simulated");
	if (v->t.extended)
		return bad(why, why_size, "extended texture descriptors are not simulated");
	v->l.twiddled = v->t.layout == AGX_CMD_LAYOUT_TWIDDLED;
	if (v->ch.block_w > 1 && !v->l.twiddled)
		return bad(why, why_size, "block-compressed textures are never linear");
	v->l.bytes_per_texel = v->ch.bytes;
	v->l.block_w = v->ch.block_w;
	v->l.block_h = v->ch.block_h;
	v->l.width = (unsigned)v->t.width;
	v->l.height = (unsigned)v->t.height;
	if (v->samples > 1) {
		unsigned sx, sy;

		usc_sample_grid(v->samples, &sx, &sy);
		v->l.width *= sx;
		v->l.height *= sy;
	}
	v->l.page_aligned_layers = v->t.page_aligned_layers;
	if (v->l.twiddled) {
		unsigned max = v->l.width > v->l.height ? v->l.width : v->l.height, full = 1;
		unsigned depth = (unsigned)v->t.depth;

		/* a 3D texture's chain halves its depth too (Mesa ail: mipmapped_z) */
		if (v->t.dimension == AGX_CMD_TEXTURE_DIM_TEX_3D && depth > max)
			max = depth;
		while (max >> full)
			full++;
		/* a mipmapped texture has its whole chain, whatever the view shows */
		v->l.levels = v->t.unk_mipmapped ? full : (unsigned)v->t.last_level + 1;
		/* 3D slices and cube faces are layers too: a cube's depth counts cubes */
		v->depth = depth;
		v->layers = v->t.dimension == AGX_CMD_TEXTURE_DIM_TEX_CUBE ||
				    v->t.dimension == AGX_CMD_TEXTURE_DIM_TEX_CUBE_ARRAY
				? 6 * depth
				: depth;
	} else {
		v->l.levels = 1;
		v->l.stride = v->t.stride;
		v->layers = 1;
	}
	if (!usc_layout_init(&v->l))
		return bad(why, why_size, "texture layout out of range");
	return USC_TEXEL_OK;
}

enum usc_texel_status usc_texture_view_init(struct usc_texture_view *v, const uint8_t *texture,
					    unsigned dim, char *why, unsigned why_size)
{
	memset(v, 0, sizeof(*v));
	if (!agx_cmd_texture_unpack(texture, &v->t))
		return bad(why, why_size, "texture descriptor with reserved bits set");
	if (dim != v->t.dimension || dim == AGX_CMD_TEXTURE_DIM_TEX_2D_MS ||
	    dim > AGX_CMD_TEXTURE_DIM_TEX_CUBE_ARRAY)
		return bad(why, why_size,
			   "texture dimension not simulated, or not the descriptor's");
	if (dim >= AGX_CMD_TEXTURE_DIM_TEX_3D && v->t.layout == AGX_CMD_LAYOUT_LINEAR)
		return bad(why, why_size, "linear 3D and cube textures do not exist");
	return view_finish(v, why, why_size);
}

enum usc_texel_status usc_pbe_view_init(struct usc_texture_view *v, const uint8_t *pbe,
					unsigned dim, unsigned *level, char *why, unsigned why_size)
{
	struct agx_cmd_pbe b;

	memset(v, 0, sizeof(*v));
	if (!agx_cmd_pbe_unpack(pbe, &b))
		return bad(why, why_size, "PBE descriptor with reserved bits set");
	if (b.dimension != dim ||
	    (dim != AGX_CMD_TEXTURE_DIM_TEX_2D && dim != AGX_CMD_TEXTURE_DIM_TEX_2D_MS))
		return bad(why, why_size, "PBE dimension not simulated, or not the instruction's");
	v->samples = dim == AGX_CMD_TEXTURE_DIM_TEX_2D_MS ? (b.samples ? 4 : 2) : 1;
	if (v->samples > 1 && (b.level || b.levels != 1 || b.layout != AGX_CMD_LAYOUT_TWIDDLED))
		return bad(why, why_size, "a multisampled PBE image is one twiddled level");
	if (b.rotate_90 || b.flip_vertical || b.unk52 || b.compressed_1 || b.extended)
		return bad(why, why_size,
			   "PBE rotation, flips, compression and extended "
			   "descriptors are not simulated");
	/* the same image as a texture descriptor would describe it */
	v->t.dimension = b.dimension;
	v->t.layout = b.layout;
	v->t.channels = b.channels;
	v->t.type = b.type;
	v->t.swizzle_r = AGX_CMD_CHANNEL_R;
	v->t.swizzle_g = AGX_CMD_CHANNEL_G;
	v->t.swizzle_b = AGX_CMD_CHANNEL_B;
	v->t.swizzle_a = AGX_CMD_CHANNEL_A;
	v->t.width = b.width;
	v->t.height = b.height;
	v->t.address = b.buffer;
	v->t.srgb = b.srgb;
	v->t.unk_mipmapped = b.unk_mipmapped;
	*level = (unsigned)b.level;
	if (b.layout == AGX_CMD_LAYOUT_LINEAR) {
		/* Mesa packs a linear PBE's stride as bytes - 4 (agx_state.c) */
		if (b.stride % 16 || b.level)
			return bad(why, why_size,
				   "linear PBE stride not a multiple of 16, or a level");
		v->t.stride = b.stride;
	} else {
		unsigned levels = (unsigned)b.levels;

		if (b.layers != 1 || b.page_aligned_layers)
			return bad(why, why_size, "layered PBE images are not simulated");
		v->t.depth = 1;
		v->t.last_level = levels - 1;
		if (*level >= levels)
			return bad(why, why_size, "PBE level past the image's levels");
	}
	if (channel_layout((unsigned)b.channels, &v->ch) && v->ch.block_w > 1)
		return bad(why, why_size, "the PBE does not write block-compressed formats");
	return view_finish(v, why, why_size);
}

/* The absolute levels a view shows. */
static bool level_ok(const struct usc_texture_view *v, int32_t level)
{
	return level >= (int32_t)v->t.first_level && level <= (int32_t)v->t.last_level &&
	       level < (int32_t)v->l.levels;
}

/*
 * Integer coordinates made absolute (the level from the view's first) and
 * checked against the texture; false outside.
 */
static bool texel_inside(const struct usc_texture_view *v, int32_t x, int32_t *y, uint32_t *layer,
			 int32_t *level)
{
	unsigned dim = (unsigned)v->t.dimension;

	*level += (int32_t)v->t.first_level;
	if (dim == AGX_CMD_TEXTURE_DIM_TEX_1D || dim == AGX_CMD_TEXTURE_DIM_TEX_1D_ARRAY)
		*y = 0;
	if (dim == AGX_CMD_TEXTURE_DIM_TEX_1D || dim == AGX_CMD_TEXTURE_DIM_TEX_2D)
		*layer = 0;
	if (dim != AGX_CMD_TEXTURE_DIM_TEX_3D)
		*layer &= 0xffff;
	return level_ok(v, *level) && x >= 0 && *y >= 0 &&
	       (unsigned)x < usc_layout_minify(v->l.width, (unsigned)*level) &&
	       (unsigned)*y < usc_layout_minify(v->l.height, (unsigned)*level) &&
	       /* a 3D level has its share of the slices */
	       *layer < (dim == AGX_CMD_TEXTURE_DIM_TEX_3D
			     ? usc_layout_minify(v->depth, (unsigned)*level)
			     : v->layers);
}

/* One texel, inside the texture: read, decoded, swizzled. */
static enum usc_texel_status view_read(const struct usc_texture_view *v,
				       const struct usc_memory *mem, int32_t level, uint32_t layer,
				       unsigned x, unsigned y, uint32_t out[4], uint64_t *fault,
				       char *why, unsigned why_size)
{
	uint8_t texel[16];
	uint32_t raw[4];
	unsigned bw = v->ch.block_w, bh = v->ch.block_h;
	uint64_t at =
	    v->t.address + usc_layout_element(&v->l, (unsigned)level, layer, x / bw, y / bh);

	if (!mem->read || !mem->read(mem->ctx, at, texel, v->ch.bytes)) {
		*fault = at;
		return USC_TEXEL_FAULT;
	}
	if (bw > 1 ? !decode_block(&v->t, &v->ch, texel, x % bw, y % bh, raw)
		   : !decode(&v->t, &v->ch, texel, raw, v->integer))
		return bad(why, why_size, "texture format (channels and type) not simulated");
	swizzle(&v->t, raw, v->integer, out);
	return USC_TEXEL_OK;
}

enum usc_texel_status usc_texel_fetch(const struct usc_texture_view *v,
				      const struct usc_memory *mem, int32_t x, int32_t y,
				      uint32_t layer, int32_t level, uint32_t out[4],
				      uint64_t *fault, char *why, unsigned why_size)
{
	if (!texel_inside(v, x, &y, &layer, &level))
		return USC_TEXEL_BORDER;
	return view_read(v, mem, level, layer, (unsigned)x, (unsigned)y, out, fault, why, why_size);
}

/* --- writes ------------------------------------------------------------------------ */

/* Shared-exponent and small-float texels are packed whole, not channel by channel. */
static bool texel_packed(const struct usc_texture_view *v)
{
	return v->t.channels == AGX_CMD_CHANNELS_R11G11B10 ||
	       v->t.channels == AGX_CMD_CHANNELS_R9G9B9E5;
}

/* A channel value (float bits or an integer) as raw bits of the type and width. */
static bool encode(unsigned type, unsigned bits, uint32_t v, bool srgb, uint32_t *out)
{
	uint32_t mask = bits == 32 ? ~0u : (1u << bits) - 1;
	double x = fval(v);

	switch (type) {
	case AGX_CMD_TEXTURE_TYPE_UNORM:
		if (bits > 16)
			return false;
		x = isnan(x) ? 0 : fmin(fmax(x, 0.0), 1.0);
		if (srgb)
			x = usc_linear_to_srgb(x);
		*out = (uint32_t)nearbyint(x * mask);
		return true;
	case AGX_CMD_TEXTURE_TYPE_SNORM: {
		double max = (double)((1u << (bits - 1)) - 1);

		if (bits > 16)
			return false;
		x = isnan(x) ? 0 : fmin(fmax(x, -1.0), 1.0);
		*out = (uint32_t)(int32_t)nearbyint(x * max) & mask;
		return true;
	}
	case AGX_CMD_TEXTURE_TYPE_UINT:
	case AGX_CMD_TEXTURE_TYPE_SINT:
		*out = v & mask; /* the low bits, as a store of a narrower integer keeps */
		return true;
	case AGX_CMD_TEXTURE_TYPE_FLOAT:
		if (bits == 16)
			*out = fp16_from_double(x);
		else if (bits == 32)
			*out = v;
		else
			return false;
		return true;
	default:
		return false;
	}
}

enum usc_texel_status usc_texel_encode(const struct usc_texture_view *v, const uint32_t in[4],
				       bool halves, uint8_t texel[16], char *why, unsigned why_size)
{
	memset(texel, 0, 16);
	if (v->ch.block_w > 1)
		return bad(why, why_size, "block-compressed textures are not written");
	if (texel_packed(v)) {
		double c[3];
		uint32_t word;

		if (v->t.type != AGX_CMD_TEXTURE_TYPE_FLOAT)
			return bad(why, why_size,
				   "texture format (channels and type) not simulated");
		for (unsigned n = 0; n < 3; n++)
			c[n] = halves ? fp16_to_float((uint16_t)in[n]) : fval(in[n]);
		word = v->t.channels == AGX_CMD_CHANNELS_R9G9B9E5
			   ? usc_to_rgb9e5(c, false)
			   : usc_to_small_float(c[0], 6, false) |
				 usc_to_small_float(c[1], 6, false) << 11 |
				 usc_to_small_float(c[2], 5, false) << 22;
		memcpy(texel, &word, 4);
		return USC_TEXEL_OK;
	}
	for (unsigned n = 0, bit = 0; n < v->ch.count; bit += v->ch.bits[n], n++) {
		uint32_t raw, value = in[n];

		/* 16-bit registers: halves of floats, or 16-bit integers */
		if (halves)
			value = v->integer ? (v->t.type == AGX_CMD_TEXTURE_TYPE_SINT
						  ? (uint32_t)(int32_t)(int16_t)value
						  : value & 0xffff)
					   : fbits(fp16_to_float((uint16_t)value));
		if (!encode((unsigned)v->t.type, v->ch.bits[n], value, v->t.srgb && n < 3, &raw))
			return bad(why, why_size,
				   "texture format (channels and type) not simulated");
		for (unsigned i = 0; i < v->ch.bits[n]; i++)
			texel[(bit + i) / 8] |= (uint8_t)(((raw >> i) & 1) << ((bit + i) % 8));
	}
	return USC_TEXEL_OK;
}

enum usc_texel_status usc_texel_write(const struct usc_texture_view *v,
				      const struct usc_memory *mem, int32_t x, int32_t y,
				      uint32_t layer, int32_t level, unsigned count,
				      const uint8_t *texels, uint64_t *fault)
{
	uint32_t row_layer = layer;
	int32_t row_level = level, row_y = y;

	/* the row is cut where it leaves the texture */
	if (count && !texel_inside(v, x, &row_y, &row_layer, &row_level))
		return USC_TEXEL_BORDER;
	if (count && (unsigned)x + count > usc_layout_minify(v->l.width, (unsigned)row_level))
		count = usc_layout_minify(v->l.width, (unsigned)row_level) - (unsigned)x;
	for (unsigned i = 0; i < count;) {
		uint64_t at =
		    v->t.address + usc_layout_element(&v->l, (unsigned)row_level, row_layer,
						      (unsigned)x + i, (unsigned)row_y);
		/* linear rows are one run; twiddled ones a texel at a time */
		unsigned run = v->l.twiddled ? 1 : count - i;

		if (!mem->write ||
		    !mem->write(mem->ctx, at, texels + i * v->ch.bytes, run * v->ch.bytes)) {
			*fault = at;
			return USC_TEXEL_FAULT;
		}
		i += run;
	}
	return USC_TEXEL_OK;
}

enum usc_texel_status usc_texel_store(const struct usc_texture_view *v,
				      const struct usc_memory *mem, int32_t x, int32_t y,
				      uint32_t layer, int32_t level, const uint32_t in[4],
				      bool halves, uint64_t *fault, char *why, unsigned why_size)
{
	uint8_t texel[16];
	enum usc_texel_status st = usc_texel_encode(v, in, halves, texel, why, why_size);

	return st != USC_TEXEL_OK ? st
				  : usc_texel_write(v, mem, x, y, layer, level, 1, texel, fault);
}

/* --- sampling --------------------------------------------------------------------- */

/* A texel coordinate wrapped into [0, size), or -1: the border (clamp to border). */
static int64_t wrap(unsigned mode, int64_t i, unsigned size)
{
	int64_t n = size, m;

	switch (mode) {
	case AGX_CMD_WRAP_REPEAT:
		return ((i % n) + n) % n;
	case AGX_CMD_WRAP_MIRRORED_REPEAT:
		m = ((i % (2 * n)) + 2 * n) % (2 * n);
		return m < n ? m : 2 * n - 1 - m;
	case AGX_CMD_WRAP_MIRRORED_CLAMP_TO_EDGE:
		m = i < 0 ? -1 - i : i;
		return m < n ? m : n - 1;
	case AGX_CMD_WRAP_CLAMP_TO_BORDER:
		return i < 0 || i >= n ? -1 : i;
	default: /* clamp to edge, clamp (GL) */
		return i < 0 ? 0 : i >= n ? n - 1 : i;
	}
}

/*
 * A cube direction onto its face, as GL selects it (OpenGL ES 3.0, table
 * 3.21): the face (+X, -X, +Y, -Y, +Z, -Z are layers 0..5) and s, t in
 * [0, 1] across it; with derivatives of the direction, those of s and t.
 */
static unsigned cube_face(const double d[3], double *s, double *t, const double *dd, double *dst)
{
	static const struct {
		signed char sc, sc_sign, tc, tc_sign;
	} axes[6] = { { 2, -1, 1, -1 }, { 2, 1, 1, -1 }, { 0, 1, 2, 1 },
		      { 0, 1, 2, -1 },	{ 0, 1, 1, -1 }, { 0, -1, 1, -1 } };
	double ax = fabs(d[0]), ay = fabs(d[1]), az = fabs(d[2]), ma;
	unsigned major = ax >= ay && ax >= az ? 0 : ay >= az ? 1 : 2;
	unsigned face = 2 * major + (d[major] < 0);
	double sc = axes[face].sc_sign * d[(int)axes[face].sc],
	       tc = axes[face].tc_sign * d[(int)axes[face].tc];

	ma = fabs(d[major]);
	if (ma == 0)
		ma = 1; /* a zero direction: the +X face's centre, as good as any */
	*s = (sc / ma + 1) / 2;
	*t = (tc / ma + 1) / 2;
	for (unsigned k = 0; dd && k < 2; k++) {
		/* d/dx and d/dy of (sc / ma + 1) / 2 */
		double dma = (d[major] < 0 ? -1 : 1) * dd[2 * major + k];
		double dsc = axes[face].sc_sign * dd[2 * axes[face].sc + k];
		double dtc = axes[face].tc_sign * dd[2 * axes[face].tc + k];

		dst[k] = (dsc * ma - sc * dma) / (2 * ma * ma);
		dst[2 + k] = (dtc * ma - tc * dma) / (2 * ma * ma);
	}
	return face;
}

/* The direction of a face's texel centre (i, j) of size n, which may lie past its edge. */
static void cube_direction(unsigned face, int64_t i, int64_t j, unsigned n, double d[3])
{
	double sc = 2 * (i + 0.5) / n - 1, tc = 2 * (j + 0.5) / n - 1;

	switch (face) {
	case 0:
		d[0] = 1, d[1] = -tc, d[2] = -sc;
		break;
	case 1:
		d[0] = -1, d[1] = -tc, d[2] = sc;
		break;
	case 2:
		d[0] = sc, d[1] = 1, d[2] = tc;
		break;
	case 3:
		d[0] = sc, d[1] = -1, d[2] = -tc;
		break;
	case 4:
		d[0] = sc, d[1] = -tc, d[2] = 1;
		break;
	default:
		d[0] = -sc, d[1] = -tc, d[2] = -1;
		break;
	}
}

static bool compare(unsigned func, double reference, double texel)
{
	switch (func) {
	case AGX_CMD_COMPARE_FUNC_LEQUAL:
		return reference <= texel;
	case AGX_CMD_COMPARE_FUNC_GEQUAL:
		return reference >= texel;
	case AGX_CMD_COMPARE_FUNC_LESS:
		return reference < texel;
	case AGX_CMD_COMPARE_FUNC_GREATER:
		return reference > texel;
	case AGX_CMD_COMPARE_FUNC_EQUAL:
		return reference == texel;
	case AGX_CMD_COMPARE_FUNC_NOT_EQUAL:
		return reference != texel;
	case AGX_CMD_COMPARE_FUNC_ALWAYS:
		return true;
	default:
		return false;
	}
}

/*
 * One level, filtered: nearest, bilinear or (3D) trilinear with GL's
 * weights, each tap wrapped; a cube's taps past its face's edge come from
 * the next face unless the sampler is seamful; with compare, each tap is
 * 1 or 0 before filtering.
 */
static enum usc_texel_status sample_level(const struct usc_texture_view *v,
					  const struct agx_cmd_sampler *sm, const uint8_t *sampler,
					  const struct usc_memory *mem, int32_t level,
					  const struct usc_sample *a, uint32_t layer,
					  const double coord[3], bool linear, double out[4],
					  uint64_t *fault, char *why, unsigned why_size)
{
	unsigned dim = (unsigned)v->t.dimension;
	bool is3d = dim == AGX_CMD_TEXTURE_DIM_TEX_3D,
	     cube =
		 dim == AGX_CMD_TEXTURE_DIM_TEX_CUBE || dim == AGX_CMD_TEXTURE_DIM_TEX_CUBE_ARRAY;
	unsigned size[3] = { usc_layout_minify(v->l.width, (unsigned)level),
			     usc_layout_minify(v->l.height, (unsigned)level),
			     is3d ? usc_layout_minify(v->depth, (unsigned)level) : 1 };
	const unsigned wraps[3] = { (unsigned)sm->wrap_s, (unsigned)sm->wrap_t,
				    (unsigned)sm->wrap_r };
	unsigned dims = is3d ? 3 : 2, taps = linear ? 2 : 1;
	int64_t base[3] = { 0, 0, 0 };
	double frac[3] = { 0, 0, 0 };
	uint32_t border[4];

	usc_sampler_border(sampler, v->integer, border);
	for (unsigned k = 0; k < dims; k++) {
		double x = sm->pixel_coordinates ? coord[k] : coord[k] * size[k];

		if (linear)
			x -= 0.5;
		base[k] = (int64_t)floor(x) + a->offset[k];
		frac[k] = x - floor(x);
	}
	for (int c = 0; c < 4; c++)
		out[c] = 0;
	for (unsigned n = 0; n < (is3d ? taps : 1u) * taps * taps; n++) {
		unsigned bit[3] = { n % taps, n / taps % taps, n / (taps * taps) };
		int64_t at[3];
		uint32_t tap_layer = layer, texel[4];
		double weight = 1;
		bool outside = false;

		for (unsigned k = 0; k < dims; k++) {
			at[k] = base[k] + bit[k];
			if (linear)
				weight *= bit[k] ? frac[k] : 1 - frac[k];
		}
		if (cube && !sm->seamful_cube_maps &&
		    (at[0] < 0 || at[0] >= size[0] || at[1] < 0 || at[1] >= size[1])) {
			/* seamless: the texel centre's direction, on whichever face it is */
			double d[3], s, t;
			unsigned face = layer % 6, next;

			cube_direction(face, at[0], at[1], size[0], d);
			next = cube_face(d, &s, &t, NULL, NULL);
			tap_layer = layer - face + next;
			at[0] = (int64_t)fmin(floor(s * size[0]), size[0] - 1);
			at[1] = (int64_t)fmin(floor(t * size[1]), size[1] - 1);
		} else {
			for (unsigned k = 0; k < dims; k++) {
				bool flat_axis = k == 1 && size[1] == 1 &&
						 dim <= AGX_CMD_TEXTURE_DIM_TEX_1D_ARRAY;

				at[k] = flat_axis ? 0
					: cube	  ? wrap(AGX_CMD_WRAP_CLAMP_TO_EDGE, at[k], size[k])
						  : wrap(wraps[k], at[k], size[k]);
				outside |= at[k] < 0;
			}
			if (is3d)
				tap_layer = (uint32_t)(outside ? 0 : at[2]);
		}
		if (outside) {
			memcpy(texel, border, sizeof(texel));
		} else {
			enum usc_texel_status st =
			    view_read(v, mem, level, tap_layer, (unsigned)at[0], (unsigned)at[1],
				      texel, fault, why, why_size);

			if (st != USC_TEXEL_OK)
				return st;
		}
		if (a->compare) {
			/* component 0 against the reference: 1 or 0, then filtered */
			double c = v->integer ? (double)(int32_t)texel[0] : fval(texel[0]);
			double r = compare((unsigned)sm->compare_func, a->reference, c) ? 1 : 0;

			for (int c4 = 0; c4 < 4; c4++)
				out[c4] += weight * r;
			continue;
		}
		for (int c = 0; c < 4; c++)
			out[c] += weight * (v->integer ? (double)texel[c] : fval(texel[c]));
	}
	return USC_TEXEL_OK;
}

enum usc_texel_status usc_texture_sample(const struct usc_texture_view *v,
					 const struct usc_memory *mem, const uint8_t *sampler,
					 const struct usc_sample *a, uint32_t out[4],
					 uint64_t *fault, char *why, unsigned why_size)
{
	struct agx_cmd_sampler sm = { 0 };
	unsigned dim = (unsigned)v->t.dimension;
	bool is3d = dim == AGX_CMD_TEXTURE_DIM_TEX_3D,
	     cube =
		 dim == AGX_CMD_TEXTURE_DIM_TEX_CUBE || dim == AGX_CMD_TEXTURE_DIM_TEX_CUBE_ARRAY;
	double min_lod, max_lod, res[4], next[4], coord[3] = { a->s[0], a->s[1], a->s[2] };
	double grad[6] = { 0 }, lod = a->lod;
	uint32_t layer = a->layer;
	int32_t base, top, level;
	bool mag, linear;
	enum usc_texel_status st;

	if (!agx_cmd_sampler_unpack(sampler, &sm) || sm.magnify == AGX_CMD_FILTER_BICUBIC ||
	    sm.minify == AGX_CMD_FILTER_BICUBIC)
		return bad(why, why_size, "sampler with bicubic filtering not simulated");
	if (a->compare && !sm.compare_enable)
		return bad(why, why_size, "a compare value with a sampler that does not compare");
	if (dim == AGX_CMD_TEXTURE_DIM_TEX_1D_ARRAY || dim == AGX_CMD_TEXTURE_DIM_TEX_1D)
		coord[1] = 0.5;
	if (dim == AGX_CMD_TEXTURE_DIM_TEX_1D || dim == AGX_CMD_TEXTURE_DIM_TEX_2D || is3d ||
	    dim == AGX_CMD_TEXTURE_DIM_TEX_CUBE)
		layer = 0;
	layer &= 0xffff;
	for (unsigned k = 0; a->grad && k < 6; k++)
		grad[k] = a->grad[k];
	if (cube) {
		/* the face, and s, t on it; a cube array's layer counts cubes */
		double st_grad[4], dir[3] = { coord[0], coord[1], coord[2] };
		/* a copy: s and t replace the direction, whose signs the derivatives still read */
		unsigned face = cube_face(dir, &coord[0], &coord[1], grad, st_grad);

		memcpy(grad, st_grad, sizeof(st_grad));
		grad[4] = grad[5] = 0;
		if (layer >= v->depth)
			layer = v->depth - 1;
		layer = 6 * layer + face;
	} else if (!is3d && layer >= v->layers) {
		layer = v->layers - 1;
	}
	if (a->grad) {
		/* GL's scale factor from the derivatives, in texels of the base level */
		double w = usc_layout_minify(v->l.width, v->t.first_level);
		double h = usc_layout_minify(v->l.height, v->t.first_level);
		double d = is3d ? usc_layout_minify(v->depth, v->t.first_level) : 0;
		double rx = sqrt(pow(grad[0] * w, 2) + pow(grad[2] * h, 2) + pow(grad[4] * d, 2));
		double ry = sqrt(pow(grad[1] * w, 2) + pow(grad[3] * h, 2) + pow(grad[5] * d, 2));
		double rho = fmax(rx, ry);

		lod += rho > 0 ? log2(rho) : -INFINITY; /* lod holds the bias */
	}
	/* LOD: the sampler's clamp (4.6 fixed point), then the view's levels */
	min_lod = sm.min_lod / 64.0;
	max_lod = sm.max_lod / 64.0;
	lod = fmin(fmax(lod, min_lod), fmax(max_lod, min_lod));
	/*
	 * Magnification below the switch-over point c: 0.5 when magnifying
	 * is linear and minifying nearest within mipmaps, else 0 (GLES 3.0
	 * section 3.8.11).  What Apple's unit does there is not public; GL's
	 * rule is what a conformant driver needs of it.
	 */
	mag = lod <= (sm.magnify == AGX_CMD_FILTER_LINEAR && sm.minify == AGX_CMD_FILTER_NEAREST &&
			      sm.mip_filter != AGX_CMD_MIP_FILTER_NONE
			  ? 0.5
			  : 0.0);
	linear = !v->integer && (mag ? sm.magnify : sm.minify) == AGX_CMD_FILTER_LINEAR;
	base = (int32_t)v->t.first_level;
	top = (int32_t)v->t.last_level < (int32_t)v->l.levels - 1 ? (int32_t)v->t.last_level
								  : (int32_t)v->l.levels - 1;
	if (top < base)
		return bad(why, why_size, "texture view with no levels");
	if (sm.mip_filter == AGX_CMD_MIP_FILTER_NONE || mag)
		level = base;
	else if (sm.mip_filter == AGX_CMD_MIP_FILTER_NEAREST)
		level = base + (int32_t)floor(lod + 0.5);
	else
		level = base + (int32_t)floor(lod);
	if (level > top)
		level = top;
	st = sample_level(v, &sm, sampler, mem, level, a, layer, coord, linear, res, fault, why,
			  why_size);
	if (st != USC_TEXEL_OK)
		return st;
	if (!mag && sm.mip_filter == AGX_CMD_MIP_FILTER_LINEAR && level < top && !v->integer) {
		double frac = lod - floor(lod);

		st = sample_level(v, &sm, sampler, mem, level + 1, a, layer, coord, linear, next,
				  fault, why, why_size);
		if (st != USC_TEXEL_OK)
			return st;
		for (int c = 0; c < 4; c++)
			res[c] = res[c] * (1 - frac) + next[c] * frac;
	}
	for (int c = 0; c < 4; c++)
		out[c] =
		    v->integer && !a->compare ? (uint32_t)(int64_t)res[c] : fbits((float)res[c]);
	return USC_TEXEL_OK;
}
