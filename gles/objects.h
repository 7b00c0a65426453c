/*
 * objects.h: the GL objects of module B -- buffers, textures, samplers,
 * renderbuffers (shared by a share group, in namespaces under one lock),
 * framebuffers and vertex arrays (each context's own), sync objects
 * (shared) -- and each context's bindings of them.
 *
 * Lifetimes: an object is refcounted.  Its name in a namespace holds one
 * reference, each binding point and framebuffer attachment one more;
 * glDelete* frees the name and the current context's bindings at once
 * (GLES 3.0.6 sections 5.1.2, 5.1.3), and the object goes when the last
 * binding in any context lets it go.  Namespaces and refcounts are
 * guarded by the share group's objects lock; an object's contents are
 * not (GL leaves concurrent changes to one object from two contexts to
 * the application, section 5.1).
 */
#ifndef GLES_OBJECTS_H
#define GLES_OBJECTS_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

#include <GLES3/gl3.h>

#include "formats.h"
#include "image.h"
#include "limits.h"
#include "names.h"

struct gles_context;
struct gles_share_group;

/* A 16384-texel level 0 has 15 levels (limits.h, GLES_MAX_TEXTURE_SIZE). */
#define GLES_MAX_TEXTURE_LEVELS 15
#define GLES_MAX_TEXTURE_UNITS	GLES_MAX_COMBINED_TEXTURE_IMAGE_UNITS

/* ---- buffers (buffer.c) ---- */

struct gles_buffer_object {
	unsigned refs;
	GLuint name;
	struct agx_device *dev;
	struct agx_bo bo; /* bo.size 0 while the buffer has no bytes */
	GLsizeiptr size;
	GLenum usage;
	/* glMapBufferRange's mapping: access 0 when not mapped */
	GLbitfield access;
	GLintptr map_offset;
	GLsizeiptr map_length;
	char *label; /* KHR_debug's (debug.c), NULL for none; the same in every struct below */
};

/* The buffer's bytes in this process (NULL for an empty buffer). */
static inline uint8_t *gles_buffer_data(const struct gles_buffer_object *b)
{
	return b->size ? (uint8_t *)b->bo.map : NULL;
}

/* An indexed binding: glBindBufferRange's range, or all of it (size 0: glBindBufferBase). */
struct gles_buffer_range {
	struct gles_buffer_object *buffer;
	GLintptr offset;
	GLsizeiptr size;
};

/* ---- samplers (sampler.c) and the sampling state textures have too ---- */

struct gles_sampler_state {
	GLenum min_filter, mag_filter;
	GLenum wrap_s, wrap_t, wrap_r;
	GLfloat min_lod, max_lod;
	GLenum compare_mode, compare_func;
	GLenum srgb_decode; /* EXT_texture_sRGB_decode: DECODE_EXT or SKIP_DECODE_EXT */
};

struct gles_sampler {
	unsigned refs;
	GLuint name;
	struct gles_sampler_state state;
	char *label;
};

/* Table 6.13's initial sampling state (a sampler object's too, table 6.14). */
void gles_sampler_state_init(struct gles_sampler_state *s);
/*
 * Sets a sampling parameter of s (texture.c, for textures and samplers):
 * false when pname is not one; GL_INVALID_ENUM recorded for a value it
 * does not take.  Enums come as given (iv) or truncated (fv), LODs as floats.
 */
bool gles_sampler_state_set(struct gles_context *ctx, struct gles_sampler_state *s, GLenum pname,
			    GLint ivalue, GLfloat fvalue, bool is_float);
/* A sampling parameter of s, an int or (*is_float) a float: false when pname is not one. */
bool gles_sampler_state_get(const struct gles_sampler_state *s, GLenum pname, GLint *i, GLfloat *f,
			    bool *is_float);

/* ---- textures (texture.c) ---- */

struct gles_texture_level {
	const struct gles_format *format; /* NULL: the level was never given */
	GLenum internalformat;		  /* as the application named it (unsized stays so) */
	unsigned width, height, depth;
	/* the image holding it, and its level and layer (a cube face) in that image */
	struct gles_image *image;
	unsigned image_level, image_layer;
	struct gles_image *stencil; /* DEPTH32F_STENCIL8's stencil image, else NULL */
	/* an EGLImage was made of it, or it is one's (EGL 1.5 section 3.9: an EGLImage sibling) */
	bool egl_sibling;
};

