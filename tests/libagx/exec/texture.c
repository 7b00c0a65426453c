/*
 * texture.c: kernels of the GLSL ES 3.00 texture built-ins (section 8.8)
 * that mean something in a compute shader -- textureSize, texture,
 * textureProj, textureLod, textureOffset, texelFetch, texelFetchOffset,
 * textureProjOffset, textureLodOffset, textureProjLod,
 * textureProjLodOffset, textureGrad, textureGradOffset, textureProjGrad,
 * textureProjGradOffset -- over 2D, 3D, cube and 2D array samplers, their
 * integer and shadow forms, and arrays of samplers.  (The bias forms are
 * fragment-only; compute shaders take the base level for texture(): GLSL
 * ES 3.10 section 8.9.)  Each invocation reads its operands from binding 0
 * (a struct Q per call), makes one or two lookups, and writes their sum to
 * binding 1; the reference is the texture model's (tex-model.h), with
 * inputs drawn again where the model finds them ambiguous.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "exec-internal.h"

enum stype { S_2D, S_3D, S_CUBE, S_ARRAY, S_2D_SHADOW, S_CUBE_SHADOW, S_ARRAY_SHADOW };

static const struct {
	const char *glsl;
	unsigned coords; /* P's components for texture() (coordinates, layer, reference) */
	unsigned grads;	 /* of dPdx and dPdy */
	unsigned fetch;	 /* texelFetch's P (0: none) */
	bool shadow;
} stypes[] = {
	[S_2D] = { "sampler2D", 2, 2, 2, false },
	[S_3D] = { "sampler3D", 3, 3, 3, false },
	[S_CUBE] = { "samplerCube", 3, 3, 0, false },
	[S_ARRAY] = { "sampler2DArray", 3, 2, 3, false },
	[S_2D_SHADOW] = { "sampler2DShadow", 3, 2, 0, true },
	[S_CUBE_SHADOW] = { "samplerCubeShadow", 4, 3, 0, true },
	[S_ARRAY_SHADOW] = { "sampler2DArrayShadow", 4, 2, 0, true },
};

enum fn {
	F_NONE,
	F_SIZE,
	F_TEXTURE,
	F_PROJ,
	F_LOD,
	F_OFFSET,
	F_FETCH,
	F_FETCH_OFFSET,
	F_PROJ_OFFSET,
	F_LOD_OFFSET,
	F_PROJ_LOD,
	F_PROJ_LOD_OFFSET,
	F_GRAD,
	F_GRAD_OFFSET,
	F_PROJ_GRAD,
	F_PROJ_GRAD_OFFSET,
};

static const struct {
	const char *name;
	bool proj, lod, grad, offset;
} fns[] = {
	[F_SIZE] = { "textureSize" },
	[F_TEXTURE] = { "texture" },
	[F_PROJ] = { "textureProj", true },
	[F_LOD] = { "textureLod", false, true },
	[F_OFFSET] = { "textureOffset", false, false, false, true },
	[F_FETCH] = { "texelFetch" },
	[F_FETCH_OFFSET] = { "texelFetchOffset", false, false, false, true },
	[F_PROJ_OFFSET] = { "textureProjOffset", true, false, false, true },
	[F_LOD_OFFSET] = { "textureLodOffset", false, true, false, true },
	[F_PROJ_LOD] = { "textureProjLod", true, true },
	[F_PROJ_LOD_OFFSET] = { "textureProjLodOffset", true, true, false, true },
	[F_GRAD] = { "textureGrad", false, false, true },
	[F_GRAD_OFFSET] = { "textureGradOffset", false, false, true, true },
	[F_PROJ_GRAD] = { "textureProjGrad", true, false, true },
	[F_PROJ_GRAD_OFFSET] = { "textureProjGradOffset", true, false, true, true },
};

/* A sampler uniform of a kernel: t0, t1; an array gets one texture per element. */
struct ktex {
	enum stype type;
	const struct tex_desc *desc;
	const struct tex_sampler *s;
	unsigned array;
};

struct kcall {
	enum fn fn;
	unsigned tex, element;
	int off[3];
	bool proj4;	 /* textureProj of a 2D sampler with a vec4 */
	double lo, hi;	 /* the LOD's range, or lambda's for gradients (lo == hi: a default) */
	bool major_grad; /* a cube's gradients along its major axis too */
};

struct tkernel {
	const char *name;
	struct ktex tex[2];
	struct kcall call[2];
	unsigned local, groups; /* 0: 64 and 2 */
};

#define Q_WORDS 16 /* struct Q { vec4 p; vec4 dx; vec4 dy; ivec4 i; } */

/* ---- textures and samplers -------------------------------------------------------------- */

#define D(name, f, t, w, h, d, levels, lin)                                                        \
	static const struct tex_desc name = { f, t, w, h, d, levels, lin }

