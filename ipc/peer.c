/*
 * peer.c: the asynchronous client, for daemons that talk to each other
 * from their event loops (scheduler -> fwchan, fwchan -> memmgr).  Calls
 * are matched to replies by request id; each may carry a timeout.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/un.h>
#include <unistd.h>

#include "agxipc/log.h"
#include "conn.h"

struct pending_call {
	struct pending_call *next;
	struct agx_ipc_conn *conn;
	uint32_t id;
	agx_ipc_reply_cb cb;
	void *data;
	struct event *timer;
};

/* Unlinks the call with this id (NULL: the first) and returns it. */
static struct pending_call *take_pending(struct agx_ipc_conn *conn, const uint32_t *id)
{
	for (struct pending_call **p = &conn->pending; *p; p = &(*p)->next) {
		struct pending_call *call = *p;

		if (!id || call->id == *id) {
			*p = call->next;
			return call;
		}
	}
	return NULL;
}

static void complete(struct pending_call *call, int status, struct agx_ipc_msg *reply,
		     const struct agx_ipc_error *err)
{
	if (call->timer)
		event_free(call->timer);
	call->cb(call->conn, status, reply, err, call->data);
	free(call);
}

static void on_timeout(evutil_socket_t fd, short what, void *arg)
{
	struct pending_call *call = arg;

	(void)fd;
	(void)what;
	take_pending(call->conn, &call->id);
	complete(call, -ETIMEDOUT, NULL, NULL);
}

static void peer_message(struct agx_ipc_conn *conn, struct agx_ipc_msg *msg)
{
	if (msg->flags & AGX_IPC_FLAG_REPLY) {
		struct pending_call *call = take_pending(conn, &msg->request_id);

		if (!call && msg->type == AGX_IPC_MSG_CONNECTION) {
			const Agx__Ipc__Error *e = (const Agx__Ipc__Error *)msg->body;

			agx_warn("%s refused the connection: %s", conn->name, e->message);
			agx_ipc_conn_close(conn);
		} else if (!call) {
			/* The call timed out before its reply came. */
			agx_dbg("late reply to %s %u dropped", msg->info->name, msg->request_id);
		} else if (msg->flags & AGX_IPC_FLAG_ERROR) {
			const Agx__Ipc__Error *e = (const Agx__Ipc__Error *)msg->body;
			struct agx_ipc_error err;

			int status = agx_ipc_error_set(&err, e->code, "%s", e->message);
			complete(call, status, NULL, &err);
		} else {
			complete(call, 0, msg, NULL);
		}
	} else if (msg->flags & AGX_IPC_FLAG_EVENT) {
		if (conn->peer_ops && conn->peer_ops->event)
			conn->peer_ops->event(conn, msg, conn->peer_data);
	} else {
		agx_warn("%s sent a request (%s) to a client; closing", conn->name,
			 msg->info->name);
		agx_ipc_conn_close(conn);
	}
	agx_ipc_msg_finish(msg);
}

static void peer_bad_frame(struct agx_ipc_conn *conn, const uint8_t *buf, size_t len,
			   const struct agx_ipc_error *err)
{
	(void)buf;
	(void)len;
	agx_warn("%s sent a bad frame: %s; closing", conn->name, err->message);
	agx_ipc_conn_close(conn);
}

static void peer_closed(struct agx_ipc_conn *conn)
{
	struct pending_call *call;

	while ((call = take_pending(conn, NULL)))
		complete(call, -ECONNRESET, NULL, NULL);
	if (conn->peer_ops && conn->peer_ops->disconnect)
		conn->peer_ops->disconnect(conn, conn->peer_data);
}

static const struct conn_ops peer_conn_ops = {
	.message = peer_message,
	.bad_frame = peer_bad_frame,
	.closed = peer_closed,
};

