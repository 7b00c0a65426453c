/*
 * program_link.c: glLinkProgram's work (GLES 3.0.6 section 2.11.3): each
 * stage's SPIR-V compiled to machine code, the interfaces read from the
 * SPIR-V (types, struct members, block layouts, precision, static use)
 * and from the compiler's reflection (uniform registers, texture units,
 * output slots), and the link rules of the spec and of GLSL ES 1.00 and
 * 3.00: both stages, one version, varyings that match by name and type,
 * uniforms and blocks of one name that agree, the limits, attribute
 * locations (layout, glBindAttribLocation, aliasing), fragment output
 * locations, and the captured varyings of section 2.15.1.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "agx/spirv.h"
#include "limits.h"
#include "program.h"

/* ---- the info log -------------------------------------------------------------------- */

struct link {
	struct gles_program *program;
	struct gles_linked *l;
	char *log;
	size_t log_len;
	bool failed, oom;
};

static void __attribute__((format(printf, 2, 3))) link_error(struct link *lk, const char *fmt, ...)
{
	va_list ap;
	char *line, *grown;
	int n;

	lk->failed = true;
	va_start(ap, fmt);
	n = vasprintf(&line, fmt, ap);
	va_end(ap);
	if (n < 0) {
		lk->oom = true;
		return;
	}
	grown = realloc(lk->log, lk->log_len + (size_t)n + sizeof("error: \n"));
	if (!grown) {
		free(line);
		lk->oom = true;
		return;
	}
	lk->log = grown;
	lk->log_len += (size_t)sprintf(lk->log + lk->log_len, "error: %s\n", line);
	free(line);
}

/* ---- reading a stage's SPIR-V ------------------------------------------------------ */

struct stage {
	unsigned index; /* GLES_STAGE_* */
	const char *what;
	struct gles_shader_code *code;
	struct agx_spirv_module m;
	bool parsed;
	uint8_t *used; /* [id]: named by an instruction inside a function */
	const struct agx_shader_info *info;
};

static const struct agx_spirv_inst *def(const struct stage *st, uint32_t id)
{
	return agx_spirv_def(&st->m, id);
}

static SpvOp op(const struct stage *st, uint32_t id)
{
	const struct agx_spirv_inst *in = def(st, id);

	return in ? in->opcode : SpvOpNop;
}

static uint32_t operand(const struct stage *st, uint32_t id, unsigned i)
{
	const struct agx_spirv_inst *in = def(st, id);

	return in ? agx_spirv_operand(in, i) : 0;
}

/* The shader's own spelling of a name in the SPIR-V */
static const char *original(const struct stage *st, const char *lowered)
{
	return lowered ? agx_glsl_original_name(&st->code->glsl, lowered) : "";
}

static const char *var_name(const struct stage *st, uint32_t id)
{
	return original(st, agx_spirv_name(&st->m, id));
}

static const char *member_name(const struct stage *st, uint32_t type, unsigned member)
{
	for (size_t i = 0; i < st->m.num_insts; i++) {
		const struct agx_spirv_inst *in = &st->m.insts[i];

		if (in->opcode == SpvOpMemberName && agx_spirv_operand(in, 0) == type &&
		    agx_spirv_operand(in, 1) == member)
			return original(st, agx_spirv_string(in, 2, NULL));
	}
	return "";
}

static bool decorated(const struct stage *st, uint32_t id, int member, SpvDecoration d,
		      uint32_t *value)
{
	return agx_spirv_decorated(&st->m, id, member, d, value);
}

/* An OpTypeArray's length, 0 if it is not a constant the front end would make */
static unsigned array_length(const struct stage *st, uint32_t type)
{
	uint32_t c = operand(st, type, 1);

	return op(st, c) == SpvOpConstant ? operand(st, c, 0) : 0;
}

/* Marks the ids that function bodies name: what the shader statically uses. */
static int mark_used(struct stage *st)
{
	bool in_function = false;

	st->used = calloc(st->m.bound ? st->m.bound : 1, 1);
	if (!st->used)
		return -ENOMEM;
	for (size_t i = 0; i < st->m.num_insts; i++) {
		const struct agx_spirv_inst *in = &st->m.insts[i];

		if (in->opcode == SpvOpFunction)
			in_function = true;
		if (!in_function)
			continue;
		for (unsigned w = 1; w < in->count; w++) {
			if (in->words[w] < st->m.bound)
				st->used[in->words[w]] = 1;
		}
	}
	return 0;
}

/* ---- GL types ---------------------------------------------------------------------- */

struct type_name {
	const char *glsl;
	GLenum type;
	unsigned components, locations;
};

static const struct type_name type_names[] = {
	{ "float", GL_FLOAT, 1, 1 },
	{ "vec2", GL_FLOAT_VEC2, 2, 1 },
	{ "vec3", GL_FLOAT_VEC3, 3, 1 },
	{ "vec4", GL_FLOAT_VEC4, 4, 1 },
	{ "int", GL_INT, 1, 1 },
	{ "ivec2", GL_INT_VEC2, 2, 1 },
	{ "ivec3", GL_INT_VEC3, 3, 1 },
	{ "ivec4", GL_INT_VEC4, 4, 1 },
	{ "uint", GL_UNSIGNED_INT, 1, 1 },
	{ "uvec2", GL_UNSIGNED_INT_VEC2, 2, 1 },
	{ "uvec3", GL_UNSIGNED_INT_VEC3, 3, 1 },
	{ "uvec4", GL_UNSIGNED_INT_VEC4, 4, 1 },
	{ "bool", GL_BOOL, 1, 1 },
	{ "bvec2", GL_BOOL_VEC2, 2, 1 },
	{ "bvec3", GL_BOOL_VEC3, 3, 1 },
	{ "bvec4", GL_BOOL_VEC4, 4, 1 },
	{ "mat2", GL_FLOAT_MAT2, 4, 2 },
	{ "mat3", GL_FLOAT_MAT3, 9, 3 },
	{ "mat4", GL_FLOAT_MAT4, 16, 4 },
	{ "mat2x3", GL_FLOAT_MAT2x3, 6, 2 },
	{ "mat2x4", GL_FLOAT_MAT2x4, 8, 2 },
	{ "mat3x2", GL_FLOAT_MAT3x2, 6, 3 },
	{ "mat3x4", GL_FLOAT_MAT3x4, 12, 3 },
	{ "mat4x2", GL_FLOAT_MAT4x2, 8, 4 },
	{ "mat4x3", GL_FLOAT_MAT4x3, 12, 4 },
	{ "sampler2D", GL_SAMPLER_2D, 0, 0 },
	{ "sampler3D", GL_SAMPLER_3D, 0, 0 },
	{ "samplerCube", GL_SAMPLER_CUBE, 0, 0 },
	{ "sampler2DShadow", GL_SAMPLER_2D_SHADOW, 0, 0 },
	{ "sampler2DArray", GL_SAMPLER_2D_ARRAY, 0, 0 },
	{ "sampler2DArrayShadow", GL_SAMPLER_2D_ARRAY_SHADOW, 0, 0 },
	{ "samplerCubeShadow", GL_SAMPLER_CUBE_SHADOW, 0, 0 },
	{ "isampler2D", GL_INT_SAMPLER_2D, 0, 0 },
	{ "isampler3D", GL_INT_SAMPLER_3D, 0, 0 },
	{ "isamplerCube", GL_INT_SAMPLER_CUBE, 0, 0 },
	{ "isampler2DArray", GL_INT_SAMPLER_2D_ARRAY, 0, 0 },
	{ "usampler2D", GL_UNSIGNED_INT_SAMPLER_2D, 0, 0 },
	{ "usampler3D", GL_UNSIGNED_INT_SAMPLER_3D, 0, 0 },
	{ "usamplerCube", GL_UNSIGNED_INT_SAMPLER_CUBE, 0, 0 },
	{ "usampler2DArray", GL_UNSIGNED_INT_SAMPLER_2D_ARRAY, 0, 0 },
};

static const struct type_name *type_info(GLenum type)
{
	for (size_t i = 0; i < sizeof(type_names) / sizeof(type_names[0]); i++)
		if (type_names[i].type == type)
			return &type_names[i];
	return NULL;
}

static const struct type_name *type_by_glsl(const char *glsl)
{
	for (size_t i = 0; glsl && i < sizeof(type_names) / sizeof(type_names[0]); i++)
		if (!strcmp(type_names[i].glsl, glsl))
			return &type_names[i];
	return NULL;
}

bool gles_type_is_sampler(GLenum type)
{
	const struct type_name *t = type_info(type);

	return t && t->components == 0;
}

unsigned gles_type_components(GLenum type)
{
	const struct type_name *t = type_info(type);

	return t ? t->components : 0;
}

/* The scalar GL type of an OpTypeFloat/Int/Bool, 0 for anything else */
static GLenum scalar_type(const struct stage *st, uint32_t id)
{
	switch (op(st, id)) {
	case SpvOpTypeFloat:
		return operand(st, id, 0) == 32 ? GL_FLOAT : 0;
	case SpvOpTypeInt:
		if (operand(st, id, 0) != 32)
			return 0;
		return operand(st, id, 1) ? GL_INT : GL_UNSIGNED_INT;
	case SpvOpTypeBool:
		return GL_BOOL;
	default:
		return 0;
	}
}