struct gles_texture {
	unsigned refs;
	GLuint name;   /* 0: a context's default texture of its target */
	GLenum target; /* 0 until first bound */
	struct agx_device *dev;
	/* [face][level]: faces 0..5 for cube maps (GL_TEXTURE_CUBE_MAP_POSITIVE_X + face) */
	struct gles_texture_level levels[6][GLES_MAX_TEXTURE_LEVELS];
	/* glTexStorage's images (the colour/depth one, and a stencil one) */
	bool immutable;
	unsigned immutable_levels;
	struct gles_image *storage, *storage_stencil;
	struct gles_sampler_state sampler;
	GLint base_level, max_level;
	GLenum swizzle[4];
	char *label;
};

/* A new texture object (one reference, the caller's): NULL when out of memory. */
struct gles_texture *gles_texture_create(struct gles_context *ctx, GLuint name, GLenum target);

/* The level of a texture a face target (or the texture's target) names; NULL for none. */
struct gles_texture_level *gles_texture_level(struct gles_texture *tex, GLenum target, GLint level);

/*
 * What glTexImage* and glCopyTex* (copy.c) share.  The texture bound for
 * a glTexImage2D-style target (2D or a cube face; three_d: 3D or 2D
 * array), NULL with GL_INVALID_ENUM recorded.
 */
struct gles_texture *gles_texture_of_image_target(struct gles_context *ctx, GLenum target,
						  bool three_d);
/* Section 3.8.3's level, size and border errors: GL_NO_ERROR or GL_INVALID_VALUE. */
GLenum gles_texture_check_size(GLenum target, GLint level, GLsizei w, GLsizei h, GLsizei d,
			       GLint border);
/* Gives a level of a mutable texture new (zeroed) images of f: 0 or a negative errno. */
int gles_texture_make_level(struct gles_texture *t, GLenum target, GLint level,
			    const struct gles_format *f, GLenum internalformat, unsigned w,
			    unsigned h, unsigned d);
/*
 * The level a sub-image call writes, after section 3.8.5's errors (target,
 * level, offsets and sizes, a level never given): NULL with the error
 * recorded.  The box must lie in the level.
 */
struct gles_texture_level *gles_texture_sub_level(struct gles_context *ctx, GLenum target,
						  GLint level, GLint x, GLint y, GLint z, GLsizei w,
						  GLsizei h, GLsizei d, bool three_d);

/* ---- EGLImages' storage (egl_image.c, EGL 1.5 section 3.9) ---- */

/*
 * What an EGLImage shares: one level (and layer) of an image, and its
 * stencil image for a format with one, each with a reference of its
 * holder; and the level's format and size.
 */
struct gles_image_source {
	struct gles_image *image, *stencil;
	unsigned level, layer;
	const struct gles_format *format;
	GLenum internalformat;
	unsigned width, height;
};

/* Drops the references of src. */
void gles_image_source_release(struct gles_image_source *src);

/*
 * EGL_KHR_gl_texture_2D_image's source: level `level` of the 2D texture
 * named `name` in a share group (its context need not be current), marked an
 * EGLImage sibling, with references for the caller.  0, or -ENOENT for
 * what EGL calls EGL_BAD_PARAMETER (no such 2D texture, the default one,
 * an incomplete texture the level cannot come from), -ERANGE for a level
 * the texture does not have (EGL_BAD_MATCH), -EBUSY for a level already a
 * sibling (EGL_BAD_ACCESS), -ENOMEM.
 */
int gles_texture_image_source(struct gles_share_group *group, GLuint name, GLint level,
			      struct gles_image_source *out);

/*
 * EGL_KHR_gl_renderbuffer_image's source: the renderbuffer named `name`
 * in a share group, its storage shared from now on (it outlives the
 * renderbuffer), with references for the caller.  0, or -ENOENT for
 * EGL_BAD_PARAMETER (no such renderbuffer, a multisampled one, one without
 * storage), -EBUSY for one already an EGLImage sibling (EGL_BAD_ACCESS),
 * -ENOMEM.
 */
int gles_renderbuffer_image_source(struct gles_share_group *group, GLuint name,
				   struct gles_image_source *out);

/*
 * The storage of the EGLImage handle (of any display), with references
 * for the caller: false when handle is no EGLImage.
 */
bool gles_egl_image_source(void *handle, struct gles_image_source *out);

/* ---- renderbuffers (renderbuffer.c) ---- */

struct gles_renderbuffer {
	unsigned refs;
	GLuint name;
	struct agx_device *dev;
	GLenum internalformat; /* GL_RGBA4 until storage is given (table 6.16) */
	const struct gles_format *format;
	unsigned width, height, samples;
	struct gles_image image, stencil; /* stencil: DEPTH32F_STENCIL8's */
	/* glEGLImageTargetRenderbufferStorageOES's storage instead, with references */
	struct gles_image_source egl;
	char *label;
};

/* ---- framebuffers (framebuffer.c) ---- */

