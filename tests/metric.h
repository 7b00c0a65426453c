/*
 * metric.h: one sample of the running stack's metrics (the scheduler's
 * Prometheus text, scraped from the test stack's metrics socket), for
 * tests that check what the daemons counted.
 */
#ifndef TESTS_METRIC_H
#define TESTS_METRIC_H

#include "stack.h"

/* The value of the sample name{labels} (labels NULL-terminated pairs, or NULL); fails the test if
 * none. */
double test_stack_metric(const struct test_stack *s, const char *name, const char *const *labels);

#endif
