/*
 * test-objects: module B's GL objects through glvnd over the real stack --
 * buffers (binding points, storage, mapping, copies, queries), textures
 * (targets, image specification and its errors, immutable storage,
 * parameters, mipmap generation), samplers, renderbuffers, framebuffer
 * objects with each completeness rule, attachment queries of FBOs and the
 * default framebuffer, draw and read buffers, invalidation, vertex arrays,
 * the object bindings glGet* reports, sharing between the contexts of a
 * share group, and all of it on an ES 2.0 request (an ES 3.0 context).
 */
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include <EGL/egl.h>
#include <EGL/eglext.h>
#include <GLES3/gl3.h>

#ifndef GL_WRITE_ONLY_OES /* OES_mapbuffer (GLES2/gl2ext.h, which needs gl2.h) */
#define GL_WRITE_ONLY_OES	  0x88B9
#define GL_BUFFER_ACCESS_OES	  0x88BB
#define GL_BUFFER_MAP_POINTER_OES 0x88BD
#endif

#include "egl-stack.h"

#ifndef GL_COMPRESSED_RGBA_ASTC_4x4_KHR /* KHR_texture_compression_astc_ldr */
#define GL_COMPRESSED_RGBA_ASTC_4x4_KHR		0x93B0
#define GL_COMPRESSED_RGBA_ASTC_5x4_KHR		0x93B1
#define GL_COMPRESSED_RGBA_ASTC_12x12_KHR	0x93BD
#define GL_COMPRESSED_SRGB8_ALPHA8_ASTC_4x4_KHR 0x93D0
#endif

static struct test_stack_options options;
static EGLDisplay dpy;
static EGLConfig config;

#define assert_gl_error(expected) assert_int_equal(glGetError(), (expected))

static EGLContext context(EGLint major, EGLContext share)
{
	const EGLint attribs[] = { EGL_CONTEXT_MAJOR_VERSION, major, EGL_CONTEXT_MINOR_VERSION, 0,
				   EGL_NONE };
	EGLContext ctx = eglCreateContext(dpy, config, share, attribs);

	assert_ptr_not_equal(ctx, EGL_NO_CONTEXT);
	return ctx;
}

struct bound {
	EGLContext ctx;
	EGLSurface surf;
};

/* A context of major version current on a 16x16 pbuffer (surfaceless: surf NO_SURFACE). */
static struct bound bind_new(EGLint major, bool surfaceless)
{
	const EGLint attribs[] = { EGL_WIDTH, 16, EGL_HEIGHT, 16, EGL_NONE };
	struct bound b = { context(major, EGL_NO_CONTEXT), EGL_NO_SURFACE };

	if (!surfaceless) {
		b.surf = eglCreatePbufferSurface(dpy, config, attribs);
		assert_ptr_not_equal(b.surf, EGL_NO_SURFACE);
	}
	assert_true(eglMakeCurrent(dpy, b.surf, b.surf, b.ctx));
	assert_gl_error(GL_NO_ERROR);
	return b;
}

static void unbind(struct bound b)
{
	assert_true(eglMakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT));
	assert_true(eglDestroyContext(dpy, b.ctx));
	if (b.surf != EGL_NO_SURFACE)
		assert_true(eglDestroySurface(dpy, b.surf));
}

static GLint get_int(GLenum pname)
{
	GLint v = -12345;

	glGetIntegerv(pname, &v);
	assert_gl_error(GL_NO_ERROR);
	return v;
}

/* ---- buffers -------------------------------------------------------------------------------- */

static void test_buffers(void **state)
{
	struct bound b = bind_new(3, false);
	GLuint bufs[3], other;
	GLint v;
	GLint64 v64;
	uint8_t data[64], *p;
	void *ptr;

	(void)state;
	for (int i = 0; i < 64; i++)
		data[i] = (uint8_t)i;
	glGenBuffers(-1, bufs);
	assert_gl_error(GL_INVALID_VALUE);
	glGenBuffers(3, bufs);
	assert_true(bufs[0] && bufs[1] && bufs[2] && bufs[0] != bufs[1] && bufs[1] != bufs[2]);
	/* a name from glGenBuffers is a buffer only once bound */
	assert_false(glIsBuffer(bufs[0]));
	glBindBuffer(GL_ARRAY_BUFFER, bufs[0]);
	assert_true(glIsBuffer(bufs[0]));
	assert_int_equal(get_int(GL_ARRAY_BUFFER_BINDING), (GLint)bufs[0]);
	glBindBuffer(0x1234, bufs[0]);
	assert_gl_error(GL_INVALID_ENUM);
	/* binding an unused name makes a buffer (ES 3.0 section 2.9.1) */
	glBindBuffer(GL_COPY_READ_BUFFER, 777);
	assert_true(glIsBuffer(777));
	assert_int_equal(get_int(GL_COPY_READ_BUFFER_BINDING), 777);

	/* initial state (table 6.3) */
	glGetBufferParameteriv(GL_ARRAY_BUFFER, GL_BUFFER_SIZE, &v);
	assert_int_equal(v, 0);
	glGetBufferParameteriv(GL_ARRAY_BUFFER, GL_BUFFER_USAGE, &v);
	assert_int_equal(v, GL_STATIC_DRAW);
	glGetBufferParameteriv(GL_ARRAY_BUFFER, GL_BUFFER_MAPPED, &v);
	assert_int_equal(v, GL_FALSE);

	glBufferData(GL_ARRAY_BUFFER, -1, NULL, GL_STATIC_DRAW);
	assert_gl_error(GL_INVALID_VALUE);
	glBufferData(GL_ARRAY_BUFFER, 64, data, 0x1234);
	assert_gl_error(GL_INVALID_ENUM);
	glBufferData(GL_PIXEL_PACK_BUFFER, 64, data, GL_STATIC_DRAW);
	assert_gl_error(GL_INVALID_OPERATION); /* nothing bound there */
	glBufferData(GL_ARRAY_BUFFER, 64, data, GL_DYNAMIC_COPY);
	assert_gl_error(GL_NO_ERROR);
	glGetBufferParameteri64v(GL_ARRAY_BUFFER, GL_BUFFER_SIZE, &v64);
	assert_int_equal(v64, 64);
	glGetBufferParameteriv(GL_ARRAY_BUFFER, GL_BUFFER_USAGE, &v);
	assert_int_equal(v, GL_DYNAMIC_COPY);
	glGetBufferParameteriv(GL_ARRAY_BUFFER, GL_BUFFER_MAP_POINTER, &v);
	assert_gl_error(GL_INVALID_ENUM);

	glBufferSubData(GL_ARRAY_BUFFER, 60, 8, data);
	assert_gl_error(GL_INVALID_VALUE);
	glBufferSubData(GL_ARRAY_BUFFER, -1, 1, data);
	assert_gl_error(GL_INVALID_VALUE);
	glBufferSubData(GL_ARRAY_BUFFER, 8, 4, (const uint8_t[]){ 0xaa, 0xbb, 0xcc, 0xdd });
	assert_gl_error(GL_NO_ERROR);

	/* mapping: the bytes written are there */
	p = glMapBufferRange(GL_ARRAY_BUFFER, 4, 16, GL_MAP_READ_BIT);
	assert_non_null(p);
	assert_int_equal(p[0], 4);
	assert_int_equal(p[4], 0xaa);
	assert_int_equal(p[7], 0xdd);
	assert_int_equal(p[8], 12);
	glGetBufferPointerv(GL_ARRAY_BUFFER, GL_BUFFER_MAP_POINTER, &ptr);
	assert_ptr_equal(ptr, p);
	glGetBufferParameteriv(GL_ARRAY_BUFFER, GL_BUFFER_MAPPED, &v);
	assert_int_equal(v, GL_TRUE);
	glGetBufferParameteri64v(GL_ARRAY_BUFFER, GL_BUFFER_MAP_OFFSET, &v64);
	assert_int_equal(v64, 4);
	glGetBufferParameteri64v(GL_ARRAY_BUFFER, GL_BUFFER_MAP_LENGTH, &v64);
	assert_int_equal(v64, 16);
	glGetBufferParameteriv(GL_ARRAY_BUFFER, GL_BUFFER_ACCESS_FLAGS, &v);
	assert_int_equal(v, GL_MAP_READ_BIT);
	/* mapped: no second map, no sub-data, no explicit flush of a map without the bit */
	assert_null(glMapBufferRange(GL_ARRAY_BUFFER, 0, 4, GL_MAP_READ_BIT));
	assert_gl_error(GL_INVALID_OPERATION);
	glBufferSubData(GL_ARRAY_BUFFER, 0, 1, data);
	assert_gl_error(GL_INVALID_OPERATION);
	glFlushMappedBufferRange(GL_ARRAY_BUFFER, 0, 4);
	assert_gl_error(GL_INVALID_OPERATION);
	assert_true(glUnmapBuffer(GL_ARRAY_BUFFER));
	assert_false(glUnmapBuffer(GL_ARRAY_BUFFER));
	assert_gl_error(GL_INVALID_OPERATION);
	glGetBufferPointerv(GL_ARRAY_BUFFER, GL_BUFFER_MAP_POINTER, &ptr);
	assert_null(ptr);

	/* section 2.9.3's errors */
	assert_null(glMapBufferRange(GL_ARRAY_BUFFER, 0, 0, GL_MAP_READ_BIT));
	assert_gl_error(GL_INVALID_OPERATION); /* zero length */
	assert_null(glMapBufferRange(GL_ARRAY_BUFFER, 0, 65, GL_MAP_READ_BIT));
	assert_gl_error(GL_INVALID_VALUE);
	assert_null(glMapBufferRange(GL_ARRAY_BUFFER, -1, 4, GL_MAP_READ_BIT));
	assert_gl_error(GL_INVALID_VALUE);
	assert_null(glMapBufferRange(GL_ARRAY_BUFFER, 0, 4, 0x100));
	assert_gl_error(GL_INVALID_VALUE);
	assert_null(glMapBufferRange(GL_ARRAY_BUFFER, 0, 4, GL_MAP_FLUSH_EXPLICIT_BIT));
	assert_gl_error(GL_INVALID_OPERATION);
	assert_null(
	    glMapBufferRange(GL_ARRAY_BUFFER, 0, 4, GL_MAP_READ_BIT | GL_MAP_INVALIDATE_RANGE_BIT));
	assert_gl_error(GL_INVALID_OPERATION);
	assert_null(
	    glMapBufferRange(GL_ARRAY_BUFFER, 0, 4, GL_MAP_READ_BIT | GL_MAP_FLUSH_EXPLICIT_BIT));
	assert_gl_error(GL_INVALID_OPERATION);

	/* write through a map with explicit flushes */
	p = glMapBufferRange(GL_ARRAY_BUFFER, 32, 32, GL_MAP_WRITE_BIT | GL_MAP_FLUSH_EXPLICIT_BIT);
	assert_non_null(p);
	p[0] = 0x55;
	glFlushMappedBufferRange(GL_ARRAY_BUFFER, 0, 33);
	assert_gl_error(GL_INVALID_VALUE);
	glFlushMappedBufferRange(GL_ARRAY_BUFFER, 0, 1);
	assert_gl_error(GL_NO_ERROR);
	assert_true(glUnmapBuffer(GL_ARRAY_BUFFER));

	/* copies (section 2.9.5) */
	glBindBuffer(GL_COPY_WRITE_BUFFER, bufs[1]);
	glBufferData(GL_COPY_WRITE_BUFFER, 16, NULL, GL_STREAM_READ);
	glBindBuffer(GL_COPY_READ_BUFFER, bufs[0]);
	glCopyBufferSubData(GL_COPY_READ_BUFFER, GL_COPY_WRITE_BUFFER, 30, 0, 4);
	assert_gl_error(GL_NO_ERROR);
	glCopyBufferSubData(GL_COPY_READ_BUFFER, GL_COPY_WRITE_BUFFER, 0, 13, 4);
	assert_gl_error(GL_INVALID_VALUE);
	glCopyBufferSubData(GL_COPY_READ_BUFFER, GL_COPY_READ_BUFFER, 0, 2, 4);
	assert_gl_error(GL_INVALID_VALUE); /* overlap */
	glCopyBufferSubData(GL_COPY_READ_BUFFER, GL_COPY_READ_BUFFER, 0, 4, 4);
	assert_gl_error(GL_NO_ERROR);
	glCopyBufferSubData(GL_COPY_READ_BUFFER, GL_PIXEL_PACK_BUFFER, 0, 0, 4);
	assert_gl_error(GL_INVALID_OPERATION);
	p = glMapBufferRange(GL_COPY_WRITE_BUFFER, 0, 4, GL_MAP_READ_BIT);
	assert_int_equal(p[0], 30);
	assert_int_equal(p[1], 31);
	assert_int_equal(p[2], 0x55);
	assert_int_equal(p[3], 33);
	glCopyBufferSubData(GL_COPY_READ_BUFFER, GL_COPY_WRITE_BUFFER, 0, 0, 4);
	assert_gl_error(GL_INVALID_OPERATION); /* the target is mapped */
	glUnmapBuffer(GL_COPY_WRITE_BUFFER);
	p = glMapBufferRange(GL_COPY_READ_BUFFER, 4, 4, GL_MAP_READ_BIT);
	assert_memory_equal(p, ((const uint8_t[]){ 0, 1, 2, 3 }), 4);
	glUnmapBuffer(GL_COPY_READ_BUFFER);

	/* indexed bindings (section 2.9.1) */
	glBindBufferRange(GL_UNIFORM_BUFFER, 1, bufs[0], 16, 32);
	assert_gl_error(GL_NO_ERROR);
	assert_int_equal(get_int(GL_UNIFORM_BUFFER_BINDING), (GLint)bufs[0]);
	glGetIntegeri_v(GL_UNIFORM_BUFFER_BINDING, 1, &v);
	assert_int_equal(v, (GLint)bufs[0]);
	glGetInteger64i_v(GL_UNIFORM_BUFFER_START, 1, &v64);
	assert_int_equal(v64, 16);
	glGetInteger64i_v(GL_UNIFORM_BUFFER_SIZE, 1, &v64);
	assert_int_equal(v64, 32);
	glGetIntegeri_v(GL_UNIFORM_BUFFER_BINDING, 0, &v);
	assert_int_equal(v, 0);
	glGetIntegeri_v(GL_UNIFORM_BUFFER_BINDING, 1000, &v);
	assert_gl_error(GL_INVALID_VALUE);
	glBindBufferRange(GL_UNIFORM_BUFFER, 0, bufs[0], 3, 4);
	assert_gl_error(GL_INVALID_VALUE); /* misaligned */
	glBindBufferRange(GL_UNIFORM_BUFFER, 0, bufs[0], 0, 0);
	assert_gl_error(GL_INVALID_VALUE);
	glBindBufferRange(GL_TRANSFORM_FEEDBACK_BUFFER, 0, bufs[0], 4, 6);
	assert_gl_error(GL_INVALID_VALUE);
	glBindBufferBase(GL_UNIFORM_BUFFER, 1000, bufs[0]);
	assert_gl_error(GL_INVALID_VALUE);
	glBindBufferBase(GL_ARRAY_BUFFER, 0, bufs[0]);
	assert_gl_error(GL_INVALID_ENUM);
	glBindBufferBase(GL_TRANSFORM_FEEDBACK_BUFFER, 2, bufs[2]);
	assert_gl_error(GL_NO_ERROR);
	assert_int_equal(get_int(GL_TRANSFORM_FEEDBACK_BUFFER_BINDING), (GLint)bufs[2]);
	glGetIntegeri_v(GL_TRANSFORM_FEEDBACK_BUFFER_BINDING, 2, &v);
	assert_int_equal(v, (GLint)bufs[2]);

	/* deleting unbinds from every binding point of this context (section 2.9.1) */
	glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, bufs[0]);
	glBindBuffer(GL_PIXEL_UNPACK_BUFFER, bufs[0]);
	glDeleteBuffers(1, &bufs[0]);
	assert_gl_error(GL_NO_ERROR);
	assert_false(glIsBuffer(bufs[0]));
	assert_int_equal(get_int(GL_ARRAY_BUFFER_BINDING), 0);
	assert_int_equal(get_int(GL_ELEMENT_ARRAY_BUFFER_BINDING), 0);
	assert_int_equal(get_int(GL_PIXEL_UNPACK_BUFFER_BINDING), 0);
	assert_int_equal(get_int(GL_COPY_READ_BUFFER_BINDING), 0);
	assert_int_equal(get_int(GL_UNIFORM_BUFFER_BINDING), 0);
	glGetIntegeri_v(GL_UNIFORM_BUFFER_BINDING, 1, &v);
	assert_int_equal(v, 0);
	glGetBufferParameteriv(GL_ARRAY_BUFFER, GL_BUFFER_SIZE, &v);
	assert_gl_error(GL_INVALID_OPERATION);
	glDeleteBuffers(-1, bufs);
	assert_gl_error(GL_INVALID_VALUE);
	other = 0;
	glDeleteBuffers(1, &other); /* 0 and unused names are ignored */
	assert_gl_error(GL_NO_ERROR);
	glDeleteBuffers(2, &bufs[1]);
	unbind(b);
}

