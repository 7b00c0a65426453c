/*
 * dispatch.c: the GPU side of agx-scheduler (scheduler.h): which queue's
 * commands go to agx-fwchan next, the VM slot each batch runs under
 * (agx-memmgr's VM_SLOT_BIND and JOBS_COMPLETED), and what fwchan's
 * events mean for jobs and queues.
 *
 * Once per loop turn the dispatcher looks at the queues with work, highest
 * priority first and, within a priority, client by client in turn, one
 * batch a client a round, so that no client of a priority starves another.
 * What is at fwchan is bounded (SCHED_FW_ITEMS, SCHED_FW_ITEMS_CLIENT):
 * the rest waits here, where priorities decide, rather than in fwchan's
 * backlogs.  A queue has one batch on its way at a time -- bind, context,
 * submit -- so its commands reach the firmware in order, and a batch that
 * fwchan refuses can be sent again, or one job at a time to find the
 * culprit.
 */
#include <errno.h>
#include <event2/event.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "agxipc/log.h"
#include "agxipc/server.h"
#include "scheduler.h"

#define CALL_TIMEOUT_MS 10000
#define PEER_WAIT_MS	10000

/* --- VMs and their seqnos ------------------------------------------------------------- */

struct sched_vm *sched_vm_get(struct scheduler *s, pid_t pid, uint32_t id)
{
	struct sched_vm *vm;

	for (struct sched_link *l = s->vms.next; l != &s->vms; l = l->next) {
		vm = sched_container_of(l, struct sched_vm, link);
		if (vm->pid == pid && vm->vm == id) {
			vm->refs++;
			return vm;
		}
	}
	vm = calloc(1, sizeof(*vm));
	if (!vm)
		return NULL;
	vm->pid = pid;
	vm->vm = id;
	vm->refs = 1;
	sched_list_init(&vm->batches);
	sched_list_add_tail(&s->vms, &vm->link);
	return vm;
}

static void report_done(struct agx_ipc_conn *conn, int status, struct agx_ipc_msg *reply,
			const struct agx_ipc_error *err, void *data)
{
	/* a VM its client destroyed is not memmgr's concern any more */
	if (status < 0 && status != -ENOENT && status != -ECONNRESET)
		agx_warn("memmgr: JOBS_COMPLETED: %s", err && err->code ? err->message : "failed");
}

/* Tells memmgr every job of vm up to its completed seqno is done. */
static void report(struct scheduler *s, struct sched_vm *vm)
{
	Agx__Memmgr__JobsCompleted m = AGX__MEMMGR__JOBS_COMPLETED__INIT;

	if (vm->completed <= vm->reported || !s->memmgr)
		return;
	m.client_pid = (uint32_t)vm->pid;
	m.vm = vm->vm;
	m.seqno = vm->completed;
	vm->reported = vm->completed;
	if (vm->reported == vm->bound)
		vm->slot_valid = false; /* idle in memmgr's eyes: its slot may go to another VM */
	agx_ipc_conn_call(s->memmgr, AGX_IPC_MSG_MEMMGR_JOBS_COMPLETED, &m.base, NULL, 0,
			  CALL_TIMEOUT_MS, report_done, NULL);
}

void sched_vm_unref(struct scheduler *s, struct sched_vm *vm)
{
	if (--vm->refs)
		return;
	report(s, vm);
	sched_list_del(&vm->link);
	free(vm);
}

/* The seqnos whose batches are all done, in order; memmgr hears at the turn's end. */
static void vm_advance(struct scheduler *s, struct sched_vm *vm)
{
	while (!sched_list_empty(&vm->batches)) {
		struct sched_batch *b =
		    sched_container_of(vm->batches.next, struct sched_batch, link);

		struct sched_link *next;

		if (!b->done)
			break;
		next = b->link.next;
		/* a seqno is complete when the last batch that joined it is */
		if (next == &vm->batches ||
		    sched_container_of(next, struct sched_batch, link)->seqno != b->seqno)
			vm->completed = b->seqno;
		sched_list_del(&b->link);
		free(b);
	}
	if (vm->completed > vm->reported && !s->report_pending) {
		struct timeval tv = { 0, SCHED_REPORT_DELAY_US };

		s->report_pending = true;
		evtimer_add(s->report_timer, &tv);
	}
}

/* Something ended: the queues that memmgr or fwchan had no room for try again. */
static void release_held(struct scheduler *s)
{
	if (!s->held_queues)
		return;
	s->held_queues = 0;
	for (struct sched_link *l = s->queues.next; l != &s->queues; l = l->next) {
		struct sched_queue *q = sched_container_of(l, struct sched_queue, all_link);

		if (q->held) {
			q->held = false;
			sched_queue_update_runnable(q);
		}
	}
}

static void retry_held(evutil_socket_t fd, short what, void *arg)
{
	release_held(arg);
}

