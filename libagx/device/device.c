/*
 * device.c: agx/device.h over libagx's clients of agx-memmgr and
 * agx-scheduler: the lock that makes the memory client usable from every
 * thread, each VM's address allocator, the TVB heaps of each queue, and
 * device loss -- the first failure that says a daemon went away marks the
 * device, and every call after it fails at once.
 *
 * A TVB heap that was outgrown is not unmapped at once: memmgr clears the
 * descriptors of an unbound range at once (docs/memmgr.md, "What memmgr
 * guarantees"), so a render still binning into it would fault.  It waits
 * for an empty job submitted to its queue behind the renders that may use
 * it: jobs of a queue end in order, so when that job's point is reached
 * (on the fence page, without asking), none of them runs any more.
 */
#include <errno.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "agx/device.h"

/* The USC window: 32-bit offsets from usc_base. */
#define USC_WINDOW (1ull << 32)

struct mapping {
	uint64_t va, size; /* size without the guard page */
};

struct agx_device_vm {
	uint32_t id;
	struct mapping *maps; /* sorted by va */
	unsigned count, capacity;
};

/* A TVB heap: a BO private to its queue's VM, mapped there. */
struct tvb_heap {
	struct agx_bo bo;
	uint64_t va;
	uint64_t until; /* outgrown: it goes once the queue's syncobj reaches this */
};

/* A queue the device made: its VM, and the TVB heaps of its renders. */
struct device_queue {
	uint32_t id;
	struct agx_device_vm *vm; /* NULL once the VM was destroyed */
	struct tvb_heap heap;	  /* bo.size 0: none yet */
	struct tvb_heap *outgrown;
	unsigned num_outgrown;
	uint32_t syncobj; /* for the empty jobs outgrown heaps wait for; 0: none yet */
	uint64_t point;
};

struct agx_device {
	pthread_mutex_t lock;	    /* the memory client and every VM's allocator */
	pthread_mutex_t queue_lock; /* the queues and their heaps; taken before lock */
	struct agx_memory *mem;
	struct agx_sched *sched;
	struct agx_device_info info;
	uint32_t tvb_initial;
	struct device_queue *queues;
	unsigned num_queues, max_queues;
	bool lost; /* read and written with atomics */
};

static _Thread_local char error_text[320];

const char *agx_device_error(void)
{
	return error_text;
}

__attribute__((format(printf, 1, 2))) static void say(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(error_text, sizeof(error_text), fmt, ap);
	va_end(ap);
}

bool agx_device_is_lost(const struct agx_device *dev)
{
	return __atomic_load_n(&dev->lost, __ATOMIC_ACQUIRE);
}

/* Errors that say the daemon at the other end is gone. */
static bool gone(int ret)
{
	return ret == -ECONNRESET || ret == -EPIPE || ret == -ENOTCONN || ret == -ENODEV ||
	       ret == -ESHUTDOWN || ret == -ECONNREFUSED;
}

/* A failure of a call to a daemon: device loss becomes -ENODEV, for good. */
static int failed(struct agx_device *dev, int ret, const char *what, const char *detail)
{
	if (gone(ret)) {
		__atomic_store_n(&dev->lost, true, __ATOMIC_RELEASE);
		say("device lost: %s: %s", what, detail && *detail ? detail : strerror(-ret));
		return -ENODEV;
	}
	say("%s: %s", what, detail && *detail ? detail : strerror(-ret));
	return ret;
}

static int check_lost(const struct agx_device *dev)
{
	if (!agx_device_is_lost(dev))
		return 0;
	say("device lost: a daemon of the stack went away; open the device again");
	return -ENODEV;
}

#define MEM_CALL(dev, what, call)                                                                  \
	({                                                                                         \
		int ret_ = check_lost(dev);                                                        \
		if (!ret_) {                                                                       \
			pthread_mutex_lock(&(dev)->lock);                                          \
			ret_ = (call);                                                             \
			if (ret_ < 0)                                                              \
				ret_ = failed(dev, ret_, what, agx_memory_error((dev)->mem));      \
			pthread_mutex_unlock(&(dev)->lock);                                        \
		}                                                                                  \
		ret_;                                                                              \
	})

