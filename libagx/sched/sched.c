/*
 * sched.c: the agx-scheduler client of agx/sched.h, on libagxipc's
 * blocking client, with waits on the fence page.
 *
 * A wait first looks at the page, spins on it for a few IPC busy-poll
 * budgets (a completion is a few hops away: the scheduler, fwchan, the
 * firmware, each of which answers within one), then sleeps in poll()
 * on the eventfd the scheduler writes after every batch of changes and on
 * the socket, so that a scheduler that dies wakes it.  One waiting thread
 * at a time sleeps in poll() and reads the eventfd; the others sleep on a
 * condition variable it broadcasts, so no thread's wake-up is eaten by
 * another's read.
 *
 * The scheduler's events (TVB grow requests) arrive on the socket between
 * answers; whichever call reads the socket hands them to on_event(), under
 * the lock like everything the connection carries.
 */
#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "agx/sched.h"
#include "agxipc/client.h"
#include "agxipc/fence_page.h"

#define TIMEOUT_MS 10000
#define SPIN_HOPS  4 /* a wait spins for this many IPC busy-poll budgets before it sleeps */

/* The largest TVB heap the scheduler said a render of the queue wanted. */
struct tvb_want {
	uint32_t queue;
	uint64_t bytes;
};

struct agx_sched {
	struct agx_ipc_client *client;
	pthread_mutex_t lock; /* the client, the slots, error, the TVB wants */
	pthread_mutex_t wait_lock;
	pthread_cond_t woken;
	bool polling; /* a thread sleeps in poll() for everyone */
	uint64_t wakes;
	const uint8_t *page;
	int event_fd;
	bool gone;
	uint32_t slots[AGX_FENCE_PAGE_SLOTS + 1]; /* [handle]: fence index + 1; 0: none */
	/* submissions sent and not yet answered, oldest first; the first refusal among them */
	uint32_t pending[AGX_SCHED_PIPELINE];
	unsigned pending_head, num_pending;
	int pending_error;
	struct tvb_want *wants;
	unsigned num_wants, max_wants;
	char error[AGX_IPC_MAX_ERROR_MESSAGE + 64];
};

static struct tvb_want *want_find(struct agx_sched *s, uint32_t queue)
{
	for (unsigned i = 0; i < s->num_wants; i++)
		if (s->wants[i].queue == queue)
			return &s->wants[i];
	return NULL;
}

static void want_record(struct agx_sched *s, uint32_t queue, uint64_t bytes)
{
	struct tvb_want *w = want_find(s, queue);

	if (!w) {
		if (s->num_wants == s->max_wants) {
			unsigned max = s->max_wants ? 2 * s->max_wants : 8;
			struct tvb_want *wants = realloc(s->wants, max * sizeof(*wants));

			if (!wants)
				return; /* the next request of the queue tries again */
			s->wants = wants;
			s->max_wants = max;
		}
		w = &s->wants[s->num_wants++];
		*w = (struct tvb_want){ queue, 0 };
	}
	if (bytes > w->bytes)
		w->bytes = bytes;
}

static void on_event(struct agx_ipc_msg *event, void *data)
{
	struct agx_sched *s = data;

	if (event->type == AGX_IPC_MSG_SCHED_TVB_GROW) {
		const Agx__Scheduler__TvbGrowEvent *e = (const void *)event->body;

		want_record(s, e->queue, e->bytes);
	}
}

/* Collects the oldest unanswered submission's reply; its refusal is kept for later. */
static int collect_one(struct agx_sched *s)
{
	struct agx_ipc_error err = { 0 };
	struct agx_ipc_msg reply;
	uint32_t id = s->pending[s->pending_head];
	int ret;

	s->pending_head = (s->pending_head + 1) % AGX_SCHED_PIPELINE;
	s->num_pending--;
	ret = agx_ipc_client_collect(s->client, id, AGX_IPC_MSG_SCHED_SUBMIT, &reply, TIMEOUT_MS,
				     &err);
	if (ret == 0) {
		agx_ipc_msg_finish(&reply);
		return 0;
	}
	if (!s->pending_error) {
		s->pending_error = ret;
		snprintf(s->error, sizeof(s->error), "SUBMIT: %s",
			 err.code ? err.message : strerror(-ret));
	}
	return ret;
}

