/*
 * uniform.c: uniforms as GL sees them (GLES 3.0.6 section 2.12.6) -- the
 * locations of a linked program's default-block uniforms, glUniform* and
 * glUniformMatrix* into the storage each stage's uniform registers are
 * filled from (struct gles_program_stage), sampler uniforms' texture
 * units, glGetUniform*, and the introspection of uniforms and uniform
 * blocks (glGetActiveUniform, glGetUniformIndices, glGetActiveUniformsiv,
 * the block queries, glUniformBlockBinding).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "context.h"
#include "gl_functions.h"
#include "limits.h"
#include "program.h"

/* ---- locations ---------------------------------------------------------------------- */

/* Whether name is the uniform's: its own, or an array's without "[0]" (section 2.12.6) */
static bool names_uniform(const struct gles_uniform *u, const char *name)
{
	return !strcmp(u->name, name) || (u->is_array && strlen(name) == u->base_length &&
					  !strncmp(u->name, name, u->base_length));
}

static GLint uniform_location(const struct gles_linked *l, const char *name)
{
	size_t base;
	unsigned long element;

	if (!name || !strncmp(name, "gl_", 3))
		return -1;
	for (unsigned i = 0; i < l->num_uniforms; i++) {
		const struct gles_uniform *u = &l->uniforms[i];

		if (u->block < 0 && names_uniform(u, name))
			return u->location;
	}
	/* "a[2]": element 2 of array a */
	if (!gles_split_subscript(name, &base, &element))
		return -1;
	for (unsigned i = 0; i < l->num_uniforms; i++) {
		const struct gles_uniform *u = &l->uniforms[i];

		if (u->block < 0 && u->is_array && u->base_length == base &&
		    !strncmp(u->name, name, base) && element < u->size)
			return u->location + (GLint)element;
	}
	return -1;
}

GLint gles_GetUniformLocation(GLuint pname, const GLchar *name)
{
	struct gles_context *ctx = gles_current();
	struct gles_program *program;
	GLint location = -1;

	if (!ctx)
		return -1;
	gles_programs_lock(ctx);
	program = gles_lookup_program(ctx, pname);
	if (program && !program->linked)
		gles_error(ctx, GL_INVALID_OPERATION);
	else if (program)
		location = uniform_location(program->linked, name);
	gles_programs_unlock(ctx);
	return location;
}

/* ---- glUniform* ------------------------------------------------------------------------ */

enum value_kind {
	VALUE_FLOAT,
	VALUE_INT,
	VALUE_UINT,
};

/* A basic type's scalar type and its matrix shape (columns, rows; vectors 1 x n). */
static void type_shape(GLenum type, GLenum *scalar, unsigned *cols, unsigned *rows)
{
	static const struct {
		GLenum type, scalar;
		unsigned cols, rows;
	} shapes[] = {
		{ GL_FLOAT, GL_FLOAT, 1, 1 },
		{ GL_FLOAT_VEC2, GL_FLOAT, 1, 2 },
		{ GL_FLOAT_VEC3, GL_FLOAT, 1, 3 },
		{ GL_FLOAT_VEC4, GL_FLOAT, 1, 4 },
		{ GL_INT, GL_INT, 1, 1 },
		{ GL_INT_VEC2, GL_INT, 1, 2 },
		{ GL_INT_VEC3, GL_INT, 1, 3 },
		{ GL_INT_VEC4, GL_INT, 1, 4 },
		{ GL_UNSIGNED_INT, GL_UNSIGNED_INT, 1, 1 },
		{ GL_UNSIGNED_INT_VEC2, GL_UNSIGNED_INT, 1, 2 },
		{ GL_UNSIGNED_INT_VEC3, GL_UNSIGNED_INT, 1, 3 },
		{ GL_UNSIGNED_INT_VEC4, GL_UNSIGNED_INT, 1, 4 },
		{ GL_BOOL, GL_BOOL, 1, 1 },
		{ GL_BOOL_VEC2, GL_BOOL, 1, 2 },
		{ GL_BOOL_VEC3, GL_BOOL, 1, 3 },
		{ GL_BOOL_VEC4, GL_BOOL, 1, 4 },
		{ GL_FLOAT_MAT2, GL_FLOAT, 2, 2 },
		{ GL_FLOAT_MAT3, GL_FLOAT, 3, 3 },
		{ GL_FLOAT_MAT4, GL_FLOAT, 4, 4 },
		{ GL_FLOAT_MAT2x3, GL_FLOAT, 2, 3 },
		{ GL_FLOAT_MAT2x4, GL_FLOAT, 2, 4 },
		{ GL_FLOAT_MAT3x2, GL_FLOAT, 3, 2 },
		{ GL_FLOAT_MAT3x4, GL_FLOAT, 3, 4 },
		{ GL_FLOAT_MAT4x2, GL_FLOAT, 4, 2 },
		{ GL_FLOAT_MAT4x3, GL_FLOAT, 4, 3 },
	};

	for (size_t i = 0; i < sizeof(shapes) / sizeof(shapes[0]); i++) {
		if (shapes[i].type == type) {
			*scalar = shapes[i].scalar;
			*cols = shapes[i].cols;
			*rows = shapes[i].rows;
			return;
		}
	}
	/* a sampler: one int */
	*scalar = GL_SAMPLER_2D;
	*cols = *rows = 1;
}

