/*
 * test-debug: GL_KHR_debug (gles/debug.c) through glvnd over the real
 * stack -- DEBUG_OUTPUT's initial value in debug and other contexts, the
 * limits and the state's queries, the message log (order, lengths, a full
 * log, messages that do not fit), the callback and its user parameter,
 * message control by source, type, severity and ID, debug groups (their
 * messages, inherited and restored controls, the stack's depth and its
 * errors), GL errors as messages, labels on every object type ES 3.0
 * has and on sync objects, every error the extension lists, and all of it
 * per context.  The entry points are the KHR ones, from eglGetProcAddress.
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

#include "egl-stack.h"

/* The extension's tokens (GLES2/gl2ext.h has them, but goes with GLES2/gl2.h, not gl3.h) */
#define DEBUG_OUTPUT		    0x92E0
#define DEBUG_OUTPUT_SYNCHRONOUS    0x8242
#define CONTEXT_FLAGS		    0x821E /* desktop GL's; ES 3.0 has no such state */
#define MAX_DEBUG_MESSAGE_LENGTH    0x9143
#define MAX_DEBUG_LOGGED_MESSAGES   0x9144
#define DEBUG_LOGGED_MESSAGES	    0x9145
#define DEBUG_NEXT_LOGGED_LENGTH    0x8243
#define MAX_DEBUG_GROUP_STACK_DEPTH 0x826C
#define DEBUG_GROUP_STACK_DEPTH	    0x826D
#define MAX_LABEL_LENGTH	    0x82E8
#define DEBUG_CALLBACK_FUNCTION	    0x8244
#define DEBUG_CALLBACK_USER_PARAM   0x8245
#define SOURCE_API		    0x8246
#define SOURCE_WINDOW_SYSTEM	    0x8247
#define SOURCE_SHADER_COMPILER	    0x8248
#define SOURCE_THIRD_PARTY	    0x8249
#define SOURCE_APPLICATION	    0x824A
#define SOURCE_OTHER		    0x824B
#define TYPE_ERROR		    0x824C
#define TYPE_PERFORMANCE	    0x8250
#define TYPE_OTHER		    0x8251
#define TYPE_MARKER		    0x8268
#define TYPE_PUSH_GROUP		    0x8269
#define TYPE_POP_GROUP		    0x826A
#define SEVERITY_HIGH		    0x9146
#define SEVERITY_MEDIUM		    0x9147
#define SEVERITY_LOW		    0x9148
#define SEVERITY_NOTIFICATION	    0x826B
#define STACK_OVERFLOW		    0x0503
#define STACK_UNDERFLOW		    0x0504
#define ID_BUFFER		    0x82E0
#define ID_SHADER		    0x82E1
#define ID_PROGRAM		    0x82E2
#define ID_VERTEX_ARRAY		    0x8074
#define ID_QUERY		    0x82E3
#define ID_PROGRAM_PIPELINE	    0x82E4
#define ID_SAMPLER		    0x82E6
#define ID_DISPLAY_LIST		    0x82E7

typedef void(GL_APIENTRY *debug_proc)(GLenum source, GLenum type, GLuint id, GLenum severity,
				      GLsizei length, const GLchar *message, const void *user);

static void(GL_APIENTRY *DebugMessageControl)(GLenum, GLenum, GLenum, GLsizei, const GLuint *,
					      GLboolean);
static void(GL_APIENTRY *DebugMessageInsert)(GLenum, GLenum, GLuint, GLenum, GLsizei,
					     const GLchar *);
static void(GL_APIENTRY *DebugMessageCallback)(debug_proc, const void *);
static GLuint(GL_APIENTRY *GetDebugMessageLog)(GLuint, GLsizei, GLenum *, GLenum *, GLuint *,
					       GLenum *, GLsizei *, GLchar *);
static void(GL_APIENTRY *PushDebugGroup)(GLenum, GLuint, GLsizei, const GLchar *);
static void(GL_APIENTRY *PopDebugGroup)(void);
static void(GL_APIENTRY *ObjectLabel)(GLenum, GLuint, GLsizei, const GLchar *);
static void(GL_APIENTRY *GetObjectLabel)(GLenum, GLuint, GLsizei, GLsizei *, GLchar *);
static void(GL_APIENTRY *ObjectPtrLabel)(const void *, GLsizei, const GLchar *);
static void(GL_APIENTRY *GetObjectPtrLabel)(const void *, GLsizei, GLsizei *, GLchar *);
static void(GL_APIENTRY *GetPointerv)(GLenum, void **);

static struct test_stack_options options;
static EGLDisplay dpy;
static EGLConfig config;

#define assert_gl_error(expected) assert_int_equal(glGetError(), (expected))

static void load_functions(void)
{
#define LOAD(var, name)                                                                            \
	do {                                                                                       \
		*(void **)&(var) = (void *)eglGetProcAddress(name);                                \
		assert_non_null(var);                                                              \
	} while (0)
	LOAD(DebugMessageControl, "glDebugMessageControlKHR");
	LOAD(DebugMessageInsert, "glDebugMessageInsertKHR");
	LOAD(DebugMessageCallback, "glDebugMessageCallbackKHR");
	LOAD(GetDebugMessageLog, "glGetDebugMessageLogKHR");
	LOAD(PushDebugGroup, "glPushDebugGroupKHR");
	LOAD(PopDebugGroup, "glPopDebugGroupKHR");
	LOAD(ObjectLabel, "glObjectLabelKHR");
	LOAD(GetObjectLabel, "glGetObjectLabelKHR");
	LOAD(ObjectPtrLabel, "glObjectPtrLabelKHR");
	LOAD(GetObjectPtrLabel, "glGetObjectPtrLabelKHR");
	LOAD(GetPointerv, "glGetPointervKHR");
#undef LOAD
}

/* A context asked for as ES major.0 (debug: with EGL_CONTEXT_OPENGL_DEBUG), current surfaceless. */
static EGLContext current_new(EGLint major, bool debug, EGLContext share)
{
	const EGLint attribs[] = { EGL_CONTEXT_MAJOR_VERSION,
				   major,
				   EGL_CONTEXT_MINOR_VERSION,
				   0,
				   EGL_CONTEXT_OPENGL_DEBUG,
				   debug ? EGL_TRUE : EGL_FALSE,
				   EGL_NONE };
	EGLContext ctx = eglCreateContext(dpy, config, share, attribs);

	assert_ptr_not_equal(ctx, EGL_NO_CONTEXT);
	assert_true(eglMakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, ctx));
	assert_gl_error(GL_NO_ERROR);
	return ctx;
}

static void destroy_current(EGLContext ctx)
{
	assert_true(eglMakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT));
	assert_true(eglDestroyContext(dpy, ctx));
}

static GLint get_int(GLenum pname)
{
	GLint v = -12345;

	glGetIntegerv(pname, &v);
	assert_gl_error(GL_NO_ERROR);
	return v;
}

/* An application marker of id with text, NOTIFICATION. */
static void marker(GLuint id, const char *text)
{
	DebugMessageInsert(SOURCE_APPLICATION, TYPE_MARKER, id, SEVERITY_NOTIFICATION, -1, text);
	assert_gl_error(GL_NO_ERROR);
}

/* One message fetched from the log. */
struct message {
	GLenum source, type, severity;
	GLuint id;
	GLsizei length; /* with the NUL, as the log gives it */
	char text[1024];
};

/* Fetches the oldest message: false when the log is empty. */
static bool fetch(struct message *m)
{
	GLuint n;

	memset(m, 0, sizeof(*m));
	n = GetDebugMessageLog(1, sizeof(m->text), &m->source, &m->type, &m->id, &m->severity,
			       &m->length, m->text);
	assert_gl_error(GL_NO_ERROR);
	return n == 1;
}

