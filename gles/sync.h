/*
 * sync.h: what the rest of gles/ calls of sync.c, the GLES 3.0 sync
 * objects (GLES 3.0.6 section 5.2; struct gles_sync and the share group's
 * namespace are in objects.h).
 */
#ifndef GLES_SYNC_H
#define GLES_SYNC_H

#include <GLES3/gl3.h>

struct gles_context;

/*
 * ctx is being destroyed, and with it the syncobj its fences wait on
 * (submit.h): waits for its work, marks every sync object made from its
 * work signaled and lets no wait use that syncobj any more.  Called by
 * gles_context_destroy before gles_submit_finish.
 */
void gles_sync_context_finish(struct gles_context *ctx);

/* The name a GLsync handle stands for in the share group's namespace; 0 for none. */
GLuint gles_sync_name(GLsync sync);

#endif
