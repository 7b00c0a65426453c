/*
 * get.c: the state queries -- glGetBooleanv, glGetIntegerv,
 * glGetInteger64v, glGetFloatv, the indexed glGetIntegeri_v and
 * glGetInteger64i_v, and glIsEnabled -- and the conversions between the
 * stored and the returned types (GLES 3.0.6 section 6.1.2, get.h).  Each
 * pname is answered by the module that owns its state, through the
 * providers below.
 */
#include <math.h>
#include <stdint.h>

#include "context.h"
#include "debug.h"
#include "extensions.h"
#include "get.h"
#include "gl_functions.h"
#include "limits.h"
#include "state.h"
#include "xfb.h"

/* ---- conversions (section 6.1.2) --------------------------------------------------------- */

GLboolean gles_get_to_boolean(const struct gles_get_value *v, unsigned k)
{
	switch (v->type) {
	case GLES_GET_BOOL:
		return v->b[k] ? GL_TRUE : GL_FALSE;
	case GLES_GET_UINT:
		return v->u[k] ? GL_TRUE : GL_FALSE;
	case GLES_GET_INT64:
		return v->i64[k] ? GL_TRUE : GL_FALSE;
	case GLES_GET_FLOAT:
	case GLES_GET_NORM:
		return v->f[k] != 0.0f ? GL_TRUE : GL_FALSE;
	default: /* INT, ENUM */
		return v->i[k] ? GL_TRUE : GL_FALSE;
	}
}

/* Round to nearest, clamped to [lo, hi]: "the nearest value representable" (section 6.1.2). */
static int64_t round_clamped(double x, double lo, int64_t ilo, double hi, int64_t ihi)
{
	if (isnan(x))
		return 0;
	if (x <= lo)
		return ilo;
	if (x >= hi)
		return ihi;
	return (int64_t)round(x); /* halves away from zero, as both signs alike */
}

/*
 * Section 6.1.2: a colour component, depth range or depth clear value goes
 * to an integer by section 2.1.6.1's signed normalized conversion with b
 * bits, round(f * (2^(b-1) - 1)), f clamped to [-1, 1].
 */
static int64_t normalized(float f, unsigned bits)
{
	double max = (double)((UINT64_C(1) << (bits - 1)) - 1);
	int64_t imax = (int64_t)((UINT64_C(1) << (bits - 1)) - 1);

	if (isnan(f))
		return 0;
	if (f >= 1.0f)
		return imax;
	if (f <= -1.0f)
		return -imax;
	return (int64_t)round((double)f * max);
}

GLint gles_get_to_int(const struct gles_get_value *v, unsigned k)
{
	switch (v->type) {
	case GLES_GET_BOOL:
		return v->b[k] ? 1 : 0;
	case GLES_GET_UINT:
		/* the bits of the mask (get.h): all ones is -1 */
		return (GLint)v->u[k];
	case GLES_GET_INT64:
		return v->i64[k] > INT32_MAX   ? INT32_MAX
		       : v->i64[k] < INT32_MIN ? INT32_MIN
					       : (GLint)v->i64[k];
	case GLES_GET_FLOAT:
		return (GLint)round_clamped(v->f[k], (double)INT32_MIN, INT32_MIN,
					    (double)INT32_MAX, INT32_MAX);
	case GLES_GET_NORM:
		return (GLint)normalized(v->f[k], 32);
	default:
		return v->i[k];
	}
}

GLint64 gles_get_to_int64(const struct gles_get_value *v, unsigned k)
{
	switch (v->type) {
	case GLES_GET_BOOL:
		return v->b[k] ? 1 : 0;
	case GLES_GET_UINT:
		return (GLint64)v->u[k];
	case GLES_GET_INT64:
		return v->i64[k];
	case GLES_GET_FLOAT:
		/* 2^63 is exact in a double; anything at or past it is clamped */
		return round_clamped(v->f[k], -9223372036854775808.0, INT64_MIN,
				     9223372036854775808.0, INT64_MAX);
	case GLES_GET_NORM:
		return normalized(v->f[k], 64);
	default:
		return v->i[k];
	}
}

