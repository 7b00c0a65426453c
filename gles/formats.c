/*
 * formats.c: OpenGL ES 3.0's internal formats and what they are on this
 * hardware (formats.h); the format/type combinations of glTexImage
 * (GLES 3.0.6 tables 3.2 and 3.3) and the unpacking of one client pixel
 * into a texel (sections 3.7.2 and 3.8.3).
 *
 * GL's RGB formats have no three-channel texel here: they are stored in
 * the RGBX formats, whose fourth channel reads as one.
 */
#include <math.h>
#include <string.h>

#include <drm_fourcc.h>

#include "extensions.h"
#include "formats.h"

#define CR  GLES_FORMAT_COLOR_RENDERABLE
#define DR  GLES_FORMAT_DEPTH_RENDERABLE
#define SR  GLES_FORMAT_STENCIL_RENDERABLE
#define TF  GLES_FORMAT_FILTERABLE
#define TEX GLES_FORMAT_TEXTURE
#define RB  GLES_FORMAT_RENDERBUFFER
#define SZ  GLES_FORMAT_SIZED
#define CMP GLES_FORMAT_COMPRESSED
#define ENC GLES_FORMAT_ENCODE
/* EXT_color_buffer_float: colour-renderable, and renderbuffer formats */
#define CBF   (CR | RB)
#define UN    GL_UNSIGNED_NORMALIZED
#define SN    GL_SIGNED_NORMALIZED
#define FL    GL_FLOAT
#define UI    GL_UNSIGNED_INT
#define SI    GL_INT
#define HW(x) AGX_FORMAT_##x

/* internalformat, base, component type, sRGB, texels, stencil texels, bits r g b a d s shared,
 * flags */
#define F(i, b, t, s, hw, hws, r, g, bl, a, d, st, sh, fl)                                         \
	{                                                                                          \
		GL_##i, GL_##b, t, s, HW(hw), HW(hws), r, g, bl, a, d, st, sh, fl                  \
	}

