/*
 * demo-common.h: what the demos (agx-demo, agx-demo-compute) share: PNG
 * output and the scheduler's metrics, printed as agx top shows them.
 */
#ifndef TOOLS_DEMO_COMMON_H
#define TOOLS_DEMO_COMMON_H

#include <stdint.h>

/* Writes width x height RGBA8 pixels (R, G, B, A bytes, rows top first) as a PNG: 0 or -errno. */
int write_png(const char *path, const uint32_t *pixels, unsigned width, unsigned height);

/* Prints agx top's frame of the running stack's metrics (AGX_RUNTIME_DIR), or why not. */
void print_metrics(void);

#endif
