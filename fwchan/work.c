/*
 * work.c: firmware contexts and work items (work.h).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <event2/event.h>

#include "agx/work.h"
#include "agx_cmdbuf.h"
#include "agxipc/log.h"
#include "agxipc/server.h"
#include "work.h"

#define QUEUE_READ  0x00 /* the firmware's read_ptr in a queue descriptor */
#define QUEUE_WRITE 0x20

static int refuse(char *why, size_t size, int err, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

static int refuse(char *why, size_t size, int err, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, size, fmt, ap);
	va_end(ap);
	return err;
}

/* The firmware's priority: 0 is the highest, agx.work.Priority's REALTIME. */
static unsigned fw_priority(unsigned priority)
{
	return 3 - priority;
}

static void kick(evutil_socket_t fd, short what, void *arg);

int work_init(struct work *w, struct event_base *base, struct firmware *fw, struct kmem *kmem)
{
	memset(w, 0, sizeof(*w));
	w->fw = fw;
	w->kmem = kmem;
	w->items = calloc(WORK_SLOTS, sizeof(*w->items));
	w->free_slots = calloc(WORK_SLOTS, sizeof(*w->free_slots));
	w->kick = event_new(base, -1, 0, kick, w);
	if (!w->items || !w->free_slots || !w->kick)
		return -ENOMEM;
	/* slot 0 is never used: the lowest slots come first */
	for (unsigned i = WORK_SLOTS - 1; i > 0; i--)
		w->free_slots[w->num_free++] = (uint16_t)i;
	return 0;
}

/* --- queues -------------------------------------------------------------------------- */

static void queue_write_desc(struct work_queue *q)
{
	struct work_context *c = q->ctx;
	struct agx_fw_work_queue d = { .read_ptr = q->write,
				       .write_ptr = q->write,
				       .entries = WORK_QUEUE_ENTRIES,
				       .ring = q->ring_va,
				       .context = c->slot,
				       .priority = c->priority,
				       .pipe = q->pipe,
				       .time_limit_us = c->time_limit_us };

	agx_fw_work_queue_pack(q->desc, &d);
}

static int queue_init(struct work *w, struct work_context *c, unsigned pipe)
{
	struct work_queue *q = &c->queues[pipe];

	q->ctx = c;
	q->pipe = pipe;
	q->backlog_tail = &q->backlog;
	q->desc = kmem_alloc(w->kmem, AGX_FW_WORK_QUEUE_LENGTH, &q->desc_va);
	q->ring = kmem_alloc(w->kmem, WORK_QUEUE_ENTRIES * 8, &q->ring_va);
	if (!q->desc || !q->ring)
		return -ENOMEM;
	queue_write_desc(q);
	return 0;
}

static void queue_fini(struct work *w, struct work_queue *q)
{
	if (q->desc)
		kmem_free(w->kmem, q->desc, AGX_FW_WORK_QUEUE_LENGTH);
	if (q->ring)
		kmem_free(w->kmem, q->ring, WORK_QUEUE_ENTRIES * 8);
	q->desc = NULL;
	q->ring = NULL;
}

static void mark_dirty(struct work *w, struct work_queue *q)
{
	if (!q->dirty) {
		q->dirty = true;
		q->next_dirty = w->dirty;
		w->dirty = q;
	}
	/* announced on the loop's next turn, with everything else appended meanwhile */
	if (!w->kicking) {
		w->kicking = true;
		event_active(w->kick, EV_TIMEOUT, 0);
	}
}

/* Moves backlogged items into the ring while it has room. */
static void queue_fill(struct work *w, struct work_queue *q)
{
	bool appended = false;

	while (q->backlog && w->in_rings < WORK_IN_RINGS) {
		volatile uint32_t *read = (volatile uint32_t *)(q->desc + QUEUE_READ);
		struct work_item *it = q->backlog;

		if ((q->write + 1) % WORK_QUEUE_ENTRIES == __atomic_load_n(read, __ATOMIC_ACQUIRE))
			break;
		q->backlog = it->next;
		if (!q->backlog)
			q->backlog_tail = &q->backlog;
		it->next = NULL;
		it->queued = true;
		q->ring[q->write] = it->va;
		q->write = (q->write + 1) % WORK_QUEUE_ENTRIES;
		w->in_rings++;
		appended = true;
	}
	if (appended) {
		__atomic_store_n((volatile uint32_t *)(q->desc + QUEUE_WRITE), q->write,
				 __ATOMIC_RELEASE);
		mark_dirty(w, q);
	}
}

