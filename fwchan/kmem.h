/*
 * kmem.h: agx-fwchan's firmware memory, from agx-memmgr's privileged
 * socket: blocks in the kernel VM (high half of UAT context 0), mapped
 * here through their memfds, and an arena carved out of one for the
 * firmware structures fwchan writes (initdata, channels, work queues,
 * work items, stamps).
 *
 * The calls block on agx-memmgr.  That is safe for allocation and for
 * the queries (memmgr answers them without calling back), and fwchan never
 * frees a block while it runs: freeing waits for a TLB invalidation that
 * fwchan itself would have to carry.
 */
#ifndef FWCHAN_KMEM_H
#define FWCHAN_KMEM_H

#include <stdbool.h>
#include <stdint.h>
#include <stddef.h>
#include <sys/types.h>

#include "agxipc/messages.h"

struct agx_ipc_client;

struct kmem_block {
	uint32_t handle;
	uint64_t va, paddr, size; /* paddr: contiguous blocks only */
	uint8_t *map;
};

struct kmem_free;

struct kmem {
	struct agx_ipc_client *memmgr;
	uint64_t context_table;
	struct kmem_block arena;
	struct kmem_free *free; /* the arena's free ranges, by address */
};

/* Connects to memmgr's privileged socket and asks where the context table is. */
int kmem_connect(struct kmem *k, const char *socket, int timeout_ms);
void kmem_disconnect(struct kmem *k);

/* A block of its own: contiguous ones have a device-physical address (RTKit buffers). */
int kmem_block(struct kmem *k, uint64_t size, bool contiguous, struct kmem_block *out);

/* The arena (one block of size bytes) that kmem_alloc carves. */
int kmem_arena(struct kmem *k, uint64_t size);
/* arena.c: carving k->arena (set by kmem_arena, or by a test over a buffer). */
int kmem_arena_init(struct kmem *k);
void kmem_arena_release(struct kmem *k);
/* What is not carved out now. */
uint64_t kmem_arena_free_bytes(const struct kmem *k);
/* size bytes of the arena, zeroed, 64-byte aligned: host pointer and firmware address. */
void *kmem_alloc(struct kmem *k, uint64_t size, uint64_t *va);
void kmem_free(struct kmem *k, void *p, uint64_t size);

/* VM_CHECK: whether the ranges are mapped with their access in the VM of a slot. */
int kmem_vm_check(struct kmem *k, unsigned slot, Agx__Memmgr__VmRange **ranges, size_t count,
		  char *why, size_t why_size);

/* FAULT_DECODE: who owns an address of a context. */
int kmem_fault_decode(struct kmem *k, unsigned slot, uint64_t va, pid_t *pid, uint32_t *vm,
		      uint32_t *bo, uint64_t *bo_offset);

#endif
