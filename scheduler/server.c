/*
 * server.c: agx-scheduler's socket (INTERFACE_SCHEDULER): requests become
 * calls on the client's state (client.c, job.c, export.c); SYNCOBJ_WAIT
 * and QUEUE_CREATE are answered later, when their condition is met.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <event2/event.h>

#include "agxipc/log.h"
#include "agxipc/server.h"
#include "scheduler.h"

/* --- SYNCOBJ_WAIT ---------------------------------------------------------------------- */

struct client_wait;

struct wait_point {
	struct sched_wait w;
	struct client_wait *cw;
	bool reached;
	int status;
};

struct client_wait {
	struct sched_link link; /* client.waits */
	struct agx_ipc_request *req;
	struct event *timer;
	bool all;
	unsigned count, left;
	int first, error;
	struct wait_point points[];
};

static void wait_finish(struct client_wait *cw, int ret)
{
	for (unsigned i = 0; i < cw->count; i++)
		sched_syncobj_cancel(&cw->points[i].w);
	if (cw->timer)
		event_free(cw->timer);
	sched_list_del(&cw->link);
	if (ret == 0) {
		Agx__Scheduler__SyncobjWaitReply r = AGX__SCHEDULER__SYNCOBJ_WAIT_REPLY__INIT;

		r.first_signaled = (uint32_t)cw->first;
		r.error = cw->error;
		agx_ipc_reply(cw->req, &r.base, NULL, 0);
	} else if (ret == -ETIMEDOUT) {
		agx_ipc_reply_error(cw->req, AGX__IPC__ERROR_CODE__ERROR_TIMEOUT,
				    "SYNCOBJ_WAIT: %u of %u points not reached in time", cw->left,
				    cw->count);
	} else {
		agx_ipc_reply_error(cw->req, agx_ipc_errno_to_error(ret), "SYNCOBJ_WAIT: %s",
				    strerror(-ret));
	}
	free(cw);
}

/* Point i is reached: is the wait over? */
static bool wait_reached(struct client_wait *cw, unsigned i, int status)
{
	struct wait_point *p = &cw->points[i];

	p->reached = true;
	p->status = status;
	cw->left--;
	if (cw->first < 0)
		cw->first = (int)i;
	if (status < 0 && !cw->error)
		cw->error = status;
	if (!cw->all) {
		cw->error = status;
		cw->first = (int)i;
	}
	return !cw->all || !cw->left;
}

static void point_reached(struct sched_wait *w, int status)
{
	struct wait_point *p = sched_container_of(w, struct wait_point, w);
	struct client_wait *cw = p->cw;

	if (wait_reached(cw, (unsigned)(p - cw->points), status))
		wait_finish(cw, 0);
}

static void wait_timeout(evutil_socket_t fd, short what, void *arg)
{
	wait_finish(arg, -ETIMEDOUT);
}

static int syncobj_wait(struct sched_client *c, struct agx_ipc_request *req)
{
	const Agx__Scheduler__SyncobjWait *q = (const void *)req->msg.body;
	struct client_wait *cw;

	if (!q->n_points || q->n_points > SCHED_MAX_POINTS)
		return agx_ipc_reply_error(req, AGX__IPC__ERROR_CODE__ERROR_INVALID_ARGUMENT,
					   "SYNCOBJ_WAIT: %zu points: 1..%d", q->n_points,
					   SCHED_MAX_POINTS);
	for (size_t i = 0; i < q->n_points; i++)
		if (!sched_handle_get(c, q->points[i]->syncobj))
			return agx_ipc_reply_error(req, AGX__IPC__ERROR_CODE__ERROR_NOT_FOUND,
						   "SYNCOBJ_WAIT: point %zu: no syncobj %u", i,
						   q->points[i]->syncobj);
	cw = calloc(1, sizeof(*cw) + q->n_points * sizeof(cw->points[0]));
	if (!cw)
		return -ENOMEM;
	cw->req = req;
	cw->all = q->wait_all;
	cw->count = cw->left = (unsigned)q->n_points;
	cw->first = -1;
	sched_list_add_tail(&c->waits, &cw->link);
	agx_ipc_request_defer(req);
	for (unsigned i = 0; i < cw->count; i++) {
		struct sched_syncobj *o = sched_handle_get(c, q->points[i]->syncobj);
		int status;

		cw->points[i].cw = cw;
		if (sched_syncobj_wait(o, q->points[i]->value, &cw->points[i].w, point_reached,
				       &status) &&
		    wait_reached(cw, i, status)) {
			wait_finish(cw, 0);
			return 0;
		}
	}
	if (q->timeout_ns == 0) {
		wait_finish(cw, -ETIMEDOUT);
	} else if (q->timeout_ns != UINT64_MAX) {
		struct timeval tv = { .tv_sec = (time_t)(q->timeout_ns / 1000000000u),
				      .tv_usec =
					  (suseconds_t)(q->timeout_ns % 1000000000u / 1000) };

		cw->timer = evtimer_new(c->s->base, wait_timeout, cw);
		if (!cw->timer)
			wait_finish(cw, -ENOMEM);
		else
			evtimer_add(cw->timer, &tv);
	}
	return 0;
}

