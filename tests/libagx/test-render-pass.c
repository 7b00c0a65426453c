/*
 * test-render-pass: render passes built by libagx's render builder
 * (agx/render.h) with shaders from libagx's compiler, run through the
 * real stack (agx-sim, agx-memmgr, agx-fwchan, agx-scheduler), every
 * image checked against a CPU reference:
 * - a triangle corpus (sizes, slivers, edges through pixel centres,
 *   both windings, strips, fans, indexed lists with primitive restart,
 *   lines of two widths, line strips and loops, points) against the rasterization rules
 * docs/control-streams.md states for the hardware: a pixel is covered when its centre is inside, a
 * centre on an edge only for a top or left edge;
 * - smooth, perspective-correct varyings against their interpolation at
 *   the pixel centres, within float rounding;
 * - load and store operations: clear, reload, don't-care, discard, over
 *   two passes, twiddled and linear targets, a layer of an array;
 * - eight colour targets of eight formats at once, each texel exactly as
 *   agx/format.h packs the value the shader wrote;
 * - depth (z32f) and stencil through ZLS, loaded and stored; every depth
 *   function and stencil operation, both faces, masks, z32f and z16;
 * - occlusion queries, spilled render targets, the tile-program cache.
 */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "agx/compiler.h"
#include "agx/device.h"
#include "agx/render.h"
#include "agx_cmdbuf.h"
#include "render-rig.h"
#include "sanitized.h"
#include "stack.h"

/* --- the triangle corpus ------------------------------------------------------------- */

#define CW 64 /* the corpus' target: 64x48, coordinates in 1/256 pixel */
#define CH 48

static const char corpus_vs[] = "#version 300 es\n"
				"layout(location = 0) in vec2 pos;\n"
				"layout(location = 1) in float id;\n"
				"flat out highp uint v_id;\n"
				"void main() {\n"
				"  gl_Position = vec4(pos, 0.0, 1.0);\n"
				"  gl_PointSize = 3.0;\n"
				"  v_id = uint(id);\n"
				"}\n";
static const char corpus_fs[] = "#version 300 es\n"
				"flat in highp uint v_id;\n"
				"layout(location = 0) out highp uint o;\n"
				"void main() { o = v_id; }\n";

/* A vertex: window position in 1/256 pixel, and the id its primitive writes. */
struct cvert {
	int32_t x, y;
	uint32_t id;
};

/* The edge function of a->b at p: positive on the left in y-down window space. */
static int64_t edge(const struct cvert *a, const struct cvert *b, int64_t px, int64_t py)
{
	return (int64_t)(b->x - a->x) * (py - a->y) - (int64_t)(b->y - a->y) * (px - a->x);
}

/* A top edge (horizontal, the triangle below) or a left edge (the triangle to its right). */
static bool top_left(const struct cvert *a, const struct cvert *b)
{
	return (a->y == b->y && b->x > a->x) || b->y < a->y;
}

/* Rasterizes a triangle into ref as the rules say, writing id. */
static void ref_triangle(uint32_t *ref, struct cvert v0, struct cvert v1, struct cvert v2,
			 uint32_t id)
{
	int64_t area = edge(&v0, &v1, v2.x, v2.y);

	if (area == 0)
		return;
	if (area < 0) {
		struct cvert t = v1;

		v1 = v2, v2 = t;
	}
	for (unsigned y = 0; y < CH; y++)
		for (unsigned x = 0; x < CW; x++) {
			int64_t px = x * 256 + 128, py = y * 256 + 128;
			int64_t e0 = edge(&v0, &v1, px, py), e1 = edge(&v1, &v2, px, py);
			int64_t e2 = edge(&v2, &v0, px, py);

			if ((e0 > 0 || (e0 == 0 && top_left(&v0, &v1))) &&
			    (e1 > 0 || (e1 == 0 && top_left(&v1, &v2))) &&
			    (e2 > 0 || (e2 == 0 && top_left(&v2, &v0))))
				ref[y * CW + x] = id;
		}
}

/*
 * A line segment a-b `half` 1/256 pixels either side, as
 * docs/control-streams.md says the hardware draws lines (GLES 3.0 section
 * 3.5.2 allows it): the parallelogram whose ends are the endpoints moved
 * across the major axis (x when the line is at most 45 degrees from
 * horizontal), its two triangles under the triangle rules; id the
 * segment's provoking vertex's.
 */
static void ref_line(uint32_t *ref, struct cvert a, struct cvert b, int32_t half, uint32_t id)
{
	bool x_major = abs(b.x - a.x) >= abs(b.y - a.y);
	int32_t ox = x_major ? 0 : half, oy = x_major ? half : 0;
	struct cvert c[4] = { { a.x + ox, a.y + oy, id },
			      { a.x - ox, a.y - oy, id },
			      { b.x + ox, b.y + oy, id },
			      { b.x - ox, b.y - oy, id } };

	ref_triangle(ref, c[0], c[1], c[2], id);
	ref_triangle(ref, c[1], c[3], c[2], id);
}

/* A point of size 3 centred on v: the pixels whose centres are in [c - 1.5, c + 1.5). */
static void ref_point(uint32_t *ref, struct cvert v, uint32_t id)
{
	for (unsigned y = 0; y < CH; y++)
		for (unsigned x = 0; x < CW; x++) {
			int64_t px = x * 256 + 128, py = y * 256 + 128;

			if (px >= v.x - 384 && px < v.x + 384 && py >= v.y - 384 && py < v.y + 384)
				ref[y * CW + x] = id;
		}
}

struct corpus {
	struct cvert v[4096];
	unsigned n;
};

static void put_vertex(struct corpus *c, int32_t x, int32_t y, uint32_t id)
{
	assert_true(c->n < 4096);
	c->v[c->n++] = (struct cvert){ x, y, id };
}

static uint64_t rng_state = 0x9e3779b97f4a7c15ull;

static uint32_t rnd(uint32_t n)
{
	rng_state ^= rng_state << 13, rng_state ^= rng_state >> 7, rng_state ^= rng_state << 17;
	return (uint32_t)(rng_state % n);
}

/* The vertices as the attributes take them: NDC x, y (exact: the sizes are powers of two) and id.
 */
static uint64_t upload_vertices(struct rig *r, const struct corpus *c)
{
	static float buf[4096][3];

	for (unsigned i = 0; i < c->n; i++) {
		buf[i][0] = (float)c->v[i].x / (256.0f * CW / 2) - 1;
		buf[i][1] = (float)c->v[i].y / (256.0f * CH / 2) - 1;
		buf[i][2] = (float)c->v[i].id;
	}
	return rig_data(r, buf, c->n * sizeof(buf[0]));
}

static void corpus_check(const struct image *img, const uint32_t *ref, const char *what)
{
	unsigned wrong = 0, fx = 0, fy = 0;
	uint32_t got0 = 0;

	for (unsigned y = 0; y < CH; y++)
		for (unsigned x = 0; x < CW; x++) {
			uint32_t got;

			memcpy(&got, rig_texel(img, 0, x, y), 4);
			if (got != ref[y * CW + x] && !wrong++)
				fx = x, fy = y, got0 = got;
		}
	if (wrong)
		fail_msg("%s: %u pixels differ, the first (%u, %u): %u, not %u", what, wrong, fx,
			 fy, got0, ref[fy * CW + fx]);
}

