/*
 * test-device: libagx's device API (agx/device.h) over the real stack:
 * what the device says it is, BOs mapped by each VM's allocator (guard
 * pages, the USC window), compute work built with agx/cmdbuf.h running in
 * the client's VM and read back, eight threads sharing one device, and
 * device loss -- a daemon killed under a client gives -ENODEV from every
 * call, no hang, and a new device works once the stack is back.
 */
#include <errno.h>
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include <cmocka.h>

#include "agx/cmdbuf.h"
#include "agx/device.h"
#include "asm.h"
#include "daemons.h"
#include "sanitized.h"
#include "stack.h"

#define WAIT_NS	 (10ll * 1000 * 1000 * 1000)
#define THREADS	 8
#define ROUNDS	 20
#define ELEMENTS 1000

/* out[i] = a[i] * 3 + b[i], i the thread's position in the grid (u0_u1 a, u2_u3 b, u4_u5 out) */
static const char kernel[] = "get_sr r1, sr80\n"
			     "device_load 0, i32, x, r2, u0_u1, r1, unsigned\n"
			     "device_load 0, i32, x, r3, u2_u3, r1, unsigned\n"
			     "wait 0\n"
			     "mov_imm r4, 3\n"
			     "imadd r2, r2, r4, r3\n"
			     "device_store 0, i32, x, r2, u4_u5, r1, unsigned, 0\n"
			     "stop";

static struct agx_device *open_device(const struct test_stack *s)
{
	struct agx_device_config config = { .memmgr_socket = s->memmgr,
					    .scheduler_socket = s->sched,
					    .name = "test-device" };
	struct agx_device *dev;
	int ret = agx_device_open(&config, &dev);

	if (ret < 0)
		fail_msg("agx_device_open: %s (%s)", strerror(-ret), agx_device_error());
	return dev;
}

/* A client's whole job: buffers, the kernel, one launch over n elements, its result checked. */
struct client {
	struct agx_device *dev;
	struct agx_device_vm *vm;
	struct agx_bo code, cmds, data;
	uint64_t code_va, cmds_va, data_va;
	uint32_t queue, syncobj;
	uint64_t point;
};

static int client_init(struct client *c, struct agx_device *dev)
{
	uint8_t code[256];
	int ret;

	memset(c, 0, sizeof(*c));
	c->dev = dev;
	if ((ret = agx_device_vm_create(dev, &c->vm)) < 0 ||
	    (ret = agx_device_bo_create(dev, 0x4000, 0, &c->code)) < 0 ||
	    (ret = agx_device_bo_create(dev, 0x4000, 0, &c->cmds)) < 0 ||
	    (ret = agx_device_bo_create(dev, 3 * 0x4000, 0, &c->data)) < 0 ||
	    (ret = agx_device_vm_map(dev, c->vm, &c->code,
				     AGX_BIND_READ | AGX_BIND_EXECUTE | AGX_MAP_USC, &c->code_va)) <
		0 ||
	    (ret = agx_device_vm_map(dev, c->vm, &c->cmds, AGX_BIND_READ | AGX_MAP_USC,
				     &c->cmds_va)) < 0 ||
	    (ret = agx_device_vm_map(dev, c->vm, &c->data, AGX_BIND_READ | AGX_BIND_WRITE,
				     &c->data_va)) < 0 ||
	    (ret = agx_device_queue_create(dev, c->vm, AGX_PRIORITY_NORMAL, &c->queue)) < 0 ||
	    (ret = agx_device_syncobj_create(dev, &c->syncobj)) < 0)
		return ret;
	memcpy(c->code.map, code, test_assemble(kernel, code, sizeof(code)));
	return 0;
}

static void client_fini(struct client *c)
{
	agx_device_bo_close(c->dev, &c->code);
	agx_device_bo_close(c->dev, &c->cmds);
	agx_device_bo_close(c->dev, &c->data);
	agx_device_vm_destroy(c->dev, c->vm);
}

