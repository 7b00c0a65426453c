/*
 * program.h: shader and program objects (GLES 3.0.6 sections 2.11, 2.12,
 * 6.1.12) -- the share group's one namespace of both, a shader's source,
 * compile result and log, a program's attachments, the link-time settings
 * (attribute bindings, transform feedback varyings) and its executable:
 * each stage's SPIR-V and machine code, and what the link made of their
 * interfaces (attributes, fragment outputs, varyings, uniforms and their
 * storage, uniform blocks, captured varyings).
 *
 * shader.c owns shader objects and the namespace, program.c program
 * objects and their queries, program_link.c glLinkProgram, uniform.c the
 * uniform values.  All of it is guarded by the namespace's lock.
 */
#ifndef GLES_PROGRAM_H
#define GLES_PROGRAM_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

#include <GLES3/gl3.h>

#include "agx/compiler.h"
#include "agx/glsl.h"
#include "limits.h"
#include "names.h"

struct gles_context;
struct gles_share_group;

/* What a name of the namespace is: the first member of both kinds of object. */
enum gles_program_object_kind {
	GLES_OBJECT_SHADER = 1,
	GLES_OBJECT_PROGRAM,
};

/* The share group's namespace of shaders and programs (GLES 3.0.6 section 2.11.1: one for both). */
struct gles_programs {
	pthread_mutex_t lock;
	struct gles_names names;
};

/*
 * Creates group->programs: 0 or -ENOMEM.  finish frees every object left in
 * it (the last context of the group is gone); a NULL namespace is a no-op.
 */
int gles_programs_init(struct gles_share_group *group);
void gles_programs_finish(struct gles_share_group *group);

/*
 * What a successful glCompileShader made: the front end's result (the
 * SPIR-V, the renamed identifiers, the lowered source).  Refcounted: a
 * program linked from it keeps it when the shader is recompiled or
 * deleted.
 */
struct gles_shader_code {
	unsigned refs;
	enum agx_shader_stage stage;
	int version; /* 100 or 300 */
	/*
	 * 0, or -ENOTSUP: valid GLSL ES that the front end cannot make SPIR-V
	 * of yet (glsl.log says what); a program that links it fails.
	 */
	int status;
	struct agx_glsl_result glsl;
	char *source; /* the text compiled (the link reads a 1.00 fragment shader's invariance) */
};

struct gles_shader_code *gles_shader_code_ref(struct gles_shader_code *code);
void gles_shader_code_unref(struct gles_shader_code *code);

struct gles_shader {
	enum gles_program_object_kind kind; /* GLES_OBJECT_SHADER */
	GLuint name;
	GLenum type;	      /* GL_VERTEX_SHADER, GL_FRAGMENT_SHADER */
	unsigned attachments; /* programs it is attached to */
	bool delete_pending;  /* glDeleteShader while attached (section 2.11.1) */
	char *source;	      /* NULL: none given */
	size_t source_length;
	bool compiled;		       /* COMPILE_STATUS */
	char *log;		       /* NULL: empty */
	struct gles_shader_code *code; /* of the last successful compile, or NULL */
	char *label;		       /* KHR_debug's (debug.c), NULL for none */
};

/* ---- the executable ------------------------------------------------------------------- */

enum { GLES_STAGE_VERTEX, GLES_STAGE_FRAGMENT, GLES_STAGES };

/* One stage of an executable. */
struct gles_program_stage {
	struct gles_shader_code *code;
	/*
	 * Machine code and reflection of the SPIR-V (agx_compile_spirv with
	 * default options: a fragment shader for one RGBA8 target; the draw
	 * code compiles the variants it needs from code's SPIR-V).  The
	 * reflection's names are the SPIR-V's (the lowered ones).
	 */
	struct agx_shader_binary binary;
	/*
	 * The SPIR-V the variants compile: code's, or (when not NULL) a copy
	 * whose interface Locations the link rewrote -- the attributes'
	 * locations glBindAttribLocation or the linker chose, in place of the
	 * placeholders glslang gave (program_link.c, "relocation").
	 */
	uint32_t *spirv;
	size_t spirv_words;
	/*
	 * The default-block uniforms as the stage's uniform registers hold
	 * them (docs/compiler.md, "The uniform-register ABI"): the std140
	 * block of uniform_size bytes, word i for register first_uniform + i
	 * (or, with binary.info.uniform_block_uniform >= 0, a buffer of them).
	 * glUniform* writes here.
	 */
	uint32_t *uniform_data;
	unsigned uniform_size;
	int first_uniform; /* -1 when the block is empty or in memory */
	/* Texture unit (the sampler uniform's value) of each texture state register tsN */
	GLint units[GLES_MAX_TEXTURE_IMAGE_UNITS];
	unsigned num_units;
};

