/*
 * syncobj.c: timeline syncobjs (syncobj.h).  Pending points sit in a ring
 * in the order they were added, which is increasing order; waiters sit in
 * a list sorted by the value they wait for, so signalling looks only at
 * the front of both.
 */
#include <errno.h>
#include <stdlib.h>

#include "syncobj.h"

struct point {
	uint64_t value;
	int status;
	bool ended;
};

/* Values (after, upto] reached by a point that failed with status. */
struct failure {
	uint64_t after, upto;
	int status;
};

struct sched_syncobj {
	uint64_t value, last;
	struct point *pending; /* a ring: head, count, cap */
	unsigned head, count, cap;
	struct sched_wait *waiters;
	unsigned handles;
	unsigned busy; /* callbacks running: freeing waits for them */
	struct failure failures[SCHED_SYNCOBJ_FAILURES];
	unsigned num_failures, next_failure;
	uint32_t failed_points;
	sched_syncobj_observer observer;
	void *observer_data;
};

static void release_if_unused(struct sched_syncobj *o)
{
	if (!o->handles && !o->count && !o->waiters && !o->busy) {
		free(o->pending);
		free(o);
	}
}

struct sched_syncobj *sched_syncobj_create(void)
{
	struct sched_syncobj *o = calloc(1, sizeof(*o));

	if (o)
		o->handles = 1;
	return o;
}

uint64_t sched_syncobj_value(const struct sched_syncobj *o)
{
	return o->value;
}

uint64_t sched_syncobj_last_point(const struct sched_syncobj *o)
{
	return o->last;
}

bool sched_syncobj_last_failure(const struct sched_syncobj *o, uint64_t *after, uint64_t *upto,
				int *status)
{
	const struct failure *f;

	if (!o->num_failures)
		return false;
	f = &o->failures[(o->next_failure + SCHED_SYNCOBJ_FAILURES - 1) % SCHED_SYNCOBJ_FAILURES];
	*after = f->after;
	*upto = f->upto;
	*status = f->status;
	return true;
}

uint32_t sched_syncobj_failures(const struct sched_syncobj *o)
{
	return o->failed_points;
}

void sched_syncobj_observe(struct sched_syncobj *o, sched_syncobj_observer fn, void *data)
{
	o->observer = fn;
	o->observer_data = data;
}

/* Nothing can move the value any more: no handle to add points with, none pending. */
static bool abandoned(const struct sched_syncobj *o)
{
	return !o->handles && !o->count;
}

/* The status a wait for an already reached value gets. */
static int reached_status(const struct sched_syncobj *o, uint64_t value)
{
	for (unsigned i = 0; i < o->num_failures; i++)
		if (value > o->failures[i].after && value <= o->failures[i].upto)
			return o->failures[i].status;
	return 0;
}

/* Hands the waiters collected in list their callbacks, then frees o if nothing holds it. */
static void call_back(struct sched_syncobj *o, struct sched_wait *list)
{
	o->busy++;
	while (list) {
		struct sched_wait *w = list;

		list = w->next;
		w->next = NULL;
		w->obj = NULL;
		w->done(w, w->status); /* may free w, wait again, drop handles */
	}
	o->busy--;
	release_if_unused(o);
}

/* Moves the value over every ended point at the ring's head; wakes who that reaches. */
static void advance(struct sched_syncobj *o)
{
	struct sched_wait *ready = NULL, **tail = &ready;
	uint64_t before = o->value;

	while (o->count && o->pending[o->head].ended) {
		struct point p = o->pending[o->head];

		o->head = (o->head + 1) % o->cap;
		o->count--;
		if (p.status) {
			o->failed_points++;
			o->failures[o->next_failure] =
			    (struct failure){ o->value, p.value, p.status };
			o->next_failure = (o->next_failure + 1) % SCHED_SYNCOBJ_FAILURES;
			if (o->num_failures < SCHED_SYNCOBJ_FAILURES)
				o->num_failures++;
		}
		o->value = p.value;
		while (o->waiters && o->waiters->value <= p.value) {
			struct sched_wait *w = o->waiters;

			o->waiters = w->next;
			w->next = NULL;
			w->status = p.status;
			*tail = w;
			tail = &w->next;
		}
	}
	if (o->value != before && o->observer)
		o->observer(o, o->observer_data);
	if (abandoned(o)) {
		*tail = o->waiters;
		for (struct sched_wait *w = o->waiters; w; w = w->next)
			w->status = -ECANCELED;
		o->waiters = NULL;
	}
	call_back(o, ready);
}

void sched_syncobj_handle_ref(struct sched_syncobj *o)
{
	o->handles++;
}

void sched_syncobj_handle_unref(struct sched_syncobj *o)
{
	if (!o)
		return;
	o->handles--;
	advance(o); /* the last handle may leave waiters nothing to wait for */
}

int sched_syncobj_add_point(struct sched_syncobj *o, uint64_t value)
{
	if (value <= o->last)
		return -EINVAL;
	if (o->count == o->cap) {
		unsigned cap = o->cap ? 2 * o->cap : 8;
		struct point *grown = malloc(cap * sizeof(*grown));

		if (!grown)
			return -ENOMEM;
		for (unsigned i = 0; i < o->count; i++)
			grown[i] = o->pending[(o->head + i) % o->cap];
		free(o->pending);
		o->pending = grown;
		o->head = 0;
		o->cap = cap;
	}
	o->pending[(o->head + o->count) % o->cap] = (struct point){ value, 0, false };
	o->count++;
	o->last = value;
	return 0;
}

void sched_syncobj_signal(struct sched_syncobj *o, uint64_t value, int status)
{
	unsigned lo = 0, hi = o->count;
	struct point *p;

	/* the ring is sorted: find the point by bisection */
	while (lo < hi) {
		unsigned mid = (lo + hi) / 2;

		if (o->pending[(o->head + mid) % o->cap].value < value)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == o->count) /* not pending: a caller's bug, and nothing to do */
		return;
	p = &o->pending[(o->head + lo) % o->cap];

	if (p->value != value || p->ended)
		return;
	p->ended = true;
	p->status = status;
	if (lo == 0)
		advance(o);
}

bool sched_syncobj_wait(struct sched_syncobj *o, uint64_t value, struct sched_wait *w,
			sched_wait_fn done, int *status)
{
	struct sched_wait **at = &o->waiters;

	if (value <= o->value) {
		*status = reached_status(o, value);
		return true;
	}
	if (abandoned(o)) {
		*status = -ECANCELED;
		return true;
	}
	while (*at && (*at)->value <= value)
		at = &(*at)->next;
	*w = (struct sched_wait){ .obj = o, .value = value, .done = done, .next = *at };
	*at = w;
	return false;
}

void sched_syncobj_cancel(struct sched_wait *w)
{
	struct sched_syncobj *o = w->obj;

	if (!o)
		return;
	for (struct sched_wait **at = &o->waiters; *at; at = &(*at)->next)
		if (*at == w) {
			*at = w->next;
			break;
		}
	w->obj = NULL;
	w->next = NULL;
	release_if_unused(o);
}
