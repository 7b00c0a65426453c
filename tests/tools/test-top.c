/*
 * test-top: agx-top's pieces and the program.  The text format parser
 * (tools/promtext.c): what the scheduler's writer writes reads back as the
 * same samples, the format's other forms, malformed bodies refused at the
 * right line, histograms read back.  The frame (tools/top.c) from two
 * hand-made scrapes.  The HTTP client (tools/scrape.c) against the real
 * endpoint and against servers that answer badly.  agx-top itself (argv[1])
 * with --once, --iterations, SIGTERM and endpoints it cannot use.
 */
#include <errno.h>
#include <math.h>
#include <poll.h>
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>
#include <event2/buffer.h>

#include "metrics-server.h"
#include "prom.h"
#include "promtext.h"
#include "sample-scrape.h"
#include "top.h"

static const char *agx_top;

static void parse_ok(const char *text, size_t size, struct promtext *doc)
{
	struct promtext_error err;

	if (promtext_parse(text, size, doc, &err) != 0)
		fail_msg("line %u: %s, in\n%s", err.line, err.message, text);
}

static char *take(struct evbuffer *b, size_t *size)
{
	char *s;

	*size = evbuffer_get_length(b);
	s = malloc(*size + 1);
	assert_non_null(s);
	evbuffer_remove(b, s, *size);
	s[*size] = '\0';
	return s;
}

struct written {
	const char *name;
	const char *labels[7];
	double value;
};

static const struct written written[] = {
	{ "agx_zero", { NULL }, 0 },
	{ "agx_jobs_total", { "pid", "1", "client", "we\\ird \"name\"\nand more", NULL }, 1234567 },
	{ "agx_empty_label", { "k", "", NULL }, -0.1 },
	{ "agx_up", { NULL }, INFINITY },
	{ "agx_down", { NULL }, -INFINITY },
	{ "agx_unknown", { NULL }, NAN },
	{ "agx:colon_name",
	  { "a_1",
	    "\xc3\xbcnic\xc3\xb8"
	    "de",
	    "b", "}{,=", NULL },
	  1e-300 },
	{ "agx_third", { NULL }, 1.0 / 3 },
	{ "agx_big", { NULL }, 9007199254740992.0 },
	{ "agx_negative_zero", { NULL }, -0.0 },
};

static void expect_sample(const struct promtext_sample *s, const struct written *w)
{
	size_t n = 0;

	assert_string_equal(s->name, w->name);
	for (; w->labels[2 * n]; n++) {
		assert_string_equal(s->labels[n].key, w->labels[2 * n]);
		assert_string_equal(s->labels[n].value, w->labels[2 * n + 1]);
	}
	assert_int_equal(s->num_labels, n);
	if (isnan(w->value))
		assert_true(isnan(s->value));
	else
		assert_memory_equal(&s->value, &w->value, sizeof(double));
	assert_false(s->has_timestamp);
}

static void test_round_trip(void **state)
{
	struct evbuffer *b = evbuffer_new();
	const size_t n = sizeof(written) / sizeof(written[0]);
	struct promtext doc;
	size_t size;
	char *text;

	(void)state;
	prom_family(b, "agx_zero", "gauge", "Zero, with a \\ and a\nsecond line");
	for (size_t i = 0; i < n; i++)
		assert_int_equal(
		    prom_sample(b, written[i].name, written[i].labels, written[i].value), 0);
	prom_family(b, "agx_max_total", "counter", "u64");
	assert_int_equal(prom_sample_u64(b, "agx_max_total", NULL, UINT64_MAX), 0);
	text = take(b, &size);
	parse_ok(text, size, &doc);

	assert_int_equal(doc.num_samples, n + 1);
	for (size_t i = 0; i < n; i++)
		expect_sample(&doc.samples[i], &written[i]);
	assert_true(doc.samples[n].value == (double)UINT64_MAX);
	assert_int_equal(doc.samples[0].line, 3);

	assert_int_equal(doc.num_families, 2);
	assert_string_equal(doc.families[0].name, "agx_zero");
	assert_string_equal(doc.families[0].help, "Zero, with a \\ and a\nsecond line");
	assert_int_equal(doc.families[0].type, PROMTEXT_GAUGE);
	assert_int_equal(doc.families[1].type, PROMTEXT_COUNTER);

	/* finding by labels, in any order */
	assert_ptr_equal(
	    promtext_find(&doc, "agx_jobs_total",
			  (const char *[]){ "client", written[1].labels[3], "pid", "1", NULL }),
	    &doc.samples[1]);
	assert_null(promtext_find(&doc, "agx_jobs_total", (const char *[]){ "pid", "1", NULL }));
	assert_null(promtext_find(&doc, "agx_jobs_total", NULL));
	assert_ptr_equal(promtext_find(&doc, "agx_up", NULL), &doc.samples[3]);
	assert_string_equal(promtext_label(&doc.samples[1], "pid"), "1");
	assert_null(promtext_label(&doc.samples[1], "nope"));
	promtext_finish(&doc);
	free(text);
	evbuffer_free(b);
}

