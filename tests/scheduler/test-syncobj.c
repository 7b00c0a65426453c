/*
 * test-syncobj: agx-scheduler's timelines (scheduler/syncobj.c) in
 * process: points that end out of order, chains of 1,000, a diamond of
 * jobs, failures and what later waits see of them, timelines nothing can
 * advance any more, cancelled waits, and callbacks that drop the last
 * handle.  The sanitizer build checks that nothing leaks or is used after
 * it is freed.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include <cmocka.h>

#include "syncobj.h"

/* A waiter that records its callbacks. */
struct rec {
	struct sched_wait w;
	unsigned calls;
	int status;
	unsigned order; /* when it was called, among all recs */
};

static unsigned clock_;

static void recorded(struct sched_wait *w, int status)
{
	struct rec *r = (struct rec *)w;

	r->calls++;
	r->status = status;
	r->order = ++clock_;
}

static bool wait_rec(struct sched_syncobj *o, uint64_t value, struct rec *r)
{
	int status = 1;
	bool now;

	*r = (struct rec){ 0 };
	now = sched_syncobj_wait(o, value, &r->w, recorded, &status);
	if (now) {
		r->calls = 1;
		r->status = status;
		r->order = ++clock_;
	}
	return now;
}

static void test_out_of_order(void **state)
{
	struct sched_syncobj *o = sched_syncobj_create();
	struct rec r1, r2, r3;

	(void)state;
	assert_non_null(o);
	for (uint64_t v = 1; v <= 3; v++)
		assert_int_equal(sched_syncobj_add_point(o, v * 10), 0);
	assert_int_equal(sched_syncobj_add_point(o, 30), -EINVAL); /* points only increase */
	assert_int_equal(sched_syncobj_add_point(o, 5), -EINVAL);
	assert_false(wait_rec(o, 10, &r1));
	assert_false(wait_rec(o, 15, &r2)); /* between points: reached by 20 */
	assert_false(wait_rec(o, 30, &r3));
	sched_syncobj_signal(o, 20, 0);
	assert_int_equal(sched_syncobj_value(o), 0); /* 10 has not ended */
	assert_int_equal(r1.calls + r2.calls + r3.calls, 0);
	sched_syncobj_signal(o, 10, 0);
	assert_int_equal(sched_syncobj_value(o), 20);
	assert_int_equal(r1.calls, 1);
	assert_int_equal(r2.calls, 1);
	assert_true(r1.order < r2.order);
	assert_int_equal(r3.calls, 0);
	sched_syncobj_signal(o, 20, 0); /* twice: ignored */
	sched_syncobj_signal(o, 25, 0); /* never added: ignored */
	sched_syncobj_signal(o, 30, 0);
	assert_int_equal(sched_syncobj_value(o), 30);
	assert_int_equal(r3.calls, 1);
	assert_int_equal(r3.status, 0);
	assert_true(wait_rec(o, 7, &r1)); /* reached already */
	assert_int_equal(r1.status, 0);
	sched_syncobj_handle_unref(o);
}

/* 1,000 points ended last to first: nothing moves until the first, then all at once, in order. */
static void test_chain(void **state)
{
	enum { N = 1000 };
	struct sched_syncobj *o = sched_syncobj_create();
	static struct rec recs[N];

	(void)state;
	for (unsigned i = 0; i < N; i++)
		assert_int_equal(sched_syncobj_add_point(o, i + 1), 0);
	/* waits added in a shuffled order: the list keeps them sorted */
	for (unsigned k = 0; k < N; k++) {
		unsigned i = (k * 7919) % N;

		assert_false(wait_rec(o, i + 1, &recs[i]));
	}
	for (unsigned i = N; i > 1; i--) {
		sched_syncobj_signal(o, i, 0);
		assert_int_equal(sched_syncobj_value(o), 0);
	}
	sched_syncobj_signal(o, 1, 0);
	assert_int_equal(sched_syncobj_value(o), N);
	for (unsigned i = 0; i < N; i++) {
		assert_int_equal(recs[i].calls, 1);
		if (i)
			assert_true(recs[i - 1].order < recs[i].order);
	}
	sched_syncobj_handle_unref(o);
}

/* A job of the diamond: waits for its inputs, then ends its own point at once. */
struct job;

struct input {
	struct sched_wait w;
	struct job *job;
};

struct job {
	struct input in[2];
	unsigned waiting;
	struct sched_syncobj *out;
	unsigned ran; /* when, by the clock */
};

static void job_ready(struct job *j)
{
	j->ran = ++clock_;
	sched_syncobj_signal(j->out, 1, 0);
}

static void job_input(struct sched_wait *w, int status)
{
	struct job *j = ((struct input *)w)->job;

	assert_int_equal(status, 0);
	if (--j->waiting == 0)
		job_ready(j);
}

/* A job waiting on value 1 of each of inputs (n of them), signalling value 1 of out. */
static void job_submit(struct job *j, struct sched_syncobj **inputs, unsigned n,
		       struct sched_syncobj *out)
{
	*j = (struct job){ .out = out, .waiting = n + 1 };
	assert_int_equal(sched_syncobj_add_point(out, 1), 0);
	for (unsigned i = 0; i < n; i++) {
		int status;

		j->in[i].job = j;
		if (sched_syncobj_wait(inputs[i], 1, &j->in[i].w, job_input, &status))
			j->waiting--;
	}
	if (--j->waiting == 0)
		job_ready(j);
}

