/*
 * fuzz-rtkit: the firmware's mailbox decoder.  Everything the host puts in
 * the host-to-device ring is untrusted.  An input is a series of 16-byte
 * mailbox entries (msg0, msg1, little-endian), delivered to a running
 * firmware one doorbell at a time; the fuzzer plays a host that drains the
 * device-to-host ring and acknowledges nothing.  The firmware runs inline
 * (no thread), on a device with 64 KiB of memory at address 0.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "device.h"

static struct sim_device *dev;

static struct sim_device *device(void)
{
	static const uint64_t memory = 0x10000;
	int fds[3], ram;

	if (dev)
		return dev;
	dev = sim_device_create(1ull << 30, 1);
	if (!dev)
		abort();
	dev->firmware_thread = false;
	ram = memfd_create("fuzz-ram", MFD_CLOEXEC);
	if (ram < 0 || ftruncate(ram, memory) < 0 ||
	    sim_device_dma_map(dev, 0, memory, ram, 0, true, 1) < 0 ||
	    sim_device_attach(dev, fds) < 0)
		abort();
	close(ram); /* the device keeps its own mappings; fds[] stay the device's */
	return dev;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct sim_device *d = device();
	struct agx_mbox_ring *a2i = agx_mmio_ring(d->mmio, AGX_MMIO_A2I_RING);
	struct agx_mbox_msg out;

	if (sim_device_reset(d) < 0)
		abort();
	*agx_mmio_u32(d->mmio, AGX_MMIO_CPU_CONTROL) = AGX_MMIO_CPU_CONTROL_RUN;
	sim_rtkit_doorbell(d);
	for (size_t at = 0; at + 16 <= size; at += 16) {
		uint32_t head = a2i->head;

		memcpy(&a2i->slot[head % AGX_MBOX_SLOTS].msg0, data + at, 8);
		memcpy(&a2i->slot[head % AGX_MBOX_SLOTS].msg1, data + at + 8, 8);
		__atomic_store_n(&a2i->head, head + 1, __ATOMIC_RELEASE);
		sim_rtkit_doorbell(d);
		while (agx_mbox_pop(d->mmio, AGX_MMIO_I2A_RING, AGX_MMIO_I2A_CONTROL, &out))
			;
	}
	return 0;
}