/* OES_mapbuffer: the whole buffer mapped for writing, through the extension's functions. */
static void test_mapbuffer_oes(void **state)
{
	void *(*map)(GLenum, GLenum) =
	    (void *(*)(GLenum, GLenum))eglGetProcAddress("glMapBufferOES");
	GLboolean (*unmap)(GLenum) = (GLboolean(*)(GLenum))eglGetProcAddress("glUnmapBufferOES");
	void (*pointer)(GLenum, GLenum, void **) =
	    (void (*)(GLenum, GLenum, void **))eglGetProcAddress("glGetBufferPointervOES");
	static const uint8_t bytes[8] = { 1, 2, 3, 4, 5, 6, 7, 8 };
	struct bound b = bind_new(3, false);
	uint8_t *p;
	void *ptr = NULL;
	GLuint buf;
	GLint v;

	(void)state;
	assert_non_null(map);
	assert_non_null(unmap);
	assert_non_null(pointer);
	assert_null(map(GL_ARRAY_BUFFER, GL_WRITE_ONLY_OES)); /* nothing bound */
	assert_gl_error(GL_INVALID_OPERATION);
	glGenBuffers(1, &buf);
	glBindBuffer(GL_ARRAY_BUFFER, buf);
	glBufferData(GL_ARRAY_BUFFER, 8, NULL, GL_STATIC_DRAW);
	glGetBufferParameteriv(GL_ARRAY_BUFFER, GL_BUFFER_ACCESS_OES, &v);
	assert_int_equal(v, GL_WRITE_ONLY_OES);
	assert_null(map(GL_ARRAY_BUFFER, GL_MAP_READ_BIT)); /* write only is the one access */
	assert_gl_error(GL_INVALID_ENUM);
	assert_null(map(0x1234, GL_WRITE_ONLY_OES));
	assert_gl_error(GL_INVALID_ENUM);
	p = map(GL_ARRAY_BUFFER, GL_WRITE_ONLY_OES);
	assert_non_null(p);
	assert_gl_error(GL_NO_ERROR);
	memcpy(p, bytes, sizeof(bytes));
	pointer(GL_ARRAY_BUFFER, GL_BUFFER_MAP_POINTER_OES, &ptr);
	assert_ptr_equal(ptr, p);
	glGetBufferParameteriv(GL_ARRAY_BUFFER, GL_BUFFER_MAPPED, &v);
	assert_int_equal(v, GL_TRUE);
	glGetBufferParameteriv(GL_ARRAY_BUFFER, GL_BUFFER_MAP_LENGTH, &v);
	assert_int_equal(v, 8);
	glGetBufferParameteriv(GL_ARRAY_BUFFER, GL_BUFFER_ACCESS_FLAGS, &v);
	assert_int_equal(v, GL_MAP_WRITE_BIT);
	assert_null(map(GL_ARRAY_BUFFER, GL_WRITE_ONLY_OES)); /* mapped already */
	assert_gl_error(GL_INVALID_OPERATION);
	assert_true(unmap(GL_ARRAY_BUFFER));
	assert_false(unmap(GL_ARRAY_BUFFER));
	assert_gl_error(GL_INVALID_OPERATION);
	/* what was written is the buffer's; a reading range mapping says so */
	p = glMapBufferRange(GL_ARRAY_BUFFER, 0, 8, GL_MAP_READ_BIT);
	assert_memory_equal(p, bytes, sizeof(bytes));
	glGetBufferParameteriv(GL_ARRAY_BUFFER, GL_BUFFER_ACCESS_OES, &v);
	assert_int_equal(v, 0x88B8); /* READ_ONLY */
	glUnmapBuffer(GL_ARRAY_BUFFER);
	glDeleteBuffers(1, &buf);
	assert_gl_error(GL_NO_ERROR);
	unbind(b);
}

/* ---- textures ------------------------------------------------------------------------------- */

static GLint tex_param(GLenum target, GLenum pname)
{
	GLint v = -12345;

	glGetTexParameteriv(target, pname, &v);
	assert_gl_error(GL_NO_ERROR);
	return v;
}

