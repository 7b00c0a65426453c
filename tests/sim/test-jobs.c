/*
 * test-jobs: work on the simulated GPU, as a driver submits it.  Starts
 * the real agx-sim, boots its firmware, lays out the firmware ABI with the
 * test host (sim/host/fwhost.c) and runs real G13 programs on its cores:
 * compute dispatches whose results are checked word by word, threadgroup
 * barriers, priorities and round robin (also over a run list of 130
 * queues), faults that stay in their context, time limits, aborts, malformed work, the
 * stamps' start and end times, a delayed completion, RESET in the middle of a job, and
 * 100k items through rings that wrap.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "agx_cmdbuf.h"
#include "agx_fwabi.h"
#include "agx_uat.h"
#include "asm.h"
#include "fixture.h"
#include "agx/cmd.h"
#include "host/fwhost.h"

#define PT_OFFSET   0x40000u
#define PT_SIZE	    0x80000u
#define FW_OFFSET   0xc0000u
#define FW_PAGES    64u
#define USER_RAM    0x200000u /* per context: 8 pages of RAM from here */
#define CTX_RAM	    0x20000u
#define PAGE	    0x4000u
#define CODE_VA	    0x10000000ull
#define UNIF_VA	    0x10004000ull
#define BUF_VA	    0x20000000ull
#define BUF_PAGES   4u
#define UNMAPPED_VA 0x30000000ull

/* buf[i] = i + u2 over a 2D grid whose x extent is 64 */
static const char store_kernel[] = "get_sr r1, sr80\n"
				   "get_sr r4, sr81\n"
				   "mov_imm r5, 64\n"
				   "imadd r1, r4, r5, r1\n"
				   "iadd r2, r1, u2\n"
				   "device_store 0, i32, x, r2, u0_u1, r1, unsigned, 0\n"
				   "stop";

/*
 * 64 threads swap halves through threadgroup memory: each stores its index
 * at [lid] and [lid + 64], then reads [lid + 32] -- written by the other
 * SIMD group, so only a working barrier gives (lid + 32) % 64.
 */
static const char barrier_kernel[] = "get_sr r1, sr48\n"
				     "get_sr r6, sr80\n"
				     "threadgroup_store i32, x, r1, r1l, 0\n"
				     "threadgroup_store i32, x, r1, r1l, 64\n"
				     "threadgroup_barrier\n"
				     "threadgroup_load i32, x, r3, r1l, 32\n"
				     "wait 0\n"
				     "device_store 0, i32, x, r3, u0_u1, r6, unsigned, 0\n"
				     "stop";

/* writes 1 to buf[0], then loops forever */
static const char spin_kernel[] = "mov_imm r1, 1\n"
				  "mov_imm r2, 0\n"
				  "device_store 0, i32, x, r1, u0_u1, r2, unsigned, 0\n"
				  "top:\n"
				  "jmp_exec_any @top\n"
				  "stop";

struct ctx {
	unsigned context;
	uint8_t *code, *unif, *buf; /* the host's view of its pages */
	uint64_t code_used, unif_used;
};

struct program {
	uint64_t va;
};

struct job {
	uint64_t item;
	uint8_t *stamp;
	uint64_t stamp_va;
};

static void gpu_up(struct fixture *f, struct sim_fwhost *fh)
{
	struct sim_host *h = &f->host;

	attach(h);
	give_ram(h);
	assert_int_equal(sim_fwhost_init(fh, h, PT_OFFSET, PT_SIZE, FW_OFFSET, FW_PAGES), 0);
	boot(h);
	if (!sim_fwhost_start(fh, TIMEOUT_MS))
		fail_msg("the GPU firmware did not start: %s", h->error);
}

/* A context n (1..7): code, uniforms and a 64 KiB buffer at fixed VAs. */
static void ctx_init(struct sim_fwhost *fh, struct ctx *c, unsigned n)
{
	uint64_t ram = USER_RAM + (n - 1) * CTX_RAM;

	memset(c, 0, sizeof(*c));
	c->context = n;
	c->code = fh->host->ram + ram;
	c->unif = c->code + PAGE;
	c->buf = c->code + 2 * PAGE;
	memset(c->code, 0, CTX_RAM);
	assert_int_equal(sim_fwhost_map(fh, n, CODE_VA, ram, PAGE, true), 0);
	assert_int_equal(sim_fwhost_map(fh, n, UNIF_VA, ram + PAGE, PAGE, false), 0);
	assert_int_equal(sim_fwhost_map(fh, n, BUF_VA, ram + 2 * PAGE, BUF_PAGES * PAGE, false), 0);
}

static struct program load(struct ctx *c, const char *text)
{
	struct program p = { CODE_VA + c->code_used };
	size_t size = test_assemble(text, c->code + c->code_used, PAGE - c->code_used);

	c->code_used = (c->code_used + size + 63) & ~63ull;
	return p;
}

/*
 * A pipeline (USC words) running p, after the preshader pre if there is
 * one, with u0_u1 = base, u2 = bias; returns its offset.
 */
static uint32_t pipeline_with(struct ctx *c, struct program p, const struct program *pre,
			      const struct agx_pipeline *bind, uint64_t base, uint32_t bias)
{
	uint32_t *u = (uint32_t *)(c->unif + c->unif_used);
	uint32_t at = (uint32_t)c->code_used, pre_code = pre ? (uint32_t)(pre->va - CODE_VA) : 0;

	u[0] = (uint32_t)base;
	u[1] = (uint32_t)(base >> 32);
	u[2] = bias;
	struct agx_pipeline pl = { .code = (uint32_t)(p.va - CODE_VA),
				   .uniforms = UNIF_VA + c->unif_used,
				   .uniform_halves = 6,
				   .shared_size = 512,
				   .preshader = pre != NULL,
				   .preshader_code = pre_code };

	if (bind) {
		pl.textures = bind->textures, pl.num_textures = bind->num_textures;
		pl.samplers = bind->samplers, pl.num_samplers = bind->num_samplers;
	}
	c->code_used += agx_pipeline_pack(c->code + at, &pl);
	c->code_used = (c->code_used + 63) & ~63ull;
	c->unif_used += 16;
	return at;
}

static uint32_t pipeline(struct ctx *c, struct program p, uint64_t base, uint32_t bias)
{
	return pipeline_with(c, p, NULL, NULL, base, bias);
}

/* A compute work item running the CDM stream given (copied into the context's memory). */
static struct job item(struct sim_fwhost *fh, struct ctx *c, const uint8_t *stream, size_t size,
		       uint32_t slot, uint32_t value)
{
	struct job j;
	struct agx_fw_work_header h = { .type = AGX_FW_WORK_TYPE_COMPUTE,
					.event_slot = slot,
					.stamp_value = value };
	struct agx_fw_work_compute w = { .encoder = UNIF_VA + c->unif_used,
					 .encoder_end = UNIF_VA + c->unif_used + size,
					 .usc_base = CODE_VA };

	memcpy(c->unif + c->unif_used, stream, size);
	c->unif_used = (c->unif_used + size + 15) & ~15ull;
	assert_true(c->unif_used <= PAGE);
	j.stamp = sim_fwhost_alloc(fh, AGX_FW_STAMP_LENGTH, &j.stamp_va);
	assert_non_null(j.stamp);
	h.stamp = j.stamp_va;
	j.item = sim_fwhost_compute(fh, &h, &w);
	assert_true(j.item != 0);
	return j;
}

