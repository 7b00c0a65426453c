/*
 * egl_main.c: libEGL_agx as a glvnd EGL vendor -- __egl_Main and the
 * callbacks it gives libEGL, the table of the EGL functions it serves --
 * and what belongs to no object: the lock, each thread's EGL error, the
 * displays (the surfaceless platform's, the default one, and one for each
 * native display and screen asked for, whose platforms' tables
 * egl_platform_*.c fill), eglInitialize, eglTerminate and eglQueryString.
 *
 * libEGL owns the EGL entry points the application calls, looks up the
 * vendor of each display, and calls our functions through the table that
 * getProcAddress fills; it keeps the current context for GL dispatch
 * itself, and asks us for eglGetError after every call it passed to us.
 * Extension functions that take a display it knows nothing of: this file
 * gives it dispatch stubs for those (getDispatchAddress), one table of them.
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <glvnd/libeglabi.h>

#include "egl_agx.h"

static pthread_mutex_t egl_lock = PTHREAD_MUTEX_INITIALIZER;
static __thread struct gles_thread thread_state = { .error = EGL_SUCCESS };
static const __EGLapiExports *glvnd;

/* The two displays, each opening its own connection to the stack when initialized. */
static struct gles_display displays[] = {
	{ .ops = &gles_platform_surfaceless_ops },
	{ .ops = &gles_platform_surfaceless_ops },
};
/* displays[0] is the surfaceless platform's, displays[1] eglGetDisplay(EGL_DEFAULT_DISPLAY) */
#define SURFACELESS_DISPLAY (&displays[0])
#define DEFAULT_DISPLAY	    (&displays[1])

/*
 * The window platforms, in the order eglGetPlatformDisplay looks: one
 * table each (egl_platform_*.c).
 */
static const struct gles_platform_ops *const platforms[] = {
	&gles_platform_surfaceless_ops,
	&gles_platform_x11_ops,
	&gles_platform_wayland_ops,
};

/*
 * The native displays, one per platform, native display and screen asked
 * for, under the EGL lock.  EGL displays are never destroyed (EGL 1.5
 * section 3.2: eglTerminate only makes them uninitialized), so neither
 * are these.
 */
static struct gles_display *native_displays;

/*
 * Client extensions (those of EGL_NO_DISPLAY; libEGL keeps the ones it
 * knows of), the platforms, and each display's extensions: only what is
 * implemented in full.
 */
static const char client_extensions[] = "EGL_EXT_client_extensions EGL_EXT_platform_base";
static const char platform_extensions[] =
    "EGL_EXT_platform_wayland EGL_EXT_platform_x11 EGL_KHR_platform_wayland "
    "EGL_KHR_platform_x11 EGL_MESA_platform_surfaceless";
static const char display_extensions[] =
    "EGL_ANDROID_native_fence_sync EGL_EXT_create_context_robustness "
    "EGL_EXT_image_dma_buf_import EGL_EXT_image_dma_buf_import_modifiers "
    "EGL_EXT_pixel_format_float EGL_KHR_create_context "
    "EGL_KHR_fence_sync "
    "EGL_KHR_get_all_proc_addresses EGL_KHR_gl_renderbuffer_image EGL_KHR_gl_texture_2D_image "
    "EGL_KHR_image_base "
    "EGL_KHR_surfaceless_context EGL_KHR_wait_sync EGL_MESA_image_dma_buf_export";

void gles_egl_lock(void)
{
	pthread_mutex_lock(&egl_lock);
}

void gles_egl_unlock(void)
{
	pthread_mutex_unlock(&egl_lock);
}

struct gles_thread *gles_egl_thread(void)
{
	return &thread_state;
}

EGLBoolean gles_egl_error(EGLint error)
{
	thread_state.error = error;
	return EGL_FALSE;
}

static EGLint get_error(void)
{
	EGLint error = thread_state.error;

	/* EGL 1.5 section 3.1: reading the error resets it */
	thread_state.error = EGL_SUCCESS;
	return error;
}

