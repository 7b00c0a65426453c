/*
 * objects.c: the share group's object namespaces and each context's
 * bindings of objects (objects.h): creation and teardown, the lock, and
 * the glGet provider of module B (get.h): object bindings, draw and read
 * buffers, the framebuffer-dependent values and the compressed formats.
 */
#include <errno.h>
#include <stdlib.h>

#include "context.h"
#include "get.h"
#include "objects.h"
#include "state.h"
#include "xfb.h"

_Static_assert(GLES_NUM_COMPRESSED_FORMATS <= GLES_GET_MAX_VALUES,
	       "GL_COMPRESSED_TEXTURE_FORMATS fits a query's values");

int gles_shared_objects_init(struct gles_share_group *group)
{
	struct gles_shared_objects *o = calloc(1, sizeof(*o));

	if (!o)
		return -ENOMEM;
	pthread_mutex_init(&o->lock, NULL);
	gles_names_init(&o->buffers);
	gles_names_init(&o->textures);
	gles_names_init(&o->samplers);
	gles_names_init(&o->renderbuffers);
	gles_names_init(&o->syncs);
	group->objects = o;
	return 0;
}

static void unref_buffer(void *obj, void *data)
{
	(void)data;
	gles_buffer_unref(obj);
}

static void unref_texture(void *obj, void *data)
{
	(void)data;
	gles_texture_unref(obj);
}

static void unref_sampler(void *obj, void *data)
{
	(void)data;
	gles_sampler_unref(obj);
}

static void unref_renderbuffer(void *obj, void *data)
{
	(void)data;
	gles_renderbuffer_unref(obj);
}

static void unref_sync(void *obj, void *data)
{
	(void)data;
	gles_sync_unref(obj);
}

/* The last context of the group is gone, and with it every binding: the names' references go. */
void gles_shared_objects_finish(struct gles_share_group *group)
{
	struct gles_shared_objects *o = group->objects;

	if (!o)
		return;
	gles_names_foreach(&o->buffers, unref_buffer, NULL);
	gles_names_foreach(&o->textures, unref_texture, NULL);
	gles_names_foreach(&o->samplers, unref_sampler, NULL);
	gles_names_foreach(&o->renderbuffers, unref_renderbuffer, NULL);
	gles_names_foreach(&o->syncs, unref_sync, NULL);
	gles_names_finish(&o->buffers);
	gles_names_finish(&o->textures);
	gles_names_finish(&o->samplers);
	gles_names_finish(&o->renderbuffers);
	gles_names_finish(&o->syncs);
	pthread_mutex_destroy(&o->lock);
	free(o);
	group->objects = NULL;
}

void gles_objects_lock(struct gles_context *ctx)
{
	pthread_mutex_lock(&ctx->share->objects->lock);
}

void gles_objects_unlock(struct gles_context *ctx)
{
	pthread_mutex_unlock(&ctx->share->objects->lock);
}

static const GLenum default_targets[4] = { GL_TEXTURE_2D, GL_TEXTURE_3D, GL_TEXTURE_2D_ARRAY,
					   GL_TEXTURE_CUBE_MAP };

int gles_objects_init(struct gles_context *ctx)
{
	struct gles_objects *o = calloc(1, sizeof(*o));

	if (!o)
		return -ENOMEM;
	ctx->objects = o;
	/* section 3.8.1: each target has a default texture, named 0, of the context's own */
	for (unsigned i = 0; i < 4; i++) {
		o->default_textures[i] = gles_texture_create(ctx, 0, default_targets[i]);
		if (!o->default_textures[i]) {
			gles_objects_finish(ctx);
			return -ENOMEM;
		}
		for (unsigned u = 0; u < GLES_MAX_TEXTURE_UNITS; u++)
			o->textures[u][i] = gles_texture_ref(o->default_textures[i]);
	}
	gles_names_init(&o->framebuffers);
	gles_names_init(&o->vertex_arrays);
	o->default_draw_buffer = o->default_read_buffer = GL_BACK;
	gles_vertex_array_init(&o->default_vao, 0);
	o->vao = &o->default_vao;
	return 0;
}