/*
 * The uniform at location of the current program for a glUniform* call,
 * with section 2.12.6's errors; NULL (an error recorded, or location -1,
 * which is silently ignored) when nothing is to be written.
 */
static struct gles_uniform *uniform_for_write(struct gles_context *ctx, GLint location,
					      GLsizei count, struct gles_linked **linked,
					      unsigned *element)
{
	struct gles_program *program = ctx->program->program;
	struct gles_linked *l;

	if (count < 0) {
		gles_error(ctx, GL_INVALID_VALUE);
		return NULL;
	}
	if (!program || !program->linked) {
		gles_error(ctx, GL_INVALID_OPERATION);
		return NULL;
	}
	l = program->linked;
	if (location == -1)
		return NULL;
	if (location < 0 || (unsigned)location >= l->num_locations) {
		gles_error(ctx, GL_INVALID_OPERATION);
		return NULL;
	}
	*linked = l;
	*element = l->locations[location].element;
	return &l->uniforms[l->locations[location].uniform];
}

/* One scalar as the uniform's storage holds it (booleans 0 or 1: section 2.12.6) */
static uint32_t stored(GLenum scalar, enum value_kind kind, const void *values, size_t i)
{
	union {
		float f;
		uint32_t u;
	} w;

	switch (kind) {
	case VALUE_FLOAT:
		w.f = ((const GLfloat *)values)[i];
		return scalar == GL_BOOL ? w.f != 0.0f : w.u;
	case VALUE_INT:
		return scalar == GL_BOOL ? ((const GLint *)values)[i] != 0
					 : (uint32_t)((const GLint *)values)[i];
	case VALUE_UINT:
	default:
		return scalar == GL_BOOL ? ((const GLuint *)values)[i] != 0
					 : ((const GLuint *)values)[i];
	}
}

static void write_element(struct gles_linked *l, const struct gles_uniform *u, unsigned e,
			  unsigned cols, unsigned rows, bool transpose, GLenum scalar,
			  enum value_kind kind, const void *values, size_t first)
{
	for (unsigned s = 0; s < GLES_STAGES; s++) {
		uint8_t *base;

		if (u->stage_offset[s] < 0)
			continue;
		base = (uint8_t *)l->stages[s].uniform_data + u->stage_offset[s] +
		       (size_t)e * u->elem_stride;
		if (kind == VALUE_FLOAT && scalar == GL_FLOAT && !transpose) {
			/*
			 * Floats into floats are their bits, a column's rows in a
			 * row: copies of a constant size, which the compiler makes
			 * a move or two (a call to memcpy costs more than the copy).
			 */
			const GLfloat *from = (const GLfloat *)values + first;

			for (unsigned c = 0; c < cols; c++, from += rows) {
				uint8_t *to = base + 16 * c;

				switch (rows) {
				case 4:
					memcpy(to, from, 16);
					break;
				case 3:
					memcpy(to, from, 12);
					break;
				case 2:
					memcpy(to, from, 8);
					break;
				default:
					memcpy(to, from, 4);
					break;
				}
			}
			continue;
		}
		for (unsigned c = 0; c < cols; c++) {
			for (unsigned r = 0; r < rows; r++) {
				/* the values are column-major, or row-major when transposed */
				size_t i = first + (transpose ? r * cols + c : c * rows + r);
				uint32_t word = stored(scalar, kind, values, i);

				memcpy(base + 16 * c + 4 * r, &word, 4);
			}
		}
	}
}

