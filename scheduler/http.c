/*
 * http.c: the metrics endpoint (http.h): its listening socket, made from
 * an address or taken from the service manager, and evhttp bounded
 * against whatever connects, answering GET /metrics.
 *
 * evhttp's own timeout restarts with every byte, so a client that sends
 * one byte every few seconds would keep its connection for ever, and
 * evhttp takes every connection it can accept.  So each connection is
 * tracked here from the moment evhttp makes it (evhttp's bevcb hands us
 * its bufferevent; the bufferevent's callback argument is evhttp's
 * connection, whose close callback tells us when it goes): one deadline
 * for a whole request, from the connection's start or the last answer,
 * and a cap on connections, beyond which a new one is closed at once.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include <event2/buffer.h>
#include <event2/bufferevent.h>
#include <event2/event.h>
#include <event2/http.h>
#include <event2/listener.h>

#include "agxipc/log.h"
#include "http.h"

/* A scrape is a GET with a few headers; anything bigger is not one. */
#define MAX_HEADERS_SIZE 8192
#define MAX_BODY_SIZE	 4096
/* Clients that send nothing, or read nothing, lose their connection after this. */
#define TIMEOUT_SECONDS 10
/* How long the listener rests when accept() fails (out of file descriptors). */
#define BACKOFF_MS 500

#define CONTENT_TYPE "text/plain; version=0.0.4; charset=utf-8"

struct tracked;

struct metrics_http {
	struct evhttp *http;
	struct event_base *base;
	struct tracked *conns; /* every connection evhttp has */
	unsigned num_conns;    /* admitted: within the cap */
	unsigned max_conns, deadline_ms;
	struct evconnlistener *listener; /* freed by evhttp_free() */
	struct event *backoff;
	metrics_write_fn write;
	void *data;
	char *path; /* the socket file create made, unlinked by destroy */
	char address[METRICS_HTTP_ADDRESS_MAX];
	struct metrics_http *next;
};

/*
 * Every endpoint of the process: evhttp gives the listener's error
 * callback its own argument, not ours, so the callback looks it up here.
 * One thread, as the rest of the daemon.
 */
static struct metrics_http *endpoints;

static int parse_port(const char *s, in_port_t *port)
{
	unsigned long v = 0;
	size_t n = 0;

	for (; s[n]; n++) {
		if (s[n] < '0' || s[n] > '9' || n == 5)
			return -EINVAL;
		v = v * 10 + (unsigned long)(s[n] - '0');
	}
	if (n == 0 || v > 65535)
		return -EINVAL;
	*port = htons((uint16_t)v);
	return 0;
}

int metrics_address_parse(const char *address, struct sockaddr_storage *addr, socklen_t *len)
{
	char host[INET6_ADDRSTRLEN];
	const char *end;
	size_t n;

	memset(addr, 0, sizeof(*addr));
	if (!strncmp(address, "unix:", 5)) {
		struct sockaddr_un *un = (struct sockaddr_un *)addr;

		n = strlen(address + 5);
		if (n == 0)
			return -EINVAL;
		if (n >= sizeof(un->sun_path))
			return -ENAMETOOLONG;
		un->sun_family = AF_UNIX;
		memcpy(un->sun_path, address + 5, n + 1);
		*len = sizeof(*un);
		return 0;
	}
	if (address[0] == '[') {
		struct sockaddr_in6 *in6 = (struct sockaddr_in6 *)addr;

		end = strchr(address, ']');
		if (!end || end[1] != ':' || (size_t)(end - address - 1) >= sizeof(host))
			return -EINVAL;
		n = (size_t)(end - address - 1);
		memcpy(host, address + 1, n);
		host[n] = '\0';
		if (inet_pton(AF_INET6, host, &in6->sin6_addr) != 1)
			return -EINVAL;
		in6->sin6_family = AF_INET6;
		*len = sizeof(*in6);
		return parse_port(end + 2, &in6->sin6_port);
	}

	struct sockaddr_in *in = (struct sockaddr_in *)addr;

	end = strchr(address, ':');
	if (!end || (size_t)(end - address) >= sizeof(host))
		return -EINVAL;
	n = (size_t)(end - address);
	memcpy(host, address, n);
	host[n] = '\0';
	if (inet_pton(AF_INET, host, &in->sin_addr) != 1)
		return -EINVAL;
	in->sin_family = AF_INET;
	*len = sizeof(*in);
	return parse_port(end + 1, &in->sin_port);
}

