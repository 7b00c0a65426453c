/*
 * query.c: query objects (query.h) -- glGenQueries, glDeleteQueries,
 * glIsQuery, glBeginQuery, glEndQuery, glGetQueryiv, glGetQueryObjectuiv,
 * with the errors of GLES 3.0.6 section 2.14.
 *
 * A query counts what the GPU work recorded between its begin and its end
 * produced: samples that passed the depth and stencil tests, primitives
 * written by transform feedback.  Only draws produce either (clears are no
 * fragments, section 4.2.3).  An ANY_SAMPLES_PASSED query takes an
 * occlusion counter of the render passes at its begin (pass.h), which the
 * draws while it is active name; its result is whether the counter moved.
 * TRANSFORM_FEEDBACK_PRIMITIVES_WRITTEN counts the whole primitives the
 * capturing draws recorded, which each draw knows when it is recorded.
 * The result is available once the context's work up to glEndQuery has
 * finished, which the first read of it waits for (gles_context_finish).
 */
#include <errno.h>
#include <stdlib.h>

#include "context.h"
#include "gl_functions.h"
#include "pass.h"
#include "query.h"
#include "state.h"

int gles_query_init(struct gles_query_state *q)
{
	gles_names_init(&q->names);
	q->active_samples = q->active_primitives = NULL;
	return 0;
}

static void free_query(void *object, void *data)
{
	struct gles_query *query = object;

	(void)data;
	if (query)
		free(query->label);
	free(query);
}

void gles_query_finish(struct gles_query_state *q)
{
	gles_names_foreach(&q->names, free_query, NULL);
	gles_names_finish(&q->names);
}

/* The active-query slot of target, NULL when target is not a query target. */
static struct gles_query **slot(struct gles_query_state *q, GLenum target)
{
	switch (target) {
	case GL_ANY_SAMPLES_PASSED:
	case GL_ANY_SAMPLES_PASSED_CONSERVATIVE:
		return &q->active_samples;
	case GL_TRANSFORM_FEEDBACK_PRIMITIVES_WRITTEN:
		return &q->active_primitives;
	default:
		return NULL;
	}
}

void gles_GenQueries(GLsizei n, GLuint *ids)
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
	if (gles_names_gen(&ctx->state->queries.names, (unsigned)n, ids) < 0)
		gles_error(ctx, GL_OUT_OF_MEMORY);
}

void gles_DeleteQueries(GLsizei n, const GLuint *ids)
{
	struct gles_context *ctx = gles_current();
	struct gles_query_state *q;

	if (!ctx)
		return;
	if (n < 0) {
		gles_error(ctx, GL_INVALID_VALUE);
		return;
	}
	if (!ids)
		return;
	q = &ctx->state->queries;
	for (GLsizei i = 0; i < n; i++) {
		struct gles_query *query;

		/* Section 2.14: unused names and 0 are silently ignored */
		if (!ids[i] || !gles_names_used(&q->names, ids[i]))
			continue;
		query = gles_names_remove(&q->names, ids[i]);
		/*
		 * An active query's name becomes unused at once; the query
		 * ends (section 2.14: "the underlying object is not deleted
		 * until it is no longer active"; nothing can read it again).
		 */
		if (query && q->active_samples == query)
			q->active_samples = NULL;
		if (query && q->active_primitives == query)
			q->active_primitives = NULL;
		free_query(query, NULL);
	}
}

GLboolean gles_IsQuery(GLuint id)
{
	struct gles_context *ctx = gles_current();

	if (!ctx)
		return GL_FALSE;
	/* A name from glGenQueries is a query object only once glBeginQuery made it */
	return gles_names_lookup(&ctx->state->queries.names, id) ? GL_TRUE : GL_FALSE;
}

