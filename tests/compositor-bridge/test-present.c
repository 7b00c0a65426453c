/*
 * test-present: compositor-bridge's targets (agx/present.h) on known
 * images.  Headless: the PNG files read back with libpng, pixel for pixel,
 * for each frame format and row order.  X11, on X servers of the test's
 * own (Xvfb): frames presented into windows of depth 24, 32 and 16 read
 * back with GetImage, exact, by MIT-SHM (straight from the frame's memfd
 * and converted), by PutImage when asked to, and on a server without
 * MIT-SHM (with a frame larger than one request takes); the visual and
 * window queries; the errors.
 */
#include <dirent.h>
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>
#include <drm_fourcc.h>
#include <png.h>
#include <xcb/xcb.h>

#include "agx/present.h"
#include "xvfb.h"

/* The server without MIT-SHM: a screen for a window larger than a request. */
#define PLAIN_SIZE   2100
#define PLAIN_SCREEN "2100x2100x24"

struct servers {
	struct test_xvfb shm, plain; /* plain: no MIT-SHM */
	xcb_connection_t *conn, *plain_conn;
	bool have_x;
	char dir[64];
};

/* ---- known images ----------------------------------------------------------------------- */

/* The colour of pixel (x, y), y counted from the top. */
static void pattern(uint32_t x, uint32_t y, uint8_t rgba[4])
{
	rgba[0] = (uint8_t)(x * 7 + y);
	rgba[1] = (uint8_t)((x * 3) ^ (y * 5));
	rgba[2] = (uint8_t)(x + y * 11);
	rgba[3] = (uint8_t)(x * 13 + y * 2);
}

static unsigned bytes_of(uint32_t fourcc)
{
	return fourcc == DRM_FORMAT_RGB565 ? 2 : 4;
}

/* rgba in fourcc at p; RGB565 keeps the top bits of each channel. */
static void store(uint32_t fourcc, const uint8_t rgba[4], uint8_t *p)
{
	uint16_t v;

	switch (fourcc) {
	case DRM_FORMAT_ABGR8888:
	case DRM_FORMAT_XBGR8888:
		memcpy(p, rgba, 4);
		break;
	case DRM_FORMAT_ARGB8888:
	case DRM_FORMAT_XRGB8888:
		p[0] = rgba[2], p[1] = rgba[1], p[2] = rgba[0], p[3] = rgba[3];
		break;
	case DRM_FORMAT_RGB565:
		v = (uint16_t)((rgba[0] >> 3) << 11 | (rgba[1] >> 2) << 5 | rgba[2] >> 3);
		p[0] = (uint8_t)v, p[1] = (uint8_t)(v >> 8);
		break;
	default:
		fail();
	}
}

/* What an RGB565 pixel stored from rgba reads as in 8 bits a channel: its bits repeated. */
static void widened_565(const uint8_t rgba[4], uint8_t out[3])
{
	unsigned r = rgba[0] >> 3, g = rgba[1] >> 2, b = rgba[2] >> 3;

	out[0] = (uint8_t)(r << 3 | r >> 2);
	out[1] = (uint8_t)(g << 2 | g >> 4);
	out[2] = (uint8_t)(b << 3 | b >> 2);
}

struct frame {
	struct agx_present_image image;
	uint8_t *map;
};

/* A w x h frame of the pattern in a new memfd, rows stride bytes apart from offset. */
static void make_frame(struct frame *f, uint32_t fourcc, uint32_t w, uint32_t h, uint32_t stride,
		       uint64_t offset, bool bottom_up)
{
	uint64_t size = offset + (uint64_t)stride * h;
	int fd = memfd_create("test-present", MFD_CLOEXEC);

	assert_true(fd >= 0);
	assert_int_equal(ftruncate(fd, (off_t)size), 0);
	f->map = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	assert_true(f->map != MAP_FAILED);
	/* padding that must not show: 0x5a everywhere first */
	memset(f->map, 0x5a, size);
	for (uint32_t y = 0; y < h; y++) {
		uint8_t *row = f->map + offset + (uint64_t)(bottom_up ? h - 1 - y : y) * stride;

		for (uint32_t x = 0; x < w; x++) {
			uint8_t rgba[4];

			pattern(x, y, rgba);
			store(fourcc, rgba, row + x * bytes_of(fourcc));
		}
	}
	f->image = (struct agx_present_image){
		.fd = fd,
		.map = f->map,
		.size = size,
		.offset = offset,
		.stride = stride,
		.width = w,
		.height = h,
		.fourcc = fourcc,
		.bottom_up = bottom_up,
	};
}

