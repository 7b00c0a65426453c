/*
 * sample-scrape.h: an agx-scheduler scrape with chosen numbers, written
 * by the real writer (scheduler/prom.c) under the names the scheduler
 * exports (docs/scheduler.md, "Metrics"); for test-top and the fuzz seeds.
 */
#ifndef TESTS_SAMPLE_SCRAPE_H
#define TESTS_SAMPLE_SCRAPE_H

#include <stddef.h>
#include <stdint.h>

#include "prom.h"

#define SAMPLE_MAX_CLIENTS 8

struct sample_client {
	const char *pid, *name;
	double gpu_seconds;
	uint64_t jobs, queued, faults;
};

struct sample_scrape {
	double uptime;
	uint64_t clients, jobs, faults, timeouts;
	uint64_t queue_depth[4]; /* low, normal, high, realtime */
	uint64_t resets[2];	 /* guilty, innocent */
	struct prom_histogram submit_to_start, start_to_complete;
	struct sample_client client[SAMPLE_MAX_CLIENTS];
	size_t num_clients;
};

/* The body, malloc'd and NUL-terminated; its length in *size. */
char *sample_scrape_write(const struct sample_scrape *v, size_t *size);

#endif
