/*
 * test-daemon: agx-memmgr as it runs: its own process, lending memory to
 * a real agx-sim, invalidating TLBs through a stand-in agx-fwchan
 * (fwchan-peer), met by clients through libagx (agx/memory.h) and by a
 * privileged peer through its second socket; and by hostile clients:
 * connections that never say HELLO, and a flood of bad packets whose log
 * lines are rate limited.
 *
 *   test-daemon AGX-SIM AGX-MEMMGR FWCHAN-PEER
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "agx/memory.h"
#include "agxipc/client.h"
#include "agxipc/log.h"
#include "daemons.h"

#define PAGE	   0x4000ull
#define QUOTA	   (64ull << 20)
#define TIMEOUT_MS 10000

static const char *sim_path, *memmgr_path, *peer_path;

struct daemons {
	char dir[64], sim[108], client[108], privileged[108], fwchan[108], log[108];
	char memmgr_log[108]; /* memmgr's stderr, when hostile */
	pid_t sim_pid, memmgr_pid, peer_pid;
};

#define HELLO_TIMEOUT_MS "1000"

/*
 * hostile: memmgr's stderr in a file, warnings shown, rate limited over an
 * interval longer than any test (what was held back is told at exit), and
 * a HELLO deadline of a second.
 */
static int start(void **state, bool hostile)
{
	struct daemons *d = calloc(1, sizeof(*d));
	char quota[32];

	snprintf(d->dir, sizeof(d->dir), "/tmp/agx-memmgr-XXXXXX");
	assert_non_null(mkdtemp(d->dir));
	snprintf(d->sim, sizeof(d->sim), "%s/sim.sock", d->dir);
	snprintf(d->client, sizeof(d->client), "%s/memmgr.sock", d->dir);
	snprintf(d->privileged, sizeof(d->privileged), "%s/memmgr-priv.sock", d->dir);
	snprintf(d->fwchan, sizeof(d->fwchan), "%s/fwchan.sock", d->dir);
	snprintf(d->log, sizeof(d->log), "%s/tlb.log", d->dir);
	snprintf(d->memmgr_log, sizeof(d->memmgr_log), "%s/memmgr.log", d->dir);
	snprintf(quota, sizeof(quota), "%llu", (unsigned long long)QUOTA);
	d->sim_pid = daemon_spawn((char *[]){ (char *)sim_path, "--socket", d->sim, "--memory-size",
					      "0x10000000", "--cores", "2", NULL });
	d->peer_pid = daemon_spawn((char *[]){ (char *)peer_path, d->fwchan, d->log, NULL });
	daemon_wait_socket(d->fwchan, TIMEOUT_MS);
	if (hostile) {
		setenv("AGX_IPC_HELLO_TIMEOUT_MS", HELLO_TIMEOUT_MS, 1);
		setenv("AGX_LOG_LEVEL", "warning", 1);
		setenv("AGX_LOG_RATELIMIT_MS", "3600000", 1);
	}
	d->memmgr_pid = daemon_spawn_logged((char *[]){ (char *)memmgr_path, "--socket", d->client,
							"--privileged-socket", d->privileged,
							"--device", d->sim, "--fwchan", d->fwchan,
							"--client-quota", quota, NULL },
					    hostile ? d->memmgr_log : NULL);
	if (hostile) {
		unsetenv("AGX_IPC_HELLO_TIMEOUT_MS");
		setenv("AGX_LOG_LEVEL", "err", 1);
		unsetenv("AGX_LOG_RATELIMIT_MS");
	}
	daemon_wait_socket(d->privileged, TIMEOUT_MS);
	*state = d;
	return 0;
}

static int setup(void **state)
{
	return start(state, false);
}

static int setup_hostile(void **state)
{
	return start(state, true);
}

static int teardown(void **state)
{
	struct daemons *d = *state;

	bool clean = daemons_stop((pid_t[]){ d->memmgr_pid, d->peer_pid, d->sim_pid }, 3);

	unlink(d->log);
	unlink(d->memmgr_log);
	rmdir(d->dir);
	free(d);
	assert_true(clean);
	return 0;
}

static struct agx_memory *connect_client(const struct daemons *d)
{
	struct agx_memory *mem;

	assert_int_equal(agx_memory_connect(d->client, &mem), 0);
	return mem;
}

