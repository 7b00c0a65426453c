/*
 * test-egl-wayland: libEGL_agx's Wayland displays through glvnd's libEGL,
 * over the real stack, under a weston of the test's own (its headless
 * backend and pixman renderer, desktop-shell, --debug for the
 * screenshooter, a runtime directory and socket of its own).  A window
 * made fullscreen on weston's 64x64 output shows a scene drawn by our
 * vendor and by Mesa's llvmpipe (the same calls, both on Wayland), read
 * back with weston-screenshooter and compared; then the errors EGL and
 * EGL_KHR_platform_wayland give, eglGetDisplay of a wl_display through
 * glvnd, a resize taking effect after the swap, swap interval 0 not
 * waiting for frame callbacks that never come, and a wl_egl_window
 * destroyed before its surface.  Skipped without weston.
 */
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include <EGL/egl.h>
#include <EGL/eglext.h>
#include <GLES3/gl3.h>
#include <wayland-client.h>
#include <wayland-egl.h>

#include "llvmpipe.h"
#include "stack.h"
#include "weston.h"

#define assert_egl_error(expected) assert_int_equal(eglGetError(), (expected))
#define SIZE			   64

/* ---- the scene ------------------------------------------------------------------------------- */

/*
 * eglSwapBuffers, then waits until weston has repainted with the frame:
 * the frame callback requested before the swap's commit is done.
 */
static bool swap_shown(struct test_wl_client *c, EGLDisplay dpy, EGLSurface surf)
{
	bool done;

	test_wl_client_frame(c, &done);
	return eglSwapBuffers(dpy, surf) && test_wl_client_wait(c, &done);
}

static EGLConfig window_config(EGLDisplay dpy, EGLint alpha)
{
	return llvmpipe_config(dpy, EGL_WINDOW_BIT, 3, 8, 8, 8, alpha);
}

/* An asymmetric scene: a clear, and a triangle in the top half, red at its top. */
static void draw_scene(void)
{
	static const float pos[] = { -0.75f, 0.1f, 0.75f, 0.1f, 0.0f, 0.9f };
	static const float col[] = { 0, 0, 1, 1, 0, 1, 0, 1, 1, 0, 0, 1 };

	llvmpipe_program(llvmpipe_vs_pos_col, llvmpipe_fs_col, llvmpipe_pos_col);
	glViewport(0, 0, SIZE, SIZE);
	glClearColor(0.25f, 0.5f, 0.75f, 1.0f);
	glClear(GL_COLOR_BUFFER_BIT);
	glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 0, pos);
	glVertexAttribPointer(1, 4, GL_FLOAT, GL_FALSE, 0, col);
	glEnableVertexAttribArray(0);
	glEnableVertexAttribArray(1);
	glDrawArrays(GL_TRIANGLES, 0, 3);
}

/*
 * The workload, on either vendor: the scene in a fullscreen 64x64 window,
 * swapped, and what weston shows after its repaint, row by row.
 */
static int workload(void)
{
	const EGLint ca[] = { EGL_CONTEXT_MAJOR_VERSION, 3, EGL_NONE };
	struct wl_egl_window *win;
	struct test_wl_client c;
	EGLDisplay dpy;
	EGLConfig config;
	EGLSurface surf;
	EGLContext ctx;
	unsigned w = 0, h = 0;
	uint8_t *shot;

	if (!test_wl_client_open(&c, 4, true))
		return 1;
	dpy = eglGetPlatformDisplay(EGL_PLATFORM_WAYLAND_KHR, c.display, NULL);
	if (!eglInitialize(dpy, NULL, NULL) || !(config = window_config(dpy, 8)))
		return 1;
	win = wl_egl_window_create(c.surface, SIZE, SIZE);
	surf = eglCreatePlatformWindowSurface(dpy, config, win, NULL);
	ctx = eglCreateContext(dpy, config, EGL_NO_CONTEXT, ca);
	if (surf == EGL_NO_SURFACE || ctx == EGL_NO_CONTEXT ||
	    !eglMakeCurrent(dpy, surf, surf, ctx))
		return 1;
	draw_scene();
	if (!swap_shown(&c, dpy, surf) || !(shot = test_weston_screenshot(&w, &h)) || w != SIZE ||
	    h != SIZE)
		return 1;
	for (unsigned y = 0; y < h; y++) {
		char name[64];

		snprintf(name, sizeof(name), "~2.2.2.0~shown-row-%02u", y);
		llvmpipe_record(name, shot + (size_t)y * w * 4, (size_t)w * 4);
	}
	free(shot);
	eglMakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
	eglDestroyContext(dpy, ctx);
	eglDestroySurface(dpy, surf);
	wl_egl_window_destroy(win);
	eglTerminate(dpy);
	test_wl_client_close(&c);
	return 0;
}