/*
 * glUniform{1,2,3,4}{f,i,ui}[v] (matrix 0) and glUniformMatrix*fv (matrix
 * the columns): the checks of section 2.12.6 in Mesa's order (count, the
 * program, the location, then the type), then the writes.
 */
static void set_uniform(GLint location, GLsizei count, unsigned cols, unsigned rows,
			enum value_kind kind, bool matrix, GLboolean transpose, const void *values)
{
	struct gles_context *ctx = gles_current();
	struct gles_linked *l = NULL;
	struct gles_uniform *u;
	unsigned element = 0, ucols, urows, n;
	GLenum scalar;
	bool ok;

	if (!ctx)
		return;
	gles_programs_lock(ctx);
	u = uniform_for_write(ctx, location, count, &l, &element);
	if (!u)
		goto out;
	type_shape(u->type, &scalar, &ucols, &urows);
	/* the call's shape and type: an exact one, or a boolean set from any kind */
	ok = ucols == cols && urows == rows && (matrix == (cols > 1));
	switch (kind) {
	case VALUE_FLOAT:
		ok &= scalar == GL_FLOAT || scalar == GL_BOOL;
		break;
	case VALUE_INT:
		ok &= scalar == GL_INT || scalar == GL_BOOL || scalar == GL_SAMPLER_2D;
		break;
	case VALUE_UINT:
		ok &= scalar == GL_UNSIGNED_INT || scalar == GL_BOOL;
		break;
	}
	if (!ok || (count > 1 && !u->is_array)) {
		gles_error(ctx, GL_INVALID_OPERATION);
		goto out;
	}
	/* elements past the array's end are ignored (section 2.12.6) */
	n = (unsigned)count < u->size - element ? (unsigned)count : u->size - element;
	if (!values)
		goto out;
	if (scalar == GL_SAMPLER_2D) {
		/* section 2.12.6: a unit outside 0..MAX_COMBINED_TEXTURE_IMAGE_UNITS-1 */
		for (unsigned i = 0; i < n; i++) {
			GLint unit = ((const GLint *)values)[i];

			if (unit < 0 || unit >= GLES_MAX_COMBINED_TEXTURE_IMAGE_UNITS) {
				gles_error(ctx, GL_INVALID_VALUE);
				goto out;
			}
		}
		for (unsigned i = 0; i < n; i++) {
			GLint unit = ((const GLint *)values)[i];

			u->units[element + i] = unit;
			for (unsigned s = 0; s < GLES_STAGES; s++) {
				int at = u->stage_unit[s] >= 0
					     ? u->stage_unit[s] + (int)(element + i)
					     : -1;

				if (at >= 0 && (unsigned)at < l->stages[s].num_units)
					l->stages[s].units[at] = unit;
			}
		}
		goto out;
	}
	for (unsigned i = 0; i < n; i++)
		write_element(l, u, element + i, cols, rows, transpose, scalar, kind, values,
			      (size_t)i * cols * rows);
out:
	gles_programs_unlock(ctx);
}

