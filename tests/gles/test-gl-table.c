/*
 * test-gl-table: gl_table.c's list of GL functions, which gles_gl_proc()
 * searches by halves: in strcmp order, every name found, and names that
 * are not ours not.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "context.h"

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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_order),
		cmocka_unit_test(test_unknown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
