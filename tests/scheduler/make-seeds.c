/*
 * make-seeds: seed sessions for the scheduler's fuzz-requests, written
 * into DIR: a queue on VM 1, syncobjs, jobs that run and wait, a wait, an
 * export, a status and the fence page; a queue on VM 0 (refused) and bad
 * points.  A fresh client's first queue and syncobj are 1.
 *
 *   make-seeds DIR
 */
#include <stdio.h>
#include <stdlib.h>

#include "agxipc/ipc.h"
#include "harness.h"

int main(int argc, char **argv)
{
	static struct seed_session seed;
	Agx__Scheduler__QueueCreate qc = AGX__SCHEDULER__QUEUE_CREATE__INIT;
	Agx__Scheduler__QueueDestroy qd = AGX__SCHEDULER__QUEUE_DESTROY__INIT;
	Agx__Scheduler__SyncobjCreate sc = AGX__SCHEDULER__SYNCOBJ_CREATE__INIT;
	Agx__Scheduler__SyncobjDestroy sd = AGX__SCHEDULER__SYNCOBJ_DESTROY__INIT;
	Agx__Scheduler__Submit sub = AGX__SCHEDULER__SUBMIT__INIT;
	Agx__Scheduler__SyncobjWait w = AGX__SCHEDULER__SYNCOBJ_WAIT__INIT;
	Agx__Scheduler__SyncobjExport ex = AGX__SCHEDULER__SYNCOBJ_EXPORT__INIT;
	Agx__Scheduler__QueryStatus qs = AGX__SCHEDULER__QUERY_STATUS__INIT;
	Agx__Scheduler__FencePage fp = AGX__SCHEDULER__FENCE_PAGE__INIT;
	Agx__Scheduler__SyncPoint p1 = AGX__SCHEDULER__SYNC_POINT__INIT,
				  p2 = AGX__SCHEDULER__SYNC_POINT__INIT, *one[1], *two[1];
	Agx__Scheduler__Command cmd = AGX__SCHEDULER__COMMAND__INIT, *cmds[1] = { &cmd };
	Agx__Work__Compute c = AGX__WORK__COMPUTE__INIT;

	if (argc != 2) {
		fprintf(stderr, "usage: %s DIR\n", argv[0]);
		return 2;
	}
	seed_start(&seed, 1);
	qc.vm = 1;
	qc.priority = AGX__WORK__PRIORITY__PRIORITY_NORMAL;
	seed_add(&seed, AGX_IPC_MSG_SCHED_QUEUE_CREATE, &qc.base);
	seed_add(&seed, AGX_IPC_MSG_SCHED_SYNCOBJ_CREATE, &sc.base);
	seed_add(&seed, AGX_IPC_MSG_SCHED_SYNCOBJ_CREATE, &sc.base);
	c.encoder = 0x100000000ull;
	c.encoder_end = 0x100000040ull;
	c.usc_base = 0x100010000ull;
	cmd.command_case = AGX__SCHEDULER__COMMAND__COMMAND_COMPUTE;
	cmd.compute = &c;
	p1.syncobj = 1;
	p1.value = 1;
	p2.syncobj = 2;
	p2.value = 1;
	one[0] = &p1;
	two[0] = &p2;
	sub.queue = 1;
	sub.commands = cmds;
	sub.n_commands = 1;
	sub.signals = one;
	sub.n_signals = 1;
	seed_add(&seed, AGX_IPC_MSG_SCHED_SUBMIT, &sub.base);
	sub.waits = one; /* waits for the first, signals the second */
	sub.n_waits = 1;
	sub.signals = two;
	seed_add(&seed, AGX_IPC_MSG_SCHED_SUBMIT, &sub.base);
	w.points = two;
	w.n_points = 1;
	w.wait_all = true;
	w.timeout_ns = 1000000;
	seed_add(&seed, AGX_IPC_MSG_SCHED_SYNCOBJ_WAIT, &w.base);
	ex.point = &p2;
	seed_add(&seed, AGX_IPC_MSG_SCHED_SYNCOBJ_EXPORT, &ex.base);
	qs.queue = 1;
	seed_add(&seed, AGX_IPC_MSG_SCHED_QUERY_STATUS, &qs.base);
	seed_add(&seed, AGX_IPC_MSG_SCHED_FENCE_PAGE, &fp.base);
	qd.queue = 1;
	seed_add(&seed, AGX_IPC_MSG_SCHED_QUEUE_DESTROY, &qd.base);
	sd.syncobj = 1;
	seed_add(&seed, AGX_IPC_MSG_SCHED_SYNCOBJ_DESTROY, &sd.base);
	seed_save(&seed, argv[1], "jobs");

	seed_start(&seed, 1);
	qc.vm = 0; /* memmgr knows no VM 0 */
	seed_add(&seed, AGX_IPC_MSG_SCHED_QUEUE_CREATE, &qc.base);
	qc.vm = 2;
	qc.priority = AGX__WORK__PRIORITY__PRIORITY_REALTIME;
	seed_add(&seed, AGX_IPC_MSG_SCHED_QUEUE_CREATE, &qc.base);
	seed_add(&seed, AGX_IPC_MSG_SCHED_SYNCOBJ_CREATE, &sc.base);
	sub.n_waits = 0;
	sub.signals = one;
	c.encoder = 0x100000002ull; /* misaligned */
	seed_add(&seed, AGX_IPC_MSG_SCHED_SUBMIT, &sub.base);
	c.encoder = 0x100000000ull;
	p1.value = 5; /* a job that waits for what nothing signals, at the head */
	sub.waits = two;
	sub.n_waits = 1;
	seed_add(&seed, AGX_IPC_MSG_SCHED_SUBMIT, &sub.base);
	seed_add(&seed, AGX_IPC_MSG_SCHED_SUBMIT, &sub.base); /* the same point again */
	w.timeout_ns = UINT64_MAX;
	seed_add(&seed, AGX_IPC_MSG_SCHED_SYNCOBJ_WAIT, &w.base);
	seed_save(&seed, argv[1], "refused");
	return 0;
}
