/*
 * test-egl: libEGL_agx as applications see it -- through glvnd's libEGL and
 * libGLESv2, with __EGL_VENDOR_LIBRARY_FILENAMES naming the build tree's
 * vendor file (tests/gles/meson.build) -- over the real stack: the
 * surfaceless and default displays, eglInitialize (and its failure when
 * the stack cannot be reached), the configs and eglChooseConfig's matching
 * and order, pbuffers, contexts (ES 3.0, for 2.0 requests too) with share
 * lists and robustness, eglMakeCurrent across threads, the GL strings and errors of
 * a current context, eglTerminate and eglReleaseThread.
 */
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include <EGL/egl.h>
#include <EGL/eglext.h>
#include <GLES3/gl3.h>

#include "stack.h"

static struct test_stack_options options;

#define assert_egl_error(expected) assert_int_equal(eglGetError(), (expected))

static EGLDisplay surfaceless(void)
{
	EGLDisplay dpy =
	    eglGetPlatformDisplay(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, NULL);

	assert_ptr_not_equal(dpy, EGL_NO_DISPLAY);
	return dpy;
}

static EGLDisplay initialized(void)
{
	EGLDisplay dpy = surfaceless();

	assert_true(eglInitialize(dpy, NULL, NULL));
	return dpy;
}

/* The config with EGL_CONFIG_ID id. */
static EGLConfig config_by_id(EGLDisplay dpy, EGLint id)
{
	const EGLint attribs[] = { EGL_CONFIG_ID, id, EGL_NONE };
	EGLConfig config;
	EGLint n;

	assert_true(eglChooseConfig(dpy, attribs, &config, 1, &n));
	assert_int_equal(n, 1);
	return config;
}

static EGLint config_attrib(EGLDisplay dpy, EGLConfig config, EGLint attribute)
{
	EGLint value = -12345;

	assert_true(eglGetConfigAttrib(dpy, config, attribute, &value));
	return value;
}

static EGLContext context(EGLDisplay dpy, EGLConfig config, EGLContext share, EGLint major)
{
	const EGLint attribs[] = { EGL_CONTEXT_MAJOR_VERSION, major, EGL_CONTEXT_MINOR_VERSION, 0,
				   EGL_NONE };
	EGLContext ctx = eglCreateContext(dpy, config, share, attribs);

	assert_ptr_not_equal(ctx, EGL_NO_CONTEXT);
	return ctx;
}

static EGLSurface pbuffer(EGLDisplay dpy, EGLConfig config, EGLint w, EGLint h)
{
	const EGLint attribs[] = { EGL_WIDTH, w, EGL_HEIGHT, h, EGL_NONE };
	EGLSurface surf = eglCreatePbufferSurface(dpy, config, attribs);

	assert_ptr_not_equal(surf, EGL_NO_SURFACE);
	return surf;
}

/* ---- displays and eglInitialize ---------------------------------------------------------- */

static void test_client_extensions(void **state)
{
	const char *ext = eglQueryString(EGL_NO_DISPLAY, EGL_EXTENSIONS);

	(void)state;
	assert_non_null(ext);
	assert_non_null(strstr(ext, "EGL_MESA_platform_surfaceless"));
	assert_non_null(strstr(ext, "EGL_EXT_platform_base"));
	/* X11 displays are test-egl-x11's, Wayland ones test-egl-wayland's */
	assert_non_null(strstr(ext, "EGL_KHR_platform_x11"));
	assert_non_null(strstr(ext, "EGL_KHR_platform_wayland"));
	assert_non_null(strstr(ext, "EGL_EXT_platform_wayland"));
	/* no platform this vendor lacks */
	assert_null(strstr(ext, "EGL_KHR_platform_gbm"));
	assert_null(strstr(ext, "EGL_EXT_platform_device"));
}

static void test_displays(void **state)
{
	const EGLAttrib bad_attribs[] = { EGL_PLATFORM_X11_SCREEN_KHR, 0, EGL_NONE };
	EGLDisplay dpy = surfaceless(), def = eglGetDisplay(EGL_DEFAULT_DISPLAY);

	(void)state;
	assert_egl_error(EGL_SUCCESS);
	assert_ptr_equal(surfaceless(), dpy);
	assert_ptr_not_equal(def, EGL_NO_DISPLAY);
	assert_ptr_equal(eglGetDisplay(EGL_DEFAULT_DISPLAY), def);
	/* EGL_MESA_platform_surfaceless: only EGL_DEFAULT_DISPLAY, no attributes */
	assert_ptr_equal(eglGetPlatformDisplay(EGL_PLATFORM_SURFACELESS_MESA, &dpy, NULL),
			 EGL_NO_DISPLAY);
	assert_egl_error(EGL_BAD_PARAMETER);
	assert_ptr_equal(
	    eglGetPlatformDisplay(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, bad_attribs),
	    EGL_NO_DISPLAY);
	assert_egl_error(EGL_BAD_ATTRIBUTE);
	/* a platform this vendor does not have */
	assert_ptr_equal(eglGetPlatformDisplay(EGL_PLATFORM_GBM_KHR, EGL_DEFAULT_DISPLAY, NULL),
			 EGL_NO_DISPLAY);
	assert_egl_error(EGL_BAD_PARAMETER);
}

/* The stack out of reach: EGL_NOT_INITIALIZED (EGL 1.5 section 3.2), and a later try works. */
static void test_unreachable(void **state)
{
	struct test_stack *s = *state;
	EGLDisplay dpy = surfaceless();
	EGLint n;

	setenv("AGX_MEMMGR_SOCKET", "/nonexistent/memmgr.sock", 1);
	assert_false(eglInitialize(dpy, NULL, NULL));
	assert_egl_error(EGL_NOT_INITIALIZED);
	assert_false(eglGetConfigs(dpy, NULL, 0, &n));
	assert_egl_error(EGL_NOT_INITIALIZED);
	setenv("AGX_MEMMGR_SOCKET", s->memmgr, 1);
	assert_true(eglInitialize(dpy, NULL, NULL));
	assert_true(eglTerminate(dpy));
}

static void test_initialize(void **state)
{
	EGLDisplay dpy = surfaceless(), def = eglGetDisplay(EGL_DEFAULT_DISPLAY);
	EGLint major = 0, minor = 0;

	(void)state;
	assert_null(eglQueryString(dpy, EGL_VENDOR));
	assert_egl_error(EGL_NOT_INITIALIZED);
	assert_true(eglInitialize(dpy, &major, &minor));
	assert_int_equal(major, 1);
	assert_int_equal(minor, 5);
	/* again: only the version */
	major = minor = 0;
	assert_true(eglInitialize(dpy, &major, &minor));
	assert_int_equal(major, 1);
	assert_int_equal(minor, 5);
	assert_string_equal(eglQueryString(dpy, EGL_VENDOR), "AGX driver stack");
	assert_string_equal(eglQueryString(dpy, EGL_VERSION), "1.5");
	assert_string_equal(eglQueryString(dpy, EGL_CLIENT_APIS), "OpenGL_ES");
	assert_string_equal(
	    eglQueryString(dpy, EGL_EXTENSIONS),
	    "EGL_ANDROID_native_fence_sync EGL_EXT_create_context_robustness "
	    "EGL_EXT_image_dma_buf_import EGL_EXT_image_dma_buf_import_modifiers "
	    "EGL_EXT_pixel_format_float "
	    "EGL_KHR_create_context EGL_KHR_fence_sync EGL_KHR_get_all_proc_addresses "
	    "EGL_KHR_gl_renderbuffer_image EGL_KHR_gl_texture_2D_image EGL_KHR_image_base "
	    "EGL_KHR_surfaceless_context EGL_KHR_wait_sync EGL_MESA_image_dma_buf_export");
	assert_null(eglQueryString(dpy, EGL_WIDTH));
	assert_egl_error(EGL_BAD_PARAMETER);
	/* the default display is the same device */
	assert_true(eglInitialize(def, &major, &minor));
	assert_int_equal(minor, 5);
	assert_string_equal(eglQueryString(def, EGL_VENDOR), "AGX driver stack");
	assert_true(eglTerminate(def));
	assert_true(eglTerminate(def));
	assert_null(eglQueryString(def, EGL_VENDOR));
	assert_egl_error(EGL_NOT_INITIALIZED);
	assert_false(eglInitialize((EGLDisplay)&major, NULL, NULL));
	assert_egl_error(EGL_BAD_DISPLAY);
}

/* ---- configs ------------------------------------------------------------------------------ */

/* 25 single-sampled, then their 4x twins (ids + 30) */
#define NCONFIGS 50
/*
 * The fixed-point ones in section 3.4.1.2's order: the smaller buffer
 * first, then single-sampled before 4x, then the smaller depth, stencil, id
 */
#define ALL                                                                                        \
	(const EGLint[]){ 3,  7,  8,  4,  25, 33, 37, 38, 34, 55, 9,  11, 12, 10,                  \
			  13, 39, 41, 42, 40, 43, 1,  14, 5,  16, 6,  17, 2,  15,                  \
			  18, 24, 31, 44, 35, 46, 36, 47, 32, 45, 48, 54 },                        \
	    40

