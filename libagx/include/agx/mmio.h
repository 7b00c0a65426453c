/*
 * mmio.h: the register page of an AGX device as agx-sim presents it (the
 * device interface, docs/device.md).  The host maps it from the memfd that
 * ATTACH returns; the device maps the same memory.
 *
 * Registers that exist on the real ASC keep their offsets (CPU_CONTROL,
 * CPU_STATUS, the mailbox CONTROL words with their FULL and EMPTY bits:
 * Linux drivers/nvme/host/apple.c, drivers/mailbox/apple-mailbox.c).  A
 * store to the real SEND registers pushes a FIFO entry; shared memory has
 * no such side effects, so here the FIFOs are rings in the same page, and
 * the doorbell eventfd stands for the write that would have reached the
 * device.
 */
#ifndef AGX_MMIO_H
#define AGX_MMIO_H

#include <stdbool.h>
#include <stdint.h>

#define AGX_MMIO_SIZE 0x10000u

#define AGX_MMIO_ID		    0x0000u	/* u32: AGX_MMIO_ID_VALUE */
#define AGX_MMIO_ID_VALUE	    0x31584741u /* "AGX1" */
#define AGX_MMIO_CPU_CONTROL	    0x0044u	/* u32, host writes */
#define AGX_MMIO_CPU_CONTROL_RUN    (1u << 4)
#define AGX_MMIO_CPU_STATUS	    0x0048u /* u32, device writes */
#define AGX_MMIO_CPU_STATUS_RUNNING (1u << 0)
#define AGX_MMIO_CPU_STATUS_STOPPED (1u << 1)
#define AGX_MMIO_UAT_TTBAT	    0x0100u /* u64: context table, device-physical */
#define AGX_MMIO_FAULT_STATUS	    0x0200u /* u32 */
#define AGX_MMIO_FAULT_ADDRESS	    0x0208u /* u64 */
#define AGX_MMIO_A2I_CONTROL	    0x8110u /* u32: mailbox host -> device */
#define AGX_MMIO_I2A_CONTROL	    0x8114u /* u32: mailbox device -> host */
#define AGX_MMIO_CONTROL_FULL	    (1u << 16)
#define AGX_MMIO_CONTROL_EMPTY	    (1u << 17)
#define AGX_MMIO_A2I_RING	    0x9000u
#define AGX_MMIO_I2A_RING	    0xa000u

#define AGX_MBOX_SLOTS 64u

/* One mailbox message: a 64-bit payload, the endpoint in msg1's low byte. */
struct agx_mbox_msg {
	uint64_t msg0;
	uint64_t msg1;
};

/* A ring: the sender owns head, the receiver tail; slot = index % SLOTS. */
struct agx_mbox_ring {
	uint32_t head;
	uint32_t tail;
	uint32_t reserved[2];
	struct agx_mbox_msg slot[AGX_MBOX_SLOTS];
};

static inline volatile uint32_t *agx_mmio_u32(void *page, uint32_t offset)
{
	return (volatile uint32_t *)((uint8_t *)page + offset);
}

static inline struct agx_mbox_ring *agx_mmio_ring(void *page, uint32_t offset)
{
	return (struct agx_mbox_ring *)((uint8_t *)page + offset);
}

/* The receiver's cheap check: a message is waiting in the ring. */
static inline bool agx_mbox_pending(void *page, uint32_t ring)
{
	struct agx_mbox_ring *r = agx_mmio_ring(page, ring);

	return __atomic_load_n(&r->head, __ATOMIC_ACQUIRE) !=
	       __atomic_load_n(&r->tail, __ATOMIC_RELAXED);
}

/*
 * Keeps a CONTROL word's FULL and EMPTY bits true to its ring.  Both ends
 * write it (hardware would compute it), so each writer checks after its
 * store that the indices it used are still current and tries again if not:
 * the last store is always of current indices.
 */
static inline void agx_mbox_update_control(void *page, uint32_t control, struct agx_mbox_ring *r)
{
	for (;;) {
		uint32_t head = __atomic_load_n(&r->head, __ATOMIC_ACQUIRE);
		uint32_t tail = __atomic_load_n(&r->tail, __ATOMIC_ACQUIRE);
		uint32_t bits = (head == tail ? AGX_MMIO_CONTROL_EMPTY : 0) |
				(head - tail >= AGX_MBOX_SLOTS ? AGX_MMIO_CONTROL_FULL : 0);

		__atomic_store_n(agx_mmio_u32(page, control), bits, __ATOMIC_SEQ_CST);
		if (__atomic_load_n(&r->head, __ATOMIC_SEQ_CST) == head &&
		    __atomic_load_n(&r->tail, __ATOMIC_SEQ_CST) == tail)
			return;
	}
}

/* Sender side: false when the ring is full. */
static inline bool agx_mbox_push(void *page, uint32_t ring, uint32_t control, uint64_t msg0,
				 uint8_t endpoint)
{
	struct agx_mbox_ring *r = agx_mmio_ring(page, ring);
	uint32_t head = __atomic_load_n(&r->head, __ATOMIC_RELAXED);
	uint32_t tail = __atomic_load_n(&r->tail, __ATOMIC_ACQUIRE);

	if (head - tail >= AGX_MBOX_SLOTS)
		return false;
	r->slot[head % AGX_MBOX_SLOTS].msg0 = msg0;
	r->slot[head % AGX_MBOX_SLOTS].msg1 = endpoint;
	__atomic_store_n(&r->head, head + 1, __ATOMIC_RELEASE);
	agx_mbox_update_control(page, control, r);
	return true;
}

/*
 * Receiver side: false when the ring is empty.  A ring whose indices say
 * more than SLOTS are waiting is corrupt; it is emptied and reported as
 * empty (the peer wrote garbage).
 */
static inline bool agx_mbox_pop(void *page, uint32_t ring, uint32_t control,
				struct agx_mbox_msg *msg)
{
	struct agx_mbox_ring *r = agx_mmio_ring(page, ring);
	uint32_t tail = __atomic_load_n(&r->tail, __ATOMIC_RELAXED);
	uint32_t head = __atomic_load_n(&r->head, __ATOMIC_ACQUIRE);

	if (head == tail)
		return false;
	if (head - tail > AGX_MBOX_SLOTS) {
		__atomic_store_n(&r->tail, head, __ATOMIC_RELEASE);
		agx_mbox_update_control(page, control, r);
		return false;
	}
	*msg = r->slot[tail % AGX_MBOX_SLOTS];
	__atomic_store_n(&r->tail, tail + 1, __ATOMIC_RELEASE);
	agx_mbox_update_control(page, control, r);
	return true;
}

#endif
