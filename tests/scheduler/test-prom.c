/*
 * test-prom: agx-scheduler's metrics in process.  The text format writer
 * (scheduler/prom.c): escaping, values that read back the same, histogram
 * buckets, sums and counts, quantile estimates on known data.  The HTTP
 * endpoint (scheduler/http.c) on a loop thread, over a unix socket and
 * loopback TCP: GET /metrics, 404, 405, bad and idle clients, a callback
 * that fails, stale and live socket files, a socket handed over.
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <poll.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include <cmocka.h>
#include <event2/buffer.h>

#include "metrics-server.h"
#include "prom.h"

#define CONTENT_TYPE "text/plain; version=0.0.4; charset=utf-8"
#define BODY	     "# HELP agx_test_total A test.\n# TYPE agx_test_total counter\nagx_test_total 7\n"

static char response[1 << 16];

/* What was written, as a string (freed by the caller). */
static char *take(struct evbuffer *b)
{
	size_t n = evbuffer_get_length(b);
	char *s = malloc(n + 1);

	assert_non_null(s);
	assert_int_equal(evbuffer_remove(b, s, n), (int)n);
	s[n] = '\0';
	return s;
}

static void expect_text(struct evbuffer *b, const char *expected)
{
	char *s = take(b);

	assert_string_equal(s, expected);
	free(s);
}

static void test_escape(void **state)
{
	struct evbuffer *b = evbuffer_new();

	(void)state;
	assert_int_equal(prom_sample(b, "x", NULL, 3), 0);
	expect_text(b, "x 3\n");
	assert_int_equal(prom_sample(b, "x", (const char *[]){ NULL }, 3), 0);
	expect_text(b, "x 3\n");
	/* a client may call itself anything: backslash, quote and newline are escaped */
	assert_int_equal(
	    prom_sample_u64(b, "agx_x_total",
			    (const char *[]){ "pid", "7", "client", "a\\b\"c\nd", NULL }, 12),
	    0);
	expect_text(b, "agx_x_total{pid=\"7\",client=\"a\\\\b\\\"c\\nd\"} 12\n");
	assert_int_equal(prom_sample(b, "x", (const char *[]){ "k", "", NULL }, 1), 0);
	expect_text(b, "x{k=\"\"} 1\n");
	/* HELP escapes backslash and newline, and keeps quotes */
	assert_int_equal(prom_family(b, "agx_x_total", "counter", "Jobs \"done\"\nC:\\ here"), 0);
	expect_text(b, "# HELP agx_x_total Jobs \"done\"\\nC:\\\\ here\n"
		       "# TYPE agx_x_total counter\n");
	evbuffer_free(b);
}

static void expect_printed(double v, const char *expected)
{
	struct evbuffer *b = evbuffer_new();
	char line[64];

	assert_int_equal(prom_sample(b, "v", NULL, v), 0);
	snprintf(line, sizeof(line), "v %s\n", expected);
	expect_text(b, line);
	evbuffer_free(b);
}

static void test_values(void **state)
{
	struct evbuffer *b = evbuffer_new();
	uint64_t rng = 0x2545f4914f6cdd1dull;

	(void)state;
	expect_printed(0, "0");
	expect_printed(1, "1");
	expect_printed(-2.5, "-2.5");
	expect_printed(0.1, "0.1");
	expect_printed(1e-300, "1e-300");
	expect_printed(9007199254740992.0, "9007199254740992"); /* 2^53: every digit */
	expect_printed(123456789012.0, "123456789012");
	expect_printed(INFINITY, "+Inf");
	expect_printed(-INFINITY, "-Inf");
	expect_printed(NAN, "NaN");
	assert_int_equal(prom_sample_u64(b, "v", NULL, UINT64_MAX), 0);
	expect_text(b, "v 18446744073709551615\n");

	/* any finite double reads back as itself */
	for (unsigned i = 0; i < 10000; i++) {
		double v, back;
		char *s;

		rng ^= rng << 13;
		rng ^= rng >> 7;
		rng ^= rng << 17;
		memcpy(&v, &rng, sizeof(v));
		if (!isfinite(v))
			continue;
		assert_int_equal(prom_sample(b, "v", NULL, v), 0);
		s = take(b);
		back = strtod(s + 2, NULL);
		if (memcmp(&back, &v, sizeof(v)))
			fail_msg("%.17g printed as %s", v, s);
		free(s);
	}
	evbuffer_free(b);
}

