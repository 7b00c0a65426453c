/*
 * server.c: agx-memmgr's sockets (server.h): requests decoded by
 * libagxipc become memmgr.h calls; replies that wait for the TLB are
 * deferred until it has answered.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <event2/event.h>

#include "agxipc/log.h"
#include "agxipc/server.h"
#include "server.h"

struct memmgr_server {
	struct event_base *base;
	struct memmgr *m;
	const struct memmgr_device *dev;
	struct agx_ipc_server *clients, *privileged;
	const char *fwchan_path;
	struct agx_ipc_conn *fwchan; /* NULL until needed, and after it went away */
	struct event *housekeep;     /* memmgr_housekeep(), once the loop's callbacks are done */
};

static void housekeep(evutil_socket_t fd, short what, void *arg)
{
	struct memmgr_server *s = arg;

	(void)fd;
	(void)what;
	memmgr_housekeep(s->m);
}

/* After this batch of requests, with their replies sent. */
static void housekeep_later(struct memmgr_server *s)
{
	event_active(s->housekeep, EV_TIMEOUT, 0);
}

/* --- TLB invalidation through agx-fwchan ----------------------------------------------- */

struct tlb_call {
	void (*done)(void *cookie, int status);
	void *cookie;
};

static void fwchan_gone(struct agx_ipc_conn *conn, void *data)
{
	struct memmgr_server *s = data;

	/* the library frees the connection; the next invalidation connects again */
	if (s->fwchan == conn)
		s->fwchan = NULL;
}

static const struct agx_ipc_peer_ops fwchan_ops = { .disconnect = fwchan_gone };

static void tlb_reply(struct agx_ipc_conn *conn, int status, struct agx_ipc_msg *reply,
		      const struct agx_ipc_error *err, void *data)
{
	struct tlb_call *call = data;

	call->done(call->cookie, status);
	free(call);
}

/*
 * Without agx-fwchan there is no firmware running, and a device whose host
 * is gone starts again with empty TLBs (docs/device.md): nothing to forget.
 */
static int tlb_invalidate(void *ctx, unsigned slot, uint64_t va, uint64_t size,
			  void (*done)(void *cookie, int status), void *cookie)
{
	struct memmgr_server *s = ctx;
	Agx__Fwchan__TlbInvalidate msg = AGX__FWCHAN__TLB_INVALIDATE__INIT;
	struct tlb_call *call;
	int ret;

	if (!s->fwchan_path)
		return -ENOTCONN;
	if (!s->fwchan &&
	    agx_ipc_conn_connect(s->base, s->fwchan_path, AGX__IPC__INTERFACE__INTERFACE_FWCHAN,
				 "agx-memmgr", &fwchan_ops, s, &s->fwchan) < 0) {
		s->fwchan = NULL;
		return -ENOTCONN;
	}
	call = malloc(sizeof(*call));
	if (!call)
		return -ENOMEM;
	*call = (struct tlb_call){ done, cookie };
	msg.context_slot = slot;
	msg.va = va;
	msg.size = size;
	ret = agx_ipc_conn_call(s->fwchan, AGX_IPC_MSG_FWCHAN_TLB_INVALIDATE, &msg.base, NULL, 0,
				5000, tlb_reply, call);
	if (ret < 0)
		free(call);
	return ret;
}

static const struct memmgr_tlb_ops tlb_ops = { .invalidate = tlb_invalidate };

/* --- requests that finish later -------------------------------------------------------- */

/* A request answered from a callback: its answer, kept until then. */
struct waiter {
	struct memmgr_server *s;
	struct agx_ipc_request *req;
	int status;
	/* the answer, by request */
	unsigned slot;
	uint64_t ttbr;
	uint64_t va; /* VM_BIND's */
	Agx__Memmgr__KernelAllocReply kernel;
	int fd; /* KERNEL_ALLOC's memfd, memmgr's own: the reply sends a copy */
};

