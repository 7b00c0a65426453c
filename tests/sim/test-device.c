/*
 * test-device: agx-sim as a host meets it.  Starts the real agx-sim
 * process, attaches, maps its register page and drives the RTKit boot the
 * way Linux drivers/soc/apple/rtkit.c does (HELLO, EPMAP, STARTEP, buffer
 * grants, power states), then reads the firmware's log out of the syslog
 * buffer it granted.  Also: DMA mapping rules, bad messages, reset, a
 * second host, a host that goes away.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "agx/mmio.h"
#include "agx_rtkit.h"
#include "agx_fwabi.h"
#include "device.h"
#include "gpufw.h"
#include "host/fwhost.h"
#include "host/pagetable.h"
#include "fixture.h"

/* A raw mailbox entry, msg1 included: for messages no packer would make. */
static void send_raw(struct sim_host *h, uint64_t msg0, uint64_t msg1)
{
	struct agx_mbox_ring *r = agx_mmio_ring(h->mmio, AGX_MMIO_A2I_RING);
	uint64_t one = 1;

	r->slot[r->head % AGX_MBOX_SLOTS] = (struct agx_mbox_msg){ msg0, msg1 };
	__atomic_store_n(&r->head, r->head + 1, __ATOMIC_RELEASE);
	assert_int_equal(write(h->doorbell_fd, &one, sizeof(one)), sizeof(one));
}

static bool epmap_done(const struct sim_host *h, const void *arg)
{
	(void)arg;
	return h->epmap_done;
}

static void start_ep(struct sim_host *h, unsigned ep)
{
	struct agx_rtkit_startep s = { .ep = ep, .flag = true };
	uint8_t out[8];

	agx_rtkit_startep_pack(out, &s);
	send_msg(h, AGX_RTKIT_ENDPOINT_MANAGEMENT, out);
}

static void test_info(void **state)
{
	struct fixture *f = *state;
	Agx__Device__Info i = AGX__DEVICE__INFO__INIT;
	struct agx_ipc_msg reply;
	const Agx__Device__InfoReply *r;

	assert_int_equal(
	    sim_host_call(&f->host, AGX_IPC_MSG_DEVICE_INFO, &i.base, NULL, 0, &reply, NULL), 0);
	r = (const Agx__Device__InfoReply *)reply.body;
	assert_int_equal(r->chip_id, 0x8103);
	assert_int_equal(r->generation, 13);
	assert_int_equal(r->num_cores, 8);
	assert_int_equal(r->memory_size, MEMORY_SIZE);
	assert_non_null(strstr(r->firmware_version, "RTKit"));
	/* the defaults: 5 s a job, the interpreter's fill rate (sim/device.h) */
	assert_int_equal(r->job_time_limit_ms, 5000);
	assert_int_equal(r->fill_bytes_per_ms, SIM_FILL_BYTES_PER_MS);
	agx_ipc_msg_finish(&reply);

	/* without --test-faults, no fault injection */
	Agx__Device__InjectFault inject = AGX__DEVICE__INJECT_FAULT__INIT;
	struct agx_ipc_error err;

	assert_int_equal(sim_host_call(&f->host, AGX_IPC_MSG_DEVICE_INJECT_FAULT, &inject.base,
				       NULL, 0, NULL, &err),
			 -EPERM);
	assert_non_null(strstr(err.message, "--test-faults"));
}

static void test_boot(void **state)
{
	struct fixture *f = *state;
	struct sim_host *h = &f->host;

	attach(h);
	assert_int_equal(*agx_mmio_u32(h->mmio, AGX_MMIO_ID), AGX_MMIO_ID_VALUE);
	assert_int_equal(*agx_mmio_u32(h->mmio, AGX_MMIO_I2A_CONTROL), AGX_MMIO_CONTROL_EMPTY);
	give_ram(h);
	boot(h);
	assert_int_equal(h->syslog_entries, 8);
	assert_int_equal(h->syslog_msg_size, 0x80);
	/* the syslog, crashlog and ioreport buffers: 1 + 4 + 1 pages */
	assert_int_equal(h->ram_next - RAM_PADDR, 6 * 4096);
	assert_int_equal(h->reports, 1);
}

