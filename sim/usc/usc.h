/*
 * usc.h: the simulated USC core: executes G13 machine code on one SIMD
 * group of 32 lanes.  A program is decoded once (usc_program_create) and
 * run many times; each run works on a usc_state that holds the register
 * file, the uniforms, the execution mask and the memory callbacks.
 *
 * Semantics follow the public documentation (dougallj/applegpu); where it
 * is silent, docs/isa.md says what the simulator does.
 */
#ifndef USC_H
#define USC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define USC_LANES 32
/* r0..r127, plus one so that a pair may start at r127 */
#define USC_NUM_GPRS 129
/* u0..u255 (32-bit), plus one for a pair at u255 */
#define USC_NUM_UNIFORMS 257

struct usc_memory {
	/* Device memory at a virtual address; false means a fault. */
	bool (*read)(void *ctx, uint64_t addr, void *dst, unsigned size);
	bool (*write)(void *ctx, uint64_t addr, const void *src, unsigned size);
	/*
	 * Optional fast path: host memory backing [addr, addr + size), or
	 * NULL, in which case read/write decide (and report the fault).
	 */
	void *(*translate)(void *ctx, uint64_t addr, size_t size, bool write);
	void *ctx;
};

/* Where a SIMD group sits in its dispatch, for the special registers. */
struct usc_dispatch {
	uint32_t threadgroup_position[3];
	uint32_t threads_per_threadgroup[3];
	uint32_t simdgroup_index; /* within the threadgroup */
};

/*
 * What a graphics stage lends the USC: a vertex shader's outputs (st_var),
 * a fragment shader's tile, coefficients and coverage (iter, ldcf, ld_tile,
 * st_tile, sample_mask, imgwblk).  Compute work has neither.
 */
struct usc_vertex_io {
	uint32_t *outputs; /* lane l's 32-bit output slots at outputs[l * slots] */
	unsigned slots;
};

/*
 * Pixel order (wait_pix, signal_pix; docs/isa.md, "Pixel order"): the
 * fragments of a pixel must use its tilebuffer and test its depth and
 * stencil late in the order of their primitives.  agx-sim runs a tile's
 * fragments one SIMD group after the other, so a wait never has to
 * wait; what it checks instead is that a fragment fenced itself where the
 * hardware would need it.  Resources: the pixel's colour in the
 * tilebuffer (ld_tile needs the fence bits 0x8, st_tile 0xc) and its
 * late depth/stencil test (sample_mask that tests, zs_emit: 0x1) -- the
 * bits Mesa's compiler waits on.  A lane that uses one where an earlier
 * fragment of its pixel used it must have waited on its bits and not yet
 * signalled them; else the run ends with USC_ORDER.
 */
enum usc_pixel_resource {
	USC_PIXEL_COLOUR,
	USC_PIXEL_ZS,
	USC_PIXEL_RESOURCES,
};

#define USC_PIXEL_FENCES 10 /* the width of wait_pix's mask */

struct usc_pixel_order {
	/* lanes whose pixel an earlier fragment has used the resource of (the caller's) */
	uint32_t earlier[USC_PIXEL_RESOURCES];
	/* lanes that used it in this run, for the caller to carry to the next fragments */
	uint32_t used[USC_PIXEL_RESOURCES];
	/* lanes that waited on, and that signalled, each fence bit in this run */
	uint32_t waited[USC_PIXEL_FENCES], signalled[USC_PIXEL_FENCES];
};

struct usc_fragment_io {
	/*
	 * The tilebuffer: width x height pixels, row by row, of samples
	 * samples (1, 2 or 4) of sample_size bytes each.
	 */
	uint8_t *tile;
	unsigned width, height, sample_size, samples;
	uint32_t x0, y0;		      /* the tile's origin in the framebuffer */
	uint8_t px[USC_LANES], py[USC_LANES]; /* each lane's pixel in the tile */
	/* coefficient registers: A, B, C of A * x + B * y + C, x and y from the
	 * corner of the 32x32 block the tile lies in, pixel centres at +0.5 */
	const float (*cf)[3];
	unsigned num_cf;
	uint32_t killed; /* lanes a sample_mask killed: their tile writes are dropped */
	uint32_t tested; /* lanes a sample_mask sent to the depth/stencil test */
	/*
	 * Each lane's live samples: covered by the primitive, neither killed
	 * nor failed so far (bit s: sample s).  Tile stores write only these.
	 */
	uint8_t cover[USC_LANES];
	/*
	 * Where iter's centroid interpolates each lane, in 1/16 pixel from
	 * its pixel's corner: the centre of a pixel the primitive covers
	 * whole, else its first covered sample.
	 */
	uint8_t centroid[USC_LANES][2];
	bool backfacing;
	/*
	 * The depth and stencil test of lanes, now (sample_mask, zs_emit):
	 * each lane's samples in cover are tested, those that fail leave it;
	 * returns the lanes with a sample left.  depth and stencil: what the shader gives
	 * per lane, or NULL for the fragment's own.  NULL: everything passes.
	 */
	uint32_t (*zs_test)(struct usc_fragment_io *io, uint32_t lanes, const float *depth,
			    const uint32_t *stencil);
	/* pixel order, checked when set (a draw's fragments); NULL for tile programs */
	struct usc_pixel_order *order;
};

