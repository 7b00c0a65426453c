/*
 * egl_context.c: EGL contexts -- OpenGL ES 3.0 for a 2.0 or 3.0 request,
 * with share lists and the robustness attributes -- and what binds them
 * to threads:
 * eglMakeCurrent (a context or surface current in one thread is
 * EGL_BAD_ACCESS in every other), eglReleaseThread and the eglWait*
 * functions.  The GL side of a context is context.c's.
 */
#include <pthread.h>
#include <stdlib.h>

#include "egl_agx.h"

static struct gles_egl_context *find_context(struct gles_display *dpy, EGLContext handle)
{
	for (struct gles_egl_context *c = dpy->contexts; c; c = c->next)
		if ((EGLContext)c == handle)
			return c;
	return NULL;
}

static void unlink_context(struct gles_egl_context *ctx)
{
	for (struct gles_egl_context **p = &ctx->dpy->contexts; *p; p = &(*p)->next) {
		if (*p == ctx) {
			*p = ctx->next;
			break;
		}
	}
	ctx->next = NULL;
}

void gles_egl_context_unref(struct gles_egl_context *ctx)
{
	if (!ctx || --ctx->refs)
		return;
	gles_context_destroy(ctx->gl);
	gles_device_unref(ctx->dev);
	free(ctx);
}

void gles_egl_context_terminate(struct gles_egl_context *ctx)
{
	unlink_context(ctx);
	gles_egl_context_unref(ctx);
}

/* EGL 1.5 section 3.7.1's attributes for an OpenGL ES context. */
struct context_request {
	EGLint major, minor;
	bool debug, robust_access;
	EGLint reset_strategy;
};

static EGLint parse_context(const EGLint *attribs, struct context_request *r)
{
	*r = (struct context_request){ .major = 1,
				       .minor = 0,
				       .reset_strategy = EGL_NO_RESET_NOTIFICATION };
	for (const EGLint *a = attribs; a && a[0] != EGL_NONE; a += 2) {
		EGLint v = a[1];

		switch (a[0]) {
		case EGL_CONTEXT_MAJOR_VERSION: /* the same as EGL_CONTEXT_CLIENT_VERSION */
			r->major = v;
			break;
		case EGL_CONTEXT_MINOR_VERSION:
			r->minor = v;
			break;
		case EGL_CONTEXT_OPENGL_DEBUG:
			/* section 3.7.1.3: a debug context may behave as any other */
			if (v != EGL_TRUE && v != EGL_FALSE)
				return EGL_BAD_ATTRIBUTE;
			r->debug = v == EGL_TRUE;
			break;
		case EGL_CONTEXT_OPENGL_ROBUST_ACCESS:
		case EGL_CONTEXT_OPENGL_ROBUST_ACCESS_EXT:
			if (v != EGL_TRUE && v != EGL_FALSE)
				return EGL_BAD_ATTRIBUTE;
			r->robust_access = v == EGL_TRUE;
			break;
		case EGL_CONTEXT_FLAGS_KHR:
			/*
			 * EGL_KHR_create_context: debug, and robust access as
			 * EGL_EXT_create_context_robustness gives OpenGL ES; the
			 * forward-compatible bit is OpenGL's, and no other bit is
			 * defined: EGL_BAD_ATTRIBUTE.
			 */
			if (v & ~(EGL_CONTEXT_OPENGL_DEBUG_BIT_KHR |
				  EGL_CONTEXT_OPENGL_ROBUST_ACCESS_BIT_KHR))
				return EGL_BAD_ATTRIBUTE;
			r->debug = v & EGL_CONTEXT_OPENGL_DEBUG_BIT_KHR;
			r->robust_access = v & EGL_CONTEXT_OPENGL_ROBUST_ACCESS_BIT_KHR;
			break;
		case EGL_CONTEXT_OPENGL_RESET_NOTIFICATION_STRATEGY:
		case EGL_CONTEXT_OPENGL_RESET_NOTIFICATION_STRATEGY_EXT:
			if (v != EGL_NO_RESET_NOTIFICATION && v != EGL_LOSE_CONTEXT_ON_RESET)
				return EGL_BAD_ATTRIBUTE;
			r->reset_strategy = v;
			break;
		default:
			/*
			 * Unknown, or meaningless for OpenGL ES (the profile mask,
			 * forward compatibility): section 3.7.1's EGL_BAD_ATTRIBUTE.
			 */
			return EGL_BAD_ATTRIBUTE;
		}
	}
	return EGL_SUCCESS;
}

