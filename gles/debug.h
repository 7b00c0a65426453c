/*
 * debug.h: GL_KHR_debug (the Khronos extension text, revision 17) -- each
 * context's debug output: the DEBUG_OUTPUT and DEBUG_OUTPUT_SYNCHRONOUS
 * capabilities, the callback, the message log, the message controls of
 * each debug group and the group stack; GL errors as debug messages; and
 * object labels (the label strings live in the objects, debug.c finds
 * them by identifier and name).
 *
 * The extension's tokens, with the _KHR suffix OpenGL ES gives them (their
 * values are desktop GL 4.3's), are here: GLES3/gl3.h lacks them.
 */
#ifndef GLES_DEBUG_H
#define GLES_DEBUG_H

#include <stdbool.h>

#include <GLES3/gl3.h>

struct gles_context;
struct gles_get_value;

#ifndef GL_KHR_debug
#define GL_KHR_debug 1
typedef void(GL_APIENTRY *GLDEBUGPROCKHR)(GLenum source, GLenum type, GLuint id, GLenum severity,
					  GLsizei length, const GLchar *message,
					  const void *userParam);
/* glEnable capabilities */
#define GL_DEBUG_OUTPUT_KHR		0x92E0
#define GL_DEBUG_OUTPUT_SYNCHRONOUS_KHR 0x8242
/* CONTEXT_FLAGS' bit: ES 3.0 has no CONTEXT_FLAGS to report it in (the spec's ES interactions) */
#define GL_CONTEXT_FLAG_DEBUG_BIT_KHR 0x00000002
/* glGet* */
#define GL_MAX_DEBUG_MESSAGE_LENGTH_KHR		0x9143
#define GL_MAX_DEBUG_LOGGED_MESSAGES_KHR	0x9144
#define GL_DEBUG_LOGGED_MESSAGES_KHR		0x9145
#define GL_DEBUG_NEXT_LOGGED_MESSAGE_LENGTH_KHR 0x8243
#define GL_MAX_DEBUG_GROUP_STACK_DEPTH_KHR	0x826C
#define GL_DEBUG_GROUP_STACK_DEPTH_KHR		0x826D
#define GL_MAX_LABEL_LENGTH_KHR			0x82E8
/* glGetPointervKHR */
#define GL_DEBUG_CALLBACK_FUNCTION_KHR	 0x8244
#define GL_DEBUG_CALLBACK_USER_PARAM_KHR 0x8245
/* sources (table 5.3) */
#define GL_DEBUG_SOURCE_API_KHR		    0x8246
#define GL_DEBUG_SOURCE_WINDOW_SYSTEM_KHR   0x8247
#define GL_DEBUG_SOURCE_SHADER_COMPILER_KHR 0x8248
#define GL_DEBUG_SOURCE_THIRD_PARTY_KHR	    0x8249
#define GL_DEBUG_SOURCE_APPLICATION_KHR	    0x824A
#define GL_DEBUG_SOURCE_OTHER_KHR	    0x824B
/* types (table 5.4) */
#define GL_DEBUG_TYPE_ERROR_KHR		      0x824C
#define GL_DEBUG_TYPE_DEPRECATED_BEHAVIOR_KHR 0x824D
#define GL_DEBUG_TYPE_UNDEFINED_BEHAVIOR_KHR  0x824E
#define GL_DEBUG_TYPE_PORTABILITY_KHR	      0x824F
#define GL_DEBUG_TYPE_PERFORMANCE_KHR	      0x8250
#define GL_DEBUG_TYPE_OTHER_KHR		      0x8251
#define GL_DEBUG_TYPE_MARKER_KHR	      0x8268
#define GL_DEBUG_TYPE_PUSH_GROUP_KHR	      0x8269
#define GL_DEBUG_TYPE_POP_GROUP_KHR	      0x826A
/* severities (table 5.5) */
#define GL_DEBUG_SEVERITY_HIGH_KHR	   0x9146
#define GL_DEBUG_SEVERITY_MEDIUM_KHR	   0x9147
#define GL_DEBUG_SEVERITY_LOW_KHR	   0x9148
#define GL_DEBUG_SEVERITY_NOTIFICATION_KHR 0x826B
/* glGetError */
#define GL_STACK_OVERFLOW_KHR  0x0503
#define GL_STACK_UNDERFLOW_KHR 0x0504
/* identifiers of glObjectLabelKHR (table 5.1) that core ES 3.0 has no token for */
#define GL_BUFFER_KHR		0x82E0
#define GL_SHADER_KHR		0x82E1
#define GL_PROGRAM_KHR		0x82E2
#define GL_VERTEX_ARRAY_KHR	0x8074
#define GL_QUERY_KHR		0x82E3
#define GL_PROGRAM_PIPELINE_KHR 0x82E4
#define GL_SAMPLER_KHR		0x82E6
#endif

/*
 * The implementation-dependent values (the spec's minimums: 1, 1, 64 and
 * 256).  A message is at most MAX_DEBUG_MESSAGE_LENGTH bytes with its NUL;
 * the group stack holds the default group and up to 63 pushed ones.
 */
#define GLES_MAX_DEBUG_MESSAGE_LENGTH	 1024
#define GLES_MAX_DEBUG_LOGGED_MESSAGES	 64
#define GLES_MAX_DEBUG_GROUP_STACK_DEPTH 64
#define GLES_MAX_LABEL_LENGTH		 256

/*
 * Creates ctx->debug_state with the spec's initial state (DEBUG_OUTPUT as
 * ctx->debug says): 0 or -ENOMEM.  finish frees it; NULL state is a no-op.
 */
int gles_debug_init(struct gles_context *ctx);
void gles_debug_finish(struct gles_context *ctx);

/*
 * A debug message of the GL (or of the application, through the entry
 * points): to the callback or the log, when DEBUG_OUTPUT is on and the
 * active group's controls enable it.  length excludes the NUL; text is
 * cut at MAX_DEBUG_MESSAGE_LENGTH - 1 bytes.
 */
void gles_debug_message(struct gles_context *ctx, GLenum source, GLenum type, GLuint id,
			GLenum severity, GLsizei length, const char *text);

/*
 * gles_error's message (context.h): source API, type ERROR, severity HIGH,
 * the error as its ID; where is the C function that recorded it.  Called
 * only while ctx->debug_output is set.
 */
void gles_debug_error(struct gles_context *ctx, GLenum err, const char *where);

/* glEnable/glDisable/glIsEnabled of DEBUG_OUTPUT(_SYNCHRONOUS): false when cap is neither. */
bool gles_debug_enable(struct gles_context *ctx, GLenum cap, bool value);
bool gles_debug_is_enabled(const struct gles_context *ctx, GLenum cap, bool *value);

/* The get.c provider of the debug state and limits (get.h's contract). */
bool gles_debug_get(struct gles_context *ctx, GLenum pname, int index, struct gles_get_value *out);

#endif