/* The address fd listens on, in http.h's form. */
static int describe(int fd, char out[METRICS_HTTP_ADDRESS_MAX])
{
	struct sockaddr_storage ss;
	socklen_t len = sizeof(ss);
	char host[INET6_ADDRSTRLEN];

	if (getsockname(fd, (struct sockaddr *)&ss, &len) < 0)
		return -errno;
	switch (ss.ss_family) {
	case AF_UNIX: {
		const struct sockaddr_un *un = (const struct sockaddr_un *)&ss;
		size_t max = len > offsetof(struct sockaddr_un, sun_path)
				 ? len - offsetof(struct sockaddr_un, sun_path)
				 : 0;

		snprintf(out, METRICS_HTTP_ADDRESS_MAX, "unix:%.*s",
			 (int)strnlen(un->sun_path, max), un->sun_path);
		return 0;
	}
	case AF_INET: {
		const struct sockaddr_in *in = (const struct sockaddr_in *)&ss;

		inet_ntop(AF_INET, &in->sin_addr, host, sizeof(host));
		snprintf(out, METRICS_HTTP_ADDRESS_MAX, "%s:%u", host, ntohs(in->sin_port));
		return 0;
	}
	case AF_INET6: {
		const struct sockaddr_in6 *in6 = (const struct sockaddr_in6 *)&ss;

		inet_ntop(AF_INET6, &in6->sin6_addr, host, sizeof(host));
		snprintf(out, METRICS_HTTP_ADDRESS_MAX, "[%s]:%u", host, ntohs(in6->sin6_port));
		return 0;
	}
	default:
		return -EAFNOSUPPORT;
	}
}

/* A socket file that refuses connections: whoever listened there is gone. */
static bool socket_is_stale(const struct sockaddr_un *addr)
{
	struct stat st;
	bool stale;
	int fd;

	if (lstat(addr->sun_path, &st) < 0 || !S_ISSOCK(st.st_mode))
		return false;
	/* non-blocking: a live listener with a full backlog answers EAGAIN, not a wait */
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return false;
	stale =
	    connect(fd, (const struct sockaddr *)addr, sizeof(*addr)) < 0 && errno == ECONNREFUSED;
	close(fd);
	return stale;
}

static int open_listener(const struct sockaddr_storage *addr, socklen_t len, int *out)
{
	const struct sockaddr_un *un = (const struct sockaddr_un *)addr;
	bool is_unix = addr->ss_family == AF_UNIX;
	int fd, one = 1, ret;

	fd = socket(addr->ss_family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -errno;
	/* a restarted daemon binds again while the old connections sit in TIME_WAIT */
	if (!is_unix && setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one)) < 0)
		goto fail_errno;
	/* [::] means IPv6 only, whatever net.ipv6.bindv6only says */
	if (addr->ss_family == AF_INET6 &&
	    setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &one, sizeof(one)) < 0)
		goto fail_errno;
	if (bind(fd, (const struct sockaddr *)addr, len) < 0) {
		ret = -errno;
		if (ret != -EADDRINUSE || !is_unix || !socket_is_stale(un))
			goto fail;
		agx_notice("metrics: replacing the stale socket %s", un->sun_path);
		if (unlink(un->sun_path) < 0 && errno != ENOENT)
			goto fail_errno;
		if (bind(fd, (const struct sockaddr *)addr, len) < 0)
			goto fail_errno;
	}
	if (listen(fd, SOMAXCONN) < 0) {
		ret = -errno;
		if (is_unix)
			unlink(un->sun_path);
		goto fail;
	}
	*out = fd;
	return 0;

fail_errno:
	ret = -errno;
fail:
	close(fd);
	return ret;
}

/* --- connections: the cap and the deadline ---------------------------------------------- */

struct tracked {
	struct metrics_http *h;
	struct bufferevent *bev;	 /* referenced by us until adopted */
	struct evhttp_connection *evcon; /* NULL until adopted */
	struct event *timer;		 /* the adoption, then the deadline */
	bool in_timer;
	bool admitted; /* counted against the cap */
	struct tracked *prev, *next;
};

