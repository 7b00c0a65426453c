/*
 * server.c: agx-fwchan's socket (INTERFACE_FWCHAN): TLB invalidation and
 * cache flushes for agx-memmgr, answered when the firmware has done them;
 * firmware contexts and submissions for agx-scheduler, whose events go
 * back to the connection that made the context.
 */
#include <errno.h>

#include "agxipc/log.h"
#include "agxipc/server.h"
#include "fwchan.h"

/* A request answered when the firmware acknowledges it (maybe before dispatch returns). */
static void fwctl_done(void *cookie, int status)
{
	struct agx_ipc_request *req = cookie;
	Agx__Ipc__Empty r = AGX__IPC__EMPTY__INIT;

	/* a firmware that is gone holds no translations: the device is reset before it runs */
	if (status < 0 && status != -ENODEV)
		agx_ipc_reply_error(req, agx_ipc_errno_to_error(status), "%s: %s",
				    req->msg.info->name, "the firmware could not do it");
	else
		agx_ipc_reply(req, &r.base, NULL, 0);
}

static int fwctl(struct fwchan *f, struct agx_ipc_request *req, enum agx_fw_fwctl_op op,
		 unsigned context, uint64_t va, uint64_t size)
{
	int ret;

	if (context >= 64)
		return agx_ipc_reply_error(req, AGX__IPC__ERROR_CODE__ERROR_INVALID_ARGUMENT,
					   "context %u: there are 64", context);
	agx_ipc_request_defer(req);
	ret = firmware_fwctl(&f->fw, op, context, va, size, fwctl_done, req);
	if (ret == -ENODEV)
		fwctl_done(req, ret);
	else if (ret < 0)
		return agx_ipc_reply_error(req, agx_ipc_errno_to_error(ret),
					   "%s: the firmware's control channel is full",
					   req->msg.info->name);
	return 0;
}

static int reply_error(struct agx_ipc_request *req, int ret, const char *why)
{
	return agx_ipc_reply_error(req, agx_ipc_errno_to_error(ret), "%s: %s", req->msg.info->name,
				   why);
}

static int dispatch(struct agx_ipc_request *req, void *data)
{
	struct fwchan *f = data;
	char why[192] = "";
	int ret;

	switch (req->msg.type) {
	case AGX_IPC_MSG_FWCHAN_TLB_INVALIDATE: {
		const Agx__Fwchan__TlbInvalidate *q = (const void *)req->msg.body;

		if (q->va % 0x4000 || q->size % 0x4000 || q->va + q->size < q->va)
			return agx_ipc_reply_error(
			    req, AGX__IPC__ERROR_CODE__ERROR_INVALID_ARGUMENT,
			    "TLB_INVALIDATE: %#llx + %#llx is not a range of 16 KiB pages",
			    (unsigned long long)q->va, (unsigned long long)q->size);
		/* memmgr unmapped it, or the slot changes hands: what was known there is not */
		known_forget(&f->work.known, q->context_slot, q->va, q->size);
		return fwctl(f, req,
			     q->size ? AGX_FW_FWCTL_OP_TLB_INVALIDATE
				     : AGX_FW_FWCTL_OP_TLB_INVALIDATE_CONTEXT,
			     q->context_slot, q->va, q->size);
	}
	case AGX_IPC_MSG_FWCHAN_CACHE_FLUSH:
		return fwctl(f, req, AGX_FW_FWCTL_OP_CACHE_FLUSH, 0, 0, 0);
	case AGX_IPC_MSG_FWCHAN_CONTEXT_CREATE: {
		const Agx__Fwchan__ContextCreate *q = (const void *)req->msg.body;
		Agx__Fwchan__ContextCreateReply r = AGX__FWCHAN__CONTEXT_CREATE_REPLY__INIT;

		ret = work_context_create(&f->work, req->conn, q->context_slot, q->priority,
					  q->time_limit_us, &r.context, why, sizeof(why));
		return ret < 0 ? reply_error(req, ret, why) : agx_ipc_reply(req, &r.base, NULL, 0);
	}
	case AGX_IPC_MSG_FWCHAN_CONTEXT_DESTROY: {
		const Agx__Fwchan__ContextDestroy *q = (const void *)req->msg.body;

		agx_ipc_request_defer(req);
		ret = work_context_destroy(&f->work, req->conn, q->context, fwctl_done, req, why,
					   sizeof(why));
		return ret < 0 ? reply_error(req, ret, why) : 0;
	}
	case AGX_IPC_MSG_FWCHAN_SUBMIT: {
		Agx__Ipc__Empty r = AGX__IPC__EMPTY__INIT;

		ret =
		    work_submit(&f->work, req->conn, (const void *)req->msg.body, why, sizeof(why));
		return ret < 0 ? reply_error(req, ret, why) : agx_ipc_reply(req, &r.base, NULL, 0);
	}
	default:
		return -ENOSYS;
	}
}

/* The scheduler went away: its contexts go, and what they had queued. */
static void disconnect(struct agx_ipc_conn *conn, void *data)
{
	struct fwchan *f = data;

	work_owner_gone(&f->work, conn);
}

static const struct agx_ipc_server_ops ops = { .dispatch = dispatch, .disconnect = disconnect };

struct agx_ipc_server *fwchan_server_create(struct fwchan *f, int listen_fd)
{
	struct agx_ipc_server_config config = {
		.interface = AGX__IPC__INTERFACE__INTERFACE_FWCHAN,
		.name = "agx-fwchan",
		.ops = &ops,
		.data = f,
	};

	return agx_ipc_server_create(f->base, listen_fd, &config);
}
