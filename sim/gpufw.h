/*
 * gpufw.h: agx-sim's GPU firmware, the part behind RTKit endpoints 0x20
 * and 0x21 (docs/firmware-abi.md): initdata, the fwctl and event channels.
 * It runs on the firmware thread; rtkit.c hands it its messages.
 */
#ifndef SIM_GPUFW_H
#define SIM_GPUFW_H

#include <stdbool.h>
#include <stdint.h>

#define SIM_EP_GPU_FIRMWARE 0x20
#define SIM_EP_GPU_DOORBELL 0x21

struct sim_rtkit;

struct sim_gpufw {
	bool running;
	uint64_t initdata; /* firmware VAs */
	uint64_t fwctl, event;
	struct {
		uint64_t ring;
		unsigned entries;
	} fwctl_ring, event_ring;
};

/* A message for endpoint 0x20 or 0x21. */
void sim_gpufw_message(struct sim_rtkit *rt, struct sim_gpufw *gpu, uint8_t ep,
		       const uint8_t msg[8]);

/* What rtkit.c lends the GPU firmware. */
void sim_fw_send(struct sim_rtkit *rt, uint8_t ep, const uint8_t msg[8]);
void sim_fw_log(struct sim_rtkit *rt, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
struct sim_device *sim_fw_device(struct sim_rtkit *rt);

#endif