static void test_forms(void **state)
{
	static const char text[] = "\n"
				   "   \n"
				   "# a comment\n"
				   "#\n"
				   "# HELP a The \\\\ help\\n.\n"
				   "# TYPE a counter\n"
				   "a{} 2\n"
				   "a{b=\"1\",} 3\n"
				   "\t a{ b = \"1\" ,\tc=\"2\" }  4  -1700000000000  \n"
				   "a +Inf\n"
				   "a -inf\n"
				   "a NaN\n"
				   "a .5\n"
				   "a 5.\n"
				   "a 1E3 1700000000000\n"
				   "a -0\n"
				   "# TYPE h histogram\n"
				   "# HELP h\n"
				   "# TYPE s summary\n"
				   "# TYPE u untyped\n";
	struct promtext doc;

	(void)state;
	parse_ok(text, strlen(text), &doc);
	assert_int_equal(doc.num_samples, 10);
	assert_int_equal(doc.samples[0].num_labels, 0);
	assert_null(doc.samples[0].labels);
	assert_true(doc.samples[0].value == 2);
	assert_int_equal(doc.samples[0].line, 7);
	assert_int_equal(doc.samples[1].num_labels, 1);
	assert_int_equal(doc.samples[2].num_labels, 2);
	assert_string_equal(doc.samples[2].labels[1].key, "c");
	assert_string_equal(doc.samples[2].labels[1].value, "2");
	assert_true(doc.samples[2].has_timestamp);
	assert_true(doc.samples[2].timestamp == -1700000000000);
	assert_true(doc.samples[3].value == INFINITY);
	assert_true(doc.samples[4].value == -INFINITY);
	assert_true(isnan(doc.samples[5].value));
	assert_true(doc.samples[6].value == 0.5);
	assert_true(doc.samples[7].value == 5);
	assert_true(doc.samples[8].value == 1000);
	assert_true(doc.samples[8].timestamp == 1700000000000);
	assert_true(signbit(doc.samples[9].value));

	assert_int_equal(doc.num_families, 4);
	assert_string_equal(doc.families[0].help, "The \\ help\n.");
	assert_int_equal(doc.families[0].type, PROMTEXT_COUNTER);
	assert_string_equal(doc.families[1].name, "h");
	assert_string_equal(doc.families[1].help, "");
	assert_int_equal(doc.families[1].type, PROMTEXT_HISTOGRAM);
	assert_int_equal(doc.families[2].type, PROMTEXT_SUMMARY);
	assert_null(doc.families[2].help);
	assert_int_equal(doc.families[3].type, PROMTEXT_UNTYPED);
	promtext_finish(&doc);

	/* nothing is something */
	parse_ok("", 0, &doc);
	assert_int_equal(doc.num_samples, 0);
	promtext_finish(&doc);
}

struct malformed {
	const char *text;
	size_t size; /* 0: strlen */
	unsigned line;
};

