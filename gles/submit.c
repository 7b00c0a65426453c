/*
 * submit.c: a context's GPU submission (submit.h) -- the VM, queue and
 * syncobj, the mapped BOs, a small ring of command buffers, and the
 * registry of every context's submission state that gles_submit_forget_bo
 * walks.
 */
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "context.h"
#include "image.h"
#include "objects.h"
#include "pass.h"
#include "submit.h"
#include "sync.h"

/* Jobs in flight at once, and each one's command buffer (pipelines and uniforms included). */
#define RING 4
/* glWaitSync's syncs the next submission waits for; more are waited for on the CPU */
#define MAX_WAITS   16
#define CMDBUF_SIZE (64u << 10)
/*
 * A job's render pass memory (agx/render.h: its stream, programs, state)
 * and the memory its draws read that the application keeps in client
 * memory (vertex arrays, indices) or that only the draw makes (texture
 * descriptors, constant attributes).  Made at the first draw; the upload
 * memory grows when one draw needs more.
 */
/*
 * A slot's pass memory (the render's words) and upload memory (vertex and
 * uniform data, descriptors), made as a slot first needs them: small at
 * first, so that a context that draws little holds little (an
 * application may have a thousand), and twice as large for the slots
 * after a pass that filled one, up to the most.
 */
#define PASS_SIZE_FIRST	  (256u << 10)
#define PASS_SIZE	  (2u << 20)
#define UPLOAD_SIZE_FIRST (256u << 10)
#define UPLOAD_SIZE	  (4u << 20)
/*
 * More than one launch takes in a command buffer: its stream words and
 * barrier, its uniforms (at most 256 words) and its pipeline.
 */
#define LAUNCH_ROOM 2048
/*
 * The share of the device's GPU time limit one job of clears may fill:
 * the firmware ends a job that runs past the limit and its work is lost
 * (four 1024x1024 RGBA8 clears in one job did that on agx-sim:
 * tests/gles/test-sync.c), so a job's clears are kept to a quarter of
 * what the device says it writes in that time.
 */
#define JOB_TIME_SHARE 4
/* Without a limit, or a fill rate, from the device: a job of a million words (as before). */
#define JOB_WORDS_DEFAULT (1u << 20)

/* 32-bit words of clears one job holds at most, by the device's INFO (agx/device.h). */
static uint64_t job_words(const struct agx_device_info *info)
{
	uint64_t words;

	if (!info->job_time_limit_ms || !info->fill_bytes_per_ms)
		return JOB_WORDS_DEFAULT;
	words = (uint64_t)info->job_time_limit_ms * info->fill_bytes_per_ms / 4 / JOB_TIME_SHARE;
	return words ? words : 1;
}

struct mapping {
	uint32_t handle;
	uint64_t va;
	bool surface; /* a drawable's BO: unmapped when the context stops being current */
};

struct cmdbuf_slot {
	struct agx_bo bo;
	uint64_t va;
	struct agx_bo pass, upload; /* size 0 until a draw needs them */
	uint64_t pass_va, upload_va;
	size_t upload_used;
	uint64_t point; /* the submission that last used it; 0: none */
};

struct gles_submit {
	struct gles_context *ctx;
	struct gles_submit *next; /* in the registry */
	bool ready;		  /* the device objects exist */
	int error;		  /* why they could not be made; then every call fails */
	struct agx_device *dev;
	struct agx_device_vm *vm;
	uint32_t queue, syncobj;
	/* the queue's robustness verdict, once it is not AGX_QUEUE_OK: a reset is for good */
	enum agx_queue_status reset;
	/* the slots' memory sizes now (they grow: gles_submit_grow), and whether uploads filled one
	 */
	size_t pass_size, upload_size;
	bool upload_full;
	/* what the next submission waits for (glWaitSync, eglWaitSync): references */
	struct gles_sync *waits[MAX_WAITS];
	unsigned num_waits;
	uint64_t submitted; /* the last point submitted (0: none) */
	struct agx_clear clear;
	struct cmdbuf_slot ring[RING];
	unsigned current; /* the ring slot being recorded */
	struct agx_cmdbuf cb;
	bool recording; /* cb is started */
	/*
	 * Current in some thread since it last recorded work: only that thread
	 * may flush it.  Recording happens where the context is current, and
	 * gles_submit_release clears it.
	 */
	bool bound;
	unsigned recorded; /* launches in cb */
	uint64_t words;	   /* words those launches clear (job_words() at most) */
	/* the slot's render pass, ended (gles_submit_render): the job's last command */
	bool has_render;
	struct agx_sched_render render;

