/*
 * framebuffer.c: framebuffer objects (GLES 3.0.6 section 4.4), each
 * context's own: names, the draw and read bindings, attachments of
 * texture levels and layers and of renderbuffers, completeness (section
 * 4.4.4), the attachment queries of section 6.1.13 (the default
 * framebuffer's too), draw and read buffers, invalidation; and the image
 * of each buffer of the bound framebuffers, which clears and reads use.
 */
#include <stdlib.h>

#include "context.h"
#include "gl_functions.h"
#include "objects.h"
#include "pass.h"

/* GL_FRAMEBUFFER, GL_DRAW_FRAMEBUFFER or GL_READ_FRAMEBUFFER; else GL_INVALID_ENUM. */
static bool target_valid(struct gles_context *ctx, GLenum target)
{
	if (target == GL_FRAMEBUFFER || target == GL_DRAW_FRAMEBUFFER ||
	    target == GL_READ_FRAMEBUFFER)
		return true;
	gles_error(ctx, GL_INVALID_ENUM);
	return false;
}

struct gles_framebuffer *gles_framebuffer_bound(struct gles_context *ctx, bool read)
{
	return read ? ctx->objects->read_fb : ctx->objects->draw_fb;
}

/* The framebuffer a target names (GL_FRAMEBUFFER is the draw one). */
static struct gles_framebuffer *of_target(struct gles_context *ctx, GLenum target)
{
	return gles_framebuffer_bound(ctx, target == GL_READ_FRAMEBUFFER);
}

static void clear_attachment(struct gles_attachment *a)
{
	gles_texture_unref(a->texture);
	gles_renderbuffer_unref(a->renderbuffer);
	*a = (struct gles_attachment){ .type = GL_NONE };
}

static void destroy(struct gles_framebuffer *fb)
{
	for (unsigned i = 0; i < GLES_ATTACH_COUNT; i++)
		clear_attachment(&fb->att[i]);
	free(fb->label);
	free(fb);
}

void gles_framebuffer_destroy(void *fb, void *data)
{
	(void)data;
	destroy(fb);
}

void gles_framebuffer_detach(struct gles_context *ctx, struct gles_texture *t,
			     struct gles_renderbuffer *r)
{
	struct gles_framebuffer *fbs[2] = { ctx->objects->draw_fb, ctx->objects->read_fb };

	for (unsigned k = 0; k < 2; k++) {
		if (!fbs[k] || (k == 1 && fbs[1] == fbs[0]))
			continue;
		for (unsigned i = 0; i < GLES_ATTACH_COUNT; i++) {
			struct gles_attachment *a = &fbs[k]->att[i];

			if ((t && a->texture == t) || (r && a->renderbuffer == r))
				clear_attachment(a);
		}
	}
}

/* ---- names and bindings ---------------------------------------------------------------- */

void gles_GenFramebuffers(GLsizei n, GLuint *framebuffers)
{
	struct gles_context *ctx = gles_current();

	if (!ctx)
		return;
	if (n < 0) {
		gles_error(ctx, GL_INVALID_VALUE);
		return;
	}
	if (gles_names_gen(&ctx->objects->framebuffers, (unsigned)n, framebuffers) < 0)
		gles_error(ctx, GL_OUT_OF_MEMORY);
}

void gles_BindFramebuffer(GLenum target, GLuint framebuffer)
{
	struct gles_context *ctx = gles_current();
	struct gles_framebuffer *fb = NULL;

	if (!ctx || !target_valid(ctx, target))
		return;
	if (framebuffer && !(fb = gles_names_lookup(&ctx->objects->framebuffers, framebuffer))) {
		/* section 4.4.1: binding an unused name makes the framebuffer */
		fb = calloc(1, sizeof(*fb));
		if (!fb || gles_names_set(&ctx->objects->framebuffers, framebuffer, fb) < 0) {
			free(fb);
			gles_error(ctx, GL_OUT_OF_MEMORY);
			return;
		}
		fb->name = framebuffer;
		fb->draw_buffers[0] = GL_COLOR_ATTACHMENT0;
		for (unsigned i = 1; i < GLES_MAX_DRAW_BUFFERS; i++)
			fb->draw_buffers[i] = GL_NONE;
		fb->read_buffer = GL_COLOR_ATTACHMENT0;
	}
	if (target != GL_READ_FRAMEBUFFER)
		ctx->objects->draw_fb = fb;
	if (target != GL_DRAW_FRAMEBUFFER)
		ctx->objects->read_fb = fb;
}

GLboolean gles_IsFramebuffer(GLuint framebuffer)
{
	struct gles_context *ctx = gles_current();

	if (!ctx)
		return GL_FALSE;
	return gles_names_lookup(&ctx->objects->framebuffers, framebuffer) ? GL_TRUE : GL_FALSE;
}

