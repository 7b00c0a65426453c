/*
 * sampling.h: what a draw's shaders sample -- each texture state register
 * of a stage's variant bound to the texture its sampler uniform's unit
 * has for the sampler's target, with the unit's sampler object or the
 * texture's own sampling state (GLES 3.0.6 sections 3.8, 2.11.9): a
 * texture descriptor of its levels from the base level to the last one
 * the filter can reach, and a sampler word.  An incomplete texture
 * (section 3.8.13) samples as (0, 0, 0, 1) (section 2.11.9.5).
 */
#ifndef GLES_SAMPLING_H
#define GLES_SAMPLING_H

#include <stdbool.h>
#include <stdint.h>

#include "agx/cmd.h"
#include "agx/compiler.h"

struct gles_context;
struct gles_program_stage;

struct gles_linked;

/*
 * Before a draw's pass is taken: the mutable textures the program samples
 * more than one level of get their chain image made (sampling.c), which
 * may free images earlier work used, and so submit it.  0 or -ENOMEM.
 */
int gles_sampling_prepare(struct gles_context *ctx, const struct gles_linked *l);

/*
 * Fills tex[ts] and smp[ts] for every sampler of the variant (ts < its
 * num_textures), and the textureSize uniform registers in uniforms.
 * 0, or a negative errno (out of memory, the device).
 */
int gles_sampling_stage(struct gles_context *ctx, const struct gles_program_stage *ps,
			const struct agx_shader_info *info, uint8_t (*tex)[AGX_TEXTURE_LENGTH],
			uint8_t (*smp)[AGX_SAMPLER_LENGTH], uint32_t *uniforms);

void gles_sampling_context_finish(struct gles_context *ctx);

struct gles_image;
struct gles_texture;

/*
 * Whether the texture unit reads level `level` of img alone as a 2D
 * texture (agx_texture_descriptor: not every level of a partial mip chain).
 */
bool gles_sampling_level_readable(const struct gles_image *img, unsigned level);

/* Whether t is mipmap complete (section 3.8.13, with a mipmapped filter). */
bool gles_texture_mipmap_complete(const struct gles_texture *t);
/*
 * Makes a mipmap-complete mutable texture's levels one chain image now
 * (texture.c, before an EGLImage shares a level: a later draw's chain must
 * not move it away): 0 or -ENOMEM.
 */
int gles_texture_chain(struct gles_texture *t);

#endif
