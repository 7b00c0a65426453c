/*
 * egl_surface.c: EGL surfaces.  A pbuffer, or a window surface, is a
 * linear colour image (RGBA8 or RGB565) and, when its config has them, a
 * twiddled Z32F depth image and a twiddled S8 stencil image (what the ZLS
 * renders to), in BOs of the display's device; a window's eglSwapBuffers
 * waits for the frame's GPU work and hands the colour image to the
 * display's platform (its gles_platform_ops, egl_platform_*.c), renders
 * the next frame into a colour buffer the compositor does not hold, then
 * follows the window's size.  No platform has pixmaps: the functions that
 * take them fail as each platform's spec says.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <drm_fourcc.h>

#include "agx/layout.h"
#include "agx/present.h"
#include "egl_agx.h"
#include "image.h"
#include "submit.h"

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

static void free_buffers(struct gles_device *dev, struct gles_drawable *d)
{
	free_buffer(dev, &d->color);
	free_buffer(dev, &d->ms_color);
	free_buffer(dev, &d->depth);
	free_buffer(dev, &d->stencil);
}

/* The spare colour buffers go, their frames forgotten by the target first. */
static void free_spare_colors(struct gles_surface *surf)
{
	for (unsigned i = 0; i < surf->num_spare_colors; i++) {
		struct gles_buffer *b = &surf->spare_colors[i];

		if (b->bo.size && surf->dpy->ops->window_forget)
			surf->dpy->ops->window_forget(surf, b->bo.fd);
		gles_submit_forget_bo(surf->dev->agx, &b->bo);
		free_buffer(surf->dev, b);
	}
	surf->num_spare_colors = 0;
}

void gles_surface_unref(struct gles_surface *surf)
{
	if (!surf || --surf->refs)
		return;
	if (surf->type == EGL_WINDOW_BIT) {
		free_spare_colors(surf);
		surf->dpy->ops->window_destroy(surf);
	}
	free_buffers(surf->dev, &surf->drawable);
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
	case GLES_FORMAT_RGBA16_FLOAT:
		return 8;
	case GLES_FORMAT_RGBA8_UNORM:
	case GLES_FORMAT_RGBX8_UNORM:
	case GLES_FORMAT_RGB10A2_UNORM:
	case GLES_FORMAT_Z32_FLOAT:
	case GLES_FORMAT_Z24_FLOAT:
	case GLES_FORMAT_D32_FLOAT:
		return 4;
	case GLES_FORMAT_B5G6R5_UNORM:
	case GLES_FORMAT_Z16_UNORM:
		return 2;
	case GLES_FORMAT_S8_UINT:
		return 1;
	default:
		return 0;
	}
}

/*
 * An image of format, w x h, of samples (0: one), in a new BO (none for a
 * 0x0 surface): 0 or -errno.  Single-sampled colour is linear, rows
 * 16-byte aligned, as the PBE writes linear images (Mesa's ail) and
 * compositor-bridge reads them; depth and stencil are twiddled, the only
 * layout the ZLS renders to, and so is every multisampled buffer, laid
 * out in its sample grid as multisampled renderbuffers are (image.h).
 */
static int alloc_buffer(struct gles_device *dev, enum gles_surface_format format, unsigned w,
			unsigned h, unsigned samples, struct gles_buffer *buf)
{
	bool color = gles_surface_format_is_color(format);
	unsigned sx, sy;
	struct agx_layout layout = {
		.twiddled = !color || samples,
		.bytes_per_texel = bytes_per_pixel(format),
		.levels = 1,
	};

	agx_sample_grid(samples, &sx, &sy);
	layout.width = w * sx;
	layout.height = h * sy;

	buf->format = format;
	buf->bo.size = 0;
	if (format == GLES_FORMAT_NONE || !w || !h)
		return 0;
	if (!layout.twiddled)
		layout.stride = ALIGN((uint64_t)w * layout.bytes_per_texel, 16);
	if (!agx_layout_init(&layout))
		return -EINVAL;
	buf->layout = layout;
	return agx_device_bo_create(dev->agx, layout.layer_stride, 0, &buf->bo);
}

