/*
 * test-sync: GLES 3.0 sync objects (gles/sync.c) through glvnd over the
 * real stack -- fences after GPU clears, glClientWaitSync's answers and
 * glGetSynciv's status before and after a wait, every query and error of
 * the six entry points, waits from other threads and other contexts of the
 * share group (which read what the fenced clears wrote), a delete while
 * another thread waits, a sync that outlives the context whose work it
 * fences, another group's contexts, and an ES 2.0 request (an ES 3.0
 * context, with sync objects); EGL 1.5's sync objects, and
 * EGL_KHR_fence_sync's and EGL_KHR_wait_sync's forms of them through
 * eglGetProcAddress.
 *
 * No timing is asserted: where the GPU may or may not be done, each
 * answer the spec allows is accepted, and the answers must agree with
 * each other (a sync found signaled stays signaled).
 */
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include <EGL/egl.h>
#include <EGL/eglext.h>
#include <GLES3/gl3.h>

#include "egl-stack.h"
#include "metric.h"

static struct test_stack_options options;
static struct egl_stack fixture;
static EGLDisplay dpy;
static EGLConfig config;

#define assert_gl_error(expected) assert_int_equal(glGetError(), (expected))

/*
 * A renderbuffer big enough that a clear of it keeps the simulated GPU
 * busy for a while -- and small enough that one clear stays well inside
 * agx-sim's 5 s limit of GPU time per job, also in the sanitizer build.
 */
#define BIG   256
#define LONG  60000000000ull /* 60 s: waits that must end long before */
#define BOGUS ((GLsync)(uintptr_t)0x7fff1234u)

static EGLContext context(EGLint major, EGLContext share)
{
	const EGLint attribs[] = { EGL_CONTEXT_MAJOR_VERSION, major, EGL_CONTEXT_MINOR_VERSION, 0,
				   EGL_NONE };

	return eglCreateContext(dpy, config, share, attribs);
}

static EGLContext current_new(EGLint major, EGLContext share)
{
	EGLContext ctx = context(major, share);

	assert_ptr_not_equal(ctx, EGL_NO_CONTEXT);
	assert_true(eglMakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, ctx));
	assert_gl_error(GL_NO_ERROR);
	return ctx;
}

static void destroy_current(EGLContext ctx)
{
	assert_true(eglMakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT));
	assert_true(eglDestroyContext(dpy, ctx));
}

static GLint sync_int(GLsync s, GLenum pname)
{
	GLint v = -12345;
	GLsizei len = -1;

	glGetSynciv(s, pname, 1, &len, &v);
	assert_gl_error(GL_NO_ERROR);
	assert_int_equal(len, 1);
	return v;
}

/* A BIG x BIG RGBA8 renderbuffer (a name of the share group) in a new FBO, bound for drawing. */
static GLuint big_target(GLuint *fbo)
{
	GLuint rb;

	glGenRenderbuffers(1, &rb);
	glBindRenderbuffer(GL_RENDERBUFFER, rb);
	glRenderbufferStorage(GL_RENDERBUFFER, GL_RGBA8, BIG, BIG);
	glGenFramebuffers(1, fbo);
	glBindFramebuffer(GL_FRAMEBUFFER, *fbo);
	glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, rb);
	assert_int_equal(glCheckFramebufferStatus(GL_FRAMEBUFFER), GL_FRAMEBUFFER_COMPLETE);
	assert_gl_error(GL_NO_ERROR);
	return rb;
}

/*
 * n clears of the bound framebuffer, the last one to red level `last`,
 * each flushed on its own: the submission would make one job of them all,
 * and several might outlast agx-sim's GPU time limit of a job together.
 */
static void clears(unsigned n, unsigned last)
{
	for (unsigned i = 0; i < n; i++) {
		unsigned v = i + 1 == n ? last : (i * 37) & 0xff;

		glClearColor(v / 255.0f, 0.5f, 1.0f - v / 255.0f, 1.0f);
		glClear(GL_COLOR_BUFFER_BIT);
		glFlush();
	}
	assert_gl_error(GL_NO_ERROR);
}

/* Whether the corners and the middle of the bound read framebuffer hold clears(.., last)'s colour.
 */
static bool holds(unsigned last)
{
	static const int at[5][2] = {
		{ 0, 0 }, { BIG - 1, 0 }, { 0, BIG - 1 }, { BIG - 1, BIG - 1 }, { BIG / 2, BIG / 3 }
	};
	const uint8_t want[4] = { (uint8_t)last, 128, (uint8_t)(255 - last), 255 };

	for (int i = 0; i < 5; i++) {
		uint8_t px[4] = { 0 };

		glReadPixels(at[i][0], at[i][1], 1, 1, GL_RGBA, GL_UNSIGNED_BYTE, px);
		if (glGetError() != GL_NO_ERROR || memcmp(px, want, 4) != 0)
			return false;
	}
	return true;
}

/* ---- a fence after GPU work ------------------------------------------------------------- */

static void test_fence_after_clears(void **state)
{
	EGLContext ctx = current_new(3, EGL_NO_CONTEXT);
	unsigned unsignaled = 0, rounds = 4;
	GLuint fbo, rb = big_target(&fbo);

	(void)state;
	for (unsigned r = 0; r < rounds; r++) {
		GLsync s;
		GLint status;
		GLenum quick, slow;

		clears(4, 10 + r);
		s = glFenceSync(GL_SYNC_GPU_COMMANDS_COMPLETE, 0);
		assert_non_null(s);
		assert_gl_error(GL_NO_ERROR);
		assert_true(glIsSync(s));

		status = sync_int(s, GL_SYNC_STATUS);
		assert_true(status == GL_SIGNALED || status == GL_UNSIGNALED);
		/* a zero timeout only looks */
		quick = glClientWaitSync(s, 0, 0);
		if (status == GL_SIGNALED)
			assert_int_equal(quick, GL_ALREADY_SIGNALED);
		else
			assert_true(quick == GL_ALREADY_SIGNALED || quick == GL_TIMEOUT_EXPIRED);
		unsignaled += quick == GL_TIMEOUT_EXPIRED;

		slow = glClientWaitSync(s, GL_SYNC_FLUSH_COMMANDS_BIT, LONG);
		assert_gl_error(GL_NO_ERROR);
		if (quick == GL_ALREADY_SIGNALED)
			assert_int_equal(slow, GL_ALREADY_SIGNALED);
		else
			assert_true(slow == GL_ALREADY_SIGNALED || slow == GL_CONDITION_SATISFIED);
		/* signaled for good */
		assert_int_equal(sync_int(s, GL_SYNC_STATUS), GL_SIGNALED);
		assert_int_equal(glClientWaitSync(s, 0, 0), GL_ALREADY_SIGNALED);
		assert_int_equal(glClientWaitSync(s, 0, LONG), GL_ALREADY_SIGNALED);
		/* the rest of table 6.39 */
		assert_int_equal(sync_int(s, GL_OBJECT_TYPE), GL_SYNC_FENCE);
		assert_int_equal(sync_int(s, GL_SYNC_CONDITION), GL_SYNC_GPU_COMMANDS_COMPLETE);
		assert_int_equal(sync_int(s, GL_SYNC_FLAGS), 0);
		assert_true(holds(10 + r));

		glDeleteSync(s);
		assert_gl_error(GL_NO_ERROR);
		assert_false(glIsSync(s));
	}
	print_message("# %u of %u fences were unsignaled at the first look\n", unsignaled, rounds);

	/* glWaitSync on the context's own fence: later commands come after it */
	clears(3, 77);
	{
		GLsync s = glFenceSync(GL_SYNC_GPU_COMMANDS_COMPLETE, 0);

		glWaitSync(s, 0, GL_TIMEOUT_IGNORED);
		assert_gl_error(GL_NO_ERROR);
		assert_true(holds(77));
		glDeleteSync(s);
	}

	glDeleteFramebuffers(1, &fbo);
	glDeleteRenderbuffers(1, &rb);
	destroy_current(ctx);
}