/* PING is answered with a PONG carrying its cookie, 100k times; a bad echo is logged. */
static void test_ping(void **state)
{
	struct fixture *f = *state;
	struct sim_host *h = &f->host;
	struct agx_rtkit_ioreport_notify wrong = { .type = 8, .payload = 0x777 };
	uint8_t out[8];

	attach(h);
	give_ram(h);
	boot(h);
	for (uint64_t cookie = 1; cookie < (1ull << 52); cookie = cookie * 3 + 7)
		assert_true(sim_host_ping(h, cookie, TIMEOUT_MS));
	/* the rings wrap around (64 slots, 32-bit indices) many times over */
	for (uint64_t cookie = 1; cookie <= 100000; cookie++)
		assert_true(sim_host_ping(h, cookie, TIMEOUT_MS));
	assert_true(agx_mmio_ring(h->mmio, AGX_MMIO_A2I_RING)->head > 100000);
	agx_rtkit_ioreport_notify_pack(out, &wrong);
	send_msg(h, AGX_RTKIT_ENDPOINT_IOREPORT, out);
	expect_log(h, "ioreport echo 0x777 does not match 0x1");
}

/* Until RUN is set, the firmware does not read the mailbox. */
static void test_not_running(void **state)
{
	struct fixture *f = *state;
	struct sim_host *h = &f->host;
	struct pollfd pfd;
	uint8_t out[8] = { 0 };

	attach(h);
	send_msg(h, AGX_RTKIT_ENDPOINT_MANAGEMENT, out);
	pfd = (struct pollfd){ .fd = h->irq_fd, .events = POLLIN };
	assert_int_equal(poll(&pfd, 1, 200), 0);
	assert_int_equal(*agx_mmio_u32(h->mmio, AGX_MMIO_CPU_STATUS), AGX_MMIO_CPU_STATUS_STOPPED);
	assert_int_equal(*agx_mmio_u32(h->mmio, AGX_MMIO_A2I_CONTROL), 0); /* one waiting */

	/* nobody drains the ring: it fills at 64, says FULL, refuses the 65th */
	for (unsigned i = 1; i < AGX_MBOX_SLOTS; i++) {
		struct agx_rtkit_ping ping = { .cookie = i };

		agx_rtkit_ping_pack(out, &ping);
		send_msg(h, AGX_RTKIT_ENDPOINT_MANAGEMENT, out);
	}
	assert_int_equal(*agx_mmio_u32(h->mmio, AGX_MMIO_A2I_CONTROL), AGX_MMIO_CONTROL_FULL);
	assert_false(sim_host_send(h, AGX_RTKIT_ENDPOINT_MANAGEMENT, out));
	assert_non_null(strstr(h->error, "full"));

	/* once it runs, the firmware takes them all (and logs them: too early) */
	give_ram(h);
	if (!sim_host_boot(h, TIMEOUT_MS))
		fail_msg("boot: %s", h->error);
	/* (the host's last acknowledgements may still be on their way) */
	for (int i = 0; i < 500 && agx_mbox_pending(h->mmio, AGX_MMIO_A2I_RING); i++)
		usleep(10000);
	assert_int_equal(*agx_mmio_u32(h->mmio, AGX_MMIO_A2I_CONTROL), AGX_MMIO_CONTROL_EMPTY);
}