static void test_textures(void **state)
{
	struct bound b = bind_new(3, false);
	GLuint tex[4];
	GLfloat f;
	uint8_t pixels[16 * 16 * 4] = { 0 };

	(void)state;
	glGenTextures(4, tex);
	assert_false(glIsTexture(tex[0]));
	glBindTexture(GL_TEXTURE_2D, tex[0]);
	assert_true(glIsTexture(tex[0]));
	assert_int_equal(get_int(GL_TEXTURE_BINDING_2D), (GLint)tex[0]);
	/* a texture keeps its first target */
	glBindTexture(GL_TEXTURE_CUBE_MAP, tex[0]);
	assert_gl_error(GL_INVALID_OPERATION);
	glBindTexture(0x1234, tex[0]);
	assert_gl_error(GL_INVALID_ENUM);
	/* bindings are per unit */
	glActiveTexture(GL_TEXTURE3);
	assert_int_equal(get_int(GL_TEXTURE_BINDING_2D), 0);
	glBindTexture(GL_TEXTURE_3D, tex[1]);
	assert_int_equal(get_int(GL_TEXTURE_BINDING_3D), (GLint)tex[1]);
	glActiveTexture(GL_TEXTURE0);
	assert_int_equal(get_int(GL_TEXTURE_BINDING_3D), 0);

	/* table 6.13's initial values */
	assert_int_equal(tex_param(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER), GL_NEAREST_MIPMAP_LINEAR);
	assert_int_equal(tex_param(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER), GL_LINEAR);
	assert_int_equal(tex_param(GL_TEXTURE_2D, GL_TEXTURE_WRAP_R), GL_REPEAT);
	assert_int_equal(tex_param(GL_TEXTURE_2D, GL_TEXTURE_MAX_LEVEL), 1000);
	assert_int_equal(tex_param(GL_TEXTURE_2D, GL_TEXTURE_COMPARE_FUNC), GL_LEQUAL);
	assert_int_equal(tex_param(GL_TEXTURE_2D, GL_TEXTURE_SWIZZLE_A), GL_ALPHA);
	assert_int_equal(tex_param(GL_TEXTURE_2D, GL_TEXTURE_IMMUTABLE_FORMAT), GL_FALSE);
	glGetTexParameterfv(GL_TEXTURE_2D, GL_TEXTURE_MIN_LOD, &f);
	assert_true(f == -1000.0f);

	/* parameters and their errors (section 3.8.7) */
	glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_MIRRORED_REPEAT);
	assert_int_equal(tex_param(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S), GL_MIRRORED_REPEAT);
	glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_LINEAR);
	assert_gl_error(GL_INVALID_ENUM);
	glTexParameterf(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, (GLfloat)GL_NEAREST);
	assert_int_equal(tex_param(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER), GL_NEAREST);
	glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_LINEAR_MIPMAP_LINEAR);
	assert_gl_error(GL_INVALID_ENUM);
	glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_BASE_LEVEL, -1);
	assert_gl_error(GL_INVALID_VALUE);
	glTexParameterf(GL_TEXTURE_2D, GL_TEXTURE_MAX_LOD, 2.5f);
	glGetTexParameterfv(GL_TEXTURE_2D, GL_TEXTURE_MAX_LOD, &f);
	assert_true(f == 2.5f);
	glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_SWIZZLE_R, GL_ONE);
	assert_int_equal(tex_param(GL_TEXTURE_2D, GL_TEXTURE_SWIZZLE_R), GL_ONE);
	glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_IMMUTABLE_FORMAT, GL_TRUE);
	assert_gl_error(GL_INVALID_ENUM);
	glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_COMPARE_MODE, GL_COMPARE_REF_TO_TEXTURE);
	assert_int_equal(tex_param(GL_TEXTURE_2D, GL_TEXTURE_COMPARE_MODE),
			 GL_COMPARE_REF_TO_TEXTURE);

	/* glTexImage2D's errors (section 3.8.3) */
	glTexImage2D(GL_TEXTURE_3D, 0, GL_RGBA8, 4, 4, 0, GL_RGBA, GL_UNSIGNED_BYTE, pixels);
	assert_gl_error(GL_INVALID_ENUM);
	glTexImage2D(GL_TEXTURE_2D, -1, GL_RGBA8, 4, 4, 0, GL_RGBA, GL_UNSIGNED_BYTE, pixels);
	assert_gl_error(GL_INVALID_VALUE);
	glTexImage2D(GL_TEXTURE_2D, 15, GL_RGBA8, 1, 1, 0, GL_RGBA, GL_UNSIGNED_BYTE, pixels);
	assert_gl_error(GL_INVALID_VALUE);
	glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, 4, 4, 1, GL_RGBA, GL_UNSIGNED_BYTE, pixels);
	assert_gl_error(GL_INVALID_VALUE);
	glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, 16385, 1, 0, GL_RGBA, GL_UNSIGNED_BYTE, NULL);
	assert_gl_error(GL_INVALID_VALUE);
	glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, 4, 4, 0, 0x1234, GL_UNSIGNED_BYTE, pixels);
	assert_gl_error(GL_INVALID_ENUM);
	glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, 4, 4, 0, GL_RGBA, 0x1234, pixels);
	assert_gl_error(GL_INVALID_ENUM);
	glTexImage2D(GL_TEXTURE_2D, 0, 0x1234, 4, 4, 0, GL_RGBA, GL_UNSIGNED_BYTE, pixels);
	assert_gl_error(GL_INVALID_VALUE);
	glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, 4, 4, 0, GL_RGBA, GL_FLOAT, pixels);
	assert_gl_error(GL_INVALID_OPERATION); /* not in table 3.2 */
	glTexImage2D(GL_TEXTURE_2D, 0, GL_RGB, 4, 4, 0, GL_RGBA, GL_UNSIGNED_BYTE, pixels);
	assert_gl_error(GL_INVALID_OPERATION); /* unsized: format must match */
	glTexImage2D(GL_TEXTURE_CUBE_MAP_POSITIVE_X, 0, GL_RGBA8, 4, 2, 0, GL_RGBA,
		     GL_UNSIGNED_BYTE, pixels);
	assert_gl_error(GL_INVALID_VALUE); /* cube faces are square */
	glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, 4, 4, 0, GL_RGBA, GL_UNSIGNED_BYTE, pixels);
	assert_gl_error(GL_NO_ERROR);
	glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA4, 4, 4, 0, GL_RGBA, GL_UNSIGNED_SHORT_4_4_4_4,
		     pixels);
	glTexImage2D(GL_TEXTURE_2D, 0, GL_RGB, 4, 4, 0, GL_RGB, GL_UNSIGNED_SHORT_5_6_5, pixels);
	glTexImage2D(GL_TEXTURE_2D, 0, GL_DEPTH24_STENCIL8, 4, 4, 0, GL_DEPTH_STENCIL,
		     GL_UNSIGNED_INT_24_8, pixels);
	glTexImage2D(GL_TEXTURE_2D, 0, GL_R11F_G11F_B10F, 4, 4, 0, GL_RGB, GL_HALF_FLOAT, pixels);
	glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA32UI, 2, 2, 0, GL_RGBA_INTEGER, GL_UNSIGNED_INT,
		     pixels);
	assert_gl_error(GL_NO_ERROR);

	/* glTexSubImage2D: inside a given level, in a format/type the level takes */
	glTexSubImage2D(GL_TEXTURE_2D, 0, 1, 1, 1, 1, GL_RGBA_INTEGER, GL_UNSIGNED_INT, pixels);
	assert_gl_error(GL_NO_ERROR);
	glTexSubImage2D(GL_TEXTURE_2D, 0, 1, 1, 2, 1, GL_RGBA_INTEGER, GL_UNSIGNED_INT, pixels);
	assert_gl_error(GL_INVALID_VALUE);
	glTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, 1, 1, GL_RGBA, GL_UNSIGNED_BYTE, pixels);
	assert_gl_error(GL_INVALID_OPERATION);
	glTexSubImage2D(GL_TEXTURE_2D, 1, 0, 0, 1, 1, GL_RGBA_INTEGER, GL_UNSIGNED_INT, pixels);
	assert_gl_error(GL_INVALID_OPERATION); /* level 1 was never given */
	glTexSubImage2D(GL_TEXTURE_2D, 0, -1, 0, 1, 1, GL_RGBA_INTEGER, GL_UNSIGNED_INT, pixels);
	assert_gl_error(GL_INVALID_VALUE);

	/* 3D and array images */
	glBindTexture(GL_TEXTURE_3D, tex[1]);
	glTexImage3D(GL_TEXTURE_3D, 0, GL_DEPTH_COMPONENT16, 4, 4, 4, 0, GL_DEPTH_COMPONENT,
		     GL_UNSIGNED_SHORT, NULL);
	assert_gl_error(GL_INVALID_OPERATION); /* no depth 3D textures */
	glTexImage3D(GL_TEXTURE_3D, 0, GL_RG8, 4, 4, 4, 0, GL_RG, GL_UNSIGNED_BYTE, pixels);
	assert_gl_error(GL_NO_ERROR);
	glTexImage3D(GL_TEXTURE_3D, 0, GL_RG8, 4, 4, 2049, 0, GL_RG, GL_UNSIGNED_BYTE, NULL);
	assert_gl_error(GL_INVALID_VALUE);
	glTexSubImage3D(GL_TEXTURE_3D, 0, 0, 0, 3, 4, 4, 2, GL_RG, GL_UNSIGNED_BYTE, pixels);
	assert_gl_error(GL_INVALID_VALUE);
	glTexSubImage3D(GL_TEXTURE_3D, 0, 0, 0, 3, 4, 4, 1, GL_RG, GL_UNSIGNED_BYTE, pixels);
	assert_gl_error(GL_NO_ERROR);
	glTexImage3D(GL_TEXTURE_2D, 0, GL_RG8, 4, 4, 4, 0, GL_RG, GL_UNSIGNED_BYTE, pixels);
	assert_gl_error(GL_INVALID_ENUM);

	/* immutable storage (section 3.8.4) */
	glBindTexture(GL_TEXTURE_2D, tex[2]);
	glTexStorage2D(GL_TEXTURE_2D, 4, GL_RGBA, 8, 8);
	assert_gl_error(GL_INVALID_ENUM); /* unsized */
	glTexStorage2D(GL_TEXTURE_2D, 5, GL_RGBA8, 8, 8);
	assert_gl_error(GL_INVALID_OPERATION); /* 8x8 has 4 levels */
	glTexStorage2D(GL_TEXTURE_2D, 0, GL_RGBA8, 8, 8);
	assert_gl_error(GL_INVALID_VALUE);
	glTexStorage2D(GL_TEXTURE_2D, 4, GL_RGBA8, 8, 8);
	assert_gl_error(GL_NO_ERROR);
	assert_int_equal(tex_param(GL_TEXTURE_2D, GL_TEXTURE_IMMUTABLE_FORMAT), GL_TRUE);
	assert_int_equal(tex_param(GL_TEXTURE_2D, GL_TEXTURE_IMMUTABLE_LEVELS), 4);
	glTexStorage2D(GL_TEXTURE_2D, 1, GL_RGBA8, 8, 8);
	assert_gl_error(GL_INVALID_OPERATION);
	glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, 8, 8, 0, GL_RGBA, GL_UNSIGNED_BYTE, NULL);
	assert_gl_error(GL_INVALID_OPERATION);
	glTexSubImage2D(GL_TEXTURE_2D, 3, 0, 0, 1, 1, GL_RGBA, GL_UNSIGNED_BYTE, pixels);
	assert_gl_error(GL_NO_ERROR);
	glTexSubImage2D(GL_TEXTURE_2D, 3, 0, 0, 2, 1, GL_RGBA, GL_UNSIGNED_BYTE, pixels);
	assert_gl_error(GL_INVALID_VALUE); /* level 3 is 1x1 */
	glGenerateMipmap(GL_TEXTURE_2D);
	assert_gl_error(GL_NO_ERROR);
	/* the default texture cannot be made immutable */
	glBindTexture(GL_TEXTURE_2D, 0);
	glTexStorage2D(GL_TEXTURE_2D, 1, GL_RGBA8, 8, 8);
	assert_gl_error(GL_INVALID_OPERATION);
	glBindTexture(GL_TEXTURE_2D_ARRAY, tex[3]);
	glTexStorage3D(GL_TEXTURE_2D_ARRAY, 2, GL_DEPTH32F_STENCIL8, 4, 4, 3);
	assert_gl_error(GL_NO_ERROR);
	glTexStorage3D(GL_TEXTURE_2D, 1, GL_RGBA8, 4, 4, 1);
	assert_gl_error(GL_INVALID_ENUM);

	/* glGenerateMipmap (section 3.8.10) */
	glBindTexture(GL_TEXTURE_2D, tex[0]);
	glGenerateMipmap(GL_TEXTURE_2D);
	assert_gl_error(GL_INVALID_OPERATION); /* RGBA32UI is not filterable */
	glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, 8, 4, 0, GL_RGBA, GL_UNSIGNED_BYTE, pixels);
	glGenerateMipmap(GL_TEXTURE_2D);
	assert_gl_error(GL_NO_ERROR);
	/* the chain now exists down to 1x1: level 3 takes sub-images */
	glTexSubImage2D(GL_TEXTURE_2D, 3, 0, 0, 1, 1, GL_RGBA, GL_UNSIGNED_BYTE, pixels);
	assert_gl_error(GL_NO_ERROR);
	glGenerateMipmap(GL_TEXTURE_CUBE_MAP);
	assert_gl_error(GL_INVALID_OPERATION); /* no faces */
	glGenerateMipmap(0x1234);
	assert_gl_error(GL_INVALID_ENUM);

	/* compressed images (section 3.8.6): ETC2 blocks of 8 bytes */
	glCompressedTexImage2D(GL_TEXTURE_2D, 0, GL_COMPRESSED_RGB8_ETC2, 8, 8, 0, 32, pixels);
	assert_gl_error(GL_NO_ERROR);
	glCompressedTexImage2D(GL_TEXTURE_2D, 0, GL_COMPRESSED_RGB8_ETC2, 8, 8, 0, 31, pixels);
	assert_gl_error(GL_INVALID_VALUE);
	glCompressedTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, 8, 8, 0, 32, pixels);
	assert_gl_error(GL_INVALID_ENUM);
	glCompressedTexSubImage2D(GL_TEXTURE_2D, 0, 4, 4, 4, 4, GL_COMPRESSED_RGB8_ETC2, 8, pixels);
	assert_gl_error(GL_NO_ERROR);
	glCompressedTexSubImage2D(GL_TEXTURE_2D, 0, 2, 0, 4, 4, GL_COMPRESSED_RGB8_ETC2, 8, pixels);
	assert_gl_error(GL_INVALID_OPERATION);
	glCompressedTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, 4, 4, GL_COMPRESSED_R11_EAC, 8, pixels);
	assert_gl_error(GL_INVALID_OPERATION);
	glCompressedTexImage2D(GL_TEXTURE_2D, 0, GL_COMPRESSED_RGBA8_ETC2_EAC, 5, 5, 0, 64, pixels);
	assert_gl_error(GL_NO_ERROR);
	glBindTexture(GL_TEXTURE_3D, tex[1]);
	glCompressedTexImage3D(GL_TEXTURE_3D, 0, GL_COMPRESSED_RGB8_ETC2, 4, 4, 1, 0, 8, pixels);
	assert_gl_error(GL_INVALID_OPERATION);
	/*
	 * ASTC (KHR_texture_compression_astc_ldr): 16-byte blocks of the
	 * format's size; sub-images start on its block boundaries; 3D images
	 * (astc_sliced_3d) are slices of 2D blocks.
	 */
	glBindTexture(GL_TEXTURE_2D, tex[0]);
	glCompressedTexImage2D(GL_TEXTURE_2D, 0, GL_COMPRESSED_RGBA_ASTC_5x4_KHR, 11, 8, 0, 96,
			       pixels);
	assert_gl_error(GL_NO_ERROR); /* 3 x 2 blocks */
	glCompressedTexImage2D(GL_TEXTURE_2D, 0, GL_COMPRESSED_RGBA_ASTC_5x4_KHR, 11, 8, 0, 64,
			       pixels);
	assert_gl_error(GL_INVALID_VALUE);
	glCompressedTexSubImage2D(GL_TEXTURE_2D, 0, 5, 4, 5, 4, GL_COMPRESSED_RGBA_ASTC_5x4_KHR, 16,
				  pixels);
	assert_gl_error(GL_NO_ERROR);
	glCompressedTexSubImage2D(GL_TEXTURE_2D, 0, 10, 0, 1, 4, GL_COMPRESSED_RGBA_ASTC_5x4_KHR,
				  16, pixels);
	assert_gl_error(GL_NO_ERROR); /* the level's edge */
	glCompressedTexSubImage2D(GL_TEXTURE_2D, 0, 4, 0, 5, 4, GL_COMPRESSED_RGBA_ASTC_5x4_KHR, 16,
				  pixels);
	assert_gl_error(GL_INVALID_OPERATION); /* not on a block boundary */
	glCompressedTexImage2D(GL_TEXTURE_2D, 0, GL_COMPRESSED_RGBA_ASTC_12x12_KHR, 13, 1, 0, 32,
			       pixels);
	assert_gl_error(GL_NO_ERROR);
	glBindTexture(GL_TEXTURE_3D, tex[1]);
	glCompressedTexImage3D(GL_TEXTURE_3D, 0, GL_COMPRESSED_SRGB8_ALPHA8_ASTC_4x4_KHR, 8, 4, 3,
			       0, 96, pixels);
	assert_gl_error(GL_NO_ERROR);
	/* TexImage takes no compressed format: no format and type go with one (table 3.2) */
	glBindTexture(GL_TEXTURE_2D, tex[0]);
	glTexImage2D(GL_TEXTURE_2D, 0, GL_COMPRESSED_RGBA_ASTC_4x4_KHR, 4, 4, 0, GL_RGBA,
		     GL_UNSIGNED_BYTE, NULL);
	assert_gl_error(GL_INVALID_OPERATION);
	/* ASTC's extension keeps its formats out of GL_COMPRESSED_TEXTURE_FORMATS: ES 3.0's, S3TC's
	 */
	assert_int_equal(get_int(GL_NUM_COMPRESSED_TEXTURE_FORMATS), 18);
	{
		GLint formats[18];

		glGetIntegerv(GL_COMPRESSED_TEXTURE_FORMATS, formats);
		assert_int_equal(formats[4], GL_COMPRESSED_RGB8_ETC2);
		assert_int_equal(formats[10], 0x83F0); /* GL_COMPRESSED_RGB_S3TC_DXT1_EXT */
		assert_int_equal(formats[17], 0x8C4F); /* GL_COMPRESSED_SRGB_ALPHA_S3TC_DXT5_EXT */
	}

	/* unpack buffers: out of range and misaligned offsets (section 3.7.1) */
	{
		GLuint pbo;

		glBindTexture(GL_TEXTURE_2D, tex[0]);
		glGenBuffers(1, &pbo);
		glBindBuffer(GL_PIXEL_UNPACK_BUFFER, pbo);
		glBufferData(GL_PIXEL_UNPACK_BUFFER, 64, pixels, GL_STREAM_DRAW);
		glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, 4, 4, 0, GL_RGBA, GL_UNSIGNED_BYTE, NULL);
		assert_gl_error(GL_NO_ERROR);
		glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, 4, 4, 0, GL_RGBA, GL_UNSIGNED_BYTE,
			     (void *)4);
		assert_gl_error(GL_INVALID_OPERATION);
		glTexImage2D(GL_TEXTURE_2D, 0, GL_R16F, 2, 2, 0, GL_RED, GL_HALF_FLOAT, (void *)1);
		assert_gl_error(GL_INVALID_OPERATION);
		glMapBufferRange(GL_PIXEL_UNPACK_BUFFER, 0, 4, GL_MAP_READ_BIT);
		glTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, 1, 1, GL_RGBA, GL_UNSIGNED_BYTE, NULL);
		assert_gl_error(GL_INVALID_OPERATION);
		glDeleteBuffers(1, &pbo);
	}

	/* deleting: units go back to the default texture */
	glBindTexture(GL_TEXTURE_2D, tex[0]);
	glDeleteTextures(4, tex);
	assert_false(glIsTexture(tex[0]));
	assert_int_equal(get_int(GL_TEXTURE_BINDING_2D), 0);
	glActiveTexture(GL_TEXTURE3);
	assert_int_equal(get_int(GL_TEXTURE_BINDING_3D), 0);
	glActiveTexture(GL_TEXTURE0);
	glDeleteTextures(-1, tex);
	assert_gl_error(GL_INVALID_VALUE);
	unbind(b);
}

