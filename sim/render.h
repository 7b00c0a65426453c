/*
 * render.h: a render work item on agx-sim's GPU (docs/firmware-abi.md,
 * docs/control-streams.md).  Vertex + tiling: the VDM stream's draws are
 * vertex-shaded on the cores, their triangles assembled, clipped, culled,
 * mapped to the window and binned into the tiles they touch, in the TVB
 * heap.  Fragment: every tile is rendered on a core in its local memory --
 * the load pipeline on each pixel, then each binned triangle rasterized
 * and its fragments shaded, then the store pipeline writes the tile out.
 * The firmware thread drives it one GPU job at a time; binning is a job
 * of its own too, so the firmware stays free to answer its mailbox (an
 * RTKit ping) however long a draw takes to bin.
 */
#ifndef SIM_RENDER_H
#define SIM_RENDER_H

#include <stdbool.h>
#include <stdint.h>

#include "usc/layout.h"
#include "agx_fwabi.h"
#include "gpu.h"
#include "vdm.h"

enum sim_render_status {
	SIM_RENDER_JOB,		   /* *job is ready for the cores */
	SIM_RENDER_DONE,	   /* finished well */
	SIM_RENDER_FAULT,	   /* *fault, by unit */
	SIM_RENDER_MALFORMED,	   /* why says what */
	SIM_RENDER_OVERFLOW,	   /* the TVB heap needed heap_used bytes */
	SIM_RENDER_TIMEOUT,	   /* binning ran past the budget */
	SIM_RENDER_PARTIAL_NEEDED, /* inside render.c only: the heap is full, render what is in it
				    */
};

struct sim_render {
	struct sim_device *dev;
	unsigned context;
	struct agx_fw_work_render cmd;
	struct sim_vdm vdm;
	enum {
		SIM_RENDER_STREAM,
		SIM_RENDER_VERTEX,
		SIM_RENDER_TILING,  /* the draw's primitives being binned, on a core */
		SIM_RENDER_PARTIAL, /* a partial render of what is binned, then binning goes on */
		SIM_RENDER_FRAGMENT
	} phase;
	/* the draw being vertex-shaded, and the outputs of its vertices */
	struct sim_vdm_draw draw;
	uint32_t *outputs;
	size_t outputs_size;
	/* the tiler */
	unsigned tiles_x, tiles_y;
	uint32_t *tail; /* per tile: the TVB offset of its last list block, 0: none yet */
	uint64_t heap_used;
	bool overflow;		/* the heap was too small: binning only counts what it would need */
	uint64_t budget_ns;	/* the item's GPU time left when binning began; 0: no limit */
	uint64_t tile_start_ns; /* the binning core's thread CPU time when it began */
	uint64_t primitives;	/* binned so far, to look at the clock now and then */
	/* how the tiling job ended, for the firmware thread's next step */
	enum sim_render_status tiled;
	struct sim_uat_fault tile_fault;
	char tile_why[128];
	/*
	 * Partial renders: when the heap is full and the render has partial
	 * pipelines, what is binned is rendered (partial store), the heap
	 * emptied, and the draw binned again from the triangle that did not
	 * fit (the first `skip` it binned are skipped); later passes load
	 * the tile with the partial reload pipeline.
	 */
	bool partials;	      /* the render has both partial pipelines */
	unsigned passes;      /* partial renders so far */
	uint64_t calls, skip; /* the current primitive's triangles offered to the heap, and done */
	uint64_t prims, prim_skip; /* the draw's primitives looked at, and binned before */
	uint64_t binned;	   /* triangles in the heap since it was last emptied */
	uint64_t heap_needed;	   /* what all passes took, for the grow request */
	struct sim_pipeline partial_reload, partial_store;
	const struct sim_pipeline *pass_load, *pass_store;
	bool pass_final;
	/* the tile programs */
	struct sim_pipeline load, store;
	/* ZLS: depth and stencil buffers, loaded into each tile and stored from it */
	bool z_load, z_store, s_load, s_store, z16;
	struct usc_layout z_layout, s_layout;
	/* occlusion queries: samples that passed, and whether any did, per counter */
	uint64_t *passed;
	bool *any;
};

/* Checks the command and reads its tile programs; then sim_render_next() for each step. */
enum sim_render_status sim_render_start(struct sim_render *r, struct sim_device *dev,
					unsigned context, const struct agx_fw_work_render *cmd,
					struct usc_cache *programs, enum agx_uat_fault_unit *unit,
					struct sim_uat_fault *fault, char *why, size_t why_size);

/*
 * The next step, once the previous job (if any) finished well: a job in
 * *job, or the end.  On SIM_RENDER_FAULT *unit and *fault say what.
 * Binning stops once it has taken budget_ns of GPU time (sim_gpu_thread_ns()
 * of the core binning; 0: no limit).
 */
enum sim_render_status sim_render_next(struct sim_render *r, struct usc_cache *programs,
				       uint64_t budget_ns, struct sim_gpu_job *job,
				       enum agx_uat_fault_unit *unit, struct sim_uat_fault *fault,
				       char *why, size_t why_size);

/* Frees what the render holds (any time; finish of an unstarted one is harmless). */
void sim_render_finish(struct sim_render *r);

#endif