static void free_frame(struct frame *f)
{
	munmap(f->map, f->image.size);
	close(f->image.fd);
}

/* ---- headless ----------------------------------------------------------------------------- */

struct png_image_data {
	uint32_t width, height;
	int color_type;
	uint8_t *rows; /* width * channels bytes a row */
};

static void read_png(const char *file, struct png_image_data *out)
{
	png_structp png = png_create_read_struct(PNG_LIBPNG_VER_STRING, NULL, NULL, NULL);
	png_infop info = png_create_info_struct(png);
	FILE *fp = fopen(file, "rb");
	size_t row_bytes;

	assert_non_null(fp);
	assert_non_null(info);
	if (setjmp(png_jmpbuf(png)))
		fail_msg("libpng could not read %s", file);
	png_init_io(png, fp);
	png_read_info(png, info);
	out->width = png_get_image_width(png, info);
	out->height = png_get_image_height(png, info);
	out->color_type = png_get_color_type(png, info);
	assert_int_equal(png_get_bit_depth(png, info), 8);
	row_bytes = png_get_rowbytes(png, info);
	out->rows = malloc(row_bytes * out->height);
	assert_non_null(out->rows);
	for (uint32_t y = 0; y < out->height; y++)
		png_read_row(png, out->rows + y * row_bytes, NULL);
	png_destroy_read_struct(&png, &info, NULL);
	fclose(fp);
}

static void test_headless(void **state)
{
	struct servers *s = *state;
	static const struct {
		uint32_t fourcc, stride_pad;
		bool bottom_up, own_map;
	} cases[] = {
		{ DRM_FORMAT_ABGR8888, 0, true, true },	   /* the GL colour buffer */
		{ DRM_FORMAT_XRGB8888, 12, false, false }, /* the target maps it */
		{ DRM_FORMAT_ARGB8888, 4, true, true },	   { DRM_FORMAT_XBGR8888, 0, false, true },
		{ DRM_FORMAT_RGB565, 6, true, false },
	};
	char prefix[128], file[160];
	struct agx_present_config config = { .backend = AGX_PRESENT_HEADLESS, .path = prefix };
	struct agx_present_target *t;
	struct agx_present_info info;

	snprintf(prefix, sizeof(prefix), "%s/frame-", s->dir);
	assert_int_equal(agx_present_create(&config, &t), 0);
	for (unsigned i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const uint32_t w = 37, h = 23;
		bool alpha = cases[i].fourcc == DRM_FORMAT_ABGR8888 ||
			     cases[i].fourcc == DRM_FORMAT_ARGB8888;
		unsigned channels = alpha ? 4 : 3;
		struct png_image_data png;
		struct frame f;

		make_frame(&f, cases[i].fourcc, w, h,
			   w * bytes_of(cases[i].fourcc) + cases[i].stride_pad, 0,
			   cases[i].bottom_up);
		if (!cases[i].own_map)
			f.image.map = NULL;
		assert_int_equal(agx_present_frame(t, &f.image), 0);
		free_frame(&f);
		/* frame i is file i */
		snprintf(file, sizeof(file), "%s%06u.png", prefix, i);
		read_png(file, &png);
		assert_int_equal(png.width, w);
		assert_int_equal(png.height, h);
		assert_int_equal(png.color_type,
				 alpha ? PNG_COLOR_TYPE_RGB_ALPHA : PNG_COLOR_TYPE_RGB);
		for (uint32_t y = 0; y < h; y++) {
			for (uint32_t x = 0; x < w; x++) {
				const uint8_t *got = png.rows + (y * w + x) * channels;
				uint8_t want[4];

				pattern(x, y, want);
				if (cases[i].fourcc == DRM_FORMAT_RGB565)
					widened_565(want, want);
				if (memcmp(got, want, channels) != 0)
					fail_msg("case %u: pixel %u,%u is %02x%02x%02x, not "
						 "%02x%02x%02x",
						 i, x, y, got[0], got[1], got[2], want[0], want[1],
						 want[2]);
			}
		}
		free(png.rows);
		unlink(file);
	}
	agx_present_get_info(t, &info);
	assert_int_equal(info.backend, AGX_PRESENT_HEADLESS);
	assert_int_equal(info.frames, 5);
	agx_present_destroy(t);
	agx_present_destroy(NULL);
}