/* ---- samplers ------------------------------------------------------------------------------- */

static void test_samplers(void **state)
{
	struct bound b = bind_new(3, false);
	GLuint s[2];
	GLint v;
	GLfloat f;

	(void)state;
	glGenSamplers(2, s);
	assert_true(glIsSampler(s[0]));
	assert_false(glIsSampler(12345));
	glBindSampler(3, s[0]);
	assert_gl_error(GL_NO_ERROR);
	glBindSampler(3, 12345);
	assert_gl_error(GL_INVALID_OPERATION);
	glBindSampler(1000, s[0]);
	assert_gl_error(GL_INVALID_VALUE);
	glActiveTexture(GL_TEXTURE3);
	assert_int_equal(get_int(GL_SAMPLER_BINDING), (GLint)s[0]);
	glActiveTexture(GL_TEXTURE0);
	assert_int_equal(get_int(GL_SAMPLER_BINDING), 0);

	glGetSamplerParameteriv(s[0], GL_TEXTURE_MIN_FILTER, &v);
	assert_int_equal(v, GL_NEAREST_MIPMAP_LINEAR);
	glSamplerParameteri(s[0], GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
	glGetSamplerParameteriv(s[0], GL_TEXTURE_WRAP_T, &v);
	assert_int_equal(v, GL_CLAMP_TO_EDGE);
	glSamplerParameterf(s[0], GL_TEXTURE_MIN_LOD, -3.5f);
	glGetSamplerParameterfv(s[0], GL_TEXTURE_MIN_LOD, &f);
	assert_true(f == -3.5f);
	glSamplerParameteri(s[0], GL_TEXTURE_COMPARE_FUNC, GL_NEVER);
	glGetSamplerParameterfv(s[0], GL_TEXTURE_COMPARE_FUNC, &f);
	assert_true(f == (GLfloat)GL_NEVER);
	glSamplerParameteri(s[0], GL_TEXTURE_WRAP_T, GL_NEAREST);
	assert_gl_error(GL_INVALID_ENUM);
	glSamplerParameteri(s[0], GL_TEXTURE_BASE_LEVEL, 1); /* a texture's, not a sampler's */
	assert_gl_error(GL_INVALID_ENUM);
	glSamplerParameteri(12345, GL_TEXTURE_WRAP_T, GL_REPEAT);
	assert_gl_error(GL_INVALID_OPERATION);
	glGetSamplerParameteriv(12345, GL_TEXTURE_WRAP_T, &v);
	assert_gl_error(GL_INVALID_OPERATION);

	glActiveTexture(GL_TEXTURE3);
	glDeleteSamplers(2, s);
	assert_false(glIsSampler(s[0]));
	assert_int_equal(get_int(GL_SAMPLER_BINDING), 0);
	glActiveTexture(GL_TEXTURE0);
	glDeleteSamplers(-1, s);
	assert_gl_error(GL_INVALID_VALUE);
	unbind(b);
}

/* ---- renderbuffers -------------------------------------------------------------------------- */

static GLint rb_param(GLenum pname)
{
	GLint v = -12345;

	glGetRenderbufferParameteriv(GL_RENDERBUFFER, pname, &v);
	assert_gl_error(GL_NO_ERROR);
	return v;
}

static void test_renderbuffers(void **state)
{
	struct bound b = bind_new(3, false);
	GLuint rb[2];

	(void)state;
	glGenRenderbuffers(2, rb);
	assert_false(glIsRenderbuffer(rb[0]));
	glGetRenderbufferParameteriv(GL_RENDERBUFFER, GL_RENDERBUFFER_WIDTH, (GLint[1]){ 0 });
	assert_gl_error(GL_INVALID_OPERATION);
	glRenderbufferStorage(GL_RENDERBUFFER, GL_RGBA8, 4, 4);
	assert_gl_error(GL_INVALID_OPERATION); /* none bound */
	glBindRenderbuffer(GL_RENDERBUFFER, rb[0]);
	assert_true(glIsRenderbuffer(rb[0]));
	assert_int_equal(get_int(GL_RENDERBUFFER_BINDING), (GLint)rb[0]);
	assert_int_equal(rb_param(GL_RENDERBUFFER_INTERNAL_FORMAT), GL_RGBA4);
	assert_int_equal(rb_param(GL_RENDERBUFFER_WIDTH), 0);
	glBindRenderbuffer(GL_FRAMEBUFFER, rb[0]);
	assert_gl_error(GL_INVALID_ENUM);

	glRenderbufferStorage(GL_RENDERBUFFER, GL_RGB10_A2, 17, 9);
	assert_gl_error(GL_NO_ERROR);
	assert_int_equal(rb_param(GL_RENDERBUFFER_WIDTH), 17);
	assert_int_equal(rb_param(GL_RENDERBUFFER_HEIGHT), 9);
	assert_int_equal(rb_param(GL_RENDERBUFFER_RED_SIZE), 10);
	assert_int_equal(rb_param(GL_RENDERBUFFER_ALPHA_SIZE), 2);
	assert_int_equal(rb_param(GL_RENDERBUFFER_SAMPLES), 0);
	glRenderbufferStorage(GL_RENDERBUFFER, GL_RGBA, 4, 4);
	assert_gl_error(GL_INVALID_ENUM); /* unsized */
	glRenderbufferStorage(GL_RENDERBUFFER, GL_RGB16F, 4, 4);
	assert_gl_error(
	    GL_INVALID_ENUM); /* not colour-renderable (RGBA16F is, EXT_color_buffer_float) */
	glRenderbufferStorage(GL_RENDERBUFFER, GL_RGBA16F, 4, 4);
	assert_gl_error(GL_NO_ERROR);
	glRenderbufferStorage(GL_RENDERBUFFER, GL_RGBA8, 16385, 4);
	assert_gl_error(GL_INVALID_VALUE);
	glRenderbufferStorage(GL_RENDERBUFFER, GL_RGBA8, -1, 4);
	assert_gl_error(GL_INVALID_VALUE);
	glRenderbufferStorageMultisample(GL_RENDERBUFFER, 3, GL_DEPTH24_STENCIL8, 8, 8);
	assert_gl_error(GL_NO_ERROR);
	assert_int_equal(rb_param(GL_RENDERBUFFER_SAMPLES), 4);
	assert_int_equal(rb_param(GL_RENDERBUFFER_DEPTH_SIZE), 24);
	assert_int_equal(rb_param(GL_RENDERBUFFER_STENCIL_SIZE), 8);
	glRenderbufferStorageMultisample(GL_RENDERBUFFER, 5, GL_RGBA8, 8, 8);
	assert_gl_error(GL_INVALID_OPERATION); /* past MAX_SAMPLES */
	glRenderbufferStorageMultisample(GL_RENDERBUFFER, 2, GL_RGBA8UI, 8, 8);
	assert_gl_error(GL_INVALID_OPERATION); /* integer formats are single-sampled */
	glRenderbufferStorageMultisample(GL_RENDERBUFFER, -1, GL_RGBA8, 8, 8);
	assert_gl_error(GL_INVALID_VALUE);
	glGetRenderbufferParameteriv(GL_RENDERBUFFER, GL_TEXTURE_2D, (GLint[1]){ 0 });
	assert_gl_error(GL_INVALID_ENUM);

	/* section 6.1.15: the sample counts, most first; none for integer formats */
	{
		GLint counts[3] = { -1, -1, -1 }, n = -1;

		glGetInternalformativ(GL_RENDERBUFFER, GL_RGBA8, GL_NUM_SAMPLE_COUNTS, 1, &n);
		assert_int_equal(n, 2);
		glGetInternalformativ(GL_RENDERBUFFER, GL_RGBA8, GL_SAMPLES, 3, counts);
		assert_int_equal(counts[0], 4);
		assert_int_equal(counts[1], 2);
		assert_int_equal(counts[2], -1);
		glGetInternalformativ(GL_RENDERBUFFER, GL_R32I, GL_NUM_SAMPLE_COUNTS, 1, &n);
		assert_int_equal(n, 0);
		glGetInternalformativ(GL_TEXTURE_2D, GL_RGBA8, GL_SAMPLES, 3, counts);
		assert_gl_error(GL_INVALID_ENUM);
		glGetInternalformativ(GL_RENDERBUFFER, GL_RGB16F, GL_SAMPLES, 3, counts);
		assert_gl_error(GL_INVALID_ENUM);
		glGetInternalformativ(GL_RENDERBUFFER, GL_RGBA8, GL_SAMPLES, -1, counts);
		assert_gl_error(GL_INVALID_VALUE);
	}
	glDeleteRenderbuffers(1, rb);
	assert_false(glIsRenderbuffer(rb[0]));
	assert_int_equal(get_int(GL_RENDERBUFFER_BINDING), 0);
	glDeleteRenderbuffers(1, &rb[1]);
	unbind(b);
}

/* ---- framebuffers --------------------------------------------------------------------------- */

static GLint fb_param(GLenum target, GLenum attachment, GLenum pname)
{
	GLint v = -12345;

	glGetFramebufferAttachmentParameteriv(target, attachment, pname, &v);
	assert_gl_error(GL_NO_ERROR);
	return v;
}

static GLuint renderbuffer(GLenum format, GLsizei w, GLsizei h, GLsizei samples)
{
	GLuint rb;

	glGenRenderbuffers(1, &rb);
	glBindRenderbuffer(GL_RENDERBUFFER, rb);
	glRenderbufferStorageMultisample(GL_RENDERBUFFER, samples, format, w, h);
	assert_gl_error(GL_NO_ERROR);
	return rb;
}

static void test_framebuffer_completeness(void **state)
{
	struct bound b = bind_new(3, false);
	GLuint fb, color, color2, depth, stencil, ds, ms, tex, arr;

	(void)state;
	assert_int_equal(glCheckFramebufferStatus(GL_FRAMEBUFFER), GL_FRAMEBUFFER_COMPLETE);
	assert_int_equal(glCheckFramebufferStatus(0x1234), 0);
	assert_gl_error(GL_INVALID_ENUM);
	glGenFramebuffers(1, &fb);
	assert_false(glIsFramebuffer(fb));
	/* attaching to the default framebuffer */
	glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, 0);
	assert_gl_error(GL_INVALID_OPERATION);
	glBindFramebuffer(GL_FRAMEBUFFER, fb);
	assert_true(glIsFramebuffer(fb));
	assert_int_equal(get_int(GL_DRAW_FRAMEBUFFER_BINDING), (GLint)fb);
	assert_int_equal(get_int(GL_READ_FRAMEBUFFER_BINDING), (GLint)fb);
	/* nothing attached */
	assert_int_equal(glCheckFramebufferStatus(GL_FRAMEBUFFER),
			 GL_FRAMEBUFFER_INCOMPLETE_MISSING_ATTACHMENT);

	color = renderbuffer(GL_RGBA8, 8, 8, 0);
	glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, color);
	assert_gl_error(GL_NO_ERROR);
	assert_int_equal(glCheckFramebufferStatus(GL_DRAW_FRAMEBUFFER), GL_FRAMEBUFFER_COMPLETE);
	assert_int_equal(get_int(GL_RED_BITS), 8);
	assert_int_equal(get_int(GL_DEPTH_BITS), 0);
	assert_int_equal(get_int(GL_IMPLEMENTATION_COLOR_READ_FORMAT), GL_RGBA);
	assert_int_equal(get_int(GL_IMPLEMENTATION_COLOR_READ_TYPE), GL_UNSIGNED_BYTE);
	glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, color);
	assert_gl_error(GL_INVALID_ENUM);
	glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, 4321);
	assert_gl_error(GL_INVALID_OPERATION);
	glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT8, GL_RENDERBUFFER, color);
	assert_gl_error(GL_INVALID_OPERATION); /* past MAX_COLOR_ATTACHMENTS */
	glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_BACK, GL_RENDERBUFFER, color);
	assert_gl_error(GL_INVALID_ENUM);

	/* a renderbuffer without storage: attachment incomplete */
	glGenRenderbuffers(1, &color2);
	glBindRenderbuffer(GL_RENDERBUFFER, color2);
	glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT1, GL_RENDERBUFFER, color2);
	assert_int_equal(glCheckFramebufferStatus(GL_FRAMEBUFFER),
			 GL_FRAMEBUFFER_INCOMPLETE_ATTACHMENT);
	/* ES 3.0: other sizes are fine (the intersection is drawn) */
	glRenderbufferStorage(GL_RENDERBUFFER, GL_RGB565, 4, 16);
	assert_int_equal(glCheckFramebufferStatus(GL_FRAMEBUFFER), GL_FRAMEBUFFER_COMPLETE);
	assert_int_equal(get_int(GL_IMPLEMENTATION_COLOR_READ_FORMAT), GL_RGBA); /* read: 0 */
	/* a colour-renderable format at the depth point */
	glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_DEPTH_ATTACHMENT, GL_RENDERBUFFER, color2);
	assert_int_equal(glCheckFramebufferStatus(GL_FRAMEBUFFER),
			 GL_FRAMEBUFFER_INCOMPLETE_ATTACHMENT);
	depth = renderbuffer(GL_DEPTH_COMPONENT24, 8, 8, 0);
	glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_DEPTH_ATTACHMENT, GL_RENDERBUFFER, depth);
	assert_int_equal(glCheckFramebufferStatus(GL_FRAMEBUFFER), GL_FRAMEBUFFER_COMPLETE);
	assert_int_equal(get_int(GL_DEPTH_BITS), 24);
	/* ES 3.0: depth and stencil must be the same image */
	stencil = renderbuffer(GL_STENCIL_INDEX8, 8, 8, 0);
	glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_STENCIL_ATTACHMENT, GL_RENDERBUFFER, stencil);
	assert_int_equal(glCheckFramebufferStatus(GL_FRAMEBUFFER), GL_FRAMEBUFFER_UNSUPPORTED);
	glGetFramebufferAttachmentParameteriv(GL_FRAMEBUFFER, GL_DEPTH_STENCIL_ATTACHMENT,
					      GL_FRAMEBUFFER_ATTACHMENT_OBJECT_NAME,
					      (GLint[1]){ 0 });
	assert_gl_error(GL_INVALID_OPERATION);
	ds = renderbuffer(GL_DEPTH24_STENCIL8, 8, 8, 0);
	glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_DEPTH_STENCIL_ATTACHMENT, GL_RENDERBUFFER, ds);
	assert_int_equal(glCheckFramebufferStatus(GL_FRAMEBUFFER), GL_FRAMEBUFFER_COMPLETE);
	assert_int_equal(get_int(GL_STENCIL_BITS), 8);
	assert_int_equal(fb_param(GL_FRAMEBUFFER, GL_DEPTH_STENCIL_ATTACHMENT,
				  GL_FRAMEBUFFER_ATTACHMENT_OBJECT_NAME),
			 (GLint)ds);
	assert_int_equal(fb_param(GL_FRAMEBUFFER, GL_STENCIL_ATTACHMENT,
				  GL_FRAMEBUFFER_ATTACHMENT_COMPONENT_TYPE),
			 GL_UNSIGNED_INT);
	assert_int_equal(
	    fb_param(GL_FRAMEBUFFER, GL_DEPTH_ATTACHMENT, GL_FRAMEBUFFER_ATTACHMENT_COMPONENT_TYPE),
	    GL_UNSIGNED_NORMALIZED);
	glGetFramebufferAttachmentParameteriv(GL_FRAMEBUFFER, GL_DEPTH_STENCIL_ATTACHMENT,
					      GL_FRAMEBUFFER_ATTACHMENT_COMPONENT_TYPE,
					      (GLint[1]){ 0 });
	assert_gl_error(GL_INVALID_OPERATION);
	/* samples must agree */
	ms = renderbuffer(GL_RGBA8, 8, 8, 4);
	glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT1, GL_RENDERBUFFER, ms);
	assert_int_equal(glCheckFramebufferStatus(GL_FRAMEBUFFER),
			 GL_FRAMEBUFFER_INCOMPLETE_MULTISAMPLE);
	glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, 0);
	glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_DEPTH_STENCIL_ATTACHMENT, GL_RENDERBUFFER, 0);
	assert_int_equal(glCheckFramebufferStatus(GL_FRAMEBUFFER), GL_FRAMEBUFFER_COMPLETE);
	assert_int_equal(get_int(GL_SAMPLES), 4);
	assert_int_equal(get_int(GL_SAMPLE_BUFFERS), 1);
	/* no read buffer attached: no implementation read format */
	glGetIntegerv(GL_IMPLEMENTATION_COLOR_READ_FORMAT, (GLint[1]){ 0 });
	assert_gl_error(GL_INVALID_OPERATION);
	glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT1, GL_RENDERBUFFER, 0);
	assert_int_equal(
	    fb_param(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT1, GL_FRAMEBUFFER_ATTACHMENT_OBJECT_TYPE),
	    GL_NONE);
	assert_int_equal(
	    fb_param(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT1, GL_FRAMEBUFFER_ATTACHMENT_OBJECT_NAME),
	    0);
	glGetFramebufferAttachmentParameteriv(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT1,
					      GL_FRAMEBUFFER_ATTACHMENT_RED_SIZE, (GLint[1]){ 0 });
	assert_gl_error(GL_INVALID_OPERATION);

	/* textures: levels, faces, layers */
	glGenTextures(1, &tex);
	glBindTexture(GL_TEXTURE_CUBE_MAP, tex);
	glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, tex, 0);
	assert_gl_error(GL_INVALID_OPERATION); /* a cube map, not a 2D texture */
	glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_CUBE_MAP_NEGATIVE_Y,
			       tex, -1);
	assert_gl_error(GL_INVALID_VALUE);
	glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_3D, tex, 0);
	assert_gl_error(GL_INVALID_ENUM);
	glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_CUBE_MAP_NEGATIVE_Y,
			       tex, 1);
	assert_gl_error(GL_NO_ERROR);
	/* the level was never given */
	assert_int_equal(glCheckFramebufferStatus(GL_FRAMEBUFFER),
			 GL_FRAMEBUFFER_INCOMPLETE_ATTACHMENT);
	glTexImage2D(GL_TEXTURE_CUBE_MAP_NEGATIVE_Y, 1, GL_RG8, 4, 4, 0, GL_RG, GL_UNSIGNED_BYTE,
		     NULL);
	assert_int_equal(glCheckFramebufferStatus(GL_FRAMEBUFFER), GL_FRAMEBUFFER_COMPLETE);
	assert_int_equal(get_int(GL_GREEN_BITS), 8);
	assert_int_equal(get_int(GL_BLUE_BITS), 0);
	assert_int_equal(get_int(GL_IMPLEMENTATION_COLOR_READ_FORMAT), GL_RG);
	assert_int_equal(
	    fb_param(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_FRAMEBUFFER_ATTACHMENT_OBJECT_TYPE),
	    GL_TEXTURE);
	assert_int_equal(
	    fb_param(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_FRAMEBUFFER_ATTACHMENT_TEXTURE_LEVEL),
	    1);
	assert_int_equal(fb_param(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0,
				  GL_FRAMEBUFFER_ATTACHMENT_TEXTURE_CUBE_MAP_FACE),
			 GL_TEXTURE_CUBE_MAP_NEGATIVE_Y);
	assert_int_equal(fb_param(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0,
				  GL_FRAMEBUFFER_ATTACHMENT_COLOR_ENCODING),
			 GL_LINEAR);
	/* a format that is not colour-renderable (EXT_color_buffer_float leaves RGB16F out) */
	glTexImage2D(GL_TEXTURE_CUBE_MAP_NEGATIVE_Y, 1, GL_RGB16F, 4, 4, 0, GL_RGB, GL_HALF_FLOAT,
		     NULL);
	assert_int_equal(glCheckFramebufferStatus(GL_FRAMEBUFFER),
			 GL_FRAMEBUFFER_INCOMPLETE_ATTACHMENT);
	glTexImage2D(GL_TEXTURE_CUBE_MAP_NEGATIVE_Y, 1, GL_SRGB8_ALPHA8, 4, 4, 0, GL_RGBA,
		     GL_UNSIGNED_BYTE, NULL);
	assert_int_equal(fb_param(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0,
				  GL_FRAMEBUFFER_ATTACHMENT_COLOR_ENCODING),
			 GL_SRGB);

	glGenTextures(1, &arr);
	glBindTexture(GL_TEXTURE_2D_ARRAY, arr);
	glTexStorage3D(GL_TEXTURE_2D_ARRAY, 1, GL_R32UI, 4, 4, 3);
	glFramebufferTextureLayer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, tex, 0, 0);
	assert_gl_error(GL_INVALID_OPERATION); /* a cube map */
	glFramebufferTextureLayer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, arr, 0, -1);
	assert_gl_error(GL_INVALID_VALUE);
	glFramebufferTextureLayer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, arr, 0, 3);
	assert_gl_error(GL_NO_ERROR);
	assert_int_equal(glCheckFramebufferStatus(GL_FRAMEBUFFER),
			 GL_FRAMEBUFFER_INCOMPLETE_ATTACHMENT); /* layer 3 of 3 */
	glFramebufferTextureLayer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, arr, 0, 2);
	assert_int_equal(glCheckFramebufferStatus(GL_FRAMEBUFFER), GL_FRAMEBUFFER_COMPLETE);
	assert_int_equal(
	    fb_param(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_FRAMEBUFFER_ATTACHMENT_TEXTURE_LAYER),
	    2);
	assert_int_equal(fb_param(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0,
				  GL_FRAMEBUFFER_ATTACHMENT_COMPONENT_TYPE),
			 GL_UNSIGNED_INT);
	assert_int_equal(get_int(GL_IMPLEMENTATION_COLOR_READ_FORMAT), GL_RED_INTEGER);
	assert_int_equal(get_int(GL_IMPLEMENTATION_COLOR_READ_TYPE), GL_UNSIGNED_INT);

	/* deleting an attached texture detaches it from the bound framebuffer */
	glDeleteTextures(1, &arr);
	assert_int_equal(
	    fb_param(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_FRAMEBUFFER_ATTACHMENT_OBJECT_TYPE),
	    GL_NONE);
	glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_CUBE_MAP_NEGATIVE_Y,
			       tex, 1);
	glBindFramebuffer(GL_FRAMEBUFFER, 0);
	/* ... but not from an unbound one: it stays attached, and alive */
	glDeleteTextures(1, &tex);
	glBindFramebuffer(GL_FRAMEBUFFER, fb);
	assert_int_equal(
	    fb_param(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_FRAMEBUFFER_ATTACHMENT_OBJECT_TYPE),
	    GL_TEXTURE);
	assert_int_equal(glCheckFramebufferStatus(GL_FRAMEBUFFER), GL_FRAMEBUFFER_COMPLETE);

	/* separate draw and read bindings */
	glBindFramebuffer(GL_READ_FRAMEBUFFER, 0);
	assert_int_equal(get_int(GL_READ_FRAMEBUFFER_BINDING), 0);
	assert_int_equal(get_int(GL_DRAW_FRAMEBUFFER_BINDING), (GLint)fb);
	glDeleteFramebuffers(1, &fb);
	assert_false(glIsFramebuffer(fb));
	assert_int_equal(get_int(GL_DRAW_FRAMEBUFFER_BINDING), 0);
	glDeleteRenderbuffers(1, &color);
	glDeleteRenderbuffers(1, &color2);
	glDeleteRenderbuffers(1, &depth);
	glDeleteRenderbuffers(1, &stencil);
	glDeleteRenderbuffers(1, &ds);
	glDeleteRenderbuffers(1, &ms);
	unbind(b);
}