D(d2_rgba8_lin, TEX_RGBA8, TEX_2D, 8, 8, 1, 1, true);
D(d2_rgba8_npot, TEX_RGBA8, TEX_2D, 13, 7, 1, 1, false);
D(d2_rgba8_mip, TEX_RGBA8, TEX_2D, 16, 16, 1, 5, false);
D(d2_rgba8_npot_mip, TEX_RGBA8, TEX_2D, 24, 10, 1, 4, false);
D(d2_rgba16f, TEX_RGBA16F, TEX_2D, 6, 10, 1, 1, false);
D(d2_rgba16f_mip, TEX_RGBA16F, TEX_2D, 32, 16, 1, 6, false);
D(d2_r8_lin, TEX_R8, TEX_2D, 5, 5, 1, 1, true);
D(d2_rg8, TEX_RG8, TEX_2D, 9, 4, 1, 1, false);
D(d2_r16f_mip, TEX_R16F, TEX_2D, 16, 16, 1, 5, false);
D(d2_r32f, TEX_R32F, TEX_2D, 7, 9, 1, 1, false);
D(d2_rg32f_mip, TEX_RG32F, TEX_2D, 8, 8, 1, 4, false);
D(d2_rgba32f_lin, TEX_RGBA32F, TEX_2D, 12, 12, 1, 1, true);
D(d2_rgba8ui_mip, TEX_RGBA8UI, TEX_2D, 8, 8, 1, 4, false);
D(d2_rgba8i, TEX_RGBA8I, TEX_2D, 7, 5, 1, 1, false);
D(d2_rgba16ui_lin, TEX_RGBA16UI, TEX_2D, 6, 6, 1, 1, true);
D(d2_rgba16i_mip, TEX_RGBA16I, TEX_2D, 16, 8, 1, 5, false);
D(d2_r32ui_lin, TEX_R32UI, TEX_2D, 5, 9, 1, 1, true);
D(d2_r32i, TEX_R32I, TEX_2D, 8, 8, 1, 1, false);
D(d2_rg32i, TEX_RG32I, TEX_2D, 4, 8, 1, 1, false);
D(d3_rgba8, TEX_RGBA8, TEX_3D, 8, 4, 6, 1, false);
D(d3_rgba16f_mip, TEX_RGBA16F, TEX_3D, 8, 8, 8, 4, false);
D(d3_r32f, TEX_R32F, TEX_3D, 5, 6, 3, 1, false);
D(d3_rgba8ui, TEX_RGBA8UI, TEX_3D, 4, 4, 4, 1, false);
D(d3_r32i_mip, TEX_R32I, TEX_3D, 8, 8, 4, 4, false);
D(dc_rgba8, TEX_RGBA8, TEX_CUBE, 8, 8, 1, 1, false);
D(dc_rgba16f_mip, TEX_RGBA16F, TEX_CUBE, 16, 16, 1, 5, false);
D(dc_r32f, TEX_R32F, TEX_CUBE, 4, 4, 1, 1, false);
D(dc_rgba8i, TEX_RGBA8I, TEX_CUBE, 8, 8, 1, 1, false);
D(dc_r32ui_mip, TEX_R32UI, TEX_CUBE, 4, 4, 1, 3, false);
D(da_rgba8, TEX_RGBA8, TEX_2D_ARRAY, 8, 8, 4, 1, false);
D(da_rgba16f_mip, TEX_RGBA16F, TEX_2D_ARRAY, 16, 8, 3, 5, false);
D(da_r32f, TEX_R32F, TEX_2D_ARRAY, 6, 6, 5, 1, false);
D(da_rgba16i, TEX_RGBA16I, TEX_2D_ARRAY, 8, 4, 3, 1, false);
D(da_r32ui_mip, TEX_R32UI, TEX_2D_ARRAY, 4, 4, 6, 3, false);
D(dz32, TEX_DEPTH32F, TEX_2D, 8, 8, 1, 1, false);
D(dz16_mip, TEX_DEPTH16, TEX_2D, 16, 16, 1, 5, false);
D(dz16_npot, TEX_DEPTH16, TEX_2D, 10, 6, 1, 1, false);
D(dzc16, TEX_DEPTH16, TEX_CUBE, 8, 8, 1, 1, false);
D(dzc32_mip, TEX_DEPTH32F, TEX_CUBE, 16, 16, 1, 5, false);
D(dza32, TEX_DEPTH32F, TEX_2D_ARRAY, 8, 8, 4, 1, false);
D(dza16_mip, TEX_DEPTH16, TEX_2D_ARRAY, 16, 16, 3, 5, false);

#define R TEX_REPEAT
#define C TEX_CLAMP_TO_EDGE
#define M TEX_MIRRORED_REPEAT
#define N TEX_NEAREST
#define L TEX_LINEAR

static const struct tex_sampler s_nr = { N, N, TEX_MIP_NONE, R, R, R, 0, 0, false, TEX_LEQUAL };
static const struct tex_sampler s_nc = { N, N, TEX_MIP_NONE, C, C, C, 0, 0, false, TEX_LEQUAL };
static const struct tex_sampler s_nm = { N, N, TEX_MIP_NONE, M, M, M, 0, 0, false, TEX_LEQUAL };
static const struct tex_sampler s_lr = { L, L, TEX_MIP_NONE, R, R, R, 0, 0, false, TEX_LEQUAL };
static const struct tex_sampler s_lc = { L, L, TEX_MIP_NONE, C, C, C, 0, 0, false, TEX_LEQUAL };
static const struct tex_sampler s_lm = { L, L, TEX_MIP_NONE, M, M, M, 0, 0, false, TEX_LEQUAL };
static const struct tex_sampler s_lmix = { L, L, TEX_MIP_NONE, R, M, C, 0, 0, false, TEX_LEQUAL };
static const struct tex_sampler s_nmix = { N, N, TEX_MIP_NONE, M, C, R, 0, 0, false, TEX_LEQUAL };
static const struct tex_sampler s_nn = { N, N, TEX_MIP_NEAREST, R, R, R, 0, 0, false, TEX_LEQUAL };
static const struct tex_sampler s_nn_c = {
	N, N, TEX_MIP_NEAREST, C, C, C, 0, 1, false, TEX_LEQUAL
};
static const struct tex_sampler s_ln = { L, L, TEX_MIP_NEAREST, R, M, R, 0, 0, false, TEX_LEQUAL };
static const struct tex_sampler s_nl = { N, N, TEX_MIP_LINEAR, M, R, R, 0, 0, false, TEX_LEQUAL };
static const struct tex_sampler s_ll = { L, L, TEX_MIP_LINEAR, R, R, R, 0, 0, false, TEX_LEQUAL };
static const struct tex_sampler s_ll_c = { L, L,   TEX_MIP_LINEAR, C,	  C,
					   C, 0.5, 2.25,	   false, TEX_LEQUAL };
static const struct tex_sampler s_half = {
	L, N, TEX_MIP_NEAREST, R, R, R, 0, 0, false, TEX_LEQUAL
};
/* shadows: compare mode, a function, nearest or filtered */
static const struct tex_sampler z_le = { N, N, TEX_MIP_NONE, C, C, C, 0, 0, true, TEX_LEQUAL };
static const struct tex_sampler z_ge = { N, N, TEX_MIP_NONE, R, R, R, 0, 0, true, TEX_GEQUAL };
static const struct tex_sampler z_lt = { N, N, TEX_MIP_NONE, M, M, M, 0, 0, true, TEX_LESS };
static const struct tex_sampler z_gt = { N, N, TEX_MIP_NONE, C, C, C, 0, 0, true, TEX_GREATER };
static const struct tex_sampler z_ne = { N, N, TEX_MIP_NONE, C, C, C, 0, 0, true, TEX_NOTEQUAL };
static const struct tex_sampler z_always = { N, N, TEX_MIP_NONE, C, C, C, 0, 0, true, TEX_ALWAYS };
static const struct tex_sampler z_never = { N, N, TEX_MIP_NONE, C, C, C, 0, 0, true, TEX_NEVER };
static const struct tex_sampler z_lin = { L, L, TEX_MIP_NONE, C, C, C, 0, 0, true, TEX_LEQUAL };
static const struct tex_sampler z_nn = { N, N, TEX_MIP_NEAREST, R, R, R, 0, 0, true, TEX_GEQUAL };
static const struct tex_sampler z_ll = { L, L, TEX_MIP_LINEAR, C, C, C, 0, 0, true, TEX_LESS };

#undef R
#undef C
#undef M
#undef N
#undef L

/* ---- the kernels ------------------------------------------------------------------------- */

/* One lookup of one sampler t0: K(name, function, sampler type, texture, sampler, call fields) */
/* clang-format off */
#define K(name_, f, st, d, s, ...) \
	{ .name = name_, .tex = { { st, &d, &s, 0 } }, .call = { { .fn = f, __VA_ARGS__ } } }
/* clang-format on */
#define O2(x, y)    .off = { x, y, 0 }
#define O3(x, y, z) .off = { x, y, z }
#define LOD(a, b)   .lo = a, .hi = b