static void test_triangle_corpus(void **state)
{
	static struct corpus tris, strip, points;
	static uint32_t ref[CW * CH];
	struct rig r;
	struct shader vs, fs;
	struct image img;
	struct agx_render rp;
	struct agx_render_draw d;
	struct agx_cf_binding cf[AGX_RENDER_MAX_CF];
	struct agx_render_pass pass = { .width = CW, .height = CH, .num_colour = 1 };
	struct agx_compile_options fo = { 0 };
	uint32_t vu[64];
	unsigned strides[2] = { 12, 12 };
	uint64_t attribs[2];
	uint16_t indices[64];
	unsigned id = 1;

	rig_init(&r, *state);
	rig_image_init(&r, &img, AGX_FORMAT_R32_UINT, CW, CH, true, 1, 0);
	pass.colour[0] = rig_target(&img, 0, AGX_LOAD_CLEAR, AGX_STORE_STORE);
	rig_begin(&r, &rp, &pass);
	agx_tilebuffer_compile_options(&rp.tib, &fo);
	rig_compile(&r, AGX_SHADER_VERTEX, corpus_vs, NULL, &vs);
	rig_compile(&r, AGX_SHADER_FRAGMENT, corpus_fs, &fo, &fs);
	memset(ref, 0, sizeof(ref));

	/* triangles: large, small, slivers, edges and vertices on pixel centres, both windings */
	const int32_t fixed[][6] = {
		{ 0, 0, 64 * 256, 0, 0, 48 * 256 }, /* half the target */
		{ 10 * 256 + 128, 4 * 256 + 128, 20 * 256 + 128, 4 * 256 + 128, 10 * 256 + 128,
		  14 * 256 + 128 }, /* edges through centres */
		{ 20 * 256 + 128, 14 * 256 + 128, 20 * 256 + 128, 4 * 256 + 128, 10 * 256 + 128,
		  14 * 256 + 128 }, /* its mirror, sharing the edge */
		{ 30 * 256, 2 * 256, 60 * 256, 3 * 256, 30 * 256, 2 * 256 + 40 }, /* a sliver */
		{ 40 * 256 + 10, 20 * 256 + 10, 40 * 256 + 90, 20 * 256 + 10, 40 * 256 + 10,
		  20 * 256 + 200 }, /* inside one pixel, no centre */
		{ 2 * 256, 40 * 256, 2 * 256, 46 * 256, 62 * 256, 44 * 256 }, /* clockwise */
		{ 5 * 256, 5 * 256, 5 * 256, 5 * 256, 9 * 256, 9 * 256 },     /* degenerate */
	};
	for (unsigned i = 0; i < sizeof(fixed) / sizeof(fixed[0]); i++, id++)
		for (unsigned k = 0; k < 3; k++)
			put_vertex(&tris, fixed[i][2 * k], fixed[i][2 * k + 1], id);
	/* random triangles of every size, some off the target (clipped) */
	for (unsigned i = 0; i < 300; i++, id++) {
		unsigned size = 1 + rnd(i % 3 == 0 ? 80 * 256 : 6 * 256);
		int32_t cx = (int32_t)rnd(CW * 256), cy = (int32_t)rnd(CH * 256);

		for (unsigned k = 0; k < 3; k++)
			put_vertex(&tris, cx + (int32_t)rnd(size) - (int32_t)size / 2,
				   cy + (int32_t)rnd(size) - (int32_t)size / 2, id);
	}
	for (unsigned i = 0; i < tris.n; i += 3)
		ref_triangle(ref, tris.v[i], tris.v[i + 1], tris.v[i + 2], tris.v[i + 2].id);

	attribs[0] = upload_vertices(&r, &tris);
	attribs[1] = attribs[0] + 8;
	rig_draw_init(&d, &vs, &fs, rig_vertex_stage(&vs, vu, attribs, strides), CW, CH, cf);
	d.draw = (struct agx_vdm_draw){ .primitive = AGX_CMD_PRIMITIVE_TRIANGLES,
					.count = tris.n,
					.instances = 1 };
	assert_int_equal(agx_render_draw(&rp, &d), 0);

	/*
	 * A strip and a fan over the same 12 vertices, each triangle its last
	 * vertex's id (GL's provoking vertex); strips swap the first two of every
	 * other triangle, which leaves the last in place.
	 */
	for (unsigned i = 0; i < 12; i++, id++)
		put_vertex(&strip, (int32_t)(4 + 5 * (i / 2)) * 256 + (int32_t)rnd(256),
			   (int32_t)(20 + 8 * (i % 2)) * 256 + (int32_t)rnd(256), id);
	for (unsigned i = 0; i + 2 < 12; i++)
		ref_triangle(ref, strip.v[i], strip.v[i + 1], strip.v[i + 2], strip.v[i + 2].id);
	attribs[0] = upload_vertices(&r, &strip);
	attribs[1] = attribs[0] + 8;
	d.vs = rig_vertex_stage(&vs, vu, attribs, strides);
	d.draw = (struct agx_vdm_draw){ .primitive = AGX_CMD_PRIMITIVE_TRIANGLE_STRIP,
					.count = 12,
					.instances = 1 };
	assert_int_equal(agx_render_draw(&rp, &d), 0);

	/* the fan, indexed, with a restart in the middle: two fans of the strip's vertices */
	const uint16_t fan[] = { 0, 1, 3, 5, 0xffff, 6, 7, 9, 11, 10 };

	memcpy(indices, fan, sizeof(fan));
	for (unsigned i = 0; i < 12; i++)
		strip.v[i].id += 100;
	attribs[0] = upload_vertices(&r, &strip);
	attribs[1] = attribs[0] + 8;
	d.vs = rig_vertex_stage(&vs, vu, attribs, strides);
	d.draw = (struct agx_vdm_draw){ .primitive = AGX_CMD_PRIMITIVE_TRIANGLE_FAN,
					.count = 10,
					.instances = 1,
					.index_size = 2,
					.indices = rig_data(&r, indices, sizeof(indices)),
					.index_bytes = 20,
					.restart = true };
	d.restart_index = 0xffff;
	assert_int_equal(agx_render_draw(&rp, &d), 0);
	for (unsigned f = 0; f < 2; f++) {
		const uint16_t *ix = fan + 5 * f;
		unsigned len = f ? 5 : 4;

		for (unsigned i = 1; i + 1 < len; i++)
			ref_triangle(ref, strip.v[ix[0]], strip.v[ix[i]], strip.v[ix[i + 1]],
				     strip.v[ix[i + 1]].id);
	}

	/*
	 * Lines, one pixel wide and three, kept a pixel inside the target (a
	 * clipped end is cut across the line, not the major axis): random
	 * ones, horizontal, vertical and 45-degree ones on pixel centres; a
	 * strip and a loop, each segment its second vertex's id, the loop's
	 * closing segment its first vertex's (GLES 3.0 table 2.12).
	 */
	static struct corpus lines, lstrip;

	for (unsigned i = 0; i < 24; i++, id++) {
		int32_t x0 = 256 + (int32_t)rnd((CW - 2) * 256),
			y0 = 256 + (int32_t)rnd((CH - 2) * 256);
		int32_t x1 = 256 + (int32_t)rnd((CW - 2) * 256),
			y1 = 256 + (int32_t)rnd((CH - 2) * 256);

		if (i % 4 == 1) /* horizontal, through pixel centres */
			y0 = y1 = (y0 & ~255) + 128;
		else if (i % 4 == 2) /* vertical */
			x0 = x1 = (x0 & ~255) + 128;
		else if (i % 4 == 3) /* 45 degrees: x-major by the rule */
			x0 = (x0 & ~255) + 128, y0 = (CH / 2) * 256 + 128,
			x1 = x0 + (x0 < CW * 128 ? 1 : -1) * 10 * 256, y1 = y0 + 10 * 256;
		put_vertex(&lines, x0, y0, id);
		put_vertex(&lines, x1, y1, id);
	}
	for (unsigned w = 0; w < 2; w++) {
		for (unsigned i = w * lines.n / 2; i < (w + 1) * lines.n / 2; i += 2)
			ref_line(ref, lines.v[i], lines.v[i + 1], w ? 384 : 128, lines.v[i + 1].id);
		attribs[0] = upload_vertices(&r, &lines) + w * (lines.n / 2) * 12;
		attribs[1] = attribs[0] + 8;
		d.vs = rig_vertex_stage(&vs, vu, attribs, strides);
		d.draw = (struct agx_vdm_draw){ .primitive = AGX_CMD_PRIMITIVE_LINES,
						.count = lines.n / 2,
						.instances = 1 };
		d.state.line_width = w ? 3.0f : 1.0f;
		assert_int_equal(agx_render_draw(&rp, &d), 0);
	}
	for (unsigned i = 0; i < 9; i++, id++)
		put_vertex(&lstrip, (int32_t)(3 + 7 * i) * 256 + (int32_t)rnd(256),
			   (int32_t)(i % 2 ? 36 : 44) * 256 + (int32_t)rnd(256), id);
	for (unsigned loop = 0; loop < 2; loop++) {
		for (unsigned i = 0; i + 1 < lstrip.n; i++)
			ref_line(ref, lstrip.v[i], lstrip.v[i + 1], 128, lstrip.v[i + 1].id);
		if (loop)
			ref_line(ref, lstrip.v[lstrip.n - 1], lstrip.v[0], 128, lstrip.v[0].id);
		attribs[0] = upload_vertices(&r, &lstrip);
		attribs[1] = attribs[0] + 8;
		d.vs = rig_vertex_stage(&vs, vu, attribs, strides);
		d.draw = (struct agx_vdm_draw){ .primitive = loop ? AGX_CMD_PRIMITIVE_LINE_LOOP
								  : AGX_CMD_PRIMITIVE_LINE_STRIP,
						.count = lstrip.n,
						.instances = 1 };
		d.state.line_width = 1.0f;
		assert_int_equal(agx_render_draw(&rp, &d), 0);
		for (unsigned i = 0; i < lstrip.n; i++) {
			lstrip.v[i].id += 100;
			lstrip.v[i].y -= 12 * 256; /* the loop above the strip */
		}
	}

	/* points of size 3 at random places, some on pixel centres' edges */
	for (unsigned i = 0; i < 40; i++, id++)
		put_vertex(&points, (int32_t)rnd(CW * 256), (int32_t)rnd(CH * 256) & ~127, id);
	for (unsigned i = 0; i < points.n; i++)
		ref_point(ref, points.v[i], points.v[i].id);
	attribs[0] = upload_vertices(&r, &points);
	attribs[1] = attribs[0] + 8;
	d.vs = rig_vertex_stage(&vs, vu, attribs, strides);
	d.draw = (struct agx_vdm_draw){ .primitive = AGX_CMD_PRIMITIVE_POINTS,
					.count = points.n,
					.instances = 1 };
	d.state.point_size = true;
	d.state.varying_words = d.vs_outputs - 5;
	assert_int_equal(agx_render_draw(&rp, &d), 0);

	assert_int_equal(rig_run(&r, &rp), 0);
	corpus_check(&img, ref, "triangles, strips, fans, lines, points");
	agx_shader_binary_finish(&vs.bin);
	agx_shader_binary_finish(&fs.bin);
	agx_device_bo_close(r.dev, &img.bo);
	rig_fini(&r);
}

/* --- smooth varyings -------------------------------------------------------------------- */

static const char smooth_vs[] = "#version 300 es\n"
				"layout(location = 0) in vec4 pos;\n"
				"layout(location = 1) in vec4 col;\n"
				"out vec4 v_col;\n"
				"void main() { gl_Position = pos; v_col = col; }\n";
static const char smooth_fs[] = "#version 300 es\n"
				"precision highp float;\n"
				"in vec4 v_col;\n"
				"layout(location = 0) out vec4 o;\n"
				"void main() { o = v_col; }\n";

/* One triangle with different w at its vertices: the colour perspective-correct at each centre. */
static void test_smooth_varyings(void **state)
{
	static const float v[3][8] = {
		{ -0.9f, -0.8f, 0, 1, 1, 0, 0, 0.25f },
		{ 1.8f, -1.6f, 0, 2, 0, 1, 0, 0.5f },
		{ -2.0f, 3.2f, 0, 4, 0, 0, 1, 1 },
	};
	const unsigned w = 32, h = 32;
	struct rig r;
	struct shader vs, fs;
	struct image img;
	struct agx_render rp;
	struct agx_render_draw d;
	struct agx_cf_binding cf[AGX_RENDER_MAX_CF];
	struct agx_render_pass pass = { .width = w, .height = h, .num_colour = 1 };
	struct agx_compile_options fo = { 0 };
	uint32_t vu[64];
	unsigned strides[2] = { 32, 32 }, covered = 0;
	uint64_t attribs[2];
	double worst = 0;

	rig_init(&r, *state);
	rig_image_init(&r, &img, AGX_FORMAT_R32G32B32A32_FLOAT, w, h, false, 1, 0);
	pass.colour[0] = rig_target(&img, 0, AGX_LOAD_CLEAR, AGX_STORE_STORE);
	pass.colour[0].clear.f[3] = -1; /* no varying is negative */
	rig_begin(&r, &rp, &pass);
	agx_tilebuffer_compile_options(&rp.tib, &fo);
	rig_compile(&r, AGX_SHADER_VERTEX, smooth_vs, NULL, &vs);
	rig_compile(&r, AGX_SHADER_FRAGMENT, smooth_fs, &fo, &fs);
	attribs[0] = rig_data(&r, v, sizeof(v));
	attribs[1] = attribs[0] + 16;
	rig_draw_init(&d, &vs, &fs, rig_vertex_stage(&vs, vu, attribs, strides), w, h, cf);
	d.draw = (struct agx_vdm_draw){ .primitive = AGX_CMD_PRIMITIVE_TRIANGLES,
					.count = 3,
					.instances = 1 };
	assert_int_equal(agx_render_draw(&rp, &d), 0);
	assert_int_equal(rig_run(&r, &rp), 0);

	/* the reference: barycentrics in window space, then corrected by 1/w */
	double wx[3], wy[3];

	for (unsigned i = 0; i < 3; i++) {
		wx[i] = w / 2.0 + w / 2.0 * v[i][0] / v[i][3];
		wy[i] = h / 2.0 + h / 2.0 * v[i][1] / v[i][3];
	}
	double area = (wx[1] - wx[0]) * (wy[2] - wy[0]) - (wx[2] - wx[0]) * (wy[1] - wy[0]);

	for (unsigned y = 0; y < h; y++)
		for (unsigned x = 0; x < w; x++) {
			double px = x + 0.5, py = y + 0.5, b[3], sum = 0;
			float got[4];

			b[0] = ((wx[1] - px) * (wy[2] - py) - (wx[2] - px) * (wy[1] - py)) / area;
			b[1] = ((wx[2] - px) * (wy[0] - py) - (wx[0] - px) * (wy[2] - py)) / area;
			b[2] = 1 - b[0] - b[1];
			memcpy(got, rig_texel(&img, 0, x, y), 16);
			/* keep away from edges, where coverage is the corpus' business */
			if (b[0] < 1e-3 || b[1] < 1e-3 || b[2] < 1e-3) {
				if (b[0] < -1e-3 || b[1] < -1e-3 || b[2] < -1e-3)
					assert_true(got[3] == -1);
				continue;
			}
			covered++;
			for (unsigned i = 0; i < 3; i++)
				sum += b[i] / v[i][3];
			for (unsigned c = 0; c < 4; c++) {
				double want = 0;

				for (unsigned i = 0; i < 3; i++)
					want += b[i] / v[i][3] * v[i][4 + c];
				want /= sum;
				worst = fmax(worst, fabs(got[c] - want));
			}
		}
	print_message("# %u pixels inside, the largest difference %.3g\n", covered, worst);
	assert_true(covered > 100);
	assert_true(worst < 1e-4);
	agx_shader_binary_finish(&vs.bin);
	agx_shader_binary_finish(&fs.bin);
	agx_device_bo_close(r.dev, &img.bo);
	rig_fini(&r);
}

/* --- load and store operations ---------------------------------------------------------- */

static const char rect_vs[] = "#version 300 es\n"
			      "layout(location = 0) in vec2 pos;\n"
			      "void main() { gl_Position = vec4(pos, 0.5, 1.0); }\n";
static const char rect_fs[] = "#version 300 es\n"
			      "precision highp float;\n"
			      "uniform vec4 colour;\n"
			      "layout(location = 0) out vec4 o0;\n"
			      "layout(location = 1) out vec4 o1;\n"
			      "void main() { o0 = colour; o1 = colour.wzyx; }\n";

