/*
 * test-cmdbuf: the compute command builder (agx/cmdbuf.h): the words it
 * writes read back with the generated unpackers field by field -- the
 * launch, the pipeline it points at, the uniform copy the pipeline loads --
 * and its limits: a full buffer, impossible dispatches, code out of reach.
 * That the GPU runs what it builds is the end-to-end tests' part.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "agx/cmdbuf.h"
#include "agx_cmdbuf.h"

#define USC_BASE 0x1000000000ull
#define BUF_VA	 (USC_BASE + 0x10000)

static _Alignas(64) uint8_t mem[16384];

static struct agx_dispatch simple_dispatch(void)
{
	struct agx_dispatch d = {
		.code_va = USC_BASE + 0x400,
		.num_registers = 12,
		.threadgroups = { 4, 2, 1 },
		.local_size = { 32, 2, 1 },
	};

	agx_dispatch_set_address(&d, 0, 0x123456789abcull);
	d.uniforms[2] = 42;
	d.num_uniforms = 3;
	return d;
}

static void test_launch_words(void **state)
{
	struct agx_cmdbuf cb;
	struct agx_dispatch d = simple_dispatch();
	struct agx_sched_compute out;
	struct agx_cmd_cdm_launch_word0 w0 = { 0 };
	struct agx_cmd_cdm_launch_word1 w1 = { 0 };
	struct agx_cmd_cdm_global_size g = { 0 };
	struct agx_cmd_cdm_local_size l = { 0 };
	struct agx_cmd_cdm_stream_terminate t = { 0 };
	const uint8_t *p = mem;

	(void)state;
	assert_int_equal(agx_cmdbuf_init(&cb, mem, BUF_VA, sizeof(mem), USC_BASE), 0);
	assert_int_equal(agx_cmdbuf_dispatch(&cb, &d), 0);
	assert_int_equal(agx_cmdbuf_finish(&cb, &out), 0);
	assert_true(out.encoder == BUF_VA);
	assert_true(out.usc_base == USC_BASE);

	assert_true(agx_cmd_cdm_launch_word0_unpack(p, &w0));
	assert_int_equal(w0.mode, AGX_CMD_CDM_MODE_DIRECT);
	assert_int_equal(w0.uniform_register_count, 64); /* 6 halves: one group of 64 */
	p += AGX_CMD_CDM_LAUNCH_WORD0_LENGTH;
	assert_true(agx_cmd_cdm_launch_word1_unpack(p, &w1));
	p += AGX_CMD_CDM_LAUNCH_WORD1_LENGTH;
	assert_true(agx_cmd_cdm_global_size_unpack(p, &g));
	assert_int_equal(g.x, 128); /* threads: 4 groups of 32 */
	assert_int_equal(g.y, 4);
	assert_int_equal(g.z, 1);
	p += AGX_CMD_CDM_GLOBAL_SIZE_LENGTH;
	assert_true(agx_cmd_cdm_local_size_unpack(p, &l));
	assert_int_equal(l.x, 32);
	assert_int_equal(l.y, 2);
	assert_int_equal(l.z, 1);
	p += AGX_CMD_CDM_LOCAL_SIZE_LENGTH;
	assert_true(agx_cmd_cdm_stream_terminate_unpack(p, &t));
	p += AGX_CMD_CDM_STREAM_TERMINATE_LENGTH;
	assert_true(out.encoder_end == BUF_VA + (uint64_t)(p - mem));

	/* the pipeline: inside the buffer, 64-byte aligned */
	uint64_t pipeline = USC_BASE + w1.pipeline;

	assert_true(pipeline >= BUF_VA && pipeline < BUF_VA + sizeof(mem));
	p = mem + (pipeline - BUF_VA);

	struct agx_cmd_usc_uniform u = { 0 };
	struct agx_cmd_usc_shared s = { 0 };
	struct agx_cmd_usc_shader sh = { 0 };
	struct agx_cmd_usc_registers r = { 0 };
	struct agx_cmd_usc_no_preshader end = { 0 };

	assert_true(agx_cmd_usc_uniform_unpack(p, &u));
	assert_int_equal(u.start_halfs, 0);
	assert_int_equal(u.size_halfs, 6);
	uint64_t uniforms = u.buffer;

	assert_true(uniforms >= BUF_VA && uniforms + 12 <= BUF_VA + sizeof(mem));
	const uint32_t *values = (const uint32_t *)(mem + (uniforms - BUF_VA));

	assert_int_equal(values[0], 0x56789abc);
	assert_int_equal(values[1], 0x1234);
	assert_int_equal(values[2], 42);
	p += AGX_CMD_USC_UNIFORM_LENGTH;
	assert_true(agx_cmd_usc_shared_unpack(p, &s));
	assert_false(s.uses_shared_memory);
	p += AGX_CMD_USC_SHARED_LENGTH;
	assert_true(agx_cmd_usc_shader_unpack(p, &sh));
	assert_int_equal(sh.code, 0x400);
	p += AGX_CMD_USC_SHADER_LENGTH;
	assert_true(agx_cmd_usc_registers_unpack(p, &r));
	assert_int_equal(r.register_count, 24); /* 12 registers: 24 halves */
	p += AGX_CMD_USC_REGISTERS_LENGTH;
	assert_true(agx_cmd_usc_no_preshader_unpack(p, &end));
}

