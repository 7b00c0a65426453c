/*
 * test-e2e: compute jobs end to end.  A GLSL ES kernel compiled by libagx's
 * compiler (and the same by the agxc program), submitted by client
 * processes through agx-scheduler, agx-fwchan and agx-sim, runs in each
 * client's own VM and writes a BO the client reads once the fence signals:
 *   - one job, its result checked, agxc's binary the same as the library's;
 *   - 100 client processes x 100 jobs of random sizes, every result right
 *     (20 x 20 in the sanitizer build);
 *   - a kernel reading another client's address faults, and only its own
 *     queue suffers;
 *   - each daemon killed in turn under running clients: they see the device
 *     lost (no hang, no crash), `agx-stack up` brings the stack back, and a
 *     new client works.
 *
 * Arguments: AGX-STACK AGXC.  The stack runs in a state directory of the
 * test's own (AGX_RUNTIME_DIR), started and stopped by agx-stack.
 */
#include <errno.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "sanitized.h"

#include "agx/cmdbuf.h"
#include "agx/compiler.h"
#include "agx/device.h"

#define WAIT_NS	     (30ll * 1000 * 1000 * 1000)
#define MAX_ELEMENTS 4096
/*
 * 100 clients x 100 jobs in the normal build; the sanitizer build, whose
 * agx-sim runs the kernels some twenty times slower, checks the same with
 * 20 x 20 (its point is memory errors, which these find as well).
 */
#define CLIENTS (SANITIZED ? 20 : 100)
#define JOBS	(SANITIZED ? 20 : 100)
#define RUNNERS 4 /* clients running while a daemon is killed */

static const char *stack_path, *agxc_path;
static char state_dir[64];
static struct agx_shader_binary kernel;

/* b[i] = a[i] * k + i for the first n elements */
static const char kernel_source[] =
    "#version 310 es\n"
    "layout(local_size_x = 64) in;\n"
    "layout(std430, binding = 0) readonly buffer In { uint a[]; };\n"
    "layout(std430, binding = 1) writeonly buffer Out { uint b[]; };\n"
    "uniform uint n;\n"
    "uniform uint k;\n"
    "void main()\n"
    "{\n"
    "	uint i = gl_GlobalInvocationID.x;\n"
    "	if (i < n)\n"
    "		b[i] = a[i] * k + i;\n"
    "}\n";

/* ---- the stack, through agx-stack ------------------------------------------------------ */

static int stack(const char *cmd)
{
	char line[512];

	snprintf(line, sizeof(line), "AGX_RUNTIME_DIR=%s %s %s >/dev/null 2>&1", state_dir,
		 stack_path, cmd);
	return system(line);
}

static pid_t pid_of(const char *daemon)
{
	char path[128];
	FILE *f;
	long pid = 0;

	snprintf(path, sizeof(path), "%s/%s.pid", state_dir, daemon);
	f = fopen(path, "r");
	if (f) {
		if (fscanf(f, "%ld", &pid) != 1)
			pid = 0;
		fclose(f);
	}
	return (pid_t)pid;
}

static struct agx_device *open_device(void)
{
	char memmgr[128], sched[128];
	struct agx_device_config config = { .memmgr_socket = memmgr,
					    .scheduler_socket = sched,
					    .name = "test-e2e" };
	struct agx_device *dev = NULL;

	snprintf(memmgr, sizeof(memmgr), "%s/memmgr.sock", state_dir);
	snprintf(sched, sizeof(sched), "%s/scheduler.sock", state_dir);
	if (agx_device_open(&config, &dev) < 0)
		return NULL;
	return dev;
}

/* ---- a client ---------------------------------------------------------------------------- */

struct client {
	struct agx_device *dev;
	struct agx_device_vm *vm;
	struct agx_bo code, cmds, in, out;
	uint64_t code_va, cmds_va, in_va, out_va;
	uint32_t queue, syncobj;
	uint64_t point;
};

