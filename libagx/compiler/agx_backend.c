/*
 * agx_backend.c: agx_backend_compile() of agx_compile.h -- what the back
 * end takes, the lowering passes in order, then the code generator
 * (agx_codegen.c) on the lowered IR.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "agx_compile.h"
#include "agx_mir.h"

/* Graphics I/O has no selection yet: refused before anything changes the shader. */
static const char *unsupported(struct agx_ir_shader *shader)
{
	agx_ir_foreach_function(shader, func) {
		agx_ir_foreach_block(func, b) {
			agx_ir_foreach_instr(b, in) {
				switch (in->op) {
				case AGX_IR_OP_load_input:
				case AGX_IR_OP_store_output:
				case AGX_IR_OP_load_frag_coord:
				case AGX_IR_OP_load_front_facing:
				case AGX_IR_OP_load_vertex_id:
				case AGX_IR_OP_load_instance_id:
				case AGX_IR_OP_discard:
					return agx_ir_op_info(in->op)->name;
				default:
					break;
				}
			}
		}
	}
	return NULL;
}

int agx_backend_compile(struct agx_ir_shader *shader, const struct agx_compile_options *options,
			struct agx_shader_binary *out, char **log)
{
	const char *op = unsupported(shader);
	FILE *fp = options ? options->ir_dump : NULL;

	if (op) {
		if (log) {
			char buf[128];

			snprintf(buf, sizeof(buf), "%s is not selected yet", op);
			*log = strdup(buf);
		}
		return -ENOTSUP;
	}
	agx_pass(shader, agx_lower_io);
	agx_ir_shader_dump(fp, "agx_lower_io", shader);
	agx_pass(shader, agx_lower_alu);
	agx_ir_shader_dump(fp, "agx_lower_alu", shader);
	/* lowering repeats itself (a division's corrections, address shifts): clean up again */
	agx_optimize(shader, fp);
	agx_ir_shader_dump(fp, "lowered", shader);
	return agx_codegen(shader, options, out, log);
}
