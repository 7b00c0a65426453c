/*
 * cache.h: decoded shader programs, keyed by their device address, so that
 * a program is decoded once and run by every SIMD group of every dispatch
 * that uses it.  The device invalidates entries when the memory under them
 * may have changed (writes by DMA, unmaps, explicit cache flushes).
 */
#ifndef USC_CACHE_H
#define USC_CACHE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "usc.h"

/* Reads device memory; false where nothing is mapped. */
typedef bool (*usc_fetch_fn)(void *ctx, uint64_t addr, void *dst, unsigned size);

struct usc_cache_stats {
	uint64_t hits, decodes, invalidations;
};

struct usc_cache;

/* A cache of at most `capacity` programs of at most max_size bytes each. */
struct usc_cache *usc_cache_create(unsigned capacity, size_t max_size);
void usc_cache_destroy(struct usc_cache *cache);

/*
 * The program at addr, decoded on first use from the bytes fetch returns:
 * up to max_size bytes, or up to the first unmapped page.  NULL when not
 * even the first bytes can be read, or when out of memory.
 */
const struct usc_program *usc_cache_get(struct usc_cache *cache, uint64_t addr, usc_fetch_fn fetch,
					void *ctx);

/*
 * Forgets every program overlapping [addr, addr + size): later lookups
 * decode afresh.  Programs already handed out stay valid until
 * usc_cache_collect() (so does one the table evicts when full).
 */
void usc_cache_invalidate(struct usc_cache *cache, uint64_t addr, uint64_t size);

/* Frees the forgotten programs: call it only when no work holds any program of the cache. */
void usc_cache_collect(struct usc_cache *cache);

struct usc_cache_stats usc_cache_stats(const struct usc_cache *cache);

#endif