static void waiter_reply(struct waiter *w)
{
	if (w->status < 0) {
		agx_ipc_reply_error(w->req, agx_ipc_errno_to_error(w->status),
				    "%s: the device refused memory; nothing may run on it",
				    w->req->msg.info->name);
	} else if (w->req->msg.type == AGX_IPC_MSG_MEMMGR_VM_SLOT_BIND) {
		Agx__Memmgr__VmSlotBindReply r = AGX__MEMMGR__VM_SLOT_BIND_REPLY__INIT;

		r.context_slot = w->slot;
		r.ttbr = w->ttbr;
		agx_ipc_reply(w->req, &r.base, NULL, 0);
	} else if (w->req->msg.type == AGX_IPC_MSG_MEMMGR_VM_BIND) {
		Agx__Memmgr__VmBindReply r = AGX__MEMMGR__VM_BIND_REPLY__INIT;

		r.va = w->va;
		agx_ipc_reply(w->req, &r.base, NULL, 0);
	} else if (w->req->msg.type == AGX_IPC_MSG_MEMMGR_KERNEL_ALLOC) {
		agx_ipc_reply(w->req, &w->kernel.base, &w->fd, 1);
	} else if (w->req->msg.type == AGX_IPC_MSG_MEMMGR_UAT_INFO) {
		Agx__Memmgr__UatInfoReply r = AGX__MEMMGR__UAT_INFO_REPLY__INIT;

		r.context_table = memmgr_context_table(w->s->m);
		r.slots = MEMMGR_SLOTS;
		r.kernel_slot = MEMMGR_KERNEL_SLOT;
		r.kernel_va_start = MEMMGR_KERNEL_VA_START;
		r.kernel_va_end = MEMMGR_KERNEL_VA_END;
		agx_ipc_reply(w->req, &r.base, NULL, 0);
	} else {
		Agx__Ipc__Empty r = AGX__IPC__EMPTY__INIT;

		agx_ipc_reply(w->req, &r.base, NULL, 0);
	}
	free(w);
}

static void waiter_done(void *cookie, int status)
{
	struct waiter *w = cookie;

	w->status = status;
	waiter_reply(w);
}

static struct waiter *waiter_new(struct memmgr_server *s, struct agx_ipc_request *req)
{
	struct waiter *w = calloc(1, sizeof(*w));

	if (w) {
		w->s = s;
		w->req = req;
		w->fd = -1;
		/* the callback may answer before dispatch returns: libagxipc allows it */
		agx_ipc_request_defer(req);
	}
	return w;
}

/* After the call: on an error the callback will not run, and the answer is the error. */
static int waiter_finish(struct waiter *w, int ret, const char *why)
{
	struct agx_ipc_request *req;

	/* the callback owns w now, and may have freed it already */
	if (ret >= 0)
		return 0;
	req = w->req;
	free(w);
	return agx_ipc_reply_error(req, agx_ipc_errno_to_error(ret), "%s", why);
}

/* --- the client socket ---------------------------------------------------------------- */

static int client_connect(struct agx_ipc_conn *conn, void *data)
{
	struct memmgr_server *s = data;
	const struct ucred *cred = agx_ipc_conn_peer(conn);
	struct memmgr_client *c = memmgr_client_new(s->m, cred->pid, cred->uid, false);

	if (!c)
		return -ENOMEM;
	agx_ipc_conn_set_data(conn, c);
	return 0;
}

/* Only agx-memmgr's own user (or root) may use the privileged socket. */
static int privileged_connect(struct agx_ipc_conn *conn, void *data)
{
	struct memmgr_server *s = data;
	const struct ucred *cred = agx_ipc_conn_peer(conn);
	struct memmgr_client *c;

	if (cred->uid != 0 && cred->uid != getuid()) {
		agx_warn_ratelimited(cred->pid, "privileged socket: uid %u (pid %d) refused",
				     (unsigned)cred->uid, (int)cred->pid);
		return -EPERM;
	}
	c = memmgr_client_new(s->m, cred->pid, cred->uid, true);
	if (!c)
		return -ENOMEM;
	agx_ipc_conn_set_data(conn, c);
	return 0;
}

static void client_disconnect(struct agx_ipc_conn *conn, void *data)
{
	struct memmgr_client *c = agx_ipc_conn_get_data(conn);

	if (c)
		memmgr_client_gone(c);
	agx_ipc_conn_set_data(conn, NULL);
	housekeep_later(data);
}

static int reply_error(struct agx_ipc_request *req, int ret, const char *why)
{
	return agx_ipc_reply_error(req, agx_ipc_errno_to_error(ret), "%s", why);
}

#define REPLY(req, r) agx_ipc_reply((req), &(r).base, NULL, 0)

