/*
 * test-egl-x11: libEGL_agx's X11 displays through glvnd's libEGL and
 * libGLESv2, over the real stack, on an X server of the test's own (Xvfb,
 * screen 0 of depth 24, screen 1 of depth 16): the platform and its
 * display attributes, the window configs and their visuals, window
 * surfaces (creation, queries, every error), and eglSwapBuffers showing
 * the colour buffer in the window -- read back with GetImage, pixel for
 * pixel, bottom row at the bottom -- in windows of depth 24, 32 and 16,
 * following a resize, and failing once the window is gone.  Skipped
 * without Xvfb.
 */
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
#include <GLES2/gl2.h>
#include <X11/Xlib-xcb.h>
#include <X11/Xlib.h>
#include <X11/Xutil.h>
#include <xcb/xcb.h>

#include "stack.h"
#include "xvfb.h"

#define assert_egl_error(expected) assert_int_equal(eglGetError(), (expected))
/* an X11 display's configs: the 25 pbuffer ones, then from ARGB on the 32-bit visual's */
#define X11_CONFIGS 60
#define ARGB	    26
/* ARGB's twins of 4 samples, and where the ARGB ones are in eglGetConfigs's list */
#define ARGB_MS 56
#define ARGB_AT 50

static struct test_stack_options options;

struct fixture {
	struct test_stack stack;
	struct test_xvfb xvfb;
	bool have_x;
	Display *x;
	xcb_connection_t *conn;
};

static struct fixture *fx;

#define SKIP_WITHOUT_X()                                                                           \
	do {                                                                                       \
		if (!fx->have_x)                                                                   \
			skip();                                                                    \
	} while (0)

static EGLDisplay x11_display(const EGLAttrib *attribs)
{
	EGLDisplay dpy = eglGetPlatformDisplay(EGL_PLATFORM_X11_KHR, fx->x, attribs);

	assert_ptr_not_equal(dpy, EGL_NO_DISPLAY);
	assert_true(eglInitialize(dpy, NULL, NULL));
	return dpy;
}

static EGLDisplay screen_display(int screen)
{
	const EGLAttrib attribs[] = { EGL_PLATFORM_X11_SCREEN_KHR, screen, EGL_NONE };

	return x11_display(attribs);
}

static EGLint config_attrib(EGLDisplay dpy, EGLConfig config, EGLint attribute)
{
	EGLint value = -12345;

	assert_true(eglGetConfigAttrib(dpy, config, attribute, &value));
	return value;
}

static EGLConfig config_by_id(EGLDisplay dpy, EGLint id)
{
	const EGLint attribs[] = { EGL_CONFIG_ID, id, EGL_NONE };
	EGLConfig config;
	EGLint n;

	assert_true(eglChooseConfig(dpy, attribs, &config, 1, &n));
	assert_int_equal(n, 1);
	return config;
}

static EGLint query_surface(EGLDisplay dpy, EGLSurface surf, EGLint attribute)
{
	EGLint value = -12345;

	assert_true(eglQuerySurface(dpy, surf, attribute, &value));
	return value;
}

/* The visual of screen with this depth and these masks, TrueColor; NULL if none (XFree it). */
static XVisualInfo *find_visual(int screen, int depth, unsigned long red)
{
	XVisualInfo want = {
		.screen = screen, .depth = depth, .class = TrueColor, .red_mask = red
	};
	int n;
	XVisualInfo *v = XGetVisualInfo(
	    fx->x, VisualScreenMask | VisualDepthMask | VisualClassMask | VisualRedMaskMask, &want,
	    &n);

	return n > 0 ? v : NULL;
}

/* The visual of a config's EGL_NATIVE_VISUAL_ID, as es2_info finds it. */
static XVisualInfo *config_visual(EGLDisplay dpy, EGLConfig config)
{
	XVisualInfo want = { .visualid =
				 (VisualID)config_attrib(dpy, config, EGL_NATIVE_VISUAL_ID) };
	int n;
	XVisualInfo *v = XGetVisualInfo(fx->x, VisualIDMask, &want, &n);

	assert_non_null(v);
	return v;
}

/* A mapped w x h window at 0,0 of its screen, of visual v. */
static Window make_window(const XVisualInfo *v, unsigned w, unsigned h)
{
	Window root = RootWindow(fx->x, v->screen);
	XSetWindowAttributes attr = {
		.background_pixel = 0,
		.border_pixel = 0,
		.colormap = XCreateColormap(fx->x, root, v->visual, AllocNone),
	};
	Window win = XCreateWindow(fx->x, root, 0, 0, w, h, 0, v->depth, InputOutput, v->visual,
				   CWBackPixel | CWBorderPixel | CWColormap, &attr);

	XMapWindow(fx->x, win);
	XSync(fx->x, False);
	return win;
}

