/*
 * fakes.h: stand-ins for agx-fwchan's firmware memory and mailbox, for
 * tests that drive its request handling in-process (fakes.c).
 */
#ifndef TESTS_FWCHAN_FAKES_H
#define TESTS_FWCHAN_FAKES_H

#include <stdbool.h>
#include <stdint.h>

#include "kmem.h"
#include "rtkit.h"

#define FAKE_KERNEL_VA 0xffffffa000000000ull
#define FAKE_VM_START  0x100000000ull
#define FAKE_VM_END    0x200000000ull

extern unsigned fake_mailbox_messages;

/* An arena of size bytes over a buffer, carved by fwchan's arena.c. */
int fake_kmem_init(struct kmem *k, uint64_t size);
void fake_kmem_fini(struct kmem *k);

#endif
