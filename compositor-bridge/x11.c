/*
 * x11.c: the X11 presentation target (xcb).  A frame reaches the window
 * by MIT-SHM when the server takes file descriptors (MIT-SHM 1.2 over a
 * local socket): straight from the frame's memfd when its rows already
 * are what the window's visual takes, top row first; otherwise converted
 * into the target's own shared memfd.  Without MIT-SHM every frame is
 * converted and sent in PutImage requests, and the process says so once.
 *
 * Windows of TrueColor visuals of depth 24 (XRGB8888), 32 (ARGB8888) and
 * 16 (RGB565) are supported, on servers that send images least
 * significant byte first.  Each put is a checked request: when
 * agx_present_frame returns the server has copied the frame, and an X
 * error comes back to us rather than to an Xlib error handler of the
 * application that owns the connection.
 *
 * A frame of swap interval 1 is paced by the Present extension: after the
 * put, the target asks the server to tell it of the next MSC (NotifyMSC,
 * the screen's next vertical refresh; Xvfb's is a 60 Hz timer) and waits
 * for that CompleteNotify, so that no two frames are shown in one
 * refresh.  Swap interval 0 never waits; a server without Present cannot
 * pace, and the process says so once.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include <drm_fourcc.h>
#include <xcb/present.h>
#include <xcb/shm.h>
#include <xcb/xcb.h>

#include "present_priv.h"

/* The frames' memfds attached as they are: a double-buffered caller uses two. */
#define DIRECT_SEGS 2
/* The bytes of a PutImage request before its data. */
#define PUT_IMAGE_HEADER 24

struct segment {
	xcb_shm_seg_t seg; /* 0: none */
	int fd; /* our duplicate: the memfd lives (its inode stays unique) while attached */
	dev_t dev;
	ino_t ino;
	uint64_t last_use;
};

struct x11 {
	struct agx_present_target base;
	xcb_connection_t *conn;
	xcb_window_t window;
	xcb_gcontext_t gc;
	uint8_t depth;
	const struct present_format *format; /* what the window's visual takes */
	unsigned scanline_pad;		     /* bits: each row of an image is padded to it */
	bool shm;
	struct segment direct[DIRECT_SEGS];
	uint64_t clock;
	/* converted frames: our memfd, mapped (and attached while shm), or memory for PutImage */
	struct segment staging;
	uint8_t *staging_map;
	uint64_t staging_size;
	/* Present's CompleteNotify events for this window, on a queue of their own */
	xcb_special_event_t *present_events;
	uint32_t present_eid, present_serial;
};

/* ---- visuals ------------------------------------------------------------------------------ */

/* The format a visual of depth takes with pixels of bpp bits, NULL if none supported. */
static const struct present_format *
visual_format(const xcb_setup_t *setup, const xcb_visualtype_t *v, uint8_t depth, unsigned bpp)
{
	/* the formats are little-endian words: the server must send images that way */
	if (setup->image_byte_order != XCB_IMAGE_ORDER_LSB_FIRST ||
	    v->_class != XCB_VISUAL_CLASS_TRUE_COLOR)
		return NULL;
	if ((depth == 24 || depth == 32) && bpp == 32 && v->red_mask == 0xff0000 &&
	    v->green_mask == 0xff00 && v->blue_mask == 0xff)
		return present_format(depth == 32 ? DRM_FORMAT_ARGB8888 : DRM_FORMAT_XRGB8888);
	if (depth == 16 && bpp == 16 && v->red_mask == 0xf800 && v->green_mask == 0x7e0 &&
	    v->blue_mask == 0x1f)
		return present_format(DRM_FORMAT_RGB565);
	return NULL;
}

/* The pixmap format of depth: bits per pixel and scanline pad; false if the server has none. */
static bool pixmap_format(const xcb_setup_t *setup, uint8_t depth, unsigned *bpp, unsigned *pad)
{
	for (xcb_format_iterator_t f = xcb_setup_pixmap_formats_iterator(setup); f.rem;
	     xcb_format_next(&f)) {
		if (f.data->depth == depth) {
			*bpp = f.data->bits_per_pixel;
			*pad = f.data->scanline_pad;
			return true;
		}
	}
	return false;
}

/* The screen-th screen of the connection, NULL past the last. */
static const xcb_screen_t *nth_screen(const xcb_setup_t *setup, int screen)
{
	xcb_screen_iterator_t s = xcb_setup_roots_iterator(setup);

	for (int i = 0; s.rem && i < screen; i++)
		xcb_screen_next(&s);
	return screen >= 0 && s.rem ? s.data : NULL;
}