static void tracked_free(struct tracked *t)
{
	struct metrics_http *h = t->h;

	if (t->prev)
		t->prev->next = t->next;
	else
		h->conns = t->next;
	if (t->next)
		t->next->prev = t->prev;
	if (t->admitted)
		h->num_conns--;
	if (!t->in_timer) {
		event_free(t->timer);
		free(t);
	} else {
		t->h = NULL; /* the timer's callback frees it when it returns */
	}
}

static void on_conn_close(struct evhttp_connection *evcon, void *arg)
{
	tracked_free(arg);
}

static void arm_deadline(struct tracked *t)
{
	struct timeval tv = { (time_t)(t->h->deadline_ms / 1000),
			      (suseconds_t)(t->h->deadline_ms % 1000) * 1000 };

	evtimer_add(t->timer, &tv);
}

/* Closes the connection; its close callback frees t (or marks it, inside its timer). */
static void drop(struct tracked *t)
{
	evhttp_connection_free(t->evcon);
}

/*
 * Once evhttp has made its connection around our bufferevent (on the turn
 * it accepted it, before it reads a byte): the cap, then the deadline.
 */
static void adopt(struct tracked *t)
{
	struct metrics_http *h = t->h;
	bufferevent_data_cb readcb, writecb;
	bufferevent_event_cb eventcb;
	void *arg = NULL;

	bufferevent_getcb(t->bev, &readcb, &writecb, &eventcb, &arg);
	/* evhttp gave it up already (it failed to set it up): only our reference holds it */
	if (!readcb || !arg ||
	    evhttp_connection_get_bufferevent((struct evhttp_connection *)arg) != t->bev) {
		bufferevent_decref(t->bev);
		t->bev = NULL;
		tracked_free(t);
		return;
	}
	t->evcon = arg;
	bufferevent_decref(t->bev); /* evhttp's reference keeps it now */
	evhttp_connection_set_closecb(t->evcon, on_conn_close, t);
	/* in the order they were accepted: the first ones in, the rest out */
	if (h->num_conns >= h->max_conns) {
		agx_warn_ratelimited(-1,
				     "metrics %s: %u connections, the most it serves; closing "
				     "a new one",
				     h->address, h->max_conns);
		drop(t);
		return;
	}
	t->admitted = true;
	h->num_conns++;
	arm_deadline(t);
}

static void on_timer(evutil_socket_t fd, short what, void *arg)
{
	struct tracked *t = arg;

	t->in_timer = true;
	if (!t->evcon) {
		adopt(t);
	} else {
		agx_warn_ratelimited(-1,
				     "metrics %s: a request not whole within %u ms; closing its "
				     "connection",
				     t->h->address, t->h->deadline_ms);
		drop(t);
	}
	t->in_timer = false;
	if (!t->h) { /* freed while we ran */
		event_free(t->timer);
		free(t);
	}
}

/* evhttp makes a connection: its bufferevent is ours to make, and so it is tracked. */
static struct bufferevent *on_new_connection(struct event_base *base, void *arg)
{
	struct metrics_http *h = arg;
	struct tracked *t = calloc(1, sizeof(*t));

	if (!t)
		return NULL; /* evhttp makes its own: that one goes untracked */
	t->h = h;
	t->bev = bufferevent_socket_new(base, -1, BEV_OPT_CLOSE_ON_FREE);
	t->timer = evtimer_new(base, on_timer, t);
	if (!t->bev || !t->timer) {
		if (t->bev)
			bufferevent_free(t->bev);
		if (t->timer)
			event_free(t->timer);
		free(t);
		return NULL;
	}
	/* ours until adopted: evhttp may drop it before then */
	bufferevent_incref(t->bev);
	t->next = h->conns;
	if (t->next)
		t->next->prev = t;
	h->conns = t;
	event_active(t->timer, EV_TIMEOUT, 0);
	return t->bev;
}

/* A request was answered: the next must come whole within the deadline. */
static void restart_deadline(struct metrics_http *h, struct evhttp_request *req)
{
	struct evhttp_connection *evcon = evhttp_request_get_connection(req);

	for (struct tracked *t = h->conns; t; t = t->next)
		if (t->evcon && t->evcon == evcon) {
			arm_deadline(t);
			return;
		}
}

void metrics_http_set_limits(struct metrics_http *h, unsigned max_connections, unsigned deadline_ms)
{
	h->max_conns = max_connections ? max_connections : METRICS_HTTP_MAX_CONNECTIONS;
	h->deadline_ms = deadline_ms ? deadline_ms : METRICS_HTTP_REQUEST_DEADLINE_MS;
}

