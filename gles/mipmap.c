/*
 * mipmap.c: glGenerateMipmap's levels as draws (GLES 3.0.6 section
 * 3.8.10; texture.c checks the call and makes the levels).  Each layer of
 * a level -- a 2D level, a cube face, a 2D array layer, a 3D slice -- is
 * one draw into it, as Mesa's drivers generate mipmaps: a framebuffer of
 * the driver's own with the layer as its colour attachment, and a program
 * that samples the level above with LINEAR filtering at the centre of
 * each texel drawn.  Where a level halves, that centre is the corner the
 * four texels under it share, and the bilinear sample there is their
 * mean, a 2x2 box filter; where an odd size does not halve exactly, it is
 * the bilinear sample at the centre's place (section 3.8.10 names no
 * filter).  A 3D slice is the mean of the two slices above it, sampled
 * apart (the second clamped to the last slice), as texture.c's box filter
 * takes them.
 *
 * The level above is sampled through a texture of the driver's own that
 * views it -- the same image, level and layers -- as a 2D array whose
 * only level it is, with a sampling state of its own (LINEAR,
 * CLAMP_TO_EDGE): the application's texture, its base and max levels and
 * its sampler objects are not touched.  sRGB levels decode when sampled
 * and encode when written, so they are filtered in linear space.
 *
 * The draws go into passes like any other (draw.h): no wait here; the
 * texture's images are mapped in the context's VM by them, so a later
 * upload or CPU read waits for them (gles_submit_cpu_access), and a
 * later draw or glReadPixels of this context comes after them on its
 * queue.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "context.h"
#include "draw.h"
#include "objects.h"
#include "program.h"
#include "state.h"

struct gles_mipmap_programs {
	struct gles_linked *linked[2]; /* [0]: one layer sampled, [1]: two slices (3D) */
};

/* A big triangle over the whole viewport, from gl_VertexID (no attributes). */
static const char mipmap_vs[] =
    "#version 300 es\n"
    "void main() {\n"
    "	gl_Position = vec4(float(gl_VertexID & 1) * 4.0 - 1.0,\n"
    "			   float(gl_VertexID >> 1) * 4.0 - 1.0, 0.0, 1.0);\n"
    "}\n";

/*
 * p.xy: one over the level's size, so that uv is the centre of the texel
 * drawn in the level above; p.z, p.w: the layers of the level above.
 */
static const char *const mipmap_fs[2] = {
	"#version 300 es\n"
	"precision highp float;\n"
	"uniform highp sampler2DArray s;\n"
	"uniform highp vec4 p;\n"
	"layout(location = 0) out highp vec4 o;\n"
	"void main() {\n"
	"	o = texture(s, vec3(gl_FragCoord.xy * p.xy, p.z));\n"
	"}\n",
	"#version 300 es\n"
	"precision highp float;\n"
	"uniform highp sampler2DArray s;\n"
	"uniform highp vec4 p;\n"
	"layout(location = 0) out highp vec4 o;\n"
	"void main() {\n"
	"	vec2 uv = gl_FragCoord.xy * p.xy;\n"
	"	o = 0.5 * (texture(s, vec3(uv, p.z)) + texture(s, vec3(uv, p.w)));\n"
	"}\n",
};

static struct gles_linked *program(struct gles_context *ctx, bool three_d)
{
	struct gles_mipmap_programs *mp = ctx->mipmap_programs;

	if (!mp && !(mp = ctx->mipmap_programs = calloc(1, sizeof(*mp))))
		return NULL;
	if (!mp->linked[three_d])
		mp->linked[three_d] = gles_program_link_internal(mipmap_vs, mipmap_fs[three_d]);
	return mp->linked[three_d];
}

void gles_mipmap_context_finish(struct gles_context *ctx)
{
	struct gles_mipmap_programs *mp = ctx->mipmap_programs;

	for (unsigned i = 0; mp && i < 2; i++)
		gles_linked_unref(mp->linked[i]);
	free(mp);
	ctx->mipmap_programs = NULL;
}

/* Uniform p of the fragment stage's default block: false when the link has none. */
static bool set_p(struct gles_linked *l, const float p[4])
{
	struct gles_program_stage *fs = &l->stages[GLES_STAGE_FRAGMENT];

	for (unsigned u = 0; u < l->num_uniforms; u++) {
		const struct gles_uniform *c = &l->uniforms[u];
		int at = c->stage_offset[GLES_STAGE_FRAGMENT];

		if (!strcmp(c->name, "p") && at >= 0 && (unsigned)at + 16 <= fs->uniform_size) {
			memcpy((uint8_t *)fs->uniform_data + at, p, 16);
			return true;
		}
	}
	return false;
}

