/*
 * agx_spirv_texture.c: what reads the texture unit and the fragment quad --
 * the OpImage* instructions as GLSL ES 3.00's texture built-ins make them
 * (section 8.8), and the derivatives (section 8.9) -- translated into
 * texture_sample, texture_load, texture_size, fddx and fddy
 * (agx_ir_ops.h, "Textures").
 *
 * GLSL ES has combined samplers only: a sampler variable is one texture
 * and sampler state register pair (arrays one per element, in order),
 * given out in the order of the variables (tr_var.unit, the IR var's slot).
 */
#include <errno.h>
#include <string.h>

#include "agx_spirv_to_ir.h"

unsigned tr_opaque_elements(struct tr *t, const struct tr_type *type)
{
	unsigned n = 1;

	while (type && type->kind == TR_T_ARRAY) {
		n = type->len && n <= TR_MAX_UNITS ? n * type->len : TR_MAX_UNITS + 1;
		type = tr_type(t, type->elem);
	}
	return n;
}

/* The image type of a sampled image or image type; NULL for anything else. */
static const struct tr_type *image_of(struct tr *t, uint32_t type_id)
{
	const struct tr_type *type = tr_type(t, type_id);

	if (type && type->kind == TR_T_SAMPLED_IMAGE)
		type = tr_type(t, type->elem);
	return type && type->kind == TR_T_IMAGE ? type : NULL;
}

/* What an instruction reads the texture unit through. */
struct tex {
	unsigned unit, dim, coords;
	bool array, shadow, integer;
};

/*
 * The sampler operand: its state registers, and the ISA's textype of its
 * image (SPIR-V's Dim 0 1D, 1 2D, 2 3D, 3 Cube).
 */
static int get_sampler(struct tr *t, uint32_t id, struct tex *x)
{
	static const unsigned dims[4][2] = { { 0, 1 }, { 2, 3 }, { 5, 5 }, { 6, 7 } };
	static const unsigned coords[4] = { 1, 2, 3, 3 };
	const struct tr_val *v = id < t->m->bound ? &t->vals[id] : NULL;
	const struct tr_type *img, *st;

	if (!v || v->kind != TR_V_SAMPLER || !(img = image_of(t, v->type)))
		return tr_fail(t, -EINVAL, "id %u is used as a sampler but is none", id);
	if (img->dim > 3 || img->ms || (img->dim == 2 && img->arrayed))
		return tr_fail(t, -ENOTSUP, "a %s image (Dim %u) is not a GLSL ES 3.00 sampler",
			       img->ms ? "multisampled" : "3D array", img->dim);
	st = tr_type(t, img->elem);
	x->unit = t->vars[v->var].unit + v->element;
	x->dim = dims[img->dim][img->arrayed ? 1 : 0];
	x->coords = coords[img->dim];
	x->array = img->arrayed;
	x->shadow = img->depth == 1;
	x->integer = st && st->kind == TR_T_INT;
	if (x->unit >= TR_MAX_UNITS)
		return tr_fail(t, -EINVAL, "sampler element %u past its array", v->element);
	return 0;
}

/* n f32 (or i32 with integer) components of a vector or scalar operand, at most max. */
static int get_vector(struct tr *t, uint32_t id, bool integer, unsigned min, unsigned max,
		      struct agx_ir_value **v, unsigned *n)
{
	int ret;

	*n = 0;
	if ((ret = tr_get_ssa(t, id, v, n)) < 0)
		return ret;
	if (*n < min || *n > max)
		return tr_fail(t, -EINVAL, "a texture operand %u of %u components (%u..%u)", id, *n,
			       min, max);
	for (unsigned i = 0; i < *n; i++)
		if ((*v)[i].type != (integer ? AGX_IR_TYPE_I32 : AGX_IR_TYPE_F32))
			return tr_fail(t, -EINVAL, "a texture operand %u that is not %s", id,
				       integer ? "integer" : "float");
	return 0;
}

