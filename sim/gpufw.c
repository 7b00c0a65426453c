/*
 * gpufw.c: the GPU firmware (docs/firmware-abi.md).  Every structure it
 * reads is in memory the host controls, reached through the UAT — its own
 * as context 0 with firmware rights, a job's in the job's context with GPU
 * rights — and every field is checked before use; a bad one is logged,
 * never trusted.
 *
 * Scheduling: work queues announced on the pipe channels are taken by
 * priority, round robin within one.  Barriers and malformed items are dealt
 * with here; a compute dispatch goes to the GPU cores (gpu.c), one at a
 * time, and the firmware completes it — stamp, events — when the cores say
 * it has finished.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "agx_fwabi.h"
#include "agx_uat.h"
#include "cdm.h"
#include "render.h"
#include "device.h"
#include "gpufw.h"
#include "uat.h"

#define CONTROL_BLOCK	64 /* bytes between the pipe channels' control blocks */
#define WRITE_PTR	0x20
#define MAX_PROGRAM	65536
#define DOORBELL_DEVCTL 0x11

/* --- memory through the UAT -------------------------------------------------------- */

/* The firmware's own memory (context 0); false on a fault, logged. */
static bool fw_access(struct sim_rtkit *rt, uint64_t va, void *buf, size_t size, bool write)
{
	struct sim_uat_fault fault;

	if (sim_uat_access(sim_fw_device(rt)->uat, 0, true, va, buf, size,
			   write ? SIM_UAT_WRITE : SIM_UAT_READ, &fault))
		return true;
	sim_fw_log(rt, "firmware %s fault at 0x%llx: %s", write ? "write" : "read",
		   (unsigned long long)va, sim_uat_fault_name(fault.kind));
	return false;
}

static bool write_u32(struct sim_rtkit *rt, uint64_t va, uint32_t value)
{
	return fw_access(rt, va, &value, sizeof(value), true);
}

/* --- channels ------------------------------------------------------------------------ */

static void rx_doorbell(struct sim_rtkit *rt)
{
	struct agx_fw_rx_doorbell bell = { 0 };
	uint8_t msg[8];

	agx_fw_rx_doorbell_pack(msg, &bell);
	sim_fw_send(rt, SIM_EP_GPU_FIRMWARE, msg);
}

/* Rings the host once for everything posted since the last time. */
static void flush(struct sim_rtkit *rt, struct sim_gpufw *gpu)
{
	if (gpu->ring_host)
		rx_doorbell(rt);
	gpu->ring_host = false;
}

/* Reads a channel's control block; false (logged) when it is unusable. */
static bool read_channel(struct sim_rtkit *rt, uint64_t va, const char *name,
			 struct agx_fw_channel *c)
{
	uint8_t raw[AGX_FW_CHANNEL_LENGTH];

	if (!fw_access(rt, va, raw, sizeof(raw), false))
		return false;
	if (!agx_fw_channel_unpack(raw, c) || c->entries < 1 || c->entries > 4096) {
		sim_fw_log(rt, "%s channel at 0x%llx is malformed", name, (unsigned long long)va);
		return false;
	}
	return true;
}

static bool open_ring(struct sim_rtkit *rt, uint64_t va, const char *name, struct sim_ring *r)
{
	struct agx_fw_channel c;

	if (!read_channel(rt, va, name, &c))
		return false;
	*r = (struct sim_ring){ va, c.ring, (unsigned)c.entries };
	return true;
}

/* The pointers as they are now; false (logged) when outside the ring. */
static bool ring_pointers(struct sim_rtkit *rt, const struct sim_ring *r, const char *name,
			  uint32_t *read, uint32_t *write)
{
	struct agx_fw_channel c;

	if (!read_channel(rt, r->block, name, &c))
		return false;
	if (c.read_ptr >= r->entries || c.write_ptr >= r->entries) {
		sim_fw_log(rt, "%s channel pointers out of range", name);
		return false;
	}
	*read = (uint32_t)c.read_ptr;
	*write = (uint32_t)c.write_ptr;
	return true;
}

/* Appends an entry to a firmware -> host ring; false when full (the entry is lost). */
static bool post(struct sim_rtkit *rt, const struct sim_ring *r, const char *name,
		 const void *entry, size_t size)
{
	uint32_t read, write;

	if (!r->block || !ring_pointers(rt, r, name, &read, &write))
		return false;
	if ((write + 1) % r->entries == read)
		return false;
	return fw_access(rt, r->ring + write * size, (void *)entry, size, true) &&
	       write_u32(rt, r->block + WRITE_PTR, (write + 1) % r->entries);
}

/*
 * Takes every entry of a host -> firmware ring in order, handing each to
 * fn, and advances read_ptr past it.  Returns the number taken.
 */
static unsigned consume(struct sim_rtkit *rt, struct sim_gpufw *gpu, const struct sim_ring *r,
			const char *name, size_t size,
			void (*fn)(struct sim_rtkit *, struct sim_gpufw *, const uint8_t *, void *),
			void *arg)
{
	uint8_t raw[64];
	uint32_t read, write;
	unsigned taken = 0;

	if (!ring_pointers(rt, r, name, &read, &write))
		return 0;
	for (uint32_t at = read; at != write; at = (at + 1) % r->entries) {
		if (!fw_access(rt, r->ring + at * size, raw, size, false))
			break;
		fn(rt, gpu, raw, arg);
		if (!write_u32(rt, r->block, (at + 1) % r->entries))
			break;
		taken++;
	}
	return taken;
}