static int client_dispatch(struct agx_ipc_request *req, void *data)
{
	struct memmgr_server *s = data;
	struct memmgr_client *c = agx_ipc_conn_get_data(req->conn);
	char why[MEMMGR_WHY] = "";
	struct waiter *w;
	int ret, fd;

	housekeep_later(s);

	switch (req->msg.type) {
	case AGX_IPC_MSG_MEMMGR_BO_CREATE: {
		const Agx__Memmgr__BoCreate *q = (const void *)req->msg.body;
		Agx__Memmgr__BoCreateReply r = AGX__MEMMGR__BO_CREATE_REPLY__INIT;

		ret = memmgr_bo_create(c, q->size, q->flags, q->vm, &r.handle, &r.size, &fd, why);
		return ret < 0 ? reply_error(req, ret, why) : agx_ipc_reply(req, &r.base, &fd, 1);
	}
	case AGX_IPC_MSG_MEMMGR_BO_CLOSE: {
		const Agx__Memmgr__BoClose *q = (const void *)req->msg.body;
		Agx__Ipc__Empty r = AGX__IPC__EMPTY__INIT;

		ret = memmgr_bo_close(c, q->handle, why);
		return ret < 0 ? reply_error(req, ret, why) : REPLY(req, r);
	}
	case AGX_IPC_MSG_MEMMGR_BO_EXPORT: {
		const Agx__Memmgr__BoExport *q = (const void *)req->msg.body;
		Agx__Memmgr__BoExportReply r = AGX__MEMMGR__BO_EXPORT_REPLY__INIT;
		uint8_t token[MEMMGR_TOKEN_BYTES];

		ret = memmgr_bo_export(c, q->handle, token, why);
		r.token.data = token;
		r.token.len = sizeof(token);
		return ret < 0 ? reply_error(req, ret, why) : REPLY(req, r);
	}
	case AGX_IPC_MSG_MEMMGR_BO_IMPORT: {
		const Agx__Memmgr__BoImport *q = (const void *)req->msg.body;
		Agx__Memmgr__BoImportReply r = AGX__MEMMGR__BO_IMPORT_REPLY__INIT;

		ret =
		    memmgr_bo_import(c, q->token.data, q->token.len, &r.handle, &r.size, &fd, why);
		return ret < 0 ? reply_error(req, ret, why) : agx_ipc_reply(req, &r.base, &fd, 1);
	}
	case AGX_IPC_MSG_MEMMGR_BO_IMPORT_FD: {
		Agx__Memmgr__BoImportReply r = AGX__MEMMGR__BO_IMPORT_REPLY__INIT;

		ret = memmgr_bo_import_fd(c, agx_ipc_msg_take_fd(&req->msg, 0), &r.handle, &r.size,
					  &fd, why);
		return ret < 0 ? reply_error(req, ret, why) : agx_ipc_reply(req, &r.base, &fd, 1);
	}
	case AGX_IPC_MSG_MEMMGR_VM_CREATE: {
		Agx__Memmgr__VmCreateReply r = AGX__MEMMGR__VM_CREATE_REPLY__INIT;

		ret = memmgr_vm_create(c, &r.vm, why);
		return ret < 0 ? reply_error(req, ret, why) : REPLY(req, r);
	}
	case AGX_IPC_MSG_MEMMGR_VM_DESTROY: {
		const Agx__Memmgr__VmDestroy *q = (const void *)req->msg.body;

		w = waiter_new(s, req);
		if (!w)
			return -ENOMEM;
		ret = memmgr_vm_destroy(c, q->vm, why, waiter_done, w);
		return waiter_finish(w, ret, why);
	}
	case AGX_IPC_MSG_MEMMGR_VM_BIND: {
		const Agx__Memmgr__VmBind *q = (const void *)req->msg.body;
		Agx__Memmgr__VmBindReply r = AGX__MEMMGR__VM_BIND_REPLY__INIT;
		unsigned known = AGX__MEMMGR__BIND_FLAGS__BIND_READ |
				 AGX__MEMMGR__BIND_FLAGS__BIND_WRITE |
				 AGX__MEMMGR__BIND_FLAGS__BIND_EXECUTE |
				 AGX__MEMMGR__BIND_FLAGS__BIND_ALLOCATE_VA;

		if (q->flags & ~known)
			return agx_ipc_reply_error(req,
						   AGX__IPC__ERROR_CODE__ERROR_INVALID_ARGUMENT,
						   "bind flags %#x has unknown bits", q->flags);
		/* BindFlags R, W, X are pagetable.h's access bits */
		ret = memmgr_vm_bind(c, q->vm, q->bo, q->bo_offset, q->size, q->va, q->flags & 7,
				     q->flags & AGX__MEMMGR__BIND_FLAGS__BIND_ALLOCATE_VA, &r.va,
				     why);
		if (ret < 0)
			return reply_error(req, ret, why);
		/*
		 * A BO's first mapping lends its memory to the device
		 * (DMA_MAP), which the device handles on its own socket: the
		 * answer waits for the device to have it, or a job submitted
		 * right after could reach the VA before the device can reach
		 * the memory.  With nothing outstanding, the fence is at once.
		 */
		w = waiter_new(s, req);
		if (!w)
			return -ENOMEM;
		w->va = r.va;
		ret = memmgr_fence(s->m, waiter_done, w);
		return waiter_finish(w, ret, "out of memory for a device fence");
	}
	case AGX_IPC_MSG_MEMMGR_VM_UNBIND: {
		const Agx__Memmgr__VmUnbind *q = (const void *)req->msg.body;

		w = waiter_new(s, req);
		if (!w)
			return -ENOMEM;
		ret = memmgr_vm_unbind(c, q->vm, q->va, q->size, why, waiter_done, w);
		return waiter_finish(w, ret, why);
	}
	case AGX_IPC_MSG_MEMMGR_QUERY: {
		Agx__Memmgr__QueryReply r = AGX__MEMMGR__QUERY_REPLY__INIT;
		struct memmgr_usage u;

		memmgr_query(c, &u);
		r.used_bytes = u.used;
		r.quota_bytes = u.quota;
		r.user_va_start = MEMMGR_USER_VA_START;
		r.user_va_end = MEMMGR_USER_VA_END;
		r.page_size = MEMMGR_PAGE;
		r.page_table_bytes = u.page_table_bytes;
		r.chip_id = s->dev->chip_id;
		r.generation = s->dev->generation;
		r.num_cores = s->dev->num_cores;
		r.firmware_version = (char *)s->dev->firmware_version;
		r.job_time_limit_ms = s->dev->job_time_limit_ms;
		r.fill_bytes_per_ms = s->dev->fill_bytes_per_ms;
		return REPLY(req, r);
	}
	default:
		(void)s;
		return -ENOSYS;
	}
}

