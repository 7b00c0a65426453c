/*
 * test-render: render work on the simulated GPU, as a driver submits it.
 * Starts the real agx-sim, boots its firmware and submits render items
 * whose VDM streams, PPP state, coefficient bindings and tile programs are
 * real words (libagx/hw/cmdbuf.hw) and whose shaders are real G13 code:
 * a vertex shader that fetches its vertices, a fragment shader that
 * interpolates colours into the tile, a clear and a block store through a
 * PBE.  Each image is checked pixel by pixel against a reference
 * rasterizer written here from the rules in docs/control-streams.md (pixel
 * centres, the top-left rule, perspective-correct interpolation).
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "agx_cmdbuf.h"
#include "agx_fwabi.h"
#include "agx_uat.h"
#include "fixture.h"
#include "host/fwhost.h"
#include "agx/layout.h"
#include "host/scene.h"

#define PT_OFFSET 0x40000u
#define PT_SIZE	  0x80000u
#define FW_OFFSET 0xc0000u
#define FW_PAGES  64u
#define PAGE	  0x4000u
#define CODE_RAM  0x200000u /* the scene's code arena (usc_base) */
#define DATA_RAM  (CODE_RAM + PAGE)
#define DATA_SIZE (4 * PAGE)
#define FB_RAM	  (DATA_RAM + DATA_SIZE)
#define FB_SIZE	  (4 * PAGE)
#define TVB_RAM	  (FB_RAM + FB_SIZE)
#define TVB_SIZE  (8 * PAGE)
#define Z_RAM	  (TVB_RAM + TVB_SIZE)
#define Z_SIZE	  (4 * PAGE)
#define S_RAM	  (Z_RAM + Z_SIZE)
#define S_SIZE	  (2 * PAGE)
#define Z_VA	  0x38000000ull
#define S_VA	  0x3c000000ull
#define CODE_VA	  0x10000000ull
#define DATA_VA	  0x10010000ull
#define FB_VA	  0x20000000ull
#define TVB_VA	  0x30000000ull
#define CTX	  1
#define CLEAR	  SIM_SCENE_CLEAR

struct gfx {
	struct fixture *f;
	struct sim_fwhost fh;
	struct sim_fwqueue q;
	struct sim_scene sc;
	const uint64_t *queries; /* the last render's occlusion counters */
	uint8_t *fb;
	uint32_t slot;
};

struct vertex {
	float clip[4];
	float colour[4];
};

/* The scene a render draws, and how. */
struct scene {
	unsigned width, height, tile_w, tile_h;
	const struct vertex *v;
	unsigned num_vertices;
	unsigned primitive;
	const uint16_t *indices; /* NULL: not indexed */
	unsigned count;
	bool restart, flat, cull_back, front_ccw;
	uint32_t tvb_size;
	uint32_t fs;		  /* a fragment pipeline instead of the scene's colour one */
	const struct scene *then; /* a second draw in the same render (its size is this one's) */
	/* the draw's depth and stencil state (depth_func 0: always) */
	unsigned depth_func;
	bool depth_write, stencil;
	uint8_t stencil_ref;
	unsigned stencil_compare, stencil_fail, depth_fail, depth_pass;
	float line_width, point_size;
	bool point_coord; /* the colour is (s, t, 0, 1) of the point */
	bool depth_bias;  /* the render's depth bias entry 0: a constant of bias units */
	float bias;
	unsigned visibility, query; /* occlusion counting into counter query */
	float fs_depth; /* the fragment shader's own depth (zs_emit), if set (fs_depth_set) */
	bool fs_depth_set;
	bool fs_kills; /* the fragment shader discards everything */
	/* the render's depth and stencil buffers (the first draw's say), partial renders */
	bool zs, z16, z_load, z_store, s_load, s_store, partial;
	float depth_clear;
	uint8_t stencil_clear;
};

/* Rows of the framebuffer: 16-byte aligned, as linear images are (docs/control-streams.md). */
static unsigned stride(const struct scene *s)
{
	return (s->width * 4 + 15) & ~15u;
}

static void gpu_up(struct fixture *f, struct gfx *g)
{
	struct sim_host *h = &f->host;
	char err[256];

	memset(g, 0, sizeof(*g));
	g->f = f;
	attach(h);
	give_ram(h);
	assert_int_equal(sim_fwhost_init(&g->fh, h, PT_OFFSET, PT_SIZE, FW_OFFSET, FW_PAGES), 0);
	boot(h);
	if (!sim_fwhost_start(&g->fh, TIMEOUT_MS))
		fail_msg("the GPU firmware did not start: %s", h->error);
	g->fb = h->ram + FB_RAM;
	assert_int_equal(sim_fwhost_map(&g->fh, CTX, CODE_VA, CODE_RAM, PAGE, true), 0);
	assert_int_equal(sim_fwhost_map(&g->fh, CTX, DATA_VA, DATA_RAM, DATA_SIZE, false), 0);
	assert_int_equal(sim_fwhost_map(&g->fh, CTX, FB_VA, FB_RAM, FB_SIZE, false), 0);
	assert_int_equal(sim_fwhost_map(&g->fh, CTX, TVB_VA, TVB_RAM, TVB_SIZE, false), 0);
	assert_int_equal(sim_fwhost_map(&g->fh, CTX, Z_VA, Z_RAM, Z_SIZE, false), 0);
	assert_int_equal(sim_fwhost_map(&g->fh, CTX, S_VA, S_RAM, S_SIZE, false), 0);
	assert_int_equal(sim_fwhost_queue_create(&g->fh, &g->q, CTX, 1, AGX_FW_PIPE_VERTEX, 16, 0),
			 0);
	if (!sim_scene_init(&g->sc, (struct sim_arena){ h->ram + CODE_RAM, CODE_VA, PAGE, 0 },
			    (struct sim_arena){ h->ram + DATA_RAM, DATA_VA, DATA_SIZE, 0 }, err,
			    sizeof(err)))
		fail_msg("%s", err);
}

static struct agx_fw_event next_event(struct gfx *g)
{
	struct agx_fw_event e;

	if (!sim_fwhost_event(&g->fh, &e, TIMEOUT_MS))
		fail_msg("no event came: %s", g->fh.host->error);
	return e;
}

static bool log_has(struct gfx *g, const char *text)
{
	char line[64];

	while (sim_fwhost_log(&g->fh, line, sizeof(line)))
		if (strstr(line, text))
			return true;
	return false;
}

/* The scene's render item body: one draw onto the framebuffer. */
static struct agx_fw_work_render scene_render(struct gfx *g, const struct scene *s)
{
	struct sim_scene_target t = { .va = FB_VA,
				      .width = s->width,
				      .height = s->height,
				      .stride = stride(s),
				      .tile_w = s->tile_w,
				      .tile_h = s->tile_h,
				      .tvb = TVB_VA,
				      .tvb_size = s->tvb_size ? s->tvb_size : TVB_SIZE,
				      .depth = s->zs ? Z_VA : 0,
				      .stencil = s->zs ? S_VA : 0,
				      .z16 = s->z16,
				      .z_load = s->z_load,
				      .z_store = s->z_store,
				      .s_load = s->s_load,
				      .s_store = s->s_store,
				      .depth_clear = s->depth_clear,
				      .partial = s->partial,
				      .stencil_clear = s->stencil_clear };
	struct sim_scene_draw d[4];
	struct agx_fw_work_render r;
	unsigned n = 0;
	float bias[3] = { 0, 0, 0 };

