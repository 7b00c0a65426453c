/*
 * libagxipc framing: how one protobuf-c message travels in one
 * SOCK_SEQPACKET packet, with its file descriptors.  The wire format is
 * described in docs/ipc.md; this header is its C face.
 */
#ifndef AGXIPC_IPC_H
#define AGXIPC_IPC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "messages.h"

#define AGX_IPC_EXPORT __attribute__((visibility("default")))

/* Protocol version, checked in the Hello handshake (docs/ipc.md). */
#define AGX_IPC_VERSION_MAJOR 1
#define AGX_IPC_VERSION_MINOR 1

/* Limits: a packet is at most one header plus AGX_IPC_MAX_PAYLOAD bytes. */
#define AGX_IPC_MAX_FRAME	  (64 * 1024)
#define AGX_IPC_MAX_FDS		  4
#define AGX_IPC_MAX_ERROR_MESSAGE 255
#define AGX_IPC_MAX_NAME	  63

enum agx_ipc_flags {
	AGX_IPC_FLAG_REPLY = 1 << 0, /* a reply to the request with the same id */
	AGX_IPC_FLAG_ERROR = 1 << 1, /* with REPLY: the body is an agx.ipc.Error */
	AGX_IPC_FLAG_EVENT = 1 << 2, /* sent by a server unasked; request id 0 */
};

/* The fixed header at the start of every packet, in host byte order. */
struct agx_ipc_header {
	uint32_t length;     /* bytes of protobuf body after the header */
	uint32_t request_id; /* chosen by the client, echoed in the reply */
	uint16_t type;	     /* enum agx_ipc_msg_type */
	uint16_t flags;	     /* enum agx_ipc_flags */
	uint8_t num_fds;     /* file descriptors attached with SCM_RIGHTS */
	uint8_t reserved[3]; /* zero */
};

#define AGX_IPC_HEADER_SIZE ((size_t)sizeof(struct agx_ipc_header))
#define AGX_IPC_MAX_PAYLOAD (AGX_IPC_MAX_FRAME - AGX_IPC_HEADER_SIZE)

/* A decoded message: its header fields, unpacked body and received fds. */
struct agx_ipc_msg {
	uint16_t type;
	uint16_t flags;
	uint32_t request_id;
	const struct agx_ipc_msg_info *info;
	ProtobufCMessage *body; /* cast to the generated type of info */
	int fds[AGX_IPC_MAX_FDS];
	unsigned num_fds;
};

/* An error as the peer reported it (or as the transport saw it). */
struct agx_ipc_error {
	int code; /* Agx__Ipc__ErrorCode; 0 when there is none */
	char message[AGX_IPC_MAX_ERROR_MESSAGE + 1];
};

/* Frees the body and closes every fd the caller did not take. */
AGX_IPC_EXPORT void agx_ipc_msg_finish(struct agx_ipc_msg *msg);

/* Takes ownership of fd number i of the message; -1 when there is none. */
AGX_IPC_EXPORT int agx_ipc_msg_take_fd(struct agx_ipc_msg *msg, unsigned i);

/*
 * Packs header and body into buf, which has room for cap bytes.  The body
 * must be of the descriptor the table names for type and flags, and the fd
 * count one the table allows.  Returns the frame length, -EINVAL, or
 * -EMSGSIZE when the frame exceeds cap or AGX_IPC_MAX_FRAME.
 */
AGX_IPC_EXPORT ssize_t agx_ipc_encode(uint8_t *buf, size_t cap, uint16_t type, uint16_t flags,
				      uint32_t request_id, const ProtobufCMessage *body,
				      unsigned num_fds);

/* The length agx_ipc_encode() will give for this body. */
AGX_IPC_EXPORT size_t agx_ipc_frame_size(const ProtobufCMessage *body);

/*
 * Decodes one received frame of untrusted bytes.  On success the message
 * owns the fds.  On failure every fd is closed, err says why (a code
 * from agx.ipc.ErrorCode and a message), and a negative errno is returned.
 */
AGX_IPC_EXPORT int agx_ipc_decode(const uint8_t *buf, size_t len, const int *fds, unsigned num_fds,
				  struct agx_ipc_msg *msg, struct agx_ipc_error *err);

/*
 * Sends one frame with its fds on a SOCK_SEQPACKET socket.  A non-blocking
 * socket that is full gives -EAGAIN; nothing is half-sent.
 */
AGX_IPC_EXPORT int agx_ipc_send_frame(int sock, const uint8_t *buf, size_t len, const int *fds,
				      unsigned num_fds);

/*
 * Receives one packet into buf (AGX_IPC_MAX_FRAME bytes).  Returns its
 * length, 0 at end of stream, or a negative errno: -EMSGSIZE when the
 * packet or its fds exceed the limits (what arrived is discarded and its
 * fds closed), -EAGAIN when nothing is waiting on a non-blocking socket.
 */
AGX_IPC_EXPORT ssize_t agx_ipc_recv_frame(int sock, uint8_t *buf, int *fds, unsigned *num_fds);

/* Encodes and sends a message in one step (see agx_ipc_encode). */
AGX_IPC_EXPORT int agx_ipc_send(int sock, uint16_t type, uint16_t flags, uint32_t request_id,
				const ProtobufCMessage *body, const int *fds, unsigned num_fds);

/*
 * How long, in microseconds, a loop or a waiting client polls without
 * sleeping (AGX_IPC_BUSY_POLL_US, default 30; 0: never).  See busypoll.c.
 */
AGX_IPC_EXPORT unsigned agx_ipc_busy_poll_us(void);

/* What every busy-poll loop does between two looks: let a thread with work have the CPU. */
AGX_IPC_EXPORT void agx_ipc_busy_poll_relax(void);

/* --- errors --- */

/* The errno that stands for an agx.ipc.ErrorCode, and back. */
AGX_IPC_EXPORT int agx_ipc_error_to_errno(int code);
AGX_IPC_EXPORT int agx_ipc_errno_to_error(int err);
AGX_IPC_EXPORT const char *agx_ipc_error_name(int code);

/* Fills err (which may be NULL); returns -agx_ipc_error_to_errno(code). */
AGX_IPC_EXPORT int agx_ipc_error_set(struct agx_ipc_error *err, int code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

#endif
