/*
 * present_priv.h: what the backends of compositor-bridge share -- the ops
 * table each backend fills, the target every backend's object starts with,
 * the pixel formats and their conversion, and the error message.
 */
#ifndef AGX_PRESENT_PRIV_H
#define AGX_PRESENT_PRIV_H

#include <stdint.h>

#include "agx/present.h"

struct agx_present_ops {
	const char *name;
	/* *out is the backend's object, which begins with a struct agx_present_target */
	int (*create)(const struct agx_present_config *config, struct agx_present_target **out);
	void (*destroy)(struct agx_present_target *target);
	/* pixels: row 0 of the image at image->offset in the caller's (or our) mapping */
	int (*frame)(struct agx_present_target *target, const struct agx_present_image *image,
		     const uint8_t *pixels);
	/* NULL for targets that copy a frame at once: nothing is ever busy, nothing kept */
	int (*busy)(struct agx_present_target *target, int fd, bool wait);
	void (*forget)(struct agx_present_target *target, int fd);
};

extern const struct agx_present_ops agx_present_headless_ops;
extern const struct agx_present_ops agx_present_x11_ops;
extern const struct agx_present_ops agx_present_wayland_ops;

struct agx_present_target {
	const struct agx_present_ops *ops;
	struct agx_present_info info; /* the backend keeps the counters */
};

/* ---- formats (format.c) ---- */

struct present_format {
	uint32_t fourcc;
	unsigned bytes; /* per pixel */
	bool alpha;	/* has an alpha channel (not padding) */
	const char *name;
};

/* The format of fourcc, NULL if frames cannot have it. */
const struct present_format *present_format(uint32_t fourcc);

/*
 * Converts the image (its rows from pixels) to dst_format, top row first,
 * into dst with rows dst_stride bytes apart.  A pixel converted to another
 * format gets padding bytes 0xff, and alpha 0xff when the source has none;
 * rows of the same format are copied as they are.
 */
void present_convert(const struct agx_present_image *image, const uint8_t *pixels,
		     const struct present_format *dst_format, uint8_t *dst, uint64_t dst_stride);

/* ---- errors (present.c) ---- */

/* Records the calling thread's failure message (printf-style) and returns err. */
int present_fail(int err, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#endif
