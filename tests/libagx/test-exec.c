/*
 * test-exec.c: runs the execution corpus (exec-kernels.h), one CMocka test
 * per kernel, on one of three paths:
 *
 *   test-exec glsl [KERNEL...]  each kernel's source makes SPIR-V (the corpus itself is valid)
 *   test-exec ir [KERNEL...]    GLSL -> SPIR-V -> agx_spirv_to_ir -> the IR interpreter
 *   test-exec opt [KERNEL...]   the same after agx_optimize
 *   test-exec lowered [...]     after agx_optimize, agx_lower_io and agx_lower_alu, the
 *                               uniform registers filled by the ABI
 *   test-exec usc [KERNEL...]   agx_compile_glsl -> machine code run on the simulated USC
 *
 * and compares the checked buffer with the kernel's CPU reference.  A
 * failure names the kernel, the invocation, its inputs, expected and got;
 * AGX_EXEC_DUMP=1 adds the source, the IR and (usc) the disassembly;
 * AGX_EXEC_MAX_REGISTERS=N compiles (usc) with N registers.
 * `test-exec list` prints the names.  A case's textures (exec_texture)
 * go to every path: the interpreter asks the texture model (tex-model.h)
 * at the IR's operands, and lowered IR and the binary get the size words
 * at each sampler var's uniform; the simulated USC gets the descriptors
 * and samplers at each sampler var's slot and the texels in its memory.
 */
#include <errno.h>
#include <inttypes.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "ir-test.h"

#include "agx/glsl.h"
#include "agx_compile.h"
#include "exec-kernels.h"
#include "ir-interp.h"
#include "agx/compiler.h"
#include "agx/isa.h"
#include "usc-run.h"

#define MAX_REPORTS 8

enum path { PATH_GLSL, PATH_IR, PATH_OPT, PATH_LOWERED, PATH_USC };

static enum path path;
static bool dump;

/* A diagnostic as TAP comment lines. */
/* What a FILE * collected, as notes. */
static void note_stream(char *buf, size_t len)
{
	if (len)
		note("%.*s", (int)len, buf);
}

static void dump_source(const struct exec_case *c)
{
	note("the kernel %s:\n%s", c->kernel->name, c->source);
}

/* Copies of the case's buffers, which a run writes. */
static uint8_t **copy_buffers(const struct exec_case *c)
{
	uint8_t **copy = calloc(EXEC_MAX_BUFFERS, sizeof(*copy));

	assert_non_null(copy);
	for (unsigned i = 0; i < c->num_buffers; i++) {
		copy[i] = malloc(c->buffers[i].size + 4);
		assert_non_null(copy[i]);
		memcpy(copy[i], c->buffers[i].data, c->buffers[i].size);
	}
	return copy;
}

static void free_buffers(uint8_t **copy)
{
	for (unsigned i = 0; copy && i < EXEC_MAX_BUFFERS; i++)
		free(copy[i]);
	free(copy);
}

/*
 * Compares the checked buffer with the expectations and frees the
 * buffers; then fails the test (a longjmp) when a word is wrong.
 */
static void check_and_free(const struct exec_case *c, uint8_t **bufs)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *report = open_memstream(&buf, &len);
	unsigned checked = 0;
	unsigned wrong = exec_case_check(c, bufs[c->check_buffer], report, MAX_REPORTS, &checked);

	if (report)
		fclose(report);
	free_buffers(bufs);
	if (wrong) {
		note("%s: %u of %u checked words wrong%s", c->kernel->name, wrong, checked,
		     wrong > MAX_REPORTS ? " (the first ones:)" : ":");
		note_stream(buf, len);
		if (!dump)
			note("(AGX_EXEC_DUMP=1 prints the source, the IR and the machine code)");
	}
	free(buf);
	if (wrong)
		fail_msg("%s: wrong results", c->kernel->name);
}

static const struct exec_uniform *find_uniform(const struct exec_case *c, const char *name)
{
	for (unsigned i = 0; i < c->num_uniforms; i++)
		if (name && !strcmp(c->uniforms[i].name, name))
			return &c->uniforms[i];
	return NULL;
}

/* ---- textures: the case's, by the sampler vars' names and slots ------------------------ */

