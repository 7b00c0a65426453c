/*
 * test-server: a libagxipc server on a real socket, met the way clients
 * meet it: handshakes good and bad, garbage, oversized and truncated
 * frames, fds, errors, deferred replies, events to one connection and to
 * all, a hundred concurrent clients, peers that vanish mid-request, and
 * 10,000 connect/disconnect cycles that must leave no fd or heap behind.
 * Also the asynchronous client.
 */
#include <errno.h>
#include <malloc.h>
#include <poll.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cmocka.h>
#include <event2/event.h>

#include "agxipc/client.h"
#include "agxipc/server.h"
#include "harness.h"

#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define UNDER_ASAN 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__)
#define UNDER_ASAN 1
#endif
#ifdef UNDER_ASAN
#include <sanitizer/allocator_interface.h>
#endif

#define IFACE			AGX__IPC__INTERFACE__INTERFACE_MEMMGR
#define DEFER_HANDLE		0xdefe
#define DEFER_WITH_EVENT_HANDLE 0xdeff
#define DEFER_ANSWERED_HANDLE	0xdf00 /* deferred, then answered before dispatch returns */
#define BROADCAST_HANDLE	0xb0ad /* BO_EXPORT's event goes to every connection */
#define TIMEOUT_MS		5000

static struct harness H;
static atomic_int deferred_result, deferred_done, deferred_pending;

struct deferred {
	struct agx_ipc_request *req;
	struct event *ev;
	bool with_event;
};

static void deferred_fire(evutil_socket_t fd, short what, void *arg)
{
	struct deferred *d = arg;
	Agx__Ipc__Empty empty = AGX__IPC__EMPTY__INIT;

	if (d->with_event) {
		Agx__Fwchan__TvbGrowEvent ev = AGX__FWCHAN__TVB_GROW_EVENT__INIT;

		ev.job_id = DEFER_WITH_EVENT_HANDLE;
		agx_ipc_conn_send_event(d->req->conn, AGX_IPC_MSG_FWCHAN_TVB_GROW, &ev.base, NULL,
					0);
	}
	atomic_store(&deferred_result, agx_ipc_reply(d->req, &empty.base, NULL, 0));
	atomic_store(&deferred_done, 1);
	atomic_fetch_sub(&deferred_pending, 1);
	event_free(d->ev);
	free(d);
}

/* The interface the tests talk to: a few memmgr messages with canned behaviour. */
static int test_dispatch(struct agx_ipc_request *req, void *data)
{
	switch (req->msg.type) {
	case AGX_IPC_MSG_MEMMGR_QUERY: {
		Agx__Memmgr__QueryReply r = AGX__MEMMGR__QUERY_REPLY__INIT;

		r.used_bytes = 42;
		r.page_size = 16384;
		r.quota_bytes = (uint64_t)agx_ipc_conn_peer(req->conn)->pid;
		return agx_ipc_reply(req, &r.base, NULL, 0);
	}
	case AGX_IPC_MSG_MEMMGR_BO_CLOSE: {
		const Agx__Memmgr__BoClose *c = (const Agx__Memmgr__BoClose *)req->msg.body;
		Agx__Ipc__Empty empty = AGX__IPC__EMPTY__INIT;

		if (c->handle == DEFER_HANDLE || c->handle == DEFER_WITH_EVENT_HANDLE) {
			struct deferred *d = calloc(1, sizeof(*d));
			struct timeval tv = { 0, 50 * 1000 };

			d->req = req;
			d->with_event = c->handle == DEFER_WITH_EVENT_HANDLE;
			d->ev = evtimer_new(H.base, deferred_fire, d);
			evtimer_add(d->ev, &tv);
			atomic_fetch_add(&deferred_pending, 1);
			agx_ipc_request_defer(req);
			return 0;
		}
		if (c->handle == DEFER_ANSWERED_HANDLE) {
			/* a callback that ran at once: the request is freed after dispatch */
			agx_ipc_request_defer(req);
			agx_ipc_reply(req, &empty.base, NULL, 0);
			return 0;
		}
		return agx_ipc_reply(req, &empty.base, NULL, 0);
	}
	case AGX_IPC_MSG_MEMMGR_VM_DESTROY:
		return -ENOENT;
	case AGX_IPC_MSG_MEMMGR_VM_CREATE:
		return 0; /* a buggy handler that forgets to reply */
	case AGX_IPC_MSG_MEMMGR_BO_CREATE: {
		Agx__Memmgr__BoCreateReply r = AGX__MEMMGR__BO_CREATE_REPLY__INIT;
		int fd = memfd_create("bo", MFD_CLOEXEC);
		int ret;

		assert_int_equal(write(fd, "agx-bo", 6), 6);
		r.handle = 7;
		r.size = 6;
		ret = agx_ipc_reply(req, &r.base, &fd, 1);
		close(fd);
		return ret;
	}
	case AGX_IPC_MSG_MEMMGR_BO_EXPORT: {
		const Agx__Memmgr__BoExport *x = (const Agx__Memmgr__BoExport *)req->msg.body;
		Agx__Fwchan__TvbGrowEvent ev = AGX__FWCHAN__TVB_GROW_EVENT__INIT;
		Agx__Memmgr__BoExportReply r = AGX__MEMMGR__BO_EXPORT_REPLY__INIT;

		ev.job_id = x->handle;
		ev.bytes = 99;
		if (x->handle == BROADCAST_HANDLE)
			agx_ipc_server_send_event_all(H.server, AGX_IPC_MSG_FWCHAN_TVB_GROW,
						      &ev.base);
		else
			agx_ipc_conn_send_event(req->conn, AGX_IPC_MSG_FWCHAN_TVB_GROW, &ev.base,
						NULL, 0);
		r.token.data = (uint8_t *)"tok";
		r.token.len = 3;
		return agx_ipc_reply(req, &r.base, NULL, 0);
	}
	default:
		return -EOPNOTSUPP;
	}
}