#define UNIFORM_FUNCS(N, suffix, ctype, kind, ...)                                                 \
	void gles_Uniform##N##suffix(GLint location, __VA_ARGS__)                                  \
	{                                                                                          \
		ctype v[] = { UNIFORM_ARGS_##N };                                                  \
		set_uniform(location, 1, 1, N, kind, false, GL_FALSE, v);                          \
	}                                                                                          \
	void gles_Uniform##N##suffix##v(GLint location, GLsizei count, const ctype *value)         \
	{                                                                                          \
		set_uniform(location, count, 1, N, kind, false, GL_FALSE, value);                  \
	}

#define UNIFORM_ARGS_1 v0
#define UNIFORM_ARGS_2 v0, v1
#define UNIFORM_ARGS_3 v0, v1, v2
#define UNIFORM_ARGS_4 v0, v1, v2, v3

UNIFORM_FUNCS(1, f, GLfloat, VALUE_FLOAT, GLfloat v0)
UNIFORM_FUNCS(2, f, GLfloat, VALUE_FLOAT, GLfloat v0, GLfloat v1)
UNIFORM_FUNCS(3, f, GLfloat, VALUE_FLOAT, GLfloat v0, GLfloat v1, GLfloat v2)
UNIFORM_FUNCS(4, f, GLfloat, VALUE_FLOAT, GLfloat v0, GLfloat v1, GLfloat v2, GLfloat v3)
UNIFORM_FUNCS(1, i, GLint, VALUE_INT, GLint v0)
UNIFORM_FUNCS(2, i, GLint, VALUE_INT, GLint v0, GLint v1)
UNIFORM_FUNCS(3, i, GLint, VALUE_INT, GLint v0, GLint v1, GLint v2)
UNIFORM_FUNCS(4, i, GLint, VALUE_INT, GLint v0, GLint v1, GLint v2, GLint v3)
UNIFORM_FUNCS(1, ui, GLuint, VALUE_UINT, GLuint v0)
UNIFORM_FUNCS(2, ui, GLuint, VALUE_UINT, GLuint v0, GLuint v1)
UNIFORM_FUNCS(3, ui, GLuint, VALUE_UINT, GLuint v0, GLuint v1, GLuint v2)
UNIFORM_FUNCS(4, ui, GLuint, VALUE_UINT, GLuint v0, GLuint v1, GLuint v2, GLuint v3)

#define UNIFORM_MATRIX(name, cols, rows)                                                           \
	void gles_UniformMatrix##name##fv(GLint location, GLsizei count, GLboolean transpose,      \
					  const GLfloat *value)                                    \
	{                                                                                          \
		set_uniform(location, count, cols, rows, VALUE_FLOAT, true, transpose, value);     \
	}

UNIFORM_MATRIX(2, 2, 2)
UNIFORM_MATRIX(3, 3, 3)
UNIFORM_MATRIX(4, 4, 4)
UNIFORM_MATRIX(2x3, 2, 3)
UNIFORM_MATRIX(3x2, 3, 2)
UNIFORM_MATRIX(2x4, 2, 4)
UNIFORM_MATRIX(4x2, 4, 2)
UNIFORM_MATRIX(3x4, 3, 4)
UNIFORM_MATRIX(4x3, 4, 3)

/* ---- glGetUniform* ---------------------------------------------------------------------- */

/*
 * Section 6.1.12: every component of the uniform at location, converted
 * to the query's type as the state queries convert (section 6.1.2).
 */
/*
 * glGetUniform*, and EXT_robustness's glGetnUniform*EXT when buf_size >= 0:
 * params holds buf_size bytes, which the value must fit in
 * (INVALID_OPERATION).
 */