/* textureSize's three words of level 0 (the uniform ABI): width, height, depth or layers or 1. */
static void texture_size_words(const struct exec_texture *t, uint32_t out[3])
{
	unsigned size[3];

	tex_level_size(&t->texture, 0, size);
	memcpy(out, size, sizeof(size));
}

/* The IR's sampler var holding texture state index `unit`, and the element: its texture. */
static const struct exec_texture *unit_texture(const struct exec_case *c,
					       const struct agx_ir_shader *shader, unsigned unit,
					       char *why, size_t whysize)
{
	for (unsigned i = 0; i < shader->num_vars; i++) {
		const struct agx_ir_var *v = &shader->vars[i];
		unsigned count = v->array_size ? v->array_size : 1;
		/* before lowering places it, a sampler's first state index is its binding */
		unsigned first = v->slot >= 0 ? (unsigned)v->slot : v->binding;
		const struct exec_texture *t;

		if (v->kind != AGX_IR_VAR_SAMPLER || unit < first || unit >= first + count)
			continue;
		t = exec_case_find_texture(c, v->name, unit - first);
		if (!t)
			snprintf(why, whysize, "the kernel binds no texture to %s[%u]",
				 v->name ? v->name : "(unnamed)", unit - first);
		return t;
	}
	snprintf(why, whysize, "no sampler var holds texture state %u", unit);
	return NULL;
}

struct interp_textures {
	const struct exec_case *c;
	const struct agx_ir_shader *shader;
};

/* The interpreter's texture ops: the model's answer at the IR's own operands. */
static int interp_texture(void *ctx, const struct ir_interp_tex *q, uint32_t *result, char *why,
			  size_t whysize)
{
	const struct interp_textures *it = ctx;
	const struct exec_texture *t = unit_texture(it->c, it->shader, q->unit, why, whysize);
	static const unsigned dims[] = {
		[TEX_2D] = 2, [TEX_3D] = 5, [TEX_CUBE] = 6, [TEX_2D_ARRAY] = 3
	};
	struct tex_query tq = { .compare = q->compare };
	struct tex_answer a;
	char model[200];
	float f;

	if (!t)
		return -1;
	if (q->dim != dims[t->texture.desc.target]) {
		snprintf(why, whysize, "dim %u for a texture of dim %u", q->dim,
			 dims[t->texture.desc.target]);
		return -1;
	}
	memcpy(tq.offset, q->offset, sizeof(tq.offset));
	if (q->op == AGX_IR_OP_texture_size) {
		tq.kind = TEX_SIZE;
		tq.level = (int32_t)q->lod;
	} else if (q->op == AGX_IR_OP_texture_load) {
		tq.kind = TEX_FETCH;
		for (unsigned k = 0; k < q->num_coords; k++)
			tq.icoord[k] = (int32_t)q->coord[k];
		if (q->has_layer)
			tq.icoord[2] = q->layer;
		tq.level = (int32_t)q->lod;
	} else {
		tq.kind = TEX_SAMPLE;
		for (unsigned k = 0; k < q->num_coords; k++) {
			memcpy(&f, &q->coord[k], 4);
			tq.coord[k] = f;
		}
		tq.layer = q->layer;
		if (q->lod_mode == 6) {
			memcpy(&f, &q->lod, 4);
			tq.lod = f;
		} else if (q->lod_mode == 4) {
			tq.grad = true;
			for (unsigned k = 0; k < q->num_coords; k++) {
				tq.dpdx[k] = q->grad[k];
				tq.dpdy[k] = q->grad[q->num_coords + k];
			}
		} else {
			/* GLSL ES 3.10 section 8.9: the base LOD outside fragment shaders */
			snprintf(why, whysize, "lod mode %u (implicit) in a compute shader",
				 q->lod_mode);
			return -1;
		}
		tq.reference = q->reference;
	}
	if (tex_model_query(&t->texture, &t->sampler, &tq, &a, model, sizeof(model)) != TEX_OK) {
		snprintf(why, whysize, "the model: %s", model);
		return -1;
	}
	if (a.integer) {
		*result = a.ivalue[q->component & 3];
	} else {
		f = (float)a.point[q->component & 3];
		memcpy(result, &f, 4);
	}
	return 0;
}

