/*
 * xvfb.h: an X server of a test's own -- Xvfb on a display number it
 * picks itself (-displayfd: no two tests collide), waited for until it
 * accepts connections, and stopped again.
 */
#ifndef TESTS_XVFB_H
#define TESTS_XVFB_H

#include <stdbool.h>
#include <sys/types.h>

struct test_xvfb {
	pid_t pid;
	char display[16]; /* ":N" */
};

/*
 * Starts Xvfb with args (NULL-terminated, e.g. "-screen", "0",
 * "256x256x24") and "-nolisten tcp"; false if there is no Xvfb to run (the
 * caller skips).  Fails the test if Xvfb starts but never gets ready.
 */
bool test_xvfb_start(struct test_xvfb *x, const char *const *args);
/* Stops it (SIGTERM, reaped); a server that was not started is a no-op. */
void test_xvfb_stop(struct test_xvfb *x);

#endif
