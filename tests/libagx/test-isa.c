/*
 * test-isa: the G13 table and everything generated from it.
 *
 * - known-good encodings (isa-vectors.txt) decode to their text, and the
 *   text assembles back to the same bytes;
 * - every table entry, filled with random operand fields, survives
 *   encode -> decode and print -> parse -> encode unchanged;
 * - the assembler rejects bad input with a message;
 * - decoding arbitrary bytes always makes progress and stays in bounds.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "agx/isa.h"

static const char *vectors_path;

static unsigned hex_to_bytes(const char *hex, uint8_t *out, unsigned max)
{
	unsigned n = 0;

	while (hex[0] && hex[1] && n < max) {
		unsigned b;

		if (sscanf(hex, "%2x", &b) != 1)
			break;
		out[n++] = (uint8_t)b;
		hex += 2;
	}
	return n;
}

static void test_known_vectors(void **state)
{
	FILE *f = fopen(vectors_path, "r");
	char line[512];
	unsigned checked = 0, lineno = 0;

	(void)state;
	assert_non_null(f);
	while (fgets(line, sizeof(line), f)) {
		uint8_t bytes[AGX_ISA_MAX_BYTES], again[AGX_ISA_MAX_BYTES];
		char hex[64], text[AGX_ISA_MAX_TEXT], printed[AGX_ISA_MAX_TEXT], err[256];
		struct agx_isa_instr in, parsed;
		unsigned size;

		lineno++;
		line[strcspn(line, "\n")] = '\0';
		if (!line[0] || line[0] == '#')
			continue;
		assert_int_equal(sscanf(line, "%63s", hex), 1);
		snprintf(text, sizeof(text), "%s", line + strlen(hex) + 2);
		size = hex_to_bytes(hex, bytes, sizeof(bytes));

		/* decode: the whole sequence is one instruction with this text */
		if (agx_isa_decode(bytes, size, &in) != size)
			fail_msg("line %u: %s does not decode as one instruction", lineno, hex);
		agx_isa_print(&in, 0, printed, sizeof(printed));
		if (strcmp(printed, text))
			fail_msg("line %u: %s printed as '%s', expected '%s'", lineno, hex, printed,
				 text);

		/* assemble: the text gives back the same bytes */
		if (agx_isa_parse(text, 0, &parsed, err, sizeof(err)) < 0)
			fail_msg("line %u: '%s' does not assemble: %s", lineno, text, err);
		parsed.size = in.size; /* the vector chose its length; keep it */
		assert_int_equal(agx_isa_encode(&parsed, again), size);
		if (memcmp(again, bytes, size))
			fail_msg("line %u: '%s' assembled to different bytes", lineno, text);
		checked++;
	}
	fclose(f);
	assert_true(checked >= 100);
}

static uint64_t rng = 0x853c49e6748fea9bull;