/* ---- glsl: the corpus makes SPIR-V ---------------------------------------------- */

static int to_spirv(const struct exec_case *c, struct agx_glsl_result *res)
{
	int ret = agx_glsl_to_spirv(AGX_GLSL_COMPUTE, c->source, strlen(c->source), res);

	if (ret) {
		note("%s: agx_glsl_to_spirv: %s\n%s", c->kernel->name, strerror(-ret),
		     res->log.text ? res->log.text : "");
		dump_source(c);
	}
	return ret;
}

static void run_glsl(const struct exec_case *c)
{
	struct agx_glsl_result res = { 0 };
	int ret = to_spirv(c, &res);

	agx_glsl_result_finish(&res);
	assert_int_equal(ret, 0);
}

/* ---- ir, opt, lowered: the compiler's IR on the interpreter ------------------------- */

/* Device addresses of the buffers: far apart, above 4 GiB (the high word matters). */
#define BUFFER_ADDRESS(i) (0x1000000000ull + (uint64_t)(i)*0x100000000ull)
#define UNIFORM_BLOCK	  EXEC_MAX_BUFFERS /* the address slot of spilled default uniforms */

static void dump_ir(const char *title, struct agx_ir_shader *shader)
{
	char *text = agx_ir_shader_to_string(shader);

	note("%s:\n%s", title, text ? text : "");
	free(text);
}

/* The kernel's IR from the translator, checked: valid, and the kernel's local size. */
static struct agx_ir_shader *translate(const struct exec_case *c)
{
	struct agx_glsl_result res = { 0 };
	struct agx_ir_shader *shader = NULL;
	char *log = NULL, *errors = NULL;
	int ret = to_spirv(c, &res);

	if (ret) {
		agx_glsl_result_finish(&res);
		fail_msg("%s: no SPIR-V", c->kernel->name);
	}
	ret = agx_spirv_to_ir(res.spirv, res.spirv_words, AGX_IR_STAGE_COMPUTE, &shader, &log);
	agx_glsl_result_finish(&res);
	if (ret) {
		note("%s: agx_spirv_to_ir: %s: %s", c->kernel->name, strerror(-ret),
		     log ? log : "(no log)");
		free(log);
		if (dump)
			dump_source(c);
		fail_msg("%s: the translator refused it", c->kernel->name);
	}
	free(log);
	if (dump) {
		dump_source(c);
		dump_ir("the translator's IR", shader);
	}
	if (!agx_ir_validate(shader, &errors)) {
		note("%s: the translator's IR is invalid:\n%s", c->kernel->name, errors);
		free(errors);
		agx_ir_shader_destroy(shader);
		fail_msg("%s: invalid IR", c->kernel->name);
	}
	free(errors);
	for (unsigned d = 0; d < 3; d++) {
		if (shader->local_size[d] != c->local[d]) {
			note("%s: the IR's local size is %ux%ux%u, the kernel's %ux%ux%u",
			     c->kernel->name, shader->local_size[0], shader->local_size[1],
			     shader->local_size[2], c->local[0], c->local[1], c->local[2]);
			agx_ir_shader_destroy(shader);
			fail_msg("%s: wrong local size", c->kernel->name);
		}
	}
	return shader;
}

/* The buffer of the case bound at a binding of a kind, or -1. */
static int case_buffer(const struct exec_case *c, unsigned binding, bool ubo)
{
	for (unsigned b = 0; b < c->num_buffers; b++)
		if (c->buffers[b].binding == binding && c->buffers[b].ubo == ubo)
			return (int)b;
	return -1;
}

/*
 * The uniform registers of a lowered shader, by the ABI (docs/compiler.md):
 * block addresses, gl_NumWorkGroups, the default-block uniforms in
 * registers or, spilled, in a block at *block.  Returns whether every
 * var found what it needs.
 */