/* Every answer still to come; the first refusal among them, once. */
static int collect_all(struct agx_sched *s)
{
	int ret;

	while (s->num_pending)
		collect_one(s);
	ret = s->pending_error;
	s->pending_error = 0;
	return ret;
}

static int call(struct agx_sched *s, uint16_t type, const ProtobufCMessage *body, const int *fds,
		unsigned num_fds, struct agx_ipc_msg *reply)
{
	struct agx_ipc_error err = { 0 };
	struct agx_ipc_msg local;
	int ret;

	/* replies come in order: the submissions' first (a refusal waits for flush) */
	while (s->num_pending)
		collect_one(s);
	ret = agx_ipc_client_call(s->client, type, body, fds, num_fds, reply ? reply : &local,
				  TIMEOUT_MS, &err);

	if (ret < 0)
		snprintf(s->error, sizeof(s->error), "%s: %s", agx_ipc_msg_info(type)->name,
			 err.code ? err.message : strerror(-ret));
	else if (!reply)
		agx_ipc_msg_finish(&local);
	return ret;
}

int agx_sched_connect(const char *socket, const char *name, struct agx_sched **out)
{
	Agx__Scheduler__FencePage m = AGX__SCHEDULER__FENCE_PAGE__INIT;
	struct agx_sched *s = calloc(1, sizeof(*s));
	struct agx_ipc_msg reply;
	int ret, page_fd;
	void *page;

	if (!s)
		return -ENOMEM;
	s->event_fd = -1;
	if (!socket)
		socket = getenv("AGX_SCHEDULER_SOCKET");
	if (!socket)
		socket = AGX_SCHEDULER_SOCKET_DEFAULT;
	ret = agx_ipc_client_connect(socket, AGX__IPC__INTERFACE__INTERFACE_SCHEDULER,
				     name ? name : program_invocation_short_name, TIMEOUT_MS,
				     &s->client, NULL);
	if (ret < 0) {
		free(s);
		return ret;
	}
	ret = call(s, AGX_IPC_MSG_SCHED_FENCE_PAGE, &m.base, NULL, 0, &reply);
	if (ret < 0) {
		agx_ipc_client_destroy(s->client);
		free(s);
		return ret;
	}
	page_fd = agx_ipc_msg_take_fd(&reply, 0);
	s->event_fd = agx_ipc_msg_take_fd(&reply, 1);
	agx_ipc_msg_finish(&reply);
	page = mmap(NULL, AGX_FENCE_PAGE_SIZE, PROT_READ, MAP_SHARED, page_fd, 0);
	close(page_fd);
	if (page == MAP_FAILED ||
	    ((const struct agx_fence_page_header *)page)->magic != AGX_FENCE_PAGE_MAGIC) {
		if (page != MAP_FAILED)
			munmap(page, AGX_FENCE_PAGE_SIZE);
		close(s->event_fd);
		agx_ipc_client_destroy(s->client);
		free(s);
		return -EPROTO;
	}
	s->page = page;
	agx_ipc_client_set_event_handler(s->client, on_event, s);
	pthread_mutex_init(&s->lock, NULL);
	pthread_mutex_init(&s->wait_lock, NULL);
	pthread_cond_init(&s->woken, NULL);
	*out = s;
	return 0;
}

void agx_sched_disconnect(struct agx_sched *s)
{
	if (!s)
		return;
	agx_ipc_client_destroy(s->client);
	munmap((void *)s->page, AGX_FENCE_PAGE_SIZE);
	close(s->event_fd);
	pthread_mutex_destroy(&s->lock);
	pthread_mutex_destroy(&s->wait_lock);
	pthread_cond_destroy(&s->woken);
	free(s->wants);
	free(s);
}

const char *agx_sched_error(const struct agx_sched *s)
{
	return s->error;
}