void gles_DeleteFramebuffers(GLsizei n, const GLuint *framebuffers)
{
	struct gles_context *ctx = gles_current();

	if (!ctx)
		return;
	if (n < 0) {
		gles_error(ctx, GL_INVALID_VALUE);
		return;
	}
	gles_objects_lock(ctx); /* the attachments' references */
	for (GLsizei i = 0; i < n; i++) {
		struct gles_framebuffer *fb;

		if (!framebuffers[i])
			continue;
		fb = gles_names_remove(&ctx->objects->framebuffers, framebuffers[i]);
		if (!fb)
			continue;
		/* section 4.4.1: a bound framebuffer's binding goes back to the default one */
		if (ctx->objects->draw_fb == fb)
			ctx->objects->draw_fb = NULL;
		if (ctx->objects->read_fb == fb)
			ctx->objects->read_fb = NULL;
		destroy(fb);
	}
	gles_objects_unlock(ctx);
}

/* ---- attaching -------------------------------------------------------------------------- */

/*
 * The attachment point of an attachment enum: an index into fb->att, -1
 * for GL_DEPTH_STENCIL_ATTACHMENT (both), or -2 with the error recorded:
 * GL_INVALID_OPERATION for a colour attachment past the limit (as Mesa),
 * GL_INVALID_ENUM for anything else.
 */
static int attachment_index(struct gles_context *ctx, GLenum attachment)
{
	if (attachment >= GL_COLOR_ATTACHMENT0 && attachment <= GL_COLOR_ATTACHMENT15) {
		unsigned i = attachment - GL_COLOR_ATTACHMENT0;

		if (i >= GLES_MAX_COLOR_ATTACHMENTS) {
			gles_error(ctx, GL_INVALID_OPERATION);
			return -2;
		}
		return (int)i;
	}
	switch (attachment) {
	case GL_DEPTH_ATTACHMENT:
		return GLES_ATTACH_DEPTH;
	case GL_STENCIL_ATTACHMENT:
		return GLES_ATTACH_STENCIL;
	case GL_DEPTH_STENCIL_ATTACHMENT:
		return -1;
	default:
		gles_error(ctx, GL_INVALID_ENUM);
		return -2;
	}
}

static void set_attachment(struct gles_framebuffer *fb, int index, const struct gles_attachment *a)
{
	for (int i = index < 0 ? GLES_ATTACH_DEPTH : index;
	     i <= (index < 0 ? GLES_ATTACH_STENCIL : index); i++) {
		clear_attachment(&fb->att[i]);
		fb->att[i] = *a;
		gles_texture_ref(a->texture);
		gles_renderbuffer_ref(a->renderbuffer);
	}
}

/* The bound framebuffer a call attaches to: NULL with GL_INVALID_OPERATION for the default. */
static struct gles_framebuffer *attach_target(struct gles_context *ctx, GLenum target)
{
	struct gles_framebuffer *fb;

	if (!target_valid(ctx, target))
		return NULL;
	fb = of_target(ctx, target);
	if (!fb)
		gles_error(ctx, GL_INVALID_OPERATION);
	return fb;
}

static unsigned log2_floor(unsigned x)
{
	unsigned l = 0;

	while (x >>= 1)
		l++;
	return l;
}

void gles_FramebufferTexture2D(GLenum target, GLenum attachment, GLenum textarget, GLuint texture,
			       GLint level)
{
	struct gles_context *ctx = gles_current();
	struct gles_attachment a = { .type = GL_NONE };
	struct gles_framebuffer *fb;
	struct gles_texture *t;
	int index;

	if (!ctx || !(fb = attach_target(ctx, target)) ||
	    (index = attachment_index(ctx, attachment)) == -2)
		return;
	gles_objects_lock(ctx);
	if (texture) {
		bool face = textarget >= GL_TEXTURE_CUBE_MAP_POSITIVE_X &&
			    textarget <= GL_TEXTURE_CUBE_MAP_NEGATIVE_Z;
		unsigned max = face ? GLES_MAX_CUBE_MAP_TEXTURE_SIZE : GLES_MAX_TEXTURE_SIZE;

		if (textarget != GL_TEXTURE_2D && !face) {
			gles_error(ctx, GL_INVALID_ENUM);
			goto out;
		}
		/* section 4.4.2.4: an existing texture of that target (a cube map for a face) */
		t = gles_names_lookup(&ctx->share->objects->textures, texture);
		if (!t || t->target != (face ? GL_TEXTURE_CUBE_MAP : GL_TEXTURE_2D)) {
			gles_error(ctx, GL_INVALID_OPERATION);
			goto out;
		}
		if (level < 0 || (unsigned)level > log2_floor(max)) {
			gles_error(ctx, GL_INVALID_VALUE);
			goto out;
		}
		a = (struct gles_attachment){
			.type = GL_TEXTURE,
			.texture = t,
			.level = level,
			.face = face ? textarget : 0,
		};
	}
	set_attachment(fb, index, &a);
out:
	gles_objects_unlock(ctx);
}