/*
 * EGL 1.5's sync objects (section 3.8): a fence
 * of the current context's work, waited for and queried, and the errors.
 * EGL images are refused (no source is implemented).
 */
static void test_egl_sync(void **state)
{
	const EGLAttrib bad_attribs[] = { EGL_SYNC_STATUS, EGL_SIGNALED, EGL_NONE };
	EGLContext ctx;
	GLuint fbo, rb;
	EGLAttrib v = 0;
	EGLSync sync;

	(void)state;
	/* no current context: nothing to fence */
	assert_ptr_equal(eglCreateSync(dpy, EGL_SYNC_FENCE, NULL), EGL_NO_SYNC);
	assert_int_equal(eglGetError(), EGL_BAD_MATCH);

	ctx = current_new(3, EGL_NO_CONTEXT);
	rb = big_target(&fbo);
	clears(3, 91);
	sync = eglCreateSync(dpy, EGL_SYNC_FENCE, NULL);
	assert_ptr_not_equal(sync, EGL_NO_SYNC);
	assert_true(eglGetSyncAttrib(dpy, sync, EGL_SYNC_TYPE, &v));
	assert_int_equal(v, EGL_SYNC_FENCE);
	assert_true(eglGetSyncAttrib(dpy, sync, EGL_SYNC_CONDITION, &v));
	assert_int_equal(v, EGL_SYNC_PRIOR_COMMANDS_COMPLETE);
	assert_true(eglGetSyncAttrib(dpy, sync, EGL_SYNC_STATUS, &v));
	assert_true(v == EGL_SIGNALED || v == EGL_UNSIGNALED);
	assert_int_equal(eglClientWaitSync(dpy, sync, EGL_SYNC_FLUSH_COMMANDS_BIT, EGL_FOREVER),
			 EGL_CONDITION_SATISFIED);
	assert_true(eglGetSyncAttrib(dpy, sync, EGL_SYNC_STATUS, &v));
	assert_int_equal(v, EGL_SIGNALED);
	/* the fenced work is done: the clears are in the framebuffer */
	assert_true(holds(91));
	assert_int_equal(eglClientWaitSync(dpy, sync, 0, 0), EGL_CONDITION_SATISFIED);
	assert_false(eglGetSyncAttrib(dpy, sync, 0x3099 /* not a sync attribute */, &v));
	assert_int_equal(eglGetError(), EGL_BAD_ATTRIBUTE);
	assert_false(eglGetSyncAttrib(dpy, sync, EGL_SYNC_TYPE, NULL));
	assert_int_equal(eglGetError(), EGL_BAD_PARAMETER);
	assert_true(eglDestroySync(dpy, sync));
	/* a destroyed handle is no sync any more */
	assert_false(eglDestroySync(dpy, sync));
	assert_int_equal(eglGetError(), EGL_BAD_PARAMETER);
	assert_int_equal(eglClientWaitSync(dpy, sync, 0, 0), EGL_FALSE);
	assert_int_equal(eglGetError(), EGL_BAD_PARAMETER);

	/* eglWaitSync: the context's later commands come after the fence */
	clears(2, 44);
	sync = eglCreateSync(dpy, EGL_SYNC_FENCE, (const EGLAttrib[]){ EGL_NONE });
	assert_ptr_not_equal(sync, EGL_NO_SYNC);
	assert_true(eglWaitSync(dpy, sync, 0));
	assert_true(holds(44));
	assert_false(eglWaitSync(dpy, sync, 1));
	assert_int_equal(eglGetError(), EGL_BAD_PARAMETER);
	assert_true(eglDestroySync(dpy, sync));

	/* errors: the type, attributes, the display */
	assert_ptr_equal(eglCreateSync(dpy, EGL_SYNC_REUSABLE_KHR, NULL), EGL_NO_SYNC);
	assert_int_equal(eglGetError(), EGL_BAD_PARAMETER);
	assert_ptr_equal(eglCreateSync(dpy, EGL_SYNC_FENCE, bad_attribs), EGL_NO_SYNC);
	assert_int_equal(eglGetError(), EGL_BAD_ATTRIBUTE);
	assert_ptr_equal(eglCreateSync((EGLDisplay)&v, EGL_SYNC_FENCE, NULL), EGL_NO_SYNC);
	assert_int_equal(eglGetError(), EGL_BAD_DISPLAY);

	glDeleteFramebuffers(1, &fbo);
	glDeleteRenderbuffers(1, &rb);
	destroy_current(ctx);
}

/* Whether the space-separated list names ext. */
static bool lists(const char *list, const char *ext)
{
	size_t n = strlen(ext);

	for (const char *p = list; p && (p = strstr(p, ext)); p += n)
		if ((p == list || p[-1] == ' ') && (p[n] == ' ' || p[n] == '\0'))
			return true;
	return false;
}

/*
 * EGL_KHR_fence_sync and EGL_KHR_wait_sync as an application reaches them:
 * libEGL's eglGetProcAddress gives our vendor's dispatch stubs, which find
 * the display's vendor.  The forms differ from EGL 1.5's in their EGLint
 * attributes and values, and in two errors.
 */