/* Frames that name memory outside their memfd, or what no target shows, are refused. */
static void test_bad_frames(void **state)
{
	struct servers *s = *state;
	char prefix[128];
	struct agx_present_config config = { .backend = AGX_PRESENT_HEADLESS, .path = prefix };
	struct agx_present_target *t;
	struct agx_present_image img;
	struct frame f;
	struct stat st;

	snprintf(prefix, sizeof(prefix), "%s/bad-", s->dir);
	assert_int_equal(agx_present_create(&config, &t), 0);
	make_frame(&f, DRM_FORMAT_ABGR8888, 16, 16, 64, 0, false);
	img = f.image;
	img.fourcc = DRM_FORMAT_NV12;
	assert_int_equal(agx_present_frame(t, &img), -EINVAL);
	assert_false(agx_present_format_supported(DRM_FORMAT_NV12));
	assert_true(agx_present_format_supported(DRM_FORMAT_RGB565));
	img = f.image;
	img.stride = 60; /* less than a row */
	assert_int_equal(agx_present_frame(t, &img), -EINVAL);
	img = f.image;
	img.height = 17; /* one row past the end */
	assert_int_equal(agx_present_frame(t, &img), -EINVAL);
	img = f.image;
	img.offset = 4; /* the last row's last pixel past the end */
	assert_int_equal(agx_present_frame(t, &img), -EINVAL);
	img = f.image;
	img.offset = UINT64_MAX - 8; /* no wrap-around either */
	assert_int_equal(agx_present_frame(t, &img), -EINVAL);
	img = f.image;
	img.width = 0;
	assert_int_equal(agx_present_frame(t, &img), -EINVAL);
	assert_true(strlen(agx_present_error()) > 0);
	/* nothing was written for any of them */
	snprintf(prefix + strlen(prefix), sizeof(prefix) - strlen(prefix), "000000.png");
	assert_int_not_equal(stat(prefix, &st), 0);
	free_frame(&f);
	agx_present_destroy(t);
	config.path = NULL;
	assert_int_equal(agx_present_create(&config, &t), -EINVAL);
	assert_null(t);
	config = (struct agx_present_config){ .backend = (enum agx_present_backend)99 };
	assert_int_equal(agx_present_create(&config, &t), -EINVAL);
	config = (struct agx_present_config){ .backend = AGX_PRESENT_HEADLESS,
					      .path = "/nonexistent/dir/f-" };
	assert_int_equal(agx_present_create(&config, &t), 0);
	make_frame(&f, DRM_FORMAT_ABGR8888, 4, 4, 16, 0, false);
	assert_int_equal(agx_present_frame(t, &f.image), -ENOENT);
	free_frame(&f);
	agx_present_destroy(t);
}

/* ---- X11 ------------------------------------------------------------------------------------ */

#define SKIP_WITHOUT_X(s)                                                                          \
	do {                                                                                       \
		if (!(s)->have_x)                                                                  \
			skip();                                                                    \
	} while (0)

static const xcb_screen_t *screen_of(xcb_connection_t *conn, int n)
{
	xcb_screen_iterator_t it = xcb_setup_roots_iterator(xcb_get_setup(conn));

	for (int i = 0; i < n; i++)
		xcb_screen_next(&it);
	assert_true(it.rem > 0);
	return it.data;
}

