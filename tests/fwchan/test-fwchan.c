/*
 * test-fwchan: agx-fwchan as it runs, between a real agx-sim and a real
 * agx-memmgr: the boot (RTKit, then the GPU firmware on initdata and
 * channels in memory memmgr gave it and page tables memmgr wrote), and the
 * firmware control channel it carries for memmgr, and compute work from
 * a client's VM carried for the scheduler (the test plays the scheduler):
 * run, faulted, refused, and 100,000 of them, each with GPU times that fit
 * its submission; recoveries announced to every connection; and fwchan
 * exiting, saying why, when agx-memmgr or agx-sim goes, and the chain
 * started again serving.
 *
 *   test-fwchan AGX-SIM AGX-MEMMGR AGX-FWCHAN
 */
#include <errno.h>
#include <poll.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "agx/memory.h"
#include "agxipc/client.h"
#include "daemons.h"
#include "asm.h"
#include "agx/cmd.h"
#include "agx_cmdbuf.h"
#include "host/scene.h"
#include "sanitized.h"

#define PAGE	   0x4000ull
#define TIMEOUT_MS 10000

static const char *sim_path, *memmgr_path, *fwchan_path;

struct daemons {
	char dir[64], sim[108], memmgr[108], privileged[108], fwchan[108], log[108];
	pid_t sim_pid, memmgr_pid, fwchan_pid;
};

static void spawn_memmgr(struct daemons *d)
{
	d->memmgr_pid = daemon_spawn((char *[]){ (char *)memmgr_path, "--socket", d->memmgr,
						 "--privileged-socket", d->privileged, "--device",
						 d->sim, "--fwchan", d->fwchan, NULL });
}

/* fwchan's stderr goes to d->log when logged, to the test's otherwise. */
static void spawn_fwchan(struct daemons *d, const char *ping_ms, bool logged)
{
	char *argv[] = { (char *)fwchan_path, "--socket",    d->fwchan,	  "--device",	   d->sim,
			 "--memmgr",	      d->privileged, "--ping-ms", (char *)ping_ms, NULL };

	d->fwchan_pid = daemon_spawn_logged(argv, logged ? d->log : NULL);
}

/* The daemons, fwchan pinging its firmware every ping_ms. */
static int start_logged(void **state, const char *ping_ms, bool logged)
{
	struct daemons *d = calloc(1, sizeof(*d));

	snprintf(d->dir, sizeof(d->dir), "/tmp/agx-fwchan-XXXXXX");
	assert_non_null(mkdtemp(d->dir));
	snprintf(d->sim, sizeof(d->sim), "%s/sim.sock", d->dir);
	snprintf(d->memmgr, sizeof(d->memmgr), "%s/memmgr.sock", d->dir);
	snprintf(d->privileged, sizeof(d->privileged), "%s/memmgr-priv.sock", d->dir);
	snprintf(d->fwchan, sizeof(d->fwchan), "%s/fwchan.sock", d->dir);
	snprintf(d->log, sizeof(d->log), "%s/fwchan.log", d->dir);
	d->sim_pid =
	    daemon_spawn((char *[]){ (char *)sim_path, "--socket", d->sim, "--memory-size",
				     "0x10000000", "--cores", "2", "--test-faults", NULL });
	spawn_memmgr(d);
	daemon_wait_socket(d->privileged, TIMEOUT_MS);
	spawn_fwchan(d, ping_ms, logged);
	/* fwchan listens once the firmware runs */
	daemon_wait_socket(d->fwchan, TIMEOUT_MS);
	*state = d;
	return 0;
}

static int start(void **state, const char *ping_ms)
{
	return start_logged(state, ping_ms, false);
}

/* fwchan's log in a file, for the test to read. */
static int setup_logged(void **state)
{
	return start_logged(state, "1000", true);
}

/* Pings at fwchan's default pace: a busy machine never looks like a hung firmware. */
static int setup(void **state)
{
	return start(state, "1000");
}

/* Pings every 50 ms: a hang found in a fraction of a second. */
static int setup_fast_ping(void **state)
{
	return start(state, "50");
}

static int teardown(void **state)
{
	struct daemons *d = *state;
	bool clean = daemons_stop((pid_t[]){ d->fwchan_pid, d->memmgr_pid, d->sim_pid }, 3);
	char cmd[512];

	snprintf(cmd, sizeof(cmd), "rm -f %s/fwchan-crash-*.bin %s/*.sock %s", d->dir, d->dir,
		 d->log);
	assert_int_equal(system(cmd), 0);
	rmdir(d->dir);
	free(d);
	assert_true(clean);
	return 0;
}

static struct agx_ipc_client *connect_fwchan(const struct daemons *d)
{
	struct agx_ipc_client *c;

	assert_int_equal(agx_ipc_client_connect(d->fwchan, AGX__IPC__INTERFACE__INTERFACE_FWCHAN,
						"test", TIMEOUT_MS, &c, NULL),
			 0);
	return c;
}

static int call(struct agx_ipc_client *c, uint16_t type, const ProtobufCMessage *body,
		struct agx_ipc_error *err)
{
	struct agx_ipc_msg reply;
	int ret = agx_ipc_client_call(c, type, body, NULL, 0, &reply, TIMEOUT_MS, err);

	if (ret == 0)
		agx_ipc_msg_finish(&reply);
	return ret;
}

