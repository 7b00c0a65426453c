/*
 * present.c: the public side of compositor-bridge (agx/present.h): a
 * target's creation by its backend's ops table, the checks every frame
 * passes before a backend sees it (its format, and that every row it
 * names lies inside its memfd), the mapping of a frame the caller did not
 * map, and the calling thread's error message.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>

#include "present_priv.h"

static __thread char error_message[256];

int present_fail(int err, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(error_message, sizeof(error_message), fmt, ap);
	va_end(ap);
	return err;
}

const char *agx_present_error(void)
{
	return error_message;
}

static const struct agx_present_ops *backend_ops(enum agx_present_backend backend)
{
	switch (backend) {
	case AGX_PRESENT_HEADLESS:
		return &agx_present_headless_ops;
	case AGX_PRESENT_X11:
		return &agx_present_x11_ops;
	case AGX_PRESENT_WAYLAND:
		return &agx_present_wayland_ops;
	}
	return NULL;
}

int agx_present_create(const struct agx_present_config *config, struct agx_present_target **out)
{
	const struct agx_present_ops *ops = config ? backend_ops(config->backend) : NULL;
	int ret;

	*out = NULL;
	if (!ops)
		return present_fail(-EINVAL, "no such presentation backend");
	ret = ops->create(config, out);
	if (ret < 0)
		return ret;
	(*out)->ops = ops;
	(*out)->info.backend = config->backend;
	error_message[0] = '\0';
	return 0;
}

void agx_present_destroy(struct agx_present_target *target)
{
	if (target)
		target->ops->destroy(target);
}

/* The image's rows lie inside its memfd: 0 or -EINVAL. */
static int check_image(const struct agx_present_image *image)
{
	const struct present_format *f = present_format(image->fourcc);
	uint64_t row_bytes, end;

	if (!f)
		return present_fail(-EINVAL, "frames cannot have the format %.4s",
				    (const char *)&image->fourcc);
	if (!image->width || !image->height)
		return present_fail(-EINVAL, "an empty frame (%ux%u)", image->width, image->height);
	row_bytes = (uint64_t)image->width * f->bytes;
	if (image->stride < row_bytes)
		return present_fail(-EINVAL, "a stride of %u bytes for rows of %llu", image->stride,
				    (unsigned long long)row_bytes);
	/* the last row ends at offset + (height - 1) * stride + row_bytes: no overflow in 64 bits
	 */
	end = (uint64_t)(image->height - 1) * image->stride + row_bytes;
	if (image->offset > image->size || end > image->size - image->offset)
		return present_fail(-EINVAL, "a %ux%u frame at offset %llu overruns its %llu bytes",
				    image->width, image->height, (unsigned long long)image->offset,
				    (unsigned long long)image->size);
	return 0;
}

int agx_present_frame(struct agx_present_target *target, const struct agx_present_image *image)
{
	const uint8_t *map = image->map;
	void *ours = NULL;
	int ret;

	if ((ret = check_image(image)) < 0)
		return ret;
	if (!map) {
		ours = mmap(NULL, image->size, PROT_READ, MAP_SHARED, image->fd, 0);
		if (ours == MAP_FAILED)
			return present_fail(-errno, "cannot map the frame's memory: %s",
					    strerror(errno));
		map = ours;
	}
	ret = target->ops->frame(target, image, map + image->offset);
	if (ours)
		munmap(ours, image->size);
	if (ret == 0) {
		target->info.frames++;
		error_message[0] = '\0';
	}
	return ret;
}

void agx_present_get_info(const struct agx_present_target *target, struct agx_present_info *info)
{
	*info = target->info;
}

int agx_present_busy(struct agx_present_target *target, int fd, bool wait)
{
	return target->ops->busy ? target->ops->busy(target, fd, wait) : 0;
}

void agx_present_forget(struct agx_present_target *target, int fd)
{
	if (target->ops->forget)
		target->ops->forget(target, fd);
}