/* Table 3.13 (colour), 3.14 (depth/stencil), 3.3 (unsized), 3.16 (compressed). */
static const struct gles_format formats[] = {
	F(R8, RED, UN, false, R8_UNORM, NONE, 8, 0, 0, 0, 0, 0, 0, CR | TF | TEX | RB | SZ),
	F(R8_SNORM, RED, SN, false, R8_SNORM, NONE, 8, 0, 0, 0, 0, 0, 0, TF | TEX | SZ),
	F(RG8, RG, UN, false, R8G8_UNORM, NONE, 8, 8, 0, 0, 0, 0, 0, CR | TF | TEX | RB | SZ),
	F(RG8_SNORM, RG, SN, false, R8G8_SNORM, NONE, 8, 8, 0, 0, 0, 0, 0, TF | TEX | SZ),
	F(RGB8, RGB, UN, false, R8G8B8X8_UNORM, NONE, 8, 8, 8, 0, 0, 0, 0, CR | TF | TEX | RB | SZ),
	F(RGB8_SNORM, RGB, SN, false, R8G8B8X8_SNORM, NONE, 8, 8, 8, 0, 0, 0, 0, TF | TEX | SZ),
	F(RGB565, RGB, UN, false, B5G6R5_UNORM, NONE, 5, 6, 5, 0, 0, 0, 0, CR | TF | TEX | RB | SZ),
	F(RGBA4, RGBA, UN, false, A4B4G4R4_UNORM, NONE, 4, 4, 4, 4, 0, 0, 0,
	  CR | TF | TEX | RB | SZ),
	F(RGB5_A1, RGBA, UN, false, R5G5B5A1_UNORM, NONE, 5, 5, 5, 1, 0, 0, 0,
	  CR | TF | TEX | RB | SZ),
	F(RGBA8, RGBA, UN, false, R8G8B8A8_UNORM, NONE, 8, 8, 8, 8, 0, 0, 0,
	  CR | TF | TEX | RB | SZ),
	F(RGBA8_SNORM, RGBA, SN, false, R8G8B8A8_SNORM, NONE, 8, 8, 8, 8, 0, 0, 0, TF | TEX | SZ),
	F(RGB10_A2, RGBA, UN, false, R10G10B10A2_UNORM, NONE, 10, 10, 10, 2, 0, 0, 0,
	  CR | TF | TEX | RB | SZ),
	F(RGB10_A2UI, RGBA, UI, false, R10G10B10A2_UINT, NONE, 10, 10, 10, 2, 0, 0, 0,
	  CR | TEX | RB | SZ),
	F(SRGB8, RGB, UN, true, R8G8B8X8_SRGB, NONE, 8, 8, 8, 0, 0, 0, 0, TF | TEX | SZ),
	F(SRGB8_ALPHA8, RGBA, UN, true, R8G8B8A8_SRGB, NONE, 8, 8, 8, 8, 0, 0, 0,
	  CR | TF | TEX | RB | SZ),
	F(R16F, RED, FL, false, R16_FLOAT, NONE, 16, 0, 0, 0, 0, 0, 0, CBF | TF | TEX | SZ),
	F(RG16F, RG, FL, false, R16G16_FLOAT, NONE, 16, 16, 0, 0, 0, 0, 0, CBF | TF | TEX | SZ),
	F(RGB16F, RGB, FL, false, R16G16B16X16_FLOAT, NONE, 16, 16, 16, 0, 0, 0, 0, TF | TEX | SZ),
	F(RGBA16F, RGBA, FL, false, R16G16B16A16_FLOAT, NONE, 16, 16, 16, 16, 0, 0, 0,
	  CBF | TF | TEX | SZ),
	F(R32F, RED, FL, false, R32_FLOAT, NONE, 32, 0, 0, 0, 0, 0, 0, CBF | TEX | SZ),
	F(RG32F, RG, FL, false, R32G32_FLOAT, NONE, 32, 32, 0, 0, 0, 0, 0, CBF | TEX | SZ),
	F(RGB32F, RGB, FL, false, R32G32B32X32_FLOAT, NONE, 32, 32, 32, 0, 0, 0, 0, TEX | SZ),
	F(RGBA32F, RGBA, FL, false, R32G32B32A32_FLOAT, NONE, 32, 32, 32, 32, 0, 0, 0,
	  CBF | TEX | SZ),
	F(R11F_G11F_B10F, RGB, FL, false, R11G11B10_FLOAT, NONE, 11, 11, 10, 0, 0, 0, 0,
	  CBF | TF | TEX | SZ),
	F(RGB9_E5, RGB, FL, false, R9G9B9E5_FLOAT, NONE, 9, 9, 9, 0, 0, 0, 5, TF | TEX | SZ),
	F(R8I, RED, SI, false, R8_SINT, NONE, 8, 0, 0, 0, 0, 0, 0, CR | TEX | RB | SZ),
	F(R8UI, RED, UI, false, R8_UINT, NONE, 8, 0, 0, 0, 0, 0, 0, CR | TEX | RB | SZ),
	F(R16I, RED, SI, false, R16_SINT, NONE, 16, 0, 0, 0, 0, 0, 0, CR | TEX | RB | SZ),
	F(R16UI, RED, UI, false, R16_UINT, NONE, 16, 0, 0, 0, 0, 0, 0, CR | TEX | RB | SZ),
	F(R32I, RED, SI, false, R32_SINT, NONE, 32, 0, 0, 0, 0, 0, 0, CR | TEX | RB | SZ),
	F(R32UI, RED, UI, false, R32_UINT, NONE, 32, 0, 0, 0, 0, 0, 0, CR | TEX | RB | SZ),
	F(RG8I, RG, SI, false, R8G8_SINT, NONE, 8, 8, 0, 0, 0, 0, 0, CR | TEX | RB | SZ),
	F(RG8UI, RG, UI, false, R8G8_UINT, NONE, 8, 8, 0, 0, 0, 0, 0, CR | TEX | RB | SZ),
	F(RG16I, RG, SI, false, R16G16_SINT, NONE, 16, 16, 0, 0, 0, 0, 0, CR | TEX | RB | SZ),
	F(RG16UI, RG, UI, false, R16G16_UINT, NONE, 16, 16, 0, 0, 0, 0, 0, CR | TEX | RB | SZ),
	F(RG32I, RG, SI, false, R32G32_SINT, NONE, 32, 32, 0, 0, 0, 0, 0, CR | TEX | RB | SZ),
	F(RG32UI, RG, UI, false, R32G32_UINT, NONE, 32, 32, 0, 0, 0, 0, 0, CR | TEX | RB | SZ),
	F(RGB8I, RGB, SI, false, R8G8B8X8_SINT, NONE, 8, 8, 8, 0, 0, 0, 0, TEX | SZ),
	F(RGB8UI, RGB, UI, false, R8G8B8X8_UINT, NONE, 8, 8, 8, 0, 0, 0, 0, TEX | SZ),
	F(RGB16I, RGB, SI, false, R16G16B16X16_SINT, NONE, 16, 16, 16, 0, 0, 0, 0, TEX | SZ),
	F(RGB16UI, RGB, UI, false, R16G16B16X16_UINT, NONE, 16, 16, 16, 0, 0, 0, 0, TEX | SZ),
	F(RGB32I, RGB, SI, false, R32G32B32X32_SINT, NONE, 32, 32, 32, 0, 0, 0, 0, TEX | SZ),
	F(RGB32UI, RGB, UI, false, R32G32B32X32_UINT, NONE, 32, 32, 32, 0, 0, 0, 0, TEX | SZ),
	F(RGBA8I, RGBA, SI, false, R8G8B8A8_SINT, NONE, 8, 8, 8, 8, 0, 0, 0, CR | TEX | RB | SZ),
	F(RGBA8UI, RGBA, UI, false, R8G8B8A8_UINT, NONE, 8, 8, 8, 8, 0, 0, 0, CR | TEX | RB | SZ),
	F(RGBA16I, RGBA, SI, false, R16G16B16A16_SINT, NONE, 16, 16, 16, 16, 0, 0, 0,
	  CR | TEX | RB | SZ),
	F(RGBA16UI, RGBA, UI, false, R16G16B16A16_UINT, NONE, 16, 16, 16, 16, 0, 0, 0,
	  CR | TEX | RB | SZ),
	F(RGBA32I, RGBA, SI, false, R32G32B32A32_SINT, NONE, 32, 32, 32, 32, 0, 0, 0,
	  CR | TEX | RB | SZ),
	F(RGBA32UI, RGBA, UI, false, R32G32B32A32_UINT, NONE, 32, 32, 32, 32, 0, 0, 0,
	  CR | TEX | RB | SZ),
	/*
	 * Depth and stencil (table 3.14).  The depth/stencil unit renders only
	 * Z16, Z32F and S8 images (docs/render.md, "Targets"), so, as Mesa's
	 * asahi driver does, 24-bit depth is stored as Z32F holding the 24-bit
	 * value, and a stencil is always an S8 image of its own.
	 */
	F(DEPTH_COMPONENT16, DEPTH_COMPONENT, UN, false, Z16_UNORM, NONE, 0, 0, 0, 0, 16, 0, 0,
	  DR | TEX | RB | SZ),
	F(DEPTH_COMPONENT24, DEPTH_COMPONENT, UN, false, Z32_FLOAT, NONE, 0, 0, 0, 0, 24, 0, 0,
	  DR | TEX | RB | SZ),
	F(DEPTH_COMPONENT32F, DEPTH_COMPONENT, FL, false, Z32_FLOAT, NONE, 0, 0, 0, 0, 32, 0, 0,
	  DR | TEX | RB | SZ),
	F(DEPTH24_STENCIL8, DEPTH_STENCIL, UN, false, Z32_FLOAT, S8_UINT, 0, 0, 0, 0, 24, 8, 0,
	  DR | SR | TEX | RB | SZ),
	F(DEPTH32F_STENCIL8, DEPTH_STENCIL, FL, false, Z32_FLOAT, S8_UINT, 0, 0, 0, 0, 32, 8, 0,
	  DR | SR | TEX | RB | SZ),
	F(STENCIL_INDEX8, STENCIL_INDEX8, UI, false, S8_UINT, NONE, 0, 0, 0, 0, 0, 8, 0,
	  SR | RB | SZ),
	/* unsized (table 3.3): the effective formats of GL_RGBA and GL_RGB depend on the type */
	F(RGBA, RGBA, UN, false, R8G8B8A8_UNORM, NONE, 8, 8, 8, 8, 0, 0, 0, CR | TF | TEX),
	F(RGB, RGB, UN, false, R8G8B8X8_UNORM, NONE, 8, 8, 8, 0, 0, 0, 0, CR | TF | TEX),
	F(LUMINANCE_ALPHA, LUMINANCE_ALPHA, UN, false, L8A8_UNORM, NONE, 0, 0, 0, 8, 0, 0, 0,
	  TF | TEX),
	F(LUMINANCE, LUMINANCE, UN, false, L8_UNORM, NONE, 0, 0, 0, 0, 0, 0, 0, TF | TEX),
	F(ALPHA, ALPHA, UN, false, A8_UNORM, NONE, 0, 0, 0, 8, 0, 0, 0, TF | TEX),
	/*
	 * unsized depth and depth/stencil textures (OES_depth_texture,
	 * OES_packed_depth_stencil): only names, their effective formats are
	 * the sized ones the unsized table gives
	 */
	F(DEPTH_COMPONENT, DEPTH_COMPONENT, UN, false, Z16_UNORM, NONE, 0, 0, 0, 0, 16, 0, 0, TEX),
	/*
	 * EXT_texture_format_BGRA8888: BGRA_EXT, unsized, its own effective
	 * format, the bytes in blue, green, red, alpha order (no sized name:
	 * glTexStorage does not take it, as on Mesa)
	 */
	F(BGRA_EXT, RGBA, UN, false, B8G8R8A8_UNORM, NONE, 8, 8, 8, 8, 0, 0, 0, CR | TF | TEX),
	F(DEPTH_STENCIL, DEPTH_STENCIL, UN, false, Z32_FLOAT, S8_UINT, 0, 0, 0, 0, 24, 8, 0, TEX),
	/* compressed (table 3.16): 4x4-texel blocks, which the texture unit decodes */
	F(COMPRESSED_R11_EAC, RED, UN, false, EAC_R11_UNORM, NONE, 11, 0, 0, 0, 0, 0, 0,
	  TF | TEX | SZ | CMP),
	F(COMPRESSED_SIGNED_R11_EAC, RED, SN, false, EAC_R11_SNORM, NONE, 11, 0, 0, 0, 0, 0, 0,
	  TF | TEX | SZ | CMP),
	F(COMPRESSED_RG11_EAC, RG, UN, false, EAC_RG11_UNORM, NONE, 11, 11, 0, 0, 0, 0, 0,
	  TF | TEX | SZ | CMP),
	F(COMPRESSED_SIGNED_RG11_EAC, RG, SN, false, EAC_RG11_SNORM, NONE, 11, 11, 0, 0, 0, 0, 0,
	  TF | TEX | SZ | CMP),
	F(COMPRESSED_RGB8_ETC2, RGB, UN, false, ETC2_RGB8, NONE, 8, 8, 8, 0, 0, 0, 0,
	  TF | TEX | SZ | CMP),
	F(COMPRESSED_SRGB8_ETC2, RGB, UN, true, ETC2_SRGB8, NONE, 8, 8, 8, 0, 0, 0, 0,
	  TF | TEX | SZ | CMP),
	F(COMPRESSED_RGB8_PUNCHTHROUGH_ALPHA1_ETC2, RGBA, UN, false, ETC2_RGB8A1, NONE, 8, 8, 8, 1,
	  0, 0, 0, TF | TEX | SZ | CMP),
	F(COMPRESSED_SRGB8_PUNCHTHROUGH_ALPHA1_ETC2, RGBA, UN, true, ETC2_SRGB8A1, NONE, 8, 8, 8, 1,
	  0, 0, 0, TF | TEX | SZ | CMP),
	F(COMPRESSED_RGBA8_ETC2_EAC, RGBA, UN, false, ETC2_RGBA8, NONE, 8, 8, 8, 8, 0, 0, 0,
	  TF | TEX | SZ | CMP),
	F(COMPRESSED_SRGB8_ALPHA8_ETC2_EAC, RGBA, UN, true, ETC2_SRGB8_ALPHA8, NONE, 8, 8, 8, 8, 0,
	  0, 0, TF | TEX | SZ | CMP),
	/* EXT_texture_compression_s3tc, _s3tc_srgb and _rgtc: BC1-BC5 blocks */
	F(COMPRESSED_RGB_S3TC_DXT1_EXT, RGB, UN, false, BC1_RGB, NONE, 5, 6, 5, 0, 0, 0, 0,
	  TF | TEX | SZ | CMP | ENC),
	F(COMPRESSED_RGBA_S3TC_DXT1_EXT, RGBA, UN, false, BC1_RGBA, NONE, 5, 6, 5, 1, 0, 0, 0,
	  TF | TEX | SZ | CMP | ENC),
	F(COMPRESSED_RGBA_S3TC_DXT3_EXT, RGBA, UN, false, BC2_RGBA, NONE, 5, 6, 5, 4, 0, 0, 0,
	  TF | TEX | SZ | CMP | ENC),
	F(COMPRESSED_RGBA_S3TC_DXT5_EXT, RGBA, UN, false, BC3_RGBA, NONE, 5, 6, 5, 8, 0, 0, 0,
	  TF | TEX | SZ | CMP | ENC),
	F(COMPRESSED_SRGB_S3TC_DXT1_EXT, RGB, UN, true, BC1_SRGB, NONE, 5, 6, 5, 0, 0, 0, 0,
	  TF | TEX | SZ | CMP | ENC),
	F(COMPRESSED_SRGB_ALPHA_S3TC_DXT1_EXT, RGBA, UN, true, BC1_SRGB_ALPHA, NONE, 5, 6, 5, 1, 0,
	  0, 0, TF | TEX | SZ | CMP | ENC),
	F(COMPRESSED_SRGB_ALPHA_S3TC_DXT3_EXT, RGBA, UN, true, BC2_SRGB_ALPHA, NONE, 5, 6, 5, 4, 0,
	  0, 0, TF | TEX | SZ | CMP | ENC),
	F(COMPRESSED_SRGB_ALPHA_S3TC_DXT5_EXT, RGBA, UN, true, BC3_SRGB_ALPHA, NONE, 5, 6, 5, 8, 0,
	  0, 0, TF | TEX | SZ | CMP | ENC),
	F(COMPRESSED_RED_RGTC1_EXT, RED, UN, false, BC4_UNORM, NONE, 8, 0, 0, 0, 0, 0, 0,
	  TF | TEX | SZ | CMP | ENC),
	F(COMPRESSED_SIGNED_RED_RGTC1_EXT, RED, SN, false, BC4_SNORM, NONE, 8, 0, 0, 0, 0, 0, 0,
	  TF | TEX | SZ | CMP | ENC),
	F(COMPRESSED_RED_GREEN_RGTC2_EXT, RG, UN, false, BC5_UNORM, NONE, 8, 8, 0, 0, 0, 0, 0,
	  TF | TEX | SZ | CMP | ENC),
	F(COMPRESSED_SIGNED_RED_GREEN_RGTC2_EXT, RG, SN, false, BC5_SNORM, NONE, 8, 8, 0, 0, 0, 0,
	  0, TF | TEX | SZ | CMP | ENC),
	/* KHR_texture_compression_astc_ldr: 4x4 to 12x12-texel blocks, linear and sRGB */
	F(COMPRESSED_RGBA_ASTC_4x4_KHR, RGBA, UN, false, ASTC_4X4, NONE, 8, 8, 8, 8, 0, 0, 0,
	  TF | TEX | SZ | CMP),
	F(COMPRESSED_SRGB8_ALPHA8_ASTC_4x4_KHR, RGBA, UN, true, ASTC_4X4_SRGB, NONE, 8, 8, 8, 8, 0,
	  0, 0, TF | TEX | SZ | CMP),
	F(COMPRESSED_RGBA_ASTC_5x4_KHR, RGBA, UN, false, ASTC_5X4, NONE, 8, 8, 8, 8, 0, 0, 0,
	  TF | TEX | SZ | CMP),
	F(COMPRESSED_SRGB8_ALPHA8_ASTC_5x4_KHR, RGBA, UN, true, ASTC_5X4_SRGB, NONE, 8, 8, 8, 8, 0,
	  0, 0, TF | TEX | SZ | CMP),
	F(COMPRESSED_RGBA_ASTC_5x5_KHR, RGBA, UN, false, ASTC_5X5, NONE, 8, 8, 8, 8, 0, 0, 0,
	  TF | TEX | SZ | CMP),
	F(COMPRESSED_SRGB8_ALPHA8_ASTC_5x5_KHR, RGBA, UN, true, ASTC_5X5_SRGB, NONE, 8, 8, 8, 8, 0,
	  0, 0, TF | TEX | SZ | CMP),
	F(COMPRESSED_RGBA_ASTC_6x5_KHR, RGBA, UN, false, ASTC_6X5, NONE, 8, 8, 8, 8, 0, 0, 0,
	  TF | TEX | SZ | CMP),
	F(COMPRESSED_SRGB8_ALPHA8_ASTC_6x5_KHR, RGBA, UN, true, ASTC_6X5_SRGB, NONE, 8, 8, 8, 8, 0,
	  0, 0, TF | TEX | SZ | CMP),
	F(COMPRESSED_RGBA_ASTC_6x6_KHR, RGBA, UN, false, ASTC_6X6, NONE, 8, 8, 8, 8, 0, 0, 0,
	  TF | TEX | SZ | CMP),
	F(COMPRESSED_SRGB8_ALPHA8_ASTC_6x6_KHR, RGBA, UN, true, ASTC_6X6_SRGB, NONE, 8, 8, 8, 8, 0,
	  0, 0, TF | TEX | SZ | CMP),
	F(COMPRESSED_RGBA_ASTC_8x5_KHR, RGBA, UN, false, ASTC_8X5, NONE, 8, 8, 8, 8, 0, 0, 0,
	  TF | TEX | SZ | CMP),
	F(COMPRESSED_SRGB8_ALPHA8_ASTC_8x5_KHR, RGBA, UN, true, ASTC_8X5_SRGB, NONE, 8, 8, 8, 8, 0,
	  0, 0, TF | TEX | SZ | CMP),
	F(COMPRESSED_RGBA_ASTC_8x6_KHR, RGBA, UN, false, ASTC_8X6, NONE, 8, 8, 8, 8, 0, 0, 0,
	  TF | TEX | SZ | CMP),
	F(COMPRESSED_SRGB8_ALPHA8_ASTC_8x6_KHR, RGBA, UN, true, ASTC_8X6_SRGB, NONE, 8, 8, 8, 8, 0,
	  0, 0, TF | TEX | SZ | CMP),
	F(COMPRESSED_RGBA_ASTC_8x8_KHR, RGBA, UN, false, ASTC_8X8, NONE, 8, 8, 8, 8, 0, 0, 0,
	  TF | TEX | SZ | CMP),
	F(COMPRESSED_SRGB8_ALPHA8_ASTC_8x8_KHR, RGBA, UN, true, ASTC_8X8_SRGB, NONE, 8, 8, 8, 8, 0,
	  0, 0, TF | TEX | SZ | CMP),
	F(COMPRESSED_RGBA_ASTC_10x5_KHR, RGBA, UN, false, ASTC_10X5, NONE, 8, 8, 8, 8, 0, 0, 0,
	  TF | TEX | SZ | CMP),
	F(COMPRESSED_SRGB8_ALPHA8_ASTC_10x5_KHR, RGBA, UN, true, ASTC_10X5_SRGB, NONE, 8, 8, 8, 8,
	  0, 0, 0, TF | TEX | SZ | CMP),
	F(COMPRESSED_RGBA_ASTC_10x6_KHR, RGBA, UN, false, ASTC_10X6, NONE, 8, 8, 8, 8, 0, 0, 0,
	  TF | TEX | SZ | CMP),
	F(COMPRESSED_SRGB8_ALPHA8_ASTC_10x6_KHR, RGBA, UN, true, ASTC_10X6_SRGB, NONE, 8, 8, 8, 8,
	  0, 0, 0, TF | TEX | SZ | CMP),
	F(COMPRESSED_RGBA_ASTC_10x8_KHR, RGBA, UN, false, ASTC_10X8, NONE, 8, 8, 8, 8, 0, 0, 0,
	  TF | TEX | SZ | CMP),
	F(COMPRESSED_SRGB8_ALPHA8_ASTC_10x8_KHR, RGBA, UN, true, ASTC_10X8_SRGB, NONE, 8, 8, 8, 8,
	  0, 0, 0, TF | TEX | SZ | CMP),
	F(COMPRESSED_RGBA_ASTC_10x10_KHR, RGBA, UN, false, ASTC_10X10, NONE, 8, 8, 8, 8, 0, 0, 0,
	  TF | TEX | SZ | CMP),
	F(COMPRESSED_SRGB8_ALPHA8_ASTC_10x10_KHR, RGBA, UN, true, ASTC_10X10_SRGB, NONE, 8, 8, 8, 8,
	  0, 0, 0, TF | TEX | SZ | CMP),
	F(COMPRESSED_RGBA_ASTC_12x10_KHR, RGBA, UN, false, ASTC_12X10, NONE, 8, 8, 8, 8, 0, 0, 0,
	  TF | TEX | SZ | CMP),
	F(COMPRESSED_SRGB8_ALPHA8_ASTC_12x10_KHR, RGBA, UN, true, ASTC_12X10_SRGB, NONE, 8, 8, 8, 8,
	  0, 0, 0, TF | TEX | SZ | CMP),
	F(COMPRESSED_RGBA_ASTC_12x12_KHR, RGBA, UN, false, ASTC_12X12, NONE, 8, 8, 8, 8, 0, 0, 0,
	  TF | TEX | SZ | CMP),
	F(COMPRESSED_SRGB8_ALPHA8_ASTC_12x12_KHR, RGBA, UN, true, ASTC_12X12_SRGB, NONE, 8, 8, 8, 8,
	  0, 0, 0, TF | TEX | SZ | CMP),
};

