/*
 * limits.c: the queries of the implementation-dependent values of
 * limits.h (GLES 3.0.6 tables 6.28-6.35), and glGetShaderPrecisionFormat's
 * table for program.c.
 */
#include "context.h"
#include "extensions.h"
#include "get.h"
#include "limits.h"

bool gles_limits_shader_precision(GLenum precisiontype, GLint range[2], GLint *precision)
{
	switch (precisiontype) {
	case GL_LOW_FLOAT:
	case GL_MEDIUM_FLOAT:
	case GL_HIGH_FLOAT:
		/* IEEE 754 binary32 (section 6.1.8's example): 2^-127..2^127, 23 bits */
		range[0] = 127;
		range[1] = 127;
		*precision = 23;
		return true;
	case GL_LOW_INT:
	case GL_MEDIUM_INT:
	case GL_HIGH_INT:
		/* 32-bit two's complement: -2^31..2^31 - 1, log2 of the magnitudes rounded down */
		range[0] = 31;
		range[1] = 30;
		*precision = 0;
		return true;
	default:
		return false;
	}
}

/* One implementation-dependent value, of the type glGet* keeps it in. */
struct limit {
	GLenum pname;
	enum gles_get_type type;
	unsigned count;
	GLint64 value[2];  /* INT, INT64 */
	GLfloat fvalue[2]; /* FLOAT */
};

#define INT(name, v)                                                                               \
	{                                                                                          \
		name, GLES_GET_INT, 1, { (v), 0 },                                                 \
		{                                                                                  \
			0                                                                          \
		}                                                                                  \
	}
#define INT64(name, v)                                                                             \
	{                                                                                          \
		name, GLES_GET_INT64, 1, { (v), 0 },                                               \
		{                                                                                  \
			0                                                                          \
		}                                                                                  \
	}

