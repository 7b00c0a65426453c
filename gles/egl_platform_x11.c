/*
 * egl_platform_x11.c: EGL_KHR_platform_x11 and EGL_EXT_platform_x11.  A
 * display is an X server connection -- the application's Xlib Display,
 * seen through its xcb connection, or one of our own to $DISPLAY for
 * EGL_DEFAULT_DISPLAY -- and the screen it stands for; configs have
 * windows of the screen's visuals; a window surface presents through
 * compositor-bridge's x11 target (agx/present.h), which says everything
 * said to the server.  The connection is refcounted: an initialized
 * display holds one reference and each window surface one, so a surface
 * current past eglTerminate can still present.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include <X11/Xlib-xcb.h>
#include <X11/Xlib.h>
#include <xcb/xcb.h>

#include <drm_fourcc.h>

#include "agx/present.h"
#include "egl_agx.h"

/* X11's TrueColor visual class, EGL_NATIVE_VISUAL_TYPE of the configs with windows (X.h) */
#define X11_TRUE_COLOR 4

struct gles_x11 {
	unsigned refs; /* under the EGL lock */
	xcb_connection_t *conn;
	bool owned; /* ours (EGL_DEFAULT_DISPLAY): disconnected with the last reference */
	int screen;
};

static void x11_unref(struct gles_x11 *x);

/*
 * Connects to native (an Xlib Display; NULL: $DISPLAY's server) for screen
 * (-1: the default one): 0, or a negative errno with the reason on stderr.
 */
static int x11_connect(void *native, EGLint screen, struct gles_x11 **out)
{
	struct gles_x11 *x = calloc(1, sizeof(*x));
	int screens, default_screen = 0;

	*out = NULL;
	if (!x)
		return -ENOMEM;
	if (native) {
		/* EGL_KHR_platform_x11: native_display is an Xlib Display */
		x->conn = XGetXCBConnection(native);
		default_screen = XDefaultScreen(native);
	} else {
		/* EGL_DEFAULT_DISPLAY: the server $DISPLAY names, and its default screen */
		x->conn = xcb_connect(NULL, &default_screen);
		x->owned = true;
	}
	if (!x->conn || xcb_connection_has_error(x->conn)) {
		fprintf(stderr, "libEGL_agx: cannot connect to the X server%s%s\n",
			native ? "" : " of DISPLAY=", native ? "" : (getenv("DISPLAY") ?: ""));
		x11_unref(x);
		return -ENOTCONN;
	}
	/* EGL_PLATFORM_X11_SCREEN_KHR, or the display's default screen */
	x->screen = screen >= 0 ? screen : default_screen;
	screens = xcb_setup_roots_length(xcb_get_setup(x->conn));
	if (x->screen >= screens) {
		fprintf(stderr, "libEGL_agx: the X server has no screen %d (it has %d)\n",
			x->screen, screens);
		x11_unref(x);
		return -ENOENT;
	}
	x->refs = 1;
	*out = x;
	return 0;
}

static struct gles_x11 *x11_ref(struct gles_x11 *x)
{
	x->refs++;
	return x;
}

/* Under the EGL lock; NULL is a no-op. */
static void x11_unref(struct gles_x11 *x)
{
	if (!x || (x->refs && --x->refs))
		return;
	if (x->owned && x->conn)
		xcb_disconnect(x->conn);
	free(x);
}

static uint32_t x11_root(const struct gles_x11 *x)
{
	xcb_screen_iterator_t s = xcb_setup_roots_iterator(xcb_get_setup(x->conn));

	for (int i = 0; i < x->screen && s.rem; i++)
		xcb_screen_next(&s);
	return s.rem ? s.data->root : 0;
}

/* ---- displays ----------------------------------------------------------------------------- */

/*
 * EGL_KHR_platform_x11 (and EXT, the same numbers): native is an Xlib
 * Display or EGL_DEFAULT_DISPLAY ($DISPLAY, connected to by
 * eglInitialize), the one attribute the screen.
 */