#define NUM_STATIC_DISPLAYS (sizeof(displays) / sizeof(displays[0]))

struct gles_display *gles_egl_display_at(unsigned i)
{
	struct gles_display *dpy;

	if (i < NUM_STATIC_DISPLAYS)
		return &displays[i];
	for (dpy = native_displays, i -= NUM_STATIC_DISPLAYS; dpy && i; dpy = dpy->next, i--)
		;
	return dpy;
}

struct gles_display *gles_egl_display(EGLDisplay handle, bool initialized)
{
	struct gles_display *dpy;

	for (unsigned i = 0; (dpy = gles_egl_display_at(i)); i++) {
		if (handle != (EGLDisplay)dpy)
			continue;
		if (initialized && !dpy->initialized) {
			gles_egl_error(EGL_NOT_INITIALIZED);
			return NULL;
		}
		return dpy;
	}
	gles_egl_error(EGL_BAD_DISPLAY);
	return NULL;
}

void gles_device_unref(struct gles_device *dev)
{
	if (!dev || --dev->refs)
		return;
	agx_device_close(dev->agx);
	free(dev);
}

/* ---- displays ---------------------------------------------------------------------------- */

EGLDisplay gles_egl_native_display(const struct gles_platform_ops *ops, void *native, EGLint screen)
{
	struct gles_display *dpy;

	gles_egl_lock();
	for (dpy = native_displays; dpy; dpy = dpy->next)
		if (dpy->ops == ops && dpy->native == native && dpy->screen == screen)
			break;
	if (!dpy && (dpy = calloc(1, sizeof(*dpy)))) {
		dpy->ops = ops;
		dpy->native = native;
		dpy->screen = screen;
		dpy->next = native_displays;
		native_displays = dpy;
	}
	gles_egl_unlock();
	gles_egl_error(dpy ? EGL_SUCCESS : EGL_BAD_ALLOC);
	return dpy ? (EGLDisplay)dpy : EGL_NO_DISPLAY;
}

/* EGL_MESA_platform_surfaceless's one display (its get_display). */
EGLDisplay gles_egl_surfaceless_display(void)
{
	return (EGLDisplay)SURFACELESS_DISPLAY;
}

/*
 * libEGL's eglGetPlatformDisplay and eglGetDisplay: platform EGL_NONE is
 * eglGetDisplay(EGL_DEFAULT_DISPLAY), the only native display libEGL asks
 * every vendor about; eglGetDisplay of a native display libEGL recognizes
 * (an X11 Display) comes with that display's platform.
 */
static EGLDisplay get_platform_display(EGLenum platform, void *native, const EGLAttrib *attribs)
{
	if (platform == EGL_NONE) {
		/* not ours: libEGL goes on to the next vendor, and sees no error from us */
		gles_egl_error(EGL_SUCCESS);
		return native == EGL_DEFAULT_DISPLAY ? (EGLDisplay)DEFAULT_DISPLAY : EGL_NO_DISPLAY;
	}
	for (unsigned i = 0; i < sizeof(platforms) / sizeof(platforms[0]); i++)
		if (platforms[i]->platform == platform)
			return platforms[i]->get_display(native, attribs);
	gles_egl_error(EGL_BAD_PARAMETER);
	return EGL_NO_DISPLAY;
}

static int open_device(struct gles_device **out)
{
	struct gles_device *dev = calloc(1, sizeof(*dev));
	const struct agx_device_info *info;
	int ret;

	*out = NULL;
	if (!dev)
		return -ENOMEM;
	/* the sockets come from AGX_MEMMGR_SOCKET and AGX_SCHEDULER_SOCKET (agx run sets them) */
	ret = agx_device_open(NULL, &dev->agx);
	if (ret < 0) {
		fprintf(stderr, "libEGL_agx: cannot reach the AGX stack: %s\n", agx_device_error());
		free(dev);
		return ret;
	}
	info = agx_device_info(dev->agx);
	snprintf(dev->renderer, sizeof(dev->renderer), "AGX G%u (t%x, %s)", info->generation,
		 info->chip_id, info->firmware_version);
	dev->refs = 1;
	*out = dev;
	return 0;
}

