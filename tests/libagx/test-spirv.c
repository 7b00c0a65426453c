/*
 * test-spirv: SPIR-V modules read and indexed (agx/spirv.h): a small
 * module's instructions, definitions, names, decorations and local size;
 * and every way the reader refuses a broken one, with what it says.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "agx/spirv.h"
#include "spirv-sample.h"

static void test_sample(void **state)
{
	struct agx_spirv_module m;
	const struct agx_spirv_inst *fn, *label;
	char why[128];
	uint32_t binding = 0;

	(void)state;
	assert_int_equal(agx_spirv_parse(spirv_sample, SPIRV_SAMPLE_WORDS, &m, why, sizeof(why)),
			 0);
	assert_int_equal(m.num_insts, SPIRV_SAMPLE_INSTS);
	assert_int_equal(m.bound, 6);
	assert_int_equal(m.version, 0x00010000);
	assert_non_null(m.entry_point);
	assert_int_equal(m.entry_point->opcode, SpvOpEntryPoint);
	assert_int_equal(m.local_size[0], 8);
	assert_int_equal(m.local_size[1], 4);
	assert_int_equal(m.local_size[2], 1);
	fn = agx_spirv_def(&m, 1);
	assert_non_null(fn);
	assert_int_equal(fn->opcode, SpvOpFunction);
	assert_int_equal(fn->type, 3);
	assert_int_equal(fn->result, 1);
	assert_int_equal(agx_spirv_num_operands(fn), 2);
	assert_int_equal(agx_spirv_operand(fn, 0), 0); /* FunctionControl None */
	assert_int_equal(agx_spirv_operand(fn, 1), 4); /* its type */
	assert_int_equal(agx_spirv_operand(fn, 2), 0); /* past the end */
	label = agx_spirv_def(&m, 5);
	assert_non_null(label);
	assert_int_equal(label->opcode, SpvOpLabel);
	assert_null(agx_spirv_def(&m, 2)); /* decorated, never defined */
	assert_null(agx_spirv_def(&m, 0));
	assert_null(agx_spirv_def(&m, 6));
	assert_null(agx_spirv_def(&m, 0xffffffffu));
	assert_string_equal(agx_spirv_name(&m, 1), "main");
	assert_null(agx_spirv_name(&m, 3));
	assert_true(agx_spirv_decorated(&m, 2, -1, SpvDecorationBinding, &binding));
	assert_int_equal(binding, 3);
	assert_false(agx_spirv_decorated(&m, 2, -1, SpvDecorationDescriptorSet, NULL));
	assert_false(agx_spirv_decorated(&m, 2, 0, SpvDecorationBinding, NULL));
	agx_spirv_module_finish(&m);
}

/* The entry point's name, and the operand after it. */
static void test_strings(void **state)
{
	struct agx_spirv_module m;
	char why[128];
	unsigned next = 0;

	(void)state;
	assert_int_equal(agx_spirv_parse(spirv_sample, SPIRV_SAMPLE_WORDS, &m, why, sizeof(why)),
			 0);
	/* OpEntryPoint: execution model, function, then the name */
	assert_string_equal(agx_spirv_string(m.entry_point, 2, &next), "main");
	assert_int_equal(next, 4);
	assert_null(agx_spirv_string(m.entry_point, 4, NULL));
	agx_spirv_module_finish(&m);
}

/* A copy of the sample with word at changed to value is refused, saying says. */
static void refused(size_t at, uint32_t value, size_t count, const char *says)
{
	uint32_t words[SPIRV_SAMPLE_WORDS];
	struct agx_spirv_module m;
	char why[128] = "";

	memcpy(words, spirv_sample, sizeof(words));
	if (at < SPIRV_SAMPLE_WORDS)
		words[at] = value;
	assert_int_equal(agx_spirv_parse(words, count, &m, why, sizeof(why)), -EINVAL);
	if (!strstr(why, says))
		fail_msg("word %zu = %#x: \"%s\" does not say \"%s\"", at, value, why, says);
	assert_null(m.insts);
	assert_int_equal(m.num_insts, 0);
}

/* Word offsets of the sample's instructions. */
enum {
	AT_ENTRY = 10,
	AT_NAME = 21,
	AT_DECORATE = 25,
	AT_VOID = 29,
	AT_FUNCTION = 34,
	AT_LABEL = 39,
};

static void test_refused(void **state)
{
	(void)state;
	refused(0, 0x03022307, SPIRV_SAMPLE_WORDS, "no magic number");
	refused(99, 0, 4, "shorter than its header");
	refused(3, 0, SPIRV_SAMPLE_WORDS, "id bound of 0");
	refused(3, AGX_SPIRV_MAX_BOUND + 1, SPIRV_SAMPLE_WORDS, "id bound of");
	refused(4, 1, SPIRV_SAMPLE_WORDS, "schema word 1");
	refused(AT_VOID, OP(0, 19), SPIRV_SAMPLE_WORDS, "of 0 words");
	refused(AT_LABEL, OP(9, 248), SPIRV_SAMPLE_WORDS, "of 9 words, with 4 left");
	refused(AT_VOID + 1, 6, SPIRV_SAMPLE_WORDS, "result id 6 past the bound 6");
	refused(AT_VOID + 1, 0, SPIRV_SAMPLE_WORDS, "result id 0 past the bound");
	refused(AT_FUNCTION + 1, 7, SPIRV_SAMPLE_WORDS, "type id 7 past the bound");
	refused(AT_LABEL + 1, 4, SPIRV_SAMPLE_WORDS, "id 4 defined twice");
	refused(AT_VOID, OP(1, 19), SPIRV_SAMPLE_WORDS, "without its result id");
	refused(AT_FUNCTION, OP(1, 54), SPIRV_SAMPLE_WORDS, "without its result type");
	refused(AT_DECORATE + 1, 9, SPIRV_SAMPLE_WORDS, "decoration of id 9, past the bound");
	refused(AT_DECORATE, OP(2, 71), SPIRV_SAMPLE_WORDS, "OpDecorate of 2 words");
	/* the word where it went wrong is named */
	refused(AT_LABEL + 1, 4, SPIRV_SAMPLE_WORDS, "(word 39)");
	/* the module ends in the middle of the last instruction */
	refused(99, 0, AT_LABEL + 1, "with 1 left");
}

/* A name without its terminating NUL inside its instruction is no name. */
static void test_unterminated(void **state)
{
	uint32_t words[SPIRV_SAMPLE_WORDS];
	struct agx_spirv_module m;
	char why[128];

	(void)state;
	memcpy(words, spirv_sample, sizeof(words));
	words[AT_NAME + 3] = 0x21212121; /* "!!!!" where the NUL word was */
	assert_int_equal(agx_spirv_parse(words, SPIRV_SAMPLE_WORDS, &m, why, sizeof(why)), 0);
	assert_null(agx_spirv_name(&m, 1));
	agx_spirv_module_finish(&m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sample),
		cmocka_unit_test(test_strings),
		cmocka_unit_test(test_refused),
		cmocka_unit_test(test_unterminated),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
