/*
 * gpu.c: the GPU cores of gpu.h.  A job's threadgroups are numbered; each
 * worker takes the next number until none is left, and runs that
 * threadgroup's SIMD groups on its USC state.  SIMD groups of one
 * threadgroup take turns: each runs until its slice of instructions is
 * used, it reaches a threadgroup barrier, or it stops; a barrier releases
 * once every SIMD group still running has reached it.  Between slices a
 * worker checks for an abort and for the job's time budget, and lets go of
 * device memory so that DMA map and unmap are never held up for long.
 */
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "agxipc/ipc.h"
#include "device.h"
#include "gpu.h"

/* Instructions a SIMD group runs before its worker looks up: ~1 ms. */
#define SLICE 65536

struct worker {
	struct sim_gpu *gpu;
	struct sim_gpu_core *core; /* itself, as run callbacks see it */
	pthread_t thread;
	uint64_t generation;	    /* of the last job it joined */
	struct usc_state *states;   /* one per SIMD group of a threadgroup */
	uint8_t *shared;	    /* threadgroup memory */
	uint8_t *stack;		    /* every lane's stack, SIMD group by SIMD group */
	struct sim_uat_fault fault; /* the last access that failed */
	uint64_t joined_ns;	    /* its thread's CPU time when it joined the job */
	uint64_t next_check_ns;	    /* CLOCK_MONOTONIC: when the budget is looked at next */
};

/*
 * How often a core looks at its CPU time (a system call, where the
 * monotonic clock is not): a job runs at most this much past its budget.
 */
#define BUDGET_CHECK_NS 1000000ull

struct sim_gpu {
	struct sim_device *dev;
	void (*done)(void *);
	void *done_arg;
	unsigned num_workers;	/* threads; 0 runs jobs inline on workers[0] */
	unsigned num_allocated; /* entries of workers */
	struct worker *workers;

	pthread_mutex_t lock;
	pthread_cond_t wake, idle;
	struct sim_gpu_job *job;
	uint64_t generation;
	unsigned active;  /* workers in the job */
	bool closing;	  /* the last one left: nobody joins any more */
	uint64_t spin_ns; /* how long an idle worker watches for work before it sleeps */
	bool finished, quit;

	/* claimed without the lock */
	uint64_t next_group, num_groups;
	bool stop;
};

uint64_t sim_gpu_thread_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

uint64_t sim_gpu_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* The first way a job ends wins; the others stop at their next check. */
static void end_job(struct sim_gpu *gpu, struct sim_gpu_job *job, enum sim_gpu_result result,
		    enum agx_uat_fault_unit unit, const struct sim_uat_fault *fault,
		    const char *message)
{
	pthread_mutex_lock(&gpu->lock);
	if (job->result == SIM_GPU_OK) {
		job->result = result;
		job->fault_unit = unit;
		if (fault)
			job->fault = *fault;
		snprintf(job->message, sizeof(job->message), "%s", message);
	}
	pthread_mutex_unlock(&gpu->lock);
	__atomic_store_n(&gpu->stop, true, __ATOMIC_RELEASE);
}

/* --- the USC's memory: the job's context, GPU rights --------------------------- */

static bool translate_page(struct worker *w, uint64_t va, unsigned access, uint64_t *pa)
{
	struct sim_gpu_job *job = w->gpu->job;

	return sim_uat_translate(w->gpu->dev->uat, job->context, va, access, false, pa, &w->fault);
}

