/*
 * test-frame: the message table, encoding and decoding of every message
 * type, the decoder's rejections, and fd passing over a real socketpair.
 */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cmocka.h>

#include "agxipc/ipc.h"
#include "pbfill.h"

static bool fd_is_open(int fd)
{
	return fcntl(fd, F_GETFD) >= 0;
}

static void make_pair(int sv[2])
{
	assert_int_equal(socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv), 0);
}

static void test_table_sorted_and_complete(void **state)
{
	unsigned n;
	const struct agx_ipc_msg_info *t = agx_ipc_msg_table(&n);

	(void)state;
	assert_true(n > 30);
	for (unsigned i = 0; i < n; i++) {
		if (i)
			assert_true(t[i - 1].type < t[i].type);
		assert_ptr_equal(agx_ipc_msg_info(t[i].type), &t[i]);
		if (t[i].type == AGX_IPC_MSG_CONNECTION)
			continue;
		assert_non_null(t[i].request);
		if (t[i].kind == AGX_IPC_KIND_REQUEST)
			assert_non_null(t[i].reply);
		else
			assert_null(t[i].reply);
		/* a message lives in its interface's family (or the common one) */
		assert_true(agx_ipc_msg_family(t[i].type) <= AGX__IPC__INTERFACE__INTERFACE_DEVICE);
	}
	assert_null(agx_ipc_msg_info(0x7777));
}

/* Sends body as (type, flags) through a socketpair and checks what arrives. */
static void round_trip(int sv[2], uint8_t *buf, uint16_t type, uint16_t flags, uint32_t id,
		       const ProtobufCMessage *body)
{
	size_t len = protobuf_c_message_get_packed_size(body);
	uint8_t *want = malloc(len + 1), *got = malloc(len + 1);
	int fds[AGX_IPC_MAX_FDS];
	struct agx_ipc_error err;
	struct agx_ipc_msg msg;
	unsigned num_fds;
	ssize_t n;

	protobuf_c_message_pack(body, want);
	assert_int_equal(agx_ipc_send(sv[0], type, flags, id, body, NULL, 0), 0);
	n = agx_ipc_recv_frame(sv[1], buf, fds, &num_fds);
	assert_int_equal(n, (ssize_t)(AGX_IPC_HEADER_SIZE + len));
	assert_int_equal(num_fds, 0);
	assert_int_equal(agx_ipc_decode(buf, (size_t)n, fds, num_fds, &msg, &err), 0);
	assert_int_equal(msg.type, type);
	assert_int_equal(msg.flags, flags);
	assert_int_equal(msg.request_id, id);
	assert_ptr_equal(msg.body->descriptor, body->descriptor);
	assert_int_equal(protobuf_c_message_get_packed_size(msg.body), len);
	protobuf_c_message_pack(msg.body, got);
	assert_memory_equal(got, want, len);
	agx_ipc_msg_finish(&msg);
	free(want);
	free(got);
}

static void test_round_trip_every_message(void **state)
{
	uint8_t *buf = malloc(AGX_IPC_MAX_FRAME);
	const struct agx_ipc_msg_info *t;
	unsigned n, checked = 0;
	int sv[2];

	(void)state;
	make_pair(sv);
	t = agx_ipc_msg_table(&n);
	for (unsigned i = 0; i < n; i++) {
		ProtobufCMessage *body;

		if (t[i].type == AGX_IPC_MSG_CONNECTION)
			continue;
		/* HELLO and PING carry no fds; the others are sent fd-less only when allowed */
		body = pbfill_new(t[i].request, i);
		if (t[i].kind == AGX_IPC_KIND_EVENT) {
			round_trip(sv, buf, t[i].type, AGX_IPC_FLAG_EVENT, 0, body);
		} else if (t[i].request_fds <= 0) {
			round_trip(sv, buf, t[i].type, 0, 1000 + i, body);
		}
		protobuf_c_message_free_unpacked(body, NULL);
		checked++;

		if (t[i].reply && t[i].reply_fds <= 0) {
			body = pbfill_new(t[i].reply, i + 100);
			round_trip(sv, buf, t[i].type, AGX_IPC_FLAG_REPLY, 2000 + i, body);
			protobuf_c_message_free_unpacked(body, NULL);
		}
		if (t[i].kind == AGX_IPC_KIND_REQUEST) {
			body = pbfill_new(&agx__ipc__error__descriptor, i);
			round_trip(sv, buf, t[i].type, AGX_IPC_FLAG_REPLY | AGX_IPC_FLAG_ERROR,
				   3000 + i, body);
			protobuf_c_message_free_unpacked(body, NULL);
		}
	}
	assert_int_equal(checked, n - 1);
	close(sv[0]);
	close(sv[1]);
	free(buf);
}