static void test_khr_sync(void **state)
{
	PFNEGLCREATESYNCKHRPROC create =
	    (PFNEGLCREATESYNCKHRPROC)eglGetProcAddress("eglCreateSyncKHR");
	PFNEGLDESTROYSYNCKHRPROC destroy =
	    (PFNEGLDESTROYSYNCKHRPROC)eglGetProcAddress("eglDestroySyncKHR");
	PFNEGLCLIENTWAITSYNCKHRPROC client_wait =
	    (PFNEGLCLIENTWAITSYNCKHRPROC)eglGetProcAddress("eglClientWaitSyncKHR");
	PFNEGLGETSYNCATTRIBKHRPROC get =
	    (PFNEGLGETSYNCATTRIBKHRPROC)eglGetProcAddress("eglGetSyncAttribKHR");
	PFNEGLWAITSYNCKHRPROC wait = (PFNEGLWAITSYNCKHRPROC)eglGetProcAddress("eglWaitSyncKHR");
	EGLDisplay def = eglGetDisplay(EGL_DEFAULT_DISPLAY);
	EGLint v = -1;
	EGLAttrib av = 0;
	EGLContext ctx;
	EGLSyncKHR sync, core;
	GLuint fbo, rb;

	(void)state;
	assert_true(lists(eglQueryString(dpy, EGL_EXTENSIONS), "EGL_KHR_fence_sync"));
	assert_true(lists(eglQueryString(dpy, EGL_EXTENSIONS), "EGL_KHR_wait_sync"));
	assert_false(lists(eglQueryString(dpy, EGL_EXTENSIONS), "EGL_KHR_reusable_sync"));
	assert_non_null(create);
	assert_non_null(destroy);
	assert_non_null(client_wait);
	assert_non_null(get);
	assert_non_null(wait);
	/* a name that is no display function has no stub */
	assert_null(eglGetProcAddress("eglSignalSyncKHR"));

	/* no current context: nothing to fence, nothing to wait in */
	assert_ptr_equal(create(dpy, EGL_SYNC_FENCE_KHR, NULL), EGL_NO_SYNC_KHR);
	assert_int_equal(eglGetError(), EGL_BAD_MATCH);

	ctx = current_new(3, EGL_NO_CONTEXT);
	assert_true(lists((const char *)glGetString(GL_EXTENSIONS), "GL_OES_EGL_sync"));
	rb = big_target(&fbo);
	clears(3, 91);
	sync = create(dpy, EGL_SYNC_FENCE_KHR, (const EGLint[]){ EGL_NONE });
	assert_ptr_not_equal(sync, EGL_NO_SYNC_KHR);
	assert_int_equal(eglGetError(), EGL_SUCCESS);
	assert_true(get(dpy, sync, EGL_SYNC_TYPE_KHR, &v));
	assert_int_equal(v, EGL_SYNC_FENCE_KHR);
	assert_true(get(dpy, sync, EGL_SYNC_CONDITION_KHR, &v));
	assert_int_equal(v, EGL_SYNC_PRIOR_COMMANDS_COMPLETE_KHR);
	assert_true(get(dpy, sync, EGL_SYNC_STATUS_KHR, &v));
	assert_true(v == EGL_SIGNALED_KHR || v == EGL_UNSIGNALED_KHR);
	if (v == EGL_UNSIGNALED_KHR) {
		EGLint r = client_wait(dpy, sync, 0, 0);

		/* a look: either answer, as the GPU may have finished since */
		assert_true(r == EGL_TIMEOUT_EXPIRED_KHR || r == EGL_CONDITION_SATISFIED_KHR);
	}
	assert_int_equal(client_wait(dpy, sync, EGL_SYNC_FLUSH_COMMANDS_BIT_KHR, EGL_FOREVER_KHR),
			 EGL_CONDITION_SATISFIED_KHR);
	assert_int_equal(eglGetError(), EGL_SUCCESS);
	assert_true(get(dpy, sync, EGL_SYNC_STATUS_KHR, &v));
	assert_int_equal(v, EGL_SIGNALED_KHR);
	assert_true(holds(91));
	assert_int_equal(client_wait(dpy, sync, 0, 0), EGL_CONDITION_SATISFIED_KHR);
	assert_int_equal(client_wait(dpy, sync, 0, LONG), EGL_CONDITION_SATISFIED_KHR);

	/* eglGetSyncAttribKHR's errors leave *value alone */
	v = -7;
	assert_false(get(dpy, sync, 0x3099 /* not a sync attribute */, &v));
	assert_int_equal(eglGetError(), EGL_BAD_ATTRIBUTE);
	assert_false(get(dpy, sync, EGL_SYNC_FLUSH_COMMANDS_BIT_KHR, &v));
	assert_int_equal(eglGetError(), EGL_BAD_ATTRIBUTE);
	assert_false(get(dpy, (EGLSyncKHR)&v, EGL_SYNC_TYPE_KHR, &v));
	assert_int_equal(eglGetError(), EGL_BAD_PARAMETER);
	assert_false(get(dpy, EGL_NO_SYNC_KHR, EGL_SYNC_TYPE_KHR, &v));
	assert_int_equal(eglGetError(), EGL_BAD_PARAMETER);
	assert_int_equal(v, -7);
	assert_false(get(dpy, sync, EGL_SYNC_TYPE_KHR, NULL));
	assert_int_equal(eglGetError(), EGL_BAD_PARAMETER);

	/* one kind of object: the core functions take a KHR sync, and the other way round */
	assert_true(eglGetSyncAttrib(dpy, sync, EGL_SYNC_TYPE, &av));
	assert_int_equal(av, EGL_SYNC_FENCE);
	core = eglCreateSync(dpy, EGL_SYNC_FENCE, NULL);
	assert_ptr_not_equal(core, EGL_NO_SYNC);
	assert_int_equal(client_wait(dpy, core, 0, EGL_FOREVER_KHR), EGL_CONDITION_SATISFIED_KHR);
	assert_true(destroy(dpy, core));
	assert_true(destroy(dpy, sync));
	assert_int_equal(eglGetError(), EGL_SUCCESS);
	/* a destroyed handle is no sync any more */
	assert_false(destroy(dpy, sync));
	assert_int_equal(eglGetError(), EGL_BAD_PARAMETER);
	assert_int_equal(client_wait(dpy, sync, 0, 0), EGL_FALSE);
	assert_int_equal(eglGetError(), EGL_BAD_PARAMETER);
	assert_int_equal(wait(dpy, sync, 0), EGL_FALSE);
	assert_int_equal(eglGetError(), EGL_BAD_PARAMETER);
	assert_false(eglDestroySync(dpy, sync));
	assert_int_equal(eglGetError(), EGL_BAD_PARAMETER);

	/* eglWaitSyncKHR: the context's later commands come after the fence */
	clears(2, 44);
	sync = create(dpy, EGL_SYNC_FENCE_KHR, NULL);
	assert_ptr_not_equal(sync, EGL_NO_SYNC_KHR);
	assert_int_equal(wait(dpy, sync, 0), EGL_TRUE);
	assert_int_equal(eglGetError(), EGL_SUCCESS);
	assert_true(holds(44));
	assert_int_equal(wait(dpy, sync, 1), EGL_FALSE);
	assert_int_equal(eglGetError(), EGL_BAD_PARAMETER);

	/*
	 * eglCreateSyncKHR's own errors: an unknown type (a reusable sync
	 * too: EGL_KHR_reusable_sync is not there) and attributes are
	 * EGL_BAD_ATTRIBUTE; EGL 1.5's eglCreateSync says EGL_BAD_PARAMETER
	 * for the type
	 */
	assert_ptr_equal(create(dpy, EGL_SYNC_REUSABLE_KHR, NULL), EGL_NO_SYNC_KHR);
	assert_int_equal(eglGetError(), EGL_BAD_ATTRIBUTE);
	assert_ptr_equal(create(dpy, 0x1234, NULL), EGL_NO_SYNC_KHR);
	assert_int_equal(eglGetError(), EGL_BAD_ATTRIBUTE);
	assert_ptr_equal(
	    create(dpy, EGL_SYNC_FENCE_KHR,
		   (const EGLint[]){ EGL_SYNC_STATUS_KHR, EGL_SIGNALED_KHR, EGL_NONE }),
	    EGL_NO_SYNC_KHR);
	assert_int_equal(eglGetError(), EGL_BAD_ATTRIBUTE);
	assert_ptr_equal(eglCreateSync(dpy, 0x1234, NULL), EGL_NO_SYNC);
	assert_int_equal(eglGetError(), EGL_BAD_PARAMETER);

	/*
	 * Displays.  One no vendor has, and EGL_NO_DISPLAY: the dispatch stub
	 * finds no vendor, EGL_BAD_DISPLAY.
	 */
	assert_ptr_equal(create((EGLDisplay)&v, EGL_SYNC_FENCE_KHR, NULL), EGL_NO_SYNC_KHR);
	assert_int_equal(eglGetError(), EGL_BAD_DISPLAY);
	assert_ptr_equal(create(EGL_NO_DISPLAY, EGL_SYNC_FENCE_KHR, NULL), EGL_NO_SYNC_KHR);
	assert_int_equal(eglGetError(), EGL_BAD_DISPLAY);
	assert_int_equal(client_wait((EGLDisplay)&v, sync, 0, 0), EGL_FALSE);
	assert_int_equal(eglGetError(), EGL_BAD_DISPLAY);
	assert_false(get(EGL_NO_DISPLAY, sync, EGL_SYNC_TYPE_KHR, &v));
	assert_int_equal(eglGetError(), EGL_BAD_DISPLAY);
	assert_int_equal(wait((EGLDisplay)&v, sync, 0), EGL_FALSE);
	assert_int_equal(eglGetError(), EGL_BAD_DISPLAY);
	assert_false(destroy((EGLDisplay)&v, sync));
	assert_int_equal(eglGetError(), EGL_BAD_DISPLAY);
	/*
	 * Ours but not initialized: eglCreateSyncKHR says EGL_BAD_DISPLAY
	 * ("a valid, initialized EGLDisplay"), the others EGL_NOT_INITIALIZED
	 * as every EGL function does.
	 */
	assert_ptr_not_equal(def, EGL_NO_DISPLAY);
	assert_ptr_not_equal(def, dpy);
	assert_ptr_equal(create(def, EGL_SYNC_FENCE_KHR, NULL), EGL_NO_SYNC_KHR);
	assert_int_equal(eglGetError(), EGL_BAD_DISPLAY);
	assert_ptr_equal(eglCreateSync(def, EGL_SYNC_FENCE, NULL), EGL_NO_SYNC);
	assert_int_equal(eglGetError(), EGL_NOT_INITIALIZED);
	assert_int_equal(client_wait(def, sync, 0, 0), EGL_FALSE);
	assert_int_equal(eglGetError(), EGL_NOT_INITIALIZED);
	assert_false(destroy(def, sync));
	assert_int_equal(eglGetError(), EGL_NOT_INITIALIZED);
	/* initialized, but the current context is another display's: EGL_BAD_MATCH */
	assert_true(eglInitialize(def, NULL, NULL));
	assert_ptr_equal(create(def, EGL_SYNC_FENCE_KHR, NULL), EGL_NO_SYNC_KHR);
	assert_int_equal(eglGetError(), EGL_BAD_MATCH);
	/* and a sync of dpy is none of def's */
	assert_false(get(def, sync, EGL_SYNC_TYPE_KHR, &v));
	assert_int_equal(eglGetError(), EGL_BAD_PARAMETER);
	assert_true(eglTerminate(def));

	/* no current context: eglWaitSyncKHR has no server to wait in */
	assert_true(eglMakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT));
	assert_int_equal(wait(dpy, sync, 0), EGL_FALSE);
	assert_int_equal(eglGetError(), EGL_BAD_MATCH);
	/* a client wait needs none */
	assert_int_equal(client_wait(dpy, sync, EGL_SYNC_FLUSH_COMMANDS_BIT_KHR, EGL_FOREVER_KHR),
			 EGL_CONDITION_SATISFIED_KHR);
	assert_true(destroy(dpy, sync));
	assert_true(eglMakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, ctx));
	glDeleteFramebuffers(1, &fbo);
	glDeleteRenderbuffers(1, &rb);
	destroy_current(ctx);
}

