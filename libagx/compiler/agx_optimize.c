/*
 * agx_optimize.c: agx_optimize() of agx_compile.h, the machine-independent
 * optimizations run until none changes anything.  Each round runs every
 * pass once, in an order where each feeds the next: copies out of the way,
 * constants folded, identities applied, trivial phis and constant ifs
 * gone, repeats merged, and what nobody reads removed.  The rounds are
 * bounded: a shader on which the passes kept changing each other's work
 * would stop after MAX_ROUNDS, still valid, only less optimized.
 */
#include "agx_compile.h"

#define MAX_ROUNDS 32

static const struct {
	agx_ir_pass_fn fn;
	const char *name;
} passes[] = {
	{ agx_opt_copy_prop, "agx_opt_copy_prop" },
	{ agx_opt_constant_fold, "agx_opt_constant_fold" },
	{ agx_opt_algebraic, "agx_opt_algebraic" },
	{ agx_opt_phi, "agx_opt_phi" },
	{ agx_opt_if, "agx_opt_if" },
	{ agx_opt_cse, "agx_opt_cse" },
	{ agx_opt_dce, "agx_opt_dce" },
};

void agx_optimize(struct agx_ir_shader *shader, FILE *ir_dump)
{
	for (unsigned round = 0; round < MAX_ROUNDS; round++) {
		bool progress = false;

		for (unsigned i = 0; i < sizeof(passes) / sizeof(passes[0]); i++) {
			/* agx_ir_pass_run validates after the pass, as agx_pass() does */
			if (!agx_ir_pass_run(shader, passes[i].fn, passes[i].name))
				continue;
			progress = true;
			if (ir_dump) {
				fprintf(ir_dump, "after %s:\n", passes[i].name);
				agx_ir_shader_print(shader, ir_dump);
			}
		}
		if (!progress)
			break;
	}
}