/* The value of the line that starts with prefix (name and labels, then a space). */
static double line_value(const char *text, const char *prefix)
{
	size_t n = strlen(prefix);

	for (const char *line = text; *line; line = strchr(line, '\n') + 1) {
		if (!strncmp(line, prefix, n) && line[n] == ' ')
			return strtod(line + n + 1, NULL);
	}
	fail_msg("no line %s in\n%s", prefix, text);
	return NAN;
}

static void test_histogram(void **state)
{
	struct prom_histogram h = { 0 };
	struct evbuffer *b = evbuffer_new();
	double sum = 0, last = 0;
	unsigned buckets = 0;
	char *text;

	(void)state;
	prom_histogram_observe(&h, 0.5e-6);
	prom_histogram_observe(&h, 1e-6); /* on the bound: le is inclusive */
	prom_histogram_observe(&h, 3e-3);
	prom_histogram_observe(&h, 20);
	prom_histogram_observe(&h, NAN); /* not counted */
	sum = 0.5e-6 + 1e-6 + 3e-3 + 20;
	assert_int_equal(h.count, 4);

	assert_int_equal(
	    prom_write_histogram(b, "agx_lat_seconds", (const char *[]){ "op", "x\"y", NULL }, &h),
	    0);
	text = take(b);
	assert_true(line_value(text, "agx_lat_seconds_bucket{op=\"x\\\"y\",le=\"1e-06\"}") == 2);
	assert_true(line_value(text, "agx_lat_seconds_bucket{op=\"x\\\"y\",le=\"2e-06\"}") == 2);
	assert_true(line_value(text, "agx_lat_seconds_bucket{op=\"x\\\"y\",le=\"0.002\"}") == 2);
	assert_true(line_value(text, "agx_lat_seconds_bucket{op=\"x\\\"y\",le=\"0.005\"}") == 3);
	assert_true(line_value(text, "agx_lat_seconds_bucket{op=\"x\\\"y\",le=\"10\"}") == 3);
	assert_true(line_value(text, "agx_lat_seconds_bucket{op=\"x\\\"y\",le=\"+Inf\"}") == 4);
	assert_true(line_value(text, "agx_lat_seconds_sum{op=\"x\\\"y\"}") == sum);
	assert_true(line_value(text, "agx_lat_seconds_count{op=\"x\\\"y\"}") == 4);
	/* every bound once, in order, the counts cumulative */
	for (const char *line = text; *line; line = strchr(line, '\n') + 1) {
		const char *le = strstr(line, "le=\"");
		double count;

		if (strncmp(line, "agx_lat_seconds_bucket{", 23))
			continue;
		assert_non_null(le);
		if (buckets < PROM_HISTOGRAM_BOUNDS)
			assert_true(strtod(le + 4, NULL) == prom_histogram_bounds[buckets]);
		else
			assert_memory_equal(le + 4, "+Inf\"", 5);
		count = strtod(strchr(le, ' ') + 1, NULL);
		assert_true(count >= last);
		last = count;
		buckets++;
	}
	assert_int_equal(buckets, PROM_HISTOGRAM_BOUNDS + 1);
	free(text);

	/* without labels, le is the only one */
	assert_int_equal(prom_write_histogram(b, "h", NULL, &(struct prom_histogram){ 0 }), 0);
	text = take(b);
	assert_non_null(strstr(text, "h_bucket{le=\"1e-06\"} 0\n"));
	assert_non_null(strstr(text, "h_bucket{le=\"+Inf\"} 0\nh_sum 0\nh_count 0\n"));
	free(text);
	evbuffer_free(b);
}

