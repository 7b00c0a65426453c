/*
 * metrics-server.c: a metrics endpoint on a loop thread and a raw HTTP
 * client (metrics-server.h).  The loop is only touched by its thread once
 * it runs; the main thread stops it through a pipe.
 */
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <unistd.h>

#include <event2/buffer.h>
#include <event2/event.h>

#include "metrics-server.h"

int test_server_body(struct evbuffer *out, void *data)
{
	return evbuffer_add(out, data, strlen(data)) < 0 ? -ENOMEM : 0;
}

static void on_quit(evutil_socket_t fd, short what, void *arg)
{
	struct test_server *s = arg;

	event_base_loopbreak(s->base);
}

int test_server_create(struct test_server *s, const char *address, int fd, metrics_write_fn fn,
		       void *data)
{
	int ret;

	*s = (struct test_server){ .wake = { -1, -1 } };
	s->base = event_base_new();
	if (!s->base || pipe(s->wake) < 0)
		abort();
	s->quit = event_new(s->base, s->wake[0], EV_READ, on_quit, s);
	if (!s->quit || event_add(s->quit, NULL) < 0)
		abort();
	ret = fd < 0 ? metrics_http_create(s->base, address, fn, data, &s->http)
		     : metrics_http_create_fd(s->base, fd, fn, data, &s->http);
	if (ret < 0)
		s->http = NULL;
	return ret;
}

static void *loop(void *arg)
{
	struct test_server *s = arg;

	event_base_dispatch(s->base);
	return NULL;
}

void test_server_run(struct test_server *s)
{
	if (pthread_create(&s->thread, NULL, loop, s) != 0)
		abort();
	s->running = true;
}

void test_server_destroy(struct test_server *s)
{
	if (s->running) {
		if (write(s->wake[1], "q", 1) != 1)
			abort();
		pthread_join(s->thread, NULL);
	}
	metrics_http_destroy(s->http);
	event_free(s->quit);
	event_base_free(s->base);
	close(s->wake[0]);
	close(s->wake[1]);
	*s = (struct test_server){ .wake = { -1, -1 } };
}

ssize_t test_http(const char *address, const char *request, char *response, size_t size)
{
	struct sockaddr_storage addr;
	size_t have = 0, len = strlen(request);
	socklen_t alen;
	int fd, ret;

	ret = metrics_address_parse(address, &addr, &alen);
	if (ret < 0)
		return ret;
	fd = socket(addr.ss_family, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -errno;
	if (connect(fd, (struct sockaddr *)&addr, alen) < 0 ||
	    (len && send(fd, request, len, MSG_NOSIGNAL) != (ssize_t)len)) {
		ret = -errno;
		close(fd);
		return ret;
	}
	for (;;) {
		struct pollfd p = { .fd = fd, .events = POLLIN };
		ssize_t n;

		/* a bound against a hung server, not a measurement */
		if (poll(&p, 1, 10000) != 1) {
			close(fd);
			return -ETIMEDOUT;
		}
		n = recv(fd, response + have, size - 1 - have, 0);
		if (n < 0 && errno == ECONNRESET)
			break; /* an error answer may come with a reset */
		if (n < 0) {
			ret = -errno;
			close(fd);
			return ret;
		}
		if (n == 0 || (have += (size_t)n) == size - 1)
			break;
	}
	close(fd);
	response[have] = '\0';
	return (ssize_t)have;
}

int test_http_status(const char *response)
{
	int status;

	if (sscanf(response, "HTTP/1.%*d %d", &status) != 1)
		return -1;
	return status;
}

const char *test_http_body(const char *response)
{
	const char *blank = strstr(response, "\r\n\r\n");

	return blank ? blank + 4 : NULL;
}

bool test_http_header(const char *response, const char *name, char *value, size_t size)
{
	const char *end = strstr(response, "\r\n\r\n");
	size_t n = strlen(name);

	for (const char *line = strstr(response, "\r\n"); line && line < end;
	     line = strstr(line + 2, "\r\n")) {
		const char *eol = strstr(line + 2, "\r\n");

		if (!strncasecmp(line + 2, name, n) && line[2 + n] == ':') {
			const char *v = line + 3 + n;

			while (*v == ' ')
				v++;
			snprintf(value, size, "%.*s", (int)(eol - v), v);
			return true;
		}
	}
	return false;
}

int test_dir_setup(void **state)
{
	struct test_dir *d = calloc(1, sizeof(*d));

	if (!d)
		return -1;
	strcpy(d->path, "/tmp/agx-test-metrics-XXXXXX");
	if (!mkdtemp(d->path)) {
		free(d);
		return -1;
	}
	snprintf(d->sock, sizeof(d->sock), "%s/metrics.sock", d->path);
	snprintf(d->address, sizeof(d->address), "unix:%s", d->sock);
	*state = d;
	return 0;
}

int test_dir_teardown(void **state)
{
	struct test_dir *d = *state;

	unlink(d->sock);
	rmdir(d->path);
	free(d);
	return 0;
}
