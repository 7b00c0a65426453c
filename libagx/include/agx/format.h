/*
 * format.h: the texel formats of images the GPU reads and writes -- one
 * table of every format the simulated texture unit and PBE take (a channel
 * layout and a type of libagx/hw/cmdbuf.hw's `channels` and `texture_type`
 * enums, plus the sRGB bit), the depth and stencil formats, and the
 * conversion of one texel to and from RGBA float / uint / sint, depth and
 * stencil values with the rounding OpenGL ES 3.0 requires (section 2.1.6
 * for normalized values, 2.1.3/2.1.4 for small floats).
 *
 * Channel order: the stored channels are listed from the least significant
 * bit of the texel upwards (channel 0 at bit 0, as the simulator's texture
 * unit reads them), which is also how format names read (Mesa's pipe-format
 * convention: B5G6R5_UNORM has blue in bits 4..0).  A format whose stored
 * channels are not R, G, B, A in that order (B5G6R5, luminance, alpha, RGB
 * with a padding channel) says so with a swizzle.
 */
#ifndef AGX_FORMAT_H
#define AGX_FORMAT_H

#include <stdbool.h>
#include <stdint.h>

enum agx_format {
	AGX_FORMAT_NONE,

	/* 8 bits a texel */
	AGX_FORMAT_R8_UNORM,
	AGX_FORMAT_R8_SNORM,
	AGX_FORMAT_R8_UINT,
	AGX_FORMAT_R8_SINT,
	AGX_FORMAT_R8_SRGB,
	AGX_FORMAT_A8_UNORM, /* alpha only: reads (0, 0, 0, a) */
	AGX_FORMAT_L8_UNORM, /* luminance: reads (l, l, l, 1) */

	/* 16 bits */
	AGX_FORMAT_R16_UNORM,
	AGX_FORMAT_R16_SNORM,
	AGX_FORMAT_R16_UINT,
	AGX_FORMAT_R16_SINT,
	AGX_FORMAT_R16_FLOAT,
	AGX_FORMAT_R8G8_UNORM,
	AGX_FORMAT_R8G8_SNORM,
	AGX_FORMAT_R8G8_UINT,
	AGX_FORMAT_R8G8_SINT,
	AGX_FORMAT_R8G8_SRGB,
	AGX_FORMAT_L8A8_UNORM, /* luminance-alpha: reads (l, l, l, a) */
	AGX_FORMAT_R5G6B5_UNORM,
	AGX_FORMAT_B5G6R5_UNORM, /* red in bits 15..11: GL's UNSIGNED_SHORT_5_6_5 */
	AGX_FORMAT_R4G4B4A4_UNORM,
	AGX_FORMAT_A4B4G4R4_UNORM, /* red in bits 15..12: GL's UNSIGNED_SHORT_4_4_4_4 */
	AGX_FORMAT_R5G5B5A1_UNORM,

	/* 32 bits */
	AGX_FORMAT_R32_UINT,
	AGX_FORMAT_R32_SINT,
	AGX_FORMAT_R32_FLOAT,
	AGX_FORMAT_R16G16_UNORM,
	AGX_FORMAT_R16G16_SNORM,
	AGX_FORMAT_R16G16_UINT,
	AGX_FORMAT_R16G16_SINT,
	AGX_FORMAT_R16G16_FLOAT,
	AGX_FORMAT_R11G11B10_FLOAT,
	AGX_FORMAT_R10G10B10A2_UNORM,
	AGX_FORMAT_R10G10B10A2_UINT,
	AGX_FORMAT_R9G9B9E5_FLOAT,
	AGX_FORMAT_R8G8B8A8_UNORM,
	AGX_FORMAT_R8G8B8A8_SNORM,
	AGX_FORMAT_R8G8B8A8_UINT,
	AGX_FORMAT_R8G8B8A8_SINT,
	AGX_FORMAT_R8G8B8A8_SRGB,
	AGX_FORMAT_B8G8R8A8_UNORM,
	/* RGB in an RGBA texel: the fourth channel is padding, written as 1, read as 1 */
	AGX_FORMAT_R8G8B8X8_UNORM,
	AGX_FORMAT_R8G8B8X8_SNORM,
	AGX_FORMAT_R8G8B8X8_UINT,
	AGX_FORMAT_R8G8B8X8_SINT,
	AGX_FORMAT_R8G8B8X8_SRGB,
	AGX_FORMAT_B8G8R8X8_UNORM, /* blue first: a DRM XRGB8888 buffer (dma-buf imports) */

