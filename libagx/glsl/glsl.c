/*
 * glsl.c: the front end's use of glslang (its C interface): the version
 * gate, the check of a shader under its own version's rules (client
 * "none", ES profile), and SPIR-V from 3.10 source under OpenGL semantics
 * (client OpenGL 4.5, SPIR-V 1.0), with locations and bindings mapped.
 * Why these settings: docs/compiler.md, "Front end".
 *
 * glslang runs on a thread of our own with a stack of known size: its
 * parser and preprocessor recurse once per nesting level, and the limits
 * source.c enforces are sized against this stack, not the caller's.
 */
#include <errno.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include <glslang/Include/glslang_c_interface.h>
#include <glslang/Public/resource_limits_c.h>

#include "agx/spirv.h"
#include "glsl/lower.h"

#define COMPILE_STACK_SIZE (64u << 20)

const char *agx_glsl_stage_name(enum agx_glsl_stage stage)
{
	switch (stage) {
	case AGX_GLSL_VERTEX:
		return "vertex";
	case AGX_GLSL_FRAGMENT:
		return "fragment";
	case AGX_GLSL_COMPUTE:
		return "compute";
	}
	return "unknown";
}

/*
 * glslang_initialize_process builds glslang's global tables; it is called
 * once per process (pthread_once: safe from any thread) and never undone,
 * since any thread may compile at any time.
 */
static pthread_once_t glslang_once = PTHREAD_ONCE_INIT;

static void glslang_init(void)
{
	glslang_initialize_process();
}

/* glslang's defaults, with the values of the built-in constants GLSL ES sees (lower.h). */
static pthread_once_t resources_once = PTHREAD_ONCE_INIT;
static glslang_resource_t resources;

static void resources_init(void)
{
	glslang_resource_t *r = &resources;

	*r = *glslang_default_resource();
	r->max_vertex_attribs = AGX_GLSL_MAX_VERTEX_ATTRIBS;
	r->max_vertex_uniform_vectors = AGX_GLSL_MAX_VERTEX_UNIFORM_VECTORS;
	r->max_vertex_uniform_components = 4 * AGX_GLSL_MAX_VERTEX_UNIFORM_VECTORS;
	r->max_varying_vectors = AGX_GLSL_MAX_VARYING_VECTORS;
	r->max_varying_floats = 4 * AGX_GLSL_MAX_VARYING_VECTORS;
	r->max_varying_components = 4 * AGX_GLSL_MAX_VARYING_VECTORS;
	r->max_vertex_output_vectors = AGX_GLSL_MAX_VERTEX_OUTPUT_VECTORS;
	r->max_vertex_output_components = 4 * AGX_GLSL_MAX_VERTEX_OUTPUT_VECTORS;
	r->max_fragment_input_vectors = AGX_GLSL_MAX_FRAGMENT_INPUT_VECTORS;
	r->max_fragment_input_components = 4 * AGX_GLSL_MAX_FRAGMENT_INPUT_VECTORS;
	r->max_vertex_texture_image_units = AGX_GLSL_MAX_VERTEX_TEXTURE_UNITS;
	r->max_combined_texture_image_units = AGX_GLSL_MAX_COMBINED_TEXTURE_UNITS;
	r->max_texture_image_units = AGX_GLSL_MAX_TEXTURE_UNITS;
	r->max_fragment_uniform_vectors = AGX_GLSL_MAX_FRAGMENT_UNIFORM_VECTORS;
	r->max_fragment_uniform_components = 4 * AGX_GLSL_MAX_FRAGMENT_UNIFORM_VECTORS;
	r->max_draw_buffers = AGX_GLSL_MAX_DRAW_BUFFERS;
	r->min_program_texel_offset = AGX_GLSL_MIN_TEXEL_OFFSET;
	r->max_program_texel_offset = AGX_GLSL_MAX_TEXEL_OFFSET;
}