/* Draws the rectangle (x0, y0)..(x1, y1) in NDC with the fragment shader's colour. */
static void draw_rect(struct rig *r, struct agx_render *rp, const struct shader *vs,
		      const struct shader *fs, float x0, float y0, float x1, float y1,
		      const float colour[4], unsigned width, unsigned height)
{
	const float v[6][2] = { { x0, y0 }, { x1, y0 }, { x1, y1 },
				{ x0, y0 }, { x1, y1 }, { x0, y1 } };
	static uint32_t vu[64], fu[64];
	unsigned strides[1] = { 8 };
	uint64_t attribs[1] = { rig_data(r, v, sizeof(v)) };
	struct agx_cf_binding cf[AGX_RENDER_MAX_CF];
	struct agx_render_draw d;

	rig_draw_init(&d, vs, fs, rig_vertex_stage(vs, vu, attribs, strides), width, height, cf);
	rig_fs_colour(&d, fs, fu, colour);
	d.draw = (struct agx_vdm_draw){ .primitive = AGX_CMD_PRIMITIVE_TRIANGLES,
					.count = 6,
					.instances = 1 };
	assert_int_equal(agx_render_draw(rp, &d), 0);
}

static uint32_t rgba8(const float c[4])
{
	uint32_t v;

	assert_true(agx_format_pack_float(AGX_FORMAT_R8G8B8A8_UNORM, c, &v));
	return v;
}

/*
 * Two targets, a twiddled array layer and a linear image.  Pass 1 clears
 * the first and leaves the second as it was (don't care, then stored:
 * undefined where nothing drew, so the test draws everywhere), pass 2
 * reloads the first and draws a smaller rectangle, and discards the
 * second.  The layer next to the target's is never touched.
 */
static void test_load_store(void **state)
{
	const unsigned w = 40, h = 24;
	const float red[4] = { 1, 0, 0, 1 }, green[4] = { 0, 1, 0, 1 },
		    grey[4] = { 0.5f, 0.5f, 0.5f, 1 };
	const float blue[4] = { 0, 0, 1, 0.5f };
	struct rig r;
	struct shader vs, fs;
	struct image a, b;
	struct agx_render rp;
	struct agx_render_pass pass = { .width = w, .height = h, .num_colour = 2 };
	struct agx_compile_options fo = { 0 };

	rig_init(&r, *state);
	rig_image_init(&r, &a, AGX_FORMAT_R8G8B8A8_UNORM, w, h, true, 3, 0x5a);
	rig_image_init(&r, &b, AGX_FORMAT_R8G8B8A8_UNORM, w, h, false, 1, 0x33);
	pass.colour[0] = rig_target(&a, 1, AGX_LOAD_CLEAR, AGX_STORE_STORE);
	memcpy(pass.colour[0].clear.f, grey, 16);
	pass.colour[1] = rig_target(&b, 0, AGX_LOAD_DONT_CARE, AGX_STORE_STORE);
	rig_begin(&r, &rp, &pass);
	agx_tilebuffer_compile_options(&rp.tib, &fo);
	rig_compile(&r, AGX_SHADER_VERTEX, rect_vs, NULL, &vs);
	rig_compile(&r, AGX_SHADER_FRAGMENT, rect_fs, &fo, &fs);
	/* the right half red; target 1 everywhere (its colour reversed) */
	draw_rect(&r, &rp, &vs, &fs, 0, -1, 1, 1, red, w, h);
	assert_int_equal(rig_run(&r, &rp), 0);
	for (unsigned y = 0; y < h; y++)
		for (unsigned x = 0; x < w; x++) {
			uint32_t ta, tb, want_b = rgba8((const float[4]){ 1, 0, 0, 1 });

			memcpy(&ta, rig_texel(&a, 1, x, y), 4);
			memcpy(&tb, rig_texel(&b, 0, x, y), 4);
			assert_int_equal(ta, rgba8(x >= w / 2 ? red : grey));
			if (x >= w / 2)
				assert_int_equal(tb, want_b);
			/* the layers either side are untouched */
			assert_int_equal(*rig_texel(&a, 0, x, y), 0x5a);
			assert_int_equal(*rig_texel(&a, 2, x, y), 0x5a);
		}

	/* pass 2: reload, draw the top-left quarter green; the second target discarded */
	memset(b.bo.map, 0x77, b.bo.size);
	pass.colour[0].load = AGX_LOAD_RELOAD;
	pass.colour[1].store = AGX_STORE_DISCARD;
	rig_begin(&r, &rp, &pass);
	draw_rect(&r, &rp, &vs, &fs, -1, -1, 0, 0, green, w, h);
	draw_rect(&r, &rp, &vs, &fs, 0.5f, 0.5f, 1, 1, blue, w, h);
	assert_int_equal(rig_run(&r, &rp), 0);
	for (unsigned y = 0; y < h; y++)
		for (unsigned x = 0; x < w; x++) {
			uint32_t ta;
			const float *want = x < w / 2 && y < h / 2	       ? green
					    : x >= 3 * w / 4 && y >= 3 * h / 4 ? blue
					    : x >= w / 2		       ? red
									       : grey;

			memcpy(&ta, rig_texel(&a, 1, x, y), 4);
			assert_int_equal(ta, rgba8(want));
			assert_int_equal(*(const uint8_t *)rig_texel(&b, 0, x, y), 0x77);
		}

	/* pass 3: both to be stored, the second discarded after the draws (agx_render_discard) */
	memset(b.bo.map, 0x66, b.bo.size);
	pass.colour[1].store = AGX_STORE_STORE;
	rig_begin(&r, &rp, &pass);
	draw_rect(&r, &rp, &vs, &fs, -1, -1, 1, 1, blue, w, h);
	assert_int_equal(agx_render_discard(&rp, 1u << 1, false, false), 0);
	assert_int_equal(rig_run(&r, &rp), 0);
	for (unsigned y = 0; y < h; y++)
		for (unsigned x = 0; x < w; x++) {
			uint32_t ta;

			memcpy(&ta, rig_texel(&a, 1, x, y), 4);
			assert_int_equal(ta, rgba8(blue));
			assert_int_equal(*(const uint8_t *)rig_texel(&b, 0, x, y), 0x66);
		}
	agx_shader_binary_finish(&vs.bin);
	agx_shader_binary_finish(&fs.bin);
	agx_device_bo_close(r.dev, &a.bo);
	agx_device_bo_close(r.dev, &b.bo);
	rig_fini(&r);
}

/* --- eight targets ------------------------------------------------------------------------ */

static const enum agx_format eight[8] = {
	AGX_FORMAT_R8G8B8A8_UNORM, AGX_FORMAT_R8_UNORM,		 AGX_FORMAT_R16G16_FLOAT,
	AGX_FORMAT_R32_UINT,	   AGX_FORMAT_R10G10B10A2_UNORM, AGX_FORMAT_R11G11B10_FLOAT,
	AGX_FORMAT_R8G8B8A8_SRGB,  AGX_FORMAT_R16G16_SINT,
};

static const char eight_fs[] = "#version 300 es\n"
			       "precision highp float;\n"
			       "layout(location = 0) out vec4 o0;\n"
			       "layout(location = 1) out vec4 o1;\n"
			       "layout(location = 2) out vec4 o2;\n"
			       "layout(location = 3) out highp uvec4 o3;\n"
			       "layout(location = 4) out vec4 o4;\n"
			       "layout(location = 5) out vec4 o5;\n"
			       "layout(location = 6) out vec4 o6;\n"
			       "layout(location = 7) out highp ivec4 o7;\n"
			       "void main() {\n"
			       "  o0 = vec4(0.2, 0.4, 0.6, 0.8);\n"
			       "  o1 = vec4(0.7, 0.0, 0.0, 1.0);\n"
			       "  o2 = vec4(1.5, -2.25, 0.0, 1.0);\n"
			       "  o3 = uvec4(123456789u, 0u, 0u, 0u);\n"
			       "  o4 = vec4(0.1, 0.5, 0.9, 0.34);\n"
			       "  o5 = vec4(3.0, 0.125, 100.0, 1.0);\n"
			       "  o6 = vec4(0.5, 0.2, 0.9, 0.6);\n"
			       "  o7 = ivec4(-300, 32767, 0, 0);\n"
			       "}\n";

/* What each target's texel must be: the shader's value as agx/format.h packs it. */
static void eight_expected(unsigned i, uint8_t *out)
{
	static const float f[8][4] = {
		{ 0.2f, 0.4f, 0.6f, 0.8f },  { 0.7f, 0, 0, 1 },
		{ 1.5f, -2.25f, 0, 1 },	     { 0 },
		{ 0.1f, 0.5f, 0.9f, 0.34f }, { 3, 0.125f, 100, 1 },
		{ 0.5f, 0.2f, 0.9f, 0.6f },
	};
	const struct agx_format_info *fi = agx_format_info(eight[i]);

	memset(out, 0, 16);
	if (fi->kind == AGX_FORMAT_KIND_UINT)
		assert_true(agx_format_pack_uint(eight[i], (const uint32_t[4]){ 123456789u }, out));
	else if (fi->kind == AGX_FORMAT_KIND_SINT)
		assert_true(agx_format_pack_sint(eight[i], (const int32_t[4]){ -300, 32767 }, out));
	else
		assert_true(agx_format_pack_float(eight[i], f[i], out));
}

static void test_eight_targets(void **state)
{
	const unsigned w = 24, h = 20;
	struct rig r;
	struct shader vs, fs;
	struct image img[8];
	struct agx_render rp;
	struct agx_render_pass pass = { .width = w, .height = h, .num_colour = 8 };
	struct agx_compile_options fo = { 0 };
	const float none[4] = { 0 };

	rig_init(&r, *state);
	for (unsigned i = 0; i < 8; i++) {
		rig_image_init(&r, &img[i], eight[i], w, h, i % 2 == 0, 1, 0xcd);
		pass.colour[i] = rig_target(&img[i], 0, AGX_LOAD_CLEAR, AGX_STORE_STORE);
	}
	rig_begin(&r, &rp, &pass);
	print_message("# eight targets in %u bytes a pixel, tiles of %ux%u\n", rp.tib.sample_size,
		      rp.tib.tile_width, rp.tib.tile_height);
	agx_tilebuffer_compile_options(&rp.tib, &fo);
	rig_compile(&r, AGX_SHADER_VERTEX, rect_vs, NULL, &vs);
	rig_compile(&r, AGX_SHADER_FRAGMENT, eight_fs, &fo, &fs);
	/* the left half drawn; the right keeps the clear value, 0 */
	draw_rect(&r, &rp, &vs, &fs, -1, -1, 0, 1, none, w, h);
	assert_int_equal(rig_run(&r, &rp), 0);
	for (unsigned i = 0; i < 8; i++) {
		const struct agx_format_info *fi = agx_format_info(eight[i]);
		uint8_t want[16], zero[16] = { 0 };

		eight_expected(i, want);
		for (unsigned y = 0; y < h; y++)
			for (unsigned x = 0; x < w; x++) {
				const uint8_t *got = rig_texel(&img[i], 0, x, y);

				if (memcmp(got, x < w / 2 ? want : zero, fi->bytes))
					fail_msg("target %u (%s), pixel (%u, %u): %02x%02x%02x%02x",
						 i, fi->name, x, y, got[0], got[1], got[2], got[3]);
			}
		agx_device_bo_close(r.dev, &img[i].bo);
	}
	agx_shader_binary_finish(&vs.bin);
	agx_shader_binary_finish(&fs.bin);
	rig_fini(&r);
}

/* --- depth and stencil -------------------------------------------------------------------- */

static const char depth_vs[] = "#version 300 es\n"
			       "layout(location = 0) in vec3 pos;\n"
			       "void main() { gl_Position = vec4(pos, 1.0); }\n";

/*
 * Pass 1: the depth cleared to 0.75 and stored, three rectangles at depths
 * 0.5, 0.9 and 0.25 with LESS, the middle one failing; stencil cleared to
 * 7, each passing fragment incrementing it.  Pass 2 reloads both and
 * draws with EQUAL stencil where it is 8.
 */
