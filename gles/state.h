/*
 * state.h: the per-context fixed-function state vector -- everything of
 * GLES 3.0.6 tables 6.x that is neither an object binding, nor a program,
 * nor an object's own state: enables, blending, depth and stencil, the
 * write masks, clear values, viewport and scissor, polygon offset, line
 * width, sample coverage, culling, hints, pixel storage, the active
 * texture unit and the current values of the generic vertex attributes;
 * and, hung off it, the context's query and transform feedback objects
 * (query.h, xfb.h), which contexts do not share.
 *
 * Other modules read it through ctx->state (clears read the clear values
 * and masks, glReadPixels the pack parameters, texture binding the active
 * unit); only state.c writes it.
 */
#ifndef GLES_STATE_H
#define GLES_STATE_H

#include <stdbool.h>

#include <GLES3/gl3.h>

#include "limits.h"
#include "query.h"
#include "xfb.h"

struct gles_context;
struct gles_drawable;
struct gles_get_value;

struct gles_stencil_face {
	GLenum func;	   /* GL_ALWAYS */
	GLint ref;	   /* 0, as given (section 4.1.4 clamps it when the test runs) */
	GLuint value_mask; /* all ones */
	GLuint write_mask; /* all ones */
	GLenum fail;	   /* GL_KEEP */
	GLenum depth_fail; /* GL_KEEP */
	GLenum depth_pass; /* GL_KEEP */
};

struct gles_pixel_store {
	GLint alignment;    /* 4 */
	GLint row_length;   /* 0 */
	GLint image_height; /* 0 (unpack only) */
	GLint skip_rows, skip_pixels;
	GLint skip_images; /* unpack only */
};

/* A generic attribute's current value (section 2.8): its components and how they were given. */
enum gles_attrib_type {
	GLES_ATTRIB_FLOAT,
	GLES_ATTRIB_INT,
	GLES_ATTRIB_UINT,
};

struct gles_current_attrib {
	enum gles_attrib_type type; /* FLOAT (0, 0, 0, 1) initially */
	union {
		GLfloat f[4];
		GLint i[4];
		GLuint u[4];
	};
};

struct gles_state {
	/* glEnable capabilities (all false but dither) */
	bool blend, cull_face, depth_test, dither, polygon_offset_fill;
	bool primitive_restart_fixed_index, rasterizer_discard;
	/*
	 * INTEL_blackhole_render's capability: draws, clears and blits are
	 * checked as ever, then do nothing -- no fragments, no transform
	 * feedback records, nothing a query counts (as Mesa's no-op pipe).
	 */
	bool blackhole_render;
	bool sample_alpha_to_coverage, sample_coverage, scissor_test, stencil_test;
	/* APPLE_clip_distance's CLIP_DISTANCEi_APPLE: plane i clips where gl_ClipDistance[i] < 0 */
	bool clip_distance[GLES_MAX_CLIP_DISTANCES];

	GLfloat blend_color[4]; /* as given (ES 3.0 stores it unclamped) */
	GLenum blend_equation_rgb, blend_equation_alpha;
	GLenum blend_src_rgb, blend_dst_rgb, blend_src_alpha, blend_dst_alpha;

	bool color_mask[4];
	GLenum depth_func;
	bool depth_mask;
	GLfloat depth_range[2];		     /* near, far: clamped to [0, 1] */
	struct gles_stencil_face stencil[2]; /* [0] front, [1] back */

	/* The clear values: the colour as given; a buffer's clear clamps it to the format */
	GLfloat clear_color[4];
	GLfloat clear_depth; /* clamped to [0, 1] */
	GLint clear_stencil; /* as given: a clear masks it to the stencil bits */

	GLint viewport[4]; /* x, y, width, height (width and height clamped to the limits) */
	GLint scissor[4];
	/* Whether the viewport and scissor were set to a draw surface's size (section 2.12.1) */
	bool sized_to_surface;

	GLfloat polygon_offset_factor, polygon_offset_units;
	GLfloat polygon_offset_clamp; /* EXT_polygon_offset_clamp: 0 clamps nothing */
	GLfloat line_width;	      /* as given; rasterization clamps it */
	GLfloat sample_coverage_value;
	bool sample_coverage_invert;
	GLenum cull_face_mode, front_face;
	GLenum generate_mipmap_hint, fragment_shader_derivative_hint;

	struct gles_pixel_store pack, unpack;

	unsigned active_texture; /* the unit's index: GL_TEXTURE0 + active_texture */

	struct gles_current_attrib current_attrib[GLES_MAX_VERTEX_ATTRIBS];

	/* The context's own objects of this module: queries, transform feedback objects */
	struct gles_query_state queries;
	struct gles_xfb_state xfb;
};

/* Creates ctx->state with the spec's initial values: 0 or -ENOMEM. */
int gles_state_init(struct gles_context *ctx);
void gles_state_finish(struct gles_context *ctx);

/*
 * eglMakeCurrent's part: the first time the context is bound to a draw
 * surface, the viewport and scissor take its size (GLES 3.0.6 section
 * 2.12.1, 4.1.2).  NULL (no surface) changes nothing.
 */
void gles_state_bind_drawable(struct gles_context *ctx, const struct gles_drawable *draw);

/*
 * glGetVertexAttrib*(index, GL_CURRENT_VERTEX_ATTRIB) (vertex_array.c):
 * the current value of attribute index (< GLES_MAX_VERTEX_ATTRIBS).
 */
const struct gles_current_attrib *gles_state_current_attrib(const struct gles_context *ctx,
							    unsigned index);

/* The get.c queries of this state (get.h's provider contract). */
bool gles_state_get(struct gles_context *ctx, GLenum pname, int index, struct gles_get_value *out);
/* glIsEnabled's answer for cap: false with *value untouched when cap is not a capability. */
bool gles_state_is_enabled(const struct gles_context *ctx, GLenum cap, bool *value);

#endif