static void kick(evutil_socket_t fd, short what, void *arg)
{
	struct work *w = arg;
	bool rung[4][WORK_PIPES] = { { false } };
	struct work_queue *q, *retry = NULL;

	(void)fd;
	(void)what;
	w->kicking = false;
	while ((q = w->dirty)) {
		w->dirty = q->next_dirty;
		q->dirty = false;
		if (!firmware_run_queue(w->fw, q->ctx->priority, q->pipe, q->desc_va)) {
			/* the pipe channel is full: again when the firmware has read it */
			q->dirty = true;
			q->next_dirty = retry;
			retry = q;
			continue;
		}
		rung[q->ctx->priority][q->pipe] = true;
	}
	w->dirty = retry;
	for (unsigned p = 0; p < 4; p++)
		for (unsigned pipe = 0; pipe < WORK_PIPES; pipe++)
			if (rung[p][pipe])
				firmware_pipe_doorbell(w->fw, p, pipe);
}

/* --- items ---------------------------------------------------------------------------- */

static void item_free(struct work *w, struct work_item *it)
{
	kmem_free(w->kmem, it->mem, it->bytes);
	it->ctx->items--;
	it->used = false;
	w->free_slots[w->num_free++] = (uint16_t)(it - w->items);
}

static void flush_batch(struct work_batch *b)
{
	Agx__Fwchan__CompletionEvent e = AGX__FWCHAN__COMPLETION_EVENT__INIT;
	Agx__Fwchan__Completion *list[WORK_BATCH];

	if (!b->count)
		return;
	for (unsigned i = 0; i < b->count; i++)
		list[i] = &b->items[i];
	e.completions = list;
	e.n_completions = b->count;
	if (agx_ipc_conn_is_open(b->owner))
		agx_ipc_conn_send_event(b->owner, AGX_IPC_MSG_FWCHAN_COMPLETION, &e.base, NULL, 0);
	b->count = 0;
}

void work_flush(struct work *w)
{
	for (unsigned i = 0; i < w->num_batches; i++)
		flush_batch(&w->batches[i]);
}

/*
 * Gathered, and sent with the others of its connection when the firmware
 * has said all it had.  start and end are the stamp's device-timer times;
 * 0 for an item the firmware never completed.
 */
static void send_completion(struct work *w, struct work_item *it, unsigned result, uint64_t start,
			    uint64_t end)
{
	struct agx_ipc_conn *owner = it->ctx->owner;
	struct work_batch *b = NULL;

	for (unsigned i = 0; i < w->num_batches && !b; i++)
		if (w->batches[i].owner == owner)
			b = &w->batches[i];
	if (!b) {
		struct work_batch *grown =
		    realloc(w->batches, (w->num_batches + 1) * sizeof(*grown));

		if (!grown) {
			agx_err("no memory to hold a completion of job %" PRIu64 "; it is lost",
				it->job_id);
			return;
		}
		w->batches = grown;
		b = &w->batches[w->num_batches++];
		b->owner = owner;
		b->count = 0;
	}
	if (b->count == WORK_BATCH)
		flush_batch(b);
	agx__fwchan__completion__init(&b->items[b->count]);
	b->items[b->count].job_id = it->job_id;
	b->items[b->count].stamp = it->stamp_value;
	b->items[b->count].result = (Agx__Fwchan__WorkResult)result;
	b->items[b->count].gpu_start_ns = start;
	b->items[b->count].gpu_end_ns = end;
	b->count++;
}

/* A connection's batch goes before the connection can (its contexts hold it until then). */
static void forget_batch(struct work *w, struct agx_ipc_conn *owner)
{
	for (unsigned i = 0; i < w->num_batches; i++)
		if (w->batches[i].owner == owner) {
			flush_batch(&w->batches[i]);
			w->batches[i] = w->batches[--w->num_batches];
			return;
		}
}