static void sync_with(xcb_connection_t *conn)
{
	free(xcb_get_input_focus_reply(conn, xcb_get_input_focus(conn), NULL));
}

/* A mapped w x h window at 0,0 of screen n with visual (depth), its own colormap. */
static xcb_window_t make_window(xcb_connection_t *conn, int n, xcb_visualid_t visual, uint8_t depth,
				uint16_t w, uint16_t h)
{
	const xcb_screen_t *screen = screen_of(conn, n);
	xcb_window_t win = xcb_generate_id(conn);
	xcb_colormap_t cmap = xcb_generate_id(conn);
	const uint32_t values[] = { 0, 0, cmap };
	xcb_generic_error_t *err;

	xcb_create_colormap(conn, XCB_COLORMAP_ALLOC_NONE, cmap, screen->root, visual);
	err = xcb_request_check(
	    conn, xcb_create_window_checked(
		      conn, depth, win, screen->root, 0, 0, w, h, 0, XCB_WINDOW_CLASS_INPUT_OUTPUT,
		      visual, XCB_CW_BACK_PIXEL | XCB_CW_BORDER_PIXEL | XCB_CW_COLORMAP, values));
	assert_null(err);
	xcb_free_colormap(conn, cmap);
	xcb_map_window(conn, win);
	sync_with(conn);
	return win;
}

/* The pixels of the window as GetImage gives them: rows padded to 32 bits. */
static uint8_t *get_image(xcb_connection_t *conn, xcb_window_t win, uint16_t w, uint16_t h,
			  xcb_get_image_reply_t **reply)
{
	xcb_generic_error_t *err = NULL;

	*reply = xcb_get_image_reply(
	    conn, xcb_get_image(conn, XCB_IMAGE_FORMAT_Z_PIXMAP, win, 0, 0, w, h, ~0u), &err);
	assert_null(err);
	assert_non_null(*reply);
	return xcb_get_image_data(*reply);
}

/*
 * Compares the window with the pattern: fourcc is the window's format;
 * from565 for a frame that was RGB565, alpha whether the window has it.
 */
static void check_window(xcb_connection_t *conn, xcb_window_t win, uint32_t fourcc, uint16_t w,
			 uint16_t h, bool from565)
{
	unsigned bpp = bytes_of(fourcc), stride = (w * bpp + 3) / 4 * 4;
	xcb_get_image_reply_t *reply;
	const uint8_t *data = get_image(conn, win, w, h, &reply);

	for (uint32_t y = 0; y < h; y++) {
		for (uint32_t x = 0; x < w; x++) {
			const uint8_t *p = data + y * stride + x * bpp;
			uint8_t rgba[4], want[4] = { 0 };
			uint32_t got, expect;

			pattern(x, y, rgba);
			if (from565)
				widened_565(rgba, rgba);
			if (fourcc == DRM_FORMAT_RGB565) {
				got = (uint32_t)(p[0] | p[1] << 8);
				/* the pattern rounded to 5 and 6 bits: 8-bit frames are converted
				 */
				expect = (uint32_t)((rgba[0] * 31 + 127) / 255) << 11 |
					 (uint32_t)((rgba[1] * 63 + 127) / 255) << 5 |
					 (uint32_t)((rgba[2] * 31 + 127) / 255);
			} else {
				store(DRM_FORMAT_ARGB8888, rgba, want);
				got = (uint32_t)(p[0] | p[1] << 8 | p[2] << 16);
				expect = (uint32_t)(want[0] | want[1] << 8 | want[2] << 16);
				if (fourcc == DRM_FORMAT_ARGB8888) {
					got |= (uint32_t)p[3] << 24;
					expect |= (uint32_t)rgba[3] << 24;
				}
			}
			if (got != expect)
				fail_msg("pixel %u,%u is %#x, not %#x", x, y, got, expect);
		}
	}
	free(reply);
}

static struct agx_present_target *x11_target(xcb_connection_t *conn, xcb_window_t win,
					     unsigned flags)
{
	struct agx_present_config config = { .backend = AGX_PRESENT_X11,
					     .flags = flags,
					     .x11_connection = conn,
					     .x11_window = win };
	struct agx_present_target *t;

	if (agx_present_create(&config, &t) != 0)
		fail_msg("x11 target: %s", agx_present_error());
	return t;
}

