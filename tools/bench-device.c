/*
 * bench-device: `./agx bench device`.  Starts agx-sim (next to this
 * program in the build tree, or the path given), boots its firmware with
 * the sim host, then measures the mailbox round trip: the host queues a
 * PING and rings the doorbell, the firmware answers with a PONG and raises
 * the IRQ, the host sees it.
 *
 *   device.mbox_rtt_p50_us, device.mbox_rtt_p99_us
 *
 * and, in this process, the UAT: translations per second by a GPU unit
 * whose pages are all in the TLB (256 pages, every access a hit).
 *
 *   device.mmu_translations_per_s
 */
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "agx_rtkit.h"
#include "bench.h"
#include "device.h"
#include "host/host.h"
#include "host/pagetable.h"
#include "uat.h"

#define WARMUP	2000
#define SAMPLES 20000

static double measure_mmu(void)
{
	enum { PAGES = 256, RAM = 8 << 20 };
	const uint64_t ram_paddr = 0x40000000, base = 0x100000000ull;
	struct sim_device *dev = sim_device_create(1ull << 36, 1);
	static struct sim_uat uat;
	struct sim_pagetable pt;
	struct sim_uat_fault fault;
	int fd = memfd_create("bench-uat", MFD_CLOEXEC);
	uint8_t *ram;
	uint64_t pa, sum = 0, n = 0;
	double t0, elapsed;

	if (!dev || fd < 0 || ftruncate(fd, RAM) < 0)
		return 0;
	ram = mmap(NULL, RAM, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (ram == MAP_FAILED || sim_device_dma_map(dev, ram_paddr, RAM, fd, 0, true, 1) < 0 ||
	    sim_pagetable_init(&pt, ram, ram_paddr, RAM) < 0)
		return 0;
	for (unsigned i = 0; i < PAGES; i++)
		if (sim_pagetable_map(&pt, 1, base + i * SIM_UAT_PAGE_SIZE,
				      (1000 + i) * SIM_UAT_PAGE_SIZE, 1, true, true) < 0)
			return 0;
	sim_uat_init(&uat, dev, pt.context_table);
	t0 = bench_now_us();
	do {
		for (unsigned i = 0; i < 1u << 20; i++, n++) {
			/* a stride through the pages, as a SIMD group's accesses would */
			uint64_t va = base + (n * 4160) % (PAGES * SIM_UAT_PAGE_SIZE);

			if (!sim_uat_translate(&uat, 1, va, SIM_UAT_READ, false, &pa, &fault))
				return 0;
			sum += pa;
		}
		elapsed = bench_now_us() - t0;
	} while (elapsed < 1e6);
	if (uat.walks != PAGES || sum == 0)
		return 0; /* not the warm TLB this figure is about */
	munmap(ram, RAM);
	close(fd);
	sim_device_destroy(dev);
	return (double)n / (elapsed / 1e6);
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
		if (!sim_host_ping(&h, i, 5000))
			goto fail;
	for (int i = 0; i < SAMPLES; i++) {
		double t0 = bench_now_us();

		if (!sim_host_ping(&h, WARMUP + 1 + (uint64_t)i, 5000))
			goto fail;
		samples[i] = bench_now_us() - t0;
	}
	bench_sort(samples, SAMPLES);
	printf("device.mbox_rtt_p50_us %.2f us\n", samples[SAMPLES / 2]);
	printf("device.mbox_rtt_p99_us %.2f us\n", samples[SAMPLES * 99 / 100]);
	double mmu = measure_mmu();

	if (mmu == 0) {
		fprintf(stderr, "agx-bench-device: the UAT measurement failed\n");
		goto out;
	}
	printf("device.mmu_translations_per_s %.0f translations/s\n", mmu);
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
