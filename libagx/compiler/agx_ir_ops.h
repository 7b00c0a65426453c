/*
 * agx_ir_ops.h: the IR's opcodes, one row each.  Everything else that knows
 * about an op -- the enum, the info table the validator and the passes read,
 * the printer's names, the builder's helpers -- is expanded from AGX_IR_OPS.
 *
 * A row is X(name, dest, nsrc, (srcs), nimm, (imms), flags):
 *
 *   name   the op as printed; its enum is AGX_IR_OP_<name> and its builder
 *          helper agx_<name>() (agx_builder.h)
 *   dest   the class of the destination, NONE for an op without one
 *   nsrc   how many sources, and (srcs) their classes, nsrc of them
 *   nimm   how many constant indices the op carries, and (imms) their names:
 *          the printer writes them "name=N", the builder takes them as
 *          uint32_t parameters of that name
 *   flags  enum agx_ir_op_flag's, without their AGX_IR_ prefix, or 0
 *
 * Classes say what type an operand may have.  "Sized" classes (F, I, N, T)
 * are tied together: all of an instruction's sized operands have the same
 * bit size S, and all its T operands the same type.  The builder derives a
 * destination of class B, F, I, T or a fixed type from the sources; for the
 * others (N, FX, IX, V, ANY) its helper takes the type as a parameter.
 *
 * To add an op, add a row; up to AGX_IR_MAX_SRCS sources and
 * AGX_IR_MAX_IMMS indices (raising them needs a line more in each of the
 * AGX_IR_CLASSES_n and agx_builder.h's per-count macros).
 */
#ifndef AGX_IR_OPS_H
#define AGX_IR_OPS_H

#define AGX_IR_MAX_SRCS 3
#define AGX_IR_MAX_IMMS 6

enum agx_ir_class {
	AGX_IR_CLASS_NONE, /* no operand (an op without a destination) */
	AGX_IR_CLASS_B,	   /* b1 */
	AGX_IR_CLASS_F,	   /* a float of the instruction's size */
	AGX_IR_CLASS_I,	   /* an integer of the instruction's size */
	AGX_IR_CLASS_N,	   /* an integer or a float of the instruction's size */
	AGX_IR_CLASS_T,	   /* the instruction's type, whatever it is (b1 too) */
	AGX_IR_CLASS_FX,   /* a float of either size, its own */
	AGX_IR_CLASS_IX,   /* an integer of either size, its own */
	AGX_IR_CLASS_V,	   /* an integer or a float of either size (memory values) */
	AGX_IR_CLASS_ANY,  /* any type */
	AGX_IR_CLASS_F16,
	AGX_IR_CLASS_F32,
	AGX_IR_CLASS_I16,
	AGX_IR_CLASS_I32,
};

enum agx_ir_op_flag {
	/* The result depends on the sources and indices alone: CSE may merge two. */
	AGX_IR_PURE = 1 << 0,
	/* Sources 0 and 1 may be swapped. */
	AGX_IR_COMMUTATIVE = 1 << 1,
	/* Writes memory or otherwise acts: never removed, never moved across another. */
	AGX_IR_SIDE_EFFECTS = 1 << 2,
	/* Leaves the block (break, continue): only last in a block. */
	AGX_IR_TERMINATOR = 1 << 3,
	/* Any number of sources, each of the destination's type (phi). */
	AGX_IR_VARIADIC = 1 << 4,
	/* Not one AGX instruction: a lowering pass rewrites it before selection. */
	AGX_IR_LOWERED = 1 << 5,
	/* With VARIADIC: the sources a texture op's indices lay out (agx_ir_tex_layout()). */
	AGX_IR_TEXTURE = 1 << 6,
};