static bool access_memory(struct worker *w, uint64_t va, uint8_t *buf, unsigned size, bool write)
{
	struct sim_device *dev = w->gpu->dev;

	while (size) {
		unsigned chunk = (unsigned)(SIM_UAT_PAGE_SIZE - (va & (SIM_UAT_PAGE_SIZE - 1)));
		uint64_t pa;
		void *host;

		if (chunk > size)
			chunk = size;
		if (!translate_page(w, va, write ? SIM_UAT_WRITE : SIM_UAT_READ, &pa))
			return false;
		host = sim_device_host_locked(dev, pa, chunk, write);
		if (!host) {
			w->fault =
			    (struct sim_uat_fault){ SIM_UAT_FAULT_BUS, w->gpu->job->context, va,
						    write ? SIM_UAT_WRITE : SIM_UAT_READ, 3 };
			return false;
		}
		if (write)
			memcpy(host, buf, chunk);
		else
			memcpy(buf, host, chunk);
		va += chunk;
		buf += chunk;
		size -= chunk;
	}
	return true;
}

static bool mem_read(void *ctx, uint64_t addr, void *dst, unsigned size)
{
	return access_memory(ctx, addr, dst, size, false);
}

static bool mem_write(void *ctx, uint64_t addr, const void *src, unsigned size)
{
	return access_memory(ctx, addr, (uint8_t *)src, size, true);
}

static void *mem_translate(void *ctx, uint64_t addr, size_t size, bool write)
{
	struct worker *w = ctx;
	uint64_t pa;

	if ((addr & (SIM_UAT_PAGE_SIZE - 1)) + size > SIM_UAT_PAGE_SIZE ||
	    !translate_page(w, addr, write ? SIM_UAT_WRITE : SIM_UAT_READ, &pa))
		return NULL; /* the slow path decides, and reports the fault */
	return sim_device_host_locked(w->gpu->dev, pa, size, write);
}

/* Power-on state for program on the lanes in present of SIMD group s (its stacks). */
static void prepare(struct worker *w, struct usc_state *st, const struct sim_pipeline *pipe,
		    const struct usc_program *program, uint32_t present, unsigned s)
{
	usc_state_reset(st, USC_LANES, program);
	st->present = st->exec = present;
	memcpy(st->u, pipe->uniforms, sizeof(pipe->uniforms));
	st->memory = (struct usc_memory){ mem_read, mem_write, mem_translate, w };
	st->textures = &pipe->textures[0][0];
	st->num_textures = pipe->num_textures;
	st->samplers = &pipe->samplers[0][0];
	st->num_samplers = pipe->num_samplers;
	st->stack = w->stack + (size_t)s * USC_LANES * SIM_GPU_STACK_BYTES;
	st->stack_size = SIM_GPU_STACK_BYTES;
}

/* --- one threadgroup ------------------------------------------------------------- */

enum group_state { RUNNING, AT_BARRIER, STOPPED };

/* Ends the job from a SIMD group's run; false if the run did not end it. */
static bool failed(struct worker *w, const struct usc_result *r, uint64_t program_va)
{
	struct sim_gpu_job *job = w->gpu->job;
	struct sim_uat_fault where = { .context = job->context, .va = program_va + r->pc };

	switch (r->status) {
	case USC_DONE:
	case USC_LIMIT:
	case USC_BARRIER:
		return false;
	case USC_FAULT:
		if (w->fault.kind == SIM_UAT_OK) /* an access the USC itself refused */
			w->fault = (struct sim_uat_fault){
				SIM_UAT_FAULT_UNMAPPED, job->context, r->fault_address,
				r->fault_write ? SIM_UAT_WRITE : SIM_UAT_READ, 0
			};
		end_job(w->gpu, job, SIM_GPU_FAULT, AGX_UAT_FAULT_UNIT_USC, &w->fault, r->message);
		return true;
	case USC_BAD_INSTR:
	case USC_BAD_BRANCH:
	case USC_TRAP:
	case USC_ORDER:
		end_job(w->gpu, job, SIM_GPU_ILLEGAL, AGX_UAT_FAULT_UNIT_USC, &where, r->message);
		return true;
	}
	return false;
}

