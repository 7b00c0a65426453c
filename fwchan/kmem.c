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
#define ALIGN		  64

struct kmem_free {
	uint64_t offset, size;
	struct kmem_free *next;
};

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

void kmem_disconnect(struct kmem *k)
{
	while (k->free) {
		struct kmem_free *f = k->free;

		k->free = f->next;
		free(f);
	}
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

int kmem_arena(struct kmem *k, uint64_t size)
{
	int ret = kmem_block(k, size, false, &k->arena);

	if (ret < 0)
		return ret;
	k->free = malloc(sizeof(*k->free));
	if (!k->free)
		return -ENOMEM;
	*k->free = (struct kmem_free){ 0, k->arena.size, NULL };
	return 0;
}

void *kmem_alloc(struct kmem *k, uint64_t size, uint64_t *va)
{
	size = (size + ALIGN - 1) & ~(uint64_t)(ALIGN - 1);
	for (struct kmem_free **pf = &k->free; *pf; pf = &(*pf)->next) {
		struct kmem_free *f = *pf;
		uint64_t offset = f->offset;

		if (f->size < size)
			continue;
		f->offset += size;
		f->size -= size;
		if (!f->size) {
			*pf = f->next;
			free(f);
		}
		*va = k->arena.va + offset;
		memset(k->arena.map + offset, 0, size);
		return k->arena.map + offset;
	}
	return NULL;
}

void kmem_free(struct kmem *k, void *p, uint64_t size)
{
	uint64_t offset = (uint64_t)((uint8_t *)p - k->arena.map);
	struct kmem_free **pf = &k->free, *f;

	size = (size + ALIGN - 1) & ~(uint64_t)(ALIGN - 1);
	while (*pf && (*pf)->offset < offset)
		pf = &(*pf)->next;
	/* joined to the range after it, and to the one before */
	if (*pf && offset + size == (*pf)->offset) {
		(*pf)->offset = offset;
		(*pf)->size += size;
		f = *pf;
	} else {
		f = malloc(sizeof(*f));
		if (!f)
			return; /* lost to the arena; it goes with fwchan */
		*f = (struct kmem_free){ offset, size, *pf };
		*pf = f;
	}
	for (struct kmem_free *prev = k->free; prev && prev != f; prev = prev->next)
		if (prev->next == f && prev->offset + prev->size == f->offset) {
			prev->size += f->size;
			prev->next = f->next;
			free(f);
			break;
		}
}

void *kmem_host(const struct kmem *k, uint64_t va, uint64_t size)
{
	if (va < k->arena.va || size > k->arena.size || va - k->arena.va > k->arena.size - size)
		return NULL;
	return k->arena.map + (va - k->arena.va);
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
