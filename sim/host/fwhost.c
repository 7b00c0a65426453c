/*
 * fwhost.c: the host side of the GPU firmware ABI of fwhost.h.
 *
 * The firmware pages: page 0 holds initdata and the control blocks, page 1
 * the host -> firmware rings, page 2 the event and log rings; the rest is
 * handed out by sim_fwhost_alloc().
 */
#include <errno.h>
#include <string.h>

#include "agx/mmio.h"
#include "gpufw.h"
#include "host/fwhost.h"

#define PAGE 0x4000u

enum {
	INITDATA = 0,
	FWCTL_BLOCK = 0x100,
	EVENT_BLOCK = 0x140,
	DEVCTL_BLOCK = 0x180,
	LOG_BLOCK = 0x1c0,
	PIPE_BLOCKS = 0x200, /* 12 of 64 bytes */
	FWCTL_RING = PAGE,
	DEVCTL_RING = PAGE + 0x800,
	PIPE_RINGS = PAGE + 0x1000, /* 12 of 0x400 */
	EVENT_RING = 2 * PAGE,
	LOG_RING = 2 * PAGE + 0x2000,
	FIRST_FREE = 3 * PAGE,
};

#define WRITE_PTR 0x20

static uint64_t va(uint64_t offset)
{
	return SIM_FWHOST_VA + offset;
}

static volatile uint32_t *ptr(struct sim_fwhost *fh, uint64_t offset)
{
	return (volatile uint32_t *)(fh->fw + offset);
}

int sim_fwhost_init(struct sim_fwhost *fh, struct sim_host *h, uint64_t pt_offset, uint64_t pt_size,
		    uint64_t fw_offset, unsigned fw_pages)
{
	int ret;

	memset(fh, 0, sizeof(*fh));
	if (fw_pages < 4 || fw_offset + (uint64_t)fw_pages * PAGE > h->ram_size)
		return -EINVAL;
	fh->host = h;
	fh->fw = h->ram + fw_offset;
	fh->fw_pages = fw_pages;
	fh->next = FIRST_FREE;
	ret = sim_pagetable_init(&fh->pt, h->ram + pt_offset, h->ram_paddr + pt_offset, pt_size);
	for (unsigned i = 0; ret == 0 && i < fw_pages; i++)
		ret = sim_pagetable_map(&fh->pt, 0, va(i * PAGE),
					h->ram_paddr + fw_offset + i * PAGE, 1, true, true);
	if (ret == 0)
		*(volatile uint64_t *)((uint8_t *)h->mmio + AGX_MMIO_UAT_TTBAT) =
		    fh->pt.context_table;
	memset(fh->fw, 0, FIRST_FREE);
	return ret;
}

static void channel(struct sim_fwhost *fh, uint64_t block, uint64_t ring, unsigned entries)
{
	struct agx_fw_channel c = { .entries = entries, .ring = va(ring) };

	agx_fw_channel_pack(fh->fw + block, &c);
}

static bool started(const struct sim_host *h, const void *arg)
{
	const struct sim_fwhost *fh = arg;

	(void)h;
	return fh->fw[INITDATA + 6] != AGX_FW_STATUS_NONE;
}

bool sim_fwhost_start(struct sim_fwhost *fh, int timeout_ms)
{
	struct agx_fw_initdata init = { .fwctl = va(FWCTL_BLOCK),
					.event = va(EVENT_BLOCK),
					.devctl = va(DEVCTL_BLOCK),
					.log = va(LOG_BLOCK),
					.pipes = va(PIPE_BLOCKS) };
	struct agx_fw_init msg = { .initdata = va(INITDATA) & ((1ull << 44) - 1) };
	uint8_t out[8];

	memset(fh->fw, 0, FIRST_FREE);
	fh->event_read = fh->log_read = fh->fwctl_write = fh->devctl_write = 0;
	memset(fh->pipe_write, 0, sizeof(fh->pipe_write));
	agx_fw_initdata_pack(fh->fw + INITDATA, &init);
	channel(fh, FWCTL_BLOCK, FWCTL_RING, SIM_FWHOST_CHANNELS);
	channel(fh, EVENT_BLOCK, EVENT_RING, SIM_FWHOST_EVENTS);
	channel(fh, DEVCTL_BLOCK, DEVCTL_RING, SIM_FWHOST_CHANNELS);
	channel(fh, LOG_BLOCK, LOG_RING, SIM_FWHOST_LOGS);
	for (unsigned i = 0; i < SIM_FWHOST_PIPES; i++)
		channel(fh, PIPE_BLOCKS + i * 64, PIPE_RINGS + i * 0x400, SIM_FWHOST_CHANNELS);
	agx_fw_init_pack(out, &msg);
	if (!sim_host_send(fh->host, SIM_EP_GPU_FIRMWARE, out) ||
	    !sim_host_run(fh->host, started, fh, timeout_ms))
		return false;
	return fh->fw[INITDATA + 6] == AGX_FW_STATUS_RUNNING;
}