/* A uniform as glGetActiveUniform lists it: a basic type or sampler, or an array of one. */
struct gles_uniform {
	char *name;	      /* "a[0]" for an array */
	unsigned base_length; /* of the name without that "[0]" */
	GLenum type;
	unsigned size; /* array elements; 1 if not an array */
	bool is_array;
	bool relaxed; /* mediump or lowp (RelaxedPrecision): link checks between stages */
	int block;    /* the uniform block it is a member of, -1 for the default block */
	/* Block members: the layout (section 2.12.6.2); default block: -1, -1, -1, false */
	int offset, array_stride, matrix_stride;
	bool row_major;
	/* Default block: the location of element 0, the others follow; -1 in a block */
	int location;
	/*
	 * Default block, not a sampler: each stage's byte offset of element 0
	 * in its uniform_data (-1: the stage has no such uniform); elements
	 * elem_stride bytes apart, matrix columns 16.
	 */
	int stage_offset[GLES_STAGES];
	unsigned elem_stride;
	/* Samplers: each stage's texture state register of element 0 (-1: none), and the values */
	int stage_unit[GLES_STAGES];
	GLint *units;
};

struct gles_uniform_block {
	char *name;
	unsigned data_size;
	GLuint binding;			      /* glUniformBlockBinding's, 0 initially */
	unsigned first_uniform, num_uniforms; /* its members, contiguous in uniforms[] */
	/* Each stage's var in binary.info.vars (whose uniform pair takes the buffer's address), or
	 * -1 */
	int stage_var[GLES_STAGES];
};

struct gles_attribute {
	char *name;
	GLenum type;
	int location; /* first of its locations (a matrix takes one per column) */
	unsigned locations;
	int var; /* the vertex stage's var (its uniform registers take the array's address) */
};

struct gles_frag_output {
	char *name; /* the shader's own (a 1.00 shader's gl_FragColor/gl_FragData) */
	GLenum type;
	unsigned size; /* array elements, 1 if not an array */
	int location;
	unsigned index; /* EXT_blend_func_extended: 1 for the second blend source */
};

/* A fragment input and the vertex output it reads (matched by name, section 2.11.7). */
struct gles_varying {
	int vertex_var, fragment_var; /* in each stage's binary.info.vars */
};

/* A captured varying (section 2.15.1), in the order glTransformFeedbackVaryings gave. */
struct gles_xfb_varying {
	char *name;
	GLenum type;
	unsigned size;	     /* array elements captured (1 for "a[2]" or a non-array) */
	int vertex_var;	     /* the vertex output var */
	unsigned first_word; /* 32-bit word of the var's slots the capture starts at */
	unsigned components; /* 32-bit words captured */
	unsigned width;	     /* 32-bit words of each location the var covers (a matrix's column) */
};

struct gles_linked {
	unsigned refs;
	int version; /* of the shaders: 100 or 300 */
	struct gles_program_stage stages[GLES_STAGES];

	struct gles_attribute *attributes;
	unsigned num_attributes;
	struct gles_frag_output *outputs;
	unsigned num_outputs;
	struct gles_varying *varyings;
	unsigned num_varyings;

	struct gles_uniform *uniforms;
	unsigned num_uniforms;
	/* location -> uniform and element */
	struct gles_uniform_location {
		unsigned uniform, element;
	} * locations;
	unsigned num_locations;
	struct gles_uniform_block *blocks;
	unsigned num_blocks;

	struct gles_xfb_varying *xfb;
	unsigned num_xfb;
	GLenum xfb_mode;
};

