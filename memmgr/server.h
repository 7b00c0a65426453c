/*
 * server.h: agx-memmgr's two sockets: the client interface
 * (INTERFACE_MEMMGR) and the privileged one for agx-fwchan and
 * agx-scheduler (INTERFACE_MEMMGR_PRIVILEGED), and its own connection to
 * agx-fwchan for TLB invalidation.
 */
#ifndef MEMMGR_SERVER_H
#define MEMMGR_SERVER_H

#include <stdbool.h>

#include "memmgr.h"

struct event_base;
struct memmgr_server;

struct memmgr_server_config {
	int client_fd; /* listening sockets; the server owns them */
	int privileged_fd;
	const char *fwchan; /* agx-fwchan's socket, or NULL: no firmware to invalidate */
	struct memmgr_config memmgr;
};

struct memmgr_server *memmgr_server_create(struct event_base *base, struct memmgr_device *dev,
					   const struct memmgr_server_config *config);
void memmgr_server_destroy(struct memmgr_server *s);
struct memmgr *memmgr_server_state(struct memmgr_server *s);

#endif