static void test_depth_stencil(void **state)
{
	const unsigned w = 32, h = 32;
	struct rig r;
	struct shader vs, fs;
	struct image colour, depth, stencil;
	struct agx_render rp;
	struct agx_render_pass pass = { .width = w, .height = h, .num_colour = 1 };
	struct agx_compile_options fo = { 0 };
	struct agx_cf_binding cf[AGX_RENDER_MAX_CF];
	static uint32_t vu[64], fu[64];
	unsigned strides[1] = { 12 };
	/* window z; the vertices' NDC z are 2 * z - 1 */
	const struct {
		float x0, x1, z;
		float c[4];
	} rects[3] = { { -1, 0.5f, 0.5f, { 1, 0, 0, 1 } },
		       { -0.5f, 1, 0.9f, { 0, 1, 0, 1 } },
		       { 0, 1, 0.25f, { 0, 0, 1, 1 } } };

	rig_init(&r, *state);
	rig_image_init(&r, &colour, AGX_FORMAT_R8G8B8A8_UNORM, w, h, true, 1, 0);
	rig_image_init(&r, &depth, AGX_FORMAT_Z32_FLOAT, w, h, true, 1, 0);
	rig_image_init(&r, &stencil, AGX_FORMAT_S8_UINT, w, h, true, 1, 0);
	pass.colour[0] = rig_target(&colour, 0, AGX_LOAD_CLEAR, AGX_STORE_STORE);
	pass.depth = (struct agx_render_zs){ .surface = { .image = depth.image },
					     .load = AGX_LOAD_CLEAR,
					     .store = AGX_STORE_STORE,
					     .depth_clear = 0.75f };
	pass.stencil = (struct agx_render_zs){ .surface = { .image = stencil.image },
					       .load = AGX_LOAD_CLEAR,
					       .store = AGX_STORE_STORE,
					       .stencil_clear = 7 };
	rig_begin(&r, &rp, &pass);
	agx_tilebuffer_compile_options(&rp.tib, &fo);
	rig_compile(&r, AGX_SHADER_VERTEX, depth_vs, NULL, &vs);
	rig_compile(&r, AGX_SHADER_FRAGMENT, rect_fs, &fo, &fs);
	for (unsigned i = 0; i < 3; i++) {
		const float z = 2 * rects[i].z - 1;
		const float v[6][3] = { { rects[i].x0, -1, z }, { rects[i].x1, -1, z },
					{ rects[i].x1, 1, z },	{ rects[i].x0, -1, z },
					{ rects[i].x1, 1, z },	{ rects[i].x0, 1, z } };
		uint64_t attribs[1] = { rig_data(&r, v, sizeof(v)) };
		struct agx_render_draw d;

		rig_draw_init(&d, &vs, &fs, rig_vertex_stage(&vs, vu, attribs, strides), w, h, cf);
		rig_fs_colour(&d, &fs, fu, rects[i].c);
		d.state.depth_func = AGX_CMD_ZS_FUNC_LESS;
		d.state.depth_write = true;
		d.state.stencil = true;
		d.state.front = d.state.back =
		    (struct agx_ppp_stencil){ .read_mask = 0xff,
					      .write_mask = 0xff,
					      .compare = AGX_CMD_ZS_FUNC_ALWAYS,
					      .depth_pass = AGX_CMD_STENCIL_OP_INCR_SAT };
		d.draw = (struct agx_vdm_draw){ .primitive = AGX_CMD_PRIMITIVE_TRIANGLES,
						.count = 6,
						.instances = 1 };
		assert_int_equal(agx_render_draw(&rp, &d), 0);
	}
	assert_int_equal(rig_run(&r, &rp), 0);

	/* what each column must hold: the nearest rectangle passing, and how many passed */
	uint32_t col1[32];
	unsigned passed1[32];

	for (unsigned x = 0; x < w; x++) {
		double nx = (x + 0.5) / w * 2 - 1, z = 0.75;
		const float *c = NULL;
		unsigned passed = 0;

		for (unsigned i = 0; i < 3; i++) {
			double wz = rects[i].z;

			if (nx > rects[i].x0 && nx < rects[i].x1 && wz < z)
				z = wz, c = rects[i].c, passed++;
		}
		col1[x] = c ? rgba8(c) : 0;
		passed1[x] = passed;
		for (unsigned y = 0; y < h; y++) {
			uint32_t got;
			float gz;

			memcpy(&got, rig_texel(&colour, 0, x, y), 4);
			memcpy(&gz, rig_texel(&depth, 0, x, y), 4);
			assert_int_equal(got, col1[x]);
			assert_true(fabs(gz - z) < 1e-6);
			assert_int_equal(*rig_texel(&stencil, 0, x, y), 7 + passed);
		}
	}

	/* pass 2: both reloaded; a full-screen draw where the stencil is 8, behind nothing */
	pass.colour[0].load = AGX_LOAD_RELOAD;
	pass.depth.load = AGX_LOAD_RELOAD;
	pass.stencil.load = AGX_LOAD_RELOAD;
	rig_begin(&r, &rp, &pass);
	{
		/* window z 0.9 */
		const float v[6][3] = { { -1, -1, 0.8f }, { 1, -1, 0.8f }, { 1, 1, 0.8f },
					{ -1, -1, 0.8f }, { 1, 1, 0.8f },  { -1, 1, 0.8f } };
		const float white[4] = { 1, 1, 1, 1 };
		uint64_t attribs[1] = { rig_data(&r, v, sizeof(v)) };
		struct agx_render_draw d;

		rig_draw_init(&d, &vs, &fs, rig_vertex_stage(&vs, vu, attribs, strides), w, h, cf);
		rig_fs_colour(&d, &fs, fu, white);
		d.state.stencil = true;
		d.state.front = d.state.back =
		    (struct agx_ppp_stencil){ .ref = 8,
					      .read_mask = 0xff,
					      .write_mask = 0xff,
					      .compare = AGX_CMD_ZS_FUNC_EQUAL,
					      .depth_pass = AGX_CMD_STENCIL_OP_ZERO };
		d.draw = (struct agx_vdm_draw){ .primitive = AGX_CMD_PRIMITIVE_TRIANGLES,
						.count = 6,
						.instances = 1 };
		assert_int_equal(agx_render_draw(&rp, &d), 0);
	}
	assert_int_equal(rig_run(&r, &rp), 0);
	/* where the stencil was 8 it is zeroed and the colour white; elsewhere both as they were */
	for (unsigned x = 0; x < w; x++)
		for (unsigned y = 0; y < h; y++) {
			bool hit = 7 + passed1[x] == 8;
			uint32_t got;

			memcpy(&got, rig_texel(&colour, 0, x, y), 4);
			assert_int_equal(got, hit ? 0xffffffffu : col1[x]);
			assert_int_equal(*rig_texel(&stencil, 0, x, y), hit ? 0 : 7 + passed1[x]);
		}
	agx_shader_binary_finish(&vs.bin);
	agx_shader_binary_finish(&fs.bin);
	agx_device_bo_close(r.dev, &colour.bo);
	agx_device_bo_close(r.dev, &depth.bo);
	agx_device_bo_close(r.dev, &stencil.bo);
	rig_fini(&r);
}

/*
 * Tile programs kept across passes (agx_tile_programs): a second pass of
 * the same targets and operations takes all four of its programs from the
 * cache, with its own clear colour (a uniform, not code); a pass that
 * reloads finds its load program too (the earlier passes' partial reload
 * is the same code); a pass that discards builds a new store program.
 * Every image checked.
 */
static void test_program_cache(void **state)
{
	const unsigned w = 40, h = 24;
	const float c0[4] = { 1, 0, 0, 1 }, c1[4] = { 0, 0.5f, 1, 1 }, white[4] = { 1, 1, 1, 1 };
	struct agx_tile_programs cache;
	struct agx_render_pass pass = { .width = w, .height = h, .num_colour = 1 };
	struct agx_compile_options fo = { 0 };
	struct shader vs, fs;
	struct agx_render rp;
	struct image img;
	struct rig r;
	unsigned hits, misses;
	size_t at;

	rig_init(&r, *state);
	/* the cache in the code BO, past what shaders will take */
	at = CODE_SIZE / 2;
	assert_true(agx_tile_programs_init(&cache, (uint8_t *)r.code.map + at, r.code_va + at,
					   CODE_SIZE / 4));
	rig_image_init(&r, &img, AGX_FORMAT_R8G8B8A8_UNORM, w, h, true, 1, 0);
	pass.programs = &cache;
	for (unsigned k = 0; k < 4; k++) {
		const float *clear = k == 1 ? c1 : c0;

		pass.colour[0] = rig_target(&img, 0, k == 2 ? AGX_LOAD_RELOAD : AGX_LOAD_CLEAR,
					    k == 3 ? AGX_STORE_DISCARD : AGX_STORE_STORE);
		memcpy(pass.colour[0].clear.f, clear, 16);
		hits = cache.hits, misses = cache.misses;
		rig_begin(&r, &rp, &pass);
		if (k == 1 || k == 2) {
			assert_int_equal(cache.hits, hits + 4);
			assert_int_equal(cache.misses, misses);
		} else if (k == 3) {
			assert_int_equal(cache.misses, misses + 1);
		}
		if (k == 2) {
			agx_tilebuffer_compile_options(&rp.tib, &fo);
			rig_compile(&r, AGX_SHADER_VERTEX, rect_vs, NULL, &vs);
			rig_compile(&r, AGX_SHADER_FRAGMENT, rect_fs, &fo, &fs);
			draw_rect(&r, &rp, &vs, &fs, -0.5f, -0.5f, 0.5f, 0.5f, white, w, h);
		}
		assert_int_equal(rig_run(&r, &rp), 0);
		for (unsigned y = 0; y < h; y++)
			for (unsigned x = 0; x < w; x++) {
				/* the rectangle on the second clear; the discarding pass changes
				 * nothing */
				bool in = k >= 2 && x >= w / 4 && x < 3 * w / 4 && y >= h / 4 &&
					  y < 3 * h / 4;
				uint32_t got;

				memcpy(&got, rig_texel(&img, 0, x, y), 4);
				assert_int_equal(got, rgba8(in ? white : k >= 2 ? c1 : clear));
			}
	}
	print_message("# %u programs built, %u taken from the cache\n", cache.misses, cache.hits);
	agx_shader_binary_finish(&vs.bin);
	agx_shader_binary_finish(&fs.bin);
	agx_tile_programs_finish(&cache);
	agx_device_bo_close(r.dev, &img.bo);
	rig_fini(&r);
}

/*
 * Occlusion results per pass: counting queries add the samples that
 * passed the depth test (to what the counter held), boolean ones set 1
 * where any did; a draw that fails everywhere adds nothing.  The depth is
 * cleared to 0.5 and tested with LESS.
 */
