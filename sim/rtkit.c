/*
 * rtkit.c: agx-sim's firmware, its RTKit side.  A thread that sleeps on the
 * doorbell eventfd, takes messages from the host-to-device mailbox ring,
 * answers through the device-to-host ring and raises the IRQ eventfd.
 *
 * It speaks the RTKit protocol as Linux drivers/soc/apple/rtkit.c expects
 * it: on the run bit it says HELLO (versions 11 to 12), maps its endpoints
 * (EPMAP), asks for buffers for the endpoints the host starts (syslog,
 * crashlog, ioreport), acknowledges power states, and writes its log to the
 * syslog buffer.  Unknown or malformed messages are logged and ignored.
 */
#include <errno.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "agx_rtkit.h"
#include "agxipc/ipc.h"
#include "agxipc/log.h"
#include "device.h"
#include "gpufw.h"

#define RTKIT_MIN_VERSION 11
#define RTKIT_MAX_VERSION 12

/* System endpoints we announce, and the GPU firmware's (Asahi: 0x20, 0x21). */
#define EP_GPU_FIRMWARE SIM_EP_GPU_FIRMWARE
#define EP_GPU_DOORBELL SIM_EP_GPU_DOORBELL
#define SYSTEM_ENDPOINTS                                                                           \
	((1u << AGX_RTKIT_ENDPOINT_MANAGEMENT) | (1u << AGX_RTKIT_ENDPOINT_CRASHLOG) |             \
	 (1u << AGX_RTKIT_ENDPOINT_SYSLOG) | (1u << AGX_RTKIT_ENDPOINT_IOREPORT))

/* Message types of the management endpoint (rtkit.c). */
enum {
	MGMT_HELLO_REPLY = 2,
	MGMT_PING = 3,
	MGMT_STARTEP = 5,
	MGMT_SET_IOP_POWER = 6,
	MGMT_IOP_POWER_ACK = 7,
	MGMT_EPMAP = 8,
	MGMT_AP_POWER = 0xb,
};

/* ioreport message types the host echoes back (Linux rtkit.c: "unknown" 8 and 0xc) */
#define IOREPORT_NOTIFY	  8
#define IOREPORT_NOTIFY_2 0xc

enum phase { WAIT_RUN, HELLO_SENT, EPMAP_SENT, STARTING, RUNNING };

#define SYSLOG_ENTRIES	  8
#define SYSLOG_MSG_SIZE	  0x80
#define SYSLOG_ENTRY_SIZE (0x20 + SYSLOG_MSG_SIZE)
#define PENDING_LOGS	  16
#define CRASHLOG_HISTORY  8

struct buffer {
	uint64_t iova;
	unsigned pages;
	bool granted;
};

struct sim_rtkit {
	struct sim_device *dev;
	pthread_t thread;
	bool threaded;
	bool stop;
	enum phase phase;
	uint32_t started; /* system endpoints the host started */
	unsigned iop_power, ap_power;
	struct buffer crashlog, syslog, ioreport;
	uint64_t ioreport_sent; /* the last report announced */
	unsigned drop_irqs;	/* injected: IRQs not to raise */
	bool crash_pending;	/* injected: crash at the next doorbell */
	bool hung;		/* injected, or crashed: the mailbox is not read */
	struct agx_mbox_msg history[CRASHLOG_HISTORY]; /* the last messages received */
	unsigned history_next;
	struct sim_gpufw gpu;
	bool syslog_ready;
	uint8_t syslog_busy; /* entries the host has not acknowledged */
	unsigned syslog_next;
	char pending[PENDING_LOGS][SYSLOG_MSG_SIZE]; /* logged before the buffer existed */
	unsigned num_pending;
};

