/*
 * bench-scheduler: `./agx bench scheduler`.  Starts agx-sim, agx-memmgr,
 * agx-fwchan and agx-scheduler (next to this program in the build tree)
 * and measures, as a client through libagx (agx/sched.h):
 *   - the round trip of one empty job: SUBMIT sent to its fence signalled,
 *     seen on the fence page (p50, p99);
 *   - submissions per second of empty jobs from one client, and from 8
 *     client processes together, each job signalling its own point, until
 *     every one has completed.  Clients submit as a driver that does not
 *     wait for each answer would (agx_sched_submit_async: up to 32
 *     unanswered), and keep under the scheduler's limit of unfinished jobs
 *     by waiting on their fence page when 2,048 are.
 * An empty job is a compute command whose stream is only its end: it goes
 * through the scheduler, fwchan and the firmware like any other.
 * Prints `scheduler.<metric> <value> <unit>` lines.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "agx/memory.h"
#include "agx/sched.h"
#include "bench.h"
#include "agx/cmd.h"

#define LATENCY_SAMPLES	   5000
#define THROUGHPUT_SECONDS 2.0
#define CLIENTS		   8
#define WAIT_NS		   (10ll * 1000 * 1000 * 1000)

struct client {
	struct agx_memory *mem;
	struct agx_sched *s;
	struct agx_bo bo;
	uint64_t va;
	uint32_t vm, queue, t;
	uint64_t next;
	struct agx_sched_cmd cmd;
};

static int client_init(struct client *c, const char *memmgr, const char *sched)
{
	memset(c, 0, sizeof(*c));
	if (agx_memory_connect(memmgr, &c->mem) < 0 || agx_vm_create(c->mem, &c->vm) < 0 ||
	    agx_bo_create(c->mem, 0x4000, 0, 0, &c->bo) < 0 ||
	    agx_vm_bind(c->mem, c->vm, &c->bo, 0, 0x4000, 0,
			AGX_BIND_READ | AGX_BIND_EXECUTE | AGX_BIND_ALLOCATE_VA, &c->va) < 0)
		return -1;
	agx_cdm_terminate(c->bo.map);
	c->cmd = agx_sched_cmd_compute((struct agx_sched_compute){ c->va, c->va + 16, c->va });
	if (agx_sched_connect(sched, "agx-bench-scheduler", &c->s) < 0 ||
	    agx_sched_queue_create(c->s, c->vm, AGX_PRIORITY_NORMAL, &c->queue) < 0 ||
	    agx_sched_syncobj_create(c->s, &c->t) < 0) {
		fprintf(stderr, "agx-bench-scheduler: %s\n",
			c->s ? agx_sched_error(c->s) : "cannot connect");
		return -1;
	}
	return 0;
}

static int wait_for(struct client *c, uint64_t value)
{
	int status = 0;

	if (agx_sched_wait(c->s, &(struct agx_sched_point){ c->t, value }, 1, true, WAIT_NS, NULL,
			   &status) < 0 ||
	    status) {
		fprintf(stderr, "agx-bench-scheduler: wait: %s\n", agx_sched_error(c->s));
		return -1;
	}
	return 0;
}

/* One empty job signalling the next point, its answer waited for. */
static int submit(struct client *c)
{
	if (agx_sched_submit(c->s, c->queue, &c->cmd, 1, NULL, 0,
			     &(struct agx_sched_point){ c->t, c->next + 1 }, 1, NULL) < 0) {
		fprintf(stderr, "agx-bench-scheduler: %s\n", agx_sched_error(c->s));
		return -1;
	}
	c->next++;
	return 0;
}

#define UNFINISHED 2048

