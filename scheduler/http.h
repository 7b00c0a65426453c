/*
 * http.h: agx-scheduler's metrics endpoint, GET /metrics over HTTP
 * (libevent's evhttp) on a Unix socket or loopback TCP, answered with the
 * body a callback writes in the Prometheus text format (prom.h).
 *
 * Addresses read "unix:/path/to/socket", "IPV4:PORT" or "[IPV6]:PORT",
 * numeric only; port 0 asks the kernel for one.  Anything may connect, so
 * requests are bounded (headers, body, a timeout for idle or slow clients,
 * a deadline for a whole request however steadily its bytes trickle in),
 * connections are capped (a new one beyond the cap is closed at once) and
 * the listener pauses while the process is out of file descriptors.
 * Runs on the caller's loop and thread.
 */
#ifndef SCHEDULER_HTTP_H
#define SCHEDULER_HTTP_H

#include <sys/socket.h>

/* Where agx-scheduler serves its metrics unless told otherwise. */
#define METRICS_HTTP_DEFAULT_ADDRESS "unix:/run/agx/scheduler-metrics.sock"

/* "unix:" and a path of up to 107 bytes, or "[" an IPv6 address "]:65535" */
#define METRICS_HTTP_ADDRESS_MAX 128

/* Connections served at once; one more is closed as soon as it is accepted. */
#define METRICS_HTTP_MAX_CONNECTIONS 64
/* A request must arrive whole this long after its connection opened or its last answer. */
#define METRICS_HTTP_REQUEST_DEADLINE_MS 10000

struct evbuffer;
struct event_base;
struct metrics_http;

/* Writes one scrape's body; 0, or a negative errno to answer 500 instead. */
typedef int (*metrics_write_fn)(struct evbuffer *out, void *data);

/*
 * Listens on address and serves.  A unix socket file that nothing listens
 * on any more is replaced; a live one, or a file that is not a socket, is
 * -EADDRINUSE.  -EINVAL for an address that does not parse.
 */
int metrics_http_create(struct event_base *base, const char *address, metrics_write_fn fn,
			void *data, struct metrics_http **out);
/*
 * Serves on fd, a listening SOCK_STREAM socket (one from the service
 * manager): taken over and closed by destroy, also when this fails;
 * -ENOTSOCK / -EINVAL when it is not one.  Its file is not unlinked.
 */
int metrics_http_create_fd(struct event_base *base, int fd, metrics_write_fn fn, void *data,
			   struct metrics_http **out);
/* Stops serving; unlinks the socket file create made. */
void metrics_http_destroy(struct metrics_http *h);

/*
 * Changes the cap on connections and the request deadline (0: the
 * defaults above); before the loop runs, or on its thread.
 */
void metrics_http_set_limits(struct metrics_http *h, unsigned max_connections,
			     unsigned deadline_ms);

/* The address served, in the form above, with the real port when 0 was asked. */
const char *metrics_http_address(const struct metrics_http *h);

/*
 * Reads an address in the form above into addr (clients use it too):
 * 0, -EINVAL, or -ENAMETOOLONG for a socket path that does not fit.
 */
int metrics_address_parse(const char *address, struct sockaddr_storage *addr, socklen_t *len);

#endif
