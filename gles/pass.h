/*
 * pass.h: a context's render pass -- the draw framebuffer's colour, depth
 * and stencil images as the targets of one agx/render.h pass, begun at
 * the first draw into them and ended when the context draws elsewhere,
 * clears, reads, flushes or runs out of room (submit.h hands the ended
 * pass to the GPU as the last command of its job slot).  Passes reload
 * what the targets held and store what the draws made; a pass that ends
 * for room goes on in another over the same targets.
 */
#ifndef GLES_PASS_H
#define GLES_PASS_H

#include <stdbool.h>

#include "agx/render.h"

struct gles_context;

/*
 * The open pass over the current draw framebuffer's targets, begun (and
 * the previous one ended) when it has other targets or none is open.
 * NULL with *err: -EINVAL when the targets cannot be rendered here (the
 * reason is on stderr once), or the submission's error.
 */
struct agx_render *gles_pass_get(struct gles_context *ctx, int *err);

/* The open pass is full: it is ended and submitted, and another over its targets begun. */
struct agx_render *gles_pass_restart(struct gles_context *ctx, int *err);

bool gles_pass_is_open(const struct gles_context *ctx);
/* Ends the open pass into the job slot (gles_submit_render); 0 or a negative errno. */
int gles_pass_end(struct gles_context *ctx);
/* The context's pass state and tile-program cache go (its work has finished). */
void gles_pass_context_finish(struct gles_context *ctx);

#endif