/* Submissions for THROUGHPUT_SECONDS, then until all ended: jobs per second. */
static double throughput(struct client *c)
{
	uint64_t start = c->next, completed = c->next;
	double t0 = bench_now_us();

	while (bench_now_us() - t0 < THROUGHPUT_SECONDS * 1e6) {
		if (c->next - completed >= UNFINISHED) {
			if (wait_for(c, completed + UNFINISHED / 2) < 0)
				return -1;
			completed = agx_sched_value(c->s, c->t);
		}
		if (agx_sched_submit_async(c->s, c->queue, &c->cmd, 1, NULL, 0,
					   &(struct agx_sched_point){ c->t, c->next + 1 }, 1) < 0) {
			fprintf(stderr, "agx-bench-scheduler: %s\n", agx_sched_error(c->s));
			return -1;
		}
		c->next++;
	}
	if (agx_sched_flush(c->s) < 0) {
		fprintf(stderr, "agx-bench-scheduler: %s\n", agx_sched_error(c->s));
		return -1;
	}
	if (wait_for(c, c->next) < 0)
		return -1;
	return (double)(c->next - start) / ((bench_now_us() - t0) / 1e6);
}

static int latency(struct client *c)
{
	static double samples[LATENCY_SAMPLES];

	for (int i = 0; i < LATENCY_SAMPLES; i++) {
		double t0 = bench_now_us();

		if (submit(c) < 0 || wait_for(c, c->next) < 0)
			return -1;
		samples[i] = bench_now_us() - t0;
	}
	bench_sort(samples, LATENCY_SAMPLES);
	printf("scheduler.rtt_p50_us %.1f us (an empty job: SUBMIT to its fence signalled)\n",
	       samples[LATENCY_SAMPLES / 2]);
	printf("scheduler.rtt_p99_us %.1f us\n", samples[LATENCY_SAMPLES * 99 / 100]);
	return 0;
}

/* CLIENTS processes at once, each with its own connection, VM and queue. */
static int many(const char *memmgr, const char *sched)
{
	int pipes[CLIENTS][2];
	pid_t pids[CLIENTS];
	double total = 0;
	int ret = 0;

	for (int i = 0; i < CLIENTS; i++) {
		if (pipe(pipes[i]) < 0)
			return -1;
		pids[i] = fork();
		if (pids[i] == 0) {
			struct client c;
			double rate = -1;

			close(pipes[i][0]);
			if (client_init(&c, memmgr, sched) == 0)
				rate = throughput(&c);
			if (write(pipes[i][1], &rate, sizeof(rate)) != sizeof(rate))
				_exit(1);
			_exit(rate < 0);
		}
		close(pipes[i][1]);
	}
	for (int i = 0; i < CLIENTS; i++) {
		double rate = -1;

		if (read(pipes[i][0], &rate, sizeof(rate)) != sizeof(rate) || rate < 0)
			ret = -1;
		total += rate;
		close(pipes[i][0]);
		waitpid(pids[i], NULL, 0);
	}
	if (ret == 0)
		printf("scheduler.submits_per_s_8 %.0f jobs/s (%d clients together)\n", total,
		       CLIENTS);
	return ret;
}

int main(void)
{
	struct bench_stack st;
	struct client c;
	double rate;
	int ret = 1;

	if (bench_stack_start(&st, 4) < 0)
		return 1;
	if (client_init(&c, st.sock[BENCH_MEMMGR], st.sock[BENCH_SCHEDULER]) < 0) {
		fprintf(stderr, "agx-bench-scheduler: cannot set up a client\n");
		goto out;
	}
	if (latency(&c) < 0)
		goto out;
	rate = throughput(&c);
	if (rate < 0)
		goto out;
	printf("scheduler.submits_per_s_1 %.0f jobs/s (one client, up to 32 answers pending)\n",
	       rate);
	agx_sched_disconnect(c.s);
	c.s = NULL;
	if (many(st.sock[BENCH_MEMMGR], st.sock[BENCH_SCHEDULER]) < 0)
		goto out;
	ret = 0;
out:
	agx_sched_disconnect(c.s);
	agx_memory_disconnect(c.mem);
	bench_stack_stop(&st);
	return ret;
}