/* One dispatch of grid threadgroups of group threads: a launch and the stream's end. */
static struct job compute(struct sim_fwhost *fh, struct ctx *c, struct program p,
			  const uint32_t grid[3], const uint32_t group[3], uint64_t base,
			  uint32_t bias, uint32_t slot, uint32_t value)
{
	uint32_t global[3] = { grid[0] * group[0], grid[1] * group[1], grid[2] * group[2] };
	uint8_t stream[64];
	size_t n = agx_cdm_launch(stream, pipeline(c, p, base, bias), 0, global, group);

	n += agx_cdm_terminate(stream + n);
	return item(fh, c, stream, n, slot, value);
}

/* A barrier item that waits for *wait (a stamp in firmware memory) to reach wait_value. */
static struct job barrier(struct sim_fwhost *fh, uint64_t wait, uint32_t wait_value, uint32_t slot,
			  uint32_t value)
{
	struct job j;
	struct agx_fw_work_header h = { .type = AGX_FW_WORK_TYPE_BARRIER,
					.event_slot = slot,
					.stamp_value = value };
	struct agx_fw_work_barrier b = { .wait = wait, .wait_value = wait_value };

	j.stamp = sim_fwhost_alloc(fh, AGX_FW_STAMP_LENGTH, &j.stamp_va);
	assert_non_null(j.stamp);
	h.stamp = j.stamp_va;
	j.item = sim_fwhost_barrier(fh, &h, &b);
	assert_true(j.item != 0);
	return j;
}

static struct agx_fw_event next_event(struct sim_fwhost *fh)
{
	struct agx_fw_event e;

	if (!sim_fwhost_event(fh, &e, TIMEOUT_MS))
		fail_msg("no event came: %s", fh->host->error);
	return e;
}

/* The next event is this item's completion. */
static void expect_completion(struct sim_fwhost *fh, unsigned context, uint32_t slot,
			      uint32_t value, enum agx_fw_result result)
{
	struct agx_fw_event e = next_event(fh);

	assert_int_equal(e.type, AGX_FW_EVENT_TYPE_COMPLETION);
	assert_int_equal(e.context, context);
	assert_int_equal(e.slot, slot);
	assert_int_equal(e.value, value);
	assert_int_equal(e.result, result);
}

/* The item's stamp says value and result, and it ended no earlier than it started. */
static struct agx_fw_stamp expect_stamp(const struct job *j, uint32_t value,
					enum agx_fw_result result)
{
	struct agx_fw_stamp s;

	assert_true(agx_fw_stamp_unpack(j->stamp, &s));
	assert_int_equal(s.value, value);
	assert_int_equal(s.result, result);
	assert_true(s.start <= s.end);
	return s;
}

/* The device timer: agx-sim's is the host's CLOCK_MONOTONIC, in nanoseconds. */
static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static uint32_t word(const struct ctx *c, unsigned i)
{
	uint32_t v;

	memcpy(&v, c->buf + i * 4, 4);
	return v;
}

static bool log_has(struct sim_fwhost *fh, const char *text)
{
	char line[64];

	while (sim_fwhost_log(fh, line, sizeof(line)))
		if (strstr(line, text))
			return true;
	return false;
}

static void expect_fault_registers(struct sim_host *h, enum agx_uat_fault_reason reason,
				   uint64_t va)
{
	uint32_t word = *agx_mmio_u32(h->mmio, AGX_MMIO_FAULT_STATUS);
	struct agx_uat_fault_status st = { 0 };

	assert_true(agx_uat_fault_status_unpack((const uint8_t *)&word, &st));
	assert_true(st.valid);
	assert_int_equal(st.reason, reason);
	assert_true(st.write);
	assert_int_equal(st.context, 1);
	assert_int_equal(st.unit, AGX_UAT_FAULT_UNIT_USC);
	assert_int_equal(*(volatile uint64_t *)((uint8_t *)h->mmio + AGX_MMIO_FAULT_ADDRESS), va);
}

/* A compute dispatch over a 2D grid of two-SIMD-group threadgroups, every word checked. */
static void test_compute(void **state)
{
	struct fixture *f = *state;
	struct sim_fwhost fh;
	struct sim_fwqueue q;
	struct ctx c;
	struct program p;
	struct job j;

	gpu_up(f, &fh);
	ctx_init(&fh, &c, 1);
	p = load(&c, store_kernel);
	assert_int_equal(sim_fwhost_queue_create(&fh, &q, 1, 1, AGX_FW_PIPE_COMPUTE, 16, 0), 0);
	j = compute(&fh, &c, p, (uint32_t[]){ 2, 3, 1 }, (uint32_t[]){ 32, 2, 1 }, BUF_VA, 1000, 7,
		    41);
	assert_true(sim_fwhost_submit(&fh, &q, j.item));
	expect_completion(&fh, 1, 7, 41, AGX_FW_RESULT_OK);
	expect_stamp(&j, 41, AGX_FW_RESULT_OK);
	for (unsigned i = 0; i < 64 * 6; i++)
		assert_int_equal(word(&c, i), i + 1000);
	assert_int_equal(word(&c, 64 * 6), 0); /* and not one word more */
	/* the queue's read_ptr followed */
	assert_int_equal(*(volatile uint32_t *)q.desc, 1);
}

/* A threadgroup barrier holds each SIMD group until the other has stored. */
static void test_threadgroup_barrier(void **state)
{
	struct fixture *f = *state;
	struct sim_fwhost fh;
	struct sim_fwqueue q;
	struct ctx c;
	struct job j;

	gpu_up(f, &fh);
	ctx_init(&fh, &c, 1);
	assert_int_equal(sim_fwhost_queue_create(&fh, &q, 1, 1, AGX_FW_PIPE_COMPUTE, 16, 0), 0);
	j = compute(&fh, &c, load(&c, barrier_kernel), (uint32_t[]){ 5, 1, 1 },
		    (uint32_t[]){ 64, 1, 1 }, BUF_VA, 0, 1, 1);
	assert_true(sim_fwhost_submit(&fh, &q, j.item));
	expect_completion(&fh, 1, 1, 1, AGX_FW_RESULT_OK);
	for (unsigned i = 0; i < 5 * 64; i++)
		assert_int_equal(word(&c, i), (i % 64 + 32) % 64);
}

/*
 * A context that faults — an unmapped store, a store to its read-only code,
 * a program that is not mapped, an illegal instruction — gets a fault event
 * and an error stamp, while another context's work, queued beside it,
 * completes with the right results.
 */