/* --- QUEUE_CREATE ------------------------------------------------------------------------- */

static void queue_checked(struct sched_queue *q, int status, const char *why, void *data)
{
	struct agx_ipc_request *req = data;

	if (status < 0) {
		if (!q->destroyed)
			sched_queue_destroy(q->client, q->id);
		agx_ipc_reply_error(req, agx_ipc_errno_to_error(status), "QUEUE_CREATE: %s", why);
	} else {
		Agx__Scheduler__QueueCreateReply r = AGX__SCHEDULER__QUEUE_CREATE_REPLY__INIT;

		r.queue = q->id;
		agx_ipc_reply(req, &r.base, NULL, 0);
	}
}

/* --- the rest --------------------------------------------------------------------------- */

static int reply_error(struct agx_ipc_request *req, int ret, const char *why)
{
	return agx_ipc_reply_error(req, agx_ipc_errno_to_error(ret), "%s: %s", req->msg.info->name,
				   why);
}

static int reply_empty(struct agx_ipc_request *req, const int *fds, unsigned num_fds)
{
	Agx__Ipc__Empty r = AGX__IPC__EMPTY__INIT;

	return agx_ipc_reply(req, &r.base, fds, num_fds);
}

static const Agx__Scheduler__ContextStatus statuses[] = {
	[SCHED_QUEUE_OK] = AGX__SCHEDULER__CONTEXT_STATUS__CONTEXT_OK,
	[SCHED_QUEUE_GUILTY] = AGX__SCHEDULER__CONTEXT_STATUS__CONTEXT_GUILTY_RESET,
	[SCHED_QUEUE_INNOCENT] = AGX__SCHEDULER__CONTEXT_STATUS__CONTEXT_INNOCENT_RESET,
};