void gles_FramebufferTextureLayer(GLenum target, GLenum attachment, GLuint texture, GLint level,
				  GLint layer)
{
	struct gles_context *ctx = gles_current();
	struct gles_attachment a = { .type = GL_NONE };
	struct gles_framebuffer *fb;
	struct gles_texture *t;
	int index;

	if (!ctx || !(fb = attach_target(ctx, target)) ||
	    (index = attachment_index(ctx, attachment)) == -2)
		return;
	gles_objects_lock(ctx);
	if (texture) {
		bool three_d;

		t = gles_names_lookup(&ctx->share->objects->textures, texture);
		if (!t || (t->target != GL_TEXTURE_3D && t->target != GL_TEXTURE_2D_ARRAY)) {
			gles_error(ctx, GL_INVALID_OPERATION);
			goto out;
		}
		three_d = t->target == GL_TEXTURE_3D;
		if (layer < 0 ||
		    (unsigned)layer >=
			(three_d ? GLES_MAX_3D_TEXTURE_SIZE : GLES_MAX_ARRAY_TEXTURE_LAYERS) ||
		    level < 0 ||
		    (unsigned)level >
			log2_floor(three_d ? GLES_MAX_3D_TEXTURE_SIZE : GLES_MAX_TEXTURE_SIZE)) {
			gles_error(ctx, GL_INVALID_VALUE);
			goto out;
		}
		a = (struct gles_attachment){
			.type = GL_TEXTURE,
			.texture = t,
			.level = level,
			.layer = layer,
		};
	}
	set_attachment(fb, index, &a);
out:
	gles_objects_unlock(ctx);
}

void gles_FramebufferRenderbuffer(GLenum target, GLenum attachment, GLenum renderbuffertarget,
				  GLuint renderbuffer)
{
	struct gles_context *ctx = gles_current();
	struct gles_attachment a = { .type = GL_NONE };
	struct gles_framebuffer *fb;
	struct gles_renderbuffer *r;
	int index;

	if (!ctx || !(fb = attach_target(ctx, target)) ||
	    (index = attachment_index(ctx, attachment)) == -2)
		return;
	if (renderbuffertarget != GL_RENDERBUFFER) {
		gles_error(ctx, GL_INVALID_ENUM);
		return;
	}
	gles_objects_lock(ctx);
	if (renderbuffer) {
		r = gles_names_lookup(&ctx->share->objects->renderbuffers, renderbuffer);
		if (!r) {
			gles_error(ctx, GL_INVALID_OPERATION);
			goto out;
		}
		a = (struct gles_attachment){ .type = GL_RENDERBUFFER, .renderbuffer = r };
	}
	set_attachment(fb, index, &a);
out:
	gles_objects_unlock(ctx);
}

/* ---- images of attachments ---------------------------------------------------------------- */

/* An attachment's level (textures), or NULL. */
static const struct gles_texture_level *attached_level(const struct gles_attachment *a)
{
	if (a->type != GL_TEXTURE)
		return NULL;
	return gles_texture_level(a->texture, a->face ? a->face : a->texture->target, a->level);
}

/* The format and size of what is attached; false for nothing or a level never given. */
static bool attached(const struct gles_attachment *a, const struct gles_format **f, unsigned *w,
		     unsigned *h, unsigned *samples)
{
	const struct gles_texture_level *l;

	*samples = 0;
	switch (a->type) {
	case GL_RENDERBUFFER:
		*f = a->renderbuffer->format;
		*w = a->renderbuffer->width, *h = a->renderbuffer->height;
		*samples = a->renderbuffer->samples;
		return true;
	case GL_TEXTURE:
		l = attached_level(a);
		if (!l)
			return false;
		*f = l->format;
		*w = l->width, *h = l->height;
		return true;
	default:
		return false;
	}
}

/* The image an attachment shows; stencil: the stencil part (its own image for DEPTH32F_STENCIL8).
 */
static bool attachment_target(const struct gles_attachment *a, bool stencil,
			      struct gles_image_target *out)
{
	const struct gles_texture_level *l;
	const struct gles_renderbuffer *r;
	const struct gles_image *img;

	switch (a->type) {
	case GL_RENDERBUFFER:
		r = a->renderbuffer;
		if (r->egl.image) {
			/* an EGLImage's: a level and layer of its image */
			img = stencil && r->egl.stencil ? r->egl.stencil : r->egl.image;
			*out = (struct gles_image_target){ .image = img,
							   .level = r->egl.level,
							   .layer = r->egl.layer };
			return img->bo.size != 0;
		}
		img = stencil && r->format && r->format->hw_stencil != AGX_FORMAT_NONE ? &r->stencil
										       : &r->image;
		if (!img->bo.size)
			return false;
		*out = (struct gles_image_target){ .image = img };
		return true;
	case GL_TEXTURE:
		l = attached_level(a);
		if (!l)
			return false;
		img = stencil && l->stencil ? l->stencil : l->image;
		if (!img || !img->bo.size || (unsigned)a->layer >= l->depth)
			return false;
		*out = (struct gles_image_target){
			.image = img,
			.level = l->image_level,
			.layer = l->image_layer + (unsigned)a->layer,
		};
		return true;
	default:
		return false;
	}
}

/* ---- completeness (section 4.4.4) --------------------------------------------------------- */