/* a -> (b, c) -> d, submitted last to first: each runs once, after what it waits for. */
static void test_diamond(void **state)
{
	struct sched_syncobj *ta = sched_syncobj_create(), *tb = sched_syncobj_create(),
			     *tc = sched_syncobj_create(), *td = sched_syncobj_create(),
			     *gate = sched_syncobj_create();
	struct job a, b, c, d;

	(void)state;
	clock_ = 0;
	job_submit(&d, (struct sched_syncobj *[]){ tb, tc }, 2, td);
	job_submit(&c, (struct sched_syncobj *[]){ ta }, 1, tc);
	job_submit(&b, (struct sched_syncobj *[]){ ta }, 1, tb);
	job_submit(&a, (struct sched_syncobj *[]){ gate }, 1, ta);
	assert_int_equal(a.ran + b.ran + c.ran + d.ran, 0);
	assert_int_equal(sched_syncobj_add_point(gate, 1), 0);
	sched_syncobj_signal(gate, 1, 0);
	assert_true(a.ran && b.ran && c.ran && d.ran);
	assert_true(a.ran < b.ran && a.ran < c.ran);
	assert_true(b.ran < d.ran && c.ran < d.ran);
	assert_int_equal(sched_syncobj_value(td), 1);
	sched_syncobj_handle_unref(ta);
	sched_syncobj_handle_unref(tb);
	sched_syncobj_handle_unref(tc);
	sched_syncobj_handle_unref(td);
	sched_syncobj_handle_unref(gate);
}

/* A failed point: its waiters get its status, and so do later waits on the values it covered. */
static void test_failure(void **state)
{
	struct sched_syncobj *o = sched_syncobj_create();
	struct rec r1, r2, r3;

	(void)state;
	for (uint64_t v = 1; v <= 3; v++)
		assert_int_equal(sched_syncobj_add_point(o, v * 10), 0);
	assert_false(wait_rec(o, 15, &r1));
	assert_false(wait_rec(o, 30, &r2));
	sched_syncobj_signal(o, 10, 0);
	sched_syncobj_signal(o, 20, -EIO);
	sched_syncobj_signal(o, 30, 0);
	assert_int_equal(r1.status, -EIO);
	assert_int_equal(r2.status, 0);
	assert_true(wait_rec(o, 10, &r3));
	assert_int_equal(r3.status, 0);
	assert_true(wait_rec(o, 11, &r3));
	assert_int_equal(r3.status, -EIO);
	assert_true(wait_rec(o, 20, &r3));
	assert_int_equal(r3.status, -EIO);
	assert_true(wait_rec(o, 21, &r3));
	assert_int_equal(r3.status, 0);
	sched_syncobj_handle_unref(o);
}

/* With no handle left, a wait beyond the last point can never end: it is cancelled. */
static void test_abandoned(void **state)
{
	struct sched_syncobj *o = sched_syncobj_create();
	struct rec near, far, late;

	(void)state;
	assert_int_equal(sched_syncobj_add_point(o, 1), 0);
	assert_false(wait_rec(o, 1, &near));
	assert_false(wait_rec(o, 5, &far)); /* a point not added yet: it may be */
	sched_syncobj_handle_ref(o);
	sched_syncobj_handle_unref(o);
	sched_syncobj_handle_unref(o); /* the last handle; point 1 still pending */
	assert_int_equal(far.calls, 0);
	sched_syncobj_signal(o, 1, 0); /* and o is freed after the callbacks */
	assert_int_equal(near.calls, 1);
	assert_int_equal(near.status, 0);
	assert_int_equal(far.calls, 1);
	assert_int_equal(far.status, -ECANCELED);

	o = sched_syncobj_create();
	assert_false(wait_rec(o, 1, &far));
	sched_syncobj_handle_ref(o);
	assert_false(wait_rec(o, 2, &near));
	sched_syncobj_cancel(&near.w); /* taken back: never called */
	sched_syncobj_handle_unref(o);
	assert_int_equal(far.calls, 0);
	assert_true(wait_rec(o, 0, &late)); /* 0 is always reached */
	sched_syncobj_handle_unref(o);
	assert_int_equal(far.calls, 1);
	assert_int_equal(far.status, -ECANCELED);
	assert_int_equal(near.calls, 0);
}

/* A callback may drop the last handle of the timeline that calls it, and wait on it again. */
static struct sched_syncobj *reentered;
static struct rec again;

static void drop_and_wait(struct sched_wait *w, int status)
{
	recorded(w, status);
	assert_false(wait_rec(reentered, 9, &again));
	sched_syncobj_handle_unref(reentered);
}

static void test_reentry(void **state)
{
	struct rec r;

	(void)state;
	reentered = sched_syncobj_create();
	assert_int_equal(sched_syncobj_add_point(reentered, 1), 0);
	r = (struct rec){ 0 };
	assert_false(sched_syncobj_wait(reentered, 1, &r.w, drop_and_wait, &r.status));
	sched_syncobj_signal(reentered, 1, 0);
	assert_int_equal(r.calls, 1);
	assert_int_equal(again.calls, 1); /* nothing could reach 9 once the handle went */
	assert_int_equal(again.status, -ECANCELED);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_out_of_order), cmocka_unit_test(test_chain),
		cmocka_unit_test(test_diamond),	     cmocka_unit_test(test_failure),
		cmocka_unit_test(test_abandoned),    cmocka_unit_test(test_reentry),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