static const struct agx_ipc_server_ops test_ops = { .dispatch = test_dispatch };

static int setup(void **state)
{
	harness_start(&H, IFACE, &test_ops, NULL, 0, 0);
	return 0;
}

static int teardown(void **state)
{
	/* deferred replies still due are sent (or dropped) before the loop stops */
	while (atomic_load(&deferred_pending))
		usleep(1000);
	harness_stop(&H);
	return 0;
}

static struct agx_ipc_client *connect_ok(void)
{
	struct agx_ipc_client *c = NULL;
	struct agx_ipc_error err;

	assert_int_equal(agx_ipc_client_connect(H.path, IFACE, "test", TIMEOUT_MS, &c, &err), 0);
	return c;
}

static void set_timeout(int fd)
{
	struct timeval tv = { 5, 0 };

	setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
}

/* Receives one frame from a raw socket and expects an error reply with code. */
static void expect_error(int fd, int code, uint16_t type, uint32_t id)
{
	uint8_t *buf = malloc(AGX_IPC_MAX_FRAME);
	int fds[AGX_IPC_MAX_FDS];
	struct agx_ipc_msg msg;
	unsigned num;
	ssize_t n = agx_ipc_recv_frame(fd, buf, fds, &num);

	assert_true(n > 0);
	assert_int_equal(agx_ipc_decode(buf, (size_t)n, fds, num, &msg, NULL), 0);
	assert_int_equal(msg.flags, AGX_IPC_FLAG_REPLY | AGX_IPC_FLAG_ERROR);
	assert_int_equal(msg.type, type);
	assert_int_equal(msg.request_id, id);
	assert_int_equal(((Agx__Ipc__Error *)msg.body)->code, code);
	agx_ipc_msg_finish(&msg);
	free(buf);
}

/* The server closed its end: the next receive sees the end of the stream. */
static void expect_eof(int fd)
{
	uint8_t *buf = malloc(AGX_IPC_MAX_FRAME);
	int fds[AGX_IPC_MAX_FDS];
	unsigned num;

	assert_int_equal(agx_ipc_recv_frame(fd, buf, fds, &num), 0);
	free(buf);
}

static void send_hello(int fd, uint32_t major, int interface)
{
	Agx__Ipc__Hello hello = AGX__IPC__HELLO__INIT;

	hello.version_major = major;
	hello.interface = interface;
	hello.client_name = "raw\x01\x7f client";
	assert_int_equal(agx_ipc_send(fd, AGX_IPC_MSG_HELLO, 0, 1, &hello.base, NULL, 0), 0);
}

/* A raw socket that has completed the handshake. */
static int raw_ready(void)
{
	uint8_t *buf = malloc(AGX_IPC_MAX_FRAME);
	int fd = raw_connect(H.path), fds[AGX_IPC_MAX_FDS];
	struct agx_ipc_msg msg;
	unsigned num;
	ssize_t n;

	set_timeout(fd);
	send_hello(fd, AGX_IPC_VERSION_MAJOR, IFACE);
	n = agx_ipc_recv_frame(fd, buf, fds, &num);
	assert_int_equal(agx_ipc_decode(buf, (size_t)n, fds, num, &msg, NULL), 0);
	assert_int_equal(msg.flags, AGX_IPC_FLAG_REPLY);
	agx_ipc_msg_finish(&msg);
	free(buf);
	return fd;
}

/* After any abuse, the server still serves a well-behaved client. */
static void assert_server_alive(void)
{
	struct agx_ipc_client *c = connect_ok();
	Agx__Memmgr__Query q = AGX__MEMMGR__QUERY__INIT;
	struct agx_ipc_msg reply;

	assert_int_equal(agx_ipc_client_call(c, AGX_IPC_MSG_MEMMGR_QUERY, &q.base, NULL, 0, &reply,
					     TIMEOUT_MS, NULL),
			 0);
	assert_int_equal(((Agx__Memmgr__QueryReply *)reply.body)->used_bytes, 42);
	agx_ipc_msg_finish(&reply);
	agx_ipc_client_destroy(c);
}

static void test_handshake(void **state)
{
	struct agx_ipc_client *c = connect_ok();
	const struct agx_ipc_server_info *info = agx_ipc_client_server(c);
	Agx__Memmgr__Query q = AGX__MEMMGR__QUERY__INIT;
	struct agx_ipc_msg reply;

	assert_string_equal(info->name, "test-server");
	assert_int_equal(info->pid, getpid());
	assert_int_equal(info->version_major, AGX_IPC_VERSION_MAJOR);
	assert_int_equal(info->version_minor, AGX_IPC_VERSION_MINOR);
	assert_true(info->connection_id > 0);
	/* the server knows who we are from SO_PEERCRED */
	assert_int_equal(agx_ipc_client_call(c, AGX_IPC_MSG_MEMMGR_QUERY, &q.base, NULL, 0, &reply,
					     TIMEOUT_MS, NULL),
			 0);
	assert_int_equal(((Agx__Memmgr__QueryReply *)reply.body)->quota_bytes, getpid());
	agx_ipc_msg_finish(&reply);
	agx_ipc_client_destroy(c);
}

static void test_version_mismatch(void **state)
{
	int fd = raw_connect(H.path);

	set_timeout(fd);
	send_hello(fd, AGX_IPC_VERSION_MAJOR + 1, IFACE);
	expect_error(fd, AGX__IPC__ERROR_CODE__ERROR_VERSION_MISMATCH, AGX_IPC_MSG_HELLO, 1);
	expect_eof(fd);
	close(fd);
	assert_server_alive();
}

static void test_wrong_interface(void **state)
{
	struct agx_ipc_client *c = NULL;
	struct agx_ipc_error err;

	assert_int_equal(agx_ipc_client_connect(H.path, AGX__IPC__INTERFACE__INTERFACE_SCHEDULER,
						"test", TIMEOUT_MS, &c, &err),
			 -EPROTOTYPE);
	assert_int_equal(err.code, AGX__IPC__ERROR_CODE__ERROR_WRONG_INTERFACE);
	assert_non_null(strstr(err.message, "INTERFACE_MEMMGR"));
	assert_null(c);
}

