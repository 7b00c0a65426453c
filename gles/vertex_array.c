/*
 * vertex_array.c: vertex array objects and the vertex attribute arrays in
 * them (GLES 3.0.6 sections 2.8, 2.10): each context's names and default
 * vertex array, glVertexAttrib(I)Pointer, the enables and divisors, and
 * glGetVertexAttrib*, whose GL_CURRENT_VERTEX_ATTRIB comes from the state
 * vector (state.h).
 */
#include <stdlib.h>

#include "context.h"
#include "extensions.h"
#include "gl_functions.h"
#include "objects.h"
#include "state.h"

_Static_assert(GLES_MAX_VERTEX_ATTRIBS <= 32, "a vertex array's enabled arrays are a 32-bit mask");

void gles_vertex_array_init(struct gles_vertex_array *vao, GLuint name)
{
	*vao = (struct gles_vertex_array){ .name = name };
	for (unsigned i = 0; i < GLES_MAX_VERTEX_ATTRIBS; i++)
		vao->attribs[i] = (struct gles_vertex_attrib_array){ .size = 4, .type = GL_FLOAT };
}

void gles_vertex_array_finish(struct gles_vertex_array *vao)
{
	for (unsigned i = 0; i < GLES_MAX_VERTEX_ATTRIBS; i++)
		gles_buffer_bind_slot(&vao->attribs[i].buffer, NULL);
	gles_buffer_bind_slot(&vao->element_buffer, NULL);
	free(vao->label);
	vao->label = NULL;
}

void gles_GenVertexArrays(GLsizei n, GLuint *arrays)
{
	struct gles_context *ctx = gles_current();

	if (!ctx)
		return;
	if (n < 0) {
		gles_error(ctx, GL_INVALID_VALUE);
		return;
	}
	if (gles_names_gen(&ctx->objects->vertex_arrays, (unsigned)n, arrays) < 0)
		gles_error(ctx, GL_OUT_OF_MEMORY);
}

void gles_BindVertexArray(GLuint array)
{
	struct gles_context *ctx = gles_current();
	struct gles_names *names;
	struct gles_vertex_array *vao;

	if (!ctx)
		return;
	/* the arrays' formats are the vertex key's */
	ctx->dirty |= GLES_DIRTY_VERTEX_KEY;
	if (!array) {
		ctx->objects->vao = &ctx->objects->default_vao;
		return;
	}
	names = &ctx->objects->vertex_arrays;
	/* section 2.10: only names from glGenVertexArrays, not deleted since */
	if (!gles_names_used(names, array)) {
		gles_error(ctx, GL_INVALID_OPERATION);
		return;
	}
	vao = gles_names_lookup(names, array);
	if (!vao) {
		vao = malloc(sizeof(*vao));
		if (!vao || gles_names_set(names, array, vao) < 0) {
			free(vao);
			gles_error(ctx, GL_OUT_OF_MEMORY);
			return;
		}
		gles_vertex_array_init(vao, array);
	}
	ctx->objects->vao = vao;
}

GLboolean gles_IsVertexArray(GLuint array)
{
	struct gles_context *ctx = gles_current();

	if (!ctx)
		return GL_FALSE;
	/* a name from glGenVertexArrays is a vertex array once bound */
	return gles_names_lookup(&ctx->objects->vertex_arrays, array) ? GL_TRUE : GL_FALSE;
}

void gles_DeleteVertexArrays(GLsizei n, const GLuint *arrays)
{
	struct gles_context *ctx = gles_current();

	if (!ctx)
		return;
	if (n < 0) {
		gles_error(ctx, GL_INVALID_VALUE);
		return;
	}
	gles_objects_lock(ctx);
	for (GLsizei i = 0; i < n; i++) {
		struct gles_vertex_array *vao;

		if (!arrays[i])
			continue;
		vao = gles_names_remove(&ctx->objects->vertex_arrays, arrays[i]);
		if (!vao)
			continue;
		/* section 2.10: deleting the bound vertex array binds the default one */
		if (ctx->objects->vao == vao)
			ctx->objects->vao = &ctx->objects->default_vao;
		ctx->dirty |= GLES_DIRTY_VERTEX_KEY;
		gles_vertex_array_finish(vao);
		free(vao);
	}
	gles_objects_unlock(ctx);
}

