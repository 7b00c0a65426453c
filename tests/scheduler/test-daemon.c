/*
 * test-daemon: agx-scheduler as it runs, over a real agx-fwchan,
 * agx-memmgr and agx-sim, met through libagx (agx/sched.h, agx/memory.h)
 * the way a driver meets it: jobs with real kernels whose results are read
 * back, dependency graphs, waits on the fence page, points passed between
 * clients, faulting and hanging clients beside good ones, a client killed
 * in the middle, 16 processes of 10,000 submissions, priorities, a lost
 * firmware, the metrics endpoint.
 *
 *   test-daemon AGX-SIM AGX-MEMMGR AGX-FWCHAN AGX-SCHEDULER
 */
#include <errno.h>
#include <poll.h>
#include <pwd.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "agx/memory.h"
#include "agx/sched.h"
#include "agxipc/client.h"
#include "asm.h"
#include "daemons.h"
#include "stack.h"
#include "agx/cmd.h"
#include "promtext.h"
#include "top.h"

#define PAGE	    0x4000ull
#define TIMEOUT_MS  10000
#define WAIT_NS	    (10ll * 1000 * 1000 * 1000)
#define JOB_TIMEOUT "200" /* ms of GPU time a command may take: the hanging client's */

static struct test_stack_options stack_options = {
	.sim_memory_size = "0x20000000",
	.sim_cores = "2",
	.test_faults = true,
	.job_timeout_ms = JOB_TIMEOUT,
};

static int setup(void **state)
{
	struct test_stack *d = calloc(1, sizeof(*d));

	test_stack_start(d, &stack_options);
	*state = d;
	return 0;
}

static int teardown(void **state)
{
	struct test_stack *d = *state;
	bool clean = test_stack_stop(d);

	free(d);
	assert_true(clean);
	return 0;
}

/* --- a client: its VM, a kernel, programs built on it, buffers ------------------------ */

/* out[i] = a[i] + b[i] + u6, for the 256 threads of a 64x4 grid */
static const char sum_kernel[] = "get_sr r1, sr80\n"
				 "get_sr r4, sr81\n"
				 "mov_imm r5, 64\n"
				 "imadd r1, r4, r5, r1\n"
				 "device_load 0, i32, x, r2, u0_u1, r1, unsigned\n"
				 "device_load 0, i32, x, r3, u2_u3, r1, unsigned\n"
				 "wait 0\n"
				 "iadd r2, r2, r3\n"
				 "iadd r2, r2, u6\n"
				 "device_store 0, i32, x, r2, u4_u5, r1, unsigned, 0\n"
				 "stop";

/* writes 1 to a[0], then loops until its GPU time runs out */
static const char spin_kernel[] = "mov_imm r1, 1\n"
				  "mov_imm r2, 0\n"
				  "device_store 0, i32, x, r1, u0_u1, r2, unsigned, 0\n"
				  "top:\n"
				  "jmp_exec_any @top\n"
				  "stop";

#define THREADS	  256
#define PROGS	  120 /* pipelines in the code BO, streams and uniforms in the data BO */
#define PROG_SIZE 128
#define SPIN_CODE 0x3000     /* the spinner, in the code BO */
#define BUFS	  (4 * PAGE) /* buffers of THREADS words from here in the data BO */
#define BUF_SIZE  (THREADS * 4)

struct tc {
	struct agx_memory *mem;
	struct agx_sched *s;
	struct agx_bo code, data;
	uint32_t vm, queue;
	uint64_t code_va, data_va;
	unsigned progs;
};

/* A client's VM, BOs, kernels, scheduler connection and queue: 0, or which step failed. */
static int tc_open(const struct test_stack *d, struct tc *c, const char *name,
		   enum agx_priority priority)
{
	memset(c, 0, sizeof(*c));
	if (agx_memory_connect(d->memmgr, &c->mem) < 0 || agx_vm_create(c->mem, &c->vm) < 0 ||
	    agx_bo_create(c->mem, PAGE, 0, 0, &c->code) < 0 ||
	    agx_bo_create(c->mem, 16 * PAGE, 0, 0, &c->data) < 0 ||
	    agx_vm_bind(c->mem, c->vm, &c->code, 0, PAGE, 0,
			AGX_BIND_READ | AGX_BIND_EXECUTE | AGX_BIND_ALLOCATE_VA, &c->code_va) < 0 ||
	    agx_vm_bind(c->mem, c->vm, &c->data, 0, 16 * PAGE, 0,
			AGX_BIND_READ | AGX_BIND_WRITE | AGX_BIND_ALLOCATE_VA, &c->data_va) < 0)
		return 1;
	test_assemble(sum_kernel, (uint8_t *)c->code.map + 0x100, 0x300);
	test_assemble(spin_kernel, (uint8_t *)c->code.map + SPIN_CODE, 0x100);
	if (agx_sched_connect(d->sched, name, &c->s) < 0 ||
	    agx_sched_queue_create(c->s, c->vm, priority, &c->queue) < 0)
		return 2;
	return 0;
}

static void tc_init(const struct test_stack *d, struct tc *c, enum agx_priority priority)
{
	assert_int_equal(tc_open(d, c, "test-client", priority), 0);
}

static void tc_fini(struct tc *c)
{
	agx_sched_disconnect(c->s);
	agx_bo_close(c->mem, &c->code);
	agx_bo_close(c->mem, &c->data);
	agx_memory_disconnect(c->mem);
}

static uint64_t buf_va(const struct tc *c, unsigned i)
{
	return c->data_va + BUFS + i * BUF_SIZE;
}

static uint32_t *buf(const struct tc *c, unsigned i)
{
	return (uint32_t *)((uint8_t *)c->data.map + BUFS + i * BUF_SIZE);
}

/* A program of code (at that offset) over 64x4 threads with uniforms u. */
static struct agx_sched_cmd program(struct tc *c, uint32_t code, const uint32_t *u, unsigned words)
{
	unsigned p = c->progs++;
	uint64_t pipeline = 0x400 + p * PROG_SIZE;
	uint8_t *stream = (uint8_t *)c->data.map + p * PROG_SIZE;
	uint64_t unif = c->data_va + p * PROG_SIZE + 64;
	size_t n;

	assert_true(p < PROGS);
	memcpy((uint8_t *)c->data.map + p * PROG_SIZE + 64, u, words * 4);
	agx_pipeline_pack(
	    (uint8_t *)c->code.map + pipeline,
	    &(struct agx_pipeline){
		.code = code, .uniforms = unif, .uniform_halves = 2 * words, .shared_size = 512 });
	n = agx_cdm_launch(stream, (uint32_t)pipeline, 0, (uint32_t[]){ 64, 4, 1 },
			   (uint32_t[]){ 64, 1, 1 });
	n += agx_cdm_terminate(stream + n);
	assert_true(n <= 64);
	return agx_sched_cmd_compute((struct agx_sched_compute){
	    c->data_va + p * PROG_SIZE, c->data_va + p * PROG_SIZE + 64, c->code_va });
}

