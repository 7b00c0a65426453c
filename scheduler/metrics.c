/*
 * metrics.c: what agx-scheduler's /metrics says (docs/scheduler.md,
 * "Metrics"), in the Prometheus text format (prom.h).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>

#include "scheduler.h"

static const char *const priority_names[SCHED_PRIORITIES] = { "low", "normal", "high", "realtime" };
static const char *const reset_names[] = { NULL, "guilty", "innocent" };

static int scalar(struct evbuffer *out, const char *name, const char *type, const char *help,
		  double value)
{
	return prom_family(out, name, type, help) | prom_sample(out, name, NULL, value);
}

/* One family with a sample per live client. */
static int per_client(struct evbuffer *out, struct scheduler *s, const char *name, const char *type,
		      const char *help, int which)
{
	int ret = prom_family(out, name, type, help);

	for (struct sched_link *l = s->clients.next; l != &s->clients; l = l->next) {
		struct sched_client *c = sched_container_of(l, struct sched_client, link);
		char pid[16];
		const char *labels[] = { "pid", pid, "client", c->name, NULL };

		snprintf(pid, sizeof(pid), "%d", (int)c->pid);
		switch (which) {
		case 0:
			ret |= prom_sample(out, name, labels, (double)c->gpu_ns / 1e9);
			break;
		case 1:
			ret |= prom_sample_u64(out, name, labels, c->jobs_done);
			break;
		case 2:
			ret |= prom_sample_u64(out, name, labels, c->jobs);
			break;
		default:
			ret |= prom_sample_u64(out, name, labels, c->faults + c->timeouts);
		}
	}
	return ret;
}

int sched_metrics_write(struct evbuffer *out, void *data)
{
	struct scheduler *s = data;
	int ret = 0;

	ret |= scalar(out, "agx_scheduler_uptime_seconds", "gauge",
		      "Seconds since agx-scheduler started", sched_now_s() - s->started_s);
	ret |= scalar(out, "agx_scheduler_clients", "gauge", "Clients connected", s->num_clients);
	ret |=
	    prom_family(out, "agx_scheduler_jobs_total", "counter", "Jobs completed, any result");
	ret |= prom_sample_u64(out, "agx_scheduler_jobs_total", NULL, s->jobs_done);
	ret |= prom_family(out, "agx_scheduler_queue_depth", "gauge",
			   "Jobs submitted and not yet complete, by queue priority");
	for (unsigned p = 0; p < SCHED_PRIORITIES; p++)
		ret |= prom_sample_u64(out, "agx_scheduler_queue_depth",
				       (const char *const[]){ "priority", priority_names[p], NULL },
				       s->queue_depth[p]);
	ret |= prom_family(out, "agx_scheduler_submit_to_start_seconds", "histogram",
			   "From SUBMIT to the GPU starting the job's first command");
	ret |= prom_write_histogram(out, "agx_scheduler_submit_to_start_seconds", NULL,
				    &s->hist.submit_to_start);
	ret |= prom_family(out, "agx_scheduler_start_to_complete_seconds", "histogram",
			   "From the GPU starting a job to its last command ending");
	ret |= prom_write_histogram(out, "agx_scheduler_start_to_complete_seconds", NULL,
				    &s->hist.start_to_complete);
	ret |= prom_family(out, "agx_scheduler_faults_total", "counter", "GPU faults");
	ret |= prom_sample_u64(out, "agx_scheduler_faults_total", NULL, s->faults);
	ret |= prom_family(out, "agx_scheduler_timeouts_total", "counter",
			   "Jobs stopped for running over their GPU time");
	ret |= prom_sample_u64(out, "agx_scheduler_timeouts_total", NULL, s->timeouts);
	ret |= prom_family(out, "agx_scheduler_tvb_overflows_total", "counter",
			   "Renders that ended -ENOSPC, their TVB heap too small");
	ret |= prom_sample_u64(out, "agx_scheduler_tvb_overflows_total", NULL, s->tvb_overflows);
	ret |= prom_family(out, "agx_scheduler_job_waits_total", "counter",
			   "Points the jobs submitted wait for (their wait syncobjs)");
	ret |= prom_sample_u64(out, "agx_scheduler_job_waits_total", NULL, s->job_waits);
	ret |= prom_family(out, "agx_scheduler_resets_total", "counter", "Queues reset, by kind");
	for (unsigned k = 1; k < 3; k++)
		ret |= prom_sample_u64(out, "agx_scheduler_resets_total",
				       (const char *const[]){ "kind", reset_names[k], NULL },
				       s->resets[k]);
	ret |= per_client(out, s, "agx_scheduler_client_gpu_seconds_total", "counter",
			  "GPU time of the client's commands", 0);
	ret |= per_client(out, s, "agx_scheduler_client_jobs_total", "counter",
			  "The client's jobs completed", 1);
	ret |= per_client(out, s, "agx_scheduler_client_jobs_queued", "gauge",
			  "The client's jobs submitted and not yet complete", 2);
	ret |= per_client(out, s, "agx_scheduler_client_faults_total", "counter",
			  "GPU faults and timeouts of the client's jobs", 3);
	return ret ? -ENOMEM : 0; /* the endpoint answers 500, not half a body */
}
