/*
 * extensions.h: the one list of the GL extensions this driver implements
 * -- GL_EXTENSIONS, glGetStringi(GL_EXTENSIONS, i), GL_NUM_EXTENSIONS.
 */
#ifndef GLES_EXTENSIONS_H
#define GLES_EXTENSIONS_H

/*
 * The tokens the extensions add that GLES3/gl3.h does not have (the
 * extensions' own values; GLES2/gl2ext.h needs GLES2/gl2.h, not gl3.h).
 */
#ifndef GL_POLYGON_OFFSET_CLAMP_EXT
#define GL_POLYGON_OFFSET_CLAMP_EXT 0x8E1B /* EXT_polygon_offset_clamp */
#endif
#ifndef GL_MAX_SHADER_COMPILER_THREADS_KHR /* KHR_parallel_shader_compile */
#define GL_MAX_SHADER_COMPILER_THREADS_KHR 0x91B0
#define GL_COMPLETION_STATUS_KHR	   0x91B1
#endif
#ifndef GL_BLACKHOLE_RENDER_INTEL
#define GL_BLACKHOLE_RENDER_INTEL 0x83FC /* INTEL_blackhole_render */
#endif
#ifndef GL_SRC1_COLOR_EXT /* EXT_blend_func_extended */
#define GL_SRC1_ALPHA_EXT		    0x8589
#define GL_SRC1_COLOR_EXT		    0x88F9
#define GL_ONE_MINUS_SRC1_COLOR_EXT	    0x88FA
#define GL_ONE_MINUS_SRC1_ALPHA_EXT	    0x88FB
#define GL_MAX_DUAL_SOURCE_DRAW_BUFFERS_EXT 0x88FC
#endif
#ifndef GL_MAX_CLIP_DISTANCES_APPLE /* APPLE_clip_distance */
#define GL_MAX_CLIP_DISTANCES_APPLE 0x0D32
#define GL_CLIP_DISTANCE0_APPLE	    0x3000 /* .. 0x3007 */
#endif
#ifndef GL_COMPRESSED_RGB_S3TC_DXT1_EXT /* EXT_texture_compression_s3tc */
#define GL_COMPRESSED_RGB_S3TC_DXT1_EXT	 0x83F0
#define GL_COMPRESSED_RGBA_S3TC_DXT1_EXT 0x83F1
#define GL_COMPRESSED_RGBA_S3TC_DXT3_EXT 0x83F2
#define GL_COMPRESSED_RGBA_S3TC_DXT5_EXT 0x83F3
#endif
#ifndef GL_COMPRESSED_SRGB_S3TC_DXT1_EXT /* EXT_texture_compression_s3tc_srgb */
#define GL_COMPRESSED_SRGB_S3TC_DXT1_EXT       0x8C4C
#define GL_COMPRESSED_SRGB_ALPHA_S3TC_DXT1_EXT 0x8C4D
#define GL_COMPRESSED_SRGB_ALPHA_S3TC_DXT3_EXT 0x8C4E
#define GL_COMPRESSED_SRGB_ALPHA_S3TC_DXT5_EXT 0x8C4F
#endif
#ifndef GL_COMPRESSED_RED_RGTC1_EXT /* EXT_texture_compression_rgtc */
#define GL_COMPRESSED_RED_RGTC1_EXT		 0x8DBB
#define GL_COMPRESSED_SIGNED_RED_RGTC1_EXT	 0x8DBC
#define GL_COMPRESSED_RED_GREEN_RGTC2_EXT	 0x8DBD
#define GL_COMPRESSED_SIGNED_RED_GREEN_RGTC2_EXT 0x8DBE
#endif
#ifndef GL_FRAGMENT_SHADER_DISCARDS_SAMPLES_EXT /* EXT_shader_framebuffer_fetch */
#define GL_FRAGMENT_SHADER_DISCARDS_SAMPLES_EXT 0x8A52
#endif
#ifndef GL_BGRA_EXT /* EXT_texture_format_BGRA8888 */
#define GL_BGRA_EXT 0x80E1
#endif
#ifndef GL_HALF_FLOAT_OES
#define GL_HALF_FLOAT_OES 0x8D61 /* OES_vertex_half_float (not core's HALF_FLOAT) */
#endif

/* The names, separated by spaces ("" when there are none). */
const char *gles_extensions_string(void);
unsigned gles_num_extensions(void);
/* The i-th name, NULL past the end. */
const char *gles_extension(unsigned i);

#endif
