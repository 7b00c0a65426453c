/*
 * texture.c: texture objects (GLES 3.0.6 sections 3.8.1-3.8.10): names
 * and per-unit bindings, the images of their levels (glTexImage*,
 * glTexSubImage*, glCompressedTex*, immutable glTexStorage*), pixel
 * unpacking from client memory or a pixel unpack buffer into the images'
 * twiddled layouts, their parameters, glGenerateMipmap: its checks and
 * levels here, the levels' texels drawn on the GPU (mipmap.c) for the
 * formats the GPU renders and filters, a box filter on the CPU for the
 * others; and EGLImages of 2D texture levels: their source (egl_image.c
 * makes the image) and glEGLImageTargetTexture2DOES, levels sharing one
 * refcounted image.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "compress.h"
#include "context.h"
#include "extensions.h"
#include "draw.h"
#include "gl_functions.h"
#include "objects.h"
#include "sampling.h"
#include "state.h"
#include "submit.h"

#define ALIGN(x, a) (((x) + (a)-1) / (a) * (a))

/* ---- objects ------------------------------------------------------------------------ */

struct gles_texture *gles_texture_ref(struct gles_texture *t)
{
	if (t)
		__atomic_add_fetch(&t->refs, 1, __ATOMIC_RELAXED);
	return t;
}

/*
 * A mutable level's own images (an immutable texture's levels point into
 * its storage, and so may a mutable texture's: the mip chain that
 * sampling.c made, which the texture frees when it goes).
 */
static void free_level(struct gles_texture *t, struct gles_texture_level *l)
{
	if (!t->immutable) {
		if (l->image != t->storage)
			gles_image_unref(l->image);
		gles_image_unref(l->stencil);
	}
	*l = (struct gles_texture_level){ 0 };
}

void gles_texture_unref(struct gles_texture *t)
{
	if (!t || __atomic_sub_fetch(&t->refs, 1, __ATOMIC_ACQ_REL))
		return;
	for (unsigned f = 0; f < 6; f++)
		for (unsigned l = 0; l < GLES_MAX_TEXTURE_LEVELS; l++)
			free_level(t, &t->levels[f][l]);
	gles_image_unref(t->storage);
	gles_image_unref(t->storage_stencil);
	free(t->label);
	free(t);
}

void gles_sampler_state_init(struct gles_sampler_state *s)
{
	*s = (struct gles_sampler_state){
		.min_filter = GL_NEAREST_MIPMAP_LINEAR,
		.mag_filter = GL_LINEAR,
		.wrap_s = GL_REPEAT,
		.wrap_t = GL_REPEAT,
		.wrap_r = GL_REPEAT,
		.min_lod = -1000.0f,
		.max_lod = 1000.0f,
		.compare_mode = GL_NONE,
		.compare_func = GL_LEQUAL,
		.srgb_decode = GL_DECODE_EXT,
	};
}

struct gles_texture *gles_texture_create(struct gles_context *ctx, GLuint name, GLenum target)
{
	struct gles_texture *t = calloc(1, sizeof(*t));

	if (!t)
		return NULL;
	t->refs = 1;
	t->name = name;
	t->target = target;
	t->dev = ctx->dev;
	gles_sampler_state_init(&t->sampler);
	t->base_level = 0;
	t->max_level = 1000;
	t->swizzle[0] = GL_RED, t->swizzle[1] = GL_GREEN;
	t->swizzle[2] = GL_BLUE, t->swizzle[3] = GL_ALPHA;
	return t;
}

/* The binding slot of a texture target (0 2D, 1 3D, 2 2D array, 3 cube), -1 if none. */
static int target_index(GLenum target)
{
	switch (target) {
	case GL_TEXTURE_2D:
		return 0;
	case GL_TEXTURE_CUBE_MAP:
		return 3;
	case GL_TEXTURE_3D:
		return 1;
	case GL_TEXTURE_2D_ARRAY:
		return 2;
	default:
		return -1;
	}
}

static bool is_cube_face(GLenum target)
{
	return target >= GL_TEXTURE_CUBE_MAP_POSITIVE_X && target <= GL_TEXTURE_CUBE_MAP_NEGATIVE_Z;
}

/* The texture bound to target on the active unit, NULL (GL_INVALID_ENUM) if no such target. */
static struct gles_texture *bound_texture(struct gles_context *ctx, GLenum target)
{
	int i = target_index(target);

	if (i < 0) {
		gles_error(ctx, GL_INVALID_ENUM);
		return NULL;
	}
	return ctx->objects->textures[ctx->state->active_texture][i];
}

struct gles_texture_level *gles_texture_level(struct gles_texture *tex, GLenum target, GLint level)
{
	unsigned face = is_cube_face(target) ? target - GL_TEXTURE_CUBE_MAP_POSITIVE_X : 0;

	if (!tex || level < 0 || level >= GLES_MAX_TEXTURE_LEVELS)
		return NULL;
	return &tex->levels[face][level];
}

void gles_GenTextures(GLsizei n, GLuint *textures)
{
	struct gles_context *ctx = gles_current();

	if (!ctx)
		return;
	if (n < 0) {
		gles_error(ctx, GL_INVALID_VALUE);
		return;
	}
	gles_objects_lock(ctx);
	if (gles_names_gen(&ctx->share->objects->textures, (unsigned)n, textures) < 0)
		gles_error(ctx, GL_OUT_OF_MEMORY);
	gles_objects_unlock(ctx);
}

void gles_BindTexture(GLenum target, GLuint texture)
{
	struct gles_context *ctx = gles_current();
	struct gles_names *names;
	struct gles_texture *t, **slot;
	int i;

	if (!ctx)
		return;
	if ((i = target_index(target)) < 0) {
		gles_error(ctx, GL_INVALID_ENUM);
		return;
	}
	slot = &ctx->objects->textures[ctx->state->active_texture][i];
	if (!texture) {
		t = ctx->objects->default_textures[i];
		gles_texture_ref(t);
		gles_texture_unref(*slot);
		*slot = t;
		return;
	}
	names = &ctx->share->objects->textures;
	gles_objects_lock(ctx);
	t = gles_names_lookup(names, texture);
	if (t && t->target != target) {
		/* section 3.8.1: a texture keeps the target it was first bound to */
		gles_error(ctx, GL_INVALID_OPERATION);
		goto out;
	}
	if (!t) {
		t = gles_texture_create(ctx, texture, target);
		if (!t || gles_names_set(names, texture, t) < 0) {
			free(t);
			gles_error(ctx, GL_OUT_OF_MEMORY);
			goto out;
		}
	}
	gles_texture_ref(t);
	gles_texture_unref(*slot);
	*slot = t;
out:
	gles_objects_unlock(ctx);
}

GLboolean gles_IsTexture(GLuint texture)
{
	struct gles_context *ctx = gles_current();
	bool is;

	if (!ctx)
		return GL_FALSE;
	gles_objects_lock(ctx);
	is = gles_names_lookup(&ctx->share->objects->textures, texture) != NULL;
	gles_objects_unlock(ctx);
	return is ? GL_TRUE : GL_FALSE;
}

