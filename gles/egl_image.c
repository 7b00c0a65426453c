/*
 * egl_image.c: EGLImages (EGL 1.5 section 3.9, EGL_KHR_image_base) of GL
 * textures (EGL_KHR_gl_texture_2D_image) and renderbuffers
 * (EGL_KHR_gl_renderbuffer_image) -- eglCreateImage and
 * eglDestroyImage, their *KHR forms (EGLint attributes; libEGL reaches
 * them through egl_main.c's dispatch stubs) -- and what GL_OES_EGL_image's
 * target functions (texture.c, renderbuffer.c) look an image up with.
 *
 * An EGLImage holds a reference to the image (image.h) its source level
 * lives in; the source and every target point at that same storage, so
 * each sees what the others render or upload (the application orders
 * the accesses, with fences or glFinish, as for any shared object).
 * Images are on their display's list while their handles are valid;
 * eglTerminate ends them, and their storage goes with the last sibling.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>

#include "context.h"
#include "egl_agx.h"
#include "objects.h"

struct gles_egl_image {
	struct gles_egl_image *next; /* on its display's list while its handle is valid */
	struct gles_image_source src;
};

void gles_image_source_release(struct gles_image_source *src)
{
	gles_image_unref(src->image);
	gles_image_unref(src->stencil);
	*src = (struct gles_image_source){ 0 };
}

void gles_egl_images_terminate(struct gles_display *dpy)
{
	while (dpy->images) {
		struct gles_egl_image *img = dpy->images;

		dpy->images = img->next;
		gles_image_source_release(&img->src);
		free(img);
	}
}

bool gles_egl_image_source(void *handle, struct gles_image_source *out)
{
	struct gles_display *dpy;
	bool found = false;

	gles_egl_lock();
	for (unsigned i = 0; !found && (dpy = gles_egl_display_at(i)); i++) {
		for (struct gles_egl_image *img = dpy->images; img; img = img->next) {
			if ((void *)img != handle)
				continue;
			*out = img->src;
			gles_image_ref(out->image);
			gles_image_ref(out->stencil);
			found = true;
			break;
		}
	}
	gles_egl_unlock();
	return found;
}

/* The attributes either form takes: a level, and whether to keep the texels (we always do). */
static bool parse_attrib(EGLAttrib name, EGLAttrib value, EGLAttrib *level)
{
	switch (name) {
	case EGL_GL_TEXTURE_LEVEL:
		*level = value;
		return true;
	case EGL_IMAGE_PRESERVED:
		return value == EGL_TRUE || value == EGL_FALSE;
	default:
		return false;
	}
}

/* The GL targets: which object of a context's share group the image is made of. */
static bool is_gl_target(EGLenum target)
{
	return target == EGL_GL_TEXTURE_2D || target == EGL_GL_RENDERBUFFER;
}

/* The EGL error of a source lookup's -errno (objects.h). */
static EGLint source_error(int ret)
{
	return ret == -ERANGE	? EGL_BAD_MATCH
	       : ret == -EBUSY	? EGL_BAD_ACCESS
	       : ret == -ENOENT ? EGL_BAD_PARAMETER
				: EGL_BAD_ALLOC;
}

/* img on dpy's list, its handle valid from now on. */
static EGLImage add_image(struct gles_display *dpy, struct gles_egl_image *img)
{
	gles_egl_lock();
	img->next = dpy->images;
	dpy->images = img;
	gles_egl_unlock();
	return (EGLImage)img;
}

/*
 * Section 3.9.1 for the GL targets: EGL_GL_TEXTURE_2D, a level of a 2D
 * texture, and EGL_GL_RENDERBUFFER (EGL_KHR_gl_renderbuffer_image), from
 * ctx's share group.  Their attributes are those of parse_attrib; the
 * level means nothing to a renderbuffer, and is ignored there.
 */
