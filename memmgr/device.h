/*
 * device.h: how agx-memmgr lends memory to the device: DMA_MAP and
 * DMA_UNMAP on agx-sim's setup socket (docs/device.md), behind a small
 * table of operations so that tests can stand in for the device.
 */
#ifndef MEMMGR_DEVICE_H
#define MEMMGR_DEVICE_H

#include <stdbool.h>
#include <stdint.h>

struct agx_ipc_client;

struct memmgr_device_ops {
	/* Maps size bytes of fd from offset at paddr; 0 or a negative errno. */
	int (*dma_map)(void *ctx, uint64_t paddr, uint64_t size, int fd, uint64_t offset,
		       bool writable);
	int (*dma_unmap)(void *ctx, uint64_t paddr, uint64_t size);
};

struct memmgr_device {
	const struct memmgr_device_ops *ops;
	void *ctx;
	uint64_t memory_size; /* device-physical bytes, from INFO */
};

/*
 * The real device: connects to agx-sim's setup socket (retrying while it
 * starts, up to timeout_ms) and asks INFO.  Requests are synchronous: the
 * device answers within microseconds, and a handler that waits for it
 * stays straight-line.
 */
int memmgr_device_connect(struct memmgr_device *dev, const char *socket, int timeout_ms);
void memmgr_device_disconnect(struct memmgr_device *dev);

static inline int memmgr_dma_map(struct memmgr_device *dev, uint64_t paddr, uint64_t size, int fd,
				 uint64_t offset, bool writable)
{
	return dev->ops->dma_map(dev->ctx, paddr, size, fd, offset, writable);
}

static inline int memmgr_dma_unmap(struct memmgr_device *dev, uint64_t paddr, uint64_t size)
{
	return dev->ops->dma_unmap(dev->ctx, paddr, size);
}

#endif
