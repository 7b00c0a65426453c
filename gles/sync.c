/*
 * sync.c: GLES 3.0 sync objects (GLES 3.0.6 section 5.2, queries in
 * 6.1.8) -- glFenceSync, glIsSync, glDeleteSync, glClientWaitSync,
 * glWaitSync, glGetSynciv -- over the timeline syncobj of each context's
 * GPU submission (submit.h).
 *
 * A fence is the point gles_submit_fence gives: everything the context
 * recorded before it is submitted then, so a fence always signals in
 * finite time and no wait can deadlock on unsubmitted work.  Names live in
 * the share group's namespace (objects.h, under the objects lock); the
 * GLsync handle is the name.  A sync's state (signaled, the syncobj, its
 * references and the waits in progress) is under sync_lock, taken after
 * the objects lock when both are held.
 *
 * A sync object may outlive the context whose work it fences, but that
 * context's syncobj does not (gles_submit_finish destroys it, and the
 * scheduler may hand its handle out again): gles_sync_context_finish marks
 * such syncs signaled once the work is done and waits for the waits that
 * still use the handle, so no wait ever reads a syncobj that is gone.
 */
#include <errno.h>
#include <pthread.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "context.h"
#include "gl_functions.h"
#include "objects.h"
#include "submit.h"
#include "sync.h"

struct sync_object {
	struct gles_sync base;
	unsigned waiting; /* threads inside agx_device_wait on base.syncobj */
	struct sync_object *prev, *next;
};

static pthread_mutex_t sync_lock = PTHREAD_MUTEX_INITIALIZER;
/* broadcast when a wait ends: gles_sync_context_finish may be waiting for it */
static pthread_cond_t sync_cond = PTHREAD_COND_INITIALIZER;
/* every sync object of the process, named or only referenced by a wait */
static struct sync_object *live;

static struct sync_object *sync_object(struct gles_sync *s)
{
	return (struct sync_object *)((char *)s - offsetof(struct sync_object, base));
}

/* The name a handle stands for; 0 for 0 and for values no name can have. */
static GLuint handle_name(GLsync sync)
{
	uintptr_t v = (uintptr_t)sync;

	return v <= UINT32_MAX ? (GLuint)v : 0;
}

GLuint gles_sync_name(GLsync sync)
{
	return handle_name(sync);
}

/* The sync object sync names in ctx's share group, with a reference for the caller; or NULL. */
static struct sync_object *lookup_ref(struct gles_context *ctx, GLsync sync)
{
	GLuint name = handle_name(sync);
	struct gles_sync *s = NULL;

	if (!name)
		return NULL;
	gles_objects_lock(ctx);
	s = gles_names_lookup(&ctx->share->objects->syncs, name);
	if (s) {
		pthread_mutex_lock(&sync_lock);
		s->refs++;
		pthread_mutex_unlock(&sync_lock);
	}
	gles_objects_unlock(ctx);
	return s ? sync_object(s) : NULL;
}

void gles_sync_unref(struct gles_sync *s)
{
	struct sync_object *so;

	if (!s)
		return;
	so = sync_object(s);
	pthread_mutex_lock(&sync_lock);
	if (--s->refs) {
		pthread_mutex_unlock(&sync_lock);
		return;
	}
	if (so->prev)
		so->prev->next = so->next;
	else
		live = so->next;
	if (so->next)
		so->next->prev = so->prev;
	pthread_mutex_unlock(&sync_lock);
	free(s->label);
	free(so);
}

/*
 * Whether so has signaled, waiting for it up to timeout_ns (negative: no
 * limit; 0: a look, which agx_device_wait spins for a few microseconds at
 * most).  Every answer of the wait but a timeout signals the sync: the
 * work finished (failed work too: its failure is the robustness status's
 * to report, not the fence's), or the device is gone with the work, which
 * then never runs and leaves nothing to wait for.
 */
static bool sync_wait(struct sync_object *so, int64_t timeout_ns)
{
	struct gles_sync *s = &so->base;
	struct agx_sched_point point;
	struct agx_device *dev;
	int status = 0, ret;

	pthread_mutex_lock(&sync_lock);
	if (s->signaled) {
		pthread_mutex_unlock(&sync_lock);
		return true;
	}
	point = (struct agx_sched_point){ s->syncobj, s->point };
	dev = s->dev;
	so->waiting++;
	pthread_mutex_unlock(&sync_lock);

	ret = agx_device_wait(dev, &point, 1, true, timeout_ns, &status);

	pthread_mutex_lock(&sync_lock);
	so->waiting--;
	if (ret != -ETIMEDOUT)
		s->signaled = true;
	pthread_cond_broadcast(&sync_cond);
	pthread_mutex_unlock(&sync_lock);
	return ret != -ETIMEDOUT;
}