void sim_fw_send(struct sim_rtkit *rt, uint8_t ep, const uint8_t bytes[8])
{
	uint64_t msg0 = 0, one = 1;

	for (int i = 7; i >= 0; i--)
		msg0 = msg0 << 8 | bytes[i];
	/* a full ring: the firmware waits for the host, as the real one stalls */
	while (!agx_mbox_push(rt->dev->mmio, AGX_MMIO_I2A_RING, AGX_MMIO_I2A_CONTROL, msg0, ep)) {
		if (__atomic_load_n(&rt->stop, __ATOMIC_ACQUIRE))
			return;
		if (!rt->threaded) {
			agx_warn("agx-sim: device-to-host mailbox full, message dropped");
			return;
		}
		usleep(100);
	}
	if (__atomic_load_n(&rt->drop_irqs, __ATOMIC_ACQUIRE)) {
		__atomic_fetch_sub(&rt->drop_irqs, 1, __ATOMIC_ACQ_REL); /* injected: lost */
		return;
	}
	if (write(rt->dev->irq_fd, &one, sizeof(one)) < 0)
		agx_warn("agx-sim: IRQ eventfd: %s", strerror(errno));
}

static void write_syslog_entry(struct sim_rtkit *rt, const char *text)
{
	uint8_t entry[SYSLOG_ENTRY_SIZE] = { 0 }, msg[8];
	struct agx_rtkit_syslog_log log;
	unsigned idx = rt->syslog_next;

	if (rt->syslog_busy & (1u << idx))
		return; /* the host is behind; the message is dropped */
	snprintf((char *)entry + 8, 24, "agx-sim");
	snprintf((char *)entry + 0x20, SYSLOG_MSG_SIZE, "%s", text);
	if (!sim_device_write(rt->dev, rt->syslog.iova + (uint64_t)idx * SYSLOG_ENTRY_SIZE, entry,
			      sizeof(entry)))
		return; /* the host took the buffer away */
	rt->syslog_busy |= (uint8_t)(1u << idx);
	rt->syslog_next = (idx + 1) % SYSLOG_ENTRIES;
	log.index = idx;
	agx_rtkit_syslog_log_pack(msg, &log);
	sim_fw_send(rt, AGX_RTKIT_ENDPOINT_SYSLOG, msg);
}

/* The firmware's log: to the syslog buffer, or held until there is one. */
void sim_fw_log(struct sim_rtkit *rt, const char *fmt, ...)
{
	char text[SYSLOG_MSG_SIZE];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(text, sizeof(text), fmt, ap);
	va_end(ap);
	agx_dbg("agx-sim firmware: %s", text);
	if (rt->syslog_ready)
		write_syslog_entry(rt, text);
	else if (rt->num_pending < PENDING_LOGS)
		memcpy(rt->pending[rt->num_pending++], text, sizeof(text));
}

void sim_fw_wake(struct sim_rtkit *rt)
{
	uint64_t one = 1;

	if (rt->threaded && write(rt->dev->doorbell_fd, &one, sizeof(one)) < 0)
		agx_warn("agx-sim: doorbell: %s", strerror(errno));
}

struct sim_device *sim_fw_device(struct sim_rtkit *rt)
{
	return rt->dev;
}

static void send_epmap(struct sim_rtkit *rt, unsigned base)
{
	struct agx_rtkit_epmap map = { .base = base };
	uint8_t msg[8];

	if (base == 0) {
		map.bitmap = SYSTEM_ENDPOINTS;
	} else {
		map.bitmap = (1u << (EP_GPU_FIRMWARE - 32)) | (1u << (EP_GPU_DOORBELL - 32));
		map.last = true;
	}
	agx_rtkit_epmap_pack(msg, &map);
	sim_fw_send(rt, AGX_RTKIT_ENDPOINT_MANAGEMENT, msg);
}

static void request_buffer(struct sim_rtkit *rt, uint8_t ep, struct buffer *b, unsigned pages)
{
	struct agx_rtkit_buffer_request req = { .pages = pages };
	uint8_t msg[8];

	b->pages = pages;
	b->granted = false;
	agx_rtkit_buffer_request_pack(msg, &req);
	sim_fw_send(rt, ep, msg);
}

static void power_ack(struct sim_rtkit *rt, unsigned type, unsigned state)
{
	uint8_t msg[8];

	if (type == MGMT_AP_POWER) {
		struct agx_rtkit_ap_power ack = { .state = state };

		agx_rtkit_ap_power_pack(msg, &ack);
	} else {
		struct agx_rtkit_iop_power ack = { .state = state, .type = type };

		agx_rtkit_iop_power_pack(msg, &ack);
	}
	sim_fw_send(rt, AGX_RTKIT_ENDPOINT_MANAGEMENT, msg);
}

