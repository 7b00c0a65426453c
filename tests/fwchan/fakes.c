/*
 * fakes.c: what agx-fwchan's request handling leans on, stood in for
 * in-process (the fuzz target): firmware memory is a plain buffer at a
 * made-up kernel address, carved by fwchan's own arena.c; memmgr's VM has
 * the window [FAKE_VM_START, FAKE_VM_END) mapped; the mailbox takes every
 * message (rtkit.h).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fakes.h"

unsigned fake_mailbox_messages;

int fake_kmem_init(struct kmem *k, uint64_t size)
{
	memset(k, 0, sizeof(*k));
	k->arena.map = calloc(1, size);
	k->arena.size = size;
	k->arena.va = FAKE_KERNEL_VA;
	return k->arena.map ? kmem_arena_init(k) : -ENOMEM;
}

void fake_kmem_fini(struct kmem *k)
{
	kmem_arena_release(k);
	free(k->arena.map);
	memset(k, 0, sizeof(*k));
}

int kmem_vm_check(struct kmem *k, unsigned slot, Agx__Memmgr__VmRange **ranges, size_t count,
		  char *why, size_t why_size)
{
	for (size_t i = 0; i < count; i++) {
		uint64_t va = ranges[i]->va, size = ranges[i]->size;

		if (!size || va < FAKE_VM_START || va > FAKE_VM_END || size > FAKE_VM_END - va) {
			snprintf(why, why_size, "%#llx is not mapped", (unsigned long long)va);
			return -ENOENT;
		}
	}
	return 0;
}

int kmem_fault_decode(struct kmem *k, unsigned slot, uint64_t va, pid_t *pid, uint32_t *vm,
		      uint32_t *bo, uint64_t *bo_offset)
{
	return -ENOENT;
}

bool rtkit_send(struct rtkit *r, uint8_t endpoint, uint64_t msg)
{
	fake_mailbox_messages++;
	return true;
}

bool rtkit_ring(struct rtkit *r, uint8_t endpoint, uint64_t msg)
{
	return rtkit_send(r, endpoint, msg);
}
