/*
 * context.h: the GLES context object -- what one EGL context is on the GL
 * side: its API version, its robustness flags, the share group whose object
 * namespaces it uses, its error flag, the device it renders with and the
 * surfaces it draws to -- and the calling thread's current context, which
 * every GL entry point starts from.
 *
 * The EGL side (egl_*.c) creates, binds and destroys contexts; everything
 * else here belongs to GL.  docs/gles.md says how the state grows.
 */
#ifndef GLES_CONTEXT_H
#define GLES_CONTEXT_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

#include <GLES3/gl3.h>

#include "agx/device.h"
#include "agx/format.h"
#include "agx/layout.h"
#include "agx/memory.h"
#include "debug.h"

/* The pixel formats a surface's buffers may have. */
enum gles_surface_format {
	GLES_FORMAT_NONE,
	GLES_FORMAT_RGBA8_UNORM,  /* bytes R, G, B, A */
	GLES_FORMAT_B5G6R5_UNORM, /* one 16-bit word: R in bits 15..11, G 10..5, B 4..0 */
	GLES_FORMAT_Z32_FLOAT,	 /* one float: the depth of DEPTH24_STENCIL8, as formats.c has it */
	GLES_FORMAT_S8_UINT,	 /* one byte: stencil */
	GLES_FORMAT_Z24_FLOAT,	 /* one float: DEPTH_COMPONENT24 without stencil (formats.c) */
	GLES_FORMAT_Z16_UNORM,	 /* one 16-bit word: DEPTH_COMPONENT16 */
	GLES_FORMAT_RGBX8_UNORM, /* bytes R, G, B and one unused: RGB8 */
	GLES_FORMAT_RGB10A2_UNORM, /* one 32-bit word: R in bits 9..0, G 19..10, B 29..20, A 31..30
				    */
	GLES_FORMAT_RGBA16_FLOAT,  /* four halves R, G, B, A */
	GLES_FORMAT_D32_FLOAT,	   /* one float: DEPTH_COMPONENT32F */
};

/* The hardware format and GL sized internal format of a surface's buffers of format f (image.c). */
bool gles_surface_format_image(enum gles_surface_format f, enum agx_format *format,
			       GLenum *internalformat);

/* Whether a surface format is a colour one. */
static inline bool gles_surface_format_is_color(enum gles_surface_format f)
{
	return f == GLES_FORMAT_RGBA8_UNORM || f == GLES_FORMAT_B5G6R5_UNORM ||
	       f == GLES_FORMAT_RGBX8_UNORM || f == GLES_FORMAT_RGB10A2_UNORM ||
	       f == GLES_FORMAT_RGBA16_FLOAT;
}

/*
 * One buffer of a surface: an image of one level in a BO of the context's
 * device, in `layout` (agx/layout.h) -- linear for colour (rows 16-byte
 * aligned, as the PBE writes and compositor-bridge reads them), twiddled
 * for depth and stencil (the only images the ZLS renders to).
 */
struct gles_buffer {
	enum gles_surface_format format;
	struct agx_bo bo; /* bo.size 0: no storage (a 0x0 surface, or no such buffer) */
	struct agx_layout layout;
};

/*
 * What a GL context draws to or reads from when bound to an EGL surface:
 * its default framebuffer.  Owned by the EGL surface, which outlives every
 * binding of it.
 */
struct gles_drawable {
	unsigned width, height;
	/*
	 * Single-sampled, linear: what a window presents.  With samples (a
	 * multisampled config: 4) the GL draws into ms_color instead --
	 * twiddled in its sample grid, as multisampled renderbuffers are
	 * (image.h) -- and color is its resolve (gles_drawable_resolve),
	 * made at eglSwapBuffers; reads resolve as they read.
	 */
	struct gles_buffer color;
	unsigned samples;
	struct gles_buffer ms_color;
	/* format NONE when the config has neither; multisampled with samples */
	struct gles_buffer depth, stencil;
	unsigned red_bits, green_bits, blue_bits, alpha_bits, depth_bits, stencil_bits;
};

/*
 * A share group: the object namespaces (buffers, textures, renderbuffers,
 * samplers, programs and shaders, sync objects) that contexts created with
 * a share list have in common.  It holds no namespaces yet, only what every
 * one of them will need: its lifetime and its lock.
 */
struct gles_share_group {
	unsigned refs; /* atomic */
	pthread_mutex_t lock;
	struct gles_shared_objects *objects; /* objects.h: buffers, textures, samplers, ... */
	struct gles_programs *programs;	     /* program.h: shaders and programs */
};

struct gles_share_group *gles_share_group_create(void);
struct gles_share_group *gles_share_group_ref(struct gles_share_group *group);
/* Drops a reference; the last one destroys the group.  NULL is a no-op. */
void gles_share_group_unref(struct gles_share_group *group);

struct gles_state;
struct gles_shared_objects;
struct gles_objects;
struct gles_submit;
struct gles_draw_record;
struct gles_clear_programs;
struct gles_mipmap_programs;
struct gles_programs;
struct gles_program_binding;
struct gles_pass;
struct gles_variants;
struct gles_sampling;
struct gles_debug;

struct gles_context_params {
	unsigned major, minor;		/* 3.0, the only version */
	bool robust_access;		/* EGL_CONTEXT_OPENGL_ROBUST_ACCESS */
	bool lose_context_on_reset;	/* the reset notification strategy */
	bool debug;			/* EGL_CONTEXT_OPENGL_DEBUG */
	struct gles_share_group *share; /* NULL: a group of its own */
	struct agx_device *dev;
	const char *renderer; /* GL_RENDERER, copied */
};

