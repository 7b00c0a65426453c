/*
 * format.c: the texel format table and the conversions of one texel
 * (agx/format.h).  The hardware values are the generated descriptors'
 * enums (hw/cmdbuf.hw), so the table cannot disagree with them.
 */
#include <math.h>
#include <string.h>

#include "agx/format.h"
#include "agx_cmdbuf.h"

#define Z AGX_FORMAT_SWIZZLE_0
#define O AGX_FORMAT_SWIZZLE_1
#define P AGX_FORMAT_SWIZZLE_PAD

/*
 * Lists stay in parentheses (which keep their commas from the macros they
 * pass through) until ENTRY opens them inside braces.
 */
#define B(...)	  (__VA_ARGS__)
#define S(...)	  (__VA_ARGS__)
#define LIST(...) __VA_ARGS__

#define KF AGX_FORMAT_KIND_FLOAT
#define KU AGX_FORMAT_KIND_UINT
#define KS AGX_FORMAT_KIND_SINT

#define ENTRY(n, k, by, ch, ty, s, nc, b, rd, st, comps, tex, pb)                                  \
	[AGX_FORMAT_##n] = { .name = #n,                                                           \
			     .kind = k,                                                            \
			     .bytes = by,                                                          \
			     .block_w = 1,                                                         \
			     .block_h = 1,                                                         \
			     .hw_channels = AGX_CMD_CHANNELS_##ch,                                 \
			     .hw_type = AGX_CMD_TEXTURE_TYPE_##ty,                                 \
			     .srgb = s,                                                            \
			     .texture = tex,                                                       \
			     .pbe = pb,                                                            \
			     .channels = nc,                                                       \
			     .bits = { LIST b },                                                   \
			     .read = { LIST rd },                                                  \
			     .store = { LIST st },                                                 \
			     .components = comps }

/*
 * FMT: read by the texture unit and written by the PBE (whose swizzle
 * puts each stored channel's component in place: agx_pbe_descriptor).
 * TEX: read only -- luminance and alpha formats, which GL never renders
 * to.  SOFT: neither; only the CPU and compute kernels touch it.
 */
#define FMT(...)  ENTRY(__VA_ARGS__, true, true)
#define TEX(...)  ENTRY(__VA_ARGS__, true, false)
#define SOFT(...) ENTRY(__VA_ARGS__, false, false)

/*
 * BLOCKS: bw x bh blocks the texture unit decodes into R, G, B, A.  rd is
 * the descriptor's swizzle as for the others: without it every component
 * would read channel 0, and alpha would sample as red.  COMPRESSED: the
 * 4x4 blocks of ETC2 and EAC.
 */
#define BLOCKS(n, by, bw, bh, ch, ty, s, comps, rd)                                                \
	[AGX_FORMAT_##n] = { .name = #n,                                                           \
			     .kind = AGX_FORMAT_KIND_COMPRESSED,                                   \
			     .bytes = by,                                                          \
			     .block_w = bw,                                                        \
			     .block_h = bh,                                                        \
			     .hw_channels = AGX_CMD_CHANNELS_##ch,                                 \
			     .hw_type = AGX_CMD_TEXTURE_TYPE_##ty,                                 \
			     .srgb = s,                                                            \
			     .texture = true,                                                      \
			     .read = { LIST rd },                                                  \
			     .components = comps }
#define COMPRESSED(n, by, ch, ty, s, comps, rd) BLOCKS(n, by, 4, 4, ch, ty, s, comps, rd)
/*
 * ASTC: one channel code a block size; sRGB is the descriptor's bit, the
 * type unorm (Mesa's cmdbuf.xml: "for LDR use with UNORM/no-sRGB, for sRGB
 * use with UNORM/sRGB").
 */