static void post_event(struct sim_rtkit *rt, struct sim_gpufw *gpu, const struct agx_fw_event *e)
{
	uint8_t raw[AGX_FW_EVENT_LENGTH];

	agx_fw_event_pack(raw, e);
	if (post(rt, &gpu->event, "event", raw, sizeof(raw)))
		gpu->ring_host = true;
	else
		sim_fw_log(rt, "event channel full: event lost");
}

/* A line for the syslog and for the host's log channel. */
static void __attribute__((format(printf, 3, 4)))
gpu_log(struct sim_rtkit *rt, struct sim_gpufw *gpu, const char *fmt, ...)
{
	uint8_t raw[64] = { 0 };
	struct agx_fw_log header = { .seq = gpu->log_seq++ };
	char text[128];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(text, sizeof(text), fmt, ap);
	va_end(ap);
	sim_fw_log(rt, "%s", text);
	header.length = strnlen(text, sizeof(raw) - AGX_FW_LOG_LENGTH);
	agx_fw_log_pack(raw, &header);
	memcpy(raw + AGX_FW_LOG_LENGTH, text, header.length);
	if (post(rt, &gpu->log, "log", raw, sizeof(raw)))
		gpu->ring_host = true;
}

/* --- work items ------------------------------------------------------------------------ */

static enum agx_uat_fault_reason fault_reason(enum sim_uat_fault_kind kind)
{
	switch (kind) {
	case SIM_UAT_FAULT_PERMISSION:
		return AGX_UAT_FAULT_REASON_PERMISSION;
	case SIM_UAT_FAULT_BUS:
		return AGX_UAT_FAULT_REASON_BUS_ERROR;
	default:
		return AGX_UAT_FAULT_REASON_UNMAPPED;
	}
}

/* The first fault since the host cleared FAULT_STATUS stays there for it to read. */
static void fault_registers(struct sim_device *dev, enum agx_uat_fault_unit unit,
			    enum agx_uat_fault_reason reason, const struct sim_uat_fault *f)
{
	struct agx_uat_fault_status st = { .valid = true,
					   .reason = reason,
					   .write = (f->access & SIM_UAT_WRITE) != 0,
					   .context = f->context & 0xff,
					   .unit = unit };
	uint8_t raw[AGX_UAT_FAULT_STATUS_LENGTH];
	uint32_t word, empty = 0;

	agx_uat_fault_status_pack(raw, &st);
	memcpy(&word, raw, sizeof(word));
	if (__atomic_load_n(agx_mmio_u32(dev->mmio, AGX_MMIO_FAULT_STATUS), __ATOMIC_ACQUIRE))
		return;
	__atomic_store_n((uint64_t *)((uint8_t *)dev->mmio + AGX_MMIO_FAULT_ADDRESS), f->va,
			 __ATOMIC_RELAXED);
	__atomic_compare_exchange_n(agx_mmio_u32(dev->mmio, AGX_MMIO_FAULT_STATUS), &empty, word,
				    false, __ATOMIC_RELEASE, __ATOMIC_RELAXED);
}

static void post_fault(struct sim_rtkit *rt, struct sim_gpufw *gpu, uint32_t slot,
		       enum agx_uat_fault_unit unit, enum agx_uat_fault_reason reason,
		       const struct sim_uat_fault *f)
{
	struct agx_fw_event e = { .type = AGX_FW_EVENT_TYPE_FAULT,
				  .slot = slot,
				  .context = f->context,
				  .unit = unit,
				  .reason = reason,
				  .write = (f->access & SIM_UAT_WRITE) != 0,
				  .va = f->va };

	fault_registers(sim_fw_device(rt), unit, reason, f);
	gpu_log(rt, gpu, "GPU fault: context %u, %s 0x%llx, %s", f->context,
		e.write ? "write" : "read", (unsigned long long)f->va,
		reason == AGX_UAT_FAULT_REASON_ILLEGAL_INSTRUCTION ? "illegal instruction"
								   : sim_uat_fault_name(f->kind));
	post_event(rt, gpu, &e);
}

/* --- run lists --------------------------------------------------------------------------- */

static bool is_runnable(const struct sim_gpufw *gpu, const struct sim_queue *q)
{
	unsigned i = (unsigned)(q - gpu->queues);

	return gpu->runnable[q->priority][i / 64] >> (i % 64) & 1;
}

static void set_runnable(struct sim_gpufw *gpu, const struct sim_queue *q, bool on)
{
	unsigned i = (unsigned)(q - gpu->queues);
	uint64_t bit = 1ull << (i % 64);

	if (on)
		gpu->runnable[q->priority][i / 64] |= bit;
	else
		gpu->runnable[q->priority][i / 64] &= ~bit;
}

/* The first runnable queue of a priority at or after start, wrapping around; -1: none. */
static int next_runnable(const struct sim_gpufw *gpu, unsigned prio, unsigned start)
{
	for (unsigned k = 0; k <= SIM_GPUFW_RUN_WORDS; k++) {
		unsigned w = (start / 64 + k) % SIM_GPUFW_RUN_WORDS;
		uint64_t bits = gpu->runnable[prio][w];

		if (k == 0)
			bits &= ~0ull << (start % 64);
		else if (k == SIM_GPUFW_RUN_WORDS) /* back in the first word: below start */
			bits &= (1ull << (start % 64)) - 1;
		if (bits)
			return (int)(w * 64 + (unsigned)__builtin_ctzll(bits));
	}
	return -1;
}

