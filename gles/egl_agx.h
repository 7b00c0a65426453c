/*
 * egl_agx.h: the EGL half of libEGL_agx -- displays, configs, surfaces and
 * contexts, the calling thread's EGL state, and the one lock over all of
 * them -- shared by the egl_*.c files.  Every EGL function of the vendor
 * (the gles_egl_* below) is served to glvnd's libEGL by egl_main.c.
 */
#ifndef GLES_EGL_AGX_H
#define GLES_EGL_AGX_H

#include <stdbool.h>

#include <EGL/egl.h>
#include <EGL/eglext.h>

#include "context.h"

/* The largest pbuffer (and window surface), and what the configs say of it. */
#define GLES_MAX_PBUFFER_SIZE 16384
/* The configs of one display: the four formats, and two more on an X11 screen of depth 32. */
#define GLES_MAX_CONFIGS 32

/*
 * The stack's device as one initialized display uses it.  Contexts and
 * surfaces hold a reference: one current in a thread outlives
 * eglTerminate (EGL 1.5 section 3.2), and so does the device it uses.
 */
struct gles_device {
	unsigned refs; /* under the EGL lock */
	struct agx_device *agx;
	char renderer[128]; /* GL_RENDERER */
};

/*
 * Every config's EGL_RENDERABLE_TYPE: egl_context.c answers ES 2.0 and 3.0
 * requests with an ES 3.0 context, which needs EGL_OPENGL_ES3_BIT.
 */
#define GLES_CONFIG_RENDERABLE_TYPE (EGL_OPENGL_ES2_BIT | EGL_OPENGL_ES3_BIT)

struct gles_config {
	EGLint id;
	EGLint red, green, blue, alpha, depth, stencil;
	/* the surface's buffers: depth NONE, Z16, Z24 or Z32_FLOAT (with S8_UINT stencil) */
	enum gles_surface_format color_format, depth_format, stencil_format;
	EGLint surface_type;	       /* EGL_PBUFFER_BIT, and EGL_WINDOW_BIT on an X11 screen */
	EGLint visual_id, visual_type; /* the X visual of its windows; 0 and EGL_NONE if none */
	uint32_t window_fourcc;	       /* the DRM format its windows' visuals take, 0 if none */
};

/* The calling thread's EGL state. */
struct gles_thread {
	EGLint error;
	struct gles_egl_context *ctx; /* current, or NULL */
};

struct gles_display;
struct gles_egl_sync;
struct gles_egl_image;
struct gles_x11;
struct agx_present_target;

struct gles_surface {
	struct gles_surface *next; /* on its display's list while its handle is valid */
	struct gles_display *dpy;
	unsigned refs; /* the display's list, and each current context bound to it */
	bool valid;    /* on the list: neither destroyed nor terminated */
	const struct gles_config *config;
	struct gles_device *dev;
	struct gles_thread *bound_to; /* the thread whose current context uses it */
	EGLint type;		      /* EGL_PBUFFER_BIT or EGL_WINDOW_BIT */
	/* a window surface: its X window, the connection, and where its frames go */
	uint32_t window;
	struct gles_x11 *x11;
	struct agx_present_target *present;
	EGLint render_buffer; /* EGL_RENDER_BUFFER as asked for */
	EGLint largest_pbuffer, texture_format, texture_target, mipmap_texture, mipmap_level;
	EGLint gl_colorspace, vg_colorspace, vg_alpha_format;
	EGLint swap_behavior, multisample_resolve, swap_interval;
	struct gles_drawable drawable;
};

struct gles_egl_context {
	struct gles_egl_context *next; /* on its display's list while its handle is valid */
	struct gles_display *dpy;
	unsigned refs; /* the display's list, and being current */
	const struct gles_config *config;
	EGLint client_version; /* the major version asked for (the GL side is ES 3.0) */
	struct gles_device *dev;
	struct gles_thread *bound_to; /* the thread it is current in, or NULL */
	struct gles_surface *draw, *read;
	struct gles_context *gl;
};

struct gles_display {
	/* EGL_PLATFORM_SURFACELESS_MESA, EGL_PLATFORM_X11_KHR, or EGL_NONE: the default display */
	EGLenum platform;
	bool initialized;
	struct gles_device *dev;
	struct gles_surface *surfaces;
	struct gles_egl_context *contexts;
	struct gles_egl_sync *syncs;   /* egl_sync.c's, while their handles are valid */
	struct gles_egl_image *images; /* egl_image.c's, likewise */
	/* set by eglInitialize; the handles stay valid (contexts past eglTerminate keep them) */
	struct gles_config configs[GLES_MAX_CONFIGS];
	unsigned num_configs;
	/* X11: the native Display (NULL: EGL_DEFAULT_DISPLAY), the screen asked for (-1: its
	 * default), the connection while initialized, the next X11 display */
	void *native;
	EGLint screen;
	struct gles_x11 *x11;
	struct gles_display *next;
};