void gles_DeleteTextures(GLsizei n, const GLuint *textures)
{
	struct gles_context *ctx = gles_current();
	struct gles_objects *o;

	if (!ctx)
		return;
	if (n < 0) {
		gles_error(ctx, GL_INVALID_VALUE);
		return;
	}
	o = ctx->objects;
	gles_objects_lock(ctx);
	for (GLsizei k = 0; k < n; k++) {
		struct gles_texture *t =
		    textures[k] ? gles_names_lookup(&ctx->share->objects->textures, textures[k])
				: NULL;

		if (!t) {
			if (textures[k])
				gles_names_remove(&ctx->share->objects->textures, textures[k]);
			continue;
		}
		/*
		 * Section 3.8.1: every unit of the current context bound to it
		 * goes back to the default texture; section 4.4.2.3: it is
		 * detached from the bound framebuffers first.
		 */
		for (unsigned u = 0; u < GLES_MAX_TEXTURE_UNITS; u++) {
			for (unsigned i = 0; i < 4; i++) {
				if (o->textures[u][i] == t) {
					o->textures[u][i] =
					    gles_texture_ref(o->default_textures[i]);
					gles_texture_unref(t);
				}
			}
		}
		gles_framebuffer_detach(ctx, t, NULL);
		gles_names_remove(&ctx->share->objects->textures, textures[k]);
		gles_texture_unref(t);
	}
	gles_objects_unlock(ctx);
}

/* ---- sizes and levels ------------------------------------------------------------------ */

static unsigned log2_floor(unsigned x)
{
	unsigned l = 0;

	while (x >>= 1)
		l++;
	return l;
}

/* The largest level 0 size and the largest level of a target (limits.h). */
static unsigned max_size(GLenum target)
{
	switch (target) {
	case GL_TEXTURE_3D:
		return GLES_MAX_3D_TEXTURE_SIZE;
	case GL_TEXTURE_2D:
	case GL_TEXTURE_2D_ARRAY:
		return GLES_MAX_TEXTURE_SIZE;
	default:
		return GLES_MAX_CUBE_MAP_TEXTURE_SIZE;
	}
}

/* Section 3.8.3's size errors for a level of target: GL_NO_ERROR or GL_INVALID_VALUE. */
GLenum gles_texture_check_size(GLenum target, GLint level, GLsizei w, GLsizei h, GLsizei d,
			       GLint border)
{
	unsigned max = max_size(target);

	if (level < 0 || (unsigned)level > log2_floor(max) || w < 0 || h < 0 || d < 0 ||
	    border != 0)
		return GL_INVALID_VALUE;
	if ((unsigned)w > max >> level || (unsigned)h > max >> level)
		return GL_INVALID_VALUE;
	if (target == GL_TEXTURE_3D && (unsigned)d > max >> level)
		return GL_INVALID_VALUE;
	if (target == GL_TEXTURE_2D_ARRAY && (unsigned)d > GLES_MAX_ARRAY_TEXTURE_LAYERS)
		return GL_INVALID_VALUE;
	if (is_cube_face(target) && w != h)
		return GL_INVALID_VALUE;
	return GL_NO_ERROR;
}

/* The texture of a glTexImage2D-style target (2D or a cube face), NULL with GL_INVALID_ENUM. */
struct gles_texture *gles_texture_of_image_target(struct gles_context *ctx, GLenum target,
						  bool three_d)
{
	GLenum binding;

	if (three_d) {
		if (target != GL_TEXTURE_3D && target != GL_TEXTURE_2D_ARRAY) {
			gles_error(ctx, GL_INVALID_ENUM);
			return NULL;
		}
		binding = target;
	} else if (target == GL_TEXTURE_2D) {
		binding = target;
	} else if (is_cube_face(target)) {
		binding = GL_TEXTURE_CUBE_MAP;
	} else {
		gles_error(ctx, GL_INVALID_ENUM);
		return NULL;
	}
	return bound_texture(ctx, binding);
}

/* Textures are twiddled; a 0-sized level has no image at all. */
int gles_texture_make_level(struct gles_texture *t, GLenum target, GLint level,
			    const struct gles_format *f, GLenum internalformat, unsigned w,
			    unsigned h, unsigned d)
{
	struct gles_texture_level *l = gles_texture_level(t, target, level);
	struct gles_image *img = NULL, *stencil = NULL;
	int ret = -ENOMEM;

	if (w && h && d) {
		img = calloc(1, sizeof(*img));
		if (!img)
			goto fail;
		ret = gles_image_init(img, t->dev, f->internalformat, f->hw, w, h, d, 1, 0, true);
		if (ret < 0)
			goto fail;
		if (f->hw_stencil != AGX_FORMAT_NONE) {
			ret = -ENOMEM;
			stencil = calloc(1, sizeof(*stencil));
			if (!stencil)
				goto fail;
			ret = gles_image_init(stencil, t->dev, f->internalformat, f->hw_stencil, w,
					      h, d, 1, 0, true);
			if (ret < 0)
				goto fail;
		}
	}
	free_level(t, l);
	*l = (struct gles_texture_level){
		.format = f,
		.internalformat = internalformat,
		.width = w,
		.height = h,
		.depth = d,
		.image = img,
		.stencil = stencil,
	};
	return 0;
fail:
	if (img && img->bo.size)
		gles_image_finish(img);
	free(img);
	free(stencil);
	return ret;
}

/* ---- EGLImages (EGL_KHR_gl_texture_2D_image, GL_OES_EGL_image) ------------------------ */

/* Whether any level but level 0 of t is given. */
static bool has_other_levels(const struct gles_texture *t)
{
	for (unsigned l = 1; l < GLES_MAX_TEXTURE_LEVELS; l++)
		if (t->levels[0][l].format)
			return true;
	return false;
}

/*
 * Level 0 of a texture that has no other level, in a format of a DRM
 * fourcc, moves to a linear image of its own (the texels copied) before
 * it is shared: an EGLImage of it can then be exported as a linear
 * dma-buf (EGL_MESA_image_dma_buf_export), the only layout another
 * process's driver knows.  The texture unit and the PBE take linear
 * images of one level, so the texture samples and renders as before.
 */
static int make_linear(struct gles_texture *t, struct gles_texture_level *l)
{
	struct gles_image *old = l->image, *img;
	unsigned bytes;
	int ret;

	if (!old->layout.twiddled || l->depth != 1 || l->stencil || has_other_levels(t) ||
	    !gles_format_fourcc(old->format))
		return 0;
	if (!(img = calloc(1, sizeof(*img))))
		return -ENOMEM;
	ret = gles_image_init(img, t->dev, old->internalformat, old->format, l->width, l->height, 1,
			      1, 0, false);
	if (ret < 0) {
		free(img);
		return ret;
	}
	bytes = img->layout.bytes_per_texel;
	gles_submit_cpu_access(t->dev, &old->bo);
	for (unsigned y = 0; y < l->height; y++)
		for (unsigned x = 0; x < l->width; x++)
			memcpy(gles_image_texel(img, 0, 0, x, y),
			       gles_image_texel(old, l->image_level, l->image_layer, x, y), bytes);
	if (t->storage == old) {
		t->storage = NULL;
		gles_image_unref(old);
	}
	gles_image_unref(old);
	l->image = img;
	l->image_level = l->image_layer = 0;
	return 0;
}

/*
 * EGL 1.5 section 3.9.1's errors for a GL texture: a level other than 0
 * needs a complete texture; level 0 of an incomplete one, that it is
 * given and that no other level is.  A mutable texture's complete chain
 * is made one image first, so that no draw's chain (sampling.c) moves the
 * shared level away later.
 */