	pthread_mutex_t lock; /* the mappings, and submitted (read by other contexts' forgets) */
	/*
	 * The last mapping map_bo found, kept by the thread that records into
	 * the context (every draw looks its vertex buffers up): valid while
	 * unmaps, which counts every unmapping (any thread, under lock), is
	 * hit_unmaps.  A BO a draw reads is referenced, so it is not unmapped
	 * under it; a handle is reused only after its BO's unmapping.
	 */
	uint32_t hit_handle;
	uint64_t hit_va;
	unsigned hit_unmaps;
	_Atomic unsigned unmaps;
	struct mapping *maps;
	unsigned num_maps, max_maps;
};

static pthread_mutex_t registry_lock = PTHREAD_MUTEX_INITIALIZER;
static struct gles_submit *registry;

int gles_submit_init(struct gles_context *ctx)
{
	struct gles_submit *s = calloc(1, sizeof(*s));

	if (!s)
		return -ENOMEM;
	s->ctx = ctx;
	s->dev = ctx->dev;
	s->pass_size = PASS_SIZE_FIRST;
	s->upload_size = UPLOAD_SIZE_FIRST;
	pthread_mutex_init(&s->lock, NULL);
	for (unsigned i = 0; i < RING; i++)
		s->ring[i].bo.fd = -1;
	pthread_mutex_lock(&registry_lock);
	s->next = registry;
	registry = s;
	pthread_mutex_unlock(&registry_lock);
	ctx->submit = s;
	return 0;
}

/* Waits until point (of s's syncobj) has passed; the work's failure is not ours to report. */
static int wait_point(struct gles_submit *s, uint64_t point)
{
	struct agx_sched_point p = { s->syncobj, point };
	int status = 0;

	if (!point)
		return 0;
	return agx_device_wait(s->dev, &p, 1, true, -1, &status);
}

/* The device objects, made at the first recorded work. */
static int make_ready(struct gles_submit *s)
{
	const struct agx_device_info *info;
	int ret;

	if (s->ready || s->error)
		return s->error;
	if (!s->dev)
		return s->error = -ENODEV;
	info = agx_device_info(s->dev);
	if ((ret = agx_device_vm_create(s->dev, &s->vm)) < 0)
		goto fail;
	if ((ret = agx_device_queue_create(s->dev, s->vm, AGX_PRIORITY_NORMAL, &s->queue)) < 0)
		goto fail_vm;
	if ((ret = agx_device_syncobj_create(s->dev, &s->syncobj)) < 0)
		goto fail_queue;
	for (unsigned i = 0; i < RING; i++) {
		struct cmdbuf_slot *c = &s->ring[i];
		uint64_t size =
		    (CMDBUF_SIZE + info->page_size - 1) / info->page_size * info->page_size;

		if ((ret = agx_device_bo_create(s->dev, size, 0, &c->bo)) < 0)
			goto fail_ring;
		if ((ret = agx_device_vm_map(s->dev, s->vm, &c->bo, AGX_BIND_READ | AGX_MAP_USC,
					     &c->va)) < 0) {
			agx_device_bo_close(s->dev, &c->bo);
			goto fail_ring;
		}
	}
	if ((ret = agx_clear_init(&s->clear, s->dev, s->vm)) < 0)
		goto fail_ring;
	s->ready = true;
	return 0;

fail_ring:
	for (unsigned i = 0; i < RING; i++)
		if (s->ring[i].bo.size)
			agx_device_bo_close(s->dev, &s->ring[i].bo);
	agx_device_syncobj_destroy(s->dev, s->syncobj);
fail_queue:
	agx_device_queue_destroy(s->dev, s->queue);
fail_vm:
	agx_device_vm_destroy(s->dev, s->vm);
fail:
	fprintf(stderr, "libEGL_agx: no GPU submission for a context: %s\n", agx_device_error());
	s->error = ret;
	return ret;
}