/* One launch of the kernel over n elements (a multiple of 32), seeded by seed: 0 or an errno. */
static int client_run(struct client *c, unsigned n, uint32_t seed, int *status)
{
	uint32_t *a = c->data.map, *b = a + 0x1000, *out = a + 0x2000;
	struct agx_dispatch d = { .code_va = c->code_va,
				  .num_registers = 8,
				  .threadgroups = { n / 32, 1, 1 },
				  .local_size = { 32, 1, 1 } };
	struct agx_cmdbuf cb;
	struct agx_sched_cmd cmd = { .kind = AGX_SCHED_CMD_COMPUTE };
	struct agx_sched_point point;
	int ret;

	for (unsigned i = 0; i < n; i++) {
		a[i] = seed + i;
		b[i] = seed ^ (i * 7);
		out[i] = 0xdeadbeef;
	}
	agx_dispatch_set_address(&d, 0, c->data_va);
	agx_dispatch_set_address(&d, 2, c->data_va + 0x4000);
	agx_dispatch_set_address(&d, 4, c->data_va + 0x8000);
	if ((ret = agx_cmdbuf_init(&cb, c->cmds.map, c->cmds_va, c->cmds.size,
				   agx_device_info(c->dev)->usc_base)) < 0 ||
	    (ret = agx_cmdbuf_dispatch(&cb, &d)) < 0 ||
	    (ret = agx_cmdbuf_finish(&cb, &cmd.compute)) < 0)
		return ret;
	point = (struct agx_sched_point){ c->syncobj, ++c->point };
	ret = agx_device_submit(c->dev, c->queue, &cmd, 1, NULL, 0, &point, 1);
	if (ret < 0)
		return ret;
	ret = agx_device_wait(c->dev, &point, 1, true, WAIT_NS, status);
	if (ret < 0 || *status)
		return ret;
	for (unsigned i = 0; i < n; i++)
		if (out[i] != (seed + i) * 3 + (seed ^ (i * 7)))
			return -EBADMSG;
	return 0;
}

static void test_info(void **state)
{
	struct test_stack *s = *state;
	struct agx_device *dev = open_device(s);
	const struct agx_device_info *info = agx_device_info(dev);

	assert_int_equal(info->chip_id, 0x8103);
	assert_int_equal(info->generation, 13);
	assert_true(info->num_cores >= 1);
	assert_int_equal(info->page_size, 0x4000);
	assert_true(info->va_start < info->va_end);
	assert_true(info->usc_base == info->va_start);
	assert_true(info->memory_quota > 0);
	/* the device's INFO through agx-memmgr: agx-sim's limit as the stack set it, its rate */
	assert_int_equal(info->job_time_limit_ms, SANITIZED ? 100000 : 5000);
	assert_int_equal(info->fill_bytes_per_ms, 3200);
	assert_false(agx_device_is_lost(dev));
	agx_device_close(dev);
}

static void test_allocator(void **state)
{
	struct test_stack *s = *state;
	struct agx_device *dev = open_device(s);
	const struct agx_device_info *info = agx_device_info(dev);
	struct agx_device_vm *vm;
	struct agx_bo bo;
	uint64_t va[4];

	assert_int_equal(agx_device_vm_create(dev, &vm), 0);
	assert_int_equal(agx_device_bo_create(dev, 0x8000, 0, &bo), 0);
	assert_int_equal(agx_device_vm_map(dev, vm, &bo, AGX_BIND_READ | AGX_MAP_USC, &va[0]), 0);
	assert_int_equal(agx_device_vm_map(dev, vm, &bo, AGX_BIND_READ | AGX_MAP_USC, &va[1]), 0);
	assert_int_equal(agx_device_vm_map(dev, vm, &bo, AGX_BIND_READ, &va[2]), 0);
	/* USC mappings within 4 GiB of the base, the others above; a guard page between any two */
	assert_true(va[0] >= info->usc_base && va[1] + bo.size <= info->usc_base + (1ull << 32));
	assert_true(va[2] >= info->usc_base + (1ull << 32));
	assert_true(va[1] >= va[0] + bo.size + info->page_size);
	/* an unmapped range is reused, first fit */
	assert_int_equal(agx_device_vm_unmap(dev, vm, va[0]), 0);
	assert_int_equal(agx_device_vm_map(dev, vm, &bo, AGX_BIND_READ | AGX_MAP_USC, &va[3]), 0);
	assert_true(va[3] == va[0]);
	/* refusals say why */
	assert_int_equal(agx_device_vm_unmap(dev, vm, va[0] + 0x4000), -ENOENT);
	assert_non_null(strstr(agx_device_error(), "nothing is mapped"));
	assert_int_equal(agx_device_vm_map(dev, vm, &bo, AGX_MAP_USC, &va[3]), -EINVAL);
	assert_int_equal(agx_device_bo_close(dev, &bo), 0);
	agx_device_vm_destroy(dev, vm);
	agx_device_close(dev);
}