/* A context that has done no GPU work: its fence has nothing to wait for. */
static void test_fence_without_work(void **state)
{
	EGLContext ctx = current_new(3, EGL_NO_CONTEXT);
	GLsync a, b;

	(void)state;
	a = glFenceSync(GL_SYNC_GPU_COMMANDS_COMPLETE, 0);
	b = glFenceSync(GL_SYNC_GPU_COMMANDS_COMPLETE, 0);
	assert_non_null(a);
	assert_non_null(b);
	assert_ptr_not_equal(a, b);
	assert_int_equal(sync_int(a, GL_SYNC_STATUS), GL_SIGNALED);
	assert_int_equal(glClientWaitSync(b, 0, 0), GL_ALREADY_SIGNALED);
	glWaitSync(a, 0, GL_TIMEOUT_IGNORED);
	assert_gl_error(GL_NO_ERROR);
	glDeleteSync(a);
	/* b is left to the context's end: the share group frees it */
	destroy_current(ctx);
}

/* ---- glGetSynciv ------------------------------------------------------------------------ */

static void test_get_synciv(void **state)
{
	EGLContext ctx = current_new(3, EGL_NO_CONTEXT);
	GLsync s = glFenceSync(GL_SYNC_GPU_COMMANDS_COMPLETE, 0);
	GLint v[4] = { -1, -2, -3, -4 };
	GLsizei len = -7;
	GLint64 max_wait = -1;
	GLint max_wait32 = -1;

	(void)state;
	assert_non_null(s);
	/* at most bufSize values; length is how many were written */
	glGetSynciv(s, GL_OBJECT_TYPE, 4, &len, v);
	assert_gl_error(GL_NO_ERROR);
	assert_int_equal(len, 1);
	assert_int_equal(v[0], GL_SYNC_FENCE);
	assert_int_equal(v[1], -2);
	v[0] = -1;
	glGetSynciv(s, GL_SYNC_CONDITION, 0, &len, v);
	assert_gl_error(GL_NO_ERROR);
	assert_int_equal(len, 0);
	assert_int_equal(v[0], -1);
	/* no length */
	glGetSynciv(s, GL_SYNC_FLAGS, 1, NULL, v);
	assert_gl_error(GL_NO_ERROR);
	assert_int_equal(v[0], 0);

	/* errors write nothing */
	v[0] = -1;
	len = -7;
	glGetSynciv(s, GL_SYNC_STATUS, -1, &len, v);
	assert_gl_error(GL_INVALID_VALUE);
	glGetSynciv(s, GL_SYNC_FENCE, 1, &len, v); /* a value, not a pname */
	assert_gl_error(GL_INVALID_ENUM);
	glGetSynciv(s, 0x1234, 1, &len, v);
	assert_gl_error(GL_INVALID_ENUM);
	glGetSynciv(BOGUS, GL_SYNC_STATUS, 1, &len, v);
	assert_gl_error(GL_INVALID_VALUE);
	glGetSynciv(0, GL_SYNC_STATUS, 1, &len, v);
	assert_gl_error(GL_INVALID_VALUE);
	glGetSynciv((GLsync)(uintptr_t)0xdead00000001ull, GL_SYNC_STATUS, 1, &len, v);
	assert_gl_error(GL_INVALID_VALUE);
	/* an invalid sync comes first, then the pname */
	glGetSynciv(BOGUS, 0x1234, 1, &len, v);
	assert_gl_error(GL_INVALID_VALUE);
	assert_int_equal(v[0], -1);
	assert_int_equal(len, -7);

	glDeleteSync(s);
	glGetSynciv(s, GL_OBJECT_TYPE, 1, &len, v);
	assert_gl_error(GL_INVALID_VALUE);
	assert_int_equal(v[0], -1);

	/* table 6.35's GL_MAX_SERVER_WAIT_TIMEOUT: glWaitSync takes no timeout but TIMEOUT_IGNORED
	 */
	glGetInteger64v(GL_MAX_SERVER_WAIT_TIMEOUT, &max_wait);
	assert_gl_error(GL_NO_ERROR);
	assert_true(max_wait >= 0);
	glGetIntegerv(GL_MAX_SERVER_WAIT_TIMEOUT, &max_wait32);
	assert_gl_error(GL_NO_ERROR);
	assert_true(max_wait32 >= 0);
	destroy_current(ctx);
}

