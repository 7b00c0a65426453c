/*
 * metrics-server.h: the metrics endpoint (scheduler/http.c) served from a
 * loop thread of the test process, and a raw HTTP client to poke it with;
 * for test-prom and tools' test-top.
 */
#ifndef TESTS_METRICS_SERVER_H
#define TESTS_METRICS_SERVER_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "http.h"

struct event;
struct event_base;

struct test_server {
	struct event_base *base;
	struct metrics_http *http;
	struct event *quit;
	int wake[2];
	pthread_t thread;
	bool running;
};

/* A write callback that adds the string data points to. */
int test_server_body(struct evbuffer *out, void *data);

/* metrics_http_create (fd < 0) or _create_fd on a new loop; its return value. */
int test_server_create(struct test_server *s, const char *address, int fd, metrics_write_fn fn,
		       void *data);
/* Runs the loop on a thread of its own until test_server_destroy. */
void test_server_run(struct test_server *s);
void test_server_destroy(struct test_server *s);

/*
 * Sends request as it is over a new connection to address and reads the
 * answer until the server closes (at most 10 s, at most size - 1 bytes):
 * its length, NUL-terminated in response, or a negative errno.
 */
ssize_t test_http(const char *address, const char *request, char *response, size_t size);
/* An answer's status code (-1 without a status line) and body (NULL without one). */
int test_http_status(const char *response);
const char *test_http_body(const char *response);
/* The value of header name in an answer, copied into value; false without it. */
bool test_http_header(const char *response, const char *name, char *value, size_t size);

/* A scratch directory with a unix socket path in it, for cmocka's group set-up. */
struct test_dir {
	char path[64];
	char sock[96];
	char address[112]; /* unix:sock */
};

int test_dir_setup(void **state);
int test_dir_teardown(void **state);

#endif
