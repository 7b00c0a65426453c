/*
 * get.h: the value of one GL state query, and the contract between get.c
 * (which owns every glGet* entry point and glIsEnabled) and the modules
 * that own a part of the state.
 *
 * A query produces a struct gles_get_value: its type says how the value is
 * stored in the state vector, and get.c converts it to what the entry point
 * returns (GLES 3.0.6 section 6.1.2), so a module fills it once and every
 * glGet* answers.  The conversions:
 *
 *   stored as \ asked by  Booleanv          Integerv / Integer64v          Floatv
 *   BOOL                  as is             TRUE 1, FALSE 0                1.0 / 0.0
 *   INT, ENUM             0: FALSE, else    as is (Integerv: INT64         as float
 *   INT64                 TRUE              values clamped to GLint)
 *   FLOAT                 0.0: FALSE, else  rounded to nearest, clamped    as is
 *   NORM                  TRUE              (2^b - 1) * f rounded, f       as is
 *                                           clamped to [-1, 1], b = 32 or
 *                                           64 (section 2.1.6.1's signed
 *                                           conversion: colors, depth
 *                                           range, depth clear value)
 *
 * ENUM and INT differ only in what they mean; both hold a GLint.  UINT is
 * for the 32-bit masks whose initial value is all ones (the stencil masks):
 * glGetIntegerv returns the bits as a GLint (-1), glGetInteger64v and
 * glGetFloatv the unsigned value.
 */
#ifndef GLES_GET_H
#define GLES_GET_H

#include <stdbool.h>

#include <GLES3/gl3.h>

struct gles_context;

enum gles_get_type {
	GLES_GET_INT,
	GLES_GET_UINT,
	GLES_GET_INT64,
	GLES_GET_ENUM,
	GLES_GET_BOOL,
	GLES_GET_FLOAT,
	GLES_GET_NORM, /* a float that is a color component or a depth value */
};

/* The most values one query returns: GL_COMPRESSED_TEXTURE_FORMATS' (objects.c), with room. */
#define GLES_GET_MAX_VALUES 32

struct gles_get_value {
	enum gles_get_type type;
	/*
	 * How many values the query writes.  0 from a provider: it owns the
	 * name but has recorded an error (gles_error) and nothing is written.
	 */
	unsigned count;
	union {
		GLint i[GLES_GET_MAX_VALUES];	  /* INT, ENUM */
		GLuint u[GLES_GET_MAX_VALUES];	  /* UINT */
		GLint64 i64[GLES_GET_MAX_VALUES]; /* INT64 */
		bool b[GLES_GET_MAX_VALUES];	  /* BOOL */
		GLfloat f[GLES_GET_MAX_VALUES];	  /* FLOAT, NORM */
	};
};

/*
 * A provider: the module that owns some state answers the queries of it.
 * index is -1 for glGetBooleanv/Integerv/Integer64v/Floatv and the index
 * for glGetIntegeri_v/Integer64i_v.  It returns false when pname is not its
 * (in that form: a name that has only an indexed form is not its at -1); get.c
 * then tries the next provider and finally records GL_INVALID_ENUM.  It
 * returns true with out filled when it is; with an index it cannot take
 * (GLES 3.0.6 section 6.1.4: past the binding points, GL_INVALID_VALUE)
 * it records the error and returns true with out->count 0.
 *
 * get.c calls each provider from one line in its dispatch (get.c,
 * "providers"), which the provider's owner adds with the function.
 */
typedef bool gles_get_provider(struct gles_context *ctx, GLenum pname, int index,
			       struct gles_get_value *out);

/* The providers (the declarations stay here, next to the contract). */
/* buffer.c, texture.c, ... (module B): object bindings, framebuffer-dependent values */
gles_get_provider gles_objects_get;
/* program.c (module C): CURRENT_PROGRAM, binary formats, SHADER_COMPILER */
gles_get_provider gles_programs_get;

/* Fillers, for providers and get.c alike. */
static inline void gles_get_set_int(struct gles_get_value *v, GLint x)
{
	v->type = GLES_GET_INT;
	v->count = 1;
	v->i[0] = x;
}

static inline void gles_get_set_uint(struct gles_get_value *v, GLuint x)
{
	v->type = GLES_GET_UINT;
	v->count = 1;
	v->u[0] = x;
}

static inline void gles_get_set_int64(struct gles_get_value *v, GLint64 x)
{
	v->type = GLES_GET_INT64;
	v->count = 1;
	v->i64[0] = x;
}

static inline void gles_get_set_enum(struct gles_get_value *v, GLenum x)
{
	v->type = GLES_GET_ENUM;
	v->count = 1;
	v->i[0] = (GLint)x;
}

static inline void gles_get_set_bool(struct gles_get_value *v, bool x)
{
	v->type = GLES_GET_BOOL;
	v->count = 1;
	v->b[0] = x;
}

static inline void gles_get_set_float(struct gles_get_value *v, GLfloat x)
{
	v->type = GLES_GET_FLOAT;
	v->count = 1;
	v->f[0] = x;
}

/* n values of type INT/ENUM (n <= GLES_GET_MAX_VALUES) */
static inline void gles_get_set_ints(struct gles_get_value *v, enum gles_get_type type, unsigned n,
				     const GLint *x)
{
	v->type = type;
	v->count = n;
	for (unsigned k = 0; k < n; k++)
		v->i[k] = x[k];
}

/* n values of type FLOAT/NORM */
static inline void gles_get_set_floats(struct gles_get_value *v, enum gles_get_type type,
				       unsigned n, const GLfloat *x)
{
	v->type = type;
	v->count = n;
	for (unsigned k = 0; k < n; k++)
		v->f[k] = x[k];
}

/* Conversions of one stored value (section 6.1.2, the table above); k < v->count. */
GLboolean gles_get_to_boolean(const struct gles_get_value *v, unsigned k);
GLint gles_get_to_int(const struct gles_get_value *v, unsigned k);
GLint64 gles_get_to_int64(const struct gles_get_value *v, unsigned k);
GLfloat gles_get_to_float(const struct gles_get_value *v, unsigned k);

/*
 * The one query: fills out with pname's value (index -1: not indexed).
 * False when no module knows pname in that form; the caller records
 * GL_INVALID_ENUM.  True with out->count 0: an error was recorded.
 */
bool gles_get_query(struct gles_context *ctx, GLenum pname, int index, struct gles_get_value *out);

#endif