static void test_configs(void **state)
{
	/* id, red, green, blue, alpha, depth, stencil, buffer size */
	static const EGLint expected[25][8] = {
		{ 1, 8, 8, 8, 8, 0, 0, 32 },	   { 2, 8, 8, 8, 8, 24, 8, 32 },
		{ 3, 5, 6, 5, 0, 0, 0, 16 },	   { 4, 5, 6, 5, 0, 24, 8, 16 },
		{ 5, 8, 8, 8, 8, 16, 0, 32 },	   { 6, 8, 8, 8, 8, 24, 0, 32 },
		{ 7, 5, 6, 5, 0, 16, 0, 16 },	   { 8, 5, 6, 5, 0, 24, 0, 16 },
		{ 9, 8, 8, 8, 0, 0, 0, 24 },	   { 10, 8, 8, 8, 0, 24, 8, 24 },
		{ 11, 8, 8, 8, 0, 16, 0, 24 },	   { 12, 8, 8, 8, 0, 24, 0, 24 },
		{ 13, 8, 8, 8, 0, 32, 0, 24 },	   { 14, 10, 10, 10, 2, 0, 0, 32 },
		{ 15, 10, 10, 10, 2, 24, 8, 32 },  { 16, 10, 10, 10, 2, 16, 0, 32 },
		{ 17, 10, 10, 10, 2, 24, 0, 32 },  { 18, 10, 10, 10, 2, 32, 0, 32 },
		{ 19, 16, 16, 16, 16, 0, 0, 64 },  { 20, 16, 16, 16, 16, 24, 8, 64 },
		{ 21, 16, 16, 16, 16, 16, 0, 64 }, { 22, 16, 16, 16, 16, 24, 0, 64 },
		{ 23, 16, 16, 16, 16, 32, 0, 64 }, { 24, 8, 8, 8, 8, 32, 0, 32 },
		{ 25, 5, 6, 5, 0, 32, 0, 16 },
	};
	static const EGLint columns[] = { EGL_CONFIG_ID,    EGL_RED_SIZE,   EGL_GREEN_SIZE,
					  EGL_BLUE_SIZE,    EGL_ALPHA_SIZE, EGL_DEPTH_SIZE,
					  EGL_STENCIL_SIZE, EGL_BUFFER_SIZE };
	EGLDisplay dpy = initialized();
	EGLConfig configs[64];
	EGLint n = 0, value;

	(void)state;
	assert_true(eglGetConfigs(dpy, NULL, 0, &n));
	assert_int_equal(n, NCONFIGS);
	assert_true(eglGetConfigs(dpy, configs, 2, &n));
	assert_int_equal(n, 2);
	assert_true(eglGetConfigs(dpy, configs, 64, &n));
	assert_int_equal(n, NCONFIGS);
	assert_false(eglGetConfigs(dpy, configs, 64, NULL));
	assert_egl_error(EGL_BAD_PARAMETER);
	for (int i = 0; i < NCONFIGS; i++) {
		bool ms = i >= 25;

		/* EGL_EXT_pixel_format_float: the half-float configs 19 to 23 (49 to 53) */
		assert_int_equal(config_attrib(dpy, configs[i], EGL_COLOR_COMPONENT_TYPE_EXT),
				 i % 25 >= 18 && i % 25 <= 22 ? EGL_COLOR_COMPONENT_TYPE_FLOAT_EXT
							      : EGL_COLOR_COMPONENT_TYPE_FIXED_EXT);
		for (int c = 0; c < 8; c++)
			assert_int_equal(config_attrib(dpy, configs[i], columns[c]),
					 expected[i % 25][c] + (c == 0 && ms ? 30 : 0));
		assert_int_equal(config_attrib(dpy, configs[i], EGL_RENDERABLE_TYPE),
				 EGL_OPENGL_ES2_BIT | EGL_OPENGL_ES3_BIT);
		assert_int_equal(config_attrib(dpy, configs[i], EGL_SURFACE_TYPE), EGL_PBUFFER_BIT);
		assert_int_equal(config_attrib(dpy, configs[i], EGL_COLOR_BUFFER_TYPE),
				 EGL_RGB_BUFFER);
		assert_int_equal(config_attrib(dpy, configs[i], EGL_CONFIG_CAVEAT), EGL_NONE);
		assert_int_equal(config_attrib(dpy, configs[i], EGL_SAMPLES), ms ? 4 : 0);
		assert_int_equal(config_attrib(dpy, configs[i], EGL_SAMPLE_BUFFERS), ms ? 1 : 0);
		assert_int_equal(config_attrib(dpy, configs[i], EGL_MAX_PBUFFER_WIDTH), 16384);
		assert_int_equal(config_attrib(dpy, configs[i], EGL_NATIVE_RENDERABLE), EGL_FALSE);
	}
	assert_false(eglGetConfigAttrib(dpy, configs[0], EGL_WIDTH, &value));
	assert_egl_error(EGL_BAD_ATTRIBUTE);
	assert_false(eglGetConfigAttrib(dpy, (EGLConfig)&value, EGL_RED_SIZE, &value));
	assert_egl_error(EGL_BAD_CONFIG);
}

/* eglChooseConfig(attribs) gives exactly the config ids of want, in that order. */
static void choose(EGLDisplay dpy, const EGLint *attribs, const EGLint *want, int count)
{
	EGLConfig configs[64];
	EGLint n = -1;

	assert_true(eglChooseConfig(dpy, attribs, NULL, 0, &n));
	assert_int_equal(n, count);
	assert_true(eglChooseConfig(dpy, attribs, configs, 64, &n));
	assert_int_equal(n, count);
	for (int i = 0; i < count; i++)
		assert_int_equal(config_attrib(dpy, configs[i], EGL_CONFIG_ID), want[i]);
}

#define PB EGL_SURFACE_TYPE, EGL_PBUFFER_BIT, EGL_RENDERABLE_TYPE, EGL_OPENGL_ES2_BIT

