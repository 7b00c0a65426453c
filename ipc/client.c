/*
 * client.c: the blocking client.  It owns no event loop: each call sends
 * its request and polls the socket until the matching reply arrives or
 * the timeout passes.  Events that arrive meanwhile go to the event
 * handler; replies to earlier calls that timed out are discarded.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include "agxipc/client.h"
#include "agxipc/log.h"
#include "conn.h"

struct agx_ipc_client {
	int fd;
	uint32_t next_id;
	uint8_t *buf;
	struct agx_ipc_server_info server;
	agx_ipc_event_fn event_fn;
	void *event_data;
};

static int64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* Milliseconds left until deadline (-1: none), for poll(). */
static int remaining(int64_t deadline)
{
	int64_t left;

	if (deadline < 0)
		return -1;
	left = deadline - now_ms();
	return left < 0 ? 0 : (int)left;
}

/* Waits for one message; -ETIMEDOUT when none came before the deadline. */
static int receive(struct agx_ipc_client *client, int64_t deadline, struct agx_ipc_msg *msg,
		   struct agx_ipc_error *err)
{
	uint64_t spin_until = ipc_now_ns() + agx_ipc_busy_poll_us() * 1000ull;
	struct pollfd pfd = { .fd = client->fd, .events = POLLIN };
	int fds[AGX_IPC_MAX_FDS];
	unsigned num_fds;
	ssize_t n;
	int ret;

	for (;;) {
		n = agx_ipc_recv_frame(client->fd, client->buf, fds, &num_fds);
		/*
		 * A server that closes with our request unread leaves ECONNRESET
		 * pending on the socket, which some kernels report before the
		 * packets queued ahead of it (such as the error that says why).
		 */
		if (n == -ECONNRESET) {
			n = agx_ipc_recv_frame(client->fd, client->buf, fds, &num_fds);
			if (n == -EAGAIN)
				return -ECONNRESET;
		}
		if (n != -EAGAIN)
			break;
		/* Replies usually come within microseconds: poll before sleeping. */
		if (ipc_now_ns() < spin_until && (deadline < 0 || now_ms() < deadline)) {
			agx_ipc_busy_poll_relax();
			continue;
		}
		ret = poll(&pfd, 1, remaining(deadline));
		if (ret < 0 && errno != EINTR)
			return -errno;
		if (ret == 0)
			return -ETIMEDOUT;
	}
	if (n == 0) {
		agx_ipc_error_set(err, AGX__IPC__ERROR_CODE__ERROR_PROTOCOL,
				  "the server closed the connection");
		return -ECONNRESET;
	}
	if (n < 0)
		return (int)n;
	return agx_ipc_decode(client->buf, (size_t)n, fds, num_fds, msg, err);
}

static void deliver_event(struct agx_ipc_client *client, struct agx_ipc_msg *msg)
{
	if (client->event_fn)
		client->event_fn(msg, client->event_data);
	else
		agx_dbg("event %s dropped: no handler", msg->info->name);
	agx_ipc_msg_finish(msg);
}

int agx_ipc_client_send_request(struct agx_ipc_client *client, uint16_t type,
				const ProtobufCMessage *body, const int *fds, unsigned num_fds,
				int timeout_ms, uint32_t *out_id, struct agx_ipc_error *err)
{
	int64_t deadline = timeout_ms < 0 ? -1 : now_ms() + timeout_ms;
	const struct agx_ipc_msg_info *info = agx_ipc_msg_info(type);
	struct pollfd pfd = { .fd = client->fd, .events = POLLOUT };
	uint32_t id;
	int ret;

	if (err)
		err->code = 0;
	if (!info || info->kind != AGX_IPC_KIND_REQUEST)
		return -EINVAL;
	id = ++client->next_id;
	if (!id)
		id = ++client->next_id;

	while ((ret = agx_ipc_send(client->fd, type, 0, id, body, fds, num_fds)) == -EAGAIN) {
		ret = poll(&pfd, 1, remaining(deadline));
		if (ret == 0)
			return -ETIMEDOUT;
		if (ret < 0 && errno != EINTR)
			return -errno;
	}
	if (ret == -EPIPE || ret == -ECONNRESET) {
		/* The server may have said why it closed before it did. */
		struct agx_ipc_msg msg;

		if (receive(client, 0, &msg, NULL) == 0) {
			if (msg.type == AGX_IPC_MSG_CONNECTION &&
			    (msg.flags & AGX_IPC_FLAG_ERROR)) {
				const Agx__Ipc__Error *e = (const Agx__Ipc__Error *)msg.body;

				ret = agx_ipc_error_set(err, e->code, "%s", e->message);
				agx_ipc_msg_finish(&msg);
				return ret;
			}
			agx_ipc_msg_finish(&msg);
		}
		agx_ipc_error_set(err, AGX__IPC__ERROR_CODE__ERROR_PROTOCOL,
				  "the server closed the connection");
		return -ECONNRESET;
	}
	if (ret < 0)
		return ret;
	*out_id = id;
	return 0;
}

int agx_ipc_client_collect(struct agx_ipc_client *client, uint32_t id, uint16_t type,
			   struct agx_ipc_msg *reply, int timeout_ms, struct agx_ipc_error *err)
{
	int64_t deadline = timeout_ms < 0 ? -1 : now_ms() + timeout_ms;
	int ret;

