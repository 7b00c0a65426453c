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
 *
 * EGL_ANDROID_native_fence_sync: a native fence sync is a file descriptor
 * that becomes readable once the fence signals, as a sync_file does.  Made
 * without one (EGL_NO_NATIVE_FENCE_FD_ANDROID), it is a fence of the
 * current context's work as above, and its descriptor the scheduler's
 * export of the fence's point (agx_device_point_export), which another
 * process may poll or import; made from one, it owns that descriptor and
 * signals when it becomes readable.  Waits on such a one poll it, on the
 * CPU (eglWaitSync too: the scheduler can import it into a timeline, but
 * a context's timeline counts its own submissions).
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "context.h"
#include "egl_agx.h"
#include "objects.h"
#include "sync.h"

struct gles_egl_sync {
	struct gles_egl_sync *next; /* on its display's list while its handle is valid */
	EGLenum type;		    /* EGL_SYNC_FENCE or EGL_SYNC_NATIVE_FENCE_ANDROID */
	struct gles_sync *fence;    /* NULL for a native fence made from a descriptor */
	int fd;			    /* a native fence's descriptor, -1 for a fence */
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
	if (s->fd >= 0)
		close(s->fd);
	free(s);
}

/*
 * What a wait or a query uses of a sync, taken under the lock: the fence
 * with a reference, or a duplicate of the descriptor (so that a destroy
 * in another thread closes nothing under the wait).
 */
struct sync_view {
	EGLenum type;
	struct gles_sync *fence;
	int fd;
};

static void view_put(struct sync_view *v)
{
	gles_sync_unref(v->fence);
	if (v->fd >= 0)
		close(v->fd);
}

/* Nanoseconds of CLOCK_MONOTONIC. */
static int64_t now_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (int64_t)t.tv_sec * 1000000000 + t.tv_nsec;
}

/* Whether fd became readable (or its other end went) within timeout_ns (negative: no limit). */
static bool fd_wait(int fd, int64_t timeout_ns)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };
	int64_t end = timeout_ns > 0 ? now_ns() + timeout_ns : 0;

	for (;;) {
		int64_t left = timeout_ns > 0 ? end - now_ns() : timeout_ns;
		/* whole milliseconds, rounded up; a minute at a time (poll takes an int) */
		int ms = left < 0	      ? -1
			 : left > 60000000000 ? 60000
					      : (int)((left + 999999) / 1000000);
		int r;

		if (timeout_ns > 0 && left <= 0)
			ms = 0;
		r = poll(&p, 1, ms);
		if (r > 0)
			return true; /* readable, or hung up: nothing is left to wait for */
		if (r < 0 && errno != EINTR)
			return true; /* no descriptor to wait on: as signaled (EGL has no error
					here) */
		if (r == 0 && ms == 0)
			return false;
	}
}

static bool view_wait(const struct sync_view *v, int64_t timeout_ns)
{
	return v->fence ? gles_sync_wait(v->fence, timeout_ns) : fd_wait(v->fd, timeout_ns);
}

/*
 * A descriptor already readable, for a native fence of no work (the
 * context never submitted): a socket pair's end with its packet in,
 * as the scheduler's exports carry a status.
 */
static int signaled_fd(void)
{
	int sv[2], status = 0;

	if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv) < 0)
		return -1;
	if (send(sv[1], &status, sizeof(status), MSG_NOSIGNAL) != sizeof(status)) {
		close(sv[0]);
		close(sv[1]);
		return -1;
	}
	close(sv[1]);
	return sv[0];
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
 * a type it does not know EGL_BAD_ATTRIBUTE.  A native fence takes
 * EGL_SYNC_NATIVE_FENCE_FD_ANDROID only (other is true for another
 * attribute), and owns fd (closed on an error too) when it is not
 * EGL_NO_NATIVE_FENCE_FD_ANDROID.
 */