/* The VA of bo in s's VM, mapping it (read-write) the first time. */
static int map_bo(struct gles_submit *s, const struct agx_bo *bo, bool surface, uint64_t *va)
{
	struct mapping *m;
	int ret = 0;

	if (bo->handle && bo->handle == s->hit_handle &&
	    atomic_load_explicit(&s->unmaps, memory_order_acquire) == s->hit_unmaps) {
		*va = s->hit_va;
		return 0;
	}
	pthread_mutex_lock(&s->lock);
	for (unsigned i = 0; i < s->num_maps; i++)
		if (s->maps[i].handle == bo->handle) {
			*va = s->maps[i].va;
			goto hit;
		}
	if (s->num_maps == s->max_maps) {
		unsigned n = s->max_maps ? 2 * s->max_maps : 16;

		m = realloc(s->maps, n * sizeof(*m));
		if (!m) {
			ret = -ENOMEM;
			goto out;
		}
		s->maps = m;
		s->max_maps = n;
	}
	ret = agx_device_vm_map(s->dev, s->vm, bo, AGX_BIND_READ | AGX_BIND_WRITE, va);
	if (ret < 0)
		goto out;
	s->maps[s->num_maps++] = (struct mapping){ bo->handle, *va, surface };
hit:
	s->hit_handle = bo->handle;
	s->hit_va = *va;
	s->hit_unmaps = atomic_load_explicit(&s->unmaps, memory_order_relaxed);
out:
	pthread_mutex_unlock(&s->lock);
	return ret;
}

/* Unmaps the mappings that match (all of them, or the surfaces' only, or one handle). */
static void unmap_locked(struct gles_submit *s, bool all, bool surfaces, uint32_t handle)
{
	for (unsigned i = 0; i < s->num_maps;) {
		struct mapping *m = &s->maps[i];

		if (all || (surfaces && m->surface) || (!surfaces && m->handle == handle)) {
			/* map_bo's last hit is stale from here on */
			atomic_fetch_add_explicit(&s->unmaps, 1, memory_order_release);
			agx_device_vm_unmap(s->dev, s->vm, m->va);
			*m = s->maps[--s->num_maps];
		} else {
			i++;
		}
	}
}

/* Starts recording in the next ring slot, once the GPU is done with what it held. */
static int begin(struct gles_submit *s)
{
	struct cmdbuf_slot *c;
	int ret;

	if (s->recording)
		return 0;
	s->current = (s->current + 1) % RING;
	c = &s->ring[s->current];
	if ((ret = wait_point(s, c->point)) < 0)
		return ret;
	ret = agx_cmdbuf_init(&s->cb, c->bo.map, c->va, c->bo.size,
			      agx_device_info(s->dev)->usc_base);
	if (ret < 0)
		return ret;
	s->recording = true;
	s->recorded = 0;
	s->words = 0;
	s->has_render = false;
	c->upload_used = 0;
	return 0;
}

static void drop_waits(struct gles_submit *s)
{
	for (unsigned i = 0; i < s->num_waits; i++)
		gles_sync_unref(s->waits[i]);
	s->num_waits = 0;
}

/* The waits no submission took, on the CPU: a CPU read of the context's results comes after them.
 */
static void drain_waits(struct gles_submit *s)
{
	for (unsigned i = 0; i < s->num_waits; i++)
		gles_sync_wait(s->waits[i], -1);
	drop_waits(s);
}

int gles_submit_add_wait(struct gles_context *ctx, struct gles_sync *sync)
{
	struct gles_submit *s = ctx->submit;

	if (s->num_waits == MAX_WAITS)
		return -ENOSPC;
	s->waits[s->num_waits++] = gles_sync_ref(sync);
	return 0;
}

uint32_t gles_submit_syncobj(struct gles_context *ctx)
{
	struct gles_submit *s = ctx->submit;

	return s && s->ready ? s->syncobj : 0;
}

/*
 * Hands the slot's job over: its clears, then its render pass (an open
 * one is ended first: gles_pass_end gives it back through
 * gles_submit_render).
 */