void gles_sync_context_finish(struct gles_context *ctx)
{
	struct agx_sched_point point;
	uint32_t syncobj;
	uint64_t value;
	int status;

	/* submits what is left; syncobj 0: the context never made device objects */
	gles_submit_fence(ctx, &syncobj, &value);
	if (!syncobj)
		return;
	if (value) {
		point = (struct agx_sched_point){ syncobj, value };
		agx_device_wait(ctx->dev, &point, 1, true, -1, &status);
	}
	pthread_mutex_lock(&sync_lock);
restart:
	for (struct sync_object *so = live; so; so = so->next) {
		struct gles_sync *s = &so->base;

		if (s->dev != ctx->dev || s->syncobj != syncobj)
			continue;
		s->signaled = true;
		/* a wait that began before still reads the handle; its point has passed */
		if (so->waiting) {
			pthread_cond_wait(&sync_cond, &sync_lock);
			goto restart;
		}
		s->syncobj = 0;
	}
	pthread_mutex_unlock(&sync_lock);
}

/* ---- fences without a name (EGL sync objects) ------------------------------------------ */

/*
 * A fence of all work ctx recorded so far, one reference, on no list yet;
 * NULL when out of memory.  A submission that fails drops its work
 * (submit.c), which then never runs: the point is that of the last work
 * submitted, the fence signals after it, as for glFlush.
 */
static struct sync_object *fence_new(struct gles_context *ctx)
{
	struct sync_object *so = calloc(1, sizeof(*so));

	if (!so)
		return NULL;
	so->base.refs = 1;
	so->base.dev = ctx->dev;
	gles_submit_fence(ctx, &so->base.syncobj, &so->base.point);
	so->base.signaled = so->base.point == 0;
	return so;
}

/* so on the live list, where gles_sync_context_finish finds it. */
static void live_add(struct sync_object *so)
{
	pthread_mutex_lock(&sync_lock);
	so->next = live;
	if (live)
		live->prev = so;
	live = so;
	pthread_mutex_unlock(&sync_lock);
}

struct gles_sync *gles_sync_fence(struct gles_context *ctx)
{
	struct sync_object *so = fence_new(ctx);

	if (!so)
		return NULL;
	live_add(so);
	return &so->base;
}

struct gles_sync *gles_sync_ref(struct gles_sync *s)
{
	pthread_mutex_lock(&sync_lock);
	s->refs++;
	pthread_mutex_unlock(&sync_lock);
	return s;
}

bool gles_sync_wait(struct gles_sync *s, int64_t timeout_ns)
{
	return sync_wait(sync_object(s), timeout_ns);
}

void gles_sync_wait_gpu(struct gles_context *ctx, struct gles_sync *s)
{
	uint32_t own = gles_submit_syncobj(ctx);
	bool done, foreign;

	pthread_mutex_lock(&sync_lock);
	done = s->signaled || (own && s->syncobj == own && s->dev == ctx->dev);
	foreign = s->dev != ctx->dev;
	pthread_mutex_unlock(&sync_lock);
	if (done)
		return;
	if (foreign || gles_submit_add_wait(ctx, s) < 0)
		sync_wait(sync_object(s), -1);
}

/* Whether s's point can be waited for by a submission of dev: not signaled, its syncobj live. */
static bool pending_on(const struct gles_sync *s, const struct agx_device *dev)
{
	return !s->signaled && s->syncobj && s->dev == dev;
}

unsigned gles_sync_points_hold(struct gles_sync *const *syncs, unsigned n, struct agx_device *dev,
			       struct agx_sched_point *points, bool *held)
{
	unsigned k = 0;

	pthread_mutex_lock(&sync_lock);
	for (unsigned i = 0; i < n; i++) {
		struct gles_sync *s = syncs[i];

		held[i] = pending_on(s, dev);
		if (!held[i])
			continue;
		points[k++] = (struct agx_sched_point){ s->syncobj, s->point };
		/* as a CPU wait: gles_sync_context_finish keeps the handle until it ends */
		sync_object(s)->waiting++;
	}
	pthread_mutex_unlock(&sync_lock);
	return k;
}