static void test_malformed(void **state)
{
	static const struct malformed bad[] = {
		{ "a 1\nb{x=\"1} 2\n", 0, 2 },
		{ "1a 1\n", 0, 1 },
		{ "a\n", 0, 1 },
		{ "a b\n", 0, 1 },
		{ "a 1 2 3\n", 0, 1 },
		{ "a 1 x\n", 0, 1 },
		{ "a 1 1.5\n", 0, 1 },
		{ "a 1 99999999999999999999\n", 0, 1 },
		{ "a 1e999\n", 0, 1 },
		{ "a 0x10\n", 0, 1 },
		{ "a 1_000\n", 0, 1 },
		{ "a --1\n", 0, 1 },
		{ "a +NaN\n", 0, 1 },
		{ "a- 1\n", 0, 1 },
		{ "ok 1\n\n# c\na{b=\"\\q\"} 1\n", 0, 4 },
		{ "a{b=\"1\",b=\"2\"} 1\n", 0, 1 },
		{ "a{1b=\"1\"} 1\n", 0, 1 },
		{ "a{b:c=\"1\"} 1\n", 0, 1 },
		{ "a{b=1} 1\n", 0, 1 },
		{ "a{b\"1\"} 1\n", 0, 1 },
		{ "a{b=\"1\" c=\"2\"} 1\n", 0, 1 },
		{ "a{b=\"1\"}1\n", 0, 1 },
		{ "a{,} 1\n", 0, 1 },
		{ "a{b=\"x\nc\"} 1\n", 0, 1 },
		{ "a{b=\"x\\", 0, 1 },
		{ "a 1\nb 2", 0, 2 },
		{ "a 1\0\n", 5, 1 },
		{ "a 1\n\0", 5, 2 },
		{ "a 1\r\n", 0, 1 },
		{ "# TYPE a gauge\n# TYPE a counter\n", 0, 2 },
		{ "# HELP a x\n# TYPE a gauge\n# HELP a y\n", 0, 3 },
		{ "# TYPE a foo\n", 0, 1 },
		{ "# TYPE a gauge extra\n", 0, 1 },
		{ "# TYPE a\n", 0, 1 },
		{ "# TYPE\n", 0, 1 },
		{ "# HELP 1a x\n", 0, 1 },
		{ "# HELP a bad \\t escape\n", 0, 1 },
		{ "a{b=\"1\"} 1\n# TYPE a- gauge\n", 0, 2 },
	};
	struct promtext_error err;
	struct promtext doc;
	char many[4096];
	size_t n = 0;

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		size_t size = bad[i].size ? bad[i].size : strlen(bad[i].text);

		if (promtext_parse(bad[i].text, size, &doc, &err) != -EINVAL)
			fail_msg("case %zu was read", i);
		if (err.line != bad[i].line)
			fail_msg("case %zu: line %u (%s), not %u", i, err.line, err.message,
				 bad[i].line);
		assert_true(err.message[0]);
		/* nothing is left to use or free */
		assert_int_equal(doc.num_samples, 0);
		assert_null(doc.samples);
		promtext_finish(&doc);
	}

	/* PROMTEXT_MAX_LABELS labels, and one more */
	n = (size_t)snprintf(many, sizeof(many), "a{");
	for (unsigned i = 0; i < PROMTEXT_MAX_LABELS; i++)
		n += (size_t)snprintf(many + n, sizeof(many) - n, "l%u=\"%u\",", i, i);
	snprintf(many + n, sizeof(many) - n, "} 1\n");
	parse_ok(many, strlen(many), &doc);
	assert_int_equal(doc.samples[0].num_labels, PROMTEXT_MAX_LABELS);
	promtext_finish(&doc);
	snprintf(many + n, sizeof(many) - n, "x=\"\"} 1\n");
	assert_int_equal(promtext_parse(many, strlen(many), &doc, &err), -EINVAL);
	assert_int_equal(err.line, 1);
}