static void test_request_before_hello(void **state)
{
	Agx__Memmgr__Query q = AGX__MEMMGR__QUERY__INIT;
	int fd = raw_connect(H.path);

	set_timeout(fd);
	assert_int_equal(agx_ipc_send(fd, AGX_IPC_MSG_MEMMGR_QUERY, 0, 5, &q.base, NULL, 0), 0);
	expect_error(fd, AGX__IPC__ERROR_CODE__ERROR_PROTOCOL, AGX_IPC_MSG_MEMMGR_QUERY, 5);
	expect_eof(fd);
	close(fd);
}

static void test_hello_twice(void **state)
{
	int fd = raw_ready();

	send_hello(fd, AGX_IPC_VERSION_MAJOR, IFACE);
	expect_error(fd, AGX__IPC__ERROR_CODE__ERROR_PROTOCOL, AGX_IPC_MSG_HELLO, 1);
	expect_eof(fd);
	close(fd);
}

static void test_garbage(void **state)
{
	uint8_t junk[333];
	int fd = raw_ready();

	for (unsigned i = 0; i < sizeof(junk); i++)
		junk[i] = (uint8_t)(i * 151 + 7);
	assert_int_equal(send(fd, junk, sizeof(junk), 0), (ssize_t)sizeof(junk));
	expect_error(fd, AGX__IPC__ERROR_CODE__ERROR_MALFORMED, 0, 0);
	expect_eof(fd);
	close(fd);
	assert_server_alive();
}

static void test_truncated(void **state)
{
	Agx__Ipc__Ping ping = AGX__IPC__PING__INIT;
	uint8_t buf[256];
	int fd = raw_ready();
	ssize_t n;

	ping.payload.data = (uint8_t *)"0123456789";
	ping.payload.len = 10;
	n = agx_ipc_encode(buf, sizeof(buf), AGX_IPC_MSG_PING, 0, 9, &ping.base, 0);
	assert_true(n > 20);
	/* the header promises more than the packet holds */
	assert_int_equal(send(fd, buf, (size_t)n - 4, 0), n - 4);
	expect_error(fd, AGX__IPC__ERROR_CODE__ERROR_MALFORMED, AGX_IPC_MSG_PING, 9);
	expect_eof(fd);
	close(fd);
	assert_server_alive();
}

static void test_oversized(void **state)
{
	size_t size = AGX_IPC_MAX_FRAME + 4096;
	uint8_t *big = calloc(1, size);
	int sndbuf = 1 << 20;
	int fd = raw_ready();

	setsockopt(fd, SOL_SOCKET, SO_SNDBUF, &sndbuf, sizeof(sndbuf));
	assert_int_equal(send(fd, big, size, 0), (ssize_t)size);
	expect_error(fd, AGX__IPC__ERROR_CODE__ERROR_TOO_LARGE, 0, 0);
	expect_eof(fd);
	close(fd);
	free(big);
	assert_server_alive();
}

/* fds sent with a rejected message are closed by the server, not kept. */
static void test_rejected_fds_are_closed(void **state)
{
	Agx__Memmgr__Query q = AGX__MEMMGR__QUERY__INIT;
	uint8_t buf[64];
	struct agx_ipc_header *h = (struct agx_ipc_header *)buf;
	ssize_t n = agx_ipc_encode(buf, sizeof(buf), AGX_IPC_MSG_MEMMGR_QUERY, 0, 3, &q.base, 0);
	int fd, memfd;
	unsigned before;

	/* earlier tests' connections are closed on the server side first */
	assert_true(harness_wait_disconnects(&H, atomic_load(&H.connects)));
	fd = raw_ready();
	memfd = memfd_create("probe", MFD_CLOEXEC);
	before = count_open_fds();

	h->num_fds = 1; /* QUERY carries no fds */
	assert_int_equal(agx_ipc_send_frame(fd, buf, (size_t)n, &memfd, 1), 0);
	expect_error(fd, AGX__IPC__ERROR_CODE__ERROR_MALFORMED, AGX_IPC_MSG_MEMMGR_QUERY, 3);
	expect_eof(fd);
	close(fd);
	close(memfd);
	assert_true(harness_wait_disconnects(&H, atomic_load(&H.connects)));
	/*
	 * Three fds fewer: our socket, our memfd and the server's end of the
	 * connection (the server runs in this process).  The server's copy of
	 * the memfd, received with the rejected frame, is gone too.
	 */
	assert_int_equal(count_open_fds(), before - 3);
}

static void test_fd_passing(void **state)
{
	struct agx_ipc_client *c = connect_ok();
	Agx__Ipc__Ping ping = AGX__IPC__PING__INIT;
	Agx__Memmgr__BoCreate bc = AGX__MEMMGR__BO_CREATE__INIT;
	int fds[2] = { memfd_create("a", MFD_CLOEXEC), memfd_create("b", MFD_CLOEXEC) };
	struct agx_ipc_msg reply;
	char text[8] = { 0 };

	ping.payload.data = (uint8_t *)"hi";
	ping.payload.len = 2;
	assert_int_equal(
	    agx_ipc_client_call(c, AGX_IPC_MSG_PING, &ping.base, fds, 2, &reply, TIMEOUT_MS, NULL),
	    0);
	assert_int_equal(reply.num_fds, 2);
	assert_memory_equal(((Agx__Ipc__PingReply *)reply.body)->payload.data, "hi", 2);
	/* what we write through our fd reads back through the one that came back */
	assert_int_equal(pwrite(fds[1], "shared", 6, 0), 6);
	assert_int_equal(pread(reply.fds[1], text, 6, 0), 6);
	assert_string_equal(text, "shared");
	assert_int_not_equal(reply.fds[1], fds[1]);
	agx_ipc_msg_finish(&reply);
	close(fds[0]);
	close(fds[1]);

	/* a reply whose row carries an fd */
	assert_int_equal(agx_ipc_client_call(c, AGX_IPC_MSG_MEMMGR_BO_CREATE, &bc.base, NULL, 0,
					     &reply, TIMEOUT_MS, NULL),
			 0);
	assert_int_equal(reply.num_fds, 1);
	memset(text, 0, sizeof(text));
	assert_int_equal(pread(reply.fds[0], text, 6, 0), 6);
	assert_string_equal(text, "agx-bo");
	agx_ipc_msg_finish(&reply);
	agx_ipc_client_destroy(c);
}