static void test_occlusion(void **state)
{
	const unsigned w = 32, h = 32;
	static uint32_t vu[64], fu[64];
	const float red[4] = { 1, 0, 0, 1 };
	struct agx_render_pass pass = { .width = w, .height = h, .num_colour = 1 };
	struct agx_compile_options fo = { 0 };
	struct agx_cf_binding cf[AGX_RENDER_MAX_CF];
	struct image colour, depth;
	struct shader vs, fs;
	struct agx_render rp;
	struct rig r;
	/* pixels (x0, y0, x1, y1), window z, query and its mode */
	const struct {
		unsigned x0, y0, x1, y1;
		float z;
		unsigned query, mode;
	} boxes[] = {
		{ 0, 0, 16, 16, 0.25f, 0, AGX_CMD_VISIBILITY_MODE_COUNTING }, /* 256 pass */
		{ 8, 8, 16, 16, 0.75f, 1, AGX_CMD_VISIBILITY_MODE_COUNTING }, /* behind: none */
		{ 20, 20, 24, 24, 0.25f, 2, AGX_CMD_VISIBILITY_MODE_BOOLEAN },
		{ 20, 0, 28, 8, 0.75f, 3, AGX_CMD_VISIBILITY_MODE_BOOLEAN },   /* behind */
		{ 16, 16, 24, 20, 0.1f, 0, AGX_CMD_VISIBILITY_MODE_COUNTING }, /* 32 more */
		{ 0, 0, 4, 4, 0.2f, 0, AGX_CMD_VISIBILITY_MODE_COUNTING }, /* 16, over the first */
	};
	const uint64_t preset[4] = { 0, 100, 0, 0 }, want[4] = { 256 + 32 + 16, 100, 1, 0 };
	uint64_t results;

	rig_init(&r, *state);
	rig_image_init(&r, &colour, AGX_FORMAT_R8G8B8A8_UNORM, w, h, true, 1, 0);
	rig_image_init(&r, &depth, AGX_FORMAT_Z32_FLOAT, w, h, true, 1, 0);
	pass.colour[0] = rig_target(&colour, 0, AGX_LOAD_CLEAR, AGX_STORE_STORE);
	pass.depth = (struct agx_render_zs){ .surface = { .image = depth.image },
					     .load = AGX_LOAD_CLEAR,
					     .store = AGX_STORE_DISCARD,
					     .depth_clear = 0.5f };
	results = rig_data(&r, preset, sizeof(preset));
	pass.visibility = results;
	pass.visibility_count = 4;
	rig_begin(&r, &rp, &pass);
	agx_tilebuffer_compile_options(&rp.tib, &fo);
	rig_compile(&r, AGX_SHADER_VERTEX, depth_vs, NULL, &vs);
	rig_compile(&r, AGX_SHADER_FRAGMENT, rect_fs, &fo, &fs);
	for (unsigned i = 0; i < sizeof(boxes) / sizeof(boxes[0]); i++) {
		float x0 = (float)boxes[i].x0 / w * 2 - 1, x1 = (float)boxes[i].x1 / w * 2 - 1;
		float y0 = (float)boxes[i].y0 / h * 2 - 1, y1 = (float)boxes[i].y1 / h * 2 - 1;
		float z = 2 * boxes[i].z - 1; /* NDC of the window z */
		const float v[6][3] = { { x0, y0, z }, { x1, y0, z }, { x1, y1, z },
					{ x0, y0, z }, { x1, y1, z }, { x0, y1, z } };
		uint64_t attribs[1] = { rig_data(&r, v, sizeof(v)) };
		unsigned strides[1] = { 12 };
		struct agx_render_draw d;

		rig_draw_init(&d, &vs, &fs, rig_vertex_stage(&vs, vu, attribs, strides), w, h, cf);
		rig_fs_colour(&d, &fs, fu, red);
		d.state.depth_func = AGX_CMD_ZS_FUNC_LESS;
		d.state.visibility = boxes[i].mode;
		d.state.query = boxes[i].query;
		d.draw = (struct agx_vdm_draw){ .primitive = AGX_CMD_PRIMITIVE_TRIANGLES,
						.count = 6,
						.instances = 1 };
		assert_int_equal(agx_render_draw(&rp, &d), 0);
	}
	assert_int_equal(rig_run(&r, &rp), 0);
	for (unsigned q = 0; q < 4; q++) {
		uint64_t got;

		memcpy(&got, (uint8_t *)r.data.map + (results - r.data_va) + 8 * q, 8);
		if (got != want[q])
			fail_msg("query %u: %llu, not %llu", q, (unsigned long long)got,
				 (unsigned long long)want[q]);
	}
	agx_shader_binary_finish(&vs.bin);
	agx_shader_binary_finish(&fs.bin);
	agx_device_bo_close(r.dev, &colour.bo);
	agx_device_bo_close(r.dev, &depth.bo);
	rig_fini(&r);
}

/*
 * Eight RGBA32F targets, 128 bytes a pixel: four in the tilebuffer's 64,
 * four spilled to memory, which the shader writes with image_write and
 * reads back (texture_load) to blend and to keep masked components.  The
 * spilled ones: cleared; reloaded (their memory as it was); cleared and
 * blended ONE, ONE; cleared with green and alpha masked.  A discard on
 * the left columns must keep every target's pixels there as loaded,
 * spilled ones too, and the 24x20 pass (tiles of 16x16) must not write
 * past its edge.
 */
static const char spill_fs[] = "#version 300 es\n"
			       "precision highp float;\n"
			       "layout(location = 0) out vec4 o0;\n"
			       "layout(location = 1) out vec4 o1;\n"
			       "layout(location = 2) out vec4 o2;\n"
			       "layout(location = 3) out vec4 o3;\n"
			       "layout(location = 4) out vec4 o4;\n"
			       "layout(location = 5) out vec4 o5;\n"
			       "layout(location = 6) out vec4 o6;\n"
			       "layout(location = 7) out vec4 o7;\n"
			       "void main() {\n"
			       "  vec4 c = vec4(floor(gl_FragCoord.xy), 1.0, 2.0);\n"
			       "  if (gl_FragCoord.x < 4.0) discard;\n"
			       "  o0 = c; o1 = c + 1.0; o2 = c + 2.0; o3 = c + 3.0;\n"
			       "  o4 = c + 4.0; o5 = c + 5.0; o6 = c + 6.0; o7 = c + 7.0;\n"
			       "}\n";

static void test_spilled_targets(void **state)
{
	const unsigned w = 24, h = 20, iw = 32, ih = 24; /* the images are larger than the pass */
	static uint32_t vu[64];
	struct agx_render_pass pass = { .width = w, .height = h, .num_colour = 8 };
	struct agx_compile_options fo = { 0 };
	struct image img[8];
	struct shader vs, fs;
	struct agx_render rp;
	struct agx_render_draw d;
	struct agx_cf_binding cf[AGX_RENDER_MAX_CF];
	uint8_t tex[16][AGX_TEXTURE_LENGTH] = { { 0 } }, smp[16][AGX_SAMPLER_LENGTH] = { { 0 } };
	const float v[6][2] = { { -1, -1 }, { 1, -1 }, { 1, 1 }, { -1, -1 }, { 1, 1 }, { -1, 1 } };
	uint64_t attribs[1];
	unsigned strides[1] = { 8 }, spilled = 0;
	struct rig r;

	rig_init(&r, *state);
	for (unsigned i = 0; i < 8; i++) {
		rig_image_init(&r, &img[i], AGX_FORMAT_R32G32B32A32_FLOAT, iw, ih, true, 1, 0);
		pass.colour[i] = rig_target(&img[i], 0, i == 5 ? AGX_LOAD_RELOAD : AGX_LOAD_CLEAR,
					    AGX_STORE_STORE);
		for (unsigned c = 0; c < 4; c++)
			pass.colour[i].clear.f[c] = 0.5f * (float)(i + c);
	}
	/* the reloaded one, and what lies past the pass in all of them: 9.0 */
	for (unsigned i = 0; i < 8; i++)
		for (unsigned y = 0; y < ih; y++)
			for (unsigned x = 0; x < iw; x++)
				if (i == 5 || x >= w || y >= h)
					for (unsigned c = 0; c < 4; c++)
						memcpy((uint8_t *)rig_texel(&img[i], 0, x, y) +
							   4 * c,
						       &(float){ 9.0f }, 4);
	rig_begin(&r, &rp, &pass);
	for (unsigned i = 0; i < 8; i++)
		spilled += rp.tib.rt[i].spilled;
	assert_int_equal(spilled, 4);
	assert_int_equal(rp.tib.sample_size, 64);
	agx_tilebuffer_compile_options(&rp.tib, &fo);
	fo.rt[6].blend = (struct agx_blend_rt){ .enable = true,
						.rgb_src = AGX_BLEND_ONE,
						.rgb_dst = AGX_BLEND_ONE,
						.alpha_src = AGX_BLEND_ONE,
						.alpha_dst = AGX_BLEND_ONE };
	fo.rt[7].keep = 0xa; /* green and alpha */
	rig_compile(&r, AGX_SHADER_VERTEX, rect_vs, NULL, &vs);
	rig_compile(&r, AGX_SHADER_FRAGMENT, spill_fs, &fo, &fs);
	assert_true(fs.bin.info.spill_textures >= 0);
	for (unsigned i = 0, k = 0; i < 8; i++)
		if (rp.tib.rt[i].spilled) {
			unsigned at = (unsigned)fs.bin.info.spill_textures + k++;

			assert_true(at < 16);
			assert_true(agx_render_spill_state(&rp, i, tex[at], smp[at]));
		} else {
			assert_false(agx_render_spill_state(&rp, i, tex[0], smp[0]));
		}
	attribs[0] = rig_data(&r, v, sizeof(v));
	rig_draw_init(&d, &vs, &fs, rig_vertex_stage(&vs, vu, attribs, strides), w, h, cf);
	d.fs.textures = rig_data(&r, tex, sizeof(tex));
	d.fs.samplers = rig_data(&r, smp, sizeof(smp));
	d.fs.num_textures = d.fs.num_samplers = fs.bin.info.num_textures;
	d.draw = (struct agx_vdm_draw){ .primitive = AGX_CMD_PRIMITIVE_TRIANGLES,
					.count = 6,
					.instances = 1 };
	assert_int_equal(agx_render_draw(&rp, &d), 0);
	assert_int_equal(rig_run(&r, &rp), 0);

	for (unsigned i = 0; i < 8; i++)
		for (unsigned y = 0; y < ih; y++)
			for (unsigned x = 0; x < iw; x++)
				for (unsigned c = 0; c < 4; c++) {
					float cl = pass.colour[i].clear.f[c], got, want;
					float src = (c == 0   ? (float)x
						     : c == 1 ? (float)y
						     : c == 2 ? 1.0f
							      : 2.0f) +
						    (float)i;
					float loaded = i == 5 ? 9.0f : cl;

					memcpy(&got, rig_texel(&img[i], 0, x, y) + 4 * c, 4);
					/*
					 * past the pass: a spilled target untouched (the tile
					 * targets' PBE stores write whole tiles there)
					 */
					if (x >= w || y >= h) {
						if (!rp.tib.rt[i].spilled)
							continue;
						want = 9.0f;
					} else if (x < 4)
						want = loaded; /* discarded */
					else if (i == 6)
						want = cl + src;
					else if (i == 7 && (c == 1 || c == 3))
						want = cl;
					else
						want = src;
					if (got != want)
						fail_msg(
						    "target %u%s (%u, %u) component %u: %g, not %g",
						    i, rp.tib.rt[i].spilled ? " (spilled)" : "", x,
						    y, c, got, want);
				}
	agx_shader_binary_finish(&vs.bin);
	agx_shader_binary_finish(&fs.bin);
	for (unsigned i = 0; i < 8; i++)
		agx_device_bo_close(r.dev, &img[i].bo);
	rig_fini(&r);
}

/*
 * Every depth function and stencil operation, both faces with their own
 * state, read and write masks, depth writes on and off, in Z32F and Z16:
 * random depth and stencil buffers are reloaded, and 64 rectangles each
 * cover a 4x4 block with their own state (round-robin over the
 * functions and operations, so every one occurs), half of them turned to
 * show their back.  Each pixel's stored depth and stencil against a CPU
 * model of GLES 3.0 section 4.1.4 and 4.1.5.
 */
/* GL's functions by how a compares with b: less, equal, greater (NEVER .. ALWAYS in order) */
static bool zs_compare(unsigned func, double a, double b)
{
	static const bool passes[8][3] = { { 0, 0, 0 }, { 1, 0, 0 }, { 0, 1, 0 }, { 1, 1, 0 },
					   { 0, 0, 1 }, { 1, 0, 1 }, { 0, 1, 1 }, { 1, 1, 1 } };

	return passes[func & 7][a < b ? 0 : a == b ? 1 : 2];
}

