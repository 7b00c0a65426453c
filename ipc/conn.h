/*
 * conn.h: the connection machinery shared by the server side (server.c)
 * and the asynchronous client (peer.c): reading packets, the output queue
 * with write interest only while it is non-empty, and closing.
 */
#ifndef IPC_CONN_H
#define IPC_CONN_H

#include <stdarg.h>

#include <event2/event.h>

#include "agxipc/server.h"

struct out_frame;
struct pending_call;

struct conn_ops {
	/* A decoded message; the callee finishes it. */
	void (*message)(struct agx_ipc_conn *conn, struct agx_ipc_msg *msg);
	/* A frame that did not decode (buf/len the raw packet, len 0 if none). */
	void (*bad_frame)(struct agx_ipc_conn *conn, const uint8_t *buf, size_t len,
			  const struct agx_ipc_error *err);
	/* The connection was closed; release what refers to it. */
	void (*closed)(struct agx_ipc_conn *conn);
};

struct agx_ipc_conn {
	unsigned refs;
	int fd;
	bool open;
	bool handshaken;
	struct event_base *base;
	struct event *read_ev, *write_ev, *close_ev;
	const struct conn_ops *ops;
	uint8_t *rxbuf; /* AGX_IPC_MAX_FRAME bytes */
	bool owns_rxbuf;

	struct out_frame *out_head, **out_tail;
	size_t out_bytes, max_queued;

	struct ucred peer;
	uint64_t id;
	char name[AGX_IPC_MAX_NAME + 1];
	void *user_data;

	/* server side */
	struct agx_ipc_server *server;
	struct agx_ipc_conn *prev, *next;
	struct event *hello_ev; /* the HELLO deadline, until the handshake */

	/* client side */
	const struct agx_ipc_peer_ops *peer_ops;
	void *peer_data;
	uint32_t next_request_id;
	struct pending_call *pending;
};

/* Wraps a connected non-blocking socket; rxbuf NULL: the conn allocates one. */
struct agx_ipc_conn *ipc_conn_create(struct event_base *base, int fd, uint8_t *rxbuf,
				     const struct conn_ops *ops, size_t max_queued);
/* Starts reading. */
int ipc_conn_start(struct agx_ipc_conn *conn);
/* Encodes and sends (or queues) one message. */
int ipc_conn_send(struct agx_ipc_conn *conn, uint16_t type, uint16_t flags, uint32_t request_id,
		  const ProtobufCMessage *body, const int *fds, unsigned num_fds);
/* Sends an error reply, then closes the connection. */
void ipc_conn_fail(struct agx_ipc_conn *conn, uint16_t type, uint32_t request_id, int code,
		   const char *fmt, ...) __attribute__((format(printf, 5, 6)));
/* Closes at once, from inside the loop or when tearing it down. */
void ipc_conn_close_now(struct agx_ipc_conn *conn);

/* Packets read by this thread; busypoll.c watches it to see traffic. */
extern _Thread_local unsigned long ipc_activity;
uint64_t ipc_now_ns(void);

/* Builds an agx.ipc.Error in error, its formatted message in buf. */
void ipc_error_format(Agx__Ipc__Error *error, char *buf, size_t size, int code, const char *fmt,
		      va_list ap);

/* Copies a peer-supplied name, keeping printable ASCII only. */
void ipc_copy_name(char *dst, size_t size, const char *src);
const char *ipc_interface_name(int interface);

#endif
