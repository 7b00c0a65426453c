/*
 * test-present-wayland: compositor-bridge's wayland target on a weston of
 * the test's own (tests/weston.h: headless backend, pixman renderer, a
 * 64x64 output), read back with weston-screenshooter, exact: a bottom-up
 * GL-like ABGR8888 frame and a top-down XBGR8888 one straight from their
 * memfds (the buffer transform turning the first the right way up), a
 * frame converted because the surface is too old for a buffer transform,
 * the release of a buffer once the next one is shown, forgetting a memfd,
 * swap interval 1 waiting for the frame before, and a "surface" that is
 * none.  Skips without weston.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cmocka.h>
#include <drm_fourcc.h>

#include "agx/present.h"
#include "weston.h"

#define SIZE 64

static struct test_weston weston;
static bool have_weston;

#define SKIP_WITHOUT_WESTON()                                                                      \
	do {                                                                                       \
		if (!have_weston)                                                                  \
			skip();                                                                    \
	} while (0)

/* The colour of pixel (x, y), y from the top; opaque, so that weston shows it as it is. */
static void pattern(unsigned salt, uint32_t x, uint32_t y, uint8_t rgb[3])
{
	rgb[0] = (uint8_t)(x * 7 + y + salt);
	rgb[1] = (uint8_t)((x * 3) ^ (y * 5));
	rgb[2] = (uint8_t)(x + y * 11 + salt * 3);
}

struct frame {
	struct agx_present_image image;
	uint8_t *map;
};

/* A SIZE x SIZE frame of the pattern in a new memfd, as R, G, B, A (or X) bytes. */
static void make_frame(struct frame *f, unsigned salt, uint32_t fourcc, uint32_t stride,
		       bool bottom_up)
{
	uint64_t size = (uint64_t)stride * SIZE;
	int fd = memfd_create("test-present-wayland", MFD_CLOEXEC);

	assert_true(fd >= 0);
	assert_int_equal(ftruncate(fd, (off_t)size), 0);
	f->map = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	assert_true(f->map != MAP_FAILED);
	memset(f->map, 0x5a, size);
	for (uint32_t y = 0; y < SIZE; y++) {
		uint8_t *row = f->map + (uint64_t)(bottom_up ? SIZE - 1 - y : y) * stride;

		for (uint32_t x = 0; x < SIZE; x++) {
			pattern(salt, x, y, row + x * 4);
			row[x * 4 + 3] = 0xff;
		}
	}
	f->image = (struct agx_present_image){
		.fd = fd,
		.map = f->map,
		.size = size,
		.stride = stride,
		.width = SIZE,
		.height = SIZE,
		.fourcc = fourcc,
		.bottom_up = bottom_up,
	};
}

static void free_frame(struct frame *f)
{
	munmap(f->map, f->image.size);
	close(f->image.fd);
}

/* Presents f and waits until weston has repainted with it. */
static void show(struct test_wl_client *c, struct agx_present_target *t, struct frame *f)
{
	bool done;

	test_wl_client_frame(c, &done);
	assert_int_equal(agx_present_frame(t, &f->image), 0);
	assert_true(test_wl_client_wait(c, &done));
}

/* The output shows the pattern salt, top row first, exactly. */
static void assert_shown(unsigned salt)
{
	unsigned w = 0, h = 0, bad = 0;
	uint8_t *shot = test_weston_screenshot(&w, &h);

	assert_non_null(shot);
	assert_int_equal(w, SIZE);
	assert_int_equal(h, SIZE);
	for (uint32_t y = 0; y < SIZE; y++) {
		for (uint32_t x = 0; x < SIZE; x++) {
			const uint8_t *p = shot + ((size_t)y * w + x) * 4;
			uint8_t rgb[3];

			pattern(salt, x, y, rgb);
			if (memcmp(p, rgb, 3) && bad++ < 4)
				print_message("# (%u, %u) is %02x%02x%02x, not %02x%02x%02x\n", x,
					      y, p[0], p[1], p[2], rgb[0], rgb[1], rgb[2]);
		}
	}
	free(shot);
	assert_int_equal(bad, 0);
}

static struct agx_present_target *target_of(struct test_wl_client *c)
{
	struct agx_present_config config = {
		.backend = AGX_PRESENT_WAYLAND,
		.wl_display = c->display,
		.wl_surface = c->surface,
	};
	struct agx_present_target *t = NULL;

	assert_int_equal(agx_present_create(&config, &t), 0);
	return t;
}

/*
 * Straight from the memfds: the GL colour buffer's layout (ABGR8888,
 * bottom-up, rows padded) and a top-down XBGR8888 frame; each held until
 * the next is shown, then released; a forgotten memfd made anew.
 */
