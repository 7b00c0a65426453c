/*
 * render.c: the render work item of render.h.
 *
 * The TVB heap (docs/firmware-abi.md, "Render"): a table of one 8-byte
 * entry per tile (the offset of its first list block, then zero), then
 * primitive records and list blocks, allocated upwards.  A list block is
 * 64 bytes: the next block's offset (0: none), the primitives used, and 14
 * primitive offsets.  A primitive record: its fragment state, flags (bit 0:
 * back-facing), three vertices of window x, y, z, 1/w, point coordinates
 * s, t and the varying words (as floats, interpolated where clipping cut
 * the triangle), and the provoking vertex's varying words as they were
 * (for flat shading).
 * Offsets are from the heap's start.  The heap belongs to the device while
 * the render runs; its contents are nobody else's contract.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "agx_cmdbuf.h"
#include "agx_uat.h"
#include "device.h"
#include "render.h"

#define TILE_ENTRY	 8
#define BLOCK_BYTES	 64
#define BLOCK_PRIMS	 14
#define MAX_OUTPUT_BYTES (256u << 20) /* vertex outputs of one draw */
#define MAX_SLOTS	 255
#define MAX_CLIPPED	 (3 + 7 + SIM_VDM_MAX_CLIP_DISTANCES) /* a triangle cut by every plane */
#define LANES		 USC_LANES
#define VTX		 6 /* a record's words of a vertex before its varyings: x, y, z, 1/w, s, t */
/*
 * The guard band: window coordinates within +-2^20 pixels, so that edge
 * functions in 1/256 pixel stay far inside 64 bits.  Only a viewport far
 * larger than any framebuffer puts a clipped vertex past it; such
 * primitives are dropped.
 */
#define GUARD_BAND 1048576.0

/* Bytes of a primitive record with vars varying words a vertex. */
static uint64_t record_size(unsigned vars)
{
	return 8 + 3 * (VTX + vars) * 4ull + vars * 4ull;
}

static enum sim_render_status malformed(char *why, size_t size, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

#include <stdarg.h>
static enum sim_render_status malformed(char *why, size_t size, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, size, fmt, ap);
	va_end(ap);
	return SIM_RENDER_MALFORMED;
}

static enum sim_render_status from_read(enum sim_read st)
{
	return st == SIM_READ_FAULT ? SIM_RENDER_FAULT : SIM_RENDER_MALFORMED;
}

/* A tile program: USC words at usc_base + offset, register counts in bind. */
static enum sim_read tile_program(struct sim_render *r, uint64_t offset, uint64_t bind,
				  struct sim_pipeline *p)
{
	struct agx_cmd_ppp_fragment_shader_word_0 w0;
	uint8_t raw[4];
	uint32_t b32 = (uint32_t)bind;
	enum sim_read st;

	memcpy(raw, &b32, 4);
	if (!agx_cmd_ppp_fragment_shader_word_0_unpack(raw, &w0) || w0.cf_binding_count)
		return sim_stream_malformed(&r->vdm.s, "tile program register counts 0x%08x", b32);
	if (offset & 63)
		return sim_stream_malformed(&r->vdm.s,
					    "tile program at 0x%llx is not 64-byte "
					    "aligned",
					    (unsigned long long)offset);
	st = sim_pipeline_read(&r->vdm.s, offset,
			       w0.sampler_state_register_count >= AGX_CMD_SAMPLER_STATES_EXTENDED8,
			       p);
	if (!st && p->preshader)
		return sim_stream_malformed(&r->vdm.s, "tile program preshaders are not "
						       "simulated yet");
	return st;
}

/* The ZLS control word: what is loaded and stored, and the buffers' layouts. */
static bool zls(struct sim_render *r, char *why, size_t why_size)
{
	const struct agx_fw_work_render *c = &r->cmd;
	struct agx_cmd_zls_control z;
	uint8_t raw[AGX_CMD_ZLS_CONTROL_LENGTH];
	unsigned sx, sy;

	memcpy(raw, &c->zls_control, sizeof(raw));
	if (!agx_cmd_zls_control_unpack(raw, &z)) {
		snprintf(why, why_size, "ZLS control has reserved bits set");
		return false;
	}
	if (z.z_compress_1 || z.z_compress_2 || z.s_compress_1 || z.s_compress_2 || z.z_resolve ||
	    z.s_resolve || z.unknown0 || z.unknown1 || z.unknown3 || z.unknown5 || z.unknown7 ||
	    (z.z_format != AGX_CMD_ZLS_FORMAT_Z32F && z.z_format != AGX_CMD_ZLS_FORMAT_Z16)) {
		snprintf(why, why_size,
			 "compressed, resolved or unknown ZLS modes are not "
			 "simulated yet");
		return false;
	}
	r->z_load = z.z_load_enable;
	r->z_store = z.z_store_enable;
	r->s_load = z.s_load_enable;
	r->s_store = z.s_store_enable;
	r->z16 = z.z_format == AGX_CMD_ZLS_FORMAT_Z16;
	if (((r->z_load || r->z_store) && !c->depth_buffer) ||
	    ((r->s_load || r->s_store) && !c->stencil_buffer)) {
		snprintf(why, why_size, "ZLS loads or stores a buffer the render does not name");
		return false;
	}
	/*
	 * Twiddled, one level, like depth and stencil textures (agx/layout.h);
	 * multisampled ones over their sample grid.
	 */
	usc_sample_grid((unsigned)c->samples, &sx, &sy);
	r->z_layout = (struct usc_layout){ .twiddled = true,
					   .bytes_per_texel = r->z16 ? 2 : 4,
					   .width = (unsigned)c->width * sx,
					   .height = (unsigned)c->height * sy,
					   .levels = 1 };
	r->s_layout = r->z_layout;
	r->s_layout.bytes_per_texel = 1;
	if (!usc_layout_init(&r->z_layout) || !usc_layout_init(&r->s_layout)) {
		snprintf(why, why_size, "depth/stencil buffers of %ux%u cannot be laid out",
			 (unsigned)c->width, (unsigned)c->height);
		return false;
	}
	return true;
}

/* The heap emptied: every tile's list, and the allocator back to the table's end. */
static bool empty_heap(struct sim_render *r, struct sim_uat_fault *fault)
{
	const struct agx_fw_work_render *c = &r->cmd;
	uint64_t table = (uint64_t)r->tiles_x * r->tiles_y * TILE_ENTRY;

	r->heap_needed += r->heap_used;
	r->heap_used = (table + BLOCK_BYTES - 1) / BLOCK_BYTES * BLOCK_BYTES;
	r->heap_needed -= r->heap_used; /* the table is counted once */
	r->binned = 0;
	memset(r->tail, 0, (size_t)r->tiles_x * r->tiles_y * 2 * sizeof(*r->tail));
	/* an empty list for every tile */
	for (uint64_t at = 0; at < table; at += 4096) {
		static const uint8_t zero[4096];
		uint64_t n = table - at < 4096 ? table - at : 4096;

		if (!sim_uat_access(r->dev->uat, r->context, false, c->tvb + at, (void *)zero, n,
				    SIM_UAT_WRITE, fault))
			return false;
	}
	return true;
}

enum sim_render_status sim_render_start(struct sim_render *r, struct sim_device *dev,
					unsigned context, const struct agx_fw_work_render *cmd,
					struct usc_cache *programs, enum agx_uat_fault_unit *unit,
					struct sim_uat_fault *fault, char *why, size_t why_size)
{
	const struct agx_fw_work_render *c = cmd;
	struct sim_vdm_limits limits = { .scissor_array = c->scissor_array,
					 .depth_bias_array = c->depth_bias_array,
					 .scissor_count = (unsigned)c->scissor_count,
					 .depth_bias_count = (unsigned)c->depth_bias_count,
					 .visibility_count = c->visibility_result_buffer
								 ? (unsigned)c->visibility_count
								 : 0,
					 .width = (unsigned)c->width,
					 .height = (unsigned)c->height };
	uint64_t table;
	unsigned uw = (unsigned)c->utile_width, uh = (unsigned)c->utile_height;
	enum sim_read st;