static void free_vao(void *vao, void *data)
{
	(void)data;
	gles_vertex_array_finish(vao);
	free(vao);
}

void gles_objects_finish(struct gles_context *ctx)
{
	struct gles_objects *o = ctx->objects;

	if (!o)
		return;
	gles_objects_lock(ctx);
	gles_buffer_bind_slot(&o->array_buffer, NULL);
	gles_buffer_bind_slot(&o->copy_read_buffer, NULL);
	gles_buffer_bind_slot(&o->copy_write_buffer, NULL);
	gles_buffer_bind_slot(&o->pixel_pack_buffer, NULL);
	gles_buffer_bind_slot(&o->pixel_unpack_buffer, NULL);
	gles_buffer_bind_slot(&o->uniform_buffer, NULL);
	gles_buffer_bind_slot(&o->transform_feedback_buffer, NULL);
	for (unsigned k = 0; k < GLES_MAX_UNIFORM_BUFFER_BINDINGS; k++)
		gles_buffer_bind_slot(&o->uniform_ranges[k].buffer, NULL);
	if (ctx->state)
		gles_xfb_unbind_buffers(&ctx->state->xfb);
	for (unsigned u = 0; u < GLES_MAX_TEXTURE_UNITS; u++) {
		for (unsigned i = 0; i < 4; i++)
			gles_texture_unref(o->textures[u][i]);
		gles_sampler_unref(o->samplers[u]);
	}
	for (unsigned i = 0; i < 4; i++)
		gles_texture_unref(o->default_textures[i]);
	gles_renderbuffer_unref(o->renderbuffer);
	gles_names_foreach(&o->framebuffers, gles_framebuffer_destroy, NULL);
	gles_names_finish(&o->framebuffers);
	gles_names_foreach(&o->vertex_arrays, free_vao, NULL);
	gles_names_finish(&o->vertex_arrays);
	gles_vertex_array_finish(&o->default_vao);
	gles_objects_unlock(ctx);
	free(o);
	ctx->objects = NULL;
}

/* ---- glGet ------------------------------------------------------------------------------- */

static GLint name_of_buffer(const struct gles_buffer_object *b)
{
	return b ? (GLint)b->name : 0;
}

/* RED_BITS .. STENCIL_BITS of the draw framebuffer (0 while it is incomplete). */
static void framebuffer_bits(struct gles_context *ctx, GLint bits[6])
{
	struct gles_framebuffer *fb = ctx->objects->draw_fb;
	struct gles_image_target t;

	for (unsigned k = 0; k < 6; k++)
		bits[k] = 0;
	if (!fb) {
		const struct gles_drawable *d = ctx->draw;

		if (d) {
			bits[0] = (GLint)d->red_bits, bits[1] = (GLint)d->green_bits;
			bits[2] = (GLint)d->blue_bits, bits[3] = (GLint)d->alpha_bits;
			bits[4] = (GLint)d->depth_bits, bits[5] = (GLint)d->stencil_bits;
		}
		return;
	}
	if (gles_framebuffer_status(ctx, false) != GL_FRAMEBUFFER_COMPLETE)
		return;
	/* the colour bits of the first colour buffer drawn to, or of the first attachment */
	for (unsigned i = 0; i < GLES_MAX_DRAW_BUFFERS + GLES_MAX_COLOR_ATTACHMENTS; i++) {
		const struct gles_format *f;
		const struct gles_attachment *a;

		if (i < GLES_MAX_DRAW_BUFFERS) {
			GLenum b = fb->draw_buffers[i];

			if (b < GL_COLOR_ATTACHMENT0 ||
			    b >= GL_COLOR_ATTACHMENT0 + GLES_MAX_COLOR_ATTACHMENTS)
				continue;
			a = &fb->att[b - GL_COLOR_ATTACHMENT0];
		} else {
			a = &fb->att[i - GLES_MAX_DRAW_BUFFERS];
		}
		if (a->type == GL_NONE)
			continue;
		f = a->type == GL_RENDERBUFFER
			? a->renderbuffer->format
			: gles_texture_level(a->texture, a->face ? a->face : a->texture->target,
					     a->level)
			      ->format;
		bits[0] = f->red, bits[1] = f->green, bits[2] = f->blue, bits[3] = f->alpha;
		break;
	}
	if (gles_framebuffer_depth_target(ctx, false, &t))
		bits[4] = t.image ? gles_format_get(t.image->internalformat)->depth : 0;
	if (gles_framebuffer_stencil_target(ctx, false, &t))
		bits[5] = t.image ? gles_format_get(t.image->internalformat)->stencil : 0;
}

