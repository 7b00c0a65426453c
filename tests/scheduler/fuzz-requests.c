/*
 * fuzz-requests: agx-scheduler's request handling (server.c over client.c,
 * job.c, export.c and dispatch.c) on a real socket, fed packet sequences
 * by a client, with stand-ins for agx-memmgr's privileged socket and
 * agx-fwchan on the same loop: memmgr binds every VM but 0, fwchan takes
 * every submission and completes its items on the next turn (every fifth
 * with a fault first, every seventh else with a TVB grow request first,
 * every other one of those overflowed).  Whatever arrives, the scheduler must not crash,
 * and once the client is gone and its work has drained, no client, queue,
 * VM, item or exported point is left, and no fd.
 *
 * Input: [flags: bit 0 = send a valid HELLO first] then packets, each
 * [u16 little-endian length] [bytes].
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <event2/event.h>

#include "agxipc/log.h"
#include "agxipc/server.h"
#include "harness.h"
#include "scheduler.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define MAX_PENDING 4096

static struct scheduler s;
static struct event_base *base;
static struct agx_ipc_server *fake_memmgr, *fake_fwchan;
static char dir[64], path[108], memmgr_path[108], fwchan_path[108];

/* fwchan's items not yet completed, and the connection they go back on */
static struct {
	uint64_t job_id;
	uint32_t context;
} pending[MAX_PENDING];
static unsigned num_pending, next_context = 1, completed_count;
static struct agx_ipc_conn *scheduler_conn;

static int reply_empty(struct agx_ipc_request *req)
{
	Agx__Ipc__Empty r = AGX__IPC__EMPTY__INIT;

	return agx_ipc_reply(req, &r.base, NULL, 0);
}

static int memmgr_dispatch(struct agx_ipc_request *req, void *data)
{
	if (req->msg.type == AGX_IPC_MSG_MEMMGR_VM_SLOT_BIND) {
		const Agx__Memmgr__VmSlotBind *q = (const void *)req->msg.body;
		Agx__Memmgr__VmSlotBindReply r = AGX__MEMMGR__VM_SLOT_BIND_REPLY__INIT;

		if (!q->vm)
			return agx_ipc_reply_error(req, AGX__IPC__ERROR_CODE__ERROR_NOT_FOUND,
						   "no VM 0");
		r.context_slot = 1 + q->vm % 63;
		return agx_ipc_reply(req, &r.base, NULL, 0);
	}
	if (req->msg.type == AGX_IPC_MSG_MEMMGR_JOBS_COMPLETED)
		return reply_empty(req);
	return -ENOSYS;
}

/* Completes what a context still has: aborted, as fwchan does when it goes. */
static void complete(uint32_t context, bool all)
{
	Agx__Fwchan__Completion items[MAX_PENDING], *list[MAX_PENDING];
	Agx__Fwchan__CompletionEvent e = AGX__FWCHAN__COMPLETION_EVENT__INIT;
	unsigned n = 0, kept = 0;

	for (unsigned i = 0; i < num_pending; i++) {
		if (!all && pending[i].context != context) {
			pending[kept++] = pending[i];
			continue;
		}
		agx__fwchan__completion__init(&items[n]);
		items[n].job_id = pending[i].job_id;
		items[n].result = all ? AGX__FWCHAN__WORK_RESULT__RESULT_OK
				      : AGX__FWCHAN__WORK_RESULT__RESULT_ABORTED;
		if (all && ++completed_count % 5 == 0) {
			Agx__Fwchan__FaultEvent f = AGX__FWCHAN__FAULT_EVENT__INIT;

			f.job_id = pending[i].job_id;
			f.unit = "usc";
			agx_ipc_conn_send_event(scheduler_conn, AGX_IPC_MSG_FWCHAN_FAULT, &f.base,
						NULL, 0);
			items[n].result = AGX__FWCHAN__WORK_RESULT__RESULT_FAULT;
		} else if (all && completed_count % 7 == 0) {
			Agx__Fwchan__TvbGrowEvent g = AGX__FWCHAN__TVB_GROW_EVENT__INIT;

			g.job_id = pending[i].job_id;
			g.bytes = completed_count * 1024ull;
			agx_ipc_conn_send_event(scheduler_conn, AGX_IPC_MSG_FWCHAN_TVB_GROW,
						&g.base, NULL, 0);
			if (completed_count % 2)
				items[n].result = AGX__FWCHAN__WORK_RESULT__RESULT_TVB_OVERFLOW;
		}
		items[n].gpu_start_ns = 1000;
		items[n].gpu_end_ns = 2000;
		list[n] = &items[n];
		n++;
	}
	num_pending = kept;
	if (!n || !scheduler_conn)
		return;
	e.completions = list;
	e.n_completions = n;
	agx_ipc_conn_send_event(scheduler_conn, AGX_IPC_MSG_FWCHAN_COMPLETION, &e.base, NULL, 0);
}

