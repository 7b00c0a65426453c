/*
 * agx-bench-usc: how fast agx-sim's USC core executes, single thread.
 * Lane-operations per second (instructions x active lanes) on an ALU-heavy
 * program (32-bit float fmadd/fadd/fmul) and on a memory-heavy one (device
 * loads and stores of four 32-bit values per lane).
 *
 * Prints usc.alu_lane_ops_per_s and usc.mem_lane_ops_per_s.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench-asm.h"
#include "usc.h"

#define BODY 2048

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static uint8_t memory[1 << 16];

static bool mem_read(void *ctx, uint64_t addr, void *dst, unsigned size)
{
	(void)ctx;
	if (addr + size > sizeof(memory))
		return false;
	memcpy(dst, memory + addr, size);
	return true;
}

static bool mem_write(void *ctx, uint64_t addr, const void *src, unsigned size)
{
	(void)ctx;
	if (addr + size > sizeof(memory))
		return false;
	memcpy(memory + addr, src, size);
	return true;
}

static void *mem_translate(void *ctx, uint64_t addr, size_t size, bool write)
{
	(void)ctx;
	(void)write;
	return addr + size <= sizeof(memory) ? memory + addr : NULL;
}

/* Runs a straight-line program until about a second has passed. */
static double lane_ops_per_s(const uint8_t *code, size_t len, struct usc_state *s)
{
	struct usc_program *p = usc_program_create(code, len);
	uint64_t instructions = 0;
	double t0 = now(), t;

	do {
		struct usc_result r;

		for (int i = 0; i < 20; i++) {
			r = usc_run(p, s, ~0ull);
			if (r.status != USC_DONE) {
				fprintf(stderr, "agx-bench-usc: run failed: %s\n", r.message);
				exit(1);
			}
			instructions += r.instructions;
		}
		t = now() - t0;
	} while (t < 1.0);
	usc_program_destroy(p);
	return (double)instructions * USC_LANES / t;
}

int main(void)
{
	static const char *const alu[] = { "fmadd r2, r3, r4, r2", "fadd r5, r2, r6",
					   "fmul r7, r5, r3", "fmadd r8, r7, r4, r5" };
	static const char *const mem[] = {
		"device_load 0, i32, xyzw, r4_r5_r6_r7, u8_u9, r1, unsigned, lsl 2",
		"device_store 0, i32, xyzw, r4_r5_r6_r7, u8_u9, r2, unsigned, lsl 2, 0",
	};
	uint8_t *code = malloc(BODY * 12 + 16);
	struct usc_state *s = malloc(sizeof(*s));
	size_t len;

	usc_state_init(s, USC_LANES);
	for (unsigned l = 0; l < USC_LANES; l++) {
		float one = 1.0001f, half = 0.5f;

		memcpy(&s->r[3][l], &one, 4);
		memcpy(&s->r[4][l], &half, 4);
		memcpy(&s->r[6][l], &half, 4);
		s->r[1][l] = l;
		s->r[2][l] = 32 + l;
	}
	len = bench_assemble(alu, 4, BODY, "stop", code, BODY * 12 + 16);
	printf("usc.alu_lane_ops_per_s %.3g lane-ops/s\n", lane_ops_per_s(code, len, s));

	usc_state_init(s, USC_LANES);
	for (unsigned l = 0; l < USC_LANES; l++) {
		s->r[1][l] = l;
		s->r[2][l] = 32 + l;
	}
	s->memory.read = mem_read;
	s->memory.write = mem_write;
	s->memory.translate = mem_translate;
	len = bench_assemble(mem, 2, BODY, "stop", code, BODY * 12 + 16);
	printf("usc.mem_lane_ops_per_s %.3g lane-ops/s\n", lane_ops_per_s(code, len, s));
	free(code);
	free(s);
	return 0;
}
