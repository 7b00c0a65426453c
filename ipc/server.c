/*
 * server.c: the server side of an interface.  Accepts connections (backing
 * off when out of file descriptors), runs the Hello handshake, answers
 * PING itself, and hands every other request of its interface to the
 * owner's dispatch callback, making sure each one gets exactly one reply.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "agxipc/log.h"
#include "conn.h"

/* How long accepting pauses when the process is out of file descriptors. */
#define ACCEPT_BACKOFF_MS 100
/* The most a HELLO deadline from the environment may say. */
#define MAX_HELLO_TIMEOUT_MS 3600000

struct agx_ipc_server {
	struct event_base *base;
	int listen_fd;
	struct event *listen_ev, *backoff_ev;
	struct agx_ipc_server_config config;
	char name[AGX_IPC_MAX_NAME + 1];
	struct agx_ipc_conn *conns;
	unsigned num_conns;
	uint64_t next_conn_id;
	uint8_t *rxbuf; /* one receive buffer: the loop handles one packet at a time */
};

static void request_free(struct agx_ipc_request *req)
{
	agx_ipc_msg_finish(&req->msg);
	agx_ipc_conn_unref(req->conn);
	free(req);
}

static int reply_frame(struct agx_ipc_request *req, uint16_t flags, const ProtobufCMessage *body,
		       const int *fds, unsigned num_fds)
{
	int ret;

	if (req->replied) {
		agx_err("%s: second reply to request %u", req->msg.info->name, req->msg.request_id);
		return -EALREADY;
	}
	req->replied = true;
	ret =
	    ipc_conn_send(req->conn, req->msg.type, flags, req->msg.request_id, body, fds, num_fds);
	if (ret == -EINVAL) {
		/* The handler built a reply the table does not allow: a bug, not the peer's. */
		Agx__Ipc__Error error = AGX__IPC__ERROR__INIT;

		agx_err("%s: the handler's reply does not match the message table",
			req->msg.info->name);
		error.code = AGX__IPC__ERROR_CODE__ERROR_INTERNAL;
		error.message = "server built an invalid reply";
		ipc_conn_send(req->conn, req->msg.type, AGX_IPC_FLAG_REPLY | AGX_IPC_FLAG_ERROR,
			      req->msg.request_id, &error.base, NULL, 0);
	}
	/* inside dispatch the request is the dispatcher's to free */
	if (req->deferred && !req->in_dispatch)
		request_free(req);
	return ret;
}

int agx_ipc_reply(struct agx_ipc_request *req, const ProtobufCMessage *body, const int *fds,
		  unsigned num_fds)
{
	return reply_frame(req, AGX_IPC_FLAG_REPLY, body, fds, num_fds);
}

int agx_ipc_reply_error(struct agx_ipc_request *req, int code, const char *fmt, ...)
{
	char message[AGX_IPC_MAX_ERROR_MESSAGE + 1];
	Agx__Ipc__Error error;
	va_list ap;

	va_start(ap, fmt);
	ipc_error_format(&error, message, sizeof(message), code, fmt, ap);
	va_end(ap);
	return reply_frame(req, AGX_IPC_FLAG_REPLY | AGX_IPC_FLAG_ERROR, &error.base, NULL, 0);
}

void agx_ipc_request_defer(struct agx_ipc_request *req)
{
	req->deferred = true;
}

