/*
 * buffer.c: buffer objects (GLES 3.0.6 section 2.9): names, binding
 * points (generic and indexed), storage in BOs of the context's device --
 * always mapped in this process, so glMapBufferRange returns a pointer
 * into the BO -- and their queries.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "context.h"
#include "extensions.h"
#include "gl_functions.h"
#include "objects.h"
#include "state.h"
#include "submit.h"

/*
 * GL_BUFFER_ACCESS_OES of a glMapBufferRange mapping that reads: OpenGL's
 * READ_ONLY and READ_WRITE, which OES_mapbuffer does not name (it maps for
 * writing only) and Mesa answers in ES too.
 */
#define ACCESS_READ_ONLY  0x88B8
#define ACCESS_READ_WRITE 0x88BA

struct gles_buffer_object *gles_buffer_ref(struct gles_buffer_object *b)
{
	if (b)
		__atomic_add_fetch(&b->refs, 1, __ATOMIC_RELAXED);
	return b;
}

void gles_buffer_unref(struct gles_buffer_object *b)
{
	if (!b || __atomic_sub_fetch(&b->refs, 1, __ATOMIC_ACQ_REL))
		return;
	if (b->bo.size) {
		gles_submit_forget_bo(b->dev, &b->bo);
		agx_device_bo_close(b->dev, &b->bo);
	}
	free(b->label);
	free(b);
}

void gles_buffer_bind_slot(struct gles_buffer_object **slot, struct gles_buffer_object *obj)
{
	struct gles_buffer_object *old = *slot;

	*slot = gles_buffer_ref(obj);
	gles_buffer_unref(old);
}

/* The binding point of target, NULL (GL_INVALID_ENUM recorded) for none. */
static struct gles_buffer_object **target_slot(struct gles_context *ctx, GLenum target)
{
	struct gles_objects *o = ctx->objects;

	switch (target) {
	case GL_ARRAY_BUFFER:
		return &o->array_buffer;
	case GL_ELEMENT_ARRAY_BUFFER:
		return &o->vao->element_buffer;
	case GL_COPY_READ_BUFFER:
		return &o->copy_read_buffer;
	case GL_COPY_WRITE_BUFFER:
		return &o->copy_write_buffer;
	case GL_PIXEL_PACK_BUFFER:
		return &o->pixel_pack_buffer;
	case GL_PIXEL_UNPACK_BUFFER:
		return &o->pixel_unpack_buffer;
	case GL_UNIFORM_BUFFER:
		return &o->uniform_buffer;
	case GL_TRANSFORM_FEEDBACK_BUFFER:
		return &o->transform_feedback_buffer;
	}
	gles_error(ctx, GL_INVALID_ENUM);
	return NULL;
}

/* The buffer bound to target: NULL with GL_INVALID_ENUM or GL_INVALID_OPERATION (none bound). */
static struct gles_buffer_object *bound(struct gles_context *ctx, GLenum target)
{
	struct gles_buffer_object **slot = target_slot(ctx, target);

	if (!slot)
		return NULL;
	if (!*slot)
		gles_error(ctx, GL_INVALID_OPERATION);
	return *slot;
}

static struct gles_buffer_object *create(struct gles_context *ctx, GLuint name)
{
	struct gles_buffer_object *b = calloc(1, sizeof(*b));

	if (!b)
		return NULL;
	b->refs = 1; /* the namespace's */
	b->name = name;
	b->dev = ctx->dev;
	b->usage = GL_STATIC_DRAW;
	if (gles_names_set(&ctx->share->objects->buffers, name, b) < 0) {
		free(b);
		return NULL;
	}
	return b;
}

/*
 * The buffer named name, made if it has never been bound (section 2.9.1:
 * binding an unused name creates the object); NULL for 0, or with
 * GL_OUT_OF_MEMORY recorded.  Under the objects lock.
 */