/*
 * The queue waits for room at memmgr or fwchan: a completion brings it
 * back; and in case what holds the room is not ours to see complete
 * (another process's VM keeping a slot), so does a retry a little later.
 */
static void hold(struct scheduler *s, struct sched_queue *q)
{
	struct timeval tv = { 0, SCHED_RETRY_US };

	if (!q->held) {
		q->held = true;
		s->held_queues++;
	}
	if (!evtimer_pending(s->retry_timer, NULL))
		evtimer_add(s->retry_timer, &tv);
}

/* memmgr hears of completions a little late, so that a VM that keeps working keeps its seqno. */
static void report_all(evutil_socket_t fd, short what, void *arg)
{
	struct scheduler *s = arg;

	s->report_pending = false;
	for (struct sched_link *l = s->vms.next; l != &s->vms; l = l->next)
		report(s, sched_container_of(l, struct sched_vm, link));
	release_held(s); /* slots may have come free */
}

/* --- items at fwchan ------------------------------------------------------------------ */

static struct sched_item *item_alloc(struct scheduler *s, uint64_t *job_id)
{
	unsigned i = s->free_items[--s->num_free_items];
	struct sched_item *it = &s->items[i];

	it->used = true;
	it->faulted = false;
	*job_id = (uint64_t)it->gen << 32 | (i + 1);
	return it;
}

static struct sched_item *item_find(struct scheduler *s, uint64_t job_id)
{
	uint64_t i = (job_id & 0xffffffffu) - 1;

	if (i >= SCHED_FW_ITEMS || !s->items[i].used || s->items[i].gen != job_id >> 32)
		return NULL;
	return &s->items[i];
}

/* An item leaves fwchan (completed, or its batch refused). */
static void item_release(struct scheduler *s, struct sched_item *it)
{
	struct sched_queue *q = it->job->queue;

	q->inflight[it->pipe]--;
	q->inflight_total--;
	q->client->fw_items--;
	q->client->proc->fw_items--;
	s->fw_items--;
	it->used = false;
	it->gen++;
	s->free_items[s->num_free_items++] = (unsigned)(it - s->items);
}

/* --- one batch: bind, context, submit ------------------------------------------------- */

static void batch_end(struct scheduler *s, struct sched_batch *b)
{
	struct sched_queue *q = b->queue;

	s->reserved -= q->reserved;
	q->client->reserved -= q->reserved;
	q->client->proc->reserved -= q->reserved;
	q->reserved = 0;
	q->busy = false;
	free(b->item_ids);
	b->item_ids = NULL;
	if (!b->items)
		b->done = true;
	vm_advance(s, q->vm);
	sched_queue_update_runnable(q);
	sched_queue_maybe_free(q);
}

static int cmd_status(int ipc_status)
{
	/* fwchan refused it: its memory is not mapped as it needs, or it is malformed */
	return ipc_status == -ENOENT || ipc_status == -EPERM ? -EFAULT : ipc_status;
}

/* Takes back the items fwchan refused: they are the queue's next to send again. */
static void batch_roll_back(struct scheduler *s, struct sched_batch *b)
{
	struct sched_queue *q = b->queue;

	for (unsigned i = 0; i < b->num_items; i++) {
		struct sched_item *it = item_find(s, b->item_ids[i]);

		it->job->sent--;
		item_release(s, it);
	}
	b->items = 0;
	if (b->first_job)
		q->cursor = b->first_job;
}

static void submitted(struct agx_ipc_conn *conn, int status, struct agx_ipc_msg *reply,
		      const struct agx_ipc_error *err, void *data)
{
	struct sched_batch *b = data;
	struct sched_queue *q = b->queue;
	struct scheduler *s = q->client->s;

	if (status == 0) {
		b->sent = true;
		q->solo = false;
		if (!b->items)
			b->done = true;
		batch_end(s, b);
		return;
	}
	batch_roll_back(s, b);
	switch (status) {
	case -EBUSY: /* fwchan holds all it can: again after a completion */
		hold(s, q);
		break;
	case -ENODEV: /* the firmware recovers: again on DEVICE_READY */
		s->fw_ready = false;
		break;
	case -ECONNRESET:
		break; /* fwchan is gone: the daemon stops */
	default:
		if (b->jobs > 1) {
			q->solo = true; /* which one? one a batch until it is found */
		} else if (b->first_job) {
			struct sched_job *job = b->first_job;

			agx_warn_ratelimited(
			    q->client->pid,
			    "client %s (pid %d): queue %u, job %" PRIu64 " refused: %s",
			    q->client->name, (int)q->client->pid, q->id, job->seqno,
			    err && err->code ? err->message : strerror(-status));
			if (!job->status)
				job->status = cmd_status(status);
			job->failed_deps = true; /* what it has not sent will not run */
		}
	}
	batch_end(s, b);
}

