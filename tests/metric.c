/*
 * metric.c: test_stack_metric() (metric.h), through agx-top's scraper and
 * the Prometheus text parser of tools/.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include <cmocka.h>

#include "metric.h"
#include "promtext.h"
#include "top.h"

#define SCRAPE_TIMEOUT_MS 10000

double test_stack_metric(const struct test_stack *s, const char *name, const char *const *labels)
{
	struct promtext doc;
	struct promtext_error perr;
	const struct promtext_sample *sample;
	char err[128], *body;
	size_t size;
	double value;

	if (top_scrape(s->metrics, SCRAPE_TIMEOUT_MS, &body, &size, err, sizeof(err)) < 0)
		fail_msg("scrape: %s", err);
	if (promtext_parse(body, size, &doc, &perr) < 0)
		fail_msg("line %u: %s", perr.line, perr.message);
	free(body);
	sample = promtext_find(&doc, name, labels);
	if (!sample)
		fail_msg("no %s", name);
	value = sample->value;
	promtext_finish(&doc);
	return value;
}
