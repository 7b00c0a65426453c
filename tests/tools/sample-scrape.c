/*
 * sample-scrape.c: a scrape as agx-scheduler writes one (sample-scrape.h).
 */
#include <stdio.h>
#include <stdlib.h>

#include <event2/buffer.h>

#include "sample-scrape.h"

static void add_client(struct evbuffer *b, const struct sample_scrape *v, const char *name,
		       const char *type, unsigned which)
{
	prom_family(b, name, type, "per client");
	for (size_t i = 0; i < v->num_clients; i++) {
		const struct sample_client *c = &v->client[i];
		const char *labels[] = { "pid", c->pid, "client", c->name, NULL };

		if (which == 0)
			prom_sample(b, name, labels, c->gpu_seconds);
		else
			prom_sample_u64(b, name, labels,
					which == 1   ? c->jobs
					: which == 2 ? c->queued
						     : c->faults);
	}
}

char *sample_scrape_write(const struct sample_scrape *v, size_t *size)
{
	static const char *const priorities[] = { "low", "normal", "high", "realtime" };
	static const char *const kinds[] = { "guilty", "innocent" };
	struct evbuffer *b = evbuffer_new();
	char *text;

	if (!b)
		abort();
	prom_family(b, "agx_scheduler_uptime_seconds", "gauge", "Seconds since it started");
	prom_sample(b, "agx_scheduler_uptime_seconds", NULL, v->uptime);
	prom_family(b, "agx_scheduler_clients", "gauge", "Clients connected");
	prom_sample_u64(b, "agx_scheduler_clients", NULL, v->clients);
	prom_family(b, "agx_scheduler_jobs_total", "counter", "Jobs completed, any result");
	prom_sample_u64(b, "agx_scheduler_jobs_total", NULL, v->jobs);
	prom_family(b, "agx_scheduler_queue_depth", "gauge", "Jobs submitted, not yet complete");
	for (unsigned i = 0; i < 4; i++)
		prom_sample_u64(b, "agx_scheduler_queue_depth",
				(const char *[]){ "priority", priorities[i], NULL },
				v->queue_depth[i]);
	prom_family(b, "agx_scheduler_submit_to_start_seconds", "histogram", "Submit to start");
	prom_write_histogram(b, "agx_scheduler_submit_to_start_seconds", NULL, &v->submit_to_start);
	prom_family(b, "agx_scheduler_start_to_complete_seconds", "histogram", "Start to complete");
	prom_write_histogram(b, "agx_scheduler_start_to_complete_seconds", NULL,
			     &v->start_to_complete);
	prom_family(b, "agx_scheduler_faults_total", "counter", "GPU faults");
	prom_sample_u64(b, "agx_scheduler_faults_total", NULL, v->faults);
	prom_family(b, "agx_scheduler_timeouts_total", "counter", "Jobs over their time");
	prom_sample_u64(b, "agx_scheduler_timeouts_total", NULL, v->timeouts);
	prom_family(b, "agx_scheduler_resets_total", "counter", "Resets by kind");
	for (unsigned i = 0; i < 2; i++)
		prom_sample_u64(b, "agx_scheduler_resets_total",
				(const char *[]){ "kind", kinds[i], NULL }, v->resets[i]);
	add_client(b, v, "agx_scheduler_client_gpu_seconds_total", "counter", 0);
	add_client(b, v, "agx_scheduler_client_jobs_total", "counter", 1);
	add_client(b, v, "agx_scheduler_client_jobs_queued", "gauge", 2);
	add_client(b, v, "agx_scheduler_client_faults_total", "counter", 3);

	*size = evbuffer_get_length(b);
	text = malloc(*size + 1);
	if (!text)
		abort();
	evbuffer_remove(b, text, *size);
	text[*size] = '\0';
	evbuffer_free(b);
	return text;
}