/*
 * Section 3.7.1.1: a version OpenGL ES does not define is EGL_BAD_MATCH;
 * ES 1.x needs EGL_OPENGL_ES_BIT in the config, which none has
 * (EGL_BAD_CONFIG); 3.1 and 3.2 are defined, but this driver cannot make a
 * context that implements them (EGL_BAD_MATCH).
 */
static EGLint check_version(const struct context_request *r)
{
	switch (r->major) {
	case 1:
		return r->minor == 0 || r->minor == 1 ? EGL_BAD_CONFIG : EGL_BAD_MATCH;
	case 2:
		return r->minor == 0 ? EGL_SUCCESS : EGL_BAD_MATCH;
	case 3:
		return r->minor == 0 ? EGL_SUCCESS : EGL_BAD_MATCH;
	default:
		return EGL_BAD_MATCH;
	}
}

EGLContext gles_egl_create_context(EGLDisplay handle, EGLConfig config, EGLContext share_handle,
				   const EGLint *attribs)
{
	struct gles_display *dpy, *other;
	struct gles_egl_context *ctx = NULL, *share = NULL;
	const struct gles_config *c;
	struct gles_context_params params;
	struct context_request r;
	EGLint err;

	gles_egl_lock();
	if (!(dpy = gles_egl_display(handle, true)) || !(c = gles_egl_config(dpy, config)))
		goto fail;
	/* libEGL binds only APIs some vendor supports: OpenGL ES, or EGL_NONE */
	if (gles_egl_current_api() != EGL_OPENGL_ES_API) {
		gles_egl_error(EGL_BAD_MATCH);
		goto fail;
	}
	if ((err = parse_context(attribs, &r)) != EGL_SUCCESS ||
	    (err = check_version(&r)) != EGL_SUCCESS) {
		gles_egl_error(err);
		goto fail;
	}
	if (share_handle != EGL_NO_CONTEXT) {
		share = find_context(dpy, share_handle);
		if (!share) {
			/* section 3.7.1: a context of another display is EGL_BAD_MATCH */
			gles_egl_error(EGL_BAD_CONTEXT);
			for (unsigned i = 0; (other = gles_egl_display_at(i)); i++)
				if (other != dpy && find_context(other, share_handle))
					gles_egl_error(EGL_BAD_MATCH);
			goto fail;
		}
		/*
		 * EGL_EXT_create_context_robustness: contexts that share objects
		 * share a reset notification strategy.
		 */
		if (share->gl->lose_context_on_reset !=
		    (r.reset_strategy == EGL_LOSE_CONTEXT_ON_RESET)) {
			gles_egl_error(EGL_BAD_MATCH);
			goto fail;
		}
	}
	ctx = calloc(1, sizeof(*ctx));
	if (!ctx) {
		gles_egl_error(EGL_BAD_ALLOC);
		goto fail;
	}
	/*
	 * Section 3.7.1.1: "the context returned may implement any version of
	 * OpenGL ES backward compatible with the requested version", and ES 3.0
	 * is backward compatible with 2.0: both requests get ES 3.0, as Mesa
	 * answers a 2.0 request with its highest ES version.  Every config has
	 * EGL_OPENGL_ES3_BIT as well as EGL_OPENGL_ES2_BIT, so the config
	 * supports the context whichever was asked for.
	 */
	_Static_assert(GLES_CONFIG_RENDERABLE_TYPE & EGL_OPENGL_ES3_BIT,
		       "every config must support the ES 3.0 contexts made for it");
	params = (struct gles_context_params){
		.major = 3,
		.minor = 0,
		.robust_access = r.robust_access,
		.lose_context_on_reset = r.reset_strategy == EGL_LOSE_CONTEXT_ON_RESET,
		.debug = r.debug,
		.share = share ? share->gl->share : NULL,
		.dev = dpy->dev->agx,
		.renderer = dpy->dev->renderer,
	};
	if (gles_context_create(&params, &ctx->gl) < 0) {
		gles_egl_error(EGL_BAD_ALLOC);
		goto fail;
	}
	ctx->dpy = dpy;
	ctx->config = c;
	ctx->client_version = r.major;
	ctx->dev = dpy->dev;
	ctx->dev->refs++;
	ctx->refs = 1;
	ctx->next = dpy->contexts;
	dpy->contexts = ctx;
	gles_egl_unlock();
	gles_egl_error(EGL_SUCCESS);
	return (EGLContext)ctx;

fail:
	free(ctx);
	gles_egl_unlock();
	return EGL_NO_CONTEXT;
}

/*
 * Section 3.7.2: a context current in some thread is destroyed once no
 * longer current; its handle is invalid at once.
 */
