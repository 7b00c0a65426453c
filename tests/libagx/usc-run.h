/*
 * usc-run.h: runs compiled machine code over a grid on the simulated USC
 * (sim/usc/usc.h), for the compiler's tests: device memory is a list of
 * host buffers at made-up addresses, each threadgroup gets zeroed shared
 * memory and each thread a stack, and the SIMD groups of a threadgroup are
 * interleaved at barriers the way the simulated device does (sim/gpu.c).
 */
#ifndef TESTS_LIBAGX_USC_RUN_H
#define TESTS_LIBAGX_USC_RUN_H

#include <stddef.h>
#include <stdint.h>

/* Device memory: size bytes at address, backed by data (read and written in place). */
struct usc_run_buffer {
	uint64_t address;
	void *data;
	size_t size;
};

struct usc_run_args {
	const uint8_t *code; /* the machine code, run from offset 0 */
	size_t size;
	const uint32_t *uniforms; /* u0.. */
	unsigned num_uniforms;
	const struct usc_run_buffer *buffers;
	unsigned num_buffers;
	unsigned groups[3],
	    local[3]; /* the grid: threadgroups, threads per group (0 counts as 1) */
	/* the texture unit's state registers: 24-byte texture descriptors (ts0..) and
	 * samplers with their borders (ss0..), as sim/usc/texture.h reads them */
	const uint8_t *textures, *samplers;
	unsigned num_textures, num_samplers;
	unsigned shared_size;	   /* bytes of threadgroup memory */
	unsigned scratch_size;	   /* bytes of stack per thread */
	uint64_t max_instructions; /* per SIMD group, over all its runs; 0 = a default bound */
};

/*
 * Runs every threadgroup, x fastest, to the end; returns 0, or -1 with
 * why (the group, the status, pc, a fault's address, the simulator's
 * message) in why[whysize] when a run faulted, hit an instruction it
 * cannot execute, or went over its instruction budget.
 */
int usc_run_grid(const struct usc_run_args *args, char *why, size_t whysize);

#endif