/* ---- egl_sync.c: sync objects ------------------------------------------------------------ */

/* eglTerminate's part: every sync of dpy ends (the lock held). */
void gles_egl_syncs_terminate(struct gles_display *dpy);
EGLSync gles_egl_create_sync(EGLDisplay dpy, EGLenum type, const EGLAttrib *attribs);
EGLBoolean gles_egl_destroy_sync(EGLDisplay dpy, EGLSync sync);
EGLint gles_egl_client_wait_sync(EGLDisplay dpy, EGLSync sync, EGLint flags, EGLTime timeout);
EGLBoolean gles_egl_wait_sync(EGLDisplay dpy, EGLSync sync, EGLint flags);
EGLBoolean gles_egl_get_sync_attrib(EGLDisplay dpy, EGLSync sync, EGLint attribute,
				    EGLAttrib *value);
/* EGL_KHR_fence_sync and EGL_KHR_wait_sync (eglDestroySyncKHR and eglClientWaitSyncKHR are
 * the core functions) */
EGLSyncKHR gles_egl_create_sync_khr(EGLDisplay dpy, EGLenum type, const EGLint *attribs);
EGLBoolean gles_egl_get_sync_attrib_khr(EGLDisplay dpy, EGLSyncKHR sync, EGLint attribute,
					EGLint *value);
EGLint gles_egl_wait_sync_khr(EGLDisplay dpy, EGLSyncKHR sync, EGLint flags);
EGLint gles_egl_dup_native_fence_fd(EGLDisplay dpy, EGLSyncKHR sync);

/* ---- egl_image.c: EGLImages ------------------------------------------------------------- */

/* eglTerminate's part: every image of dpy ends (the lock held). */
void gles_egl_images_terminate(struct gles_display *dpy);
EGLImage gles_egl_create_image(EGLDisplay dpy, EGLContext ctx, EGLenum target,
			       EGLClientBuffer buffer, const EGLAttrib *attribs);
EGLImageKHR gles_egl_create_image_khr(EGLDisplay dpy, EGLContext ctx, EGLenum target,
				      EGLClientBuffer buffer, const EGLint *attribs);
/* eglDestroyImage and eglDestroyImageKHR */
EGLBoolean gles_egl_destroy_image(EGLDisplay dpy, EGLImage image);

/* ---- egl_main.c: the lock, errors, displays --------------------------------------------- */

void gles_egl_lock(void);
void gles_egl_unlock(void);
struct gles_thread *gles_egl_thread(void);
/* Sets the calling thread's EGL error (EGL_SUCCESS included); returns EGL_FALSE. */
EGLBoolean gles_egl_error(EGLint error);
/*
 * The display named by handle, with the lock held: NULL with EGL_BAD_DISPLAY
 * if it is none of ours, or EGL_NOT_INITIALIZED if initialized is asked for
 * and it is not.
 */
struct gles_display *gles_egl_display(EGLDisplay handle, bool initialized);
/* The i-th display (for walking them all), NULL past the last. */
struct gles_display *gles_egl_display_at(unsigned i);
void gles_device_unref(struct gles_device *dev);
/* The client API bound in the calling thread (libEGL keeps it: eglBindAPI). */
EGLenum gles_egl_current_api(void);

/* ---- egl_config.c ----------------------------------------------------------------------- */

/* Fills dpy's configs (eglInitialize; an X11 display's connection is open). */
void gles_egl_configs_init(struct gles_display *dpy);
/* The config of dpy named by handle, NULL (EGL_BAD_CONFIG set) if it is none. */
const struct gles_config *gles_egl_config(const struct gles_display *dpy, EGLConfig handle);
/* EGL 1.5 section 2.2: the same colour, depth and stencil buffers. */
bool gles_configs_compatible(const struct gles_config *a, const struct gles_config *b);

EGLBoolean gles_egl_get_configs(EGLDisplay dpy, EGLConfig *configs, EGLint size, EGLint *num);
EGLBoolean gles_egl_choose_config(EGLDisplay dpy, const EGLint *attribs, EGLConfig *configs,
				  EGLint size, EGLint *num);