	sim_render_finish(r);
	memset(r, 0, sizeof(*r));
	r->dev = dev;
	r->context = context;
	r->cmd = *cmd;
	r->phase = SIM_RENDER_STREAM;
	why[0] = '\0';
	sim_vdm_init(&r->vdm, dev, context, c->encoder, c->encoder_end, c->usc_base, &limits);
	sim_stream_begin(&r->vdm.s, programs, fault, why, why_size);
	if (!c->width || !c->height || c->width > 16384 || c->height > 16384)
		return malformed(why, why_size, "framebuffer %ux%u (1..16384)", (unsigned)c->width,
				 (unsigned)c->height);
	if (!((uw == 32 && uh == 32) || (uw == 32 && uh == 16) || (uw == 16 && uh == 16)))
		return malformed(why, why_size, "tile %ux%u (32x32, 32x16 or 16x16)", uw, uh);
	if (c->samples != 1 && c->samples != 2 && c->samples != 4)
		return malformed(why, why_size, "%u samples (1, 2 or 4)", (unsigned)c->samples);
	if (c->sample_size % 4 || c->sample_size > 64 ||
	    uw * uh * (unsigned)c->sample_size * (unsigned)c->samples > SIM_GPU_MAX_SHARED)
		return malformed(why, why_size, "tilebuffer of %u bytes per sample, %u samples",
				 (unsigned)c->sample_size, (unsigned)c->samples);
	if (c->visibility_result_buffer & 7)
		return malformed(why, why_size,
				 "visibility results at 0x%llx are not 8-byte aligned",
				 (unsigned long long)c->visibility_result_buffer);
	if (limits.visibility_count) {
		r->passed = calloc(limits.visibility_count, sizeof(*r->passed));
		r->any = calloc(limits.visibility_count, sizeof(*r->any));
		if (!r->passed || !r->any)
			return malformed(why, why_size, "out of memory for occlusion queries");
	}
	if (!zls(r, why, why_size))
		return SIM_RENDER_MALFORMED;
	if (c->tvb & 15)
		return malformed(why, why_size, "TVB heap at 0x%llx is not 16-byte aligned",
				 (unsigned long long)c->tvb);
	r->tiles_x = ((unsigned)c->width + uw - 1) / uw;
	r->tiles_y = ((unsigned)c->height + uh - 1) / uh;
	table = (uint64_t)r->tiles_x * r->tiles_y * TILE_ENTRY;
	r->heap_used = (table + BLOCK_BYTES - 1) / BLOCK_BYTES * BLOCK_BYTES;
	r->tail = calloc((size_t)r->tiles_x * r->tiles_y, 2 * sizeof(*r->tail));
	if (!r->tail)
		return malformed(why, why_size, "out of memory for the tiler");
	*unit = AGX_UAT_FAULT_UNIT_VDM;
	if ((st = tile_program(r, c->load_pipeline, c->load_pipeline_bind, &r->load)) ||
	    (st = tile_program(r, c->store_pipeline, c->store_pipeline_bind, &r->store)))
		return from_read(st);
	r->partials = c->partial_reload_pipeline && c->partial_store_pipeline;
	if (r->partials &&
	    ((st = tile_program(r, c->partial_reload_pipeline, c->partial_reload_pipeline_bind,
				&r->partial_reload)) ||
	     (st = tile_program(r, c->partial_store_pipeline, c->partial_store_pipeline_bind,
				&r->partial_store))))
		return from_read(st);
	if (r->heap_used > c->tvb_size) {
		r->overflow = true; /* not even the tile table: nothing is written */
		return SIM_RENDER_DONE;
	}
	*unit = AGX_UAT_FAULT_UNIT_TILER;
	return empty_heap(r, fault) ? SIM_RENDER_DONE : SIM_RENDER_FAULT;
}

void sim_render_finish(struct sim_render *r)
{
	sim_vdm_finish(&r->vdm);
	if (r->outputs)
		munmap(r->outputs, r->outputs_size);
	free(r->tail);
	free(r->passed);
	free(r->any);
	r->passed = NULL;
	r->any = NULL;
	r->outputs = NULL;
	r->outputs_size = 0;
	r->tail = NULL;
}

/* --- vertex stage: 32 vertices a unit, on a core ----------------------------------------- */

/* The draw's index at position i, or false (the job ended) when reading it faulted. */
static bool draw_index(struct sim_gpu_core *core, const struct sim_vdm_draw *d, uint32_t i,
		       uint32_t *index)
{
	uint32_t v = 0;

	if (!sim_gpu_core_access(core, AGX_UAT_FAULT_UNIT_VDM,
				 d->index_buffer + (uint64_t)i * d->index_size, &v, d->index_size,
				 false))
		return false;
	*index = v;
	return true;
}

static bool is_restart(const struct sim_vdm_draw *d, uint32_t index)
{
	uint32_t mask = d->index_size == 4 ? ~0u : (1u << (8 * d->index_size)) - 1;

	return d->restart && index == (d->restart_index & mask);
}

static void vertex_unit(struct sim_gpu_core *core, void *arg, uint64_t unit)
{
	struct sim_render *r = arg;
	const struct sim_vdm_draw *d = &r->draw;
	uint64_t first = unit * LANES, total = (uint64_t)d->count * d->instances;
	struct usc_state *st = sim_gpu_core_state(core, 0);
	struct usc_vertex_io io = { r->outputs + first * d->vs_slots, d->vs_slots };
	uint32_t vid[LANES] = { 0 }, inst[LANES] = { 0 }, present = 0;

	/* zeroed here, on the cores: a restart's slots stay zero (and a draw's outputs can be
	 * hundreds of megabytes, too long a job for the firmware thread) */
	memset(io.outputs, 0,
	       (size_t)(total - first < LANES ? total - first : LANES) * d->vs_slots * 4);
	for (unsigned l = 0; l < LANES && first + l < total; l++) {
		uint32_t i = (uint32_t)((first + l) % d->count), index = i;

		inst[l] = (uint32_t)((first + l) / d->count);
		if (d->index_size) {
			if (!draw_index(core, d, i, &index))
				return;
			if (is_restart(d, index))
				continue;
		}
		vid[l] = index + d->start;
		present |= 1u << l;
	}
	sim_gpu_core_prepare(core, st, d->vs, present);
	for (unsigned l = 0; l < LANES; l++) {
		st->r[5][l] = vid[l]; /* preloaded (Mesa src/asahi/compiler/README.md) */
		st->r[6][l] = inst[l];
	}
	st->vertex = &io;
	sim_gpu_core_run(core, d->vs->program, d->vs->program_va, st);
	st->vertex = NULL;
}

/* --- the tiler, on the firmware thread ------------------------------------------------- */

struct vert {
	float clip[4];
	float var[MAX_SLOTS - 4];
};

static bool heap_write(struct sim_render *r, uint64_t offset, const void *buf, uint64_t size,
		       struct sim_uat_fault *fault)
{
	return r->overflow || sim_uat_access(r->dev->uat, r->context, false, r->cmd.tvb + offset,
					     (void *)buf, size, SIM_UAT_WRITE, fault);
}

/* Room in the heap; once it is too small, the render only counts (r->overflow). */
static uint64_t heap_alloc(struct sim_render *r, uint64_t size)
{
	uint64_t at = r->heap_used;

	r->heap_used += (size + 15) & ~15ull;
	if (r->heap_used > r->cmd.tvb_size)
		r->overflow = true;
	return at;
}

/* Appends a primitive to a tile's list. */
static bool bin(struct sim_render *r, unsigned tile, uint32_t prim, struct sim_uat_fault *fault)
{
	uint32_t *tail = &r->tail[2 * tile], *used = &r->tail[2 * tile + 1];

	if (!*tail || *used == BLOCK_PRIMS) {
		uint32_t block = (uint32_t)heap_alloc(r, BLOCK_BYTES), zero[2] = { 0, 0 };

		if (!heap_write(r, block, zero, 8, fault) ||
		    !heap_write(r, *tail ? *tail : (uint64_t)tile * TILE_ENTRY, &block, 4, fault))
			return false;
		*tail = block;
		*used = 0;
	}
	if (!heap_write(r, *tail + 8 + *used * 4ull, &prim, 4, fault))
		return false;
	++*used;
	return heap_write(r, *tail + 4, used, 4, fault);
}

/*
 * The planes a primitive is clipped by: w > 0, x and y (a guard band past
 * them), near and far z with depth clipping; then each clip-distance
 * plane enabled (FIXED_PLANES + i), kept where the vertex's distance i,
 * interpolated as its varyings are, is >= 0.
 */
#define FIXED_PLANES 7
#define MAX_PLANES   (FIXED_PLANES + SIM_VDM_MAX_CLIP_DISTANCES)

static const float clip_planes[FIXED_PLANES][4] = {
	{ 0, 0, 0, 1 },	 { 1, 0, 0, 1 }, { -1, 0, 0, 1 }, { 0, 1, 0, 1 },
	{ 0, -1, 0, 1 }, { 0, 0, 1, 0 }, { 0, 0, -1, 1 },
};

/* The word of a vertex's first clip distance: after the varyings and the point size. */
static unsigned clip_distance_word(const struct sim_draw_state *s)
{
	return 4 + s->varying_words + (s->point_size_slot ? 1 : 0);
}

/* The planes of a draw whose vertices have `slots` words; a distance past them clips nothing. */
static unsigned planes(const struct sim_draw_state *s, unsigned slots, unsigned out[MAX_PLANES])
{
	unsigned n = 0, first = clip_distance_word(s);

	for (unsigned k = 0; k < (s->depth_clip ? 7u : 5u); k++)
		out[n++] = k;
	for (unsigned i = 0; i < SIM_VDM_MAX_CLIP_DISTANCES; i++)
		if ((s->clip_distances >> i & 1) && first + i < slots)
			out[n++] = FIXED_PLANES + i;
	return n;
}

