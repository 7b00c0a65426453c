/*
 * wayland.c: the Wayland presentation target (libwayland-client).  A frame
 * reaches the surface as a wl_shm buffer: straight from the frame's memfd
 * (a wl_shm_pool of the memfd itself, no copy) when the compositor lists
 * the frame's format and the surface can be given a buffer transform for
 * a bottom-up frame; otherwise converted into one of the target's own
 * memfds.  A buffer the compositor holds is never written: the target
 * tracks wl_buffer.release, and agx_present_busy tells the caller which
 * of its memfds are still held.  With a swap interval of 1 each commit
 * asks for a frame callback and the next frame waits for it.
 *
 * Everything the target says goes through a proxy wrapper on its own
 * event queue, so that the application's queue (and its thread) never
 * dispatches our events, and ours never dispatches the application's.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <drm_fourcc.h>
#include <wayland-client.h>

#include "present_priv.h"

/* Buffers of the frames' memfds at once: the caller's colour buffers (gles: up to 4). */
#define DIRECT_BUFFERS 6
/* The target's own buffers for converted frames, each held until released. */
#define STAGING_BUFFERS 4

struct buffer {
	struct wl_buffer *buffer; /* NULL: the slot is free */
	struct wl_shm_pool *pool;
	int fd; /* direct: our duplicate, so that the inode stays the memfd's */
	dev_t dev;
	ino_t ino;
	uint64_t offset;
	uint32_t width, height, stride, format; /* format: the wl_shm one */
	bool busy;				/* attached, and not released yet */
	/* staging: our mapping of the memfd */
	uint8_t *map;
	uint64_t size;
};

struct wayland {
	struct agx_present_target base;
	struct wl_display *display;
	struct wl_event_queue *queue;
	struct wl_display *display_wrapper;
	struct wl_surface *surface; /* a wrapper of the caller's, on our queue */
	struct wl_registry *registry;
	struct wl_shm *shm;
	/* the wl_shm formats the compositor listed, as DRM fourccs */
	uint32_t formats[64];
	unsigned num_formats;
	bool transform; /* the surface takes wl_surface.set_buffer_transform (version 2) */
	int32_t current_transform;
	struct wl_callback *frame; /* the last commit's frame callback, until done */
	struct buffer direct[DIRECT_BUFFERS];
	struct buffer staging[STAGING_BUFFERS];
	uint64_t clock;
	uint64_t last_use[DIRECT_BUFFERS];
};

/* ---- formats -------------------------------------------------------------------------------- */

/*
 * wl_shm's format enum is DRM's fourcc codes, but for the two formats
 * every compositor has, which are 0 and 1 (wayland.xml, wl_shm.format).
 */
static uint32_t shm_format(uint32_t fourcc)
{
	return fourcc == DRM_FORMAT_ARGB8888   ? WL_SHM_FORMAT_ARGB8888
	       : fourcc == DRM_FORMAT_XRGB8888 ? WL_SHM_FORMAT_XRGB8888
					       : fourcc;
}

static uint32_t shm_fourcc(uint32_t format)
{
	return format == WL_SHM_FORMAT_ARGB8888	  ? DRM_FORMAT_ARGB8888
	       : format == WL_SHM_FORMAT_XRGB8888 ? DRM_FORMAT_XRGB8888
						  : format;
}

static bool listed(const struct wayland *w, uint32_t fourcc)
{
	for (unsigned i = 0; i < w->num_formats; i++)
		if (w->formats[i] == fourcc)
			return true;
	return false;
}

static void shm_handle_format(void *data, struct wl_shm *shm, uint32_t format)
{
	struct wayland *w = data;

	(void)shm;
	if (w->num_formats < sizeof(w->formats) / sizeof(w->formats[0]))
		w->formats[w->num_formats++] = shm_fourcc(format);
}

static const struct wl_shm_listener shm_listener = { .format = shm_handle_format };

static void registry_global(void *data, struct wl_registry *registry, uint32_t name,
			    const char *interface, uint32_t version)
{
	struct wayland *w = data;

	(void)version;
	if (strcmp(interface, wl_shm_interface.name) != 0 || w->shm)
		return;
	w->shm = wl_registry_bind(registry, name, &wl_shm_interface, 1);
	if (w->shm)
		wl_shm_add_listener(w->shm, &shm_listener, w);
}