/* Section 4.4.4.1: attachment completeness of the image at point i. */
static bool attachment_complete(const struct gles_attachment *a, unsigned i)
{
	const struct gles_format *f;
	unsigned w, h, samples, need;

	if (!attached(a, &f, &w, &h, &samples) || !f || !w || !h)
		return false;
	if (a->type == GL_TEXTURE) {
		const struct gles_texture_level *l = attached_level(a);

		if ((unsigned)a->layer >= l->depth)
			return false;
	}
	need = i < GLES_MAX_COLOR_ATTACHMENTS ? GLES_FORMAT_COLOR_RENDERABLE
	       : i == GLES_ATTACH_DEPTH	      ? GLES_FORMAT_DEPTH_RENDERABLE
					      : GLES_FORMAT_STENCIL_RENDERABLE;
	return f->flags & need;
}

static GLenum fbo_status(const struct gles_framebuffer *fb)
{
	const struct gles_attachment *d = &fb->att[GLES_ATTACH_DEPTH],
				     *st = &fb->att[GLES_ATTACH_STENCIL];
	bool any = false;
	unsigned samples = 0;

	for (unsigned i = 0; i < GLES_ATTACH_COUNT; i++) {
		const struct gles_attachment *a = &fb->att[i];
		const struct gles_format *f;
		unsigned w, h, s;

		if (a->type == GL_NONE)
			continue;
		if (!attachment_complete(a, i))
			return GL_FRAMEBUFFER_INCOMPLETE_ATTACHMENT;
		/* the images may differ in size (the framebuffer is their intersection), not
		 * samples */
		attached(a, &f, &w, &h, &s);
		if (any && s != samples)
			return GL_FRAMEBUFFER_INCOMPLETE_MULTISAMPLE;
		samples = s;
		any = true;
	}
	if (!any)
		return GL_FRAMEBUFFER_INCOMPLETE_MISSING_ATTACHMENT;
	/* depth and stencil attachments, if both present, are the same image */
	if (d->type != GL_NONE && st->type != GL_NONE &&
	    (d->type != st->type || d->texture != st->texture ||
	     d->renderbuffer != st->renderbuffer || d->level != st->level || d->face != st->face ||
	     d->layer != st->layer))
		return GL_FRAMEBUFFER_UNSUPPORTED;
	return GL_FRAMEBUFFER_COMPLETE;
}

GLenum gles_framebuffer_status(struct gles_context *ctx, bool read)
{
	struct gles_framebuffer *fb = gles_framebuffer_bound(ctx, read);

	if (!fb)
		return (read ? ctx->read : ctx->draw) ? GL_FRAMEBUFFER_COMPLETE
						      : GL_FRAMEBUFFER_UNDEFINED;
	return fbo_status(fb);
}

GLenum gles_CheckFramebufferStatus(GLenum target)
{
	struct gles_context *ctx = gles_current();
	GLenum status;

	if (!ctx || !target_valid(ctx, target))
		return 0;
	gles_objects_lock(ctx);
	status = gles_framebuffer_status(ctx, target == GL_READ_FRAMEBUFFER);
	gles_objects_unlock(ctx);
	return status;
}

/* ---- the images clears and reads use -------------------------------------------------------- */

/* The default framebuffer's colour, depth or stencil image, refreshed from the drawable. */
static bool default_image(struct gles_context *ctx, bool read, enum gles_default_buffer which,
			  struct gles_image_target *out)
{
	const struct gles_drawable *d = read ? ctx->read : ctx->draw;
	struct gles_image *img = &ctx->objects->default_images[read][which];
	bool ok = which == GLES_DEFAULT_DEPTH	  ? gles_drawable_depth_image(d, img)
		  : which == GLES_DEFAULT_STENCIL ? gles_drawable_stencil_image(d, img)
						  : gles_drawable_color_image(d, img);

	if (ok)
		*out = (struct gles_image_target){ .image = img };
	return ok;
}

unsigned gles_framebuffer_draw_surfaces(struct gles_context *ctx)
{
	struct gles_framebuffer *fb = gles_framebuffer_bound(ctx, false);
	const struct gles_drawable *d = ctx->draw;
	unsigned mask = 0;

	if (!fb)
		return (ctx->objects->default_draw_buffer != GL_NONE ? 1u : 0u) |
		       (d && d->depth_bits ? 1u << GLES_MAX_DRAW_BUFFERS : 0u) |
		       (d && d->stencil_bits ? 2u << GLES_MAX_DRAW_BUFFERS : 0u);
	for (unsigned i = 0; i < GLES_MAX_DRAW_BUFFERS; i++)
		mask |= fb->draw_buffers[i] != GL_NONE ? 1u << i : 0u;
	mask |= fb->att[GLES_ATTACH_DEPTH].type != GL_NONE ? 1u << GLES_MAX_DRAW_BUFFERS : 0u;
	mask |= fb->att[GLES_ATTACH_STENCIL].type != GL_NONE ? 2u << GLES_MAX_DRAW_BUFFERS : 0u;
	return mask;
}

