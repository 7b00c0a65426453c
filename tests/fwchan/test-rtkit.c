/*
 * test-rtkit: agx-fwchan's outgoing mailbox queue (fwchan/rtkit.c) over a
 * register page in plain memory, with the test as the device that takes
 * messages from the ring: messages keep their order through the queue,
 * and a doorbell already waiting in the queue stands for the ones after
 * it, so that a flood of doorbells can neither lose one nor crowd out
 * the other messages.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include <cmocka.h>
#include <event2/event.h>

#include "agx/mmio.h"
#include "rtkit.h"

#define EP_A 0x20
#define EP_B 0x21

struct fixture {
	struct event_base *base;
	void *page;
	int doorbell_fd, irq_fd;
	struct rtkit r;
};

static int setup(void **state)
{
	struct fixture *f = calloc(1, sizeof(*f));

	if (!f)
		return -1;
	f->base = event_base_new();
	f->page = aligned_alloc(4096, AGX_MMIO_SIZE);
	f->doorbell_fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	f->irq_fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	if (!f->base || !f->page || f->doorbell_fd < 0 || f->irq_fd < 0)
		return -1;
	memset(f->page, 0, AGX_MMIO_SIZE);
	if (rtkit_init(&f->r, f->base, f->page, f->doorbell_fd, f->irq_fd, NULL, NULL, NULL) < 0)
		return -1;
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *f = *state;

	rtkit_fini(&f->r);
	event_base_free(f->base);
	close(f->doorbell_fd);
	close(f->irq_fd);
	free(f->page);
	free(f);
	return 0;
}

/* The device's side: the next message of the host-to-device ring, which must be there. */
static struct agx_mbox_msg take(struct fixture *f)
{
	struct agx_mbox_msg m = { 0 };

	assert_true(agx_mbox_pop(f->page, AGX_MMIO_A2I_RING, AGX_MMIO_A2I_CONTROL, &m));
	return m;
}

static void expect_message(struct fixture *f, uint8_t ep, uint64_t msg)
{
	struct agx_mbox_msg m = take(f);

	assert_int_equal(m.msg1, ep);
	assert_int_equal(m.msg0, msg);
}

static void expect_empty(struct fixture *f)
{
	struct agx_mbox_msg m;

	assert_false(agx_mbox_pop(f->page, AGX_MMIO_A2I_RING, AGX_MMIO_A2I_CONTROL, &m));
}

/* Messages beyond the ring wait in the queue, in order, until the device takes some. */
static void test_order(void **state)
{
	struct fixture *f = *state;
	unsigned n = AGX_MBOX_SLOTS + RTKIT_OUT_QUEUE;

	for (unsigned i = 0; i < n; i++)
		assert_true(rtkit_send(&f->r, EP_A, 1000 + i));
	/* ring and queue full: the next is refused, not dropped silently */
	assert_false(rtkit_send(&f->r, EP_A, 5));
	for (unsigned i = 0; i < n; i++) {
		if (i % AGX_MBOX_SLOTS == 0 && i)
			rtkit_drain(&f->r); /* the device made room: the queue moves on */
		expect_message(f, EP_A, 1000 + i);
	}
	expect_empty(f);
}

/*
 * With the ring full, a thousand doorbells on each of two channels, among
 * other messages, take one queue entry a channel; each is delivered once,
 * after the messages queued before it, and nothing else is refused.
 */
static void test_doorbells_coalesce(void **state)
{
	struct fixture *f = *state;

	for (unsigned i = 0; i < AGX_MBOX_SLOTS; i++)
		assert_true(rtkit_send(&f->r, EP_B, i));
	assert_true(rtkit_send(&f->r, EP_B, 77));
	for (unsigned i = 0; i < 1000; i++) {
		assert_true(rtkit_ring(&f->r, EP_A, 1));
		assert_true(rtkit_ring(&f->r, EP_A, 2));
		/* the same payload on another endpoint is another message */
		assert_true(rtkit_ring(&f->r, EP_B, 1));
	}
	for (unsigned i = 0; i < RTKIT_OUT_QUEUE - 4; i++)
		assert_true(rtkit_send(&f->r, EP_B, 2000 + i));
	assert_false(rtkit_ring(&f->r, EP_A, 3)); /* the queue is full of other messages */
	assert_true(rtkit_ring(&f->r, EP_A, 2));  /* but this one waits already */

	for (unsigned i = 0; i < AGX_MBOX_SLOTS; i++)
		expect_message(f, EP_B, i);
	expect_empty(f);
	rtkit_drain(&f->r);
	expect_message(f, EP_B, 77);
	expect_message(f, EP_A, 1);
	expect_message(f, EP_A, 2);
	expect_message(f, EP_B, 1);
	for (unsigned i = 0; i < RTKIT_OUT_QUEUE - 4; i++) {
		if ((i + 4) % AGX_MBOX_SLOTS == 0)
			rtkit_drain(&f->r);
		expect_message(f, EP_B, 2000 + i);
	}
	expect_empty(f);

	/* delivered, a doorbell no longer stands for a later one */
	rtkit_drain(&f->r);
	assert_true(rtkit_ring(&f->r, EP_A, 1));
	expect_message(f, EP_A, 1);
	expect_empty(f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_order, setup, teardown),
		cmocka_unit_test_setup_teardown(test_doorbells_coalesce, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
