/*
 * program.c: program objects (GLES 3.0.6 section 2.11.3-2.11.5, 2.15.1,
 * 6.1.12): creation, attaching shaders, glLinkProgram (program_link.c
 * does the link), glUseProgram and the context's current program, deletion
 * (deferred while current), validation, the program queries, attribute
 * locations and fragment outputs, transform feedback varyings, program
 * binaries (there are no formats), and the glGet provider of
 * CURRENT_PROGRAM, the binary formats and SHADER_COMPILER.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "context.h"
#include "extensions.h"
#include "get.h"
#include "gl_functions.h"
#include "limits.h"
#include "program.h"
#include "state.h"
#include "xfb.h"

/* ---- executables ------------------------------------------------------------------- */

struct gles_linked *gles_linked_ref(struct gles_linked *linked)
{
	linked->refs++;
	return linked;
}

void gles_linked_unref(struct gles_linked *linked)
{
	if (!linked || --linked->refs)
		return;
	for (unsigned s = 0; s < GLES_STAGES; s++) {
		agx_shader_binary_finish(&linked->stages[s].binary);
		free(linked->stages[s].spirv);
		gles_shader_code_unref(linked->stages[s].code);
		free(linked->stages[s].uniform_data);
	}
	for (unsigned i = 0; i < linked->num_attributes; i++)
		free(linked->attributes[i].name);
	free(linked->attributes);
	for (unsigned i = 0; i < linked->num_outputs; i++)
		free(linked->outputs[i].name);
	free(linked->outputs);
	free(linked->varyings);
	for (unsigned i = 0; i < linked->num_uniforms; i++) {
		free(linked->uniforms[i].name);
		free(linked->uniforms[i].units);
	}
	free(linked->uniforms);
	free(linked->locations);
	for (unsigned i = 0; i < linked->num_blocks; i++)
		free(linked->blocks[i].name);
	free(linked->blocks);
	for (unsigned i = 0; i < linked->num_xfb; i++)
		free(linked->xfb[i].name);
	free(linked->xfb);
	free(linked);
}

/* ---- program objects ---------------------------------------------------------------- */

static void free_xfb_names(struct gles_program *program)
{
	for (unsigned i = 0; i < program->num_xfb_names; i++)
		free(program->xfb_names[i]);
	free(program->xfb_names);
	program->xfb_names = NULL;
	program->num_xfb_names = 0;
}

void gles_program_free(struct gles_programs *programs, struct gles_program *program)
{
	for (unsigned s = 0; s < GLES_STAGES; s++)
		gles_shader_release(programs, program->shaders[s]);
	for (unsigned i = 0; i < program->num_bindings; i++)
		free(program->bindings[i].name);
	free(program->bindings);
	for (unsigned i = 0; i < program->num_frag_bindings; i++)
		free(program->frag_bindings[i].name);
	free(program->frag_bindings);
	free_xfb_names(program);
	gles_linked_unref(program->linked);
	free(program->log);
	free(program->label);
	free(program);
}

/* Drops one context's use; the last one deletes a program whose deletion was pending. */
static void program_unuse(struct gles_programs *programs, struct gles_program *program)
{
	if (!program)
		return;
	if (--program->uses == 0 && program->delete_pending) {
		gles_names_remove(&programs->names, program->name);
		gles_program_free(programs, program);
	}
}

GLuint gles_CreateProgram(void)
{
	struct gles_context *ctx = gles_current();
	struct gles_program *program;
	GLuint name;

	if (!ctx)
		return 0;
	program = calloc(1, sizeof(*program));
	if (!program) {
		gles_error(ctx, GL_OUT_OF_MEMORY);
		return 0;
	}
	program->kind = GLES_OBJECT_PROGRAM;
	program->xfb_mode = GL_INTERLEAVED_ATTRIBS;
	gles_programs_lock(ctx);
	name = gles_programs_add(ctx, program);
	program->name = name;
	gles_programs_unlock(ctx);
	if (!name)
		free(program);
	return name;
}

static unsigned stage_of(const struct gles_shader *shader)
{
	return shader->type == GL_VERTEX_SHADER ? GLES_STAGE_VERTEX : GLES_STAGE_FRAGMENT;
}

