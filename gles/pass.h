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
#include <stdint.h>

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

/*
 * Occlusion counters (ANY_SAMPLES_PASSED queries): a new counter, zeroed,
 * that draws name while its query is active (AGX_CMD_VISIBILITY_MODE_*);
 * the first one ends the open pass, whose render had no counters.  The
 * counters are reused in turn; their work is waited for before one is
 * given out again.  0 or a negative errno.
 */
#define GLES_PASS_COUNTERS 4096
int gles_pass_counter(struct gles_context *ctx, unsigned *counter);
/* The counter's value (nonzero: some sample passed), once the work that counted has run. */
uint64_t gles_pass_counter_value(struct gles_context *ctx, unsigned counter);

/*
 * A clear of whole targets of the draw framebuffer (glClear, glClearBuffer*
 * without a scissor or masks that leave part of them), done by the pass's
 * load program (AGX_LOAD_CLEAR) instead of a compute job, as tilers do:
 * colour draw buffers (bit i of colour) to their values, depth, stencil.
 * The pass over the framebuffer begins cleared -- or, when it is open and
 * nothing has been drawn in it yet, begins again with these clears added;
 * one with draws is ended first.  The caller makes the values what the
 * targets' formats hold (clamped, rounded).  On return the fields hold
 * what the pass took: nothing when the framebuffer cannot be a pass here
 * (the caller clears with compute work then).  0 or a negative errno.
 */
struct gles_pass_clear {
	unsigned colour;
	union agx_clear_colour value[AGX_RENDER_MAX_TARGETS];
	bool depth, stencil;
	float depth_value;
	uint8_t stencil_value;
};
int gles_pass_clear(struct gles_context *ctx, struct gles_pass_clear *c);

/*
 * glInvalidateFramebuffer of the draw framebuffer's whole colour draw
 * buffers (bit i), depth and stencil: when the open pass is over them,
 * its end stores nothing of them -- unless something is drawn in it or
 * cleared into them first, which defines their contents again.
 */
void gles_pass_invalidate(struct gles_context *ctx, unsigned colour, bool depth, bool stencil);

bool gles_pass_is_open(const struct gles_context *ctx);
/*
 * Counts the passes the context began: while it stays the same, the
 * pass's tilebuffer is the one a draw last saw (0 before the first).
 */
unsigned gles_pass_serial(const struct gles_context *ctx);
/* Ends the open pass into the job slot (gles_submit_render); 0 or a negative errno. */
int gles_pass_end(struct gles_context *ctx);
/* The context's pass state and tile-program cache go (its work has finished). */
void gles_pass_context_finish(struct gles_context *ctx);

#endif