static void registry_global_remove(void *data, struct wl_registry *registry, uint32_t name)
{
	(void)data;
	(void)registry;
	(void)name;
}

static const struct wl_registry_listener registry_listener = {
	.global = registry_global,
	.global_remove = registry_global_remove,
};

/* ---- events --------------------------------------------------------------------------------- */

static int connection_error(struct wayland *w)
{
	int err = wl_display_get_error(w->display);

	return present_fail(-EPIPE, "the Wayland connection has failed (%s)",
			    strerror(err ? err : EPIPE));
}

/* Dispatches what the compositor has sent us without waiting: 0 or -EPIPE. */
static int poll_events(struct wayland *w)
{
	struct pollfd pfd = { .fd = wl_display_get_fd(w->display), .events = POLLIN };

	while (wl_display_prepare_read_queue(w->display, w->queue) != 0)
		if (wl_display_dispatch_queue_pending(w->display, w->queue) < 0)
			return connection_error(w);
	wl_display_flush(w->display);
	if (poll(&pfd, 1, 0) > 0) {
		if (wl_display_read_events(w->display) < 0)
			return connection_error(w);
	} else {
		wl_display_cancel_read(w->display);
	}
	if (wl_display_dispatch_queue_pending(w->display, w->queue) < 0)
		return connection_error(w);
	return 0;
}

/* Waits for one batch of our events: 0 or -EPIPE. */
static int wait_events(struct wayland *w)
{
	if (wl_display_dispatch_queue(w->display, w->queue) < 0)
		return connection_error(w);
	return 0;
}

static void buffer_release(void *data, struct wl_buffer *buffer)
{
	struct buffer *b = data;

	(void)buffer;
	b->busy = false;
}

static const struct wl_buffer_listener buffer_listener = { .release = buffer_release };

static void frame_done(void *data, struct wl_callback *callback, uint32_t time)
{
	struct wayland *w = data;

	(void)time;
	wl_callback_destroy(callback);
	if (w->frame == callback)
		w->frame = NULL;
}

static const struct wl_callback_listener frame_listener = { .done = frame_done };

/* ---- buffers -------------------------------------------------------------------------------- */

/*
 * Lets go of a buffer.  One the compositor still holds may go: wl_surface
 * keeps showing it as long as its storage is not reused (wayland.xml,
 * wl_surface.attach), and the caller frees it rather than reusing it.
 */
static void release_buffer(struct buffer *b)
{
	if (b->buffer)
		wl_buffer_destroy(b->buffer);
	if (b->pool)
		wl_shm_pool_destroy(b->pool);
	if (b->map)
		munmap(b->map, b->size);
	if (b->fd >= 0)
		close(b->fd);
	*b = (struct buffer){ .fd = -1 };
}

/* A wl_buffer of the rows of fd: 0 or -errno. */
static int make_buffer(struct wayland *w, struct buffer *b, int fd, uint64_t pool_size,
		       uint64_t offset, uint32_t width, uint32_t height, uint32_t stride,
		       uint32_t format)
{
	/* wl_shm_pool's size and offsets are 32-bit */
	if (pool_size > INT32_MAX || offset > INT32_MAX || stride > INT32_MAX)
		return present_fail(-E2BIG, "a frame of %llu bytes is more than wl_shm takes",
				    (unsigned long long)pool_size);
	if (!b->pool) {
		b->pool = wl_shm_create_pool(w->shm, fd, (int32_t)pool_size);
		if (!b->pool)
			return present_fail(-ENOMEM, "cannot make a wl_shm_pool");
	}
	b->buffer = wl_shm_pool_create_buffer(b->pool, (int32_t)offset, (int32_t)width,
					      (int32_t)height, (int32_t)stride, format);
	if (!b->buffer)
		return present_fail(-ENOMEM, "cannot make a wl_buffer");
	wl_buffer_add_listener(b->buffer, &buffer_listener, b);
	b->offset = offset;
	b->width = width;
	b->height = height;
	b->stride = stride;
	b->format = format;
	b->busy = false;
	return 0;
}

/* The direct buffer of fd's inode, NULL if none. */
static struct buffer *find_direct(struct wayland *w, int fd, unsigned *index)
{
	struct stat st;