static void test_compute(void **state)
{
	struct test_stack *s = *state;
	struct agx_device *dev = open_device(s);
	struct client c;
	int status = -1;

	assert_int_equal(client_init(&c, dev), 0);
	assert_int_equal(client_run(&c, 256, 5, &status), 0);
	assert_int_equal(status, 0);
	assert_int_equal(client_run(&c, ELEMENTS / 32 * 32, 77, &status), 0);
	client_fini(&c);
	agx_device_close(dev);
}

struct thread {
	struct agx_device *dev;
	unsigned index;
	int result;
};

static void *thread_main(void *arg)
{
	struct thread *t = arg;
	struct client c;
	int status = 0;

	t->result = client_init(&c, t->dev);
	for (unsigned r = 0; r < ROUNDS && !t->result; r++) {
		t->result =
		    client_run(&c, 32 * (1 + (t->index + r) % 16), t->index * 1000 + r, &status);
		if (!t->result && status)
			t->result = status;
	}
	client_fini(&c);
	return NULL;
}

/* eight threads on one device, each with its own VM and queue */
static void test_threads(void **state)
{
	struct test_stack *s = *state;
	struct agx_device *dev = open_device(s);
	struct thread t[THREADS];
	pthread_t tid[THREADS];

	for (unsigned i = 0; i < THREADS; i++) {
		t[i] = (struct thread){ dev, i, 0 };
		assert_int_equal(pthread_create(&tid[i], NULL, thread_main, &t[i]), 0);
	}
	for (unsigned i = 0; i < THREADS; i++) {
		pthread_join(tid[i], NULL);
		if (t[i].result)
			fail_msg("thread %u: %s (%s)", i, strerror(-t[i].result),
				 agx_device_error());
	}
	agx_device_close(dev);
}

/* kill -9 of daemon `victim` under a client: -ENODEV from then on, then the stack again */
static void lose(struct test_stack *s, unsigned victim)
{
	struct agx_device *dev = open_device(s);
	struct agx_sched_point never;
	struct client c;
	struct agx_bo bo;
	int status = 0, ret;

	assert_int_equal(client_init(&c, dev), 0);
	assert_int_equal(client_run(&c, 64, 1, &status), 0);
	never = (struct agx_sched_point){ c.syncobj, 1000 };
	kill(s->pids[victim], SIGKILL);
	waitpid(s->pids[victim], NULL, 0);
	s->pids[victim] = 0;

	/* a wait on a point nobody will reach returns, and says the device is gone */
	if (victim != STACK_MEMMGR) {
		ret = agx_device_wait(dev, &never, 1, true, WAIT_NS, &status);
		assert_int_equal(ret, -ENODEV);
	}
	/* a call of each kind, until each knows: the first to find out marks the device */
	for (unsigned i = 0; i < 3 && !agx_device_is_lost(dev); i++) {
		client_run(&c, 64, 2, &status);
		agx_device_bo_create(dev, 0x4000, 0, &bo);
	}
	assert_true(agx_device_is_lost(dev));
	assert_int_equal(agx_device_bo_create(dev, 0x4000, 0, &bo), -ENODEV);
	assert_int_equal(client_run(&c, 64, 3, &status), -ENODEV);
	assert_int_equal(agx_device_wait(dev, &never, 1, true, WAIT_NS, &status), -ENODEV);
	assert_non_null(strstr(agx_device_error(), "device lost"));
	client_fini(&c);
	agx_device_close(dev);

	/* the rest of the stack may have followed its peer out; all of it comes back */
	test_stack_stop(s);
	test_stack_start(s, &test_stack_group_options);
	dev = open_device(s);
	assert_int_equal(client_init(&c, dev), 0);
	assert_int_equal(client_run(&c, 64, 4, &status), 0);
	client_fini(&c);
	agx_device_close(dev);
}

static void test_lost_scheduler(void **state)
{
	lose(*state, STACK_SCHEDULER);
}

static void test_lost_memmgr(void **state)
{
	lose(*state, STACK_MEMMGR);
}

static void test_lost_fwchan(void **state)
{
	lose(*state, STACK_FWCHAN);
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_info),	       cmocka_unit_test(test_allocator),
		cmocka_unit_test(test_compute),	       cmocka_unit_test(test_threads),
		cmocka_unit_test(test_lost_scheduler), cmocka_unit_test(test_lost_fwchan),
		cmocka_unit_test(test_lost_memmgr),
	};

	return test_stack_main(argc, argv, tests, sizeof(tests) / sizeof(tests[0]));
}