static EGLBoolean initialize(EGLDisplay handle, EGLint *major, EGLint *minor)
{
	struct gles_display *dpy;

	gles_egl_lock();
	dpy = gles_egl_display(handle, false);
	if (!dpy)
		goto fail;
	/* EGL 1.5 section 3.2: initializing an initialized display only returns the version */
	if (!dpy->initialized) {
		if (dpy->ops->open && dpy->ops->open(dpy) < 0) {
			gles_egl_error(EGL_NOT_INITIALIZED);
			goto fail;
		}
		if (open_device(&dpy->dev) < 0) {
			if (dpy->ops->close)
				dpy->ops->close(dpy);
			gles_egl_error(EGL_NOT_INITIALIZED);
			goto fail;
		}
		gles_egl_configs_init(dpy);
		dpy->initialized = true;
	}
	gles_egl_unlock();
	if (major)
		*major = 1;
	if (minor)
		*minor = 5;
	gles_egl_error(EGL_SUCCESS);
	return EGL_TRUE;

fail:
	gles_egl_unlock();
	return EGL_FALSE;
}

/*
 * EGL 1.5 section 3.2: every context and surface of the display is marked
 * for deletion and its handle is invalid at once; those current in some
 * thread live on until they are released.  Terminating a display that is
 * not initialized does nothing.
 */
static EGLBoolean terminate(EGLDisplay handle)
{
	struct gles_display *dpy;

	gles_egl_lock();
	dpy = gles_egl_display(handle, false);
	if (!dpy) {
		gles_egl_unlock();
		return EGL_FALSE;
	}
	if (dpy->initialized) {
		while (dpy->contexts)
			gles_egl_context_terminate(dpy->contexts);
		while (dpy->surfaces)
			gles_surface_terminate(dpy->surfaces);
		gles_egl_syncs_terminate(dpy);
		gles_egl_images_terminate(dpy);
		gles_device_unref(dpy->dev);
		dpy->dev = NULL;
		/* window surfaces still current keep what they need of the native display */
		if (dpy->ops->close)
			dpy->ops->close(dpy);
		dpy->initialized = false;
	}
	gles_egl_unlock();
	gles_egl_error(EGL_SUCCESS);
	return EGL_TRUE;
}

static const char *query_string(EGLDisplay handle, EGLint name)
{
	struct gles_display *dpy;
	const char *s = NULL;

	if (handle == EGL_NO_DISPLAY && name == EGL_EXTENSIONS) {
		gles_egl_error(EGL_SUCCESS);
		return client_extensions;
	}
	gles_egl_lock();
	dpy = gles_egl_display(handle, true);
	gles_egl_unlock();
	if (!dpy)
		return NULL;
	switch (name) {
	case EGL_CLIENT_APIS:
		s = "OpenGL_ES";
		break;
	case EGL_EXTENSIONS:
		s = display_extensions;
		break;
	case EGL_VENDOR:
		s = "AGX driver stack";
		break;
	case EGL_VERSION:
		s = "1.5";
		break;
	default:
		gles_egl_error(EGL_BAD_PARAMETER);
		return NULL;
	}
	gles_egl_error(EGL_SUCCESS);
	return s;
}

/* ---- the vendor ------------------------------------------------------------------------- */

struct egl_proc {
	const char *name;
	void *func;
};

/*
 * Every EGL function this vendor serves: libEGL takes the EGL 1.5 ones into
 * its static table and fails to load a vendor that lacks one of the 1.0 to
 * 1.2 functions; an EGL 1.5 one it lacks is a NULL an application calls.
 */