/* The format visual of screen takes (its depth in *depth, its pad in *pad), NULL if none. */
static const struct present_format *find_format(const xcb_setup_t *setup,
						const xcb_screen_t *screen, xcb_visualid_t visual,
						uint8_t *depth, unsigned *pad)
{
	for (xcb_depth_iterator_t d = xcb_screen_allowed_depths_iterator(screen); d.rem;
	     xcb_depth_next(&d)) {
		for (xcb_visualtype_iterator_t v = xcb_depth_visuals_iterator(d.data); v.rem;
		     xcb_visualtype_next(&v)) {
			unsigned bpp, p;

			if (v.data->visual_id != visual)
				continue;
			*depth = d.data->depth;
			if (!pixmap_format(setup, d.data->depth, &bpp, &p))
				return NULL;
			if (pad)
				*pad = p;
			return visual_format(setup, v.data, d.data->depth, bpp);
		}
	}
	return NULL;
}

int agx_present_x11_find_visual(void *connection, int screen, uint32_t fourcc, uint32_t *visual,
				uint8_t *depth)
{
	xcb_connection_t *conn = connection;
	const struct present_format *f;
	const xcb_setup_t *setup;
	const xcb_screen_t *s;

	if (xcb_connection_has_error(conn))
		return present_fail(-EPIPE, "the X connection has failed");
	setup = xcb_get_setup(conn);
	if (!(s = nth_screen(setup, screen)))
		return present_fail(-ENOENT, "the X server has no screen %d", screen);
	/* the root window's visual first: the one windows get when they name none */
	f = find_format(setup, s, s->root_visual, depth, NULL);
	if (f && f->fourcc == fourcc) {
		*visual = s->root_visual;
		return 0;
	}
	for (xcb_depth_iterator_t d = xcb_screen_allowed_depths_iterator(s); d.rem;
	     xcb_depth_next(&d)) {
		for (xcb_visualtype_iterator_t v = xcb_depth_visuals_iterator(d.data); v.rem;
		     xcb_visualtype_next(&v)) {
			unsigned bpp, pad;

			if (!pixmap_format(setup, d.data->depth, &bpp, &pad))
				continue;
			f = visual_format(setup, v.data, d.data->depth, bpp);
			if (f && f->fourcc == fourcc) {
				*visual = v.data->visual_id;
				*depth = d.data->depth;
				return 0;
			}
		}
	}
	return present_fail(-ENOENT, "screen %d has no visual for %s frames", screen,
			    present_format(fourcc) ? present_format(fourcc)->name : "such");
}

/* The negative errno of an X error (freed). */
static int x_error(xcb_generic_error_t *err, const char *what)
{
	int ret;

	switch (err->error_code) {
	case XCB_WINDOW:
	case XCB_DRAWABLE:
		ret = present_fail(-ENOENT, "%s: the window is gone", what);
		break;
	case XCB_ALLOC:
		ret = present_fail(-ENOMEM, "%s: the X server is out of memory", what);
		break;
	default:
		ret = present_fail(-EIO, "%s: X error %u (request %u.%u)", what, err->error_code,
				   err->major_code, err->minor_code);
		break;
	}
	free(err);
	return ret;
}

int agx_present_x11_window_info(void *connection, uint32_t window,
				struct agx_present_x11_window *info)
{
	xcb_connection_t *conn = connection;
	xcb_get_window_attributes_reply_t *attrs;
	xcb_get_geometry_reply_t *geom;
	xcb_generic_error_t *attrs_err = NULL, *geom_err = NULL;
	xcb_get_window_attributes_cookie_t ac;
	xcb_get_geometry_cookie_t gc;
	int ret = 0;

