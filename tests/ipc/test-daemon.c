/*
 * test-daemon: the daemon plumbing as systemd drives it, without systemd:
 * readiness and watchdog pings on a NOTIFY_SOCKET, socket activation with
 * LISTEN_FDS, a stale socket file replaced, a live one respected, and a
 * clean exit on SIGTERM.  Runs tests/ipc/echo-daemon as a real process.
 */
#include <errno.h>
#include <poll.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "agxipc/client.h"

static const char *daemon_path;

struct fixture {
	char dir[64];
	char sock[108];
	char notify[108];
	int notify_fd;
};

static int setup(void **state)
{
	struct fixture *f = calloc(1, sizeof(*f));
	struct sockaddr_un addr = { .sun_family = AF_UNIX };

	snprintf(f->dir, sizeof(f->dir), "/tmp/agx-daemon-XXXXXX");
	assert_non_null(mkdtemp(f->dir));
	snprintf(f->sock, sizeof(f->sock), "%s/echo.sock", f->dir);
	snprintf(f->notify, sizeof(f->notify), "%s/notify", f->dir);
	strcpy(addr.sun_path, f->notify);
	f->notify_fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	assert_int_equal(bind(f->notify_fd, (struct sockaddr *)&addr, sizeof(addr)), 0);
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *f = *state;

	close(f->notify_fd);
	unlink(f->notify);
	unlink(f->sock);
	rmdir(f->dir);
	free(f);
	return 0;
}

/* Starts the daemon; listen_fd >= 0 is passed as systemd passes sockets. */
static pid_t spawn(struct fixture *f, int listen_fd, const char *watchdog_usec)
{
	pid_t pid = fork();

	assert_true(pid >= 0);
	if (pid == 0) {
		char buf[32];

		setenv("NOTIFY_SOCKET", f->notify, 1);
		if (watchdog_usec)
			setenv("WATCHDOG_USEC", watchdog_usec, 1);
		if (listen_fd >= 0) {
			dup2(listen_fd, 3); /* SD_LISTEN_FDS_START, without CLOEXEC */
			snprintf(buf, sizeof(buf), "%d", (int)getpid());
			setenv("LISTEN_PID", buf, 1);
			setenv("LISTEN_FDS", "1", 1);
		}
		execl(daemon_path, daemon_path, f->sock, (char *)NULL);
		_exit(127);
	}
	return pid;
}

/* Waits (at most 10 s) for a notification containing what. */
static bool wait_notify(struct fixture *f, const char *what)
{
	struct pollfd pfd = { .fd = f->notify_fd, .events = POLLIN };

	while (poll(&pfd, 1, 10000) == 1) {
		char msg[512];
		ssize_t n = recv(f->notify_fd, msg, sizeof(msg) - 1, 0);

		if (n <= 0)
			return false;
		msg[n] = '\0';
		if (strstr(msg, what))
			return true;
	}
	return false;
}

static void ping_ok(const char *path)
{
	Agx__Ipc__Ping ping = AGX__IPC__PING__INIT;
	struct agx_ipc_client *c;
	struct agx_ipc_msg reply;

	assert_int_equal(agx_ipc_client_connect(path, AGX__IPC__INTERFACE__INTERFACE_DEVICE, "test",
						5000, &c, NULL),
			 0);
	assert_string_equal(agx_ipc_client_server(c)->name, "echo-daemon");
	ping.payload.data = (uint8_t *)"x";
	ping.payload.len = 1;
	assert_int_equal(
	    agx_ipc_client_call(c, AGX_IPC_MSG_PING, &ping.base, NULL, 0, &reply, 5000, NULL), 0);
	agx_ipc_msg_finish(&reply);
	agx_ipc_client_destroy(c);
}

/* SIGTERM ends the daemon with status 0. */
static void stop(struct fixture *f, pid_t pid)
{
	int status;

	kill(pid, SIGTERM);
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), 0);
	assert_true(wait_notify(f, "STOPPING=1"));
}

static void test_foreground(void **state)
{
	struct fixture *f = *state;
	struct stat st;
	pid_t pid = spawn(f, -1, NULL);

	assert_true(wait_notify(f, "READY=1"));
	/* ready means listening: no retry needed */
	ping_ok(f->sock);
	stop(f, pid);
	/* the socket it created is gone with it */
	assert_int_equal(stat(f->sock, &st), -1);
}

static int make_listener(const char *path)
{
	struct sockaddr_un addr = { .sun_family = AF_UNIX };
	int fd = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0);

	strcpy(addr.sun_path, path);
	assert_int_equal(bind(fd, (struct sockaddr *)&addr, sizeof(addr)), 0);
	assert_int_equal(listen(fd, 16), 0);
	return fd;
}

static void test_socket_activation(void **state)
{
	struct fixture *f = *state;
	int lfd = make_listener(f->sock);
	struct stat st;
	pid_t pid = spawn(f, lfd, NULL);

	/*
	 * We keep lfd open, so the path stays live: a daemon that ignored
	 * LISTEN_FDS could not bind it and would exit instead of getting ready.
	 */
	assert_true(wait_notify(f, "READY=1"));
	ping_ok(f->sock);
	stop(f, pid);
	/* a socket it was handed is not its to remove */
	assert_int_equal(stat(f->sock, &st), 0);
	close(lfd);
}

static void test_watchdog(void **state)
{
	struct fixture *f = *state;
	pid_t pid = spawn(f, -1, "100000");

	assert_true(wait_notify(f, "READY=1"));
	assert_true(wait_notify(f, "WATCHDOG=1"));
	assert_true(wait_notify(f, "WATCHDOG=1"));
	stop(f, pid);
}

static void test_stale_socket_replaced(void **state)
{
	struct fixture *f = *state;
	pid_t pid;

	/* a socket file whose listener died */
	close(make_listener(f->sock));
	pid = spawn(f, -1, NULL);
	assert_true(wait_notify(f, "READY=1"));
	ping_ok(f->sock);
	stop(f, pid);
}

static void test_live_socket_respected(void **state)
{
	struct fixture *f = *state;
	int lfd = make_listener(f->sock), status;
	pid_t pid = spawn(f, -1, NULL);

	/* someone else serves this path: the daemon refuses to start */
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), 1);
	close(lfd);
	unlink(f->sock);
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_foreground, setup, teardown),
		cmocka_unit_test_setup_teardown(test_socket_activation, setup, teardown),
		cmocka_unit_test_setup_teardown(test_watchdog, setup, teardown),
		cmocka_unit_test_setup_teardown(test_stale_socket_replaced, setup, teardown),
		cmocka_unit_test_setup_teardown(test_live_socket_respected, setup, teardown),
	};

	if (argc != 2) {
		fprintf(stderr, "usage: %s ECHO_DAEMON\n", argv[0]);
		return 2;
	}
	daemon_path = argv[1];
	return cmocka_run_group_tests_name("ipc-daemon", tests, NULL, NULL);
}
