/*
 * busypoll.c: bounded busy-polling, the latency/CPU trade every libagxipc
 * loop and blocking client makes.
 *
 * A request/reply between two sleeping processes pays two wake-ups, and a
 * wake-up of an idle CPU is the dominant cost of a small message (on the
 * 2-core VMs we measure on, about 13 us each, against under 1 us for the
 * sendmsg/recvmsg pair).  So after handling traffic, a loop keeps polling
 * without sleeping for a short budget, and a blocking client waiting for a
 * reply polls for the same budget before it sleeps: a conversation in
 * progress never pays a wake-up, an idle process never spins.  This is the
 * idea of Linux's SO_BUSY_POLL, applied where our messages wait.
 *
 * AGX_IPC_BUSY_POLL_US sets the budget (default 30 us, 0 turns it off).
 *
 * The stack's pollers (daemons, clients, agx-sim's firmware thread and GPU
 * cores) usually outnumber the CPUs.  A poller that only spins keeps its
 * CPU until the scheduler's tick takes it away, while the thread the next
 * step of a conversation waits for sits runnable behind it; so between two
 * looks every poller yields (agx_ipc_busy_poll_relax).  One poller that did
 * not would take the CPU from the ones that do.  On the fwchan benchmark
 * this took one item's latency from 100 us to about 30.
 */
#include <sched.h>
#include <stdlib.h>
#include <time.h>

#include <event2/event.h>

#include "conn.h"

#define DEFAULT_BUSY_POLL_US 30
#define MAX_BUSY_POLL_US     1000

_Thread_local unsigned long ipc_activity;

unsigned agx_ipc_busy_poll_us(void)
{
	static int cached = -1;

	if (cached < 0) {
		const char *env = getenv("AGX_IPC_BUSY_POLL_US");
		long v = env ? strtol(env, NULL, 10) : DEFAULT_BUSY_POLL_US;

		cached = v < 0 ? 0 : v > MAX_BUSY_POLL_US ? MAX_BUSY_POLL_US : (int)v;
	}
	return (unsigned)cached;
}

void agx_ipc_busy_poll_relax(void)
{
	sched_yield();
}

uint64_t ipc_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static bool stopped(struct event_base *base)
{
	return event_base_got_break(base) || event_base_got_exit(base);
}

int agx_ipc_loop_run(struct event_base *base)
{
	uint64_t budget = agx_ipc_busy_poll_us() * 1000ull;

	for (;;) {
		int ret = event_base_loop(base, EVLOOP_ONCE);

		if (ret < 0)
			return -1;
		if (ret == 1 || stopped(base))
			return 0;
		/* Traffic just came: poll on, without sleeping, while it keeps coming. */
		for (uint64_t deadline = ipc_now_ns() + budget;
		     budget && ipc_now_ns() < deadline;) {
			unsigned long before = ipc_activity;

			event_base_loop(base, EVLOOP_NONBLOCK);
			if (stopped(base))
				return 0;
			agx_ipc_busy_poll_relax();
			if (ipc_activity != before)
				deadline = ipc_now_ns() + budget;
		}
	}
}
