/*
 * agx_compile.c: the compiler's public entry points (agx/compiler.h): runs
 * the stages of agx_compile.h one after the other and maps the
 * reflection's names back to the shader's own.  agx_binary.c has the rest
 * of the binary's functions.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "agx/glsl.h"
#include "agx_compile.h"

static enum agx_ir_stage ir_stage(enum agx_shader_stage stage)
{
	switch (stage) {
	case AGX_SHADER_VERTEX:
		return AGX_IR_STAGE_VERTEX;
	case AGX_SHADER_FRAGMENT:
		return AGX_IR_STAGE_FRAGMENT;
	case AGX_SHADER_COMPUTE:
		break;
	}
	return AGX_IR_STAGE_COMPUTE;
}

static bool stage_known(enum agx_shader_stage stage)
{
	return stage == AGX_SHADER_VERTEX || stage == AGX_SHADER_FRAGMENT ||
	       stage == AGX_SHADER_COMPUTE;
}

int agx_compile_spirv(enum agx_shader_stage stage, const uint32_t *words, size_t num_words,
		      const struct agx_compile_options *options, struct agx_shader_binary *out)
{
	static const struct agx_compile_options defaults;
	struct agx_ir_shader *shader = NULL;
	char *log = NULL;
	int ret;

	memset(out, 0, sizeof(*out));
	out->info.stage = stage;
	out->info.num_workgroups_uniform = -1;
	out->info.uniform_block_uniform = -1;
	out->info.blend_constant_uniform = -1;
	out->info.xfb_uniform = -1;
	out->info.spill_textures = -1;
	if (!options)
		options = &defaults;
	if (!stage_known(stage) || (!words && num_words)) {
		out->log = strdup("no such shader stage, or no SPIR-V");
		return -EINVAL;
	}

	ret = agx_spirv_to_ir(words, num_words, ir_stage(stage), &shader, &log);
	if (ret < 0)
		goto out;
	agx_ir_shader_dump(options->ir_dump, "translated", shader);
	agx_optimize(shader, options->ir_dump);
	ret = agx_backend_compile(shader, options, out, &log);
	if (ret == 0)
		out->info.stage = stage;

out:
	agx_ir_shader_destroy(shader);
	if (ret < 0) {
		free(out->log);
		out->log = log ? log : strdup(strerror(-ret));
	} else {
		free(log);
	}
	return ret;
}

static enum agx_glsl_stage glsl_stage(enum agx_shader_stage stage)
{
	switch (stage) {
	case AGX_SHADER_VERTEX:
		return AGX_GLSL_VERTEX;
	case AGX_SHADER_FRAGMENT:
		return AGX_GLSL_FRAGMENT;
	case AGX_SHADER_COMPUTE:
		break;
	}
	return AGX_GLSL_COMPUTE;
}

/* The lowering renamed some identifiers; reflection gives the shader's own. */
static int restore_names(struct agx_shader_info *info, const struct agx_glsl_result *glsl)
{
	/* a struct varying's leaves are paths too ("s.f", "s[1].f") */
	for (unsigned i = 0; i < info->num_vars; i++) {
		struct agx_shader_var *var = &info->vars[i];
		char *name;

		if (!var->name)
			continue;
		name = agx_glsl_original_path(glsl, var->name);
		if (!name)
			return -ENOMEM;
		free(var->name);
		var->name = name;
	}
	for (unsigned i = 0; i < info->num_uniform_leaves; i++) {
		char *name = agx_glsl_original_path(glsl, info->uniform_leaves[i].name);

		if (!name)
			return -ENOMEM;
		free(info->uniform_leaves[i].name);
		info->uniform_leaves[i].name = name;
	}
	return 0;
}

int agx_compile_glsl(enum agx_shader_stage stage, const char *source, size_t length,
		     const struct agx_compile_options *options, struct agx_shader_binary *out)
{
	struct agx_glsl_result glsl;
	int ret;

	memset(out, 0, sizeof(*out));
	if (!stage_known(stage)) {
		out->log = strdup("no such shader stage");
		return -EINVAL;
	}
	ret = agx_glsl_to_spirv(glsl_stage(stage), source, length, &glsl);
	if (ret < 0) {
		out->log = strdup(glsl.log.text ? glsl.log.text : strerror(-ret));
		agx_glsl_result_finish(&glsl);
		return ret;
	}
	ret = agx_compile_spirv(stage, glsl.spirv, glsl.spirv_words, options, out);
	if (ret == 0)
		ret = restore_names(&out->info, &glsl);
	agx_glsl_result_finish(&glsl);
	return ret;
}