/* The texel offset, a constant vector of -8..7 (gl_Min/MaxProgramTexelOffset), packed. */
static int const_offset(struct tr *t, uint32_t id, const struct tex *x, uint32_t *packed)
{
	struct agx_ir_value *v;
	unsigned n;
	int ret;

	if ((ret = get_vector(t, id, true, x->coords, x->coords, &v, &n)) < 0)
		return ret;
	if (x->dim == 6 || x->dim == 7)
		return tr_fail(t, -EINVAL, "a texel offset on a cube map");
	*packed = 0;
	for (unsigned i = 0; i < n; i++) {
		int32_t o = (int32_t)v[i].imm;

		if (v[i].def)
			return tr_fail(t, -EINVAL, "ConstOffset %u is no constant", id);
		if (o < -8 || o > 7)
			return tr_fail(t, -ENOTSUP, "texel offset %d outside -8..7", (int)o);
		*packed |= ((uint32_t)o & 0xf) << (4 * i);
	}
	return 0;
}

/*
 * The texel's components: one op per component (DCE takes those nobody
 * reads; selection makes one instruction of the rest), or the compare's one.
 */
static int emit_tex(struct tr *t, const struct agx_spirv_inst *in, enum agx_ir_op op,
		    const struct tex *x, uint32_t lod, uint32_t offset,
		    const struct agx_ir_value *srcs, unsigned n)
{
	const struct tr_type *rt = tr_type(t, in->type);
	enum agx_ir_type type = x->integer && !x->shadow ? AGX_IR_TYPE_I32 : AGX_IR_TYPE_F32;
	struct agx_ir_value r[4];
	unsigned count = x->shadow && op == AGX_IR_OP_texture_sample ? 1 : 4;
	enum agx_ir_type flat[4];
	int ret;

	if (!rt || rt->n != count || (ret = tr_flat_types(t, in->type, flat)) < 0)
		return tr_fail(t, -EINVAL, "a texture result of type %u, not %u components",
			       in->type, count);
	for (unsigned c = 0; c < count; c++) {
		uint32_t imms[6] = { x->unit, x->dim, lod, x->shadow && count == 1, offset, c };

		if (flat[c] != type)
			return tr_fail(t, -EINVAL, "a texture result of type %u, not the %s texels",
				       in->type, type == AGX_IR_TYPE_I32 ? "integer" : "float");
		r[c] = agx_tex(&t->b, op, type, srcs, n, imms);
	}
	return tr_set_ssa(t, in->result, in->type, r, count);
}

/* An array's layer, as GLES 3.0 section 3.8.10 picks it: clamp(floor(l + 0.5), 0, d - 1). */
static struct agx_ir_value layer_index(struct tr *t, struct agx_ir_value l)
{
	struct agx_builder *b = &t->b;
	struct agx_ir_value f = agx_ffloor(b, agx_fadd(b, l, agx_imm_f32(0.5f)));

	/* the upper clamp is the texture unit's, which knows d; 65535 keeps it in its 16 bits */
	f = agx_fmin(b, agx_fmax(b, f, agx_imm_f32(0.0f)), agx_imm_f32(65535.0f));
	return agx_f2u(b, AGX_IR_TYPE_I32, f);
}

/* SPIR-V's image operand bits (section 3.14). */
enum {
	IMG_BIAS = 0x1,
	IMG_LOD = 0x2,
	IMG_GRAD = 0x4,
	IMG_CONST_OFFSET = 0x8,
	IMG_SIGN_EXTEND = 0x1000,
	IMG_ZERO_EXTEND = 0x2000,
};

/* The image operands after operand k: the mask, and each operand of its bits in bit order. */
struct operands {
	uint32_t mask, bias, lod, dx, dy, offset;
};

static int image_operands(struct tr *t, const struct agx_spirv_inst *in, unsigned k,
			  struct operands *o)
{
	unsigned nops = agx_spirv_num_operands(in);