static EGLContext make_current(EGLDisplay dpy, EGLConfig config, EGLSurface surf)
{
	const EGLint attribs[] = { EGL_CONTEXT_CLIENT_VERSION, 2, EGL_NONE };
	EGLContext ctx = eglCreateContext(dpy, config, EGL_NO_CONTEXT, attribs);

	assert_ptr_not_equal(ctx, EGL_NO_CONTEXT);
	assert_true(eglMakeCurrent(dpy, surf, surf, ctx));
	return ctx;
}

static void release(EGLDisplay dpy, EGLContext ctx)
{
	assert_true(eglMakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT));
	assert_true(eglDestroyContext(dpy, ctx));
}

/* The window's pixels (rows padded to 32 bits), read back by GetImage: free() them. */
static xcb_get_image_reply_t *get_image(Window win, unsigned w, unsigned h)
{
	xcb_generic_error_t *err = NULL;
	xcb_get_image_reply_t *reply;

	XSync(fx->x, False);
	reply = xcb_get_image_reply(fx->conn,
				    xcb_get_image(fx->conn, XCB_IMAGE_FORMAT_Z_PIXMAP,
						  (xcb_drawable_t)win, 0, 0, (uint16_t)w,
						  (uint16_t)h, ~0u),
				    &err);
	assert_null(err);
	assert_non_null(reply);
	return reply;
}

/* Pixel x, y (y from the top) of a GetImage reply of a w-wide image of bpp bytes. */
static uint32_t pixel(xcb_get_image_reply_t *reply, unsigned w, unsigned bpp, unsigned x,
		      unsigned y)
{
	const uint8_t *p = xcb_get_image_data(reply) + y * ((w * bpp + 3) / 4 * 4) + x * bpp;

	return bpp == 2 ? (uint32_t)(p[0] | p[1] << 8)
			: (uint32_t)(p[0] | p[1] << 8 | p[2] << 16 | (uint32_t)p[3] << 24);
}

/*
 * Clears the surface to outside, and the w2 x h2 rectangle at its bottom
 * left (GL's window origin) to inside, by the GPU.
 */
static void clear_pattern(const float outside[4], const float inside[4], int w2, int h2)
{
	glDisable(GL_SCISSOR_TEST);
	glClearColor(outside[0], outside[1], outside[2], outside[3]);
	glClear(GL_COLOR_BUFFER_BIT);
	glEnable(GL_SCISSOR_TEST);
	glScissor(0, 0, w2, h2);
	glClearColor(inside[0], inside[1], inside[2], inside[3]);
	glClear(GL_COLOR_BUFFER_BIT);
	glDisable(GL_SCISSOR_TEST);
	assert_int_equal(glGetError(), GL_NO_ERROR);
}

/* The window shows outside everywhere but the w2 x h2 rectangle at its bottom left. */
static void check_pattern(Window win, unsigned w, unsigned h, unsigned bpp, uint32_t mask,
			  uint32_t outside, uint32_t inside, unsigned w2, unsigned h2)
{
	xcb_get_image_reply_t *reply = get_image(win, w, h);

	for (unsigned y = 0; y < h; y++) {
		for (unsigned x = 0; x < w; x++) {
			bool in = x < w2 && y >= h - h2;
			uint32_t got = pixel(reply, w, bpp, x, y) & mask;

			if (got != (in ? inside : outside))
				fail_msg("window pixel %u,%u is %#x, not %#x", x, y, got,
					 in ? inside : outside);
		}
	}
	free(reply);
}

/* ---- the platform ---------------------------------------------------------------------- */