static void management(struct sim_rtkit *rt, const uint8_t msg[8])
{
	struct agx_rtkit_mgmt any;

	if (!agx_rtkit_mgmt_unpack(msg, &any)) {
		sim_fw_log(rt, "malformed management message");
		return;
	}
	switch (any.type) {
	case MGMT_HELLO_REPLY: {
		struct agx_rtkit_hello_reply r;

		if (!agx_rtkit_hello_reply_unpack(msg, &r) || rt->phase != HELLO_SENT ||
		    r.min_ver != r.max_ver || r.min_ver < RTKIT_MIN_VERSION ||
		    r.min_ver > RTKIT_MAX_VERSION) {
			sim_fw_log(rt, "unacceptable HELLO reply (versions %u-%u)",
				   (unsigned)(any.payload & 0xffff),
				   (unsigned)((any.payload >> 16) & 0xffff));
			return;
		}
		rt->phase = EPMAP_SENT;
		send_epmap(rt, 0);
		return;
	}
	case MGMT_EPMAP: {
		struct agx_rtkit_epmap_reply r;

		if (!agx_rtkit_epmap_reply_unpack(msg, &r) || rt->phase != EPMAP_SENT) {
			sim_fw_log(rt, "unexpected EPMAP reply");
			return;
		}
		if (r.base == 0 && r.more)
			send_epmap(rt, 1);
		else if (r.base == 1 && r.last)
			rt->phase = STARTING;
		else
			sim_fw_log(rt, "EPMAP reply for base %u out of order", (unsigned)r.base);
		return;
	}
	case MGMT_PING: {
		struct agx_rtkit_ping ping = { 0 };
		struct agx_rtkit_pong pong;
		uint8_t out[8];

		if (!agx_rtkit_ping_unpack(msg, &ping) || rt->phase < STARTING) {
			sim_fw_log(rt, "unexpected PING");
			return;
		}
		pong.cookie = ping.cookie;
		agx_rtkit_pong_pack(out, &pong);
		sim_fw_send(rt, AGX_RTKIT_ENDPOINT_MANAGEMENT, out);
		return;
	}
	case MGMT_STARTEP: {
		struct agx_rtkit_startep r;

		if (!agx_rtkit_startep_unpack(msg, &r) || rt->phase < STARTING) {
			sim_fw_log(rt, "unexpected STARTEP");
			return;
		}
		if (r.ep == AGX_RTKIT_ENDPOINT_CRASHLOG)
			request_buffer(rt, (uint8_t)r.ep, &rt->crashlog, 4);
		else if (r.ep == AGX_RTKIT_ENDPOINT_SYSLOG)
			request_buffer(rt, (uint8_t)r.ep, &rt->syslog, 1);
		else if (r.ep == AGX_RTKIT_ENDPOINT_IOREPORT)
			request_buffer(rt, (uint8_t)r.ep, &rt->ioreport, 1);
		else if (r.ep != EP_GPU_FIRMWARE && r.ep != EP_GPU_DOORBELL &&
			 r.ep != AGX_RTKIT_ENDPOINT_MANAGEMENT) {
			sim_fw_log(rt, "STARTEP for endpoint 0x%02x, which does not exist",
				   (unsigned)r.ep);
			return;
		}
		if (r.ep < 32)
			rt->started |= 1u << r.ep;
		/* all system endpoints up: the co-processor reports itself on */
		if ((rt->started | 1u) == SYSTEM_ENDPOINTS && rt->iop_power != AGX_RTKIT_POWER_ON) {
			rt->iop_power = AGX_RTKIT_POWER_ON;
			power_ack(rt, MGMT_IOP_POWER_ACK, AGX_RTKIT_POWER_ON);
		}
		return;
	}
	case MGMT_SET_IOP_POWER: {
		struct agx_rtkit_iop_power r = { 0 };

		if (!agx_rtkit_iop_power_unpack(msg, &r)) {
			sim_fw_log(rt, "malformed SET_IOP_POWER");
			return;
		}
		rt->iop_power = (unsigned)r.state;
		power_ack(rt, MGMT_IOP_POWER_ACK, (unsigned)r.state);
		return;
	}
	case MGMT_AP_POWER: {
		struct agx_rtkit_ap_power r = { 0 };

		if (!agx_rtkit_ap_power_unpack(msg, &r)) {
			sim_fw_log(rt, "malformed AP_POWER");
			return;
		}
		rt->ap_power = (unsigned)r.state;
		power_ack(rt, MGMT_AP_POWER, (unsigned)r.state);
		if (rt->iop_power == AGX_RTKIT_POWER_ON && rt->ap_power == AGX_RTKIT_POWER_ON &&
		    rt->phase == STARTING) {
			rt->phase = RUNNING;
			sim_fw_log(rt, "running, RTKit protocol %d", RTKIT_MAX_VERSION);
		}
		return;
	}
	default:
		sim_fw_log(rt, "unknown management message type 0x%x", (unsigned)any.type);
	}
}