/*
 * ES 3.0's, then S3TC's (Mesa lists them too); RGTC's and ASTC's are not
 * listed: their extensions keep them out of the query.
 */
const GLenum gles_compressed_formats[GLES_NUM_COMPRESSED_FORMATS] = {
	GL_COMPRESSED_R11_EAC,
	GL_COMPRESSED_SIGNED_R11_EAC,
	GL_COMPRESSED_RG11_EAC,
	GL_COMPRESSED_SIGNED_RG11_EAC,
	GL_COMPRESSED_RGB8_ETC2,
	GL_COMPRESSED_SRGB8_ETC2,
	GL_COMPRESSED_RGB8_PUNCHTHROUGH_ALPHA1_ETC2,
	GL_COMPRESSED_SRGB8_PUNCHTHROUGH_ALPHA1_ETC2,
	GL_COMPRESSED_RGBA8_ETC2_EAC,
	GL_COMPRESSED_SRGB8_ALPHA8_ETC2_EAC,
	GL_COMPRESSED_RGB_S3TC_DXT1_EXT,
	GL_COMPRESSED_RGBA_S3TC_DXT1_EXT,
	GL_COMPRESSED_RGBA_S3TC_DXT3_EXT,
	GL_COMPRESSED_RGBA_S3TC_DXT5_EXT,
	GL_COMPRESSED_SRGB_S3TC_DXT1_EXT,
	GL_COMPRESSED_SRGB_ALPHA_S3TC_DXT1_EXT,
	GL_COMPRESSED_SRGB_ALPHA_S3TC_DXT3_EXT,
	GL_COMPRESSED_SRGB_ALPHA_S3TC_DXT5_EXT,
};