	memset(o, 0, sizeof(*o));
	if (k >= nops)
		return 0;
	o->mask = agx_spirv_operand(in, k++);
	if (o->mask & ~(uint32_t)(IMG_BIAS | IMG_LOD | IMG_GRAD | IMG_CONST_OFFSET |
				  IMG_SIGN_EXTEND | IMG_ZERO_EXTEND))
		return tr_fail(t, -ENOTSUP,
			       "image operands 0x%x (GLSL ES 3.00 has bias, LOD, "
			       "gradients and constant offsets)",
			       o->mask);
	if ((o->mask & IMG_BIAS) + !!(o->mask & IMG_LOD) + !!(o->mask & IMG_GRAD) > 1)
		return tr_fail(t, -EINVAL, "more than one of Bias, Lod and Grad");
	if (k + !!(o->mask & IMG_BIAS) + !!(o->mask & IMG_LOD) + 2 * !!(o->mask & IMG_GRAD) +
		!!(o->mask & IMG_CONST_OFFSET) !=
	    nops)
		return tr_fail(t, -EINVAL, "image operands 0x%x with %u operands", o->mask,
			       nops - k);
	if (o->mask & IMG_BIAS)
		o->bias = agx_spirv_operand(in, k++);
	if (o->mask & IMG_LOD)
		o->lod = agx_spirv_operand(in, k++);
	if (o->mask & IMG_GRAD) {
		o->dx = agx_spirv_operand(in, k++);
		o->dy = agx_spirv_operand(in, k++);
	}
	if (o->mask & IMG_CONST_OFFSET)
		o->offset = agx_spirv_operand(in, k++);
	return 0;
}

/* A scalar float operand. */
static int get_float(struct tr *t, uint32_t id, struct agx_ir_value *out)
{
	struct agx_ir_value *v;
	unsigned n;
	int ret;

	if ((ret = get_vector(t, id, false, 1, 1, &v, &n)) < 0)
		return ret;
	*out = v[0];
	return 0;
}

/* OpImageSample*: texture, textureProj, textureLod, textureGrad and their offset forms. */
static int sample(struct tr *t, const struct agx_spirv_inst *in)
{
	SpvOp op = (SpvOp)in->opcode;
	bool proj =
		 op >= SpvOpImageSampleProjImplicitLod && op <= SpvOpImageSampleProjDrefExplicitLod,
	     dref = op == SpvOpImageSampleDrefImplicitLod ||
		    op == SpvOpImageSampleDrefExplicitLod ||
		    op == SpvOpImageSampleProjDrefImplicitLod ||
		    op == SpvOpImageSampleProjDrefExplicitLod,
	     explicit_lod =
		 op == SpvOpImageSampleExplicitLod || op == SpvOpImageSampleDrefExplicitLod ||
		 op == SpvOpImageSampleProjExplicitLod || op == SpvOpImageSampleProjDrefExplicitLod;
	struct agx_builder *b = &t->b;
	struct agx_ir_value srcs[16], *c, ref = { 0 }, q = { 0 };
	struct operands o;
	struct tex x;
	unsigned n = 0, nc, need;
	uint32_t lod = 0, offset = 0;
	int ret;

	if (agx_spirv_num_operands(in) < 2u + dref)
		return tr_fail(t, -EINVAL, "a texture sample without its operands");
	if ((ret = get_sampler(t, agx_spirv_operand(in, 0), &x)) < 0)
		return ret;
	if (dref != x.shadow)
		return tr_fail(t, -EINVAL, "a %s sample of a %s sampler",
			       dref ? "compare" : "plain", x.shadow ? "shadow" : "non-shadow");
	need = x.coords + x.array + proj;
	if ((ret = get_vector(t, agx_spirv_operand(in, 1), false, need, 4, &c, &nc)) < 0)
		return ret;
	if (proj && x.array)
		return tr_fail(t, -EINVAL, "a projective sample of an array");
	if (dref && (ret = get_float(t, agx_spirv_operand(in, 2), &ref)) < 0)
		return ret;
	if ((ret = image_operands(t, in, 2 + dref, &o)) < 0)
		return ret;
	if (explicit_lod != !!(o.mask & (IMG_LOD | IMG_GRAD)))
		return tr_fail(t, -EINVAL, "an %s-LOD sample %s an LOD or gradients",
			       explicit_lod ? "explicit" : "implicit",
			       explicit_lod ? "without" : "with");
	/* SPIR-V: q follows the coordinates; the reference is divided by it too */
	if (proj) {
		q = c[x.coords];
		for (unsigned i = 0; i < x.coords; i++)
			srcs[n++] = agx_fdiv(b, c[i], q);
		if (dref)
			ref = agx_fdiv(b, ref, q);
	} else {
		for (unsigned i = 0; i < x.coords; i++)
			srcs[n++] = c[i];
	}
	if (x.array)
		srcs[n++] = layer_index(t, c[x.coords]);

	if (o.mask & IMG_GRAD) {
		struct agx_ir_value *dx, *dy;
		unsigned ndx, ndy;

		if ((ret = get_vector(t, o.dx, false, x.coords, x.coords, &dx, &ndx)) < 0 ||
		    (ret = get_vector(t, o.dy, false, x.coords, x.coords, &dy, &ndy)) < 0)
			return ret;
		lod = 4;
		for (unsigned i = 0; i < x.coords; i++)
			srcs[n++] = dx[i];
		for (unsigned i = 0; i < x.coords; i++)
			srcs[n++] = dy[i];
	} else if (o.mask & (IMG_LOD | IMG_BIAS)) {
		if ((ret = get_float(t, o.mask & IMG_LOD ? o.lod : o.bias, &srcs[n])) < 0)
			return ret;
		/*
		 * A bias outside a fragment shader (glslang refuses one, other
		 * SPIR-V may not): a bias on the base level, as the implicit LOD.
		 */
		lod = (o.mask & IMG_LOD) || t->stage != AGX_IR_STAGE_FRAGMENT ? 6 : 5;
		n++;
	} else if (t->stage != AGX_IR_STAGE_FRAGMENT) {
		/*
		 * GLSL ES 3.00 section 8.8: implicit derivatives are undefined
		 * outside fragment shaders.  There is no quad to take them from,
		 * so the base level (as Mesa's drivers do).
		 */
		lod = 6;
		srcs[n++] = agx_imm_f32(0.0f);
	}
	if ((o.mask & IMG_CONST_OFFSET) && (ret = const_offset(t, o.offset, &x, &offset)) < 0)
		return ret;
	if (dref)
		srcs[n++] = ref;
	return emit_tex(t, in, AGX_IR_OP_texture_sample, &x, lod, offset, srcs, n);
}

