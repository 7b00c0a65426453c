/*
 * syncobj.h: timeline syncobjs, agx-scheduler's fences (docs/scheduler.md).
 *
 * A timeline holds a 64-bit value that only grows.  Work that will signal
 * it first adds its point (points must increase in the order they are
 * added), then signals that point when it ends, with a status.  Points may
 * end in any order; the value moves to a point once it and every earlier
 * point have ended, as a chain of fences does in Linux's timeline
 * syncobjs.  Whatever waits for a value -- a job's dependency, a client's
 * wait, an exported point -- hangs a struct sched_wait on the timeline and
 * is called back exactly once: with the status of the point that reached
 * the value, or with -ECANCELED once nothing can reach it any more (no
 * handle left to add points with, and no point still pending).  A failed
 * point's status is remembered for later waits on the values it covered
 * (the last SCHED_SYNCOBJ_FAILURES of them; older ones read as 0).
 *
 * Plain data on the scheduler's one thread: no locks, no I/O.
 */
#ifndef SCHEDULER_SYNCOBJ_H
#define SCHEDULER_SYNCOBJ_H

#include <stdbool.h>
#include <stdint.h>

#define SCHED_SYNCOBJ_FAILURES 16

struct sched_syncobj;
struct sched_wait;

typedef void (*sched_wait_fn)(struct sched_wait *w, int status);

/* Embedded in whatever waits; owned by the timeline between wait and callback. */
struct sched_wait {
	struct sched_syncobj *obj; /* NULL while not waiting */
	uint64_t value;
	sched_wait_fn done;
	struct sched_wait *next;
	int status; /* what done is called with */
};

/* A new timeline at 0, with one handle (its creator's). */
struct sched_syncobj *sched_syncobj_create(void);
/* Another handle (an import), or its end; the last end with no point pending cancels waiters. */
void sched_syncobj_handle_ref(struct sched_syncobj *o);
void sched_syncobj_handle_unref(struct sched_syncobj *o);

uint64_t sched_syncobj_value(const struct sched_syncobj *o);
/* The highest point added so far (0: none); a new point must be above it. */
uint64_t sched_syncobj_last_point(const struct sched_syncobj *o);
/* The latest failure: values (*after, *upto] reached with *status; false if none. */
bool sched_syncobj_last_failure(const struct sched_syncobj *o, uint64_t *after, uint64_t *upto,
				int *status);
/* How many points have failed, ever. */
uint32_t sched_syncobj_failures(const struct sched_syncobj *o);

/*
 * Called each time the value moves, before the waiters it reaches (the
 * fence page mirrors it).  One observer per timeline; NULL removes it.
 */
typedef void (*sched_syncobj_observer)(struct sched_syncobj *o, void *data);
void sched_syncobj_observe(struct sched_syncobj *o, sched_syncobj_observer fn, void *data);

/*
 * Work that will signal value: 0, -EINVAL when value is not above every
 * point added before, -ENOMEM.
 */
int sched_syncobj_add_point(struct sched_syncobj *o, uint64_t value);
/* The work of an added point ended: 0 or a negative errno (a fault, device lost). */
void sched_syncobj_signal(struct sched_syncobj *o, uint64_t value, int status);

/*
 * Waits for value.  Returns true, without a callback, when it is already
 * reached (*status then says how); false when w->done will be called.
 * A timeline that nothing can advance any more answers -ECANCELED at once.
 */
bool sched_syncobj_wait(struct sched_syncobj *o, uint64_t value, struct sched_wait *w,
			sched_wait_fn done, int *status);
/* Takes a wait back before its callback (its owner goes away); no callback follows. */
void sched_syncobj_cancel(struct sched_wait *w);

#endif