	if (fstat(fd, &st) < 0)
		return NULL;
	for (unsigned i = 0; i < DIRECT_BUFFERS; i++) {
		if (w->direct[i].fd >= 0 && w->direct[i].dev == st.st_dev &&
		    w->direct[i].ino == st.st_ino) {
			if (index)
				*index = i;
			return &w->direct[i];
		}
	}
	return NULL;
}

/* Waits until the compositor has let go of b: 0 or -EPIPE. */
static int wait_released(struct wayland *w, struct buffer *b)
{
	int ret = 0;

	while (b->busy && ret == 0)
		ret = wait_events(w);
	return ret;
}

/* The direct buffer of the frame, made if need be: NULL (error recorded) on failure. */
static struct buffer *direct_buffer(struct wayland *w, const struct agx_present_image *image)
{
	uint32_t format = shm_format(image->fourcc);
	unsigned i = 0;
	struct buffer *b = find_direct(w, image->fd, &i);
	struct stat st;

	if (b &&
	    (b->offset != image->offset || b->width != image->width || b->height != image->height ||
	     b->stride != image->stride || b->format != format)) {
		/* the same memory laid out anew: a new wl_buffer of the pool */
		if (wait_released(w, b) < 0)
			return NULL;
		wl_buffer_destroy(b->buffer);
		b->buffer = NULL;
		if (make_buffer(w, b, b->fd, image->size, image->offset, image->width,
				image->height, image->stride, format) < 0)
			return NULL;
	}
	if (!b) {
		/* a free slot, or the least recently used one that is released */
		for (unsigned j = 0; j < DIRECT_BUFFERS; j++) {
			if (w->direct[j].fd < 0) {
				i = j;
				break;
			}
			if (w->last_use[j] < w->last_use[i])
				i = j;
		}
		b = &w->direct[i];
		if (b->fd >= 0 && wait_released(w, b) < 0)
			return NULL;
		release_buffer(b);
		if (fstat(image->fd, &st) < 0) {
			present_fail(-errno, "cannot stat a frame's memfd: %s", strerror(errno));
			return NULL;
		}
		b->fd = fcntl(image->fd, F_DUPFD_CLOEXEC, 0);
		if (b->fd < 0) {
			present_fail(-errno, "cannot duplicate a memfd: %s", strerror(errno));
			return NULL;
		}
		b->dev = st.st_dev;
		b->ino = st.st_ino;
		if (make_buffer(w, b, b->fd, image->size, image->offset, image->width,
				image->height, image->stride, format) < 0) {
			release_buffer(b);
			return NULL;
		}
	}
	w->last_use[i] = ++w->clock;
	return b;
}

/* A released staging buffer of size bytes (made, or waited for): NULL (error recorded). */
static struct buffer *staging_buffer(struct wayland *w, uint64_t size)
{
	struct buffer *b = NULL;
	int fd;

	for (;;) {
		for (unsigned i = 0; i < STAGING_BUFFERS && !b; i++)
			if (!w->staging[i].buffer || !w->staging[i].busy)
				b = &w->staging[i];
		if (b)
			break;
		if (wait_events(w) < 0)
			return NULL;
	}
	if (b->buffer && b->size >= size)
		return b;
	release_buffer(b);
	fd = memfd_create("agx-present-wayland", MFD_CLOEXEC);
	if (fd < 0) {
		present_fail(-errno, "memfd_create: %s", strerror(errno));
		return NULL;
	}
	if (ftruncate(fd, (off_t)size) < 0) {
		present_fail(-errno, "cannot size a %llu-byte memfd: %s", (unsigned long long)size,
			     strerror(errno));
		close(fd);
		return NULL;
	}
	b->map = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (b->map == MAP_FAILED) {
		b->map = NULL;
		present_fail(-errno, "cannot map a %llu-byte memfd: %s", (unsigned long long)size,
			     strerror(errno));
		close(fd);
		return NULL;
	}
	b->size = size;
	b->fd = fd;
	return b;
}

/* ---- the target ----------------------------------------------------------------------------- */