/*
 * Section 2.11.3: attaching a shader twice, or a second shader of a kind
 * (ES has one shader per stage), is GL_INVALID_OPERATION.
 */
void gles_AttachShader(GLuint pname, GLuint sname)
{
	struct gles_context *ctx = gles_current();
	struct gles_program *program;
	struct gles_shader *shader;

	if (!ctx)
		return;
	gles_programs_lock(ctx);
	program = gles_lookup_program(ctx, pname);
	shader = program ? gles_lookup_shader(ctx, sname) : NULL;
	if (shader) {
		if (program->shaders[stage_of(shader)]) {
			gles_error(ctx, GL_INVALID_OPERATION);
		} else {
			program->shaders[stage_of(shader)] = shader;
			shader->attachments++;
		}
	}
	gles_programs_unlock(ctx);
}

void gles_DetachShader(GLuint pname, GLuint sname)
{
	struct gles_context *ctx = gles_current();
	struct gles_program *program;
	struct gles_shader *shader;

	if (!ctx)
		return;
	gles_programs_lock(ctx);
	program = gles_lookup_program(ctx, pname);
	shader = program ? gles_lookup_shader(ctx, sname) : NULL;
	if (shader) {
		if (program->shaders[stage_of(shader)] != shader) {
			gles_error(ctx, GL_INVALID_OPERATION);
		} else {
			program->shaders[stage_of(shader)] = NULL;
			gles_shader_release(ctx->share->programs, shader);
		}
	}
	gles_programs_unlock(ctx);
}

void gles_GetAttachedShaders(GLuint pname, GLsizei max_count, GLsizei *count, GLuint *shaders)
{
	struct gles_context *ctx = gles_current();
	struct gles_program *program;
	GLsizei n = 0;

	if (!ctx)
		return;
	gles_programs_lock(ctx);
	program = gles_lookup_program(ctx, pname);
	if (program && max_count < 0) {
		gles_error(ctx, GL_INVALID_VALUE);
	} else if (program) {
		for (unsigned s = 0; s < GLES_STAGES; s++) {
			if (program->shaders[s] && n < max_count && shaders)
				shaders[n++] = program->shaders[s]->name;
		}
		if (count)
			*count = n;
	}
	gles_programs_unlock(ctx);
}

void gles_LinkProgram(GLuint pname)
{
	struct gles_context *ctx = gles_current();
	struct gles_program *program;
	struct gles_linked *linked;
	char *log = NULL;

	if (!ctx)
		return;
	gles_programs_lock(ctx);
	program = gles_lookup_program(ctx, pname);
	if (!program)
		goto out;
	/*
	 * Section 2.15.2: a program that an active transform feedback object
	 * captures from cannot be relinked.  The bound object is the only one
	 * whose program this context knows: its current one.
	 */
	if (gles_xfb_running(ctx) && ctx->program->program == program) {
		gles_error(ctx, GL_INVALID_OPERATION);
		goto out;
	}
	linked = gles_program_link(program, &log);
	/* section 2.11.3: a failed link loses the last one's executable (a context keeps its own)
	 */
	gles_linked_unref(program->linked);
	program->linked = linked;
	program->validated = false;
	free(program->log);
	program->log = log && log[0] ? log : NULL;
	if (program->log != log)
		free(log);
out:
	gles_programs_unlock(ctx);
}

/* ---- the current program ---------------------------------------------------------- */

int gles_program_context_init(struct gles_context *ctx)
{
	ctx->program = calloc(1, sizeof(*ctx->program));
	return ctx->program ? 0 : -ENOMEM;
}

void gles_program_context_finish(struct gles_context *ctx)
{
	if (!ctx->program)
		return;
	if (ctx->share && ctx->share->programs) {
		gles_programs_lock(ctx);
		gles_linked_unref(ctx->program->linked);
		program_unuse(ctx->share->programs, ctx->program->program);
		gles_programs_unlock(ctx);
	}
	free(ctx->program);
	ctx->program = NULL;
}

struct gles_linked *gles_program_current_linked(struct gles_context *ctx)
{
	struct gles_program_binding *b = ctx->program;