/* The queue's descriptor, checked against the channel it runs on. */
static bool read_queue(struct sim_rtkit *rt, const struct sim_queue *q,
		       struct agx_fw_work_queue *wq)
{
	uint8_t raw[AGX_FW_WORK_QUEUE_LENGTH];

	if (!fw_access(rt, q->va, raw, sizeof(raw), false))
		return false;
	if (!agx_fw_work_queue_unpack(raw, wq) || wq->entries < 1 || wq->entries > 4096 ||
	    wq->context < 1 || wq->context >= SIM_UAT_CONTEXTS || wq->priority != q->priority ||
	    wq->pipe != q->pipe || wq->read_ptr >= wq->entries || wq->write_ptr >= wq->entries) {
		sim_fw_log(rt, "work queue at 0x%llx is malformed", (unsigned long long)q->va);
		return false;
	}
	return true;
}

static void advance(struct sim_rtkit *rt, const struct sim_queue *q,
		    const struct agx_fw_work_queue *wq)
{
	write_u32(rt, q->va, (uint32_t)((wq->read_ptr + 1) % wq->entries));
}

/*
 * An item ends: its stamp, the queue's read_ptr past it (from the
 * descriptor as known, or read now), the completion event.  started is
 * when the GPU began the item; 0 for one that never reached the GPU (a
 * barrier, a malformed item, one aborted in its queue), whose stamp says
 * it started when it ended, so that a queue's stamps stay in order.
 */
static void complete(struct sim_rtkit *rt, struct sim_gpufw *gpu, const struct sim_queue *q,
		     const struct agx_fw_work_queue *known, unsigned context,
		     const struct agx_fw_work_header *h, enum agx_fw_result result,
		     uint64_t started)
{
	uint64_t now = sim_gpu_now_ns();
	struct agx_fw_stamp stamp = { .value = h->stamp_value,
				      .result = result,
				      .start = started ? started : now,
				      .end = now };
	struct agx_fw_event e = { .type = AGX_FW_EVENT_TYPE_COMPLETION,
				  .slot = h->event_slot,
				  .result = result,
				  .context = context,
				  .value = h->stamp_value };
	uint8_t raw[AGX_FW_STAMP_LENGTH];
	struct agx_fw_work_queue wq;

	agx_fw_stamp_pack(raw, &stamp);
	fw_access(rt, h->stamp, raw, sizeof(raw), true);
	/* the descriptor as the caller just read it, or as it is now */
	if (known)
		advance(rt, q, known);
	else if (read_queue(rt, q, &wq))
		advance(rt, q, &wq);
	post_event(rt, gpu, &e);
}

/* The stamp a barrier waits on has reached its value. */
static bool barrier_open(struct sim_rtkit *rt, const struct agx_fw_work_barrier *b)
{
	uint32_t value;

	return fw_access(rt, b->wait, &value, sizeof(value), false) &&
	       (int32_t)(value - (uint32_t)b->wait_value) >= 0;
}

/* The context's decoded shaders, emptied first if the host changed its memory since. */
static struct usc_cache *programs(struct sim_gpufw *gpu, unsigned context)
{
	if (!gpu->programs[context])
		gpu->programs[context] = usc_cache_create(16, 65536);
	else if (gpu->programs_stale[context])
		usc_cache_invalidate(gpu->programs[context], 0, ~0ull);
	gpu->programs_stale[context] = false;
	return gpu->programs[context];
}

static void forget_programs(struct sim_gpufw *gpu, unsigned context)
{
	if (context < SIM_UAT_CONTEXTS)
		gpu->programs_stale[context] = true;
}

/* The running item ends: its events and stamp, and the GPU is free. */
static void end_item(struct sim_rtkit *rt, struct sim_gpufw *gpu, enum agx_fw_result result)
{
	struct agx_fw_event timeout = { .type = AGX_FW_EVENT_TYPE_TIMEOUT,
					.slot = (uint32_t)gpu->job_header.event_slot,
					.context = gpu->job_context };

	if (result == AGX_FW_RESULT_TIMEOUT) {
		gpu_log(rt, gpu, "GPU timeout: context %u, slot %u", gpu->job_context,
			(uint32_t)gpu->job_header.event_slot);
		post_event(rt, gpu, &timeout);
	}
	gpu->busy = false;
	if (gpu->job_header.type == AGX_FW_WORK_TYPE_RENDER)
		sim_render_finish(&gpu->render);
	if (gpu->job_queue)
		complete(rt, gpu, gpu->job_queue, NULL, gpu->job_context, &gpu->job_header, result,
			 gpu->job_start_ns);
}