static bool fill_uniform_regs(const struct exec_case *c, struct agx_ir_shader *shader,
			      uint32_t *regs, uint8_t **block)
{
	bool ok = true;

	*block = NULL;
	if (shader->uniform_block_uniform >= 0) {
		*block = calloc(1, shader->uniform_size + 4);
		assert_non_null(*block);
	}
	for (unsigned i = 0; i < shader->num_vars; i++) {
		const struct agx_ir_var *v = &shader->vars[i];
		bool ubo = v->kind == AGX_IR_VAR_UBO;

		if ((v->kind == AGX_IR_VAR_SSBO || ubo) && v->uniform >= 0 && v->uniform < 255) {
			int b = case_buffer(c, v->binding, ubo);
			if (b < 0) {
				note("%s: nothing to bind at %s binding %u", c->kernel->name,
				     ubo ? "uniform block" : "storage block", v->binding);
				ok = false;
				continue;
			}
			regs[v->uniform] = (uint32_t)BUFFER_ADDRESS(b);
			regs[v->uniform + 1] = (uint32_t)(BUFFER_ADDRESS(b) >> 32);
		} else if (v->kind == AGX_IR_VAR_SAMPLER && v->uniform >= 0) {
			/* textureSize: three words of level 0 per element */
			for (unsigned e = 0; e < (v->array_size ? v->array_size : 1); e++) {
				const struct exec_texture *t =
				    exec_case_find_texture(c, v->name, e);

				if (!t || v->uniform + 3 * (e + 1) > 256) {
					note("%s: no texture, or no room, for %s[%u]'s size",
					     c->kernel->name, v->name ? v->name : "(unnamed)", e);
					ok = false;
					continue;
				}
				texture_size_words(t, &regs[v->uniform + 3 * e]);
			}
		} else if (v->kind == AGX_IR_VAR_UNIFORM) {
			const struct exec_uniform *u = find_uniform(c, v->name);
			if (!u) {
				note("%s: the IR has a uniform %s the kernel does not set",
				     c->kernel->name, v->name ? v->name : "(unnamed)");
				ok = false;
			} else if (v->uniform >= 0 && v->uniform + u->components <= 256) {
				memcpy(&regs[v->uniform], u->value, 4 * u->components);
			} else if (*block &&
				   v->offset + 4 * u->components <= shader->uniform_size) {
				memcpy(*block + v->offset, u->value, 4 * u->components);
			} else {
				note("%s: uniform %s has no place", c->kernel->name, u->name);
				ok = false;
			}
		}
	}
	if (shader->uniform_block_uniform >= 0 && shader->uniform_block_uniform < 255) {
		regs[shader->uniform_block_uniform] = (uint32_t)BUFFER_ADDRESS(UNIFORM_BLOCK);
		regs[shader->uniform_block_uniform + 1] =
		    (uint32_t)(BUFFER_ADDRESS(UNIFORM_BLOCK) >> 32);
	}
	if (shader->num_workgroups_uniform >= 0 && shader->num_workgroups_uniform + 3 <= 256)
		memcpy(&regs[shader->num_workgroups_uniform], c->groups, 12);
	return ok;
}