/* ---- the errors of the other five ------------------------------------------------------- */

static void test_errors(void **state)
{
	EGLContext ctx = current_new(3, EGL_NO_CONTEXT);
	GLsync s;

	(void)state;
	/* glFenceSync: the condition, then the flags; 0 on an error */
	assert_null(glFenceSync(0x1234, 0));
	assert_gl_error(GL_INVALID_ENUM);
	assert_null(glFenceSync(GL_SYNC_GPU_COMMANDS_COMPLETE, 1));
	assert_gl_error(GL_INVALID_VALUE);
	assert_null(glFenceSync(GL_SYNC_GPU_COMMANDS_COMPLETE, GL_SYNC_FLUSH_COMMANDS_BIT));
	assert_gl_error(GL_INVALID_VALUE);
	assert_null(glFenceSync(0x1234, 1));
	assert_gl_error(GL_INVALID_ENUM);

	s = glFenceSync(GL_SYNC_GPU_COMMANDS_COMPLETE, 0);
	assert_non_null(s);

	/* glIsSync: never an error */
	assert_false(glIsSync(0));
	assert_false(glIsSync(BOGUS));
	assert_false(glIsSync((GLsync)(uintptr_t)0xdead00000001ull));
	assert_gl_error(GL_NO_ERROR);

	/* glClientWaitSync: flags, the sync; WAIT_FAILED on an error */
	assert_int_equal(glClientWaitSync(s, 2, 0), GL_WAIT_FAILED);
	assert_gl_error(GL_INVALID_VALUE);
	assert_int_equal(glClientWaitSync(s, ~0u, LONG), GL_WAIT_FAILED);
	assert_gl_error(GL_INVALID_VALUE);
	assert_int_equal(glClientWaitSync(BOGUS, 0, 0), GL_WAIT_FAILED);
	assert_gl_error(GL_INVALID_VALUE);
	assert_int_equal(glClientWaitSync(0, GL_SYNC_FLUSH_COMMANDS_BIT, 0), GL_WAIT_FAILED);
	assert_gl_error(GL_INVALID_VALUE);
	/* a timeout past INT64_MAX nanoseconds is simply long */
	assert_int_equal(glClientWaitSync(s, 0, GL_TIMEOUT_IGNORED), GL_ALREADY_SIGNALED);
	assert_gl_error(GL_NO_ERROR);

	/* glWaitSync: flags 0 and GL_TIMEOUT_IGNORED only */
	glWaitSync(s, 1, GL_TIMEOUT_IGNORED);
	assert_gl_error(GL_INVALID_VALUE);
	glWaitSync(s, 0, 0);
	assert_gl_error(GL_INVALID_VALUE);
	glWaitSync(s, 0, LONG);
	assert_gl_error(GL_INVALID_VALUE);
	glWaitSync(BOGUS, 0, GL_TIMEOUT_IGNORED);
	assert_gl_error(GL_INVALID_VALUE);
	glWaitSync(0, 0, GL_TIMEOUT_IGNORED);
	assert_gl_error(GL_INVALID_VALUE);
	glWaitSync(s, 0, GL_TIMEOUT_IGNORED);
	assert_gl_error(GL_NO_ERROR);

	/* glDeleteSync: 0 is ignored, anything else must be a sync */
	glDeleteSync(0);
	assert_gl_error(GL_NO_ERROR);
	glDeleteSync(BOGUS);
	assert_gl_error(GL_INVALID_VALUE);
	glDeleteSync(s);
	assert_gl_error(GL_NO_ERROR);
	glDeleteSync(s);
	assert_gl_error(GL_INVALID_VALUE);
	/* a deleted sync's name is invalid everywhere */
	assert_false(glIsSync(s));
	assert_int_equal(glClientWaitSync(s, 0, 0), GL_WAIT_FAILED);
	assert_gl_error(GL_INVALID_VALUE);
	glWaitSync(s, 0, GL_TIMEOUT_IGNORED);
	assert_gl_error(GL_INVALID_VALUE);
	destroy_current(ctx);
}

/* ---- ES 2.0 requests ---------------------------------------------------------------------- */

/*
 * An ES 2.0 request gets an ES 3.0 context (EGL 1.5 section 3.7.1.1: any
 * version backward compatible with the one asked for), sync objects and
 * GL_MAX_SERVER_WAIT_TIMEOUT included.
 */
static void test_es2_request(void **state)
{
	EGLContext ctx = current_new(2, EGL_NO_CONTEXT);
	GLint64 v64 = -1;
	GLenum wait;
	GLsync s;

	(void)state;
	s = glFenceSync(GL_SYNC_GPU_COMMANDS_COMPLETE, 0);
	assert_non_null(s);
	assert_true(glIsSync(s));
	assert_int_equal(sync_int(s, GL_OBJECT_TYPE), GL_SYNC_FENCE);
	glWaitSync(s, 0, GL_TIMEOUT_IGNORED);
	assert_gl_error(GL_NO_ERROR);
	wait = glClientWaitSync(s, GL_SYNC_FLUSH_COMMANDS_BIT, LONG);
	assert_true(wait == GL_ALREADY_SIGNALED || wait == GL_CONDITION_SATISFIED);
	assert_int_equal(sync_int(s, GL_SYNC_STATUS), GL_SIGNALED);
	glDeleteSync(s);
	assert_false(glIsSync(s));
	glGetInteger64v(GL_MAX_SERVER_WAIT_TIMEOUT, &v64);
	assert_gl_error(GL_NO_ERROR);
	assert_true(v64 >= 0);
	destroy_current(ctx);
}

/* ---- other threads and other contexts ----------------------------------------------------- */

enum wait_kind { WAIT_CLIENT, WAIT_SERVER };

struct waiter {
	EGLContext ctx; /* of the share group, current in the thread */
	GLsync sync;
	GLuint rb;     /* read back after the wait, when not 0 */
	unsigned last; /* the colour the fenced clears left */
	enum wait_kind kind;
	bool delete_race; /* the main thread may delete sync before the wait starts */
	/* when not NULL: ready is set under lock just before the wait (or on failing to bind) */
	pthread_mutex_t *lock;
	pthread_cond_t *cond;
	bool ready;
	/* results, asserted by the main thread */
	bool made_current, is_sync;
	GLenum wait, error;
	bool holds;
	GLint status_after;
};

static void announce(struct waiter *w)
{
	if (!w->lock)
		return;
	pthread_mutex_lock(w->lock);
	w->ready = true;
	pthread_cond_signal(w->cond);
	pthread_mutex_unlock(w->lock);
}

static void *wait_thread(void *data)
{
	struct waiter *w = data;
	GLuint fbo;

	w->made_current = eglMakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, w->ctx);
	if (!w->made_current) {
		announce(w);
		return NULL;
	}
	if (!w->delete_race)
		w->is_sync = glIsSync(w->sync);
	announce(w);
	if (w->kind == WAIT_CLIENT) {
		w->wait = glClientWaitSync(w->sync, GL_SYNC_FLUSH_COMMANDS_BIT, LONG);
	} else {
		glWaitSync(w->sync, 0, GL_TIMEOUT_IGNORED);
		w->wait = GL_NONE;
	}
	w->error = glGetError();
	if (!w->delete_race) {
		GLsizei len = 0;

		glGetSynciv(w->sync, GL_SYNC_STATUS, 1, &len, &w->status_after);
	}
	if (w->rb) {
		/* the renderbuffer is the group's; this context's own FBO reads it */
		glGenFramebuffers(1, &fbo);
		glBindFramebuffer(GL_FRAMEBUFFER, fbo);
		glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER,
					  w->rb);
		w->holds = holds(w->last);
		glDeleteFramebuffers(1, &fbo);
	}
	eglMakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
	eglReleaseThread();
	return NULL;
}