static void get_uniform(GLuint pname, GLint location, enum value_kind kind, GLsizei buf_size,
			void *params)
{
	struct gles_context *ctx = gles_current();
	struct gles_program *program;
	const struct gles_linked *l;
	const struct gles_uniform *u;
	unsigned element, cols, rows;
	GLenum scalar;
	int s;

	if (!ctx)
		return;
	gles_programs_lock(ctx);
	program = gles_lookup_program(ctx, pname);
	if (!program)
		goto out;
	l = program->linked;
	if (!l || location < 0 || (unsigned)location >= l->num_locations) {
		gles_error(ctx, GL_INVALID_OPERATION);
		goto out;
	}
	u = &l->uniforms[l->locations[location].uniform];
	element = l->locations[location].element;
	type_shape(u->type, &scalar, &cols, &rows);
	if (buf_size >= 0 &&
	    (size_t)buf_size < (scalar == GL_SAMPLER_2D ? 1 : cols * rows) * sizeof(GLint)) {
		gles_error(ctx, GL_INVALID_OPERATION);
		goto out;
	}
	if (!params)
		goto out;
	if (scalar == GL_SAMPLER_2D) {
		GLint unit = u->units[element];

		if (kind == VALUE_FLOAT)
			*(GLfloat *)params = (GLfloat)unit;
		else
			*(GLint *)params = unit;
		goto out;
	}
	s = u->stage_offset[0] >= 0 ? 0 : 1;
	for (unsigned c = 0; c < cols; c++) {
		for (unsigned r = 0; r < rows; r++) {
			const uint8_t *at = (const uint8_t *)l->stages[s].uniform_data +
					    u->stage_offset[s] + (size_t)element * u->elem_stride +
					    16 * c + 4 * r;
			unsigned i = c * rows + r;
			union {
				float f;
				int32_t i;
				uint32_t u;
			} w;

			memcpy(&w, at, 4);
			switch (kind) {
			case VALUE_FLOAT:
				((GLfloat *)params)[i] = scalar == GL_FLOAT ? w.f
							 : scalar == GL_INT ? (GLfloat)w.i
									    : (GLfloat)w.u;
				break;
			case VALUE_INT:
				((GLint *)params)[i] =
				    scalar == GL_FLOAT ? (GLint)lroundf(w.f) : w.i;
				break;
			case VALUE_UINT:
				((GLuint *)params)[i] =
				    scalar == GL_FLOAT ? (GLuint)lroundf(w.f) : w.u;
				break;
			}
		}
	}
out:
	gles_programs_unlock(ctx);
}

void gles_GetUniformfv(GLuint program, GLint location, GLfloat *params)
{
	get_uniform(program, location, VALUE_FLOAT, -1, params);
}

void gles_GetUniformiv(GLuint program, GLint location, GLint *params)
{
	get_uniform(program, location, VALUE_INT, -1, params);
}

void gles_GetUniformuiv(GLuint program, GLint location, GLuint *params)
{
	get_uniform(program, location, VALUE_UINT, -1, params);
}

/* EXT_robustness; a negative buf_size is KHR_robustness's INVALID_VALUE */
static void get_uniform_n(GLuint program, GLint location, enum value_kind kind, GLsizei buf_size,
			  void *params)
{
	struct gles_context *ctx = gles_current();

	if (!ctx)
		return;
	if (buf_size < 0) {
		gles_error(ctx, GL_INVALID_VALUE);
		return;
	}
	get_uniform(program, location, kind, buf_size, params);
}

void gles_GetnUniformfvEXT(GLuint program, GLint location, GLsizei buf_size, GLfloat *params)
{
	get_uniform_n(program, location, VALUE_FLOAT, buf_size, params);
}

void gles_GetnUniformivEXT(GLuint program, GLint location, GLsizei buf_size, GLint *params)
{
	get_uniform_n(program, location, VALUE_INT, buf_size, params);
}

/* KHR_robustness adds the unsigned one (ES 3.0's glGetUniformuiv bounded) */
void gles_GetnUniformuivKHR(GLuint program, GLint location, GLsizei buf_size, GLuint *params)
{
	get_uniform_n(program, location, VALUE_UINT, buf_size, params);
}

/* ---- introspection ---------------------------------------------------------------------- */