static void destroy_window(xcb_connection_t *conn, xcb_window_t win)
{
	xcb_destroy_window(conn, win);
	sync_with(conn);
}

static void test_x11_visuals(void **state)
{
	struct servers *s = *state;
	struct agx_present_x11_window info;
	const xcb_screen_t *screen;
	xcb_window_t win, input_only;
	uint32_t visual;
	uint8_t depth;

	SKIP_WITHOUT_X(s);
	screen = screen_of(s->conn, 0);
	/* the root visual, for windows that name none */
	assert_int_equal(
	    agx_present_x11_find_visual(s->conn, 0, DRM_FORMAT_XRGB8888, &visual, &depth), 0);
	assert_int_equal(visual, screen->root_visual);
	assert_int_equal(depth, 24);
	assert_int_equal(
	    agx_present_x11_find_visual(s->conn, 0, DRM_FORMAT_ARGB8888, &visual, &depth), 0);
	assert_int_equal(depth, 32);
	/* a 24-bit screen has no 16-bit visual; the second screen does */
	assert_int_equal(
	    agx_present_x11_find_visual(s->conn, 0, DRM_FORMAT_RGB565, &visual, &depth), -ENOENT);
	assert_int_equal(
	    agx_present_x11_find_visual(s->conn, 1, DRM_FORMAT_RGB565, &visual, &depth), 0);
	assert_int_equal(depth, 16);
	assert_int_equal(
	    agx_present_x11_find_visual(s->conn, 2, DRM_FORMAT_RGB565, &visual, &depth), -ENOENT);
	/* frames are never shown as ABGR: no visual takes them */
	assert_int_equal(
	    agx_present_x11_find_visual(s->conn, 0, DRM_FORMAT_ABGR8888, &visual, &depth), -ENOENT);

	win = make_window(s->conn, 0, screen->root_visual, 24, 40, 30);
	assert_int_equal(agx_present_x11_window_info(s->conn, win, &info), 0);
	assert_int_equal(info.width, 40);
	assert_int_equal(info.height, 30);
	assert_int_equal(info.visual, screen->root_visual);
	assert_int_equal(info.root, screen->root);
	assert_int_equal(info.depth, 24);
	assert_int_equal(info.fourcc, DRM_FORMAT_XRGB8888);
	destroy_window(s->conn, win);
	assert_int_equal(agx_present_x11_window_info(s->conn, win, &info), -ENOENT);
	assert_int_equal(agx_present_x11_window_info(s->conn, 0, &info), -ENOENT);
	/* an InputOnly window shows nothing */
	input_only = xcb_generate_id(s->conn);
	xcb_create_window(s->conn, 0, input_only, screen->root, 0, 0, 10, 10, 0,
			  XCB_WINDOW_CLASS_INPUT_ONLY, XCB_COPY_FROM_PARENT, 0, NULL);
	assert_int_equal(agx_present_x11_window_info(s->conn, input_only, &info), -ENOENT);
	destroy_window(s->conn, input_only);
	/* no target for a window that is none */
	{
		struct agx_present_config config = { .backend = AGX_PRESENT_X11,
						     .x11_connection = s->conn,
						     .x11_window = win };
		struct agx_present_target *t;

		assert_int_equal(agx_present_create(&config, &t), -ENOENT);
		config.x11_connection = NULL;
		assert_int_equal(agx_present_create(&config, &t), -EINVAL);
	}
}

