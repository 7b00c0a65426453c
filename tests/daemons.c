/*
 * daemons.c: the daemon processes of tests (daemons.h).
 */
#include <fcntl.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "daemons.h"

pid_t daemon_spawn_logged(char *const argv[], const char *log)
{
	pid_t parent = getpid(), pid = fork();

	assert_true(pid >= 0);
	if (pid == 0) {
		int fd = log ? open(log, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0600) : 2;

		if (fd < 0 || (log && dup2(fd, 2) < 0))
			_exit(127);
		/*
		 * The daemons go when the test does, however it ends: one that
		 * dies on a sanitizer's report must not leave them holding its
		 * output open, meson waiting for their end until its timeout.
		 */
		if (prctl(PR_SET_PDEATHSIG, SIGTERM) < 0 || getppid() != parent)
			_exit(127);
		execv(argv[0], argv);
		_exit(127);
	}
	return pid;
}

pid_t daemon_spawn(char *const argv[])
{
	return daemon_spawn_logged(argv, NULL);
}

/* Whether a daemon listens on path: a connection to it is accepted (and closed at once). */
static bool listening(const char *path)
{
	struct sockaddr_un addr = { .sun_family = AF_UNIX };
	int fd = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0);
	bool ok;

	if (fd < 0)
		return false;
	snprintf(addr.sun_path, sizeof(addr.sun_path), "%s", path);
	ok = connect(fd, (struct sockaddr *)&addr, sizeof(addr)) == 0;
	close(fd);
	return ok;
}

void daemon_wait_socket(const char *path, int timeout_ms)
{
	struct timespec pause = { .tv_nsec = 10 * 1000 * 1000 };

	/* the socket's file appears at bind(), before listen(): a connection must succeed */
	for (int waited = 0; !listening(path); waited += 10) {
		if (waited > timeout_ms)
			fail_msg("%s did not appear", path);
		nanosleep(&pause, NULL);
	}
}

bool daemons_stop(const pid_t *pids, unsigned count)
{
	bool clean = true;

	/* in order, each gone before the next: a daemon outliving its peer would see it vanish */
	for (unsigned i = 0; i < count; i++) {
		int status;

		if (pids[i] <= 0)
			continue;
		kill(pids[i], SIGTERM);
		if (waitpid(pids[i], &status, 0) != pids[i] || !WIFEXITED(status) ||
		    WEXITSTATUS(status) != 0) {
			fprintf(stderr, "daemon %d did not exit cleanly (status %#x)\n",
				(int)pids[i], status);
			clean = false;
		}
	}
	return clean;
}
