/*
 * job.c: queues and the jobs submitted to them (scheduler.h).
 *
 * A job is checked whole at SUBMIT, so that what is accepted can run:
 * its queue, its handles, its points (above every point of their
 * timelines), its commands.  It then waits for its dependencies; a queue
 * hands its jobs' commands to fwchan in order (dispatch.c), and its jobs
 * end in order too: a job's signal points end once its commands and every
 * earlier job of the queue have, so a queue's completions read like a
 * timeline.  A job whose dependency failed does not run and ends with
 * that dependency's error; a queue that was reset runs nothing more, and
 * what it had not run ends with -ECANCELED.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <event2/event.h>

#include "agx/work.h"
#include "agxipc/log.h"
#include "scheduler.h"

static int refuse(char *why, size_t size, int err, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

static int refuse(char *why, size_t size, int err, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, size, fmt, ap);
	va_end(ap);
	return err;
}

/* --- queues ------------------------------------------------------------------------- */

static bool may_use_realtime(const struct sched_client *c)
{
	return c->uid == 0 ||
	       (c->s->config.realtime_gid >= 0 && c->gid == (gid_t)c->s->config.realtime_gid);
}

int sched_queue_create(struct sched_client *c, uint32_t vm, unsigned priority, uint32_t *id,
		       char *why, size_t size)
{
	struct scheduler *s = c->s;
	struct sched_queue *q;

	if (priority >= SCHED_PRIORITIES)
		return refuse(why, size, -EINVAL, "priority %u: there are %d", priority,
			      SCHED_PRIORITIES);
	if (priority == AGX__WORK__PRIORITY__PRIORITY_REALTIME && !may_use_realtime(c))
		return refuse(why, size, -EPERM,
			      "PRIORITY_REALTIME is for root and the realtime group only");
	/* queues not yet freed (destroyed ones still running count), all connections' */
	if (c->proc->queue_objs >= SCHED_MAX_QUEUES)
		return refuse(why, size, -EDQUOT, "a process may have %d queues", SCHED_MAX_QUEUES);
	q = calloc(1, sizeof(*q));
	if (!q)
		return refuse(why, size, -ENOMEM, "out of memory");
	q->vm = sched_vm_get(s, c->pid, vm);
	if (!q->vm) {
		free(q);
		return refuse(why, size, -ENOMEM, "out of memory");
	}
	q->client = c;
	c->queue_objs++;
	c->proc->queue_objs++;
	q->id = c->next_queue_id++;
	q->priority = priority;
	sched_list_init(&q->jobs);
	sched_list_init(&q->run_link);
	sched_list_add_tail(&c->queues, &q->client_link);
	sched_list_add_tail(&s->queues, &q->all_link);
	*id = q->id;
	return 0;
}

struct sched_queue *sched_queue_get(struct sched_client *c, uint32_t id)
{
	for (struct sched_link *l = c->queues.next; l != &c->queues; l = l->next) {
		struct sched_queue *q = sched_container_of(l, struct sched_queue, client_link);

		if (q->id == id)
			return q;
	}
	return NULL;
}

void sched_queue_maybe_free(struct sched_queue *q)
{
	struct scheduler *s = q->client->s;

	if (!q->destroyed || q->busy || q->inflight_total || !sched_list_empty(&q->jobs) ||
	    q->ctx_destroying || q->buried)
		return;
	/* callers up the stack may still look at it: it goes when the turn ends */
	q->buried = true;
	if (q->ctx_timer)
		event_del(q->ctx_timer); /* its back-off is over: nothing left to send */
	sched_list_del(&q->run_link);
	sched_list_del(&q->all_link);
	sched_list_add_tail(&s->graveyard, &q->all_link);
	sched_turn_later(s);
}

void sched_bury(struct scheduler *s)
{
	while (!sched_list_empty(&s->graveyard)) {
		struct sched_queue *q =
		    sched_container_of(s->graveyard.next, struct sched_queue, all_link);
		struct sched_client *c = q->client;

		sched_list_del(&q->all_link);
		sched_vm_unref(s, q->vm);
		if (q->ctx_timer)
			event_free(q->ctx_timer);
		free(q);
		c->queue_objs--;
		c->proc->queue_objs--;
		sched_client_maybe_free(c);
	}
	while (!sched_list_empty(&s->dead_clients)) {
		struct sched_client *c =
		    sched_container_of(s->dead_clients.next, struct sched_client, link);

		sched_list_del(&c->link);
		sched_client_free(c);
	}
}

static struct sched_job *next_job(struct sched_queue *q, struct sched_job *job)
{
	struct sched_link *l = job->link.next;