	/* section 2.11.3: a successful relink replaces the executable in use */
	if (b->program && b->program->linked && b->program->linked != b->linked) {
		gles_linked_unref(b->linked);
		b->linked = gles_linked_ref(b->program->linked);
	}
	return b->linked;
}

void gles_UseProgram(GLuint pname)
{
	struct gles_context *ctx = gles_current();
	struct gles_program *program = NULL;
	struct gles_program_binding *b;

	if (!ctx)
		return;
	gles_programs_lock(ctx);
	b = ctx->program;
	if (pname) {
		program = gles_lookup_program(ctx, pname);
		if (!program)
			goto out;
		if (!program->linked) {
			gles_error(ctx, GL_INVALID_OPERATION);
			goto out;
		}
	}
	if (gles_xfb_running(ctx)) {
		gles_error(ctx, GL_INVALID_OPERATION);
		goto out;
	}
	if (program)
		program->uses++;
	program_unuse(ctx->share->programs, b->program);
	gles_linked_unref(b->linked);
	b->program = program;
	b->linked = program ? gles_linked_ref(program->linked) : NULL;
out:
	gles_programs_unlock(ctx);
}

/* Section 2.11.3: a current program is deleted once no context uses it. */
void gles_DeleteProgram(GLuint pname)
{
	struct gles_context *ctx = gles_current();
	struct gles_program *program;

	if (!ctx || pname == 0)
		return;
	gles_programs_lock(ctx);
	program = gles_lookup_program(ctx, pname);
	if (program && !program->delete_pending) {
		program->delete_pending = true;
		if (!program->uses) {
			gles_names_remove(&ctx->share->programs->names, pname);
			gles_program_free(ctx->share->programs, program);
		}
	}
	gles_programs_unlock(ctx);
}

GLboolean gles_IsProgram(GLuint pname)
{
	struct gles_context *ctx = gles_current();
	enum gles_program_object_kind *object;

	if (!ctx || pname == 0)
		return GL_FALSE;
	gles_programs_lock(ctx);
	object = gles_names_lookup(&ctx->share->programs->names, pname);
	gles_programs_unlock(ctx);
	return object && *object == GLES_OBJECT_PROGRAM;
}

/* ---- validation --------------------------------------------------------------------- */

/*
 * Section 2.11.11 (Validation): what a draw with the program would
 * refuse -- no executable, or two samplers of different types given the
 * same texture unit.  NULL when it would draw, else why not (malloc'd).
 */
static char *validate(const struct gles_linked *linked)
{
	GLenum unit_type[GLES_MAX_COMBINED_TEXTURE_IMAGE_UNITS] = { 0 };
	char why[160];

	if (!linked)
		return strdup("the program is not linked\n");
	for (unsigned i = 0; i < linked->num_uniforms; i++) {
		const struct gles_uniform *u = &linked->uniforms[i];

		if (!gles_type_is_sampler(u->type))
			continue;
		for (unsigned e = 0; e < u->size; e++) {
			GLint unit = u->units[e];

			if (unit < 0 || unit >= GLES_MAX_COMBINED_TEXTURE_IMAGE_UNITS)
				continue;
			if (unit_type[unit] && unit_type[unit] != u->type) {
				snprintf(why, sizeof(why),
					 "samplers of different types use texture unit %d (%s)\n",
					 unit, u->name);
				return strdup(why);
			}
			unit_type[unit] = u->type;
		}
	}
	return NULL;
}

void gles_ValidateProgram(GLuint pname)
{
	struct gles_context *ctx = gles_current();
	struct gles_program *program;
	char *why;

	if (!ctx)
		return;
	gles_programs_lock(ctx);
	program = gles_lookup_program(ctx, pname);
	if (program) {
		why = validate(program->linked);
		program->validated = !why;
		if (why) {
			free(program->log);
			program->log = why;
		}
	}
	gles_programs_unlock(ctx);
}

/* ---- program queries ---------------------------------------------------------------- */

static GLint max_length(const void *names, size_t stride, unsigned n)
{
	size_t best = 0;

	for (unsigned i = 0; i < n; i++) {
		const char *s = *(const char *const *)((const char *)names + i * stride);
		size_t len = strlen(s) + 1;

		best = len > best ? len : best;
	}
	return (GLint)best;
}

