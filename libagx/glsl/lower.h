/*
 * lower.h: the front end's own pieces, apart from glslang so that they can
 * be tested without it: the tokenizer of (preprocessed) GLSL ES, the
 * lowering of 1.00 and 3.00 shaders to 3.10 (lower.c), the identifiers
 * glslang refuses in 3.10 (reserved.c), and the checks made on a source
 * before glslang reads it (source.c).  docs/compiler.md, "Front end",
 * lists every rule.
 */
#ifndef AGX_GLSL_LOWER_H
#define AGX_GLSL_LOWER_H

#include <stdbool.h>
#include <stddef.h>

#include "agx/glsl.h"

/*
 * The values of the built-in constants that depend on the implementation
 * (GLSL ES 1.00 section 7.4, 3.00 section 7.3): the OpenGL ES 3.0 minimums,
 * except for eight draw buffers.  glsl.c gives them to glslang; lower.c
 * writes gl_MaxVaryingVectors, which 3.10 no longer has, as a number.
 */
#define AGX_GLSL_MAX_VERTEX_ATTRIBS	      16
#define AGX_GLSL_MAX_VERTEX_UNIFORM_VECTORS   256
#define AGX_GLSL_MAX_VARYING_VECTORS	      15
#define AGX_GLSL_MAX_VERTEX_OUTPUT_VECTORS    16
#define AGX_GLSL_MAX_FRAGMENT_INPUT_VECTORS   15
#define AGX_GLSL_MAX_VERTEX_TEXTURE_UNITS     16
#define AGX_GLSL_MAX_COMBINED_TEXTURE_UNITS   32
#define AGX_GLSL_MAX_TEXTURE_UNITS	      16
#define AGX_GLSL_MAX_FRAGMENT_UNIFORM_VECTORS 224
#define AGX_GLSL_MAX_DRAW_BUFFERS	      8
#define AGX_GLSL_MIN_TEXEL_OFFSET	      (-8)
#define AGX_GLSL_MAX_TEXEL_OFFSET	      7
/* GL_APPLE_clip_distance's gl_MaxClipDistances (extensions.c) */
#define AGX_GLSL_MAX_CLIP_DISTANCES 8

/* Tokens: every byte of the text belongs to exactly one. */
enum agx_glsl_token_kind {
	AGX_GLSL_TOKEN_SPACE,	  /* blanks, tabs, carriage returns: never a newline */
	AGX_GLSL_TOKEN_NEWLINE,	  /* one '\n' */
	AGX_GLSL_TOKEN_COMMENT,	  /* a // or block comment (preprocessed code has none) */
	AGX_GLSL_TOKEN_DIRECTIVE, /* '#' first on its line, to the end of the line */
	AGX_GLSL_TOKEN_IDENT,
	AGX_GLSL_TOKEN_NUMBER, /* a preprocessing number: 1, 0x1F, 1.5e-3, .5, 2u */
	AGX_GLSL_TOKEN_PUNCT,  /* an operator or punctuator, longest match */
	AGX_GLSL_TOKEN_OTHER,  /* one byte GLSL has no use for */
};

struct agx_glsl_token {
	enum agx_glsl_token_kind kind;
	const char *text; /* into the tokenized buffer */
	size_t length;
	unsigned line; /* 1-based, as #line directives set it */
};

struct agx_glsl_tokens {
	struct agx_glsl_token *v;
	size_t count;
};

/* Splits text into tokens; -ENOMEM is the only error. */
int agx_glsl_tokenize(const char *text, size_t length, struct agx_glsl_tokens *out);
void agx_glsl_tokens_finish(struct agx_glsl_tokens *t);

/* A number token's value (strtol of its own bytes, base from its prefix). */
long agx_glsl_token_number(const struct agx_glsl_token *t);

/* Whether a token is exactly the identifier or punctuator s. */
bool agx_glsl_token_is(const struct agx_glsl_token *t, const char *s);