/* Messages whose rows require fds travel with them, and the fds work. */
static void test_round_trip_with_fds(void **state)
{
	uint8_t *buf = malloc(AGX_IPC_MAX_FRAME);
	const struct agx_ipc_msg_info *t;
	unsigned n, with_fds = 0;
	int sv[2];

	(void)state;
	make_pair(sv);
	t = agx_ipc_msg_table(&n);
	for (unsigned i = 0; i < n; i++) {
		for (int dir = 0; dir < 2; dir++) {
			const ProtobufCMessageDescriptor *d = dir ? t[i].reply : t[i].request;
			int count = dir ? t[i].reply_fds : t[i].request_fds;
			uint16_t flags =
			    dir ? AGX_IPC_FLAG_REPLY
				: (t[i].kind == AGX_IPC_KIND_EVENT ? AGX_IPC_FLAG_EVENT : 0);
			int fds[AGX_IPC_MAX_FDS], got_fds[AGX_IPC_MAX_FDS];
			struct agx_ipc_msg msg;
			ProtobufCMessage *body;
			unsigned num;
			ssize_t len;

			if (!d || count == 0)
				continue;
			if (count == AGX_IPC_FDS_ANY)
				count = AGX_IPC_MAX_FDS;
			for (int k = 0; k < count; k++) {
				char c = (char)('a' + k);

				fds[k] = memfd_create("t", MFD_CLOEXEC);
				assert_int_equal(write(fds[k], &c, 1), 1);
			}
			body = pbfill_new(d, i);
			assert_int_equal(agx_ipc_send(sv[0], t[i].type, flags,
						      flags & AGX_IPC_FLAG_EVENT ? 0 : 7, body, fds,
						      (unsigned)count),
					 0);
			len = agx_ipc_recv_frame(sv[1], buf, got_fds, &num);
			assert_true(len > 0);
			assert_int_equal(num, count);
			assert_int_equal(agx_ipc_decode(buf, (size_t)len, got_fds, num, &msg, NULL),
					 0);
			for (int k = 0; k < count; k++) {
				char c = 0;
				int fd = agx_ipc_msg_take_fd(&msg, (unsigned)k);

				assert_int_equal(pread(fd, &c, 1, 0), 1);
				assert_int_equal(c, 'a' + k);
				close(fd);
				close(fds[k]);
			}
			agx_ipc_msg_finish(&msg);
			protobuf_c_message_free_unpacked(body, NULL);
			with_fds++;
		}
	}
	assert_true(with_fds >= 8);
	close(sv[0]);
	close(sv[1]);
	free(buf);
}

static void test_error_codes(void **state)
{
	const ProtobufCEnumDescriptor *e = &agx__ipc__error_code__descriptor;
	struct agx_ipc_error err;

	(void)state;
	for (unsigned i = 0; i < e->n_values; i++) {
		int code = e->values[i].value;

		if (code == 0)
			continue;
		/* every code has its own errno and name, and maps back */
		assert_int_equal(agx_ipc_errno_to_error(agx_ipc_error_to_errno(code)), code);
		assert_string_not_equal(agx_ipc_error_name(code), "unknown error");
		for (unsigned j = 0; j < i; j++)
			if (e->values[j].value)
				assert_int_not_equal(agx_ipc_error_to_errno(e->values[j].value),
						     agx_ipc_error_to_errno(code));
	}
	assert_int_equal(agx_ipc_error_set(&err, AGX__IPC__ERROR_CODE__ERROR_NOT_FOUND, "bo %d", 7),
			 -ENOENT);
	assert_string_equal(err.message, "bo 7");
	assert_int_equal(agx_ipc_errno_to_error(-EACCES),
			 AGX__IPC__ERROR_CODE__ERROR_PERMISSION_DENIED);
	assert_int_equal(agx_ipc_errno_to_error(E2BIG), AGX__IPC__ERROR_CODE__ERROR_INTERNAL);
}

/* Builds a frame of a QUERY request with the given header fields. */
static size_t frame(uint8_t *buf, uint16_t type, uint16_t flags, uint32_t id, uint8_t num_fds)
{
	Agx__Memmgr__Query q = AGX__MEMMGR__QUERY__INIT;
	ssize_t n =
	    agx_ipc_encode(buf, AGX_IPC_MAX_FRAME, AGX_IPC_MSG_MEMMGR_QUERY, 0, 1, &q.base, 0);
	struct agx_ipc_header *h = (struct agx_ipc_header *)buf;

	assert_true(n >= (ssize_t)AGX_IPC_HEADER_SIZE);
	h->type = type;
	h->flags = flags;
	h->request_id = id;
	h->num_fds = num_fds;
	return (size_t)n;
}