static struct gles_buffer_object *lookup_or_create(struct gles_context *ctx, GLuint name,
						   bool *failed)
{
	struct gles_buffer_object *b;

	*failed = false;
	if (!name)
		return NULL;
	b = gles_names_lookup(&ctx->share->objects->buffers, name);
	if (!b && !(b = create(ctx, name))) {
		gles_error(ctx, GL_OUT_OF_MEMORY);
		*failed = true;
	}
	return b;
}

void gles_GenBuffers(GLsizei n, GLuint *buffers)
{
	struct gles_context *ctx = gles_current();

	if (!ctx)
		return;
	if (n < 0) {
		gles_error(ctx, GL_INVALID_VALUE);
		return;
	}
	gles_objects_lock(ctx);
	if (gles_names_gen(&ctx->share->objects->buffers, (unsigned)n, buffers) < 0)
		gles_error(ctx, GL_OUT_OF_MEMORY);
	gles_objects_unlock(ctx);
}

void gles_BindBuffer(GLenum target, GLuint buffer)
{
	struct gles_context *ctx = gles_current();
	struct gles_buffer_object **slot, *b;
	bool failed;

	if (!ctx || !(slot = target_slot(ctx, target)))
		return;
	gles_objects_lock(ctx);
	b = lookup_or_create(ctx, buffer, &failed);
	if (!failed)
		gles_buffer_bind_slot(slot, b);
	gles_objects_unlock(ctx);
}

GLboolean gles_IsBuffer(GLuint buffer)
{
	struct gles_context *ctx = gles_current();
	bool is;

	if (!ctx)
		return GL_FALSE;
	gles_objects_lock(ctx);
	is = gles_names_lookup(&ctx->share->objects->buffers, buffer) != NULL;
	gles_objects_unlock(ctx);
	return is ? GL_TRUE : GL_FALSE;
}

/* Resets slot to 0 if it holds b. */
static void unbind(struct gles_buffer_object **slot, struct gles_buffer_object *b)
{
	if (*slot == b)
		gles_buffer_bind_slot(slot, NULL);
}

void gles_DeleteBuffers(GLsizei n, const GLuint *buffers)
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
	for (GLsizei i = 0; i < n; i++) {
		struct gles_buffer_object *b =
		    buffers[i] ? gles_names_lookup(&ctx->share->objects->buffers, buffers[i])
			       : NULL;

		if (!b) {
			/* a reserved name that names no object yet is freed too */
			if (buffers[i])
				gles_names_remove(&ctx->share->objects->buffers, buffers[i]);
			continue;
		}
		/*
		 * Section 2.9.1: the bindings of the current context go back to 0
		 * (other contexts keep theirs), the current vertex array's too;
		 * a mapped buffer is unmapped first (section 2.9.3).
		 */
		b->access = 0;
		unbind(&o->array_buffer, b);
		unbind(&o->copy_read_buffer, b);
		unbind(&o->copy_write_buffer, b);
		unbind(&o->pixel_pack_buffer, b);
		unbind(&o->pixel_unpack_buffer, b);
		unbind(&o->uniform_buffer, b);
		unbind(&o->transform_feedback_buffer, b);
		for (unsigned k = 0; k < GLES_MAX_UNIFORM_BUFFER_BINDINGS; k++)
			if (o->uniform_ranges[k].buffer == b)
				gles_buffer_bind_slot(&o->uniform_ranges[k].buffer, NULL);
		for (unsigned k = 0; k < GLES_MAX_TRANSFORM_FEEDBACK_SEPARATE_ATTRIBS; k++)
			if (ctx->state->xfb.bound->ranges[k].buffer == b)
				gles_buffer_bind_slot(&ctx->state->xfb.bound->ranges[k].buffer,
						      NULL);
		unbind(&o->vao->element_buffer, b);
		for (unsigned k = 0; k < GLES_MAX_VERTEX_ATTRIBS; k++)
			unbind(&o->vao->attribs[k].buffer, b);
		gles_names_remove(&ctx->share->objects->buffers, buffers[i]);
		gles_buffer_unref(b);
	}
	gles_objects_unlock(ctx);
}

