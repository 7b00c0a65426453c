/*
 * host.c: the RTKit host of host.h.
 */
#include <errno.h>
#include <poll.h>
#include <stddef.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "agx_rtkit.h"
#include "host.h"

static bool failed(struct sim_host *h, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static bool failed(struct sim_host *h, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(h->error, sizeof(h->error), fmt, ap);
	va_end(ap);
	return false;
}

int sim_host_connect(struct sim_host *h, const char *socket, int timeout_ms)
{
	struct timespec pause = { .tv_nsec = 10 * 1000 * 1000 };
	int ret;

	memset(h, 0, sizeof(*h));
	h->mmio_fd = h->doorbell_fd = h->irq_fd = h->ram_fd = -1;
	/* a device just started: its socket appears when it is ready */
	for (int waited = 0;; waited += 10) {
		ret = agx_ipc_client_connect(socket, AGX__IPC__INTERFACE__INTERFACE_DEVICE,
					     "sim-host", timeout_ms, &h->client, NULL);
		if (ret == 0 || waited >= timeout_ms)
			return ret;
		nanosleep(&pause, NULL);
	}
}

void sim_host_release(struct sim_host *h)
{
	if (h->mmio)
		munmap(h->mmio, AGX_MMIO_SIZE);
	if (h->ram)
		munmap(h->ram, h->ram_size);
	for (int *fd = &h->mmio_fd; fd <= &h->irq_fd; fd++)
		if (*fd >= 0)
			close(*fd);
	if (h->ram_fd >= 0)
		close(h->ram_fd);
	if (h->client)
		agx_ipc_client_destroy(h->client);
	memset(h, 0, sizeof(*h));
	h->mmio_fd = h->doorbell_fd = h->irq_fd = h->ram_fd = -1;
}

int sim_host_call(struct sim_host *h, uint16_t type, const ProtobufCMessage *body, const int *fds,
		  unsigned num_fds, struct agx_ipc_msg *reply, struct agx_ipc_error *err)
{
	struct agx_ipc_msg local;
	int ret = agx_ipc_client_call(h->client, type, body, fds, num_fds, reply ? reply : &local,
				      5000, err);

	if (ret == 0 && !reply)
		agx_ipc_msg_finish(&local);
	return ret;
}

int sim_host_attach(struct sim_host *h)
{
	Agx__Device__Attach a = AGX__DEVICE__ATTACH__INIT;
	struct agx_ipc_msg reply;
	int ret = sim_host_call(h, AGX_IPC_MSG_DEVICE_ATTACH, &a.base, NULL, 0, &reply, NULL);

	if (ret < 0)
		return ret;
	if (reply.num_fds != 3 ||
	    ((Agx__Device__AttachReply *)reply.body)->mmio_size != AGX_MMIO_SIZE) {
		agx_ipc_msg_finish(&reply);
		return -EPROTO;
	}
	h->mmio_fd = reply.fds[0];
	h->doorbell_fd = reply.fds[1];
	h->irq_fd = reply.fds[2];
	reply.num_fds = 0; /* ours now */
	agx_ipc_msg_finish(&reply);
	h->mmio = mmap(NULL, AGX_MMIO_SIZE, PROT_READ | PROT_WRITE, MAP_SHARED, h->mmio_fd, 0);
	if (h->mmio == MAP_FAILED) {
		h->mmio = NULL;
		return -errno;
	}
	return 0;
}

int sim_host_dma_map(struct sim_host *h, uint64_t paddr, uint64_t size, int fd, uint64_t offset,
		     int protection, struct agx_ipc_error *err)
{
	Agx__Device__DmaMap m = AGX__DEVICE__DMA_MAP__INIT;

	m.paddr = paddr;
	m.size = size;
	m.offset = offset;
	m.protection = (Agx__Device__Protection)protection;
	return sim_host_call(h, AGX_IPC_MSG_DEVICE_DMA_MAP, &m.base, &fd, 1, NULL, err);
}

int sim_host_dma_unmap(struct sim_host *h, uint64_t paddr, uint64_t size)
{
	Agx__Device__DmaUnmap m = AGX__DEVICE__DMA_UNMAP__INIT;

	m.paddr = paddr;
	m.size = size;
	return sim_host_call(h, AGX_IPC_MSG_DEVICE_DMA_UNMAP, &m.base, NULL, 0, NULL, NULL);
}

int sim_host_inject(struct sim_host *h, Agx__Device__InjectFault__Kind kind, uint64_t address,
		    unsigned count, unsigned delay_ms)
{
	Agx__Device__InjectFault m = AGX__DEVICE__INJECT_FAULT__INIT;

	m.kind = kind;
	m.address = address;
	m.count = count;
	m.delay_ms = delay_ms;
	return sim_host_call(h, AGX_IPC_MSG_DEVICE_INJECT_FAULT, &m.base, NULL, 0, NULL, NULL);
}

int sim_host_reset(struct sim_host *h)
{
	Agx__Device__Reset r = AGX__DEVICE__RESET__INIT;
	int ret = sim_host_call(h, AGX_IPC_MSG_DEVICE_RESET, &r.base, NULL, 0, NULL, NULL);

	if (ret < 0)
		return ret;
	memset(&h->hello_min, 0, sizeof(*h) - offsetof(struct sim_host, hello_min));
	h->ram_next = h->ram_paddr;
	h->crashlog_iova = 0;
	return 0;
}

int sim_host_give_ram(struct sim_host *h, uint64_t paddr, uint64_t size)
{
	h->ram_fd = memfd_create("sim-host-ram", MFD_CLOEXEC);
	if (h->ram_fd < 0 || ftruncate(h->ram_fd, (off_t)size) < 0)
		return -errno;
	h->ram = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, h->ram_fd, 0);
	if (h->ram == MAP_FAILED) {
		h->ram = NULL;
		return -errno;
	}
	h->ram_paddr = h->ram_next = paddr;
	h->ram_size = size;
	return sim_host_dma_map(h, paddr, size, h->ram_fd, 0,
				AGX__DEVICE__PROTECTION__PROTECTION_READ_WRITE, NULL);
}

