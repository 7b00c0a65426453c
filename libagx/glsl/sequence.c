/*
 * sequence.c: rule 22, the sequence operator in GLSL ES 1.00 constant
 * expressions, on the preprocessed code before glslang parses it.
 *
 * GLSL ES 3.00 excludes the sequence operator from constant expressions;
 * 1.00 does not, so "uniform float a[(1, 2)];" and "const float f =
 * (1.0, 2.0);" are valid 1.00.  glslang never folds a sequence to a
 * constant, in any version.  Where the expression must be constant, each
 * parenthesized sequence "(a, b, ..., z)" becomes
 *
 *	((a)==(a) && (b)==(b) && ... ? (z) : (z))
 *
 * which glslang folds to z's value when, and only when, every operand is
 * a constant expression: a constant has no side effects, so evaluating it
 * twice or not at all changes nothing, and a shader whose left operands
 * are not constant stays invalid.  (== takes every type a 1.00 constant
 * can have: 1.00 has no constant arrays.)  The second copy of an operand
 * has its newlines made blanks, so every line keeps its number.
 *
 * The expressions that must be constant: everything outside function
 * bodies (array sizes, initializers of const and plain globals, which
 * 1.00 requires to be constant; parameter array sizes; struct member array
 * sizes), and inside them the initializers of const declarations and
 * the sizes of arrays declared "TYPE NAME[SIZE]".
 * Parentheses after an identifier are a call's or a constructor's, never
 * a sequence's.  A shader that enables
 * GL_EXT_shader_non_constant_global_initializers is left as it is: its
 * plain globals' initializers need not be constant, and glslang takes a
 * sequence there already.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "glsl/lower.h"

#define NON_CONSTANT_EXTENSION "GL_EXT_shader_non_constant_global_initializers"

struct rewrite {
	const struct agx_glsl_tokens *tokens;
	struct agx_glsl_text out;
	bool changed;
};

static bool blank(const struct agx_glsl_token *t)
{
	return t->kind == AGX_GLSL_TOKEN_SPACE || t->kind == AGX_GLSL_TOKEN_NEWLINE ||
	       t->kind == AGX_GLSL_TOKEN_COMMENT;
}

static bool opens(const struct agx_glsl_token *t)
{
	return agx_glsl_token_is(t, "(") || agx_glsl_token_is(t, "[") || agx_glsl_token_is(t, "{");
}

static bool closes(const struct agx_glsl_token *t)
{
	return agx_glsl_token_is(t, ")") || agx_glsl_token_is(t, "]") || agx_glsl_token_is(t, "}");
}

/* The last token before i that is not blank, or SIZE_MAX. */
static size_t prev_solid(const struct agx_glsl_tokens *t, size_t i)
{
	while (i-- > 0) {
		if (!blank(&t->v[i]) && t->v[i].kind != AGX_GLSL_TOKEN_DIRECTIVE)
			return i;
	}
	return SIZE_MAX;
}

/* The token that closes the group opened at open, or count when none does. */
static size_t group_end(const struct agx_glsl_tokens *t, size_t open)
{
	unsigned depth = 0;

	for (size_t i = open; i < t->count; i++) {
		if (opens(&t->v[i]))
			depth++;
		else if (closes(&t->v[i]) && --depth == 0)
			return i;
	}
	return t->count;
}

/* Whether the "(" at i groups an expression: not a call's, a constructor's or a declarator's. */
static bool grouping(const struct agx_glsl_tokens *t, size_t i)
{
	size_t p = prev_solid(t, i);

	if (p == SIZE_MAX)
		return true;
	return t->v[p].kind != AGX_GLSL_TOKEN_IDENT && !agx_glsl_token_is(&t->v[p], ")") &&
	       !agx_glsl_token_is(&t->v[p], "]");
}

static void emit_range(struct rewrite *r, size_t from, size_t to, bool flat);