static void test_dma_rules(void **state)
{
	struct fixture *f = *state;
	struct sim_host *h = &f->host;
	struct agx_ipc_error err;
	const int rw = AGX__DEVICE__PROTECTION__PROTECTION_READ_WRITE;
	int fd = memfd_create("test", MFD_CLOEXEC);

	assert_int_equal(ftruncate(fd, 1 << 20), 0);
	assert_int_equal(sim_host_dma_map(h, 0x4000, 0x8000, fd, 0, rw, NULL), 0);
	/* overlap, misalignment, outside the device's memory, no read permission */
	assert_int_equal(sim_host_dma_map(h, 0x8000, 0x4000, fd, 0, rw, &err), -EBUSY);
	assert_int_equal(err.code, AGX__IPC__ERROR_CODE__ERROR_BUSY);
	assert_non_null(strstr(err.message, "overlaps"));
	assert_int_equal(sim_host_dma_map(h, 0x11000, 0x4000, fd, 0, rw, &err), -EINVAL);
	assert_int_equal(sim_host_dma_map(h, 0x10000, 0x4000, fd, 0x1000, rw, &err), -EINVAL);
	assert_int_equal(sim_host_dma_map(h, 0x10000, 0, fd, 0, rw, &err), -EINVAL);
	assert_int_equal(sim_host_dma_map(h, MEMORY_SIZE - 0x4000, 0x8000, fd, 0, rw, &err),
			 -EINVAL);
	assert_int_equal(sim_host_dma_map(h, UINT64_MAX - 0x3fff, 0x8000, fd, 0, rw, &err),
			 -EINVAL);
	assert_int_equal(sim_host_dma_map(h, 0x10000, 0x4000, fd, 0,
					  AGX__DEVICE__PROTECTION__PROTECTION_WRITE, &err),
			 -EINVAL);
	assert_non_null(strstr(err.message, "reading"));
	/* read-only memory cannot be mapped from a read-only fd for writing */
	int ro = open("/proc/self/exe", O_RDONLY | O_CLOEXEC);
	assert_true(ro >= 0);
	assert_true(sim_host_dma_map(h, 0x10000, 0x4000, ro, 0, rw, &err) < 0);
	assert_int_equal(sim_host_dma_map(h, 0x10000, 0x4000, ro, 0,
					  AGX__DEVICE__PROTECTION__PROTECTION_READ, NULL),
			 0);
	close(ro);
	/* unmapping is by the exact range; others' ranges are not ours to unmap */
	assert_true(sim_host_dma_unmap(h, 0x4000, 0x4000) < 0);
	assert_int_equal(sim_host_dma_unmap(h, 0x4000, 0x8000), 0);
	assert_true(sim_host_dma_unmap(h, 0x4000, 0x8000) < 0);

	struct sim_host o;

	assert_int_equal(sim_host_connect(&o, f->sock, TIMEOUT_MS), 0);
	assert_true(sim_host_dma_unmap(&o, 0x10000, 0x4000) < 0);
	assert_int_equal(sim_host_dma_map(&o, 0x4000, 0x4000, fd, 0, rw, NULL), 0);
	sim_host_release(&o); /* its mappings go with its connection, soon */
	int ret = -EBUSY;

	for (int i = 0; i < 500 && ret == -EBUSY; i++) {
		ret = sim_host_dma_map(h, 0x4000, 0x4000, fd, 0, rw, NULL);
		if (ret == -EBUSY)
			usleep(10000);
	}
	assert_int_equal(ret, 0);
	close(fd);
}

/* A DMA_MAP without its file descriptor is refused by the protocol layer. */
static void test_dma_without_fd(void **state)
{
	struct fixture *f = *state;
	Agx__Device__DmaMap m = AGX__DEVICE__DMA_MAP__INIT;

	m.size = 0x4000;
	m.protection = AGX__DEVICE__PROTECTION__PROTECTION_READ;
	assert_true(
	    sim_host_call(&f->host, AGX_IPC_MSG_DEVICE_DMA_MAP, &m.base, NULL, 0, NULL, NULL) < 0);
	test_info(state); /* and the device still answers */
}