static const struct tkernel kernels[] = {
	/* textureSize: every sampler type, levels past the first */
	K("tex_size_2d", F_SIZE, S_2D, d2_rgba8_mip, s_nn),
	K("tex_size_2d_npot", F_SIZE, S_2D, d2_rgba8_npot_mip, s_nn),
	K("tex_size_3d", F_SIZE, S_3D, d3_rgba16f_mip, s_nn),
	K("tex_size_cube", F_SIZE, S_CUBE, dc_rgba16f_mip, s_ll),
	K("tex_size_2darray", F_SIZE, S_ARRAY, da_rgba16f_mip, s_ll),
	K("tex_size_2dshadow", F_SIZE, S_2D_SHADOW, dz16_mip, z_nn),
	K("tex_size_cubeshadow", F_SIZE, S_CUBE_SHADOW, dzc32_mip, z_ll),
	K("tex_size_2darrayshadow", F_SIZE, S_ARRAY_SHADOW, dza16_mip, z_ll),
	K("tex_size_isampler2d", F_SIZE, S_2D, d2_rgba16i_mip, s_nn),
	K("tex_size_usampler3d", F_SIZE, S_3D, d3_rgba8ui, s_nr),
	K("tex_size_isamplercube", F_SIZE, S_CUBE, dc_rgba8i, s_nr),
	K("tex_size_usampler2darray", F_SIZE, S_ARRAY, da_r32ui_mip, s_nn),

	/* texture(): the base level in a compute shader */
	K("tex_texture_2d_linear_layout_nearest", F_TEXTURE, S_2D, d2_rgba8_lin, s_nr),
	K("tex_texture_2d_npot_nearest_clamp", F_TEXTURE, S_2D, d2_rgba8_npot, s_nc),
	K("tex_texture_2d_npot_nearest_mirror", F_TEXTURE, S_2D, d2_rgba8_npot, s_nm),
	K("tex_texture_2d_linear_repeat", F_TEXTURE, S_2D, d2_rgba8_lin, s_lr),
	K("tex_texture_2d_npot_linear_clamp", F_TEXTURE, S_2D, d2_rgba8_npot, s_lc),
	K("tex_texture_2d_rgba16f_linear_clamp", F_TEXTURE, S_2D, d2_rgba16f, s_lc),
	K("tex_texture_2d_rgba16f_linear_mirror", F_TEXTURE, S_2D, d2_rgba16f, s_lm),
	K("tex_texture_2d_r8_linear_mixed_wraps", F_TEXTURE, S_2D, d2_r8_lin, s_lmix),
	K("tex_texture_2d_rg8_nearest_mixed_wraps", F_TEXTURE, S_2D, d2_rg8, s_nmix),
	K("tex_texture_2d_r32f_nearest", F_TEXTURE, S_2D, d2_r32f, s_nm),
	K("tex_texture_2d_rgba32f_nearest", F_TEXTURE, S_2D, d2_rgba32f_lin, s_nc),
	K("tex_texture_2d_mipmapped_is_level0", F_TEXTURE, S_2D, d2_rgba8_mip, s_nn),
	K("tex_texture_2d_trilinear_is_level0", F_TEXTURE, S_2D, d2_rgba16f_mip, s_ll),
	K("tex_texture_2d_depth_as_color", F_TEXTURE, S_2D, dz32, s_nc),
	K("tex_texture_usampler2d_rgba8ui", F_TEXTURE, S_2D, d2_rgba8ui_mip, s_nn),
	K("tex_texture_isampler2d_rgba8i", F_TEXTURE, S_2D, d2_rgba8i, s_nm),
	K("tex_texture_usampler2d_rgba16ui", F_TEXTURE, S_2D, d2_rgba16ui_lin, s_nr),
	K("tex_texture_isampler2d_rgba16i", F_TEXTURE, S_2D, d2_rgba16i_mip, s_nn),
	K("tex_texture_usampler2d_r32ui", F_TEXTURE, S_2D, d2_r32ui_lin, s_nc),
	K("tex_texture_isampler2d_r32i", F_TEXTURE, S_2D, d2_r32i, s_nr),
	K("tex_texture_isampler2d_rg32i", F_TEXTURE, S_2D, d2_rg32i, s_nmix),
	K("tex_texture_3d_linear", F_TEXTURE, S_3D, d3_rgba8, s_lr),
	K("tex_texture_3d_linear_mixed_wraps", F_TEXTURE, S_3D, d3_rgba8, s_lmix),
	K("tex_texture_3d_nearest_mirror", F_TEXTURE, S_3D, d3_rgba8, s_nm),
	K("tex_texture_3d_r32f_nearest", F_TEXTURE, S_3D, d3_r32f, s_nc),
	K("tex_texture_usampler3d", F_TEXTURE, S_3D, d3_rgba8ui, s_nr),
	K("tex_texture_cube_nearest", F_TEXTURE, S_CUBE, dc_rgba8, s_nr),
	K("tex_texture_cube_linear", F_TEXTURE, S_CUBE, dc_rgba8, s_lr),
	K("tex_texture_cube_r32f", F_TEXTURE, S_CUBE, dc_r32f, s_nc),
	K("tex_texture_isamplercube", F_TEXTURE, S_CUBE, dc_rgba8i, s_nr),
	K("tex_texture_2darray_nearest", F_TEXTURE, S_ARRAY, da_rgba8, s_nr),
	K("tex_texture_2darray_linear", F_TEXTURE, S_ARRAY, da_rgba8, s_lm),
	K("tex_texture_2darray_r32f", F_TEXTURE, S_ARRAY, da_r32f, s_nc),
	K("tex_texture_isampler2darray", F_TEXTURE, S_ARRAY, da_rgba16i, s_nm),
	K("tex_texture_2dshadow_lequal", F_TEXTURE, S_2D_SHADOW, dz32, z_le),
	K("tex_texture_2dshadow_gequal", F_TEXTURE, S_2D_SHADOW, dz16_npot, z_ge),
	K("tex_texture_2dshadow_less", F_TEXTURE, S_2D_SHADOW, dz32, z_lt),
	K("tex_texture_2dshadow_greater", F_TEXTURE, S_2D_SHADOW, dz16_npot, z_gt),
	K("tex_texture_2dshadow_notequal", F_TEXTURE, S_2D_SHADOW, dz32, z_ne),
	K("tex_texture_2dshadow_always", F_TEXTURE, S_2D_SHADOW, dz16_npot, z_always),
	K("tex_texture_2dshadow_never", F_TEXTURE, S_2D_SHADOW, dz32, z_never),
	K("tex_texture_2dshadow_linear", F_TEXTURE, S_2D_SHADOW, dz16_npot, z_lin),
	K("tex_texture_cubeshadow", F_TEXTURE, S_CUBE_SHADOW, dzc16, z_le),
	K("tex_texture_cubeshadow_greater", F_TEXTURE, S_CUBE_SHADOW, dzc16, z_gt),
	K("tex_texture_2darrayshadow", F_TEXTURE, S_ARRAY_SHADOW, dza32, z_le),
	K("tex_texture_2darrayshadow_linear", F_TEXTURE, S_ARRAY_SHADOW, dza32, z_lin),

	/* textureProj: divided by the last component */
	K("tex_proj_2d_vec3_nearest", F_PROJ, S_2D, d2_rgba8_npot, s_nr),
	K("tex_proj_2d_vec4_linear", F_PROJ, S_2D, d2_rgba16f, s_lr, .proj4 = true),
	K("tex_proj_3d_nearest", F_PROJ, S_3D, d3_r32f, s_nm),
	K("tex_proj_3d_linear", F_PROJ, S_3D, d3_rgba8, s_lc),
	K("tex_proj_2dshadow", F_PROJ, S_2D_SHADOW, dz32, z_le),
	K("tex_proj_isampler2d_vec4", F_PROJ, S_2D, d2_rgba8i, s_nr, .proj4 = true),
	K("tex_proj_usampler3d", F_PROJ, S_3D, d3_rgba8ui, s_nc),

	/* textureLod: the mipmap filters, the LOD clamp, the switch-over point */
	K("tex_lod_2d_nearest_mipmap_nearest", F_LOD, S_2D, d2_rgba8_mip, s_nn),
	K("tex_lod_2d_linear_mipmap_nearest", F_LOD, S_2D, d2_rgba8_mip, s_ln),
	K("tex_lod_2d_nearest_mipmap_linear", F_LOD, S_2D, d2_r16f_mip, s_nl),
	K("tex_lod_2d_trilinear", F_LOD, S_2D, d2_rgba16f_mip, s_ll),
	K("tex_lod_2d_trilinear_lod_clamp", F_LOD, S_2D, d2_rgba8_mip, s_ll_c, LOD(-1, 4)),
	K("tex_lod_2d_max_lod_nearest", F_LOD, S_2D, d2_rgba8_npot_mip, s_nn_c, LOD(-1, 4)),
	K("tex_lod_2d_switch_over_c", F_LOD, S_2D, d2_rgba8_mip, s_half, LOD(0.1, 0.4)),
	K("tex_lod_2d_npot_nearest", F_LOD, S_2D, d2_rgba8_npot_mip, s_nn),
	K("tex_lod_2d_rg32f_nearest", F_LOD, S_2D, d2_rg32f_mip, s_nn),
	K("tex_lod_2d_not_mipmapped", F_LOD, S_2D, d2_rgba16f, s_lm, LOD(-2, 3)),
	K("tex_lod_isampler2d", F_LOD, S_2D, d2_rgba16i_mip, s_nn),
	K("tex_lod_3d_isampler_nearest", F_LOD, S_3D, d3_r32i_mip, s_nn),
	K("tex_lod_3d_trilinear", F_LOD, S_3D, d3_rgba16f_mip, s_ll),
	K("tex_lod_cube_trilinear", F_LOD, S_CUBE, dc_rgba16f_mip, s_ll, LOD(-0.5, 2.5)),
	K("tex_lod_usamplercube_nearest", F_LOD, S_CUBE, dc_r32ui_mip, s_nn),
	K("tex_lod_2dshadow", F_LOD, S_2D_SHADOW, dz16_mip, z_nn),
	K("tex_lod_2darray_trilinear", F_LOD, S_ARRAY, da_rgba16f_mip, s_ll),
	K("tex_lod_usampler2darray", F_LOD, S_ARRAY, da_r32ui_mip, s_nn),

	/* textureOffset: constant texel offsets, -8..7 */
	K("tex_offset_2d_nearest", F_OFFSET, S_2D, d2_rgba8_npot, s_nr, O2(-8, 7)),
	K("tex_offset_2d_linear", F_OFFSET, S_2D, d2_rgba16f, s_lc, O2(3, -2)),
	K("tex_offset_3d", F_OFFSET, S_3D, d3_rgba8, s_lm, O3(1, -1, 2)),
	K("tex_offset_2dshadow", F_OFFSET, S_2D_SHADOW, dz16_npot, z_gt, O2(2, -3)),
	K("tex_offset_2darray", F_OFFSET, S_ARRAY, da_rgba8, s_nc, O2(-1, 1)),
	K("tex_offset_usampler2d", F_OFFSET, S_2D, d2_r32ui_lin, s_nr, O2(4, -5)),

	/* texelFetch: integer coordinates and a level */
	K("tex_fetch_2d_mipmapped", F_FETCH, S_2D, d2_rgba8_mip, s_nn),
	K("tex_fetch_2d_rgba16f", F_FETCH, S_2D, d2_rgba16f, s_lr),
	K("tex_fetch_2d_r32f", F_FETCH, S_2D, d2_r32f, s_nr),
	K("tex_fetch_2d_linear_layout", F_FETCH, S_2D, d2_rgba32f_lin, s_nr),
	K("tex_fetch_usampler2d_mipmapped", F_FETCH, S_2D, d2_rgba8ui_mip, s_nn),
	K("tex_fetch_isampler2d_mipmapped", F_FETCH, S_2D, d2_rgba16i_mip, s_nn),
	K("tex_fetch_3d_mipmapped", F_FETCH, S_3D, d3_rgba16f_mip, s_ll),
	K("tex_fetch_isampler3d_mipmapped", F_FETCH, S_3D, d3_r32i_mip, s_nn),
	K("tex_fetch_2darray", F_FETCH, S_ARRAY, da_rgba8, s_lr),
	K("tex_fetch_usampler2darray_mipmapped", F_FETCH, S_ARRAY, da_r32ui_mip, s_nn),
	K("tex_fetch_2d_depth", F_FETCH, S_2D, dz16_mip, s_nn),

	/* texelFetchOffset */
	K("tex_fetch_offset_2d", F_FETCH_OFFSET, S_2D, d2_rgba8_mip, s_nn, O2(-1, 2)),
	K("tex_fetch_offset_3d", F_FETCH_OFFSET, S_3D, d3_rgba8, s_nr, O3(1, 0, -1)),
	K("tex_fetch_offset_2darray", F_FETCH_OFFSET, S_ARRAY, da_rgba16i, s_nr, O2(2, 1)),
	K("tex_fetch_offset_isampler2d", F_FETCH_OFFSET, S_2D, d2_r32i, s_nr, O2(-3, -4)),

	/* textureProjOffset */
	K("tex_proj_offset_2d_vec3", F_PROJ_OFFSET, S_2D, d2_rgba8_npot, s_nm, O2(1, -2)),
	K("tex_proj_offset_2d_vec4", F_PROJ_OFFSET, S_2D, d2_rgba16f, s_lr, O2(-3, 3),
	  .proj4 = true),
	K("tex_proj_offset_3d", F_PROJ_OFFSET, S_3D, d3_r32f, s_nr, O3(-1, 2, 1)),
	K("tex_proj_offset_2dshadow", F_PROJ_OFFSET, S_2D_SHADOW, dz32, z_ge, O2(5, -6)),

	/* textureLodOffset */
	K("tex_lod_offset_2d", F_LOD_OFFSET, S_2D, d2_rgba8_mip, s_ln, O2(2, -1)),
	K("tex_lod_offset_3d", F_LOD_OFFSET, S_3D, d3_rgba16f_mip, s_ll, O3(-2, 1, 0)),
	K("tex_lod_offset_2dshadow", F_LOD_OFFSET, S_2D_SHADOW, dz16_mip, z_nn, O2(-4, 3)),
	K("tex_lod_offset_2darray", F_LOD_OFFSET, S_ARRAY, da_rgba16f_mip, s_ll, O2(1, 1)),
	K("tex_lod_offset_isampler2d", F_LOD_OFFSET, S_2D, d2_rgba16i_mip, s_nn, O2(7, -8)),

	/* textureProjLod */
	K("tex_proj_lod_2d_vec3", F_PROJ_LOD, S_2D, d2_rgba8_mip, s_nn),
	K("tex_proj_lod_2d_vec4", F_PROJ_LOD, S_2D, d2_rgba16f_mip, s_ll, .proj4 = true),
	K("tex_proj_lod_3d", F_PROJ_LOD, S_3D, d3_rgba16f_mip, s_ll),
	K("tex_proj_lod_2dshadow", F_PROJ_LOD, S_2D_SHADOW, dz16_mip, z_nn),

	/* textureProjLodOffset */
	K("tex_proj_lod_offset_2d_vec3", F_PROJ_LOD_OFFSET, S_2D, d2_rgba8_mip, s_ln, O2(3, 0)),
	K("tex_proj_lod_offset_2d_vec4", F_PROJ_LOD_OFFSET, S_2D, d2_r16f_mip, s_nl, O2(0, -3),
	  .proj4 = true),
	K("tex_proj_lod_offset_3d", F_PROJ_LOD_OFFSET, S_3D, d3_r32i_mip, s_nn, O3(1, 1, -1)),
	K("tex_proj_lod_offset_2dshadow", F_PROJ_LOD_OFFSET, S_2D_SHADOW, dz16_mip, z_nn,
	  O2(-2, 2)),

	/* textureGrad: lambda from the gradients, within the spec's bounds of rho */
	K("tex_grad_2d_nearest_mipmap_nearest", F_GRAD, S_2D, d2_rgba8_mip, s_nn),
	K("tex_grad_2d_trilinear", F_GRAD, S_2D, d2_rgba16f_mip, s_ll),
	K("tex_grad_2d_npot_lod_clamp", F_GRAD, S_2D, d2_rgba8_npot_mip, s_ll_c, LOD(-1, 4)),
	K("tex_grad_2d_magnified", F_GRAD, S_2D, d2_rgba8_lin, s_lr, LOD(-4, -0.5)),
	K("tex_grad_3d_trilinear", F_GRAD, S_3D, d3_rgba16f_mip, s_ll),
	K("tex_grad_cube_trilinear", F_GRAD, S_CUBE, dc_rgba16f_mip, s_ll, LOD(-0.5, 2.5)),
	K("tex_grad_cube_major_axis", F_GRAD, S_CUBE, dc_r32ui_mip, s_nn, .major_grad = true),
	K("tex_grad_2dshadow", F_GRAD, S_2D_SHADOW, dz16_mip, z_nn),
	K("tex_grad_cubeshadow", F_GRAD, S_CUBE_SHADOW, dzc32_mip, z_ll, LOD(-0.5, 2.5)),
	K("tex_grad_2darray", F_GRAD, S_ARRAY, da_rgba16f_mip, s_ll),
	K("tex_grad_2darrayshadow", F_GRAD, S_ARRAY_SHADOW, dza16_mip, z_ll),
	K("tex_grad_isampler2d", F_GRAD, S_2D, d2_rgba16i_mip, s_nn),

	/* textureGradOffset */
	K("tex_grad_offset_2d", F_GRAD_OFFSET, S_2D, d2_rgba8_mip, s_ln, O2(-5, 4)),
	K("tex_grad_offset_3d", F_GRAD_OFFSET, S_3D, d3_r32i_mip, s_nn, O3(2, -2, 1)),
	K("tex_grad_offset_2dshadow", F_GRAD_OFFSET, S_2D_SHADOW, dz16_mip, z_nn, O2(1, 6)),
	K("tex_grad_offset_2darray", F_GRAD_OFFSET, S_ARRAY, da_rgba16f_mip, s_ll, O2(-7, 0)),
	K("tex_grad_offset_2darrayshadow", F_GRAD_OFFSET, S_ARRAY_SHADOW, dza16_mip, z_ll,
	  O2(3, 3)),

	/* textureProjGrad: the gradients are of the projected coordinates */
	K("tex_proj_grad_2d_vec3", F_PROJ_GRAD, S_2D, d2_rgba8_mip, s_nn),
	K("tex_proj_grad_2d_vec4", F_PROJ_GRAD, S_2D, d2_rgba16f_mip, s_ll, .proj4 = true),
	K("tex_proj_grad_3d", F_PROJ_GRAD, S_3D, d3_rgba16f_mip, s_ll),
	K("tex_proj_grad_2dshadow", F_PROJ_GRAD, S_2D_SHADOW, dz16_mip, z_nn),

	/* textureProjGradOffset */
	K("tex_proj_grad_offset_2d_vec3", F_PROJ_GRAD_OFFSET, S_2D, d2_r16f_mip, s_nl, O2(2, 2)),
	K("tex_proj_grad_offset_2d_vec4", F_PROJ_GRAD_OFFSET, S_2D, d2_rgba8ui_mip, s_nn,
	  O2(-1, -1), .proj4 = true),
	K("tex_proj_grad_offset_3d", F_PROJ_GRAD_OFFSET, S_3D, d3_rgba16f_mip, s_ll, O3(0, 1, -2)),
	K("tex_proj_grad_offset_2dshadow", F_PROJ_GRAD_OFFSET, S_2D_SHADOW, dz16_mip, z_nn,
	  O2(4, -1)),

	/* two samplers, arrays of samplers indexed by constants, other grids */
	{ .name = "tex_two_samplers_2d_and_3d",
	  .tex = { { S_2D, &d2_rgba8_npot, &s_lr, 0 }, { S_3D, &d3_rgba16f_mip, &s_ll, 0 } },
	  .call = { { .fn = F_TEXTURE, .tex = 0 }, { .fn = F_LOD, .tex = 1 } } },
	{ .name = "tex_two_samplers_fetch_and_size",
	  .tex = { { S_2D, &d2_rgba16i_mip, &s_nn, 0 }, { S_ARRAY, &da_rgba16i, &s_nr, 0 } },
	  .call = { { .fn = F_FETCH, .tex = 0 }, { .fn = F_SIZE, .tex = 1 } } },
	{ .name = "tex_two_shadow_samplers",
	  .tex = { { S_2D_SHADOW, &dz32, &z_le, 0 }, { S_CUBE_SHADOW, &dzc16, &z_gt, 0 } },
	  .call = { { .fn = F_TEXTURE, .tex = 0 }, { .fn = F_TEXTURE, .tex = 1 } } },
	{ .name = "tex_two_calls_one_sampler",
	  .tex = { { S_2D, &d2_rgba8_mip, &s_ll, 0 } },
	  .call = { { .fn = F_LOD, .tex = 0 }, { .fn = F_GRAD_OFFSET, .tex = 0, O2(1, 1) } } },
	{ .name = "tex_sampler_array_elements",
	  .tex = { { S_2D, &d2_rgba8_npot, &s_lc, 3 } },
	  .call = { { .fn = F_TEXTURE, .element = 0 }, { .fn = F_TEXTURE, .element = 2 } } },
	{ .name = "tex_sampler_array_size_and_fetch",
	  .tex = { { S_2D, &d2_rgba16i_mip, &s_nn, 2 } },
	  .call = { { .fn = F_SIZE, .element = 1 }, { .fn = F_FETCH, .element = 1 } } },
	{ .name = "tex_sampler_array_cube",
	  .tex = { { S_CUBE, &dc_rgba8, &s_lr, 2 } },
	  .call = { { .fn = F_TEXTURE, .element = 1 }, { .fn = F_LOD, .element = 0 } } },
	{ .name = "tex_sampler_array_and_sampler",
	  .tex = { { S_ARRAY, &da_rgba8, &s_nr, 2 }, { S_3D, &d3_rgba8, &s_nm, 0 } },
	  .call = { { .fn = F_TEXTURE, .tex = 0, .element = 1 },
		    { .fn = F_OFFSET, .tex = 1, O3(1, 2, 3) } } },
	{ .name = "tex_texture_2d_grid_32x3",
	  .tex = { { S_2D, &d2_rgba8_lin, &s_lm, 0 } },
	  .call = { { .fn = F_TEXTURE } },
	  .local = 32,
	  .groups = 3 },
	{ .name = "tex_lod_2d_grid_128x2",
	  .tex = { { S_2D, &d2_rgba16f_mip, &s_ln, 0 } },
	  .call = { { .fn = F_LOD } },
	  .local = 128,
	  .groups = 2 },
};

