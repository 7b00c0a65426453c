/*
 * frozen-time.c: an LD_PRELOAD module that stops the clock an animated
 * demo reads (gettimeofday: Mesa's eglut takes its elapsed time from it),
 * so that es2gears draws the same frame on every vendor and every run.
 * The time is a fixed one; the calls otherwise behave as the real ones.
 */
#include <stddef.h>
#include <sys/time.h>

__attribute__((visibility("default"))) int gettimeofday(struct timeval *restrict tv,
							void *restrict tz)
{
	(void)tz;
	tv->tv_sec = 1700000000; /* glibc declares tv nonnull */
	tv->tv_usec = 0;
	return 0;
}
