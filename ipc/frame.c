/*
 * frame.c: one message per SOCK_SEQPACKET packet.  Encoding, the decoder
 * of untrusted frames (fuzzed by tests/ipc/fuzz-decode.c), and the
 * sendmsg/recvmsg pair that carries file descriptors with SCM_RIGHTS.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "agxipc/ipc.h"

_Static_assert(sizeof(struct agx_ipc_header) == 16, "the wire header is 16 bytes");

static void close_fds(const int *fds, unsigned num_fds)
{
	for (unsigned i = 0; i < num_fds; i++)
		if (fds[i] >= 0)
			close(fds[i]);
}

void agx_ipc_msg_finish(struct agx_ipc_msg *msg)
{
	if (msg->body)
		protobuf_c_message_free_unpacked(msg->body, NULL);
	msg->body = NULL;
	close_fds(msg->fds, msg->num_fds);
	msg->num_fds = 0;
}

int agx_ipc_msg_take_fd(struct agx_ipc_msg *msg, unsigned i)
{
	int fd;

	if (i >= msg->num_fds)
		return -1;
	fd = msg->fds[i];
	msg->fds[i] = -1;
	return fd;
}

/* The body descriptor and fd count a message of this kind carries. */
static const ProtobufCMessageDescriptor *body_of(const struct agx_ipc_msg_info *info,
						 uint16_t flags, int *fds)
{
	switch (flags) {
	case 0:
		*fds = info->request_fds;
		return info->kind == AGX_IPC_KIND_REQUEST ? info->request : NULL;
	case AGX_IPC_FLAG_REPLY:
		*fds = info->reply_fds;
		return info->reply;
	case AGX_IPC_FLAG_REPLY | AGX_IPC_FLAG_ERROR:
		*fds = 0;
		return info->kind == AGX_IPC_KIND_REQUEST ? &agx__ipc__error__descriptor : NULL;
	case AGX_IPC_FLAG_EVENT:
		*fds = info->request_fds;
		return info->kind == AGX_IPC_KIND_EVENT ? info->request : NULL;
	default:
		return NULL;
	}
}

/*
 * protobuf-c keeps fields it does not know (a newer minor version may send
 * them), but it also keeps field number 0 when that is spelled as an
 * over-long varint, which the protobuf encoding forbids.  Such a body is
 * malformed, at any depth.
 */
static bool fields_valid(const ProtobufCMessage *m)
{
	const ProtobufCMessageDescriptor *d = m->descriptor;
	const char *base = (const char *)m;

	for (unsigned i = 0; i < m->n_unknown_fields; i++)
		if (m->unknown_fields[i].tag == 0)
			return false;
	for (unsigned i = 0; i < d->n_fields; i++) {
		const ProtobufCFieldDescriptor *f = &d->fields[i];

		if (f->type != PROTOBUF_C_TYPE_MESSAGE)
			continue;
		if (f->label == PROTOBUF_C_LABEL_REPEATED) {
			size_t n = *(const size_t *)(base + f->quantifier_offset);
			ProtobufCMessage *const *sub =
			    *(ProtobufCMessage *const *const *)(base + f->offset);

			for (size_t k = 0; k < n; k++)
				if (!fields_valid(sub[k]))
					return false;
		} else {
			const ProtobufCMessage *sub =
			    *(ProtobufCMessage *const *)(base + f->offset);

			if (sub && !fields_valid(sub))
				return false;
		}
	}
	return true;
}

static bool fd_count_ok(int allowed, unsigned num_fds)
{
	if (allowed == AGX_IPC_FDS_ANY)
		return num_fds <= AGX_IPC_MAX_FDS;
	return num_fds == (unsigned)allowed;
}

size_t agx_ipc_frame_size(const ProtobufCMessage *body)
{
	return sizeof(struct agx_ipc_header) + protobuf_c_message_get_packed_size(body);
}

