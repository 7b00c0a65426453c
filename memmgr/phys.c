/*
 * phys.c: the device-physical allocator of phys.h.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "phys.h"

int phys_init(struct phys *p, uint64_t base, uint64_t end)
{
	memset(p, 0, sizeof(*p));
	if (base % MEMMGR_PAGE || end % MEMMGR_PAGE || end <= base)
		return -EINVAL;
	p->cap = 16;
	p->free = calloc(p->cap, sizeof(*p->free));
	if (!p->free)
		return -ENOMEM;
	p->free[0] = (struct phys_extent){ base, end - base };
	p->num_free = 1;
	p->total = end - base;
	return 0;
}

void phys_fini(struct phys *p)
{
	free(p->free);
	memset(p, 0, sizeof(*p));
}

static void remove_at(struct phys *p, unsigned i)
{
	memmove(&p->free[i], &p->free[i + 1], (p->num_free - i - 1) * sizeof(*p->free));
	p->num_free--;
}

int phys_alloc(struct phys *p, uint64_t size, struct phys_extent *out, unsigned max,
	       unsigned *count)
{
	uint64_t left = size;
	unsigned n = 0;

	*count = 0;
	if (!size || size % MEMMGR_PAGE || !max)
		return -EINVAL;
	if (size > p->total - p->used)
		return -ENOMEM;
	/* one extent if any fits whole: the first */
	for (unsigned i = 0; i < p->num_free; i++)
		if (p->free[i].size >= size) {
			out[0] = (struct phys_extent){ p->free[i].paddr, size };
			p->free[i].paddr += size;
			p->free[i].size -= size;
			if (!p->free[i].size)
				remove_at(p, i);
			p->used += size;
			*count = 1;
			return 0;
		}
	/* else pieces, the largest first; given back if max of them do not add up */
	while (left && n < max && p->num_free) {
		unsigned best = 0;
		uint64_t take;

		for (unsigned i = 1; i < p->num_free; i++)
			if (p->free[i].size > p->free[best].size)
				best = i;
		take = p->free[best].size < left ? p->free[best].size : left;
		out[n++] = (struct phys_extent){ p->free[best].paddr, take };
		p->free[best].paddr += take;
		p->free[best].size -= take;
		if (!p->free[best].size)
			remove_at(p, best);
		p->used += take;
		left -= take;
	}
	if (left) {
		while (n)
			phys_free(p, out[--n]);
		return -ENOMEM;
	}
	*count = n;
	return 0;
}

int phys_free(struct phys *p, struct phys_extent e)
{
	unsigned i = 0;

	if (!e.size || e.paddr % MEMMGR_PAGE || e.size % MEMMGR_PAGE || e.paddr + e.size < e.paddr)
		return -EINVAL;
	while (i < p->num_free && p->free[i].paddr < e.paddr)
		i++;
	/* it may touch its neighbours, never overlap them */
	if ((i > 0 && p->free[i - 1].paddr + p->free[i - 1].size > e.paddr) ||
	    (i < p->num_free && e.paddr + e.size > p->free[i].paddr) || p->used < e.size)
		return -EINVAL;
	p->used -= e.size;
	if (i > 0 && p->free[i - 1].paddr + p->free[i - 1].size == e.paddr) {
		p->free[i - 1].size += e.size;
		if (i < p->num_free && e.paddr + e.size == p->free[i].paddr) {
			p->free[i - 1].size += p->free[i].size;
			remove_at(p, i);
		}
		return 0;
	}
	if (i < p->num_free && e.paddr + e.size == p->free[i].paddr) {
		p->free[i].paddr = e.paddr;
		p->free[i].size += e.size;
		return 0;
	}
	if (p->num_free == p->cap) {
		struct phys_extent *grown = realloc(p->free, 2 * p->cap * sizeof(*p->free));

		if (!grown) {
			p->used += e.size;
			return -ENOMEM;
		}
		p->free = grown;
		p->cap *= 2;
	}
	memmove(&p->free[i + 1], &p->free[i], (p->num_free - i) * sizeof(*p->free));
	p->free[i] = e;
	p->num_free++;
	return 0;
}
