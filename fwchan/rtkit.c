/*
 * rtkit.c: the RTKit host of rtkit.h.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <event2/event.h>

#include "agx/mmio.h"
#include "agx_rtkit.h"
#include "agxipc/log.h"
#include "rtkit.h"

#define GPU_ENDPOINT_FIRST 0x20
#define GPU_ENDPOINT_LAST  0x21
#define RTKIT_VERSION	   12 /* the highest both speak, as Linux chooses */
#define SYSTEM_ENDPOINTS   3  /* crashlog, syslog, ioreport */

static uint64_t word(const uint8_t raw[8])
{
	uint64_t v;

	memcpy(&v, raw, 8);
	return v;
}

static void bytes(uint64_t v, uint8_t raw[8])
{
	memcpy(raw, &v, 8);
}

static void ring_doorbell(struct rtkit *r)
{
	uint64_t one = 1;

	if (write(r->doorbell_fd, &one, sizeof(one)) != sizeof(one))
		agx_err("rtkit: doorbell: %s", strerror(errno));
}

/* Moves queued messages into the ring while it has room. */
static void flush(struct rtkit *r)
{
	bool sent = false;

	while (r->out_tail != r->out_head) {
		unsigned i = r->out_tail % RTKIT_OUT_QUEUE;

		if (!agx_mbox_push(r->mmio, AGX_MMIO_A2I_RING, AGX_MMIO_A2I_CONTROL, r->out[i].msg,
				   r->out[i].ep))
			break;
		r->out_tail++;
		sent = true;
	}
	if (sent)
		ring_doorbell(r);
}

bool rtkit_send(struct rtkit *r, uint8_t endpoint, uint64_t msg)
{
	if (r->out_head - r->out_tail >= RTKIT_OUT_QUEUE)
		return false;
	r->out[r->out_head % RTKIT_OUT_QUEUE].msg = msg;
	r->out[r->out_head % RTKIT_OUT_QUEUE].ep = endpoint;
	r->out_head++;
	flush(r);
	return true;
}

bool rtkit_ring(struct rtkit *r, uint8_t endpoint, uint64_t msg)
{
	for (unsigned i = r->out_tail; i != r->out_head; i++)
		if (r->out[i % RTKIT_OUT_QUEUE].msg == msg &&
		    r->out[i % RTKIT_OUT_QUEUE].ep == endpoint)
			return true;
	return rtkit_send(r, endpoint, msg);
}

static void send_raw(struct rtkit *r, uint8_t ep, const uint8_t raw[8])
{
	if (!rtkit_send(r, ep, word(raw)))
		agx_err("rtkit: outgoing queue full; message to endpoint %u dropped", ep);
}

bool rtkit_ping(struct rtkit *r, uint64_t cookie)
{
	struct agx_rtkit_ping p = { .cookie = cookie & ((1ull << 52) - 1) };
	uint8_t raw[8];

	agx_rtkit_ping_pack(raw, &p);
	return rtkit_send(r, AGX_RTKIT_ENDPOINT_MANAGEMENT, word(raw));
}

static void start_endpoints(struct rtkit *r)
{
	/* the system endpoints the firmware has: crashlog, syslog, ioreport */
	static const unsigned eps[] = { AGX_RTKIT_ENDPOINT_CRASHLOG, AGX_RTKIT_ENDPOINT_SYSLOG,
					AGX_RTKIT_ENDPOINT_IOREPORT };

	for (unsigned i = 0; i < sizeof(eps) / sizeof(eps[0]); i++) {
		struct agx_rtkit_startep s = { .ep = eps[i], .flag = true };
		uint8_t raw[8];

		if (!(r->epmap[0] >> eps[i] & 1))
			continue;
		agx_rtkit_startep_pack(raw, &s);
		send_raw(r, AGX_RTKIT_ENDPOINT_MANAGEMENT, raw);
	}
}

