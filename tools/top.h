/*
 * top.h: agx-top's frame and its scrapes, apart from the terminal so that
 * tests can run them.
 */
#ifndef TOOLS_TOP_H
#define TOOLS_TOP_H

#include <stddef.h>

#include "promtext.h"

/* The lines of a frame above its client rows. */
#define TOP_HEADER_LINES 6

/*
 * One frame, from the scrape before (NULL: none yet, rates unknown) and
 * this one, interval seconds apart: a header with the scheduler's totals,
 * then a row per client sorted by the GPU time it used in the interval
 * (by its total without prev), at most max_rows of them (0: all).
 * Nothing but printable ASCII and line feeds; a malloc'd string, or NULL
 * when out of memory.
 */
char *top_render(const struct promtext *prev, const struct promtext *cur, double interval,
		 size_t max_rows);

/*
 * GET /metrics from address (scheduler/http.h's form) over a fresh
 * connection, within timeout_ms: 0 with the body in *body (malloc'd,
 * NUL-terminated past *size), or a negative errno with what went wrong
 * in err.  Only "200" with a text/plain body, whole, is a success.
 */
int top_scrape(const char *address, int timeout_ms, char **body, size_t *size, char *err,
	       size_t err_size);

#endif
