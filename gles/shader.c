/*
 * shader.c: the share group's namespace of shaders and programs, shader
 * objects (GLES 3.0.6 section 2.11.1) and their entry points: creation,
 * source, compilation through libagx's front end (agx/glsl.h), the shader
 * queries of section 6.1.12, deletion (deferred while attached), and the
 * binary and precision queries of sections 2.11.2 and 6.1.12.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "context.h"
#include "extensions.h"
#include "gl_functions.h"
#include "limits.h"
#include "program.h"

/* ---- the namespace ------------------------------------------------------------------- */

int gles_programs_init(struct gles_share_group *group)
{
	struct gles_programs *p = calloc(1, sizeof(*p));

	if (!p)
		return -ENOMEM;
	pthread_mutex_init(&p->lock, NULL);
	gles_names_init(&p->names);
	group->programs = p;
	return 0;
}

static void shader_free(struct gles_shader *shader)
{
	gles_shader_code_unref(shader->code);
	free(shader->source);
	free(shader->log);
	free(shader->label);
	free(shader);
}

static void free_object(void *object, void *data)
{
	(void)data;
	if (*(enum gles_program_object_kind *)object == GLES_OBJECT_SHADER) {
		shader_free(object);
	} else {
		struct gles_program *program = object;

		/* its shaders are in the namespace too, and freed with it */
		program->shaders[GLES_STAGE_VERTEX] = program->shaders[GLES_STAGE_FRAGMENT] = NULL;
		gles_program_free(NULL, program);
	}
}

void gles_programs_finish(struct gles_share_group *group)
{
	struct gles_programs *p = group->programs;

	if (!p)
		return;
	/* programs first: a program's executable holds no shader, only shader code */
	gles_names_foreach(&p->names, free_object, NULL);
	gles_names_finish(&p->names);
	pthread_mutex_destroy(&p->lock);
	free(p);
	group->programs = NULL;
}

void gles_programs_lock(struct gles_context *ctx)
{
	pthread_mutex_lock(&ctx->share->programs->lock);
}

void gles_programs_unlock(struct gles_context *ctx)
{
	pthread_mutex_unlock(&ctx->share->programs->lock);
}

/*
 * Section 2.11.1 and 2.11.3's errors: a name that is neither is
 * GL_INVALID_VALUE, one of the other kind GL_INVALID_OPERATION.
 */
static void *lookup(struct gles_context *ctx, GLuint name, enum gles_program_object_kind kind)
{
	enum gles_program_object_kind *object =
	    name ? gles_names_lookup(&ctx->share->programs->names, name) : NULL;

	if (!object) {
		gles_error(ctx, GL_INVALID_VALUE);
		return NULL;
	}
	if (*object != kind) {
		gles_error(ctx, GL_INVALID_OPERATION);
		return NULL;
	}
	return object;
}

struct gles_shader *gles_lookup_shader(struct gles_context *ctx, GLuint name)
{
	return lookup(ctx, name, GLES_OBJECT_SHADER);
}

struct gles_program *gles_lookup_program(struct gles_context *ctx, GLuint name)
{
	return lookup(ctx, name, GLES_OBJECT_PROGRAM);
}

void gles_copy_name(const char *s, GLsizei buf_size, GLsizei *length, GLchar *out)
{
	size_t n = 0;

	if (buf_size > 0 && out) {
		n = s ? strlen(s) : 0;
		if (n > (size_t)buf_size - 1)
			n = (size_t)buf_size - 1;
		if (n)
			memcpy(out, s, n);
		out[n] = '\0';
	}
	if (length)
		*length = (GLsizei)n;
}

/* Makes a name for object: 0 when out of memory (GL_OUT_OF_MEMORY recorded). */
GLuint gles_programs_add(struct gles_context *ctx, void *object)
{
	struct gles_programs *p = ctx->share->programs;
	GLuint name;

	if (gles_names_gen(&p->names, 1, &name) < 0) {
		gles_error(ctx, GL_OUT_OF_MEMORY);
		return 0;
	}
	if (gles_names_set(&p->names, name, object) < 0) {
		gles_names_remove(&p->names, name);
		gles_error(ctx, GL_OUT_OF_MEMORY);
		return 0;
	}
	return name;
}

