/*
 * firmware.c: the GPU firmware ABI of firmware.h.
 */
#include <errno.h>
#include <string.h>

#include "agxipc/log.h"
#include "firmware.h"

#define EP_FIRMWARE   0x20 /* INIT; the firmware's rx_doorbell */
#define EP_DOORBELL   0x21
#define DEVCTL_CHAN   0x11 /* tx_doorbell channel of devctl */
#define READ_PTR      0x00
#define WRITE_PTR     0x20
#define STATUS_OFFSET 6 /* initdata's status byte: bits 48..55 */

static volatile uint32_t *ptr(const struct fw_channel *c, unsigned offset)
{
	return (volatile uint32_t *)(c->block + offset);
}

static int channel(struct firmware *fw, struct fw_channel *c, uint8_t *block, uint64_t block_va,
		   unsigned entries, unsigned entry_size)
{
	*c = (struct fw_channel){
		.block = block, .block_va = block_va, .entries = entries, .entry_size = entry_size
	};
	c->ring = kmem_alloc(fw->kmem, (uint64_t)entries * entry_size, &c->ring_va);
	return c->ring ? 0 : -ENOMEM;
}

int firmware_init(struct firmware *fw, struct rtkit *rtkit, struct kmem *kmem,
		  const struct firmware_ops *ops, void *data)
{
	uint64_t blocks_va;
	uint8_t *blocks;
	int ret = 0;

	memset(fw, 0, sizeof(*fw));
	fw->rtkit = rtkit;
	fw->kmem = kmem;
	fw->ops = ops;
	fw->data = data;
	/* initdata, then 16 control blocks of 64 bytes: fwctl, event, devctl, log, 12 pipes */
	fw->initdata = kmem_alloc(kmem, 64 + 16 * 64, &fw->initdata_va);
	if (!fw->initdata)
		return -ENOMEM;
	blocks = fw->initdata + 64;
	blocks_va = fw->initdata_va + 64;
	ret |= channel(fw, &fw->fwctl, blocks, blocks_va, FW_CTL_ENTRIES, AGX_FW_FWCTL_LENGTH);
	ret |= channel(fw, &fw->event, blocks + 64, blocks_va + 64, FW_EVENTS, AGX_FW_EVENT_LENGTH);
	ret |= channel(fw, &fw->devctl, blocks + 128, blocks_va + 128, FW_CTL_ENTRIES,
		       AGX_FW_DEVCTL_LENGTH);
	ret |= channel(fw, &fw->log, blocks + 192, blocks_va + 192, FW_LOGS, 64);
	for (unsigned i = 0; i < FW_PIPES; i++)
		ret |= channel(fw, &fw->pipes[i], blocks + 256 + 64 * i, blocks_va + 256 + 64 * i,
			       FW_PIPE_ENTRIES, AGX_FW_RUN_QUEUE_LENGTH);
	return ret ? -ENOMEM : 0;
}

static void write_block(struct fw_channel *c)
{
	struct agx_fw_channel b = { .entries = c->entries, .ring = c->ring_va };

	agx_fw_channel_pack(c->block, &b);
	c->next = 0;
}

void firmware_start(struct firmware *fw)
{
	struct agx_fw_initdata init = { .fwctl = fw->fwctl.block_va,
					.event = fw->event.block_va,
					.devctl = fw->devctl.block_va,
					.log = fw->log.block_va,
					.pipes = fw->pipes[0].block_va };
	struct agx_fw_init msg = { .initdata = fw->initdata_va & ((1ull << 44) - 1) };
	uint8_t raw[8];
	uint64_t word;

	write_block(&fw->fwctl);
	write_block(&fw->event);
	write_block(&fw->devctl);
	write_block(&fw->log);
	for (unsigned i = 0; i < FW_PIPES; i++)
		write_block(&fw->pipes[i]);
	agx_fw_initdata_pack(fw->initdata, &init);
	fw->running = false;
	fw->starting = true;
	fw->log_seq = 0;
	agx_fw_init_pack(raw, &msg);
	memcpy(&word, raw, 8);
	rtkit_send(fw->rtkit, EP_FIRMWARE, word);
}

/* Room for one more entry of a host -> firmware channel. */
static void *produce(struct fw_channel *c)
{
	uint32_t read = __atomic_load_n(ptr(c, READ_PTR), __ATOMIC_ACQUIRE);

	if ((c->next + 1) % c->entries == read)
		return NULL;
	return c->ring + (uint64_t)c->next * c->entry_size;
}