/*
 * Two other contexts of the group, each in its own thread, wait for a
 * fence on clears -- one with glClientWaitSync, one with glWaitSync -- and
 * then read the renderbuffer the clears wrote: their own glReadPixels
 * waits only for their own (no) work, so the colour is there only if the
 * fence covered the clears.
 */
static void test_share_group_threads(void **state)
{
	EGLContext a = current_new(3, EGL_NO_CONTEXT);
	EGLContext b = context(3, a), c = context(3, a);
	GLuint fbo, rb = big_target(&fbo);

	(void)state;
	assert_ptr_not_equal(b, EGL_NO_CONTEXT);
	assert_ptr_not_equal(c, EGL_NO_CONTEXT);
	for (unsigned r = 0; r < 3; r++) {
		struct waiter w[2] = {
			{ .ctx = b, .rb = rb, .last = 100 + r, .kind = WAIT_CLIENT },
			{ .ctx = c, .rb = rb, .last = 100 + r, .kind = WAIT_SERVER },
		};
		pthread_t t[2];
		GLsync s;

		clears(4, 100 + r);
		s = glFenceSync(GL_SYNC_GPU_COMMANDS_COMPLETE, 0);
		assert_non_null(s);
		glFlush();
		for (int i = 0; i < 2; i++) {
			w[i].sync = s;
			assert_int_equal(pthread_create(&t[i], NULL, wait_thread, &w[i]), 0);
		}
		for (int i = 0; i < 2; i++) {
			assert_int_equal(pthread_join(t[i], NULL), 0);
			assert_true(w[i].made_current);
			assert_true(w[i].is_sync);
			assert_int_equal(w[i].error, GL_NO_ERROR);
			assert_true(w[i].holds);
		}
		assert_true(w[0].wait == GL_ALREADY_SIGNALED ||
			    w[0].wait == GL_CONDITION_SATISFIED);
		assert_int_equal(w[0].status_after, GL_SIGNALED);
		assert_int_equal(sync_int(s, GL_SYNC_STATUS), GL_SIGNALED);
		glDeleteSync(s);
		assert_gl_error(GL_NO_ERROR);
	}
	glDeleteFramebuffers(1, &fbo);
	glDeleteRenderbuffers(1, &rb);
	assert_true(eglDestroyContext(dpy, b));
	assert_true(eglDestroyContext(dpy, c));
	destroy_current(a);
}

/*
 * glDeleteSync while another thread waits: the name goes at once, the
 * object when the wait returns (section 5.2).  The main thread deletes the
 * sync once the other is about to wait, and a little later, when that one
 * most likely blocks behind the clears; but which comes first is the
 * threads' race: a delete before the wait's lookup makes the wait
 * GL_INVALID_VALUE, otherwise the wait ends as usual (and the sanitizer
 * build checks that the deferred free comes after it).
 */
static void test_delete_while_waited(void **state)
{
	EGLContext a = current_new(3, EGL_NO_CONTEXT);
	EGLContext b = context(3, a);
	GLuint fbo, rb = big_target(&fbo);
	unsigned waited = 0, rounds = 4;
	pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
	pthread_cond_t cond = PTHREAD_COND_INITIALIZER;

	(void)state;
	assert_ptr_not_equal(b, EGL_NO_CONTEXT);
	for (unsigned r = 0; r < rounds; r++) {
		struct waiter w = { .ctx = b,
				    .kind = r & 1 ? WAIT_SERVER : WAIT_CLIENT,
				    .delete_race = true,
				    .lock = &lock,
				    .cond = &cond };
		pthread_t t;
		GLsync s;

		clears(6, r);
		s = glFenceSync(GL_SYNC_GPU_COMMANDS_COMPLETE, 0);
		assert_non_null(s);
		w.sync = s;
		assert_int_equal(pthread_create(&t, NULL, wait_thread, &w), 0);
		pthread_mutex_lock(&lock);
		while (!w.ready)
			pthread_cond_wait(&cond, &lock);
		pthread_mutex_unlock(&lock);
		nanosleep(&(struct timespec){ 0, 20000000 }, NULL);
		glDeleteSync(s);
		assert_gl_error(GL_NO_ERROR);
		assert_false(glIsSync(s));
		assert_int_equal(pthread_join(t, NULL), 0);
		assert_true(w.made_current);
		if (w.error == GL_NO_ERROR) {
			waited++;
			if (w.kind == WAIT_CLIENT)
				assert_true(w.wait == GL_ALREADY_SIGNALED ||
					    w.wait == GL_CONDITION_SATISFIED);
		} else {
			assert_int_equal(w.error, GL_INVALID_VALUE);
			if (w.kind == WAIT_CLIENT)
				assert_int_equal(w.wait, GL_WAIT_FAILED);
		}
		/* the name is gone in the other context too */
		glDeleteSync(s);
		assert_gl_error(GL_INVALID_VALUE);
	}
	print_message("# %u of %u waits took the sync before the delete\n", waited, rounds);
	glDeleteFramebuffers(1, &fbo);
	glDeleteRenderbuffers(1, &rb);
	assert_true(eglDestroyContext(dpy, b));
	destroy_current(a);
}

/*
 * A sync outlives the context whose work it fences (it is the share
 * group's): once that context is destroyed the sync is signaled, also
 * after another context has made GPU objects of its own.
 */
static void test_sync_outlives_context(void **state)
{
	EGLContext a = current_new(3, EGL_NO_CONTEXT);
	EGLContext b = context(3, a);
	GLuint fbo, rb = big_target(&fbo);
	GLsync s, t;
	GLenum e;

	(void)state;
	assert_ptr_not_equal(b, EGL_NO_CONTEXT);
	clears(4, 55);
	s = glFenceSync(GL_SYNC_GPU_COMMANDS_COMPLETE, 0);
	assert_non_null(s);
	glDeleteFramebuffers(1, &fbo);
	destroy_current(a);

	assert_true(eglMakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, b));
	assert_true(glIsSync(s));
	assert_int_equal(sync_int(s, GL_SYNC_STATUS), GL_SIGNALED);
	assert_int_equal(glClientWaitSync(s, 0, 0), GL_ALREADY_SIGNALED);
	/* b's own GPU work, on a syncobj of its own */
	glGenFramebuffers(1, &fbo);
	glBindFramebuffer(GL_FRAMEBUFFER, fbo);
	glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, rb);
	assert_true(holds(55));
	clears(2, 66);
	t = glFenceSync(GL_SYNC_GPU_COMMANDS_COMPLETE, 0);
	assert_int_equal(glClientWaitSync(s, 0, LONG), GL_ALREADY_SIGNALED);
	e = glClientWaitSync(t, 0, LONG);
	assert_true(e == GL_ALREADY_SIGNALED || e == GL_CONDITION_SATISFIED);
	glWaitSync(s, 0, GL_TIMEOUT_IGNORED);
	assert_gl_error(GL_NO_ERROR);
	assert_true(holds(66));
	glDeleteSync(s);
	glDeleteSync(t);
	assert_gl_error(GL_NO_ERROR);
	glDeleteFramebuffers(1, &fbo);
	glDeleteRenderbuffers(1, &rb);
	destroy_current(b);
}

