/*
 * submit.h: a context's GPU submission -- its VM and queue on the
 * context's device, the BOs mapped into that VM, the command buffer that
 * records its work (clears, for now), submissions with a timeline syncobj
 * and the last point submitted.
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

/* Submits what was recorded (nothing: nothing happens).  0 or a negative errno. */
int gles_submit_flush(struct gles_context *ctx);
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

#endif