static bool usage_valid(GLenum usage)
{
	switch (usage) {
	case GL_STREAM_DRAW:
	case GL_STATIC_DRAW:
	case GL_DYNAMIC_DRAW:
	case GL_STREAM_READ:
	case GL_STREAM_COPY:
	case GL_STATIC_READ:
	case GL_STATIC_COPY:
	case GL_DYNAMIC_READ:
	case GL_DYNAMIC_COPY:
		return true;
	default:
		return false;
	}
}

void gles_BufferData(GLenum target, GLsizeiptr size, const void *data, GLenum usage)
{
	struct gles_context *ctx = gles_current();
	struct gles_buffer_object **slot, *b;
	struct agx_bo bo = { 0 };

	if (!ctx || !(slot = target_slot(ctx, target)))
		return;
	if (size < 0) {
		gles_error(ctx, GL_INVALID_VALUE);
		return;
	}
	if (!usage_valid(usage)) {
		gles_error(ctx, GL_INVALID_ENUM);
		return;
	}
	if (!(b = *slot)) {
		gles_error(ctx, GL_INVALID_OPERATION);
		return;
	}
	/* new storage: the old store goes, a mapping with it (section 2.9.2) */
	if (size && agx_device_bo_create(b->dev, (uint64_t)size, 0, &bo) < 0) {
		gles_error(ctx, GL_OUT_OF_MEMORY);
		return;
	}
	if (b->bo.size) {
		gles_submit_forget_bo(b->dev, &b->bo);
		agx_device_bo_close(b->dev, &b->bo);
	}
	b->bo = bo;
	b->size = size;
	b->usage = usage;
	b->access = 0;
	b->map_offset = b->map_length = 0;
	if (size && data)
		memcpy(b->bo.map, data, (size_t)size);
}

void gles_BufferSubData(GLenum target, GLintptr offset, GLsizeiptr size, const void *data)
{
	struct gles_context *ctx = gles_current();
	struct gles_buffer_object **slot, *b;

	if (!ctx || !(slot = target_slot(ctx, target)))
		return;
	if (offset < 0 || size < 0) {
		gles_error(ctx, GL_INVALID_VALUE);
		return;
	}
	if (!(b = *slot)) {
		gles_error(ctx, GL_INVALID_OPERATION);
		return;
	}
	if (size > b->size - offset || offset > b->size) {
		gles_error(ctx, GL_INVALID_VALUE);
		return;
	}
	if (b->access) {
		gles_error(ctx, GL_INVALID_OPERATION);
		return;
	}
	if (size && data) {
		gles_submit_cpu_access(b->dev, &b->bo);
		memcpy(gles_buffer_data(b) + offset, data, (size_t)size);
	}
}

#define MAP_BITS                                                                                   \
	(GL_MAP_READ_BIT | GL_MAP_WRITE_BIT | GL_MAP_INVALIDATE_RANGE_BIT |                        \
	 GL_MAP_INVALIDATE_BUFFER_BIT | GL_MAP_FLUSH_EXPLICIT_BIT | GL_MAP_UNSYNCHRONIZED_BIT)