/* Every item of a context that the firmware will not complete, with result. */
static void context_drop_items(struct work *w, struct work_context *c, unsigned result)
{
	for (unsigned i = 1; i < WORK_SLOTS && c->items; i++) {
		struct work_item *it = &w->items[i];

		if (it->used && it->ctx == c) {
			send_completion(w, it, result, 0, 0);
			if (it->queued)
				w->in_rings--;
			item_free(w, it);
		}
	}
	for (unsigned p = 0; p < WORK_PIPES; p++) {
		c->queues[p].backlog = NULL;
		c->queues[p].backlog_tail = &c->queues[p].backlog;
	}
}

/* --- contexts -------------------------------------------------------------------------- */

static struct work_context *context_find(struct work *w, struct agx_ipc_conn *owner, uint32_t id)
{
	for (struct work_context *c = w->contexts; c; c = c->next)
		if (c->id == id && c->owner == owner && !c->destroying)
			return c;
	return NULL;
}

int work_context_create(struct work *w, struct agx_ipc_conn *owner, unsigned slot,
			unsigned priority, unsigned time_limit_us, uint32_t *id, char *why,
			size_t why_size)
{
	struct work_context *c;
	int ret = 0;

	if (slot < 1 || slot > 63)
		return refuse(why, why_size, -EINVAL, "context slot %u: user VMs are in 1..63",
			      slot);
	if (priority > 3)
		return refuse(why, why_size, -EINVAL, "priority %u is not one of the four",
			      priority);
	if (w->num_contexts >= WORK_MAX_CONTEXTS)
		return refuse(why, why_size, -ENOSPC,
			      "all %d firmware contexts are in use; destroy one first",
			      WORK_MAX_CONTEXTS);
	c = calloc(1, sizeof(*c));
	if (!c)
		return -ENOMEM;
	c->id = ++w->next_context;
	c->slot = slot;
	c->priority = fw_priority(priority);
	c->time_limit_us = time_limit_us;
	c->owner = owner;
	for (unsigned p = 0; p < WORK_PIPES && ret == 0; p++)
		ret = queue_init(w, c, p);
	if (ret < 0) {
		for (unsigned p = 0; p < WORK_PIPES; p++)
			queue_fini(w, &c->queues[p]);
		free(c);
		return refuse(why, why_size, -ENOMEM, "no firmware memory for the queues");
	}
	agx_ipc_conn_ref(owner);
	c->next = w->contexts;
	w->contexts = c;
	w->num_contexts++;
	*id = c->id;
	return 0;
}

struct destroying {
	struct work *w;
	struct work_context *c;
	unsigned waiting;
	void (*done)(void *cookie, int status);
	void *cookie;
};

static void context_free(struct work *w, struct work_context *c)
{
	struct work_context **pc = &w->contexts;

	context_drop_items(w, c, AGX__FWCHAN__WORK_RESULT__RESULT_ABORTED);
	/* it may still wait to be announced */
	for (struct work_queue **pq = &w->dirty; *pq;)
		if ((*pq)->ctx == c)
			*pq = (*pq)->next_dirty;
		else
			pq = &(*pq)->next_dirty;
	for (unsigned p = 0; p < WORK_PIPES; p++)
		queue_fini(w, &c->queues[p]);
	while (*pc != c)
		pc = &(*pc)->next;
	*pc = c->next;
	w->num_contexts--;
	/* the last context of its owner: the owner's completions go now, before it can */
	{
		bool last = true;

		for (struct work_context *o = w->contexts; o && last; o = o->next)
			last = o->owner != c->owner;
		if (last)
			forget_batch(w, c->owner);
	}
	work_flush(w); /* the aborted items' completions go at once */
	agx_ipc_conn_unref(c->owner);
	free(c);
}

static void forgotten(void *cookie, int status)
{
	struct destroying *d = cookie;

	/* a firmware that is gone reads no queue either */
	if (--d->waiting)
		return;
	context_free(d->w, d->c);
	if (d->done)
		d->done(d->cookie, 0);
	free(d);
}

static void context_destroy(struct work *w, struct work_context *c,
			    void (*done)(void *cookie, int status), void *cookie)
{
	struct destroying *d = calloc(1, sizeof(*d));

	c->destroying = true;
	if (!d) {
		context_free(w, c);
		if (done)
			done(cookie, 0);
		return;
	}
	*d = (struct destroying){ w, c, WORK_PIPES + 1, done, cookie };
	for (unsigned p = 0; p < WORK_PIPES; p++)
		if (firmware_devctl(w->fw, AGX_FW_DEVCTL_OP_FORGET_QUEUE, 0, c->queues[p].desc_va,
				    forgotten, d) < 0)
			d->waiting--;
	forgotten(d, 0); /* the extra count: all requests are out */
}