static void wayland_destroy(struct agx_present_target *target)
{
	struct wayland *w = (struct wayland *)target;

	for (unsigned i = 0; i < DIRECT_BUFFERS; i++)
		release_buffer(&w->direct[i]);
	for (unsigned i = 0; i < STAGING_BUFFERS; i++)
		release_buffer(&w->staging[i]);
	if (w->frame)
		wl_callback_destroy(w->frame);
	if (w->shm)
		wl_shm_destroy(w->shm);
	if (w->registry)
		wl_registry_destroy(w->registry);
	if (w->surface)
		wl_proxy_wrapper_destroy(w->surface);
	if (w->display_wrapper)
		wl_proxy_wrapper_destroy(w->display_wrapper);
	if (w->display)
		wl_display_flush(w->display);
	if (w->queue)
		wl_event_queue_destroy(w->queue);
	free(w);
}

static int wayland_create(const struct agx_present_config *config, struct agx_present_target **out)
{
	struct wayland *w;
	int ret;

	if (!config->wl_display || !config->wl_surface)
		return present_fail(-EINVAL, "a wayland target needs a display and a surface");
	if (strcmp(wl_proxy_get_class(config->wl_surface), wl_surface_interface.name) != 0)
		return present_fail(-ENOENT, "a %s is no wl_surface",
				    wl_proxy_get_class(config->wl_surface));
	w = calloc(1, sizeof(*w));
	if (!w)
		return present_fail(-ENOMEM, "out of memory");
	for (unsigned i = 0; i < DIRECT_BUFFERS; i++)
		w->direct[i].fd = -1;
	for (unsigned i = 0; i < STAGING_BUFFERS; i++)
		w->staging[i].fd = -1;
	w->display = config->wl_display;
	w->queue = wl_display_create_queue(w->display);
	w->display_wrapper = w->queue ? wl_proxy_create_wrapper(w->display) : NULL;
	w->surface = w->queue ? wl_proxy_create_wrapper(config->wl_surface) : NULL;
	if (!w->display_wrapper || !w->surface) {
		wayland_destroy(&w->base);
		return present_fail(-ENOMEM, "out of memory");
	}
	wl_proxy_set_queue((struct wl_proxy *)w->display_wrapper, w->queue);
	wl_proxy_set_queue((struct wl_proxy *)w->surface, w->queue);
	w->registry = wl_display_get_registry(w->display_wrapper);
	if (!w->registry) {
		wayland_destroy(&w->base);
		return present_fail(-ENOMEM, "out of memory");
	}
	wl_registry_add_listener(w->registry, &registry_listener, w);
	/* the globals, then wl_shm's formats, which it sends when bound */
	if (wl_display_roundtrip_queue(w->display, w->queue) < 0 ||
	    (w->shm && wl_display_roundtrip_queue(w->display, w->queue) < 0)) {
		ret = connection_error(w);
		wayland_destroy(&w->base);
		return ret;
	}
	if (!w->shm) {
		wayland_destroy(&w->base);
		return present_fail(-ENOTSUP, "the compositor has no wl_shm");
	}
	w->transform = wl_proxy_get_version((struct wl_proxy *)w->surface) >=
		       WL_SURFACE_SET_BUFFER_TRANSFORM_SINCE_VERSION;
	w->current_transform = WL_OUTPUT_TRANSFORM_NORMAL;
	w->base.info.fourcc = DRM_FORMAT_ABGR8888;
	*out = &w->base;
	return 0;
}

/* Whether the frame can go from its memfd as it is. */
static bool direct_ok(const struct wayland *w, const struct agx_present_image *image)
{
	const struct present_format *f = present_format(image->fourcc);

	return listed(w, image->fourcc) && (!image->bottom_up || w->transform) &&
	       image->stride % f->bytes == 0;
}