/* OpImageFetch: texelFetch and texelFetchOffset. */
static int fetch(struct tr *t, const struct agx_spirv_inst *in)
{
	struct agx_ir_value srcs[8], *c;
	struct operands o;
	struct tex x;
	unsigned n = 0, nc;
	uint32_t offset = 0;
	int ret;

	if (agx_spirv_num_operands(in) < 2)
		return tr_fail(t, -EINVAL, "OpImageFetch without its operands");
	if ((ret = get_sampler(t, agx_spirv_operand(in, 0), &x)) < 0)
		return ret;
	if (x.dim >= 6)
		return tr_fail(t, -EINVAL, "OpImageFetch of a cube map");
	if ((ret = get_vector(t, agx_spirv_operand(in, 1), true, x.coords + x.array,
			      x.coords + x.array, &c, &nc)) < 0 ||
	    (ret = image_operands(t, in, 2, &o)) < 0)
		return ret;
	if (o.mask & (IMG_BIAS | IMG_GRAD))
		return tr_fail(t, -EINVAL, "OpImageFetch with a bias or gradients");
	for (unsigned i = 0; i < nc; i++)
		srcs[n++] = c[i];
	if (o.mask & IMG_LOD) {
		struct agx_ir_value *l;
		unsigned nl;

		if ((ret = get_vector(t, o.lod, true, 1, 1, &l, &nl)) < 0)
			return ret;
		srcs[n++] = l[0];
	} else {
		srcs[n++] = agx_imm_u32(0);
	}
	if ((o.mask & IMG_CONST_OFFSET) && (ret = const_offset(t, o.offset, &x, &offset)) < 0)
		return ret;
	/* texelFetch takes no compare, whatever the sampler (GLSL ES 3.00 has no shadow form) */
	x.shadow = false;
	return emit_tex(t, in, AGX_IR_OP_texture_load, &x, 6, offset, srcs, n);
}

