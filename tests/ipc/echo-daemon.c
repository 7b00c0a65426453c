/*
 * echo-daemon: the smallest daemon built on libagxipc's plumbing, serving
 * only the common messages (HELLO, PING).  Tests run it the ways systemd
 * and `./agx up` will run the real daemons.
 *
 *   echo-daemon SOCKET_PATH
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "agxipc/daemon.h"
#include "agxipc/log.h"
#include "agxipc/server.h"

static int dispatch(struct agx_ipc_request *req, void *data)
{
	return -EOPNOTSUPP;
}

static const struct agx_ipc_server_ops ops = { .dispatch = dispatch };

int main(int argc, char **argv)
{
	struct agx_ipc_server_config config = {
		.interface = AGX__IPC__INTERFACE__INTERFACE_DEVICE,
		.name = "echo-daemon",
		.ops = &ops,
	};
	struct agx_ipc_server *server;
	struct agx_daemon *daemon;
	int fd, ret;

	if (argc != 2) {
		fprintf(stderr, "usage: %s SOCKET_PATH\n", argv[0]);
		return 2;
	}
	daemon = agx_daemon_create("echo-daemon");
	if (!daemon)
		return 1;
	ret = agx_daemon_listen(daemon, argv[1], &fd);
	if (ret < 0) {
		agx_err("cannot listen on %s: %s", argv[1], strerror(-ret));
		agx_daemon_destroy(daemon);
		return 1;
	}
	server = agx_ipc_server_create(agx_daemon_base(daemon), fd, &config);
	if (!server) {
		agx_daemon_destroy(daemon);
		return 1;
	}
	agx_daemon_ready(daemon, "serving");
	ret = agx_daemon_run(daemon);
	agx_ipc_server_destroy(server);
	agx_daemon_destroy(daemon);
	return ret < 0 ? 1 : 0;
}
