/*
 * egl_surface.c: EGL surfaces.  Pbuffers are the only kind: each is a
 * linear colour image (RGBA8 or RGB565) and, when its config has them, a
 * depth/stencil image, in BOs of the display's device.  Windows and pixmaps
 * arrive with compositor-bridge; until then no config supports them, and
 * the functions that take them fail as the spec says for such configs.
 */
#include <errno.h>
#include <stdlib.h>

#include "agx/layout.h"
#include "egl_agx.h"

#define ALIGN(x, a) (((x) + (a)-1) / (a) * (a))

struct gles_surface *gles_egl_surface(struct gles_display *dpy, EGLSurface handle)
{
	for (struct gles_surface *s = dpy->surfaces; s; s = s->next)
		if ((EGLSurface)s == handle)
			return s;
	gles_egl_error(EGL_BAD_SURFACE);
	return NULL;
}

static void unlink_surface(struct gles_surface *surf)
{
	for (struct gles_surface **p = &surf->dpy->surfaces; *p; p = &(*p)->next) {
		if (*p == surf) {
			*p = surf->next;
			break;
		}
	}
	surf->next = NULL;
	surf->valid = false;
}

static void free_buffer(struct gles_device *dev, struct gles_buffer *buf)
{
	if (buf->bo.size)
		agx_device_bo_close(dev->agx, &buf->bo);
	buf->bo.size = 0;
}

void gles_surface_unref(struct gles_surface *surf)
{
	if (!surf || --surf->refs)
		return;
	free_buffer(surf->dev, &surf->drawable.color);
	free_buffer(surf->dev, &surf->drawable.depth_stencil);
	gles_device_unref(surf->dev);
	free(surf);
}

void gles_surface_terminate(struct gles_surface *surf)
{
	unlink_surface(surf);
	gles_surface_unref(surf);
}

static unsigned bytes_per_pixel(enum gles_surface_format format)
{
	switch (format) {
	case GLES_FORMAT_RGBA8_UNORM:
	case GLES_FORMAT_Z24S8:
		return 4;
	case GLES_FORMAT_B5G6R5_UNORM:
		return 2;
	default:
		return 0;
	}
}

/* A linear image of format, w x h, in a new BO (none for a 0x0 surface): 0 or -errno. */
static int alloc_buffer(struct gles_device *dev, enum gles_surface_format format, unsigned w,
			unsigned h, struct gles_buffer *buf)
{
	/* rows 16-byte aligned, as the PBE writes linear images (Mesa's ail) */
	struct agx_layout layout = {
		.bytes_per_texel = bytes_per_pixel(format), .width = w, .height = h, .levels = 1
	};

	buf->format = format;
	buf->bo.size = 0;
	if (format == GLES_FORMAT_NONE || !w || !h)
		return 0;
	layout.stride = ALIGN((uint64_t)w * layout.bytes_per_texel, 16);
	if (!agx_layout_init(&layout))
		return -EINVAL;
	buf->stride = layout.stride;
	return agx_device_bo_create(dev->agx, layout.layer_stride, 0, &buf->bo);
}

/* The images of a w x h pbuffer: 0 or -errno, nothing allocated on failure. */
static int alloc_pbuffer(struct gles_surface *surf, unsigned w, unsigned h)
{
	struct gles_drawable *d = &surf->drawable;
	const struct gles_config *c = surf->config;
	int ret;

	d->width = w;
	d->height = h;
	ret = alloc_buffer(surf->dev, c->color_format, w, h, &d->color);
	if (ret < 0)
		return ret;
	ret = alloc_buffer(surf->dev, c->depth_stencil_format, w, h, &d->depth_stencil);
	if (ret < 0)
		free_buffer(surf->dev, &d->color);
	return ret;
}

