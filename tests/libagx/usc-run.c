/*
 * usc-run.c: the compiler tests' grid runner (usc-run.h).  One program,
 * decoded once; per threadgroup, one usc_state per SIMD group of 32
 * lanes, run in turn until each stops or reaches a barrier, and the
 * barrier opens once every SIMD group still running is at it -- what
 * sim/gpu.c's run_threadgroup does for a real dispatch.
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "usc-run.h"
#include "usc.h"

#define MAX_THREADS    1024 /* per threadgroup, as the simulated device allows */
#define DEFAULT_BUDGET (64ull << 20)
#define MAX_SIMDGROUPS (MAX_THREADS / USC_LANES)

enum group_state { RUNNING, AT_BARRIER, STOPPED };

static const struct usc_run_buffer *find(const struct usc_run_args *a, uint64_t addr, size_t size)
{
	for (unsigned i = 0; i < a->num_buffers; i++) {
		const struct usc_run_buffer *b = &a->buffers[i];

		if (addr >= b->address && addr - b->address <= b->size &&
		    size <= b->size - (addr - b->address))
			return b;
	}
	return NULL;
}

static bool mem_read(void *ctx, uint64_t addr, void *dst, unsigned size)
{
	const struct usc_run_buffer *b = find(ctx, addr, size);

	if (b)
		memcpy(dst, (uint8_t *)b->data + (addr - b->address), size);
	return b != NULL;
}

static bool mem_write(void *ctx, uint64_t addr, const void *src, unsigned size)
{
	const struct usc_run_buffer *b = find(ctx, addr, size);

	if (b)
		memcpy((uint8_t *)b->data + (addr - b->address), src, size);
	return b != NULL;
}

static void *mem_translate(void *ctx, uint64_t addr, size_t size, bool write)
{
	const struct usc_run_buffer *b = find(ctx, addr, size);

	(void)write;
	return b ? (uint8_t *)b->data + (addr - b->address) : NULL;
}