/* Empties the log: how many messages it held. */
static unsigned drain(void)
{
	unsigned n = 0, got;

	while ((got = GetDebugMessageLog(100, 0, NULL, NULL, NULL, NULL, NULL, NULL)) > 0)
		n += got;
	assert_gl_error(GL_NO_ERROR);
	return n;
}

/* The ids of the messages in the log, oldest first, emptying it: how many. */
static unsigned logged_ids(GLuint *ids, unsigned max)
{
	GLuint n = GetDebugMessageLog(max, 0, NULL, NULL, ids, NULL, NULL, NULL);

	assert_gl_error(GL_NO_ERROR);
	assert_int_equal(get_int(DEBUG_LOGGED_MESSAGES), 0);
	return n;
}

static void check_ids(const GLuint *expect, unsigned n)
{
	GLuint ids[128];

	assert_int_equal(logged_ids(ids, 128), n);
	for (unsigned i = 0; i < n; i++)
		assert_int_equal(ids[i], expect[i]);
}

/* ---- the callback ----------------------------------------------------------------------- */

struct received {
	unsigned count;
	GLenum source, type, severity;
	GLuint id;
	GLsizei length;
	char text[1024];
	bool terminated; /* message[length] was the NUL */
	const void *user;
};

static void GL_APIENTRY record(GLenum source, GLenum type, GLuint id, GLenum severity,
			       GLsizei length, const GLchar *message, const void *user)
{
	struct received *r = (struct received *)(uintptr_t)user;

	r->count++;
	r->source = source;
	r->type = type;
	r->id = id;
	r->severity = severity;
	r->length = length;
	r->terminated = message[length] == '\0';
	snprintf(r->text, sizeof(r->text), "%s", message);
	r->user = user;
}

/* ---- tests ------------------------------------------------------------------------------ */

/* The extension string, the entry points, limits, initial state, capabilities. */
static void test_state(void **state)
{
	EGLContext plain, debug;
	GLboolean b = GL_TRUE;
	void *p = (void *)&b;
	GLint v;

	(void)state;
	plain = current_new(3, false, EGL_NO_CONTEXT);
	assert_non_null(strstr((const char *)glGetString(GL_EXTENSIONS), "GL_KHR_debug"));
	load_functions();
	/* section 5.5: FALSE without the debug flag */
	assert_false(glIsEnabled(DEBUG_OUTPUT));
	assert_false(glIsEnabled(DEBUG_OUTPUT_SYNCHRONOUS));
	glGetBooleanv(DEBUG_OUTPUT, &b);
	assert_int_equal(b, GL_FALSE);
	assert_gl_error(GL_NO_ERROR);
	/* the limits: at least the spec's minimums */
	assert_true(get_int(MAX_DEBUG_MESSAGE_LENGTH) >= 1);
	assert_true(get_int(MAX_DEBUG_LOGGED_MESSAGES) >= 1);
	assert_true(get_int(MAX_DEBUG_GROUP_STACK_DEPTH) >= 64);
	assert_true(get_int(MAX_LABEL_LENGTH) >= 256);
	/* table 6.55's initial values */
	assert_int_equal(get_int(DEBUG_LOGGED_MESSAGES), 0);
	assert_int_equal(get_int(DEBUG_NEXT_LOGGED_LENGTH), 0);
	assert_int_equal(get_int(DEBUG_GROUP_STACK_DEPTH), 1);
	GetPointerv(DEBUG_CALLBACK_FUNCTION, &p);
	assert_null(p);
	p = &b;
	GetPointerv(DEBUG_CALLBACK_USER_PARAM, &p);
	assert_null(p);
	assert_gl_error(GL_NO_ERROR);
	p = &b;
	GetPointerv(GL_ARRAY_BUFFER_BINDING, &p);
	assert_gl_error(GL_INVALID_ENUM);
	assert_ptr_equal(p, &b);
	/* ES 3.0 has no CONTEXT_FLAGS (the spec's "Interactions with OpenGL ES") */
	v = 77;
	glGetIntegerv(CONTEXT_FLAGS, &v);
	assert_gl_error(GL_INVALID_ENUM);
	assert_int_equal(v, 77);
	/* the capabilities, through glIsEnabled and glGet */
	glEnable(DEBUG_OUTPUT);
	glEnable(DEBUG_OUTPUT_SYNCHRONOUS);
	assert_gl_error(GL_NO_ERROR);
	assert_true(glIsEnabled(DEBUG_OUTPUT));
	assert_true(glIsEnabled(DEBUG_OUTPUT_SYNCHRONOUS));
	assert_int_equal(get_int(DEBUG_OUTPUT), 1);
	assert_int_equal(get_int(DEBUG_OUTPUT_SYNCHRONOUS), 1);
	glDisable(DEBUG_OUTPUT_SYNCHRONOUS);
	assert_false(glIsEnabled(DEBUG_OUTPUT_SYNCHRONOUS));
	assert_true(glIsEnabled(DEBUG_OUTPUT));
	/* and they are the context's */
	debug = current_new(3, true, EGL_NO_CONTEXT);
	assert_true(glIsEnabled(DEBUG_OUTPUT)); /* TRUE in a debug context */
	assert_false(glIsEnabled(DEBUG_OUTPUT_SYNCHRONOUS));
	glDisable(DEBUG_OUTPUT);
	assert_false(glIsEnabled(DEBUG_OUTPUT));
	assert_true(eglMakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, plain));
	assert_true(glIsEnabled(DEBUG_OUTPUT));
	destroy_current(plain);
	assert_true(eglMakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, debug));
	destroy_current(debug);
	/* an ES 2.0 request: an ES 3.0 context, with the extension */
	debug = current_new(2, true, EGL_NO_CONTEXT);
	assert_non_null(strstr((const char *)glGetString(GL_EXTENSIONS), "GL_KHR_debug"));
	assert_true(glIsEnabled(DEBUG_OUTPUT));
	marker(5, "es2");
	assert_int_equal(get_int(DEBUG_LOGGED_MESSAGES), 1);
	destroy_current(debug);
}