static void ring_doorbell(struct sim_host *h)
{
	uint64_t one = 1;

	if (write(h->doorbell_fd, &one, sizeof(one)) != sizeof(one))
		failed(h, "doorbell: %s", strerror(errno));
}

bool sim_host_send(struct sim_host *h, uint8_t ep, const uint8_t msg[8])
{
	uint64_t msg0 = 0;

	for (int i = 7; i >= 0; i--)
		msg0 = msg0 << 8 | msg[i];
	if (!agx_mbox_push(h->mmio, AGX_MMIO_A2I_RING, AGX_MMIO_A2I_CONTROL, msg0, ep))
		return failed(h, "host-to-device mailbox full");
	ring_doorbell(h);
	return true;
}

bool sim_host_send_waiting(struct sim_host *h, uint8_t ep, const uint8_t msg[8])
{
	struct timespec pause = { .tv_nsec = 100 * 1000 };

	for (int i = 0; i < 50000; i++) {
		if (sim_host_send(h, ep, msg))
			return true;
		nanosleep(&pause, NULL);
	}
	return false;
}

static bool management(struct sim_host *h, const uint8_t msg[8])
{
	struct agx_rtkit_hello hello;
	struct agx_rtkit_epmap map;
	struct agx_rtkit_iop_power iop;
	struct agx_rtkit_ap_power ap;
	struct agx_rtkit_pong pong;
	uint8_t out[8];

	if (agx_rtkit_hello_unpack(msg, &hello)) {
		/* like Linux: the highest version both speak */
		struct agx_rtkit_hello_reply r = { .min_ver = hello.max_ver,
						   .max_ver = hello.max_ver };

		h->hello_min = (unsigned)hello.min_ver;
		h->hello_max = (unsigned)hello.max_ver;
		agx_rtkit_hello_reply_pack(out, &r);
		return sim_host_send_waiting(h, AGX_RTKIT_ENDPOINT_MANAGEMENT, out);
	}
	if (agx_rtkit_epmap_unpack(msg, &map)) {
		struct agx_rtkit_epmap_reply r = { .base = map.base,
						   .more = !map.last,
						   .last = map.last };

		if (map.base >= 2)
			return failed(h, "EPMAP for base %u", (unsigned)map.base);
		h->epmap[map.base] = map.bitmap;
		h->epmap_done = map.last;
		agx_rtkit_epmap_reply_pack(out, &r);
		return sim_host_send_waiting(h, AGX_RTKIT_ENDPOINT_MANAGEMENT, out);
	}
	if (agx_rtkit_iop_power_unpack(msg, &iop) && iop.type == 7 /* the ack */) {
		h->iop_power = (unsigned)iop.state;
		return true;
	}
	if (agx_rtkit_ap_power_unpack(msg, &ap)) {
		h->ap_power = (unsigned)ap.state;
		return true;
	}
	if (agx_rtkit_pong_unpack(msg, &pong)) {
		h->pong = pong.cookie;
		return true;
	}
	return failed(h, "unexpected management message");
}