static void run_interp(const struct exec_case *c, bool optimize, bool lower)
{
	struct agx_ir_shader *shader = translate(c);

	if (optimize) {
		agx_optimize(shader, NULL);
		if (dump)
			dump_ir("after agx_optimize", shader);
	}
	if (lower) {
		agx_pass(shader, agx_lower_io);
		agx_pass(shader, agx_lower_alu);
		if (dump)
			dump_ir("after agx_lower_io and agx_lower_alu", shader);
	}

	/* bindings, and the default-block uniforms at the translator's offsets */
	uint8_t **bufs = copy_buffers(c);
	struct ir_interp_buffer ssbos[EXEC_MAX_BUFFERS], ubos[EXEC_MAX_BUFFERS];
	struct ir_interp_memory mem[EXEC_MAX_BUFFERS + 1];
	unsigned num_ssbos = 0, num_ubos = 0, num_mem = 0;
	for (unsigned i = 0; i < c->num_buffers; i++) {
		struct ir_interp_buffer b = { c->buffers[i].binding, bufs[i], c->buffers[i].size };
		if (c->buffers[i].ubo)
			ubos[num_ubos++] = b;
		else
			ssbos[num_ssbos++] = b;
		mem[num_mem++] =
		    (struct ir_interp_memory){ BUFFER_ADDRESS(i), bufs[i], c->buffers[i].size };
	}
	uint8_t *block = calloc(1, shader->uniform_size + 4), *spilled = NULL;
	uint32_t regs[256] = { 0 };
	assert_non_null(block);
	bool uniforms_ok = true;
	if (lower) {
		uniforms_ok = fill_uniform_regs(c, shader, regs, &spilled);
		if (spilled)
			mem[num_mem++] = (struct ir_interp_memory){ BUFFER_ADDRESS(UNIFORM_BLOCK),
								    spilled, shader->uniform_size };
	}
	for (unsigned i = 0; i < shader->num_vars && !lower; i++) {
		const struct agx_ir_var *v = &shader->vars[i];
		const struct exec_uniform *u;

		if (v->kind != AGX_IR_VAR_UNIFORM)
			continue;
		u = find_uniform(c, v->name);
		if (!u) {
			note("%s: the IR has a uniform %s the kernel does not set", c->kernel->name,
			     v->name ? v->name : "(unnamed)");
			uniforms_ok = false;
		} else if ((size_t)v->offset + 4 * u->components > shader->uniform_size) {
			note("%s: uniform %s at %u + %u bytes is outside the %u-byte block",
			     c->kernel->name, u->name, v->offset, 4 * u->components,
			     shader->uniform_size);
			uniforms_ok = false;
		} else {
			memcpy(block + v->offset, u->value, 4 * u->components);
		}
	}
	struct interp_textures textures = { c, shader };
	struct ir_interp_args args = {
		.ssbos = ssbos,
		.num_ssbos = num_ssbos,
		.ubos = ubos,
		.num_ubos = num_ubos,
		.uniforms = block,
		.uniform_size = shader->uniform_size,
		.uniform_regs = regs,
		.num_uniform_regs = 256,
		.memory = mem,
		.num_memory = num_mem,
		.texture = interp_texture,
		.texture_ctx = &textures,
		.groups = { c->groups[0], c->groups[1], c->groups[2] },
		/* the corpus's longest loops take some thousands: far more means no end */
		.max_steps = 1 << 18,
	};
	char why[1024];
	int ret = uniforms_ok ? ir_interp_run(shader, &args, why, sizeof(why)) : -1;
	agx_ir_shader_destroy(shader);
	free(block);
	free(spilled);
	if (ret) {
		if (uniforms_ok)
			note("%s: the interpreter stopped: %s", c->kernel->name, why);
		free_buffers(bufs);
		fail_msg("%s: the run failed", c->kernel->name);
	}
	check_and_free(c, bufs);
}

/* ---- usc: compiled, run on the simulator ----------------------------------------------- */

/* Device addresses of the buffers: far apart, above 4 GiB (the high word matters). */
#define BUFFER_ADDRESS(i) (0x1000000000ull + (uint64_t)(i)*0x100000000ull)