struct gles_attachment {
	GLenum type; /* GL_NONE, GL_TEXTURE, GL_RENDERBUFFER */
	struct gles_texture *texture;
	struct gles_renderbuffer *renderbuffer;
	GLint level;
	GLenum face; /* the cube face target for a cube map texture, else 0 */
	GLint layer; /* glFramebufferTextureLayer's layer, else 0 */
};

/* attachment points: COLOR_ATTACHMENT0.., then depth and stencil */
#define GLES_ATTACH_DEPTH   GLES_MAX_COLOR_ATTACHMENTS
#define GLES_ATTACH_STENCIL (GLES_MAX_COLOR_ATTACHMENTS + 1)
#define GLES_ATTACH_COUNT   (GLES_MAX_COLOR_ATTACHMENTS + 2)

struct gles_framebuffer {
	GLuint name;
	bool ever_bound;
	struct gles_attachment att[GLES_ATTACH_COUNT];
	GLenum draw_buffers[GLES_MAX_DRAW_BUFFERS];
	GLenum read_buffer;
	char *label;
};

/* Detaches t or r from the bound draw and read framebuffers (section 4.4.2.3). */
void gles_framebuffer_detach(struct gles_context *ctx, struct gles_texture *t,
			     struct gles_renderbuffer *r);

/* ---- vertex arrays (vertex_array.c) ---- */

struct gles_vertex_attrib_array {
	bool enabled, normalized, integer;
	GLint size;
	GLenum type;
	GLsizei stride; /* as given: 0 means tightly packed */
	GLuint divisor;
	const void *pointer; /* an offset into buffer, or a client pointer when buffer is NULL */
	struct gles_buffer_object *buffer;
};

struct gles_vertex_array {
	GLuint name;
	bool ever_bound;
	struct gles_vertex_attrib_array attribs[GLES_MAX_VERTEX_ATTRIBS];
	uint32_t enabled; /* bit i: attribs[i].enabled, which draws check for mapped buffers */
	struct gles_buffer_object *element_buffer;
	char *label;
};

/* A vertex array's initial state (table 6.2), and the release of its buffers and label. */
void gles_vertex_array_init(struct gles_vertex_array *vao, GLuint name);
void gles_vertex_array_finish(struct gles_vertex_array *vao);
/* Frees a framebuffer object (a gles_names_foreach callback: data unused). */
void gles_framebuffer_destroy(void *fb, void *data);

/* ---- syncs (sync.c) ---- */

struct gles_sync {
	unsigned refs;
	GLuint name;
	bool signaled;
	bool deleted; /* glDeleteSync while a wait used it */
	/* the context's last submission when the fence was made: signaled when it completes */
	struct agx_device *dev;
	uint32_t syncobj;
	uint64_t point;
	char *label;
};

/* ---- the share group's namespaces (one field of struct gles_share_group) ---- */

struct gles_shared_objects {
	pthread_mutex_t lock;
	struct gles_names buffers, textures, samplers, renderbuffers, syncs;
};

int gles_shared_objects_init(struct gles_share_group *group);
void gles_shared_objects_finish(struct gles_share_group *group);

/* ---- a context's bindings and own objects (one field of struct gles_context) ---- */

/* The default framebuffer's buffers, as default_images holds their views. */
enum gles_default_buffer {
	GLES_DEFAULT_COLOR,
	GLES_DEFAULT_DEPTH,
	GLES_DEFAULT_STENCIL,
	GLES_DEFAULT_BUFFERS,
};

struct gles_objects {
	/* buffer binding points (the element array buffer is the vertex array's) */
	struct gles_buffer_object *array_buffer, *copy_read_buffer, *copy_write_buffer;
	struct gles_buffer_object *pixel_pack_buffer, *pixel_unpack_buffer;
	struct gles_buffer_object *uniform_buffer, *transform_feedback_buffer;
	struct gles_buffer_range uniform_ranges[GLES_MAX_UNIFORM_BUFFER_BINDINGS];

	/* texture units: [unit][0 2D, 1 3D, 2 2D array, 3 cube] */
	struct gles_texture *textures[GLES_MAX_TEXTURE_UNITS][4];
	struct gles_texture *default_textures[4];
	struct gles_sampler *samplers[GLES_MAX_TEXTURE_UNITS];

	struct gles_renderbuffer *renderbuffer;

	struct gles_names framebuffers;
	struct gles_framebuffer *draw_fb, *read_fb; /* NULL: the default framebuffer */
	/* the default framebuffer's draw and read buffers: GL_BACK or GL_NONE */
	GLenum default_draw_buffer, default_read_buffer;
	/* the drawables' buffers as images, refreshed by each lookup */
	struct gles_image default_images[2][GLES_DEFAULT_BUFFERS]; /* [read][which] */