/* TLB invalidation and cache flushes, acknowledged by the firmware; bad ones refused. */
static void test_fwctl(void **state)
{
	struct daemons *d = *state;
	struct agx_ipc_client *c = connect_fwchan(d);
	Agx__Fwchan__TlbInvalidate t = AGX__FWCHAN__TLB_INVALIDATE__INIT;
	Agx__Fwchan__CacheFlush flush = AGX__FWCHAN__CACHE_FLUSH__INIT;
	Agx__Fwchan__Submit submit = AGX__FWCHAN__SUBMIT__INIT;
	struct agx_ipc_error err;

	t.context_slot = 3;
	t.va = 0x100000000ull;
	t.size = 2 * PAGE;
	assert_int_equal(call(c, AGX_IPC_MSG_FWCHAN_TLB_INVALIDATE, &t.base, &err), 0);
	t.size = 0; /* the whole context */
	assert_int_equal(call(c, AGX_IPC_MSG_FWCHAN_TLB_INVALIDATE, &t.base, &err), 0);
	assert_int_equal(call(c, AGX_IPC_MSG_FWCHAN_CACHE_FLUSH, &flush.base, &err), 0);
	t.va = 0x100001000ull;
	t.size = PAGE;
	assert_int_equal(call(c, AGX_IPC_MSG_FWCHAN_TLB_INVALIDATE, &t.base, &err), -EINVAL);
	assert_non_null(strstr(err.message, "16 KiB"));
	t.va = 0;
	t.context_slot = 64;
	assert_int_equal(call(c, AGX_IPC_MSG_FWCHAN_TLB_INVALIDATE, &t.base, &err), -EINVAL);
	/* a context that does not exist */
	submit.context = 99;
	assert_int_equal(call(c, AGX_IPC_MSG_FWCHAN_SUBMIT, &submit.base, &err), -ENOENT);
	agx_ipc_client_destroy(c);
}

/*
 * A burst of invalidations sent without waiting: more than the fwctl
 * channel holds, so some wait for room; every one is answered, once.
 */
static void test_fwctl_burst(void **state)
{
	struct daemons *d = *state;
	struct agx_ipc_client *c = connect_fwchan(d);
	Agx__Fwchan__TlbInvalidate t = AGX__FWCHAN__TLB_INVALIDATE__INIT;
	int fd = agx_ipc_client_fd(c);
	static uint8_t seen[1001];
	unsigned replies = 0;

	memset(seen, 0, sizeof(seen));
	for (uint32_t id = 1; id <= 1000; id++) {
		t.context_slot = id % 64;
		t.va = id * PAGE;
		t.size = PAGE;
		while (agx_ipc_send(fd, AGX_IPC_MSG_FWCHAN_TLB_INVALIDATE, 0, 1000000 + id, &t.base,
				    NULL, 0) == -EAGAIN) {
			struct pollfd p = { .fd = fd, .events = POLLOUT };

			poll(&p, 1, TIMEOUT_MS);
		}
	}
	while (replies < 1000) {
		uint8_t buf[AGX_IPC_MAX_FRAME];
		struct pollfd p = { .fd = fd, .events = POLLIN };
		struct agx_ipc_msg msg;
		int fds[AGX_IPC_MAX_FDS];
		unsigned num_fds = 0;
		ssize_t n;

		assert_int_equal(poll(&p, 1, TIMEOUT_MS), 1);
		n = agx_ipc_recv_frame(fd, buf, fds, &num_fds);
		if (n == -EAGAIN)
			continue;
		assert_true(n > 0);
		assert_int_equal(agx_ipc_decode(buf, (size_t)n, fds, num_fds, &msg, NULL), 0);
		assert_int_equal(msg.flags, AGX_IPC_FLAG_REPLY);
		assert_true(msg.request_id > 1000000 && msg.request_id <= 1001000);
		assert_int_equal(seen[msg.request_id - 1000000]++, 0);
		agx_ipc_msg_finish(&msg);
		replies++;
	}
	agx_ipc_client_destroy(c);
}

/* --- compute work ---------------------------------------------------------------------- */

/* Each thread stores its index plus u2 at u0_u1[index] (64 threads a row of the grid). */
static const char store_kernel[] = "get_sr r1, sr80\n"
				   "get_sr r4, sr81\n"
				   "mov_imm r5, 64\n"
				   "imadd r1, r4, r5, r1\n"
				   "iadd r2, r1, u2\n"
				   "device_store 0, i32, x, r2, u0_u1, r1, unsigned, 0\n"
				   "stop";

/* CLOCK_MONOTONIC in nanoseconds: agx-sim's device timer is this clock. */
static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* A submission in flight: its jobs, and the time just before it was sent. */
struct sent {
	uint64_t first_job, last_job, ns;
};

#define SENT_MAX 2048 /* submissions in flight at once: fwchan holds 65,535 items */

/* A client's VM with code, a stream and uniforms, and an output buffer; a slot and a context. */
struct client {
	struct agx_memory *mem;
	struct agx_ipc_client *priv, *fw;
	struct agx_bo code, data;
	uint32_t vm, context;
	uint64_t code_va, data_va;
	unsigned slot;
	/* the events: completions by job id, faults */
	uint64_t completed, results[8], last_job;
	unsigned count_by_job[8];
	unsigned faults;
	Agx__Fwchan__FaultEvent fault;
	char fault_unit[16];
	unsigned lost;
	char lost_reason[128];
	uint64_t lost_jobs[8];
	size_t n_lost_jobs;
	/* DEVICE_READY: how many, the count it carried, whether DEVICE_LOST came first */
	unsigned ready, ready_recoveries;
	bool ready_after_lost;
	/* submit()'s submissions not completed yet, oldest first; the GPU times checked */
	struct sent sent[SENT_MAX];
	unsigned sent_head, sent_tail;
	uint64_t last_end_ns;
	uint64_t timed, timed_since_sent;
};

#define STREAM 0x0000 /* in the data BO */
#define UNIF   0x1000
#define BUF    0x4000

/*
 * A completion's GPU times: 0 for an item the device lost; otherwise it
 * started no earlier than its submission was sent (when submit() sent it),
 * ended no later than the completion was received, and started no earlier
 * than the one before it on the queue ended (a client's items here all go
 * to one queue of its context).
 */
