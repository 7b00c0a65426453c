/*
 * agx/compiler.h: the shader compiler's API -- SPIR-V (or GLSL ES, through
 * agx/glsl.h) in, G13 machine code and what a driver needs to run it out.
 * docs/compiler.md describes the pipeline and the binary's contract with
 * the driver (the uniform registers, the interface).
 */
#ifndef AGX_COMPILER_H
#define AGX_COMPILER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "agx_isa_table.h"

enum agx_shader_stage {
	AGX_SHADER_VERTEX,
	AGX_SHADER_FRAGMENT,
	AGX_SHADER_COMPUTE,
};

/*
 * Blending, done in the fragment shader as on AGX (the tile is read back
 * with ld_tile): GLES 3.0 section 4.1.7's equations and factors.
 */
enum agx_blend_op {
	AGX_BLEND_ADD,
	AGX_BLEND_SUBTRACT,	    /* s * sf - d * df */
	AGX_BLEND_REVERSE_SUBTRACT, /* d * df - s * sf */
	AGX_BLEND_MIN,		    /* min(s, d): the factors are not used */
	AGX_BLEND_MAX,
};

enum agx_blend_factor {
	AGX_BLEND_ZERO,
	AGX_BLEND_ONE,
	AGX_BLEND_SRC_COLOR,
	AGX_BLEND_ONE_MINUS_SRC_COLOR,
	AGX_BLEND_DST_COLOR,
	AGX_BLEND_ONE_MINUS_DST_COLOR,
	AGX_BLEND_SRC_ALPHA,
	AGX_BLEND_ONE_MINUS_SRC_ALPHA,
	AGX_BLEND_DST_ALPHA,
	AGX_BLEND_ONE_MINUS_DST_ALPHA,
	AGX_BLEND_CONSTANT_COLOR,
	AGX_BLEND_ONE_MINUS_CONSTANT_COLOR,
	AGX_BLEND_CONSTANT_ALPHA,
	AGX_BLEND_ONE_MINUS_CONSTANT_ALPHA,
	AGX_BLEND_SRC_ALPHA_SATURATE, /* min(As, 1 - Ad) for colour, 1 for alpha */
	/* EXT_blend_func_extended: the second source (AGX_SHADER_LOCATION_DUAL_SOURCE) */
	AGX_BLEND_SRC1_COLOR,
	AGX_BLEND_ONE_MINUS_SRC1_COLOR,
	AGX_BLEND_SRC1_ALPHA,
	AGX_BLEND_ONE_MINUS_SRC1_ALPHA,
};

/*
 * How a render target's values are kept, which decides blending: fixed
 * point (unorm, sRGB included, and snorm) clamps the source, destination
 * and factors to the format's range first; float does not; integer
 * targets are never blended (GLES 3.0 section 4.1.7).
 */
enum agx_rt_type {
	AGX_RT_UNORM,
	AGX_RT_SNORM,
	AGX_RT_FLOAT,
	AGX_RT_UINT,
	AGX_RT_SINT,
};

struct agx_blend_rt {
	bool enable;
	enum agx_blend_op rgb_op, alpha_op;
	enum agx_blend_factor rgb_src, rgb_dst, alpha_src, alpha_dst;
};

/*
 * How a vertex attribute is kept in memory (glVertexAttribPointer's type,
 * GLES 3.0 table 2.2); the vertex shader fetches and converts it.
 */
enum agx_vertex_type {
	AGX_VERTEX_FLOAT, /* 32-bit floats (the default) */
	AGX_VERTEX_HALF_FLOAT,
	AGX_VERTEX_BYTE,
	AGX_VERTEX_UNSIGNED_BYTE,
	AGX_VERTEX_SHORT,
	AGX_VERTEX_UNSIGNED_SHORT,
	AGX_VERTEX_INT,
	AGX_VERTEX_UNSIGNED_INT,
	AGX_VERTEX_FIXED, /* 16.16 two's complement */
	AGX_VERTEX_INT_2_10_10_10_REV,
	AGX_VERTEX_UNSIGNED_INT_2_10_10_10_REV,
};

/*
 * A vertex attribute location's array.  A constant attribute (a disabled
 * array, glVertexAttrib*) is an array of stride 0 holding the value as
 * four floats, or four integers with integer set.
 */
struct agx_vertex_attrib {
	enum agx_vertex_type type;
	unsigned size;	  /* components in memory, 1..4 (the rest are 0, 0, 1); 0: four */
	bool normalized;  /* fixed-point conversion of the integer types (equations 2.1, 2.2) */
	bool integer;	  /* glVertexAttribIPointer: the integers as they are */
	unsigned divisor; /* 0: an element per vertex; else per divisor instances */
};

