/*
 * ir-test.h: what the compiler's IR tests share: diagnostics as TAP
 * comments, a shader with one function to build into, and the checks --
 * valid, invalid with a given complaint, equal to an expected shader, a
 * pass turning one shader into another.
 */
#ifndef TESTS_LIBAGX_IR_TEST_H
#define TESTS_LIBAGX_IR_TEST_H

#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "agx_builder.h"
#include "agx_ir.h"

/* A diagnostic as TAP comment lines ("# ..."), which the TAP reader passes over. */
void note(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* A compute shader with one function, "main", and a builder at its end. */
struct agx_ir_shader *shader_new(struct agx_ir_function **func, struct agx_builder *b);
/* A shader of stage with one function, "main", and a builder at its end. */
struct agx_ir_shader *stage_shader_new(enum agx_ir_stage stage, struct agx_builder *b);
void print_shader(const char *title, struct agx_ir_shader *s);
void assert_valid(struct agx_ir_shader *s);
/* The shader is invalid, with `lines` errors of which one says `want`; destroys it. */
void assert_invalid(struct agx_ir_shader *s, const char *want, unsigned lines);
void assert_equal_ir(struct agx_ir_shader *got, struct agx_ir_shader *want);
/* Runs pass on in (validating it), expects want and `progress`; destroys both. */
void check_pass(struct agx_ir_shader *in, struct agx_ir_shader *want, agx_ir_pass_fn pass,
		bool progress);
/*
 * A pass with options run on in (check_pass_options validates in first):
 * expects its progress and want; destroys both.
 */
void check_pass_checked(struct agx_ir_shader *in, struct agx_ir_shader *want, bool ran,
			bool progress);
#define check_pass_options(in, want, pass, options, progress)                                      \
	do {                                                                                       \
		assert_valid(in);                                                                  \
		check_pass_checked(in, want, agx_pass_options(in, pass, options), progress);       \
	} while (0)
void phi_add(struct agx_ir_value phi, struct agx_ir_block *pred, struct agx_ir_value v);
/* The last block of an if's arms. */
struct agx_ir_block *then_block(struct agx_ir_if *nif);
struct agx_ir_block *else_block(struct agx_ir_if *nif);
/* The function's block number n in program order. */
struct agx_ir_block *block_n(struct agx_ir_function *func, unsigned n);

#endif