static void test_platform(void **state)
{
	const EGLAttrib bad_name[] = { EGL_WIDTH, 1, EGL_NONE };
	const EGLAttrib bad_screen[] = { EGL_PLATFORM_X11_SCREEN_KHR, -1, EGL_NONE };
	const EGLAttrib no_screen[] = { EGL_PLATFORM_X11_SCREEN_KHR, 7, EGL_NONE };
	const char *ext = eglQueryString(EGL_NO_DISPLAY, EGL_EXTENSIONS);
	const char *display = getenv("DISPLAY");
	PFNEGLGETPLATFORMDISPLAYEXTPROC get_platform_display_ext =
	    (PFNEGLGETPLATFORMDISPLAYEXTPROC)eglGetProcAddress("eglGetPlatformDisplayEXT");
	EGLDisplay dpy, def, other;
	EGLint n;

	(void)state;
	SKIP_WITHOUT_X();
	assert_non_null(get_platform_display_ext);
	assert_non_null(strstr(ext, "EGL_KHR_platform_x11"));
	assert_non_null(strstr(ext, "EGL_EXT_platform_x11"));
	dpy = x11_display(NULL);
	/* the same arguments, the same display; eglGetDisplay of an Xlib Display is that one */
	assert_ptr_equal(eglGetPlatformDisplay(EGL_PLATFORM_X11_KHR, fx->x, NULL), dpy);
	assert_ptr_equal(get_platform_display_ext(EGL_PLATFORM_X11_EXT, fx->x, NULL), dpy);
	assert_ptr_equal(eglGetDisplay((EGLNativeDisplayType)fx->x), dpy);
	assert_string_equal(eglQueryString(dpy, EGL_VENDOR), "AGX driver stack");
	assert_string_equal(eglQueryString(dpy, EGL_CLIENT_APIS), "OpenGL_ES");
	/* display attributes: the screen, a screen number */
	assert_ptr_equal(eglGetPlatformDisplay(EGL_PLATFORM_X11_KHR, fx->x, bad_name),
			 EGL_NO_DISPLAY);
	assert_egl_error(EGL_BAD_ATTRIBUTE);
	assert_ptr_equal(eglGetPlatformDisplay(EGL_PLATFORM_X11_KHR, fx->x, bad_screen),
			 EGL_NO_DISPLAY);
	assert_egl_error(EGL_BAD_ATTRIBUTE);
	other = eglGetPlatformDisplay(EGL_PLATFORM_X11_KHR, fx->x, no_screen);
	assert_ptr_not_equal(other, EGL_NO_DISPLAY);
	assert_ptr_not_equal(other, dpy);
	assert_false(eglInitialize(other, NULL, NULL));
	assert_egl_error(EGL_NOT_INITIALIZED);

	/* EGL_DEFAULT_DISPLAY: the server of $DISPLAY, connected to by eglInitialize */
	def = eglGetPlatformDisplay(EGL_PLATFORM_X11_KHR, EGL_DEFAULT_DISPLAY, NULL);
	assert_ptr_not_equal(def, EGL_NO_DISPLAY);
	assert_ptr_not_equal(def, dpy);
	setenv("DISPLAY", ":32000", 1); /* no server there */
	assert_false(eglInitialize(def, NULL, NULL));
	assert_egl_error(EGL_NOT_INITIALIZED);
	setenv("DISPLAY", display, 1);
	assert_true(eglInitialize(def, NULL, NULL));
	assert_true(eglGetConfigs(def, NULL, 0, &n));
	assert_int_equal(n, X11_CONFIGS);
	assert_int_equal(config_attrib(def, config_by_id(def, 1), EGL_NATIVE_VISUAL_ID),
			 config_attrib(dpy, config_by_id(dpy, 1), EGL_NATIVE_VISUAL_ID));
	/* a config is its display's own */
	assert_false(eglGetConfigAttrib(def, config_by_id(dpy, 1), EGL_RED_SIZE, &n));
	assert_egl_error(EGL_BAD_CONFIG);
	assert_true(eglTerminate(def));
	/* terminated and initialized again */
	assert_true(eglInitialize(def, NULL, NULL));
	assert_true(eglTerminate(def));
	/* eglGetDisplay(EGL_DEFAULT_DISPLAY) stays the default display, not an X11 one */
	assert_ptr_not_equal(eglGetDisplay(EGL_DEFAULT_DISPLAY), def);
}

/* ---- configs ---------------------------------------------------------------------------- */

/* Config id of dpy (screen) is a window config of a visual with depth and red mask, or none. */
static void check_window_config(EGLDisplay dpy, int screen, EGLint id, int depth, unsigned long red)
{
	EGLConfig config = config_by_id(dpy, id);
	XVisualInfo *want = find_visual(screen, depth, red);

	if (!want) {
		assert_int_equal(config_attrib(dpy, config, EGL_SURFACE_TYPE), EGL_PBUFFER_BIT);
		assert_int_equal(config_attrib(dpy, config, EGL_NATIVE_VISUAL_ID), 0);
		assert_int_equal(config_attrib(dpy, config, EGL_NATIVE_VISUAL_TYPE), EGL_NONE);
		return;
	}
	XFree(want);
	assert_int_equal(config_attrib(dpy, config, EGL_SURFACE_TYPE),
			 EGL_WINDOW_BIT | EGL_PBUFFER_BIT);
	assert_int_equal(config_attrib(dpy, config, EGL_NATIVE_VISUAL_TYPE), TrueColor);
	want = config_visual(dpy, config);
	assert_int_equal(want->screen, screen);
	assert_int_equal(want->depth, depth);
	assert_int_equal(want->class, TrueColor);
	assert_int_equal(want->red_mask, red);
	XFree(want);
}