	/* 64 bits */
	AGX_FORMAT_R32G32_UINT,
	AGX_FORMAT_R32G32_SINT,
	AGX_FORMAT_R32G32_FLOAT,
	AGX_FORMAT_R16G16B16A16_UNORM,
	AGX_FORMAT_R16G16B16A16_SNORM,
	AGX_FORMAT_R16G16B16A16_UINT,
	AGX_FORMAT_R16G16B16A16_SINT,
	AGX_FORMAT_R16G16B16A16_FLOAT,
	AGX_FORMAT_R16G16B16X16_UINT,
	AGX_FORMAT_R16G16B16X16_SINT,
	AGX_FORMAT_R16G16B16X16_FLOAT,

	/* 128 bits */
	AGX_FORMAT_R32G32B32A32_UINT,
	AGX_FORMAT_R32G32B32A32_SINT,
	AGX_FORMAT_R32G32B32A32_FLOAT,
	AGX_FORMAT_R32G32B32X32_UINT,
	AGX_FORMAT_R32G32B32X32_SINT,
	AGX_FORMAT_R32G32B32X32_FLOAT,

	/* depth and stencil */
	AGX_FORMAT_Z16_UNORM,	      /* the ZLS's z16; the texture unit reads it as R16 unorm */
	AGX_FORMAT_Z32_FLOAT,	      /* the ZLS's z32f; read as R32 float */
	AGX_FORMAT_S8_UINT,	      /* the ZLS's separate stencil; read as R8 uint */
	AGX_FORMAT_Z24_UNORM_S8_UINT, /* one word: depth in bits 23..0, stencil in 31..24 */

	/* block-compressed: a block of texels each element; no pack or unpack here */
	AGX_FORMAT_ETC2_RGB8,
	AGX_FORMAT_ETC2_SRGB8,
	AGX_FORMAT_ETC2_RGB8A1,
	AGX_FORMAT_ETC2_SRGB8A1,
	AGX_FORMAT_ETC2_RGBA8,
	AGX_FORMAT_ETC2_SRGB8_ALPHA8,
	AGX_FORMAT_EAC_R11_UNORM,
	AGX_FORMAT_EAC_R11_SNORM,
	AGX_FORMAT_EAC_RG11_UNORM,
	AGX_FORMAT_EAC_RG11_SNORM,
	/* S3TC (BC1-3: RGB without alpha is BC1 with alpha read as one) and RGTC (BC4, BC5) */
	AGX_FORMAT_BC1_RGB,
	AGX_FORMAT_BC1_SRGB,
	AGX_FORMAT_BC1_RGBA,
	AGX_FORMAT_BC1_SRGB_ALPHA,
	AGX_FORMAT_BC2_RGBA,
	AGX_FORMAT_BC2_SRGB_ALPHA,
	AGX_FORMAT_BC3_RGBA,
	AGX_FORMAT_BC3_SRGB_ALPHA,
	AGX_FORMAT_BC4_UNORM,
	AGX_FORMAT_BC4_SNORM,
	AGX_FORMAT_BC5_UNORM,
	AGX_FORMAT_BC5_SNORM,
	/* ASTC LDR: 16-byte blocks of 4x4 to 12x12 texels, linear or sRGB colour */
	AGX_FORMAT_ASTC_4X4,
	AGX_FORMAT_ASTC_4X4_SRGB,
	AGX_FORMAT_ASTC_5X4,
	AGX_FORMAT_ASTC_5X4_SRGB,
	AGX_FORMAT_ASTC_5X5,
	AGX_FORMAT_ASTC_5X5_SRGB,
	AGX_FORMAT_ASTC_6X5,
	AGX_FORMAT_ASTC_6X5_SRGB,
	AGX_FORMAT_ASTC_6X6,
	AGX_FORMAT_ASTC_6X6_SRGB,
	AGX_FORMAT_ASTC_8X5,
	AGX_FORMAT_ASTC_8X5_SRGB,
	AGX_FORMAT_ASTC_8X6,
	AGX_FORMAT_ASTC_8X6_SRGB,
	AGX_FORMAT_ASTC_8X8,
	AGX_FORMAT_ASTC_8X8_SRGB,
	AGX_FORMAT_ASTC_10X5,
	AGX_FORMAT_ASTC_10X5_SRGB,
	AGX_FORMAT_ASTC_10X6,
	AGX_FORMAT_ASTC_10X6_SRGB,
	AGX_FORMAT_ASTC_10X8,
	AGX_FORMAT_ASTC_10X8_SRGB,
	AGX_FORMAT_ASTC_10X10,
	AGX_FORMAT_ASTC_10X10_SRGB,
	AGX_FORMAT_ASTC_12X10,
	AGX_FORMAT_ASTC_12X10_SRGB,
	AGX_FORMAT_ASTC_12X12,
	AGX_FORMAT_ASTC_12X12_SRGB,

