/*
 * present.h: compositor-bridge -- hands finished frames to a presentation
 * target.  A target is made for one destination (a native window, or a
 * file path); each frame is an image in a memfd (a BO of the device:
 * agx_bo.fd and agx_bo.map, agx/memory.h) described by its offset,
 * stride, size and DRM fourcc format (libdrm's drm_fourcc.h).
 *
 * Fences: the caller waits for the render fence of the work that wrote
 * the frame (agx_device_wait, or the GL context's finish) and then calls
 * agx_present_frame.  The headless and x11 targets read the image at
 * once: when it returns they read the caller's memory no more, and the
 * frame may be rendered over again.  The wayland target hands the memfd
 * itself to the compositor, which reads it until it lets go: the caller
 * renders into a memfd only while agx_present_busy says it is not held.
 *
 * Backends (docs/compositor-bridge.md): headless (one PNG file per frame),
 * x11 (MIT-SHM from the memfd, or PutImage) and wayland (wl_shm from the
 * memfd).  Every function returns 0 or a negative errno;
 * agx_present_error() says why in words.
 */
#ifndef AGX_PRESENT_H
#define AGX_PRESENT_H

#include <stdbool.h>
#include <stdint.h>

enum agx_present_backend {
	AGX_PRESENT_HEADLESS,
	AGX_PRESENT_X11,
	AGX_PRESENT_WAYLAND,
};

enum agx_present_flags {
	/* x11: never use MIT-SHM; every frame goes by PutImage */
	AGX_PRESENT_X11_NO_SHM = 1u << 0,
};

struct agx_present_config {
	enum agx_present_backend backend;
	unsigned flags; /* enum agx_present_flags */
	/*
	 * headless: frame n (from 0) is written to "<path>NNNNNN.png", n in
	 * six digits: path "/tmp/out/frame-" gives /tmp/out/frame-000000.png.
	 */
	const char *path;
	/*
	 * x11: an xcb_connection_t * (the caller's, open while the target
	 * lives; an Xlib Display's through XGetXCBConnection will do) and a
	 * window on it, whose visual must be one the target supports.
	 */
	void *x11_connection;
	uint32_t x11_window;
	/*
	 * wayland: a struct wl_display * (the caller's, connected while the
	 * target lives) and a struct wl_surface * of it, which the target
	 * attaches buffers to and commits (set_buffer_transform too) and the
	 * caller gives a role.
	 */
	void *wl_display;
	void *wl_surface;
};

/* One frame: width x height pixels of fourcc, rows stride bytes apart from offset in fd. */
struct agx_present_image {
	int fd;		 /* the memfd; not taken over */
	const void *map; /* the caller's mapping of all of fd, or NULL: the target maps it */
	uint64_t size;	 /* bytes in fd */
	uint64_t offset; /* of row 0 */
	uint32_t stride;
	uint32_t width, height;
	uint32_t fourcc;
	bool bottom_up; /* row 0 is the bottom row (GL's default framebuffer), not the top */
	/*
	 * EGL's swap interval: 1 waits until the compositor has shown the
	 * last frame before this one goes (wayland: its frame callback; x11:
	 * the screen's next refresh after the frame, through Present), 0
	 * never waits.  Targets without a compositor's pacing ignore it.
	 */
	unsigned swap_interval;
	/* wayland: wl_surface.attach's x and y, the move of the surface's top left at this frame */
	int32_t dx, dy;
};

/* What a target did with the frames so far (for logs and tests). */
struct agx_present_info {
	enum agx_present_backend backend;
	uint32_t fourcc;	/* the destination's format: the window's, or the file's */
	bool shm;		/* x11: MIT-SHM is in use (false: PutImage) */
	uint64_t frames;	/* presented */
	uint64_t shm_direct;	/* x11, wayland: shown straight from the frame's memfd */
	uint64_t shm_converted; /* x11, wayland: converted into the target's own shared memory */
	uint64_t put_image;	/* x11: sent in PutImage requests */
	uint64_t put_requests;	/* x11: PutImage requests (a frame larger than one takes more) */
	uint64_t refresh_waits; /* x11: frames followed by a wait for the next refresh */
	uint64_t msc;		/* x11: the screen's MSC (refresh count) the last wait ended at */
};

struct agx_present_target;

int agx_present_create(const struct agx_present_config *config, struct agx_present_target **out);
/* NULL is a no-op. */
void agx_present_destroy(struct agx_present_target *target);
/* Shows one frame (see the fence rule above). */
int agx_present_frame(struct agx_present_target *target, const struct agx_present_image *image);
void agx_present_get_info(const struct agx_present_target *target, struct agx_present_info *info);
/*
 * Whether the target (its compositor) still holds a frame from memfd fd:
 * 1 held, 0 not (never, for targets that copy at once), or a negative
 * errno.  wait: until it is let go of (0), or the connection fails.
 */
int agx_present_busy(struct agx_present_target *target, int fd, bool wait);
/* The caller frees memfd fd: the target lets go of everything it made of it. */
void agx_present_forget(struct agx_present_target *target, int fd);

/*
 * Whether frames may have this format: DRM_FORMAT_ABGR8888 (bytes R, G,
 * B, A: the GL RGBA8 colour buffer), XBGR8888, ARGB8888 (bytes B, G, R,
 * A), XRGB8888 and RGB565.
 */
bool agx_present_format_supported(uint32_t fourcc);

/*
 * x11: the visual of screen whose windows the x11 target shows frames in:
 * a TrueColor visual of depth 24 (XRGB8888), 32 (ARGB8888) or 16 (RGB565)
 * with those channel masks, pixels of 32 or 16 bits, and a server that
 * sends images least significant byte first.  0, or -ENOENT if the screen
 * has none.
 */
int agx_present_x11_find_visual(void *x11_connection, int screen, uint32_t fourcc, uint32_t *visual,
				uint8_t *depth);

/* x11: what a window is now. */
struct agx_present_x11_window {
	uint32_t width, height;
	uint32_t visual, root;
	uint8_t depth;
	uint32_t fourcc; /* the format its visual takes, 0 if the x11 target supports none */
};

/* 0, or -ENOENT if window is no window (or an InputOnly one), -EPIPE if the connection failed. */
int agx_present_x11_window_info(void *x11_connection, uint32_t window,
				struct agx_present_x11_window *info);

/* The calling thread's last failure in words ("" when none). */
const char *agx_present_error(void);

#endif