	if (xcb_connection_has_error(conn))
		return present_fail(-EPIPE, "the X connection has failed");
	/* both requests at once: one round trip; their errors come with the replies */
	ac = xcb_get_window_attributes(conn, window);
	gc = xcb_get_geometry(conn, window);
	attrs = xcb_get_window_attributes_reply(conn, ac, &attrs_err);
	geom = xcb_get_geometry_reply(conn, gc, &geom_err);
	if (attrs_err || geom_err) {
		uint8_t code = (attrs_err ? attrs_err : geom_err)->error_code;

		ret = code == XCB_WINDOW || code == XCB_DRAWABLE
			  ? present_fail(-ENOENT, "0x%x is no window", window)
			  : present_fail(-EIO, "X error %u asking about window 0x%x", code, window);
	} else if (!attrs || !geom) {
		ret = present_fail(-EPIPE, "the X connection has failed");
	} else if (attrs->_class != XCB_WINDOW_CLASS_INPUT_OUTPUT) {
		ret = present_fail(-ENOENT, "0x%x is an InputOnly window", window);
	} else {
		const xcb_setup_t *setup = xcb_get_setup(conn);

		*info = (struct agx_present_x11_window){
			.width = geom->width,
			.height = geom->height,
			.visual = attrs->visual,
			.root = geom->root,
			.depth = geom->depth,
		};
		for (xcb_screen_iterator_t s = xcb_setup_roots_iterator(setup); s.rem;
		     xcb_screen_next(&s)) {
			const struct present_format *f;
			uint8_t depth;

			if (s.data->root != geom->root)
				continue;
			f = find_format(setup, s.data, attrs->visual, &depth, NULL);
			info->fourcc = f ? f->fourcc : 0;
		}
	}
	free(attrs_err);
	free(geom_err);
	free(attrs);
	free(geom);
	return ret;
}

/* ---- MIT-SHM -------------------------------------------------------------------------------- */

/* Says once per process why frames go by PutImage. */
static void say_put_image(const char *why)
{
	static bool said;

	if (__atomic_exchange_n(&said, true, __ATOMIC_RELAXED))
		return;
	fprintf(stderr, "libagx_present: %s; frames go to X11 windows by PutImage\n", why);
}

/* Whether the server takes memfds (MIT-SHM 1.2) from this connection; why not in *why. */
static bool shm_usable(xcb_connection_t *conn, char *why, size_t size)
{
	const xcb_query_extension_reply_t *ext = xcb_get_extension_data(conn, &xcb_shm_id);
	xcb_shm_query_version_reply_t *version;
	struct sockaddr_storage addr;
	socklen_t len = sizeof(addr);
	bool fds;

	if (!ext || !ext->present) {
		snprintf(why, size, "the X server has no MIT-SHM");
		return false;
	}
	version = xcb_shm_query_version_reply(conn, xcb_shm_query_version(conn), NULL);
	if (!version) {
		snprintf(why, size, "MIT-SHM's QueryVersion failed");
		return false;
	}
	fds = version->major_version > 1 ||
	      (version->major_version == 1 && version->minor_version >= 2);
	if (!fds)
		snprintf(why, size, "the X server's MIT-SHM %u.%u takes no file descriptors (1.2)",
			 version->major_version, version->minor_version);
	free(version);
	if (!fds)
		return false;
	/* file descriptors pass only over a Unix socket: a remote server cannot map ours */
	if (getsockname(xcb_get_file_descriptor(conn), (struct sockaddr *)&addr, &len) < 0 ||
	    addr.ss_family != AF_UNIX) {
		snprintf(why, size, "the X connection is not local");
		return false;
	}
	return true;
}

/* Attaches fd (a duplicate; ours stays in seg->fd) read-only: 0 or -errno. */
static int attach(struct x11 *x, int fd, struct segment *seg)
{
	xcb_generic_error_t *err;
	int dup_fd;

	seg->fd = fcntl(fd, F_DUPFD_CLOEXEC, 0);
	if (seg->fd < 0)
		return present_fail(-errno, "cannot duplicate a memfd: %s", strerror(errno));
	/* xcb closes the descriptor it sends */
	dup_fd = fcntl(fd, F_DUPFD_CLOEXEC, 0);
	if (dup_fd < 0) {
		close(seg->fd);
		return present_fail(-errno, "cannot duplicate a memfd: %s", strerror(errno));
	}
	seg->seg = xcb_generate_id(x->conn);
	err = xcb_request_check(x->conn, xcb_shm_attach_fd_checked(x->conn, seg->seg, dup_fd, 1));
	if (err || xcb_connection_has_error(x->conn)) {
		close(seg->fd);
		seg->seg = 0;
		return err ? x_error(err, "MIT-SHM AttachFd")
			   : present_fail(-EPIPE, "the X connection has failed");
	}
	return 0;
}

static void detach(struct x11 *x, struct segment *seg)
{
	if (!seg->seg)
		return;
	xcb_shm_detach(x->conn, seg->seg);
	close(seg->fd);
	seg->seg = 0;
}