/* ---- the source ------------------------------------------------------------------------ */

/* 'f', 'i' or 'u': what a call gives (shadow and float lookups float, sizes int). */
static char call_class(const struct tkernel *k, const struct kcall *call)
{
	const struct ktex *t = &k->tex[call->tex];

	if (call->fn == F_SIZE)
		return 'i';
	if (stypes[t->type].shadow || !tex_format_integer(t->desc->format))
		return 'f';
	return tex_format_unsigned(t->desc->format) ? 'u' : 'i';
}

/* textureSize's result: ivec3 for 3D and array samplers, ivec2 for the others. */
static bool size_is_ivec3(enum stype st)
{
	return st == S_3D || st == S_ARRAY || st == S_ARRAY_SHADOW;
}

static const char *swz(unsigned n)
{
	static const char *s[] = { "", ".x", ".xy", ".xyz", "" };

	return s[n];
}

static void print_call(struct exec_text *t, const struct tkernel *k, const struct kcall *call,
		       unsigned c)
{
	const struct ktex *kt = &k->tex[call->tex];
	enum stype st = kt->type;
	char sampler[16], a[8], off[40] = "";
	bool is3d = st == S_3D;

	snprintf(a, sizeof(a), "a%u", c);
	if (kt->array)
		snprintf(sampler, sizeof(sampler), "t%u[%u]", call->tex, call->element);
	else
		snprintf(sampler, sizeof(sampler), "t%u", call->tex);
	if (fns[call->fn].offset)
		snprintf(off, sizeof(off), is3d ? ", ivec3(%d, %d, %d)" : ", ivec2(%d, %d)",
			 call->off[0], call->off[1], call->off[2]);

	if (call->fn == F_SIZE) {
		exec_text_printf(t, "ivec4(textureSize(%s, %s.i.w), 0%s)", sampler, a,
				 size_is_ivec3(st) ? "" : ", 0");
		return;
	}
	if (call->fn == F_FETCH || call->fn == F_FETCH_OFFSET) {
		exec_text_printf(t, "%s(%s, %s.i%s, %s.i.w%s)", fns[call->fn].name, sampler, a,
				 swz(stypes[st].fetch), a, off);
		return;
	}
	bool shadow = stypes[st].shadow;
	if (shadow)
		exec_text_printf(t, "vec4(");
	exec_text_printf(t, "%s(%s, ", fns[call->fn].name, sampler);
	if (fns[call->fn].proj)
		exec_text_printf(t, "%s.p%s", a, st == S_2D && !call->proj4 ? ".xyz" : "");
	else
		exec_text_printf(t, "%s.p%s", a, swz(stypes[st].coords));
	if (fns[call->fn].lod)
		exec_text_printf(t, ", %s.dy.w", a);
	if (fns[call->fn].grad)
		exec_text_printf(t, ", %s.dx%s, %s.dy%s", a, swz(stypes[st].grads), a,
				 swz(stypes[st].grads));
	exec_text_printf(t, "%s)", off);
	if (shadow)
		exec_text_printf(t, ", 0.0, 0.0, 0.0)");
}

