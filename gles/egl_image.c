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
#include <fcntl.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <unistd.h>

#include <drm_fourcc.h>

#include "context.h"
#include "egl_agx.h"
#include "formats.h"
#include "image.h"
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

/* ---- dma-bufs (EGL_EXT_image_dma_buf_import, _modifiers) --------------------------------- */

/* What an EGL_LINUX_DMA_BUF_EXT attribute list says; have: a bit per attribute given. */
struct dma_buf_attribs {
	EGLAttrib width, height, fourcc, fd, offset, pitch, mod_lo, mod_hi;
	unsigned have;
	bool other_planes; /* a PLANE1..3 attribute */
};

enum {
	HAVE_WIDTH = 1 << 0,
	HAVE_HEIGHT = 1 << 1,
	HAVE_FOURCC = 1 << 2,
	HAVE_FD = 1 << 3,
	HAVE_OFFSET = 1 << 4,
	HAVE_PITCH = 1 << 5,
	HAVE_MOD_LO = 1 << 6,
	HAVE_MOD_HI = 1 << 7,
	HAVE_REQUIRED = (1 << 6) - 1,
};

static bool is_other_plane(EGLAttrib name)
{
	switch (name) {
	case EGL_DMA_BUF_PLANE1_FD_EXT:
	case EGL_DMA_BUF_PLANE1_OFFSET_EXT:
	case EGL_DMA_BUF_PLANE1_PITCH_EXT:
	case EGL_DMA_BUF_PLANE2_FD_EXT:
	case EGL_DMA_BUF_PLANE2_OFFSET_EXT:
	case EGL_DMA_BUF_PLANE2_PITCH_EXT:
	case EGL_DMA_BUF_PLANE3_FD_EXT:
	case EGL_DMA_BUF_PLANE3_OFFSET_EXT:
	case EGL_DMA_BUF_PLANE3_PITCH_EXT:
	case EGL_DMA_BUF_PLANE1_MODIFIER_LO_EXT:
	case EGL_DMA_BUF_PLANE1_MODIFIER_HI_EXT:
	case EGL_DMA_BUF_PLANE2_MODIFIER_LO_EXT:
	case EGL_DMA_BUF_PLANE2_MODIFIER_HI_EXT:
	case EGL_DMA_BUF_PLANE3_MODIFIER_LO_EXT:
	case EGL_DMA_BUF_PLANE3_MODIFIER_HI_EXT:
		return true;
	default:
		return false;
	}
}

/*
 * One attribute: EGL_SUCCESS, EGL_BAD_ATTRIBUTE for a hint's value the
 * extension does not list (hints mean nothing to RGB formats, which are
 * all we take), EGL_BAD_PARAMETER for an attribute of no dma-buf image.
 */
static EGLint dma_buf_attrib(struct dma_buf_attribs *a, EGLAttrib name, EGLAttrib value)
{
	static const struct {
		EGLAttrib name;
		unsigned bit;
		size_t at;
	} fields[] = {
		{ EGL_WIDTH, HAVE_WIDTH, offsetof(struct dma_buf_attribs, width) },
		{ EGL_HEIGHT, HAVE_HEIGHT, offsetof(struct dma_buf_attribs, height) },
		{ EGL_LINUX_DRM_FOURCC_EXT, HAVE_FOURCC, offsetof(struct dma_buf_attribs, fourcc) },
		{ EGL_DMA_BUF_PLANE0_FD_EXT, HAVE_FD, offsetof(struct dma_buf_attribs, fd) },
		{ EGL_DMA_BUF_PLANE0_OFFSET_EXT, HAVE_OFFSET,
		  offsetof(struct dma_buf_attribs, offset) },
		{ EGL_DMA_BUF_PLANE0_PITCH_EXT, HAVE_PITCH,
		  offsetof(struct dma_buf_attribs, pitch) },
		{ EGL_DMA_BUF_PLANE0_MODIFIER_LO_EXT, HAVE_MOD_LO,
		  offsetof(struct dma_buf_attribs, mod_lo) },
		{ EGL_DMA_BUF_PLANE0_MODIFIER_HI_EXT, HAVE_MOD_HI,
		  offsetof(struct dma_buf_attribs, mod_hi) },
	};

	for (unsigned i = 0; i < sizeof(fields) / sizeof(fields[0]); i++)
		if (fields[i].name == name) {
			*(EGLAttrib *)((char *)a + fields[i].at) = value;
			a->have |= fields[i].bit;
			return EGL_SUCCESS;
		}
	if (is_other_plane(name)) {
		a->other_planes = true;
		return EGL_SUCCESS;
	}
	switch (name) {
	case EGL_YUV_COLOR_SPACE_HINT_EXT:
		return value == EGL_ITU_REC601_EXT || value == EGL_ITU_REC709_EXT ||
			       value == EGL_ITU_REC2020_EXT
			   ? EGL_SUCCESS
			   : EGL_BAD_ATTRIBUTE;
	case EGL_SAMPLE_RANGE_HINT_EXT:
		return value == EGL_YUV_FULL_RANGE_EXT || value == EGL_YUV_NARROW_RANGE_EXT
			   ? EGL_SUCCESS
			   : EGL_BAD_ATTRIBUTE;
	case EGL_YUV_CHROMA_HORIZONTAL_SITING_HINT_EXT:
	case EGL_YUV_CHROMA_VERTICAL_SITING_HINT_EXT:
		return value == EGL_YUV_CHROMA_SITING_0_EXT ||
			       value == EGL_YUV_CHROMA_SITING_0_5_EXT
			   ? EGL_SUCCESS
			   : EGL_BAD_ATTRIBUTE;
	case EGL_IMAGE_PRESERVED:
		return value == EGL_TRUE || value == EGL_FALSE ? EGL_SUCCESS : EGL_BAD_PARAMETER;
	default:
		return EGL_BAD_PARAMETER;
	}
}