/* --- requests ------------------------------------------------------------------------- */

static void on_request(struct evhttp_request *req, void *arg)
{
	struct metrics_http *h = arg;
	const struct evhttp_uri *uri = evhttp_request_get_evhttp_uri(req);
	const char *path = uri ? evhttp_uri_get_path(uri) : NULL;
	enum evhttp_cmd_type method = evhttp_request_get_command(req);
	struct evkeyvalq *headers = evhttp_request_get_output_headers(req);
	struct evbuffer *body;
	int ret;

	restart_deadline(h, req);
	if (!path || strcmp(path, "/metrics")) {
		evhttp_send_error(req, HTTP_NOTFOUND, NULL);
		return;
	}
	body = evbuffer_new();
	if (body && method != EVHTTP_REQ_GET && method != EVHTTP_REQ_HEAD) {
		/* evhttp_send_error() would drop the Allow header 405 must carry */
		evhttp_add_header(headers, "Allow", "GET, HEAD");
		evhttp_add_header(headers, "Content-Type", "text/plain; charset=utf-8");
		evhttp_add_header(headers, "Connection", "close");
		evbuffer_add_printf(body, "only GET and HEAD here\n");
		evhttp_send_reply(req, HTTP_BADMETHOD, "Method Not Allowed", body);
		evbuffer_free(body);
		return;
	}
	ret = body ? h->write(body, h->data) : -ENOMEM;
	if (ret < 0) {
		agx_warn_ratelimited(-1, "metrics %s: cannot write a scrape: %s", h->address,
				     strerror(-ret));
		evhttp_send_error(req, HTTP_INTERNAL, NULL);
	} else {
		char length[24];

		/*
		 * evhttp leaves Content-Length out of HTTP/1.0 answers, where a
		 * client could not tell a body cut short from a whole one; and
		 * it would send a HEAD its body.
		 */
		snprintf(length, sizeof(length), "%zu", evbuffer_get_length(body));
		evhttp_add_header(headers, "Content-Type", CONTENT_TYPE);
		evhttp_add_header(headers, "Content-Length", length);
		evhttp_add_header(headers, "Cache-Control", "no-store");
		if (method == EVHTTP_REQ_HEAD)
			evbuffer_drain(body, evbuffer_get_length(body));
		evhttp_send_reply(req, HTTP_OK, "OK", body);
	}
	if (body)
		evbuffer_free(body);
}

static void on_backoff_end(evutil_socket_t fd, short what, void *arg)
{
	struct metrics_http *h = arg;

	evconnlistener_enable(h->listener);
}

static void on_accept_error(struct evconnlistener *listener, void *arg)
{
	int err = EVUTIL_SOCKET_ERROR();
	struct timeval tv = { .tv_sec = 0, .tv_usec = BACKOFF_MS * 1000 };
	struct metrics_http *h = endpoints;

	while (h && h->listener != listener)
		h = h->next;
	if (!h)
		return;
	/*
	 * evconnlistener retries EAGAIN and ECONNABORTED itself; what reaches
	 * here (EMFILE, ENFILE, ENOBUFS) stays until something closes, so a
	 * listener left on would spin on it.
	 */
	agx_warn_ratelimited(-1, "metrics %s: cannot accept a connection (%s), resting %d ms",
			     h->address, strerror(err), BACKOFF_MS);
	evconnlistener_disable(listener);
	evtimer_add(h->backoff, &tv);
}

static int serve(struct event_base *base, int fd, metrics_write_fn fn, void *data,
		 struct metrics_http **out)
{
	struct metrics_http *h = calloc(1, sizeof(*h));
	struct sigaction sa;
	int ret = -ENOMEM;

