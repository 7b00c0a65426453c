/*
 * gpufw.c: the GPU firmware's channels (docs/firmware-abi.md).  Every
 * structure it reads is in memory the host controls, reached through the
 * UAT as context 0 with firmware rights; every field is checked before use,
 * and a bad one is logged, never trusted.
 */
#include <string.h>

#include "agx_fwabi.h"
#include "device.h"
#include "gpufw.h"
#include "uat.h"

/* Firmware access to its own virtual memory (context 0); false on a fault, logged. */
static bool fw_access(struct sim_rtkit *rt, uint64_t va, void *buf, size_t size, bool write)
{
	struct sim_device *dev = sim_fw_device(rt);
	uint8_t *p = buf;

	while (size) {
		size_t chunk = SIM_UAT_PAGE_SIZE - (va & (SIM_UAT_PAGE_SIZE - 1));
		struct sim_uat_fault fault;
		uint64_t pa;
		bool ok;

		if (chunk > size)
			chunk = size;
		ok = sim_uat_translate(dev->uat, 0, va, write ? SIM_UAT_WRITE : SIM_UAT_READ, true,
				       &pa, &fault);
		if (!ok) {
			sim_fw_log(rt, "firmware %s fault at 0x%llx: %s", write ? "write" : "read",
				   (unsigned long long)va, sim_uat_fault_name(fault.kind));
			return false;
		}
		ok = write ? sim_device_write(dev, pa, p, chunk)
			   : sim_device_read(dev, pa, p, chunk);
		if (!ok) {
			sim_fw_log(rt, "firmware bus error at 0x%llx (0x%llx)",
				   (unsigned long long)va, (unsigned long long)pa);
			return false;
		}
		va += chunk;
		p += chunk;
		size -= chunk;
	}
	return true;
}

static void rx_doorbell(struct sim_rtkit *rt)
{
	struct agx_fw_rx_doorbell bell = { 0 };
	uint8_t msg[8];

	agx_fw_rx_doorbell_pack(msg, &bell);
	sim_fw_send(rt, SIM_EP_GPU_FIRMWARE, msg);
}

/* Reads a channel's control block; false (logged) when it is unusable. */
static bool read_channel(struct sim_rtkit *rt, uint64_t va, const char *name,
			 struct agx_fw_channel *c)
{
	uint8_t raw[AGX_FW_CHANNEL_LENGTH];

	if (!fw_access(rt, va, raw, sizeof(raw), false))
		return false;
	if (!agx_fw_channel_unpack(raw, c) || c->entries < 1 || c->entries > 4096) {
		sim_fw_log(rt, "%s channel at 0x%llx is malformed", name, (unsigned long long)va);
		return false;
	}
	return true;
}

/* Writes one 32-bit pointer of a control block (read_ptr at +0, write_ptr at +0x20). */
static bool write_ptr(struct sim_rtkit *rt, uint64_t va, unsigned offset, uint32_t value)
{
	return fw_access(rt, va + offset, &value, sizeof(value), true);
}

static void set_status(struct sim_rtkit *rt, uint64_t initdata, unsigned status)
{
	uint8_t byte = (uint8_t)status; /* status is bits 48..55: byte 6 */

	fw_access(rt, initdata + 6, &byte, 1, true);
}

static void init(struct sim_rtkit *rt, struct sim_gpufw *gpu, uint64_t initdata)
{
	struct sim_device *dev = sim_fw_device(rt);
	uint8_t raw[AGX_FW_INITDATA_LENGTH];
	struct agx_fw_initdata in;
	struct agx_fw_channel fwctl, event;
	uint64_t ttbat = *(volatile uint64_t *)((uint8_t *)dev->mmio + AGX_MMIO_UAT_TTBAT);

	/* the UAT's context table, as the host left it in UAT_TTBAT */
	sim_uat_init(dev->uat, dev, ttbat);
	/* initdata lives in the high half: a 44-bit address there, sign-extended */
	initdata |= 0xfffff00000000000ull;
	gpu->running = false;
	if (!fw_access(rt, initdata, raw, sizeof(raw), false))
		return;
	raw[6] = 0; /* status is the firmware's to write */
	if (!agx_fw_initdata_unpack(raw, &in) || !read_channel(rt, in.fwctl, "fwctl", &fwctl) ||
	    !read_channel(rt, in.event, "event", &event)) {
		sim_fw_log(rt, "initdata at 0x%llx refused", (unsigned long long)initdata);
		set_status(rt, initdata, AGX_FW_STATUS_BAD_INITDATA);
		rx_doorbell(rt);
		return;
	}
	gpu->initdata = initdata;
	gpu->fwctl = in.fwctl;
	gpu->event = in.event;
	gpu->fwctl_ring.ring = fwctl.ring;
	gpu->fwctl_ring.entries = (unsigned)fwctl.entries;
	gpu->event_ring.ring = event.ring;
	gpu->event_ring.entries = (unsigned)event.entries;
	gpu->running = true;
	set_status(rt, initdata, AGX_FW_STATUS_RUNNING);
	sim_fw_log(rt, "GPU firmware running, initdata 0x%llx", (unsigned long long)initdata);
	rx_doorbell(rt);
}