static bool syslog_entry(struct sim_host *h, unsigned index)
{
	/* entry layout, as Linux reads it: context at +8, text at +0x20 */
	uint64_t at = h->syslog_iova + (uint64_t)index * (0x20 + h->syslog_msg_size);

	if (index >= h->syslog_entries || at < h->ram_paddr ||
	    at + 0x20 + h->syslog_msg_size > h->ram_paddr + h->ram_size)
		return failed(h, "syslog entry %u outside the buffer", index);
	const char *entry = (const char *)h->ram + (at - h->ram_paddr);

	if (strncmp(entry + 8, "agx-sim", 24) != 0)
		return failed(h, "syslog entry %u has context '%.24s'", index, entry + 8);
	if (h->num_log < SIM_HOST_LOG_LINES)
		snprintf(h->log[h->num_log++], sizeof(h->log[0]), "%.*s", (int)h->syslog_msg_size,
			 entry + 0x20);
	return true;
}

static bool handle(struct sim_host *h, const struct agx_mbox_msg *m)
{
	uint8_t msg[8], out[8];
	uint8_t ep = (uint8_t)m->msg1;
	struct agx_rtkit_buffer_request req;
	struct agx_rtkit_syslog_init init;
	struct agx_rtkit_syslog_log log;
	struct agx_rtkit_ioreport_notify report;
	struct agx_rtkit_crashed crashed;

	for (int i = 0; i < 8; i++)
		msg[i] = (uint8_t)(m->msg0 >> (8 * i));
	if (ep == AGX_RTKIT_ENDPOINT_MANAGEMENT)
		return management(h, msg);
	if (ep == AGX_RTKIT_ENDPOINT_IOREPORT && agx_rtkit_ioreport_notify_unpack(msg, &report) &&
	    (report.type == 8 || report.type == 0xc)) {
		h->reports++;
		return sim_host_send_waiting(h, ep, msg); /* Linux echoes these */
	}
	if (ep == 0x20 && m->msg0 == 0x42ull << 48) { /* the GPU firmware's RX doorbell */
		h->rx_doorbells++;
		return true;
	}
	if (ep == AGX_RTKIT_ENDPOINT_CRASHLOG && agx_rtkit_crashed_unpack(msg, &crashed)) {
		h->crashed = true;
		return true;
	}
	if (ep == AGX_RTKIT_ENDPOINT_SYSLOG && agx_rtkit_syslog_init_unpack(msg, &init)) {
		h->syslog_entries = (unsigned)init.entries;
		h->syslog_msg_size = (unsigned)init.msg_size;
		return true;
	}
	if (ep == AGX_RTKIT_ENDPOINT_SYSLOG && agx_rtkit_syslog_log_unpack(msg, &log))
		return syslog_entry(h, (unsigned)log.index) &&
		       sim_host_send_waiting(h, ep, msg); /* the acknowledgement echoes the index */
	if (agx_rtkit_buffer_request_unpack(msg, &req)) {
		if (req.iova)
			return failed(h, "the firmware placed its own buffer");
		if (ep == AGX_RTKIT_ENDPOINT_CRASHLOG && h->crashlog_iova) {
			req.iova = h->crashlog_iova;
		} else {
			req.iova = h->ram_next;
			h->ram_next += req.pages * 4096;
			if (h->ram_next > h->ram_paddr + h->ram_size)
				return failed(h, "out of RAM for firmware buffers");
		}
		if (ep == AGX_RTKIT_ENDPOINT_SYSLOG)
			h->syslog_iova = req.iova;
		if (ep == AGX_RTKIT_ENDPOINT_CRASHLOG)
			h->crashlog_granted = req.iova;
		agx_rtkit_buffer_request_pack(out, &req);
		return sim_host_send_waiting(h, ep, out);
	}
	return failed(h, "unexpected message 0x%016llx on endpoint %u", (unsigned long long)m->msg0,
		      ep);
}