void gles_framebuffer_draw_key(struct gles_context *ctx, unsigned i, struct gles_target_key *key)
{
	const struct gles_drawable *d = ctx->draw;
	struct gles_image_target t;
	bool have;

	*key = (struct gles_target_key){ 0 };
	if (!gles_framebuffer_bound(ctx, false)) {
		/* the default framebuffer's, as default_image would view them */
		have = i == 0 ? ctx->objects->default_draw_buffer == GL_BACK &&
				    gles_drawable_view_key(d, GLES_DEFAULT_COLOR, &key->handle,
							   &key->map, &key->format)
		       : i == GLES_MAX_DRAW_BUFFERS
			   ? d && d->depth_bits &&
				 gles_drawable_view_key(d, GLES_DEFAULT_DEPTH, &key->handle,
							&key->map, &key->format)
		       : i == GLES_MAX_DRAW_BUFFERS + 1
			   ? d && d->stencil_bits &&
				 gles_drawable_view_key(d, GLES_DEFAULT_STENCIL, &key->handle,
							&key->map, &key->format)
			   : false;
		if (!have)
			*key = (struct gles_target_key){ 0 };
		return;
	}
	have = i < GLES_MAX_DRAW_BUFFERS    ? gles_framebuffer_color_target(ctx, false, i, &t)
	       : i == GLES_MAX_DRAW_BUFFERS ? gles_framebuffer_depth_target(ctx, false, &t)
					    : gles_framebuffer_stencil_target(ctx, false, &t);
	if (!have || !t.image->bo.size)
		return;
	key->handle = t.image->bo.handle;
	/* where in the BO: two dma-buf images may share one at different offsets */
	key->map = (const uint8_t *)t.image->bo.map + t.image->offset;
	key->format = t.image->format;
	key->level = t.level;
	key->layer = t.layer;
}

bool gles_framebuffer_color_target(struct gles_context *ctx, bool read, unsigned i,
				   struct gles_image_target *out)
{
	struct gles_framebuffer *fb = gles_framebuffer_bound(ctx, read);
	GLenum buffer;

	if (!fb) {
		buffer = read ? ctx->objects->default_read_buffer
			      : (i == 0 ? ctx->objects->default_draw_buffer : GL_NONE);
		return buffer == GL_BACK && default_image(ctx, read, GLES_DEFAULT_COLOR, out);
	}
	buffer =
	    read ? fb->read_buffer : (i < GLES_MAX_DRAW_BUFFERS ? fb->draw_buffers[i] : GL_NONE);
	if (buffer < GL_COLOR_ATTACHMENT0 ||
	    buffer >= GL_COLOR_ATTACHMENT0 + GLES_MAX_COLOR_ATTACHMENTS)
		return false;
	return attachment_target(&fb->att[buffer - GL_COLOR_ATTACHMENT0], false, out);
}

bool gles_framebuffer_depth_target(struct gles_context *ctx, bool read,
				   struct gles_image_target *out)
{
	struct gles_framebuffer *fb = gles_framebuffer_bound(ctx, read);
	const struct gles_drawable *d = read ? ctx->read : ctx->draw;

	if (!fb)
		return d && d->depth_bits && default_image(ctx, read, GLES_DEFAULT_DEPTH, out);
	return attachment_target(&fb->att[GLES_ATTACH_DEPTH], false, out);
}

bool gles_framebuffer_stencil_target(struct gles_context *ctx, bool read,
				     struct gles_image_target *out)
{
	struct gles_framebuffer *fb = gles_framebuffer_bound(ctx, read);
	const struct gles_drawable *d = read ? ctx->read : ctx->draw;

	if (!fb)
		return d && d->stencil_bits && default_image(ctx, read, GLES_DEFAULT_STENCIL, out);
	return attachment_target(&fb->att[GLES_ATTACH_STENCIL], true, out);
}

bool gles_framebuffer_size(struct gles_context *ctx, bool read, unsigned *w, unsigned *h)
{
	struct gles_framebuffer *fb = gles_framebuffer_bound(ctx, read);
	const struct gles_drawable *d = read ? ctx->read : ctx->draw;
	unsigned fw = ~0u, fh = ~0u;

	if (!fb) {
		if (!d)
			return false;
		*w = d->width, *h = d->height;
		return true;
	}
	for (unsigned i = 0; i < GLES_ATTACH_COUNT; i++) {
		const struct gles_format *f;
		unsigned aw, ah, s;

		if (!attached(&fb->att[i], &f, &aw, &ah, &s))
			continue;
		fw = aw < fw ? aw : fw;
		fh = ah < fh ? ah : fh;
	}
	if (fw == ~0u)
		return false;
	*w = fw, *h = fh;
	return true;
}

unsigned gles_framebuffer_samples(struct gles_context *ctx, bool read)
{
	struct gles_framebuffer *fb = gles_framebuffer_bound(ctx, read);
	const struct gles_drawable *d = read ? ctx->read : ctx->draw;

	/* the default framebuffer: its surface's config's (EGL_SAMPLES) */
	if (!fb)
		return d ? d->samples : 0;
	if (fbo_status(fb) != GL_FRAMEBUFFER_COMPLETE)
		return 0;
	for (unsigned i = 0; i < GLES_ATTACH_COUNT; i++) {
		const struct gles_format *f;
		unsigned w, h, s;

		if (attached(&fb->att[i], &f, &w, &h, &s))
			return s;
	}
	return 0;
}

