/*
 * test-gl-table: gl_table.c's list of GL functions, which gles_gl_proc()
 * searches by halves: in strcmp order, every name found, names that are
 * not ours not, and every function GLES3/gl3.h declares there (the list
 * gl-names.py reads from the header at build time).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "context.h"

/* gl3-names.c, generated from GLES3/gl3.h */
extern const char *const gl_header_names[];
extern const size_t gl_header_name_count;

static void test_order(void **state)
{
	const char *prev = NULL, *name;
	unsigned n = 0;

	(void)state;
	for (unsigned i = 0; (name = gles_gl_proc_name(i)); i++, n++) {
		assert_memory_equal(name, "gl", 2);
		if (prev)
			assert_true(strcmp(prev, name) < 0);
		assert_non_null(gles_gl_proc(name));
		prev = name;
	}
	assert_true(n > 0);
}

static void test_unknown(void **state)
{
	(void)state;
	assert_null(gles_gl_proc("glDrawArraysIndirect")); /* ES 3.1 */
	assert_null(gles_gl_proc("glBegin"));
	assert_null(gles_gl_proc("glGetStrin"));
	assert_null(gles_gl_proc("glGetStringii"));
	assert_null(gles_gl_proc(""));
	assert_null(gles_gl_proc("eglGetError"));
}

/* Every ES 3.0 function is served: glvnd would give applications a no-op for one that is not. */
static void test_header(void **state)
{
	unsigned missing = 0;

	(void)state;
	assert_true(gl_header_name_count > 200);
	for (size_t i = 0; i < gl_header_name_count; i++) {
		if (gles_gl_proc(gl_header_names[i]))
			continue;
		print_message("# not in gl_table.c: %s\n", gl_header_names[i]);
		missing++;
	}
	assert_int_equal(missing, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_order),
		cmocka_unit_test(test_unknown),
		cmocka_unit_test(test_header),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