	AGX_FORMAT_COUNT
};

/* What a texel holds, and so which pack and unpack functions take it. */
enum agx_format_kind {
	AGX_FORMAT_KIND_FLOAT,	 /* unorm, snorm or float colour: *_float */
	AGX_FORMAT_KIND_UINT,	 /* unsigned integer colour: *_uint */
	AGX_FORMAT_KIND_SINT,	 /* signed integer colour: *_sint */
	AGX_FORMAT_KIND_DEPTH,	 /* *_depth */
	AGX_FORMAT_KIND_STENCIL, /* *_stencil */
	AGX_FORMAT_KIND_DEPTH_STENCIL,
	AGX_FORMAT_KIND_COMPRESSED,
};

/* A swizzle entry: a stored channel (0..3), or a constant. */
#define AGX_FORMAT_SWIZZLE_0   4
#define AGX_FORMAT_SWIZZLE_1   5
#define AGX_FORMAT_SWIZZLE_PAD 6 /* store[]: a padding channel, written as one */

struct agx_format_info {
	const char *name; /* "R8G8B8A8_UNORM": the enum's name without AGX_FORMAT_ */
	enum agx_format_kind kind;
	unsigned bytes; /* a texel, or a block of a compressed format */
	/* texels a block is wide and high: 1x1, 4x4 (ETC2/EAC, BC1-5), 4x4 to 12x12 (ASTC) */
	unsigned block_w, block_h;
	/*
	 * The hardware's view: values of cmdbuf.hw's `channels` and
	 * `texture_type` enums and the descriptors' sRGB bit, for the texture
	 * and PBE descriptors (AGX_CMD_CHANNELS_*, AGX_CMD_TEXTURE_TYPE_*).
	 */
	uint8_t hw_channels, hw_type;
	bool srgb;
	bool texture; /* the texture unit reads it */
	bool pbe;     /* the PBE writes it */
	/* stored channels, from bit 0 up, and their widths in bits (0: none) */
	unsigned channels;
	uint8_t bits[4];
	/*
	 * read[c]: where component c (R, G, B, A) comes from when a texel is
	 * read -- a stored channel, AGX_FORMAT_SWIZZLE_0 or _1; the texture
	 * descriptor's swizzle.  store[i]: the component stored channel i
	 * holds (0..3), or AGX_FORMAT_SWIZZLE_PAD.
	 */
	uint8_t read[4];
	uint8_t store[4];
	/* GL's components (1 for R, 3 for RGB with padding, 4 for RGBA) */
	unsigned components;
	unsigned depth_bits, stencil_bits;
};