/* A job for the cores, its GPU time counted against the item's limit. */
static void start_job(struct sim_gpufw *gpu)
{
	struct sim_gpu_job *job = &gpu->job;

	job->budget_ns = gpu->limit_ns ? gpu->limit_ns - gpu->used_ns : 0;
	job->delay_ns = 0;
	for (unsigned n = __atomic_load_n(&gpu->delay_count, __ATOMIC_ACQUIRE); n;)
		if (__atomic_compare_exchange_n(&gpu->delay_count, &n, n - 1, false,
						__ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) {
			job->delay_ns = __atomic_load_n(&gpu->delay_ns, __ATOMIC_ACQUIRE);
			break;
		}
	sim_gpu_start(gpu->gpu, job);
}

/* A fault of the running item, by the unit that made the access. */
static void item_fault(struct sim_rtkit *rt, struct sim_gpufw *gpu, enum agx_uat_fault_unit unit,
		       enum agx_uat_fault_reason reason, const struct sim_uat_fault *fault)
{
	post_fault(rt, gpu, (uint32_t)gpu->job_header.event_slot, unit, reason, fault);
	end_item(rt, gpu, AGX_FW_RESULT_FAULT);
}

static void item_malformed(struct sim_rtkit *rt, struct sim_gpufw *gpu, const char *why)
{
	gpu_log(rt, gpu, "context %u: %s", gpu->job_context, why);
	end_item(rt, gpu, AGX_FW_RESULT_MALFORMED);
}

/*
 * Runs the compute item's CDM stream up to its next launch and starts that
 * on the GPU cores; or, at the stream's end or a problem in it, ends the item.
 */
static void run_stream(struct sim_rtkit *rt, struct sim_gpufw *gpu, struct usc_cache *cache)
{
	struct sim_uat_fault fault;
	char why[128];

	switch (sim_cdm_next(&gpu->cdm, cache, &gpu->job, &fault, why, sizeof(why))) {
	case SIM_CDM_LAUNCH:
		start_job(gpu);
		return;
	case SIM_CDM_END:
		end_item(rt, gpu, AGX_FW_RESULT_OK);
		return;
	case SIM_CDM_FAULT:
		item_fault(rt, gpu, AGX_UAT_FAULT_UNIT_CDM, fault_reason(fault.kind), &fault);
		return;
	case SIM_CDM_MALFORMED:
		item_malformed(rt, gpu, why);
		return;
	}
}

/* How a render step ended, as the item's end or its next job. */
static void render_step(struct sim_rtkit *rt, struct sim_gpufw *gpu, enum sim_render_status st,
			enum agx_uat_fault_unit unit, const struct sim_uat_fault *fault,
			const char *why)
{
	struct agx_fw_event grow = { .type = AGX_FW_EVENT_TYPE_TVB_GROW,
				     .slot = (uint32_t)gpu->job_header.event_slot,
				     .context = gpu->job_context };

	switch (st) {
	case SIM_RENDER_JOB:
		start_job(gpu);
		return;
	case SIM_RENDER_DONE:
		if (gpu->render.passes) {
			/* done, in partial renders: the heap it would have needed */
			uint64_t need = gpu->render.heap_needed + gpu->render.heap_used;

			grow.value = (uint32_t)(need > UINT32_MAX ? UINT32_MAX : need);
			post_event(rt, gpu, &grow);
		}
		end_item(rt, gpu, AGX_FW_RESULT_OK);
		return;
	case SIM_RENDER_PARTIAL_NEEDED: /* never leaves render.c */
		item_malformed(rt, gpu, "render stopped short of a partial render");
		return;
	case SIM_RENDER_FAULT:
		item_fault(rt, gpu, unit, fault_reason(fault->kind), fault);
		return;
	case SIM_RENDER_MALFORMED:
		item_malformed(rt, gpu, why);
		return;
	case SIM_RENDER_TIMEOUT:
		end_item(rt, gpu, AGX_FW_RESULT_TIMEOUT);
		return;
	case SIM_RENDER_OVERFLOW:
		grow.value = (uint32_t)(gpu->render.heap_used > UINT32_MAX ? UINT32_MAX
									   : gpu->render.heap_used);
		gpu_log(rt, gpu, "context %u: TVB heap of %u bytes, %llu needed", gpu->job_context,
			(unsigned)gpu->render.cmd.tvb_size,
			(unsigned long long)gpu->render.heap_used);
		post_event(rt, gpu, &grow);
		end_item(rt, gpu, AGX_FW_RESULT_TVB_OVERFLOW);
		return;
	}
}

/* The running item's next step: a launch or a render stage, or its end. */
static void run_item(struct sim_rtkit *rt, struct sim_gpufw *gpu)
{
	struct usc_cache *cache = programs(gpu, gpu->job_context);
	enum agx_uat_fault_unit unit = AGX_UAT_FAULT_UNIT_VDM;
	struct sim_uat_fault fault;
	char why[128];

	if (!cache) {
		gpu_log(rt, gpu, "out of memory for shaders: item aborted");
		end_item(rt, gpu, AGX_FW_RESULT_ABORTED);
		return;
	}
	if (gpu->limit_ns && gpu->used_ns >= gpu->limit_ns) {
		end_item(rt, gpu, AGX_FW_RESULT_TIMEOUT);
		return;
	}
	if (gpu->job_header.type != AGX_FW_WORK_TYPE_RENDER) {
		run_stream(rt, gpu, cache);
		return;
	}
	{
		/* the render's own steps (reading the stream) count as its GPU time */
		uint64_t start = sim_gpu_thread_ns();
		enum sim_render_status st = sim_render_next(
		    &gpu->render, cache, gpu->limit_ns ? gpu->limit_ns - gpu->used_ns : 0,
		    &gpu->job, &unit, &fault, why, sizeof(why));

		gpu->used_ns += sim_gpu_thread_ns() - start;
		render_step(rt, gpu, st, unit, &fault, why);
	}
}

/* Makes an item the running one, with its GPU time limit. */
static void begin_item(struct sim_gpufw *gpu, struct sim_queue *q,
		       const struct agx_fw_work_queue *wq, const struct agx_fw_work_header *h)
{
	uint64_t limit = gpu->time_limit_ns, asked = wq->time_limit_us * 1000ull;

	/* a queue may ask for less GPU time than the device allows, not more */
	if (asked && (!limit || asked < limit))
		limit = asked;
	gpu->limit_ns = limit;
	gpu->used_ns = 0;
	/* no item runs: the shaders caches forgot are no one's any more */
	for (unsigned i = 0; i < SIM_UAT_CONTEXTS; i++)
		if (gpu->programs[i])
			usc_cache_collect(gpu->programs[i]);
	gpu->busy = true;
	gpu->job_queue = q;
	gpu->job_header = *h;
	gpu->job_context = (unsigned)wq->context;
	/* the device timer: nanoseconds of CLOCK_MONOTONIC, the host's own clock */
	gpu->job_start_ns = sim_gpu_now_ns();
}

/* Starts a compute item's stream. */
static void start_compute(struct sim_rtkit *rt, struct sim_gpufw *gpu, struct sim_queue *q,
			  const struct agx_fw_work_queue *wq, const struct agx_fw_work_header *h,
			  const struct agx_fw_work_compute *c)
{
	begin_item(gpu, q, wq, h);
	gpu->job = (struct sim_gpu_job){ .pipe = &gpu->compute_pipe };
	sim_cdm_init(&gpu->cdm, sim_fw_device(rt), (unsigned)wq->context, c->encoder,
		     c->encoder_end, c->usc_base);
	run_item(rt, gpu);
}

/* Starts a render: its command checked, its tile programs read, then its VDM stream. */
static void start_render(struct sim_rtkit *rt, struct sim_gpufw *gpu, struct sim_queue *q,
			 const struct agx_fw_work_queue *wq, const struct agx_fw_work_header *h,
			 const struct agx_fw_work_render *c)
{
	struct usc_cache *cache = programs(gpu, (unsigned)wq->context);
	enum agx_uat_fault_unit unit = AGX_UAT_FAULT_UNIT_VDM;
	enum sim_render_status st;
	struct sim_uat_fault fault;
	char why[128] = "out of memory for shaders";

	begin_item(gpu, q, wq, h);
	st = cache ? sim_render_start(&gpu->render, sim_fw_device(rt), gpu->job_context, c, cache,
				      &unit, &fault, why, sizeof(why))
		   : SIM_RENDER_MALFORMED;
	if (st == SIM_RENDER_DONE)
		run_item(rt, gpu);
	else
		render_step(rt, gpu, st, unit, &fault, why);
}

/* The GPU cores finished a job: on to the item's next step, or the item ends. */
static void launch_done(struct sim_rtkit *rt, struct sim_gpufw *gpu)
{
	struct sim_gpu_job *job = &gpu->job;

	/* GPU time, not wall time: an injected delay, or a busy host, is not time it ran */
	gpu->used_ns += job->busy_ns;
	switch (job->result) {
	case SIM_GPU_OK:
		run_item(rt, gpu);
		return;
	case SIM_GPU_FAULT:
		item_fault(rt, gpu, job->fault_unit, fault_reason(job->fault.kind), &job->fault);
		return;
	case SIM_GPU_ILLEGAL:
		gpu_log(rt, gpu, "context %u: %s", gpu->job_context, job->message);
		item_fault(rt, gpu, AGX_UAT_FAULT_UNIT_USC,
			   AGX_UAT_FAULT_REASON_ILLEGAL_INSTRUCTION, &job->fault);
		return;
	case SIM_GPU_TIMEOUT:
		end_item(rt, gpu, AGX_FW_RESULT_TIMEOUT);
		return;
	case SIM_GPU_ABORTED:
		end_item(rt, gpu, AGX_FW_RESULT_ABORTED);
		return;
	case SIM_GPU_MALFORMED:
		item_malformed(rt, gpu, job->message);
		return;
	}
}

enum progress { EMPTY, BLOCKED, DONE_ONE, STARTED };

/*
 * The item at the head of a queue: a barrier that is open or a malformed
 * item completes here; a compute dispatch starts on the GPU cores.
 */
static enum progress run_head(struct sim_rtkit *rt, struct sim_gpufw *gpu, struct sim_queue *q)
{
	struct agx_fw_work_queue wq;
	struct agx_fw_work_header h;
	struct agx_fw_work_compute c;
	struct agx_fw_work_render rc;
	struct agx_fw_work_barrier b;
	uint8_t raw[AGX_FW_WORK_RENDER_LENGTH];
	uint64_t item;

	if (!read_queue(rt, q, &wq) || wq.read_ptr == wq.write_ptr) {
		set_runnable(gpu, q, false);
		return EMPTY;
	}
	if (!fw_access(rt, wq.ring + wq.read_ptr * 8, &item, 8, false) ||
	    !fw_access(rt, item, raw, AGX_FW_WORK_HEADER_LENGTH, false)) {
		set_runnable(gpu, q, false); /* the host must fix its queue and announce it again */
		return EMPTY;
	}
	if (!agx_fw_work_header_unpack(raw, &h)) {
		gpu_log(rt, gpu, "work item at 0x%llx is malformed: skipped",
			(unsigned long long)item);
		advance(rt, q, &wq);
		return DONE_ONE;
	}
	if (h.type == AGX_FW_WORK_TYPE_BARRIER) {
		if (!fw_access(rt, item + AGX_FW_WORK_HEADER_LENGTH, raw,
			       AGX_FW_WORK_BARRIER_LENGTH, false) ||
		    !agx_fw_work_barrier_unpack(raw, &b)) {
			complete(rt, gpu, q, &wq, (unsigned)wq.context, &h, AGX_FW_RESULT_MALFORMED,
				 0);
			return DONE_ONE;
		}
		if (!barrier_open(rt, &b))
			return BLOCKED;
		complete(rt, gpu, q, &wq, (unsigned)wq.context, &h, AGX_FW_RESULT_OK, 0);
		return DONE_ONE;
	}
	if (h.type == AGX_FW_WORK_TYPE_COMPUTE && wq.pipe == AGX_FW_PIPE_COMPUTE &&
	    fw_access(rt, item + AGX_FW_WORK_HEADER_LENGTH, raw, AGX_FW_WORK_COMPUTE_LENGTH,
		      false) &&
	    agx_fw_work_compute_unpack(raw, &c)) {
		start_compute(rt, gpu, q, &wq, &h, &c);
		return gpu->busy ? STARTED : DONE_ONE;
	}
	/* a render runs on a vertex or fragment pipe's queue: both of its stages */
	if (h.type == AGX_FW_WORK_TYPE_RENDER && wq.pipe != AGX_FW_PIPE_COMPUTE &&
	    fw_access(rt, item + AGX_FW_WORK_HEADER_LENGTH, raw, AGX_FW_WORK_RENDER_LENGTH,
		      false) &&
	    agx_fw_work_render_unpack(raw, &rc)) {
		start_render(rt, gpu, q, &wq, &h, &rc);
		return gpu->busy ? STARTED : DONE_ONE;
	}
	gpu_log(rt, gpu, "work item at 0x%llx (type %u) is malformed", (unsigned long long)item,
		(unsigned)h.type);
	complete(rt, gpu, q, &wq, (unsigned)wq.context, &h, AGX_FW_RESULT_MALFORMED, 0);
	return DONE_ONE;
}

/*
 * One step: the first queue, by priority and turn, that can make progress.
 * Each priority's run list is visited once around from its turn; a queue
 * found empty leaves the list, a blocked one stays on it.
 */
static enum progress step(struct sim_rtkit *rt, struct sim_gpufw *gpu)
{
	for (unsigned prio = 0; prio < SIM_GPUFW_PRIORITIES; prio++) {
		unsigned pos = gpu->next[prio], left = SIM_GPUFW_QUEUES;
		int i;

		while (left && (i = next_runnable(gpu, prio, pos)) >= 0) {
			unsigned skipped =
			    ((unsigned)i + SIM_GPUFW_QUEUES - pos) % SIM_GPUFW_QUEUES;
			enum progress p;

			if (skipped >= left)
				break; /* around once */
			left -= skipped + 1;
			pos = ((unsigned)i + 1) % SIM_GPUFW_QUEUES;
			p = run_head(rt, gpu, &gpu->queues[i]);
			if (p == STARTED || p == DONE_ONE) {
				gpu->next[prio] = pos;
				return p;
			}
		}
	}
	return EMPTY;
}

/* Completes what the GPU cores finished and keeps them fed. */
static void schedule(struct sim_rtkit *rt, struct sim_gpufw *gpu)
{
	for (;;) {
		if (gpu->busy) {
			if (!sim_gpu_finished(gpu->gpu))
				return;
			launch_done(rt, gpu);
			if (gpu->busy)
				continue; /* the stream's next launch */
		}
		if (step(rt, gpu) == EMPTY)
			return;
	}
}

/* Stops the running dispatch now, completing it as aborted. */
static void abort_job(struct sim_rtkit *rt, struct sim_gpufw *gpu)
{
	if (!gpu->busy)
		return;
	sim_gpu_abort(gpu->gpu);
	sim_gpu_wait(gpu->gpu);
	end_item(rt, gpu, AGX_FW_RESULT_ABORTED);
}

/* --- channels from the host ---------------------------------------------------------------- */

static struct sim_queue *find_queue(struct sim_gpufw *gpu, uint64_t va)
{
	for (unsigned i = 0; i < SIM_GPUFW_QUEUES; i++)
		if (gpu->queues[i].va == va)
			return &gpu->queues[i];
	return NULL;
}

/* A run_queue entry of pipe channel *arg. */
static void run_queue(struct sim_rtkit *rt, struct sim_gpufw *gpu, const uint8_t *raw, void *arg)
{
	unsigned channel = *(unsigned *)arg;
	struct agx_fw_run_queue msg;
	struct sim_queue *q, probe;
	struct agx_fw_work_queue wq;

	if (!agx_fw_run_queue_unpack(raw, &msg) || !msg.queue) {
		sim_fw_log(rt, "pipe channel %u: malformed entry", channel);
		return;
	}
	probe =
	    (struct sim_queue){ msg.queue, channel / SIM_GPUFW_PIPES, channel % SIM_GPUFW_PIPES };
	if (!read_queue(rt, &probe, &wq))
		return;
	q = find_queue(gpu, msg.queue);
	if (!q) {
		/* a new queue takes a free entry, or one that has no work */
		for (unsigned i = 0; i < SIM_GPUFW_QUEUES && !q; i++)
			if (!gpu->queues[i].va)
				q = &gpu->queues[i];
		for (unsigned i = 0; i < SIM_GPUFW_QUEUES && !q; i++)
			if (!is_runnable(gpu, &gpu->queues[i]) && &gpu->queues[i] != gpu->job_queue)
				q = &gpu->queues[i];
		if (!q) {
			sim_fw_log(rt, "too many work queues: 0x%llx not run",
				   (unsigned long long)msg.queue);
			return;
		}
	} else if (q->priority != probe.priority || q->pipe != probe.pipe) {
		sim_fw_log(rt, "work queue 0x%llx moved channels", (unsigned long long)msg.queue);
		return;
	}
	if (q->va)
		set_runnable(gpu, q, false); /* an entry taken over may have had another priority */
	*q = probe;
	set_runnable(gpu, q, true);
}

/* Completes as aborted every item of a context's queues. */
static void drain_context(struct sim_rtkit *rt, struct sim_gpufw *gpu, unsigned context)
{
	for (unsigned i = 0; i < SIM_GPUFW_QUEUES; i++) {
		struct sim_queue *q = &gpu->queues[i];
		struct agx_fw_work_queue wq;

		if (!q->va || !read_queue(rt, q, &wq) || wq.context != context)
			continue;
		for (unsigned n = 0;
		     n < 4096 && read_queue(rt, q, &wq) && wq.read_ptr != wq.write_ptr; n++) {
			uint8_t raw[AGX_FW_WORK_HEADER_LENGTH];
			struct agx_fw_work_header h;
			uint64_t item;

			if (fw_access(rt, wq.ring + wq.read_ptr * 8, &item, 8, false) &&
			    fw_access(rt, item, raw, sizeof(raw), false) &&
			    agx_fw_work_header_unpack(raw, &h))
				complete(rt, gpu, q, &wq, context, &h, AGX_FW_RESULT_ABORTED, 0);
			else
				advance(rt, q, &wq);
		}
		set_runnable(gpu, q, false);
	}
}

static void devctl_entry(struct sim_rtkit *rt, struct sim_gpufw *gpu, const uint8_t *raw, void *arg)
{
	struct agx_fw_devctl op;
	struct agx_fw_event ack = { .type = AGX_FW_EVENT_TYPE_DEVCTL_DONE };
	struct sim_queue *q;

	(void)arg;
	if (!agx_fw_devctl_unpack(raw, &op) || op.op < 1 || op.op > 2) {
		sim_fw_log(rt, "devctl entry is malformed: skipped");
		return;
	}
	if (op.op == AGX_FW_DEVCTL_OP_ABORT_CONTEXT) {
		if (gpu->busy && gpu->job_context == op.context)
			abort_job(rt, gpu);
		drain_context(rt, gpu, (unsigned)op.context);
	} else if ((q = find_queue(gpu, op.queue))) {
		if (gpu->busy && gpu->job_queue == q)
			abort_job(rt, gpu);
		set_runnable(gpu, q, false);
		*q = (struct sim_queue){ 0 };
	}
	ack.seq = op.seq;
	post_event(rt, gpu, &ack);
}

static void fwctl_entry(struct sim_rtkit *rt, struct sim_gpufw *gpu, const uint8_t *raw, void *arg)
{
	struct sim_device *dev = sim_fw_device(rt);
	struct agx_fw_fwctl op;
	struct agx_fw_event ack = { .type = AGX_FW_EVENT_TYPE_FWCTL_DONE };

	(void)arg;
	if (!agx_fw_fwctl_unpack(raw, &op) || op.op < 1 || op.op > 3) {
		sim_fw_log(rt, "fwctl entry is malformed: skipped");
		return;
	}
	switch (op.op) {
	case AGX_FW_FWCTL_OP_TLB_INVALIDATE:
		sim_uat_invalidate(dev->uat, (unsigned)op.context, op.va, op.size);
		forget_programs(gpu, (unsigned)op.context);
		break;
	case AGX_FW_FWCTL_OP_TLB_INVALIDATE_CONTEXT:
		sim_uat_invalidate_context(dev->uat, (unsigned)op.context);
		forget_programs(gpu, (unsigned)op.context);
		break;
	case AGX_FW_FWCTL_OP_CACHE_FLUSH:
		/* memory is written through; only decoded shaders are held */
		for (unsigned i = 0; i < SIM_UAT_CONTEXTS; i++)
			forget_programs(gpu, i);
		break;
	}
	ack.seq = op.seq;
	post_event(rt, gpu, &ack);
}

/* --- INIT ------------------------------------------------------------------------------ */

static void set_status(struct sim_rtkit *rt, uint64_t initdata, unsigned status)
{
	uint8_t byte = (uint8_t)status; /* status is bits 48..55: byte 6 */

	fw_access(rt, initdata + 6, &byte, 1, true);
}

static void init(struct sim_rtkit *rt, struct sim_gpufw *gpu, uint64_t initdata)
{
	struct sim_device *dev = sim_fw_device(rt);
	uint8_t raw[AGX_FW_INITDATA_LENGTH];
	struct agx_fw_initdata in;
	uint64_t ttbat = *(volatile uint64_t *)((uint8_t *)dev->mmio + AGX_MMIO_UAT_TTBAT);
	bool ok;

	/* a restart: what ran is abandoned, what was known is forgotten */
	if (gpu->busy) {
		sim_gpu_abort(gpu->gpu);
		sim_gpu_wait(gpu->gpu);
		gpu->busy = false;
	}
	memset(gpu->queues, 0, sizeof(gpu->queues));
	memset(gpu->runnable, 0, sizeof(gpu->runnable));
	gpu->job_queue = NULL;
	for (unsigned i = 0; i < SIM_UAT_CONTEXTS; i++)
		forget_programs(gpu, i);
	gpu->running = false;
	/* the UAT's context table, as the host left it in UAT_TTBAT */
	sim_uat_init(dev->uat, dev, ttbat);
	/* initdata lives in the high half: a 44-bit address there, sign-extended */
	initdata |= 0xfffff00000000000ull;
	if (!fw_access(rt, initdata, raw, sizeof(raw), false))
		return;
	raw[6] = 0; /* status is the firmware's to write */
	ok = agx_fw_initdata_unpack(raw, &in) && open_ring(rt, in.fwctl, "fwctl", &gpu->fwctl) &&
	     open_ring(rt, in.event, "event", &gpu->event) &&
	     open_ring(rt, in.devctl, "devctl", &gpu->devctl) &&
	     open_ring(rt, in.log, "log", &gpu->log);
	for (unsigned i = 0; ok && i < SIM_GPUFW_CHANNELS; i++)
		ok = open_ring(rt, in.pipes + i * CONTROL_BLOCK, "pipe", &gpu->pipe[i]);
	if (!ok) {
		sim_fw_log(rt, "initdata at 0x%llx refused", (unsigned long long)initdata);
		set_status(rt, initdata, AGX_FW_STATUS_BAD_INITDATA);
		rx_doorbell(rt);
		return;
	}
	gpu->initdata = initdata;
	gpu->running = true;
	gpu_log(rt, gpu, "GPU firmware running, initdata 0x%llx", (unsigned long long)initdata);
	/* the status last: a host that sees it sees everything before it */
	set_status(rt, initdata, AGX_FW_STATUS_RUNNING);
	gpu->ring_host = true;
}

/* --- entry points ------------------------------------------------------------------------ */

static void doorbell(struct sim_rtkit *rt, struct sim_gpufw *gpu, unsigned channel)
{
	unsigned prio = channel >> 2, pipe = channel & 3;

	if (channel == DOORBELL_DEVCTL) {
		consume(rt, gpu, &gpu->devctl, "devctl", AGX_FW_DEVCTL_LENGTH, devctl_entry, NULL);
	} else if (prio < SIM_GPUFW_PRIORITIES && pipe < SIM_GPUFW_PIPES) {
		unsigned index = prio * SIM_GPUFW_PIPES + pipe;

		consume(rt, gpu, &gpu->pipe[index], "pipe", AGX_FW_RUN_QUEUE_LENGTH, run_queue,
			&index);
	} else {
		sim_fw_log(rt, "doorbell for channel 0x%x ignored", channel);
	}
}

void sim_gpufw_message(struct sim_rtkit *rt, struct sim_gpufw *gpu, uint8_t ep,
		       const uint8_t msg[8])
{
	struct agx_fw_init in;
	struct agx_fw_fwctl_doorbell fwctl;
	struct agx_fw_tx_doorbell tx;

	if (ep == SIM_EP_GPU_FIRMWARE && agx_fw_init_unpack(msg, &in)) {
		init(rt, gpu, in.initdata);
	} else if (ep == SIM_EP_GPU_DOORBELL && gpu->running &&
		   agx_fw_fwctl_doorbell_unpack(msg, &fwctl)) {
		consume(rt, gpu, &gpu->fwctl, "fwctl", AGX_FW_FWCTL_LENGTH, fwctl_entry, NULL);
	} else if (ep == SIM_EP_GPU_DOORBELL && gpu->running &&
		   agx_fw_tx_doorbell_unpack(msg, &tx)) {
		doorbell(rt, gpu, (unsigned)tx.channel);
		schedule(rt, gpu);
	} else {
		sim_fw_log(rt,
			   "GPU endpoint 0x%02x: message %02x%02x%02x%02x%02x%02x%02x%02x ignored",
			   ep, msg[7], msg[6], msg[5], msg[4], msg[3], msg[2], msg[1], msg[0]);
	}
	flush(rt, gpu);
}

void sim_gpufw_poll(struct sim_rtkit *rt, struct sim_gpufw *gpu)
{
	if (!gpu->running)
		return;
	schedule(rt, gpu);
	flush(rt, gpu);
}

bool sim_gpufw_pending(struct sim_gpufw *gpu)
{
	return gpu->busy && sim_gpu_finished(gpu->gpu);
}

void sim_gpufw_delay(struct sim_gpufw *gpu, unsigned count, uint64_t delay_ns)
{
	__atomic_store_n(&gpu->delay_ns, delay_ns, __ATOMIC_RELEASE);
	__atomic_store_n(&gpu->delay_count, count, __ATOMIC_RELEASE);
}

static void job_finished(void *arg)
{
	sim_fw_wake(arg);
}

int sim_gpufw_init(struct sim_rtkit *rt, struct sim_gpufw *gpu, unsigned workers,
		   uint64_t time_limit_ns)
{
	memset(gpu, 0, sizeof(*gpu));
	gpu->time_limit_ns = time_limit_ns;
	gpu->gpu = sim_gpu_create(sim_fw_device(rt), workers, job_finished, rt);
	return gpu->gpu ? 0 : -1;
}

void sim_gpufw_finish(struct sim_gpufw *gpu)
{
	sim_gpu_destroy(gpu->gpu);
	sim_render_finish(&gpu->render);
	for (unsigned i = 0; i < SIM_UAT_CONTEXTS; i++)
		usc_cache_destroy(gpu->programs[i]);
	memset(gpu, 0, sizeof(*gpu));
}