/* Section 5.5.3 and 6.1.15: the log. */
static void test_log(void **state)
{
	EGLContext ctx, other;
	GLenum sources[4], types[4], severities[4];
	GLuint ids[4];
	GLsizei lengths[4];
	char buf[64];
	struct message m;
	GLint max;

	(void)state;
	ctx = current_new(3, true, EGL_NO_CONTEXT);
	load_functions();
	DebugMessageInsert(SOURCE_APPLICATION, TYPE_MARKER, 1, SEVERITY_NOTIFICATION, -1, "one");
	DebugMessageInsert(SOURCE_THIRD_PARTY, TYPE_PERFORMANCE, 2, SEVERITY_HIGH, -1, "two!");
	/* length counts the characters: buf needs no NUL */
	DebugMessageInsert(SOURCE_APPLICATION, TYPE_OTHER, 3, SEVERITY_MEDIUM, 5, "threeXYZ");
	assert_gl_error(GL_NO_ERROR);
	assert_int_equal(get_int(DEBUG_LOGGED_MESSAGES), 3);
	assert_int_equal(get_int(DEBUG_NEXT_LOGGED_LENGTH), 4); /* "one" and its NUL */

	/* a buffer too small for the second: only the first comes out */
	memset(buf, 'x', sizeof(buf));
	assert_int_equal(GetDebugMessageLog(4, 8, sources, types, ids, severities, lengths, buf),
			 1);
	assert_int_equal(sources[0], SOURCE_APPLICATION);
	assert_int_equal(types[0], TYPE_MARKER);
	assert_int_equal(ids[0], 1);
	assert_int_equal(severities[0], SEVERITY_NOTIFICATION);
	assert_int_equal(lengths[0], 4);
	assert_string_equal(buf, "one");
	assert_int_equal(get_int(DEBUG_LOGGED_MESSAGES), 2);
	assert_int_equal(get_int(DEBUG_NEXT_LOGGED_LENGTH), 5);

	/* both the others: concatenated, each with its NUL */
	memset(buf, 'x', sizeof(buf));
	assert_int_equal(GetDebugMessageLog(4, 11, sources, types, ids, severities, lengths, buf),
			 2);
	assert_memory_equal(buf, "two!\0three\0", 11);
	assert_int_equal(buf[11], 'x');
	assert_int_equal(sources[0], SOURCE_THIRD_PARTY);
	assert_int_equal(types[0], TYPE_PERFORMANCE);
	assert_int_equal(severities[0], SEVERITY_HIGH);
	assert_int_equal(ids[1], 3);
	assert_int_equal(types[1], TYPE_OTHER);
	assert_int_equal(severities[1], SEVERITY_MEDIUM);
	assert_int_equal(lengths[1], 6);
	assert_int_equal(get_int(DEBUG_LOGGED_MESSAGES), 0);
	assert_int_equal(get_int(DEBUG_NEXT_LOGGED_LENGTH), 0);
	assert_int_equal(GetDebugMessageLog(4, sizeof(buf), NULL, NULL, NULL, NULL, NULL, buf), 0);

	/* count limits what is fetched; NULL arrays discard, the messages still go */
	marker(10, "a");
	marker(11, "b");
	marker(12, "c");
	assert_int_equal(GetDebugMessageLog(2, 0, NULL, NULL, NULL, NULL, NULL, NULL), 2);
	assert_int_equal(get_int(DEBUG_LOGGED_MESSAGES), 1);
	assert_true(fetch(&m));
	assert_int_equal(m.id, 12);
	assert_string_equal(m.text, "c");
	assert_int_equal(GetDebugMessageLog(0, 0, NULL, NULL, NULL, NULL, NULL, NULL), 0);

	/* a full log takes no more: the first MAX_DEBUG_LOGGED_MESSAGES stay */
	max = get_int(MAX_DEBUG_LOGGED_MESSAGES);
	for (GLint i = 0; i < max + 5; i++)
		marker((GLuint)i, "full");
	assert_int_equal(get_int(DEBUG_LOGGED_MESSAGES), max);
	assert_true(fetch(&m));
	assert_int_equal(m.id, 0);
	marker(1000, "room again");
	assert_int_equal(get_int(DEBUG_LOGGED_MESSAGES), max);
	{
		GLuint *all = calloc((size_t)max, sizeof(*all));

		assert_non_null(all);
		assert_int_equal(
		    GetDebugMessageLog((GLuint)max, 0, NULL, NULL, all, NULL, NULL, NULL), max);
		assert_int_equal(all[0], 1);
		assert_int_equal(all[max - 2], (GLuint)max - 1);
		assert_int_equal(all[max - 1], 1000);
		free(all);
	}
	assert_int_equal(drain(), 0);

	/* severity LOW is disabled initially, the others enabled */
	DebugMessageInsert(SOURCE_APPLICATION, TYPE_OTHER, 20, SEVERITY_LOW, -1, "low");
	DebugMessageInsert(SOURCE_APPLICATION, TYPE_OTHER, 21, SEVERITY_MEDIUM, -1, "medium");
	assert_gl_error(GL_NO_ERROR);
	check_ids((GLuint[]){ 21 }, 1);

	/* the longest message that may be inserted: MAX_DEBUG_MESSAGE_LENGTH - 1 characters */
	{
		GLint len = get_int(MAX_DEBUG_MESSAGE_LENGTH);
		char *big = malloc((size_t)len + 1);
		char *out = malloc((size_t)len + 1);
		GLsizei got = 0;

		assert_non_null(big);
		assert_non_null(out);
		memset(big, 'm', (size_t)len);
		big[len - 1] = '\0';
		DebugMessageInsert(SOURCE_APPLICATION, TYPE_OTHER, 22, SEVERITY_HIGH, -1, big);
		assert_gl_error(GL_NO_ERROR);
		assert_int_equal(get_int(DEBUG_NEXT_LOGGED_LENGTH), len);
		assert_int_equal(GetDebugMessageLog(1, len, NULL, NULL, NULL, NULL, &got, out), 1);
		assert_int_equal(got, len);
		assert_string_equal(out, big);
		free(big);
		free(out);
	}

	/* DEBUG_OUTPUT off: nothing is logged, the log keeps what it has */
	marker(30, "kept");
	glDisable(DEBUG_OUTPUT);
	DebugMessageInsert(SOURCE_APPLICATION, TYPE_MARKER, 31, SEVERITY_HIGH, -1, "dropped");
	glEnable(0x1234);
	assert_gl_error(GL_INVALID_ENUM);
	PushDebugGroup(SOURCE_APPLICATION, 32, -1, "silent");
	PopDebugGroup();
	assert_gl_error(GL_NO_ERROR);
	assert_int_equal(get_int(DEBUG_LOGGED_MESSAGES), 1);
	glEnable(DEBUG_OUTPUT);
	check_ids((GLuint[]){ 30 }, 1);

	/* each context its own log */
	marker(40, "mine");
	other = current_new(3, true, ctx);
	assert_int_equal(get_int(DEBUG_LOGGED_MESSAGES), 0);
	marker(41, "other's");
	destroy_current(other);
	assert_true(eglMakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, ctx));
	check_ids((GLuint[]){ 40 }, 1);

	/* a context without the debug flag has output too, once enabled */
	destroy_current(ctx);
	ctx = current_new(3, false, EGL_NO_CONTEXT);
	marker(50, "off");
	glEnable(DEBUG_OUTPUT);
	marker(51, "on");
	check_ids((GLuint[]){ 51 }, 1);
	destroy_current(ctx);
}

/* Section 5.5.2: the callback takes the messages the log would. */
static void test_callback(void **state)
{
	struct received r = { 0 };
	EGLContext ctx;
	void *p = NULL;

	(void)state;
	ctx = current_new(3, true, EGL_NO_CONTEXT);
	load_functions();
	marker(1, "before");
	DebugMessageCallback(record, &r);
	assert_gl_error(GL_NO_ERROR);
	GetPointerv(DEBUG_CALLBACK_FUNCTION, &p);
	assert_ptr_equal(p, (void *)(uintptr_t)record);
	GetPointerv(DEBUG_CALLBACK_USER_PARAM, &p);
	assert_ptr_equal(p, &r);

	/* a message with an explicit length arrives NUL-terminated, its length without the NUL */
	DebugMessageInsert(SOURCE_THIRD_PARTY, TYPE_PERFORMANCE, 7, SEVERITY_MEDIUM, 4, "abcdefg");
	assert_gl_error(GL_NO_ERROR);
	assert_int_equal(r.count, 1);
	assert_int_equal(r.source, SOURCE_THIRD_PARTY);
	assert_int_equal(r.type, TYPE_PERFORMANCE);
	assert_int_equal(r.id, 7);
	assert_int_equal(r.severity, SEVERITY_MEDIUM);
	assert_int_equal(r.length, 4);
	assert_true(r.terminated);
	assert_string_equal(r.text, "abcd");
	assert_ptr_equal(r.user, &r);
	/* nothing went to the log, which keeps its message */
	assert_int_equal(get_int(DEBUG_LOGGED_MESSAGES), 1);

	/* errors come as callbacks too, before the command returns */
	assert_null(glGetString(0x1234));
	assert_int_equal(r.count, 2);
	assert_int_equal(r.source, SOURCE_API);
	assert_int_equal(r.type, TYPE_ERROR);
	assert_int_equal(r.severity, SEVERITY_HIGH);
	assert_int_equal(r.id, GL_INVALID_ENUM);
	assert_string_equal(r.text, "GL_INVALID_ENUM in glGetString");
	assert_gl_error(GL_INVALID_ENUM);

	/* disabled messages and DEBUG_OUTPUT off call nothing */
	DebugMessageInsert(SOURCE_APPLICATION, TYPE_OTHER, 8, SEVERITY_LOW, -1, "low");
	glDisable(DEBUG_OUTPUT);
	marker(9, "off");
	glEnable(DEBUG_OUTPUT);
	assert_int_equal(r.count, 2);

	/* NULL: the log again */
	DebugMessageCallback(NULL, &r);
	GetPointerv(DEBUG_CALLBACK_FUNCTION, &p);
	assert_null(p);
	GetPointerv(DEBUG_CALLBACK_USER_PARAM, &p);
	assert_ptr_equal(p, &r);
	marker(10, "after");
	assert_int_equal(r.count, 2);
	check_ids((GLuint[]){ 1, 10 }, 2);
	destroy_current(ctx);
}

