/*
 * device.c: agx-sim's setup socket as device.h's operations.
 */
#include <errno.h>
#include <string.h>
#include <time.h>

#include "agxipc/client.h"
#include "agxipc/log.h"
#include "device.h"

#define DEVICE_TIMEOUT_MS 2000

static int call(struct agx_ipc_client *client, uint16_t type, const ProtobufCMessage *body,
		const int *fds, unsigned num_fds, struct agx_ipc_msg *reply)
{
	struct agx_ipc_msg local;
	struct agx_ipc_error err = { 0 };
	int ret = agx_ipc_client_call(client, type, body, fds, num_fds, reply ? reply : &local,
				      DEVICE_TIMEOUT_MS, &err);

	if (ret < 0)
		agx_warn("device: %s failed: %s%s%s", agx_ipc_msg_info(type)->name, strerror(-ret),
			 err.code ? ": " : "", err.message);
	else if (!reply)
		agx_ipc_msg_finish(&local);
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
	return call(ctx, AGX_IPC_MSG_DEVICE_DMA_MAP, &m.base, &fd, 1, NULL);
}

static int dma_unmap(void *ctx, uint64_t paddr, uint64_t size)
{
	Agx__Device__DmaUnmap m = AGX__DEVICE__DMA_UNMAP__INIT;

	m.paddr = paddr;
	m.size = size;
	return call(ctx, AGX_IPC_MSG_DEVICE_DMA_UNMAP, &m.base, NULL, 0, NULL);
}

static const struct memmgr_device_ops sim_ops = { .dma_map = dma_map, .dma_unmap = dma_unmap };

int memmgr_device_connect(struct memmgr_device *dev, const char *socket, int timeout_ms)
{
	struct timespec pause = { .tv_nsec = 10 * 1000 * 1000 };
	Agx__Device__Info info = AGX__DEVICE__INFO__INIT;
	struct agx_ipc_client *client = NULL;
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
	ret = call(client, AGX_IPC_MSG_DEVICE_INFO, &info.base, NULL, 0, &reply);
	if (ret < 0) {
		agx_ipc_client_destroy(client);
		return ret;
	}
	dev->memory_size = ((Agx__Device__InfoReply *)reply.body)->memory_size;
	agx_ipc_msg_finish(&reply);
	dev->ops = &sim_ops;
	dev->ctx = client;
	return 0;
}

void memmgr_device_disconnect(struct memmgr_device *dev)
{
	if (dev->ops == &sim_ops)
		agx_ipc_client_destroy(dev->ctx);
	memset(dev, 0, sizeof(*dev));
}