#define AGX_MAX_VERTEX_ATTRIBS 16

/*
 * Transform feedback (GLES 3.0 section 2.15): a 32-bit component of a
 * vertex shader output (store_output's location and component; the
 * built-ins at AGX_SHADER_LOCATION_*) that is also written to memory, as
 * word `word` of the vertex's record in buffer `buffer`.
 */
struct agx_xfb_word {
	uint16_t location;
	uint8_t component, buffer, word;
};

#define AGX_MAX_XFB_BUFFERS 4
#define AGX_MAX_XFB_WORDS   64 /* GL_MAX_TRANSFORM_FEEDBACK_INTERLEAVED_COMPONENTS */

struct agx_compile_options {
	/*
	 * 32-bit registers the shader may use; 0 means all (128).  Fewer
	 * registers let more threads run at once, and force spilling sooner
	 * (the tests use it to make the allocator spill).
	 */
	unsigned max_registers;
	/* When set, the IR is printed here after translation and after each pass. */
	FILE *ir_dump;
	/*
	 * Fragment shaders: the render targets in a pixel's tilebuffer sample.
	 * Colour output location i goes to rt[i]: format is how st_tile keeps
	 * it (g13.isa's memformat), offset the byte offset in the sample,
	 * components the components the target has (0: four): a shader's
	 * components past them are dropped, as GLES 3.0 section 4.2.1 says;
	 * none: no target at that location (writes to it are dropped).
	 * num_rts == 0 means one target, u8norm RGBA at offset 0; outputs at
	 * locations past num_rts are dropped (no draw buffer).
	 */
	struct {
		enum agx_isa_memformat format;
		unsigned offset;
		unsigned components;
		bool none;
		enum agx_rt_type type;
		/*
		 * Not in the tilebuffer (it did not fit): the shader writes
		 * the target's memory at the pixel with image_write, and reads
		 * it back for blending with texture_load, through texture and
		 * sampler state the reflection's spill_textures names.
		 */
		bool spilled;
		struct agx_blend_rt blend;
		/*
		 * Components (bit 0 red .. bit 3 alpha) the shader leaves as
		 * they are: GL's colour mask, inverted, so that 0 writes all.
		 */
		unsigned keep;
	} rt[8];
	unsigned num_rts;
	/*
	 * Fragment shaders: a pixel's samples in the tilebuffer (0 or 1: one).
	 * The shader runs once a pixel and stores to its covered samples;
	 * where it reads a target back (blending, colour masks) it does so
	 * and stores sample by sample.
	 */
	unsigned samples;
	/*
	 * Fragment shaders of a multisampled pass: GL's alpha to coverage
	 * (sample s of the pixel kept where colour 0's alpha > s / samples,
	 * as Mesa's llvmpipe does), and glSampleCoverage's mask (bit s:
	 * sample s kept) when sample_coverage is set; the samples they drop
	 * are killed before the colour is stored.
	 */
	bool alpha_to_coverage, sample_coverage;
	unsigned sample_coverage_mask;
	/*
	 * Fragment shaders: the cull distances the linked vertex shader writes
	 * (its outputs at AGX_SHADER_LOCATION_CULL_FLAG); the fragment is
	 * discarded where the primitive has one negative at every vertex.
	 */
	unsigned cull_distances;
	/*
	 * Robust buffer access (GL_KHR_robustness): a vertex attribute read
	 * of an element past what its buffer holds, and a uniform block read
	 * past the range bound at its binding, give zeros and touch no
	 * memory outside the buffer (agx_lower_robust.c).  The bounds come in
	 * uniform registers the reflection names (agx_shader_var.size_uniform
	 * of the inputs and the uniform blocks).  Off, the reads are not
	 * checked and cost nothing more.
	 */
	bool robust_access;
	/* Vertex shaders: the array behind each attribute location. */
	struct agx_vertex_attrib attribs[AGX_MAX_VERTEX_ATTRIBS];
	/*
	 * Vertex shaders: gl_Position.z already runs 0..w, the hardware's
	 * clip-space depth (Vulkan's and Metal's); otherwise it is GL's
	 * -w..w and the shader maps it there ((z + w) / 2).
	 */
	bool depth_zero_to_one;
	/*
	 * Vertex shaders: the components captured by transform feedback, and
	 * the 32-bit words of a record in each buffer (0 for a buffer not
	 * used).  A vertex's record is the n-th of its buffer, n counted
	 * from the first vertex of the draw (agx_shader_info.xfb_uniform).
	 */
	struct {
		unsigned num_words;
		struct agx_xfb_word words[AGX_MAX_XFB_WORDS];
		uint8_t stride[AGX_MAX_XFB_BUFFERS];
	} xfb;
};