EGLBoolean gles_egl_get_config_attrib(EGLDisplay dpy, EGLConfig config, EGLint attribute,
				      EGLint *value);

/* ---- egl_surface.c ---------------------------------------------------------------------- */

/* The surface named by handle on dpy, NULL (EGL_BAD_SURFACE set) if it is none. */
struct gles_surface *gles_egl_surface(struct gles_display *dpy, EGLSurface handle);
void gles_surface_unref(struct gles_surface *surf);
/* eglTerminate: the handle becomes invalid; a surface still current lives on until released. */
void gles_surface_terminate(struct gles_surface *surf);

EGLSurface gles_egl_create_pbuffer_surface(EGLDisplay dpy, EGLConfig config, const EGLint *attribs);
EGLSurface gles_egl_create_window_surface(EGLDisplay dpy, EGLConfig config, EGLNativeWindowType win,
					  const EGLint *attribs);
EGLSurface gles_egl_create_platform_window_surface(EGLDisplay dpy, EGLConfig config, void *win,
						   const EGLAttrib *attribs);
EGLSurface gles_egl_create_platform_window_surface_ext(EGLDisplay dpy, EGLConfig config, void *win,
						       const EGLint *attribs);
EGLSurface gles_egl_create_pixmap_surface(EGLDisplay dpy, EGLConfig config,
					  EGLNativePixmapType pixmap, const EGLint *attribs);
EGLSurface gles_egl_create_platform_pixmap_surface(EGLDisplay dpy, EGLConfig config, void *pixmap,
						   const EGLAttrib *attribs);
EGLSurface gles_egl_create_platform_pixmap_surface_ext(EGLDisplay dpy, EGLConfig config,
						       void *pixmap, const EGLint *attribs);
EGLSurface gles_egl_create_pbuffer_from_client_buffer(EGLDisplay dpy, EGLenum buftype,
						      EGLClientBuffer buffer, EGLConfig config,
						      const EGLint *attribs);
EGLBoolean gles_egl_destroy_surface(EGLDisplay dpy, EGLSurface surface);
EGLBoolean gles_egl_query_surface(EGLDisplay dpy, EGLSurface surface, EGLint attribute,
				  EGLint *value);
EGLBoolean gles_egl_surface_attrib(EGLDisplay dpy, EGLSurface surface, EGLint attribute,
				   EGLint value);
EGLBoolean gles_egl_bind_tex_image(EGLDisplay dpy, EGLSurface surface, EGLint buffer);
EGLBoolean gles_egl_release_tex_image(EGLDisplay dpy, EGLSurface surface, EGLint buffer);
EGLBoolean gles_egl_copy_buffers(EGLDisplay dpy, EGLSurface surface, EGLNativePixmapType target);
EGLBoolean gles_egl_swap_buffers(EGLDisplay dpy, EGLSurface surface);
EGLBoolean gles_egl_swap_interval(EGLDisplay dpy, EGLint interval);

/* ---- egl_x11.c: an X11 display's connection ------------------------------------------- */

/*
 * Connects to native (an Xlib Display; NULL: $DISPLAY's server) for screen
 * (-1: the default one): 0, or a negative errno with the reason on stderr.
 */
int gles_x11_open(void *native, EGLint screen, struct gles_x11 **out);
struct gles_x11 *gles_x11_ref(struct gles_x11 *x);
/* Under the EGL lock; NULL is a no-op. */
void gles_x11_unref(struct gles_x11 *x);
void *gles_x11_connection(const struct gles_x11 *x); /* an xcb_connection_t */
int gles_x11_screen(const struct gles_x11 *x);
uint32_t gles_x11_root(const struct gles_x11 *x);

/* ---- egl_context.c ---------------------------------------------------------------------- */

void gles_egl_context_unref(struct gles_egl_context *ctx);
void gles_egl_context_terminate(struct gles_egl_context *ctx);

EGLContext gles_egl_create_context(EGLDisplay dpy, EGLConfig config, EGLContext share,
				   const EGLint *attribs);
EGLBoolean gles_egl_destroy_context(EGLDisplay dpy, EGLContext ctx);
EGLBoolean gles_egl_query_context(EGLDisplay dpy, EGLContext ctx, EGLint attribute, EGLint *value);
EGLBoolean gles_egl_make_current(EGLDisplay dpy, EGLSurface draw, EGLSurface read, EGLContext ctx);
EGLBoolean gles_egl_release_thread(void);
EGLBoolean gles_egl_wait_client(void);
EGLBoolean gles_egl_wait_gl(void);
EGLBoolean gles_egl_wait_native(EGLint engine);

#endif