static void test_error_replies_keep_connection(void **state)
{
	struct agx_ipc_client *c = connect_ok();
	Agx__Memmgr__VmDestroy vd = AGX__MEMMGR__VM_DESTROY__INIT;
	Agx__Memmgr__VmCreate vc = AGX__MEMMGR__VM_CREATE__INIT;
	Agx__Memmgr__KernelFree kf = AGX__MEMMGR__KERNEL_FREE__INIT;
	Agx__Memmgr__BoImport bi = AGX__MEMMGR__BO_IMPORT__INIT;
	struct agx_ipc_error err;
	struct agx_ipc_msg reply;

	/* the handler's errno becomes the error */
	assert_int_equal(agx_ipc_client_call(c, AGX_IPC_MSG_MEMMGR_VM_DESTROY, &vd.base, NULL, 0,
					     &reply, TIMEOUT_MS, &err),
			 -ENOENT);
	assert_int_equal(err.code, AGX__IPC__ERROR_CODE__ERROR_NOT_FOUND);
	/* a handler that forgot to reply still produces one */
	assert_int_equal(agx_ipc_client_call(c, AGX_IPC_MSG_MEMMGR_VM_CREATE, &vc.base, NULL, 0,
					     &reply, TIMEOUT_MS, &err),
			 -EIO);
	assert_int_equal(err.code, AGX__IPC__ERROR_CODE__ERROR_INTERNAL);
	/* a privileged message on the client socket */
	assert_int_equal(agx_ipc_client_call(c, AGX_IPC_MSG_MEMMGR_KERNEL_FREE, &kf.base, NULL, 0,
					     &reply, TIMEOUT_MS, &err),
			 -ENOSYS);
	assert_int_equal(err.code, AGX__IPC__ERROR_CODE__ERROR_UNKNOWN_MESSAGE);
	assert_non_null(strstr(err.message, "MEMMGR_KERNEL_FREE"));
	/* unsupported by this server */
	assert_int_equal(agx_ipc_client_call(c, AGX_IPC_MSG_MEMMGR_BO_IMPORT, &bi.base, NULL, 0,
					     &reply, TIMEOUT_MS, &err),
			 -EOPNOTSUPP);
	/* and the connection still works */
	assert_int_equal(agx_ipc_client_call(c, AGX_IPC_MSG_MEMMGR_VM_CREATE, &vc.base, NULL, 0,
					     &reply, TIMEOUT_MS, &err),
			 -EIO);
	agx_ipc_client_destroy(c);
}

static int events_seen;
static uint64_t last_event_job;

static void on_event(struct agx_ipc_msg *msg, void *data)
{
	assert_int_equal(msg->type, AGX_IPC_MSG_FWCHAN_TVB_GROW);
	last_event_job = ((Agx__Fwchan__TvbGrowEvent *)msg->body)->job_id;
	events_seen++;
}

static void test_events_during_call(void **state)
{
	struct agx_ipc_client *c = connect_ok();
	Agx__Memmgr__BoExport x = AGX__MEMMGR__BO_EXPORT__INIT;
	struct agx_ipc_msg reply;

	agx_ipc_client_set_event_handler(c, on_event, NULL);
	x.handle = 1234;
	assert_int_equal(agx_ipc_client_call(c, AGX_IPC_MSG_MEMMGR_BO_EXPORT, &x.base, NULL, 0,
					     &reply, TIMEOUT_MS, NULL),
			 0);
	assert_int_equal(events_seen, 1);
	assert_int_equal(last_event_job, 1234);
	assert_int_equal(((Agx__Memmgr__BoExportReply *)reply.body)->token.len, 3);
	agx_ipc_msg_finish(&reply);
	agx_ipc_client_destroy(c);
}

static void test_call_timeout_then_late_reply(void **state)
{
	struct agx_ipc_client *c = connect_ok();
	Agx__Memmgr__BoClose bc = AGX__MEMMGR__BO_CLOSE__INIT;
	Agx__Memmgr__Query q = AGX__MEMMGR__QUERY__INIT;
	struct agx_ipc_msg reply;

	atomic_store(&deferred_done, 0);
	bc.handle = DEFER_HANDLE;
	assert_int_equal(
	    agx_ipc_client_call(c, AGX_IPC_MSG_MEMMGR_BO_CLOSE, &bc.base, NULL, 0, &reply, 5, NULL),
	    -ETIMEDOUT);
	while (!atomic_load(&deferred_done))
		usleep(1000);
	assert_int_equal(atomic_load(&deferred_result), 0);
	/* the late reply is skipped; this call gets its own */
	assert_int_equal(agx_ipc_client_call(c, AGX_IPC_MSG_MEMMGR_QUERY, &q.base, NULL, 0, &reply,
					     TIMEOUT_MS, NULL),
			 0);
	assert_int_equal(reply.type, AGX_IPC_MSG_MEMMGR_QUERY);
	agx_ipc_msg_finish(&reply);
	agx_ipc_client_destroy(c);
}