/* ---- DRM fourcc formats (EGL_EXT_image_dma_buf_import, EGL_MESA_image_dma_buf_export) ---- */

/*
 * XRGB8888's blue-first RGB in a 32-bit texel: no GL internal format has
 * it, so this entry is no table row that gles_format_get could find; it
 * names itself GL_RGB8, what a query of such a texture's format answers.
 */
static const struct gles_format bgrx8 =
    F(RGB8, RGB, UN, false, B8G8R8X8_UNORM, NONE, 8, 8, 8, 0, 0, 0, 0, CR | TF | TEX);

/*
 * drm_fourcc.h's formats are little-endian words, listed from the high
 * bits down: ARGB8888 is bytes B, G, R, A in memory, our B8G8R8A8.
 */
static const struct {
	uint32_t fourcc;
	GLenum internalformat; /* 0: bgrx8 */
} drm_formats[] = {
	{ DRM_FORMAT_ARGB8888, GL_BGRA_EXT }, { DRM_FORMAT_XRGB8888, 0 },
	{ DRM_FORMAT_ABGR8888, GL_RGBA8 },    { DRM_FORMAT_XBGR8888, GL_RGB8 },
	{ DRM_FORMAT_RGB565, GL_RGB565 },
};

#define NUM_DRM_FORMATS (sizeof(drm_formats) / sizeof(drm_formats[0]))

