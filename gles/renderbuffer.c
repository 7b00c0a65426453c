/*
 * renderbuffer.c: renderbuffer objects (GLES 3.0.6 section 4.4.2.1):
 * shared names, the one binding point, storage (an image, linear for
 * colour and twiddled for depth, stencil and multisampled images, those
 * in their sample grid: image.h) or an EGLImage's (GL_OES_EGL_image),
 * EGLImages made of one (EGL_KHR_gl_renderbuffer_image), and its queries.
 */
#include <errno.h>
#include <stdlib.h>

#include "context.h"
#include "gl_functions.h"
#include "objects.h"

struct gles_renderbuffer *gles_renderbuffer_ref(struct gles_renderbuffer *r)
{
	if (r)
		__atomic_add_fetch(&r->refs, 1, __ATOMIC_RELAXED);
	return r;
}

void gles_renderbuffer_unref(struct gles_renderbuffer *r)
{
	if (!r || __atomic_sub_fetch(&r->refs, 1, __ATOMIC_ACQ_REL))
		return;
	gles_image_finish(&r->image);
	gles_image_finish(&r->stencil);
	gles_image_source_release(&r->egl);
	free(r->label);
	free(r);
}

void gles_GenRenderbuffers(GLsizei n, GLuint *renderbuffers)
{
	struct gles_context *ctx = gles_current();

	if (!ctx)
		return;
	if (n < 0) {
		gles_error(ctx, GL_INVALID_VALUE);
		return;
	}
	gles_objects_lock(ctx);
	if (gles_names_gen(&ctx->share->objects->renderbuffers, (unsigned)n, renderbuffers) < 0)
		gles_error(ctx, GL_OUT_OF_MEMORY);
	gles_objects_unlock(ctx);
}

void gles_BindRenderbuffer(GLenum target, GLuint renderbuffer)
{
	struct gles_context *ctx = gles_current();
	struct gles_names *names;
	struct gles_renderbuffer *r = NULL, *old;

	if (!ctx)
		return;
	if (target != GL_RENDERBUFFER) {
		gles_error(ctx, GL_INVALID_ENUM);
		return;
	}
	names = &ctx->share->objects->renderbuffers;
	gles_objects_lock(ctx);
	if (renderbuffer && !(r = gles_names_lookup(names, renderbuffer))) {
		/* section 4.4.2.1: binding an unused name makes the renderbuffer */
		r = calloc(1, sizeof(*r));
		if (!r || gles_names_set(names, renderbuffer, r) < 0) {
			free(r);
			gles_error(ctx, GL_OUT_OF_MEMORY);
			goto out;
		}
		r->refs = 1;
		r->name = renderbuffer;
		r->dev = ctx->dev;
		r->internalformat = GL_RGBA4;
	}
	old = ctx->objects->renderbuffer;
	ctx->objects->renderbuffer = gles_renderbuffer_ref(r);
	gles_renderbuffer_unref(old);
out:
	gles_objects_unlock(ctx);
}

GLboolean gles_IsRenderbuffer(GLuint renderbuffer)
{
	struct gles_context *ctx = gles_current();
	bool is;

	if (!ctx)
		return GL_FALSE;
	gles_objects_lock(ctx);
	is = gles_names_lookup(&ctx->share->objects->renderbuffers, renderbuffer) != NULL;
	gles_objects_unlock(ctx);
	return is ? GL_TRUE : GL_FALSE;
}

void gles_DeleteRenderbuffers(GLsizei n, const GLuint *renderbuffers)
{
	struct gles_context *ctx = gles_current();
	struct gles_names *names;

	if (!ctx)
		return;
	if (n < 0) {
		gles_error(ctx, GL_INVALID_VALUE);
		return;
	}
	names = &ctx->share->objects->renderbuffers;
	gles_objects_lock(ctx);
	for (GLsizei i = 0; i < n; i++) {
		struct gles_renderbuffer *r =
		    renderbuffers[i] ? gles_names_lookup(names, renderbuffers[i]) : NULL;

		if (!r) {
			if (renderbuffers[i])
				gles_names_remove(names, renderbuffers[i]);
			continue;
		}
		/* section 4.4.2.1: unbound first, and detached from the bound framebuffers */
		if (ctx->objects->renderbuffer == r) {
			ctx->objects->renderbuffer = NULL;
			gles_renderbuffer_unref(r);
		}
		gles_framebuffer_detach(ctx, NULL, r);
		gles_names_remove(names, renderbuffers[i]);
		gles_renderbuffer_unref(r);
	}
	gles_objects_unlock(ctx);
}

/* The sample counts the descriptors take: 2 or 4 (limits.h, GLES_MAX_SAMPLES). */
static unsigned samples_for(GLsizei samples)
{
	if (samples <= 0)
		return 0;
	return samples <= 2 ? 2 : 4;
}

