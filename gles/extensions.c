/*
 * extensions.c: the GL extensions this driver implements (extensions.h).
 * A name goes in the list once all of its extension works: everything it
 * adds to the API, with the errors it defines, and to the shading language.
 */
#include <stddef.h>

#include "extensions.h"

/*
 * In the order glGetStringi gives them.  Most are ES 2.0 extensions whose
 * features ES 3.0 has in core (their tokens are core's, their GLSL ES
 * 1.00 parts glslang's); OES_vertex_array_object's functions are the core
 * ones under its names (gl_table.c), and so are OES_mapbuffer's
 * glUnmapBufferOES and glGetBufferPointervOES.  OES_EGL_sync has no
 * entry points: it says EGL fence syncs (egl_sync.c) work in our contexts.
 */
#define EXTENSIONS(X)                                                                              \
	X("GL_APPLE_clip_distance")                                                                \
	X("GL_EXT_base_instance")                                                                  \
	X("GL_EXT_blend_func_extended")                                                            \
	X("GL_EXT_clip_cull_distance")                                                             \
	X("GL_EXT_color_buffer_float")                                                             \
	X("GL_EXT_discard_framebuffer")                                                            \
	X("GL_EXT_draw_buffers")                                                                   \
	X("GL_EXT_float_blend")                                                                    \
	X("GL_EXT_frag_depth")                                                                     \
	X("GL_EXT_polygon_offset_clamp")                                                           \
	X("GL_EXT_read_format_bgra")                                                               \
	X("GL_EXT_robustness")                                                                     \
	X("GL_EXT_shader_framebuffer_fetch")                                                       \
	X("GL_EXT_shader_framebuffer_fetch_non_coherent")                                          \
	X("GL_EXT_texture_compression_rgtc")                                                       \
	X("GL_EXT_texture_compression_s3tc")                                                       \
	X("GL_EXT_texture_compression_s3tc_srgb")                                                  \
	X("GL_EXT_texture_format_BGRA8888")                                                        \
	X("GL_EXT_texture_sRGB_decode")                                                            \
	X("GL_EXT_unpack_subimage")                                                                \
	X("GL_INTEL_blackhole_render")                                                             \
	X("GL_KHR_debug")                                                                          \
	X("GL_KHR_parallel_shader_compile")                                                        \
	X("GL_KHR_robustness")                                                                     \
	X("GL_KHR_texture_compression_astc_ldr")                                                   \
	X("GL_KHR_texture_compression_astc_sliced_3d")                                             \
	X("GL_NV_read_depth")                                                                      \
	X("GL_OES_EGL_image")                                                                      \
	X("GL_OES_EGL_sync")                                                                       \
	X("GL_OES_depth24")                                                                        \
	X("GL_OES_depth_texture")                                                                  \
	X("GL_OES_element_index_uint")                                                             \
	X("GL_OES_fbo_render_mipmap")                                                              \
	X("GL_OES_mapbuffer")                                                                      \
	X("GL_OES_packed_depth_stencil")                                                           \
	X("GL_OES_rgb8_rgba8")                                                                     \
	X("GL_OES_standard_derivatives")                                                           \
	X("GL_OES_texture_npot")                                                                   \
	X("GL_OES_vertex_array_object")                                                            \
	X("GL_OES_vertex_half_float")

#define NAME(n)	  n,
#define SPACED(n) " " n
static const char *const extensions[] = { EXTENSIONS(NAME) NULL };
static const unsigned num_extensions = sizeof(extensions) / sizeof(extensions[0]) - 1;
/* The same names, separated by spaces (past the first one's). */
static const char extension_string[] = EXTENSIONS(SPACED);

const char *gles_extensions_string(void)
{
	return extension_string + 1;
}

unsigned gles_num_extensions(void)
{
	return num_extensions;
}

const char *gles_extension(unsigned i)
{
	return i < num_extensions ? extensions[i] : NULL;
}
