/*
 * daemons.h: what the tests that run the stack's daemons as processes
 * share: starting one, waiting for its socket, stopping them all (every
 * one signalled and reaped, even when one failed, so that none outlives
 * the test) and checking that each exited cleanly -- no crash, no
 * sanitizer report.
 */
#ifndef TESTS_DAEMONS_H
#define TESTS_DAEMONS_H

#include <stdbool.h>
#include <sys/types.h>

/* argv[0] started as a child; fails the test if it cannot fork. */
pid_t daemon_spawn(char *const argv[]);
/* The same with the child's stderr appended to the file log, for the test to read. */
pid_t daemon_spawn_logged(char *const argv[], const char *log);
/* Waits (at most timeout_ms) for a daemon to listen on path; fails the test if none does. */
void daemon_wait_socket(const char *path, int timeout_ms);
/*
 * Stops the pids in their order (0s skipped), each signalled and reaped
 * before the next, all of them whatever happens; true if every one
 * exited with status 0.
 */
bool daemons_stop(const pid_t *pids, unsigned count);

#endif