	/* the depth bias entry (each draw's constant is the first's) and 4 occlusion counters */
	for (const struct scene *e = s; e; e = e->then)
		if (e->depth_bias)
			bias[0] = e->bias;
	t.depth_bias = sim_arena_put(&g->sc.data, bias, sizeof(bias), 16);
	t.depth_bias_count = 1;
	t.visibility = sim_arena_put(&g->sc.data, (const uint64_t[4]){ 0 }, 32, 16);
	t.visibility_count = 4;
	g->queries = (const uint64_t *)(g->sc.data.host + (t.visibility - DATA_VA));
	for (const struct scene *e = s; e && n < 4; e = e->then)
		d[n++] = (struct sim_scene_draw){ .vertices = (const float(*)[8])e->v,
						  .num_vertices = e->num_vertices,
						  .primitive = e->primitive,
						  .indices = e->indices,
						  .count = e->count,
						  .restart = e->restart,
						  .flat = e->flat,
						  .cull_back = e->cull_back,
						  .front_ccw = e->front_ccw,
						  .fs = e->fs,
						  .depth_func = e->depth_func,
						  .depth_write = e->depth_write,
						  .stencil = e->stencil,
						  .stencil_ref = e->stencil_ref,
						  .stencil_compare = e->stencil_compare,
						  .stencil_fail = e->stencil_fail,
						  .depth_fail = e->depth_fail,
						  .depth_pass = e->depth_pass,
						  .line_width = e->line_width,
						  .point_size = e->point_size,
						  .point_coord = e->point_coord,
						  .depth_bias = e->depth_bias,
						  .visibility = e->visibility,
						  .query = e->query };
	assert_true(sim_scene_render(&g->sc, &t, d, n, &r));
	return r;
}

/*
 * Submits a render; returns the stamp's result after its completion, the
 * fault and TVB-grow events before it in *fault and *grow.
 */
static enum agx_fw_result submit_on(struct gfx *g, struct sim_fwqueue *q,
				    const struct agx_fw_work_render *r, struct agx_fw_event *grow,
				    struct agx_fw_event *fault)
{
	struct agx_fw_work_header h = { .type = AGX_FW_WORK_TYPE_RENDER,
					.event_slot = ++g->slot,
					.stamp_value = g->slot };
	struct agx_fw_stamp st = { 0 };
	struct agx_fw_event e;
	uint8_t *stamp;
	uint64_t stamp_va, item;

	stamp = sim_fwhost_alloc(&g->fh, AGX_FW_STAMP_LENGTH, &stamp_va);
	assert_non_null(stamp);
	h.stamp = stamp_va;
	item = sim_fwhost_render(&g->fh, &h, r);
	assert_true(item != 0);
	memset(g->fb, 0xee, FB_SIZE);
	assert_true(sim_fwhost_submit(&g->fh, q, item));
	e = next_event(g);
	if (e.type == AGX_FW_EVENT_TYPE_FAULT) {
		if (!fault) {
			char line[64];

			while (sim_fwhost_log(&g->fh, line, sizeof(line)))
				print_message("# firmware: %s\n", line);
			fail_msg("the render faulted: unit %u, reason %u, %s 0x%llx",
				 (unsigned)e.unit, (unsigned)e.reason, e.write ? "write" : "read",
				 (unsigned long long)e.va);
		}
		*fault = e;
		e = next_event(g);
	}
	if (e.type == AGX_FW_EVENT_TYPE_TVB_GROW) {
		assert_non_null(grow);
		*grow = e;
		e = next_event(g);
	}
	assert_int_equal(e.type, AGX_FW_EVENT_TYPE_COMPLETION);
	assert_int_equal(e.slot, g->slot);
	assert_int_equal(e.context, CTX);
	assert_true(agx_fw_stamp_unpack(stamp, &st));
	assert_int_equal(st.value, g->slot);
	assert_int_equal(st.result, e.result);
	assert_true(st.start && st.start <= st.end); /* the device timer's */
	return (enum agx_fw_result)e.result;
}

static enum agx_fw_result submit(struct gfx *g, const struct agx_fw_work_render *r,
				 struct agx_fw_event *grow, struct agx_fw_event *fault)
{
	return submit_on(g, &g->q, r, grow, fault);
}

/* The render's VDM stream, which the tests may corrupt: the host's view of it. */
static uint8_t *stream_of(struct gfx *g, const struct agx_fw_work_render *r)
{
	return g->sc.data.host + (r->encoder - DATA_VA);
}

/* --- the reference ---------------------------------------------------------------------- */

struct ref_vertex {
	double x, y, z, rhw; /* window */
	double c[4];
};

/* What the reference draws into: colours, and depth and stencil per pixel. */
struct ref_fb {
	uint32_t *img;
	double *depth;
	uint8_t *stencil;
	uint64_t queries[4];
};

static struct ref_vertex to_window(const struct scene *s, const struct vertex *v)
{
	struct ref_vertex r;

	r.rhw = 1.0 / v->clip[3];
	r.z = v->clip[2] * r.rhw;
	/* the viewport in single precision, as the PPP computes it */
	r.x = (float)s->width / 2 + (float)s->width / 2 * v->clip[0] * (1.0f / v->clip[3]);
	r.y = (float)s->height / 2 + -(float)s->height / 2 * v->clip[1] * (1.0f / v->clip[3]);
	for (unsigned k = 0; k < 4; k++)
		r.c[k] = v->colour[k];
	return r;
}

/* Edge function of (a, b) at p: > 0 to the right of a->b on a y-down screen, with the top-left
 * rule. */
static double snap(double v)
{
	return nearbyint(v * 256) / 256; /* vertices snap to 1/256 pixel */
}

static bool covers(const struct ref_vertex *t[3], double px, double py)
{
	double area = (snap(t[1]->x) - snap(t[0]->x)) * (snap(t[2]->y) - snap(t[0]->y)) -
		      (snap(t[2]->x) - snap(t[0]->x)) * (snap(t[1]->y) - snap(t[0]->y));
	double sign = area < 0 ? -1 : 1;

	for (unsigned e = 0; e < 3; e++) {
		const struct ref_vertex *a = t[e], *b = t[(e + 1) % 3];
		double dx = sign * (snap(b->x) - snap(a->x)), dy = sign * (snap(b->y) - snap(a->y));
		double v = dx * (py - snap(a->y)) - dy * (px - snap(a->x));

		if (v < 0 || (v == 0 && !((dy == 0 && dx > 0) || dy < 0)))
			return false;
	}
	return true;
}

/* GL's comparison functions, by cmdbuf.hw zs_func (0 taken as always when unset). */
static bool ref_compare(unsigned func, double a, double b, bool set)
{
	static const int table[8][3] = { /* passes when a <, ==, > b */
					 { 0, 0, 0 }, { 1, 0, 0 }, { 0, 1, 0 }, { 1, 1, 0 },
					 { 0, 0, 1 }, { 1, 0, 1 }, { 0, 1, 1 }, { 1, 1, 1 }
	};

	return !set || table[func][a < b ? 0 : a == b ? 1 : 2];
}

static uint8_t ref_op(unsigned op, uint8_t v, uint8_t ref)
{
	const uint8_t results[8] = { v,
				     0,
				     ref,
				     v == 255 ? 255 : v + 1,
				     v ? v - 1 : 0,
				     (uint8_t)~v,
				     (uint8_t)(v + 1),
				     (uint8_t)(v - 1) };

	return results[op];
}

/* A depth as a buffer holds it: clamped, and to 16 bits for z16. */
static double ref_depth(const struct scene *first, double z)
{
	z = z < 0 ? 0 : z > 1 ? 1 : z;
	return first->z16 ? nearbyint(z * 65535) / 65535 : (double)(float)z;
}