static void test_histogram(void **state)
{
	static const double qs[] = { 0, 0.25, 0.5, 0.9, 0.99, 1 };
	struct prom_histogram h = { 0 }, other = { 0 };
	struct promtext_histogram got;
	struct evbuffer *b = evbuffer_new();
	struct promtext doc;
	size_t size;
	char *text;

	(void)state;
	for (unsigned i = 0; i < 1000; i++)
		prom_histogram_observe(&h, 1e-6 * (1 + i * i % 997) * (i % 7 + 1));
	prom_histogram_observe(&h, 30);
	prom_histogram_observe(&other, 1);
	prom_write_histogram(b, "agx_lat_seconds", (const char *[]){ "op", "a", NULL }, &h);
	prom_write_histogram(b, "agx_lat_seconds", (const char *[]){ "op", "b", NULL }, &other);
	text = take(b, &size);
	parse_ok(text, size, &doc);

	assert_int_equal(promtext_histogram_get(&doc, "agx_lat_seconds",
						(const char *[]){ "op", "a", NULL }, &got),
			 0);
	assert_int_equal(got.num_buckets, PROM_HISTOGRAM_BOUNDS + 1);
	for (unsigned i = 0; i < PROM_HISTOGRAM_BOUNDS; i++)
		assert_true(got.le[i] == prom_histogram_bounds[i]);
	assert_true(got.le[PROM_HISTOGRAM_BOUNDS] == INFINITY);
	assert_true(got.cumulative[PROM_HISTOGRAM_BOUNDS] == 1001);
	assert_true(got.count == 1001);
	assert_true(got.sum == h.sum);
	/* the same numbers through the same interpolation: the same estimates */
	for (size_t i = 0; i < sizeof(qs) / sizeof(qs[0]); i++)
		assert_true(promtext_histogram_quantile(&got, qs[i]) ==
			    prom_histogram_quantile(&h, qs[i]));

	assert_int_equal(promtext_histogram_get(&doc, "agx_lat_seconds",
						(const char *[]){ "op", "b", NULL }, &got),
			 0);
	assert_true(got.count == 1);
	assert_float_equal(promtext_histogram_quantile(&got, 0.5), 0.75, 1e-12);
	assert_int_equal(promtext_histogram_get(&doc, "agx_lat_seconds", NULL, &got), -ENOENT);
	assert_int_equal(
	    promtext_histogram_get(&doc, "agx_lat", (const char *[]){ "op", "a", NULL }, &got),
	    -ENOENT);
	promtext_finish(&doc);
	free(text);
	evbuffer_free(b);

	/* lines in any order; a repeated or unreadable bound is refused */
	static const char shuffled[] = "x_bucket{le=\"+Inf\"} 4\nx_bucket{le=\"2\"} 4\n"
				       "x_bucket{le=\"1\"} 2\nx_count 4\n";
	parse_ok(shuffled, strlen(shuffled), &doc);
	assert_int_equal(promtext_histogram_get(&doc, "x", NULL, &got), 0);
	assert_true(got.le[0] == 1 && got.le[1] == 2 && got.le[2] == INFINITY);
	assert_true(isnan(got.sum));
	assert_float_equal(promtext_histogram_quantile(&got, 0.75), 1.5, 1e-12);
	promtext_finish(&doc);
	static const char repeated[] = "x_bucket{le=\"1\"} 2\nx_bucket{le=\"1.0\"} 2\n";
	parse_ok(repeated, strlen(repeated), &doc);
	assert_int_equal(promtext_histogram_get(&doc, "x", NULL, &got), -EINVAL);
	promtext_finish(&doc);
	static const char unreadable[] = "x_bucket{le=\"one\"} 2\n";
	parse_ok(unreadable, strlen(unreadable), &doc);
	assert_int_equal(promtext_histogram_get(&doc, "x", NULL, &got), -EINVAL);
	promtext_finish(&doc);
}

/* Two scrapes 2 s apart: three clients, one of them new, with a name nobody should print. */
static void scrapes(struct sample_scrape *prev, struct sample_scrape *cur)
{
	*prev = (struct sample_scrape){
		.uptime = 100,
		.clients = 2,
		.jobs = 1000,
		.client = { { "10", "glmark2", 10, 500, 0, 0 }, { "20", "idle", 5, 100, 0, 1 } },
		.num_clients = 2,
	};
	for (unsigned i = 0; i < 100; i++)
		prom_histogram_observe(&prev->submit_to_start, 3e-3);
	*cur = (struct sample_scrape){
		.uptime = 102,
		.clients = 3,
		.jobs = 1100,
		.faults = 2,
		.timeouts = 1,
		.queue_depth = { 1, 2, 3, 4 },
		.resets = { 1, 2 },
		.submit_to_start = prev->submit_to_start,
		.client = { { "20", "idle", 5.2, 110, 0, 1 },
			    { "30", "new\033[31m", 0.6, 40, 1, 3 },
			    { "10", "glmark2", 11, 600, 2, 0 } },
		.num_clients = 3,
	};
	/* in the interval: 100 jobs waited 1.5 ms */
	for (unsigned i = 0; i < 100; i++)
		prom_histogram_observe(&cur->submit_to_start, 1.5e-3);
}