static void test_fault_isolation(void **state)
{
	struct fixture *f = *state;
	struct sim_fwhost fh;
	struct sim_fwqueue bad, good;
	struct ctx c1, c2;
	struct program store1, store2, trap;
	struct job jobs[8];
	const uint32_t grid[3] = { 1, 1, 1 }, group[3] = { 64, 1, 1 };
	struct agx_fw_event e;
	unsigned faults = 0, good_done = 0, bad_done = 0;

	gpu_up(f, &fh);
	ctx_init(&fh, &c1, 1);
	ctx_init(&fh, &c2, 2);
	store1 = load(&c1, store_kernel);
	trap = load(&c1, "trap");
	store2 = load(&c2, store_kernel);
	assert_int_equal(sim_fwhost_queue_create(&fh, &bad, 1, 2, AGX_FW_PIPE_COMPUTE, 16, 0), 0);
	assert_int_equal(sim_fwhost_queue_create(&fh, &good, 2, 2, AGX_FW_PIPE_COMPUTE, 16, 0), 0);
	jobs[0] = compute(&fh, &c1, store1, grid, group, UNMAPPED_VA, 0, 10, 1);
	jobs[1] = compute(&fh, &c1, store1, grid, group, CODE_VA, 0, 11, 2);
	jobs[2] = compute(&fh, &c1, (struct program){ UNMAPPED_VA }, grid, group, BUF_VA, 0, 12, 3);
	jobs[3] = compute(&fh, &c1, trap, grid, group, BUF_VA, 0, 13, 4);
	for (unsigned i = 0; i < 4; i++) {
		jobs[4 + i] =
		    compute(&fh, &c2, store2, (uint32_t[]){ 1, 1, 1 }, (uint32_t[]){ 64, 1, 1 },
			    BUF_VA + i * 256, 100 * i, 20 + i, 10 + i);
		assert_true(sim_fwhost_append(&fh, &bad, jobs[i].item));
		assert_true(sim_fwhost_append(&fh, &good, jobs[4 + i].item));
	}
	assert_true(sim_fwhost_kick(&fh, &bad));
	assert_true(sim_fwhost_kick(&fh, &good));

	while (good_done + bad_done < 8) {
		e = next_event(&fh);
		if (e.type == AGX_FW_EVENT_TYPE_FAULT) {
			assert_int_equal(e.context, 1);
			assert_int_equal(e.slot, 10 + faults);
			switch (faults++) {
			case 0: /* the store to nowhere, at its first lane */
				assert_int_equal(e.unit, AGX_UAT_FAULT_UNIT_USC);
				assert_int_equal(e.reason, AGX_UAT_FAULT_REASON_UNMAPPED);
				assert_true(e.write);
				assert_int_equal(e.va, UNMAPPED_VA);
				break;
			case 1: /* code is read and execute only */
				assert_int_equal(e.unit, AGX_UAT_FAULT_UNIT_USC);
				assert_int_equal(e.reason, AGX_UAT_FAULT_REASON_PERMISSION);
				assert_true(e.write);
				assert_int_equal(e.va, CODE_VA);
				break;
			case 2: /* the CDM fetching the program */
				assert_int_equal(e.unit, AGX_UAT_FAULT_UNIT_CDM);
				assert_int_equal(e.reason, AGX_UAT_FAULT_REASON_UNMAPPED);
				assert_false(e.write);
				assert_int_equal(e.va, UNMAPPED_VA);
				break;
			case 3:
				assert_int_equal(e.unit, AGX_UAT_FAULT_UNIT_USC);
				assert_int_equal(e.reason,
						 AGX_UAT_FAULT_REASON_ILLEGAL_INSTRUCTION);
				assert_int_equal(e.va, trap.va);
				break;
			}
			continue;
		}
		assert_int_equal(e.type, AGX_FW_EVENT_TYPE_COMPLETION);
		if (e.context == 1) {
			/* each failed item's fault came first */
			assert_int_equal(e.slot, 10 + bad_done);
			assert_int_equal(faults, bad_done + 1);
			assert_int_equal(e.result, AGX_FW_RESULT_FAULT);
			expect_stamp(&jobs[bad_done], bad_done + 1, AGX_FW_RESULT_FAULT);
			bad_done++;
		} else {
			assert_int_equal(e.context, 2);
			assert_int_equal(e.slot, 20 + good_done);
			assert_int_equal(e.result, AGX_FW_RESULT_OK);
			expect_stamp(&jobs[4 + good_done], 10 + good_done, AGX_FW_RESULT_OK);
			good_done++;
		}
	}
	for (unsigned i = 0; i < 4; i++)
		for (unsigned k = 0; k < 64; k++)
			assert_int_equal(word(&c2, i * 64 + k), k + 100 * i);
	/* context 1 wrote nothing anywhere */
	for (unsigned k = 0; k < 64; k++)
		assert_int_equal(word(&c1, k), 0);
	assert_true(log_has(&fh, "GPU fault: context 1"));

	/* the fault registers hold the first fault until the host clears them */
	expect_fault_registers(&f->host, AGX_UAT_FAULT_REASON_UNMAPPED, UNMAPPED_VA);
	*agx_mmio_u32(f->host.mmio, AGX_MMIO_FAULT_STATUS) = 0;
	jobs[0] = compute(&fh, &c1, store1, grid, group, CODE_VA, 0, 14, 5);
	assert_true(sim_fwhost_submit(&fh, &bad, jobs[0].item));
	assert_int_equal(next_event(&fh).type, AGX_FW_EVENT_TYPE_FAULT);
	expect_completion(&fh, 1, 14, 5, AGX_FW_RESULT_FAULT);
	expect_fault_registers(&f->host, AGX_UAT_FAULT_REASON_PERMISSION, CODE_VA);
}

/* A shader over its queue's time limit is stopped with a timeout; the next job runs. */
static void test_timeout(void **state)
{
	struct fixture *f = *state;
	struct sim_fwhost fh;
	struct sim_fwqueue slow, next;
	struct ctx c1, c2;
	struct job spin, ok;
	struct agx_fw_event e;

	gpu_up(f, &fh);
	ctx_init(&fh, &c1, 1);
	ctx_init(&fh, &c2, 2);
	assert_int_equal(sim_fwhost_queue_create(&fh, &slow, 1, 1, AGX_FW_PIPE_COMPUTE, 16, 20000),
			 0);
	assert_int_equal(sim_fwhost_queue_create(&fh, &next, 2, 1, AGX_FW_PIPE_COMPUTE, 16, 0), 0);
	spin = compute(&fh, &c1, load(&c1, spin_kernel), (uint32_t[]){ 1, 1, 1 },
		       (uint32_t[]){ 32, 1, 1 }, BUF_VA, 0, 3, 30);
	ok = compute(&fh, &c2, load(&c2, store_kernel), (uint32_t[]){ 1, 1, 1 },
		     (uint32_t[]){ 64, 1, 1 }, BUF_VA, 5, 4, 40);
	assert_true(sim_fwhost_submit(&fh, &slow, spin.item));
	assert_true(sim_fwhost_submit(&fh, &next, ok.item));

	e = next_event(&fh);
	assert_int_equal(e.type, AGX_FW_EVENT_TYPE_TIMEOUT);
	assert_int_equal(e.context, 1);
	assert_int_equal(e.slot, 3);
	expect_completion(&fh, 1, 3, 30, AGX_FW_RESULT_TIMEOUT);
	expect_stamp(&spin, 30, AGX_FW_RESULT_TIMEOUT);
	assert_int_equal(word(&c1, 0), 1); /* it did run */
	expect_completion(&fh, 2, 4, 40, AGX_FW_RESULT_OK);
	assert_int_equal(word(&c2, 63), 63 + 5);
}

/*
 * Priorities and turns: while a spinning job holds the GPU, a low and a
 * high priority queue fill up; once devctl aborts the spinner, the high
 * queue goes first, and two queues of one priority take turns.
 */
