/*
 * spirv-sample.h: a small compute module written out word by word, for
 * test-spirv and the seeds of fuzz-spirv: an entry point, its local size,
 * a name, a decoration, and a function that returns.
 */
#ifndef TESTS_SPIRV_SAMPLE_H
#define TESTS_SPIRV_SAMPLE_H

#include <stdint.h>

#define OP(words, opcode) ((uint32_t)(words) << 16 | (opcode))
#define WORD_MAIN	  0x6e69616du /* "main", little-endian */

static const uint32_t spirv_sample[] = {
	0x07230203, 0x00010000, 0, 6, 0,	  /* magic, 1.0, generator, bound, schema */
	OP(2, 17), 1,				  /* OpCapability Shader */
	OP(3, 14), 0, 1,			  /* OpMemoryModel Logical GLSL450 */
	OP(5, 15), 5, 1, WORD_MAIN, 0,		  /* OpEntryPoint GLCompute %1 "main" */
	OP(6, 16), 1, 17, 8, 4, 1,		  /* OpExecutionMode %1 LocalSize 8 4 1 */
	OP(4, 5), 1, WORD_MAIN, 0,		  /* OpName %1 "main" */
	OP(4, 71), 2, 33, 3,			  /* OpDecorate %2 Binding 3 */
	OP(2, 19), 3,				  /* %3 = OpTypeVoid */
	OP(3, 33), 4, 3,			  /* %4 = OpTypeFunction %3 */
	OP(5, 54), 3, 1, 0, 4,			  /* %1 = OpFunction %3 None %4 */
	OP(2, 248), 5,				  /* %5 = OpLabel */
	OP(1, 253),				  /* OpReturn */
	OP(1, 56),				  /* OpFunctionEnd */
};

#define SPIRV_SAMPLE_WORDS (sizeof(spirv_sample) / sizeof(spirv_sample[0]))
#define SPIRV_SAMPLE_INSTS 12

#endif