/* Parses a pbuffer's attributes (EGL 1.5 section 3.5.2): EGL_SUCCESS or the error. */
static EGLint parse_pbuffer(struct gles_surface *surf, const EGLint *attribs, EGLint *w, EGLint *h)
{
	for (const EGLint *a = attribs; a && a[0] != EGL_NONE; a += 2) {
		EGLint v = a[1];

		switch (a[0]) {
		case EGL_WIDTH:
		case EGL_HEIGHT:
			if (v < 0)
				return EGL_BAD_PARAMETER;
			*(a[0] == EGL_WIDTH ? w : h) = v;
			break;
		case EGL_LARGEST_PBUFFER:
			surf->largest_pbuffer = v ? EGL_TRUE : EGL_FALSE;
			break;
		case EGL_MIPMAP_TEXTURE:
			surf->mipmap_texture = v ? EGL_TRUE : EGL_FALSE;
			break;
		case EGL_TEXTURE_FORMAT:
			if (v != EGL_NO_TEXTURE && v != EGL_TEXTURE_RGB && v != EGL_TEXTURE_RGBA)
				return EGL_BAD_ATTRIBUTE;
			surf->texture_format = v;
			break;
		case EGL_TEXTURE_TARGET:
			if (v != EGL_NO_TEXTURE && v != EGL_TEXTURE_2D)
				return EGL_BAD_ATTRIBUTE;
			surf->texture_target = v;
			break;
		case EGL_GL_COLORSPACE:
			if (v == EGL_GL_COLORSPACE_SRGB)
				return EGL_BAD_MATCH; /* no sRGB rendering in the GL state yet */
			if (v != EGL_GL_COLORSPACE_LINEAR)
				return EGL_BAD_ATTRIBUTE;
			break;
		case EGL_VG_COLORSPACE:
			/* linear needs EGL_VG_COLORSPACE_LINEAR_BIT in the config's surface type */
			if (v == EGL_VG_COLORSPACE_LINEAR)
				return EGL_BAD_MATCH;
			if (v != EGL_VG_COLORSPACE_sRGB)
				return EGL_BAD_ATTRIBUTE;
			break;
		case EGL_VG_ALPHA_FORMAT:
			/* premultiplied needs EGL_VG_ALPHA_FORMAT_PRE_BIT in the surface type */
			if (v == EGL_VG_ALPHA_FORMAT_PRE)
				return EGL_BAD_MATCH;
			if (v != EGL_VG_ALPHA_FORMAT_NONPRE)
				return EGL_BAD_ATTRIBUTE;
			break;
		default:
			return EGL_BAD_ATTRIBUTE;
		}
	}
	/* a texture format needs a texture target, and the other way round */
	if ((surf->texture_format == EGL_NO_TEXTURE) != (surf->texture_target == EGL_NO_TEXTURE))
		return EGL_BAD_MATCH;
	/* no config binds to textures (EGL_BIND_TO_TEXTURE_RGB and _RGBA are false) */
	if (surf->texture_format != EGL_NO_TEXTURE)
		return EGL_BAD_MATCH;
	return EGL_SUCCESS;
}

EGLSurface gles_egl_create_pbuffer_surface(EGLDisplay handle, EGLConfig config,
					   const EGLint *attribs)
{
	struct gles_display *dpy;
	struct gles_surface *surf = NULL;
	const struct gles_config *c;
	EGLint w = 0, h = 0, err;
	int ret;

	gles_egl_lock();
	if (!(dpy = gles_egl_display(handle, true)) || !(c = gles_egl_config(config)))
		goto fail;
	surf = calloc(1, sizeof(*surf));
	if (!surf) {
		gles_egl_error(EGL_BAD_ALLOC);
		goto fail;
	}
	*surf = (struct gles_surface){
		.dpy = dpy,
		.config = c,
		.largest_pbuffer = EGL_FALSE,
		.texture_format = EGL_NO_TEXTURE,
		.texture_target = EGL_NO_TEXTURE,
		.mipmap_texture = EGL_FALSE,
		.gl_colorspace = EGL_GL_COLORSPACE_LINEAR,
		.vg_colorspace = EGL_VG_COLORSPACE_sRGB,
		.vg_alpha_format = EGL_VG_ALPHA_FORMAT_NONPRE,
		.swap_behavior = EGL_BUFFER_DESTROYED,
		.multisample_resolve = EGL_MULTISAMPLE_RESOLVE_DEFAULT,
		.swap_interval = 1,
		.drawable = { .red_bits = (unsigned)c->red,
			      .green_bits = (unsigned)c->green,
			      .blue_bits = (unsigned)c->blue,
			      .alpha_bits = (unsigned)c->alpha,
			      .depth_bits = (unsigned)c->depth,
			      .stencil_bits = (unsigned)c->stencil },
	};
	err = parse_pbuffer(surf, attribs, &w, &h);
	if (err != EGL_SUCCESS) {
		gles_egl_error(err);
		goto fail;
	}
	if (w > GLES_MAX_PBUFFER_SIZE || h > GLES_MAX_PBUFFER_SIZE) {
		if (!surf->largest_pbuffer) {
			gles_egl_error(EGL_BAD_ALLOC);
			goto fail;
		}
		w = w > GLES_MAX_PBUFFER_SIZE ? GLES_MAX_PBUFFER_SIZE : w;
		h = h > GLES_MAX_PBUFFER_SIZE ? GLES_MAX_PBUFFER_SIZE : h;
	}
	surf->dev = dpy->dev;
	/*
	 * EGL_LARGEST_PBUFFER: the largest that can be had when the size asked
	 * for cannot, here by halving it until the memory suffices.
	 */
	while ((ret = alloc_pbuffer(surf, (unsigned)w, (unsigned)h)) < 0) {
		if (!surf->largest_pbuffer || (w <= 1 && h <= 1) ||
		    (ret != -ENOMEM && ret != -ENOSPC && ret != -EDQUOT)) {
			surf->dev = NULL;
			gles_egl_error(EGL_BAD_ALLOC);
			goto fail;
		}
		w = w > 1 ? w / 2 : w;
		h = h > 1 ? h / 2 : h;
	}
	dpy->dev->refs++;
	surf->refs = 1;
	surf->valid = true;
	surf->next = dpy->surfaces;
	dpy->surfaces = surf;
	gles_egl_unlock();
	gles_egl_error(EGL_SUCCESS);
	return (EGLSurface)surf;

fail:
	free(surf);
	gles_egl_unlock();
	return EGL_NO_SURFACE;
}

