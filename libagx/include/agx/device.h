/*
 * device.h: the GPU as a driver sees it -- one object that holds the
 * connections to agx-memmgr and agx-scheduler (agx/memory.h, agx/sched.h)
 * and gives buffer objects, GPU address spaces with an address allocator,
 * queues with the TVB heaps of their renders, submissions and waits on the
 * fence page.
 *
 * Every function may be called from any thread.  Each returns 0 or a
 * negative errno; agx_device_error() says why in words, for the calling
 * thread's last failure.  When a daemon goes away, the device is lost:
 * the call that found out and every call after it return -ENODEV (waits
 * too: they never hang on a dead stack), and the driver opens a new
 * device once the stack is back.
 */
#ifndef AGX_DEVICE_H
#define AGX_DEVICE_H

#include <stdbool.h>
#include <stdint.h>

#include "agx/memory.h"
#include "agx/sched.h"

struct agx_device;
struct agx_device_vm;

struct agx_device_config {
	const char *memmgr_socket;    /* NULL: $AGX_MEMMGR_SOCKET, else the default */
	const char *scheduler_socket; /* NULL: $AGX_SCHEDULER_SOCKET, else the default */
	const char *name;     /* the client's name in logs and metrics; NULL: the program's */
	uint32_t tvb_initial; /* bytes of a queue's first TVB heap; 0: AGX_DEVICE_TVB_INITIAL */
};

struct agx_device_info {
	uint32_t chip_id;    /* 0x8103: M1 */
	uint32_t generation; /* 13: G13 */
	uint32_t num_cores;
	char firmware_version[64];
	uint32_t page_size;	   /* of GPU mappings */
	uint64_t va_start, va_end; /* the user half of every VM */
	/*
	 * Shader code, pipelines and command streams are 32-bit offsets from
	 * this base: agx_device_vm_map() with AGX_MAP_USC puts a BO within
	 * 4 GiB above it.
	 */
	uint64_t usc_base;
	uint64_t memory_quota; /* bytes of BOs this client may hold */
	/*
	 * The GPU time one job may take before the firmware ends it (0: no
	 * limit), and the bytes a millisecond the device writes with shader
	 * stores: a client that splits long work (large clears, long passes)
	 * keeps each job well inside the limit by them.
	 */
	uint32_t job_time_limit_ms;
	uint64_t fill_bytes_per_ms;
};

/* config may be NULL. */
int agx_device_open(const struct agx_device_config *config, struct agx_device **out);
/* Closes the connections: everything the device made goes with them. */
void agx_device_close(struct agx_device *dev);
const struct agx_device_info *agx_device_info(const struct agx_device *dev);
bool agx_device_is_lost(const struct agx_device *dev);
/* The calling thread's last failure on any device, in words ("" when none). */
const char *agx_device_error(void);

/* ---- buffer objects (agx/memory.h's struct agx_bo, its flags) ---- */

int agx_device_bo_create(struct agx_device *dev, uint64_t size, unsigned flags, struct agx_bo *bo);
int agx_device_bo_close(struct agx_device *dev, struct agx_bo *bo);
int agx_device_bo_export(struct agx_device *dev, const struct agx_bo *bo,
			 uint8_t token[AGX_MEMORY_TOKEN_BYTES]);
int agx_device_bo_import(struct agx_device *dev, const uint8_t token[AGX_MEMORY_TOKEN_BYTES],
			 struct agx_bo *bo);
/* agx_bo_import_fd (agx/memory.h) on the device's memmgr connection. */
int agx_device_bo_import_fd(struct agx_device *dev, int fd, struct agx_bo *bo);

/* ---- address spaces ---- */

/* agx_device_vm_map()'s flags, besides AGX_BIND_READ, _WRITE, _EXECUTE. */
#define AGX_MAP_USC (1u << 16) /* within 4 GiB above usc_base */

int agx_device_vm_create(struct agx_device *dev, struct agx_device_vm **vm);
/* Unmaps everything, its queues' TVB heaps too, and destroys the VM; NULL is a no-op. */
void agx_device_vm_destroy(struct agx_device *dev, struct agx_device_vm *vm);
uint32_t agx_device_vm_id(const struct agx_device_vm *vm);
/*
 * Maps the whole BO at an address the VM's allocator picks (an unmapped
 * guard page after each mapping, so that an overrun faults): *va.
 * -ENOSPC when no range is free.
 */