/* How far inside plane k a vertex is (its position, and its words after it). */
static float plane_distance(const struct sim_draw_state *s, unsigned k, const float clip[4],
			    const float *var)
{
	const float *p = clip_planes[k < FIXED_PLANES ? k : 0];

	if (k >= FIXED_PLANES)
		return var[clip_distance_word(s) - 4 + (k - FIXED_PLANES)];
	return p[0] * clip[0] + p[1] * clip[1] + p[2] * clip[2] + p[3] * clip[3];
}

/* Sutherland-Hodgman against plane k: what is inside it is kept. */
static unsigned clip_plane(const struct sim_draw_state *s, unsigned k, const struct vert *in,
			   unsigned n, struct vert *out, unsigned vars)
{
	unsigned m = 0;

	for (unsigned i = 0; i < n; i++) {
		const struct vert *a = &in[i], *b = &in[(i + 1) % n];
		float da = plane_distance(s, k, a->clip, a->var),
		      db = plane_distance(s, k, b->clip, b->var);

		if (da >= 0)
			out[m++] = *a;
		if ((da >= 0) != (db >= 0)) {
			float t = da / (da - db);
			struct vert *v = &out[m++];

			for (unsigned c = 0; c < 4; c++)
				v->clip[c] = a->clip[c] + t * (b->clip[c] - a->clip[c]);
			for (unsigned c = 0; c < vars; c++)
				v->var[c] = a->var[c] + t * (b->var[c] - a->var[c]);
		}
	}
	return m;
}

/*
 * A triangle in window space -- x, y, z and 1/w of each vertex, then its
 * varying words -- into a primitive record, binned to the tiles its box
 * touches.  front says which face's state it uses.
 */
static enum sim_render_status bin_triangle(struct sim_render *r, const struct sim_draw_state *s,
					   const float win[3][VTX], const float *const var[3],
					   const uint32_t *provoking, bool front,
					   struct sim_uat_fault *fault)
{
	const unsigned vars = r->draw.vs_slots - 4;
	float lo[2] = { INFINITY, INFINITY }, hi[2] = { -INFINITY, -INFINITY };
	uint32_t min[2], max[2], head[2];
	uint64_t size = record_size(vars), rec;
	unsigned tw = (unsigned)r->cmd.utile_width, th = (unsigned)r->cmd.utile_height;

	for (unsigned j = 0; j < 3; j++)
		for (unsigned k = 0; k < 2; k++) {
			if (!(fabs(win[j][k]) < GUARD_BAND))
				return SIM_RENDER_DONE; /* NaN too */
			lo[k] = fminf(lo[k], win[j][k]);
			hi[k] = fmaxf(hi[k], win[j][k]);
		}
	for (unsigned k = 0; k < 2; k++) {
		double a = floor(lo[k]), b = ceil(hi[k]);
		uint32_t limit = k ? (uint32_t)r->cmd.height : (uint32_t)r->cmd.width;

		min[k] = a < 0 ? 0 : a > limit ? limit : (uint32_t)a;
		max[k] = b < 0 ? 0 : b > limit ? limit : (uint32_t)b;
		if (s->scissor) {
			min[k] = min[k] > s->scissor_min[k] ? min[k] : s->scissor_min[k];
			max[k] = max[k] < s->scissor_max[k] ? max[k] : s->scissor_max[k];
		}
	}
	if (min[0] >= max[0] || min[1] >= max[1])
		return SIM_RENDER_DONE;
	/* a triangle binned before a partial render is not binned again */
	if (r->calls++ < r->skip)
		return SIM_RENDER_DONE;
	if (r->partials && !r->overflow) {
		/* what it needs: its record, and a list block for each tile that needs one */
		uint64_t need = (size + 15) & ~15ull;

		for (uint32_t ty = min[1] / th; ty <= (max[1] - 1) / th; ty++)
			for (uint32_t tx = min[0] / tw; tx <= (max[0] - 1) / tw; tx++) {
				const uint32_t *tail = &r->tail[2 * (ty * r->tiles_x + tx)];

				need += !tail[0] || tail[1] == BLOCK_PRIMS ? BLOCK_BYTES : 0;
			}
		/* full: render what is binned first, unless nothing is (it can never fit) */
		if (r->heap_used + need > r->cmd.tvb_size && r->binned)
			return SIM_RENDER_PARTIAL_NEEDED;
	}
	r->binned++;
	rec = heap_alloc(r, size);
	head[0] = (uint32_t)(s - r->vdm.states);
	head[1] = !front;
	if (!heap_write(r, rec, head, 8, fault))
		return SIM_RENDER_FAULT;
	for (unsigned j = 0; j < 3; j++)
		if (!heap_write(r, rec + 8 + j * (VTX + vars) * 4ull, win[j], VTX * 4, fault) ||
		    !heap_write(r, rec + 8 + (j * (VTX + vars) + VTX) * 4ull, var[j], vars * 4ull,
				fault))
			return SIM_RENDER_FAULT;
	if (!heap_write(r, rec + 8 + 3 * (VTX + vars) * 4ull, provoking, vars * 4ull, fault))
		return SIM_RENDER_FAULT;
	for (uint32_t ty = min[1] / th; ty <= (max[1] - 1) / th; ty++)
		for (uint32_t tx = min[0] / tw; tx <= (max[0] - 1) / tw; tx++)
			if (!bin(r, ty * r->tiles_x + tx, (uint32_t)rec, fault))
				return SIM_RENDER_FAULT;
	return SIM_RENDER_DONE;
}

/* Window x, y, z and 1/w of a clip-space position (point coordinates 0). */
static void project(const struct sim_draw_state *s, const float clip[4], float win[VTX])
{
	float rhw = 1.0f / clip[3];

	for (unsigned k = 0; k < 3; k++)
		win[k] = s->translate[k] + s->scale[k] * clip[k] * rhw;
	win[3] = rhw;
	win[4] = win[5] = 0;
}

/* One triangle of positions p[3] (into the outputs): clipped, culled, binned. */
static enum sim_render_status triangle(struct sim_render *r, const struct sim_draw_state *s,
				       const uint64_t p[3], struct sim_uat_fault *fault)
{
	const unsigned slots = r->draw.vs_slots, vars = slots - 4;
	struct vert poly[2][MAX_CLIPPED + 3];
	const uint32_t *provoking = r->outputs + p[s->provoking] * slots + 4;
	unsigned n = 3, cur = 0, plane[MAX_PLANES], np = planes(s, slots, plane);

	for (unsigned i = 0; i < 3; i++)
		memcpy(&poly[0][i], r->outputs + p[i] * slots, slots * 4);
	for (unsigned k = 0; k < np && n; k++) {
		n = clip_plane(s, plane[k], poly[cur], n, poly[!cur], vars);
		cur = !cur;
	}
	for (unsigned i = 1; i + 1 < n; i++) {
		const struct vert *v[3] = { &poly[cur][0], &poly[cur][i], &poly[cur][i + 1] };
		const float *var[3] = { v[0]->var, v[1]->var, v[2]->var };
		float win[3][VTX];
		double area;
		bool front;
		enum sim_render_status st;

		for (unsigned j = 0; j < 3; j++)
			project(s, v[j]->clip, win[j]);
		/* window space has y down: a negative area turns counter-clockwise on screen */
		area = ((double)win[1][0] - win[0][0]) * ((double)win[2][1] - win[0][1]) -
		       ((double)win[2][0] - win[0][0]) * ((double)win[1][1] - win[0][1]);
		if (area == 0 || !isfinite(area))
			continue;
		front = (area < 0) == s->front_ccw;
		if ((front && s->cull_front) || (!front && s->cull_back))
			continue;
		if ((st = bin_triangle(r, s, (const float(*)[VTX])win, var, provoking, front,
				       fault)) != SIM_RENDER_DONE)
			return st;
	}
	return SIM_RENDER_DONE;
}

/*
 * A rectangle in window space around a centre or a segment, as two
 * triangles whose corners carry their end's values: corners[4] in the
 * order (a + o, a - o, b + o, b - o).
 */
static enum sim_render_status quad(struct sim_render *r, const struct sim_draw_state *s,
				   const float corners[4][VTX], const float *const var[4],
				   const uint32_t *provoking, struct sim_uat_fault *fault)
{
	static const unsigned order[2][3] = { { 0, 1, 2 }, { 1, 3, 2 } };
	enum sim_render_status st;

	/* lines and points always face the front */
	for (unsigned t = 0; t < 2; t++) {
		float tri[3][VTX];
		const float *tv[3];

		for (unsigned j = 0; j < 3; j++) {
			memcpy(tri[j], corners[order[t][j]], sizeof(tri[j]));
			tv[j] = var[order[t][j]];
		}
		if ((st = bin_triangle(r, s, (const float(*)[VTX])tri, tv, provoking, true,
				       fault)) != SIM_RENDER_DONE)
			return st;
	}
	return SIM_RENDER_DONE;
}