/* What an interface variable is; the kinds of agx_ir_var (libagx/compiler/agx_ir.h). */
enum agx_shader_var_kind {
	AGX_SHADER_INPUT,
	AGX_SHADER_OUTPUT,
	AGX_SHADER_UNIFORM,
	AGX_SHADER_UNIFORM_BLOCK,
	AGX_SHADER_STORAGE_BLOCK,
	AGX_SHADER_SAMPLER,
	AGX_SHADER_SHARED,
};

enum agx_shader_interp {
	AGX_SHADER_SMOOTH,
	AGX_SHADER_FLAT,
	AGX_SHADER_CENTROID,
	AGX_SHADER_NOPERSPECTIVE,
};

/* The locations of built-in interface variables (agx_shader_var.location). */
#define AGX_SHADER_LOCATION_POSITION	0x100 /* gl_Position */
#define AGX_SHADER_LOCATION_POINT_SIZE	0x101 /* gl_PointSize */
#define AGX_SHADER_LOCATION_FRAG_DEPTH	0x102 /* gl_FragDepth */
#define AGX_SHADER_LOCATION_POINT_COORD 0x103 /* gl_PointCoord */
/*
 * A fragment output of index 1 at location 0 (EXT_blend_func_extended):
 * not stored, the second source colour of location 0's blending.
 */
#define AGX_SHADER_LOCATION_DUAL_SOURCE 0x104
/*
 * GL_APPLE_clip_distance's gl_ClipDistance[0..7] (the front end's vertex
 * output agx_ClipDistance): element i at location 0x108 + i.  The
 * distances are the vertex's last output slots, after gl_PointSize's.
 */
#define AGX_SHADER_LOCATION_CLIP_DISTANCE 0x108
/*
 * EXT_clip_cull_distance's cull distances, tested in the fragment shader
 * (agx_lower_cull.c): element i at location 0x110 + i, 1 where cull
 * distance i is >= 0 at the vertex, else 0, interpolated linearly.  A
 * vertex shader's such outputs are varyings placed after its others; a
 * fragment shader reads them when agx_compile_options.cull_distances
 * says how many the vertex shader writes.
 */
#define AGX_SHADER_LOCATION_CULL_FLAG 0x110
#define AGX_SHADER_MAX_CULL_DISTANCES 8

struct agx_shader_var {
	enum agx_shader_var_kind kind;
	char *name;	 /* the shader's own (original) name */
	char *glsl_type; /* "vec4", "mat3", "sampler2D", the block's name, ... */
	unsigned components;
	unsigned array_size; /* 0: not an array */
	unsigned location;   /* inputs, outputs, uniforms */
	unsigned
	    locations;	  /* the locations from it an input or output covers (a matrix's columns) */
	unsigned binding; /* blocks, samplers */
	unsigned offset, size;
	enum agx_shader_interp interp;
	/*
	 * The first 32-bit uniform register the driver fills for it: a
	 * block's 64-bit device address (two registers, low word first), a
	 * default-block uniform's value (its components in order, 32 bits
	 * each), a sampler's size for textureSize (width, height, and depth
	 * or layers of level 0: three registers per element); -1 when it
	 * needs none.
	 */
	int uniform;
	/*
	 * A vertex shader's output: its first 32-bit output slot (position is
	 * 0).  A sampler: its texture and sampler state register (tsN, ssN),
	 * the first of an array's, one per element.  Else -1.
	 */
	int slot;
	/* A fragment shader's input: its first coefficient register; else -1. */
	int cf;
	/*
	 * A storage block whose .length() the shader reads, or (robust_access)
	 * a uniform block: the 32-bit uniform register the driver fills with
	 * the size in bytes of the range it binds (one per element of an
	 * array of blocks).  A vertex shader's input under robust_access: the
	 * register of the number of elements of the array at its location
	 * that the buffer holds (one per location it covers), the elements n
	 * with offset + n * stride + the element's bytes <= the buffer's
	 * size, counted from the element the shader's vertex (or instance) 0
	 * reads.  Else -1.
	 */
	int size_uniform;
};

/*
 * A default-block uniform as GL lists it (GLES 3.0 section 2.12.6): each
 * leaf of basic type of a uniform var -- "s.f", "s[1].f", an array of a
 * basic type once as "a" (its elements a[i]) -- and where it lives in the
 * default block (std140): the driver writes element i's column c at
 * offset + i * array_stride + c * matrix_stride.  Samplers are vars
 * (AGX_SHADER_SAMPLER), not these.
 */