static void test_choose_config(void **state)
{
	EGLDisplay dpy = initialized();
	EGLConfig config;
	EGLint n;

	(void)state;
	/* the defaults ask for a window and OpenGL ES 1: nothing here */
	choose(dpy, NULL, NULL, 0);
	choose(dpy, (const EGLint[]){ EGL_NONE }, NULL, 0);
	/*
	 * No colour size asked for: the fixed-point configs (EGL_EXT_pixel_format_float's
	 * default), the smaller buffer first, then the smaller depth, then stencil, then id
	 */
	choose(dpy, (const EGLint[]){ PB, EGL_NONE }, ALL);
	/* red asked for: more red bits first (RGB10_A2's), then the smaller buffer */
	choose(dpy, (const EGLint[]){ PB, EGL_RED_SIZE, 1, EGL_NONE },
	       (const EGLint[]){ 14, 16, 17, 15, 18, 44, 46, 47, 45, 48, 9,  11, 12, 10,
				 13, 39, 41, 42, 40, 43, 1,  5,	 6,  2,	 24, 31, 35, 36,
				 32, 54, 3,  7,	 8,  4,	 25, 33, 37, 38, 34, 55 },
	       40);
	/* half floats when asked for, or after the others when either will do */
	choose(dpy,
	       (const EGLint[]){ PB, EGL_COLOR_COMPONENT_TYPE_EXT,
				 EGL_COLOR_COMPONENT_TYPE_FLOAT_EXT, EGL_NONE },
	       (const EGLint[]){ 19, 21, 22, 20, 23, 49, 51, 52, 50, 53 }, 10);
	choose(dpy, (const EGLint[]){ PB, EGL_COLOR_COMPONENT_TYPE_EXT, EGL_DONT_CARE, EGL_NONE },
	       (const EGLint[]){ 3,  7,	 8,  4,	 25, 33, 37, 38, 34, 55, 9,  11, 12, 10, 13, 39, 41,
				 42, 40, 43, 1,	 14, 5,	 16, 6,	 17, 2,	 15, 18, 24, 31, 44, 35, 46,
				 36, 47, 32, 45, 48, 54, 19, 21, 22, 20, 23, 49, 51, 52, 50, 53 },
	       50);
	choose(dpy, (const EGLint[]){ PB, EGL_RED_SIZE, EGL_DONT_CARE, EGL_NONE }, ALL);
	/* alpha: RGBA8888's 8 bits before RGB10_A2's 2 */
	choose(dpy, (const EGLint[]){ PB, EGL_ALPHA_SIZE, 1, EGL_NONE },
	       (const EGLint[]){ 1,  5,	 6,  2,	 24, 31, 35, 36, 32, 54,
				 14, 16, 17, 15, 18, 44, 46, 47, 45, 48 },
	       20);
	choose(dpy, (const EGLint[]){ PB, EGL_DEPTH_SIZE, 1, EGL_NONE },
	       (const EGLint[]){ 7, 8,	4, 25, 37, 38, 34, 55, 11, 12, 10, 13, 41, 42, 40, 43,
				 5, 16, 6, 17, 2,  15, 18, 24, 35, 46, 36, 47, 32, 45, 48, 54 },
	       32);
	/* a depth buffer and no stencil, as glmark2 asks (by score, of every ES2 config) */
	choose(dpy, (const EGLint[]){ PB, EGL_DEPTH_SIZE, 17, EGL_STENCIL_SIZE, 0, EGL_NONE },
	       (const EGLint[]){ 8, 4,	25, 38, 34, 55, 12, 10, 13, 42, 40, 43,
				 6, 17, 2,  15, 18, 24, 36, 47, 32, 45, 48, 54 },
	       24);
	choose(dpy, (const EGLint[]){ PB, EGL_GREEN_SIZE, 6, EGL_STENCIL_SIZE, 8, EGL_NONE },
	       (const EGLint[]){ 15, 45, 10, 40, 2, 32, 4, 34 }, 8);
	choose(dpy, (const EGLint[]){ PB, EGL_DEPTH_SIZE, 25, EGL_NONE },
	       (const EGLint[]){ 25, 55, 13, 43, 18, 24, 48, 54 }, 8);
	choose(dpy, (const EGLint[]){ PB, EGL_DEPTH_SIZE, 33, EGL_NONE }, NULL, 0);
	choose(dpy, (const EGLint[]){ PB, EGL_BUFFER_SIZE, 24, EGL_NONE },
	       (const EGLint[]){ 9,  11, 12, 10, 13, 39, 41, 42, 40, 43, 1,  14, 5,  16, 6,
				 17, 2,	 15, 18, 24, 31, 44, 35, 46, 36, 47, 32, 45, 48, 54 },
	       30);
	choose(dpy, (const EGLint[]){ PB, EGL_RENDERABLE_TYPE, EGL_OPENGL_ES3_BIT, EGL_NONE }, ALL);
	choose(dpy, (const EGLint[]){ PB, EGL_RENDERABLE_TYPE, EGL_OPENGL_BIT, EGL_NONE }, NULL, 0);
	choose(dpy,
	       (const EGLint[]){ EGL_SURFACE_TYPE, EGL_WINDOW_BIT, EGL_RENDERABLE_TYPE,
				 EGL_OPENGL_ES2_BIT, EGL_NONE },
	       NULL, 0);
	choose(dpy, (const EGLint[]){ PB, EGL_CONFORMANT, EGL_OPENGL_ES2_BIT, EGL_NONE }, NULL, 0);
	choose(dpy, (const EGLint[]){ PB, EGL_COLOR_BUFFER_TYPE, EGL_LUMINANCE_BUFFER, EGL_NONE },
	       NULL, 0);
	choose(dpy, (const EGLint[]){ PB, EGL_LEVEL, 1, EGL_NONE }, NULL, 0);
	/* multisampled: the 4x configs, in the same order; 8x: none */
	choose(dpy, (const EGLint[]){ PB, EGL_SAMPLE_BUFFERS, 1, EGL_NONE },
	       (const EGLint[]){ 33, 37, 38, 34, 55, 39, 41, 42, 40, 43,
				 31, 44, 35, 46, 36, 47, 32, 45, 48, 54 },
	       20);
	choose(dpy, (const EGLint[]){ PB, EGL_SAMPLES, 4, EGL_NONE },
	       (const EGLint[]){ 33, 37, 38, 34, 55, 39, 41, 42, 40, 43,
				 31, 44, 35, 46, 36, 47, 32, 45, 48, 54 },
	       20);
	choose(dpy, (const EGLint[]){ PB, EGL_SAMPLES, 8, EGL_NONE }, NULL, 0);
	choose(dpy, (const EGLint[]){ PB, EGL_SAMPLE_BUFFERS, 2, EGL_NONE }, NULL, 0);
	choose(dpy,
	       (const EGLint[]){ PB, EGL_SAMPLES, 4, EGL_RED_SIZE, 8, EGL_ALPHA_SIZE, 8,
				 EGL_DEPTH_SIZE, 24, EGL_STENCIL_SIZE, 8, EGL_NONE },
	       (const EGLint[]){ 32 }, 1);
	choose(dpy, (const EGLint[]){ PB, EGL_MIN_SWAP_INTERVAL, 0, EGL_NONE }, ALL);
	choose(dpy, (const EGLint[]){ PB, EGL_SURFACE_TYPE, EGL_DONT_CARE, EGL_NONE }, ALL);
	/* transparent values count only for a transparent config */
	choose(dpy, (const EGLint[]){ PB, EGL_TRANSPARENT_RED_VALUE, 7, EGL_NONE }, ALL);
	/* section 3.4.1.2: eglChooseConfig ignores the pbuffer limits and the visual id */
	choose(
	    dpy,
	    (const EGLint[]){ PB, EGL_MAX_PBUFFER_WIDTH, 99999, EGL_NATIVE_VISUAL_ID, 5, EGL_NONE },
	    ALL);
	/* EGL_CONFIG_ID overrides everything else */
	choose(dpy,
	       (const EGLint[]){ EGL_SURFACE_TYPE, EGL_WINDOW_BIT, EGL_CONFIG_ID, 2, EGL_NONE },
	       (const EGLint[]){ 2 }, 1);
	choose(dpy, (const EGLint[]){ EGL_CONFIG_ID, 26, EGL_NONE }, NULL, 0);
	choose(dpy, (const EGLint[]){ EGL_CONFIG_ID, 31, EGL_NONE }, (const EGLint[]){ 31 }, 1);
	/* room for one: the best one */
	assert_true(eglChooseConfig(dpy, (const EGLint[]){ PB, EGL_RED_SIZE, 1, EGL_NONE }, &config,
				    1, &n));
	assert_int_equal(n, 1);
	assert_int_equal(config_attrib(dpy, config, EGL_CONFIG_ID), 14);

	/* bad attributes and values */
	static const EGLint bad[][5] = {
		{ 0x1234, 1, EGL_NONE },
		{ EGL_WIDTH, 1, EGL_NONE },
		{ EGL_RED_SIZE, -2, EGL_NONE },
		{ EGL_COLOR_BUFFER_TYPE, 0x1234, EGL_NONE },
		{ EGL_CONFIG_CAVEAT, 0x1234, EGL_NONE },
		{ EGL_TRANSPARENT_TYPE, 0x1234, EGL_NONE },
		{ EGL_NATIVE_RENDERABLE, 7, EGL_NONE },
		{ EGL_LEVEL, EGL_DONT_CARE, EGL_NONE },
		{ EGL_MATCH_NATIVE_PIXMAP, 0x1234, EGL_NONE },
		{ EGL_COLOR_COMPONENT_TYPE_EXT, 0x1234, EGL_NONE },
	};
	for (unsigned i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		assert_false(eglChooseConfig(dpy, bad[i], &config, 1, &n));
		assert_egl_error(EGL_BAD_ATTRIBUTE);
	}
	assert_false(eglChooseConfig(dpy, (const EGLint[]){ PB, EGL_NONE }, &config, 1, NULL));
	assert_egl_error(EGL_BAD_PARAMETER);
}

/* ---- surfaces ------------------------------------------------------------------------------ */

static EGLint query_surface(EGLDisplay dpy, EGLSurface surf, EGLint attribute)
{
	EGLint value = -12345;

	assert_true(eglQuerySurface(dpy, surf, attribute, &value));
	return value;
}

static void test_pbuffer(void **state)
{
	EGLDisplay dpy = initialized();
	EGLConfig rgba = config_by_id(dpy, 2), rgb565 = config_by_id(dpy, 3);
	EGLSurface surf = pbuffer(dpy, rgba, 64, 32), small;
	EGLint value;

	(void)state;
	assert_int_equal(query_surface(dpy, surf, EGL_WIDTH), 64);
	assert_int_equal(query_surface(dpy, surf, EGL_HEIGHT), 32);
	assert_int_equal(query_surface(dpy, surf, EGL_CONFIG_ID), 2);
	assert_int_equal(query_surface(dpy, surf, EGL_LARGEST_PBUFFER), EGL_FALSE);
	assert_int_equal(query_surface(dpy, surf, EGL_TEXTURE_FORMAT), EGL_NO_TEXTURE);
	assert_int_equal(query_surface(dpy, surf, EGL_TEXTURE_TARGET), EGL_NO_TEXTURE);
	assert_int_equal(query_surface(dpy, surf, EGL_RENDER_BUFFER), EGL_BACK_BUFFER);
	assert_int_equal(query_surface(dpy, surf, EGL_GL_COLORSPACE), EGL_GL_COLORSPACE_LINEAR);
	assert_int_equal(query_surface(dpy, surf, EGL_HORIZONTAL_RESOLUTION), EGL_UNKNOWN);
	assert_int_equal(query_surface(dpy, surf, EGL_SWAP_BEHAVIOR), EGL_BUFFER_DESTROYED);
	assert_false(eglQuerySurface(dpy, surf, EGL_RED_SIZE, &value));
	assert_egl_error(EGL_BAD_ATTRIBUTE);

	/* surface attributes: what the config's surface type allows */
	assert_true(eglSurfaceAttrib(dpy, surf, EGL_SWAP_BEHAVIOR, EGL_BUFFER_DESTROYED));
	assert_false(eglSurfaceAttrib(dpy, surf, EGL_SWAP_BEHAVIOR, EGL_BUFFER_PRESERVED));
	assert_egl_error(EGL_BAD_MATCH);
	assert_false(
	    eglSurfaceAttrib(dpy, surf, EGL_MULTISAMPLE_RESOLVE, EGL_MULTISAMPLE_RESOLVE_BOX));
	assert_egl_error(EGL_BAD_MATCH);
	assert_false(eglSurfaceAttrib(dpy, surf, EGL_WIDTH, 3));
	assert_egl_error(EGL_BAD_ATTRIBUTE);
	/* no texture pbuffers, no native pixmaps */
	assert_false(eglBindTexImage(dpy, surf, EGL_BACK_BUFFER));
	assert_egl_error(EGL_BAD_MATCH);
	assert_false(eglBindTexImage(dpy, surf, EGL_SINGLE_BUFFER));
	assert_egl_error(EGL_BAD_PARAMETER);
	assert_false(eglCopyBuffers(dpy, surf, 0));
	assert_egl_error(EGL_BAD_NATIVE_PIXMAP);

	/* the default size is 0x0; the largest pbuffer is clamped to the limit */
	small = eglCreatePbufferSurface(dpy, rgb565, NULL);
	assert_ptr_not_equal(small, EGL_NO_SURFACE);
	assert_int_equal(query_surface(dpy, small, EGL_WIDTH), 0);
	assert_true(eglDestroySurface(dpy, small));
	small =
	    eglCreatePbufferSurface(dpy, rgb565,
				    (const EGLint[]){ EGL_WIDTH, 20000, EGL_HEIGHT, 1,
						      EGL_LARGEST_PBUFFER, EGL_TRUE, EGL_NONE });
	assert_ptr_not_equal(small, EGL_NO_SURFACE);
	assert_int_equal(query_surface(dpy, small, EGL_WIDTH), 16384);
	assert_int_equal(query_surface(dpy, small, EGL_HEIGHT), 1);
	assert_int_equal(query_surface(dpy, small, EGL_LARGEST_PBUFFER), EGL_TRUE);
	assert_true(eglDestroySurface(dpy, small));

	/* bad arguments */
	assert_ptr_equal(
	    eglCreatePbufferSurface(dpy, rgba, (const EGLint[]){ EGL_WIDTH, -1, EGL_NONE }),
	    EGL_NO_SURFACE);
	assert_egl_error(EGL_BAD_PARAMETER);
	assert_ptr_equal(
	    eglCreatePbufferSurface(dpy, rgba, (const EGLint[]){ EGL_RED_SIZE, 1, EGL_NONE }),
	    EGL_NO_SURFACE);
	assert_egl_error(EGL_BAD_ATTRIBUTE);
	assert_ptr_equal(
	    eglCreatePbufferSurface(
		dpy, rgba, (const EGLint[]){ EGL_TEXTURE_FORMAT, EGL_TEXTURE_RGBA, EGL_NONE }),
	    EGL_NO_SURFACE);
	assert_egl_error(EGL_BAD_MATCH);
	assert_ptr_equal(
	    eglCreatePbufferSurface(dpy, rgba, (const EGLint[]){ EGL_WIDTH, 20000, EGL_NONE }),
	    EGL_NO_SURFACE);
	assert_egl_error(EGL_BAD_ALLOC);
	assert_ptr_equal(eglCreatePbufferSurface(dpy, (EGLConfig)&value, NULL), EGL_NO_SURFACE);
	assert_egl_error(EGL_BAD_CONFIG);
	/* no native windows or pixmaps on the surfaceless platform */
	assert_ptr_equal(eglCreateWindowSurface(dpy, rgba, 0, NULL), EGL_NO_SURFACE);
	assert_egl_error(EGL_BAD_NATIVE_WINDOW);
	assert_ptr_equal(eglCreatePlatformWindowSurface(dpy, rgba, &value, NULL), EGL_NO_SURFACE);
	assert_egl_error(EGL_BAD_NATIVE_WINDOW);
	assert_ptr_equal(eglCreatePlatformPixmapSurface(dpy, rgba, &value, NULL), EGL_NO_SURFACE);
	assert_egl_error(EGL_BAD_NATIVE_PIXMAP);

	assert_true(eglDestroySurface(dpy, surf));
	assert_false(eglDestroySurface(dpy, surf));
	assert_egl_error(EGL_BAD_SURFACE);
	assert_false(eglQuerySurface(dpy, surf, EGL_WIDTH, &value));
	assert_egl_error(EGL_BAD_SURFACE);
}