ssize_t agx_ipc_encode(uint8_t *buf, size_t cap, uint16_t type, uint16_t flags, uint32_t request_id,
		       const ProtobufCMessage *body, unsigned num_fds)
{
	const struct agx_ipc_msg_info *info = agx_ipc_msg_info(type);
	const ProtobufCMessageDescriptor *desc;
	struct agx_ipc_header hdr = { 0 };
	size_t len;
	int fds;

	if (!info || !body)
		return -EINVAL;
	desc = body_of(info, flags, &fds);
	if (!desc || body->descriptor != desc || !fd_count_ok(fds, num_fds))
		return -EINVAL;
	len = protobuf_c_message_get_packed_size(body);
	if (len > AGX_IPC_MAX_PAYLOAD || sizeof(hdr) + len > cap)
		return -EMSGSIZE;

	hdr.length = (uint32_t)len;
	hdr.request_id = request_id;
	hdr.type = type;
	hdr.flags = flags;
	hdr.num_fds = (uint8_t)num_fds;
	memcpy(buf, &hdr, sizeof(hdr));
	protobuf_c_message_pack(body, buf + sizeof(hdr));
	return (ssize_t)(sizeof(hdr) + len);
}

int agx_ipc_decode(const uint8_t *buf, size_t len, const int *fds, unsigned num_fds,
		   struct agx_ipc_msg *msg, struct agx_ipc_error *err)
{
	const ProtobufCMessageDescriptor *desc;
	struct agx_ipc_header hdr;
	int code = AGX__IPC__ERROR_CODE__ERROR_MALFORMED;
	int ret, allowed_fds;

	memset(msg, 0, sizeof(*msg));
	if (num_fds > AGX_IPC_MAX_FDS) {
		ret = agx_ipc_error_set(err, AGX__IPC__ERROR_CODE__ERROR_TOO_LARGE,
					"%u file descriptors, at most %d allowed", num_fds,
					AGX_IPC_MAX_FDS);
		goto fail;
	}
	if (len < sizeof(hdr)) {
		ret = agx_ipc_error_set(err, code, "frame of %zu bytes is shorter than its header",
					len);
		goto fail;
	}
	if (len > AGX_IPC_MAX_FRAME) {
		ret = agx_ipc_error_set(err, AGX__IPC__ERROR_CODE__ERROR_TOO_LARGE,
					"frame of %zu bytes exceeds the limit of %d", len,
					AGX_IPC_MAX_FRAME);
		goto fail;
	}
	memcpy(&hdr, buf, sizeof(hdr));
	if (hdr.reserved[0] || hdr.reserved[1] || hdr.reserved[2]) {
		ret = agx_ipc_error_set(err, code, "reserved header bytes are not zero");
		goto fail;
	}
	if (hdr.length != len - sizeof(hdr)) {
		ret = agx_ipc_error_set(err, code, "header announces %u body bytes, frame has %zu",
					hdr.length, len - sizeof(hdr));
		goto fail;
	}
	if (hdr.num_fds != num_fds) {
		ret = agx_ipc_error_set(err, code, "header announces %u fds, %u arrived",
					hdr.num_fds, num_fds);
		goto fail;
	}
	msg->info = agx_ipc_msg_info(hdr.type);
	if (!msg->info) {
		ret = agx_ipc_error_set(err, AGX__IPC__ERROR_CODE__ERROR_UNKNOWN_MESSAGE,
					"unknown message type 0x%04x", hdr.type);
		goto fail;
	}
	desc = body_of(msg->info, hdr.flags, &allowed_fds);
	if (!desc) {
		ret = agx_ipc_error_set(err, code, "flags 0x%x are not valid for %s", hdr.flags,
					msg->info->name);
		goto fail;
	}
	if (hdr.flags == AGX_IPC_FLAG_EVENT && hdr.request_id != 0) {
		ret = agx_ipc_error_set(err, code, "event %s carries request id %u",
					msg->info->name, hdr.request_id);
		goto fail;
	}
	if (!fd_count_ok(allowed_fds, num_fds)) {
		ret = agx_ipc_error_set(err, code, "%s carries %u fds, expected %d",
					msg->info->name, num_fds, allowed_fds);
		goto fail;
	}
	msg->body = protobuf_c_message_unpack(desc, NULL, hdr.length, buf + sizeof(hdr));
	if (msg->body && !fields_valid(msg->body)) {
		protobuf_c_message_free_unpacked(msg->body, NULL);
		msg->body = NULL;
	}
	if (!msg->body) {
		ret = agx_ipc_error_set(err, code, "%s body does not decode as %s", msg->info->name,
					desc->name);
		goto fail;
	}

	msg->type = hdr.type;
	msg->flags = hdr.flags;
	msg->request_id = hdr.request_id;
	msg->num_fds = num_fds;
	memcpy(msg->fds, fds, num_fds * sizeof(int));
	return 0;

fail:
	msg->info = NULL;
	close_fds(fds, num_fds);
	return ret;
}

