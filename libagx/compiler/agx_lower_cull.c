/*
 * agx_lower_cull.c: EXT_clip_cull_distance's cull distances, which the
 * AGX has no fixed-function unit for (its PPP clips; it does not cull by
 * distance).  GL discards a primitive when one of its cull distances is
 * negative at every vertex (GLES 3.2 section 12.4, which the extension
 * adds to ES 3.0).  Done in the shaders, the way Mesa's asahi driver
 * does it (src/asahi/compiler/agx_nir_lower_cull_distance.c):
 *
 * - vertex shaders: beside each cull distance d[i] (the front end's
 *   output agx_CullDistance, libagx/glsl/extensions.c), the vertex writes
 *   f[i] = d[i] >= 0 ? 1 : 0 to the built-in output AGX_IR_LOCATION_CULL_FLAG
 *   + i, interpolated linearly across the primitive;
 * - fragment shaders, when the options say that the vertex shader writes
 *   n of them: f[i] is 0 at every vertex exactly when it is 0 at the
 *   fragment and its derivatives across the quad are 0 (it is linear in
 *   the window: a plane through the vertices' 0s and 1s), so the fragment
 *   is killed, first thing, where that holds for some i.
 */
#include <string.h>

#include "agx/compiler.h"
#include "agx_builder.h"
#include "agx_ir.h"

static const char cull_name[] = "agx_CullDistance";

static const struct agx_ir_var *find_var(const struct agx_ir_shader *shader,
					 enum agx_ir_var_kind kind, unsigned location,
					 const char *name)
{
	for (unsigned i = 0; i < shader->num_vars; i++) {
		const struct agx_ir_var *v = &shader->vars[i];

		if (v->kind == kind &&
		    (name ? v->name && !strcmp(v->name, name) : v->location == location))
			return v;
	}
	return NULL;
}

static void add_flags(struct agx_ir_shader *shader, enum agx_ir_var_kind kind, unsigned n)
{
	struct agx_ir_var flags = {
		.kind = kind,
		.name = "agx_CullFlag",
		.glsl_type = "float",
		.type = AGX_IR_TYPE_F32,
		.components = 1,
		.array_size = n,
		.location = AGX_IR_LOCATION_CULL_FLAG,
		.interp = AGX_IR_INTERP_NOPERSPECTIVE,
		.uniform = -1,
		.slot = -1,
		.size_uniform = -1,
	};

	agx_ir_shader_add_var(shader, &flags);
}

static bool lower_vertex(struct agx_ir_shader *shader)
{
	const struct agx_ir_var *d = find_var(shader, AGX_IR_VAR_OUTPUT, 0, cull_name);
	unsigned n;
	bool progress = false;

	if (!d || d->type != AGX_IR_TYPE_F32 || d->components != 1 ||
	    find_var(shader, AGX_IR_VAR_OUTPUT, AGX_IR_LOCATION_CULL_FLAG, NULL))
		return false;
	n = d->array_size ? d->array_size : 1;
	if (n > AGX_SHADER_MAX_CULL_DISTANCES)
		return false;
	unsigned first = d->location;

	agx_ir_foreach_function(shader, func) {
		agx_ir_foreach_block(func, block) {
			agx_ir_foreach_instr(block, in) {
				unsigned loc = in->imm[0];
				struct agx_ir_value v;
				struct agx_builder b;

				if (in->op != AGX_IR_OP_store_output || loc < first ||
				    loc - first >= n || in->imm[1] != 0)
					continue;
				b = agx_builder_at(agx_ir_cursor_after(in));
				v = agx_ir_src_value(&in->src[0]);
				if (agx_ir_type_bits(v.type) == 16)
					v = agx_f2f32(&b, v);
				agx_store_output(&b,
						 agx_bcsel(&b, agx_fge(&b, v, agx_imm_f32(0.0f)),
							   agx_imm_f32(1.0f), agx_imm_f32(0.0f)),
						 AGX_IR_LOCATION_CULL_FLAG + (loc - first), 0);
				progress = true;
			}
		}
	}
	if (progress)
		add_flags(shader, AGX_IR_VAR_OUTPUT, n);
	return progress;
}

static bool lower_fragment(struct agx_ir_shader *shader, unsigned n)
{
	struct agx_ir_function *main = agx_ir_shader_first_function(shader);
	struct agx_ir_value cull = { 0 };
	struct agx_builder b;

	if (!main || find_var(shader, AGX_IR_VAR_INPUT, AGX_IR_LOCATION_CULL_FLAG, NULL))
		return false;
	b = agx_builder_at(agx_ir_cursor_start(agx_ir_function_first_block(main)));
	for (unsigned i = 0; i < n; i++) {
		struct agx_ir_value f =
		    agx_load_input(&b, AGX_IR_TYPE_F32, AGX_IR_LOCATION_CULL_FLAG + i, 0);
		struct agx_ir_value zero = agx_imm_f32(0.0f);
		struct agx_ir_value all = agx_band(&b, agx_feq(&b, f, zero),
						   agx_band(&b, agx_feq(&b, agx_fddx(&b, f), zero),
							    agx_feq(&b, agx_fddy(&b, f), zero)));

		cull = i ? agx_bor(&b, cull, all) : all;
	}
	/* every sample: discard's mask (agx_isel.c) */
	agx_discard_samples(&b, agx_bcsel(&b, cull, agx_imm_u16(0xff), agx_imm_u16(0)));
	add_flags(shader, AGX_IR_VAR_INPUT, n);
	return true;
}

bool agx_lower_cull(struct agx_ir_shader *shader, const struct agx_compile_options *o)
{
	if (shader->stage == AGX_IR_STAGE_VERTEX)
		return lower_vertex(shader);
	if (shader->stage == AGX_IR_STAGE_FRAGMENT && o && o->cull_distances &&
	    o->cull_distances <= AGX_SHADER_MAX_CULL_DISTANCES)
		return lower_fragment(shader, o->cull_distances);
	return false;
}