/* Draws the triangle into the expected image (RGBA8 words), depth and stencil. */
static void ref_triangle(const struct scene *s, const struct scene *first,
			 const struct ref_vertex *t[3], struct ref_fb *fb, bool cull)
{
	uint32_t *img = fb->img;
	double area =
	    (t[1]->x - t[0]->x) * (t[2]->y - t[0]->y) - (t[2]->x - t[0]->x) * (t[1]->y - t[0]->y);
	bool front = (area < 0) == s->front_ccw;

	if (area == 0 || (cull && !front))
		return;
	for (unsigned y = 0; y < s->height; y++)
		for (unsigned x = 0; x < s->width; x++) {
			double px = x + 0.5, py = y + 0.5, b[3], sum = 0, bsum = 0;
			uint32_t word = 0;

			unsigned at = y * s->width + x;
			double z = 0;
			uint8_t old = fb->stencil[at];
			unsigned op;
			bool pass;

			if (!covers(t, px, py) || s->fs_kills)
				continue;
			for (unsigned i = 0; i < 3; i++) {
				const struct ref_vertex *p = t[(i + 1) % 3], *q = t[(i + 2) % 3];

				b[i] = ((q->x - p->x) * (py - p->y) - (q->y - p->y) * (px - p->x)) /
				       -area;
				sum += b[i] * t[i]->rhw;
				bsum += b[i];
				z += b[i] * t[i]->z;
			}
			z = s->fs_depth_set ? s->fs_depth : z / bsum;
			if (s->depth_bias) {
				/* GL's units: 2^(e - 23), e the exponent of the largest depth */
				double top =
				    fmax(fabs(t[0]->z), fmax(fabs(t[1]->z), fabs(t[2]->z)));
				int e;

				frexp(top, &e);
				z += s->bias * (first->z16 ? ldexp(1, -16) : ldexp(1, e - 1 - 23));
			}
			z = ref_depth(first, z);
			/* GL: the stencil test, then the depth test, and their operations */
			pass = !s->stencil ||
			       ref_compare(s->stencil_compare, s->stencil_ref, old, true);
			op = s->depth_pass;
			if (!pass)
				op = s->stencil_fail;
			else if (!ref_compare(s->depth_func, z, fb->depth[at], s->depth_func)) {
				op = s->depth_fail;
				pass = false;
			}
			if (s->stencil)
				fb->stencil[at] = ref_op(op, old, s->stencil_ref);
			if (!pass)
				continue;
			if (s->depth_write)
				fb->depth[at] = z;
			if (s->visibility)
				fb->queries[s->query] =
				    s->visibility == AGX_CMD_VISIBILITY_MODE_BOOLEAN
					? 1
					: fb->queries[s->query] + 1;
			for (unsigned k = 0; k < 4; k++) {
				double c = 0;

				for (unsigned i = 0; i < 3; i++)
					c += s->flat ? (i == 2) * t[2]->c[k]
						     : b[i] * t[i]->rhw * t[i]->c[k] / sum;
				c = c < 0 ? 0 : c > 1 ? 1 : c;
				word |= (uint32_t)lround(c * 255) << (8 * k);
			}
			img[at] = word;
		}
}

/*
 * A rectangle as GL rasterizes wide lines and points: two triangles of its
 * corners (a + o, a - o, b + o, b - o), each corner with its end's values.
 */
static void ref_quad(const struct scene *s, const struct scene *first, const struct ref_vertex *a,
		     const struct ref_vertex *b, double ox, double oy, struct ref_fb *fb)
{
	struct ref_vertex c[4] = { *a, *a, *b, *b };
	const struct ref_vertex *t0[3] = { &c[0], &c[1], &c[2] }, *t1[3] = { &c[1], &c[3], &c[2] };

	for (unsigned i = 0; i < 4; i++) {
		c[i].x += i % 2 ? -ox : ox;
		c[i].y += i % 2 ? -oy : oy;
	}
	ref_triangle(s, first, t0, fb, false);
	ref_triangle(s, first, t1, fb, false);
}

/* A segment: x-major lines widen in y, the others in x (GL's wide lines). */
static void ref_line(const struct scene *s, const struct scene *first, const struct ref_vertex *a,
		     const struct ref_vertex *b, struct ref_fb *fb)
{
	double half = (s->line_width ? s->line_width : 1) / 2;
	bool x_major = fabs(b->x - a->x) >= fabs(b->y - a->y);

	ref_quad(s, first, a, b, x_major ? 0 : half, x_major ? half : 0, fb);
}

/* A point: a square of its size around it. */
static void ref_point(const struct scene *s, const struct scene *first, const struct ref_vertex *p,
		      struct ref_fb *fb)
{
	double half = (s->point_size ? s->point_size : 1) / 2;
	struct ref_vertex top = *p, bottom = *p;

	if (s->point_coord) {
		/* the colour is (s, t, 0, 1): s across, t down from the upper left */
		for (unsigned y = 0; y < s->height; y++)
			for (unsigned x = 0; x < s->width; x++) {
				double px = x + 0.5, py = y + 0.5,
				       u = (px - (p->x - half)) / (2 * half),
				       v = (py - (p->y - half)) / (2 * half);

				if (u < 0 || u >= 1 || v < 0 || v >= 1)
					continue;
				fb->img[y * s->width + x] = (uint32_t)lround(u * 255) |
							    (uint32_t)lround(v * 255) << 8 |
							    0xffu << 24;
			}
		return;
	}

	top.y -= half;
	bottom.y += half;
	ref_quad(s, first, &top, &bottom, half, 0, fb);
}

/* The primitives a draw makes, as the rules of its primitive type say. */
static void reference_draw(const struct scene *s, const struct scene *first, struct ref_fb *fb)
{
	struct ref_vertex w[64];
	unsigned seq[64], n = 0;

	for (unsigned i = 0; i <= s->count; i++) {
		bool end = i == s->count || (s->restart && s->indices[i] == 0xffff);

		if (!end) {
			unsigned index = s->indices ? s->indices[i] : i;

			w[n] = to_window(s, &s->v[index]);
			seq[n] = n;
			n++;
			continue;
		}
		switch (s->primitive) {
		case AGX_CMD_PRIMITIVE_POINTS:
			for (unsigned k = 0; k < n; k++)
				ref_point(s, first, &w[k], fb);
			n = 0;
			continue;
		case AGX_CMD_PRIMITIVE_LINES:
			for (unsigned k = 0; k + 1 < n; k += 2)
				ref_line(s, first, &w[k], &w[k + 1], fb);
			n = 0;
			continue;
		case AGX_CMD_PRIMITIVE_LINE_STRIP:
		case AGX_CMD_PRIMITIVE_LINE_LOOP:
			for (unsigned k = 0; k + 1 < n; k++)
				ref_line(s, first, &w[k], &w[k + 1], fb);
			if (s->primitive == AGX_CMD_PRIMITIVE_LINE_LOOP && n > 2)
				ref_line(s, first, &w[n - 1], &w[0], fb);
			n = 0;
			continue;
		}
		for (unsigned k = 0; k + 2 < n; k++) {
			const struct ref_vertex *t[3];

			if (s->primitive == AGX_CMD_PRIMITIVE_TRIANGLES) {
				if (k % 3)
					continue;
				t[0] = &w[k], t[1] = &w[k + 1], t[2] = &w[k + 2];
			} else if (s->primitive == AGX_CMD_PRIMITIVE_TRIANGLE_STRIP) {
				t[0] = &w[k + (k & 1)], t[1] = &w[k + !(k & 1)], t[2] = &w[k + 2];
			} else {
				t[0] = &w[0], t[1] = &w[k + 1], t[2] = &w[k + 2];
			}
			ref_triangle(s, first, t, fb, s->cull_back);
		}
		(void)seq;
		n = 0;
	}
}

/* With AGX_TEST_IMAGES=DIR, the rendered image as DIR/render-N.ppm, to look at. */
static void save_image(const struct gfx *g, const struct scene *s)
{
	static unsigned serial;
	const char *dir = getenv("AGX_TEST_IMAGES");
	char path[256];
	FILE *fp;

	if (!dir)
		return;
	snprintf(path, sizeof(path), "%s/render-%u.ppm", dir, serial++);
	fp = fopen(path, "wb");
	if (!fp)
		return;
	fprintf(fp, "P6 %u %u 255\n", s->width, s->height);
	for (unsigned y = 0; y < s->height; y++)
		for (unsigned x = 0; x < s->width; x++)
			fwrite(g->fb + y * stride(s) + x * 4, 1, 3, fp);
	fclose(fp);
}

/*
 * The scene's image: cleared, then its draws in order (drawn at the first
 * one's size); depth and stencil start as fb has them (loaded) or cleared.
 */
