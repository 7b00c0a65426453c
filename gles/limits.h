/*
 * limits.h: every implementation-dependent value of OpenGL ES 3.0 (GLES
 * 3.0.6 tables 6.28-6.35), each from what the hardware and the compiler
 * can do.  Every module reads its limits here; get.c answers the queries
 * (limits.c).  Each value is at least the spec's minimum, and the shader
 * limits are the ones the compiler checks shaders against
 * (libagx/glsl/lower.h, docs/compiler.md "The built-in constants").
 */
#ifndef GLES_LIMITS_H
#define GLES_LIMITS_H

#include <stdbool.h>

#include <GLES3/gl3.h>

struct gles_context;
struct gles_get_value;

/* ---- textures and framebuffers (table 6.28) ---- */

/*
 * The texture and PBE descriptors hold width - 1 and height - 1 in 14
 * bits (libagx/hw/cmdbuf.hw, word texture/pbe): 16384.  A 16384x16384
 * level has 15 levels, within the descriptor's 4-bit first/last level and
 * agx/layout.h's AGX_LAYOUT_MAX_LEVELS (16).
 */
#define GLES_MAX_TEXTURE_SIZE	       16384
#define GLES_MAX_CUBE_MAP_TEXTURE_SIZE 16384
#define GLES_MAX_RENDERBUFFER_SIZE     16384
/*
 * A 3D texture's depth - 1 has 14 bits too, but one 16384^3 texture would
 * be 4 TiB of 1-byte texels, past the descriptor's 40-bit address (36 bits
 * of address >> 4); 2048^3 at 16 bytes a texel is 128 GiB, inside it.
 */
#define GLES_MAX_3D_TEXTURE_SIZE 2048
/* The PBE's layers - 1 are 14 bits; the same address bound as 3D keeps it at 2048. */
#define GLES_MAX_ARRAY_TEXTURE_LAYERS 2048
/* The sampler descriptor's LODs are unsigned 4.6 fixed point: a bias past 15 cannot matter. */
#define GLES_MAX_TEXTURE_LOD_BIAS 15.0f
/* The compiler's gl_MaxDrawBuffers (8), and as many colour attachments */
#define GLES_MAX_DRAW_BUFFERS 8
/* EXT_blend_func_extended: the second source is target 0's (agx_lower_blend.c) */
#define GLES_MAX_DUAL_SOURCE_DRAW_BUFFERS 1
#define GLES_MAX_COLOR_ATTACHMENTS	  8
/* APPLE_clip_distance: the PPP's planes (ppp_output_select), the front end's gl_MaxClipDistances */
#define GLES_MAX_CLIP_DISTANCES 8
/* The viewport's extent is the render target's: 14-bit width/height of the PBE. */
#define GLES_MAX_VIEWPORT_WIDTH	 16384
#define GLES_MAX_VIEWPORT_HEIGHT 16384
/* sim/render.c rasterizes in 1/256 pixel */
#define GLES_SUBPIXEL_BITS 8
/* Point sizes: the rasterizer clamps to 1..511 pixels (sim/render.c). */
#define GLES_MIN_ALIASED_POINT_SIZE 1.0f
#define GLES_MAX_ALIASED_POINT_SIZE 511.0f
/*
 * Line widths: the PPP holds width - 1/16 in 4.4 fixed point, 8 bits
 * (word ppp_fragment_face): 1/16 to 16.  GL's range starts at 1 (section
 * 3.5: widths below 1 are not required, and the range must hold 1).
 */
#define GLES_MIN_ALIASED_LINE_WIDTH 1.0f
#define GLES_MAX_ALIASED_LINE_WIDTH 16.0f
/* The descriptors' sample counts are 2 or 4 (word texture/pbe, samples: 1 bit). */
#define GLES_MAX_SAMPLES 4

/* ---- drawing (tables 6.28, 6.29) ---- */

/* Index buffers hold up to 32-bit indices, all of them usable. */
#define GLES_MAX_ELEMENT_INDEX 0xffffffffll
/* Recommended batch sizes: the VDM takes any count; these are what one draw is good at. */
#define GLES_MAX_ELEMENTS_INDICES  (1 << 20)
#define GLES_MAX_ELEMENTS_VERTICES (1 << 20)
/* agx_device_wait() takes any int64 nanoseconds */
#define GLES_MAX_SERVER_WAIT_TIMEOUT 0x7fffffffffffffffll

/* ---- vertex shaders (table 6.31) ---- */

/* The compiler's gl_MaxVertexAttribs; three uniform registers each in its ABI. */
#define GLES_MAX_VERTEX_ATTRIBS 16
/*
 * gl_MaxVertexUniformVectors.  The default block is copied into uniform
 * registers when it fits in u0..u191, and is read from memory through one
 * register pair when it does not (docs/compiler.md, "The uniform-register
 * ABI"): the block size is no hardware bound.
 */
