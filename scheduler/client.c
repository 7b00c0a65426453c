/*
 * client.c: one connection to agx-scheduler's socket (scheduler.h): its
 * syncobj handles and the fence page that mirrors their values.
 *
 * A handle's number minus one is its slot in the fence page, so a client
 * finds a timeline's value at a place it knows from SYNCOBJ_CREATE.  The
 * page is written under each slot's sequence count (agxipc/fence_page.h)
 * as timelines move; the client's eventfd is written once per loop turn in
 * which anything of its moved, not once per value.
 */
#include <errno.h>
#include <stdio.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/mman.h>
#include <unistd.h>

#include "agxipc/fence_page.h"
#include "agxipc/log.h"
#include "agxipc/server.h"
#include "scheduler.h"

/* The account of process pid, made with its first connection. */
static struct sched_process *process_get(struct scheduler *s, pid_t pid)
{
	struct sched_process *p;

	for (struct sched_link *l = s->processes.next; l != &s->processes; l = l->next) {
		p = sched_container_of(l, struct sched_process, link);
		if (p->pid == pid)
			return p;
	}
	p = calloc(1, sizeof(*p));
	if (!p)
		return NULL;
	p->pid = pid;
	sched_list_add_tail(&s->processes, &p->link);
	return p;
}

int sched_client_create(struct scheduler *s, struct agx_ipc_conn *conn, struct sched_client **out)
{
	const struct ucred *peer = agx_ipc_conn_peer(conn);
	struct sched_process *p = process_get(s, peer->pid);
	struct sched_client *c;

	if (!p)
		return -ENOMEM;
	if (p->connections >= SCHED_MAX_CONNS) {
		agx_warn_ratelimited(peer->pid,
				     "pid %d has %u connections, the most a process may have",
				     (int)peer->pid, p->connections);
		return -EDQUOT;
	}
	c = calloc(1, sizeof(*c));
	if (!c) {
		if (!p->connections) {
			sched_list_del(&p->link);
			free(p);
		}
		return -ENOMEM;
	}
	p->connections++;
	c->proc = p;
	c->s = s;
	c->conn = conn;
	c->pid = peer->pid;
	c->uid = peer->uid;
	c->gid = peer->gid;
	snprintf(c->name, sizeof(c->name), "%s", agx_ipc_conn_name(conn));
	c->page_fd = c->event_fd = -1;
	c->next_queue_id = 1;
	sched_list_init(&c->queues);
	sched_list_init(&c->waits);
	sched_list_init(&c->dirty_link);
	for (unsigned prio = 0; prio < SCHED_PRIORITIES; prio++) {
		sched_list_init(&c->runnable[prio]);
		sched_list_init(&c->run_link[prio]);
	}
	sched_list_add_tail(&s->clients, &c->link);
	s->num_clients++;
	*out = c;
	return 0;
}

void sched_client_free(struct sched_client *c)
{
	struct sched_process *p = c->proc;

	if (--p->connections == 0) {
		sched_list_del(&p->link);
		free(p);
	}
	free(c);
}

/* Everything the client held goes; work in flight finishes on its own, no one listening. */
void sched_client_destroy(struct sched_client *c)
{
	struct scheduler *s = c->s;

	c->gone = true;
	sched_exports_forget_client(s, c);
	while (!sched_list_empty(&c->queues)) {
		struct sched_queue *q =
		    sched_container_of(c->queues.next, struct sched_queue, client_link);

		sched_queue_destroy(c, q->id);
	}
	for (unsigned i = 0; i < c->num_handles; i++)
		if (c->handles[i])
			sched_handle_destroy(c, i + 1);
	if (c->page)
		munmap(c->page, AGX_FENCE_PAGE_SIZE);
	if (c->page_fd >= 0)
		close(c->page_fd);
	if (c->event_fd >= 0)
		close(c->event_fd);
	sched_list_del(&c->dirty_link);
	sched_list_del(&c->link);
	sched_list_init(&c->link);
	s->num_clients--;
	c->conn = NULL;
	/* queues that still have work in flight point at c until they go */
	sched_client_maybe_free(c);
}

void sched_client_maybe_free(struct sched_client *c)
{
	if (!c->gone || c->jobs || c->fw_items || c->queue_objs || sched_list_linked(&c->link))
		return;
	for (unsigned p = 0; p < SCHED_PRIORITIES; p++)
		sched_list_del(&c->run_link[p]);
	sched_list_add_tail(&c->s->dead_clients, &c->link);
	sched_turn_later(c->s);
}