/* Posts an event; false when the host has not made room (the event is lost, logged). */
static bool post_event(struct sim_rtkit *rt, struct sim_gpufw *gpu, const struct agx_fw_event *e)
{
	struct agx_fw_channel c;
	uint8_t raw[AGX_FW_EVENT_LENGTH];

	if (!read_channel(rt, gpu->event, "event", &c))
		return false;
	if (c.read_ptr >= gpu->event_ring.entries || c.write_ptr >= gpu->event_ring.entries) {
		sim_fw_log(rt, "event channel pointers out of range");
		return false;
	}
	if ((c.write_ptr + 1) % gpu->event_ring.entries == c.read_ptr) {
		sim_fw_log(rt, "event channel full: event lost");
		return false;
	}
	agx_fw_event_pack(raw, e);
	return fw_access(rt, gpu->event_ring.ring + c.write_ptr * sizeof(raw), raw, sizeof(raw),
			 true) &&
	       write_ptr(rt, gpu->event, 0x20,
			 (uint32_t)((c.write_ptr + 1) % gpu->event_ring.entries));
}

static void fwctl_op(struct sim_rtkit *rt, const struct agx_fw_fwctl *op)
{
	struct sim_device *dev = sim_fw_device(rt);

	switch (op->op) {
	case AGX_FW_FWCTL_OP_TLB_INVALIDATE:
		sim_uat_invalidate(dev->uat, (unsigned)op->context, op->va, op->size);
		break;
	case AGX_FW_FWCTL_OP_TLB_INVALIDATE_CONTEXT:
		sim_uat_invalidate_context(dev->uat, (unsigned)op->context);
		break;
	case AGX_FW_FWCTL_OP_CACHE_FLUSH:
		break; /* the simulated GPU writes memory through: nothing is held back */
	}
}

/* Takes every fwctl entry the host queued, acknowledging each. */
static void fwctl(struct sim_rtkit *rt, struct sim_gpufw *gpu)
{
	struct agx_fw_channel c;
	unsigned n = gpu->fwctl_ring.entries, done = 0;

	if (!read_channel(rt, gpu->fwctl, "fwctl", &c))
		return;
	if (c.read_ptr >= n || c.write_ptr >= n) {
		sim_fw_log(rt, "fwctl channel pointers out of range");
		return;
	}
	for (uint32_t at = (uint32_t)c.read_ptr; at != c.write_ptr; at = (at + 1) % n) {
		uint8_t raw[AGX_FW_FWCTL_LENGTH];
		struct agx_fw_fwctl op;
		struct agx_fw_event ack = { .type = AGX_FW_EVENT_TYPE_FWCTL_DONE };

		if (!fw_access(rt, gpu->fwctl_ring.ring + at * sizeof(raw), raw, sizeof(raw),
			       false))
			return;
		if (agx_fw_fwctl_unpack(raw, &op) && op.op >= 1 && op.op <= 3) {
			fwctl_op(rt, &op);
			ack.seq = op.seq;
			post_event(rt, gpu, &ack);
		} else {
			sim_fw_log(rt, "fwctl entry %u is malformed: skipped", at);
		}
		if (!write_ptr(rt, gpu->fwctl, 0, (at + 1) % n))
			return;
		done++;
	}
	if (done)
		rx_doorbell(rt);
}

void sim_gpufw_message(struct sim_rtkit *rt, struct sim_gpufw *gpu, uint8_t ep,
		       const uint8_t msg[8])
{
	struct agx_fw_init in;
	struct agx_fw_fwctl_doorbell bell;

	if (ep == SIM_EP_GPU_FIRMWARE && agx_fw_init_unpack(msg, &in))
		init(rt, gpu, in.initdata);
	else if (ep == SIM_EP_GPU_DOORBELL && agx_fw_fwctl_doorbell_unpack(msg, &bell) &&
		 gpu->running)
		fwctl(rt, gpu);
	else
		sim_fw_log(rt,
			   "GPU endpoint 0x%02x: message %02x%02x%02x%02x%02x%02x%02x%02x ignored",
			   ep, msg[7], msg[6], msg[5], msg[4], msg[3], msg[2], msg[1], msg[0]);
}