static int flush(struct gles_submit *s)
{
	struct agx_sched_cmd cmds[2];
	struct agx_sched_point point, waits[MAX_WAITS];
	bool held[MAX_WAITS];
	unsigned n = 0, num_waits;
	int ret;

	if (!s->recording)
		return 0;
	if (gles_pass_is_open(s->ctx) && (ret = gles_pass_end(s->ctx)) < 0)
		fprintf(stderr, "libEGL_agx: a render pass could not be ended: %d\n", ret);
	s->recording = false;
	if (s->recorded) {
		cmds[n].kind = AGX_SCHED_CMD_COMPUTE;
		if ((ret = agx_cmdbuf_finish(&s->cb, &cmds[n].compute)) < 0)
			return ret;
		n++;
	}
	if (s->has_render)
		cmds[n++] = agx_sched_cmd_render(s->render);
	s->has_render = false;
	if (!n)
		return 0;
	num_waits = gles_sync_points_hold(s->waits, s->num_waits, s->dev, waits, held);
	pthread_mutex_lock(&s->lock);
	point = (struct agx_sched_point){ s->syncobj, s->submitted + 1 };
	/* -EBUSY: the queue is full; what we submitted last finishing makes room */
	while ((ret = agx_device_submit(s->dev, s->queue, cmds, n, num_waits ? waits : NULL,
					num_waits, &point, 1)) == -EBUSY) {
		pthread_mutex_unlock(&s->lock);
		ret = wait_point(s, s->submitted);
		pthread_mutex_lock(&s->lock);
		if (ret < 0)
			break;
	}
	if (ret == 0) {
		s->submitted = point.value;
		s->ring[s->current].point = point.value;
	}
	pthread_mutex_unlock(&s->lock);
	gles_sync_points_release(s->waits, s->num_waits, held);
	/* the submission waits for them now, and so does all that follows it */
	if (ret == 0)
		drop_waits(s);
	if (ret < 0)
		fprintf(stderr, "libEGL_agx: a submission failed: %s\n", agx_device_error());
	return ret;
}

int gles_submit_reset_status(struct gles_context *ctx, enum agx_queue_status *status)
{
	struct gles_submit *s = ctx->submit;
	int ret;

	*status = s->reset;
	/* a context that never submitted has no queue to have lost */
	if (s->reset != AGX_QUEUE_OK || !s->ready)
		return 0;
	if ((ret = agx_device_queue_status(s->dev, s->queue, status)) < 0) {
		/* the scheduler gone: the device with it (agx/device.h) */
		*status = AGX_QUEUE_DEVICE_LOST;
	}
	s->reset = *status;
	return ret < 0 ? ret : 0;
}

/* A BO of at least size bytes mapped in s's VM with flags. */
static int slot_bo(struct gles_submit *s, size_t size, unsigned flags, struct agx_bo *bo,
		   uint64_t *va)
{
	uint64_t page = agx_device_info(s->dev)->page_size;
	int ret;

	size = (size + page - 1) / page * page;
	if ((ret = agx_device_bo_create(s->dev, size, 0, bo)) < 0)
		return ret;
	if ((ret = agx_device_vm_map(s->dev, s->vm, bo, flags, va)) < 0) {
		agx_device_bo_close(s->dev, bo);
		bo->size = 0;
	}
	return ret;
}

static void slot_bo_free(struct gles_submit *s, struct agx_bo *bo, uint64_t va)
{
	if (!bo->size)
		return;
	agx_device_vm_unmap(s->dev, s->vm, va);
	agx_device_bo_close(s->dev, bo);
	bo->size = 0;
}

int gles_submit_clear(struct gles_context *ctx, const struct gles_image *img, unsigned level,
		      unsigned layer, const struct agx_clear_rect *rect, const uint8_t *value,
		      const uint8_t *mask)
{
	struct gles_submit *s = ctx->submit;
	struct agx_clear_image target = { 0, &img->layout, level, layer };
	uint64_t row_words, budget;
	unsigned rows;
	int ret;

	if ((ret = make_ready(s)) < 0)
		return ret;
	s->bound = true;
	/* a drawable's view has no device of its own: the surface owns the BO */
	if ((ret = map_bo(s, &img->bo, img->dev == NULL, &target.va)) < 0)
		return ret;
	target.va += img->offset;
	/* a clear after draws of the slot's pass: the pass goes first */
	if (gles_pass_is_open(ctx) && (ret = flush(s)) < 0)
		return ret;
	if ((ret = begin(s)) < 0)
		return ret;
	/*
	 * In bands of rows that keep each job within job_words(); a full
	 * command buffer, or a job that would go past that, is handed over
	 * first, so a launch never fails for room.
	 */
	row_words = ((uint64_t)rect->width * img->layout.bytes_per_texel + 3) / 4;
	budget = job_words(agx_device_info(s->dev));
	rows = row_words
		   ? (unsigned)(budget / row_words < UINT32_MAX ? budget / row_words : UINT32_MAX)
		   : rect->height;
	rows = rows ? rows : 1;
	for (unsigned y = 0; y < rect->height && ret == 0; y += rows) {
		struct agx_clear_rect band = { rect->x, rect->y + y, rect->width,
					       rect->height - y < rows ? rect->height - y : rows };
		uint64_t words = row_words * band.height;

		if (s->cb.tail - s->cb.head < LAUNCH_ROOM ||
		    (s->recorded && s->words + words > budget)) {
			if ((ret = flush(s)) < 0 || (ret = begin(s)) < 0)
				return ret;
		}
		ret = agx_clear_record(&s->clear, &s->cb, &target, &band, value, mask);
		if (ret == 0) {
			s->recorded++;
			s->words += words;
		}
	}
	return ret;
}