/* Open fds of a process: a daemon that releases what it held comes back to its count. */
static unsigned fds_of(pid_t pid)
{
	char path[64];
	unsigned n = 0;
	DIR *dir;

	snprintf(path, sizeof(path), "/proc/%d/fd", (int)pid);
	dir = opendir(path);
	assert_non_null(dir);
	while (readdir(dir))
		n++;
	closedir(dir);
	return n;
}

/*
 * agx-memmgr's fd count once it has settled: it refills its spare memfds
 * and closes freed BOs' after the replies of a batch, so a count taken just
 * after another test's last request may be a few short or over.
 */
static unsigned settled_fds(pid_t pid)
{
	struct timespec pause = { .tv_nsec = 10 * 1000 * 1000 };
	unsigned n = fds_of(pid), same = 0;

	for (int i = 0; i < 500 && same < 3; i++) {
		unsigned now;

		nanosleep(&pause, NULL);
		now = fds_of(pid);
		same = now == n ? same + 1 : 0;
		n = now;
	}
	return n;
}

/* Waits (bounded) until agx-memmgr holds count fds: it handles a hang-up in its own time. */
static void expect_fds(pid_t pid, unsigned count)
{
	struct timespec pause = { .tv_nsec = 5 * 1000 * 1000 };

	for (int waited = 0; fds_of(pid) != count; waited += 5) {
		if (waited > TIMEOUT_MS)
			fail_msg("agx-memmgr holds %u fds, %u expected", fds_of(pid), count);
		nanosleep(&pause, NULL);
	}
}

/* Whether the stand-in fwchan was asked to invalidate this. */
static bool invalidated(const struct daemons *d, unsigned slot, uint64_t va, uint64_t size)
{
	char want[80], line[80];
	bool found = false;
	FILE *f = fopen(d->log, "r");

	if (!f)
		return false;
	snprintf(want, sizeof(want), "%u %#" PRIx64 " %#" PRIx64 "\n", slot, va, size);
	while (!found && fgets(line, sizeof(line), f))
		found = !strcmp(line, want);
	fclose(f);
	return found;
}

static void test_bo(void **state)
{
	struct daemons *d = *state;
	struct agx_memory *mem = connect_client(d);
	struct agx_memory_usage u;
	struct agx_bo bo;
	unsigned base = settled_fds(d->memmgr_pid);
	struct stat st;

	assert_int_equal(agx_bo_create(mem, 100000, AGX_BO_WRITEBACK, 0, &bo), 0);
	assert_int_equal(bo.size, 7 * PAGE);
	assert_int_equal(fstat(bo.fd, &st), 0);
	assert_int_equal(st.st_size, 7 * PAGE); /* exactly this BO */
	for (uint64_t i = 0; i < bo.size; i++)
		assert_int_equal(((uint8_t *)bo.map)[i], 0);
	/* sealed: it cannot shrink under the device, nor grow */
	assert_true(ftruncate(bo.fd, PAGE) < 0);
	assert_true(ftruncate(bo.fd, 8 * PAGE) < 0);
	assert_int_equal(agx_memory_query(mem, &u), 0);
	assert_int_equal(u.used, 7 * PAGE);
	assert_int_equal(u.quota, QUOTA);
	assert_int_equal(u.page_size, PAGE);
	assert_true(u.va_start > 0 && u.va_end == 1ull << 39);
	/* the device memmgr serves, as agx-sim describes itself */
	assert_int_equal(u.chip_id, 0x8103);
	assert_int_equal(u.generation, 13);
	assert_true(u.num_cores >= 1);
	assert_string_equal(u.firmware_version, "agx-sim RTKit 12");
	assert_int_equal(fds_of(d->memmgr_pid), base + 1); /* memmgr keeps the memfd */
	assert_int_equal(agx_bo_close(mem, &bo), 0);
	assert_int_equal(agx_memory_query(mem, &u), 0);
	assert_int_equal(u.used, 0);
	assert_int_equal(fds_of(d->memmgr_pid), base);

	/* memory written, given back and asked for again reads as zero */
	for (unsigned round = 0; round < 8; round++) {
		assert_int_equal(agx_bo_create(mem, PAGE, 0, 0, &bo), 0);
		for (uint64_t i = 0; i < bo.size; i++)
			assert_int_equal(((uint8_t *)bo.map)[i], 0);
		memset(bo.map, 0xa5, bo.size);
		assert_int_equal(agx_bo_close(mem, &bo), 0);
	}
	agx_memory_disconnect(mem);
}

