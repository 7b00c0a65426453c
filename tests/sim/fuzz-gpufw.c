/*
 * fuzz-gpufw: the GPU firmware's parsers and scheduler over memory the host
 * writes — initdata, control blocks, fwctl, devctl and pipe entries, work
 * queues, work items — and the GPU cores running whatever code and
 * dispatch sizes an input names.  The firmware runs inline (jobs too) on a
 * device whose pages are mapped through a real UAT, with a 2 ms job time
 * limit.  The input fills the regions of fuzz-gpufw.h; then INIT, an fwctl
 * doorbell, a devctl doorbell and a pipe doorbell are delivered and the
 * device-to-host ring is drained.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "agx_fwabi.h"
#include "device.h"
#include "fuzz-gpufw.h"
#include "gpufw.h"
#include "host/pagetable.h"

#define RAM_PADDR 0x100000ull
#define RAM_SIZE  0x100000u
#define USER_RAM  0x40000u /* context 1: code, uniforms, buffer */
#define FW_RAM	  0x80000u
#define FW_PAGES  8u
#define PAGE	  0x4000u

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
	dev->job_time_limit_ns = 2000000;
	ram = mmap(NULL, RAM_SIZE, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (ram == MAP_FAILED || sim_device_dma_map(dev, RAM_PADDR, RAM_SIZE, fd, 0, true, 1) < 0 ||
	    sim_device_attach(dev, fds) < 0 ||
	    sim_pagetable_init(&pt, ram, RAM_PADDR, USER_RAM) < 0)
		abort();
	close(fd);
	for (unsigned i = 0; i < FW_PAGES; i++)
		if (sim_pagetable_map(&pt, 0, FUZZ_FWVA + i * PAGE, RAM_PADDR + FW_RAM + i * PAGE,
				      1, true, true) < 0)
			abort();
	if (sim_pagetable_map(&pt, 1, FUZZ_CODE_VA, RAM_PADDR + USER_RAM, 3, false, true) < 0 ||
	    sim_pagetable_map(&pt, 1, FUZZ_UNIF_VA, RAM_PADDR + USER_RAM + PAGE, 1, true, true) <
		0 ||
	    sim_pagetable_map(&pt, 1, FUZZ_BUF_VA, RAM_PADDR + USER_RAM + 2 * PAGE, 1, true, true) <
		0)
		abort();
	*(volatile uint64_t *)((uint8_t *)dev->mmio + AGX_MMIO_UAT_TTBAT) = pt.context_table;
}

static void send(uint8_t ep, const uint8_t msg[8])
{
	struct agx_mbox_msg out;

	sim_rtkit_gpu_message(dev, ep, msg);
	while (agx_mbox_pop(dev->mmio, AGX_MMIO_I2A_RING, AGX_MMIO_I2A_CONTROL, &out))
		;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct agx_fw_init in = { .initdata = FUZZ_FWVA & ((1ull << 44) - 1) };
	struct agx_fw_fwctl_doorbell fwctl = { 0 };
	struct agx_fw_tx_doorbell devctl = { .channel = 0x11 }, pipe = { .channel = FUZZ_PIPE },
				  render = { .channel = FUZZ_RENDER_PIPE };
	uint8_t msg[8];

	if (!dev)
		init();
	memset(ram + FW_RAM, 0, FW_PAGES * PAGE);
	for (unsigned i = 0; i < sizeof(fuzz_regions) / sizeof(fuzz_regions[0]); i++) {
		const struct fuzz_region *r = &fuzz_regions[i];
		uint8_t *dst = ram + (r->context ? USER_RAM : FW_RAM) + r->page_offset;
		size_t n = size < r->size ? size : r->size;

		memset(dst, 0, r->size);
		memcpy(dst, data, n);
		data += n;
		size -= n;
	}
	agx_fw_init_pack(msg, &in);
	send(SIM_EP_GPU_FIRMWARE, msg);
	agx_fw_fwctl_doorbell_pack(msg, &fwctl);
	send(SIM_EP_GPU_DOORBELL, msg);
	agx_fw_tx_doorbell_pack(msg, &devctl);
	send(SIM_EP_GPU_DOORBELL, msg);
	agx_fw_tx_doorbell_pack(msg, &pipe);
	send(SIM_EP_GPU_DOORBELL, msg);
	agx_fw_tx_doorbell_pack(msg, &render);
	send(SIM_EP_GPU_DOORBELL, msg);
	return 0;
}