void gles_GetActiveUniform(GLuint pname, GLuint index, GLsizei buf_size, GLsizei *length,
			   GLint *size, GLenum *type, GLchar *name)
{
	struct gles_context *ctx = gles_current();
	struct gles_program *program;
	const struct gles_linked *l;

	if (!ctx)
		return;
	gles_programs_lock(ctx);
	program = gles_lookup_program(ctx, pname);
	if (!program)
		goto out;
	l = program->linked;
	if (!l || index >= l->num_uniforms || buf_size < 0) {
		gles_error(ctx, GL_INVALID_VALUE);
		goto out;
	}
	gles_copy_name(l->uniforms[index].name, buf_size, length, name);
	if (size)
		*size = (GLint)l->uniforms[index].size;
	if (type)
		*type = l->uniforms[index].type;
out:
	gles_programs_unlock(ctx);
}

void gles_GetUniformIndices(GLuint pname, GLsizei count, const GLchar *const *names,
			    GLuint *indices)
{
	struct gles_context *ctx = gles_current();
	struct gles_program *program;
	const struct gles_linked *l;

	if (!ctx)
		return;
	gles_programs_lock(ctx);
	program = gles_lookup_program(ctx, pname);
	if (!program)
		goto out;
	if (count < 0) {
		gles_error(ctx, GL_INVALID_VALUE);
		goto out;
	}
	l = program->linked;
	for (GLsizei i = 0; names && indices && i < count; i++) {
		indices[i] = GL_INVALID_INDEX;
		for (unsigned k = 0; l && names[i] && k < l->num_uniforms; k++) {
			if (names_uniform(&l->uniforms[k], names[i])) {
				indices[i] = k;
				break;
			}
		}
	}
out:
	gles_programs_unlock(ctx);
}

void gles_GetActiveUniformsiv(GLuint pname, GLsizei count, const GLuint *indices, GLenum what,
			      GLint *params)
{
	struct gles_context *ctx = gles_current();
	struct gles_program *program;
	const struct gles_linked *l;

	if (!ctx)
		return;
	gles_programs_lock(ctx);
	program = gles_lookup_program(ctx, pname);
	if (!program)
		goto out;
	if (count < 0 || (count > 0 && !indices)) {
		gles_error(ctx, GL_INVALID_VALUE);
		goto out;
	}
	l = program->linked;
	for (GLsizei i = 0; i < count; i++) {
		if (!l || indices[i] >= l->num_uniforms) {
			gles_error(ctx, GL_INVALID_VALUE);
			goto out;
		}
	}
	switch (what) {
	case GL_UNIFORM_TYPE:
	case GL_UNIFORM_SIZE:
	case GL_UNIFORM_NAME_LENGTH:
	case GL_UNIFORM_BLOCK_INDEX:
	case GL_UNIFORM_OFFSET:
	case GL_UNIFORM_ARRAY_STRIDE:
	case GL_UNIFORM_MATRIX_STRIDE:
	case GL_UNIFORM_IS_ROW_MAJOR:
		break;
	default:
		gles_error(ctx, GL_INVALID_ENUM);
		goto out;
	}
	for (GLsizei i = 0; params && i < count; i++) {
		const struct gles_uniform *u = &l->uniforms[indices[i]];

		switch (what) {
		case GL_UNIFORM_TYPE:
			params[i] = (GLint)u->type;
			break;
		case GL_UNIFORM_SIZE:
			params[i] = (GLint)u->size;
			break;
		case GL_UNIFORM_NAME_LENGTH:
			params[i] = (GLint)strlen(u->name) + 1;
			break;
		case GL_UNIFORM_BLOCK_INDEX:
			params[i] = u->block;
			break;
		case GL_UNIFORM_OFFSET:
			params[i] = u->offset;
			break;
		case GL_UNIFORM_ARRAY_STRIDE:
			params[i] = u->array_stride;
			break;
		case GL_UNIFORM_MATRIX_STRIDE:
			params[i] = u->matrix_stride;
			break;
		case GL_UNIFORM_IS_ROW_MAJOR:
			params[i] = u->row_major;
			break;
		}
	}
out:
	gles_programs_unlock(ctx);
}