static GLenum vector_type(GLenum scalar, unsigned n)
{
	static const GLenum vec[4][3] = {
		{ GL_FLOAT_VEC2, GL_FLOAT_VEC3, GL_FLOAT_VEC4 },
		{ GL_INT_VEC2, GL_INT_VEC3, GL_INT_VEC4 },
		{ GL_UNSIGNED_INT_VEC2, GL_UNSIGNED_INT_VEC3, GL_UNSIGNED_INT_VEC4 },
		{ GL_BOOL_VEC2, GL_BOOL_VEC3, GL_BOOL_VEC4 },
	};
	unsigned row = scalar == GL_FLOAT	   ? 0
		       : scalar == GL_INT	   ? 1
		       : scalar == GL_UNSIGNED_INT ? 2
						   : 3;

	if (n < 2 || n > 4 || !scalar)
		return 0;
	return vec[row][n - 2];
}

static GLenum matrix_type(unsigned cols, unsigned rows)
{
	static const GLenum mat[3][3] = {
		{ GL_FLOAT_MAT2, GL_FLOAT_MAT2x3, GL_FLOAT_MAT2x4 },
		{ GL_FLOAT_MAT3x2, GL_FLOAT_MAT3, GL_FLOAT_MAT3x4 },
		{ GL_FLOAT_MAT4x2, GL_FLOAT_MAT4x3, GL_FLOAT_MAT4 },
	};

	if (cols < 2 || cols > 4 || rows < 2 || rows > 4)
		return 0;
	return mat[cols - 2][rows - 2];
}

static GLenum sampler_type(const struct stage *st, uint32_t image)
{
	GLenum s = scalar_type(st, operand(st, image, 0));
	uint32_t dim = operand(st, image, 1), depth = operand(st, image, 2);
	uint32_t arrayed = operand(st, image, 3);

	if (op(st, image) != SpvOpTypeImage || operand(st, image, 4))
		return 0;
	if (s == GL_FLOAT) {
		if (dim == SpvDim2D && !arrayed)
			return depth == 1 ? GL_SAMPLER_2D_SHADOW : GL_SAMPLER_2D;
		if (dim == SpvDim2D)
			return depth == 1 ? GL_SAMPLER_2D_ARRAY_SHADOW : GL_SAMPLER_2D_ARRAY;
		if (dim == SpvDim3D && !arrayed && depth != 1)
			return GL_SAMPLER_3D;
		if (dim == SpvDimCube && !arrayed)
			return depth == 1 ? GL_SAMPLER_CUBE_SHADOW : GL_SAMPLER_CUBE;
		return 0;
	}
	if (depth == 1 || (s != GL_INT && s != GL_UNSIGNED_INT))
		return 0;
	if (dim == SpvDim2D)
		return arrayed ? (s == GL_INT ? GL_INT_SAMPLER_2D_ARRAY
					      : GL_UNSIGNED_INT_SAMPLER_2D_ARRAY)
			       : (s == GL_INT ? GL_INT_SAMPLER_2D : GL_UNSIGNED_INT_SAMPLER_2D);
	if (dim == SpvDim3D && !arrayed)
		return s == GL_INT ? GL_INT_SAMPLER_3D : GL_UNSIGNED_INT_SAMPLER_3D;
	if (dim == SpvDimCube && !arrayed)
		return s == GL_INT ? GL_INT_SAMPLER_CUBE : GL_UNSIGNED_INT_SAMPLER_CUBE;
	return 0;
}

/* The GL type of a basic (non-aggregate) SPIR-V type, 0 for arrays, structs and the rest */
static GLenum gl_type(const struct stage *st, uint32_t id)
{
	switch (op(st, id)) {
	case SpvOpTypeVector:
		return vector_type(scalar_type(st, operand(st, id, 0)), operand(st, id, 1));
	case SpvOpTypeMatrix: {
		uint32_t col = operand(st, id, 0);

		if (op(st, col) != SpvOpTypeVector ||
		    scalar_type(st, operand(st, col, 0)) != GL_FLOAT)
			return 0;
		return matrix_type(operand(st, id, 1), operand(st, col, 1));
	}
	case SpvOpTypeSampledImage:
		return sampler_type(st, operand(st, id, 0));
	default:
		return scalar_type(st, id);
	}
}

/* The locations (vec4 slots) a value of the type takes as an input or output */
static unsigned locations_of(const struct stage *st, uint32_t id)
{
	GLenum t = gl_type(st, id);
	unsigned n = 0;

	if (t)
		return type_info(t)->locations;
	switch (op(st, id)) {
	case SpvOpTypeArray:
		return array_length(st, id) * locations_of(st, operand(st, id, 0));
	case SpvOpTypeStruct:
		for (unsigned m = 0; m < agx_spirv_num_operands(def(st, id)); m++)
			n += locations_of(st, operand(st, id, m));
		return n;
	default:
		return 0;
	}
}

/*
 * Whether type a of stage sa and b of sb are the same GLSL type (GLSL ES
 * 3.00 section 4.3.5, 1.00 section 4.2.6 for structs: the same name,
 * member names and member types), member precision too when precision is
 * set, the block layout too when layout is set.
 */
static bool same_type(const struct stage *sa, uint32_t a, const struct stage *sb, uint32_t b,
		      bool precision, bool layout)
{
	SpvOp oa = op(sa, a), ob = op(sb, b);
	unsigned n;

	if (oa != ob)
		return false;
	switch (oa) {
	case SpvOpTypeBool:
		return true;
	case SpvOpTypeInt:
	case SpvOpTypeFloat:
		return gl_type(sa, a) == gl_type(sb, b);
	case SpvOpTypeVector:
	case SpvOpTypeMatrix:
		return operand(sa, a, 1) == operand(sb, b, 1) &&
		       same_type(sa, operand(sa, a, 0), sb, operand(sb, b, 0), false, false);
	case SpvOpTypeSampledImage:
		return gl_type(sa, a) && gl_type(sa, a) == gl_type(sb, b);
	case SpvOpTypeArray:
		if (array_length(sa, a) != array_length(sb, b))
			return false;
		return same_type(sa, operand(sa, a, 0), sb, operand(sb, b, 0), precision, layout);
	case SpvOpTypeStruct:
		n = agx_spirv_num_operands(def(sa, a));
		if (n != agx_spirv_num_operands(def(sb, b)) ||
		    strcmp(var_name(sa, a), var_name(sb, b)))
			return false;
		for (unsigned m = 0; m < n; m++) {
			static const SpvDecoration layouts[] = { SpvDecorationOffset,
								 SpvDecorationRowMajor,
								 SpvDecorationMatrixStride };
			uint32_t va = 0, vb = 0;

			if (strcmp(member_name(sa, a, m), member_name(sb, b, m)))
				return false;
			if (!same_type(sa, operand(sa, a, m), sb, operand(sb, b, m), precision,
				       layout))
				return false;
			if (precision &&
			    decorated(sa, a, (int)m, SpvDecorationRelaxedPrecision, NULL) !=
				decorated(sb, b, (int)m, SpvDecorationRelaxedPrecision, NULL))
				return false;
			for (unsigned k = 0; layout && k < 3; k++) {
				va = vb = 0;
				if (decorated(sa, a, (int)m, layouts[k], &va) !=
					decorated(sb, b, (int)m, layouts[k], &vb) ||
				    va != vb)
					return false;
			}
		}
		return true;
	default:
		return false;
	}
}

/* ---- the module-level variables ------------------------------------------------- */

struct var {
	uint32_t id, type; /* the variable, and its pointee type */
	SpvStorageClass storage;
	const char *name; /* the shader's own */
	const char *lowered;
	bool builtin, used;
};

/* Calls fn for each module-level variable (not the built-ins' gl_PerVertex) */
static int foreach_var(struct link *lk, struct stage *st,
		       int (*fn)(struct link *lk, struct stage *st, const struct var *v,
				 void *data),
		       void *data)
{
	for (size_t i = 0; i < st->m.num_insts; i++) {
		const struct agx_spirv_inst *in = &st->m.insts[i];
		struct var v;
		int ret;

		if (in->opcode == SpvOpFunction)
			break;
		if (in->opcode != SpvOpVariable || op(st, in->type) != SpvOpTypePointer)
			continue;
		v.id = in->result;
		v.storage = (SpvStorageClass)agx_spirv_operand(in, 0);
		v.type = operand(st, in->type, 1);
		v.lowered = agx_spirv_name(&st->m, v.id);
		v.name = original(st, v.lowered);
		v.builtin = decorated(st, v.id, -1, SpvDecorationBuiltIn, NULL) ||
			    decorated(st, v.type, 0, SpvDecorationBuiltIn, NULL);
		v.used = st->used[v.id];
		if ((ret = fn(lk, st, &v, data)) < 0)
			return ret;
	}
	return 0;
}

/* The reflection's var of a kind and (lowered) name, -1 if none */
static int info_var(const struct stage *st, enum agx_shader_var_kind kind, const char *lowered)
{
	for (unsigned i = 0; i < st->info->num_vars; i++) {
		const struct agx_shader_var *v = &st->info->vars[i];

		if (v->kind == kind && v->name && lowered && !strcmp(v->name, lowered))
			return (int)i;
	}
	return -1;
}

/* ---- explicit locations: the lowered source's layout(location = N) ---------------- */

struct token {
	const char *s;
	size_t n;
};

/* The next token of a source (directives, comments and blanks skipped); n 0 at the end */
static struct token next_token(const char **p)
{
	const char *s = *p;
	struct token t;