static void check_times(struct client *c, const Agx__Fwchan__Completion *e, uint64_t received)
{
	const struct sent *in = NULL;

	while (c->sent_head != c->sent_tail &&
	       c->sent[c->sent_head % SENT_MAX].last_job < e->job_id)
		c->sent_head++;
	if (c->sent_head != c->sent_tail && c->sent[c->sent_head % SENT_MAX].first_job <= e->job_id)
		in = &c->sent[c->sent_head % SENT_MAX];
	if (e->result == AGX__FWCHAN__WORK_RESULT__RESULT_DEVICE_LOST) {
		assert_int_equal(e->gpu_start_ns, 0);
		assert_int_equal(e->gpu_end_ns, 0);
		return;
	}
	if (!e->gpu_start_ns || e->gpu_start_ns > e->gpu_end_ns || e->gpu_end_ns > received ||
	    e->gpu_start_ns < c->last_end_ns || (in && e->gpu_start_ns < in->ns))
		fail_msg("job %llu: GPU %llu..%llu ns; sent %llu, received %llu, the one before "
			 "ended %llu",
			 (unsigned long long)e->job_id, (unsigned long long)e->gpu_start_ns,
			 (unsigned long long)e->gpu_end_ns, (unsigned long long)(in ? in->ns : 0),
			 (unsigned long long)received, (unsigned long long)c->last_end_ns);
	c->last_end_ns = e->gpu_end_ns;
	c->timed++;
	c->timed_since_sent += in != NULL;
}

static void on_event(struct agx_ipc_msg *msg, void *data)
{
	struct client *c = data;
	uint64_t received = now_ns();

	if (msg->type == AGX_IPC_MSG_FWCHAN_COMPLETION) {
		const Agx__Fwchan__CompletionEvent *batch = (const void *)msg->body;

		for (size_t i = 0; i < batch->n_completions; i++) {
			const Agx__Fwchan__Completion *e = batch->completions[i];

			/* one queue's items complete in order */
			if (c->completed && e->job_id >= 100)
				assert_true(e->job_id > c->last_job);
			check_times(c, e, received);
			c->completed++;
			c->last_job = e->job_id;
			if (e->job_id < 8) {
				c->count_by_job[e->job_id]++;
				c->results[e->job_id] = e->result;
			}
		}
	} else if (msg->type == AGX_IPC_MSG_FWCHAN_FAULT) {
		const Agx__Fwchan__FaultEvent *f = (const void *)msg->body;

		c->faults++;
		c->fault = *f;
		snprintf(c->fault_unit, sizeof(c->fault_unit), "%s", f->unit);
	} else if (msg->type == AGX_IPC_MSG_FWCHAN_DEVICE_LOST) {
		const Agx__Fwchan__DeviceLostEvent *l = (const void *)msg->body;

		c->lost++;
		snprintf(c->lost_reason, sizeof(c->lost_reason), "%s", l->reason);
		c->n_lost_jobs = l->n_lost_job_ids < 8 ? l->n_lost_job_ids : 8;
		if (c->n_lost_jobs)
			memcpy(c->lost_jobs, l->lost_job_ids, c->n_lost_jobs * sizeof(uint64_t));
	} else if (msg->type == AGX_IPC_MSG_FWCHAN_DEVICE_READY) {
		const Agx__Fwchan__DeviceReadyEvent *r = (const void *)msg->body;

		c->ready++;
		c->ready_recoveries = r->recoveries;
		c->ready_after_lost = c->lost > 0;
	}
}

static void client_init(const struct daemons *d, struct client *c)
{
	Agx__Memmgr__VmSlotBind sb = AGX__MEMMGR__VM_SLOT_BIND__INIT;
	Agx__Fwchan__ContextCreate cc = AGX__FWCHAN__CONTEXT_CREATE__INIT;
	struct agx_ipc_msg reply;
	uint8_t stream[64];
	uint32_t *u;
	size_t n;

	memset(c, 0, sizeof(*c));
	assert_int_equal(agx_memory_connect(d->memmgr, &c->mem), 0);
	assert_int_equal(agx_vm_create(c->mem, &c->vm), 0);
	assert_int_equal(agx_bo_create(c->mem, PAGE, 0, 0, &c->code), 0);
	assert_int_equal(agx_bo_create(c->mem, 8 * PAGE, 0, 0, &c->data), 0);
	assert_int_equal(agx_vm_bind(c->mem, c->vm, &c->code, 0, PAGE, 0,
				     AGX_BIND_READ | AGX_BIND_EXECUTE | AGX_BIND_ALLOCATE_VA,
				     &c->code_va),
			 0);
	assert_int_equal(agx_vm_bind(c->mem, c->vm, &c->data, 0, 8 * PAGE, 0,
				     AGX_BIND_READ | AGX_BIND_WRITE | AGX_BIND_ALLOCATE_VA,
				     &c->data_va),
			 0);
	/* the shader at +0x100 of the code, its pipeline at 0; uniforms: the buffer, a bias */
	test_assemble(store_kernel, (uint8_t *)c->code.map + 0x100, 0x400);
	agx_pipeline_pack(c->code.map, &(struct agx_pipeline){ .code = 0x100,
							       .uniforms = c->data_va + UNIF,
							       .uniform_halves = 6,
							       .shared_size = 512 });
	u = (uint32_t *)((uint8_t *)c->data.map + UNIF);
	u[0] = (uint32_t)(c->data_va + BUF);
	u[1] = (uint32_t)((c->data_va + BUF) >> 32);
	u[2] = 1000;
	n = agx_cdm_launch(stream, 0, 0, (uint32_t[]){ 64, 4, 1 }, (uint32_t[]){ 64, 1, 1 });
	n += agx_cdm_terminate(stream + n);
	memcpy((uint8_t *)c->data.map + STREAM, stream, n);

	assert_int_equal(agx_ipc_client_connect(d->privileged,
						AGX__IPC__INTERFACE__INTERFACE_MEMMGR_PRIVILEGED,
						"scheduler", TIMEOUT_MS, &c->priv, NULL),
			 0);
	sb.client_pid = (uint32_t)getpid();
	sb.vm = c->vm;
	sb.seqno = 1;
	assert_int_equal(agx_ipc_client_call(c->priv, AGX_IPC_MSG_MEMMGR_VM_SLOT_BIND, &sb.base,
					     NULL, 0, &reply, TIMEOUT_MS, NULL),
			 0);
	c->slot = ((const Agx__Memmgr__VmSlotBindReply *)reply.body)->context_slot;
	agx_ipc_msg_finish(&reply);

	c->fw = connect_fwchan(d);
	agx_ipc_client_set_event_handler(c->fw, on_event, c);
	cc.context_slot = c->slot;
	cc.priority = AGX__WORK__PRIORITY__PRIORITY_NORMAL;
	assert_int_equal(agx_ipc_client_call(c->fw, AGX_IPC_MSG_FWCHAN_CONTEXT_CREATE, &cc.base,
					     NULL, 0, &reply, TIMEOUT_MS, NULL),
			 0);
	c->context = ((const Agx__Fwchan__ContextCreateReply *)reply.body)->context;
	agx_ipc_msg_finish(&reply);
}

