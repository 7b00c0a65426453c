/*
 * render-rig.c: the render-pass tests' shared rig (render-rig.h).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "agx/format.h"
#include "render-rig.h"

void rig_map(struct rig *r, struct agx_bo *bo, uint64_t size, unsigned flags, uint64_t *va)
{
	if (agx_device_bo_create(r->dev, size, 0, bo) < 0 ||
	    agx_device_vm_map(r->dev, r->vm, bo, flags, va) < 0)
		fail_msg("%s", agx_device_error());
}

void rig_init(struct rig *r, const struct test_stack *s)
{
	struct agx_device_config config = { .memmgr_socket = s->memmgr,
					    .scheduler_socket = s->sched,
					    .name = "render-rig" };

	memset(r, 0, sizeof(*r));
	if (agx_device_open(&config, &r->dev) < 0)
		fail_msg("agx_device_open: %s", agx_device_error());
	r->usc_base = agx_device_info(r->dev)->usc_base;
	assert_int_equal(agx_device_vm_create(r->dev, &r->vm), 0);
	rig_map(r, &r->code, CODE_SIZE, AGX_BIND_READ | AGX_BIND_EXECUTE | AGX_MAP_USC,
		&r->code_va);
	rig_map(r, &r->pass, PASS_SIZE, AGX_BIND_READ | AGX_BIND_EXECUTE | AGX_MAP_USC,
		&r->pass_va);
	rig_map(r, &r->data, DATA_SIZE, AGX_BIND_READ | AGX_BIND_WRITE, &r->data_va);
	assert_int_equal(agx_device_queue_create(r->dev, r->vm, AGX_PRIORITY_NORMAL, &r->queue), 0);
	assert_int_equal(agx_device_syncobj_create(r->dev, &r->syncobj), 0);
}

void rig_fini(struct rig *r)
{
	assert_int_equal(agx_device_queue_destroy(r->dev, r->queue), 0);
	agx_device_bo_close(r->dev, &r->code);
	agx_device_bo_close(r->dev, &r->pass);
	agx_device_bo_close(r->dev, &r->data);
	agx_device_vm_destroy(r->dev, r->vm);
	agx_device_close(r->dev);
}

uint64_t rig_data(struct rig *r, const void *bytes, size_t size)
{
	uint64_t va;

	r->data_used = (r->data_used + 63) & ~(size_t)63;
	assert_true(r->data_used + size <= DATA_SIZE);
	memcpy((uint8_t *)r->data.map + r->data_used, bytes, size);
	va = r->data_va + r->data_used;
	r->data_used += size;
	return va;
}

void rig_compile(struct rig *r, enum agx_shader_stage stage, const char *src,
		 const struct agx_compile_options *opts, struct shader *out)
{
	int ret = agx_compile_glsl(stage, src, strlen(src), opts, &out->bin);

	if (ret)
		fail_msg("agx_compile_glsl: %d: %s", ret, out->bin.log ? out->bin.log : "");
	r->code_used = (r->code_used + 63) & ~(size_t)63;
	assert_true(r->code_used + out->bin.size <= CODE_SIZE);
	memcpy((uint8_t *)r->code.map + r->code_used, out->bin.code, out->bin.size);
	out->va = r->code_va + r->code_used;
	r->code_used += out->bin.size;
}

void rig_image_init(struct rig *r, struct image *img, enum agx_format format, unsigned w,
		    unsigned h, bool twiddled, unsigned layers, uint8_t fill)
{
	const struct agx_format_info *fi = agx_format_info(format);
	uint64_t va, size;

	memset(img, 0, sizeof(*img));
	img->layout = (struct agx_layout){ .twiddled = twiddled,
					   .bytes_per_texel = fi->bytes,
					   .block_w = 1,
					   .block_h = 1,
					   .width = w,
					   .height = h,
					   .levels = 1,
					   .stride = (w * fi->bytes + 15) / 16 * 16 };
	assert_true(agx_layout_init(&img->layout));
	size = twiddled ? img->layout.layer_stride * layers : img->layout.stride * h;
	rig_map(r, &img->bo, (size + 0x3fff) & ~0x3fffull, AGX_BIND_READ | AGX_BIND_WRITE, &va);
	memset(img->bo.map, fill, img->bo.size);
	img->image = (struct agx_image){ .format = format,
					 .dim = layers > 1 ? AGX_IMAGE_2D_ARRAY : AGX_IMAGE_2D,
					 .layout = &img->layout,
					 .address = va,
					 .depth = layers };
}

const uint8_t *rig_texel(const struct image *img, unsigned layer, unsigned x, unsigned y)
{
	return (const uint8_t *)img->bo.map + agx_layout_texel(&img->layout, 0, layer, x, y);
}

struct agx_render_target rig_target(struct image *img, unsigned layer, enum agx_load_op load,
				    enum agx_store_op store)
{
	return (struct agx_render_target){ .surface = { .image = img->image, .layer = layer },
					   .load = load,
					   .store = store };
}

void rig_begin(struct rig *r, struct agx_render *rp, struct agx_render_pass *pass)
{
	uint32_t size;
	int ret;

	assert_int_equal(agx_device_queue_tvb(r->dev, r->queue, &pass->tvb, &size), 0);
	pass->tvb_size = size;
	ret = agx_render_begin(rp, r->pass.map, r->pass_va, PASS_SIZE, r->usc_base, pass);
	if (ret)
		fail_msg("agx_render_begin: %d", ret);
}

int rig_run(struct rig *r, struct agx_render *rp)
{
	struct agx_sched_cmd cmd = { .kind = AGX_SCHED_CMD_RENDER };
	struct agx_sched_point p = { r->syncobj, ++r->point };
	int status = 1;

	assert_int_equal(agx_render_end(rp, &cmd.render), 0);
	if (agx_device_submit(r->dev, r->queue, &cmd, 1, NULL, 0, &p, 1) < 0)
		fail_msg("submit: %s", agx_device_error());
	if (agx_device_wait(r->dev, &p, 1, true, WAIT_NS, &status) < 0)
		fail_msg("wait: %s", agx_device_error());
	return status;
}

struct agx_render_stage rig_vertex_stage(const struct shader *vs, uint32_t *uniforms,
					 const uint64_t *attribs, const unsigned *strides)
{
	const struct agx_shader_info *in = &vs->bin.info;

	memset(uniforms, 0, 4 * in->num_uniforms);
	for (unsigned i = 0; i < in->num_vars; i++) {
		const struct agx_shader_var *v = &in->vars[i];

		if (v->kind == AGX_SHADER_INPUT && v->uniform >= 0)
			assert_true(agx_render_set_attrib(
			    in, uniforms, v->location, attribs[v->location], strides[v->location]));
	}
	return (struct agx_render_stage){ .code_va = vs->va,
					  .num_registers = in->num_registers,
					  .uniforms = uniforms,
					  .num_uniforms = in->num_uniforms };
}

void rig_draw_init(struct agx_render_draw *d, const struct shader *vs, const struct shader *fs,
		   struct agx_render_stage vstage, unsigned width, unsigned height,
		   struct agx_cf_binding *cf)
{
	unsigned n = 0, regs = 0;

	memset(d, 0, sizeof(*d));
	d->vs = vstage;
	d->vs_outputs = vs->bin.info.num_vertex_outputs;
	if (fs) {
		d->fs = (struct agx_render_stage){ .code_va = fs->va,
						   .num_registers = fs->bin.info.num_registers };
		assert_int_equal(
		    agx_render_link_varyings(&vs->bin.info, &fs->bin.info, 2, NULL, cf, &n, &regs), 0);
		d->cf = cf;
		d->num_cf = n;
		d->cf_registers = regs;
		d->state.frag_coord_z = fs->bin.info.frag_coord_z_cf >= 0;
	}
	/*
	 * The compiler maps GL's clip z, -w..w, onto the hardware's 0..w
	 * (agx_lower_clip_z): window z = (NDC z + 1) / 2, GL's depth range 0..1
	 */
	d->state = (struct agx_ppp_state){ .translate = { width / 2.0f, height / 2.0f, 0 },
					   .scale = { width / 2.0f, height / 2.0f, 1 },
					   .provoking = 2,
					   .depth_clip = true,
					   .depth_func = AGX_CMD_ZS_FUNC_ALWAYS,
					   .varying_words = d->vs_outputs - 4,
					   .frag_coord_z = d->state.frag_coord_z };
	d->draw.instances = 1;
}

void rig_fs_colour(struct agx_render_draw *d, const struct shader *fs, uint32_t *fu,
		   const float colour[4])
{
	for (unsigned i = 0; i < fs->bin.info.num_vars; i++)
		if (fs->bin.info.vars[i].kind == AGX_SHADER_UNIFORM)
			memcpy(&fu[fs->bin.info.vars[i].uniform], colour, 16);
	d->fs.uniforms = fu;
	d->fs.num_uniforms = fs->bin.info.num_uniforms;
}
