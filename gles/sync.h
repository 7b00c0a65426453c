/*
 * sync.h: what the rest of gles/ calls of sync.c, the GLES 3.0 sync
 * objects (GLES 3.0.6 section 5.2; struct gles_sync and the share group's
 * namespace are in objects.h).
 */
#ifndef GLES_SYNC_H
#define GLES_SYNC_H

#include <stdbool.h>
#include <stdint.h>

#include <GLES3/gl3.h>

struct agx_device;
struct agx_sched_point;
struct gles_context;
struct gles_sync;

/*
 * ctx is being destroyed, and with it the syncobj its fences wait on
 * (submit.h): waits for its work, marks every sync object made from its
 * work signaled and lets no wait use that syncobj any more.  Called by
 * gles_context_destroy before gles_submit_finish.
 */
void gles_sync_context_finish(struct gles_context *ctx);

/*
 * A fence of all of ctx's work so far, as glFenceSync makes one, but in no
 * namespace (EGL sync objects, egl_sync.c): one reference, the caller's
 * (gles_sync_unref, objects.h); NULL when out of memory.
 */
struct gles_sync *gles_sync_fence(struct gles_context *ctx);
struct gles_sync *gles_sync_ref(struct gles_sync *s);
/* Whether s has signaled, waiting up to timeout_ns for it (negative: no limit; 0: a look). */
bool gles_sync_wait(struct gles_sync *s, int64_t timeout_ns);

/*
 * glWaitSync and eglWaitSync: ctx's later commands come after s.  The wait
 * is the GPU's where it can be: ctx's next submission waits for s's point
 * (gles_submit_add_wait), and CPU reads of ctx's results (glReadPixels)
 * wait for it too (gles_submit_wait).  A fence of ctx's own work is
 * passed already (one queue runs in order); one of another device's
 * connection, or more waits than a submission holds, are waited for here,
 * on the CPU.
 */
void gles_sync_wait_gpu(struct gles_context *ctx, struct gles_sync *s);

/*
 * For submit.c: the points of the pending syncs a submission waits for
 * (those not signaled yet), into points (n at most): each of those held
 * (held[i]), so that its context cannot end its syncobj while the
 * submission names it, until gles_sync_points_release with the same
 * syncs, count and held.  The count of points.
 */
unsigned gles_sync_points_hold(struct gles_sync *const *syncs, unsigned n, struct agx_device *dev,
			       struct agx_sched_point *points, bool *held);
void gles_sync_points_release(struct gles_sync *const *syncs, unsigned n, const bool *held);

/* The name a GLsync handle stands for in the share group's namespace; 0 for none. */
GLuint gles_sync_name(GLsync sync);

#endif