/* ---- shader code ---------------------------------------------------------------------- */

struct gles_shader_code *gles_shader_code_ref(struct gles_shader_code *code)
{
	code->refs++;
	return code;
}

void gles_shader_code_unref(struct gles_shader_code *code)
{
	if (!code || --code->refs)
		return;
	agx_glsl_result_finish(&code->glsl);
	free(code->source);
	free(code);
}

/* ---- shader objects ------------------------------------------------------------------ */

void gles_shader_release(struct gles_programs *programs, struct gles_shader *shader)
{
	if (!shader)
		return;
	if (--shader->attachments == 0 && shader->delete_pending) {
		gles_names_remove(&programs->names, shader->name);
		shader_free(shader);
	}
}

GLuint gles_CreateShader(GLenum type)
{
	struct gles_context *ctx = gles_current();
	struct gles_shader *shader;
	GLuint name;

	if (!ctx)
		return 0;
	if (type != GL_VERTEX_SHADER && type != GL_FRAGMENT_SHADER) {
		gles_error(ctx, GL_INVALID_ENUM);
		return 0;
	}
	shader = calloc(1, sizeof(*shader));
	if (!shader) {
		gles_error(ctx, GL_OUT_OF_MEMORY);
		return 0;
	}
	shader->kind = GLES_OBJECT_SHADER;
	shader->type = type;
	gles_programs_lock(ctx);
	name = gles_programs_add(ctx, shader);
	shader->name = name;
	gles_programs_unlock(ctx);
	if (!name)
		free(shader);
	return name;
}

/* Section 2.11.1: length NULL, or a negative length, means a NUL-terminated string. */
static size_t string_length(const GLchar *s, const GLint *length, GLsizei i)
{
	return length && length[i] >= 0 ? (size_t)length[i] : strlen(s);
}

void gles_ShaderSource(GLuint name, GLsizei count, const GLchar *const *string, const GLint *length)
{
	struct gles_context *ctx = gles_current();
	struct gles_shader *shader;
	size_t total = 0, at = 0;
	char *source;

	if (!ctx)
		return;
	gles_programs_lock(ctx);
	shader = gles_lookup_shader(ctx, name);
	if (!shader)
		goto out;
	if (count < 0 || (count > 0 && !string)) {
		gles_error(ctx, GL_INVALID_VALUE);
		goto out;
	}
	for (GLsizei i = 0; i < count; i++) {
		if (!string[i]) {
			gles_error(ctx, GL_INVALID_VALUE);
			goto out;
		}
		total += string_length(string[i], length, i);
	}
	source = malloc(total + 1);
	if (!source) {
		gles_error(ctx, GL_OUT_OF_MEMORY);
		goto out;
	}
	for (GLsizei i = 0; i < count; i++) {
		size_t n = string_length(string[i], length, i);

		memcpy(source + at, string[i], n);
		at += n;
	}
	source[total] = '\0';
	free(shader->source);
	shader->source = source;
	shader->source_length = total;
out:
	gles_programs_unlock(ctx);
}

static char *log_dup(const char *text)
{
	return text && text[0] ? strdup(text) : NULL;
}

/*
 * glCompileShader's verdict is the front end's: agx_glsl_to_spirv checks
 * the shader under its own version's rules and makes SPIR-V of it.  A
 * shader it takes as valid but cannot make SPIR-V of (-ENOTSUP), or that
 * no program can be made of alone (-EINVAL from the link inside it, as a
 * shader without main(), which agx_glsl_check takes), compiles; the
 * program that links it fails with that reason.
 */