static int privileged_dispatch(struct agx_ipc_request *req, void *data)
{
	struct memmgr_server *s = data;
	struct memmgr_client *c = agx_ipc_conn_get_data(req->conn);
	char why[MEMMGR_WHY] = "";
	struct waiter *w;
	int ret;

	housekeep_later(s);

	switch (req->msg.type) {
	case AGX_IPC_MSG_MEMMGR_KERNEL_ALLOC: {
		const Agx__Memmgr__KernelAlloc *q = (const void *)req->msg.body;

		w = waiter_new(s, req);
		if (!w)
			return -ENOMEM;
		agx__memmgr__kernel_alloc_reply__init(&w->kernel);
		ret = memmgr_kernel_alloc(c, q->size, q->flags, &w->kernel.handle, &w->kernel.va,
					  &w->kernel.paddr, &w->kernel.size, &w->fd, why,
					  waiter_done, w);
		return waiter_finish(w, ret, why);
	}
	case AGX_IPC_MSG_MEMMGR_KERNEL_FREE: {
		const Agx__Memmgr__KernelFree *q = (const void *)req->msg.body;

		w = waiter_new(s, req);
		if (!w)
			return -ENOMEM;
		ret = memmgr_kernel_free(c, q->handle, why, waiter_done, w);
		return waiter_finish(w, ret, why);
	}
	case AGX_IPC_MSG_MEMMGR_FAULT_DECODE: {
		const Agx__Memmgr__FaultDecode *q = (const void *)req->msg.body;
		Agx__Memmgr__FaultDecodeReply r = AGX__MEMMGR__FAULT_DECODE_REPLY__INIT;
		struct memmgr_fault f;

		ret = memmgr_fault_decode(s->m, q->context_slot, q->va, &f, why);
		r.client_pid = (uint32_t)f.client_pid;
		r.vm = f.vm;
		r.bo = f.bo;
		r.bo_offset = f.bo_offset;
		return ret < 0 ? reply_error(req, ret, why) : REPLY(req, r);
	}
	case AGX_IPC_MSG_MEMMGR_VM_SLOT_BIND: {
		const Agx__Memmgr__VmSlotBind *q = (const void *)req->msg.body;

		w = waiter_new(s, req);
		if (!w)
			return -ENOMEM;
		ret = memmgr_vm_slot_bind(s->m, (pid_t)q->client_pid, q->vm, q->seqno, &w->slot,
					  &w->ttbr, why, waiter_done, w);
		return waiter_finish(w, ret, why);
	}
	case AGX_IPC_MSG_MEMMGR_JOBS_COMPLETED: {
		const Agx__Memmgr__JobsCompleted *q = (const void *)req->msg.body;
		Agx__Ipc__Empty r = AGX__IPC__EMPTY__INIT;

		ret = memmgr_jobs_completed(s->m, (pid_t)q->client_pid, q->vm, q->seqno, why);
		return ret < 0 ? reply_error(req, ret, why) : REPLY(req, r);
	}
	case AGX_IPC_MSG_MEMMGR_VM_CHECK: {
		const Agx__Memmgr__VmCheck *q = (const void *)req->msg.body;
		Agx__Ipc__Empty r = AGX__IPC__EMPTY__INIT;

		for (size_t i = 0; i < q->n_ranges; i++) {
			const Agx__Memmgr__VmRange *range = q->ranges[i];

			ret = memmgr_vm_check(s->m, q->context_slot, range->va, range->size,
					      range->access, why);
			if (ret < 0)
				return reply_error(req, ret, why);
		}
		return REPLY(req, r);
	}
	case AGX_IPC_MSG_MEMMGR_UAT_INFO:
		/* the firmware reads the context table once it hears of it: the device has it first
		 */
		w = waiter_new(s, req);
		if (!w)
			return -ENOMEM;
		ret = memmgr_fence(s->m, waiter_done, w);
		return waiter_finish(w, ret, "out of host memory");
	default:
		return -ENOSYS;
	}
}