#define MAX_NAME(array, n) ((n) ? max_length(&(array)[0].name, sizeof((array)[0]), (n)) : 0)

void gles_GetProgramiv(GLuint pname, GLenum what, GLint *params)
{
	struct gles_context *ctx = gles_current();
	struct gles_program *program;
	const struct gles_linked *l;
	GLint value = 0;

	if (!ctx)
		return;
	gles_programs_lock(ctx);
	program = gles_lookup_program(ctx, pname);
	if (!program)
		goto out;
	l = program->linked;
	switch (what) {
	case GL_DELETE_STATUS:
		value = program->delete_pending;
		break;
	case GL_LINK_STATUS:
		value = l != NULL;
		break;
	case GL_COMPLETION_STATUS_KHR:
		/* KHR_parallel_shader_compile: glLinkProgram returns linked */
		value = GL_TRUE;
		break;
	case GL_VALIDATE_STATUS:
		value = program->validated;
		break;
	case GL_INFO_LOG_LENGTH:
		value = program->log ? (GLint)strlen(program->log) + 1 : 0;
		break;
	case GL_ATTACHED_SHADERS:
		value = (program->shaders[0] != NULL) + (program->shaders[1] != NULL);
		break;
	case GL_ACTIVE_ATTRIBUTES:
		value = l ? (GLint)l->num_attributes : 0;
		break;
	case GL_ACTIVE_ATTRIBUTE_MAX_LENGTH:
		value = l ? MAX_NAME(l->attributes, l->num_attributes) : 0;
		break;
	case GL_ACTIVE_UNIFORMS:
		value = l ? (GLint)l->num_uniforms : 0;
		break;
	case GL_ACTIVE_UNIFORM_MAX_LENGTH:
		value = l ? MAX_NAME(l->uniforms, l->num_uniforms) : 0;
		break;
	case GL_ACTIVE_UNIFORM_BLOCKS:
		value = l ? (GLint)l->num_blocks : 0;
		break;
	case GL_ACTIVE_UNIFORM_BLOCK_MAX_NAME_LENGTH:
		value = l ? MAX_NAME(l->blocks, l->num_blocks) : 0;
		break;
	case GL_TRANSFORM_FEEDBACK_BUFFER_MODE:
		value = (GLint)(l ? l->xfb_mode : program->xfb_mode);
		break;
	case GL_TRANSFORM_FEEDBACK_VARYINGS:
		value = l ? (GLint)l->num_xfb : 0;
		break;
	case GL_TRANSFORM_FEEDBACK_VARYING_MAX_LENGTH:
		value = l ? MAX_NAME(l->xfb, l->num_xfb) : 0;
		break;
	case GL_PROGRAM_BINARY_RETRIEVABLE_HINT:
		value = program->binary_retrievable;
		break;
	case GL_PROGRAM_BINARY_LENGTH:
		/* no program binary formats: nothing to retrieve */
		value = 0;
		break;
	default:
		goto bad_enum;
	}
	if (params)
		*params = value;
	goto out;
bad_enum:
	gles_error(ctx, GL_INVALID_ENUM);
out:
	gles_programs_unlock(ctx);
}

void gles_GetProgramInfoLog(GLuint pname, GLsizei buf_size, GLsizei *length, GLchar *log)
{
	struct gles_context *ctx = gles_current();
	struct gles_program *program;

	if (!ctx)
		return;
	gles_programs_lock(ctx);
	program = gles_lookup_program(ctx, pname);
	if (program && buf_size < 0)
		gles_error(ctx, GL_INVALID_VALUE);
	else if (program)
		gles_copy_name(program->log, buf_size, length, log);
	gles_programs_unlock(ctx);
}

/* ---- attributes and fragment outputs ---------------------------------------------- */

/*
 * Binds name to location and index in a program's list (section 2.11.5:
 * bindings take effect at the next link), after the checks the two kinds
 * share: a program (the lookup's errors), a name, no "gl_" prefix.
 * valid: the location and index are the function's to take.
 */
