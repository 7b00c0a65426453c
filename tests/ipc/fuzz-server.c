/*
 * fuzz-server: a libagxipc server on a real socket, fed packet sequences
 * by a client that may or may not have done the handshake.  Whatever
 * arrives, the server must not crash, must answer or close, must release
 * the connection once the client is gone, and must leak no fd.
 *
 * Input: [flags: bit 0 = send a valid HELLO first] then packets, each
 * [u16 little-endian length] [bytes].
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <event2/event.h>

#include "agxipc/log.h"
#include "agxipc/server.h"
#include "harness.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static struct event_base *base;
static struct agx_ipc_server *server;
static struct sockaddr_un addr = { .sun_family = AF_UNIX };
static char dir[64];

static int dispatch(struct agx_ipc_request *req, void *data)
{
	if (req->msg.type == AGX_IPC_MSG_MEMMGR_QUERY) {
		Agx__Memmgr__QueryReply r = AGX__MEMMGR__QUERY_REPLY__INIT;

		return agx_ipc_reply(req, &r.base, NULL, 0);
	}
	return -EOPNOTSUPP;
}

static const struct agx_ipc_server_ops ops = { .dispatch = dispatch };

static void cleanup(void)
{
	agx_ipc_server_destroy(server);
	event_base_free(base);
	unlink(addr.sun_path);
	rmdir(dir);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	struct agx_ipc_server_config config = {
		.interface = AGX__IPC__INTERFACE__INTERFACE_MEMMGR,
		.name = "fuzz",
		.ops = &ops,
	};
	int fd;

	agx_log_set_level(0); /* the server's complaints are expected here */
	snprintf(dir, sizeof(dir), "/tmp/agx-fuzz-server-XXXXXX");
	if (!mkdtemp(dir))
		abort();
	snprintf(addr.sun_path, sizeof(addr.sun_path), "%s/sock", dir);
	fd = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0);
	if (fd < 0 || bind(fd, (struct sockaddr *)&addr, sizeof(addr)) < 0 || listen(fd, 16) < 0)
		abort();
	base = event_base_new();
	server = agx_ipc_server_create(base, fd, &config);
	if (!base || !server)
		abort();
	atexit(cleanup);
	return 0;
}

static void pump(void)
{
	for (int i = 0; i < 3; i++)
		event_base_loop(base, EVLOOP_NONBLOCK);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	unsigned baseline_fds;
	int fd;

	if (size < 1)
		return 0;
	baseline_fds = count_open_fds();
	fd = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	if (fd < 0 || connect(fd, (struct sockaddr *)&addr, sizeof(addr)) < 0)
		abort();
	pump();
	fuzz_session(fd, AGX__IPC__INTERFACE__INTERFACE_MEMMGR, data[0] & 1, data + 1, size - 1,
		     pump);
	close(fd);
	for (int i = 0; i < 10 && agx_ipc_server_num_connections(server); i++)
		pump();
	/* the connection is released and nothing it touched stays open */
	if (agx_ipc_server_num_connections(server) != 0 || count_open_fds() != baseline_fds)
		abort();
	return 0;
}
