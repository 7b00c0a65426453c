/*
 * memmgr.h: agx-memmgr's state, apart from the sockets that reach it:
 * clients, buffer objects, VMs with their page tables, the context table
 * and its slots, and the deferred release of memory the GPU may still
 * use.  server.c turns requests into these calls; tests call them
 * directly with a stand-in device.  docs/memmgr.md is the contract.
 */
#ifndef MEMMGR_MEMMGR_H
#define MEMMGR_MEMMGR_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "device.h"
#include "pagetable.h"
#include "phys.h"

#define MEMMGR_SLOTS	   64 /* contexts in the context table */
#define MEMMGR_KERNEL_SLOT 0  /* the firmware's context: its high half is the kernel VM */
#define MEMMGR_TOKEN_BYTES 32
#define MEMMGR_MAX_EXTENTS 16 /* device-physical pieces of one BO */
#define MEMMGR_MAX_BO_SIZE (1ull << 36)

/* The user half of a VM, and where allocated VAs go in the kernel VM. */
#define MEMMGR_USER_VA_START   0x4000ull /* the null page stays unmapped */
#define MEMMGR_USER_VA_END     (1ull << 39)
#define MEMMGR_KERNEL_VA_START 0xffffffa000000000ull /* where Asahi puts the firmware's */
#define MEMMGR_KERNEL_VA_END   0xfffffffffffff000ull

enum memmgr_bo_flags {
	MEMMGR_BO_WRITEBACK = 1,
	MEMMGR_BO_UNCACHED = 2,
	MEMMGR_BO_VM_PRIVATE = 4,
	MEMMGR_BO_CONTIGUOUS = 8, /* kernel allocations: one device-physical range */
};

struct memmgr;
struct memmgr_client;

/*
 * TLB invalidation: the firmware forgets translations of a context (a
 * range, or size 0: all of it); done(cookie, status) runs when it has.
 * Returns 0 when the request went out (done will run), or a negative
 * errno; without a firmware channel it may call done at once.
 */
struct memmgr_tlb_ops {
	int (*invalidate)(void *ctx, unsigned slot, uint64_t va, uint64_t size,
			  void (*done)(void *cookie, int status), void *cookie);
};

struct memmgr_config {
	uint64_t client_quota; /* bytes of BOs a process may hold; 0: three quarters of memory */
	uint64_t reserved;     /* device-physical bytes at 0 not handed out (firmware's own) */
};

struct memmgr *memmgr_create(struct memmgr_device *dev, const struct memmgr_tlb_ops *tlb,
			     void *tlb_ctx, const struct memmgr_config *config);
/* Releases everything at once: for shutdown, when no job can be running. */
void memmgr_destroy(struct memmgr *m);
/*
 * Work that can wait until the replies are out: closes freed BOs' memfds
 * and makes fresh ones for the next BOs.  The server runs it after each
 * batch of requests; without it BOs only cost more.
 */
void memmgr_housekeep(struct memmgr *m);

/* A client: one connection.  Privileged clients own kernel allocations. */
struct memmgr_client *memmgr_client_new(struct memmgr *m, pid_t pid, uid_t uid, bool privileged);
/* The connection is gone: everything it held is released (deferred where the GPU may use it). */
void memmgr_client_gone(struct memmgr_client *c);

/* --- client requests: 0 or a negative errno; why says why in words --- */

#define MEMMGR_WHY 160

int memmgr_bo_create(struct memmgr_client *c, uint64_t size, unsigned flags, uint32_t vm,
		     uint32_t *handle, uint64_t *out_size, int *fd, char *why);
int memmgr_bo_close(struct memmgr_client *c, uint32_t handle, char *why);
int memmgr_bo_export(struct memmgr_client *c, uint32_t handle, uint8_t token[MEMMGR_TOKEN_BYTES],
		     char *why);
int memmgr_bo_import(struct memmgr_client *c, const uint8_t *token, size_t len, uint32_t *handle,
		     uint64_t *size, int *fd, char *why);
/*
 * A handle to the BO of memfd fd, which memmgr takes (closed unless it
 * becomes the BO's): a BO of memmgr's own when fd is its memfd, else a new
 * BO over the client's memfd, charged to it (docs/memmgr.md, BO_IMPORT_FD).
 */