struct gles_linked *gles_linked_ref(struct gles_linked *linked);
void gles_linked_unref(struct gles_linked *linked);

struct gles_program {
	enum gles_program_object_kind kind; /* GLES_OBJECT_PROGRAM */
	GLuint name;
	unsigned uses;	     /* contexts it is current in */
	bool delete_pending; /* glDeleteProgram while current (section 2.11.3) */
	struct gles_shader *shaders[GLES_STAGES];
	char *log;
	bool validated;
	bool binary_retrievable;
	/*
	 * glBindAttribLocation's (index 0), and EXT_blend_func_extended's
	 * glBindFragDataLocation(Indexed)EXT's, used by the next link
	 */
	struct gles_name_binding {
		char *name;
		GLuint location, index;
	} * bindings, *frag_bindings;
	unsigned num_bindings, num_frag_bindings;
	/* glTransformFeedbackVaryings', used by the next link */
	char **xfb_names;
	unsigned num_xfb_names;
	GLenum xfb_mode;
	/* The last successful link's executable; NULL before one and after a failed one */
	struct gles_linked *linked;
	char *label; /* KHR_debug's (debug.c), NULL for none */
};

/* The context's part: its current program (section 2.11.3, glUseProgram). */
struct gles_program_binding {
	struct gles_program *program;
	/*
	 * The executable to draw with: the program's, or the one it had when
	 * a relink failed (section 2.11.3: a failed relink leaves the current
	 * executable in use until the next glUseProgram).
	 */
	struct gles_linked *linked;
};

/* Creates ctx->program (no program current): 0 or -ENOMEM.  finish unbinds; NULL is a no-op. */
int gles_program_context_init(struct gles_context *ctx);
void gles_program_context_finish(struct gles_context *ctx);

/*
 * The executable the context draws with, NULL when none.  The caller holds
 * the namespace's lock (gles_programs_lock) while it uses it.
 */
struct gles_linked *gles_program_current_linked(struct gles_context *ctx);

void gles_programs_lock(struct gles_context *ctx);
void gles_programs_unlock(struct gles_context *ctx);

/* ---- shared by the module's files ---------------------------------------------------- */

/* The shader or program of name, recording the spec's errors when it is not one (lock held). */
struct gles_shader *gles_lookup_shader(struct gles_context *ctx, GLuint name);
struct gles_program *gles_lookup_program(struct gles_context *ctx, GLuint name);

/* Makes a name for object: 0 when out of memory (GL_OUT_OF_MEMORY recorded; lock held). */
GLuint gles_programs_add(struct gles_context *ctx, void *object);
/* Frees a program and its executable, releasing its shaders (lock held; its name is the caller's).
 */
void gles_program_free(struct gles_programs *programs, struct gles_program *program);

/* Frees a shader whose deletion was pending once the last program lets it go (lock held). */
void gles_shader_release(struct gles_programs *programs, struct gles_shader *shader);

/*
 * glGet*'s name copy (section 6.1.12): up to buf_size - 1 bytes of s and
 * a NUL, *length (when not NULL) the bytes copied before the NUL.
 */
void gles_copy_name(const char *s, GLsizei buf_size, GLsizei *length, GLchar *out);

/*
 * glLinkProgram's work (program_link.c): the executable of the attached
 * shaders, or NULL with the reasons in *log (malloc'd).
 */
struct gles_linked *gles_program_link(struct gles_program *program, char **log);
/*
 * The executable of two GLSL ES sources of the driver's own (clears and
 * other draws it makes): compiled and linked as an application's would
 * be, outside any namespace.  NULL (the logs on stderr) when they do not
 * build.  The caller holds the one reference.
 */
struct gles_linked *gles_program_link_internal(const char *vs, const char *fs);

/*
 * An element of an array named "name[N]": the length of "name" and N,
 * or false when name does not end in a decimal subscript without leading
 * zeros (program.c).
 */
bool gles_split_subscript(const char *name, size_t *base, unsigned long *element);

/* Whether the type is a sampler type */
bool gles_type_is_sampler(GLenum type);
/* 32-bit components of one element of a basic type (a mat3 has 9); 0 for samplers */
unsigned gles_type_components(GLenum type);

#endif