static void test_quantile(void **state)
{
	const double le[] = { 1, 2, 4, INFINITY };
	struct prom_histogram h = { 0 };

	(void)state;
	/* 10 in (0,1], 10 in (1,2], 20 in (2,4] */
	assert_float_equal(prom_quantile(0.25, le, (double[]){ 10, 20, 40, 40 }, 4), 1, 1e-12);
	assert_float_equal(prom_quantile(0.5, le, (double[]){ 10, 20, 40, 40 }, 4), 2, 1e-12);
	assert_float_equal(prom_quantile(0.75, le, (double[]){ 10, 20, 40, 40 }, 4), 3, 1e-12);
	assert_float_equal(prom_quantile(1, le, (double[]){ 10, 20, 40, 40 }, 4), 4, 1e-12);
	assert_float_equal(prom_quantile(0.1, le, (double[]){ 10, 20, 40, 40 }, 4), 0.4, 1e-12);
	/* ranks in +Inf: the last finite bound */
	assert_float_equal(prom_quantile(0.99, le, (double[]){ 10, 20, 40, 50 }, 4), 4, 1e-12);
	/* counts that go down are read as flat */
	assert_float_equal(prom_quantile(0.75, le, (double[]){ 10, 5, 20, 20 }, 4), 3, 1e-12);
	assert_true(isnan(prom_quantile(0.5, le, (double[]){ 0, 0, 0, 0 }, 4)));
	assert_true(isnan(prom_quantile(0.5, (double[]){ 1, 2 }, (double[]){ 1, 2 }, 2)));
	assert_true(isnan(prom_quantile(NAN, le, (double[]){ 10, 20, 40, 40 }, 4)));
	assert_true(prom_quantile(-1, le, (double[]){ 10, 20, 40, 40 }, 4) == -INFINITY);
	assert_true(prom_quantile(2, le, (double[]){ 10, 20, 40, 40 }, 4) == INFINITY);

	/* 1,000 jobs of 3 ms: all in (2 ms, 5 ms] */
	for (unsigned i = 0; i < 1000; i++)
		prom_histogram_observe(&h, 3e-3);
	assert_float_equal(prom_histogram_quantile(&h, 0.5), 0.0035, 1e-12);
	assert_float_equal(prom_histogram_quantile(&h, 0.99), 0.00497, 1e-12);
	/* and 1,000 of 15 ms, in (10 ms, 20 ms] */
	for (unsigned i = 0; i < 1000; i++)
		prom_histogram_observe(&h, 15e-3);
	assert_float_equal(prom_histogram_quantile(&h, 0.5), 0.005, 1e-12);
	assert_float_equal(prom_histogram_quantile(&h, 0.75), 0.015, 1e-12);
	/* past 10 s */
	h = (struct prom_histogram){ 0 };
	prom_histogram_observe(&h, 60);
	assert_float_equal(prom_histogram_quantile(&h, 0.5), 10, 1e-12);
	assert_true(isnan(prom_histogram_quantile(&(struct prom_histogram){ 0 }, 0.5)));
}

static void test_address(void **state)
{
	static const char *const bad[] = {
		"",
		"unix:",
		"127.0.0.1",
		"127.0.0.1:",
		"127.0.0.1:65536",
		"127.0.0.1:-1",
		"127.0.0.1:80x",
		"localhost:80",
		"1.2.3:80",
		"[::1]",
		"[::1]80",
		"[::1]:",
		"[zz]:80",
		"::1:80",
		"127.0.0.1:123456",
	};
	struct sockaddr_storage addr;
	char path[200];
	socklen_t len;

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		if (metrics_address_parse(bad[i], &addr, &len) != -EINVAL)
			fail_msg("\"%s\" was read as an address", bad[i]);
	memset(path, 'a', sizeof(path));
	memcpy(path, "unix:/", 6);
	path[sizeof(path) - 1] = '\0';
	assert_int_equal(metrics_address_parse(path, &addr, &len), -ENAMETOOLONG);

	assert_int_equal(metrics_address_parse("unix:/run/x.sock", &addr, &len), 0);
	assert_int_equal(addr.ss_family, AF_UNIX);
	assert_string_equal(((struct sockaddr_un *)&addr)->sun_path, "/run/x.sock");
	assert_int_equal(metrics_address_parse("127.0.0.1:9100", &addr, &len), 0);
	assert_int_equal(addr.ss_family, AF_INET);
	assert_int_equal(ntohs(((struct sockaddr_in *)&addr)->sin_port), 9100);
	assert_int_equal(metrics_address_parse("[::1]:0", &addr, &len), 0);
	assert_int_equal(addr.ss_family, AF_INET6);
	assert_int_equal(len, sizeof(struct sockaddr_in6));
}