/* Nonsense from the host is logged by the firmware, never acted on. */
static void test_bad_messages(void **state)
{
	struct fixture *f = *state;
	struct sim_host *h = &f->host;
	struct agx_rtkit_mgmt unknown = { .type = 0x3f };
	struct agx_rtkit_hello_reply late = { .min_ver = 12, .max_ver = 12 };
	struct agx_rtkit_startep bogus = { .ep = 0x30, .flag = true };
	uint8_t out[8];

	attach(h);
	give_ram(h);
	boot(h);
	agx_rtkit_mgmt_pack(out, &unknown);
	send_msg(h, AGX_RTKIT_ENDPOINT_MANAGEMENT, out);
	expect_log(h, "unknown management message type 0x3f");
	agx_rtkit_hello_reply_pack(out, &late);
	send_msg(h, AGX_RTKIT_ENDPOINT_MANAGEMENT, out);
	expect_log(h, "unacceptable HELLO reply");
	agx_rtkit_startep_pack(out, &bogus);
	send_msg(h, AGX_RTKIT_ENDPOINT_MANAGEMENT, out);
	expect_log(h, "endpoint 0x30, which does not exist");
	send_raw(h, 0x1234, 0x100 | AGX_RTKIT_ENDPOINT_MANAGEMENT);
	expect_log(h, "stray bits in msg1");
	memset(out, 0, sizeof(out));
	send_msg(h, 0x33, out);
	expect_log(h, "endpoint 0x33 ignored");
	/* a buffer granted twice is refused */
	struct agx_rtkit_buffer_request again = { .iova = RAM_PADDR, .pages = 4 };

	agx_rtkit_buffer_request_pack(out, &again);
	send_msg(h, AGX_RTKIT_ENDPOINT_CRASHLOG, out);
	expect_log(h, "unexpected buffer message on endpoint 1");
	/* a corrupt ring (head far past tail) is dropped, and the device goes on */
	struct agx_mbox_ring *r = agx_mmio_ring(h->mmio, AGX_MMIO_A2I_RING);
	uint64_t one = 1;

	__atomic_store_n(&r->head, r->tail + 1000, __ATOMIC_RELEASE);
	assert_int_equal(write(h->doorbell_fd, &one, sizeof(one)), sizeof(one));
	for (int i = 0; i < 500 && __atomic_load_n(&r->tail, __ATOMIC_ACQUIRE) != r->head; i++)
		usleep(10000);
	assert_int_equal(r->tail, r->head); /* the firmware skipped the garbage */
	send_raw(h, 0, 0x34);
	expect_log(h, "endpoint 0x34 ignored");
}

/* A buffer the host places where no memory is mapped is a bus error, reported. */
static void test_unmapped_buffer(void **state)
{
	struct fixture *f = *state;
	struct sim_host *h = &f->host;
	uint64_t one = 1;

	attach(h);
	give_ram(h);
	h->crashlog_iova = 0x8000000; /* inside the device's memory, but nothing there */
	*agx_mmio_u32(h->mmio, AGX_MMIO_CPU_CONTROL) = AGX_MMIO_CPU_CONTROL_RUN;
	assert_int_equal(write(h->doorbell_fd, &one, sizeof(one)), sizeof(one));
	assert_true(sim_host_run(h, epmap_done, NULL, TIMEOUT_MS));
	start_ep(h, AGX_RTKIT_ENDPOINT_SYSLOG);
	start_ep(h, AGX_RTKIT_ENDPOINT_CRASHLOG);
	expect_log(h, "buffer for endpoint 1 at 0x8000000 is not mapped");
	/* and a grant of real memory is taken after the refusal */
	h->crashlog_iova = 0;
	struct agx_rtkit_buffer_request grant = { .iova = RAM_PADDR + 0x10000, .pages = 4 };
	uint8_t out[8];

	agx_rtkit_buffer_request_pack(out, &grant);
	send_msg(h, AGX_RTKIT_ENDPOINT_CRASHLOG, out);
	send_msg(h, AGX_RTKIT_ENDPOINT_CRASHLOG, out);
	expect_log(h, "unexpected buffer message on endpoint 1");
}