const struct gles_format *gles_framebuffer_read_format(struct gles_context *ctx)
{
	struct gles_framebuffer *fb = ctx->objects->read_fb;
	const struct gles_format *f;
	enum agx_format hw;
	GLenum internalformat;
	unsigned w, h, s;

	if (!fb) {
		if (!ctx->read || ctx->objects->default_read_buffer != GL_BACK ||
		    !gles_surface_format_image(ctx->read->color.format, &hw, &internalformat))
			return NULL;
		return gles_format_get(internalformat);
	}
	if (fb->read_buffer < GL_COLOR_ATTACHMENT0 ||
	    fb->read_buffer >= GL_COLOR_ATTACHMENT0 + GLES_MAX_COLOR_ATTACHMENTS)
		return NULL;
	if (!attached(&fb->att[fb->read_buffer - GL_COLOR_ATTACHMENT0], &f, &w, &h, &s))
		return NULL;
	return f;
}

/* ---- queries (section 6.1.13) -----------------------------------------------------------------
 */

/* The bits of a default framebuffer buffer: colour, depth or stencil. */
static void default_bits(const struct gles_drawable *d, GLenum attachment, GLint bits[6])
{
	for (unsigned k = 0; k < 6; k++)
		bits[k] = 0;
	if (attachment == GL_BACK) {
		bits[0] = (GLint)d->red_bits, bits[1] = (GLint)d->green_bits;
		bits[2] = (GLint)d->blue_bits, bits[3] = (GLint)d->alpha_bits;
	} else if (attachment == GL_DEPTH) {
		bits[4] = (GLint)d->depth_bits;
	} else {
		bits[5] = (GLint)d->stencil_bits;
	}
}

void gles_GetFramebufferAttachmentParameteriv(GLenum target, GLenum attachment, GLenum pname,
					      GLint *params)
{
	struct gles_context *ctx = gles_current();
	struct gles_framebuffer *fb;
	const struct gles_attachment *a = NULL;
	const struct gles_format *f = NULL;
	GLint value, bits[6] = { 0 };
	GLenum type;

	if (!ctx || !target_valid(ctx, target))
		return;
	fb = of_target(ctx, target);
	gles_objects_lock(ctx);
	if (!fb) {
		const struct gles_drawable *d =
		    target == GL_READ_FRAMEBUFFER ? ctx->read : ctx->draw;

		if (attachment != GL_BACK && attachment != GL_DEPTH && attachment != GL_STENCIL) {
			gles_error(ctx, GL_INVALID_ENUM);
			goto out;
		}
		type = GL_NONE;
		if (d) {
			default_bits(d, attachment, bits);
			if (bits[0] + bits[1] + bits[2] + bits[3] + bits[4] + bits[5])
				type = GL_FRAMEBUFFER_DEFAULT;
		}
	} else {
		int index = attachment_index(ctx, attachment);
		unsigned w, h, s;

		if (index == -2)
			goto out;
		if (index == -1) {
			/* both points must show the same image (section 6.1.13) */
			const struct gles_attachment *d = &fb->att[GLES_ATTACH_DEPTH],
						     *st = &fb->att[GLES_ATTACH_STENCIL];

			if (d->type != st->type || d->texture != st->texture ||
			    d->renderbuffer != st->renderbuffer || d->level != st->level ||
			    d->face != st->face || d->layer != st->layer) {
				gles_error(ctx, GL_INVALID_OPERATION);
				goto out;
			}
			index = GLES_ATTACH_DEPTH;
		}
		a = &fb->att[index];
		type = a->type;
		if (attached(a, &f, &w, &h, &s) && f) {
			bits[0] = f->red, bits[1] = f->green, bits[2] = f->blue;
			bits[3] = f->alpha, bits[4] = f->depth, bits[5] = f->stencil;
		}
	}

	if (pname == GL_FRAMEBUFFER_ATTACHMENT_OBJECT_TYPE) {
		value = (GLint)type;
		goto done;
	}
	if (type == GL_NONE) {
		/* section 6.1.13: the name is 0 and everything else an error */
		if (pname == GL_FRAMEBUFFER_ATTACHMENT_OBJECT_NAME) {
			value = 0;
			goto done;
		}
		gles_error(ctx, GL_INVALID_OPERATION);
		goto out;
	}
	switch (pname) {
	case GL_FRAMEBUFFER_ATTACHMENT_OBJECT_NAME:
		if (type == GL_FRAMEBUFFER_DEFAULT)
			goto bad_pname;
		value = (GLint)(a->texture ? a->texture->name : a->renderbuffer->name);
		goto done;
	case GL_FRAMEBUFFER_ATTACHMENT_TEXTURE_LEVEL:
		if (type != GL_TEXTURE)
			goto bad_pname;
		value = a->level;
		goto done;
	case GL_FRAMEBUFFER_ATTACHMENT_TEXTURE_CUBE_MAP_FACE:
		if (type != GL_TEXTURE)
			goto bad_pname;
		value = (GLint)a->face;
		goto done;
	}
	switch (pname) {
	case GL_FRAMEBUFFER_ATTACHMENT_TEXTURE_LAYER:
		if (type != GL_TEXTURE)
			goto bad_pname;
		value = a->layer;
		goto done;
	case GL_FRAMEBUFFER_ATTACHMENT_RED_SIZE:
	case GL_FRAMEBUFFER_ATTACHMENT_GREEN_SIZE:
	case GL_FRAMEBUFFER_ATTACHMENT_BLUE_SIZE:
	case GL_FRAMEBUFFER_ATTACHMENT_ALPHA_SIZE:
	case GL_FRAMEBUFFER_ATTACHMENT_DEPTH_SIZE:
	case GL_FRAMEBUFFER_ATTACHMENT_STENCIL_SIZE:
		value = bits[pname - GL_FRAMEBUFFER_ATTACHMENT_RED_SIZE];
		goto done;
	case GL_FRAMEBUFFER_ATTACHMENT_COMPONENT_TYPE:
		if (attachment == GL_DEPTH_STENCIL_ATTACHMENT) {
			/* section 6.1.13: the two parts may differ in type */
			gles_error(ctx, GL_INVALID_OPERATION);
			goto out;
		}
		if (type == GL_FRAMEBUFFER_DEFAULT)
			value = attachment == GL_STENCIL ? GL_UNSIGNED_INT : GL_UNSIGNED_NORMALIZED;
		else if (attachment == GL_STENCIL_ATTACHMENT)
			value = GL_UNSIGNED_INT; /* the stencil part: unsigned integer indices */
		else
			value = f ? (GLint)f->component_type : GL_NONE;
		goto done;
	case GL_FRAMEBUFFER_ATTACHMENT_COLOR_ENCODING:
		value = f && f->srgb ? GL_SRGB : GL_LINEAR;
		goto done;
	}
bad_pname:
	gles_error(ctx, GL_INVALID_ENUM);
	goto out;
done:
	if (params)
		*params = value;
out:
	gles_objects_unlock(ctx);
}