static void expect_get(const char *address, const char *body)
{
	char type[128];

	assert_true(
	    test_http(address, "GET /metrics HTTP/1.0\r\n\r\n", response, sizeof(response)) > 0);
	assert_int_equal(test_http_status(response), 200);
	assert_true(test_http_header(response, "Content-Type", type, sizeof(type)));
	assert_string_equal(type, CONTENT_TYPE);
	assert_non_null(test_http_body(response));
	assert_string_equal(test_http_body(response), body);
	/* also over HTTP/1.0, so that a client can tell a cut body */
	assert_true(test_http_header(response, "Content-Length", type, sizeof(type)));
	assert_int_equal(atoi(type), strlen(body));
}

static void expect_status(const char *address, const char *request, int status)
{
	assert_true(test_http(address, request, response, sizeof(response)) > 0);
	assert_int_equal(test_http_status(response), status);
}

struct counted {
	const char *body;
	unsigned calls;
	int fail;
};

static int counted_body(struct evbuffer *out, void *data)
{
	struct counted *c = data;

	__atomic_add_fetch(&c->calls, 1, __ATOMIC_SEQ_CST);
	if (__atomic_load_n(&c->fail, __ATOMIC_SEQ_CST))
		return __atomic_load_n(&c->fail, __ATOMIC_SEQ_CST);
	return test_server_body(out, (void *)c->body);
}

static void test_http_unix(void **state)
{
	struct test_dir *d = *state;
	struct counted c = { .body = BODY };
	struct test_server s;
	char value[64];

	assert_int_equal(test_server_create(&s, d->address, -1, counted_body, &c), 0);
	assert_string_equal(metrics_http_address(s.http), d->address);
	test_server_run(&s);

	expect_get(d->address, BODY);
	assert_int_equal(__atomic_load_n(&c.calls, __ATOMIC_SEQ_CST), 1);
	/* HTTP/1.1 and a query string are still GET /metrics */
	expect_status(d->address,
		      "GET /metrics?x=1 HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n", 200);
	assert_string_equal(test_http_body(response), BODY);

	expect_status(d->address, "GET / HTTP/1.0\r\n\r\n", 404);
	expect_status(d->address, "GET /metrics/x HTTP/1.0\r\n\r\n", 404);
	expect_status(d->address, "POST /metrics HTTP/1.0\r\nContent-Length: 2\r\n\r\nhi", 405);
	assert_true(test_http_header(response, "Allow", value, sizeof(value)));
	assert_string_equal(value, "GET, HEAD");
	expect_status(d->address, "DELETE /metrics HTTP/1.0\r\n\r\n", 405);
	expect_status(d->address, "OPTIONS /metrics HTTP/1.0\r\n\r\n", 405);
	/* HEAD: the headers of a GET, no body */
	expect_status(d->address, "HEAD /metrics HTTP/1.0\r\n\r\n", 200);
	assert_string_equal(test_http_body(response), "");
	assert_true(test_http_header(response, "Content-Length", value, sizeof(value)));
	assert_int_equal(atoi(value), strlen(BODY));
	assert_int_equal(__atomic_load_n(&c.calls, __ATOMIC_SEQ_CST), 3);

	/* the callback's failure is a 500, not a partial body */
	__atomic_store_n(&c.fail, -EIO, __ATOMIC_SEQ_CST);
	expect_status(d->address, "GET /metrics HTTP/1.0\r\n\r\n", 500);
	__atomic_store_n(&c.fail, 0, __ATOMIC_SEQ_CST);
	expect_get(d->address, BODY);
	test_server_destroy(&s);
	/* destroy takes the socket file away */
	assert_int_equal(access(d->sock, F_OK), -1);
	assert_int_equal(errno, ENOENT);
	metrics_http_destroy(NULL);
}

