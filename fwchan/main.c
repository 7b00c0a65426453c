/*
 * agx-fwchan: the firmware channel daemon (docs/fwchan.md).
 *
 *   agx-fwchan --socket PATH --device PATH --memmgr PATH [--ping-ms MS] [--crash-dir DIR]
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>

#include "agxipc/daemon.h"
#include "agxipc/log.h"
#include "fwchan.h"

static void usage(const char *argv0)
{
	fprintf(stderr,
		"usage: %s --socket PATH --device PATH --memmgr PATH [--ping-ms MS] "
		"[--crash-dir DIR]\n",
		argv0);
}

int main(int argc, char **argv)
{
	static const struct option options[] = {
		{ "socket", required_argument, NULL, 's' },
		{ "device", required_argument, NULL, 'd' },
		{ "memmgr", required_argument, NULL, 'm' },
		{ "ping-ms", required_argument, NULL, 'p' },
		{ "crash-dir", required_argument, NULL, 'c' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 },
	};
	struct fwchan_config config = { .ping_ms = 1000 };
	static struct fwchan f;
	struct agx_daemon *daemon;
	bool peer_lost;
	char *end;
	int opt, ret;

	while ((opt = getopt_long(argc, argv, "h", options, NULL)) != -1) {
		switch (opt) {
		case 's':
			config.socket = optarg;
			break;
		case 'd':
			config.device = optarg;
			break;
		case 'm':
			config.memmgr = optarg;
			break;
		case 'c':
			config.crash_dir = optarg;
			break;
		case 'p':
			config.ping_ms = (unsigned)strtoul(optarg, &end, 0);
			if (*end || end == optarg) {
				usage(argv[0]);
				return 2;
			}
			break;
		default:
			usage(argv[0]);
			return opt == 'h' ? 0 : 2;
		}
	}
	if (!config.socket || !config.device || !config.memmgr || optind != argc) {
		usage(argv[0]);
		return 2;
	}
	daemon = agx_daemon_create("agx-fwchan");
	if (!daemon)
		return 1;
	ret = fwchan_start(&f, daemon, &config);
	if (ret == 0)
		ret = agx_daemon_run(daemon);
	/* a peer that went away is a failure: the service manager restarts the chain */
	peer_lost = f.peer_lost;
	fwchan_stop(&f);
	agx_daemon_destroy(daemon);
	return ret < 0 || peer_lost ? 1 : 0;
}
