/*
 * libagxipc on a libevent loop: the server side of an interface, and the
 * asynchronous client that daemons use to talk to each other.  Both sides
 * are a struct agx_ipc_conn; see docs/ipc.md for the rules they keep.
 */
#ifndef AGXIPC_SERVER_H
#define AGXIPC_SERVER_H

#include <stdbool.h>
#include <sys/socket.h>

#include "ipc.h"

struct event_base;
struct agx_ipc_server;
struct agx_ipc_conn;

/* One request, handed to the dispatch callback. */
struct agx_ipc_request {
	struct agx_ipc_conn *conn;
	struct agx_ipc_msg msg; /* msg.body is of msg.info->request */
	/* private to libagxipc */
	bool replied;
	bool deferred;
	bool in_dispatch;
};

struct agx_ipc_server_ops {
	/*
	 * A client finished the handshake.  Return 0 to accept it, or a
	 * negative errno to refuse it (the client gets the matching error).
	 */
	int (*connect)(struct agx_ipc_conn *conn, void *data);
	/*
	 * A request of the server's interface.  Reply with agx_ipc_reply*()
	 * before returning, or call agx_ipc_request_defer() and reply later.
	 * A negative errno returned without a reply becomes an error reply.
	 */
	int (*dispatch)(struct agx_ipc_request *req, void *data);
	/* The connection is gone: release everything the peer owned. */
	void (*disconnect)(struct agx_ipc_conn *conn, void *data);
};

struct agx_ipc_server_config {
	int interface;	  /* Agx__Ipc__Interface served on this socket */
	const char *name; /* in HelloReply and in logs */
	const struct agx_ipc_server_ops *ops;
	void *data;		   /* passed to every op */
	unsigned max_connections;  /* 0: AGX_IPC_DEFAULT_MAX_CONNECTIONS */
	size_t max_queued_bytes;   /* per connection output; 0: default */
	unsigned hello_timeout_ms; /* 0: AGX_IPC_HELLO_TIMEOUT_MS, or the environment's */
};

#define AGX_IPC_DEFAULT_MAX_CONNECTIONS 1024
#define AGX_IPC_DEFAULT_MAX_QUEUED	(4u << 20)
/*
 * A connection that has not completed its HELLO this long after it was
 * accepted is closed (a TIMEOUT connection error), so that idle
 * connections cannot hold every slot.  AGX_IPC_HELLO_TIMEOUT_MS in the
 * environment overrides it for servers that do not set their own (tests).
 */
#define AGX_IPC_HELLO_TIMEOUT_MS 5000

/* Serves listen_fd (a listening SOCK_SEQPACKET socket; the server owns it). */
AGX_IPC_EXPORT struct agx_ipc_server *
agx_ipc_server_create(struct event_base *base, int listen_fd,
		      const struct agx_ipc_server_config *config);
/* Closes every connection (calling disconnect for each) and the socket. */
AGX_IPC_EXPORT void agx_ipc_server_destroy(struct agx_ipc_server *server);
AGX_IPC_EXPORT unsigned agx_ipc_server_num_connections(const struct agx_ipc_server *server);
/*
 * Sends an event to every connection that finished its handshake, whether
 * or not it ever made a request (news for all: the device is back);
 * returns how many it went to.
 */
AGX_IPC_EXPORT unsigned agx_ipc_server_send_event_all(struct agx_ipc_server *server, uint16_t type,
						      const ProtobufCMessage *body);

/*
 * Runs base until event_base_loopbreak/loopexit or until nothing is left
 * to wait for, busy-polling briefly after traffic (agx_ipc_busy_poll_us).
 * Use it instead of event_base_dispatch() wherever libagxipc serves.
 */
AGX_IPC_EXPORT int agx_ipc_loop_run(struct event_base *base);

/* --- requests --- */

/* Replies to req; the fds are sent as copies and stay the caller's. */
AGX_IPC_EXPORT int agx_ipc_reply(struct agx_ipc_request *req, const ProtobufCMessage *body,
				 const int *fds, unsigned num_fds);
AGX_IPC_EXPORT int agx_ipc_reply_error(struct agx_ipc_request *req, int code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/*
 * Keeps req alive after dispatch returns; the caller must reply to it
 * later -- or at once: a deferred request may be answered before dispatch
 * returns (a callback that ran early), and is freed after.  A reply to a
 * request whose connection has gone is dropped (returning -ENOTCONN) and
 * frees the request all the same.
 */
AGX_IPC_EXPORT void agx_ipc_request_defer(struct agx_ipc_request *req);

/* --- connections --- */

AGX_IPC_EXPORT const struct ucred *agx_ipc_conn_peer(const struct agx_ipc_conn *conn);
AGX_IPC_EXPORT uint64_t agx_ipc_conn_id(const struct agx_ipc_conn *conn);
AGX_IPC_EXPORT const char *agx_ipc_conn_name(const struct agx_ipc_conn *conn);
AGX_IPC_EXPORT void agx_ipc_conn_set_data(struct agx_ipc_conn *conn, void *data);
AGX_IPC_EXPORT void *agx_ipc_conn_get_data(const struct agx_ipc_conn *conn);
AGX_IPC_EXPORT bool agx_ipc_conn_is_open(const struct agx_ipc_conn *conn);
AGX_IPC_EXPORT void agx_ipc_conn_ref(struct agx_ipc_conn *conn);
AGX_IPC_EXPORT void agx_ipc_conn_unref(struct agx_ipc_conn *conn);
/* Closes the connection from the loop's next turn (disconnect runs then). */
AGX_IPC_EXPORT void agx_ipc_conn_close(struct agx_ipc_conn *conn);
/* Sends an event (a message whose table row is an EVENT) to the peer. */
AGX_IPC_EXPORT int agx_ipc_conn_send_event(struct agx_ipc_conn *conn, uint16_t type,
					   const ProtobufCMessage *body, const int *fds,
					   unsigned num_fds);

/* --- the asynchronous client --- */

/*
 * A reply arrived (status 0, reply set; the callback may take its fds and
 * the library finishes it afterwards), or the call failed (status a
 * negative errno, err filled when the peer sent an error).
 */
typedef void (*agx_ipc_reply_cb)(struct agx_ipc_conn *conn, int status, struct agx_ipc_msg *reply,
				 const struct agx_ipc_error *err, void *data);

struct agx_ipc_peer_ops {
	/* An event from the server; the library finishes msg afterwards. */
	void (*event)(struct agx_ipc_conn *conn, struct agx_ipc_msg *msg, void *data);
	/* The connection is gone; pending calls have failed with -ECONNRESET. */
	void (*disconnect)(struct agx_ipc_conn *conn, void *data);
};

/*
 * Connects to the server at path and starts the handshake; calls made
 * before it completes are queued behind it.  A failed handshake fails
 * every pending call and then disconnects.
 */
AGX_IPC_EXPORT int agx_ipc_conn_connect(struct event_base *base, const char *path, int interface,
					const char *name, const struct agx_ipc_peer_ops *ops,
					void *data, struct agx_ipc_conn **out);
/* Sends a request; cb runs once with its reply, an error, or -ETIMEDOUT. */
AGX_IPC_EXPORT int agx_ipc_conn_call(struct agx_ipc_conn *conn, uint16_t type,
				     const ProtobufCMessage *body, const int *fds, unsigned num_fds,
				     int timeout_ms, agx_ipc_reply_cb cb, void *data);

#endif