/* Whatever a client sends or does not send, the next one is served. */
static void test_http_bad_clients(void **state)
{
	struct test_dir *d = *state;
	struct test_server s;
	int idle[200], fd;
	char *big;
	ssize_t n;

	assert_int_equal(test_server_create(&s, d->address, -1, test_server_body, BODY), 0);
	/* room for them all: the cap has a test of its own */
	metrics_http_set_limits(s.http, 256, 0);
	test_server_run(&s);

	/* connections that never send, or stop half-way, hold nobody up */
	for (unsigned i = 0; i < 200; i++) {
		struct sockaddr_un addr = { .sun_family = AF_UNIX };

		strcpy(addr.sun_path, d->sock);
		idle[i] = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
		assert_true(idle[i] >= 0);
		assert_int_equal(connect(idle[i], (struct sockaddr *)&addr, sizeof(addr)), 0);
		if (i % 2)
			assert_int_equal(send(idle[i], "GET /met", 8, MSG_NOSIGNAL), 8);
	}
	expect_get(d->address, BODY);
	for (unsigned i = 0; i < 200; i++)
		close(idle[i]);

	/* not HTTP */
	n = test_http(d->address, "\x01\x02garbage\r\n\r\n", response, sizeof(response));
	assert_true(n >= 0);
	assert_true(n == 0 || test_http_status(response) == 400);
	n = test_http(d->address, "GET /metrics HTTP/9.9\r\n\r\n", response, sizeof(response));
	assert_true(n == 0 || test_http_status(response) >= 400);
	expect_get(d->address, BODY);

	/* headers past the limit, a body past the limit */
	big = malloc(64 * 1024);
	assert_non_null(big);
	fd = snprintf(big, 64 * 1024, "GET /metrics HTTP/1.0\r\nX-Big: ");
	memset(big + fd, 'a', 60 * 1024);
	strcpy(big + fd + 60 * 1024, "\r\n\r\n");
	n = test_http(d->address, big, response, sizeof(response));
	assert_true(n >= 0);
	assert_true(n == 0 || test_http_status(response) >= 400);
	fd = snprintf(big, 64 * 1024, "POST /metrics HTTP/1.0\r\nContent-Length: 60000\r\n\r\n");
	memset(big + fd, 'b', 60000);
	big[fd + 60000] = '\0';
	n = test_http(d->address, big, response, sizeof(response));
	assert_true(n >= 0);
	assert_true(n == 0 || test_http_status(response) >= 400);
	free(big);

	/* a client that goes before it reads its answer */
	for (unsigned i = 0; i < 20; i++) {
		struct sockaddr_un addr = { .sun_family = AF_UNIX };

		strcpy(addr.sun_path, d->sock);
		fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
		assert_int_equal(connect(fd, (struct sockaddr *)&addr, sizeof(addr)), 0);
		assert_int_equal(send(fd, "GET /metrics HTTP/1.0\r\n\r\n", 25, MSG_NOSIGNAL), 25);
		close(fd);
	}
	expect_get(d->address, BODY);
	test_server_destroy(&s);
}

static int unix_connect(const char *path)
{
	struct sockaddr_un addr = { .sun_family = AF_UNIX };
	int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);

	assert_true(fd >= 0);
	strcpy(addr.sun_path, path);
	assert_int_equal(connect(fd, (struct sockaddr *)&addr, sizeof(addr)), 0);
	return fd;
}

/* Whether the server closed fd, waiting at most ms for it. */
static bool closed_within(int fd, int ms)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };
	char buf[256];

	while (poll(&p, 1, ms) == 1) {
		ssize_t n = recv(fd, buf, sizeof(buf), MSG_DONTWAIT);

		if (n == 0 || (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK))
			return true;
	}
	return false;
}

/* GET /metrics until it answers 200, at most 100 tries a tenth of a second apart. */
static bool get_eventually(const char *address)
{
	for (int i = 0; i < 100; i++) {
		if (test_http(address, "GET /metrics HTTP/1.0\r\n\r\n", response,
			      sizeof(response)) > 0 &&
		    test_http_status(response) == 200 && !strcmp(test_http_body(response), BODY))
			return true;
		usleep(100000);
	}
	return false;
}

/*
 * Connections beyond the cap are closed as soon as they are accepted,
 * while those within it are served (here: kept, their request unfinished,
 * the deadline far away); one that goes makes room for a good client.
 */