/*
 * The lowering of a preprocessed 1.00 or 3.00 vertex or fragment shader to
 * an equivalent 3.10 one.  The input is what glslang's preprocessor wrote
 * for a shader it accepted; anything else is lowered as far as the rules
 * go and never read out of bounds.
 */
struct agx_glsl_lowered {
	char *source; /* NUL-terminated 3.10 text */
	size_t length;
	struct agx_glsl_rename *renames;
	unsigned num_renames;
	bool invariant_all; /* #pragma STDGL invariant(all) */
	char *error;	    /* why the lowering refused, as a glslang-style log line */
	/* rule 16: the outputs given placeholder locations (the shader's names) */
	char **placed;
	unsigned num_placed;
};

/*
 * EXT_shader_framebuffer_fetch (and _non_coherent), as fetch.c found it in
 * the text before glslang read it (rules 17 to 20).
 */
struct agx_glsl_fetch {
	bool coherent, non_coherent; /* enabled by the shader's #extension lines */
	/* 3.00 fragment shaders: the outputs declared inout (now out), by name */
	char **inout;
	unsigned num_inout;
	/* 1.00 fragment shaders: the uniform that stands for gl_LastFragData, or NULL */
	char *last_frag_data;
};

/*
 * Rewrites *code (malloc'd, NUL-terminated; replaced by a new one) for
 * glslang's check, and says in f what it did.  0; -EINVAL with *error (a
 * glslang-style log line) for what the extensions forbid and glslang
 * would not see; -ENOMEM.  Free f with agx_glsl_fetch_finish either way.
 */
int agx_glsl_fetch_prepare(enum agx_glsl_stage stage, int version, char **code,
			   struct agx_glsl_fetch *f, char **error);
void agx_glsl_fetch_finish(struct agx_glsl_fetch *f);

/*
 * 0, or -EINVAL when the shader breaks a rule of its version that glslang
 * does not check (error says which), -ENOTSUP for a version the lowering
 * does not take, -ENOMEM.  fetch (NULL: none) is what fetch.c did to the
 * text glslang preprocessed.
 */
int agx_glsl_lower(enum agx_glsl_stage stage, int version, const char *text, size_t length,
		   const struct agx_glsl_fetch *fetch, struct agx_glsl_lowered *out);
void agx_glsl_lowered_finish(struct agx_glsl_lowered *l);

/*
 * Rule 22 (sequence.c): in preprocessed 1.00 code, each parenthesized
 * sequence where the expression must be constant made one that glslang
 * folds, for glslang's parse and the lowering.  1 when *code (malloc'd,
 * NUL-terminated) was replaced, 0 when it stays, -ENOMEM.
 */
int agx_glsl_constant_sequences(int version, char **code);

/* Reserved-word table (reserved.c): which versions must rename a user identifier. */
#define AGX_GLSL_RENAME_IN_100 (1u << 0)
#define AGX_GLSL_RENAME_IN_300 (1u << 1)

struct agx_glsl_reserved {
	const char *name;
	unsigned versions; /* AGX_GLSL_RENAME_IN_* */
};

extern const struct agx_glsl_reserved agx_glsl_reserved[];
extern const unsigned agx_glsl_num_reserved;

/* An identifier's index in the table, or -1, by binary search. */
int agx_glsl_reserved_find(const char *name, size_t length);

/*
 * Checks on a source before glslang reads it (source.c).  Limits that keep
 * glslang's recursion within the compile thread's stack: docs/compiler.md.
 */
#define AGX_GLSL_MAX_SOURCE	      (1u << 20) /* bytes */
#define AGX_GLSL_MAX_NESTING	      256	 /* (, [ and { together */
#define AGX_GLSL_MAX_IF_TOKENS	      1024	 /* in one #if or #elif, expanded */
#define AGX_GLSL_MAX_STATEMENT_TOKENS 65536	 /* after preprocessing */
#define AGX_GLSL_MAX_EXPANDED_TOKENS  (1u << 20) /* the whole shader, macros expanded */