/* The images of a w x h surface: 0 or -errno, nothing allocated on failure. */
static int alloc_images(struct gles_surface *surf, unsigned w, unsigned h)
{
	struct gles_drawable *d = &surf->drawable;
	const struct gles_config *c = surf->config;
	int ret;

	d->width = w;
	d->height = h;
	d->samples = (unsigned)c->samples;
	/* a failure frees what this call made, never the buffers a resize still has */
	d->ms_color.bo.size = d->depth.bo.size = d->stencil.bo.size = 0;
	d->ms_color.format = GLES_FORMAT_NONE;
	if ((ret = alloc_buffer(surf->dev, c->color_format, w, h, 0, &d->color)) < 0 ||
	    (c->samples && (ret = alloc_buffer(surf->dev, c->color_format, w, h, d->samples,
					       &d->ms_color)) < 0) ||
	    (ret = alloc_buffer(surf->dev, c->depth_format, w, h, d->samples, &d->depth)) < 0 ||
	    (ret = alloc_buffer(surf->dev, c->stencil_format, w, h, d->samples, &d->stencil)) < 0)
		free_buffers(surf->dev, d);
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
	if (!(dpy = gles_egl_display(handle, true)) || !(c = gles_egl_config(dpy, config)))
		goto fail;
	surf = calloc(1, sizeof(*surf));
	if (!surf) {
		gles_egl_error(EGL_BAD_ALLOC);
		goto fail;
	}
	*surf = (struct gles_surface){
		.dpy = dpy,
		.config = c,
		.type = EGL_PBUFFER_BIT,
		.render_buffer = EGL_BACK_BUFFER,
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
	while ((ret = alloc_images(surf, (unsigned)w, (unsigned)h)) < 0) {
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

/* ---- window surfaces ---------------------------------------------------------------------- */

/* The attributes of a window surface: EGLint (eglCreateWindowSurface, the EXT function) or
 * EGLAttrib. */
struct attrib_list {
	const EGLint *ints;
	const EGLAttrib *wide;
};

static bool next_attrib(struct attrib_list *l, EGLAttrib *name, EGLAttrib *value)
{
	if (l->wide) {
		if (l->wide[0] == EGL_NONE)
			return false;
		*name = l->wide[0], *value = l->wide[1];
		l->wide += 2;
		return true;
	}
	if (!l->ints || l->ints[0] == EGL_NONE)
		return false;
	*name = l->ints[0], *value = l->ints[1];
	l->ints += 2;
	return true;
}

/* EGL 1.5 section 3.5.1's attributes: EGL_SUCCESS or the error. */
static EGLint parse_window(struct gles_surface *surf, struct attrib_list attribs)
{
	EGLAttrib name, v;

	while (next_attrib(&attribs, &name, &v)) {
		switch (name) {
		case EGL_RENDER_BUFFER:
			/*
			 * Single-buffered rendering is a request: the surface keeps it
			 * (eglQuerySurface), the context renders to the back buffer and
			 * says so (eglQueryContext, section 3.7.4).
			 */
			if (v != EGL_BACK_BUFFER && v != EGL_SINGLE_BUFFER)
				return EGL_BAD_ATTRIBUTE;
			surf->render_buffer = (EGLint)v;
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
			if (v == EGL_VG_ALPHA_FORMAT_PRE)
				return EGL_BAD_MATCH;
			if (v != EGL_VG_ALPHA_FORMAT_NONPRE)
				return EGL_BAD_ATTRIBUTE;
			break;
		default:
			return EGL_BAD_ATTRIBUTE;
		}
	}
	return EGL_SUCCESS;
}

/*
 * EGL 1.5 section 3.5.1: the native window is win, or for the platform
 * functions (by_pointer) what win points to on platforms whose windows
 * are not pointers.  The config must have windows (EGL_BAD_MATCH); the
 * platform checks the window.  The surface is as large as the window now,
 * and follows it at each swap.
 */
static EGLSurface create_window(EGLDisplay handle, EGLConfig config, bool by_pointer, void *win,
				struct attrib_list attribs)
{
	struct gles_surface *surf = NULL;
	const struct gles_config *c;
	struct gles_display *dpy;
	unsigned w = 0, h = 0;
	uintptr_t window;
	EGLint err;

	gles_egl_lock();
	if (!(dpy = gles_egl_display(handle, true)))
		goto fail;
	/* a platform without windows: surfaceless (egl_platform_surfaceless.c) */
	if (!dpy->ops->window_create) {
		gles_egl_error(EGL_BAD_NATIVE_WINDOW);
		goto fail;
	}
	if (!(c = gles_egl_config(dpy, config)))
		goto fail;
	if ((err = dpy->ops->window_handle(win, by_pointer, &window)) != EGL_SUCCESS) {
		gles_egl_error(err);
		goto fail;
	}
	if (!(c->surface_type & EGL_WINDOW_BIT)) {
		gles_egl_error(EGL_BAD_MATCH);
		goto fail;
	}
	surf = calloc(1, sizeof(*surf));
	if (!surf) {
		gles_egl_error(EGL_BAD_ALLOC);
		goto fail;
	}
	*surf = (struct gles_surface){
		.dpy = dpy,
		.config = c,
		.type = EGL_WINDOW_BIT,
		.window = window,
		.render_buffer = EGL_BACK_BUFFER,
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
	if ((err = parse_window(surf, attribs)) != EGL_SUCCESS) {
		gles_egl_error(err);
		goto fail;
	}
	surf->dev = dpy->dev;
	if ((err = dpy->ops->window_create(surf, &w, &h)) != EGL_SUCCESS) {
		gles_egl_error(err);
		goto fail;
	}
	if (alloc_images(surf, w, h) < 0) {
		dpy->ops->window_destroy(surf);
		gles_egl_error(EGL_BAD_ALLOC);
		goto fail;
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

EGLSurface gles_egl_create_window_surface(EGLDisplay dpy, EGLConfig config, EGLNativeWindowType win,
					  const EGLint *attribs)
{
	return create_window(dpy, config, false, (void *)(uintptr_t)win,
			     (struct attrib_list){ .ints = attribs });
}

EGLSurface gles_egl_create_platform_window_surface(EGLDisplay dpy, EGLConfig config, void *win,
						   const EGLAttrib *attribs)
{
	static const EGLAttrib none[] = { EGL_NONE };

	return create_window(dpy, config, true, win,
			     (struct attrib_list){ .wide = attribs ? attribs : none });
}

EGLSurface gles_egl_create_platform_window_surface_ext(EGLDisplay dpy, EGLConfig config, void *win,
						       const EGLint *attribs)
{
	return create_window(dpy, config, true, win, (struct attrib_list){ .ints = attribs });
}

/*
 * Pixmaps: no platform has them.  Each platform's spec says what asking
 * for one is (its pixmap_error): the surfaceless platform's makes them
 * EGL_BAD_NATIVE_PIXMAP whatever the config, and the default display is
 * the same device; on an X11 display no config has EGL_PIXMAP_BIT
 * (EGL_BAD_MATCH, once the config is valid).
 */
static EGLSurface native_surface(EGLDisplay handle, EGLConfig config)
{
	struct gles_display *dpy;

	gles_egl_lock();
	if ((dpy = gles_egl_display(handle, true))) {
		if (dpy->ops->pixmap_error != EGL_SUCCESS)
			gles_egl_error(dpy->ops->pixmap_error);
		else if (gles_egl_config(dpy, config))
			gles_egl_error(EGL_BAD_MATCH);
	}
	gles_egl_unlock();
	return EGL_NO_SURFACE;
}

EGLSurface gles_egl_create_pixmap_surface(EGLDisplay dpy, EGLConfig config,
					  EGLNativePixmapType pixmap, const EGLint *attribs)
{
	(void)pixmap;
	(void)attribs;
	return native_surface(dpy, config);
}

EGLSurface gles_egl_create_platform_pixmap_surface(EGLDisplay dpy, EGLConfig config, void *pixmap,
						   const EGLAttrib *attribs)
{
	(void)pixmap;
	(void)attribs;
	return native_surface(dpy, config);
}

EGLSurface gles_egl_create_platform_pixmap_surface_ext(EGLDisplay dpy, EGLConfig config,
						       void *pixmap, const EGLint *attribs)
{
	(void)pixmap;
	(void)attribs;
	return native_surface(dpy, config);
}

/*
 * EGL 1.5 section 3.5.3: the one client buffer type is an OpenVG image,
 * which needs a current OpenVG context -- and this driver has no OpenVG.
 */
EGLSurface gles_egl_create_pbuffer_from_client_buffer(EGLDisplay handle, EGLenum buftype,
						      EGLClientBuffer buffer, EGLConfig config,
						      const EGLint *attribs)
{
	struct gles_display *dpy;

	(void)buffer;
	(void)attribs;
	gles_egl_lock();
	if ((dpy = gles_egl_display(handle, true)) && gles_egl_config(dpy, config))
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
	case EGL_TEXTURE_FORMAT:
	case EGL_TEXTURE_TARGET:
	case EGL_MIPMAP_TEXTURE:
	case EGL_MIPMAP_LEVEL:
		/* section 3.5.6: for a window these leave value as it was, and are no error */
		if (surf->type != EGL_PBUFFER_BIT)
			return unlock_with(value ? EGL_SUCCESS : EGL_BAD_PARAMETER);
		v = attribute == EGL_LARGEST_PBUFFER  ? surf->largest_pbuffer
		    : attribute == EGL_TEXTURE_FORMAT ? surf->texture_format
		    : attribute == EGL_TEXTURE_TARGET ? surf->texture_target
		    : attribute == EGL_MIPMAP_TEXTURE ? surf->mipmap_texture
						      : surf->mipmap_level;
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
		/* section 3.5.6: a pbuffer is always rendered to its back buffer; a window's as
		 * asked */
		v = surf->render_buffer;
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
		/* a pbuffer has no display it is shown on; a window's dot pitch is not asked for */
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

/* Shows the window surface's colour buffer in its window: EGL_SUCCESS or the error. */
static EGLint present_window(struct gles_surface *surf)
{
	const struct gles_buffer *b = &surf->drawable.color;
	const struct agx_present_image image = {
		.fd = b->bo.fd,
		.map = b->bo.map,
		.size = b->bo.size,
		.stride = (uint32_t)b->layout.stride,
		.width = surf->drawable.width,
		.height = surf->drawable.height,
		/* bytes R, G, B, A (or unused); or one word R:G:B 5:6:5 (context.h) */
		.fourcc = b->format == GLES_FORMAT_RGBA8_UNORM	 ? DRM_FORMAT_ABGR8888
			  : b->format == GLES_FORMAT_RGBX8_UNORM ? DRM_FORMAT_XBGR8888
								 : DRM_FORMAT_RGB565,
		/* row 0 is window y = 0, the bottom row (clear.c) */
		.bottom_up = true,
		.swap_interval = (unsigned)surf->swap_interval,
	};

	return surf->dpy->ops->window_present(surf, &image);
}

/*
 * After a frame went to a compositor that still holds it (window_busy):
 * the next frame is rendered into a colour buffer it has let go of, a new
 * one while there are fewer than GLES_MAX_SPARE_COLORS spares, or else
 * the one the compositor lets go of first.  EGL_BUFFER_DESTROYED: the
 * next frame need not see this one.  EGL_SUCCESS or the error.
 */
static EGLint next_color(struct gles_surface *surf)
{
	const struct gles_platform_ops *ops = surf->dpy->ops;
	struct gles_drawable *d = &surf->drawable;
	struct gles_buffer tmp;
	unsigned i;

	if (!ops->window_busy || !d->color.bo.size ||
	    !ops->window_busy(surf, d->color.bo.fd, false))
		return EGL_SUCCESS;
	for (i = 0; i < surf->num_spare_colors; i++)
		if (!ops->window_busy(surf, surf->spare_colors[i].bo.fd, false))
			break;
	if (i == surf->num_spare_colors && i < GLES_MAX_SPARE_COLORS) {
		if (alloc_buffer(surf->dev, d->color.format, d->width, d->height, 0,
				 &surf->spare_colors[i]) < 0)
			return EGL_BAD_ALLOC;
		surf->num_spare_colors++;
	} else if (i == surf->num_spare_colors) {
		/* the oldest frame first: spare 0 is the one presented longest ago */
		i = 0;
		if (ops->window_busy(surf, surf->spare_colors[0].bo.fd, true))
			return EGL_BAD_NATIVE_WINDOW;
	}
	/* the spares stay in the order they were presented in: this one goes last */
	tmp = surf->spare_colors[i];
	memmove(&surf->spare_colors[i], &surf->spare_colors[i + 1],
		(surf->num_spare_colors - i - 1) * sizeof(tmp));
	surf->spare_colors[surf->num_spare_colors - 1] = d->color;
	d->color = tmp;
	return EGL_SUCCESS;
}

/*
 * EGL 1.5 section 3.10.1.1: after a swap the surface is as large as its
 * window is now.  New BOs for the new size (EGL_BUFFER_DESTROYED: the
 * contents need not survive), the old ones let go of by every context that
 * mapped them and by the presentation target first; the GL side reads the
 * size and the buffers from the drawable.  EGL_SUCCESS or the error; on an
 * error the surface stays as it was.
 */
static EGLint follow_window(struct gles_surface *surf)
{
	const struct gles_platform_ops *ops = surf->dpy->ops;
	struct gles_drawable *d = &surf->drawable;
	struct gles_drawable old = *d;
	unsigned w, h;
	EGLint err;

	if ((err = ops->window_size(surf, &w, &h)) != EGL_SUCCESS)
		return err;
	if (w == d->width && h == d->height)
		return EGL_SUCCESS;
	if (w > GLES_MAX_PBUFFER_SIZE || h > GLES_MAX_PBUFFER_SIZE)
		return EGL_BAD_ALLOC;
	if (alloc_images(surf, w, h) < 0) {
		*d = old;
		return EGL_BAD_ALLOC;
	}
	free_spare_colors(surf);
	for (unsigned i = 0; i < 4; i++) {
		struct gles_buffer *b = i == 0	 ? &old.color
					: i == 1 ? &old.depth
					: i == 2 ? &old.stencil
						 : &old.ms_color;

		if (!b->bo.size)
			continue;
		if (i == 0 && ops->window_forget)
			ops->window_forget(surf, b->bo.fd);
		gles_submit_forget_bo(surf->dev->agx, &b->bo);
		free_buffer(surf->dev, b);
	}
	return EGL_SUCCESS;
}

/*
 * EGL 1.5 section 3.10.1: surface must be the calling thread's current draw
 * surface; the context is flushed.  A pbuffer's swap changes nothing; a
 * window's shows the frame once the GPU has finished it, then follows the
 * window's size.
 */
EGLBoolean gles_egl_swap_buffers(EGLDisplay dpy, EGLSurface surface)
{
	struct gles_surface *surf = lock_surface(dpy, surface);
	struct gles_egl_context *ctx = gles_egl_thread()->ctx;
	EGLint err;

	if (!surf)
		return EGL_FALSE;
	if (!ctx || ctx->draw != surf)
		return unlock_with(EGL_BAD_SURFACE);
	if (surf->type != EGL_WINDOW_BIT) {
		gles_context_flush(ctx->gl);
		return unlock_with(EGL_SUCCESS);
	}
	/* the caller of compositor-bridge waits for the render fence: finish does */
	gles_context_finish(ctx->gl);
	/* a multisampled surface shows its resolve (EGL 1.5 section 3.10.1: at the swap) */
	gles_drawable_resolve(&surf->drawable);
	err = present_window(surf);
	if (err == EGL_SUCCESS)
		err = follow_window(surf);
	if (err == EGL_SUCCESS)
		err = next_color(surf);
	return unlock_with(err);
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
