/* daemon.c: the loop, signals, sockets and sd_notify of every daemon. */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include <event2/event.h>
#include <systemd/sd-daemon.h>

#include "agxipc/daemon.h"
#include "agxipc/log.h"
#include "agxipc/server.h"

/* Sockets a daemon serves at most (memmgr has two). */
#define MAX_SOCKETS 4

struct agx_daemon {
	struct event_base *base;
	struct event *sigterm, *sigint, *watchdog;
	struct event *log_flush; /* rate-limited log sites tell what they held back */
	char name[64];
	/* socket files this process created, removed again on exit */
	char *created[MAX_SOCKETS];
	unsigned num_created;
};

static void on_signal(evutil_socket_t sig, short what, void *arg)
{
	struct agx_daemon *daemon = arg;

	(void)what;
	agx_notice("%s, shutting down", strsignal((int)sig));
	agx_daemon_quit(daemon);
}

static void on_watchdog(evutil_socket_t fd, short what, void *arg)
{
	(void)fd;
	(void)what;
	(void)arg;
	sd_notify(0, "WATCHDOG=1");
}

static void on_log_flush(evutil_socket_t fd, short what, void *arg)
{
	(void)fd;
	(void)what;
	(void)arg;
	agx_log_ratelimit_flush(false);
}

struct agx_daemon *agx_daemon_create(const char *name)
{
	struct agx_daemon *daemon = calloc(1, sizeof(*daemon));
	struct timeval flush_tv;
	unsigned flush_ms;
	uint64_t usec = 0;

	if (!daemon)
		return NULL;
	snprintf(daemon->name, sizeof(daemon->name), "%s", name);
	agx_log_init(name);
	/* Writes to a peer that went away must give EPIPE, not kill the daemon. */
	signal(SIGPIPE, SIG_IGN);

	daemon->base = event_base_new();
	if (!daemon->base)
		goto fail;
	daemon->sigterm = evsignal_new(daemon->base, SIGTERM, on_signal, daemon);
	daemon->sigint = evsignal_new(daemon->base, SIGINT, on_signal, daemon);
	if (!daemon->sigterm || !daemon->sigint || evsignal_add(daemon->sigterm, NULL) < 0 ||
	    evsignal_add(daemon->sigint, NULL) < 0)
		goto fail;

	/* a flood that stopped is still counted, at most an interval after it ended */
	flush_ms = agx_log_ratelimit_interval_ms();
	flush_tv = (struct timeval){ flush_ms / 1000, (suseconds_t)(flush_ms % 1000) * 1000 };
	daemon->log_flush = event_new(daemon->base, -1, EV_PERSIST, on_log_flush, daemon);
	if (!daemon->log_flush || event_add(daemon->log_flush, &flush_tv) < 0)
		goto fail;

	/* Ping at half the interval systemd expects, from the loop itself. */
	if (sd_watchdog_enabled(0, &usec) > 0 && usec > 0) {
		struct timeval tv = { (time_t)(usec / 2 / 1000000),
				      (suseconds_t)(usec / 2 % 1000000) };

		daemon->watchdog = event_new(daemon->base, -1, EV_PERSIST, on_watchdog, daemon);
		if (!daemon->watchdog || event_add(daemon->watchdog, &tv) < 0)
			goto fail;
		agx_info("watchdog every %llu us", (unsigned long long)usec / 2);
	}
	return daemon;

fail:
	agx_err("cannot set up the event loop");
	agx_daemon_destroy(daemon);
	return NULL;
}

void agx_daemon_destroy(struct agx_daemon *daemon)
{
	if (!daemon)
		return;
	agx_log_ratelimit_flush(true);
	for (unsigned i = 0; i < daemon->num_created; i++) {
		unlink(daemon->created[i]);
		free(daemon->created[i]);
	}
	if (daemon->watchdog)
		event_free(daemon->watchdog);
	if (daemon->log_flush)
		event_free(daemon->log_flush);
	if (daemon->sigterm)
		event_free(daemon->sigterm);
	if (daemon->sigint)
		event_free(daemon->sigint);
	if (daemon->base)
		event_base_free(daemon->base);
	free(daemon);
}

struct event_base *agx_daemon_base(struct agx_daemon *daemon)
{
	return daemon->base;
}

/* A socket file nobody listens on any more can be replaced. */
static bool socket_is_stale(const struct sockaddr_un *addr)
{
	int fd = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0);
	bool stale;

	if (fd < 0)
		return false;
	stale =
	    connect(fd, (const struct sockaddr *)addr, sizeof(*addr)) < 0 && errno == ECONNREFUSED;
	close(fd);
	return stale;
}

int agx_daemon_listen(struct agx_daemon *daemon, const char *path, int *out)
{
	struct sockaddr_un addr = { .sun_family = AF_UNIX };
	int n = sd_listen_fds(0);
	int fd, ret;

	for (int i = 0; i < n; i++) {
		fd = SD_LISTEN_FDS_START + i;
		if (sd_is_socket_unix(fd, SOCK_SEQPACKET, 1, path, 0) > 0) {
			agx_info("listening on %s (from the service manager)", path);
			*out = fd;
			return 0;
		}
	}

	if (strlen(path) >= sizeof(addr.sun_path))
		return -ENAMETOOLONG;
	if (daemon->num_created == MAX_SOCKETS)
		return -ENFILE;
	strcpy(addr.sun_path, path);
	fd = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	if (fd < 0)
		return -errno;
	if (bind(fd, (struct sockaddr *)&addr, sizeof(addr)) < 0) {
		ret = -errno;
		if (ret != -EADDRINUSE || !socket_is_stale(&addr))
			goto fail;
		agx_notice("replacing the stale socket %s", path);
		unlink(path);
		if (bind(fd, (struct sockaddr *)&addr, sizeof(addr)) < 0) {
			ret = -errno;
			goto fail;
		}
	}
	if (listen(fd, SOMAXCONN) < 0) {
		ret = -errno;
		unlink(path);
		goto fail;
	}
	daemon->created[daemon->num_created] = strdup(path);
	if (daemon->created[daemon->num_created])
		daemon->num_created++;
	agx_info("listening on %s", path);
	*out = fd;
	return 0;

fail:
	close(fd);
	return ret;
}

void agx_daemon_ready(struct agx_daemon *daemon, const char *status)
{
	agx_notice("%s ready%s%s", daemon->name, status ? ": " : "", status ? status : "");
	sd_notifyf(0, "READY=1\nSTATUS=%s\nMAINPID=%d", status ? status : "ready", (int)getpid());
}

int agx_daemon_run(struct agx_daemon *daemon)
{
	int ret = agx_ipc_loop_run(daemon->base);

	sd_notify(0, "STOPPING=1");
	return ret < 0 ? -EIO : 0;
}

void agx_daemon_quit(struct agx_daemon *daemon)
{
	event_base_loopbreak(daemon->base);
}