/* A deferred request may be answered before its dispatch returns, once. */
static void test_deferred_answered_at_once(void **state)
{
	struct agx_ipc_client *c = connect_ok();
	Agx__Memmgr__BoClose bc = AGX__MEMMGR__BO_CLOSE__INIT;
	Agx__Memmgr__Query q = AGX__MEMMGR__QUERY__INIT;
	struct agx_ipc_msg reply;

	bc.handle = DEFER_ANSWERED_HANDLE;
	for (int i = 0; i < 3; i++) {
		assert_int_equal(agx_ipc_client_call(c, AGX_IPC_MSG_MEMMGR_BO_CLOSE, &bc.base, NULL,
						     0, &reply, TIMEOUT_MS, NULL),
				 0);
		assert_int_equal(reply.flags, AGX_IPC_FLAG_REPLY);
		agx_ipc_msg_finish(&reply);
	}
	/* nothing more came for it: the next call's reply is its own */
	assert_int_equal(agx_ipc_client_call(c, AGX_IPC_MSG_MEMMGR_QUERY, &q.base, NULL, 0, &reply,
					     TIMEOUT_MS, NULL),
			 0);
	assert_int_equal(reply.type, AGX_IPC_MSG_MEMMGR_QUERY);
	agx_ipc_msg_finish(&reply);
	agx_ipc_client_destroy(c);
}

static void count_broadcast(struct agx_ipc_msg *msg, void *data)
{
	unsigned *seen = data;

	assert_int_equal(msg->type, AGX_IPC_MSG_FWCHAN_TVB_GROW);
	assert_int_equal(((Agx__Fwchan__TvbGrowEvent *)msg->body)->job_id, BROADCAST_HANDLE);
	(*seen)++;
}

/* An event sent to all reaches every connection once: the caller, and clients that only listen. */
static void test_event_to_all(void **state)
{
	Agx__Memmgr__BoExport x = AGX__MEMMGR__BO_EXPORT__INIT;
	struct agx_ipc_client *c[3];
	unsigned seen[3] = { 0 };
	struct agx_ipc_msg reply;

	for (unsigned i = 0; i < 3; i++) {
		c[i] = connect_ok();
		agx_ipc_client_set_event_handler(c[i], count_broadcast, &seen[i]);
	}
	x.handle = BROADCAST_HANDLE;
	assert_int_equal(agx_ipc_client_call(c[0], AGX_IPC_MSG_MEMMGR_BO_EXPORT, &x.base, NULL, 0,
					     &reply, TIMEOUT_MS, NULL),
			 0);
	agx_ipc_msg_finish(&reply);
	assert_int_equal(seen[0], 1); /* before its reply */
	for (unsigned i = 1; i < 3; i++) {
		assert_int_equal(agx_ipc_client_dispatch_events(c[i], TIMEOUT_MS), 1);
		assert_int_equal(agx_ipc_client_dispatch_events(c[i], 10), 0);
		assert_int_equal(seen[i], 1);
	}
	for (unsigned i = 0; i < 3; i++)
		agx_ipc_client_destroy(c[i]);
}

/* Events that arrive between calls are delivered on request. */
static void test_dispatch_events_between_calls(void **state)
{
	struct agx_ipc_client *c = connect_ok();
	Agx__Memmgr__BoClose bc = AGX__MEMMGR__BO_CLOSE__INIT;
	struct agx_ipc_msg reply;

	events_seen = 0;
	agx_ipc_client_set_event_handler(c, on_event, NULL);
	/* nothing waiting: the wait times out and delivers nothing */
	assert_int_equal(agx_ipc_client_dispatch_events(c, 10), 0);
	atomic_store(&deferred_done, 0);
	bc.handle = DEFER_WITH_EVENT_HANDLE;
	assert_int_equal(
	    agx_ipc_client_call(c, AGX_IPC_MSG_MEMMGR_BO_CLOSE, &bc.base, NULL, 0, &reply, 1, NULL),
	    -ETIMEDOUT);
	/* the event comes after the call gave up; the late reply behind it is dropped */
	assert_int_equal(agx_ipc_client_dispatch_events(c, TIMEOUT_MS), 1);
	assert_int_equal(events_seen, 1);
	assert_int_equal(last_event_job, DEFER_WITH_EVENT_HANDLE);
	while (!atomic_load(&deferred_done))
		usleep(1000);
	assert_int_equal(agx_ipc_client_dispatch_events(c, 10), 0);
	assert_int_equal(events_seen, 1);
	agx_ipc_client_destroy(c);
}

static void test_disconnect_mid_request(void **state)
{
	Agx__Memmgr__BoClose bc = AGX__MEMMGR__BO_CLOSE__INIT;
	int fd = raw_ready();
	unsigned gone = atomic_load(&H.disconnects);

	atomic_store(&deferred_done, 0);
	bc.handle = DEFER_HANDLE;
	assert_int_equal(agx_ipc_send(fd, AGX_IPC_MSG_MEMMGR_BO_CLOSE, 0, 2, &bc.base, NULL, 0), 0);
	close(fd);
	assert_true(harness_wait_disconnects(&H, gone + 1));
	while (!atomic_load(&deferred_done))
		usleep(1000);
	/* the reply found its connection gone, and the request was still freed */
	assert_int_equal(atomic_load(&deferred_result), -ENOTCONN);
	assert_server_alive();
}

static void test_half_closed(void **state)
{
	Agx__Ipc__Ping ping = AGX__IPC__PING__INIT;
	uint8_t *buf = malloc(AGX_IPC_MAX_FRAME);
	int fd = raw_ready(), fds[AGX_IPC_MAX_FDS];
	unsigned gone = atomic_load(&H.disconnects), num;
	struct agx_ipc_msg msg;
	ssize_t n;

	assert_int_equal(agx_ipc_send(fd, AGX_IPC_MSG_PING, 0, 4, &ping.base, NULL, 0), 0);
	shutdown(fd, SHUT_WR);
	/* a request sent before the half-close is answered; then the server closes */
	n = agx_ipc_recv_frame(fd, buf, fds, &num);
	assert_int_equal(agx_ipc_decode(buf, (size_t)n, fds, num, &msg, NULL), 0);
	assert_int_equal(msg.request_id, 4);
	assert_int_equal(msg.flags, AGX_IPC_FLAG_REPLY);
	agx_ipc_msg_finish(&msg);
	expect_eof(fd);
	assert_true(harness_wait_disconnects(&H, gone + 1));
	close(fd);
	free(buf);
}