/* MIT-SHM turned out not to work: PutImage from now on, and say so. */
static void give_up_shm(struct x11 *x)
{
	char why[320];

	snprintf(why, sizeof(why), "MIT-SHM failed (%s)", agx_present_error());
	for (unsigned i = 0; i < DIRECT_SEGS; i++)
		detach(x, &x->direct[i]);
	detach(x, &x->staging);
	x->shm = false;
	x->base.info.shm = false;
	say_put_image(why);
}

/* The segment of the frame's memfd, attached if it was not: NULL (error recorded) on failure. */
static struct segment *direct_segment(struct x11 *x, int fd)
{
	struct segment *seg = NULL;
	struct stat st;

	if (fstat(fd, &st) < 0) {
		present_fail(-errno, "cannot stat a frame's memfd: %s", strerror(errno));
		return NULL;
	}
	for (unsigned i = 0; i < DIRECT_SEGS; i++) {
		if (x->direct[i].seg && x->direct[i].dev == st.st_dev &&
		    x->direct[i].ino == st.st_ino) {
			x->direct[i].last_use = ++x->clock;
			return &x->direct[i];
		}
	}
	/* a free one, or the least recently used */
	for (unsigned i = 0; i < DIRECT_SEGS; i++)
		if (!seg || !x->direct[i].seg ||
		    (seg->seg && x->direct[i].last_use < seg->last_use))
			seg = &x->direct[i];
	detach(x, seg);
	if (attach(x, fd, seg) < 0)
		return NULL;
	seg->dev = st.st_dev;
	seg->ino = st.st_ino;
	seg->last_use = ++x->clock;
	return seg;
}

/* ---- the target ----------------------------------------------------------------------------- */

/*
 * Present: CompleteNotify events of the window selected into a special
 * event queue of ours, which leaves the application's own event loop as
 * it was.  Without the extension swaps are not paced.
 */
static void present_init(struct x11 *x)
{
	const xcb_query_extension_reply_t *ext = xcb_get_extension_data(x->conn, &xcb_present_id);
	xcb_present_query_version_reply_t *version;
	xcb_generic_error_t *err;

	if (!ext || !ext->present) {
		static bool said;

		if (!said)
			fprintf(stderr, "agx-present: the X server has no Present extension: "
					"swaps are not paced to its refresh\n");
		said = true;
		return;
	}
	version = xcb_present_query_version_reply(
	    x->conn, xcb_present_query_version(x->conn, XCB_PRESENT_MAJOR_VERSION, 0), NULL);
	free(version);
	x->present_eid = xcb_generate_id(x->conn);
	err = xcb_request_check(
	    x->conn, xcb_present_select_input_checked(x->conn, x->present_eid, x->window,
						      XCB_PRESENT_EVENT_MASK_COMPLETE_NOTIFY));
	if (err) {
		free(err);
		return;
	}
	x->present_events =
	    xcb_register_for_special_xge(x->conn, &xcb_present_id, x->present_eid, NULL);
}

static void present_finish(struct x11 *x)
{
	if (!x->present_events)
		return;
	/* checked: the window may be gone, and the error is ours, not Xlib's */
	free(xcb_request_check(
	    x->conn, xcb_present_select_input_checked(x->conn, x->present_eid, x->window, 0)));
	xcb_unregister_for_special_event(x->conn, x->present_events);
	x->present_events = NULL;
}

/* Waits for the screen's next MSC (vertical refresh) after the frame just put. */
static int wait_refresh(struct x11 *x)
{
	uint32_t serial = ++x->present_serial;
	xcb_generic_error_t *err;

	/* target 0, divisor 1, remainder 0: the first MSC after the current one */
	err = xcb_request_check(
	    x->conn, xcb_present_notify_msc_checked(x->conn, x->window, serial, 0, 1, 0));
	if (err)
		return x_error(err, "PresentNotifyMSC");
	for (;;) {
		xcb_generic_event_t *ev = xcb_wait_for_special_event(x->conn, x->present_events);
		const xcb_present_complete_notify_event_t *done = (const void *)ev;

		if (!ev)
			return present_fail(-EPIPE, "the X connection has failed");
		if (done->event_type == XCB_PRESENT_EVENT_COMPLETE_NOTIFY &&
		    done->kind == XCB_PRESENT_COMPLETE_KIND_NOTIFY_MSC && done->serial == serial) {
			x->base.info.refresh_waits++;
			x->base.info.msc = done->msc;
			free(ev);
			return 0;
		}
		free(ev);
	}
}