/* The operands of the group open..close (its top-level commas), or 0 when it has no comma. */
static size_t split_operands(const struct agx_glsl_tokens *t, size_t open, size_t close,
			     size_t *commas, size_t max)
{
	unsigned depth = 0;
	size_t n = 0;

	for (size_t i = open + 1; i < close; i++) {
		if (opens(&t->v[i]))
			depth++;
		else if (closes(&t->v[i]))
			depth--;
		else if (!depth && agx_glsl_token_is(&t->v[i], ",")) {
			if (n == max)
				return SIZE_MAX;
			commas[n++] = i;
		}
	}
	return n;
}

/*
 * The group open..close, a sequence: each operand but the last compared
 * with itself, the last chosen either way.  Operands are ranges of
 * tokens between the commas, blanks included.
 */
static bool emit_sequence(struct rewrite *r, size_t open, size_t close, bool flat)
{
	size_t stack[16], *commas = stack, n;

	n = split_operands(r->tokens, open, close, stack, 16);
	if (n == SIZE_MAX) {
		size_t max = close - open;

		commas = malloc(max * sizeof(*commas));
		if (!commas) {
			r->out.failed = true;
			return true;
		}
		n = split_operands(r->tokens, open, close, commas, max);
	}
	if (!n) {
		if (commas != stack)
			free(commas);
		return false;
	}
	agx_glsl_text_puts(&r->out, "(");
	for (size_t k = 0; k < n; k++) {
		size_t from = k ? commas[k - 1] + 1 : open + 1;

		agx_glsl_text_puts(&r->out, k ? "&&(" : "(");
		emit_range(r, from, commas[k], flat);
		agx_glsl_text_puts(&r->out, ")==(");
		emit_range(r, from, commas[k], true);
		agx_glsl_text_puts(&r->out, ")");
	}
	agx_glsl_text_puts(&r->out, "?(");
	emit_range(r, commas[n - 1] + 1, close, flat);
	agx_glsl_text_puts(&r->out, "):(");
	emit_range(r, commas[n - 1] + 1, close, true);
	agx_glsl_text_puts(&r->out, "))");
	r->changed = true;
	if (commas != stack)
		free(commas);
	return true;
}

/*
 * Tokens from..to (not to) of a constant expression, its sequences
 * rewritten; flat: a second copy, newlines as blanks and no directives.
 */
static void emit_range(struct rewrite *r, size_t from, size_t to, bool flat)
{
	const struct agx_glsl_tokens *t = r->tokens;

	for (size_t i = from; i < to; i++) {
		const struct agx_glsl_token *v = &t->v[i];

		if (agx_glsl_token_is(v, "(") && grouping(t, i)) {
			size_t close = group_end(t, i);

			if (close < to && emit_sequence(r, i, close, flat)) {
				i = close;
				continue;
			}
		}
		if (flat &&
		    (v->kind == AGX_GLSL_TOKEN_NEWLINE || v->kind == AGX_GLSL_TOKEN_DIRECTIVE))
			agx_glsl_text_puts(&r->out, " ");
		else
			agx_glsl_text_add(&r->out, v->text, v->length);
	}
}

/*
 * Whether the "[" at i follows "TYPE NAME", a local array's size: two words
 * in a row are a declaration's, as no expression has them, but for the
 * statement words that an expression may follow.
 */
static bool declarator(const struct agx_glsl_tokens *t, size_t i)
{
	size_t name = prev_solid(t, i), type = name != SIZE_MAX ? prev_solid(t, name) : SIZE_MAX;

	return type != SIZE_MAX && t->v[name].kind == AGX_GLSL_TOKEN_IDENT &&
	       t->v[type].kind == AGX_GLSL_TOKEN_IDENT &&
	       !agx_glsl_token_is(&t->v[type], "return") &&
	       !agx_glsl_token_is(&t->v[type], "else") && !agx_glsl_token_is(&t->v[type], "do");
}