static int client_open(struct client *c)
{
	int ret;

	memset(c, 0, sizeof(*c));
	c->dev = open_device();
	if (!c->dev)
		return -ENODEV;
	if ((ret = agx_device_vm_create(c->dev, &c->vm)) < 0 ||
	    (ret = agx_device_bo_create(c->dev, 0x4000, 0, &c->code)) < 0 ||
	    (ret = agx_device_bo_create(c->dev, 0x4000, 0, &c->cmds)) < 0 ||
	    (ret = agx_device_bo_create(c->dev, 4 * MAX_ELEMENTS, 0, &c->in)) < 0 ||
	    (ret = agx_device_bo_create(c->dev, 4 * MAX_ELEMENTS, 0, &c->out)) < 0 ||
	    (ret = agx_device_vm_map(c->dev, c->vm, &c->code,
				     AGX_BIND_READ | AGX_BIND_EXECUTE | AGX_MAP_USC, &c->code_va)) <
		0 ||
	    (ret = agx_device_vm_map(c->dev, c->vm, &c->cmds, AGX_BIND_READ | AGX_MAP_USC,
				     &c->cmds_va)) < 0 ||
	    (ret = agx_device_vm_map(c->dev, c->vm, &c->in, AGX_BIND_READ, &c->in_va)) < 0 ||
	    (ret = agx_device_vm_map(c->dev, c->vm, &c->out, AGX_BIND_READ | AGX_BIND_WRITE,
				     &c->out_va)) < 0 ||
	    (ret = agx_device_queue_create(c->dev, c->vm, AGX_PRIORITY_NORMAL, &c->queue)) < 0 ||
	    (ret = agx_device_syncobj_create(c->dev, &c->syncobj)) < 0)
		return ret;
	memcpy(c->code.map, kernel.code, kernel.size);
	return 0;
}

static void client_close(struct client *c)
{
	struct agx_bo *bos[] = { &c->code, &c->cmds, &c->in, &c->out };

	if (!c->dev)
		return;
	for (unsigned i = 0; i < 4; i++)
		if (bos[i]->map)
			agx_device_bo_close(c->dev, bos[i]);
	agx_device_vm_destroy(c->dev, c->vm);
	agx_device_close(c->dev);
	c->dev = NULL;
}

static bool set_uniform(struct agx_dispatch *d, const char *name, uint32_t value)
{
	for (unsigned i = 0; i < kernel.info.num_vars; i++) {
		const struct agx_shader_var *v = &kernel.info.vars[i];

		if (v->kind == AGX_SHADER_UNIFORM && !strcmp(v->name, name) && v->uniform >= 0) {
			d->uniforms[v->uniform] = value;
			if (d->num_uniforms < (unsigned)v->uniform + 1)
				d->num_uniforms = (unsigned)v->uniform + 1;
			return true;
		}
	}
	return false;
}

static int buffer_uniform(unsigned binding)
{
	for (unsigned i = 0; i < kernel.info.num_vars; i++) {
		const struct agx_shader_var *v = &kernel.info.vars[i];

		if (v->kind == AGX_SHADER_STORAGE_BLOCK && v->binding == binding)
			return v->uniform;
	}
	return -1;
}

/*
 * One job over n elements reading a at in_va (this client's, or not):
 * 0 with *status the job's result, or the call's error.
 */
static int client_job(struct client *c, unsigned n, uint32_t k, uint64_t in_va, int *status)
{
	struct agx_dispatch d = { .code_va = c->code_va,
				  .num_registers = kernel.info.num_registers,
				  .scratch_size = kernel.info.scratch_size,
				  .threadgroups = { (n + 63) / 64, 1, 1 },
				  .local_size = { 64, 1, 1 } };
	struct agx_cmdbuf cb;
	struct agx_sched_cmd cmd = { .kind = AGX_SCHED_CMD_COMPUTE };
	struct agx_sched_point point;
	int in = buffer_uniform(0), out = buffer_uniform(1), ret;

	if (in < 0 || out < 0 || !set_uniform(&d, "n", n) || !set_uniform(&d, "k", k))
		return -EINVAL;
	agx_dispatch_set_address(&d, (unsigned)in, in_va);
	agx_dispatch_set_address(&d, (unsigned)out, c->out_va);
	if (d.num_uniforms < kernel.info.num_uniforms)
		d.num_uniforms = kernel.info.num_uniforms;
	if ((ret = agx_cmdbuf_init(&cb, c->cmds.map, c->cmds_va, c->cmds.size,
				   agx_device_info(c->dev)->usc_base)) < 0 ||
	    (ret = agx_cmdbuf_dispatch(&cb, &d)) < 0 ||
	    (ret = agx_cmdbuf_finish(&cb, &cmd.compute)) < 0)
		return ret;
	point = (struct agx_sched_point){ c->syncobj, ++c->point };
	ret = agx_device_submit(c->dev, c->queue, &cmd, 1, NULL, 0, &point, 1);
	if (ret < 0)
		return ret;
	return agx_device_wait(c->dev, &point, 1, true, WAIT_NS, status);
}