static glslang_stage_t glslang_stage(enum agx_glsl_stage stage)
{
	switch (stage) {
	case AGX_GLSL_VERTEX:
		return GLSLANG_STAGE_VERTEX;
	case AGX_GLSL_FRAGMENT:
		return GLSLANG_STAGE_FRAGMENT;
	case AGX_GLSL_COMPUTE:
		break;
	}
	return GLSLANG_STAGE_COMPUTE;
}

/*
 * The two ways we run glslang.  Checking: client "none", the ES profile,
 * and 1.00 when the shader has no #version, as GLSL ES says; glslang then
 * applies the shader's own version's rules, with no SPIR-V in view (it
 * would refuse ES before 3.10).  Generating: client OpenGL 4.5 (GL
 * SPIR-V, which keeps default-block uniforms; Vulkan's would refuse them),
 * SPIR-V 1.0 as ARB_gl_spirv takes it.
 */
static glslang_input_t make_input(enum agx_glsl_stage stage, const char *code, bool spirv)
{
	return (glslang_input_t){
		.language = GLSLANG_SOURCE_GLSL,
		.stage = glslang_stage(stage),
		.client = spirv ? GLSLANG_CLIENT_OPENGL : GLSLANG_CLIENT_NONE,
		.client_version = spirv ? GLSLANG_TARGET_OPENGL_450 : 0,
		.target_language = spirv ? GLSLANG_TARGET_SPV : GLSLANG_TARGET_NONE,
		.target_language_version = spirv ? GLSLANG_TARGET_SPV_1_0 : 0,
		.code = code,
		.default_version = 100,
		.default_profile = GLSLANG_ES_PROFILE,
		.force_default_version_and_profile = false,
		.forward_compatible = false,
		.messages = spirv ? GLSLANG_MSG_SPV_RULES_BIT : GLSLANG_MSG_DEFAULT_BIT,
		.resource = &resources,
	};
}

/* A log that grows: glslang's logs and ours, one after the other. */
static bool log_add(char **log, const char *s)
{
	size_t have = *log ? strlen(*log) : 0, n = s ? strlen(s) : 0;
	char *v = realloc(*log, have + n + 1);

	if (!v)
		return false;
	memcpy(v + have, s ? s : "", n);
	v[have + n] = '\0';
	*log = v;
	return true;
}

/* What one compile job gets and gives, run on the compile thread. */
struct job {
	enum agx_glsl_stage stage;
	const char *source;
	size_t length;
	bool want_spirv;

	int ret;
	int version;
	char *log;
	char *lowered;
	uint32_t *spirv;
	size_t spirv_words;
	struct agx_glsl_rename *renames;
	unsigned num_renames;
	bool invariant_all;
	char **placed;
	unsigned num_placed;
};

static bool version_allowed(enum agx_glsl_stage stage, int version)
{
	if (stage == AGX_GLSL_COMPUTE)
		return version == 310;
	return version == 100 || version == 300;
}

/* The version glslang's preprocessor wrote ("#version 300 es"), 100 without one. */
static int preprocessed_version(const char *code)
{
	char profile[8];

	return agx_glsl_source_version(code, strlen(code), profile, sizeof(profile));
}

/* An error of ours, in glslang's format; -ENOMEM when even that fails. */
static int fail(struct job *j, int ret, char *message)
{
	if (!message)
		return -ENOMEM;
	if (!log_add(&j->log, message))
		ret = -ENOMEM;
	free(message);
	return ret;
}

/* Whether text has line (its newline included) as one of its lines. */
static bool has_line(const char *text, const char *line)
{
	for (const char *at = strstr(text, line); at; at = strstr(at + 1, line)) {
		if (at == text || at[-1] == '\n')
			return true;
	}
	return false;
}

/*
 * glslang's log after parsing holds the preprocessor's messages, then the
 * parser's, and the parser reads the preprocessed code again and says
 * its directives' warnings twice.  A preprocessor line said again later
 * is kept once.
 */