/* 300 uniforms' worth of halves: words of 64 halves, the ones from 256 on in the high form */
static void test_many_uniforms(void **state)
{
	struct agx_cmdbuf cb;
	struct agx_dispatch d = simple_dispatch();
	struct agx_cmd_cdm_launch_word1 w1 = { 0 };
	struct agx_sched_compute out;
	const uint8_t *p;
	unsigned halves = 0, low_words = 0, high_words = 0;

	(void)state;
	d.num_uniforms = 200; /* 400 halves */
	for (unsigned i = 0; i < d.num_uniforms; i++)
		d.uniforms[i] = i * 7;
	d.shared_size = 1000;
	assert_int_equal(agx_cmdbuf_init(&cb, mem, BUF_VA, sizeof(mem), USC_BASE), 0);
	assert_int_equal(agx_cmdbuf_dispatch(&cb, &d), 0);
	assert_int_equal(agx_cmdbuf_finish(&cb, &out), 0);
	assert_true(agx_cmd_cdm_launch_word1_unpack(mem + AGX_CMD_CDM_LAUNCH_WORD0_LENGTH, &w1));
	p = mem + (USC_BASE + w1.pipeline - BUF_VA);
	for (;;) {
		struct agx_cmd_usc_uniform u = { 0 };
		struct agx_cmd_usc_uniform_high uh = { 0 };
		unsigned start, size;
		uint64_t buffer;

		if (agx_cmd_usc_uniform_unpack(p, &u)) {
			start = u.start_halfs, size = u.size_halfs, buffer = u.buffer;
			low_words++;
		} else if (agx_cmd_usc_uniform_high_unpack(p, &uh)) {
			start = 256 + uh.start_halfs, size = uh.size_halfs, buffer = uh.buffer;
			high_words++;
		} else {
			break;
		}
		assert_int_equal(start, halves);
		/* the words load halves in order from one copy of the registers */
		const uint16_t *h = (const uint16_t *)(mem + (buffer - BUF_VA));

		for (unsigned i = 0; i < size; i++) {
			unsigned half = start + i;
			uint32_t reg = d.uniforms[half / 2];

			assert_int_equal(h[i], half % 2 ? reg >> 16 : reg & 0xffff);
		}
		halves += size;
		p += AGX_CMD_USC_UNIFORM_LENGTH;
	}
	assert_int_equal(halves, 400);
	assert_int_equal(low_words, 4);
	assert_int_equal(high_words, 3);

	struct agx_cmd_usc_shared s = { 0 };

	assert_true(agx_cmd_usc_shared_unpack(p, &s));
	assert_true(s.uses_shared_memory);
	assert_int_equal(s.bytes_per_threadgroup, 1024); /* 1000 bytes, in 256-byte units */
}

static void test_limits(void **state)
{
	struct agx_cmdbuf cb;
	struct agx_dispatch d = simple_dispatch();
	struct agx_sched_compute out;
	int ret = 0;
	unsigned n = 0;

	(void)state;
	/* misaligned or out of the USC's reach */
	assert_int_equal(agx_cmdbuf_init(&cb, mem + 4, BUF_VA, 1024, USC_BASE), -EINVAL);
	assert_int_equal(agx_cmdbuf_init(&cb, mem, BUF_VA, 1024, BUF_VA + 64), -EINVAL);
	assert_int_equal(agx_cmdbuf_init(&cb, mem, USC_BASE + (5ull << 32), 1024, USC_BASE),
			 -EINVAL);

	assert_int_equal(agx_cmdbuf_init(&cb, mem, BUF_VA, sizeof(mem), USC_BASE), 0);
	/* impossible dispatches are refused and leave the buffer usable */
	d.local_size[0] = 2048;
	assert_int_equal(agx_cmdbuf_dispatch(&cb, &d), -EINVAL);
	d = simple_dispatch();
	d.threadgroups[1] = 0;
	assert_int_equal(agx_cmdbuf_dispatch(&cb, &d), -EINVAL);
	d = simple_dispatch();
	d.code_va = USC_BASE - 16;
	assert_int_equal(agx_cmdbuf_dispatch(&cb, &d), -EINVAL);
	d = simple_dispatch();
	d.shared_size = 65537;
	assert_int_equal(agx_cmdbuf_dispatch(&cb, &d), -EINVAL);
	d = simple_dispatch();
	d.threadgroups[0] = 1u << 30; /* 2^35 threads */
	assert_int_equal(agx_cmdbuf_dispatch(&cb, &d), -EINVAL);
	d = simple_dispatch();
	assert_int_equal(agx_cmdbuf_dispatch(&cb, &d), 0);
	assert_int_equal(agx_cmdbuf_barrier(&cb, true), 0);

	/* filling it: -ENOSPC, then every call says so, and the stream never ends in its data */
	while ((ret = agx_cmdbuf_dispatch(&cb, &d)) == 0)
		n++;
	assert_int_equal(ret, -ENOSPC);
	assert_true(n > 10);
	assert_int_equal(agx_cmdbuf_barrier(&cb, false), -ENOSPC);
	assert_int_equal(agx_cmdbuf_finish(&cb, &out), -ENOSPC);
	assert_true(cb.head + AGX_CMD_CDM_STREAM_TERMINATE_LENGTH <= cb.tail);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_launch_words),
		cmocka_unit_test(test_many_uniforms),
		cmocka_unit_test(test_limits),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
