/*
 * fuzz-uat: the UAT walk over page tables made of untrusted bytes.  The
 * host writes the tables; the device must never crash on them, whatever
 * they hold.  An input is 16 bytes of lookup (va, context, access) followed
 * by the bytes of 64 KiB of device memory at 0x40000000 (repeated to fill
 * it): the context table in its first 16 KiB page, tables after.  Each
 * lookup is done twice, and the second (a TLB hit, when the first
 * succeeded) must agree with the first.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "device.h"
#include "uat.h"

#define RAM_PADDR 0x40000000ull
#define RAM_SIZE  0x10000u

static struct sim_device *dev;
static uint8_t *ram;
static struct sim_uat uat;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void init(void)
{
	int fd = memfd_create("fuzz-uat", MFD_CLOEXEC);

	dev = sim_device_create(1ull << 36, 1);
	if (!dev || fd < 0 || ftruncate(fd, RAM_SIZE) < 0)
		abort();
	ram = mmap(NULL, RAM_SIZE, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (ram == MAP_FAILED || sim_device_dma_map(dev, RAM_PADDR, RAM_SIZE, fd, 0, true, 1) < 0)
		abort();
	close(fd);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint64_t va, pa1, pa2;
	struct sim_uat_fault f1, f2;
	unsigned context, access;
	bool ok1, ok2;

	if (!dev)
		init();
	if (size < 17)
		return 0;
	memcpy(&va, data, 8);
	context = data[8] % (SIM_UAT_CONTEXTS + 1); /* one past the end, too */
	access = (data[9] & 7) ? (data[9] & 7) : SIM_UAT_READ;
	for (size_t at = 0; at < RAM_SIZE; at += size - 16)
		memcpy(ram + at, data + 16, at + size - 16 > RAM_SIZE ? RAM_SIZE - at : size - 16);
	sim_uat_init(&uat, dev, RAM_PADDR);
	ok1 = sim_uat_translate(&uat, context, va, access, data[10] & 1, &pa1, &f1);
	ok2 = sim_uat_translate(&uat, context, va, access, data[10] & 1, &pa2, &f2);
	if (ok1 != ok2 || (ok1 && pa1 != pa2) || (!ok1 && f1.kind != f2.kind))
		abort();
	if (ok1 && (pa1 & (SIM_UAT_PAGE_SIZE - 1)) != (va & (SIM_UAT_PAGE_SIZE - 1)))
		abort();
	return 0;
}