struct agx_shader_uniform {
	char *name;	     /* the shader's own names, joined */
	char *glsl_type;     /* "float", "ivec3", "mat2x4", ... */
	unsigned var;	     /* the index in vars of the uniform it is part of */
	unsigned array_size; /* 0: not an array */
	unsigned offset;     /* bytes into the default block (a var's own offset included) */
	unsigned array_stride, matrix_stride;
};

struct agx_shader_info {
	enum agx_shader_stage stage;
	struct agx_shader_var *vars;
	unsigned num_vars;
	struct agx_shader_uniform *uniform_leaves;
	unsigned num_uniform_leaves;
	unsigned uniform_size;	/* bytes of the default block the uniform vars lay out */
	unsigned num_registers; /* 32-bit registers the code uses */
	unsigned num_uniforms;	/* 32-bit uniform registers the driver fills, from u0 */
	unsigned local_size[3]; /* compute */
	unsigned shared_size;	/* bytes of threadgroup memory */
	unsigned scratch_size;	/* bytes of stack per thread (spills) */
	/* The 32-bit uniform registers that take gl_NumWorkGroups' x, y, z; -1 when unread. */
	int num_workgroups_uniform;
	/*
	 * When the default-block uniforms did not fit the uniform registers:
	 * the pair that takes the address of a buffer holding them all, at
	 * their offsets; -1 when they are in registers (each var's uniform).
	 */
	int uniform_block_uniform;
	/* Texture and sampler state registers the samplers take, from ts0/ss0. */
	unsigned num_textures;
	bool discards;
	bool writes_depth;
	unsigned num_instructions;
	/* Vertex: the 32-bit output slots of one vertex (4 for the position, then the varyings). */
	unsigned num_vertex_outputs;
	/* Fragment: the coefficient registers read, from cf0 (1/w) on. */
	unsigned num_cf;
	/* Fragment: the coefficient register of gl_FragCoord.z's window z, or -1. */
	int frag_coord_z_cf;
	/*
	 * Fragment: the first of four 32-bit uniform registers the driver
	 * fills with the blend constant colour (floats, red first), -1 when
	 * no blend factor reads it.
	 */
	int blend_constant_uniform;
	/*
	 * Fragment: the first texture and sampler state register (tsN, ssN)
	 * of the spilled render targets, one each in location order, after
	 * the shader's own samplers (num_textures counts them); -1 when none.
	 * The driver binds each target's texture (agx_render_spill_state())
	 * and a sampler there.
	 */
	int spill_textures;
	/*
	 * Vertex: the first 32-bit uniform register of transform feedback's,
	 * -1 when the shader captures nothing (no xfb words in the options).
	 * They are, in order: for each buffer with a stride, the 64-bit
	 * address (a pair, low word first) of the record the draw's first
	 * vertex of instance 0 writes; then the draw's first vertex (the
	 * gl_VertexID that writes record 0) and its vertices per instance.
	 * Vertex v of instance i writes record (i * vertices + v - first),
	 * at its buffer's address plus 4 * stride words per record.
	 */
	int xfb_uniform;
};

struct agx_shader_binary {
	uint8_t *code; /* G13 machine code, run from offset 0 */
	size_t size;
	struct agx_shader_info info;
	/* Why a compile failed, or NULL. */
	char *log;
};

/*
 * Compiles a SPIR-V module (words host-order, as agx_glsl_to_spirv()
 * makes them) with one entry point of the stage.  Returns 0, -EINVAL
 * when the module is malformed or uses what GLSL ES could not have made,
 * -ENOTSUP when it is valid but needs what the compiler does not do yet
 * (the log says what), -ENOMEM.  The binary is freed by
 * agx_shader_binary_finish() whatever the result.
 */
int agx_compile_spirv(enum agx_shader_stage stage, const uint32_t *words, size_t num_words,
		      const struct agx_compile_options *options, struct agx_shader_binary *out);

/*
 * The same from GLSL ES source, through agx_glsl_to_spirv(): names in the
 * reflection are the shader's own.  -EINVAL with glslang's log for an
 * invalid shader.
 */
int agx_compile_glsl(enum agx_shader_stage stage, const char *source, size_t length,
		     const struct agx_compile_options *options, struct agx_shader_binary *out);

void agx_shader_binary_finish(struct agx_shader_binary *binary);

/* The reflection as JSON (docs/compiler.md, "Reflection"), malloc'd; NULL when out of memory. */
char *agx_shader_info_to_json(const struct agx_shader_info *info);

#endif