#define ASTC(wh, w, h)                                                                             \
	BLOCKS(ASTC_##wh, 16, w, h, ASTC_##wh, UNORM, false, 4, S(0, 1, 2, 3)),                    \
	    BLOCKS(ASTC_##wh##_SRGB, 16, w, h, ASTC_##wh, UNORM, true, 4, S(0, 1, 2, 3))

/* name, kind, bytes, channels, type, sRGB, stored channels, widths, read, store, components */
static const struct agx_format_info table[AGX_FORMAT_COUNT] = {
	FMT(R8_UNORM, KF, 1, R8, UNORM, false, 1, B(8), S(0, Z, Z, O), S(0, P, P, P), 1),
	FMT(R8_SNORM, KF, 1, R8, SNORM, false, 1, B(8), S(0, Z, Z, O), S(0, P, P, P), 1),
	FMT(R8_UINT, KU, 1, R8, UINT, false, 1, B(8), S(0, Z, Z, O), S(0, P, P, P), 1),
	FMT(R8_SINT, KS, 1, R8, SINT, false, 1, B(8), S(0, Z, Z, O), S(0, P, P, P), 1),
	FMT(R8_SRGB, KF, 1, R8, UNORM, true, 1, B(8), S(0, Z, Z, O), S(0, P, P, P), 1),
	TEX(A8_UNORM, KF, 1, R8, UNORM, false, 1, B(8), S(Z, Z, Z, 0), S(3, P, P, P), 1),
	TEX(L8_UNORM, KF, 1, R8, UNORM, false, 1, B(8), S(0, 0, 0, O), S(0, P, P, P), 1),
	FMT(R16_UNORM, KF, 2, R16, UNORM, false, 1, B(16), S(0, Z, Z, O), S(0, P, P, P), 1),
	FMT(R16_SNORM, KF, 2, R16, SNORM, false, 1, B(16), S(0, Z, Z, O), S(0, P, P, P), 1),
	FMT(R16_UINT, KU, 2, R16, UINT, false, 1, B(16), S(0, Z, Z, O), S(0, P, P, P), 1),
	FMT(R16_SINT, KS, 2, R16, SINT, false, 1, B(16), S(0, Z, Z, O), S(0, P, P, P), 1),
	FMT(R16_FLOAT, KF, 2, R16, FLOAT, false, 1, B(16), S(0, Z, Z, O), S(0, P, P, P), 1),
	FMT(R8G8_UNORM, KF, 2, R8G8, UNORM, false, 2, B(8, 8), S(0, 1, Z, O), S(0, 1, P, P), 2),
	FMT(R8G8_SNORM, KF, 2, R8G8, SNORM, false, 2, B(8, 8), S(0, 1, Z, O), S(0, 1, P, P), 2),
	FMT(R8G8_UINT, KU, 2, R8G8, UINT, false, 2, B(8, 8), S(0, 1, Z, O), S(0, 1, P, P), 2),
	FMT(R8G8_SINT, KS, 2, R8G8, SINT, false, 2, B(8, 8), S(0, 1, Z, O), S(0, 1, P, P), 2),
	FMT(R8G8_SRGB, KF, 2, R8G8, UNORM, true, 2, B(8, 8), S(0, 1, Z, O), S(0, 1, P, P), 2),
	TEX(L8A8_UNORM, KF, 2, R8G8, UNORM, false, 2, B(8, 8), S(0, 0, 0, 1), S(0, 3, P, P), 2),
	FMT(R5G6B5_UNORM, KF, 2, R5G6B5, UNORM, false, 3, B(5, 6, 5), S(0, 1, 2, O), S(0, 1, 2, P),
	    3),
	FMT(B5G6R5_UNORM, KF, 2, R5G6B5, UNORM, false, 3, B(5, 6, 5), S(2, 1, 0, O), S(2, 1, 0, P),
	    3),
	FMT(R4G4B4A4_UNORM, KF, 2, R4G4B4A4, UNORM, false, 4, B(4, 4, 4, 4), S(0, 1, 2, 3),
	    S(0, 1, 2, 3), 4),
	FMT(A4B4G4R4_UNORM, KF, 2, R4G4B4A4, UNORM, false, 4, B(4, 4, 4, 4), S(3, 2, 1, 0),
	    S(3, 2, 1, 0), 4),
	FMT(R5G5B5A1_UNORM, KF, 2, R5G5B5A1, UNORM, false, 4, B(5, 5, 5, 1), S(0, 1, 2, 3),
	    S(0, 1, 2, 3), 4),
	FMT(R32_UINT, KU, 4, R32, UINT, false, 1, B(32), S(0, Z, Z, O), S(0, P, P, P), 1),
	FMT(R32_SINT, KS, 4, R32, SINT, false, 1, B(32), S(0, Z, Z, O), S(0, P, P, P), 1),
	FMT(R32_FLOAT, KF, 4, R32, FLOAT, false, 1, B(32), S(0, Z, Z, O), S(0, P, P, P), 1),
	FMT(R16G16_UNORM, KF, 4, R16G16, UNORM, false, 2, B(16, 16), S(0, 1, Z, O), S(0, 1, P, P),
	    2),
	FMT(R16G16_SNORM, KF, 4, R16G16, SNORM, false, 2, B(16, 16), S(0, 1, Z, O), S(0, 1, P, P),
	    2),
	FMT(R16G16_UINT, KU, 4, R16G16, UINT, false, 2, B(16, 16), S(0, 1, Z, O), S(0, 1, P, P), 2),
	FMT(R16G16_SINT, KS, 4, R16G16, SINT, false, 2, B(16, 16), S(0, 1, Z, O), S(0, 1, P, P), 2),
	FMT(R16G16_FLOAT, KF, 4, R16G16, FLOAT, false, 2, B(16, 16), S(0, 1, Z, O), S(0, 1, P, P),
	    2),
	FMT(R11G11B10_FLOAT, KF, 4, R11G11B10, FLOAT, false, 3, B(11, 11, 10), S(0, 1, 2, O),
	    S(0, 1, 2, P), 3),
	FMT(R10G10B10A2_UNORM, KF, 4, R10G10B10A2, UNORM, false, 4, B(10, 10, 10, 2), S(0, 1, 2, 3),
	    S(0, 1, 2, 3), 4),
	FMT(R10G10B10A2_UINT, KU, 4, R10G10B10A2, UINT, false, 4, B(10, 10, 10, 2), S(0, 1, 2, 3),
	    S(0, 1, 2, 3), 4),
	FMT(R9G9B9E5_FLOAT, KF, 4, R9G9B9E5, FLOAT, false, 3, B(9, 9, 9), S(0, 1, 2, O),
	    S(0, 1, 2, P), 3),
	FMT(R8G8B8A8_UNORM, KF, 4, R8G8B8A8, UNORM, false, 4, B(8, 8, 8, 8), S(0, 1, 2, 3),
	    S(0, 1, 2, 3), 4),
	FMT(R8G8B8A8_SNORM, KF, 4, R8G8B8A8, SNORM, false, 4, B(8, 8, 8, 8), S(0, 1, 2, 3),
	    S(0, 1, 2, 3), 4),
	FMT(R8G8B8A8_UINT, KU, 4, R8G8B8A8, UINT, false, 4, B(8, 8, 8, 8), S(0, 1, 2, 3),
	    S(0, 1, 2, 3), 4),
	FMT(R8G8B8A8_SINT, KS, 4, R8G8B8A8, SINT, false, 4, B(8, 8, 8, 8), S(0, 1, 2, 3),
	    S(0, 1, 2, 3), 4),
	FMT(R8G8B8A8_SRGB, KF, 4, R8G8B8A8, UNORM, true, 4, B(8, 8, 8, 8), S(0, 1, 2, 3),
	    S(0, 1, 2, 3), 4),
	FMT(B8G8R8A8_UNORM, KF, 4, R8G8B8A8, UNORM, false, 4, B(8, 8, 8, 8), S(2, 1, 0, 3),
	    S(2, 1, 0, 3), 4),
	FMT(R8G8B8X8_UNORM, KF, 4, R8G8B8A8, UNORM, false, 4, B(8, 8, 8, 8), S(0, 1, 2, O),
	    S(0, 1, 2, P), 3),
	FMT(R8G8B8X8_SNORM, KF, 4, R8G8B8A8, SNORM, false, 4, B(8, 8, 8, 8), S(0, 1, 2, O),
	    S(0, 1, 2, P), 3),
	FMT(R8G8B8X8_UINT, KU, 4, R8G8B8A8, UINT, false, 4, B(8, 8, 8, 8), S(0, 1, 2, O),
	    S(0, 1, 2, P), 3),
	FMT(R8G8B8X8_SINT, KS, 4, R8G8B8A8, SINT, false, 4, B(8, 8, 8, 8), S(0, 1, 2, O),
	    S(0, 1, 2, P), 3),
	FMT(R8G8B8X8_SRGB, KF, 4, R8G8B8A8, UNORM, true, 4, B(8, 8, 8, 8), S(0, 1, 2, O),
	    S(0, 1, 2, P), 3),
	FMT(B8G8R8X8_UNORM, KF, 4, R8G8B8A8, UNORM, false, 4, B(8, 8, 8, 8), S(2, 1, 0, O),
	    S(2, 1, 0, P), 3),
	FMT(R32G32_UINT, KU, 8, R32G32, UINT, false, 2, B(32, 32), S(0, 1, Z, O), S(0, 1, P, P), 2),
	FMT(R32G32_SINT, KS, 8, R32G32, SINT, false, 2, B(32, 32), S(0, 1, Z, O), S(0, 1, P, P), 2),
	FMT(R32G32_FLOAT, KF, 8, R32G32, FLOAT, false, 2, B(32, 32), S(0, 1, Z, O), S(0, 1, P, P),
	    2),
	FMT(R16G16B16A16_UNORM, KF, 8, R16G16B16A16, UNORM, false, 4, B(16, 16, 16, 16),
	    S(0, 1, 2, 3), S(0, 1, 2, 3), 4),
	FMT(R16G16B16A16_SNORM, KF, 8, R16G16B16A16, SNORM, false, 4, B(16, 16, 16, 16),
	    S(0, 1, 2, 3), S(0, 1, 2, 3), 4),
	FMT(R16G16B16A16_UINT, KU, 8, R16G16B16A16, UINT, false, 4, B(16, 16, 16, 16),
	    S(0, 1, 2, 3), S(0, 1, 2, 3), 4),
	FMT(R16G16B16A16_SINT, KS, 8, R16G16B16A16, SINT, false, 4, B(16, 16, 16, 16),
	    S(0, 1, 2, 3), S(0, 1, 2, 3), 4),
	FMT(R16G16B16A16_FLOAT, KF, 8, R16G16B16A16, FLOAT, false, 4, B(16, 16, 16, 16),
	    S(0, 1, 2, 3), S(0, 1, 2, 3), 4),
	FMT(R16G16B16X16_UINT, KU, 8, R16G16B16A16, UINT, false, 4, B(16, 16, 16, 16),
	    S(0, 1, 2, O), S(0, 1, 2, P), 3),
	FMT(R16G16B16X16_SINT, KS, 8, R16G16B16A16, SINT, false, 4, B(16, 16, 16, 16),
	    S(0, 1, 2, O), S(0, 1, 2, P), 3),
	FMT(R16G16B16X16_FLOAT, KF, 8, R16G16B16A16, FLOAT, false, 4, B(16, 16, 16, 16),
	    S(0, 1, 2, O), S(0, 1, 2, P), 3),
	FMT(R32G32B32A32_UINT, KU, 16, R32G32B32A32, UINT, false, 4, B(32, 32, 32, 32),
	    S(0, 1, 2, 3), S(0, 1, 2, 3), 4),
	FMT(R32G32B32A32_SINT, KS, 16, R32G32B32A32, SINT, false, 4, B(32, 32, 32, 32),
	    S(0, 1, 2, 3), S(0, 1, 2, 3), 4),
	FMT(R32G32B32A32_FLOAT, KF, 16, R32G32B32A32, FLOAT, false, 4, B(32, 32, 32, 32),
	    S(0, 1, 2, 3), S(0, 1, 2, 3), 4),
	FMT(R32G32B32X32_UINT, KU, 16, R32G32B32A32, UINT, false, 4, B(32, 32, 32, 32),
	    S(0, 1, 2, O), S(0, 1, 2, P), 3),
	FMT(R32G32B32X32_SINT, KS, 16, R32G32B32A32, SINT, false, 4, B(32, 32, 32, 32),
	    S(0, 1, 2, O), S(0, 1, 2, P), 3),
	FMT(R32G32B32X32_FLOAT, KF, 16, R32G32B32A32, FLOAT, false, 4, B(32, 32, 32, 32),
	    S(0, 1, 2, O), S(0, 1, 2, P), 3),
	FMT(Z16_UNORM, AGX_FORMAT_KIND_DEPTH, 2, R16, UNORM, false, 1, B(16), S(0, Z, Z, O),
	    S(0, P, P, P), 1),
	FMT(Z32_FLOAT, AGX_FORMAT_KIND_DEPTH, 4, R32, FLOAT, false, 1, B(32), S(0, Z, Z, O),
	    S(0, P, P, P), 1),
	FMT(S8_UINT, AGX_FORMAT_KIND_STENCIL, 1, R8, UINT, false, 1, B(8), S(0, Z, Z, O),
	    S(0, P, P, P), 1),
	SOFT(Z24_UNORM_S8_UINT, AGX_FORMAT_KIND_DEPTH_STENCIL, 4, R32, UINT, false, 2, B(24, 8),
	     S(0, Z, Z, O), S(0, P, P, P), 1),
	COMPRESSED(ETC2_RGB8, 8, ETC2_RGB8, UNORM, false, 3, S(0, 1, 2, O)),
	COMPRESSED(ETC2_SRGB8, 8, ETC2_RGB8, UNORM, true, 3, S(0, 1, 2, O)),
	COMPRESSED(ETC2_RGB8A1, 8, ETC2_RGB8A1, UNORM, false, 4, S(0, 1, 2, 3)),
	COMPRESSED(ETC2_SRGB8A1, 8, ETC2_RGB8A1, UNORM, true, 4, S(0, 1, 2, 3)),
	COMPRESSED(ETC2_RGBA8, 16, ETC2_RGBA8, UNORM, false, 4, S(0, 1, 2, 3)),
	COMPRESSED(ETC2_SRGB8_ALPHA8, 16, ETC2_RGBA8, UNORM, true, 4, S(0, 1, 2, 3)),
	COMPRESSED(EAC_R11_UNORM, 8, EAC_R11, UNORM, false, 1, S(0, Z, Z, O)),
	COMPRESSED(EAC_R11_SNORM, 8, EAC_R11, SNORM, false, 1, S(0, Z, Z, O)),
	COMPRESSED(EAC_RG11_UNORM, 16, EAC_RG11, UNORM, false, 2, S(0, 1, Z, O)),
	COMPRESSED(EAC_RG11_SNORM, 16, EAC_RG11, SNORM, false, 2, S(0, 1, Z, O)),
	COMPRESSED(BC1_RGB, 8, BC1, UNORM, false, 3, S(0, 1, 2, O)),
	COMPRESSED(BC1_SRGB, 8, BC1, UNORM, true, 3, S(0, 1, 2, O)),
	COMPRESSED(BC1_RGBA, 8, BC1, UNORM, false, 4, S(0, 1, 2, 3)),
	COMPRESSED(BC1_SRGB_ALPHA, 8, BC1, UNORM, true, 4, S(0, 1, 2, 3)),
	COMPRESSED(BC2_RGBA, 16, BC2, UNORM, false, 4, S(0, 1, 2, 3)),
	COMPRESSED(BC2_SRGB_ALPHA, 16, BC2, UNORM, true, 4, S(0, 1, 2, 3)),
	COMPRESSED(BC3_RGBA, 16, BC3, UNORM, false, 4, S(0, 1, 2, 3)),
	COMPRESSED(BC3_SRGB_ALPHA, 16, BC3, UNORM, true, 4, S(0, 1, 2, 3)),
	COMPRESSED(BC4_UNORM, 8, BC4, UNORM, false, 1, S(0, Z, Z, O)),
	COMPRESSED(BC4_SNORM, 8, BC4, SNORM, false, 1, S(0, Z, Z, O)),
	COMPRESSED(BC5_UNORM, 16, BC5, UNORM, false, 2, S(0, 1, Z, O)),
	COMPRESSED(BC5_SNORM, 16, BC5, SNORM, false, 2, S(0, 1, Z, O)),
	ASTC(4X4, 4, 4),
	ASTC(5X4, 5, 4),
	ASTC(5X5, 5, 5),
	ASTC(6X5, 6, 5),
	ASTC(6X6, 6, 6),
	ASTC(8X5, 8, 5),
	ASTC(8X6, 8, 6),
	ASTC(8X8, 8, 8),
	ASTC(10X5, 10, 5),
	ASTC(10X6, 10, 6),
	ASTC(10X8, 10, 8),
	ASTC(10X10, 10, 10),
	ASTC(12X10, 12, 10),
	ASTC(12X12, 12, 12),
};

const struct agx_format_info *agx_format_info(enum agx_format format)
{
	if ((unsigned)format >= AGX_FORMAT_COUNT || !table[format].name)
		return NULL;
	return &table[format];
}

enum agx_format agx_format_linear(enum agx_format format)
{
	const struct agx_format_info *info = agx_format_info(format);

	if (!info || !info->srgb)
		return format;
	for (unsigned f = 1; f < AGX_FORMAT_COUNT; f++) {
		const struct agx_format_info *t = &table[f];

		if (t->name && !t->srgb && t->kind == info->kind &&
		    t->hw_channels == info->hw_channels && t->hw_type == info->hw_type &&
		    !memcmp(t->read, info->read, 4) && !memcmp(t->store, info->store, 4))
			return (enum agx_format)f;
	}
	return format;
}

enum agx_format agx_format_from_name(const char *name)
{
	for (unsigned f = 1; name && f < AGX_FORMAT_COUNT; f++)
		if (table[f].name && !strcmp(table[f].name, name))
			return (enum agx_format)f;
	return AGX_FORMAT_NONE;
}

/* ---- bits of a texel (little-endian, bit 0 the lowest bit of byte 0) ---------------- */

static void put_bits(uint8_t *texel, unsigned bit, unsigned width, uint64_t v)
{
	for (unsigned i = 0; i < width; i++, bit++) {
		uint8_t m = (uint8_t)(1u << (bit % 8));

		texel[bit / 8] = (uint8_t)((v >> i) & 1 ? texel[bit / 8] | m : texel[bit / 8] & ~m);
	}
}

static uint64_t get_bits(const uint8_t *texel, unsigned bit, unsigned width)
{
	uint64_t v = 0;

	for (unsigned i = 0; i < width; i++, bit++)
		v |= (uint64_t)((texel[bit / 8] >> (bit % 8)) & 1) << i;
	return v;
}

static uint32_t fbits(float f)
{
	uint32_t u;

	memcpy(&u, &f, 4);
	return u;
}

static float fval(uint32_t u)
{
	float f;

	memcpy(&f, &u, 4);
	return f;
}

/* ---- number conversions ------------------------------------------------------------- */

/*
 * Round to nearest, ties to even (nearbyint in the default rounding mode):
 * GL asks for "round to nearest" (section 2.1.6) without naming a tie rule;
 * the only exact tie of a float times 2^b - 1 is 0.5 into one bit, which
 * gives 0 -- what Mesa's util_format (lrintf) and the simulator do.
 */
static uint32_t to_unorm(double x, unsigned bits)
{
	double max = (double)((1ull << bits) - 1);

	x = isnan(x) ? 0 : fmin(fmax(x, 0.0), 1.0);
	return (uint32_t)nearbyint(x * max);
}

static uint32_t to_snorm(double x, unsigned bits)
{
	double max = (double)((1ull << (bits - 1)) - 1);
	int32_t s;

	x = isnan(x) ? 0 : fmin(fmax(x, -1.0), 1.0);
	s = (int32_t)nearbyint(x * max);
	return (uint32_t)s & (uint32_t)((1ull << bits) - 1);
}

static double from_unorm(uint32_t v, unsigned bits)
{
	return v / (double)((1ull << bits) - 1);
}

static double from_snorm(uint32_t v, unsigned bits)
{
	int32_t s = (int32_t)(v << (32 - bits)) >> (32 - bits);
	double max = (double)((1ull << (bits - 1)) - 1);

	return fmax(s / max, -1.0);
}

/*
 * The sRGB curve (OpenGL ES 3.0 equation 3.26) and its inverse (section
 * 4.1.8, whose exponent 0.41666 is 1 / 2.4 rounded: the sRGB standard's).
 */
static double srgb_decode(double c)
{
	return c <= 0.04045 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4);
}

static double srgb_encode(double l)
{
	if (isnan(l) || l <= 0)
		return 0;
	if (l >= 1)
		return 1;
	return l < 0.0031308 ? 12.92 * l : 1.055 * pow(l, 1 / 2.4) - 0.055;
}

/*
 * A binary float of e exponent bits (bias 2^(e-1) - 1) and m mantissa bits,
 * signed or not, from a double, rounded to nearest even.  Halves are IEEE
 * binary16: too large becomes infinity.  The unsigned 11- and 10-bit floats
 * follow OpenGL ES 3.0 sections 2.1.3 and 2.1.4: negative values and -inf
 * become 0, finite values too large for them the largest finite value,
 * +inf stays infinity, NaN becomes a NaN.
 */
static uint32_t to_small_float(double x, unsigned m, bool is_signed)
{
	const int bias = 15; /* 5 exponent bits in all three */
	uint32_t inf = 0x1fu << m, sign = 0;
	double a, q;
	int e;

	if (isnan(x))
		return inf | (1u << (m - 1));
	if (is_signed && signbit(x)) {
		sign = 1u << (m + 5);
		x = -x;
	} else if (!is_signed && !(x > 0)) {
		return 0;
	}
	if (isinf(x))
		return sign | inf;
	a = x;
	frexp(a, &e);
	e -= 1; /* a = 1.f * 2^e */
	if (e < 1 - bias)
		e = 1 - bias; /* denormal: the smallest exponent's scale */
	q = nearbyint(ldexp(a, (int)m - e));
	if (q >= (double)(2u << m)) { /* rounding carried into the exponent */
		q /= 2;
		e++;
	}
	if (e > bias)
		return sign | (is_signed ? inf : inf - 1);
	if (q < (double)(1u << m)) /* denormal (or zero) */
		return sign | (uint32_t)q;
	return sign | (uint32_t)(e + bias) << m | ((uint32_t)q & ((1u << m) - 1));
}

static double from_small_float(uint32_t v, unsigned m, bool is_signed)
{
	unsigned e = (v >> m) & 0x1f;
	uint32_t f = v & ((1u << m) - 1);
	double r;

	if (e == 0x1f)
		r = f ? NAN : INFINITY;
	else if (e == 0)
		r = ldexp(f, -14 - (int)m);
	else
		r = ldexp((1u << m) | f, (int)e - 15 - (int)m);
	return is_signed && (v >> (m + 5)) & 1 ? -r : r;
}

/* RGB9E5: OpenGL ES 3.0 section 3.8.3.2, equations 3.2-3.4 (N = 9, B = 15, Emax = 31). */
static uint32_t to_rgb9e5(const double c[3])
{
	const double max = ldexp(511, 16 - 9); /* (2^N - 1) / 2^N * 2^(Emax - B) */
	double v[3], maxc = 0, scale;
	int shared, e;
	uint32_t word;

	for (int i = 0; i < 3; i++) {
		v[i] = isnan(c[i]) ? 0 : fmin(fmax(c[i], 0.0), max);
		maxc = fmax(maxc, v[i]);
	}
	/* floor(log2(maxc)), exactly */
	e = -16;
	if (maxc > 0) {
		frexp(maxc, &e); /* maxc = m * 2^e, 0.5 <= m < 1 */
		e -= 1;
	}
	shared = (e < -16 ? -16 : e) + 1 + 15;
	if (floor(maxc / ldexp(1, shared - 15 - 9) + 0.5) == 512)
		shared++;
	scale = ldexp(1, shared - 15 - 9);
	word = (uint32_t)shared << 27;
	for (int i = 0; i < 3; i++)
		word |= ((uint32_t)floor(v[i] / scale + 0.5) & 0x1ff) << (9 * i);
	return word;
}

/* ---- packing --------------------------------------------------------------------------- */

static const struct agx_format_info *color_info(enum agx_format format, enum agx_format_kind kind)
{
	const struct agx_format_info *info = agx_format_info(format);

	return info && info->kind == kind ? info : NULL;
}

/* One stored channel from a float component (kind FLOAT). */
static uint32_t pack_channel_float(const struct agx_format_info *info, unsigned i, double x)
{
	unsigned bits = info->bits[i];

	switch (info->hw_type) {
	case AGX_CMD_TEXTURE_TYPE_UNORM:
		if (info->srgb && info->store[i] < 3)
			x = srgb_encode(x);
		return to_unorm(x, bits);
	case AGX_CMD_TEXTURE_TYPE_SNORM:
		return to_snorm(x, bits);
	default: /* FLOAT */
		if (bits == 32)
			return fbits((float)x);
		return to_small_float(x, bits == 16 ? 10 : bits - 5, bits == 16);
	}
}

bool agx_format_pack_float(enum agx_format format, const float rgba[4], void *texel)
{
	const struct agx_format_info *info = color_info(format, AGX_FORMAT_KIND_FLOAT);
	unsigned bit = 0;

	if (!info)
		return false;
	memset(texel, 0, info->bytes);
	if (format == AGX_FORMAT_R9G9B9E5_FLOAT) {
		double c[3] = { rgba[0], rgba[1], rgba[2] };
		uint32_t word = to_rgb9e5(c);

		memcpy(texel, &word, 4);
		return true;
	}
	for (unsigned i = 0; i < info->channels; bit += info->bits[i], i++) {
		double x = info->store[i] == P ? 1.0 : rgba[info->store[i]];

		put_bits(texel, bit, info->bits[i], pack_channel_float(info, i, x));
	}
	return true;
}

bool agx_format_pack_uint(enum agx_format format, const uint32_t rgba[4], void *texel)
{
	const struct agx_format_info *info = color_info(format, AGX_FORMAT_KIND_UINT);
	unsigned bit = 0;

	if (!info)
		return false;
	memset(texel, 0, info->bytes);
	for (unsigned i = 0; i < info->channels; bit += info->bits[i], i++) {
		uint64_t max = (1ull << info->bits[i]) - 1;
		uint64_t v = info->store[i] == P ? 1 : rgba[info->store[i]];

		put_bits(texel, bit, info->bits[i], v > max ? max : v);
	}
	return true;
}

bool agx_format_pack_sint(enum agx_format format, const int32_t rgba[4], void *texel)
{
	const struct agx_format_info *info = color_info(format, AGX_FORMAT_KIND_SINT);
	unsigned bit = 0;

	if (!info)
		return false;
	memset(texel, 0, info->bytes);
	for (unsigned i = 0; i < info->channels; bit += info->bits[i], i++) {
		int64_t max = (int64_t)(1ull << (info->bits[i] - 1)) - 1, min = -max - 1;
		int64_t v = info->store[i] == P ? 1 : rgba[info->store[i]];

		v = v > max ? max : v < min ? min : v;
		put_bits(texel, bit, info->bits[i], (uint64_t)v);
	}
	return true;
}

/* ---- unpacking ------------------------------------------------------------------------- */

/* The stored channels' raw values. */
static void raw_channels(const struct agx_format_info *info, const void *texel, uint32_t raw[4])
{
	unsigned bit = 0;

	for (unsigned i = 0; i < 4; i++)
		raw[i] = 0;
	for (unsigned i = 0; i < info->channels; bit += info->bits[i], i++)
		raw[i] = (uint32_t)get_bits(texel, bit, info->bits[i]);
}

bool agx_format_unpack_float(enum agx_format format, const void *texel, float rgba[4])
{
	const struct agx_format_info *info = color_info(format, AGX_FORMAT_KIND_FLOAT);
	double ch[4] = { 0, 0, 0, 0 };
	uint32_t raw[4];

	if (!info)
		return false;
	raw_channels(info, texel, raw);
	for (unsigned i = 0; i < info->channels; i++) {
		unsigned bits = info->bits[i];

		if (format == AGX_FORMAT_R9G9B9E5_FLOAT) {
			uint32_t word;

			memcpy(&word, texel, 4);
			ch[i] = ldexp(raw[i], (int)(word >> 27) - 15 - 9);
			continue;
		}
		switch (info->hw_type) {
		case AGX_CMD_TEXTURE_TYPE_UNORM:
			ch[i] = from_unorm(raw[i], bits);
			if (info->srgb && info->store[i] < 3)
				ch[i] = srgb_decode(ch[i]);
			break;
		case AGX_CMD_TEXTURE_TYPE_SNORM:
			ch[i] = from_snorm(raw[i], bits);
			break;
		default:
			ch[i] = bits == 32 ? fval(raw[i])
					   : from_small_float(raw[i], bits == 16 ? 10 : bits - 5,
							      bits == 16);
			break;
		}
	}
	for (unsigned c = 0; c < 4; c++)
		rgba[c] = info->read[c] == Z   ? 0.0f
			  : info->read[c] == O ? 1.0f
					       : (float)ch[info->read[c]];
	return true;
}

bool agx_format_unpack_uint(enum agx_format format, const void *texel, uint32_t rgba[4])
{
	const struct agx_format_info *info = color_info(format, AGX_FORMAT_KIND_UINT);
	uint32_t raw[4];

	if (!info)
		return false;
	raw_channels(info, texel, raw);
	for (unsigned c = 0; c < 4; c++)
		rgba[c] = info->read[c] == Z ? 0 : info->read[c] == O ? 1 : raw[info->read[c]];
	return true;
}

bool agx_format_unpack_sint(enum agx_format format, const void *texel, int32_t rgba[4])
{
	const struct agx_format_info *info = color_info(format, AGX_FORMAT_KIND_SINT);
	uint32_t raw[4];

	if (!info)
		return false;
	raw_channels(info, texel, raw);
	for (unsigned c = 0; c < 4; c++) {
		unsigned i = info->read[c], bits = i < 4 ? info->bits[i] : 32;

		rgba[c] = i == Z ? 0 : i == O ? 1 : (int32_t)(raw[i] << (32 - bits)) >> (32 - bits);
	}
	return true;
}

/* ---- depth and stencil ------------------------------------------------------------- */

bool agx_format_pack_depth(enum agx_format format, float depth, void *texel)
{
	uint32_t w;

	switch (format) {
	case AGX_FORMAT_Z16_UNORM:
		w = to_unorm(depth, 16);
		memcpy(texel, &(uint16_t){ (uint16_t)w }, 2);
		return true;
	case AGX_FORMAT_Z32_FLOAT:
		memcpy(texel, &depth, 4);
		return true;
	case AGX_FORMAT_Z24_UNORM_S8_UINT:
		memcpy(&w, texel, 4);
		w = (w & 0xff000000u) | to_unorm(depth, 24);
		memcpy(texel, &w, 4);
		return true;
	default:
		return false;
	}
}

bool agx_format_pack_stencil(enum agx_format format, uint32_t stencil, void *texel)
{
	uint32_t w;

	switch (format) {
	case AGX_FORMAT_S8_UINT:
		*(uint8_t *)texel = (uint8_t)stencil;
		return true;
	case AGX_FORMAT_Z24_UNORM_S8_UINT:
		memcpy(&w, texel, 4);
		w = (w & 0xffffffu) | (stencil & 0xff) << 24;
		memcpy(texel, &w, 4);
		return true;
	default:
		return false;
	}
}

bool agx_format_unpack_depth(enum agx_format format, const void *texel, float *depth)
{
	uint32_t w = 0;

	switch (format) {
	case AGX_FORMAT_Z16_UNORM:
		memcpy(&w, texel, 2);
		*depth = (float)from_unorm(w, 16);
		return true;
	case AGX_FORMAT_Z32_FLOAT:
		memcpy(depth, texel, 4);
		return true;
	case AGX_FORMAT_Z24_UNORM_S8_UINT:
		memcpy(&w, texel, 4);
		*depth = (float)from_unorm(w & 0xffffff, 24);
		return true;
	default:
		return false;
	}
}

bool agx_format_unpack_stencil(enum agx_format format, const void *texel, uint32_t *stencil)
{
	switch (format) {
	case AGX_FORMAT_S8_UINT:
		*stencil = *(const uint8_t *)texel;
		return true;
	case AGX_FORMAT_Z24_UNORM_S8_UINT:
		*stencil = ((const uint8_t *)texel)[3];
		return true;
	default:
		return false;
	}
}

/* ---- write masks --------------------------------------------------------------------- */

bool agx_format_color_mask(enum agx_format format, unsigned rgba_mask, uint8_t mask[16])
{
	const struct agx_format_info *info = agx_format_info(format);
	unsigned bit = 0, rgb;

	memset(mask, 0, 16);
	if (!info || info->kind > AGX_FORMAT_KIND_SINT)
		return false;
	if (format == AGX_FORMAT_R9G9B9E5_FLOAT) {
		/* the exponent is shared: all three channels or none */
		rgb = rgba_mask & 7;
		if (rgb != 0 && rgb != 7)
			return false;
		if (rgb)
			memset(mask, 0xff, 4);
		return true;
	}
	for (unsigned i = 0; i < info->channels; bit += info->bits[i], i++) {
		bool written = info->store[i] == P ? (rgba_mask & 0xf) != 0
						   : (rgba_mask >> info->store[i]) & 1;

		if (written)
			put_bits(mask, bit, info->bits[i], ~0ull);
	}
	return true;
}

bool agx_format_zs_mask(enum agx_format format, bool depth, uint32_t stencil_mask, uint8_t mask[16])
{
	memset(mask, 0, 16);
	switch (format) {
	case AGX_FORMAT_Z16_UNORM:
		memset(mask, depth ? 0xff : 0, 2);
		return true;
	case AGX_FORMAT_Z32_FLOAT:
		memset(mask, depth ? 0xff : 0, 4);
		return true;
	case AGX_FORMAT_S8_UINT:
		mask[0] = (uint8_t)stencil_mask;
		return true;
	case AGX_FORMAT_Z24_UNORM_S8_UINT:
		memset(mask, depth ? 0xff : 0, 3);
		mask[3] = (uint8_t)stencil_mask;
		return true;
	default:
		return false;
	}
}
