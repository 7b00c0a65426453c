/*
 * fuzz-gpufw: the GPU firmware's parsers of initdata, channel control
 * blocks and fwctl entries, all of which live in memory the host writes.
 * The firmware runs inline on a device whose firmware pages are mapped
 * through a real UAT; an input fills, in order, initdata (64 bytes), the
 * fwctl control block (64), the event control block (64) and the fwctl
 * ring (the rest, up to 64 entries of 32 bytes).  Then INIT and an fwctl
 * doorbell are delivered and the device-to-host ring is drained.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "agx_fwabi.h"
#include "device.h"
#include "gpufw.h"
#include "host/pagetable.h"

#define RAM_PADDR 0x100000ull
#define RAM_SIZE  0x100000u
#define FWVA	  0xffffffa000000000ull
#define FW_PAGES  0x80000u /* offset in RAM of the firmware pages */

static struct sim_device *dev;
static uint8_t *ram;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void init(void)
{
	struct sim_pagetable pt;
	int fds[3], fd = memfd_create("fuzz-gpufw", MFD_CLOEXEC);

	dev = sim_device_create(1ull << 32, 1);
	if (!dev || fd < 0 || ftruncate(fd, RAM_SIZE) < 0)
		abort();
	dev->firmware_thread = false;
	ram = mmap(NULL, RAM_SIZE, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (ram == MAP_FAILED || sim_device_dma_map(dev, RAM_PADDR, RAM_SIZE, fd, 0, true, 1) < 0 ||
	    sim_device_attach(dev, fds) < 0 ||
	    sim_pagetable_init(&pt, ram, RAM_PADDR, FW_PAGES) < 0)
		abort();
	close(fd);
	for (unsigned i = 0; i < 8; i++)
		if (sim_pagetable_map(&pt, 0, FWVA + i * 0x4000ull,
				      RAM_PADDR + FW_PAGES + i * 0x4000ull, 1, true, true) < 0)
			abort();
	*(volatile uint64_t *)((uint8_t *)dev->mmio + AGX_MMIO_UAT_TTBAT) = pt.context_table;
}

/* Copies what the input has for one structure, zeroes the rest of it. */
static void fill(uint8_t *dst, size_t want, const uint8_t **data, size_t *size)
{
	size_t n = *size < want ? *size : want;

	memset(dst, 0, want);
	memcpy(dst, *data, n);
	*data += n;
	*size -= n;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct agx_fw_init in = { .initdata = FWVA & ((1ull << 44) - 1) };
	struct agx_fw_fwctl_doorbell bell = { 0 };
	struct agx_mbox_msg out;
	uint8_t msg[8], *fw;

	if (!dev)
		init();
	fw = ram + FW_PAGES;
	fill(fw, 64, &data, &size);
	fill(fw + 0x4000, 64, &data, &size);
	fill(fw + 0x8000, 64, &data, &size);
	fill(fw + 0xc000, 64 * 32, &data, &size);
	agx_fw_init_pack(msg, &in);
	sim_rtkit_gpu_message(dev, SIM_EP_GPU_FIRMWARE, msg);
	agx_fw_fwctl_doorbell_pack(msg, &bell);
	sim_rtkit_gpu_message(dev, SIM_EP_GPU_DOORBELL, msg);
	while (agx_mbox_pop(dev->mmio, AGX_MMIO_I2A_RING, AGX_MMIO_I2A_CONTROL, &out))
		;
	return 0;
}
