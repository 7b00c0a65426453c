/*
 * agx-scheduler: queues, submissions and fences (docs/scheduler.md).
 *
 *   agx-scheduler --socket PATH --fwchan PATH --memmgr PATH [--metrics ADDRESS]
 *                 [--job-timeout-ms MS] [--realtime-gid GID]
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>

#include "agxipc/daemon.h"
#include "scheduler.h"

static void usage(const char *argv0)
{
	fprintf(stderr,
		"usage: %s --socket PATH --fwchan PATH --memmgr PATH [--metrics ADDRESS]\n"
		"          [--job-timeout-ms MS] [--realtime-gid GID]\n"
		"ADDRESS: unix:PATH or HOST:PORT (numeric, loopback by intent)\n",
		argv0);
}

static bool number(const char *arg, long min, long *out)
{
	char *end;
	long v = strtol(arg, &end, 0);

	if (*end || end == arg || v < min)
		return false;
	*out = v;
	return true;
}

int main(int argc, char **argv)
{
	static const struct option options[] = {
		{ "socket", required_argument, NULL, 's' },
		{ "fwchan", required_argument, NULL, 'f' },
		{ "memmgr", required_argument, NULL, 'm' },
		{ "metrics", required_argument, NULL, 'M' },
		{ "job-timeout-ms", required_argument, NULL, 't' },
		{ "realtime-gid", required_argument, NULL, 'g' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 },
	};
	struct sched_config config = { .job_timeout_ms = 0, .realtime_gid = -1 };
	static struct scheduler s;
	struct agx_daemon *daemon;
	long v;
	int opt, ret;

	while ((opt = getopt_long(argc, argv, "h", options, NULL)) != -1) {
		switch (opt) {
		case 's':
			config.socket = optarg;
			break;
		case 'f':
			config.fwchan = optarg;
			break;
		case 'm':
			config.memmgr = optarg;
			break;
		case 'M':
			config.metrics = optarg;
			break;
		case 't':
			if (!number(optarg, 0, &v) || v > 4000000) {
				usage(argv[0]);
				return 2;
			}
			config.job_timeout_ms = (unsigned)v;
			break;
		case 'g':
			if (!number(optarg, 0, &v)) {
				usage(argv[0]);
				return 2;
			}
			config.realtime_gid = v;
			break;
		default:
			usage(argv[0]);
			return opt == 'h' ? 0 : 2;
		}
	}
	if (!config.socket || !config.fwchan || !config.memmgr || optind != argc) {
		usage(argv[0]);
		return 2;
	}
	daemon = agx_daemon_create("agx-scheduler");
	if (!daemon)
		return 1;
	ret = scheduler_start(&s, daemon, &config);
	if (ret == 0)
		ret = agx_daemon_run(daemon);
	scheduler_stop(&s);
	agx_daemon_destroy(daemon);
	return ret < 0 || s.failed ? 1 : 0;
}