/* ---- the fixture ---------------------------------------------------------------------------- */

static struct test_stack_options options;

struct fixture {
	struct test_stack stack;
	struct test_weston weston;
	bool have_weston;
};

static struct fixture *fx;

#define SKIP_WITHOUT_WESTON()                                                                      \
	do {                                                                                       \
		if (!fx->have_weston)                                                              \
			skip();                                                                    \
	} while (0)

static void test_llvmpipe(void **state)
{
	(void)state;
	SKIP_WITHOUT_WESTON();
	llvmpipe_compare(&fx->stack, SIZE);
}

/* eglGetPlatformDisplay's and glvnd's eglGetDisplay's, the platform's errors. */
static void test_display(void **state)
{
	const EGLAttrib bad[] = { EGL_WIDTH, 1, EGL_NONE };
	char name[128];
	const char *ext;
	struct test_wl_client c;
	EGLDisplay dpy;

	(void)state;
	SKIP_WITHOUT_WESTON();
	ext = eglQueryString(EGL_NO_DISPLAY, EGL_EXTENSIONS);
	assert_non_null(strstr(ext, "EGL_KHR_platform_wayland"));
	assert_non_null(strstr(ext, "EGL_EXT_platform_wayland"));
	assert_true(test_wl_client_open(&c, 4, false));
	assert_ptr_equal(eglGetPlatformDisplay(EGL_PLATFORM_WAYLAND_KHR, c.display, bad),
			 EGL_NO_DISPLAY);
	assert_egl_error(EGL_BAD_ATTRIBUTE);
	dpy = eglGetPlatformDisplay(EGL_PLATFORM_WAYLAND_KHR, c.display, NULL);
	assert_ptr_not_equal(dpy, EGL_NO_DISPLAY);
	/* glvnd recognizes a wl_display and hands it to us as the same platform */
	assert_ptr_equal(eglGetDisplay((EGLNativeDisplayType)c.display), dpy);
	assert_true(eglInitialize(dpy, NULL, NULL));
	assert_string_equal(eglQueryString(dpy, EGL_VENDOR), "AGX driver stack");
	assert_true(eglTerminate(dpy));
	test_wl_client_close(&c);
	/* EGL_DEFAULT_DISPLAY: our own connection to $WAYLAND_DISPLAY's compositor, if there is one
	 */
	dpy = eglGetPlatformDisplay(EGL_PLATFORM_WAYLAND_KHR, EGL_DEFAULT_DISPLAY, NULL);
	assert_ptr_not_equal(dpy, EGL_NO_DISPLAY);
	strcpy(name, getenv("WAYLAND_DISPLAY"));
	setenv("WAYLAND_DISPLAY", "/nonexistent/wayland-socket", 1);
	assert_false(eglInitialize(dpy, NULL, NULL));
	assert_egl_error(EGL_NOT_INITIALIZED);
	setenv("WAYLAND_DISPLAY", name, 1);
	assert_true(eglInitialize(dpy, NULL, NULL));
	assert_true(eglTerminate(dpy));
}

