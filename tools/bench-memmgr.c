/*
 * bench-memmgr: `./agx bench memmgr`.  Starts agx-sim and agx-memmgr
 * (next to this program in the build tree) and measures, through libagx
 * over IPC:
 *   - BO cycles: create (memfd, device memory, DMA map), map into the
 *     client, close -- per second, at sizes from 4 KiB to 64 MiB;
 *   - VM_BIND of a 1 GiB BO in 16 KiB pages: its time, and the page-table
 *     bytes the VM then holds.
 * Prints `memmgr.<metric> <value> <unit>` lines, and for reading them on
 * a given machine, what one trivial system call costs there: a BO cycle
 * is some twenty system calls across two processes.
 */
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "agx/memory.h"
#include "bench.h"

#define SECONDS_PER_SIZE 0.5

/* Cycles of one size per second. */
static double cycles(struct agx_memory *mem, uint64_t size)
{
	double t0 = bench_now_us(), elapsed;
	unsigned n = 0;

	do {
		struct agx_bo bo;

		if (agx_bo_create(mem, size, 0, 0, &bo) < 0) {
			fprintf(stderr, "agx-bench-memmgr: %s\n", agx_memory_error(mem));
			exit(1);
		}
		((volatile uint8_t *)bo.map)[0] = 1; /* the client really maps it */
		agx_bo_close(mem, &bo);
		n++;
		elapsed = bench_now_us() - t0;
	} while (elapsed < SECONDS_PER_SIZE * 1e6);
	return n / (elapsed / 1e6);
}

/* Nanoseconds of one getppid(), the cheapest system call there is. */
static double syscall_ns(void)
{
	double t0 = bench_now_us();

	for (int i = 0; i < 100000; i++)
		syscall(SYS_getppid);
	return (bench_now_us() - t0) * 1e3 / 100000;
}

int main(void)
{
	char sim[PATH_MAX + 32], memmgr[PATH_MAX + 32], dir[] = "/tmp/agx-bench-memmgr-XXXXXX";
	char sim_sock[64], sock[64], priv[64];
	struct agx_memory *mem = NULL;
	struct agx_memory_usage u;
	pid_t sim_pid, memmgr_pid = -1;
	struct agx_bo bo;
	uint32_t vm;
	uint64_t va;
	double t0, bind_ms;
	int ret = 1;

	bench_sibling(sim, sizeof(sim), "sim/agx-sim");
	bench_sibling(memmgr, sizeof(memmgr), "memmgr/agx-memmgr");
	if (!mkdtemp(dir)) {
		perror("mkdtemp");
		return 1;
	}
	snprintf(sim_sock, sizeof(sim_sock), "%s/sim.sock", dir);
	snprintf(sock, sizeof(sock), "%s/memmgr.sock", dir);
	snprintf(priv, sizeof(priv), "%s/memmgr-priv.sock", dir);
	sim_pid = bench_spawn((char *[]){ sim, "--socket", sim_sock, NULL });
	memmgr_pid = bench_spawn((char *[]){ memmgr, "--socket", sock, "--privileged-socket", priv,
					     "--device", sim_sock, NULL });
	bench_wait_for(priv);
	if (agx_memory_connect(sock, &mem) < 0) {
		fprintf(stderr, "agx-bench-memmgr: cannot reach agx-memmgr\n");
		goto out;
	}
	cycles(mem, 4096); /* warm-up: caches, the allocator's lists, the device's tables */
	printf("memmgr.bo_cycle_per_s %.0f cycles/s (4 KiB BO: create, map, close)\n",
	       cycles(mem, 4096));
	for (uint64_t size = 64 << 10; size <= 64 << 20; size <<= 4)
		printf("memmgr.bo_cycle_%llukib_per_s %.0f cycles/s\n",
		       (unsigned long long)(size >> 10), cycles(mem, size));

	if (agx_vm_create(mem, &vm) < 0 || agx_bo_create(mem, 1ull << 30, 0, 0, &bo) < 0) {
		fprintf(stderr, "agx-bench-memmgr: %s\n", agx_memory_error(mem));
		goto out;
	}
	t0 = bench_now_us();
	if (agx_vm_bind(mem, vm, &bo, 0, 1ull << 30, 0,
			AGX_BIND_READ | AGX_BIND_WRITE | AGX_BIND_ALLOCATE_VA, &va) < 0 ||
	    agx_memory_query(mem, &u) < 0) {
		fprintf(stderr, "agx-bench-memmgr: %s\n", agx_memory_error(mem));
		goto out;
	}
	bind_ms = (bench_now_us() - t0) / 1e3;
	printf("memmgr.bind_1gib_ms %.2f ms (65536 pages of 16 KiB)\n", bind_ms);
	printf("memmgr.pt_bytes_per_gib %llu bytes (%.3f%% of the memory mapped)\n",
	       (unsigned long long)u.page_table_bytes, 100.0 * u.page_table_bytes / (1ull << 30));
	printf("memmgr.host_syscall_ns %.0f ns (reference: one getppid() here)\n", syscall_ns());
	agx_vm_destroy(mem, vm);
	agx_bo_close(mem, &bo);
	ret = 0;
out:
	agx_memory_disconnect(mem);
	bench_stop(memmgr_pid);
	bench_stop(sim_pid);
	unlink(sim_sock);
	unlink(sock);
	unlink(priv);
	rmdir(dir);
	return ret;
}