static void test_configs(void **state)
{
	/* es2_info's request: the default EGL_SURFACE_TYPE, EGL_WINDOW_BIT */
	const EGLint es2_info[] = { EGL_RENDERABLE_TYPE,
				    EGL_OPENGL_ES2_BIT,
				    EGL_RED_SIZE,
				    1,
				    EGL_GREEN_SIZE,
				    1,
				    EGL_BLUE_SIZE,
				    1,
				    EGL_NONE };
	const EGLint true_color[] = { EGL_RENDERABLE_TYPE, EGL_OPENGL_ES2_BIT,
				      EGL_NATIVE_VISUAL_TYPE, TrueColor, EGL_NONE };
	EGLDisplay dpy, dpy16;
	EGLConfig configs[64];
	XVisualInfo *v;
	EGLint n;

	(void)state;
	SKIP_WITHOUT_X();
	dpy = screen_display(0);
	/*
	 * the 25 pbuffer configs and their 4x twins (31 to 55), then the
	 * RGBA8888 ones (1, 2, 5, 6, 24) again for the 32-bit visual (26 to
	 * 30), and their twins (56 to 60)
	 */
	assert_true(eglGetConfigs(dpy, configs, 64, &n));
	assert_int_equal(n, X11_CONFIGS);
	for (int i = 0; i < n; i++)
		assert_int_equal(config_attrib(dpy, configs[i], EGL_CONFIG_ID), i < 25	 ? i + 1
										: i < 50 ? i + 6
										: i < 55 ? i - 24
											 : i + 1);
	for (int i = 0; i < n; i++)
		assert_int_equal(config_attrib(dpy, configs[i], EGL_SAMPLES),
				 (i >= 25 && i < 50) || i >= 55 ? 4 : 0);
	for (int i = ARGB_AT; i < X11_CONFIGS; i++)
		assert_int_equal(config_attrib(dpy, configs[i], EGL_ALPHA_SIZE), 8);
	for (int k = 0; k < 2; k++) {
		int at = ARGB_AT + 5 * k;

		assert_int_equal(config_attrib(dpy, configs[at + 1], EGL_DEPTH_SIZE), 24);
		assert_int_equal(config_attrib(dpy, configs[at + 1], EGL_STENCIL_SIZE), 8);
		assert_int_equal(config_attrib(dpy, configs[at + 2], EGL_DEPTH_SIZE), 16);
		assert_int_equal(config_attrib(dpy, configs[at + 3], EGL_STENCIL_SIZE), 0);
		assert_int_equal(config_attrib(dpy, configs[at + 4], EGL_DEPTH_SIZE), 32);
	}
	for (EGLint id = 1; id <= 25; id++) {
		bool rgb565 = id == 3 || id == 4 || id == 7 || id == 8 || id == 25;

		/* RGB10_A2 and half float (14 to 23) have no windows, nor their twins */
		if (id >= 14 && id <= 23) {
			assert_int_equal(
			    config_attrib(dpy, config_by_id(dpy, id), EGL_SURFACE_TYPE),
			    EGL_PBUFFER_BIT);
			assert_int_equal(
			    config_attrib(dpy, config_by_id(dpy, id + 30), EGL_SURFACE_TYPE),
			    EGL_PBUFFER_BIT);
			continue;
		}
		check_window_config(dpy, 0, id, rgb565 ? 16 : 24, rgb565 ? 0xf800 : 0xff0000);
		check_window_config(dpy, 0, id + 30, rgb565 ? 16 : 24, rgb565 ? 0xf800 : 0xff0000);
	}
	for (EGLint id = ARGB; id < ARGB + 5; id++) {
		check_window_config(dpy, 0, id, 32, 0xff0000);
		check_window_config(dpy, 0, id + 30, 32, 0xff0000);
	}
	/* the screen's own visual where it fits: windows that name none get it */
	assert_int_equal(config_attrib(dpy, configs[0], EGL_NATIVE_VISUAL_ID),
			 (EGLint)XVisualIDFromVisual(DefaultVisual(fx->x, 0)));
	/*
	 * es2_info gets config 9 (RGB888: as many colour bits as RGBA8888's,
	 * which es2_info does not ask alpha of, in a smaller buffer), and finds its visual
	 */
	assert_true(eglChooseConfig(dpy, es2_info, configs, 1, &n));
	assert_int_equal(n, 1);
	assert_int_equal(config_attrib(dpy, configs[0], EGL_CONFIG_ID), 9);
	v = config_visual(dpy, configs[0]);
	assert_int_equal(v->depth, 24);
	XFree(v);
	/* windows: RGBA8888 1, 2, 5, 6, 24; RGB888 9 to 13; ARGB 26 to 30; and their twins */
	assert_true(eglChooseConfig(dpy, true_color, configs, 64, &n));
	assert_int_equal(n, 30);
	for (int i = 0; i < n; i++)
		assert_true(config_attrib(dpy, configs[i], EGL_SURFACE_TYPE) & EGL_WINDOW_BIT);

	/* screen 1, of depth 16: RGB565 windows */
	dpy16 = screen_display(1);
	assert_true(eglGetConfigs(dpy16, NULL, 0, &n));
	check_window_config(dpy16, 1, 3, 16, 0xf800);
	check_window_config(dpy16, 1, 4, 16, 0xf800);
	check_window_config(dpy16, 1, 1, 24, 0xff0000);
	check_window_config(dpy16, 1, 7, 16, 0xf800);
	check_window_config(dpy16, 1, 8, 16, 0xf800);
	check_window_config(dpy16, 1, 25, 16, 0xf800);
	check_window_config(dpy16, 1, 33, 16, 0xf800);
	if (n > 50)
		check_window_config(dpy16, 1, ARGB, 32, 0xff0000);
	/* the surfaceless platform has pbuffers only, as before */
	{
		EGLDisplay sl =
		    eglGetPlatformDisplay(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, NULL);

		assert_true(eglInitialize(sl, NULL, NULL));
		assert_true(eglGetConfigs(sl, NULL, 0, &n));
		assert_int_equal(n, 50);
		assert_int_equal(config_attrib(sl, config_by_id(sl, 1), EGL_SURFACE_TYPE),
				 EGL_PBUFFER_BIT);
		assert_int_equal(config_attrib(sl, config_by_id(sl, 1), EGL_NATIVE_VISUAL_ID), 0);
		assert_true(eglTerminate(sl));
	}
}

