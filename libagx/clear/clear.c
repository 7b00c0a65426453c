/*
 * clear.c: GPU clears of image rectangles (agx/clear.h).  The kernel
 * (clear.comp) takes the rectangle, the value and mask, the image's shape
 * and how its invocations map onto words; this file works those out from
 * the layout and launches one invocation per word of the rows (linear) or
 * tiles (twiddled) the rectangle touches.
 */
#include <errno.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "agx/clear.h"
#include "agx/compiler.h"
#include "clear_shader.h"

/* The kernel's uniforms, by name, and the registers the compiler gave them. */
enum { U_RECT, U_VALUE, U_MASK, U_SHAPE, U_WALK, U_IMAGE, U_COUNT };
static const char *const uniform_names[U_COUNT] = { "rect",  "value", "mask",
						    "shape", "walk",  "Image" };

static struct {
	pthread_once_t once;
	int error;
	struct agx_shader_binary binary;
	int uniform[U_COUNT];
} kernel = { .once = PTHREAD_ONCE_INIT };

static void compile_kernel(void)
{
	struct agx_shader_binary *b = &kernel.binary;

	kernel.error =
	    agx_compile_glsl(AGX_SHADER_COMPUTE, clear_shader, strlen(clear_shader), NULL, b);
	if (kernel.error < 0) {
		fprintf(stderr, "libagx: the clear kernel does not compile: %s\n",
			b->log ? b->log : strerror(-kernel.error));
		return;
	}
	for (unsigned u = 0; u < U_COUNT; u++) {
		kernel.uniform[u] = -1;
		for (unsigned i = 0; i < b->info.num_vars; i++)
			if (!strcmp(b->info.vars[i].name, uniform_names[u]))
				kernel.uniform[u] = b->info.vars[i].uniform;
		if (kernel.uniform[u] < 0 || kernel.uniform[u] + 4 > AGX_CMDBUF_MAX_UNIFORMS) {
			fprintf(stderr, "libagx: the clear kernel has no registers for %s\n",
				uniform_names[u]);
			kernel.error = -EINVAL;
		}
	}
}

int agx_clear_init(struct agx_clear *clear, struct agx_device *dev, struct agx_device_vm *vm)
{
	const struct agx_device_info *info = agx_device_info(dev);
	uint64_t page = info->page_size;
	int ret;

	memset(clear, 0, sizeof(*clear));
	clear->code.fd = -1;
	pthread_once(&kernel.once, compile_kernel);
	if (kernel.error < 0)
		return kernel.error;
	ret = agx_device_bo_create(dev, (kernel.binary.size + page - 1) / page * page, 0,
				   &clear->code);
	if (ret < 0)
		return ret;
	memcpy(clear->code.map, kernel.binary.code, kernel.binary.size);
	ret = agx_device_vm_map(dev, vm, &clear->code,
				AGX_BIND_READ | AGX_BIND_EXECUTE | AGX_MAP_USC, &clear->code_va);
	if (ret < 0) {
		agx_device_bo_close(dev, &clear->code);
		memset(clear, 0, sizeof(*clear));
		return ret;
	}
	clear->dev = dev;
	clear->vm = vm;
	return 0;
}

void agx_clear_finish(struct agx_clear *clear)
{
	if (!clear->dev)
		return;
	agx_device_vm_unmap(clear->dev, clear->vm, clear->code_va);
	agx_device_bo_close(clear->dev, &clear->code);
	memset(clear, 0, sizeof(*clear));
}

static unsigned log2_u(unsigned x)
{
	unsigned l = 0;

	while (x >> (l + 1))
		l++;
	return l;
}

static unsigned div_up(uint64_t a, uint64_t b)
{
	return (unsigned)((a + b - 1) / b);
}

/* bytes (1, 2, 4, 8, 16) of a texel as four words, narrow texels repeated to fill the first. */
static void texel_words(const uint8_t *bytes, unsigned bpp, uint32_t words[4])
{
	uint8_t filled[16];

	for (unsigned i = 0; i < 16; i++)
		filled[i] = bytes ? bytes[i % bpp] : 0xff;
	memcpy(words, filled, 16);
}

static void set4(struct agx_dispatch *d, unsigned which, const uint32_t v[4])
{
	memcpy(&d->uniforms[kernel.uniform[which]], v, 16);
}

