/*
 * firmware.h: agx-fwchan's side of the GPU firmware ABI
 * (docs/firmware-abi.md): initdata and the channels laid out in firmware
 * memory, INIT, the fwctl and devctl channels with their acknowledgements,
 * the event and log channels drained when the firmware rings.
 */
#ifndef FWCHAN_FIRMWARE_H
#define FWCHAN_FIRMWARE_H

#include <stdbool.h>
#include <stdint.h>

#include "agx_fwabi.h"
#include "kmem.h"
#include "rtkit.h"

#define FW_PIPES	12
#define FW_EVENTS	4096 /* event ring entries: the most a channel has */
#define FW_LOGS		256
#define FW_CTL_ENTRIES	64 /* fwctl and devctl */
#define FW_PIPE_ENTRIES 256
#define FW_PENDING	256 /* fwctl and devctl requests awaiting their acknowledgement */

struct fw_channel {
	uint8_t *block; /* the control block, as fwchan sees it */
	uint8_t *ring;
	uint64_t block_va, ring_va;
	unsigned entries, entry_size;
	uint32_t next; /* the producer's next index, or the consumer's */
};

typedef void (*fw_done_fn)(void *cookie, int status);

struct fw_pending {
	uint32_t seq;
	fw_done_fn done;
	void *cookie;
};

/* An fwctl or devctl request waiting for room in its channel. */
struct fw_backlog {
	unsigned op, context;
	uint64_t va, size; /* fwctl; devctl: va is the queue */
	fw_done_fn done;
	void *cookie;
};

#define FW_BACKLOG 1024

struct fw_ctl_queue {
	struct fw_backlog entries[FW_BACKLOG];
	unsigned head, tail;
};

struct firmware_ops {
	void (*ready)(void *data);  /* initdata accepted: the firmware runs */
	void (*failed)(void *data); /* initdata refused */
	/* completion, fault, timeout and tvb_grow events */
	void (*event)(void *data, const struct agx_fw_event *e);
	/* the event channel is empty again: events held back may go */
	void (*drained)(void *data);
};

struct firmware {
	struct rtkit *rtkit;
	struct kmem *kmem;
	const struct firmware_ops *ops;
	void *data;
	uint8_t *initdata;
	uint64_t initdata_va;
	struct fw_channel fwctl, devctl, event, log, pipes[FW_PIPES];
	bool starting, running;
	uint32_t seq;
	struct fw_pending pending[FW_PENDING];
	unsigned num_pending;
	struct fw_ctl_queue fwctl_backlog, devctl_backlog;
	uint32_t log_seq; /* the next log line expected */
};

/* Lays initdata and the channels out in the kmem arena. */
int firmware_init(struct firmware *fw, struct rtkit *rtkit, struct kmem *kmem,
		  const struct firmware_ops *ops, void *data);
/* Writes them afresh and sends INIT; ready or failed comes later. */
void firmware_start(struct firmware *fw);
/* What the RTKit host hands over from the GPU endpoints. */
void firmware_message(struct firmware *fw, uint8_t endpoint, uint64_t msg);
/* Reads the event and log channels (also what an rx_doorbell does). */
void firmware_drain(struct firmware *fw);

/*
 * fwctl: TLB invalidation of a context's range (size 0: the whole
 * context) or a cache flush (op cache_flush); done runs on its
 * acknowledgement.  Requests wait in order for room in the channel;
 * -EBUSY only when that backlog is full too, -ENODEV when the firmware
 * does not run.
 */
int firmware_fwctl(struct firmware *fw, enum agx_fw_fwctl_op op, unsigned context, uint64_t va,
		   uint64_t size, fw_done_fn done, void *cookie);
/* devctl: abort a context (queue 0) or forget a queue; done on its acknowledgement. */
int firmware_devctl(struct firmware *fw, enum agx_fw_devctl_op op, unsigned context, uint64_t queue,
		    fw_done_fn done, void *cookie);

/* A run_queue entry on a pipe channel (priority * 3 + pipe); false when it is full. */
bool firmware_run_queue(struct firmware *fw, unsigned priority, unsigned pipe, uint64_t queue);
/* The doorbell of a pipe channel, after its entries. */
void firmware_pipe_doorbell(struct firmware *fw, unsigned priority, unsigned pipe);

/* Every pending request fails with status (the firmware was lost). */
void firmware_fail_pending(struct firmware *fw, int status);

#endif
