/*
 * fuzz-gpufw.h: where fuzz-gpufw puts its input, shared with the program
 * that writes its seeds.  The firmware pages are laid out as the test
 * host's (sim/host/fwhost.c); an input is cut into regions, in this order,
 * each copied to its place: page 0 (initdata, control blocks), the first
 * entries of the fwctl, devctl, compute-priority-0 and vertex-priority-0
 * pipe rings, a work area (two queues, their rings, items, stamps), and
 * context 1's code and pipelines, uniforms, CDM and VDM streams and PPP
 * state.
 */
#ifndef TESTS_SIM_FUZZ_GPUFW_H
#define TESTS_SIM_FUZZ_GPUFW_H

#define FUZZ_FWVA    0xffffffa000000000ull
#define FUZZ_CODE_VA 0x10000000ull
#define FUZZ_UNIF_VA 0x10004000ull
#define FUZZ_BUF_VA  0x20000000ull

/* offsets in the firmware pages (fwhost.c) */
#define FUZZ_INITDATA	  0x0
#define FUZZ_FWCTL_BLOCK  0x100
#define FUZZ_EVENT_BLOCK  0x140
#define FUZZ_DEVCTL_BLOCK 0x180
#define FUZZ_LOG_BLOCK	  0x1c0
#define FUZZ_PIPE_BLOCKS  0x200
#define FUZZ_FWCTL_RING	  0x4000
#define FUZZ_DEVCTL_RING  0x4800
#define FUZZ_PIPE_RINGS	  0x5000 /* 12 of 0x400 */
#define FUZZ_EVENT_RING	  0x8000
#define FUZZ_LOG_RING	  0xa000
#define FUZZ_WORK	  0xc000
#define FUZZ_PIPE	  2 /* priority 0, compute */
#define FUZZ_RENDER_PIPE  0 /* priority 0, vertex */

struct fuzz_region {
	unsigned page_offset; /* in the firmware pages, or the context's (below) */
	unsigned size;
	int context; /* 0: firmware pages; 1: context 1's code and uniform pages */
};

static const struct fuzz_region fuzz_regions[] = {
	{ FUZZ_INITDATA, 0x500, 0 },
	{ FUZZ_FWCTL_RING, 0x100, 0 },
	{ FUZZ_DEVCTL_RING, 0x100, 0 },
	{ FUZZ_PIPE_RINGS + FUZZ_PIPE * 0x400, 0x100, 0 },
	{ FUZZ_PIPE_RINGS + FUZZ_RENDER_PIPE * 0x400, 0x100, 0 },
	{ FUZZ_WORK, 0x600, 0 }, /* compute queue at 0, render queue at 0x400 */
	{ 0x0, 0x600, 1 },	 /* code, pipelines, CF bindings (usc_base: the code page) */
	{ 0x4000, 0x300, 1 }, /* uniforms, CDM stream at 0x40, VDM at 0x100, PPP at 0x140 */
};

#endif