/*
 * Windows and pixmaps: neither display has native ones.  The surfaceless
 * platform has none by its definition, and its spec (EGL_MESA_platform_
 * surfaceless) makes window and pixmap surfaces fail with
 * EGL_BAD_NATIVE_WINDOW and EGL_BAD_NATIVE_PIXMAP on its displays,
 * whatever the config (piglit's egl_mesa_platform_surfaceless); the
 * default display is the same device.
 */
static EGLSurface native_surface(EGLDisplay handle, EGLConfig config, EGLint error)
{
	(void)config;
	gles_egl_lock();
	if (gles_egl_display(handle, true))
		gles_egl_error(error);
	gles_egl_unlock();
	return EGL_NO_SURFACE;
}

EGLSurface gles_egl_create_window_surface(EGLDisplay dpy, EGLConfig config, EGLNativeWindowType win,
					  const EGLint *attribs)
{
	(void)win;
	(void)attribs;
	return native_surface(dpy, config, EGL_BAD_NATIVE_WINDOW);
}

EGLSurface gles_egl_create_platform_window_surface(EGLDisplay dpy, EGLConfig config, void *win,
						   const EGLAttrib *attribs)
{
	(void)win;
	(void)attribs;
	return native_surface(dpy, config, EGL_BAD_NATIVE_WINDOW);
}

EGLSurface gles_egl_create_platform_window_surface_ext(EGLDisplay dpy, EGLConfig config, void *win,
						       const EGLint *attribs)
{
	(void)win;
	(void)attribs;
	return native_surface(dpy, config, EGL_BAD_NATIVE_WINDOW);
}

EGLSurface gles_egl_create_pixmap_surface(EGLDisplay dpy, EGLConfig config,
					  EGLNativePixmapType pixmap, const EGLint *attribs)
{
	(void)pixmap;
	(void)attribs;
	return native_surface(dpy, config, EGL_BAD_NATIVE_PIXMAP);
}

EGLSurface gles_egl_create_platform_pixmap_surface(EGLDisplay dpy, EGLConfig config, void *pixmap,
						   const EGLAttrib *attribs)
{
	(void)pixmap;
	(void)attribs;
	return native_surface(dpy, config, EGL_BAD_NATIVE_PIXMAP);
}

EGLSurface gles_egl_create_platform_pixmap_surface_ext(EGLDisplay dpy, EGLConfig config,
						       void *pixmap, const EGLint *attribs)
{
	(void)pixmap;
	(void)attribs;
	return native_surface(dpy, config, EGL_BAD_NATIVE_PIXMAP);
}

/*
 * EGL 1.5 section 3.5.3: the one client buffer type is an OpenVG image,
 * which needs a current OpenVG context -- and this driver has no OpenVG.
 */
