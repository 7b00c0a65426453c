/*
 * bench.h: what every `./agx bench` program measures with: a monotonic
 * clock in microseconds, and sorting samples for their percentiles.
 */
#ifndef AGX_BENCH_H
#define AGX_BENCH_H

#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

static inline double bench_now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e6 + (double)ts.tv_nsec / 1e3;
}

static inline int bench_cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* Sorts samples in place; the p-th percentile is then samples[n * p / 100]. */
static inline void bench_sort(double *samples, size_t n)
{
	qsort(samples, n, sizeof(*samples), bench_cmp_double);
}

/* argv[0] started as a child (it says so on stderr if it cannot run). */
static inline pid_t bench_spawn(char *const argv[])
{
	pid_t pid = fork();

	if (pid == 0) {
		execv(argv[0], argv);
		perror(argv[0]);
		_exit(127);
	}
	return pid;
}

/* Stops a child started by bench_spawn and reaps it. */
static inline void bench_stop(pid_t pid)
{
	if (pid > 0) {
		kill(pid, SIGTERM);
		waitpid(pid, NULL, 0);
	}
}

/* Waits, up to 10 s, for a daemon's socket to appear. */
static inline void bench_wait_for(const char *path)
{
	struct stat st;

	for (int i = 0; i < 1000 && stat(path, &st) < 0; i++)
		usleep(10000);
}

/* A program of the build tree by its path from build/: build/tools/.. + rel. */
static inline void bench_sibling(char *out, size_t size, const char *rel)
{
	char self[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	char *slash;

	self[n > 0 ? n : 0] = '\0';
	slash = strrchr(self, '/');
	if (slash)
		*slash = '\0';
	snprintf(out, size, "%s/../%s", self, rel);
}

/* The stack's daemons for a benchmark, in a directory of their own. */
enum bench_socket {
	BENCH_SIM,
	BENCH_MEMMGR,
	BENCH_MEMMGR_PRIV,
	BENCH_FWCHAN,
	BENCH_SCHEDULER,
	BENCH_SOCKETS
};

struct bench_stack {
	char dir[64];
	char sock[BENCH_SOCKETS][96];
	pid_t pids[4]; /* sim, memmgr, fwchan, scheduler; 0: not started */
};

/* agx-sim, agx-memmgr and agx-fwchan, and agx-scheduler when daemons is 4; 0 or -1. */
static inline int bench_stack_start(struct bench_stack *st, unsigned daemons)
{
	static const char *const names[BENCH_SOCKETS] = { "sim", "memmgr", "memmgr-priv", "fwchan",
							  "scheduler" };
	char bin[4][PATH_MAX + 32];

	memset(st, 0, sizeof(*st));
	snprintf(st->dir, sizeof(st->dir), "/tmp/agx-bench-XXXXXX");
	if (!mkdtemp(st->dir)) {
		perror("mkdtemp");
		return -1;
	}
	for (int i = 0; i < BENCH_SOCKETS; i++)
		snprintf(st->sock[i], sizeof(st->sock[i]), "%s/%s.sock", st->dir, names[i]);
	bench_sibling(bin[0], sizeof(bin[0]), "sim/agx-sim");
	bench_sibling(bin[1], sizeof(bin[1]), "memmgr/agx-memmgr");
	bench_sibling(bin[2], sizeof(bin[2]), "fwchan/agx-fwchan");
	bench_sibling(bin[3], sizeof(bin[3]), "scheduler/agx-scheduler");
	st->pids[0] = bench_spawn((char *[]){ bin[0], "--socket", st->sock[BENCH_SIM], NULL });
	if (daemons < 2)
		return 0;
	st->pids[1] = bench_spawn((char *[]){ bin[1], "--socket", st->sock[BENCH_MEMMGR],
					      "--privileged-socket", st->sock[BENCH_MEMMGR_PRIV],
					      "--device", st->sock[BENCH_SIM], "--fwchan",
					      st->sock[BENCH_FWCHAN], NULL });
	bench_wait_for(st->sock[BENCH_MEMMGR_PRIV]);
	if (daemons < 3)
		return 0;
	st->pids[2] = bench_spawn((char *[]){ bin[2], "--socket", st->sock[BENCH_FWCHAN],
					      "--device", st->sock[BENCH_SIM], "--memmgr",
					      st->sock[BENCH_MEMMGR_PRIV], NULL });
	bench_wait_for(st->sock[BENCH_FWCHAN]);
	if (daemons < 4)
		return 0;
	st->pids[3] = bench_spawn((char *[]){ bin[3], "--socket", st->sock[BENCH_SCHEDULER],
					      "--fwchan", st->sock[BENCH_FWCHAN], "--memmgr",
					      st->sock[BENCH_MEMMGR_PRIV], NULL });
	bench_wait_for(st->sock[BENCH_SCHEDULER]);
	return 0;
}

/* Stops them in the reverse order and takes their directory away. */
static inline void bench_stack_stop(struct bench_stack *st)
{
	for (int i = 3; i >= 0; i--)
		bench_stop(st->pids[i]);
	for (int i = 0; i < BENCH_SOCKETS; i++)
		unlink(st->sock[i]);
	rmdir(st->dir);
}

#endif
