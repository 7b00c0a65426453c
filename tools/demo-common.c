/*
 * demo-common.c: the demos' PNG output and metrics (demo-common.h).
 */
#include <errno.h>
#include <limits.h>
#include <png.h>
#include <stdio.h>
#include <stdlib.h>

#include "demo-common.h"
#include "promtext.h"
#include "top.h"

int write_png(const char *path, const uint32_t *pixels, unsigned width, unsigned height)
{
	FILE *f = fopen(path, "wb");
	png_structp png;
	png_infop info;

	if (!f)
		return -errno;
	png = png_create_write_struct(PNG_LIBPNG_VER_STRING, NULL, NULL, NULL);
	info = png ? png_create_info_struct(png) : NULL;
	if (!info || setjmp(png_jmpbuf(png))) {
		png_destroy_write_struct(&png, &info);
		fclose(f);
		return -EIO;
	}
	png_init_io(png, f);
	png_set_IHDR(png, info, width, height, 8, PNG_COLOR_TYPE_RGBA, PNG_INTERLACE_NONE,
		     PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
	png_write_info(png, info);
	/* each pixel is R, G, B, A bytes in memory order: what PNG's RGBA rows are */
	for (unsigned y = 0; y < height; y++)
		png_write_row(png, (png_const_bytep)(pixels + (size_t)y * width));
	png_write_end(png, NULL);
	png_destroy_write_struct(&png, &info);
	return fclose(f) ? -errno : 0;
}

void print_metrics(void)
{
	const char *dir = getenv("AGX_RUNTIME_DIR");
	char address[PATH_MAX + 16], err[256];
	struct promtext doc;
	struct promtext_error perr;
	char *body = NULL, *frame;
	size_t size = 0;

	if (!dir) {
		printf("(no AGX_RUNTIME_DIR: the scheduler's metrics are not shown)\n");
		return;
	}
	snprintf(address, sizeof(address), "unix:%s/metrics.sock", dir);
	if (top_scrape(address, 2000, &body, &size, err, sizeof(err)) < 0) {
		printf("(the scheduler's metrics: %s)\n", err);
		return;
	}
	if (promtext_parse(body, size, &doc, &perr) == 0) {
		frame = top_render(NULL, &doc, 0, 8);
		if (frame)
			printf("\nthe scheduler's metrics (agx top):\n%s", frame);
		free(frame);
		promtext_finish(&doc);
	}
	free(body);
}
