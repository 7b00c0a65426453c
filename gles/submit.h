/*
 * submit.h: a context's GPU submission -- its VM and queue on the
 * context's device, the BOs mapped into that VM, a ring of job slots --
 * each a command buffer of clears, the memory of one render pass (pass.h)
 * and the memory its draws upload -- submissions with a timeline syncobj
 * and the last point submitted.  A job is a slot's clears, then its pass.
 *
 * The device objects are made when work is first recorded, so a context
 * that never draws costs no VM.  A BO is mapped the first time recorded
 * work uses it and stays mapped while it lives: whoever frees a BO that
 * work may have used calls gles_submit_forget_bo first.  The default
 * framebuffer's BOs (the surface's) are mapped only while the context is
 * current on it: gles_submit_release unmaps them when it stops being
 * current, so a surface destroyed later leaves no mapping behind.
 *
 * One thread uses a context at a time (it is current in one thread), so
 * recording takes no lock; the mappings have one, as another context of
 * the share group may free a BO this context mapped.
 */
#ifndef GLES_SUBMIT_H
#define GLES_SUBMIT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "agx/clear.h"
#include "agx/device.h"

struct gles_context;
struct gles_image;

/* Creates ctx->submit (no device objects yet): 0 or -ENOMEM. */
int gles_submit_init(struct gles_context *ctx);
/* Waits for the context's work, unmaps everything and frees it all. */
void gles_submit_finish(struct gles_context *ctx);

/*
 * Records a clear of rect of a level and layer of img (agx/clear.h's
 * value and mask; mask NULL: all bits).  0, or a negative errno (no
 * device objects, a full command buffer that could not be submitted, the
 * device lost); the caller records GL_OUT_OF_MEMORY.
 */
int gles_submit_clear(struct gles_context *ctx, const struct gles_image *img, unsigned level,
		      unsigned layer, const struct agx_clear_rect *rect, const uint8_t *value,
		      const uint8_t *mask);

/*
 * The VA of bo in the context's VM, mapped the first time (surface: a
 * drawable's BO, unmapped when the context stops being current).
 */
int gles_submit_map(struct gles_context *ctx, const struct agx_bo *bo, bool surface, uint64_t *va);

/* A BO of the context's own, mapped in its VM with flags (agx/device.h), and its release. */
int gles_submit_bo(struct gles_context *ctx, size_t size, unsigned flags, struct agx_bo *bo,
		   uint64_t *va);
void gles_submit_bo_free(struct gles_context *ctx, struct agx_bo *bo, uint64_t va);

/*
 * The current slot's memory for a render pass (agx_render_begin's), and
 * the queue's TVB heap; a pass the slot already had is submitted first.
 */
int gles_submit_pass_memory(struct gles_context *ctx, void **map, uint64_t *va, size_t *size,
			    uint64_t *tvb, uint32_t *tvb_size);
/* The ended pass (agx_render_end's command): the last command of the slot's job. */
void gles_submit_render(struct gles_context *ctx, const struct agx_sched_render *render);

/*
 * size bytes (align-aligned) that work recorded in the current slot reads,
 * valid until that work has run.  -ENOSPC when the slot's memory is full:
 * the caller ends its pass (gles_submit_next) and asks again.
 */
int gles_submit_upload(struct gles_context *ctx, size_t size, size_t align, void **map,
		       uint64_t *va);
/* Submits the current slot's job: the next work goes into the next slot. */
int gles_submit_next(struct gles_context *ctx);
/*
 * A pass filled the slot's memory (its words, or its uploads): the slots
 * made or refilled from now on get twice as much of it, up to the most.
 */
void gles_submit_grow(struct gles_context *ctx);

/* Submits what was recorded (nothing: nothing happens).  0 or a negative errno. */
int gles_submit_flush(struct gles_context *ctx);
/*
 * GL's reset notification (EXT_robustness): whether the context's queue
 * was reset, and whose fault it was, as the scheduler says
 * (agx_device_queue_status); AGX_QUEUE_OK for a context that never
 * submitted.  A verdict other than OK stays: the queue is not made again.
 * 0, or a negative errno when the scheduler could not be asked (then
 * *status is AGX_QUEUE_DEVICE_LOST).
 */
int gles_submit_reset_status(struct gles_context *ctx, enum agx_queue_status *status);
/*
 * glWaitSync's GPU wait (sync.h): the next submission of ctx waits for
 * sync's point (a reference is kept until then), and gles_submit_wait
 * for it as well.  -ENOSPC when the submission holds no more waits.
 */
struct gles_sync;
int gles_submit_add_wait(struct gles_context *ctx, struct gles_sync *sync);
/* The timeline syncobj of ctx's submissions, 0 before its first. */
uint32_t gles_submit_syncobj(struct gles_context *ctx);
/* Submits, then waits until all of the context's work has finished. */
int gles_submit_wait(struct gles_context *ctx);

/*
 * A fence on the context's work so far (glFenceSync): submits what was
 * recorded and gives the syncobj and point that signal when all of it has
 * finished; point 0 when the context has no work (the fence is signaled).
 * 0 or a negative errno.
 */
int gles_submit_fence(struct gles_context *ctx, uint32_t *syncobj, uint64_t *point);

/* The context stops being current: its work is waited for and the surface BOs unmapped. */
void gles_submit_release(struct gles_context *ctx);

/*
 * bo of dev is about to be closed: every context that mapped it waits for
 * its work and unmaps it.  For image.c and buffer.c (module B), before
 * agx_device_bo_close of a BO that GPU work may have used.
 */
void gles_submit_forget_bo(struct agx_device *dev, const struct agx_bo *bo);

/*
 * The CPU is about to read or write bo of dev (glBufferSubData, a mapping,
 * a texture upload): the work of every context that may use it -- recorded
 * or running -- is submitted and waited for first, so that draws see the
 * bytes they were recorded with and reads see what the GPU wrote.
 */
void gles_submit_cpu_access(struct agx_device *dev, const struct agx_bo *bo);

#endif