static int source_level(struct gles_texture *t, GLint level, struct gles_image_source *out)
{
	struct gles_texture_level *l;
	bool complete = gles_texture_mipmap_complete(t);
	int ret;

	if (level < 0 || level >= GLES_MAX_TEXTURE_LEVELS)
		return -ERANGE;
	if (!complete && (level != 0 || has_other_levels(t) || !t->levels[0][0].format))
		return -ENOENT;
	l = &t->levels[0][level];
	if (!l->format || !l->image || !l->image->bo.size)
		return -ERANGE;
	if (l->egl_sibling)
		return -EBUSY;
	if (complete && (ret = gles_texture_chain(t)) < 0)
		return ret;
	if (level == 0 && !t->immutable && (ret = make_linear(t, l)) < 0)
		return ret;
	*out = (struct gles_image_source){
		.image = gles_image_ref(l->image),
		.stencil = gles_image_ref(l->stencil),
		.level = l->image_level,
		.layer = l->image_layer,
		.format = l->format,
		.internalformat = l->internalformat,
		.width = l->width,
		.height = l->height,
	};
	l->egl_sibling = true;
	return 0;
}

int gles_texture_image_source(struct gles_share_group *group, GLuint name, GLint level,
			      struct gles_image_source *out)
{
	struct gles_texture *t = NULL;
	int ret;

	pthread_mutex_lock(&group->objects->lock);
	if (name)
		t = gles_texture_ref(gles_names_lookup(&group->objects->textures, name));
	pthread_mutex_unlock(&group->objects->lock);
	/* the default texture (0), a name without a texture, or another target's */
	ret = t && t->target == GL_TEXTURE_2D ? source_level(t, level, out) : -ENOENT;
	gles_texture_unref(t);
	return ret;
}

/*
 * GL_OES_EGL_image: the bound 2D texture's level 0 becomes the image's
 * storage, and every other level goes (as if given a 0x0 image).
 * Immutable textures cannot be respecified (GLES 3.0.6 section 3.8.4);
 * an image of another display's device is none this context can use, and
 * a level the texture unit cannot read (agx_texture_descriptor refuses
 * it) none it can sample: GL_INVALID_OPERATION, the extension's "unable
 * to specify a texture".
 */
void gles_EGLImageTargetTexture2DOES(GLenum target, GLeglImageOES image)
{
	struct gles_context *ctx = gles_current();
	struct gles_image_source src;
	struct gles_texture *t;

	if (!ctx)
		return;
	if (target != GL_TEXTURE_2D) {
		gles_error(ctx, GL_INVALID_ENUM);
		return;
	}
	if (!gles_egl_image_source(image, &src)) {
		gles_error(ctx, GL_INVALID_VALUE);
		return;
	}
	t = bound_texture(ctx, GL_TEXTURE_2D);
	if (t->immutable || src.image->dev != t->dev ||
	    !gles_sampling_level_readable(src.image, src.level)) {
		gles_image_source_release(&src);
		gles_error(ctx, GL_INVALID_OPERATION);
		return;
	}
	for (unsigned face = 0; face < 6; face++)
		for (unsigned l = 0; l < GLES_MAX_TEXTURE_LEVELS; l++)
			free_level(t, &t->levels[face][l]);
	gles_image_unref(t->storage); /* a mip chain sampling.c made */
	t->storage = NULL;
	/* the level takes over src's references */
	t->levels[0][0] = (struct gles_texture_level){
		.format = src.format,
		.internalformat = src.internalformat,
		.width = src.width,
		.height = src.height,
		.depth = 1,
		.image = src.image,
		.image_level = src.level,
		.image_layer = src.layer,
		.stencil = src.stencil,
		.egl_sibling = true,
	};
}

/* ---- pixel unpacking (section 3.7) ----------------------------------------------------- */

/* Where the pixels of a w x h x d upload start and how far apart their rows and images are. */
struct unpack {
	const uint8_t *base; /* NULL: no pixels (the level's contents stay as they are) */
	uint64_t row, image, pixel;
};

/* The size of one GL data element of type, for a pixel unpack buffer offset's alignment. */
static unsigned type_size(GLenum type)
{
	switch (type) {
	case GL_UNSIGNED_BYTE:
	case GL_BYTE:
		return 1;
	case GL_UNSIGNED_SHORT:
	case GL_SHORT:
	case GL_HALF_FLOAT:
	case GL_UNSIGNED_SHORT_5_6_5:
	case GL_UNSIGNED_SHORT_4_4_4_4:
	case GL_UNSIGNED_SHORT_5_5_5_1:
		return 2;
	case GL_FLOAT_32_UNSIGNED_INT_24_8_REV:
		return 8;
	default:
		return 4;
	}
}

/*
 * Section 3.7.4's addressing with the unpack pixel store state, and the
 * pixel unpack buffer's checks (section 3.7.1: GL_INVALID_OPERATION when
 * it is mapped, when the data would reach past its end, or when the offset
 * is not a multiple of the type's size).  compressed: an image of
 * compressed_size bytes, stored as given.
 */
static bool setup_unpack(struct gles_context *ctx, GLenum format, GLenum type, unsigned w,
			 unsigned h, unsigned d, bool three_d, bool compressed,
			 uint64_t compressed_size, const void *data, struct unpack *u)
{
	const struct gles_pixel_store *ps = &ctx->state->unpack;
	struct gles_buffer_object *pbo = ctx->objects->pixel_unpack_buffer;
	uint64_t start, end;

	*u = (struct unpack){ 0 };
	if (compressed) {
		start = 0;
		end = compressed_size;
	} else {
		unsigned row_length = ps->row_length > 0 ? (unsigned)ps->row_length : w;
		unsigned image_height = ps->image_height > 0 ? (unsigned)ps->image_height : h;

		u->pixel = gles_pixel_bytes(format, type);
		u->row = ALIGN(u->pixel * row_length, (uint64_t)ps->alignment);
		u->image = three_d ? u->row * image_height : 0;
		start = ps->skip_pixels * u->pixel + ps->skip_rows * u->row +
			(three_d ? ps->skip_images * u->image : 0);
		end = !w || !h || !d ? start
				     : start + (d - 1) * u->image + (h - 1) * u->row + w * u->pixel;
	}
	if (pbo) {
		uintptr_t offset = (uintptr_t)data;

		if (pbo->access || (!compressed && offset % type_size(type)) ||
		    end + offset > (uint64_t)pbo->size) {
			gles_error(ctx, GL_INVALID_OPERATION);
			return false;
		}
		if (end > start)
			u->base = gles_buffer_data(pbo) + offset + start;
		return true;
	}
	if (data)
		u->base = (const uint8_t *)data + start;
	return true;
}