static void test_default_framebuffer(void **state)
{
	struct bound b = bind_new(3, false);
	GLuint fb;

	(void)state;
	/* config 2: RGBA8888 with depth 24 and stencil 8 */
	assert_int_equal(fb_param(GL_FRAMEBUFFER, GL_BACK, GL_FRAMEBUFFER_ATTACHMENT_OBJECT_TYPE),
			 GL_FRAMEBUFFER_DEFAULT);
	assert_int_equal(fb_param(GL_FRAMEBUFFER, GL_BACK, GL_FRAMEBUFFER_ATTACHMENT_RED_SIZE), 8);
	assert_int_equal(fb_param(GL_FRAMEBUFFER, GL_DEPTH, GL_FRAMEBUFFER_ATTACHMENT_DEPTH_SIZE),
			 24);
	assert_int_equal(
	    fb_param(GL_FRAMEBUFFER, GL_STENCIL, GL_FRAMEBUFFER_ATTACHMENT_STENCIL_SIZE), 8);
	assert_int_equal(
	    fb_param(GL_READ_FRAMEBUFFER, GL_BACK, GL_FRAMEBUFFER_ATTACHMENT_COMPONENT_TYPE),
	    GL_UNSIGNED_NORMALIZED);
	glGetFramebufferAttachmentParameteriv(
	    GL_FRAMEBUFFER, GL_BACK, GL_FRAMEBUFFER_ATTACHMENT_OBJECT_NAME, (GLint[1]){ 0 });
	assert_gl_error(GL_INVALID_ENUM);
	glGetFramebufferAttachmentParameteriv(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0,
					      GL_FRAMEBUFFER_ATTACHMENT_OBJECT_TYPE,
					      (GLint[1]){ 0 });
	assert_gl_error(GL_INVALID_ENUM);
	assert_int_equal(get_int(GL_RED_BITS), 8);
	assert_int_equal(get_int(GL_STENCIL_BITS), 8);
	assert_int_equal(get_int(GL_SAMPLES), 0);
	assert_int_equal(get_int(GL_READ_BUFFER), GL_BACK);
	assert_int_equal(get_int(GL_DRAW_BUFFER0), GL_BACK);
	assert_int_equal(get_int(GL_DRAW_BUFFER1), GL_NONE);
	glGetIntegerv(GL_DRAW_BUFFER8, (GLint[1]){ 0 });
	assert_gl_error(GL_INVALID_OPERATION);

	/* draw and read buffers (sections 4.2.1, 4.3.1) */
	glDrawBuffers(1, (const GLenum[]){ GL_COLOR_ATTACHMENT0 });
	assert_gl_error(GL_INVALID_OPERATION);
	glDrawBuffers(2, (const GLenum[]){ GL_BACK, GL_NONE });
	assert_gl_error(GL_INVALID_OPERATION);
	glDrawBuffers(1, (const GLenum[]){ GL_FRONT });
	assert_gl_error(GL_INVALID_ENUM);
	glDrawBuffers(9, (const GLenum[9]){ GL_NONE });
	assert_gl_error(GL_INVALID_VALUE);
	glDrawBuffers(1, (const GLenum[]){ GL_NONE });
	assert_int_equal(get_int(GL_DRAW_BUFFER0), GL_NONE);
	glDrawBuffers(1, (const GLenum[]){ GL_BACK });
	glReadBuffer(GL_COLOR_ATTACHMENT0);
	assert_gl_error(GL_INVALID_OPERATION);
	glReadBuffer(GL_FRONT);
	assert_gl_error(GL_INVALID_ENUM);
	glReadBuffer(GL_NONE);
	assert_int_equal(get_int(GL_READ_BUFFER), GL_NONE);
	glReadBuffer(GL_BACK);

	glGenFramebuffers(1, &fb);
	glBindFramebuffer(GL_FRAMEBUFFER, fb);
	assert_int_equal(get_int(GL_DRAW_BUFFER0), GL_COLOR_ATTACHMENT0);
	assert_int_equal(get_int(GL_READ_BUFFER), GL_COLOR_ATTACHMENT0);
	glDrawBuffers(2, (const GLenum[]){ GL_NONE, GL_COLOR_ATTACHMENT1 });
	assert_gl_error(GL_NO_ERROR);
	assert_int_equal(get_int(GL_DRAW_BUFFER1), GL_COLOR_ATTACHMENT1);
	assert_int_equal(get_int(GL_DRAW_BUFFER0), GL_NONE);
	glDrawBuffers(2, (const GLenum[]){ GL_COLOR_ATTACHMENT1, GL_NONE });
	assert_gl_error(GL_INVALID_OPERATION);
	glDrawBuffers(1, (const GLenum[]){ GL_BACK });
	assert_gl_error(GL_INVALID_OPERATION);
	glReadBuffer(GL_COLOR_ATTACHMENT7);
	assert_int_equal(get_int(GL_READ_BUFFER), GL_COLOR_ATTACHMENT7);
	glReadBuffer(GL_COLOR_ATTACHMENT8);
	assert_gl_error(GL_INVALID_OPERATION);
	glReadBuffer(GL_BACK);
	assert_gl_error(GL_INVALID_OPERATION);

	/* invalidation: errors only */
	glInvalidateFramebuffer(GL_FRAMEBUFFER, 1, (const GLenum[]){ GL_COLOR });
	assert_gl_error(GL_INVALID_ENUM); /* a default framebuffer name, fb is an object */
	glInvalidateFramebuffer(
	    GL_FRAMEBUFFER, 2,
	    (const GLenum[]){ GL_COLOR_ATTACHMENT0, GL_DEPTH_STENCIL_ATTACHMENT });
	assert_gl_error(GL_NO_ERROR);
	glInvalidateFramebuffer(GL_FRAMEBUFFER, 1, (const GLenum[]){ GL_COLOR_ATTACHMENT8 });
	assert_gl_error(GL_INVALID_OPERATION);
	glInvalidateSubFramebuffer(GL_FRAMEBUFFER, 1, (const GLenum[]){ GL_DEPTH_ATTACHMENT }, 0, 0,
				   -1, 1);
	assert_gl_error(GL_INVALID_VALUE);
	glInvalidateFramebuffer(GL_FRAMEBUFFER, -1, NULL);
	assert_gl_error(GL_INVALID_VALUE);
	glBindFramebuffer(GL_FRAMEBUFFER, 0);
	glInvalidateSubFramebuffer(GL_DRAW_FRAMEBUFFER, 2, (const GLenum[]){ GL_COLOR, GL_STENCIL },
				   0, 0, 4, 4);
	assert_gl_error(GL_NO_ERROR);
	glInvalidateFramebuffer(0x1234, 0, NULL);
	assert_gl_error(GL_INVALID_ENUM);
	glDeleteFramebuffers(1, &fb);
	unbind(b);

	/* surfaceless: the default framebuffer is undefined */
	b = bind_new(3, true);
	assert_int_equal(glCheckFramebufferStatus(GL_FRAMEBUFFER), GL_FRAMEBUFFER_UNDEFINED);
	assert_int_equal(fb_param(GL_FRAMEBUFFER, GL_BACK, GL_FRAMEBUFFER_ATTACHMENT_OBJECT_TYPE),
			 GL_NONE);
	assert_int_equal(get_int(GL_RED_BITS), 0);
	unbind(b);
}