/* RESET stops the firmware and brings the registers back; memory stays. */
static void test_reset(void **state)
{
	struct fixture *f = *state;
	struct sim_host *h = &f->host;

	attach(h);
	give_ram(h);
	boot(h);
	h->ram[0x1000] = 0x5a;
	assert_int_equal(sim_host_reset(h), 0);
	assert_int_equal(*agx_mmio_u32(h->mmio, AGX_MMIO_CPU_STATUS), AGX_MMIO_CPU_STATUS_STOPPED);
	assert_int_equal(*agx_mmio_u32(h->mmio, AGX_MMIO_CPU_CONTROL), 0);
	assert_int_equal(h->ram[0x1000], 0x5a);
	/* and it boots again, into the same memory */
	boot(h);
	assert_int_equal(h->ram_next - RAM_PADDR, 6 * 4096);
}

/* One host at a time; the next may attach once the first has gone. */
static void test_second_host(void **state)
{
	struct fixture *f = *state;
	Agx__Device__Attach a = AGX__DEVICE__ATTACH__INIT;
	Agx__Device__Reset r = AGX__DEVICE__RESET__INIT;
	struct sim_host o;
	struct agx_ipc_error err;

	attach(&f->host);
	assert_int_equal(sim_host_connect(&o, f->sock, TIMEOUT_MS), 0);
	assert_int_equal(sim_host_call(&o, AGX_IPC_MSG_DEVICE_ATTACH, &a.base, NULL, 0, NULL, &err),
			 -EBUSY);
	assert_int_equal(sim_host_call(&o, AGX_IPC_MSG_DEVICE_RESET, &r.base, NULL, 0, NULL, &err),
			 -EPERM);
	sim_host_release(&f->host);
	/* the device notices the disconnect on its own loop, soon */
	int ret = -EBUSY;

	for (int i = 0; i < 500 && ret == -EBUSY; i++) {
		ret = sim_host_call(&o, AGX_IPC_MSG_DEVICE_ATTACH, &a.base, NULL, 0, NULL, NULL);
		if (ret == -EBUSY)
			usleep(10000);
	}
	assert_int_equal(ret, 0);
	f->host = o; /* teardown releases it */
}

static bool crashed(const struct sim_host *h, const void *arg)
{
	(void)arg;
	return h->crashed;
}

/* The section of the crashlog with this fourcc, or NULL; *size its data size. */
static const uint8_t *crashlog_section(const uint8_t *log, const char fourcc[4], uint32_t *size)
{
	uint32_t want = (uint32_t)fourcc[0] << 24 | (uint32_t)fourcc[1] << 16 |
			(uint32_t)fourcc[2] << 8 | (uint8_t)fourcc[3];
	uint32_t total, at = 0x20, tag, len;

	memcpy(&tag, log, 4);
	memcpy(&total, log + 8, 4);
	assert_int_equal(tag, 0x434c4845); /* 'CLHE' */
	assert_true(total <= 4 * 4096);
	while (at + 16 <= total) {
		memcpy(&tag, log + at, 4);
		memcpy(&len, log + at + 12, 4);
		assert_true(len >= 16);
		if (tag == want) {
			*size = len - 16;
			return log + at + 16;
		}
		at += len;
	}
	return NULL;
}

