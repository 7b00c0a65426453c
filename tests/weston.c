/*
 * weston.c: a weston of a test's own, and a client of it (weston.h).
 */
#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <png.h>
#include <wayland-client.h>

#include "weston.h"
#include "xdg-shell-client-protocol.h"

bool test_weston_start(struct test_weston *w, unsigned width, unsigned height)
{
	char path[160];
	FILE *ini;

	memset(w, 0, sizeof(*w));
	snprintf(w->runtime, sizeof(w->runtime), "/tmp/agx-weston-XXXXXX");
	if (!mkdtemp(w->runtime)) {
		w->runtime[0] = '\0';
		return false;
	}
	snprintf(w->socket, sizeof(w->socket), "agx-test-%d", (int)getpid());
	setenv("XDG_RUNTIME_DIR", w->runtime, 1);
	/*
	 * desktop-shell fades the output in from black at start-up and zooms
	 * new windows in (weston.ini(5), [shell]): a screenshot must see the
	 * frames as they are
	 */
	snprintf(path, sizeof(path), "%s/weston.ini", w->runtime);
	ini = fopen(path, "w");
	if (!ini)
		return false;
	fputs("[shell]\nstartup-animation=none\nanimation=none\nclose-animation=none\n"
	      "focus-animation=none\n",
	      ini);
	fclose(ini);
	w->pid = fork();
	if (w->pid == 0) {
		char sock_arg[96], width_arg[32], height_arg[32], config_arg[160];
		int null = open("/dev/null", O_WRONLY);

		snprintf(sock_arg, sizeof(sock_arg), "--socket=%s", w->socket);
		snprintf(width_arg, sizeof(width_arg), "--width=%u", width);
		snprintf(height_arg, sizeof(height_arg), "--height=%u", height);
		snprintf(config_arg, sizeof(config_arg), "--config=%s/weston.ini", w->runtime);
		dup2(null, 1);
		if (!getenv("AGX_TEST_WESTON_LOG"))
			dup2(null, 2);
		/* no rendering is the headless backend's default: pixman renders, and is read back
		 */
		execlp("weston", "weston", "--backend=headless-backend.so", "--use-pixman",
		       width_arg, height_arg, "--idle-time=0", "--debug", sock_arg, config_arg,
		       (char *)NULL);
		_exit(127);
	}
	if (w->pid < 0) {
		w->pid = 0;
		return false;
	}
	setenv("WAYLAND_DISPLAY", w->socket, 1);
	snprintf(path, sizeof(path), "%s/%s", w->runtime, w->socket);
	for (unsigned i = 0; i < 200; i++) {
		struct test_wl_client c;
		int status;

		if (waitpid(w->pid, &status, WNOHANG) == w->pid) {
			w->pid = 0;
			return false;
		}
		/* up once desktop-shell is: it is what gives xdg_wm_base */
		if (access(path, F_OK) == 0 && test_wl_client_open(&c, 1, false)) {
			test_wl_client_close(&c);
			return true;
		}
		usleep(50 * 1000);
	}
	return false;
}

void test_weston_stop(struct test_weston *w)
{
	char cmd[128];

	if (w->pid > 0) {
		kill(w->pid, SIGTERM);
		waitpid(w->pid, NULL, 0);
		w->pid = 0;
	}
	if (w->runtime[0]) {
		snprintf(cmd, sizeof(cmd), "rm -rf '%s'", w->runtime);
		if (system(cmd) != 0)
			fprintf(stderr, "# cannot remove %s\n", w->runtime);
		w->runtime[0] = '\0';
	}
}

/* ---- the client ----------------------------------------------------------------------------- */

static void wm_ping(void *data, struct xdg_wm_base *wm, uint32_t serial)
{
	(void)data;
	xdg_wm_base_pong(wm, serial);
}

static const struct xdg_wm_base_listener wm_listener = { .ping = wm_ping };

struct globals {
	struct test_wl_client *c;
	uint32_t compositor_version;
};

static void registry_global(void *data, struct wl_registry *registry, uint32_t name,
			    const char *interface, uint32_t version)
{
	struct globals *g = data;
	struct test_wl_client *c = g->c;

	if (!strcmp(interface, wl_compositor_interface.name) && version >= g->compositor_version) {
		c->compositor = wl_registry_bind(registry, name, &wl_compositor_interface,
						 g->compositor_version);
	} else if (!strcmp(interface, xdg_wm_base_interface.name)) {
		c->wm = wl_registry_bind(registry, name, &xdg_wm_base_interface, 1);
		xdg_wm_base_add_listener(c->wm, &wm_listener, c);
	}
}

static void registry_remove(void *data, struct wl_registry *registry, uint32_t name)
{
	(void)data;
	(void)registry;
	(void)name;
}

static const struct wl_registry_listener registry_listener = {
	.global = registry_global,
	.global_remove = registry_remove,
};