static void parse_scrape(const struct sample_scrape *v, struct promtext *doc)
{
	size_t size;
	char *text = sample_scrape_write(v, &size);

	parse_ok(text, size, doc);
	free(text);
}

static void test_render(void **state)
{
	static const char expected[] =
	    "agx-scheduler  up 00:01:42  clients 3  jobs 50.0/s\n"
	    "queued   low 1 normal 2 high 3 realtime 4\n"
	    "latency  submit->start p50 1.50ms p99 1.99ms  start->complete p50 - p99 -\n"
	    "errors   faults 2  timeouts 1  resets 3 (guilty 1, innocent 2)\n"
	    "\n"
	    "    PID NAME              BUSY%    GPU TIME   JOBS/S       JOBS  QUEUED  FAULTS\n"
	    "     10 glmark2            50.0    0:11.000     50.0        600       2       0\n"
	    "     30 new?[31m           30.0    0:00.600     20.0         40       1       3\n"
	    "     20 idle               10.0    0:05.200      5.0        110       0       1\n";
	struct sample_scrape before, now;
	struct promtext prev, cur;
	char *text;

	(void)state;
	scrapes(&before, &now);
	parse_scrape(&before, &prev);
	parse_scrape(&now, &cur);
	text = top_render(&prev, &cur, 2.0, 0);
	assert_non_null(text);
	assert_string_equal(text, expected);
	free(text);

	/* the first frame: totals, no rates, sorted by total GPU time */
	text = top_render(NULL, &cur, 0, 0);
	assert_non_null(text);
	assert_non_null(strstr(text, "jobs -/s\n"));
	/* since the start: 100 of 3 ms and 100 of 1.5 ms */
	assert_non_null(strstr(text, "submit->start p50 2.00ms p99 4.94ms"));
	assert_non_null(strstr(text,
			       "\n     10 glmark2               -    0:11.000        -        600"
			       "       2       0\n     20 idle"));
	assert_non_null(strstr(text, "\n     20 idle                  -    0:05.200        -"
				     "        110       0       1\n     30 new?[31m"));
	free(text);

	/* fewer rows than clients: the last row says how many more */
	text = top_render(&prev, &cur, 2.0, 2);
	assert_non_null(text);
	assert_non_null(strstr(text, "     10 glmark2"));
	assert_null(strstr(text, "new?"));
	assert_non_null(strstr(text, "\n(2 more)\n"));
	free(text);
	promtext_finish(&prev);

	/* the scheduler restarted: counters start again from 0 */
	before.jobs = 5000;
	before.client[0].gpu_seconds = 500;
	parse_scrape(&before, &prev);
	text = top_render(&prev, &cur, 2.0, 0);
	assert_non_null(strstr(text, "jobs 550.0/s\n"));
	assert_non_null(strstr(text, "     10 glmark2           550.0    0:11.000"));
	free(text);
	promtext_finish(&prev);

	/* nobody there, and an empty scrape: still a frame */
	promtext_finish(&cur);
	parse_ok("", 0, &cur);
	text = top_render(&cur, &cur, 1.0, 0);
	assert_non_null(text);
	assert_non_null(strstr(text, "agx-scheduler  up -  clients -  jobs -/s\n"));
	assert_non_null(strstr(text, "(no clients)\n"));
	free(text);
	promtext_finish(&cur);
}