void *sim_fwhost_alloc(struct sim_fwhost *fh, uint64_t size, uint64_t *out)
{
	uint64_t at = fh->next;

	if (at + size > (uint64_t)fh->fw_pages * PAGE)
		return NULL;
	fh->next = (at + size + 63) & ~63ull;
	memset(fh->fw + at, 0, size);
	*out = va(at);
	return fh->fw + at;
}

int sim_fwhost_map(struct sim_fwhost *fh, unsigned context, uint64_t gpu_va, uint64_t ram_offset,
		   uint64_t size, bool code)
{
	for (uint64_t off = 0; off < size; off += PAGE) {
		/* code: read and execute (ap 3, uxn 0); data: read-write (ap 1, uxn 1) */
		int ret = sim_pagetable_map(&fh->pt, context, gpu_va + off,
					    fh->host->ram_paddr + ram_offset + off, code ? 3 : 1,
					    !code, true);

		if (ret < 0)
			return ret;
	}
	return 0;
}

int sim_fwhost_queue_create(struct sim_fwhost *fh, struct sim_fwqueue *q, unsigned context,
			    unsigned priority, enum agx_fw_pipe pipe, unsigned entries,
			    uint32_t time_limit_us)
{
	uint64_t ring_va;
	struct agx_fw_work_queue wq = { .entries = entries,
					.context = context,
					.priority = priority,
					.pipe = pipe,
					.time_limit_us = time_limit_us };

	memset(q, 0, sizeof(*q));
	q->desc = sim_fwhost_alloc(fh, AGX_FW_WORK_QUEUE_LENGTH, &q->va);
	q->ring = sim_fwhost_alloc(fh, entries * 8ull, &ring_va);
	if (!q->desc || !q->ring)
		return -ENOMEM;
	wq.ring = ring_va;
	if (!agx_fw_work_queue_fits(&wq))
		return -EINVAL;
	agx_fw_work_queue_pack(q->desc, &wq);
	q->entries = entries;
	q->channel = priority * 3 + pipe;
	return 0;
}

/* Appends an entry to a host -> firmware ring; false when it is full. */
static bool push(struct sim_fwhost *fh, uint64_t block, uint64_t ring, unsigned entries,
		 size_t size, uint32_t *write, const void *entry)
{
	uint32_t read = __atomic_load_n(ptr(fh, block), __ATOMIC_ACQUIRE);
	uint32_t next = (*write + 1) % entries;

	if (next == read)
		return false;
	memcpy(fh->fw + ring + *write * size, entry, size);
	*write = next;
	__atomic_store_n(ptr(fh, block + WRITE_PTR), next, __ATOMIC_RELEASE);
	return true;
}

static bool tx_doorbell(struct sim_fwhost *fh, unsigned channel)
{
	struct agx_fw_tx_doorbell bell = { .channel = channel };
	uint8_t out[8];

	agx_fw_tx_doorbell_pack(out, &bell);
	return sim_host_send_waiting(fh->host, SIM_EP_GPU_DOORBELL, out);
}

bool sim_fwhost_append(struct sim_fwhost *fh, struct sim_fwqueue *q, uint64_t item)
{
	uint32_t read = __atomic_load_n((volatile uint32_t *)q->desc, __ATOMIC_ACQUIRE);
	uint32_t next = (q->write + 1) % q->entries;

	if (next == read)
		return false;
	q->ring[q->write] = item;
	q->write = next;
	__atomic_store_n((volatile uint32_t *)(q->desc + WRITE_PTR), next, __ATOMIC_RELEASE);
	return true;
}

bool sim_fwhost_kick(struct sim_fwhost *fh, struct sim_fwqueue *q)
{
	struct agx_fw_run_queue run = { .queue = q->va };
	uint8_t raw[AGX_FW_RUN_QUEUE_LENGTH];
	unsigned prio = q->channel / 3, pipe = q->channel % 3;

	agx_fw_run_queue_pack(raw, &run);
	return push(fh, PIPE_BLOCKS + q->channel * 64, PIPE_RINGS + q->channel * 0x400,
		    SIM_FWHOST_CHANNELS, sizeof(raw), &fh->pipe_write[q->channel], raw) &&
	       tx_doorbell(fh, pipe | prio << 2);
}

bool sim_fwhost_submit(struct sim_fwhost *fh, struct sim_fwqueue *q, uint64_t item)
{
	return sim_fwhost_append(fh, q, item) && sim_fwhost_kick(fh, q);
}

uint64_t sim_fwhost_compute(struct sim_fwhost *fh, const struct agx_fw_work_header *h,
			    const struct agx_fw_work_compute *c)
{
	uint64_t at;
	uint8_t *p =
	    sim_fwhost_alloc(fh, AGX_FW_WORK_HEADER_LENGTH + AGX_FW_WORK_COMPUTE_LENGTH, &at);

	if (!p || !agx_fw_work_header_fits(h) || !agx_fw_work_compute_fits(c))
		return 0;
	agx_fw_work_header_pack(p, h);
	agx_fw_work_compute_pack(p + AGX_FW_WORK_HEADER_LENGTH, c);
	return at;
}