static void test_priority_and_abort(void **state)
{
	struct fixture *f = *state;
	struct sim_fwhost fh;
	struct sim_fwqueue hold, low, high_a, high_b;
	struct ctx c1;
	struct job spin, queued;
	uint64_t open_va;
	struct agx_fw_devctl abort_ctx = { .op = AGX_FW_DEVCTL_OP_ABORT_CONTEXT,
					   .context = 1,
					   .seq = 77 };
	/* after the aborts: high a and b in turns, then low */
	static const uint32_t want[] = { 100, 200, 101, 201, 300, 301 };
	struct agx_fw_event e;

	gpu_up(f, &fh);
	/* a stamp that is already 0: barriers waiting for 0 pass */
	assert_non_null(sim_fwhost_alloc(&fh, 8, &open_va));
	ctx_init(&fh, &c1, 1);
	assert_int_equal(sim_fwhost_queue_create(&fh, &hold, 1, 2, AGX_FW_PIPE_COMPUTE, 16, 0), 0);
	assert_int_equal(sim_fwhost_queue_create(&fh, &low, 2, 3, AGX_FW_PIPE_FRAGMENT, 16, 0), 0);
	assert_int_equal(sim_fwhost_queue_create(&fh, &high_a, 2, 0, AGX_FW_PIPE_VERTEX, 16, 0), 0);
	assert_int_equal(sim_fwhost_queue_create(&fh, &high_b, 3, 0, AGX_FW_PIPE_COMPUTE, 16, 0),
			 0);
	spin = compute(&fh, &c1, load(&c1, spin_kernel), (uint32_t[]){ 1, 1, 1 },
		       (uint32_t[]){ 32, 1, 1 }, BUF_VA, 0, 0, 1);
	queued = compute(&fh, &c1, load(&c1, store_kernel), (uint32_t[]){ 1, 1, 1 },
			 (uint32_t[]){ 32, 1, 1 }, BUF_VA + 1024, 0, 0, 2);
	assert_true(sim_fwhost_append(&fh, &hold, spin.item));
	assert_true(sim_fwhost_submit(&fh, &hold, queued.item));
	while (word(&c1, 0) != 1) /* the spinner runs */
		usleep(1000);
	for (unsigned i = 0; i < 2; i++) {
		assert_true(
		    sim_fwhost_submit(&fh, &low, barrier(&fh, open_va, 0, 3, 300 + i).item));
		assert_true(
		    sim_fwhost_submit(&fh, &high_a, barrier(&fh, open_va, 0, 1, 100 + i).item));
		assert_true(
		    sim_fwhost_submit(&fh, &high_b, barrier(&fh, open_va, 0, 2, 200 + i).item));
	}
	assert_true(sim_fwhost_devctl(&fh, &abort_ctx));

	/* the spinner and the job queued behind it in the same context are aborted */
	expect_completion(&fh, 1, 0, 1, AGX_FW_RESULT_ABORTED);
	expect_stamp(&spin, 1, AGX_FW_RESULT_ABORTED);
	expect_completion(&fh, 1, 0, 2, AGX_FW_RESULT_ABORTED);
	expect_stamp(&queued, 2, AGX_FW_RESULT_ABORTED);
	assert_int_equal(word(&c1, 256), 0); /* it never ran */
	e = next_event(&fh);
	assert_int_equal(e.type, AGX_FW_EVENT_TYPE_DEVCTL_DONE);
	assert_int_equal(e.seq, 77);
	for (unsigned n = 0; n < sizeof(want) / sizeof(want[0]); n++) {
		e = next_event(&fh);
		assert_int_equal(e.type, AGX_FW_EVENT_TYPE_COMPLETION);
		assert_int_equal(e.result, AGX_FW_RESULT_OK);
		assert_int_equal(e.value, want[n]);
	}
}

/* A spinner from context 1 takes the GPU; nothing else runs until devctl aborts it. */
static void hold_gpu(struct sim_fwhost *fh, struct ctx *c1, struct sim_fwqueue *hold, unsigned w)
{
	struct job spin = compute(fh, c1, load(c1, spin_kernel), (uint32_t[]){ 1, 1, 1 },
				  (uint32_t[]){ 32, 1, 1 }, BUF_VA + w * 4, 0, 0, w);

	assert_true(sim_fwhost_submit(fh, hold, spin.item));
	while (word(c1, w) != 1)
		usleep(1000);
}

/* Submits an item, waiting while the pipe channel is full (the firmware reads it as it can). */
static void submit_waiting(struct sim_fwhost *fh, struct sim_fwqueue *q, uint64_t item)
{
	assert_true(sim_fwhost_append(fh, q, item));
	for (unsigned tries = 0; !sim_fwhost_kick(fh, q); tries++) {
		assert_true(tries < TIMEOUT_MS);
		usleep(1000);
	}
}

static void release_gpu(struct sim_fwhost *fh, unsigned w)
{
	struct agx_fw_devctl abort_ctx = { .op = AGX_FW_DEVCTL_OP_ABORT_CONTEXT,
					   .context = 1,
					   .seq = w };
	struct agx_fw_event e;

	assert_true(sim_fwhost_devctl(fh, &abort_ctx));
	expect_completion(fh, 1, 0, w, AGX_FW_RESULT_ABORTED);
	e = next_event(fh);
	assert_int_equal(e.type, AGX_FW_EVENT_TYPE_DEVCTL_DONE);
	assert_int_equal(e.seq, w);
}

/*
 * Turns across a long run list: 130 queues of one priority, more than two
 * words of the firmware's run-list bitmap, each get a barrier while the GPU
 * is held.  Once it is free they complete one a queue, in turn order; a
 * second round wraps from the end of the list to its start, and a lone
 * queue just below where the turn stands is found all the way around.
 */
static void test_many_queues(void **state)
{
	enum { N = 130 };
	struct fixture *f = *state;
	static struct sim_fwqueue hold, qs[N];
	struct sim_fwhost fh;
	uint64_t open_va;
	struct ctx c1;

	gpu_up(f, &fh);
	assert_non_null(sim_fwhost_alloc(&fh, 8, &open_va)); /* a stamp at 0: barriers pass */
	ctx_init(&fh, &c1, 1);
	assert_int_equal(sim_fwhost_queue_create(&fh, &hold, 1, 2, AGX_FW_PIPE_COMPUTE, 16, 0), 0);

	/* queue i is announced i-th after the spinner's: the firmware's entry i + 1 */
	hold_gpu(&fh, &c1, &hold, 1);
	for (unsigned i = 0; i < N; i++) {
		assert_int_equal(
		    sim_fwhost_queue_create(&fh, &qs[i], 2, 1, AGX_FW_PIPE_VERTEX, 4, 0), 0);
		submit_waiting(&fh, &qs[i], barrier(&fh, open_va, 0, 1, 1000 + i).item);
	}
	release_gpu(&fh, 1);
	for (unsigned i = 0; i < N; i++)
		expect_completion(&fh, 2, 1, 1000 + i, AGX_FW_RESULT_OK);

	/* the turn is past the last entry: the next round starts again at the first */
	hold_gpu(&fh, &c1, &hold, 2);
	for (unsigned i = 100; i < N; i++)
		submit_waiting(&fh, &qs[i], barrier(&fh, open_va, 0, 1, 2000 + i).item);
	for (unsigned i = 0; i < 6; i++)
		submit_waiting(&fh, &qs[i], barrier(&fh, open_va, 0, 1, 2000 + i).item);
	release_gpu(&fh, 2);
	for (unsigned i = 0; i < 6; i++)
		expect_completion(&fh, 2, 1, 2000 + i, AGX_FW_RESULT_OK);
	for (unsigned i = 100; i < N; i++)
		expect_completion(&fh, 2, 1, 2000 + i, AGX_FW_RESULT_OK);

	/* entry 128, in the turn's own bitmap word but below it */
	assert_true(sim_fwhost_submit(&fh, &qs[127], barrier(&fh, open_va, 0, 1, 3000).item));
	expect_completion(&fh, 2, 1, 3000, AGX_FW_RESULT_OK);
}

/*
 * A barrier item holds its queue until a stamp reaches its value — here a
 * compute job's stamp on another queue; items the firmware cannot use
 * complete as malformed, and queues it cannot use are logged.
 */
