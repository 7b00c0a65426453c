/*
 * libagxipc blocking client: for libraries that must not own an event
 * loop (libagx, tools).  Calls are serialized by the caller (one thread at
 * a time per client); a call may be split in its two halves to keep
 * requests in flight.
 */
#ifndef AGXIPC_CLIENT_H
#define AGXIPC_CLIENT_H

#include "ipc.h"

struct agx_ipc_client;

/* What the server said about itself in the handshake. */
struct agx_ipc_server_info {
	uint32_t version_major;
	uint32_t version_minor;
	uint32_t pid;
	uint64_t connection_id;
	char name[AGX_IPC_MAX_NAME + 1];
};

/*
 * Connects and does the handshake within timeout_ms (negative: no limit).
 * On failure returns a negative errno and fills err when the server sent
 * an error (a version mismatch, a wrong interface, ...).
 */
AGX_IPC_EXPORT int agx_ipc_client_connect(const char *path, int interface, const char *name,
					  int timeout_ms, struct agx_ipc_client **out,
					  struct agx_ipc_error *err);
AGX_IPC_EXPORT void agx_ipc_client_destroy(struct agx_ipc_client *client);
AGX_IPC_EXPORT const struct agx_ipc_server_info *
agx_ipc_client_server(const struct agx_ipc_client *client);
/* The socket, for poll(); readable when an event may be waiting. */
AGX_IPC_EXPORT int agx_ipc_client_fd(const struct agx_ipc_client *client);

/* Events that arrive while the client waits for a reply go here. */
typedef void (*agx_ipc_event_fn)(struct agx_ipc_msg *event, void *data);
AGX_IPC_EXPORT void agx_ipc_client_set_event_handler(struct agx_ipc_client *client,
						     agx_ipc_event_fn fn, void *data);
/* Delivers the events waiting on the socket, waiting at most timeout_ms. */
AGX_IPC_EXPORT int agx_ipc_client_dispatch_events(struct agx_ipc_client *client, int timeout_ms);

/*
 * Sends a request and waits at most timeout_ms for its reply.  Returns 0
 * with *reply filled (release it with agx_ipc_msg_finish), or a negative
 * errno: the error the server replied with (err filled), -ETIMEDOUT, or
 * -ECONNRESET when the server went away.  A reply that comes after its
 * call timed out is discarded by a later call.
 */
AGX_IPC_EXPORT int agx_ipc_client_call(struct agx_ipc_client *client, uint16_t type,
				       const ProtobufCMessage *body, const int *fds,
				       unsigned num_fds, struct agx_ipc_msg *reply, int timeout_ms,
				       struct agx_ipc_error *err);

/*
 * The two halves of a call, for a client that keeps several requests
 * unanswered: send one (its id in *id), and collect its reply later.
 * Replies are collected in the order the requests were sent; collecting
 * one discards the replies before it that nobody collected.
 */
AGX_IPC_EXPORT int agx_ipc_client_send_request(struct agx_ipc_client *client, uint16_t type,
					       const ProtobufCMessage *body, const int *fds,
					       unsigned num_fds, int timeout_ms, uint32_t *id,
					       struct agx_ipc_error *err);
AGX_IPC_EXPORT int agx_ipc_client_collect(struct agx_ipc_client *client, uint32_t id, uint16_t type,
					  struct agx_ipc_msg *reply, int timeout_ms,
					  struct agx_ipc_error *err);

#endif