	return l == &q->jobs ? NULL : sched_container_of(l, struct sched_job, link);
}

/* Jobs of a queue that will run nothing more stop waiting: they end, cancelled, in turn. */
static void cancel_waits(struct sched_queue *q)
{
	for (struct sched_link *l = q->jobs.next; l != &q->jobs; l = l->next) {
		struct sched_job *job = sched_container_of(l, struct sched_job, link);

		if (!job->waits_left)
			continue;
		for (unsigned i = 0; i < job->num_waits; i++)
			sched_syncobj_cancel(&job->waits[i].w);
		job->waits_left = 0;
		job->failed_deps = true;
		if (!job->status)
			job->status = -ECANCELED;
	}
}

int sched_queue_destroy(struct sched_client *c, uint32_t id)
{
	struct sched_queue *q = sched_queue_get(c, id);

	if (!q)
		return -ENOENT;
	sched_list_del(&q->client_link);
	q->destroyed = true;
	/* what has not run never will; fwchan aborts what it still holds */
	cancel_waits(q);
	if (q->has_context)
		sched_context_destroy(q);
	sched_queue_update_runnable(q);
	return 0;
}

void sched_queue_update_runnable(struct sched_queue *q)
{
	struct sched_client *c = q->client;
	struct scheduler *s = c->s;

	if (!sched_list_linked(&q->run_link))
		sched_list_add_tail(&c->runnable[q->priority], &q->run_link);
	if (!sched_list_linked(&c->run_link[q->priority]))
		sched_list_add_tail(&s->runnable[q->priority], &c->run_link[q->priority]);
	sched_turn_later(s);
}

void sched_queue_reset(struct sched_queue *q, enum sched_queue_status status, uint64_t seqno)
{
	struct scheduler *s = q->client->s;

	if (q->status != SCHED_QUEUE_OK)
		return;
	q->status = status;
	q->reset_seqno = seqno;
	s->resets[status]++;
	agx_notice_ratelimited(q->client->pid, "client %s (pid %d): queue %u reset: %s",
			       q->client->name, (int)q->client->pid, q->id,
			       status == SCHED_QUEUE_GUILTY ? "its work faulted or ran out of time"
			       : status == SCHED_QUEUE_INNOCENT
				   ? "the firmware was lost with its work"
				   : "the device was lost");
	/* fwchan drops what it still has queued for it; the rest is cancelled here */
	cancel_waits(q);
	if (q->has_context && status == SCHED_QUEUE_GUILTY)
		sched_context_destroy(q);
	sched_queue_update_runnable(q);
}

/* --- ending jobs, in order ----------------------------------------------------------- */

static void job_free(struct sched_job *job)
{
	for (unsigned i = 0; i < job->num_waits; i++)
		sched_syncobj_cancel(&job->waits[i].w);
	free(job->waits);
	free(job->signals);
	free(job);
}

static bool job_complete(const struct sched_job *job)
{
	return !job->waits_left && job->done == job->num_cmds;
}

static void account(struct scheduler *s, struct sched_job *job)
{
	struct sched_client *c = job->queue->client;

	s->jobs_done++;
	c->jobs_done++;
	s->queue_depth[job->queue->priority]--;
	if (job->gpu_start_ns) {
		double start = (double)job->gpu_start_ns / 1e9;

		prom_histogram_observe(&s->hist.submit_to_start,
				       start > job->submitted_s ? start - job->submitted_s : 0);
		if (job->gpu_end_ns >= job->gpu_start_ns)
			prom_histogram_observe(&s->hist.start_to_complete,
					       (double)(job->gpu_end_ns - job->gpu_start_ns) / 1e9);
	}
}

/* Ends the jobs at the queue's head that are complete. */
static void finish_ready(struct sched_queue *q)
{
	struct sched_client *c = q->client;

	while (!sched_list_empty(&q->jobs)) {
		struct sched_job *job = sched_container_of(q->jobs.next, struct sched_job, link);

		if (!job_complete(job))
			break;
		if (q->cursor == job)
			q->cursor = next_job(q, job);
		sched_list_del(&job->link);
		/* what comes after the job that reset the queue fails, whether or not it ran */
		if (q->status != SCHED_QUEUE_OK && job->seqno > q->reset_seqno && !job->status)
			job->status = -ECANCELED;
		account(c->s, job);
		/* signalling runs waiters' callbacks: the job is off the queue first */
		for (unsigned i = 0; i < job->num_signals; i++)
			sched_syncobj_signal(job->signals[i].obj, job->signals[i].value,
					     job->status);
		job_free(job);
		c->jobs--;
		c->proc->jobs--;
	}
	sched_queue_maybe_free(q);
	sched_client_maybe_free(c);
}