static void test_scrape(void **state)
{
	struct test_dir *d = *state;
	struct sample_scrape before, now;
	struct test_server s;
	char err[256], *body, *expected;
	size_t size, expected_size;

	scrapes(&before, &now);
	expected = sample_scrape_write(&now, &expected_size);
	assert_int_equal(test_server_create(&s, d->address, -1, test_server_body, expected), 0);
	test_server_run(&s);
	assert_int_equal(top_scrape(d->address, 5000, &body, &size, err, sizeof(err)), 0);
	assert_int_equal(size, expected_size);
	assert_string_equal(body, expected);
	free(body);
	test_server_destroy(&s);

	assert_int_equal(test_server_create(&s, "127.0.0.1:0", -1, test_server_body, expected), 0);
	test_server_run(&s);
	assert_int_equal(
	    top_scrape(metrics_http_address(s.http), 5000, &body, &size, err, sizeof(err)), 0);
	assert_string_equal(body, expected);
	free(body);
	test_server_destroy(&s);
	free(expected);

	/* nobody listens, or no such address */
	assert_true(top_scrape(d->address, 5000, &body, &size, err, sizeof(err)) < 0);
	assert_non_null(strstr(err, "cannot reach"));
	assert_non_null(strstr(err, d->address));
	assert_int_equal(top_scrape("localhost:80", 5000, &body, &size, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "not an address"));
}

/* A server that answers one connection with a canned answer, or holds it unanswered. */
struct fake {
	int fd;
	const char *answer; /* NULL: say nothing until the client goes */
	pthread_t thread;
};

static void *fake_serve(void *arg)
{
	struct fake *f = arg;
	char buf[4096];
	size_t have = 0;
	int c = accept(f->fd, NULL, NULL);

	if (c < 0)
		return NULL;
	while (!memmem(buf, have, "\r\n\r\n", 4)) {
		ssize_t n = recv(c, buf + have, sizeof(buf) - have, 0);

		if (n <= 0)
			break;
		have += (size_t)n;
	}
	if (f->answer) {
		ssize_t ignored = send(c, f->answer, strlen(f->answer), MSG_NOSIGNAL);

		(void)ignored;
	} else {
		while (recv(c, buf, sizeof(buf), 0) > 0)
			;
	}
	close(c);
	return NULL;
}

static int fake_scrape(const struct test_dir *d, const char *answer, int timeout_ms, char *err,
		       size_t err_size, char **body)
{
	struct sockaddr_un addr = { .sun_family = AF_UNIX };
	struct fake f = { .answer = answer };
	size_t size;
	int ret;

	strcpy(addr.sun_path, d->sock);
	unlink(d->sock);
	f.fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	assert_int_equal(bind(f.fd, (struct sockaddr *)&addr, sizeof(addr)), 0);
	assert_int_equal(listen(f.fd, 4), 0);
	assert_int_equal(pthread_create(&f.thread, NULL, fake_serve, &f), 0);
	*body = NULL;
	ret = top_scrape(d->address, timeout_ms, body, &size, err, err_size);
	pthread_join(f.thread, NULL);
	close(f.fd);
	return ret;
}

static void test_scrape_bad_servers(void **state)
{
	static const struct {
		const char *answer;
		const char *why;
	} bad[] = {
		{ "HTTP/1.0 404 Not Found\r\nContent-Length: 3\r\n\r\nno\n", "status 404" },
		{ "HTTP/1.0 200 OK\r\nContent-Length: 100\r\n\r\na 1\n", "cut at 4 of 100" },
		{ "HTTP/1.0 200 OK\r\nContent-Type: text/html\r\n\r\n<p>", "not the text format" },
		{ "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n4\r\na 1\n\r\n0\r\n\r\n",
		  "Transfer-Encoding" },
		{ "HTTP/1.0 200 OK\r\nContent-Length: 1x\r\n\r\n", "bad Content-Length" },
		{ "HTTP/1.0 200 OK\r\nContent-Length: 4\r\nContent-Length: 5\r\n\r\na 1\n",
		  "two Content-Lengths" },
		{ "SSH-2.0-OpenSSH_9.2\r\n\r\n", "not an HTTP/1 status line" },
		{ "HTTP/1.0 200 OK\r\nContent-Le", "cut in its headers" },
		{ "", "cut in its headers" },
	};
	struct test_dir *d = *state;
	char err[256], *body;

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		assert_true(fake_scrape(d, bad[i].answer, 5000, err, sizeof(err), &body) < 0);
		assert_null(body);
		if (!strstr(err, bad[i].why))
			fail_msg("case %zu: \"%s\", not \"%s\"", i, err, bad[i].why);
	}
	/* a server that never answers: given up on at the deadline */
	assert_int_equal(fake_scrape(d, NULL, 200, err, sizeof(err), &body), -ETIMEDOUT);
	assert_non_null(strstr(err, "in time"));

	/* good ones: the body by Content-Length, or to the close without one */
	assert_int_equal(fake_scrape(d,
				     "HTTP/1.0 200 OK\r\ncontent-length:  4 \r\n"
				     "Content-Type: text/plain; version=0.0.4\r\n\r\na 1\nextra",
				     5000, err, sizeof(err), &body),
			 0);
	assert_string_equal(body, "a 1\n");
	free(body);
	assert_int_equal(
	    fake_scrape(d, "HTTP/1.0 200 OK\r\n\r\na 1\nb 2\n", 5000, err, sizeof(err), &body), 0);
	assert_string_equal(body, "a 1\nb 2\n");
	free(body);
}

