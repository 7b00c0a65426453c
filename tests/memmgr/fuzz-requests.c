/*
 * fuzz-requests: agx-memmgr's request handling (server.c over memmgr.c)
 * on real sockets, over a stand-in device, fed packet sequences on the
 * client or the privileged socket.  Whatever arrives, memmgr must not
 * crash, must never send the device a request it would refuse (a
 * misaligned, overlapping or unknown mapping), and must give everything
 * back -- device mappings and fds -- once the client is gone and memmgr
 * shuts down.
 *
 * Input: [flags: bit 0 = send a valid HELLO first, bit 1 = the privileged
 * socket] then packets, each [u16 little-endian length] [bytes].
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <event2/event.h>

#include "agxipc/log.h"
#include "fakedev.h"
#include "server.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static struct event_base *base;
static char dir[64], paths[2][108];

static void cleanup(void)
{
	event_base_free(base);
	rmdir(dir);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	agx_log_set_level(0); /* memmgr's complaints are expected here */
	snprintf(dir, sizeof(dir), "/tmp/agx-fuzz-memmgr-XXXXXX");
	if (!mkdtemp(dir))
		abort();
	snprintf(paths[0], sizeof(paths[0]), "%s/memmgr.sock", dir);
	snprintf(paths[1], sizeof(paths[1]), "%s/memmgr-priv.sock", dir);
	base = event_base_new();
	if (!base)
		abort();
	atexit(cleanup);
	return 0;
}

static int listen_on(const char *path)
{
	struct sockaddr_un addr = { .sun_family = AF_UNIX };
	int fd = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);

	strcpy(addr.sun_path, path);
	unlink(path);
	if (fd < 0 || bind(fd, (struct sockaddr *)&addr, sizeof(addr)) < 0 || listen(fd, 4) < 0)
		abort();
	return fd;
}

static unsigned open_fds(void)
{
	unsigned n = 0;

	for (int fd = 0; fd < 4096; fd++)
		n += fcntl(fd, F_GETFD) >= 0;
	return n;
}

static void pump(void)
{
	for (int i = 0; i < 3; i++)
		event_base_loop(base, EVLOOP_NONBLOCK);
}

static void drain(int fd)
{
	uint8_t buf[512];

	while (recv(fd, buf, sizeof(buf), MSG_DONTWAIT) > 0)
		;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct fakedev f;
	struct memmgr_server_config config = { 0 };
	struct sockaddr_un addr = { .sun_family = AF_UNIX };
	struct memmgr_server *server;
	unsigned baseline;
	bool privileged;
	size_t pos = 1;
	int fd;

	if (size < 1)
		return 0;
	privileged = data[0] & 2;
	baseline = open_fds();
	fakedev_init(&f, 64ull << 20);
	config.client_fd = listen_on(paths[0]);
	config.privileged_fd = listen_on(paths[1]);
	config.memmgr.client_quota = 16ull << 20;
	server = memmgr_server_create(base, &f.dev, &config);
	if (!server)
		abort();
	strcpy(addr.sun_path, paths[privileged]);
	fd = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	if (fd < 0 || connect(fd, (struct sockaddr *)&addr, sizeof(addr)) < 0)
		abort();
	pump();
	if (data[0] & 1) {
		Agx__Ipc__Hello hello = AGX__IPC__HELLO__INIT;

		hello.version_major = AGX_IPC_VERSION_MAJOR;
		hello.interface = privileged ? AGX__IPC__INTERFACE__INTERFACE_MEMMGR_PRIVILEGED
					     : AGX__IPC__INTERFACE__INTERFACE_MEMMGR;
		hello.client_name = "fuzz";
		agx_ipc_send(fd, AGX_IPC_MSG_HELLO, 0, 1, &hello.base, NULL, 0);
		pump();
		drain(fd);
	}
	while (pos + 2 <= size) {
		size_t len = data[pos] | (size_t)data[pos + 1] << 8;

		pos += 2;
		if (len > size - pos)
			len = size - pos;
		send(fd, data + pos, len, MSG_DONTWAIT | MSG_NOSIGNAL);
		pos += len;
		pump();
		drain(fd);
	}
	close(fd);
	pump();
	memmgr_server_destroy(server);
	unlink(paths[0]);
	unlink(paths[1]);
	/* every request memmgr made was one the device takes, and all came back */
	if (f.bad || f.num_maps)
		abort();
	fakedev_fini(&f);
	if (open_fds() != baseline)
		abort();
	return 0;
}