static void run_usc(const struct exec_case *c)
{
	struct agx_compile_options opts = { 0 };
	struct agx_shader_binary bin = { 0 };
	char *ir_text = NULL;
	size_t ir_len = 0;
	FILE *ir = dump ? open_memstream(&ir_text, &ir_len) : NULL;

	opts.ir_dump = ir;
	/* AGX_EXEC_MAX_REGISTERS=N: fewer registers, to make the allocator spill */
	if (getenv("AGX_EXEC_MAX_REGISTERS"))
		opts.max_registers = (unsigned)strtoul(getenv("AGX_EXEC_MAX_REGISTERS"), NULL, 0);
	int ret = agx_compile_glsl(AGX_SHADER_COMPUTE, c->source, strlen(c->source), &opts, &bin);
	if (ir)
		fclose(ir);
	if (dump) {
		dump_source(c);
		note_stream(ir_text, ir_len);
	}
	free(ir_text);
	if (ret) {
		note("%s: agx_compile_glsl: %s: %s", c->kernel->name, strerror(-ret),
		     bin.log ? bin.log : "(no log)");
		agx_shader_binary_finish(&bin);
		fail_msg("%s: it does not compile", c->kernel->name);
	}
	if (dump) {
		char *text = NULL;
		size_t len = 0;
		FILE *f = open_memstream(&text, &len);
		if (f) {
			agx_isa_disassemble(bin.code, bin.size, f);
			fclose(f);
			note("the machine code:\n%.*s", (int)len, text ? text : "");
		}
		free(text);
	}
	const struct agx_shader_info *info = &bin.info;
	for (unsigned d = 0; d < 3; d++) {
		if (info->local_size[d] != c->local[d]) {
			note("%s: the binary's local size is %ux%ux%u, the kernel's %ux%ux%u",
			     c->kernel->name, info->local_size[0], info->local_size[1],
			     info->local_size[2], c->local[0], c->local[1], c->local[2]);
			agx_shader_binary_finish(&bin);
			fail_msg("%s: wrong local size", c->kernel->name);
		}
	}

	/* device memory: the buffers, and a block of uniforms that did not fit registers */
	uint8_t **bufs = copy_buffers(c);
	struct usc_run_buffer mem[EXEC_MAX_BUFFERS + 1 + EXEC_MAX_TEXTURES];
	unsigned num_mem = 0;
	for (unsigned i = 0; i < c->num_buffers; i++)
		mem[num_mem++] =
		    (struct usc_run_buffer){ BUFFER_ADDRESS(i), bufs[i], c->buffers[i].size };
	uint32_t uniforms[256] = { 0 };
	uint8_t *block = NULL;
	size_t block_size = 0;
	bool ok = info->num_uniforms <= 256;
	if (!ok)
		note("%s: %u uniform registers", c->kernel->name, info->num_uniforms);
	for (unsigned i = 0; ok && i < info->num_vars; i++) {
		const struct agx_shader_var *v = &info->vars[i];

		if (v->kind == AGX_SHADER_UNIFORM && info->uniform_block_uniform >= 0) {
			const struct exec_uniform *u = find_uniform(c, v->name);
			if (u && v->offset + 4 * u->components > block_size)
				block_size = v->offset + 4 * u->components;
		}
	}
	if (block_size) {
		block = calloc(1, block_size);
		assert_non_null(block);
		mem[num_mem++] =
		    (struct usc_run_buffer){ BUFFER_ADDRESS(EXEC_MAX_BUFFERS), block, block_size };
	}
	for (unsigned i = 0; ok && i < info->num_vars; i++) {
		const struct agx_shader_var *v = &info->vars[i];
		bool ubo = v->kind == AGX_SHADER_UNIFORM_BLOCK;

		if (v->kind == AGX_SHADER_STORAGE_BLOCK || ubo) {
			unsigned b;
			for (b = 0; b < c->num_buffers; b++)
				if (c->buffers[b].binding == v->binding && c->buffers[b].ubo == ubo)
					break;
			if (b == c->num_buffers) {
				note("%s: nothing to bind at %s binding %u", c->kernel->name,
				     ubo ? "uniform block" : "storage block", v->binding);
				ok = false;
			} else if (v->uniform >= 0 && v->uniform + 1 < 256) {
				uniforms[v->uniform] = (uint32_t)BUFFER_ADDRESS(b);
				uniforms[v->uniform + 1] = (uint32_t)(BUFFER_ADDRESS(b) >> 32);
			}
		} else if (v->kind == AGX_SHADER_UNIFORM) {
			const struct exec_uniform *u = find_uniform(c, v->name);
			if (!u) {
				note("%s: the binary has a uniform %s the kernel does not set",
				     c->kernel->name, v->name ? v->name : "(unnamed)");
				ok = false;
			} else if (v->uniform >= 0 && v->uniform + u->components <= 256) {
				memcpy(&uniforms[v->uniform], u->value, 4 * u->components);
			} else if (block) {
				memcpy(block + v->offset, u->value, 4 * u->components);
			}
		}
	}
	if (block && info->uniform_block_uniform >= 0 && info->uniform_block_uniform < 255) {
		uniforms[info->uniform_block_uniform] = (uint32_t)BUFFER_ADDRESS(EXEC_MAX_BUFFERS);
		uniforms[info->uniform_block_uniform + 1] =
		    (uint32_t)(BUFFER_ADDRESS(EXEC_MAX_BUFFERS) >> 32);
	}
	if (info->num_workgroups_uniform >= 0 && info->num_workgroups_uniform + 3 <= 256)
		memcpy(&uniforms[info->num_workgroups_uniform], c->groups, 12);

	/* textures: each sampler var's descriptors and samplers from its slot, the size words
	 * at its uniform, the texels in device memory where the descriptors say */
	uint8_t *tex_state = NULL, *samp_state = NULL;
	unsigned num_state = 0;
	for (unsigned i = 0; ok && i < info->num_vars; i++) {
		const struct agx_shader_var *v = &info->vars[i];
		unsigned count = v->array_size ? v->array_size : 1;

		if (v->kind != AGX_SHADER_SAMPLER)
			continue;
		if (v->slot < 0 || v->slot + count > 256) {
			note("%s: sampler %s has no texture state slot (%d)", c->kernel->name,
			     v->name, v->slot);
			ok = false;
			break;
		}
		if ((unsigned)v->slot + count > num_state)
			num_state = (unsigned)v->slot + count;
	}
	if (ok && num_state) {
		tex_state = calloc(num_state, 24);
		samp_state = calloc(num_state, 24);
		assert_non_null(tex_state);
		assert_non_null(samp_state);
	}
	for (unsigned i = 0; ok && i < info->num_vars; i++) {
		const struct agx_shader_var *v = &info->vars[i];

		if (v->kind != AGX_SHADER_SAMPLER)
			continue;
		for (unsigned e = 0; e < (v->array_size ? v->array_size : 1); e++) {
			const struct exec_texture *t = exec_case_find_texture(c, v->name, e);
			unsigned at = (unsigned)v->slot + e;

			if (!t) {
				note("%s: the kernel binds no texture to %s[%u]", c->kernel->name,
				     v->name, e);
				ok = false;
				break;
			}
			memcpy(tex_state + 24 * at, t->texture.descriptor, 24);
			assert_true(tex_sampler_pack(&t->sampler, samp_state + 24 * at));
			if (v->uniform >= 0 && v->uniform + 3 * (e + 1) <= 256)
				texture_size_words(t, &uniforms[v->uniform + 3 * e]);
		}
	}
	for (unsigned i = 0; i < c->num_textures; i++)
		mem[num_mem++] = (struct usc_run_buffer){ c->textures[i].texture.address,
							  c->textures[i].texture.data,
							  c->textures[i].texture.size };

	char why[1024] = "";
	if (ok) {
		struct usc_run_args args = {
			.code = bin.code,
			.size = bin.size,
			.uniforms = uniforms,
			.num_uniforms = info->num_uniforms,
			.buffers = mem,
			.num_buffers = num_mem,
			.groups = { c->groups[0], c->groups[1], c->groups[2] },
			.local = { c->local[0], c->local[1], c->local[2] },
			.textures = tex_state,
			.samplers = samp_state,
			.num_textures = num_state,
			.num_samplers = num_state,
			.shared_size = info->shared_size,
			.scratch_size = info->scratch_size,
		};
		ret = usc_run_grid(&args, why, sizeof(why));
		if (ret)
			note("%s: the simulator stopped: %s", c->kernel->name, why);
	}
	agx_shader_binary_finish(&bin);
	free(block);
	free(tex_state);
	free(samp_state);
	if (!ok || ret) {
		free_buffers(bufs);
		fail_msg("%s: the run failed", c->kernel->name);
	}
	check_and_free(c, bufs);
}

