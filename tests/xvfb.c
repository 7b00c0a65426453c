/*
 * xvfb.c: a test's own X server (xvfb.h).  Xvfb writes the display number
 * it chose to the -displayfd descriptor once it accepts connections, which
 * is both how the test learns the number and how it knows the server is up.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "xvfb.h"

/* Long enough for a loaded machine; a server this slow has hung. */
#define READY_TIMEOUT_MS 60000
#define MAX_ARGS	 32

bool test_xvfb_start(struct test_xvfb *x, const char *const *args)
{
	const char *argv[MAX_ARGS + 6];
	char fd_arg[16], buf[16];
	unsigned n = 0, len = 0;
	int pipefd[2], status;

	memset(x, 0, sizeof(*x));
	assert_int_equal(pipe2(pipefd, O_CLOEXEC), 0);
	snprintf(fd_arg, sizeof(fd_arg), "%d", pipefd[1]);
	argv[n++] = "Xvfb";
	argv[n++] = "-displayfd";
	argv[n++] = fd_arg;
	argv[n++] = "-nolisten";
	argv[n++] = "tcp";
	for (unsigned i = 0; args && args[i]; i++) {
		assert_true(i < MAX_ARGS);
		argv[n++] = args[i];
	}
	argv[n] = NULL;
	x->pid = fork();
	assert_true(x->pid >= 0);
	if (x->pid == 0) {
		int null = open("/dev/null", O_RDWR);

		/* the write end stays open across exec; Xvfb's chatter goes nowhere */
		fcntl(pipefd[1], F_SETFD, 0);
		if (null >= 0) {
			dup2(null, STDOUT_FILENO);
			dup2(null, STDERR_FILENO);
		}
		execvp(argv[0], (char *const *)argv);
		_exit(127);
	}
	close(pipefd[1]);
	/* the number and a newline, or EOF when Xvfb failed or is missing */
	while (len < sizeof(buf) - 1) {
		struct pollfd p = { .fd = pipefd[0], .events = POLLIN };
		ssize_t r;

		if (poll(&p, 1, READY_TIMEOUT_MS) <= 0)
			break;
		r = read(pipefd[0], buf + len, sizeof(buf) - 1 - len);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		len += (unsigned)r;
		if (memchr(buf, '\n', len))
			break;
	}
	close(pipefd[0]);
	buf[len] = '\0';
	if (!memchr(buf, '\n', len)) {
		kill(x->pid, SIGTERM);
		waitpid(x->pid, &status, 0);
		x->pid = 0;
		if (WIFEXITED(status) && WEXITSTATUS(status) == 127)
			return false;
		fail_msg("Xvfb did not get ready (exit status %#x)", status);
	}
	snprintf(x->display, sizeof(x->display), ":%d", atoi(buf));
	return true;
}

void test_xvfb_stop(struct test_xvfb *x)
{
	int status;

	if (x->pid <= 0)
		return;
	kill(x->pid, SIGTERM);
	while (waitpid(x->pid, &status, 0) < 0 && errno == EINTR)
		;
	x->pid = 0;
}