static EGLDisplay x11_get_display(void *native, const EGLAttrib *attribs)
{
	EGLint screen = -1;

	for (const EGLAttrib *a = attribs; a && a[0] != EGL_NONE; a += 2) {
		if (a[0] != EGL_PLATFORM_X11_SCREEN_KHR || a[1] < 0 || a[1] > INT32_MAX) {
			gles_egl_error(EGL_BAD_ATTRIBUTE);
			return EGL_NO_DISPLAY;
		}
		screen = (EGLint)a[1];
	}
	return gles_egl_native_display(&gles_platform_x11_ops, native, screen);
}

static int x11_open(struct gles_display *dpy)
{
	struct gles_x11 *x;
	int ret = x11_connect(dpy->native, dpy->screen, &x);

	dpy->platform = ret < 0 ? NULL : x;
	return ret;
}

static void x11_close(struct gles_display *dpy)
{
	x11_unref(dpy->platform);
	dpy->platform = NULL;
}

/* Gives c windows of the screen's visual for frames of fourcc, if the screen has one. */
static bool add_windows(struct gles_display *dpy, struct gles_config *c, uint32_t fourcc)
{
	struct gles_x11 *x = dpy->platform;
	uint32_t visual;
	uint8_t depth;

	if (agx_present_x11_find_visual(x->conn, x->screen, fourcc, &visual, &depth) < 0)
		return false;
	c->surface_type |= EGL_WINDOW_BIT;
	c->visual_id = (EGLint)visual;
	c->visual_type = X11_TRUE_COLOR;
	c->window_fourcc = fourcc;
	return true;
}

/*
 * An X11 screen's configs: RGBA8888 and RGB888 windows of its depth-24
 * TrueColor visual (RGBA8888's alpha is rendered to but not shown: the
 * window has none), RGB565 windows only of a depth-16 visual, and, where
 * the screen has a depth-32 ARGB visual, configs 26 to 30 (and their 4x
 * twins, 56 to 60): the RGBA8888 ones again, with windows whose alpha
 * reaches the window (for a compositing manager to blend with).  Configs without a visual are
 * pbuffer configs, as on the other displays.
 */
static void x11_init_configs(struct gles_display *dpy)
{
	unsigned num_base;
	const struct gles_config *base = gles_egl_base_configs(&num_base);

	/* windows of the fixed-point 8-bit and 5:6:5 configs; the deeper ones are pbuffers only */
	for (unsigned i = 0; i < num_base; i++) {
		enum gles_surface_format f = dpy->configs[i].color_format;

		if (f == GLES_FORMAT_RGBA8_UNORM || f == GLES_FORMAT_RGBX8_UNORM)
			add_windows(dpy, &dpy->configs[i], DRM_FORMAT_XRGB8888);
		else if (f == GLES_FORMAT_B5G6R5_UNORM)
			add_windows(dpy, &dpy->configs[i], DRM_FORMAT_RGB565);
	}
	for (unsigned i = 0, k[2] = { 0, 0 }; i < num_base && dpy->num_configs < GLES_MAX_CONFIGS;
	     i++) {
		struct gles_config *c = &dpy->configs[dpy->num_configs];
		bool ms = base[i].samples != 0;

		if (base[i].color_format != GLES_FORMAT_RGBA8_UNORM)
			continue;
		*c = base[i];
		/* 26 to 30 single-sampled, 56 to 60 their 4x twins: after each set's base ids */
		c->id = (ms ? GLES_FIRST_MULTISAMPLE_CONFIG + 25 : 26) + (EGLint)k[ms]++;
		if (!add_windows(dpy, c, DRM_FORMAT_ARGB8888))
			break;
		dpy->num_configs++;
	}
}

/* ---- windows ------------------------------------------------------------------------------ */

/* The EGL error of a compositor-bridge failure on a window. */
static EGLint window_error(int ret)
{
	/* -ENOENT: the window is gone; -EPIPE: so is the connection to its server */
	return ret == -ENOENT || ret == -EPIPE ? EGL_BAD_NATIVE_WINDOW : EGL_BAD_ALLOC;
}