static void client_fini(struct client *c)
{
	agx_ipc_client_destroy(c->fw);
	agx_ipc_client_destroy(c->priv);
	agx_bo_close(c->mem, &c->code);
	agx_bo_close(c->mem, &c->data);
	agx_memory_disconnect(c->mem);
}

/* Submits items (each the stream at encoder, or the default one) and returns the status. */
static int submit(struct client *c, unsigned count, uint64_t first_job, uint64_t encoder,
		  uint64_t encoder_end, struct agx_ipc_error *err)
{
	Agx__Fwchan__Submit s = AGX__FWCHAN__SUBMIT__INIT;
	Agx__Fwchan__WorkItem items[64], *list[64];
	Agx__Work__Compute body[64];
	int ret;

	assert_true(count <= 64);
	for (unsigned i = 0; i < count; i++) {
		agx__fwchan__work_item__init(&items[i]);
		agx__work__compute__init(&body[i]);
		body[i].encoder = encoder;
		body[i].encoder_end = encoder_end;
		body[i].usc_base = c->code_va;
		items[i].kind = AGX__FWCHAN__WORK_KIND__WORK_COMPUTE;
		items[i].job_id = first_job + i;
		items[i].work_case = AGX__FWCHAN__WORK_ITEM__WORK_COMPUTE;
		items[i].compute = &body[i];
		list[i] = &items[i];
	}
	s.context = c->context;
	s.context_slot = c->slot;
	s.items = list;
	s.n_items = count;
	/* in the list before it is sent: its completions may come while the call waits */
	assert_true(c->sent_tail - c->sent_head < SENT_MAX);
	c->sent[c->sent_tail++ % SENT_MAX] =
	    (struct sent){ first_job, first_job + count - 1, now_ns() };
	ret = call(c->fw, AGX_IPC_MSG_FWCHAN_SUBMIT, &s.base, err);
	if (ret < 0)
		c->sent_tail--;
	return ret;
}

static void wait_completed(struct client *c, uint64_t count)
{
	while (c->completed < count)
		if (agx_ipc_client_dispatch_events(c->fw, TIMEOUT_MS) <= 0)
			fail_msg("%llu of %llu completions came", (unsigned long long)c->completed,
				 (unsigned long long)count);
}

/* A dispatch of 256 threads from a client's VM runs, and its results are in the client's BO. */
static void test_compute(void **state)
{
	struct daemons *d = *state;
	struct agx_ipc_error err;
	struct client c;
	uint64_t stream = 0;

	client_init(d, &c);
	stream = c.data_va + STREAM;
	assert_int_equal(submit(&c, 1, 1, stream, stream + 64, &err), 0);
	wait_completed(&c, 1);
	assert_int_equal(c.count_by_job[1], 1);
	assert_int_equal(c.results[1], AGX__FWCHAN__WORK_RESULT__RESULT_OK);
	for (unsigned i = 0; i < 256; i++)
		assert_int_equal(((uint32_t *)((uint8_t *)c.data.map + BUF))[i], 1000 + i);

	/* the same pipeline with the buffer pointer past the VM: a fault, attributed */
	((uint32_t *)((uint8_t *)c.data.map + UNIF))[1] ^= 0x40;
	assert_int_equal(submit(&c, 1, 2, stream, stream + 64, &err), 0);
	wait_completed(&c, 2);
	assert_int_equal(c.results[2], AGX__FWCHAN__WORK_RESULT__RESULT_FAULT);
	assert_int_equal(c.faults, 1);
	assert_int_equal(c.fault.job_id, 2);
	assert_int_equal(c.fault.context_slot, c.slot);
	assert_int_equal(c.fault.reason, AGX__FWCHAN__FAULT_REASON__FAULT_UNMAPPED);
	assert_true(c.fault.write);
	assert_string_equal(c.fault_unit, "usc");
	assert_int_equal(c.fault.client_pid, getpid());
	assert_int_equal(c.fault.bo, 0); /* nothing is mapped there */
	((uint32_t *)((uint8_t *)c.data.map + UNIF))[1] ^= 0x40;

	/* descriptors that do not fit the VM are refused before the firmware sees them */
	assert_int_equal(submit(&c, 1, 3, 0x7000000000ull, 0x7000000040ull, &err), -ENOENT);
	assert_non_null(strstr(err.message, "not mapped"));
	assert_int_equal(submit(&c, 1, 3, c.code_va + 0x100, c.code_va + 0x200, &err), 0);
	assert_int_equal(submit(&c, 1, 4, stream + 2, stream + 64, &err), -EINVAL);
	assert_int_equal(submit(&c, 1, 4, stream + 64, stream, &err), -EINVAL);
	assert_int_equal(submit(&c, 1, 4, stream, stream + 8 * PAGE + 4, &err), -ENOENT);
	/* job 3's stream is code: malformed as a stream, or faulting, never run as ok */
	wait_completed(&c, 3);
	assert_int_equal(c.count_by_job[3], 1);
	assert_true(c.results[3] != AGX__FWCHAN__WORK_RESULT__RESULT_OK);

	/*
	 * fwchan remembers what memmgr said is mapped; an unbind reaches it as
	 * an invalidation first, so the stream, once unbound, is refused again
	 */
	assert_int_equal(submit(&c, 1, 5, stream, stream + 64, &err), 0);
	wait_completed(&c, 4);
	assert_int_equal(agx_vm_unbind(c.mem, c.vm, c.data_va, PAGE), 0);
	assert_int_equal(submit(&c, 1, 6, stream, stream + 64, &err), -ENOENT);
	/* every completion's GPU times were checked against its own submission */
	assert_int_equal(c.timed, 4);
	assert_int_equal(c.timed_since_sent, 4);
	client_fini(&c);
}