/* OpImageQuerySizeLod: textureSize. */
static int query_size(struct tr *t, const struct agx_spirv_inst *in)
{
	struct agx_ir_value *l, r[3];
	const struct tr_type *rt = tr_type(t, in->type);
	struct tex x;
	unsigned nl, count;
	int ret;

	if (agx_spirv_num_operands(in) != 2)
		return tr_fail(t, -EINVAL, "OpImageQuerySizeLod of %u operands",
			       agx_spirv_num_operands(in));
	if ((ret = get_sampler(t, agx_spirv_operand(in, 0), &x)) < 0 ||
	    (ret = get_vector(t, agx_spirv_operand(in, 1), true, 1, 1, &l, &nl)) < 0)
		return ret;
	/* a cube's size is its faces' width and height */
	count = (x.dim == 6 || x.dim == 7 ? 2 : x.coords) + x.array;
	if (!rt || rt->n != count || count > 3)
		return tr_fail(t, -EINVAL, "textureSize of %u components into type %u", count,
			       in->type);
	for (unsigned c = 0; c < count; c++)
		r[c] = agx_texture_size(&t->b, l[0], x.unit, x.dim, c);
	return tr_set_ssa(t, in->result, in->type, r, count);
}

/* OpImage: the image of a sampled image, which GLSL's texelFetch and textureSize read. */
static int image(struct tr *t, const struct agx_spirv_inst *in)
{
	uint32_t src = agx_spirv_operand(in, 0);

	if (agx_spirv_num_operands(in) != 1 || src >= t->m->bound ||
	    t->vals[src].kind != TR_V_SAMPLER || !image_of(t, in->type))
		return tr_fail(t, -EINVAL, "OpImage %u of no sampled image", in->result);
	t->vals[in->result] = t->vals[src];
	t->vals[in->result].type = in->type;
	return 0;
}

/* dFdx, dFdy, fwidth (= |dFdx| + |dFdy|); fine and coarse alike, as the quad gives one. */
static int derivative(struct tr *t, const struct agx_spirv_inst *in)
{
	struct agx_builder *b = &t->b;
	struct agx_ir_value *v, r[4];
	unsigned n = 0;
	int ret;

	if (t->stage != AGX_IR_STAGE_FRAGMENT)
		return tr_fail(t, -ENOTSUP, "a derivative outside a fragment shader");
	if ((ret = tr_get_ssa(t, agx_spirv_operand(in, 0), &v, &n)) < 0)
		return ret;
	if (n > 4)
		return tr_fail(t, -EINVAL, "a derivative of %u components", n);
	for (unsigned i = 0; i < n; i++) {
		switch (in->opcode) {
		case SpvOpDPdx:
		case SpvOpDPdxFine:
		case SpvOpDPdxCoarse:
			r[i] = agx_fddx(b, v[i]);
			break;
		case SpvOpDPdy:
		case SpvOpDPdyFine:
		case SpvOpDPdyCoarse:
			r[i] = agx_fddy(b, v[i]);
			break;
		default:
			r[i] = agx_fadd(b, agx_fabs(b, agx_fddx(b, v[i])),
					agx_fabs(b, agx_fddy(b, v[i])));
			break;
		}
	}
	return tr_set_ssa(t, in->result, in->type, r, n);
}

int tr_texture(struct tr *t, const struct agx_spirv_inst *in)
{
	switch (in->opcode) {
	case SpvOpImageSampleImplicitLod:
	case SpvOpImageSampleExplicitLod:
	case SpvOpImageSampleDrefImplicitLod:
	case SpvOpImageSampleDrefExplicitLod:
	case SpvOpImageSampleProjImplicitLod:
	case SpvOpImageSampleProjExplicitLod:
	case SpvOpImageSampleProjDrefImplicitLod:
	case SpvOpImageSampleProjDrefExplicitLod:
		return sample(t, in);
	case SpvOpImageFetch:
		return fetch(t, in);
	case SpvOpImageQuerySizeLod:
		return query_size(t, in);
	case SpvOpImage:
		return image(t, in);
	case SpvOpDPdx:
	case SpvOpDPdy:
	case SpvOpFwidth:
	case SpvOpDPdxFine:
	case SpvOpDPdyFine:
	case SpvOpFwidthFine:
	case SpvOpDPdxCoarse:
	case SpvOpDPdyCoarse:
	case SpvOpFwidthCoarse:
		return derivative(t, in);
	case SpvOpSampledImage:
		return tr_fail(t, -ENOTSUP,
			       "separate images and samplers (GLSL ES has combined "
			       "samplers only)");
	default:
		/* gather, images, textureQueryLevels/Lod, samples: GLSL ES 3.10 and later */
		return tr_fail(t, -ENOTSUP, "texture instruction %u is not GLSL ES 3.00's",
			       (unsigned)in->opcode);
	}
}
