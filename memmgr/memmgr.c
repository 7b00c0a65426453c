/*
 * memmgr.c: agx-memmgr's state (memmgr.h).  Single-threaded: the daemon's
 * event loop is the only caller.
 *
 * Lifetimes.  A BO is referenced by each handle naming it, each mapping
 * of it and each pending release holding it; at zero its pages go back to
 * the device and the allocator.  Unmapping moves a mapping's reference
 * into a release that waits for two things: the TLB invalidation of the
 * range (when the VM has a context slot) and the completion of every job
 * submitted on the VM before the unmap.  A destroyed VM's tables wait the
 * same way.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

#include "agx_uat.h"
#include "agxipc/log.h"
#include "memmgr.h"

struct bo {
	int fd;
	uint64_t size;
	unsigned flags;
	uint32_t private_vm;
	struct phys_extent ext[MEMMGR_MAX_EXTENTS];
	unsigned num_ext;
	unsigned refs;
	struct memmgr_client *charged; /* whose quota holds it; NULL once that client is gone */
	bool exported;
	uint8_t token[MEMMGR_TOKEN_BYTES];
	uint64_t kernel_va; /* a kernel allocation's address in the kernel VM */
	bool lent; /* DMA-mapped: done at the first bind, as only bound memory is reachable */
	/* the memfd's inode, found when an import by fd first asks (memmgr_bo_import_fd) */
	bool identified;
	dev_t st_dev;
	ino_t st_ino;
	struct bo *prev, *next;
};

struct mapping {
	uint64_t va, size;
	struct bo *bo;
	uint64_t bo_offset;
	unsigned access;
};

struct vm {
	uint32_t id;
	struct memmgr_client *owner; /* NULL once destroyed */
	pid_t pid;
	bool kernel;
	struct pt_space space;
	struct mapping *maps; /* sorted by va, none overlapping */
	unsigned num_maps, cap_maps;
	int slot;	   /* -1: none */
	unsigned releases; /* pending releases naming it */
	bool release_me;   /* destroyed: freed when the last release is done */
	uint64_t last_use;
	uint64_t submitted, completed; /* job seqnos */
	struct vm *prev, *next;
};

/* Memory waiting for the TLB and for jobs before it may be reused. */
struct release {
	struct memmgr *m;
	struct vm *vm;
	uint64_t seqno;
	bool tlb_pending;
	bool free_vm;
	struct bo **bos;
	unsigned num_bos;
	memmgr_done_fn done; /* the request waiting for the TLB */
	void *cookie;
	struct release *prev, *next;
};

/*
 * What all the connections of one process hold together: the quota is a
 * process's (its SO_PEERCRED pid), so that more connections do not buy
 * more memory.  Made with its first client, freed with its last.
 */
struct process {
	struct process *next;
	pid_t pid;
	unsigned clients;
	uint64_t used;
};

struct memmgr_client {
	struct memmgr *m;
	struct process *proc;
	pid_t pid;
	uid_t uid;
	bool privileged;
	struct bo **handles; /* handle h names handles[h - 1] */
	unsigned num_handles;
	uint64_t used;
};

#define SPARE_MEMFDS   4
#define CLOSING_MEMFDS 64

struct memmgr {
	struct memmgr_device *dev;
	const struct memmgr_tlb_ops *tlb;
	void *tlb_ctx;
	struct memmgr_config config;
	struct phys phys;
	struct pt_pool pool;
	uint64_t context_table;
	struct vm *slots[MEMMGR_SLOTS];
	struct vm *kernel;
	struct vm *vms;
	struct bo *bos;
	struct process *processes;
	struct release *releases;
	uint32_t next_vm;
	uint64_t clock;
	unsigned num_bos, num_vms, num_releases;
	/*
	 * Kept off the requests' path (memmgr_housekeep): fresh memfds for the
	 * next BOs, and freed BOs' memfds still to close.  Making and
	 * releasing a memfd are among the dearest system calls a BO costs.
	 */
	int spare[SPARE_MEMFDS], closing[CLOSING_MEMFDS];
	unsigned num_spare, num_closing;
};

#define LIST_ADD(head, item)                                                                       \
	do {                                                                                       \
		(item)->prev = NULL;                                                               \
		(item)->next = (head);                                                             \
		if (head)                                                                          \
			(head)->prev = (item);                                                     \
		(head) = (item);                                                                   \
	} while (0)

#define LIST_DEL(head, item)                                                                       \
	do {                                                                                       \
		if ((item)->prev)                                                                  \
			(item)->prev->next = (item)->next;                                         \
		else                                                                               \
			(head) = (item)->next;                                                     \
		if ((item)->next)                                                                  \
			(item)->next->prev = (item)->prev;                                         \
	} while (0)