GLfloat gles_get_to_float(const struct gles_get_value *v, unsigned k)
{
	switch (v->type) {
	case GLES_GET_BOOL:
		return v->b[k] ? 1.0f : 0.0f;
	case GLES_GET_UINT:
		return (GLfloat)v->u[k];
	case GLES_GET_INT64:
		return (GLfloat)v->i64[k];
	case GLES_GET_FLOAT:
	case GLES_GET_NORM:
		return v->f[k];
	default:
		return (GLfloat)v->i[k];
	}
}

/* ---- the context's own values (tables 6.30) --------------------------------------------- */

static bool context_get(struct gles_context *ctx, GLenum pname, int index,
			struct gles_get_value *out)
{
	if (index >= 0)
		return false;
	switch (pname) {
	case GL_MAJOR_VERSION:
		gles_get_set_int(out, (GLint)ctx->major);
		return true;
	case GL_MINOR_VERSION:
		gles_get_set_int(out, (GLint)ctx->minor);
		return true;
	case GL_NUM_EXTENSIONS:
		gles_get_set_int(out, (GLint)gles_num_extensions());
		return true;
	case GL_MAX_SHADER_COMPILER_THREADS_KHR:
		gles_get_set_uint(out, ctx->max_compiler_threads);
		return true;
	/* EXT_robustness: what EGL made the context with */
	case GL_CONTEXT_ROBUST_ACCESS_EXT:
		gles_get_set_bool(out, ctx->robust_access);
		return true;
	case GL_RESET_NOTIFICATION_STRATEGY_EXT:
		gles_get_set_enum(out, ctx->lose_context_on_reset ? GL_LOSE_CONTEXT_ON_RESET_EXT
								  : GL_NO_RESET_NOTIFICATION_EXT);
		return true;
	default:
		return false;
	}
}

/* ---- the providers ----------------------------------------------------------------------- */

/*
 * Every pname of the ES 3.0.6 state tables is answered by one of these,
 * each module adding its own line: this module's state, limits, versions
 * and transform feedback objects, and the names below.
 *
 * owned by B (objects: buffer.c, texture.c, sampler.c, renderbuffer.c,
 * framebuffer.c, vertex_array.c), gles_objects_get:
 *   GL_ARRAY_BUFFER_BINDING, GL_ELEMENT_ARRAY_BUFFER_BINDING,
 *   GL_VERTEX_ARRAY_BINDING, GL_COPY_READ_BUFFER_BINDING,
 *   GL_COPY_WRITE_BUFFER_BINDING, GL_PIXEL_PACK_BUFFER_BINDING,
 *   GL_PIXEL_UNPACK_BUFFER_BINDING, GL_TRANSFORM_FEEDBACK_BUFFER_BINDING
 *   and GL_UNIFORM_BUFFER_BINDING (generic and indexed),
 *   GL_TRANSFORM_FEEDBACK_BUFFER_START/SIZE and GL_UNIFORM_BUFFER_START/SIZE
 *   (indexed), GL_TEXTURE_BINDING_2D,
 *   GL_TEXTURE_BINDING_3D, GL_TEXTURE_BINDING_2D_ARRAY,
 *   GL_TEXTURE_BINDING_CUBE_MAP, GL_SAMPLER_BINDING, GL_RENDERBUFFER_BINDING,
 *   GL_DRAW_FRAMEBUFFER_BINDING (= GL_FRAMEBUFFER_BINDING),
 *   GL_READ_FRAMEBUFFER_BINDING, GL_READ_BUFFER, GL_DRAW_BUFFER0..15,
 *   GL_RED_BITS, GL_GREEN_BITS, GL_BLUE_BITS, GL_ALPHA_BITS, GL_DEPTH_BITS,
 *   GL_STENCIL_BITS, GL_SAMPLES, GL_SAMPLE_BUFFERS,
 *   GL_IMPLEMENTATION_COLOR_READ_FORMAT, GL_IMPLEMENTATION_COLOR_READ_TYPE,
 *   GL_NUM_COMPRESSED_TEXTURE_FORMATS, GL_COMPRESSED_TEXTURE_FORMATS
 *
 * owned by debug.c (KHR_debug), gles_debug_get:
 *   GL_MAX_DEBUG_MESSAGE_LENGTH_KHR, GL_MAX_DEBUG_LOGGED_MESSAGES_KHR,
 *   GL_MAX_DEBUG_GROUP_STACK_DEPTH_KHR, GL_MAX_LABEL_LENGTH_KHR,
 *   GL_DEBUG_LOGGED_MESSAGES_KHR, GL_DEBUG_NEXT_LOGGED_MESSAGE_LENGTH_KHR,
 *   GL_DEBUG_GROUP_STACK_DEPTH_KHR (and, through glIsEnabled's
 *   capabilities, GL_DEBUG_OUTPUT_KHR and GL_DEBUG_OUTPUT_SYNCHRONOUS_KHR)
 */