int agx_ipc_conn_call(struct agx_ipc_conn *conn, uint16_t type, const ProtobufCMessage *body,
		      const int *fds, unsigned num_fds, int timeout_ms, agx_ipc_reply_cb cb,
		      void *data)
{
	const struct agx_ipc_msg_info *info = agx_ipc_msg_info(type);
	struct pending_call *call;
	int ret;

	if (!conn->open)
		return -ENOTCONN;
	if (!info || info->kind != AGX_IPC_KIND_REQUEST || !cb)
		return -EINVAL;
	call = calloc(1, sizeof(*call));
	if (!call)
		return -ENOMEM;
	call->conn = conn;
	call->cb = cb;
	call->data = data;
	call->id = ++conn->next_request_id;
	if (!call->id)
		call->id = ++conn->next_request_id;
	if (timeout_ms >= 0) {
		struct timeval tv = { timeout_ms / 1000, (timeout_ms % 1000) * 1000 };

		call->timer = evtimer_new(conn->base, on_timeout, call);
		if (!call->timer || evtimer_add(call->timer, &tv) < 0) {
			if (call->timer)
				event_free(call->timer);
			free(call);
			return -ENOMEM;
		}
	}
	ret = ipc_conn_send(conn, type, 0, call->id, body, fds, num_fds);
	if (ret < 0) {
		if (call->timer)
			event_free(call->timer);
		free(call);
		return ret;
	}
	call->next = conn->pending;
	conn->pending = call;
	return 0;
}

static void hello_done(struct agx_ipc_conn *conn, int status, struct agx_ipc_msg *reply,
		       const struct agx_ipc_error *err, void *data)
{
	const Agx__Ipc__HelloReply *hello;

	(void)data;
	if (status < 0) {
		agx_warn("handshake with %s failed: %s", conn->name,
			 err ? err->message : strerror(-status));
		agx_ipc_conn_close(conn);
		return;
	}
	hello = (const Agx__Ipc__HelloReply *)reply->body;
	if (hello->version_major != AGX_IPC_VERSION_MAJOR) {
		agx_warn("%s speaks protocol %u.%u, we speak %d.%d; closing", conn->name,
			 hello->version_major, hello->version_minor, AGX_IPC_VERSION_MAJOR,
			 AGX_IPC_VERSION_MINOR);
		agx_ipc_conn_close(conn);
		return;
	}
	/* the peer's credentials stay those SO_PEERCRED gave, not what it says */
	ipc_copy_name(conn->name, sizeof(conn->name), hello->server_name);
	conn->id = hello->connection_id;
	conn->handshaken = true;
}

int agx_ipc_conn_connect(struct event_base *base, const char *path, int interface, const char *name,
			 const struct agx_ipc_peer_ops *ops, void *data, struct agx_ipc_conn **out)
{
	Agx__Ipc__Hello hello = AGX__IPC__HELLO__INIT;
	struct sockaddr_un addr = { .sun_family = AF_UNIX };
	struct agx_ipc_conn *conn;
	int fd, ret;

	if (strlen(path) >= sizeof(addr.sun_path))
		return -ENAMETOOLONG;
	strcpy(addr.sun_path, path);
	fd = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -errno;
	/* A local connect completes at once; only then does the socket go non-blocking. */
	if (connect(fd, (struct sockaddr *)&addr, sizeof(addr)) < 0 ||
	    evutil_make_socket_nonblocking(fd) < 0) {
		ret = -errno;
		close(fd);
		return ret;
	}
	conn = ipc_conn_create(base, fd, NULL, &peer_conn_ops, 0);
	if (!conn) {
		close(fd);
		return -ENOMEM;
	}
	conn->peer_ops = ops;
	conn->peer_data = data;
	ipc_copy_name(conn->name, sizeof(conn->name), path);
	ret = ipc_conn_start(conn);
	if (ret < 0)
		goto fail;

	hello.version_major = AGX_IPC_VERSION_MAJOR;
	hello.version_minor = AGX_IPC_VERSION_MINOR;
	hello.interface = interface;
	hello.client_name = (char *)name;
	ret =
	    agx_ipc_conn_call(conn, AGX_IPC_MSG_HELLO, &hello.base, NULL, 0, -1, hello_done, NULL);
	if (ret < 0)
		goto fail;
	*out = conn;
	return 0;

fail:
	conn->peer_ops = NULL;
	ipc_conn_close_now(conn);
	return ret;
}
