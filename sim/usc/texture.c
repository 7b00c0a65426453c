/*
 * texture.c: the texture unit of texture.h.  Formats are a channel layout
 * and a type (Mesa src/asahi/layout/formats.c); texels are laid out as
 * libagx's agx/layout.h says.  Descriptors come from memory the client
 * wrote: every field is checked, and what the unit does not take is said.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "agx/layout.h"
#include "agx_cmdbuf.h"
#include "fp16.h"
#include "texture.h"

struct channels {
	uint8_t bytes;
	uint8_t count;
	uint8_t bits[4]; /* from the lowest bit up */
};

/* Bytes per texel and channel widths of a channel layout; false for those not read. */
static bool channel_layout(unsigned c, struct channels *out)
{
	static const struct {
		uint8_t value;
		struct channels ch;
	} table[] = {
		{ AGX_CMD_CHANNELS_R8, { 1, 1, { 8 } } },
		{ AGX_CMD_CHANNELS_R16, { 2, 1, { 16 } } },
		{ AGX_CMD_CHANNELS_R8G8, { 2, 2, { 8, 8 } } },
		{ AGX_CMD_CHANNELS_R5G6B5, { 2, 3, { 5, 6, 5 } } },
		{ AGX_CMD_CHANNELS_R4G4B4A4, { 2, 4, { 4, 4, 4, 4 } } },
		{ AGX_CMD_CHANNELS_R5G5B5A1, { 2, 4, { 5, 5, 5, 1 } } },
		{ AGX_CMD_CHANNELS_R32, { 4, 1, { 32 } } },
		{ AGX_CMD_CHANNELS_R16G16, { 4, 2, { 16, 16 } } },
		{ AGX_CMD_CHANNELS_R10G10B10A2, { 4, 4, { 10, 10, 10, 2 } } },
		{ AGX_CMD_CHANNELS_R8G8B8A8, { 4, 4, { 8, 8, 8, 8 } } },
		{ AGX_CMD_CHANNELS_R32G32, { 8, 2, { 32, 32 } } },
		{ AGX_CMD_CHANNELS_R16G16B16A16, { 8, 4, { 16, 16, 16, 16 } } },
		{ AGX_CMD_CHANNELS_R32G32B32A32, { 16, 4, { 32, 32, 32, 32 } } },
		{ AGX_CMD_CHANNELS_R11G11B10, { 4, 3, { 11, 11, 10 } } },
		{ AGX_CMD_CHANNELS_R9G9B9E5, { 4, 3, { 9, 9, 9 } } },
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

static double srgb_to_linear(double c)
{
	return c <= 0.04045 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4);
}

/* An unsigned small float of R11G11B10: 5 exponent bits, the rest mantissa. */
static double small_float(uint32_t v, unsigned mantissa_bits)
{
	unsigned e = (v >> mantissa_bits) & 0x1f, m = v & ((1u << mantissa_bits) - 1);

	if (e == 0x1f)
		return m ? NAN : INFINITY;
	if (e == 0)
		return ldexp(m, -14 - (int)mantissa_bits);
	return ldexp((1u << mantissa_bits) | m, (int)e - 15 - (int)mantissa_bits);
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
static bool decode(const struct agx_cmd_texture *t, const struct channels *ch, const uint8_t *texel,
		   uint32_t v[4], bool integer)
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
					? (n < 2 ? small_float(w >> (11 * n), 6)
						 : small_float(w >> 22, 5))
					: ldexp((w >> (9 * n)) & 0x1ff, (int)(w >> 27) - 24)));
		return true;
	}
	for (unsigned n = 0, bit = 0; n < ch->count; bit += ch->bits[n], n++) {
		if (!convert(t->type, ch->bits[n], (uint32_t)field(texel, bit, ch->bits[n]), &v[n]))
			return false;
		if (t->srgb && n < 3 && t->type == AGX_CMD_TEXTURE_TYPE_UNORM) {
			float f;

			memcpy(&f, &v[n], 4);
			v[n] = fbits((float)srgb_to_linear(f));
		}
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

enum usc_texel_status usc_texel_fetch(const struct usc_memory *mem, const uint8_t *texture,
				      unsigned dim, int32_t x, int32_t y, uint32_t layer,
				      int32_t level, uint32_t out[4], bool *integer,
				      uint64_t *fault, char *why, unsigned why_size)
{
	struct agx_cmd_texture t;
	struct channels ch;
	struct agx_layout l = { 0 };
	uint32_t raw[4];
	uint8_t texel[16];
	unsigned layers, w, h;
	uint64_t at;

	if (!agx_cmd_texture_unpack(texture, &t))
		return bad(why, why_size, "texture descriptor with reserved bits set");
	if (t.null)
		return bad(why, why_size, "null texture");
	if (!channel_layout((unsigned)t.channels, &ch))
		return bad(why, why_size, "texture channels not read by the simulator");
	*integer = t.type == AGX_CMD_TEXTURE_TYPE_UINT || t.type == AGX_CMD_TEXTURE_TYPE_SINT;
	if (dim != t.dimension ||
	    (dim != AGX_CMD_TEXTURE_DIM_TEX_1D && dim != AGX_CMD_TEXTURE_DIM_TEX_1D_ARRAY &&
	     dim != AGX_CMD_TEXTURE_DIM_TEX_2D && dim != AGX_CMD_TEXTURE_DIM_TEX_2D_ARRAY))
		return bad(why, why_size,
			   "texture dimension not simulated, or not the descriptor's");
	if (t.layout != AGX_CMD_LAYOUT_LINEAR && t.layout != AGX_CMD_LAYOUT_TWIDDLED)
		return bad(why, why_size, "compressed texture layouts are not simulated");
	if (t.extended)
		return bad(why, why_size, "extended texture descriptors are not simulated");

	l.twiddled = t.layout == AGX_CMD_LAYOUT_TWIDDLED;
	l.bytes_per_texel = ch.bytes;
	l.width = (unsigned)t.width + 1;
	l.height = (unsigned)t.height + 1;
	l.page_aligned_layers = t.page_aligned_layers;
	if (l.twiddled) {
		unsigned max = l.width > l.height ? l.width : l.height, full = 1;

		while (max >> full)
			full++;
		/* a mipmapped texture has its whole chain, whatever the view shows */
		l.levels = t.unk_mipmapped ? full : (unsigned)t.last_level + 1;
		layers = (unsigned)(t.stride_or_depth & 0x3fff) + 1;
	} else {
		l.levels = 1;
		l.stride = ((uint64_t)t.stride_or_depth + 1) * 16;
		layers = 1;
	}
	if (!agx_layout_init(&l))
		return bad(why, why_size, "texture layout out of range");

	level += (int32_t)t.first_level;
	if (dim == AGX_CMD_TEXTURE_DIM_TEX_1D || dim == AGX_CMD_TEXTURE_DIM_TEX_1D_ARRAY) {
		if (dim == AGX_CMD_TEXTURE_DIM_TEX_1D_ARRAY)
			layer = (uint32_t)y;
		y = 0;
	}
	if (dim == AGX_CMD_TEXTURE_DIM_TEX_1D || dim == AGX_CMD_TEXTURE_DIM_TEX_2D)
		layer = 0;
	layer &= 0xffff;
	if (level < (int32_t)t.first_level || level > (int32_t)t.last_level ||
	    level >= (int32_t)l.levels)
		return USC_TEXEL_BORDER;
	w = agx_layout_minify(l.width, (unsigned)level);
	h = agx_layout_minify(l.height, (unsigned)level);
	if (x < 0 || y < 0 || (unsigned)x >= w || (unsigned)y >= h || layer >= layers)
		return USC_TEXEL_BORDER;

	at = (t.address << 4) +
	     agx_layout_texel(&l, (unsigned)level, layer, (unsigned)x, (unsigned)y);
	if (!mem->read || !mem->read(mem->ctx, at, texel, ch.bytes)) {
		*fault = at;
		return USC_TEXEL_FAULT;
	}
	if (!decode(&t, &ch, texel, raw, *integer))
		return bad(why, why_size, "texture format (channels and type) not simulated");
	swizzle(&t, raw, *integer, out);
	return USC_TEXEL_OK;
}
