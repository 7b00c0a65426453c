/*
 * fuzz-requests: agx-fwchan's request handling (server.c over work.c and
 * firmware.c) on a real socket, fed packet sequences by a client playing
 * the scheduler or memmgr, over stand-ins for firmware memory and the
 * mailbox (fakes.c).  Whatever arrives, fwchan must not crash, and once
 * the client is gone and the firmware has answered (here: failed) what
 * was pending, every context, queue and item is gone, every byte of
 * firmware memory back, every fd closed.
 *
 * Input: [flags: bit 0 = send a valid HELLO first] then packets, each
 * [u16 little-endian length] [bytes].
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <event2/event.h>

#include "agxipc/log.h"
#include "agxipc/server.h"
#include "fakes.h"
#include "fwchan.h"
#include "harness.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static struct fwchan f;
static char dir[64], path[108];

static void nothing(void *data)
{
}

static void no_event(void *data, const struct agx_fw_event *e)
{
}

static const struct firmware_ops firmware_ops = {
	.ready = nothing,
	.failed = nothing,
	.event = no_event,
};

static void cleanup(void)
{
	work_fini(&f.work);
	fake_kmem_fini(&f.kmem);
	event_base_free(f.base);
	rmdir(dir);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	agx_log_set_level(0); /* fwchan's complaints are expected here */
	snprintf(dir, sizeof(dir), "/tmp/agx-fuzz-fwchan-XXXXXX");
	if (!mkdtemp(dir))
		abort();
	snprintf(path, sizeof(path), "%s/fwchan.sock", dir);
	f.base = event_base_new();
	if (!f.base || fake_kmem_init(&f.kmem, 4u << 20) < 0 ||
	    firmware_init(&f.fw, &f.rtkit, &f.kmem, &firmware_ops, &f) < 0 ||
	    work_init(&f.work, f.base, &f.fw, &f.kmem) < 0)
		abort();
	/* the firmware runs: requests reach its channels */
	firmware_start(&f.fw);
	f.fw.starting = false;
	f.fw.running = true;
	atexit(cleanup);
	return 0;
}

static void pump(void)
{
	for (int i = 0; i < 3; i++)
		event_base_loop(f.base, EVLOOP_NONBLOCK);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct sockaddr_un addr = { .sun_family = AF_UNIX };
	uint64_t free_bytes = kmem_arena_free_bytes(&f.kmem);
	unsigned baseline = count_open_fds();
	int listen_fd, fd;

	if (size < 1)
		return 0;
	strcpy(addr.sun_path, path);
	unlink(path);
	listen_fd = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	if (listen_fd < 0 || bind(listen_fd, (struct sockaddr *)&addr, sizeof(addr)) < 0 ||
	    listen(listen_fd, 4) < 0)
		abort();
	f.server = fwchan_server_create(&f, listen_fd);
	fd = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	if (!f.server || fd < 0 || connect(fd, (struct sockaddr *)&addr, sizeof(addr)) < 0)
		abort();
	pump();
	fuzz_session(fd, AGX__IPC__INTERFACE__INTERFACE_FWCHAN, data[0] & 1, data + 1, size - 1,
		     pump);
	close(fd);
	pump();
	/* the firmware's answers that will not come: everything waiting on them goes */
	firmware_fail_pending(&f.fw, -ENODEV);
	pump();
	agx_ipc_server_destroy(f.server);
	f.server = NULL;
	unlink(path);
	if (f.work.contexts || kmem_arena_free_bytes(&f.kmem) != free_bytes ||
	    count_open_fds() != baseline)
		abort();
	return 0;
}