void gles_sync_points_release(struct gles_sync *const *syncs, unsigned n, const bool *held)
{
	pthread_mutex_lock(&sync_lock);
	for (unsigned i = 0; i < n; i++)
		if (held[i])
			sync_object(syncs[i])->waiting--;
	pthread_cond_broadcast(&sync_cond);
	pthread_mutex_unlock(&sync_lock);
}

/* ---- GL entry points -------------------------------------------------------------------- */

GLsync gles_FenceSync(GLenum condition, GLbitfield flags)
{
	struct gles_context *ctx = gles_current();
	struct gles_shared_objects *objects;
	struct sync_object *so;
	GLuint name;

	if (!ctx)
		return 0;
	/* section 5.2: the one condition, and no flags yet */
	if (condition != GL_SYNC_GPU_COMMANDS_COMPLETE) {
		gles_error(ctx, GL_INVALID_ENUM);
		return 0;
	}
	if (flags != 0) {
		gles_error(ctx, GL_INVALID_VALUE);
		return 0;
	}
	so = fence_new(ctx); /* its reference is the name's */
	if (!so) {
		gles_error(ctx, GL_OUT_OF_MEMORY);
		return 0;
	}

	objects = ctx->share->objects;
	gles_objects_lock(ctx);
	if (gles_names_gen(&objects->syncs, 1, &name) < 0) {
		gles_objects_unlock(ctx);
		free(so);
		gles_error(ctx, GL_OUT_OF_MEMORY);
		return 0;
	}
	if (gles_names_set(&objects->syncs, name, &so->base) < 0) {
		gles_names_remove(&objects->syncs, name);
		gles_objects_unlock(ctx);
		free(so);
		gles_error(ctx, GL_OUT_OF_MEMORY);
		return 0;
	}
	so->base.name = name;
	/* on the live list before the objects lock goes: a lookup may take a reference at once */
	live_add(so);
	gles_objects_unlock(ctx);
	return (GLsync)(uintptr_t)name;
}

GLboolean gles_IsSync(GLsync sync)
{
	struct gles_context *ctx = gles_current();
	struct sync_object *so;

	if (!ctx)
		return GL_FALSE;
	so = lookup_ref(ctx, sync);
	if (!so)
		return GL_FALSE;
	gles_sync_unref(&so->base);
	return GL_TRUE;
}

/*
 * Section 5.2: the name is invalid at once; a sync a wait is blocked on
 * goes when that wait returns (the wait's reference).
 */
void gles_DeleteSync(GLsync sync)
{
	struct gles_context *ctx = gles_current();
	GLuint name;
	struct gles_sync *s = NULL;

	if (!ctx)
		return;
	if (!sync)
		return; /* silently ignored */
	name = handle_name(sync);
	if (name) {
		gles_objects_lock(ctx);
		s = gles_names_lookup(&ctx->share->objects->syncs, name);
		if (s)
			gles_names_remove(&ctx->share->objects->syncs, name);
		gles_objects_unlock(ctx);
	}
	if (!s) {
		gles_error(ctx, GL_INVALID_VALUE);
		return;
	}
	pthread_mutex_lock(&sync_lock);
	s->deleted = true;
	pthread_mutex_unlock(&sync_lock);
	gles_sync_unref(s);
}

/* GL's timeout (unsigned nanoseconds) as agx_device_wait's: past INT64_MAX is no limit. */
static int64_t wait_timeout(GLuint64 timeout)
{
	return timeout > (GLuint64)INT64_MAX ? -1 : (int64_t)timeout;
}

