/*
 * context.c: the GLES context object (context.h), share groups, and the
 * GL entry points that belong to the context as a whole: errors, strings,
 * flush and finish (the queries are get.c's).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "context.h"
#include "draw.h"
#include "debug.h"
#include "extensions.h"
#include "gl_functions.h"
#include "objects.h"
#include "program.h"
#include "sampling.h"
#include "state.h"
#include "submit.h"
#include "sync.h"
#include "variants.h"

#ifndef GLES_AGX_VERSION
#error "meson defines GLES_AGX_VERSION, the project's version"
#endif

__thread struct gles_context *gles_current_context;

/* ---- share groups ---------------------------------------------------------------------- */

struct gles_share_group *gles_share_group_create(void)
{
	struct gles_share_group *group = calloc(1, sizeof(*group));

	if (!group)
		return NULL;
	group->refs = 1;
	pthread_mutex_init(&group->lock, NULL);
	if (gles_shared_objects_init(group) < 0)
		return gles_share_group_unref(group), NULL;
	if (gles_programs_init(group) < 0)
		return gles_share_group_unref(group), NULL;
	return group;
}

struct gles_share_group *gles_share_group_ref(struct gles_share_group *group)
{
	__atomic_add_fetch(&group->refs, 1, __ATOMIC_RELAXED);
	return group;
}

void gles_share_group_unref(struct gles_share_group *group)
{
	if (!group || __atomic_sub_fetch(&group->refs, 1, __ATOMIC_ACQ_REL) != 0)
		return;
	gles_shared_objects_finish(group);
	gles_programs_finish(group);
	pthread_mutex_destroy(&group->lock);
	free(group);
}

/* ---- contexts -------------------------------------------------------------------------- */

int gles_context_create(const struct gles_context_params *p, struct gles_context **out)
{
	struct gles_context *ctx;

	*out = NULL;
	/* ES 3.0 only: EGL answers ES 2.0 requests with it too (egl_context.c) */
	if (p->major != 3 || p->minor != 0)
		return -EINVAL;
	ctx = calloc(1, sizeof(*ctx));
	if (!ctx)
		return -ENOMEM;
	ctx->dirty = GLES_DIRTY_ALL;
	ctx->share = p->share ? gles_share_group_ref(p->share) : gles_share_group_create();
	if (!ctx->share) {
		free(ctx);
		return -ENOMEM;
	}
	ctx->major = p->major;
	ctx->minor = p->minor;
	ctx->robust_access = p->robust_access;
	ctx->lose_context_on_reset = p->lose_context_on_reset;
	ctx->debug = p->debug;
	ctx->max_compiler_threads = 0xffffffffu; /* the extension's "as many as it likes" */
	ctx->dev = p->dev;
	ctx->error = GL_NO_ERROR;
	snprintf(ctx->renderer, sizeof(ctx->renderer), "%s", p->renderer ? p->renderer : "");
	/* GLES 3.0 section 6.1.6: "OpenGL ES N.M", a space, then anything the vendor likes */
	snprintf(ctx->version, sizeof(ctx->version), "OpenGL ES %u.%u agx-%s", ctx->major,
		 ctx->minor, GLES_AGX_VERSION);
	/* Each module's state; destroy finishes whatever was made (a NULL part is a no-op) */
	if (gles_debug_init(ctx) < 0 || gles_state_init(ctx) < 0 || gles_submit_init(ctx) < 0 ||
	    gles_objects_init(ctx) < 0 || gles_program_context_init(ctx) < 0) {
		gles_context_destroy(ctx);
		return -ENOMEM;
	}
	*out = ctx;
	return 0;
}

void gles_context_destroy(struct gles_context *ctx)
{
	if (!ctx)
		return;
	/* what draws made (code, stand-ins) goes while the VM it lives in is there */
	gles_submit_wait(ctx);
	gles_variants_context_finish(ctx);
	gles_clear_context_finish(ctx);
	gles_mipmap_context_finish(ctx);
	gles_sampling_context_finish(ctx);
	gles_program_context_finish(ctx);
	gles_objects_finish(ctx);
	gles_sync_context_finish(ctx);
	gles_submit_finish(ctx);
	gles_state_finish(ctx);
	gles_debug_finish(ctx);
	gles_share_group_unref(ctx->share);
	free(ctx->draw_record);
	free(ctx);
}

void gles_context_make_current(struct gles_context *ctx, const struct gles_drawable *draw,
			       const struct gles_drawable *read)
{
	/* the context that stops being current lets go of its surfaces' BOs */
	if (gles_current_context &&
	    (gles_current_context != ctx || gles_current_context->draw != draw ||
	     gles_current_context->read != read))
		gles_submit_release(gles_current_context);
	if (ctx) {
		ctx->draw = draw;
		ctx->read = read;
		gles_state_bind_drawable(ctx, draw);
	}
	gles_current_context = ctx;
}