#define GLES_MAX_VERTEX_UNIFORM_VECTORS	   256
#define GLES_MAX_VERTEX_UNIFORM_COMPONENTS (4 * GLES_MAX_VERTEX_UNIFORM_VECTORS)
/* A uniform block is a register pair (its address): 12 per stage take 24 of u0..u191. */
#define GLES_MAX_VERTEX_UNIFORM_BLOCKS 12
/* gl_MaxVertexOutputVectors */
#define GLES_MAX_VERTEX_OUTPUT_COMPONENTS 64
/*
 * The compiler's TR_MAX_UNITS (16) texture state registers per shader,
 * gl_MaxVertexTextureImageUnits.
 */
#define GLES_MAX_VERTEX_TEXTURE_IMAGE_UNITS 16

/* ---- fragment shaders (table 6.32) ---- */

#define GLES_MAX_FRAGMENT_UNIFORM_VECTORS    224
#define GLES_MAX_FRAGMENT_UNIFORM_COMPONENTS (4 * GLES_MAX_FRAGMENT_UNIFORM_VECTORS)
#define GLES_MAX_FRAGMENT_UNIFORM_BLOCKS     12
/* gl_MaxFragmentInputVectors: coefficient registers after cf0 (1/w) and cf1 (z) */
#define GLES_MAX_FRAGMENT_INPUT_COMPONENTS 60
/* TR_MAX_UNITS, gl_MaxTextureImageUnits */
#define GLES_MAX_TEXTURE_IMAGE_UNITS 16
/* gl_MinProgramTexelOffset, gl_MaxProgramTexelOffset: the texture instruction's 4-bit offsets */
#define GLES_MIN_PROGRAM_TEXEL_OFFSET (-8)
#define GLES_MAX_PROGRAM_TEXEL_OFFSET 7

/* ---- all stages (table 6.33) ---- */

#define GLES_MAX_COMBINED_UNIFORM_BLOCKS                                                           \
	(GLES_MAX_VERTEX_UNIFORM_BLOCKS + GLES_MAX_FRAGMENT_UNIFORM_BLOCKS)
#define GLES_MAX_UNIFORM_BUFFER_BINDINGS GLES_MAX_COMBINED_UNIFORM_BLOCKS
/*
 * A block is read by device loads at its address plus a 32-bit offset:
 * any size would do; 64 KiB is 4096 vec4s, four times the spec's minimum.
 */
#define GLES_MAX_UNIFORM_BLOCK_SIZE 65536
/* The compiler loads a block's vec4s whole, from 16-byte aligned addresses. */
#define GLES_UNIFORM_BUFFER_OFFSET_ALIGNMENT 16
/* Section 6.2, table 6.33: the blocks' words plus the default block's */
#define GLES_MAX_COMBINED_VERTEX_UNIFORM_COMPONENTS                                                \
	((long long)GLES_MAX_VERTEX_UNIFORM_BLOCKS * GLES_MAX_UNIFORM_BLOCK_SIZE / 4 +             \
	 GLES_MAX_VERTEX_UNIFORM_COMPONENTS)
#define GLES_MAX_COMBINED_FRAGMENT_UNIFORM_COMPONENTS                                              \
	((long long)GLES_MAX_FRAGMENT_UNIFORM_BLOCKS * GLES_MAX_UNIFORM_BLOCK_SIZE / 4 +           \
	 GLES_MAX_FRAGMENT_UNIFORM_COMPONENTS)
/* gl_MaxVaryingVectors (1.00) and gl_MaxFragmentInputVectors: 15 vec4s */
#define GLES_MAX_VARYING_VECTORS    15
#define GLES_MAX_VARYING_COMPONENTS (4 * GLES_MAX_VARYING_VECTORS)
/* gl_MaxCombinedTextureImageUnits: both stages' units */
#define GLES_MAX_COMBINED_TEXTURE_IMAGE_UNITS                                                      \
	(GLES_MAX_VERTEX_TEXTURE_IMAGE_UNITS + GLES_MAX_TEXTURE_IMAGE_UNITS)

/* ---- transform feedback (table 6.34) ---- */

/*
 * Captured varyings are vertex output words written to buffers; the
 * spec's minimums: 64 interleaved components, 4 separate attributes of 4.
 */
#define GLES_MAX_TRANSFORM_FEEDBACK_INTERLEAVED_COMPONENTS 64
#define GLES_MAX_TRANSFORM_FEEDBACK_SEPARATE_ATTRIBS	   4
#define GLES_MAX_TRANSFORM_FEEDBACK_SEPARATE_COMPONENTS	   4

/*
 * glGetShaderPrecisionFormat's answer for precisiontype (GL_LOW_FLOAT ...
 * GL_HIGH_INT): range[0], range[1] (log2 of the magnitudes) and the
 * precision in bits.  False for any other name.  The shader type does not
 * matter: both stages compute every precision in 32-bit IEEE floats and
 * 32-bit integers.
 */
bool gles_limits_shader_precision(GLenum precisiontype, GLint range[2], GLint *precision);

/* The get.c query of the values above (a provider, get.h). */
bool gles_limits_get(struct gles_context *ctx, GLenum pname, int index, struct gles_get_value *out);

#endif