static void storage(GLenum target, GLsizei samples, GLenum internalformat, GLsizei w, GLsizei h)
{
	struct gles_context *ctx = gles_current();
	const struct gles_format *f;
	struct gles_renderbuffer *r;
	struct gles_image img = { 0 }, stencil = { 0 };
	bool twiddled;
	unsigned n;
	int ret;

	if (!ctx)
		return;
	if (target != GL_RENDERBUFFER) {
		gles_error(ctx, GL_INVALID_ENUM);
		return;
	}
	/* section 4.4.2.1: a colour-, depth- or stencil-renderable sized format */
	f = gles_format_get(internalformat);
	if (!f || !(f->flags & GLES_FORMAT_RENDERBUFFER)) {
		gles_error(ctx, GL_INVALID_ENUM);
		return;
	}
	if (samples < 0 || w < 0 || h < 0 || w > GLES_MAX_RENDERBUFFER_SIZE ||
	    h > GLES_MAX_RENDERBUFFER_SIZE) {
		gles_error(ctx, GL_INVALID_VALUE);
		return;
	}
	/* more samples than the format has, and integer formats with any (section 4.4.2.1) */
	if (samples > GLES_MAX_SAMPLES ||
	    (samples > 0 && (f->component_type == GL_INT || (f->component_type == GL_UNSIGNED_INT &&
							     f->base != GL_STENCIL_INDEX8)))) {
		gles_error(ctx, GL_INVALID_OPERATION);
		return;
	}
	if (!(r = ctx->objects->renderbuffer)) {
		gles_error(ctx, GL_INVALID_OPERATION);
		return;
	}
	n = samples_for(samples);
	/*
	 * Colour linear, as the PBE writes it; depth and stencil twiddled, as
	 * the ZLS does; multisampled images twiddled, as the hardware keeps
	 * their sample grid (image.h).
	 */
	twiddled =
	    (f->flags & (GLES_FORMAT_DEPTH_RENDERABLE | GLES_FORMAT_STENCIL_RENDERABLE)) || n > 1;
	ret = gles_image_init(&img, r->dev, f->internalformat, f->hw, (unsigned)w, (unsigned)h, 1,
			      1, n, twiddled);
	if (ret == 0 && f->hw_stencil != AGX_FORMAT_NONE) {
		ret = gles_image_init(&stencil, r->dev, f->internalformat, f->hw_stencil,
				      (unsigned)w, (unsigned)h, 1, 1, n, twiddled);
		if (ret < 0)
			gles_image_finish(&img);
	}
	if (ret < 0) {
		gles_error(ctx, GL_OUT_OF_MEMORY);
		return;
	}
	gles_image_finish(&r->image);
	gles_image_finish(&r->stencil);
	/* no EGLImage target any more (OES_EGL_image) */
	gles_image_source_release(&r->egl);
	r->image = img;
	r->stencil = stencil;
	r->format = f;
	r->internalformat = internalformat;
	r->width = (unsigned)w;
	r->height = (unsigned)h;
	r->samples = n;
}

/*
 * GL_OES_EGL_image: the bound renderbuffer's storage becomes the image's,
 * until it is given storage again.  An image the GL cannot render to (a
 * format that is not renderable, another display's device) is
 * GL_INVALID_OPERATION, as is no bound renderbuffer (section 4.4.2.1).
 */
void gles_EGLImageTargetRenderbufferStorageOES(GLenum target, GLeglImageOES image)
{
	struct gles_context *ctx = gles_current();
	struct gles_image_source src;
	struct gles_renderbuffer *r;

	if (!ctx)
		return;
	if (target != GL_RENDERBUFFER) {
		gles_error(ctx, GL_INVALID_ENUM);
		return;
	}
	if (!gles_egl_image_source(image, &src)) {
		gles_error(ctx, GL_INVALID_VALUE);
		return;
	}
	r = ctx->objects->renderbuffer;
	if (!r || !(src.format->flags & GLES_FORMAT_RENDERBUFFER) || src.image->dev != r->dev) {
		gles_image_source_release(&src);
		gles_error(ctx, GL_INVALID_OPERATION);
		return;
	}
	gles_image_finish(&r->image);
	gles_image_finish(&r->stencil);
	gles_image_source_release(&r->egl);
	r->egl = src;
	r->format = src.format;
	r->internalformat = src.internalformat;
	r->width = src.width;
	r->height = src.height;
	r->samples = 0;
}

/* A heap image that takes over an embedded one's BO (the embedded one is left empty). */
static struct gles_image *move_to_heap(struct gles_image *img)
{
	struct gles_image *heap;

	if (!img->bo.size)
		return NULL;
	heap = malloc(sizeof(*heap));
	if (!heap)
		return NULL;
	*heap = *img;
	heap->refs = 1;
	*img = (struct gles_image){ 0 };
	return heap;
}

/*
 * The renderbuffer's own storage becomes shared, as a target's is: its
 * images move to the heap, where the renderbuffer and the EGLImage each
 * hold a reference, so that the storage outlives whichever goes first.
 */