void sched_job_cmd_done(struct sched_job *job, int status, uint64_t start_ns, uint64_t end_ns)
{
	struct sched_queue *q = job->queue;

	job->done++;
	if (status < 0 && !job->status)
		job->status = status;
	if (start_ns && (!job->gpu_start_ns || start_ns < job->gpu_start_ns))
		job->gpu_start_ns = start_ns;
	if (end_ns > job->gpu_end_ns)
		job->gpu_end_ns = end_ns;
	if (end_ns > start_ns && start_ns)
		q->client->gpu_ns += end_ns - start_ns;
	finish_ready(q);
}

struct sched_cmd *sched_queue_next_cmd(struct sched_queue *q, struct sched_job **out)
{
	while (q->cursor) {
		struct sched_job *job = q->cursor;

		if (job->waits_left)
			return NULL; /* in order: nothing overtakes a job that waits */
		if (job->failed_deps || q->destroyed || q->status != SCHED_QUEUE_OK) {
			/* what has not been sent will not run */
			if (!job->status)
				job->status = -ECANCELED;
			job->done += job->num_cmds - job->sent;
			job->sent = job->num_cmds;
		}
		if (job->sent < job->num_cmds) {
			*out = job;
			return &job->cmds[job->sent];
		}
		q->cursor = next_job(q, job);
	}
	return NULL;
}

void sched_queue_settle(struct sched_queue *q)
{
	finish_ready(q);
}

/* --- submission ---------------------------------------------------------------------- */

static void dependency_reached(struct sched_wait *w, int status)
{
	struct sched_job_wait *jw = sched_container_of(w, struct sched_job_wait, w);
	struct sched_job *job = jw->job;

	if (status < 0 && !job->status) {
		job->status = status;
		job->failed_deps = true;
	}
	if (--job->waits_left == 0)
		sched_queue_update_runnable(job->queue);
}

/* A copy of a protobuf message that holds only scalars, detached from the request. */
#define COPY_SCALARS(dst, src)                                                                     \
	do {                                                                                       \
		(dst) = *(src);                                                                    \
		(dst).base.n_unknown_fields = 0;                                                   \
		(dst).base.unknown_fields = NULL;                                                  \
	} while (0)

static int check_commands(const Agx__Scheduler__Submit *sub, char *why, size_t size)
{
	if (sub->n_commands > SCHED_MAX_COMMANDS)
		return refuse(why, size, -EINVAL, "%zu commands: at most %d", sub->n_commands,
			      SCHED_MAX_COMMANDS);
	for (size_t i = 0; i < sub->n_commands; i++) {
		const Agx__Scheduler__Command *cmd = sub->commands[i];
		struct agx_work_range ranges[AGX_WORK_MAX_RANGES];
		unsigned count;
		int ret = 0;

		/* the memory they name is fwchan's to check, when they run */
		switch (cmd->command_case) {
		case AGX__SCHEDULER__COMMAND__COMMAND_COMPUTE:
			ret = agx_work_compute_ranges(cmd->compute, ranges, &count, why, size);
			break;
		case AGX__SCHEDULER__COMMAND__COMMAND_RENDER:
			ret = agx_work_render_ranges(cmd->render, ranges, &count, why, size);
			break;
		default:
			return refuse(why, size, -EINVAL,
				      "command %zu is neither compute nor render", i);
		}
		if (ret < 0) {
			char inner[160];

			snprintf(inner, sizeof(inner), "%s", why);
			return refuse(why, size, ret, "command %zu: %s", i, inner);
		}
	}
	return 0;
}

static int check_points(struct sched_client *c, const Agx__Scheduler__Submit *sub, char *why,
			size_t size)
{
	if (sub->n_waits > SCHED_MAX_POINTS || sub->n_signals > SCHED_MAX_POINTS)
		return refuse(why, size, -EINVAL, "%zu waits, %zu signals: at most %d each",
			      sub->n_waits, sub->n_signals, SCHED_MAX_POINTS);
	for (size_t i = 0; i < sub->n_waits; i++)
		if (!sched_handle_get(c, sub->waits[i]->syncobj))
			return refuse(why, size, -ENOENT, "wait %zu: no syncobj %u", i,
				      sub->waits[i]->syncobj);
	for (size_t i = 0; i < sub->n_signals; i++) {
		const Agx__Scheduler__SyncPoint *p = sub->signals[i];
		struct sched_syncobj *o = sched_handle_get(c, p->syncobj);
		uint64_t above;

		if (!o)
			return refuse(why, size, -ENOENT, "signal %zu: no syncobj %u", i,
				      p->syncobj);
		above = sched_syncobj_last_point(o);
		/* an earlier signal of this submission on the same timeline counts too */
		for (size_t j = 0; j < i; j++)
			if (sub->signals[j]->syncobj == p->syncobj &&
			    sub->signals[j]->value > above)
				above = sub->signals[j]->value;
		if (p->value <= above)
			return refuse(why, size, -EINVAL,
				      "signal %zu: syncobj %u has a point at %" PRIu64
				      "; a new one must be above it, not %" PRIu64,
				      i, p->syncobj, above, p->value);
	}
	return 0;
}

