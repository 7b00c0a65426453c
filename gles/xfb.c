/*
 * xfb.c: transform feedback objects (xfb.h) -- glGenTransformFeedbacks,
 * glDeleteTransformFeedbacks, glIsTransformFeedback,
 * glBindTransformFeedback (GLES 3.0.6 section 2.15.1), glBegin-, End-,
 * Pause- and ResumeTransformFeedback (section 2.15.2) with their errors,
 * and the queries of the bound object's state.
 *
 * The captured varyings are the current program's (program.h), the
 * buffers those of the indexed binding points (objects.h).  The draws
 * capture (draw.c): the vertex shader writes the records itself.
 */
#include <stdlib.h>

#include "context.h"
#include "get.h"
#include "gl_functions.h"
#include "objects.h"
#include "program.h"
#include "state.h"
#include "xfb.h"

int gles_xfb_init(struct gles_xfb_state *x)
{
	gles_names_init(&x->names);
	x->default_object = (struct gles_xfb_object){ .name = 0 };
	x->bound = &x->default_object;
	return 0;
}

static void unbind_buffers(void *object, void *data)
{
	struct gles_xfb_object *obj = object;

	(void)data;
	for (unsigned k = 0; k < GLES_MAX_TRANSFORM_FEEDBACK_SEPARATE_ATTRIBS; k++)
		gles_buffer_bind_slot(&obj->ranges[k].buffer, NULL);
}

void gles_xfb_unbind_buffers(struct gles_xfb_state *x)
{
	gles_names_foreach(&x->names, unbind_buffers, NULL);
	unbind_buffers(&x->default_object, NULL);
}

static void free_object(void *object, void *data)
{
	struct gles_xfb_object *obj = object;

	unbind_buffers(obj, data);
	free(obj->label);
	free(obj);
}

void gles_xfb_finish(struct gles_xfb_state *x)
{
	gles_names_foreach(&x->names, free_object, NULL);
	gles_names_finish(&x->names);
	x->bound = NULL;
}

bool gles_xfb_running(const struct gles_context *ctx)
{
	const struct gles_xfb_object *x = ctx->state ? ctx->state->xfb.bound : NULL;

	return x && x->active && !x->paused;
}

void gles_GenTransformFeedbacks(GLsizei n, GLuint *ids)
{
	struct gles_context *ctx = gles_current();

	if (!ctx)
		return;
	if (n < 0) {
		gles_error(ctx, GL_INVALID_VALUE);
		return;
	}
	if (n == 0 || !ids)
		return;
	if (gles_names_gen(&ctx->state->xfb.names, (unsigned)n, ids) < 0)
		gles_error(ctx, GL_OUT_OF_MEMORY);
}

void gles_DeleteTransformFeedbacks(GLsizei n, const GLuint *ids)
{
	struct gles_context *ctx = gles_current();
	struct gles_xfb_state *x;

	if (!ctx)
		return;
	if (n < 0) {
		gles_error(ctx, GL_INVALID_VALUE);
		return;
	}
	if (!ids)
		return;
	x = &ctx->state->xfb;
	/* Section 2.15.1: an active object among them deletes none of them */
	for (GLsizei i = 0; i < n; i++) {
		const struct gles_xfb_object *obj = gles_names_lookup(&x->names, ids[i]);

		if (obj && obj->active) {
			gles_error(ctx, GL_INVALID_OPERATION);
			return;
		}
	}
	for (GLsizei i = 0; i < n; i++) {
		struct gles_xfb_object *obj;

		/* 0 and unused names are silently ignored */
		if (!ids[i] || !gles_names_used(&x->names, ids[i]))
			continue;
		obj = gles_names_remove(&x->names, ids[i]);
		/* Deleting the bound object binds the default one */
		if (obj && x->bound == obj)
			x->bound = &x->default_object;
		if (obj) {
			gles_objects_lock(ctx);
			free_object(obj, NULL);
			gles_objects_unlock(ctx);
		}
	}
}

GLboolean gles_IsTransformFeedback(GLuint id)
{
	struct gles_context *ctx = gles_current();

	if (!ctx)
		return GL_FALSE;
	return gles_names_lookup(&ctx->state->xfb.names, id) ? GL_TRUE : GL_FALSE;
}