struct usc_state {
	uint32_t r[USC_NUM_GPRS][USC_LANES];
	uint32_t u[USC_NUM_UNIFORMS];
	uint32_t present; /* lanes that exist; the others never execute */
	uint32_t exec;	  /* lanes that execute now; derived from r0l and present */
	struct usc_dispatch dispatch;
	struct usc_memory memory;
	uint8_t *threadgroup_memory;
	size_t threadgroup_memory_size;
	/* each lane's stack (stack_load/stack_store): stack_size bytes from lane * stack_size */
	uint8_t *stack;
	size_t stack_size;
	/* the texture unit's state: num_textures descriptors (24 bytes), samplers with borders */
	const uint8_t *textures, *samplers;
	unsigned num_textures, num_samplers;
	/*
	 * Set when the threadgroup has other SIMD groups: threadgroup_barrier
	 * then ends the run with USC_BARRIER, and the caller runs the others
	 * up to it before resuming this one.
	 */
	bool yield_at_barrier;
	struct usc_vertex_io *vertex;	  /* a vertex shader's, else NULL */
	struct usc_fragment_io *fragment; /* a fragment, background or end-of-tile program's */
	uint32_t resume; /* where a run stopped by USC_LIMIT or USC_BARRIER goes on */
};

enum usc_status {
	USC_DONE,	/* reached stop (or the end of the program) */
	USC_FAULT,	/* a memory access failed */
	USC_LIMIT,	/* ran out of its instruction budget; usc_run() again goes on */
	USC_BAD_INSTR,	/* an encoding we do not know, or one we do not execute */
	USC_BAD_BRANCH, /* a branch into the middle of an instruction */
	USC_TRAP,	/* the trap instruction */
	USC_BARRIER,	/* at a threadgroup barrier (yield_at_barrier); usc_run() again goes on */
	USC_ORDER, /* a pixel's tilebuffer or depth/stencil used out of order (usc_pixel_order) */
};

struct usc_result {
	enum usc_status status;
	uint32_t pc;		/* offset of the instruction that ended the run */
	uint64_t instructions;	/* executed */
	uint64_t fault_address; /* USC_FAULT */
	bool fault_write;
	char message[128];
};

struct usc_program;

/* Decodes code (size bytes) once; NULL only when out of memory. */
struct usc_program *usc_program_create(const uint8_t *code, size_t size);
/*
 * Where a program in memory ends, found as its bytes arrive: the end of the
 * first stop that no branch before it jumps past.  The GPU fetches code as
 * it runs it; the simulator decodes ahead, and this keeps it from decoding
 * whatever follows the program in the mapping.  Feed it the bytes so far
 * (from the program's start, growing); it returns the program's size once
 * its end is among them, else 0, and resumes where it stopped.
 */
struct usc_extent {
	size_t pc, furthest; /* zero to start */
};
size_t usc_program_extent(struct usc_extent *e, const uint8_t *code, size_t size);
/* Whether the program tests coverage itself (sample_mask, zs_emit): late depth testing. */
bool usc_program_tests_coverage(const struct usc_program *program);
void usc_program_destroy(struct usc_program *program);

/* Puts the state in its power-on form for lanes [0, lanes): all zero, all executing. */
void usc_state_init(struct usc_state *state, unsigned lanes);
/*
 * The same for a run of program: zero as far as the program can see (the
 * registers it names, and the rest of the state), cheaper when it names few.
 */
void usc_state_reset(struct usc_state *state, unsigned lanes, const struct usc_program *program);

/*
 * Runs from offset 0 (or where a run that stopped at its limit or a
 * barrier left off) until stop, a fault, a barrier or max_instructions.
 */
struct usc_result usc_run(const struct usc_program *program, struct usc_state *state,
			  uint64_t max_instructions);

#endif