static EGLImage create_gl_image(struct gles_display *dpy, EGLContext ctx, EGLenum target,
				EGLClientBuffer buffer, const EGLAttrib *attribs,
				const EGLint *int_attribs)
{
	struct gles_egl_context *c = NULL;
	struct gles_share_group *group = NULL;
	struct gles_egl_image *img = NULL;
	EGLAttrib level = 0;
	EGLint err;
	int ret;

	/* a GL target needs a context of dpy: its share group holds the object */
	gles_egl_lock();
	for (c = dpy->contexts; c && (EGLContext)c != ctx; c = c->next)
		;
	/* the group outlives the context, which another thread may destroy meanwhile */
	if (c)
		group = gles_share_group_ref(c->gl->share);
	gles_egl_unlock();
	if (!c) {
		err = EGL_BAD_CONTEXT;
		goto fail;
	}
	for (unsigned i = 0; attribs && attribs[i] != EGL_NONE; i += 2)
		if (!parse_attrib(attribs[i], attribs[i + 1], &level)) {
			err = EGL_BAD_PARAMETER;
			goto fail;
		}
	for (unsigned i = 0; int_attribs && int_attribs[i] != EGL_NONE; i += 2)
		if (!parse_attrib(int_attribs[i], int_attribs[i + 1], &level)) {
			err = EGL_BAD_PARAMETER;
			goto fail;
		}
	if ((uintptr_t)buffer > UINT32_MAX) {
		err = EGL_BAD_PARAMETER;
		goto fail;
	}
	/* before the source: an object made a sibling stays one */
	if (!(img = calloc(1, sizeof(*img)))) {
		err = EGL_BAD_ALLOC;
		goto fail;
	}
	if (target == EGL_GL_RENDERBUFFER)
		ret = gles_renderbuffer_image_source(group, (GLuint)(uintptr_t)buffer, &img->src);
	else if (level < 0 || level > INT32_MAX)
		ret = -ERANGE;
	else
		ret = gles_texture_image_source(group, (GLuint)(uintptr_t)buffer, (GLint)level,
						&img->src);
	if (ret < 0) {
		err = source_error(ret);
		goto fail;
	}
	gles_share_group_unref(group);
	gles_egl_error(EGL_SUCCESS);
	return add_image(dpy, img);

fail:
	free(img);
	gles_share_group_unref(group);
	gles_egl_error(err);
	return EGL_NO_IMAGE;
}

/*
 * Section 3.9.1: the targets implemented are the GL ones above; every
 * other (cube map faces, 3D textures, native pixmaps ...) is
 * EGL_BAD_PARAMETER.
 */
static EGLImage create_image(EGLDisplay handle, EGLContext ctx, EGLenum target,
			     EGLClientBuffer buffer, const EGLAttrib *attribs,
			     const EGLint *int_attribs)
{
	struct gles_display *dpy;

	gles_egl_lock();
	dpy = gles_egl_display(handle, true);
	gles_egl_unlock();
	if (!dpy)
		return EGL_NO_IMAGE;
	if (is_gl_target(target))
		return create_gl_image(dpy, ctx, target, buffer, attribs, int_attribs);
	gles_egl_error(EGL_BAD_PARAMETER);
	return EGL_NO_IMAGE;
}

EGLImage gles_egl_create_image(EGLDisplay dpy, EGLContext ctx, EGLenum target,
			       EGLClientBuffer buffer, const EGLAttrib *attribs)
{
	return create_image(dpy, ctx, target, buffer, attribs, NULL);
}

EGLImageKHR gles_egl_create_image_khr(EGLDisplay dpy, EGLContext ctx, EGLenum target,
				      EGLClientBuffer buffer, const EGLint *attribs)
{
	return create_image(dpy, ctx, target, buffer, NULL, attribs);
}

/* The handle goes at once; the storage lives on in the image's siblings. */
EGLBoolean gles_egl_destroy_image(EGLDisplay handle, EGLImage image)
{
	struct gles_display *dpy;
	struct gles_egl_image *img, **at;

	gles_egl_lock();
	if (!(dpy = gles_egl_display(handle, true))) {
		gles_egl_unlock();
		return EGL_FALSE;
	}
	for (at = &dpy->images; *at && (EGLImage)*at != image; at = &(*at)->next)
		;
	if (!(img = *at)) {
		gles_egl_unlock();
		return gles_egl_error(EGL_BAD_PARAMETER);
	}
	*at = img->next;
	gles_egl_unlock();
	gles_image_source_release(&img->src);
	free(img);
	gles_egl_error(EGL_SUCCESS);
	return EGL_TRUE;
}