#define SCHED_CALL(dev, what, call)                                                                \
	({                                                                                         \
		int ret_ = check_lost(dev);                                                        \
		if (!ret_) {                                                                       \
			ret_ = (call);                                                             \
			if (ret_ < 0)                                                              \
				ret_ = failed(dev, ret_, what, agx_sched_error((dev)->sched));     \
		}                                                                                  \
		ret_;                                                                              \
	})

int agx_device_open(const struct agx_device_config *config, struct agx_device **out)
{
	static const struct agx_device_config defaults;
	struct agx_device *dev = calloc(1, sizeof(*dev));
	struct agx_memory_usage usage;
	int ret;

	*out = NULL;
	if (!config)
		config = &defaults;
	if (!dev)
		return -ENOMEM;
	pthread_mutex_init(&dev->lock, NULL);
	pthread_mutex_init(&dev->queue_lock, NULL);
	ret = agx_memory_connect(config->memmgr_socket, &dev->mem);
	if (ret < 0) {
		say("cannot reach agx-memmgr: %s", strerror(-ret));
		goto fail;
	}
	ret = agx_memory_query(dev->mem, &usage);
	if (ret < 0) {
		say("agx-memmgr: %s", agx_memory_error(dev->mem));
		goto fail;
	}
	ret = agx_sched_connect(config->scheduler_socket, config->name, &dev->sched);
	if (ret < 0) {
		say("cannot reach agx-scheduler: %s", strerror(-ret));
		goto fail;
	}
	dev->info = (struct agx_device_info){
		.chip_id = usage.chip_id,
		.generation = usage.generation,
		.num_cores = usage.num_cores,
		.page_size = usage.page_size,
		.va_start = usage.va_start,
		.va_end = usage.va_end,
		.usc_base = usage.va_start,
		.memory_quota = usage.quota,
		.job_time_limit_ms = usage.job_time_limit_ms,
		.fill_bytes_per_ms = usage.fill_bytes_per_ms,
	};
	memcpy(dev->info.firmware_version, usage.firmware_version,
	       sizeof(dev->info.firmware_version));
	if (!usage.page_size || usage.va_end <= usage.va_start) {
		say("agx-memmgr describes no usable address space");
		ret = -EPROTO;
		goto fail;
	}
	dev->tvb_initial = config->tvb_initial ? config->tvb_initial : AGX_DEVICE_TVB_INITIAL;
	*out = dev;
	return 0;

fail:
	agx_sched_disconnect(dev->sched);
	agx_memory_disconnect(dev->mem);
	pthread_mutex_destroy(&dev->queue_lock);
	pthread_mutex_destroy(&dev->lock);
	free(dev);
	return gone(ret) ? -ENODEV : ret;
}

static void queue_forget_heaps(struct agx_device *dev, struct device_queue *q);

void agx_device_close(struct agx_device *dev)
{
	if (!dev)
		return;
	/* the heaps' CPU mappings; memmgr releases the rest with the connection */
	for (unsigned i = 0; i < dev->num_queues; i++)
		queue_forget_heaps(dev, &dev->queues[i]);
	free(dev->queues);
	agx_sched_disconnect(dev->sched);
	agx_memory_disconnect(dev->mem);
	pthread_mutex_destroy(&dev->queue_lock);
	pthread_mutex_destroy(&dev->lock);
	free(dev);
}

const struct agx_device_info *agx_device_info(const struct agx_device *dev)
{
	return &dev->info;
}

/* ---- buffer objects ------------------------------------------------------------------- */

int agx_device_bo_create(struct agx_device *dev, uint64_t size, unsigned flags, struct agx_bo *bo)
{
	return MEM_CALL(dev, "BO create", agx_bo_create(dev->mem, size, flags, 0, bo));
}

int agx_device_bo_close(struct agx_device *dev, struct agx_bo *bo)
{
	/* the caller's mapping goes even when the device is lost */
	if (agx_device_is_lost(dev)) {
		pthread_mutex_lock(&dev->lock);
		agx_bo_close(dev->mem, bo);
		pthread_mutex_unlock(&dev->lock);
		return check_lost(dev);
	}
	return MEM_CALL(dev, "BO close", agx_bo_close(dev->mem, bo));
}