/* ---- window surfaces --------------------------------------------------------------------- */

static void test_window_surface(void **state)
{
	PFNEGLCREATEPLATFORMWINDOWSURFACEEXTPROC create_ext =
	    (PFNEGLCREATEPLATFORMWINDOWSURFACEEXTPROC)eglGetProcAddress(
		"eglCreatePlatformWindowSurfaceEXT");
	EGLDisplay dpy;
	EGLConfig rgba, rgb565, argb;
	XVisualInfo *v, *v32;
	Window win, win32, input_only;
	EGLSurface surf;
	EGLint value;

	(void)state;
	SKIP_WITHOUT_X();
	dpy = screen_display(0);
	rgba = config_by_id(dpy, 1);
	rgb565 = config_by_id(dpy, 3);
	argb = config_by_id(dpy, ARGB);
	v = config_visual(dpy, rgba);
	win = make_window(v, 72, 40);

	surf = eglCreateWindowSurface(dpy, rgba, win, NULL);
	assert_ptr_not_equal(surf, EGL_NO_SURFACE);
	assert_egl_error(EGL_SUCCESS);
	assert_int_equal(query_surface(dpy, surf, EGL_WIDTH), 72);
	assert_int_equal(query_surface(dpy, surf, EGL_HEIGHT), 40);
	assert_int_equal(query_surface(dpy, surf, EGL_CONFIG_ID), 1);
	assert_int_equal(query_surface(dpy, surf, EGL_RENDER_BUFFER), EGL_BACK_BUFFER);
	assert_int_equal(query_surface(dpy, surf, EGL_SWAP_BEHAVIOR), EGL_BUFFER_DESTROYED);
	/* EGL 1.5 section 3.5.6: the pbuffer attributes leave value alone for a window */
	value = -7;
	assert_true(eglQuerySurface(dpy, surf, EGL_LARGEST_PBUFFER, &value));
	assert_int_equal(value, -7);
	assert_true(eglQuerySurface(dpy, surf, EGL_TEXTURE_FORMAT, &value));
	assert_int_equal(value, -7);
	/* one surface per window */
	assert_ptr_equal(eglCreateWindowSurface(dpy, rgba, win, NULL), EGL_NO_SURFACE);
	assert_egl_error(EGL_BAD_ALLOC);
	assert_true(eglDestroySurface(dpy, surf));

	/* the platform functions take a pointer to the Window */
	surf = eglCreatePlatformWindowSurface(
	    dpy, rgba, &win, (const EGLAttrib[]){ EGL_RENDER_BUFFER, EGL_SINGLE_BUFFER, EGL_NONE });
	assert_ptr_not_equal(surf, EGL_NO_SURFACE);
	assert_int_equal(query_surface(dpy, surf, EGL_RENDER_BUFFER), EGL_SINGLE_BUFFER);
	assert_true(eglDestroySurface(dpy, surf));
	surf = create_ext(dpy, rgba, &win, NULL);
	assert_ptr_not_equal(surf, EGL_NO_SURFACE);
	assert_true(eglDestroySurface(dpy, surf));
	assert_ptr_equal(eglCreatePlatformWindowSurface(dpy, rgba, NULL, NULL), EGL_NO_SURFACE);
	assert_egl_error(EGL_BAD_NATIVE_WINDOW);

	/* no such window, an InputOnly one, None */
	assert_ptr_equal(eglCreateWindowSurface(dpy, rgba, 0x3fffff0, NULL), EGL_NO_SURFACE);
	assert_egl_error(EGL_BAD_NATIVE_WINDOW);
	assert_ptr_equal(eglCreateWindowSurface(dpy, rgba, None, NULL), EGL_NO_SURFACE);
	assert_egl_error(EGL_BAD_NATIVE_WINDOW);
	input_only = XCreateWindow(fx->x, RootWindow(fx->x, 0), 0, 0, 4, 4, 0, 0, InputOnly,
				   CopyFromParent, 0, NULL);
	assert_ptr_equal(eglCreateWindowSurface(dpy, rgba, input_only, NULL), EGL_NO_SURFACE);
	assert_egl_error(EGL_BAD_NATIVE_WINDOW);
	XDestroyWindow(fx->x, input_only);
	/* a config without windows; a window of another visual than the config's */
	assert_ptr_equal(eglCreateWindowSurface(dpy, rgb565, win, NULL), EGL_NO_SURFACE);
	assert_egl_error(EGL_BAD_MATCH);
	assert_ptr_equal(eglCreateWindowSurface(dpy, argb, win, NULL), EGL_NO_SURFACE);
	assert_egl_error(EGL_BAD_MATCH);
	v32 = config_visual(dpy, argb);
	win32 = make_window(v32, 8, 8);
	assert_ptr_equal(eglCreateWindowSurface(dpy, rgba, win32, NULL), EGL_NO_SURFACE);
	assert_egl_error(EGL_BAD_MATCH);
	surf = eglCreateWindowSurface(dpy, argb, win32, NULL);
	assert_ptr_not_equal(surf, EGL_NO_SURFACE);
	assert_true(eglDestroySurface(dpy, surf));
	XDestroyWindow(fx->x, win32);
	XFree(v32);
	/* attributes */
	assert_ptr_equal(
	    eglCreateWindowSurface(dpy, rgba, win, (const EGLint[]){ EGL_WIDTH, 10, EGL_NONE }),
	    EGL_NO_SURFACE);
	assert_egl_error(EGL_BAD_ATTRIBUTE);
	assert_ptr_equal(
	    eglCreateWindowSurface(dpy, rgba, win,
				   (const EGLint[]){ EGL_RENDER_BUFFER, 0x1234, EGL_NONE }),
	    EGL_NO_SURFACE);
	assert_egl_error(EGL_BAD_ATTRIBUTE);
	assert_ptr_equal(
	    eglCreateWindowSurface(
		dpy, rgba, win,
		(const EGLint[]){ EGL_GL_COLORSPACE, EGL_GL_COLORSPACE_SRGB, EGL_NONE }),
	    EGL_NO_SURFACE);
	assert_egl_error(EGL_BAD_MATCH);
	/* no pixmaps: no config has EGL_PIXMAP_BIT */
	assert_ptr_equal(eglCreatePixmapSurface(dpy, rgba, 0, NULL), EGL_NO_SURFACE);
	assert_egl_error(EGL_BAD_MATCH);
	/* a bad config before all else */
	assert_ptr_equal(eglCreateWindowSurface(dpy, (EGLConfig)&value, win, NULL), EGL_NO_SURFACE);
	assert_egl_error(EGL_BAD_CONFIG);
	XDestroyWindow(fx->x, win);
	XFree(v);
}

