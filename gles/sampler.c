/*
 * sampler.c: sampler objects (GLES 3.0.6 section 3.8.2): shared names,
 * one binding per texture unit, the sampling parameters (which textures
 * have too: texture.c's gles_sampler_state_*).
 */
#include <math.h>
#include <stdlib.h>

#include "context.h"
#include "gl_functions.h"
#include "objects.h"

struct gles_sampler *gles_sampler_ref(struct gles_sampler *s)
{
	if (s)
		__atomic_add_fetch(&s->refs, 1, __ATOMIC_RELAXED);
	return s;
}

void gles_sampler_unref(struct gles_sampler *s)
{
	if (s && !__atomic_sub_fetch(&s->refs, 1, __ATOMIC_ACQ_REL)) {
		free(s->label);
		free(s);
	}
}

/*
 * Section 3.8.2: the names GenSamplers returns acquire their state on
 * first use -- in any of the sampler functions, IsSampler included -- so
 * they are made at once: a name from GenSamplers is always a sampler.
 */
void gles_GenSamplers(GLsizei count, GLuint *samplers)
{
	struct gles_context *ctx = gles_current();
	struct gles_names *names;

	if (!ctx)
		return;
	if (count < 0) {
		gles_error(ctx, GL_INVALID_VALUE);
		return;
	}
	names = &ctx->share->objects->samplers;
	gles_objects_lock(ctx);
	if (gles_names_gen(names, (unsigned)count, samplers) < 0) {
		gles_error(ctx, GL_OUT_OF_MEMORY);
		goto out;
	}
	for (GLsizei i = 0; i < count; i++) {
		struct gles_sampler *s = calloc(1, sizeof(*s));

		if (!s || gles_names_set(names, samplers[i], s) < 0) {
			free(s);
			/* the names not made yet are given back */
			for (GLsizei k = i; k < count; k++)
				gles_names_remove(names, samplers[k]);
			gles_error(ctx, GL_OUT_OF_MEMORY);
			goto out;
		}
		s->refs = 1;
		s->name = samplers[i];
		gles_sampler_state_init(&s->state);
	}
out:
	gles_objects_unlock(ctx);
}

GLboolean gles_IsSampler(GLuint sampler)
{
	struct gles_context *ctx = gles_current();
	bool is;

	if (!ctx)
		return GL_FALSE;
	gles_objects_lock(ctx);
	is = gles_names_lookup(&ctx->share->objects->samplers, sampler) != NULL;
	gles_objects_unlock(ctx);
	return is ? GL_TRUE : GL_FALSE;
}

void gles_BindSampler(GLuint unit, GLuint sampler)
{
	struct gles_context *ctx = gles_current();
	struct gles_sampler *s = NULL, *old;

	if (!ctx)
		return;
	if (unit >= GLES_MAX_TEXTURE_UNITS) {
		gles_error(ctx, GL_INVALID_VALUE);
		return;
	}
	gles_objects_lock(ctx);
	if (sampler && !(s = gles_names_lookup(&ctx->share->objects->samplers, sampler))) {
		gles_error(ctx, GL_INVALID_OPERATION);
	} else {
		old = ctx->objects->samplers[unit];
		ctx->objects->samplers[unit] = gles_sampler_ref(s);
		gles_sampler_unref(old);
	}
	gles_objects_unlock(ctx);
}

void gles_DeleteSamplers(GLsizei count, const GLuint *samplers)
{
	struct gles_context *ctx = gles_current();

	if (!ctx)
		return;
	if (count < 0) {
		gles_error(ctx, GL_INVALID_VALUE);
		return;
	}
	gles_objects_lock(ctx);
	for (GLsizei i = 0; i < count; i++) {
		struct gles_sampler *s =
		    samplers[i] ? gles_names_lookup(&ctx->share->objects->samplers, samplers[i])
				: NULL;

		if (!s)
			continue;
		/* section 3.8.2: units of the current context bound to it go back to 0 */
		for (unsigned u = 0; u < GLES_MAX_TEXTURE_UNITS; u++) {
			if (ctx->objects->samplers[u] == s) {
				ctx->objects->samplers[u] = NULL;
				gles_sampler_unref(s);
			}
		}
		gles_names_remove(&ctx->share->objects->samplers, samplers[i]);
		gles_sampler_unref(s);
	}
	gles_objects_unlock(ctx);
}

/* The sampler named sampler, NULL with GL_INVALID_OPERATION.  Takes the lock on success. */
static struct gles_sampler *lookup(struct gles_context *ctx, GLuint sampler)
{
	struct gles_sampler *s;

	gles_objects_lock(ctx);
	s = gles_names_lookup(&ctx->share->objects->samplers, sampler);
	if (!s) {
		gles_objects_unlock(ctx);
		gles_error(ctx, GL_INVALID_OPERATION);
	}
	return s;
}

static void parameter(GLuint sampler, GLenum pname, GLint i, GLfloat f, bool is_float)
{
	struct gles_context *ctx = gles_current();
	struct gles_sampler *s;

	if (!ctx || !(s = lookup(ctx, sampler)))
		return;
	if (!gles_sampler_state_set(ctx, &s->state, pname, i, f, is_float))
		gles_error(ctx, GL_INVALID_ENUM);
	gles_objects_unlock(ctx);
}

void gles_SamplerParameteri(GLuint sampler, GLenum pname, GLint param)
{
	parameter(sampler, pname, param, 0, false);
}

void gles_SamplerParameterf(GLuint sampler, GLenum pname, GLfloat param)
{
	parameter(sampler, pname, 0, param, true);
}

void gles_SamplerParameteriv(GLuint sampler, GLenum pname, const GLint *param)
{
	parameter(sampler, pname, param ? param[0] : 0, 0, false);
}

void gles_SamplerParameterfv(GLuint sampler, GLenum pname, const GLfloat *param)
{
	parameter(sampler, pname, 0, param ? param[0] : 0, true);
}

static bool get_parameter(GLuint sampler, GLenum pname, GLint *i, GLfloat *f, bool *is_float)
{
	struct gles_context *ctx = gles_current();
	struct gles_sampler *s;
	bool ok;

	if (!ctx || !(s = lookup(ctx, sampler)))
		return false;
	ok = gles_sampler_state_get(&s->state, pname, i, f, is_float);
	gles_objects_unlock(ctx);
	if (!ok)
		gles_error(ctx, GL_INVALID_ENUM);
	return ok;
}

void gles_GetSamplerParameteriv(GLuint sampler, GLenum pname, GLint *params)
{
	GLint i = 0;
	GLfloat f = 0;
	bool is_float;

	if (get_parameter(sampler, pname, &i, &f, &is_float) && params)
		*params = is_float ? (GLint)lroundf(f) : i;
}

void gles_GetSamplerParameterfv(GLuint sampler, GLenum pname, GLfloat *params)
{
	GLint i = 0;
	GLfloat f = 0;
	bool is_float;

	if (get_parameter(sampler, pname, &i, &f, &is_float) && params)
		*params = is_float ? f : (GLfloat)i;
}