/* ---- contexts ------------------------------------------------------------------------------ */

static EGLint query_context(EGLDisplay dpy, EGLContext ctx, EGLint attribute)
{
	EGLint value = -12345;

	assert_true(eglQueryContext(dpy, ctx, attribute, &value));
	return value;
}

/*
 * A 4x pbuffer's default framebuffer: GL_SAMPLES 4 and GL_SAMPLE_BUFFERS
 * 1; glReadPixels and glCopyTexImage2D read it (section 4.3.2 and 3.8.5
 * refuse only a multisampled framebuffer object); a blit into it is
 * GL_INVALID_OPERATION (section 4.3.3: a multisampled draw framebuffer),
 * a resolving blit out of it must copy the same rectangle into the same
 * format.  gles-configs compares its pixels with llvmpipe's.
 */
static void test_multisampled_pbuffer(void **state)
{
	const EGLint attribs[] = { PB, EGL_SAMPLES,    4, EGL_RED_SIZE, 8, EGL_ALPHA_SIZE,
				   8,  EGL_DEPTH_SIZE, 0, EGL_NONE };
	const EGLint pb[] = { EGL_WIDTH, 8, EGL_HEIGHT, 8, EGL_NONE };
	const EGLint ca[] = { EGL_CONTEXT_MAJOR_VERSION, 3, EGL_NONE };
	EGLDisplay dpy = initialized();
	EGLConfig config;
	EGLSurface surf;
	EGLContext ctx;
	GLuint fb, rb, tex;
	GLint v = -1;
	uint8_t px[8 * 8 * 4];
	EGLint n;

	(void)state;
	assert_true(eglChooseConfig(dpy, attribs, &config, 1, &n));
	assert_int_equal(n, 1);
	assert_int_equal(config_attrib(dpy, config, EGL_CONFIG_ID), 31);
	surf = eglCreatePbufferSurface(dpy, config, pb);
	ctx = eglCreateContext(dpy, config, EGL_NO_CONTEXT, ca);
	assert_ptr_not_equal(surf, EGL_NO_SURFACE);
	assert_ptr_not_equal(ctx, EGL_NO_CONTEXT);
	assert_true(eglMakeCurrent(dpy, surf, surf, ctx));
	glGetIntegerv(GL_SAMPLES, &v);
	assert_int_equal(v, 4);
	glGetIntegerv(GL_SAMPLE_BUFFERS, &v);
	assert_int_equal(v, 1);
	glClearColor(1, 0, 0, 1);
	glClear(GL_COLOR_BUFFER_BIT);
	memset(px, 0, sizeof(px));
	glReadPixels(0, 0, 8, 8, GL_RGBA, GL_UNSIGNED_BYTE, px);
	assert_int_equal(glGetError(), GL_NO_ERROR);
	for (unsigned i = 0; i < 8 * 8; i++)
		assert_memory_equal(&px[i * 4], ((const uint8_t[]){ 0xff, 0, 0, 0xff }), 4);
	glGenTextures(1, &tex);
	glBindTexture(GL_TEXTURE_2D, tex);
	glCopyTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA, 0, 0, 8, 8, 0);
	assert_int_equal(glGetError(), GL_NO_ERROR);
	/* an FBO of the same format: a resolve out of the default framebuffer, not into it */
	glGenRenderbuffers(1, &rb);
	glBindRenderbuffer(GL_RENDERBUFFER, rb);
	glRenderbufferStorage(GL_RENDERBUFFER, GL_RGBA8, 8, 8);
	glGenFramebuffers(1, &fb);
	glBindFramebuffer(GL_FRAMEBUFFER, fb);
	glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, rb);
	glGetIntegerv(GL_SAMPLES, &v);
	assert_int_equal(v, 0);
	glBindFramebuffer(GL_READ_FRAMEBUFFER, 0);
	glBlitFramebuffer(0, 0, 8, 8, 0, 0, 8, 8, GL_COLOR_BUFFER_BIT, GL_NEAREST);
	assert_int_equal(glGetError(), GL_NO_ERROR);
	glBlitFramebuffer(0, 0, 8, 8, 1, 0, 9, 8, GL_COLOR_BUFFER_BIT, GL_NEAREST);
	assert_int_equal(glGetError(), GL_INVALID_OPERATION);
	glBindFramebuffer(GL_READ_FRAMEBUFFER, fb);
	glBindFramebuffer(GL_DRAW_FRAMEBUFFER, 0);
	glBlitFramebuffer(0, 0, 8, 8, 0, 0, 8, 8, GL_COLOR_BUFFER_BIT, GL_NEAREST);
	assert_int_equal(glGetError(), GL_INVALID_OPERATION);
	glBindFramebuffer(GL_FRAMEBUFFER, 0);
	glDeleteFramebuffers(1, &fb);
	glDeleteRenderbuffers(1, &rb);
	glDeleteTextures(1, &tex);
	assert_true(eglSwapBuffers(dpy, surf));
	assert_true(eglMakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT));
	assert_true(eglDestroyContext(dpy, ctx));
	assert_true(eglDestroySurface(dpy, surf));
}

static void test_contexts(void **state)
{
	EGLDisplay dpy = initialized();
	EGLConfig config = config_by_id(dpy, 1);
	EGLContext es2, es3;
	EGLint value;

	(void)state;
	es2 = eglCreateContext(dpy, config, EGL_NO_CONTEXT,
			       (const EGLint[]){ EGL_CONTEXT_CLIENT_VERSION, 2, EGL_NONE });
	assert_ptr_not_equal(es2, EGL_NO_CONTEXT);
	es3 = context(dpy, config, EGL_NO_CONTEXT, 3);
	/*
	 * section 3.7.4: the version "as specified at context creation time",
	 * though the 2.0 request got an ES 3.0 context (test_gl_strings_and_errors)
	 */
	assert_int_equal(query_context(dpy, es2, EGL_CONTEXT_CLIENT_VERSION), 2);
	assert_int_equal(query_context(dpy, es3, EGL_CONTEXT_CLIENT_VERSION), 3);
	assert_int_equal(query_context(dpy, es3, EGL_CONTEXT_CLIENT_TYPE), EGL_OPENGL_ES_API);
	assert_int_equal(query_context(dpy, es3, EGL_CONFIG_ID), 1);
	assert_int_equal(query_context(dpy, es3, EGL_RENDER_BUFFER), EGL_NONE);
	assert_false(eglQueryContext(dpy, es3, EGL_WIDTH, &value));
	assert_egl_error(EGL_BAD_ATTRIBUTE);

	/* versions: ES 1.x needs a config with EGL_OPENGL_ES_BIT; undefined ones do not exist */
	static const struct {
		EGLint major, minor, error;
	} versions[] = {
		{ 1, 0, EGL_BAD_CONFIG }, { 1, 1, EGL_BAD_CONFIG }, { 1, 2, EGL_BAD_MATCH },
		{ 2, 1, EGL_BAD_MATCH },  { 3, 1, EGL_BAD_MATCH },  { 3, 7, EGL_BAD_MATCH },
		{ 4, 0, EGL_BAD_MATCH },  { 0, 0, EGL_BAD_MATCH },
	};
	for (unsigned i = 0; i < sizeof(versions) / sizeof(versions[0]); i++) {
		const EGLint attribs[] = { EGL_CONTEXT_MAJOR_VERSION, versions[i].major,
					   EGL_CONTEXT_MINOR_VERSION, versions[i].minor, EGL_NONE };

		assert_ptr_equal(eglCreateContext(dpy, config, EGL_NO_CONTEXT, attribs),
				 EGL_NO_CONTEXT);
		assert_egl_error(versions[i].error);
	}
	/* no attributes: OpenGL ES 1.0 */
	assert_ptr_equal(eglCreateContext(dpy, config, EGL_NO_CONTEXT, NULL), EGL_NO_CONTEXT);
	assert_egl_error(EGL_BAD_CONFIG);
	/* attributes unknown, or only meaningful for desktop OpenGL */
	static const EGLint bad[][5] = {
		{ 0x1234, 1, EGL_NONE },
		{ EGL_CONTEXT_CLIENT_VERSION, 2, EGL_CONTEXT_OPENGL_PROFILE_MASK,
		  EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT, EGL_NONE },
		{ EGL_CONTEXT_CLIENT_VERSION, 2, EGL_CONTEXT_OPENGL_FORWARD_COMPATIBLE, EGL_TRUE,
		  EGL_NONE },
		{ EGL_CONTEXT_CLIENT_VERSION, 2, EGL_CONTEXT_OPENGL_DEBUG, 3, EGL_NONE },
		/* EGL_KHR_create_context: forward compatibility is OpenGL's; bit 3 is nothing */
		{ EGL_CONTEXT_CLIENT_VERSION, 2, EGL_CONTEXT_FLAGS_KHR,
		  EGL_CONTEXT_OPENGL_FORWARD_COMPATIBLE_BIT_KHR, EGL_NONE },
		{ EGL_CONTEXT_CLIENT_VERSION, 2, EGL_CONTEXT_FLAGS_KHR, 0x8, EGL_NONE },
	};
	for (unsigned i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		assert_ptr_equal(eglCreateContext(dpy, config, EGL_NO_CONTEXT, bad[i]),
				 EGL_NO_CONTEXT);
		assert_egl_error(EGL_BAD_ATTRIBUTE);
	}
	assert_ptr_equal(
	    eglCreateContext(dpy, (EGLConfig)&value, EGL_NO_CONTEXT,
			     (const EGLint[]){ EGL_CONTEXT_CLIENT_VERSION, 2, EGL_NONE }),
	    EGL_NO_CONTEXT);
	assert_egl_error(EGL_BAD_CONFIG);
	/* OpenGL is no API of this vendor's: eglBindAPI fails and ES stays bound */
	assert_false(eglBindAPI(EGL_OPENGL_API));
	assert_egl_error(EGL_BAD_PARAMETER);
	assert_int_equal(eglQueryAPI(), EGL_OPENGL_ES_API);

	/* EGL_KHR_create_context's flags: a debug, robust ES 3.0 context */
	{
		const EGLint attribs[] = { EGL_CONTEXT_MAJOR_VERSION_KHR,
					   3,
					   EGL_CONTEXT_MINOR_VERSION_KHR,
					   0,
					   EGL_CONTEXT_FLAGS_KHR,
					   EGL_CONTEXT_OPENGL_DEBUG_BIT_KHR |
					       EGL_CONTEXT_OPENGL_ROBUST_ACCESS_BIT_KHR,
					   EGL_NONE };
		EGLContext flagged = eglCreateContext(dpy, config, EGL_NO_CONTEXT, attribs);

		assert_ptr_not_equal(flagged, EGL_NO_CONTEXT);
		assert_int_equal(query_context(dpy, flagged, EGL_CONTEXT_CLIENT_VERSION), 3);
		assert_true(eglDestroyContext(dpy, flagged));
	}

	assert_true(eglDestroyContext(dpy, es2));
	assert_true(eglDestroyContext(dpy, es3));
	assert_false(eglDestroyContext(dpy, es3));
	assert_egl_error(EGL_BAD_CONTEXT);
}

