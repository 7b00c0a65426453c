/*
 * fwchan.h: agx-fwchan, the only process that talks to the firmware
 * (docs/fwchan.md): the device it attached, the RTKit host, the GPU
 * firmware's channels, and the socket agx-scheduler and agx-memmgr use.
 */
#ifndef FWCHAN_FWCHAN_H
#define FWCHAN_FWCHAN_H

#include <stdbool.h>
#include <stdint.h>

#include "firmware.h"
#include "kmem.h"
#include "rtkit.h"
#include "work.h"

struct agx_daemon;
struct agx_ipc_client;
struct agx_ipc_server;
struct event;

struct fwchan_config {
	const char *socket;    /* served once the firmware runs */
	const char *device;    /* agx-sim's setup socket */
	const char *memmgr;    /* agx-memmgr's privileged socket */
	unsigned ping_ms;      /* how often the firmware is pinged; 0: never */
	const char *crash_dir; /* where crash logs are saved; NULL: beside the socket */
};

struct fwchan {
	struct fwchan_config config;
	struct agx_daemon *daemon;
	struct event_base *base;
	struct kmem kmem;
	struct agx_ipc_client *device; /* the setup socket: closing it detaches */
	void *mmio;
	int doorbell_fd, irq_fd;
	struct rtkit rtkit;
	struct firmware fw;
	struct work work;
	struct agx_ipc_server *server;
	struct event *ping_timer;
	uint64_t ping_sent, pong_seen;
	bool serving;
	bool recovering; /* the device is being reset and the firmware booted again */
	unsigned recoveries;
	unsigned recovery_periods; /* ping periods since the recovery began */
	struct event *recover_ev;
	char lost_reason[96];
	/* memmgr's and the device's connections, watched for their end */
	struct event *memmgr_watch, *device_watch;
	bool peer_lost; /* one went away: fwchan exits with status 1 */
};

/*
 * Attaches to the device, boots its firmware; serving starts once it runs.
 * When agx-memmgr or the device goes away, fwchan cannot go on (its
 * firmware memory and its device went with them): it logs why, stops the
 * loop and sets peer_lost, and main() exits 1 for the service manager to
 * start the chain afresh.
 */
int fwchan_start(struct fwchan *f, struct agx_daemon *daemon, const struct fwchan_config *config);
void fwchan_stop(struct fwchan *f);

/* The firmware crashed or hangs: in-flight work is lost, the device reset, the firmware booted. */
void fwchan_recover(struct fwchan *f, const char *reason);

/* The FWCHAN interface (server.c). */
struct agx_ipc_server *fwchan_server_create(struct fwchan *f, int listen_fd);

#endif
