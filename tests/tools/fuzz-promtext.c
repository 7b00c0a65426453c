/*
 * fuzz-promtext: promtext_parse() on untrusted bytes.  Whatever the input,
 * parsing must not crash or read past it; a rejection names a line of the
 * input and says why; what parses, written again by the scheduler's
 * writer (scheduler/prom.c), parses to the same samples, bit for bit; and
 * the histogram helpers take whatever buckets it holds.
 *
 * Input: a response body, as agx-top receives it.
 */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <event2/buffer.h>

#include "prom.h"
#include "promtext.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* A sample's labels as prom_sample() takes them, except skip. */
static void pairs(const struct promtext_sample *s, const char *skip, const char **out)
{
	size_t n = 0;

	for (size_t i = 0; i < s->num_labels; i++) {
		if (skip && !strcmp(s->labels[i].key, skip))
			continue;
		out[n++] = s->labels[i].key;
		out[n++] = s->labels[i].value;
	}
	out[n] = NULL;
}

static void same_samples(const struct promtext *a, const struct promtext *b)
{
	if (a->num_samples != b->num_samples)
		abort();
	for (size_t i = 0; i < a->num_samples; i++) {
		const struct promtext_sample *x = &a->samples[i], *y = &b->samples[i];

		if (strcmp(x->name, y->name) || x->num_labels != y->num_labels)
			abort();
		for (size_t k = 0; k < x->num_labels; k++)
			if (strcmp(x->labels[k].key, y->labels[k].key) ||
			    strcmp(x->labels[k].value, y->labels[k].value))
				abort();
		if (isnan(x->value) ? !isnan(y->value)
				    : memcmp(&x->value, &y->value, sizeof(double)))
			abort();
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *labels[2 * PROMTEXT_MAX_LABELS + 1];
	unsigned lines = 1, histograms = 0;
	struct promtext doc, again;
	struct promtext_error err;
	struct evbuffer *b;
	char *copy, *text;
	size_t len;
	int ret;

	/* the parser sees an exact-size heap copy, so ASan catches overreads */
	copy = malloc(size ? size : 1);
	memcpy(copy, data, size);
	for (size_t i = 0; i < size; i++)
		lines += copy[i] == '\n';
	ret = promtext_parse(copy, size, &doc, &err);
	free(copy);
	if (ret == -EINVAL) {
		if (!err.line || err.line > lines || !err.message[0] || doc.samples)
			abort();
		return 0;
	}
	if (ret < 0)
		abort();

	b = evbuffer_new();
	for (size_t i = 0; i < doc.num_samples; i++) {
		pairs(&doc.samples[i], NULL, labels);
		if (prom_sample(b, doc.samples[i].name, labels, doc.samples[i].value) < 0)
			abort();
	}
	len = evbuffer_get_length(b);
	text = malloc(len ? len : 1);
	evbuffer_remove(b, text, len);
	evbuffer_free(b);
	if (promtext_parse(text, len, &again, &err) != 0)
		abort();
	same_samples(&doc, &again);
	promtext_finish(&again);
	free(text);

	for (size_t i = 0; i < doc.num_samples && histograms < 8; i++) {
		const struct promtext_sample *s = &doc.samples[i];
		size_t n = strlen(s->name);
		struct promtext_histogram h;
		char name[256];

		if (n <= 7 || n - 7 >= sizeof(name) || strcmp(s->name + n - 7, "_bucket"))
			continue;
		memcpy(name, s->name, n - 7);
		name[n - 7] = '\0';
		pairs(s, "le", labels);
		histograms++;
		ret = promtext_histogram_get(&doc, name, labels, &h);
		if (ret == 0) {
			double q = promtext_histogram_quantile(&h, 0.5);

			/* an estimate lies within the buckets' bounds, or there is none */
			if (!isnan(q) && (q < fmin(0, h.le[0]) || q > h.le[h.num_buckets - 1]))
				abort();
		} else if (ret != -EINVAL && ret != -E2BIG) {
			abort(); /* it has a bucket: it is not -ENOENT */
		}
	}
	promtext_finish(&doc);
	return 0;
}