static const struct gles_format *drm_format(unsigned i)
{
	return drm_formats[i].internalformat ? gles_format_get(drm_formats[i].internalformat)
					     : &bgrx8;
}

const struct gles_format *gles_format_of_fourcc(uint32_t fourcc)
{
	for (unsigned i = 0; i < NUM_DRM_FORMATS; i++)
		if (drm_formats[i].fourcc == fourcc)
			return drm_format(i);
	return NULL;
}

uint32_t gles_format_fourcc(enum agx_format hw)
{
	for (unsigned i = 0; i < NUM_DRM_FORMATS; i++)
		if (drm_format(i)->hw == hw)
			return drm_formats[i].fourcc;
	return 0;
}

unsigned gles_format_fourccs(uint32_t *fourccs, unsigned max)
{
	for (unsigned i = 0; i < NUM_DRM_FORMATS && i < max; i++)
		fourccs[i] = drm_formats[i].fourcc;
	return NUM_DRM_FORMATS;
}

const struct gles_format *gles_format_get(GLenum internalformat)
{
	for (unsigned i = 0; i < sizeof(formats) / sizeof(formats[0]); i++)
		if (formats[i].internalformat == internalformat)
			return &formats[i];
	return NULL;
}

/* Table 3.2: the format/type pairs each sized internal format takes. */
static const struct {
	GLenum format, type, internalformat;
} combos[] = {
	{ GL_RGBA, GL_UNSIGNED_BYTE, GL_RGBA8 },
	{ GL_RGBA, GL_UNSIGNED_BYTE, GL_RGB5_A1 },
	{ GL_RGBA, GL_UNSIGNED_BYTE, GL_RGBA4 },
	{ GL_RGBA, GL_UNSIGNED_BYTE, GL_SRGB8_ALPHA8 },
	{ GL_RGBA, GL_BYTE, GL_RGBA8_SNORM },
	{ GL_RGBA, GL_UNSIGNED_SHORT_4_4_4_4, GL_RGBA4 },
	{ GL_RGBA, GL_UNSIGNED_SHORT_5_5_5_1, GL_RGB5_A1 },
	{ GL_RGBA, GL_UNSIGNED_INT_2_10_10_10_REV, GL_RGB10_A2 },
	{ GL_RGBA, GL_UNSIGNED_INT_2_10_10_10_REV, GL_RGB5_A1 },
	{ GL_RGBA, GL_HALF_FLOAT, GL_RGBA16F },
	{ GL_RGBA, GL_FLOAT, GL_RGBA32F },
	{ GL_RGBA, GL_FLOAT, GL_RGBA16F },
	{ GL_RGBA_INTEGER, GL_UNSIGNED_BYTE, GL_RGBA8UI },
	{ GL_RGBA_INTEGER, GL_BYTE, GL_RGBA8I },
	{ GL_RGBA_INTEGER, GL_UNSIGNED_SHORT, GL_RGBA16UI },
	{ GL_RGBA_INTEGER, GL_SHORT, GL_RGBA16I },
	{ GL_RGBA_INTEGER, GL_UNSIGNED_INT, GL_RGBA32UI },
	{ GL_RGBA_INTEGER, GL_INT, GL_RGBA32I },
	{ GL_RGBA_INTEGER, GL_UNSIGNED_INT_2_10_10_10_REV, GL_RGB10_A2UI },
	{ GL_RGB, GL_UNSIGNED_BYTE, GL_RGB8 },
	{ GL_RGB, GL_UNSIGNED_BYTE, GL_RGB565 },
	{ GL_RGB, GL_UNSIGNED_BYTE, GL_SRGB8 },
	{ GL_RGB, GL_BYTE, GL_RGB8_SNORM },
	{ GL_RGB, GL_UNSIGNED_SHORT_5_6_5, GL_RGB565 },
	{ GL_RGB, GL_UNSIGNED_INT_10F_11F_11F_REV, GL_R11F_G11F_B10F },
	{ GL_RGB, GL_UNSIGNED_INT_5_9_9_9_REV, GL_RGB9_E5 },
	{ GL_RGB, GL_HALF_FLOAT, GL_RGB16F },
	{ GL_RGB, GL_HALF_FLOAT, GL_R11F_G11F_B10F },
	{ GL_RGB, GL_HALF_FLOAT, GL_RGB9_E5 },
	{ GL_RGB, GL_FLOAT, GL_RGB32F },
	{ GL_RGB, GL_FLOAT, GL_RGB16F },
	{ GL_RGB, GL_FLOAT, GL_R11F_G11F_B10F },
	{ GL_RGB, GL_FLOAT, GL_RGB9_E5 },
	{ GL_RGB_INTEGER, GL_UNSIGNED_BYTE, GL_RGB8UI },
	{ GL_RGB_INTEGER, GL_BYTE, GL_RGB8I },
	{ GL_RGB_INTEGER, GL_UNSIGNED_SHORT, GL_RGB16UI },
	{ GL_RGB_INTEGER, GL_SHORT, GL_RGB16I },
	{ GL_RGB_INTEGER, GL_UNSIGNED_INT, GL_RGB32UI },
	{ GL_RGB_INTEGER, GL_INT, GL_RGB32I },
	{ GL_RG, GL_UNSIGNED_BYTE, GL_RG8 },
	{ GL_RG, GL_BYTE, GL_RG8_SNORM },
	{ GL_RG, GL_HALF_FLOAT, GL_RG16F },
	{ GL_RG, GL_FLOAT, GL_RG32F },
	{ GL_RG, GL_FLOAT, GL_RG16F },
	{ GL_RG_INTEGER, GL_UNSIGNED_BYTE, GL_RG8UI },
	{ GL_RG_INTEGER, GL_BYTE, GL_RG8I },
	{ GL_RG_INTEGER, GL_UNSIGNED_SHORT, GL_RG16UI },
	{ GL_RG_INTEGER, GL_SHORT, GL_RG16I },
	{ GL_RG_INTEGER, GL_UNSIGNED_INT, GL_RG32UI },
	{ GL_RG_INTEGER, GL_INT, GL_RG32I },
	{ GL_RED, GL_UNSIGNED_BYTE, GL_R8 },
	{ GL_RED, GL_BYTE, GL_R8_SNORM },
	{ GL_RED, GL_HALF_FLOAT, GL_R16F },
	{ GL_RED, GL_FLOAT, GL_R32F },
	{ GL_RED, GL_FLOAT, GL_R16F },
	{ GL_RED_INTEGER, GL_UNSIGNED_BYTE, GL_R8UI },
	{ GL_RED_INTEGER, GL_BYTE, GL_R8I },
	{ GL_RED_INTEGER, GL_UNSIGNED_SHORT, GL_R16UI },
	{ GL_RED_INTEGER, GL_SHORT, GL_R16I },
	{ GL_RED_INTEGER, GL_UNSIGNED_INT, GL_R32UI },
	{ GL_RED_INTEGER, GL_INT, GL_R32I },
	{ GL_DEPTH_COMPONENT, GL_UNSIGNED_SHORT, GL_DEPTH_COMPONENT16 },
	{ GL_DEPTH_COMPONENT, GL_UNSIGNED_INT, GL_DEPTH_COMPONENT24 },
	{ GL_DEPTH_COMPONENT, GL_UNSIGNED_INT, GL_DEPTH_COMPONENT16 },
	{ GL_DEPTH_COMPONENT, GL_FLOAT, GL_DEPTH_COMPONENT32F },
	{ GL_DEPTH_STENCIL, GL_UNSIGNED_INT_24_8, GL_DEPTH24_STENCIL8 },
	{ GL_DEPTH_STENCIL, GL_FLOAT_32_UNSIGNED_INT_24_8_REV, GL_DEPTH32F_STENCIL8 },
};