/* ---- attribute arrays ---------------------------------------------------------------------- */

static bool type_valid(GLenum type, bool integer)
{
	switch (type) {
	case GL_BYTE:
	case GL_UNSIGNED_BYTE:
	case GL_SHORT:
	case GL_UNSIGNED_SHORT:
	case GL_INT:
	case GL_UNSIGNED_INT:
		return true;
	case GL_FIXED:
	case GL_FLOAT:
	case GL_HALF_FLOAT:
	case GL_HALF_FLOAT_OES: /* OES_vertex_half_float: its own value */
	case GL_INT_2_10_10_10_REV:
	case GL_UNSIGNED_INT_2_10_10_10_REV:
		return !integer;
	default:
		return false;
	}
}

static void attrib_pointer(struct gles_context *ctx, GLuint index, GLint size, GLenum type,
			   bool normalized, GLsizei stride, const void *pointer, bool integer)
{
	struct gles_vertex_attrib_array *a;
	struct gles_objects *o = ctx->objects;

	if (index >= GLES_MAX_VERTEX_ATTRIBS || size < 1 || size > 4 || stride < 0) {
		gles_error(ctx, GL_INVALID_VALUE);
		return;
	}
	if (!type_valid(type, integer)) {
		gles_error(ctx, GL_INVALID_ENUM);
		return;
	}
	/*
	 * Section 2.8: packed 10/10/10/2 types take 4 components; a vertex
	 * array object other than the default one takes no client pointers.
	 */
	if (((type == GL_INT_2_10_10_10_REV || type == GL_UNSIGNED_INT_2_10_10_10_REV) &&
	     size != 4) ||
	    (o->vao != &o->default_vao && !o->array_buffer && pointer)) {
		gles_error(ctx, GL_INVALID_OPERATION);
		return;
	}
	a = &o->vao->attribs[index];
	gles_objects_lock(ctx);
	gles_buffer_bind_slot(&a->buffer, o->array_buffer);
	gles_objects_unlock(ctx);
	a->size = size;
	a->type = type;
	a->normalized = normalized;
	a->integer = integer;
	ctx->dirty |= GLES_DIRTY_VERTEX_KEY;
	a->stride = stride;
	a->pointer = pointer;
}

void gles_VertexAttribPointer(GLuint index, GLint size, GLenum type, GLboolean normalized,
			      GLsizei stride, const void *pointer)
{
	struct gles_context *ctx = gles_current();

	if (ctx)
		attrib_pointer(ctx, index, size, type, normalized, stride, pointer, false);
}

void gles_VertexAttribIPointer(GLuint index, GLint size, GLenum type, GLsizei stride,
			       const void *pointer)
{
	struct gles_context *ctx = gles_current();

	if (ctx)
		attrib_pointer(ctx, index, size, type, false, stride, pointer, true);
}

static void enable(GLuint index, bool on)
{
	struct gles_context *ctx = gles_current();

	if (!ctx)
		return;
	if (index >= GLES_MAX_VERTEX_ATTRIBS) {
		gles_error(ctx, GL_INVALID_VALUE);
		return;
	}
	ctx->objects->vao->attribs[index].enabled = on;
	if (on)
		ctx->objects->vao->enabled |= 1u << index;
	else
		ctx->objects->vao->enabled &= ~(1u << index);
	ctx->dirty |= GLES_DIRTY_VERTEX_KEY;
}

void gles_EnableVertexAttribArray(GLuint index)
{
	enable(index, true);
}

void gles_DisableVertexAttribArray(GLuint index)
{
	enable(index, false);
}

void gles_VertexAttribDivisor(GLuint index, GLuint divisor)
{
	struct gles_context *ctx = gles_current();

	if (!ctx)
		return;
	if (index >= GLES_MAX_VERTEX_ATTRIBS) {
		gles_error(ctx, GL_INVALID_VALUE);
		return;
	}
	ctx->objects->vao->attribs[index].divisor = divisor;
	ctx->dirty |= GLES_DIRTY_VERTEX_KEY;
}

/* ---- queries (section 6.1.12) -------------------------------------------------------------- */

enum want { WANT_FLOAT, WANT_INT, WANT_IINT, WANT_UINT };