static void reference(const struct scene *s, struct ref_fb *fb)
{
	for (unsigned i = 0; i < s->width * s->height; i++) {
		fb->img[i] = CLEAR;
		if (!s->z_load)
			fb->depth[i] = ref_depth(s, s->depth_clear);
		if (!s->s_load)
			fb->stencil[i] = s->stencil_clear;
	}
	for (const struct scene *e = s; e; e = e->then) {
		struct scene sized = *e;

		sized.width = s->width;
		sized.height = s->height;
		reference_draw(&sized, s, fb);
	}
}

/* The reference's depth and stencil, kept from render to render (what ZLS loads). */
static double ref_depths[128 * 128];
static uint8_t ref_stencils[128 * 128];

/* The depth buffer's value at (x, y), as the device stored it (twiddled, agx/layout.h). */
static double stored_depth(const struct gfx *g, const struct scene *s, unsigned x, unsigned y)
{
	struct agx_layout l = { .twiddled = true,
				.bytes_per_texel = s->z16 ? 2 : 4,
				.width = s->width,
				.height = s->height,
				.levels = 1 };
	const uint8_t *z = g->f->host.ram + Z_RAM;
	uint32_t v = 0;
	float f;

	assert_true(agx_layout_init(&l));
	memcpy(&v, z + agx_layout_texel(&l, 0, 0, x, y), l.bytes_per_texel);
	memcpy(&f, &v, 4);
	return s->z16 ? v / 65535.0 : f;
}

static uint8_t stored_stencil(const struct gfx *g, const struct scene *s, unsigned x, unsigned y)
{
	struct agx_layout l = { .twiddled = true,
				.bytes_per_texel = 1,
				.width = s->width,
				.height = s->height,
				.levels = 1 };

	assert_true(agx_layout_init(&l));
	return g->f->host.ram[S_RAM + agx_layout_texel(&l, 0, 0, x, y)];
}

/*
 * Every pixel within one step of 255 of the reference, per channel; the
 * depth and stencil buffers, where stored, equal to the reference's.
 */
static void expect_image(const struct gfx *g, const struct scene *s)
{
	uint32_t *want = calloc(s->width * s->height, 4);
	struct ref_fb fb = { want, ref_depths, ref_stencils, { 0 } };
	unsigned bad = 0;

	assert_non_null(want);
	assert_true(s->width * s->height <= 128 * 128);
	save_image(g, s);
	reference(s, &fb);
	for (unsigned y = 0; y < s->height && (s->z_store || s->s_store); y++)
		for (unsigned x = 0; x < s->width; x++) {
			double zd =
			    s->z_store ? stored_depth(g, s, x, y) - fb.depth[y * s->width + x] : 0;

			if ((zd > 1e-6 || zd < -1e-6 ||
			     (s->s_store &&
			      stored_stencil(g, s, x, y) != fb.stencil[y * s->width + x])) &&
			    bad++ < 5)
				print_message("# depth/stencil at (%u, %u): %g/%u, want %g/%u\n", x,
					      y, s->z_store ? stored_depth(g, s, x, y) : 0.0,
					      s->s_store ? stored_stencil(g, s, x, y) : 0,
					      fb.depth[y * s->width + x],
					      fb.stencil[y * s->width + x]);
		}
	for (unsigned y = 0; y < s->height; y++)
		for (unsigned x = 0; x < s->width; x++) {
			uint32_t got, exp = want[y * s->width + x];

			memcpy(&got, g->fb + y * stride(s) + x * 4, 4);
			for (unsigned k = 0; k < 4; k++) {
				int d =
				    (int)((got >> (8 * k)) & 0xff) - (int)((exp >> (8 * k)) & 0xff);

				if (d > 1 || d < -1) {
					if (bad++ < 5)
						print_message(
						    "pixel (%u, %u): 0x%08x, want 0x%08x\n", x, y,
						    got, exp);
					break;
				}
			}
		}
	free(want);
	assert_int_equal(bad, 0);
	for (unsigned i = 0; i < 4; i++)
		assert_int_equal(g->queries[i], fb.queries[i]);
}

static void render_scene(struct gfx *g, const struct scene *s)
{
	struct agx_fw_work_render r = scene_render(g, s);

	if (submit(g, &r, NULL, NULL) != AGX_FW_RESULT_OK) {
		char line[64];

		while (sim_fwhost_log(&g->fh, line, sizeof(line)))
			print_message("# firmware: %s\n", line);
		fail_msg("render did not complete ok");
	}
	expect_image(g, s);
}

/* --- the tests ---------------------------------------------------------------------------- */

/* Two triangles, the second over the first, with perspective (w 1, 2, 4) and colours. */
static const struct vertex overlap[] = {
	{ { -0.875f, -0.75f, 0.5f, 1 }, { 1, 0, 0, 1 } },
	{ { 1.75f, -1.5f, 1, 2 }, { 0, 1, 0, 1 } },
	{ { 0, 3.5f, 2, 4 }, { 0, 0, 1, 0.5f } },
	{ { -0.5f, 0.25f, 0.5f, 1 }, { 1, 1, 0, 1 } },
	{ { 0.5f, 0.375f, 0.5f, 1 }, { 0, 1, 1, 1 } },
	{ { 0.125f, -0.625f, 0.5f, 1 }, { 1, 0, 1, 1 } },
};

static void test_triangles(void **state)
{
	struct fixture *f = *state;
	struct gfx g;
	static const unsigned sizes[][4] = { { 64, 64, 32, 32 },
					     { 64, 64, 32, 16 },
					     { 64, 64, 16, 16 },
					     { 50, 37, 32, 32 },
					     { 100, 60, 16, 16 } };

	gpu_up(f, &g);
	for (unsigned i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		struct scene s = { .width = sizes[i][0],
				   .height = sizes[i][1],
				   .tile_w = sizes[i][2],
				   .tile_h = sizes[i][3],
				   .v = overlap,
				   .num_vertices = 6,
				   .primitive = AGX_CMD_PRIMITIVE_TRIANGLES,
				   .count = 6 };

		render_scene(&g, &s);
	}
}

/* A strip's alternate triangles face the same way: culling keeps or drops them all. */
static void test_strip_and_culling(void **state)
{
	static const struct vertex quad[] = {
		{ { -0.75f, -0.75f, 0, 1 }, { 1, 0, 0, 1 } },
		{ { 0.75f, -0.75f, 0, 1 }, { 0, 1, 0, 1 } },
		{ { -0.75f, 0.75f, 0, 1 }, { 0, 0, 1, 1 } },
		{ { 0.75f, 0.75f, 0, 1 }, { 1, 1, 1, 1 } },
	};
	struct fixture *f = *state;
	struct gfx g;
	struct scene s = { .width = 64,
			   .height = 64,
			   .tile_w = 32,
			   .tile_h = 32,
			   .v = quad,
			   .num_vertices = 4,
			   .primitive = AGX_CMD_PRIMITIVE_TRIANGLE_STRIP,
			   .count = 4 };

	gpu_up(f, &g);
	render_scene(&g, &s);
	/* on a y-down screen this strip turns clockwise: front only if clockwise is */
	s.cull_back = true;
	s.front_ccw = true;
	render_scene(&g, &s);
	s.front_ccw = false;
	render_scene(&g, &s);
}