/* A crash: the crashlog as Linux reads it, the report, then silence until RESET. */
static void test_firmware_crash(void **state)
{
	struct fixture *f = *state;
	struct sim_host *h = &f->host;
	const uint8_t *log, *d;
	uint32_t size;

	attach(h);
	give_ram(h);
	boot(h);
	assert_true(sim_host_ping(h, 42, TIMEOUT_MS));
	assert_int_equal(
	    sim_host_inject(h, AGX__DEVICE__INJECT_FAULT__KIND__KIND_FIRMWARE_CRASH, 0, 0, 0), 0);
	assert_true(sim_host_run(h, crashed, NULL, TIMEOUT_MS));
	log = h->ram + (h->crashlog_granted - RAM_PADDR);
	d = crashlog_section(log, "Cstr", &size);
	assert_non_null(d);
	assert_non_null(strstr((const char *)d + 4, "injected firmware crash"));
	d = crashlog_section(log, "Cver", &size);
	assert_non_null(d);
	assert_string_equal((const char *)d + 16, "agx-sim RTKit 12");
	assert_non_null(crashlog_section(log, "Ctim", &size));
	d = crashlog_section(log, "Cmbx", &size);
	assert_non_null(d);
	/* the last message the firmware took was our ping (cookie 42) */
	uint32_t index;
	uint64_t msg0;

	memcpy(&index, d + 24, 4);
	memcpy(&msg0, d + 28 + ((index + 7) % 8) * 0x18, 8);
	assert_int_equal(msg0 & 0xfffffffffffffull, 42);
	assert_false(sim_host_ping(h, 43, 300)); /* nobody answers */

	assert_int_equal(sim_host_reset(h), 0);
	boot(h);
	assert_true(sim_host_ping(h, 44, TIMEOUT_MS));
}

/* A hang: no crashlog, no report, no answers; RESET brings it back. */
static void test_firmware_hang(void **state)
{
	struct fixture *f = *state;
	struct sim_host *h = &f->host;

	attach(h);
	give_ram(h);
	boot(h);
	assert_int_equal(
	    sim_host_inject(h, AGX__DEVICE__INJECT_FAULT__KIND__KIND_FIRMWARE_HANG, 0, 0, 0), 0);
	assert_false(sim_host_ping(h, 1, 300));
	assert_false(h->crashed);
	assert_int_equal(sim_host_reset(h), 0);
	boot(h);
	assert_true(sim_host_ping(h, 2, TIMEOUT_MS));
}

/* A dropped IRQ: the message is in the ring, but no interrupt says so. */
static void test_drop_irq(void **state)
{
	struct fixture *f = *state;
	struct sim_host *h = &f->host;
	struct agx_rtkit_ping p = { .cookie = 7 };
	struct pollfd pfd;
	uint64_t count;
	uint8_t out[8];

	attach(h);
	give_ram(h);
	boot(h);
	expect_log(h, "running");
	/* settle: everything the boot sent is taken, the IRQ count cleared and quiet */
	assert_true(sim_host_ping(h, 100, TIMEOUT_MS));
	pfd = (struct pollfd){ .fd = h->irq_fd, .events = POLLIN };
	while (poll(&pfd, 1, 50) == 1)
		assert_int_equal(read(h->irq_fd, &count, sizeof(count)), sizeof(count));
	assert_int_equal(
	    sim_host_inject(h, AGX__DEVICE__INJECT_FAULT__KIND__KIND_DROP_IRQ, 0, 1, 0), 0);
	agx_rtkit_ping_pack(out, &p);
	send_msg(h, AGX_RTKIT_ENDPOINT_MANAGEMENT, out);
	for (int i = 0; i < 500 && !agx_mbox_pending(h->mmio, AGX_MMIO_I2A_RING); i++)
		usleep(10000);
	assert_true(agx_mbox_pending(h->mmio, AGX_MMIO_I2A_RING)); /* the pong is there */
	assert_int_equal(poll(&pfd, 1, 200), 0);		   /* but no interrupt came */
	assert_true(sim_host_run(h, sim_host_ponged, &p.cookie, TIMEOUT_MS));
	/* only one was dropped: the next answer raises its IRQ */
	p.cookie = 8;
	agx_rtkit_ping_pack(out, &p);
	send_msg(h, AGX_RTKIT_ENDPOINT_MANAGEMENT, out);
	assert_int_equal(poll(&pfd, 1, TIMEOUT_MS), 1);
	assert_true(sim_host_run(h, sim_host_ponged, &p.cookie, TIMEOUT_MS));
}