static int wayland_frame(struct agx_present_target *target, const struct agx_present_image *image,
			 const uint8_t *pixels)
{
	struct wayland *w = (struct wayland *)target;
	int32_t transform = WL_OUTPUT_TRANSFORM_NORMAL;
	struct buffer *b;
	int ret;

	if ((ret = poll_events(w)) < 0)
		return ret;
	/* swap interval 1: the last frame is on the screen before this one goes */
	while (image->swap_interval && w->frame)
		if ((ret = wait_events(w)) < 0)
			return ret;
	if (direct_ok(w, image)) {
		if (!(b = direct_buffer(w, image)))
			return wl_display_get_error(w->display) ? -EPIPE : -ENOMEM;
		/* the caller renders into a buffer it is told is busy only by mistake: wait */
		if ((ret = wait_released(w, b)) < 0)
			return ret;
		/*
		 * Row 0 at the bottom: FLIPPED_180 (a flip about the vertical axis,
		 * then half a turn) is the flip about the horizontal one, so the
		 * compositor shows the rows the right way up (wayland.xml,
		 * wl_output.transform).
		 */
		if (image->bottom_up)
			transform = WL_OUTPUT_TRANSFORM_FLIPPED_180;
		w->base.info.fourcc = image->fourcc;
		w->base.info.shm_direct++;
	} else {
		const struct present_format *f =
		    present_format(present_format(image->fourcc)->alpha ? DRM_FORMAT_ARGB8888
									: DRM_FORMAT_XRGB8888);
		uint64_t stride = (uint64_t)image->width * f->bytes;

		if (!(b = staging_buffer(w, stride * image->height)))
			return wl_display_get_error(w->display) ? -EPIPE : -ENOMEM;
		/* the conversion puts the top row first */
		present_convert(image, pixels, f, b->map, stride);
		if (!b->buffer && make_buffer(w, b, b->fd, b->size, 0, image->width, image->height,
					      (uint32_t)stride, shm_format(f->fourcc)) < 0)
			return -ENOMEM;
		if (b->width != image->width || b->height != image->height) {
			wl_buffer_destroy(b->buffer);
			b->buffer = NULL;
			if (make_buffer(w, b, b->fd, b->size, 0, image->width, image->height,
					(uint32_t)stride, shm_format(f->fourcc)) < 0)
				return -ENOMEM;
		}
		w->base.info.fourcc = f->fourcc;
		w->base.info.shm_converted++;
	}
	if (w->transform && transform != w->current_transform) {
		wl_surface_set_buffer_transform(w->surface, transform);
		w->current_transform = transform;
	}
	/* version 5 moves the surface by wl_surface.offset; its attach must say 0, 0 */
	if (wl_proxy_get_version((struct wl_proxy *)w->surface) >=
	    WL_SURFACE_OFFSET_SINCE_VERSION) {
		if (image->dx || image->dy)
			wl_surface_offset(w->surface, image->dx, image->dy);
		wl_surface_attach(w->surface, b->buffer, 0, 0);
	} else {
		wl_surface_attach(w->surface, b->buffer, image->dx, image->dy);
	}
	if (wl_proxy_get_version((struct wl_proxy *)w->surface) >=
	    WL_SURFACE_DAMAGE_BUFFER_SINCE_VERSION)
		wl_surface_damage_buffer(w->surface, 0, 0, INT32_MAX, INT32_MAX);
	else
		wl_surface_damage(w->surface, 0, 0, INT32_MAX, INT32_MAX);
	if (image->swap_interval) {
		if (w->frame)
			wl_callback_destroy(w->frame);
		w->frame = wl_surface_frame(w->surface);
		if (w->frame)
			wl_callback_add_listener(w->frame, &frame_listener, w);
	}
	b->busy = true;
	wl_surface_commit(w->surface);
	if (wl_display_flush(w->display) < 0 && errno != EAGAIN)
		return connection_error(w);
	return 0;
}

static int wayland_busy(struct agx_present_target *target, int fd, bool wait)
{
	struct wayland *w = (struct wayland *)target;
	struct buffer *b;
	int ret;

	if ((ret = poll_events(w)) < 0)
		return ret;
	b = find_direct(w, fd, NULL);
	if (!b)
		return 0;
	if (wait && (ret = wait_released(w, b)) < 0)
		return ret;
	return b->busy;
}

static void wayland_forget(struct agx_present_target *target, int fd)
{
	struct wayland *w = (struct wayland *)target;
	struct buffer *b = find_direct(w, fd, NULL);

	if (b)
		release_buffer(b);
}

const struct agx_present_ops agx_present_wayland_ops = {
	.name = "wayland",
	.create = wayland_create,
	.destroy = wayland_destroy,
	.frame = wayland_frame,
	.busy = wayland_busy,
	.forget = wayland_forget,
};