/* Writes the pixels of u into a w x h x d box of level l at (x, y, z). */
static void upload(const struct gles_texture_level *l, GLenum format, GLenum type,
		   const struct unpack *u, unsigned x0, unsigned y0, unsigned z0, unsigned w,
		   unsigned h, unsigned d)
{
	const struct gles_image *img = l->image;

	if (!u->base || !img || !img->bo.size)
		return;
	gles_submit_cpu_access(img->dev, &img->bo);
	if (l->stencil)
		gles_submit_cpu_access(l->stencil->dev, &l->stencil->bo);
	for (unsigned z = 0; z < d; z++) {
		for (unsigned y = 0; y < h; y++) {
			const uint8_t *src = u->base + z * u->image + y * u->row;

			for (unsigned x = 0; x < w; x++, src += u->pixel) {
				unsigned layer = l->image_layer + z0 + z;
				uint8_t *texel =
				    gles_image_texel(img, l->image_level, layer, x0 + x, y0 + y);
				uint8_t *stencil =
				    l->stencil ? gles_image_texel(l->stencil, l->image_level, layer,
								  x0 + x, y0 + y)
					       : NULL;

				gles_pixel_to_texel(l->format, format, type, src, texel, stencil);
			}
		}
	}
}

/* Copies compressed blocks into a box of whole blocks (x0, y0 in texels, multiples of a block). */
static void upload_blocks(const struct gles_texture_level *l, const uint8_t *src, unsigned x0,
			  unsigned y0, unsigned z0, unsigned w, unsigned h, unsigned d)
{
	const struct gles_image *img = l->image;
	const struct agx_format_info *info = agx_format_info(l->format->hw);
	unsigned bytes = info->bytes, block_w = info->block_w, block_h = info->block_h;
	unsigned bw = (w + block_w - 1) / block_w, bh = (h + block_h - 1) / block_h;

	if (!src || !img || !img->bo.size)
		return;
	gles_submit_cpu_access(img->dev, &img->bo);
	for (unsigned z = 0; z < d; z++)
		for (unsigned by = 0; by < bh; by++)
			for (unsigned bx = 0; bx < bw; bx++, src += bytes)
				memcpy(gles_image_texel(img, l->image_level,
							l->image_layer + z0 + z, x0 / block_w + bx,
							y0 / block_h + by),
				       src, bytes);
}

/*
 * Writes the pixels of u, compressed, into a w x h x d box of level l at
 * (x0, y0, z0), a format the GL compresses (x0 and y0 multiples of 4;
 * the box whole blocks but where it meets the level's edge, whose texels
 * past it are the box's last ones again).
 */
static void upload_encoded(const struct gles_texture_level *l, GLenum format, GLenum type,
			   const struct unpack *u, unsigned x0, unsigned y0, unsigned z0,
			   unsigned w, unsigned h, unsigned d)
{
	const struct gles_format *rgba32f = gles_format_get(GL_RGBA32F);
	const struct gles_image *img = l->image;

	if (!u->base || !img || !img->bo.size || !w || !h)
		return;
	gles_submit_cpu_access(img->dev, &img->bo);
	for (unsigned z = 0; z < d; z++)
		for (unsigned by = 0; by < (h + 3) / 4; by++)
			for (unsigned bx = 0; bx < (w + 3) / 4; bx++) {
				float texels[16][4];

				for (unsigned i = 0; i < 16; i++) {
					unsigned x = 4 * bx + i % 4, y = 4 * by + i / 4;
					const uint8_t *src = u->base + z * u->image +
							     (y < h ? y : h - 1) * u->row +
							     (x < w ? x : w - 1) * u->pixel;

					gles_pixel_to_texel(rgba32f, format, type, src,
							    (uint8_t *)texels[i], NULL);
				}
				gles_compress_block(l->format, (const float(*)[4])texels,
						    gles_image_texel(img, l->image_level,
								     l->image_layer + z0 + z,
								     x0 / 4 + bx, y0 / 4 + by));
			}
}

/* ---- glTexImage, glTexSubImage -------------------------------------------------------- */

static void tex_image(GLenum target, GLint level, GLint internalformat, GLsizei w, GLsizei h,
		      GLsizei d, GLint border, GLenum format, GLenum type, const void *pixels,
		      bool three_d)
{
	struct gles_context *ctx = gles_current();
	const struct gles_format *f;
	struct gles_texture *t;
	struct unpack u;
	GLenum err;

	if (!ctx || !(t = gles_texture_of_image_target(ctx, target, three_d)))
		return;
	if ((err = gles_texture_check_size(target, level, w, h, d, border)) != GL_NO_ERROR) {
		gles_error(ctx, err);
		return;
	}
	if (!(f = gles_format_teximage((GLenum)internalformat, format, type, &err))) {
		gles_error(ctx, err);
		return;
	}
	/* section 3.8.3: no depth or stencil 3D textures; 3.8.6: nor compressed ones */
	if (target == GL_TEXTURE_3D &&
	    (f->base == GL_DEPTH_COMPONENT || f->base == GL_DEPTH_STENCIL ||
	     (f->flags & GLES_FORMAT_ENCODE))) {
		gles_error(ctx, GL_INVALID_OPERATION);
		return;
	}
	if (!setup_unpack(ctx, format, type, (unsigned)w, (unsigned)h, (unsigned)d, three_d, false,
			  0, pixels, &u))
		return;
	if (t->immutable) {
		gles_error(ctx, GL_INVALID_OPERATION);
		return;
	}
	if (gles_texture_make_level(t, target, level, f, (GLenum)internalformat, (unsigned)w,
				    (unsigned)h, (unsigned)d) < 0) {
		gles_error(ctx, GL_OUT_OF_MEMORY);
		return;
	}
	(f->flags & GLES_FORMAT_ENCODE ? upload_encoded : upload)(
	    gles_texture_level(t, target, level), format, type, &u, 0, 0, 0, (unsigned)w,
	    (unsigned)h, (unsigned)d);
}

void gles_TexImage2D(GLenum target, GLint level, GLint internalformat, GLsizei width,
		     GLsizei height, GLint border, GLenum format, GLenum type, const void *pixels)
{
	tex_image(target, level, internalformat, width, height, 1, border, format, type, pixels,
		  false);
}

void gles_TexImage3D(GLenum target, GLint level, GLint internalformat, GLsizei width,
		     GLsizei height, GLsizei depth, GLint border, GLenum format, GLenum type,
		     const void *pixels)
{
	tex_image(target, level, internalformat, width, height, depth, border, format, type, pixels,
		  true);
}

/*
 * The level a sub-image call writes, after section 3.8.5's errors: NULL
 * with the error recorded.  The box must lie in the level.
 */
struct gles_texture_level *gles_texture_sub_level(struct gles_context *ctx, GLenum target,
						  GLint level, GLint x, GLint y, GLint z, GLsizei w,
						  GLsizei h, GLsizei d, bool three_d)
{
	struct gles_texture_level *l;
	struct gles_texture *t;

	if (!(t = gles_texture_of_image_target(ctx, target, three_d)))
		return NULL;
	if (level < 0 || (unsigned)level > log2_floor(max_size(target)) || x < 0 || y < 0 ||
	    z < 0 || w < 0 || h < 0 || d < 0) {
		gles_error(ctx, GL_INVALID_VALUE);
		return NULL;
	}
	l = gles_texture_level(t, target, level);
	if (!l->format) {
		gles_error(ctx, GL_INVALID_OPERATION);
		return NULL;
	}
	if ((GLint64)x + w > l->width || (GLint64)y + h > l->height || (GLint64)z + d > l->depth) {
		gles_error(ctx, GL_INVALID_VALUE);
		return NULL;
	}
	return l;
}