/*
 * A line segment of positions p[2]: clipped, then drawn as GL draws wide
 * lines, a parallelogram `line_width` pixels across in x for a line that
 * is more vertical than not, in y otherwise.
 */
static enum sim_render_status line(struct sim_render *r, const struct sim_draw_state *s,
				   const uint64_t p[2], struct sim_uat_fault *fault)
{
	const unsigned slots = r->draw.vs_slots, vars = slots - 4;
	struct vert v[2];
	float t0 = 0, t1 = 1, win[2][VTX], corners[4][VTX], half = s->line_width / 2;
	const uint32_t *provoking = r->outputs + p[s->provoking ? 1 : 0] * slots + 4;
	const float *var[4];
	unsigned plane[MAX_PLANES], np;
	bool x_major;

	for (unsigned i = 0; i < 2; i++)
		memcpy(&v[i], r->outputs + p[i] * slots, slots * 4);
	np = planes(s, slots, plane);
	for (unsigned k = 0; k < np; k++) {
		float da = plane_distance(s, plane[k], v[0].clip, v[0].var),
		      db = plane_distance(s, plane[k], v[1].clip, v[1].var);

		if (da < 0 && db < 0)
			return SIM_RENDER_DONE;
		if (da < 0)
			t0 = fmaxf(t0, da / (da - db));
		if (db < 0)
			t1 = fminf(t1, da / (da - db));
	}
	if (t0 >= t1)
		return SIM_RENDER_DONE;
	{
		struct vert a = v[0], b = v[1];

		for (unsigned k = 0; k < 4; k++) {
			v[0].clip[k] = a.clip[k] + t0 * (b.clip[k] - a.clip[k]);
			v[1].clip[k] = a.clip[k] + t1 * (b.clip[k] - a.clip[k]);
		}
		for (unsigned k = 0; k < vars; k++) {
			v[0].var[k] = a.var[k] + t0 * (b.var[k] - a.var[k]);
			v[1].var[k] = a.var[k] + t1 * (b.var[k] - a.var[k]);
		}
	}
	project(s, v[0].clip, win[0]);
	project(s, v[1].clip, win[1]);
	x_major = fabsf(win[1][0] - win[0][0]) >= fabsf(win[1][1] - win[0][1]);
	for (unsigned c = 0; c < 4; c++) {
		memcpy(corners[c], win[c / 2], sizeof(corners[c]));
		corners[c][x_major ? 1 : 0] += c % 2 ? -half : half;
		var[c] = v[c / 2].var;
	}
	return quad(r, s, (const float(*)[VTX])corners, var, provoking, fault);
}

/* A point of position p: dropped if its centre is clipped, else a square of its size. */
static enum sim_render_status point(struct sim_render *r, const struct sim_draw_state *s,
				    uint64_t p, struct sim_uat_fault *fault)
{
	const unsigned slots = r->draw.vs_slots;
	const float *v = (const float *)(r->outputs + p * slots);
	const float *var[4] = { v + 4, v + 4, v + 4, v + 4 };
	float win[VTX], corners[4][VTX], size = 1, half;
	unsigned plane[MAX_PLANES], np = planes(s, slots, plane);

	for (unsigned k = 0; k < np; k++)
		if (plane_distance(s, plane[k], v, v + 4) < 0)
			return SIM_RENDER_DONE;
	if (s->point_size_slot && s->point_size_slot < slots)
		size = v[s->point_size_slot];
	/* GL clamps the size to the implementation's range: 1 to 511 pixels here */
	size = !(size >= 1) ? 1 : size > 511 ? 511 : size;
	half = size / 2;
	project(s, v, win);
	for (unsigned c = 0; c < 4; c++) {
		bool right = !(c % 2), below = c >= 2;

		memcpy(corners[c], win, sizeof(corners[c]));
		corners[c][0] += right ? half : -half;
		corners[c][1] += below ? half : -half;
		/* point coordinates: s across, t down from an upper-left origin or up from a
		 * lower-left one, by the object type (Mesa cmdbuf.xml "Point sprite UV") */
		corners[c][4] = right;
		corners[c][5] = below != s->point_origin_lower;
	}
	return quad(r, s, (const float(*)[VTX])corners, var, (const uint32_t *)v + 4, fault);
}

/*
 * The primitives of one run of positions (a draw's, or the part between
 * two restarts), as GL assembles them.
 */
/*
 * After a partial render the draw goes on from the primitive that did not
 * fit: of a segment's count primitives, how many were binned before
 * (skipped without being looked at again, so that a draw of millions of
 * primitives through a small heap costs what its primitives cost).
 */
static uint32_t resume(struct sim_render *r, uint32_t count)
{
	uint64_t left = r->prim_skip > r->prims ? r->prim_skip - r->prims : 0;
	uint32_t skip = left < count ? (uint32_t)left : count;

	r->prims += skip;
	return skip;
}

/*
 * The next primitive is looked at: the one a partial render stopped in
 * skips the triangles of it binned before (r->skip), the ones after it
 * skip none.  Always true: a step of the loops' conditional expressions.
 */
static bool primitive(struct sim_render *r)
{
	if (r->prims != r->prim_skip)
		r->skip = 0;
	r->prims++;
	r->calls = 0;
	return true;
}

static enum sim_render_status assemble(struct sim_render *r, const struct sim_draw_state *s,
				       const uint64_t *seq, uint32_t n, struct sim_uat_fault *fault)
{
	enum sim_render_status st = SIM_RENDER_DONE;

	/* binning is GPU time too: a draw of millions of primitives meets the time limit */
	r->primitives += n;
	if (r->budget_ns && r->primitives >= 4096) {
		r->primitives = 0;
		if (sim_gpu_thread_ns() - r->tile_start_ns > r->budget_ns)
			return SIM_RENDER_TIMEOUT;
	}
	switch (r->draw.primitive) {
	case AGX_CMD_PRIMITIVE_POINTS:
		for (uint32_t i = resume(r, n); i < n && st == SIM_RENDER_DONE; i++)
			st = primitive(r) ? point(r, s, seq[i], fault) : st;
		break;
	case AGX_CMD_PRIMITIVE_LINES:
		for (uint32_t i = 2 * resume(r, n / 2); i + 1 < n && st == SIM_RENDER_DONE; i += 2)
			st = primitive(r) ? line(r, s, seq + i, fault) : st;
		break;
	case AGX_CMD_PRIMITIVE_LINE_STRIP:
	case AGX_CMD_PRIMITIVE_LINE_LOOP:
		for (uint32_t i = resume(r, n ? n - 1 : 0); i + 1 < n && st == SIM_RENDER_DONE; i++)
			st = primitive(r) ? line(r, s, seq + i, fault) : st;
		if (r->draw.primitive == AGX_CMD_PRIMITIVE_LINE_LOOP && n > 2 &&
		    st == SIM_RENDER_DONE && resume(r, 1) == 0 && primitive(r))
			st = line(r, s, (const uint64_t[2]){ seq[n - 1], seq[0] }, fault);
		break;
	case AGX_CMD_PRIMITIVE_TRIANGLES:
		for (uint32_t i = 3 * resume(r, n / 3); i + 2 < n && st == SIM_RENDER_DONE; i += 3)
			st = primitive(r) ? triangle(r, s, seq + i, fault) : st;
		break;
	case AGX_CMD_PRIMITIVE_TRIANGLE_STRIP:
		/* GL: odd triangles swap their first two vertices */
		for (uint32_t i = resume(r, n > 2 ? n - 2 : 0); i + 2 < n && st == SIM_RENDER_DONE;
		     i++)
			st = primitive(r)
				 ? triangle(r, s,
					    (const uint64_t[3]){ seq[i + (i & 1)],
								 seq[i + !(i & 1)], seq[i + 2] },
					    fault)
				 : st;
		break;
	default: /* fan */
		for (uint32_t i = 1 + resume(r, n > 2 ? n - 2 : 0);
		     i + 1 < n && st == SIM_RENDER_DONE; i++)
			st = primitive(r)
				 ? triangle(r, s, (const uint64_t[3]){ seq[0], seq[i], seq[i + 1] },
					    fault)
				 : st;
		break;
	}
	return st;
}

