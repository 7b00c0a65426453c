/*
 * render-rig.h: what the render-pass tests share -- a device on the test
 * stack with a VM, a queue and a syncobj, BOs for code, passes and data,
 * images in BOs of their own, compiled shaders placed in the code BO, and
 * a draw filled from two shaders' reflections.  Failures fail the test.
 */
#ifndef TESTS_RENDER_RIG_H
#define TESTS_RENDER_RIG_H

#include <stddef.h>
#include <stdint.h>

#include "agx/compiler.h"
#include "agx/device.h"
#include "agx/layout.h"
#include "agx/render.h"
#include "stack.h"

#define WAIT_NS	  (300ll * 1000 * 1000 * 1000)
#define CODE_SIZE (256u << 10)
#define PASS_SIZE (4u << 20)
#define DATA_SIZE (4u << 20)

struct rig {
	struct agx_device *dev;
	struct agx_device_vm *vm;
	struct agx_bo code, pass, data;
	uint64_t code_va, pass_va, data_va, usc_base;
	size_t code_used, data_used;
	uint32_t queue, syncobj;
	uint64_t point;
};
/* An image in its own BO: its layout and where it is. */
struct image {
	struct agx_bo bo;
	struct agx_layout layout;
	struct agx_image image;
};

struct shader {
	struct agx_shader_binary bin;
	uint64_t va;
};
/* A new BO of size bytes mapped in the rig's VM with flags (AGX_BIND_*, AGX_MAP_*) at *va. */
void rig_map(struct rig *r, struct agx_bo *bo, uint64_t size, unsigned flags, uint64_t *va);
/* Opens the device on the stack s, with the rig's VM, BOs, queue and syncobj. */
void rig_init(struct rig *r, const struct test_stack *s);
void rig_fini(struct rig *r);
/* Bytes copied into the data BO: their GPU address. */
uint64_t rig_data(struct rig *r, const void *bytes, size_t size);
/* GLSL ES compiled with opts, its code placed in the code BO (out->va). */
void rig_compile(struct rig *r, enum agx_shader_stage stage, const char *src,
		 const struct agx_compile_options *opts, struct shader *out);
/* An image of w x h (and layers) in a BO of its own, every byte fill. */
void rig_image_init(struct rig *r, struct image *img, enum agx_format format, unsigned w,
		    unsigned h, bool twiddled, unsigned layers, uint8_t fill);
/* Where texel (x, y) of level 0 of layer is in the image's BO mapping. */
const uint8_t *rig_texel(const struct image *img, unsigned layer, unsigned x, unsigned y);
/* A colour target of a pass. */
struct agx_render_target rig_target(struct image *img, unsigned layer, enum agx_load_op load,
				    enum agx_store_op store);
/* agx_render_begin() in the pass BO, with the queue's TVB heap. */
void rig_begin(struct rig *r, struct agx_render *rp, struct agx_render_pass *pass);
/* Ends the pass, runs it, and waits: its status. */
int rig_run(struct rig *r, struct agx_render *rp);
/* A vertex stage: its attributes' address and stride in the uniforms the ABI names. */
struct agx_render_stage rig_vertex_stage(const struct shader *vs, uint32_t *uniforms,
					 const uint64_t *attribs, const unsigned *strides);
/*
 * A draw of vs and fs with GL's provoking vertex (the last), window y
 * growing with NDC y (the image's rows in order), depth off unless the
 * caller sets it; link and state filled from the reflections.
 */
void rig_draw_init(struct agx_render_draw *d, const struct shader *vs, const struct shader *fs,
		   struct agx_render_stage vstage, unsigned width, unsigned height,
		   struct agx_cf_binding *cf);
/* The fragment stage's uniform vec4 (the one uniform its shaders have) set to colour. */
void rig_fs_colour(struct agx_render_draw *d, const struct shader *fs, uint32_t *fu,
		   const float colour[4]);

#endif