/* EGL 1.5 section 3.5.1 and EGL_KHR_platform_wayland's errors of window surfaces. */
static void test_window_errors(void **state)
{
	struct wl_egl_window *win, *not_surface;
	EGLConfig config, pbuffer_config = NULL, all[64];
	EGLSurface surf;
	EGLint n = 0, type = 0;
	struct test_wl_client c;
	EGLDisplay dpy;

	(void)state;
	SKIP_WITHOUT_WESTON();
	assert_true(test_wl_client_open(&c, 4, false));
	dpy = eglGetPlatformDisplay(EGL_PLATFORM_WAYLAND_KHR, c.display, NULL);
	assert_true(eglInitialize(dpy, NULL, NULL));
	assert_non_null(config = window_config(dpy, 8));
	/* the deeper formats (RGB10A2, RGBA16F) are pbuffers only */
	assert_true(eglGetConfigs(dpy, all, 64, &n));
	for (EGLint i = 0; i < n && !pbuffer_config; i++)
		if (eglGetConfigAttrib(dpy, all[i], EGL_SURFACE_TYPE, &type) &&
		    !(type & EGL_WINDOW_BIT))
			pbuffer_config = all[i];
	assert_non_null(pbuffer_config);
	win = wl_egl_window_create(c.surface, SIZE, SIZE);
	/* a config without windows */
	assert_ptr_equal(eglCreatePlatformWindowSurface(dpy, pbuffer_config, win, NULL),
			 EGL_NO_SURFACE);
	assert_egl_error(EGL_BAD_MATCH);
	/* no window, and a wl_egl_window of something that is no wl_surface */
	assert_ptr_equal(eglCreatePlatformWindowSurface(dpy, config, NULL, NULL), EGL_NO_SURFACE);
	assert_egl_error(EGL_BAD_NATIVE_WINDOW);
	assert_ptr_equal(eglCreateWindowSurface(dpy, config, 0, NULL), EGL_NO_SURFACE);
	assert_egl_error(EGL_BAD_NATIVE_WINDOW);
	not_surface = wl_egl_window_create((struct wl_surface *)c.compositor, SIZE, SIZE);
	assert_ptr_equal(eglCreatePlatformWindowSurface(dpy, config, not_surface, NULL),
			 EGL_NO_SURFACE);
	assert_egl_error(EGL_BAD_NATIVE_WINDOW);
	wl_egl_window_destroy(not_surface);
	/* one surface per window */
	surf = eglCreateWindowSurface(dpy, config, (EGLNativeWindowType)win, NULL);
	assert_ptr_not_equal(surf, EGL_NO_SURFACE);
	assert_ptr_equal(eglCreatePlatformWindowSurface(dpy, config, win, NULL), EGL_NO_SURFACE);
	assert_egl_error(EGL_BAD_ALLOC);
	/* no pixmaps on Wayland */
	assert_ptr_equal(eglCreatePlatformPixmapSurface(dpy, config, win, NULL), EGL_NO_SURFACE);
	assert_egl_error(EGL_BAD_PARAMETER);
	assert_true(eglDestroySurface(dpy, surf));
	/* the window is free again */
	surf = eglCreatePlatformWindowSurface(dpy, config, win, NULL);
	assert_ptr_not_equal(surf, EGL_NO_SURFACE);
	assert_true(eglDestroySurface(dpy, surf));
	wl_egl_window_destroy(win);
	assert_true(eglTerminate(dpy));
	test_wl_client_close(&c);
}

/* Makes a current context on a new window surface of c's surface. */
static EGLSurface window_current(struct test_wl_client *c, EGLDisplay *dpy,
				 struct wl_egl_window **win, EGLContext *ctx, int w, int h)
{
	const EGLint ca[] = { EGL_CONTEXT_MAJOR_VERSION, 3, EGL_NONE };
	EGLConfig config;
	EGLSurface surf;

	*dpy = eglGetPlatformDisplay(EGL_PLATFORM_WAYLAND_KHR, c->display, NULL);
	assert_true(eglInitialize(*dpy, NULL, NULL));
	assert_non_null(config = window_config(*dpy, 8));
	*win = wl_egl_window_create(c->surface, w, h);
	surf = eglCreatePlatformWindowSurface(*dpy, config, *win, NULL);
	assert_ptr_not_equal(surf, EGL_NO_SURFACE);
	*ctx = eglCreateContext(*dpy, config, EGL_NO_CONTEXT, ca);
	assert_ptr_not_equal(*ctx, EGL_NO_CONTEXT);
	assert_true(eglMakeCurrent(*dpy, surf, surf, *ctx));
	return surf;
}

static void release(EGLDisplay dpy, EGLSurface surf, EGLContext ctx)
{
	assert_true(eglMakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT));
	assert_true(eglDestroyContext(dpy, ctx));
	assert_true(eglDestroySurface(dpy, surf));
	assert_true(eglTerminate(dpy));
}

/* The pixel of the screenshot at x, y from the top left. */
static uint32_t shot_pixel(const uint8_t *shot, unsigned w, unsigned x, unsigned y)
{
	const uint8_t *p = shot + ((size_t)y * w + x) * 4;

	return (uint32_t)p[0] << 16 | (uint32_t)p[1] << 8 | p[2];
}