/* The draw's primitives, in order, restarts splitting strips, loops and fans. */
static enum sim_render_status tile_draw(struct sim_render *r, struct sim_uat_fault *fault,
					char *why, size_t why_size)
{
	const struct sim_vdm_draw *d = &r->draw;
	const struct sim_draw_state *s = &r->vdm.states[d->state];
	uint8_t *indices = NULL;
	uint64_t *seq;
	enum sim_render_status st = SIM_RENDER_DONE;

	if (s->discard)
		return SIM_RENDER_DONE;
	seq = malloc((size_t)d->count * sizeof(*seq));
	if (!seq)
		return malformed(why, why_size, "out of memory for the primitive assembly");
	if (d->index_size && d->restart) {
		indices = malloc((size_t)d->count * d->index_size);
		if (!indices) {
			free(seq);
			return malformed(why, why_size, "out of memory for the index list");
		}
		if (!sim_uat_access(r->dev->uat, r->context, false, d->index_buffer, indices,
				    (uint64_t)d->count * d->index_size, SIM_UAT_READ, fault)) {
			free(indices);
			free(seq);
			return SIM_RENDER_FAULT;
		}
	}
	for (uint32_t inst = 0; inst < d->instances && st == SIM_RENDER_DONE; inst++) {
		uint32_t n = 0;

		for (uint32_t i = 0; i <= d->count && st == SIM_RENDER_DONE; i++) {
			uint32_t index = 0;

			if (i < d->count && indices)
				memcpy(&index, indices + (size_t)i * d->index_size, d->index_size);
			if (i < d->count && !(indices && is_restart(d, index))) {
				seq[n++] = (uint64_t)inst * d->count + i;
				continue;
			}
			st = assemble(r, s, seq, n, fault);
			n = 0;
		}
	}
	free(indices);
	free(seq);
	return st;
}

/* The tiler as a GPU job of one unit: the draw binned, its status kept for sim_render_next(). */
static void tile_unit(struct sim_gpu_core *core, void *arg, uint64_t unit)
{
	struct sim_render *r = arg;

	(void)core;
	(void)unit;
	r->tile_why[0] = '\0';
	r->tile_start_ns = sim_gpu_thread_ns();
	r->tiled = tile_draw(r, &r->tile_fault, r->tile_why, sizeof(r->tile_why));
}

/* --- fragment stage: one tile a unit, on a core ---------------------------------------- */

/* The tile's pixel of lane l of 8x4 block b: quads of 2x2 lanes, 4 across, 2 down. */
static void block_pixel(unsigned tw, unsigned b, unsigned l, uint8_t *px, uint8_t *py)
{
	unsigned q = l >> 2;

	*px = (uint8_t)((b % (tw / 8)) * 8 + (q & 3) * 2 + (l & 1));
	*py = (uint8_t)((b / (tw / 8)) * 4 + (q >> 2) * 2 + ((l >> 1) & 1));
}

struct tri {
	int64_t x[3], y[3]; /* 1/256 pixel */
	bool ccw;
	uint32_t min[2], max[2]; /* pixels of the tile that can be covered, max exclusive */
};

/* The plane through three (x, y, f), as A, B and C at (ox, oy). */
static void plane(const float win[3][4], const float f[3], float ox, float oy, float out[3])
{
	double x1 = (double)win[1][0] - win[0][0], y1 = (double)win[1][1] - win[0][1];
	double x2 = (double)win[2][0] - win[0][0], y2 = (double)win[2][1] - win[0][1];
	double f1 = (double)f[1] - f[0], f2 = (double)f[2] - f[0];
	double det = x1 * y2 - x2 * y1;
	double a = (f1 * y2 - f2 * y1) / det, b = (x1 * f2 - x2 * f1) / det;

	out[0] = (float)a;
	out[1] = (float)b;
	out[2] = (float)(f[0] + a * (ox - win[0][0]) + b * (oy - win[0][1]));
}

/*
 * Where a pixel's samples are, in 1/16 pixel from its top-left corner, by
 * log2 of the count: the standard positions Mesa's asahi driver programs
 * (agx_default_sample_positions: 0x88, 0x44cc, 0xeaa26e26, a byte a
 * sample, x in the low nibble), the same as Direct3D's and llvmpipe's.
 */
static const uint8_t sample_positions[3][4][2] = {
	{ { 8, 8 } },
	{ { 12, 12 }, { 4, 4 } },
	{ { 6, 2 }, { 14, 6 }, { 2, 10 }, { 10, 14 } },
};

static const uint8_t (*positions(unsigned samples))[2]
{
	return sample_positions[samples == 4 ? 2 : samples == 2 ? 1 : 0];
}

/* Whether point (px, py), in 1/256 pixel, is inside, with the top-left rule on the edges. */
static bool inside(const struct tri *t, int64_t px, int64_t py)
{
	for (unsigned e = 0; e < 3; e++) {
		unsigned a = e, b = (e + 1) % 3;
		int64_t dx = t->x[b] - t->x[a], dy = t->y[b] - t->y[a];
		int64_t v = dx * (py - t->y[a]) - dy * (px - t->x[a]);

		if (t->ccw)
			v = -v, dx = -dx, dy = -dy;
		/* positive inside; on the edge only if it is a top or a left one */
		if (v < 0 || (v == 0 && !((dy == 0 && dx > 0) || dy < 0)))
			return false;
	}
	return true;
}

struct frag_ctx {
	struct usc_fragment_io io; /* first: the ISP's callback finds the rest from it */
	struct sim_render *r;
	struct sim_gpu_core *core;
	unsigned tw, th;
	uint32_t w, h; /* of the tile, inside the framebuffer */
	/* the ISP: the tile's depth and stencil (a pixel's samples together), the triangle's */
	unsigned samples;
	float depth[32 * 32 * 4];
	uint8_t stencil[32 * 32 * 4];
	const struct sim_draw_state *state;
	float z[3];  /* the plane of window z, from the 32x32 block's corner */
	double bias; /* the triangle's depth bias */
	/*
	 * Pixel order (usc.h): for each 8x4 block of the tile, the lanes whose
	 * pixel a draw's fragment has used the tilebuffer or the depth and
	 * stencil of since the load program, and the state of the run.
	 */
	uint32_t used[32 * 32 / LANES][USC_PIXEL_RESOURCES];
	struct usc_pixel_order order;
};

/* --- the ISP: depth and stencil tests ------------------------------------------------- */

static bool compare(unsigned func, double a, double b)
{
	switch (func) {
	case AGX_CMD_ZS_FUNC_NEVER:
		return false;
	case AGX_CMD_ZS_FUNC_LESS:
		return a < b;
	case AGX_CMD_ZS_FUNC_EQUAL:
		return a == b;
	case AGX_CMD_ZS_FUNC_LEQUAL:
		return a <= b;
	case AGX_CMD_ZS_FUNC_GREATER:
		return a > b;
	case AGX_CMD_ZS_FUNC_NOT_EQUAL:
		return a != b;
	case AGX_CMD_ZS_FUNC_GEQUAL:
		return a >= b;
	default:
		return true;
	}
}

static uint8_t stencil_op(unsigned op, uint8_t s, uint8_t reference)
{
	switch (op) {
	case AGX_CMD_STENCIL_OP_ZERO:
		return 0;
	case AGX_CMD_STENCIL_OP_REPLACE:
		return reference;
	case AGX_CMD_STENCIL_OP_INCR_SAT:
		return s == 255 ? 255 : s + 1;
	case AGX_CMD_STENCIL_OP_DECR_SAT:
		return s ? s - 1 : 0;
	case AGX_CMD_STENCIL_OP_INVERT:
		return (uint8_t)~s;
	case AGX_CMD_STENCIL_OP_INCR_WRAP:
		return (uint8_t)(s + 1);
	case AGX_CMD_STENCIL_OP_DECR_WRAP:
		return (uint8_t)(s - 1);
	default:
		return s;
	}
}

/* A depth as the buffer keeps it: in [0, 1], and to 16 bits for z16. */
static float stored_depth(const struct sim_render *r, double z)
{
	z = z < 0 ? 0 : z > 1 ? 1 : isnan(z) ? 0 : z;
	return r->z16 ? (float)(nearbyint(z * 65535) / 65535) : (float)z;
}

/* Whether a draw's state tests or writes depth or stencil at all. */
static bool zs_active(const struct sim_draw_state *s)
{
	bool any = s->stencil_test;

	for (unsigned i = 0; i < 2; i++)
		any |= s->face[i].depth_func != AGX_CMD_ZS_FUNC_ALWAYS ||
		       s->face[i].depth_func_2 != AGX_CMD_ZS_FUNC_ALWAYS ||
		       s->face[i].depth_write || s->face[i].depth_write_2;
	return any;
}

/*
 * The stencil test, then the depth test, of the lanes, updating the tile's
 * stencil and depth as the face's state says (GL's order and operations).
 */