static void tex_sub_image(GLenum target, GLint level, GLint x, GLint y, GLint z, GLsizei w,
			  GLsizei h, GLsizei d, GLenum format, GLenum type, const void *pixels,
			  bool three_d)
{
	struct gles_context *ctx = gles_current();
	struct gles_texture_level *l;
	GLenum err;
	struct unpack u;

	if (!ctx)
		return;
	if (!gles_pixel_format_valid(format) || !gles_pixel_type_valid(type)) {
		gles_error(ctx, GL_INVALID_ENUM);
		return;
	}
	if (!(l = gles_texture_sub_level(ctx, target, level, x, y, z, w, h, d, three_d)))
		return;
	/*
	 * the format and type must be ones the level's internal format takes
	 * (table 3.2, 3.3); a format the GL compresses takes whole blocks
	 * but at the level's edge, as glCompressedTexSubImage does (3.8.6)
	 */
	if ((l->format->flags & GLES_FORMAT_COMPRESSED) &&
	    (!(l->format->flags & GLES_FORMAT_ENCODE) || x % 4 || y % 4 ||
	     (w % 4 && (unsigned)(x + w) != l->width) ||
	     (h % 4 && (unsigned)(y + h) != l->height))) {
		gles_error(ctx, GL_INVALID_OPERATION);
		return;
	}
	if (l->format->flags & GLES_FORMAT_SIZED &&
		    l->internalformat == l->format->internalformat &&
		    !(l->format->flags & GLES_FORMAT_ENCODE)
		? !gles_format_matches(l->format, format, type)
		: !gles_format_teximage(l->internalformat, format, type, &err)) {
		gles_error(ctx, GL_INVALID_OPERATION);
		return;
	}
	if (!setup_unpack(ctx, format, type, (unsigned)w, (unsigned)h, (unsigned)d, three_d, false,
			  0, pixels, &u))
		return;
	(l->format->flags & GLES_FORMAT_ENCODE ? upload_encoded : upload)(
	    l, format, type, &u, (unsigned)x, (unsigned)y, (unsigned)z, (unsigned)w, (unsigned)h,
	    (unsigned)d);
}

void gles_TexSubImage2D(GLenum target, GLint level, GLint xoffset, GLint yoffset, GLsizei width,
			GLsizei height, GLenum format, GLenum type, const void *pixels)
{
	tex_sub_image(target, level, xoffset, yoffset, 0, width, height, 1, format, type, pixels,
		      false);
}

void gles_TexSubImage3D(GLenum target, GLint level, GLint xoffset, GLint yoffset, GLint zoffset,
			GLsizei width, GLsizei height, GLsizei depth, GLenum format, GLenum type,
			const void *pixels)
{
	tex_sub_image(target, level, xoffset, yoffset, zoffset, width, height, depth, format, type,
		      pixels, true);
}

/* ---- compressed images (section 3.8.6) ------------------------------------------------- */

static const struct gles_format *compressed_format(struct gles_context *ctx, GLenum internalformat)
{
	const struct gles_format *f = gles_format_get(internalformat);

	if (!f || !(f->flags & GLES_FORMAT_COMPRESSED)) {
		gles_error(ctx, GL_INVALID_ENUM);
		return NULL;
	}
	return f;
}

static void compressed_image(GLenum target, GLint level, GLenum internalformat, GLsizei w,
			     GLsizei h, GLsizei d, GLint border, GLsizei size, const void *data,
			     bool three_d)
{
	struct gles_context *ctx = gles_current();
	const struct gles_format *f;
	struct gles_texture *t;
	struct unpack u;
	GLenum err;

	if (!ctx || !(t = gles_texture_of_image_target(ctx, target, three_d)))
		return;
	if (!(f = compressed_format(ctx, internalformat)))
		return;
	if ((err = gles_texture_check_size(target, level, w, h, d, border)) != GL_NO_ERROR) {
		gles_error(ctx, err);
		return;
	}
	if (size < 0 || (uint64_t)size !=
			    gles_format_compressed_size(f, (unsigned)w, (unsigned)h, (unsigned)d)) {
		gles_error(ctx, GL_INVALID_VALUE);
		return;
	}
	/*
	 * Section 3.8.6: ETC2/EAC images are 2D, cube faces and 2D array
	 * layers only; KHR_texture_compression_astc_sliced_3d lets ASTC's be
	 * 3D, a slice of blocks at a time.
	 */
	if ((target == GL_TEXTURE_3D && !gles_format_is_astc(f)) || t->immutable) {
		gles_error(ctx, GL_INVALID_OPERATION);
		return;
	}
	if (!setup_unpack(ctx, 0, 0, 0, 0, 0, three_d, true, (uint64_t)size, data, &u))
		return;
	if (gles_texture_make_level(t, target, level, f, internalformat, (unsigned)w, (unsigned)h,
				    (unsigned)d) < 0) {
		gles_error(ctx, GL_OUT_OF_MEMORY);
		return;
	}
	if (size)
		upload_blocks(gles_texture_level(t, target, level), u.base, 0, 0, 0, (unsigned)w,
			      (unsigned)h, (unsigned)d);
}

void gles_CompressedTexImage2D(GLenum target, GLint level, GLenum internalformat, GLsizei width,
			       GLsizei height, GLint border, GLsizei imageSize, const void *data)
{
	compressed_image(target, level, internalformat, width, height, 1, border, imageSize, data,
			 false);
}

void gles_CompressedTexImage3D(GLenum target, GLint level, GLenum internalformat, GLsizei width,
			       GLsizei height, GLsizei depth, GLint border, GLsizei imageSize,
			       const void *data)
{
	compressed_image(target, level, internalformat, width, height, depth, border, imageSize,
			 data, true);
}

static void compressed_sub_image(GLenum target, GLint level, GLint x, GLint y, GLint z, GLsizei w,
				 GLsizei h, GLsizei d, GLenum format, GLsizei size,
				 const void *data, bool three_d)
{
	struct gles_context *ctx = gles_current();
	struct gles_texture_level *l;
	const struct gles_format *f;
	struct unpack u;
	unsigned bw, bh;

	if (!ctx || !(f = compressed_format(ctx, format)))
		return;
	if (!(l = gles_texture_sub_level(ctx, target, level, x, y, z, w, h, d, three_d)))
		return;
	if (size < 0 || (uint64_t)size !=
			    gles_format_compressed_size(f, (unsigned)w, (unsigned)h, (unsigned)d)) {
		gles_error(ctx, GL_INVALID_VALUE);
		return;
	}
	/*
	 * Section 3.8.6: the format must be the level's, and the box whole
	 * blocks except where it reaches the level's edge.
	 */
	bw = agx_format_info(f->hw)->block_w, bh = agx_format_info(f->hw)->block_h;
	if (l->format != f || x % bw || y % bh || (w % bw && (unsigned)(x + w) != l->width) ||
	    (h % bh && (unsigned)(y + h) != l->height)) {
		gles_error(ctx, GL_INVALID_OPERATION);
		return;
	}
	if (!setup_unpack(ctx, 0, 0, 0, 0, 0, three_d, true, (uint64_t)size, data, &u))
		return;
	if (size)
		upload_blocks(l, u.base, (unsigned)x, (unsigned)y, (unsigned)z, (unsigned)w,
			      (unsigned)h, (unsigned)d);
}

void gles_CompressedTexSubImage2D(GLenum target, GLint level, GLint xoffset, GLint yoffset,
				  GLsizei width, GLsizei height, GLenum format, GLsizei imageSize,
				  const void *data)
{
	compressed_sub_image(target, level, xoffset, yoffset, 0, width, height, 1, format,
			     imageSize, data, false);
}

