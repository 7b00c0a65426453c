/*
 * conn.c: one peer on a libevent loop.  Packets are read until the socket
 * runs dry (bounded per wake-up, for fairness between peers); output goes
 * straight to the socket and is queued only when the socket is full, with
 * write interest registered only while the queue is non-empty.  Closing is
 * deferred to the loop's next turn so that owners never see a connection
 * disappear under them in the middle of a callback.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "agxipc/log.h"
#include "conn.h"

/* Packets handled per wake-up before yielding to other peers. */
#define READ_BUDGET 32

struct out_frame {
	struct out_frame *next;
	size_t len;
	unsigned num_fds;
	int fds[AGX_IPC_MAX_FDS];
	uint8_t data[];
};

static void free_frame(struct out_frame *f)
{
	for (unsigned i = 0; i < f->num_fds; i++)
		close(f->fds[i]);
	free(f);
}

void agx_ipc_conn_ref(struct agx_ipc_conn *conn)
{
	conn->refs++;
}

void agx_ipc_conn_unref(struct agx_ipc_conn *conn)
{
	if (!conn || --conn->refs)
		return;
	event_free(conn->read_ev);
	event_free(conn->write_ev);
	event_free(conn->close_ev);
	if (conn->hello_ev)
		event_free(conn->hello_ev);
	if (conn->owns_rxbuf)
		free(conn->rxbuf);
	free(conn);
}

/* Sends queued frames until the socket is full; false if the conn broke. */
static bool flush(struct agx_ipc_conn *conn)
{
	while (conn->out_head) {
		struct out_frame *f = conn->out_head;
		int ret = agx_ipc_send_frame(conn->fd, f->data, f->len, f->fds, f->num_fds);

		if (ret == -EAGAIN || ret == -ENOBUFS)
			return true;
		if (ret < 0) {
			agx_dbg("connection %llu: send failed: %s", (unsigned long long)conn->id,
				strerror(-ret));
			return false;
		}
		conn->out_head = f->next;
		if (!conn->out_head)
			conn->out_tail = &conn->out_head;
		conn->out_bytes -= f->len;
		free_frame(f);
	}
	return true;
}

void ipc_conn_close_now(struct agx_ipc_conn *conn)
{
	if (conn->fd < 0)
		return;
	conn->open = false;
	event_del(conn->read_ev);
	event_del(conn->write_ev);
	event_del(conn->close_ev);
	if (conn->hello_ev)
		event_del(conn->hello_ev);
	/* Last chance for queued replies (an error that explains the close). */
	flush(conn);
	while (conn->out_head) {
		struct out_frame *f = conn->out_head;

		conn->out_head = f->next;
		free_frame(f);
	}
	conn->out_tail = &conn->out_head;
	conn->out_bytes = 0;
	close(conn->fd);
	conn->fd = -1;
	conn->ops->closed(conn);
	agx_ipc_conn_unref(conn);
}

static void on_close(evutil_socket_t fd, short what, void *arg)
{
	(void)fd;
	(void)what;
	ipc_conn_close_now(arg);
}

void agx_ipc_conn_close(struct agx_ipc_conn *conn)
{
	if (!conn->open)
		return;
	conn->open = false;
	event_del(conn->read_ev);
	event_active(conn->close_ev, EV_TIMEOUT, 0);
}

bool agx_ipc_conn_is_open(const struct agx_ipc_conn *conn)
{
	return conn->open;
}

static void on_writable(evutil_socket_t fd, short what, void *arg)
{
	struct agx_ipc_conn *conn = arg;

	(void)fd;
	(void)what;
	if (!flush(conn)) {
		agx_ipc_conn_close(conn);
		return;
	}
	if (!conn->out_head)
		event_del(conn->write_ev);
}