static void bind_name(GLuint pname, const GLchar *name, GLuint location, GLuint index, bool valid,
		      bool fragment)
{
	struct gles_context *ctx = gles_current();
	struct gles_program *program;
	struct gles_name_binding **list, *grown;
	unsigned *count;
	char *copy;

	if (!ctx)
		return;
	gles_programs_lock(ctx);
	program = gles_lookup_program(ctx, pname);
	if (!program)
		goto out;
	if (!valid || !name) {
		gles_error(ctx, GL_INVALID_VALUE);
		goto out;
	}
	if (!strncmp(name, "gl_", 3)) {
		gles_error(ctx, GL_INVALID_OPERATION);
		goto out;
	}
	list = fragment ? &program->frag_bindings : &program->bindings;
	count = fragment ? &program->num_frag_bindings : &program->num_bindings;
	for (unsigned i = 0; i < *count; i++) {
		if (!strcmp((*list)[i].name, name)) {
			(*list)[i].location = location;
			(*list)[i].index = index;
			goto out;
		}
	}
	copy = strdup(name);
	grown = copy ? realloc(*list, (*count + 1) * sizeof(*grown)) : NULL;
	if (!grown) {
		free(copy);
		gles_error(ctx, GL_OUT_OF_MEMORY);
		goto out;
	}
	grown[(*count)++] = (struct gles_name_binding){ copy, location, index };
	*list = grown;
out:
	gles_programs_unlock(ctx);
}

void gles_BindAttribLocation(GLuint pname, GLuint index, const GLchar *name)
{
	bind_name(pname, name, index, 0, index < GLES_MAX_VERTEX_ATTRIBS, false);
}

/* The program of a query on linked state: not linked is GL_INVALID_OPERATION. */
static const struct gles_linked *linked_of(struct gles_context *ctx, GLuint pname)
{
	struct gles_program *program = gles_lookup_program(ctx, pname);

	if (program && !program->linked)
		gles_error(ctx, GL_INVALID_OPERATION);
	return program ? program->linked : NULL;
}

GLint gles_GetAttribLocation(GLuint pname, const GLchar *name)
{
	struct gles_context *ctx = gles_current();
	const struct gles_linked *l;
	GLint location = -1;

	if (!ctx)
		return -1;
	gles_programs_lock(ctx);
	l = linked_of(ctx, pname);
	for (unsigned i = 0; l && name && i < l->num_attributes; i++) {
		if (!strcmp(l->attributes[i].name, name))
			location = l->attributes[i].location;
	}
	gles_programs_unlock(ctx);
	return location;
}

void gles_GetActiveAttrib(GLuint pname, GLuint index, GLsizei buf_size, GLsizei *length,
			  GLint *size, GLenum *type, GLchar *name)
{
	struct gles_context *ctx = gles_current();
	struct gles_program *program;
	const struct gles_linked *l;

	if (!ctx)
		return;
	gles_programs_lock(ctx);
	program = gles_lookup_program(ctx, pname);
	if (!program)
		goto out;
	l = program->linked;
	if (!l || index >= l->num_attributes || buf_size < 0) {
		gles_error(ctx, GL_INVALID_VALUE);
		goto out;
	}
	gles_copy_name(l->attributes[index].name, buf_size, length, name);
	if (size)
		*size = 1; /* section 2.11.3: attributes are no arrays in ES */
	if (type)
		*type = l->attributes[index].type;
out:
	gles_programs_unlock(ctx);
}

/*
 * An element of an array named "name[N]": the length of "name" and N,
 * or false when name does not end in a decimal subscript without leading
 * zeros (GLES 3.0.6 section 2.12.6's names; "a[01]" names nothing).
 */
bool gles_split_subscript(const char *name, size_t *base, unsigned long *element)
{
	size_t n = strlen(name), open;
	unsigned long v = 0;

	if (n < 4 || name[n - 1] != ']')
		return false;
	open = n - 2;
	while (open > 0 && name[open] >= '0' && name[open] <= '9')
		open--;
	if (name[open] != '[' || open == n - 2 || open == 0)
		return false;
	if (name[open + 1] == '0' && open + 2 != n - 1)
		return false;
	for (size_t i = open + 1; i < n - 1; i++) {
		v = v * 10 + (unsigned long)(name[i] - '0');
		if (v > 0xffffffffu)
			return false;
	}
	*base = open;
	*element = v;
	return true;
}