/* The queue's commands, up to what it reserved, into one FWCHAN_SUBMIT. */
static void batch_send(struct scheduler *s, struct sched_batch *b)
{
	Agx__Fwchan__WorkItem items[SCHED_BATCH_ITEMS], *list[SCHED_BATCH_ITEMS];
	Agx__Fwchan__Submit sub = AGX__FWCHAN__SUBMIT__INIT;
	struct sched_queue *q = b->queue;
	struct sched_job *job, *last = NULL;
	struct sched_cmd *cmd;
	unsigned n = 0;

	b->item_ids = calloc(q->reserved ? q->reserved : 1, sizeof(*b->item_ids));
	while (b->item_ids && n < q->reserved && (cmd = sched_queue_next_cmd(q, &job))) {
		struct sched_item *it;
		uint64_t id;

		if (q->inflight_total != q->inflight[cmd->pipe])
			break; /* the other pipe first */
		if (job != last) {
			if (last && q->solo)
				break;
			if (!last) {
				b->first_job = job;
				b->first_cmd = job->sent;
			}
			b->jobs++;
			last = job;
		}
		it = item_alloc(s, &id);
		it->job = job;
		it->batch = b;
		it->pipe = cmd->pipe;
		q->inflight[cmd->pipe]++;
		q->inflight_total++;
		q->client->fw_items++;
		q->client->proc->fw_items++;
		s->fw_items++;
		/* what was reserved is now an item */
		q->reserved--;
		q->client->reserved--;
		q->client->proc->reserved--;
		s->reserved--;
		job->sent++;
		b->item_ids[n] = id;
		agx__fwchan__work_item__init(&items[n]);
		items[n].job_id = id;
		if (cmd->render) {
			items[n].kind = AGX__FWCHAN__WORK_KIND__WORK_RENDER;
			items[n].work_case = AGX__FWCHAN__WORK_ITEM__WORK_RENDER;
			items[n].render = &cmd->u.render;
		} else {
			items[n].kind = AGX__FWCHAN__WORK_KIND__WORK_COMPUTE;
			items[n].work_case = AGX__FWCHAN__WORK_ITEM__WORK_COMPUTE;
			items[n].compute = &cmd->u.compute;
		}
		list[n] = &items[n];
		n++;
	}
	b->num_items = b->items = n;
	if (!n) {
		batch_end(s, b);
		return;
	}
	q->last_used_s = sched_now_s();
	sub.context = q->context;
	sub.context_slot = q->slot;
	sub.items = list;
	sub.n_items = n;
	if (agx_ipc_conn_call(s->fwchan, AGX_IPC_MSG_FWCHAN_SUBMIT, &sub.base, NULL, 0,
			      CALL_TIMEOUT_MS, submitted, b) < 0)
		submitted(s->fwchan, -ENOMEM, NULL, NULL, b);
}

/* --- contexts that fwchan had no room for --------------------------------------------- */

/*
 * The jobs of q that are ready to send fail with status: they need a
 * context the firmware cannot give.  Those still waiting for their
 * dependencies try again when they are ready.
 */
static void fail_ready_jobs(struct sched_queue *q, int status, const char *why)
{
	unsigned failed = 0;

	for (struct sched_job *job = q->cursor; job;) {
		struct sched_link *next = job->link.next;

		if (job->waits_left)
			break; /* nothing overtakes a job that waits */
		if (job->sent < job->num_cmds) {
			if (!job->status)
				job->status = status;
			job->failed_deps = true; /* its commands will not be sent */
			failed++;
		}
		job = next == &q->jobs ? NULL : sched_container_of(next, struct sched_job, link);
	}
	agx_warn_ratelimited(q->client->pid,
			     "client %s (pid %d): queue %u: no firmware context (%s); %u jobs fail "
			     "with %s",
			     q->client->name, (int)q->client->pid, q->id, why, failed,
			     strerror(-status));
}

/* Whether q's context may go: nothing of q is at fwchan or on its way, nothing to send. */
static bool context_idle(const struct sched_queue *q)
{
	return q->has_context && !q->ctx_destroying && !q->busy && !q->inflight_total && !q->cursor;
}

/* Whether a's context should go before b's: the client that holds more first, then the older. */
static bool evict_before(const struct sched_queue *a, const struct sched_queue *b)
{
	if (a->client->contexts != b->client->contexts)
		return a->client->contexts > b->client->contexts;
	return a->last_used_s < b->last_used_s;
}

/*
 * Makes room at fwchan: the contexts of up to SCHED_CTX_EVICT idle queues.
 * The client that holds the most loses first, and none loses its last: a
 * client that floods the table takes its own contexts back, not others'.
 */