int agx_device_bo_export(struct agx_device *dev, const struct agx_bo *bo,
			 uint8_t token[AGX_MEMORY_TOKEN_BYTES])
{
	return MEM_CALL(dev, "BO export", agx_bo_export(dev->mem, bo, token));
}

int agx_device_bo_import(struct agx_device *dev, const uint8_t token[AGX_MEMORY_TOKEN_BYTES],
			 struct agx_bo *bo)
{
	return MEM_CALL(dev, "BO import", agx_bo_import(dev->mem, token, bo));
}

int agx_device_bo_import_fd(struct agx_device *dev, int fd, struct agx_bo *bo)
{
	return MEM_CALL(dev, "BO import by fd", agx_bo_import_fd(dev->mem, fd, bo));
}

/* ---- address spaces: each VM's allocator ---------------------------------------------- */

int agx_device_vm_create(struct agx_device *dev, struct agx_device_vm **out)
{
	struct agx_device_vm *vm = calloc(1, sizeof(*vm));
	int ret;

	*out = NULL;
	if (!vm) {
		say("out of memory");
		return -ENOMEM;
	}
	ret = MEM_CALL(dev, "VM create", agx_vm_create(dev->mem, &vm->id));
	if (ret < 0) {
		free(vm);
		return ret;
	}
	*out = vm;
	return 0;
}

void agx_device_vm_destroy(struct agx_device *dev, struct agx_device_vm *vm)
{
	if (!vm)
		return;
	pthread_mutex_lock(&dev->queue_lock);
	/* destroying the VM unmaps everything in it, its queues' heaps too */
	MEM_CALL(dev, "VM destroy", agx_vm_destroy(dev->mem, vm->id));
	for (unsigned i = 0; i < dev->num_queues; i++)
		if (dev->queues[i].vm == vm) {
			queue_forget_heaps(dev, &dev->queues[i]);
			dev->queues[i].vm = NULL;
		}
	pthread_mutex_unlock(&dev->queue_lock);
	free(vm->maps);
	free(vm);
}

uint32_t agx_device_vm_id(const struct agx_device_vm *vm)
{
	return vm->id;
}

/*
 * The lowest free range of size bytes plus a guard page in [lo, hi), first
 * fit over the sorted mappings: where it goes in the array, and its address.
 */
static bool find_range(const struct agx_device_vm *vm, uint64_t lo, uint64_t hi, uint64_t size,
		       uint64_t page, unsigned *slot, uint64_t *va)
{
	uint64_t at = lo;

	for (unsigned i = 0; i <= vm->count; i++) {
		uint64_t end = i < vm->count ? vm->maps[i].va : hi;

		if (end > hi)
			end = hi;
		if (end >= at && end - at >= size + page) {
			*slot = i;
			*va = at;
			return true;
		}
		if (i < vm->count && vm->maps[i].va + vm->maps[i].size + page > at)
			at = vm->maps[i].va + vm->maps[i].size + page;
		if (at >= hi)
			return false;
	}
	return false;
}

