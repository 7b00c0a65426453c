/*
 * weston.h: a Wayland compositor of a test's own -- weston with its
 * headless backend and pixman renderer, desktop-shell, --debug (so that
 * weston-screenshooter may read the output back), in a runtime directory
 * and on a socket of its own -- and a client of it: a wl_surface, mapped
 * as a fullscreen xdg toplevel when asked, frames waited for until weston
 * has repainted with them, and screenshots of the output.
 */
#ifndef TESTS_WESTON_H
#define TESTS_WESTON_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include <wayland-client.h>

struct test_weston {
	pid_t pid;
	char runtime[64]; /* its XDG_RUNTIME_DIR */
	char socket[64];
};

/*
 * Starts weston with a width x height output, and points XDG_RUNTIME_DIR
 * and WAYLAND_DISPLAY of this process (and its children) at it; false if
 * it does not come up within 10 s (the caller skips; weston's output goes
 * to stderr with AGX_TEST_WESTON_LOG set).
 */
bool test_weston_start(struct test_weston *w, unsigned width, unsigned height);
/* Stops it (SIGTERM, reaped) and removes its directory; one never started is a no-op. */
void test_weston_stop(struct test_weston *w);

struct test_wl_client {
	struct wl_display *display;
	struct wl_compositor *compositor;
	struct wl_surface *surface;
	struct xdg_wm_base *wm;
	struct xdg_surface *xdg_surface;
	struct xdg_toplevel *toplevel;
	bool configured;
};

/*
 * Connects to $WAYLAND_DISPLAY with wl_compositor of compositor_version
 * and makes a surface; with role, a fullscreen xdg toplevel of it, its
 * first configure acknowledged.  false on failure.
 */
bool test_wl_client_open(struct test_wl_client *c, uint32_t compositor_version, bool role);
void test_wl_client_close(struct test_wl_client *c);
/*
 * A frame callback of the surface's next commit, whose done sets *done:
 * weston has repainted with that commit's content.
 */
struct wl_callback *test_wl_client_frame(struct test_wl_client *c, bool *done);
/* Dispatches c's events until *done: false if the connection failed. */
bool test_wl_client_wait(struct test_wl_client *c, const bool *done);

/*
 * What weston shows: weston-screenshooter's PNG of the output as RGBA rows,
 * top first (malloc'ed, *width x *height), NULL on failure.
 */
uint8_t *test_weston_screenshot(unsigned *width, unsigned *height);

#endif