/* The host granted a buffer: its address in the reply to our request. */
static void buffer_granted(struct sim_rtkit *rt, uint8_t ep, struct buffer *b, const uint8_t msg[8])
{
	struct agx_rtkit_buffer_request r;
	uint8_t probe;

	if (!agx_rtkit_buffer_request_unpack(msg, &r) || b->granted || r.pages != b->pages) {
		sim_fw_log(rt, "unexpected buffer message on endpoint %u", ep);
		return;
	}
	if (!sim_device_read(rt->dev, r.iova, &probe, 1) ||
	    !sim_device_read(rt->dev, r.iova + r.pages * 4096 - 1, &probe, 1)) {
		sim_fw_log(rt, "buffer for endpoint %u at 0x%llx is not mapped", ep,
			   (unsigned long long)r.iova);
		return;
	}
	b->iova = r.iova;
	b->granted = true;
	if (b == &rt->syslog) {
		struct agx_rtkit_syslog_init init = { .entries = SYSLOG_ENTRIES,
						      .msg_size = SYSLOG_MSG_SIZE };
		uint8_t out[8];

		agx_rtkit_syslog_init_pack(out, &init);
		sim_fw_send(rt, AGX_RTKIT_ENDPOINT_SYSLOG, out);
		rt->syslog_ready = true;
		for (unsigned i = 0; i < rt->num_pending; i++)
			write_syslog_entry(rt, rt->pending[i]);
		rt->num_pending = 0;
	} else if (b == &rt->ioreport) {
		/* a report is ready; the host echoes the message (Linux rtkit.c) */
		struct agx_rtkit_ioreport_notify n = { .type = IOREPORT_NOTIFY,
						       .payload = ++rt->ioreport_sent };
		uint8_t out[8];

		agx_rtkit_ioreport_notify_pack(out, &n);
		sim_fw_send(rt, AGX_RTKIT_ENDPOINT_IOREPORT, out);
	}
}

static void ioreport(struct sim_rtkit *rt, const uint8_t msg[8])
{
	struct agx_rtkit_ioreport_notify n;

	if (agx_rtkit_ioreport_notify_unpack(msg, &n) &&
	    (n.type == IOREPORT_NOTIFY || n.type == IOREPORT_NOTIFY_2)) {
		if (n.payload != rt->ioreport_sent)
			sim_fw_log(rt, "ioreport echo 0x%llx does not match 0x%llx",
				   (unsigned long long)n.payload,
				   (unsigned long long)rt->ioreport_sent);
		return;
	}
	buffer_granted(rt, AGX_RTKIT_ENDPOINT_IOREPORT, &rt->ioreport, msg);
}