static void test_share_lists(void **state)
{
	EGLDisplay dpy = initialized(), def = eglGetDisplay(EGL_DEFAULT_DISPLAY);
	EGLConfig config = config_by_id(dpy, 1);
	EGLContext a = context(dpy, config, EGL_NO_CONTEXT, 3), b, c, other, gone;
	const EGLint lose[] = { EGL_CONTEXT_CLIENT_VERSION, 3,
				EGL_CONTEXT_OPENGL_RESET_NOTIFICATION_STRATEGY_EXT,
				EGL_LOSE_CONTEXT_ON_RESET, EGL_NONE };

	(void)state;
	/* contexts asked for as ES 2.0 and as ES 3.0 share a's objects */
	b = context(dpy, config, a, 2);
	c = context(dpy, config, b, 3);
	/* the share list outlives the context it came from */
	assert_true(eglDestroyContext(dpy, a));
	gone = a;
	assert_ptr_equal(
	    eglCreateContext(dpy, config, gone,
			     (const EGLint[]){ EGL_CONTEXT_CLIENT_VERSION, 2, EGL_NONE }),
	    EGL_NO_CONTEXT);
	assert_egl_error(EGL_BAD_CONTEXT);
	/* a context of another display */
	assert_true(eglInitialize(def, NULL, NULL));
	other = context(def, config_by_id(def, 1), EGL_NO_CONTEXT, 2);
	assert_ptr_equal(
	    eglCreateContext(dpy, config, other,
			     (const EGLint[]){ EGL_CONTEXT_CLIENT_VERSION, 2, EGL_NONE }),
	    EGL_NO_CONTEXT);
	assert_egl_error(EGL_BAD_MATCH);
	/* EGL_EXT_create_context_robustness: sharing contexts share a reset strategy */
	assert_ptr_equal(eglCreateContext(dpy, config, b, lose), EGL_NO_CONTEXT);
	assert_egl_error(EGL_BAD_MATCH);
	assert_true(eglDestroyContext(dpy, b));
	assert_true(eglDestroyContext(dpy, c));
	assert_true(eglTerminate(def));
}

static void test_robustness(void **state)
{
	EGLDisplay dpy = initialized();
	EGLConfig config = config_by_id(dpy, 2);
	EGLContext ext, core, shared;

	(void)state;
	ext = eglCreateContext(dpy, config, EGL_NO_CONTEXT,
			       (const EGLint[]){ EGL_CONTEXT_CLIENT_VERSION, 3,
						 EGL_CONTEXT_OPENGL_ROBUST_ACCESS_EXT, EGL_TRUE,
						 EGL_CONTEXT_OPENGL_RESET_NOTIFICATION_STRATEGY_EXT,
						 EGL_LOSE_CONTEXT_ON_RESET, EGL_NONE });
	assert_ptr_not_equal(ext, EGL_NO_CONTEXT);
	/* EGL 1.5's own names for the same */
	core = eglCreateContext(dpy, config, EGL_NO_CONTEXT,
				(const EGLint[]){ EGL_CONTEXT_MAJOR_VERSION, 2,
						  EGL_CONTEXT_OPENGL_ROBUST_ACCESS, EGL_TRUE,
						  EGL_CONTEXT_OPENGL_RESET_NOTIFICATION_STRATEGY,
						  EGL_NO_RESET_NOTIFICATION, EGL_NONE });
	assert_ptr_not_equal(core, EGL_NO_CONTEXT);
	/* the same strategy: they may share */
	shared = eglCreateContext(dpy, config, ext,
				  (const EGLint[]){ EGL_CONTEXT_CLIENT_VERSION, 3,
						    EGL_CONTEXT_OPENGL_RESET_NOTIFICATION_STRATEGY,
						    EGL_LOSE_CONTEXT_ON_RESET, EGL_NONE });
	assert_ptr_not_equal(shared, EGL_NO_CONTEXT);
	assert_ptr_equal(
	    eglCreateContext(dpy, config, EGL_NO_CONTEXT,
			     (const EGLint[]){ EGL_CONTEXT_CLIENT_VERSION, 3,
					       EGL_CONTEXT_OPENGL_ROBUST_ACCESS_EXT, 5, EGL_NONE }),
	    EGL_NO_CONTEXT);
	assert_egl_error(EGL_BAD_ATTRIBUTE);
	assert_ptr_equal(
	    eglCreateContext(dpy, config, EGL_NO_CONTEXT,
			     (const EGLint[]){ EGL_CONTEXT_CLIENT_VERSION, 3,
					       EGL_CONTEXT_OPENGL_RESET_NOTIFICATION_STRATEGY,
					       EGL_NONE, EGL_NONE }),
	    EGL_NO_CONTEXT);
	assert_egl_error(EGL_BAD_ATTRIBUTE);
	assert_true(eglDestroyContext(dpy, ext));
	assert_true(eglDestroyContext(dpy, core));
	assert_true(eglDestroyContext(dpy, shared));
}

/* ---- current contexts and GL ------------------------------------------------------------- */

/* How many names check_es3_strings() lists. */
#define NUM_GL_EXTENSIONS 40

/* GL_EXTENSIONS, word by word, is glGetStringi's list. */
static void check_extension_list(void)
{
	char list[4096], *word, *save = NULL;
	GLint count = -1, i = 0;

	snprintf(list, sizeof(list), "%s", (const char *)glGetString(GL_EXTENSIONS));
	glGetIntegerv(GL_NUM_EXTENSIONS, &count);
	for (word = strtok_r(list, " ", &save); word; word = strtok_r(NULL, " ", &save), i++) {
		assert_true(i < count);
		assert_string_equal(word, (const char *)glGetStringi(GL_EXTENSIONS, (GLuint)i));
	}
	assert_int_equal(i, count);
	assert_null(glGetStringi(GL_EXTENSIONS, (GLuint)count));
	assert_int_equal(glGetError(), GL_INVALID_VALUE);
}