/* The ";" that ends the statement from i on (at its own nesting), or count. */
static size_t statement_end(const struct agx_glsl_tokens *t, size_t i)
{
	unsigned depth = 0;

	for (; i < t->count; i++) {
		if (opens(&t->v[i]))
			depth++;
		else if (closes(&t->v[i])) {
			if (!depth)
				return i;
			depth--;
		} else if (!depth && agx_glsl_token_is(&t->v[i], ";"))
			return i;
	}
	return t->count;
}

static bool non_constant_initializers(const struct agx_glsl_tokens *t)
{
	for (size_t i = 0; i < t->count; i++) {
		const char *behavior;
		size_t length;
		bool rest;

		if (t->v[i].kind == AGX_GLSL_TOKEN_DIRECTIVE &&
		    agx_glsl_extension_line(&t->v[i], NON_CONSTANT_EXTENSION, &behavior, &length,
					    &rest) &&
		    !agx_glsl_word_is(behavior, length, "disable"))
			return true;
	}
	return false;
}

/*
 * Walks the shader: outside function bodies every token is in a constant
 * expression's context; inside one, a statement that starts with const.
 * A body is the "{" after a ")" at global scope, to its "}".
 */
static void rewrite_tokens(struct rewrite *r)
{
	const struct agx_glsl_tokens *t = r->tokens;
	unsigned depth = 0, body = 0; /* body: the depth inside a function body, 0 outside */

	for (size_t i = 0; i < t->count; i++) {
		const struct agx_glsl_token *v = &t->v[i];
		size_t p;

		if (!body) {
			if (agx_glsl_token_is(v, "{")) {
				p = prev_solid(t, i);
				depth++;
				if (p != SIZE_MAX && agx_glsl_token_is(&t->v[p], ")"))
					body = depth;
				agx_glsl_text_add(&r->out, v->text, v->length);
				continue;
			}
			if (agx_glsl_token_is(v, "}"))
				depth -= depth > 0;
			if (agx_glsl_token_is(v, "(") && grouping(t, i)) {
				size_t close = group_end(t, i);

				if (close < t->count && emit_sequence(r, i, close, false)) {
					i = close;
					continue;
				}
			}
			agx_glsl_text_add(&r->out, v->text, v->length);
			continue;
		}
		if (agx_glsl_token_is(v, "{")) {
			depth++;
		} else if (agx_glsl_token_is(v, "}")) {
			if (depth-- == body)
				body = 0;
		} else if (agx_glsl_token_is(v, "[") && declarator(t, i)) {
			size_t close = group_end(t, i);

			if (close < t->count) {
				emit_range(r, i, close + 1, false);
				i = close;
				continue;
			}
		} else if (agx_glsl_token_is(v, "const")) {
			p = prev_solid(t, i);
			if (p != SIZE_MAX &&
			    (agx_glsl_token_is(&t->v[p], ";") || agx_glsl_token_is(&t->v[p], "{") ||
			     agx_glsl_token_is(&t->v[p], "}"))) {
				size_t end = statement_end(t, i);

				emit_range(r, i, end, false);
				i = end - 1;
				continue;
			}
		}
		agx_glsl_text_add(&r->out, v->text, v->length);
	}
}

int agx_glsl_constant_sequences(int version, char **code)
{
	struct agx_glsl_tokens tokens;
	struct rewrite r = { .tokens = &tokens };
	int ret;

	if (version != 100 || !strchr(*code, ','))
		return 0;
	ret = agx_glsl_tokenize(*code, strlen(*code), &tokens);
	if (ret)
		return ret;
	if (!non_constant_initializers(&tokens))
		rewrite_tokens(&r);
	agx_glsl_tokens_finish(&tokens);
	if (r.out.failed) {
		free(r.out.v);
		return -ENOMEM;
	}
	if (!r.changed) {
		free(r.out.v);
		return 0;
	}
	free(*code);
	*code = r.out.v;
	return 1;
}