static void handle(struct sim_rtkit *rt, const struct agx_mbox_msg *m)
{
	uint8_t ep = (uint8_t)m->msg1, msg[8];
	struct agx_rtkit_syslog_log ack;

	rt->history[rt->history_next++ % CRASHLOG_HISTORY] = *m;
	for (int i = 0; i < 8; i++)
		msg[i] = (uint8_t)(m->msg0 >> (8 * i));
	if (m->msg1 >> 8) {
		sim_fw_log(rt, "mailbox message with stray bits in msg1: 0x%llx",
			   (unsigned long long)m->msg1);
		return;
	}
	switch (ep) {
	case AGX_RTKIT_ENDPOINT_MANAGEMENT:
		management(rt, msg);
		break;
	case AGX_RTKIT_ENDPOINT_CRASHLOG:
		buffer_granted(rt, ep, &rt->crashlog, msg);
		break;
	case AGX_RTKIT_ENDPOINT_IOREPORT:
		ioreport(rt, msg);
		break;
	case AGX_RTKIT_ENDPOINT_SYSLOG:
		if (agx_rtkit_syslog_log_unpack(msg, &ack) && ack.index < SYSLOG_ENTRIES)
			rt->syslog_busy &= (uint8_t) ~(1u << ack.index); /* the host read it */
		else
			buffer_granted(rt, ep, &rt->syslog, msg);
		break;
	case EP_GPU_FIRMWARE:
	case EP_GPU_DOORBELL:
		if (rt->phase == RUNNING)
			sim_gpufw_message(rt, &rt->gpu, ep, msg);
		else
			sim_fw_log(rt, "GPU endpoint 0x%02x before the firmware runs", ep);
		break;
	default:
		sim_fw_log(rt, "message 0x%016llx to endpoint 0x%02x ignored",
			   (unsigned long long)m->msg0, ep);
		break;
	}
}

static void power_on(struct sim_rtkit *rt)
{
	struct agx_rtkit_hello hello = { .min_ver = RTKIT_MIN_VERSION,
					 .max_ver = RTKIT_MAX_VERSION };
	uint8_t msg[8];

	__atomic_store_n(agx_mmio_u32(rt->dev->mmio, AGX_MMIO_CPU_STATUS),
			 AGX_MMIO_CPU_STATUS_RUNNING, __ATOMIC_RELEASE);
	rt->phase = HELLO_SENT;
	agx_rtkit_hello_pack(msg, &hello);
	sim_fw_send(rt, AGX_RTKIT_ENDPOINT_MANAGEMENT, msg);
}

/*
 * The crashlog, in the layout Linux's rtkit-crashlog.c reads: a 0x20-byte
 * header ('CLHE', version, total size, flags), then sections of a 16-byte
 * header (fourcc at +0, size including the header at +12) and data, ended
 * by a 'CLHE' section.  Fourccs are stored as the little-endian u32 of
 * ('C' << 24 | 'L' << 16 | ...).
 */
#define FOURCC(a, b, c, d) ((uint32_t)(a) << 24 | (uint32_t)(b) << 16 | (uint32_t)(c) << 8 | (d))

struct crashlog {
	uint8_t *buf;
	size_t size, used;
};

static uint8_t *section(struct crashlog *c, uint32_t fourcc, size_t data_size)
{
	uint32_t total = (uint32_t)(16 + ((data_size + 7) & ~(size_t)7));
	uint8_t *at = c->buf + c->used;

	if (c->used + total > c->size)
		return NULL;
	memcpy(at, &fourcc, 4);
	memcpy(at + 12, &total, 4);
	c->used += total;
	return at + 16;
}

static void write_crashlog(struct sim_rtkit *rt, const char *reason)
{
	static const char version[] = "agx-sim RTKit 12";
	struct crashlog c = { .size = (size_t)rt->crashlog.pages * 4096, .used = 0x20 };
	uint32_t header[4] = { FOURCC('C', 'L', 'H', 'E'), 2, 0, 0 };
	struct timespec now;
	uint8_t *d;

	c.buf = calloc(1, c.size);
	if (!c.buf)
		return;
	if ((d = section(&c, FOURCC('C', 'v', 'e', 'r'), 16 + sizeof(version))))
		memcpy(d + 16, version, sizeof(version));
	if ((d = section(&c, FOURCC('C', 's', 't', 'r'), 4 + strlen(reason) + 2)))
		snprintf((char *)d + 4, strlen(reason) + 2, "%s\n", reason);
	clock_gettime(CLOCK_MONOTONIC, &now);
	if ((d = section(&c, FOURCC('C', 't', 'i', 'm'), 8))) {
		uint64_t ns = (uint64_t)now.tv_sec * 1000000000u + (uint64_t)now.tv_nsec;

		memcpy(d, &ns, 8);
	}
	/* the mailbox history: type at +16, index at +24, 0x18-byte entries from +28 */
	if ((d = section(&c, FOURCC('C', 'm', 'b', 'x'), 28 + CRASHLOG_HISTORY * 0x18))) {
		uint32_t index = rt->history_next % CRASHLOG_HISTORY;

		memcpy(d + 24, &index, 4);
		for (unsigned i = 0; i < CRASHLOG_HISTORY; i++) {
			memcpy(d + 28 + i * 0x18, &rt->history[i].msg0, 8);
			memcpy(d + 28 + i * 0x18 + 8, &rt->history[i].msg1, 8);
		}
	}
	section(&c, FOURCC('C', 'L', 'H', 'E'), 0);
	header[2] = (uint32_t)c.used;
	memcpy(c.buf, header, sizeof(header));
	if (!sim_device_write(rt->dev, rt->crashlog.iova, c.buf, c.size))
		agx_warn("agx-sim: the crashlog buffer is gone; crash not recorded");
	free(c.buf);
}

