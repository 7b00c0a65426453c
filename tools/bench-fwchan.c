/*
 * bench-fwchan: `./agx bench fwchan`.  Starts agx-sim, agx-memmgr and
 * agx-fwchan (next to this program in the build tree), makes a client VM
 * with an empty compute stream (only its end) and a firmware context for
 * it, and measures, playing the scheduler on fwchan's socket:
 *   - empty work items per second, submitted 64 to a message, as many in
 *     flight as fwchan takes;
 *   - the latency of one item alone: from sending SUBMIT to receiving its
 *     completion event.
 * Prints `fwchan.<metric> <value> <unit>` lines.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "agx/memory.h"
#include "agxipc/client.h"
#include "bench.h"
#include "agx/cmd.h"

#define TIMEOUT_MS	   10000
#define BATCH		   64
#define THROUGHPUT_SECONDS 2.0
#define LATENCY_SAMPLES	   5000

struct bench {
	struct agx_memory *mem;
	struct agx_ipc_client *priv, *fw;
	struct agx_bo bo;
	uint64_t va;
	uint32_t vm, context, slot;
	uint64_t completed, next_job;
};

static void on_event(struct agx_ipc_msg *msg, void *data)
{
	struct bench *b = data;

	if (msg->type == AGX_IPC_MSG_FWCHAN_COMPLETION)
		b->completed += ((const Agx__Fwchan__CompletionEvent *)msg->body)->n_completions;
}

static int call(struct agx_ipc_client *c, uint16_t type, const ProtobufCMessage *body,
		struct agx_ipc_msg *reply)
{
	struct agx_ipc_error err = { 0 };
	struct agx_ipc_msg local;
	int ret =
	    agx_ipc_client_call(c, type, body, NULL, 0, reply ? reply : &local, TIMEOUT_MS, &err);

	if (ret < 0)
		fprintf(stderr, "agx-bench-fwchan: %s: %s\n", agx_ipc_msg_info(type)->name,
			err.code ? err.message : strerror(-ret));
	else if (!reply)
		agx_ipc_msg_finish(&local);
	return ret;
}

/* A VM with one BO holding the stream (and standing for the shaders' base), a slot, a context. */
static int set_up(struct bench *b, const char *memmgr, const char *priv, const char *fwchan)
{
	Agx__Memmgr__VmSlotBind sb = AGX__MEMMGR__VM_SLOT_BIND__INIT;
	Agx__Fwchan__ContextCreate cc = AGX__FWCHAN__CONTEXT_CREATE__INIT;
	struct agx_ipc_msg reply;

	if (agx_memory_connect(memmgr, &b->mem) < 0 || agx_vm_create(b->mem, &b->vm) < 0 ||
	    agx_bo_create(b->mem, 0x4000, 0, 0, &b->bo) < 0 ||
	    agx_vm_bind(b->mem, b->vm, &b->bo, 0, 0x4000, 0,
			AGX_BIND_READ | AGX_BIND_EXECUTE | AGX_BIND_ALLOCATE_VA, &b->va) < 0)
		return -1;
	agx_cdm_terminate(b->bo.map);
	if (agx_ipc_client_connect(priv, AGX__IPC__INTERFACE__INTERFACE_MEMMGR_PRIVILEGED, "bench",
				   TIMEOUT_MS, &b->priv, NULL) < 0 ||
	    agx_ipc_client_connect(fwchan, AGX__IPC__INTERFACE__INTERFACE_FWCHAN, "bench",
				   TIMEOUT_MS, &b->fw, NULL) < 0)
		return -1;
	sb.client_pid = (uint32_t)getpid();
	sb.vm = b->vm;
	sb.seqno = 1;
	if (call(b->priv, AGX_IPC_MSG_MEMMGR_VM_SLOT_BIND, &sb.base, &reply) < 0)
		return -1;
	b->slot = ((const Agx__Memmgr__VmSlotBindReply *)reply.body)->context_slot;
	agx_ipc_msg_finish(&reply);
	cc.context_slot = b->slot;
	cc.priority = AGX__WORK__PRIORITY__PRIORITY_NORMAL;
	if (call(b->fw, AGX_IPC_MSG_FWCHAN_CONTEXT_CREATE, &cc.base, &reply) < 0)
		return -1;
	b->context = ((const Agx__Fwchan__ContextCreateReply *)reply.body)->context;
	agx_ipc_msg_finish(&reply);
	agx_ipc_client_set_event_handler(b->fw, on_event, b);
	return 0;
}