static void test_errors(void **state)
{
	struct daemons *d = *state;
	struct agx_memory *mem = connect_client(d);
	struct agx_bo bo, big, stale = { .handle = 77, .fd = -1 };
	uint32_t vm;
	uint64_t va;

	assert_int_equal(agx_vm_create(mem, &vm), 0);
	assert_int_equal(agx_bo_create(mem, 4 * PAGE, 0, 0, &bo), 0);
	assert_int_equal(agx_bo_create(mem, 0, 0, 0, &big), -EINVAL);
	assert_int_equal(agx_bo_create(mem, PAGE, 99, 0, &big), -EINVAL);
	assert_int_equal(agx_bo_create(mem, QUOTA, 0, 0, &big), -EDQUOT);
	assert_non_null(strstr(agx_memory_error(mem), "quota"));
	assert_int_equal(agx_bo_close(mem, &stale), -ENOENT);
	assert_non_null(strstr(agx_memory_error(mem), "no BO 77"));
	assert_int_equal(agx_vm_bind(mem, vm, &bo, 0, PAGE, 0x100002000ull, AGX_BIND_READ, &va),
			 -EINVAL);
	assert_int_equal(agx_vm_bind(mem, vm, &bo, 0, 2 * PAGE, 0x100000000ull,
				     AGX_BIND_READ | AGX_BIND_WRITE, &va),
			 0);
	assert_int_equal(agx_vm_bind(mem, vm, &bo, 0, PAGE, 0x100004000ull, AGX_BIND_READ, &va),
			 -EBUSY);
	assert_int_equal(agx_vm_bind(mem, vm, &bo, 0, PAGE, 0, AGX_BIND_READ | 64, &va), -EINVAL);
	assert_int_equal(agx_vm_bind(mem, vm + 100, &bo, 0, PAGE, 0, AGX_BIND_ALLOCATE_VA, &va),
			 -ENOENT);
	assert_int_equal(agx_vm_unbind(mem, vm, 0x200000000ull, PAGE), -ENOENT);
	assert_int_equal(agx_vm_unbind(mem, vm, 0x100000000ull, PAGE), 0);
	assert_int_equal(agx_vm_destroy(mem, vm), 0);
	assert_int_equal(agx_vm_destroy(mem, vm), -ENOENT);
	assert_int_equal(agx_bo_close(mem, &bo), 0);
	agx_memory_disconnect(mem);
}

/*
 * Two processes share a BO by token: each sees the other's writes; the
 * BO lives while either holds it, and goes when the last lets go.
 */
static void test_share(void **state)
{
	struct daemons *d = *state;
	unsigned base = settled_fds(d->memmgr_pid);
	struct agx_memory *mem = connect_client(d);
	uint8_t token[AGX_MEMORY_TOKEN_BYTES], again[AGX_MEMORY_TOKEN_BYTES];
	int to_child[2], to_parent[2], status;
	struct agx_bo bo;
	char byte;
	pid_t pid;

	assert_int_equal(agx_bo_create(mem, 2 * PAGE, 0, 0, &bo), 0);
	strcpy(bo.map, "hello");
	assert_int_equal(agx_bo_export(mem, &bo, token), 0);
	assert_int_equal(agx_bo_export(mem, &bo, again), 0);
	assert_memory_equal(token, again, sizeof(token));
	assert_int_equal(pipe(to_child), 0);
	assert_int_equal(pipe(to_parent), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		struct agx_memory *child;
		struct agx_bo shared;
		uint32_t vm;
		uint64_t va;
		bool ok = agx_memory_connect(d->client, &child) == 0 &&
			  agx_bo_import(child, token, &shared) == 0 && shared.size == 2 * PAGE &&
			  !strcmp(shared.map, "hello");

		if (ok)
			strcpy((char *)shared.map + 8, "world");
		ok &= write(to_parent[1], "i", 1) == 1;
		/* the parent has closed its handle: the BO is still ours */
		ok &= read(to_child[0], &byte, 1) == 1;
		ok &= !strcmp(shared.map, "hello") && agx_vm_create(child, &vm) == 0 &&
		      agx_vm_bind(child, vm, &shared, 0, 2 * PAGE, 0,
				  AGX_BIND_READ | AGX_BIND_ALLOCATE_VA, &va) == 0;
		_exit(ok ? 0 : 1);
	}
	assert_int_equal(read(to_parent[0], &byte, 1), 1);
	assert_string_equal((char *)bo.map + 8, "world");
	assert_int_equal(agx_bo_close(mem, &bo), 0);
	assert_int_equal(write(to_child[1], "c", 1), 1);
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	/* the child is gone, and with it the last reference */
	expect_fds(d->memmgr_pid, base + 1); /* our connection's socket */
	{
		struct agx_bo gone;

		assert_int_equal(agx_bo_import(mem, token, &gone), -ENOENT);
	}
	for (int i = 0; i < 2; i++) {
		close(to_child[i]);
		close(to_parent[i]);
	}
	agx_memory_disconnect(mem);
}

