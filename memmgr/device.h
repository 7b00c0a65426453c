/*
 * device.h: how agx-memmgr lends memory to the device: DMA_MAP and
 * DMA_UNMAP on agx-sim's setup socket (docs/device.md), behind a small
 * table of operations so that tests can stand in for the device.
 *
 * Requests are queued to the device in order and not waited for one by
 * one: a BO is created in the time of its memfd, not of a device round
 * trip.  The device handles one connection's requests in order, so an
 * address range unmapped and mapped again is never seen overlapping.
 * What must know the device has caught up -- a submission, the firmware's
 * own memory -- waits for a fence.
 */
#ifndef MEMMGR_DEVICE_H
#define MEMMGR_DEVICE_H

#include <stdbool.h>
#include <stdint.h>

struct event_base;

typedef void (*memmgr_device_done_fn)(void *cookie, int status);

struct memmgr_device_ops {
	/*
	 * Maps size bytes of fd from offset at paddr (the device takes its
	 * own reference to fd).  0 once queued, or a negative errno; a
	 * refusal that comes later fails the next fence.
	 */
	int (*dma_map)(void *ctx, uint64_t paddr, uint64_t size, int fd, uint64_t offset,
		       bool writable);
	int (*dma_unmap)(void *ctx, uint64_t paddr, uint64_t size);
	/*
	 * done runs when the device has answered every request queued
	 * before: with 0, or -ENODEV if it ever refused one (memory that the
	 * GPU cannot see must not be used).  0 or a negative errno.
	 */
	int (*fence)(void *ctx, memmgr_device_done_fn done, void *cookie);
};

struct memmgr_device {
	const struct memmgr_device_ops *ops;
	void *ctx;
	uint64_t memory_size; /* device-physical bytes, from INFO */
	/* what INFO says the device is, for clients (QUERY) */
	uint32_t chip_id, generation, num_cores;
	char firmware_version[64];
	uint32_t job_time_limit_ms; /* the device's INFO: see ipc/device.proto */
	uint64_t fill_bytes_per_ms;
	/* the real device's connection (device.c) */
	struct agx_ipc_conn *conn;
	unsigned outstanding; /* requests not answered yet */
	bool refused, lost, closing;
	struct memmgr_device_fence *fences;
	void (*lost_cb)(void *data); /* the connection went away */
	void *lost_data;
};

/*
 * The real device: asks agx-sim's setup socket for INFO (retrying while
 * it starts, up to timeout_ms), then keeps a connection on base for DMA
 * requests.  lost runs if that connection goes away: every mapping went
 * with it.
 */
int memmgr_device_connect(struct memmgr_device *dev, struct event_base *base, const char *socket,
			  int timeout_ms, void (*lost)(void *data), void *data);
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

static inline int memmgr_device_fence(struct memmgr_device *dev, memmgr_device_done_fn done,
				      void *cookie)
{
	return dev->ops->fence(dev->ctx, done, cookie);
}

#endif