/* Section 5.5.4: what DebugMessageControl enables and disables. */
static void test_control(void **state)
{
	EGLContext ctx;
	const GLuint some[] = { 100, 300 };

	(void)state;
	ctx = current_new(3, true, EGL_NO_CONTEXT);
	load_functions();

	/* everything off, then one source, one type, one severity on */
	DebugMessageControl(GL_DONT_CARE, GL_DONT_CARE, GL_DONT_CARE, 0, NULL, GL_FALSE);
	marker(1, "off");
	glEnable(0x1234); /* an error's message too */
	assert_gl_error(GL_INVALID_ENUM);
	check_ids(NULL, 0);
	DebugMessageControl(SOURCE_THIRD_PARTY, GL_DONT_CARE, GL_DONT_CARE, 0, NULL, GL_TRUE);
	DebugMessageInsert(SOURCE_THIRD_PARTY, TYPE_OTHER, 2, SEVERITY_LOW, -1, "on");
	DebugMessageInsert(SOURCE_APPLICATION, TYPE_OTHER, 3, SEVERITY_HIGH, -1, "off");
	DebugMessageControl(GL_DONT_CARE, GL_DONT_CARE, GL_DONT_CARE, 0, NULL, GL_FALSE);
	DebugMessageControl(GL_DONT_CARE, TYPE_PERFORMANCE, GL_DONT_CARE, 0, NULL, GL_TRUE);
	DebugMessageInsert(SOURCE_APPLICATION, TYPE_PERFORMANCE, 4, SEVERITY_LOW, -1, "on");
	DebugMessageInsert(SOURCE_APPLICATION, TYPE_OTHER, 5, SEVERITY_LOW, -1, "off");
	DebugMessageControl(GL_DONT_CARE, GL_DONT_CARE, GL_DONT_CARE, 0, NULL, GL_FALSE);
	DebugMessageControl(GL_DONT_CARE, GL_DONT_CARE, SEVERITY_MEDIUM, 0, NULL, GL_TRUE);
	DebugMessageInsert(SOURCE_APPLICATION, TYPE_MARKER, 6, SEVERITY_MEDIUM, -1, "on");
	DebugMessageInsert(SOURCE_APPLICATION, TYPE_MARKER, 7, SEVERITY_HIGH, -1, "off");
	assert_gl_error(GL_NO_ERROR);
	check_ids((GLuint[]){ 2, 4, 6 }, 3);

	/* all on (LOW too), then IDs of one source and type off, at every severity */
	DebugMessageControl(GL_DONT_CARE, GL_DONT_CARE, GL_DONT_CARE, 0, NULL, GL_TRUE);
	DebugMessageControl(SOURCE_APPLICATION, TYPE_OTHER, GL_DONT_CARE, 2, some, GL_FALSE);
	assert_gl_error(GL_NO_ERROR);
	DebugMessageInsert(SOURCE_APPLICATION, TYPE_OTHER, 100, SEVERITY_HIGH, -1, "off");
	DebugMessageInsert(SOURCE_APPLICATION, TYPE_OTHER, 200, SEVERITY_LOW, -1, "on");
	DebugMessageInsert(SOURCE_APPLICATION, TYPE_OTHER, 300, SEVERITY_NOTIFICATION, -1, "off");
	DebugMessageInsert(SOURCE_APPLICATION, TYPE_MARKER, 100, SEVERITY_HIGH, -1, "on");
	DebugMessageInsert(SOURCE_THIRD_PARTY, TYPE_OTHER, 300, SEVERITY_HIGH, -1, "on");
	check_ids((GLuint[]){ 200, 100, 300 }, 3);

	/* a control naming no ID changes the named severities of every ID, the others stay */
	DebugMessageControl(SOURCE_APPLICATION, GL_DONT_CARE, SEVERITY_HIGH, 0, NULL, GL_TRUE);
	DebugMessageInsert(SOURCE_APPLICATION, TYPE_OTHER, 100, SEVERITY_HIGH, -1, "on");
	DebugMessageInsert(SOURCE_APPLICATION, TYPE_OTHER, 100, SEVERITY_MEDIUM, -1, "off");
	DebugMessageInsert(SOURCE_APPLICATION, TYPE_OTHER, 300, SEVERITY_HIGH, -1, "on");
	check_ids((GLuint[]){ 100, 300 }, 2);

	/* IDs on again, among others off */
	DebugMessageControl(GL_DONT_CARE, GL_DONT_CARE, GL_DONT_CARE, 0, NULL, GL_FALSE);
	DebugMessageControl(SOURCE_APPLICATION, TYPE_OTHER, GL_DONT_CARE, 1, &some[1], GL_TRUE);
	DebugMessageInsert(SOURCE_APPLICATION, TYPE_OTHER, 300, SEVERITY_LOW, -1, "on");
	DebugMessageInsert(SOURCE_APPLICATION, TYPE_OTHER, 100, SEVERITY_LOW, -1, "off");
	DebugMessageInsert(SOURCE_APPLICATION, TYPE_MARKER, 300, SEVERITY_LOW, -1, "off");
	check_ids((GLuint[]){ 300 }, 1);
	/* the IDs of the API's errors are the errors */
	DebugMessageControl(SOURCE_API, TYPE_ERROR, GL_DONT_CARE, 1,
			    (const GLuint[]){ GL_INVALID_VALUE }, GL_TRUE);
	glEnable(0x1234);
	glLineWidth(-1.0f);
	assert_gl_error(GL_INVALID_ENUM);
	check_ids((GLuint[]){ GL_INVALID_VALUE }, 1);

	/* the errors of section 5.5.4, and nothing changed by them */
	DebugMessageControl(GL_DONT_CARE, GL_DONT_CARE, GL_DONT_CARE, 0, NULL, GL_TRUE);
	DebugMessageControl(GL_DONT_CARE, GL_DONT_CARE, GL_DONT_CARE, -1, NULL, GL_FALSE);
	assert_gl_error(GL_INVALID_VALUE);
	DebugMessageControl(0x1234, GL_DONT_CARE, GL_DONT_CARE, 0, NULL, GL_FALSE);
	assert_gl_error(GL_INVALID_ENUM);
	DebugMessageControl(GL_DONT_CARE, SEVERITY_HIGH, GL_DONT_CARE, 0, NULL, GL_FALSE);
	assert_gl_error(GL_INVALID_ENUM);
	DebugMessageControl(GL_DONT_CARE, GL_DONT_CARE, TYPE_ERROR, 0, NULL, GL_FALSE);
	assert_gl_error(GL_INVALID_ENUM);
	DebugMessageControl(GL_DONT_CARE, TYPE_OTHER, GL_DONT_CARE, 1, some, GL_FALSE);
	assert_gl_error(GL_INVALID_OPERATION);
	DebugMessageControl(SOURCE_APPLICATION, GL_DONT_CARE, GL_DONT_CARE, 1, some, GL_FALSE);
	assert_gl_error(GL_INVALID_OPERATION);
	DebugMessageControl(SOURCE_APPLICATION, TYPE_OTHER, SEVERITY_HIGH, 1, some, GL_FALSE);
	assert_gl_error(GL_INVALID_OPERATION);
	/* each a message of its own (all on now) */
	{
		GLuint ids[16];

		assert_int_equal(logged_ids(ids, 16), 7);
		for (unsigned i = 0; i < 7; i++)
			assert_true(ids[i] == GL_INVALID_VALUE || ids[i] == GL_INVALID_ENUM ||
				    ids[i] == GL_INVALID_OPERATION);
	}
	marker(400, "still on");
	DebugMessageInsert(SOURCE_APPLICATION, TYPE_OTHER, 100, SEVERITY_LOW, -1, "on");
	check_ids((GLuint[]){ 400, 100 }, 2);
	destroy_current(ctx);
}

