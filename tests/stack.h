/*
 * stack.h: the whole stack as processes for a test -- agx-sim, agx-memmgr,
 * agx-fwchan and agx-scheduler in a directory of their own, each started
 * once the one before listens -- and stopped again, checking that every
 * daemon exited cleanly.
 */
#ifndef TESTS_STACK_H
#define TESTS_STACK_H

#include <stdbool.h>
#include <sys/types.h>

enum { STACK_SIM, STACK_MEMMGR, STACK_FWCHAN, STACK_SCHEDULER, STACK_DAEMONS };

struct test_stack {
	char dir[64], sim[108], memmgr[108], privileged[108], fwchan[108], sched[108], metrics[120];
	pid_t pids[STACK_DAEMONS];
};

struct test_stack_options {
	/* the daemons' programs, in the order of the enum */
	const char *paths[STACK_DAEMONS];
	const char *sim_memory_size; /* --memory-size, NULL for agx-sim's default */
	const char *sim_cores;	     /* --cores, NULL for the default */
	bool test_faults;	     /* agx-sim --test-faults */
	const char *job_timeout_ms;  /* agx-scheduler --job-timeout-ms, NULL for the default */
	/* agx-sim --job-time-limit-ms, NULL for the default (100 s in the sanitizer build) */
	const char *sim_job_time_limit_ms;
};

/* Starts the stack in a new directory under /tmp; fails the test if one daemon does not listen. */
void test_stack_start(struct test_stack *s, const struct test_stack_options *options);
/* Starts daemon i (again) with the arguments test_stack_start() gave it, and waits for it. */
void test_stack_restart(struct test_stack *s, const struct test_stack_options *options, unsigned i);
/*
 * Stops every daemon, scheduler first, and removes the directory; true if
 * each one exited with status 0.
 */
bool test_stack_stop(struct test_stack *s);

/*
 * For a test program whose tests share one stack: test_stack_main() takes
 * the daemons' paths from argv[1..4] into test_stack_group_options (the
 * program may set its other fields first), ignores SIGPIPE, and runs the
 * tests between a group setup that starts the stack (*state is its struct
 * test_stack) and a teardown that stops it.  cmocka.h comes first.
 */
extern struct test_stack_options test_stack_group_options;
int test_stack_main(int argc, char **argv, const struct CMUnitTest *tests, size_t count);
/*
 * The same with the program's own options, group setup and teardown (the
 * GLES tests': their own display on the stack): the paths from argv into
 * options, SIGPIPE ignored, the tests run as one group.
 */
int test_stack_run(int argc, char **argv, struct test_stack_options *options,
		   const struct CMUnitTest *tests, size_t count, CMFixtureFunction setup,
		   CMFixtureFunction teardown);

#endif