/*
 * Table 3.3: unsized internal formats (internalformat == format), and the
 * effective format; and the depth ones of the extensions that add them.
 */
static const struct {
	GLenum format, type, effective;
} unsized[] = {
	{ GL_RGBA, GL_UNSIGNED_BYTE, GL_RGBA },
	{ GL_RGBA, GL_UNSIGNED_SHORT_4_4_4_4, GL_RGBA4 },
	{ GL_RGBA, GL_UNSIGNED_SHORT_5_5_5_1, GL_RGB5_A1 },
	{ GL_RGB, GL_UNSIGNED_BYTE, GL_RGB },
	{ GL_RGB, GL_UNSIGNED_SHORT_5_6_5, GL_RGB565 },
	{ GL_LUMINANCE_ALPHA, GL_UNSIGNED_BYTE, GL_LUMINANCE_ALPHA },
	{ GL_LUMINANCE, GL_UNSIGNED_BYTE, GL_LUMINANCE },
	{ GL_ALPHA, GL_UNSIGNED_BYTE, GL_ALPHA },
	{ GL_BGRA_EXT, GL_UNSIGNED_BYTE, GL_BGRA_EXT },
	/* OES_depth_texture, OES_packed_depth_stencil (ES 2.0 extensions) */
	{ GL_DEPTH_COMPONENT, GL_UNSIGNED_SHORT, GL_DEPTH_COMPONENT16 },
	{ GL_DEPTH_COMPONENT, GL_UNSIGNED_INT, GL_DEPTH_COMPONENT24 },
	{ GL_DEPTH_STENCIL, GL_UNSIGNED_INT_24_8, GL_DEPTH24_STENCIL8 },
};

bool gles_pixel_format_valid(GLenum format)
{
	switch (format) {
	case GL_RGBA:
	case GL_RGB:
	case GL_LUMINANCE_ALPHA:
	case GL_LUMINANCE:
	case GL_ALPHA:
	case GL_RGBA_INTEGER:
	case GL_RGB_INTEGER:
	case GL_RG:
	case GL_RG_INTEGER:
	case GL_RED:
	case GL_RED_INTEGER:
	case GL_DEPTH_COMPONENT:
	case GL_DEPTH_STENCIL:
	case GL_BGRA_EXT: /* EXT_texture_format_BGRA8888, EXT_read_format_bgra */
		return true;
	default:
		return false;
	}
}

bool gles_pixel_type_valid(GLenum type)
{
	switch (type) {
	case GL_UNSIGNED_BYTE:
	case GL_UNSIGNED_SHORT_5_6_5:
	case GL_UNSIGNED_SHORT_4_4_4_4:
	case GL_UNSIGNED_SHORT_5_5_5_1:
	case GL_BYTE:
	case GL_UNSIGNED_SHORT:
	case GL_SHORT:
	case GL_UNSIGNED_INT:
	case GL_INT:
	case GL_HALF_FLOAT:
	case GL_FLOAT:
	case GL_UNSIGNED_INT_2_10_10_10_REV:
	case GL_UNSIGNED_INT_10F_11F_11F_REV:
	case GL_UNSIGNED_INT_5_9_9_9_REV:
	case GL_UNSIGNED_INT_24_8:
	case GL_FLOAT_32_UNSIGNED_INT_24_8_REV:
		return true;
	default:
		return false;
	}
}

bool gles_format_matches(const struct gles_format *f, GLenum format, GLenum type)
{
	for (unsigned i = 0; i < sizeof(combos) / sizeof(combos[0]); i++)
		if (combos[i].internalformat == f->internalformat && combos[i].format == format &&
		    combos[i].type == type)
			return true;
	return false;
}

/* The pixels glTexImage takes for a format the GL compresses (formats.h). */
static bool encoded_takes(const struct gles_format *f, GLenum format, GLenum type)
{
	bool s3tc = f->base == GL_RGB || f->base == GL_RGBA;

	if (s3tc ? format != GL_RGBA && format != GL_RGB : format != f->base)
		return false;
	if (type == GL_FLOAT || type == GL_HALF_FLOAT)
		return true;
	return type == (f->component_type == GL_SIGNED_NORMALIZED ? GL_BYTE : GL_UNSIGNED_BYTE);
}

const struct gles_format *gles_format_teximage(GLenum internalformat, GLenum format, GLenum type,
					       GLenum *error)
{
	const struct gles_format *f;

	if (!gles_pixel_format_valid(format) || !gles_pixel_type_valid(type)) {
		*error = GL_INVALID_ENUM;
		return NULL;
	}
	f = gles_format_get(internalformat);
	if (!f || !(f->flags & TEX)) {
		*error = GL_INVALID_VALUE;
		return NULL;
	}
	/*
	 * A compressed format is an internal format, but no format and type
	 * pair goes with it (table 3.2): the combination's error, as Mesa and
	 * piglit's KHR_texture_compression_astc test have it.
	 */
	*error = GL_INVALID_OPERATION;
	if (f->flags & ENC)
		return encoded_takes(f, format, type) ? f : NULL;
	if (f->flags & CMP)
		return NULL;
	if (!(f->flags & SZ)) {
		if (format != internalformat)
			return NULL;
		for (unsigned i = 0; i < sizeof(unsized) / sizeof(unsized[0]); i++)
			if (unsized[i].format == format && unsized[i].type == type)
				return gles_format_get(unsized[i].effective);
		return NULL;
	}
	return gles_format_matches(f, format, type) ? f : NULL;
}

static unsigned format_components(GLenum format)
{
	switch (format) {
	case GL_RED:
	case GL_RED_INTEGER:
	case GL_LUMINANCE:
	case GL_ALPHA:
	case GL_DEPTH_COMPONENT:
		return 1;
	case GL_RG:
	case GL_RG_INTEGER:
	case GL_LUMINANCE_ALPHA:
	case GL_DEPTH_STENCIL:
		return 2;
	case GL_RGB:
	case GL_RGB_INTEGER:
		return 3;
	case GL_RGBA:
	case GL_RGBA_INTEGER:
	case GL_BGRA_EXT:
		return 4;
	default:
		return 0;
	}
}