static uint32_t zs_test(struct usc_fragment_io *io, uint32_t lanes, const float *depth,
			const uint32_t *stencil)
{
	struct frag_ctx *f = (struct frag_ctx *)io;
	const struct sim_draw_state *s = f->state;
	const struct sim_zs_face *face = &s->face[io->backfacing];
	const struct agx_cmd_ppp_fragment_stencil *st =
	    &s->face[io->backfacing && s->two_sided].stencil;
	const uint8_t(*pos)[2] = positions(f->samples);
	uint32_t passed = 0;

	if (!zs_active(s))
		return lanes;
	for (unsigned l = 0; l < LANES; l++) {
		uint8_t reference = stencil ? (uint8_t)stencil[l] : face->reference, left = 0;
		double x = ((io->x0 + io->px[l]) & 31), y = ((io->y0 + io->py[l]) & 31);

		if (!((lanes >> l) & 1))
			continue;
		/* each live sample on its own, the fragment's depth at the sample's position */
		for (unsigned k = 0; k < f->samples; k++) {
			unsigned p = (io->py[l] * f->tw + io->px[l]) * f->samples + k, op;
			float z = stored_depth(f->r, depth ? depth[l]
							   : f->z[0] * (x + pos[k][0] / 16.0) +
								 f->z[1] * (y + pos[k][1] / 16.0) +
								 f->z[2] + f->bias);
			uint8_t old = f->stencil[p], now;
			bool pass;

			if (!((io->cover[l] >> k) & 1))
				continue;
			pass = !s->stencil_test ||
			       compare(st->compare, reference & st->read_mask, old & st->read_mask);
			if (!pass) {
				op = (unsigned)st->stencil_fail;
			} else if (!compare(face->depth_func, z, f->depth[p]) ||
				   !compare(face->depth_func_2, z, f->depth[p])) {
				op = (unsigned)st->depth_fail;
				pass = false;
			} else {
				op = (unsigned)st->depth_pass;
				if (face->depth_write || face->depth_write_2)
					f->depth[p] = z;
			}
			if (s->stencil_test) {
				now = stencil_op(op, old, reference);
				f->stencil[p] =
				    (uint8_t)((old & ~st->write_mask) | (now & st->write_mask));
			}
			left |= (uint8_t)(pass << k);
		}
		io->cover[l] = left;
		passed |= (uint32_t)(left != 0) << l;
	}
	return passed;
}

/* The byte offset of sample k of the tile's pixel (x, y) in a ZLS buffer. */
static uint64_t zls_element(const struct frag_ctx *f, const struct usc_layout *l, uint32_t x,
			    uint32_t y, unsigned k)
{
	unsigned sx, sy;

	usc_sample_grid(f->samples, &sx, &sy);
	return usc_layout_element(l, 0, 0, (f->io.x0 + x) * sx + k % sx,
				  (f->io.y0 + y) * sy + k / sx);
}

/* ZLS: the tile's depth and stencil from their buffers, or the clear values. */
static bool zls_load(struct frag_ctx *f)
{
	const struct sim_render *r = f->r;
	const struct agx_fw_work_render *c = &r->cmd;
	uint32_t clear = (uint32_t)c->depth_clear;
	/* after a partial render, what it stored is loaded again */
	bool z_load = r->passes ? c->depth_buffer != 0 : r->z_load,
	     s_load = r->passes ? c->stencil_buffer != 0 : r->s_load;
	float z;

	memcpy(&z, &clear, 4);
	z = r->z16 ? (float)((clear & 0xffff) / 65535.0) : z;
	for (uint32_t y = 0; y < f->th; y++)
		for (uint32_t x = 0; x < f->tw; x++)
			for (unsigned k = 0; k < f->samples; k++) {
				unsigned p = (y * f->tw + x) * f->samples + k;
				uint32_t v = 0;

				f->depth[p] = z;
				f->stencil[p] = (uint8_t)c->stencil_clear;
				if (x >= f->w || y >= f->h)
					continue;
				if (z_load) {
					if (!sim_gpu_core_access(
						f->core, AGX_UAT_FAULT_UNIT_ZLS,
						c->depth_buffer +
						    zls_element(f, &r->z_layout, x, y, k),
						&v, r->z_layout.bytes_per_texel, false))
						return false;
					if (r->z16)
						f->depth[p] = (float)(v / 65535.0);
					else
						memcpy(&f->depth[p], &v, 4);
				}
				if (s_load &&
				    !sim_gpu_core_access(f->core, AGX_UAT_FAULT_UNIT_ZLS,
							 c->stencil_buffer +
							     zls_element(f, &r->s_layout, x, y, k),
							 &f->stencil[p], 1, false))
					return false;
			}
	return true;
}

/* ZLS: the tile's depth and stencil back to their buffers. */
static bool zls_store(struct frag_ctx *f)
{
	const struct sim_render *r = f->r;
	const struct agx_fw_work_render *c = &r->cmd;
	/* a partial render keeps what the next pass loads */
	bool z_store = r->pass_final ? r->z_store : c->depth_buffer != 0,
	     s_store = r->pass_final ? r->s_store : c->stencil_buffer != 0;

	for (uint32_t y = 0; y < f->h; y++)
		for (uint32_t x = 0; x < f->w; x++)
			for (unsigned k = 0; k < f->samples; k++) {
				unsigned p = (y * f->tw + x) * f->samples + k;
				uint32_t v;

				if (r->z16)
					v = (uint32_t)nearbyint(f->depth[p] * 65535.0);
				else
					memcpy(&v, &f->depth[p], 4);
				if (z_store &&
				    !sim_gpu_core_access(f->core, AGX_UAT_FAULT_UNIT_ZLS,
							 c->depth_buffer +
							     zls_element(f, &r->z_layout, x, y, k),
							 &v, r->z_layout.bytes_per_texel, true))
					return false;
				if (s_store &&
				    !sim_gpu_core_access(f->core, AGX_UAT_FAULT_UNIT_ZLS,
							 c->stencil_buffer +
							     zls_element(f, &r->s_layout, x, y, k),
							 &f->stencil[p], 1, true))
					return false;
			}
	return true;
}

/* The tile's pixels whose centres the triangle's box reaches, a pixel wider on each side. */
static void bounds(struct tri *t, const struct frag_ctx *f)
{
	const int64_t origin[2] = { f->io.x0, f->io.y0 }, size[2] = { f->w, f->h };

	for (unsigned k = 0; k < 2; k++) {
		const int64_t *c = k ? t->y : t->x;
		int64_t lo = c[0] < c[1] ? c[0] : c[1], hi = c[0] > c[1] ? c[0] : c[1];

		lo = (c[2] < lo ? c[2] : lo) / 256 - 1 - origin[k];
		hi = (c[2] > hi ? c[2] : hi) / 256 + 2 - origin[k];
		t->min[k] = (uint32_t)(lo < 0 ? 0 : lo > size[k] ? size[k] : lo);
		t->max[k] = (uint32_t)(hi < 0 ? 0 : hi > size[k] ? size[k] : hi);
	}
}

/*
 * A draw's fragments of block b start: what earlier fragments of its
 * pixels used is what their fences must cover (usc.h, pixel order).
 */
static struct usc_pixel_order *begin_order(struct frag_ctx *f, unsigned b)
{
	memset(&f->order, 0, sizeof(f->order));
	memcpy(f->order.earlier, f->used[b], sizeof(f->order.earlier));
	return &f->order;
}

/* ... and end: what they used, and the depth and stencil of every lane tested. */
static void end_order(struct frag_ctx *f, unsigned b)
{
	f->used[b][USC_PIXEL_COLOUR] |= f->order.used[USC_PIXEL_COLOUR];
	f->used[b][USC_PIXEL_ZS] |= f->order.used[USC_PIXEL_ZS] | f->io.tested;
}