int agx_sched_queue_create(struct agx_sched *s, uint32_t vm, enum agx_priority priority,
			   uint32_t *queue)
{
	Agx__Scheduler__QueueCreate m = AGX__SCHEDULER__QUEUE_CREATE__INIT;
	struct agx_ipc_msg reply;
	int ret;

	m.vm = vm;
	m.priority = (Agx__Work__Priority)priority;
	pthread_mutex_lock(&s->lock);
	ret = call(s, AGX_IPC_MSG_SCHED_QUEUE_CREATE, &m.base, NULL, 0, &reply);
	pthread_mutex_unlock(&s->lock);
	if (ret < 0)
		return ret;
	*queue = ((const Agx__Scheduler__QueueCreateReply *)reply.body)->queue;
	agx_ipc_msg_finish(&reply);
	return 0;
}

int agx_sched_queue_destroy(struct agx_sched *s, uint32_t queue)
{
	Agx__Scheduler__QueueDestroy m = AGX__SCHEDULER__QUEUE_DESTROY__INIT;
	int ret;

	m.queue = queue;
	pthread_mutex_lock(&s->lock);
	ret = call(s, AGX_IPC_MSG_SCHED_QUEUE_DESTROY, &m.base, NULL, 0, NULL);
	if (ret == 0) {
		struct tvb_want *w = want_find(s, queue);

		if (w)
			*w = s->wants[--s->num_wants];
	}
	pthread_mutex_unlock(&s->lock);
	return ret;
}

int agx_sched_queue_status(struct agx_sched *s, uint32_t queue, enum agx_queue_status *status)
{
	Agx__Scheduler__QueryStatus m = AGX__SCHEDULER__QUERY_STATUS__INIT;
	struct agx_ipc_msg reply;
	int ret;

	m.queue = queue;
	pthread_mutex_lock(&s->lock);
	ret = call(s, AGX_IPC_MSG_SCHED_QUERY_STATUS, &m.base, NULL, 0, &reply);
	pthread_mutex_unlock(&s->lock);
	if (ret < 0)
		return ret;
	*status =
	    (enum agx_queue_status)((const Agx__Scheduler__QueryStatusReply *)reply.body)->status;
	agx_ipc_msg_finish(&reply);
	return 0;
}

int agx_sched_syncobj_create(struct agx_sched *s, uint32_t *syncobj)
{
	Agx__Scheduler__SyncobjCreate m = AGX__SCHEDULER__SYNCOBJ_CREATE__INIT;
	const Agx__Scheduler__SyncobjCreateReply *r;
	struct agx_ipc_msg reply;
	int ret;

	pthread_mutex_lock(&s->lock);
	ret = call(s, AGX_IPC_MSG_SCHED_SYNCOBJ_CREATE, &m.base, NULL, 0, &reply);
	if (ret == 0) {
		r = (const void *)reply.body;
		if (r->syncobj == 0 || r->syncobj > AGX_FENCE_PAGE_SLOTS ||
		    r->fence_index >= AGX_FENCE_PAGE_SLOTS) {
			snprintf(s->error, sizeof(s->error),
				 "SYNCOBJ_CREATE: syncobj %u at slot %u is not in the fence page",
				 r->syncobj, r->fence_index);
			ret = -EPROTO;
		} else {
			s->slots[r->syncobj] = r->fence_index + 1;
			*syncobj = r->syncobj;
		}
		agx_ipc_msg_finish(&reply);
	}
	pthread_mutex_unlock(&s->lock);
	return ret;
}

int agx_sched_syncobj_destroy(struct agx_sched *s, uint32_t syncobj)
{
	Agx__Scheduler__SyncobjDestroy m = AGX__SCHEDULER__SYNCOBJ_DESTROY__INIT;
	int ret;

	m.syncobj = syncobj;
	pthread_mutex_lock(&s->lock);
	ret = call(s, AGX_IPC_MSG_SCHED_SYNCOBJ_DESTROY, &m.base, NULL, 0, NULL);
	if (ret == 0)
		s->slots[syncobj] = 0;
	pthread_mutex_unlock(&s->lock);
	return ret;
}