struct gles_context {
	unsigned major, minor; /* GL_MAJOR_VERSION, GL_MINOR_VERSION: 3.0 */
	bool robust_access, lose_context_on_reset, debug;
	/*
	 * KHR_robustness: lost to a reset (with lose_context_on_reset, once
	 * glGetGraphicsResetStatus* has reported it): every GL command but
	 * the few the extension names records GL_CONTEXT_LOST and does
	 * nothing (gles_current() gives them no context).
	 */
	bool lost;
	/*
	 * KHR_parallel_shader_compile's GL_MAX_SHADER_COMPILER_THREADS_KHR:
	 * kept as the application sets it; compiles here finish within the
	 * call that starts them, so no count changes what happens.
	 */
	GLuint max_compiler_threads;
	struct gles_share_group *share;
	struct agx_device *dev;
	char renderer[128];
	char version[64];
	/* GL_NO_ERROR, or the first error recorded since glGetError last read it */
	GLenum error;
	/*
	 * KHR_debug's DEBUG_OUTPUT (debug.c owns it): here, not in
	 * debug_state, so that gles_error tests it without a load more.
	 */
	bool debug_output;
	struct gles_debug *debug_state; /* debug.h: the log, callback, groups */
	/* bound by eglMakeCurrent; NULL for both when made current without surfaces */
	const struct gles_drawable *draw, *read;
	struct gles_state *state; /* state.h: the fixed-function state vector, queries, xfb */
	struct gles_submit
	    *submit; /* submit.h: the VM, queue and command buffers of its GPU work */
	struct gles_objects *objects; /* objects.h: object bindings, framebuffers, vertex arrays */
	struct gles_program_binding *program; /* program.h: the current program */
	struct gles_pass *pass;		      /* pass.h: the render pass draws go into */
	struct gles_variants *variants;	      /* variants.h: compiled shader variants */
	struct gles_sampling *sampling;	      /* sampling.h: stand-ins for incomplete textures */
	struct gles_draw_record *draw_record; /* draw.c's scratch for one draw, made once */
	/*
	 * What changed since a draw last built the compiler's keys from it
	 * (GLES_DIRTY_*): the state setters set the bits, draw.c clears them
	 * and keeps its keys and variants while they stay clear.
	 */
	unsigned dirty;
	struct gles_clear_programs *clear_programs;   /* clear.c's programs of clears as draws */
	struct gles_mipmap_programs *mipmap_programs; /* mipmap.c's programs of levels as draws */
};

/* The vertex key: the vertex arrays' formats, enables, divisors, the current attributes' types. */
#define GLES_DIRTY_VERTEX_KEY (1u << 0)
/* The fragment key: blending, the colour mask, sample coverage (and any capability). */
#define GLES_DIRTY_FRAGMENT_KEY (1u << 1)
/*
 * The fixed-function groups a draw keeps the PPP state of (draw.c):
 * the viewport and depth range; the scissor test and box; the depth
 * and stencil tests, functions, operations and masks; culling, the front
 * face, the line width, polygon offset and rasterizer discard.
 */
#define GLES_DIRTY_VIEWPORT (1u << 2)
#define GLES_DIRTY_SCISSOR  (1u << 3)
#define GLES_DIRTY_ZS	    (1u << 4)
#define GLES_DIRTY_RASTER   (1u << 5)
#define GLES_DIRTY_ALL	    (~0u)

int gles_context_create(const struct gles_context_params *params, struct gles_context **out);
/* NULL is a no-op.  The context must not be current in any thread. */
void gles_context_destroy(struct gles_context *ctx);

/*
 * Makes ctx (NULL: none) the calling thread's current context, drawing to
 * draw and reading from read (both NULL: no default framebuffer).
 */
void gles_context_make_current(struct gles_context *ctx, const struct gles_drawable *draw,
			       const struct gles_drawable *read);

/* The calling thread's current context, NULL if none. */
extern __thread struct gles_context *gles_current_context;

/* A command of a lost context: GL_CONTEXT_LOST recorded (context.c). */
void gles_context_lost_command(struct gles_context *ctx);

/*
 * The context a GL command runs in: the current one, or NULL when there
 * is none or it is lost (KHR_robustness: the command then records
 * GL_CONTEXT_LOST and has no effect -- every entry point returns at once
 * without a context).  The commands KHR_robustness exempts (glGetError,
 * glGetGraphicsResetStatus*, and the three that report completion) read
 * gles_current_context themselves.
 */
static inline struct gles_context *gles_current(void)
{
	struct gles_context *ctx = gles_current_context;

	if (__builtin_expect(ctx && ctx->lost, 0)) {
		gles_context_lost_command(ctx);
		return NULL;
	}
	return ctx;
}

/*
 * Records err unless an error is already waiting for glGetError (GLES 3.0
 * section 2.5).  With DEBUG_OUTPUT on, every error generated -- the one
 * recorded or not -- is also a debug message (KHR_debug's addition to
 * section 2.5), which names the function that found it (__func__).
 */
#define gles_error(ctx, err) gles_error_in((ctx), (err), __func__)

static inline void gles_error_in(struct gles_context *ctx, GLenum err, const char *where)
{
	if (__builtin_expect(ctx->debug_output, 0))
		gles_debug_error(ctx, err, where);
	if (ctx->error == GL_NO_ERROR)
		ctx->error = err;
}

/*
 * Hands the context's recorded work to the GPU (glFlush, and EGL's implicit
 * flushes), and waits for all of it (glFinish, eglWaitClient).
 */
void gles_context_flush(struct gles_context *ctx);
void gles_context_finish(struct gles_context *ctx);

/* The GL function named name, NULL if this driver does not implement it (gl_table.c). */
void *gles_gl_proc(const char *name);
/* The table's i-th name, NULL past its end: the unit test checks the order. */
const char *gles_gl_proc_name(unsigned i);

#endif