/* ---- presentation ------------------------------------------------------------------------- */

static const float red[4] = { 1, 0, 0, 1 }, blue[4] = { 0, 0, 1, 1 }, green[4] = { 0, 1, 0, 1 };

/*
 * Depth 24: the GPU's clears, shown by eglSwapBuffers; then the window
 * grows.  Config id: 2 (with depth and stencil), or its 4x twin 32, whose
 * swap shows the resolve of its multisampled colour buffer.
 */
static void swap_presents(EGLint id)
{
	EGLDisplay dpy;
	EGLConfig config;
	EGLContext ctx;
	EGLSurface surf;
	XVisualInfo *v;
	Window win;
	uint8_t rgba[4];

	dpy = screen_display(0);
	config = config_by_id(dpy, id);
	v = config_visual(dpy, config);
	win = make_window(v, 64, 48);
	surf = eglCreateWindowSurface(dpy, config, win, NULL);
	assert_ptr_not_equal(surf, EGL_NO_SURFACE);
	ctx = make_current(dpy, config, surf);
	clear_pattern(red, blue, 16, 8);
	/* what GL reads is what the window shows: row 0 is the bottom one */
	glReadPixels(0, 0, 1, 1, GL_RGBA, GL_UNSIGNED_BYTE, rgba);
	assert_memory_equal(rgba, ((const uint8_t[]){ 0, 0, 255, 255 }), 4);
	assert_true(eglSwapBuffers(dpy, surf));
	assert_egl_error(EGL_SUCCESS);
	check_pattern(win, 64, 48, 4, 0xffffff, 0xff0000, 0x0000ff, 16, 8);

	/* a resize takes effect at the next swap (EGL 1.5 section 3.10.1.1) */
	XResizeWindow(fx->x, win, 90, 70);
	XSync(fx->x, False);
	assert_int_equal(query_surface(dpy, surf, EGL_WIDTH), 64);
	assert_true(eglSwapBuffers(dpy, surf));
	assert_int_equal(query_surface(dpy, surf, EGL_WIDTH), 90);
	assert_int_equal(query_surface(dpy, surf, EGL_HEIGHT), 70);
	clear_pattern(green, red, 30, 20);
	glReadPixels(89, 69, 1, 1, GL_RGBA, GL_UNSIGNED_BYTE, rgba);
	assert_memory_equal(rgba, ((const uint8_t[]){ 0, 255, 0, 255 }), 4);
	assert_true(eglSwapBuffers(dpy, surf));
	check_pattern(win, 90, 70, 4, 0xffffff, 0x00ff00, 0xff0000, 30, 20);
	/* smaller again */
	XResizeWindow(fx->x, win, 20, 10);
	XSync(fx->x, False);
	assert_true(eglSwapBuffers(dpy, surf));
	assert_int_equal(query_surface(dpy, surf, EGL_WIDTH), 20);
	clear_pattern(blue, green, 5, 5);
	assert_true(eglSwapBuffers(dpy, surf));
	check_pattern(win, 20, 10, 4, 0xffffff, 0x0000ff, 0x00ff00, 5, 5);

	/* only the current draw surface swaps */
	release(dpy, ctx);
	assert_false(eglSwapBuffers(dpy, surf));
	assert_egl_error(EGL_BAD_SURFACE);
	assert_true(eglDestroySurface(dpy, surf));
	XDestroyWindow(fx->x, win);
	XFree(v);
}

