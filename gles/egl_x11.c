/*
 * egl_x11.c: the X server connection of an X11 display (EGL_KHR_platform_x11
 * and EGL_EXT_platform_x11): the application's Xlib Display, seen through
 * its xcb connection, or one of our own to $DISPLAY for EGL_DEFAULT_DISPLAY,
 * and the screen the display stands for.  Everything said to the server
 * goes through compositor-bridge (agx/present.h).  The connection is
 * refcounted: an initialized display holds one reference and each window
 * surface one, so a surface current past eglTerminate can still present.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include <X11/Xlib-xcb.h>
#include <X11/Xlib.h>
#include <xcb/xcb.h>

#include "egl_agx.h"

struct gles_x11 {
	unsigned refs; /* under the EGL lock */
	xcb_connection_t *conn;
	bool owned; /* ours (EGL_DEFAULT_DISPLAY): disconnected with the last reference */
	int screen;
};

int gles_x11_open(void *native, EGLint screen, struct gles_x11 **out)
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
		gles_x11_unref(x);
		return -ENOTCONN;
	}
	/* EGL_PLATFORM_X11_SCREEN_KHR, or the display's default screen */
	x->screen = screen >= 0 ? screen : default_screen;
	screens = xcb_setup_roots_length(xcb_get_setup(x->conn));
	if (x->screen >= screens) {
		fprintf(stderr, "libEGL_agx: the X server has no screen %d (it has %d)\n",
			x->screen, screens);
		gles_x11_unref(x);
		return -ENOENT;
	}
	x->refs = 1;
	*out = x;
	return 0;
}

struct gles_x11 *gles_x11_ref(struct gles_x11 *x)
{
	x->refs++;
	return x;
}

void gles_x11_unref(struct gles_x11 *x)
{
	if (!x || (x->refs && --x->refs))
		return;
	if (x->owned && x->conn)
		xcb_disconnect(x->conn);
	free(x);
}

void *gles_x11_connection(const struct gles_x11 *x)
{
	return x->conn;
}

int gles_x11_screen(const struct gles_x11 *x)
{
	return x->screen;
}

uint32_t gles_x11_root(const struct gles_x11 *x)
{
	xcb_screen_iterator_t s = xcb_setup_roots_iterator(xcb_get_setup(x->conn));

	for (int i = 0; i < x->screen && s.rem; i++)
		xcb_screen_next(&s);
	return s.rem ? s.data->root : 0;
}