void gles_CompressedTexSubImage3D(GLenum target, GLint level, GLint xoffset, GLint yoffset,
				  GLint zoffset, GLsizei width, GLsizei height, GLsizei depth,
				  GLenum format, GLsizei imageSize, const void *data)
{
	compressed_sub_image(target, level, xoffset, yoffset, zoffset, width, height, depth, format,
			     imageSize, data, true);
}

/* ---- immutable storage (section 3.8.4) ------------------------------------------------- */

static void tex_storage(GLenum target, GLsizei levels, GLenum internalformat, GLsizei w, GLsizei h,
			GLsizei d, bool three_d)
{
	struct gles_context *ctx = gles_current();
	const struct gles_format *f;
	struct gles_image *img = NULL, *stencil = NULL;
	struct gles_texture *t;
	unsigned faces, max, layers, biggest;
	int ret;

	if (!ctx)
		return;
	if (three_d ? target != GL_TEXTURE_3D && target != GL_TEXTURE_2D_ARRAY
		    : target != GL_TEXTURE_2D && target != GL_TEXTURE_CUBE_MAP) {
		gles_error(ctx, GL_INVALID_ENUM);
		return;
	}
	f = gles_format_get(internalformat);
	if (!f || !(f->flags & GLES_FORMAT_SIZED) || !(f->flags & GLES_FORMAT_TEXTURE)) {
		gles_error(ctx, GL_INVALID_ENUM);
		return;
	}
	if (levels < 1 || w < 1 || h < 1 || d < 1) {
		gles_error(ctx, GL_INVALID_VALUE);
		return;
	}
	max = max_size(target);
	if ((unsigned)w > max || (unsigned)h > max ||
	    (target == GL_TEXTURE_3D && (unsigned)d > max) ||
	    (target == GL_TEXTURE_2D_ARRAY && (unsigned)d > GLES_MAX_ARRAY_TEXTURE_LAYERS) ||
	    (target == GL_TEXTURE_CUBE_MAP && w != h)) {
		gles_error(ctx, GL_INVALID_VALUE);
		return;
	}
	t = bound_texture(ctx, target);
	biggest = (unsigned)(w > h ? w : h);
	if (target == GL_TEXTURE_3D && (unsigned)d > biggest)
		biggest = (unsigned)d;
	/*
	 * Section 3.8.4: more levels than the chain has, the default texture,
	 * an immutable texture, and (3.8.3, 3.8.6) depth or compressed 3D
	 * textures (but ASTC's: astc_sliced_3d) are GL_INVALID_OPERATION.
	 */
	if ((unsigned)levels > log2_floor(biggest) + 1 || !t->name || t->immutable ||
	    (target == GL_TEXTURE_3D &&
	     (f->base == GL_DEPTH_COMPONENT || f->base == GL_DEPTH_STENCIL ||
	      ((f->flags & GLES_FORMAT_COMPRESSED) && !gles_format_is_astc(f))))) {
		gles_error(ctx, GL_INVALID_OPERATION);
		return;
	}
	faces = target == GL_TEXTURE_CUBE_MAP ? 6 : 1;
	layers = target == GL_TEXTURE_CUBE_MAP ? 6 : (unsigned)d;
	img = calloc(1, sizeof(*img));
	ret = img ? gles_image_init(img, t->dev, f->internalformat, f->hw, (unsigned)w, (unsigned)h,
				    layers, (unsigned)levels, 0, true)
		  : -ENOMEM;
	if (ret == 0 && f->hw_stencil != AGX_FORMAT_NONE) {
		stencil = calloc(1, sizeof(*stencil));
		ret = stencil ? gles_image_init(stencil, t->dev, f->internalformat, f->hw_stencil,
						(unsigned)w, (unsigned)h, layers, (unsigned)levels,
						0, true)
			      : -ENOMEM;
		if (ret < 0)
			gles_image_finish(img);
	}
	if (ret < 0) {
		free(img);
		free(stencil);
		gles_error(ctx, GL_OUT_OF_MEMORY);
		return;
	}
	/* every level is given, and those past the chain are none (section 3.8.4) */
	for (unsigned face = 0; face < 6; face++)
		for (unsigned l = 0; l < GLES_MAX_TEXTURE_LEVELS; l++)
			free_level(t, &t->levels[face][l]);
	gles_image_unref(t->storage); /* a mutable texture's mip chain (sampling.c) */
	t->immutable = true;
	t->immutable_levels = (unsigned)levels;
	t->storage = img;
	t->storage_stencil = stencil;
	for (unsigned face = 0; face < faces; face++) {
		for (unsigned l = 0; l < (unsigned)levels; l++) {
			t->levels[face][l] = (struct gles_texture_level){
				.format = f,
				.internalformat = internalformat,
				.width = agx_layout_minify((unsigned)w, l),
				.height = agx_layout_minify((unsigned)h, l),
				.depth = target == GL_TEXTURE_3D ? agx_layout_minify((unsigned)d, l)
								 : (unsigned)d,
				.image = img,
				.image_level = l,
				.image_layer = target == GL_TEXTURE_CUBE_MAP ? face : 0,
				.stencil = stencil,
			};
		}
	}
}

void gles_TexStorage2D(GLenum target, GLsizei levels, GLenum internalformat, GLsizei width,
		       GLsizei height)
{
	tex_storage(target, levels, internalformat, width, height, 1, false);
}

void gles_TexStorage3D(GLenum target, GLsizei levels, GLenum internalformat, GLsizei width,
		       GLsizei height, GLsizei depth)
{
	tex_storage(target, levels, internalformat, width, height, depth, true);
}

/* ---- parameters (section 3.8.7) ------------------------------------------------------- */

/* Whether value is one of the values a sampling parameter takes. */
static bool param_valid(GLenum pname, GLint value)
{
	switch (pname) {
	case GL_TEXTURE_WRAP_S:
	case GL_TEXTURE_WRAP_T:
	case GL_TEXTURE_WRAP_R:
		return value == GL_CLAMP_TO_EDGE || value == GL_REPEAT ||
		       value == GL_MIRRORED_REPEAT;
	case GL_TEXTURE_MIN_FILTER:
		return value == GL_NEAREST || value == GL_LINEAR ||
		       value == GL_NEAREST_MIPMAP_NEAREST || value == GL_LINEAR_MIPMAP_NEAREST ||
		       value == GL_NEAREST_MIPMAP_LINEAR || value == GL_LINEAR_MIPMAP_LINEAR;
	case GL_TEXTURE_MAG_FILTER:
		return value == GL_NEAREST || value == GL_LINEAR;
	case GL_TEXTURE_COMPARE_MODE:
		return value == GL_NONE || value == GL_COMPARE_REF_TO_TEXTURE;
	case GL_TEXTURE_COMPARE_FUNC:
		return value >= GL_NEVER && value <= GL_ALWAYS;
	case GL_TEXTURE_SRGB_DECODE_EXT:
		return value == GL_DECODE_EXT || value == GL_SKIP_DECODE_EXT;
	default:
		return true;
	}
}