/* Depth 24 by MIT-SHM: converted (the GL colour buffer), then straight from the memfd. */
static void test_x11_shm(void **state)
{
	struct servers *s = *state;
	const uint16_t w = 200, h = 150;
	struct agx_present_target *t;
	struct agx_present_info info;
	struct frame f, g;
	xcb_window_t win;

	SKIP_WITHOUT_X(s);
	win = make_window(s->conn, 0, screen_of(s->conn, 0)->root_visual, 24, w, h);
	t = x11_target(s->conn, win, 0);
	agx_present_get_info(t, &info);
	assert_true(info.shm);
	assert_int_equal(info.fourcc, DRM_FORMAT_XRGB8888);

	make_frame(&f, DRM_FORMAT_ABGR8888, w, h, w * 4 + 48, 0, true);
	assert_int_equal(agx_present_frame(t, &f.image), 0);
	agx_present_get_info(t, &info);
	assert_int_equal(info.shm_converted, 1);
	check_window(s->conn, win, DRM_FORMAT_XRGB8888, w, h, false);
	free_frame(&f);

	/* the window's own format, top row first, at an offset: no copy */
	make_frame(&g, DRM_FORMAT_XRGB8888, w, h, w * 4 + 16, 4096, false);
	assert_int_equal(agx_present_frame(t, &g.image), 0);
	check_window(s->conn, win, DRM_FORMAT_XRGB8888, w, h, false);
	/* again: the memfd stays attached */
	assert_int_equal(agx_present_frame(t, &g.image), 0);
	agx_present_get_info(t, &info);
	assert_int_equal(info.shm_direct, 2);
	assert_int_equal(info.frames, 3);
	assert_int_equal(info.put_image, 0);
	free_frame(&g);

	/* smaller than the window: the rest stays as it was */
	make_frame(&f, DRM_FORMAT_XBGR8888, w / 2, h / 2, w * 2, 0, false);
	assert_int_equal(agx_present_frame(t, &f.image), 0);
	check_window(s->conn, win, DRM_FORMAT_XRGB8888, w / 2, h / 2, false);
	free_frame(&f);
	agx_present_destroy(t);
	destroy_window(s->conn, win);
}

/*
 * Swap interval 1 waits for the screen's next refresh after each frame
 * (Xvfb's Present counts refreshes on a timer): every such frame ends at a
 * later MSC than the one before.  Interval 0 never waits.
 */
static void test_x11_swap_interval(void **state)
{
	struct servers *s = *state;
	const uint16_t w = 32, h = 24;
	struct agx_present_target *t;
	struct agx_present_info info;
	uint64_t msc = 0;
	struct frame f;
	xcb_window_t win;

	SKIP_WITHOUT_X(s);
	win = make_window(s->conn, 0, screen_of(s->conn, 0)->root_visual, 24, w, h);
	t = x11_target(s->conn, win, 0);
	make_frame(&f, DRM_FORMAT_XRGB8888, w, h, w * 4, 0, false);
	f.image.swap_interval = 1;
	for (unsigned i = 1; i <= 3; i++) {
		assert_int_equal(agx_present_frame(t, &f.image), 0);
		agx_present_get_info(t, &info);
		assert_int_equal(info.refresh_waits, i);
		assert_true(info.msc > msc);
		msc = info.msc;
	}
	f.image.swap_interval = 0;
	assert_int_equal(agx_present_frame(t, &f.image), 0);
	assert_int_equal(agx_present_frame(t, &f.image), 0);
	agx_present_get_info(t, &info);
	assert_int_equal(info.refresh_waits, 3);
	assert_int_equal(info.frames, 5);
	check_window(s->conn, win, DRM_FORMAT_XRGB8888, w, h, false);
	free_frame(&f);
	agx_present_destroy(t);
	destroy_window(s->conn, win);
}

/* Depth 32: the frame's alpha reaches the window. */
static void test_x11_depth32(void **state)
{
	struct servers *s = *state;
	const uint16_t w = 64, h = 48;
	struct agx_present_target *t;
	struct agx_present_info info;
	uint32_t visual;
	uint8_t depth;
	struct frame f;
	xcb_window_t win;

	SKIP_WITHOUT_X(s);
	assert_int_equal(
	    agx_present_x11_find_visual(s->conn, 0, DRM_FORMAT_ARGB8888, &visual, &depth), 0);
	win = make_window(s->conn, 0, visual, depth, w, h);
	t = x11_target(s->conn, win, 0);
	agx_present_get_info(t, &info);
	assert_int_equal(info.fourcc, DRM_FORMAT_ARGB8888);
	make_frame(&f, DRM_FORMAT_ABGR8888, w, h, w * 4, 0, true);
	assert_int_equal(agx_present_frame(t, &f.image), 0);
	check_window(s->conn, win, DRM_FORMAT_ARGB8888, w, h, false);
	free_frame(&f);
	agx_present_destroy(t);
	destroy_window(s->conn, win);
}

