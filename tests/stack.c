/*
 * stack.c: test_stack_start() and the rest of stack.h, on daemons.h.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <signal.h>
#include <string.h>

#include <cmocka.h>

#include "daemons.h"
#include "sanitized.h"
#include "stack.h"

#define TIMEOUT_MS 10000

static void start(struct test_stack *s, const struct test_stack_options *o, unsigned i)
{
	char *argv[16];
	unsigned n = 0;

	argv[n++] = (char *)o->paths[i];
	switch (i) {
	case STACK_SIM:
		argv[n++] = "--socket", argv[n++] = s->sim;
		if (o->sim_memory_size)
			argv[n++] = "--memory-size", argv[n++] = (char *)o->sim_memory_size;
		if (o->sim_cores)
			argv[n++] = "--cores", argv[n++] = (char *)o->sim_cores;
		if (o->test_faults)
			argv[n++] = "--test-faults";
		/*
		 * A sanitized agx-sim runs some twenty times slower; the GPU
		 * time limit models the hardware's time, not the build's, so
		 * it grows with it there.
		 */
		if (o->sim_job_time_limit_ms)
			argv[n++] = "--job-time-limit-ms",
			argv[n++] = (char *)o->sim_job_time_limit_ms;
		else if (SANITIZED)
			argv[n++] = "--job-time-limit-ms", argv[n++] = "100000";
		break;
	case STACK_MEMMGR:
		argv[n++] = "--socket", argv[n++] = s->memmgr;
		argv[n++] = "--privileged-socket", argv[n++] = s->privileged;
		argv[n++] = "--device", argv[n++] = s->sim;
		argv[n++] = "--fwchan", argv[n++] = s->fwchan;
		break;
	case STACK_FWCHAN:
		argv[n++] = "--socket", argv[n++] = s->fwchan;
		argv[n++] = "--device", argv[n++] = s->sim;
		argv[n++] = "--memmgr", argv[n++] = s->privileged;
		break;
	default:
		argv[n++] = "--socket", argv[n++] = s->sched;
		argv[n++] = "--fwchan", argv[n++] = s->fwchan;
		argv[n++] = "--memmgr", argv[n++] = s->privileged;
		argv[n++] = "--metrics", argv[n++] = s->metrics;
		if (o->job_timeout_ms)
			argv[n++] = "--job-timeout-ms", argv[n++] = (char *)o->job_timeout_ms;
		break;
	}
	argv[n] = NULL;
	s->pids[i] = daemon_spawn(argv);
	/* agx-sim's socket appears before it is ready; memmgr waits for it */
	if (i == STACK_MEMMGR)
		daemon_wait_socket(s->privileged, TIMEOUT_MS);
	else if (i == STACK_FWCHAN)
		daemon_wait_socket(s->fwchan, TIMEOUT_MS);
	else if (i == STACK_SCHEDULER)
		daemon_wait_socket(s->sched, TIMEOUT_MS);
}

void test_stack_start(struct test_stack *s, const struct test_stack_options *o)
{
	memset(s, 0, sizeof(*s));
	snprintf(s->dir, sizeof(s->dir), "/tmp/agx-test-XXXXXX");
	assert_non_null(mkdtemp(s->dir));
	snprintf(s->sim, sizeof(s->sim), "%s/sim.sock", s->dir);
	snprintf(s->memmgr, sizeof(s->memmgr), "%s/memmgr.sock", s->dir);
	snprintf(s->privileged, sizeof(s->privileged), "%s/memmgr-priv.sock", s->dir);
	snprintf(s->fwchan, sizeof(s->fwchan), "%s/fwchan.sock", s->dir);
	snprintf(s->sched, sizeof(s->sched), "%s/scheduler.sock", s->dir);
	snprintf(s->metrics, sizeof(s->metrics), "unix:%s/metrics.sock", s->dir);
	for (unsigned i = 0; i < STACK_DAEMONS; i++)
		start(s, o, i);
}

void test_stack_restart(struct test_stack *s, const struct test_stack_options *o, unsigned i)
{
	start(s, o, i);
}

bool test_stack_stop(struct test_stack *s)
{
	bool clean = daemons_stop((pid_t[]){ s->pids[STACK_SCHEDULER], s->pids[STACK_FWCHAN],
					     s->pids[STACK_MEMMGR], s->pids[STACK_SIM] },
				  STACK_DAEMONS);
	char cmd[160];

	snprintf(cmd, sizeof(cmd), "rm -rf %s", s->dir);
	if (system(cmd) != 0)
		clean = false;
	return clean;
}

struct test_stack_options test_stack_group_options;

static int group_setup(void **state)
{
	struct test_stack *s = calloc(1, sizeof(*s));

	assert_non_null(s);
	test_stack_start(s, &test_stack_group_options);
	*state = s;
	return 0;
}

static int group_teardown(void **state)
{
	struct test_stack *s = *state;
	bool clean = test_stack_stop(s);

	free(s);
	assert_true(clean);
	return 0;
}

int test_stack_run(int argc, char **argv, struct test_stack_options *options,
		   const struct CMUnitTest *tests, size_t count, CMFixtureFunction setup,
		   CMFixtureFunction teardown)
{
	if (argc != 5) {
		fprintf(stderr, "usage: %s AGX-SIM AGX-MEMMGR AGX-FWCHAN AGX-SCHEDULER\n", argv[0]);
		return 2;
	}
	for (int i = 0; i < 4; i++)
		options->paths[i] = argv[i + 1];
	signal(SIGPIPE, SIG_IGN);
	return _cmocka_run_group_tests("tests", tests, count, setup, teardown);
}

int test_stack_main(int argc, char **argv, const struct CMUnitTest *tests, size_t count)
{
	return test_stack_run(argc, argv, &test_stack_group_options, tests, count, group_setup,
			      group_teardown);
}