/* out = a + b + bias, over THREADS words */
static struct agx_sched_cmd sum(struct tc *c, uint64_t a, uint64_t b, uint64_t out, uint32_t bias)
{
	uint32_t u[7] = { (uint32_t)a,	 (uint32_t)(a >> 32),	(uint32_t)b, (uint32_t)(b >> 32),
			  (uint32_t)out, (uint32_t)(out >> 32), bias };

	return program(c, 0x100, u, 7);
}

/* A stream that is only its end: a job that asks the GPU for nothing. */
static struct agx_sched_cmd empty(struct tc *c)
{
	uint8_t *stream = (uint8_t *)c->data.map + (PROGS)*PROG_SIZE;

	agx_cdm_terminate(stream);
	return agx_sched_cmd_compute((struct agx_sched_compute){
	    c->data_va + PROGS * PROG_SIZE, c->data_va + PROGS * PROG_SIZE + 16, c->code_va });
}

static uint32_t syncobj(struct tc *c)
{
	uint32_t h;

	assert_int_equal(agx_sched_syncobj_create(c->s, &h), 0);
	return h;
}

static void submit(struct tc *c, uint32_t queue, const struct agx_sched_cmd *cmd,
		   const struct agx_sched_point *waits, unsigned num_waits,
		   const struct agx_sched_point *signals, unsigned num_signals)
{
	int ret = agx_sched_submit(c->s, queue, cmd, cmd ? 1 : 0, waits, num_waits, signals,
				   num_signals, NULL);

	if (ret < 0)
		fail_msg("submit: %s", agx_sched_error(c->s));
}

/* Waits on the fence page; returns the work's status. */
static int wait_point(struct tc *c, uint32_t obj, uint64_t value)
{
	int status = 1;
	int ret = agx_sched_wait(c->s, &(struct agx_sched_point){ obj, value }, 1, true, WAIT_NS,
				 NULL, &status);

	if (ret < 0)
		fail_msg("wait for %u at %llu: %s (%s; the page shows %llu)", obj,
			 (unsigned long long)value, strerror(-ret), agx_sched_error(c->s),
			 (unsigned long long)agx_sched_value(c->s, obj));
	return status;
}

static void expect_words(const uint32_t *words, uint32_t bias)
{
	for (unsigned i = 0; i < THREADS; i++)
		if (words[i] != bias)
			fail_msg("word %u is %u, not %u", i, words[i], bias);
}

/* --- tests ---------------------------------------------------------------------------- */

/* A job runs in the client's VM; the fence page, SYNCOBJ_WAIT and the job's results agree. */
static void test_job(void **state)
{
	struct tc c;
	struct agx_sched_cmd cmd;
	enum agx_queue_status st;
	uint32_t t;
	unsigned first = 9;
	int status = 1;

	tc_init(*state, &c, AGX_PRIORITY_NORMAL);
	t = syncobj(&c);
	assert_int_equal(agx_sched_value(c.s, t), 0);
	for (unsigned i = 0; i < THREADS; i++)
		buf(&c, 0)[i] = i;
	cmd = sum(&c, buf_va(&c, 0), buf_va(&c, 0), buf_va(&c, 1), 7);
	submit(&c, c.queue, &cmd, NULL, 0, &(struct agx_sched_point){ t, 5 }, 1);
	assert_int_equal(wait_point(&c, t, 5), 0);
	assert_int_equal(agx_sched_value(c.s, t), 5);
	for (unsigned i = 0; i < THREADS; i++)
		assert_int_equal(buf(&c, 1)[i], 2 * i + 7);
	/* the same answer asked of the scheduler, for a value below and one at the point */
	assert_int_equal(
	    agx_sched_wait_ipc(c.s, &(struct agx_sched_point){ t, 3 }, 1, true, 0, &first, &status),
	    0);
	assert_int_equal(first, 0);
	assert_int_equal(status, 0);
	/* a point nothing will reach: not reached in time, both ways */
	assert_int_equal(agx_sched_wait(c.s, &(struct agx_sched_point){ t, 6 }, 1, true,
					20 * 1000 * 1000, NULL, NULL),
			 -ETIMEDOUT);
	assert_int_equal(agx_sched_wait_ipc(c.s, &(struct agx_sched_point){ t, 6 }, 1, true,
					    20 * 1000 * 1000, NULL, NULL),
			 -ETIMEDOUT);
	assert_int_equal(agx_sched_queue_status(c.s, c.queue, &st), 0);
	assert_int_equal(st, AGX_QUEUE_OK);
	tc_fini(&c);
}

/* Bad requests get a precise error and change nothing. */
static void test_refused(void **state)
{
	struct test_stack *d = *state;
	struct agx_sched_cmd cmd;
	uint32_t t, q;
	struct tc c;

	tc_init(d, &c, AGX_PRIORITY_NORMAL);
	t = syncobj(&c);
	cmd = empty(&c);
	assert_int_equal(agx_sched_submit(c.s, 99, &cmd, 1, NULL, 0, NULL, 0, NULL), -ENOENT);
	assert_non_null(strstr(agx_sched_error(c.s), "no queue 99"));
	assert_int_equal(agx_sched_submit(c.s, c.queue, &cmd, 1, NULL, 0,
					  &(struct agx_sched_point){ 77, 1 }, 1, NULL),
			 -ENOENT);
	assert_non_null(strstr(agx_sched_error(c.s), "no syncobj 77"));
	submit(&c, c.queue, &cmd, NULL, 0, &(struct agx_sched_point){ t, 4 }, 1);
	assert_int_equal(agx_sched_submit(c.s, c.queue, &cmd, 1, NULL, 0,
					  &(struct agx_sched_point){ t, 4 }, 1, NULL),
			 -EINVAL);
	assert_non_null(strstr(agx_sched_error(c.s), "must be above it"));
	cmd.compute.encoder += 2; /* not 4-byte aligned */
	assert_int_equal(agx_sched_submit(c.s, c.queue, &cmd, 1, NULL, 0, NULL, 0, NULL), -EINVAL);
	assert_non_null(strstr(agx_sched_error(c.s), "command 0: stream"));
	/* a VM the client does not have */
	assert_int_equal(agx_sched_queue_create(c.s, 4242, AGX_PRIORITY_NORMAL, &q), -ENOENT);
	assert_int_equal(agx_sched_queue_create(c.s, c.vm, 7, &q), -EINVAL);
	assert_int_equal(wait_point(&c, t, 4), 0);
	tc_fini(&c);
}

/*
 * Submissions that do not wait for their answers: 100 of them run in
 * order; a refused one among them is reported by the flush, once, and the
 * rest still run.
 */
