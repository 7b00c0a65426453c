/*
 * promtext.h: a parser of the Prometheus text exposition format, version
 * 0.0.4, for agx-scheduler's clients (agx-top).  It reads a whole body --
 * untrusted bytes -- into samples and says which line is the first it
 * cannot read and why.
 *
 * Accepted: "# HELP name text" and "# TYPE name type" lines, other
 * comments, empty lines, samples "name{key="value",...} value [timestamp]"
 * with the escapes \\ \" \n in label values, values as Go's ParseFloat
 * spells them in decimal (also +Inf, -Inf, NaN), integer timestamps.
 * Refused: anything else, a NUL byte, duplicate label names, more than
 * PROMTEXT_MAX_LABELS labels, and a last line without its line feed (a cut
 * body must not read as a smaller number).
 */
#ifndef TOOLS_PROMTEXT_H
#define TOOLS_PROMTEXT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define PROMTEXT_MAX_LABELS  64
#define PROMTEXT_MAX_BUCKETS 64

struct promtext_label {
	const char *key;
	const char *value; /* unescaped */
};

struct promtext_sample {
	const char *name;
	const struct promtext_label *labels;
	size_t num_labels;
	double value;
	bool has_timestamp;
	int64_t timestamp; /* milliseconds since the epoch */
	unsigned line;
};

enum promtext_type {
	PROMTEXT_UNTYPED,
	PROMTEXT_COUNTER,
	PROMTEXT_GAUGE,
	PROMTEXT_HISTOGRAM,
	PROMTEXT_SUMMARY,
};

/* What HELP and TYPE lines said; consecutive ones naming the same metric are one family. */
struct promtext_family {
	const char *name;
	const char *help; /* unescaped; NULL without a HELP line */
	enum promtext_type type;
};

struct promtext {
	struct promtext_sample *samples;
	size_t num_samples;
	struct promtext_family *families;
	size_t num_families;
	/* private: the text the strings point into, and every sample's labels */
	char *text;
	struct promtext_label *labels;
};

struct promtext_error {
	unsigned line; /* from 1; 0 when out of memory */
	char message[96];
};

/*
 * Parses size bytes of data into doc: 0, or -EINVAL (err says where and
 * why; doc is left empty) or -ENOMEM.  doc is finished with promtext_finish().
 */
int promtext_parse(const char *data, size_t size, struct promtext *doc, struct promtext_error *err);
void promtext_finish(struct promtext *doc);

/*
 * The sample called name with exactly the labels given (a NULL-terminated
 * list of key, value pairs as in scheduler/prom.h, in any order; NULL for
 * none), or NULL.
 */
const struct promtext_sample *promtext_find(const struct promtext *doc, const char *name,
					    const char *const *labels);
/* The value of a sample's label key, or NULL. */
const char *promtext_label(const struct promtext_sample *s, const char *key);

/* A histogram's buckets read back, sorted by upper bound (+Inf last when present). */
struct promtext_histogram {
	double le[PROMTEXT_MAX_BUCKETS];
	double cumulative[PROMTEXT_MAX_BUCKETS];
	size_t num_buckets;
	double sum, count; /* NaN when the body had no name_sum / name_count */
};

/*
 * The histogram name with the labels given (besides le): 0, -ENOENT
 * without buckets, -EINVAL for an le that is no number or repeats, -E2BIG
 * for more than PROMTEXT_MAX_BUCKETS.
 */
int promtext_histogram_get(const struct promtext *doc, const char *name, const char *const *labels,
			   struct promtext_histogram *h);
/* prom_quantile() on it. */
double promtext_histogram_quantile(const struct promtext_histogram *h, double q);

#endif
