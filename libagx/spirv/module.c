/*
 * module.c: a SPIR-V module read and indexed (agx/spirv.h).  The layout
 * is the SPIR-V specification's (section 2.3, physical layout): a header
 * of five words, then instructions whose first word holds the word count
 * in its high half and the opcode in its low half.  Which opcodes carry a
 * result type and a result id comes from the Khronos SPIR-V headers'
 * SpvHasResultAndType (Debian spirv-headers).
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SPV_ENABLE_UTILITY_CODE
#include "agx/spirv.h"

/* spirv.h's utility function is C99 inline: this file is where its one definition lives. */
extern void SpvHasResultAndType(SpvOp opcode, bool *hasResult, bool *hasResultType);

static int refuse(char *why, size_t size, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static int refuse(char *why, size_t size, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, size, fmt, ap);
	va_end(ap);
	return -EINVAL;
}

/* OpDecorate and OpMemberDecorate, kept in a list for agx_spirv_decorated(). */
static int index_decoration(struct agx_spirv_module *m, const struct agx_spirv_inst *in, char *why,
			    size_t size, size_t *cap)
{
	struct agx_spirv_decoration d = { .member = -1 };
	unsigned first = 2;

	if (in->opcode == SpvOpMemberDecorate) {
		if (in->count < 4)
			return refuse(why, size, "OpMemberDecorate of %u words", in->count);
		d.member = (int32_t)in->words[2];
		first = 3;
	} else if (in->count < 3) {
		return refuse(why, size, "OpDecorate of %u words", in->count);
	}
	d.target = in->words[1];
	d.decoration = (SpvDecoration)in->words[first];
	d.value = in->count > first + 1 ? in->words[first + 1] : 0;
	if (d.target == 0 || d.target >= m->bound)
		return refuse(why, size, "a decoration of id %u, past the bound %u", d.target,
			      m->bound);
	if (m->num_decorations == *cap) {
		size_t grown = *cap ? 2 * *cap : 64;
		struct agx_spirv_decoration *n = realloc(m->decorations, grown * sizeof(*n));

		if (!n)
			return -ENOMEM;
		m->decorations = n;
		*cap = grown;
	}
	m->decorations[m->num_decorations++] = d;
	return 0;
}

static int read_inst(struct agx_spirv_module *m, const uint32_t *w, size_t left,
		     struct agx_spirv_inst *in, char *why, size_t size)
{
	bool has_result, has_type;
	unsigned pos = 1;

	in->count = (uint16_t)(w[0] >> 16);
	in->opcode = (SpvOp)(w[0] & 0xffff);
	in->words = w;
	in->type = in->result = 0;
	if (in->count == 0 || in->count > left)
		return refuse(why, size, "opcode %u of %u words, with %zu left",
			      (unsigned)in->opcode, in->count, left);
	SpvHasResultAndType(in->opcode, &has_result, &has_type);
	if (has_type) {
		if (pos >= in->count)
			return refuse(why, size, "opcode %u without its result type",
				      (unsigned)in->opcode);
		in->type = w[pos++];
		if (in->type == 0 || in->type >= m->bound)
			return refuse(why, size, "opcode %u: type id %u past the bound %u",
				      (unsigned)in->opcode, in->type, m->bound);
	}
	if (has_result) {
		if (pos >= in->count)
			return refuse(why, size, "opcode %u without its result id",
				      (unsigned)in->opcode);
		in->result = w[pos++];
		if (in->result == 0 || in->result >= m->bound)
			return refuse(why, size, "opcode %u: result id %u past the bound %u",
				      (unsigned)in->opcode, in->result, m->bound);
	}
	in->operands = (uint16_t)pos;
	return 0;
}