void gles_BeginQuery(GLenum target, GLuint id)
{
	struct gles_context *ctx = gles_current();
	struct gles_query_state *q;
	struct gles_query **active, *query;

	if (!ctx)
		return;
	q = &ctx->state->queries;
	active = slot(q, target);
	if (!active) {
		gles_error(ctx, GL_INVALID_ENUM);
		return;
	}
	/*
	 * Section 2.14: a query of the target (or of the other samples-passed
	 * target) already active, id 0 or not a name from glGenQueries, a
	 * query of another target, or one active elsewhere.
	 */
	if (*active || !id || !gles_names_used(&q->names, id)) {
		gles_error(ctx, GL_INVALID_OPERATION);
		return;
	}
	query = gles_names_lookup(&q->names, id);
	if (query && (query->target != target || query->active)) {
		gles_error(ctx, GL_INVALID_OPERATION);
		return;
	}
	if (!query) {
		query = calloc(1, sizeof(*query));
		if (!query || gles_names_set(&q->names, id, query) < 0) {
			free(query);
			gles_error(ctx, GL_OUT_OF_MEMORY);
			return;
		}
		query->name = id;
		query->target = target;
	}
	if (target != GL_TRANSFORM_FEEDBACK_PRIMITIVES_WRITTEN &&
	    gles_pass_counter(ctx, &query->counter) < 0) {
		gles_error(ctx, GL_OUT_OF_MEMORY);
		return;
	}
	query->active = true;
	query->available = false;
	query->result = 0;
	*active = query;
}

void gles_EndQuery(GLenum target)
{
	struct gles_context *ctx = gles_current();
	struct gles_query **active;

	if (!ctx)
		return;
	active = slot(&ctx->state->queries, target);
	if (!active) {
		gles_error(ctx, GL_INVALID_ENUM);
		return;
	}
	if (!*active || (*active)->target != target) {
		gles_error(ctx, GL_INVALID_OPERATION);
		return;
	}
	/*
	 * Samples: the result is read when asked for, once the work has run.
	 * Primitives: the draws counted what they recorded (draw.c).
	 */
	(*active)->active = false;
	if ((*active)->target != GL_TRANSFORM_FEEDBACK_PRIMITIVES_WRITTEN)
		(*active)->result = 0;
	*active = NULL;
}

void gles_GetQueryiv(GLenum target, GLenum pname, GLint *params)
{
	struct gles_context *ctx = gles_current();
	struct gles_query **active;

	if (!ctx)
		return;
	active = slot(&ctx->state->queries, target);
	if (!active || pname != GL_CURRENT_QUERY) {
		gles_error(ctx, GL_INVALID_ENUM);
		return;
	}
	if (params)
		*params = *active && (*active)->target == target ? (GLint)(*active)->name : 0;
}

void gles_GetQueryObjectuiv(GLuint id, GLenum pname, GLuint *params)
{
	struct gles_context *ctx = gles_current_context;
	struct gles_query *query;

	if (!ctx)
		return;
	/* KHR_robustness: in a lost context a result is always available */
	if (ctx->lost) {
		gles_context_lost_command(ctx);
		if (pname == GL_QUERY_RESULT_AVAILABLE && params)
			*params = GL_TRUE;
		return;
	}
	query = gles_names_lookup(&ctx->state->queries.names, id);
	if (pname != GL_QUERY_RESULT && pname != GL_QUERY_RESULT_AVAILABLE) {
		gles_error(ctx, GL_INVALID_ENUM);
		return;
	}
	/* Section 6.1.7: not a query object, or an active one */
	if (!query || query->active) {
		gles_error(ctx, GL_INVALID_OPERATION);
		return;
	}
	if (!query->available) {
		/*
		 * The work the query covers is the context's up to its end:
		 * once that has finished, the result stays available.
		 */
		gles_context_finish(ctx);
		query->available = true;
		if (query->target != GL_TRANSFORM_FEEDBACK_PRIMITIVES_WRITTEN)
			query->result = gles_pass_counter_value(ctx, query->counter) != 0;
	}
	if (!params)
		return;
	if (pname == GL_QUERY_RESULT_AVAILABLE)
		*params = query->available ? GL_TRUE : GL_FALSE;
	else
		*params = query->result;
}
