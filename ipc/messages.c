/* messages.c: the message table of messages.h, as data. */
#include "agxipc/ipc.h"

static const struct agx_ipc_msg_info table[] = {
#define AGX_IPC_ROW(id, nm, kd, req, rep, rfds, pfds)                                              \
	{ .type = id,                                                                              \
	  .name = #nm,                                                                             \
	  .kind = AGX_IPC_KIND_##kd,                                                               \
	  .request = req,                                                                          \
	  .reply = rep,                                                                            \
	  .request_fds = rfds,                                                                     \
	  .reply_fds = pfds },
	AGX_IPC_MESSAGES(AGX_IPC_ROW)
#undef AGX_IPC_ROW
};

#define TABLE_SIZE (sizeof(table) / sizeof(table[0]))

/* The rows are sorted by id (a test checks it), so a binary search finds one. */
const struct agx_ipc_msg_info *agx_ipc_msg_info(uint16_t type)
{
	size_t lo = 0, hi = TABLE_SIZE;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (table[mid].type == type)
			return &table[mid];
		if (table[mid].type < type)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

const struct agx_ipc_msg_info *agx_ipc_msg_table(unsigned *count)
{
	*count = TABLE_SIZE;
	return table;
}