static void test_direct(void **state)
{
	struct agx_present_info info;
	struct test_wl_client c;
	struct agx_present_target *t;
	struct frame a, b;

	(void)state;
	SKIP_WITHOUT_WESTON();
	assert_true(test_wl_client_open(&c, 4, true));
	t = target_of(&c);
	make_frame(&a, 0, DRM_FORMAT_ABGR8888, SIZE * 4 + 16, true);
	make_frame(&b, 1, DRM_FORMAT_XBGR8888, SIZE * 4, false);
	show(&c, t, &a);
	assert_shown(0);
	agx_present_get_info(t, &info);
	assert_int_equal(info.shm_direct, 1);
	assert_int_equal(info.shm_converted, 0);
	assert_int_equal(info.fourcc, DRM_FORMAT_ABGR8888);
	/* weston shows a: it is weston's until another buffer replaces it */
	assert_int_equal(agx_present_busy(t, a.image.fd, false), 1);
	assert_int_equal(agx_present_busy(t, b.image.fd, false), 0);
	show(&c, t, &b);
	assert_shown(1);
	assert_int_equal(agx_present_busy(t, a.image.fd, true), 0);
	assert_int_equal(agx_present_busy(t, b.image.fd, false), 1);
	/* a is free to render into again, and shown again from the same wl_buffer */
	make_frame(&a, 0, DRM_FORMAT_ABGR8888, SIZE * 4 + 16, true);
	show(&c, t, &a);
	assert_shown(0);
	/* b forgotten: nothing of it is held any more; shown again, it is made anew */
	agx_present_forget(t, b.image.fd);
	assert_int_equal(agx_present_busy(t, b.image.fd, false), 0);
	show(&c, t, &b);
	assert_shown(1);
	agx_present_get_info(t, &info);
	assert_int_equal(info.shm_direct, 4);
	assert_int_equal(info.frames, 4);
	agx_present_destroy(t);
	free_frame(&a);
	free_frame(&b);
	test_wl_client_close(&c);
}

/*
 * A version 1 surface takes no buffer transform: a bottom-up frame is
 * converted, top row first, into the target's own buffer, and the
 * caller's memfd is never held.
 */
static void test_converted(void **state)
{
	struct agx_present_info info;
	struct test_wl_client c;
	struct agx_present_target *t;
	struct frame a;

	(void)state;
	SKIP_WITHOUT_WESTON();
	assert_true(test_wl_client_open(&c, 1, true));
	t = target_of(&c);
	make_frame(&a, 2, DRM_FORMAT_ABGR8888, SIZE * 4, true);
	show(&c, t, &a);
	assert_shown(2);
	agx_present_get_info(t, &info);
	assert_int_equal(info.shm_direct, 0);
	assert_int_equal(info.shm_converted, 1);
	assert_int_equal(info.fourcc, DRM_FORMAT_ARGB8888);
	assert_int_equal(agx_present_busy(t, a.image.fd, false), 0);
	/* rendered over and shown again: the staging buffer weston held is not written */
	make_frame(&a, 3, DRM_FORMAT_ABGR8888, SIZE * 4, true);
	show(&c, t, &a);
	assert_shown(3);
	agx_present_destroy(t);
	free_frame(&a);
	test_wl_client_close(&c);
}

/*
 * Swap interval 1: a frame goes only once the frame before is on the
 * output -- the application's callback of that frame's commit, sent in
 * the same repaint as the target's, is done when the next present returns.
 */
static void test_interval(void **state)
{
	struct test_wl_client c;
	struct agx_present_target *t;
	struct frame a, b;

	(void)state;
	SKIP_WITHOUT_WESTON();
	assert_true(test_wl_client_open(&c, 4, true));
	t = target_of(&c);
	make_frame(&a, 4, DRM_FORMAT_XBGR8888, SIZE * 4, false);
	make_frame(&b, 5, DRM_FORMAT_XBGR8888, SIZE * 4, false);
	a.image.swap_interval = b.image.swap_interval = 1;
	for (unsigned i = 0; i < 3; i++) {
		bool done;

		test_wl_client_frame(&c, &done);
		assert_int_equal(agx_present_frame(t, &a.image), 0);
		assert_int_equal(agx_present_busy(t, b.image.fd, true), 0);
		assert_int_equal(agx_present_frame(t, &b.image), 0);
		wl_display_dispatch_pending(c.display);
		assert_true(done);
		assert_int_equal(agx_present_busy(t, a.image.fd, true), 0);
	}
	agx_present_destroy(t);
	free_frame(&a);
	free_frame(&b);
	test_wl_client_close(&c);
}

/* A wl_surface that is none is refused at creation. */
static void test_not_surface(void **state)
{
	struct agx_present_target *t = (struct agx_present_target *)&t;
	struct agx_present_config config = { .backend = AGX_PRESENT_WAYLAND };
	struct test_wl_client c;

	(void)state;
	SKIP_WITHOUT_WESTON();
	assert_true(test_wl_client_open(&c, 4, false));
	config.wl_display = c.display;
	assert_int_equal(agx_present_create(&config, &t), -EINVAL);
	assert_null(t);
	config.wl_surface = c.compositor;
	assert_int_equal(agx_present_create(&config, &t), -ENOENT);
	assert_null(t);
	assert_non_null(strstr(agx_present_error(), "wl_compositor"));
	test_wl_client_close(&c);
}

static int setup(void **state)
{
	(void)state;
	have_weston = test_weston_start(&weston, SIZE, SIZE);
	if (!have_weston)
		print_message("# weston does not start: every test skips\n");
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	test_weston_stop(&weston);
	return 0;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_direct),
		cmocka_unit_test(test_converted),
		cmocka_unit_test(test_interval),
		cmocka_unit_test(test_not_surface),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
