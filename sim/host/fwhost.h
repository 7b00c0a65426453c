/*
 * fwhost.h: the host's side of the GPU firmware ABI (docs/firmware-abi.md)
 * for tests and benchmarks: firmware pages mapped in UAT context 0,
 * initdata and every channel laid out in them, INIT, work queues, and the
 * event and log channels read back.  agx-fwchan has its own, fuller
 * driver; this one is small and single-threaded, on top of a sim_host.
 */
#ifndef SIM_HOST_FWHOST_H
#define SIM_HOST_FWHOST_H

#include <stdbool.h>
#include <stdint.h>

#include "agx_fwabi.h"
#include "host/host.h"
#include "host/pagetable.h"

#define SIM_FWHOST_VA	    0xffffffa000000000ull /* where the firmware pages go */
#define SIM_FWHOST_PIPES    12
#define SIM_FWHOST_EVENTS   256 /* event ring entries */
#define SIM_FWHOST_LOGS	    128 /* log ring entries */
#define SIM_FWHOST_CHANNELS 64	/* entries of each host -> firmware ring */

struct sim_fwhost {
	struct sim_host *host;
	struct sim_pagetable pt;
	uint8_t *fw; /* the firmware pages, as the host sees them */
	unsigned fw_pages;
	uint64_t next; /* bump allocator, bytes into the firmware pages */
	uint32_t event_read, log_read;
	uint32_t fwctl_write, devctl_write, pipe_write[SIM_FWHOST_PIPES];
};

/* A work queue and its ring, in the firmware pages. */
struct sim_fwqueue {
	uint64_t va;
	uint8_t *desc;
	uint64_t *ring;
	unsigned entries, channel; /* channel: priority * 3 + pipe */
	uint32_t write;
};

/*
 * Lays out the firmware in the host's RAM: page tables in the
 * pt_size bytes at pt_offset, fw_pages 16 KiB pages at fw_offset mapped at
 * SIM_FWHOST_VA; points UAT_TTBAT at the context table.  0 or -errno.
 */
int sim_fwhost_init(struct sim_fwhost *fh, struct sim_host *h, uint64_t pt_offset, uint64_t pt_size,
		    uint64_t fw_offset, unsigned fw_pages);
/* Writes initdata and the channels, sends INIT; true once the firmware says running. */
bool sim_fwhost_start(struct sim_fwhost *fh, int timeout_ms);

/* size bytes (zeroed, 64-byte aligned) of firmware memory; NULL when out of it. */
void *sim_fwhost_alloc(struct sim_fwhost *fh, uint64_t size, uint64_t *va);
/* Maps size bytes of RAM at ram_offset in a GPU context at va: code (read, execute) or data. */
int sim_fwhost_map(struct sim_fwhost *fh, unsigned context, uint64_t va, uint64_t ram_offset,
		   uint64_t size, bool code);

int sim_fwhost_queue_create(struct sim_fwhost *fh, struct sim_fwqueue *q, unsigned context,
			    unsigned priority, enum agx_fw_pipe pipe, unsigned entries,
			    uint32_t time_limit_us);
/* Appends a work item (header then body, in firmware memory) and rings the queue's channel. */
bool sim_fwhost_submit(struct sim_fwhost *fh, struct sim_fwqueue *q, uint64_t item);
/* Only appends; sim_fwhost_kick() announces everything appended. */
bool sim_fwhost_append(struct sim_fwhost *fh, struct sim_fwqueue *q, uint64_t item);
bool sim_fwhost_kick(struct sim_fwhost *fh, struct sim_fwqueue *q);
/* A work item in firmware memory; returns its address (0 when out of memory). */
uint64_t sim_fwhost_compute(struct sim_fwhost *fh, const struct agx_fw_work_header *h,
			    const struct agx_fw_work_compute *c);
uint64_t sim_fwhost_render(struct sim_fwhost *fh, const struct agx_fw_work_header *h,
			   const struct agx_fw_work_render *r);
uint64_t sim_fwhost_barrier(struct sim_fwhost *fh, const struct agx_fw_work_header *h,
			    const struct agx_fw_work_barrier *b);

bool sim_fwhost_fwctl(struct sim_fwhost *fh, const struct agx_fw_fwctl *op);
bool sim_fwhost_devctl(struct sim_fwhost *fh, const struct agx_fw_devctl *op);

/* The next event, waiting up to timeout_ms for it; false (host->error) if none came. */
bool sim_fwhost_event(struct sim_fwhost *fh, struct agx_fw_event *e, int timeout_ms);
/* The next log-channel line, if there is one (no waiting). */
bool sim_fwhost_log(struct sim_fwhost *fh, char *line, unsigned size);

#endif
