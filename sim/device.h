/*
 * device.h: agx-sim's device: its memory (what the host DMA-mapped), its
 * register page, the doorbell and IRQ eventfds, and the firmware that runs
 * behind them.  docs/device.md is the contract.
 */
#ifndef SIM_DEVICE_H
#define SIM_DEVICE_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "agx/mmio.h"

#define SIM_PAGE_SIZE 0x4000u /* 16 KiB, the UAT granule */

struct sim_mapping {
	uint64_t paddr, size;
	uint8_t *host;
	bool writable;
	uint64_t owner; /* the setup connection that mapped it */
};

struct sim_rtkit;

#define SIM_FILL_BYTES_PER_MS 3200

struct sim_device {
	uint64_t memory_size;
	unsigned cores;		    /* GPU worker threads (with a firmware thread) */
	uint64_t job_time_limit_ns; /* a job's GPU time when its queue names none; 0: none */
	/*
	 * What INFO says the USC writes a millisecond with plain stores:
	 * the interpreter's clear kernel on the 2-core CI machine managed
	 * about 0.8 million words a second (four 1024x1024 RGBA8 clears went
	 * past the 5 s limit: tests/gles/test-sync.c), so 3200 bytes; the
	 * real GPU's is thousands of times more.
	 */
	uint64_t fill_bytes_per_ms;
	uint32_t chip_id, generation;
	unsigned hang_boots; /* injected: the firmware of this many resets hangs from the start */

	pthread_rwlock_t lock;	  /* mappings: changed by the setup socket, read by the firmware */
	unsigned writers_waiting; /* DMA map/unmap waiting for the lock: GPU cores hold back */
	struct sim_mapping *mappings;
	unsigned num_mappings, cap_mappings;

	/* the attached host's view */
	bool attached;
	int mmio_fd, doorbell_fd, irq_fd;
	void *mmio;

	struct sim_rtkit *rtkit;
	struct sim_uat *uat; /* the GPU's MMU, set up when the GPU firmware starts */
	/*
	 * The firmware runs on its own thread, woken by the doorbell (agx-sim);
	 * false runs it inline: the caller calls sim_rtkit_doorbell() (fuzzing).
	 */
	bool firmware_thread;

	/* fault injection (--test-faults): accesses touching this address fail */
	uint64_t bus_error_address; /* + 1; 0 is none */
};

struct sim_device *sim_device_create(uint64_t memory_size, unsigned cores);
void sim_device_destroy(struct sim_device *dev);

/* ATTACH: fds[] = { MMIO memfd, doorbell eventfd, IRQ eventfd }, owned by the caller. */
int sim_device_attach(struct sim_device *dev, int fds[3]);
void sim_device_detach(struct sim_device *dev);
/* RESET: firmware stopped, registers and rings back to power-on, memory kept. */
int sim_device_reset(struct sim_device *dev);

int sim_device_dma_map(struct sim_device *dev, uint64_t paddr, uint64_t size, int fd,
		       uint64_t offset, bool writable, uint64_t owner);
int sim_device_dma_unmap(struct sim_device *dev, uint64_t paddr, uint64_t size, uint64_t owner);
/* Everything one owner mapped (its connection is gone). */
void sim_device_dma_unmap_owner(struct sim_device *dev, uint64_t owner);

/*
 * The GPU cores' way to memory: hold the mappings for reading across many
 * accesses (a slice of a shader), and use host pointers in between.
 * sim_device_read/write() may be called while holding it.
 */
void sim_device_read_lock(struct sim_device *dev);
void sim_device_read_unlock(struct sim_device *dev);
/* Host memory behind [paddr, paddr + size) if one mapping holds it (writable, for write). */
void *sim_device_host_locked(struct sim_device *dev, uint64_t paddr, size_t size, bool write);

/* Device-physical accesses; false is a bus error (nothing mapped there). */
bool sim_device_read(struct sim_device *dev, uint64_t paddr, void *dst, size_t size);
bool sim_device_write(struct sim_device *dev, uint64_t paddr, const void *src, size_t size);

/* Fault injection, for tests (agx-sim --test-faults). */
enum sim_fault {
	SIM_FAULT_FIRMWARE_CRASH,
	SIM_FAULT_FIRMWARE_HANG,
	SIM_FAULT_DROP_IRQ,
	SIM_FAULT_BUS_ERROR,
	SIM_FAULT_DELAY_COMPLETION,
	SIM_FAULT_HANG_AT_BOOT,
};
int sim_device_inject(struct sim_device *dev, enum sim_fault fault, uint64_t address,
		      unsigned count, unsigned delay_ms);

/* The firmware (rtkit.c). */
int sim_rtkit_start(struct sim_device *dev);
void sim_rtkit_stop(struct sim_device *dev);
/* The firmware's work for one doorbell: boot if RUN is newly set, then every waiting message. */
void sim_rtkit_doorbell(struct sim_device *dev);
/* A GPU-endpoint message straight to the GPU firmware, RTKit boot or not (fuzzing). */
void sim_rtkit_gpu_message(struct sim_device *dev, uint8_t ep, const uint8_t msg[8]);
/* Crash or hang the firmware, drop its next count IRQs, or delay its next count jobs. */
void sim_rtkit_inject(struct sim_device *dev, enum sim_fault fault, unsigned count,
		      unsigned delay_ms);

#endif