static unsigned evict_idle_contexts(struct scheduler *s)
{
	unsigned evicted = 0;

	while (evicted < SCHED_CTX_EVICT) {
		struct sched_queue *oldest = NULL;

		for (struct sched_link *l = s->queues.next; l != &s->queues; l = l->next) {
			struct sched_queue *q = sched_container_of(l, struct sched_queue, all_link);

			if (context_idle(q) && q->client->contexts > 1 &&
			    (!oldest || evict_before(q, oldest)))
				oldest = q;
		}
		if (!oldest)
			break;
		/* a later batch makes a new one: queues of the same VM and slot lose nothing */
		sched_context_destroy(oldest);
		if (!oldest->ctx_destroying)
			break; /* the call could not be made */
		evicted++;
	}
	return evicted;
}

static void ctx_retry(evutil_socket_t fd, short what, void *arg)
{
	struct sched_queue *q = arg;

	q->ctx_waiting = false;
	sched_queue_update_runnable(q);
}

/*
 * fwchan had no room for q's context: room is made from idle queues and
 * q tries again after its back-off, on a timer of its own (nothing it
 * waits for needs to end first); after SCHED_CTX_WAIT_MS its ready jobs
 * fail instead of waiting for ever.
 */
static void context_refused(struct scheduler *s, struct sched_queue *q, int status, const char *why)
{
	double now = sched_now_s();
	unsigned ms;
	struct timeval tv;

	if (!q->ctx_refusals++)
		q->ctx_refused_s = now;
	evict_idle_contexts(s);
	if (now - q->ctx_refused_s >= SCHED_CTX_WAIT_MS / 1e3) {
		fail_ready_jobs(q, status, why);
		q->ctx_refusals = 0;
		return;
	}
	ms = SCHED_CTX_BACKOFF_MIN_MS;
	for (unsigned i = 1; i < q->ctx_refusals && ms < SCHED_CTX_BACKOFF_MAX_MS; i++)
		ms *= 2;
	if (ms > SCHED_CTX_BACKOFF_MAX_MS)
		ms = SCHED_CTX_BACKOFF_MAX_MS;
	if (!q->ctx_timer)
		q->ctx_timer = evtimer_new(s->base, ctx_retry, q);
	if (!q->ctx_timer) {
		fail_ready_jobs(q, -ENOMEM, "out of memory");
		return;
	}
	tv = (struct timeval){ ms / 1000, (suseconds_t)(ms % 1000) * 1000 };
	q->ctx_waiting = true;
	evtimer_add(q->ctx_timer, &tv);
}

static void context_created(struct agx_ipc_conn *conn, int status, struct agx_ipc_msg *reply,
			    const struct agx_ipc_error *err, void *data)
{
	struct sched_batch *b = data;
	struct sched_queue *q = b->queue;
	struct scheduler *s = q->client->s;
	const char *why = err && err->code ? err->message : strerror(-status);

	if (status < 0) {
		switch (status) {
		case -ENODEV: /* the firmware recovers: again on DEVICE_READY */
			s->fw_ready = false;
			break;
		case -ECONNRESET: /* fwchan is gone: the daemon stops */
			break;
		case -ENOMEM: /* the firmware's memory or its context table is full */
		case -ENOSPC:
		case -EBUSY:
			if (!q->destroyed && q->status == SCHED_QUEUE_OK)
				context_refused(s, q, status, why);
			break;
		default: /* refused for good: trying again would be refused again */
			fail_ready_jobs(q, status, why);
		}
		batch_end(s, b);
		return;
	}
	q->ctx_refusals = 0;
	q->context = ((const Agx__Fwchan__ContextCreateReply *)reply->body)->context;
	q->has_context = true;
	q->client->contexts++;
	if (q->destroyed || q->status != SCHED_QUEUE_OK)
		sched_context_destroy(q);
	batch_send(s, b);
}

static void with_slot(struct scheduler *s, struct sched_batch *b);

static void bound(struct agx_ipc_conn *conn, int status, struct agx_ipc_msg *reply,
		  const struct agx_ipc_error *err, void *data)
{
	struct sched_batch *b = data;
	struct sched_queue *q = b->queue;
	struct scheduler *s = q->client->s;

	if (status < 0) {
		q->vm->slot_valid = false;
		if (status == -EBUSY) {
			hold(s, q); /* every slot's VM is busy: after a completion */
		} else if (status != -ECONNRESET) {
			agx_warn_ratelimited(q->client->pid,
					     "client %s (pid %d): queue %u: its VM %u: %s",
					     q->client->name, (int)q->client->pid, q->id, q->vm->vm,
					     err && err->code ? err->message : strerror(-status));
			sched_queue_reset(q, SCHED_QUEUE_GUILTY, 0);
		}
		batch_end(s, b);
		return;
	}
	q->vm->slot = ((const Agx__Memmgr__VmSlotBindReply *)reply->body)->context_slot;
	q->vm->slot_valid = true;
	with_slot(s, b);
}

