/*
 * scrape.c: agx-top's HTTP client (top.h): one blocking HTTP/1.0 GET
 * /metrics per connection, under one deadline for connecting, sending and
 * reading.  The answer is untrusted: the status line and the headers are
 * checked, the body is whole by Content-Length or, without one, by the
 * server closing the connection, and nothing grows past MAX_RESPONSE.
 */
#include <errno.h>
#include <poll.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "http.h"
#include "top.h"

#define MAX_RESPONSE (64u << 20)
#define MAX_HEAD     (64u << 10)

static const char request[] = "GET /metrics HTTP/1.0\r\n"
			      "Host: localhost\r\n"
			      "User-Agent: agx-top\r\n"
			      "Accept: text/plain;version=0.0.4\r\n"
			      "\r\n";

struct head {
	int status;
	bool has_length;
	size_t length;
};

static int say(char *err, size_t size, int ret, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

static int say(char *err, size_t size, int ret, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, size, fmt, ap);
	va_end(ap);
	return ret;
}

static int64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* 0 once fd is ready for events, -ETIMEDOUT at the deadline. */
static int wait_fd(int fd, short events, int64_t deadline)
{
	for (;;) {
		struct pollfd p = { .fd = fd, .events = events };
		int64_t left = deadline - now_ms();
		int n;

		if (left <= 0)
			return -ETIMEDOUT;
		n = poll(&p, 1, (int)left);
		if (n > 0)
			return 0;
		if (n < 0 && errno != EINTR)
			return -errno;
	}
}

/* The value of header line "Name: value" when its name is name, trimmed; NULL otherwise. */
static const char *header_value(const char *line, size_t len, const char *name, size_t *vlen)
{
	size_t n = strlen(name);
	const char *v, *end = line + len;

	if (len <= n || strncasecmp(line, name, n) || line[n] != ':')
		return NULL;
	for (v = line + n + 1; v < end && (*v == ' ' || *v == '\t'); v++)
		;
	while (end > v && (end[-1] == ' ' || end[-1] == '\t'))
		end--;
	*vlen = (size_t)(end - v);
	return v;
}

/* The status line and headers, len bytes up to the empty line. */
static int parse_head(const char *buf, size_t len, struct head *h, char *err, size_t err_size)
{
	const char *line = buf, *end = buf + len, *v;
	size_t vlen;
	bool first = true;

	*h = (struct head){ 0 };
	while (line < end) {
		const char *eol = memmem(line, (size_t)(end - line), "\r\n", 2);
		size_t n = eol ? (size_t)(eol - line) : (size_t)(end - line);

		if (first) {
			/* HTTP/1.x NNN reason */
			if (n < 12 || strncmp(line, "HTTP/1.", 7) || line[7] < '0' ||
			    line[7] > '9' || line[8] != ' ' || line[9] < '1' || line[9] > '5' ||
			    line[10] < '0' || line[10] > '9' || line[11] < '0' || line[11] > '9' ||
			    (n > 12 && line[12] != ' '))
				return say(err, err_size, -EPROTO,
					   "not an HTTP/1 status line: \"%.*s\"",
					   (int)(n < 40 ? n : 40), line);
			h->status =
			    (line[9] - '0') * 100 + (line[10] - '0') * 10 + (line[11] - '0');
			first = false;
		} else if ((v = header_value(line, n, "Content-Length", &vlen))) {
			size_t length = 0;

			if (vlen == 0 || vlen > 10)
				return say(err, err_size, -EPROTO, "a bad Content-Length");
			for (size_t i = 0; i < vlen; i++) {
				if (v[i] < '0' || v[i] > '9')
					return say(err, err_size, -EPROTO, "a bad Content-Length");
				length = length * 10 + (size_t)(v[i] - '0');
			}
			if (h->has_length && h->length != length)
				return say(err, err_size, -EPROTO, "two Content-Lengths");
			if (length > MAX_RESPONSE)
				return say(err, err_size, -EMSGSIZE, "a body of %zu bytes", length);
			h->has_length = true;
			h->length = length;
		} else if (header_value(line, n, "Transfer-Encoding", &vlen)) {
			/* asked HTTP/1.0, so a server must not chunk; there is no reading it here
			 */
			return say(err, err_size, -EPROTO, "a Transfer-Encoding");
		} else if ((v = header_value(line, n, "Content-Type", &vlen))) {
			if (vlen < 10 || strncasecmp(v, "text/plain", 10))
				return say(err, err_size, -EPROTO,
					   "not the text format: Content-Type %.*s",
					   (int)(vlen < 40 ? vlen : 40), v);
		}
		line += n + 2;
	}
	if (first)
		return say(err, err_size, -EPROTO, "no status line");
	return 0;
}