static char *make_source(const struct tkernel *k, unsigned local, unsigned calls, char cls)
{
	struct exec_text t = { 0 };
	const char *vec = cls == 'f' ? "vec4" : cls == 'i' ? "ivec4" : "uvec4";

	exec_text_printf(&t,
			 "#version 310 es\n"
			 "layout(local_size_x = %u) in;\n"
			 "struct Q { vec4 p; vec4 dx; vec4 dy; ivec4 i; };\n"
			 "layout(std430, binding = 0) readonly buffer In { Q q[]; };\n"
			 "layout(std430, binding = 1) buffer Out { %s r[]; };\n",
			 local, vec);
	for (unsigned i = 0; i < 2 && k->tex[i].desc; i++) {
		const struct ktex *kt = &k->tex[i];
		const char *prefix =
		    stypes[kt->type].shadow || !tex_format_integer(kt->desc->format) ? ""
		    : tex_format_unsigned(kt->desc->format)			     ? "u"
										     : "i";

		exec_text_printf(&t, "uniform highp %s%s t%u", prefix, stypes[kt->type].glsl, i);
		if (kt->array)
			exec_text_printf(&t, "[%u]", kt->array);
		exec_text_printf(&t, ";\n");
	}
	exec_text_printf(&t,
			 "void main()\n{\n\tuint gid = gl_GlobalInvocationID.x;\n"
			 "\t%s v = %s(0);\n",
			 vec, vec);
	for (unsigned c = 0; c < calls; c++) {
		exec_text_printf(&t, "\tQ a%u = q[gid * %uu + %uu];\n\tv += ", c, calls, c);
		print_call(&t, k, &k->call[c], c);
		exec_text_printf(&t, ";\n");
	}
	exec_text_printf(&t, "\tr[gid] = v;\n}\n");
	return exec_text_take(&t);
}