/* --- agx-top ----------------------------------------------------------------------------- */

struct run {
	pid_t pid;
	int out, err;
	char stdout_text[1 << 16];
	char stderr_text[4096];
	size_t out_len, err_len;
	int status;
};

static void start(struct run *r, const char *const *args)
{
	int out[2], err[2];
	const char *argv[16] = { agx_top };

	for (unsigned i = 0; args[i]; i++)
		argv[i + 1] = args[i];
	assert_int_equal(pipe(out), 0);
	assert_int_equal(pipe(err), 0);
	*r = (struct run){ 0 };
	r->pid = fork();
	assert_true(r->pid >= 0);
	if (r->pid == 0) {
		dup2(out[1], STDOUT_FILENO);
		dup2(err[1], STDERR_FILENO);
		execv(agx_top, (char *const *)argv);
		_exit(127);
	}
	close(out[1]);
	close(err[1]);
	r->out = out[0];
	r->err = err[0];
}

/* Reads what the program writes until it closes its output, or stdout holds until. */
static void read_output(struct run *r, const char *until)
{
	while (r->out >= 0 || r->err >= 0) {
		struct pollfd p[2] = { { .fd = r->out, .events = POLLIN },
				       { .fd = r->err, .events = POLLIN } };

		/* a bound against a hung program, not a measurement */
		if (poll(p, 2, 20000) <= 0)
			fail_msg("agx-top hangs; so far: %s", r->stdout_text);
		for (unsigned i = 0; i < 2; i++) {
			int *fd = i ? &r->err : &r->out;
			char *buf = i ? r->stderr_text : r->stdout_text;
			size_t *len = i ? &r->err_len : &r->out_len;
			size_t cap = i ? sizeof(r->stderr_text) : sizeof(r->stdout_text);
			ssize_t n;

			if (*fd < 0 || !p[i].revents)
				continue;
			n = read(*fd, buf + *len, cap - 1 - *len);
			if (n <= 0) {
				close(*fd);
				*fd = -1;
				continue;
			}
			*len += (size_t)n;
			buf[*len] = '\0';
		}
		if (until && strstr(r->stdout_text, until))
			return;
	}
}

static void finish(struct run *r)
{
	read_output(r, NULL);
	assert_int_equal(waitpid(r->pid, &r->status, 0), r->pid);
}

static void run_top(struct run *r, const char *const *args)
{
	start(r, args);
	finish(r);
}

static unsigned count(const char *s, const char *what)
{
	unsigned n = 0;

	for (; (s = strstr(s, what)); s++)
		n++;
	return n;
}

/* A scheduler whose clients ran another 0.1 s, 10 jobs, at every scrape. */
struct busy {
	unsigned scrapes;
	int garbage;
};

static int busy_body(struct evbuffer *out, void *data)
{
	struct busy *b = data;
	unsigned n = __atomic_add_fetch(&b->scrapes, 1, __ATOMIC_SEQ_CST);
	struct sample_scrape v = {
		.uptime = n,
		.clients = 1,
		.jobs = 10 * n,
		.client = { { "42", "busy\nbee", 0.1 * n, 10 * n, 1, 0 } },
		.num_clients = 1,
	};
	size_t size;
	char *text;

	if (b->garbage)
		return evbuffer_add_printf(out, "this is not\n") < 0 ? -ENOMEM : 0;
	text = sample_scrape_write(&v, &size);
	evbuffer_add(out, text, size);
	free(text);
	return 0;
}