static int fail(char *why, int err, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

static int fail(char *why, int err, const char *fmt, ...)
{
	va_list ap;

	if (why) {
		va_start(ap, fmt);
		vsnprintf(why, MEMMGR_WHY, fmt, ap);
		va_end(ap);
	}
	return err;
}

static bool aligned(uint64_t x)
{
	return x % MEMMGR_PAGE == 0;
}

/* --- buffer objects ----------------------------------------------------------------- */

static void bo_unref(struct memmgr *m, struct bo *bo)
{
	if (--bo->refs)
		return;
	for (unsigned i = 0; i < bo->num_ext; i++) {
		if (bo->lent)
			memmgr_dma_unmap(m->dev, bo->ext[i].paddr, bo->ext[i].size);
		phys_free(&m->phys, bo->ext[i]);
	}
	if (bo->charged) {
		bo->charged->used -= bo->size;
		bo->charged->proc->used -= bo->size;
	}
	if (m->num_closing < CLOSING_MEMFDS)
		m->closing[m->num_closing++] = bo->fd;
	else
		close(bo->fd);
	LIST_DEL(m->bos, bo);
	m->num_bos--;
	free(bo);
}

/*
 * Lends a BO's pieces to the device before the GPU can reach them.  Its
 * device-physical space was taken at creation, so creation fails, not
 * this, when memory runs out.
 */
static int bo_lend(struct memmgr *m, struct bo *bo, char *why)
{
	uint64_t offset = 0;
	int ret;

	if (bo->lent)
		return 0;
	for (unsigned i = 0; i < bo->num_ext; i++) {
		ret =
		    memmgr_dma_map(m->dev, bo->ext[i].paddr, bo->ext[i].size, bo->fd, offset, true);
		if (ret < 0) {
			for (unsigned j = 0; j < i; j++)
				memmgr_dma_unmap(m->dev, bo->ext[j].paddr, bo->ext[j].size);
			return fail(why, -EIO, "the device refused the memory (%s)",
				    strerror(-ret));
		}
		offset += bo->ext[i].size;
	}
	bo->lent = true;
	return 0;
}

/* The device-physical address of byte offset of a BO. */
static uint64_t bo_paddr(const struct bo *bo, uint64_t offset, uint64_t *run)
{
	for (unsigned i = 0; i < bo->num_ext; i++) {
		if (offset < bo->ext[i].size) {
			*run = bo->ext[i].size - offset;
			return bo->ext[i].paddr + offset;
		}
		offset -= bo->ext[i].size;
	}
	*run = 0;
	return 0;
}

/*
 * A BO of size bytes over memfd fd, which it owns from now on (closed on
 * failure too), or over a fresh memfd when fd is -1.
 */
static struct bo *bo_new_fd(struct memmgr *m, uint64_t size, unsigned flags, int fd, char *why,
			    int *err)
{
	struct bo *bo = calloc(1, sizeof(*bo));
	int ret;

	if (!bo) {
		if (fd >= 0)
			close(fd);
		*err = fail(why, -ENOMEM, "out of host memory");
		return NULL;
	}
	bo->fd = fd;
	bo->size = size;
	bo->flags = flags;
	ret = phys_alloc(&m->phys, size, bo->ext,
			 flags & MEMMGR_BO_CONTIGUOUS ? 1 : MEMMGR_MAX_EXTENTS, &bo->num_ext);
	if (ret < 0) {
		if (fd >= 0)
			close(fd);
		free(bo);
		*err = fail(why, -ENOMEM,
			    "device memory exhausted: %" PRIu64 " of %" PRIu64
			    " bytes in use, %" PRIu64 " asked",
			    m->phys.used, m->phys.total, size);
		return NULL;
	}
	/* a fresh memfd reads as zero: no client ever sees another's data */
	if (fd < 0) {
		bo->fd = m->num_spare ? m->spare[--m->num_spare]
				      : memfd_create("agx-bo", MFD_CLOEXEC | MFD_ALLOW_SEALING);
		if (bo->fd < 0 || ftruncate(bo->fd, (off_t)size) < 0 ||
		    fcntl(bo->fd, F_ADD_SEALS, F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_SEAL) < 0) {
			ret = fail(why, -errno, "memfd: %s", strerror(errno));
			goto fail;
		}
	}
	bo->refs = 0;
	LIST_ADD(m->bos, bo);
	m->num_bos++;
	return bo;
fail:
	for (unsigned i = 0; i < bo->num_ext; i++)
		phys_free(&m->phys, bo->ext[i]);
	if (bo->fd >= 0)
		close(bo->fd);
	free(bo);
	*err = ret;
	return NULL;
}

static int handle_add(struct memmgr_client *c, struct bo *bo, uint32_t *handle, char *why)
{
	unsigned i;

	for (i = 0; i < c->num_handles && c->handles[i]; i++)
		;
	if (i == c->num_handles) {
		unsigned n = c->num_handles ? 2 * c->num_handles : 16;
		struct bo **grown = realloc(c->handles, n * sizeof(*grown));

		if (!grown)
			return fail(why, -ENOMEM, "out of host memory");
		memset(grown + c->num_handles, 0, (n - c->num_handles) * sizeof(*grown));
		c->handles = grown;
		c->num_handles = n;
	}
	c->handles[i] = bo;
	bo->refs++;
	*handle = i + 1;
	return 0;
}

static struct bo *handle_get(struct memmgr_client *c, uint32_t handle)
{
	return handle && handle <= c->num_handles ? c->handles[handle - 1] : NULL;
}

/* --- VMs ------------------------------------------------------------------------------ */

static struct vm *vm_find(struct memmgr *m, uint32_t id)
{
	for (struct vm *vm = m->vms; vm; vm = vm->next)
		if (vm->id == id && vm->owner)
			return vm;
	return NULL;
}

static struct vm *vm_of(struct memmgr_client *c, uint32_t id)
{
	struct vm *vm = vm_find(c->m, id);

	return vm && vm->owner == c ? vm : NULL;
}

static struct vm *vm_new(struct memmgr *m, struct memmgr_client *owner, bool kernel)
{
	struct vm *vm = calloc(1, sizeof(*vm));

	if (!vm)
		return NULL;
	if (pt_space_init(&vm->space, &m->pool) < 0) {
		free(vm);
		return NULL;
	}
	vm->id = ++m->next_vm;
	vm->owner = owner;
	vm->pid = owner ? owner->pid : 0;
	vm->kernel = kernel;
	vm->slot = -1;
	LIST_ADD(m->vms, vm);
	m->num_vms++;
	return vm;
}

static void write_ttbr(struct memmgr *m, unsigned slot, unsigned half, uint64_t l1)
{
	struct agx_uat_ttbr t = { .valid = l1 != 0, .baddr = l1, .asid = slot };
	uint8_t *raw = pt_page_host(&m->pool, m->context_table) + 16 * slot + 8 * half;

	if (l1)
		agx_uat_ttbr_pack(raw, &t);
	else
		memset(raw, 0, 8);
}

static void vm_free(struct memmgr *m, struct vm *vm)
{
	if (vm->slot >= 0) {
		write_ttbr(m, (unsigned)vm->slot, vm->kernel, 0);
		m->slots[vm->slot] = NULL;
	}
	pt_space_fini(&vm->space);
	free(vm->maps);
	LIST_DEL(m->vms, vm);
	m->num_vms--;
	free(vm);
}

/* The first mapping that ends after va. */
static unsigned map_index(const struct vm *vm, uint64_t va)
{
	unsigned lo = 0, hi = vm->num_maps;

	while (lo < hi) {
		unsigned mid = (lo + hi) / 2;

		if (vm->maps[mid].va + vm->maps[mid].size <= va)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static int map_insert(struct vm *vm, const struct mapping *map)
{
	unsigned i = map_index(vm, map->va);

	if (vm->num_maps == vm->cap_maps) {
		unsigned n = vm->cap_maps ? 2 * vm->cap_maps : 16;
		struct mapping *grown = realloc(vm->maps, n * sizeof(*grown));

		if (!grown)
			return -ENOMEM;
		vm->maps = grown;
		vm->cap_maps = n;
	}
	memmove(&vm->maps[i + 1], &vm->maps[i], (vm->num_maps - i) * sizeof(*vm->maps));
	vm->maps[i] = *map;
	vm->num_maps++;
	return 0;
}

/* A free range of size bytes in [start, end) with a guard page on each side. */
static bool find_va(const struct vm *vm, uint64_t start, uint64_t end, uint64_t size, uint64_t *va)
{
	uint64_t at = start + MEMMGR_PAGE;

	for (unsigned i = 0; i <= vm->num_maps; i++) {
		uint64_t limit = i < vm->num_maps ? vm->maps[i].va : end;

		if (limit >= at && limit - at >= size + MEMMGR_PAGE) {
			*va = at;
			return true;
		}
		if (i < vm->num_maps && vm->maps[i].va + vm->maps[i].size + MEMMGR_PAGE > at)
			at = vm->maps[i].va + vm->maps[i].size + MEMMGR_PAGE;
	}
	return false;
}

static int map_range(struct memmgr *m, struct vm *vm, struct bo *bo, uint64_t bo_offset,
		     uint64_t size, uint64_t va, unsigned access, char *why)
{
	struct mapping map = { va, size, bo, bo_offset, access };
	uint64_t desc, done = 0;
	unsigned attr = bo->flags & MEMMGR_BO_UNCACHED ? 1 : 2; /* uat.hw: device, shared */
	int ret = pt_page_template(access, attr, &desc);

	if (ret < 0)
		return fail(why, ret, "access %#x is not one the UAT gives (R, RW, RX or X)",
			    access);
	ret = bo_lend(m, bo, why);
	if (ret < 0)
		return ret;
	while (done < size) {
		uint64_t run, pa = bo_paddr(bo, bo_offset + done, &run);

		if (run > size - done)
			run = size - done;
		ret = pt_map(&vm->space, va + done, pa, run / MEMMGR_PAGE, desc);
		if (ret < 0)
			break;
		done += run;
	}
	if (ret == 0)
		ret = map_insert(vm, &map);
	if (ret < 0) {
		pt_unmap(&vm->space, va, size / MEMMGR_PAGE);
		return fail(why, -ENOMEM, "out of memory for page tables");
	}
	bo->refs++;
	return 0;
}

/* --- releases ------------------------------------------------------------------------- */

static void release_try(struct release *r)
{
	struct memmgr *m = r->m;

	if (r->tlb_pending || r->vm->completed < r->seqno)
		return;
	for (unsigned i = 0; i < r->num_bos; i++)
		bo_unref(m, r->bos[i]);
	/* a destroyed VM goes with the last release that names it, whichever finishes last */
	r->vm->release_me |= r->free_vm;
	if (!--r->vm->releases && r->vm->release_me)
		vm_free(m, r->vm);
	LIST_DEL(m->releases, r);
	m->num_releases--;
	free(r->bos);
	free(r);
}

static void release_tlb_done(void *cookie, int status)
{
	struct release *r = cookie;
	memmgr_done_fn done = r->done;
	void *done_cookie = r->cookie;

	if (status < 0)
		agx_warn("TLB invalidation for VM %u failed (%s): the firmware channel is gone, "
			 "and with it every translation",
			 r->vm->id, strerror(-status));
	r->tlb_pending = false;
	r->done = NULL;
	release_try(r);
	if (done)
		done(done_cookie, 0);
}

static struct release *release_new(struct memmgr *m, struct vm *vm)
{
	struct release *r = calloc(1, sizeof(*r));

	if (!r)
		return NULL;
	r->m = m;
	r->vm = vm;
	r->seqno = vm->submitted;
	vm->releases++;
	LIST_ADD(m->releases, r);
	m->num_releases++;
	return r;
}

/*
 * Room for unmapping [va, va + size) before anything changes: a reference
 * slot in r for every mapping it touches, and one more mapping in the VM
 * (cutting a mapping in the middle leaves two).
 */
static int unmap_reserve(struct vm *vm, uint64_t va, uint64_t size, struct release *r)
{
	unsigned n = 0;
	struct bo **bos;

	for (unsigned i = map_index(vm, va); i < vm->num_maps && vm->maps[i].va < va + size; i++)
		n++;
	bos = realloc(r->bos, (r->num_bos + n + 1) * sizeof(*bos));
	if (!bos)
		return -ENOMEM;
	r->bos = bos;
	if (vm->num_maps == vm->cap_maps) {
		unsigned cap = vm->cap_maps ? 2 * vm->cap_maps : 16;
		struct mapping *grown = realloc(vm->maps, cap * sizeof(*grown));

		if (!grown)
			return -ENOMEM;
		vm->maps = grown;
		vm->cap_maps = cap;
	}
	return 0;
}

/*
 * Starts a release: the TLB of the VM's slot forgets [va, va + size) (size
 * 0: everything), then done runs; the held memory goes when jobs allow.
 */
static void release_start(struct release *r, uint64_t va, uint64_t size, memmgr_done_fn done,
			  void *cookie)
{
	struct memmgr *m = r->m;

	r->done = done;
	r->cookie = cookie;
	/* a VM without a slot has no translations cached: its slot was invalidated when lost */
	if (r->vm->slot >= 0 && m->tlb) {
		r->tlb_pending = true;
		if (m->tlb->invalidate(m->tlb_ctx, (unsigned)r->vm->slot, va, size,
				       release_tlb_done, r) == 0)
			return;
	}
	release_tlb_done(r, 0);
}

/*
 * Takes [va, va + size) out of a VM: descriptors cleared, mappings cut,
 * their BO references moved into r (after unmap_reserve).  Returns the
 * bytes that were mapped.
 */
static uint64_t unmap_range(struct vm *vm, uint64_t va, uint64_t size, struct release *r)
{
	uint64_t end = va + size, unmapped = 0;
	unsigned i = map_index(vm, va);

	while (i < vm->num_maps && vm->maps[i].va < end) {
		struct mapping m = vm->maps[i];
		uint64_t cut_lo = m.va > va ? m.va : va;
		uint64_t cut_hi = m.va + m.size < end ? m.va + m.size : end;

		pt_unmap(&vm->space, cut_lo, (cut_hi - cut_lo) / MEMMGR_PAGE);
		unmapped += cut_hi - cut_lo;
		memmove(&vm->maps[i], &vm->maps[i + 1], (vm->num_maps - i - 1) * sizeof(m));
		vm->num_maps--;
		/* what stays of it either side keeps its own reference */
		if (cut_lo > m.va) {
			struct mapping left = m;

			left.size = cut_lo - m.va;
			map_insert(vm, &left);
			m.bo->refs++;
			i++;
		}
		if (cut_hi < m.va + m.size) {
			struct mapping right = m;

			right.va = cut_hi;
			right.size = m.va + m.size - cut_hi;
			right.bo_offset = m.bo_offset + (cut_hi - m.va);
			map_insert(vm, &right);
			m.bo->refs++;
		}
		r->bos[r->num_bos++] = m.bo; /* unmap_reserve made room */
	}
	return unmapped;
}

/* --- the manager ---------------------------------------------------------------------- */

struct memmgr *memmgr_create(struct memmgr_device *dev, const struct memmgr_tlb_ops *tlb,
			     void *tlb_ctx, const struct memmgr_config *config)
{
	struct memmgr *m = calloc(1, sizeof(*m));
	uint64_t reserved = config ? config->reserved : 0;

	if (!m)
		return NULL;
	m->dev = dev;
	m->tlb = tlb;
	m->tlb_ctx = tlb_ctx;
	if (config)
		m->config = *config;
	/* device-physical 0 is never handed out: 0 means "none" in every table */
	reserved = (reserved + MEMMGR_PAGE - 1) & ~(MEMMGR_PAGE - 1);
	if (reserved < MEMMGR_PAGE)
		reserved = MEMMGR_PAGE;
	/* three quarters of the device by default: one process cannot take all of it */
	if (!m->config.client_quota)
		m->config.client_quota = dev->memory_size / 4 * 3;
	if (phys_init(&m->phys, reserved, dev->memory_size & ~(MEMMGR_PAGE - 1)) < 0) {
		free(m);
		return NULL;
	}
	pt_pool_init(&m->pool, dev, &m->phys);
	if (pt_page_alloc(&m->pool, &m->context_table) < 0)
		goto fail;
	m->kernel = vm_new(m, NULL, true);
	if (!m->kernel)
		goto fail;
	m->kernel->slot = MEMMGR_KERNEL_SLOT;
	m->slots[MEMMGR_KERNEL_SLOT] = m->kernel;
	write_ttbr(m, MEMMGR_KERNEL_SLOT, 1, m->kernel->space.l1);
	return m;
fail:
	pt_pool_fini(&m->pool);
	phys_fini(&m->phys);
	free(m);
	return NULL;
}

void memmgr_housekeep(struct memmgr *m)
{
	while (m->num_closing)
		close(m->closing[--m->num_closing]);
	while (m->num_spare < SPARE_MEMFDS) {
		int fd = memfd_create("agx-bo", MFD_CLOEXEC | MFD_ALLOW_SEALING);

		if (fd < 0)
			break; /* out of fds: creation makes its own, or says why it cannot */
		m->spare[m->num_spare++] = fd;
	}
}

void memmgr_destroy(struct memmgr *m)
{
	if (!m)
		return;
	/* everything goes: what releases hold is freed with the rest below */
	while (m->releases) {
		struct release *r = m->releases;

		m->releases = r->next;
		free(r->bos);
		free(r);
	}
	while (m->vms)
		vm_free(m, m->vms);
	while (m->bos) {
		m->bos->refs = 1;
		bo_unref(m, m->bos);
	}
	while (m->num_spare)
		close(m->spare[--m->num_spare]);
	while (m->num_closing)
		close(m->closing[--m->num_closing]);
	pt_pool_fini(&m->pool);
	phys_fini(&m->phys);
	free(m);
}

uint64_t memmgr_context_table(const struct memmgr *m)
{
	return m->context_table;
}

int memmgr_fence(struct memmgr *m, memmgr_done_fn done, void *cookie)
{
	return memmgr_device_fence(m->dev, done, cookie);
}

/* A request's done that waits, after what it waited for, for the device fence too. */
struct fenced {
	struct memmgr *m;
	memmgr_done_fn done;
	void *cookie;
};

static void fenced_device(void *cookie, int status)
{
	struct fenced *f = cookie;

	f->done(f->cookie, status);
	free(f);
}

static void fenced_start(void *cookie, int status)
{
	struct fenced *f = cookie;

	if (status < 0 || memmgr_fence(f->m, fenced_device, f) < 0)
		fenced_device(f, status < 0 ? status : -ENOMEM);
}

static struct fenced *fenced_new(struct memmgr *m, memmgr_done_fn done, void *cookie)
{
	struct fenced *f = malloc(sizeof(*f));

	if (f)
		*f = (struct fenced){ m, done, cookie };
	return f;
}

struct memmgr_client *memmgr_client_new(struct memmgr *m, pid_t pid, uid_t uid, bool privileged)
{
	struct memmgr_client *c = calloc(1, sizeof(*c));
	struct process *p;

	if (!c)
		return NULL;
	for (p = m->processes; p && p->pid != pid; p = p->next)
		;
	if (!p) {
		p = calloc(1, sizeof(*p));
		if (!p) {
			free(c);
			return NULL;
		}
		p->pid = pid;
		p->next = m->processes;
		m->processes = p;
	}
	p->clients++;
	c->proc = p;
	c->m = m;
	c->pid = pid;
	c->uid = uid;
	c->privileged = privileged;
	return c;
}

static void vm_destroy(struct memmgr *m, struct vm *vm, memmgr_done_fn done, void *cookie);
static void kernel_unmap(struct memmgr *m, struct bo *bo, memmgr_done_fn done, void *cookie);

void memmgr_client_gone(struct memmgr_client *c)
{
	struct memmgr *m = c->m;

	for (struct vm *vm = m->vms, *next; vm; vm = next) {
		next = vm->next;
		if (vm->owner == c)
			vm_destroy(m, vm, NULL, NULL);
	}
	for (unsigned i = 0; i < c->num_handles; i++) {
		struct bo *bo = c->handles[i];

		if (!bo)
			continue;
		c->handles[i] = NULL;
		if (bo->kernel_va)
			kernel_unmap(m, bo, NULL, NULL);
		bo_unref(m, bo);
	}
	/* BOs still held elsewhere (imports, pending releases) stop counting against it */
	for (struct bo *bo = m->bos; bo; bo = bo->next) {
		if (bo->charged == c) {
			c->proc->used -= bo->size;
			bo->charged = NULL;
		}
	}
	if (--c->proc->clients == 0) {
		struct process **pp = &m->processes;

		while (*pp != c->proc)
			pp = &(*pp)->next;
		*pp = c->proc->next;
		free(c->proc);
	}
	free(c->handles);
	free(c);
}

/* --- client requests ------------------------------------------------------------------ */

/* A new BO of the client's, charged to it, over memfd fd (-1: a fresh one), which it takes. */
static int create_checked_fd(struct memmgr_client *c, uint64_t size, unsigned flags, unsigned known,
			     uint64_t quota, int fd, struct bo **out, char *why)
{
	struct memmgr *m = c->m;
	int err = 0;

	if (!size || size > MEMMGR_MAX_BO_SIZE) {
		if (fd >= 0)
			close(fd);
		return fail(why, -EINVAL, "size %" PRIu64 " is not in 1..%llu", size,
			    MEMMGR_MAX_BO_SIZE);
	}
	size = (size + MEMMGR_PAGE - 1) & ~(MEMMGR_PAGE - 1);
	if (flags & ~known || (flags & MEMMGR_BO_WRITEBACK && flags & MEMMGR_BO_UNCACHED)) {
		if (fd >= 0)
			close(fd);
		return fail(why, -EINVAL,
			    "flags %#x: bits not taken here, or writeback and uncached", flags);
	}
	if (c->proc->used + size > quota) {
		if (fd >= 0)
			close(fd);
		return fail(why, -EDQUOT,
			    "quota: %" PRIu64 " bytes held by the process, %" PRIu64
			    " asked, %" PRIu64 " allowed",
			    c->proc->used, size, quota);
	}
	*out = bo_new_fd(m, size, flags, fd, why, &err);
	if (!*out)
		return err;
	(*out)->charged = c;
	c->used += size;
	c->proc->used += size;
	return 0;
}

static int create_checked(struct memmgr_client *c, uint64_t size, unsigned flags, unsigned known,
			  uint64_t quota, struct bo **out, char *why)
{
	return create_checked_fd(c, size, flags, known, quota, -1, out, why);
}

int memmgr_bo_create(struct memmgr_client *c, uint64_t size, unsigned flags, uint32_t vm,
		     uint32_t *handle, uint64_t *out_size, int *fd, char *why)
{
	struct bo *bo;
	int ret;

	if (flags & MEMMGR_BO_VM_PRIVATE && !vm_of(c, vm))
		return fail(why, -ENOENT, "VM-private BO for VM %u, which is not yours", vm);
	ret = create_checked(c, size, flags,
			     MEMMGR_BO_WRITEBACK | MEMMGR_BO_UNCACHED | MEMMGR_BO_VM_PRIVATE,
			     c->m->config.client_quota, &bo, why);
	if (ret < 0)
		return ret;
	if (flags & MEMMGR_BO_VM_PRIVATE)
		bo->private_vm = vm;
	ret = handle_add(c, bo, handle, why);
	if (ret < 0) {
		bo->refs = 1;
		bo_unref(c->m, bo);
		return ret;
	}
	*out_size = bo->size;
	*fd = bo->fd;
	return 0;
}

int memmgr_bo_close(struct memmgr_client *c, uint32_t handle, char *why)
{
	struct bo *bo = handle_get(c, handle);

	if (!bo || bo->kernel_va)
		return fail(why, -ENOENT, "no BO %u", handle);
	c->handles[handle - 1] = NULL;
	bo_unref(c->m, bo);
	return 0;
}

int memmgr_bo_export(struct memmgr_client *c, uint32_t handle, uint8_t token[MEMMGR_TOKEN_BYTES],
		     char *why)
{
	struct bo *bo = handle_get(c, handle);

	if (!bo || bo->kernel_va)
		return fail(why, -ENOENT, "no BO %u", handle);
	if (bo->private_vm)
		return fail(why, -EPERM, "BO %u is private to VM %u", handle, bo->private_vm);
	if (!bo->exported) {
		if (getrandom(bo->token, sizeof(bo->token), 0) != sizeof(bo->token))
			return fail(why, -EIO, "no random bytes for a token");
		bo->exported = true;
	}
	memcpy(token, bo->token, MEMMGR_TOKEN_BYTES);
	return 0;
}

int memmgr_bo_import(struct memmgr_client *c, const uint8_t *token, size_t len, uint32_t *handle,
		     uint64_t *size, int *fd, char *why)
{
	struct bo *bo;
	int ret;

	if (len != MEMMGR_TOKEN_BYTES)
		return fail(why, -EINVAL, "a token is %d bytes, not %zu", MEMMGR_TOKEN_BYTES, len);
	for (bo = c->m->bos; bo; bo = bo->next) {
		unsigned diff = 0;

		/* every byte compared, whatever matches */
		for (unsigned i = 0; i < MEMMGR_TOKEN_BYTES; i++)
			diff |= bo->token[i] ^ token[i];
		if (bo->exported && !diff)
			break;
	}
	if (!bo)
		return fail(why, -ENOENT, "no BO has that token");
	ret = handle_add(c, bo, handle, why);
	if (ret < 0)
		return ret;
	*size = bo->size;
	*fd = bo->fd;
	return 0;
}

/* The BO whose memfd is the inode st names, if any: its identity looked up once, when asked. */
static struct bo *bo_of_inode(struct memmgr *m, const struct stat *st)
{
	struct stat bs;

	for (struct bo *bo = m->bos; bo; bo = bo->next) {
		if (!bo->identified) {
			if (fstat(bo->fd, &bs) < 0)
				continue;
			bo->st_dev = bs.st_dev;
			bo->st_ino = bs.st_ino;
			bo->identified = true;
		}
		if (bo->st_dev == st->st_dev && bo->st_ino == st->st_ino)
			return bo;
	}
	return NULL;
}

/*
 * Makes memfd fd (untrusted: the client's) fit to be a BO: sealable,
 * readable and writable (the device writes it), not sealed against
 * writes, grown to whole pages if it may grow, then sealed against
 * shrinking and growing, so that its pages cannot vanish under the
 * device.  Its size in *size.
 */
static int adopt_memfd(int fd, uint64_t *size, char *why)
{
	struct stat st;
	int seals, fl;
	uint64_t pages;

	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode))
		return fail(why, -EINVAL, "the fd is not a memfd");
	seals = fcntl(fd, F_GET_SEALS);
	if (seals < 0)
		return fail(why, -EINVAL, "the fd takes no seals: not a memfd");
	fl = fcntl(fd, F_GETFL);
	if (fl < 0 || (fl & O_ACCMODE) != O_RDWR)
		return fail(why, -EACCES, "the memfd is not open for reading and writing");
	if (seals & (F_SEAL_WRITE | F_SEAL_FUTURE_WRITE))
		return fail(why, -EACCES, "the memfd is sealed against writes");
	if (st.st_size <= 0 || (uint64_t)st.st_size > MEMMGR_MAX_BO_SIZE)
		return fail(why, -EINVAL, "memfd size %lld is not in 1..%llu",
			    (long long)st.st_size, MEMMGR_MAX_BO_SIZE);
	pages = ((uint64_t)st.st_size + MEMMGR_PAGE - 1) & ~(MEMMGR_PAGE - 1);
	if (pages != (uint64_t)st.st_size &&
	    ((seals & F_SEAL_GROW) || ftruncate(fd, (off_t)pages) < 0))
		return fail(why, -EINVAL,
			    "memfd size %lld is not whole 16 KiB pages, and it cannot grow",
			    (long long)st.st_size);
	if ((seals & (F_SEAL_SHRINK | F_SEAL_GROW)) != (F_SEAL_SHRINK | F_SEAL_GROW) &&
	    fcntl(fd, F_ADD_SEALS, F_SEAL_SHRINK | F_SEAL_GROW) < 0)
		return fail(why, -EACCES, "the memfd cannot be sealed against resizing (%s)",
			    strerror(errno));
	*size = pages;
	return 0;
}

int memmgr_bo_import_fd(struct memmgr_client *c, int fd, uint32_t *handle, uint64_t *size,
			int *out_fd, char *why)
{
	struct stat st;
	struct bo *bo;
	uint64_t bytes = 0;
	int ret;

	if (fd < 0)
		return fail(why, -EINVAL, "no fd came with the request");
	if (fstat(fd, &st) < 0) {
		close(fd);
		return fail(why, -EINVAL, "the fd is not a memfd");
	}
	/* one of ours (an export's memfd): a handle to it, as a token import gives */
	bo = bo_of_inode(c->m, &st);
	if (bo) {
		close(fd);
		if (bo->kernel_va || bo->private_vm)
			return fail(why, -EPERM, "that memfd's BO is not shared");
	} else {
		ret = adopt_memfd(fd, &bytes, why);
		if (ret < 0) {
			close(fd);
			return ret;
		}
		ret = create_checked_fd(c, bytes, MEMMGR_BO_WRITEBACK, MEMMGR_BO_WRITEBACK,
					c->m->config.client_quota, fd, &bo, why);
		if (ret < 0)
			return ret;
		bo->identified = true;
		bo->st_dev = st.st_dev;
		bo->st_ino = st.st_ino;
	}
	ret = handle_add(c, bo, handle, why);
	if (ret < 0) {
		if (!bo->refs) {
			bo->refs = 1;
			bo_unref(c->m, bo);
		}
		return ret;
	}
	*size = bo->size;
	*out_fd = bo->fd;
	return 0;
}

int memmgr_vm_create(struct memmgr_client *c, uint32_t *id, char *why)
{
	struct vm *vm = vm_new(c->m, c, false);

	if (!vm)
		return fail(why, -ENOMEM, "out of memory for page tables");
	*id = vm->id;
	return 0;
}

/* Unmaps everything and lets the VM go when its jobs are done. */
static void vm_destroy(struct memmgr *m, struct vm *vm, memmgr_done_fn done, void *cookie)
{
	uint64_t size = MEMMGR_USER_VA_END - MEMMGR_USER_VA_START;
	struct release *r = release_new(m, vm);

	if (!r || unmap_reserve(vm, MEMMGR_USER_VA_START, size, r) < 0) {
		/* no room to wait: the VM keeps everything, unreachable, until shutdown */
		agx_err("VM %u: no host memory to release it; it stays", vm->id);
		if (r)
			release_try(r);
		vm->owner = NULL;
		if (done)
			done(cookie, 0);
		return;
	}
	unmap_range(vm, MEMMGR_USER_VA_START, size, r);
	vm->owner = NULL;
	r->free_vm = true;
	release_start(r, 0, 0, done, cookie);
}

int memmgr_vm_destroy(struct memmgr_client *c, uint32_t id, char *why, memmgr_done_fn done,
		      void *cookie)
{
	struct vm *vm = vm_of(c, id);

	if (!vm)
		return fail(why, -ENOENT, "no VM %u", id);
	vm_destroy(c->m, vm, done, cookie);
	return 0;
}

/* A range of pages inside [start, end), not wrapping. */
static int check_range(uint64_t va, uint64_t size, uint64_t start, uint64_t end, char *why)
{
	if (!size || !aligned(va) || !aligned(size))
		return fail(why, -EINVAL,
			    "range %#" PRIx64 " + %#" PRIx64 " is empty or not 16 KiB aligned", va,
			    size);
	if (va < start || va + size < va || va + size > end)
		return fail(why, -EINVAL,
			    "range %#" PRIx64 " + %#" PRIx64 " is outside %#" PRIx64 "..%#" PRIx64,
			    va, size, start, end);
	return 0;
}

int memmgr_vm_bind(struct memmgr_client *c, uint32_t id, uint32_t handle, uint64_t bo_offset,
		   uint64_t size, uint64_t va, unsigned access, bool allocate_va, uint64_t *out_va,
		   char *why)
{
	struct vm *vm = vm_of(c, id);
	struct bo *bo = handle_get(c, handle);
	uint64_t desc;
	int ret;

	if (!vm)
		return fail(why, -ENOENT, "no VM %u", id);
	if (!bo || bo->kernel_va)
		return fail(why, -ENOENT, "no BO %u", handle);
	if (bo->private_vm && bo->private_vm != id)
		return fail(why, -EPERM, "BO %u is private to VM %u", handle, bo->private_vm);
	if (!size || !aligned(size) || !aligned(bo_offset) || bo_offset > bo->size ||
	    size > bo->size - bo_offset)
		return fail(why, -EINVAL,
			    "BO range %#" PRIx64 " + %#" PRIx64
			    " is not 16 KiB pages of BO %u (%#" PRIx64 " bytes)",
			    bo_offset, size, handle, bo->size);
	if (access & ~(unsigned)(PT_READ | PT_WRITE | PT_EXECUTE) ||
	    pt_page_template(access, 0, &desc) < 0)
		return fail(why, -EINVAL, "access %#x is not one the UAT gives (R, RW, RX or X)",
			    access);
	if (allocate_va) {
		if (!find_va(vm, MEMMGR_USER_VA_START, MEMMGR_USER_VA_END, size, &va))
			return fail(why, -ENOSPC, "no %#" PRIx64 " bytes free in VM %u", size, id);
	} else {
		unsigned i;

		ret = check_range(va, size, MEMMGR_USER_VA_START, MEMMGR_USER_VA_END, why);
		if (ret < 0)
			return ret;
		i = map_index(vm, va);
		if (i < vm->num_maps && vm->maps[i].va < va + size)
			return fail(why, -EBUSY,
				    "range %#" PRIx64 " + %#" PRIx64
				    " overlaps the mapping at %#" PRIx64,
				    va, size, vm->maps[i].va);
	}
	ret = map_range(c->m, vm, bo, bo_offset, size, va, access, why);
	if (ret == 0)
		*out_va = va;
	return ret;
}

int memmgr_vm_unbind(struct memmgr_client *c, uint32_t id, uint64_t va, uint64_t size, char *why,
		     memmgr_done_fn done, void *cookie)
{
	struct vm *vm = vm_of(c, id);
	struct release *r;
	int ret;

	if (!vm)
		return fail(why, -ENOENT, "no VM %u", id);
	ret = check_range(va, size, MEMMGR_USER_VA_START, MEMMGR_USER_VA_END, why);
	if (ret < 0)
		return ret;
	{
		unsigned i = map_index(vm, va);

		if (i == vm->num_maps || vm->maps[i].va >= va + size)
			return fail(why, -ENOENT,
				    "nothing is mapped at %#" PRIx64 " + %#" PRIx64 " in VM %u", va,
				    size, id);
	}
	r = release_new(c->m, vm);
	if (!r || unmap_reserve(vm, va, size, r) < 0) {
		if (r)
			release_try(r);
		return fail(why, -ENOMEM, "out of host memory");
	}
	unmap_range(vm, va, size, r);
	release_start(r, va, size, done, cookie);
	return 0;
}

void memmgr_query(struct memmgr_client *c, struct memmgr_usage *u)
{
	u->used = c->proc->used;
	u->quota = c->privileged ? c->m->dev->memory_size : c->m->config.client_quota;
	u->page_table_bytes = 0;
	for (const struct vm *vm = c->m->vms; vm; vm = vm->next)
		if (vm->owner == c)
			u->page_table_bytes += vm->space.tables * MEMMGR_PAGE;
}

/* --- privileged requests -------------------------------------------------------------- */

int memmgr_kernel_alloc(struct memmgr_client *c, uint64_t size, unsigned flags, uint32_t *handle,
			uint64_t *va, uint64_t *paddr, uint64_t *out_size, int *fd, char *why,
			memmgr_done_fn done, void *cookie)
{
	struct memmgr *m = c->m;
	struct bo *bo;
	int ret;

	if (!c->privileged)
		return fail(why, -EPERM, "kernel allocations are for agx-fwchan and agx-scheduler");
	ret = create_checked(c, size, flags,
			     MEMMGR_BO_WRITEBACK | MEMMGR_BO_UNCACHED | MEMMGR_BO_CONTIGUOUS,
			     m->dev->memory_size, &bo, why);
	if (ret < 0)
		return ret;
	if (!find_va(m->kernel, MEMMGR_KERNEL_VA_START, MEMMGR_KERNEL_VA_END, bo->size, va)) {
		ret = fail(why, -ENOSPC, "the kernel VM is full");
		goto fail;
	}
	ret = map_range(m, m->kernel, bo, 0, bo->size, *va, PT_FIRMWARE, why);
	if (ret < 0)
		goto fail;
	bo->kernel_va = *va;
	ret = handle_add(c, bo, handle, why);
	if (ret < 0) {
		kernel_unmap(m, bo, NULL, NULL);
		return ret;
	}
	*out_size = bo->size;
	*fd = bo->fd;
	*paddr = flags & MEMMGR_BO_CONTIGUOUS ? bo->ext[0].paddr : 0;
	if (memmgr_fence(m, done, cookie) < 0)
		done(cookie, -ENOMEM);
	return 0;
fail:
	bo->refs = 1;
	bo_unref(m, bo);
	return ret;
}

static void kernel_unmap(struct memmgr *m, struct bo *bo, memmgr_done_fn done, void *cookie)
{
	struct release *r = release_new(m, m->kernel);
	uint64_t va = bo->kernel_va;

	bo->kernel_va = 0;
	if (!r || unmap_reserve(m->kernel, va, bo->size, r) < 0) {
		agx_err("kernel allocation at %#" PRIx64 ": no host memory to release it; it stays",
			va);
		if (r)
			release_try(r);
		if (done)
			done(cookie, 0);
		return;
	}
	unmap_range(m->kernel, va, bo->size, r);
	release_start(r, va, bo->size, done, cookie);
}

int memmgr_kernel_free(struct memmgr_client *c, uint32_t handle, char *why, memmgr_done_fn done,
		       void *cookie)
{
	struct bo *bo = handle_get(c, handle);

	if (!bo || !bo->kernel_va)
		return fail(why, -ENOENT, "no kernel allocation %u", handle);
	c->handles[handle - 1] = NULL;
	/* the handle's reference goes now; the mapping's when the firmware has forgotten it */
	kernel_unmap(c->m, bo, done, cookie);
	bo_unref(c->m, bo);
	return 0;
}

int memmgr_fault_decode(struct memmgr *m, unsigned slot, uint64_t va, struct memmgr_fault *f,
			char *why)
{
	bool high = (va >> 39) & 1;
	struct vm *vm = slot < MEMMGR_SLOTS ? m->slots[slot] : NULL;
	unsigned i;

	memset(f, 0, sizeof(*f));
	if (slot >= MEMMGR_SLOTS)
		return fail(why, -EINVAL, "context slot %u does not exist", slot);
	if (slot == MEMMGR_KERNEL_SLOT && !high)
		return fail(why, -ENOENT, "the kernel context has no low half");
	if (!vm || high != vm->kernel)
		return fail(why, -ENOENT, "no VM holds slot %u's %s half", slot,
			    high ? "high" : "low");
	f->client_pid = vm->pid;
	f->vm = vm->kernel ? 0 : vm->id;
	i = map_index(vm, va);
	if (i < vm->num_maps && vm->maps[i].va <= va) {
		const struct mapping *map = &vm->maps[i];

		f->bo_offset = map->bo_offset + (va - map->va);
		/* the owner's name for the BO, if it still has one */
		for (unsigned h = 0; vm->owner && h < vm->owner->num_handles; h++)
			if (vm->owner->handles[h] == map->bo) {
				f->bo = h + 1;
				break;
			}
	}
	return 0;
}

int memmgr_vm_slot_bind(struct memmgr *m, pid_t pid, uint32_t id, uint64_t seqno, unsigned *slot,
			uint64_t *ttbr, char *why, memmgr_done_fn done, void *cookie)
{
	struct vm *vm = vm_find(m, id), *victim = NULL;
	struct agx_uat_ttbr t;
	struct release *r = NULL;
	int free_slot = -1;

	struct fenced *f;

	if (!vm || vm->kernel || vm->pid != pid)
		return fail(why, -ENOENT, "client %d has no VM %u", (int)pid, id);
	f = fenced_new(m, done, cookie);
	if (!f)
		return fail(why, -ENOMEM, "out of host memory");
	if (seqno > vm->submitted)
		vm->submitted = seqno;
	vm->last_use = ++m->clock;
	if (vm->slot < 0) {
		/* the slot's old translations (a victim's, or a destroyed VM's) will go first */
		r = release_new(m, vm);
		if (!r) {
			free(f);
			return fail(why, -ENOMEM, "out of host memory");
		}
		r->seqno = 0;
		for (unsigned s = 1; s < MEMMGR_SLOTS && free_slot < 0; s++)
			if (!m->slots[s])
				free_slot = (int)s;
		/* else the least recently used VM with nothing running gives its slot up */
		for (unsigned s = 1; s < MEMMGR_SLOTS && free_slot < 0; s++) {
			struct vm *o = m->slots[s];

			if (o->completed >= o->submitted &&
			    (!victim || o->last_use < victim->last_use))
				victim = o;
		}
		if (free_slot < 0 && !victim) {
			release_try(r);
			free(f);
			return fail(why, -EBUSY,
				    "all %d context slots hold VMs with jobs in flight",
				    MEMMGR_SLOTS - 1);
		}
		if (victim) {
			free_slot = victim->slot;
			victim->slot = -1;
		}
		vm->slot = free_slot;
		m->slots[free_slot] = vm;
		write_ttbr(m, (unsigned)free_slot, 0, vm->space.l1);
	}
	*slot = (unsigned)vm->slot;
	t = (struct agx_uat_ttbr){ .valid = true, .baddr = vm->space.l1, .asid = *slot };
	agx_uat_ttbr_pack((uint8_t *)ttbr, &t);
	if (!r)
		fenced_start(f, 0);
	else
		release_start(r, 0, 0, fenced_start, f);
	return 0;
}

int memmgr_vm_check(struct memmgr *m, unsigned slot, uint64_t va, uint64_t size, unsigned access,
		    char *why)
{
	struct vm *vm = slot && slot < MEMMGR_SLOTS ? m->slots[slot] : NULL;
	uint64_t at = va;

	if (!vm || vm->kernel)
		return fail(why, -ENOENT, "no VM holds context slot %u", slot);
	if (!size || va + size < va)
		return fail(why, -EINVAL, "range %#" PRIx64 " + %#" PRIx64 " is empty or wraps", va,
			    size);
	/* mappings are sorted and never overlap: walk them across the range */
	for (unsigned i = map_index(vm, va); at < va + size; i++) {
		const struct mapping *map = i < vm->num_maps ? &vm->maps[i] : NULL;

		if (!map || map->va > at)
			return fail(why, -ENOENT,
				    "%#" PRIx64 " (in %#" PRIx64 " + %#" PRIx64 ") is not mapped",
				    at, va, size);
		if (access & ~map->access)
			return fail(why, -EPERM,
				    "%#" PRIx64 " is mapped without access %#x (has %#x)", at,
				    access, map->access);
		at = map->va + map->size;
	}
	return 0;
}

int memmgr_jobs_completed(struct memmgr *m, pid_t pid, uint32_t id, uint64_t seqno, char *why)
{
	struct vm *vm;

	/* a destroyed VM still waits for its jobs: look for it whoever owned it */
	for (vm = m->vms; vm; vm = vm->next)
		if (vm->id == id && !vm->kernel && vm->pid == pid)
			break;
	if (!vm)
		return fail(why, -ENOENT, "client %d has no VM %u", (int)pid, id);
	if (seqno > vm->submitted)
		return fail(why, -EINVAL, "job %" PRIu64 " of VM %u was never submitted", seqno,
			    id);
	if (seqno > vm->completed)
		vm->completed = seqno;
	for (struct release *r = m->releases, *next; r; r = next) {
		next = r->next;
		if (r->vm == vm)
			release_try(r);
	}
	return 0;
}

void memmgr_stats(const struct memmgr *m, struct memmgr_stats *s)
{
	s->phys_used = m->phys.used;
	s->phys_total = m->phys.total;
	s->table_pages = m->pool.pages_used;
	s->bos = m->num_bos;
	s->vms = m->num_vms;
	s->pending_releases = m->num_releases;
}

uint64_t memmgr_vm_l1(const struct memmgr *m, uint32_t id)
{
	for (const struct vm *vm = m->vms; vm; vm = vm->next)
		if (vm->id == id)
			return vm->space.l1;
	return 0;
}
