/*
 * agx_codegen.c: the back end's stages in order on lowered IR -- selection,
 * allocation, waits, encoding -- and the reflection the binary carries
 * (agx/compiler.h's struct agx_shader_info).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "agx_mir.h"

static enum agx_shader_stage stage_of(enum agx_ir_stage stage)
{
	switch (stage) {
	case AGX_IR_STAGE_VERTEX:
		return AGX_SHADER_VERTEX;
	case AGX_IR_STAGE_FRAGMENT:
		return AGX_SHADER_FRAGMENT;
	case AGX_IR_STAGE_COMPUTE:
		break;
	}
	return AGX_SHADER_COMPUTE;
}

static enum agx_shader_var_kind kind_of(enum agx_ir_var_kind kind)
{
	switch (kind) {
	case AGX_IR_VAR_INPUT:
		return AGX_SHADER_INPUT;
	case AGX_IR_VAR_OUTPUT:
		return AGX_SHADER_OUTPUT;
	case AGX_IR_VAR_UNIFORM:
		return AGX_SHADER_UNIFORM;
	case AGX_IR_VAR_UBO:
		return AGX_SHADER_UNIFORM_BLOCK;
	case AGX_IR_VAR_SSBO:
		return AGX_SHADER_STORAGE_BLOCK;
	case AGX_IR_VAR_SAMPLER:
		return AGX_SHADER_SAMPLER;
	case AGX_IR_VAR_SHARED:
		break;
	}
	return AGX_SHADER_SHARED;
}

static enum agx_shader_interp interp_of(enum agx_ir_interp interp)
{
	switch (interp) {
	case AGX_IR_INTERP_FLAT:
		return AGX_SHADER_FLAT;
	case AGX_IR_INTERP_CENTROID:
		return AGX_SHADER_CENTROID;
	case AGX_IR_INTERP_NOPERSPECTIVE:
		return AGX_SHADER_NOPERSPECTIVE;
	case AGX_IR_INTERP_SMOOTH:
		break;
	}
	return AGX_SHADER_SMOOTH;
}

static char *dup(const char *s)
{
	return strdup(s ? s : "");
}

static int copy_leaves(struct agx_ir_shader *shader, struct agx_shader_info *info)
{
	info->uniform_leaves =
	    calloc(shader->num_leaves ? shader->num_leaves : 1, sizeof(*info->uniform_leaves));
	if (!info->uniform_leaves)
		return -ENOMEM;
	for (unsigned i = 0; i < shader->num_leaves; i++) {
		const struct agx_ir_uniform_leaf *l = &shader->leaves[i];
		struct agx_shader_uniform *o = &info->uniform_leaves[i];

		*o = (struct agx_shader_uniform){ .var = l->var,
						  .array_size = l->array_size,
						  .offset = l->offset,
						  .array_stride = l->array_stride,
						  .matrix_stride = l->matrix_stride };
		info->num_uniform_leaves = i + 1;
		o->name = dup(l->name);
		o->glsl_type = dup(l->glsl_type);
		if (!o->name || !o->glsl_type)
			return -ENOMEM;
	}
	return 0;
}

static int copy_vars(struct agx_ir_shader *shader, struct agx_shader_info *info)
{
	info->vars = calloc(shader->num_vars ? shader->num_vars : 1, sizeof(*info->vars));
	if (!info->vars)
		return -ENOMEM;
	for (unsigned i = 0; i < shader->num_vars; i++) {
		const struct agx_ir_var *v = &shader->vars[i];
		struct agx_shader_var *o = &info->vars[i];

		*o = (struct agx_shader_var){
			.kind = kind_of(v->kind),
			.components = v->components,
			.array_size = v->array_size,
			.location = v->location,
			.locations = agx_io_locations(v),
			.binding = v->binding,
			.offset = v->offset,
			.size = v->size,
			.interp = interp_of(v->interp),
			.uniform = v->uniform,
			.size_uniform = v->sized ? v->size_uniform : -1,
			.slot =
			    shader->stage == AGX_IR_STAGE_VERTEX || v->kind == AGX_IR_VAR_SAMPLER
				? v->slot
				: -1,
			.cf =
			    shader->stage == AGX_IR_STAGE_FRAGMENT && v->kind != AGX_IR_VAR_SAMPLER
				? v->slot
				: -1,
		};
		if (v->kind == AGX_IR_VAR_SAMPLER && v->slot >= 0) {
			unsigned end = (unsigned)v->slot + (v->array_size ? v->array_size : 1);

			info->num_textures = end > info->num_textures ? end : info->num_textures;
		}
		info->num_vars = i + 1;
		o->name = dup(v->name);
		o->glsl_type = dup(v->glsl_type);
		if (!o->name || !o->glsl_type)
			return -ENOMEM;
	}
	return 0;
}

/* The sizes of the graphics interface, from agx_lower_io's placements (var.slot). */
static void io_info(struct agx_ir_shader *shader, struct agx_shader_info *info)
{
	unsigned end = 0;

	for (unsigned i = 0; i < shader->num_vars; i++) {
		const struct agx_ir_var *v = &shader->vars[i];
		unsigned last;

		if (v->slot < 0 || v->kind == AGX_IR_VAR_SAMPLER)
			continue;
		last = (unsigned)v->slot + agx_io_words(v);
		end = last > end ? last : end;
	}
	info->num_vertex_outputs = 0;
	info->num_cf = 0;
	info->frag_coord_z_cf = agx_io_frag_z_cf(shader);
	if (shader->stage == AGX_IR_STAGE_VERTEX) {
		/* the position's four slots are there whether or not it is written */
		info->num_vertex_outputs = end > 4 ? end : 4;
	} else if (shader->stage == AGX_IR_STAGE_FRAGMENT) {
		unsigned first = info->frag_coord_z_cf >= 0 ? 2 : 1;

		info->num_cf = end > first ? end : first;
	}
}