static int queue_frame(struct agx_ipc_conn *conn, const uint8_t *buf, size_t len, const int *fds,
		       unsigned num_fds)
{
	struct out_frame *f;

	if (conn->out_bytes + len > conn->max_queued) {
		agx_warn_ratelimited(
		    conn->peer.pid,
		    "connection %llu (%s, pid %d): peer does not read its replies; "
		    "closing",
		    (unsigned long long)conn->id, conn->name, (int)conn->peer.pid);
		agx_ipc_conn_close(conn);
		return -ENOBUFS;
	}
	f = malloc(sizeof(*f) + len);
	if (!f)
		return -ENOMEM;
	f->next = NULL;
	f->len = len;
	f->num_fds = 0;
	memcpy(f->data, buf, len);
	/* The caller keeps its fds; the queue holds duplicates until sent. */
	for (unsigned i = 0; i < num_fds; i++) {
		int dup = fcntl(fds[i], F_DUPFD_CLOEXEC, 0);

		if (dup < 0) {
			int ret = -errno;

			free_frame(f);
			return ret;
		}
		f->fds[f->num_fds++] = dup;
	}
	*conn->out_tail = f;
	conn->out_tail = &f->next;
	conn->out_bytes += len;
	event_add(conn->write_ev, NULL);
	return 0;
}

int ipc_conn_send(struct agx_ipc_conn *conn, uint16_t type, uint16_t flags, uint32_t request_id,
		  const ProtobufCMessage *body, const int *fds, unsigned num_fds)
{
	uint8_t small[1024], *buf = small;
	size_t cap = sizeof(small);
	ssize_t len;
	int ret;

	if (!conn->open && !(flags & AGX_IPC_FLAG_ERROR))
		return -ENOTCONN;
	if (conn->fd < 0)
		return -ENOTCONN;
	if (body && agx_ipc_frame_size(body) > cap) {
		cap = agx_ipc_frame_size(body);
		if (cap > AGX_IPC_MAX_FRAME)
			return -EMSGSIZE;
		buf = malloc(cap);
		if (!buf)
			return -ENOMEM;
	}
	len = agx_ipc_encode(buf, cap, type, flags, request_id, body, num_fds);
	if (len < 0) {
		ret = (int)len;
	} else if (!conn->out_head) {
		ret = agx_ipc_send_frame(conn->fd, buf, (size_t)len, fds, num_fds);
		if (ret == -EAGAIN || ret == -ENOBUFS)
			ret = queue_frame(conn, buf, (size_t)len, fds, num_fds);
		else if (ret < 0)
			agx_ipc_conn_close(conn);
	} else {
		ret = queue_frame(conn, buf, (size_t)len, fds, num_fds);
	}
	if (buf != small)
		free(buf);
	return ret;
}

int agx_ipc_conn_send_event(struct agx_ipc_conn *conn, uint16_t type, const ProtobufCMessage *body,
			    const int *fds, unsigned num_fds)
{
	return ipc_conn_send(conn, type, AGX_IPC_FLAG_EVENT, 0, body, fds, num_fds);
}

void ipc_conn_fail(struct agx_ipc_conn *conn, uint16_t type, uint32_t request_id, int code,
		   const char *fmt, ...)
{
	char message[AGX_IPC_MAX_ERROR_MESSAGE + 1];
	Agx__Ipc__Error error;
	va_list ap;

	va_start(ap, fmt);
	ipc_error_format(&error, message, sizeof(message), code, fmt, ap);
	va_end(ap);
	/* a client that sends garbage on connection after connection is one voice in the log */
	agx_warn_ratelimited(conn->peer.pid, "connection %llu (%s, pid %d): %s: %s; closing it",
			     (unsigned long long)conn->id, conn->name, (int)conn->peer.pid,
			     agx_ipc_error_name(code), message);
	ipc_conn_send(conn, type, AGX_IPC_FLAG_REPLY | AGX_IPC_FLAG_ERROR, request_id, &error.base,
		      NULL, 0);
	agx_ipc_conn_close(conn);
}