/* KEEP, ZERO, REPLACE, INCR (saturating), DECR (saturating), INVERT, INCR_WRAP, DECR_WRAP */
static uint8_t stencil_apply(unsigned op, uint8_t v, uint8_t ref)
{
	const int result[8] = { v,
				0,
				ref,
				v < 255 ? v + 1 : 255,
				v > 0 ? v - 1 : 0,
				255 - v,
				(v + 1) % 256,
				(v + 255) % 256 };

	return (uint8_t)result[op & 7];
}

static void test_depth_stencil_rules(void **state)
{
	const unsigned w = 32, h = 32;
	static uint32_t vu[64], fu[64];
	static float zbuf[32 * 32];
	static uint8_t sbuf[32 * 32];
	const float white[4] = { 1, 1, 1, 1 };
	struct rig r;

	rig_init(&r, *state);
	for (unsigned z16 = 0; z16 < 2; z16++) {
		enum agx_format zf = z16 ? AGX_FORMAT_Z16_UNORM : AGX_FORMAT_Z32_FLOAT;
		struct agx_render_pass pass = { .width = w, .height = h, .num_colour = 1 };
		struct agx_compile_options fo = { 0 };
		struct agx_cf_binding cf[AGX_RENDER_MAX_CF];
		struct image colour, depth, stencil;
		struct agx_ppp_stencil faces[64][2];
		unsigned depth_func[64];
		bool depth_write[64], back[64];
		float zs[64];
		struct shader vs, fs;
		struct agx_render rp;

		r.code_used = r.data_used = 0;
		rig_image_init(&r, &colour, AGX_FORMAT_R8G8B8A8_UNORM, w, h, true, 1, 0);
		rig_image_init(&r, &depth, zf, w, h, true, 1, 0);
		rig_image_init(&r, &stencil, AGX_FORMAT_S8_UINT, w, h, true, 1, 0);
		/* the buffers to start from: depths among the rectangles' own, random stencils */
		for (unsigned y = 0; y < h; y++)
			for (unsigned x = 0; x < w; x++) {
				uint8_t *zt = (uint8_t *)rig_texel(&depth, 0, x, y);
				float z = (float)rnd(5) / 4; /* 0, 0.25, 0.5, 0.75, 1 */

				assert_true(agx_format_pack_depth(zf, z, zt));
				assert_true(agx_format_unpack_depth(zf, zt, &zbuf[y * w + x]));
				sbuf[y * w + x] = (uint8_t)rnd(256);
				*(uint8_t *)rig_texel(&stencil, 0, x, y) = sbuf[y * w + x];
			}
		pass.colour[0] = rig_target(&colour, 0, AGX_LOAD_CLEAR, AGX_STORE_STORE);
		pass.depth = (struct agx_render_zs){ .surface = { .image = depth.image },
						     .load = AGX_LOAD_RELOAD,
						     .store = AGX_STORE_STORE };
		pass.stencil = (struct agx_render_zs){ .surface = { .image = stencil.image },
						       .load = AGX_LOAD_RELOAD,
						       .store = AGX_STORE_STORE };
		rig_begin(&r, &rp, &pass);
		agx_tilebuffer_compile_options(&rp.tib, &fo);
		rig_compile(&r, AGX_SHADER_VERTEX, depth_vs, NULL, &vs);
		rig_compile(&r, AGX_SHADER_FRAGMENT, rect_fs, &fo, &fs);
		for (unsigned i = 0; i < 64; i++) {
			unsigned bx = i % 8 * 4, by = i / 8 * 4;
			float x0 = (float)bx / w * 2 - 1, x1 = (float)(bx + 4) / w * 2 - 1;
			float y0 = (float)by / h * 2 - 1, y1 = (float)(by + 4) / h * 2 - 1, z;
			uint64_t attribs[1];
			unsigned strides[1] = { 12 };
			struct agx_render_draw d;

			zs[i] = (float)(1 + rnd(3)) / 4;
			z = 2 * zs[i] - 1;
			back[i] = i % 2;
			depth_func[i] = i % 8;
			depth_write[i] = (i / 8) % 2;
			for (unsigned f = 0; f < 2; f++)
				faces[i][f] = (struct agx_ppp_stencil){
					.ref = (uint8_t)rnd(256),
					.read_mask = rnd(4) ? 0xff : (uint8_t)rnd(256),
					.write_mask = rnd(4) ? 0xff : (uint8_t)rnd(256),
					.compare = (i / 8 + 3 * f) % 8,
					.stencil_fail = (i + f) % 8,
					.depth_fail = (i + 3 + f) % 8,
					.depth_pass = (i * 5 + f) % 8,
				};
			/* a back-facing rectangle is the same one wound the other way */
			const float fv[6][3] = { { x0, y0, z }, { x1, y0, z }, { x1, y1, z },
						 { x0, y0, z }, { x1, y1, z }, { x0, y1, z } };
			const float bv[6][3] = { { x0, y0, z }, { x1, y1, z }, { x1, y0, z },
						 { x0, y0, z }, { x0, y1, z }, { x1, y1, z } };

			attribs[0] = rig_data(&r, back[i] ? bv : fv, sizeof(fv));
			rig_draw_init(&d, &vs, &fs, rig_vertex_stage(&vs, vu, attribs, strides), w,
				      h, cf);
			rig_fs_colour(&d, &fs, fu, white);
			d.state.front_ccw = false; /* clockwise on the y-down screen is the front */
			d.state.depth_func = depth_func[i];
			d.state.depth_write = depth_write[i];
			d.state.stencil = true;
			d.state.front = faces[i][0];
			d.state.back = faces[i][1];
			d.draw = (struct agx_vdm_draw){ .primitive = AGX_CMD_PRIMITIVE_TRIANGLES,
							.count = 6,
							.instances = 1 };
			assert_int_equal(agx_render_draw(&rp, &d), 0);
		}
		assert_int_equal(rig_run(&r, &rp), 0);

		for (unsigned y = 0; y < h; y++)
			for (unsigned x = 0; x < w; x++) {
				unsigned i = (y / 4) * 8 + x / 4;
				const struct agx_ppp_stencil *st = &faces[i][back[i]];
				uint8_t sv = sbuf[y * w + x], rm = st->read_mask, op;
				/* a fixed-point buffer compares at its own precision
				 * (section 2.13.1) */
				float zv = zbuf[y * w + x], gz, wz = zv,
				      zfrag = z16 ? (float)(nearbyint(zs[i] * 65535.0) / 65535.0)
						  : zs[i];
				bool spass = zs_compare(st->compare, st->ref & rm, sv & rm);
				bool zpass = spass && zs_compare(depth_func[i], zfrag, zv);
				uint8_t ws, gs;

				op = !spass   ? st->stencil_fail
				     : !zpass ? st->depth_fail
					      : st->depth_pass;
				ws = (uint8_t)((sv & ~st->write_mask) |
					       (stencil_apply(op, sv, st->ref) & st->write_mask));
				if (zpass && depth_write[i])
					wz = zfrag;
				gs = *rig_texel(&stencil, 0, x, y);
				assert_true(
				    agx_format_unpack_depth(zf, rig_texel(&depth, 0, x, y), &gz));
				if (gs != ws || fabsf(gz - wz) > (z16 ? 1e-6f : 0))
					fail_msg(
					    "%s (%u, %u), %s face: stencil %u, not %u (was %u, ref "
					    "%u, masks %x %x, func %u, ops %u %u %u); depth %g, "
					    "not "
					    "%g (was %g, func %u against %g, write %d)",
					    z16 ? "z16" : "z32f", x, y, back[i] ? "back" : "front",
					    gs, ws, sv, st->ref, st->read_mask, st->write_mask,
					    st->compare, st->stencil_fail, st->depth_fail,
					    st->depth_pass, gz, wz, zv, depth_func[i], zs[i],
					    depth_write[i]);
			}
		agx_shader_binary_finish(&vs.bin);
		agx_shader_binary_finish(&fs.bin);
		agx_device_bo_close(r.dev, &colour.bo);
		agx_device_bo_close(r.dev, &depth.bo);
		agx_device_bo_close(r.dev, &stencil.bo);
	}
	rig_fini(&r);
}

/*
 * A render that faults loses its queue's context, and only that: the
 * queue reports the guilty reset and refuses more work with -ECANCELED,
 * while the device, and a second queue of the same client, go on and
 * render correctly (GL's robustness: one context lost, not the process).
 */
static void test_context_loss(void **state)
{
	const unsigned w = 16, h = 16;
	static uint32_t vu[64], fu[64];
	const float green[4] = { 0, 1, 0, 1 };
	const float v[6][2] = { { -1, -1 }, { 1, -1 }, { 1, 1 }, { -1, -1 }, { 1, 1 }, { -1, 1 } };
	struct agx_render_pass pass = { .width = w, .height = h, .num_colour = 1 };
	struct agx_compile_options fo = { 0 };
	struct agx_cf_binding cf[AGX_RENDER_MAX_CF];
	struct agx_sched_cmd cmd = { .kind = AGX_SCHED_CMD_RENDER };
	enum agx_queue_status st;
	struct shader vs, fs;
	struct agx_render rp;
	struct agx_render_draw d;
	struct image img;
	struct rig r;
	uint32_t guilty;

	rig_init(&r, *state);
	rig_image_init(&r, &img, AGX_FORMAT_R8G8B8A8_UNORM, w, h, true, 1, 0);
	pass.colour[0] = rig_target(&img, 0, AGX_LOAD_CLEAR, AGX_STORE_STORE);
	for (unsigned k = 0; k < 2; k++) {
		/* first on a queue of its own with its vertices where nothing is mapped */
		uint64_t attribs[1] = { k ? rig_data(&r, v, sizeof(v)) : 0x7f0000000ull };
		unsigned strides[1] = { 8 };

		if (k == 0) {
			guilty = r.queue;
		} else {
			assert_int_equal(
			    agx_device_queue_create(r.dev, r.vm, AGX_PRIORITY_NORMAL, &r.queue), 0);
		}
		rig_begin(&r, &rp, &pass);
		if (k == 0) {
			agx_tilebuffer_compile_options(&rp.tib, &fo);
			rig_compile(&r, AGX_SHADER_VERTEX, rect_vs, NULL, &vs);
			rig_compile(&r, AGX_SHADER_FRAGMENT, rect_fs, &fo, &fs);
		}
		rig_draw_init(&d, &vs, &fs, rig_vertex_stage(&vs, vu, attribs, strides), w, h, cf);
		rig_fs_colour(&d, &fs, fu, green);
		d.draw = (struct agx_vdm_draw){ .primitive = AGX_CMD_PRIMITIVE_TRIANGLES,
						.count = 6,
						.instances = 1 };
		assert_int_equal(agx_render_draw(&rp, &d), 0);
		if (k == 0) {
			assert_int_equal(rig_run(&r, &rp), -EFAULT);
			assert_int_equal(agx_device_queue_status(r.dev, guilty, &st), 0);
			assert_int_equal(st, AGX_QUEUE_GUILTY_RESET);
			/* more work on it is refused, and nothing else is lost */
			assert_int_equal(agx_render_end(&rp, &cmd.render), 0);
			assert_int_equal(
			    agx_device_submit(r.dev, guilty, &cmd, 1, NULL, 0, NULL, 0),
			    -ECANCELED);
			assert_false(agx_device_is_lost(r.dev));
			continue;
		}
		assert_int_equal(rig_run(&r, &rp), 0);
		for (unsigned y = 0; y < h; y++)
			for (unsigned x = 0; x < w; x++) {
				uint32_t got;

				memcpy(&got, rig_texel(&img, 0, x, y), 4);
				assert_int_equal(got, rgba8(green));
			}
	}
	assert_int_equal(agx_device_queue_status(r.dev, r.queue, &st), 0);
	assert_int_equal(st, AGX_QUEUE_OK);
	assert_int_equal(agx_device_queue_destroy(r.dev, guilty), 0);
	agx_shader_binary_finish(&vs.bin);
	agx_shader_binary_finish(&fs.bin);
	agx_device_bo_close(r.dev, &img.bo);
	rig_fini(&r);
}