static void points_init(Agx__Scheduler__SyncPoint *pb, Agx__Scheduler__SyncPoint **list,
			const struct agx_sched_point *points, unsigned count)
{
	for (unsigned i = 0; i < count; i++) {
		agx__scheduler__sync_point__init(&pb[i]);
		pb[i].syncobj = points[i].syncobj;
		pb[i].value = points[i].value;
		list[i] = &pb[i];
	}
}

#define MAX_POINTS 64
#define MAX_CMDS   64

static void render_to_pb(Agx__Work__Render *pb, const struct agx_sched_render *r)
{
	agx__work__render__init(pb);
	/* field for field, by the same names (a misspelt one does not compile) */
#define F(name) pb->name = r->name
	F(encoder);
	F(encoder_end);
	F(usc_base);
	F(tvb);
	F(tvb_size);
	F(width);
	F(height);
	F(samples);
	F(utile_width);
	F(utile_height);
	F(sample_size);
	F(load_pipeline);
	F(load_pipeline_bind);
	F(store_pipeline);
	F(store_pipeline_bind);
	F(partial_reload_pipeline);
	F(partial_reload_pipeline_bind);
	F(partial_store_pipeline);
	F(partial_store_pipeline_bind);
	F(zls_control);
	F(depth_buffer);
	F(stencil_buffer);
	F(depth_clear);
	F(stencil_clear);
	F(scissor_array);
	F(scissor_count);
	F(depth_bias_array);
	F(depth_bias_count);
	F(visibility_result_buffer);
	F(visibility_count);
#undef F
}

/* A SUBMIT built on the caller's stack, and sent: waiting for its reply (reply) or not. */
static int submit(struct agx_sched *s, uint32_t queue, const struct agx_sched_cmd *cmds,
		  unsigned num_cmds, const struct agx_sched_point *waits, unsigned num_waits,
		  const struct agx_sched_point *signals, unsigned num_signals,
		  struct agx_ipc_msg *reply)
{
	Agx__Scheduler__Submit m = AGX__SCHEDULER__SUBMIT__INIT;
	Agx__Scheduler__SyncPoint wpb[MAX_POINTS], *wl[MAX_POINTS], spb[MAX_POINTS],
	    *sl[MAX_POINTS];
	Agx__Scheduler__Command cpb[MAX_CMDS], *cl[MAX_CMDS];
	union {
		Agx__Work__Compute compute;
		Agx__Work__Render render;
	} work[MAX_CMDS];
	struct agx_ipc_error err = { 0 };
	int ret;

	if (num_cmds > MAX_CMDS || num_waits > MAX_POINTS || num_signals > MAX_POINTS) {
		snprintf(s->error, sizeof(s->error),
			 "SUBMIT: %u commands, %u waits, %u signals: at most %d, %d, %d", num_cmds,
			 num_waits, num_signals, MAX_CMDS, MAX_POINTS, MAX_POINTS);
		return -EINVAL;
	}
	for (unsigned i = 0; i < num_cmds; i++) {
		agx__scheduler__command__init(&cpb[i]);
		switch (cmds[i].kind) {
		case AGX_SCHED_CMD_COMPUTE:
			agx__work__compute__init(&work[i].compute);
			work[i].compute.encoder = cmds[i].compute.encoder;
			work[i].compute.encoder_end = cmds[i].compute.encoder_end;
			work[i].compute.usc_base = cmds[i].compute.usc_base;
			cpb[i].command_case = AGX__SCHEDULER__COMMAND__COMMAND_COMPUTE;
			cpb[i].compute = &work[i].compute;
			break;
		case AGX_SCHED_CMD_RENDER:
			render_to_pb(&work[i].render, &cmds[i].render);
			cpb[i].command_case = AGX__SCHEDULER__COMMAND__COMMAND_RENDER;
			cpb[i].render = &work[i].render;
			break;
		default:
			snprintf(s->error, sizeof(s->error),
				 "SUBMIT: command %u is of kind %d, neither compute nor render", i,
				 (int)cmds[i].kind);
			return -EINVAL;
		}
		cl[i] = &cpb[i];
	}
	points_init(wpb, wl, waits, num_waits);
	points_init(spb, sl, signals, num_signals);
	m.queue = queue;
	m.commands = cl;
	m.n_commands = num_cmds;
	m.waits = wl;
	m.n_waits = num_waits;
	m.signals = sl;
	m.n_signals = num_signals;
	if (reply)
		return call(s, AGX_IPC_MSG_SCHED_SUBMIT, &m.base, NULL, 0, reply);
	if (s->num_pending == AGX_SCHED_PIPELINE)
		collect_one(s);
	ret = agx_ipc_client_send_request(
	    s->client, AGX_IPC_MSG_SCHED_SUBMIT, &m.base, NULL, 0, TIMEOUT_MS,
	    &s->pending[(s->pending_head + s->num_pending) % AGX_SCHED_PIPELINE], &err);
	if (ret < 0) {
		snprintf(s->error, sizeof(s->error), "SUBMIT: %s",
			 err.code ? err.message : strerror(-ret));
		return ret;
	}
	s->num_pending++;
	return 0;
}

