/*
 * memory.c: the agx-memmgr client of agx/memory.h, on libagxipc's
 * blocking client.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "agx/memory.h"
#include "agxipc/client.h"

#define TIMEOUT_MS 10000

struct agx_memory {
	struct agx_ipc_client *client;
	char error[AGX_IPC_MAX_ERROR_MESSAGE + 64];
};

static int call_fds(struct agx_memory *mem, uint16_t type, const ProtobufCMessage *body,
		    const int *fds, unsigned num_fds, struct agx_ipc_msg *reply)
{
	struct agx_ipc_error err = { 0 };
	struct agx_ipc_msg local;
	int ret = agx_ipc_client_call(mem->client, type, body, fds, num_fds, reply ? reply : &local,
				      TIMEOUT_MS, &err);

	if (ret < 0)
		snprintf(mem->error, sizeof(mem->error), "%s: %s", agx_ipc_msg_info(type)->name,
			 err.code ? err.message : strerror(-ret));
	else if (!reply)
		agx_ipc_msg_finish(&local);
	return ret;
}

static int call(struct agx_memory *mem, uint16_t type, const ProtobufCMessage *body,
		struct agx_ipc_msg *reply)
{
	return call_fds(mem, type, body, NULL, 0, reply);
}

int agx_memory_connect(const char *socket, struct agx_memory **out)
{
	struct agx_memory *mem = calloc(1, sizeof(*mem));
	int ret;

	if (!mem)
		return -ENOMEM;
	if (!socket)
		socket = getenv("AGX_MEMMGR_SOCKET");
	if (!socket)
		socket = AGX_MEMMGR_SOCKET_DEFAULT;
	ret = agx_ipc_client_connect(socket, AGX__IPC__INTERFACE__INTERFACE_MEMMGR, "libagx",
				     TIMEOUT_MS, &mem->client, NULL);
	if (ret < 0) {
		free(mem);
		return ret;
	}
	*out = mem;
	return 0;
}

void agx_memory_disconnect(struct agx_memory *mem)
{
	if (!mem)
		return;
	agx_ipc_client_destroy(mem->client);
	free(mem);
}

const char *agx_memory_error(const struct agx_memory *mem)
{
	return mem->error;
}

/* Takes the reply's memfd and maps it: the BO as the caller sees it. */
static int map_bo(struct agx_memory *mem, struct agx_ipc_msg *reply, uint32_t handle, uint64_t size,
		  struct agx_bo *bo)
{
	int fd = agx_ipc_msg_take_fd(reply, 0);

	agx_ipc_msg_finish(reply);
	bo->handle = handle;
	bo->size = size;
	bo->fd = fd;
	bo->map =
	    fd >= 0 ? mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0) : MAP_FAILED;
	if (bo->map == MAP_FAILED) {
		int ret = fd >= 0 ? -errno : -EBADMSG;
		Agx__Memmgr__BoClose close_msg = AGX__MEMMGR__BO_CLOSE__INIT;

		snprintf(mem->error, sizeof(mem->error), "cannot map BO %u: %s", handle,
			 strerror(-ret));
		if (fd >= 0)
			close(fd);
		close_msg.handle = handle;
		call(mem, AGX_IPC_MSG_MEMMGR_BO_CLOSE, &close_msg.base, NULL);
		memset(bo, 0, sizeof(*bo));
		bo->fd = -1;
		return ret;
	}
	return 0;
}

int agx_bo_create(struct agx_memory *mem, uint64_t size, unsigned flags, uint32_t vm,
		  struct agx_bo *bo)
{
	Agx__Memmgr__BoCreate m = AGX__MEMMGR__BO_CREATE__INIT;
	const Agx__Memmgr__BoCreateReply *r;
	struct agx_ipc_msg reply;
	int ret;

	m.size = size;
	m.flags = flags;
	m.vm = vm;
	ret = call(mem, AGX_IPC_MSG_MEMMGR_BO_CREATE, &m.base, &reply);
	if (ret < 0)
		return ret;
	r = (const void *)reply.body;
	return map_bo(mem, &reply, r->handle, r->size, bo);
}

int agx_bo_close(struct agx_memory *mem, struct agx_bo *bo)
{
	Agx__Memmgr__BoClose m = AGX__MEMMGR__BO_CLOSE__INIT;

	if (bo->map)
		munmap(bo->map, bo->size);
	if (bo->fd >= 0)
		close(bo->fd);
	m.handle = bo->handle;
	memset(bo, 0, sizeof(*bo));
	bo->fd = -1;
	return call(mem, AGX_IPC_MSG_MEMMGR_BO_CLOSE, &m.base, NULL);
}

int agx_bo_export(struct agx_memory *mem, const struct agx_bo *bo,
		  uint8_t token[AGX_MEMORY_TOKEN_BYTES])
{
	Agx__Memmgr__BoExport m = AGX__MEMMGR__BO_EXPORT__INIT;
	const Agx__Memmgr__BoExportReply *r;
	struct agx_ipc_msg reply;
	int ret;

	m.handle = bo->handle;
	ret = call(mem, AGX_IPC_MSG_MEMMGR_BO_EXPORT, &m.base, &reply);
	if (ret < 0)
		return ret;
	r = (const void *)reply.body;
	if (r->token.len != AGX_MEMORY_TOKEN_BYTES)
		ret = -EBADMSG;
	else
		memcpy(token, r->token.data, AGX_MEMORY_TOKEN_BYTES);
	agx_ipc_msg_finish(&reply);
	return ret;
}