static int x11_create(const struct agx_present_config *config, struct agx_present_target **out)
{
	xcb_connection_t *conn = config->x11_connection;
	struct agx_present_x11_window w;
	const xcb_setup_t *setup;
	const xcb_screen_t *screen = NULL;
	xcb_generic_error_t *err;
	const uint32_t no_exposures = 0;
	struct x11 *x;
	char why[256];
	int ret;

	if (!conn)
		return present_fail(-EINVAL, "an x11 target needs a connection");
	if ((ret = agx_present_x11_window_info(conn, config->x11_window, &w)) < 0)
		return ret;
	if (!w.fourcc)
		return present_fail(-ENOTSUP,
				    "window 0x%x has visual 0x%x of depth %u, which takes none of "
				    "the formats frames go to windows in",
				    config->x11_window, w.visual, w.depth);
	x = calloc(1, sizeof(*x));
	if (!x)
		return present_fail(-ENOMEM, "out of memory");
	x->conn = conn;
	x->window = config->x11_window;
	x->depth = w.depth;
	x->staging.fd = -1;
	setup = xcb_get_setup(conn);
	for (xcb_screen_iterator_t s = xcb_setup_roots_iterator(setup); s.rem; xcb_screen_next(&s))
		if (s.data->root == w.root)
			screen = s.data;
	x->format = find_format(setup, screen, w.visual, &x->depth, &x->scanline_pad);
	x->gc = xcb_generate_id(conn);
	err = xcb_request_check(conn,
				xcb_create_gc_checked(conn, x->gc, x->window,
						      XCB_GC_GRAPHICS_EXPOSURES, &no_exposures));
	if (err) {
		ret = x_error(err, "CreateGC");
		free(x);
		return ret;
	}
	if (!(config->flags & AGX_PRESENT_X11_NO_SHM)) {
		x->shm = shm_usable(conn, why, sizeof(why));
		if (!x->shm)
			say_put_image(why);
	}
	present_init(x);
	x->base.info.fourcc = x->format->fourcc;
	x->base.info.shm = x->shm;
	*out = &x->base;
	return 0;
}

static void x11_destroy(struct agx_present_target *target)
{
	struct x11 *x = (struct x11 *)target;

	for (unsigned i = 0; i < DIRECT_SEGS; i++)
		detach(x, &x->direct[i]);
	detach(x, &x->staging);
	present_finish(x);
	xcb_free_gc(x->conn, x->gc);
	xcb_flush(x->conn);
	if (x->staging_map)
		munmap(x->staging_map, x->staging_size);
	free(x);
}

/* Room for a converted frame of size bytes: a memfd, mapped, attached while shm is on. */
static int staging(struct x11 *x, uint64_t size)
{
	int fd;

	if (x->staging_map && x->staging_size >= size && (!x->shm || x->staging.seg))
		return 0;
	detach(x, &x->staging);
	if (x->staging_map)
		munmap(x->staging_map, x->staging_size);
	x->staging_map = NULL;
	x->staging_size = 0;
	fd = memfd_create("agx-present", MFD_CLOEXEC);
	if (fd < 0)
		return present_fail(-errno, "memfd_create: %s", strerror(errno));
	if (ftruncate(fd, (off_t)size) < 0) {
		close(fd);
		return present_fail(-errno, "cannot size a %llu-byte memfd: %s",
				    (unsigned long long)size, strerror(errno));
	}
	x->staging_map = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (x->staging_map == MAP_FAILED) {
		x->staging_map = NULL;
		close(fd);
		return present_fail(-errno, "cannot map a %llu-byte memfd: %s",
				    (unsigned long long)size, strerror(errno));
	}
	x->staging_size = size;
	if (x->shm && attach(x, fd, &x->staging) < 0)
		give_up_shm(x);
	close(fd); /* the mapping, and the segment's duplicate, keep it */
	return 0;
}

/* The server's answer to a checked put: 0, or the error's errno. */
static int check_put(struct x11 *x, xcb_void_cookie_t cookie, const char *what)
{
	xcb_generic_error_t *err = xcb_request_check(x->conn, cookie);

	if (err)
		return x_error(err, what);
	if (xcb_connection_has_error(x->conn))
		return present_fail(-EPIPE, "the X connection has failed");
	return 0;
}

static int shm_put(struct x11 *x, const struct segment *seg, uint64_t offset, uint32_t stride,
		   uint32_t width, uint32_t height)
{
	uint32_t total_width = stride / x->format->bytes;

	return check_put(x,
			 xcb_shm_put_image_checked(
			     x->conn, x->window, x->gc, (uint16_t)total_width, (uint16_t)height, 0,
			     0, (uint16_t)width, (uint16_t)height, 0, 0, x->depth,
			     XCB_IMAGE_FORMAT_Z_PIXMAP, 0, seg->seg, (uint32_t)offset),
			 "MIT-SHM PutImage");
}