/* ---- vertex arrays -------------------------------------------------------------------------- */

static GLint attrib(GLuint index, GLenum pname)
{
	GLint v = -12345;

	glGetVertexAttribiv(index, pname, &v);
	assert_gl_error(GL_NO_ERROR);
	return v;
}

static void test_vertex_arrays(void **state)
{
	struct bound b = bind_new(3, false);
	GLuint vao[2], buf;
	void *ptr;
	GLfloat f[4];
	GLint iv[4];
	GLuint uv[4];

	(void)state;
	/* table 6.2's initial values, on the default vertex array */
	assert_int_equal(get_int(GL_VERTEX_ARRAY_BINDING), 0);
	assert_int_equal(attrib(0, GL_VERTEX_ATTRIB_ARRAY_ENABLED), GL_FALSE);
	assert_int_equal(attrib(0, GL_VERTEX_ATTRIB_ARRAY_SIZE), 4);
	assert_int_equal(attrib(0, GL_VERTEX_ATTRIB_ARRAY_TYPE), GL_FLOAT);
	assert_int_equal(attrib(0, GL_VERTEX_ATTRIB_ARRAY_INTEGER), GL_FALSE);
	glGetVertexAttribfv(1, GL_CURRENT_VERTEX_ATTRIB, f);
	assert_true(f[0] == 0 && f[3] == 1);
	glVertexAttrib4f(1, 1.5f, 2, 3, 4);
	glGetVertexAttribfv(1, GL_CURRENT_VERTEX_ATTRIB, f);
	assert_true(f[0] == 1.5f && f[3] == 4);
	glVertexAttribI4ui(2, 7, 8, 9, 0xffffffffu);
	glGetVertexAttribIuiv(2, GL_CURRENT_VERTEX_ATTRIB, uv);
	assert_int_equal(uv[3], 0xffffffffu);
	glVertexAttribI4i(3, -7, 8, 9, 10);
	glGetVertexAttribIiv(3, GL_CURRENT_VERTEX_ATTRIB, iv);
	assert_int_equal(iv[0], -7);

	/* client pointers on the default vertex array */
	glVertexAttribPointer(0, 3, GL_SHORT, GL_TRUE, 12, (void *)0x1000);
	assert_gl_error(GL_NO_ERROR);
	glGetVertexAttribPointerv(0, GL_VERTEX_ATTRIB_ARRAY_POINTER, &ptr);
	assert_ptr_equal(ptr, (void *)0x1000);
	assert_int_equal(attrib(0, GL_VERTEX_ATTRIB_ARRAY_NORMALIZED), GL_TRUE);
	assert_int_equal(attrib(0, GL_VERTEX_ATTRIB_ARRAY_STRIDE), 12);
	glVertexAttribPointer(16, 3, GL_SHORT, GL_TRUE, 12, NULL);
	assert_gl_error(GL_INVALID_VALUE);
	glVertexAttribPointer(0, 5, GL_SHORT, GL_TRUE, 12, NULL);
	assert_gl_error(GL_INVALID_VALUE);
	glVertexAttribPointer(0, 3, GL_SHORT, GL_TRUE, -1, NULL);
	assert_gl_error(GL_INVALID_VALUE);
	glVertexAttribPointer(0, 3, 0x140A /* GL_DOUBLE */, GL_TRUE, 0, NULL);
	assert_gl_error(GL_INVALID_ENUM);
	glVertexAttribPointer(0, 3, GL_INT_2_10_10_10_REV, GL_TRUE, 0, NULL);
	assert_gl_error(GL_INVALID_OPERATION);
	glVertexAttribIPointer(0, 2, GL_FLOAT, 0, NULL);
	assert_gl_error(GL_INVALID_ENUM);
	glVertexAttribIPointer(4, 2, GL_UNSIGNED_SHORT, 0, NULL);
	assert_int_equal(attrib(4, GL_VERTEX_ATTRIB_ARRAY_INTEGER), GL_TRUE);
	glEnableVertexAttribArray(4);
	assert_int_equal(attrib(4, GL_VERTEX_ATTRIB_ARRAY_ENABLED), GL_TRUE);
	glEnableVertexAttribArray(16);
	assert_gl_error(GL_INVALID_VALUE);
	glVertexAttribDivisor(4, 3);
	assert_int_equal(attrib(4, GL_VERTEX_ATTRIB_ARRAY_DIVISOR), 3);
	glGetVertexAttribiv(0, 0x1234, iv);
	assert_gl_error(GL_INVALID_ENUM);
	glGetVertexAttribPointerv(0, GL_VERTEX_ATTRIB_ARRAY_SIZE, &ptr);
	assert_gl_error(GL_INVALID_ENUM);

	/* vertex array objects (section 2.10) */
	glGenVertexArrays(2, vao);
	assert_false(glIsVertexArray(vao[0]));
	glBindVertexArray(12345);
	assert_gl_error(GL_INVALID_OPERATION);
	glBindVertexArray(vao[0]);
	assert_true(glIsVertexArray(vao[0]));
	assert_int_equal(get_int(GL_VERTEX_ARRAY_BINDING), (GLint)vao[0]);
	/* its own state: the default vertex array's is not seen */
	assert_int_equal(attrib(4, GL_VERTEX_ATTRIB_ARRAY_ENABLED), GL_FALSE);
	/* no client pointers in a vertex array object */
	glVertexAttribPointer(0, 3, GL_FLOAT, GL_FALSE, 0, (void *)16);
	assert_gl_error(GL_INVALID_OPERATION);
	glGenBuffers(1, &buf);
	glBindBuffer(GL_ARRAY_BUFFER, buf);
	glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, buf);
	glVertexAttribPointer(0, 3, GL_FLOAT, GL_FALSE, 0, (void *)16);
	assert_gl_error(GL_NO_ERROR);
	assert_int_equal(attrib(0, GL_VERTEX_ATTRIB_ARRAY_BUFFER_BINDING), (GLint)buf);
	assert_int_equal(get_int(GL_ELEMENT_ARRAY_BUFFER_BINDING), (GLint)buf);
	/* the element array binding is the vertex array's; ARRAY_BUFFER is not */
	glBindVertexArray(0);
	assert_int_equal(get_int(GL_ELEMENT_ARRAY_BUFFER_BINDING), 0);
	assert_int_equal(get_int(GL_ARRAY_BUFFER_BINDING), (GLint)buf);
	assert_int_equal(attrib(4, GL_VERTEX_ATTRIB_ARRAY_ENABLED), GL_TRUE);
	glBindVertexArray(vao[0]);
	/* deleting the buffer detaches it from the bound vertex array */
	glDeleteBuffers(1, &buf);
	assert_int_equal(attrib(0, GL_VERTEX_ATTRIB_ARRAY_BUFFER_BINDING), 0);
	assert_int_equal(get_int(GL_ELEMENT_ARRAY_BUFFER_BINDING), 0);
	/* deleting the bound vertex array binds the default one */
	glDeleteVertexArrays(2, vao);
	assert_false(glIsVertexArray(vao[0]));
	assert_int_equal(get_int(GL_VERTEX_ARRAY_BINDING), 0);
	glBindVertexArray(vao[1]);
	assert_gl_error(GL_INVALID_OPERATION); /* deleted */
	glDeleteVertexArrays(-1, vao);
	assert_gl_error(GL_INVALID_VALUE);
	unbind(b);
}