static void handshake(struct agx_ipc_conn *conn, const struct agx_ipc_msg *msg)
{
	struct agx_ipc_server *server = conn->server;
	const Agx__Ipc__Hello *hello = (const Agx__Ipc__Hello *)msg->body;
	Agx__Ipc__HelloReply reply = AGX__IPC__HELLO_REPLY__INIT;
	int ret;

	ipc_copy_name(conn->name, sizeof(conn->name), hello->client_name);
	if (hello->version_major != AGX_IPC_VERSION_MAJOR) {
		ipc_conn_fail(conn, msg->type, msg->request_id,
			      AGX__IPC__ERROR_CODE__ERROR_VERSION_MISMATCH,
			      "client speaks protocol %u.%u, %s speaks %d.%d", hello->version_major,
			      hello->version_minor, server->name, AGX_IPC_VERSION_MAJOR,
			      AGX_IPC_VERSION_MINOR);
		return;
	}
	if ((int)hello->interface != server->config.interface) {
		ipc_conn_fail(conn, msg->type, msg->request_id,
			      AGX__IPC__ERROR_CODE__ERROR_WRONG_INTERFACE,
			      "this socket serves %s, the client expects %s",
			      ipc_interface_name(server->config.interface),
			      ipc_interface_name(hello->interface));
		return;
	}
	if (server->config.ops->connect) {
		ret = server->config.ops->connect(conn, server->config.data);
		if (ret < 0) {
			ipc_conn_fail(conn, msg->type, msg->request_id, agx_ipc_errno_to_error(ret),
				      "%s refused the connection: %s", server->name,
				      strerror(-ret));
			return;
		}
	}
	conn->handshaken = true;
	if (conn->hello_ev)
		event_del(conn->hello_ev);
	reply.version_major = AGX_IPC_VERSION_MAJOR;
	reply.version_minor = AGX_IPC_VERSION_MINOR;
	reply.server_name = server->name;
	reply.server_pid = (uint32_t)getpid();
	reply.connection_id = conn->id;
	ipc_conn_send(conn, msg->type, AGX_IPC_FLAG_REPLY, msg->request_id, &reply.base, NULL, 0);
	agx_info("connection %llu: %s (pid %d, uid %d) on %s", (unsigned long long)conn->id,
		 conn->name, (int)conn->peer.pid, (int)conn->peer.uid,
		 ipc_interface_name(server->config.interface));
}

static int ping(struct agx_ipc_request *req)
{
	const Agx__Ipc__Ping *ping = (const Agx__Ipc__Ping *)req->msg.body;
	Agx__Ipc__PingReply reply = AGX__IPC__PING_REPLY__INIT;

	reply.payload = ping->payload;
	return agx_ipc_reply(req, &reply.base, req->msg.fds, req->msg.num_fds);
}

static void dispatch(struct agx_ipc_conn *conn, struct agx_ipc_msg *msg)
{
	struct agx_ipc_server *server = conn->server;
	unsigned family = agx_ipc_msg_family(msg->type);
	struct agx_ipc_request *req;
	int ret;

	req = calloc(1, sizeof(*req));
	if (!req) {
		ipc_conn_fail(conn, msg->type, msg->request_id,
			      AGX__IPC__ERROR_CODE__ERROR_NO_MEMORY, "out of memory");
		agx_ipc_msg_finish(msg);
		return;
	}
	req->conn = conn;
	agx_ipc_conn_ref(conn);
	req->msg = *msg;

	if (msg->type == AGX_IPC_MSG_PING)
		ret = ping(req);
	else if (family != 0 && family != (unsigned)server->config.interface)
		ret = agx_ipc_reply_error(req, AGX__IPC__ERROR_CODE__ERROR_UNKNOWN_MESSAGE,
					  "%s is not served on %s", msg->info->name,
					  ipc_interface_name(server->config.interface));
	else {
		req->in_dispatch = true;
		ret = server->config.ops->dispatch(req, server->config.data);
		req->in_dispatch = false;
	}

	if (!req->replied && !req->deferred) {
		if (ret < 0) {
			agx_ipc_reply_error(req, agx_ipc_errno_to_error(ret), "%s: %s",
					    msg->info->name, strerror(-ret));
		} else {
			agx_err("%s: the handler returned without a reply", msg->info->name);
			agx_ipc_reply_error(req, AGX__IPC__ERROR_CODE__ERROR_INTERNAL,
					    "%s: the server sent no reply", msg->info->name);
		}
	}
	/* a deferred request answered before dispatch returned is done too */
	if (!req->deferred || req->replied)
		request_free(req);
}

static void server_message(struct agx_ipc_conn *conn, struct agx_ipc_msg *msg)
{
	if (msg->flags != 0) {
		ipc_conn_fail(conn, 0, 0, AGX__IPC__ERROR_CODE__ERROR_PROTOCOL,
			      "a client sends requests only; got %s with flags 0x%x",
			      msg->info->name, msg->flags);
	} else if (!conn->handshaken && msg->type != AGX_IPC_MSG_HELLO) {
		ipc_conn_fail(conn, msg->type, msg->request_id,
			      AGX__IPC__ERROR_CODE__ERROR_PROTOCOL,
			      "the first message must be HELLO, got %s", msg->info->name);
	} else if (msg->type == AGX_IPC_MSG_HELLO) {
		if (conn->handshaken)
			ipc_conn_fail(conn, msg->type, msg->request_id,
				      AGX__IPC__ERROR_CODE__ERROR_PROTOCOL, "HELLO sent twice");
		else
			handshake(conn, msg);
	} else {
		dispatch(conn, msg); /* takes msg */
		return;
	}
	agx_ipc_msg_finish(msg);
}