/* Watches the ring for the IPC busy-poll budget before sleeping on the IRQ. */
static bool spin_for_message(struct sim_host *h)
{
	struct timespec t0, t;
	long budget_ns = (long)agx_ipc_busy_poll_us() * 1000;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	do {
		if (agx_mbox_pending(h->mmio, AGX_MMIO_I2A_RING))
			return true;
		agx_ipc_busy_poll_relax();
		clock_gettime(CLOCK_MONOTONIC, &t);
	} while ((t.tv_sec - t0.tv_sec) * 1000000000l + (t.tv_nsec - t0.tv_nsec) < budget_ns);
	return false;
}

bool sim_host_run(struct sim_host *h, bool (*done)(const struct sim_host *, const void *),
		  const void *arg, int timeout_ms)
{
	struct pollfd pfd = { .fd = h->irq_fd, .events = POLLIN };

	while (!done(h, arg)) {
		struct agx_mbox_msg m;
		uint64_t count;

		if (agx_mbox_pop(h->mmio, AGX_MMIO_I2A_RING, AGX_MMIO_I2A_CONTROL, &m)) {
			if (!handle(h, &m))
				return false;
			continue;
		}
		if (spin_for_message(h))
			continue;
		if (poll(&pfd, 1, timeout_ms) != 1)
			return failed(h, "the firmware went quiet");
		if (read(h->irq_fd, &count, sizeof(count)) < 0 && errno != EAGAIN)
			return failed(h, "IRQ eventfd: %s", strerror(errno));
	}
	return true;
}

static bool epmap_done(const struct sim_host *h, const void *arg)
{
	(void)arg;
	return h->epmap_done;
}

static bool iop_on(const struct sim_host *h, const void *arg)
{
	(void)arg;
	return h->iop_power == AGX_RTKIT_POWER_ON;
}

static bool ap_on(const struct sim_host *h, const void *arg)
{
	(void)arg;
	return h->ap_power == AGX_RTKIT_POWER_ON;
}

bool sim_host_logged(const struct sim_host *h, const void *text)
{
	for (unsigned i = 0; i < h->num_log; i++)
		if (strstr(h->log[i], text))
			return true;
	return false;
}

bool sim_host_ponged(const struct sim_host *h, const void *cookie)
{
	return h->pong == *(const uint64_t *)cookie;
}

bool sim_host_ping(struct sim_host *h, uint64_t cookie, int timeout_ms)
{
	struct agx_rtkit_ping ping = { .cookie = cookie };
	uint8_t msg[8];

	agx_rtkit_ping_pack(msg, &ping);
	return sim_host_send(h, AGX_RTKIT_ENDPOINT_MANAGEMENT, msg) &&
	       sim_host_run(h, sim_host_ponged, &cookie, timeout_ms);
}

static bool start_ep(struct sim_host *h, unsigned ep)
{
	struct agx_rtkit_startep s = { .ep = ep, .flag = true };
	uint8_t out[8];

	agx_rtkit_startep_pack(out, &s);
	return sim_host_send_waiting(h, AGX_RTKIT_ENDPOINT_MANAGEMENT, out);
}

bool sim_host_boot(struct sim_host *h, int timeout_ms)
{
	struct agx_rtkit_ap_power ap = { .state = AGX_RTKIT_POWER_ON };
	uint8_t out[8];

	*agx_mmio_u32(h->mmio, AGX_MMIO_CPU_CONTROL) |= AGX_MMIO_CPU_CONTROL_RUN;
	ring_doorbell(h);
	if (!sim_host_run(h, epmap_done, NULL, timeout_ms))
		return false;
	/* the system endpoints the firmware announced, as Linux starts them */
	for (unsigned ep = 1; ep < 0x20; ep++)
		if ((h->epmap[0] >> ep & 1) && !start_ep(h, ep))
			return false;
	if (!sim_host_run(h, iop_on, NULL, timeout_ms))
		return false;
	agx_rtkit_ap_power_pack(out, &ap);
	return sim_host_send_waiting(h, AGX_RTKIT_ENDPOINT_MANAGEMENT, out) &&
	       sim_host_run(h, ap_on, NULL, timeout_ms);
}
