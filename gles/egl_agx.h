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

/* A window surface's colour buffers besides the one rendered to. */
#define GLES_MAX_SPARE_COLORS 3

/* The largest pbuffer (and window surface), and what the configs say of it. */
#define GLES_MAX_PBUFFER_SIZE 16384
/* The configs of one display: the base ones, and more on an X11 screen of depth 32. */
#define GLES_MAX_CONFIGS 64
/* EGL_CONFIG_ID of the first 4x config: the single-sampled ones' ids plus 30 (egl_config.c). */
#define GLES_FIRST_MULTISAMPLE_CONFIG 31

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
	EGLint surface_type;	       /* EGL_PBUFFER_BIT, and EGL_WINDOW_BIT where windows exist */
	EGLint visual_id, visual_type; /* the X visual of its windows; 0 and EGL_NONE if none */
	uint32_t window_fourcc;	       /* the DRM format its windows' visuals take, 0 if none */
	/* EGL_SAMPLES: 0, or 4 (the surface's colour, depth and stencil multisampled) */
	EGLint samples;
};

/* The calling thread's EGL state. */
struct gles_thread {
	EGLint error;
	struct gles_egl_context *ctx; /* current, or NULL */
};

struct gles_display;
struct gles_egl_sync;
struct gles_egl_image;
struct agx_present_target;
struct agx_present_image;
struct gles_surface;

/*
 * A window platform's side of EGL: one table per platform, one file each
 * (egl_platform_*.c), as Mesa's egl/drivers/dri2/platform_*.c are split.
 * Everything else in the egl_*.c files is the same on every platform and
 * reaches the native display and its windows only through this table.
 * Calls come under the EGL lock.  The window functions are NULL on a
 * platform without windows (surfaceless).
 */
struct gles_platform_ops {
	const char *name;
	EGLenum platform; /* eglGetPlatformDisplay's name of it */
	/*
	 * eglGetPlatformDisplay: the display of native and attribs (the lock
	 * not held), or EGL_NO_DISPLAY with the error set.
	 */
	EGLDisplay (*get_display)(void *native, const EGLAttrib *attribs);
	/* eglInitialize: opens the native display (0 or -errno, said on stderr); NULL: none */
	int (*open)(struct gles_display *dpy);
	/* eglTerminate: lets go of what open made (surfaces may still hold it) */
	void (*close)(struct gles_display *dpy);
	/* eglInitialize, after the base configs: gives those with windows EGL_WINDOW_BIT */
	void (*init_configs)(struct gles_display *dpy);
	/*
	 * The native window the application passed (by_pointer: to the
	 * eglCreatePlatformWindowSurface functions, which take a pointer)
	 * as the handle surfaces keep: EGL_SUCCESS, or EGL_BAD_NATIVE_WINDOW
	 * when it is none at all.
	 */
	EGLint (*window_handle)(void *native, bool by_pointer, uintptr_t *handle);
	/*
	 * Attaches surf (its config able to have windows, its attributes
	 * parsed, surf->window set) to its window and makes its presentation
	 * target: EGL_SUCCESS with the window's size, or the EGL error.
	 */
	EGLint (*window_create)(struct gles_surface *surf, unsigned *width, unsigned *height);
	/* The surface is freed: whatever window_create made goes. */
	void (*window_destroy)(struct gles_surface *surf);
	/* The window's size now (eglSwapBuffers follows it): EGL_SUCCESS or the error. */
	EGLint (*window_size)(struct gles_surface *surf, unsigned *width, unsigned *height);
	/*
	 * Shows a finished frame (its render fence signalled): EGL_SUCCESS
	 * or the error; paced by the surface's swap interval where the
	 * platform can pace.
	 */
	EGLint (*window_present)(struct gles_surface *surf, const struct agx_present_image *image);
	/*
	 * Whether the frame in colour buffer fd is still the compositor's
	 * (wait: until it is not): a surface renders into another one
	 * meanwhile.  NULL: a presented frame is copied at once.
	 */
	bool (*window_busy)(struct gles_surface *surf, int fd, bool wait);
	/* A colour buffer is about to be freed: the target lets go of it. */
	void (*window_forget)(struct gles_surface *surf, int fd);
	/*
	 * eglCreatePixmapSurface's error before the config is looked at, or
	 * EGL_SUCCESS: then a valid config has no pixmaps (EGL_BAD_MATCH).
	 */
	EGLint pixmap_error;
};

