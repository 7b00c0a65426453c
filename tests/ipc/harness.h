/*
 * harness: a libagxipc server on its own thread and event loop, serving a
 * socket in a fresh temporary directory, for tests that play its clients.
 */
#ifndef TESTS_HARNESS_H
#define TESTS_HARNESS_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdatomic.h>

#include "agxipc/server.h"

struct harness {
	char dir[64];
	char path[108];
	pthread_t thread;
	struct event_base *base;
	struct agx_ipc_server *server;
	struct agx_ipc_server_config config;
	struct agx_ipc_server_ops ops;
	const struct agx_ipc_server_ops *inner;
	void *inner_data;
	atomic_uint connects, disconnects;
};

/* Starts serving interface with the given ops (their data is h->config.data). */
void harness_start(struct harness *h, int interface, const struct agx_ipc_server_ops *ops,
		   void *data, unsigned max_connections, size_t max_queued);
void harness_stop(struct harness *h);
/* Waits (bounded, 10 s) until the server has seen `count` disconnects. */
bool harness_wait_disconnects(struct harness *h, unsigned count);
/* Open file descriptors of this process. */
unsigned count_open_fds(void);
/* A client socket connected to path, without a handshake. */
int raw_connect(const char *path);

/*
 * A fuzz target's session on a connected non-blocking socket: a valid
 * HELLO for interface first if hello, then the input's packets, each
 * [u16 little-endian length] [bytes] (the last one cut to what is left);
 * pump() runs the server after each, and what it answers is dropped.
 */
void fuzz_session(int fd, int interface, bool hello, const uint8_t *data, size_t size,
		  void (*pump)(void));

/* A seed of fuzz_session's format being written: [flags] then packets. */
struct seed_session {
	uint8_t data[1 << 16];
	size_t length;
	uint32_t next_id;
};

void seed_start(struct seed_session *s, uint8_t flags);
/* One request frame; exits if it does not encode or fit. */
void seed_add(struct seed_session *s, uint16_t type, const ProtobufCMessage *body);
/* Writes it to dir/name; exits on failure. */
void seed_save(const struct seed_session *s, const char *dir, const char *name);

#endif