static void test_barrier_and_malformed(void **state)
{
	struct fixture *f = *state;
	struct sim_fwhost fh;
	struct sim_fwqueue q, waiter, broken;
	struct ctx c1;
	struct job j, b, bad;
	struct program store;
	uint8_t stream[64];
	size_t n;

	gpu_up(f, &fh);
	ctx_init(&fh, &c1, 1);
	assert_int_equal(sim_fwhost_queue_create(&fh, &q, 1, 1, AGX_FW_PIPE_COMPUTE, 16, 0), 0);
	assert_int_equal(sim_fwhost_queue_create(&fh, &waiter, 1, 1, AGX_FW_PIPE_VERTEX, 16, 0), 0);
	store = load(&c1, store_kernel);
	j = compute(&fh, &c1, store, (uint32_t[]){ 1, 1, 1 }, (uint32_t[]){ 32, 1, 1 }, BUF_VA, 0,
		    1, 5);
	/* a stamp's value is its first word: wait for 5 there */
	b = barrier(&fh, j.stamp_va, 5, 2, 6);
	assert_true(sim_fwhost_submit(&fh, &waiter, b.item));
	/* nothing can happen yet: a fwctl acknowledgement is the next event */
	assert_true(sim_fwhost_fwctl(
	    &fh, &(struct agx_fw_fwctl){ .op = AGX_FW_FWCTL_OP_CACHE_FLUSH, .seq = 5 }));
	assert_int_equal(next_event(&fh).type, AGX_FW_EVENT_TYPE_FWCTL_DONE);
	assert_true(sim_fwhost_submit(&fh, &q, j.item));
	expect_completion(&fh, 1, 1, 5, AGX_FW_RESULT_OK);
	expect_completion(&fh, 1, 2, 6, AGX_FW_RESULT_OK);

	/* threadgroups of no threads, and an item of an unknown type */
	n = agx_cdm_launch(stream, pipeline(&c1, store, BUF_VA, 0), 0, (uint32_t[]){ 1, 1, 1 },
			   (uint32_t[]){ 0, 1, 1 });
	n += agx_cdm_terminate(stream + n);
	bad = item(&fh, &c1, stream, n, 0, 9);
	assert_true(sim_fwhost_submit(&fh, &q, bad.item));
	expect_completion(&fh, 1, 0, 9, AGX_FW_RESULT_MALFORMED);
	expect_stamp(&bad, 9, AGX_FW_RESULT_MALFORMED);
	assert_true(log_has(&fh, "threadgroup of 0 threads"));
	fh.fw[bad.item - SIM_FWHOST_VA] = 0x7f; /* type */
	assert_true(sim_fwhost_submit(&fh, &q, bad.item));
	expect_completion(&fh, 1, 0, 9, AGX_FW_RESULT_MALFORMED);
	/* a compute item on a vertex pipe */
	assert_true(sim_fwhost_submit(&fh, &waiter, j.item));
	expect_completion(&fh, 1, 1, 5, AGX_FW_RESULT_MALFORMED);

	/* a queue in context 0 (the firmware's) is refused before it runs anything */
	assert_int_equal(sim_fwhost_queue_create(&fh, &broken, 1, 1, AGX_FW_PIPE_COMPUTE, 16, 0),
			 0);
	broken.desc[64] = 0; /* context */
	assert_true(sim_fwhost_submit(&fh, &broken, j.item));
	expect_log(fh.host, "work queue at");
	assert_int_equal(*(volatile uint32_t *)broken.desc, 0);
}

/*
 * A stream of two launches: a barrier between them, a link to a second
 * segment, and a last dispatch whose threadgroups overhang its 100 threads.
 */
static void test_cdm_stream(void **state)
{
	struct fixture *f = *state;
	struct sim_fwhost fh;
	struct sim_fwqueue q;
	struct ctx c;
	struct program store;
	uint8_t first[128], second[128];
	size_t n = 0, m = 0;
	uint64_t second_va = UNIF_VA + PAGE - 256; /* the last bytes of the page */
	struct job j;

	gpu_up(f, &fh);
	ctx_init(&fh, &c, 1);
	store = load(&c, store_kernel);
	assert_int_equal(sim_fwhost_queue_create(&fh, &q, 1, 1, AGX_FW_PIPE_COMPUTE, 16, 0), 0);
	m += agx_cdm_launch(second, pipeline(&c, store, BUF_VA + 4096, 1000), 0,
			    (uint32_t[]){ 100, 1, 1 }, (uint32_t[]){ 64, 1, 1 });
	m += agx_cdm_terminate(second + m);
	memcpy(c.unif + (second_va - UNIF_VA), second, m);
	n += agx_cdm_launch(first, pipeline(&c, store, BUF_VA, 0), 0, (uint32_t[]){ 64, 2, 1 },
			    (uint32_t[]){ 32, 2, 1 });
	n += agx_cdm_barrier(first + n, false);
	n += agx_cdm_link(first + n, second_va);
	j = item(&fh, &c, first, n, 3, 33);
	assert_true(sim_fwhost_submit(&fh, &q, j.item));
	expect_completion(&fh, 1, 3, 33, AGX_FW_RESULT_OK);
	for (unsigned i = 0; i < 128; i++)
		assert_int_equal(word(&c, i), i);
	for (unsigned i = 0; i < 128; i++) /* lanes past 100 are not threads */
		assert_int_equal(word(&c, 1024 + i), i < 100 ? i + 1000 : 0);
}

/*
 * The USC keeps decoded shaders: new code at the same address runs only
 * after a CDM barrier that invalidates the shader cache, or an fwctl cache
 * flush -- as on hardware, where the driver must ask.
 */
static void test_shader_cache(void **state)
{
	struct fixture *f = *state;
	struct sim_fwhost fh;
	struct sim_fwqueue q;
	struct ctx c;
	struct program p;
	uint8_t stream[128];
	size_t n;
	struct job j;
	const uint32_t one[3] = { 1, 1, 1 }, group[3] = { 32, 1, 1 };

	gpu_up(f, &fh);
	ctx_init(&fh, &c, 1);
	p = load(&c, store_kernel);
	assert_int_equal(sim_fwhost_queue_create(&fh, &q, 1, 1, AGX_FW_PIPE_COMPUTE, 16, 0), 0);
	j = compute(&fh, &c, p, one, group, BUF_VA, 5, 1, 1);
	assert_true(sim_fwhost_submit(&fh, &q, j.item));
	expect_completion(&fh, 1, 1, 1, AGX_FW_RESULT_OK);
	assert_int_equal(word(&c, 3), 3 + 5);

	/* new code in place of the old: buf[i] = 77 */
	test_assemble("get_sr r1, sr80\n"
		      "mov_imm r2, 77\n"
		      "device_store 0, i32, x, r2, u0_u1, r1, unsigned, 0\n"
		      "stop",
		      c.code + (p.va - CODE_VA), 64);
	j = compute(&fh, &c, p, one, group, BUF_VA, 6, 2, 2);
	assert_true(sim_fwhost_submit(&fh, &q, j.item));
	expect_completion(&fh, 1, 2, 2, AGX_FW_RESULT_OK);
	assert_int_equal(word(&c, 3), 3 + 6); /* the old shader, still decoded */

	n = agx_cdm_barrier(stream, true);
	n += agx_cdm_launch(stream + n, pipeline(&c, p, BUF_VA, 7), 0, group, group);
	n += agx_cdm_terminate(stream + n);
	j = item(&fh, &c, stream, n, 3, 3);
	assert_true(sim_fwhost_submit(&fh, &q, j.item));
	expect_completion(&fh, 1, 3, 3, AGX_FW_RESULT_OK);
	assert_int_equal(word(&c, 3), 77);

	/* and back, through an fwctl cache flush */
	test_assemble(store_kernel, c.code + (p.va - CODE_VA), 64);
	assert_true(sim_fwhost_fwctl(
	    &fh, &(struct agx_fw_fwctl){ .op = AGX_FW_FWCTL_OP_CACHE_FLUSH, .seq = 9 }));
	assert_int_equal(next_event(&fh).type, AGX_FW_EVENT_TYPE_FWCTL_DONE);
	j = compute(&fh, &c, p, one, group, BUF_VA, 8, 4, 4);
	assert_true(sim_fwhost_submit(&fh, &q, j.item));
	expect_completion(&fh, 1, 4, 4, AGX_FW_RESULT_OK);
	assert_int_equal(word(&c, 3), 3 + 8);
}