/*
 * The extensions' errors, in their order, for what the attributes say
 * of the image: an incomplete list or a modifier half given is
 * EGL_BAD_PARAMETER, a format we do not take or a modifier other than
 * linear EGL_BAD_MATCH, a second plane of our single-plane formats
 * EGL_BAD_ATTRIBUTE.
 */
static EGLint dma_buf_check(const struct dma_buf_attribs *a, const struct gles_format **format)
{
	uint64_t modifier;

	if ((a->have & HAVE_REQUIRED) != HAVE_REQUIRED ||
	    !(a->have & HAVE_MOD_LO) != !(a->have & HAVE_MOD_HI))
		return EGL_BAD_PARAMETER;
	if (a->fourcc < 0 || a->fourcc > UINT32_MAX ||
	    !(*format = gles_format_of_fourcc((uint32_t)a->fourcc)))
		return EGL_BAD_MATCH;
	modifier = (uint64_t)(uint32_t)a->mod_hi << 32 | (uint32_t)a->mod_lo;
	if ((a->have & HAVE_MOD_LO) && modifier != DRM_FORMAT_MOD_LINEAR)
		return EGL_BAD_MATCH;
	if (a->other_planes)
		return EGL_BAD_ATTRIBUTE;
	if (a->width <= 0 || a->height <= 0 || a->width > GLES_MAX_TEXTURE_SIZE ||
	    a->height > GLES_MAX_TEXTURE_SIZE || a->fd < 0 || a->fd > INT32_MAX)
		return EGL_BAD_PARAMETER;
	return EGL_SUCCESS;
}

/*
 * The image over the dma-buf: a linear layout of the given pitch at the
 * given offset of the fd's BO.  The texture unit and the PBE take rows
 * and a start 16-byte aligned (docs/control-streams.md); another pitch
 * or offset, or one that puts the image past the buffer's end, is one
 * EGL does not support, EGL_BAD_ACCESS.  An fd memmgr cannot take as a
 * BO (no memfd, agx-memmgr's BO_IMPORT_FD) is EGL_BAD_PARAMETER.
 */