/*
 * BO_IMPORT_FD over the socket: a memfd the client filled becomes a BO it
 * maps and binds; the fd of an exported BO names that BO; an fd memmgr
 * cannot take is refused with a reason; memmgr keeps no fd once the
 * client is gone.
 */
static void test_import_fd(void **state)
{
	struct daemons *d = *state;
	unsigned base = settled_fds(d->memmgr_pid);
	struct agx_memory *mem = connect_client(d);
	struct agx_bo bo, again, own;
	uint32_t vm;
	uint64_t va;
	int mfd = memfd_create("pixels", MFD_CLOEXEC | MFD_ALLOW_SEALING), bad;

	assert_true(mfd >= 0);
	assert_int_equal(ftruncate(mfd, 3 * PAGE), 0);
	assert_int_equal(pwrite(mfd, "hello", 6, PAGE), 6);
	assert_int_equal(agx_bo_import_fd(mem, mfd, &bo), 0);
	assert_int_equal(bo.size, 3 * PAGE);
	assert_string_equal((char *)bo.map + PAGE, "hello");
	strcpy(bo.map, "mapped"); /* the same pages as the client's memfd */
	{
		char got[7] = { 0 };

		assert_int_equal(pread(mfd, got, 7, 0), 7);
		assert_string_equal(got, "mapped");
	}
	assert_int_equal(agx_vm_create(mem, &vm), 0);
	assert_int_equal(agx_vm_bind(mem, vm, &bo, 0, 3 * PAGE, 0,
				     AGX_BIND_READ | AGX_BIND_WRITE | AGX_BIND_ALLOCATE_VA, &va),
			 0);
	/* an fd of a BO of memmgr's: that BO */
	assert_int_equal(agx_bo_create(mem, PAGE, 0, 0, &own), 0);
	strcpy(own.map, "own");
	assert_int_equal(agx_bo_import_fd(mem, own.fd, &again), 0);
	assert_int_not_equal(again.handle, own.handle);
	assert_string_equal(again.map, "own");
	assert_int_equal(agx_bo_close(mem, &again), 0);
	/* no memfd */
	bad = open("/dev/null", O_RDWR | O_CLOEXEC);
	assert_int_equal(agx_bo_import_fd(mem, bad, &again), -EINVAL);
	assert_non_null(strstr(agx_memory_error(mem), "memfd"));
	close(bad);
	assert_int_equal(agx_bo_import_fd(mem, -1, &again), -EBADF);
	assert_int_equal(agx_bo_close(mem, &own), 0);
	assert_int_equal(agx_bo_close(mem, &bo), 0);
	close(mfd);
	agx_memory_disconnect(mem);
	expect_fds(d->memmgr_pid, base);
}