int agx_device_vm_map(struct agx_device *dev, struct agx_device_vm *vm, const struct agx_bo *bo,
		      unsigned flags, uint64_t *va)
{
	const struct agx_device_info *info = &dev->info;
	unsigned bind = flags & (AGX_BIND_READ | AGX_BIND_WRITE | AGX_BIND_EXECUTE);
	uint64_t lo = info->va_start, hi = info->va_end, at = 0;
	unsigned slot = 0;
	int ret = check_lost(dev);

	if (ret)
		return ret;
	if ((flags & ~(bind | AGX_MAP_USC)) || !bind || !bo->size) {
		say("VM map: flags 0x%x: READ, WRITE, EXECUTE and USC only, one of the first three",
		    flags);
		return -EINVAL;
	}
	if (flags & AGX_MAP_USC)
		hi = info->usc_base + USC_WINDOW < hi ? info->usc_base + USC_WINDOW : hi;
	else if (info->usc_base + USC_WINDOW < hi)
		lo = info->usc_base + USC_WINDOW; /* the window is kept for what needs it */

	pthread_mutex_lock(&dev->lock);
	if (vm->count == vm->capacity) {
		unsigned capacity = vm->capacity ? 2 * vm->capacity : 16;
		struct mapping *maps = realloc(vm->maps, capacity * sizeof(*maps));

		if (!maps) {
			pthread_mutex_unlock(&dev->lock);
			say("out of memory");
			return -ENOMEM;
		}
		vm->maps = maps;
		vm->capacity = capacity;
	}
	if (!find_range(vm, lo, hi, bo->size, info->page_size, &slot, &at)) {
		pthread_mutex_unlock(&dev->lock);
		say("VM map: no free range of %llu bytes%s", (unsigned long long)bo->size,
		    flags & AGX_MAP_USC ? " in the USC window" : "");
		return -ENOSPC;
	}
	ret = agx_vm_bind(dev->mem, vm->id, bo, 0, bo->size, at, bind, NULL);
	if (ret < 0) {
		ret = failed(dev, ret, "VM bind", agx_memory_error(dev->mem));
	} else {
		memmove(&vm->maps[slot + 1], &vm->maps[slot],
			(vm->count - slot) * sizeof(*vm->maps));
		vm->maps[slot] = (struct mapping){ at, bo->size };
		vm->count++;
		*va = at;
	}
	pthread_mutex_unlock(&dev->lock);
	return ret;
}

int agx_device_vm_unmap(struct agx_device *dev, struct agx_device_vm *vm, uint64_t va)
{
	int ret = check_lost(dev);
	unsigned i;

	if (ret)
		return ret;
	pthread_mutex_lock(&dev->lock);
	for (i = 0; i < vm->count && vm->maps[i].va != va; i++)
		;
	if (i == vm->count) {
		pthread_mutex_unlock(&dev->lock);
		say("VM unmap: nothing is mapped at 0x%llx", (unsigned long long)va);
		return -ENOENT;
	}
	ret = agx_vm_unbind(dev->mem, vm->id, va, vm->maps[i].size);
	if (ret < 0) {
		ret = failed(dev, ret, "VM unbind", agx_memory_error(dev->mem));
	} else {
		memmove(&vm->maps[i], &vm->maps[i + 1], (vm->count - i - 1) * sizeof(*vm->maps));
		vm->count--;
	}
	pthread_mutex_unlock(&dev->lock);
	return ret;
}

/* ---- queues and their TVB heaps ----------------------------------------------------------- */

#define DESTROY_WAIT_NS (10ll * 1000 * 1000 * 1000)

static struct device_queue *queue_find(struct agx_device *dev, uint32_t id)
{
	for (unsigned i = 0; i < dev->num_queues; i++)
		if (dev->queues[i].id == id)
			return &dev->queues[i];
	return NULL;
}

/* A heap's BO goes, and its mapping first unless the VM took it along. */
static void heap_free(struct agx_device *dev, struct agx_device_vm *vm, struct tvb_heap *h)
{
	if (!h->bo.size)
		return;
	if (vm)
		agx_device_vm_unmap(dev, vm, h->va);
	agx_device_bo_close(dev, &h->bo);
	memset(h, 0, sizeof(*h));
}

/* Every heap of the queue, whose mappings went with its VM or the connection. */
static void queue_forget_heaps(struct agx_device *dev, struct device_queue *q)
{
	heap_free(dev, NULL, &q->heap);
	for (unsigned i = 0; i < q->num_outgrown; i++)
		heap_free(dev, NULL, &q->outgrown[i]);
	free(q->outgrown);
	q->outgrown = NULL;
	q->num_outgrown = 0;
}

/* The outgrown heaps no job of the queue may use any more. */
static void free_outgrown(struct agx_device *dev, struct device_queue *q)
{
	uint64_t reached = q->syncobj ? agx_sched_value(dev->sched, q->syncobj) : 0;

	for (unsigned i = 0; i < q->num_outgrown;) {
		if (q->outgrown[i].until > reached) {
			i++;
			continue;
		}
		heap_free(dev, q->vm, &q->outgrown[i]);
		q->outgrown[i] = q->outgrown[--q->num_outgrown];
	}
}