/* Section 5.5.6: debug groups. */
static void test_groups(void **state)
{
	EGLContext ctx;
	struct message m;
	GLint max;

	(void)state;
	ctx = current_new(3, true, EGL_NO_CONTEXT);
	load_functions();

	/* the push and pop messages: the group's source, id and message, NOTIFICATION */
	PushDebugGroup(SOURCE_THIRD_PARTY, 17, -1, "group one");
	assert_gl_error(GL_NO_ERROR);
	assert_int_equal(get_int(DEBUG_GROUP_STACK_DEPTH), 2);
	PushDebugGroup(SOURCE_APPLICATION, 18, 3, "twoXXX");
	assert_int_equal(get_int(DEBUG_GROUP_STACK_DEPTH), 3);
	PopDebugGroup();
	PopDebugGroup();
	assert_gl_error(GL_NO_ERROR);
	assert_int_equal(get_int(DEBUG_GROUP_STACK_DEPTH), 1);
	assert_true(fetch(&m));
	assert_int_equal(m.source, SOURCE_THIRD_PARTY);
	assert_int_equal(m.type, TYPE_PUSH_GROUP);
	assert_int_equal(m.id, 17);
	assert_int_equal(m.severity, SEVERITY_NOTIFICATION);
	assert_string_equal(m.text, "group one");
	assert_true(fetch(&m));
	assert_int_equal(m.type, TYPE_PUSH_GROUP);
	assert_string_equal(m.text, "two");
	assert_true(fetch(&m));
	assert_int_equal(m.source, SOURCE_APPLICATION);
	assert_int_equal(m.type, TYPE_POP_GROUP);
	assert_int_equal(m.id, 18);
	assert_int_equal(m.severity, SEVERITY_NOTIFICATION);
	assert_string_equal(m.text, "two");
	assert_true(fetch(&m));
	assert_int_equal(m.type, TYPE_POP_GROUP);
	assert_int_equal(m.id, 17);
	assert_string_equal(m.text, "group one");
	assert_false(fetch(&m));

	/* a group inherits its parent's controls; its own go with it */
	DebugMessageControl(SOURCE_APPLICATION, TYPE_OTHER, GL_DONT_CARE, 1, (const GLuint[]){ 5 },
			    GL_FALSE);
	PushDebugGroup(SOURCE_APPLICATION, 1, -1, "inner");
	DebugMessageInsert(SOURCE_APPLICATION, TYPE_OTHER, 5, SEVERITY_HIGH, -1, "off (inherited)");
	DebugMessageControl(GL_DONT_CARE, GL_DONT_CARE, GL_DONT_CARE, 0, NULL, GL_FALSE);
	DebugMessageControl(SOURCE_APPLICATION, TYPE_POP_GROUP, GL_DONT_CARE, 0, NULL, GL_TRUE);
	marker(2, "off (inner)");
	PushDebugGroup(SOURCE_APPLICATION, 3, -1, "innermost");
	DebugMessageControl(SOURCE_APPLICATION, TYPE_MARKER, GL_DONT_CARE, 0, NULL, GL_TRUE);
	marker(4, "on (innermost)");
	PopDebugGroup(); /* its message goes under the inner group's controls: on */
	marker(6, "off (inner again)");
	PopDebugGroup(); /* under the default group's: on */
	marker(7, "on (default)");
	DebugMessageInsert(SOURCE_APPLICATION, TYPE_OTHER, 5, SEVERITY_HIGH, -1, "still off");
	assert_gl_error(GL_NO_ERROR);
	check_ids((GLuint[]){ 1, 4, 3, 1, 7 }, 5);

	/* the stack holds MAX_DEBUG_GROUP_STACK_DEPTH groups, the default one among them */
	max = get_int(MAX_DEBUG_GROUP_STACK_DEPTH);
	PushDebugGroup(SOURCE_APPLICATION, 1000, -1, "quiet");
	DebugMessageControl(GL_DONT_CARE, GL_DONT_CARE, GL_DONT_CARE, 0, NULL, GL_FALSE);
	for (GLint i = 2; i < max; i++)
		PushDebugGroup(SOURCE_APPLICATION, (GLuint)i, -1, "deep");
	assert_gl_error(GL_NO_ERROR);
	assert_int_equal(get_int(DEBUG_GROUP_STACK_DEPTH), max);
	assert_int_equal(drain(), 1); /* "quiet"'s push */
	DebugMessageControl(GL_DONT_CARE, GL_DONT_CARE, GL_DONT_CARE, 0, NULL, GL_TRUE);
	PushDebugGroup(SOURCE_APPLICATION, 999, -1, "too deep");
	assert_gl_error(STACK_OVERFLOW);
	assert_int_equal(get_int(DEBUG_GROUP_STACK_DEPTH), max);
	/* the error is a message; the push made none */
	assert_true(fetch(&m));
	assert_int_equal(m.source, SOURCE_API);
	assert_int_equal(m.type, TYPE_ERROR);
	assert_int_equal(m.id, STACK_OVERFLOW);
	assert_non_null(strstr(m.text, "glPushDebugGroupKHR"));
	assert_false(fetch(&m));
	for (GLint i = 1; i < max; i++)
		PopDebugGroup();
	assert_gl_error(GL_NO_ERROR);
	assert_int_equal(get_int(DEBUG_GROUP_STACK_DEPTH), 1);
	/* popping all restored the default group's (all on but LOW): only the last pop is seen */
	check_ids((GLuint[]){ 1000 }, 1);
	DebugMessageInsert(SOURCE_APPLICATION, TYPE_OTHER, 8, SEVERITY_LOW, -1, "low: off");
	marker(9, "on");
	check_ids((GLuint[]){ 9 }, 1);

	/* the errors: underflow, a source of neither the application nor a third party, lengths */
	PopDebugGroup();
	assert_gl_error(STACK_UNDERFLOW);
	PushDebugGroup(SOURCE_API, 1, -1, "api");
	assert_gl_error(GL_INVALID_ENUM);
	PushDebugGroup(0x1234, 1, -1, "bad");
	assert_gl_error(GL_INVALID_ENUM);
	{
		GLint len = get_int(MAX_DEBUG_MESSAGE_LENGTH);
		char *big = malloc((size_t)len + 1);

		assert_non_null(big);
		memset(big, 'g', (size_t)len);
		big[len] = '\0';
		PushDebugGroup(SOURCE_APPLICATION, 1, -1, big);
		assert_gl_error(GL_INVALID_VALUE);
		PushDebugGroup(SOURCE_APPLICATION, 1, len, big);
		assert_gl_error(GL_INVALID_VALUE);
		PushDebugGroup(SOURCE_APPLICATION, 1, len - 1, big);
		assert_gl_error(GL_NO_ERROR);
		PopDebugGroup();
		free(big);
	}
	assert_int_equal(get_int(DEBUG_GROUP_STACK_DEPTH), 1);
	assert_int_equal(logged_ids((GLuint[16]){ 0 }, 16), 7);
	destroy_current(ctx);
}