/* A client that dies holding BOs, VMs and mappings, mid-request, leaves nothing. */
static void test_dropped_connection(void **state)
{
	struct daemons *d = *state;
	unsigned base = settled_fds(d->memmgr_pid);
	int status;
	pid_t pid = fork();

	assert_true(pid >= 0);
	if (pid == 0) {
		struct agx_memory *child;
		Agx__Memmgr__VmCreate create = AGX__MEMMGR__VM_CREATE__INIT;
		struct agx_ipc_client *raw;
		struct agx_bo bo;
		uint32_t vm;
		uint64_t va;

		if (agx_memory_connect(d->client, &child) < 0 || agx_vm_create(child, &vm) < 0)
			_exit(1);
		for (int i = 0; i < 20; i++)
			if (agx_bo_create(child, (i + 1) * PAGE, 0, 0, &bo) < 0 ||
			    agx_vm_bind(child, vm, &bo, 0, PAGE, 0,
					AGX_BIND_READ | AGX_BIND_ALLOCATE_VA, &va) < 0)
				_exit(1);
		/* a request sent, and nobody left to read the reply */
		if (agx_ipc_client_connect(d->client, AGX__IPC__INTERFACE__INTERFACE_MEMMGR, "raw",
					   TIMEOUT_MS, &raw, NULL) < 0 ||
		    agx_ipc_send(agx_ipc_client_fd(raw), AGX_IPC_MSG_MEMMGR_VM_CREATE, 0, 99,
				 &create.base, NULL, 0) < 0)
			_exit(1);
		_exit(0);
	}
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	expect_fds(d->memmgr_pid, base);
	/* and the whole quota is there for the next client */
	{
		struct agx_memory *mem = connect_client(d);
		struct agx_bo bo;

		assert_int_equal(agx_bo_create(mem, QUOTA, 0, 0, &bo), 0);
		assert_int_equal(agx_bo_close(mem, &bo), 0);
		agx_memory_disconnect(mem);
	}
}

static int priv_call(struct agx_ipc_client *c, uint16_t type, const ProtobufCMessage *body,
		     struct agx_ipc_msg *reply)
{
	struct agx_ipc_msg local;
	int ret =
	    agx_ipc_client_call(c, type, body, NULL, 0, reply ? reply : &local, TIMEOUT_MS, NULL);

	if (ret == 0 && !reply)
		agx_ipc_msg_finish(&local);
	return ret;
}