static void expect_reject(const uint8_t *buf, size_t len, const int *fds, unsigned num_fds,
			  int code, const char *words)
{
	struct agx_ipc_error err = { 0 };
	struct agx_ipc_msg msg;

	assert_true(agx_ipc_decode(buf, len, fds, num_fds, &msg, &err) < 0);
	assert_int_equal(err.code, code);
	assert_non_null(strstr(err.message, words));
	assert_null(msg.body);
	for (unsigned i = 0; i < num_fds; i++)
		assert_false(fd_is_open(fds[i]));
}

static void test_decode_rejects(void **state)
{
	const int MALFORMED = AGX__IPC__ERROR_CODE__ERROR_MALFORMED;
	uint8_t buf[256] = { 0 };
	size_t n;
	int fd;

	(void)state;
	expect_reject(buf, 5, NULL, 0, MALFORMED, "shorter than its header");

	n = frame(buf, AGX_IPC_MSG_MEMMGR_QUERY, 0, 1, 0);
	buf[13] = 1;
	expect_reject(buf, n, NULL, 0, MALFORMED, "reserved");

	n = frame(buf, AGX_IPC_MSG_MEMMGR_QUERY, 0, 1, 0);
	buf[n++] = 0x08; /* a body byte the header does not count */
	expect_reject(buf, n, NULL, 0, MALFORMED, "announces 0 body bytes");

	n = frame(buf, 0x7777, 0, 1, 0);
	expect_reject(buf, n, NULL, 0, AGX__IPC__ERROR_CODE__ERROR_UNKNOWN_MESSAGE, "0x7777");

	n = frame(buf, AGX_IPC_MSG_MEMMGR_QUERY, 0x40, 1, 0);
	expect_reject(buf, n, NULL, 0, MALFORMED, "flags");

	n = frame(buf, AGX_IPC_MSG_MEMMGR_QUERY, AGX_IPC_FLAG_EVENT, 0, 0);
	expect_reject(buf, n, NULL, 0, MALFORMED, "flags");

	n = frame(buf, AGX_IPC_MSG_CONNECTION, 0, 0, 0);
	expect_reject(buf, n, NULL, 0, MALFORMED, "flags");

	/* the header and the fds that arrived disagree: the fd is closed */
	fd = memfd_create("t", MFD_CLOEXEC);
	n = frame(buf, AGX_IPC_MSG_MEMMGR_QUERY, 0, 1, 0);
	expect_reject(buf, n, &fd, 1, MALFORMED, "announces 0 fds");

	/* a message whose row allows no fds */
	fd = memfd_create("t", MFD_CLOEXEC);
	n = frame(buf, AGX_IPC_MSG_MEMMGR_QUERY, 0, 1, 1);
	expect_reject(buf, n, &fd, 1, MALFORMED, "carries 1 fds, expected 0");

	/* a body that is not protobuf: field 1 of wire type 2 with a length past the end */
	n = frame(buf, AGX_IPC_MSG_PING, 0, 1, 0);
	buf[n++] = 0x0a;
	buf[n++] = 0x7f;
	((struct agx_ipc_header *)buf)->length = 2;
	expect_reject(buf, n, NULL, 0, MALFORMED, "does not decode");

	/* field number 0, spelled as an over-long varint (found by fuzz-decode) */
	n = frame(buf, AGX_IPC_MSG_PING, 0, 1, 0);
	memcpy(buf + n, "\x80\x00\xb5\x02", 4);
	((struct agx_ipc_header *)buf)->length = 4;
	expect_reject(buf, n + 4, NULL, 0, MALFORMED, "does not decode");
}

