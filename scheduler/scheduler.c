/*
 * scheduler.c: agx-scheduler's life (scheduler.h): its state set up and
 * torn down, the links to its peers, its socket and metrics, and the work
 * that waits for the end of each loop turn.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <event2/event.h>

#include "agxipc/daemon.h"
#include "agxipc/log.h"
#include "agxipc/server.h"
#include "http.h"
#include "scheduler.h"

double sched_now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* What waits for the end of a loop turn: the batches, the wake-ups, the frees. */
static void turn(evutil_socket_t fd, short what, void *arg)
{
	struct scheduler *s = arg;

	s->turn_pending = false;
	sched_dispatch(s);
	sched_client_wake(s);
	sched_bury(s);
}

void sched_turn_later(struct scheduler *s)
{
	if (!s->turn_pending && s->turn) {
		s->turn_pending = true;
		event_active(s->turn, EV_TIMEOUT, 0);
	}
}

void scheduler_fail(struct scheduler *s)
{
	/* clients that wait on their fence pages learn it from the page, woken by their eventfd */
	for (struct sched_link *l = s->clients.next; l != &s->clients; l = l->next)
		sched_client_lost(sched_container_of(l, struct sched_client, link));
	s->failed = true;
	if (s->daemon)
		agx_daemon_quit(s->daemon);
}

int scheduler_init(struct scheduler *s, struct event_base *base, const struct sched_config *config)
{
	s->config = *config;
	s->base = base;
	s->started_s = sched_now_s();
	sched_list_init(&s->clients);
	sched_list_init(&s->processes);
	sched_list_init(&s->queues);
	sched_list_init(&s->vms);
	sched_list_init(&s->dirty);
	sched_list_init(&s->exports);
	sched_list_init(&s->graveyard);
	sched_list_init(&s->dead_clients);
	for (unsigned p = 0; p < SCHED_PRIORITIES; p++)
		sched_list_init(&s->runnable[p]);
	s->turn = event_new(s->base, -1, 0, turn, s);
	if (!s->turn)
		return -ENOMEM;
	return sched_links_start(s);
}

void scheduler_fini(struct scheduler *s)
{
	s->quitting = true;
	if (s->server)
		agx_ipc_server_destroy(s->server); /* every client goes, and what it held */
	s->server = NULL;
	sched_exports_fini(s);
	sched_links_stop(s);
	if (s->turn) {
		sched_bury(s);
		event_free(s->turn);
		s->turn = NULL;
	}
}

int scheduler_start(struct scheduler *s, struct agx_daemon *daemon,
		    const struct sched_config *config)
{
	int fd, ret;

	s->daemon = daemon;
	ret = scheduler_init(s, agx_daemon_base(daemon), config);
	if (ret < 0)
		return ret;
	if (config->metrics) {
		ret =
		    metrics_http_create(s->base, config->metrics, sched_metrics_write, s, &s->http);
		if (ret < 0) {
			agx_err("cannot serve metrics on %s: %s", config->metrics, strerror(-ret));
			return ret;
		}
	}
	ret = agx_daemon_listen(daemon, config->socket, &fd);
	if (ret < 0) {
		agx_err("cannot listen on %s: %s", config->socket, strerror(-ret));
		return ret;
	}
	s->server = sched_server_create(s, fd);
	if (!s->server)
		return -ENOMEM;
	agx_notice("serving %s%s%s", config->socket, s->http ? ", metrics on " : "",
		   s->http ? metrics_http_address(s->http) : "");
	agx_daemon_ready(daemon, "serving");
	return 0;
}

void scheduler_stop(struct scheduler *s)
{
	metrics_http_destroy(s->http);
	s->http = NULL;
	scheduler_fini(s);
}