/* ---- glWaitSync on the GPU ---------------------------------------------------------------- */

/*
 * The bound framebuffer (BIG x BIG) drawn over with texture tex, sampled
 * texel for texel: the draw is GPU work of the current context that reads
 * what another context's clears wrote.
 */
static void draw_texture(GLuint tex)
{
	static const char vs[] = "#version 300 es\n"
				 "layout(location = 0) in vec2 pos;\n"
				 "void main() { gl_Position = vec4(pos, 0.0, 1.0); }\n";
	static const char fs[] = "#version 300 es\n"
				 "precision mediump float;\n"
				 "uniform sampler2D t;\n"
				 "out vec4 o;\n"
				 "void main() { o = texelFetch(t, ivec2(gl_FragCoord.xy), 0); }\n";
	static const float quad[] = { -1, -1, 1, -1, -1, 1, 1, 1 };
	GLuint p = glCreateProgram(), s[2];
	const char *src[2] = { vs, fs };
	GLint ok = 0;

	for (int i = 0; i < 2; i++) {
		s[i] = glCreateShader(i ? GL_FRAGMENT_SHADER : GL_VERTEX_SHADER);
		glShaderSource(s[i], 1, &src[i], NULL);
		glCompileShader(s[i]);
		glAttachShader(p, s[i]);
		glDeleteShader(s[i]);
	}
	glLinkProgram(p);
	glGetProgramiv(p, GL_LINK_STATUS, &ok);
	assert_true(ok);
	glUseProgram(p);
	glActiveTexture(GL_TEXTURE0);
	glBindTexture(GL_TEXTURE_2D, tex);
	glViewport(0, 0, BIG, BIG);
	glEnableVertexAttribArray(0);
	glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 0, quad);
	glDrawArrays(GL_TRIANGLE_STRIP, 0, 4);
	glUseProgram(0);
	glDeleteProgram(p);
	assert_gl_error(GL_NO_ERROR);
}

/* A BIG x BIG RGBA8 texture of the share group, attached to a new FBO, bound. */
static GLuint big_texture(GLuint *fbo)
{
	GLuint tex;

	glGenTextures(1, &tex);
	glBindTexture(GL_TEXTURE_2D, tex);
	glTexStorage2D(GL_TEXTURE_2D, 1, GL_RGBA8, BIG, BIG);
	glGenFramebuffers(1, fbo);
	glBindFramebuffer(GL_FRAMEBUFFER, *fbo);
	glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, tex, 0);
	assert_int_equal(glCheckFramebufferStatus(GL_FRAMEBUFFER), GL_FRAMEBUFFER_COMPLETE);
	return tex;
}

/*
 * glWaitSync and eglWaitSync on another context's fence: the waiting
 * context's next submission waits for it on the GPU, so its draw that
 * samples what the other's clears wrote reads their last colour; and so
 * when the fencing context is destroyed between the wait and the
 * submission that waits (its syncobj goes: the wait must not name it).
 * More waits than a submission holds are waited for on the CPU.  (That
 * the wait is the GPU's, and not the CPU's in glWaitSync, shows in no
 * result; the results show that the order holds.)
 */
static void test_gpu_wait_other_context(void **state)
{
	EGLContext b = current_new(3, EGL_NO_CONTEXT);
	EGLContext a = context(3, b);
	GLuint fb_b, fb_a, tex = big_texture(&fb_b), rb;
	double waits;
	GLsync s;

	(void)state;
	assert_ptr_not_equal(a, EGL_NO_CONTEXT);
	/* a's target first: a makes its device objects, so its syncobj is not b's */
	assert_true(eglMakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, a));
	rb = big_target(&fb_a);
	clears(1, 1);
	glFinish();
	for (unsigned round = 0; round < 2; round++) {
		unsigned last = round ? 150 : 77;

		assert_true(eglMakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, b));
		glBindFramebuffer(GL_FRAMEBUFFER, fb_b);
		clears(3, last);
		s = glFenceSync(GL_SYNC_GPU_COMMANDS_COMPLETE, 0);
		assert_non_null(s);
		glFlush();
		assert_true(eglMakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, a));
		if (round) {
			EGLSync e = eglCreateSync(dpy, EGL_SYNC_FENCE, NULL);

			/* eglWaitSync of a fence of a's own: in order already */
			assert_ptr_not_equal(e, EGL_NO_SYNC);
			assert_true(eglWaitSync(dpy, e, 0));
			assert_true(eglDestroySync(dpy, e));
		}
		waits = test_stack_metric(&fixture.stack, "agx_scheduler_job_waits_total", NULL);
		/* round 1: more waits than a submission takes, the rest on the CPU */
		for (unsigned i = 0; i < (round ? 40u : 1u); i++)
			glWaitSync(s, 0, GL_TIMEOUT_IGNORED);
		assert_gl_error(GL_NO_ERROR);
		glBindFramebuffer(GL_FRAMEBUFFER, fb_a);
		draw_texture(tex);
		assert_true(holds(last));
		/*
		 * round 0: the draw's submission waited for b's point on the GPU,
		 * and the scheduler counted it (in round 1 the 17th wait, on the
		 * CPU, leaves the 16 before it signaled by the submission)
		 */
		if (round == 0)
			assert_true(test_stack_metric(&fixture.stack,
						      "agx_scheduler_job_waits_total",
						      NULL) == waits + 1);
		glDeleteSync(s);
	}
	/* b destroyed between a's wait and a's next submission */
	assert_true(eglMakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, b));
	glBindFramebuffer(GL_FRAMEBUFFER, fb_b);
	clears(3, 211);
	s = glFenceSync(GL_SYNC_GPU_COMMANDS_COMPLETE, 0);
	glDeleteFramebuffers(1, &fb_b);
	assert_true(eglMakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, a));
	glWaitSync(s, 0, GL_TIMEOUT_IGNORED);
	assert_true(eglDestroyContext(dpy, b));
	glBindFramebuffer(GL_FRAMEBUFFER, fb_a);
	draw_texture(tex);
	assert_true(holds(211));
	glDeleteSync(s);
	assert_gl_error(GL_NO_ERROR);
	glDeleteTextures(1, &tex);
	glDeleteFramebuffers(1, &fb_a);
	glDeleteRenderbuffers(1, &rb);
	destroy_current(a);
}

/* ---- EGL_ANDROID_native_fence_sync ------------------------------------------------------------
 */

/* Whether fd is readable within LONG (it never stops being so once it is). */
static bool fd_readable(int fd)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };

	return poll(&p, 1, 60000) == 1 && (p.revents & POLLIN);
}

static EGLAttrib sync_attrib(EGLSync s, EGLint attribute)
{
	EGLAttrib v = -1;

	assert_true(eglGetSyncAttrib(dpy, s, attribute, &v));
	return v;
}

/*
 * A native fence of the context's clears: its descriptor (the scheduler's
 * export of the fence's point) becomes readable once they are done, and
 * then they are; a native fence made from that descriptor owns it, waits
 * for it and closes it; one of no work is readable at once; the errors.
 */
