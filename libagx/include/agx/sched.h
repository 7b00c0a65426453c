/*
 * sched.h: libagx's client of agx-scheduler (docs/scheduler.md): queues,
 * timeline syncobjs, submissions, and waits that read the fence page
 * instead of asking.  One connection per struct agx_sched; it may be
 * shared between threads (calls are serialized inside, waits run side by
 * side).  Every call returns 0 or a negative errno, and agx_sched_error()
 * says why in words; -ENODEV or -ECONNRESET mean the scheduler is gone.
 */
#ifndef AGX_SCHED_H
#define AGX_SCHED_H

#include <stdbool.h>
#include <stdint.h>

/* The socket agx_sched_connect(NULL, ...) uses: $AGX_SCHEDULER_SOCKET, or this. */
#define AGX_SCHEDULER_SOCKET_DEFAULT "/run/agx/scheduler.sock"

/* agx.work.Priority; REALTIME is for root and the scheduler's realtime group. */
enum agx_priority {
	AGX_PRIORITY_LOW = 0,
	AGX_PRIORITY_NORMAL = 1,
	AGX_PRIORITY_HIGH = 2,
	AGX_PRIORITY_REALTIME = 3,
};

/* A queue's robustness state (GL's reset notification). */
enum agx_queue_status {
	AGX_QUEUE_OK = 0,
	AGX_QUEUE_GUILTY_RESET = 1,
	AGX_QUEUE_INNOCENT_RESET = 2,
	AGX_QUEUE_DEVICE_LOST = 3,
};

struct agx_sched;

struct agx_sched_point {
	uint32_t syncobj;
	uint64_t value;
};

/* A compute dispatch: a CDM stream in the queue's VM (work.proto's Compute). */
struct agx_sched_compute {
	uint64_t encoder, encoder_end, usc_base;
};

/* name: what metrics and logs call the client (NULL: the program's name). */
int agx_sched_connect(const char *socket, const char *name, struct agx_sched **out);
void agx_sched_disconnect(struct agx_sched *s);
const char *agx_sched_error(const struct agx_sched *s);

int agx_sched_queue_create(struct agx_sched *s, uint32_t vm, enum agx_priority priority,
			   uint32_t *queue);
int agx_sched_queue_destroy(struct agx_sched *s, uint32_t queue);
int agx_sched_queue_status(struct agx_sched *s, uint32_t queue, enum agx_queue_status *status);

int agx_sched_syncobj_create(struct agx_sched *s, uint32_t *syncobj);
int agx_sched_syncobj_destroy(struct agx_sched *s, uint32_t syncobj);

/*
 * A job: its commands run in order after every wait point is reached; its
 * signal points end after them.  -EBUSY: the client has as many unfinished
 * jobs as it may (wait for one and submit again).
 */
int agx_sched_submit(struct agx_sched *s, uint32_t queue, const struct agx_sched_compute *cmds,
		     unsigned num_cmds, const struct agx_sched_point *waits, unsigned num_waits,
		     const struct agx_sched_point *signals, unsigned num_signals, uint64_t *seqno);

/*
 * The same without waiting for the scheduler's answer: up to
 * AGX_SCHED_PIPELINE submissions may be unanswered at once.  Their
 * answers are collected when more are sent, by the next call that needs
 * the connection, or by agx_sched_flush(); a refusal among them is
 * returned, once, by the next agx_sched_submit_async() or
 * agx_sched_flush() (agx_sched_error() says which), and the refused job
 * does not exist.
 */
#define AGX_SCHED_PIPELINE 32
int agx_sched_submit_async(struct agx_sched *s, uint32_t queue,
			   const struct agx_sched_compute *cmds, unsigned num_cmds,
			   const struct agx_sched_point *waits, unsigned num_waits,
			   const struct agx_sched_point *signals, unsigned num_signals);
int agx_sched_flush(struct agx_sched *s);

/*
 * Waits for one point (or, with all, every point) on the fence page, with
 * no request to the scheduler; timeout_ns < 0: no limit.  0 with *status
 * the work's result (0, or the negative errno of the failure that reached
 * a point; for wait-any, the point *first names), -ETIMEDOUT, or -ENODEV
 * when the scheduler went away.  first and status may be NULL.
 */
int agx_sched_wait(struct agx_sched *s, const struct agx_sched_point *points, unsigned count,
		   bool all, int64_t timeout_ns, unsigned *first, int *status);
/* The same, asked of the scheduler (SYNCOBJ_WAIT): exact about old failures. */
int agx_sched_wait_ipc(struct agx_sched *s, const struct agx_sched_point *points, unsigned count,
		       bool all, uint64_t timeout_ns, unsigned *first, int *status);
/* The value a syncobj's timeline has reached, as the fence page shows it. */
uint64_t agx_sched_value(struct agx_sched *s, uint32_t syncobj);

/*
 * A point as a file descriptor (readable once the point is reached; poll
 * it, pass it on), and a point of one's own timeline ended by it.
 */
int agx_sched_export(struct agx_sched *s, struct agx_sched_point point, int *fd);
int agx_sched_import(struct agx_sched *s, uint32_t syncobj, uint64_t value, int fd);

#endif