static void xdg_surface_configure(void *data, struct xdg_surface *s, uint32_t serial)
{
	struct test_wl_client *c = data;

	xdg_surface_ack_configure(s, serial);
	c->configured = true;
}

static const struct xdg_surface_listener xdg_surface_listener = {
	.configure = xdg_surface_configure,
};

static void toplevel_configure(void *data, struct xdg_toplevel *t, int32_t w, int32_t h,
			       struct wl_array *states)
{
	(void)data, (void)t, (void)w, (void)h, (void)states;
}

static void toplevel_close(void *data, struct xdg_toplevel *t)
{
	(void)data, (void)t;
}

static const struct xdg_toplevel_listener toplevel_listener = {
	.configure = toplevel_configure,
	.close = toplevel_close,
};

bool test_wl_client_open(struct test_wl_client *c, uint32_t compositor_version, bool role)
{
	struct globals g = { .c = c, .compositor_version = compositor_version };
	struct wl_registry *registry;

	memset(c, 0, sizeof(*c));
	c->display = wl_display_connect(NULL);
	if (!c->display)
		return false;
	registry = wl_display_get_registry(c->display);
	wl_registry_add_listener(registry, &registry_listener, &g);
	wl_display_roundtrip(c->display);
	wl_registry_destroy(registry);
	if (!c->compositor || !c->wm) {
		test_wl_client_close(c);
		return false;
	}
	c->surface = wl_compositor_create_surface(c->compositor);
	if (!role)
		return true;
	c->xdg_surface = xdg_wm_base_get_xdg_surface(c->wm, c->surface);
	xdg_surface_add_listener(c->xdg_surface, &xdg_surface_listener, c);
	c->toplevel = xdg_surface_get_toplevel(c->xdg_surface);
	xdg_toplevel_add_listener(c->toplevel, &toplevel_listener, c);
	xdg_toplevel_set_fullscreen(c->toplevel, NULL);
	wl_surface_commit(c->surface);
	if (!test_wl_client_wait(c, &c->configured)) {
		test_wl_client_close(c);
		return false;
	}
	return true;
}

void test_wl_client_close(struct test_wl_client *c)
{
	if (c->toplevel)
		xdg_toplevel_destroy(c->toplevel);
	if (c->xdg_surface)
		xdg_surface_destroy(c->xdg_surface);
	if (c->surface)
		wl_surface_destroy(c->surface);
	if (c->wm)
		xdg_wm_base_destroy(c->wm);
	if (c->compositor)
		wl_compositor_destroy(c->compositor);
	if (c->display)
		wl_display_disconnect(c->display);
	memset(c, 0, sizeof(*c));
}

static void frame_done(void *data, struct wl_callback *cb, uint32_t time)
{
	(void)time;
	*(bool *)data = true;
	wl_callback_destroy(cb);
}

static const struct wl_callback_listener frame_listener = { .done = frame_done };

struct wl_callback *test_wl_client_frame(struct test_wl_client *c, bool *done)
{
	struct wl_callback *cb = wl_surface_frame(c->surface);

	*done = false;
	wl_callback_add_listener(cb, &frame_listener, done);
	return cb;
}

bool test_wl_client_wait(struct test_wl_client *c, const bool *done)
{
	while (!*done)
		if (wl_display_dispatch(c->display) < 0)
			return false;
	return true;
}

/* ---- screenshots ---------------------------------------------------------------------------- */

uint8_t *test_weston_screenshot(unsigned *width, unsigned *height)
{
	char dir[] = "/tmp/agx-weston-shot-XXXXXX", path[512] = "";
	png_image image = { .version = PNG_IMAGE_VERSION };
	uint8_t *pixels = NULL;
	struct dirent *e;
	int status;
	pid_t pid;
	DIR *d;

	if (!mkdtemp(dir))
		return NULL;
	/* weston-screenshooter writes wayland-screenshot-<time>.png into its working directory */
	pid = fork();
	if (pid == 0) {
		if (chdir(dir) < 0)
			_exit(127);
		dup2(2, 1);
		execlp("weston-screenshooter", "weston-screenshooter", (char *)NULL);
		_exit(127);
	}
	if (pid < 0 || waitpid(pid, &status, 0) != pid || !WIFEXITED(status) ||
	    WEXITSTATUS(status) != 0)
		fprintf(stderr, "# weston-screenshooter failed\n");
	d = opendir(dir);
	while (d && (e = readdir(d)))
		if (strstr(e->d_name, ".png"))
			snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
	if (d)
		closedir(d);
	if (path[0] && png_image_begin_read_from_file(&image, path)) {
		image.format = PNG_FORMAT_RGBA;
		pixels = malloc(PNG_IMAGE_SIZE(image));
		if (pixels && !png_image_finish_read(&image, NULL, pixels, 0, NULL)) {
			free(pixels);
			pixels = NULL;
		}
		*width = image.width;
		*height = image.height;
	}
	if (path[0])
		unlink(path);
	rmdir(dir);
	return pixels;
}
