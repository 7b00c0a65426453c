/*
 * query.h: asynchronous query objects (GLES 3.0.6 section 2.14 and 4.1.6):
 * the context's namespace of them, which contexts do not share, and the
 * active query of each target.
 */
#ifndef GLES_QUERY_H
#define GLES_QUERY_H

#include <stdbool.h>

#include <GLES3/gl3.h>

#include "names.h"

struct gles_context;

struct gles_query {
	GLuint name;
	GLenum target; /* fixed by the first glBeginQuery, which makes the object */
	bool active;
	/*
	 * The result of the last completed begin/end pair: the samples that
	 * passed (boolean) or the primitives written by the GPU work between
	 * them.  available: the context's work up to glEndQuery has finished.
	 */
	GLuint result;
	bool available;
	/* ANY_SAMPLES_PASSED: the occlusion counter of its last begin/end pair (pass.h) */
	unsigned counter;
	char *label; /* KHR_debug's (debug.c), NULL for none */
};

struct gles_query_state {
	struct gles_names names;
	/*
	 * The active queries.  ANY_SAMPLES_PASSED and its conservative form
	 * are one slot: both count the same samples, and one may be active
	 * at a time (section 2.14, BeginQuery's errors).
	 */
	struct gles_query *active_samples, *active_primitives;
};

/* 0 or -ENOMEM; finish frees every query of the context. */
int gles_query_init(struct gles_query_state *q);
void gles_query_finish(struct gles_query_state *q);

#endif