/*
 * wl_egl_window_resize takes effect after the next swap (EGL 1.5 section
 * 3.10.1.1): EGL_WIDTH/HEIGHT before and after, the attached size, and
 * the new frame at the new size in weston's output (centred on black, as
 * desktop-shell shows a fullscreen surface smaller than the output).
 */
static void test_resize(void **state)
{
	struct wl_egl_window *win;
	unsigned w = 0, h = 0;
	EGLSurface surf;
	EGLContext ctx;
	struct test_wl_client c;
	EGLDisplay dpy;
	uint8_t *shot;
	EGLint v = 0;
	int aw = 0, ah = 0;

	(void)state;
	SKIP_WITHOUT_WESTON();
	assert_true(test_wl_client_open(&c, 4, true));
	surf = window_current(&c, &dpy, &win, &ctx, SIZE, SIZE);
	glClearColor(1, 0, 0, 1);
	glClear(GL_COLOR_BUFFER_BIT);
	assert_true(swap_shown(&c, dpy, surf));
	wl_egl_window_get_attached_size(win, &aw, &ah);
	assert_int_equal(aw, SIZE);
	assert_int_equal(ah, SIZE);
	wl_egl_window_resize(win, 32, 16, 0, 0);
	assert_true(eglQuerySurface(dpy, surf, EGL_WIDTH, &v));
	assert_int_equal(v, SIZE);
	glClear(GL_COLOR_BUFFER_BIT);
	assert_true(swap_shown(&c, dpy, surf));
	assert_true(eglQuerySurface(dpy, surf, EGL_WIDTH, &v));
	assert_int_equal(v, 32);
	assert_true(eglQuerySurface(dpy, surf, EGL_HEIGHT, &v));
	assert_int_equal(v, 16);
	/* a frame of the new size: green on top, blue at the bottom */
	glViewport(0, 0, 32, 16);
	glEnable(GL_SCISSOR_TEST);
	glScissor(0, 0, 32, 8);
	glClearColor(0, 0, 1, 1);
	glClear(GL_COLOR_BUFFER_BIT);
	glScissor(0, 8, 32, 8);
	glClearColor(0, 1, 0, 1);
	glClear(GL_COLOR_BUFFER_BIT);
	glDisable(GL_SCISSOR_TEST);
	assert_true(swap_shown(&c, dpy, surf));
	wl_egl_window_get_attached_size(win, &aw, &ah);
	assert_int_equal(aw, 32);
	assert_int_equal(ah, 16);
	shot = test_weston_screenshot(&w, &h);
	assert_non_null(shot);
	assert_int_equal(w, SIZE);
	/* the surface's 32x16 at (16, 24): outside it black */
	assert_int_equal(shot_pixel(shot, w, 16, 24), 0x00ff00);
	assert_int_equal(shot_pixel(shot, w, 47, 31), 0x00ff00);
	assert_int_equal(shot_pixel(shot, w, 16, 32), 0x0000ff);
	assert_int_equal(shot_pixel(shot, w, 47, 39), 0x0000ff);
	assert_int_equal(shot_pixel(shot, w, 15, 24), 0x000000);
	assert_int_equal(shot_pixel(shot, w, 16, 23), 0x000000);
	assert_int_equal(shot_pixel(shot, w, 48, 39), 0x000000);
	assert_int_equal(shot_pixel(shot, w, 47, 40), 0x000000);
	free(shot);
	release(dpy, surf, ctx);
	wl_egl_window_destroy(win);
	test_wl_client_close(&c);
}

/*
 * Swap interval 1 waits for the frame callback of the frame before: the
 * application's own callback of that frame, sent in the same repaint, is
 * done once the next swap returns.  Interval 0 never waits: a surface
 * without a role is never repainted, its frame callbacks never come, and
 * its swaps still return.
 */