/* Where the error about a bad frame goes: its request, when that much is readable. */
static void server_bad_frame(struct agx_ipc_conn *conn, const uint8_t *buf, size_t len,
			     const struct agx_ipc_error *err)
{
	struct agx_ipc_header hdr;
	const struct agx_ipc_msg_info *info;
	uint16_t type = 0;
	uint32_t id = 0;

	if (len >= sizeof(hdr)) {
		memcpy(&hdr, buf, sizeof(hdr));
		info = agx_ipc_msg_info(hdr.type);
		if (info && info->kind == AGX_IPC_KIND_REQUEST && hdr.flags == 0) {
			type = hdr.type;
			id = hdr.request_id;
		}
	}
	ipc_conn_fail(conn, type, id, err->code, "%s", err->message);
}

static void server_closed(struct agx_ipc_conn *conn)
{
	struct agx_ipc_server *server = conn->server;

	if (conn->prev)
		conn->prev->next = conn->next;
	else
		server->conns = conn->next;
	if (conn->next)
		conn->next->prev = conn->prev;
	server->num_conns--;
	if (conn->handshaken && server->config.ops->disconnect)
		server->config.ops->disconnect(conn, server->config.data);
	agx_dbg("connection %llu closed", (unsigned long long)conn->id);
}

static const struct conn_ops server_conn_ops = {
	.message = server_message,
	.bad_frame = server_bad_frame,
	.closed = server_closed,
};

static void refuse(int fd, const char *why)
{
	Agx__Ipc__Error error = AGX__IPC__ERROR__INIT;

	error.code = AGX__IPC__ERROR_CODE__ERROR_BUSY;
	error.message = (char *)why;
	agx_ipc_send(fd, AGX_IPC_MSG_CONNECTION, AGX_IPC_FLAG_REPLY | AGX_IPC_FLAG_ERROR, 0,
		     &error.base, NULL, 0);
	close(fd);
}

static void on_backoff(evutil_socket_t fd, short what, void *arg)
{
	struct agx_ipc_server *server = arg;

	(void)fd;
	(void)what;
	event_add(server->listen_ev, NULL);
}

/* No HELLO in time: the slot goes back to clients that speak. */
static void on_hello_timeout(evutil_socket_t fd, short what, void *arg)
{
	struct agx_ipc_conn *conn = arg;

	(void)fd;
	(void)what;
	if (conn->handshaken || !conn->open)
		return;
	ipc_conn_fail(conn, 0, 0, AGX__IPC__ERROR_CODE__ERROR_TIMEOUT,
		      "no HELLO within %u ms of connecting", conn->server->config.hello_timeout_ms);
}

static int start_hello_deadline(struct agx_ipc_server *server, struct agx_ipc_conn *conn)
{
	unsigned ms = server->config.hello_timeout_ms;
	struct timeval tv = { (time_t)(ms / 1000), (suseconds_t)(ms % 1000) * 1000 };

	conn->hello_ev = evtimer_new(server->base, on_hello_timeout, conn);
	if (!conn->hello_ev || evtimer_add(conn->hello_ev, &tv) < 0)
		return -ENOMEM;
	return 0;
}

