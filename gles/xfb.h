/*
 * xfb.h: transform feedback objects (GLES 3.0.6 section 2.15.1): the
 * context's namespace of them, which contexts do not share, the default
 * object (name 0) and the bound one.
 */
#ifndef GLES_XFB_H
#define GLES_XFB_H

#include <stdbool.h>

#include <GLES3/gl3.h>

#include "names.h"
#include "objects.h"

struct gles_context;
struct gles_get_value;
struct gles_program;

struct gles_xfb_object {
	GLuint name;
	bool active, paused;   /* table 6.24 */
	GLenum primitive_mode; /* glBeginTransformFeedback's, while active */
	/* While active: the program capturing, and the vertices its draws recorded in each buffer
	 */
	const struct gles_program *program;
	uint64_t vertices;
	/* the indexed TRANSFORM_FEEDBACK_BUFFER binding points are the object's (table 6.24) */
	struct gles_buffer_range ranges[GLES_MAX_TRANSFORM_FEEDBACK_SEPARATE_ATTRIBS];
	char *label; /* KHR_debug's (debug.c), NULL for none */
};

struct gles_xfb_state {
	struct gles_names names; /* a name from glGen* is an object once bound */
	struct gles_xfb_object default_object;
	struct gles_xfb_object *bound;
};

/*
 * 0 or -ENOMEM; finish frees every object of the context, after
 * gles_xfb_unbind_buffers let go of the buffers bound to them (which
 * needs the context's device: gles_objects_finish).
 */
int gles_xfb_init(struct gles_xfb_state *x);
void gles_xfb_unbind_buffers(struct gles_xfb_state *x);
void gles_xfb_finish(struct gles_xfb_state *x);

/*
 * The bound object is active and not paused (section 2.15.2): draws
 * capture, and the program and bindings it uses cannot change.
 */
bool gles_xfb_running(const struct gles_context *ctx);

/* get.c's queries of the bound object: TRANSFORM_FEEDBACK_BINDING, _ACTIVE, _PAUSED. */
bool gles_xfb_get(struct gles_context *ctx, GLenum pname, int index, struct gles_get_value *out);

#endif