/*
 * The flags column spells them without AGX_IR_; agx_ir.c's info table
 * (agx_ir_op_table) is the one place that reads it.
 *
 * An op with neither PURE nor SIDE_EFFECTS (load_ssbo, phi) may be removed
 * when nothing reads it, but not merged with another or moved across a
 * side effect.
 *
 * What the LOWERED ops become: fsub a, b = fadd a, fneg b; fdiv a, b =
 * a * frcp b; ffract a = a - ffloor a; fsqrt a = a * rsqrt_special a (the
 * ISA's); fsin, fcos = sin_pt_1, sin_pt_2 of the angle in quarter turns;
 * fpow a, b = fexp2(b * flog2 a); idiv, udiv, irem (the sign of a), umod =
 * a reciprocal sequence, as the ISA has no divider.  fneg and fabs stay:
 * selection folds them into their readers' source modifiers, and ineg
 * selects isub 0, a.
 *
 * fmin and fmax are not COMMUTATIVE: the ISA's compare-selects give
 * different bits for (+0, -0) and for two NaNs in the other order, and
 * CSE must not make one of the other.
 *
 * What the classes do not say: fne is unordered (true when either source
 * is NaN, as GLSL's !=), the other float comparisons ordered; ishr is
 * arithmetic, ushr logical, and the shifts take their count modulo the
 * size; f2i/f2u round toward zero, i2f, u2f and f2f16 to nearest even;
 * i2i16 keeps the low bits, i2i32 sign-extends, u2u32 zero-extends;
 * b2f/b2i give 1 or 0; bcsel a, b, c is a ? b : c; ffma rounds once.
 * Memory addresses are byte offsets into the binding's buffer, and
 * store_ssbo's sources are (value, address); load_uniform's offset counts
 * bytes of the shader's uniform words.  The system values take their
 * component (0 = x, 1 = y, 2 = z) as an index.
 *
 * Threadgroup memory addresses are byte offsets from the start of the
 * shader's shared variables.  atomic_* return the value memory held
 * before; cmpxchg_*'s sources are (address, compare, new): the word
 * becomes new where it equalled compare.  barrier is GLSL's barrier():
 * every invocation of the threadgroup gets there, and shared memory
 * written before it is visible after it.  load_input and store_output
 * name a location of the shader's interface (agx_ir.h, struct
 * agx_ir_var) and a 32-bit component of it; the built-in outputs have
 * the locations AGX_IR_LOCATION_*.  discard ends the invocation, which
 * writes nothing after it (an if around it makes it conditional).
 * load_tile is a component of what the pixel's render target at a
 * colour location holds now (as a float for the float, unorm and snorm
 * targets, linear for sRGB, the integer otherwise: the type says), for
 * blending and colour masks; a store_output to the location after it
 * changes it.  In a multisampled pass (agx_compile_options.samples),
 * load_tile_sample is load_tile of one sample, and store_tile_sample
 * writes a colour component to one sample, if the pixel still covers it
 * (agx_lower_blend blends sample by sample with them).  load_framebuffer
 * is a component of what the render target at a colour location held
 * when the shader started, of the output's type
 * (framebuffer fetch: a colour output the shader reads starts as it);
 * agx_lower_fetch makes it load_tile where there is a target, and
 * selection never sees it.  load_blend_constant is a component of GL's
 * blend colour.  test_zs runs the fragment's depth and stencil tests now,
 * for the samples still live (agx_lower_tests places it);
 * discard_samples kills the samples of its mask (bit s: sample s), as
 * discard kills them all (agx_lower_coverage makes it).  wait_pix waits
 * until the earlier fragments of the pixel have released the fences of
 * its mask, signal_pix releases them (agx_lower_pixel_order places both;
 * docs/isa.md, "Pixel order").
 * store_xfb writes a 32-bit word of the vertex's transform feedback
 * record in a buffer (agx_lower_xfb makes it, agx_lower_io addresses it).
 *
 * After lowering: frsqrt_special is 1/sqrt(a) with 0 for 0 and infinity
 * for infinity (x * frsqrt_special x = sqrt x); sin of t quarter turns
 * is u * fsin_pt_2 u with u = fsin_pt_1 t; imul_high and umul_high are
 * the high 32 bits of the 64-bit product, signed and unsigned.
 * uniform_reg is uniform register `index` (32-bit units; a 16-bit value
 * is its low half).  The *_global ops address device memory at the
 * 64-bit address in the uniform pair `base`, `base + 1` (low word first)
 * plus the source's index in 32-bit words (items of the value's size
 * for 16-bit values): load_global_const for memory no shader writes
 * (UBOs, uniforms that did not fit the uniform registers), the others
 * for SSBOs.  load_ssbo_size is the size in bytes of the buffer range
 * bound at a storage block binding (what .length() of a runtime-sized
 * array divides); lowering reads it from a uniform register.
 * load_ubo_size is the same of a uniform block binding, for robust
 * buffer access (agx_lower_robust bounds load_ubo by it).  load_attrib is
 * load_input of a vertex shader's attribute from the array's element in
 * its source rather than the vertex's (or instance's) own, and
 * load_attrib_limit the number of elements the array's buffer holds
 * (agx_lower_robust makes both; agx_lower_io places and fetches them).
 *
 * Textures (GLES 3.0 section 3.8): texture_sample filters, texture_load
 * fetches a texel at integer coordinates (texelFetch); each gives one
 * component (`component`, 0..3) of the texel of the texture and sampler
 * in state register `unit` (the sampler var's slot plus the array
 * element).  `dim` is the ISA's textype (0 1d, 1 1d_array, 2 2d, 3
 * 2d_array, 5 3d, 6 cube, 7 cube_array); `lod` its lodmode: 0 the
 * implicit LOD (fragment shaders), 5 that plus a bias, 6 an explicit LOD
 * (texture_load: always, the level), 4 gradients; `compare` (shadow
 * samplers) compares the reference with the texel by the sampler's
 * function first, the result in component 0; `offset` is the texel
 * offset, three 4-bit two's-complement fields (x in bits 0..3), 0 for
 * none.  The sources, in this order: the coordinates (1, 2 or 3 by
 * dim: f32 for texture_sample, i32 for texture_load), the array layer
 * for arrays (i32, already rounded and at least 0), the bias or LOD
 * (f32; texture_load's level i32) or the gradients (dPdx of each
 * coordinate, then dPdy of each, f32), and the reference (f32) with
 * compare.  The destination is f32, or i32 for an integer texture.
 * texture_size is component `component` of textureSize at the level in
 * its source (the layer count of an array is not minified); lowering
 * reads it from uniform registers.  fddx and fddy are the derivatives
 * across a fragment quad (GLSL's dFdx, dFdy).
 */

