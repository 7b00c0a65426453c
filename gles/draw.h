/*
 * draw.h: draws the driver makes itself (clears that the pass's load
 * program cannot do, mipmap levels): a program of its own, drawn into the
 * draw framebuffer's open pass -- or a framebuffer of the driver's own --
 * with a state vector of its choosing in place of the context's, as
 * Mesa's meta operations do.
 */
#ifndef GLES_DRAW_H
#define GLES_DRAW_H

#include <GLES3/gl3.h>

struct gles_context;
struct gles_framebuffer;
struct gles_linked;
struct gles_state;
struct gles_texture;

/*
 * What a driver draw renders into and samples in place of the context's
 * bindings, for that draw only: a framebuffer object of the driver's own
 * (NULL: the draw framebuffer), and the texture unit 0 has for the
 * texture's target (NULL: the context's), sampled with the texture's own
 * state -- no sampler object.  The context's bindings are as they were
 * when the draw returns.
 */
struct gles_draw_bindings {
	struct gles_framebuffer *fb;
	struct gles_texture *texture;
};

/*
 * One triangle of three vertices (the program's vertex shader places
 * them from gl_VertexID; it reads no attributes) drawn with l under st
 * into the draw framebuffer's pass (or b's framebuffer's), which is begun
 * if none is open.  Nothing is captured and nothing is counted, whatever
 * the context's transform feedback and queries.  0, or -errno (-ENOENT:
 * nothing to draw into; -EINVAL: a framebuffer the pass cannot render to).
 */
int gles_draw_driver(struct gles_context *ctx, struct gles_linked *l, struct gles_state *st,
		     const struct gles_draw_bindings *b);

/* clear.c: frees the programs its clears as draws made (the context's end). */
void gles_clear_context_finish(struct gles_context *ctx);

/*
 * mipmap.c: level `level` of face (a cube face target, or the texture's
 * target) of t, every layer or slice of it, drawn from level - 1 with
 * LINEAR filtering (glGenerateMipmap's GPU path).  Both levels exist,
 * in a colour-renderable, filterable, non-integer format.  0, or -errno
 * (-EINVAL: the pass cannot render the level; the caller filters it
 * another way).
 */
int gles_mipmap_draw_level(struct gles_context *ctx, struct gles_texture *t, GLenum face,
			   unsigned level);
/* mipmap.c: frees its programs (the context's end). */
void gles_mipmap_context_finish(struct gles_context *ctx);

#endif