static const struct egl_proc egl_procs[] = {
	{ "eglBindTexImage", (void *)gles_egl_bind_tex_image },
	{ "eglChooseConfig", (void *)gles_egl_choose_config },
	{ "eglCopyBuffers", (void *)gles_egl_copy_buffers },
	{ "eglClientWaitSync", (void *)gles_egl_client_wait_sync },
	{ "eglCreateContext", (void *)gles_egl_create_context },
	{ "eglCreateImage", (void *)gles_egl_create_image },
	{ "eglCreatePbufferFromClientBuffer", (void *)gles_egl_create_pbuffer_from_client_buffer },
	{ "eglCreatePbufferSurface", (void *)gles_egl_create_pbuffer_surface },
	{ "eglCreatePixmapSurface", (void *)gles_egl_create_pixmap_surface },
	{ "eglCreatePlatformPixmapSurface", (void *)gles_egl_create_platform_pixmap_surface },
	{ "eglCreatePlatformPixmapSurfaceEXT",
	  (void *)gles_egl_create_platform_pixmap_surface_ext },
	{ "eglCreatePlatformWindowSurface", (void *)gles_egl_create_platform_window_surface },
	{ "eglCreatePlatformWindowSurfaceEXT",
	  (void *)gles_egl_create_platform_window_surface_ext },
	{ "eglCreateSync", (void *)gles_egl_create_sync },
	{ "eglCreateWindowSurface", (void *)gles_egl_create_window_surface },
	{ "eglDestroyContext", (void *)gles_egl_destroy_context },
	{ "eglDestroyImage", (void *)gles_egl_destroy_image },
	{ "eglDestroySurface", (void *)gles_egl_destroy_surface },
	{ "eglDestroySync", (void *)gles_egl_destroy_sync },
	{ "eglGetConfigAttrib", (void *)gles_egl_get_config_attrib },
	{ "eglGetConfigs", (void *)gles_egl_get_configs },
	{ "eglGetError", (void *)get_error },
	{ "eglGetSyncAttrib", (void *)gles_egl_get_sync_attrib },
	{ "eglInitialize", (void *)initialize },
	{ "eglMakeCurrent", (void *)gles_egl_make_current },
	{ "eglQueryContext", (void *)gles_egl_query_context },
	{ "eglQueryString", (void *)query_string },
	{ "eglQuerySurface", (void *)gles_egl_query_surface },
	{ "eglReleaseTexImage", (void *)gles_egl_release_tex_image },
	{ "eglReleaseThread", (void *)gles_egl_release_thread },
	{ "eglSurfaceAttrib", (void *)gles_egl_surface_attrib },
	{ "eglSwapBuffers", (void *)gles_egl_swap_buffers },
	{ "eglSwapInterval", (void *)gles_egl_swap_interval },
	{ "eglTerminate", (void *)terminate },
	{ "eglWaitClient", (void *)gles_egl_wait_client },
	{ "eglWaitGL", (void *)gles_egl_wait_gl },
	{ "eglWaitNative", (void *)gles_egl_wait_native },
	{ "eglWaitSync", (void *)gles_egl_wait_sync },
};

/* ---- EGL extension functions that take a display ------------------------------------- */

/*
 * libEGL has no entry points of its own for these: an application's
 * eglGetProcAddress asks the vendors' getDispatchAddress for a dispatch
 * stub, gives the name a dispatch index (setDispatchIndex, told to every
 * vendor), and hands the stub out.  The stub serves every vendor's
 * displays: it finds the display's vendor, and that vendor's function by
 * the index (fetchDispatchEntry, which asks the vendor's getProcAddress
 * for the name), as libglvnd's generated stubs for its own functions do:
 * no vendor, or a vendor without the function, is EGL_BAD_DISPLAY and the
 * return type's failure value.
 *
 * X(return type, name, our function, failure value, parameters, arguments)
 */