/* clang-format off */
#define AGX_IR_OPS(X)                                                                       \
	/* float arithmetic */                                                              \
	X(fadd,              F,    2, (F, F),    0, (),          PURE | COMMUTATIVE)        \
	X(fsub,              F,    2, (F, F),    0, (),          PURE | LOWERED)            \
	X(fmul,              F,    2, (F, F),    0, (),          PURE | COMMUTATIVE)        \
	X(ffma,              F,    3, (F, F, F), 0, (),          PURE)                      \
	X(fdiv,              F,    2, (F, F),    0, (),          PURE | LOWERED)            \
	X(fneg,              F,    1, (F),       0, (),          PURE)                      \
	X(fabs,              F,    1, (F),       0, (),          PURE)                      \
	X(fmin,              F,    2, (F, F),    0, (),          PURE)                      \
	X(fmax,              F,    2, (F, F),    0, (),          PURE)                      \
	X(ffloor,            F,    1, (F),       0, (),          PURE)                      \
	X(fceil,             F,    1, (F),       0, (),          PURE)                      \
	X(ftrunc,            F,    1, (F),       0, (),          PURE)                      \
	X(fround_even,       F,    1, (F),       0, (),          PURE)                      \
	X(ffract,            F,    1, (F),       0, (),          PURE | LOWERED)            \
	X(frcp,              F,    1, (F),       0, (),          PURE)                      \
	X(frsqrt,            F,    1, (F),       0, (),          PURE)                      \
	X(fsqrt,             F,    1, (F),       0, (),          PURE | LOWERED)            \
	X(fexp2,             F,    1, (F),       0, (),          PURE)                      \
	X(flog2,             F,    1, (F),       0, (),          PURE)                      \
	X(fsin,              F,    1, (F),       0, (),          PURE | LOWERED)            \
	X(fcos,              F,    1, (F),       0, (),          PURE | LOWERED)            \
	X(fpow,              F,    2, (F, F),    0, (),          PURE | LOWERED)            \
	/* integer arithmetic */                                                            \
	X(iadd,              I,    2, (I, I),    0, (),          PURE | COMMUTATIVE)        \
	X(isub,              I,    2, (I, I),    0, (),          PURE)                      \
	X(imul,              I,    2, (I, I),    0, (),          PURE | COMMUTATIVE)        \
	X(ineg,              I,    1, (I),       0, (),          PURE)                      \
	X(idiv,              I,    2, (I, I),    0, (),          PURE | LOWERED)            \
	X(udiv,              I,    2, (I, I),    0, (),          PURE | LOWERED)            \
	X(irem,              I,    2, (I, I),    0, (),          PURE | LOWERED)            \
	X(umod,              I,    2, (I, I),    0, (),          PURE | LOWERED)            \
	X(iand,              I,    2, (I, I),    0, (),          PURE | COMMUTATIVE)        \
	X(ior,               I,    2, (I, I),    0, (),          PURE | COMMUTATIVE)        \
	X(ixor,              I,    2, (I, I),    0, (),          PURE | COMMUTATIVE)        \
	X(inot,              I,    1, (I),       0, (),          PURE)                      \
	X(ishl,              I,    2, (I, I),    0, (),          PURE)                      \
	X(ishr,              I,    2, (I, I),    0, (),          PURE)                      \
	X(ushr,              I,    2, (I, I),    0, (),          PURE)                      \
	X(imin,              I,    2, (I, I),    0, (),          PURE | COMMUTATIVE)        \
	X(imax,              I,    2, (I, I),    0, (),          PURE | COMMUTATIVE)        \
	X(umin,              I,    2, (I, I),    0, (),          PURE | COMMUTATIVE)        \
	X(umax,              I,    2, (I, I),    0, (),          PURE | COMMUTATIVE)        \
	/* comparisons */                                                                   \
	X(feq,               B,    2, (F, F),    0, (),          PURE | COMMUTATIVE)        \
	X(fne,               B,    2, (F, F),    0, (),          PURE | COMMUTATIVE)        \
	X(flt,               B,    2, (F, F),    0, (),          PURE)                      \
	X(fge,               B,    2, (F, F),    0, (),          PURE)                      \
	X(ieq,               B,    2, (I, I),    0, (),          PURE | COMMUTATIVE)        \
	X(ine,               B,    2, (I, I),    0, (),          PURE | COMMUTATIVE)        \
	X(ilt,               B,    2, (I, I),    0, (),          PURE)                      \
	X(ige,               B,    2, (I, I),    0, (),          PURE)                      \
	X(ult,               B,    2, (I, I),    0, (),          PURE)                      \
	X(uge,               B,    2, (I, I),    0, (),          PURE)                      \
	/* booleans and select */                                                           \
	X(band,              B,    2, (B, B),    0, (),          PURE | COMMUTATIVE)        \
	X(bor,               B,    2, (B, B),    0, (),          PURE | COMMUTATIVE)        \
	X(bxor,              B,    2, (B, B),    0, (),          PURE | COMMUTATIVE)        \
	X(bnot,              B,    1, (B),       0, (),          PURE)                      \
	X(bcsel,             T,    3, (B, T, T), 0, (),          PURE)                      \
	/* conversions and moves */                                                         \
	X(f2i,               IX,   1, (FX),      0, (),          PURE)                      \
	X(f2u,               IX,   1, (FX),      0, (),          PURE)                      \
	X(i2f,               FX,   1, (IX),      0, (),          PURE)                      \
	X(u2f,               FX,   1, (IX),      0, (),          PURE)                      \
	X(f2f16,             F16,  1, (F32),     0, (),          PURE)                      \
	X(f2f32,             F32,  1, (F16),     0, (),          PURE)                      \
	X(i2i16,             I16,  1, (I32),     0, (),          PURE)                      \
	X(i2i32,             I32,  1, (I16),     0, (),          PURE)                      \
	X(u2u32,             I32,  1, (I16),     0, (),          PURE)                      \
	X(b2f,               FX,   1, (B),       0, (),          PURE)                      \
	X(b2i,               IX,   1, (B),       0, (),          PURE)                      \
	X(mov,               T,    1, (T),       0, (),          PURE)                      \
	X(bitcast,           N,    1, (N),       0, (),          PURE)                      \
	/* compute system values */                                                         \
	X(load_global_id,    I32,  0, (),        1, (component), PURE)                      \
	X(load_local_id,     I32,  0, (),        1, (component), PURE)                      \
	X(load_workgroup_id, I32,  0, (),        1, (component), PURE)                      \
	/* memory: uniforms and UBOs do not change while a shader runs, SSBOs do */         \
	X(load_uniform,      V,    0, (),        1, (offset),    PURE)                      \
	X(load_ubo,          V,    1, (I32),     1, (binding),   PURE)                      \
	X(load_ssbo,         V,    1, (I32),     1, (binding),   0)                         \
	X(store_ssbo,        NONE, 2, (V, I32),  1, (binding),   SIDE_EFFECTS)              \
	X(load_ssbo_size,    I32,  0, (),        1, (binding),   PURE)                      \
	X(load_ubo_size,     I32,  0, (),        1, (binding),   PURE)                      \
	/* compute: more system values, threadgroup memory, barriers */                    \
	X(load_local_index,  I32,  0, (),        0, (),          PURE)                      \
	X(load_num_workgroups, I32, 0, (),       1, (component), PURE)                      \
	X(load_shared,       V,    1, (I32),     0, (),          0)                         \
	X(store_shared,      NONE, 2, (V, I32),  0, (),          SIDE_EFFECTS)              \
	X(barrier,           NONE, 0, (),        0, (),          SIDE_EFFECTS)              \
	/* atomics (32-bit): op is the ISA's atomic_op number; the old value */            \
	X(atomic_ssbo,       I32,  2, (I32, I32), 2, (binding, op), SIDE_EFFECTS)           \
	X(cmpxchg_ssbo,      I32,  3, (I32, I32, I32), 1, (binding), SIDE_EFFECTS)          \
	X(atomic_shared,     I32,  2, (I32, I32), 1, (op),       SIDE_EFFECTS)              \
	X(cmpxchg_shared,    I32,  3, (I32, I32, I32), 0, (),    SIDE_EFFECTS)              \
	/* graphics I/O: a location and a component of the interface (agx_ir_var) */       \
	X(load_input,        V,    0, (),        2, (location, component), PURE)            \
	X(load_attrib,       V,    1, (I32),     2, (location, component), PURE)            \
	X(load_attrib_limit, I32,  0, (),        1, (location),  PURE)                      \
	X(store_output,      NONE, 1, (V),       2, (location, component), SIDE_EFFECTS)    \
	X(store_xfb,         NONE, 1, (V),       2, (buffer, word), SIDE_EFFECTS)           \
	X(load_frag_coord,   F32,  0, (),        1, (component), PURE)                      \
	X(load_front_facing, B,    0, (),        0, (),          PURE)                      \
	X(load_vertex_id,    I32,  0, (),        0, (),          PURE)                      \
	X(load_instance_id,  I32,  0, (),        0, (),          PURE)                      \
	X(discard,           NONE, 0, (),        0, (),          SIDE_EFFECTS)              \
	X(test_zs,           NONE, 0, (),        0, (),          SIDE_EFFECTS)              \
	X(discard_samples,   NONE, 1, (I16),     0, (),          SIDE_EFFECTS)              \
	X(load_tile,         V,    0, (),        2, (location, component), 0)               \
	X(load_tile_sample,  V,    0, (),        3, (location, component, sample), 0)       \
	X(store_tile_sample, NONE, 1, (V),       3, (location, component, sample), SIDE_EFFECTS) \
	X(wait_pix,          NONE, 0, (),        1, (mask),      SIDE_EFFECTS)              \
	X(signal_pix,        NONE, 0, (),        1, (mask),      SIDE_EFFECTS)              \
	X(load_framebuffer,  V,    0, (),        2, (location, component), PURE)            \
	X(load_blend_constant, F32, 0, (),       1, (component), PURE)                      \
	X(fddx,              F,    1, (F),       0, (),          PURE)                      \
	X(fddy,              F,    1, (F),       0, (),          PURE)                      \
	/* textures: sources laid out by the indices (agx_ir_tex_layout()) */             \
	X(texture_sample,    V,    0, (),        6, (unit, dim, lod, compare, offset, component), PURE | VARIADIC | TEXTURE) \
	X(texture_load,      V,    0, (),        6, (unit, dim, lod, compare, offset, component), PURE | VARIADIC | TEXTURE) \
	X(texture_size,      I32,  1, (I32),     3, (unit, dim, component), PURE | LOWERED) \
	/* what lowering leaves for selection (agx_lower_alu.c, agx_lower_io.c) */          \
	X(frsqrt_special,    F,    1, (F),       0, (),          PURE)                      \
	X(fsin_pt_1,         F,    1, (F),       0, (),          PURE)                      \
	X(fsin_pt_2,         F,    1, (F),       0, (),          PURE)                      \
	X(imul_high,         I32,  2, (I32, I32), 0, (),         PURE | COMMUTATIVE)        \
	X(umul_high,         I32,  2, (I32, I32), 0, (),         PURE | COMMUTATIVE)        \
	X(uniform_reg,       V,    0, (),        1, (index),     PURE)                      \
	X(load_global_const, V,    1, (I32),     1, (base),      PURE)                      \
	X(load_global,       V,    1, (I32),     1, (base),      0)                         \
	X(store_global,      NONE, 2, (V, I32),  1, (base),      SIDE_EFFECTS)              \
	X(atomic_global,     I32,  2, (I32, I32), 2, (base, op), SIDE_EFFECTS)              \
	X(cmpxchg_global,    I32,  3, (I32, I32, I32), 1, (base), SIDE_EFFECTS)             \
	/* SSA and control flow */                                                          \
	X(phi,               ANY,  0, (),        0, (),          VARIADIC)                  \
	X(undef,             ANY,  0, (),        0, (),          PURE)                      \
	X(break,             NONE, 0, (),        0, (),          TERMINATOR)                \
	X(continue,          NONE, 0, (),        0, (),          TERMINATOR)
/* clang-format on */

/* A row's (srcs) as enum agx_ir_class initializers. */
#define AGX_IR_CLASSES_0()
#define AGX_IR_CLASSES_1(a)	  AGX_IR_CLASS_##a
#define AGX_IR_CLASSES_2(a, b)	  AGX_IR_CLASS_##a, AGX_IR_CLASS_##b
#define AGX_IR_CLASSES_3(a, b, c) AGX_IR_CLASS_##a, AGX_IR_CLASS_##b, AGX_IR_CLASS_##c

/* A row's (imms) as strings. */
#define AGX_IR_NAMES_0()
#define AGX_IR_NAMES_1(a)		 #a
#define AGX_IR_NAMES_2(a, b)		 #a, #b
#define AGX_IR_NAMES_3(a, b, c)		 #a, #b, #c
#define AGX_IR_NAMES_6(a, b, c, d, e, f) #a, #b, #c, #d, #e, #f

#endif
