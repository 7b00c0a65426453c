/*
 * fuzz-decode: agx_ipc_decode() on untrusted bytes, with 0..5 real fds
 * attached.  Whatever the input, decoding must not crash or read past the
 * frame, every fd must end up closed (by the decoder when it rejects, by
 * agx_ipc_msg_finish() otherwise), and a decoded message must encode and
 * decode again.
 *
 * Input: [fd count byte] [frame bytes...]
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include "agxipc/ipc.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static uint8_t again[AGX_IPC_MAX_FRAME];
	int fds[AGX_IPC_MAX_FDS + 1], copy[AGX_IPC_MAX_FDS + 1];
	struct agx_ipc_error err;
	struct agx_ipc_msg msg;
	unsigned num_fds;

	if (size < 1)
		return 0;
	num_fds = data[0] % (AGX_IPC_MAX_FDS + 2);
	for (unsigned i = 0; i < num_fds; i++)
		copy[i] = fds[i] = eventfd(0, EFD_CLOEXEC);

	/* the decoder sees an exact-size heap copy, so ASan catches overreads */
	uint8_t *frame = malloc(size - 1 ? size - 1 : 1);
	memcpy(frame, data + 1, size - 1);
	if (agx_ipc_decode(frame, size - 1, fds, num_fds, &msg, &err) == 0) {
		ssize_t n = agx_ipc_encode(again, sizeof(again), msg.type, msg.flags,
					   msg.request_id, msg.body, msg.num_fds);
		struct agx_ipc_msg msg2;
		int none[AGX_IPC_MAX_FDS];

		/* a decoded body re-encodes; only canonical varints can outgrow the frame */
		if (n == -EMSGSIZE) {
			agx_ipc_msg_finish(&msg);
			goto out;
		}
		if (n < 0)
			abort();
		for (unsigned i = 0; i < msg.num_fds; i++)
			none[i] = eventfd(0, EFD_CLOEXEC);
		if (agx_ipc_decode(again, (size_t)n, none, msg.num_fds, &msg2, NULL) != 0)
			abort();
		agx_ipc_msg_finish(&msg2);
		agx_ipc_msg_finish(&msg);
	} else if (err.code == 0 || !err.message[0]) {
		abort(); /* a rejection always says why */
	}
out:
	free(frame);
	for (unsigned i = 0; i < num_fds; i++)
		if (fcntl(copy[i], F_GETFD) != -1)
			abort(); /* leaked */
	return 0;
}
