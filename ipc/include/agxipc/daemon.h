/*
 * Plumbing every daemon shares: an event loop that ends cleanly on SIGTERM
 * or SIGINT, listening sockets taken from systemd (socket activation) or
 * created, readiness and watchdog notification through sd_notify.
 * Nothing here forks: systemd (Type=notify) or the caller supervises.
 */
#ifndef AGXIPC_DAEMON_H
#define AGXIPC_DAEMON_H

#include "ipc.h"

struct event_base;
struct agx_daemon;

/* Sets up logging as name, the loop, signal handling and the watchdog. */
AGX_IPC_EXPORT struct agx_daemon *agx_daemon_create(const char *name);
AGX_IPC_EXPORT void agx_daemon_destroy(struct agx_daemon *daemon);
AGX_IPC_EXPORT struct event_base *agx_daemon_base(struct agx_daemon *daemon);

/*
 * A listening SOCK_SEQPACKET socket for path: the one systemd passed whose
 * address is path, or else a new one bound there (a stale socket file
 * left by a dead process is replaced; a live one is -EADDRINUSE).
 */
AGX_IPC_EXPORT int agx_daemon_listen(struct agx_daemon *daemon, const char *path, int *fd);

/* Tells the service manager the daemon is ready (after it listens). */
AGX_IPC_EXPORT void agx_daemon_ready(struct agx_daemon *daemon, const char *status);

/* Runs the loop until SIGTERM/SIGINT or agx_daemon_quit(); returns 0. */
AGX_IPC_EXPORT int agx_daemon_run(struct agx_daemon *daemon);
AGX_IPC_EXPORT void agx_daemon_quit(struct agx_daemon *daemon);

#endif