#define NUM_CLIENTS	 100
#define CALLS_PER_CLIENT 200

static void *client_thread(void *arg)
{
	uintptr_t id = (uintptr_t)arg, ok = 0;
	struct agx_ipc_client *c;

	if (agx_ipc_client_connect(H.path, IFACE, "many", TIMEOUT_MS, &c, NULL) < 0)
		return (void *)0;
	for (int i = 0; i < CALLS_PER_CLIENT; i++) {
		Agx__Ipc__Ping ping = AGX__IPC__PING__INIT;
		struct agx_ipc_msg reply;
		char text[32];
		const Agx__Ipc__PingReply *r;

		snprintf(text, sizeof(text), "%lu/%d", (unsigned long)id, i);
		ping.payload.data = (uint8_t *)text;
		ping.payload.len = strlen(text);
		if (agx_ipc_client_call(c, AGX_IPC_MSG_PING, &ping.base, NULL, 0, &reply,
					TIMEOUT_MS, NULL) < 0)
			break;
		r = (const Agx__Ipc__PingReply *)reply.body;
		if (r->payload.len == strlen(text) &&
		    !memcmp(r->payload.data, text, r->payload.len))
			ok++;
		agx_ipc_msg_finish(&reply);
	}
	agx_ipc_client_destroy(c);
	return (void *)ok;
}

static void test_many_concurrent_clients(void **state)
{
	pthread_t threads[NUM_CLIENTS];
	unsigned total = 0;

	for (uintptr_t i = 0; i < NUM_CLIENTS; i++)
		assert_int_equal(pthread_create(&threads[i], NULL, client_thread, (void *)i), 0);
	for (int i = 0; i < NUM_CLIENTS; i++) {
		void *ok;

		pthread_join(threads[i], &ok);
		total += (unsigned)(uintptr_t)ok;
	}
	/* every reply arrived, on the right connection, with the right payload */
	assert_int_equal(total, NUM_CLIENTS * CALLS_PER_CLIENT);
}

static size_t heap_in_use(void)
{
#ifdef UNDER_ASAN
	return __sanitizer_get_current_allocated_bytes();
#else
	return mallinfo2().uordblks;
#endif
}

static void cycle(unsigned n)
{
	for (unsigned i = 0; i < n; i++)
		agx_ipc_client_destroy(connect_ok());
	assert_true(harness_wait_disconnects(&H, atomic_load(&H.connects)));
}

static void test_connect_disconnect_cycles(void **state)
{
	unsigned fds_before;
	size_t heap_before, heap_after;

	cycle(200); /* let allocators and libevent reach their steady state */
	fds_before = count_open_fds();
	heap_before = heap_in_use();
	cycle(10000);
	heap_after = heap_in_use();
	assert_int_equal(count_open_fds(), fds_before);
	/* 10,000 cycles: a leak of even 8 bytes per cycle would exceed this */
	assert_true(heap_after < heap_before + 64 * 1024);
}

static void test_connection_limit(void **state)
{
	struct harness small;
	struct agx_ipc_client *a, *b, *c = NULL;
	struct agx_ipc_error err;

	harness_start(&small, IFACE, &test_ops, NULL, 2, 0);
	assert_int_equal(agx_ipc_client_connect(small.path, IFACE, "a", TIMEOUT_MS, &a, NULL), 0);
	assert_int_equal(agx_ipc_client_connect(small.path, IFACE, "b", TIMEOUT_MS, &b, NULL), 0);
	assert_int_equal(agx_ipc_client_connect(small.path, IFACE, "c", TIMEOUT_MS, &c, &err),
			 -EBUSY);
	assert_int_equal(err.code, AGX__IPC__ERROR_CODE__ERROR_BUSY);
	agx_ipc_client_destroy(a);
	assert_true(harness_wait_disconnects(&small, 1));
	assert_int_equal(agx_ipc_client_connect(small.path, IFACE, "c", TIMEOUT_MS, &c, NULL), 0);
	agx_ipc_client_destroy(b);
	agx_ipc_client_destroy(c);
	harness_stop(&small);
}

/*
 * Connections that never say HELLO fill every slot; the deadline closes
 * them (a TIMEOUT error first), and a client that did say it stays.
 */
static void test_hello_deadline(void **state)
{
	enum { SLOTS = 8 };
	Agx__Ipc__Ping ping = AGX__IPC__PING__INIT;
	struct agx_ipc_client *early, *late = NULL;
	struct agx_ipc_msg reply;
	struct harness small;
	int idle[SLOTS - 1], ret = -EBUSY;

	/* the environment sets it for servers that do not set their own */
	setenv("AGX_IPC_HELLO_TIMEOUT_MS", "300", 1);
	harness_start(&small, IFACE, &test_ops, NULL, SLOTS, 0);
	unsetenv("AGX_IPC_HELLO_TIMEOUT_MS");
	assert_int_equal(
	    agx_ipc_client_connect(small.path, IFACE, "early", TIMEOUT_MS, &early, NULL), 0);
	for (unsigned i = 0; i < SLOTS - 1; i++) {
		idle[i] = raw_connect(small.path);
		set_timeout(idle[i]);
	}
	/* each idle one is told why, then closed */
	for (unsigned i = 0; i < SLOTS - 1; i++) {
		expect_error(idle[i], AGX__IPC__ERROR_CODE__ERROR_TIMEOUT, AGX_IPC_MSG_CONNECTION,
			     0);
		expect_eof(idle[i]);
		close(idle[i]);
	}
	/* their slots are free again (bounded: a connection may still be closing) */
	for (int tries = 0; tries < 100 && ret == -EBUSY; tries++) {
		ret = agx_ipc_client_connect(small.path, IFACE, "late", TIMEOUT_MS, &late, NULL);
		if (ret == -EBUSY)
			usleep(10000);
	}
	assert_int_equal(ret, 0);
	/* the deadline was only for the handshake: the early client is served still */
	ping.payload.data = (uint8_t *)"still";
	ping.payload.len = 5;
	assert_int_equal(agx_ipc_client_call(early, AGX_IPC_MSG_PING, &ping.base, NULL, 0, &reply,
					     TIMEOUT_MS, NULL),
			 0);
	assert_int_equal(((Agx__Ipc__PingReply *)reply.body)->payload.len, 5);
	assert_memory_equal(((Agx__Ipc__PingReply *)reply.body)->payload.data, "still", 5);
	agx_ipc_msg_finish(&reply);
	agx_ipc_client_destroy(early);
	agx_ipc_client_destroy(late);
	harness_stop(&small);
}

