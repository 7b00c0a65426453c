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

#endif