/*
 * EGL_KHR_platform_x11: the platform functions' native_window points to a
 * Window (read only on an X11 display: elsewhere it may point to anything).
 */
static EGLint x11_window_handle(void *native, bool by_pointer, uintptr_t *handle)
{
	unsigned long win = (unsigned long)native;

	if (by_pointer)
		win = native ? *(const unsigned long *)native : 0;
	if (win == 0 || win > UINT32_MAX)
		return EGL_BAD_NATIVE_WINDOW;
	*handle = win;
	return EGL_SUCCESS;
}

/*
 * EGL 1.5 section 3.5.1: the window must exist (EGL_BAD_NATIVE_WINDOW), its
 * visual store pixels as the config's does (EGL_BAD_MATCH): the config's
 * EGL_NATIVE_VISUAL_ID, or another visual of the screen with the same
 * depth and channels (a screen may have several).  Visual ids are the
 * screen's own: another screen's window is no match.  It may have no other
 * surface (EGL_BAD_ALLOC).
 */
static EGLint x11_window_create(struct gles_surface *surf, unsigned *width, unsigned *height)
{
	struct gles_display *dpy = surf->dpy;
	struct gles_x11 *x = dpy->platform;
	struct agx_present_config present = {
		.backend = AGX_PRESENT_X11,
		.x11_connection = x->conn,
		.x11_window = (uint32_t)surf->window,
	};
	struct agx_present_x11_window w;
	int ret;

	ret = agx_present_x11_window_info(x->conn, (uint32_t)surf->window, &w);
	if (ret < 0)
		return EGL_BAD_NATIVE_WINDOW;
	if (w.root != x11_root(x) || !w.fourcc || w.fourcc != surf->config->window_fourcc)
		return EGL_BAD_MATCH;
	for (struct gles_surface *s = dpy->surfaces; s; s = s->next)
		if (s->type == EGL_WINDOW_BIT && s->window == surf->window)
			return EGL_BAD_ALLOC;
	if (w.width > GLES_MAX_PBUFFER_SIZE || w.height > GLES_MAX_PBUFFER_SIZE)
		return EGL_BAD_ALLOC;
	ret = agx_present_create(&present, &surf->present);
	if (ret < 0)
		return window_error(ret);
	surf->platform_window = x11_ref(x);
	*width = w.width;
	*height = w.height;
	return EGL_SUCCESS;
}

static void x11_window_destroy(struct gles_surface *surf)
{
	agx_present_destroy(surf->present);
	surf->present = NULL;
	x11_unref(surf->platform_window);
	surf->platform_window = NULL;
}

static EGLint x11_window_size(struct gles_surface *surf, unsigned *width, unsigned *height)
{
	struct gles_x11 *x = surf->platform_window;
	struct agx_present_x11_window w;
	int ret = agx_present_x11_window_info(x->conn, (uint32_t)surf->window, &w);

	if (ret < 0)
		return window_error(ret);
	*width = w.width;
	*height = w.height;
	return EGL_SUCCESS;
}

/* The server has copied the frame when agx_present_frame returns (x11.c's checked puts). */
static EGLint x11_window_present(struct gles_surface *surf, const struct agx_present_image *image)
{
	int ret = agx_present_frame(surf->present, image);

	return ret < 0 ? window_error(ret) : EGL_SUCCESS;
}

/*
 * No swap interval: a frame is in the window when its put completes, with
 * nothing to pace it by (the X server's Present extension is not used).
 * No pixmaps: on an X11 display no config has EGL_PIXMAP_BIT.
 */
const struct gles_platform_ops gles_platform_x11_ops = {
	.name = "x11",
	.platform = EGL_PLATFORM_X11_KHR,
	.get_display = x11_get_display,
	.open = x11_open,
	.close = x11_close,
	.init_configs = x11_init_configs,
	.window_handle = x11_window_handle,
	.window_create = x11_window_create,
	.window_destroy = x11_window_destroy,
	.window_size = x11_window_size,
	.window_present = x11_window_present,
	.pixmap_error = EGL_SUCCESS,
};