/* An injected bus error: the firmware cannot write its log there, and carries on. */
static void test_bus_error(void **state)
{
	struct fixture *f = *state;
	struct sim_host *h = &f->host;
	struct agx_rtkit_mgmt unknown = { .type = 0x3e };
	uint8_t out[8];
	unsigned lines;

	attach(h);
	give_ram(h);
	boot(h);
	assert_int_equal(sim_host_inject(h, AGX__DEVICE__INJECT_FAULT__KIND__KIND_BUS_ERROR,
					 h->syslog_iova + 0x100, 0, 0),
			 0);
	lines = h->num_log;
	agx_rtkit_mgmt_pack(out, &unknown);
	send_msg(h, AGX_RTKIT_ENDPOINT_MANAGEMENT, out);
	assert_true(sim_host_ping(h, 9, TIMEOUT_MS)); /* the firmware is fine */
	assert_int_equal(h->num_log, lines);	      /* but its log line could not be written */
	/* RESET ends the injection */
	assert_int_equal(sim_host_reset(h), 0);
	boot(h);
	send_msg(h, AGX_RTKIT_ENDPOINT_MANAGEMENT, out);
	expect_log(h, "unknown management message type 0x3e");
}

#define PT_OFFSET 0x40000u
#define PT_SIZE	  0x80000u
#define FW_OFFSET 0xc0000u
#define FW_PAGES  8u
#define PAGE	  0x4000u

/* initdata's status byte says refused */
static bool refused(const struct sim_host *h, const void *initdata)
{
	(void)h;
	return __atomic_load_n((const uint8_t *)initdata + 6, __ATOMIC_ACQUIRE) ==
	       AGX_FW_STATUS_BAD_INITDATA;
}

static void expect_event(struct sim_fwhost *fh, enum agx_fw_event_type type, uint32_t seq)
{
	struct agx_fw_event e;

	if (!sim_fwhost_event(fh, &e, TIMEOUT_MS))
		fail_msg("no event: %s", fh->host->error);
	assert_int_equal(e.type, type);
	assert_int_equal(e.seq, seq);
}

/*
 * The GPU firmware: initdata through the UAT, its first line on the log
 * channel, fwctl acknowledged on the event channel, and a TLB that keeps a
 * stale translation of the event ring until fwctl invalidates it.
 */
static void test_gpu_firmware(void **state)
{
	struct fixture *f = *state;
	struct sim_host *h = &f->host;
	struct sim_fwhost fh;
	struct agx_fw_fwctl op = { .op = AGX_FW_FWCTL_OP_CACHE_FLUSH, .seq = 1 };
	struct agx_fw_init init = { .initdata = SIM_FWHOST_VA & ((1ull << 44) - 1) };
	/* the event ring is the firmware's page 2; "spare" is a page nobody uses */
	uint64_t spare = FW_OFFSET + FW_PAGES * PAGE;
	struct agx_fw_event e;
	char line[64];
	uint8_t out[8];

	attach(h);
	give_ram(h);
	assert_int_equal(sim_fwhost_init(&fh, h, PT_OFFSET, PT_SIZE, FW_OFFSET, FW_PAGES), 0);
	boot(h);
	assert_true(sim_fwhost_start(&fh, TIMEOUT_MS));
	assert_true(sim_fwhost_log(&fh, line, sizeof(line)));
	assert_non_null(strstr(line, "GPU firmware running"));

	/* a cache flush, acknowledged as event 0 */
	assert_true(sim_fwhost_fwctl(&fh, &op));
	expect_event(&fh, AGX_FW_EVENT_TYPE_FWCTL_DONE, 1);

	/* move the event ring's page without telling the firmware: it keeps the old one */
	assert_int_equal(sim_pagetable_map(&fh.pt, 0, SIM_FWHOST_VA + 2 * PAGE, RAM_PADDR + spare,
					   1, true, true),
			 0);
	op.seq = 2;
	assert_true(sim_fwhost_fwctl(&fh, &op));
	expect_event(&fh, AGX_FW_EVENT_TYPE_FWCTL_DONE, 2);

	/* now invalidate: the acknowledgement itself goes to the new page (entry 2) */
	op = (struct agx_fw_fwctl){ .op = AGX_FW_FWCTL_OP_TLB_INVALIDATE,
				    .context = 0,
				    .va = SIM_FWHOST_VA + 2 * PAGE,
				    .size = PAGE,
				    .seq = 3 };
	assert_true(sim_fwhost_fwctl(&fh, &op));
	assert_true(sim_fwhost_event(&fh, &e, TIMEOUT_MS));
	assert_int_equal(e.type, 0); /* the old page's entry 2 stayed empty */
	assert_true(agx_fw_event_unpack(h->ram + spare + 2 * AGX_FW_EVENT_LENGTH, &e));
	assert_int_equal(e.type, AGX_FW_EVENT_TYPE_FWCTL_DONE);
	assert_int_equal(e.seq, 3);

	/* bad initdata is refused with a status, and logged */
	fh.fw[0] ^= 0xff;
	agx_fw_init_pack(out, &init);
	send_msg(h, SIM_EP_GPU_FIRMWARE, out);
	expect_log(h, "refused");
	assert_true(sim_host_run(h, refused, fh.fw, TIMEOUT_MS));
}