/* A client that sends and never reads is cut off once its replies pile up. */
static void test_slow_reader_cut_off(void **state)
{
	struct harness h;
	Agx__Ipc__Ping ping = AGX__IPC__PING__INIT;
	uint8_t *buf = malloc(AGX_IPC_MAX_FRAME);
	int fds[AGX_IPC_MAX_FDS];
	unsigned num, replies = 0;
	int fd;

	harness_start(&h, IFACE, &test_ops, NULL, 0, 256 * 1024);
	fd = raw_connect(h.path);
	set_timeout(fd);
	send_hello(fd, AGX_IPC_VERSION_MAJOR, IFACE);
	ping.payload.len = 32 * 1024;
	ping.payload.data = calloc(1, ping.payload.len);
	/* far more reply bytes than the socket buffers plus the 256 KiB queue hold */
	for (int i = 0; i < 200 && atomic_load(&h.disconnects) == 0; i++)
		agx_ipc_send(fd, AGX_IPC_MSG_PING, 0, (uint32_t)i + 2, &ping.base, NULL, 0);
	assert_true(harness_wait_disconnects(&h, 1));
	/*
	 * What was sent before the cut arrives, then the end of the stream
	 * (the server closed with our requests unread: ECONNRESET first).
	 */
	for (;;) {
		ssize_t n = agx_ipc_recv_frame(fd, buf, fds, &num);

		if (n == -ECONNRESET)
			continue;
		if (n <= 0)
			break;
		replies++;
	}
	assert_true(replies > 1 && replies < 200);
	close(fd);
	free(ping.payload.data);
	free(buf);
	harness_stop(&h);
}

/* Out of file descriptors, the server pauses accepting and resumes later. */
static void *connect_thread(void *arg)
{
	struct agx_ipc_client *c = NULL;
	intptr_t ret = agx_ipc_client_connect(H.path, IFACE, "late", 10000, &c, NULL);

	agx_ipc_client_destroy(c);
	return (void *)ret;
}

static void test_accept_backoff(void **state)
{
	struct rlimit old, low = { .rlim_cur = 256 };
	int padding[256], n = 0;
	pthread_t thread;
	void *ret;

	getrlimit(RLIMIT_NOFILE, &old);
	low.rlim_max = old.rlim_max;
	assert_int_equal(setrlimit(RLIMIT_NOFILE, &low), 0);
	while (n < 256 && (padding[n] = dup(0)) >= 0)
		n++;
	assert_true(n > 2 && n < 256);
	/* one fd left: the client's socket takes it, the server's accept fails */
	close(padding[--n]);
	assert_int_equal(pthread_create(&thread, NULL, connect_thread, NULL), 0);
	usleep(50 * 1000);
	close(padding[--n]);
	close(padding[--n]);
	pthread_join(thread, &ret);
	assert_int_equal((intptr_t)ret, 0);
	while (n)
		close(padding[--n]);
	setrlimit(RLIMIT_NOFILE, &old);
	assert_server_alive();
}

/* --- the asynchronous client --- */

struct async {
	struct event_base *base;
	int outstanding;
	int query_status, ping_status, error_status, timeout_status, reset_status;
	int error_code;
	uint64_t used_bytes;
	char fd_text[8];
	int events, disconnected;
};

static void done(struct async *a)
{
	if (--a->outstanding == 0)
		event_base_loopbreak(a->base);
}

static void on_query(struct agx_ipc_conn *conn, int status, struct agx_ipc_msg *reply,
		     const struct agx_ipc_error *err, void *data)
{
	struct async *a = data;

	a->query_status = status;
	if (status == 0)
		a->used_bytes = ((Agx__Memmgr__QueryReply *)reply->body)->used_bytes;
	done(a);
}

static void on_ping(struct agx_ipc_conn *conn, int status, struct agx_ipc_msg *reply,
		    const struct agx_ipc_error *err, void *data)
{
	struct async *a = data;

	a->ping_status = status;
	if (status == 0 && reply->num_fds == 1)
		assert_int_equal(pread(reply->fds[0], a->fd_text, 5, 0), 5);
	done(a);
}

static void on_error(struct agx_ipc_conn *conn, int status, struct agx_ipc_msg *reply,
		     const struct agx_ipc_error *err, void *data)
{
	struct async *a = data;

	a->error_status = status;
	a->error_code = err ? err->code : 0;
	done(a);
}

static void on_timeout(struct agx_ipc_conn *conn, int status, struct agx_ipc_msg *reply,
		       const struct agx_ipc_error *err, void *data)
{
	struct async *a = data;

	a->timeout_status = status;
	done(a);
}

static void on_reset(struct agx_ipc_conn *conn, int status, struct agx_ipc_msg *reply,
		     const struct agx_ipc_error *err, void *data)
{
	struct async *a = data;

	a->reset_status = status;
}

static void on_async_event(struct agx_ipc_conn *conn, struct agx_ipc_msg *msg, void *data)
{
	struct async *a = data;

	a->events++;
}

static void on_async_disconnect(struct agx_ipc_conn *conn, void *data)
{
	struct async *a = data;

	a->disconnected++;
}

static const struct agx_ipc_peer_ops async_ops = {
	.event = on_async_event,
	.disconnect = on_async_disconnect,
};