EGLSurface gles_egl_create_pbuffer_from_client_buffer(EGLDisplay handle, EGLenum buftype,
						      EGLClientBuffer buffer, EGLConfig config,
						      const EGLint *attribs)
{
	(void)buffer;
	(void)attribs;
	gles_egl_lock();
	if (gles_egl_display(handle, true) && gles_egl_config(config))
		gles_egl_error(buftype == EGL_OPENVG_IMAGE ? EGL_BAD_ACCESS : EGL_BAD_PARAMETER);
	gles_egl_unlock();
	return EGL_NO_SURFACE;
}

/* The valid surface named by handle on an initialized display, with the lock held; NULL if none. */
static struct gles_surface *lock_surface(EGLDisplay handle, EGLSurface surface)
{
	struct gles_display *dpy;
	struct gles_surface *surf;

	gles_egl_lock();
	if ((dpy = gles_egl_display(handle, true)) && (surf = gles_egl_surface(dpy, surface)))
		return surf;
	gles_egl_unlock();
	return NULL;
}

/* Ends a call begun by lock_surface: err is the call's EGL error. */
static EGLBoolean unlock_with(EGLint err)
{
	gles_egl_unlock();
	gles_egl_error(err);
	return err == EGL_SUCCESS;
}

/*
 * EGL 1.5 section 3.5.5: a surface current in some thread is destroyed once
 * no longer current; its handle is invalid at once.
 */
EGLBoolean gles_egl_destroy_surface(EGLDisplay dpy, EGLSurface surface)
{
	struct gles_surface *surf = lock_surface(dpy, surface);

	if (!surf)
		return EGL_FALSE;
	unlink_surface(surf);
	gles_surface_unref(surf);
	return unlock_with(EGL_SUCCESS);
}

EGLBoolean gles_egl_query_surface(EGLDisplay dpy, EGLSurface surface, EGLint attribute,
				  EGLint *value)
{
	struct gles_surface *surf = lock_surface(dpy, surface);
	EGLint v;

	if (!surf)
		return EGL_FALSE;
	switch (attribute) {
	case EGL_CONFIG_ID:
		v = surf->config->id;
		break;
	case EGL_WIDTH:
		v = (EGLint)surf->drawable.width;
		break;
	case EGL_HEIGHT:
		v = (EGLint)surf->drawable.height;
		break;
	case EGL_LARGEST_PBUFFER:
		v = surf->largest_pbuffer;
		break;
	case EGL_TEXTURE_FORMAT:
		v = surf->texture_format;
		break;
	case EGL_TEXTURE_TARGET:
		v = surf->texture_target;
		break;
	case EGL_MIPMAP_TEXTURE:
		v = surf->mipmap_texture;
		break;
	case EGL_MIPMAP_LEVEL:
		v = surf->mipmap_level;
		break;
	case EGL_GL_COLORSPACE:
		v = surf->gl_colorspace;
		break;
	case EGL_VG_COLORSPACE:
		v = surf->vg_colorspace;
		break;
	case EGL_VG_ALPHA_FORMAT:
		v = surf->vg_alpha_format;
		break;
	case EGL_RENDER_BUFFER:
		/* section 3.5.6: a pbuffer is always rendered to its back buffer */
		v = EGL_BACK_BUFFER;
		break;
	case EGL_SWAP_BEHAVIOR:
		v = surf->swap_behavior;
		break;
	case EGL_MULTISAMPLE_RESOLVE:
		v = surf->multisample_resolve;
		break;
	case EGL_HORIZONTAL_RESOLUTION:
	case EGL_VERTICAL_RESOLUTION:
	case EGL_PIXEL_ASPECT_RATIO:
		/* a pbuffer has no display it is shown on */
		v = EGL_UNKNOWN;
		break;
	default:
		return unlock_with(EGL_BAD_ATTRIBUTE);
	}
	if (!value)
		return unlock_with(EGL_BAD_PARAMETER);
	*value = v;
	return unlock_with(EGL_SUCCESS);
}