/* Runs p over the tile's 8x4 blocks, lanes from cover(block); false when the job ended. */
static bool run_blocks(struct frag_ctx *f, const struct sim_pipeline *p, const struct tri *t,
		       const struct sim_draw_state *s)
{
	struct usc_state *st = sim_gpu_core_state(f->core, 0);
	const uint8_t(*pos)[2] = positions(f->samples);
	uint8_t all = (uint8_t)((1u << f->samples) - 1);
	bool late;

	f->state = s;
	for (unsigned b = 0; b < f->tw * f->th / LANES; b++) {
		uint32_t covered = 0, present = 0, bx = b % (f->tw / 8) * 8,
			 by = b / (f->tw / 8) * 4;

		/* blocks outside the triangle's bounds are not looked at */
		if (t && (bx >= t->max[0] || bx + 8 <= t->min[0] || by >= t->max[1] ||
			  by + 4 <= t->min[1]))
			continue;

		for (unsigned l = 0; l < LANES; l++) {
			uint8_t px, py, cover = t ? 0 : all;
			uint32_t x, y;

			block_pixel(f->tw, b, l, &px, &py);
			f->io.px[l] = px;
			f->io.py[l] = py;
			f->io.cover[l] = 0;
			f->io.centroid[l][0] = f->io.centroid[l][1] = 8;
			x = f->io.x0 + px;
			y = f->io.y0 + py;
			if (px >= f->w || py >= f->h)
				continue;
			if (s && s->scissor &&
			    (x < s->scissor_min[0] || x >= s->scissor_max[0] ||
			     y < s->scissor_min[1] || y >= s->scissor_max[1]))
				continue;
			/* the samples the triangle covers, each at its position */
			for (unsigned k = 0; t && k < f->samples; k++)
				if (inside(t, (int64_t)x * 256 + pos[k][0] * 16,
					   (int64_t)y * 256 + pos[k][1] * 16))
					cover |= (uint8_t)(1u << k);
			f->io.cover[l] = cover;
			covered |= (uint32_t)(cover != 0) << l;
			/*
			 * Centroid interpolation: a location in the pixel and the
			 * primitive (GLES 3.0.6 section 3.6.1): its centre when it
			 * covers every sample, else its first covered sample.
			 */
			if (cover && cover != all) {
				unsigned k = (unsigned)__builtin_ctz(cover);

				f->io.centroid[l][0] = pos[k][0];
				f->io.centroid[l][1] = pos[k][1];
			}
		}
		if (!covered)
			continue;
		/*
		 * A shader that does not test coverage itself (sample_mask,
		 * zs_emit) is tested before it runs, and only where it passed
		 * does it run; one that does tests when it says so.
		 */
		late = s && usc_program_tests_coverage(p->program);
		if (s && !late && !(covered = zs_test(&f->io, covered, NULL, NULL)))
			continue;
		/* whole quads run, for derivatives; their uncovered lanes are helpers */
		for (unsigned q = 0; q < LANES / 4; q++)
			if ((covered >> (4 * q)) & 0xf)
				present |= 0xfu << (4 * q);
		sim_gpu_core_prepare(f->core, st, p, present);
		f->io.killed = present & ~covered;
		f->io.tested = late ? 0 : covered;
		f->io.zs_test = late ? zs_test : NULL;
		f->io.order = s ? begin_order(f, b) : NULL;
		st->fragment = &f->io;
		if (!sim_gpu_core_run(f->core, p->program, p->program_va, st))
			return false;
		st->fragment = NULL;
		/* lanes the shader neither tested nor killed are tested at its end */
		if (late) {
			uint32_t rest = covered & ~(f->io.tested | f->io.killed),
				 passed = zs_test(&f->io, rest, NULL, NULL);

			f->io.tested |= passed;
			f->io.killed |= rest & ~passed;
		}
		if (s)
			end_order(f, b);
		if (s && s->visibility) {
			unsigned n = 0;

			for (unsigned l = 0; l < LANES; l++)
				if (((f->io.tested & ~f->io.killed) >> l) & 1)
					n += (unsigned)__builtin_popcount(f->io.cover[l]);

			__atomic_fetch_add(&f->r->passed[s->query], n, __ATOMIC_RELAXED);
			if (n && s->visibility == AGX_CMD_VISIBILITY_MODE_BOOLEAN)
				__atomic_store_n(&f->r->any[s->query], true, __ATOMIC_RELAXED);
		}
	}
	return true;
}

/*
 * GL's polygon offset: the entry's constant times the smallest resolvable
 * difference r (2^-16 for z16; for z32f, 2^(e - 23) with e the exponent of
 * the triangle's largest depth) plus its slope scale times the depth's
 * largest slope, clamped towards the clamp when that is not 0.  How Apple's
 * hardware scales the constant is not public: Mesa's GL driver doubles
 * GL's units, its Vulkan driver divides z16's by 2^15 (agx_state.c,
 * hk_cmd_draw.c).
 */
static double depth_bias(const struct sim_render *r, const struct sim_draw_state *s,
			 const float win[3][4], const float z[3])
{
	double top = fmax(fabs(win[0][2]), fmax(fabs(win[1][2]), fabs(win[2][2]))), bias;
	int e;

	frexp(top, &e);
	bias = s->bias[0] * (r->z16 ? ldexp(1, -16) : ldexp(1, e - 1 - 23)) +
	       s->bias[1] * fmax(fabs(z[0]), fabs(z[1]));
	if (s->bias[2] > 0)
		bias = fmin(bias, s->bias[2]);
	else if (s->bias[2] < 0)
		bias = fmax(bias, s->bias[2]);
	return bias;
}

/* Sets up one primitive's coefficient registers for this tile; false if it is malformed. */
static bool coefficients(struct frag_ctx *f, const struct sim_draw_state *s, const float *rec,
			 unsigned vars, float (*cf)[3])
{
	const float *v[3] = { rec + 2, rec + 2 + (VTX + vars), rec + 2 + 2 * (VTX + vars) };
	const float *flat = rec + 2 + 3 * (VTX + vars);
	float win[3][4], bx = (float)(f->io.x0 & ~31u), by = (float)(f->io.y0 & ~31u);

	for (unsigned j = 0; j < 3; j++)
		memcpy(win[j], v[j], 16);
	plane(win, (const float[3]){ win[0][2], win[1][2], win[2][2] }, bx, by, f->z);
	f->bias = s->depth_bias ? depth_bias(f->r, s, win, f->z) : 0;
	for (unsigned i = 0; i < s->num_cf; i++) {
		const struct agx_cmd_cf_binding *b = &s->cf[i];

		for (unsigned k = 0; k < b->components; k++) {
			unsigned slot = (unsigned)b->base_slot + k, user = s->frag_z ? 2 : 1;
			float *out = cf[b->base_coefficient_register + k], val[3];
			bool persp = b->shade_model == AGX_CMD_SHADE_MODEL_PERSPECTIVE;
			int fv = b->shade_model == AGX_CMD_SHADE_MODEL_FLAT_VERTEX_0   ? 0
				 : b->shade_model == AGX_CMD_SHADE_MODEL_FLAT_VERTEX_1 ? 1
				 : b->shade_model == AGX_CMD_SHADE_MODEL_FLAT_VERTEX_2 ? 2
										       : -1;

			for (unsigned j = 0; j < 3; j++) {
				if (b->source == AGX_CMD_CF_SOURCE_POINT_COORD)
					val[j] = k < 2 ? v[j][4 + k] : 0; /* s, t across a point */
				else if (b->source == AGX_CMD_CF_SOURCE_FRAGCOORD_Z ||
					 (slot == 1 && s->frag_z))
					val[j] = win[j][2];
				else if (slot == 0)
					val[j] = win[j][3]; /* W: 1/w, interpolated linearly */
				else if (slot - user < vars)
					val[j] = v[j][VTX + slot - user];
				else
					return false;
				if (persp && b->source == AGX_CMD_CF_SOURCE_VARYING)
					val[j] *= win[j][3];
			}
			if (fv >= 0) {
				/* flat: the provoking vertex's value, as it was written */
				out[0] = out[1] = 0;
				if (b->source == AGX_CMD_CF_SOURCE_VARYING && slot >= user)
					memcpy(&out[2], &flat[slot - user], 4);
				else
					out[2] = val[fv];
				continue;
			}
			plane(win, val, bx, by, out);
		}
	}
	return true;
}