int work_context_destroy(struct work *w, struct agx_ipc_conn *owner, uint32_t id,
			 void (*done)(void *cookie, int status), void *cookie, char *why,
			 size_t why_size)
{
	struct work_context *c = context_find(w, owner, id);

	if (!c)
		return refuse(why, why_size, -ENOENT, "no context %u", id);
	context_destroy(w, c, done, cookie);
	return 0;
}

void work_owner_gone(struct work *w, struct agx_ipc_conn *owner)
{
	for (struct work_context *c = w->contexts, *next; c; c = next) {
		next = c->next;
		if (c->owner == owner && !c->destroying)
			context_destroy(w, c, NULL, NULL);
	}
}

void work_fini(struct work *w)
{
	while (w->contexts)
		context_free(w, w->contexts);
	free(w->batches);
	if (w->kick)
		event_free(w->kick);
	free(w->items);
	free(w->free_slots);
	memset(w, 0, sizeof(*w));
}

/* --- submission ------------------------------------------------------------------------ */

/*
 * What an item names, to be checked against the VM: the ranges, with the
 * access each needs.  Fails on what is wrong in the descriptor itself
 * (agx/work.h's rules), naming item n.
 */
static int item_ranges(const Agx__Fwchan__WorkItem *it, unsigned n, struct agx_work_range *r,
		       unsigned *count, char *why, size_t why_size)
{
	char inner[160];
	int ret;

	switch (it->kind) {
	case AGX__FWCHAN__WORK_KIND__WORK_COMPUTE:
		ret = agx_work_compute_ranges(
		    it->work_case == AGX__FWCHAN__WORK_ITEM__WORK_COMPUTE ? it->compute : NULL, r,
		    count, inner, sizeof(inner));
		break;
	case AGX__FWCHAN__WORK_KIND__WORK_RENDER:
		ret = agx_work_render_ranges(
		    it->work_case == AGX__FWCHAN__WORK_ITEM__WORK_RENDER ? it->render : NULL, r,
		    count, inner, sizeof(inner));
		break;
	default:
		return refuse(why, why_size, -EINVAL,
			      "item %u: kind %d is not compute or render (barriers are the "
			      "scheduler's)",
			      n, (int)it->kind);
	}
	return ret < 0 ? refuse(why, why_size, ret, "item %u: %s", n, inner) : 0;
}

/*
 * Every range the submission names, checked against the VM of the slot:
 * what fwchan does not already know to be mapped goes to memmgr in one
 * VM_CHECK.
 */
static int check_ranges(struct work *w, unsigned slot, const Agx__Fwchan__Submit *s, char *why,
			size_t why_size)
{
	Agx__Memmgr__VmRange *ranges = calloc(AGX_WORK_MAX_RANGES * s->n_items, sizeof(*ranges));
	Agx__Memmgr__VmRange **list = calloc(AGX_WORK_MAX_RANGES * s->n_items, sizeof(*list));
	size_t n = 0;
	int ret = 0;

	if (!ranges || !list) {
		free(ranges);
		free(list);
		return -ENOMEM;
	}
	for (size_t i = 0; ret == 0 && i < s->n_items; i++) {
		struct agx_work_range want[AGX_WORK_MAX_RANGES];
		unsigned count = 0;

		ret = item_ranges(s->items[i], (unsigned)i, want, &count, why, why_size);
		for (unsigned k = 0; ret == 0 && k < count; k++) {
			if (known_mapped(&w->known, slot, want[k].va, want[k].size, want[k].access))
				continue;
			agx__memmgr__vm_range__init(&ranges[n]);
			ranges[n].va = want[k].va;
			ranges[n].size = want[k].size;
			ranges[n].access = want[k].access;
			list[n] = &ranges[n];
			n++;
		}
	}
	if (ret == 0 && n)
		ret = kmem_vm_check(w->kmem, slot, list, n, why, why_size);
	for (size_t i = 0; ret == 0 && i < n; i++)
		known_add(&w->known, slot, ranges[i].va, ranges[i].size, ranges[i].access);
	free(ranges);
	free(list);
	return ret;
}