/*
 * Targets that are one face of a cube at a level past the first, and one
 * slice of a 3D image: the pass's pixels land in that face's level and
 * that slice, and every other face, level and slice keeps its bytes.
 */
static void test_faces_and_slices(void **state)
{
	const float c0[4] = { 1, 0, 0, 1 }, c1[4] = { 0, 0, 1, 1 }, white[4] = { 1, 1, 1, 1 };
	struct agx_layout cube_l = { .twiddled = true,
				     .bytes_per_texel = 4,
				     .block_w = 1,
				     .block_h = 1,
				     .width = 16,
				     .height = 16,
				     .levels = 2 },
			  vol_l = { .twiddled = true,
				    .bytes_per_texel = 4,
				    .block_w = 1,
				    .block_h = 1,
				    .width = 8,
				    .height = 8,
				    .levels = 1 };
	struct agx_render_pass pass = { .width = 8, .height = 8, .num_colour = 2 };
	struct agx_compile_options fo = { 0 };
	struct agx_bo cube_bo, vol_bo;
	uint64_t cube_va, vol_va;
	struct shader vs, fs;
	struct agx_render rp;
	struct rig r;

	rig_init(&r, *state);
	assert_true(agx_layout_init(&cube_l) && agx_layout_init(&vol_l));
	rig_map(&r, &cube_bo, (6 * cube_l.layer_stride + 0x3fff) & ~0x3fffull,
		AGX_BIND_READ | AGX_BIND_WRITE, &cube_va);
	rig_map(&r, &vol_bo, (4 * vol_l.layer_stride + 0x3fff) & ~0x3fffull,
		AGX_BIND_READ | AGX_BIND_WRITE, &vol_va);
	memset(cube_bo.map, 0xab, cube_bo.size);
	memset(vol_bo.map, 0xab, vol_bo.size);
	pass.colour[0] = (struct agx_render_target){
		.surface = { .image = { .format = AGX_FORMAT_R8G8B8A8_UNORM,
					.dim = AGX_IMAGE_CUBE,
					.layout = &cube_l,
					.address = cube_va,
					.depth = 1 },
			     .level = 1,
			     .layer = 4 },
		.load = AGX_LOAD_CLEAR,
		.store = AGX_STORE_STORE,
	};
	pass.colour[1] = (struct agx_render_target){
		.surface = { .image = { .format = AGX_FORMAT_R8G8B8A8_UNORM,
					.dim = AGX_IMAGE_3D,
					.layout = &vol_l,
					.address = vol_va,
					.depth = 4 },
			     .layer = 2 },
		.load = AGX_LOAD_CLEAR,
		.store = AGX_STORE_STORE,
	};
	memcpy(pass.colour[0].clear.f, c0, 16);
	memcpy(pass.colour[1].clear.f, c1, 16);
	rig_begin(&r, &rp, &pass);
	agx_tilebuffer_compile_options(&rp.tib, &fo);
	rig_compile(&r, AGX_SHADER_VERTEX, rect_vs, NULL, &vs);
	rig_compile(&r, AGX_SHADER_FRAGMENT, rect_fs, &fo, &fs);
	/* rect_fs writes the colour to both (wzyx to the second): white either way */
	draw_rect(&r, &rp, &vs, &fs, -1, -1, 0, 0, white, 8, 8);
	assert_int_equal(rig_run(&r, &rp), 0);

	for (unsigned face = 0; face < 6; face++)
		for (unsigned lv = 0; lv < 2; lv++)
			for (unsigned y = 0; y < (16u >> lv); y++)
				for (unsigned x = 0; x < (16u >> lv); x++) {
					uint32_t got, want = 0xabababab;

					memcpy(&got,
					       (uint8_t *)cube_bo.map +
						   agx_layout_texel(&cube_l, lv, face, x, y),
					       4);
					if (face == 4 && lv == 1)
						want = rgba8(x < 4 && y < 4 ? white : c0);
					if (got != want)
						fail_msg(
						    "cube face %u level %u (%u, %u): 0x%08x, not "
						    "0x%08x",
						    face, lv, x, y, got, want);
				}
	for (unsigned z = 0; z < 4; z++)
		for (unsigned y = 0; y < 8; y++)
			for (unsigned x = 0; x < 8; x++) {
				uint32_t got, want = 0xabababab;

				memcpy(&got,
				       (uint8_t *)vol_bo.map + agx_layout_texel(&vol_l, 0, z, x, y),
				       4);
				if (z == 2)
					want = rgba8(x < 4 && y < 4 ? white : c1);
				if (got != want)
					fail_msg("3D slice %u (%u, %u): 0x%08x, not 0x%08x", z, x,
						 y, got, want);
			}
	agx_shader_binary_finish(&vs.bin);
	agx_shader_binary_finish(&fs.bin);
	agx_device_bo_close(r.dev, &cube_bo);
	agx_device_bo_close(r.dev, &vol_bo);
	rig_fini(&r);
}

/* --- partial renders ---------------------------------------------------------------------------
 */

/*
 * A million small triangles (a hundred thousand in the sanitizer build)
 * through a 64 KiB TVB heap, in partial renders, and then in one pass
 * through the heap the firmware asked for: the same image, exactly.  Each
 * triangle writes its own id, so the image shows drawing order too.
 */
static void test_partial_renders(void **state)
{
	const unsigned w = 64, h = 64, tris = SANITIZED ? 20000 : 1000000;
	const unsigned verts = tris + 2;
	struct rig r;
	struct shader vs, fs;
	struct image small, large;
	struct agx_render rp;
	struct agx_render_pass pass = { .width = w, .height = h, .num_colour = 1 };
	struct agx_compile_options fo = { 0 };
	struct agx_cf_binding cf[AGX_RENDER_MAX_CF];
	struct agx_render_draw d;
	uint32_t vu[64], heap_size;
	unsigned strides[2] = { 12, 12 };
	uint64_t attribs[2], wanted = 0, heap_va, again = 0;
	float *v = malloc(verts * 12ull);
	struct agx_bo vbo;
	unsigned differ = 0, drawn = 0;

	rig_init(&r, *state);
	rig_image_init(&r, &small, AGX_FORMAT_R32_UINT, w, h, true, 1, 0);
	rig_image_init(&r, &large, AGX_FORMAT_R32_UINT, w, h, true, 1, 0);
	/* a strip walking the rows, each triangle about a pixel, its id from its last vertex */
	for (unsigned i = 0; i < verts; i++) {
		unsigned step = i / 2, row = step / 80 % (h / 2);
		float x = (float)(step % 80) * (float)w / 80 + (float)rnd(100) / 100;
		float y = (float)(2 * row + (i & 1)) + (float)rnd(100) / 200;

		v[3 * i] = x / (w / 2.0f) - 1;
		v[3 * i + 1] = y / (h / 2.0f) - 1;
		v[3 * i + 2] = (float)(i % 1000000 + 1);
	}
	rig_map(&r, &vbo, (verts * 12ull + 0x3fff) & ~0x3fffull, AGX_BIND_READ, &attribs[0]);
	memcpy(vbo.map, v, verts * 12ull);
	attribs[1] = attribs[0] + 8;
	rig_compile(&r, AGX_SHADER_VERTEX, corpus_vs, NULL, &vs);

	for (unsigned run_no = 0; run_no < 2; run_no++) {
		struct image *img = run_no ? &large : &small;

		pass.colour[0] = rig_target(img, 0, AGX_LOAD_CLEAR, AGX_STORE_STORE);
		rig_begin(&r, &rp, &pass);
		if (!run_no) {
			pass.tvb_size = 64 << 10; /* the first 64 KiB of the queue's heap */
			assert_int_equal(agx_render_begin(&rp, r.pass.map, r.pass_va, PASS_SIZE,
							  r.usc_base, &pass),
					 0);
			agx_tilebuffer_compile_options(&rp.tib, &fo);
			rig_compile(&r, AGX_SHADER_FRAGMENT, corpus_fs, &fo, &fs);
		}
		rig_draw_init(&d, &vs, &fs, rig_vertex_stage(&vs, vu, attribs, strides), w, h, cf);
		d.draw = (struct agx_vdm_draw){ .primitive = AGX_CMD_PRIMITIVE_TRIANGLE_STRIP,
						.count = verts,
						.instances = 1 };
		assert_int_equal(agx_render_draw(&rp, &d), 0);
		assert_int_equal(rig_run(&r, &rp), 0);
		assert_int_equal(
		    agx_device_queue_tvb_wanted(r.dev, r.queue, run_no ? &again : &wanted), 0);
		if (!run_no) {
			/* the device grows the queue's heap to what the firmware asked */
			assert_true(wanted > 64 << 10);
			assert_int_equal(agx_device_queue_tvb(r.dev, r.queue, &heap_va, &heap_size),
					 0);
			assert_true(heap_size >= wanted);
		}
	}
	/* the second render fitted: it asked for nothing more */
	assert_int_equal(again, wanted);
	for (unsigned y = 0; y < h; y++)
		for (unsigned x = 0; x < w; x++) {
			uint32_t a, b;

			memcpy(&a, rig_texel(&small, 0, x, y), 4);
			memcpy(&b, rig_texel(&large, 0, x, y), 4);
			differ += a != b;
			drawn += b != 0;
		}
	print_message("# %u triangles: the heap they need is %llu bytes; through 64 KiB, at least "
		      "%llu partial renders\n",
		      tris, (unsigned long long)wanted,
		      (unsigned long long)((wanted + (64 << 10) - 1) / (64 << 10) - 1));
	assert_int_equal(differ, 0);
	assert_true(drawn > w * h / 2);
	free(v);
	agx_shader_binary_finish(&vs.bin);
	agx_shader_binary_finish(&fs.bin);
	agx_device_bo_close(r.dev, &vbo);
	agx_device_bo_close(r.dev, &small.bo);
	agx_device_bo_close(r.dev, &large.bo);
	rig_fini(&r);
}

/* --- many clients --------------------------------------------------------------------------------
 */

#define CLIENT_SIZE 64

/*
 * One client process's work, without the test framework (a failure must
 * end this process only): its own device, VM and queue, a pass clearing
 * to its own colour and drawing a rectangle of another, checked pixel by
 * pixel; with fault, the rectangle's vertices are at an unmapped address.
 * 0 when everything is as it must be, else a code saying what was not.
 */