int agx_bo_import(struct agx_memory *mem, const uint8_t token[AGX_MEMORY_TOKEN_BYTES],
		  struct agx_bo *bo)
{
	Agx__Memmgr__BoImport m = AGX__MEMMGR__BO_IMPORT__INIT;
	const Agx__Memmgr__BoImportReply *r;
	struct agx_ipc_msg reply;
	int ret;

	m.token.data = (uint8_t *)token;
	m.token.len = AGX_MEMORY_TOKEN_BYTES;
	ret = call(mem, AGX_IPC_MSG_MEMMGR_BO_IMPORT, &m.base, &reply);
	if (ret < 0)
		return ret;
	r = (const void *)reply.body;
	return map_bo(mem, &reply, r->handle, r->size, bo);
}

int agx_bo_import_fd(struct agx_memory *mem, int fd, struct agx_bo *bo)
{
	Agx__Memmgr__BoImportFd m = AGX__MEMMGR__BO_IMPORT_FD__INIT;
	const Agx__Memmgr__BoImportReply *r;
	struct agx_ipc_msg reply;
	int ret;

	if (fd < 0)
		return -EBADF;
	ret = call_fds(mem, AGX_IPC_MSG_MEMMGR_BO_IMPORT_FD, &m.base, &fd, 1, &reply);
	if (ret < 0)
		return ret;
	r = (const void *)reply.body;
	return map_bo(mem, &reply, r->handle, r->size, bo);
}

int agx_vm_create(struct agx_memory *mem, uint32_t *vm)
{
	Agx__Memmgr__VmCreate m = AGX__MEMMGR__VM_CREATE__INIT;
	struct agx_ipc_msg reply;
	int ret = call(mem, AGX_IPC_MSG_MEMMGR_VM_CREATE, &m.base, &reply);

	if (ret < 0)
		return ret;
	*vm = ((const Agx__Memmgr__VmCreateReply *)reply.body)->vm;
	agx_ipc_msg_finish(&reply);
	return 0;
}

int agx_vm_destroy(struct agx_memory *mem, uint32_t vm)
{
	Agx__Memmgr__VmDestroy m = AGX__MEMMGR__VM_DESTROY__INIT;

	m.vm = vm;
	return call(mem, AGX_IPC_MSG_MEMMGR_VM_DESTROY, &m.base, NULL);
}

int agx_vm_bind(struct agx_memory *mem, uint32_t vm, const struct agx_bo *bo, uint64_t offset,
		uint64_t size, uint64_t va, unsigned flags, uint64_t *out_va)
{
	Agx__Memmgr__VmBind m = AGX__MEMMGR__VM_BIND__INIT;
	struct agx_ipc_msg reply;
	int ret;

	m.vm = vm;
	m.bo = bo->handle;
	m.bo_offset = offset;
	m.size = size;
	m.va = va;
	m.flags = flags;
	ret = call(mem, AGX_IPC_MSG_MEMMGR_VM_BIND, &m.base, &reply);
	if (ret < 0)
		return ret;
	if (out_va)
		*out_va = ((const Agx__Memmgr__VmBindReply *)reply.body)->va;
	agx_ipc_msg_finish(&reply);
	return 0;
}

int agx_vm_unbind(struct agx_memory *mem, uint32_t vm, uint64_t va, uint64_t size)
{
	Agx__Memmgr__VmUnbind m = AGX__MEMMGR__VM_UNBIND__INIT;

	m.vm = vm;
	m.va = va;
	m.size = size;
	return call(mem, AGX_IPC_MSG_MEMMGR_VM_UNBIND, &m.base, NULL);
}

int agx_memory_query(struct agx_memory *mem, struct agx_memory_usage *usage)
{
	Agx__Memmgr__Query m = AGX__MEMMGR__QUERY__INIT;
	const Agx__Memmgr__QueryReply *r;
	struct agx_ipc_msg reply;
	int ret = call(mem, AGX_IPC_MSG_MEMMGR_QUERY, &m.base, &reply);

	if (ret < 0)
		return ret;
	r = (const void *)reply.body;
	*usage = (struct agx_memory_usage){
		.used = r->used_bytes,
		.quota = r->quota_bytes,
		.va_start = r->user_va_start,
		.va_end = r->user_va_end,
		.page_size = r->page_size,
		.page_table_bytes = r->page_table_bytes,
		.chip_id = r->chip_id,
		.generation = r->generation,
		.num_cores = r->num_cores,
		.job_time_limit_ms = r->job_time_limit_ms,
		.fill_bytes_per_ms = r->fill_bytes_per_ms,
	};
	snprintf(usage->firmware_version, sizeof(usage->firmware_version), "%s",
		 r->firmware_version ? r->firmware_version : "");
	agx_ipc_msg_finish(&reply);
	return 0;
}