/* The location (index: the index) of the output a name names in program pname, -1 if none. */
static GLint frag_data(GLuint pname, const GLchar *name, bool index)
{
	struct gles_context *ctx = gles_current();
	const struct gles_linked *l;
	GLint value = -1;
	size_t base;
	unsigned long element;

	if (!ctx)
		return -1;
	gles_programs_lock(ctx);
	l = linked_of(ctx, pname);
	if (!l || !name || !strncmp(name, "gl_", 3))
		goto out;
	for (unsigned i = 0; i < l->num_outputs; i++) {
		const struct gles_frag_output *o = &l->outputs[i];

		if (!strcmp(o->name, name)) {
			value = index ? (GLint)o->index : o->location;
		} else if (gles_split_subscript(name, &base, &element) && o->size > 1 &&
			   strlen(o->name) == base && !strncmp(o->name, name, base) &&
			   element < o->size) {
			value = index ? (GLint)o->index : o->location + (GLint)element;
		}
	}
out:
	gles_programs_unlock(ctx);
	return value;
}

GLint gles_GetFragDataLocation(GLuint pname, const GLchar *name)
{
	return frag_data(pname, name, false);
}

/* EXT_blend_func_extended */
GLint gles_GetFragDataIndexEXT(GLuint pname, const GLchar *name)
{
	return frag_data(pname, name, true);
}

/*
 * EXT_blend_func_extended: where the next link puts an output the shader
 * gives no location (ARB_blend_func_extended's rules): a draw buffer for
 * index 0, a dual-source one for index 1.
 */
void gles_BindFragDataLocationIndexedEXT(GLuint pname, GLuint colorNumber, GLuint index,
					 const GLchar *name)
{
	bind_name(pname, name, colorNumber, index,
		  index <= 1 && colorNumber < (index ? GLES_MAX_DUAL_SOURCE_DRAW_BUFFERS
						     : GLES_MAX_DRAW_BUFFERS),
		  true);
}

void gles_BindFragDataLocationEXT(GLuint pname, GLuint color, const GLchar *name)
{
	gles_BindFragDataLocationIndexedEXT(pname, color, 0, name);
}

/* ---- transform feedback varyings ------------------------------------------------- */

void gles_TransformFeedbackVaryings(GLuint pname, GLsizei count, const GLchar *const *varyings,
				    GLenum mode)
{
	struct gles_context *ctx = gles_current();
	struct gles_program *program;
	char **names;

	if (!ctx)
		return;
	gles_programs_lock(ctx);
	program = gles_lookup_program(ctx, pname);
	if (!program)
		goto out;
	if (mode != GL_INTERLEAVED_ATTRIBS && mode != GL_SEPARATE_ATTRIBS) {
		gles_error(ctx, GL_INVALID_ENUM);
		goto out;
	}
	if (count < 0 || (count > 0 && !varyings) ||
	    (mode == GL_SEPARATE_ATTRIBS && count > GLES_MAX_TRANSFORM_FEEDBACK_SEPARATE_ATTRIBS)) {
		gles_error(ctx, GL_INVALID_VALUE);
		goto out;
	}
	names = calloc(count ? (size_t)count : 1, sizeof(*names));
	for (GLsizei i = 0; names && i < count; i++) {
		if (!varyings[i] || !(names[i] = strdup(varyings[i]))) {
			for (GLsizei k = 0; k < i; k++)
				free(names[k]);
			free(names);
			gles_error(ctx, varyings[i] ? GL_OUT_OF_MEMORY : GL_INVALID_VALUE);
			goto out;
		}
	}
	if (!names) {
		gles_error(ctx, GL_OUT_OF_MEMORY);
		goto out;
	}
	free_xfb_names(program);
	program->xfb_names = names;
	program->num_xfb_names = (unsigned)count;
	program->xfb_mode = mode;
out:
	gles_programs_unlock(ctx);
}

