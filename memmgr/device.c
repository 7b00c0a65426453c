/*
 * device.c: agx-sim's setup socket as device.h's operations: INFO on a
 * blocking connection at start, then DMA requests on the daemon's loop.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "agxipc/client.h"
#include "agxipc/log.h"
#include "agxipc/server.h"
#include "device.h"

#define DEVICE_TIMEOUT_MS 10000

struct memmgr_device_fence {
	memmgr_device_done_fn done;
	void *cookie;
	struct memmgr_device_fence *next;
};

/* Fences whose requests are all answered (all of them, when none is outstanding). */
static void run_fences(struct memmgr_device *dev)
{
	while (!dev->outstanding && dev->fences) {
		struct memmgr_device_fence *f = dev->fences;

		dev->fences = f->next;
		f->done(f->cookie, dev->refused || dev->lost ? -ENODEV : 0);
		free(f);
	}
}

static void answered(struct agx_ipc_conn *conn, int status, struct agx_ipc_msg *reply,
		     const struct agx_ipc_error *err, void *data)
{
	struct memmgr_device *dev = data;

	if (status < 0 && !dev->closing) {
		agx_err("device: a DMA request failed: %s",
			err && err->code ? err->message : strerror(-status));
		dev->refused = true;
	}
	dev->outstanding--;
	run_fences(dev);
}

static int send_request(struct memmgr_device *dev, uint16_t type, const ProtobufCMessage *body,
			const int *fds, unsigned num_fds)
{
	int ret;

	if (dev->lost)
		return -ENODEV;
	ret = agx_ipc_conn_call(dev->conn, type, body, fds, num_fds, DEVICE_TIMEOUT_MS, answered,
				dev);
	if (ret == 0)
		dev->outstanding++;
	return ret;
}

static int dma_map(void *ctx, uint64_t paddr, uint64_t size, int fd, uint64_t offset, bool writable)
{
	Agx__Device__DmaMap m = AGX__DEVICE__DMA_MAP__INIT;

	m.paddr = paddr;
	m.size = size;
	m.offset = offset;
	m.protection = writable ? AGX__DEVICE__PROTECTION__PROTECTION_READ_WRITE
				: AGX__DEVICE__PROTECTION__PROTECTION_READ;
	return send_request(ctx, AGX_IPC_MSG_DEVICE_DMA_MAP, &m.base, &fd, 1);
}

static int dma_unmap(void *ctx, uint64_t paddr, uint64_t size)
{
	Agx__Device__DmaUnmap m = AGX__DEVICE__DMA_UNMAP__INIT;

	m.paddr = paddr;
	m.size = size;
	return send_request(ctx, AGX_IPC_MSG_DEVICE_DMA_UNMAP, &m.base, NULL, 0);
}

static int fence(void *ctx, memmgr_device_done_fn done, void *cookie)
{
	struct memmgr_device *dev = ctx;
	struct memmgr_device_fence *f = malloc(sizeof(*f)), **tail = &dev->fences;

	if (!f)
		return -ENOMEM;
	*f = (struct memmgr_device_fence){ done, cookie, NULL };
	while (*tail)
		tail = &(*tail)->next;
	*tail = f;
	run_fences(dev);
	return 0;
}

static const struct memmgr_device_ops sim_ops = { .dma_map = dma_map,
						  .dma_unmap = dma_unmap,
						  .fence = fence };

static void device_gone(struct agx_ipc_conn *conn, void *data)
{
	struct memmgr_device *dev = data;

	if (!dev->closing)
		agx_err("device: the connection to the device is gone, and every mapping with it");
	dev->lost = true;
	dev->conn = NULL;
	if (dev->lost_cb)
		dev->lost_cb(dev->lost_data);
}

static const struct agx_ipc_peer_ops device_ops = { .disconnect = device_gone };

int memmgr_device_connect(struct memmgr_device *dev, struct event_base *base, const char *socket,
			  int timeout_ms, void (*lost)(void *data), void *data)
{
	struct timespec pause = { .tv_nsec = 10 * 1000 * 1000 };
	Agx__Device__Info info = AGX__DEVICE__INFO__INIT;
	struct agx_ipc_client *client = NULL;
	struct agx_ipc_error err = { 0 };
	struct agx_ipc_msg reply;
	int ret;

	memset(dev, 0, sizeof(*dev));
	/* a device just started: its socket appears when it is ready */
	for (int waited = 0;; waited += 10) {
		ret = agx_ipc_client_connect(socket, AGX__IPC__INTERFACE__INTERFACE_DEVICE,
					     "agx-memmgr", timeout_ms, &client, NULL);
		if (ret == 0 || waited >= timeout_ms)
			break;
		nanosleep(&pause, NULL);
	}
	if (ret < 0)
		return ret;
	ret = agx_ipc_client_call(client, AGX_IPC_MSG_DEVICE_INFO, &info.base, NULL, 0, &reply,
				  DEVICE_TIMEOUT_MS, &err);
	agx_ipc_client_destroy(client);
	if (ret < 0)
		return ret;
	{
		const Agx__Device__InfoReply *r = (const void *)reply.body;

		dev->memory_size = r->memory_size;
		dev->chip_id = r->chip_id;
		dev->generation = r->generation;
		dev->num_cores = r->num_cores;
		dev->job_time_limit_ms = r->job_time_limit_ms;
		dev->fill_bytes_per_ms = r->fill_bytes_per_ms;
		snprintf(dev->firmware_version, sizeof(dev->firmware_version), "%s",
			 r->firmware_version ? r->firmware_version : "");
	}
	agx_ipc_msg_finish(&reply);
	ret = agx_ipc_conn_connect(base, socket, AGX__IPC__INTERFACE__INTERFACE_DEVICE,
				   "agx-memmgr", &device_ops, dev, &dev->conn);
	if (ret < 0)
		return ret;
	dev->ops = &sim_ops;
	dev->ctx = dev;
	dev->lost_cb = lost;
	dev->lost_data = data;
	return 0;
}

void memmgr_device_disconnect(struct memmgr_device *dev)
{
	while (dev->fences) {
		struct memmgr_device_fence *f = dev->fences;

		dev->fences = f->next;
		free(f);
	}
	if (dev->conn) {
		/* what is still on its way fails now: nothing to say about it */
		dev->lost_cb = NULL;
		dev->closing = true;
		agx_ipc_conn_close(dev->conn);
	}
	dev->conn = NULL;
}