/* Depth 16 (the second screen): RGB565 frames as they are, 8-bit frames rounded. */
static void test_x11_rgb565(void **state)
{
	struct servers *s = *state;
	const uint16_t w = 50, h = 40;
	struct agx_present_target *t;
	struct agx_present_info info;
	uint32_t visual;
	uint8_t depth;
	struct frame f;
	xcb_window_t win;

	SKIP_WITHOUT_X(s);
	assert_int_equal(
	    agx_present_x11_find_visual(s->conn, 1, DRM_FORMAT_RGB565, &visual, &depth), 0);
	win = make_window(s->conn, 1, visual, depth, w, h);
	t = x11_target(s->conn, win, 0);
	make_frame(&f, DRM_FORMAT_RGB565, w, h, w * 2 + 12, 0, false);
	assert_int_equal(agx_present_frame(t, &f.image), 0);
	check_window(s->conn, win, DRM_FORMAT_RGB565, w, h, true);
	free_frame(&f);
	make_frame(&f, DRM_FORMAT_ABGR8888, w, h, w * 4, 0, true);
	assert_int_equal(agx_present_frame(t, &f.image), 0);
	check_window(s->conn, win, DRM_FORMAT_RGB565, w, h, false);
	free_frame(&f);
	agx_present_get_info(t, &info);
	assert_int_equal(info.shm_direct, 1);
	assert_int_equal(info.shm_converted, 1);
	agx_present_destroy(t);
	destroy_window(s->conn, win);
}

/* PutImage when asked for, on a server with MIT-SHM. */
static void test_x11_no_shm_flag(void **state)
{
	struct servers *s = *state;
	const uint16_t w = 100, h = 80;
	struct agx_present_target *t;
	struct agx_present_info info;
	struct frame f;
	xcb_window_t win;

	SKIP_WITHOUT_X(s);
	win = make_window(s->conn, 0, screen_of(s->conn, 0)->root_visual, 24, w, h);
	t = x11_target(s->conn, win, AGX_PRESENT_X11_NO_SHM);
	agx_present_get_info(t, &info);
	assert_false(info.shm);
	make_frame(&f, DRM_FORMAT_XRGB8888, w, h, w * 4, 0, false);
	assert_int_equal(agx_present_frame(t, &f.image), 0);
	check_window(s->conn, win, DRM_FORMAT_XRGB8888, w, h, false);
	free_frame(&f);
	make_frame(&f, DRM_FORMAT_ABGR8888, w, h, w * 4, 0, true);
	assert_int_equal(agx_present_frame(t, &f.image), 0);
	check_window(s->conn, win, DRM_FORMAT_XRGB8888, w, h, false);
	free_frame(&f);
	agx_present_get_info(t, &info);
	assert_int_equal(info.put_image, 2);
	assert_int_equal(info.shm_direct + info.shm_converted, 0);
	agx_present_destroy(t);
	destroy_window(s->conn, win);
}

/*
 * A server without MIT-SHM: PutImage, and a 2100x2100 frame (17.6 MB) is
 * more than one request takes (BIG-REQUESTS' 16 MiB; the extension cannot
 * be turned off).
 */
