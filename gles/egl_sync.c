/*
 * egl_sync.c: EGL 1.5's sync objects (section 3.8)
 * -- eglCreateSync, eglDestroySync, eglClientWaitSync, eglWaitSync,
 * eglGetSyncAttrib -- with EGL_KHR_fence_sync's and EGL_KHR_wait_sync's
 * forms of them (EGLint attributes and values, two other errors; libEGL
 * reaches them through egl_main.c's dispatch stubs).
 *
 * A fence sync is a fence of the current context's work (sync.h), as
 * glFenceSync makes one: everything recorded before it is submitted, so it
 * signals in finite time.  Syncs are on their display's list while their
 * handles are valid; eglTerminate ends them.  eglWaitSync is glWaitSync's
 * GPU wait (sync.h): the context's next submission waits for the fence.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>

#include "context.h"
#include "egl_agx.h"
#include "objects.h"
#include "sync.h"

struct gles_egl_sync {
	struct gles_egl_sync *next; /* on its display's list while its handle is valid */
	struct gles_sync *fence;
};

/* The sync named by handle on dpy (the lock held), NULL when it is none. */
static struct gles_egl_sync *find_sync(struct gles_display *dpy, EGLSync handle)
{
	for (struct gles_egl_sync *s = dpy->syncs; s; s = s->next)
		if ((EGLSync)s == handle)
			return s;
	return NULL;
}

static void sync_free(struct gles_egl_sync *s)
{
	gles_sync_unref(s->fence);
	free(s);
}

void gles_egl_syncs_terminate(struct gles_display *dpy)
{
	while (dpy->syncs) {
		struct gles_egl_sync *s = dpy->syncs;

		dpy->syncs = s->next;
		sync_free(s);
	}
}

/*
 * Section 3.8.1: attribs must be empty for a fence.  EGL_KHR_fence_sync
 * differs in two errors: a display that is not initialized is
 * EGL_BAD_DISPLAY ("not the name of a valid, initialized EGLDisplay"), and
 * a type it does not know EGL_BAD_ATTRIBUTE.
 */
static EGLSync create_sync(EGLDisplay handle, EGLenum type, bool has_attribs, bool khr)
{
	struct gles_thread *t = gles_egl_thread();
	struct gles_egl_context *cur = t ? t->ctx : NULL;
	struct gles_display *dpy;
	struct gles_egl_sync *s;
	EGLint err;

	gles_egl_lock();
	if (!(dpy = gles_egl_display(handle, true))) {
		gles_egl_unlock();
		if (khr)
			gles_egl_error(EGL_BAD_DISPLAY);
		return EGL_NO_SYNC;
	}
	gles_egl_unlock();
	if (type != EGL_SYNC_FENCE) {
		err = khr ? EGL_BAD_ATTRIBUTE : EGL_BAD_PARAMETER;
		goto fail;
	}
	if (has_attribs) {
		err = EGL_BAD_ATTRIBUTE;
		goto fail;
	}
	/*
	 * A fence needs the bound API's current context, on this display
	 * (every context of ours has GL_OES_EGL_sync, the client API's part).
	 */
	if (gles_egl_current_api() != EGL_OPENGL_ES_API || !cur || cur->dpy != dpy) {
		err = EGL_BAD_MATCH;
		goto fail;
	}
	if (!(s = calloc(1, sizeof(*s))) || !(s->fence = gles_sync_fence(cur->gl))) {
		free(s);
		err = EGL_BAD_ALLOC;
		goto fail;
	}
	gles_egl_lock();
	s->next = dpy->syncs;
	dpy->syncs = s;
	gles_egl_unlock();
	gles_egl_error(EGL_SUCCESS);
	return (EGLSync)s;

fail:
	gles_egl_error(err);
	return EGL_NO_SYNC;
}

EGLSync gles_egl_create_sync(EGLDisplay dpy, EGLenum type, const EGLAttrib *attribs)
{
	return create_sync(dpy, type, attribs && attribs[0] != EGL_NONE, false);
}

EGLSyncKHR gles_egl_create_sync_khr(EGLDisplay dpy, EGLenum type, const EGLint *attribs)
{
	return create_sync(dpy, type, attribs && attribs[0] != EGL_NONE, true);
}

EGLBoolean gles_egl_destroy_sync(EGLDisplay handle, EGLSync sync)
{
	struct gles_display *dpy;
	struct gles_egl_sync *s, **at;

	gles_egl_lock();
	if (!(dpy = gles_egl_display(handle, true))) {
		gles_egl_unlock();
		return EGL_FALSE;
	}
	for (at = &dpy->syncs; *at && *at != (struct gles_egl_sync *)sync; at = &(*at)->next)
		;
	if (!(s = *at)) {
		gles_egl_unlock();
		return gles_egl_error(EGL_BAD_PARAMETER);
	}
	*at = s->next;
	gles_egl_unlock();
	/* a wait in another thread holds its own reference to the fence */
	sync_free(s);
	gles_egl_error(EGL_SUCCESS);
	return EGL_TRUE;
}