bool gles_sampler_state_set(struct gles_context *ctx, struct gles_sampler_state *s, GLenum pname,
			    GLint ivalue, GLfloat fvalue, bool is_float)
{
	GLint e = is_float ? (GLint)fvalue : ivalue;
	GLenum *field;

	switch (pname) {
	case GL_TEXTURE_MIN_LOD:
		s->min_lod = is_float ? fvalue : (GLfloat)ivalue;
		return true;
	case GL_TEXTURE_MAX_LOD:
		s->max_lod = is_float ? fvalue : (GLfloat)ivalue;
		return true;
	case GL_TEXTURE_WRAP_S:
		field = &s->wrap_s;
		break;
	case GL_TEXTURE_WRAP_T:
		field = &s->wrap_t;
		break;
	case GL_TEXTURE_WRAP_R:
		field = &s->wrap_r;
		break;
	case GL_TEXTURE_MIN_FILTER:
		field = &s->min_filter;
		break;
	case GL_TEXTURE_MAG_FILTER:
		field = &s->mag_filter;
		break;
	case GL_TEXTURE_COMPARE_MODE:
		field = &s->compare_mode;
		break;
	case GL_TEXTURE_COMPARE_FUNC:
		field = &s->compare_func;
		break;
	case GL_TEXTURE_SRGB_DECODE_EXT:
		field = &s->srgb_decode;
		break;
	default:
		return false;
	}
	if (!param_valid(pname, e))
		gles_error(ctx, GL_INVALID_ENUM);
	else
		*field = (GLenum)e;
	return true;
}

bool gles_sampler_state_get(const struct gles_sampler_state *s, GLenum pname, GLint *i, GLfloat *f,
			    bool *is_float)
{
	*is_float = false;
	switch (pname) {
	case GL_TEXTURE_MIN_LOD:
		*f = s->min_lod, *is_float = true;
		return true;
	case GL_TEXTURE_MAX_LOD:
		*f = s->max_lod, *is_float = true;
		return true;
	case GL_TEXTURE_WRAP_S:
		*i = (GLint)s->wrap_s;
		return true;
	case GL_TEXTURE_WRAP_T:
		*i = (GLint)s->wrap_t;
		return true;
	case GL_TEXTURE_WRAP_R:
		*i = (GLint)s->wrap_r;
		return true;
	case GL_TEXTURE_MIN_FILTER:
		*i = (GLint)s->min_filter;
		return true;
	case GL_TEXTURE_MAG_FILTER:
		*i = (GLint)s->mag_filter;
		return true;
	case GL_TEXTURE_COMPARE_MODE:
		*i = (GLint)s->compare_mode;
		return true;
	case GL_TEXTURE_COMPARE_FUNC:
		*i = (GLint)s->compare_func;
		return true;
	case GL_TEXTURE_SRGB_DECODE_EXT:
		*i = (GLint)s->srgb_decode;
		return true;
	default:
		return false;
	}
}

static void tex_parameter(GLenum target, GLenum pname, GLint ivalue, GLfloat fvalue, bool is_float)
{
	struct gles_context *ctx = gles_current();
	struct gles_texture *t;
	GLint v = is_float ? (GLint)lroundf(fvalue) : ivalue;
	GLint e = is_float ? (GLint)fvalue : ivalue;

	if (!ctx || !(t = bound_texture(ctx, target)))
		return;
	if (gles_sampler_state_set(ctx, &t->sampler, pname, ivalue, fvalue, is_float))
		return;
	switch (pname) {
	case GL_TEXTURE_BASE_LEVEL:
	case GL_TEXTURE_MAX_LEVEL:
		if (v < 0) {
			gles_error(ctx, GL_INVALID_VALUE);
			return;
		}
		*(pname == GL_TEXTURE_BASE_LEVEL ? &t->base_level : &t->max_level) = v;
		return;
	case GL_TEXTURE_SWIZZLE_R:
	case GL_TEXTURE_SWIZZLE_G:
	case GL_TEXTURE_SWIZZLE_B:
	case GL_TEXTURE_SWIZZLE_A:
		if (e != GL_RED && e != GL_GREEN && e != GL_BLUE && e != GL_ALPHA && e != GL_ZERO &&
		    e != GL_ONE) {
			gles_error(ctx, GL_INVALID_ENUM);
			return;
		}
		t->swizzle[pname - GL_TEXTURE_SWIZZLE_R] = (GLenum)e;
		return;
	default:
		gles_error(ctx, GL_INVALID_ENUM);
	}
}

void gles_TexParameteri(GLenum target, GLenum pname, GLint param)
{
	tex_parameter(target, pname, param, 0, false);
}

void gles_TexParameterf(GLenum target, GLenum pname, GLfloat param)
{
	tex_parameter(target, pname, 0, param, true);
}

void gles_TexParameteriv(GLenum target, GLenum pname, const GLint *params)
{
	tex_parameter(target, pname, params ? params[0] : 0, 0, false);
}

void gles_TexParameterfv(GLenum target, GLenum pname, const GLfloat *params)
{
	tex_parameter(target, pname, 0, params ? params[0] : 0, true);
}

/* A parameter's value: false (GL_INVALID_ENUM) when pname is none. */
static bool tex_param_value(struct gles_context *ctx, GLenum target, GLenum pname, GLint *i,
			    GLfloat *f, bool *is_float)
{
	struct gles_texture *t;

	if (!(t = bound_texture(ctx, target)))
		return false;
	if (gles_sampler_state_get(&t->sampler, pname, i, f, is_float))
		return true;
	*is_float = false;
	switch (pname) {
	case GL_TEXTURE_BASE_LEVEL:
		*i = t->base_level;
		return true;
	case GL_TEXTURE_MAX_LEVEL:
		*i = t->max_level;
		return true;
	case GL_TEXTURE_SWIZZLE_R:
	case GL_TEXTURE_SWIZZLE_G:
	case GL_TEXTURE_SWIZZLE_B:
	case GL_TEXTURE_SWIZZLE_A:
		*i = (GLint)t->swizzle[pname - GL_TEXTURE_SWIZZLE_R];
		return true;
	case GL_TEXTURE_IMMUTABLE_FORMAT:
		*i = t->immutable ? GL_TRUE : GL_FALSE;
		return true;
	case GL_TEXTURE_IMMUTABLE_LEVELS:
		*i = (GLint)t->immutable_levels;
		return true;
	default:
		gles_error(ctx, GL_INVALID_ENUM);
		return false;
	}
}

void gles_GetTexParameteriv(GLenum target, GLenum pname, GLint *params)
{
	struct gles_context *ctx = gles_current();
	GLint i = 0;
	GLfloat f = 0;
	bool is_float;

	if (ctx && tex_param_value(ctx, target, pname, &i, &f, &is_float) && params)
		*params = is_float ? (GLint)lroundf(f) : i;
}

void gles_GetTexParameterfv(GLenum target, GLenum pname, GLfloat *params)
{
	struct gles_context *ctx = gles_current();
	GLint i = 0;
	GLfloat f = 0;
	bool is_float;

	if (ctx && tex_param_value(ctx, target, pname, &i, &f, &is_float) && params)
		*params = is_float ? f : (GLfloat)i;
}

/* ---- glGenerateMipmap (section 3.8.10) ------------------------------------------------- */

/*
 * Whether f's levels are drawn on the GPU (mipmap.c): formats the pass
 * renders and the texture unit filters, of normalized or float values --
 * every format glGenerateMipmap takes but the unsized LUMINANCE, ALPHA
 * and LUMINANCE_ALPHA, which no framebuffer renders and which keep the
 * box filter on the CPU.  (Sized formats that are not colour-renderable
 * and filterable, integer and depth ones are errors, above.)
 */