static void compile(struct gles_shader *shader)
{
	enum agx_glsl_stage stage =
	    shader->type == GL_VERTEX_SHADER ? AGX_GLSL_VERTEX : AGX_GLSL_FRAGMENT;
	struct gles_shader_code *code;
	struct agx_glsl_log check;
	int ret;

	free(shader->log);
	shader->log = NULL;
	shader->compiled = false;
	if (!shader->source) {
		shader->log = strdup("ERROR: no source: glShaderSource was not called\n");
		return;
	}
	code = calloc(1, sizeof(*code));
	if (!code) {
		shader->log = strdup("ERROR: out of memory\n");
		return;
	}
	code->refs = 1;
	code->source = strdup(shader->source);
	if (!code->source) {
		free(code);
		shader->log = strdup("ERROR: out of memory\n");
		return;
	}
	code->stage = shader->type == GL_VERTEX_SHADER ? AGX_SHADER_VERTEX : AGX_SHADER_FRAGMENT;
	ret = agx_glsl_to_spirv(stage, shader->source, shader->source_length, &code->glsl);
	code->version = code->glsl.log.version;
	if (ret == -EINVAL &&
	    agx_glsl_check(stage, shader->source, shader->source_length, &check) == 0) {
		ret = 0;
		code->status = -EINVAL;
		agx_glsl_log_finish(&check);
	} else if (ret == -EINVAL) {
		agx_glsl_log_finish(&check);
	} else if (ret == -ENOTSUP) {
		ret = 0;
		code->status = -ENOTSUP;
	}
	if (ret < 0) {
		if (ret == -EINVAL)
			shader->log = log_dup(code->glsl.log.text);
		else
			shader->log = strdup(ret == -ENOMEM ? "ERROR: out of memory\n"
							    : "ERROR: no thread to compile on\n");
		gles_shader_code_unref(code);
		return;
	}
	/* a shader that compiles says what glslang warned of, and nothing else */
	shader->log = code->status == 0 ? log_dup(code->glsl.log.text) : NULL;
	shader->compiled = true;
	gles_shader_code_unref(shader->code);
	shader->code = code;
}

struct gles_linked *gles_program_link_internal(const char *vs, const char *fs)
{
	struct gles_shader shaders[GLES_STAGES] = {
		{ .kind = GLES_OBJECT_SHADER, .type = GL_VERTEX_SHADER },
		{ .kind = GLES_OBJECT_SHADER, .type = GL_FRAGMENT_SHADER },
	};
	struct gles_program program = { .kind = GLES_OBJECT_PROGRAM };
	struct gles_linked *linked = NULL;
	const char *sources[GLES_STAGES] = { vs, fs };
	char *log = NULL;

	for (unsigned s = 0; s < GLES_STAGES; s++) {
		shaders[s].source = (char *)sources[s];
		shaders[s].source_length = strlen(sources[s]);
		compile(&shaders[s]);
		program.shaders[s] = &shaders[s];
	}
	if (shaders[0].compiled && shaders[1].compiled)
		linked = gles_program_link(&program, &log);
	/* the driver's own shaders: a refusal is a bug of ours, said once here */
	if (!linked)
		fprintf(stderr, "libEGL_agx: a driver shader does not build: %s%s%s\n",
			shaders[0].log ? shaders[0].log : "", shaders[1].log ? shaders[1].log : "",
			log ? log : "");
	free(log);
	for (unsigned s = 0; s < GLES_STAGES; s++) {
		free(shaders[s].log);
		gles_shader_code_unref(shaders[s].code);
	}
	return linked;
}

void gles_CompileShader(GLuint name)
{
	struct gles_context *ctx = gles_current();
	struct gles_shader *shader;

	if (!ctx)
		return;
	gles_programs_lock(ctx);
	shader = gles_lookup_shader(ctx, name);
	if (shader)
		compile(shader);
	gles_programs_unlock(ctx);
}

void gles_GetShaderiv(GLuint name, GLenum pname, GLint *params)
{
	struct gles_context *ctx = gles_current();
	struct gles_shader *shader;
	GLint value;

	if (!ctx)
		return;
	gles_programs_lock(ctx);
	shader = gles_lookup_shader(ctx, name);
	if (!shader)
		goto out;
	switch (pname) {
	case GL_SHADER_TYPE:
		value = (GLint)shader->type;
		break;
	case GL_DELETE_STATUS:
		value = shader->delete_pending;
		break;
	case GL_COMPILE_STATUS:
		value = shader->compiled;
		break;
	case GL_COMPLETION_STATUS_KHR:
		/* KHR_parallel_shader_compile: glCompileShader returns compiled */
		value = GL_TRUE;
		break;
	case GL_INFO_LOG_LENGTH:
		/* section 6.1.12: with the NUL, 0 for an empty log */
		value = shader->log ? (GLint)strlen(shader->log) + 1 : 0;
		break;
	case GL_SHADER_SOURCE_LENGTH:
		value = shader->source ? (GLint)shader->source_length + 1 : 0;
		break;
	default:
		gles_error(ctx, GL_INVALID_ENUM);
		goto out;
	}
	if (params)
		*params = value;
out:
	gles_programs_unlock(ctx);
}