	memset(reply, 0, sizeof(*reply));
	if (err)
		err->code = 0;
	for (;;) {
		struct agx_ipc_msg msg;

		ret = receive(client, deadline, &msg, err);
		if (ret < 0)
			return ret;
		if (msg.flags == AGX_IPC_FLAG_EVENT) {
			deliver_event(client, &msg);
			continue;
		}
		if (!(msg.flags & AGX_IPC_FLAG_REPLY)) {
			agx_ipc_msg_finish(&msg);
			return agx_ipc_error_set(err, AGX__IPC__ERROR_CODE__ERROR_PROTOCOL,
						 "the server sent a request");
		}
		if (msg.request_id == id || msg.type == AGX_IPC_MSG_CONNECTION) {
			if (msg.flags & AGX_IPC_FLAG_ERROR) {
				const Agx__Ipc__Error *e = (const Agx__Ipc__Error *)msg.body;

				ret = agx_ipc_error_set(err, e->code, "%s", e->message);
				agx_ipc_msg_finish(&msg);
				return ret;
			}
			if (msg.type != type) {
				agx_ipc_msg_finish(&msg);
				return agx_ipc_error_set(err, AGX__IPC__ERROR_CODE__ERROR_PROTOCOL,
							 "reply of type 0x%04x to a 0x%04x request",
							 msg.type, type);
			}
			*reply = msg;
			return 0;
		}
		/* A reply to a call that timed out earlier. */
		agx_ipc_msg_finish(&msg);
	}
}

int agx_ipc_client_call(struct agx_ipc_client *client, uint16_t type, const ProtobufCMessage *body,
			const int *fds, unsigned num_fds, struct agx_ipc_msg *reply, int timeout_ms,
			struct agx_ipc_error *err)
{
	int64_t start = now_ms();
	uint32_t id;
	int ret;

	memset(reply, 0, sizeof(*reply));
	ret = agx_ipc_client_send_request(client, type, body, fds, num_fds, timeout_ms, &id, err);
	if (ret < 0)
		return ret;
	if (timeout_ms >= 0) {
		timeout_ms -= (int)(now_ms() - start);
		if (timeout_ms < 0)
			timeout_ms = 0;
	}
	return agx_ipc_client_collect(client, id, type, reply, timeout_ms, err);
}

int agx_ipc_client_dispatch_events(struct agx_ipc_client *client, int timeout_ms)
{
	int64_t deadline = timeout_ms < 0 ? -1 : now_ms() + timeout_ms;
	int delivered = 0;

	for (;;) {
		struct agx_ipc_msg msg;
		int ret = receive(client, delivered ? 0 : deadline, &msg, NULL);

		if (ret == -ETIMEDOUT)
			return delivered;
		if (ret < 0)
			return ret;
		if (msg.flags == AGX_IPC_FLAG_EVENT) {
			deliver_event(client, &msg);
			delivered++;
		} else {
			agx_ipc_msg_finish(&msg); /* a late reply */
		}
	}
}

int agx_ipc_client_connect(const char *path, int interface, const char *name, int timeout_ms,
			   struct agx_ipc_client **out, struct agx_ipc_error *err)
{
	struct sockaddr_un addr = { .sun_family = AF_UNIX };
	Agx__Ipc__Hello hello = AGX__IPC__HELLO__INIT;
	struct agx_ipc_client *client;
	struct agx_ipc_msg reply;
	int ret;

	if (err)
		err->code = 0;
	if (strlen(path) >= sizeof(addr.sun_path))
		return -ENAMETOOLONG;
	strcpy(addr.sun_path, path);
	client = calloc(1, sizeof(*client));
	if (!client)
		return -ENOMEM;
	client->buf = malloc(AGX_IPC_MAX_FRAME);
	client->fd = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0);
	if (!client->buf || client->fd < 0) {
		ret = client->buf ? -errno : -ENOMEM;
		goto fail;
	}
	if (connect(client->fd, (struct sockaddr *)&addr, sizeof(addr)) < 0 ||
	    fcntl(client->fd, F_SETFL, O_NONBLOCK) < 0) {
		ret = -errno;
		goto fail;
	}

	hello.version_major = AGX_IPC_VERSION_MAJOR;
	hello.version_minor = AGX_IPC_VERSION_MINOR;
	hello.interface = interface;
	hello.client_name = (char *)name;
	ret = agx_ipc_client_call(client, AGX_IPC_MSG_HELLO, &hello.base, NULL, 0, &reply,
				  timeout_ms, err);
	if (ret < 0)
		goto fail;

	const Agx__Ipc__HelloReply *r = (const Agx__Ipc__HelloReply *)reply.body;

	client->server.version_major = r->version_major;
	client->server.version_minor = r->version_minor;
	client->server.pid = r->server_pid;
	client->server.connection_id = r->connection_id;
	ipc_copy_name(client->server.name, sizeof(client->server.name), r->server_name);
	agx_ipc_msg_finish(&reply);
	if (client->server.version_major != AGX_IPC_VERSION_MAJOR) {
		ret = agx_ipc_error_set(err, AGX__IPC__ERROR_CODE__ERROR_VERSION_MISMATCH,
					"server speaks protocol %u.%u, we speak %d.%d",
					client->server.version_major, client->server.version_minor,
					AGX_IPC_VERSION_MAJOR, AGX_IPC_VERSION_MINOR);
		goto fail;
	}
	*out = client;
	return 0;

fail:
	agx_ipc_client_destroy(client);
	return ret;
}

void agx_ipc_client_destroy(struct agx_ipc_client *client)
{
	if (!client)
		return;
	if (client->fd >= 0)
		close(client->fd);
	free(client->buf);
	free(client);
}

const struct agx_ipc_server_info *agx_ipc_client_server(const struct agx_ipc_client *client)
{
	return &client->server;
}

int agx_ipc_client_fd(const struct agx_ipc_client *client)
{
	return client->fd;
}

void agx_ipc_client_set_event_handler(struct agx_ipc_client *client, agx_ipc_event_fn fn,
				      void *data)
{
	client->event_fn = fn;
	client->event_data = data;
}