void *gles_MapBufferRange(GLenum target, GLintptr offset, GLsizeiptr length, GLbitfield access)
{
	struct gles_context *ctx = gles_current();
	struct gles_buffer_object **slot, *b;

	if (!ctx || !(slot = target_slot(ctx, target)))
		return NULL;
	if (offset < 0 || length < 0 || (access & ~MAP_BITS)) {
		gles_error(ctx, GL_INVALID_VALUE);
		return NULL;
	}
	/* GLES 3.0.6 section 2.9.3's INVALID_OPERATION cases: a zero length is one of them */
	if (!(b = *slot) || length == 0 || !(access & (GL_MAP_READ_BIT | GL_MAP_WRITE_BIT)) ||
	    ((access & GL_MAP_READ_BIT) &&
	     (access & (GL_MAP_INVALIDATE_RANGE_BIT | GL_MAP_INVALIDATE_BUFFER_BIT |
			GL_MAP_UNSYNCHRONIZED_BIT))) ||
	    ((access & GL_MAP_FLUSH_EXPLICIT_BIT) && !(access & GL_MAP_WRITE_BIT)) || b->access) {
		gles_error(ctx, GL_INVALID_OPERATION);
		return NULL;
	}
	if (length > b->size - offset || offset > b->size) {
		gles_error(ctx, GL_INVALID_VALUE);
		return NULL;
	}
	/*
	 * The BO is mapped in this process for its whole life: the mapping is
	 * a pointer into it, once the draws that use it have run (unless the
	 * application said not to wait).  Invalidation leaves the bytes as
	 * they were, which the spec allows ("undefined").
	 */
	if (!(access & GL_MAP_UNSYNCHRONIZED_BIT))
		gles_submit_cpu_access(b->dev, &b->bo);
	b->access = access;
	b->map_offset = offset;
	b->map_length = length;
	return gles_buffer_data(b) + offset;
}

/*
 * OES_mapbuffer's glMapBufferOES: the whole buffer, for writing only
 * (GL_WRITE_ONLY_OES, the one access it defines: others INVALID_ENUM),
 * after the draws that use it have run -- glMapBufferRange's mapping with
 * GL_MAP_WRITE_BIT.  Unlike glMapBufferRange it maps an empty buffer too.
 */
void *gles_MapBufferOES(GLenum target, GLenum access)
{
	struct gles_context *ctx = gles_current();
	struct gles_buffer_object **slot, *b;

	if (!ctx || !(slot = target_slot(ctx, target)))
		return NULL;
	if (access != GL_WRITE_ONLY_OES) {
		gles_error(ctx, GL_INVALID_ENUM);
		return NULL;
	}
	if (!(b = *slot) || b->access) {
		gles_error(ctx, GL_INVALID_OPERATION);
		return NULL;
	}
	gles_submit_cpu_access(b->dev, &b->bo);
	b->access = GL_MAP_WRITE_BIT;
	b->map_offset = 0;
	b->map_length = b->size;
	return gles_buffer_data(b);
}

GLboolean gles_UnmapBuffer(GLenum target)
{
	struct gles_context *ctx = gles_current();
	struct gles_buffer_object *b;

	if (!ctx || !(b = bound(ctx, target)))
		return GL_FALSE;
	if (!b->access) {
		gles_error(ctx, GL_INVALID_OPERATION);
		return GL_FALSE;
	}
	b->access = 0;
	b->map_offset = b->map_length = 0;
	/* the store never goes bad while mapped: GL_TRUE (section 2.9.4) */
	return GL_TRUE;
}

void gles_FlushMappedBufferRange(GLenum target, GLintptr offset, GLsizeiptr length)
{
	struct gles_context *ctx = gles_current();
	struct gles_buffer_object *b;

	if (!ctx || !(b = bound(ctx, target)))
		return;
	if (offset < 0 || length < 0) {
		gles_error(ctx, GL_INVALID_VALUE);
		return;
	}
	if (!b->access || !(b->access & GL_MAP_FLUSH_EXPLICIT_BIT)) {
		gles_error(ctx, GL_INVALID_OPERATION);
		return;
	}
	if (offset > b->map_length || length > b->map_length - offset) {
		gles_error(ctx, GL_INVALID_VALUE);
		return;
	}
	/* the CPU's writes are in the BO already, which the GPU sees coherently */
}