static bool add_parse_log(struct job *j, const char *pre_log, const char *log)
{
	size_t n = strlen(pre_log);
	const char *rest = log, *line = pre_log;

	if (strncmp(log, pre_log, n))
		return log_add(&j->log, log);
	rest = log + n;
	while (*line) {
		const char *end = strchr(line, '\n');
		size_t length = end ? (size_t)(end - line) + 1 : strlen(line);
		char *copy = strndup(line, length);

		if (!copy || (!has_line(rest, copy) && !log_add(&j->log, copy))) {
			free(copy);
			return false;
		}
		free(copy);
		line += length;
	}
	return log_add(&j->log, rest);
}

/*
 * Whether every error of a link log is glslang's rule that several
 * fragment outputs all have locations.  That rule is the GL link's to
 * apply (EXT_blend_func_extended lets glBindFragDataLocationEXT give
 * them), and the lowering places such outputs (rule 16) so that the
 * SPIR-V can be made.
 */
static bool only_output_location_errors(const char *log)
{
	bool any = false;

	for (const char *p = log; p && *p;) {
		const char *end = strchr(p, '\n');
		size_t n = end ? (size_t)(end - p) : strlen(p);

		if (n >= 6 && !memcmp(p, "ERROR:", 6)) {
			if (!memmem(p, n, "all must have location qualifiers", 33))
				return false;
			any = true;
		}
		p += n + (end != NULL);
	}
	return any;
}

/*
 * A parse of the preprocessed code a rule rewrote (rule 22) in a shader
 * of its own (*out, the caller's to delete): glslang's C interface parses
 * the code its own preprocessor wrote, and has no way to replace it.  The
 * log is the first preprocessor's messages (pre_log: this preprocessor
 * reads code without macros and may say less), then the parse's.
 */
static int parse_rewritten(struct job *j, const char *code, const char *pre_log,
			   glslang_shader_t **out)
{
	glslang_input_t in = make_input(j->stage, code, false);
	glslang_shader_t *shader = glslang_shader_create(&in);
	const char *log;
	char *own_log, *joined;
	size_t own;
	int ret;

	*out = shader;
	if (!shader)
		return -ENOMEM;
	glslang_shader_set_preamble(shader, agx_glsl_extension_macros(j->version));
	if (!glslang_shader_preprocess(shader, &in))
		return log_add(&j->log, glslang_shader_get_info_log(shader)) ? -EINVAL : -ENOMEM;
	own_log = strdup(glslang_shader_get_info_log(shader));
	if (!own_log)
		return -ENOMEM;
	own = strlen(own_log);
	ret = glslang_shader_parse(shader, &in) ? 0 : -EINVAL;
	log = glslang_shader_get_info_log(shader);
	if (!strncmp(log, own_log, own))
		log += own;
	free(own_log);
	joined = agx_glsl_format("%s%s", pre_log, log);
	if (!joined || !add_parse_log(j, pre_log, joined))
		ret = -ENOMEM;
	free(joined);
	return ret;
}

/*
 * The check, under the shader's own version: preprocess, look at what the
 * preprocessor made, parse; and with to_spirv a link, which needs main().
 * *preprocessed (malloc'd) gets the preprocessed code of a valid shader,
 * as rule 22 rewrote it: what glslang parsed.
 */