static void test_async(void **state)
{
	struct agx_sched_cmd cmd;
	struct tc c;
	uint32_t t;

	tc_init(*state, &c, AGX_PRIORITY_NORMAL);
	t = syncobj(&c);
	cmd = empty(&c);
	for (uint64_t k = 1; k <= 100; k++)
		assert_int_equal(agx_sched_submit_async(c.s, c.queue, &cmd, 1, NULL, 0,
							&(struct agx_sched_point){ t, k }, 1),
				 0);
	assert_int_equal(agx_sched_flush(c.s), 0);
	assert_int_equal(wait_point(&c, t, 100), 0);
	assert_int_equal(agx_sched_submit_async(c.s, c.queue, &cmd, 1, NULL, 0,
						&(struct agx_sched_point){ t, 50 }, 1),
			 0); /* below the timeline's last point: refused, later */
	assert_int_equal(agx_sched_submit_async(c.s, c.queue, &cmd, 1, NULL, 0,
						&(struct agx_sched_point){ t, 101 }, 1),
			 0);
	assert_int_equal(agx_sched_flush(c.s), -EINVAL);
	assert_non_null(strstr(agx_sched_error(c.s), "must be above it"));
	assert_int_equal(agx_sched_flush(c.s), 0);
	assert_int_equal(wait_point(&c, t, 101), 0);
	tc_fini(&c);
}

/* Realtime is for root and the realtime group: another user is refused. */
static void test_realtime_refused(void **state)
{
	struct test_stack *d = *state;
	struct passwd *nobody = getpwnam("nobody");
	pid_t pid;
	int status;

	if (getuid() != 0 || !nobody)
		skip();
	assert_int_equal(chmod(d->dir, 0755), 0);
	assert_int_equal(chmod(d->sched, 0666), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		struct agx_sched *s;
		uint32_t q;
		int ret;

		if (setgid(nobody->pw_gid) < 0 || setuid(nobody->pw_uid) < 0)
			_exit(10);
		if (agx_sched_connect(d->sched, "nobody", &s) < 0)
			_exit(11);
		/* the VM is not checked before the priority: any number does */
		ret = agx_sched_queue_create(s, 1, AGX_PRIORITY_REALTIME, &q);
		_exit(ret == -EPERM && strstr(agx_sched_error(s), "REALTIME") ? 0 : 12);
	}
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), 0);
	chmod(d->dir, 0700);
}

/*
 * A chain of 1,000 jobs over four queues, each adding 1 to what the one
 * before it wrote: any job that ran before its predecessor ended would
 * lose or repeat an increment.
 */
static void test_chain(void **state)
{
	struct agx_sched_cmd step[2];
	uint32_t queues[4], t;
	struct tc c;

	tc_init(*state, &c, AGX_PRIORITY_NORMAL);
	queues[0] = c.queue;
	for (unsigned i = 1; i < 4; i++)
		assert_int_equal(agx_sched_queue_create(c.s, c.vm, AGX_PRIORITY_NORMAL, &queues[i]),
				 0);
	t = syncobj(&c);
	memset(buf(&c, 0), 0, BUF_SIZE);
	memset(buf(&c, 1), 0, BUF_SIZE);
	memset(buf(&c, 2), 0, BUF_SIZE);				   /* zeros */
	step[0] = sum(&c, buf_va(&c, 1), buf_va(&c, 2), buf_va(&c, 0), 1); /* b0 = b1 + 1 */
	step[1] = sum(&c, buf_va(&c, 0), buf_va(&c, 2), buf_va(&c, 1), 1); /* b1 = b0 + 1 */
	for (unsigned k = 1; k <= 1000; k++)
		submit(&c, queues[k % 4], &step[k % 2], &(struct agx_sched_point){ t, k - 1 }, 1,
		       &(struct agx_sched_point){ t, k }, 1);
	assert_int_equal(wait_point(&c, t, 1000), 0);
	expect_words(buf(&c, 0), 1000);
	tc_fini(&c);
}

/*
 * A diamond submitted bottom first, each job on its own queue: D waits for
 * B and C, which wait for A.  D sums what B and C made of what A wrote.
 */
static void test_diamond(void **state)
{
	struct agx_sched_cmd a, b, cc, dd;
	uint32_t q[4], ta, tb, tc2, td;
	struct tc c;

	tc_init(*state, &c, AGX_PRIORITY_NORMAL);
	q[0] = c.queue;
	for (unsigned i = 1; i < 4; i++)
		assert_int_equal(agx_sched_queue_create(c.s, c.vm, AGX_PRIORITY_NORMAL, &q[i]), 0);
	ta = syncobj(&c);
	tb = syncobj(&c);
	tc2 = syncobj(&c);
	td = syncobj(&c);
	memset(buf(&c, 0), 0, 5 * BUF_SIZE);
	a = sum(&c, buf_va(&c, 0), buf_va(&c, 0), buf_va(&c, 1), 1000); /* X = 1000 */
	b = sum(&c, buf_va(&c, 1), buf_va(&c, 0), buf_va(&c, 2), 1);	/* Y = X + 1 */
	cc = sum(&c, buf_va(&c, 1), buf_va(&c, 0), buf_va(&c, 3), 2);	/* Z = X + 2 */
	dd = sum(&c, buf_va(&c, 2), buf_va(&c, 3), buf_va(&c, 4), 0);	/* W = Y + Z */
	submit(&c, q[3], &dd, (struct agx_sched_point[]){ { tb, 1 }, { tc2, 1 } }, 2,
	       &(struct agx_sched_point){ td, 1 }, 1);
	submit(&c, q[2], &cc, &(struct agx_sched_point){ ta, 1 }, 1,
	       &(struct agx_sched_point){ tc2, 1 }, 1);
	submit(&c, q[1], &b, &(struct agx_sched_point){ ta, 1 }, 1,
	       &(struct agx_sched_point){ tb, 1 }, 1);
	assert_int_equal(agx_sched_value(c.s, td), 0);
	submit(&c, q[0], &a, NULL, 0, &(struct agx_sched_point){ ta, 1 }, 1);
	assert_int_equal(wait_point(&c, td, 1), 0);
	expect_words(buf(&c, 4), 2003);
	tc_fini(&c);
}

/*
 * A point exported by one client and imported by another: the importer's
 * job waits for the exporter's, across connections, and the exported
 * descriptor becomes readable when the point is reached.
 */
static void test_export_import(void **state)
{
	struct tc a, b;
	struct agx_sched_cmd cmd;
	struct pollfd pfd;
	uint32_t gate, done_a, got, done_b, q2;
	int32_t status = 99;
	int fd;

	tc_init(*state, &a, AGX_PRIORITY_NORMAL);
	tc_init(*state, &b, AGX_PRIORITY_NORMAL);
	gate = syncobj(&a);
	done_a = syncobj(&a);
	got = syncobj(&b);
	done_b = syncobj(&b);
	cmd = empty(&a);
	/* a's job waits for a gate nothing has opened yet */
	submit(&a, a.queue, &cmd, &(struct agx_sched_point){ gate, 1 }, 1,
	       &(struct agx_sched_point){ done_a, 1 }, 1);
	assert_int_equal(agx_sched_export(a.s, (struct agx_sched_point){ done_a, 1 }, &fd), 0);
	assert_int_equal(agx_sched_import(b.s, got, 1, fd), 0);
	cmd = empty(&b);
	submit(&b, b.queue, &cmd, &(struct agx_sched_point){ got, 1 }, 1,
	       &(struct agx_sched_point){ done_b, 1 }, 1);
	pfd = (struct pollfd){ .fd = fd, .events = POLLIN };
	assert_int_equal(poll(&pfd, 1, 0), 0);
	assert_int_equal(agx_sched_wait(b.s, &(struct agx_sched_point){ done_b, 1 }, 1, true,
					50 * 1000 * 1000, NULL, NULL),
			 -ETIMEDOUT);
	/* the gate opens (from another queue: a's first waits at the head of its own) */
	assert_int_equal(agx_sched_queue_create(a.s, a.vm, AGX_PRIORITY_NORMAL, &q2), 0);
	cmd = empty(&a);
	submit(&a, q2, &cmd, NULL, 0, &(struct agx_sched_point){ gate, 1 }, 1);
	assert_int_equal(wait_point(&b, done_b, 1), 0);
	assert_int_equal(agx_sched_value(a.s, done_a), 1);
	assert_int_equal(poll(&pfd, 1, TIMEOUT_MS), 1);
	assert_int_equal(recv(fd, &status, sizeof(status), 0), (ssize_t)sizeof(status));
	assert_int_equal(status, 0);
	/* an fd that is not an exported point is refused */
	assert_int_equal(agx_sched_import(b.s, got, 2, 0), -ENOENT);
	close(fd);
	tc_fini(&b);
	tc_fini(&a);
}