/* An (injected) firmware crash: the crashlog, the report, then silence. */
static void crash(struct sim_rtkit *rt, const char *reason)
{
	struct agx_rtkit_crashed report = { 0 };
	uint8_t msg[8];

	agx_notice("agx-sim firmware: crashed: %s", reason);
	if (rt->crashlog.granted)
		write_crashlog(rt, reason);
	agx_rtkit_crashed_pack(msg, &report);
	sim_fw_send(rt, AGX_RTKIT_ENDPOINT_CRASHLOG, msg);
	__atomic_store_n(&rt->hung, true, __ATOMIC_RELEASE);
}

void sim_rtkit_gpu_message(struct sim_device *dev, uint8_t ep, const uint8_t msg[8])
{
	sim_gpufw_message(dev->rtkit, &dev->rtkit->gpu, ep, msg);
}

void sim_rtkit_inject(struct sim_device *dev, enum sim_fault fault, unsigned count,
		      unsigned delay_ms)
{
	struct sim_rtkit *rt = dev->rtkit;
	uint64_t one = 1;

	if (fault == SIM_FAULT_DELAY_COMPLETION)
		sim_gpufw_delay(&rt->gpu, count, delay_ms * 1000000ull);
	else if (fault == SIM_FAULT_DROP_IRQ)
		__atomic_store_n(&rt->drop_irqs, count, __ATOMIC_RELEASE);
	else if (fault == SIM_FAULT_FIRMWARE_HANG)
		__atomic_store_n(&rt->hung, true, __ATOMIC_RELEASE);
	else if (fault == SIM_FAULT_FIRMWARE_CRASH)
		__atomic_store_n(&rt->crash_pending, true, __ATOMIC_RELEASE);
	/* the firmware thread acts on it now, not at the host's next message */
	if (write(dev->doorbell_fd, &one, sizeof(one)) < 0)
		agx_warn("agx-sim: doorbell: %s", strerror(errno));
}