static void say(char *why, size_t whysize, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void say(char *why, size_t whysize, const char *fmt, ...)
{
	va_list ap;

	if (!why || !whysize)
		return;
	va_start(ap, fmt);
	vsnprintf(why, whysize, fmt, ap);
	va_end(ap);
}

static const char *status_name(enum usc_status st)
{
	switch (st) {
	case USC_DONE:
		return "done";
	case USC_FAULT:
		return "memory fault";
	case USC_LIMIT:
		return "instruction budget exhausted";
	case USC_BAD_INSTR:
		return "bad instruction";
	case USC_BAD_BRANCH:
		return "bad branch";
	case USC_TRAP:
		return "trap";
	case USC_BARRIER:
		return "barrier";
	case USC_ORDER:
		return "out of pixel order";
	}
	return "?";
}

/* The lanes of SIMD group s that are threads of a group of `threads`. */
static uint32_t present_lanes(unsigned threads, unsigned s)
{
	unsigned first = s * USC_LANES;
	unsigned n = threads - first < USC_LANES ? threads - first : USC_LANES;

	return n >= 32 ? 0xffffffffu : (1u << n) - 1;
}

struct grid {
	const struct usc_run_args *args;
	const struct usc_program *program;
	struct usc_state *states; /* one per SIMD group */
	unsigned local[3], threads, simdgroups;
	uint8_t *shared, *stacks;
	uint64_t budget;
};

static int run_group(struct grid *g, const uint32_t tg[3], char *why, size_t whysize)
{
	const struct usc_run_args *a = g->args;
	enum group_state state[MAX_SIMDGROUPS];
	uint64_t left[MAX_SIMDGROUPS];
	unsigned running = g->simdgroups;

	if (g->shared)
		memset(g->shared, 0, a->shared_size);
	for (unsigned s = 0; s < g->simdgroups; s++) {
		struct usc_state *st = &g->states[s];

		usc_state_reset(st, USC_LANES, g->program);
		st->present = st->exec = present_lanes(g->threads, s);
		memcpy(st->u, a->uniforms, a->num_uniforms * sizeof(uint32_t));
		st->memory = (struct usc_memory){ mem_read, mem_write, mem_translate, (void *)a };
		memcpy(st->dispatch.threadgroup_position, tg, 3 * sizeof(uint32_t));
		memcpy(st->dispatch.threads_per_threadgroup, g->local, sizeof(g->local));
		st->dispatch.simdgroup_index = s;
		st->textures = a->textures;
		st->num_textures = a->num_textures;
		st->samplers = a->samplers;
		st->num_samplers = a->num_samplers;
		st->threadgroup_memory = g->shared;
		st->threadgroup_memory_size = a->shared_size;
		st->stack = g->stacks ? g->stacks + (size_t)s * USC_LANES * a->scratch_size : NULL;
		st->stack_size = a->scratch_size;
		st->yield_at_barrier = g->simdgroups > 1;
		state[s] = RUNNING;
		left[s] = g->budget;
	}
	while (running) {
		unsigned waiting = 0;

		for (unsigned s = 0; s < g->simdgroups; s++) {
			struct usc_result r;

			if (state[s] != RUNNING)
				continue;
			r = usc_run(g->program, &g->states[s], left[s]);
			left[s] -= r.instructions < left[s] ? r.instructions : left[s];
			if (r.status == USC_DONE) {
				state[s] = STOPPED;
				running--;
			} else if (r.status == USC_BARRIER && left[s]) {
				state[s] = AT_BARRIER;
			} else {
				say(why, whysize,
				    "threadgroup (%u, %u, %u), SIMD group %u: %s at pc 0x%x"
				    " (fault address 0x%" PRIx64 "%s): %s",
				    tg[0], tg[1], tg[2], s,
				    r.status == USC_BARRIER ? status_name(USC_LIMIT)
							    : status_name(r.status),
				    r.pc, r.fault_address, r.fault_write ? ", write" : "",
				    r.message);
				return -1;
			}
		}
		for (unsigned s = 0; s < g->simdgroups; s++)
			waiting += state[s] == AT_BARRIER;
		if (waiting && waiting == running) /* all there: the barrier opens */
			for (unsigned s = 0; s < g->simdgroups; s++)
				if (state[s] == AT_BARRIER)
					state[s] = RUNNING;
	}
	return 0;
}

int usc_run_grid(const struct usc_run_args *args, char *why, size_t whysize)
{
	struct grid g = { .args = args };
	unsigned groups[3];
	int ret = -1;

	say(why, whysize, "no error");
	if (args->num_uniforms > USC_NUM_UNIFORMS - 1) {
		say(why, whysize, "%u uniforms, more than the USC's %d", args->num_uniforms,
		    USC_NUM_UNIFORMS - 1);
		return -1;
	}
	for (unsigned d = 0; d < 3; d++) {
		g.local[d] = args->local[d] ? args->local[d] : 1;
		groups[d] = args->groups[d] ? args->groups[d] : 1;
	}
	if ((uint64_t)g.local[0] * g.local[1] * g.local[2] > MAX_THREADS) {
		say(why, whysize, "threadgroup of more than %u threads", MAX_THREADS);
		return -1;
	}
	g.threads = g.local[0] * g.local[1] * g.local[2];
	g.simdgroups = (g.threads + USC_LANES - 1) / USC_LANES;
	g.budget = args->max_instructions ? args->max_instructions : DEFAULT_BUDGET;
	g.program = usc_program_create(args->code, args->size);
	g.states = calloc(g.simdgroups, sizeof(*g.states));
	g.shared = args->shared_size ? calloc(1, args->shared_size) : NULL;
	g.stacks = args->scratch_size ? calloc((size_t)g.simdgroups * USC_LANES, args->scratch_size)
				      : NULL;
	if (!g.program || !g.states || (args->shared_size && !g.shared) ||
	    (args->scratch_size && !g.stacks)) {
		say(why, whysize, "out of memory");
		goto out;
	}
	for (unsigned z = 0; z < groups[2]; z++)
		for (unsigned y = 0; y < groups[1]; y++)
			for (unsigned x = 0; x < groups[0]; x++) {
				uint32_t tg[3] = { x, y, z };

				if (run_group(&g, tg, why, whysize))
					goto out;
			}
	ret = 0;
out:
	free(g.stacks);
	free(g.shared);
	free(g.states);
	if (g.program)
		usc_program_destroy((struct usc_program *)g.program);
	return ret;
}
