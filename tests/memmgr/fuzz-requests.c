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
#include "harness.h"
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

static void pump(void)
{
	for (int i = 0; i < 3; i++)
		event_base_loop(base, EVLOOP_NONBLOCK);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct fakedev f;
	struct memmgr_server_config config = { 0 };
	struct sockaddr_un addr = { .sun_family = AF_UNIX };
	struct memmgr_server *server;
	unsigned baseline;
	bool privileged;
	int fd;

	if (size < 1)
		return 0;
	privileged = data[0] & 2;
	baseline = count_open_fds();
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
	fuzz_session(fd,
		     privileged ? AGX__IPC__INTERFACE__INTERFACE_MEMMGR_PRIVILEGED
				: AGX__IPC__INTERFACE__INTERFACE_MEMMGR,
		     data[0] & 1, data + 1, size - 1, pump);
	close(fd);
	pump();
	memmgr_server_destroy(server);
	unlink(paths[0]);
	unlink(paths[1]);
	/* every request memmgr made was one the device takes, and all came back */
	if (f.bad || f.num_maps)
		abort();
	fakedev_fini(&f);
	if (count_open_fds() != baseline)
		abort();
	return 0;
}