static int check_shader(struct job *j, const char *code, char **preprocessed)
{
	glslang_input_t in = make_input(j->stage, code, false);
	glslang_shader_t *shader = glslang_shader_create(&in);
	glslang_shader_t *rewritten = NULL;
	glslang_program_t *program = NULL;
	char *error, *pre = NULL, *pre_log = NULL;
	int ret = -EINVAL;

	*preprocessed = NULL;
	if (!shader)
		return -ENOMEM;
	/* the extensions extensions.c and fetch.c implement have their macros */
	if (j->stage != AGX_GLSL_COMPUTE)
		glslang_shader_set_preamble(shader, agx_glsl_extension_macros(j->version));
	if (!glslang_shader_preprocess(shader, &in)) {
		if (!log_add(&j->log, glslang_shader_get_info_log(shader)))
			ret = -ENOMEM;
		goto out;
	}
	pre = strdup(glslang_shader_get_preprocessed_code(shader));
	pre_log = strdup(glslang_shader_get_info_log(shader));
	if (!pre || !pre_log) {
		ret = -ENOMEM;
		goto out;
	}
	if (preprocessed_version(pre) != j->version) {
		ret = fail(j, -EINVAL,
			   agx_glsl_format("ERROR: 0:0: '#version' : not read as %d by the "
					   "preprocessor\n",
					   j->version));
		goto out;
	}
	if (!agx_glsl_preprocessed_check(pre, strlen(pre), &error)) {
		ret = fail(j, -EINVAL, error);
		goto out;
	}
	ret = agx_glsl_constant_sequences(j->version, &pre);
	if (ret < 0)
		goto out;
	if (ret) {
		ret = parse_rewritten(j, pre, pre_log, &rewritten);
		if (ret == -ENOMEM)
			goto out;
	} else {
		ret = glslang_shader_parse(shader, &in) ? 0 : -EINVAL;
		if (!add_parse_log(j, pre_log, glslang_shader_get_info_log(shader)))
			ret = -ENOMEM;
	}
	if (!ret && j->want_spirv) {
		program = glslang_program_create();
		if (!program) {
			ret = -ENOMEM;
			goto out;
		}
		glslang_program_add_shader(program, rewritten ? rewritten : shader);
		if (!glslang_program_link(program, GLSLANG_MSG_DEFAULT_BIT) &&
		    !(j->stage == AGX_GLSL_FRAGMENT &&
		      only_output_location_errors(glslang_program_get_info_log(program)))) {
			ret = log_add(&j->log, glslang_program_get_info_log(program)) ? -EINVAL
										      : -ENOMEM;
		}
	}
	if (!ret) {
		*preprocessed = pre;
		pre = NULL;
	}
out:
	if (program)
		glslang_program_delete(program);
	if (rewritten)
		glslang_shader_delete(rewritten);
	glslang_shader_delete(shader);
	free(pre_log);
	free(pre);
	return ret;
}

/*
 * Rules of 1.00 and 3.00 that glslang leaves unchecked are the lowering's
 * (gl_FragColor or gl_FragData; no invariant(all) in a 3.00 fragment
 * shader), so a check lowers as well.  A
 * lowering that cannot go further (-ENOTSUP) says nothing of validity.
 */
static int lower_shader(struct job *j, const char *preprocessed, const struct agx_glsl_fetch *fetch,
			struct agx_glsl_lowered *l)
{
	int ret =
	    agx_glsl_lower(j->stage, j->version, preprocessed, strlen(preprocessed), fetch, l);

	if (ret == -EINVAL) {
		if (!log_add(&j->log, l->error))
			ret = -ENOMEM;
	} else if (ret == -ENOTSUP) {
		ret = fail(j, -ENOTSUP,
			   agx_glsl_format("ERROR: 0:0: '' : no lowering of %s shaders of "
					   "version %d\n",
					   agx_glsl_stage_name(j->stage), j->version));
	}
	return ret;
}

/* Whether type (a type's id) is or holds a boolean: arrays, structs, vectors of them. */
static bool holds_bool(const struct agx_spirv_module *m, uint32_t type, unsigned depth)
{
	const struct agx_spirv_inst *t = agx_spirv_def(m, type);

	if (!t || depth > 16)
		return false;
	switch (t->opcode) {
	case SpvOpTypeBool:
		return true;
	case SpvOpTypeVector:
	case SpvOpTypeArray:
		return holds_bool(m, agx_spirv_operand(t, 0), depth + 1);
	case SpvOpTypeStruct:
		for (unsigned i = 0; i < agx_spirv_num_operands(t); i++)
			if (holds_bool(m, agx_spirv_operand(t, i), depth + 1))
				return true;
		return false;
	default:
		return false;
	}
}