static int share_storage(struct gles_renderbuffer *r)
{
	struct gles_image *img, *stencil = NULL;

	if (!(img = move_to_heap(&r->image)))
		return -ENOMEM;
	if (r->stencil.bo.size && !(stencil = move_to_heap(&r->stencil))) {
		r->image = *img;
		free(img);
		return -ENOMEM;
	}
	r->egl = (struct gles_image_source){
		.image = img,
		.stencil = stencil,
		.format = r->format,
		.internalformat = r->internalformat,
		.width = r->width,
		.height = r->height,
	};
	return 0;
}

int gles_renderbuffer_image_source(struct gles_share_group *group, GLuint name,
				   struct gles_image_source *out)
{
	struct gles_renderbuffer *r = NULL;
	int ret;

	pthread_mutex_lock(&group->objects->lock);
	if (name)
		r = gles_names_lookup(&group->objects->renderbuffers, name);
	if (!r || r->samples || (!r->egl.image && !r->image.bo.size))
		ret = -ENOENT; /* none, multisampled, or without storage */
	else if (r->egl.image)
		ret = -EBUSY; /* an image's source or target already */
	else
		ret = share_storage(r);
	if (ret == 0) {
		*out = r->egl;
		gles_image_ref(out->image);
		gles_image_ref(out->stencil);
	}
	pthread_mutex_unlock(&group->objects->lock);
	return ret;
}

void gles_RenderbufferStorage(GLenum target, GLenum internalformat, GLsizei width, GLsizei height)
{
	storage(target, 0, internalformat, width, height);
}

void gles_RenderbufferStorageMultisample(GLenum target, GLsizei samples, GLenum internalformat,
					 GLsizei width, GLsizei height)
{
	storage(target, samples, internalformat, width, height);
}

void gles_GetRenderbufferParameteriv(GLenum target, GLenum pname, GLint *params)
{
	struct gles_context *ctx = gles_current();
	struct gles_renderbuffer *r;
	const struct gles_format *f;
	GLint v;

	if (!ctx)
		return;
	if (target != GL_RENDERBUFFER) {
		gles_error(ctx, GL_INVALID_ENUM);
		return;
	}
	if (!(r = ctx->objects->renderbuffer)) {
		gles_error(ctx, GL_INVALID_OPERATION);
		return;
	}
	f = r->format;
	switch (pname) {
	case GL_RENDERBUFFER_WIDTH:
		v = (GLint)r->width;
		break;
	case GL_RENDERBUFFER_HEIGHT:
		v = (GLint)r->height;
		break;
	case GL_RENDERBUFFER_INTERNAL_FORMAT:
		v = (GLint)r->internalformat;
		break;
	case GL_RENDERBUFFER_RED_SIZE:
		v = f ? f->red : 0;
		break;
	case GL_RENDERBUFFER_GREEN_SIZE:
		v = f ? f->green : 0;
		break;
	case GL_RENDERBUFFER_BLUE_SIZE:
		v = f ? f->blue : 0;
		break;
	case GL_RENDERBUFFER_ALPHA_SIZE:
		v = f ? f->alpha : 0;
		break;
	case GL_RENDERBUFFER_DEPTH_SIZE:
		v = f ? f->depth : 0;
		break;
	case GL_RENDERBUFFER_STENCIL_SIZE:
		v = f ? f->stencil : 0;
		break;
	case GL_RENDERBUFFER_SAMPLES:
		v = (GLint)r->samples;
		break;
	default:
		gles_error(ctx, GL_INVALID_ENUM);
		return;
	}
	if (params)
		*params = v;
}

/*
 * GLES 3.0.6 section 6.1.15: the sample counts a renderbuffer format takes,
 * most first -- 4 and 2 (the descriptors' counts, limits.h), none for
 * integer formats (section 4.4.2.1 refuses them any samples).
 */
void gles_GetInternalformativ(GLenum target, GLenum internalformat, GLenum pname, GLsizei bufSize,
			      GLint *params)
{
	struct gles_context *ctx = gles_current();
	const struct gles_format *f;
	static const GLint counts[] = { 4, 2 };
	GLint n;

	if (!ctx)
		return;
	f = gles_format_get(internalformat);
	if (target != GL_RENDERBUFFER || !f || !(f->flags & GLES_FORMAT_RENDERBUFFER) ||
	    (pname != GL_NUM_SAMPLE_COUNTS && pname != GL_SAMPLES)) {
		gles_error(ctx, GL_INVALID_ENUM);
		return;
	}
	if (bufSize < 0) {
		gles_error(ctx, GL_INVALID_VALUE);
		return;
	}
	n = f->component_type == GL_INT ||
		    (f->component_type == GL_UNSIGNED_INT && f->base != GL_STENCIL_INDEX8)
		? 0
		: 2;
	if (!params)
		return;
	if (pname == GL_NUM_SAMPLE_COUNTS) {
		if (bufSize > 0)
			params[0] = n;
		return;
	}
	for (GLint i = 0; i < n && i < bufSize; i++)
		params[i] = counts[i];
}
