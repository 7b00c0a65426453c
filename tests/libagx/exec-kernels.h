/*
 * exec-kernels.h: the execution tests' corpus -- GLSL ES compute kernels,
 * each with its inputs and the output a CPU reference expects, within
 * the GLSL ES 3.00 precision rules (docs/compiler.md, "Execution tests").
 *
 * A kernel is a name and a way to make its case: the GLSL source, the
 * grid, the buffers (binding, contents), the default-block uniforms by
 * name, and for every 32-bit word of the checked buffer what it must hold
 * after the run.  test-exec runs a case through the IR interpreter or the
 * compiler and the simulated USC and checks it here.
 */
#ifndef TESTS_LIBAGX_EXEC_KERNELS_H
#define TESTS_LIBAGX_EXEC_KERNELS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "tex-model.h"

#define EXEC_MAX_BUFFERS  4
#define EXEC_MAX_UNIFORMS 8
#define EXEC_MAX_VIEWS	  4
#define EXEC_MAX_TEXTURES 4

/* Device addresses of a case's textures' memory (the buffers' are test-exec's, below them). */
#define EXEC_TEXTURE_ADDRESS(i) (0x4000000000ull + (uint64_t)(i)*0x100000000ull)

struct exec_buffer {
	unsigned binding;
	bool ubo; /* a uniform block (else a storage block) */
	size_t size;
	uint8_t *data;
};

/* A default-block uniform, by its name in the source: its 32-bit components. */
struct exec_uniform {
	char name[32];
	unsigned components;
	uint32_t value[16];
};

/*
 * A texture bound to a sampler uniform, by the uniform's name in the
 * source (an array of samplers: one per element), with its sampler
 * state: what test-exec puts at the var's texture and sampler state
 * index (its slot plus the element) on every path.
 */
struct exec_texture {
	char name[32];
	unsigned element;
	struct tex_texture texture;
	struct tex_sampler sampler;
};

enum exec_expect_kind {
	EXEC_ANY,   /* unconstrained: the rules allow any value (NaN, a rounding choice) */
	EXEC_EXACT, /* these bits (or alt_bits, when has_alt: the inputs' denormals flushed) */
	EXEC_FLOAT, /* a float within tol of value, or of alt (inputs' denormals flushed) */
	EXEC_HALF2, /* two f16 halves, each the nearest-even rounding (bits) or toward zero
		       (alt_bits) */
};

struct exec_expect {
	enum exec_expect_kind kind;
	uint32_t bits, alt_bits;
	double value, tol;
	double alt, alt_tol;
	bool has_alt;
	/* Below this magnitude a result may be flushed to zero (GLSL ES 3.00 section 4.5.1). */
	double flush;
};

/* Words of one operand of invocation i in a buffer: offset + i * stride, `words` of them. */
struct exec_view {
	const char *name;
	unsigned buffer;
	unsigned offset, stride, words;
	char type; /* 'f', 'i', 'u': how to print them */
};

struct exec_case;

struct exec_kernel {
	const char *name;
	/* Fills the case (exec_case_init done); 0, or -ENOMEM. */
	int (*make)(const struct exec_kernel *k, struct exec_case *c);
	const void *param;
	unsigned variant;
};

struct exec_case {
	const struct exec_kernel *kernel;
	char *source;
	unsigned local[3], groups[3];
	struct exec_buffer buffers[EXEC_MAX_BUFFERS];
	unsigned num_buffers;
	struct exec_uniform uniforms[EXEC_MAX_UNIFORMS];
	unsigned num_uniforms;
	struct exec_texture textures[EXEC_MAX_TEXTURES];
	unsigned num_textures;
	/* The checked buffer, and what each of its 32-bit words must be. */
	unsigned check_buffer;
	struct exec_expect *expect;
	unsigned num_expect;
	/* How to name a checked word's invocation (out) and print its inputs (in). */
	struct exec_view out;
	struct exec_view in[EXEC_MAX_VIEWS];
	unsigned num_in;
	/* A check of its own instead of the words' (e.g. an order the rules leave open). */
	unsigned (*check)(const struct exec_case *c, const uint8_t *got, FILE *report,
			  unsigned max_reports);
	void *priv;
};

/* The corpus, built on the first call; names are unique. */
unsigned exec_kernel_count(void);
const struct exec_kernel *exec_kernel_get(unsigned i);
const struct exec_kernel *exec_kernel_find(const char *name);

/* Makes kernel k's case; 0, -ENOMEM.  Free it with exec_case_finish whatever the result. */
int exec_case_make(const struct exec_kernel *k, struct exec_case *c);
void exec_case_finish(struct exec_case *c);

/*
 * Compares got (the final contents of the checked buffer) with the case's
 * expectations; returns how many words are wrong, reporting the first
 * max_reports of them to report (the invocation, its inputs, expected
 * and got).  `checked` (if not NULL) gets how many words were constrained.
 */
unsigned exec_case_check(const struct exec_case *c, const uint8_t *got, FILE *report,
			 unsigned max_reports, unsigned *checked);

/* The case's texture for element `element` of the sampler uniform `name`, or NULL. */
const struct exec_texture *exec_case_find_texture(const struct exec_case *c, const char *name,
						  unsigned element);

/* Whether got satisfies x (the rules above). */
bool exec_expect_ok(const struct exec_expect *x, uint32_t got);

#endif