void gles_BindTransformFeedback(GLenum target, GLuint id)
{
	struct gles_context *ctx = gles_current();
	struct gles_xfb_state *x;
	struct gles_xfb_object *obj;

	if (!ctx)
		return;
	if (target != GL_TRANSFORM_FEEDBACK) {
		gles_error(ctx, GL_INVALID_ENUM);
		return;
	}
	x = &ctx->state->xfb;
	/* Section 2.15.1: the bound object is active and not paused, or id is no name of ours */
	if (gles_xfb_running(ctx) || (id && !gles_names_used(&x->names, id))) {
		gles_error(ctx, GL_INVALID_OPERATION);
		return;
	}
	if (!id) {
		x->bound = &x->default_object;
		return;
	}
	obj = gles_names_lookup(&x->names, id);
	if (!obj) {
		/* The first bind of a name makes its object */
		obj = calloc(1, sizeof(*obj));
		if (!obj || gles_names_set(&x->names, id, obj) < 0) {
			free(obj);
			gles_error(ctx, GL_OUT_OF_MEMORY);
			return;
		}
		obj->name = id;
	}
	x->bound = obj;
}

void gles_BeginTransformFeedback(GLenum primitiveMode)
{
	struct gles_context *ctx = gles_current();
	struct gles_xfb_object *obj;
	struct gles_linked *linked;
	unsigned needed = 0;
	bool bound = true;

	if (!ctx)
		return;
	if (primitiveMode != GL_POINTS && primitiveMode != GL_LINES &&
	    primitiveMode != GL_TRIANGLES) {
		gles_error(ctx, GL_INVALID_ENUM);
		return;
	}
	obj = ctx->state->xfb.bound;
	gles_programs_lock(ctx);
	linked = gles_program_current_linked(ctx);
	/* Interleaved varyings go to binding point 0, separate ones to one point each */
	if (linked && linked->num_xfb)
		needed = linked->xfb_mode == GL_SEPARATE_ATTRIBS ? linked->num_xfb : 1;
	gles_programs_unlock(ctx);
	for (unsigned k = 0; k < needed && k < GLES_MAX_TRANSFORM_FEEDBACK_SEPARATE_ATTRIBS; k++)
		bound = bound && obj->ranges[k].buffer;
	/*
	 * Section 2.15.2: already active, no program (or one capturing
	 * nothing), or a binding point the capture needs without a buffer.
	 */
	if (obj->active || !needed || !bound) {
		gles_error(ctx, GL_INVALID_OPERATION);
		return;
	}
	obj->active = true;
	obj->paused = false;
	obj->primitive_mode = primitiveMode;
	/* recording starts at each binding point's offset (section 2.15.2) */
	obj->program = ctx->program->program;
	obj->vertices = 0;
}

void gles_EndTransformFeedback(void)
{
	struct gles_context *ctx = gles_current();
	struct gles_xfb_object *obj;

	if (!ctx)
		return;
	obj = ctx->state->xfb.bound;
	if (!obj->active) {
		gles_error(ctx, GL_INVALID_OPERATION);
		return;
	}
	obj->active = false;
	obj->paused = false;
	obj->program = NULL;
}

void gles_PauseTransformFeedback(void)
{
	struct gles_context *ctx = gles_current();
	struct gles_xfb_object *obj;

	if (!ctx)
		return;
	obj = ctx->state->xfb.bound;
	if (!obj->active || obj->paused) {
		gles_error(ctx, GL_INVALID_OPERATION);
		return;
	}
	obj->paused = true;
}

void gles_ResumeTransformFeedback(void)
{
	struct gles_context *ctx = gles_current();
	struct gles_xfb_object *obj;

	if (!ctx)
		return;
	obj = ctx->state->xfb.bound;
	/* section 2.15.2: nor when another program is current than the one capturing */
	if (!obj->active || !obj->paused || ctx->program->program != obj->program) {
		gles_error(ctx, GL_INVALID_OPERATION);
		return;
	}
	obj->paused = false;
}

bool gles_xfb_get(struct gles_context *ctx, GLenum pname, int index, struct gles_get_value *out)
{
	const struct gles_xfb_object *obj = ctx->state->xfb.bound;

	if (index >= 0)
		return false;
	switch (pname) {
	case GL_TRANSFORM_FEEDBACK_BINDING:
		gles_get_set_int(out, (GLint)obj->name);
		return true;
	case GL_TRANSFORM_FEEDBACK_ACTIVE:
		gles_get_set_bool(out, obj->active);
		return true;
	case GL_TRANSFORM_FEEDBACK_PAUSED:
		gles_get_set_bool(out, obj->paused);
		return true;
	default:
		return false;
	}
}