/* 100,000 items, 64 a submission: every one completes exactly once, in order. */
static void test_many_items(void **state)
{
	struct daemons *d = *state;
	struct agx_ipc_error err;
	struct client c;
	uint64_t stream, submitted = 0;
	uint8_t words[16];
	size_t n = agx_cdm_terminate(words);

	client_init(d, &c);
	/* an empty stream: only its end */
	stream = c.data_va + STREAM + 0x100;
	memcpy((uint8_t *)c.data.map + STREAM + 0x100, words, n);
	while (submitted < 100000) {
		int ret = submit(&c, 64, 100 + submitted, stream, stream + n, &err);

		if (ret == -EBUSY) { /* as many in flight as fwchan holds: let some finish */
			agx_ipc_client_dispatch_events(c.fw, TIMEOUT_MS);
			continue;
		}
		assert_int_equal(ret, 0);
		submitted += 64;
		/* the next job in order is always the one after the last completed */
		agx_ipc_client_dispatch_events(c.fw, 0);
	}
	wait_completed(&c, submitted);
	assert_int_equal(c.completed, submitted);
	assert_int_equal(c.last_job, 100 + submitted - 1);
	/* each ran inside its submission's life, one after another */
	assert_int_equal(c.timed, submitted);
	assert_int_equal(c.timed_since_sent, submitted);
	client_fini(&c);
}

/*
 * A render from a client's VM: the textbook scene (sim/host/scene.c) built
 * into the client's BOs, one red triangle over half of a 64x64 image,
 * submitted as a render item; the image read back from the BO holds red
 * and the clear colour only, about half each.
 */
/* The fwchan message of a render the scene built. */
static void render_body(const struct agx_fw_work_render *r, Agx__Work__Render *body)
{
	agx__work__render__init(body);
	body->encoder = r->encoder;
	body->encoder_end = r->encoder_end;
	body->usc_base = r->usc_base;
	body->tvb = r->tvb;
	body->tvb_size = (uint32_t)r->tvb_size;
	body->width = (uint32_t)r->width;
	body->height = (uint32_t)r->height;
	body->samples = (uint32_t)r->samples;
	body->utile_width = (uint32_t)r->utile_width;
	body->utile_height = (uint32_t)r->utile_height;
	body->sample_size = (uint32_t)r->sample_size;
	body->load_pipeline = (uint32_t)r->load_pipeline;
	body->load_pipeline_bind = (uint32_t)r->load_pipeline_bind;
	body->store_pipeline = (uint32_t)r->store_pipeline;
	body->store_pipeline_bind = (uint32_t)r->store_pipeline_bind;
	body->zls_control = r->zls_control;
	body->scissor_array = r->scissor_array;
	body->scissor_count = (uint32_t)r->scissor_count;
}

/* Submits one render as job; the call's status. */
static int submit_render(struct client *c, Agx__Work__Render *body, uint64_t job,
			 struct agx_ipc_error *err)
{
	Agx__Fwchan__Submit s = AGX__FWCHAN__SUBMIT__INIT;
	Agx__Fwchan__WorkItem item = AGX__FWCHAN__WORK_ITEM__INIT, *list[1] = { &item };

	item.kind = AGX__FWCHAN__WORK_KIND__WORK_RENDER;
	item.job_id = job;
	item.work_case = AGX__FWCHAN__WORK_ITEM__WORK_RENDER;
	item.render = body;
	s.context = c->context;
	s.context_slot = c->slot;
	s.items = list;
	s.n_items = 1;
	return call(c->fw, AGX_IPC_MSG_FWCHAN_SUBMIT, &s.base, err);
}

/* A client's memory for a render of the scene's: its code, data and TVB heap, a 64x64 target. */
struct render_rig {
	struct agx_bo code, data, tvb;
	uint64_t code_va, data_va, tvb_va;
	struct sim_scene scene;
	struct sim_scene_target t;
};

static void bind(struct client *c, struct agx_bo *bo, size_t size, uint32_t flags, uint64_t *va)
{
	assert_int_equal(agx_bo_create(c->mem, size, 0, 0, bo), 0);
	assert_int_equal(agx_vm_bind(c->mem, c->vm, bo, 0, bo->size, 0,
				     flags | AGX_BIND_READ | AGX_BIND_ALLOCATE_VA, va),
			 0);
}

static void rig_init(struct client *c, struct render_rig *g)
{
	static const uint8_t zeros[64 * 256];
	char why[128];

	memset(g, 0, sizeof(*g));
	bind(c, &g->code, 4 * PAGE, AGX_BIND_EXECUTE, &g->code_va);
	bind(c, &g->data, 16 * PAGE, AGX_BIND_WRITE, &g->data_va);
	bind(c, &g->tvb, 16 * PAGE, AGX_BIND_WRITE, &g->tvb_va);
	if (!sim_scene_init(
		&g->scene, (struct sim_arena){ g->code.map, g->code_va, (uint32_t)g->code.size, 0 },
		(struct sim_arena){ g->data.map, g->data_va, (uint32_t)g->data.size, 0 }, why,
		sizeof(why)))
		fail_msg("%s", why);
	g->t = (struct sim_scene_target){ .width = 64,
					  .height = 64,
					  .stride = 256,
					  .tile_w = 32,
					  .tile_h = 32,
					  .tvb = g->tvb_va,
					  .tvb_size = (uint32_t)g->tvb.size };
	g->t.va = sim_arena_put(&g->scene.data, zeros, sizeof(zeros), 128);
}

