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

/*
 * A render pass: work.proto's Render, field for field and with its names
 * (docs/firmware-abi.md, "Render", says what each one does).  Addresses
 * are in the queue's VM; pipelines are 32-bit offsets from usc_base.  The
 * TVB heap (tvb, tvb_size) is the tiler's scratch memory, mapped writable:
 * agx_device_queue_tvb() (agx/device.h) manages one per queue.
 */
struct agx_sched_render {
	uint64_t encoder, encoder_end, usc_base;
	uint64_t tvb; /* 16-byte aligned */
	uint32_t tvb_size;
	uint32_t width, height;		    /* pixels, 1..16384 */
	uint32_t samples;		    /* 1 */
	uint32_t utile_width, utile_height; /* 32x32, 32x16 or 16x16 */
	uint32_t sample_size;		    /* tilebuffer bytes a sample: a multiple of 4, <= 64 */
	uint32_t load_pipeline, load_pipeline_bind;
	uint32_t store_pipeline, store_pipeline_bind;
	/* both, or neither: a heap too small then renders in passes instead of overflowing */
	uint32_t partial_reload_pipeline, partial_reload_pipeline_bind;
	uint32_t partial_store_pipeline, partial_store_pipeline_bind;
	uint64_t zls_control;		       /* cmdbuf.hw zls_control */
	uint64_t depth_buffer, stencil_buffer; /* 0: none */
	uint32_t depth_clear, stencil_clear;
	uint64_t scissor_array; /* cmdbuf.hw scissor, 16 bytes each */
	uint32_t scissor_count;
	uint64_t depth_bias_array; /* cmdbuf.hw depth_bias, 12 bytes each */
	uint32_t depth_bias_count;
	uint64_t visibility_result_buffer; /* u64 occlusion counters */
	uint32_t visibility_count;
};

enum agx_sched_cmd_kind {
	AGX_SCHED_CMD_COMPUTE = 1,
	AGX_SCHED_CMD_RENDER = 2,
};

/*
 * One command of a job: compute and render commands mix in a job and run
 * in the order given, each seeing what the ones before it wrote.
 */
struct agx_sched_cmd {
	enum agx_sched_cmd_kind kind;
	union {
		struct agx_sched_compute compute;
		struct agx_sched_render render;
	};
};

static inline struct agx_sched_cmd agx_sched_cmd_compute(struct agx_sched_compute c)
{
	return (struct agx_sched_cmd){ .kind = AGX_SCHED_CMD_COMPUTE, .compute = c };
}

static inline struct agx_sched_cmd agx_sched_cmd_render(struct agx_sched_render r)
{
	return (struct agx_sched_cmd){ .kind = AGX_SCHED_CMD_RENDER, .render = r };
}

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
 * A job: its commands (at most 64) run in order after every wait point is
 * reached; its signal points end after them, with the first failure among
 * them.  A render whose TVB heap was too small fails with -ENOSPC and
 * nothing else does: the queue goes on (agx_sched_tvb_wanted() says how
 * big a heap it needed).  -EBUSY: the client has as many unfinished jobs as it may (wait
 * for one and submit again).  -ECANCELED: the queue was reset, its context
 * lost (agx_sched_queue_status() says whose fault); other queues go on.  *seqno (may be NULL): the job's number on
 * its queue, from 1.
 */
int agx_sched_submit(struct agx_sched *s, uint32_t queue, const struct agx_sched_cmd *cmds,
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
int agx_sched_submit_async(struct agx_sched *s, uint32_t queue, const struct agx_sched_cmd *cmds,
			   unsigned num_cmds, const struct agx_sched_point *waits,
			   unsigned num_waits, const struct agx_sched_point *signals,
			   unsigned num_signals);
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
 * The largest TVB heap, in bytes, the firmware asked for on behalf of a
 * render of the queue so far (0: none): a render that overflowed its heap
 * (it failed with -ENOSPC) and one that got by with partial renders
 * (it succeeded, more slowly) both ask.  The scheduler sends these
 * requests as events on the connection before the render's completion
 * moves its fence, and they are taken in whenever the connection is read:
 * call this after waiting for the render, and size the next heap of the
 * queue to at least *bytes.  Forgotten with the queue.
 */
int agx_sched_tvb_wanted(struct agx_sched *s, uint32_t queue, uint64_t *bytes);

/*
 * A point as a file descriptor (readable once the point is reached; poll
 * it, pass it on), and a point of one's own timeline ended by it.
 */
int agx_sched_export(struct agx_sched *s, struct agx_sched_point point, int *fd);
int agx_sched_import(struct agx_sched *s, uint32_t syncobj, uint64_t value, int fd);

#endif