static void test_http_connection_cap(void **state)
{
	enum { CAP = 8 };
	struct test_dir *d = *state;
	struct test_server s;
	int held[CAP], extra;

	assert_int_equal(test_server_create(&s, d->address, -1, test_server_body, BODY), 0);
	metrics_http_set_limits(s.http, CAP, 60000);
	test_server_run(&s);
	for (unsigned i = 0; i < CAP; i++) {
		held[i] = unix_connect(d->sock);
		assert_int_equal(send(held[i], "GET /met", 8, MSG_NOSIGNAL), 8);
	}
	/* accepted after them, one too many: closed without an answer, the deadline a minute off */
	extra = unix_connect(d->sock);
	assert_true(closed_within(extra, 10000));
	close(extra);
	for (unsigned i = 0; i < CAP; i++)
		assert_false(closed_within(held[i], 0));
	/* one goes: its slot is a good client's */
	close(held[0]);
	assert_true(get_eventually(d->address));
	for (unsigned i = 1; i < CAP; i++)
		close(held[i]);
	test_server_destroy(&s);
}

/*
 * Slow-loris clients: each sends a byte of its request every 50 ms, far
 * more often than the idle timeout, and never finishes.  The deadline for
 * a whole request closes every one of them, and a good client is served
 * meanwhile.
 */
static void test_http_slow_loris(void **state)
{
	enum { LORIS = 20 };
	static const char request[] =
	    "GET /metrics HTTP/1.1\r\nX-Slow: aaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
	    "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa";
	struct test_dir *d = *state;
	struct test_server s;
	int fd[LORIS], open_ones = LORIS;
	unsigned sent = 0;
	bool gone[LORIS] = { false }, served = false;

	assert_int_equal(test_server_create(&s, d->address, -1, test_server_body, BODY), 0);
	metrics_http_set_limits(s.http, 0, 2000);
	test_server_run(&s);
	for (unsigned i = 0; i < LORIS; i++)
		fd[i] = unix_connect(d->sock);
	/* bounded: 400 rounds of 50 ms, ten times the deadline, twice evhttp's idle timeout */
	for (unsigned round = 0; round < 400 && open_ones; round++) {
		for (unsigned i = 0; i < LORIS; i++) {
			if (gone[i])
				continue;
			if (closed_within(fd[i], 0) ||
			    send(fd[i], request + sent % (sizeof(request) - 1), 1, MSG_NOSIGNAL) !=
				1) {
				gone[i] = true;
				open_ones--;
			}
		}
		sent++;
		/* a good client among them, served at once: they are within the cap */
		if (round == 2) {
			expect_get(d->address, BODY);
			served = true;
		}
		usleep(50000);
	}
	assert_true(served);
	assert_int_equal(open_ones, 0);
	for (unsigned i = 0; i < LORIS; i++)
		close(fd[i]);
	expect_get(d->address, BODY);
	test_server_destroy(&s);
}

static void test_http_tcp(void **state)
{
	struct test_server s;
	const char *address;
	int ret;

	(void)state;
	assert_int_equal(test_server_create(&s, "127.0.0.1:0", -1, test_server_body, BODY), 0);
	address = metrics_http_address(s.http);
	/* the port the kernel picked */
	assert_memory_equal(address, "127.0.0.1:", 10);
	assert_true(atoi(address + 10) > 0);
	test_server_run(&s);
	expect_get(address, BODY);
	expect_status(address, "PUT /metrics HTTP/1.0\r\n\r\n", 405);
	test_server_destroy(&s);

	/* the same over IPv6, where the machine has it */
	ret = test_server_create(&s, "[::1]:0", -1, test_server_body, BODY);
	if (ret == -EADDRNOTAVAIL || ret == -EAFNOSUPPORT) {
		test_server_destroy(&s);
		return;
	}
	assert_int_equal(ret, 0);
	address = metrics_http_address(s.http);
	assert_memory_equal(address, "[::1]:", 6);
	assert_true(atoi(address + 6) > 0);
	test_server_run(&s);
	expect_get(address, BODY);
	test_server_destroy(&s);

	assert_int_equal(test_server_create(&s, "localhost:9100", -1, test_server_body, BODY),
			 -EINVAL);
	test_server_destroy(&s);
}