static void rig_fini(struct client *c, struct render_rig *g)
{
	agx_bo_close(c->mem, &g->code);
	agx_bo_close(c->mem, &g->data);
	agx_bo_close(c->mem, &g->tvb);
}

static void test_render(void **state)
{
	static const float tri[3][8] = { { -1, -1, 0, 1, 1, 0, 0, 1 },
					 { 1, -1, 0, 1, 1, 0, 0, 1 },
					 { -1, 1, 0, 1, 1, 0, 0, 1 } };
	struct daemons *d = *state;
	Agx__Work__Render body;
	struct sim_scene_draw draw = { .vertices = tri,
				       .num_vertices = 3,
				       .primitive = AGX_CMD_PRIMITIVE_TRIANGLES,
				       .count = 3 };
	struct agx_fw_work_render r;
	struct agx_ipc_error err;
	unsigned red = 0, clear = 0;
	const uint32_t *image;
	struct render_rig g;
	struct client c;

	client_init(d, &c);
	rig_init(&c, &g);
	assert_true(sim_scene_render(&g.scene, &g.t, &draw, 1, &r));
	render_body(&r, &body);
	assert_int_equal(submit_render(&c, &body, 1, &err), 0);
	wait_completed(&c, 1);
	assert_int_equal(c.results[1], AGX__FWCHAN__WORK_RESULT__RESULT_OK);
	image = (const uint32_t *)((const uint8_t *)g.data.map + (g.t.va - g.data_va));
	for (unsigned i = 0; i < 64 * 64; i++) {
		red += image[i] == 0xff0000ffu;
		clear += image[i] == SIM_SCENE_CLEAR;
	}
	assert_int_equal(red + clear, 64 * 64);
	assert_true(red > 64 * 64 * 2 / 5 && red < 64 * 64 * 3 / 5);

	/* a heap past the VM, and a tile size that does not exist, are refused */
	body.tvb = g.tvb_va + g.tvb.size;
	assert_int_equal(submit_render(&c, &body, 2, &err), -ENOENT);
	body.tvb = g.tvb_va;
	body.utile_width = 64;
	assert_int_equal(submit_render(&c, &body, 3, &err), -EINVAL);
	assert_non_null(strstr(err.message, "tiles"));
	rig_fini(&c, &g);
	client_fini(&c);
}

/*
 * A render that takes far longer to bin than three ping periods (50 ms
 * each here) is not a hung firmware: binning runs on the GPU's cores, and
 * the firmware answers its pings meanwhile.  The heap is too small for
 * the draw and the render has no partial pipelines, so it ends as a TVB
 * overflow -- the firmware's verdict, after binning all of it -- and not
 * in a recovery.
 */
static void test_long_binning(void **state)
{
	static const float tri[3][8] = { { 0, 0, 0, 1, 1, 0, 0, 1 },
					 { 0.01f, 0, 0, 1, 1, 0, 0, 1 },
					 { 0, 0.01f, 0, 1, 1, 0, 0, 1 } };
	struct daemons *d = *state;
	Agx__Work__Render body;
	struct sim_scene_draw draw = { .vertices = tri,
				       .num_vertices = 3,
				       .primitive = AGX_CMD_PRIMITIVE_TRIANGLES,
				       .count = 3,
				       .instances = SANITIZED ? 100000 : 1000000 };
	struct agx_fw_work_render r;
	struct agx_ipc_error err;
	struct render_rig g;
	struct client c;
	uint64_t start;

	client_init(d, &c);
	rig_init(&c, &g);
	assert_true(sim_scene_render(&g.scene, &g.t, &draw, 1, &r));
	render_body(&r, &body);
	start = now_ns();
	assert_int_equal(submit_render(&c, &body, 1, &err), 0);
	wait_completed(&c, 1);
	print_message("# %u instances binned in %.0f ms\n", draw.instances,
		      (double)(now_ns() - start) / 1e6);
	assert_int_equal(c.results[1], AGX__FWCHAN__WORK_RESULT__RESULT_TVB_OVERFLOW);
	assert_int_equal(c.lost, 0);
	rig_fini(&c, &g);
	client_fini(&c);
}

/* --- recovery -------------------------------------------------------------------------- */

static void inject(const struct daemons *d, Agx__Device__InjectFault__Kind kind, unsigned count,
		   unsigned delay_ms)
{
	Agx__Device__InjectFault m = AGX__DEVICE__INJECT_FAULT__INIT;
	struct agx_ipc_client *dev;

	assert_int_equal(agx_ipc_client_connect(d->sim, AGX__IPC__INTERFACE__INTERFACE_DEVICE,
						"test", TIMEOUT_MS, &dev, NULL),
			 0);
	m.kind = kind;
	m.count = count;
	m.delay_ms = delay_ms;
	assert_int_equal(call(dev, AGX_IPC_MSG_DEVICE_INJECT_FAULT, &m.base, NULL), 0);
	agx_ipc_client_destroy(dev);
}

/* A connection that has no context: it hears DEVICE_READY all the same. */
static void bystander_init(const struct daemons *d, struct client *b)
{
	memset(b, 0, sizeof(*b));
	b->fw = connect_fwchan(d);
	agx_ipc_client_set_event_handler(b->fw, on_event, b);
}

static void wait_ready(struct client *c)
{
	while (!c->ready)
		if (agx_ipc_client_dispatch_events(c->fw, TIMEOUT_MS) <= 0)
			fail_msg("no DEVICE_READY after the recovery");
}