EGLBoolean gles_egl_surface_attrib(EGLDisplay dpy, EGLSurface surface, EGLint attribute,
				   EGLint value)
{
	struct gles_surface *surf = lock_surface(dpy, surface);

	if (!surf)
		return EGL_FALSE;
	switch (attribute) {
	case EGL_MIPMAP_LEVEL:
		/* section 3.5.6: it only means something for a mipmapped texture pbuffer */
		if (surf->texture_format != EGL_NO_TEXTURE && surf->mipmap_texture)
			surf->mipmap_level = value;
		break;
	case EGL_SWAP_BEHAVIOR:
		/* preserving needs EGL_SWAP_BEHAVIOR_PRESERVED_BIT in the config's surface type */
		if (value == EGL_BUFFER_PRESERVED)
			return unlock_with(EGL_BAD_MATCH);
		if (value != EGL_BUFFER_DESTROYED)
			return unlock_with(EGL_BAD_PARAMETER);
		surf->swap_behavior = value;
		break;
	case EGL_MULTISAMPLE_RESOLVE:
		/* box resolve needs EGL_MULTISAMPLE_RESOLVE_BOX_BIT in the surface type */
		if (value == EGL_MULTISAMPLE_RESOLVE_BOX)
			return unlock_with(EGL_BAD_MATCH);
		if (value != EGL_MULTISAMPLE_RESOLVE_DEFAULT)
			return unlock_with(EGL_BAD_PARAMETER);
		surf->multisample_resolve = value;
		break;
	default:
		return unlock_with(EGL_BAD_ATTRIBUTE);
	}
	return unlock_with(EGL_SUCCESS);
}

/*
 * EGL 1.5 section 3.6.1: only a pbuffer made with a texture format binds to
 * a texture, and no config allows one.
 */
static EGLBoolean tex_image(EGLDisplay dpy, EGLSurface surface, EGLint buffer)
{
	struct gles_surface *surf = lock_surface(dpy, surface);

	if (!surf)
		return EGL_FALSE;
	if (buffer != EGL_BACK_BUFFER)
		return unlock_with(EGL_BAD_PARAMETER);
	/* EGL_TEXTURE_FORMAT is EGL_NO_TEXTURE: parse_pbuffer() allows no other */
	return unlock_with(EGL_BAD_MATCH);
}

EGLBoolean gles_egl_bind_tex_image(EGLDisplay dpy, EGLSurface surface, EGLint buffer)
{
	return tex_image(dpy, surface, buffer);
}

EGLBoolean gles_egl_release_tex_image(EGLDisplay dpy, EGLSurface surface, EGLint buffer)
{
	return tex_image(dpy, surface, buffer);
}

/* EGL 1.5 section 3.10.2: target must be a native pixmap, which neither platform has. */
EGLBoolean gles_egl_copy_buffers(EGLDisplay dpy, EGLSurface surface, EGLNativePixmapType target)
{
	struct gles_surface *surf = lock_surface(dpy, surface);

	(void)target;
	if (!surf)
		return EGL_FALSE;
	return unlock_with(EGL_BAD_NATIVE_PIXMAP);
}

/*
 * EGL 1.5 section 3.10.1: surface must be the calling thread's current draw
 * surface; the context is flushed, and a pbuffer's swap changes nothing.
 */
EGLBoolean gles_egl_swap_buffers(EGLDisplay dpy, EGLSurface surface)
{
	struct gles_surface *surf = lock_surface(dpy, surface);
	struct gles_egl_context *ctx = gles_egl_thread()->ctx;

	if (!surf)
		return EGL_FALSE;
	if (!ctx || ctx->draw != surf)
		return unlock_with(EGL_BAD_SURFACE);
	gles_context_flush(ctx->gl);
	return unlock_with(EGL_SUCCESS);
}

/* EGL 1.5 section 3.10.3: for the current context's draw surface, clamped to the config's range. */
EGLBoolean gles_egl_swap_interval(EGLDisplay handle, EGLint interval)
{
	struct gles_display *dpy;
	struct gles_egl_context *ctx = gles_egl_thread()->ctx;

	gles_egl_lock();
	if (!(dpy = gles_egl_display(handle, true)))
		return unlock_with(gles_egl_thread()->error);
	if (!ctx || ctx->dpy != dpy)
		return unlock_with(EGL_BAD_CONTEXT);
	if (!ctx->draw)
		return unlock_with(EGL_BAD_SURFACE);
	ctx->draw->swap_interval = interval < 0 ? 0 : interval > 1 ? 1 : interval;
	return unlock_with(EGL_SUCCESS);
}