#define EXT_PROCS(X)                                                                               \
	X(EGLint, eglClientWaitSyncKHR, gles_egl_client_wait_sync, EGL_FALSE,                      \
	  (EGLDisplay dpy, EGLSyncKHR sync, EGLint flags, EGLTimeKHR timeout),                     \
	  (dpy, sync, flags, timeout))                                                             \
	X(EGLImageKHR, eglCreateImageKHR, gles_egl_create_image_khr, EGL_NO_IMAGE_KHR,             \
	  (EGLDisplay dpy, EGLContext ctx, EGLenum target, EGLClientBuffer buffer,                 \
	   const EGLint *attribs),                                                                 \
	  (dpy, ctx, target, buffer, attribs))                                                     \
	X(EGLSyncKHR, eglCreateSyncKHR, gles_egl_create_sync_khr, EGL_NO_SYNC_KHR,                 \
	  (EGLDisplay dpy, EGLenum type, const EGLint *attribs), (dpy, type, attribs))             \
	X(EGLBoolean, eglDestroyImageKHR, gles_egl_destroy_image, EGL_FALSE,                       \
	  (EGLDisplay dpy, EGLImageKHR image), (dpy, image))                                       \
	X(EGLBoolean, eglDestroySyncKHR, gles_egl_destroy_sync, EGL_FALSE,                         \
	  (EGLDisplay dpy, EGLSyncKHR sync), (dpy, sync))                                          \
	X(EGLBoolean, eglGetSyncAttribKHR, gles_egl_get_sync_attrib_khr, EGL_FALSE,                \
	  (EGLDisplay dpy, EGLSyncKHR sync, EGLint attribute, EGLint * value),                     \
	  (dpy, sync, attribute, value))                                                           \
	X(EGLBoolean, eglExportDMABUFImageMESA, gles_egl_export_dma_buf_image, EGL_FALSE,          \
	  (EGLDisplay dpy, EGLImageKHR image, int *fds, EGLint *strides, EGLint *offsets),         \
	  (dpy, image, fds, strides, offsets))                                                     \
	X(EGLBoolean, eglExportDMABUFImageQueryMESA, gles_egl_export_dma_buf_image_query,          \
	  EGL_FALSE,                                                                               \
	  (EGLDisplay dpy, EGLImageKHR image, int *fourcc, int *num_planes,                        \
	   EGLuint64KHR *modifiers),                                                               \
	  (dpy, image, fourcc, num_planes, modifiers))                                             \
	X(EGLBoolean, eglQueryDmaBufFormatsEXT, gles_egl_query_dma_buf_formats, EGL_FALSE,         \
	  (EGLDisplay dpy, EGLint max_formats, EGLint * formats, EGLint * num_formats),            \
	  (dpy, max_formats, formats, num_formats))                                                \
	X(EGLBoolean, eglQueryDmaBufModifiersEXT, gles_egl_query_dma_buf_modifiers, EGL_FALSE,     \
	  (EGLDisplay dpy, EGLint format, EGLint max_modifiers, EGLuint64KHR * modifiers,          \
	   EGLBoolean * external_only, EGLint * num_modifiers),                                    \
	  (dpy, format, max_modifiers, modifiers, external_only, num_modifiers))                   \
	X(EGLint, eglDupNativeFenceFDANDROID, gles_egl_dup_native_fence_fd,                        \
	  EGL_NO_NATIVE_FENCE_FD_ANDROID, (EGLDisplay dpy, EGLSyncKHR sync), (dpy, sync))          \
	X(EGLint, eglWaitSyncKHR, gles_egl_wait_sync_khr, EGL_FALSE,                               \
	  (EGLDisplay dpy, EGLSyncKHR sync, EGLint flags), (dpy, sync, flags))

#define EXT_INDEX(ret, name, func, fail, params, args) EXT_##name,
enum { EXT_PROCS(EXT_INDEX) NUM_EXT_PROCS };

/* The dispatch index libEGL gave each name, -1 until it gives one. */
static int ext_dispatch_index[NUM_EXT_PROCS];

/* The function of the display's vendor for ext_procs[i]: NULL with the error set. */
static __eglMustCastToProperFunctionPointerType ext_fetch(EGLDisplay dpy, unsigned i)
{
	int index = __atomic_load_n(&ext_dispatch_index[i], __ATOMIC_ACQUIRE);
	__eglMustCastToProperFunctionPointerType f = NULL;
	__EGLvendorInfo *vendor;

	glvnd->threadInit();
	vendor = glvnd->getVendorFromDisplay(dpy);
	if (vendor && index >= 0)
		f = glvnd->fetchDispatchEntry(vendor, index);
	if (!f) {
		glvnd->setEGLError(EGL_BAD_DISPLAY);
		return NULL;
	}
	/* libEGL's eglGetError then asks that vendor */
	if (!glvnd->setLastVendor(vendor)) {
		glvnd->setEGLError(EGL_BAD_ALLOC);
		return NULL;
	}
	return f;
}