/* PutImage of rows stride bytes apart, in as few requests as the server's limit allows. */
static int put_image(struct x11 *x, const uint8_t *rows, uint64_t stride, uint32_t width,
		     uint32_t height)
{
	uint64_t max = (uint64_t)xcb_get_maximum_request_length(x->conn) * 4;
	uint32_t per = max > PUT_IMAGE_HEADER ? (uint32_t)((max - PUT_IMAGE_HEADER) / stride) : 0;
	xcb_void_cookie_t *cookies;
	unsigned n, sent = 0;
	int ret = 0;

	if (per == 0)
		return present_fail(-E2BIG, "a row of %llu bytes is more than a request takes",
				    (unsigned long long)stride);
	n = (height + per - 1) / per;
	cookies = malloc(n * sizeof(*cookies));
	if (!cookies)
		return present_fail(-ENOMEM, "out of memory");
	for (uint32_t y = 0; y < height; y += per) {
		uint32_t rows_now = height - y < per ? height - y : per;

		cookies[sent++] = xcb_put_image_checked(
		    x->conn, XCB_IMAGE_FORMAT_Z_PIXMAP, x->window, x->gc, (uint16_t)width,
		    (uint16_t)rows_now, 0, (int16_t)y, 0, x->depth, (uint32_t)(rows_now * stride),
		    rows + y * stride);
	}
	x->base.info.put_requests += sent;
	/* every cookie is checked, so that no error is left for Xlib's handler */
	for (unsigned i = 0; i < sent; i++) {
		int r = check_put(x, cookies[i], "PutImage");

		if (ret == 0)
			ret = r;
	}
	free(cookies);
	return ret;
}

/* Whether the frame's memfd can go to the server as it is. */
static bool direct_ok(const struct x11 *x, const struct agx_present_image *image)
{
	unsigned bpp = x->format->bytes, pad = x->scanline_pad / 8;

	/* the server finds row y at offset + y * stride: stride must be its padded row */
	return x->shm && image->fourcc == x->format->fourcc && !image->bottom_up &&
	       image->stride % bpp == 0 && (pad == 0 || image->stride % pad == 0) &&
	       image->stride / bpp <= UINT16_MAX && image->offset <= UINT32_MAX &&
	       (uint64_t)image->stride * image->height <= image->size - image->offset;
}

static int put_frame(struct x11 *x, const struct agx_present_image *image, const uint8_t *pixels)
{
	unsigned bpp = x->format->bytes, pad = x->scanline_pad ? x->scanline_pad / 8 : 1;
	uint64_t stride = ((uint64_t)image->width * bpp + pad - 1) / pad * pad;
	struct segment *seg;
	int ret;

	/* X11 coordinates and sizes are 16-bit */
	if (image->width > INT16_MAX || image->height > INT16_MAX)
		return present_fail(-EINVAL, "a %ux%u frame is larger than X11 draws", image->width,
				    image->height);
	if (direct_ok(x, image)) {
		seg = direct_segment(x, image->fd);
		if (seg) {
			ret = shm_put(x, seg, image->offset, image->stride, image->width,
				      image->height);
			if (ret == 0)
				x->base.info.shm_direct++;
			return ret;
		}
		if (xcb_connection_has_error(x->conn))
			return -EPIPE;
		give_up_shm(x);
	}
	if ((ret = staging(x, stride * image->height)) < 0)
		return ret;
	present_convert(image, pixels, x->format, x->staging_map, stride);
	if (x->shm) {
		ret = shm_put(x, &x->staging, 0, (uint32_t)stride, image->width, image->height);
		if (ret == 0)
			x->base.info.shm_converted++;
		return ret;
	}
	ret = put_image(x, x->staging_map, stride, image->width, image->height);
	if (ret == 0)
		x->base.info.put_image++;
	return ret;
}

static int x11_frame(struct agx_present_target *target, const struct agx_present_image *image,
		     const uint8_t *pixels)
{
	struct x11 *x = (struct x11 *)target;
	int ret = put_frame(x, image, pixels);

	if (ret == 0 && image->swap_interval && x->present_events)
		ret = wait_refresh(x);
	return ret;
}

const struct agx_present_ops agx_present_x11_ops = {
	.name = "x11",
	.create = x11_create,
	.destroy = x11_destroy,
	.frame = x11_frame,
};
