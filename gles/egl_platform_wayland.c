/*
 * egl_platform_wayland.c: EGL_KHR_platform_wayland and
 * EGL_EXT_platform_wayland.  A display is a wl_display -- the
 * application's, or one of our own to $WAYLAND_DISPLAY for
 * EGL_DEFAULT_DISPLAY -- and a window is libwayland-egl's wl_egl_window,
 * whose vendor side (wayland-egl-backend.h) gives us its wl_surface, its
 * size and dx/dy, and a destroy callback.  Frames go to the surface
 * through compositor-bridge's wayland target (agx/present.h) as wl_shm
 * buffers of the colour buffers' memfds, which the compositor holds until
 * it releases them: the surface renders into spare colour buffers
 * meanwhile (window_busy).  The connection is refcounted like X11's: the
 * initialized display and each window surface hold a reference.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <drm_fourcc.h>
#include <wayland-client.h>
#include <wayland-egl-backend.h>

#include "agx/present.h"
#include "egl_agx.h"

struct gles_wayland {
	unsigned refs; /* under the EGL lock */
	struct wl_display *display;
	bool owned; /* ours (EGL_DEFAULT_DISPLAY): disconnected with the last reference */
};

/* A window surface's side of its wl_egl_window. */
struct wayland_window {
	struct gles_wayland *wl;
	struct wl_egl_window *window; /* NULL once the application destroyed it */
	int32_t dx, dy;		      /* the move the next frame's attach makes */
};

static void wayland_unref(struct gles_wayland *wl)
{
	if (!wl || (wl->refs && --wl->refs))
		return;
	if (wl->owned && wl->display)
		wl_display_disconnect(wl->display);
	free(wl);
}

/* ---- displays ----------------------------------------------------------------------------- */

/* The platform defines no display attributes. */
static EGLDisplay wayland_get_display(void *native, const EGLAttrib *attribs)
{
	if (attribs && attribs[0] != EGL_NONE) {
		gles_egl_error(EGL_BAD_ATTRIBUTE);
		return EGL_NO_DISPLAY;
	}
	return gles_egl_native_display(&gles_platform_wayland_ops, native, -1);
}

/* EGL_DEFAULT_DISPLAY: the compositor $WAYLAND_DISPLAY names (the spec's "default display"). */
static int wayland_open(struct gles_display *dpy)
{
	struct gles_wayland *wl = calloc(1, sizeof(*wl));

	dpy->platform = NULL;
	if (!wl)
		return -ENOMEM;
	wl->display = dpy->native;
	if (!wl->display) {
		wl->display = wl_display_connect(NULL);
		wl->owned = true;
	}
	if (!wl->display) {
		fprintf(stderr,
			"libEGL_agx: cannot connect to the Wayland compositor of "
			"WAYLAND_DISPLAY=%s\n",
			getenv("WAYLAND_DISPLAY") ?: "");
		free(wl);
		return -ENOTCONN;
	}
	wl->refs = 1;
	dpy->platform = wl;
	return 0;
}

static void wayland_close(struct gles_display *dpy)
{
	wayland_unref(dpy->platform);
	dpy->platform = NULL;
}

/*
 * Windows for the 8-bit RGBA and RGBX configs and RGB565: frames of the
 * colour buffer's own layout, which wl_shm names (ABGR8888 is bytes R, G,
 * B, A).  Alpha reaches the compositor, which blends with it.  The deeper
 * formats stay pbuffers only.  Configs have no native visual on Wayland.
 */
static void wayland_init_configs(struct gles_display *dpy)
{
	for (unsigned i = 0; i < dpy->num_configs; i++) {
		struct gles_config *c = &dpy->configs[i];
		uint32_t fourcc = c->color_format == GLES_FORMAT_RGBA8_UNORM   ? DRM_FORMAT_ABGR8888
				  : c->color_format == GLES_FORMAT_RGBX8_UNORM ? DRM_FORMAT_XBGR8888
				  : c->color_format == GLES_FORMAT_B5G6R5_UNORM ? DRM_FORMAT_RGB565
										: 0;

		if (!fourcc)
			continue;
		c->surface_type |= EGL_WINDOW_BIT;
		c->window_fourcc = fourcc;
	}
}

/* ---- windows ------------------------------------------------------------------------------ */

/*
 * EGL_KHR_platform_wayland: both eglCreateWindowSurface and the platform
 * functions take a struct wl_egl_window *.  Of a pointer nothing but NULL
 * can be told from a window before it is read; window_create checks what
 * it points to.
 */
static EGLint wayland_window_handle(void *native, bool by_pointer, uintptr_t *handle)
{
	(void)by_pointer;
	if (!native)
		return EGL_BAD_NATIVE_WINDOW;
	*handle = (uintptr_t)native;
	return EGL_SUCCESS;
}

/* wl_egl_window_destroy: the surface lives on without a window; its swaps fail. */
static void window_destroyed(void *data)
{
	struct gles_surface *surf = data;
	struct wayland_window *ww;

	gles_egl_lock();
	ww = surf->platform_window;
	ww->window = NULL;
	/* the wl_surface may go next: nothing of ours refers to it from now on */
	agx_present_destroy(surf->present);
	surf->present = NULL;
	gles_egl_unlock();
}

/* The EGL error of a compositor-bridge failure on a window. */
static EGLint window_error(int ret)
{
	return ret == -ENOENT || ret == -EPIPE ? EGL_BAD_NATIVE_WINDOW : EGL_BAD_ALLOC;
}