uint64_t sim_fwhost_render(struct sim_fwhost *fh, const struct agx_fw_work_header *h,
			   const struct agx_fw_work_render *r)
{
	uint64_t at;
	uint8_t *p =
	    sim_fwhost_alloc(fh, AGX_FW_WORK_HEADER_LENGTH + AGX_FW_WORK_RENDER_LENGTH, &at);

	if (!p || !agx_fw_work_header_fits(h) || !agx_fw_work_render_fits(r))
		return 0;
	agx_fw_work_header_pack(p, h);
	agx_fw_work_render_pack(p + AGX_FW_WORK_HEADER_LENGTH, r);
	return at;
}

uint64_t sim_fwhost_barrier(struct sim_fwhost *fh, const struct agx_fw_work_header *h,
			    const struct agx_fw_work_barrier *b)
{
	uint64_t at;
	uint8_t *p =
	    sim_fwhost_alloc(fh, AGX_FW_WORK_HEADER_LENGTH + AGX_FW_WORK_BARRIER_LENGTH, &at);

	if (!p || !agx_fw_work_header_fits(h) || !agx_fw_work_barrier_fits(b))
		return 0;
	agx_fw_work_header_pack(p, h);
	agx_fw_work_barrier_pack(p + AGX_FW_WORK_HEADER_LENGTH, b);
	return at;
}

bool sim_fwhost_fwctl(struct sim_fwhost *fh, const struct agx_fw_fwctl *op)
{
	struct agx_fw_fwctl_doorbell bell = { 0 };
	uint8_t raw[AGX_FW_FWCTL_LENGTH], out[8];

	agx_fw_fwctl_doorbell_pack(out, &bell);
	if (!agx_fw_fwctl_fits(op))
		return false;
	agx_fw_fwctl_pack(raw, op);
	return push(fh, FWCTL_BLOCK, FWCTL_RING, SIM_FWHOST_CHANNELS, sizeof(raw), &fh->fwctl_write,
		    raw) &&
	       sim_host_send_waiting(fh->host, SIM_EP_GPU_DOORBELL, out);
}

bool sim_fwhost_devctl(struct sim_fwhost *fh, const struct agx_fw_devctl *op)
{
	uint8_t raw[AGX_FW_DEVCTL_LENGTH];

	if (!agx_fw_devctl_fits(op))
		return false;
	agx_fw_devctl_pack(raw, op);
	return push(fh, DEVCTL_BLOCK, DEVCTL_RING, SIM_FWHOST_CHANNELS, sizeof(raw),
		    &fh->devctl_write, raw) &&
	       tx_doorbell(fh, 0x11);
}

static bool event_waiting(const struct sim_host *h, const void *arg)
{
	const struct sim_fwhost *fh = arg;

	(void)h;
	return __atomic_load_n((const volatile uint32_t *)(fh->fw + EVENT_BLOCK + WRITE_PTR),
			       __ATOMIC_ACQUIRE) != fh->event_read;
}

bool sim_fwhost_event(struct sim_fwhost *fh, struct agx_fw_event *e, int timeout_ms)
{
	if (!event_waiting(fh->host, fh) && !sim_host_run(fh->host, event_waiting, fh, timeout_ms))
		return false;
	memset(e, 0, sizeof(*e));
	if (!agx_fw_event_unpack(fh->fw + EVENT_RING + fh->event_read * AGX_FW_EVENT_LENGTH, e))
		return false;
	fh->event_read = (fh->event_read + 1) % SIM_FWHOST_EVENTS;
	__atomic_store_n(ptr(fh, EVENT_BLOCK), fh->event_read, __ATOMIC_RELEASE);
	return true;
}

bool sim_fwhost_log(struct sim_fwhost *fh, char *line, unsigned size)
{
	uint32_t write = __atomic_load_n(ptr(fh, LOG_BLOCK + WRITE_PTR), __ATOMIC_ACQUIRE);
	const uint8_t *entry = fh->fw + LOG_RING + fh->log_read * 64u;
	struct agx_fw_log header;
	unsigned n;

	if (write == fh->log_read || !agx_fw_log_unpack(entry, &header))
		return false;
	n = (unsigned)header.length < size - 1 ? (unsigned)header.length : size - 1;
	memcpy(line, entry + AGX_FW_LOG_LENGTH, n);
	line[n] = '\0';
	fh->log_read = (fh->log_read + 1) % SIM_FWHOST_LOGS;
	__atomic_store_n(ptr(fh, LOG_BLOCK), fh->log_read, __ATOMIC_RELEASE);
	return true;
}