static int dispatch(struct agx_ipc_request *req, void *data)
{
	struct sched_client *c = agx_ipc_conn_get_data(req->conn);
	struct scheduler *s = data;
	char why[224] = "";
	int ret;

	sched_turn_later(s);
	switch (req->msg.type) {
	case AGX_IPC_MSG_SCHED_QUEUE_CREATE: {
		const Agx__Scheduler__QueueCreate *q = (const void *)req->msg.body;
		uint32_t id;

		ret = sched_queue_create(c, q->vm, q->priority, &id, why, sizeof(why));
		if (ret < 0)
			return reply_error(req, ret, why);
		agx_ipc_request_defer(req);
		sched_vm_check(sched_queue_get(c, id), queue_checked, req);
		return 0;
	}
	case AGX_IPC_MSG_SCHED_QUEUE_DESTROY: {
		const Agx__Scheduler__QueueDestroy *q = (const void *)req->msg.body;

		if (sched_queue_destroy(c, q->queue) < 0)
			return agx_ipc_reply_error(req, AGX__IPC__ERROR_CODE__ERROR_NOT_FOUND,
						   "QUEUE_DESTROY: no queue %u", q->queue);
		return reply_empty(req, NULL, 0);
	}
	case AGX_IPC_MSG_SCHED_SYNCOBJ_CREATE: {
		Agx__Scheduler__SyncobjCreateReply r = AGX__SCHEDULER__SYNCOBJ_CREATE_REPLY__INIT;

		ret = sched_handle_create(c, &r.syncobj, &r.fence_index);
		if (ret == -EDQUOT)
			return reply_error(req, ret,
					   "a client may have as many syncobjs as its "
					   "fence page has slots");
		if (ret < 0)
			return reply_error(req, ret, strerror(-ret));
		return agx_ipc_reply(req, &r.base, NULL, 0);
	}
	case AGX_IPC_MSG_SCHED_SYNCOBJ_DESTROY: {
		const Agx__Scheduler__SyncobjDestroy *q = (const void *)req->msg.body;

		if (sched_handle_destroy(c, q->syncobj) < 0)
			return agx_ipc_reply_error(req, AGX__IPC__ERROR_CODE__ERROR_NOT_FOUND,
						   "SYNCOBJ_DESTROY: no syncobj %u", q->syncobj);
		return reply_empty(req, NULL, 0);
	}
	case AGX_IPC_MSG_SCHED_SUBMIT: {
		Agx__Scheduler__SubmitReply r = AGX__SCHEDULER__SUBMIT_REPLY__INIT;

		ret = sched_submit(c, (const void *)req->msg.body, &r.seqno, why, sizeof(why));
		return ret < 0 ? reply_error(req, ret, why) : agx_ipc_reply(req, &r.base, NULL, 0);
	}
	case AGX_IPC_MSG_SCHED_SYNCOBJ_WAIT:
		return syncobj_wait(c, req);
	case AGX_IPC_MSG_SCHED_SYNCOBJ_EXPORT: {
		const Agx__Scheduler__SyncobjExport *q = (const void *)req->msg.body;
		int fd;

		if (!q->point)
			return reply_error(req, -EINVAL, "no point named");
		ret = sched_export(c, q->point->syncobj, q->point->value, &fd);
		if (ret == -ENOENT)
			return agx_ipc_reply_error(req, AGX__IPC__ERROR_CODE__ERROR_NOT_FOUND,
						   "SYNCOBJ_EXPORT: no syncobj %u",
						   q->point->syncobj);
		if (ret < 0)
			return reply_error(req, ret,
					   ret == -EDQUOT ? "too many exported points alive"
							  : strerror(-ret));
		ret = reply_empty(req, &fd, 1);
		close(fd);
		return ret;
	}
	case AGX_IPC_MSG_SCHED_SYNCOBJ_IMPORT: {
		const Agx__Scheduler__SyncobjImport *q = (const void *)req->msg.body;

		ret = sched_import(c, q->syncobj, q->value, req->msg.fds[0], why, sizeof(why));
		return ret < 0 ? reply_error(req, ret, why) : reply_empty(req, NULL, 0);
	}
	case AGX_IPC_MSG_SCHED_QUERY_STATUS: {
		const Agx__Scheduler__QueryStatus *q = (const void *)req->msg.body;
		Agx__Scheduler__QueryStatusReply r = AGX__SCHEDULER__QUERY_STATUS_REPLY__INIT;
		struct sched_queue *queue = sched_queue_get(c, q->queue);

		if (!queue)
			return agx_ipc_reply_error(req, AGX__IPC__ERROR_CODE__ERROR_NOT_FOUND,
						   "QUERY_STATUS: no queue %u", q->queue);
		r.status = statuses[queue->status];
		return agx_ipc_reply(req, &r.base, NULL, 0);
	}
	case AGX_IPC_MSG_SCHED_FENCE_PAGE: {
		Agx__Scheduler__FencePageReply r = AGX__SCHEDULER__FENCE_PAGE_REPLY__INIT;
		int fds[2];

		ret = sched_client_fence_page(c, &fds[0], &fds[1]);
		if (ret < 0)
			return reply_error(req, ret, strerror(-ret));
		r.size = AGX_FENCE_PAGE_SIZE;
		r.slots = AGX_FENCE_PAGE_SLOTS;
		return agx_ipc_reply(req, &r.base, fds, 2);
	}
	default:
		return -ENOSYS;
	}
}

static int connect_client(struct agx_ipc_conn *conn, void *data)
{
	struct sched_client *c;
	int ret = sched_client_create(data, conn, &c);

	if (ret < 0)
		return ret;
	agx_ipc_conn_set_data(conn, c);
	return 0;
}

static void disconnect(struct agx_ipc_conn *conn, void *data)
{
	struct sched_client *c = agx_ipc_conn_get_data(conn);

	if (!c)
		return;
	while (!sched_list_empty(&c->waits))
		wait_finish(sched_container_of(c->waits.next, struct client_wait, link),
			    -ECONNRESET);
	sched_client_destroy(c);
	sched_turn_later(data);
}

static const struct agx_ipc_server_ops ops = {
	.connect = connect_client,
	.dispatch = dispatch,
	.disconnect = disconnect,
};

struct agx_ipc_server *sched_server_create(struct scheduler *s, int listen_fd)
{
	struct agx_ipc_server_config config = {
		.interface = AGX__IPC__INTERFACE__INTERFACE_SCHEDULER,
		.name = "agx-scheduler",
		.ops = &ops,
		.data = s,
	};

	return agx_ipc_server_create(s->base, listen_fd, &config);
}