/* The host takes the firmware's buffers away while it uses them: bus errors, no crash. */
static void test_unmap_in_use(void **state)
{
	struct fixture *f = *state;
	struct sim_host *h = &f->host;
	struct agx_rtkit_mgmt unknown = { .type = 0x3d };
	uint8_t out[8];
	unsigned lines;

	attach(h);
	give_ram(h);
	boot(h);
	assert_int_equal(sim_host_dma_unmap(h, RAM_PADDR, RAM_SIZE), 0);
	lines = h->num_log;
	agx_rtkit_mgmt_pack(out, &unknown);
	send_msg(h, AGX_RTKIT_ENDPOINT_MANAGEMENT, out); /* its log line has nowhere to go */
	assert_true(sim_host_ping(h, 5, TIMEOUT_MS));	 /* and the firmware carries on */
	assert_int_equal(h->num_log, lines);
	/* mapped again, the log works again */
	assert_int_equal(sim_host_dma_map(h, RAM_PADDR, RAM_SIZE, h->ram_fd, 0,
					  AGX__DEVICE__PROTECTION__PROTECTION_READ_WRITE, NULL),
			 0);
	send_msg(h, AGX_RTKIT_ENDPOINT_MANAGEMENT, out);
	expect_log(h, "unknown management message type 0x3d");
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_info, setup, teardown),
		cmocka_unit_test_setup_teardown(test_boot, setup, teardown),
		cmocka_unit_test_setup_teardown(test_ping, setup, teardown),
		cmocka_unit_test_setup_teardown(test_not_running, setup, teardown),
		cmocka_unit_test_setup_teardown(test_dma_rules, setup, teardown),
		cmocka_unit_test_setup_teardown(test_dma_without_fd, setup, teardown),
		cmocka_unit_test_setup_teardown(test_bad_messages, setup, teardown),
		cmocka_unit_test_setup_teardown(test_unmapped_buffer, setup, teardown),
		cmocka_unit_test_setup_teardown(test_reset, setup, teardown),
		cmocka_unit_test_setup_teardown(test_second_host, setup, teardown),
		cmocka_unit_test_setup_teardown(test_gpu_firmware, setup, teardown),
		cmocka_unit_test_setup_teardown(test_unmap_in_use, setup, teardown),
		cmocka_unit_test_setup_teardown(test_firmware_crash, setup_faults, teardown),
		cmocka_unit_test_setup_teardown(test_firmware_hang, setup_faults, teardown),
		cmocka_unit_test_setup_teardown(test_drop_irq, setup_faults, teardown),
		cmocka_unit_test_setup_teardown(test_bus_error, setup_faults, teardown),
	};

	return fixture_main(argc, argv, tests, sizeof(tests) / sizeof(tests[0]));
}