static void test_async_client(void **state)
{
	struct async a = { .base = event_base_new() };
	Agx__Memmgr__Query q = AGX__MEMMGR__QUERY__INIT;
	Agx__Ipc__Ping ping = AGX__IPC__PING__INIT;
	Agx__Memmgr__VmDestroy vd = AGX__MEMMGR__VM_DESTROY__INIT;
	Agx__Memmgr__BoClose bc = AGX__MEMMGR__BO_CLOSE__INIT;
	Agx__Memmgr__BoExport x = AGX__MEMMGR__BO_EXPORT__INIT;
	int memfd = memfd_create("async", MFD_CLOEXEC);
	struct timeval limit = { 10, 0 };
	struct agx_ipc_conn *conn;

	assert_int_equal(write(memfd, "async", 5), 5);
	assert_int_equal(
	    agx_ipc_conn_connect(a.base, H.path, IFACE, "async", &async_ops, &a, &conn), 0);
	/* calls queue behind the handshake */
	assert_int_equal(agx_ipc_conn_call(conn, AGX_IPC_MSG_MEMMGR_QUERY, &q.base, NULL, 0,
					   TIMEOUT_MS, on_query, &a),
			 0);
	assert_int_equal(agx_ipc_conn_call(conn, AGX_IPC_MSG_PING, &ping.base, &memfd, 1,
					   TIMEOUT_MS, on_ping, &a),
			 0);
	assert_int_equal(agx_ipc_conn_call(conn, AGX_IPC_MSG_MEMMGR_VM_DESTROY, &vd.base, NULL, 0,
					   TIMEOUT_MS, on_error, &a),
			 0);
	bc.handle = DEFER_HANDLE;
	assert_int_equal(agx_ipc_conn_call(conn, AGX_IPC_MSG_MEMMGR_BO_CLOSE, &bc.base, NULL, 0, 5,
					   on_timeout, &a),
			 0);
	assert_int_equal(agx_ipc_conn_call(conn, AGX_IPC_MSG_MEMMGR_BO_EXPORT, &x.base, NULL, 0,
					   TIMEOUT_MS, on_error, &a),
			 0);
	a.outstanding = 5;
	event_base_loopexit(a.base, &limit);
	event_base_dispatch(a.base);

	assert_int_equal(a.outstanding, 0);
	assert_int_equal(a.query_status, 0);
	assert_int_equal(a.used_bytes, 42);
	assert_int_equal(a.ping_status, 0);
	assert_string_equal(a.fd_text, "async");
	assert_int_equal(a.timeout_status, -ETIMEDOUT);
	assert_int_equal(a.events, 1);
	/* the last on_error call was BO_EXPORT, which succeeded */
	assert_int_equal(a.error_status, 0);

	/* a call still pending when the connection closes fails with -ECONNRESET */
	a.reset_status = 1;
	assert_int_equal(agx_ipc_conn_call(conn, AGX_IPC_MSG_MEMMGR_BO_CLOSE, &bc.base, NULL, 0, -1,
					   on_reset, &a),
			 0);
	agx_ipc_conn_close(conn);
	event_base_loop(a.base, EVLOOP_NONBLOCK);
	assert_int_equal(a.reset_status, -ECONNRESET);
	assert_int_equal(a.disconnected, 1);
	close(memfd);
	event_base_free(a.base);
}

static void test_async_error(void **state)
{
	struct async a = { .base = event_base_new() };
	Agx__Memmgr__VmDestroy vd = AGX__MEMMGR__VM_DESTROY__INIT;
	struct timeval limit = { 10, 0 };
	struct agx_ipc_conn *conn;

	assert_int_equal(
	    agx_ipc_conn_connect(a.base, H.path, IFACE, "async", &async_ops, &a, &conn), 0);
	assert_int_equal(agx_ipc_conn_call(conn, AGX_IPC_MSG_MEMMGR_VM_DESTROY, &vd.base, NULL, 0,
					   TIMEOUT_MS, on_error, &a),
			 0);
	a.outstanding = 1;
	event_base_loopexit(a.base, &limit);
	event_base_dispatch(a.base);
	assert_int_equal(a.error_status, -ENOENT);
	assert_int_equal(a.error_code, AGX__IPC__ERROR_CODE__ERROR_NOT_FOUND);
	agx_ipc_conn_close(conn);
	event_base_loop(a.base, EVLOOP_NONBLOCK);
	assert_int_equal(a.disconnected, 1);
	event_base_free(a.base);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_handshake),
		cmocka_unit_test(test_version_mismatch),
		cmocka_unit_test(test_wrong_interface),
		cmocka_unit_test(test_request_before_hello),
		cmocka_unit_test(test_hello_twice),
		cmocka_unit_test(test_garbage),
		cmocka_unit_test(test_truncated),
		cmocka_unit_test(test_oversized),
		cmocka_unit_test(test_rejected_fds_are_closed),
		cmocka_unit_test(test_fd_passing),
		cmocka_unit_test(test_error_replies_keep_connection),
		cmocka_unit_test(test_events_during_call),
		cmocka_unit_test(test_event_to_all),
		cmocka_unit_test(test_call_timeout_then_late_reply),
		cmocka_unit_test(test_deferred_answered_at_once),
		cmocka_unit_test(test_dispatch_events_between_calls),
		cmocka_unit_test(test_disconnect_mid_request),
		cmocka_unit_test(test_half_closed),
		cmocka_unit_test(test_many_concurrent_clients),
		cmocka_unit_test(test_connect_disconnect_cycles),
		cmocka_unit_test(test_connection_limit),
		cmocka_unit_test(test_hello_deadline),
		cmocka_unit_test(test_slow_reader_cut_off),
		cmocka_unit_test(test_accept_backoff),
		cmocka_unit_test(test_async_client),
		cmocka_unit_test(test_async_error),
	};

	return cmocka_run_group_tests_name("ipc-server", tests, setup, teardown);
}