static void management(struct rtkit *r, const uint8_t msg[8])
{
	struct agx_rtkit_hello hello;
	struct agx_rtkit_epmap map;
	struct agx_rtkit_iop_power iop;
	struct agx_rtkit_ap_power ap;
	struct agx_rtkit_pong pong;
	uint8_t out[8];

	if (agx_rtkit_hello_unpack(msg, &hello)) {
		struct agx_rtkit_hello_reply reply = { .min_ver = RTKIT_VERSION,
						       .max_ver = RTKIT_VERSION };

		if (hello.min_ver > RTKIT_VERSION || hello.max_ver < RTKIT_VERSION) {
			agx_err("rtkit: the firmware speaks versions %u..%u, not %u",
				(unsigned)hello.min_ver, (unsigned)hello.max_ver, RTKIT_VERSION);
			return;
		}
		agx_rtkit_hello_reply_pack(out, &reply);
		send_raw(r, AGX_RTKIT_ENDPOINT_MANAGEMENT, out);
	} else if (agx_rtkit_epmap_unpack(msg, &map)) {
		struct agx_rtkit_epmap_reply reply = { .base = map.base,
						       .more = !map.last,
						       .last = map.last };

		if (map.base < 2)
			r->epmap[map.base] = map.bitmap;
		agx_rtkit_epmap_reply_pack(out, &reply);
		send_raw(r, AGX_RTKIT_ENDPOINT_MANAGEMENT, out);
		if (map.last)
			start_endpoints(r);
	} else if (agx_rtkit_iop_power_unpack(msg, &iop) && iop.type == 7) {
		/* the IOP is on: the AP says it is too */
		struct agx_rtkit_ap_power on = { .state = AGX_RTKIT_POWER_ON };

		if (iop.state != AGX_RTKIT_POWER_ON)
			return;
		agx_rtkit_ap_power_pack(out, &on);
		send_raw(r, AGX_RTKIT_ENDPOINT_MANAGEMENT, out);
	} else if (agx_rtkit_ap_power_unpack(msg, &ap)) {
		if (ap.state == AGX_RTKIT_POWER_ON && r->state == RTKIT_BOOTING) {
			r->state = RTKIT_RUNNING;
			r->ops->running(r->data);
		}
	} else if (agx_rtkit_pong_unpack(msg, &pong)) {
		r->ops->pong(r->data, pong.cookie);
	} else {
		agx_warn_ratelimited(-1, "rtkit: unexpected management message %#018llx",
				     (unsigned long long)word(msg));
	}
}

/* A buffer the firmware asked for: memory of fwchan's, where the device can reach it. */
static void grant(struct rtkit *r, uint8_t ep, struct agx_rtkit_buffer_request *req,
		  struct kmem_block *b)
{
	uint8_t out[8];
	int ret;

	if (req->iova) {
		agx_err("rtkit: endpoint %u placed its own buffer; refused", ep);
		return;
	}
	if (!b->map) {
		ret = kmem_block(r->kmem, req->pages * 4096ull, true, b);
		if (ret < 0) {
			agx_err("rtkit: no memory for endpoint %u's buffer: %s", ep,
				strerror(-ret));
			return;
		}
	}
	if (b->size < req->pages * 4096ull) {
		agx_err("rtkit: endpoint %u asked for a bigger buffer than before", ep);
		return;
	}
	req->iova = b->paddr;
	agx_rtkit_buffer_request_pack(out, req);
	send_raw(r, ep, out);
}

static void syslog_line(struct rtkit *r, unsigned index)
{
	uint64_t at = (uint64_t)index * (0x20 + r->syslog_msg_size);

	/* entry layout, as Linux reads it: context at +8, text at +0x20 */
	if (index >= r->syslog_entries || at + 0x20 + r->syslog_msg_size > r->syslog.size) {
		agx_warn_ratelimited(-1, "rtkit: syslog entry %u is outside the buffer", index);
		return;
	}
	agx_info("firmware: %.*s",
		 (int)strnlen((const char *)r->syslog.map + at + 0x20, r->syslog_msg_size),
		 (const char *)r->syslog.map + at + 0x20);
}