/*
 * The window must be one libwayland-egl made (its ABI version, a
 * wl_surface of a positive size: EGL_BAD_NATIVE_WINDOW) with no other EGL
 * surface (driver_private taken: EGL_BAD_ALLOC, EGL 1.5 section 3.5.1).
 */
static EGLint wayland_window_create(struct gles_surface *surf, unsigned *width, unsigned *height)
{
	struct wl_egl_window *win = (struct wl_egl_window *)surf->window;
	struct gles_wayland *wl = surf->dpy->platform;
	struct agx_present_config present = { .backend = AGX_PRESENT_WAYLAND };
	struct wayland_window *ww;
	int ret;

	if (win->version < WL_EGL_WINDOW_VERSION || !win->surface ||
	    strcmp(wl_proxy_get_class((struct wl_proxy *)win->surface),
		   wl_surface_interface.name) != 0 ||
	    win->width <= 0 || win->height <= 0)
		return EGL_BAD_NATIVE_WINDOW;
	if (win->driver_private)
		return EGL_BAD_ALLOC;
	if (win->width > GLES_MAX_PBUFFER_SIZE || win->height > GLES_MAX_PBUFFER_SIZE)
		return EGL_BAD_ALLOC;
	ww = calloc(1, sizeof(*ww));
	if (!ww)
		return EGL_BAD_ALLOC;
	present.wl_display = wl->display;
	present.wl_surface = win->surface;
	ret = agx_present_create(&present, &surf->present);
	if (ret < 0) {
		fprintf(stderr, "libEGL_agx: a Wayland window surface: %s\n", agx_present_error());
		free(ww);
		return window_error(ret);
	}
	wl->refs++;
	ww->wl = wl;
	ww->window = win;
	surf->platform_window = ww;
	win->driver_private = surf;
	win->destroy_window_callback = window_destroyed;
	*width = (unsigned)win->width;
	*height = (unsigned)win->height;
	return EGL_SUCCESS;
}

static void wayland_window_destroy(struct gles_surface *surf)
{
	struct wayland_window *ww = surf->platform_window;

	if (ww->window) {
		ww->window->driver_private = NULL;
		ww->window->destroy_window_callback = NULL;
	}
	agx_present_destroy(surf->present);
	surf->present = NULL;
	wayland_unref(ww->wl);
	free(ww);
	surf->platform_window = NULL;
}

/*
 * wl_egl_window_resize's size, which the surface takes after the swap
 * (EGL 1.5 section 3.10.1.1), with its dx and dy for the first frame of
 * the new size.
 */
static EGLint wayland_window_size(struct gles_surface *surf, unsigned *width, unsigned *height)
{
	struct wayland_window *ww = surf->platform_window;
	struct wl_egl_window *win = ww->window;

	if (!win)
		return EGL_BAD_NATIVE_WINDOW;
	if (win->width <= 0 || win->height <= 0)
		return EGL_BAD_NATIVE_WINDOW;
	if ((unsigned)win->width != surf->drawable.width ||
	    (unsigned)win->height != surf->drawable.height) {
		ww->dx = win->dx;
		ww->dy = win->dy;
		win->dx = win->dy = 0;
	}
	*width = (unsigned)win->width;
	*height = (unsigned)win->height;
	return EGL_SUCCESS;
}

static EGLint wayland_window_present(struct gles_surface *surf,
				     const struct agx_present_image *image)
{
	struct wayland_window *ww = surf->platform_window;
	struct agx_present_image frame = *image;
	int ret;

	if (!ww->window)
		return EGL_BAD_NATIVE_WINDOW;
	frame.dx = ww->dx;
	frame.dy = ww->dy;
	ret = agx_present_frame(surf->present, &frame);
	if (ret < 0) {
		fprintf(stderr, "libEGL_agx: a Wayland frame: %s\n", agx_present_error());
		return window_error(ret);
	}
	ww->dx = ww->dy = 0;
	/* wl_egl_window_get_attached_size: what the last commit attached */
	ww->window->attached_width = (int)image->width;
	ww->window->attached_height = (int)image->height;
	return EGL_SUCCESS;
}

/* A failed connection is no buffer held: the next present says it failed. */
static bool wayland_window_busy(struct gles_surface *surf, int fd, bool wait)
{
	int ret;

	if (!surf->present)
		return false;
	ret = agx_present_busy(surf->present, fd, wait);
	return ret > 0 || (wait && ret < 0);
}

static void wayland_window_forget(struct gles_surface *surf, int fd)
{
	if (surf->present)
		agx_present_forget(surf->present, fd);
}

/*
 * EGL_KHR_platform_wayland: a Wayland display has no pixmaps, and
 * eglCreatePlatformPixmapSurface on one is EGL_BAD_PARAMETER.
 */
const struct gles_platform_ops gles_platform_wayland_ops = {
	.name = "wayland",
	.platform = EGL_PLATFORM_WAYLAND_KHR,
	.get_display = wayland_get_display,
	.open = wayland_open,
	.close = wayland_close,
	.init_configs = wayland_init_configs,
	.window_handle = wayland_window_handle,
	.window_create = wayland_window_create,
	.window_destroy = wayland_window_destroy,
	.window_size = wayland_window_size,
	.window_present = wayland_window_present,
	.window_busy = wayland_window_busy,
	.window_forget = wayland_window_forget,
	.pixmap_error = EGL_BAD_PARAMETER,
};