	struct gles_names vertex_arrays;
	struct gles_vertex_array default_vao, *vao;
};

int gles_objects_init(struct gles_context *ctx);
void gles_objects_finish(struct gles_context *ctx);

/* ---- references, taken under the share group's objects lock or by the owner ---- */

struct gles_buffer_object *gles_buffer_ref(struct gles_buffer_object *b);
void gles_buffer_unref(struct gles_buffer_object *b);
struct gles_texture *gles_texture_ref(struct gles_texture *t);
void gles_texture_unref(struct gles_texture *t);
struct gles_sampler *gles_sampler_ref(struct gles_sampler *s);
void gles_sampler_unref(struct gles_sampler *s);
struct gles_renderbuffer *gles_renderbuffer_ref(struct gles_renderbuffer *r);
void gles_renderbuffer_unref(struct gles_renderbuffer *r);
void gles_sync_unref(struct gles_sync *s);

/* Swaps *slot to obj (NULL: none), taking a reference and dropping the old one. */
void gles_buffer_bind_slot(struct gles_buffer_object **slot, struct gles_buffer_object *obj);

/* Locks the context's share group's namespaces. */
void gles_objects_lock(struct gles_context *ctx);
void gles_objects_unlock(struct gles_context *ctx);

/* ---- what clears and reads use (clear.c, readpixels.c) ---- */

/* The framebuffer bound to draw (read false) or read: NULL for the default framebuffer. */
struct gles_framebuffer *gles_framebuffer_bound(struct gles_context *ctx, bool read);

/*
 * GLES 3.0.6 section 4.4.4.2: GL_FRAMEBUFFER_COMPLETE or why not, for the
 * draw (read false) or read framebuffer.  The default framebuffer is
 * complete when the context has a drawable, else GL_FRAMEBUFFER_UNDEFINED.
 */
GLenum gles_framebuffer_status(struct gles_context *ctx, bool read);

/*
 * The image of the draw framebuffer's draw buffer i (GL_DRAW_BUFFERi), or
 * the read framebuffer's read buffer (read true, i ignored): false when it
 * is GL_NONE or has no image.  Default framebuffer images stay valid until
 * the next lookup or eglMakeCurrent.
 */
/*
 * The surfaces of the draw framebuffer that may have an image: its draw
 * buffers that are not GL_NONE (bit i: GL_DRAW_BUFFERi, those that
 * gles_framebuffer_color_target may find an image for), then depth (bit
 * GLES_MAX_DRAW_BUFFERS) and stencil (the next) when it has an attachment
 * or, the default framebuffer, a drawable with the bits for them.
 */
unsigned gles_framebuffer_draw_surfaces(struct gles_context *ctx);
/*
 * What surface i of the draw framebuffer (colour 0..7, then depth and
 * stencil) is over: the image's BO handle (0: no surface) and map, its
 * format, level and layer -- what the color, depth and stencil targets
 * below give, found without making the default framebuffer's images.
 * No padding: keys are compared as bytes.
 */
struct gles_target_key {
	uint32_t handle;
	enum agx_format format;
	const void *map;
	uint32_t level, layer;
};
void gles_framebuffer_draw_key(struct gles_context *ctx, unsigned i, struct gles_target_key *key);
bool gles_framebuffer_color_target(struct gles_context *ctx, bool read, unsigned i,
				   struct gles_image_target *out);
/*
 * The depth or stencil attachment's image: of a format with both, its
 * depth image or its stencil image (image.h).
 */
bool gles_framebuffer_depth_target(struct gles_context *ctx, bool read,
				   struct gles_image_target *out);
bool gles_framebuffer_stencil_target(struct gles_context *ctx, bool read,
				     struct gles_image_target *out);
/*
 * The size of the draw or read framebuffer: the drawable's, or the
 * intersection of a framebuffer object's attachments (section 4.4.4.2).
 * False when it has none (no drawable, nothing attached).
 */
bool gles_framebuffer_size(struct gles_context *ctx, bool read, unsigned *w, unsigned *h);
/* GL_SAMPLES of the draw or read framebuffer (0: single-sampled). */
unsigned gles_framebuffer_samples(struct gles_context *ctx, bool read);
/* The internal format of the read buffer (glReadPixels' read format), GL_NONE if none. */
const struct gles_format *gles_framebuffer_read_format(struct gles_context *ctx);

/*
 * glReadPixels into a GL_PIXEL_PACK_BUFFER (ctx->objects->pixel_pack_buffer):
 * GL_INVALID_OPERATION is due when it is mapped (section 2.9.3).
 */
static inline bool gles_buffer_is_mapped(const struct gles_buffer_object *b)
{
	return b && b->access;
}

#endif