static EGLint dma_buf_image(struct agx_device *dev, const struct dma_buf_attribs *a,
			    const struct gles_format *f, struct gles_image **out)
{
	const struct agx_format_info *info = agx_format_info(f->hw);
	uint64_t w = (uint64_t)a->width, h = (uint64_t)a->height;
	struct gles_image *img;
	struct agx_bo bo;
	int ret;

	if (a->pitch <= 0 || a->offset < 0 || a->pitch % 16 || a->offset % 16 ||
	    (uint64_t)a->pitch < w * info->bytes)
		return EGL_BAD_ACCESS;
	if (!(img = calloc(1, sizeof(*img))))
		return EGL_BAD_ALLOC;
	ret = agx_device_bo_import_fd(dev, (int)a->fd, &bo);
	if (ret < 0) {
		free(img);
		return ret == -ENOMEM || ret == -EDQUOT ? EGL_BAD_ALLOC : EGL_BAD_PARAMETER;
	}
	*img = (struct gles_image){
		.refs = 1,
		.dev = dev,
		.bo = bo,
		.format = f->hw,
		.internalformat = f->internalformat,
		.width = (unsigned)w,
		.height = (unsigned)h,
		.depth = 1,
		.levels = 1,
		.layers = 1,
		.offset = (uint64_t)a->offset,
		.layout = { .bytes_per_texel = info->bytes,
			    .block_w = 1,
			    .block_h = 1,
			    .width = (unsigned)w,
			    .height = (unsigned)h,
			    .levels = 1,
			    .stride = (uint64_t)a->pitch },
	};
	if (!agx_layout_init(&img->layout) ||
	    (uint64_t)a->offset + (uint64_t)a->pitch * (h - 1) + w * info->bytes > bo.size) {
		gles_image_unref(img);
		return EGL_BAD_ACCESS;
	}
	*out = img;
	return EGL_SUCCESS;
}

/*
 * EGL_LINUX_DMA_BUF_EXT: no context and no buffer; the image from the
 * attributes.  The fd stays the application's: the image holds its own
 * (the BO's memfd, from memmgr).
 */
static EGLImage create_dma_buf_image(struct gles_display *dpy, EGLContext ctx,
				     EGLClientBuffer buffer, const EGLAttrib *attribs,
				     const EGLint *int_attribs)
{
	struct dma_buf_attribs a = { 0 };
	const struct gles_format *f = NULL;
	struct gles_egl_image *img = NULL;
	struct gles_image *image = NULL;
	struct agx_device *dev = NULL;
	EGLint err = EGL_SUCCESS;

	if (ctx != EGL_NO_CONTEXT || buffer) {
		gles_egl_error(EGL_BAD_PARAMETER);
		return EGL_NO_IMAGE;
	}
	for (unsigned i = 0; err == EGL_SUCCESS && attribs && attribs[i] != EGL_NONE; i += 2)
		err = dma_buf_attrib(&a, attribs[i], attribs[i + 1]);
	for (unsigned i = 0; err == EGL_SUCCESS && int_attribs && int_attribs[i] != EGL_NONE;
	     i += 2)
		err = dma_buf_attrib(&a, int_attribs[i], int_attribs[i + 1]);
	if (err == EGL_SUCCESS)
		err = dma_buf_check(&a, &f);
	if (err == EGL_SUCCESS) {
		gles_egl_lock();
		dev = dpy->dev ? dpy->dev->agx : NULL;
		gles_egl_unlock();
		err = dev ? dma_buf_image(dev, &a, f, &image) : EGL_BAD_DISPLAY;
	}
	if (err == EGL_SUCCESS && !(img = calloc(1, sizeof(*img)))) {
		gles_image_unref(image);
		err = EGL_BAD_ALLOC;
	}
	if (err != EGL_SUCCESS) {
		gles_egl_error(err);
		return EGL_NO_IMAGE;
	}
	img->src = (struct gles_image_source){
		.image = image,
		.format = f,
		.internalformat = f->internalformat,
		.width = image->width,
		.height = image->height,
	};
	gles_egl_error(EGL_SUCCESS);
	return add_image(dpy, img);
}

EGLBoolean gles_egl_query_dma_buf_formats(EGLDisplay handle, EGLint max_formats, EGLint *formats,
					  EGLint *num_formats)
{
	uint32_t list[16];
	unsigned n;

	gles_egl_lock();
	if (!gles_egl_display(handle, true)) {
		gles_egl_unlock();
		return EGL_FALSE;
	}
	gles_egl_unlock();
	if (max_formats < 0 || (max_formats > 0 && !formats) || !num_formats)
		return gles_egl_error(EGL_BAD_PARAMETER);
	n = gles_format_fourccs(list, sizeof(list) / sizeof(list[0]));
	*num_formats = (EGLint)n;
	for (unsigned i = 0; i < n && i < (unsigned)max_formats; i++)
		formats[i] = (EGLint)list[i];
	if ((unsigned)max_formats < n && max_formats > 0)
		*num_formats = max_formats;
	gles_egl_error(EGL_SUCCESS);
	return EGL_TRUE;
}

