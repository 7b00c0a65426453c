/*
 * agx_binary.c: what a compiled shader is once it exists (agx/compiler.h):
 * freeing it, and its reflection as JSON.  Apart from agx_compile.c so that
 * whatever links the back end alone (its tests) has them.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "agx/compiler.h"

void agx_shader_binary_finish(struct agx_shader_binary *binary)
{
	if (!binary)
		return;
	for (unsigned i = 0; i < binary->info.num_vars; i++) {
		free(binary->info.vars[i].name);
		free(binary->info.vars[i].glsl_type);
	}
	free(binary->info.vars);
	for (unsigned i = 0; i < binary->info.num_uniform_leaves; i++) {
		free(binary->info.uniform_leaves[i].name);
		free(binary->info.uniform_leaves[i].glsl_type);
	}
	free(binary->info.uniform_leaves);
	free(binary->code);
	free(binary->log);
	memset(binary, 0, sizeof(*binary));
}

/* ---- reflection as JSON ------------------------------------------------------------ */

static const char *stage_name(enum agx_shader_stage stage)
{
	switch (stage) {
	case AGX_SHADER_VERTEX:
		return "vertex";
	case AGX_SHADER_FRAGMENT:
		return "fragment";
	case AGX_SHADER_COMPUTE:
		return "compute";
	}
	return "unknown";
}

static const char *kind_name(enum agx_shader_var_kind kind)
{
	switch (kind) {
	case AGX_SHADER_INPUT:
		return "input";
	case AGX_SHADER_OUTPUT:
		return "output";
	case AGX_SHADER_UNIFORM:
		return "uniform";
	case AGX_SHADER_UNIFORM_BLOCK:
		return "uniform_block";
	case AGX_SHADER_STORAGE_BLOCK:
		return "storage_block";
	case AGX_SHADER_SAMPLER:
		return "sampler";
	case AGX_SHADER_SHARED:
		return "shared";
	}
	return "unknown";
}

static const char *interp_name(enum agx_shader_interp interp)
{
	switch (interp) {
	case AGX_SHADER_SMOOTH:
		return "smooth";
	case AGX_SHADER_FLAT:
		return "flat";
	case AGX_SHADER_CENTROID:
		return "centroid";
	case AGX_SHADER_NOPERSPECTIVE:
		return "noperspective";
	}
	return "unknown";
}

/* json-c's adds return -1 only when out of memory; one flag gathers them. */
struct builder {
	bool failed;
};

static void add(struct builder *b, json_object *obj, const char *key, json_object *value)
{
	if (!value || json_object_object_add(obj, key, value) < 0) {
		json_object_put(value);
		b->failed = true;
	}
}

static void add_int(struct builder *b, json_object *obj, const char *key, int64_t v)
{
	add(b, obj, key, json_object_new_int64(v));
}

static void add_string(struct builder *b, json_object *obj, const char *key, const char *s)
{
	add(b, obj, key, json_object_new_string(s ? s : ""));
}

static json_object *var_json(struct builder *b, const struct agx_shader_var *var)
{
	json_object *obj = json_object_new_object();

	if (!obj) {
		b->failed = true;
		return NULL;
	}
	add_string(b, obj, "kind", kind_name(var->kind));
	add_string(b, obj, "name", var->name);
	add_string(b, obj, "type", var->glsl_type);
	add_int(b, obj, "components", var->components);
	add_int(b, obj, "array_size", var->array_size);
	switch (var->kind) {
	case AGX_SHADER_INPUT:
	case AGX_SHADER_OUTPUT:
		add_int(b, obj, "location", var->location);
		add_string(b, obj, "interpolation", interp_name(var->interp));
		if (var->slot >= 0)
			add_int(b, obj, "slot", var->slot);
		if (var->cf >= 0)
			add_int(b, obj, "cf", var->cf);
		/* robust access's element count registers of an attribute */
		if (var->size_uniform >= 0)
			add_int(b, obj, "size_uniform", var->size_uniform);
		break;
	case AGX_SHADER_UNIFORM:
		add_int(b, obj, "location", var->location);
		add_int(b, obj, "offset", var->offset);
		add_int(b, obj, "size", var->size);
		break;
	case AGX_SHADER_UNIFORM_BLOCK:
	case AGX_SHADER_STORAGE_BLOCK:
		add_int(b, obj, "binding", var->binding);
		add_int(b, obj, "size", var->size);
		if (var->size_uniform >= 0)
			add_int(b, obj, "size_uniform", var->size_uniform);
		break;
	case AGX_SHADER_SAMPLER:
		add_int(b, obj, "location", var->location);
		add_int(b, obj, "texture", var->slot);
		break;
	case AGX_SHADER_SHARED:
		add_int(b, obj, "offset", var->offset);
		add_int(b, obj, "size", var->size);
		break;
	}
	add_int(b, obj, "uniform", var->uniform);
	return obj;
}

