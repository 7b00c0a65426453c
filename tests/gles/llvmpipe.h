/*
 * llvmpipe.h: the GLES tests' comparison with Mesa's llvmpipe.  A test
 * program's workload (its own binary run with --workload) makes GL calls
 * and prints what they gave, one record a line ("NAME HEXBYTES"); it runs
 * twice in child processes, once on our vendor over the test's stack and
 * once on Mesa's vendor (EGL_PLATFORM=surfaceless, LIBGL_ALWAYS_SOFTWARE=1),
 * and the two runs' records are compared by name:
 * - a plain name must be byte for byte the same;
 * - "~R.G.B.A~NAME": RGBA/UNSIGNED_BYTE pixels, each channel within the
 *   tolerance the prefix gives;
 * - "#NAME": what GL leaves to the implementation, printed when it differs.
 * AGX_TEST_LLVMPIPE_DUMP=PREFIX keeps the runs' records in PREFIX-0, -1.
 */
#ifndef TESTS_GLES_LLVMPIPE_H
#define TESTS_GLES_LLVMPIPE_H

#include <stdbool.h>
#include <stddef.h>

#include <EGL/egl.h>
#include <GLES3/gl3.h>

#include "stack.h"

#define MESA_VENDOR "/usr/share/glvnd/egl_vendor.d/50_mesa.json"

/* A record of the workload: name, then the bytes in hex. */
void llvmpipe_record(const char *name, const void *bytes, size_t n);
/* name:error, glGetError()'s value. */
void llvmpipe_record_error(const char *name);

/*
 * Runs the workload on both and fails the test when a record differs or
 * ours has fewer than min_records; skips it without Mesa's vendor.
 */
void llvmpipe_compare(const struct test_stack *s, size_t min_records);

/* Ends the workload (exit 1) with a message on stderr, for what leaves nothing to compare. */
void llvmpipe_fail(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));

/*
 * The first config of exactly these colour sizes among those with
 * surface_type (EGL_PBUFFER_BIT, EGL_WINDOW_BIT) and renderable as
 * OpenGL ES major.0; NULL if none.
 */
EGLConfig llvmpipe_config(EGLDisplay dpy, EGLint surface_type, EGLint major, EGLint r, EGLint g,
			  EGLint b, EGLint a);

/*
 * A pbuffer of w x h of the first config with exactly these colour sizes
 * (eglChooseConfig's order differs between vendors: with no sizes asked
 * for, Mesa's first is RGB565) and an ES major.0 context, made current.
 */
bool llvmpipe_make_current(EGLDisplay dpy, EGLint r, EGLint g, EGLint b, EGLint a, EGLint major,
			   EGLint w, EGLint h, EGLSurface *surf_out, EGLContext *ctx_out);
/* The end of a workload: the context and pbuffer released and destroyed, the display terminated. */
void llvmpipe_release(EGLDisplay dpy, EGLSurface surf, EGLContext ctx);

/*
 * A workload's program of the two shaders, attribute i bound to names[i]
 * (NULL-terminated; NULL for none), made current; a shader that does not
 * compile or a program that does not link ends the workload (exit 1).
 */
GLuint llvmpipe_program(const char *vs, const char *fs, const char *const *names);
/* The same, capturing the transform feedback varyings xfb (NULL-terminated) in xfb_mode. */
GLuint llvmpipe_program_xfb(const char *vs, const char *fs, const char *const *names,
			    const char *const *xfb, GLenum xfb_mode);

/*
 * GLSL ES 3.00 shaders of a colour per vertex: attributes pos (0) and col
 * (1), as llvmpipe_pos_col names them, the colour output as it is.
 */
extern const char llvmpipe_vs_pos_col[], llvmpipe_fs_col[];
extern const char *const llvmpipe_pos_col[];

/*
 * The main() of a test program of one comparison: its workload with
 * --workload, else a stack of the daemons its arguments name, and
 * llvmpipe_compare() over it.
 */
int llvmpipe_main(int argc, char **argv, int (*workload)(void), size_t min_records);

#endif