static const struct agx_ipc_server_ops client_ops = {
	.connect = client_connect,
	.dispatch = client_dispatch,
	.disconnect = client_disconnect,
};

static const struct agx_ipc_server_ops privileged_ops = {
	.connect = privileged_connect,
	.dispatch = privileged_dispatch,
	.disconnect = client_disconnect,
};

struct memmgr_server *memmgr_server_create(struct event_base *base, struct memmgr_device *dev,
					   const struct memmgr_server_config *config)
{
	struct memmgr_server *s = calloc(1, sizeof(*s));
	struct agx_ipc_server_config clients = {
		.interface = AGX__IPC__INTERFACE__INTERFACE_MEMMGR,
		.name = "agx-memmgr",
		.ops = &client_ops,
	};
	struct agx_ipc_server_config privileged = {
		.interface = AGX__IPC__INTERFACE__INTERFACE_MEMMGR_PRIVILEGED,
		.name = "agx-memmgr",
		.ops = &privileged_ops,
	};

	if (!s)
		return NULL;
	s->base = base;
	s->dev = dev;
	s->fwchan_path = config->fwchan;
	s->m = memmgr_create(dev, &tlb_ops, s, &config->memmgr);
	s->housekeep = event_new(base, -1, 0, housekeep, s);
	if (!s->m || !s->housekeep) {
		if (s->housekeep)
			event_free(s->housekeep);
		memmgr_destroy(s->m);
		free(s);
		return NULL;
	}
	housekeep_later(s);
	clients.data = privileged.data = s;
	s->clients = agx_ipc_server_create(base, config->client_fd, &clients);
	s->privileged = agx_ipc_server_create(base, config->privileged_fd, &privileged);
	if (!s->clients || !s->privileged) {
		memmgr_server_destroy(s);
		return NULL;
	}
	return s;
}

void memmgr_server_destroy(struct memmgr_server *s)
{
	/* connections first: their disconnects release what they held */
	if (s->clients)
		agx_ipc_server_destroy(s->clients);
	if (s->privileged)
		agx_ipc_server_destroy(s->privileged);
	if (s->fwchan) {
		/* the close runs on the loop's next turn: give it that turn */
		agx_ipc_conn_close(s->fwchan);
		event_base_loop(s->base, EVLOOP_NONBLOCK);
	}
	event_free(s->housekeep);
	memmgr_destroy(s->m);
	free(s);
}

struct memmgr *memmgr_server_state(struct memmgr_server *s)
{
	return s->m;
}