/* The default-block uniforms as GL lists them (agx_shader_uniform). */
static json_object *leaves_json(struct builder *b, const struct agx_shader_info *info)
{
	json_object *list = json_object_new_array();

	if (!list) {
		b->failed = true;
		return NULL;
	}
	for (unsigned i = 0; i < info->num_uniform_leaves; i++) {
		const struct agx_shader_uniform *u = &info->uniform_leaves[i];
		json_object *obj = json_object_new_object();

		if (!obj || json_object_array_add(list, obj) < 0) {
			json_object_put(obj);
			b->failed = true;
			continue;
		}
		add_string(b, obj, "name", u->name);
		add_string(b, obj, "type", u->glsl_type);
		add_int(b, obj, "var", u->var);
		add_int(b, obj, "array_size", u->array_size);
		add_int(b, obj, "offset", u->offset);
		add_int(b, obj, "array_stride", u->array_stride);
		add_int(b, obj, "matrix_stride", u->matrix_stride);
	}
	return list;
}

char *agx_shader_info_to_json(const struct agx_shader_info *info)
{
	struct builder b = { false };
	json_object *root = json_object_new_object();
	json_object *vars = json_object_new_array();
	json_object *local = json_object_new_array();
	char *text = NULL;

	if (!root || !vars || !local) {
		json_object_put(root);
		json_object_put(vars);
		json_object_put(local);
		return NULL;
	}
	add_string(&b, root, "stage", stage_name(info->stage));
	add_int(&b, root, "registers", info->num_registers);
	add_int(&b, root, "uniforms", info->num_uniforms);
	add_int(&b, root, "instructions", info->num_instructions);
	add_int(&b, root, "scratch_size", info->scratch_size);
	if (info->stage == AGX_SHADER_COMPUTE) {
		for (unsigned i = 0; i < 3; i++)
			if (json_object_array_add(local, json_object_new_int(info->local_size[i])))
				b.failed = true;
		add(&b, root, "local_size", local);
		local = NULL;
		add_int(&b, root, "shared_size", info->shared_size);
		add_int(&b, root, "num_workgroups_uniform", info->num_workgroups_uniform);
	}
	if (info->stage == AGX_SHADER_VERTEX) {
		add_int(&b, root, "vertex_outputs", info->num_vertex_outputs);
		add_int(&b, root, "xfb_uniform", info->xfb_uniform);
	}
	if (info->stage == AGX_SHADER_FRAGMENT) {
		add(&b, root, "discards", json_object_new_boolean(info->discards));
		add(&b, root, "writes_depth", json_object_new_boolean(info->writes_depth));
		add_int(&b, root, "coefficients", info->num_cf);
		add_int(&b, root, "frag_coord_z_cf", info->frag_coord_z_cf);
		add_int(&b, root, "blend_constant_uniform", info->blend_constant_uniform);
		add_int(&b, root, "spill_textures", info->spill_textures);
	}
	add_int(&b, root, "uniform_block_uniform", info->uniform_block_uniform);
	add_int(&b, root, "textures", info->num_textures);
	add_int(&b, root, "uniform_size", info->uniform_size);
	for (unsigned i = 0; i < info->num_vars; i++) {
		json_object *v = var_json(&b, &info->vars[i]);

		if (!v || json_object_array_add(vars, v) < 0) {
			json_object_put(v);
			b.failed = true;
		}
	}
	add(&b, root, "variables", vars);
	add(&b, root, "uniform_leaves", leaves_json(&b, info));
	json_object_put(local);
	if (!b.failed) {
		const char *s = json_object_to_json_string_ext(
		    root, JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_SPACED |
			      JSON_C_TO_STRING_NOSLASHESCAPE);

		text = s ? strdup(s) : NULL;
	}
	json_object_put(root);
	return text;
}
