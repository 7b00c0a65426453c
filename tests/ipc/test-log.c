/*
 * test-log: rate-limited logging (agxipc/log.h) on a fake clock: a site's
 * burst, a peer's share of it, the "suppressed" line at the next line and
 * from the flush, and a flood from many peers still held to the site's
 * limit.  stderr is read back from a file to count what was printed.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "agxipc/log.h"

#define INTERVAL_NS ((uint64_t)AGX_LOG_RATELIMIT_INTERVAL_MS * 1000000u)

static uint64_t fake_now = 1000000000u;

static uint64_t fake_clock(void)
{
	return fake_now;
}

/* What the code under test prints to stderr goes to a file while captured. */
static FILE *captured;
static int saved_stderr = -1;

static void capture_begin(void)
{
	captured = tmpfile();
	assert_non_null(captured);
	fflush(stderr);
	saved_stderr = dup(2);
	assert_true(saved_stderr >= 0);
	assert_true(dup2(fileno(captured), 2) >= 0);
}

/* Stops capturing; the lines printed, into out (NUL-terminated). */
static void capture_end(char *out, size_t size)
{
	size_t n;

	fflush(stderr);
	assert_true(dup2(saved_stderr, 2) >= 0);
	close(saved_stderr);
	saved_stderr = -1;
	rewind(captured);
	n = fread(out, 1, size - 1, captured);
	out[n] = '\0';
	fclose(captured);
	captured = NULL;
}

static unsigned count(const char *text, const char *needle)
{
	unsigned n = 0;

	for (const char *p = strstr(text, needle); p; p = strstr(p + 1, needle))
		n++;
	return n;
}

static unsigned lines(const char *text)
{
	return count(text, "\n");
}

/* One log site, shared by every call below. */
static void say(long peer, int i)
{
	agx_warn_ratelimited(peer, "bad packet %d from %ld", i, peer);
}

/* A fresh interval, with nothing left over from the test before. */
static int fresh(void **state)
{
	static char sink[1 << 16];

	(void)state;
	capture_begin();
	fake_now += 10 * INTERVAL_NS;
	agx_log_ratelimit_flush(true);
	capture_end(sink, sizeof(sink));
	return 0;
}

static void test_burst(void **state)
{
	static char out[1 << 16];
	char expected[96];

	(void)state;
	capture_begin();
	for (int i = 0; i < 100; i++)
		say(-1, i);
	capture_end(out, sizeof(out));
	/* the first BURST lines, then nothing */
	assert_int_equal(lines(out), AGX_LOG_RATELIMIT_BURST);
	assert_non_null(strstr(out, "bad packet 0 from -1\n"));
	snprintf(expected, sizeof(expected), "bad packet %d from", AGX_LOG_RATELIMIT_BURST - 1);
	assert_non_null(strstr(out, expected));
	snprintf(expected, sizeof(expected), "bad packet %d from", AGX_LOG_RATELIMIT_BURST);
	assert_null(strstr(out, expected));
	assert_int_equal(count(out, "suppressed"), 0);

	/* still within the interval: still nothing */
	capture_begin();
	fake_now += INTERVAL_NS - 1;
	say(-1, 100);
	capture_end(out, sizeof(out));
	assert_int_equal(lines(out), 0);

	/* the interval over: the count first, then the line */
	capture_begin();
	fake_now += 1;
	say(-1, 101);
	capture_end(out, sizeof(out));
	assert_int_equal(lines(out), 2);
	snprintf(expected, sizeof(expected), "say: %d similar messages suppressed\n",
		 100 - AGX_LOG_RATELIMIT_BURST + 1);
	assert_non_null(strstr(out, expected));
	assert_true(strstr(out, "suppressed") < strstr(out, "bad packet 101"));
}

static void test_peers(void **state)
{
	static char out[1 << 16];

	(void)state;
	/* one peer's flood takes its own share only ... */
	capture_begin();
	for (int i = 0; i < 100; i++)
		say(1234, i);
	for (int i = 0; i < 3; i++)
		say(5678, i);
	capture_end(out, sizeof(out));
	assert_int_equal(count(out, "from 1234\n"), AGX_LOG_RATELIMIT_PEER_BURST);
	/* ... and another peer is still heard */
	assert_int_equal(count(out, "from 5678\n"), 3);
	assert_int_equal(lines(out), AGX_LOG_RATELIMIT_PEER_BURST + 3);
}

static void test_many_peers(void **state)
{
	static char out[1 << 16];

	(void)state;
	/* a client that forks a new pid for every packet still meets the site's limit */
	capture_begin();
	for (long pid = 1; pid <= 1000; pid++)
		say(pid, 0);
	capture_end(out, sizeof(out));
	assert_int_equal(lines(out), AGX_LOG_RATELIMIT_BURST);
}

static void test_flush(void **state)
{
	static char out[1 << 16];
	char expected[96];

	(void)state;
	capture_begin();
	for (int i = 0; i < 50; i++)
		say(-1, i);
	/* the interval has not ended: nothing to tell yet */
	agx_log_ratelimit_flush(false);
	capture_end(out, sizeof(out));
	assert_int_equal(lines(out), AGX_LOG_RATELIMIT_BURST);
	assert_int_equal(count(out, "suppressed"), 0);

	/* the flood stopped; the flush after the interval tells it, once */
	capture_begin();
	fake_now += INTERVAL_NS;
	agx_log_ratelimit_flush(false);
	agx_log_ratelimit_flush(false);
	capture_end(out, sizeof(out));
	assert_int_equal(lines(out), 1);
	snprintf(expected, sizeof(expected), "say: %d similar messages suppressed\n",
		 50 - AGX_LOG_RATELIMIT_BURST);
	assert_non_null(strstr(out, expected));

	/* the next line opens a new interval, with nothing to tell */
	capture_begin();
	say(-1, 1);
	capture_end(out, sizeof(out));
	assert_int_equal(lines(out), 1);
	assert_int_equal(count(out, "suppressed"), 0);

	/* at exit, what was held back is told whether or not the interval ended */
	capture_begin();
	for (int i = 0; i < 30; i++)
		say(-1, i);
	agx_log_ratelimit_flush(true);
	capture_end(out, sizeof(out));
	snprintf(expected, sizeof(expected), "say: %d similar messages suppressed\n",
		 30 - (AGX_LOG_RATELIMIT_BURST - 1));
	assert_non_null(strstr(out, expected));
}

static void test_level(void **state)
{
	static char out[1 << 16];

	(void)state;
	/* a level not printed uses up nothing of the site's burst */
	agx_log_set_level(AGX_LOG_ERR);
	capture_begin();
	for (int i = 0; i < 100; i++)
		say(-1, i);
	capture_end(out, sizeof(out));
	assert_int_equal(lines(out), 0);
	agx_log_set_level(AGX_LOG_DEBUG);
	capture_begin();
	say(-1, 7);
	capture_end(out, sizeof(out));
	assert_int_equal(lines(out), 1);
	assert_int_equal(count(out, "suppressed"), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_burst, fresh),
		cmocka_unit_test_setup(test_peers, fresh),
		cmocka_unit_test_setup(test_many_peers, fresh),
		cmocka_unit_test_setup(test_flush, fresh),
		cmocka_unit_test_setup(test_level, fresh),
	};

	/* the interval the constants say, whatever the environment */
	unsetenv("AGX_LOG_RATELIMIT_MS");
	agx_log_init("test-log");
	agx_log_set_level(AGX_LOG_DEBUG);
	agx_log_set_clock(fake_clock);
	return cmocka_run_group_tests_name("ipc-log", tests, NULL, NULL);
}