EGLBoolean gles_egl_destroy_context(EGLDisplay handle, EGLContext context)
{
	struct gles_display *dpy;
	struct gles_egl_context *ctx;

	gles_egl_lock();
	if (!(dpy = gles_egl_display(handle, true)))
		goto fail;
	if (!(ctx = find_context(dpy, context))) {
		gles_egl_error(EGL_BAD_CONTEXT);
		goto fail;
	}
	unlink_context(ctx);
	gles_egl_context_unref(ctx);
	gles_egl_unlock();
	gles_egl_error(EGL_SUCCESS);
	return EGL_TRUE;

fail:
	gles_egl_unlock();
	return EGL_FALSE;
}

EGLBoolean gles_egl_query_context(EGLDisplay handle, EGLContext context, EGLint attribute,
				  EGLint *value)
{
	struct gles_display *dpy;
	struct gles_egl_context *ctx;
	EGLint v, err = EGL_SUCCESS;

	gles_egl_lock();
	if (!(dpy = gles_egl_display(handle, true))) {
		gles_egl_unlock();
		return EGL_FALSE;
	}
	if (!(ctx = find_context(dpy, context))) {
		err = EGL_BAD_CONTEXT;
		goto out;
	}
	switch (attribute) {
	case EGL_CONFIG_ID:
		v = ctx->config->id;
		break;
	case EGL_CONTEXT_CLIENT_TYPE:
		v = EGL_OPENGL_ES_API;
		break;
	case EGL_CONTEXT_CLIENT_VERSION:
		/*
		 * Section 3.7.4: "as specified at context creation time" -- the
		 * version asked for, 2 for a 2.0 request that got ES 3.0 (as Mesa)
		 */
		v = ctx->client_version;
		break;
	case EGL_RENDER_BUFFER:
		/* section 3.7.4: a pbuffer's back buffer, or EGL_NONE when bound to no surface */
		v = ctx->bound_to && ctx->draw ? EGL_BACK_BUFFER : EGL_NONE;
		break;
	default:
		err = EGL_BAD_ATTRIBUTE;
		goto out;
	}
	if (value)
		*value = v;
	else
		err = EGL_BAD_PARAMETER;
out:
	gles_egl_unlock();
	gles_egl_error(err);
	return err == EGL_SUCCESS;
}

/* Unbinds the calling thread's current context, which may then go if it was destroyed. */
static void release_current(struct gles_thread *t)
{
	struct gles_egl_context *old = t->ctx;

	if (!old)
		return;
	/* section 3.7.3: the context that stops being current is flushed */
	gles_context_flush(old->gl);
	gles_context_make_current(NULL, NULL, NULL);
	t->ctx = NULL;
	old->bound_to = NULL;
	if (old->draw)
		old->draw->bound_to = NULL;
	if (old->read)
		old->read->bound_to = NULL;
	gles_surface_unref(old->draw);
	gles_surface_unref(old->read);
	old->draw = old->read = NULL;
	gles_egl_context_unref(old);
}

/* Section 3.7.3's checks of one surface to bind: EGL_SUCCESS or the error. */
static EGLint check_surface(struct gles_display *dpy, EGLSurface handle,
			    const struct gles_egl_context *ctx, struct gles_thread *t,
			    struct gles_surface **out)
{
	struct gles_surface *surf;

	*out = NULL;
	if (handle == EGL_NO_SURFACE)
		return EGL_SUCCESS;
	if (!(surf = gles_egl_surface(dpy, handle)))
		return EGL_BAD_SURFACE;
	if (surf->bound_to && surf->bound_to != t)
		return EGL_BAD_ACCESS;
	/* section 2.2: the surface's buffers must be those the context's config describes */
	if (!gles_configs_compatible(surf->config, ctx->config))
		return EGL_BAD_MATCH;
	*out = surf;
	return EGL_SUCCESS;
}

/*
 * A thread that ends with a context current without eglReleaseThread would
 * leave it bound for good (EGL_BAD_ACCESS everywhere else): a thread-exit
 * destructor releases it.  The key goes when the library is unloaded.
 */
static pthread_key_t exit_key;
static pthread_once_t exit_key_once = PTHREAD_ONCE_INIT;
static bool exit_key_made;

static void release_at_exit(void *thread)
{
	gles_egl_lock();
	release_current(thread);
	gles_egl_unlock();
}

static void make_exit_key(void)
{
	exit_key_made = pthread_key_create(&exit_key, release_at_exit) == 0;
}

__attribute__((destructor)) static void delete_exit_key(void)
{
	if (exit_key_made)
		pthread_key_delete(exit_key);
}