/* ---- the tests ------------------------------------------------------------------------- */

static void test_kernel(void **state)
{
	const struct exec_kernel *k = *state;
	struct exec_case c;
	int ret = exec_case_make(k, &c);

	if (ret) {
		exec_case_finish(&c);
		fail_msg("%s: no case: %s", k->name, strerror(-ret));
	}
	/* (the case lives in a static while the checks may longjmp out) */
	static struct exec_case current;
	exec_case_finish(&current);
	current = c;
	switch (path) {
	case PATH_GLSL:
		run_glsl(&current);
		break;
	case PATH_IR:
		run_interp(&current, false, false);
		break;
	case PATH_OPT:
		run_interp(&current, true, false);
		break;
	case PATH_LOWERED:
		run_interp(&current, true, true);
		break;
	case PATH_USC:
		run_usc(&current);
		break;
	}
	exec_case_finish(&current);
}

/*
 * With AGX_EXEC_MAX_REGISTERS, whether a kernel with textures compiles at
 * all: agx_codegen says -ENOSPC when the budget cannot hold one
 * instruction's operands (a lookup's coordinates, gradients and texel can
 * take more than 8 registers), and then there is nothing to spill and
 * nothing the run could check.  Such kernels are listed, not run.
 */
static bool fits_budget(const struct exec_kernel *k, unsigned max_registers)
{
	struct agx_compile_options opts = { .max_registers = max_registers };
	struct agx_shader_binary bin = { 0 };
	struct exec_case c;
	int ret = exec_case_make(k, &c);

	if (!ret && c.num_textures)
		ret = agx_compile_glsl(AGX_SHADER_COMPUTE, c.source, strlen(c.source), &opts, &bin);
	agx_shader_binary_finish(&bin);
	exec_case_finish(&c);
	return ret != -ENOSPC;
}

