/*
 * egl-stack.h: the fixture the GLES tests over glvnd share -- the real
 * stack (tests/stack.h), libagx pointed at it, our surfaceless display
 * initialized and one of its configs chosen by id.
 */
#ifndef TESTS_GLES_EGL_STACK_H
#define TESTS_GLES_EGL_STACK_H

#include <stdbool.h>

#include <EGL/egl.h>

#include "stack.h"

struct egl_stack {
	struct test_stack stack;
	EGLDisplay dpy;
	EGLConfig config;
};

/*
 * Starts the stack and initializes the display; 0, or -1 (the stack
 * stopped again) when the display or the config config_id is not there.
 */
int egl_stack_setup(struct egl_stack *e, const struct test_stack_options *options,
		    EGLint config_id);
/* Terminates the display and stops the stack: whether every daemon exited cleanly. */
bool egl_stack_teardown(struct egl_stack *e);

#endif