int agx_spirv_parse(const uint32_t *words, size_t count, struct agx_spirv_module *m, char *why,
		    size_t why_size)
{
	size_t cap_decorations = 0, n = 0;
	int ret;

	memset(m, 0, sizeof(*m));
	m->local_size[0] = m->local_size[1] = m->local_size[2] = 1;
	if (count < 5 || words[0] != SpvMagicNumber)
		return refuse(why, why_size, "not SPIR-V: %s",
			      count < 5 ? "shorter than its header" : "no magic number");
	m->version = words[1];
	m->generator = words[2];
	m->bound = words[3];
	if (m->bound == 0 || m->bound > AGX_SPIRV_MAX_BOUND)
		return refuse(why, why_size, "an id bound of %u (at most %u)", m->bound,
			      AGX_SPIRV_MAX_BOUND);
	if (words[4] != 0)
		return refuse(why, why_size, "schema word %u, not 0", words[4]);
	/* an instruction takes a word at least: count - 5 bounds their number */
	m->insts = calloc(count - 5 ? count - 5 : 1, sizeof(*m->insts));
	m->defs = calloc(m->bound, sizeof(*m->defs));
	if (!m->insts || !m->defs) {
		agx_spirv_module_finish(m);
		return -ENOMEM;
	}
	for (size_t at = 5; at < count; n++) {
		struct agx_spirv_inst *in = &m->insts[n];

		ret = read_inst(m, words + at, count - at, in, why, why_size);
		if (ret == 0 && in->result) {
			if (m->defs[in->result])
				ret = refuse(why, why_size, "id %u defined twice", in->result);
			else
				m->defs[in->result] = (uint32_t)n + 1;
		}
		if (ret == 0 && (in->opcode == SpvOpDecorate || in->opcode == SpvOpMemberDecorate))
			ret = index_decoration(m, in, why, why_size, &cap_decorations);
		if (ret == 0 && in->opcode == SpvOpEntryPoint && !m->entry_point) {
			if (in->count < 4)
				ret = refuse(why, why_size, "OpEntryPoint of %u words", in->count);
			else
				m->entry_point = in;
		}
		if (ret == 0 && in->opcode == SpvOpExecutionMode && in->count >= 6 &&
		    in->words[2] == SpvExecutionModeLocalSize)
			memcpy(m->local_size, in->words + 3, sizeof(m->local_size));
		if (ret < 0) {
			char where[48];

			snprintf(where, sizeof(where), " (word %zu)", at);
			if (ret == -EINVAL && strlen(why) + strlen(where) < why_size)
				strcat(why, where);
			agx_spirv_module_finish(m);
			return ret;
		}
		at += in->count;
	}
	m->num_insts = n;
	return 0;
}

void agx_spirv_module_finish(struct agx_spirv_module *m)
{
	free(m->insts);
	free(m->defs);
	free(m->decorations);
	memset(m, 0, sizeof(*m));
}

const struct agx_spirv_inst *agx_spirv_def(const struct agx_spirv_module *m, uint32_t id)
{
	if (id == 0 || id >= m->bound || !m->defs[id])
		return NULL;
	return &m->insts[m->defs[id] - 1];
}

unsigned agx_spirv_num_operands(const struct agx_spirv_inst *inst)
{
	return inst->count > inst->operands ? inst->count - inst->operands : 0;
}

uint32_t agx_spirv_operand(const struct agx_spirv_inst *inst, unsigned i)
{
	return i < agx_spirv_num_operands(inst) ? inst->words[inst->operands + i] : 0;
}

const char *agx_spirv_string(const struct agx_spirv_inst *inst, unsigned i, unsigned *next)
{
	unsigned n = agx_spirv_num_operands(inst);

	if (i >= n)
		return NULL;
	/* a literal string is NUL-terminated and padded to whole words */
	for (unsigned w = i; w < n; w++) {
		uint32_t word = inst->words[inst->operands + w];

		for (unsigned b = 0; b < 4; b++)
			if (((word >> (8 * b)) & 0xff) == 0) {
				if (next)
					*next = w + 1;
				return (const char *)(inst->words + inst->operands + i);
			}
	}
	return NULL;
}

const char *agx_spirv_name(const struct agx_spirv_module *m, uint32_t id)
{
	for (size_t i = 0; i < m->num_insts; i++) {
		const struct agx_spirv_inst *in = &m->insts[i];

		/* OpName has no result: its target is operand 0, the string from operand 1 */
		if (in->opcode == SpvOpName && in->count >= 3 && in->words[1] == id)
			return agx_spirv_string(in, 1, NULL);
	}
	return NULL;
}

bool agx_spirv_decorated(const struct agx_spirv_module *m, uint32_t id, int32_t member,
			 SpvDecoration decoration, uint32_t *value)
{
	for (size_t i = 0; i < m->num_decorations; i++) {
		const struct agx_spirv_decoration *d = &m->decorations[i];

		if (d->target == id && d->member == member && d->decoration == decoration) {
			if (value)
				*value = d->value;
			return true;
		}
	}
	return false;
}