static void fragment_unit(struct sim_gpu_core *core, void *arg, uint64_t unit)
{
	struct sim_render *r = arg;
	const struct agx_fw_work_render *c = &r->cmd;
	struct frag_ctx f = { .r = r, .core = core };
	unsigned tile = (unsigned)unit, tx = tile % r->tiles_x, ty = tile / r->tiles_x;
	uint32_t next = 0;
	float cf[256][3];
	struct usc_state *st;

	f.tw = (unsigned)c->utile_width;
	f.th = (unsigned)c->utile_height;
	f.io.tile = sim_gpu_core_local(core);
	f.io.width = f.tw;
	f.io.height = f.th;
	f.io.sample_size = (unsigned)c->sample_size;
	f.io.samples = f.samples = (unsigned)c->samples;
	f.io.x0 = tx * f.tw;
	f.io.y0 = ty * f.th;
	f.io.cf = (const float(*)[3])cf;
	f.w = (uint32_t)c->width - f.io.x0 < f.tw ? (uint32_t)c->width - f.io.x0 : f.tw;
	f.h = (uint32_t)c->height - f.io.y0 < f.th ? (uint32_t)c->height - f.io.y0 : f.th;
	memset(f.io.tile, 0, (size_t)f.tw * f.th * f.samples * f.io.sample_size);
	memset(f.used, 0, sizeof(f.used));
	if (!zls_load(&f))
		return;

	/* the load program fills the tile */
	if (!run_blocks(&f, r->pass_load, NULL, NULL))
		return;
	/* the tile's primitives, in the order they were drawn */
	if (!sim_gpu_core_access(core, AGX_UAT_FAULT_UNIT_TILER, c->tvb + tile * TILE_ENTRY, &next,
				 4, false))
		return;
	/* a list longer than the heap holds blocks has been tampered with: a loop */
	for (uint64_t blocks = 0; next; blocks++) {
		uint32_t block[2 + BLOCK_PRIMS];

		if (blocks > c->tvb_size / BLOCK_BYTES)
			return sim_gpu_core_malformed(core, "TVB list loops");
		if (next + (uint64_t)BLOCK_BYTES > c->tvb_size ||
		    !sim_gpu_core_access(core, AGX_UAT_FAULT_UNIT_TILER, c->tvb + next, block,
					 BLOCK_BYTES, false))
			return next + (uint64_t)BLOCK_BYTES > c->tvb_size
				   ? sim_gpu_core_malformed(core, "TVB list runs past the heap")
				   : (void)0;
		for (unsigned i = 0; i < block[1] && i < BLOCK_PRIMS; i++) {
			uint32_t head[2];
			float rec[2 + 3 * (VTX + MAX_SLOTS) + MAX_SLOTS];
			const struct sim_draw_state *s;
			unsigned vars;
			uint64_t size;
			struct tri t;

			if (!sim_gpu_core_access(core, AGX_UAT_FAULT_UNIT_TILER,
						 c->tvb + block[2 + i], head, 8, false))
				return;
			if (head[0] >= r->vdm.num_states)
				return sim_gpu_core_malformed(core, "TVB primitive names no state");
			s = &r->vdm.states[head[0]];
			vars = s->slots - 4;
			size = record_size(vars);
			if (block[2 + i] + size > c->tvb_size)
				return sim_gpu_core_malformed(core, "TVB record past the heap");
			if (!sim_gpu_core_access(core, AGX_UAT_FAULT_UNIT_TILER,
						 c->tvb + block[2 + i], rec, (unsigned)size, false))
				return;
			if (!s->has_fs)
				continue;
			for (unsigned j = 0; j < 3; j++) {
				const float *v = rec + 2 + j * (VTX + vars);

				/* the tiler kept them inside the guard band; a record that is not,
				 * was written by someone else */
				if (!(fabs(v[0]) < GUARD_BAND) || !(fabs(v[1]) < GUARD_BAND))
					return sim_gpu_core_malformed(core,
								      "TVB record outside the "
								      "guard band");
				t.x[j] = (int64_t)llround((double)v[0] * 256);
				t.y[j] = (int64_t)llround((double)v[1] * 256);
			}
			t.ccw = (t.x[1] - t.x[0]) * (t.y[2] - t.y[0]) -
				    (t.x[2] - t.x[0]) * (t.y[1] - t.y[0]) <
				0;
			bounds(&t, &f);
			if (!coefficients(&f, s, rec, vars, cf))
				return sim_gpu_core_malformed(core,
							      "CF binding reads a slot past the "
							      "vertex outputs");
			f.io.num_cf = s->num_cf_regs;
			f.io.backfacing = head[1] & 1;
			if (!run_blocks(&f, &s->fs, &t, s))
				return;
		}
		next = block[0];
	}
	/* the store program writes the tile out: once, as one thread */
	f.io.num_cf = 0;
	f.io.killed = f.io.tested = 0;
	memset(f.io.cover, (1 << f.samples) - 1, sizeof(f.io.cover));
	st = sim_gpu_core_state(core, 0);
	sim_gpu_core_prepare(core, st, r->pass_store, 1);
	f.io.zs_test = NULL;
	f.io.order = NULL;
	st->fragment = &f.io;
	if (!sim_gpu_core_run(core, r->pass_store->program, r->pass_store->program_va, st))
		return;
	st->fragment = NULL;
	zls_store(&f);
}

/*
 * The occlusion counters, once every tile is done: the samples that passed
 * a counting query's draws added to its counter, 1 or'ed into a boolean
 * query's where any did.
 */
static bool visibility_results(struct sim_render *r, struct sim_uat_fault *fault)
{
	uint64_t base = r->cmd.visibility_result_buffer;

	for (unsigned i = 0; r->passed && i < r->vdm.limits.visibility_count; i++) {
		uint64_t value;

		if (!r->passed[i] && !r->any[i])
			continue;
		if (!sim_uat_access(r->dev->uat, r->context, false, base + 8ull * i, &value, 8,
				    SIM_UAT_READ, fault))
			return false;
		value = r->any[i] ? value | 1 : value + r->passed[i];
		if (!sim_uat_access(r->dev->uat, r->context, false, base + 8ull * i, &value, 8,
				    SIM_UAT_WRITE, fault))
			return false;
	}
	return true;
}

/* A fragment pass over every tile, with its tile programs. */
static void fragment_pass(struct sim_render *r, const struct sim_pipeline *load,
			  const struct sim_pipeline *store, bool final, struct sim_gpu_job *job)
{
	r->pass_load = load;
	r->pass_store = store;
	r->pass_final = final;
	*job = (struct sim_gpu_job){ .context = r->context,
				     .run = fragment_unit,
				     .arg = r,
				     .units = (uint64_t)r->tiles_x * r->tiles_y };
}

/* --- the steps ----------------------------------------------------------------------- */

enum sim_render_status sim_render_next(struct sim_render *r, struct usc_cache *programs,
				       uint64_t budget_ns, struct sim_gpu_job *job,
				       enum agx_uat_fault_unit *unit, struct sim_uat_fault *fault,
				       char *why, size_t why_size)
{
	why[0] = '\0';
	r->budget_ns = budget_ns;
	for (;;) {
		enum sim_render_status st;
		uint64_t total, bytes;

		switch (r->phase) {
		case SIM_RENDER_VERTEX:
			r->calls = 0;
			r->prims = 0;
			r->phase = SIM_RENDER_TILING;
			*job = (struct sim_gpu_job){
				.context = r->context, .run = tile_unit, .arg = r, .units = 1
			};
			return SIM_RENDER_JOB;
		case SIM_RENDER_TILING:
			*unit = AGX_UAT_FAULT_UNIT_TILER;
			st = r->tiled;
			*fault = r->tile_fault;
			snprintf(why, why_size, "%s", r->tile_why);
			if (st == SIM_RENDER_PARTIAL_NEEDED) {
				/* render what is binned; then this draw goes on where it stopped */
				r->prim_skip = r->prims - 1;
				r->skip = r->calls - 1;
				r->phase = SIM_RENDER_PARTIAL;
				fragment_pass(r, r->passes ? &r->partial_reload : &r->load,
					      &r->partial_store, false, job);
				return SIM_RENDER_JOB;
			}
			if (st != SIM_RENDER_DONE)
				return st;
			r->skip = 0;
			r->prim_skip = 0;
			r->phase = SIM_RENDER_STREAM;
			continue;
		case SIM_RENDER_PARTIAL:
			r->passes++;
			if (!empty_heap(r, fault))
				return SIM_RENDER_FAULT;
			r->phase = SIM_RENDER_VERTEX;
			continue;
		case SIM_RENDER_FRAGMENT:
			*unit = AGX_UAT_FAULT_UNIT_ZLS;
			return visibility_results(r, fault) ? SIM_RENDER_DONE : SIM_RENDER_FAULT;
		case SIM_RENDER_STREAM:
			break;
		}
		*unit = AGX_UAT_FAULT_UNIT_VDM;
		switch (sim_vdm_next(&r->vdm, programs, &r->draw, fault, why, why_size)) {
		case SIM_VDM_FAULT:
			return SIM_RENDER_FAULT;
		case SIM_VDM_MALFORMED:
			return SIM_RENDER_MALFORMED;
		case SIM_VDM_END:
			if (r->overflow)
				return SIM_RENDER_OVERFLOW;
			r->phase = SIM_RENDER_FRAGMENT;
			fragment_pass(r, r->passes ? &r->partial_reload : &r->load, &r->store, true,
				      job);
			return SIM_RENDER_JOB;
		case SIM_VDM_DRAW:
			break;
		}
		total = (uint64_t)r->draw.count * r->draw.instances;
		bytes = total * r->draw.vs_slots * 4;
		if (!total)
			continue;
		if (bytes > MAX_OUTPUT_BYTES)
			return malformed(why, why_size, "draw of %llu vertices of %u words",
					 (unsigned long long)total, r->draw.vs_slots);
		if (bytes > r->outputs_size) {
			/*
			 * Mapped, not malloc'd: a draw's outputs can be hundreds of
			 * megabytes, which malloc may fill (MALLOC_PERTURB_) here on
			 * the firmware thread, long enough to miss its pings.  The
			 * cores zero what they use (vertex_unit).
			 */
			void *more = mmap(NULL, bytes, PROT_READ | PROT_WRITE,
					  MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

			if (more == MAP_FAILED)
				return malformed(why, why_size, "out of memory for vertex outputs");
			if (r->outputs)
				munmap(r->outputs, r->outputs_size);
			r->outputs = more;
			r->outputs_size = bytes;
		}
		r->phase = SIM_RENDER_VERTEX;
		*job = (struct sim_gpu_job){ .context = r->context,
					     .run = vertex_unit,
					     .arg = r,
					     .units = (total + LANES - 1) / LANES };
		return SIM_RENDER_JOB;
	}
}