/* --- processes ---------------------------------------------------------------------- */

typedef int (*child_fn)(const struct test_stack *d, int arg);

/* fn in a child process; its exit status (0: its checks held) is collected by reap(). */
static pid_t spawn(const struct test_stack *d, child_fn fn, int arg)
{
	pid_t pid = fork();

	assert_true(pid >= 0);
	if (pid == 0)
		_exit(fn(d, arg));
	return pid;
}

static int reap(pid_t pid)
{
	int status;

	assert_int_equal(waitpid(pid, &status, 0), pid);
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

/* In a child, a failed check is an exit status (cmocka's are the parent's). */
#define CHECK(cond, code)                                                                          \
	do {                                                                                       \
		if (!(cond)) {                                                                     \
			fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, #cond);                 \
			return code;                                                               \
		}                                                                                  \
	} while (0)

/* A child's client, with no cmocka asserts in it. */
static int child_client(const struct test_stack *d, struct tc *c)
{
	return tc_open(d, c, "test-child", AGX_PRIORITY_NORMAL);
}

static int child_wait(struct tc *c, uint32_t t, uint64_t value, int *status)
{
	return agx_sched_wait(c->s, &(struct agx_sched_point){ t, value }, 1, true, WAIT_NS, NULL,
			      status);
}

/* A well-behaved client: 20 jobs in a chain, each adding its bias; the sum is right. */
static int good_client(const struct test_stack *d, int n)
{
	struct agx_sched_cmd step[2];
	enum agx_queue_status st;
	uint32_t t;
	int status = 1;
	struct tc c;

	CHECK(child_client(d, &c) == 0, 1);
	CHECK(agx_sched_syncobj_create(c.s, &t) == 0, 2);
	memset(buf(&c, 0), 0, 3 * BUF_SIZE);
	step[0] = sum(&c, buf_va(&c, 1), buf_va(&c, 2), buf_va(&c, 0), (uint32_t)n + 1);
	step[1] = sum(&c, buf_va(&c, 0), buf_va(&c, 2), buf_va(&c, 1), (uint32_t)n + 1);
	for (unsigned k = 1; k <= 20; k++)
		CHECK(agx_sched_submit(c.s, c.queue, &step[k % 2], 1,
				       &(struct agx_sched_point){ t, k - 1 }, 1,
				       &(struct agx_sched_point){ t, k }, 1, NULL) == 0,
		      3);
	CHECK(child_wait(&c, t, 20, &status) == 0 && status == 0, 4);
	for (unsigned i = 0; i < THREADS; i++)
		CHECK(buf(&c, 0)[i] == 20u * ((uint32_t)n + 1), 5);
	CHECK(agx_sched_queue_status(c.s, c.queue, &st) == 0 && st == AGX_QUEUE_OK, 6);
	tc_fini(&c);
	return 0;
}

/* A client whose job writes outside its VM (hang: 0) or never ends (hang: 1). */
static int bad_client(const struct test_stack *d, int hang)
{
	struct agx_sched_cmd cmd;
	enum agx_queue_status st;
	uint32_t t;
	int status = 0, ret;
	struct tc c;

	CHECK(child_client(d, &c) == 0, 1);
	CHECK(agx_sched_syncobj_create(c.s, &t) == 0, 2);
	if (hang) {
		uint32_t u[2] = { (uint32_t)buf_va(&c, 0), (uint32_t)(buf_va(&c, 0) >> 32) };

		cmd = program(&c, SPIN_CODE, u, 2);
	} else {
		cmd = sum(&c, buf_va(&c, 0), buf_va(&c, 0), 0x7000000000ull, 1);
	}
	CHECK(agx_sched_submit(c.s, c.queue, &cmd, 1, NULL, 0, &(struct agx_sched_point){ t, 1 }, 1,
			       NULL) == 0,
	      3);
	/*
	 * Queued behind it: never runs.  The first may fault, and its queue
	 * be reset, before this reaches the scheduler (a slow client, the
	 * sanitizers): the queue then refuses it, which is as right.
	 */
	cmd = sum(&c, buf_va(&c, 0), buf_va(&c, 0), buf_va(&c, 1), 1);
	ret = agx_sched_submit(c.s, c.queue, &cmd, 1, NULL, 0, &(struct agx_sched_point){ t, 2 }, 1,
			       NULL);
	CHECK(ret == 0 || ret == -ECANCELED, 4);
	/*
	 * the second first: its failure is then the page's latest, and the
	 * first's status has to come from the scheduler (AGX_FENCE_STATUS_ASK)
	 */
	CHECK(ret || (child_wait(&c, t, 2, &status) == 0 && status == -ECANCELED), 5);
	CHECK(child_wait(&c, t, 1, &status) == 0, 6);
	CHECK(status == (hang ? -ETIMEDOUT : -EFAULT), 7);
	CHECK(agx_sched_queue_status(c.s, c.queue, &st) == 0 && st == AGX_QUEUE_GUILTY_RESET, 8);
	CHECK(agx_sched_submit(c.s, c.queue, &cmd, 1, NULL, 0, NULL, 0, NULL) == -ECANCELED, 9);
	tc_fini(&c);
	return 0;
}

/*
 * A faulting and a hanging client beside four good ones: the good ones'
 * results are all right; the bad ones' queues are guilty and refuse more.
 */
static void test_isolation(void **state)
{
	const struct test_stack *d = *state;
	pid_t pids[6];

	/* every child is reaped before anything is checked: none outlives the test */
	pids[0] = spawn(d, bad_client, 0);
	pids[1] = spawn(d, bad_client, 1);
	for (int i = 0; i < 4; i++)
		pids[2 + i] = spawn(d, good_client, i);
	int status[6];

	for (int i = 0; i < 6; i++)
		status[i] = reap(pids[i]);
	for (int i = 0; i < 6; i++)
		if (status[i])
			fail_msg("client %d failed (status %d)", i, status[i]);
}

/* A child that imports the point it inherited (fd in the low 16 bits, its pipe above). */
static int importer(const struct test_stack *d, int arg)
{
	int fd = arg & 0xffff, out = arg >> 16, status = 1;
	struct agx_sched_cmd cmd;
	uint32_t got, done;
	struct tc c;

	CHECK(child_client(d, &c) == 0, 1);
	CHECK(agx_sched_syncobj_create(c.s, &got) == 0 && agx_sched_syncobj_create(c.s, &done) == 0,
	      2);
	CHECK(agx_sched_import(c.s, got, 1, fd) == 0, 3);
	cmd = empty(&c);
	CHECK(agx_sched_submit(c.s, c.queue, &cmd, 1, &(struct agx_sched_point){ got, 1 }, 1,
			       &(struct agx_sched_point){ done, 1 }, 1, NULL) == 0,
	      4);
	/* the exporter's gate is shut: nothing here may end */
	CHECK(agx_sched_wait(c.s, &(struct agx_sched_point){ done, 1 }, 1, true, 50 * 1000 * 1000,
			     NULL, NULL) == -ETIMEDOUT,
	      5);
	CHECK(write(out, "x", 1) == 1, 6);
	CHECK(child_wait(&c, done, 1, &status) == 0 && status == 0, 7);
	tc_fini(&c);
	return 0;
}

/* The same across processes: the descriptor inherited by a child, which imports it. */
static void test_export_to_process(void **state)
{
	struct agx_sched_cmd cmd;
	uint32_t gate, done, q2;
	int fd, fds[2];
	char x;
	pid_t pid;
	struct tc a;

	tc_init(*state, &a, AGX_PRIORITY_NORMAL);
	gate = syncobj(&a);
	done = syncobj(&a);
	cmd = empty(&a);
	submit(&a, a.queue, &cmd, &(struct agx_sched_point){ gate, 1 }, 1,
	       &(struct agx_sched_point){ done, 1 }, 1);
	assert_int_equal(agx_sched_export(a.s, (struct agx_sched_point){ done, 1 }, &fd), 0);
	assert_int_equal(pipe(fds), 0);
	assert_true(fd < 0x10000 && fds[1] < 0x8000);
	pid = spawn(*state, importer, fd | fds[1] << 16);
	close(fd);
	assert_int_equal(read(fds[0], &x, 1), 1);
	assert_int_equal(agx_sched_queue_create(a.s, a.vm, AGX_PRIORITY_NORMAL, &q2), 0);
	submit(&a, q2, &cmd, NULL, 0, &(struct agx_sched_point){ gate, 1 }, 1);
	assert_int_equal(reap(pid), 0);
	close(fds[0]);
	close(fds[1]);
	tc_fini(&a);
}

/* --- metrics -------------------------------------------------------------------------- */

static void scrape(const struct test_stack *d, struct promtext *doc)
{
	struct promtext_error perr;
	char err[128], *body;
	size_t size;

	if (top_scrape(d->metrics, TIMEOUT_MS, &body, &size, err, sizeof(err)) < 0)
		fail_msg("scrape: %s", err);
	if (promtext_parse(body, size, doc, &perr) < 0)
		fail_msg("line %u: %s", perr.line, perr.message);
	free(body);
}

static double metric(const struct promtext *doc, const char *name, const char *const *labels)
{
	const struct promtext_sample *s = promtext_find(doc, name, labels);

	if (!s)
		fail_msg("no %s", name);
	return s->value;
}

/* The metrics endpoint scraped and parsed: this client's jobs counted, its GPU time too. */
static void test_metrics(void **state)
{
	const struct test_stack *d = *state;
	struct agx_sched_cmd cmd;
	struct promtext before, after;
	struct promtext_histogram h;
	char pid[16];
	const char *labels[] = { "pid", pid, "client", "test-client", NULL };
	uint32_t t;
	struct tc c;

	snprintf(pid, sizeof(pid), "%d", (int)getpid());
	tc_init(*state, &c, AGX_PRIORITY_HIGH);
	t = syncobj(&c);
	scrape(d, &before);
	assert_int_equal(metric(&before, "agx_scheduler_client_jobs_total", labels), 0);
	cmd = sum(&c, buf_va(&c, 0), buf_va(&c, 0), buf_va(&c, 1), 1);
	for (unsigned k = 1; k <= 10; k++)
		submit(&c, c.queue, &cmd, NULL, 0, &(struct agx_sched_point){ t, k }, 1);
	assert_int_equal(wait_point(&c, t, 10), 0);
	scrape(d, &after);
	assert_int_equal(metric(&after, "agx_scheduler_client_jobs_total", labels), 10);
	assert_int_equal(metric(&after, "agx_scheduler_client_jobs_queued", labels), 0);
	assert_true(metric(&after, "agx_scheduler_client_gpu_seconds_total", labels) > 0);
	assert_int_equal(metric(&after, "agx_scheduler_jobs_total", NULL) -
			     metric(&before, "agx_scheduler_jobs_total", NULL),
			 10);
	assert_true(metric(&after, "agx_scheduler_clients", NULL) >= 1);
	assert_int_equal(metric(&after, "agx_scheduler_queue_depth",
				(const char *const[]){ "priority", "high", NULL }),
			 0);
	assert_int_equal(
	    promtext_histogram_get(&after, "agx_scheduler_start_to_complete_seconds", NULL, &h), 0);
	assert_true(h.count >= 10);
	promtext_finish(&before);
	promtext_finish(&after);
	tc_fini(&c);
}

/* A child that keeps submitting until it is killed; it says when it has queued 100. */
static int submitter(const struct test_stack *d, int fd)
{
	struct agx_sched_cmd cmd;
	uint32_t t, gate;
	struct tc c;

	CHECK(child_client(d, &c) == 0, 1);
	CHECK(agx_sched_syncobj_create(c.s, &t) == 0 && agx_sched_syncobj_create(c.s, &gate) == 0,
	      2);
	cmd = sum(&c, buf_va(&c, 0), buf_va(&c, 0), buf_va(&c, 1), 1);
	for (uint64_t k = 1;; k++) {
		/* the first waits for a gate nobody opens: everything stays queued */
		int ret = agx_sched_submit(c.s, c.queue, &cmd, 1,
					   k == 1 ? &(struct agx_sched_point){ gate, 1 } : NULL,
					   k == 1, &(struct agx_sched_point){ t, k }, 1, NULL);

		CHECK(ret == 0 || ret == -EBUSY, 3);
		if (k == 100 && write(fd, "x", 1) != 1)
			return 4;
	}
}

/*
 * A client killed in the middle of its submissions: its queues, jobs and
 * handles go with it, and the others do not notice.
 */
static void test_killed_client(void **state)
{
	const struct test_stack *d = *state;
	struct promtext doc;
	char pid_s[16], x;
	int fds[2];
	pid_t pid;
	struct tc c;
	uint32_t t;
	struct agx_sched_cmd cmd;

	tc_init(*state, &c, AGX_PRIORITY_NORMAL);
	t = syncobj(&c);
	assert_int_equal(pipe(fds), 0);
	pid = spawn(d, submitter, fds[1]);
	assert_int_equal(read(fds[0], &x, 1), 1);
	kill(pid, SIGKILL);
	assert_int_equal(reap(pid), 128 + SIGKILL);
	close(fds[0]);
	close(fds[1]);
	/* the scheduler notices: the child's row goes, and none of its jobs is left queued */
	snprintf(pid_s, sizeof(pid_s), "%d", (int)pid);
	for (int tries = 0;; tries++) {
		scrape(d, &doc);
		if (!promtext_find(
			&doc, "agx_scheduler_client_jobs_queued",
			(const char *const[]){ "pid", pid_s, "client", "test-child", NULL }))
			break;
		promtext_finish(&doc);
		assert_true(tries < 1000);
		usleep(10000);
	}
	assert_int_equal(metric(&doc, "agx_scheduler_queue_depth",
				(const char *const[]){ "priority", "normal", NULL }),
			 0);
	promtext_finish(&doc);
	/* and the other client works as before */
	for (unsigned i = 0; i < THREADS; i++)
		buf(&c, 0)[i] = i;
	cmd = sum(&c, buf_va(&c, 0), buf_va(&c, 0), buf_va(&c, 1), 3);
	submit(&c, c.queue, &cmd, NULL, 0, &(struct agx_sched_point){ t, 1 }, 1);
	assert_int_equal(wait_point(&c, t, 1), 0);
	for (unsigned i = 0; i < THREADS; i++)
		assert_int_equal(buf(&c, 1)[i], 2 * i + 3);
	tc_fini(&c);
}

#define MANY_CLIENTS 16
#define MANY_JOBS    10000

/*
 * One of 16 processes submitting 10,000 empty jobs: it waits on the fence
 * page for every 50th point and for the last; a lost wake-up would be a
 * wait that times out.
 */
static int many_jobs(const struct test_stack *d, int n)
{
	struct agx_sched_cmd cmd;
	uint32_t t;
	int status = 0;
	struct tc c;

	CHECK(child_client(d, &c) == 0, 1);
	CHECK(agx_sched_syncobj_create(c.s, &t) == 0, 2);
	cmd = empty(&c);
	for (uint64_t k = 1; k <= MANY_JOBS; k++) {
		int ret;

		while ((ret = agx_sched_submit(c.s, c.queue, &cmd, 1, NULL, 0,
					       &(struct agx_sched_point){ t, k }, 1, NULL)) ==
		       -EBUSY)
			CHECK(child_wait(&c, t, k - 1, &status) == 0, 3);
		CHECK(ret == 0, 4);
		if (k % 50 == 0) {
			CHECK(child_wait(&c, t, k, &status) == 0 && status == 0, 5);
			CHECK(agx_sched_value(c.s, t) >= k, 6);
		}
	}
	CHECK(child_wait(&c, t, MANY_JOBS, &status) == 0 && status == 0, 7);
	tc_fini(&c);
	return 0;
}

static void test_many_clients(void **state)
{
	pid_t pids[MANY_CLIENTS];

	for (int i = 0; i < MANY_CLIENTS; i++)
		pids[i] = spawn(*state, many_jobs, i);
	int status[MANY_CLIENTS];

	for (int i = 0; i < MANY_CLIENTS; i++)
		status[i] = reap(pids[i]);
	for (int i = 0; i < MANY_CLIENTS; i++)
		if (status[i])
			fail_msg("client %d: status %d", i, status[i]);
}

/*
 * Priorities: 200 low jobs and one high job wait behind the same gate;
 * when it opens, the high one is done before the low ones are.
 */
static void test_priorities(void **state)
{
	struct agx_sched_cmd cmd, open;
	uint32_t low, high, gate, tl, th, q_gate;
	struct tc c;

	tc_init(*state, &c, AGX_PRIORITY_LOW);
	low = c.queue;
	assert_int_equal(agx_sched_queue_create(c.s, c.vm, AGX_PRIORITY_HIGH, &high), 0);
	assert_int_equal(agx_sched_queue_create(c.s, c.vm, AGX_PRIORITY_NORMAL, &q_gate), 0);
	gate = syncobj(&c);
	tl = syncobj(&c);
	th = syncobj(&c);
	cmd = sum(&c, buf_va(&c, 0), buf_va(&c, 0), buf_va(&c, 1), 1);
	for (unsigned k = 1; k <= 200; k++)
		submit(&c, low, &cmd, k == 1 ? &(struct agx_sched_point){ gate, 1 } : NULL, k == 1,
		       &(struct agx_sched_point){ tl, k }, 1);
	submit(&c, high, &cmd, &(struct agx_sched_point){ gate, 1 }, 1,
	       &(struct agx_sched_point){ th, 1 }, 1);
	open = empty(&c);
	submit(&c, q_gate, &open, NULL, 0, &(struct agx_sched_point){ gate, 1 }, 1);
	assert_int_equal(wait_point(&c, th, 1), 0);
	assert_true(agx_sched_value(c.s, tl) < 200);
	assert_int_equal(wait_point(&c, tl, 200), 0);
	tc_fini(&c);
}

/*
 * Fairness: a client with 3,000 jobs queued does not hold back another
 * client of its priority, whose one job is done long before the backlog.
 */
static void test_fairness(void **state)
{
	struct agx_sched_cmd cmd;
	uint32_t ta, tb;
	struct tc a, b;

	tc_init(*state, &a, AGX_PRIORITY_NORMAL);
	tc_init(*state, &b, AGX_PRIORITY_NORMAL);
	ta = syncobj(&a);
	tb = syncobj(&b);
	cmd = sum(&a, buf_va(&a, 0), buf_va(&a, 0), buf_va(&a, 1), 1);
	for (uint64_t k = 1; k <= 3000; k++)
		assert_int_equal(agx_sched_submit_async(a.s, a.queue, &cmd, 1, NULL, 0,
							&(struct agx_sched_point){ ta, k }, 1),
				 0);
	assert_int_equal(agx_sched_flush(a.s), 0);
	cmd = sum(&b, buf_va(&b, 0), buf_va(&b, 0), buf_va(&b, 1), 1);
	submit(&b, b.queue, &cmd, NULL, 0, &(struct agx_sched_point){ tb, 1 }, 1);
	assert_int_equal(wait_point(&b, tb, 1), 0);
	assert_true(agx_sched_value(a.s, ta) < 3000);
	assert_int_equal(wait_point(&a, ta, 3000), 0);
	tc_fini(&b);
	tc_fini(&a);
}

static void inject(const struct test_stack *d, Agx__Device__InjectFault__Kind kind, unsigned count,
		   unsigned delay_ms)
{
	Agx__Device__InjectFault m = AGX__DEVICE__INJECT_FAULT__INIT;
	struct agx_ipc_client *dev;
	struct agx_ipc_msg reply;

	assert_int_equal(agx_ipc_client_connect(d->sim, AGX__IPC__INTERFACE__INTERFACE_DEVICE,
						"test", TIMEOUT_MS, &dev, NULL),
			 0);
	m.kind = kind;
	m.count = count;
	m.delay_ms = delay_ms;
	assert_int_equal(agx_ipc_client_call(dev, AGX_IPC_MSG_DEVICE_INJECT_FAULT, &m.base, NULL, 0,
					     &reply, TIMEOUT_MS, NULL),
			 0);
	agx_ipc_msg_finish(&reply);
	agx_ipc_client_destroy(dev);
}

/*
 * The firmware crashes with a job in flight: the job's fence fails with
 * device lost, its queue says innocent reset, and work goes on once the
 * firmware is back, on a new queue.
 */
static void test_device_lost(void **state)
{
	struct agx_sched_cmd cmd;
	enum agx_queue_status st;
	uint32_t t, q;
	struct tc c;

	tc_init(*state, &c, AGX_PRIORITY_NORMAL);
	t = syncobj(&c);
	cmd = sum(&c, buf_va(&c, 0), buf_va(&c, 0), buf_va(&c, 1), 1);
	/* the job finishes its work and waits 5 s to say so: in flight at the crash */
	inject(*state, AGX__DEVICE__INJECT_FAULT__KIND__KIND_DELAY_COMPLETION, 1, 5000);
	submit(&c, c.queue, &cmd, NULL, 0, &(struct agx_sched_point){ t, 1 }, 1);
	usleep(20000);
	inject(*state, AGX__DEVICE__INJECT_FAULT__KIND__KIND_FIRMWARE_CRASH, 0, 0);
	assert_int_equal(wait_point(&c, t, 1), -ENODEV);
	assert_int_equal(agx_sched_queue_status(c.s, c.queue, &st), 0);
	assert_int_equal(st, AGX_QUEUE_INNOCENT_RESET);
	assert_int_equal(agx_sched_submit(c.s, c.queue, &cmd, 1, NULL, 0, NULL, 0, NULL),
			 -ECANCELED);
	/* a new queue: its job waits, if need be, for the firmware to be back */
	assert_int_equal(agx_sched_queue_create(c.s, c.vm, AGX_PRIORITY_NORMAL, &q), 0);
	memset(buf(&c, 1), 0, BUF_SIZE);
	cmd = sum(&c, buf_va(&c, 0), buf_va(&c, 0), buf_va(&c, 1), 5);
	submit(&c, q, &cmd, NULL, 0, &(struct agx_sched_point){ t, 2 }, 1);
	assert_int_equal(wait_point(&c, t, 2), 0);
	assert_int_equal(buf(&c, 1)[7], 2 * buf(&c, 0)[7] + 5);
	tc_fini(&c);
}

/* --- limits per process ---------------------------------------------------------------- */

#define PROC_CONNS  128	 /* SCHED_MAX_CONNS */
#define PROC_QUEUES 4096 /* SCHED_MAX_QUEUES */

/*
 * One process's connections share its limits: it gets PROC_CONNS
 * connections and no more (QUOTA_EXCEEDED), one again when it closes one;
 * its queues over two connections stop at PROC_QUEUES together, not each.
 * Afterwards another process connects and its job is done.
 */
static int many_connections(const struct test_stack *d, int arg)
{
	static struct agx_sched *conns[PROC_CONNS + 1];
	struct tc c;
	uint32_t q;
	int ret;

	(void)arg;
	CHECK(child_client(d, &c) == 0, 2); /* the first connection, with a VM and a queue */
	conns[0] = c.s;
	for (unsigned i = 1; i < PROC_CONNS; i++)
		CHECK(agx_sched_connect(d->sched, "many", &conns[i]) == 0, 3);
	ret = agx_sched_connect(d->sched, "one-too-many", &conns[PROC_CONNS]);
	CHECK(ret == -EDQUOT, 4);
	agx_sched_disconnect(conns[PROC_CONNS - 1]);
	/* the scheduler frees the client at its loop turn's end: try for a while */
	for (unsigned tries = 0; tries < 1000; tries++) {
		ret = agx_sched_connect(d->sched, "again", &conns[PROC_CONNS - 1]);
		if (ret != -EDQUOT)
			break;
		usleep(1000);
	}
	CHECK(ret == 0, 5);
	/* queues: the first connection has one; the rest, alternately on two connections */
	for (unsigned i = 1; i < PROC_QUEUES; i++)
		CHECK(agx_sched_queue_create(conns[i % 2], c.vm, AGX_PRIORITY_NORMAL, &q) == 0, 6);
	CHECK(agx_sched_queue_create(conns[2], c.vm, AGX_PRIORITY_NORMAL, &q) == -EDQUOT, 7);
	CHECK(strstr(agx_sched_error(conns[2]), "a process may have") != NULL, 8);
	for (unsigned i = 1; i < PROC_CONNS; i++)
		agx_sched_disconnect(conns[i]);
	tc_fini(&c);
	return 0;
}

static void test_process_limits(void **state)
{
	pid_t pid = spawn(*state, many_connections, 0);
	int status = reap(pid);
	struct agx_sched_cmd cmd;
	uint32_t t;
	struct tc c;

	if (status)
		fail_msg("the process of many connections: status %d", status);
	/* another process is served as ever */
	tc_init(*state, &c, AGX_PRIORITY_NORMAL);
	t = syncobj(&c);
	memset(buf(&c, 0), 0, 3 * BUF_SIZE);
	cmd = sum(&c, buf_va(&c, 1), buf_va(&c, 2), buf_va(&c, 0), 7);
	submit(&c, c.queue, &cmd, NULL, 0, &(struct agx_sched_point){ t, 1 }, 1);
	assert_int_equal(wait_point(&c, t, 1), 0);
	expect_words(buf(&c, 0), 7);
	tc_fini(&c);
}

/* --- more contexts than the firmware holds ------------------------------------------------ */

#define FLOOD_CONNS   48 /* x 64 queues: 3,072 contexts, more than fwchan's table and memory */
#define FLOOD_QUEUES  64
#define FLOOD_WAIT_NS (120ll * 1000 * 1000 * 1000)

/*
 * A client process that asks for a context per queue, FLOOD_CONNS
 * connections of FLOOD_QUEUES queues with one empty job each, and checks
 * that every job ends -- done, or refused its context (-ENOSPC, -ENOMEM):
 * none hangs.  It says on ready once half of them are submitted.
 */
static int flood_client(const struct test_stack *d, int ready)
{
	struct agx_sched *conns[FLOOD_CONNS];
	struct agx_sched_cmd cmd;
	struct agx_memory *mem;
	struct agx_bo bo;
	uint32_t vm, obj[FLOOD_CONNS];
	uint64_t va;

	CHECK(agx_memory_connect(d->memmgr, &mem) == 0, 1);
	CHECK(agx_vm_create(mem, &vm) == 0, 2);
	CHECK(agx_bo_create(mem, PAGE, 0, 0, &bo) == 0, 3);
	CHECK(agx_vm_bind(mem, vm, &bo, 0, PAGE, 0,
			  AGX_BIND_READ | AGX_BIND_WRITE | AGX_BIND_ALLOCATE_VA, &va) == 0,
	      4);
	agx_cdm_terminate(bo.map);
	cmd = agx_sched_cmd_compute((struct agx_sched_compute){ va, va + 16, va });
	for (unsigned i = 0; i < FLOOD_CONNS; i++) {
		CHECK(agx_sched_connect(d->sched, "flood", &conns[i]) == 0, 5);
		CHECK(agx_sched_syncobj_create(conns[i], &obj[i]) == 0, 6);
		for (unsigned j = 0; j < FLOOD_QUEUES; j++) {
			uint32_t q;

			CHECK(agx_sched_queue_create(conns[i], vm, AGX_PRIORITY_NORMAL, &q) == 0,
			      7);
			CHECK(agx_sched_submit(conns[i], q, &cmd, 1, NULL, 0,
					       &(struct agx_sched_point){ obj[i], j + 1 }, 1,
					       NULL) == 0,
			      8);
		}
		if (i == FLOOD_CONNS / 2)
			CHECK(write(ready, "r", 1) == 1, 9);
	}
	for (unsigned i = 0; i < FLOOD_CONNS; i++)
		for (unsigned j = 0; j < FLOOD_QUEUES; j++) {
			int status = 1;

			CHECK(agx_sched_wait(conns[i], &(struct agx_sched_point){ obj[i], j + 1 },
					     1, true, FLOOD_WAIT_NS, NULL, &status) == 0,
			      10);
			CHECK(status == 0 || status == -ENOSPC || status == -ENOMEM, 11);
		}
	for (unsigned i = 0; i < FLOOD_CONNS; i++)
		agx_sched_disconnect(conns[i]);
	agx_bo_close(mem, &bo);
	agx_memory_disconnect(mem);
	return 0;
}

/*
 * A client floods the firmware with contexts: the scheduler neither spins
 * nor hangs anyone.  A good client beside it, with its queue's context
 * made before the flood, runs its jobs with the right results meanwhile,
 * and every job of the flood ends.
 */
static void test_context_flood(void **state)
{
	const struct test_stack *d = *state;
	struct agx_sched_cmd step[2];
	struct pollfd p;
	int ready[2];
	uint32_t t;
	pid_t pid;
	struct tc c;

	tc_init(d, &c, AGX_PRIORITY_NORMAL);
	t = syncobj(&c);
	memset(buf(&c, 0), 0, 3 * BUF_SIZE);
	step[0] = sum(&c, buf_va(&c, 1), buf_va(&c, 2), buf_va(&c, 0), 3);
	step[1] = sum(&c, buf_va(&c, 0), buf_va(&c, 2), buf_va(&c, 1), 3);
	submit(&c, c.queue, &step[1], NULL, 0, &(struct agx_sched_point){ t, 1 }, 1);
	assert_int_equal(wait_point(&c, t, 1), 0);

	assert_int_equal(pipe(ready), 0);
	pid = spawn(d, flood_client, ready[1]);
	close(ready[1]);
	p = (struct pollfd){ .fd = ready[0], .events = POLLIN };
	/* bounded: the flood's first half submitted, or the child gone */
	assert_int_equal(poll(&p, 1, 120000), 1);
	close(ready[0]);
	/* a chain of 20 jobs, each waited for, while the flood goes on */
	for (unsigned k = 2; k <= 21; k++) {
		submit(&c, c.queue, &step[k % 2], NULL, 0, &(struct agx_sched_point){ t, k }, 1);
		assert_int_equal(wait_point(&c, t, k), 0);
	}
	/* 21 steps of adding 3: the last written buffer holds 63 in every word */
	expect_words(buf(&c, 1), 63);
	assert_int_equal(reap(pid), 0);
	/* and after it, as before */
	submit(&c, c.queue, &step[0], NULL, 0, &(struct agx_sched_point){ t, 22 }, 1);
	assert_int_equal(wait_point(&c, t, 22), 0);
	expect_words(buf(&c, 0), 66);
	tc_fini(&c);
}

/*
 * 1,024 connections that never say HELLO take every one of the
 * scheduler's slots; the HELLO deadline (AGX_IPC_HELLO_TIMEOUT_MS, 5 s)
 * closes them, and a good client then connects and runs a job.
 */
static void test_idle_connections(void **state)
{
	enum { IDLE = 1024 };
	const struct test_stack *d = *state;
	struct sockaddr_un addr = { .sun_family = AF_UNIX };
	int *idle = calloc(IDLE, sizeof(*idle)), ret = 1;
	struct agx_sched_cmd cmd;
	uint32_t t;
	struct tc c;

	assert_non_null(idle);
	strcpy(addr.sun_path, d->sched);
	for (unsigned i = 0; i < IDLE; i++) {
		idle[i] = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0);
		assert_true(idle[i] >= 0);
		assert_int_equal(connect(idle[i], (struct sockaddr *)&addr, sizeof(addr)), 0);
	}
	/* bounded: 60 s of tries, twelve times the deadline; BUSY while they hold the slots */
	for (int tries = 0; tries < 600 && ret; tries++) {
		ret = tc_open(d, &c, "after-idle", AGX_PRIORITY_NORMAL);
		if (ret) {
			if (ret == 2)
				tc_fini(&c);
			usleep(100000);
		}
	}
	assert_int_equal(ret, 0);
	t = syncobj(&c);
	for (unsigned i = 0; i < THREADS; i++)
		buf(&c, 0)[i] = i;
	cmd = sum(&c, buf_va(&c, 0), buf_va(&c, 0), buf_va(&c, 1), 1);
	submit(&c, c.queue, &cmd, NULL, 0, &(struct agx_sched_point){ t, 1 }, 1);
	assert_int_equal(wait_point(&c, t, 1), 0);
	for (unsigned i = 0; i < THREADS; i++)
		assert_int_equal(buf(&c, 1)[i], 2 * i + 1);
	tc_fini(&c);
	/* each idle one was closed: its end of the socket reads the error, then the end */
	for (unsigned i = 0; i < IDLE; i++) {
		char frame[512];
		struct timeval tv = { 10, 0 };

		setsockopt(idle[i], SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
		assert_true(recv(idle[i], frame, sizeof(frame), 0) > 0);
		assert_int_equal(recv(idle[i], frame, sizeof(frame), 0), 0);
		close(idle[i]);
	}
	free(idle);
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_job),
		cmocka_unit_test(test_refused),
		cmocka_unit_test(test_async),
		cmocka_unit_test(test_realtime_refused),
		cmocka_unit_test(test_chain),
		cmocka_unit_test(test_diamond),
		cmocka_unit_test(test_export_import),
		cmocka_unit_test(test_export_to_process),
		cmocka_unit_test(test_isolation),
		cmocka_unit_test(test_metrics),
		cmocka_unit_test(test_killed_client),
		cmocka_unit_test(test_many_clients),
		cmocka_unit_test(test_priorities),
		cmocka_unit_test(test_fairness),
		cmocka_unit_test(test_device_lost),
		cmocka_unit_test(test_context_flood),
		cmocka_unit_test(test_process_limits),
		cmocka_unit_test(test_idle_connections),
	};

	if (argc != 5) {
		fprintf(stderr, "usage: %s AGX-SIM AGX-MEMMGR AGX-FWCHAN AGX-SCHEDULER\n", argv[0]);
		return 2;
	}
	for (int i = 0; i < 4; i++)
		stack_options.paths[i] = argv[i + 1];
	signal(SIGPIPE, SIG_IGN);
	return cmocka_run_group_tests(tests, setup, teardown);
}
