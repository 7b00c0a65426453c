/*
 * test-demos: Mesa's es2tri and es2gears (mesa-utils), unmodified, on an
 * X server of the test's own: each runs once on our vendor over the test's
 * stack and once on Mesa's llvmpipe, its window is read back from the X
 * server (GetImage) once two reads a moment apart agree, and the two
 * windows are compared pixel by pixel.  es2gears animates by the clock:
 * frozen-time.so stops it, so both draw the same frame.
 *
 * The rasterizers may decide an edge pixel differently (they snap vertices
 * to different subpixel grids, which GL leaves to the implementation), so
 * a few pixels along edges may differ wholly; every other pixel must be
 * within a small tolerance.  The windows are written as PNGs
 * (AGX_TEST_DEMOS_PNG=DIR) to look at.
 *
 * Programs and modules come from the environment meson sets:
 * AGX_TEST_ES2TRI, AGX_TEST_ES2GEARS, AGX_TEST_FROZEN_TIME, AGX_TEST_PRELOAD
 * (the sanitizer runtime an uninstrumented demo needs to load a sanitized
 * libEGL_agx) and AGX_TEST_VENDOR (our vendor file).
 */
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>
#include <png.h>
#include <xcb/xcb.h>

#include "llvmpipe.h"
#include "stack.h"
#include "xvfb.h"

/* Channel steps a pixel may differ by, and the share of pixels that may differ more (edges). */
#define TOLERANCE  4
#define EDGE_SHARE 0.01
#define WAIT_S	   180

static struct test_stack_options options;

struct demos {
	struct test_stack stack;
	struct test_xvfb xvfb;
	xcb_connection_t *conn;
	xcb_window_t root;
};

struct grab {
	unsigned w, h;
	uint8_t *rgb; /* w * h * 3 */
};

/* The demo's window: the first viewable child of the root. */
static xcb_window_t demo_window(struct demos *d, unsigned *w, unsigned *h)
{
	xcb_query_tree_reply_t *tree =
	    xcb_query_tree_reply(d->conn, xcb_query_tree(d->conn, d->root), NULL);
	xcb_window_t found = 0;

	if (!tree)
		return 0;
	for (int i = 0; i < xcb_query_tree_children_length(tree) && !found; i++) {
		xcb_window_t win = xcb_query_tree_children(tree)[i];
		xcb_get_window_attributes_reply_t *a = xcb_get_window_attributes_reply(
		    d->conn, xcb_get_window_attributes(d->conn, win), NULL);
		xcb_get_geometry_reply_t *g =
		    xcb_get_geometry_reply(d->conn, xcb_get_geometry(d->conn, win), NULL);

		if (a && g && a->map_state == XCB_MAP_STATE_VIEWABLE && g->width >= 64) {
			found = win;
			*w = g->width;
			*h = g->height;
		}
		free(a);
		free(g);
	}
	free(tree);
	return found;
}

/* The window's pixels as RGB (a 24-bit TrueColor visual: BGRX words). */
static bool read_window(struct demos *d, xcb_window_t win, unsigned w, unsigned h, uint8_t *rgb)
{
	xcb_get_image_reply_t *img = xcb_get_image_reply(
	    d->conn, xcb_get_image(d->conn, XCB_IMAGE_FORMAT_Z_PIXMAP, win, 0, 0, w, h, ~0u), NULL);
	const uint8_t *px;

	if (!img)
		return false;
	if ((unsigned)xcb_get_image_data_length(img) < w * h * 4) {
		free(img);
		return false;
	}
	px = xcb_get_image_data(img);
	for (unsigned i = 0; i < w * h; i++) {
		rgb[3 * i] = px[4 * i + 2];
		rgb[3 * i + 1] = px[4 * i + 1];
		rgb[3 * i + 2] = px[4 * i];
	}
	free(img);
	return true;
}

static void sleep_ms(unsigned ms)
{
	struct timespec ts = { ms / 1000, (long)(ms % 1000) * 1000000 };

	nanosleep(&ts, NULL);
}

static void write_png(const char *name, const struct grab *g)
{
	const char *dir = getenv("AGX_TEST_DEMOS_PNG");
	char path[4096];
	png_image image = { .version = PNG_IMAGE_VERSION,
			    .width = g->w,
			    .height = g->h,
			    .format = PNG_FORMAT_RGB };

	if (!dir)
		return;
	snprintf(path, sizeof(path), "%s/%s.png", dir, name);
	if (!png_image_write_to_file(&image, path, 0, g->rgb, 0, NULL))
		print_message("# %s: %s\n", path, image.message);
}

/*
 * Runs argv with env added until its window holds a steady image: that
 * image, the demo stopped.
 */
static void run_demo(struct demos *d, char *const *argv, char *const *env, struct grab *out)
{
	pid_t pid = fork();
	xcb_window_t win = 0;
	uint8_t *prev = NULL;
	int status;

	assert_true(pid >= 0);
	if (pid == 0) {
		for (unsigned i = 0; env[i]; i++)
			putenv(env[i]);
		execv(argv[0], argv);
		_exit(127);
	}
	memset(out, 0, sizeof(*out));
	for (unsigned t = 0; t < WAIT_S * 10; t++) {
		sleep_ms(100);
		if (waitpid(pid, &status, WNOHANG) == pid) {
			free(prev);
			free(out->rgb);
			fail_msg("%s exited before its window was read (status 0x%x)", argv[0],
				 status);
		}
		if (!win && !(win = demo_window(d, &out->w, &out->h)))
			continue;
		if (!out->rgb) {
			out->rgb = calloc(out->w * out->h, 3);
			prev = calloc(out->w * out->h, 3);
			assert_non_null(out->rgb);
			assert_non_null(prev);
		}
		if (!read_window(d, win, out->w, out->h, out->rgb))
			continue;
		/* drawn (not all one colour) and the same as a moment ago */
		if (memcmp(out->rgb, out->rgb + 3, out->w * out->h * 3 - 3) &&
		    !memcmp(prev, out->rgb, out->w * out->h * 3))
			break;
		memcpy(prev, out->rgb, out->w * out->h * 3);
		sleep_ms(400);
	}
	free(prev);
	kill(pid, SIGTERM);
	waitpid(pid, &status, 0);
	assert_true(win != 0);
	/* the window goes with its client: the next demo's must not be mistaken for it */
	for (unsigned t = 0; t < WAIT_S * 10; t++) {
		unsigned w, h;

		if (!demo_window(d, &w, &h))
			return;
		sleep_ms(100);
	}
	fail_msg("%s's window stayed after it exited", argv[0]);
}