static void check_es3_strings(void)
{
	const char *renderer = (const char *)glGetString(GL_RENDERER);
	const char *version = (const char *)glGetString(GL_VERSION);
	GLint value = -1;

	assert_string_equal((const char *)glGetString(GL_VENDOR), "AGX driver stack");
	assert_non_null(renderer);
	/* from the device: agx-sim is a G13, t8103 */
	assert_non_null(strstr(renderer, "AGX G13"));
	assert_non_null(strstr(renderer, "agx-sim"));
	assert_non_null(version);
	assert_memory_equal(version, "OpenGL ES 3.0 agx-", strlen("OpenGL ES 3.0 agx-"));
	assert_string_equal((const char *)glGetString(GL_SHADING_LANGUAGE_VERSION),
			    "OpenGL ES GLSL ES 3.00");
	/* GL_EXTENSIONS and glGetStringi name the same extensions: these */
	assert_string_equal(
	    (const char *)glGetString(GL_EXTENSIONS),
	    "GL_APPLE_clip_distance GL_EXT_base_instance GL_EXT_blend_func_extended "
	    "GL_EXT_clip_cull_distance "
	    "GL_EXT_color_buffer_float "
	    "GL_EXT_discard_framebuffer GL_EXT_draw_buffers GL_EXT_float_blend GL_EXT_frag_depth "
	    "GL_EXT_polygon_offset_clamp GL_EXT_read_format_bgra GL_EXT_robustness "
	    "GL_EXT_shader_framebuffer_fetch "
	    "GL_EXT_shader_framebuffer_fetch_non_coherent GL_EXT_texture_compression_rgtc "
	    "GL_EXT_texture_compression_s3tc GL_EXT_texture_compression_s3tc_srgb "
	    "GL_EXT_texture_format_BGRA8888 GL_EXT_texture_sRGB_decode "
	    "GL_EXT_unpack_subimage GL_INTEL_blackhole_render GL_KHR_debug "
	    "GL_KHR_parallel_shader_compile GL_KHR_robustness GL_KHR_texture_compression_astc_ldr "
	    "GL_KHR_texture_compression_astc_sliced_3d GL_NV_read_depth GL_OES_EGL_image "
	    "GL_OES_EGL_sync "
	    "GL_OES_depth24 GL_OES_depth_texture GL_OES_element_index_uint "
	    "GL_OES_fbo_render_mipmap GL_OES_mapbuffer GL_OES_packed_depth_stencil "
	    "GL_OES_rgb8_rgba8 "
	    "GL_OES_standard_derivatives GL_OES_texture_npot "
	    "GL_OES_vertex_array_object GL_OES_vertex_half_float");
	/* OES_vertex_array_object's functions make and bind the core objects */
	{
		void (*gen)(GLsizei, GLuint *) =
		    (void (*)(GLsizei, GLuint *))eglGetProcAddress("glGenVertexArraysOES");
		void (*bind)(GLuint) = (void (*)(GLuint))eglGetProcAddress("glBindVertexArrayOES");
		GLboolean (*is)(GLuint) =
		    (GLboolean(*)(GLuint))eglGetProcAddress("glIsVertexArrayOES");
		void (*del)(GLsizei, const GLuint *) =
		    (void (*)(GLsizei, const GLuint *))eglGetProcAddress("glDeleteVertexArraysOES");
		GLuint vao = 0;
		GLint bound = 0;

		assert_non_null(gen);
		assert_non_null(bind);
		assert_non_null(is);
		assert_non_null(del);
		gen(1, &vao);
		bind(vao);
		glGetIntegerv(GL_VERTEX_ARRAY_BINDING, &bound);
		assert_int_equal(bound, (GLint)vao);
		assert_true(glIsVertexArray(vao));
		assert_true(is(vao));
		bind(0);
		del(1, &vao);
		assert_false(glIsVertexArray(vao));
	}
	check_extension_list();
	glGetIntegerv(GL_MAJOR_VERSION, &value);
	assert_int_equal(value, 3);
	glGetIntegerv(GL_MINOR_VERSION, &value);
	assert_int_equal(value, 0);
	glGetIntegerv(GL_NUM_EXTENSIONS, &value);
	assert_int_equal(value, NUM_GL_EXTENSIONS);
	assert_int_equal(glGetError(), GL_NO_ERROR);
}

static void test_gl_strings_and_errors(void **state)
{
	EGLDisplay dpy = initialized();
	EGLConfig config = config_by_id(dpy, 1);
	EGLSurface surf = pbuffer(dpy, config, 16, 16);
	EGLContext es3 = context(dpy, config, EGL_NO_CONTEXT, 3);
	EGLContext es2 = context(dpy, config, EGL_NO_CONTEXT, 2);
	const GLubyte *(*get_string)(GLenum);
	GLenum (*get_error)(void);
	GLint value = 77;

	(void)state;
	assert_true(eglMakeCurrent(dpy, surf, surf, es3));
	assert_ptr_equal(eglGetCurrentContext(), es3);
	assert_ptr_equal(eglGetCurrentSurface(EGL_DRAW), surf);
	assert_int_equal(query_context(dpy, es3, EGL_RENDER_BUFFER), EGL_BACK_BUFFER);
	check_es3_strings();

	/* glGetError: the first error only, then GL_NO_ERROR (GLES 3.0 section 2.5) */
	assert_null(glGetStringi(GL_EXTENSIONS, NUM_GL_EXTENSIONS)); /* past the last */
	assert_null(glGetString(GL_TEXTURE_2D));
	assert_null(glGetStringi(GL_VENDOR, 0));
	assert_int_equal(glGetError(), GL_INVALID_VALUE);
	assert_int_equal(glGetError(), GL_NO_ERROR);
	glGetIntegerv(GL_TEXTURE_2D, &value);
	assert_int_equal(value, 77);
	assert_int_equal(glGetError(), GL_INVALID_ENUM);
	glFlush();
	glFinish();
	assert_int_equal(glGetError(), GL_NO_ERROR);

	/* through eglGetProcAddress: glvnd's entry points, which reach ours */
	get_string = (const GLubyte *(*)(GLenum))eglGetProcAddress("glGetString");
	get_error = (GLenum(*)(void))eglGetProcAddress("glGetError");
	assert_non_null(get_string);
	assert_non_null(get_error);
	assert_string_equal((const char *)get_string(GL_VENDOR), "AGX driver stack");
	assert_ptr_equal(get_string(GL_RENDERER), glGetString(GL_RENDERER));
	assert_null(get_string(0x1234));
	assert_int_equal(get_error(), GL_INVALID_ENUM);

	/*
	 * each context its own error; an ES 2.0 request got ES 3.0 (EGL 1.5
	 * section 3.7.1.1: any version backward compatible with the one asked
	 * for), with its strings, GL_MAJOR_VERSION and glGetStringi
	 */
	assert_null(glGetString(0x1234));
	assert_true(eglMakeCurrent(dpy, surf, surf, es2));
	assert_int_equal(glGetError(), GL_NO_ERROR);
	check_es3_strings();
	assert_null(glGetStringi(GL_EXTENSIONS, NUM_GL_EXTENSIONS));
	assert_int_equal(glGetError(), GL_INVALID_VALUE);
	assert_true(eglMakeCurrent(dpy, surf, surf, es3));
	assert_int_equal(glGetError(), GL_INVALID_ENUM);

	/* swaps and waits */
	assert_true(eglSwapInterval(dpy, 5));
	assert_true(eglSwapBuffers(dpy, surf));
	assert_true(eglWaitClient());
	assert_true(eglWaitGL());
	assert_true(eglWaitNative(EGL_CORE_NATIVE_ENGINE));
	assert_false(eglWaitNative(0x1234));
	assert_egl_error(EGL_BAD_PARAMETER);

	/* without surfaces (EGL_KHR_surfaceless_context), and GL still works */
	assert_true(eglMakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, es3));
	assert_ptr_equal(eglGetCurrentSurface(EGL_DRAW), EGL_NO_SURFACE);
	assert_string_equal((const char *)glGetString(GL_VENDOR), "AGX driver stack");
	assert_false(eglSwapBuffers(dpy, surf));
	assert_egl_error(EGL_BAD_SURFACE);
	assert_false(eglSwapInterval(dpy, 1));
	assert_egl_error(EGL_BAD_SURFACE);

	assert_true(eglMakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT));
	assert_ptr_equal(eglGetCurrentContext(), EGL_NO_CONTEXT);
	assert_false(eglSwapInterval(dpy, 1));
	assert_egl_error(EGL_BAD_CONTEXT);
	assert_true(eglDestroyContext(dpy, es2));
	assert_true(eglDestroyContext(dpy, es3));
	assert_true(eglDestroySurface(dpy, surf));
}

static void test_make_current_errors(void **state)
{
	EGLDisplay dpy = initialized();
	EGLConfig rgba = config_by_id(dpy, 1), rgb565 = config_by_id(dpy, 3);
	EGLSurface surf = pbuffer(dpy, rgba, 8, 8), surf565 = pbuffer(dpy, rgb565, 8, 8);
	EGLContext ctx = context(dpy, rgba, EGL_NO_CONTEXT, 3);
	EGLint junk;

	(void)state;
	/* section 2.2: an RGBA8888 context and an RGB565 surface are not compatible */
	assert_false(eglMakeCurrent(dpy, surf565, surf565, ctx));
	assert_egl_error(EGL_BAD_MATCH);
	assert_false(eglMakeCurrent(dpy, surf, surf565, ctx));
	assert_egl_error(EGL_BAD_MATCH);
	/* one surface without the other */
	assert_false(eglMakeCurrent(dpy, surf, EGL_NO_SURFACE, ctx));
	assert_egl_error(EGL_BAD_MATCH);
	/* surfaces without a context */
	assert_false(eglMakeCurrent(dpy, surf, surf, EGL_NO_CONTEXT));
	assert_egl_error(EGL_BAD_MATCH);
	assert_false(eglMakeCurrent(dpy, surf, surf, (EGLContext)&junk));
	assert_egl_error(EGL_BAD_CONTEXT);
	assert_false(eglMakeCurrent(dpy, (EGLSurface)&junk, surf, ctx));
	assert_egl_error(EGL_BAD_SURFACE);
	/* a failed call leaves nothing current */
	assert_ptr_equal(eglGetCurrentContext(), EGL_NO_CONTEXT);
	assert_true(eglDestroyContext(dpy, ctx));
	assert_true(eglDestroySurface(dpy, surf));
	assert_true(eglDestroySurface(dpy, surf565));
}

struct other_thread {
	EGLDisplay dpy;
	EGLSurface surf, other_surf;
	EGLContext ctx, other_ctx;
	EGLBoolean bind_ctx, bind_surface, bind_after, released;
	EGLint bind_ctx_error, bind_surface_error;
	char vendor[64];
};

/* What another thread may do while the main thread has ctx and surf current. */
static void *contend(void *arg)
{
	struct other_thread *o = arg;

	o->bind_ctx = eglMakeCurrent(o->dpy, o->other_surf, o->other_surf, o->ctx);
	o->bind_ctx_error = eglGetError();
	o->bind_surface = eglMakeCurrent(o->dpy, o->surf, o->surf, o->other_ctx);
	o->bind_surface_error = eglGetError();
	o->bind_after = eglMakeCurrent(o->dpy, o->other_surf, o->other_surf, o->other_ctx);
	snprintf(o->vendor, sizeof(o->vendor), "%s", (const char *)glGetString(GL_VENDOR));
	eglReleaseThread();
	return NULL;
}