/* Section 5.5.5's errors, and GL errors as messages (section 2.5). */
static void test_errors(void **state)
{
	EGLContext ctx;
	struct message m;
	GLint len;
	char *big;

	(void)state;
	ctx = current_new(3, true, EGL_NO_CONTEXT);
	load_functions();
	len = get_int(MAX_DEBUG_MESSAGE_LENGTH);

	/*
	 * every error generated is a message, also while an earlier one waits
	 * for glGetError; it names the entry point (gles_X: glX) that found
	 * it, or the driver's function that did for one
	 */
	assert_null(glGetString(0x1234));
	glLineWidth(0.0f);
	glBindBuffer(0x1234, 0);
	assert_gl_error(GL_INVALID_ENUM);
	assert_gl_error(GL_NO_ERROR);
	assert_true(fetch(&m));
	assert_int_equal(m.source, SOURCE_API);
	assert_int_equal(m.type, TYPE_ERROR);
	assert_int_equal(m.severity, SEVERITY_HIGH);
	assert_int_equal(m.id, GL_INVALID_ENUM);
	assert_string_equal(m.text, "GL_INVALID_ENUM in glGetString");
	assert_int_equal(m.length, (GLsizei)strlen(m.text) + 1);
	assert_true(fetch(&m));
	assert_int_equal(m.id, GL_INVALID_VALUE);
	assert_string_equal(m.text, "GL_INVALID_VALUE in glLineWidth");
	assert_true(fetch(&m));
	assert_int_equal(m.id, GL_INVALID_ENUM);
	assert_memory_equal(m.text, "GL_INVALID_ENUM in the driver's ",
			    strlen("GL_INVALID_ENUM in the driver's "));
	assert_false(fetch(&m));

	/* DebugMessageInsert's errors */
	DebugMessageInsert(SOURCE_API, TYPE_OTHER, 1, SEVERITY_HIGH, -1, "not the API's");
	assert_gl_error(GL_INVALID_ENUM);
	DebugMessageInsert(SOURCE_OTHER, TYPE_OTHER, 1, SEVERITY_HIGH, -1, "other");
	assert_gl_error(GL_INVALID_ENUM);
	DebugMessageInsert(SOURCE_WINDOW_SYSTEM, TYPE_OTHER, 1, SEVERITY_HIGH, -1, "egl");
	assert_gl_error(GL_INVALID_ENUM);
	DebugMessageInsert(SOURCE_SHADER_COMPILER, TYPE_OTHER, 1, SEVERITY_HIGH, -1, "glsl");
	assert_gl_error(GL_INVALID_ENUM);
	DebugMessageInsert(SOURCE_APPLICATION, 0x1234, 1, SEVERITY_HIGH, -1, "type");
	assert_gl_error(GL_INVALID_ENUM);
	DebugMessageInsert(SOURCE_APPLICATION, GL_DONT_CARE, 1, SEVERITY_HIGH, -1, "type");
	assert_gl_error(GL_INVALID_ENUM);
	DebugMessageInsert(SOURCE_APPLICATION, TYPE_OTHER, 1, GL_DONT_CARE, -1, "severity");
	assert_gl_error(GL_INVALID_ENUM);
	DebugMessageInsert(SOURCE_APPLICATION, TYPE_OTHER, 1, 0x1234, -1, "severity");
	assert_gl_error(GL_INVALID_ENUM);
	big = malloc((size_t)len + 1);
	assert_non_null(big);
	memset(big, 'i', (size_t)len);
	big[len] = '\0';
	DebugMessageInsert(SOURCE_APPLICATION, TYPE_OTHER, 1, SEVERITY_HIGH, -1, big);
	assert_gl_error(GL_INVALID_VALUE);
	DebugMessageInsert(SOURCE_APPLICATION, TYPE_OTHER, 1, SEVERITY_HIGH, len, big);
	assert_gl_error(GL_INVALID_VALUE);
	free(big);
	/* each of those a message, and no message inserted */
	{
		GLenum sources[16], types[16];
		GLuint n = GetDebugMessageLog(16, 0, sources, types, NULL, NULL, NULL, NULL);

		assert_int_equal(n, 10);
		for (GLuint i = 0; i < n; i++) {
			assert_int_equal(sources[i], SOURCE_API);
			assert_int_equal(types[i], TYPE_ERROR);
		}
	}
	/* with DEBUG_OUTPUT off, a DebugMessageInsert call is discarded, with no error */
	glDisable(DEBUG_OUTPUT);
	DebugMessageInsert(SOURCE_API, TYPE_OTHER, 1, SEVERITY_HIGH, -1, "discarded");
	assert_gl_error(GL_NO_ERROR);
	glEnable(DEBUG_OUTPUT);

	/* GetDebugMessageLog: a negative bufSize with a log to fill */
	marker(1, "stays");
	assert_int_equal(GetDebugMessageLog(1, -1, NULL, NULL, NULL, NULL, NULL, (GLchar[4]){ 0 }),
			 0);
	assert_gl_error(GL_INVALID_VALUE);
	assert_int_equal(get_int(DEBUG_LOGGED_MESSAGES), 2);
	assert_int_equal(GetDebugMessageLog(8, -1, NULL, NULL, NULL, NULL, NULL, NULL), 2);
	assert_gl_error(GL_NO_ERROR);

	/* errors with the error messages off are recorded all the same */
	DebugMessageControl(SOURCE_API, GL_DONT_CARE, GL_DONT_CARE, 0, NULL, GL_FALSE);
	glEnable(0x1234);
	assert_gl_error(GL_INVALID_ENUM);
	assert_int_equal(get_int(DEBUG_LOGGED_MESSAGES), 0);
	destroy_current(ctx);
}

/* A label round trip of an object: set, read back, truncated, removed. */
static void check_label(GLenum identifier, GLuint name)
{
	char buf[32];
	GLsizei len = -1;

	ObjectLabel(identifier, name, -1, "a label");
	assert_gl_error(GL_NO_ERROR);
	memset(buf, 'x', sizeof(buf));
	GetObjectLabel(identifier, name, sizeof(buf), &len, buf);
	assert_gl_error(GL_NO_ERROR);
	assert_int_equal(len, 7);
	assert_string_equal(buf, "a label");
	ObjectLabel(identifier, name, 3, "xyzzy"); /* length characters */
	GetObjectLabel(identifier, name, sizeof(buf), &len, buf);
	assert_int_equal(len, 3);
	assert_string_equal(buf, "xyz");
	ObjectLabel(identifier, name, -1, NULL); /* NULL removes it */
	GetObjectLabel(identifier, name, sizeof(buf), &len, buf);
	assert_gl_error(GL_NO_ERROR);
	assert_int_equal(len, 0);
	assert_string_equal(buf, "");
	/* 0 is no object of any kind */
	ObjectLabel(identifier, 0, -1, "zero");
	assert_gl_error(GL_INVALID_VALUE);
	GetObjectLabel(identifier, 0, sizeof(buf), &len, buf);
	assert_gl_error(GL_INVALID_VALUE);
	/* the label goes with the object; the caller deletes it */
	ObjectLabel(identifier, name, -1, "freed with it");
	assert_gl_error(GL_NO_ERROR);
}