/* ---- ES 2.0 requests ------------------------------------------------------------------------ */

/*
 * An ES 2.0 request gets an ES 3.0 context (EGL 1.5 section 3.7.1.1, any
 * version backward compatible with the one asked for): ES 3.0's buffer
 * targets and usages, sized and 3D textures and non-power-of-two mipmaps,
 * its renderbuffer formats and framebuffer rules, vertex arrays.
 */
static void test_es2_request(void **state)
{
	struct bound b = bind_new(2, false);
	GLuint buf, tex, fb, rb[2], vao;
	GLint value = 0;
	uint8_t pixels[64] = { 0 };

	(void)state;
	glGenBuffers(1, &buf);
	glBindBuffer(GL_COPY_READ_BUFFER, buf);
	glBufferData(GL_COPY_READ_BUFFER, 4, NULL, GL_STREAM_READ);
	assert_gl_error(GL_NO_ERROR);
	assert_int_equal(get_int(GL_COPY_READ_BUFFER_BINDING), (GLint)buf);
	glDeleteBuffers(1, &buf);

	glGenTextures(1, &tex);
	glBindTexture(GL_TEXTURE_3D, tex);
	assert_gl_error(GL_NO_ERROR);
	glDeleteTextures(1, &tex);
	glGenTextures(1, &tex);
	glBindTexture(GL_TEXTURE_2D, tex);
	glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, 3, 3, 0, GL_RGBA, GL_UNSIGNED_BYTE, pixels);
	glGenerateMipmap(GL_TEXTURE_2D);
	glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_R, GL_REPEAT);
	assert_gl_error(GL_NO_ERROR);
	assert_int_equal(tex_param(GL_TEXTURE_2D, GL_TEXTURE_WRAP_R), GL_REPEAT);
	assert_int_equal(get_int(GL_NUM_COMPRESSED_TEXTURE_FORMATS), 18);
	glDeleteTextures(1, &tex);

	/* ES 3.0 takes the attachments' intersection: sizes may differ */
	glGenFramebuffers(1, &fb);
	glBindFramebuffer(GL_READ_FRAMEBUFFER, fb);
	glBindFramebuffer(GL_FRAMEBUFFER, fb);
	glGenRenderbuffers(2, rb);
	glBindRenderbuffer(GL_RENDERBUFFER, rb[0]);
	glRenderbufferStorage(GL_RENDERBUFFER, GL_RGBA8, 4, 4);
	glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT1, GL_RENDERBUFFER, rb[0]);
	glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, rb[0]);
	glBindRenderbuffer(GL_RENDERBUFFER, rb[1]);
	glRenderbufferStorage(GL_RENDERBUFFER, GL_DEPTH_COMPONENT16, 4, 8);
	glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_DEPTH_ATTACHMENT, GL_RENDERBUFFER, rb[1]);
	assert_gl_error(GL_NO_ERROR);
	assert_int_equal(glCheckFramebufferStatus(GL_FRAMEBUFFER), GL_FRAMEBUFFER_COMPLETE);
	glGetFramebufferAttachmentParameteriv(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0,
					      GL_FRAMEBUFFER_ATTACHMENT_RED_SIZE, &value);
	assert_gl_error(GL_NO_ERROR);
	assert_int_equal(value, 8);
	glBindFramebuffer(GL_FRAMEBUFFER, 0);
	glGetFramebufferAttachmentParameteriv(GL_FRAMEBUFFER, GL_BACK,
					      GL_FRAMEBUFFER_ATTACHMENT_OBJECT_TYPE, &value);
	assert_gl_error(GL_NO_ERROR);
	assert_int_equal(value, GL_FRAMEBUFFER_DEFAULT);
	glDeleteFramebuffers(1, &fb);
	glDeleteRenderbuffers(2, rb);

	glGenVertexArrays(1, &vao);
	glBindVertexArray(vao);
	glVertexAttribIPointer(0, 4, GL_INT, 0, NULL);
	assert_gl_error(GL_NO_ERROR);
	assert_int_equal(get_int(GL_VERTEX_ARRAY_BINDING), (GLint)vao);
	glDeleteVertexArrays(1, &vao);
	unbind(b);
}

