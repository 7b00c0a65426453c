/*
 * host.h: a small RTKit host for agx-sim, playing the driver's side the
 * way Linux drivers/soc/apple/rtkit.c does: attach, give the firmware
 * memory, boot it, answer its requests, read its syslog.  The device's
 * tests and `./agx bench device` use it; agx-fwchan has its own, fuller
 * driver.  Single-threaded: one caller drives one host.
 */
#ifndef SIM_HOST_H
#define SIM_HOST_H

#include <stdbool.h>
#include <stdint.h>

#include "agx/mmio.h"
#include "agxipc/client.h"

#define SIM_HOST_LOG_LINES 64

struct sim_host {
	struct agx_ipc_client *client;
	int mmio_fd, doorbell_fd, irq_fd;
	void *mmio;

	/* RAM the host gives the firmware: a memfd, DMA-mapped at ram_paddr */
	int ram_fd;
	uint8_t *ram;
	uint64_t ram_paddr, ram_size;
	uint64_t ram_next;	/* bump allocator for firmware buffers */
	uint64_t crashlog_iova; /* when set, where the crashlog buffer is placed */

	/* what the firmware said */
	unsigned hello_min, hello_max;
	uint64_t epmap[2];
	bool epmap_done;
	unsigned iop_power, ap_power;
	unsigned syslog_entries, syslog_msg_size;
	uint64_t syslog_iova;
	char log[SIM_HOST_LOG_LINES][128];
	unsigned num_log;
	uint64_t pong;		   /* the cookie of the last pong */
	unsigned reports;	   /* ioreport notifications echoed */
	uint64_t crashlog_granted; /* where the crashlog buffer went */
	bool crashed;		   /* the firmware reported a crash */
	unsigned rx_doorbells;	   /* the GPU firmware said: look at your channels */

	char error[160]; /* why the last call failed */
};

/* Connects to agx-sim's socket, retrying for up to timeout_ms while it starts. */
int sim_host_connect(struct sim_host *h, const char *socket, int timeout_ms);
void sim_host_release(struct sim_host *h);

/* A setup-socket request; 0 or the negative errno (err filled on a server error). */
int sim_host_call(struct sim_host *h, uint16_t type, const ProtobufCMessage *body, const int *fds,
		  unsigned num_fds, struct agx_ipc_msg *reply, struct agx_ipc_error *err);
int sim_host_attach(struct sim_host *h);
int sim_host_dma_map(struct sim_host *h, uint64_t paddr, uint64_t size, int fd, uint64_t offset,
		     int protection, struct agx_ipc_error *err);
int sim_host_dma_unmap(struct sim_host *h, uint64_t paddr, uint64_t size);
/* INJECT_FAULT (agx-sim --test-faults); 0 or the negative errno. */
int sim_host_inject(struct sim_host *h, Agx__Device__InjectFault__Kind kind, uint64_t address,
		    unsigned count, unsigned delay_ms);
/* RESET, and the host forgets what the firmware said; its RAM stays. */
int sim_host_reset(struct sim_host *h);
/* A memfd of size bytes, mapped read-write at paddr. */
int sim_host_give_ram(struct sim_host *h, uint64_t paddr, uint64_t size);

/* Queues one message for the firmware and rings the doorbell; false (at once) when the ring is
 * full. */
bool sim_host_send(struct sim_host *h, uint8_t ep, const uint8_t msg[8]);
/*
 * The same, waiting out a full ring (5 s at most): the firmware drains it
 * as it gets to it, later on a loaded machine.
 */
bool sim_host_send_waiting(struct sim_host *h, uint8_t ep, const uint8_t msg[8]);
/* Takes and answers firmware messages until done(h, arg), an error, or timeout_ms of quiet. */
bool sim_host_run(struct sim_host *h, bool (*done)(const struct sim_host *, const void *),
		  const void *arg, int timeout_ms);
/* The boot of Linux's apple_rtkit_boot(): RUN, HELLO, EPMAP, STARTEP, power on. */
bool sim_host_boot(struct sim_host *h, int timeout_ms);
/* The firmware logged a line containing text (a sim_host_run() condition). */
bool sim_host_logged(const struct sim_host *h, const void *text);
/* The last PONG carried *(const uint64_t *)cookie (a sim_host_run() condition). */
bool sim_host_ponged(const struct sim_host *h, const void *cookie);
/* One PING with this cookie and its PONG within timeout_ms; false (h->error) if none came. */
bool sim_host_ping(struct sim_host *h, uint64_t cookie, int timeout_ms);

#endif
