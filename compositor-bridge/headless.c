/*
 * headless.c: the headless presentation target -- each frame becomes a
 * PNG file (libpng), numbered from 0: "<path>000000.png", then 000001...
 * Frames with alpha (ABGR8888, ARGB8888) are written as 8-bit RGBA, the
 * others as 8-bit RGB (RGB565 widened by repeating its top bits), top row
 * first whichever way the frame's rows run.
 */
#include <errno.h>
#include <limits.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <drm_fourcc.h>
#include <png.h>

#include "present_priv.h"

struct headless {
	struct agx_present_target base;
	char *path;
	unsigned next; /* the number of the next file */
};

static int headless_create(const struct agx_present_config *config, struct agx_present_target **out)
{
	struct headless *h;

	if (!config->path)
		return present_fail(-EINVAL, "a headless target needs a path");
	/* the path, six digits and ".png" must make a path */
	if (strlen(config->path) + 6 + 4 >= PATH_MAX)
		return present_fail(-ENAMETOOLONG, "the path %s is too long", config->path);
	h = calloc(1, sizeof(*h));
	if (!h || !(h->path = strdup(config->path))) {
		free(h);
		return present_fail(-ENOMEM, "out of memory");
	}
	h->base.info.fourcc = DRM_FORMAT_ABGR8888;
	*out = &h->base;
	return 0;
}

static void headless_destroy(struct agx_present_target *target)
{
	struct headless *h = (struct headless *)target;

	free(h->path);
	free(h);
}

static void png_error_fn(png_structp png, png_const_charp msg)
{
	present_fail(-EIO, "libpng: %s", msg);
	png_longjmp(png, 1);
}

static void png_warning_fn(png_structp png, png_const_charp msg)
{
	(void)png;
	(void)msg;
}

/* Writes rows (top first, stride bytes apart) as a PNG of color_type to file: 0 or -errno. */
static int write_png(const char *file, const uint8_t *rows, uint32_t width, uint32_t height,
		     uint64_t stride, int color_type)
{
	png_structp png;
	png_infop info;
	FILE *volatile fp;
	int ret;

	fp = fopen(file, "wb");
	if (!fp)
		return present_fail(-errno, "cannot create %s: %s", file, strerror(errno));
	png = png_create_write_struct(PNG_LIBPNG_VER_STRING, NULL, png_error_fn, png_warning_fn);
	info = png ? png_create_info_struct(png) : NULL;
	if (!info) {
		png_destroy_write_struct(&png, NULL);
		fclose(fp);
		return present_fail(-ENOMEM, "out of memory");
	}
	if (setjmp(png_jmpbuf(png))) {
		/* png_error_fn recorded why */
		png_destroy_write_struct(&png, &info);
		fclose(fp);
		remove(file);
		return -EIO;
	}
	png_init_io(png, fp);
	png_set_IHDR(png, info, width, height, 8, color_type, PNG_INTERLACE_NONE,
		     PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
	png_write_info(png, info);
	for (uint32_t y = 0; y < height; y++)
		png_write_row(png, rows + y * stride);
	png_write_end(png, info);
	png_destroy_write_struct(&png, &info);
	ret = fclose(fp) == 0 ? 0
			      : present_fail(-errno, "cannot write %s: %s", file, strerror(errno));
	if (ret < 0)
		remove(file);
	return ret;
}

/* The frame as 8-bit RGB or RGBA rows, top first, in the next file. */
static int headless_frame(struct agx_present_target *target, const struct agx_present_image *image,
			  const uint8_t *pixels)
{
	struct headless *h = (struct headless *)target;
	const struct present_format *rgba = present_format(DRM_FORMAT_ABGR8888);
	bool alpha = present_format(image->fourcc)->alpha;
	uint64_t stride = (uint64_t)image->width * 4;
	char file[PATH_MAX];
	uint8_t *rows;
	int ret;

	if (h->next > 999999)
		return present_fail(-ENOSPC, "a headless target numbers at most 1000000 frames");
	rows = malloc(stride * image->height);
	if (!rows)
		return present_fail(-ENOMEM, "out of memory for a %ux%u frame", image->width,
				    image->height);
	/* every format to bytes R, G, B, A first; RGB drops the A of each pixel in place */
	present_convert(image, pixels, rgba, rows, stride);
	if (!alpha) {
		for (uint32_t y = 0; y < image->height; y++) {
			uint8_t *row = rows + y * stride;

			for (uint32_t x = 0; x < image->width; x++)
				memmove(row + x * 3, row + x * 4, 3);
		}
	}
	snprintf(file, sizeof(file), "%s%06u.png", h->path, h->next);
	ret = write_png(file, rows, image->width, image->height, stride,
			alpha ? PNG_COLOR_TYPE_RGB_ALPHA : PNG_COLOR_TYPE_RGB);
	free(rows);
	if (ret == 0) {
		h->next++;
		h->base.info.fourcc = alpha ? DRM_FORMAT_ABGR8888 : DRM_FORMAT_XBGR8888;
	}
	return ret;
}

const struct agx_present_ops agx_present_headless_ops = {
	.name = "headless",
	.create = headless_create,
	.destroy = headless_destroy,
	.frame = headless_frame,
};