static EGLSync create_sync(EGLDisplay handle, EGLenum type, bool other, int fd, bool khr)
{
	struct gles_thread *t = gles_egl_thread();
	struct gles_egl_context *cur = t ? t->ctx : NULL;
	struct gles_display *dpy;
	struct gles_egl_sync *s = NULL;
	EGLint err;

	gles_egl_lock();
	if (!(dpy = gles_egl_display(handle, true))) {
		gles_egl_unlock();
		if (khr)
			gles_egl_error(EGL_BAD_DISPLAY);
		goto out_fd;
	}
	gles_egl_unlock();
	if (type != EGL_SYNC_FENCE && type != EGL_SYNC_NATIVE_FENCE_ANDROID) {
		err = khr ? EGL_BAD_ATTRIBUTE : EGL_BAD_PARAMETER;
		goto fail;
	}
	if (other || (type == EGL_SYNC_FENCE && fd != EGL_NO_NATIVE_FENCE_FD_ANDROID)) {
		err = EGL_BAD_ATTRIBUTE;
		goto fail;
	}
	if (!(s = calloc(1, sizeof(*s)))) {
		err = EGL_BAD_ALLOC;
		goto fail;
	}
	s->type = type;
	s->fd = -1;
	if (fd != EGL_NO_NATIVE_FENCE_FD_ANDROID) {
		/* the application's descriptor: ours from now on */
		s->fd = fd;
		fd = EGL_NO_NATIVE_FENCE_FD_ANDROID;
		goto add;
	}
	/*
	 * A fence needs the bound API's current context, on this display
	 * (every context of ours has GL_OES_EGL_sync, the client API's part).
	 */
	if (gles_egl_current_api() != EGL_OPENGL_ES_API || !cur || cur->dpy != dpy) {
		err = EGL_BAD_MATCH;
		goto fail;
	}
	if (!(s->fence = gles_sync_fence(cur->gl))) {
		err = EGL_BAD_ALLOC;
		goto fail;
	}
	if (type == EGL_SYNC_NATIVE_FENCE_ANDROID) {
		struct agx_sched_point p = { s->fence->syncobj, s->fence->point };

		if (s->fence->signaled || !p.syncobj)
			s->fd = signaled_fd();
		else if (agx_device_point_export(s->fence->dev, p, &s->fd) < 0)
			s->fd = -1;
		if (s->fd < 0) {
			err = EGL_BAD_ALLOC;
			goto fail;
		}
	}
add:
	gles_egl_lock();
	s->next = dpy->syncs;
	dpy->syncs = s;
	gles_egl_unlock();
	gles_egl_error(EGL_SUCCESS);
	return (EGLSync)s;

fail:
	if (s)
		sync_free(s);
	gles_egl_error(err);
out_fd:
	if (fd != EGL_NO_NATIVE_FENCE_FD_ANDROID && fd >= 0)
		close(fd);
	return EGL_NO_SYNC;
}

EGLSync gles_egl_create_sync(EGLDisplay dpy, EGLenum type, const EGLAttrib *attribs)
{
	int fd = EGL_NO_NATIVE_FENCE_FD_ANDROID;
	bool other = false;

	for (const EGLAttrib *a = attribs; a && a[0] != EGL_NONE; a += 2) {
		if (type == EGL_SYNC_NATIVE_FENCE_ANDROID &&
		    a[0] == EGL_SYNC_NATIVE_FENCE_FD_ANDROID && a[1] >= -1 && a[1] <= INT32_MAX)
			fd = (int)a[1];
		else
			other = true;
	}
	return create_sync(dpy, type, other, fd, false);
}