/* After the delete: the name is none. */
static void check_no_object(GLenum identifier, GLuint name)
{
	char buf[8];

	ObjectLabel(identifier, name, -1, "gone");
	assert_gl_error(GL_INVALID_VALUE);
	GetObjectLabel(identifier, name, sizeof(buf), NULL, buf);
	assert_gl_error(GL_INVALID_VALUE);
}

/* Section 5.5.8: labels on each object type of table 5.1 that ES 3.0 has. */
static void test_object_labels(void **state)
{
	static const char vs[] = "#version 300 es\nvoid main() { gl_Position = vec4(0.0); }\n";
	const char *src = vs;
	EGLContext ctx;
	GLuint buffer, texture, sampler, renderbuffer, framebuffer, vao, query, xfb;
	GLuint shader, program;

	(void)state;
	ctx = current_new(3, false, EGL_NO_CONTEXT);
	load_functions();

	/* a name from glGen* names an object once bound (sampler: once made by glGenSamplers) */
	glGenBuffers(1, &buffer);
	check_no_object(ID_BUFFER, buffer);
	glBindBuffer(GL_ARRAY_BUFFER, buffer);
	check_label(ID_BUFFER, buffer);
	glDeleteBuffers(1, &buffer);
	check_no_object(ID_BUFFER, buffer);

	glGenTextures(1, &texture);
	check_no_object(GL_TEXTURE, texture);
	glBindTexture(GL_TEXTURE_2D, texture);
	check_label(GL_TEXTURE, texture);
	glDeleteTextures(1, &texture);
	check_no_object(GL_TEXTURE, texture);

	glGenSamplers(1, &sampler);
	check_label(ID_SAMPLER, sampler);
	glDeleteSamplers(1, &sampler);
	check_no_object(ID_SAMPLER, sampler);

	glGenRenderbuffers(1, &renderbuffer);
	check_no_object(GL_RENDERBUFFER, renderbuffer);
	glBindRenderbuffer(GL_RENDERBUFFER, renderbuffer);
	check_label(GL_RENDERBUFFER, renderbuffer);
	glDeleteRenderbuffers(1, &renderbuffer);
	check_no_object(GL_RENDERBUFFER, renderbuffer);

	glGenFramebuffers(1, &framebuffer);
	check_no_object(GL_FRAMEBUFFER, framebuffer);
	glBindFramebuffer(GL_FRAMEBUFFER, framebuffer);
	check_label(GL_FRAMEBUFFER, framebuffer);
	glDeleteFramebuffers(1, &framebuffer);
	check_no_object(GL_FRAMEBUFFER, framebuffer);

	glGenVertexArrays(1, &vao);
	check_no_object(ID_VERTEX_ARRAY, vao);
	glBindVertexArray(vao);
	check_label(ID_VERTEX_ARRAY, vao);
	glDeleteVertexArrays(1, &vao);
	check_no_object(ID_VERTEX_ARRAY, vao);

	glGenQueries(1, &query);
	check_no_object(ID_QUERY, query);
	glBeginQuery(GL_ANY_SAMPLES_PASSED, query);
	glEndQuery(GL_ANY_SAMPLES_PASSED);
	assert_gl_error(GL_NO_ERROR);
	check_label(ID_QUERY, query);
	glDeleteQueries(1, &query);
	check_no_object(ID_QUERY, query);

	glGenTransformFeedbacks(1, &xfb);
	check_no_object(GL_TRANSFORM_FEEDBACK, xfb);
	glBindTransformFeedback(GL_TRANSFORM_FEEDBACK, xfb);
	check_label(GL_TRANSFORM_FEEDBACK, xfb);
	glBindTransformFeedback(GL_TRANSFORM_FEEDBACK, 0);
	glDeleteTransformFeedbacks(1, &xfb);
	check_no_object(GL_TRANSFORM_FEEDBACK, xfb);

	/* shaders and programs: one namespace, each name of one kind */
	shader = glCreateShader(GL_VERTEX_SHADER);
	program = glCreateProgram();
	check_label(ID_SHADER, shader);
	check_label(ID_PROGRAM, program);
	check_no_object(ID_PROGRAM, shader);
	check_no_object(ID_SHADER, program);
	/* a shader deleted while attached is still there, label and all */
	glShaderSource(shader, 1, &src, NULL);
	glAttachShader(program, shader);
	glDeleteShader(shader);
	{
		char buf[32];

		GetObjectLabel(ID_SHADER, shader, sizeof(buf), NULL, buf);
		assert_gl_error(GL_NO_ERROR);
		assert_string_equal(buf, "freed with it");
	}
	glDeleteProgram(program); /* and the shader with it */
	check_no_object(ID_PROGRAM, program);
	check_no_object(ID_SHADER, shader);

	/* labels of objects left when the context goes are freed with them */
	glGenBuffers(1, &buffer);
	glBindBuffer(GL_ARRAY_BUFFER, buffer);
	ObjectLabel(ID_BUFFER, buffer, -1, "left behind");
	glGenVertexArrays(1, &vao);
	glBindVertexArray(vao);
	ObjectLabel(ID_VERTEX_ARRAY, vao, -1, "left behind");
	glGenQueries(1, &query);
	glBeginQuery(GL_ANY_SAMPLES_PASSED, query);
	glEndQuery(GL_ANY_SAMPLES_PASSED);
	ObjectLabel(ID_QUERY, query, -1, "left behind");
	glGenTransformFeedbacks(1, &xfb);
	glBindTransformFeedback(GL_TRANSFORM_FEEDBACK, xfb);
	ObjectLabel(GL_TRANSFORM_FEEDBACK, xfb, -1, "left behind");
	program = glCreateProgram();
	ObjectLabel(ID_PROGRAM, program, -1, "left behind");
	assert_gl_error(GL_NO_ERROR);
	destroy_current(ctx);
}