/*
 * A preshader runs once before the dispatch and sets uniforms for every
 * thread (u2 = 500 here); one that faults ends the item with its fault.
 */
static void test_preshader(void **state)
{
	struct fixture *f = *state;
	struct sim_fwhost fh;
	struct sim_fwqueue q;
	struct ctx c;
	struct program store, pre, bad;
	uint8_t stream[64];
	size_t n;
	struct job j;
	struct agx_fw_event e;
	const uint32_t threads[3] = { 128, 1, 1 }, group[3] = { 64, 1, 1 };

	gpu_up(f, &fh);
	ctx_init(&fh, &c, 1);
	store = load(&c, store_kernel);
	pre = load(&c, "mov_imm r1, 500\nuniform_store xy, r1l_r1h, 4\nstop");
	bad = load(&c, "mov_imm r1, 0\n"
		       "device_store 0, i32, x, r1, u0_u1, r1, unsigned, 0\n"
		       "stop");
	assert_int_equal(sim_fwhost_queue_create(&fh, &q, 1, 1, AGX_FW_PIPE_COMPUTE, 16, 0), 0);
	n = agx_cdm_launch(stream, pipeline_with(&c, store, &pre, NULL, BUF_VA, 7), 0, threads,
			   group);
	n += agx_cdm_terminate(stream + n);
	j = item(&fh, &c, stream, n, 1, 1);
	assert_true(sim_fwhost_submit(&fh, &q, j.item));
	expect_completion(&fh, 1, 1, 1, AGX_FW_RESULT_OK);
	for (unsigned i = 0; i < 128; i++)
		assert_int_equal(word(&c, i), i + 500);

	n = agx_cdm_launch(stream, pipeline_with(&c, store, &bad, NULL, UNMAPPED_VA, 0), 0, threads,
			   group);
	n += agx_cdm_terminate(stream + n);
	j = item(&fh, &c, stream, n, 2, 2);
	assert_true(sim_fwhost_submit(&fh, &q, j.item));
	e = next_event(&fh);
	assert_int_equal(e.type, AGX_FW_EVENT_TYPE_FAULT);
	assert_int_equal(e.va, UNMAPPED_VA);
	assert_int_equal(e.unit, AGX_UAT_FAULT_UNIT_USC);
	expect_completion(&fh, 1, 2, 2, AGX_FW_RESULT_FAULT);
}

/* Control words the CDM does not take end the item as malformed, and say why. */
static void test_cdm_malformed(void **state)
{
	struct fixture *f = *state;
	struct sim_fwhost fh;
	struct sim_fwqueue q;
	struct ctx c;
	struct program p;
	uint8_t stream[64];
	size_t n;
	struct job j;
	uint32_t unknown = 7u << 29, pipe;

	gpu_up(f, &fh);
	ctx_init(&fh, &c, 1);
	p = load(&c, store_kernel);
	assert_int_equal(sim_fwhost_queue_create(&fh, &q, 1, 1, AGX_FW_PIPE_COMPUTE, 16, 0), 0);

	/* a block type nobody documented */
	j = item(&fh, &c, (const uint8_t *)&unknown, 4, 1, 1);
	assert_true(sim_fwhost_submit(&fh, &q, j.item));
	expect_completion(&fh, 1, 1, 1, AGX_FW_RESULT_MALFORMED);
	assert_true(log_has(&fh, "unknown CDM block 7"));

	/* a pipeline with a USC state word nobody documented */
	pipe = pipeline(&c, p, BUF_VA, 0);
	c.code[pipe + AGX_CMD_USC_UNIFORM_LENGTH] = 0x77;
	n = agx_cdm_launch(stream, pipe, 0, (uint32_t[]){ 32, 1, 1 }, (uint32_t[]){ 32, 1, 1 });
	n += agx_cdm_terminate(stream + n);
	j = item(&fh, &c, stream, n, 2, 2);
	assert_true(sim_fwhost_submit(&fh, &q, j.item));
	expect_completion(&fh, 1, 2, 2, AGX_FW_RESULT_MALFORMED);
	assert_true(log_has(&fh, "unknown USC state word 0x77"));

	/* a stream without its end: it runs into encoder_end */
	n = agx_cdm_launch(stream, pipeline(&c, p, BUF_VA, 0), 0, (uint32_t[]){ 32, 1, 1 },
			   (uint32_t[]){ 32, 1, 1 });
	j = item(&fh, &c, stream, n, 3, 3);
	assert_true(sim_fwhost_submit(&fh, &q, j.item));
	expect_completion(&fh, 1, 3, 3, AGX_FW_RESULT_MALFORMED);
	assert_true(log_has(&fh, "runs past its end"));
	assert_int_equal(word(&c, 31), 31); /* the launch before it ran */
}

/*
 * Device atomics from every GPU core at once: 8,192 threads take a ticket
 * from one counter; the counter ends at 8,192 and the tickets are each
 * number once.
 */
static void test_atomic_counter(void **state)
{
	enum { THREADS = 8192 };
	struct fixture *f = *state;
	struct sim_fwhost fh;
	struct sim_fwqueue q;
	struct ctx c;
	struct job j;
	static uint8_t seen[THREADS];

	gpu_up(f, &fh);
	ctx_init(&fh, &c, 1);
	assert_int_equal(sim_fwhost_queue_create(&fh, &q, 1, 1, AGX_FW_PIPE_COMPUTE, 16, 0), 0);
	j = compute(&fh, &c,
		    load(&c, "mov_imm r2, 1\n"
			     "atomic 0, add, r3, r2, u0_u1, 0, signed, coherent1\n"
			     "get_sr r1, sr80\n"
			     "iadd r1, r1, 1\n"
			     "device_store 0, i32, x, r3, u0_u1, r1, unsigned, 0\n"
			     "stop"),
		    (uint32_t[]){ THREADS / 512, 1, 1 }, (uint32_t[]){ 512, 1, 1 }, BUF_VA, 0, 1,
		    1);
	assert_true(sim_fwhost_submit(&fh, &q, j.item));
	expect_completion(&fh, 1, 1, 1, AGX_FW_RESULT_OK);
	assert_int_equal(word(&c, 0), THREADS);
	memset(seen, 0, sizeof(seen));
	for (unsigned i = 0; i < THREADS; i++) {
		uint32_t ticket = word(&c, 1 + i);

		assert_true(ticket < THREADS);
		assert_false(seen[ticket]);
		seen[ticket] = 1;
	}
}

/*
 * A dispatch reads a texture: state from the pipeline's texture and
 * sampler words, texels from a linear RG16 uint texture, one per thread.
 */
