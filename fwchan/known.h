/*
 * known.h: the ranges agx-fwchan knows to be mapped in each UAT slot,
 * from memmgr's answers to VM_CHECK, so that a submission naming them
 * again needs no round trip.  What memmgr unmaps, or a slot that changes
 * VM, reaches fwchan as a TLB invalidation of that range or slot before
 * memmgr's unbind is done; fwchan forgets what it knew there first.
 */
#ifndef FWCHAN_KNOWN_H
#define FWCHAN_KNOWN_H

#include <stdbool.h>
#include <stdint.h>

#include "agx/work.h"

#define KNOWN_SLOTS    64
#define KNOWN_PER_SLOT 32 /* ranges remembered per slot, the oldest replaced */

struct known {
	struct agx_work_range ranges[KNOWN_SLOTS][KNOWN_PER_SLOT];
	unsigned count[KNOWN_SLOTS], next[KNOWN_SLOTS];
};

/* Whether [va, va + size) lies in one range known mapped in slot with at least access. */
bool known_mapped(struct known *k, unsigned slot, uint64_t va, uint64_t size, unsigned access);
/* memmgr said so: remember it. */
void known_add(struct known *k, unsigned slot, uint64_t va, uint64_t size, unsigned access);
/* An invalidation: forget what overlaps [va, va + size) in slot (size 0: all of it). */
void known_forget(struct known *k, unsigned slot, uint64_t va, uint64_t size);
/* The firmware (and with it every slot's state) is gone. */
void known_forget_all(struct known *k);

#endif