	if (!h)
		goto fail_fd;
	h->write = fn;
	h->data = data;
	h->base = base;
	metrics_http_set_limits(h, 0, 0);
	ret = describe(fd, h->address);
	if (ret < 0)
		goto fail;
	ret = -ENOMEM;
	h->http = evhttp_new(base);
	h->backoff = evtimer_new(base, on_backoff_end, h);
	if (!h->http || !h->backoff)
		goto fail;
	evhttp_set_max_headers_size(h->http, MAX_HEADERS_SIZE);
	evhttp_set_max_body_size(h->http, MAX_BODY_SIZE);
	evhttp_set_timeout(h->http, TIMEOUT_SECONDS);
	/* every method reaches on_request, which answers 405 rather than evhttp's 501 */
	evhttp_set_allowed_methods(h->http, EVHTTP_REQ_GET | EVHTTP_REQ_POST | EVHTTP_REQ_HEAD |
						EVHTTP_REQ_PUT | EVHTTP_REQ_DELETE |
						EVHTTP_REQ_OPTIONS | EVHTTP_REQ_TRACE |
						EVHTTP_REQ_CONNECT | EVHTTP_REQ_PATCH);
	evhttp_set_gencb(h->http, on_request, h);
	evhttp_set_bevcb(h->http, on_new_connection, h);

	/* backlog 0: fd listens already */
	h->listener = evconnlistener_new(base, NULL, NULL,
					 LEV_OPT_CLOSE_ON_FREE | LEV_OPT_CLOSE_ON_EXEC, 0, fd);
	if (!h->listener)
		goto fail;
	fd = -1; /* the listener's now */
	if (!evhttp_bind_listener(h->http, h->listener)) {
		evconnlistener_free(h->listener);
		goto fail;
	}
	evconnlistener_set_error_cb(h->listener, on_accept_error);

	/*
	 * evhttp writes to its clients with writev(), which raises SIGPIPE
	 * when one has gone; a daemon wants EPIPE instead.
	 */
	if (sigaction(SIGPIPE, NULL, &sa) == 0 && sa.sa_handler == SIG_DFL)
		signal(SIGPIPE, SIG_IGN);

	h->next = endpoints;
	endpoints = h;
	*out = h;
	return 0;

fail:
	if (h->http)
		evhttp_free(h->http);
	if (h->backoff)
		event_free(h->backoff);
	free(h);
fail_fd:
	if (fd >= 0)
		close(fd);
	return ret;
}

int metrics_http_create(struct event_base *base, const char *address, metrics_write_fn fn,
			void *data, struct metrics_http **out)
{
	struct sockaddr_storage addr;
	socklen_t len;
	char *path = NULL;
	int fd = -1, ret;

	ret = metrics_address_parse(address, &addr, &len);
	if (ret < 0)
		return ret;
	if (addr.ss_family == AF_UNIX) {
		path = strdup(((struct sockaddr_un *)&addr)->sun_path);
		if (!path)
			return -ENOMEM;
	}
	ret = open_listener(&addr, len, &fd);
	if (ret < 0)
		goto fail;
	ret = serve(base, fd, fn, data, out);
	if (ret < 0) {
		if (path)
			unlink(path);
		goto fail;
	}
	(*out)->path = path;
	return 0;

fail:
	free(path);
	return ret;
}

int metrics_http_create_fd(struct event_base *base, int fd, metrics_write_fn fn, void *data,
			   struct metrics_http **out)
{
	int type, listening, flags, ret;
	socklen_t len = sizeof(type);

	if (getsockopt(fd, SOL_SOCKET, SO_TYPE, &type, &len) < 0)
		goto fail_errno;
	len = sizeof(listening);
	if (getsockopt(fd, SOL_SOCKET, SO_ACCEPTCONN, &listening, &len) < 0)
		goto fail_errno;
	if (type != SOCK_STREAM || !listening) {
		close(fd);
		return -EINVAL;
	}
	flags = fcntl(fd, F_GETFL);
	if (flags < 0 || fcntl(fd, F_SETFL, flags | O_NONBLOCK) < 0)
		goto fail_errno;
	return serve(base, fd, fn, data, out);

fail_errno:
	ret = -errno;
	close(fd);
	return ret;
}

void metrics_http_destroy(struct metrics_http *h)
{
	struct metrics_http **p = &endpoints;

	if (!h)
		return;
	while (*p != h)
		p = &(*p)->next;
	*p = h->next;
	evhttp_free(h->http); /* closes the listening socket and every connection */
	/* what evhttp never made a connection of (it failed first) */
	while (h->conns) {
		struct tracked *t = h->conns;

		if (t->bev)
			bufferevent_decref(t->bev);
		t->bev = NULL;
		tracked_free(t);
	}
	event_free(h->backoff);
	if (h->path) {
		unlink(h->path);
		free(h->path);
	}
	free(h);
}

const char *metrics_http_address(const struct metrics_http *h)
{
	return h->address;
}