/* An indexed fan split by restarts, flat-shaded from each triangle's last vertex. */
static void test_indexed_restart_flat(void **state)
{
	static const struct vertex fan[] = {
		{ { 0, 0, 0, 1 }, { 1, 1, 1, 1 } },
		{ { 0.8f, 0, 0, 1 }, { 1, 0, 0, 1 } },
		{ { 0.5f, 0.6f, 0, 1 }, { 0, 1, 0, 1 } },
		{ { -0.3f, 0.7f, 0, 1 }, { 0, 0, 1, 1 } },
		{ { -0.9f, -0.1f, 0, 1 }, { 1, 1, 0, 1 } },
		{ { -0.2f, -0.9f, 0, 1 }, { 0, 1, 1, 1 } },
	};
	static const uint16_t indices[] = { 0, 1, 2, 3, 0xffff, 0, 4, 5, 1 };
	struct fixture *f = *state;
	struct gfx g;
	struct scene s = { .width = 64,
			   .height = 48,
			   .tile_w = 16,
			   .tile_h = 16,
			   .v = fan,
			   .num_vertices = 6,
			   .primitive = AGX_CMD_PRIMITIVE_TRIANGLE_FAN,
			   .indices = indices,
			   .count = 9,
			   .restart = true,
			   .flat = true };

	gpu_up(f, &g);
	render_scene(&g, &s);
	s.flat = false;
	render_scene(&g, &s);
}

/* A heap too small: a grow request with what it needs; that much then renders. */
static void test_tvb_overflow(void **state)
{
	struct fixture *f = *state;
	struct gfx g;
	struct scene s = { .width = 64,
			   .height = 64,
			   .tile_w = 16,
			   .tile_h = 16,
			   .v = overlap,
			   .num_vertices = 6,
			   .primitive = AGX_CMD_PRIMITIVE_TRIANGLES,
			   .count = 6,
			   .tvb_size = 512 };
	struct agx_fw_event grow = { 0 };
	struct agx_fw_work_render r;

	gpu_up(f, &g);
	r = scene_render(&g, &s);
	assert_int_equal(submit(&g, &r, &grow, NULL), AGX_FW_RESULT_TVB_OVERFLOW);
	assert_int_equal(grow.slot, g.slot);
	assert_int_equal(grow.context, CTX);
	assert_true(grow.value > 512 && grow.value <= TVB_SIZE);
	assert_true(log_has(&g, "TVB heap"));
	/* exactly what it asked for is enough */
	s.tvb_size = grow.value;
	render_scene(&g, &s);
}

/* Streams the VDM refuses, and faults by the unit that met them; the device goes on. */
static void test_render_errors(void **state)
{
	struct fixture *f = *state;
	struct gfx g;
	struct scene s = { .width = 32,
			   .height = 32,
			   .tile_w = 32,
			   .tile_h = 32,
			   .v = overlap,
			   .num_vertices = 3,
			   .primitive = AGX_CMD_PRIMITIVE_TRIANGLES,
			   .count = 3 };
	struct agx_fw_work_render r;
	struct agx_fw_event e;
	uint8_t *stream;
	size_t n;
	uint32_t word;

	gpu_up(f, &g);
	/* a tessellation block */
	r = scene_render(&g, &s);
	stream = stream_of(&g, &r);
	n = r.encoder_end - r.encoder;
	word = 5u << 29;
	memcpy(stream + n - AGX_CMD_VDM_STREAM_TERMINATE_LENGTH, &word, 4);
	assert_int_equal(submit(&g, &r, NULL, NULL), AGX_FW_RESULT_MALFORMED);
	assert_true(log_has(&g, "tessellation"));
	/* a draw whose index buffer is not mapped: the VDM's fault, and its address */
	s.indices = (const uint16_t[]){ 0, 1, 2 };
	r = scene_render(&g, &s);
	stream = stream_of(&g, &r);
	n = r.encoder_end - r.encoder;
	for (size_t at = 0; at + 4 <= n; at += 4) {
		memcpy(&word, stream + at, 4);
		if (word >> 29 == AGX_CMD_VDM_BLOCK_INDEX_LIST) {
			word = 0x50000000u;
			memcpy(stream + at + 4, &word, 4); /* buffer lo */
			break;
		}
	}
	assert_int_equal(submit(&g, &r, NULL, &e), AGX_FW_RESULT_FAULT);
	assert_int_equal(e.unit, AGX_UAT_FAULT_UNIT_VDM);
	assert_int_equal(e.reason, AGX_UAT_FAULT_REASON_UNMAPPED);
	assert_false(e.write);
	assert_int_equal(e.va, 0x50000000ull);
	{
		uint32_t st = *agx_mmio_u32(f->host.mmio, AGX_MMIO_FAULT_STATUS);
		struct agx_uat_fault_status fs = { 0 };

		assert_true(agx_uat_fault_status_unpack((const uint8_t *)&st, &fs));
		assert_int_equal(fs.unit, AGX_UAT_FAULT_UNIT_VDM);
		assert_int_equal(fs.context, CTX);
		assert_int_equal(
		    *(volatile uint64_t *)((uint8_t *)f->host.mmio + AGX_MMIO_FAULT_ADDRESS),
		    0x50000000ull);
	}
	/* the device renders on */
	s.indices = NULL;
	render_scene(&g, &s);
}

/* Two draws with their own state in one render: the second over the first, in order. */
static void test_two_draws(void **state)
{
	static const struct vertex fan[] = {
		{ { 0, 0, 0, 1 }, { 1, 1, 1, 1 } },
		{ { 0.9f, 0.1f, 0, 1 }, { 1, 0, 0, 1 } },
		{ { 0.2f, 0.9f, 0, 1 }, { 0, 1, 0, 1 } },
		{ { -0.8f, 0.3f, 0, 1 }, { 0, 0, 1, 1 } },
		{ { -0.4f, -0.9f, 0, 1 }, { 1, 1, 0, 1 } },
	};
	struct fixture *f = *state;
	struct gfx g;
	struct scene top = { .v = fan,
			     .num_vertices = 5,
			     .primitive = AGX_CMD_PRIMITIVE_TRIANGLE_FAN,
			     .count = 5,
			     .flat = true };
	struct scene s = { .width = 96,
			   .height = 64,
			   .tile_w = 32,
			   .tile_h = 16,
			   .v = overlap,
			   .num_vertices = 6,
			   .primitive = AGX_CMD_PRIMITIVE_TRIANGLES,
			   .count = 6,
			   .then = &top };

	gpu_up(f, &g);
	render_scene(&g, &s);
	/* the second draw culls what faces away: on screen this fan turns clockwise */
	top.cull_back = true;
	top.front_ccw = true;
	render_scene(&g, &s);
}

/*
 * Faults of each unit end the render with the unit and address, a shader
 * over its queue's time limit ends it as timed out; the next render runs.
 */
static void test_render_faults(void **state)
{
	static const char store_away[] = "mov_imm r1, 0x50000000\n"
					 "mov_imm r2, 0\n"
					 "mov_imm r3, 0\n"
					 "device_store 0, i32, x, r3, r1_r2, r3, unsigned, 0\n"
					 "stop";
	static const char spin[] = "top:\njmp_exec_any @top\nstop";
	struct fixture *f = *state;
	struct gfx g;
	struct scene s = { .width = 32,
			   .height = 32,
			   .tile_w = 32,
			   .tile_h = 32,
			   .v = overlap,
			   .num_vertices = 3,
			   .primitive = AGX_CMD_PRIMITIVE_TRIANGLES,
			   .count = 3 };
	struct agx_fw_work_render r;
	struct agx_fw_event e;
	struct sim_fwqueue limited;
	char err[256];

	gpu_up(f, &g);
	/* the TVB heap is not mapped: the tiler's write */
	r = scene_render(&g, &s);
	r.tvb = 0x70000000ull;
	assert_int_equal(submit(&g, &r, NULL, &e), AGX_FW_RESULT_FAULT);
	assert_int_equal(e.unit, AGX_UAT_FAULT_UNIT_TILER);
	assert_true(e.write);
	assert_int_equal(e.va, 0x70000000ull);
	/* the fragment shader stores where nothing is mapped: the USC's write */
	s.fs = sim_scene_pipeline(&g.sc, store_away, 0, 0, err, sizeof(err));
	assert_true(s.fs != ~0u);
	r = scene_render(&g, &s);
	assert_int_equal(submit(&g, &r, NULL, &e), AGX_FW_RESULT_FAULT);
	assert_int_equal(e.unit, AGX_UAT_FAULT_UNIT_USC);
	assert_int_equal(e.reason, AGX_UAT_FAULT_REASON_UNMAPPED);
	assert_true(e.write);
	assert_int_equal(e.va, 0x50000000ull);
	/* a fragment shader that never stops, on a queue allowing 50 ms a render */
	assert_int_equal(
	    sim_fwhost_queue_create(&g.fh, &limited, CTX, 1, AGX_FW_PIPE_FRAGMENT, 16, 50000), 0);
	s.fs = sim_scene_pipeline(&g.sc, spin, 0, 0, err, sizeof(err));
	r = scene_render(&g, &s);
	{
		struct agx_fw_work_header h = { .type = AGX_FW_WORK_TYPE_RENDER,
						.event_slot = 77,
						.stamp_value = 77 };
		uint64_t item;

		assert_non_null(sim_fwhost_alloc(&g.fh, AGX_FW_STAMP_LENGTH, &h.stamp));
		item = sim_fwhost_render(&g.fh, &h, &r);
		assert_true(sim_fwhost_submit(&g.fh, &limited, item));
		e = next_event(&g);
		assert_int_equal(e.type, AGX_FW_EVENT_TYPE_TIMEOUT);
		assert_int_equal(e.slot, 77);
		e = next_event(&g);
		assert_int_equal(e.type, AGX_FW_EVENT_TYPE_COMPLETION);
		assert_int_equal(e.result, AGX_FW_RESULT_TIMEOUT);
	}
	/* the device renders on */
	s.fs = 0;
	render_scene(&g, &s);
}