static void test_x11_server_without_shm(void **state)
{
	struct servers *s = *state;
	const uint16_t w = PLAIN_SIZE, h = PLAIN_SIZE;
	struct agx_present_target *t;
	struct agx_present_info info;
	struct frame f;
	xcb_window_t win;

	SKIP_WITHOUT_X(s);
	assert_true(xcb_get_maximum_request_length(s->plain_conn) * 4u < (uint32_t)w * h * 4);
	win = make_window(s->plain_conn, 0, screen_of(s->plain_conn, 0)->root_visual, 24, w, h);
	t = x11_target(s->plain_conn, win, 0);
	agx_present_get_info(t, &info);
	assert_false(info.shm);
	make_frame(&f, DRM_FORMAT_ABGR8888, w, h, w * 4, 0, true);
	assert_int_equal(agx_present_frame(t, &f.image), 0);
	check_window(s->plain_conn, win, DRM_FORMAT_XRGB8888, w, h, false);
	free_frame(&f);
	agx_present_get_info(t, &info);
	assert_int_equal(info.put_image, 1);
	assert_int_equal(info.put_requests, 2);
	agx_present_destroy(t);
	destroy_window(s->plain_conn, win);
}

/* A window destroyed under the target: -ENOENT, by either path. */
static void test_x11_window_gone(void **state)
{
	struct servers *s = *state;
	struct agx_present_target *shm, *put;
	struct frame f;
	xcb_window_t win;

	SKIP_WITHOUT_X(s);
	win = make_window(s->conn, 0, screen_of(s->conn, 0)->root_visual, 24, 32, 32);
	shm = x11_target(s->conn, win, 0);
	put = x11_target(s->conn, win, AGX_PRESENT_X11_NO_SHM);
	destroy_window(s->conn, win);
	make_frame(&f, DRM_FORMAT_ABGR8888, 32, 32, 128, 0, true);
	assert_int_equal(agx_present_frame(shm, &f.image), -ENOENT);
	assert_int_equal(agx_present_frame(put, &f.image), -ENOENT);
	free_frame(&f);
	agx_present_destroy(shm);
	agx_present_destroy(put);
	/* the connection is fine */
	assert_int_equal(xcb_connection_has_error(s->conn), 0);
}

/* ---- setup ---------------------------------------------------------------------------------- */

static int setup(void **state)
{
	static const char *const two_screens[] = { "-screen", "0",	    "256x256x24", "-screen",
						   "1",	      "256x256x16", NULL };
	static const char *const plain[] = { "-screen",	   "0",	      PLAIN_SCREEN,
					     "-extension", "MIT-SHM", NULL };
	struct servers *s = calloc(1, sizeof(*s));

	assert_non_null(s);
	snprintf(s->dir, sizeof(s->dir), "/tmp/agx-test-present-XXXXXX");
	assert_non_null(mkdtemp(s->dir));
	s->have_x = test_xvfb_start(&s->shm, two_screens);
	if (s->have_x) {
		assert_true(test_xvfb_start(&s->plain, plain));
		s->conn = xcb_connect(s->shm.display, NULL);
		s->plain_conn = xcb_connect(s->plain.display, NULL);
		assert_int_equal(xcb_connection_has_error(s->conn), 0);
		assert_int_equal(xcb_connection_has_error(s->plain_conn), 0);
	} else {
		print_message("# no Xvfb: the X11 tests skip\n");
	}
	*state = s;
	return 0;
}

static int teardown(void **state)
{
	struct servers *s = *state;
	struct dirent *e;
	DIR *dir;

	if (s->conn)
		xcb_disconnect(s->conn);
	if (s->plain_conn)
		xcb_disconnect(s->plain_conn);
	test_xvfb_stop(&s->shm);
	test_xvfb_stop(&s->plain);
	/* the files a failed case left behind, then the directory */
	dir = opendir(s->dir);
	while (dir && (e = readdir(dir))) {
		char path[sizeof(s->dir) + 256];

		if (e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%s", s->dir, e->d_name);
		unlink(path);
	}
	if (dir)
		closedir(dir);
	rmdir(s->dir);
	free(s);
	return 0;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_headless),
		cmocka_unit_test(test_bad_frames),
		cmocka_unit_test(test_x11_visuals),
		cmocka_unit_test(test_x11_shm),
		cmocka_unit_test(test_x11_swap_interval),
		cmocka_unit_test(test_x11_depth32),
		cmocka_unit_test(test_x11_rgb565),
		cmocka_unit_test(test_x11_no_shm_flag),
		cmocka_unit_test(test_x11_server_without_shm),
		cmocka_unit_test(test_x11_window_gone),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