/* The VM has its slot: the queue's context, then the batch. */
static void with_slot(struct scheduler *s, struct sched_batch *b)
{
	struct sched_queue *q = b->queue;
	Agx__Fwchan__ContextCreate cc = AGX__FWCHAN__CONTEXT_CREATE__INIT;

	q->slot = q->vm->slot;
	if (q->has_context) {
		batch_send(s, b);
		return;
	}
	cc.context_slot = q->slot;
	cc.priority = (Agx__Work__Priority)q->priority;
	cc.time_limit_us = s->config.job_timeout_ms * 1000u;
	if (agx_ipc_conn_call(s->fwchan, AGX_IPC_MSG_FWCHAN_CONTEXT_CREATE, &cc.base, NULL, 0,
			      CALL_TIMEOUT_MS, context_created, b) < 0)
		batch_end(s, b);
}

/*
 * A batch under a seqno of the queue's VM.  While memmgr has not been told
 * the VM's latest seqno is complete, the VM keeps its slot and a batch may
 * join that seqno without a bind (its completion then waits for the batch
 * too, which only makes memmgr's releases more careful), for a while; else
 * a new seqno is bound first.
 */
static void batch_start(struct scheduler *s, struct sched_queue *q, unsigned reserve)
{
	Agx__Memmgr__VmSlotBind m = AGX__MEMMGR__VM_SLOT_BIND__INIT;
	struct sched_batch *b = calloc(1, sizeof(*b));
	struct sched_vm *vm = q->vm;
	double now = sched_now_s();

	if (!b)
		return;
	q->busy = true;
	q->reserved = reserve;
	q->client->reserved += reserve;
	q->client->proc->reserved += reserve;
	s->reserved += reserve;
	b->queue = q;
	if (vm->slot_valid && vm->bound > vm->reported &&
	    now - vm->bound_s < SCHED_JOIN_WINDOW_US / 1e6) {
		b->seqno = vm->bound;
		if (vm->completed == vm->bound)
			vm->completed = vm->bound - 1; /* open again */
		sched_list_add_tail(&vm->batches, &b->link);
		with_slot(s, b);
		return;
	}
	b->seqno = ++vm->bound;
	vm->bound_s = now;
	sched_list_add_tail(&vm->batches, &b->link);
	m.client_pid = (uint32_t)q->vm->pid;
	m.vm = q->vm->vm;
	m.seqno = b->seqno;
	if (agx_ipc_conn_call(s->memmgr, AGX_IPC_MSG_MEMMGR_VM_SLOT_BIND, &m.base, NULL, 0,
			      CALL_TIMEOUT_MS, bound, b) < 0)
		batch_end(s, b);
}

/* --- QUEUE_CREATE's check of the VM ---------------------------------------------------- */

struct vm_check {
	struct sched_queue *q;
	uint64_t seqno;
	sched_vm_checked_fn done;
	void *data;
};

static void vm_checked(struct agx_ipc_conn *conn, int status, struct agx_ipc_msg *reply,
		       const struct agx_ipc_error *err, void *data)
{
	struct vm_check *v = data;
	struct sched_queue *q = v->q;
	struct scheduler *s = q->client->s;
	struct sched_vm *vm = q->vm;

	/* nothing runs under this seqno yet: complete, and joinable until memmgr hears */
	if (status == 0) {
		vm->slot = ((const Agx__Memmgr__VmSlotBindReply *)reply->body)->context_slot;
		vm->slot_valid = true;
		vm->bound_s = sched_now_s();
	} else if (status == -EBUSY) {
		/*
		 * memmgr found the client's VM but every context slot is busy
		 * with other VMs' jobs: the VM is good, and its first batch
		 * will bind a slot, waiting its turn as any batch does.
		 */
		status = 0;
	}
	if (v->seqno > vm->completed && sched_list_empty(&vm->batches))
		vm->completed = v->seqno;
	vm_advance(s, vm);
	q->busy = false;
	v->done(q, status, err && err->code ? err->message : strerror(-status), v->data);
	sched_queue_maybe_free(q);
	free(v);
}

void sched_vm_check(struct sched_queue *q, sched_vm_checked_fn done, void *data)
{
	struct scheduler *s = q->client->s;
	Agx__Memmgr__VmSlotBind m = AGX__MEMMGR__VM_SLOT_BIND__INIT;
	struct vm_check *v;

	/* a batch of the VM in flight: another queue of the client checked it already */
	if (!sched_list_empty(&q->vm->batches) || q->vm->bound) {
		done(q, 0, "", data);
		return;
	}
	v = calloc(1, sizeof(*v));
	if (!v || !s->memmgr) {
		free(v);
		done(q, -ENOMEM, "out of memory", data);
		return;
	}
	*v = (struct vm_check){ q, ++q->vm->bound, done, data };
	q->busy = true;
	m.client_pid = (uint32_t)q->vm->pid;
	m.vm = q->vm->vm;
	m.seqno = v->seqno;
	if (agx_ipc_conn_call(s->memmgr, AGX_IPC_MSG_MEMMGR_VM_SLOT_BIND, &m.base, NULL, 0,
			      CALL_TIMEOUT_MS, vm_checked, v) < 0)
		vm_checked(s->memmgr, -ENOMEM, NULL, NULL, v);
}