/*
 * After the recovery, DEVICE_READY reaches the context's owner, after its
 * DEVICE_LOST, and the bystander, which heard of no loss; once it has
 * come, job is accepted at the first try, and runs.
 */
static void submit_after_ready(struct client *c, struct client *bystander, uint64_t job)
{
	uint64_t stream = c->data_va + STREAM;
	struct agx_ipc_error err;

	wait_ready(c);
	assert_int_equal(c->ready, 1);
	assert_true(c->ready_after_lost);
	assert_int_equal(c->ready_recoveries, 1);
	wait_ready(bystander);
	assert_int_equal(bystander->ready, 1);
	assert_int_equal(bystander->lost, 0);
	assert_int_equal(bystander->ready_recoveries, 1);
	assert_int_equal(submit(c, 1, job, stream, stream + 64, &err), 0);
	wait_completed(c, c->completed + 1);
	assert_int_equal(c->results[job], AGX__FWCHAN__WORK_RESULT__RESULT_OK);
}

static bool crashlog_saved(const struct daemons *d)
{
	char cmd[512];

	snprintf(cmd, sizeof(cmd), "ls %s/fwchan-crash-*.bin >/dev/null 2>&1", d->dir);
	return system(cmd) == 0;
}

/*
 * A firmware crash with a job in flight: the job's owner hears the device
 * was lost and the job completes as lost, the crashlog is saved, the
 * device reset and the firmware booted again -- fwchan itself goes on --
 * and the next job runs.
 */
static void test_crash_recovery(void **state)
{
	struct daemons *d = *state;
	uint64_t stream;
	struct agx_ipc_error err;
	struct client c, bystander;

	client_init(d, &c);
	bystander_init(d, &bystander);
	stream = c.data_va + STREAM;
	/* job 1 finishes its work and waits 5 s to say so: still in flight at the crash */
	inject(d, AGX__DEVICE__INJECT_FAULT__KIND__KIND_DELAY_COMPLETION, 1, 5000);
	assert_int_equal(submit(&c, 1, 1, stream, stream + 64, &err), 0);
	inject(d, AGX__DEVICE__INJECT_FAULT__KIND__KIND_FIRMWARE_CRASH, 0, 0);
	wait_completed(&c, 1);
	assert_int_equal(c.lost, 1);
	assert_non_null(strstr(c.lost_reason, "crashed"));
	assert_int_equal(c.n_lost_jobs, 1);
	assert_int_equal(c.lost_jobs[0], 1);
	assert_int_equal(c.results[1], AGX__FWCHAN__WORK_RESULT__RESULT_DEVICE_LOST);
	assert_true(crashlog_saved(d));
	memset((uint8_t *)c.data.map + BUF, 0, 1024);
	submit_after_ready(&c, &bystander, 2);
	assert_int_equal(((uint32_t *)((uint8_t *)c.data.map + BUF))[255], 1000 + 255);
	agx_ipc_client_destroy(bystander.fw);
	client_fini(&c);
}

/* A firmware that stops answering is found out by its pings and recovered the same way. */
static void test_hang_recovery(void **state)
{
	struct daemons *d = *state;
	struct client c, bystander;

	client_init(d, &c);
	bystander_init(d, &bystander);
	inject(d, AGX__DEVICE__INJECT_FAULT__KIND__KIND_FIRMWARE_HANG, 0, 0);
	while (!c.lost)
		if (agx_ipc_client_dispatch_events(c.fw, TIMEOUT_MS) <= 0)
			fail_msg("no DEVICE_LOST after the firmware hung");
	assert_non_null(strstr(c.lost_reason, "hangs"));
	assert_int_equal(c.n_lost_jobs, 0);
	submit_after_ready(&c, &bystander, 1);
	agx_ipc_client_destroy(bystander.fw);
	client_fini(&c);
}

/*
 * A firmware that hangs again while it boots after a reset: ten ping
 * periods later fwchan resets it again, and the second boot comes back.
 */
static void test_hang_during_recovery(void **state)
{
	struct daemons *d = *state;
	uint64_t stream;
	struct agx_ipc_error err;
	struct client c;

	client_init(d, &c);
	stream = c.data_va + STREAM;
	inject(d, AGX__DEVICE__INJECT_FAULT__KIND__KIND_HANG_AT_BOOT, 1, 0);
	inject(d, AGX__DEVICE__INJECT_FAULT__KIND__KIND_FIRMWARE_HANG, 0, 0);
	wait_ready(&c);
	assert_int_equal(c.ready, 1);
	assert_int_equal(c.ready_recoveries, 2);
	assert_int_equal(c.lost, 2);
	assert_non_null(strstr(c.lost_reason, "did not come back"));
	assert_int_equal(submit(&c, 1, 1, stream, stream + 64, &err), 0);
	wait_completed(&c, c.completed + 1);
	assert_int_equal(c.results[1], AGX__FWCHAN__WORK_RESULT__RESULT_OK);
	client_fini(&c);
}

/* memmgr's unbinds and slot changes wait for real invalidations now, and get them. */
static void test_memmgr_invalidates(void **state)
{
	struct daemons *d = *state;
	Agx__Memmgr__VmSlotBind sb = AGX__MEMMGR__VM_SLOT_BIND__INIT;
	struct agx_ipc_client *p;
	struct agx_memory *mem;
	struct agx_ipc_msg reply;
	struct agx_bo bo;
	uint32_t vm;
	uint64_t va;

	assert_int_equal(agx_memory_connect(d->memmgr, &mem), 0);
	assert_int_equal(agx_vm_create(mem, &vm), 0);
	assert_int_equal(agx_bo_create(mem, 4 * PAGE, 0, 0, &bo), 0);
	assert_int_equal(agx_vm_bind(mem, vm, &bo, 0, 4 * PAGE, 0,
				     AGX_BIND_READ | AGX_BIND_WRITE | AGX_BIND_ALLOCATE_VA, &va),
			 0);
	assert_int_equal(agx_ipc_client_connect(d->privileged,
						AGX__IPC__INTERFACE__INTERFACE_MEMMGR_PRIVILEGED,
						"test", TIMEOUT_MS, &p, NULL),
			 0);
	sb.client_pid = (uint32_t)getpid();
	sb.vm = vm;
	sb.seqno = 1;
	assert_int_equal(agx_ipc_client_call(p, AGX_IPC_MSG_MEMMGR_VM_SLOT_BIND, &sb.base, NULL, 0,
					     &reply, TIMEOUT_MS, NULL),
			 0);
	agx_ipc_msg_finish(&reply);
	assert_int_equal(agx_vm_unbind(mem, vm, va, 2 * PAGE), 0);
	assert_int_equal(agx_vm_destroy(mem, vm), 0);
	assert_int_equal(agx_bo_close(mem, &bo), 0);
	agx_ipc_client_destroy(p);
	agx_memory_disconnect(mem);
}