static const struct limit limits[] = {
	INT(GL_MAX_TEXTURE_SIZE, GLES_MAX_TEXTURE_SIZE),
	INT(GL_MAX_CUBE_MAP_TEXTURE_SIZE, GLES_MAX_CUBE_MAP_TEXTURE_SIZE),
	INT(GL_MAX_RENDERBUFFER_SIZE, GLES_MAX_RENDERBUFFER_SIZE),
	INT(GL_MAX_3D_TEXTURE_SIZE, GLES_MAX_3D_TEXTURE_SIZE),
	INT(GL_MAX_ARRAY_TEXTURE_LAYERS, GLES_MAX_ARRAY_TEXTURE_LAYERS),
	{ GL_MAX_TEXTURE_LOD_BIAS, GLES_GET_FLOAT, 1, { 0, 0 }, { GLES_MAX_TEXTURE_LOD_BIAS } },
	INT(GL_MAX_DRAW_BUFFERS, GLES_MAX_DRAW_BUFFERS),
	INT(GL_MAX_DUAL_SOURCE_DRAW_BUFFERS_EXT, GLES_MAX_DUAL_SOURCE_DRAW_BUFFERS),
	/* a boolean: discard kills the whole fragment, every sample of it */
	INT(GL_FRAGMENT_SHADER_DISCARDS_SAMPLES_EXT, GL_FALSE),
	INT(GL_MAX_COLOR_ATTACHMENTS, GLES_MAX_COLOR_ATTACHMENTS),
	INT(GL_MAX_CLIP_DISTANCES_APPLE, GLES_MAX_CLIP_DISTANCES), /* = _EXT */
	/* EXT_clip_cull_distance: the shader's own (agx_lower_cull.c), in the same 8 */
	INT(GL_MAX_CULL_DISTANCES_EXT, GLES_MAX_CLIP_DISTANCES),
	INT(GL_MAX_COMBINED_CLIP_AND_CULL_DISTANCES_EXT, GLES_MAX_CLIP_DISTANCES),
	{ GL_MAX_VIEWPORT_DIMS,
	  GLES_GET_INT,
	  2,
	  { GLES_MAX_VIEWPORT_WIDTH, GLES_MAX_VIEWPORT_HEIGHT },
	  { 0 } },
	INT(GL_SUBPIXEL_BITS, GLES_SUBPIXEL_BITS),
	{ GL_ALIASED_POINT_SIZE_RANGE,
	  GLES_GET_FLOAT,
	  2,
	  { 0, 0 },
	  { GLES_MIN_ALIASED_POINT_SIZE, GLES_MAX_ALIASED_POINT_SIZE } },
	{ GL_ALIASED_LINE_WIDTH_RANGE,
	  GLES_GET_FLOAT,
	  2,
	  { 0, 0 },
	  { GLES_MIN_ALIASED_LINE_WIDTH, GLES_MAX_ALIASED_LINE_WIDTH } },
	INT(GL_MAX_SAMPLES, GLES_MAX_SAMPLES),
	INT64(GL_MAX_ELEMENT_INDEX, GLES_MAX_ELEMENT_INDEX),
	INT(GL_MAX_ELEMENTS_INDICES, GLES_MAX_ELEMENTS_INDICES),
	INT(GL_MAX_ELEMENTS_VERTICES, GLES_MAX_ELEMENTS_VERTICES),
	INT64(GL_MAX_SERVER_WAIT_TIMEOUT, GLES_MAX_SERVER_WAIT_TIMEOUT),
	INT(GL_MAX_VERTEX_ATTRIBS, GLES_MAX_VERTEX_ATTRIBS),
	INT(GL_MAX_VERTEX_UNIFORM_COMPONENTS, GLES_MAX_VERTEX_UNIFORM_COMPONENTS),
	INT(GL_MAX_VERTEX_UNIFORM_VECTORS, GLES_MAX_VERTEX_UNIFORM_VECTORS),
	INT(GL_MAX_VERTEX_UNIFORM_BLOCKS, GLES_MAX_VERTEX_UNIFORM_BLOCKS),
	INT(GL_MAX_VERTEX_OUTPUT_COMPONENTS, GLES_MAX_VERTEX_OUTPUT_COMPONENTS),
	INT(GL_MAX_VERTEX_TEXTURE_IMAGE_UNITS, GLES_MAX_VERTEX_TEXTURE_IMAGE_UNITS),
	INT(GL_MAX_FRAGMENT_UNIFORM_COMPONENTS, GLES_MAX_FRAGMENT_UNIFORM_COMPONENTS),
	INT(GL_MAX_FRAGMENT_UNIFORM_VECTORS, GLES_MAX_FRAGMENT_UNIFORM_VECTORS),
	INT(GL_MAX_FRAGMENT_UNIFORM_BLOCKS, GLES_MAX_FRAGMENT_UNIFORM_BLOCKS),
	INT(GL_MAX_FRAGMENT_INPUT_COMPONENTS, GLES_MAX_FRAGMENT_INPUT_COMPONENTS),
	INT(GL_MAX_TEXTURE_IMAGE_UNITS, GLES_MAX_TEXTURE_IMAGE_UNITS),
	INT(GL_MIN_PROGRAM_TEXEL_OFFSET, GLES_MIN_PROGRAM_TEXEL_OFFSET),
	INT(GL_MAX_PROGRAM_TEXEL_OFFSET, GLES_MAX_PROGRAM_TEXEL_OFFSET),
	INT(GL_MAX_UNIFORM_BUFFER_BINDINGS, GLES_MAX_UNIFORM_BUFFER_BINDINGS),
	INT64(GL_MAX_UNIFORM_BLOCK_SIZE, GLES_MAX_UNIFORM_BLOCK_SIZE),
	INT(GL_UNIFORM_BUFFER_OFFSET_ALIGNMENT, GLES_UNIFORM_BUFFER_OFFSET_ALIGNMENT),
	INT(GL_MAX_COMBINED_UNIFORM_BLOCKS, GLES_MAX_COMBINED_UNIFORM_BLOCKS),
	INT64(GL_MAX_COMBINED_VERTEX_UNIFORM_COMPONENTS,
	      GLES_MAX_COMBINED_VERTEX_UNIFORM_COMPONENTS),
	INT64(GL_MAX_COMBINED_FRAGMENT_UNIFORM_COMPONENTS,
	      GLES_MAX_COMBINED_FRAGMENT_UNIFORM_COMPONENTS),
	INT(GL_MAX_VARYING_COMPONENTS, GLES_MAX_VARYING_COMPONENTS),
	INT(GL_MAX_VARYING_VECTORS, GLES_MAX_VARYING_VECTORS),
	INT(GL_MAX_COMBINED_TEXTURE_IMAGE_UNITS, GLES_MAX_COMBINED_TEXTURE_IMAGE_UNITS),
	INT(GL_MAX_TRANSFORM_FEEDBACK_INTERLEAVED_COMPONENTS,
	    GLES_MAX_TRANSFORM_FEEDBACK_INTERLEAVED_COMPONENTS),
	INT(GL_MAX_TRANSFORM_FEEDBACK_SEPARATE_ATTRIBS,
	    GLES_MAX_TRANSFORM_FEEDBACK_SEPARATE_ATTRIBS),
	INT(GL_MAX_TRANSFORM_FEEDBACK_SEPARATE_COMPONENTS,
	    GLES_MAX_TRANSFORM_FEEDBACK_SEPARATE_COMPONENTS),
};

bool gles_limits_get(struct gles_context *ctx, GLenum pname, int index, struct gles_get_value *out)
{
	(void)ctx;
	if (index >= 0)
		return false;
	for (unsigned k = 0; k < sizeof(limits) / sizeof(limits[0]); k++) {
		const struct limit *l = &limits[k];

		if (l->pname != pname)
			continue;
		out->type = l->type;
		out->count = l->count;
		for (unsigned c = 0; c < l->count; c++) {
			if (l->type == GLES_GET_FLOAT)
				out->f[c] = l->fvalue[c];
			else if (l->type == GLES_GET_INT64)
				out->i64[c] = l->value[c];
			else
				out->i[c] = (GLint)l->value[c];
		}
		return true;
	}
	return false;
}