GLuint gles_GetUniformBlockIndex(GLuint pname, const GLchar *name)
{
	struct gles_context *ctx = gles_current();
	struct gles_program *program;
	GLuint index = GL_INVALID_INDEX;

	if (!ctx)
		return GL_INVALID_INDEX;
	gles_programs_lock(ctx);
	program = gles_lookup_program(ctx, pname);
	for (unsigned i = 0; program && program->linked && name && i < program->linked->num_blocks;
	     i++) {
		if (!strcmp(program->linked->blocks[i].name, name)) {
			index = i;
			break;
		}
	}
	gles_programs_unlock(ctx);
	return index;
}

/* The block of a block query, GL_INVALID_VALUE recorded when there is none of that index */
static struct gles_uniform_block *block_of(struct gles_context *ctx, GLuint pname, GLuint index,
					   struct gles_linked **linked)
{
	struct gles_program *program = gles_lookup_program(ctx, pname);

	if (!program)
		return NULL;
	if (!program->linked || index >= program->linked->num_blocks) {
		gles_error(ctx, GL_INVALID_VALUE);
		return NULL;
	}
	*linked = program->linked;
	return &program->linked->blocks[index];
}

void gles_GetActiveUniformBlockiv(GLuint pname, GLuint index, GLenum what, GLint *params)
{
	struct gles_context *ctx = gles_current();
	struct gles_uniform_block *b;
	struct gles_linked *l = NULL;

	if (!ctx)
		return;
	gles_programs_lock(ctx);
	b = block_of(ctx, pname, index, &l);
	if (!b)
		goto out;
	switch (what) {
	case GL_UNIFORM_BLOCK_BINDING:
		if (params)
			*params = (GLint)b->binding;
		break;
	case GL_UNIFORM_BLOCK_DATA_SIZE:
		if (params)
			*params = (GLint)b->data_size;
		break;
	case GL_UNIFORM_BLOCK_NAME_LENGTH:
		if (params)
			*params = (GLint)strlen(b->name) + 1;
		break;
	case GL_UNIFORM_BLOCK_ACTIVE_UNIFORMS:
		if (params)
			*params = (GLint)b->num_uniforms;
		break;
	case GL_UNIFORM_BLOCK_ACTIVE_UNIFORM_INDICES:
		for (unsigned i = 0; params && i < b->num_uniforms; i++)
			params[i] = (GLint)(b->first_uniform + i);
		break;
	case GL_UNIFORM_BLOCK_REFERENCED_BY_VERTEX_SHADER:
		if (params)
			*params = b->stage_var[GLES_STAGE_VERTEX] >= 0;
		break;
	case GL_UNIFORM_BLOCK_REFERENCED_BY_FRAGMENT_SHADER:
		if (params)
			*params = b->stage_var[GLES_STAGE_FRAGMENT] >= 0;
		break;
	default:
		gles_error(ctx, GL_INVALID_ENUM);
		break;
	}
out:
	gles_programs_unlock(ctx);
}

void gles_GetActiveUniformBlockName(GLuint pname, GLuint index, GLsizei buf_size, GLsizei *length,
				    GLchar *name)
{
	struct gles_context *ctx = gles_current();
	struct gles_uniform_block *b;
	struct gles_linked *l = NULL;

	if (!ctx)
		return;
	gles_programs_lock(ctx);
	b = block_of(ctx, pname, index, &l);
	if (b && buf_size < 0)
		gles_error(ctx, GL_INVALID_VALUE);
	else if (b)
		gles_copy_name(b->name, buf_size, length, name);
	gles_programs_unlock(ctx);
}

void gles_UniformBlockBinding(GLuint pname, GLuint index, GLuint binding)
{
	struct gles_context *ctx = gles_current();
	struct gles_uniform_block *b;
	struct gles_linked *l = NULL;

	if (!ctx)
		return;
	gles_programs_lock(ctx);
	b = block_of(ctx, pname, index, &l);
	if (b && binding >= GLES_MAX_UNIFORM_BUFFER_BINDINGS)
		gles_error(ctx, GL_INVALID_VALUE);
	else if (b)
		b->binding = binding;
	gles_programs_unlock(ctx);
}