static int usage(void)
{
	fprintf(
	    stderr,
	    "usage: test-exec glsl|ir|opt|lowered|usc [KERNEL...]\n       test-exec list|stats\n");
	return 2;
}

int main(int argc, char **argv)
{
	unsigned count = exec_kernel_count();

	if (argc < 2)
		return usage();
	if (!strcmp(argv[1], "list")) {
		for (unsigned i = 0; i < count; i++)
			printf("%s\n", exec_kernel_get(i)->name);
		return 0;
	}
	if (!strcmp(argv[1], "stats")) {
		/* how many of each kernel's words its reference constrains */
		for (unsigned i = 0; i < count; i++) {
			const struct exec_kernel *k = exec_kernel_get(i);
			struct exec_case c;
			unsigned checked = 0;

			if (exec_case_make(k, &c) == 0) {
				for (unsigned w = 0; w < c.num_expect; w++)
					checked += c.expect[w].kind != EXEC_ANY;
				printf("%s %u %u\n", k->name, checked, c.num_expect);
			}
			exec_case_finish(&c);
		}
		return 0;
	}
	if (!strcmp(argv[1], "glsl"))
		path = PATH_GLSL;
	else if (!strcmp(argv[1], "ir"))
		path = PATH_IR;
	else if (!strcmp(argv[1], "opt"))
		path = PATH_OPT;
	else if (!strcmp(argv[1], "lowered"))
		path = PATH_LOWERED;
	else if (!strcmp(argv[1], "usc"))
		path = PATH_USC;
	else
		return usage();
	dump = getenv("AGX_EXEC_DUMP") && strcmp(getenv("AGX_EXEC_DUMP"), "0");
	unsigned budget = getenv("AGX_EXEC_MAX_REGISTERS")
			      ? (unsigned)strtoul(getenv("AGX_EXEC_MAX_REGISTERS"), NULL, 0)
			      : 0;

	struct CMUnitTest *tests = calloc(count ? count : 1, sizeof(*tests));
	unsigned n = 0;
	if (!tests)
		return 1;
	for (unsigned i = 0; i < count; i++) {
		const struct exec_kernel *k = exec_kernel_get(i);
		bool wanted = argc == 2;

		for (int a = 2; a < argc && !wanted; a++)
			wanted = !strcmp(argv[a], k->name);
		if (!wanted)
			continue;
		if (path == PATH_USC && budget && !fits_budget(k, budget)) {
			printf("# %s: not run: one instruction needs more than %u registers\n",
			       k->name, budget);
			continue;
		}
		tests[n++] = (struct CMUnitTest){ k->name, test_kernel, NULL, NULL, (void *)k };
	}
	for (int a = 2; a < argc; a++) {
		if (!exec_kernel_find(argv[a])) {
			fprintf(stderr, "test-exec: no kernel %s (test-exec list)\n", argv[a]);
			free(tests);
			return 2;
		}
	}
	int failed = _cmocka_run_group_tests(argv[1], tests, n, NULL, NULL);
	free(tests);
	return failed;
}