/* ---- draw and read buffers (section 4.2.1, 4.3.1) --------------------------------------- */

/* NONE, BACK or a colour attachment enum (any of the 16): the values these calls know. */
static bool buffer_enum(GLenum b)
{
	return b == GL_NONE || b == GL_BACK ||
	       (b >= GL_COLOR_ATTACHMENT0 && b <= GL_COLOR_ATTACHMENT15);
}

void gles_DrawBuffers(GLsizei n, const GLenum *bufs)
{
	struct gles_context *ctx = gles_current();
	struct gles_framebuffer *fb;

	if (!ctx)
		return;
	if (n < 0 || n > GLES_MAX_DRAW_BUFFERS) {
		gles_error(ctx, GL_INVALID_VALUE);
		return;
	}
	fb = ctx->objects->draw_fb;
	/* the default framebuffer takes one buffer: its n is checked before the values (as Mesa) */
	if (!fb && n != 1) {
		gles_error(ctx, GL_INVALID_OPERATION);
		return;
	}
	for (GLsizei i = 0; i < n; i++) {
		if (!buffer_enum(bufs[i])) {
			gles_error(ctx, GL_INVALID_ENUM);
			return;
		}
	}
	for (GLsizei i = 0; i < n; i++) {
		/*
		 * Section 4.2.1: the default framebuffer takes one buffer, BACK or
		 * NONE; a framebuffer object COLOR_ATTACHMENTi in place i, or NONE.
		 */
		bool ok = fb ? bufs[i] == GL_NONE || bufs[i] == GL_COLOR_ATTACHMENT0 + (GLenum)i
			     : n == 1 && (bufs[i] == GL_NONE || bufs[i] == GL_BACK);

		if (!ok || (bufs[i] >= GL_COLOR_ATTACHMENT0 + GLES_MAX_COLOR_ATTACHMENTS &&
			    bufs[i] <= GL_COLOR_ATTACHMENT15)) {
			gles_error(ctx, GL_INVALID_OPERATION);
			return;
		}
	}
	if (!fb) {
		ctx->objects->default_draw_buffer = bufs[0];
		return;
	}
	for (unsigned i = 0; i < GLES_MAX_DRAW_BUFFERS; i++)
		fb->draw_buffers[i] = (GLsizei)i < n ? bufs[i] : GL_NONE;
}

void gles_ReadBuffer(GLenum src)
{
	struct gles_context *ctx = gles_current();
	struct gles_framebuffer *fb;

	if (!ctx)
		return;
	if (!buffer_enum(src)) {
		gles_error(ctx, GL_INVALID_ENUM);
		return;
	}
	fb = ctx->objects->read_fb;
	/* section 4.3.1: BACK or NONE for the default framebuffer, an attachment or NONE else */
	if (fb ? src == GL_BACK || (src >= GL_COLOR_ATTACHMENT0 + GLES_MAX_COLOR_ATTACHMENTS &&
				    src <= GL_COLOR_ATTACHMENT15)
	       : src != GL_BACK && src != GL_NONE) {
		gles_error(ctx, GL_INVALID_OPERATION);
		return;
	}
	if (fb)
		fb->read_buffer = src;
	else
		ctx->objects->default_read_buffer = src;
}

/* ---- invalidation (section 4.5) ------------------------------------------------------------ */

