/*
 * clear.h: clearing a rectangle of one level and layer of an image to one
 * texel value, as GPU work: a compute kernel (libagx/clear/clear.comp,
 * compiled once per process by libagx's compiler) launched into a
 * command buffer (agx/cmdbuf.h), which the caller submits on a queue of
 * its device with the syncobj points it wants signalled.
 *
 * The kernel writes every 32-bit word of the image that holds a texel of
 * the rectangle, through the image's layout (agx/layout.h: linear rows, or
 * twiddled tiles in Morton order), for texels of 1, 2, 4, 8 and 16 bytes.
 * A write mask selects the bits written (a colour write mask, a depth-only
 * or stencil-only clear of a packed Z24S8 word, a stencil write mask): the
 * kernel reads the word and merges.  agx/format.h packs the value and
 * makes the masks.
 */
#ifndef AGX_CLEAR_H
#define AGX_CLEAR_H

#include <stdint.h>

#include "agx/cmdbuf.h"
#include "agx/device.h"
#include "agx/layout.h"

/* The kernel as one VM runs it: its code in a BO mapped for the USC. */
struct agx_clear {
	struct agx_device *dev;
	struct agx_device_vm *vm;
	struct agx_bo code;
	uint64_t code_va;
};

/*
 * The part of an image a clear writes: the image's offset 0 in the VM
 * (`va`), its layout (no block-compressed formats), the level and layer
 * (the layout does not know how many layers there are: the caller does).
 */
struct agx_clear_image {
	uint64_t va;
	const struct agx_layout *layout;
	unsigned level, layer;
};

/* Texels x <= X < x + width, y <= Y < y + height of the level. */
struct agx_clear_rect {
	unsigned x, y, width, height;
};

/*
 * Compiles the kernel (the first call in the process; later ones reuse
 * it), and puts its code in a BO of dev mapped in vm.  0, the compiler's
 * or the device's negative errno.
 */
int agx_clear_init(struct agx_clear *clear, struct agx_device *dev, struct agx_device_vm *vm);
/* Unmaps and frees the code; work using it must have finished.  A zeroed struct is a no-op. */
void agx_clear_finish(struct agx_clear *clear);

/*
 * Appends to cb the launch that clears rect (cut to the level's size) of
 * img to value -- the texel's layout->bytes_per_texel bytes, as
 * agx_format_pack_*() make them -- writing only the bits set in mask (the
 * same number of bytes; NULL: all of them), and a barrier after it, so that
 * later launches of cb see the clear.  An empty rectangle appends nothing.
 * 0; -EINVAL for an image the kernel cannot address (block-compressed, a
 * level it does not have, a linear stride that is not a multiple
 * of 4 bytes and of the texel, an address not 4-byte aligned), cb's error
 * (-ENOSPC when full).
 */
int agx_clear_record(const struct agx_clear *clear, struct agx_cmdbuf *cb,
		     const struct agx_clear_image *img, const struct agx_clear_rect *rect,
		     const uint8_t *value, const uint8_t *mask);

#endif