int agx_sched_submit(struct agx_sched *s, uint32_t queue, const struct agx_sched_cmd *cmds,
		     unsigned num_cmds, const struct agx_sched_point *waits, unsigned num_waits,
		     const struct agx_sched_point *signals, unsigned num_signals, uint64_t *seqno)
{
	struct agx_ipc_msg reply;
	int ret;

	pthread_mutex_lock(&s->lock);
	ret = submit(s, queue, cmds, num_cmds, waits, num_waits, signals, num_signals, &reply);
	pthread_mutex_unlock(&s->lock);
	if (ret < 0)
		return ret;
	if (seqno)
		*seqno = ((const Agx__Scheduler__SubmitReply *)reply.body)->seqno;
	agx_ipc_msg_finish(&reply);
	return 0;
}

int agx_sched_submit_async(struct agx_sched *s, uint32_t queue, const struct agx_sched_cmd *cmds,
			   unsigned num_cmds, const struct agx_sched_point *waits,
			   unsigned num_waits, const struct agx_sched_point *signals,
			   unsigned num_signals)
{
	int ret;

	pthread_mutex_lock(&s->lock);
	ret = s->pending_error;
	s->pending_error = 0;
	if (ret == 0)
		ret =
		    submit(s, queue, cmds, num_cmds, waits, num_waits, signals, num_signals, NULL);
	pthread_mutex_unlock(&s->lock);
	return ret;
}

int agx_sched_flush(struct agx_sched *s)
{
	int ret;

	pthread_mutex_lock(&s->lock);
	ret = collect_all(s);
	pthread_mutex_unlock(&s->lock);
	return ret;
}

/* --- waits on the fence page ------------------------------------------------------------ */

static const struct agx_fence_slot *slot_of(const struct agx_sched *s, uint32_t syncobj)
{
	uint32_t index = syncobj <= AGX_FENCE_PAGE_SLOTS
			     ? __atomic_load_n(&s->slots[syncobj], __ATOMIC_RELAXED)
			     : 0;

	return index ? (const void *)(s->page + AGX_FENCE_PAGE_HEADER +
				      (index - 1) * AGX_FENCE_SLOT_SIZE)
		     : NULL;
}

uint64_t agx_sched_value(struct agx_sched *s, uint32_t syncobj)
{
	const struct agx_fence_slot *slot = slot_of(s, syncobj);
	struct agx_fence_slot copy;

	if (!slot)
		return 0;
	agx_fence_slot_read(slot, &copy);
	return copy.value;
}

/* The status of a reached point the page cannot tell: asked of the scheduler, at once. */
static int exact_status(struct agx_sched *s, const struct agx_sched_point *point)
{
	int status = 0;

	if (agx_sched_wait_ipc(s, point, 1, true, 0, NULL, &status) < 0)
		return -ENODEV; /* reached, and the scheduler cannot say how: assume the worst */
	return status;
}