int agx_device_vm_map(struct agx_device *dev, struct agx_device_vm *vm, const struct agx_bo *bo,
		      unsigned flags, uint64_t *va);
int agx_device_vm_unmap(struct agx_device *dev, struct agx_device_vm *vm, uint64_t va);

/* ---- queues, syncobjs, work ---- */

int agx_device_queue_create(struct agx_device *dev, struct agx_device_vm *vm,
			    enum agx_priority priority, uint32_t *queue);
/* What it had not run fails with -ECANCELED; its TVB heaps go once what ran ended. */
int agx_device_queue_destroy(struct agx_device *dev, uint32_t queue);
/* GL's reset notification: whether the queue's context was lost, and whose fault it was. */
int agx_device_queue_status(struct agx_device *dev, uint32_t queue, enum agx_queue_status *status);
int agx_device_syncobj_create(struct agx_device *dev, uint32_t *syncobj);
int agx_device_syncobj_destroy(struct agx_device *dev, uint32_t syncobj);
/*
 * A point as a file descriptor the caller owns (agx_sched_export): it
 * becomes readable once the point is reached, and may be passed to other
 * processes, which poll it like a sync_file.
 */
int agx_device_point_export(struct agx_device *dev, struct agx_sched_point point, int *fd);

/*
 * agx_sched_submit(): a job of compute and render commands, run in order
 * (-EBUSY: too many unfinished jobs; wait and submit again).  -ECANCELED
 * when the queue was reset (its context is lost, GL's robustness:
 * agx_device_queue_status() says whose fault it was); the device and its
 * other queues are not lost.
 */
int agx_device_submit(struct agx_device *dev, uint32_t queue, const struct agx_sched_cmd *cmds,
		      unsigned num_cmds, const struct agx_sched_point *waits, unsigned num_waits,
		      const struct agx_sched_point *signals, unsigned num_signals);
/*
 * The TVB heap of a queue's renders (struct agx_sched_render's tvb and
 * tvb_size): the tiler's scratch memory, which the device manages, one per
 * queue.  *va and *size: the heap, a BO mapped readable and writable in
 * the queue's VM, made at the first call: tvb_initial bytes (rounded up to
 * a power of two and a page).  Once the firmware asked for more on behalf
 * of a render of the queue (agx_sched_tvb_wanted(): a render that failed
 * with -ENOSPC or got by with partial renders), the next call grows it
 * first: a new heap of the size asked for, rounded up to a power of two,
 * at most AGX_DEVICE_TVB_MAX (a render needing more must have partial
 * pipelines).  The old heap stays mapped until every job submitted to the
 * queue before the growth has ended (renders in flight may still be
 * binning into it), and is freed by a later call or with the queue.
 *
 * So a driver asks for the heap before building each render pass, and
 * after a render failed with -ENOSPC, asks again and submits it again.
 * Destroying the queue waits for its jobs to end before the heaps go.
 *
 * AGX_DEVICE_TVB_INITIAL, 1 MiB, holds a 1080p frame in 32x32 tiles:
 * its tile table and the list blocks of about seven full-screen layers
 * of primitives, so that most applications never wait for a growth.
 */
#define AGX_DEVICE_TVB_INITIAL (1u << 20)
#define AGX_DEVICE_TVB_MAX     (256u << 20)
int agx_device_queue_tvb(struct agx_device *dev, uint32_t queue, uint64_t *va, uint32_t *size);
/* agx_sched_tvb_wanted(): the largest heap the firmware asked for, for the queue (0: none). */
int agx_device_queue_tvb_wanted(struct agx_device *dev, uint32_t queue, uint64_t *bytes);

/*
 * Waits on the fence page for every point (all) or one of them, no IPC;
 * timeout_ns < 0: no limit.  0 with *status the work's result (0 or the
 * failure's negative errno), -ETIMEDOUT, -ENODEV.
 */
int agx_device_wait(struct agx_device *dev, const struct agx_sched_point *points, unsigned count,
		    bool all, int64_t timeout_ns, int *status);

#endif
