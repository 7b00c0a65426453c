/*
 * agx_print.c: the IR as text, for agxc --ir, test failures and the
 * validator's messages.  The form is stable (tests compare it exactly):
 *
 *   shader compute
 *   function main {
 *     block 0:
 *       %0:i32 = load_global_id component=0
 *       %1:b1 = ult %0, 64:i32
 *     if %1 {
 *       block 1:
 *     } else {
 *       block 2:
 *     }
 *     block 3:
 *       %2:i32 = phi [%0, block 1], [7:i32, block 2]
 *   }
 *
 * Blocks are numbered in program order; defs print their own numbers.
 * Immediates carry their type: integers in signed decimal, floats in the
 * shortest decimal that reads back to the same bits, b1 as true/false.
 */
#include <stdlib.h>
#include <string.h>

#include "agx_ir.h"

static void format_float(char *buf, size_t size, uint32_t bits, bool half)
{
	uint32_t abs = half ? bits & 0x7fff : bits & 0x7fffffff;
	uint32_t inf = half ? 0x7c00 : 0x7f800000, canonical_nan = half ? 0x7e00 : 0x7fc00000;
	bool negative = half ? bits & 0x8000 : bits & 0x80000000;
	float f;

	if (abs > inf) {
		if (bits == canonical_nan)
			snprintf(buf, size, "nan");
		else
			snprintf(buf, size, "nan(0x%x)", bits);
		return;
	}
	if (abs == inf) {
		snprintf(buf, size, negative ? "-inf" : "inf");
		return;
	}
	if (half) {
		f = agx_ir_f16_to_f32((uint16_t)bits);
	} else {
		memcpy(&f, &bits, sizeof(f));
	}
	for (int precision = 1; precision <= 9; precision++) {
		float back;
		uint32_t back_bits;

		snprintf(buf, size, "%.*g", precision, (double)f);
		back = strtof(buf, NULL);
		memcpy(&back_bits, &back, sizeof(back_bits));
		if (half ? agx_ir_f32_to_f16(back) == bits : back_bits == bits)
			break;
	}
	if (!strpbrk(buf, ".e"))
		strncat(buf, ".0", size - strlen(buf) - 1);
}

static void print_value(FILE *fp, const struct agx_ir_def *def, uint32_t imm, enum agx_ir_type type)
{
	char text[64];

	if (def) {
		fprintf(fp, "%%%u", def->index);
		return;
	}
	switch (type) {
	case AGX_IR_TYPE_B1:
		if (imm <= 1)
			fprintf(fp, imm ? "true" : "false");
		else
			fprintf(fp, "%u:b1", imm);
		return;
	case AGX_IR_TYPE_I16:
		fprintf(fp, "%d:i16", (int)(int16_t)imm);
		return;
	case AGX_IR_TYPE_I32:
		fprintf(fp, "%d:i32", (int32_t)imm);
		return;
	case AGX_IR_TYPE_F16:
	case AGX_IR_TYPE_F32:
		format_float(text, sizeof(text), imm, type == AGX_IR_TYPE_F16);
		fprintf(fp, "%s:%s", text, agx_ir_type_name(type));
		return;
	default:
		fprintf(fp, "0x%x:%s", imm, agx_ir_type_name(type));
		return;
	}
}

static void print_src(FILE *fp, const struct agx_ir_src *src)
{
	print_value(fp, src->def, src->imm, src->type);
}

void agx_ir_instr_print(struct agx_ir_instr *instr, FILE *fp)
{
	const struct agx_ir_op_info *info = agx_ir_op_info(instr->op);
	const char *sep = " ";

	if (agx_ir_instr_dest(instr))
		fprintf(fp, "%%%u:%s = ", instr->dest.index, agx_ir_type_name(instr->dest.type));
	fprintf(fp, "%s", info->name);
	agx_ir_foreach_src(instr, src) {
		fprintf(fp, "%s", sep);
		if (instr->op == AGX_IR_OP_phi) {
			fprintf(fp, "[");
			print_src(fp, src);
			if (src->pred)
				fprintf(fp, ", block %u]", src->pred->index);
			else
				fprintf(fp, ", no block]");
		} else {
			print_src(fp, src);
		}
		sep = ", ";
	}
	for (unsigned i = 0; i < info->num_imms; i++) {
		fprintf(fp, "%s%s=%u", sep, info->imm[i], instr->imm[i]);
		sep = ", ";
	}
}

static void indent(FILE *fp, unsigned depth)
{
	for (unsigned i = 0; i < depth; i++)
		fputs("  ", fp);
}

static void print_list(FILE *fp, struct agx_ir_cf_list *list, unsigned depth)
{
	for (struct agx_ir_link *l = list->nodes.next; l != &list->nodes; l = l->next) {
		struct agx_ir_cf_node *node = agx_ir_container_of(l, struct agx_ir_cf_node, link);

		indent(fp, depth);
		switch (node->type) {
		case AGX_IR_CF_BLOCK: {
			struct agx_ir_block *block = agx_ir_node_block(node);

			fprintf(fp, "block %u:\n", block->index);
			agx_ir_foreach_instr(block, instr) {
				indent(fp, depth + 1);
				agx_ir_instr_print(instr, fp);
				fputc('\n', fp);
			}
			break;
		}
		case AGX_IR_CF_IF: {
			struct agx_ir_if *nif = agx_ir_node_if(node);

			fprintf(fp, "if ");
			print_src(fp, &nif->cond);
			fprintf(fp, " {\n");
			print_list(fp, &nif->then_list, depth + 1);
			indent(fp, depth);
			fprintf(fp, "} else {\n");
			print_list(fp, &nif->else_list, depth + 1);
			indent(fp, depth);
			fprintf(fp, "}\n");
			break;
		}
		case AGX_IR_CF_LOOP:
			fprintf(fp, "loop {\n");
			print_list(fp, &agx_ir_node_loop(node)->body, depth + 1);
			indent(fp, depth);
			fprintf(fp, "}\n");
			break;
		default:
			fprintf(fp, "(a function node inside a function)\n");
			break;
		}
	}
}

void agx_ir_shader_print(struct agx_ir_shader *shader, FILE *fp)
{
	fprintf(fp, "shader %s\n", agx_ir_stage_name(shader->stage));
	agx_ir_foreach_function(shader, func) {
		agx_ir_function_index_blocks(func);
		fprintf(fp, "function %s {\n", func->name);
		print_list(fp, &func->body, 1);
		fprintf(fp, "}\n");
	}
}

char *agx_ir_shader_to_string(struct agx_ir_shader *shader)
{
	char *text = NULL;
	size_t len;
	FILE *fp = open_memstream(&text, &len);

	if (!fp)
		return NULL;
	agx_ir_shader_print(shader, fp);
	fclose(fp);
	return text;
}

char *agx_ir_instr_to_string(struct agx_ir_instr *instr)
{
	char *text = NULL;
	size_t len;
	FILE *fp = open_memstream(&text, &len);

	if (!fp)
		return NULL;
	agx_ir_instr_print(instr, fp);
	fclose(fp);
	return text;
}

void agx_ir_shader_dump(FILE *fp, const char *title, struct agx_ir_shader *shader)
{
	if (!fp)
		return;
	fprintf(fp, "%s:\n", title);
	agx_ir_shader_print(shader, fp);
	fflush(fp);
}