/* Makes ctx current and ends without releasing it. */
static void *leave_current(void *arg)
{
	struct other_thread *o = arg;

	o->bind_after = eglMakeCurrent(o->dpy, o->surf, o->surf, o->ctx);
	return NULL;
}

/* The main thread has released ctx: another thread can take it. */
static void *take(void *arg)
{
	struct other_thread *o = arg;

	o->bind_after = eglMakeCurrent(o->dpy, o->surf, o->surf, o->ctx);
	snprintf(o->vendor, sizeof(o->vendor), "%s", (const char *)glGetString(GL_VENDOR));
	/* released with the thread's state: the main thread may bind it again */
	o->released = eglReleaseThread();
	return NULL;
}

static void test_threads(void **state)
{
	EGLDisplay dpy = initialized();
	EGLConfig config = config_by_id(dpy, 2);
	struct other_thread o = {
		.dpy = dpy,
		.surf = pbuffer(dpy, config, 8, 8),
		.other_surf = pbuffer(dpy, config, 8, 8),
		.ctx = context(dpy, config, EGL_NO_CONTEXT, 3),
		.other_ctx = context(dpy, config, EGL_NO_CONTEXT, 2),
	};
	pthread_t t;

	(void)state;
	assert_true(eglMakeCurrent(dpy, o.surf, o.surf, o.ctx));
	assert_int_equal(pthread_create(&t, NULL, contend, &o), 0);
	assert_int_equal(pthread_join(t, NULL), 0);
	/* ctx and surf are current here: EGL_BAD_ACCESS there */
	assert_false(o.bind_ctx);
	assert_int_equal(o.bind_ctx_error, EGL_BAD_ACCESS);
	assert_false(o.bind_surface);
	assert_int_equal(o.bind_surface_error, EGL_BAD_ACCESS);
	assert_true(o.bind_after);
	assert_string_equal(o.vendor, "AGX driver stack");
	/* errors are per thread: the other thread's left none here */
	assert_egl_error(EGL_SUCCESS);
	assert_ptr_equal(eglGetCurrentContext(), o.ctx);

	assert_true(eglMakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT));
	o.bind_after = EGL_FALSE;
	memset(o.vendor, 0, sizeof(o.vendor));
	assert_int_equal(pthread_create(&t, NULL, take, &o), 0);
	assert_int_equal(pthread_join(t, NULL), 0);
	assert_true(o.bind_after);
	assert_true(o.released);
	assert_string_equal(o.vendor, "AGX driver stack");
	assert_true(eglMakeCurrent(dpy, o.surf, o.surf, o.ctx));

	/* a thread that ends with ctx current releases it */
	assert_true(eglMakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT));
	o.bind_after = EGL_FALSE;
	assert_int_equal(pthread_create(&t, NULL, leave_current, &o), 0);
	assert_int_equal(pthread_join(t, NULL), 0);
	assert_true(o.bind_after);
	assert_true(eglMakeCurrent(dpy, o.surf, o.surf, o.ctx));

	/* eglReleaseThread here too */
	assert_true(eglReleaseThread());
	assert_ptr_equal(eglGetCurrentContext(), EGL_NO_CONTEXT);
	assert_true(eglDestroyContext(dpy, o.ctx));
	assert_true(eglDestroyContext(dpy, o.other_ctx));
	assert_true(eglDestroySurface(dpy, o.surf));
	assert_true(eglDestroySurface(dpy, o.other_surf));
}

/* Section 3.7.2 and 3.5.5: what is current is destroyed once released, the handle at once. */
static void test_destroy_current(void **state)
{
	EGLDisplay dpy = initialized();
	EGLConfig config = config_by_id(dpy, 4);
	EGLSurface surf = pbuffer(dpy, config, 8, 8);
	EGLContext ctx = context(dpy, config, EGL_NO_CONTEXT, 3);
	EGLint value;

	(void)state;
	assert_true(eglMakeCurrent(dpy, surf, surf, ctx));
	assert_true(eglDestroyContext(dpy, ctx));
	assert_true(eglDestroySurface(dpy, surf));
	assert_false(eglQueryContext(dpy, ctx, EGL_CONFIG_ID, &value));
	assert_egl_error(EGL_BAD_CONTEXT);
	assert_false(eglQuerySurface(dpy, surf, EGL_WIDTH, &value));
	assert_egl_error(EGL_BAD_SURFACE);
	/* still current, and GL still works */
	assert_ptr_equal(eglGetCurrentContext(), ctx);
	assert_string_equal((const char *)glGetString(GL_VENDOR), "AGX driver stack");
	/* section 3.8: the current surface is no longer valid */
	assert_false(eglWaitClient());
	assert_egl_error(EGL_BAD_CURRENT_SURFACE);
	assert_true(eglMakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT));
	assert_ptr_equal(eglGetCurrentContext(), EGL_NO_CONTEXT);
}

/* ---- every function of EGL 1.5 ----------------------------------------------------------------
 */

#define BOGUS_HANDLE ((void *)(uintptr_t)0x5a5a5a50u)

/* f's pointer through eglGetProcAddress, which EGL 1.5 gives for core functions too. */
#define PROC(type, name) ((type)proc(#name))

static void (*proc(const char *name))(void)
{
	void (*f)(void) = eglGetProcAddress(name);

	if (!f)
		fail_msg("eglGetProcAddress(\"%s\") is NULL", name);
	return f;
}

/*
 * EGL 1.5's functions (egl.h, all 44 of them), each called through
 * eglGetProcAddress on an initialized display with an object that is
 * none, for the spec's error -- every one reaches a function of ours or
 * of libEGL's, none a NULL -- and the calls that need no object as they
 * should answer.
 */