/* The privileged socket: the kernel VM, slots, faults, completions; TLBs through fwchan. */
static void test_privileged(void **state)
{
	struct daemons *d = *state;
	struct agx_ipc_client *p;
	struct agx_memory *mem = connect_client(d);
	Agx__Memmgr__UatInfo info = AGX__MEMMGR__UAT_INFO__INIT;
	Agx__Memmgr__KernelAlloc ka = AGX__MEMMGR__KERNEL_ALLOC__INIT;
	Agx__Memmgr__KernelFree kf = AGX__MEMMGR__KERNEL_FREE__INIT;
	Agx__Memmgr__VmSlotBind sb = AGX__MEMMGR__VM_SLOT_BIND__INIT;
	Agx__Memmgr__FaultDecode fd = AGX__MEMMGR__FAULT_DECODE__INIT;
	Agx__Memmgr__JobsCompleted jc = AGX__MEMMGR__JOBS_COMPLETED__INIT;
	struct agx_ipc_msg reply;
	uint64_t kva, va, kernel_size;
	unsigned slot;
	struct agx_bo bo;
	uint32_t vm;

	/* the client socket does not serve privileged requests */
	{
		struct agx_ipc_client *c;
		struct agx_ipc_error err;

		assert_int_equal(agx_ipc_client_connect(d->client,
							AGX__IPC__INTERFACE__INTERFACE_MEMMGR,
							"client", TIMEOUT_MS, &c, NULL),
				 0);
		assert_int_equal(agx_ipc_client_call(c, AGX_IPC_MSG_MEMMGR_UAT_INFO, &info.base,
						     NULL, 0, &reply, TIMEOUT_MS, &err),
				 -ENOSYS);
		agx_ipc_client_destroy(c);
	}
	assert_int_equal(agx_ipc_client_connect(d->privileged,
						AGX__IPC__INTERFACE__INTERFACE_MEMMGR_PRIVILEGED,
						"test", TIMEOUT_MS, &p, NULL),
			 0);
	assert_int_equal(priv_call(p, AGX_IPC_MSG_MEMMGR_UAT_INFO, &info.base, &reply), 0);
	{
		const Agx__Memmgr__UatInfoReply *r = (const void *)reply.body;

		assert_true(r->context_table && r->context_table % PAGE == 0);
		assert_int_equal(r->slots, 64);
		assert_int_equal(r->kernel_slot, 0);
	}
	agx_ipc_msg_finish(&reply);

	ka.size = 3 * PAGE;
	assert_int_equal(priv_call(p, AGX_IPC_MSG_MEMMGR_KERNEL_ALLOC, &ka.base, &reply), 0);
	{
		const Agx__Memmgr__KernelAllocReply *r = (const void *)reply.body;

		kva = r->va;
		kernel_size = r->size;
		kf.handle = r->handle;
		assert_true(kva >= 0xffffffa000000000ull);
		assert_int_equal(reply.num_fds, 1);
	}
	agx_ipc_msg_finish(&reply);

	/* a client's VM gets a slot for a submission; the slot is invalidated first */
	assert_int_equal(agx_vm_create(mem, &vm), 0);
	assert_int_equal(agx_bo_create(mem, 4 * PAGE, 0, 0, &bo), 0);
	assert_int_equal(agx_vm_bind(mem, vm, &bo, 0, 4 * PAGE, 0,
				     AGX_BIND_READ | AGX_BIND_WRITE | AGX_BIND_ALLOCATE_VA, &va),
			 0);
	sb.client_pid = (uint32_t)getpid();
	sb.vm = vm;
	sb.seqno = 1;
	assert_int_equal(priv_call(p, AGX_IPC_MSG_MEMMGR_VM_SLOT_BIND, &sb.base, &reply), 0);
	slot = ((const Agx__Memmgr__VmSlotBindReply *)reply.body)->context_slot;
	assert_true(slot >= 1 && slot < 64);
	agx_ipc_msg_finish(&reply);
	assert_true(invalidated(d, slot, 0, 0));
	sb.client_pid = 1; /* not the VM's owner */
	assert_int_equal(priv_call(p, AGX_IPC_MSG_MEMMGR_VM_SLOT_BIND, &sb.base, NULL), -ENOENT);

	/* a fault there names the client, the VM, the BO and the offset */
	fd.context_slot = slot;
	fd.va = va + PAGE + 12;
	assert_int_equal(priv_call(p, AGX_IPC_MSG_MEMMGR_FAULT_DECODE, &fd.base, &reply), 0);
	{
		const Agx__Memmgr__FaultDecodeReply *r = (const void *)reply.body;

		assert_int_equal(r->client_pid, getpid());
		assert_int_equal(r->vm, vm);
		assert_int_equal(r->bo, bo.handle);
		assert_int_equal(r->bo_offset, PAGE + 12);
	}
	agx_ipc_msg_finish(&reply);

	/* unbinding a range of a VM with a slot invalidates exactly that range */
	assert_int_equal(agx_vm_unbind(mem, vm, va + PAGE, 2 * PAGE), 0);
	assert_true(invalidated(d, slot, va + PAGE, 2 * PAGE));
	jc.client_pid = (uint32_t)getpid();
	jc.vm = vm;
	jc.seqno = 1;
	assert_int_equal(priv_call(p, AGX_IPC_MSG_MEMMGR_JOBS_COMPLETED, &jc.base, NULL), 0);
	jc.seqno = 5; /* never submitted */
	assert_int_equal(priv_call(p, AGX_IPC_MSG_MEMMGR_JOBS_COMPLETED, &jc.base, NULL), -EINVAL);

	assert_int_equal(priv_call(p, AGX_IPC_MSG_MEMMGR_KERNEL_FREE, &kf.base, NULL), 0);
	assert_true(invalidated(d, 0, kva, kernel_size));
	assert_int_equal(priv_call(p, AGX_IPC_MSG_MEMMGR_KERNEL_FREE, &kf.base, NULL), -ENOENT);
	agx_ipc_client_destroy(p);
	assert_int_equal(agx_bo_close(mem, &bo), 0);
	agx_memory_disconnect(mem);

	/* another user is refused the privileged socket (needs root to become one) */
	if (getuid() == 0) {
		int status;
		pid_t pid = fork();

		assert_true(pid >= 0);
		if (pid == 0) {
			struct agx_ipc_error err = { 0 };

			/* past the file permissions, so that memmgr's own check is what refuses */
			if (chmod(d->dir, 0755) < 0 || chmod(d->privileged, 0777) < 0 ||
			    setgid(65534) < 0 || setuid(65534) < 0)
				_exit(2);
			_exit(agx_ipc_client_connect(
				  d->privileged, AGX__IPC__INTERFACE__INTERFACE_MEMMGR_PRIVILEGED,
				  "nobody", TIMEOUT_MS, &p, &err) == -EPERM
				  ? 0
				  : 1);
		}
		assert_int_equal(waitpid(pid, &status, 0), pid);
		assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	}
}