EGLBoolean gles_egl_make_current(EGLDisplay handle, EGLSurface draw_handle, EGLSurface read_handle,
				 EGLContext context)
{
	struct gles_thread *t = gles_egl_thread();
	struct gles_surface *draw, *read;
	struct gles_display *dpy;
	struct gles_egl_context *ctx;
	EGLint err = EGL_SUCCESS;

	gles_egl_lock();
	if (!(dpy = gles_egl_display(handle, false))) {
		gles_egl_unlock();
		return EGL_FALSE;
	}
	if (context == EGL_NO_CONTEXT) {
		/*
		 * Releasing: the one call that may name a display that is not
		 * initialized, so that contexts kept alive past eglTerminate go.
		 */
		if (draw_handle != EGL_NO_SURFACE || read_handle != EGL_NO_SURFACE)
			err = EGL_BAD_MATCH;
		else
			release_current(t);
		goto out;
	}
	if (!dpy->initialized) {
		err = EGL_NOT_INITIALIZED;
		goto out;
	}
	if (!(ctx = find_context(dpy, context))) {
		err = EGL_BAD_CONTEXT;
		goto out;
	}
	/* no surfaces at all is EGL_KHR_surfaceless_context; one of two is not */
	if ((draw_handle == EGL_NO_SURFACE) != (read_handle == EGL_NO_SURFACE)) {
		err = EGL_BAD_MATCH;
		goto out;
	}
	if (ctx->bound_to && ctx->bound_to != t) {
		err = EGL_BAD_ACCESS;
		goto out;
	}
	if ((err = check_surface(dpy, draw_handle, ctx, t, &draw)) != EGL_SUCCESS ||
	    (err = check_surface(dpy, read_handle, ctx, t, &read)) != EGL_SUCCESS)
		goto out;
	/* the new bindings' references first: releasing the old ones may free what they share */
	ctx->refs++;
	if (draw)
		draw->refs++;
	if (read)
		read->refs++;
	release_current(t);
	ctx->bound_to = t;
	ctx->draw = draw;
	ctx->read = read;
	if (draw)
		draw->bound_to = t;
	if (read)
		read->bound_to = t;
	t->ctx = ctx;
	pthread_once(&exit_key_once, make_exit_key);
	if (exit_key_made)
		pthread_setspecific(exit_key, t);
	gles_context_make_current(ctx->gl, draw ? &draw->drawable : NULL,
				  read ? &read->drawable : NULL);
out:
	gles_egl_unlock();
	gles_egl_error(err);
	return err == EGL_SUCCESS;
}

/* Section 3.11: the thread's current context is released and its EGL state is as new. */
EGLBoolean gles_egl_release_thread(void)
{
	gles_egl_lock();
	release_current(gles_egl_thread());
	gles_egl_unlock();
	gles_egl_error(EGL_SUCCESS);
	return EGL_TRUE;
}

/*
 * Section 3.8: rendering of the current context done before native
 * rendering -- all of it finished, since nothing else can see it earlier.
 * Without a current context there is nothing to wait for.
 */
EGLBoolean gles_egl_wait_client(void)
{
	struct gles_egl_context *ctx;
	EGLint err = EGL_SUCCESS;

	gles_egl_lock();
	ctx = gles_egl_thread()->ctx;
	if (ctx && ((ctx->draw && !ctx->draw->valid) || (ctx->read && !ctx->read->valid)))
		err = EGL_BAD_CURRENT_SURFACE;
	else if (ctx)
		gles_context_finish(ctx->gl);
	gles_egl_unlock();
	gles_egl_error(err);
	return err == EGL_SUCCESS;
}

/* OpenGL ES is the only client API: eglWaitGL is eglWaitClient. */
EGLBoolean gles_egl_wait_gl(void)
{
	return gles_egl_wait_client();
}

/*
 * Native rendering done before client rendering: neither platform has a
 * native renderer to wait for, so only the arguments are checked.
 */
EGLBoolean gles_egl_wait_native(EGLint engine)
{
	struct gles_egl_context *ctx;
	EGLint err = EGL_SUCCESS;

	gles_egl_lock();
	ctx = gles_egl_thread()->ctx;
	if (engine != EGL_CORE_NATIVE_ENGINE)
		err = EGL_BAD_PARAMETER;
	else if (ctx && ((ctx->draw && !ctx->draw->valid) || (ctx->read && !ctx->read->valid)))
		err = EGL_BAD_CURRENT_SURFACE;
	gles_egl_unlock();
	gles_egl_error(err);
	return err == EGL_SUCCESS;
}