static bool indexed(struct gles_context *ctx, GLenum pname, int index, struct gles_get_value *out)
{
	struct gles_objects *o = ctx->objects;
	const struct gles_buffer_range *r;
	unsigned max;

	switch (pname) {
	case GL_UNIFORM_BUFFER_BINDING:
	case GL_UNIFORM_BUFFER_START:
	case GL_UNIFORM_BUFFER_SIZE:
		max = GLES_MAX_UNIFORM_BUFFER_BINDINGS;
		r = o->uniform_ranges;
		break;
	case GL_TRANSFORM_FEEDBACK_BUFFER_BINDING:
	case GL_TRANSFORM_FEEDBACK_BUFFER_START:
	case GL_TRANSFORM_FEEDBACK_BUFFER_SIZE:
		max = GLES_MAX_TRANSFORM_FEEDBACK_SEPARATE_ATTRIBS;
		r = ctx->state->xfb.bound->ranges;
		break;
	default:
		return false;
	}
	/* section 6.1.4: an index past the binding points */
	if ((unsigned)index >= max) {
		gles_error(ctx, GL_INVALID_VALUE);
		out->count = 0;
		return true;
	}
	r += index;
	if (pname == GL_UNIFORM_BUFFER_BINDING || pname == GL_TRANSFORM_FEEDBACK_BUFFER_BINDING)
		gles_get_set_int(out, name_of_buffer(r->buffer));
	else if (pname == GL_UNIFORM_BUFFER_START || pname == GL_TRANSFORM_FEEDBACK_BUFFER_START)
		gles_get_set_int64(out, r->offset);
	else
		gles_get_set_int64(out, r->size);
	return true;
}