static int listen_on(const char *path)
{
	struct sockaddr_un addr = { .sun_family = AF_UNIX };
	int fd = socket(AF_UNIX, SOCK_SEQPACKET, 0);

	strcpy(addr.sun_path, path);
	assert_true(fd >= 0);
	assert_int_equal(bind(fd, (struct sockaddr *)&addr, sizeof(addr)), 0);
	assert_int_equal(listen(fd, 16), 0);
	return fd;
}

/*
 * Under systemd both sockets come from socket activation (LISTEN_FDS, in
 * either order): memmgr takes each by its path and serves on it.
 */
static void test_socket_activation(void **state)
{
	struct daemons *d = *state;
	char client[108], privileged[108];
	struct agx_ipc_client *p;
	struct agx_memory *mem;
	struct agx_bo bo;
	int fds[2];
	pid_t pid;

	snprintf(client, sizeof(client), "%s/activated.sock", d->dir);
	snprintf(privileged, sizeof(privileged), "%s/activated-priv.sock", d->dir);
	fds[0] = listen_on(privileged);
	fds[1] = listen_on(client);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		char buf[32];

		dup2(fds[0], 3); /* SD_LISTEN_FDS_START, without CLOEXEC */
		dup2(fds[1], 4);
		snprintf(buf, sizeof(buf), "%d", (int)getpid());
		setenv("LISTEN_PID", buf, 1);
		setenv("LISTEN_FDS", "2", 1);
		execl(memmgr_path, memmgr_path, "--socket", client, "--privileged-socket",
		      privileged, "--device", d->sim, (char *)NULL);
		_exit(127);
	}
	close(fds[0]);
	close(fds[1]);
	/* the sockets exist already: connections wait in their backlog until memmgr serves */
	assert_int_equal(agx_memory_connect(client, &mem), 0);
	assert_int_equal(agx_bo_create(mem, PAGE, 0, 0, &bo), 0);
	assert_int_equal(agx_bo_close(mem, &bo), 0);
	agx_memory_disconnect(mem);
	assert_int_equal(agx_ipc_client_connect(privileged,
						AGX__IPC__INTERFACE__INTERFACE_MEMMGR_PRIVILEGED,
						"test", TIMEOUT_MS, &p, NULL),
			 0);
	agx_ipc_client_destroy(p);
	assert_true(daemons_stop(&pid, 1));
	unlink(client);
	unlink(privileged);
}

/* --- hostile clients --------------------------------------------------------------------- */

static int seqpacket_connect(const char *path)
{
	struct sockaddr_un addr = { .sun_family = AF_UNIX };
	int fd = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0);
	struct timeval tv = { 10, 0 }; /* a bound on every receive, not a measurement */

	assert_true(fd >= 0);
	strcpy(addr.sun_path, path);
	assert_int_equal(connect(fd, (struct sockaddr *)&addr, sizeof(addr)), 0);
	setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	return fd;
}

/* The server's answer on fd: the error code it closed the connection with, or -errno. */
static int closed_with(int fd)
{
	uint8_t *buf = malloc(AGX_IPC_MAX_FRAME);
	int fds[AGX_IPC_MAX_FDS], code;
	struct agx_ipc_msg msg;
	unsigned num;
	ssize_t n = agx_ipc_recv_frame(fd, buf, fds, &num);

	if (n <= 0 || agx_ipc_decode(buf, (size_t)n, fds, num, &msg, NULL) < 0) {
		free(buf);
		return n < 0 ? (int)n : -EPROTO;
	}
	code = (msg.flags & AGX_IPC_FLAG_ERROR) ? (int)((Agx__Ipc__Error *)msg.body)->code : 0;
	agx_ipc_msg_finish(&msg);
	/* then the end of the connection */
	if (agx_ipc_recv_frame(fd, buf, fds, &num) != 0)
		code = -EPROTO;
	free(buf);
	return code;
}

/*
 * Connections that never say HELLO take every one of memmgr's 1,024
 * client slots; the HELLO deadline closes them all, and a good client
 * connects then (it may meet BUSY while they are still there).
 */