/* --- contexts --------------------------------------------------------------------------- */

static void context_destroyed(struct agx_ipc_conn *conn, int status, struct agx_ipc_msg *reply,
			      const struct agx_ipc_error *err, void *data)
{
	struct sched_queue *q = data;

	if (q->has_context)
		q->client->contexts--;
	q->has_context = false;
	q->ctx_destroying = false;
	/* a queue whose idle context went runs again with a new one */
	if (!q->destroyed)
		sched_queue_update_runnable(q);
	sched_queue_maybe_free(q);
}

void sched_context_destroy(struct sched_queue *q)
{
	struct scheduler *s = q->client->s;
	Agx__Fwchan__ContextDestroy m = AGX__FWCHAN__CONTEXT_DESTROY__INIT;

	if (!q->has_context || q->ctx_destroying || !s->fwchan)
		return;
	q->ctx_destroying = true;
	m.context = q->context;
	if (agx_ipc_conn_call(s->fwchan, AGX_IPC_MSG_FWCHAN_CONTEXT_DESTROY, &m.base, NULL, 0,
			      CALL_TIMEOUT_MS, context_destroyed, q) < 0)
		q->ctx_destroying = false;
}

/* --- the dispatcher ------------------------------------------------------------------- */

enum consider { SENT, HELD, IDLE };

static enum consider consider(struct scheduler *s, struct sched_queue *q)
{
	struct sched_client *c = q->client;
	struct sched_job *job;
	struct sched_cmd *cmd = sched_queue_next_cmd(q, &job);
	int room;

	sched_queue_settle(q); /* jobs passed over end now */
	if (!cmd || q->busy || q->inflight_total != q->inflight[cmd->pipe])
		return IDLE; /* a completion or a new job brings it back */
	/* its back-off timer, or the end of its context's destruction, brings it back */
	if (q->ctx_waiting || q->ctx_destroying)
		return IDLE;
	if (!s->fw_ready || q->held)
		return HELD;
	/* every item at fwchan or reserved for a batch on its way counts against the limits */
	room = SCHED_FW_ITEMS - (int)(s->fw_items + s->reserved);
	if (SCHED_FW_ITEMS_CLIENT - (int)(c->proc->fw_items + c->proc->reserved) < room)
		room = SCHED_FW_ITEMS_CLIENT - (int)(c->proc->fw_items + c->proc->reserved);
	if (room > SCHED_BATCH_ITEMS)
		room = SCHED_BATCH_ITEMS;
	if (room <= 0)
		return HELD;
	batch_start(s, q, (unsigned)room);
	return SENT;
}

void sched_dispatch(struct scheduler *s)
{
	if (!s->fwchan || !s->memmgr)
		return;
	for (int p = SCHED_PRIORITIES - 1; p >= 0; p--) {
		bool progress = true;

		while (progress && s->fw_items + s->reserved < SCHED_FW_ITEMS) {
			unsigned clients = 0;

			progress = false;
			for (struct sched_link *l = s->runnable[p].next; l != &s->runnable[p];
			     l = l->next)
				clients++;
			/* a round: each client with work at this priority sends one batch */
			for (unsigned i = 0; i < clients && !sched_list_empty(&s->runnable[p]);
			     i++) {
				struct sched_client *c = sched_container_of(
				    s->runnable[p].next, struct sched_client, run_link[p]);
				unsigned queues = 0;

				sched_list_rotate(&s->runnable[p]);
				for (struct sched_link *l = c->runnable[p].next;
				     l != &c->runnable[p]; l = l->next)
					queues++;
				for (unsigned j = 0; j < queues; j++) {
					struct sched_queue *q = sched_container_of(
					    c->runnable[p].next, struct sched_queue, run_link);
					enum consider r;

					sched_list_rotate(&c->runnable[p]);
					r = consider(s, q);
					if (r != HELD)
						sched_list_del(&q->run_link);
					if (r == SENT) {
						progress = true;
						break;
					}
				}
				if (sched_list_empty(&c->runnable[p]))
					sched_list_del(&c->run_link[p]);
			}
		}
	}
}

/* --- fwchan's events ------------------------------------------------------------------ */

