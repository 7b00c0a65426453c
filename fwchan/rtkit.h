/*
 * rtkit.h: agx-fwchan's side of the RTKit co-processor protocol
 * (docs/device.md; Linux drivers/soc/apple/rtkit.c is the reference):
 * the boot handshake, the syslog, crashlog and ioreport buffers, power
 * states and pings, over the register page's mailbox rings.  Event-driven:
 * the device's IRQ eventfd wakes the loop, which drains the ring.
 */
#ifndef FWCHAN_RTKIT_H
#define FWCHAN_RTKIT_H

#include <stdbool.h>
#include <stdint.h>

#include "kmem.h"

struct event_base;
struct event;

#define RTKIT_OUT_QUEUE 256

enum rtkit_state {
	RTKIT_OFF,
	RTKIT_BOOTING,
	RTKIT_RUNNING, /* AP power on acknowledged */
	RTKIT_CRASHED,
};

struct rtkit_ops {
	void (*running)(void *data);
	/* a message on one of the GPU firmware's endpoints (0x20, 0x21) */
	void (*gpu_message)(void *data, uint8_t endpoint, uint64_t msg);
	/* the firmware crashed: its crashlog (NULL if none was granted) */
	void (*crashed)(void *data, const uint8_t *crashlog, uint64_t size);
	void (*pong)(void *data, uint64_t cookie);
};

struct rtkit {
	void *mmio;
	int doorbell_fd, irq_fd;
	struct event *irq_ev;
	struct kmem *kmem;
	const struct rtkit_ops *ops;
	void *data;
	enum rtkit_state state;
	uint64_t epmap[2];
	struct kmem_block syslog, crashlog, ioreport;
	unsigned syslog_entries, syslog_msg_size;
	/* messages waiting for room in the ring */
	struct {
		uint64_t msg;
		uint8_t ep;
	} out[RTKIT_OUT_QUEUE];
	unsigned out_head, out_tail;
};

/* Watches irq_fd on base; buffers come from kmem.  Nothing is sent yet. */
int rtkit_init(struct rtkit *r, struct event_base *base, void *mmio, int doorbell_fd, int irq_fd,
	       struct kmem *kmem, const struct rtkit_ops *ops, void *data);
void rtkit_fini(struct rtkit *r);
/* Lets the co-processor run; the boot goes on as its messages arrive. */
void rtkit_boot(struct rtkit *r);
/* Queues a message (in order) and rings the doorbell; false if even the queue is full. */
bool rtkit_send(struct rtkit *r, uint8_t endpoint, uint64_t msg);
/*
 * A doorbell: says "look at this channel", so one already waiting in the
 * queue covers this one too (the firmware reads every entry published
 * before it takes the message).  Queued unless that one is there; false
 * only if the queue is full of other messages.
 */
bool rtkit_ring(struct rtkit *r, uint8_t endpoint, uint64_t msg);
bool rtkit_ping(struct rtkit *r, uint64_t cookie);
/* Takes every message waiting in the ring (the IRQ handler; also after a reset). */
void rtkit_drain(struct rtkit *r);

#endif