static bool is_render(const Agx__Fwchan__WorkItem *in)
{
	return in->kind == AGX__FWCHAN__WORK_KIND__WORK_RENDER;
}

/* Header, body, then the stamp, 8-byte aligned. */
static unsigned item_bytes(const Agx__Fwchan__WorkItem *in)
{
	return AGX_FW_WORK_HEADER_LENGTH +
	       (is_render(in) ? AGX_FW_WORK_RENDER_LENGTH : AGX_FW_WORK_COMPUTE_LENGTH) +
	       AGX_FW_STAMP_LENGTH;
}

/*
 * The firmware's item, built from the checked descriptor in the memory
 * given (item_bytes of it), into its queue's backlog.
 */
static void build(struct work *w, struct work_context *c, const Agx__Fwchan__WorkItem *in,
		  uint8_t *mem, uint64_t va)
{
	bool render = is_render(in);
	struct agx_fw_work_header h = { .type = render ? AGX_FW_WORK_TYPE_RENDER
						       : AGX_FW_WORK_TYPE_COMPUTE };
	/* renders run on a vertex queue: the item does both of its stages */
	unsigned pipe = render ? AGX_FW_PIPE_VERTEX : AGX_FW_PIPE_COMPUTE;
	struct work_queue *q = &c->queues[pipe];
	uint16_t slot = w->free_slots[w->num_free - 1];
	struct work_item *it = &w->items[slot];

	h.event_slot = slot;
	h.stamp_value = w->next_stamp + 1;
	h.stamp = va + item_bytes(in) - AGX_FW_STAMP_LENGTH;
	agx_fw_work_header_pack(mem, &h);
	if (render) {
		const Agx__Work__Render *r = in->render;
		struct agx_fw_work_render b = {
			.encoder = r->encoder,
			.encoder_end = r->encoder_end,
			.usc_base = r->usc_base,
			.tvb = r->tvb,
			.tvb_size = r->tvb_size,
			.width = r->width,
			.height = r->height,
			.samples = r->samples,
			.utile_width = r->utile_width,
			.utile_height = r->utile_height,
			.sample_size = r->sample_size,
			.load_pipeline = r->load_pipeline,
			.load_pipeline_bind = r->load_pipeline_bind,
			.store_pipeline = r->store_pipeline,
			.store_pipeline_bind = r->store_pipeline_bind,
			.partial_reload_pipeline = r->partial_reload_pipeline,
			.partial_reload_pipeline_bind = r->partial_reload_pipeline_bind,
			.partial_store_pipeline = r->partial_store_pipeline,
			.partial_store_pipeline_bind = r->partial_store_pipeline_bind,
			.zls_control = r->zls_control,
			.depth_buffer = r->depth_buffer,
			.stencil_buffer = r->stencil_buffer,
			.depth_clear = r->depth_clear,
			.stencil_clear = r->stencil_clear,
			.scissor_array = r->scissor_array,
			.depth_bias_array = r->depth_bias_array,
			.visibility_result_buffer = r->visibility_result_buffer,
			.scissor_count = r->scissor_count,
			.depth_bias_count = r->depth_bias_count,
			.visibility_count = r->visibility_count,
		};

		/* agx_work_render_ranges kept every value inside its field */
		agx_fw_work_render_pack(mem + AGX_FW_WORK_HEADER_LENGTH, &b);
	} else {
		struct agx_fw_work_compute b = { .encoder = in->compute->encoder,
						 .encoder_end = in->compute->encoder_end,
						 .usc_base = in->compute->usc_base };

		agx_fw_work_compute_pack(mem + AGX_FW_WORK_HEADER_LENGTH, &b);
	}
	w->num_free--;
	*it = (struct work_item){ .ctx = c,
				  .pipe = pipe,
				  .job_id = in->job_id,
				  .mem = mem,
				  .va = va,
				  .bytes = item_bytes(in),
				  .stamp_value = ++w->next_stamp,
				  .used = true };
	c->items++;
	*q->backlog_tail = it;
	q->backlog_tail = &it->next;
}