void gles_GetBufferPointerv(GLenum target, GLenum pname, void **params)
{
	struct gles_context *ctx = gles_current();
	struct gles_buffer_object **slot, *b;

	if (!ctx || !(slot = target_slot(ctx, target)))
		return;
	if (pname != GL_BUFFER_MAP_POINTER) {
		gles_error(ctx, GL_INVALID_ENUM);
		return;
	}
	if (!(b = *slot)) {
		gles_error(ctx, GL_INVALID_OPERATION);
		return;
	}
	if (params)
		*params = b->access ? gles_buffer_data(b) + b->map_offset : NULL;
}

void gles_CopyBufferSubData(GLenum readTarget, GLenum writeTarget, GLintptr readOffset,
			    GLintptr writeOffset, GLsizeiptr size)
{
	struct gles_context *ctx = gles_current();
	struct gles_buffer_object **rs, **ws, *r, *w;

	if (!ctx || !(rs = target_slot(ctx, readTarget)) || !(ws = target_slot(ctx, writeTarget)))
		return;
	r = *rs, w = *ws;
	if (!r || !w || r->access || w->access) {
		gles_error(ctx, GL_INVALID_OPERATION);
		return;
	}
	/* section 2.9.5: negative values, ranges past the ends, overlap within one buffer */
	if (readOffset < 0 || writeOffset < 0 || size < 0 || readOffset > r->size ||
	    size > r->size - readOffset || writeOffset > w->size || size > w->size - writeOffset ||
	    (r == w && readOffset < writeOffset + size && writeOffset < readOffset + size)) {
		gles_error(ctx, GL_INVALID_VALUE);
		return;
	}
	if (size) {
		gles_submit_cpu_access(w->dev, &w->bo);
		gles_submit_cpu_access(r->dev, &r->bo);
		memmove(gles_buffer_data(w) + writeOffset, gles_buffer_data(r) + readOffset,
			(size_t)size);
	}
}

/* One glGetBufferParameter* value of b: false (GL_INVALID_ENUM recorded) for no such name. */
static bool buffer_parameter(struct gles_context *ctx, const struct gles_buffer_object *b,
			     GLenum pname, GLint64 *value)
{
	switch (pname) {
	case GL_BUFFER_SIZE:
		*value = b->size;
		return true;
	case GL_BUFFER_USAGE:
		*value = b->usage;
		return true;
	case GL_BUFFER_ACCESS_FLAGS:
		*value = b->access;
		return true;
	case GL_BUFFER_MAPPED:
		*value = b->access ? GL_TRUE : GL_FALSE;
		return true;
	case GL_BUFFER_MAP_OFFSET:
		*value = b->map_offset;
		return true;
	case GL_BUFFER_MAP_LENGTH:
		*value = b->map_length;
		return true;
	case GL_BUFFER_ACCESS_OES:
		/* OES_mapbuffer's: how a mapping may be used (WRITE_ONLY_OES when none is) */
		*value = (b->access & GL_MAP_READ_BIT) && (b->access & GL_MAP_WRITE_BIT)
			     ? ACCESS_READ_WRITE
			 : b->access & GL_MAP_READ_BIT ? ACCESS_READ_ONLY
						       : GL_WRITE_ONLY_OES;
		return true;
	}
	gles_error(ctx, GL_INVALID_ENUM);
	return false;
}

static bool pname_valid(GLenum pname)
{
	switch (pname) {
	case GL_BUFFER_SIZE:
	case GL_BUFFER_USAGE:
	case GL_BUFFER_ACCESS_FLAGS:
	case GL_BUFFER_MAPPED:
	case GL_BUFFER_MAP_OFFSET:
	case GL_BUFFER_MAP_LENGTH:
	case GL_BUFFER_ACCESS_OES:
		return true;
	default:
		return false;
	}
}

void gles_GetBufferParameteriv(GLenum target, GLenum pname, GLint *params)
{
	struct gles_context *ctx = gles_current();
	struct gles_buffer_object **slot;
	GLint64 v;

	if (!ctx || !(slot = target_slot(ctx, target)))
		return;
	if (!pname_valid(pname)) {
		gles_error(ctx, GL_INVALID_ENUM);
		return;
	}
	if (!*slot) {
		gles_error(ctx, GL_INVALID_OPERATION);
		return;
	}
	if (buffer_parameter(ctx, *slot, pname, &v) && params)
		*params = v > INT32_MAX ? INT32_MAX : (GLint)v;
}