static void test_swap_interval(void **state)
{
	struct wl_egl_window *win;
	EGLSurface surf;
	EGLContext ctx;
	struct test_wl_client c;
	EGLDisplay dpy;

	(void)state;
	SKIP_WITHOUT_WESTON();
	assert_true(test_wl_client_open(&c, 4, true));
	surf = window_current(&c, &dpy, &win, &ctx, SIZE, SIZE);
	assert_true(eglSwapInterval(dpy, 1));
	for (unsigned i = 0; i < 4; i++) {
		bool done;

		test_wl_client_frame(&c, &done);
		glClearColor(0, (float)i / 4, 0, 1);
		glClear(GL_COLOR_BUFFER_BIT);
		assert_true(eglSwapBuffers(dpy, surf));
		glClear(GL_COLOR_BUFFER_BIT);
		assert_true(eglSwapBuffers(dpy, surf));
		wl_display_dispatch_pending(c.display);
		assert_true(done);
	}
	/* the frames after those, in whichever colour buffer weston has let go of, show as drawn */
	for (unsigned i = 0; i < 3; i++) {
		static const uint32_t colors[] = { 0xff00ff, 0x00ffff, 0xffff00 };
		unsigned w = 0, h = 0, bad = 0;
		uint8_t *shot;

		glClearColor(colors[i] >> 16 & 1, colors[i] >> 8 & 1, colors[i] & 1, 1);
		glClear(GL_COLOR_BUFFER_BIT);
		assert_true(swap_shown(&c, dpy, surf));
		shot = test_weston_screenshot(&w, &h);
		assert_non_null(shot);
		assert_int_equal(w * h, SIZE * SIZE);
		for (unsigned p = 0; p < w * h; p++)
			bad += shot_pixel(shot, w, p % w, p / w) != colors[i];
		free(shot);
		assert_int_equal(bad, 0);
	}
	release(dpy, surf, ctx);
	wl_egl_window_destroy(win);
	test_wl_client_close(&c);

	assert_true(test_wl_client_open(&c, 4, false));
	surf = window_current(&c, &dpy, &win, &ctx, SIZE, SIZE);
	assert_true(eglSwapInterval(dpy, 0));
	for (unsigned i = 0; i < 3; i++) {
		glClear(GL_COLOR_BUFFER_BIT);
		assert_true(eglSwapBuffers(dpy, surf));
	}
	release(dpy, surf, ctx);
	wl_egl_window_destroy(win);
	test_wl_client_close(&c);
}

/* A wl_egl_window destroyed first: the surface's swaps fail, the rest of it works. */
static void test_window_destroyed(void **state)
{
	struct wl_egl_window *win;
	EGLSurface surf;
	EGLContext ctx;
	struct test_wl_client c;
	EGLDisplay dpy;
	EGLint v = 0;

	(void)state;
	SKIP_WITHOUT_WESTON();
	assert_true(test_wl_client_open(&c, 4, true));
	surf = window_current(&c, &dpy, &win, &ctx, SIZE, SIZE);
	glClear(GL_COLOR_BUFFER_BIT);
	assert_true(eglSwapBuffers(dpy, surf));
	wl_egl_window_destroy(win);
	glClear(GL_COLOR_BUFFER_BIT);
	assert_false(eglSwapBuffers(dpy, surf));
	assert_egl_error(EGL_BAD_NATIVE_WINDOW);
	assert_true(eglQuerySurface(dpy, surf, EGL_WIDTH, &v));
	assert_int_equal(v, SIZE);
	release(dpy, surf, ctx);
	test_wl_client_close(&c);
}

static int setup(void **state)
{
	fx = calloc(1, sizeof(*fx));
	assert_non_null(fx);
	fx->have_weston = test_weston_start(&fx->weston, SIZE, SIZE);
	if (!fx->have_weston) {
		print_message("# weston does not start: every test skips\n");
		*state = fx;
		return 0;
	}
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
	if (fx->have_weston) {
		eglReleaseThread();
		clean = test_stack_stop(&fx->stack);
	}
	test_weston_stop(&fx->weston);
	free(fx);
	assert_true(clean);
	return 0;
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_llvmpipe),      cmocka_unit_test(test_display),
		cmocka_unit_test(test_window_errors), cmocka_unit_test(test_resize),
		cmocka_unit_test(test_swap_interval), cmocka_unit_test(test_window_destroyed),
	};

	if (argc == 2 && !strcmp(argv[1], "--workload"))
		return workload();
	if (!getenv("__EGL_VENDOR_LIBRARY_FILENAMES")) {
		fprintf(stderr, "%s: __EGL_VENDOR_LIBRARY_FILENAMES names no vendor file\n",
			argv[0]);
		return 2;
	}
	return test_stack_run(argc, argv, &options, tests, sizeof(tests) / sizeof(tests[0]), setup,
			      teardown);
}