int work_submit(struct work *w, struct agx_ipc_conn *owner, const Agx__Fwchan__Submit *s, char *why,
		size_t why_size)
{
	struct work_context *c = context_find(w, owner, s->context);
	uint8_t **mems = NULL;
	uint64_t *vas = NULL;
	int ret = 0;

	if (!c)
		return refuse(why, why_size, -ENOENT, "no context %u", s->context);
	if (!w->fw->running)
		return refuse(why, why_size, -ENODEV,
			      "the firmware is not running: it is being restarted");
	if (!s->n_items)
		return refuse(why, why_size, -EINVAL, "a submission of no items");
	if (s->n_items > w->num_free)
		return refuse(why, why_size, -EBUSY, "%zu items, and room for %u in flight",
			      s->n_items, w->num_free);
	if (s->context_slot != c->slot) {
		/* memmgr moved the VM while it was idle: the queues follow it */
		if (s->context_slot < 1 || s->context_slot > 63)
			return refuse(why, why_size, -EINVAL,
				      "context slot %u: user VMs are in 1..63", s->context_slot);
		if (c->items)
			return refuse(why, why_size, -EBUSY, "context %u still has work in slot %u",
				      c->id, c->slot);
		c->slot = s->context_slot;
		for (unsigned p = 0; p < WORK_PIPES; p++)
			queue_write_desc(&c->queues[p]);
	}
	/* every descriptor checked, then every range against the VM: all or none */
	ret = check_ranges(w, c->slot, s, why, why_size);
	if (ret < 0)
		return ret;
	/* the items' memory first: all of it, or the submission waits for completions */
	mems = calloc(s->n_items, sizeof(*mems));
	vas = calloc(s->n_items, sizeof(*vas));
	for (size_t i = 0; mems && vas && i < s->n_items; i++) {
		mems[i] = kmem_alloc(w->kmem, item_bytes(s->items[i]), &vas[i]);
		if (!mems[i]) {
			while (i--)
				kmem_free(w->kmem, mems[i], item_bytes(s->items[i]));
			ret = refuse(why, why_size, -EBUSY,
				     "firmware memory is full of items in flight");
			break;
		}
	}
	if (!mems || !vas)
		ret = -ENOMEM;
	for (size_t i = 0; ret == 0 && i < s->n_items; i++)
		build(w, c, s->items[i], mems[i], vas[i]);
	free(mems);
	free(vas);
	for (unsigned p = 0; p < WORK_PIPES; p++)
		queue_fill(w, &c->queues[p]);
	return ret;
}

/* --- events ---------------------------------------------------------------------------- */

/*
 * When the GPU ran a completed item, from the stamp the firmware wrote at
 * the end of the item's memory before it posted the completion; 0 and 0
 * (logged) for a stamp that is not the item's or not in order.
 */
static void item_times(const struct work_item *it, uint64_t *start, uint64_t *end)
{
	struct agx_fw_stamp st;

	*start = *end = 0;
	if (!agx_fw_stamp_unpack(it->mem + it->bytes - AGX_FW_STAMP_LENGTH, &st) ||
	    st.value != it->stamp_value || st.start > st.end) {
		agx_warn_ratelimited(-1, "firmware: job %" PRIu64 "'s stamp holds no times for it",
				     it->job_id);
		return;
	}
	*start = st.start;
	*end = st.end;
}

static const char *unit_name(unsigned unit)
{
	static const char *const names[] = { "unknown", "cdm", "usc", "vdm", "tiler", "zls" };

	return unit < sizeof(names) / sizeof(names[0]) ? names[unit] : "unknown";
}