static gles_get_provider *const providers[] = {
	gles_state_get,	  gles_limits_get,   context_get,    gles_xfb_get,
	gles_objects_get, gles_programs_get, gles_debug_get,
};

bool gles_get_query(struct gles_context *ctx, GLenum pname, int index, struct gles_get_value *out)
{
	for (unsigned k = 0; k < sizeof(providers) / sizeof(providers[0]); k++) {
		out->count = 0;
		if (providers[k](ctx, pname, index, out))
			return true;
	}
	return false;
}

/* ---- the entry points -------------------------------------------------------------------- */

/* The value of pname, count 0 when there is nothing to write (the error recorded). */
static bool query(struct gles_context *ctx, GLenum pname, int index, struct gles_get_value *v)
{
	if (!gles_get_query(ctx, pname, index, v)) {
		gles_error(ctx, GL_INVALID_ENUM);
		return false;
	}
	return v->count > 0;
}

void gles_GetBooleanv(GLenum pname, GLboolean *data)
{
	struct gles_context *ctx = gles_current();
	struct gles_get_value v;

	if (!ctx || !query(ctx, pname, -1, &v) || !data)
		return;
	for (unsigned k = 0; k < v.count; k++)
		data[k] = gles_get_to_boolean(&v, k);
}

void gles_GetIntegerv(GLenum pname, GLint *data)
{
	struct gles_context *ctx = gles_current();
	struct gles_get_value v;

	if (!ctx || !query(ctx, pname, -1, &v) || !data)
		return;
	for (unsigned k = 0; k < v.count; k++)
		data[k] = gles_get_to_int(&v, k);
}

void gles_GetFloatv(GLenum pname, GLfloat *data)
{
	struct gles_context *ctx = gles_current();
	struct gles_get_value v;

	if (!ctx || !query(ctx, pname, -1, &v) || !data)
		return;
	for (unsigned k = 0; k < v.count; k++)
		data[k] = gles_get_to_float(&v, k);
}

void gles_GetInteger64v(GLenum pname, GLint64 *data)
{
	struct gles_context *ctx = gles_current();
	struct gles_get_value v;

	if (!ctx || !query(ctx, pname, -1, &v) || !data)
		return;
	for (unsigned k = 0; k < v.count; k++)
		data[k] = gles_get_to_int64(&v, k);
}

/*
 * The indexed forms: GLuint indices past INT_MAX are past every binding
 * point, so they go to the providers as INT_MAX, which is out of range
 * for all of them (GL_INVALID_VALUE, section 6.1.4).
 */
static int index_arg(GLuint index)
{
	return index > INT32_MAX ? INT32_MAX : (int)index;
}

void gles_GetIntegeri_v(GLenum target, GLuint index, GLint *data)
{
	struct gles_context *ctx = gles_current();
	struct gles_get_value v;

	if (!ctx || !query(ctx, target, index_arg(index), &v) || !data)
		return;
	for (unsigned k = 0; k < v.count; k++)
		data[k] = gles_get_to_int(&v, k);
}

void gles_GetInteger64i_v(GLenum target, GLuint index, GLint64 *data)
{
	struct gles_context *ctx = gles_current();
	struct gles_get_value v;

	if (!ctx || !query(ctx, target, index_arg(index), &v) || !data)
		return;
	for (unsigned k = 0; k < v.count; k++)
		data[k] = gles_get_to_int64(&v, k);
}

GLboolean gles_IsEnabled(GLenum cap)
{
	struct gles_context *ctx = gles_current();
	bool value;

	if (!ctx)
		return GL_FALSE;
	if (!gles_state_is_enabled(ctx, cap, &value)) {
		gles_error(ctx, GL_INVALID_ENUM);
		return GL_FALSE;
	}
	return value ? GL_TRUE : GL_FALSE;
}
