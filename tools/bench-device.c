/*
 * bench-device: `./agx bench device`.  Starts agx-sim (next to this
 * program in the build tree, or the path given), boots its firmware with
 * the sim host, then measures the mailbox round trip: the host queues a
 * PING and rings the doorbell, the firmware answers with a PONG and raises
 * the IRQ, the host sees it.
 *
 *   device.mbox_rtt_p50_us, device.mbox_rtt_p99_us
 */
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "agx_rtkit.h"
#include "host/host.h"
#include "bench.h"

#define WARMUP	2000
#define SAMPLES 20000

static bool ponged(const struct sim_host *h, const void *arg)
{
	return h->pong == *(const uint64_t *)arg;
}

/* One round trip; false (with h->error) when the firmware did not answer. */
static bool ping(struct sim_host *h, uint64_t cookie)
{
	struct agx_rtkit_ping p = { .cookie = cookie };
	uint8_t msg[8];

	agx_rtkit_ping_pack(msg, &p);
	return sim_host_send(h, AGX_RTKIT_ENDPOINT_MANAGEMENT, msg) &&
	       sim_host_run(h, ponged, &cookie, 5000);
}

/* build/tools/agx-bench-device -> build/sim/agx-sim */
static void default_sim_path(char *out, size_t size)
{
	char self[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	char *slash;

	self[n > 0 ? n : 0] = '\0';
	slash = strrchr(self, '/');
	if (slash)
		*slash = '\0';
	snprintf(out, size, "%s/../sim/agx-sim", self);
}

int main(int argc, char **argv)
{
	static double samples[SAMPLES];
	char sim[PATH_MAX + 32], dir[] = "/tmp/agx-bench-device-XXXXXX", sock[64];
	struct sim_host h;
	int status, ret = 1;
	pid_t pid;

	if (argc > 2) {
		fprintf(stderr, "usage: %s [AGX-SIM]\n", argv[0]);
		return 2;
	}
	if (argc == 2)
		snprintf(sim, sizeof(sim), "%s", argv[1]);
	else
		default_sim_path(sim, sizeof(sim));
	if (!mkdtemp(dir)) {
		perror("mkdtemp");
		return 1;
	}
	snprintf(sock, sizeof(sock), "%s/sim.sock", dir);
	pid = fork();
	if (pid == 0) {
		execl(sim, sim, "--socket", sock, (char *)NULL);
		perror(sim);
		_exit(127);
	}
	if (sim_host_connect(&h, sock, 5000) < 0 || sim_host_attach(&h) < 0 ||
	    sim_host_give_ram(&h, 0x100000, 1 << 20) < 0 || !sim_host_boot(&h, 5000)) {
		fprintf(stderr, "agx-bench-device: cannot bring up %s: %s\n", sim, h.error);
		goto out;
	}
	for (uint64_t i = 1; i <= WARMUP; i++)
		if (!ping(&h, i))
			goto fail;
	for (int i = 0; i < SAMPLES; i++) {
		double t0 = bench_now_us();

		if (!ping(&h, WARMUP + 1 + (uint64_t)i))
			goto fail;
		samples[i] = bench_now_us() - t0;
	}
	bench_sort(samples, SAMPLES);
	printf("device.mbox_rtt_p50_us %.2f us\n", samples[SAMPLES / 2]);
	printf("device.mbox_rtt_p99_us %.2f us\n", samples[SAMPLES * 99 / 100]);
	ret = 0;
	goto out;
fail:
	fprintf(stderr, "agx-bench-device: ping: %s\n", h.error);
out:
	sim_host_release(&h);
	kill(pid, SIGTERM);
	waitpid(pid, &status, 0);
	unlink(sock);
	rmdir(dir);
	return ret;
}