#define EXT_STUB(ret, name, func, fail, params, args)                                              \
	static ret stub_##name params                                                              \
	{                                                                                          \
		_Static_assert(__builtin_types_compatible_p(__typeof__(&func), ret(*) params),     \
			       #func " has the type of " #name);                                   \
		ret(*f) params = (ret(*) params)ext_fetch(dpy, EXT_##name);                        \
                                                                                                   \
		return f ? f args : fail;                                                          \
	}
EXT_PROCS(EXT_STUB)

struct egl_ext_proc {
	const char *name;
	void *func; /* ours, for getProcAddress */
	void *stub; /* the dispatch stub, for getDispatchAddress */
};

#define EXT_ENTRY(ret, name, func, fail, params, args) { #name, (void *)func, (void *)stub_##name },
static const struct egl_ext_proc ext_procs[] = { EXT_PROCS(EXT_ENTRY) };

static int ext_proc(const char *name)
{
	for (unsigned i = 0; i < NUM_EXT_PROCS; i++)
		if (strcmp(ext_procs[i].name, name) == 0)
			return (int)i;
	return -1;
}

/* EGL functions from egl_procs and ext_procs, GL functions from gl_table.c. */
static void *get_proc_address(const char *name)
{
	int i;

	if (strncmp(name, "egl", 3) != 0)
		return gles_gl_proc(name);
	for (unsigned j = 0; j < sizeof(egl_procs) / sizeof(egl_procs[0]); j++)
		if (strcmp(egl_procs[j].name, name) == 0)
			return egl_procs[j].func;
	i = ext_proc(name);
	return i >= 0 ? ext_procs[i].func : NULL;
}

static void *get_dispatch_address(const char *name)
{
	int i = ext_proc(name);

	return i >= 0 ? ext_procs[i].stub : NULL;
}

/* Called for every name some vendor has a stub for, under libEGL's lock. */
static void set_dispatch_index(const char *name, int index)
{
	int i = ext_proc(name);

	if (i >= 0)
		__atomic_store_n(&ext_dispatch_index[i], index, __ATOMIC_RELEASE);
}

static EGLBoolean supports_api(EGLenum api)
{
	return api == EGL_OPENGL_ES_API;
}

static const char *vendor_string(int name)
{
	return name == __EGL_VENDOR_STRING_PLATFORM_EXTENSIONS ? platform_extensions : NULL;
}

/* The API libEGL has bound in the calling thread (eglBindAPI). */
EGLenum gles_egl_current_api(void)
{
	return glvnd->getCurrentApi();
}

__attribute__((visibility("default"))) EGLBoolean __egl_Main(uint32_t version,
							     const __EGLapiExports *exports,
							     __EGLvendorInfo *vendor,
							     __EGLapiImports *imports)
{
	(void)vendor;
	/* the minor version only adds callbacks; those this vendor uses are in 0.0 */
	if (EGL_VENDOR_ABI_GET_MAJOR_VERSION(version) != EGL_VENDOR_ABI_MAJOR_VERSION)
		return EGL_FALSE;
	glvnd = exports;
	for (unsigned i = 0; i < NUM_EXT_PROCS; i++)
		ext_dispatch_index[i] = -1;
	/* libEGL hands over imports zeroed: the optional callbacks stay NULL */
	imports->getPlatformDisplay = get_platform_display;
	imports->getSupportsAPI = supports_api;
	imports->getVendorString = vendor_string;
	imports->getProcAddress = get_proc_address;
	imports->getDispatchAddress = get_dispatch_address;
	imports->setDispatchIndex = set_dispatch_index;
	return EGL_TRUE;
}