static void on_accept(evutil_socket_t lfd, short what, void *arg)
{
	struct agx_ipc_server *server = arg;

	(void)what;
	for (;;) {
		struct agx_ipc_conn *conn;
		int fd = accept4(lfd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);

		if (fd < 0) {
			if (errno == EINTR || errno == ECONNABORTED)
				continue;
			if (errno == EMFILE || errno == ENFILE || errno == ENOBUFS ||
			    errno == ENOMEM) {
				/* Waiting is better than spinning on a socket we cannot serve. */
				struct timeval tv = { 0, ACCEPT_BACKOFF_MS * 1000 };

				agx_warn_ratelimited(-1, "%s: accept: %s; pausing for %d ms",
						     server->name, strerror(errno),
						     ACCEPT_BACKOFF_MS);
				event_del(server->listen_ev);
				evtimer_add(server->backoff_ev, &tv);
			} else if (errno != EAGAIN) {
				agx_err("%s: accept: %s", server->name, strerror(errno));
			}
			return;
		}
		if (server->num_conns >= server->config.max_connections) {
			refuse(fd, "too many connections");
			continue;
		}
		conn = ipc_conn_create(server->base, fd, server->rxbuf, &server_conn_ops,
				       server->config.max_queued_bytes);
		if (!conn) {
			refuse(fd, "out of memory");
			continue;
		}
		conn->server = server;
		conn->id = ++server->next_conn_id;
		conn->next = server->conns;
		if (conn->next)
			conn->next->prev = conn;
		server->conns = conn;
		server->num_conns++;
		if (start_hello_deadline(server, conn) < 0 || ipc_conn_start(conn) < 0)
			ipc_conn_close_now(conn);
	}
}

static unsigned hello_timeout_from_environment(void)
{
	const char *env = getenv("AGX_IPC_HELLO_TIMEOUT_MS");
	unsigned long ms;
	char *end;

	if (!env)
		return AGX_IPC_HELLO_TIMEOUT_MS;
	ms = strtoul(env, &end, 10);
	if (*end || end == env || ms == 0 || ms > MAX_HELLO_TIMEOUT_MS) {
		agx_warn("AGX_IPC_HELLO_TIMEOUT_MS=%s is not 1..%d; using %d", env,
			 MAX_HELLO_TIMEOUT_MS, AGX_IPC_HELLO_TIMEOUT_MS);
		return AGX_IPC_HELLO_TIMEOUT_MS;
	}
	return (unsigned)ms;
}

struct agx_ipc_server *agx_ipc_server_create(struct event_base *base, int listen_fd,
					     const struct agx_ipc_server_config *config)
{
	struct agx_ipc_server *server;

	if (!config->ops || !config->ops->dispatch)
		return NULL;
	server = calloc(1, sizeof(*server));
	if (!server)
		return NULL;
	server->base = base;
	server->listen_fd = listen_fd;
	server->config = *config;
	if (!server->config.max_connections)
		server->config.max_connections = AGX_IPC_DEFAULT_MAX_CONNECTIONS;
	if (!server->config.hello_timeout_ms)
		server->config.hello_timeout_ms = hello_timeout_from_environment();
	ipc_copy_name(server->name, sizeof(server->name), config->name ? config->name : "agx");
	server->config.name = server->name;
	server->rxbuf = malloc(AGX_IPC_MAX_FRAME);
	server->listen_ev = event_new(base, listen_fd, EV_READ | EV_PERSIST, on_accept, server);
	server->backoff_ev = evtimer_new(base, on_backoff, server);
	if (!server->rxbuf || !server->listen_ev || !server->backoff_ev ||
	    evutil_make_socket_nonblocking(listen_fd) < 0 ||
	    event_add(server->listen_ev, NULL) < 0) {
		server->listen_fd = -1; /* the caller still owns it on failure */
		agx_ipc_server_destroy(server);
		return NULL;
	}
	return server;
}

void agx_ipc_server_destroy(struct agx_ipc_server *server)
{
	if (!server)
		return;
	while (server->conns)
		ipc_conn_close_now(server->conns);
	if (server->listen_ev)
		event_free(server->listen_ev);
	if (server->backoff_ev)
		event_free(server->backoff_ev);
	if (server->listen_fd >= 0)
		close(server->listen_fd);
	free(server->rxbuf);
	free(server);
}

unsigned agx_ipc_server_num_connections(const struct agx_ipc_server *server)
{
	return server->num_conns;
}

unsigned agx_ipc_server_send_event_all(struct agx_ipc_server *server, uint16_t type,
				       const ProtobufCMessage *body)
{
	unsigned sent = 0;

	/* a failed send closes its connection on the loop's next turn: the list stays whole */
	for (struct agx_ipc_conn *conn = server->conns; conn; conn = conn->next)
		if (conn->handshaken && conn->open &&
		    ipc_conn_send(conn, type, AGX_IPC_FLAG_EVENT, 0, body, NULL, 0) == 0)
			sent++;
	return sent;
}