/* The status pid exited with, waiting at most TIMEOUT_MS; -1 if it did not exit. */
static int wait_exit(pid_t pid)
{
	struct timespec pause = { .tv_nsec = 10 * 1000 * 1000 };
	int status;

	for (int waited = 0; waited < TIMEOUT_MS; waited += 10) {
		pid_t r = waitpid(pid, &status, WNOHANG);

		if (r == pid)
			return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
		nanosleep(&pause, NULL);
	}
	return -1;
}

static bool log_says(const struct daemons *d, const char *what)
{
	char text[8192];
	FILE *f = fopen(d->log, "r");
	size_t n;

	assert_non_null(f);
	n = fread(text, 1, sizeof(text) - 1, f);
	fclose(f);
	text[n] = '\0';
	return strstr(text, what) != NULL;
}

/* A flush acknowledged by the firmware: fwchan serves, its firmware runs. */
static void expect_served(const struct daemons *d)
{
	Agx__Fwchan__CacheFlush flush = AGX__FWCHAN__CACHE_FLUSH__INIT;
	struct agx_ipc_client *c = connect_fwchan(d);

	assert_int_equal(call(c, AGX_IPC_MSG_FWCHAN_CACHE_FLUSH, &flush.base, NULL), 0);
	agx_ipc_client_destroy(c);
}

/*
 * memmgr killed under fwchan: fwchan's firmware memory went with it, so
 * fwchan exits 1 saying why (its service manager restarts the chain), and
 * the chain started again serves a new client.
 */
static void test_memmgr_gone(void **state)
{
	Agx__Fwchan__CacheFlush flush = AGX__FWCHAN__CACHE_FLUSH__INIT;
	struct daemons *d = *state;
	struct agx_ipc_client *c = connect_fwchan(d);
	int status;

	assert_int_equal(call(c, AGX_IPC_MSG_FWCHAN_CACHE_FLUSH, &flush.base, NULL), 0);
	assert_int_equal(kill(d->memmgr_pid, SIGKILL), 0);
	assert_int_equal(waitpid(d->memmgr_pid, &status, 0), d->memmgr_pid);
	d->memmgr_pid = 0;
	assert_int_equal(wait_exit(d->fwchan_pid), 1);
	d->fwchan_pid = 0;
	assert_true(log_says(d, "agx-memmgr went away"));
	assert_true(log_says(d, "restart the chain"));
	/* its client learns it too */
	assert_int_equal(call(c, AGX_IPC_MSG_FWCHAN_CACHE_FLUSH, &flush.base, NULL), -ECONNRESET);
	agx_ipc_client_destroy(c);

	/* the chain again, as systemd starts it: memmgr replaces its stale sockets, then fwchan */
	spawn_memmgr(d);
	spawn_fwchan(d, "1000", true);
	daemon_wait_socket(d->fwchan, TIMEOUT_MS);
	expect_served(d);
}

/* The device killed under fwchan: the same, whoever notices first. */
static void test_device_gone(void **state)
{
	struct daemons *d = *state;
	int status;

	expect_served(d);
	assert_int_equal(kill(d->sim_pid, SIGKILL), 0);
	assert_int_equal(waitpid(d->sim_pid, &status, 0), d->sim_pid);
	d->sim_pid = 0;
	assert_int_equal(wait_exit(d->fwchan_pid), 1);
	d->fwchan_pid = 0;
	assert_true(log_says(d, "went away"));
	assert_true(log_says(d, "restart the chain"));
	/* memmgr stops too, without its device (and is not this test's concern beyond that) */
	assert_true(wait_exit(d->memmgr_pid) > 0);
	d->memmgr_pid = 0;
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_fwctl, setup, teardown),
		cmocka_unit_test_setup_teardown(test_fwctl_burst, setup, teardown),
		cmocka_unit_test_setup_teardown(test_memmgr_invalidates, setup, teardown),
		cmocka_unit_test_setup_teardown(test_compute, setup, teardown),
		cmocka_unit_test_setup_teardown(test_many_items, setup, teardown),
		cmocka_unit_test_setup_teardown(test_render, setup, teardown),
		cmocka_unit_test_setup_teardown(test_crash_recovery, setup, teardown),
		cmocka_unit_test_setup_teardown(test_hang_recovery, setup_fast_ping, teardown),
		cmocka_unit_test_setup_teardown(test_long_binning, setup_fast_ping, teardown),
		cmocka_unit_test_setup_teardown(test_hang_during_recovery, setup_fast_ping,
						teardown),
		cmocka_unit_test_setup_teardown(test_memmgr_gone, setup_logged, teardown),
		cmocka_unit_test_setup_teardown(test_device_gone, setup_logged, teardown),
	};

	if (argc != 4) {
		fprintf(stderr, "usage: %s AGX-SIM AGX-MEMMGR AGX-FWCHAN\n", argv[0]);
		return 2;
	}
	sim_path = argv[1];
	memmgr_path = argv[2];
	fwchan_path = argv[3];
	return cmocka_run_group_tests(tests, NULL, NULL);
}