/*
 * The version the source declares: 100 when it has no #version line, 0
 * when the line is not "#version NUMBER" with an optional profile word.
 * profile gets that word ("es", "core", ...), or "".
 */
int agx_glsl_source_version(const char *source, size_t length, char *profile, size_t profile_size);

/*
 * The source, NUL-terminated, with a #version line that follows comments
 * or blank lines moved to the very start, and a #line directive that keeps
 * the numbers of the lines after it: GLSL ES allows comments and white
 * space before #version (the piglit tests start with theirs), glslang's
 * ES profile does not.  NULL when out of memory.
 */
char *agx_glsl_source_version_first(const char *source, size_t length);

/*
 * The source with "defined __VERSION__" (or "defined(__VERSION__)"), and
 * the same of __LINE__ and __FILE__, in #if and #elif lines made "1":
 * GLSL ES defines those macros (1.00 and 3.00 section 3.4), and glslang's
 * preprocessor has them as tokens only, so its "defined" says 0.  In
 * place, the line's length kept.
 */
void agx_glsl_source_defined_builtins(char *code);

/*
 * Whether the raw source stays inside the limits and asks for nothing
 * glslang must not do (read files: #include).  On false, error gets a
 * glslang-style log line (malloc'd).
 */
bool agx_glsl_source_check(const char *source, size_t length, char **error);

/*
 * Whether the shader's macros, expanded, stay inside the limits
 * (expansion.c); source is the tokenized source without continuations.
 */
bool agx_glsl_expansion_check(const struct agx_glsl_tokens *source, char **error);

/* Whether preprocessed code has no statement longer than the limit. */
bool agx_glsl_preprocessed_check(const char *code, size_t length, char **error);

/*
 * The extensions the front end implements itself (extensions.c): their
 * macros in a shader of the version, for glslang's preamble, and the
 * rewriting of a source's text (the NUL-terminated *code, replaced when
 * it changes) before glslang reads it.  -ENOMEM is the only error.
 */
const char *agx_glsl_extension_macros(int version);

/*
 * A directive's words (extensions.c, for it and fetch.c): the word at *p
 * (up to end) after blanks and line continuations, *p moved to it, and
 * its length (a character that is no identifier's is a word of one).
 */
size_t agx_glsl_directive_word(const char **p, const char *end);
bool agx_glsl_word_is(const char *p, size_t n, const char *s);
/*
 * Whether directive t is "#extension NAME :" of extension name; then
 * *behavior and *length are the word after the colon, *rest whether
 * anything follows it.
 */
bool agx_glsl_extension_line(const struct agx_glsl_token *t, const char *name,
			     const char **behavior, size_t *length, bool *rest);
int agx_glsl_source_extensions(enum agx_glsl_stage stage, int version, char **code);

/*
 * EXT_clip_cull_distance's implicitly sized arrays: extensions.c declares
 * them with this constant's elements (the largest size); distances.c
 * sizes them in the preprocessed code *code (malloc'd, NUL-terminated,
 * replaced when it changes) from the constant indices the shader uses.
 * 0; -EINVAL with *error (a glslang-style log line) where the extension
 * wants a redeclaration or the sizes pass gl_MaxCombinedClipAndCullDistances;
 * -ENOMEM.
 */
#define AGX_GLSL_IMPLICIT_DISTANCES "agx_ImplicitDistances"
int agx_glsl_size_distances(char **code, char **error);

/* A growing NUL-terminated text; failed once an allocation failed (v then is what it had). */
struct agx_glsl_text {
	char *v;
	size_t length, cap;
	bool failed;
};

void agx_glsl_text_add(struct agx_glsl_text *b, const char *s, size_t n);
void agx_glsl_text_puts(struct agx_glsl_text *b, const char *s);

/* A malloc'd printf; NULL when out of memory. */
char *agx_glsl_format(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
