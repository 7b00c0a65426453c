/*
 * cache.c: see cache.h.  A small table of decoded programs, searched
 * linearly (a device has few shaders live at once); when full, the least
 * recently used program is dropped.  Code is fetched a page at a time until
 * the program's end (usc_program_extent) has arrived, so a program at the
 * end of a mapping decodes as far as the mapping goes, and one followed by
 * other bytes stops at its end.
 */
#include <stdlib.h>
#include <string.h>

#include "cache.h"

#define FETCH_CHUNK 4096u

struct entry {
	uint64_t addr;
	size_t size; /* bytes decoded */
	struct usc_program *program;
	uint64_t last_use;
};

struct usc_cache {
	struct entry *entries;
	unsigned capacity, count;
	/* dropped programs the running work may still hold, freed by usc_cache_collect() */
	struct usc_program **dropped;
	unsigned num_dropped, dropped_capacity;
	size_t max_size;
	uint64_t clock;
	struct usc_cache_stats stats;
};

struct usc_cache *usc_cache_create(unsigned capacity, size_t max_size)
{
	struct usc_cache *c = calloc(1, sizeof(*c));

	if (!c)
		return NULL;
	c->entries = calloc(capacity ? capacity : 1, sizeof(*c->entries));
	if (!c->entries) {
		free(c);
		return NULL;
	}
	c->capacity = capacity ? capacity : 1;
	c->max_size = max_size;
	return c;
}

void usc_cache_destroy(struct usc_cache *c)
{
	if (!c)
		return;
	for (unsigned i = 0; i < c->count; i++)
		usc_program_destroy(c->entries[i].program);
	usc_cache_collect(c);
	free(c->dropped);
	free(c->entries);
	free(c);
}

void usc_cache_collect(struct usc_cache *c)
{
	for (unsigned i = 0; i < c->num_dropped; i++)
		usc_program_destroy(c->dropped[i]);
	c->num_dropped = 0;
}

/*
 * An entry leaves the table, but its program lives on until the work that
 * may hold it is over (usc_cache_collect()): a render's tile programs and
 * its draws' shaders are looked up as it starts and run long after, and a
 * stream's own cache invalidation comes between.
 */
static void drop(struct usc_cache *c, unsigned i)
{
	struct usc_program *p = c->entries[i].program;

	c->entries[i] = c->entries[--c->count];
	if (c->num_dropped == c->dropped_capacity) {
		unsigned cap = c->dropped_capacity ? 2 * c->dropped_capacity : 16;
		struct usc_program **more = realloc(c->dropped, cap * sizeof(*more));

		if (!more)
			return; /* out of memory: kept, leaked, rather than freed under a user */
		c->dropped = more;
		c->dropped_capacity = cap;
	}
	c->dropped[c->num_dropped++] = p;
}

const struct usc_program *usc_cache_get(struct usc_cache *c, uint64_t addr, usc_fetch_fn fetch,
					void *ctx)
{
	uint8_t *bytes;
	size_t size = 0;
	struct usc_extent extent = { 0 };
	struct entry *e;

	c->clock++;
	for (unsigned i = 0; i < c->count; i++) {
		if (c->entries[i].addr == addr) {
			c->entries[i].last_use = c->clock;
			c->stats.hits++;
			return c->entries[i].program;
		}
	}

	bytes = malloc(c->max_size ? c->max_size : 1);
	if (!bytes)
		return NULL;
	/*
	 * page by page until the program's end has arrived, then byte pairs
	 * where a mapping ends mid-page
	 */
	while (size < c->max_size) {
		size_t to_boundary = FETCH_CHUNK - (addr + size) % FETCH_CHUNK, end;
		unsigned chunk =
		    (unsigned)(c->max_size - size < to_boundary ? c->max_size - size : to_boundary);

		if (fetch(ctx, addr + size, bytes + size, chunk)) {
			size += chunk;
			if ((end = usc_program_extent(&extent, bytes, size))) {
				size = end;
				break;
			}
			continue;
		}
		while (size + 2 <= c->max_size && fetch(ctx, addr + size, bytes + size, 2))
			size += 2;
		break;
	}
	if (!size) {
		free(bytes);
		return NULL;
	}

	if (c->count == c->capacity) {
		unsigned oldest = 0;

		for (unsigned i = 1; i < c->count; i++)
			if (c->entries[i].last_use < c->entries[oldest].last_use)
				oldest = i;
		drop(c, oldest);
	}
	e = &c->entries[c->count];
	e->program = usc_program_create(bytes, size);
	free(bytes);
	if (!e->program)
		return NULL;
	e->addr = addr;
	e->size = size;
	e->last_use = c->clock;
	c->count++;
	c->stats.decodes++;
	return e->program;
}

void usc_cache_invalidate(struct usc_cache *c, uint64_t addr, uint64_t size)
{
	for (unsigned i = 0; i < c->count;) {
		struct entry *e = &c->entries[i];

		if (e->addr < addr + size && addr < e->addr + e->size) {
			drop(c, i);
			c->stats.invalidations++;
		} else {
			i++;
		}
	}
}

struct usc_cache_stats usc_cache_stats(const struct usc_cache *c)
{
	return c->stats;
}