static void test_swap_presents(void **state)
{
	(void)state;
	SKIP_WITHOUT_X();
	swap_presents(2);
}

static void test_swap_multisampled(void **state)
{
	(void)state;
	SKIP_WITHOUT_X();
	swap_presents(32);
}

/* Depth 32: the alpha the GPU wrote reaches the window. */
static void test_swap_depth32(void **state)
{
	const float half[4] = { 0, 0, 1, 0.5f }, clear[4] = { 1, 1, 0, 0 };
	EGLDisplay dpy;
	EGLConfig config;
	EGLContext ctx;
	EGLSurface surf;
	XVisualInfo *v;
	Window win;
	uint8_t in[4], out[4];

	(void)state;
	SKIP_WITHOUT_X();
	dpy = screen_display(0);
	config = config_by_id(dpy, ARGB);
	v = config_visual(dpy, config);
	assert_int_equal(v->depth, 32);
	win = make_window(v, 32, 24);
	surf = eglCreateWindowSurface(dpy, config, win, NULL);
	assert_ptr_not_equal(surf, EGL_NO_SURFACE);
	ctx = make_current(dpy, config, surf);
	clear_pattern(clear, half, 8, 4);
	glReadPixels(0, 0, 1, 1, GL_RGBA, GL_UNSIGNED_BYTE, in);
	glReadPixels(31, 23, 1, 1, GL_RGBA, GL_UNSIGNED_BYTE, out);
	assert_true(eglSwapBuffers(dpy, surf));
	check_pattern(
	    win, 32, 24, 4, 0xffffffff,
	    (uint32_t)out[3] << 24 | (uint32_t)out[0] << 16 | (uint32_t)out[1] << 8 | out[2],
	    (uint32_t)in[3] << 24 | (uint32_t)in[0] << 16 | (uint32_t)in[1] << 8 | in[2], 8, 4);
	assert_int_equal(in[3], 128); /* 0.5 of 255, rounded to nearest */
	release(dpy, ctx);
	assert_true(eglDestroySurface(dpy, surf));
	XDestroyWindow(fx->x, win);
	XFree(v);
}

/* Depth 16 on screen 1: the RGB565 colour buffer as it is. */
static void test_swap_rgb565(void **state)
{
	EGLDisplay dpy;
	EGLConfig config;
	EGLContext ctx;
	EGLSurface surf;
	XVisualInfo *v;
	Window win;

	(void)state;
	SKIP_WITHOUT_X();
	dpy = screen_display(1);
	config = config_by_id(dpy, 3);
	assert_true(config_attrib(dpy, config, EGL_SURFACE_TYPE) & EGL_WINDOW_BIT);
	v = config_visual(dpy, config);
	assert_int_equal(v->depth, 16);
	win = make_window(v, 40, 30);
	surf = eglCreateWindowSurface(dpy, config, win, NULL);
	assert_ptr_not_equal(surf, EGL_NO_SURFACE);
	ctx = make_current(dpy, config, surf);
	clear_pattern(red, blue, 10, 3);
	assert_true(eglSwapBuffers(dpy, surf));
	check_pattern(win, 40, 30, 2, 0xffff, 0xf800, 0x001f, 10, 3);
	release(dpy, ctx);
	assert_true(eglDestroySurface(dpy, surf));
	XDestroyWindow(fx->x, win);
	XFree(v);
}