/* The fence of sync on dpy with a reference for the caller; NULL with the error set. */
static struct gles_sync *fence_ref(EGLDisplay handle, EGLSync sync)
{
	struct gles_display *dpy;
	struct gles_egl_sync *s;
	struct gles_sync *f = NULL;

	gles_egl_lock();
	if ((dpy = gles_egl_display(handle, true))) {
		if ((s = find_sync(dpy, sync)))
			f = gles_sync_ref(s->fence);
		else
			gles_egl_error(EGL_BAD_PARAMETER);
	}
	gles_egl_unlock();
	return f;
}

/* Section 3.8.1.2; timeout in ns, EGL_FOREVER without a limit. */
EGLint gles_egl_client_wait_sync(EGLDisplay dpy, EGLSync sync, EGLint flags, EGLTime timeout)
{
	struct gles_thread *t = gles_egl_thread();
	struct gles_sync *f = fence_ref(dpy, sync);
	EGLint ret;

	if (!f)
		return EGL_FALSE;
	if (gles_sync_wait(f, 0)) {
		ret = EGL_CONDITION_SATISFIED;
	} else if (timeout == 0) {
		ret = EGL_TIMEOUT_EXPIRED;
	} else {
		/* the fence was submitted when it was made; a flush sends what came after */
		if ((flags & EGL_SYNC_FLUSH_COMMANDS_BIT) && t && t->ctx)
			gles_context_flush(t->ctx->gl);
		ret = gles_sync_wait(
			  f, timeout == EGL_FOREVER || timeout > INT64_MAX ? -1 : (int64_t)timeout)
			  ? EGL_CONDITION_SATISFIED
			  : EGL_TIMEOUT_EXPIRED;
	}
	gles_sync_unref(f);
	gles_egl_error(EGL_SUCCESS);
	return ret;
}

/* Section 3.8.1.3: the current context's later commands come after the fence. */
static EGLint wait_sync(EGLDisplay dpy, EGLSync sync, EGLint flags)
{
	struct gles_thread *t = gles_egl_thread();
	struct gles_sync *f = fence_ref(dpy, sync);

	if (!f)
		return EGL_FALSE;
	if (flags != 0 || !t || !t->ctx || gles_egl_current_api() != EGL_OPENGL_ES_API) {
		gles_sync_unref(f);
		return gles_egl_error(flags != 0 ? EGL_BAD_PARAMETER : EGL_BAD_MATCH);
	}
	gles_sync_wait_gpu(t->ctx->gl, f);
	gles_sync_unref(f);
	gles_egl_error(EGL_SUCCESS);
	return EGL_TRUE;
}

EGLBoolean gles_egl_wait_sync(EGLDisplay dpy, EGLSync sync, EGLint flags)
{
	return (EGLBoolean)wait_sync(dpy, sync, flags);
}

/* EGL_KHR_wait_sync: the same errors, an EGLint result. */
EGLint gles_egl_wait_sync_khr(EGLDisplay dpy, EGLSyncKHR sync, EGLint flags)
{
	return wait_sync(dpy, sync, flags);
}

/* Section 3.8.1.4: the type, the status (looked at now) and the condition. */
static EGLBoolean sync_attrib(EGLDisplay dpy, EGLSync sync, EGLint attribute, EGLAttrib *value)
{
	struct gles_sync *f = fence_ref(dpy, sync);
	EGLAttrib v;

	if (!f)
		return EGL_FALSE;
	switch (attribute) {
	case EGL_SYNC_TYPE:
		v = EGL_SYNC_FENCE;
		break;
	case EGL_SYNC_STATUS:
		v = gles_sync_wait(f, 0) ? EGL_SIGNALED : EGL_UNSIGNALED;
		break;
	case EGL_SYNC_CONDITION:
		v = EGL_SYNC_PRIOR_COMMANDS_COMPLETE;
		break;
	default:
		gles_sync_unref(f);
		return gles_egl_error(EGL_BAD_ATTRIBUTE);
	}
	gles_sync_unref(f);
	if (!value)
		return gles_egl_error(EGL_BAD_PARAMETER);
	*value = v;
	gles_egl_error(EGL_SUCCESS);
	return EGL_TRUE;
}

EGLBoolean gles_egl_get_sync_attrib(EGLDisplay dpy, EGLSync sync, EGLint attribute,
				    EGLAttrib *value)
{
	return sync_attrib(dpy, sync, attribute, value);
}

/* EGL_KHR_fence_sync's form: the same attributes and errors, an EGLint value. */
EGLBoolean gles_egl_get_sync_attrib_khr(EGLDisplay dpy, EGLSyncKHR sync, EGLint attribute,
					EGLint *value)
{
	EGLAttrib v;

	if (!sync_attrib(dpy, sync, attribute, value ? &v : NULL))
		return EGL_FALSE;
	*value = (EGLint)v;
	return EGL_TRUE;
}