unsigned gles_pixel_bytes(GLenum format, GLenum type)
{
	unsigned n = format_components(format);

	if (!n)
		return 0;
	switch (type) {
	case GL_UNSIGNED_BYTE:
	case GL_BYTE:
		return n;
	case GL_UNSIGNED_SHORT:
	case GL_SHORT:
	case GL_HALF_FLOAT:
		return 2 * n;
	case GL_UNSIGNED_INT:
	case GL_INT:
	case GL_FLOAT:
		return 4 * n;
	case GL_UNSIGNED_SHORT_5_6_5:
	case GL_UNSIGNED_SHORT_4_4_4_4:
	case GL_UNSIGNED_SHORT_5_5_5_1:
		return 2;
	case GL_UNSIGNED_INT_2_10_10_10_REV:
	case GL_UNSIGNED_INT_10F_11F_11F_REV:
	case GL_UNSIGNED_INT_5_9_9_9_REV:
	case GL_UNSIGNED_INT_24_8:
		return 4;
	case GL_FLOAT_32_UNSIGNED_INT_24_8_REV:
		return 8;
	default:
		return 0;
	}
}

uint64_t gles_format_compressed_size(const struct gles_format *f, unsigned w, unsigned h,
				     unsigned d)
{
	const struct agx_format_info *info = agx_format_info(f->hw);
	unsigned bw = info->block_w, bh = info->block_h;

	return (uint64_t)((w + bw - 1) / bw) * ((h + bh - 1) / bh) * d * info->bytes;
}

bool gles_format_is_astc(const struct gles_format *f)
{
	GLenum i = f->internalformat;

	return (i >= GL_COMPRESSED_RGBA_ASTC_4x4_KHR && i <= GL_COMPRESSED_RGBA_ASTC_12x12_KHR) ||
	       (i >= GL_COMPRESSED_SRGB8_ALPHA8_ASTC_4x4_KHR &&
		i <= GL_COMPRESSED_SRGB8_ALPHA8_ASTC_12x12_KHR);
}

/* ---- unpacking one pixel ------------------------------------------------------------- */

static float half_to_float(uint16_t h)
{
	unsigned e = (h >> 10) & 31, m = h & 1023;
	float v;

	if (e == 0)
		v = ldexpf((float)m, -24);
	else if (e == 31)
		v = m ? NAN : INFINITY;
	else
		v = ldexpf((float)(m | 1024), (int)e - 25);
	return h & 0x8000 ? -v : v;
}

/* Component k of a pixel of non-packed type, as a GL integer (its bits) or a float. */
static void component(GLenum type, const uint8_t *p, unsigned k, uint32_t *bits, double *value)
{
	uint16_t u16;
	int16_t s16;
	uint32_t u32;
	int32_t s32;
	float f;

	switch (type) {
	case GL_UNSIGNED_BYTE:
		*bits = p[k];
		*value = p[k] / 255.0;
		break;
	case GL_BYTE:
		*bits = (uint32_t)(int32_t)(int8_t)p[k];
		/* section 2.1.6.1: signed normalized, -128 and -127 both -1 */
		*value = fmax((int8_t)p[k] / 127.0, -1.0);
		break;
	case GL_UNSIGNED_SHORT:
		memcpy(&u16, p + 2 * k, 2);
		*bits = u16;
		*value = u16 / 65535.0;
		break;
	case GL_SHORT:
		memcpy(&s16, p + 2 * k, 2);
		*bits = (uint32_t)(int32_t)s16;
		*value = fmax(s16 / 32767.0, -1.0);
		break;
	case GL_UNSIGNED_INT:
		memcpy(&u32, p + 4 * k, 4);
		*bits = u32;
		*value = u32 / 4294967295.0;
		break;
	case GL_INT:
		memcpy(&s32, p + 4 * k, 4);
		*bits = (uint32_t)s32;
		*value = fmax(s32 / 2147483647.0, -1.0);
		break;
	case GL_HALF_FLOAT:
		memcpy(&u16, p + 2 * k, 2);
		*bits = u16;
		*value = half_to_float(u16);
		break;
	case GL_FLOAT:
		memcpy(&f, p + 4 * k, 4);
		memcpy(bits, &f, 4);
		*value = f;
		break;
	default:
		*bits = 0;
		*value = 0;
	}
}

/* A packed pixel's fields, first component in the most significant bits unless _REV. */
static unsigned packed_fields(GLenum type, const uint8_t *p, uint32_t out[4], unsigned max[4])
{
	uint16_t s;
	uint32_t w;

	switch (type) {
	case GL_UNSIGNED_SHORT_5_6_5:
		memcpy(&s, p, 2);
		out[0] = s >> 11, out[1] = (s >> 5) & 63, out[2] = s & 31;
		max[0] = 31, max[1] = 63, max[2] = 31;
		return 3;
	case GL_UNSIGNED_SHORT_4_4_4_4:
		memcpy(&s, p, 2);
		out[0] = s >> 12, out[1] = (s >> 8) & 15, out[2] = (s >> 4) & 15, out[3] = s & 15;
		max[0] = max[1] = max[2] = max[3] = 15;
		return 4;
	case GL_UNSIGNED_SHORT_5_5_5_1:
		memcpy(&s, p, 2);
		out[0] = s >> 11, out[1] = (s >> 6) & 31, out[2] = (s >> 1) & 31, out[3] = s & 1;
		max[0] = max[1] = max[2] = 31, max[3] = 1;
		return 4;
	case GL_UNSIGNED_INT_2_10_10_10_REV:
		memcpy(&w, p, 4);
		out[0] = w & 1023, out[1] = (w >> 10) & 1023, out[2] = (w >> 20) & 1023;
		out[3] = w >> 30;
		max[0] = max[1] = max[2] = 1023, max[3] = 3;
		return 4;
	default:
		return 0;
	}
}

/* GL's unsigned fixed-point depth of `bits` bits to d bits, rounded (section 2.1.6). */
static uint32_t depth_bits(uint64_t v, unsigned from, unsigned to)
{
	uint64_t fmax = (1ull << from) - 1, tmax = (1ull << to) - 1;

	return (uint32_t)((v * tmax + fmax / 2) / fmax);
}

static enum agx_format linear_format(enum agx_format hw)
{
	/* sRGB texels are given already encoded: store them as they are */
	switch (hw) {
	case AGX_FORMAT_R8G8B8A8_SRGB:
		return AGX_FORMAT_R8G8B8A8_UNORM;
	case AGX_FORMAT_R8G8B8X8_SRGB:
		return AGX_FORMAT_R8G8B8X8_UNORM;
	default:
		return hw;
	}
}

/*
 * A depth in GL's unsigned fixed point (v, of `from` bits) as f's texel:
 * first the internal format's own fixed point of f->depth bits (section
 * 3.8.3, equation 2.3), then the texel -- a Z16 word, or the Z32F texel of
 * a 24-bit format holding that value k as k / (2^24 - 1) (equation 2.1).
 */