/*
 * Whether a module declares a default-block uniform that holds a boolean.
 * GLSL ES allows them, and glslang's GL SPIR-V carries them as OpTypeBool
 * in UniformConstant (ARB_gl_spirv has them so); spirv-tools' validator
 * applies its rule against booleans in externally visible storage (a
 * Vulkan one) under OpenGL 4.5 rules too, and refuses the module.  The
 * translator reads such a uniform as 32-bit words (non-zero is true).
 */
static bool has_bool_uniform(const uint32_t *words, size_t count)
{
	struct agx_spirv_module m;
	bool found = false;
	char why[128];

	if (agx_spirv_parse(words, count, &m, why, sizeof(why)) < 0)
		return false;
	for (size_t i = 0; i < m.num_insts && !found; i++) {
		const struct agx_spirv_inst *in = &m.insts[i];
		const struct agx_spirv_inst *ptr;

		if (in->opcode != SpvOpVariable || agx_spirv_num_operands(in) < 1 ||
		    agx_spirv_operand(in, 0) != SpvStorageClassUniformConstant)
			continue;
		ptr = agx_spirv_def(&m, in->type);
		found = ptr && ptr->opcode == SpvOpTypePointer &&
			agx_spirv_num_operands(ptr) >= 2 &&
			holds_bool(&m, agx_spirv_operand(ptr, 1), 0);
	}
	agx_spirv_module_finish(&m);
	return found;
}

/*
 * SPIR-V of a 3.10 source.  A failure here is ours (the lowering) or a
 * limit of glslang's GL SPIR-V back end, not the shader's: -ENOTSUP.
 */
static int make_spirv(struct job *j, const char *code)
{
	glslang_input_t in = make_input(j->stage, code, true);
	glslang_spv_options_t options = {
		.disable_optimizer = true, /* the back end optimizes; names stay */
		.validate = true,	   /* spirv-tools' validator, OpenGL 4.5 rules */
	};
	glslang_shader_t *shader = glslang_shader_create(&in);
	glslang_program_t *program = NULL;
	const char *messages;
	int ret = -ENOTSUP;

	if (!shader)
		return -ENOMEM;
	glslang_shader_set_options(shader, GLSLANG_SHADER_AUTO_MAP_LOCATIONS |
					       GLSLANG_SHADER_AUTO_MAP_BINDINGS);
	if (!glslang_shader_preprocess(shader, &in) || !glslang_shader_parse(shader, &in)) {
		log_add(&j->log,
			"ERROR: 0:0: '' : the shader as 3.10 did not compile for SPIR-V:\n");
		log_add(&j->log, glslang_shader_get_info_log(shader));
		goto out;
	}
	program = glslang_program_create();
	if (!program) {
		ret = -ENOMEM;
		goto out;
	}
	glslang_program_add_shader(program, shader);
	if (!glslang_program_link(program, GLSLANG_MSG_SPV_RULES_BIT) ||
	    !glslang_program_map_io(program)) {
		log_add(&j->log, "ERROR: 0:0: '' : the shader as 3.10 did not link for SPIR-V:\n");
		log_add(&j->log, glslang_program_get_info_log(program));
		goto out;
	}
	glslang_program_SPIRV_generate_with_options(program, in.stage, &options);
	messages = glslang_program_SPIRV_get_messages(program);
	if (messages && strstr(messages, "error") &&
	    !has_bool_uniform(glslang_program_SPIRV_get_ptr(program),
			      glslang_program_SPIRV_get_size(program))) {
		log_add(&j->log, "ERROR: 0:0: '' : glslang's SPIR-V did not validate:\n");
		log_add(&j->log, messages);
		goto out;
	}
	j->spirv_words = glslang_program_SPIRV_get_size(program);
	j->spirv = malloc((j->spirv_words ? j->spirv_words : 1) * sizeof(uint32_t));
	if (!j->spirv) {
		ret = -ENOMEM;
		goto out;
	}
	if (j->spirv_words)
		memcpy(j->spirv, glslang_program_SPIRV_get_ptr(program),
		       j->spirv_words * sizeof(uint32_t));
	ret = j->spirv_words >= 5 && j->spirv[0] == 0x07230203 ? 0 : -ENOTSUP;
out:
	if (program)
		glslang_program_delete(program);
	glslang_shader_delete(shader);
	return ret;
}

