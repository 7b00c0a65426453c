/*
 * kmem.c: firmware memory from agx-memmgr (kmem.h).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "agxipc/client.h"
#include "agxipc/log.h"
#include "kmem.h"

#define MEMMGR_TIMEOUT_MS 10000

static int call(struct kmem *k, uint16_t type, const ProtobufCMessage *body,
		struct agx_ipc_msg *reply)
{
	struct agx_ipc_error err = { 0 };
	int ret =
	    agx_ipc_client_call(k->memmgr, type, body, NULL, 0, reply, MEMMGR_TIMEOUT_MS, &err);

	if (ret < 0 && type != AGX_IPC_MSG_MEMMGR_FAULT_DECODE)
		agx_err("memmgr: %s failed: %s", agx_ipc_msg_info(type)->name,
			err.code ? err.message : strerror(-ret));
	return ret;
}

int kmem_connect(struct kmem *k, const char *socket, int timeout_ms)
{
	struct timespec pause = { .tv_nsec = 10 * 1000 * 1000 };
	Agx__Memmgr__UatInfo info = AGX__MEMMGR__UAT_INFO__INIT;
	struct agx_ipc_msg reply;
	int ret;

	memset(k, 0, sizeof(*k));
	for (int waited = 0;; waited += 10) {
		ret =
		    agx_ipc_client_connect(socket, AGX__IPC__INTERFACE__INTERFACE_MEMMGR_PRIVILEGED,
					   "agx-fwchan", timeout_ms, &k->memmgr, NULL);
		if (ret == 0 || waited >= timeout_ms)
			break;
		nanosleep(&pause, NULL);
	}
	if (ret < 0)
		return ret;
	ret = call(k, AGX_IPC_MSG_MEMMGR_UAT_INFO, &info.base, &reply);
	if (ret < 0)
		return ret;
	k->context_table = ((const Agx__Memmgr__UatInfoReply *)reply.body)->context_table;
	agx_ipc_msg_finish(&reply);
	return 0;
}

int kmem_arena(struct kmem *k, uint64_t size)
{
	int ret = kmem_block(k, size, false, &k->arena);

	return ret < 0 ? ret : kmem_arena_init(k);
}

void kmem_disconnect(struct kmem *k)
{
	kmem_arena_release(k);
	if (k->arena.map)
		munmap(k->arena.map, k->arena.size);
	/* memmgr frees every block of this connection when it closes */
	if (k->memmgr)
		agx_ipc_client_destroy(k->memmgr);
	memset(k, 0, sizeof(*k));
}

int kmem_block(struct kmem *k, uint64_t size, bool contiguous, struct kmem_block *out)
{
	Agx__Memmgr__KernelAlloc m = AGX__MEMMGR__KERNEL_ALLOC__INIT;
	const Agx__Memmgr__KernelAllocReply *r;
	struct agx_ipc_msg reply;
	int ret, fd;

	m.size = size;
	m.flags = contiguous ? AGX__MEMMGR__BO_FLAGS__BO_FLAG_CONTIGUOUS : 0;
	ret = call(k, AGX_IPC_MSG_MEMMGR_KERNEL_ALLOC, &m.base, &reply);
	if (ret < 0)
		return ret;
	r = (const void *)reply.body;
	*out = (struct kmem_block){
		.handle = r->handle, .va = r->va, .paddr = r->paddr, .size = r->size
	};
	fd = agx_ipc_msg_take_fd(&reply, 0);
	agx_ipc_msg_finish(&reply);
	out->map =
	    fd >= 0 ? mmap(NULL, out->size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0) : MAP_FAILED;
	ret = out->map == MAP_FAILED ? -errno : 0;
	if (fd >= 0)
		close(fd);
	if (ret < 0) {
		out->map = NULL;
		return ret;
	}
	return 0;
}

int kmem_vm_check(struct kmem *k, unsigned slot, Agx__Memmgr__VmRange **ranges, size_t count,
		  char *why, size_t why_size)
{
	Agx__Memmgr__VmCheck m = AGX__MEMMGR__VM_CHECK__INIT;
	struct agx_ipc_error err = { 0 };
	struct agx_ipc_msg reply;
	int ret;

	m.context_slot = slot;
	m.ranges = ranges;
	m.n_ranges = count;
	ret = agx_ipc_client_call(k->memmgr, AGX_IPC_MSG_MEMMGR_VM_CHECK, &m.base, NULL, 0, &reply,
				  MEMMGR_TIMEOUT_MS, &err);
	if (ret < 0) {
		snprintf(why, why_size, "%s", err.code ? err.message : strerror(-ret));
		return ret;
	}
	agx_ipc_msg_finish(&reply);
	return 0;
}

int kmem_fault_decode(struct kmem *k, unsigned slot, uint64_t va, pid_t *pid, uint32_t *vm,
		      uint32_t *bo, uint64_t *bo_offset)
{
	Agx__Memmgr__FaultDecode m = AGX__MEMMGR__FAULT_DECODE__INIT;
	const Agx__Memmgr__FaultDecodeReply *r;
	struct agx_ipc_msg reply;
	int ret;

	m.context_slot = slot;
	m.va = va;
	ret = call(k, AGX_IPC_MSG_MEMMGR_FAULT_DECODE, &m.base, &reply);
	if (ret < 0)
		return ret;
	r = (const void *)reply.body;
	*pid = (pid_t)r->client_pid;
	*vm = r->vm;
	*bo = r->bo;
	*bo_offset = r->bo_offset;
	agx_ipc_msg_finish(&reply);
	return 0;
}