/* The window destroyed under its surface: EGL_BAD_NATIVE_WINDOW at the swap. */
static void test_window_gone(void **state)
{
	EGLDisplay dpy;
	EGLConfig config;
	EGLContext ctx;
	EGLSurface surf;
	XVisualInfo *v;
	Window win;

	(void)state;
	SKIP_WITHOUT_X();
	dpy = screen_display(0);
	config = config_by_id(dpy, 1);
	v = config_visual(dpy, config);
	win = make_window(v, 16, 16);
	surf = eglCreateWindowSurface(dpy, config, win, NULL);
	assert_ptr_not_equal(surf, EGL_NO_SURFACE);
	ctx = make_current(dpy, config, surf);
	XDestroyWindow(fx->x, win);
	XSync(fx->x, False);
	glClear(GL_COLOR_BUFFER_BIT);
	assert_false(eglSwapBuffers(dpy, surf));
	assert_egl_error(EGL_BAD_NATIVE_WINDOW);
	/* the surface is still a surface, and goes */
	assert_int_equal(query_surface(dpy, surf, EGL_WIDTH), 16);
	release(dpy, ctx);
	assert_true(eglDestroySurface(dpy, surf));
	XFree(v);
}

/* eglTerminate with a window surface current: it lives until released; then all again. */
static void test_terminate_current(void **state)
{
	EGLDisplay dpy;
	EGLConfig config;
	EGLSurface surf;
	XVisualInfo *v;
	Window win;
	EGLint n;

	(void)state;
	SKIP_WITHOUT_X();
	dpy = screen_display(0);
	config = config_by_id(dpy, 1);
	v = config_visual(dpy, config);
	win = make_window(v, 16, 16);
	surf = eglCreateWindowSurface(dpy, config, win, NULL);
	assert_ptr_not_equal(surf, EGL_NO_SURFACE);
	make_current(dpy, config, surf);
	assert_true(eglTerminate(dpy));
	/* still current: GL works on it */
	glClear(GL_COLOR_BUFFER_BIT);
	glFinish();
	assert_int_equal(glGetError(), GL_NO_ERROR);
	assert_true(eglMakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT));
	assert_true(eglInitialize(dpy, NULL, NULL));
	assert_true(eglGetConfigs(dpy, NULL, 0, &n));
	assert_int_equal(n, X11_CONFIGS);
	/* the window is free for a surface again */
	surf = eglCreateWindowSurface(dpy, config_by_id(dpy, 1), win, NULL);
	assert_ptr_not_equal(surf, EGL_NO_SURFACE);
	assert_true(eglDestroySurface(dpy, surf));
	XDestroyWindow(fx->x, win);
	XFree(v);
}

/* ---- setup ---------------------------------------------------------------------------------- */

static int setup(void **state)
{
	static const char *const screens[] = { "-screen", "0",		"256x256x24", "-screen",
					       "1",	  "256x256x16", NULL };

	fx = calloc(1, sizeof(*fx));
	assert_non_null(fx);
	fx->have_x = test_xvfb_start(&fx->xvfb, screens);
	if (!fx->have_x) {
		print_message("# no Xvfb: every test skips\n");
		*state = fx;
		return 0;
	}
	setenv("DISPLAY", fx->xvfb.display, 1);
	fx->x = XOpenDisplay(fx->xvfb.display);
	assert_non_null(fx->x);
	fx->conn = XGetXCBConnection(fx->x);
	test_stack_start(&fx->stack, &options);
	setenv("AGX_MEMMGR_SOCKET", fx->stack.memmgr, 1);
	setenv("AGX_SCHEDULER_SOCKET", fx->stack.sched, 1);
	*state = fx;
	return 0;
}

static int teardown(void **state)
{
	bool clean = true;

	(void)state;
	if (fx->have_x) {
		const EGLAttrib s0[] = { EGL_PLATFORM_X11_SCREEN_KHR, 0, EGL_NONE };
		const EGLAttrib s1[] = { EGL_PLATFORM_X11_SCREEN_KHR, 1, EGL_NONE };

		/* the displays' connections go before the daemons and the X server do */
		eglReleaseThread();
		eglTerminate(eglGetPlatformDisplay(EGL_PLATFORM_X11_KHR, fx->x, NULL));
		eglTerminate(eglGetPlatformDisplay(EGL_PLATFORM_X11_KHR, fx->x, s0));
		eglTerminate(eglGetPlatformDisplay(EGL_PLATFORM_X11_KHR, fx->x, s1));
		clean = test_stack_stop(&fx->stack);
		XCloseDisplay(fx->x);
		test_xvfb_stop(&fx->xvfb);
	}
	free(fx);
	assert_true(clean);
	return 0;
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_platform),	  cmocka_unit_test(test_configs),
		cmocka_unit_test(test_window_surface),	  cmocka_unit_test(test_swap_presents),
		cmocka_unit_test(test_swap_multisampled), cmocka_unit_test(test_swap_depth32),
		cmocka_unit_test(test_swap_rgb565),	  cmocka_unit_test(test_window_gone),
		cmocka_unit_test(test_terminate_current),
	};

	if (!getenv("__EGL_VENDOR_LIBRARY_FILENAMES")) {
		fprintf(stderr, "%s: __EGL_VENDOR_LIBRARY_FILENAMES names no vendor file\n",
			argv[0]);
		return 2;
	}
	return test_stack_run(argc, argv, &options, tests, sizeof(tests) / sizeof(tests[0]), setup,
			      teardown);
}
