/*
 * test-fwchan: agx-fwchan as it runs, between a real agx-sim and a real
 * agx-memmgr: the boot (RTKit, then the GPU firmware on initdata and
 * channels in memory memmgr gave it and page tables memmgr wrote), and the
 * firmware control channel it carries for memmgr.
 *
 *   test-fwchan AGX-SIM AGX-MEMMGR AGX-FWCHAN
 */
#include <errno.h>
#include <poll.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "agx/memory.h"
#include "agxipc/client.h"

#define PAGE	   0x4000ull
#define TIMEOUT_MS 10000

static const char *sim_path, *memmgr_path, *fwchan_path;

struct daemons {
	char dir[64], sim[108], memmgr[108], privileged[108], fwchan[108];
	pid_t sim_pid, memmgr_pid, fwchan_pid;
};

static pid_t spawn(char *const argv[])
{
	pid_t pid = fork();

	assert_true(pid >= 0);
	if (pid == 0) {
		execv(argv[0], argv);
		_exit(127);
	}
	return pid;
}

static void wait_for_socket(const char *path)
{
	struct timespec pause = { .tv_nsec = 10 * 1000 * 1000 };
	struct stat st;

	for (int waited = 0; stat(path, &st) < 0; waited += 10) {
		if (waited > TIMEOUT_MS)
			fail_msg("%s did not appear", path);
		nanosleep(&pause, NULL);
	}
}

static int setup(void **state)
{
	struct daemons *d = calloc(1, sizeof(*d));

	snprintf(d->dir, sizeof(d->dir), "/tmp/agx-fwchan-XXXXXX");
	assert_non_null(mkdtemp(d->dir));
	snprintf(d->sim, sizeof(d->sim), "%s/sim.sock", d->dir);
	snprintf(d->memmgr, sizeof(d->memmgr), "%s/memmgr.sock", d->dir);
	snprintf(d->privileged, sizeof(d->privileged), "%s/memmgr-priv.sock", d->dir);
	snprintf(d->fwchan, sizeof(d->fwchan), "%s/fwchan.sock", d->dir);
	d->sim_pid = spawn((char *[]){ (char *)sim_path, "--socket", d->sim, "--memory-size",
				       "0x10000000", "--cores", "2", "--test-faults", NULL });
	d->memmgr_pid =
	    spawn((char *[]){ (char *)memmgr_path, "--socket", d->memmgr, "--privileged-socket",
			      d->privileged, "--device", d->sim, "--fwchan", d->fwchan, NULL });
	wait_for_socket(d->privileged);
	d->fwchan_pid = spawn((char *[]){ (char *)fwchan_path, "--socket", d->fwchan, "--device",
					  d->sim, "--memmgr", d->privileged, NULL });
	/* fwchan listens once the firmware runs */
	wait_for_socket(d->fwchan);
	*state = d;
	return 0;
}

static void stop(pid_t pid)
{
	int status;

	kill(pid, SIGTERM);
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), 0); /* no sanitizer report, no crash */
}

static int teardown(void **state)
{
	struct daemons *d = *state;

	stop(d->fwchan_pid);
	stop(d->memmgr_pid);
	stop(d->sim_pid);
	rmdir(d->dir);
	free(d);
	return 0;
}

static struct agx_ipc_client *connect_fwchan(const struct daemons *d)
{
	struct agx_ipc_client *c;

	assert_int_equal(agx_ipc_client_connect(d->fwchan, AGX__IPC__INTERFACE__INTERFACE_FWCHAN,
						"test", TIMEOUT_MS, &c, NULL),
			 0);
	return c;
}

static int call(struct agx_ipc_client *c, uint16_t type, const ProtobufCMessage *body,
		struct agx_ipc_error *err)
{
	struct agx_ipc_msg reply;
	int ret = agx_ipc_client_call(c, type, body, NULL, 0, &reply, TIMEOUT_MS, err);

	if (ret == 0)
		agx_ipc_msg_finish(&reply);
	return ret;
}

/* TLB invalidation and cache flushes, acknowledged by the firmware; bad ones refused. */
static void test_fwctl(void **state)
{
	struct daemons *d = *state;
	struct agx_ipc_client *c = connect_fwchan(d);
	Agx__Fwchan__TlbInvalidate t = AGX__FWCHAN__TLB_INVALIDATE__INIT;
	Agx__Fwchan__CacheFlush flush = AGX__FWCHAN__CACHE_FLUSH__INIT;
	Agx__Fwchan__Submit submit = AGX__FWCHAN__SUBMIT__INIT;
	struct agx_ipc_error err;

	t.context_slot = 3;
	t.va = 0x100000000ull;
	t.size = 2 * PAGE;
	assert_int_equal(call(c, AGX_IPC_MSG_FWCHAN_TLB_INVALIDATE, &t.base, &err), 0);
	t.size = 0; /* the whole context */
	assert_int_equal(call(c, AGX_IPC_MSG_FWCHAN_TLB_INVALIDATE, &t.base, &err), 0);
	assert_int_equal(call(c, AGX_IPC_MSG_FWCHAN_CACHE_FLUSH, &flush.base, &err), 0);
	t.va = 0x100001000ull;
	t.size = PAGE;
	assert_int_equal(call(c, AGX_IPC_MSG_FWCHAN_TLB_INVALIDATE, &t.base, &err), -EINVAL);
	assert_non_null(strstr(err.message, "16 KiB"));
	t.va = 0;
	t.context_slot = 64;
	assert_int_equal(call(c, AGX_IPC_MSG_FWCHAN_TLB_INVALIDATE, &t.base, &err), -EINVAL);
	/* not served yet, and saying so */
	assert_int_equal(call(c, AGX_IPC_MSG_FWCHAN_SUBMIT, &submit.base, &err), -EOPNOTSUPP);
	agx_ipc_client_destroy(c);
}

