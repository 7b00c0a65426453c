/*
 * export.c: a timeline point as a file descriptor (SYNCOBJ_EXPORT and
 * SYNCOBJ_IMPORT), for presentation and for sync between processes.
 *
 * The descriptor is one end of a SOCK_SEQPACKET socket pair whose other
 * end the scheduler keeps.  It becomes readable when the point is reached
 * -- a packet with the status, an int32 -- so a compositor polls it like a
 * sync_file.  Whoever holds it may pass it on and import it: the scheduler
 * knows its own sockets by their inode, which nobody can forge without
 * holding the descriptor.  An export lives while any copy of its
 * descriptor is open (the scheduler sees its end hang up), not with the
 * client that made it; it waits on the timeline, so a timeline nothing can
 * advance any more answers it -ECANCELED.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include <event2/event.h>

#include "agxipc/log.h"
#include "scheduler.h"

#define MAX_EXPORTS 16384 /* live, all clients */

struct import;

struct sched_export {
	struct sched_link link; /* scheduler.exports */
	struct scheduler *s;
	struct sched_client *client; /* who made it, while it lives: its quota */
	int fd;			     /* the scheduler's end */
	struct event *hangup;
	dev_t dev;
	ino_t ino; /* of the end given out */
	struct sched_wait wait;
	bool reached;
	int status;
	struct import *imports; /* points waiting for it */
};

/* A point of an importer's timeline that ends when the export's point is reached. */
struct import {
	struct import *next;
	struct sched_syncobj *obj;
	uint64_t value;
};

static unsigned num_exports;

static void end_imports(struct sched_export *e)
{
	while (e->imports) {
		struct import *im = e->imports;

		e->imports = im->next;
		sched_syncobj_signal(im->obj, im->value, e->status);
		free(im);
	}
}

static void export_free(struct sched_export *e)
{
	sched_syncobj_cancel(&e->wait);
	/* points imported from it still end: as cancelled, since nothing will reach them */
	if (!e->reached) {
		e->reached = true;
		e->status = -ECANCELED;
	}
	end_imports(e);
	if (e->client) {
		e->client->exports--;
		e->client->proc->exports--;
	}
	event_free(e->hangup);
	close(e->fd);
	sched_list_del(&e->link);
	num_exports--;
	free(e);
}

static void reached(struct sched_wait *w, int status)
{
	struct sched_export *e = sched_container_of(w, struct sched_export, wait);
	int32_t st = status;

	e->reached = true;
	e->status = status;
	/* the packet makes the descriptor readable; a full socket means one is there already */
	if (send(e->fd, &st, sizeof(st), MSG_DONTWAIT | MSG_NOSIGNAL) < 0 && errno != EAGAIN &&
	    errno != EPIPE)
		agx_warn_ratelimited(-1, "exported point: %s", strerror(errno));
	end_imports(e);
}

/* The last copy of the descriptor was closed (or its holder wrote to it: ignored). */
static void on_hangup(evutil_socket_t fd, short what, void *arg)
{
	struct sched_export *e = arg;
	uint8_t junk[64];
	ssize_t n = recv(fd, junk, sizeof(junk), MSG_DONTWAIT);

	if (n > 0 || (n < 0 && errno == EAGAIN))
		return;
	export_free(e);
}

int sched_export(struct sched_client *c, uint32_t handle, uint64_t value, int *out)
{
	struct scheduler *s = c->s;
	struct sched_syncobj *o = sched_handle_get(c, handle);
	struct sched_export *e;
	struct stat st;
	int sv[2], status;

	if (!o)
		return -ENOENT;
	if (c->proc->exports >= SCHED_MAX_EXPORTS || num_exports >= MAX_EXPORTS)
		return -EDQUOT;
	e = calloc(1, sizeof(*e));
	if (!e)
		return -ENOMEM;
	if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC | SOCK_NONBLOCK, 0, sv) < 0) {
		free(e);
		return -errno;
	}
	if (fstat(sv[1], &st) < 0 ||
	    !(e->hangup = event_new(s->base, sv[0], EV_READ | EV_PERSIST, on_hangup, e))) {
		int err = errno ? -errno : -ENOMEM;

		close(sv[0]);
		close(sv[1]);
		free(e);
		return err;
	}
	event_add(e->hangup, NULL);
	e->s = s;
	e->client = c;
	e->fd = sv[0];
	e->dev = st.st_dev;
	e->ino = st.st_ino;
	c->exports++;
	c->proc->exports++;
	num_exports++;
	sched_list_add_tail(&s->exports, &e->link);
	if (sched_syncobj_wait(o, value, &e->wait, reached, &status))
		reached(&e->wait, status);
	*out = sv[1]; /* the caller sends it and closes it */
	return 0;
}

static struct sched_export *find(struct scheduler *s, int fd)
{
	struct stat st;
	int type;
	socklen_t len = sizeof(type);

	if (fstat(fd, &st) < 0 || !S_ISSOCK(st.st_mode) ||
	    getsockopt(fd, SOL_SOCKET, SO_TYPE, &type, &len) < 0 || type != SOCK_SEQPACKET)
		return NULL;
	for (struct sched_link *l = s->exports.next; l != &s->exports; l = l->next) {
		struct sched_export *e = sched_container_of(l, struct sched_export, link);

		if (e->ino == st.st_ino && e->dev == st.st_dev)
			return e;
	}
	return NULL;
}

int sched_import(struct sched_client *c, uint32_t handle, uint64_t value, int fd, char *why,
		 size_t size)
{
	struct sched_syncobj *o = sched_handle_get(c, handle);
	struct sched_export *e;
	struct import *im;
	int ret;

	if (!o) {
		snprintf(why, size, "no syncobj %u", handle);
		return -ENOENT;
	}
	e = find(c->s, fd);
	if (!e) {
		snprintf(why, size, "the descriptor is not a point this scheduler exported");
		return -ENOENT;
	}
	if (value <= sched_syncobj_last_point(o)) {
		snprintf(why, size,
			 "syncobj %u has a point at %" PRIu64 "; a new one must be above it, not "
			 "%" PRIu64,
			 handle, sched_syncobj_last_point(o), value);
		return -EINVAL;
	}
	ret = sched_syncobj_add_point(o, value);
	if (ret < 0) {
		snprintf(why, size, "out of memory");
		return ret;
	}
	if (e->reached) {
		sched_syncobj_signal(o, value, e->status);
		return 0;
	}
	im = calloc(1, sizeof(*im));
	if (!im) {
		sched_syncobj_signal(o, value, -ENOMEM);
		snprintf(why, size, "out of memory");
		return -ENOMEM;
	}
	*im = (struct import){ e->imports, o, value };
	e->imports = im;
	return 0;
}

/* A client goes: its exports stay (others may hold them) but stop counting against it. */
void sched_exports_forget_client(struct scheduler *s, struct sched_client *c)
{
	for (struct sched_link *l = s->exports.next; l != &s->exports; l = l->next) {
		struct sched_export *e = sched_container_of(l, struct sched_export, link);

		if (e->client == c) {
			c->proc->exports--;
			e->client = NULL;
		}
	}
}

void sched_exports_fini(struct scheduler *s)
{
	while (!sched_list_empty(&s->exports))
		export_free(sched_container_of(s->exports.next, struct sched_export, link));
}