/*
 * The recorded work goes to the GPU (submit.h); finish waits for the last
 * submission's fence.  A failure (a lost device) leaves nothing to wait
 * for: the work is gone, and glFinish still returns.
 */
void gles_context_flush(struct gles_context *ctx)
{
	gles_submit_flush(ctx);
}

void gles_context_finish(struct gles_context *ctx)
{
	gles_submit_wait(ctx);
}

/* ---- GL entry points ------------------------------------------------------------------- */

/*
 * GLES 3.0 section 2.5: the one recorded error, and GL_NO_ERROR from then
 * on until the next error.  With no current context glvnd never calls us.
 */
GLenum gles_GetError(void)
{
	/* KHR_robustness: glGetError works in a lost context */
	struct gles_context *ctx = gles_current_context;
	GLenum err;

	if (!ctx)
		return GL_NO_ERROR;
	err = ctx->error;
	ctx->error = GL_NO_ERROR;
	return err;
}

/*
 * EXT_robustness: whether the context was lost to a GPU reset, and
 * whose fault it was, as the scheduler judged (a fault or hang of this
 * context's work: guilty; another's that took this one's work with it:
 * innocent; the device gone: unknown).  A context made without
 * EGL_LOSE_CONTEXT_ON_RESET is never told (NO_ERROR).  The verdict stays:
 * the context's queue is not made again, so the reset does not
 * "complete"; the application makes a new context.
 */
GLenum gles_GetGraphicsResetStatusEXT(void)
{
	/* it works in a lost context too (KHR_robustness) */
	struct gles_context *ctx = gles_current_context;
	enum agx_queue_status status;

	if (!ctx || !ctx->lose_context_on_reset)
		return GL_NO_ERROR;
	gles_submit_reset_status(ctx, &status);
	if (status == AGX_QUEUE_OK)
		return GL_NO_ERROR;
	/*
	 * KHR_robustness: the context is lost from now on (the reset is
	 * known to it from here: the scheduler's verdict is asked for, not
	 * pushed), for good -- the same status every time after.
	 */
	ctx->lost = true;
	switch (status) {
	case AGX_QUEUE_GUILTY_RESET:
		return GL_GUILTY_CONTEXT_RESET_EXT;
	case AGX_QUEUE_INNOCENT_RESET:
		return GL_INNOCENT_CONTEXT_RESET_EXT;
	default:
		return GL_UNKNOWN_CONTEXT_RESET_EXT;
	}
}

/* KHR_robustness's name of it: the same tokens (GL_GUILTY_CONTEXT_RESET_KHR ...). */
GLenum gles_GetGraphicsResetStatusKHR(void)
{
	return gles_GetGraphicsResetStatusEXT();
}

void gles_context_lost_command(struct gles_context *ctx)
{
	gles_error(ctx, GL_CONTEXT_LOST_KHR);
}

const GLubyte *gles_GetString(GLenum name)
{
	struct gles_context *ctx = gles_current();

	if (!ctx)
		return NULL;
	switch (name) {
	case GL_VENDOR:
		return (const GLubyte *)"AGX driver stack";
	case GL_RENDERER:
		return (const GLubyte *)ctx->renderer;
	case GL_VERSION:
		return (const GLubyte *)ctx->version;
	case GL_SHADING_LANGUAGE_VERSION:
		/* GLES 3.0 section 6.1.6: "OpenGL ES GLSL ES N.M" */
		return (const GLubyte *)"OpenGL ES GLSL ES 3.00";
	case GL_EXTENSIONS:
		return (const GLubyte *)gles_extensions_string();
	default:
		gles_error(ctx, GL_INVALID_ENUM);
		return NULL;
	}
}

const GLubyte *gles_GetStringi(GLenum name, GLuint index)
{
	struct gles_context *ctx = gles_current();

	if (!ctx)
		return NULL;
	if (name != GL_EXTENSIONS) {
		gles_error(ctx, GL_INVALID_ENUM);
		return NULL;
	}
	if (index >= gles_num_extensions()) {
		gles_error(ctx, GL_INVALID_VALUE);
		return NULL;
	}
	return (const GLubyte *)gles_extension(index);
}

void gles_Flush(void)
{
	struct gles_context *ctx = gles_current();

	if (ctx)
		gles_context_flush(ctx);
}

void gles_Finish(void)
{
	struct gles_context *ctx = gles_current();

	if (ctx)
		gles_context_finish(ctx);
}
