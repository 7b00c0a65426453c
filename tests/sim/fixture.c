/*
 * fixture.c: the device tests' agx-sim process and host (fixture.h).
 */
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "agx_rtkit.h"
#include "fixture.h"

const char *sim_path;

int fixture_main(int argc, char **argv, const struct CMUnitTest *tests, size_t count)
{
	if (argc != 2) {
		fprintf(stderr, "usage: %s AGX-SIM\n", argv[0]);
		return 2;
	}
	sim_path = argv[1];
	return _cmocka_run_group_tests(argv[0], tests, count, NULL, NULL);
}

static int start(void **state, bool test_faults)
{
	struct fixture *f = calloc(1, sizeof(*f));

	snprintf(f->dir, sizeof(f->dir), "/tmp/agx-sim-XXXXXX");
	assert_non_null(mkdtemp(f->dir));
	snprintf(f->sock, sizeof(f->sock), "%s/sim.sock", f->dir);
	f->pid = fork();
	assert_true(f->pid >= 0);
	if (f->pid == 0) {
		execl(sim_path, sim_path, "--socket", f->sock, "--memory-size", "0x10000000",
		      "--cores", "8", test_faults ? "--test-faults" : NULL, (char *)NULL);
		_exit(127);
	}
	assert_int_equal(sim_host_connect(&f->host, f->sock, TIMEOUT_MS), 0);
	*state = f;
	return 0;
}

int setup(void **state)
{
	return start(state, false);
}

/* agx-sim --test-faults: fault injection allowed */
int setup_faults(void **state)
{
	return start(state, true);
}

int teardown(void **state)
{
	struct fixture *f = *state;
	int status;

	sim_host_release(&f->host);
	kill(f->pid, SIGTERM);
	assert_int_equal(waitpid(f->pid, &status, 0), f->pid);
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), 0); /* no sanitizer report, no crash */
	unlink(f->sock);
	rmdir(f->dir);
	free(f);
	return 0;
}

void attach(struct sim_host *h)
{
	assert_int_equal(sim_host_attach(h), 0);
}

void give_ram(struct sim_host *h)
{
	assert_int_equal(sim_host_give_ram(h, RAM_PADDR, RAM_SIZE), 0);
}

void send_msg(struct sim_host *h, uint8_t ep, const uint8_t msg[8])
{
	assert_true(sim_host_send(h, ep, msg));
}

/* Runs the host until the firmware logged text; the log says why not. */
void expect_log(struct sim_host *h, const char *text)
{
	if (!sim_host_run(h, sim_host_logged, text, TIMEOUT_MS))
		fail_msg("waiting for the log line '%s': %s", text, h->error);
}

void boot(struct sim_host *h)
{
	assert_int_equal(*agx_mmio_u32(h->mmio, AGX_MMIO_CPU_STATUS), AGX_MMIO_CPU_STATUS_STOPPED);
	if (!sim_host_boot(h, TIMEOUT_MS))
		fail_msg("boot: %s", h->error);
	assert_int_equal(*agx_mmio_u32(h->mmio, AGX_MMIO_CPU_STATUS), AGX_MMIO_CPU_STATUS_RUNNING);
	assert_int_equal(h->hello_min, 11);
	assert_int_equal(h->hello_max, 12);
	/* system endpoints 0, 1, 2, 4; the GPU firmware's at 0x20 and 0x21 */
	assert_int_equal(h->epmap[0], 0x17);
	assert_int_equal(h->epmap[1], 0x3);
	assert_int_equal(h->iop_power, AGX_RTKIT_POWER_ON);
	assert_int_equal(h->ap_power, AGX_RTKIT_POWER_ON);
	expect_log(h, "running, RTKit protocol 12");
}