/* ---- sharing -------------------------------------------------------------------------------- */

static void test_sharing(void **state)
{
	const EGLint attribs[] = { EGL_WIDTH, 8, EGL_HEIGHT, 8, EGL_NONE };
	EGLSurface surf = eglCreatePbufferSurface(dpy, config, attribs);
	EGLContext a = context(3, EGL_NO_CONTEXT), b = context(3, a),
		   c = context(3, EGL_NO_CONTEXT);
	GLuint buf, tex, rb, smp, fb, vao;
	uint8_t *p;

	(void)state;
	assert_true(eglMakeCurrent(dpy, surf, surf, a));
	glGenBuffers(1, &buf);
	glBindBuffer(GL_ARRAY_BUFFER, buf);
	glBufferData(GL_ARRAY_BUFFER, 4, (const uint8_t[]){ 1, 2, 3, 4 }, GL_STATIC_DRAW);
	glGenTextures(1, &tex);
	glBindTexture(GL_TEXTURE_2D, tex);
	glGenRenderbuffers(1, &rb);
	glBindRenderbuffer(GL_RENDERBUFFER, rb);
	glGenSamplers(1, &smp);
	glGenFramebuffers(1, &fb);
	glBindFramebuffer(GL_FRAMEBUFFER, fb);
	glGenVertexArrays(1, &vao);
	glBindVertexArray(vao);
	assert_gl_error(GL_NO_ERROR);

	/* the share group sees buffers, textures, renderbuffers and samplers ... */
	assert_true(eglMakeCurrent(dpy, surf, surf, b));
	assert_true(glIsBuffer(buf));
	assert_true(glIsTexture(tex));
	assert_true(glIsRenderbuffer(rb));
	assert_true(glIsSampler(smp));
	/* ... but framebuffers and vertex arrays are each context's own */
	assert_false(glIsFramebuffer(fb));
	assert_false(glIsVertexArray(vao));
	/* bindings are per context */
	assert_int_equal(get_int(GL_ARRAY_BUFFER_BINDING), 0);
	glBindBuffer(GL_COPY_READ_BUFFER, buf);
	p = glMapBufferRange(GL_COPY_READ_BUFFER, 0, 4, GL_MAP_READ_BIT);
	assert_non_null(p);
	assert_int_equal(p[3], 4);
	glUnmapBuffer(GL_COPY_READ_BUFFER);
	/* deleting in b: a keeps its binding, and the buffer's contents */
	glDeleteBuffers(1, &buf);
	assert_false(glIsBuffer(buf));

	assert_true(eglMakeCurrent(dpy, surf, surf, c));
	assert_false(glIsTexture(tex));
	assert_false(glIsSampler(smp));

	assert_true(eglMakeCurrent(dpy, surf, surf, a));
	assert_false(glIsBuffer(buf));
	assert_int_equal(get_int(GL_ARRAY_BUFFER_BINDING), (GLint)buf);
	p = glMapBufferRange(GL_ARRAY_BUFFER, 0, 4, GL_MAP_READ_BIT);
	assert_non_null(p);
	assert_int_equal(p[0], 1);
	glUnmapBuffer(GL_ARRAY_BUFFER);
	assert_true(glIsFramebuffer(fb));

	/* the group outlives the context that made it */
	assert_true(eglMakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT));
	assert_true(eglDestroyContext(dpy, a));
	assert_true(eglMakeCurrent(dpy, surf, surf, b));
	assert_true(glIsTexture(tex));
	assert_true(eglMakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT));
	assert_true(eglDestroyContext(dpy, b));
	assert_true(eglDestroyContext(dpy, c));
	assert_true(eglDestroySurface(dpy, surf));
}

/* ---- setup ---------------------------------------------------------------------------------- */

static struct egl_stack fixture;

static int setup(void **state)
{
	(void)state;
	if (egl_stack_setup(&fixture, &options, 2) < 0)
		return -1;
	dpy = fixture.dpy;
	config = fixture.config;
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	return egl_stack_teardown(&fixture) ? 0 : -1;
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_buffers),
		cmocka_unit_test(test_mapbuffer_oes),
		cmocka_unit_test(test_textures),
		cmocka_unit_test(test_samplers),
		cmocka_unit_test(test_renderbuffers),
		cmocka_unit_test(test_framebuffer_completeness),
		cmocka_unit_test(test_default_framebuffer),
		cmocka_unit_test(test_vertex_arrays),
		cmocka_unit_test(test_es2_request),
		cmocka_unit_test(test_sharing),
	};

	if (!getenv("__EGL_VENDOR_LIBRARY_FILENAMES")) {
		fprintf(stderr, "%s: __EGL_VENDOR_LIBRARY_FILENAMES names no vendor file\n",
			argv[0]);
		return 2;
	}
	return test_stack_run(argc, argv, &options, tests, sizeof(tests) / sizeof(tests[0]), setup,
			      teardown);
}