int agx_clear_record(const struct agx_clear *clear, struct agx_cmdbuf *cb,
		     const struct agx_clear_image *img, const struct agx_clear_rect *rect,
		     const uint8_t *value, const uint8_t *mask)
{
	const struct agx_layout *l = img->layout;
	const struct agx_shader_info *info = &kernel.binary.info;
	unsigned bpp = l->bytes_per_texel, w, h, x0, y0, x1, y1;
	uint32_t rect_u[4], shape[4], walk[4], words[4];
	uint64_t base;
	struct agx_dispatch d = { 0 };
	int ret;

	if (cb->error)
		return cb->error;
	if (!clear->dev || img->level >= l->levels || l->block_w > 1 || l->block_h > 1 ||
	    (bpp != 1 && bpp != 2 && bpp != 4 && bpp != 8 && bpp != 16))
		return -EINVAL;
	w = agx_layout_minify(l->width, img->level);
	h = agx_layout_minify(l->height, img->level);
	x0 = rect->x < w ? rect->x : w;
	y0 = rect->y < h ? rect->y : h;
	x1 = rect->width < w - x0 ? x0 + rect->width : w;
	y1 = rect->height < h - y0 ? y0 + rect->height : h;
	if (x0 == x1 || y0 == y1)
		return 0;

	base = img->va + img->layer * l->layer_stride + l->level_offset[img->level];
	if (base % 4)
		return -EINVAL;
	shape[0] = log2_u(bpp);
	shape[1] = l->twiddled;
	if (!l->twiddled) {
		unsigned first = x0 * bpp / 4, last = div_up((uint64_t)x1 * bpp, 4);

		if (l->stride % 4 || l->stride % bpp || l->stride / 4 > UINT32_MAX)
			return -EINVAL;
		shape[2] = (uint32_t)(l->stride / bpp);
		shape[3] = 0;
		walk[0] = (uint32_t)(y0 * (l->stride / 4) + first);
		walk[1] = (uint32_t)(l->stride / 4);
		walk[2] = 0;
		walk[3] = last - first;
		d.threadgroups[1] = y1 - y0;
		d.threadgroups[2] = 1;
	} else {
		unsigned tw = l->tile_w[img->level], th = l->tile_h[img->level];
		unsigned per_row = div_up(l->stride_el[img->level], tw);
		uint64_t tile_bytes = (uint64_t)tw * th * bpp;

		shape[2] = per_row;
		shape[3] = log2_u(tw) | log2_u(th) << 8;
		if (tile_bytes >= 4) {
			/* the tiles the rectangle touches, a word of a tile per invocation */
			unsigned tile_words = (unsigned)(tile_bytes / 4);
			unsigned tx0 = x0 / tw, ty0 = y0 / th;

			walk[0] = (ty0 * per_row + tx0) * tile_words;
			walk[1] = tile_words;
			walk[2] = per_row * tile_words;
			walk[3] = tile_words;
			d.threadgroups[1] = div_up(x1, tw) - tx0;
			d.threadgroups[2] = div_up(y1, th) - ty0;
		} else {
			/* tiles narrower than a word (the last levels): the whole level at once */
			walk[0] = 0;
			walk[1] = walk[2] = 0;
			walk[3] = div_up(tile_bytes * per_row * div_up(h, th), 4);
			d.threadgroups[1] = d.threadgroups[2] = 1;
		}
	}
	rect_u[0] = x0, rect_u[1] = y0, rect_u[2] = x1, rect_u[3] = y1;

	d.code_va = clear->code_va;
	d.num_registers = info->num_registers;
	d.shared_size = info->shared_size;
	d.scratch_size = info->scratch_size;
	for (unsigned i = 0; i < 3; i++)
		d.local_size[i] = info->local_size[i] ? info->local_size[i] : 1;
	d.threadgroups[0] = div_up(walk[3], d.local_size[0]);
	set4(&d, U_RECT, rect_u);
	texel_words(value, bpp, words);
	set4(&d, U_VALUE, words);
	texel_words(mask, bpp, words);
	set4(&d, U_MASK, words);
	set4(&d, U_SHAPE, shape);
	set4(&d, U_WALK, walk);
	d.num_uniforms = info->num_uniforms;
	agx_dispatch_set_address(&d, (unsigned)kernel.uniform[U_IMAGE], base);
	if (d.num_uniforms < info->num_uniforms)
		d.num_uniforms = info->num_uniforms;
	ret = agx_cmdbuf_dispatch(cb, &d);
	if (ret < 0)
		return ret;
	return agx_cmdbuf_barrier(cb, false);
}