/* Between slices: an abort, the time budget, a DMA change waiting for memory. */
static bool keep_going(struct worker *w)
{
	struct sim_gpu *gpu = w->gpu;
	uint64_t budget = gpu->job->budget_ns;

	if (__atomic_load_n(&gpu->stop, __ATOMIC_ACQUIRE))
		return false;
	if (!budget || sim_gpu_now_ns() < w->next_check_ns)
		return true;
	w->next_check_ns = sim_gpu_now_ns() + BUDGET_CHECK_NS;
	if (sim_gpu_thread_ns() - w->joined_ns > budget) {
		end_job(gpu, gpu->job, SIM_GPU_TIMEOUT, 0, NULL, "over its time limit");
		return false;
	}
	return true;
}

/*
 * The lanes of SIMD group s that are threads of the dispatch: all of a
 * whole threadgroup's, fewer where the last threadgroups of a dimension
 * hang over the global size.
 */
static uint32_t present_lanes(const struct sim_gpu_job *job, const uint32_t tg[3], unsigned s)
{
	unsigned threads = job->group[0] * job->group[1] * job->group[2];
	uint32_t mask = 0;

	for (unsigned l = 0; l < USC_LANES; l++) {
		unsigned linear = s * USC_LANES + l;
		uint64_t pos[3] = { linear % job->group[0], linear / job->group[0] % job->group[1],
				    linear / (job->group[0] * job->group[1]) };
		bool inside = linear < threads;

		for (unsigned d = 0; d < 3; d++)
			inside &= (uint64_t)tg[d] * job->group[d] + pos[d] < job->global[d];
		mask |= (uint32_t)inside << l;
	}
	return mask;
}

static void run_threadgroup(struct worker *w, uint64_t index)
{
	struct sim_gpu *gpu = w->gpu;
	const struct sim_gpu_job *job = gpu->job;
	unsigned threads = job->group[0] * job->group[1] * job->group[2];
	unsigned simdgroups = (threads + USC_LANES - 1) / USC_LANES;
	enum group_state state[SIM_GPU_MAX_THREADS / USC_LANES];
	unsigned running = 0;
	uint32_t tg[3] = { (uint32_t)(index % job->grid[0]),
			   (uint32_t)(index / job->grid[0] % job->grid[1]),
			   (uint32_t)(index / job->grid[0] / job->grid[1]) };

	memset(w->shared, 0, job->pipe->shared_size);
	for (unsigned s = 0; s < simdgroups; s++) {
		struct usc_state *st = &w->states[s];

		prepare(w, st, job->pipe, job->pipe->program, present_lanes(job, tg, s), s);
		state[s] = st->present ? RUNNING : STOPPED;
		running += st->present != 0;
		memcpy(st->dispatch.threadgroup_position, tg, sizeof(tg));
		memcpy(st->dispatch.threads_per_threadgroup, job->group, sizeof(job->group));
		st->dispatch.simdgroup_index = s;
		st->threadgroup_memory = w->shared;
		st->threadgroup_memory_size = job->pipe->shared_size;
		st->yield_at_barrier = simdgroups > 1;
	}
	while (running) {
		unsigned waiting = 0;

		for (unsigned s = 0; s < simdgroups; s++) {
			struct usc_result r;

			if (state[s] != RUNNING)
				continue;
			w->fault.kind = SIM_UAT_OK;
			sim_device_read_lock(gpu->dev);
			r = usc_run(job->pipe->program, &w->states[s], SLICE);
			sim_device_read_unlock(gpu->dev);
			if (failed(w, &r, job->pipe->program_va) || !keep_going(w))
				return;
			if (r.status == USC_DONE) {
				state[s] = STOPPED;
				running--;
			} else if (r.status == USC_BARRIER) {
				state[s] = AT_BARRIER;
			}
		}
		for (unsigned s = 0; s < simdgroups; s++)
			waiting += state[s] == AT_BARRIER;
		if (waiting && waiting == running) /* all there: the barrier opens */
			for (unsigned s = 0; s < simdgroups; s++)
				if (state[s] == AT_BARRIER)
					state[s] = RUNNING;
	}
}