static int result_status(unsigned result)
{
	switch (result) {
	case AGX__FWCHAN__WORK_RESULT__RESULT_OK:
		return 0;
	case AGX__FWCHAN__WORK_RESULT__RESULT_FAULT:
		return -EFAULT;
	case AGX__FWCHAN__WORK_RESULT__RESULT_TIMEOUT:
		return -ETIMEDOUT;
	case AGX__FWCHAN__WORK_RESULT__RESULT_ABORTED:
		return -ECANCELED;
	case AGX__FWCHAN__WORK_RESULT__RESULT_TVB_OVERFLOW:
		return -ENOSPC;
	case AGX__FWCHAN__WORK_RESULT__RESULT_DEVICE_LOST:
		return -ENODEV;
	default: /* RESULT_MALFORMED, and whatever a newer fwchan says */
		return -EINVAL;
	}
}

static void completed(struct scheduler *s, const Agx__Fwchan__Completion *cp)
{
	struct sched_item *it = item_find(s, cp->job_id);
	struct sched_batch *b;
	struct sched_queue *q;
	struct sched_job *job;

	if (!it) {
		agx_warn("fwchan: a completion of job %#" PRIx64 ", which is not ours", cp->job_id);
		return;
	}
	job = it->job;
	q = job->queue;
	b = it->batch;
	item_release(s, it);
	if (--b->items == 0 && b->sent) {
		b->done = true;
		vm_advance(s, q->vm);
	}
	switch (cp->result) {
	case AGX__FWCHAN__WORK_RESULT__RESULT_OK:
	case AGX__FWCHAN__WORK_RESULT__RESULT_ABORTED:
		break;
	case AGX__FWCHAN__WORK_RESULT__RESULT_DEVICE_LOST:
		sched_queue_reset(q, SCHED_QUEUE_INNOCENT, job->seqno);
		break;
	case AGX__FWCHAN__WORK_RESULT__RESULT_TIMEOUT:
		s->timeouts++;
		q->client->timeouts++;
		sched_queue_reset(q, SCHED_QUEUE_GUILTY, job->seqno);
		break;
	case AGX__FWCHAN__WORK_RESULT__RESULT_TVB_OVERFLOW:
		/*
		 * The heap was too small, which is how the client learns the size it
		 * needs (docs/firmware-abi.md, "A heap too small"): the render fails
		 * with -ENOSPC, and nothing else does -- the queue is not guilty.
		 */
		s->tvb_overflows++;
		break;
	default:
		sched_queue_reset(q, SCHED_QUEUE_GUILTY, job->seqno);
	}
	sched_queue_update_runnable(q);
	sched_job_cmd_done(job, result_status(cp->result), cp->gpu_start_ns, cp->gpu_end_ns);
}

static void fault(struct scheduler *s, const Agx__Fwchan__FaultEvent *f)
{
	struct sched_item *it = item_find(s, f->job_id);
	struct sched_queue *q;

	if (!it || it->faulted)
		return;
	it->faulted = true;
	q = it->job->queue;
	/* the completion may yet say aborted: the context goes before the firmware reports it */
	if (!it->job->status)
		it->job->status = -EFAULT;
	s->faults++;
	q->client->faults++;
	agx_notice_ratelimited(q->client->pid,
			       "client %s (pid %d): queue %u, job %" PRIu64
			       ": GPU fault at %#" PRIx64 " (%s, %s, reason %d)",
			       q->client->name, (int)q->client->pid, q->id, it->job->seqno, f->va,
			       f->write ? "write" : "read", f->unit ? f->unit : "?",
			       (int)f->reason);
	sched_queue_reset(q, SCHED_QUEUE_GUILTY, it->job->seqno);
}

/*
 * The firmware wants a bigger TVB heap for a render: its client hears,
 * before the completion that follows moves the job's points, so that a
 * client that saw the fence can read the size.  Only a size above what
 * the queue was told before goes out: the client keeps the largest.
 */
static void tvb_grow(struct scheduler *s, const Agx__Fwchan__TvbGrowEvent *g)
{
	Agx__Scheduler__TvbGrowEvent e = AGX__SCHEDULER__TVB_GROW_EVENT__INIT;
	struct sched_item *it = item_find(s, g->job_id);
	struct sched_queue *q;

	if (!it) {
		agx_warn("fwchan: a TVB grow request of job %#" PRIx64 ", which is not ours",
			 g->job_id);
		return;
	}
	q = it->job->queue;
	if (g->bytes <= q->tvb_wanted || q->destroyed || q->client->gone)
		return;
	q->tvb_wanted = g->bytes;
	e.queue = q->id;
	e.seqno = it->job->seqno;
	e.bytes = g->bytes;
	agx_ipc_conn_send_event(q->client->conn, AGX_IPC_MSG_SCHED_TVB_GROW, &e.base, NULL, 0);
}