static void publish(struct fw_channel *c)
{
	c->next = (c->next + 1) % c->entries;
	__atomic_store_n(ptr(c, WRITE_PTR), c->next, __ATOMIC_RELEASE);
}

static void doorbell(struct firmware *fw, uint64_t msg_word)
{
	if (!rtkit_ring(fw->rtkit, EP_DOORBELL, msg_word))
		agx_err("firmware: the mailbox is full; a doorbell was lost");
}

static uint64_t packed(const uint8_t raw[8])
{
	uint64_t v;

	memcpy(&v, raw, 8);
	return v;
}

/* Writes one channel's backlogged requests while it has room; one doorbell for them all. */
static void ctl_flush(struct firmware *fw, bool devctl)
{
	struct fw_ctl_queue *q = devctl ? &fw->devctl_backlog : &fw->fwctl_backlog;
	struct fw_channel *c = devctl ? &fw->devctl : &fw->fwctl;
	bool wrote = false;
	uint8_t raw[8];

	while (q->tail != q->head && fw->num_pending < FW_PENDING) {
		struct fw_backlog *b = &q->entries[q->tail % FW_BACKLOG];
		void *slot = produce(c);
		uint32_t seq = ++fw->seq;
		bool ok;

		if (!slot)
			break;
		q->tail++;
		if (devctl) {
			struct agx_fw_devctl e = {
				.op = b->op, .context = b->context, .queue = b->va, .seq = seq
			};

			ok = agx_fw_devctl_fits(&e);
			if (ok)
				agx_fw_devctl_pack(slot, &e);
		} else {
			struct agx_fw_fwctl e = { .op = b->op,
						  .context = b->context,
						  .va = b->va,
						  .size = b->size,
						  .seq = seq };

			ok = agx_fw_fwctl_fits(&e);
			if (ok)
				agx_fw_fwctl_pack(slot, &e);
		}
		if (!ok) {
			b->done(b->cookie, -EINVAL);
			continue;
		}
		fw->pending[fw->num_pending++] = (struct fw_pending){ seq, b->done, b->cookie };
		publish(c);
		wrote = true;
	}
	if (!wrote)
		return;
	if (devctl) {
		struct agx_fw_tx_doorbell bell = { .channel = DEVCTL_CHAN };

		agx_fw_tx_doorbell_pack(raw, &bell);
	} else {
		struct agx_fw_fwctl_doorbell bell = { 0 };

		agx_fw_fwctl_doorbell_pack(raw, &bell);
	}
	doorbell(fw, packed(raw));
}

static int ctl(struct firmware *fw, bool devctl, struct fw_backlog b)
{
	struct fw_ctl_queue *q = devctl ? &fw->devctl_backlog : &fw->fwctl_backlog;

	if (!fw->running)
		return -ENODEV;
	if (q->head - q->tail >= FW_BACKLOG)
		return -EBUSY;
	q->entries[q->head++ % FW_BACKLOG] = b;
	ctl_flush(fw, devctl);
	return 0;
}

int firmware_fwctl(struct firmware *fw, enum agx_fw_fwctl_op op, unsigned context, uint64_t va,
		   uint64_t size, fw_done_fn done, void *cookie)
{
	return ctl(fw, false, (struct fw_backlog){ op, context, va, size, done, cookie });
}

int firmware_devctl(struct firmware *fw, enum agx_fw_devctl_op op, unsigned context, uint64_t queue,
		    fw_done_fn done, void *cookie)
{
	return ctl(fw, true, (struct fw_backlog){ op, context, queue, 0, done, cookie });
}

bool firmware_run_queue(struct firmware *fw, unsigned priority, unsigned pipe, uint64_t queue)
{
	struct fw_channel *c = &fw->pipes[priority * 3 + pipe];
	struct agx_fw_run_queue e = { .queue = queue };
	void *slot = produce(c);

	if (!slot)
		return false;
	agx_fw_run_queue_pack(slot, &e);
	publish(c);
	return true;
}

void firmware_pipe_doorbell(struct firmware *fw, unsigned priority, unsigned pipe)
{
	struct agx_fw_tx_doorbell bell = { .channel = pipe | priority << 2 };
	uint8_t raw[8];

	agx_fw_tx_doorbell_pack(raw, &bell);
	doorbell(fw, packed(raw));
}