/* Every format has one modifier, linear, and none is for external textures only. */
EGLBoolean gles_egl_query_dma_buf_modifiers(EGLDisplay handle, EGLint format, EGLint max_modifiers,
					    EGLuint64KHR *modifiers, EGLBoolean *external_only,
					    EGLint *num_modifiers)
{
	gles_egl_lock();
	if (!gles_egl_display(handle, true)) {
		gles_egl_unlock();
		return EGL_FALSE;
	}
	gles_egl_unlock();
	if (max_modifiers < 0 || (max_modifiers > 0 && !modifiers) || !num_modifiers ||
	    !gles_format_of_fourcc((uint32_t)format))
		return gles_egl_error(EGL_BAD_PARAMETER);
	*num_modifiers = 1;
	if (max_modifiers > 0) {
		modifiers[0] = DRM_FORMAT_MOD_LINEAR;
		if (external_only)
			external_only[0] = EGL_FALSE;
	}
	gles_egl_error(EGL_SUCCESS);
	return EGL_TRUE;
}

/* ---- export (EGL_MESA_image_dma_buf_export) --------------------------------------------- */

/*
 * What an image of dpy exports as: its fourcc, and its BO's memfd, pitch
 * and offset.  Only a linear image of a DRM format can be: a dma-buf
 * import, a colour renderbuffer, a texture's only level (made linear when
 * it became the image's, texture.c); a twiddled one (a level of a mip
 * chain, a depth format) has no layout another driver knows, and is
 * EGL_BAD_MATCH, as is a format of no fourcc.  An image of no display of
 * ours is EGL_BAD_PARAMETER.
 */
static bool export_of(EGLDisplay handle, EGLImage image, uint32_t *fourcc, int *fd, EGLint *stride,
		      EGLint *offset)
{
	const struct gles_image *im = NULL;
	struct gles_display *dpy;
	uint64_t at = 0;
	EGLint err = EGL_SUCCESS;

	gles_egl_lock();
	if (!(dpy = gles_egl_display(handle, true))) {
		gles_egl_unlock();
		return false;
	}
	for (struct gles_egl_image *img = dpy->images; img; img = img->next)
		if ((EGLImage)img == image)
			im = img->src.image;
	if (!im)
		err = EGL_BAD_PARAMETER;
	else if (im->layout.twiddled || !(*fourcc = gles_format_fourcc(im->format)) ||
		 im->layout.stride > INT32_MAX || im->offset > INT32_MAX)
		err = EGL_BAD_MATCH;
	if (err == EGL_SUCCESS) {
		*stride = (EGLint)im->layout.stride;
		at = im->offset;
		*offset = (EGLint)at;
		/* the application's own fd of the memory, as a dma-buf export gives */
		if (fd && (*fd = fcntl(im->bo.fd, F_DUPFD_CLOEXEC, 0)) < 0)
			err = EGL_BAD_ALLOC;
	}
	gles_egl_unlock();
	gles_egl_error(err);
	return err == EGL_SUCCESS;
}

EGLBoolean gles_egl_export_dma_buf_image_query(EGLDisplay dpy, EGLImage image, int *fourcc,
					       int *num_planes, EGLuint64KHR *modifiers)
{
	uint32_t f;
	EGLint stride, offset;

	if (!export_of(dpy, image, &f, NULL, &stride, &offset))
		return EGL_FALSE;
	if (fourcc)
		*fourcc = (int)f;
	if (num_planes)
		*num_planes = 1;
	if (modifiers)
		modifiers[0] = DRM_FORMAT_MOD_LINEAR;
	return EGL_TRUE;
}

EGLBoolean gles_egl_export_dma_buf_image(EGLDisplay dpy, EGLImage image, int *fds, EGLint *strides,
					 EGLint *offsets)
{
	uint32_t f;
	EGLint stride, offset;
	int fd = -1;

	if (!export_of(dpy, image, &f, fds ? &fd : NULL, &stride, &offset))
		return EGL_FALSE;
	if (fds)
		fds[0] = fd;
	if (strides)
		strides[0] = stride;
	if (offsets)
		offsets[0] = offset;
	return EGL_TRUE;
}

/*
 * Section 3.9.1: the targets implemented are the GL ones and dma-bufs
 * above; every other (cube map faces, 3D textures, native pixmaps ...) is
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
	if (target == EGL_LINUX_DMA_BUF_EXT)
		return create_dma_buf_image(dpy, ctx, buffer, attribs, int_attribs);
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
