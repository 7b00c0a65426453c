/*
 * debug.c: GL_KHR_debug (debug.h; the Khronos extension text, revision
 * 17, "the spec" below) -- each context's debug output, its entry points
 * (glDebugMessageControlKHR ... glGetPointervKHR), GL errors as messages,
 * and object labels.
 *
 * Messages are always synchronous: each goes to the callback, or into the
 * log, before the command that made it returns, in the thread it runs in
 * (section 5.5.7 allows that with DEBUG_OUTPUT_SYNCHRONOUS off too, so
 * that state is only kept).  A context without the debug flag gets the
 * same output once DEBUG_OUTPUT is enabled (section 5.5 leaves how much
 * to the implementation).
 *
 * Message control.  Section 5.5.4 keeps an enabled state for every message
 * -- a source, a type, an ID, and the severity it comes with.  Each debug
 * group holds it as, for every source and type, the severities enabled for
 * IDs that have no state of their own, and a sorted list of the IDs that
 * do (each with its own severities): a control naming IDs gives those IDs
 * all severities on or off, one naming no ID changes the severities it
 * names for every ID of the sources and types it names.  An ID whose
 * state has become the same as the rest of its source and type leaves the
 * list.  A pushed group starts with a copy of its parent's state; popping
 * it drops it (section 5.5.6).
 *
 * Labels live in the objects (a `label` string in each struct, NULL for
 * none, freed with the object); this file finds an object by identifier
 * and name under the lock that guards its namespace.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "context.h"
#include "debug.h"
#include "get.h"
#include "gl_functions.h"
#include "objects.h"
#include "program.h"
#include "state.h"
#include "sync.h"
#include "xfb.h"

/* ---- the tables' tokens as indices ------------------------------------------------------ */

enum { NUM_SOURCES = 6, NUM_TYPES = 9, NUM_SEVERITIES = 4 };

/* Severities as bits of a mask (index order: HIGH, MEDIUM, LOW, NOTIFICATION). */
#define SEVERITY_LOW_BIT (1u << 2)
#define ALL_SEVERITIES	 ((1u << NUM_SEVERITIES) - 1)
/* Section 5.5.1: "All messages are initially enabled unless their assigned severity is LOW" */
#define DEFAULT_SEVERITIES (ALL_SEVERITIES & ~SEVERITY_LOW_BIT)

/* Table 5.3's source, -1 if source is none of them. */
static int source_index(GLenum source)
{
	if (source >= GL_DEBUG_SOURCE_API_KHR && source <= GL_DEBUG_SOURCE_OTHER_KHR)
		return (int)(source - GL_DEBUG_SOURCE_API_KHR);
	return -1;
}

/* Table 5.4's type, -1 if none. */
static int type_index(GLenum type)
{
	if (type >= GL_DEBUG_TYPE_ERROR_KHR && type <= GL_DEBUG_TYPE_OTHER_KHR)
		return (int)(type - GL_DEBUG_TYPE_ERROR_KHR);
	if (type >= GL_DEBUG_TYPE_MARKER_KHR && type <= GL_DEBUG_TYPE_POP_GROUP_KHR)
		return 6 + (int)(type - GL_DEBUG_TYPE_MARKER_KHR);
	return -1;
}

/* Table 5.5's severity, -1 if none. */
static int severity_index(GLenum severity)
{
	if (severity >= GL_DEBUG_SEVERITY_HIGH_KHR && severity <= GL_DEBUG_SEVERITY_LOW_KHR)
		return (int)(severity - GL_DEBUG_SEVERITY_HIGH_KHR);
	if (severity == GL_DEBUG_SEVERITY_NOTIFICATION_KHR)
		return 3;
	return -1;
}

/* ---- the controls of one debug group ---------------------------------------------------- */

struct id_control {
	GLuint id;
	uint8_t severities; /* the severities enabled for this ID */
};

struct id_controls {
	struct id_control *v; /* sorted by id */
	unsigned count, capacity;
};

struct control {
	/* [source][type]: the severities enabled for IDs not in ids[source][type] */
	uint8_t severities[NUM_SOURCES][NUM_TYPES];
	struct id_controls ids[NUM_SOURCES][NUM_TYPES];
};

static void control_init(struct control *c)
{
	memset(c, 0, sizeof(*c));
	memset(c->severities, DEFAULT_SEVERITIES, sizeof(c->severities));
}