	for (;;) {
		while (*s == ' ' || *s == '\t' || *s == '\r' || *s == '\n')
			s++;
		if (s[0] == '/' && s[1] == '*') {
			const char *end = strstr(s + 2, "*/");

			s = end ? end + 2 : s + strlen(s);
			continue;
		}
		if (*s != '#' && !(s[0] == '/' && s[1] == '/'))
			break;
		while (*s && *s != '\n')
			s++;
	}
	t.s = s;
	if (!*s) {
		t.n = 0;
	} else if ((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || *s == '_' ||
		   (*s >= '0' && *s <= '9')) {
		while ((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || *s == '_' ||
		       (*s >= '0' && *s <= '9') || *s == '.')
			s++;
		t.n = (size_t)(s - t.s);
	} else {
		t.n = 1;
		s++;
	}
	*p = s;
	return t;
}

static bool token_is(struct token t, const char *word)
{
	return t.n == strlen(word) && !memcmp(t.s, word, t.n);
}

/*
 * The location a global declaration of a 3.00 shader gives a variable of
 * the storage qualifier (in, out) in layout(location = N): -1 if none.
 * The front end's lowered source is preprocessed (no comments or macros),
 * the names in it those of the SPIR-V.
 */
static int explicit_location(const struct stage *st, const char *storage, const char *lowered)
{
	const char *p = st->code->glsl.lowered;
	int depth = 0;

	if (!p || !lowered)
		return -1;
	for (;;) {
		struct token t = next_token(&p), prev = { NULL, 0 };
		long location = -1;
		bool qualified = false;
		int paren = 0;

		if (!t.n)
			return -1;
		if (t.n == 1 && *t.s == '{')
			depth++;
		if (t.n == 1 && *t.s == '}')
			depth--;
		if (depth != 0 || !token_is(t, "layout"))
			continue;
		/* layout ( ... location = N ... ) */
		for (t = next_token(&p); t.n; t = next_token(&p)) {
			if (t.n == 1 && *t.s == '(')
				paren++;
			else if (t.n == 1 && *t.s == ')' && --paren == 0)
				break;
			else if (token_is(t, "location")) {
				struct token eq = next_token(&p), num = next_token(&p);

				if (eq.n == 1 && *eq.s == '=' && num.n && num.s[0] >= '0' &&
				    num.s[0] <= '9')
					location = strtol(num.s, NULL, 0);
			}
		}
		/* the rest of the declaration: its qualifiers, type and first declarator */
		for (t = next_token(&p); t.n; prev = t, t = next_token(&p)) {
			if (t.n == 1 && (*t.s == '{' || *t.s == '('))
				break; /* a block or a function: no variable of ours */
			if (token_is(t, storage))
				qualified = true;
			if (t.n == 1 &&
			    (*t.s == ';' || *t.s == ',' || *t.s == '[' || *t.s == '=')) {
				if (qualified && location >= 0 && prev.n == strlen(lowered) &&
				    !memcmp(prev.s, lowered, prev.n))
					return (int)location;
				break;
			}
		}
		if (t.n == 1 && *t.s == '{')
			depth++;
	}
}

/* ---- uniforms ---------------------------------------------------------------------- */

static unsigned round_up(unsigned x, unsigned a)
{
	return (x + a - 1) / a * a;
}

/* std140 (GLES 3.0.6 section 2.12.6.4), as the compiler lays out the default block */
static unsigned std140_align(const struct stage *st, uint32_t t)
{
	unsigned a = 4, n;

	switch (op(st, t)) {
	case SpvOpTypeVector:
		return operand(st, t, 1) == 2 ? 8 : 16;
	case SpvOpTypeMatrix:
	case SpvOpTypeArray:
		return 16;
	case SpvOpTypeStruct:
		n = agx_spirv_num_operands(def(st, t));
		for (unsigned m = 0; m < n; m++) {
			unsigned ma = std140_align(st, operand(st, t, m));

			a = ma > a ? ma : a;
		}
		return round_up(a, 16);
	default:
		return 4;
	}
}

static unsigned std140_size(const struct stage *st, uint32_t t)
{
	unsigned off = 0, n;

	switch (op(st, t)) {
	case SpvOpTypeVector:
		return 4 * operand(st, t, 1);
	case SpvOpTypeMatrix:
		return 16 * operand(st, t, 1);
	case SpvOpTypeArray:
		return round_up(std140_size(st, operand(st, t, 0)), 16) * array_length(st, t);
	case SpvOpTypeStruct:
		n = agx_spirv_num_operands(def(st, t));
		for (unsigned m = 0; m < n; m++) {
			uint32_t mt = operand(st, t, m);

			off = round_up(off, std140_align(st, mt)) + std140_size(st, mt);
		}
		return round_up(off, 16);
	case SpvOpTypeSampledImage:
		return 0;
	default:
		return 4;
	}
}

/* Where a uniform's leaves go as the walk finds them */
struct walk {
	int block; /* -1: the default block */
	bool relaxed;
	int matrix_stride;
	bool row_major;
	/* samplers: the first texture state register of the variable */
	int stage_unit;
	/* a block member the source declares bool or bvecN (the SPIR-V has uint for it) */
	bool is_bool;
};

static bool token_is_name(struct token t, const char *name)
{
	return t.n && t.n == strlen(name) && !memcmp(t.s, name, t.n);
}

static bool is_punct(struct token t, char c)
{
	return t.n == 1 && *t.s == c;
}

/*
 * Whether member of a struct or block type is declared bool or bvecN in
 * the lowered source.  glslang's SPIR-V holds booleans in blocks as uint
 * (SPIR-V has no boolean in externally visible memory), and GL reports
 * their type as declared (section 2.12.6).
 */
static bool declared_bool(const struct stage *st, uint32_t type, unsigned member)
{
	static const char *const qualifiers[] = { "highp", "mediump", "lowp", "layout", "precise" };
	const char *p = st->code->glsl.lowered, *tname = agx_spirv_name(&st->m, type);
	const char *mname = NULL;
	struct token t, prev = { NULL, 0 };

	for (size_t i = 0; i < st->m.num_insts && !mname; i++) {
		const struct agx_spirv_inst *in = &st->m.insts[i];

		if (in->opcode == SpvOpMemberName && agx_spirv_operand(in, 0) == type &&
		    agx_spirv_operand(in, 1) == member)
			mname = agx_spirv_string(in, 2, NULL);
	}
	if (!p || !tname || !tname[0] || !mname)
		return false;
	/* the declaration "NAME {" of the struct or block */
	for (t = next_token(&p); t.n; prev = t, t = next_token(&p)) {
		if (is_punct(t, '{') && token_is_name(prev, tname))
			break;
	}
	/* its members: qualifiers, a type, then declarators, to a ';' */
	while (t.n) {
		bool typed = false, is_bool = false;
		int paren = 0, bracket = 0;

		for (t = next_token(&p), prev = (struct token){ NULL, 0 }; t.n;
		     prev = t, t = next_token(&p)) {
			bool qualifier = false;

			if (is_punct(t, '}') && !typed)
				return false; /* the end of the struct */
			if (is_punct(t, '('))
				paren++;
			else if (is_punct(t, ')'))
				paren--;
			else if (is_punct(t, ']'))
				bracket--;
			if (typed && !bracket && token_is_name(prev, mname) &&
			    (is_punct(t, ';') || is_punct(t, ',') || is_punct(t, '[')))
				return is_bool;
			if (is_punct(t, '['))
				bracket++;
			if (is_punct(t, ';'))
				break;
			for (size_t q = 0; q < sizeof(qualifiers) / sizeof(qualifiers[0]); q++)
				qualifier |= token_is(t, qualifiers[q]);
			if (!typed && !paren && !qualifier && t.n > 1 && !is_punct(t, ')')) {
				typed = true;
				is_bool = token_is(t, "bool") || token_is(t, "bvec2") ||
					  token_is(t, "bvec3") || token_is(t, "bvec4");
			}
		}
	}
	return false;
}

/* bool for uint, bvecN for uvecN */
static GLenum as_bool(GLenum type)
{
	switch (type) {
	case GL_UNSIGNED_INT:
		return GL_BOOL;
	case GL_UNSIGNED_INT_VEC2:
		return GL_BOOL_VEC2;
	case GL_UNSIGNED_INT_VEC3:
		return GL_BOOL_VEC3;
	case GL_UNSIGNED_INT_VEC4:
		return GL_BOOL_VEC4;
	default:
		return type;
	}
}

static struct gles_uniform *find_uniform(struct gles_linked *l, const char *name, int block)
{
	for (unsigned i = 0; i < l->num_uniforms; i++)
		if (l->uniforms[i].block == block && !strcmp(l->uniforms[i].name, name))
			return &l->uniforms[i];
	return NULL;
}

static struct gles_uniform *add_uniform(struct link *lk, const char *name)
{
	struct gles_linked *l = lk->l;
	struct gles_uniform *u, *grown = realloc(l->uniforms, (l->num_uniforms + 1) * sizeof(*u));

	if (!grown)
		return NULL;
	l->uniforms = grown;
	u = &l->uniforms[l->num_uniforms];
	memset(u, 0, sizeof(*u));
	u->name = strdup(name);
	if (!u->name)
		return NULL;
	l->num_uniforms++;
	u->location = -1;
	u->offset = u->array_stride = u->matrix_stride = -1;
	for (unsigned s = 0; s < GLES_STAGES; s++)
		u->stage_offset[s] = u->stage_unit[s] = -1;
	return u;
}

/*
 * One leaf: a basic type or sampler, or an array of one (name ends in
 * "[0]" then).  offset is the stage's byte offset in its default block,
 * or the offset in the uniform block.
 */
static int leaf(struct link *lk, struct stage *st, const struct walk *w, const char *name,
		GLenum type, unsigned size, bool is_array, unsigned offset, unsigned stride)
{
	struct gles_uniform *u = find_uniform(lk->l, name, w->block);

	if (w->is_bool)
		type = as_bool(type);
	if (!type) {
		link_error(lk, "uniform %s: a type OpenGL ES does not have", name);
		return 0;
	}
	if (!u) {
		u = add_uniform(lk, name);
		if (!u)
			return -ENOMEM;
		u->type = type;
		u->size = size;
		u->is_array = is_array;
		u->relaxed = w->relaxed;
		u->block = w->block;
		u->base_length = (unsigned)strlen(name) - (is_array ? 3 : 0);
		if (w->block >= 0) {
			u->offset = (int)offset;
			u->array_stride = is_array ? (int)stride : 0;
			u->matrix_stride = type_info(type)->locations > 1 ? w->matrix_stride : 0;
			u->row_major = type_info(type)->locations > 1 && w->row_major;
		}
		if (gles_type_is_sampler(type)) {
			u->units = calloc(size, sizeof(*u->units));
			if (!u->units)
				return -ENOMEM;
		}
	} else if (u->type != type || u->size != size) {
		/* same_type() has already said so for the variable; a leaf cannot differ alone */
		link_error(lk, "uniform %s has different types in the two stages", name);
		return 0;
	}
	if (w->block < 0 && gles_type_is_sampler(type)) {
		u->stage_unit[st->index] = w->stage_unit + (int)offset;
	} else if (w->block < 0) {
		u->stage_offset[st->index] = (int)offset;
		u->elem_stride = stride;
	}
	return 0;
}

/*
 * Walks a uniform's type to its leaves, naming them as section 2.12.6
 * does ("s[1].v[0]").  In a block the offsets, strides and matrix layout
 * are the decorations'; in the default block std140's, from offset.
 */
static int walk_uniform(struct link *lk, struct stage *st, struct walk w, uint32_t type, char *name,
			size_t len, unsigned offset)
{
	GLenum t = gl_type(st, type);
	size_t cap = 1024;
	int ret;

	if (len + 32 >= cap) {
		link_error(lk, "uniform name %.40s... is too long", name);
		return 0;
	}
	if (t)
		return leaf(lk, st, &w, name, t, 1, false, offset, 0);
	if (op(st, type) == SpvOpTypeArray) {
		uint32_t elem = operand(st, type, 0);
		unsigned n = array_length(st, type);
		uint32_t stride = 0;

		if (w.block >= 0)
			decorated(st, type, -1, SpvDecorationArrayStride, &stride);
		else if (gles_type_is_sampler(gl_type(st, elem)))
			stride = 1; /* a sampler array's units, one per element */
		else
			stride = round_up(std140_size(st, elem), 16);
		if (gl_type(st, elem)) {
			snprintf(name + len, cap - len, "[0]");
			return leaf(lk, st, &w, name, gl_type(st, elem), n, true, offset, stride);
		}
		for (unsigned i = 0; i < n; i++) {
			size_t at = len + (size_t)snprintf(name + len, cap - len, "[%u]", i);

			if ((ret = walk_uniform(lk, st, w, elem, name, at, offset + i * stride)) <
			    0)
				return ret;
		}
		return 0;
	}
	if (op(st, type) == SpvOpTypeStruct) {
		unsigned n = agx_spirv_num_operands(def(st, type)), off = 0;

		for (unsigned m = 0; m < n; m++) {
			uint32_t mt = operand(st, type, m), value = 0;
			struct walk mw = w;
			size_t at;

			if (w.block >= 0) {
				decorated(st, type, (int)m, SpvDecorationOffset, &value);
				off = value;
				mw.row_major =
				    decorated(st, type, (int)m, SpvDecorationRowMajor, NULL);
				value = 0;
				decorated(st, type, (int)m, SpvDecorationMatrixStride, &value);
				mw.matrix_stride = (int)value;
			} else {
				off = round_up(off, std140_align(st, mt));
			}
			mw.relaxed =
			    decorated(st, type, (int)m, SpvDecorationRelaxedPrecision, NULL);
			mw.is_bool = w.block >= 0 && declared_bool(st, type, m);
			at = len + (size_t)snprintf(name + len, cap - len, "%s%s", len ? "." : "",
						    member_name(st, type, m));
			if ((ret = walk_uniform(lk, st, mw, mt, name, at, offset + off)) < 0)
				return ret;
			if (w.block < 0)
				off += std140_size(st, mt);
		}
		return 0;
	}
	link_error(lk, "uniform %s: a type OpenGL ES does not have", name);
	return 0;
}

/* The variable of name in the other stage that has been read already, for matching */
struct seen {
	const struct stage *st;
	uint32_t id, type;
	const char *name;
	bool relaxed, used, block;
};

struct uniforms_pass {
	struct seen *seen;
	unsigned num_seen;
	unsigned samplers[GLES_STAGES];
	unsigned blocks[GLES_STAGES];
};

static int check_against_seen(struct link *lk, struct uniforms_pass *pass, struct stage *st,
			      const struct var *v, bool block, const char *name)
{
	bool relaxed = decorated(st, v->id, -1, SpvDecorationRelaxedPrecision, NULL);
	struct seen *grown;

	for (unsigned i = 0; i < pass->num_seen; i++) {
		struct seen *s = &pass->seen[i];

		if (s->st == st || s->block != block || strcmp(s->name, name))
			continue;
		if (!same_type(s->st, s->type, st, v->type, false, block)) {
			link_error(lk, "%s %s is declared with different types in the two stages",
				   block ? "uniform block" : "uniform", name);
			return 1;
		}
		/*
		 * GLSL ES 3.00 section 4.3.5 and 1.00 section 4.5.3: a uniform's
		 * precision is the same in both stages (1.00: where both use it).
		 * The SPIR-V tells highp from mediump/lowp, not the two apart.
		 * Section 4.3.7 asks blocks for types, names and layout only.
		 */
		if (!block &&
		    (s->relaxed != relaxed ||
		     !same_type(s->st, s->type, st, v->type, true, false)) &&
		    (st->code->version >= 300 || (s->used && v->used))) {
			link_error(lk,
				   "%s %s is declared with different precisions in the two stages",
				   block ? "uniform block" : "uniform", name);
			return 1;
		}
		return 0;
	}
	grown = realloc(pass->seen, (pass->num_seen + 1) * sizeof(*grown));
	if (!grown)
		return -ENOMEM;
	pass->seen = grown;
	grown[pass->num_seen++] =
	    (struct seen){ st, v->id, v->type, name, relaxed, v->used, block };
	return 0;
}

static struct gles_uniform_block *find_block(struct gles_linked *l, const char *name)
{
	for (unsigned i = 0; i < l->num_blocks; i++)
		if (!strcmp(l->blocks[i].name, name))
			return &l->blocks[i];
	return NULL;
}

static int uniform_var(struct link *lk, struct stage *st, const struct var *v, void *data)
{
	struct uniforms_pass *pass = data;
	char name[1024];
	struct walk w = { .block = -1 };
	int k, ret;

	if (v->builtin ||
	    (v->storage != SpvStorageClassUniformConstant && v->storage != SpvStorageClassUniform))
		return 0;
	if (v->storage == SpvStorageClassUniform) {
		/* a uniform block: the type's name is the block's, the variable's its instance */
		const char *block_name = var_name(st, v->type);
		struct gles_uniform_block *b;

		if (op(st, v->type) != SpvOpTypeStruct) {
			link_error(lk, "uniform block %s: arrays of blocks are not supported",
				   v->name);
			return 0;
		}
		if ((ret = check_against_seen(lk, pass, st, v, true, block_name)) != 0)
			return ret < 0 ? ret : 0;
		k = info_var(st, AGX_SHADER_UNIFORM_BLOCK,
			     v->lowered && v->lowered[0] ? v->lowered
							 : agx_spirv_name(&st->m, v->type));
		b = find_block(lk->l, block_name);
		if (!b) {
			struct gles_uniform_block *grown =
			    realloc(lk->l->blocks, (lk->l->num_blocks + 1) * sizeof(*grown));

			if (!grown)
				return -ENOMEM;
			lk->l->blocks = grown;
			b = &grown[lk->l->num_blocks];
			memset(b, 0, sizeof(*b));
			b->stage_var[0] = b->stage_var[1] = -1;
			b->name = strdup(block_name);
			if (!b->name)
				return -ENOMEM;
			lk->l->num_blocks++;
		}
		b->stage_var[st->index] = k;
		if (k >= 0) {
			unsigned size = round_up(st->info->vars[k].size, 16);

			b->data_size = size > b->data_size ? size : b->data_size;
		}
		pass->blocks[st->index]++;
		return 0;
	}
	if ((ret = check_against_seen(lk, pass, st, v, false, v->name)) != 0)
		return ret < 0 ? ret : 0;
	w.relaxed = decorated(st, v->id, -1, SpvDecorationRelaxedPrecision, NULL);
	snprintf(name, sizeof(name), "%s", v->name);
	if (gles_type_is_sampler(gl_type(st, v->type)) ||
	    (op(st, v->type) == SpvOpTypeArray &&
	     gles_type_is_sampler(gl_type(st, operand(st, v->type, 0))))) {
		k = info_var(st, AGX_SHADER_SAMPLER, v->lowered);
		if (k < 0 || st->info->vars[k].slot < 0) {
			link_error(lk, "sampler %s has no texture unit in the %s shader", v->name,
				   st->what);
			return 0;
		}
		w.stage_unit = st->info->vars[k].slot;
		pass->samplers[st->index] +=
		    op(st, v->type) == SpvOpTypeArray ? array_length(st, v->type) : 1;
		return walk_uniform(lk, st, w, v->type, name, strlen(name), 0);
	}
	k = info_var(st, AGX_SHADER_UNIFORM, v->lowered);
	if (k < 0) {
		link_error(lk, "uniform %s is not in the %s shader's reflection", v->name,
			   st->what);
		return 0;
	}
	if (std140_size(st, v->type) != st->info->vars[k].size) {
		link_error(lk, "uniform %s: the compiler's layout is not std140's", v->name);
		return 0;
	}
	return walk_uniform(lk, st, w, v->type, name, strlen(name), st->info->vars[k].offset);
}

/* A block's members, after the default block's uniforms, block by block. */
static int block_members(struct link *lk, struct stage *st, const struct var *v, void *data)
{
	unsigned *b = data;
	const struct gles_uniform_block *blk = &lk->l->blocks[*b];
	struct walk w = { .block = (int)*b };
	char name[1024];

	if (v->builtin || v->storage != SpvStorageClassUniform ||
	    op(st, v->type) != SpvOpTypeStruct || strcmp(var_name(st, v->type), blk->name))
		return 0;
	/* section 2.12.6: "block.member" for a block with an instance name, "member" without */
	snprintf(name, sizeof(name), "%s", v->lowered && v->lowered[0] ? blk->name : "");
	return walk_uniform(lk, st, w, v->type, name, strlen(name), 0);
}

static int link_uniforms(struct link *lk, struct stage *stages)
{
	struct gles_linked *l = lk->l;
	struct uniforms_pass pass = { 0 };
	unsigned location = 0, samplers = 0;
	int ret = 0;

	for (unsigned s = 0; s < GLES_STAGES && ret >= 0; s++)
		ret = foreach_var(lk, &stages[s], uniform_var, &pass);
	free(pass.seen);
	if (ret < 0)
		return ret;
	/* members of each block, from the first stage that has it */
	for (unsigned b = 0; b < l->num_blocks; b++) {
		unsigned s = l->blocks[b].stage_var[0] >= 0 ? 0 : 1;

		l->blocks[b].first_uniform = l->num_uniforms;
		if ((ret = foreach_var(lk, &stages[s], block_members, &b)) < 0)
			return ret;
		l->blocks[b].num_uniforms = l->num_uniforms - l->blocks[b].first_uniform;
		if (l->blocks[b].data_size > GLES_MAX_UNIFORM_BLOCK_SIZE)
			link_error(lk, "uniform block %s has %u bytes, more than %u",
				   l->blocks[b].name, l->blocks[b].data_size,
				   GLES_MAX_UNIFORM_BLOCK_SIZE);
	}

	/* locations: each element of each default-block uniform, in order */
	for (unsigned i = 0; i < l->num_uniforms; i++) {
		if (l->uniforms[i].block < 0) {
			l->uniforms[i].location = (int)location;
			location += l->uniforms[i].size;
		}
	}
	l->locations = calloc(location ? location : 1, sizeof(*l->locations));
	if (!l->locations)
		return -ENOMEM;
	for (unsigned i = 0; i < l->num_uniforms; i++) {
		for (unsigned e = 0; l->uniforms[i].block < 0 && e < l->uniforms[i].size; e++)
			l->locations[l->num_locations++] = (struct gles_uniform_location){ i, e };
	}

	/* section 2.11.3 and 2.12.6: the limits of each stage and of both */
	if (pass.samplers[0] > GLES_MAX_VERTEX_TEXTURE_IMAGE_UNITS)
		link_error(lk, "the vertex shader uses %u samplers, more than %u", pass.samplers[0],
			   GLES_MAX_VERTEX_TEXTURE_IMAGE_UNITS);
	if (pass.samplers[1] > GLES_MAX_TEXTURE_IMAGE_UNITS)
		link_error(lk, "the fragment shader uses %u samplers, more than %u",
			   pass.samplers[1], GLES_MAX_TEXTURE_IMAGE_UNITS);
	samplers = pass.samplers[0] + pass.samplers[1];
	if (samplers > GLES_MAX_COMBINED_TEXTURE_IMAGE_UNITS)
		link_error(lk, "the program uses %u samplers, more than %u", samplers,
			   GLES_MAX_COMBINED_TEXTURE_IMAGE_UNITS);
	if (pass.blocks[0] > GLES_MAX_VERTEX_UNIFORM_BLOCKS)
		link_error(lk, "the vertex shader uses %u uniform blocks, more than %u",
			   pass.blocks[0], GLES_MAX_VERTEX_UNIFORM_BLOCKS);
	if (pass.blocks[1] > GLES_MAX_FRAGMENT_UNIFORM_BLOCKS)
		link_error(lk, "the fragment shader uses %u uniform blocks, more than %u",
			   pass.blocks[1], GLES_MAX_FRAGMENT_UNIFORM_BLOCKS);
	if (pass.blocks[0] + pass.blocks[1] > GLES_MAX_COMBINED_UNIFORM_BLOCKS)
		link_error(lk, "the program uses %u uniform blocks, more than %u",
			   pass.blocks[0] + pass.blocks[1], GLES_MAX_COMBINED_UNIFORM_BLOCKS);
	return 0;
}

/* Each stage's default block: its size, limit, first register and storage. */
static int stage_uniforms(struct link *lk, struct stage *st)
{
	struct gles_program_stage *ps = &lk->l->stages[st->index];
	const struct agx_shader_info *info = st->info;
	unsigned size = 0, max_vectors = st->index == GLES_STAGE_VERTEX
					     ? GLES_MAX_VERTEX_UNIFORM_VECTORS
					     : GLES_MAX_FRAGMENT_UNIFORM_VECTORS;

	ps->first_uniform = -1;
	for (unsigned i = 0; i < info->num_vars; i++) {
		const struct agx_shader_var *v = &info->vars[i];

		if (v->kind != AGX_SHADER_UNIFORM)
			continue;
		size = v->offset + v->size > size ? v->offset + v->size : size;
		if (v->uniform >= 0 && info->uniform_block_uniform < 0)
			ps->first_uniform = v->uniform - (int)(v->offset / 4);
	}
	if (round_up(size, 16) / 16 > max_vectors)
		link_error(lk, "the %s shader's uniforms take %u vectors, more than %u", st->what,
			   round_up(size, 16) / 16, max_vectors);
	ps->uniform_size = round_up(size, 16);
	ps->uniform_data = calloc(ps->uniform_size ? ps->uniform_size : 1, 1);
	if (!ps->uniform_data)
		return -ENOMEM;
	if (info->num_textures > GLES_MAX_TEXTURE_IMAGE_UNITS) {
		link_error(lk, "the %s shader uses %u texture units, more than %u", st->what,
			   info->num_textures, GLES_MAX_TEXTURE_IMAGE_UNITS);
		return 0;
	}
	ps->num_units = info->num_textures;
	return 0;
}

/* ---- attributes ------------------------------------------------------------------- */

static int attribute_var(struct link *lk, struct stage *st, const struct var *v, void *data)
{
	struct gles_linked *l = lk->l;
	struct gles_attribute *a, *grown;
	GLenum type = gl_type(st, v->type);

	(void)data;
	if (v->builtin || v->storage != SpvStorageClassInput)
		return 0;
	if (!type || gles_type_is_sampler(type)) {
		link_error(lk, "attribute %s: a type attributes cannot have", v->name);
		return 0;
	}
	grown = realloc(l->attributes, (l->num_attributes + 1) * sizeof(*grown));
	if (!grown)
		return -ENOMEM;
	l->attributes = grown;
	a = &grown[l->num_attributes];
	a->name = strdup(v->name);
	if (!a->name)
		return -ENOMEM;
	l->num_attributes++;
	a->type = type;
	a->locations = type_info(type)->locations;
	a->var = info_var(st, AGX_SHADER_INPUT, v->lowered);
	a->location = st->code->version >= 300 ? explicit_location(st, "in", v->lowered) : -1;
	return 0;
}

/*
 * Relocation: the shader must read each attribute, and write each
 * fragment output, at the location (and index) the link gave it.
 * glslang placed every input and output at a Location of its own choosing
 * (docs/compiler.md, "glslang's settings"; for several fragment outputs
 * the lowering's rule 16), so where that differs, the OpDecorate's
 * Location word is rewritten -- and an output's Index, added when the
 * shader had none -- in a copy of the SPIR-V that the variants compile
 * (gles_program_stage.spirv).  The stage's reflection says the same.
 */
struct relocation {
	uint32_t id;
	unsigned location;
	int index; /* -1: as the shader has it */
	int var;   /* the reflection's var, or -1 */
	bool has_index;
};

static const uint32_t *relocated_word(const struct relocation *r, unsigned n, uint32_t id,
				      uint32_t decoration, uint32_t *value)
{
	for (unsigned k = 0; k < n; k++) {
		if (r[k].id != id)
			continue;
		if (decoration == SpvDecorationLocation) {
			*value = r[k].location;
			return value;
		}
		if (decoration == SpvDecorationIndex && r[k].index >= 0) {
			*value = (uint32_t)r[k].index;
			return value;
		}
	}
	return NULL;
}

static int relocate(struct link *lk, struct stage *st, struct relocation *r, unsigned n)
{
	struct gles_program_stage *ps = &lk->l->stages[st->index];
	const uint32_t *base = st->code->glsl.spirv;
	size_t words = st->code->glsl.spirv_words, at = 5;
	bool change = false;
	uint32_t *out;

	/* what changes, and which outputs need an Index decoration added */
	for (size_t i = 0; i < st->m.num_insts; i++) {
		const struct agx_spirv_inst *in = &st->m.insts[i];
		uint32_t value;

		if (in->opcode != SpvOpDecorate || in->count != 4)
			continue;
		for (unsigned k = 0; k < n; k++)
			if (r[k].id == in->words[1] && in->words[2] == SpvDecorationIndex)
				r[k].has_index = true;
		if (relocated_word(r, n, in->words[1], in->words[2], &value) &&
		    value != in->words[3])
			change = true;
	}
	for (unsigned k = 0; k < n; k++) {
		if (r[k].index > 0 && !r[k].has_index) {
			change = true;
			words += 4;
		}
		if (r[k].var >= 0)
			ps->binary.info.vars[r[k].var].location = r[k].location;
	}
	if (!change)
		return 0;
	out = malloc(words * sizeof(*out));
	if (!out)
		return -ENOMEM;
	memcpy(out, base, 5 * sizeof(*out));
	for (size_t i = 0; i < st->m.num_insts; i++) {
		const struct agx_spirv_inst *in = &st->m.insts[i];
		uint32_t value;

		memcpy(out + at, in->words, in->count * sizeof(*out));
		if (in->opcode == SpvOpDecorate && in->count == 4 &&
		    relocated_word(r, n, in->words[1], in->words[2], &value))
			out[at + 3] = value;
		at += in->count;
		if (in->opcode != SpvOpDecorate || in->count != 4 ||
		    in->words[2] != SpvDecorationLocation)
			continue;
		for (unsigned k = 0; k < n; k++)
			if (r[k].id == in->words[1] && r[k].index > 0 && !r[k].has_index) {
				out[at++] = 4u << 16 | SpvOpDecorate;
				out[at++] = r[k].id;
				out[at++] = SpvDecorationIndex;
				out[at++] = (uint32_t)r[k].index;
			}
	}
	free(ps->spirv);
	ps->spirv = out;
	ps->spirv_words = at;
	return 0;
}

struct relocations {
	struct relocation *v;
	unsigned n;
};

static int add_relocation(struct relocations *rs, uint32_t id, int location, int index, int var)
{
	struct relocation *grown;

	if (location < 0)
		return 0;
	grown = realloc(rs->v, (rs->n + 1) * sizeof(*grown));
	if (!grown)
		return -ENOMEM;
	rs->v = grown;
	rs->v[rs->n++] = (struct relocation){ id, (unsigned)location, index, var, false };
	return 0;
}

static int relocate_attribute(struct link *lk, struct stage *st, const struct var *v, void *data)
{
	const struct gles_linked *l = lk->l;

	(void)st;
	if (v->builtin || v->storage != SpvStorageClassInput)
		return 0;
	for (unsigned i = 0; i < l->num_attributes; i++) {
		const struct gles_attribute *a = &l->attributes[i];

		if (!strcmp(a->name, v->name))
			return add_relocation(data, v->id, a->location, -1, a->var);
	}
	return 0;
}

static int relocate_output(struct link *lk, struct stage *st, const struct var *v, void *data)
{
	const struct gles_linked *l = lk->l;

	(void)st;
	if (v->builtin || v->storage != SpvStorageClassOutput)
		return 0;
	for (unsigned i = 0; i < l->num_outputs; i++) {
		const struct gles_frag_output *o = &l->outputs[i];

		if (!strcmp(o->name, v->name))
			return add_relocation(data, v->id, o->location, (int)o->index, -1);
	}
	return 0;
}

/* Relocates the stage's attributes (fn relocate_attribute) or outputs (relocate_output). */
static int relocate_stage(struct link *lk, struct stage *st,
			  int (*fn)(struct link *lk, struct stage *st, const struct var *v,
				    void *data))
{
	struct relocations rs = { NULL, 0 };
	int ret;

	if (lk->failed)
		return 0;
	ret = foreach_var(lk, st, fn, &rs);
	if (ret >= 0 && rs.n)
		ret = relocate(lk, st, rs.v, rs.n);
	free(rs.v);
	return ret;
}

/*
 * Section 2.11.5: a location in the shader text wins over
 * glBindAttribLocation's; the rest are the linker's.  GLSL ES 3.00 vertex
 * shaders may not alias (two attributes at one location); 1.00 ones may.
 */
static int link_attributes(struct link *lk, struct stage *vs)
{
	struct gles_linked *l = lk->l;
	unsigned owner[GLES_MAX_VERTEX_ATTRIBS];
	bool alias_ok = vs->code->version < 300;
	int ret;

	if ((ret = foreach_var(lk, vs, attribute_var, NULL)) < 0)
		return ret;
	for (unsigned i = 0; i < GLES_MAX_VERTEX_ATTRIBS; i++)
		owner[i] = ~0u;
	for (unsigned i = 0; i < l->num_attributes; i++) {
		struct gles_attribute *a = &l->attributes[i];

		for (unsigned b = 0; a->location < 0 && b < lk->program->num_bindings; b++) {
			if (!strcmp(lk->program->bindings[b].name, a->name))
				a->location = (int)lk->program->bindings[b].location;
		}
		if (a->location < 0)
			continue;
		if ((unsigned)a->location + a->locations > GLES_MAX_VERTEX_ATTRIBS) {
			link_error(lk, "attribute %s at location %d needs %u locations, past %u",
				   a->name, a->location, a->locations, GLES_MAX_VERTEX_ATTRIBS);
			continue;
		}
		for (unsigned k = 0; k < a->locations; k++) {
			unsigned at = (unsigned)a->location + k;

			if (owner[at] != ~0u && !alias_ok)
				link_error(lk,
					   "attributes %s and %s alias at location %u (GLSL ES "
					   "3.00 shaders may not)",
					   l->attributes[owner[at]].name, a->name, at);
			owner[at] = i;
		}
	}
	for (unsigned i = 0; i < l->num_attributes; i++) {
		struct gles_attribute *a = &l->attributes[i];
		unsigned at = 0;

		if (a->location >= 0)
			continue;
		for (; at + a->locations <= GLES_MAX_VERTEX_ATTRIBS; at++) {
			bool free_run = true;

			for (unsigned k = 0; k < a->locations; k++)
				free_run &= owner[at + k] == ~0u;
			if (free_run)
				break;
		}
		if (at + a->locations > GLES_MAX_VERTEX_ATTRIBS) {
			link_error(lk, "no room for attribute %s among %u vertex attributes",
				   a->name, GLES_MAX_VERTEX_ATTRIBS);
			continue;
		}
		a->location = (int)at;
		for (unsigned k = 0; k < a->locations; k++)
			owner[at + k] = i;
	}
	return relocate_stage(lk, vs, relocate_attribute);
}

/* ---- fragment outputs ------------------------------------------------------------ */

static int output_var(struct link *lk, struct stage *st, const struct var *v, void *data)
{
	struct gles_linked *l = lk->l;
	struct gles_frag_output *o, *grown;
	uint32_t type = v->type, location = 0;
	unsigned size = 1;

	(void)data;
	if (v->builtin || v->storage != SpvStorageClassOutput)
		return 0;
	if (op(st, type) == SpvOpTypeArray) {
		size = array_length(st, type);
		type = operand(st, type, 0);
	}
	grown = realloc(l->outputs, (l->num_outputs + 1) * sizeof(*grown));
	if (!grown)
		return -ENOMEM;
	l->outputs = grown;
	o = &grown[l->num_outputs];
	o->name = strdup(v->name);
	if (!o->name)
		return -ENOMEM;
	l->num_outputs++;
	o->type = gl_type(st, type);
	o->size = size;
	decorated(st, v->id, -1, SpvDecorationLocation, &location);
	o->location = (int)location;
	o->index = 0;
	decorated(st, v->id, -1, SpvDecorationIndex, &o->index);
	return 0;
}

/*
 * GLSL ES 3.00 section 4.3.8.2: several outputs all have locations, inside
 * the draw buffers.  EXT_blend_func_extended adds index 1 (the second
 * blend source, inside the dual-source buffers), the locations
 * glBindFragDataLocationIndexedEXT gives outputs the shader places
 * nowhere, and, in a shader that enables it, places for the rest, the
 * linker's: the first free at index 0 (as ARB_blend_func_extended's GL
 * does).  Then the shader writes them there (relocation).
 */
static bool enables_blend_func_extended(const struct stage *fs)
{
	const char *p = fs->code->glsl.lowered;

	return p && strstr(p, "#extension GL_EXT_blend_func_extended");
}

static bool bound_output(const struct link *lk, struct gles_frag_output *o)
{
	const struct gles_program *program = lk->program;

	for (unsigned b = 0; b < program->num_frag_bindings; b++)
		if (!strcmp(program->frag_bindings[b].name, o->name)) {
			o->location = (int)program->frag_bindings[b].location;
			o->index = program->frag_bindings[b].index;
			return true;
		}
	return false;
}

static int link_outputs(struct link *lk, struct stage *fs)
{
	struct gles_linked *l = lk->l;
	unsigned owner[2][GLES_MAX_DRAW_BUFFERS],
	    limit[2] = { GLES_MAX_DRAW_BUFFERS, GLES_MAX_DUAL_SOURCE_DRAW_BUFFERS };
	bool located[64] = { false }, relaxed = enables_blend_func_extended(fs);
	int ret;

	if ((ret = foreach_var(lk, fs, output_var, NULL)) < 0)
		return ret;
	if (fs->code->version < 300)
		return relocate_stage(lk, fs, relocate_output);
	for (unsigned i = 0; i < GLES_MAX_DRAW_BUFFERS; i++)
		owner[0][i] = owner[1][i] = ~0u;
	for (unsigned i = 0; i < l->num_outputs && i < 64; i++) {
		struct gles_frag_output *o = &l->outputs[i];
		const char *lowered = agx_glsl_lowered_name(&fs->code->glsl, o->name);

		/* a placed output's location is the lowering's placeholder (rule 16) */
		located[i] = explicit_location(fs, "out", lowered) >= 0 &&
			     !agx_glsl_placed(&fs->code->glsl, o->name);
		if (!located[i])
			located[i] = bound_output(lk, o);
		if (!located[i] && l->num_outputs > 1 && !relaxed)
			link_error(lk, "fragment output %s has no location, and there are several",
				   o->name);
	}
	/* the located first, then the rest where there is room */
	for (unsigned pass = 0; pass < 2; pass++)
		for (unsigned i = 0; i < l->num_outputs && i < 64; i++) {
			struct gles_frag_output *o = &l->outputs[i];
			unsigned x;

			if (located[i] != (pass == 0))
				continue;
			if (!located[i]) {
				unsigned at = 0;

				o->index = 0;
				for (; at + o->size <= GLES_MAX_DRAW_BUFFERS; at++) {
					unsigned k = 0;

					while (k < o->size && owner[0][at + k] == ~0u)
						k++;
					if (k == o->size)
						break;
				}
				o->location = (int)at;
			}
			x = o->index ? 1 : 0;
			if (o->location < 0 || (unsigned)o->location + o->size > limit[x]) {
				link_error(lk,
					   "fragment output %s at location %d index %u is past the "
					   "%u %sdraw buffers",
					   o->name, o->location, o->index, limit[x],
					   x ? "dual-source " : "");
				continue;
			}
			for (unsigned k = 0; k < o->size; k++) {
				if (owner[x][o->location + k] != ~0u)
					link_error(lk,
						   "fragment outputs %s and %s share location %u "
						   "index %u",
						   l->outputs[owner[x][o->location + k]].name,
						   o->name, o->location + k, x);
				owner[x][o->location + k] = i;
			}
		}
	return relocate_stage(lk, fs, relocate_output);
}

/* ---- varyings ---------------------------------------------------------------------- */

struct varyings_pass {
	struct stage *vs;
	unsigned components;
};

static int vs_output_components(struct link *lk, struct stage *st, const struct var *v, void *data)
{
	unsigned *n = data;

	(void)lk;
	if (!v->builtin && v->storage == SpvStorageClassOutput)
		*n += 4 * locations_of(st, v->type);
	return 0;
}

/* The vertex shader's user output of name, or false */
static bool find_vs_output(struct stage *vs, const char *name, struct var *out)
{
	for (size_t i = 0; i < vs->m.num_insts; i++) {
		const struct agx_spirv_inst *in = &vs->m.insts[i];

		if (in->opcode == SpvOpFunction)
			break;
		if (in->opcode != SpvOpVariable ||
		    agx_spirv_operand(in, 0) != SpvStorageClassOutput ||
		    decorated(vs, in->result, -1, SpvDecorationBuiltIn, NULL))
			continue;
		out->id = in->result;
		out->type = operand(vs, in->type, 1);
		out->lowered = agx_spirv_name(&vs->m, in->result);
		out->name = original(vs, out->lowered);
		if (!strcmp(out->name, name))
			return true;
	}
	return false;
}

static unsigned interpolation(const struct stage *st, uint32_t id)
{
	return (decorated(st, id, -1, SpvDecorationFlat, NULL) ? 1 : 0) |
	       (decorated(st, id, -1, SpvDecorationCentroid, NULL) ? 2 : 0) |
	       (decorated(st, id, -1, SpvDecorationNoPerspective, NULL) ? 4 : 0);
}

/*
 * Whether a GLSL ES 1.00 source declares name invariant at global scope
 * ("invariant varying vec2 v;", "invariant v, gl_FragCoord;").  A 1.00
 * fragment shader's invariance is read from its own text: the lowering
 * drops it (docs/compiler.md, rule 4), 3.00 having none on inputs.
 */
static bool declared_invariant(const char *src, const char *name)
{
	const char *p = src;
	struct token t, prev;
	int depth = 0;

	if (!src)
		return false;
	for (t = next_token(&p); t.n; t = next_token(&p)) {
		if (is_punct(t, '{'))
			depth++;
		else if (is_punct(t, '}'))
			depth--;
		if (depth || !token_is(t, "invariant"))
			continue;
		for (prev = t, t = next_token(&p); t.n && !is_punct(t, ';') && !is_punct(t, '{');
		     prev = t, t = next_token(&p)) {
			if ((is_punct(t, ',') || is_punct(t, '[')) && token_is_name(prev, name))
				return true;
		}
		if (is_punct(t, ';') && token_is_name(prev, name))
			return true;
		if (is_punct(t, '{'))
			depth++;
	}
	return false;
}

/* Whether the vertex shader's built-in output (a gl_PerVertex member) is invariant */
static bool builtin_invariant(const struct stage *vs, SpvBuiltIn builtin)
{
	for (size_t i = 0; i < vs->m.num_decorations; i++) {
		const struct agx_spirv_decoration *d = &vs->m.decorations[i];

		if (d->decoration == SpvDecorationBuiltIn && d->value == (uint32_t)builtin &&
		    d->member >= 0)
			return vs->code->glsl.invariant_all ||
			       decorated(vs, d->target, d->member, SpvDecorationInvariant, NULL);
	}
	return vs->code->glsl.invariant_all;
}

/*
 * GLSL ES 1.00 section 4.6.4: a varying is invariant in both shaders or in
 * neither, gl_FragCoord may be invariant only where gl_Position is, and
 * gl_PointCoord only where gl_PointSize is.  (3.00 dropped these rules.)
 * A vertex shader with "#pragma STDGL invariant(all)" has every output
 * invariant without saying so; its varyings are not checked (Mesa checks
 * the explicit qualifier only).
 */
static void check_invariance_100(struct link *lk, struct stage *vs, struct stage *fs)
{
	const char *src = fs->code->source;
	struct gles_linked *l = lk->l;

	if (declared_invariant(src, "gl_FragCoord") && !builtin_invariant(vs, SpvBuiltInPosition))
		link_error(lk, "gl_FragCoord is invariant and gl_Position is not");
	if (declared_invariant(src, "gl_PointCoord") && !builtin_invariant(vs, SpvBuiltInPointSize))
		link_error(lk, "gl_PointCoord is invariant and gl_PointSize is not");
	if (vs->code->glsl.invariant_all)
		return;
	for (unsigned i = 0; i < l->num_varyings; i++) {
		const struct gles_varying *v = &l->varyings[i];
		const char *lowered, *name;
		struct var out;

		if (v->fragment_var < 0)
			continue;
		lowered = fs->info->vars[v->fragment_var].name;
		name = original(fs, lowered);
		if (!find_vs_output(vs, name, &out))
			continue;
		if (decorated(vs, out.id, -1, SpvDecorationInvariant, NULL) !=
		    declared_invariant(src, name))
			link_error(lk, "varying %s is invariant in one stage and not the other",
				   name);
	}
}

/*
 * The reflection vars of a matched vertex output and fragment input: the
 * two vars, or for a struct the leaves the compiler records for it in
 * each stage ("v.a", "v.b": docs/compiler.md), paired by their path past
 * the var's name (the types being the same, so are the leaves).
 */
static int pair_leaves(struct gles_linked *l, const struct stage *vs, const char *vs_name,
		       const struct stage *fs, const char *fs_name)
{
	size_t fn = fs_name ? strlen(fs_name) : 0;
	char *want;

	for (unsigned i = 0; fs_name && vs_name && i < fs->info->num_vars; i++) {
		const struct agx_shader_var *in = &fs->info->vars[i];
		struct gles_varying *grown;
		const char *path;
		int out;

		if (in->kind != AGX_SHADER_INPUT || !in->name || strncmp(in->name, fs_name, fn))
			continue;
		path = in->name + fn;
		if (*path && *path != '.' && *path != '[')
			continue;
		if (asprintf(&want, "%s%s", vs_name, path) < 0)
			return -ENOMEM;
		out = info_var(vs, AGX_SHADER_OUTPUT, want);
		free(want);
		grown = realloc(l->varyings, (l->num_varyings + 1) * sizeof(*grown));
		if (!grown)
			return -ENOMEM;
		l->varyings = grown;
		grown[l->num_varyings++] = (struct gles_varying){ out, (int)i };
	}
	return 0;
}

/*
 * GLSL ES 3.00 section 4.3.4 and 4.3.10, 1.00 section 4.3.5: a fragment
 * input the shader uses needs a vertex output of its name, of the same
 * type; in 3.00 with the same interpolation qualifiers too.  Precision
 * need not match.
 */
static int fs_input(struct link *lk, struct stage *fs, const struct var *v, void *data)
{
	struct varyings_pass *pass = data;
	struct var out;

	if (v->builtin || v->storage != SpvStorageClassInput)
		return 0;
	pass->components += 4 * locations_of(fs, v->type);
	if (!find_vs_output(pass->vs, v->name, &out)) {
		if (v->used)
			link_error(lk, "fragment input %s is not written by the vertex shader",
				   v->name);
		return 0;
	}
	if (!same_type(pass->vs, out.type, fs, v->type, false, false)) {
		link_error(lk, "varying %s has different types in the two stages", v->name);
		return 0;
	}
	if (fs->code->version >= 300 &&
	    interpolation(pass->vs, out.id) != interpolation(fs, v->id)) {
		link_error(lk,
			   "varying %s has different interpolation qualifiers in the two stages",
			   v->name);
		return 0;
	}
	return pair_leaves(lk->l, pass->vs, out.lowered, fs, v->lowered);
}

static int link_varyings(struct link *lk, struct stage *vs, struct stage *fs)
{
	struct varyings_pass pass = { vs, 0 };
	unsigned out = 0, max_out = vs->code->version >= 300 ? GLES_MAX_VERTEX_OUTPUT_COMPONENTS
							     : GLES_MAX_VARYING_COMPONENTS;
	int ret;

	if ((ret = foreach_var(lk, vs, vs_output_components, &out)) < 0)
		return ret;
	if (out > max_out)
		link_error(lk, "the vertex shader's outputs take %u components, more than %u", out,
			   max_out);
	if ((ret = foreach_var(lk, fs, fs_input, &pass)) < 0)
		return ret;
	if (pass.components > GLES_MAX_FRAGMENT_INPUT_COMPONENTS)
		link_error(lk, "the fragment shader's inputs take %u components, more than %u",
			   pass.components, GLES_MAX_FRAGMENT_INPUT_COMPONENTS);
	if (fs->code->version < 300)
		check_invariance_100(lk, vs, fs);
	return 0;
}

/* ---- transform feedback varyings (section 2.15.1) -------------------------------------- */

static int link_xfb(struct link *lk, struct stage *vs)
{
	struct gles_program *p = lk->program;
	struct gles_linked *l = lk->l;
	unsigned total = 0;

	l->xfb_mode = p->xfb_mode;
	if (!p->num_xfb_names)
		return 0;
	l->xfb = calloc(p->num_xfb_names, sizeof(*l->xfb));
	if (!l->xfb)
		return -ENOMEM;
	for (unsigned i = 0; i < p->num_xfb_names; i++) {
		const char *want = p->xfb_names[i];
		struct gles_xfb_varying *x = &l->xfb[l->num_xfb];
		const struct type_name *t = NULL;
		const struct agx_shader_var *v = NULL;
		unsigned long element = 0;
		size_t base = strlen(want);
		bool subscript = gles_split_subscript(want, &base, &element);

		for (unsigned k = 0; k < i; k++) {
			if (!strcmp(p->xfb_names[k], want))
				link_error(lk, "transform feedback varying %s is named twice",
					   want);
		}
		for (unsigned k = 0; !v && k < vs->info->num_vars; k++) {
			const struct agx_shader_var *o = &vs->info->vars[k];
			char *name;

			if (o->kind != AGX_SHADER_OUTPUT || !o->name)
				continue;
			/* a struct's leaves are "s.f", "s[1].f" (docs/compiler.md) */
			name = agx_glsl_original_path(&vs->code->glsl, o->name);
			if (!name)
				return -ENOMEM;
			if (!strcmp(name, want) ||
			    (subscript && o->array_size && strlen(name) == base &&
			     !strncmp(name, want, base) && element < o->array_size)) {
				v = o;
				x->vertex_var = (int)k;
			}
			free(name);
		}
		if (v)
			t = type_by_glsl(v->glsl_type);
		if (!v || !t || v->slot < 0) {
			link_error(
			    lk, "transform feedback varying %s is no output of the vertex shader",
			    want);
			continue;
		}
		x->name = strdup(want);
		if (!x->name)
			return -ENOMEM;
		l->num_xfb++;
		x->type = t->type;
		x->size = v->array_size && !subscript ? v->array_size : 1;
		x->first_word = subscript ? (unsigned)element * t->components : 0;
		x->components = x->size * t->components;
		x->width = t->components / (t->locations ? t->locations : 1);
		if (p->xfb_mode == GL_SEPARATE_ATTRIBS &&
		    x->components > GLES_MAX_TRANSFORM_FEEDBACK_SEPARATE_COMPONENTS)
			link_error(
			    lk, "transform feedback varying %s has %u components, more than %u",
			    want, x->components, GLES_MAX_TRANSFORM_FEEDBACK_SEPARATE_COMPONENTS);
		total += x->components;
	}
	if (p->xfb_mode == GL_INTERLEAVED_ATTRIBS &&
	    total > GLES_MAX_TRANSFORM_FEEDBACK_INTERLEAVED_COMPONENTS)
		link_error(lk, "the transform feedback varyings have %u components, more than %u",
			   total, GLES_MAX_TRANSFORM_FEEDBACK_INTERLEAVED_COMPONENTS);
	return 0;
}

/* ---- the link ---------------------------------------------------------------------- */

static int prepare_stage(struct link *lk, struct stage *st, struct gles_shader *shader)
{
	struct gles_program_stage *ps = &lk->l->stages[st->index];
	char why[256];
	int ret;

	st->code = shader->code;
	ps->code = gles_shader_code_ref(shader->code);
	if (st->code->status != 0) {
		link_error(lk, "the %s shader: %s", st->what,
			   st->code->glsl.log.text && st->code->glsl.log.text[0]
			       ? st->code->glsl.log.text
			       : "the front end made no SPIR-V of it");
		return 0;
	}
	ret = agx_spirv_parse(st->code->glsl.spirv, st->code->glsl.spirv_words, &st->m, why,
			      sizeof(why));
	if (ret < 0) {
		if (ret == -ENOMEM)
			return ret;
		link_error(lk, "the %s shader's SPIR-V: %s", st->what, why);
		return 0;
	}
	st->parsed = true;
	if ((ret = mark_used(st)) < 0)
		return ret;
	ret = agx_compile_spirv(st->code->stage, st->code->glsl.spirv, st->code->glsl.spirv_words,
				NULL, &ps->binary);
	if (ret == -ENOMEM)
		return ret;
	if (ret < 0) {
		link_error(lk, "the %s shader does not compile here: %s", st->what,
			   ps->binary.log ? ps->binary.log : "no reason given");
		return 0;
	}
	st->info = &ps->binary.info;
	return 0;
}

struct gles_linked *gles_program_link(struct gles_program *program, char **log)
{
	struct stage stages[GLES_STAGES] = { { .index = GLES_STAGE_VERTEX, .what = "vertex" },
					     { .index = GLES_STAGE_FRAGMENT, .what = "fragment" } };
	struct link lk = { .program = program };
	int ret = 0;

	*log = NULL;
	lk.l = calloc(1, sizeof(*lk.l));
	if (!lk.l) {
		*log = strdup("error: out of memory\n");
		return NULL;
	}
	lk.l->refs = 1;
	/* section 2.11.3: both stages, each compiled */
	for (unsigned s = 0; s < GLES_STAGES; s++) {
		struct gles_shader *shader = program->shaders[s];

		if (!shader)
			link_error(&lk, "no %s shader is attached", stages[s].what);
		else if (!shader->compiled || !shader->code)
			link_error(&lk, "the %s shader is not compiled", stages[s].what);
	}
	if (lk.failed)
		goto out;
	/* GLSL ES 3.00 section 1.5: 1.00 and 3.00 shaders do not link together */
	if (program->shaders[0]->code->version != program->shaders[1]->code->version) {
		link_error(&lk, "a GLSL ES %s vertex shader and a GLSL ES %s fragment shader",
			   program->shaders[0]->code->version >= 300 ? "3.00" : "1.00",
			   program->shaders[1]->code->version >= 300 ? "3.00" : "1.00");
		goto out;
	}
	lk.l->version = program->shaders[0]->code->version;
	for (unsigned s = 0; s < GLES_STAGES && ret >= 0; s++)
		ret = prepare_stage(&lk, &stages[s], program->shaders[s]);
	if (ret < 0 || lk.failed)
		goto out;
	for (unsigned s = 0; s < GLES_STAGES && ret >= 0; s++)
		ret = stage_uniforms(&lk, &stages[s]);
	if (ret >= 0)
		ret = link_uniforms(&lk, stages);
	if (ret >= 0)
		ret = link_attributes(&lk, &stages[0]);
	if (ret >= 0)
		ret = link_outputs(&lk, &stages[1]);
	if (ret >= 0)
		ret = link_varyings(&lk, &stages[0], &stages[1]);
	if (ret >= 0)
		ret = link_xfb(&lk, &stages[0]);
out:
	for (unsigned s = 0; s < GLES_STAGES; s++) {
		if (stages[s].parsed)
			agx_spirv_module_finish(&stages[s].m);
		free(stages[s].used);
	}
	if (ret < 0 || lk.oom) {
		free(lk.log);
		lk.log = strdup("error: out of memory\n");
		lk.failed = true;
	}
	*log = lk.log;
	if (lk.failed) {
		gles_linked_unref(lk.l);
		return NULL;
	}
	return lk.l;
}