/* ---- inputs and the reference ---------------------------------------------------------------- */

static double coord_in(struct exec_rng *r, enum tex_wrap w)
{
	/* clamping: a little outside the texture; repeats: several periods */
	return w == TEX_CLAMP_TO_EDGE ? exec_rng_range(r, -0.25, 1.25)
				      : exec_rng_range(r, -1.5, 2.5);
}

static float fl(double v)
{
	return (float)v;
}

static void put_f(uint32_t *q, unsigned w, double v)
{
	q[w] = exec_fbits(fl(v));
}

static double get_f(const uint32_t *q, unsigned w)
{
	return exec_bitsf(q[w]);
}

/* The call's LOD or lambda range: the kernel's, or one over the texture's levels. */
static void lod_range(const struct kcall *call, const struct tex_desc *d, double *lo, double *hi)
{
	if (call->lo != call->hi) {
		*lo = call->lo, *hi = call->hi;
	} else if (d->levels > 1) {
		*lo = -0.75, *hi = d->levels - 0.25;
	} else {
		*lo = -1.5, *hi = 2;
	}
}

/*
 * Operands for one call (Q's 16 words) and the model's query of them,
 * as GLSL defines each built-in: P's components, the projection divided
 * out, the layer and the reference where the sampler type puts them.
 */
