/*
 * fence_page.h: the layout of agx-scheduler's fence page, the memory a
 * client maps read-only to see its timelines move without asking
 * (docs/scheduler.md, "Fences without a round trip").
 *
 * The page is a memfd of AGX_FENCE_PAGE_SIZE bytes: a header, then one
 * slot per syncobj of the client, at the fence_index SYNCOBJ_CREATE gave.
 * The scheduler writes a slot under a sequence count (odd while it
 * writes), so a reader copies it and checks the count did not move.  After
 * a batch of changes the scheduler writes 1 to the client's eventfd; a
 * client that waits polls that eventfd together with its socket, so that a
 * scheduler which goes away wakes it too.
 */
#ifndef AGXIPC_FENCE_PAGE_H
#define AGXIPC_FENCE_PAGE_H

#include <stdbool.h>
#include <stdint.h>

#define AGX_FENCE_PAGE_MAGIC   0x46584741u /* "AGXF" */
#define AGX_FENCE_PAGE_VERSION 1
#define AGX_FENCE_PAGE_SIZE    (64u * 1024)
#define AGX_FENCE_PAGE_HEADER  64u
#define AGX_FENCE_SLOT_SIZE    48u
#define AGX_FENCE_PAGE_SLOTS   ((AGX_FENCE_PAGE_SIZE - AGX_FENCE_PAGE_HEADER) / AGX_FENCE_SLOT_SIZE)

struct agx_fence_page_header {
	uint32_t magic;
	uint16_t version;
	uint16_t slot_size;
	uint32_t slots;
	uint32_t lost; /* nonzero: the scheduler stopped; nothing will move any more */
	uint8_t reserved[AGX_FENCE_PAGE_HEADER - 16];
};

/* One timeline: its value, and the values the latest failure covered. */
struct agx_fence_slot {
	uint32_t seq;	       /* odd while the scheduler writes the slot */
	int32_t status;	       /* the latest failure's negative errno; 0: none yet */
	uint64_t value;	       /* every point up to here has ended */
	uint64_t failed_after; /* the latest failure covered (failed_after, failed_upto] */
	uint64_t failed_upto;
	uint32_t failures; /* how many points have failed, ever */
	uint8_t reserved[12];
};

/* agx_fence_slot_reached()'s status when an older failure may cover the value. */
#define AGX_FENCE_STATUS_ASK 1

_Static_assert(sizeof(struct agx_fence_page_header) == AGX_FENCE_PAGE_HEADER, "header size");
_Static_assert(sizeof(struct agx_fence_slot) == AGX_FENCE_SLOT_SIZE, "slot size");

/* A consistent copy of a slot as the scheduler last wrote it. */
static inline void agx_fence_slot_read(const struct agx_fence_slot *slot,
				       struct agx_fence_slot *out)
{
	for (;;) {
		uint32_t seq = __atomic_load_n(&slot->seq, __ATOMIC_ACQUIRE);

		if (seq & 1)
			continue;
		out->status = __atomic_load_n(&slot->status, __ATOMIC_RELAXED);
		out->value = __atomic_load_n(&slot->value, __ATOMIC_RELAXED);
		out->failed_after = __atomic_load_n(&slot->failed_after, __ATOMIC_RELAXED);
		out->failed_upto = __atomic_load_n(&slot->failed_upto, __ATOMIC_RELAXED);
		out->failures = __atomic_load_n(&slot->failures, __ATOMIC_RELAXED);
		__atomic_thread_fence(__ATOMIC_ACQUIRE);
		if (__atomic_load_n(&slot->seq, __ATOMIC_RELAXED) == seq) {
			out->seq = seq;
			return;
		}
	}
}

/*
 * Whether value is reached on the slot; if so *status is how: 0, the
 * error of the latest failure when it covered value, or
 * AGX_FENCE_STATUS_ASK when an older failure may have: the page keeps only
 * the latest, and SYNCOBJ_WAIT answers exactly.
 */
static inline bool agx_fence_slot_reached(const struct agx_fence_slot *slot, uint64_t value,
					  int *status)
{
	struct agx_fence_slot s;

	agx_fence_slot_read(slot, &s);
	if (s.value < value)
		return false;
	if (value > s.failed_after && value <= s.failed_upto)
		*status = s.status;
	else if (s.failures > 1 && value <= s.failed_after)
		*status = AGX_FENCE_STATUS_ASK;
	else
		*status = 0;
	return true;
}

#endif
