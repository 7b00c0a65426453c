/*
 * The message table: every message type of every interface, once.
 *
 * A type id names an operation.  A request carries the request body; its
 * reply carries the same id with AGX_IPC_FLAG_REPLY and the reply body, or
 * AGX_IPC_FLAG_ERROR and an agx.ipc.Error.  An event is sent unasked by a
 * server and carries its body with AGX_IPC_FLAG_EVENT.
 *
 * The high byte of an id is its family, equal to the agx.ipc.Interface value
 * of the socket that serves it; family 0 (common) is served everywhere.
 * Add a message by adding a row here and its body to the .proto file; see
 * docs/ipc.md.
 */
#ifndef AGXIPC_MESSAGES_H
#define AGXIPC_MESSAGES_H

#include <stdint.h>

#include <protobuf-c/protobuf-c.h>

#include "common.pb-c.h"
#include "device.pb-c.h"
#include "fwchan.pb-c.h"
#include "memmgr.pb-c.h"
#include "scheduler.pb-c.h"
#include "work.pb-c.h"

/* Fd count of a row: an exact number, or any number up to AGX_IPC_MAX_FDS. */
#define AGX_IPC_FDS_ANY (-1)

#define AGX_IPC_PB(name) (&agx__##name##__descriptor)

/*
 * X(id, NAME, kind, request body, reply body, request fds, reply fds)
 * kind is REQUEST or EVENT; an event has no reply body and no reply fds.
 */