static void test_texture(void **state)
{
	struct fixture *f = *state;
	struct sim_fwhost fh;
	struct sim_fwqueue q;
	struct ctx c;
	struct job j;
	uint8_t stream[64];
	size_t n;
	uint16_t *texels;
	struct agx_cmd_texture t = { .dimension = AGX_CMD_TEXTURE_DIM_TEX_2D,
				     .layout = AGX_CMD_LAYOUT_LINEAR,
				     .channels = AGX_CMD_CHANNELS_R16G16,
				     .type = AGX_CMD_TEXTURE_TYPE_UINT,
				     .swizzle_r = AGX_CMD_CHANNEL_G, /* swapped */
				     .swizzle_g = AGX_CMD_CHANNEL_R,
				     .swizzle_b = AGX_CMD_CHANNEL_ZERO,
				     .swizzle_a = AGX_CMD_CHANNEL_ONE,
				     .width = 16,
				     .height = 4,
				     .address = BUF_VA + 0x8000,
				     .stride = 64 };
	struct agx_cmd_sampler sampler = { AGX_CMD_SAMPLER_DEFAULTS,
					   .wrap_s = AGX_CMD_WRAP_CLAMP_TO_BORDER };
	struct agx_pipeline bind = { .num_textures = 1, .num_samplers = 1 };

	gpu_up(f, &fh);
	ctx_init(&fh, &c, 1);
	texels = (uint16_t *)(c.buf + 0x8000);
	for (unsigned i = 0; i < 16 * 4; i++) {
		texels[2 * i] = (uint16_t)(1000 + i);
		texels[2 * i + 1] = (uint16_t)(2000 + i);
	}
	/* the descriptors in the uniform page */
	bind.textures = UNIF_VA + 0x3000;
	bind.samplers = UNIF_VA + 0x3100;
	agx_cmd_texture_pack(c.unif + 0x3000, &t);
	agx_cmd_sampler_pack(c.unif + 0x3100, &sampler);
	assert_int_equal(sim_fwhost_queue_create(&fh, &q, 1, 1, AGX_FW_PIPE_COMPUTE, 16, 0), 0);
	/* thread (x, y) reads texel (x, y) and stores its two channels at buf[2 * (y * 16 + x)] */
	n = agx_cdm_launch(
	    stream,
	    pipeline_with(&c,
			  load(&c, "get_sr r8, sr80\n"
				   "get_sr r9, sr81\n"
				   "texture_load r4_r5, ts0, ss0, tex_2d, r8_r9, auto_lod, 0, "
				   "xy, 0, 0, 0, 0, 12, 0\n"
				   "wait 0\n"
				   "mov_imm r10, 16\n"
				   "imadd r11, r9, r10, r8\n"
				   "iadd r11, r11, r11\n"
				   "device_store 0, i32, xy, r4_r5, u0_u1, r11, unsigned, 0\n"
				   "stop"),
			  NULL, &bind, BUF_VA, 0),
	    0, (uint32_t[]){ 16, 4, 1 }, (uint32_t[]){ 16, 4, 1 });
	n += agx_cdm_terminate(stream + n);
	j = item(&fh, &c, stream, n, 1, 1);
	assert_true(sim_fwhost_submit(&fh, &q, j.item));
	expect_completion(&fh, 1, 1, 1, AGX_FW_RESULT_OK);
	for (unsigned i = 0; i < 16 * 4; i++) {
		assert_int_equal(word(&c, 2 * i), 2000 + i); /* G, swizzled into R */
		assert_int_equal(word(&c, 2 * i + 1), 1000 + i);
	}
}

/*
 * Stamps carry when the GPU began an item and when it ended, on the
 * device timer, which here is the test's own CLOCK_MONOTONIC: each lies
 * between the submission and the completion seen, a queue's items run one
 * after another, an item the firmware completes itself (a barrier, one
 * aborted in its queue) starts when it ends, and an item queued behind
 * another context's spinner starts only once that spinner is gone -- its
 * start is when it ran, not when it was queued.
 */
static void test_timestamps(void **state)
{
	struct fixture *f = *state;
	struct sim_fwhost fh;
	struct sim_fwqueue q, hold, other;
	struct ctx c1, c2;
	struct job jobs[4], spin, queued, late;
	struct agx_fw_stamp s[4], st_spin, st_queued, st_late;
	struct agx_fw_devctl abort_ctx = { .op = AGX_FW_DEVCTL_OP_ABORT_CONTEXT,
					   .context = 1,
					   .seq = 3 };
	struct program store;
	uint64_t open_va, before, after, running, aborting;

	gpu_up(f, &fh);
	ctx_init(&fh, &c1, 1);
	ctx_init(&fh, &c2, 2);
	assert_non_null(sim_fwhost_alloc(&fh, 8, &open_va)); /* a stamp at 0: barriers pass */
	assert_int_equal(sim_fwhost_queue_create(&fh, &q, 1, 1, AGX_FW_PIPE_COMPUTE, 16, 0), 0);
	store = load(&c1, store_kernel);
	jobs[0] = compute(&fh, &c1, store, (uint32_t[]){ 2, 1, 1 }, (uint32_t[]){ 64, 1, 1 },
			  BUF_VA, 0, 1, 1);
	jobs[1] = compute(&fh, &c1, store, (uint32_t[]){ 2, 1, 1 }, (uint32_t[]){ 64, 1, 1 },
			  BUF_VA + 1024, 0, 2, 2);
	jobs[2] = barrier(&fh, open_va, 0, 3, 3);
	jobs[3] = compute(&fh, &c1, store, (uint32_t[]){ 2, 1, 1 }, (uint32_t[]){ 64, 1, 1 },
			  BUF_VA + 2048, 0, 4, 4);
	before = now_ns();
	for (unsigned i = 0; i < 4; i++)
		assert_true(sim_fwhost_append(&fh, &q, jobs[i].item));
	assert_true(sim_fwhost_kick(&fh, &q));
	for (unsigned i = 0; i < 4; i++)
		expect_completion(&fh, 1, i + 1, i + 1, AGX_FW_RESULT_OK);
	after = now_ns();
	for (unsigned i = 0; i < 4; i++) {
		s[i] = expect_stamp(&jobs[i], i + 1, AGX_FW_RESULT_OK);
		assert_true(s[i].start >= before);
		assert_true(s[i].end <= after);
		if (i)
			assert_true(s[i].start >= s[i - 1].end);
	}
	assert_true(s[2].start == s[2].end); /* the barrier never reached the GPU */

	/* a spinner of context 1 holds the GPU; context 2's item waits for it */
	assert_int_equal(sim_fwhost_queue_create(&fh, &hold, 1, 1, AGX_FW_PIPE_COMPUTE, 16, 0), 0);
	assert_int_equal(sim_fwhost_queue_create(&fh, &other, 2, 1, AGX_FW_PIPE_COMPUTE, 16, 0), 0);
	spin = compute(&fh, &c1, load(&c1, spin_kernel), (uint32_t[]){ 1, 1, 1 },
		       (uint32_t[]){ 32, 1, 1 }, BUF_VA + 4096, 0, 5, 5);
	queued = compute(&fh, &c1, store, (uint32_t[]){ 1, 1, 1 }, (uint32_t[]){ 32, 1, 1 },
			 BUF_VA + 8192, 0, 6, 6);
	late = compute(&fh, &c2, load(&c2, store_kernel), (uint32_t[]){ 1, 1, 1 },
		       (uint32_t[]){ 64, 1, 1 }, BUF_VA, 7, 7, 7);
	before = now_ns();
	assert_true(sim_fwhost_append(&fh, &hold, spin.item));
	assert_true(sim_fwhost_submit(&fh, &hold, queued.item));
	while (word(&c1, 1024) != 1) /* the spinner runs */
		usleep(1000);
	running = now_ns();
	/* the mailbox is in order: the firmware knows of it before it hears of the abort */
	assert_true(sim_fwhost_submit(&fh, &other, late.item));
	aborting = now_ns();
	assert_true(sim_fwhost_devctl(&fh, &abort_ctx));
	expect_completion(&fh, 1, 5, 5, AGX_FW_RESULT_ABORTED);
	expect_completion(&fh, 1, 6, 6, AGX_FW_RESULT_ABORTED);
	assert_int_equal(next_event(&fh).type, AGX_FW_EVENT_TYPE_DEVCTL_DONE);
	expect_completion(&fh, 2, 7, 7, AGX_FW_RESULT_OK);
	after = now_ns();
	st_spin = expect_stamp(&spin, 5, AGX_FW_RESULT_ABORTED);
	st_queued = expect_stamp(&queued, 6, AGX_FW_RESULT_ABORTED);
	st_late = expect_stamp(&late, 7, AGX_FW_RESULT_OK);
	/* the spinner ran from before it was seen running until after the abort was sent */
	assert_true(st_spin.start >= before && st_spin.start <= running);
	assert_true(st_spin.end >= aborting);
	/* the item behind it never ran: aborted in its queue, after the spinner */
	assert_true(st_queued.start == st_queued.end && st_queued.start >= st_spin.end);
	/* queued while the GPU was held, started once it was free */
	assert_true(st_late.start >= st_queued.end && st_late.start >= aborting);
	assert_true(st_late.end <= after);
	assert_int_equal(word(&c2, 63), 63 + 7);
}