/* A power of two of whole pages, at least want, at most AGX_DEVICE_TVB_MAX. */
static uint64_t heap_size(uint64_t want, uint32_t page_size)
{
	uint64_t size = page_size;

	if (want > AGX_DEVICE_TVB_MAX)
		want = AGX_DEVICE_TVB_MAX;
	while (size < want)
		size *= 2;
	return size;
}

static int heap_make(struct agx_device *dev, struct device_queue *q, uint64_t size,
		     struct tvb_heap *h)
{
	int ret;

	memset(h, 0, sizeof(*h));
	ret = MEM_CALL(dev, "TVB heap",
		       agx_bo_create(dev->mem, size, AGX_BO_VM_PRIVATE, q->vm->id, &h->bo));
	if (ret < 0)
		return ret;
	ret = agx_device_vm_map(dev, q->vm, &h->bo, AGX_BIND_READ | AGX_BIND_WRITE, &h->va);
	if (ret < 0) {
		agx_device_bo_close(dev, &h->bo);
		memset(h, 0, sizeof(*h));
	}
	return ret;
}

/*
 * An empty job on the queue, behind every job that may use its heaps:
 * *point, reached once they all ended; 0 when the queue takes no more work
 * (it was reset, -ECANCELED: its heaps then wait for its destruction).
 */
static uint64_t queue_fence(struct agx_device *dev, struct device_queue *q)
{
	struct agx_sched_point p;

	if (!q->syncobj && agx_sched_syncobj_create(dev->sched, &q->syncobj) < 0)
		return 0;
	p = (struct agx_sched_point){ q->syncobj, q->point + 1 };
	if (agx_sched_submit(dev->sched, q->id, NULL, 0, NULL, 0, &p, 1, NULL) < 0)
		return 0;
	return ++q->point;
}

int agx_device_queue_tvb(struct agx_device *dev, uint32_t queue, uint64_t *va, uint32_t *size)
{
	struct device_queue *q;
	struct tvb_heap *outgrown, grown;
	uint64_t want = 0, bytes, until;
	int ret = check_lost(dev);

	if (ret)
		return ret;
	pthread_mutex_lock(&dev->queue_lock);
	q = queue_find(dev, queue);
	if (!q || !q->vm) {
		say(q ? "TVB heap: the VM of queue %u was destroyed" : "TVB heap: no queue %u",
		    queue);
		ret = -ENOENT;
		goto out;
	}
	free_outgrown(dev, q);
	ret = SCHED_CALL(dev, "TVB heap", agx_sched_tvb_wanted(dev->sched, queue, &want));
	if (ret < 0)
		goto out;
	bytes = heap_size(want > dev->tvb_initial ? want : dev->tvb_initial, dev->info.page_size);
	if (q->heap.bo.size < bytes) {
		outgrown = realloc(q->outgrown, (q->num_outgrown + 1) * sizeof(*outgrown));
		if (!outgrown) {
			say("TVB heap: out of memory");
			ret = -ENOMEM;
			goto out;
		}
		q->outgrown = outgrown;
		ret = heap_make(dev, q, bytes, &grown);
		if (ret < 0)
			goto out;
		if (q->heap.bo.size) {
			until = queue_fence(dev, q);
			q->heap.until = until ? until : UINT64_MAX;
			q->outgrown[q->num_outgrown++] = q->heap;
		}
		q->heap = grown;
	}
	*va = q->heap.va;
	*size = (uint32_t)q->heap.bo.size;
out:
	pthread_mutex_unlock(&dev->queue_lock);
	return ret;
}

int agx_device_queue_tvb_wanted(struct agx_device *dev, uint32_t queue, uint64_t *bytes)
{
	return SCHED_CALL(dev, "TVB wanted", agx_sched_tvb_wanted(dev->sched, queue, bytes));
}

/* ---- queues, syncobjs, work ------------------------------------------------------------- */

int agx_device_queue_create(struct agx_device *dev, struct agx_device_vm *vm,
			    enum agx_priority priority, uint32_t *queue)
{
	struct device_queue *queues;
	int ret;