/* The page, made on the first SYNCOBJ_CREATE or FENCE_PAGE. */
static int page_create(struct sched_client *c)
{
	struct agx_fence_page_header *h;
	int fd, efd;

	if (c->page)
		return 0;
	fd = memfd_create("agx-fence-page", MFD_CLOEXEC | MFD_ALLOW_SEALING);
	if (fd < 0)
		return -errno;
	efd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	if (efd < 0 || ftruncate(fd, AGX_FENCE_PAGE_SIZE) < 0)
		goto fail;
	c->page = mmap(NULL, AGX_FENCE_PAGE_SIZE, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (c->page == MAP_FAILED) {
		c->page = NULL;
		goto fail;
	}
	/* the client can map it only for reading, and never resize it */
	if (fcntl(fd, F_ADD_SEALS,
		  F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_FUTURE_WRITE | F_SEAL_SEAL) < 0) {
		munmap(c->page, AGX_FENCE_PAGE_SIZE);
		c->page = NULL;
		goto fail;
	}
	h = c->page;
	h->magic = AGX_FENCE_PAGE_MAGIC;
	h->version = AGX_FENCE_PAGE_VERSION;
	h->slot_size = AGX_FENCE_SLOT_SIZE;
	h->slots = AGX_FENCE_PAGE_SLOTS;
	c->page_fd = fd;
	c->event_fd = efd;
	return 0;
fail : {
	int err = -errno;

	if (efd >= 0)
		close(efd);
	close(fd);
	return err;
}
}

int sched_client_fence_page(struct sched_client *c, int *page_fd, int *event_fd)
{
	int ret = page_create(c);

	if (ret < 0)
		return ret;
	*page_fd = c->page_fd;
	*event_fd = c->event_fd;
	return 0;
}

static struct agx_fence_slot *slot_of(struct sched_client *c, uint32_t slot)
{
	return (struct agx_fence_slot *)((uint8_t *)c->page + AGX_FENCE_PAGE_HEADER +
					 slot * AGX_FENCE_SLOT_SIZE);
}

static void slot_write(struct agx_fence_slot *slot, struct sched_syncobj *o)
{
	uint64_t after = 0, upto = 0;
	int status = 0;
	uint32_t seq = slot->seq;

	sched_syncobj_last_failure(o, &after, &upto, &status);
	__atomic_store_n(&slot->seq, seq + 1, __ATOMIC_RELAXED);
	__atomic_thread_fence(__ATOMIC_RELEASE);
	__atomic_store_n(&slot->status, status, __ATOMIC_RELAXED);
	__atomic_store_n(&slot->value, sched_syncobj_value(o), __ATOMIC_RELAXED);
	__atomic_store_n(&slot->failed_after, after, __ATOMIC_RELAXED);
	__atomic_store_n(&slot->failed_upto, upto, __ATOMIC_RELAXED);
	__atomic_store_n(&slot->failures, sched_syncobj_failures(o), __ATOMIC_RELAXED);
	__atomic_store_n(&slot->seq, seq + 2, __ATOMIC_RELEASE);
}

/* A timeline of the client moved: its slot now, the eventfd at the end of the turn. */
static void observe(struct sched_syncobj *o, void *data)
{
	struct sched_handle *h = data;
	struct sched_client *c = h->client;

	slot_write(slot_of(c, h->slot), o);
	if (!c->page_dirty) {
		c->page_dirty = true;
		sched_list_add_tail(&c->s->dirty, &c->dirty_link);
		sched_turn_later(c->s);
	}
}

int sched_handle_create(struct sched_client *c, uint32_t *handle, uint32_t *slot)
{
	struct sched_handle *h;
	unsigned i;
	int ret = page_create(c);

	if (ret < 0)
		return ret;
	for (i = 0; i < AGX_FENCE_PAGE_SLOTS && c->handles[i]; i++)
		;
	if (i == AGX_FENCE_PAGE_SLOTS)
		return -EDQUOT;
	h = calloc(1, sizeof(*h));
	if (!h)
		return -ENOMEM;
	h->obj = sched_syncobj_create();
	if (!h->obj) {
		free(h);
		return -ENOMEM;
	}
	h->client = c;
	h->slot = i;
	c->handles[i] = h;
	if (i + 1 > c->num_handles)
		c->num_handles = i + 1;
	sched_syncobj_observe(h->obj, observe, h);
	slot_write(slot_of(c, i), h->obj);
	*handle = i + 1;
	*slot = i;
	return 0;
}

struct sched_syncobj *sched_handle_get(struct sched_client *c, uint32_t handle)
{
	if (handle == 0 || handle > c->num_handles || !c->handles[handle - 1])
		return NULL;
	return c->handles[handle - 1]->obj;
}

int sched_handle_destroy(struct sched_client *c, uint32_t handle)
{
	struct sched_handle *h;

	if (!sched_handle_get(c, handle))
		return -ENOENT;
	h = c->handles[handle - 1];
	c->handles[handle - 1] = NULL;
	/* the slot reads as it was last; nothing writes it until a new handle takes it */
	sched_syncobj_observe(h->obj, NULL, NULL);
	sched_syncobj_handle_unref(h->obj);
	free(h);
	return 0;
}

static void kick(struct sched_client *c)
{
	uint64_t one = 1;

	/* EAGAIN: the counter is full, so the client has a wake-up waiting anyway */
	if (write(c->event_fd, &one, sizeof(one)) < 0 && errno != EAGAIN)
		agx_warn_ratelimited(c->pid, "client %s (pid %d): eventfd: %s", c->name,
				     (int)c->pid, strerror(errno));
}

void sched_client_wake(struct scheduler *s)
{
	while (!sched_list_empty(&s->dirty)) {
		struct sched_client *c =
		    sched_container_of(s->dirty.next, struct sched_client, dirty_link);

		sched_list_del(&c->dirty_link);
		c->page_dirty = false;
		kick(c);
	}
}

void sched_client_lost(struct sched_client *c)
{
	if (!c->page)
		return;
	__atomic_store_n(&((struct agx_fence_page_header *)c->page)->lost, 1, __ATOMIC_RELEASE);
	kick(c);
}
