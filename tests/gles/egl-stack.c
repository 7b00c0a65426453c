/*
 * egl-stack.c: the GLES tests' shared fixture (egl-stack.h): a stack of
 * the test's own, and our vendor's surfaceless display on it.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include <cmocka.h>

#include <EGL/egl.h>
#include <EGL/eglext.h>

#include "egl-stack.h"

int egl_stack_setup(struct egl_stack *e, const struct test_stack_options *options, EGLint config_id)
{
	const EGLint attribs[] = { EGL_CONFIG_ID, config_id, EGL_NONE };
	EGLint n = 0;

	test_stack_start(&e->stack, options);
	/* libagx, under libEGL_agx, finds the stack by these */
	setenv("AGX_MEMMGR_SOCKET", e->stack.memmgr, 1);
	setenv("AGX_SCHEDULER_SOCKET", e->stack.sched, 1);
	e->dpy = eglGetPlatformDisplay(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, NULL);
	if (e->dpy == EGL_NO_DISPLAY || !eglInitialize(e->dpy, NULL, NULL) ||
	    !eglChooseConfig(e->dpy, attribs, &e->config, 1, &n) || n != 1) {
		test_stack_stop(&e->stack);
		return -1;
	}
	return 0;
}

bool egl_stack_teardown(struct egl_stack *e)
{
	eglTerminate(e->dpy);
	eglReleaseThread();
	return test_stack_stop(&e->stack);
}