static void test_native_fence(void **state)
{
	typedef EGLint (*dup_fn)(EGLDisplay, EGLSyncKHR);
	dup_fn dup_fd = (dup_fn)eglGetProcAddress("eglDupNativeFenceFDANDROID");
	EGLContext a = current_new(3, EGL_NO_CONTEXT);
	GLuint fbo, rb;
	EGLSync s, from, plain;
	int fd, fd2;

	(void)state;
	assert_non_null(dup_fd);
	assert_true(lists(eglQueryString(dpy, EGL_EXTENSIONS), "EGL_ANDROID_native_fence_sync"));
	/* no work yet: signaled */
	s = eglCreateSync(dpy, EGL_SYNC_NATIVE_FENCE_ANDROID, NULL);
	assert_ptr_not_equal(s, EGL_NO_SYNC);
	fd = dup_fd(dpy, s);
	assert_true(fd >= 0);
	assert_true(fd_readable(fd));
	assert_int_equal(sync_attrib(s, EGL_SYNC_STATUS), EGL_SIGNALED);
	close(fd);
	assert_true(eglDestroySync(dpy, s));

	rb = big_target(&fbo);
	clears(4, 123);
	s = eglCreateSync(dpy, EGL_SYNC_NATIVE_FENCE_ANDROID,
			  (const EGLAttrib[]){ EGL_SYNC_NATIVE_FENCE_FD_ANDROID,
					       EGL_NO_NATIVE_FENCE_FD_ANDROID, EGL_NONE });
	assert_ptr_not_equal(s, EGL_NO_SYNC);
	assert_int_equal(sync_attrib(s, EGL_SYNC_TYPE), EGL_SYNC_NATIVE_FENCE_ANDROID);
	assert_int_equal(sync_attrib(s, EGL_SYNC_CONDITION), EGL_SYNC_PRIOR_COMMANDS_COMPLETE);
	fd = dup_fd(dpy, s);
	fd2 = dup_fd(dpy, s);
	assert_true(fd >= 0 && fd2 >= 0 && fd != fd2);
	/* readable once the clears are done: they are, when it is */
	assert_true(fd_readable(fd));
	assert_int_equal(sync_attrib(s, EGL_SYNC_STATUS), EGL_SIGNALED);
	assert_true(holds(123));
	close(fd);

	/* from a descriptor: EGL owns fd2 */
	from =
	    eglCreateSync(dpy, EGL_SYNC_NATIVE_FENCE_ANDROID,
			  (const EGLAttrib[]){ EGL_SYNC_NATIVE_FENCE_FD_ANDROID, fd2, EGL_NONE });
	assert_ptr_not_equal(from, EGL_NO_SYNC);
	assert_int_equal(sync_attrib(from, EGL_SYNC_CONDITION),
			 EGL_SYNC_NATIVE_FENCE_SIGNALED_ANDROID);
	assert_int_equal(eglClientWaitSync(dpy, from, 0, EGL_FOREVER), EGL_CONDITION_SATISFIED);
	assert_true(eglWaitSync(dpy, from, 0));
	assert_int_equal(sync_attrib(from, EGL_SYNC_STATUS), EGL_SIGNALED);
	assert_true(eglDestroySync(dpy, from));
	assert_int_equal(fcntl(fd2, F_GETFD), -1); /* closed with the sync */
	assert_true(eglDestroySync(dpy, s));

	/* errors: a plain fence has no descriptor; the attributes each type takes */
	plain = eglCreateSync(dpy, EGL_SYNC_FENCE, NULL);
	assert_ptr_not_equal(plain, EGL_NO_SYNC);
	assert_int_equal(dup_fd(dpy, plain), EGL_NO_NATIVE_FENCE_FD_ANDROID);
	assert_int_equal(eglGetError(), EGL_BAD_PARAMETER);
	assert_true(eglDestroySync(dpy, plain));
	assert_ptr_equal(
	    eglCreateSync(dpy, EGL_SYNC_FENCE,
			  (const EGLAttrib[]){ EGL_SYNC_NATIVE_FENCE_FD_ANDROID,
					       EGL_NO_NATIVE_FENCE_FD_ANDROID, EGL_NONE }),
	    EGL_NO_SYNC);
	assert_int_equal(eglGetError(), EGL_BAD_ATTRIBUTE);
	assert_ptr_equal(eglCreateSync(dpy, EGL_SYNC_NATIVE_FENCE_ANDROID,
				       (const EGLAttrib[]){ EGL_SYNC_CONDITION, 0, EGL_NONE }),
			 EGL_NO_SYNC);
	assert_int_equal(eglGetError(), EGL_BAD_ATTRIBUTE);
	assert_int_equal(dup_fd(dpy, (EGLSync)&fbo), EGL_NO_NATIVE_FENCE_FD_ANDROID);
	assert_int_equal(eglGetError(), EGL_BAD_PARAMETER);
	glDeleteFramebuffers(1, &fbo);
	glDeleteRenderbuffers(1, &rb);
	destroy_current(a);
}

/* A sync of another share group is no sync here (GL_INVALID_VALUE). */
static void test_other_group(void **state)
{
	EGLContext a = current_new(3, EGL_NO_CONTEXT);
	EGLContext other = context(3, EGL_NO_CONTEXT);
	GLsync s = glFenceSync(GL_SYNC_GPU_COMMANDS_COMPLETE, 0);
	GLint v = -1;

	(void)state;
	assert_non_null(s);
	assert_ptr_not_equal(other, EGL_NO_CONTEXT);
	assert_true(eglMakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, other));
	assert_false(glIsSync(s));
	assert_gl_error(GL_NO_ERROR);
	assert_int_equal(glClientWaitSync(s, 0, 0), GL_WAIT_FAILED);
	assert_gl_error(GL_INVALID_VALUE);
	glWaitSync(s, 0, GL_TIMEOUT_IGNORED);
	assert_gl_error(GL_INVALID_VALUE);
	glGetSynciv(s, GL_SYNC_STATUS, 1, NULL, &v);
	assert_gl_error(GL_INVALID_VALUE);
	assert_int_equal(v, -1);
	glDeleteSync(s);
	assert_gl_error(GL_INVALID_VALUE);
	destroy_current(other);

	/* still a, whose group has it */
	assert_true(eglMakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, a));
	assert_true(glIsSync(s));
	glDeleteSync(s);
	assert_gl_error(GL_NO_ERROR);
	destroy_current(a);
}

/* ---- setup ---------------------------------------------------------------------------------- */

static int setup(void **state)
{
	(void)state;
	if (egl_stack_setup(&fixture, &options, 1) < 0)
		return -1;
	dpy = fixture.dpy;
	config = fixture.config;
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	return egl_stack_teardown(&fixture) ? 0 : -1;
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fence_after_clears),
		cmocka_unit_test(test_fence_without_work),
		cmocka_unit_test(test_egl_sync),
		cmocka_unit_test(test_khr_sync),
		cmocka_unit_test(test_get_synciv),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_es2_request),
		cmocka_unit_test(test_share_group_threads),
		cmocka_unit_test(test_delete_while_waited),
		cmocka_unit_test(test_sync_outlives_context),
		cmocka_unit_test(test_gpu_wait_other_context),
		cmocka_unit_test(test_native_fence),
		cmocka_unit_test(test_other_group),
	};

	if (!getenv("__EGL_VENDOR_LIBRARY_FILENAMES")) {
		fprintf(stderr, "%s: __EGL_VENDOR_LIBRARY_FILENAMES names no vendor file\n",
			argv[0]);
		return 2;
	}
	return test_stack_run(argc, argv, &options, tests, sizeof(tests) / sizeof(tests[0]), setup,
			      teardown);
}
