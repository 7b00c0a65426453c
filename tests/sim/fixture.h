/*
 * fixture.h: what the device tests share: an agx-sim process per test,
 * started by setup and stopped (and checked for a clean exit) by
 * teardown, with a sim_host attached to it.
 */
#ifndef TESTS_SIM_FIXTURE_H
#define TESTS_SIM_FIXTURE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "host/host.h"

#define MEMORY_SIZE (256ull << 20)
#define RAM_PADDR   0x100000ull /* where the test maps its memfd */
#define RAM_SIZE    (4ull << 20)
#define TIMEOUT_MS  5000

extern const char *sim_path;

struct fixture {
	char dir[64];
	char sock[108];
	pid_t pid;
	struct sim_host host;
};

struct CMUnitTest;

/* main() of a device test: `TEST AGX-SIM`, then the tests. */
int fixture_main(int argc, char **argv, const struct CMUnitTest *tests, size_t count);

/* CMocka setups: agx-sim plain, or with --test-faults; and the teardown. */
int setup(void **state);
int setup_faults(void **state);
int teardown(void **state);

void attach(struct sim_host *h);
void give_ram(struct sim_host *h);
void send_msg(struct sim_host *h, uint8_t ep, const uint8_t msg[8]);
/* Runs the host until the firmware logged text; fails the test if it does not. */
void expect_log(struct sim_host *h, const char *text);
/* The whole RTKit boot, and what the firmware must have said on the way. */
void boot(struct sim_host *h);

#endif