void firmware_fail_pending(struct firmware *fw, int status)
{
	struct fw_ctl_queue *queues[2] = { &fw->fwctl_backlog, &fw->devctl_backlog };

	for (unsigned i = 0; i < 2; i++)
		while (queues[i]->tail != queues[i]->head) {
			struct fw_backlog b = queues[i]->entries[queues[i]->tail++ % FW_BACKLOG];

			b.done(b.cookie, status);
		}
	while (fw->num_pending) {
		struct fw_pending p = fw->pending[--fw->num_pending];

		p.done(p.cookie, status);
	}
}

static void acknowledged(struct firmware *fw, uint32_t seq)
{
	for (unsigned i = 0; i < fw->num_pending; i++)
		if (fw->pending[i].seq == seq) {
			struct fw_pending p = fw->pending[i];

			fw->pending[i] = fw->pending[--fw->num_pending];
			p.done(p.cookie, 0);
			/* room again */
			ctl_flush(fw, false);
			ctl_flush(fw, true);
			return;
		}
	agx_warn_ratelimited(-1, "firmware: an acknowledgement of request %u, which is not pending",
			     seq);
}

/* The next entry of a firmware -> host channel, or NULL. */
static uint8_t *consume(struct fw_channel *c)
{
	uint32_t write = __atomic_load_n(ptr(c, WRITE_PTR), __ATOMIC_ACQUIRE);

	if (write >= c->entries) {
		agx_err("firmware: a channel's write pointer %u is outside its %u entries", write,
			c->entries);
		return NULL;
	}
	return c->next == write ? NULL : c->ring + (uint64_t)c->next * c->entry_size;
}

static void consumed(struct fw_channel *c)
{
	c->next = (c->next + 1) % c->entries;
	__atomic_store_n(ptr(c, READ_PTR), c->next, __ATOMIC_RELEASE);
}

void firmware_drain(struct firmware *fw)
{
	uint8_t *entry;

	while ((entry = consume(&fw->log))) {
		struct agx_fw_log h;

		if (agx_fw_log_unpack(entry, &h) && h.length <= 56) {
			if (h.seq != fw->log_seq)
				agx_warn("firmware: %u log lines lost",
					 (unsigned)(h.seq - fw->log_seq));
			fw->log_seq = (uint32_t)h.seq + 1;
			/* the same lines reach the syslog, which is copied at info */
			agx_dbg("firmware log: %.*s", (int)h.length, (const char *)entry + 8);
		}
		consumed(&fw->log);
	}
	while ((entry = consume(&fw->event))) {
		struct agx_fw_event e;

		if (!agx_fw_event_unpack(entry, &e))
			agx_warn_ratelimited(-1, "firmware: an event that does not decode");
		else if (e.type == AGX_FW_EVENT_TYPE_FWCTL_DONE ||
			 e.type == AGX_FW_EVENT_TYPE_DEVCTL_DONE)
			acknowledged(fw, e.seq);
		else
			fw->ops->event(fw->data, &e);
		consumed(&fw->event);
	}
	if (fw->ops->drained)
		fw->ops->drained(fw->data);
}

void firmware_message(struct firmware *fw, uint8_t endpoint, uint64_t msg)
{
	struct agx_fw_rx_doorbell bell;
	uint8_t raw[8];

	memcpy(raw, &msg, 8);
	if (endpoint != EP_FIRMWARE || !agx_fw_rx_doorbell_unpack(raw, &bell)) {
		agx_warn_ratelimited(-1, "firmware: unexpected message %#018llx on endpoint %#x",
				     (unsigned long long)msg, endpoint);
		return;
	}
	if (fw->starting) {
		uint8_t status = __atomic_load_n(fw->initdata + STATUS_OFFSET, __ATOMIC_ACQUIRE);

		if (status == AGX_FW_STATUS_RUNNING) {
			fw->starting = false;
			fw->running = true;
			firmware_drain(fw);
			fw->ops->ready(fw->data);
			return;
		}
		if (status == AGX_FW_STATUS_BAD_INITDATA) {
			fw->starting = false;
			firmware_drain(fw);
			fw->ops->failed(fw->data);
			return;
		}
	}
	firmware_drain(fw);
}