/* The table's entry; NULL for AGX_FORMAT_NONE and values outside the enum. */
const struct agx_format_info *agx_format_info(enum agx_format format);

/*
 * The same texels without the sRGB encoding (R8G8B8A8_SRGB: R8G8B8A8_UNORM),
 * for reading the stored values as they are; format itself when not sRGB.
 */
enum agx_format agx_format_linear(enum agx_format format);

/* The format named name (agx_format_info's names), AGX_FORMAT_NONE if none. */
enum agx_format agx_format_from_name(const char *name);

/*
 * One texel from RGBA values, the way a colour reaches a buffer of the
 * format (OpenGL ES 3.0 section 2.1.6 and 4.2.3): unorm values clamped to
 * [0, 1] and rounded to nearest (x * (2^b - 1) + 0.5, truncated), snorm to
 * [-1, 1] (x * (2^(b-1) - 1), rounded to nearest), sRGB channels encoded
 * (the curve of section 3.8.16, inverted) before rounding, half floats
 * rounded to nearest even (overflow to infinity), 11/10-bit floats too
 * (negative values become 0), RGB9E5 as EXT_texture_shared_exponent says.
 * Integers are clamped to the channel's range (GL leaves out-of-range
 * integer values undefined; clamping is what Mesa's formats do).
 * Components the format lacks are ignored; padding channels get 1.
 * texel receives info->bytes bytes.  false if the format's kind is not the
 * function's (see enum agx_format_kind).
 */
bool agx_format_pack_float(enum agx_format format, const float rgba[4], void *texel);
bool agx_format_pack_uint(enum agx_format format, const uint32_t rgba[4], void *texel);
bool agx_format_pack_sint(enum agx_format format, const int32_t rgba[4], void *texel);

/*
 * And back: RGBA as the texture unit returns it (the read swizzle applied,
 * missing components 0, 0, 0 and 1).  unorm and snorm become x / (2^b - 1)
 * and max(x / (2^(b-1) - 1), -1); sRGB channels are decoded.
 */
bool agx_format_unpack_float(enum agx_format format, const void *texel, float rgba[4]);
bool agx_format_unpack_uint(enum agx_format format, const void *texel, uint32_t rgba[4]);
bool agx_format_unpack_sint(enum agx_format format, const void *texel, int32_t rgba[4]);

/*
 * Depth (clamped to [0, 1] for unorm depth, stored as is for Z32_FLOAT)
 * and stencil (the low stencil_bits bits) into a texel of a depth, stencil
 * or depth-stencil format; the other part of a Z24S8 word is left as it is
 * in texel.  false for formats without that part.
 */
bool agx_format_pack_depth(enum agx_format format, float depth, void *texel);
bool agx_format_pack_stencil(enum agx_format format, uint32_t stencil, void *texel);
bool agx_format_unpack_depth(enum agx_format format, const void *texel, float *depth);
bool agx_format_unpack_stencil(enum agx_format format, const void *texel, uint32_t *stencil);

/*
 * The bits of a texel that a masked write changes, as bytes of a texel
 * (mask[i] for texel byte i): the bits of the components whose bit is set
 * in rgba_mask (bit 0 R .. bit 3 A; padding channels count as written when
 * any component is); false if the format cannot take a write of some
 * components only (RGB9E5's shared exponent; compressed formats).
 */
bool agx_format_color_mask(enum agx_format format, unsigned rgba_mask, uint8_t mask[16]);

/* The same for depth (all its bits or none) and stencil (stencil_mask's low bits). */
bool agx_format_zs_mask(enum agx_format format, bool depth, uint32_t stencil_mask,
			uint8_t mask[16]);

#endif