/* Labels' lengths, the queries' rules, the identifiers, sharing, sync objects. */
static void test_label_rules(void **state)
{
	EGLContext ctx, other;
	GLuint buffer, vao;
	GLint max;
	GLsizei len;
	char buf[16], *big;
	GLsync sync;

	(void)state;
	ctx = current_new(3, false, EGL_NO_CONTEXT);
	load_functions();
	max = get_int(MAX_LABEL_LENGTH);
	glGenBuffers(1, &buffer);
	glBindBuffer(GL_ARRAY_BUFFER, buffer);

	/* MAX_LABEL_LENGTH - 1 characters fit, MAX_LABEL_LENGTH do not (and change nothing) */
	big = malloc((size_t)max + 1);
	assert_non_null(big);
	memset(big, 'l', (size_t)max);
	big[max] = '\0';
	ObjectLabel(ID_BUFFER, buffer, -1, "kept");
	ObjectLabel(ID_BUFFER, buffer, -1, big);
	assert_gl_error(GL_INVALID_VALUE);
	ObjectLabel(ID_BUFFER, buffer, max, big);
	assert_gl_error(GL_INVALID_VALUE);
	GetObjectLabel(ID_BUFFER, buffer, sizeof(buf), &len, buf);
	assert_string_equal(buf, "kept");
	ObjectLabel(ID_BUFFER, buffer, max - 1, big);
	assert_gl_error(GL_NO_ERROR);
	GetObjectLabel(ID_BUFFER, buffer, 0, &len, NULL); /* NULL label: the whole length */
	assert_int_equal(len, max - 1);
	big[max - 1] = '\0';
	ObjectLabel(ID_BUFFER, buffer, -1, big);
	assert_gl_error(GL_NO_ERROR);
	free(big);

	/* GetObjectLabel: bufSize - 1 characters and the NUL; NULL length; bufSize 0 */
	ObjectLabel(ID_BUFFER, buffer, -1, "Test Label");
	GetObjectLabel(ID_BUFFER, buffer, 5, &len, buf);
	assert_int_equal(len, 4);
	assert_string_equal(buf, "Test");
	memset(buf, 'x', sizeof(buf));
	GetObjectLabel(ID_BUFFER, buffer, sizeof(buf), NULL, buf);
	assert_string_equal(buf, "Test Label");
	memset(buf, 'x', sizeof(buf));
	len = -1;
	GetObjectLabel(ID_BUFFER, buffer, 0, &len, buf);
	assert_int_equal(len, 0);
	assert_int_equal(buf[0], 'x');
	GetObjectLabel(ID_BUFFER, buffer, 16, &len, NULL);
	assert_int_equal(len, 10);
	assert_gl_error(GL_NO_ERROR);
	GetObjectLabel(ID_BUFFER, buffer, -1, &len, buf);
	assert_gl_error(GL_INVALID_VALUE);
	ObjectLabel(ID_BUFFER, buffer, 0, "empty"); /* the empty label is no label */
	GetObjectLabel(ID_BUFFER, buffer, sizeof(buf), &len, buf);
	assert_int_equal(len, 0);
	assert_string_equal(buf, "");

	/* identifiers: table 5.1 only, and of it not PROGRAM_PIPELINE (no such objects in ES 3.0)
	 */
	ObjectLabel(GL_ARRAY_BUFFER, buffer, -1, "x");
	assert_gl_error(GL_INVALID_ENUM);
	GetObjectLabel(GL_ARRAY_BUFFER, buffer, sizeof(buf), &len, buf);
	assert_gl_error(GL_INVALID_ENUM);
	ObjectLabel(ID_PROGRAM_PIPELINE, 1, -1, "x");
	assert_gl_error(GL_INVALID_ENUM);
	GetObjectLabel(ID_PROGRAM_PIPELINE, 1, sizeof(buf), &len, buf);
	assert_gl_error(GL_INVALID_ENUM);
	ObjectLabel(ID_DISPLAY_LIST, 1, -1, "x");
	assert_gl_error(GL_INVALID_ENUM);
	ObjectLabel(GL_SYNC_FENCE, 1, -1, "x");
	assert_gl_error(GL_INVALID_ENUM);
	/* a name of another kind of object */
	glGenVertexArrays(1, &vao);
	glBindVertexArray(vao);
	ObjectLabel(ID_BUFFER, vao == buffer ? vao + 1 : vao, -1, "x");
	assert_gl_error(GL_INVALID_VALUE);

	/* shared objects' labels are the share group's; vertex arrays are each context's */
	ObjectLabel(ID_BUFFER, buffer, -1, "shared");
	ObjectLabel(ID_VERTEX_ARRAY, vao, -1, "own");
	other = current_new(3, false, ctx);
	GetObjectLabel(ID_BUFFER, buffer, sizeof(buf), &len, buf);
	assert_gl_error(GL_NO_ERROR);
	assert_string_equal(buf, "shared");
	ObjectLabel(ID_BUFFER, buffer, -1, "changed");
	GetObjectLabel(ID_VERTEX_ARRAY, vao, sizeof(buf), &len, buf);
	assert_gl_error(GL_INVALID_VALUE);
	destroy_current(other);
	assert_true(eglMakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, ctx));
	GetObjectLabel(ID_BUFFER, buffer, sizeof(buf), &len, buf);
	assert_string_equal(buf, "changed");
	GetObjectLabel(ID_VERTEX_ARRAY, vao, sizeof(buf), &len, buf);
	assert_string_equal(buf, "own");

	/* sync objects, by pointer */
	sync = glFenceSync(GL_SYNC_GPU_COMMANDS_COMPLETE, 0);
	assert_non_null(sync);
	len = -1;
	GetObjectPtrLabel(sync, sizeof(buf), &len, buf);
	assert_gl_error(GL_NO_ERROR);
	assert_int_equal(len, 0);
	assert_string_equal(buf, "");
	ObjectPtrLabel(sync, -1, "fence");
	GetObjectPtrLabel(sync, sizeof(buf), &len, buf);
	assert_gl_error(GL_NO_ERROR);
	assert_int_equal(len, 5);
	assert_string_equal(buf, "fence");
	GetObjectPtrLabel(sync, 3, &len, buf);
	assert_int_equal(len, 2);
	assert_string_equal(buf, "fe");
	GetObjectPtrLabel(sync, 0, &len, NULL);
	assert_int_equal(len, 5);
	GetObjectPtrLabel(sync, -1, &len, buf);
	assert_gl_error(GL_INVALID_VALUE);
	ObjectPtrLabel(sync, 2, "fence");
	GetObjectPtrLabel(sync, sizeof(buf), &len, buf);
	assert_string_equal(buf, "fe");
	big = malloc((size_t)max + 1);
	assert_non_null(big);
	memset(big, 's', (size_t)max);
	big[max] = '\0';
	ObjectPtrLabel(sync, -1, big);
	assert_gl_error(GL_INVALID_VALUE);
	free(big);
	ObjectPtrLabel(sync, -1, NULL);
	GetObjectPtrLabel(sync, sizeof(buf), &len, buf);
	assert_int_equal(len, 0);
	/* the other context of the group sees the sync and its label */
	ObjectPtrLabel(sync, -1, "fence");
	other = current_new(3, false, ctx);
	GetObjectPtrLabel(sync, sizeof(buf), &len, buf);
	assert_gl_error(GL_NO_ERROR);
	assert_string_equal(buf, "fence");
	destroy_current(other);
	assert_true(eglMakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, ctx));
	/* not a sync: NULL, a bogus handle, a deleted one */
	ObjectPtrLabel(NULL, -1, "x");
	assert_gl_error(GL_INVALID_VALUE);
	GetObjectPtrLabel(NULL, sizeof(buf), &len, buf);
	assert_gl_error(GL_INVALID_VALUE);
	ObjectPtrLabel((const void *)(uintptr_t)0x7fff1234u, -1, "x");
	assert_gl_error(GL_INVALID_VALUE);
	glDeleteSync(sync);
	ObjectPtrLabel(sync, -1, "x");
	assert_gl_error(GL_INVALID_VALUE);
	GetObjectPtrLabel(sync, sizeof(buf), &len, buf);
	assert_gl_error(GL_INVALID_VALUE);
	/* a sync left with its label when the share group goes */
	sync = glFenceSync(GL_SYNC_GPU_COMMANDS_COMPLETE, 0);
	ObjectPtrLabel(sync, -1, "left behind");
	assert_gl_error(GL_NO_ERROR);
	destroy_current(ctx);
}

/* ---- setup ------------------------------------------------------------------------------ */

static struct egl_stack fixture;

static int setup(void **state)
{
	(void)state;
	if (egl_stack_setup(&fixture, &options, 1) < 0)
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
		cmocka_unit_test(test_state),	      cmocka_unit_test(test_log),
		cmocka_unit_test(test_callback),      cmocka_unit_test(test_control),
		cmocka_unit_test(test_groups),	      cmocka_unit_test(test_errors),
		cmocka_unit_test(test_object_labels), cmocka_unit_test(test_label_rules),
	};

	if (!getenv("__EGL_VENDOR_LIBRARY_FILENAMES")) {
		fprintf(stderr, "%s: __EGL_VENDOR_LIBRARY_FILENAMES names no vendor file\n",
			argv[0]);
		return 2;
	}
	return test_stack_run(argc, argv, &options, tests, sizeof(tests) / sizeof(tests[0]), setup,
			      teardown);
}