void gles_GetBufferParameteri64v(GLenum target, GLenum pname, GLint64 *params)
{
	struct gles_context *ctx = gles_current();
	struct gles_buffer_object **slot;
	GLint64 v;

	if (!ctx || !(slot = target_slot(ctx, target)))
		return;
	if (!pname_valid(pname)) {
		gles_error(ctx, GL_INVALID_ENUM);
		return;
	}
	if (!*slot) {
		gles_error(ctx, GL_INVALID_OPERATION);
		return;
	}
	if (buffer_parameter(ctx, *slot, pname, &v) && params)
		*params = v;
}

/* ---- indexed binding points (section 2.9.1, 2.11.7, 2.15) ---- */

static struct gles_buffer_range *indexed_slot(struct gles_context *ctx, GLenum target, GLuint index)
{
	struct gles_objects *o = ctx->objects;

	switch (target) {
	case GL_UNIFORM_BUFFER:
		if (index < GLES_MAX_UNIFORM_BUFFER_BINDINGS)
			return &o->uniform_ranges[index];
		break;
	case GL_TRANSFORM_FEEDBACK_BUFFER:
		if (index < GLES_MAX_TRANSFORM_FEEDBACK_SEPARATE_ATTRIBS)
			return &ctx->state->xfb.bound->ranges[index];
		break;
	default:
		gles_error(ctx, GL_INVALID_ENUM);
		return NULL;
	}
	gles_error(ctx, GL_INVALID_VALUE);
	return NULL;
}

static void bind_range(struct gles_context *ctx, GLenum target, GLuint index, GLuint buffer,
		       GLintptr offset, GLsizeiptr size, bool whole)
{
	struct gles_buffer_range *range;
	struct gles_buffer_object *b;
	bool failed;

	if (!(range = indexed_slot(ctx, target, index)))
		return;
	/* section 2.15.2: not while transform feedback is active */
	if (target == GL_TRANSFORM_FEEDBACK_BUFFER && ctx->state->xfb.bound->active) {
		gles_error(ctx, GL_INVALID_OPERATION);
		return;
	}
	if (!whole && buffer) {
		/* section 2.9.1: a range of a positive size, aligned as the target needs */
		GLintptr align =
		    target == GL_UNIFORM_BUFFER ? GLES_UNIFORM_BUFFER_OFFSET_ALIGNMENT : 4;

		if (size <= 0 || offset < 0 || offset % align ||
		    (target == GL_TRANSFORM_FEEDBACK_BUFFER && size % 4)) {
			gles_error(ctx, GL_INVALID_VALUE);
			return;
		}
	}
	gles_objects_lock(ctx);
	b = lookup_or_create(ctx, buffer, &failed);
	if (!failed) {
		gles_buffer_bind_slot(&range->buffer, b);
		range->offset = whole || !b ? 0 : offset;
		range->size = whole || !b ? 0 : size;
		/* the generic binding point takes the buffer too */
		gles_buffer_bind_slot(target == GL_UNIFORM_BUFFER
					  ? &ctx->objects->uniform_buffer
					  : &ctx->objects->transform_feedback_buffer,
				      b);
	}
	gles_objects_unlock(ctx);
}

void gles_BindBufferBase(GLenum target, GLuint index, GLuint buffer)
{
	struct gles_context *ctx = gles_current();

	if (ctx)
		bind_range(ctx, target, index, buffer, 0, 0, true);
}

void gles_BindBufferRange(GLenum target, GLuint index, GLuint buffer, GLintptr offset,
			  GLsizeiptr size)
{
	struct gles_context *ctx = gles_current();

	if (ctx)
		bind_range(ctx, target, index, buffer, offset, size, false);
}