extern const struct gles_platform_ops gles_platform_surfaceless_ops;
extern const struct gles_platform_ops gles_platform_x11_ops;
extern const struct gles_platform_ops gles_platform_wayland_ops;

struct gles_surface {
	struct gles_surface *next; /* on its display's list while its handle is valid */
	struct gles_display *dpy;
	unsigned refs; /* the display's list, and each current context bound to it */
	bool valid;    /* on the list: neither destroyed nor terminated */
	const struct gles_config *config;
	struct gles_device *dev;
	struct gles_thread *bound_to; /* the thread whose current context uses it */
	EGLint type;		      /* EGL_PBUFFER_BIT or EGL_WINDOW_BIT */
	/*
	 * A window surface: its native window (the platform's window_handle:
	 * an X11 Window), the platform's state of it, and where its frames go.
	 */
	uintptr_t window;
	void *platform_window;
	struct agx_present_target *present;
	/*
	 * Colour buffers besides drawable.color that a compositor still
	 * holding the last frame lets the surface render into meanwhile
	 * (window_busy); on platforms that copy at once there are none.
	 */
	struct gles_buffer spare_colors[GLES_MAX_SPARE_COLORS];
	unsigned num_spare_colors;
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
	/* its platform; the default display (eglGetDisplay) has the surfaceless one's */
	const struct gles_platform_ops *ops;
	bool initialized;
	struct gles_device *dev;
	struct gles_surface *surfaces;
	struct gles_egl_context *contexts;
	struct gles_egl_sync *syncs;   /* egl_sync.c's, while their handles are valid */
	struct gles_egl_image *images; /* egl_image.c's, likewise */
	/* set by eglInitialize; the handles stay valid (contexts past eglTerminate keep them) */
	struct gles_config configs[GLES_MAX_CONFIGS];
	unsigned num_configs;
	/*
	 * A native display's: the native display (NULL: EGL_DEFAULT_DISPLAY),
	 * the screen asked for (-1: its default), what the platform's open
	 * made while initialized, the next native display
	 */
	void *native;
	EGLint screen;
	void *platform;
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
/* EGL_EXT_image_dma_buf_import_modifiers */
EGLBoolean gles_egl_query_dma_buf_formats(EGLDisplay dpy, EGLint max_formats, EGLint *formats,
					  EGLint *num_formats);
EGLBoolean gles_egl_query_dma_buf_modifiers(EGLDisplay dpy, EGLint format, EGLint max_modifiers,
					    EGLuint64KHR *modifiers, EGLBoolean *external_only,
					    EGLint *num_modifiers);
/* EGL_MESA_image_dma_buf_export */
EGLBoolean gles_egl_export_dma_buf_image_query(EGLDisplay dpy, EGLImage image, int *fourcc,
					       int *num_planes, EGLuint64KHR *modifiers);
EGLBoolean gles_egl_export_dma_buf_image(EGLDisplay dpy, EGLImage image, int *fds, EGLint *strides,
					 EGLint *offsets);

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
/*
 * The display of ops' platform for native and screen, made the first
 * time they are asked for (EGL 1.5 section 3.2: the same arguments give
 * the same display): the handle, or EGL_NO_DISPLAY with EGL_BAD_ALLOC.
 * Takes the lock.
 */
EGLDisplay gles_egl_native_display(const struct gles_platform_ops *ops, void *native,
				   EGLint screen);
/* The one display of the surfaceless platform. */
EGLDisplay gles_egl_surfaceless_display(void);
void gles_device_unref(struct gles_device *dev);
/* The client API bound in the calling thread (libEGL keeps it: eglBindAPI). */
EGLenum gles_egl_current_api(void);

/* ---- egl_config.c ----------------------------------------------------------------------- */

/* Fills dpy's configs (eglInitialize; the native display is open). */
void gles_egl_configs_init(struct gles_display *dpy);
/* The configs every display has (pbuffers only), in their order: n of them. */
const struct gles_config *gles_egl_base_configs(unsigned *n);
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