	pthread_mutex_lock(&dev->queue_lock);
	if (dev->num_queues == dev->max_queues) {
		unsigned max = dev->max_queues ? 2 * dev->max_queues : 8;

		queues = realloc(dev->queues, max * sizeof(*queues));
		if (!queues) {
			pthread_mutex_unlock(&dev->queue_lock);
			say("queue create: out of memory");
			return -ENOMEM;
		}
		dev->queues = queues;
		dev->max_queues = max;
	}
	ret = SCHED_CALL(dev, "queue create",
			 agx_sched_queue_create(dev->sched, vm->id, priority, queue));
	if (ret == 0)
		dev->queues[dev->num_queues++] = (struct device_queue){ .id = *queue, .vm = vm };
	pthread_mutex_unlock(&dev->queue_lock);
	return ret;
}

int agx_device_queue_destroy(struct agx_device *dev, uint32_t queue)
{
	struct device_queue *found, q = { 0 };
	struct agx_sched_point last = { 0 };
	bool removed = false;
	int ret;

	pthread_mutex_lock(&dev->queue_lock);
	found = queue_find(dev, queue);
	/* the heaps go once every job that may use them ended: after an empty job */
	if (found && (found->heap.bo.size || found->num_outgrown) && !agx_device_is_lost(dev))
		last = (struct agx_sched_point){ found->syncobj, queue_fence(dev, found) };
	ret = SCHED_CALL(dev, "queue destroy", agx_sched_queue_destroy(dev->sched, queue));
	if (found && (ret == 0 || agx_device_is_lost(dev))) {
		q = *found;
		*found = dev->queues[--dev->num_queues];
		removed = true;
	}
	pthread_mutex_unlock(&dev->queue_lock);
	if (!removed)
		return ret;
	/* destroying it cancelled what had not run: this is what was running ending */
	if (last.value)
		agx_sched_wait(dev->sched, &last, 1, true, DESTROY_WAIT_NS, NULL, NULL);
	heap_free(dev, q.vm, &q.heap);
	for (unsigned i = 0; i < q.num_outgrown; i++)
		heap_free(dev, q.vm, &q.outgrown[i]);
	free(q.outgrown);
	if (q.syncobj && !agx_device_is_lost(dev))
		agx_sched_syncobj_destroy(dev->sched, q.syncobj);
	return ret;
}

int agx_device_queue_status(struct agx_device *dev, uint32_t queue, enum agx_queue_status *status)
{
	int ret =
	    SCHED_CALL(dev, "queue status", agx_sched_queue_status(dev->sched, queue, status));

	if (ret == -ENODEV)
		*status = AGX_QUEUE_DEVICE_LOST;
	return ret;
}

int agx_device_syncobj_create(struct agx_device *dev, uint32_t *syncobj)
{
	return SCHED_CALL(dev, "syncobj create", agx_sched_syncobj_create(dev->sched, syncobj));
}

int agx_device_syncobj_destroy(struct agx_device *dev, uint32_t syncobj)
{
	return SCHED_CALL(dev, "syncobj destroy", agx_sched_syncobj_destroy(dev->sched, syncobj));
}

int agx_device_point_export(struct agx_device *dev, struct agx_sched_point point, int *fd)
{
	return SCHED_CALL(dev, "point export", agx_sched_export(dev->sched, point, fd));
}

int agx_device_submit(struct agx_device *dev, uint32_t queue, const struct agx_sched_cmd *cmds,
		      unsigned num_cmds, const struct agx_sched_point *waits, unsigned num_waits,
		      const struct agx_sched_point *signals, unsigned num_signals)
{
	return SCHED_CALL(dev, "submit",
			  agx_sched_submit(dev->sched, queue, cmds, num_cmds, waits, num_waits,
					   signals, num_signals, NULL));
}

int agx_device_wait(struct agx_device *dev, const struct agx_sched_point *points, unsigned count,
		    bool all, int64_t timeout_ns, int *status)
{
	int ret = SCHED_CALL(
	    dev, "wait", agx_sched_wait(dev->sched, points, count, all, timeout_ns, NULL, status));

	if (ret == -ETIMEDOUT)
		say("wait: timed out");
	return ret;
}