static void fixed_depth_texel(const struct gles_format *f, uint32_t v, unsigned from,
			      uint8_t *texel)
{
	uint32_t k = depth_bits(v, from, f->depth);
	uint16_t z;
	float d;

	if (f->hw == AGX_FORMAT_Z16_UNORM) {
		z = (uint16_t)k;
		memcpy(texel, &z, 2);
	} else {
		d = (float)((double)k / ((1u << f->depth) - 1));
		memcpy(texel, &d, 4);
	}
}

/* A float depth, clamped to [0, 1] (section 3.8.3), as a Z32F texel. */
static void float_depth_texel(const uint8_t *pixel, uint8_t *texel)
{
	float d;

	memcpy(&d, pixel, 4);
	d = isnan(d) ? 0.0f : fminf(fmaxf(d, 0.0f), 1.0f);
	memcpy(texel, &d, 4);
}

static void depth_stencil_texel(const struct gles_format *f, GLenum type, const uint8_t *pixel,
				uint8_t *texel, uint8_t *stencil)
{
	uint32_t u;
	uint16_t s;

	switch (type) {
	case GL_UNSIGNED_SHORT:
		memcpy(&s, pixel, 2);
		fixed_depth_texel(f, s, 16, texel);
		break;
	case GL_UNSIGNED_INT:
		memcpy(&u, pixel, 4);
		fixed_depth_texel(f, u, 32, texel);
		break;
	case GL_FLOAT:
		float_depth_texel(pixel, texel);
		break;
	case GL_UNSIGNED_INT_24_8:
		/* depth in bits 31..8, stencil 7..0 */
		memcpy(&u, pixel, 4);
		fixed_depth_texel(f, u >> 8, 24, texel);
		if (stencil)
			*stencil = (uint8_t)u;
		break;
	case GL_FLOAT_32_UNSIGNED_INT_24_8_REV:
		/* a float depth, then a word with the stencil in bits 7..0 */
		float_depth_texel(pixel, texel);
		memcpy(&u, pixel + 4, 4);
		if (stencil)
			*stencil = (uint8_t)u;
		break;
	}
}

void gles_pixel_to_texel(const struct gles_format *f, GLenum format, GLenum type,
			 const uint8_t *pixel, uint8_t *texel, uint8_t *stencil)
{
	const struct agx_format_info *info = agx_format_info(f->hw);
	enum agx_format hw = linear_format(f->hw);
	unsigned n = format_components(format), max[4], count;
	uint32_t bits[4] = { 0, 0, 0, 1 }, fields[4];
	float rgba[4] = { 0, 0, 0, 1 };
	double v;

	if (f->base == GL_DEPTH_COMPONENT || f->base == GL_DEPTH_STENCIL) {
		depth_stencil_texel(f, type, pixel, texel, stencil);
		return;
	}
	/* the texel is the pixel, bit for bit (packed types whose fields lie as the texel's) */
	if ((type == GL_UNSIGNED_SHORT_5_6_5 && hw == AGX_FORMAT_B5G6R5_UNORM) ||
	    (type == GL_UNSIGNED_SHORT_4_4_4_4 && hw == AGX_FORMAT_A4B4G4R4_UNORM) ||
	    (type == GL_UNSIGNED_INT_2_10_10_10_REV &&
	     (hw == AGX_FORMAT_R10G10B10A2_UNORM || hw == AGX_FORMAT_R10G10B10A2_UINT)) ||
	    type == GL_UNSIGNED_INT_10F_11F_11F_REV || type == GL_UNSIGNED_INT_5_9_9_9_REV) {
		memcpy(texel, pixel, info->bytes);
		return;
	}
	count = packed_fields(type, pixel, fields, max);
	for (unsigned k = 0; k < (count ? count : n); k++) {
		if (count) {
			bits[k] = fields[k];
			v = (double)fields[k] / max[k];
		} else {
			component(type, pixel, k, &bits[k], &v);
		}
		rgba[k] = (float)v;
	}
	/* luminance and alpha go where the L8/A8/L8A8 texels store them; BGRA's blue is first */
	if (format == GL_BGRA_EXT) {
		float b = rgba[0];
		uint32_t bb = bits[0];

		rgba[0] = rgba[2], rgba[2] = b;
		bits[0] = bits[2], bits[2] = bb;
	} else if (format == GL_ALPHA) {
		rgba[3] = rgba[0], rgba[0] = 0;
	} else if (format == GL_LUMINANCE_ALPHA) {
		rgba[3] = rgba[1], rgba[1] = 0;
	}
	switch (info->kind) {
	case AGX_FORMAT_KIND_UINT:
		agx_format_pack_uint(hw, bits, texel);
		break;
	case AGX_FORMAT_KIND_SINT:
		agx_format_pack_sint(hw, (const int32_t *)bits, texel);
		break;
	default:
		memset(texel, 0, info->bytes);
		agx_format_pack_float(hw, rgba, texel);
		break;
	}
}

bool gles_format_read_pair(const struct gles_format *f, GLenum *format, GLenum *type)
{
	bool integer = f->component_type == GL_INT || f->component_type == GL_UNSIGNED_INT;
	bool sign = f->component_type == GL_INT;

	switch (f->internalformat) {
	case GL_RGB565:
		*format = GL_RGB, *type = GL_UNSIGNED_SHORT_5_6_5;
		return true;
	case GL_RGBA4:
		*format = GL_RGBA, *type = GL_UNSIGNED_SHORT_4_4_4_4;
		return true;
	case GL_RGB5_A1:
		*format = GL_RGBA, *type = GL_UNSIGNED_SHORT_5_5_5_1;
		return true;
	case GL_RGB10_A2:
		*format = GL_RGBA, *type = GL_UNSIGNED_INT_2_10_10_10_REV;
		return true;
	case GL_RGB10_A2UI:
		*format = GL_RGBA_INTEGER, *type = GL_UNSIGNED_INT_2_10_10_10_REV;
		return true;
	case GL_R11F_G11F_B10F:
		*format = GL_RGB, *type = GL_UNSIGNED_INT_10F_11F_11F_REV;
		return true;
	}
	switch (f->base) {
	case GL_RED:
		*format = integer ? GL_RED_INTEGER : GL_RED;
		break;
	case GL_RG:
		*format = integer ? GL_RG_INTEGER : GL_RG;
		break;
	case GL_RGB:
		*format = integer ? GL_RGB_INTEGER : GL_RGB;
		break;
	case GL_RGBA:
		*format = integer ? GL_RGBA_INTEGER : GL_RGBA;
		break;
	default:
		return false;
	}
	switch (f->component_type) {
	case GL_FLOAT:
		*type = f->red == 16 ? GL_HALF_FLOAT : GL_FLOAT;
		break;
	case GL_SIGNED_NORMALIZED:
		*type = GL_BYTE;
		break;
	case GL_UNSIGNED_NORMALIZED:
		*type = GL_UNSIGNED_BYTE;
		break;
	default:
		*type = f->red == 8    ? (sign ? GL_BYTE : GL_UNSIGNED_BYTE)
			: f->red == 16 ? (sign ? GL_SHORT : GL_UNSIGNED_SHORT)
				       : (sign ? GL_INT : GL_UNSIGNED_INT);
	}
	return true;
}