/*
 * A burst of invalidations sent without waiting: more than the fwctl
 * channel holds, so some wait for room; every one is answered, once.
 */
static void test_fwctl_burst(void **state)
{
	struct daemons *d = *state;
	struct agx_ipc_client *c = connect_fwchan(d);
	Agx__Fwchan__TlbInvalidate t = AGX__FWCHAN__TLB_INVALIDATE__INIT;
	int fd = agx_ipc_client_fd(c);
	static uint8_t seen[1001];
	unsigned replies = 0;

	memset(seen, 0, sizeof(seen));
	for (uint32_t id = 1; id <= 1000; id++) {
		t.context_slot = id % 64;
		t.va = id * PAGE;
		t.size = PAGE;
		while (agx_ipc_send(fd, AGX_IPC_MSG_FWCHAN_TLB_INVALIDATE, 0, 1000000 + id, &t.base,
				    NULL, 0) == -EAGAIN) {
			struct pollfd p = { .fd = fd, .events = POLLOUT };

			poll(&p, 1, TIMEOUT_MS);
		}
	}
	while (replies < 1000) {
		uint8_t buf[AGX_IPC_MAX_FRAME];
		struct pollfd p = { .fd = fd, .events = POLLIN };
		struct agx_ipc_msg msg;
		int fds[AGX_IPC_MAX_FDS];
		unsigned num_fds = 0;
		ssize_t n;

		assert_int_equal(poll(&p, 1, TIMEOUT_MS), 1);
		n = agx_ipc_recv_frame(fd, buf, fds, &num_fds);
		if (n == -EAGAIN)
			continue;
		assert_true(n > 0);
		assert_int_equal(agx_ipc_decode(buf, (size_t)n, fds, num_fds, &msg, NULL), 0);
		assert_int_equal(msg.flags, AGX_IPC_FLAG_REPLY);
		assert_true(msg.request_id > 1000000 && msg.request_id <= 1001000);
		assert_int_equal(seen[msg.request_id - 1000000]++, 0);
		agx_ipc_msg_finish(&msg);
		replies++;
	}
	agx_ipc_client_destroy(c);
}

/* memmgr's unbinds and slot changes wait for real invalidations now, and get them. */
static void test_memmgr_invalidates(void **state)
{
	struct daemons *d = *state;
	Agx__Memmgr__VmSlotBind sb = AGX__MEMMGR__VM_SLOT_BIND__INIT;
	struct agx_ipc_client *p;
	struct agx_memory *mem;
	struct agx_ipc_msg reply;
	struct agx_bo bo;
	uint32_t vm;
	uint64_t va;

	assert_int_equal(agx_memory_connect(d->memmgr, &mem), 0);
	assert_int_equal(agx_vm_create(mem, &vm), 0);
	assert_int_equal(agx_bo_create(mem, 4 * PAGE, 0, 0, &bo), 0);
	assert_int_equal(agx_vm_bind(mem, vm, &bo, 0, 4 * PAGE, 0,
				     AGX_BIND_READ | AGX_BIND_WRITE | AGX_BIND_ALLOCATE_VA, &va),
			 0);
	assert_int_equal(agx_ipc_client_connect(d->privileged,
						AGX__IPC__INTERFACE__INTERFACE_MEMMGR_PRIVILEGED,
						"test", TIMEOUT_MS, &p, NULL),
			 0);
	sb.client_pid = (uint32_t)getpid();
	sb.vm = vm;
	sb.seqno = 1;
	assert_int_equal(agx_ipc_client_call(p, AGX_IPC_MSG_MEMMGR_VM_SLOT_BIND, &sb.base, NULL, 0,
					     &reply, TIMEOUT_MS, NULL),
			 0);
	agx_ipc_msg_finish(&reply);
	assert_int_equal(agx_vm_unbind(mem, vm, va, 2 * PAGE), 0);
	assert_int_equal(agx_vm_destroy(mem, vm), 0);
	assert_int_equal(agx_bo_close(mem, &bo), 0);
	agx_ipc_client_destroy(p);
	agx_memory_disconnect(mem);
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_fwctl, setup, teardown),
		cmocka_unit_test_setup_teardown(test_fwctl_burst, setup, teardown),
		cmocka_unit_test_setup_teardown(test_memmgr_invalidates, setup, teardown),
	};

	if (argc != 4) {
		fprintf(stderr, "usage: %s AGX-SIM AGX-MEMMGR AGX-FWCHAN\n", argv[0]);
		return 2;
	}
	sim_path = argv[1];
	memmgr_path = argv[2];
	fwchan_path = argv[3];
	return cmocka_run_group_tests(tests, NULL, NULL);
}