GLenum gles_ClientWaitSync(GLsync sync, GLbitfield flags, GLuint64 timeout)
{
	struct gles_context *ctx = gles_current_context;
	struct sync_object *so;
	GLenum ret;

	if (!ctx)
		return GL_WAIT_FAILED;
	/* KHR_robustness: a lost context's waits end at once, as if satisfied */
	if (ctx->lost) {
		gles_context_lost_command(ctx);
		return GL_CONDITION_SATISFIED;
	}
	if (flags & ~(GLbitfield)GL_SYNC_FLUSH_COMMANDS_BIT) {
		gles_error(ctx, GL_INVALID_VALUE);
		return GL_WAIT_FAILED;
	}
	so = lookup_ref(ctx, sync);
	if (!so) {
		gles_error(ctx, GL_INVALID_VALUE);
		return GL_WAIT_FAILED;
	}
	/*
	 * Section 5.2.1: ALREADY_SIGNALED whenever sync was signaled at the
	 * call, a zero timeout included; a zero timeout only tests it.
	 */
	if (sync_wait(so, 0)) {
		ret = GL_ALREADY_SIGNALED;
	} else if (timeout == 0) {
		ret = GL_TIMEOUT_EXPIRED;
	} else {
		/* the equivalent of glFlush before blocking: the fence itself was submitted already
		 */
		if (flags & GL_SYNC_FLUSH_COMMANDS_BIT)
			gles_context_flush(ctx);
		ret = sync_wait(so, wait_timeout(timeout)) ? GL_CONDITION_SATISFIED
							   : GL_TIMEOUT_EXPIRED;
	}
	gles_sync_unref(&so->base);
	return ret;
}

/*
 * Section 5.2.2: the context's later commands wait for sync -- on the GPU:
 * its next submission waits for the fence's point (gles_sync_wait_gpu),
 * and the context's CPU reads of its results wait for it too
 * (gles_submit_wait).  CPU writes into images the fenced work uses wait
 * for that work anyway (gles_submit_cpu_access).  The timeout must be
 * GL_TIMEOUT_IGNORED.
 */
void gles_WaitSync(GLsync sync, GLbitfield flags, GLuint64 timeout)
{
	struct gles_context *ctx = gles_current();
	struct sync_object *so;

	if (!ctx)
		return;
	if (flags != 0 || timeout != GL_TIMEOUT_IGNORED) {
		gles_error(ctx, GL_INVALID_VALUE);
		return;
	}
	so = lookup_ref(ctx, sync);
	if (!so) {
		gles_error(ctx, GL_INVALID_VALUE);
		return;
	}
	gles_sync_wait_gpu(ctx, &so->base);
	gles_sync_unref(&so->base);
}

void gles_GetSynciv(GLsync sync, GLenum pname, GLsizei bufSize, GLsizei *length, GLint *values)
{
	struct gles_context *ctx = gles_current_context;
	struct sync_object *so;
	GLint value;

	if (!ctx)
		return;
	/*
	 * KHR_robustness: in a lost context SYNC_STATUS is SIGNALED whatever
	 * the other parameters, so that no one polls for ever; other names
	 * are left alone
	 */
	if (ctx->lost) {
		gles_context_lost_command(ctx);
		if (pname == GL_SYNC_STATUS && values)
			*values = GL_SIGNALED;
		return;
	}
	so = lookup_ref(ctx, sync);
	if (!so) {
		gles_error(ctx, GL_INVALID_VALUE);
		return;
	}
	switch (pname) {
	case GL_OBJECT_TYPE:
	case GL_SYNC_STATUS:
	case GL_SYNC_CONDITION:
	case GL_SYNC_FLAGS:
		break;
	default:
		gles_error(ctx, GL_INVALID_ENUM);
		gles_sync_unref(&so->base);
		return;
	}
	/*
	 * 3.0.6 names no error for a negative bufSize; ES 3.1's section 4.1.3
	 * has INVALID_VALUE, which Mesa gives on ES 3.0 too.  Nothing is
	 * written on an error.
	 */
	if (bufSize < 0) {
		gles_error(ctx, GL_INVALID_VALUE);
		gles_sync_unref(&so->base);
		return;
	}
	switch (pname) {
	case GL_OBJECT_TYPE:
		value = GL_SYNC_FENCE;
		break;
	case GL_SYNC_STATUS:
		value = sync_wait(so, 0) ? GL_SIGNALED : GL_UNSIGNALED;
		break;
	case GL_SYNC_CONDITION:
		value = GL_SYNC_GPU_COMMANDS_COMPLETE;
		break;
	default: /* GL_SYNC_FLAGS: FenceSync takes none */
		value = 0;
		break;
	}
	/* section 6.1.8: at most bufSize values, and length is how many were written */
	if (bufSize >= 1 && values)
		values[0] = value;
	if (length)
		*length = bufSize >= 1 ? 1 : 0;
	gles_sync_unref(&so->base);
}