static void make_operands(const struct tkernel *k, const struct kcall *call,
			  const struct exec_texture *et, struct exec_rng *r, uint32_t q[Q_WORDS],
			  struct tex_query *tq)
{
	const struct ktex *kt = &k->tex[call->tex];
	const struct tex_desc *d = kt->desc;
	const struct tex_sampler *s = kt->s;
	enum stype st = kt->type;
	const enum tex_wrap wraps[3] = { s->wrap_s, s->wrap_t, s->wrap_r };
	bool cube = st == S_CUBE || st == S_CUBE_SHADOW, is3d = st == S_3D;
	bool array = st == S_ARRAY || st == S_ARRAY_SHADOW;
	unsigned ncoord = is3d || cube ? 3 : 2, size0[3];
	double coord[3] = { 0 }, layer = 0, ref = 0, lo, hi, ma = 1;
	int major = 0;

	memset(q, 0, Q_WORDS * 4);
	memset(tq, 0, sizeof(*tq));
	tex_level_size(&et->texture, 0, size0);
	memcpy(tq->offset, call->off, sizeof(tq->offset));
	lod_range(call, d, &lo, &hi);

	if (call->fn == F_SIZE || call->fn == F_FETCH || call->fn == F_FETCH_OFFSET) {
		int level = (int)(exec_rng_next(r) % d->levels);
		unsigned size[3];

		/* a level the offsets fit in (texelFetchOffset outside the level is undefined) */
		for (;; level--) {
			tex_level_size(&et->texture, (unsigned)level, size);
			if (call->fn != F_FETCH_OFFSET || level == 0 ||
			    (size[0] > (unsigned)abs(call->off[0]) &&
			     size[1] > (unsigned)abs(call->off[1]) &&
			     (!is3d || size[2] > (unsigned)abs(call->off[2]))))
				break;
		}
		tq->kind = call->fn == F_SIZE ? TEX_SIZE : TEX_FETCH;
		tq->level = level;
		q[15] = (uint32_t)level;
		for (unsigned k2 = 0; k2 < 3; k2++) {
			/* inside the level after the offset (arrays: the layer has none) */
			int o = call->fn == F_FETCH_OFFSET && (k2 < 2 || is3d) ? call->off[k2] : 0;
			int first = o < 0 ? -o : 0, last = (int)size[k2] - 1 - (o > 0 ? o : 0);
			int v = last >= first
				    ? first + (int)(exec_rng_next(r) % (uint64_t)(last - first + 1))
				    : 0;

			tq->icoord[k2] = v;
			q[12 + k2] = (uint32_t)v;
		}
		return;
	}

	tq->kind = TEX_SAMPLE;
	if (cube) {
		/* a major axis of magnitude 0.5 .. 2; the others inside its square */
		major = (int)(exec_rng_next(r) % 3);
		ma = exec_rng_range(r, 0.5, 2);
		for (int k2 = 0; k2 < 3; k2++)
			coord[k2] = k2 == major ? (exec_rng_next(r) & 1 ? -ma : ma)
						: exec_rng_range(r, -0.95, 0.95) * ma;
	} else {
		for (unsigned k2 = 0; k2 < ncoord; k2++)
			coord[k2] = coord_in(r, wraps[k2]);
	}
	if (array)
		layer = exec_rng_next(r) % 8 ? exec_rng_range(r, -0.8, d->depth - 0.2)
					     : exec_rng_range(r, -2, d->depth + 1);
	if (stypes[st].shadow)
		ref = exec_rng_range(r, -0.05, 1.05);

	/* P: the coordinates, then the layer, then the reference, as the type has them */
	double p[4] = { coord[0], coord[1], coord[2], 0 };
	unsigned np = ncoord;
	if (array)
		p[np++] = layer;
	if (stypes[st].shadow)
		p[np++] = ref;
	if (fns[call->fn].proj) {
		/* textureProj: P's last component divides the others; a vec4 P of a 2D
		 * sampler has a z that is not read */
		double w = exec_rng_range(r, 0.5, 2) * (exec_rng_next(r) & 1 ? -1 : 1);
		unsigned last = st == S_2D ? (call->proj4 ? 3 : 2) : 3;

		if (st == S_2D && call->proj4)
			p[2] = exec_rng_range(r, -100, 100);
		for (unsigned k2 = 0; k2 < last; k2++)
			if (!(st == S_2D && call->proj4 && k2 == 2))
				p[k2] *= w;
		p[last] = w;
		for (unsigned k2 = 0; k2 < 4; k2++)
			put_f(q, k2, p[k2]);
		double wq = get_f(q, last);
		for (unsigned k2 = 0; k2 < 2; k2++)
			coord[k2] = get_f(q, k2) / wq;
		if (is3d)
			coord[2] = get_f(q, 2) / wq;
		if (st == S_2D_SHADOW)
			ref = get_f(q, 2) / wq;
	} else {
		for (unsigned k2 = 0; k2 < 4; k2++)
			put_f(q, k2, p[k2]);
		for (unsigned k2 = 0; k2 < ncoord; k2++)
			coord[k2] = get_f(q, k2);
		if (array)
			layer = get_f(q, ncoord);
		if (stypes[st].shadow)
			ref = get_f(q, np - 1);
	}
	memcpy(tq->coord, coord, sizeof(coord));
	tq->layer = layer;
	tq->compare = stypes[st].shadow;
	tq->reference = ref;