/* --- the workers ----------------------------------------------------------------- */

static void run_groups(struct worker *w)
{
	struct sim_gpu *gpu = w->gpu;
	uint64_t spent, busy;

	w->joined_ns = sim_gpu_thread_ns();
	w->next_check_ns = 0;
	while (!__atomic_load_n(&gpu->stop, __ATOMIC_ACQUIRE)) {
		uint64_t index = __atomic_fetch_add(&gpu->next_group, 1, __ATOMIC_RELAXED);

		if (index >= gpu->num_groups)
			break;
		if (gpu->job->run)
			gpu->job->run(w->core, gpu->job->arg, index);
		else
			run_threadgroup(w, index);
	}
	/* the job's GPU time is its busiest core's */
	spent = sim_gpu_thread_ns() - w->joined_ns;
	busy = __atomic_load_n(&gpu->job->busy_ns, __ATOMIC_RELAXED);
	while (spent > busy && !__atomic_compare_exchange_n(&gpu->job->busy_ns, &busy, spent, true,
							    __ATOMIC_RELAXED, __ATOMIC_RELAXED))
		;
}

/* The last worker out: an injected delay, then the job is done. */
static void finish(struct sim_gpu *gpu)
{
	uint64_t until = gpu->job->delay_ns ? sim_gpu_now_ns() + gpu->job->delay_ns : 0;
	void (*done)(void *) = gpu->done;
	void *arg = gpu->done_arg;

	while (until && sim_gpu_now_ns() < until && !__atomic_load_n(&gpu->stop, __ATOMIC_ACQUIRE))
		nanosleep(&(struct timespec){ 0, 1000000 }, NULL);
	pthread_mutex_lock(&gpu->lock);
	__atomic_store_n(&gpu->finished, true, __ATOMIC_RELEASE);
	pthread_cond_broadcast(&gpu->idle);
	pthread_mutex_unlock(&gpu->lock);
	done(arg);
}

static void *worker_main(void *arg)
{
	struct worker *w = arg;
	struct sim_gpu *gpu = w->gpu;

	pthread_mutex_lock(&gpu->lock);
	for (;;) {
		/* after a job, watch for the next one for the busy-poll budget before sleeping */
		if (gpu->spin_ns && !gpu->quit) {
			uint64_t until = sim_gpu_now_ns() + gpu->spin_ns;

			pthread_mutex_unlock(&gpu->lock);
			while (__atomic_load_n(&gpu->generation, __ATOMIC_ACQUIRE) ==
				   w->generation &&
			       !__atomic_load_n(&gpu->quit, __ATOMIC_ACQUIRE) &&
			       sim_gpu_now_ns() < until)
				agx_ipc_busy_poll_relax();
			pthread_mutex_lock(&gpu->lock);
		}
		while (!gpu->quit && (gpu->generation == w->generation || gpu->closing))
			pthread_cond_wait(&gpu->wake, &gpu->lock);
		if (gpu->quit)
			break;
		w->generation = gpu->generation;
		gpu->active++;
		pthread_mutex_unlock(&gpu->lock);

		run_groups(w);

		pthread_mutex_lock(&gpu->lock);
		if (--gpu->active == 0) {
			gpu->closing = true;
			pthread_mutex_unlock(&gpu->lock);
			finish(gpu);
			pthread_mutex_lock(&gpu->lock);
		}
	}
	pthread_mutex_unlock(&gpu->lock);
	return NULL;
}

static int worker_init(struct worker *w, struct sim_gpu *gpu)
{
	w->gpu = gpu;
	w->core = (struct sim_gpu_core *)w;
	w->states = calloc(SIM_GPU_MAX_THREADS / USC_LANES, sizeof(*w->states));
	w->shared = calloc(1, SIM_GPU_MAX_SHARED);
	w->stack = calloc(SIM_GPU_MAX_THREADS, SIM_GPU_STACK_BYTES);
	return w->states && w->shared && w->stack ? 0 : -1;
}