EGLSyncKHR gles_egl_create_sync_khr(EGLDisplay dpy, EGLenum type, const EGLint *attribs)
{
	int fd = EGL_NO_NATIVE_FENCE_FD_ANDROID;
	bool other = false;

	for (const EGLint *a = attribs; a && a[0] != EGL_NONE; a += 2) {
		if (type == EGL_SYNC_NATIVE_FENCE_ANDROID &&
		    a[0] == EGL_SYNC_NATIVE_FENCE_FD_ANDROID && a[1] >= -1)
			fd = a[1];
		else
			other = true;
	}
	return create_sync(dpy, type, other, fd, true);
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

/* What sync on dpy is, for the caller (view_put); false with the error set. */
static bool view_get(EGLDisplay handle, EGLSync sync, struct sync_view *v)
{
	struct gles_display *dpy;
	struct gles_egl_sync *s;
	bool ok = false;

	*v = (struct sync_view){ .fd = -1 };
	gles_egl_lock();
	if ((dpy = gles_egl_display(handle, true))) {
		if ((s = find_sync(dpy, sync))) {
			v->type = s->type;
			v->fence = s->fence ? gles_sync_ref(s->fence) : NULL;
			if (!s->fence)
				v->fd = fcntl(s->fd, F_DUPFD_CLOEXEC, 0);
			ok = s->fence || v->fd >= 0;
			if (!ok)
				gles_egl_error(EGL_BAD_ALLOC);
		} else {
			gles_egl_error(EGL_BAD_PARAMETER);
		}
	}
	gles_egl_unlock();
	return ok;
}

/* Section 3.8.1.2; timeout in ns, EGL_FOREVER without a limit. */
EGLint gles_egl_client_wait_sync(EGLDisplay dpy, EGLSync sync, EGLint flags, EGLTime timeout)
{
	struct gles_thread *t = gles_egl_thread();
	struct sync_view f;
	EGLint ret;

	if (!view_get(dpy, sync, &f))
		return EGL_FALSE;
	if (view_wait(&f, 0)) {
		ret = EGL_CONDITION_SATISFIED;
	} else if (timeout == 0) {
		ret = EGL_TIMEOUT_EXPIRED;
	} else {
		/* the fence was submitted when it was made; a flush sends what came after */
		if ((flags & EGL_SYNC_FLUSH_COMMANDS_BIT) && t && t->ctx)
			gles_context_flush(t->ctx->gl);
		ret = view_wait(
			  &f, timeout == EGL_FOREVER || timeout > INT64_MAX ? -1 : (int64_t)timeout)
			  ? EGL_CONDITION_SATISFIED
			  : EGL_TIMEOUT_EXPIRED;
	}
	view_put(&f);
	gles_egl_error(EGL_SUCCESS);
	return ret;
}

/* Section 3.8.1.3: the current context's later commands come after the fence. */
static EGLint wait_sync(EGLDisplay dpy, EGLSync sync, EGLint flags)
{
	struct gles_thread *t = gles_egl_thread();
	struct sync_view f;

	if (!view_get(dpy, sync, &f))
		return EGL_FALSE;
	if (flags != 0 || !t || !t->ctx || gles_egl_current_api() != EGL_OPENGL_ES_API) {
		view_put(&f);
		return gles_egl_error(flags != 0 ? EGL_BAD_PARAMETER : EGL_BAD_MATCH);
	}
	if (f.fence)
		gles_sync_wait_gpu(t->ctx->gl, f.fence);
	else
		fd_wait(f.fd, -1);
	view_put(&f);
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
	struct sync_view f;
	EGLAttrib v;

	if (!view_get(dpy, sync, &f))
		return EGL_FALSE;
	switch (attribute) {
	case EGL_SYNC_TYPE:
		v = f.type;
		break;
	case EGL_SYNC_STATUS:
		v = view_wait(&f, 0) ? EGL_SIGNALED : EGL_UNSIGNALED;
		break;
	case EGL_SYNC_CONDITION:
		/* a native fence made from a descriptor: EGL_ANDROID_native_fence_sync's */
		v = f.fence ? EGL_SYNC_PRIOR_COMMANDS_COMPLETE
			    : EGL_SYNC_NATIVE_FENCE_SIGNALED_ANDROID;
		break;
	default:
		view_put(&f);
		return gles_egl_error(EGL_BAD_ATTRIBUTE);
	}
	view_put(&f);
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

/*
 * EGL_ANDROID_native_fence_sync: a new descriptor of a native fence
 * sync's, the caller's to close; EGL_NO_NATIVE_FENCE_FD_ANDROID with
 * EGL_BAD_PARAMETER for a sync that is none.
 */
EGLint gles_egl_dup_native_fence_fd(EGLDisplay handle, EGLSyncKHR sync)
{
	struct gles_display *dpy;
	struct gles_egl_sync *s;
	int fd = EGL_NO_NATIVE_FENCE_FD_ANDROID;
	EGLint err = EGL_SUCCESS;

	gles_egl_lock();
	if (!(dpy = gles_egl_display(handle, true))) {
		gles_egl_unlock();
		return EGL_NO_NATIVE_FENCE_FD_ANDROID;
	}
	s = find_sync(dpy, sync);
	if (!s || s->type != EGL_SYNC_NATIVE_FENCE_ANDROID)
		err = EGL_BAD_PARAMETER;
	else if ((fd = fcntl(s->fd, F_DUPFD_CLOEXEC, 0)) < 0)
		err = EGL_BAD_ALLOC;
	gles_egl_unlock();
	gles_egl_error(err);
	return err == EGL_SUCCESS ? fd : EGL_NO_NATIVE_FENCE_FD_ANDROID;
}