void gles_GetTransformFeedbackVarying(GLuint pname, GLuint index, GLsizei buf_size, GLsizei *length,
				      GLsizei *size, GLenum *type, GLchar *name)
{
	struct gles_context *ctx = gles_current();
	struct gles_program *program;
	const struct gles_linked *l;

	if (!ctx)
		return;
	gles_programs_lock(ctx);
	program = gles_lookup_program(ctx, pname);
	if (!program)
		goto out;
	l = program->linked;
	if (!l || index >= l->num_xfb || buf_size < 0) {
		gles_error(ctx, GL_INVALID_VALUE);
		goto out;
	}
	gles_copy_name(l->xfb[index].name, buf_size, length, name);
	if (size)
		*size = (GLsizei)l->xfb[index].size;
	if (type)
		*type = l->xfb[index].type;
out:
	gles_programs_unlock(ctx);
}

/* ---- program binaries (section 2.11.4): NUM_PROGRAM_BINARY_FORMATS is 0 ---------------- */

void gles_GetProgramBinary(GLuint pname, GLsizei buf_size, GLsizei *length, GLenum *format,
			   void *binary)
{
	struct gles_context *ctx = gles_current();
	struct gles_program *program;

	(void)format;
	(void)binary;
	if (!ctx)
		return;
	gles_programs_lock(ctx);
	program = gles_lookup_program(ctx, pname);
	if (!program)
		goto out;
	if (buf_size < 0) {
		gles_error(ctx, GL_INVALID_VALUE);
		goto out;
	}
	if (!program->linked) {
		gles_error(ctx, GL_INVALID_OPERATION);
		goto out;
	}
	/* PROGRAM_BINARY_LENGTH is 0: no bytes, and no format to name */
	if (length)
		*length = 0;
out:
	gles_programs_unlock(ctx);
}

void gles_ProgramBinary(GLuint pname, GLenum format, const void *binary, GLsizei length)
{
	struct gles_context *ctx = gles_current();

	(void)format;
	(void)binary;
	if (!ctx)
		return;
	gles_programs_lock(ctx);
	if (gles_lookup_program(ctx, pname)) {
		/* no format is one this implementation knows */
		gles_error(ctx, length < 0 ? GL_INVALID_VALUE : GL_INVALID_ENUM);
	}
	gles_programs_unlock(ctx);
}

void gles_ProgramParameteri(GLuint pname, GLenum what, GLint value)
{
	struct gles_context *ctx = gles_current();
	struct gles_program *program;

	if (!ctx)
		return;
	gles_programs_lock(ctx);
	program = gles_lookup_program(ctx, pname);
	if (!program)
		goto out;
	if (what != GL_PROGRAM_BINARY_RETRIEVABLE_HINT) {
		gles_error(ctx, GL_INVALID_ENUM);
		goto out;
	}
	if (value != GL_FALSE && value != GL_TRUE) {
		gles_error(ctx, GL_INVALID_VALUE);
		goto out;
	}
	program->binary_retrievable = value;
out:
	gles_programs_unlock(ctx);
}

/* ---- glGet ------------------------------------------------------------------------- */

bool gles_programs_get(struct gles_context *ctx, GLenum pname, int index,
		       struct gles_get_value *out)
{
	if (index >= 0)
		return false;
	switch (pname) {
	case GL_CURRENT_PROGRAM:
		gles_programs_lock(ctx);
		gles_get_set_int(out,
				 ctx->program->program ? (GLint)ctx->program->program->name : 0);
		gles_programs_unlock(ctx);
		return true;
	case GL_NUM_SHADER_BINARY_FORMATS:
		gles_get_set_int(out, 0);
		return true;
	case GL_SHADER_BINARY_FORMATS:
		/* an empty list: nothing written, and no error */
		gles_get_set_ints(out, GLES_GET_ENUM, 0, NULL);
		return true;
	case GL_SHADER_COMPILER:
		gles_get_set_bool(out, true);
		return true;
	case GL_NUM_PROGRAM_BINARY_FORMATS:
		gles_get_set_int(out, 0);
		return true;
	case GL_PROGRAM_BINARY_FORMATS:
		gles_get_set_ints(out, GLES_GET_ENUM, 0, NULL);
		return true;
	default:
		return false;
	}
}