void gles_GetShaderInfoLog(GLuint name, GLsizei buf_size, GLsizei *length, GLchar *log)
{
	struct gles_context *ctx = gles_current();
	struct gles_shader *shader;

	if (!ctx)
		return;
	gles_programs_lock(ctx);
	shader = gles_lookup_shader(ctx, name);
	if (shader && buf_size < 0)
		gles_error(ctx, GL_INVALID_VALUE);
	else if (shader)
		gles_copy_name(shader->log, buf_size, length, log);
	gles_programs_unlock(ctx);
}

void gles_GetShaderSource(GLuint name, GLsizei buf_size, GLsizei *length, GLchar *source)
{
	struct gles_context *ctx = gles_current();
	struct gles_shader *shader;

	if (!ctx)
		return;
	gles_programs_lock(ctx);
	shader = gles_lookup_shader(ctx, name);
	if (shader && buf_size < 0)
		gles_error(ctx, GL_INVALID_VALUE);
	else if (shader)
		gles_copy_name(shader->source, buf_size, length, source);
	gles_programs_unlock(ctx);
}

/* Section 2.11.1: a shader attached to a program is deleted once no program has it. */
void gles_DeleteShader(GLuint name)
{
	struct gles_context *ctx = gles_current();
	struct gles_shader *shader;

	if (!ctx || name == 0)
		return;
	gles_programs_lock(ctx);
	shader = gles_lookup_shader(ctx, name);
	if (shader && !shader->delete_pending) {
		shader->delete_pending = true;
		if (!shader->attachments) {
			gles_names_remove(&ctx->share->programs->names, name);
			shader_free(shader);
		}
	}
	gles_programs_unlock(ctx);
}

GLboolean gles_IsShader(GLuint name)
{
	struct gles_context *ctx = gles_current();
	enum gles_program_object_kind *object;

	if (!ctx || name == 0)
		return GL_FALSE;
	gles_programs_lock(ctx);
	object = gles_names_lookup(&ctx->share->programs->names, name);
	gles_programs_unlock(ctx);
	return object && *object == GLES_OBJECT_SHADER;
}

/*
 * Section 2.11.2: this implementation has no shader binary formats
 * (NUM_SHADER_BINARY_FORMATS is 0), so every format is unknown.
 */
void gles_ShaderBinary(GLsizei count, const GLuint *shaders, GLenum binaryformat,
		       const void *binary, GLsizei length)
{
	struct gles_context *ctx = gles_current();

	(void)binaryformat;
	(void)binary;
	if (!ctx)
		return;
	if (count < 0 || length < 0 || (count > 0 && !shaders)) {
		gles_error(ctx, GL_INVALID_VALUE);
		return;
	}
	gles_programs_lock(ctx);
	for (GLsizei i = 0; i < count; i++) {
		if (!gles_lookup_shader(ctx, shaders[i]))
			goto out;
	}
	gles_error(ctx, GL_INVALID_ENUM);
out:
	gles_programs_unlock(ctx);
}

/* Section 2.11.2: a hint that the compiler's resources may go; the front end keeps none. */
void gles_ReleaseShaderCompiler(void)
{
}

/* KHR_parallel_shader_compile: a hint, recorded for its query (context.h). */
void gles_MaxShaderCompilerThreadsKHR(GLuint count)
{
	struct gles_context *ctx = gles_current();

	if (ctx)
		ctx->max_compiler_threads = count;
}

void gles_GetShaderPrecisionFormat(GLenum shadertype, GLenum precisiontype, GLint *range,
				   GLint *precision)
{
	struct gles_context *ctx = gles_current();
	GLint r[2], p;

	if (!ctx)
		return;
	if ((shadertype != GL_VERTEX_SHADER && shadertype != GL_FRAGMENT_SHADER) ||
	    !gles_limits_shader_precision(precisiontype, r, &p)) {
		gles_error(ctx, GL_INVALID_ENUM);
		return;
	}
	if (range) {
		range[0] = r[0];
		range[1] = r[1];
	}
	if (precision)
		*precision = p;
}
