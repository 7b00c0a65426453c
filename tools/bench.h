/*
 * bench.h: what every `./agx bench` program measures with: a monotonic
 * clock in microseconds, and sorting samples for their percentiles.
 */
#ifndef AGX_BENCH_H
#define AGX_BENCH_H

#include <stdlib.h>
#include <time.h>

static inline double bench_now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e6 + (double)ts.tv_nsec / 1e3;
}

static inline int bench_cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* Sorts samples in place; the p-th percentile is then samples[n * p / 100]. */
static inline void bench_sort(double *samples, size_t n)
{
	qsort(samples, n, sizeof(*samples), bench_cmp_double);
}

#endif