/* Two flat triangles at depths 0.25 and 0.75, overlapping. */
static const struct vertex near_tri[] = {
	{ { -0.75f, -0.5f, 0.25f, 1 }, { 1, 0, 0, 1 } },
	{ { 0.5f, -0.75f, 0.25f, 1 }, { 1, 1, 0, 1 } },
	{ { 0, 0.75f, 0.25f, 1 }, { 1, 0, 1, 1 } },
};
static const struct vertex far_quad[] = {
	{ { -0.9f, -0.9f, 1.5f, 2 }, { 0, 1, 0, 1 } },
	{ { 0.9f, -0.9f, 1.5f, 2 }, { 0, 1, 1, 1 } },
	{ { -0.9f, 0.9f, 1.5f, 2 }, { 0, 0, 1, 1 } },
	{ { 0.9f, 0.9f, 1.5f, 2 }, { 1, 1, 1, 1 } },
};

static struct scene zs_scene(const struct vertex *v, unsigned n, unsigned primitive)
{
	return (struct scene){ .width = 80,
			       .height = 64,
			       .tile_w = 32,
			       .tile_h = 32,
			       .v = v,
			       .num_vertices = n,
			       .primitive = primitive,
			       .count = n,
			       .depth_func = AGX_CMD_ZS_FUNC_LESS,
			       .depth_write = true };
}

/*
 * Depth: nearer wins whatever the order; the depth buffer is stored (z32f
 * and z16) and loaded again, and tests against what it holds.
 */
static void test_depth(void **state)
{
	struct fixture *f = *state;
	struct gfx g;
	struct scene near = zs_scene(near_tri, 3, AGX_CMD_PRIMITIVE_TRIANGLES),
		     far = zs_scene(far_quad, 4, AGX_CMD_PRIMITIVE_TRIANGLE_STRIP);

	gpu_up(f, &g);
	for (unsigned z16 = 0; z16 < 2; z16++) {
		/* far then near, near then far: the same image */
		far.zs = near.zs = true;
		far.z_store = near.z_store = true;
		far.depth_clear = near.depth_clear = 1.0f;
		far.z16 = near.z16 = z16;
		far.then = &near;
		near.then = NULL;
		render_scene(&g, &far);
		far.then = NULL;
		near.then = &far;
		render_scene(&g, &near);
		/* with the stored depth loaded, the far quad draws nowhere */
		far.z_load = true;
		far.then = NULL;
		render_scene(&g, &far);
		/* and, not writing depth, with GREATER only where nothing was */
		far.depth_func = AGX_CMD_ZS_FUNC_GREATER;
		far.depth_write = false;
		far.depth_clear = 0.5f;
		far.z_load = false;
		render_scene(&g, &far);
		far.depth_func = AGX_CMD_ZS_FUNC_LESS;
		far.depth_write = true;
		far.z_load = false;
	}
}

/* Stencil: one draw marks where it drew, the next draws only where it did not. */
static void test_stencil(void **state)
{
	struct fixture *f = *state;
	struct gfx g;
	struct scene mark = zs_scene(near_tri, 3, AGX_CMD_PRIMITIVE_TRIANGLES),
		     rest = zs_scene(far_quad, 4, AGX_CMD_PRIMITIVE_TRIANGLE_STRIP);

	gpu_up(f, &g);
	mark.zs = true;
	mark.s_store = true;
	mark.stencil_clear = 7;
	mark.depth_func = rest.depth_func = 0;
	mark.depth_write = rest.depth_write = false;
	mark.stencil = rest.stencil = true;
	mark.stencil_ref = 1;
	mark.stencil_compare = AGX_CMD_ZS_FUNC_ALWAYS;
	mark.depth_pass = AGX_CMD_STENCIL_OP_REPLACE;
	rest.stencil_ref = 1;
	rest.stencil_compare = AGX_CMD_ZS_FUNC_NOT_EQUAL;
	rest.depth_pass = AGX_CMD_STENCIL_OP_INCR_WRAP;
	rest.stencil_fail = AGX_CMD_STENCIL_OP_INVERT;
	mark.then = &rest;
	render_scene(&g, &mark);
	/* loaded again: the marked pixels are inverted (254), the rest incremented (9) */
	mark.s_load = true;
	render_scene(&g, &mark);
}

/*
 * Late tests: a fragment shader's own depth (zs_emit) tested and written;
 * one that discards everything (sample_mask 255, 0) leaves everything as
 * it was.
 */
static void test_shader_depth_and_discard(void **state)
{
	static const char own_depth[] =
	    "mov_imm r0, 0x3dcccccd\n" /* 0.1 */
	    "wait_pix 1, 0\n"
	    "zs_emit 255, r0\n"
	    "iter r4_r5_r6_r7, perspective, cf1, cf0, 0, forward, pixel, no_centroid, 0\n"
	    "wait_pix 12, 0\n"
	    "st_tile r4_r5_r6_r7, u8norm, 0, xyzw, 0, 255, 0\n"
	    "stop";
	static const char discard[] =
	    "sample_mask 255, 0\n"
	    "iter r4_r5_r6_r7, perspective, cf1, cf0, 0, forward, pixel, no_centroid, 0\n"
	    "wait_pix 12, 0\n"
	    "st_tile r4_r5_r6_r7, u8norm, 0, xyzw, 0, 255, 0\n"
	    "stop";
	struct fixture *f = *state;
	struct gfx g;
	struct scene near = zs_scene(near_tri, 3, AGX_CMD_PRIMITIVE_TRIANGLES),
		     far = zs_scene(far_quad, 4, AGX_CMD_PRIMITIVE_TRIANGLE_STRIP);
	char err[256];

	gpu_up(f, &g);
	near.zs = true;
	near.z_store = true;
	near.depth_clear = 1.0f;
	near.then = &far;
	/* the far quad says it is at 0.1: in front of the near triangle */
	far.fs = sim_scene_pipeline(&g.sc, own_depth, 0, 0, err, sizeof(err));
	assert_true(far.fs != ~0u);
	far.fs_depth = 0.1f;
	far.fs_depth_set = true;
	render_scene(&g, &near);
	/* a quad that discards: the near triangle stays, and so does its depth */
	far.fs = sim_scene_pipeline(&g.sc, discard, 0, 0, err, sizeof(err));
	assert_true(far.fs != ~0u);
	far.fs_depth_set = false;
	far.fs_kills = true;
	far.depth_func = AGX_CMD_ZS_FUNC_ALWAYS;
	render_scene(&g, &near);
}