int agx_codegen(struct agx_ir_shader *shader, const struct agx_compile_options *options,
		struct agx_shader_binary *out, char **log)
{
	struct mir_program p = { 0 };
	struct agx_shader_info *info = &out->info;
	uint8_t *code = NULL;
	size_t size = 0;
	unsigned count = 0;
	int ret;

	ret = agx_isel(shader, options, &p);
	if (!ret)
		ret = agx_ra(&p, options ? options->max_registers : 0);
	if (!ret) {
		agx_insert_waits(&p);
		ret = agx_emit(&p, &code, &size, &count);
	}
	if (ret) {
		if (log)
			*log = p.log ? strdup(p.log) : NULL;
		mir_program_finish(&p);
		return ret;
	}
	free(out->code);
	out->code = code;
	out->size = size;
	info->stage = stage_of(shader->stage);
	info->num_registers = p.num_registers;
	info->num_uniforms = shader->num_uniforms;
	memcpy(info->local_size, shader->local_size, sizeof(info->local_size));
	info->shared_size = shader->shared_size;
	info->scratch_size = p.scratch_size;
	info->num_workgroups_uniform = shader->num_workgroups_uniform;
	info->uniform_block_uniform = shader->uniform_block_uniform;
	info->blend_constant_uniform = shader->blend_constant_uniform;
	info->xfb_uniform = shader->xfb_uniform;
	info->uniform_size = shader->uniform_size;
	info->discards = p.discards;
	info->writes_depth = p.writes_depth;
	info->num_instructions = count;
	io_info(shader, info);
	info->spill_textures = p.spill_textures;
	if (p.spill_textures >= 0 &&
	    (unsigned)p.spill_textures + p.num_spilled > info->num_textures)
		info->num_textures = (unsigned)p.spill_textures + p.num_spilled;
	mir_program_finish(&p);
	ret = copy_vars(shader, info);
	if (!ret)
		ret = copy_leaves(shader, info);
	if (ret && log)
		*log = strdup("out of memory");
	return ret;
}