/* count empty items in one SUBMIT; -EBUSY when fwchan holds as many as it takes. */
static int submit(struct bench *b, unsigned count)
{
	Agx__Fwchan__Submit s = AGX__FWCHAN__SUBMIT__INIT;
	Agx__Fwchan__WorkItem items[BATCH], *list[BATCH];
	Agx__Work__Compute body[BATCH];
	struct agx_ipc_msg reply;
	int ret;

	for (unsigned i = 0; i < count; i++) {
		agx__fwchan__work_item__init(&items[i]);
		agx__work__compute__init(&body[i]);
		body[i].encoder = b->va;
		body[i].encoder_end = b->va + 16;
		body[i].usc_base = b->va;
		items[i].kind = AGX__FWCHAN__WORK_KIND__WORK_COMPUTE;
		items[i].job_id = b->next_job++;
		items[i].work_case = AGX__FWCHAN__WORK_ITEM__WORK_COMPUTE;
		items[i].compute = &body[i];
		list[i] = &items[i];
	}
	s.context = b->context;
	s.context_slot = b->slot;
	s.items = list;
	s.n_items = count;
	ret = agx_ipc_client_call(b->fw, AGX_IPC_MSG_FWCHAN_SUBMIT, &s.base, NULL, 0, &reply,
				  TIMEOUT_MS, NULL);
	if (ret == 0)
		agx_ipc_msg_finish(&reply);
	return ret;
}

static int measure(struct bench *b)
{
	static double samples[LATENCY_SAMPLES];
	uint64_t submitted = 0, start;
	double t0, elapsed = 0;

	/* throughput: batches as fast as fwchan takes them */
	start = b->completed;
	t0 = bench_now_us();
	do {
		int ret = submit(b, BATCH);

		if (ret == -EBUSY) {
			agx_ipc_client_dispatch_events(b->fw, TIMEOUT_MS);
			continue;
		}
		if (ret < 0)
			return -1;
		submitted += BATCH;
		agx_ipc_client_dispatch_events(b->fw, 0);
		elapsed = bench_now_us() - t0;
	} while (elapsed < THROUGHPUT_SECONDS * 1e6);
	while (b->completed - start < submitted)
		if (agx_ipc_client_dispatch_events(b->fw, TIMEOUT_MS) <= 0)
			return -1;
	elapsed = bench_now_us() - t0;
	printf("fwchan.items_per_s %.0f items/s (empty compute items, %d a submission)\n",
	       submitted / (elapsed / 1e6), BATCH);

	/* latency: one item alone, SUBMIT sent to its completion received */
	for (int i = 0; i < LATENCY_SAMPLES; i++) {
		uint64_t want = b->completed + 1;

		t0 = bench_now_us();
		if (submit(b, 1) < 0)
			return -1;
		while (b->completed < want)
			if (agx_ipc_client_dispatch_events(b->fw, TIMEOUT_MS) <= 0)
				return -1;
		samples[i] = bench_now_us() - t0;
	}
	bench_sort(samples, LATENCY_SAMPLES);
	printf("fwchan.latency_p50_us %.1f us (one item: SUBMIT to its completion event)\n",
	       samples[LATENCY_SAMPLES / 2]);
	printf("fwchan.latency_p99_us %.1f us\n", samples[LATENCY_SAMPLES * 99 / 100]);
	return 0;
}

int main(void)
{
	struct bench_stack st;
	struct bench b = { 0 };
	int ret = 1;

	if (bench_stack_start(&st, 3) < 0)
		return 1;
	if (set_up(&b, st.sock[BENCH_MEMMGR], st.sock[BENCH_MEMMGR_PRIV], st.sock[BENCH_FWCHAN]) <
	    0) {
		fprintf(stderr, "agx-bench-fwchan: cannot set up a client\n");
		goto out;
	}
	ret = measure(&b) < 0;
out:
	if (b.fw)
		agx_ipc_client_destroy(b.fw);
	if (b.priv)
		agx_ipc_client_destroy(b.priv);
	agx_memory_disconnect(b.mem);
	bench_stack_stop(&st);
	return ret;
}