static void get_attrib(GLuint index, GLenum pname, enum want want, void *params)
{
	struct gles_context *ctx = gles_current();
	const struct gles_vertex_attrib_array *a;
	GLint v;

	if (!ctx)
		return;
	if (index >= GLES_MAX_VERTEX_ATTRIBS) {
		gles_error(ctx, GL_INVALID_VALUE);
		return;
	}
	a = &ctx->objects->vao->attribs[index];
	switch (pname) {
	case GL_VERTEX_ATTRIB_ARRAY_BUFFER_BINDING:
		v = a->buffer ? (GLint)a->buffer->name : 0;
		break;
	case GL_VERTEX_ATTRIB_ARRAY_ENABLED:
		v = a->enabled;
		break;
	case GL_VERTEX_ATTRIB_ARRAY_SIZE:
		v = a->size;
		break;
	case GL_VERTEX_ATTRIB_ARRAY_STRIDE:
		v = a->stride;
		break;
	case GL_VERTEX_ATTRIB_ARRAY_TYPE:
		v = (GLint)a->type;
		break;
	case GL_VERTEX_ATTRIB_ARRAY_NORMALIZED:
		v = a->normalized;
		break;
	case GL_VERTEX_ATTRIB_ARRAY_INTEGER:
	case GL_VERTEX_ATTRIB_ARRAY_DIVISOR:
		v = pname == GL_VERTEX_ATTRIB_ARRAY_INTEGER ? a->integer : (GLint)a->divisor;
		break;
	case GL_CURRENT_VERTEX_ATTRIB: {
		const struct gles_current_attrib *c = gles_state_current_attrib(ctx, index);

		if (!params)
			return;
		for (unsigned k = 0; k < 4; k++) {
			/*
			 * The values as they were given: glGetVertexAttribI* reads
			 * integers as integers; the float and plain integer queries
			 * convert (section 6.1.2).
			 */
			GLfloat f = c->type == GLES_ATTRIB_FLOAT ? c->f[k]
				    : c->type == GLES_ATTRIB_INT ? (GLfloat)c->i[k]
								 : (GLfloat)c->u[k];

			switch (want) {
			case WANT_FLOAT:
				((GLfloat *)params)[k] = f;
				break;
			case WANT_INT:
				((GLint *)params)[k] = c->type == GLES_ATTRIB_FLOAT ? (GLint)f
						       : c->type == GLES_ATTRIB_INT
							   ? c->i[k]
							   : (GLint)c->u[k];
				break;
			case WANT_IINT:
				((GLint *)params)[k] =
				    c->type == GLES_ATTRIB_FLOAT ? (GLint)f : c->i[k];
				break;
			case WANT_UINT:
				((GLuint *)params)[k] =
				    c->type == GLES_ATTRIB_FLOAT ? (GLuint)f : c->u[k];
				break;
			}
		}
		return;
	}
	default:
		gles_error(ctx, GL_INVALID_ENUM);
		return;
	}
	if (!params)
		return;
	if (want == WANT_FLOAT)
		*(GLfloat *)params = (GLfloat)v;
	else
		*(GLint *)params = v;
}

void gles_GetVertexAttribfv(GLuint index, GLenum pname, GLfloat *params)
{
	get_attrib(index, pname, WANT_FLOAT, params);
}

void gles_GetVertexAttribiv(GLuint index, GLenum pname, GLint *params)
{
	get_attrib(index, pname, WANT_INT, params);
}

void gles_GetVertexAttribIiv(GLuint index, GLenum pname, GLint *params)
{
	get_attrib(index, pname, WANT_IINT, params);
}

void gles_GetVertexAttribIuiv(GLuint index, GLenum pname, GLuint *params)
{
	get_attrib(index, pname, WANT_UINT, params);
}

void gles_GetVertexAttribPointerv(GLuint index, GLenum pname, void **pointer)
{
	struct gles_context *ctx = gles_current();

	if (!ctx)
		return;
	if (index >= GLES_MAX_VERTEX_ATTRIBS) {
		gles_error(ctx, GL_INVALID_VALUE);
		return;
	}
	if (pname != GL_VERTEX_ATTRIB_ARRAY_POINTER) {
		gles_error(ctx, GL_INVALID_ENUM);
		return;
	}
	if (pointer)
		*pointer = (void *)ctx->objects->vao->attribs[index].pointer;
}