static void control_finish(struct control *c)
{
	for (unsigned s = 0; s < NUM_SOURCES; s++)
		for (unsigned t = 0; t < NUM_TYPES; t++)
			free(c->ids[s][t].v);
}

/* dst (uninitialized) as a copy of src: 0 or -ENOMEM (dst then holds nothing to free). */
static int control_copy(struct control *dst, const struct control *src)
{
	memcpy(dst->severities, src->severities, sizeof(dst->severities));
	memset(dst->ids, 0, sizeof(dst->ids));
	for (unsigned s = 0; s < NUM_SOURCES; s++) {
		for (unsigned t = 0; t < NUM_TYPES; t++) {
			const struct id_controls *from = &src->ids[s][t];
			struct id_controls *to = &dst->ids[s][t];

			if (!from->count)
				continue;
			to->v = malloc(from->count * sizeof(*to->v));
			if (!to->v) {
				control_finish(dst);
				return -ENOMEM;
			}
			memcpy(to->v, from->v, from->count * sizeof(*to->v));
			to->count = to->capacity = from->count;
		}
	}
	return 0;
}

/* Where id is in l, or where it would go: true when it is there. */
static bool find_id(const struct id_controls *l, GLuint id, unsigned *at)
{
	unsigned lo = 0, hi = l->count;

	while (lo < hi) {
		unsigned mid = lo + (hi - lo) / 2;

		if (l->v[mid].id < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	*at = lo;
	return lo < l->count && l->v[lo].id == id;
}

static bool control_enabled(const struct control *c, unsigned s, unsigned t, GLuint id,
			    unsigned severity_bit)
{
	const struct id_controls *l = &c->ids[s][t];
	unsigned at;

	if (l->count && find_id(l, id, &at))
		return l->v[at].severities & severity_bit;
	return c->severities[s][t] & severity_bit;
}

/* IDs of source s and type t get all severities on or off: 0 or -ENOMEM. */
static int control_set_ids(struct control *c, unsigned s, unsigned t, GLsizei count,
			   const GLuint *ids, bool enabled)
{
	struct id_controls *l = &c->ids[s][t];
	uint8_t severities = enabled ? ALL_SEVERITIES : 0;

	for (GLsizei i = 0; i < count; i++) {
		unsigned at;

		if (find_id(l, ids[i], &at)) {
			l->v[at].severities = severities;
		} else {
			if (l->count == l->capacity) {
				unsigned n = l->capacity ? 2 * l->capacity : 8;
				struct id_control *v = realloc(l->v, n * sizeof(*v));

				if (!v)
					return -ENOMEM;
				l->v = v;
				l->capacity = n;
			}
			memmove(&l->v[at + 1], &l->v[at], (l->count - at) * sizeof(*l->v));
			l->v[at] = (struct id_control){ .id = ids[i], .severities = severities };
			l->count++;
		}
	}
	return 0;
}

/*
 * Every ID of the sources and types named (-1: all) gets the severities
 * in mask on or off; IDs that then agree with the rest leave their lists.
 */
static void control_set(struct control *c, int source, int type, unsigned mask, bool enabled)
{
	for (unsigned s = 0; s < NUM_SOURCES; s++) {
		if (source >= 0 && (unsigned)source != s)
			continue;
		for (unsigned t = 0; t < NUM_TYPES; t++) {
			struct id_controls *l = &c->ids[s][t];
			unsigned kept = 0;

			if (type >= 0 && (unsigned)type != t)
				continue;
			c->severities[s][t] =
			    enabled ? (c->severities[s][t] | mask) : (c->severities[s][t] & ~mask);
			for (unsigned i = 0; i < l->count; i++) {
				struct id_control e = l->v[i];

				e.severities =
				    enabled ? (e.severities | mask) : (e.severities & ~mask);
				if (e.severities != c->severities[s][t])
					l->v[kept++] = e;
			}
			l->count = kept;
		}
	}
}

/* ---- the context's state ---------------------------------------------------------------- */

struct group {
	/* PushDebugGroup's source, id and message (the pop repeats them); unused for the default */
	GLenum source;
	GLuint id;
	char *message;
	GLsizei length;
	struct control control;
};

struct logged {
	GLenum source, type, severity;
	GLuint id;
	GLsizei length; /* without the NUL */
	char *text;
};

struct gles_debug {
	bool synchronous; /* DEBUG_OUTPUT_SYNCHRONOUS: kept (output is always synchronous) */
	GLDEBUGPROCKHR callback;
	const void *user_param;
	/* the log: a ring of log_count messages from log_first, the oldest */
	struct logged log[GLES_MAX_DEBUG_LOGGED_MESSAGES];
	unsigned log_first, log_count;
	/* the stack: groups[0] the default group, groups[depth - 1] the active one */
	struct group *groups[GLES_MAX_DEBUG_GROUP_STACK_DEPTH];
	unsigned depth;
};

int gles_debug_init(struct gles_context *ctx)
{
	struct gles_debug *d = calloc(1, sizeof(*d));

	if (!d)
		return -ENOMEM;
	d->groups[0] = calloc(1, sizeof(*d->groups[0]));
	if (!d->groups[0]) {
		free(d);
		return -ENOMEM;
	}
	control_init(&d->groups[0]->control);
	d->depth = 1;
	ctx->debug_state = d;
	/* section 5.5: TRUE initially in a context with the debug flag, else FALSE */
	ctx->debug_output = ctx->debug;
	return 0;
}

static void group_destroy(struct group *g)
{
	control_finish(&g->control);
	free(g->message);
	free(g);
}

void gles_debug_finish(struct gles_context *ctx)
{
	struct gles_debug *d = ctx->debug_state;

	ctx->debug_output = false;
	if (!d)
		return;
	for (unsigned i = 0; i < d->depth; i++)
		group_destroy(d->groups[i]);
	for (unsigned i = 0; i < d->log_count; i++)
		free(d->log[(d->log_first + i) % GLES_MAX_DEBUG_LOGGED_MESSAGES].text);
	free(d);
	ctx->debug_state = NULL;
}

static struct group *active_group(struct gles_debug *d)
{
	return d->groups[d->depth - 1];
}

/* ---- messages --------------------------------------------------------------------------- */

/* Whether a message would go anywhere: output on, enabled, and a callback or room in the log. */
static bool wanted(struct gles_context *ctx, int s, int t, GLuint id, int v)
{
	struct gles_debug *d = ctx->debug_state;

	if (!ctx->debug_output || !d || s < 0 || t < 0 || v < 0)
		return false;
	if (!control_enabled(&active_group(d)->control, (unsigned)s, (unsigned)t, id, 1u << v))
		return false;
	/* section 5.5.3: a full log takes no more messages until it is read */
	return d->callback || d->log_count < GLES_MAX_DEBUG_LOGGED_MESSAGES;
}

/* A message that is wanted: to the callback (section 5.5.2), or the log (5.5.3). */
static void deliver(struct gles_debug *d, GLenum source, GLenum type, GLuint id, GLenum severity,
		    GLsizei length, const char *text)
{
	struct logged *m;
	char *copy;

	if (length < 0)
		length = 0;
	if (length > GLES_MAX_DEBUG_MESSAGE_LENGTH - 1)
		length = GLES_MAX_DEBUG_MESSAGE_LENGTH - 1;
	if (d->callback) {
		/* the callback gets a NUL-terminated string, which an inserted buf need not be */
		char buf[GLES_MAX_DEBUG_MESSAGE_LENGTH];

		memcpy(buf, text, (size_t)length);
		buf[length] = '\0';
		d->callback(source, type, id, severity, length, buf, d->user_param);
		return;
	}
	copy = malloc((size_t)length + 1);
	if (!copy)
		return; /* the message is lost, as one past a full log is */
	memcpy(copy, text, (size_t)length);
	copy[length] = '\0';
	m = &d->log[(d->log_first + d->log_count) % GLES_MAX_DEBUG_LOGGED_MESSAGES];
	*m = (struct logged){ .source = source,
			      .type = type,
			      .severity = severity,
			      .id = id,
			      .length = length,
			      .text = copy };
	d->log_count++;
}

void gles_debug_message(struct gles_context *ctx, GLenum source, GLenum type, GLuint id,
			GLenum severity, GLsizei length, const char *text)
{
	if (wanted(ctx, source_index(source), type_index(type), id, severity_index(severity)))
		deliver(ctx->debug_state, source, type, id, severity, length, text ? text : "");
}

static const char *error_name(GLenum err)
{
	switch (err) {
	case GL_INVALID_ENUM:
		return "GL_INVALID_ENUM";
	case GL_INVALID_VALUE:
		return "GL_INVALID_VALUE";
	case GL_INVALID_OPERATION:
		return "GL_INVALID_OPERATION";
	case GL_INVALID_FRAMEBUFFER_OPERATION:
		return "GL_INVALID_FRAMEBUFFER_OPERATION";
	case GL_OUT_OF_MEMORY:
		return "GL_OUT_OF_MEMORY";
	case GL_STACK_OVERFLOW_KHR:
		return "GL_STACK_OVERFLOW";
	case GL_STACK_UNDERFLOW_KHR:
		return "GL_STACK_UNDERFLOW";
	default:
		return NULL;
	}
}

/*
 * "GL_INVALID_ENUM in glEnable": an entry point gles_X is named as the GL
 * function glX; a helper that found the error for one by its own name.
 */
void gles_debug_error(struct gles_context *ctx, GLenum err, const char *where)
{
	const GLenum source = GL_DEBUG_SOURCE_API_KHR, type = GL_DEBUG_TYPE_ERROR_KHR;
	const GLenum severity = GL_DEBUG_SEVERITY_HIGH_KHR;
	const char *name = error_name(err);
	char text[192], code[16];
	int n;

	if (!wanted(ctx, source_index(source), type_index(type), err, severity_index(severity)))
		return;
	if (!name) {
		snprintf(code, sizeof(code), "0x%04x", err);
		name = code;
	}
	if (!where)
		n = snprintf(text, sizeof(text), "%s", name);
	else if (strncmp(where, "gles_", 5) == 0)
		n = snprintf(text, sizeof(text), "%s in gl%s", name, where + 5);
	else
		n = snprintf(text, sizeof(text), "%s in the driver's %s()", name, where);
	if (n < 0)
		return;
	if (n >= (int)sizeof(text))
		n = (int)sizeof(text) - 1;
	deliver(ctx->debug_state, source, type, err, severity, n, text);
}

/* ---- capabilities and queries ----------------------------------------------------------- */

bool gles_debug_enable(struct gles_context *ctx, GLenum cap, bool value)
{
	switch (cap) {
	case GL_DEBUG_OUTPUT_KHR:
		ctx->debug_output = value;
		return true;
	case GL_DEBUG_OUTPUT_SYNCHRONOUS_KHR:
		ctx->debug_state->synchronous = value;
		return true;
	default:
		return false;
	}
}

bool gles_debug_is_enabled(const struct gles_context *ctx, GLenum cap, bool *value)
{
	switch (cap) {
	case GL_DEBUG_OUTPUT_KHR:
		*value = ctx->debug_output;
		return true;
	case GL_DEBUG_OUTPUT_SYNCHRONOUS_KHR:
		*value = ctx->debug_state->synchronous;
		return true;
	default:
		return false;
	}
}

bool gles_debug_get(struct gles_context *ctx, GLenum pname, int index, struct gles_get_value *out)
{
	struct gles_debug *d = ctx->debug_state;

	if (index >= 0)
		return false;
	switch (pname) {
	case GL_MAX_DEBUG_MESSAGE_LENGTH_KHR:
		gles_get_set_int(out, GLES_MAX_DEBUG_MESSAGE_LENGTH);
		return true;
	case GL_MAX_DEBUG_LOGGED_MESSAGES_KHR:
		gles_get_set_int(out, GLES_MAX_DEBUG_LOGGED_MESSAGES);
		return true;
	case GL_MAX_DEBUG_GROUP_STACK_DEPTH_KHR:
		gles_get_set_int(out, GLES_MAX_DEBUG_GROUP_STACK_DEPTH);
		return true;
	case GL_MAX_LABEL_LENGTH_KHR:
		gles_get_set_int(out, GLES_MAX_LABEL_LENGTH);
		return true;
	case GL_DEBUG_LOGGED_MESSAGES_KHR:
		gles_get_set_int(out, (GLint)d->log_count);
		return true;
	case GL_DEBUG_NEXT_LOGGED_MESSAGE_LENGTH_KHR:
		/* the oldest message's length with its NUL, 0 for an empty log */
		gles_get_set_int(out, d->log_count ? d->log[d->log_first].length + 1 : 0);
		return true;
	case GL_DEBUG_GROUP_STACK_DEPTH_KHR:
		gles_get_set_int(out, (GLint)d->depth);
		return true;
	default:
		return false;
	}
}

void gles_GetPointervKHR(GLenum pname, void **params)
{
	struct gles_context *ctx = gles_current();
	void *value;

	if (!ctx)
		return;
	switch (pname) {
	case GL_DEBUG_CALLBACK_FUNCTION_KHR:
		value = (void *)(uintptr_t)ctx->debug_state->callback;
		break;
	case GL_DEBUG_CALLBACK_USER_PARAM_KHR:
		value = (void *)(uintptr_t)ctx->debug_state->user_param;
		break;
	default:
		gles_error(ctx, GL_INVALID_ENUM);
		return;
	}
	if (params)
		*params = value;
}

/* ---- the entry points of debug output --------------------------------------------------- */

/*
 * The length of an application's message (length, or strlen when
 * negative): GL_INVALID_VALUE when it and a NUL would not fit
 * MAX_DEBUG_MESSAGE_LENGTH (sections 5.5.5, 5.5.6).
 */
static GLenum message_length(GLsizei length, const char *buf, GLsizei *out)
{
	size_t n;

	if (!buf)
		n = 0;
	else if (length < 0)
		n = strnlen(buf, GLES_MAX_DEBUG_MESSAGE_LENGTH);
	else
		n = (size_t)length;
	if (n >= GLES_MAX_DEBUG_MESSAGE_LENGTH)
		return GL_INVALID_VALUE;
	*out = (GLsizei)n;
	return GL_NO_ERROR;
}

static bool application_source(GLenum source)
{
	return source == GL_DEBUG_SOURCE_APPLICATION_KHR ||
	       source == GL_DEBUG_SOURCE_THIRD_PARTY_KHR;
}

/* Section 5.5.2: one callback; NULL sends messages to the log again. */
void gles_DebugMessageCallbackKHR(GLDEBUGPROCKHR callback, const void *userParam)
{
	struct gles_context *ctx = gles_current();

	if (!ctx)
		return;
	ctx->debug_state->callback = callback;
	ctx->debug_state->user_param = userParam;
}

/* Section 5.5.4, on the active group's controls. */
void gles_DebugMessageControlKHR(GLenum source, GLenum type, GLenum severity, GLsizei count,
				 const GLuint *ids, GLboolean enabled)
{
	struct gles_context *ctx = gles_current();
	struct control *c;
	int s, t, v;

	if (!ctx)
		return;
	s = source == GL_DONT_CARE ? -1 : source_index(source);
	t = type == GL_DONT_CARE ? -1 : type_index(type);
	v = severity == GL_DONT_CARE ? -1 : severity_index(severity);
	if (count < 0) {
		gles_error(ctx, GL_INVALID_VALUE);
		return;
	}
	if ((source != GL_DONT_CARE && s < 0) || (type != GL_DONT_CARE && t < 0) ||
	    (severity != GL_DONT_CARE && v < 0)) {
		gles_error(ctx, GL_INVALID_ENUM);
		return;
	}
	c = &active_group(ctx->debug_state)->control;
	if (count > 0) {
		/* IDs are of one source and type, at every severity */
		if (s < 0 || t < 0 || v >= 0) {
			gles_error(ctx, GL_INVALID_OPERATION);
			return;
		}
		if (ids && control_set_ids(c, (unsigned)s, (unsigned)t, count, ids, enabled) < 0)
			gles_error(ctx, GL_OUT_OF_MEMORY);
		return;
	}
	control_set(c, s, t, v < 0 ? ALL_SEVERITIES : 1u << v, enabled);
}

/* Section 5.5.5. */
void gles_DebugMessageInsertKHR(GLenum source, GLenum type, GLuint id, GLenum severity,
				GLsizei length, const GLchar *buf)
{
	struct gles_context *ctx = gles_current();
	GLsizei n;
	GLenum err;

	if (!ctx)
		return;
	/* "If the DEBUG_OUTPUT state is disabled calls to DebugMessageInsert are discarded and do
	 * not generate an error." */
	if (!ctx->debug_output)
		return;
	/*
	 * Any type of table 5.4, PUSH_GROUP and POP_GROUP too (the section's
	 * words; the New Tokens list leaves those two out for this command,
	 * but Mesa and ANGLE take them).
	 */
	if (!application_source(source) || type_index(type) < 0 || severity_index(severity) < 0) {
		gles_error(ctx, GL_INVALID_ENUM);
		return;
	}
	err = message_length(length, buf, &n);
	if (err != GL_NO_ERROR) {
		gles_error(ctx, err);
		return;
	}
	gles_debug_message(ctx, source, type, id, severity, n, buf);
}

/* Section 6.1.15: the oldest messages that fit, removed from the log. */
GLuint gles_GetDebugMessageLogKHR(GLuint count, GLsizei bufSize, GLenum *sources, GLenum *types,
				  GLuint *ids, GLenum *severities, GLsizei *lengths,
				  GLchar *messageLog)
{
	struct gles_context *ctx = gles_current();
	struct gles_debug *d;
	GLuint n = 0;
	size_t used = 0;

	if (!ctx)
		return 0;
	d = ctx->debug_state;
	if (bufSize < 0 && messageLog) {
		gles_error(ctx, GL_INVALID_VALUE);
		return 0;
	}
	while (n < count && d->log_count) {
		struct logged *m = &d->log[d->log_first];

		if (messageLog) {
			if ((size_t)m->length + 1 > (size_t)bufSize - used)
				break; /* it and the ones after it stay in the log */
			memcpy(messageLog + used, m->text, (size_t)m->length + 1);
			used += (size_t)m->length + 1;
		}
		if (sources)
			sources[n] = m->source;
		if (types)
			types[n] = m->type;
		if (ids)
			ids[n] = m->id;
		if (severities)
			severities[n] = m->severity;
		if (lengths)
			lengths[n] =
			    m->length + 1; /* "include the space for the null terminator" */
		free(m->text);
		d->log_first = (d->log_first + 1) % GLES_MAX_DEBUG_LOGGED_MESSAGES;
		d->log_count--;
		n++;
	}
	return n;
}

/*
 * Section 5.5.6: a new group with a copy of the active one's controls, and
 * its PUSH_GROUP message.  The stack holds MAX_DEBUG_GROUP_STACK_DEPTH
 * groups, the default one with them: the spec's "a stack containing
 * MAX_DEBUG_GROUP_STACK_DEPTH minus one elements" counts the pushed ones.
 */
void gles_PushDebugGroupKHR(GLenum source, GLuint id, GLsizei length, const GLchar *message)
{
	struct gles_context *ctx = gles_current();
	struct gles_debug *d;
	struct group *g;
	GLsizei n;
	GLenum err;

	if (!ctx)
		return;
	d = ctx->debug_state;
	if (!application_source(source)) {
		gles_error(ctx, GL_INVALID_ENUM);
		return;
	}
	err = message_length(length, message, &n);
	if (err != GL_NO_ERROR) {
		gles_error(ctx, err);
		return;
	}
	if (d->depth == GLES_MAX_DEBUG_GROUP_STACK_DEPTH) {
		gles_error(ctx, GL_STACK_OVERFLOW_KHR);
		return;
	}
	g = calloc(1, sizeof(*g));
	if (!g || !(g->message = malloc((size_t)n + 1)) ||
	    control_copy(&g->control, &active_group(d)->control) < 0) {
		if (g)
			free(g->message);
		free(g);
		gles_error(ctx, GL_OUT_OF_MEMORY);
		return;
	}
	if (n)
		memcpy(g->message, message, (size_t)n);
	g->message[n] = '\0';
	g->length = n;
	g->source = source;
	g->id = id;
	d->groups[d->depth++] = g;
	gles_debug_message(ctx, source, GL_DEBUG_TYPE_PUSH_GROUP_KHR, id,
			   GL_DEBUG_SEVERITY_NOTIFICATION_KHR, n, g->message);
}

/* Section 5.5.6: the parent's controls again, then the POP_GROUP message under them. */
void gles_PopDebugGroupKHR(void)
{
	struct gles_context *ctx = gles_current();
	struct gles_debug *d;
	struct group *g;

	if (!ctx)
		return;
	d = ctx->debug_state;
	if (d->depth == 1) {
		gles_error(ctx, GL_STACK_UNDERFLOW_KHR);
		return;
	}
	g = d->groups[--d->depth];
	d->groups[d->depth] = NULL;
	gles_debug_message(ctx, g->source, GL_DEBUG_TYPE_POP_GROUP_KHR, g->id,
			   GL_DEBUG_SEVERITY_NOTIFICATION_KHR, g->length, g->message);
	group_destroy(g);
}

/* ---- labels (section 5.5.8, 6.1.16) ----------------------------------------------------- */

enum label_lock {
	LOCK_NONE, /* a namespace of the context's own */
	LOCK_OBJECTS,
	LOCK_PROGRAMS,
};

static void label_unlock(struct gles_context *ctx, enum label_lock lock)
{
	if (lock == LOCK_OBJECTS)
		gles_objects_unlock(ctx);
	else if (lock == LOCK_PROGRAMS)
		gles_programs_unlock(ctx);
}

/*
 * The label of the object of identifier's namespace that name names, with
 * the namespace's lock held (*lock says which; label_unlock lets it go);
 * NULL, nothing held, with GL_INVALID_ENUM in *err for an identifier of
 * no table 5.1 namespace ES 3.0 has (PROGRAM_PIPELINE among them: no
 * program pipelines before ES 3.1), GL_INVALID_VALUE for a name of no
 * object.  A name from glGen* that was never bound names none yet (GLES
 * 3.0.6 section 2.9.1), and neither does 0: the default objects named 0
 * are not objects the application made, and textures have one per target.
 */
static char **find_label(struct gles_context *ctx, GLenum identifier, GLuint name,
			 enum label_lock *lock, GLenum *err)
{
	struct gles_shared_objects *shared = ctx->share->objects;
	char **label = NULL;

	*lock = LOCK_NONE;
	switch (identifier) {
	case GL_BUFFER_KHR: {
		struct gles_buffer_object *b;

		*lock = LOCK_OBJECTS;
		gles_objects_lock(ctx);
		b = gles_names_lookup(&shared->buffers, name);
		label = b ? &b->label : NULL;
		break;
	}
	case GL_TEXTURE: {
		struct gles_texture *t;

		*lock = LOCK_OBJECTS;
		gles_objects_lock(ctx);
		t = gles_names_lookup(&shared->textures, name);
		label = t ? &t->label : NULL;
		break;
	}
	case GL_SAMPLER_KHR: {
		struct gles_sampler *s;

		*lock = LOCK_OBJECTS;
		gles_objects_lock(ctx);
		s = gles_names_lookup(&shared->samplers, name);
		label = s ? &s->label : NULL;
		break;
	}
	case GL_RENDERBUFFER: {
		struct gles_renderbuffer *r;

		*lock = LOCK_OBJECTS;
		gles_objects_lock(ctx);
		r = gles_names_lookup(&shared->renderbuffers, name);
		label = r ? &r->label : NULL;
		break;
	}
	case GL_SHADER_KHR:
	case GL_PROGRAM_KHR: {
		void *object;

		*lock = LOCK_PROGRAMS;
		gles_programs_lock(ctx);
		object = gles_names_lookup(&ctx->share->programs->names, name);
		if (!object)
			break;
		/* one namespace for both kinds: a program's name is no shader's */
		if (identifier == GL_SHADER_KHR &&
		    *(enum gles_program_object_kind *)object == GLES_OBJECT_SHADER)
			label = &((struct gles_shader *)object)->label;
		else if (identifier == GL_PROGRAM_KHR &&
			 *(enum gles_program_object_kind *)object == GLES_OBJECT_PROGRAM)
			label = &((struct gles_program *)object)->label;
		break;
	}
	case GL_VERTEX_ARRAY_KHR: {
		struct gles_vertex_array *vao =
		    gles_names_lookup(&ctx->objects->vertex_arrays, name);

		label = vao ? &vao->label : NULL;
		break;
	}
	case GL_FRAMEBUFFER: {
		struct gles_framebuffer *fb = gles_names_lookup(&ctx->objects->framebuffers, name);

		label = fb ? &fb->label : NULL;
		break;
	}
	case GL_QUERY_KHR: {
		struct gles_query *q = gles_names_lookup(&ctx->state->queries.names, name);

		label = q ? &q->label : NULL;
		break;
	}
	case GL_TRANSFORM_FEEDBACK: {
		struct gles_xfb_object *x = gles_names_lookup(&ctx->state->xfb.names, name);

		label = x ? &x->label : NULL;
		break;
	}
	default:
		*err = GL_INVALID_ENUM;
		return NULL;
	}
	if (!label) {
		label_unlock(ctx, *lock);
		*err = GL_INVALID_VALUE;
	}
	return label;
}

/* The label of sync object ptr, with the objects lock held; NULL (not held) if ptr is none. */
static char **find_sync_label(struct gles_context *ctx, const void *ptr)
{
	struct gles_sync *s;

	gles_objects_lock(ctx);
	s = gles_names_lookup(&ctx->share->objects->syncs, gles_sync_name((GLsync)(uintptr_t)ptr));
	if (!s) {
		gles_objects_unlock(ctx);
		return NULL;
	}
	return &s->label;
}

/*
 * Sets *slot to label (length characters, or up to its NUL when negative;
 * NULL removes the label): GL_INVALID_VALUE when it would not be shorter
 * than MAX_LABEL_LENGTH.
 */
static GLenum set_label(char **slot, GLsizei length, const GLchar *label)
{
	char *copy = NULL;

	if (label) {
		size_t n = length < 0 ? strnlen(label, GLES_MAX_LABEL_LENGTH) : (size_t)length;

		if (n >= GLES_MAX_LABEL_LENGTH)
			return GL_INVALID_VALUE;
		/* the empty string is the initial label, as no label */
		if (n) {
			copy = malloc(n + 1);
			if (!copy)
				return GL_OUT_OF_MEMORY;
			memcpy(copy, label, n);
			copy[n] = '\0';
		}
	}
	free(*slot);
	*slot = copy;
	return GL_NO_ERROR;
}

/*
 * Section 6.1.16: up to buf_size - 1 characters and a NUL, *length the
 * characters written; with out NULL, *length is the label's whole length.
 */
static void get_label(const char *label, GLsizei buf_size, GLsizei *length, GLchar *out)
{
	size_t n = label ? strlen(label) : 0;

	if (!out) {
		if (length)
			*length = (GLsizei)n;
		return;
	}
	if (buf_size == 0) {
		if (length)
			*length = 0;
		return;
	}
	if (n > (size_t)buf_size - 1)
		n = (size_t)buf_size - 1;
	if (n)
		memcpy(out, label, n);
	out[n] = '\0';
	if (length)
		*length = (GLsizei)n;
}

void gles_ObjectLabelKHR(GLenum identifier, GLuint name, GLsizei length, const GLchar *label)
{
	struct gles_context *ctx = gles_current();
	enum label_lock lock;
	GLenum err;
	char **slot;

	if (!ctx)
		return;
	slot = find_label(ctx, identifier, name, &lock, &err);
	if (slot) {
		err = set_label(slot, length, label);
		label_unlock(ctx, lock);
	}
	if (err != GL_NO_ERROR)
		gles_error(ctx, err);
}

void gles_GetObjectLabelKHR(GLenum identifier, GLuint name, GLsizei bufSize, GLsizei *length,
			    GLchar *label)
{
	struct gles_context *ctx = gles_current();
	enum label_lock lock;
	GLenum err;
	char **slot;

	if (!ctx)
		return;
	/* a negative bufSize is GL_INVALID_VALUE (GL 4.5's GetObjectLabel says so; Mesa too) */
	if (bufSize < 0) {
		gles_error(ctx, GL_INVALID_VALUE);
		return;
	}
	slot = find_label(ctx, identifier, name, &lock, &err);
	if (!slot) {
		gles_error(ctx, err);
		return;
	}
	get_label(*slot, bufSize, length, label);
	label_unlock(ctx, lock);
}

void gles_ObjectPtrLabelKHR(const void *ptr, GLsizei length, const GLchar *label)
{
	struct gles_context *ctx = gles_current();
	GLenum err;
	char **slot;

	if (!ctx)
		return;
	slot = find_sync_label(ctx, ptr);
	if (!slot) {
		gles_error(ctx, GL_INVALID_VALUE);
		return;
	}
	err = set_label(slot, length, label);
	gles_objects_unlock(ctx);
	if (err != GL_NO_ERROR)
		gles_error(ctx, err);
}

void gles_GetObjectPtrLabelKHR(const void *ptr, GLsizei bufSize, GLsizei *length, GLchar *label)
{
	struct gles_context *ctx = gles_current();
	char **slot;

	if (!ctx)
		return;
	if (bufSize < 0) {
		gles_error(ctx, GL_INVALID_VALUE);
		return;
	}
	slot = find_sync_label(ctx, ptr);
	if (!slot) {
		gles_error(ctx, GL_INVALID_VALUE);
		return;
	}
	get_label(*slot, bufSize, length, label);
	gles_objects_unlock(ctx);
}
