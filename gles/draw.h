/*
 * draw.h: draws the driver makes itself (clears that the pass's load
 * program cannot do): a program of its own, drawn into the draw
 * framebuffer's open pass with a state vector of its choosing in place of
 * the context's, as Mesa's meta operations do.
 */
#ifndef GLES_DRAW_H
#define GLES_DRAW_H

struct gles_context;
struct gles_linked;
struct gles_state;

/*
 * One triangle of three vertices (the program's vertex shader places
 * them from gl_VertexID; it reads no attributes) drawn with l under st
 * into the draw framebuffer's pass, which is begun if none is open.
 * Nothing is captured and nothing is counted, whatever the context's
 * transform feedback and queries.  0, or -errno (-ENOENT: nothing to draw
 * into; -EINVAL: a framebuffer the pass cannot render to).
 */
int gles_draw_driver(struct gles_context *ctx, struct gles_linked *l, struct gles_state *st);

/* clear.c: frees the programs its clears as draws made (the context's end). */
void gles_clear_context_finish(struct gles_context *ctx);

#endif