static bool mipmap_drawn(const struct gles_format *f)
{
	return (f->flags & GLES_FORMAT_COLOR_RENDERABLE) && (f->flags & GLES_FORMAT_FILTERABLE) &&
	       !(f->flags & GLES_FORMAT_COMPRESSED) &&
	       (f->component_type == GL_UNSIGNED_NORMALIZED || f->component_type == GL_FLOAT);
}

/*
 * Level l of face of a mutable texture as glGenerateMipmap leaves it: half
 * of src, in its format.  A level that is that already keeps its image
 * (every texel of it is written again), so that generating the chain
 * again -- after an upload of the base level, say -- neither frees images
 * the GPU may still read nor makes sampling.c copy the chain again.
 */
static int mipmap_level(struct gles_texture *t, GLenum face, unsigned l,
			const struct gles_texture_level *src, bool three_d)
{
	const struct gles_texture_level *dst = gles_texture_level(t, face, (GLint)l);
	unsigned w = agx_layout_minify(src->width, 1), h = agx_layout_minify(src->height, 1);
	unsigned d = three_d ? agx_layout_minify(src->depth, 1) : src->depth;

	if (t->immutable ||
	    (dst->format == src->format && dst->internalformat == src->internalformat &&
	     dst->width == w && dst->height == h && dst->depth == d && dst->image &&
	     dst->image->bo.size))
		return 0;
	return gles_texture_make_level(t, face, (GLint)l, src->format, src->internalformat, w, h,
				       d);
}

/* Averages the 2x2 (or 2x2x2) texels under each texel of level dst from level src. */
static void box_filter(const struct gles_texture_level *src, const struct gles_texture_level *dst,
		       bool three_d)
{
	const struct agx_format_info *info = agx_format_info(src->format->hw);
	enum agx_format hw = src->format->hw;

	if (!dst->image || !dst->image->bo.size || !src->image || !src->image->bo.size)
		return;
	gles_submit_cpu_access(src->image->dev, &src->image->bo);
	gles_submit_cpu_access(dst->image->dev, &dst->image->bo);
	for (unsigned z = 0; z < dst->depth; z++) {
		for (unsigned y = 0; y < dst->height; y++) {
			for (unsigned x = 0; x < dst->width; x++) {
				float sum[4] = { 0 }, rgba[4];
				unsigned n = 0;
				uint8_t texel[16] = { 0 };

				for (unsigned dz = 0; dz < (three_d ? 2u : 1u); dz++) {
					for (unsigned dy = 0; dy < 2; dy++) {
						for (unsigned dx = 0; dx < 2; dx++) {
							unsigned sx = 2 * x + dx, sy = 2 * y + dy;
							unsigned sz = three_d ? 2 * z + dz : z;

							if (sx >= src->width || sy >= src->height ||
							    sz >= src->depth)
								continue;
							agx_format_unpack_float(
							    hw,
							    gles_image_texel(
								src->image, src->image_level,
								src->image_layer + sz, sx, sy),
							    rgba);
							for (unsigned c = 0; c < 4; c++)
								sum[c] += rgba[c];
							n++;
						}
					}
				}
				for (unsigned c = 0; c < 4; c++)
					sum[c] /= (float)n;
				/* the texel read back gives the swizzled values: store them back */
				if (hw == AGX_FORMAT_A8_UNORM)
					sum[0] = 0;
				if (hw == AGX_FORMAT_L8A8_UNORM)
					sum[1] = 0;
				agx_format_pack_float(hw, sum, texel);
				memcpy(gles_image_texel(dst->image, dst->image_level,
							dst->image_layer + z, x, y),
				       texel, info->bytes);
			}
		}
	}
}

void gles_GenerateMipmap(GLenum target)
{
	struct gles_context *ctx = gles_current();
	struct gles_texture *t;
	const struct gles_texture_level *base;
	unsigned faces, base_level, last;
	bool three_d = target == GL_TEXTURE_3D, drawn;

	if (!ctx || !(t = bound_texture(ctx, target)))
		return;
	faces = target == GL_TEXTURE_CUBE_MAP ? 6 : 1;
	base_level = t->immutable && (unsigned)t->base_level >= t->immutable_levels
			 ? t->immutable_levels - 1
			 : (unsigned)t->base_level;
	if (base_level >= GLES_MAX_TEXTURE_LEVELS) {
		gles_error(ctx, GL_INVALID_OPERATION);
		return;
	}
	base = &t->levels[0][base_level];
	/*
	 * Section 3.8.10: the base level must exist (cube complete for a cube
	 * map) in an unsized format or a sized one that is colour-renderable
	 * and filterable.
	 */
	if (!base->format || (base->format->flags & GLES_FORMAT_COMPRESSED) ||
	    ((base->format->flags & GLES_FORMAT_SIZED) &&
	     base->internalformat == base->format->internalformat &&
	     !((base->format->flags & GLES_FORMAT_COLOR_RENDERABLE) &&
	       (base->format->flags & GLES_FORMAT_FILTERABLE))) ||
	    base->format->base == GL_DEPTH_COMPONENT || base->format->base == GL_DEPTH_STENCIL) {
		gles_error(ctx, GL_INVALID_OPERATION);
		return;
	}
	for (unsigned f = 1; f < faces; f++) {
		const struct gles_texture_level *l = &t->levels[f][base_level];

		if (l->format != base->format || l->internalformat != base->internalformat ||
		    l->width != base->width || l->height != base->height) {
			gles_error(ctx, GL_INVALID_OPERATION);
			return;
		}
	}
	if (target == GL_TEXTURE_CUBE_MAP && base->width != base->height) {
		gles_error(ctx, GL_INVALID_OPERATION);
		return;
	}
	/* levels base + 1 .. q: the chain's end, max_level, or the immutable levels */
	{
		unsigned biggest = base->width > base->height ? base->width : base->height;

		if (three_d && base->depth > biggest)
			biggest = base->depth;
		last = base_level + log2_floor(biggest);
	}
	if ((GLint)last > t->max_level)
		last = (unsigned)t->max_level;
	if (t->immutable && last >= t->immutable_levels)
		last = t->immutable_levels - 1;
	if (last >= GLES_MAX_TEXTURE_LEVELS)
		last = GLES_MAX_TEXTURE_LEVELS - 1;
	drawn = mipmap_drawn(base->format);
	for (unsigned f = 0; f < faces; f++) {
		GLenum face = faces == 6 ? GL_TEXTURE_CUBE_MAP_POSITIVE_X + f : target;

		for (unsigned l = base_level + 1; l <= last; l++) {
			const struct gles_texture_level *src = &t->levels[f][l - 1];
			int ret;

			if (mipmap_level(t, face, l, src, three_d) < 0) {
				gles_error(ctx, GL_OUT_OF_MEMORY);
				return;
			}
			/* a level the pass cannot render (-EINVAL) is filtered on the CPU */
			ret = drawn ? gles_mipmap_draw_level(ctx, t, face, l) : -EINVAL;
			if (ret == -EINVAL || ret == -ENOENT) {
				box_filter(src, &t->levels[f][l], three_d);
			} else if (ret < 0) {
				gles_error(ctx, GL_OUT_OF_MEMORY);
				return;
			}
		}
	}
}