/* The state a level's draw runs under: nothing but the triangle over the level, written whole. */
static void draw_state(struct gles_state *st, const struct gles_state *own, unsigned w, unsigned h)
{
	*st = *own;
	st->blend = st->cull_face = st->polygon_offset_fill = st->rasterizer_discard = false;
	st->sample_alpha_to_coverage = st->sample_coverage = false;
	st->scissor_test = st->depth_test = st->stencil_test = st->depth_mask = false;
	memset(st->clip_distance, 0, sizeof(st->clip_distance));
	for (unsigned c = 0; c < 4; c++)
		st->color_mask[c] = true;
	st->queries.active_samples = NULL;
	st->viewport[0] = st->viewport[1] = 0;
	st->viewport[2] = (GLint)w;
	st->viewport[3] = (GLint)h;
	st->depth_range[0] = 0;
	st->depth_range[1] = 1;
}

int gles_mipmap_draw_level(struct gles_context *ctx, struct gles_texture *t, GLenum face,
			   unsigned level)
{
	static const GLenum identity[4] = { GL_RED, GL_GREEN, GL_BLUE, GL_ALPHA };
	bool three_d = t->target == GL_TEXTURE_3D;
	struct gles_texture_level *dst = gles_texture_level(t, face, (GLint)level);
	struct gles_texture_level *src = gles_texture_level(t, face, (GLint)level - 1);
	struct gles_framebuffer *fb = NULL;
	struct gles_texture *view = NULL;
	struct gles_state *st = NULL;
	struct gles_linked *l;
	int ret = -ENOMEM;

	if (!dst || !src || !dst->image || !src->image)
		return -EINVAL;
	if (!(l = program(ctx, three_d)))
		return -ENOMEM;
	if (!(fb = calloc(1, sizeof(*fb))) || !(view = calloc(1, sizeof(*view))) ||
	    !(st = malloc(sizeof(*st))))
		goto out;
	/* the framebuffer: the layer drawn as colour attachment 0 */
	fb->att[0] = (struct gles_attachment){
		.type = GL_TEXTURE,
		.texture = t,
		.level = (GLint)level,
		.face = t->target == GL_TEXTURE_CUBE_MAP ? face : 0,
	};
	for (unsigned i = 1; i < GLES_ATTACH_COUNT; i++)
		fb->att[i].type = GL_NONE;
	fb->draw_buffers[0] = GL_COLOR_ATTACHMENT0;
	for (unsigned i = 1; i < GLES_MAX_DRAW_BUFFERS; i++)
		fb->draw_buffers[i] = GL_NONE;
	fb->read_buffer = GL_NONE;
	/* the view: the level above as the only level of a 2D array, filtered LINEAR */
	view->refs = 1;
	view->target = GL_TEXTURE_2D_ARRAY;
	view->dev = t->dev;
	view->levels[0][0] = *src;
	view->levels[0][0].stencil = NULL;
	gles_sampler_state_init(&view->sampler);
	view->sampler.min_filter = view->sampler.mag_filter = GL_LINEAR;
	view->sampler.wrap_s = view->sampler.wrap_t = view->sampler.wrap_r = GL_CLAMP_TO_EDGE;
	view->base_level = view->max_level = 0;
	memcpy(view->swizzle, identity, sizeof(identity));
	draw_state(st, ctx->state, dst->width, dst->height);

	for (unsigned z = 0; z < dst->depth; z++) {
		const struct gles_draw_bindings b = { .fb = fb, .texture = view };
		unsigned s0 = z, s1 = z;
		float p[4];

		if (three_d) {
			s0 = 2 * z < src->depth ? 2 * z : src->depth - 1;
			s1 = 2 * z + 1 < src->depth ? 2 * z + 1 : src->depth - 1;
		}
		/* the view's layers are the image's: the level's start at its image_layer */
		p[0] = 1.0f / (float)dst->width;
		p[1] = 1.0f / (float)dst->height;
		p[2] = (float)(src->image_layer + s0);
		p[3] = (float)(src->image_layer + s1);
		if (!set_p(l, p)) {
			ret = -EINVAL;
			goto out;
		}
		fb->att[0].layer = (GLint)z;
		if ((ret = gles_draw_driver(ctx, l, st, &b)) < 0)
			goto out;
	}
	ret = 0;
out:
	free(st);
	free(view);
	free(fb);
	return ret;
}