static uint64_t next_random(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

/* Random instruction words for table entry d: fixed bits, random fields. */
static unsigned random_encoding(const struct agx_isa_desc *d, uint8_t *bytes)
{
	unsigned size =
	    (d->size_short != d->size_long && (next_random() & 1)) ? d->size_long : d->size_short;
	struct agx_isa_word w = { next_random(), next_random() };

	w.lo = (w.lo & d->covered.lo & ~d->mask.lo) | d->bits.lo;
	w.hi = (w.hi & d->covered.hi & ~d->mask.hi) | d->bits.hi;
	/* the length bit says which size this is */
	if (d->size_short != d->size_long) {
		uint64_t *half = d->length_bit >= 64 ? &w.hi : &w.lo;
		uint64_t bit = 1ull << (d->length_bit & 63);

		*half = size == d->size_long ? *half | bit : *half & ~bit;
	}
	for (unsigned i = 0; i < size; i++)
		bytes[i] = (uint8_t)(i < 8 ? w.lo >> (8 * i) : w.hi >> (8 * (i - 8)));
	return size;
}

static void test_table_round_trip(void **state)
{
	(void)state;
	for (unsigned op = 0; op < AGX_NUM_OPS; op++) {
		const struct agx_isa_desc *d = &agx_isa_table[op];
		unsigned hits = 0;

		for (unsigned trial = 0; trial < 4000 && hits < 200; trial++) {
			uint8_t bytes[AGX_ISA_MAX_BYTES], again[AGX_ISA_MAX_BYTES];
			char text[AGX_ISA_MAX_TEXT], err[256];
			struct agx_isa_instr in, parsed;
			unsigned size = random_encoding(d, bytes);

			/* many random fields are encodings nobody documented: skipped */
			if (agx_isa_decode(bytes, size, &in) != size || in.desc != d)
				continue;
			/* decode(encode(x)) == x */
			assert_int_equal(agx_isa_encode(&in, again), size);
			assert_memory_equal(again, bytes, size);
			/* disassemble -> assemble -> same bytes */
			agx_isa_print(&in, 0x1000, text, sizeof(text));
			if (agx_isa_parse(text, 0x1000, &parsed, err, sizeof(err)) < 0)
				fail_msg("%s: '%s' does not assemble: %s", d->name, text, err);
			parsed.size = size;
			assert_int_equal(agx_isa_encode(&parsed, again), size);
			if (memcmp(again, bytes, size))
				fail_msg("%s: '%s' reassembles differently", d->name, text);
			hits++;
		}
		if (hits < 20)
			fail_msg("table entry %u (%s) round-tripped only %u times", op, d->name,
				 hits);
	}
}

static void test_float_immediates(void **state)
{
	(void)state;
	/* applegpu docs.html: sign, 3-bit exponent, 4-bit fraction */
	assert_true(agx_isa_float_imm(0x00) == 0.0);
	assert_true(agx_isa_float_imm(0x0f) == 0.234375);
	assert_true(agx_isa_float_imm(0x10) == 0.25);
	assert_true(agx_isa_float_imm(0x30) == 1.0);
	assert_true(agx_isa_float_imm(0x40) == 2.0);
	assert_true(agx_isa_float_imm(0x7f) == 31.0);
	assert_true(agx_isa_float_imm(0xb0) == -1.0);
	assert_true(agx_isa_float_imm(0x80) == 0.0 && __builtin_signbit(agx_isa_float_imm(0x80)));
}

static void expect_error(const char *text, const char *words)
{
	struct agx_isa_instr in;
	char err[256] = "";

	if (agx_isa_parse(text, 0, &in, err, sizeof(err)) == 0)
		fail_msg("'%s' assembled but should not", text);
	if (!strstr(err, words))
		fail_msg("'%s': error '%s' does not mention '%s'", text, err, words);
}

/* Whole programs: labels before and after their use, and errors by line. */
static void test_assemble_program(void **state)
{
	uint8_t code[64];
	char err[256];
	struct agx_isa_instr in;
	long len;

	(void)state;
	len = agx_isa_assemble("jmp_exec_none @end\n"
			       "top:\n"
			       "mov_imm r1, 1\n"
			       "\n"
			       "jmp_exec_any @top\n"
			       "end:\n"
			       "stop",
			       code, sizeof(code), err, sizeof(err));
	assert_int_equal(len, 6 + 6 + 6 + 2);
	assert_int_equal(agx_isa_decode(code, 6, &in), 6);
	assert_int_equal((int32_t)in.operands[0].value, 18); /* to end, from 0 */
	assert_int_equal(agx_isa_decode(code + 12, 6, &in), 6);
	assert_int_equal((int32_t)in.operands[0].value, 6 - 12); /* back to top */

	assert_int_equal(agx_isa_assemble("stop\nfrob r0", code, sizeof(code), err, sizeof(err)),
			 -1);
	assert_non_null(strstr(err, "line 2"));
	assert_int_equal(
	    agx_isa_assemble("jmp_exec_any @nowhere", code, sizeof(code), err, sizeof(err)), -1);
	assert_non_null(strstr(err, "no label 'nowhere'"));
	assert_int_equal(
	    agx_isa_assemble("mov_imm r1, 1\nmov_imm r1, 1", code, 8, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "more than 8 bytes"));
}

static void test_assembler_errors(void **state)
{
	(void)state;
	expect_error("frobnicate r0, r1", "unknown mnemonic");
	expect_error("", "no mnemonic");
	expect_error("fadd r0, r1", "needs more operands");
	expect_error("fadd r0, r1, r2, r3", "fewer operands");
	expect_error("mov_imm r0l, zz", "not an integer");
	expect_error("mov_imm r0, 0x100000000", "out of range");
	expect_error("iadd r0, r1, 256", "cannot be encoded");
	expect_error("fadd r0, r1, 0.3", "float immediate");
	expect_error("icmpsel foo, r0, r1, r2, r3, r4", "unknown condition");
	expect_error("icmpsel ueq, r0, r1, r2, r3l, r4", "must be 32-bit");
	expect_error("device_load 0, i32, xy, r0, u8_u9, 0, signed", "registers for a mask");
	expect_error("iadd r0, r1.abs, r2", "modifier");
	expect_error("bfi r0, r1, r2, r3, mask 0x5", "bad mask");
	expect_error("pop_exec r1l, 1", "expected r0l");
	expect_error("threadgroup_barrier.sat", "no .sat form");
	expect_error("and r0, r1", "takes 3 operands");
	/* .odd only on 32-bit ALU destinations, .wide only where the hardware ignores it */
	expect_error("popcount r6l.odd, 4", "cannot be encoded");
	expect_error("iadd r0, r1.odd, r2", "cannot be encoded");
	expect_error("popcount r6, r2l.wide", "cannot be encoded");
	expect_error("iadd r0, r2.wide, r3", "cannot be encoded");
	expect_error("mov_imm r0l.wide, 1", "cannot be encoded");
	expect_error("device_load 0, i32, x, r0.odd, u8_u9, 0, signed", "");
	expect_error("asr r0, r1, r2, C=0x1000", "bad C");
	expect_error("asr r0, r1, r2, m=0x1, C=0x1", "fewer operands");
}

static void test_assembler_forms(void **state)
{
	struct agx_isa_instr in;
	uint8_t bytes[AGX_ISA_MAX_BYTES];
	char err[256], text[AGX_ISA_MAX_TEXT];

	(void)state;
	/* the short form is chosen when the upper bytes are zero */
	assert_int_equal(agx_isa_parse("fadd r1, r1.discard, 0.234375", 0, &in, err, sizeof(err)),
			 0);
	assert_int_equal(agx_isa_encode(&in, bytes), 4);
	assert_memory_equal(bytes, "\x2a\x05\xc2\xf2", 4);
	/* registers past r31 need the long form */
	assert_int_equal(agx_isa_parse("fadd r40, r1, r2", 0, &in, err, sizeof(err)), 0);
	assert_int_equal(agx_isa_encode(&in, bytes), 6);
	/* branches: relative in, absolute out */
	assert_int_equal(agx_isa_parse("jmp_exec_none pc+24", 0x40, &in, err, sizeof(err)), 0);
	agx_isa_print(&in, 0x40, text, sizeof(text));
	assert_string_equal(text, "jmp_exec_none 0x58");
	/* special registers read back with or without their name */
	assert_int_equal(agx_isa_parse("get_sr r2, sr80", 0, &in, err, sizeof(err)), 0);
	agx_isa_print(&in, 0, text, sizeof(text));
	assert_string_equal(text, "get_sr r2, sr80 (thread_position_in_grid.x)");
	/* 0b and 0x integers */
	assert_int_equal(agx_isa_parse("mov_imm r0l, 0b101", 0, &in, err, sizeof(err)), 0);
	assert_int_equal(in.operands[1].value, 5);
}

/* Bytes that must not decode as the instruction named (a reserved bit or form set). */
static void expect_not(const char *hex, const char *name)
{
	uint8_t bytes[AGX_ISA_MAX_BYTES];
	unsigned size = hex_to_bytes(hex, bytes, sizeof(bytes));
	struct agx_isa_instr in;

	if (agx_isa_decode(bytes, size, &in) == size && !strcmp(in.desc->name, name))
		fail_msg("%s decodes as %s", hex, name);
}

static void test_reserved_bits(void **state)
{
	(void)state;
	/* simd_matrix_fmadd32 with bit 62, or with a uniform or immediate pair */
	expect_not("6f11404e244c02c0", "simd_matrix_fmadd32");
	expect_not("6f11804d244c0280", "simd_matrix_fmadd32");
	expect_not("6f11004c244c0280", "simd_matrix_fmadd32");
	/* the rotating form of xor and down is not known; nor is bit 27 of a shuffle */
	expect_not("6f0544364080", "simd_shuffle_xor");
	expect_not("6f054432c080", "quad_shuffle_down");
	expect_not("6f05440a8400", "quad_shuffle_up");
	/* intl with a 32-bit source; a barrier combination Mesa does not emit */
	expect_not("3e0944402400", "intl");
	expect_not("f590", "memory_barrier");
	/* jmp_if_skipping_doorbell's top byte */
	expect_not("20000601", "jmp_if_skipping_doorbell");
	/* a 32-bit source with an odd number stays refused, .wide or not */
	expect_not("3e1b450a0000", "popcount");
	expect_not("3e1b450b0000", "popcount");
	/* async copies with a bit applegpu does not name */
	expect_not("2510080000000001", "async_load");
	/* applegpu's placeholders keep their free, unnamed bits at zero */
	expect_not("51000100", "unk51");
	expect_not("b10100000000", "unkb1");
	expect_not("520e80010000", "pop_exec2");
	expect_not("75492101008400ff", "unk75");
	/* AGX2.xml's state loads and uniform_store_unk: bits no field names */
	expect_not("ed00300001000024", "tex_state_store");
	expect_not("ad81100800000010", "sampler_state_store");
	expect_not("c50000bd09843000", "uniform_store_unk");
	/* a barrier Mesa names is not unkf59 */
	expect_not("f596", "unkf59");
}

static void test_decoder_progress(void **state)
{
	uint8_t *buf = malloc(4096);
	unsigned known = 0;

	(void)state;
	for (unsigned round = 0; round < 200; round++) {
		size_t len = 1 + next_random() % 4096;

		for (size_t i = 0; i < len; i++)
			buf[i] = (uint8_t)next_random();
		for (size_t pc = 0; pc < len;) {
			struct agx_isa_instr in;
			char text[AGX_ISA_MAX_TEXT];
			unsigned size = agx_isa_decode(buf + pc, len - pc, &in);

			if (size) {
				assert_true(size <= len - pc);
				assert_true(agx_isa_print(&in, (int64_t)pc, text, sizeof(text)) >
					    0);
				known++;
			}
			pc += size ? size : 2;
		}
	}
	/* random bytes hit real encodings now and then */
	assert_true(known > 0);
	free(buf);
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_known_vectors),	 cmocka_unit_test(test_table_round_trip),
		cmocka_unit_test(test_float_immediates), cmocka_unit_test(test_assembler_errors),
		cmocka_unit_test(test_assemble_program), cmocka_unit_test(test_assembler_forms),
		cmocka_unit_test(test_decoder_progress), cmocka_unit_test(test_reserved_bits),
	};

	if (argc != 2) {
		fprintf(stderr, "usage: %s isa-vectors.txt\n", argv[0]);
		return 2;
	}
	vectors_path = argv[1];
	return cmocka_run_group_tests_name("isa", tests, NULL, NULL);
}
