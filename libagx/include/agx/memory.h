/*
 * memory.h: libagx's client of agx-memmgr (docs/memmgr.md): buffer
 * objects mapped into the caller, GPU VMs and the bindings in them.  One
 * connection per struct agx_memory; calls on it are serialized by the
 * caller.  Every call returns 0 or a negative errno, and
 * agx_memory_error() says why in words.
 */
#ifndef AGX_MEMORY_H
#define AGX_MEMORY_H

#include <stdbool.h>
#include <stdint.h>

#define AGX_MEMORY_TOKEN_BYTES 32

/* The socket agx_memory_connect(NULL) uses: $AGX_MEMMGR_SOCKET, or this. */
#define AGX_MEMMGR_SOCKET_DEFAULT "/run/agx/memmgr.sock"

enum agx_bo_flags {
	AGX_BO_WRITEBACK = 1,
	AGX_BO_UNCACHED = 2,
	AGX_BO_VM_PRIVATE = 4, /* bound only in the VM named at creation; never exported */
};

enum agx_bind_flags {
	AGX_BIND_READ = 1,
	AGX_BIND_WRITE = 2,
	AGX_BIND_EXECUTE = 4,
	AGX_BIND_ALLOCATE_VA = 8, /* memmgr picks the address, with guard pages around */
};

struct agx_memory;

struct agx_bo {
	uint32_t handle;
	uint64_t size; /* whole 16 KiB pages */
	int fd;	       /* the BO's memfd */
	void *map;     /* the caller's shared mapping of all of it */
};

struct agx_memory_usage {
	uint64_t used, quota;
	uint64_t va_start, va_end; /* the user half of a VM */
	uint32_t page_size;
	uint64_t page_table_bytes; /* of this connection's VMs */
	/* the device: chip (0x8103 for M1), GPU generation (13: G13), cores */
	uint32_t chip_id, generation, num_cores;
	char firmware_version[64];
	uint32_t job_time_limit_ms; /* the device's (ipc/device.proto InfoReply) */
	uint64_t fill_bytes_per_ms;
};

int agx_memory_connect(const char *socket, struct agx_memory **out);
void agx_memory_disconnect(struct agx_memory *mem);
const char *agx_memory_error(const struct agx_memory *mem);

int agx_bo_create(struct agx_memory *mem, uint64_t size, unsigned flags, uint32_t vm,
		  struct agx_bo *bo);
/* Unmaps and closes the caller's view, and drops the handle. */
int agx_bo_close(struct agx_memory *mem, struct agx_bo *bo);
int agx_bo_export(struct agx_memory *mem, const struct agx_bo *bo,
		  uint8_t token[AGX_MEMORY_TOKEN_BYTES]);
int agx_bo_import(struct agx_memory *mem, const uint8_t token[AGX_MEMORY_TOKEN_BYTES],
		  struct agx_bo *bo);
/*
 * The BO of a memfd (a dma-buf import): the BO whose memfd it is, or a new
 * BO over it (memmgr seals it against resizing).  fd stays the caller's;
 * bo->fd is another fd of the same memory.
 */
int agx_bo_import_fd(struct agx_memory *mem, int fd, struct agx_bo *bo);

int agx_vm_create(struct agx_memory *mem, uint32_t *vm);
int agx_vm_destroy(struct agx_memory *mem, uint32_t vm);
/* size bytes of the BO from offset at va (or an address memmgr picks: *out_va). */
int agx_vm_bind(struct agx_memory *mem, uint32_t vm, const struct agx_bo *bo, uint64_t offset,
		uint64_t size, uint64_t va, unsigned flags, uint64_t *out_va);
int agx_vm_unbind(struct agx_memory *mem, uint32_t vm, uint64_t va, uint64_t size);
int agx_memory_query(struct agx_memory *mem, struct agx_memory_usage *usage);

#endif
