/* harness.c: see harness.h. */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include <event2/event.h>
#include <event2/thread.h>

#include "agxipc/daemon.h"
#include "harness.h"

static int on_connect(struct agx_ipc_conn *conn, void *data)
{
	struct harness *h = data;
	int ret = 0;

	if (h->inner->connect)
		ret = h->inner->connect(conn, h->inner_data);
	if (ret == 0)
		atomic_fetch_add(&h->connects, 1);
	return ret;
}

static int on_dispatch(struct agx_ipc_request *req, void *data)
{
	struct harness *h = data;

	return h->inner->dispatch(req, h->inner_data);
}

static void on_disconnect(struct agx_ipc_conn *conn, void *data)
{
	struct harness *h = data;

	if (h->inner->disconnect)
		h->inner->disconnect(conn, h->inner_data);
	atomic_fetch_add(&h->disconnects, 1);
}

static void *loop(void *arg)
{
	struct harness *h = arg;

	event_base_loop(h->base, EVLOOP_NO_EXIT_ON_EMPTY);
	return NULL;
}

void harness_start(struct harness *h, int interface, const struct agx_ipc_server_ops *ops,
		   void *data, unsigned max_connections, size_t max_queued)
{
	struct sockaddr_un addr = { .sun_family = AF_UNIX };
	int fd;

	memset(h, 0, sizeof(*h));
	evthread_use_pthreads();
	snprintf(h->dir, sizeof(h->dir), "/tmp/agx-test-XXXXXX");
	if (!mkdtemp(h->dir))
		abort();
	snprintf(h->path, sizeof(h->path), "%s/sock", h->dir);
	strcpy(addr.sun_path, h->path);
	fd = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0);
	if (fd < 0 || bind(fd, (struct sockaddr *)&addr, sizeof(addr)) < 0 || listen(fd, 256) < 0)
		abort();

	h->inner = ops;
	h->inner_data = data;
	h->ops.connect = on_connect;
	h->ops.dispatch = on_dispatch;
	h->ops.disconnect = on_disconnect;
	h->config.interface = interface;
	h->config.name = "test-server";
	h->config.ops = &h->ops;
	h->config.data = h;
	h->config.max_connections = max_connections;
	h->config.max_queued_bytes = max_queued;
	h->base = event_base_new();
	h->server = agx_ipc_server_create(h->base, fd, &h->config);
	if (!h->base || !h->server)
		abort();
	pthread_create(&h->thread, NULL, loop, h);
}

void harness_stop(struct harness *h)
{
	event_base_loopbreak(h->base);
	pthread_join(h->thread, NULL);
	agx_ipc_server_destroy(h->server);
	event_base_free(h->base);
	unlink(h->path);
	rmdir(h->dir);
}

bool harness_wait_disconnects(struct harness *h, unsigned count)
{
	for (int i = 0; i < 10000; i++) {
		if (atomic_load(&h->disconnects) >= count)
			return true;
		usleep(1000);
	}
	return false;
}

unsigned count_open_fds(void)
{
	DIR *d = opendir("/proc/self/fd");
	unsigned n = 0;

	while (readdir(d))
		n++;
	closedir(d);
	return n;
}

int raw_connect(const char *path)
{
	struct sockaddr_un addr = { .sun_family = AF_UNIX };
	int fd = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0);

	strcpy(addr.sun_path, path);
	if (fd < 0 || connect(fd, (struct sockaddr *)&addr, sizeof(addr)) < 0)
		abort();
	return fd;
}

static void drain(int fd)
{
	uint8_t buf[512];

	while (recv(fd, buf, sizeof(buf), MSG_DONTWAIT) > 0)
		;
}

void fuzz_session(int fd, int interface, bool hello, const uint8_t *data, size_t size,
		  void (*pump)(void))
{
	size_t pos = 0;

	if (hello) {
		Agx__Ipc__Hello h = AGX__IPC__HELLO__INIT;

		h.version_major = AGX_IPC_VERSION_MAJOR;
		h.interface = interface;
		h.client_name = "fuzz";
		agx_ipc_send(fd, AGX_IPC_MSG_HELLO, 0, 1, &h.base, NULL, 0);
		pump();
		drain(fd);
	}
	while (pos + 2 <= size) {
		size_t len = data[pos] | (size_t)data[pos + 1] << 8;

		pos += 2;
		if (len > size - pos)
			len = size - pos;
		send(fd, data + pos, len, MSG_DONTWAIT | MSG_NOSIGNAL);
		pos += len;
		pump();
		drain(fd);
	}
}

void seed_start(struct seed_session *s, uint8_t flags)
{
	s->data[0] = flags;
	s->length = 1;
	s->next_id = 10;
}

void seed_add(struct seed_session *s, uint16_t type, const ProtobufCMessage *body)
{
	ssize_t n = agx_ipc_encode(s->data + s->length + 2, sizeof(s->data) - s->length - 2, type,
				   0, s->next_id++, body, 0);

	if (n < 0) {
		fprintf(stderr, "seed_add: cannot encode type 0x%04x\n", type);
		exit(1);
	}
	s->data[s->length] = (uint8_t)n;
	s->data[s->length + 1] = (uint8_t)(n >> 8);
	s->length += 2 + (size_t)n;
}

void seed_save(const struct seed_session *s, const char *dir, const char *name)
{
	char path[4096];
	FILE *out;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	out = fopen(path, "wb");
	if (!out || fwrite(s->data, 1, s->length, out) != s->length) {
		perror(path);
		exit(1);
	}
	fclose(out);
}