/*
 * glInvalidate(Sub)Framebuffer: the contents of the attachments become
 * undefined (section 4.5).  sub: only the rectangle x, y, w, h.
 */
static void invalidate(GLenum target, GLsizei n, const GLenum *attachments, bool sub, GLint x,
		       GLint y, GLsizei w, GLsizei h)
{
	struct gles_context *ctx = gles_current();
	struct gles_framebuffer *fb;
	unsigned colour = 0, fw, fh;
	bool depth = false, stencil = false;

	if (!ctx || !target_valid(ctx, target))
		return;
	if (n < 0 || w < 0 || h < 0) {
		gles_error(ctx, GL_INVALID_VALUE);
		return;
	}
	fb = of_target(ctx, target);
	for (GLsizei i = 0; i < n; i++) {
		GLenum a = attachments[i];

		if (!fb) {
			if (a != GL_COLOR && a != GL_DEPTH && a != GL_STENCIL) {
				gles_error(ctx, GL_INVALID_ENUM);
				return;
			}
		} else if (a >= GL_COLOR_ATTACHMENT0 && a <= GL_COLOR_ATTACHMENT15) {
			if (a >= GL_COLOR_ATTACHMENT0 + GLES_MAX_COLOR_ATTACHMENTS) {
				gles_error(ctx, GL_INVALID_OPERATION);
				return;
			}
		} else if (a != GL_DEPTH_ATTACHMENT && a != GL_STENCIL_ATTACHMENT &&
			   a != GL_DEPTH_STENCIL_ATTACHMENT) {
			gles_error(ctx, GL_INVALID_ENUM);
			return;
		}
	}
	/*
	 * Keeping the contents is a correct way to make them undefined; what
	 * a tiler saves is the stores: the draw framebuffer's open pass stores
	 * nothing of what was invalidated whole, unless it draws again
	 * (pass.h).  A part of a buffer, or the read framebuffer, is kept.
	 */
	if (target == GL_READ_FRAMEBUFFER || !gles_framebuffer_size(ctx, false, &fw, &fh) ||
	    (sub &&
	     (x > 0 || y > 0 || (int64_t)x + w < (int64_t)fw || (int64_t)y + h < (int64_t)fh)))
		return;
	for (GLsizei i = 0; i < n; i++) {
		GLenum a = attachments[i];

		if (a == GL_COLOR)
			colour |= ctx->objects->default_draw_buffer != GL_NONE ? 1u : 0u;
		for (unsigned k = 0; fb && k < GLES_MAX_DRAW_BUFFERS; k++)
			colour |= fb->draw_buffers[k] == a ? 1u << k : 0u;
		depth |=
		    a == GL_DEPTH || a == GL_DEPTH_ATTACHMENT || a == GL_DEPTH_STENCIL_ATTACHMENT;
		stencil |= a == GL_STENCIL || a == GL_STENCIL_ATTACHMENT ||
			   a == GL_DEPTH_STENCIL_ATTACHMENT;
	}
	gles_pass_invalidate(ctx, colour, depth, stencil);
}

void gles_InvalidateFramebuffer(GLenum target, GLsizei numAttachments, const GLenum *attachments)
{
	invalidate(target, numAttachments, attachments, false, 0, 0, 0, 0);
}

/*
 * EXT_discard_framebuffer: glInvalidateFramebuffer's older form.  Written
 * for ES 2.0, it names GL_FRAMEBUFFER as the only target; in ES 3.0 the
 * draw and read targets are as valid (as on Mesa).  Of a framebuffer
 * object's attachments it takes only COLOR_ATTACHMENT0, DEPTH_ATTACHMENT
 * and STENCIL_ATTACHMENT (anything else is INVALID_ENUM).
 */
void gles_DiscardFramebufferEXT(GLenum target, GLsizei numAttachments, const GLenum *attachments)
{
	struct gles_context *ctx = gles_current();

	if (!ctx || !target_valid(ctx, target))
		return;
	for (GLsizei i = 0; of_target(ctx, target) && i < numAttachments; i++)
		if (attachments[i] != GL_COLOR_ATTACHMENT0 &&
		    attachments[i] != GL_DEPTH_ATTACHMENT &&
		    attachments[i] != GL_STENCIL_ATTACHMENT) {
			gles_error(ctx, GL_INVALID_ENUM);
			return;
		}
	invalidate(target, numAttachments, attachments, false, 0, 0, 0, 0);
}

void gles_InvalidateSubFramebuffer(GLenum target, GLsizei numAttachments, const GLenum *attachments,
				   GLint x, GLint y, GLsizei width, GLsizei height)
{
	invalidate(target, numAttachments, attachments, true, x, y, width, height);
}

/*
 * EXT_shader_framebuffer_fetch_non_coherent's barrier: the colour a shader
 * fetches after it reflects every draw before it.  Here every fetch is
 * already coherent, and this has nothing to do: a fetch reads the
 * tilebuffer (ld_tile) after the shader's wait_pix, which orders it after
 * the earlier fragments of the pixel, as blending is ordered too
 * (agx_lower_pixel_order); a later pass reloads what an earlier one
 * stored.
 */
void gles_FramebufferFetchBarrierEXT(void)
{
}