#define AGX_IPC_MESSAGES(X)                                                                        \
	/* an error reply about the connection, not about one request (request id 0) */            \
	X(0x0000, CONNECTION, REQUEST, NULL, NULL, 0, 0)                                           \
	/* common: every interface */                                                              \
	X(0x0001, HELLO, REQUEST, AGX_IPC_PB(ipc__hello), AGX_IPC_PB(ipc__hello_reply), 0, 0)      \
	X(0x0002, PING, REQUEST, AGX_IPC_PB(ipc__ping), AGX_IPC_PB(ipc__ping_reply),               \
	  AGX_IPC_FDS_ANY, AGX_IPC_FDS_ANY)                                                        \
	/* agx-memmgr, client socket */                                                            \
	X(0x0101, MEMMGR_BO_CREATE, REQUEST, AGX_IPC_PB(memmgr__bo_create),                        \
	  AGX_IPC_PB(memmgr__bo_create_reply), 0, 1)                                               \
	X(0x0102, MEMMGR_BO_CLOSE, REQUEST, AGX_IPC_PB(memmgr__bo_close), AGX_IPC_PB(ipc__empty),  \
	  0, 0)                                                                                    \
	X(0x0103, MEMMGR_BO_EXPORT, REQUEST, AGX_IPC_PB(memmgr__bo_export),                        \
	  AGX_IPC_PB(memmgr__bo_export_reply), 0, 0)                                               \
	X(0x0104, MEMMGR_BO_IMPORT, REQUEST, AGX_IPC_PB(memmgr__bo_import),                        \
	  AGX_IPC_PB(memmgr__bo_import_reply), 0, 1)                                               \
	X(0x0105, MEMMGR_VM_CREATE, REQUEST, AGX_IPC_PB(memmgr__vm_create),                        \
	  AGX_IPC_PB(memmgr__vm_create_reply), 0, 0)                                               \
	X(0x0106, MEMMGR_VM_DESTROY, REQUEST, AGX_IPC_PB(memmgr__vm_destroy),                      \
	  AGX_IPC_PB(ipc__empty), 0, 0)                                                            \
	X(0x0107, MEMMGR_VM_BIND, REQUEST, AGX_IPC_PB(memmgr__vm_bind),                            \
	  AGX_IPC_PB(memmgr__vm_bind_reply), 0, 0)                                                 \
	X(0x0108, MEMMGR_VM_UNBIND, REQUEST, AGX_IPC_PB(memmgr__vm_unbind),                        \
	  AGX_IPC_PB(ipc__empty), 0, 0)                                                            \
	X(0x0109, MEMMGR_QUERY, REQUEST, AGX_IPC_PB(memmgr__query),                                \
	  AGX_IPC_PB(memmgr__query_reply), 0, 0)                                                   \
	X(0x010a, MEMMGR_BO_IMPORT_FD, REQUEST, AGX_IPC_PB(memmgr__bo_import_fd),                  \
	  AGX_IPC_PB(memmgr__bo_import_reply), 1, 1)                                               \
	/* agx-memmgr, privileged socket (fwchan, scheduler) */                                    \
	X(0x0201, MEMMGR_KERNEL_ALLOC, REQUEST, AGX_IPC_PB(memmgr__kernel_alloc),                  \
	  AGX_IPC_PB(memmgr__kernel_alloc_reply), 0, 1)                                            \
	X(0x0202, MEMMGR_KERNEL_FREE, REQUEST, AGX_IPC_PB(memmgr__kernel_free),                    \
	  AGX_IPC_PB(ipc__empty), 0, 0)                                                            \
	X(0x0203, MEMMGR_FAULT_DECODE, REQUEST, AGX_IPC_PB(memmgr__fault_decode),                  \
	  AGX_IPC_PB(memmgr__fault_decode_reply), 0, 0)                                            \
	X(0x0204, MEMMGR_VM_SLOT_BIND, REQUEST, AGX_IPC_PB(memmgr__vm_slot_bind),                  \
	  AGX_IPC_PB(memmgr__vm_slot_bind_reply), 0, 0)                                            \
	X(0x0205, MEMMGR_JOBS_COMPLETED, REQUEST, AGX_IPC_PB(memmgr__jobs_completed),              \
	  AGX_IPC_PB(ipc__empty), 0, 0)                                                            \
	X(0x0206, MEMMGR_UAT_INFO, REQUEST, AGX_IPC_PB(memmgr__uat_info),                          \
	  AGX_IPC_PB(memmgr__uat_info_reply), 0, 0)                                                \
	X(0x0207, MEMMGR_VM_CHECK, REQUEST, AGX_IPC_PB(memmgr__vm_check), AGX_IPC_PB(ipc__empty),  \
	  0, 0)                                                                                    \
	/* agx-scheduler, client socket */                                                         \
	X(0x0301, SCHED_QUEUE_CREATE, REQUEST, AGX_IPC_PB(scheduler__queue_create),                \
	  AGX_IPC_PB(scheduler__queue_create_reply), 0, 0)                                         \
	X(0x0302, SCHED_QUEUE_DESTROY, REQUEST, AGX_IPC_PB(scheduler__queue_destroy),              \
	  AGX_IPC_PB(ipc__empty), 0, 0)                                                            \
	X(0x0303, SCHED_SYNCOBJ_CREATE, REQUEST, AGX_IPC_PB(scheduler__syncobj_create),            \
	  AGX_IPC_PB(scheduler__syncobj_create_reply), 0, 0)                                       \
	X(0x0304, SCHED_SYNCOBJ_DESTROY, REQUEST, AGX_IPC_PB(scheduler__syncobj_destroy),          \
	  AGX_IPC_PB(ipc__empty), 0, 0)                                                            \
	X(0x0305, SCHED_SUBMIT, REQUEST, AGX_IPC_PB(scheduler__submit),                            \
	  AGX_IPC_PB(scheduler__submit_reply), 0, 0)                                               \
	X(0x0306, SCHED_SYNCOBJ_WAIT, REQUEST, AGX_IPC_PB(scheduler__syncobj_wait),                \
	  AGX_IPC_PB(scheduler__syncobj_wait_reply), 0, 0)                                         \
	X(0x0307, SCHED_SYNCOBJ_EXPORT, REQUEST, AGX_IPC_PB(scheduler__syncobj_export),            \
	  AGX_IPC_PB(ipc__empty), 0, 1)                                                            \
	X(0x0308, SCHED_SYNCOBJ_IMPORT, REQUEST, AGX_IPC_PB(scheduler__syncobj_import),            \
	  AGX_IPC_PB(ipc__empty), 1, 0)                                                            \
	X(0x0309, SCHED_QUERY_STATUS, REQUEST, AGX_IPC_PB(scheduler__query_status),                \
	  AGX_IPC_PB(scheduler__query_status_reply), 0, 0)                                         \
	X(0x030a, SCHED_FENCE_PAGE, REQUEST, AGX_IPC_PB(scheduler__fence_page),                    \
	  AGX_IPC_PB(scheduler__fence_page_reply), 0, 2)                                           \
	X(0x0381, SCHED_TVB_GROW, EVENT, AGX_IPC_PB(scheduler__tvb_grow_event), NULL, 0, 0)        \
	/* agx-fwchan (scheduler and memmgr are its clients) */                                    \
	X(0x0401, FWCHAN_CONTEXT_CREATE, REQUEST, AGX_IPC_PB(fwchan__context_create),              \
	  AGX_IPC_PB(fwchan__context_create_reply), 0, 0)                                          \
	X(0x0402, FWCHAN_CONTEXT_DESTROY, REQUEST, AGX_IPC_PB(fwchan__context_destroy),            \
	  AGX_IPC_PB(ipc__empty), 0, 0)                                                            \
	X(0x0403, FWCHAN_SUBMIT, REQUEST, AGX_IPC_PB(fwchan__submit), AGX_IPC_PB(ipc__empty), 0,   \
	  0)                                                                                       \
	X(0x0404, FWCHAN_TLB_INVALIDATE, REQUEST, AGX_IPC_PB(fwchan__tlb_invalidate),              \
	  AGX_IPC_PB(ipc__empty), 0, 0)                                                            \
	X(0x0405, FWCHAN_CACHE_FLUSH, REQUEST, AGX_IPC_PB(fwchan__cache_flush),                    \
	  AGX_IPC_PB(ipc__empty), 0, 0)                                                            \
	X(0x0481, FWCHAN_COMPLETION, EVENT, AGX_IPC_PB(fwchan__completion_event), NULL, 0, 0)      \
	X(0x0482, FWCHAN_FAULT, EVENT, AGX_IPC_PB(fwchan__fault_event), NULL, 0, 0)                \
	X(0x0483, FWCHAN_DEVICE_LOST, EVENT, AGX_IPC_PB(fwchan__device_lost_event), NULL, 0, 0)    \
	X(0x0484, FWCHAN_TVB_GROW, EVENT, AGX_IPC_PB(fwchan__tvb_grow_event), NULL, 0, 0)          \
	X(0x0485, FWCHAN_DEVICE_READY, EVENT, AGX_IPC_PB(fwchan__device_ready_event), NULL, 0, 0)  \
	/* device setup socket (agx-sim) */                                                        \
	X(0x0501, DEVICE_ATTACH, REQUEST, AGX_IPC_PB(device__attach),                              \
	  AGX_IPC_PB(device__attach_reply), 0, 3)                                                  \
	X(0x0502, DEVICE_INFO, REQUEST, AGX_IPC_PB(device__info), AGX_IPC_PB(device__info_reply),  \
	  0, 0)                                                                                    \
	X(0x0503, DEVICE_DMA_MAP, REQUEST, AGX_IPC_PB(device__dma_map), AGX_IPC_PB(ipc__empty), 1, \
	  0)                                                                                       \
	X(0x0504, DEVICE_DMA_UNMAP, REQUEST, AGX_IPC_PB(device__dma_unmap),                        \
	  AGX_IPC_PB(ipc__empty), 0, 0)                                                            \
	X(0x0505, DEVICE_RESET, REQUEST, AGX_IPC_PB(device__reset), AGX_IPC_PB(ipc__empty), 0, 0)  \
	X(0x0506, DEVICE_INJECT_FAULT, REQUEST, AGX_IPC_PB(device__inject_fault),                  \
	  AGX_IPC_PB(ipc__empty), 0, 0)

enum agx_ipc_msg_type {
#define AGX_IPC_ENUM(id, name, kind, req, rep, rfds, pfds) AGX_IPC_MSG_##name = id,
	AGX_IPC_MESSAGES(AGX_IPC_ENUM)
#undef AGX_IPC_ENUM
};

enum agx_ipc_msg_kind {
	AGX_IPC_KIND_REQUEST,
	AGX_IPC_KIND_EVENT,
};

struct agx_ipc_msg_info {
	uint16_t type;
	const char *name;
	enum agx_ipc_msg_kind kind;
	/* body of the request (or of the event) */
	const ProtobufCMessageDescriptor *request;
	/* body of the reply; NULL for events */
	const ProtobufCMessageDescriptor *reply;
	int request_fds;
	int reply_fds;
};

/* The row for a type id, or NULL when the id names no message. */
const struct agx_ipc_msg_info *agx_ipc_msg_info(uint16_t type);

/* Every row, for tests and tools: *count receives the number of rows. */
const struct agx_ipc_msg_info *agx_ipc_msg_table(unsigned *count);

/* The family of a type id: the agx.ipc.Interface that serves it (0: all). */
static inline unsigned agx_ipc_msg_family(uint16_t type)
{
	return type >> 8;
}

#endif