bool gles_objects_get(struct gles_context *ctx, GLenum pname, int index, struct gles_get_value *out)
{
	struct gles_objects *o = ctx->objects;
	unsigned unit = ctx->state->active_texture;
	GLint bits[6];

	if (index >= 0)
		return indexed(ctx, pname, index, out);
	switch (pname) {
	case GL_ARRAY_BUFFER_BINDING:
		gles_get_set_int(out, name_of_buffer(o->array_buffer));
		return true;
	case GL_ELEMENT_ARRAY_BUFFER_BINDING:
		gles_get_set_int(out, name_of_buffer(o->vao->element_buffer));
		return true;
	case GL_TEXTURE_BINDING_2D:
		gles_get_set_int(out, (GLint)o->textures[unit][0]->name);
		return true;
	case GL_TEXTURE_BINDING_CUBE_MAP:
		gles_get_set_int(out, (GLint)o->textures[unit][3]->name);
		return true;
	case GL_RENDERBUFFER_BINDING:
		gles_get_set_int(out, o->renderbuffer ? (GLint)o->renderbuffer->name : 0);
		return true;
	case GL_FRAMEBUFFER_BINDING: /* GL_DRAW_FRAMEBUFFER_BINDING */
		gles_get_set_int(out, o->draw_fb ? (GLint)o->draw_fb->name : 0);
		return true;
	case GL_RED_BITS:
	case GL_GREEN_BITS:
	case GL_BLUE_BITS:
	case GL_ALPHA_BITS:
	case GL_DEPTH_BITS:
	case GL_STENCIL_BITS:
		framebuffer_bits(ctx, bits);
		gles_get_set_int(out, bits[pname - GL_RED_BITS]);
		return true;
	case GL_SAMPLES:
		gles_get_set_int(out, (GLint)gles_framebuffer_samples(ctx, false));
		return true;
	case GL_SAMPLE_BUFFERS:
		gles_get_set_int(out, gles_framebuffer_samples(ctx, false) ? 1 : 0);
		return true;
	case GL_IMPLEMENTATION_COLOR_READ_FORMAT:
	case GL_IMPLEMENTATION_COLOR_READ_TYPE: {
		const struct gles_format *f = NULL;
		GLenum format, type;

		/* section 4.3.1: only of a complete read framebuffer with a read buffer */
		if (gles_framebuffer_status(ctx, true) != GL_FRAMEBUFFER_COMPLETE ||
		    !(f = gles_framebuffer_read_format(ctx)) ||
		    !gles_format_read_pair(f, &format, &type)) {
			gles_error(ctx, GL_INVALID_OPERATION);
			out->count = 0;
			return true;
		}
		gles_get_set_enum(out,
				  pname == GL_IMPLEMENTATION_COLOR_READ_FORMAT ? format : type);
		return true;
	}
	case GL_NUM_COMPRESSED_TEXTURE_FORMATS:
		gles_get_set_int(out, GLES_NUM_COMPRESSED_FORMATS);
		return true;
	case GL_COMPRESSED_TEXTURE_FORMATS:
		gles_get_set_ints(out, GLES_GET_ENUM, GLES_NUM_COMPRESSED_FORMATS,
				  (const GLint *)gles_compressed_formats);
		return true;
	case GL_COPY_READ_BUFFER_BINDING:
		gles_get_set_int(out, name_of_buffer(o->copy_read_buffer));
		return true;
	case GL_COPY_WRITE_BUFFER_BINDING:
		gles_get_set_int(out, name_of_buffer(o->copy_write_buffer));
		return true;
	case GL_PIXEL_PACK_BUFFER_BINDING:
		gles_get_set_int(out, name_of_buffer(o->pixel_pack_buffer));
		return true;
	case GL_PIXEL_UNPACK_BUFFER_BINDING:
		gles_get_set_int(out, name_of_buffer(o->pixel_unpack_buffer));
		return true;
	case GL_UNIFORM_BUFFER_BINDING:
		gles_get_set_int(out, name_of_buffer(o->uniform_buffer));
		return true;
	case GL_TRANSFORM_FEEDBACK_BUFFER_BINDING:
		gles_get_set_int(out, name_of_buffer(o->transform_feedback_buffer));
		return true;
	case GL_TEXTURE_BINDING_3D:
		gles_get_set_int(out, (GLint)o->textures[unit][1]->name);
		return true;
	case GL_TEXTURE_BINDING_2D_ARRAY:
		gles_get_set_int(out, (GLint)o->textures[unit][2]->name);
		return true;
	case GL_SAMPLER_BINDING:
		gles_get_set_int(out, o->samplers[unit] ? (GLint)o->samplers[unit]->name : 0);
		return true;
	case GL_READ_FRAMEBUFFER_BINDING:
		gles_get_set_int(out, o->read_fb ? (GLint)o->read_fb->name : 0);
		return true;
	case GL_VERTEX_ARRAY_BINDING:
		gles_get_set_int(out, (GLint)o->vao->name);
		return true;
	case GL_READ_BUFFER:
		gles_get_set_enum(out,
				  o->read_fb ? o->read_fb->read_buffer : o->default_read_buffer);
		return true;
	}
	if (pname >= GL_DRAW_BUFFER0 && pname <= GL_DRAW_BUFFER15) {
		unsigned i = pname - GL_DRAW_BUFFER0;

		/* past MAX_DRAW_BUFFERS: GL_INVALID_OPERATION, as Mesa */
		if (i >= GLES_MAX_DRAW_BUFFERS) {
			gles_error(ctx, GL_INVALID_OPERATION);
			out->count = 0;
			return true;
		}
		gles_get_set_enum(out, o->draw_fb ? o->draw_fb->draw_buffers[i]
						  : (i == 0 ? o->default_draw_buffer : GL_NONE));
		return true;
	}
	return false;
}