/* Sends the request and reads until the body is whole; the response in *buf, *len. */
static int exchange(int fd, int64_t deadline, char **buf, size_t *len, struct head *h, char *err,
		    size_t err_size)
{
	size_t sent = 0, have = 0, cap = 0, head_len = 0;
	char *data = NULL;
	int ret;

	while (sent < sizeof(request) - 1) {
		ssize_t n = send(fd, &request[sent], sizeof(request) - 1 - sent, MSG_NOSIGNAL);

		if (n < 0 && errno != EAGAIN && errno != EINTR)
			return say(err, err_size, -errno, "cannot send the request: %s",
				   strerror(errno));
		if (n > 0)
			sent += (size_t)n;
		else if ((ret = wait_fd(fd, POLLOUT, deadline)) < 0)
			return say(err, err_size, ret, "cannot send the request: %s",
				   strerror(-ret));
	}

	for (;;) {
		ssize_t n;

		if (have == cap) {
			char *more;

			if (cap >= MAX_RESPONSE + MAX_HEAD) {
				ret = say(err, err_size, -EMSGSIZE, "an answer over %u bytes",
					  MAX_RESPONSE + MAX_HEAD);
				goto fail;
			}
			cap = cap ? cap * 2 : 64 * 1024;
			if (cap > MAX_RESPONSE + MAX_HEAD)
				cap = MAX_RESPONSE + MAX_HEAD;
			more = realloc(data, cap + 1);
			if (!more) {
				ret = say(err, err_size, -ENOMEM, "out of memory");
				goto fail;
			}
			data = more;
		}
		n = recv(fd, data + have, cap - have, 0);
		if (n < 0 && errno != EAGAIN && errno != EINTR) {
			ret = say(err, err_size, -errno, "cannot read the answer: %s",
				  strerror(errno));
			goto fail;
		}
		if (n < 0) {
			if ((ret = wait_fd(fd, POLLIN, deadline)) < 0) {
				say(err, err_size, ret, "no whole answer in time");
				goto fail;
			}
			continue;
		}
		have += (size_t)n;
		if (!head_len) {
			char *blank = memmem(data, have, "\r\n\r\n", 4);

			if (blank) {
				head_len = (size_t)(blank - data) + 4;
				ret = parse_head(data, head_len - 2, h, err, err_size);
				if (ret < 0)
					goto fail;
			} else if (have > MAX_HEAD || n == 0) {
				ret = say(err, err_size, -EPROTO,
					  n ? "headers over %u bytes"
					    : "an answer cut in its headers",
					  MAX_HEAD);
				goto fail;
			}
		}
		if (head_len && h->has_length && have - head_len >= h->length)
			break;
		if (n == 0) {
			if (head_len && h->has_length) {
				ret = say(err, err_size, -EPROTO, "a body cut at %zu of %zu bytes",
					  have - head_len, h->length);
				goto fail;
			}
			break; /* HTTP/1.0 without a length: the body ends with the connection */
		}
	}
	if (h->status != 200) {
		ret = say(err, err_size, -EPROTO, "HTTP status %d", h->status);
		goto fail;
	}
	*len = h->has_length ? h->length : have - head_len;
	memmove(data, data + head_len, *len);
	data[*len] = '\0';
	*buf = data;
	return 0;

fail:
	free(data);
	return ret;
}

int top_scrape(const char *address, int timeout_ms, char **body, size_t *size, char *err,
	       size_t err_size)
{
	int64_t deadline = now_ms() + timeout_ms;
	struct sockaddr_storage addr;
	char why[160];
	struct head h;
	socklen_t len;
	int fd, ret, soerr;

	ret = metrics_address_parse(address, &addr, &len);
	if (ret < 0)
		return say(err, err_size, ret,
			   "%s is not an address (unix:PATH, IPV4:PORT, [IPV6]:PORT)", address);
	fd = socket(addr.ss_family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return say(err, err_size, -errno, "cannot reach %s: %s", address, strerror(errno));
	if (connect(fd, (struct sockaddr *)&addr, len) < 0) {
		if (errno != EINPROGRESS) {
			ret = say(err, err_size, -errno, "cannot reach %s: %s", address,
				  strerror(errno));
			goto out;
		}
		ret = wait_fd(fd, POLLOUT, deadline);
		len = sizeof(soerr);
		if (ret == 0 && getsockopt(fd, SOL_SOCKET, SO_ERROR, &soerr, &len) == 0 && soerr)
			ret = -soerr;
		if (ret < 0) {
			say(err, err_size, ret, "cannot reach %s: %s", address, strerror(-ret));
			goto out;
		}
	}
	ret = exchange(fd, deadline, body, size, &h, why, sizeof(why));
	if (ret < 0)
		say(err, err_size, ret, "%s answered badly: %s", address, why);
out:
	close(fd);
	return ret;
}