/* Points of a size, lines of widths and in strips and loops, flat and interpolated. */
static void test_points_and_lines(void **state)
{
	static const struct vertex star[] = {
		{ { -0.7f, -0.6f, 0, 1 }, { 1, 0, 0, 1 } },
		{ { 0.8f, -0.45f, 0, 2 }, { 0, 1, 0, 1 } },
		{ { 0.15f, 0.75f, 0, 1 }, { 0, 0, 1, 1 } },
		{ { -0.55f, 0.35f, 0, 1 }, { 1, 1, 0, 1 } },
		{ { 0.6f, 0.2f, 0, 1 }, { 1, 0, 1, 1 } },
		{ { -0.1f, -0.8f, 0, 1 }, { 0, 1, 1, 1 } },
	};
	struct fixture *f = *state;
	struct gfx g;
	char err[256];
	struct scene s = { .width = 96,
			   .height = 64,
			   .tile_w = 16,
			   .tile_h = 16,
			   .v = star,
			   .num_vertices = 6,
			   .count = 6 };
	static const struct {
		unsigned primitive;
		float size;
		bool flat;
	} cases[] = {
		{ AGX_CMD_PRIMITIVE_POINTS, 1, false },
		{ AGX_CMD_PRIMITIVE_POINTS, 7.5f, false },
		{ AGX_CMD_PRIMITIVE_LINES, 1, false },
		{ AGX_CMD_PRIMITIVE_LINE_STRIP, 3, false },
		{ AGX_CMD_PRIMITIVE_LINE_LOOP, 2.5f, true },
	};

	gpu_up(f, &g);
	for (unsigned i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		s.primitive = cases[i].primitive;
		s.flat = cases[i].flat;
		s.point_size = s.primitive == AGX_CMD_PRIMITIVE_POINTS ? cases[i].size : 0;
		s.line_width = s.primitive == AGX_CMD_PRIMITIVE_POINTS ? 0 : cases[i].size;
		render_scene(&g, &s);
	}
	/* point coordinates across a point */
	s.primitive = AGX_CMD_PRIMITIVE_POINTS;
	s.point_size = 12;
	s.point_coord = true;
	s.fs = sim_scene_pipeline(
	    &g.sc,
	    "iter r0_r1, no_perspective, cf5, 0, forward, pixel, no_centroid, 0\n"
	    "mov_imm r2, 0\n"
	    "mov_imm r3, 0x3f800000\n"
	    "wait_pix 12, 0\n"
	    "st_tile r0_r1_r2_r3, u8norm, 0, xyzw, 0, 255, 0\n"
	    "stop",
	    0, 0, err, sizeof(err));
	assert_true(s.fs != ~0u);
	render_scene(&g, &s);
}

/*
 * Occlusion counters, counting and boolean, and a depth bias that lets a
 * draw at the same depth pass LESS.
 */
static void test_bias_and_queries(void **state)
{
	struct fixture *f = *state;
	struct gfx g;
	struct scene first = zs_scene(near_tri, 3, AGX_CMD_PRIMITIVE_TRIANGLES),
		     behind = zs_scene(far_quad, 4, AGX_CMD_PRIMITIVE_TRIANGLE_STRIP),
		     same = zs_scene(near_tri, 3, AGX_CMD_PRIMITIVE_TRIANGLES), biased;

	gpu_up(f, &g);
	first.zs = true;
	first.z_store = true;
	first.depth_clear = 1.0f;
	first.visibility = AGX_CMD_VISIBILITY_MODE_COUNTING;
	first.query = 0;
	behind.visibility = AGX_CMD_VISIBILITY_MODE_BOOLEAN;
	behind.query = 1;
	same.visibility = AGX_CMD_VISIBILITY_MODE_COUNTING;
	same.query = 2;
	same.flat = true;
	biased = same;
	biased.depth_bias = true;
	biased.bias = -4;
	biased.query = 3;
	first.then = &behind;
	behind.then = &same;
	same.then = &biased;
	render_scene(&g, &first);
	assert_true(g.queries[0] > 100); /* the triangle's pixels */
	assert_int_equal(g.queries[1], 1);
	assert_int_equal(g.queries[2], 0);
	assert_int_equal(g.queries[3], g.queries[0]);
}

/* A render spinning in its fragment shader is aborted by devctl; the next render runs. */
static void test_render_abort(void **state)
{
	static const char spin_after_store[] =
	    "mov_imm r1, 0x10014000\n" /* DATA_VA + 0x4000 */
	    "mov_imm r2, 0x0\n"
	    "mov_imm r3, 1\n"
	    "mov_imm r4, 0\n"
	    "device_store 0, i32, x, r3, r1_r2, r4, unsigned, 0\n"
	    "top:\n"
	    "jmp_exec_any @top\n"
	    "stop";
	struct fixture *f = *state;
	struct gfx g;
	struct scene s = { .width = 32,
			   .height = 32,
			   .tile_w = 32,
			   .tile_h = 32,
			   .v = overlap,
			   .num_vertices = 3,
			   .primitive = AGX_CMD_PRIMITIVE_TRIANGLES,
			   .count = 3 };
	struct agx_fw_devctl abort_ctx = { .op = AGX_FW_DEVCTL_OP_ABORT_CONTEXT,
					   .context = CTX,
					   .seq = 5 };
	struct agx_fw_work_header h = { .type = AGX_FW_WORK_TYPE_RENDER,
					.event_slot = 9,
					.stamp_value = 9 };
	volatile uint32_t *flag;
	struct agx_fw_work_render r;
	struct agx_fw_event e;
	char err[256];

	gpu_up(f, &g);
	flag = (volatile uint32_t *)(g.sc.data.host + 0x4000);
	*flag = 0;
	s.fs = sim_scene_pipeline(&g.sc, spin_after_store, 0, 0, err, sizeof(err));
	assert_true(s.fs != ~0u);
	r = scene_render(&g, &s);
	assert_non_null(sim_fwhost_alloc(&g.fh, AGX_FW_STAMP_LENGTH, &h.stamp));
	assert_true(sim_fwhost_submit(&g.fh, &g.q, sim_fwhost_render(&g.fh, &h, &r)));
	while (*flag != 1) /* the fragment shader runs */
		usleep(1000);
	assert_true(sim_fwhost_devctl(&g.fh, &abort_ctx));
	e = next_event(&g);
	assert_int_equal(e.type, AGX_FW_EVENT_TYPE_COMPLETION);
	assert_int_equal(e.slot, 9);
	assert_int_equal(e.result, AGX_FW_RESULT_ABORTED);
	e = next_event(&g);
	assert_int_equal(e.type, AGX_FW_EVENT_TYPE_DEVCTL_DONE);
	assert_int_equal(e.seq, 5);
	s.fs = 0;
	render_scene(&g, &s);
}

/*
 * A heap far too small for the scene: with partial pipelines the render
 * draws what fits, stores it, empties the heap and goes on, reloading the
 * tile each pass (colour through the image, depth through its buffer), and
 * ends with the image a big enough heap gives, and a grow request.
 */