struct sim_gpu *sim_gpu_create(struct sim_device *dev, unsigned workers, void (*done)(void *),
			       void *arg)
{
	struct sim_gpu *gpu = calloc(1, sizeof(*gpu));
	unsigned n = workers ? workers : 1;

	if (!gpu)
		return NULL;
	gpu->dev = dev;
	gpu->done = done;
	gpu->done_arg = arg;
	gpu->finished = gpu->closing = true;
	gpu->spin_ns = (uint64_t)agx_ipc_busy_poll_us() * 1000;
	pthread_mutex_init(&gpu->lock, NULL);
	pthread_cond_init(&gpu->wake, NULL);
	pthread_cond_init(&gpu->idle, NULL);
	gpu->workers = calloc(n, sizeof(*gpu->workers));
	if (!gpu->workers)
		goto fail;
	gpu->num_allocated = n;
	for (unsigned i = 0; i < n; i++)
		if (worker_init(&gpu->workers[i], gpu) < 0)
			goto fail;
	for (unsigned i = 0; i < workers; i++) {
		if (pthread_create(&gpu->workers[i].thread, NULL, worker_main, &gpu->workers[i]))
			goto fail;
		gpu->num_workers = i + 1;
	}
	return gpu;

fail:
	sim_gpu_destroy(gpu);
	return NULL;
}

void sim_gpu_destroy(struct sim_gpu *gpu)
{
	if (!gpu)
		return;
	sim_gpu_abort(gpu);
	sim_gpu_wait(gpu);
	pthread_mutex_lock(&gpu->lock);
	__atomic_store_n(&gpu->quit, true, __ATOMIC_RELEASE);
	pthread_cond_broadcast(&gpu->wake);
	pthread_mutex_unlock(&gpu->lock);
	for (unsigned i = 0; i < gpu->num_workers; i++)
		pthread_join(gpu->workers[i].thread, NULL);
	for (unsigned i = 0; i < gpu->num_allocated; i++) {
		free(gpu->workers[i].states);
		free(gpu->workers[i].shared);
		free(gpu->workers[i].stack);
	}
	free(gpu->workers);
	pthread_cond_destroy(&gpu->idle);
	pthread_cond_destroy(&gpu->wake);
	pthread_mutex_destroy(&gpu->lock);
	free(gpu);
}

/*
 * The preshader, on the caller's thread while the workers are idle: one
 * thread that sets uniforms up for the rest.  False when it ended the job.
 */
static bool run_preshader(struct worker *w)
{
	struct sim_gpu *gpu = w->gpu;
	struct sim_gpu_job *job = gpu->job;
	struct usc_state *st = &w->states[0];
	struct usc_result r;

	/* on the caller's thread, whose CPU time its budget is measured in (a few instructions) */
	w->joined_ns = sim_gpu_thread_ns();
	w->next_check_ns = 0;
	prepare(w, st, job->pipe, job->pipe->preshader, 1, 0);
	do {
		w->fault.kind = SIM_UAT_OK;
		sim_device_read_lock(gpu->dev);
		r = usc_run(job->pipe->preshader, st, SLICE);
		sim_device_read_unlock(gpu->dev);
		if (failed(w, &r, job->pipe->preshader_va) || !keep_going(w))
			return false;
	} while (r.status != USC_DONE);
	memcpy(job->pipe->uniforms, st->u, sizeof(job->pipe->uniforms));
	return true;
}