static void handle(struct rtkit *r, const struct agx_mbox_msg *m)
{
	uint8_t ep = (uint8_t)m->msg1, msg[8];
	struct agx_rtkit_buffer_request req;
	struct agx_rtkit_syslog_init init;
	struct agx_rtkit_syslog_log log;
	struct agx_rtkit_ioreport_notify report;

	bytes(m->msg0, msg);
	if (m->msg1 >> 8) {
		agx_warn_ratelimited(-1, "rtkit: a message with stray bits %#llx",
				     (unsigned long long)m->msg1);
		return;
	}
	if (ep == AGX_RTKIT_ENDPOINT_MANAGEMENT) {
		management(r, msg);
	} else if (ep >= GPU_ENDPOINT_FIRST && ep <= GPU_ENDPOINT_LAST) {
		r->ops->gpu_message(r->data, ep, m->msg0);
	} else if (agx_rtkit_buffer_request_unpack(msg, &req) &&
		   (ep == AGX_RTKIT_ENDPOINT_CRASHLOG || ep == AGX_RTKIT_ENDPOINT_SYSLOG ||
		    ep == AGX_RTKIT_ENDPOINT_IOREPORT)) {
		grant(r, ep, &req,
		      ep == AGX_RTKIT_ENDPOINT_CRASHLOG ? &r->crashlog
		      : ep == AGX_RTKIT_ENDPOINT_SYSLOG ? &r->syslog
							: &r->ioreport);
	} else if (ep == AGX_RTKIT_ENDPOINT_CRASHLOG) {
		/* anything else there is the crash (Linux rtkit.c does the same) */
		r->state = RTKIT_CRASHED;
		r->ops->crashed(r->data, r->crashlog.map, r->crashlog.size);
	} else if (ep == AGX_RTKIT_ENDPOINT_SYSLOG && agx_rtkit_syslog_init_unpack(msg, &init)) {
		r->syslog_entries = (unsigned)init.entries;
		r->syslog_msg_size = (unsigned)init.msg_size;
	} else if (ep == AGX_RTKIT_ENDPOINT_SYSLOG && agx_rtkit_syslog_log_unpack(msg, &log)) {
		syslog_line(r, (unsigned)log.index);
		send_raw(r, ep, msg); /* the echo frees the entry */
	} else if (ep == AGX_RTKIT_ENDPOINT_IOREPORT &&
		   agx_rtkit_ioreport_notify_unpack(msg, &report) &&
		   (report.type == 8 || report.type == 0xc)) {
		send_raw(r, ep, msg); /* Linux echoes these */
	} else {
		agx_warn_ratelimited(-1, "rtkit: unexpected message %#018llx on endpoint %u",
				     (unsigned long long)m->msg0, ep);
	}
}

void rtkit_drain(struct rtkit *r)
{
	struct agx_mbox_msg m;

	while (agx_mbox_pop(r->mmio, AGX_MMIO_I2A_RING, AGX_MMIO_I2A_CONTROL, &m))
		handle(r, &m);
	flush(r); /* the firmware took messages: room again */
}

static void on_irq(evutil_socket_t fd, short what, void *arg)
{
	struct rtkit *r = arg;
	uint64_t count;

	(void)what;
	/* the eventfd counts: one read covers every IRQ since the last */
	if (read(fd, &count, sizeof(count)) < 0 && errno != EAGAIN)
		agx_err("rtkit: IRQ eventfd: %s", strerror(errno));
	rtkit_drain(r);
}

int rtkit_init(struct rtkit *r, struct event_base *base, void *mmio, int doorbell_fd, int irq_fd,
	       struct kmem *kmem, const struct rtkit_ops *ops, void *data)
{
	memset(r, 0, sizeof(*r));
	r->mmio = mmio;
	r->doorbell_fd = doorbell_fd;
	r->irq_fd = irq_fd;
	r->kmem = kmem;
	r->ops = ops;
	r->data = data;
	r->irq_ev = event_new(base, irq_fd, EV_READ | EV_PERSIST, on_irq, r);
	if (!r->irq_ev || event_add(r->irq_ev, NULL) < 0)
		return -ENOMEM;
	return 0;
}

void rtkit_fini(struct rtkit *r)
{
	if (r->irq_ev)
		event_free(r->irq_ev);
	r->irq_ev = NULL;
}

void rtkit_boot(struct rtkit *r)
{
	r->state = RTKIT_BOOTING;
	r->out_head = r->out_tail = 0;
	r->epmap[0] = r->epmap[1] = 0;
	__atomic_store_n(agx_mmio_u32(r->mmio, AGX_MMIO_CPU_CONTROL), AGX_MMIO_CPU_CONTROL_RUN,
			 __ATOMIC_RELEASE);
	ring_doorbell(r);
	rtkit_drain(r);
}