static void on_readable(evutil_socket_t fd, short what, void *arg)
{
	struct agx_ipc_conn *conn = arg;

	(void)what;
	agx_ipc_conn_ref(conn);
	for (int i = 0; i < READ_BUDGET && conn->open; i++) {
		int fds[AGX_IPC_MAX_FDS];
		struct agx_ipc_error err;
		struct agx_ipc_msg msg;
		unsigned num_fds;
		ssize_t n;

		n = agx_ipc_recv_frame(fd, conn->rxbuf, fds, &num_fds);
		if (n == -EAGAIN)
			break;
		/*
		 * The peer closed with our output unread: some kernels report
		 * that before the packets still queued; read those, then EOF.
		 */
		if (n == -ECONNRESET)
			continue;
		if (n == 0) {
			agx_dbg("connection %llu: peer closed it", (unsigned long long)conn->id);
			agx_ipc_conn_close(conn);
			break;
		}
		if (n == -EMSGSIZE) {
			agx_ipc_error_set(&err, AGX__IPC__ERROR_CODE__ERROR_TOO_LARGE,
					  "packet over %d bytes or %d fds", AGX_IPC_MAX_FRAME,
					  AGX_IPC_MAX_FDS);
			conn->ops->bad_frame(conn, NULL, 0, &err);
			break;
		}
		if (n < 0) {
			agx_warn_ratelimited(conn->peer.pid, "connection %llu: receive failed: %s",
					     (unsigned long long)conn->id, strerror((int)-n));
			agx_ipc_conn_close(conn);
			break;
		}
		ipc_activity++;
		if (agx_ipc_decode(conn->rxbuf, (size_t)n, fds, num_fds, &msg, &err) < 0) {
			conn->ops->bad_frame(conn, conn->rxbuf, (size_t)n, &err);
			break;
		}
		conn->ops->message(conn, &msg);
	}
	agx_ipc_conn_unref(conn);
}

struct agx_ipc_conn *ipc_conn_create(struct event_base *base, int fd, uint8_t *rxbuf,
				     const struct conn_ops *ops, size_t max_queued)
{
	struct agx_ipc_conn *conn = calloc(1, sizeof(*conn));
	socklen_t len = sizeof(conn->peer);

	if (!conn)
		return NULL;
	conn->refs = 1;
	conn->fd = fd;
	conn->base = base;
	conn->ops = ops;
	conn->out_tail = &conn->out_head;
	conn->max_queued = max_queued ? max_queued : AGX_IPC_DEFAULT_MAX_QUEUED;
	conn->peer.pid = -1;
	conn->peer.uid = (uid_t)-1;
	conn->peer.gid = (gid_t)-1;
	if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &conn->peer, &len) < 0)
		agx_warn("SO_PEERCRED: %s", strerror(errno));
	snprintf(conn->name, sizeof(conn->name), "?");
	conn->rxbuf = rxbuf;
	if (!rxbuf) {
		conn->rxbuf = malloc(AGX_IPC_MAX_FRAME);
		conn->owns_rxbuf = true;
	}
	conn->read_ev = event_new(base, fd, EV_READ | EV_PERSIST, on_readable, conn);
	conn->write_ev = event_new(base, fd, EV_WRITE | EV_PERSIST, on_writable, conn);
	conn->close_ev = event_new(base, -1, 0, on_close, conn);
	if (!conn->rxbuf || !conn->read_ev || !conn->write_ev || !conn->close_ev) {
		agx_ipc_conn_unref(conn);
		return NULL;
	}
	return conn;
}

int ipc_conn_start(struct agx_ipc_conn *conn)
{
	conn->open = true;
	return event_add(conn->read_ev, NULL) < 0 ? -ENOMEM : 0;
}

const struct ucred *agx_ipc_conn_peer(const struct agx_ipc_conn *conn)
{
	return &conn->peer;
}

uint64_t agx_ipc_conn_id(const struct agx_ipc_conn *conn)
{
	return conn->id;
}

const char *agx_ipc_conn_name(const struct agx_ipc_conn *conn)
{
	return conn->name;
}

void agx_ipc_conn_set_data(struct agx_ipc_conn *conn, void *data)
{
	conn->user_data = data;
}

void *agx_ipc_conn_get_data(const struct agx_ipc_conn *conn)
{
	return conn->user_data;
}

void ipc_copy_name(char *dst, size_t size, const char *src)
{
	size_t n = 0;

	for (; src && *src && n + 1 < size; src++)
		dst[n++] = (*src >= 0x20 && *src < 0x7f) ? *src : '?';
	dst[n] = '\0';
}

const char *ipc_interface_name(int interface)
{
	const ProtobufCEnumValue *v =
	    protobuf_c_enum_descriptor_get_value(&agx__ipc__interface__descriptor, interface);

	return v ? v->name : "INTERFACE_UNKNOWN";
}