void sim_rtkit_doorbell(struct sim_device *dev)
{
	struct sim_rtkit *rt = dev->rtkit;
	struct agx_mbox_msg m;

	if (__atomic_exchange_n(&rt->crash_pending, false, __ATOMIC_ACQ_REL) &&
	    !__atomic_load_n(&rt->hung, __ATOMIC_ACQUIRE))
		crash(rt, "injected firmware crash");
	if (__atomic_load_n(&rt->hung, __ATOMIC_ACQUIRE))
		return;

	if (rt->phase == WAIT_RUN) {
		if (!(__atomic_load_n(agx_mmio_u32(dev->mmio, AGX_MMIO_CPU_CONTROL),
				      __ATOMIC_ACQUIRE) &
		      AGX_MMIO_CPU_CONTROL_RUN))
			return; /* not running: the mailbox is not read */
		power_on(rt);
	}
	/* an injected hang or crash stops the firmware between two messages */
	while (!__atomic_load_n(&rt->hung, __ATOMIC_ACQUIRE) &&
	       !__atomic_load_n(&rt->crash_pending, __ATOMIC_ACQUIRE) &&
	       agx_mbox_pop(dev->mmio, AGX_MMIO_A2I_RING, AGX_MMIO_A2I_CONTROL, &m))
		handle(rt, &m);
	/* and what the GPU cores finished */
	if (rt->phase == RUNNING && !__atomic_load_n(&rt->hung, __ATOMIC_ACQUIRE))
		sim_gpufw_poll(rt, &rt->gpu);
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/*
 * After traffic the firmware keeps watching the mailbox for the IPC
 * busy-poll budget (AGX_IPC_BUSY_POLL_US, ipc/busypoll.c) before it sleeps
 * on the doorbell: a conversation in progress never pays a thread wake-up.
 */
static void poll_mailbox(struct sim_rtkit *rt, uint64_t budget_ns)
{
	uint64_t until = now_ns() + budget_ns;

	while (now_ns() < until && !__atomic_load_n(&rt->stop, __ATOMIC_ACQUIRE)) {
		if (rt->phase != WAIT_RUN && (agx_mbox_pending(rt->dev->mmio, AGX_MMIO_A2I_RING) ||
					      sim_gpufw_pending(&rt->gpu))) {
			sim_rtkit_doorbell(rt->dev);
			until = now_ns() + budget_ns;
		}
		agx_ipc_busy_poll_relax();
	}
}

static void *firmware_main(void *arg)
{
	struct sim_rtkit *rt = arg;
	struct pollfd pfd = { .fd = rt->dev->doorbell_fd, .events = POLLIN };
	uint64_t budget_ns = (uint64_t)agx_ipc_busy_poll_us() * 1000;

	while (!__atomic_load_n(&rt->stop, __ATOMIC_ACQUIRE)) {
		uint64_t count;

		if (poll(&pfd, 1, -1) < 0 && errno != EINTR)
			break;
		if (read(rt->dev->doorbell_fd, &count, sizeof(count)) < 0 && errno != EAGAIN)
			break;
		if (__atomic_load_n(&rt->stop, __ATOMIC_ACQUIRE))
			break;
		sim_rtkit_doorbell(rt->dev);
		poll_mailbox(rt, budget_ns);
	}
	return NULL;
}

int sim_rtkit_start(struct sim_device *dev)
{
	struct sim_rtkit *rt = calloc(1, sizeof(*rt));
	int ret;

	if (!rt)
		return -ENOMEM;
	rt->dev = dev;
	rt->threaded = dev->firmware_thread;
	/* an injected hang at boot: this firmware never answers */
	if (__atomic_load_n(&dev->hang_boots, __ATOMIC_ACQUIRE)) {
		__atomic_sub_fetch(&dev->hang_boots, 1, __ATOMIC_ACQ_REL);
		rt->hung = true;
	}
	if (sim_gpufw_init(rt, &rt->gpu, rt->threaded ? dev->cores : 0, dev->job_time_limit_ns) <
	    0) {
		free(rt);
		return -ENOMEM;
	}
	/* before the thread starts: it finds its state through the device */
	dev->rtkit = rt;
	if (rt->threaded) {
		ret = pthread_create(&rt->thread, NULL, firmware_main, rt);
		if (ret) {
			dev->rtkit = NULL;
			sim_gpufw_finish(&rt->gpu);
			free(rt);
			return -ret;
		}
	}
	return 0;
}

void sim_rtkit_stop(struct sim_device *dev)
{
	struct sim_rtkit *rt = dev->rtkit;
	uint64_t one = 1;

	if (!rt)
		return;
	__atomic_store_n(&rt->stop, true, __ATOMIC_RELEASE);
	if (rt->threaded) {
		/* wake the thread where it sleeps */
		if (write(dev->doorbell_fd, &one, sizeof(one)) < 0)
			agx_warn("agx-sim: doorbell: %s", strerror(errno));
		pthread_join(rt->thread, NULL);
	}
	sim_gpufw_finish(&rt->gpu); /* a running job is abandoned: power is off */
	free(rt);
	dev->rtkit = NULL;
	if (dev->mmio)
		__atomic_store_n(agx_mmio_u32(dev->mmio, AGX_MMIO_CPU_STATUS),
				 AGX_MMIO_CPU_STATUS_STOPPED, __ATOMIC_RELEASE);
}