static int run_job(struct job *j)
{
	struct agx_glsl_lowered lowered = { 0 };
	struct agx_glsl_fetch fetch = { 0 };
	char profile[16], *code, *error, *preprocessed = NULL;
	int ret;

	j->version = agx_glsl_source_version(j->source, j->length, profile, sizeof(profile));
	if (!version_allowed(j->stage, j->version)) {
		return fail(
		    j, -EINVAL,
		    agx_glsl_format("ERROR: 0:0: '#version' : %s shaders take %s, not "
				    "this #version\n",
				    agx_glsl_stage_name(j->stage),
				    j->stage == AGX_GLSL_COMPUTE ? "310 es" : "100 or 300 es"));
	}
	if (!agx_glsl_source_check(j->source, j->length, &error))
		return fail(j, -EINVAL, error);

	/* glslang reads a NUL-terminated string; source_check found no NUL inside */
	code = agx_glsl_source_version_first(j->source, j->length);
	if (!code)
		return -ENOMEM;
	agx_glsl_source_defined_builtins(code);
	ret = agx_glsl_source_extensions(j->stage, j->version, &code);
	if (!ret)
		ret = agx_glsl_fetch_prepare(j->stage, j->version, &code, &fetch, &error);
	if (ret == -EINVAL)
		ret = fail(j, -EINVAL, error);
	if (!ret)
		ret = check_shader(j, code, &preprocessed);
	if (!ret && j->stage != AGX_GLSL_COMPUTE) {
		ret = agx_glsl_size_distances(&preprocessed, &error);
		if (ret == -EINVAL)
			ret = fail(j, -EINVAL, error);
	}
	if (!ret && j->stage != AGX_GLSL_COMPUTE) {
		ret = lower_shader(j, preprocessed, &fetch, &lowered);
		if (ret == -ENOTSUP && !j->want_spirv)
			ret = 0; /* valid, whatever the lowering does not take */
	}
	if (!ret && j->want_spirv) {
		ret = make_spirv(j, j->stage == AGX_GLSL_COMPUTE ? code : lowered.source);
		/* the lowered source and the renames are the caller's, with SPIR-V or not */
		j->lowered = lowered.source;
		j->renames = lowered.renames;
		j->num_renames = lowered.num_renames;
		j->invariant_all = lowered.invariant_all;
		j->placed = lowered.placed;
		j->num_placed = lowered.num_placed;
		lowered.placed = NULL;
		lowered.num_placed = 0;
		lowered.source = NULL;
		lowered.renames = NULL;
		lowered.num_renames = 0;
	}
	agx_glsl_lowered_finish(&lowered);
	agx_glsl_fetch_finish(&fetch);
	free(preprocessed);
	free(code);
	return ret;
}

static void *job_thread(void *arg)
{
	struct job *j = arg;

	j->ret = run_job(j);
	return NULL;
}

static int run(struct job *j)
{
	pthread_attr_t attr;
	pthread_t thread;
	int err;

	pthread_once(&glslang_once, glslang_init);
	pthread_once(&resources_once, resources_init);
	if (pthread_attr_init(&attr))
		return -ENOMEM;
	err = pthread_attr_setstacksize(&attr, COMPILE_STACK_SIZE);
	if (!err)
		err = pthread_create(&thread, &attr, job_thread, j);
	pthread_attr_destroy(&attr);
	if (err) {
		log_add(&j->log, "ERROR: 0:0: '' : no thread to compile on\n");
		return err == EAGAIN ? -EAGAIN : -ENOMEM;
	}
	pthread_join(thread, NULL);
	return j->ret;
}