int memmgr_bo_import_fd(struct memmgr_client *c, int fd, uint32_t *handle, uint64_t *size,
			int *out_fd, char *why);
int memmgr_vm_create(struct memmgr_client *c, uint32_t *vm, char *why);

/*
 * Requests that change page tables finish when the TLB has forgotten the
 * old translations: done(cookie, status) runs then (maybe before the call
 * returns).  The return value is 0 when done will run, or the error.
 */
typedef void (*memmgr_done_fn)(void *cookie, int status);

int memmgr_vm_destroy(struct memmgr_client *c, uint32_t vm, char *why, memmgr_done_fn done,
		      void *cookie);
int memmgr_vm_bind(struct memmgr_client *c, uint32_t vm, uint32_t handle, uint64_t bo_offset,
		   uint64_t size, uint64_t va, unsigned access, bool allocate_va, uint64_t *out_va,
		   char *why);
int memmgr_vm_unbind(struct memmgr_client *c, uint32_t vm, uint64_t va, uint64_t size, char *why,
		     memmgr_done_fn done, void *cookie);

struct memmgr_usage {
	uint64_t used, quota;
	uint64_t page_table_bytes; /* of the client's VMs */
};
void memmgr_query(struct memmgr_client *c, struct memmgr_usage *u);

/* --- privileged requests --- */

/*
 * Firmware memory: mapped in the kernel VM, and done runs when the device
 * has it (the firmware may use it as soon as the caller hears back).
 */
int memmgr_kernel_alloc(struct memmgr_client *c, uint64_t size, unsigned flags, uint32_t *handle,
			uint64_t *va, uint64_t *paddr, uint64_t *out_size, int *fd, char *why,
			memmgr_done_fn done, void *cookie);
int memmgr_kernel_free(struct memmgr_client *c, uint32_t handle, char *why, memmgr_done_fn done,
		       void *cookie);

struct memmgr_fault {
	pid_t client_pid;
	uint32_t vm;
	uint32_t bo; /* the VM owner's handle of the BO; 0: nothing mapped there */
	uint64_t bo_offset;
};
int memmgr_fault_decode(struct memmgr *m, unsigned slot, uint64_t va, struct memmgr_fault *f,
			char *why);

/*
 * A submission of job seqno on the VM of client pid: the VM gets a slot
 * (kept, free, or the least recently used idle one's) and done runs when
 * the slot's old translations are gone and the device has every page
 * handed out so far; *slot and *ttbr say where it is.  done's status is
 * -ENODEV if the device ever refused memory.
 */
int memmgr_vm_slot_bind(struct memmgr *m, pid_t pid, uint32_t vm, uint64_t seqno, unsigned *slot,
			uint64_t *ttbr, char *why, memmgr_done_fn done, void *cookie);
/* Every job on the VM up to seqno has completed. */
int memmgr_jobs_completed(struct memmgr *m, pid_t pid, uint32_t vm, uint64_t seqno, char *why);

/*
 * Whether [va, va + size) is mapped, all of it, in the VM holding a user
 * slot, with at least access (PT_READ, PT_WRITE, PT_EXECUTE): 0, -ENOENT
 * (a hole, or no VM there) or -EPERM.
 */
int memmgr_vm_check(struct memmgr *m, unsigned slot, uint64_t va, uint64_t size, unsigned access,
		    char *why);

/* What the firmware channel needs: the context table's device-physical address. */
uint64_t memmgr_context_table(const struct memmgr *m);
/* done runs when the device has caught up with every DMA request so far. */
int memmgr_fence(struct memmgr *m, memmgr_done_fn done, void *cookie);

/* --- for tests and benchmarks --- */

struct memmgr_stats {
	uint64_t phys_used, phys_total;
	uint64_t table_pages;
	unsigned bos, vms, pending_releases;
};
void memmgr_stats(const struct memmgr *m, struct memmgr_stats *s);
/* The L1 table of a VM's user half, or 0. */
uint64_t memmgr_vm_l1(const struct memmgr *m, uint32_t vm);

#endif
