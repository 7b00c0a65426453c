/*
 * work.h: agx-fwchan's firmware contexts and work items.  A context is a
 * work queue per pipe (vertex, fragment, compute) in firmware memory, at
 * one priority, for the VM in one UAT slot; a work item is built here from
 * a validated descriptor (clients never write what the firmware reads),
 * appended to its queue and announced on the queue's pipe channel.
 * Announcements made while handling one loop iteration's requests go out
 * together, one doorbell per channel.
 */
#ifndef FWCHAN_WORK_H
#define FWCHAN_WORK_H

#include <stdbool.h>
#include <stdint.h>

#include "agxipc/ipc.h"
#include "firmware.h"
#include "known.h"

#define WORK_SLOTS	   65536 /* event_slot is 16 bits */
#define WORK_QUEUE_ENTRIES 256
#define WORK_PIPES	   3
/*
 * Items in the firmware's queues at once, across all contexts.  An item
 * posts at most three events (a fault or TVB growth, a timeout, its
 * completion), so with fwctl and devctl acknowledgements the event ring
 * (FW_EVENTS) never overflows, however slowly fwchan reads it.
 */
#define WORK_IN_RINGS 1024
/*
 * Contexts at once.  Each holds three queues' rings (about 6 KiB) in the
 * 16 MiB arena, whose rest is for the items in flight: without a cap,
 * contexts could take all of it, and then no submission of anyone could
 * get item memory (BUSY for ever).  1,024 of them take 6 MiB.
 */
#define WORK_MAX_CONTEXTS 1024

struct agx_ipc_conn;
struct event;
struct work;
struct work_context;

struct work_item {
	struct work_context *ctx;
	unsigned pipe;
	uint64_t job_id;
	uint8_t *mem; /* header, body, stamp */
	uint64_t va;
	unsigned bytes;
	uint32_t stamp_value;
	bool used, queued; /* queued: in the ring, not in the backlog */
	struct work_item *next;
};

struct work_queue {
	struct work_context *ctx;
	unsigned pipe;
	uint8_t *desc;
	uint64_t desc_va;
	uint64_t *ring;
	uint64_t ring_va;
	uint32_t write;
	struct work_item *backlog, **backlog_tail; /* waiting for room */
	bool dirty;				   /* appended since it was last announced */
	struct work_queue *next_dirty;
};

#define WORK_BATCH 1024 /* completions in one event at most */

struct work_batch {
	struct agx_ipc_conn *owner;
	Agx__Fwchan__Completion items[WORK_BATCH];
	unsigned count;
};

struct work_context {
	uint32_t id;
	unsigned slot, priority, time_limit_us;
	struct agx_ipc_conn *owner;
	struct work_queue queues[WORK_PIPES];
	unsigned items;	 /* in the rings and the backlogs */
	bool destroying; /* waiting for the firmware to forget its queues */
	struct work_context *next;
};

struct work {
	struct firmware *fw;
	struct kmem *kmem;
	struct work_context *contexts;
	unsigned num_contexts;
	uint32_t next_context, next_stamp;
	struct work_item *items; /* WORK_SLOTS of them, by event slot */
	uint16_t *free_slots;
	unsigned num_free;
	struct work_queue *dirty;
	struct event *kick;
	bool kicking;
	unsigned in_rings;  /* items in the queues' rings, at most WORK_IN_RINGS */
	struct known known; /* ranges memmgr said are mapped, by slot */
	/* completions not sent yet, by the connection they go to */
	struct work_batch *batches;
	unsigned num_batches;
};

int work_init(struct work *w, struct event_base *base, struct firmware *fw, struct kmem *kmem);
void work_fini(struct work *w);

/* 0 or -errno; why says what was refused. */
int work_context_create(struct work *w, struct agx_ipc_conn *owner, unsigned slot,
			unsigned priority, unsigned time_limit_us, uint32_t *id, char *why,
			size_t why_size);
/* Forgets the context's queues, then aborts what had not run and frees it; done after. */
int work_context_destroy(struct work *w, struct agx_ipc_conn *owner, uint32_t id,
			 void (*done)(void *cookie, int status), void *cookie, char *why,
			 size_t why_size);
/* Every context of a connection that went away. */
void work_owner_gone(struct work *w, struct agx_ipc_conn *owner);

/* Validates and queues a submission's items (all or none). */
int work_submit(struct work *w, struct agx_ipc_conn *owner, const Agx__Fwchan__Submit *s, char *why,
		size_t why_size);

/* An event of the firmware's that names a work item. */
void work_event(struct work *w, const struct agx_fw_event *e);
/* Sends the completions gathered since the last time, one event per connection. */
void work_flush(struct work *w);
/*
 * The firmware was lost: each context's owner hears DEVICE_LOST (reason,
 * the jobs lost), every item completes with RESULT_DEVICE_LOST, and the
 * queues start again empty.
 */
void work_device_lost(struct work *w, const char *reason);

#endif