int agx_glsl_check(enum agx_glsl_stage stage, const char *source, size_t length,
		   struct agx_glsl_log *log)
{
	struct job j = { .stage = stage, .source = source, .length = length };
	int ret = run(&j);

	log->version = j.version;
	log->text = j.log ? j.log : strdup("");
	return ret;
}

void agx_glsl_log_finish(struct agx_glsl_log *log)
{
	free(log->text);
	log->text = NULL;
}

int agx_glsl_to_spirv(enum agx_glsl_stage stage, const char *source, size_t length,
		      struct agx_glsl_result *out)
{
	struct job j = { .stage = stage, .source = source, .length = length, .want_spirv = true };
	int ret = run(&j);

	memset(out, 0, sizeof(*out));
	out->log.version = j.version;
	out->log.text = j.log ? j.log : strdup("");
	out->lowered = j.lowered;
	out->renames = j.renames;
	out->num_renames = j.num_renames;
	out->invariant_all = j.invariant_all;
	out->placed = j.placed;
	out->num_placed = j.num_placed;
	if (ret) {
		free(j.spirv);
		return ret;
	}
	out->spirv = j.spirv;
	out->spirv_words = j.spirv_words;
	return 0;
}

void agx_glsl_result_finish(struct agx_glsl_result *r)
{
	agx_glsl_log_finish(&r->log);
	for (unsigned i = 0; i < r->num_renames; i++) {
		free(r->renames[i].original);
		free(r->renames[i].lowered);
	}
	free(r->renames);
	for (unsigned i = 0; i < r->num_placed; i++)
		free(r->placed[i]);
	free(r->placed);
	free(r->lowered);
	free(r->spirv);
	memset(r, 0, sizeof(*r));
}

bool agx_glsl_placed(const struct agx_glsl_result *r, const char *original)
{
	for (unsigned i = 0; i < r->num_placed; i++)
		if (!strcmp(r->placed[i], original))
			return true;
	return false;
}

const char *agx_glsl_original_name(const struct agx_glsl_result *r, const char *lowered)
{
	for (unsigned i = 0; i < r->num_renames; i++) {
		if (!strcmp(r->renames[i].lowered, lowered))
			return r->renames[i].original;
	}
	return lowered;
}

char *agx_glsl_original_path(const struct agx_glsl_result *r, const char *lowered)
{
	size_t cap = strlen(lowered) + 1, n = 0;
	char *out = malloc(cap);

	if (!out)
		return NULL;
	for (const char *p = lowered; *p;) {
		size_t len = strcspn(p, ".[]"), piece_len = len ? len : 1;
		const char *piece = p;

		for (unsigned i = 0; len && i < r->num_renames; i++) {
			if (strlen(r->renames[i].lowered) == len &&
			    !strncmp(r->renames[i].lowered, p, len)) {
				piece = r->renames[i].original;
				piece_len = strlen(piece);
				break;
			}
		}
		if (n + piece_len + 1 > cap) {
			char *grown = realloc(out, cap = 2 * (n + piece_len + 1));

			if (!grown) {
				free(out);
				return NULL;
			}
			out = grown;
		}
		memcpy(out + n, piece, piece_len);
		n += piece_len;
		p += len ? len : 1;
	}
	out[n] = '\0';
	return out;
}

const char *agx_glsl_lowered_name(const struct agx_glsl_result *r, const char *original)
{
	for (unsigned i = 0; i < r->num_renames; i++) {
		if (!strcmp(r->renames[i].original, original))
			return r->renames[i].lowered;
	}
	return original;
}