int gles_submit_map(struct gles_context *ctx, const struct agx_bo *bo, bool surface, uint64_t *va)
{
	struct gles_submit *s = ctx->submit;
	int ret;

	if ((ret = make_ready(s)) < 0)
		return ret;
	s->bound = true;
	return map_bo(s, bo, surface, va);
}

int gles_submit_bo(struct gles_context *ctx, size_t size, unsigned flags, struct agx_bo *bo,
		   uint64_t *va)
{
	struct gles_submit *s = ctx->submit;
	int ret;

	if ((ret = make_ready(s)) < 0)
		return ret;
	return slot_bo(s, size, flags, bo, va);
}

void gles_submit_bo_free(struct gles_context *ctx, struct agx_bo *bo, uint64_t va)
{
	slot_bo_free(ctx->submit, bo, va);
}

int gles_submit_pass_memory(struct gles_context *ctx, void **map, uint64_t *va, size_t *size,
			    uint64_t *tvb, uint32_t *tvb_size)
{
	struct gles_submit *s = ctx->submit;
	struct cmdbuf_slot *c;
	int ret;

	if ((ret = make_ready(s)) < 0)
		return ret;
	s->bound = true;
	/* a slot holds one pass: one ended in this slot goes to the GPU first */
	if (s->has_render && (ret = flush(s)) < 0)
		return ret;
	if ((ret = begin(s)) < 0)
		return ret;
	c = &s->ring[s->current];
	/* the slot's work has run (begin waited for it): a smaller BO goes for a larger one */
	if (c->pass.size && c->pass.size < s->pass_size)
		slot_bo_free(s, &c->pass, c->pass_va);
	if (!c->pass.size &&
	    (ret = slot_bo(s, s->pass_size, AGX_BIND_READ | AGX_BIND_EXECUTE | AGX_MAP_USC,
			   &c->pass, &c->pass_va)) < 0)
		return ret;
	if ((ret = agx_device_queue_tvb(s->dev, s->queue, tvb, tvb_size)) < 0)
		return ret;
	*map = c->pass.map;
	*va = c->pass_va;
	*size = c->pass.size;
	return 0;
}

int gles_submit_upload(struct gles_context *ctx, size_t size, size_t align, void **map,
		       uint64_t *va)
{
	struct gles_submit *s = ctx->submit;
	struct cmdbuf_slot *c;
	size_t at;
	int ret;

	if ((ret = make_ready(s)) < 0)
		return ret;
	if ((ret = begin(s)) < 0)
		return ret;
	c = &s->ring[s->current];
	align = align < 16 ? 16 : align;
	at = (c->upload_used + align - 1) / align * align;
	if (c->upload.size && at + size <= c->upload.size)
		goto out;
	/* full: the caller ends its pass and asks again in the next slot */
	if (c->upload_used) {
		s->upload_full = true;
		return -ENOSPC;
	}
	/* an empty slot's memory is made, or grown to what one draw needs */
	slot_bo_free(s, &c->upload, c->upload_va);
	if ((ret = slot_bo(s, size > s->upload_size ? size : s->upload_size,
			   AGX_BIND_READ | AGX_BIND_WRITE, &c->upload, &c->upload_va)) < 0)
		return ret;
	at = 0;
out:
	c->upload_used = at + size;
	*map = (uint8_t *)c->upload.map + at;
	*va = c->upload_va + at;
	return 0;
}

void gles_submit_render(struct gles_context *ctx, const struct agx_sched_render *render)
{
	struct gles_submit *s = ctx->submit;

	s->render = *render;
	s->has_render = true;
}

int gles_submit_next(struct gles_context *ctx)
{
	return flush(ctx->submit);
}

void gles_submit_grow(struct gles_context *ctx)
{
	struct gles_submit *s = ctx->submit;

	if (s->upload_full)
		s->upload_size =
		    s->upload_size * 2 > UPLOAD_SIZE ? UPLOAD_SIZE : s->upload_size * 2;
	else
		s->pass_size = s->pass_size * 2 > PASS_SIZE ? PASS_SIZE : s->pass_size * 2;
	s->upload_full = false;
}

