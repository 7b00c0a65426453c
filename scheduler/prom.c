/*
 * prom.c: the Prometheus text format's writer (escaping, values that read
 * back exactly) and the fixed-bucket latency histograms (prom.h).
 */
#include <assert.h>
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <event2/buffer.h>

#include "prom.h"

/* Long enough for "%.17g" of any double: "-2.2250738585072014e-308". */
#define VALUE_MAX 32

const double prom_histogram_bounds[PROM_HISTOGRAM_BOUNDS] = {
	1e-6, 2e-6, 5e-6, 1e-5, 2e-5, 5e-5, 1e-4, 2e-4, 5e-4, 1e-3, 2e-3,
	5e-3, 1e-2, 2e-2, 5e-2, 0.1,  0.2,  0.5,  1,	2,    5,    10,
};

/* The format's spelling of a double; the shortest of 15 or 17 digits that reads back the same. */
static const char *format_value(char buf[VALUE_MAX], double v)
{
	if (isnan(v))
		return "NaN";
	if (isinf(v))
		return v > 0 ? "+Inf" : "-Inf";
	snprintf(buf, VALUE_MAX, "%.15g", v);
	if (strtod(buf, NULL) != v)
		snprintf(buf, VALUE_MAX, "%.17g", v);
	return buf;
}

/*
 * s with backslash and line feed escaped, and the double quote too inside
 * a label value; HELP text keeps its quotes, as the format says.
 */
static int add_escaped(struct evbuffer *out, const char *s, bool quote)
{
	const char *run = s;

	for (; *s; s++) {
		const char *esc;

		if (*s == '\\')
			esc = "\\\\";
		else if (*s == '\n')
			esc = "\\n";
		else if (*s == '"' && quote)
			esc = "\\\"";
		else
			continue;
		if (evbuffer_add(out, run, (size_t)(s - run)) < 0 || evbuffer_add(out, esc, 2) < 0)
			return -ENOMEM;
		run = s + 1;
	}
	return evbuffer_add(out, run, (size_t)(s - run)) < 0 ? -ENOMEM : 0;
}

static int add_label(struct evbuffer *out, char sep, const char *key, const char *value)
{
	if (evbuffer_add_printf(out, "%c%s=\"", sep, key) < 0 ||
	    add_escaped(out, value, true) < 0 || evbuffer_add(out, "\"", 1) < 0)
		return -ENOMEM;
	return 0;
}

/* name+suffix{labels[,le="..."]} value */
static int add_line(struct evbuffer *out, const char *name, const char *suffix,
		    const char *const *labels, const char *le, const char *value)
{
	char sep = '{';

	if (evbuffer_add_printf(out, "%s%s", name, suffix) < 0)
		return -ENOMEM;
	for (size_t i = 0; labels && labels[i]; i += 2) {
		assert(labels[i + 1]); /* pairs */
		if (add_label(out, sep, labels[i], labels[i + 1]) < 0)
			return -ENOMEM;
		sep = ',';
	}
	if (le && add_label(out, sep, "le", le) < 0)
		return -ENOMEM;
	if (sep == ',' || le) {
		if (evbuffer_add(out, "}", 1) < 0)
			return -ENOMEM;
	}
	return evbuffer_add_printf(out, " %s\n", value) < 0 ? -ENOMEM : 0;
}

int prom_family(struct evbuffer *out, const char *name, const char *type, const char *help)
{
	if (evbuffer_add_printf(out, "# HELP %s ", name) < 0 || add_escaped(out, help, false) < 0 ||
	    evbuffer_add_printf(out, "\n# TYPE %s %s\n", name, type) < 0)
		return -ENOMEM;
	return 0;
}

int prom_sample(struct evbuffer *out, const char *name, const char *const *labels, double value)
{
	char buf[VALUE_MAX];

	return add_line(out, name, "", labels, NULL, format_value(buf, value));
}

int prom_sample_u64(struct evbuffer *out, const char *name, const char *const *labels,
		    uint64_t value)
{
	char buf[VALUE_MAX];

	snprintf(buf, sizeof(buf), "%" PRIu64, value);
	return add_line(out, name, "", labels, NULL, buf);
}

void prom_histogram_observe(struct prom_histogram *h, double seconds)
{
	unsigned b = 0;

	if (isnan(seconds))
		return;
	/* upper bounds are inclusive: le="0.001" counts 1 ms */
	while (b < PROM_HISTOGRAM_BOUNDS && seconds > prom_histogram_bounds[b])
		b++;
	h->buckets[b]++;
	h->count++;
	h->sum += seconds;
}

int prom_write_histogram(struct evbuffer *out, const char *name, const char *const *labels,
			 const struct prom_histogram *h)
{
	char le[VALUE_MAX], value[VALUE_MAX];
	uint64_t cumulative = 0;

	for (unsigned b = 0; b <= PROM_HISTOGRAM_BOUNDS; b++) {
		const char *bound = "+Inf";

		if (b < PROM_HISTOGRAM_BOUNDS)
			bound = format_value(le, prom_histogram_bounds[b]);
		cumulative += h->buckets[b];
		snprintf(value, sizeof(value), "%" PRIu64, cumulative);
		if (add_line(out, name, "_bucket", labels, bound, value) < 0)
			return -ENOMEM;
	}
	if (add_line(out, name, "_sum", labels, NULL, format_value(value, h->sum)) < 0)
		return -ENOMEM;
	snprintf(value, sizeof(value), "%" PRIu64, h->count);
	return add_line(out, name, "_count", labels, NULL, value);
}

double prom_histogram_quantile(const struct prom_histogram *h, double q)
{
	double le[PROM_HISTOGRAM_BOUNDS + 1], cumulative[PROM_HISTOGRAM_BOUNDS + 1];
	double sum = 0;

	for (unsigned b = 0; b <= PROM_HISTOGRAM_BOUNDS; b++) {
		le[b] = b < PROM_HISTOGRAM_BOUNDS ? prom_histogram_bounds[b] : INFINITY;
		sum += (double)h->buckets[b];
		cumulative[b] = sum;
	}
	return prom_quantile(q, le, cumulative, PROM_HISTOGRAM_BOUNDS + 1);
}

double prom_quantile(double q, const double *le, const double *cumulative, size_t n)
{
	double total = 0, rank, below = 0, at = 0, start;
	size_t b;

	if (isnan(q))
		return NAN;
	if (q < 0)
		return -INFINITY;
	if (q > 1)
		return INFINITY;
	if (n < 2 || le[n - 1] != INFINITY)
		return NAN;
	for (size_t i = 0; i < n; i++) {
		if (isnan(cumulative[i]))
			return NAN;
		if (cumulative[i] > total)
			total = cumulative[i];
	}
	if (total == 0 || isinf(total))
		return NAN;

	rank = q * total;
	/* the first bucket whose count, made monotonic, reaches the rank */
	for (b = 0; b < n; b++) {
		below = at;
		if (cumulative[b] > at)
			at = cumulative[b];
		if (at >= rank)
			break;
	}
	if (b >= n - 1)
		return le[n - 2];
	if (b == 0 && le[0] <= 0)
		return le[0];
	start = b ? le[b - 1] : 0;
	if (at <= below)
		return start;
	return start + (le[b] - start) * (rank - below) / (at - below);
}