static void test_egl15_functions(void **state)
{
	EGLDisplay dpy = initialized();
	EGLConfig config = config_by_id(dpy, 1);
	EGLSurface none_s = (EGLSurface)BOGUS_HANDLE;
	EGLContext none_c = (EGLContext)BOGUS_HANDLE;
	EGLint v = 0, n = -1;
	EGLAttrib a = 0;

	(void)state;
	/* EGL 1.0 */
	assert_false(PROC(PFNEGLCHOOSECONFIGPROC, eglChooseConfig)(dpy, NULL, NULL, 0, NULL));
	assert_egl_error(EGL_BAD_PARAMETER);
	assert_false(PROC(PFNEGLCOPYBUFFERSPROC, eglCopyBuffers)(dpy, none_s, 0));
	assert_egl_error(EGL_BAD_SURFACE);
	assert_ptr_equal(
	    PROC(PFNEGLCREATECONTEXTPROC, eglCreateContext)(
		dpy, config, none_c, (const EGLint[]){ EGL_CONTEXT_MAJOR_VERSION, 3, EGL_NONE }),
	    EGL_NO_CONTEXT);
	assert_egl_error(EGL_BAD_CONTEXT);
	assert_ptr_equal(PROC(PFNEGLCREATEPBUFFERSURFACEPROC, eglCreatePbufferSurface)(
			     dpy, config, (const EGLint[]){ EGL_WIDTH, -1, EGL_NONE }),
			 EGL_NO_SURFACE);
	assert_egl_error(EGL_BAD_PARAMETER);
	assert_ptr_equal(
	    PROC(PFNEGLCREATEPIXMAPSURFACEPROC, eglCreatePixmapSurface)(dpy, config, 0, NULL),
	    EGL_NO_SURFACE);
	assert_int_not_equal(eglGetError(), EGL_SUCCESS);
	assert_ptr_equal(
	    PROC(PFNEGLCREATEWINDOWSURFACEPROC, eglCreateWindowSurface)(dpy, config, 0, NULL),
	    EGL_NO_SURFACE);
	assert_int_not_equal(eglGetError(), EGL_SUCCESS);
	assert_false(PROC(PFNEGLDESTROYCONTEXTPROC, eglDestroyContext)(dpy, none_c));
	assert_egl_error(EGL_BAD_CONTEXT);
	assert_false(PROC(PFNEGLDESTROYSURFACEPROC, eglDestroySurface)(dpy, none_s));
	assert_egl_error(EGL_BAD_SURFACE);
	assert_false(PROC(PFNEGLGETCONFIGATTRIBPROC, eglGetConfigAttrib)(dpy, config, 0x1234, &v));
	assert_egl_error(EGL_BAD_ATTRIBUTE);
	assert_true(PROC(PFNEGLGETCONFIGSPROC, eglGetConfigs)(dpy, NULL, 0, &n));
	assert_true(n > 0);
	assert_ptr_equal(PROC(PFNEGLGETCURRENTDISPLAYPROC, eglGetCurrentDisplay)(), EGL_NO_DISPLAY);
	assert_ptr_equal(PROC(PFNEGLGETCURRENTSURFACEPROC, eglGetCurrentSurface)(EGL_DRAW),
			 EGL_NO_SURFACE);
	assert_ptr_not_equal(PROC(PFNEGLGETDISPLAYPROC, eglGetDisplay)(EGL_DEFAULT_DISPLAY),
			     EGL_NO_DISPLAY);
	assert_egl_error(EGL_SUCCESS);
	assert_int_equal(PROC(PFNEGLGETERRORPROC, eglGetError)(), EGL_SUCCESS);
	assert_non_null(PROC(PFNEGLGETPROCADDRESSPROC, eglGetProcAddress)("eglGetProcAddress"));
	assert_false(PROC(PFNEGLINITIALIZEPROC, eglInitialize)(EGL_NO_DISPLAY, NULL, NULL));
	assert_egl_error(EGL_BAD_DISPLAY);
	assert_false(PROC(PFNEGLMAKECURRENTPROC, eglMakeCurrent)(dpy, none_s, none_s, none_c));
	assert_int_not_equal(eglGetError(), EGL_SUCCESS);
	assert_false(PROC(PFNEGLQUERYCONTEXTPROC, eglQueryContext)(dpy, none_c, EGL_CONFIG_ID, &v));
	assert_egl_error(EGL_BAD_CONTEXT);
	assert_null(PROC(PFNEGLQUERYSTRINGPROC, eglQueryString)(dpy, 0x1234));
	assert_egl_error(EGL_BAD_PARAMETER);
	assert_false(PROC(PFNEGLQUERYSURFACEPROC, eglQuerySurface)(dpy, none_s, EGL_WIDTH, &v));
	assert_egl_error(EGL_BAD_SURFACE);
	assert_false(PROC(PFNEGLSWAPBUFFERSPROC, eglSwapBuffers)(dpy, none_s));
	assert_egl_error(EGL_BAD_SURFACE);
	assert_false(PROC(PFNEGLTERMINATEPROC, eglTerminate)(EGL_NO_DISPLAY));
	assert_egl_error(EGL_BAD_DISPLAY);
	assert_true(PROC(PFNEGLWAITGLPROC, eglWaitGL)());
	assert_true(PROC(PFNEGLWAITNATIVEPROC, eglWaitNative)(EGL_CORE_NATIVE_ENGINE));
	/* EGL 1.1 */
	assert_false(PROC(PFNEGLBINDTEXIMAGEPROC, eglBindTexImage)(dpy, none_s, EGL_BACK_BUFFER));
	assert_egl_error(EGL_BAD_SURFACE);
	assert_false(
	    PROC(PFNEGLRELEASETEXIMAGEPROC, eglReleaseTexImage)(dpy, none_s, EGL_BACK_BUFFER));
	assert_egl_error(EGL_BAD_SURFACE);
	assert_false(
	    PROC(PFNEGLSURFACEATTRIBPROC, eglSurfaceAttrib)(dpy, none_s, EGL_SWAP_BEHAVIOR, 0));
	assert_egl_error(EGL_BAD_SURFACE);
	assert_false(PROC(PFNEGLSWAPINTERVALPROC, eglSwapInterval)(dpy, 1));
	assert_egl_error(EGL_BAD_CONTEXT); /* no current context */
	/* EGL 1.2 */
	assert_false(PROC(PFNEGLBINDAPIPROC, eglBindAPI)(0x1234));
	assert_egl_error(EGL_BAD_PARAMETER);
	assert_int_equal(PROC(PFNEGLQUERYAPIPROC, eglQueryAPI)(), EGL_OPENGL_ES_API);
	assert_ptr_equal(
	    PROC(PFNEGLCREATEPBUFFERFROMCLIENTBUFFERPROC,
		 eglCreatePbufferFromClientBuffer)(dpy, EGL_OPENVG_IMAGE, NULL, config, NULL),
	    EGL_NO_SURFACE);
	assert_int_not_equal(eglGetError(), EGL_SUCCESS);
	assert_true(PROC(PFNEGLWAITCLIENTPROC, eglWaitClient)());
	/* EGL 1.4 */
	assert_ptr_equal(PROC(PFNEGLGETCURRENTCONTEXTPROC, eglGetCurrentContext)(), EGL_NO_CONTEXT);
	/* EGL 1.5 */
	assert_ptr_equal(PROC(PFNEGLCREATESYNCPROC, eglCreateSync)(dpy, EGL_SYNC_FENCE, NULL),
			 EGL_NO_SYNC);
	assert_egl_error(EGL_BAD_MATCH); /* no current context */
	assert_false(PROC(PFNEGLDESTROYSYNCPROC, eglDestroySync)(dpy, BOGUS_HANDLE));
	assert_egl_error(EGL_BAD_PARAMETER);
	assert_false(PROC(PFNEGLCLIENTWAITSYNCPROC, eglClientWaitSync)(dpy, BOGUS_HANDLE, 0, 0));
	assert_egl_error(EGL_BAD_PARAMETER);
	assert_false(
	    PROC(PFNEGLGETSYNCATTRIBPROC, eglGetSyncAttrib)(dpy, BOGUS_HANDLE, EGL_SYNC_TYPE, &a));
	assert_egl_error(EGL_BAD_PARAMETER);
	assert_ptr_equal(
	    PROC(PFNEGLCREATEIMAGEPROC, eglCreateImage)(dpy, EGL_NO_CONTEXT, 0x1234, NULL, NULL),
	    EGL_NO_IMAGE);
	assert_int_not_equal(eglGetError(), EGL_SUCCESS);
	assert_false(PROC(PFNEGLDESTROYIMAGEPROC, eglDestroyImage)(dpy, BOGUS_HANDLE));
	assert_egl_error(EGL_BAD_PARAMETER);
	assert_ptr_equal(
	    PROC(PFNEGLGETPLATFORMDISPLAYPROC, eglGetPlatformDisplay)(0x1234, NULL, NULL),
	    EGL_NO_DISPLAY);
	assert_egl_error(EGL_BAD_PARAMETER);
	assert_ptr_equal(PROC(PFNEGLCREATEPLATFORMWINDOWSURFACEPROC,
			      eglCreatePlatformWindowSurface)(dpy, config, NULL, NULL),
			 EGL_NO_SURFACE);
	assert_int_not_equal(eglGetError(), EGL_SUCCESS);
	assert_ptr_equal(PROC(PFNEGLCREATEPLATFORMPIXMAPSURFACEPROC,
			      eglCreatePlatformPixmapSurface)(dpy, config, NULL, NULL),
			 EGL_NO_SURFACE);
	assert_int_not_equal(eglGetError(), EGL_SUCCESS);
	assert_false(PROC(PFNEGLWAITSYNCPROC, eglWaitSync)(dpy, BOGUS_HANDLE, 0));
	assert_egl_error(EGL_BAD_PARAMETER);
	assert_true(PROC(PFNEGLRELEASETHREADPROC, eglReleaseThread)());
	assert_true(eglTerminate(dpy));
}

/* Section 3.2: eglTerminate with a context current in this thread. */
static void test_terminate(void **state)
{
	EGLDisplay dpy = eglGetDisplay(EGL_DEFAULT_DISPLAY);
	EGLConfig config;
	EGLSurface surf;
	EGLContext ctx, idle;
	EGLint value;

	(void)state;
	assert_true(eglInitialize(dpy, NULL, NULL));
	config = config_by_id(dpy, 2);
	surf = pbuffer(dpy, config, 8, 8);
	ctx = context(dpy, config, EGL_NO_CONTEXT, 3);
	idle = context(dpy, config, EGL_NO_CONTEXT, 2);
	assert_true(eglMakeCurrent(dpy, surf, surf, ctx));
	assert_true(eglTerminate(dpy));
	/* handles invalid at once, the current context alive until released */
	assert_false(eglQueryContext(dpy, idle, EGL_CONFIG_ID, &value));
	assert_egl_error(EGL_NOT_INITIALIZED);
	assert_ptr_equal(eglGetCurrentContext(), ctx);
	assert_string_equal((const char *)glGetString(GL_VENDOR), "AGX driver stack");
	/* (the same bindings again libEGL answers itself) */
	assert_false(eglMakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, ctx));
	assert_egl_error(EGL_NOT_INITIALIZED);
	/* releasing is the one thing an uninitialized display is good for */
	assert_true(eglMakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT));
	assert_ptr_equal(eglGetCurrentContext(), EGL_NO_CONTEXT);
	assert_true(eglTerminate(dpy));
	/* and the display can start again */
	assert_true(eglInitialize(dpy, NULL, NULL));
	ctx = context(dpy, config_by_id(dpy, 1), EGL_NO_CONTEXT, 2);
	assert_true(eglMakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, ctx));
	assert_string_equal((const char *)glGetString(GL_VENDOR), "AGX driver stack");
	/* eglReleaseThread after eglTerminate: the context goes with it */
	assert_true(eglTerminate(dpy));
	assert_true(eglReleaseThread());
	assert_ptr_equal(eglGetCurrentContext(), EGL_NO_CONTEXT);
	assert_false(eglTerminate((EGLDisplay)&value));
	assert_egl_error(EGL_BAD_DISPLAY);
}

static int setup(void **state)
{
	struct test_stack *s = calloc(1, sizeof(*s));

	test_stack_start(s, &options);
	setenv("AGX_MEMMGR_SOCKET", s->memmgr, 1);
	setenv("AGX_SCHEDULER_SOCKET", s->sched, 1);
	*state = s;
	return 0;
}

static int teardown(void **state)
{
	struct test_stack *s = *state;
	bool clean;

	/* the displays' connections go before the daemons do */
	eglTerminate(
	    eglGetPlatformDisplay(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, NULL));
	eglTerminate(eglGetDisplay(EGL_DEFAULT_DISPLAY));
	eglReleaseThread();
	clean = test_stack_stop(s);
	free(s);
	assert_true(clean);
	return 0;
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_client_extensions),
		cmocka_unit_test(test_displays),
		cmocka_unit_test(test_unreachable),
		cmocka_unit_test(test_initialize),
		cmocka_unit_test(test_configs),
		cmocka_unit_test(test_choose_config),
		cmocka_unit_test(test_pbuffer),
		cmocka_unit_test(test_multisampled_pbuffer),
		cmocka_unit_test(test_contexts),
		cmocka_unit_test(test_share_lists),
		cmocka_unit_test(test_robustness),
		cmocka_unit_test(test_gl_strings_and_errors),
		cmocka_unit_test(test_make_current_errors),
		cmocka_unit_test(test_threads),
		cmocka_unit_test(test_destroy_current),
		cmocka_unit_test(test_egl15_functions),
		cmocka_unit_test(test_terminate),
	};

	if (!getenv("__EGL_VENDOR_LIBRARY_FILENAMES")) {
		fprintf(stderr, "%s: __EGL_VENDOR_LIBRARY_FILENAMES names no vendor file\n",
			argv[0]);
		return 2;
	}
	return test_stack_run(argc, argv, &options, tests, sizeof(tests) / sizeof(tests[0]), setup,
			      teardown);
}