static void test_partial_renders(void **state)
{
	static const struct vertex fan[] = {
		{ { 0, 0, 0.1f, 1 }, { 1, 1, 1, 1 } },
		{ { 0.9f, 0.1f, 0.1f, 1 }, { 1, 0, 0, 1 } },
		{ { 0.2f, 0.9f, 0.9f, 1 }, { 0, 1, 0, 1 } },
		{ { -0.8f, 0.3f, 0.9f, 1 }, { 0, 0, 1, 1 } },
		{ { -0.4f, -0.9f, 0.1f, 1 }, { 1, 1, 0, 1 } },
	};
	struct fixture *f = *state;
	struct gfx g;
	struct scene top = { .v = fan,
			     .num_vertices = 5,
			     .primitive = AGX_CMD_PRIMITIVE_TRIANGLE_FAN,
			     .count = 5,
			     .depth_func = AGX_CMD_ZS_FUNC_LESS,
			     .depth_write = true };
	struct scene s = { .width = 64,
			   .height = 64,
			   .tile_w = 16,
			   .tile_h = 16,
			   .v = overlap,
			   .num_vertices = 6,
			   .primitive = AGX_CMD_PRIMITIVE_TRIANGLES,
			   .count = 6,
			   .depth_func = AGX_CMD_ZS_FUNC_LESS,
			   .depth_write = true,
			   .zs = true,
			   .z_store = true,
			   .depth_clear = 1,
			   .partial = true,
			   /* a big triangle's record and 16 list blocks fit, two do not */
			   .tvb_size = 1400,
			   .then = &top };
	struct agx_fw_event grow = { 0 };
	struct agx_fw_work_render r;

	gpu_up(f, &g);
	r = scene_render(&g, &s);
	assert_int_equal(submit(&g, &r, &grow, NULL), AGX_FW_RESULT_OK);
	assert_int_equal(grow.type, AGX_FW_EVENT_TYPE_TVB_GROW);
	assert_true(grow.value > 1400);
	expect_image(&g, &s);
	/* and what the request asks for takes one pass: no request this time */
	s.tvb_size = grow.value;
	render_scene(&g, &s);
}

/*
 * Blending in the shader (ld_tile, add, st_tile) over two triangles that
 * both cover every pixel: the second must read what the first stored.  With
 * the fences Mesa's compiler emits, the tile is the clear colour plus twice
 * the shader's; without them, or with one in the wrong place, the second
 * fragment of each pixel reaches the tile unordered and the render stops
 * with an illegal-instruction fault that says so (docs/isa.md, "Pixel order").
 */
#define BLEND_ADD                                                                                  \
	"mov_imm r4, 0x3e800000\n"                                                                 \
	"mov_imm r5, 0x3e000000\n"                                                                 \
	"mov_imm r6, 0x3d800000\n"                                                                 \
	"mov_imm r7, 0\n"                                                                          \
	"fadd r0, r0, r4\n"                                                                        \
	"fadd r1, r1, r5\n"                                                                        \
	"fadd r2, r2, r6\n"                                                                        \
	"fadd r3, r3, r7\n"
#define LOAD  "ld_tile r0_r1_r2_r3, u8norm, 1, xyzw, 0, 255, 0\nwait 0\n"
#define STORE "st_tile r0_r1_r2_r3, u8norm, 0, xyzw, 0, 255, 0\nstop"

static uint8_t unorm8(double v)
{
	return (uint8_t)lround((v < 0 ? 0 : v > 1 ? 1 : v) * 255);
}

/* The render stops at a fragment out of pixel order, and the firmware's log says which. */
static void expect_order_fault(struct gfx *g, struct scene *s, const char *shader, const char *why)
{
	struct agx_fw_work_render r;
	struct agx_fw_event e;
	char err[256], line[64];
	bool said = false;

	s->fs = sim_scene_pipeline(&g->sc, shader, 0, 0, err, sizeof(err));
	assert_true(s->fs != ~0u);
	r = scene_render(g, s);
	assert_int_equal(submit(g, &r, NULL, &e), AGX_FW_RESULT_FAULT);
	assert_int_equal(e.unit, AGX_UAT_FAULT_UNIT_USC);
	assert_int_equal(e.reason, AGX_UAT_FAULT_REASON_ILLEGAL_INSTRUCTION);
	while (sim_fwhost_log(&g->fh, line, sizeof(line)))
		said |= strstr(line, why) != NULL;
	if (!said)
		fail_msg("no \"%s\" in the firmware's log", why);
}

static void test_pixel_order(void **state)
{
	static const struct vertex screen[] = {
		{ { -1, -1, 0, 1 }, { 0, 0, 0, 1 } }, { { 3, -1, 0, 1 }, { 0, 0, 0, 1 } },
		{ { -1, 3, 0, 1 }, { 0, 0, 0, 1 } },  { { -1, -1, 0, 1 }, { 0, 0, 0, 1 } },
		{ { 3, -1, 0, 1 }, { 0, 0, 0, 1 } },  { { -1, 3, 0, 1 }, { 0, 0, 0, 1 } },
	};
	static const double clear[4] = { 0.25, 0.5, 0.75, 1 }, add[4] = { 0.25, 0.125, 0.0625, 0 };
	struct fixture *f = *state;
	struct gfx g;
	struct scene s = { .width = 40,
			   .height = 24,
			   .tile_w = 32,
			   .tile_h = 32,
			   .v = screen,
			   .num_vertices = 6,
			   .primitive = AGX_CMD_PRIMITIVE_TRIANGLES,
			   .count = 6 };
	struct agx_fw_work_render r;
	uint8_t want[4];
	unsigned bad = 0;
	char err[256];

	/* what two blends leave, rounded to the tile's 8 bits after each */
	for (unsigned k = 0; k < 4; k++) {
		want[k] = unorm8(clear[k]);
		for (unsigned i = 0; i < 2; i++)
			want[k] = unorm8(want[k] / 255.0 + add[k]);
	}
	gpu_up(f, &g);
	s.fs = sim_scene_pipeline(&g.sc, "wait_pix 8, 0\n" LOAD BLEND_ADD "wait_pix 4, 0\n" STORE,
				  0, 0, err, sizeof(err));
	assert_true(s.fs != ~0u);
	r = scene_render(&g, &s);
	assert_int_equal(submit(&g, &r, NULL, NULL), AGX_FW_RESULT_OK);
	for (unsigned y = 0; y < s.height; y++)
		for (unsigned x = 0; x < s.width; x++)
			for (unsigned k = 0; k < 4; k++) {
				int d = g.fb[y * stride(&s) + x * 4 + k] - want[k];

				if ((d > 1 || d < -1) && bad++ < 5)
					print_message("# pixel (%u, %u) channel %u: %u, want %u\n",
						      x, y, k, g.fb[y * stride(&s) + x * 4 + k],
						      want[k]);
			}
	assert_int_equal(bad, 0);

	expect_order_fault(&g, &s, LOAD BLEND_ADD STORE, "ld_tile without wait_pix 0x8");
	expect_order_fault(&g, &s, LOAD "wait_pix 12, 0\n" BLEND_ADD STORE,
			   "ld_tile without wait_pix 0x8");
	expect_order_fault(&g, &s, "wait_pix 8, 0\n" LOAD BLEND_ADD STORE,
			   "st_tile without wait_pix 0xc");
	expect_order_fault(&g, &s, "wait_pix 12, 0\n" LOAD BLEND_ADD "signal_pix 4, 0\n" STORE,
			   "st_tile after signal_pix 0xc");
}
#undef BLEND_ADD
#undef LOAD
#undef STORE

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_triangles, setup, teardown),
		cmocka_unit_test_setup_teardown(test_strip_and_culling, setup, teardown),
		cmocka_unit_test_setup_teardown(test_indexed_restart_flat, setup, teardown),
		cmocka_unit_test_setup_teardown(test_tvb_overflow, setup, teardown),
		cmocka_unit_test_setup_teardown(test_render_errors, setup, teardown),
		cmocka_unit_test_setup_teardown(test_two_draws, setup, teardown),
		cmocka_unit_test_setup_teardown(test_render_faults, setup, teardown),
		cmocka_unit_test_setup_teardown(test_depth, setup, teardown),
		cmocka_unit_test_setup_teardown(test_stencil, setup, teardown),
		cmocka_unit_test_setup_teardown(test_shader_depth_and_discard, setup, teardown),
		cmocka_unit_test_setup_teardown(test_points_and_lines, setup, teardown),
		cmocka_unit_test_setup_teardown(test_bias_and_queries, setup, teardown),
		cmocka_unit_test_setup_teardown(test_render_abort, setup, teardown),
		cmocka_unit_test_setup_teardown(test_partial_renders, setup, teardown),
		cmocka_unit_test_setup_teardown(test_pixel_order, setup, teardown),
	};

	return fixture_main(argc, argv, tests, sizeof(tests) / sizeof(tests[0]));
}