/* The demo on both vendors: the windows compared. */
static void compare_demo(struct demos *d, const char *program, const char *name, bool frozen)
{
	const char *path = getenv(program);
	const char *preload = getenv("AGX_TEST_PRELOAD"),
		   *frozen_so = getenv("AGX_TEST_FROZEN_TIME");
	char display[32], vendor[4200], memmgr[160], sched[160], ld[8400], mesa_ld[4200];
	struct grab ours, mesa;
	unsigned far = 0, worst = 0;

	if (!d) {
		print_message("# no Xvfb or no Mesa EGL vendor: nothing to compare with\n");
		skip();
	}
	if (!path || access(path, X_OK) != 0) {
		print_message("# no %s (Debian's mesa-utils)\n", name);
		skip();
	}
	snprintf(display, sizeof(display), "DISPLAY=%s", d->xvfb.display);
	snprintf(vendor, sizeof(vendor), "__EGL_VENDOR_LIBRARY_FILENAMES=%s",
		 getenv("AGX_TEST_VENDOR"));
	snprintf(memmgr, sizeof(memmgr), "AGX_MEMMGR_SOCKET=%s", d->stack.memmgr);
	snprintf(sched, sizeof(sched), "AGX_SCHEDULER_SOCKET=%s", d->stack.sched);
	snprintf(ld, sizeof(ld), "LD_PRELOAD=%s%s%s", preload && *preload ? preload : "",
		 preload && *preload && frozen ? ":" : "", frozen ? frozen_so : "");
	{
		char *argv[] = { (char *)path, NULL };
		char *ours_env[] = { display, vendor, memmgr, sched, ld, NULL };
		/* Mesa's run needs no sanitizer runtime: only the frozen clock */
		char *mesa_env[] = { display,
				     "__EGL_VENDOR_LIBRARY_FILENAMES=" MESA_VENDOR,
				     "LIBGL_ALWAYS_SOFTWARE=1",
				     "GALLIUM_DRIVER=llvmpipe",
				     mesa_ld,
				     NULL };
		char file[64];

		snprintf(mesa_ld, sizeof(mesa_ld), "LD_PRELOAD=%s", frozen ? frozen_so : "");
		run_demo(d, argv, ours_env, &ours);
		run_demo(d, argv, mesa_env, &mesa);
		snprintf(file, sizeof(file), "%s-ours", name);
		write_png(file, &ours);
		snprintf(file, sizeof(file), "%s-llvmpipe", name);
		write_png(file, &mesa);
	}
	assert_int_equal(ours.w, mesa.w);
	assert_int_equal(ours.h, mesa.h);
	for (unsigned i = 0; i < ours.w * ours.h; i++) {
		unsigned diff = 0;

		for (unsigned c = 0; c < 3; c++) {
			int x = ours.rgb[3 * i + c] - mesa.rgb[3 * i + c];
			unsigned a = (unsigned)(x < 0 ? -x : x);

			diff = a > diff ? a : diff;
		}
		far += diff > TOLERANCE;
		worst = diff > worst ? diff : worst;
	}
	print_message("# %s: %ux%u, %u pixels differ by more than %u (largest %u)\n", name, ours.w,
		      ours.h, far, TOLERANCE, worst);
	assert_true(far <= (unsigned)(EDGE_SHARE * ours.w * ours.h));
	free(ours.rgb);
	free(mesa.rgb);
}

static void test_es2tri(void **state)
{
	compare_demo(*state, "AGX_TEST_ES2TRI", "es2tri", false);
}

static void test_es2gears(void **state)
{
	compare_demo(*state, "AGX_TEST_ES2GEARS", "es2gears", true);
}

static int setup(void **state)
{
	static const char *const args[] = { "-screen", "0", "640x480x24", NULL };
	struct demos *d = calloc(1, sizeof(*d));
	int screen;

	if (access(MESA_VENDOR, R_OK) != 0 || !test_xvfb_start(&d->xvfb, args)) {
		free(d);
		*state = NULL;
		return 0;
	}
	test_stack_start(&d->stack, &options);
	d->conn = xcb_connect(d->xvfb.display, &screen);
	assert_false(xcb_connection_has_error(d->conn));
	d->root = xcb_setup_roots_iterator(xcb_get_setup(d->conn)).data->root;
	*state = d;
	return 0;
}

static int teardown(void **state)
{
	struct demos *d = *state;
	bool clean;

	if (!d)
		return 0;
	xcb_disconnect(d->conn);
	clean = test_stack_stop(&d->stack);
	test_xvfb_stop(&d->xvfb);
	free(d);
	return clean ? 0 : -1;
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_es2tri),
		cmocka_unit_test(test_es2gears),
	};

	return test_stack_run(argc, argv, &options, tests, sizeof(tests) / sizeof(tests[0]), setup,
			      teardown);
}
