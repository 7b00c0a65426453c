/*
 * fwchan-peer: stands in for agx-fwchan in agx-memmgr's daemon tests: it
 * answers TLB_INVALIDATE (as the firmware channel will once the firmware
 * has done it) and writes each one, "slot va size", as a line of LOG.
 * Anything else it refuses.
 *
 *   fwchan-peer SOCKET_PATH LOG
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "agxipc/daemon.h"
#include "agxipc/log.h"
#include "agxipc/server.h"

static FILE *log_file;

static int dispatch(struct agx_ipc_request *req, void *data)
{
	const Agx__Fwchan__TlbInvalidate *q = (const void *)req->msg.body;
	Agx__Ipc__Empty r = AGX__IPC__EMPTY__INIT;

	if (req->msg.type != AGX_IPC_MSG_FWCHAN_TLB_INVALIDATE)
		return -EOPNOTSUPP;
	fprintf(log_file, "%u %#" PRIx64 " %#" PRIx64 "\n", q->context_slot, q->va, q->size);
	fflush(log_file);
	return agx_ipc_reply(req, &r.base, NULL, 0);
}

static const struct agx_ipc_server_ops ops = { .dispatch = dispatch };

int main(int argc, char **argv)
{
	struct agx_ipc_server_config config = {
		.interface = AGX__IPC__INTERFACE__INTERFACE_FWCHAN,
		.name = "fwchan-peer",
		.ops = &ops,
	};
	struct agx_ipc_server *server;
	struct agx_daemon *daemon;
	int fd, ret;

	if (argc != 3) {
		fprintf(stderr, "usage: %s SOCKET_PATH LOG\n", argv[0]);
		return 2;
	}
	log_file = fopen(argv[2], "a");
	if (!log_file)
		return 1;
	daemon = agx_daemon_create("fwchan-peer");
	if (!daemon || agx_daemon_listen(daemon, argv[1], &fd) < 0)
		return 1;
	server = agx_ipc_server_create(agx_daemon_base(daemon), fd, &config);
	if (!server)
		return 1;
	agx_daemon_ready(daemon, "serving");
	ret = agx_daemon_run(daemon);
	agx_ipc_server_destroy(server);
	agx_daemon_destroy(daemon);
	fclose(log_file);
	return ret < 0 ? 1 : 0;
}
