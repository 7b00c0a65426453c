/*
 * arena.c: the arena of kmem.h: first-fit carving of one block of
 * firmware memory, 64-byte aligned, with a free list by address whose
 * neighbours are joined.  No IPC here: tests carve a plain buffer with it.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "kmem.h"

#define ALIGN 64

struct kmem_free {
	uint64_t offset, size;
	struct kmem_free *next;
};

int kmem_arena_init(struct kmem *k)
{
	k->free = malloc(sizeof(*k->free));
	if (!k->free)
		return -ENOMEM;
	*k->free = (struct kmem_free){ 0, k->arena.size, NULL };
	return 0;
}

void kmem_arena_release(struct kmem *k)
{
	while (k->free) {
		struct kmem_free *f = k->free;

		k->free = f->next;
		free(f);
	}
}

uint64_t kmem_arena_free_bytes(const struct kmem *k)
{
	uint64_t n = 0;

	for (const struct kmem_free *f = k->free; f; f = f->next)
		n += f->size;
	return n;
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
	struct kmem_free **pf = &k->free, *f, *prev = NULL;

	size = (size + ALIGN - 1) & ~(uint64_t)(ALIGN - 1);
	while (*pf && (*pf)->offset < offset) {
		prev = *pf;
		pf = &(*pf)->next;
	}
	f = malloc(sizeof(*f));
	if (!f)
		return; /* lost to the arena; it goes with fwchan */
	*f = (struct kmem_free){ offset, size, *pf };
	*pf = f;
	/* joined to the range after it, and to the one before */
	if (f->next && f->offset + f->size == f->next->offset) {
		struct kmem_free *n = f->next;

		f->size += n->size;
		f->next = n->next;
		free(n);
	}
	if (prev && prev->offset + prev->size == f->offset) {
		prev->size += f->size;
		prev->next = f->next;
		free(f);
	}
}