int gles_submit_flush(struct gles_context *ctx)
{
	struct gles_submit *s = ctx->submit;

	return s && s->ready ? flush(s) : 0;
}

int gles_submit_wait(struct gles_context *ctx)
{
	struct gles_submit *s = ctx->submit;
	int ret;

	if (!s)
		return 0;
	if (!s->ready) {
		drain_waits(s);
		return 0;
	}
	ret = flush(s);
	if (ret == 0)
		ret = wait_point(s, s->submitted);
	drain_waits(s);
	return ret;
}

int gles_submit_fence(struct gles_context *ctx, uint32_t *syncobj, uint64_t *point)
{
	struct gles_submit *s = ctx->submit;
	int ret;

	*syncobj = 0;
	*point = 0;
	if (!s || !s->ready)
		return 0;
	ret = flush(s);
	pthread_mutex_lock(&s->lock);
	*syncobj = s->syncobj;
	*point = s->submitted;
	pthread_mutex_unlock(&s->lock);
	return ret;
}

void gles_submit_release(struct gles_context *ctx)
{
	struct gles_submit *s = ctx->submit;

	if (!s || !s->ready)
		return;
	gles_submit_wait(ctx);
	pthread_mutex_lock(&s->lock);
	unmap_locked(s, false, true, 0);
	pthread_mutex_unlock(&s->lock);
	s->bound = false;
}

/*
 * Every context that mapped bo hands over the work it recorded, waits for
 * all it submitted, and (unmap) unmaps it.
 */
static void settle_bo(struct agx_device *dev, const struct agx_bo *bo, bool unmap)
{
	struct gles_context *self = gles_current();

	pthread_mutex_lock(&registry_lock);
	for (struct gles_submit *s = registry; s; s = s->next) {
		bool mapped = false;
		uint64_t point;

		if (s->dev != dev || !s->ready)
			continue;
		/*
		 * Recorded work may use it: hand that over first -- the calling
		 * thread's own context, or one current nowhere (a context being
		 * destroyed frees its objects so), which no other thread records into.
		 */
		if (s->ctx == self || !s->bound)
			flush(s);
		pthread_mutex_lock(&s->lock);
		for (unsigned i = 0; i < s->num_maps; i++)
			mapped |= s->maps[i].handle == bo->handle;
		point = s->submitted;
		pthread_mutex_unlock(&s->lock);
		if (!mapped)
			continue;
		wait_point(s, point);
		if (!unmap)
			continue;
		pthread_mutex_lock(&s->lock);
		unmap_locked(s, false, false, bo->handle);
		pthread_mutex_unlock(&s->lock);
	}
	pthread_mutex_unlock(&registry_lock);
}

void gles_submit_forget_bo(struct agx_device *dev, const struct agx_bo *bo)
{
	settle_bo(dev, bo, true);
}

void gles_submit_cpu_access(struct agx_device *dev, const struct agx_bo *bo)
{
	settle_bo(dev, bo, false);
}

void gles_submit_finish(struct gles_context *ctx)
{
	struct gles_submit *s = ctx->submit;

	if (!s)
		return;
	pthread_mutex_lock(&registry_lock);
	for (struct gles_submit **p = &registry; *p; p = &(*p)->next)
		if (*p == s) {
			*p = s->next;
			break;
		}
	pthread_mutex_unlock(&registry_lock);
	if (s->ready) {
		flush(s);
		wait_point(s, s->submitted);
		pthread_mutex_lock(&s->lock);
		unmap_locked(s, true, false, 0);
		pthread_mutex_unlock(&s->lock);
		agx_clear_finish(&s->clear);
		for (unsigned i = 0; i < RING; i++) {
			agx_device_bo_close(s->dev, &s->ring[i].bo);
			slot_bo_free(s, &s->ring[i].pass, s->ring[i].pass_va);
			slot_bo_free(s, &s->ring[i].upload, s->ring[i].upload_va);
		}
		gles_pass_context_finish(ctx);
		agx_device_syncobj_destroy(s->dev, s->syncobj);
		agx_device_queue_destroy(s->dev, s->queue);
		agx_device_vm_destroy(s->dev, s->vm);
	}
	drop_waits(s);
	pthread_mutex_destroy(&s->lock);
	free(s->maps);
	free(s);
	ctx->submit = NULL;
}