/* A socket file left by a process that died without unlinking it. */
static void make_stale(const char *path)
{
	struct sockaddr_un addr = { .sun_family = AF_UNIX };
	int fd = socket(AF_UNIX, SOCK_STREAM, 0);

	strcpy(addr.sun_path, path);
	assert_int_equal(bind(fd, (struct sockaddr *)&addr, sizeof(addr)), 0);
	assert_int_equal(listen(fd, 1), 0);
	close(fd);
}

static void test_socket_files(void **state)
{
	struct test_dir *d = *state;
	struct test_server s, other;
	struct stat st;
	int fd;

	/* stale: replaced */
	make_stale(d->sock);
	assert_int_equal(stat(d->sock, &st), 0);
	assert_int_equal(test_server_create(&s, d->address, -1, test_server_body, BODY), 0);

	/* live: refused, and the live one keeps its file and serves on */
	assert_int_equal(test_server_create(&other, d->address, -1, test_server_body, "other"),
			 -EADDRINUSE);
	test_server_destroy(&other);
	assert_int_equal(stat(d->sock, &st), 0);
	assert_true(S_ISSOCK(st.st_mode));
	test_server_run(&s);
	expect_get(d->address, BODY);
	test_server_destroy(&s);

	/* not a socket: left alone */
	fd = open(d->sock, O_CREAT | O_WRONLY | O_CLOEXEC, 0600);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, "keep", 4), 4);
	close(fd);
	assert_int_equal(test_server_create(&s, d->address, -1, test_server_body, BODY),
			 -EADDRINUSE);
	test_server_destroy(&s);
	assert_int_equal(stat(d->sock, &st), 0);
	assert_true(S_ISREG(st.st_mode));
	assert_int_equal(st.st_size, 4);
	unlink(d->sock);

	/* a directory that does not exist */
	assert_int_equal(
	    test_server_create(&s, "unix:/nonexistent-agx/x.sock", -1, test_server_body, BODY),
	    -ENOENT);
	test_server_destroy(&s);
}

/* A socket that listens already (socket activation): served, its file left to its owner. */
static void test_http_fd(void **state)
{
	struct test_dir *d = *state;
	struct sockaddr_un addr = { .sun_family = AF_UNIX };
	struct test_server s;
	int fd, pipes[2];

	strcpy(addr.sun_path, d->sock);
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	assert_int_equal(bind(fd, (struct sockaddr *)&addr, sizeof(addr)), 0);
	assert_int_equal(listen(fd, 16), 0);
	assert_int_equal(test_server_create(&s, NULL, fd, test_server_body, BODY), 0);
	assert_string_equal(metrics_http_address(s.http), d->address);
	test_server_run(&s);
	expect_get(d->address, BODY);
	test_server_destroy(&s);
	assert_int_equal(access(d->sock, F_OK), 0);
	assert_int_equal(fcntl(fd, F_GETFD), -1); /* closed by destroy */
	unlink(d->sock);

	/* not listening, not a socket: refused, and closed */
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	assert_int_equal(test_server_create(&s, NULL, fd, test_server_body, BODY), -EINVAL);
	test_server_destroy(&s);
	assert_int_equal(fcntl(fd, F_GETFD), -1);
	assert_int_equal(pipe(pipes), 0);
	close(pipes[1]);
	assert_int_equal(test_server_create(&s, NULL, pipes[0], test_server_body, BODY), -ENOTSOCK);
	test_server_destroy(&s);
	assert_int_equal(fcntl(pipes[0], F_GETFD), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_escape),
		cmocka_unit_test(test_values),
		cmocka_unit_test(test_histogram),
		cmocka_unit_test(test_quantile),
		cmocka_unit_test(test_address),
		cmocka_unit_test_setup_teardown(test_http_unix, test_dir_setup, test_dir_teardown),
		cmocka_unit_test_setup_teardown(test_http_bad_clients, test_dir_setup,
						test_dir_teardown),
		cmocka_unit_test_setup_teardown(test_http_connection_cap, test_dir_setup,
						test_dir_teardown),
		cmocka_unit_test_setup_teardown(test_http_slow_loris, test_dir_setup,
						test_dir_teardown),
		cmocka_unit_test(test_http_tcp),
		cmocka_unit_test_setup_teardown(test_socket_files, test_dir_setup,
						test_dir_teardown),
		cmocka_unit_test_setup_teardown(test_http_fd, test_dir_setup, test_dir_teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
