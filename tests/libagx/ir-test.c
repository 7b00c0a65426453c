/*
 * ir-test.c: the helpers of ir-test.h.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ir-test.h"

/* A diagnostic as TAP comment lines ("# ..."), which the TAP reader passes over. */
void note(const char *fmt, ...)
{
	char *text = NULL;
	va_list ap;

	va_start(ap, fmt);
	if (vasprintf(&text, fmt, ap) < 0)
		text = NULL;
	va_end(ap);
	for (char *line = text, *end; line && *line; line = end) {
		end = strchr(line, '\n');
		end = end ? end + 1 : line + strlen(line);
		printf("# %.*s", (int)(end - line), line);
		if (end[-1] != '\n')
			putchar('\n');
	}
	fflush(stdout);
	free(text);
}

struct agx_ir_shader *shader_new(struct agx_ir_function **func, struct agx_builder *b)
{
	struct agx_ir_shader *s = agx_ir_shader_create(AGX_IR_STAGE_COMPUTE);

	assert_non_null(s);
	*func = agx_ir_function_create(s, "main");
	agx_builder_init(b, *func);
	return s;
}

struct agx_ir_shader *stage_shader_new(enum agx_ir_stage stage, struct agx_builder *b)
{
	struct agx_ir_shader *s = agx_ir_shader_create(stage);

	assert_non_null(s);
	agx_builder_init(b, agx_ir_function_create(s, "main"));
	return s;
}

void print_shader(const char *title, struct agx_ir_shader *s)
{
	char *text = agx_ir_shader_to_string(s);

	note("%s:\n%s", title, text);
	free(text);
}

void assert_valid(struct agx_ir_shader *s)
{
	char *errors = NULL;
	bool ok = agx_ir_validate(s, &errors);

	if (!ok) {
		note("unexpected validation errors:\n%s", errors);
		print_shader("the shader", s);
	}
	free(errors);
	assert_true(ok);
}

static unsigned count_lines(const char *text)
{
	unsigned n = 0;

	for (; *text; text++)
		n += *text == '\n';
	return n;
}

/* The shader is invalid, with `lines` errors of which one says `want`. */
void assert_invalid(struct agx_ir_shader *s, const char *want, unsigned lines)
{
	char *errors = NULL;

	assert_false(agx_ir_validate(s, &errors));
	assert_non_null(errors);
	if (!strstr(errors, want) || count_lines(errors) != lines) {
		note("wanted %u error(s), one with \"%s\"; got:\n%s", lines, want, errors);
		print_shader("the shader", s);
	}
	assert_non_null(strstr(errors, want));
	assert_int_equal(count_lines(errors), lines);
	free(errors);
	agx_ir_shader_destroy(s);
}

void assert_equal_ir(struct agx_ir_shader *got, struct agx_ir_shader *want)
{
	char *why = NULL;
	bool eq = agx_ir_equal(got, want, &why);

	if (!eq) {
		note("the shaders differ: %s\n", why);
		print_shader("got", got);
		print_shader("wanted", want);
	}
	free(why);
	assert_true(eq);
}

/* Runs pass on in (validating it), expects want and `progress`; destroys both. */
void check_pass(struct agx_ir_shader *in, struct agx_ir_shader *want, agx_ir_pass_fn pass,
		bool progress)
{
	assert_valid(in);
	assert_valid(want);
	assert_int_equal(agx_pass(in, pass), progress);
	assert_equal_ir(in, want);
	agx_ir_shader_destroy(in);
	agx_ir_shader_destroy(want);
}

void check_pass_checked(struct agx_ir_shader *in, struct agx_ir_shader *want, bool ran,
			bool progress)
{
	assert_int_equal(ran, progress);
	assert_valid(want);
	assert_equal_ir(in, want);
	agx_ir_shader_destroy(in);
	agx_ir_shader_destroy(want);
}

void phi_add(struct agx_ir_value phi, struct agx_ir_block *pred, struct agx_ir_value v)
{
	agx_ir_phi_add_src(phi.def->instr, pred, v);
}

struct agx_ir_block *then_block(struct agx_ir_if *nif)
{
	return agx_ir_cf_list_last_block(&nif->then_list);
}

struct agx_ir_block *else_block(struct agx_ir_if *nif)
{
	return agx_ir_cf_list_last_block(&nif->else_list);
}

struct agx_ir_block *block_n(struct agx_ir_function *func, unsigned n)
{
	agx_ir_function_index_blocks(func);
	agx_ir_foreach_block(func, block) {
		if (block->index == n)
			return block;
	}
	fail_msg("no block %u", n);
	return NULL;
}