void work_event(struct work *w, const struct agx_fw_event *e)
{
	struct work_item *it = e->slot ? &w->items[e->slot] : NULL;

	if (!it || !it->used) {
		agx_warn_ratelimited(-1, "firmware: event %u for slot %u, which no item holds",
				     (unsigned)e->type, (unsigned)e->slot);
		return;
	}
	switch (e->type) {
	case AGX_FW_EVENT_TYPE_COMPLETION: {
		struct work_queue *q = &it->ctx->queues[it->pipe];
		uint64_t start, end;

		if (e->value != it->stamp_value)
			agx_warn_ratelimited(
			    -1, "firmware: slot %u completed with stamp %u, not %u",
			    (unsigned)e->slot, (unsigned)e->value, it->stamp_value);
		item_times(it, &start, &end);
		send_completion(w, it, (unsigned)e->result, start, end);
		if (it->queued)
			w->in_rings--;
		item_free(w, it);
		queue_fill(w, q);
		/* room under the cap: other contexts' waiting items too */
		for (struct work_context *o = w->contexts; o && w->in_rings < WORK_IN_RINGS;
		     o = o->next)
			for (unsigned p = 0; p < WORK_PIPES; p++)
				if (o->queues[p].backlog)
					queue_fill(w, &o->queues[p]);
		if (w->dirty && !w->kicking) {
			w->kicking = true;
			event_active(w->kick, EV_TIMEOUT, 0);
		}
		break;
	}
	case AGX_FW_EVENT_TYPE_FAULT: {
		Agx__Fwchan__FaultEvent f = AGX__FWCHAN__FAULT_EVENT__INIT;
		pid_t pid = 0;
		uint32_t vm = 0, bo = 0;
		uint64_t offset = 0;

		f.job_id = it->job_id;
		f.context_slot = e->context;
		f.va = e->va;
		f.write = e->write;
		f.reason = (Agx__Fwchan__FaultReason)e->reason;
		f.unit = (char *)unit_name((unsigned)e->unit);
		/* whose memory it is, as memmgr sees it now */
		if (kmem_fault_decode(w->kmem, (unsigned)e->context, e->va, &pid, &vm, &bo,
				      &offset) == 0) {
			f.client_pid = (uint32_t)pid;
			f.bo = bo;
			f.bo_offset = offset;
		}
		if (agx_ipc_conn_is_open(it->ctx->owner))
			agx_ipc_conn_send_event(it->ctx->owner, AGX_IPC_MSG_FWCHAN_FAULT, &f.base,
						NULL, 0);
		break;
	}
	case AGX_FW_EVENT_TYPE_TVB_GROW: {
		Agx__Fwchan__TvbGrowEvent g = AGX__FWCHAN__TVB_GROW_EVENT__INIT;

		g.job_id = it->job_id;
		g.bytes = e->value;
		if (agx_ipc_conn_is_open(it->ctx->owner))
			agx_ipc_conn_send_event(it->ctx->owner, AGX_IPC_MSG_FWCHAN_TVB_GROW,
						&g.base, NULL, 0);
		break;
	}
	case AGX_FW_EVENT_TYPE_TIMEOUT:
		/* the completion that follows says RESULT_TIMEOUT */
		break;
	default:
		agx_warn_ratelimited(-1, "firmware: an event of type %u", (unsigned)e->type);
	}
}

/* Tells the owner of c which of its jobs are lost (once per owner: the first context of it). */
static void tell_lost(struct work *w, struct work_context *c, const char *reason)
{
	Agx__Fwchan__DeviceLostEvent e = AGX__FWCHAN__DEVICE_LOST_EVENT__INIT;
	uint64_t *jobs;
	size_t n = 0;

	for (struct work_context *o = w->contexts; o != c; o = o->next)
		if (o->owner == c->owner)
			return;
	jobs = calloc(WORK_SLOTS, sizeof(*jobs));
	if (!jobs)
		return;
	for (unsigned i = 1; i < WORK_SLOTS; i++)
		if (w->items[i].used && w->items[i].ctx->owner == c->owner)
			jobs[n++] = w->items[i].job_id;
	e.reason = (char *)reason;
	e.lost_job_ids = jobs;
	e.n_lost_job_ids = n;
	if (agx_ipc_conn_is_open(c->owner))
		agx_ipc_conn_send_event(c->owner, AGX_IPC_MSG_FWCHAN_DEVICE_LOST, &e.base, NULL, 0);
	free(jobs);
}

void work_device_lost(struct work *w, const char *reason)
{
	known_forget_all(&w->known);
	for (struct work_context *c = w->contexts; c; c = c->next)
		tell_lost(w, c, reason);
	for (struct work_context *c = w->contexts; c; c = c->next) {
		context_drop_items(w, c, AGX__FWCHAN__WORK_RESULT__RESULT_DEVICE_LOST);
		/* the rings start again empty after the firmware does */
		for (unsigned p = 0; p < WORK_PIPES; p++) {
			c->queues[p].write = 0;
			c->queues[p].dirty = false;
			queue_write_desc(&c->queues[p]);
		}
	}
	w->dirty = NULL;
	work_flush(w);
}
