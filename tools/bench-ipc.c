/*
 * agx-bench-ipc: request/reply cost of libagxipc between two processes.
 * A forked child serves PING on a libevent loop (the real server code and
 * loop, busy-polling as the daemons do: AGX_IPC_BUSY_POLL_US applies);
 * the parent measures, with the blocking client, the round trip of a small
 * PING with and without a file descriptor attached, then the throughput of
 * a pipelined stream of PINGs (64 in flight) on a raw connection.
 *
 * Prints `ipc.<metric> <value> <unit>` lines (see ./agx bench).
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <event2/event.h>

#include "agxipc/client.h"
#include "agxipc/log.h"
#include "agxipc/server.h"
#include "bench.h"

#define WARMUP		   2000
#define RTT_SAMPLES	   50000
#define FD_SAMPLES	   20000
#define WINDOW		   64
#define THROUGHPUT_SECONDS 2.0

static int no_dispatch(struct agx_ipc_request *req, void *data)
{
	return -EOPNOTSUPP;
}

static const struct agx_ipc_server_ops ops = { .dispatch = no_dispatch };

static void serve(const char *path)
{
	struct agx_ipc_server_config config = {
		.interface = AGX__IPC__INTERFACE__INTERFACE_DEVICE,
		.name = "bench",
		.ops = &ops,
	};
	struct sockaddr_un addr = { .sun_family = AF_UNIX };
	struct event_base *base = event_base_new();
	int fd = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0);

	strcpy(addr.sun_path, path);
	if (fd < 0 || bind(fd, (struct sockaddr *)&addr, sizeof(addr)) < 0 || listen(fd, 16) < 0) {
		perror("bench server");
		_exit(1);
	}
	if (!agx_ipc_server_create(base, fd, &config))
		_exit(1);
	agx_ipc_loop_run(base);
	_exit(0);
}

static struct agx_ipc_client *connect_retry(const char *path)
{
	struct agx_ipc_client *c;

	for (int i = 0; i < 5000; i++) {
		if (agx_ipc_client_connect(path, AGX__IPC__INTERFACE__INTERFACE_DEVICE, "bench",
					   5000, &c, NULL) == 0)
			return c;
		usleep(1000);
	}
	fprintf(stderr, "agx-bench-ipc: cannot reach the server\n");
	exit(1);
}

/* Round trips of one PING (with an fd when fd >= 0); fills sorted samples. */
static void measure_rtt(struct agx_ipc_client *c, int fd, double *samples, int n)
{
	Agx__Ipc__Ping ping = AGX__IPC__PING__INIT;
	uint8_t payload[16] = "agx-bench-ipc!!";

	ping.payload.data = payload;
	ping.payload.len = sizeof(payload);
	for (int i = -WARMUP; i < n; i++) {
		struct agx_ipc_msg reply;
		double t0 = bench_now_us();

		if (agx_ipc_client_call(c, AGX_IPC_MSG_PING, &ping.base, &fd, fd >= 0 ? 1 : 0,
					&reply, 5000, NULL) < 0) {
			fprintf(stderr, "agx-bench-ipc: call failed\n");
			exit(1);
		}
		agx_ipc_msg_finish(&reply);
		if (i >= 0)
			samples[i] = bench_now_us() - t0;
	}
	bench_sort(samples, n);
}

/* Pipelined PINGs on a raw connection: replies per second with WINDOW in flight. */
static double measure_throughput(const char *path)
{
	struct sockaddr_un addr = { .sun_family = AF_UNIX };
	Agx__Ipc__Hello hello = AGX__IPC__HELLO__INIT;
	Agx__Ipc__Ping ping = AGX__IPC__PING__INIT;
	uint8_t *buf = malloc(AGX_IPC_MAX_FRAME);
	int fd = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0), fds[AGX_IPC_MAX_FDS];
	unsigned long sent = 0, received = 0, num;
	double t0, elapsed;

	strcpy(addr.sun_path, path);
	if (connect(fd, (struct sockaddr *)&addr, sizeof(addr)) < 0)
		exit(1);
	hello.version_major = AGX_IPC_VERSION_MAJOR;
	hello.version_minor = AGX_IPC_VERSION_MINOR;
	hello.interface = AGX__IPC__INTERFACE__INTERFACE_DEVICE;
	hello.client_name = "bench-pipeline";
	agx_ipc_send(fd, AGX_IPC_MSG_HELLO, 0, ++sent, &hello.base, NULL, 0);
	agx_ipc_recv_frame(fd, buf, fds, (unsigned *)&num);
	sent = 0;

	ping.payload.data = (uint8_t *)"0123456789abcdef";
	ping.payload.len = 16;
	t0 = bench_now_us();
	do {
		while (sent - received < WINDOW)
			agx_ipc_send(fd, AGX_IPC_MSG_PING, 0, (uint32_t)++sent, &ping.base, NULL,
				     0);
		if (agx_ipc_recv_frame(fd, buf, fds, (unsigned *)&num) <= 0)
			exit(1);
		received++;
		elapsed = bench_now_us() - t0;
	} while (elapsed < THROUGHPUT_SECONDS * 1e6);
	close(fd);
	free(buf);
	return (double)received / (elapsed / 1e6);
}

int main(void)
{
	char dir[] = "/tmp/agx-bench-XXXXXX", path[108];
	double *samples = malloc(sizeof(double) * RTT_SAMPLES);
	struct agx_ipc_client *c;
	pid_t server;
	int efd, status;

	agx_log_set_level(AGX_LOG_ERR);
	if (!mkdtemp(dir))
		return 1;
	snprintf(path, sizeof(path), "%s/sock", dir);
	server = fork();
	if (server == 0)
		serve(path);
	c = connect_retry(path);

	measure_rtt(c, -1, samples, RTT_SAMPLES);
	printf("ipc.rtt_p50_us %.2f us\n", samples[RTT_SAMPLES / 2]);
	printf("ipc.rtt_p99_us %.2f us\n", samples[RTT_SAMPLES * 99 / 100]);

	efd = eventfd(0, EFD_CLOEXEC);
	measure_rtt(c, efd, samples, FD_SAMPLES);
	printf("ipc.fd_rtt_p50_us %.2f us\n", samples[FD_SAMPLES / 2]);
	printf("ipc.fd_rtt_p99_us %.2f us\n", samples[FD_SAMPLES * 99 / 100]);
	close(efd);
	agx_ipc_client_destroy(c);

	printf("ipc.msgs_per_s %.0f msgs/s\n", measure_throughput(path));

	kill(server, SIGTERM);
	waitpid(server, &status, 0);
	unlink(path);
	rmdir(dir);
	free(samples);
	return 0;
}