/* 100k items through a 64-entry work queue, its pipe channel and the event ring. */
static void test_ring_wrap(void **state)
{
	struct fixture *f = *state;
	struct sim_fwhost fh;
	struct sim_fwqueue q;
	struct job items[32];
	uint64_t open_va;
	enum { TOTAL = 100000, BATCH = 32 };

	gpu_up(f, &fh);
	assert_non_null(sim_fwhost_alloc(&fh, 8, &open_va));
	assert_int_equal(sim_fwhost_queue_create(&fh, &q, 1, 1, AGX_FW_PIPE_COMPUTE, 64, 0), 0);
	for (unsigned i = 0; i < BATCH; i++)
		items[i] = barrier(&fh, open_va, 0, i, 0);
	for (unsigned done = 0; done < TOTAL; done += BATCH) {
		for (unsigned i = 0; i < BATCH; i++) {
			uint8_t *header = fh.fw + (items[i].item - SIM_FWHOST_VA);
			struct agx_fw_work_header h = { 0 };

			assert_true(agx_fw_work_header_unpack(header, &h));
			h.stamp_value = done + i;
			agx_fw_work_header_pack(header, &h);
			assert_true(sim_fwhost_append(&fh, &q, items[i].item));
		}
		assert_true(sim_fwhost_kick(&fh, &q));
		for (unsigned i = 0; i < BATCH; i++) {
			struct agx_fw_event e = next_event(&fh);

			if (e.type != AGX_FW_EVENT_TYPE_COMPLETION || e.value != done + i ||
			    e.slot != i)
				fail_msg("item %u: event type %u value %u slot %u", done + i,
					 (unsigned)e.type, (unsigned)e.value, (unsigned)e.slot);
		}
		expect_stamp(&items[BATCH - 1], done + BATCH - 1, AGX_FW_RESULT_OK);
	}
}

/* An injected delay: the job's results are there, its completion comes a second later. */
static void test_delayed_completion(void **state)
{
	struct fixture *f = *state;
	struct sim_fwhost fh;
	struct sim_fwqueue q;
	struct ctx c;
	struct job j;
	struct agx_fw_stamp s;

	gpu_up(f, &fh);
	ctx_init(&fh, &c, 1);
	assert_int_equal(sim_fwhost_queue_create(&fh, &q, 1, 1, AGX_FW_PIPE_COMPUTE, 16, 0), 0);
	assert_int_equal(sim_host_inject(&f->host,
					 AGX__DEVICE__INJECT_FAULT__KIND__KIND_DELAY_COMPLETION, 0,
					 1, 1000),
			 0);
	j = compute(&fh, &c, load(&c, store_kernel), (uint32_t[]){ 1, 1, 1 },
		    (uint32_t[]){ 64, 1, 1 }, BUF_VA, 1, 1, 1);
	assert_true(sim_fwhost_submit(&fh, &q, j.item));
	while (word(&c, 63) != 64)
		usleep(1000);
	assert_true(agx_fw_stamp_unpack(j.stamp, &s));
	assert_int_equal(s.value, 0); /* finished, not completed */
	expect_completion(&fh, 1, 1, 1, AGX_FW_RESULT_OK);
	/* only one was delayed: the next completes as usual */
	j = compute(&fh, &c, load(&c, store_kernel), (uint32_t[]){ 1, 1, 1 },
		    (uint32_t[]){ 64, 1, 1 }, BUF_VA, 2, 2, 2);
	assert_true(sim_fwhost_submit(&fh, &q, j.item));
	expect_completion(&fh, 1, 2, 2, AGX_FW_RESULT_OK);
}

/* RESET while a job spins: the device comes back at power-on, and runs new work. */
static void test_reset_mid_job(void **state)
{
	struct fixture *f = *state;
	struct sim_host *h = &f->host;
	struct sim_fwhost fh;
	struct sim_fwqueue q;
	struct ctx c;
	struct job spin, j;

	gpu_up(f, &fh);
	ctx_init(&fh, &c, 1);
	assert_int_equal(sim_fwhost_queue_create(&fh, &q, 1, 1, AGX_FW_PIPE_COMPUTE, 16, 0), 0);
	spin = compute(&fh, &c, load(&c, spin_kernel), (uint32_t[]){ 1, 1, 1 },
		       (uint32_t[]){ 32, 1, 1 }, BUF_VA, 0, 1, 1);
	assert_true(sim_fwhost_submit(&fh, &q, spin.item));
	while (word(&c, 0) != 1)
		usleep(1000);

	assert_int_equal(sim_host_reset(h), 0);
	assert_int_equal(*agx_mmio_u32(h->mmio, AGX_MMIO_CPU_STATUS), AGX_MMIO_CPU_STATUS_STOPPED);
	/* lost with the reset: never completed, no time written */
	assert_int_equal(expect_stamp(&spin, 0, AGX_FW_RESULT_OK).end, 0);

	/* the host's tables are still in its RAM: point the UAT at them again and boot */
	*(volatile uint64_t *)((uint8_t *)h->mmio + AGX_MMIO_UAT_TTBAT) = fh.pt.context_table;
	boot(h);
	assert_true(sim_fwhost_start(&fh, TIMEOUT_MS));
	assert_int_equal(sim_fwhost_queue_create(&fh, &q, 1, 1, AGX_FW_PIPE_COMPUTE, 16, 0), 0);
	j = compute(&fh, &c, load(&c, store_kernel), (uint32_t[]){ 1, 1, 1 },
		    (uint32_t[]){ 64, 1, 1 }, BUF_VA, 3, 1, 2);
	assert_true(sim_fwhost_submit(&fh, &q, j.item));
	expect_completion(&fh, 1, 1, 2, AGX_FW_RESULT_OK);
	assert_int_equal(word(&c, 10), 13);
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_compute, setup, teardown),
		cmocka_unit_test_setup_teardown(test_threadgroup_barrier, setup, teardown),
		cmocka_unit_test_setup_teardown(test_fault_isolation, setup, teardown),
		cmocka_unit_test_setup_teardown(test_timeout, setup, teardown),
		cmocka_unit_test_setup_teardown(test_priority_and_abort, setup, teardown),
		cmocka_unit_test_setup_teardown(test_many_queues, setup, teardown),
		cmocka_unit_test_setup_teardown(test_barrier_and_malformed, setup, teardown),
		cmocka_unit_test_setup_teardown(test_cdm_stream, setup, teardown),
		cmocka_unit_test_setup_teardown(test_shader_cache, setup, teardown),
		cmocka_unit_test_setup_teardown(test_cdm_malformed, setup, teardown),
		cmocka_unit_test_setup_teardown(test_preshader, setup, teardown),
		cmocka_unit_test_setup_teardown(test_atomic_counter, setup, teardown),
		cmocka_unit_test_setup_teardown(test_texture, setup, teardown),
		cmocka_unit_test_setup_teardown(test_timestamps, setup, teardown),
		cmocka_unit_test_setup_teardown(test_ring_wrap, setup, teardown),
		cmocka_unit_test_setup_teardown(test_delayed_completion, setup_faults, teardown),
		cmocka_unit_test_setup_teardown(test_reset_mid_job, setup, teardown),
	};

	return fixture_main(argc, argv, tests, sizeof(tests) / sizeof(tests[0]));
}