/* A job on this client's own buffers, its result checked: 0, -EBADMSG, or an error. */
static int checked_job(struct client *c, unsigned n, uint32_t k)
{
	uint32_t *a = c->in.map, *b = c->out.map;
	int status = 0, ret;

	for (unsigned i = 0; i < MAX_ELEMENTS; i++) {
		a[i] = k * 7919u + i * 31u;
		b[i] = 0xdeadbeef;
	}
	ret = client_job(c, n, k, c->in_va, &status);
	if (ret < 0)
		return ret;
	if (status)
		return status;
	for (unsigned i = 0; i < MAX_ELEMENTS; i++) {
		uint32_t want = i < n ? a[i] * k + i : 0xdeadbeef;

		if (b[i] != want) {
			fprintf(stderr, "# element %u of %u: %#x, not %#x\n", i, n, b[i], want);
			return -EBADMSG;
		}
	}
	return 0;
}

/* ---- the tests ------------------------------------------------------------------------ */

static void test_one_job(void **state)
{
	struct client c;
	char cmd[512], bin[96];
	FILE *f;
	uint8_t *theirs;
	long size;

	(void)state;
	assert_int_equal(client_open(&c), 0);
	assert_int_equal(checked_job(&c, 1000, 3), 0);
	assert_int_equal(checked_job(&c, 1, 5), 0);
	assert_int_equal(checked_job(&c, MAX_ELEMENTS, 0xffffffffu), 0);
	client_close(&c);

	/* agxc makes the same machine code from the same source */
	snprintf(bin, sizeof(bin), "%s/kernel.bin", state_dir);
	snprintf(cmd, sizeof(cmd), "%s/kernel.comp", state_dir);
	f = fopen(cmd, "w");
	assert_non_null(f);
	fputs(kernel_source, f);
	fclose(f);
	snprintf(cmd, sizeof(cmd), "%s -o %s %s/kernel.comp", agxc_path, bin, state_dir);
	assert_int_equal(system(cmd), 0);
	f = fopen(bin, "rb");
	assert_non_null(f);
	fseek(f, 0, SEEK_END);
	size = ftell(f);
	fseek(f, 0, SEEK_SET);
	assert_int_equal(size, kernel.size);
	theirs = malloc((size_t)size);
	assert_int_equal(fread(theirs, 1, (size_t)size, f), (size_t)size);
	fclose(f);
	assert_memory_equal(theirs, kernel.code, kernel.size);
	free(theirs);
}

/* a client process's jobs of random sizes: its exit status says how they went */
static int many_jobs(unsigned index)
{
	struct client c;
	unsigned seed = index * 2654435761u;
	int ret = client_open(&c);

	for (unsigned j = 0; j < JOBS && ret == 0; j++) {
		seed = seed * 1103515245u + 12345u;
		ret = checked_job(&c, 1 + (seed >> 8) % MAX_ELEMENTS, seed);
	}
	if (ret < 0)
		fprintf(stderr, "# client %u: %s (%s)\n", index, strerror(-ret),
			agx_device_error());
	client_close(&c);
	return ret == 0 ? 0 : ret == -EBADMSG ? 3 : 2;
}

static void test_many_clients(void **state)
{
	pid_t pids[CLIENTS];
	unsigned bad = 0, wrong = 0;

	(void)state;
	for (unsigned i = 0; i < CLIENTS; i++) {
		pids[i] = fork();
		assert_true(pids[i] >= 0);
		if (pids[i] == 0)
			_exit(many_jobs(i));
	}
	for (unsigned i = 0; i < CLIENTS; i++) {
		int status = 0;

		assert_int_equal(waitpid(pids[i], &status, 0), pids[i]);
		if (!WIFEXITED(status) || WEXITSTATUS(status) == 2)
			bad++;
		else if (WEXITSTATUS(status) == 3)
			wrong++;
	}
	if (bad || wrong)
		fail_msg("%u of %u clients failed, %u read wrong results", bad, CLIENTS, wrong);
}

/* a kernel that reads another client's address faults in its own VM only */
static void test_isolation(void **state)
{
	struct client victim, thief;
	struct agx_bo secret;
	uint64_t secret_va;
	int status = 0;
	enum agx_queue_status qs;

	(void)state;
	assert_int_equal(client_open(&victim), 0);
	assert_int_equal(client_open(&thief), 0);
	/* the victim's secret lies where the thief's VM has nothing */
	assert_int_equal(agx_device_bo_create(victim.dev, 0x4000, 0, &secret), 0);
	memset(secret.map, 0x5a, secret.size);
	assert_int_equal(
	    agx_device_vm_map(victim.dev, victim.vm, &secret, AGX_BIND_READ, &secret_va), 0);
	assert_true(secret_va != thief.in_va && secret_va != thief.out_va);
	assert_int_equal(checked_job(&victim, 512, 9), 0);

	assert_int_equal(client_job(&thief, 512, 1, secret_va, &status), 0);
	assert_int_equal(status, -EFAULT);
	assert_int_equal(agx_device_queue_status(thief.dev, thief.queue, &qs), 0);
	assert_int_equal(qs, AGX_QUEUE_GUILTY_RESET);
	/* nothing of the secret reached the thief's buffer */
	for (unsigned i = 0; i < 512; i++)
		assert_int_not_equal(((uint32_t *)thief.out.map)[i], 0x5a5a5a5au);
	/* the victim goes on, its secret as it was */
	assert_int_equal(agx_device_queue_status(victim.dev, victim.queue, &qs), 0);
	assert_int_equal(qs, AGX_QUEUE_OK);
	assert_int_equal(checked_job(&victim, 4096, 11), 0);
	for (unsigned i = 0; i < secret.size; i++)
		assert_int_equal(((uint8_t *)secret.map)[i], 0x5a);
	agx_device_bo_close(victim.dev, &secret);
	client_close(&thief);
	client_close(&victim);
}