static void test_idle_connections(void **state)
{
	enum { IDLE = 1024 };
	struct daemons *d = *state;
	struct agx_memory *mem = NULL;
	struct agx_bo bo;
	int *idle = calloc(IDLE, sizeof(*idle)), ret = -EBUSY;

	assert_non_null(idle);
	for (unsigned i = 0; i < IDLE; i++)
		idle[i] = seqpacket_connect(d->client);
	/* bounded: 30 s of tries, 30 times the deadline */
	for (int tries = 0; tries < 300 && ret < 0; tries++) {
		ret = agx_memory_connect(d->client, &mem);
		if (ret < 0)
			usleep(100000);
	}
	assert_int_equal(ret, 0);
	assert_int_equal(agx_bo_create(mem, PAGE, 0, 0, &bo), 0);
	assert_int_equal(agx_bo_close(mem, &bo), 0);
	agx_memory_disconnect(mem);
	/* every idle one was told why it was closed */
	for (unsigned i = 0; i < IDLE; i++) {
		assert_int_equal(closed_with(idle[i]), AGX__IPC__ERROR_CODE__ERROR_TIMEOUT);
		close(idle[i]);
	}
	free(idle);
}

static unsigned count_in(const char *text, const char *needle)
{
	unsigned n = 0;

	for (const char *p = strstr(text, needle); p; p = strstr(p + 1, needle))
		n++;
	return n;
}

/*
 * 20,000 bad packets, each on a connection of its own (each closes its
 * connection), each answered MALFORMED: memmgr logs a handful of lines
 * for them, and at exit one line that counts the rest, exactly.
 */
static void test_log_flood(void **state)
{
	enum { PACKETS = 20000 };
	static const uint8_t garbage[16] = { 0xff, 0xff, 0xff, 0x7f, 1, 0, 0, 0, 0xee, 0xee };
	struct daemons *d = *state;
	unsigned printed, suppressed = 0, status_lines;
	static char text[1 << 20];
	struct agx_memory *mem;
	const char *p;
	int status;
	size_t n;
	FILE *f;

	for (unsigned i = 0; i < PACKETS; i++) {
		int fd = seqpacket_connect(d->client);

		assert_int_equal(send(fd, garbage, sizeof(garbage), MSG_NOSIGNAL), sizeof(garbage));
		/* answered before the next: none is turned away for want of a slot, unlogged */
		assert_int_equal(closed_with(fd), AGX__IPC__ERROR_CODE__ERROR_MALFORMED);
		close(fd);
	}
	/* still serving; then stopped, it tells what it held back */
	assert_int_equal(agx_memory_connect(d->client, &mem), 0);
	agx_memory_disconnect(mem);
	assert_int_equal(kill(d->memmgr_pid, SIGTERM), 0);
	assert_int_equal(waitpid(d->memmgr_pid, &status, 0), d->memmgr_pid);
	d->memmgr_pid = 0;
	assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);

	f = fopen(d->memmgr_log, "r");
	assert_non_null(f);
	n = fread(text, 1, sizeof(text) - 1, f);
	fclose(f);
	text[n] = '\0';
	printed = count_in(text, "; closing it");
	for (p = strstr(text, "ipc_conn_fail: "); p; p = strstr(p + 1, "ipc_conn_fail: ")) {
		unsigned v;

		if (sscanf(p, "ipc_conn_fail: %u similar messages suppressed", &v) == 1)
			suppressed += v;
	}
	status_lines = count_in(text, "\n");
	/* one peer's share of one interval, and a count for the others: every packet accounted */
	assert_int_equal(printed, AGX_LOG_RATELIMIT_PEER_BURST);
	assert_int_equal(printed + suppressed, PACKETS);
	/* what the log holds besides: a few lines of memmgr's own */
	assert_true(status_lines < 20);
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_bo, setup, teardown),
		cmocka_unit_test_setup_teardown(test_errors, setup, teardown),
		cmocka_unit_test_setup_teardown(test_share, setup, teardown),
		cmocka_unit_test_setup_teardown(test_import_fd, setup, teardown),
		cmocka_unit_test_setup_teardown(test_dropped_connection, setup, teardown),
		cmocka_unit_test_setup_teardown(test_privileged, setup, teardown),
		cmocka_unit_test_setup_teardown(test_socket_activation, setup, teardown),
		cmocka_unit_test_setup_teardown(test_idle_connections, setup_hostile, teardown),
		cmocka_unit_test_setup_teardown(test_log_flood, setup_hostile, teardown),
	};

	if (argc != 4) {
		fprintf(stderr, "usage: %s AGX-SIM AGX-MEMMGR FWCHAN-PEER\n", argv[0]);
		return 2;
	}
	sim_path = argv[1];
	memmgr_path = argv[2];
	peer_path = argv[3];
	return cmocka_run_group_tests(tests, NULL, NULL);
}
