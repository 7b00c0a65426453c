/*
 * egl_platform_surfaceless.c: EGL_MESA_platform_surfaceless, the platform
 * without a native display or windows: one display, pbuffers and
 * surfaceless contexts only.  eglGetDisplay(EGL_DEFAULT_DISPLAY) gives a
 * display of this platform too (egl_main.c), the same device seen the
 * same way.
 */
#include "egl_agx.h"

/* EGL_MESA_platform_surfaceless: native_display must be EGL_DEFAULT_DISPLAY. */
static EGLDisplay surfaceless_get_display(void *native, const EGLAttrib *attribs)
{
	if (native != EGL_DEFAULT_DISPLAY) {
		gles_egl_error(EGL_BAD_PARAMETER);
		return EGL_NO_DISPLAY;
	}
	/* the platform defines no display attributes */
	if (attribs && attribs[0] != EGL_NONE) {
		gles_egl_error(EGL_BAD_ATTRIBUTE);
		return EGL_NO_DISPLAY;
	}
	gles_egl_error(EGL_SUCCESS);
	return gles_egl_surfaceless_display();
}

/*
 * No window functions: the platform has no windows by its definition, and
 * its spec makes window surfaces fail with EGL_BAD_NATIVE_WINDOW and
 * pixmap surfaces with EGL_BAD_NATIVE_PIXMAP whatever the config (piglit's
 * egl_mesa_platform_surfaceless checks both).
 */
const struct gles_platform_ops gles_platform_surfaceless_ops = {
	.name = "surfaceless",
	.platform = EGL_PLATFORM_SURFACELESS_MESA,
	.get_display = surfaceless_get_display,
	.pixmap_error = EGL_BAD_NATIVE_PIXMAP,
};