static int fwchan_dispatch(struct agx_ipc_request *req, void *data)
{
	scheduler_conn = req->conn;
	switch (req->msg.type) {
	case AGX_IPC_MSG_FWCHAN_CONTEXT_CREATE: {
		Agx__Fwchan__ContextCreateReply r = AGX__FWCHAN__CONTEXT_CREATE_REPLY__INIT;

		r.context = next_context++;
		return agx_ipc_reply(req, &r.base, NULL, 0);
	}
	case AGX_IPC_MSG_FWCHAN_CONTEXT_DESTROY:
		complete(((const Agx__Fwchan__ContextDestroy *)req->msg.body)->context, false);
		return reply_empty(req);
	case AGX_IPC_MSG_FWCHAN_SUBMIT: {
		const Agx__Fwchan__Submit *q = (const void *)req->msg.body;

		if (num_pending + q->n_items > MAX_PENDING)
			return agx_ipc_reply_error(req, AGX__IPC__ERROR_CODE__ERROR_BUSY, "full");
		for (size_t i = 0; i < q->n_items; i++)
			pending[num_pending++] =
			    (typeof(pending[0])){ q->items[i]->job_id, q->context };
		return reply_empty(req);
	}
	default:
		return -ENOSYS;
	}
}

static const struct agx_ipc_server_ops memmgr_ops = { .dispatch = memmgr_dispatch };
static const struct agx_ipc_server_ops fwchan_ops = { .dispatch = fwchan_dispatch };

static int listen_at(const char *where)
{
	struct sockaddr_un addr = { .sun_family = AF_UNIX };
	int fd = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);

	strcpy(addr.sun_path, where);
	unlink(where);
	if (fd < 0 || bind(fd, (struct sockaddr *)&addr, sizeof(addr)) < 0 || listen(fd, 4) < 0)
		abort();
	return fd;
}

static void cleanup(void)
{
	scheduler_fini(&s);
	agx_ipc_server_destroy(fake_fwchan);
	agx_ipc_server_destroy(fake_memmgr);
	event_base_free(base);
	unlink(memmgr_path);
	unlink(fwchan_path);
	rmdir(dir);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	struct agx_ipc_server_config mc = { .interface =
						AGX__IPC__INTERFACE__INTERFACE_MEMMGR_PRIVILEGED,
					    .name = "fake-memmgr",
					    .ops = &memmgr_ops };
	struct agx_ipc_server_config fc = { .interface = AGX__IPC__INTERFACE__INTERFACE_FWCHAN,
					    .name = "fake-fwchan",
					    .ops = &fwchan_ops };
	struct sched_config config = { .realtime_gid = -1 };

	agx_log_set_level(0); /* the scheduler's complaints are expected here */
	snprintf(dir, sizeof(dir), "/tmp/agx-fuzz-sched-XXXXXX");
	if (!mkdtemp(dir))
		abort();
	snprintf(path, sizeof(path), "%s/scheduler.sock", dir);
	snprintf(memmgr_path, sizeof(memmgr_path), "%s/memmgr.sock", dir);
	snprintf(fwchan_path, sizeof(fwchan_path), "%s/fwchan.sock", dir);
	base = event_base_new();
	if (!base)
		abort();
	fake_memmgr = agx_ipc_server_create(base, listen_at(memmgr_path), &mc);
	fake_fwchan = agx_ipc_server_create(base, listen_at(fwchan_path), &fc);
	config.memmgr = memmgr_path;
	config.fwchan = fwchan_path;
	config.socket = path;
	if (!fake_memmgr || !fake_fwchan || scheduler_init(&s, base, &config) < 0)
		abort();
	/* the links' handshakes, before any input counts fds */
	for (int i = 0; i < 8; i++)
		event_base_loop(base, EVLOOP_NONBLOCK);
	atexit(cleanup);
	return 0;
}

static void pump(void)
{
	for (int i = 0; i < 4; i++) {
		event_base_loop(base, EVLOOP_NONBLOCK);
		complete(0, true);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct sockaddr_un addr = { .sun_family = AF_UNIX };
	unsigned baseline = count_open_fds();
	int fd;

	if (size < 1)
		return 0;
	strcpy(addr.sun_path, path);
	s.server = sched_server_create(&s, listen_at(path));
	fd = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	if (!s.server || fd < 0 || connect(fd, (struct sockaddr *)&addr, sizeof(addr)) < 0)
		abort();
	pump();
	fuzz_session(fd, AGX__IPC__INTERFACE__INTERFACE_SCHEDULER, data[0] & 1, data + 1, size - 1,
		     pump);
	close(fd);
	/* the client is gone: what it had at fwchan completes, and everything of it goes */
	for (int i = 0; i < 8; i++)
		pump();
	agx_ipc_server_destroy(s.server);
	s.server = NULL;
	pump();
	unlink(path);
	if (!sched_list_empty(&s.clients) || !sched_list_empty(&s.queues) ||
	    !sched_list_empty(&s.vms) || !sched_list_empty(&s.exports) || s.fw_items ||
	    s.reserved || s.num_clients || num_pending || count_open_fds() != baseline) {
		fprintf(stderr,
			"left behind: clients %d, queues %d, vms %d, exports %d, items %u, "
			"reserved %u, at fwchan %u, fds %u (was %u)\n",
			!sched_list_empty(&s.clients), !sched_list_empty(&s.queues),
			!sched_list_empty(&s.vms), !sched_list_empty(&s.exports), s.fw_items,
			s.reserved, num_pending, count_open_fds(), baseline);
		abort();
	}
	return 0;
}