int agx_ipc_send_frame(int sock, const uint8_t *buf, size_t len, const int *fds, unsigned num_fds)
{
	union {
		char buf[CMSG_SPACE(sizeof(int) * AGX_IPC_MAX_FDS)];
		struct cmsghdr align;
	} control;
	struct iovec iov = { .iov_base = (void *)buf, .iov_len = len };
	struct msghdr mh = { .msg_iov = &iov, .msg_iovlen = 1 };
	ssize_t n;

	if (num_fds > AGX_IPC_MAX_FDS)
		return -EINVAL;
	if (num_fds) {
		struct cmsghdr *cmsg;

		memset(&control, 0, sizeof(control));
		mh.msg_control = control.buf;
		mh.msg_controllen = CMSG_SPACE(sizeof(int) * num_fds);
		cmsg = CMSG_FIRSTHDR(&mh);
		cmsg->cmsg_level = SOL_SOCKET;
		cmsg->cmsg_type = SCM_RIGHTS;
		cmsg->cmsg_len = CMSG_LEN(sizeof(int) * num_fds);
		memcpy(CMSG_DATA(cmsg), fds, sizeof(int) * num_fds);
	}
	do
		n = sendmsg(sock, &mh, MSG_NOSIGNAL);
	while (n < 0 && errno == EINTR);
	if (n < 0)
		return -errno;
	/* SOCK_SEQPACKET sends a packet whole or not at all. */
	return n == (ssize_t)len ? 0 : -EIO;
}

ssize_t agx_ipc_recv_frame(int sock, uint8_t *buf, int *fds, unsigned *num_fds)
{
	union {
		/* Room for one fd more than allowed, so that too many is seen as such. */
		char buf[CMSG_SPACE(sizeof(int) * (AGX_IPC_MAX_FDS + 1))];
		struct cmsghdr align;
	} control;
	struct iovec iov = { .iov_base = buf, .iov_len = AGX_IPC_MAX_FRAME };
	struct msghdr mh = {
		.msg_iov = &iov,
		.msg_iovlen = 1,
		.msg_control = control.buf,
		.msg_controllen = sizeof(control.buf),
	};
	int received[AGX_IPC_MAX_FDS + 1];
	unsigned count = 0;
	ssize_t n;

	*num_fds = 0;
	do
		n = recvmsg(sock, &mh, MSG_CMSG_CLOEXEC | MSG_TRUNC);
	while (n < 0 && errno == EINTR);
	if (n < 0)
		return -errno;

	for (struct cmsghdr *c = CMSG_FIRSTHDR(&mh); c; c = CMSG_NXTHDR(&mh, c)) {
		size_t bytes;

		if (c->cmsg_level != SOL_SOCKET || c->cmsg_type != SCM_RIGHTS)
			continue;
		bytes = c->cmsg_len - CMSG_LEN(0);
		for (size_t i = 0; i < bytes / sizeof(int); i++) {
			int fd;

			memcpy(&fd, CMSG_DATA(c) + i * sizeof(int), sizeof(int));
			if (count < AGX_IPC_MAX_FDS + 1)
				received[count++] = fd;
			else
				close(fd);
		}
	}

	/* The kernel closes the fds that did not fit (MSG_CTRUNC); close ours. */
	if (count > AGX_IPC_MAX_FDS || (mh.msg_flags & (MSG_CTRUNC | MSG_TRUNC)) ||
	    n > AGX_IPC_MAX_FRAME) {
		close_fds(received, count);
		return -EMSGSIZE;
	}
	memcpy(fds, received, count * sizeof(int));
	*num_fds = count;
	return n;
}

int agx_ipc_send(int sock, uint16_t type, uint16_t flags, uint32_t request_id,
		 const ProtobufCMessage *body, const int *fds, unsigned num_fds)
{
	uint8_t small[512], *buf = small;
	size_t cap = body ? agx_ipc_frame_size(body) : 0;
	ssize_t len;
	int ret;

	if (cap > sizeof(small) && cap <= AGX_IPC_MAX_FRAME) {
		buf = malloc(cap);
		if (!buf)
			return -ENOMEM;
	}
	len = agx_ipc_encode(buf, buf == small ? sizeof(small) : cap, type, flags, request_id, body,
			     num_fds);
	ret = len < 0 ? (int)len : agx_ipc_send_frame(sock, buf, (size_t)len, fds, num_fds);
	if (buf != small)
		free(buf);
	return ret;
}