/* a client that runs jobs until one fails: exit 0 if that was the device going away */
static int runner(void)
{
	struct client c;
	int ret = client_open(&c);
	unsigned k = 1;

	if (ret < 0)
		return 2;
	while ((ret = checked_job(&c, 2048, k++)) == 0)
		;
	/* a job that raced the kill may fail as aborted; the device is lost all the same */
	if (ret == -EBADMSG)
		return 3;
	ret = agx_device_is_lost(c.dev) || ret == -ENODEV ? 0 : 4;
	client_close(&c);
	return ret;
}

static void kill_under_clients(const char *daemon)
{
	pid_t pids[RUNNERS], victim = pid_of(daemon);
	struct client c;

	assert_true(victim > 0);
	for (unsigned i = 0; i < RUNNERS; i++) {
		pids[i] = fork();
		assert_true(pids[i] >= 0);
		if (pids[i] == 0)
			_exit(runner());
	}
	usleep(200 * 1000); /* they are running jobs */
	assert_int_equal(kill(victim, SIGKILL), 0);
	for (unsigned i = 0; i < RUNNERS; i++) {
		int status = 0;
		pid_t got = 0;

		/* each must notice within the wait's bound: no hang */
		for (int t = 0; t < 600 && (got = waitpid(pids[i], &status, WNOHANG)) == 0; t++)
			usleep(100 * 1000);
		if (got == 0) {
			kill(pids[i], SIGKILL);
			waitpid(pids[i], &status, 0);
			fail_msg("a client hung after %s was killed", daemon);
		}
		if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
			fail_msg("a client %s after %s was killed (status %#x)",
				 WIFSIGNALED(status) ? "crashed" : "failed badly", daemon, status);
	}
	assert_int_equal(stack("up"), 0);
	assert_int_equal(client_open(&c), 0);
	assert_int_equal(checked_job(&c, 777, 2), 0);
	client_close(&c);
}

static void test_kill_scheduler(void **state)
{
	(void)state;
	kill_under_clients("scheduler");
}

static void test_kill_fwchan(void **state)
{
	(void)state;
	kill_under_clients("fwchan");
}

static void test_kill_memmgr(void **state)
{
	(void)state;
	kill_under_clients("memmgr");
}

static void test_kill_sim(void **state)
{
	(void)state;
	kill_under_clients("sim");
}

static int setup(void **state)
{
	(void)state;
	snprintf(state_dir, sizeof(state_dir), "/tmp/agx-e2e-XXXXXX");
	if (!mkdtemp(state_dir))
		return -1;
	return stack("up") == 0 ? 0 : -1;
}

static int teardown(void **state)
{
	char cmd[128];

	(void)state;
	stack("down");
	snprintf(cmd, sizeof(cmd), "rm -rf %s", state_dir);
	return system(cmd) == 0 ? 0 : -1;
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_one_job),	    cmocka_unit_test(test_many_clients),
		cmocka_unit_test(test_isolation),   cmocka_unit_test(test_kill_scheduler),
		cmocka_unit_test(test_kill_fwchan), cmocka_unit_test(test_kill_memmgr),
		cmocka_unit_test(test_kill_sim),
	};
	int ret;

	if (argc != 3) {
		fprintf(stderr, "usage: %s AGX-STACK AGXC\n", argv[0]);
		return 2;
	}
	stack_path = argv[1];
	agxc_path = argv[2];
	signal(SIGPIPE, SIG_IGN);
	ret = agx_compile_glsl(AGX_SHADER_COMPUTE, kernel_source, strlen(kernel_source), NULL,
			       &kernel);
	if (ret < 0) {
		fprintf(stderr, "the kernel does not compile: %s\n", kernel.log);
		return 1;
	}
	ret = cmocka_run_group_tests(tests, setup, teardown);
	agx_shader_binary_finish(&kernel);
	return ret;
}
