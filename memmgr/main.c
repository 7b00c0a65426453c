/*
 * agx-memmgr: the daemon that owns GPU memory (docs/memmgr.md).
 *
 *   agx-memmgr --socket PATH --privileged-socket PATH --device PATH
 *              [--fwchan PATH] [--client-quota BYTES] [--reserved BYTES]
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <event2/event.h>

#include "agxipc/daemon.h"
#include "agxipc/log.h"
#include "server.h"

static int exit_status;

static void usage(const char *argv0)
{
	fprintf(stderr,
		"usage: %s --socket PATH --privileged-socket PATH --device PATH\n"
		"          [--fwchan PATH] [--client-quota BYTES] [--reserved BYTES]\n",
		argv0);
}

/* Without the device every mapping is gone: stop, and let the service manager start afresh. */
static void device_lost(void *data)
{
	struct agx_daemon *daemon = data;

	agx_err("the device went away; stopping");
	exit_status = 1;
	agx_daemon_quit(daemon);
}

static bool parse_size(const char *text, uint64_t *out)
{
	char *end;

	errno = 0;
	*out = strtoull(text, &end, 0);
	return !errno && end != text && !*end;
}

int main(int argc, char **argv)
{
	static const struct option options[] = {
		{ "socket", required_argument, NULL, 's' },
		{ "privileged-socket", required_argument, NULL, 'p' },
		{ "device", required_argument, NULL, 'd' },
		{ "fwchan", required_argument, NULL, 'f' },
		{ "client-quota", required_argument, NULL, 'q' },
		{ "reserved", required_argument, NULL, 'r' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 },
	};
	const char *socket = NULL, *privileged = NULL, *device = NULL;
	struct memmgr_server_config config = { .client_fd = -1, .privileged_fd = -1 };
	struct memmgr_device dev;
	struct memmgr_server *server;
	struct agx_daemon *daemon;
	int opt, ret;

	while ((opt = getopt_long(argc, argv, "h", options, NULL)) != -1) {
		switch (opt) {
		case 's':
			socket = optarg;
			break;
		case 'p':
			privileged = optarg;
			break;
		case 'd':
			device = optarg;
			break;
		case 'f':
			config.fwchan = optarg;
			break;
		case 'q':
			if (!parse_size(optarg, &config.memmgr.client_quota)) {
				usage(argv[0]);
				return 2;
			}
			break;
		case 'r':
			if (!parse_size(optarg, &config.memmgr.reserved)) {
				usage(argv[0]);
				return 2;
			}
			break;
		default:
			usage(argv[0]);
			return opt == 'h' ? 0 : 2;
		}
	}
	if (!socket || !privileged || !device || optind != argc) {
		usage(argv[0]);
		return 2;
	}
	daemon = agx_daemon_create("agx-memmgr");
	if (!daemon)
		return 1;
	ret = memmgr_device_connect(&dev, agx_daemon_base(daemon), device, 10000, device_lost,
				    daemon);
	if (ret < 0) {
		agx_err("cannot reach the device at %s: %s", device, strerror(-ret));
		agx_daemon_destroy(daemon);
		return 1;
	}
	if (agx_daemon_listen(daemon, socket, &config.client_fd) < 0 ||
	    agx_daemon_listen(daemon, privileged, &config.privileged_fd) < 0) {
		agx_err("cannot listen on %s and %s", socket, privileged);
		memmgr_device_disconnect(&dev);
		event_base_loop(agx_daemon_base(daemon), EVLOOP_NONBLOCK);
		agx_daemon_destroy(daemon);
		return 1;
	}
	server = memmgr_server_create(agx_daemon_base(daemon), &dev, &config);
	if (!server) {
		agx_err("cannot set up the memory manager");
		memmgr_device_disconnect(&dev);
		event_base_loop(agx_daemon_base(daemon), EVLOOP_NONBLOCK);
		agx_daemon_destroy(daemon);
		return 1;
	}
	agx_notice("serving %s (privileged: %s); %" PRIu64 " MiB of device memory", socket,
		   privileged, dev.memory_size >> 20);
	agx_daemon_ready(daemon, "serving");
	ret = agx_daemon_run(daemon);
	memmgr_server_destroy(server);
	memmgr_device_disconnect(&dev);
	/* the device connection closes on the loop's next turn */
	event_base_loop(agx_daemon_base(daemon), EVLOOP_NONBLOCK);
	agx_daemon_destroy(daemon);
	return ret < 0 || exit_status ? 1 : 0;
}