int sched_submit(struct sched_client *c, const Agx__Scheduler__Submit *sub, uint64_t *seqno,
		 char *why, size_t size)
{
	struct sched_queue *q = sched_queue_get(c, sub->queue);
	struct sched_job *job;
	int ret;

	if (!q)
		return refuse(why, size, -ENOENT, "no queue %u", sub->queue);
	if (q->status != SCHED_QUEUE_OK)
		/* the context is lost, not the device: the client's other queues go on */
		return refuse(why, size, -ECANCELED, "queue %u was reset (QUERY_STATUS says how)",
			      q->id);
	if (c->proc->jobs >= SCHED_MAX_JOBS)
		return refuse(why, size, -EBUSY,
			      "%u jobs of this process are unfinished, the most it may have; "
			      "wait for one",
			      c->proc->jobs);
	ret = check_commands(sub, why, size);
	if (ret == 0)
		ret = check_points(c, sub, why, size);
	if (ret < 0)
		return ret;

	job = calloc(1, sizeof(*job) + sub->n_commands * sizeof(job->cmds[0]));
	if (!job)
		return refuse(why, size, -ENOMEM, "out of memory");
	job->waits = calloc(sub->n_waits ? sub->n_waits : 1, sizeof(*job->waits));
	job->signals = calloc(sub->n_signals ? sub->n_signals : 1, sizeof(*job->signals));
	if (!job->waits || !job->signals) {
		job_free(job);
		return refuse(why, size, -ENOMEM, "out of memory");
	}
	job->queue = q;
	job->seqno = ++q->next_seqno;
	job->submitted_s = sched_now_s();
	job->num_cmds = (unsigned)sub->n_commands;
	for (unsigned i = 0; i < job->num_cmds; i++) {
		const Agx__Scheduler__Command *in = sub->commands[i];
		struct sched_cmd *cmd = &job->cmds[i];

		cmd->render = in->command_case == AGX__SCHEDULER__COMMAND__COMMAND_RENDER;
		cmd->pipe = cmd->render;
		if (cmd->render)
			COPY_SCALARS(cmd->u.render, in->render);
		else
			COPY_SCALARS(cmd->u.compute, in->compute);
	}
	for (unsigned i = 0; i < sub->n_signals; i++) {
		struct sched_syncobj *o = sched_handle_get(c, sub->signals[i]->syncobj);

		ret = sched_syncobj_add_point(o, sub->signals[i]->value);
		if (ret < 0) {
			/* points added already end with the failure; the job is not queued */
			for (unsigned j = 0; j < i; j++)
				sched_syncobj_signal(job->signals[j].obj, job->signals[j].value,
						     ret);
			job_free(job);
			return refuse(why, size, ret, "out of memory");
		}
		job->signals[i] = (struct sched_signal){ o, sub->signals[i]->value };
		job->num_signals++;
	}
	sched_list_add_tail(&q->jobs, &job->link);
	if (!q->cursor)
		q->cursor = job;
	c->jobs++;
	c->proc->jobs++;
	c->s->queue_depth[q->priority]++;
	c->s->job_waits += sub->n_waits;
	/* dependencies last: one already reached may make the job runnable at once */
	job->waits_left = (unsigned)sub->n_waits + 1;
	for (unsigned i = 0; i < sub->n_waits; i++) {
		struct sched_syncobj *o = sched_handle_get(c, sub->waits[i]->syncobj);
		struct sched_job_wait *jw = &job->waits[i];
		int status;

		jw->job = job;
		job->num_waits++;
		if (sched_syncobj_wait(o, sub->waits[i]->value, &jw->w, dependency_reached,
				       &status))
			dependency_reached(&jw->w, status);
	}
	if (--job->waits_left == 0)
		sched_queue_update_runnable(q);
	*seqno = job->seqno;
	return 0;
}