/* 1: done (*first, *status set), 0: not yet. */
static int check(struct agx_sched *s, const struct agx_sched_point *points, unsigned count,
		 bool all, unsigned *first, int *status)
{
	unsigned reached = 0;
	int st = 0;

	for (unsigned i = 0; i < count; i++) {
		int one;

		if (!agx_fence_slot_reached(slot_of(s, points[i].syncobj), points[i].value, &one))
			continue;
		if (one == AGX_FENCE_STATUS_ASK)
			one = exact_status(s, &points[i]);
		if (!all) {
			*first = i;
			*status = one;
			return 1;
		}
		if (one < 0 && !st)
			st = one;
		reached++;
	}
	if (!all || reached < count)
		return 0;
	*first = 0;
	*status = st;
	return 1;
}

static int64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static bool lost(struct agx_sched *s)
{
	return __atomic_load_n(&s->gone, __ATOMIC_ACQUIRE) ||
	       __atomic_load_n(&((const struct agx_fence_page_header *)s->page)->lost,
			       __ATOMIC_ACQUIRE);
}

/* Sleeps in poll() on behalf of every waiter, then tells them all. */
static void sleep_for_all(struct agx_sched *s, int64_t deadline)
{
	struct pollfd fds[2] = { { .fd = s->event_fd, .events = POLLIN },
				 { .fd = agx_ipc_client_fd(s->client), .events = 0 } };
	int timeout = -1;
	uint64_t count;

	if (deadline >= 0) {
		int64_t left = deadline - now_ns();

		timeout = left <= 0 ? 0 : (int)((left + 999999) / 1000000);
	}
	s->polling = true;
	pthread_mutex_unlock(&s->wait_lock);
	if (poll(fds, 2, timeout) > 0) {
		if (fds[0].revents & POLLIN && read(s->event_fd, &count, sizeof(count)) < 0 &&
		    errno != EAGAIN)
			__atomic_store_n(&s->gone, true, __ATOMIC_RELEASE);
		if (fds[1].revents & (POLLHUP | POLLERR))
			__atomic_store_n(&s->gone, true, __ATOMIC_RELEASE);
	}
	pthread_mutex_lock(&s->wait_lock);
	s->polling = false;
	s->wakes++;
	pthread_cond_broadcast(&s->woken);
}

int agx_sched_wait(struct agx_sched *s, const struct agx_sched_point *points, unsigned count,
		   bool all, int64_t timeout_ns, unsigned *first, int *status)
{
	int64_t deadline = timeout_ns < 0 ? -1 : now_ns() + timeout_ns;
	/* a fence is a few hops away (scheduler, fwchan, firmware), each within one budget */
	int64_t spin_until = now_ns() + (int64_t)agx_ipc_busy_poll_us() * 1000 * SPIN_HOPS;
	unsigned first_local;
	int status_local, ret = 0;

	if (!first)
		first = &first_local;
	if (!status)
		status = &status_local;
	for (unsigned i = 0; i < count; i++)
		if (!slot_of(s, points[i].syncobj)) {
			snprintf(s->error, sizeof(s->error), "wait: no syncobj %u",
				 points[i].syncobj);
			return -ENOENT;
		}
	/* completions are often close: look without sleeping first */
	while (!check(s, points, count, all, first, status)) {
		if (now_ns() >= spin_until || lost(s))
			goto sleep;
		agx_ipc_busy_poll_relax();
	}
	return 0;
sleep:
	pthread_mutex_lock(&s->wait_lock);
	for (;;) {
		if (check(s, points, count, all, first, status))
			break;
		if (lost(s)) {
			ret = -ENODEV;
			break;
		}
		if (deadline >= 0 && now_ns() >= deadline) {
			ret = -ETIMEDOUT;
			break;
		}
		if (!s->polling) {
			sleep_for_all(s, deadline);
		} else {
			uint64_t wakes = s->wakes;

			while (s->polling && s->wakes == wakes) {
				struct timespec ts;
				int64_t until = deadline;

				if (until < 0)
					until = now_ns() + 1000000000;
				clock_gettime(CLOCK_MONOTONIC, &ts);
				ts.tv_sec = until / 1000000000;
				ts.tv_nsec = until % 1000000000;
				if (pthread_cond_timedwait(&s->woken, &s->wait_lock, &ts) ==
				    ETIMEDOUT)
					break;
			}
		}
	}
	pthread_mutex_unlock(&s->wait_lock);
	if (ret == -ENODEV)
		snprintf(s->error, sizeof(s->error), "wait: agx-scheduler is gone");
	return ret;
}