void sim_gpu_start(struct sim_gpu *gpu, struct sim_gpu_job *job)
{
	job->result = SIM_GPU_OK;
	job->busy_ns = 0;
	job->message[0] = '\0';
	/* the workers are idle and look at a job only once woken */
	gpu->job = job;
	__atomic_store_n(&gpu->stop, false, __ATOMIC_RELEASE);
	if (!job->run && job->pipe->preshader && !run_preshader(&gpu->workers[0])) {
		finish(gpu);
		return;
	}
	pthread_mutex_lock(&gpu->lock);
	gpu->job = job;
	gpu->num_groups =
	    job->run ? job->units : (uint64_t)job->grid[0] * job->grid[1] * job->grid[2];
	gpu->next_group = 0;
	__atomic_store_n(&gpu->stop, false, __ATOMIC_RELEASE);
	__atomic_store_n(&gpu->finished, false, __ATOMIC_RELEASE);
	gpu->closing = false;
	__atomic_store_n(&gpu->generation, gpu->generation + 1, __ATOMIC_RELEASE);
	pthread_cond_broadcast(&gpu->wake);
	pthread_mutex_unlock(&gpu->lock);
	if (!gpu->num_workers) {
		run_groups(&gpu->workers[0]);
		finish(gpu);
	}
}

bool sim_gpu_finished(struct sim_gpu *gpu)
{
	return __atomic_load_n(&gpu->finished, __ATOMIC_ACQUIRE);
}

void sim_gpu_abort(struct sim_gpu *gpu)
{
	pthread_mutex_lock(&gpu->lock);
	if (gpu->job && !gpu->finished) {
		pthread_mutex_unlock(&gpu->lock);
		end_job(gpu, gpu->job, SIM_GPU_ABORTED, 0, NULL, "aborted");
		return;
	}
	pthread_mutex_unlock(&gpu->lock);
}

void sim_gpu_wait(struct sim_gpu *gpu)
{
	pthread_mutex_lock(&gpu->lock);
	while (!gpu->finished)
		pthread_cond_wait(&gpu->idle, &gpu->lock);
	pthread_mutex_unlock(&gpu->lock);
}

/* --- the core, as run callbacks use it ------------------------------------------------ */

struct usc_state *sim_gpu_core_state(struct sim_gpu_core *core, unsigned i)
{
	return &((struct worker *)core)->states[i];
}

void sim_gpu_core_prepare(struct sim_gpu_core *core, struct usc_state *st,
			  const struct sim_pipeline *pipe, uint32_t present)
{
	struct worker *w = (struct worker *)core;

	prepare(w, st, pipe, pipe->program, present, (unsigned)(st - w->states));
}

bool sim_gpu_core_run(struct sim_gpu_core *core, const struct usc_program *program, uint64_t va,
		      struct usc_state *st)
{
	struct worker *w = (struct worker *)core;
	struct usc_result r;

	do {
		w->fault.kind = SIM_UAT_OK;
		sim_device_read_lock(w->gpu->dev);
		r = usc_run(program, st, SLICE);
		sim_device_read_unlock(w->gpu->dev);
		if (failed(w, &r, va) || !keep_going(w))
			return false;
	} while (r.status != USC_DONE);
	return true;
}

bool sim_gpu_core_access(struct sim_gpu_core *core, enum agx_uat_fault_unit unit, uint64_t va,
			 void *buf, unsigned size, bool write)
{
	struct worker *w = (struct worker *)core;
	bool ok;

	w->fault.kind = SIM_UAT_OK;
	sim_device_read_lock(w->gpu->dev);
	ok = access_memory(w, va, buf, size, write);
	sim_device_read_unlock(w->gpu->dev);
	if (!ok)
		end_job(w->gpu, w->gpu->job, SIM_GPU_FAULT, unit, &w->fault,
			write ? "write faulted" : "read faulted");
	return ok;
}

void sim_gpu_core_malformed(struct sim_gpu_core *core, const char *message)
{
	struct worker *w = (struct worker *)core;

	end_job(w->gpu, w->gpu->job, SIM_GPU_MALFORMED, 0, NULL, message);
}

uint8_t *sim_gpu_core_local(struct sim_gpu_core *core)
{
	return ((struct worker *)core)->shared;
}

bool sim_gpu_core_live(struct sim_gpu_core *core)
{
	return keep_going((struct worker *)core);
}