static void test_program(void **state)
{
	struct test_dir *d = *state;
	struct busy busy = { 0 };
	struct test_server s;
	struct run r;

	assert_int_equal(test_server_create(&s, d->address, -1, busy_body, &busy), 0);
	test_server_run(&s);

	/* --once: two scrapes, one frame, plain text */
	run_top(&r,
		(const char *[]){ "--metrics", d->address, "--once", "--interval", "50", NULL });
	assert_true(WIFEXITED(r.status));
	assert_int_equal(WEXITSTATUS(r.status), 0);
	assert_int_equal(__atomic_load_n(&busy.scrapes, __ATOMIC_SEQ_CST), 2);
	assert_int_equal(count(r.stdout_text, "agx-scheduler  up"), 1);
	assert_non_null(strstr(r.stdout_text, "     42 busy?bee"));
	assert_null(strchr(r.stdout_text, '\033'));
	assert_string_equal(r.stderr_text, "");

	/* --iterations 3: three frames, one after another */
	run_top(&r, (const char *[]){ "--metrics", d->address, "--iterations", "3", "--interval",
				      "20", NULL });
	assert_true(WIFEXITED(r.status));
	assert_int_equal(WEXITSTATUS(r.status), 0);
	assert_int_equal(count(r.stdout_text, "agx-scheduler  up"), 3);
	assert_int_equal(count(r.stdout_text, "     42 busy?bee"), 3);

	/* no end given: SIGTERM ends it, with status 0 */
	start(&r, (const char *[]){ "--metrics", d->address, "--interval", "20", NULL });
	read_output(&r, "     42 busy?bee");
	assert_int_equal(kill(r.pid, SIGTERM), 0);
	finish(&r);
	assert_true(WIFEXITED(r.status));
	assert_int_equal(WEXITSTATUS(r.status), 0);

	/* an answer that is not the format: 1, and which line */
	__atomic_store_n(&busy.garbage, 1, __ATOMIC_SEQ_CST);
	run_top(&r, (const char *[]){ "--metrics", d->address, "--once", NULL });
	assert_true(WIFEXITED(r.status));
	assert_int_equal(WEXITSTATUS(r.status), 1);
	assert_non_null(strstr(r.stderr_text, "line 1"));
	assert_string_equal(r.stdout_text, "");
	test_server_destroy(&s);

	/* nobody there: 1, and why */
	run_top(&r, (const char *[]){ "--metrics", d->address, "--once", NULL });
	assert_true(WIFEXITED(r.status));
	assert_int_equal(WEXITSTATUS(r.status), 1);
	assert_non_null(strstr(r.stderr_text, "cannot reach"));
	assert_non_null(strstr(r.stderr_text, d->address));

	/* options it does not take */
	run_top(&r, (const char *[]){ "--interval", "0", NULL });
	assert_int_equal(WEXITSTATUS(r.status), 2);
	run_top(&r, (const char *[]){ "--bogus", NULL });
	assert_int_equal(WEXITSTATUS(r.status), 2);
	run_top(&r, (const char *[]){ "--help", NULL });
	assert_int_equal(WEXITSTATUS(r.status), 0);
	assert_non_null(strstr(r.stdout_text, "usage: agx-top"));
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_round_trip),
		cmocka_unit_test(test_forms),
		cmocka_unit_test(test_malformed),
		cmocka_unit_test(test_histogram),
		cmocka_unit_test(test_render),
		cmocka_unit_test_setup_teardown(test_scrape, test_dir_setup, test_dir_teardown),
		cmocka_unit_test_setup_teardown(test_scrape_bad_servers, test_dir_setup,
						test_dir_teardown),
		cmocka_unit_test_setup_teardown(test_program, test_dir_setup, test_dir_teardown),
	};

	if (argc != 2) {
		fprintf(stderr, "usage: %s AGX_TOP\n", argv[0]);
		return 2;
	}
	agx_top = argv[1];
	signal(SIGPIPE, SIG_IGN);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