int agx_sched_wait_ipc(struct agx_sched *s, const struct agx_sched_point *points, unsigned count,
		       bool all, uint64_t timeout_ns, unsigned *first, int *status)
{
	Agx__Scheduler__SyncobjWait m = AGX__SCHEDULER__SYNCOBJ_WAIT__INIT;
	Agx__Scheduler__SyncPoint pb[MAX_POINTS], *list[MAX_POINTS];
	const Agx__Scheduler__SyncobjWaitReply *r;
	struct agx_ipc_error err = { 0 };
	struct agx_ipc_msg reply;
	int ret, timeout_ms = -1;

	if (count > MAX_POINTS)
		return -EINVAL;
	points_init(pb, list, points, count);
	m.points = list;
	m.n_points = count;
	m.wait_all = all;
	m.timeout_ns = timeout_ns;
	if (timeout_ns != UINT64_MAX)
		timeout_ms = (int)(timeout_ns / 1000000 + TIMEOUT_MS);
	pthread_mutex_lock(&s->lock);
	while (s->num_pending)
		collect_one(s);
	ret = agx_ipc_client_call(s->client, AGX_IPC_MSG_SCHED_SYNCOBJ_WAIT, &m.base, NULL, 0,
				  &reply, timeout_ms, &err);
	if (ret < 0)
		snprintf(s->error, sizeof(s->error), "SYNCOBJ_WAIT: %s",
			 err.code ? err.message : strerror(-ret));
	pthread_mutex_unlock(&s->lock);
	if (ret < 0)
		return ret;
	r = (const void *)reply.body;
	if (first)
		*first = r->first_signaled;
	if (status)
		*status = r->error;
	agx_ipc_msg_finish(&reply);
	return 0;
}

int agx_sched_tvb_wanted(struct agx_sched *s, uint32_t queue, uint64_t *bytes)
{
	const struct tvb_want *w;
	int ret;

	pthread_mutex_lock(&s->lock);
	/* the answers to come first: reading for events must not eat them */
	while (s->num_pending)
		collect_one(s);
	ret = agx_ipc_client_dispatch_events(s->client, 0);
	if (ret < 0) {
		snprintf(s->error, sizeof(s->error), "reading the scheduler's events: %s",
			 strerror(-ret));
	} else {
		w = want_find(s, queue);
		*bytes = w ? w->bytes : 0;
		ret = 0;
	}
	pthread_mutex_unlock(&s->lock);
	return ret;
}

int agx_sched_export(struct agx_sched *s, struct agx_sched_point point, int *fd)
{
	Agx__Scheduler__SyncobjExport m = AGX__SCHEDULER__SYNCOBJ_EXPORT__INIT;
	Agx__Scheduler__SyncPoint p = AGX__SCHEDULER__SYNC_POINT__INIT;
	struct agx_ipc_msg reply;
	int ret;

	p.syncobj = point.syncobj;
	p.value = point.value;
	m.point = &p;
	pthread_mutex_lock(&s->lock);
	ret = call(s, AGX_IPC_MSG_SCHED_SYNCOBJ_EXPORT, &m.base, NULL, 0, &reply);
	pthread_mutex_unlock(&s->lock);
	if (ret < 0)
		return ret;
	*fd = agx_ipc_msg_take_fd(&reply, 0);
	agx_ipc_msg_finish(&reply);
	return 0;
}

int agx_sched_import(struct agx_sched *s, uint32_t syncobj, uint64_t value, int fd)
{
	Agx__Scheduler__SyncobjImport m = AGX__SCHEDULER__SYNCOBJ_IMPORT__INIT;
	int ret;

	m.syncobj = syncobj;
	m.value = value;
	pthread_mutex_lock(&s->lock);
	ret = call(s, AGX_IPC_MSG_SCHED_SYNCOBJ_IMPORT, &m.base, &fd, 1, NULL);
	pthread_mutex_unlock(&s->lock);
	return ret;
}
