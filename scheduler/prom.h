/*
 * prom.h: agx-scheduler's metrics in the Prometheus text exposition format,
 * version 0.0.4 (https://prometheus.io/docs/instrumenting/exposition_formats/),
 * written onto an evbuffer, and the histograms behind its latencies.
 *
 * Metric and label names come from the code and are written as given;
 * label values may come from clients (process names) and are escaped.
 * Labels are a NULL-terminated list of key, value pairs, or NULL for none:
 *
 *	prom_sample(out, "agx_scheduler_queue_depth",
 *		    (const char *[]){ "priority", "low", NULL }, depth);
 *
 * Every writer returns 0, or -ENOMEM when the buffer could not grow (the
 * buffer then holds part of a line: the scrape should fail as a whole).
 */
#ifndef SCHEDULER_PROM_H
#define SCHEDULER_PROM_H

#include <stddef.h>
#include <stdint.h>

struct evbuffer;

/* "# HELP" and "# TYPE" of a family; type is "counter", "gauge" or "histogram". */
int prom_family(struct evbuffer *out, const char *name, const char *type, const char *help);

/* One sample; doubles are printed so that they read back as the same double. */
int prom_sample(struct evbuffer *out, const char *name, const char *const *labels, double value);
/* One sample of an integer counter, printed exactly. */
int prom_sample_u64(struct evbuffer *out, const char *name, const char *const *labels,
		    uint64_t value);

/*
 * Latency histograms share fixed bucket upper bounds in seconds, 1-2-5 in
 * each decade from 1 us to 10 s, then +Inf.  Zero-initialised is empty.
 */
#define PROM_HISTOGRAM_BOUNDS 22
extern const double prom_histogram_bounds[PROM_HISTOGRAM_BOUNDS];

struct prom_histogram {
	/* observations per bucket, not cumulative; the last one is above 10 s */
	uint64_t buckets[PROM_HISTOGRAM_BOUNDS + 1];
	uint64_t count;
	double sum;
};

/* NaN is not counted: it would turn the sum into NaN for good. */
void prom_histogram_observe(struct prom_histogram *h, double seconds);
/* name_bucket{labels,le="..."} (cumulative), name_sum and name_count. */
int prom_write_histogram(struct evbuffer *out, const char *name, const char *const *labels,
			 const struct prom_histogram *h);
double prom_histogram_quantile(const struct prom_histogram *h, double q);

/*
 * The q-quantile of a histogram given as n buckets with increasing upper
 * bounds le[] (the last one +Inf) and cumulative counts, estimated as
 * Prometheus' histogram_quantile() does: linear interpolation inside the
 * bucket the rank falls in, the lowest bucket starting at 0, and the upper
 * bound of the last finite bucket for ranks in the +Inf one.  NaN without
 * observations, without a +Inf bucket or for q NaN; -Inf for q < 0, +Inf
 * for q > 1.  Counts that go down (a torn scrape) are read as flat.
 */
double prom_quantile(double q, const double *le, const double *cumulative, size_t n);

#endif
