/*
 * known.c: the mapped ranges agx-fwchan remembers (known.h).
 */
#include <string.h>

#include "known.h"

bool known_mapped(struct known *k, unsigned slot, uint64_t va, uint64_t size, unsigned access)
{
	if (slot >= KNOWN_SLOTS || va + size < va)
		return false;
	for (unsigned i = 0; i < k->count[slot]; i++) {
		const struct agx_work_range *r = &k->ranges[slot][i];

		if (va >= r->va && va + size <= r->va + r->size && !(access & ~r->access))
			return true;
	}
	return false;
}

void known_add(struct known *k, unsigned slot, uint64_t va, uint64_t size, unsigned access)
{
	unsigned i;

	if (slot >= KNOWN_SLOTS || va + size < va)
		return;
	if (k->count[slot] < KNOWN_PER_SLOT) {
		i = k->count[slot]++;
	} else {
		i = k->next[slot];
		k->next[slot] = (i + 1) % KNOWN_PER_SLOT;
	}
	k->ranges[slot][i] = (struct agx_work_range){ va, size, access };
}

void known_forget(struct known *k, unsigned slot, uint64_t va, uint64_t size)
{
	if (slot >= KNOWN_SLOTS)
		return;
	for (unsigned i = 0; i < k->count[slot];) {
		const struct agx_work_range *r = &k->ranges[slot][i];

		if (!size || (va < r->va + r->size && r->va < va + size)) {
			k->ranges[slot][i] = k->ranges[slot][--k->count[slot]];
			continue;
		}
		i++;
	}
	k->next[slot] = 0;
}

void known_forget_all(struct known *k)
{
	memset(k, 0, sizeof(*k));
}