static void fwchan_event(struct agx_ipc_conn *conn, struct agx_ipc_msg *msg, void *data)
{
	struct scheduler *s = data;

	switch (msg->type) {
	case AGX_IPC_MSG_FWCHAN_COMPLETION: {
		const Agx__Fwchan__CompletionEvent *e = (const void *)msg->body;

		for (size_t i = 0; i < e->n_completions; i++)
			completed(s, e->completions[i]);
		release_held(s);
		break;
	}
	case AGX_IPC_MSG_FWCHAN_FAULT:
		fault(s, (const void *)msg->body);
		break;
	case AGX_IPC_MSG_FWCHAN_TVB_GROW:
		tvb_grow(s, (const void *)msg->body);
		break;
	case AGX_IPC_MSG_FWCHAN_DEVICE_LOST: {
		const Agx__Fwchan__DeviceLostEvent *e = (const void *)msg->body;

		agx_err("the device was lost (%s): %zu jobs with it", e->reason, e->n_lost_job_ids);
		s->fw_ready = false;
		break;
	}
	case AGX_IPC_MSG_FWCHAN_DEVICE_READY:
		agx_notice("the device is back");
		s->fw_ready = true;
		for (struct sched_link *l = s->queues.next; l != &s->queues; l = l->next)
			sched_queue_update_runnable(
			    sched_container_of(l, struct sched_queue, all_link));
		break;
	default:
		break;
	}
	sched_turn_later(s);
}

/* --- the links ------------------------------------------------------------------------ */

/* A peer daemon went away: nothing can run any more; the service manager starts us afresh. */
static void peer_gone(struct agx_ipc_conn *conn, void *data)
{
	struct scheduler *s = data;
	const char *who = conn == s->fwchan ? "agx-fwchan" : "agx-memmgr";

	if (conn == s->fwchan)
		s->fwchan = NULL;
	else if (conn == s->memmgr)
		s->memmgr = NULL;
	if (s->quitting)
		return;
	agx_err("%s went away: stopping", who);
	scheduler_fail(s);
}

static const struct agx_ipc_peer_ops fwchan_ops = { .event = fwchan_event,
						    .disconnect = peer_gone };
static const struct agx_ipc_peer_ops memmgr_ops = { .disconnect = peer_gone };

static void wait_for(const char *path)
{
	struct timespec pause = { .tv_nsec = 10 * 1000 * 1000 };
	struct stat st;

	for (int waited = 0; stat(path, &st) < 0 && waited < PEER_WAIT_MS; waited += 10)
		nanosleep(&pause, NULL);
}

int sched_links_start(struct scheduler *s)
{
	int ret;

	s->items = calloc(SCHED_FW_ITEMS, sizeof(*s->items));
	s->free_items = calloc(SCHED_FW_ITEMS, sizeof(*s->free_items));
	s->report_timer = evtimer_new(s->base, report_all, s);
	s->retry_timer = evtimer_new(s->base, retry_held, s);
	if (!s->items || !s->free_items || !s->report_timer || !s->retry_timer)
		return -ENOMEM;
	for (unsigned i = 0; i < SCHED_FW_ITEMS; i++)
		s->free_items[i] = SCHED_FW_ITEMS - 1 - i;
	s->num_free_items = SCHED_FW_ITEMS;
	wait_for(s->config.memmgr);
	ret = agx_ipc_conn_connect(s->base, s->config.memmgr,
				   AGX__IPC__INTERFACE__INTERFACE_MEMMGR_PRIVILEGED,
				   "agx-scheduler", &memmgr_ops, s, &s->memmgr);
	if (ret < 0) {
		agx_err("cannot reach agx-memmgr at %s: %s", s->config.memmgr, strerror(-ret));
		return ret;
	}
	wait_for(s->config.fwchan);
	ret = agx_ipc_conn_connect(s->base, s->config.fwchan, AGX__IPC__INTERFACE__INTERFACE_FWCHAN,
				   "agx-scheduler", &fwchan_ops, s, &s->fwchan);
	if (ret < 0) {
		agx_err("cannot reach agx-fwchan at %s: %s", s->config.fwchan, strerror(-ret));
		return ret;
	}
	s->fw_ready = true;
	return 0;
}

void sched_links_stop(struct scheduler *s)
{
	struct agx_ipc_conn *fw = s->fwchan, *mm = s->memmgr;

	if (s->retry_timer) {
		event_free(s->retry_timer);
		s->retry_timer = NULL;
	}
	if (s->report_timer) {
		report_all(-1, 0, s); /* what memmgr has not heard yet */
		event_free(s->report_timer);
		s->report_timer = NULL;
	}
	s->quitting = true;
	s->fwchan = s->memmgr = NULL;
	if (fw)
		agx_ipc_conn_close(fw);
	if (mm)
		agx_ipc_conn_close(mm);
	/* the closes run on the loop's next turn: give them that turn */
	if (fw || mm)
		event_base_loop(s->base, EVLOOP_NONBLOCK);
	free(s->items);
	free(s->free_items);
	s->items = NULL;
	s->free_items = NULL;
}