static void test_encode_rejects(void **state)
{
	Agx__Ipc__Ping ping = AGX__IPC__PING__INIT;
	Agx__Memmgr__Query q = AGX__MEMMGR__QUERY__INIT;
	uint8_t *buf = malloc(AGX_IPC_MAX_FRAME);

	(void)state;
	/* the body must be the table's type for this message and direction */
	assert_int_equal(agx_ipc_encode(buf, AGX_IPC_MAX_FRAME, AGX_IPC_MSG_PING, 0, 1, &q.base, 0),
			 -EINVAL);
	assert_int_equal(agx_ipc_encode(buf, AGX_IPC_MAX_FRAME, AGX_IPC_MSG_MEMMGR_QUERY,
					AGX_IPC_FLAG_REPLY, 1, &q.base, 0),
			 -EINVAL);
	assert_int_equal(
	    agx_ipc_encode(buf, AGX_IPC_MAX_FRAME, AGX_IPC_MSG_MEMMGR_QUERY, 0, 1, &q.base, 1),
	    -EINVAL);
	assert_int_equal(agx_ipc_encode(buf, AGX_IPC_MAX_FRAME, 0x7777, 0, 1, &q.base, 0), -EINVAL);
	/* too large for a frame, and too large for the buffer */
	ping.payload.len = AGX_IPC_MAX_PAYLOAD;
	ping.payload.data = calloc(1, ping.payload.len);
	assert_int_equal(
	    agx_ipc_encode(buf, AGX_IPC_MAX_FRAME, AGX_IPC_MSG_PING, 0, 1, &ping.base, 0),
	    -EMSGSIZE);
	ping.payload.len = 100;
	assert_int_equal(agx_ipc_encode(buf, 50, AGX_IPC_MSG_PING, 0, 1, &ping.base, 0), -EMSGSIZE);
	assert_true(agx_ipc_encode(buf, AGX_IPC_MAX_FRAME, AGX_IPC_MSG_PING, 0, 1, &ping.base, 0) >
		    100);
	free(ping.payload.data);
	free(buf);
}

static void test_recv_limits(void **state)
{
	uint8_t *big = calloc(1, AGX_IPC_MAX_FRAME + 100), *buf = malloc(AGX_IPC_MAX_FRAME);
	int sv[2], fds[AGX_IPC_MAX_FDS + 2], got[AGX_IPC_MAX_FDS];
	int sndbuf = 1 << 20;
	unsigned num;
	struct msghdr mh = { 0 };
	struct iovec iov;
	union {
		char b[CMSG_SPACE(sizeof(int) * (AGX_IPC_MAX_FDS + 2))];
		struct cmsghdr align;
	} control;
	struct cmsghdr *c;

	(void)state;
	make_pair(sv);
	setsockopt(sv[0], SOL_SOCKET, SO_SNDBUF, &sndbuf, sizeof(sndbuf));
	/* a packet over the limit is refused whole */
	assert_int_equal(send(sv[0], big, AGX_IPC_MAX_FRAME + 100, 0), AGX_IPC_MAX_FRAME + 100);
	assert_int_equal(agx_ipc_recv_frame(sv[1], buf, got, &num), -EMSGSIZE);
	assert_int_equal(num, 0);

	/* so is a packet with more fds than allowed, and none of them stays open here */
	for (int i = 0; i < AGX_IPC_MAX_FDS + 2; i++)
		fds[i] = memfd_create("t", MFD_CLOEXEC);
	iov.iov_base = big;
	iov.iov_len = 16;
	mh.msg_iov = &iov;
	mh.msg_iovlen = 1;
	mh.msg_control = control.b;
	mh.msg_controllen = sizeof(control.b);
	c = CMSG_FIRSTHDR(&mh);
	c->cmsg_level = SOL_SOCKET;
	c->cmsg_type = SCM_RIGHTS;
	c->cmsg_len = CMSG_LEN(sizeof(int) * (AGX_IPC_MAX_FDS + 2));
	memcpy(CMSG_DATA(c), fds, sizeof(int) * (AGX_IPC_MAX_FDS + 2));
	assert_int_equal(sendmsg(sv[0], &mh, 0), 16);
	int before = fcntl(0, F_DUPFD_CLOEXEC, 0);
	close(before);
	assert_int_equal(agx_ipc_recv_frame(sv[1], buf, got, &num), -EMSGSIZE);
	/* the lowest free fd number is unchanged: nothing received stayed open */
	int after = fcntl(0, F_DUPFD_CLOEXEC, 0);
	close(after);
	assert_int_equal(before, after);
	for (int i = 0; i < AGX_IPC_MAX_FDS + 2; i++)
		close(fds[i]);

	/* end of stream */
	close(sv[0]);
	assert_int_equal(agx_ipc_recv_frame(sv[1], buf, got, &num), 0);
	close(sv[1]);
	free(big);
	free(buf);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_table_sorted_and_complete),
		cmocka_unit_test(test_round_trip_every_message),
		cmocka_unit_test(test_round_trip_with_fds),
		cmocka_unit_test(test_error_codes),
		cmocka_unit_test(test_decode_rejects),
		cmocka_unit_test(test_encode_rejects),
		cmocka_unit_test(test_recv_limits),
	};

	return cmocka_run_group_tests_name("ipc-frame", tests, NULL, NULL);
}