	/* the LOD (dy.w), or the gradients (dx, dy) */
	double lambda = exec_rng_range(r, lo, hi);
	if (fns[call->fn].lod) {
		put_f(q, 11, lambda);
		tq->lod = get_f(q, 11);
	} else if (fns[call->fn].grad) {
		/* one axis leads in one of the two; the rest small, so that the bounds on f
		 * stay within a fraction of a level of the ideal rho.  A cube's lead is an
		 * axis of its face; its major axis' derivative is 0 unless asked for. */
		unsigned ng = stypes[st].grads;
		unsigned lead = cube ? (unsigned)(major + 1 + (int)(exec_rng_next(r) % 2)) % 3
				     : (unsigned)(exec_rng_next(r) % ng);
		unsigned in_dy = (unsigned)(exec_rng_next(r) & 1);
		double g[2][3] = { { 0 } };

		for (unsigned k2 = 0; k2 < ng; k2++) {
			/* s, t, r per texel of level 0; a cube's face spans 2 |ma| */
			double unit = cube ? 2 * ma / size0[0] : 1.0 / size0[k2];

			for (unsigned j = 0; j < 2; j++) {
				double m = j == in_dy && k2 == lead
					       ? exp2(lambda)
					       : exp2(lambda) * exec_rng_range(r, 0, 1.0 / 16);

				if (cube && k2 == (unsigned)major)
					m = call->major_grad
						? exp2(lambda) * exec_rng_range(r, 0, 0.5)
						: 0;
				g[j][k2] = m * unit * (exec_rng_next(r) & 1 ? -1 : 1);
			}
		}
		for (unsigned k2 = 0; k2 < 3; k2++) {
			put_f(q, 4 + k2, g[0][k2]);
			put_f(q, 8 + k2, g[1][k2]);
			tq->dpdx[k2] = k2 < ng ? get_f(q, 4 + k2) : 0;
			tq->dpdy[k2] = k2 < ng ? get_f(q, 8 + k2) : 0;
		}
		tq->grad = true;
	} else {
		tq->lod = 0; /* GLSL ES 3.10 section 8.9: the base level outside fragment shaders */
	}
}

/* 0, -ENOMEM, or -EINVAL when a call finds no unambiguous inputs (a kernel's mistake). */
static int make_texture(const struct exec_kernel *kernel, struct exec_case *c)
{
	const struct tkernel *k = kernel->param;
	unsigned local = k->local ? k->local : 64, groups = k->groups ? k->groups : 2;
	unsigned calls = k->call[1].fn ? 2 : 1, count = local * groups;
	char cls = call_class(k, &k->call[0]);
	struct exec_rng r;

	exec_case_grid(c, local, groups);
	uint32_t *in =
	    (uint32_t *)exec_case_buffer(c, 0, false, (size_t)count * calls * Q_WORDS * 4);
	uint32_t *out = (uint32_t *)exec_case_buffer(c, 1, false, (size_t)count * 16);
	if (!in || !out || !exec_case_expect(c, 1))
		return -ENOMEM;
	exec_case_out(c, "r", 0, 4, 4, cls);
	exec_case_view(c, "p", 0, 0, calls * Q_WORDS, 4, 'f');
	exec_case_view(c, "dx", 0, 4, calls * Q_WORDS, 4, 'f');
	exec_case_view(c, "dy", 0, 8, calls * Q_WORDS, 4, 'f');
	exec_case_view(c, "i", 0, 12, calls * Q_WORDS, 4, 'i');

	for (unsigned t = 0; t < 2 && k->tex[t].desc; t++) {
		char name[8];

		snprintf(name, sizeof(name), "t%u", t);
		for (unsigned e = 0; e < (k->tex[t].array ? k->tex[t].array : 1); e++)
			if (!exec_case_texture(c, name, e, k->tex[t].desc, k->tex[t].s))
				return -ENOMEM;
	}
	for (unsigned ci = 0; ci < calls; ci++)
		if (call_class(k, &k->call[ci]) != cls)
			return -EINVAL;

	exec_rng_seed(&r, kernel->name, 0);
	for (unsigned i = 0; i < count; i++) {
		double lo[4] = { 0 }, hi[4] = { 0 }, tol[4] = { 0 };
		uint32_t sum[4] = { 0 };
		bool shadow = false;

		for (unsigned ci = 0; ci < calls; ci++) {
			const struct kcall *call = &k->call[ci];
			char name[8];
			const struct exec_texture *et;
			uint32_t *q = &in[((size_t)i * calls + ci) * Q_WORDS];
			struct tex_query tq;
			struct tex_answer a;
			unsigned tries = 0;
			char why[200];

			snprintf(name, sizeof(name), "t%u", call->tex);
			et = exec_case_find_texture(c, name, call->element);
			if (!et)
				return -EINVAL;
			shadow |= stypes[k->tex[call->tex].type].shadow;
			for (;;) {
				enum tex_status st;

				make_operands(k, call, et, &r, q, &tq);
				st = tex_model_query(&et->texture, &et->sampler, &tq, &a, why,
						     sizeof(why));
				/* filtered comparisons: mostly ones whose taps agree */
				if (st == TEX_OK && !(a.mixed && exec_rng_next(&r) % 3))
					break;
				if (st == TEX_UNDEFINED || ++tries == 2000) {
					fprintf(stderr, "%s: no inputs for call %u: %s\n",
						kernel->name, ci, why);
					return -EINVAL;
				}
			}
			/* textureSize of a 2D or cube sampler is an ivec2 */
			if (call->fn == F_SIZE && !size_is_ivec3(k->tex[call->tex].type))
				a.ivalue[2] = 0;
			for (int cc = 0; cc < 4; cc++) {
				lo[cc] += a.lo[cc];
				hi[cc] += a.hi[cc];
				tol[cc] += a.tol[cc];
				sum[cc] += a.ivalue[cc];
			}
		}
		struct exec_expect *x = &c->expect[4 * i];
		for (int cc = 0; cc < 4; cc++) {
			if (cls != 'f')
				exec_expect_bits(&x[cc], sum[cc]);
			else if (shadow && cc > 0)
				exec_expect_bits(&x[cc], 0); /* vec4(lookup, 0, 0, 0) */
			else
				x[cc] =
				    (struct exec_expect){ .kind = EXEC_FLOAT,
							  .value = (lo[cc] + hi[cc]) / 2,
							  .tol = (hi[cc] - lo[cc]) / 2 + tol[cc],
							  .flush = 0x1p-126 };
		}
	}
	c->source = make_source(k, local, calls, cls);
	return c->source ? 0 : -ENOMEM;
}

void exec_texture_register(struct exec_list *l)
{
	for (unsigned i = 0; i < sizeof(kernels) / sizeof(kernels[0]); i++)
		exec_add(l, make_texture, &kernels[i], 0, "%s", kernels[i].name);
}