static int client(const struct test_stack *stack, unsigned k, bool fault, const struct shader *vs0,
		  const struct agx_shader_binary *fs_bin)
{
	struct agx_device_config config = { .memmgr_socket = stack->memmgr,
					    .scheduler_socket = stack->sched,
					    .name = "render-client" };
	struct agx_device *dev;
	struct agx_device_vm *vm;
	struct agx_bo code, mem, img_bo, vbuf;
	uint64_t code_va, mem_va, img_va, vbuf_va, tvb;
	uint32_t queue, sync, tvb_size, vu[64] = { 0 }, fu[64] = { 0 };
	struct agx_layout layout = { .twiddled = true,
				     .bytes_per_texel = 4,
				     .width = CLIENT_SIZE,
				     .height = CLIENT_SIZE,
				     .levels = 1 };
	struct agx_render rp;
	struct agx_render_pass pass = { .width = CLIENT_SIZE,
					.height = CLIENT_SIZE,
					.num_colour = 1 };
	struct agx_render_draw d = { 0 };
	struct agx_sched_cmd cmd = { .kind = AGX_SCHED_CMD_RENDER };
	struct agx_cf_binding cf[AGX_RENDER_MAX_CF];
	unsigned ncf, regs;
	int status = 1;
	const float colour[4] = { (float)k / 32, 1 - (float)k / 32, 0.5f, 1 };
	const float v[6][2] = { { -0.5f, -0.5f }, { 0.5f, -0.5f }, { 0.5f, 0.5f },
				{ -0.5f, -0.5f }, { 0.5f, 0.5f },  { -0.5f, 0.5f } };
	const struct agx_shader_info *vi = &vs0->bin.info;
	uint32_t inside, outside;

	if (agx_device_open(&config, &dev) < 0 || agx_device_vm_create(dev, &vm) < 0 ||
	    !agx_layout_init(&layout))
		return 10;
	if (agx_device_bo_create(dev, 0x10000, 0, &code) < 0 ||
	    agx_device_vm_map(dev, vm, &code, AGX_BIND_READ | AGX_BIND_EXECUTE | AGX_MAP_USC,
			      &code_va) < 0 ||
	    agx_device_bo_create(dev, 1 << 20, 0, &mem) < 0 ||
	    agx_device_vm_map(dev, vm, &mem, AGX_BIND_READ | AGX_BIND_EXECUTE | AGX_MAP_USC,
			      &mem_va) < 0 ||
	    agx_device_bo_create(dev, (layout.layer_stride + 0x3fff) & ~0x3fffull, 0, &img_bo) <
		0 ||
	    agx_device_vm_map(dev, vm, &img_bo, AGX_BIND_READ | AGX_BIND_WRITE, &img_va) < 0 ||
	    agx_device_bo_create(dev, 0x4000, 0, &vbuf) < 0 ||
	    agx_device_vm_map(dev, vm, &vbuf, AGX_BIND_READ, &vbuf_va) < 0)
		return 11;
	if (agx_device_queue_create(dev, vm, AGX_PRIORITY_NORMAL, &queue) < 0 ||
	    agx_device_syncobj_create(dev, &sync) < 0 ||
	    agx_device_queue_tvb(dev, queue, &tvb, &tvb_size) < 0)
		return 12;
	memcpy(code.map, vs0->bin.code, vs0->bin.size);
	memcpy((uint8_t *)code.map + 0x8000, fs_bin->code, fs_bin->size);
	memcpy(vbuf.map, v, sizeof(v));
	pass.colour[0] = (struct agx_render_target){
		.surface = { .image = { .format = AGX_FORMAT_R8G8B8A8_UNORM,
					.dim = AGX_IMAGE_2D,
					.layout = &layout,
					.address = img_va,
					.depth = 1 } },
		.load = AGX_LOAD_CLEAR,
		.store = AGX_STORE_STORE,
		.clear = { .f = { 0, 0, (float)k / 32, 1 } },
	};
	pass.tvb = tvb, pass.tvb_size = tvb_size;
	if (agx_render_begin(&rp, mem.map, mem_va, 1 << 20, agx_device_info(dev)->usc_base, &pass))
		return 13;
	for (unsigned i = 0; i < vi->num_vars; i++)
		if (vi->vars[i].kind == AGX_SHADER_INPUT && vi->vars[i].uniform >= 0) {
			uint64_t at = fault ? 0x7f0000000ull : vbuf_va; /* nothing mapped there */

			agx_render_set_attrib(vi, vu, vi->vars[i].location, at, 8);
		}
	for (unsigned i = 0; i < fs_bin->info.num_vars; i++)
		if (fs_bin->info.vars[i].kind == AGX_SHADER_UNIFORM)
			memcpy(&fu[fs_bin->info.vars[i].uniform], colour, 16);
	if (agx_render_link_varyings(vi, &fs_bin->info, 2, NULL, cf, &ncf, &regs))
		return 14;
	d.vs = (struct agx_render_stage){ .code_va = code_va,
					  .num_registers = vi->num_registers,
					  .uniforms = vu,
					  .num_uniforms = vi->num_uniforms };
	d.fs = (struct agx_render_stage){ .code_va = code_va + 0x8000,
					  .num_registers = fs_bin->info.num_registers,
					  .uniforms = fu,
					  .num_uniforms = fs_bin->info.num_uniforms };
	d.vs_outputs = vi->num_vertex_outputs;
	d.cf = cf, d.num_cf = ncf, d.cf_registers = regs;
	d.state =
	    (struct agx_ppp_state){ .translate = { CLIENT_SIZE / 2.0f, CLIENT_SIZE / 2.0f, 0 },
				    .scale = { CLIENT_SIZE / 2.0f, CLIENT_SIZE / 2.0f, 1 },
				    .provoking = 2,
				    .depth_clip = true,
				    .depth_func = AGX_CMD_ZS_FUNC_ALWAYS,
				    .varying_words = d.vs_outputs - 4 };
	d.draw = (struct agx_vdm_draw){ .primitive = AGX_CMD_PRIMITIVE_TRIANGLES,
					.count = 6,
					.instances = 1 };
	if (agx_render_draw(&rp, &d) || agx_render_end(&rp, &cmd.render))
		return 15;
	/* three frames, each one checked */
	for (unsigned frame = 0; frame < 3; frame++) {
		struct agx_sched_point p = { sync, frame + 1 };
		enum agx_queue_status qs;

		memset(img_bo.map, 0xee, img_bo.size);
		if (agx_device_submit(dev, queue, &cmd, 1, NULL, 0, &p, 1) < 0)
			return fault && frame > 0 ? 0 : 16; /* a lost context refuses more work */
		if (agx_device_wait(dev, &p, 1, true, WAIT_NS, &status) < 0)
			return 17;
		if (fault) {
			if (status != -EFAULT || agx_device_queue_status(dev, queue, &qs) < 0 ||
			    qs != AGX_QUEUE_GUILTY_RESET)
				return 18;
			return 0;
		}
		if (status)
			return 19;
		if (!agx_format_pack_float(AGX_FORMAT_R8G8B8A8_UNORM, colour, &inside) ||
		    !agx_format_pack_float(AGX_FORMAT_R8G8B8A8_UNORM, pass.colour[0].clear.f,
					   &outside))
			return 20;
		for (unsigned y = 0; y < CLIENT_SIZE; y++)
			for (unsigned x = 0; x < CLIENT_SIZE; x++) {
				bool in = x >= 16 && x < 48 && y >= 16 && y < 48;
				uint32_t got;

				memcpy(&got,
				       (uint8_t *)img_bo.map +
					   agx_layout_texel(&layout, 0, 0, x, y),
				       4);
				if (got != (in ? inside : outside))
					return 21;
			}
	}
	agx_device_close(dev);
	return 0;
}

/*
 * Twenty client processes render at once (six under ASan), each its own
 * image, checked; a twenty-first's render faults, and only its context
 * is lost.
 */
static void test_many_clients(void **state)
{
	const unsigned n = SANITIZED ? 6 : 20;
	struct rig r;
	struct shader vs, fs;
	struct agx_compile_options fo = { .num_rts = 1 };
	pid_t pids[21];
	unsigned bad = 0;

	rig_init(&r, *state);
	fo.rt[0].format = AGX_ISA_MEMFORMAT_U8NORM;
	fo.rt[0].components = 4;
	rig_compile(&r, AGX_SHADER_VERTEX, rect_vs, NULL, &vs);
	rig_compile(&r, AGX_SHADER_FRAGMENT, rect_fs, &fo, &fs);
	for (unsigned k = 0; k <= n; k++) {
		pids[k] = fork();
		assert_true(pids[k] >= 0);
		if (pids[k] == 0)
			_exit(client(*state, k, k == n, &vs, &fs.bin));
	}
	for (unsigned k = 0; k <= n; k++) {
		int st;

		assert_int_equal(waitpid(pids[k], &st, 0), pids[k]);
		if (!WIFEXITED(st) || WEXITSTATUS(st)) {
			print_message("# client %u%s: %s %d\n", k,
				      k == n ? " (the faulting one)" : "",
				      WIFEXITED(st) ? "exit" : "signal",
				      WIFEXITED(st) ? WEXITSTATUS(st) : WTERMSIG(st));
			bad++;
		}
	}
	assert_int_equal(bad, 0);
	agx_shader_binary_finish(&vs.bin);
	agx_shader_binary_finish(&fs.bin);
	rig_fini(&r);
}

/* --- refusals ------------------------------------------------------------------------------- */

static void test_refusals(void **state)
{
	struct rig r;
	struct image img, z;
	struct agx_render rp;
	struct agx_render_pass pass = { .width = 16, .height = 16, .num_colour = 1 };
	enum agx_format many[8];
	struct agx_tilebuffer tib;

	rig_init(&r, *state);
	rig_image_init(&r, &img, AGX_FORMAT_R8G8B8A8_UNORM, 16, 16, true, 1, 0);
	rig_image_init(&r, &z, AGX_FORMAT_Z32_FLOAT, 32, 32, true, 1, 0);
	pass.tvb = 0x100000, pass.tvb_size = 0x10000;
	/* a target smaller than the pass */
	pass.width = 17;
	pass.colour[0] = rig_target(&img, 0, AGX_LOAD_CLEAR, AGX_STORE_STORE);
	assert_int_equal(agx_render_begin(&rp, r.pass.map, r.pass_va, PASS_SIZE, r.usc_base, &pass),
			 -EINVAL);
	/* a depth buffer of another size than the pass: the ZLS could not address it */
	pass.width = 16;
	pass.depth = (struct agx_render_zs){ .surface = { .image = z.image } };
	assert_int_equal(agx_render_begin(&rp, r.pass.map, r.pass_va, PASS_SIZE, r.usc_base, &pass),
			 -EINVAL);
	/* a format the PBE cannot write */
	memset(&pass.depth, 0, sizeof(pass.depth));
	pass.colour[0].surface.image.format = AGX_FORMAT_ETC2_RGB8;
	assert_int_equal(agx_render_begin(&rp, r.pass.map, r.pass_va, PASS_SIZE, r.usc_base, &pass),
			 -EINVAL);
	/*
	 * Targets past the 64 bytes a pixel are spilled, not refused; a
	 * smaller one after a spilled one still takes what is left.
	 */
	for (unsigned i = 0; i < 8; i++)
		many[i] = AGX_FORMAT_R32G32B32A32_FLOAT;
	many[3] = AGX_FORMAT_R8G8B8A8_UNORM;
	many[5] = AGX_FORMAT_R32_FLOAT;
	assert_int_equal(agx_tilebuffer_layout(many, 8, 1, &tib), 0);
	assert_int_equal(tib.sample_size, 56);
	for (unsigned i = 0; i < 8; i++)
		assert_int_equal(tib.rt[i].spilled, i == 4 || i == 6 || i == 7);
	many[3] = AGX_FORMAT_R32G32B32A32_FLOAT;
	assert_int_equal(agx_tilebuffer_layout(many, 4, 1, &tib), 0);
	assert_int_equal(tib.sample_size, 64);
	assert_int_equal(tib.tile_width * tib.tile_height, 256);
	/* memory too small for the pass's arrays */
	pass.colour[0].surface.image.format = AGX_FORMAT_R8G8B8A8_UNORM;
	assert_int_equal(agx_render_begin(&rp, r.pass.map, r.pass_va, 4096, r.usc_base, &pass),
			 -ENOSPC);
	agx_device_bo_close(r.dev, &img.bo);
	agx_device_bo_close(r.dev, &z.bo);
	rig_fini(&r);
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_triangle_corpus), cmocka_unit_test(test_smooth_varyings),
		cmocka_unit_test(test_load_store),	cmocka_unit_test(test_eight_targets),
		cmocka_unit_test(test_depth_stencil),	cmocka_unit_test(test_partial_renders),
		cmocka_unit_test(test_many_clients),	cmocka_unit_test(test_refusals),
		cmocka_unit_test(test_program_cache),	cmocka_unit_test(test_occlusion),
		cmocka_unit_test(test_spilled_targets), cmocka_unit_test(test_depth_stencil_rules),
		cmocka_unit_test(test_context_loss),	cmocka_unit_test(test_faces_and_slices),
	};

	/*
	 * A million triangles take the simulator seconds, the
	 * hardware milliseconds: the device's GPU time limit, and the
	 * scheduler's job timeout, model the hardware's time.
	 */
	test_stack_group_options.sim_job_time_limit_ms = "300000";
	test_stack_group_options.job_timeout_ms = "300000";
	return test_stack_main(argc, argv, tests, sizeof(tests) / sizeof(tests[0]));
}
