/*
 * make-seeds: writes seed inputs for the ipc fuzz targets into a directory:
 * one well-formed frame for every message of the table, in each direction
 * it travels (request, reply, error, event), filled by pbfill.
 *
 *   make-seeds decode DIR   inputs of fuzz-decode: [fd count] frame
 *   make-seeds server DIR   inputs of fuzz-server: [flags] ([u16 length] packet)...
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "agxipc/ipc.h"
#include "pbfill.h"

static unsigned written;

static void write_seed(const char *dir, const char *kind, const uint8_t *prefix, size_t plen,
		       const uint8_t *data, size_t len)
{
	char path[4096];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s-%04u", dir, kind, written++);
	f = fopen(path, "wb");
	if (!f) {
		perror(path);
		exit(1);
	}
	fwrite(prefix, 1, plen, f);
	fwrite(data, 1, len, f);
	fclose(f);
}

static void emit(const char *mode, const char *dir, uint16_t type, uint16_t flags,
		 const ProtobufCMessageDescriptor *desc, int fds, unsigned seed)
{
	uint8_t *buf = malloc(AGX_IPC_MAX_FRAME);
	ProtobufCMessage *body = pbfill_new(desc, seed);
	unsigned num_fds = fds == AGX_IPC_FDS_ANY ? 1 : (unsigned)fds;
	ssize_t n = agx_ipc_encode(buf, AGX_IPC_MAX_FRAME, type, flags,
				   flags & AGX_IPC_FLAG_EVENT ? 0 : seed + 1, body, num_fds);

	if (n < 0) {
		fprintf(stderr, "make-seeds: cannot encode type 0x%04x\n", type);
		exit(1);
	}
	if (!strcmp(mode, "decode")) {
		uint8_t prefix = (uint8_t)num_fds;

		write_seed(dir, "frame", &prefix, 1, buf, (size_t)n);
	} else if (flags == 0 && num_fds == 0) {
		/* the server target: after a valid handshake (flag bit 0), one request */
		uint8_t prefix[3] = { 1, (uint8_t)n, (uint8_t)(n >> 8) };

		write_seed(dir, "session", prefix, sizeof(prefix), buf, (size_t)n);
	}
	protobuf_c_message_free_unpacked(body, NULL);
	free(buf);
}

int main(int argc, char **argv)
{
	const struct agx_ipc_msg_info *t;
	unsigned n;

	if (argc != 3 || (strcmp(argv[1], "decode") && strcmp(argv[1], "server"))) {
		fprintf(stderr, "usage: %s decode|server DIR\n", argv[0]);
		return 2;
	}
	t = agx_ipc_msg_table(&n);
	for (unsigned i = 0; i < n; i++) {
		if (t[i].kind == AGX_IPC_KIND_EVENT) {
			emit(argv[1], argv[2], t[i].type, AGX_IPC_FLAG_EVENT, t[i].request,
			     t[i].request_fds, i);
			continue;
		}
		if (t[i].request)
			emit(argv[1], argv[2], t[i].type, 0, t[i].request, t[i].request_fds, i);
		if (t[i].reply)
			emit(argv[1], argv[2], t[i].type, AGX_IPC_FLAG_REPLY, t[i].reply,
			     t[i].reply_fds, i);
		emit(argv[1], argv[2], t[i].type, AGX_IPC_FLAG_REPLY | AGX_IPC_FLAG_ERROR,
		     &agx__ipc__error__descriptor, 0, i);
	}
	return 0;
}
