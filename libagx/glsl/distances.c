/*
 * distances.c: the sizes of EXT_clip_cull_distance's implicitly sized
 * gl_ClipDistance and gl_CullDistance (extensions.c declared them as
 * agx_ClipDistance and agx_CullDistance of AGX_GLSL_IMPLICIT_DISTANCES
 * elements).  The extension (and GLSL ES 3.20 section 7.1, which it
 * follows) sizes such an array by a redeclaration, or by "indexing it
 * only with integral constant expressions": then it has the largest
 * index used, plus one, elements.  The size matters: a vertex shader's
 * cull distances all cull (agx_lower_cull.c), written or not.
 *
 * Runs on the preprocessed code, where macros are expanded: an index is a
 * number, or a name declared "const int NAME = NUMBER".  Anything else
 * (another expression, the array used whole) wants a redeclaration, and
 * is an error without one, as the extension says; so is a shader whose
 * arrays hold more than gl_MaxCombinedClipAndCullDistances together.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "glsl/lower.h"

#define MAX_DISTANCES 8 /* gl_MaxCombinedClipAndCullDistances (extensions.c) */

struct array {
	const char *name, *builtin;
	long marker;  /* token of the marker in our declaration, or -1 */
	long size;    /* the implicit size, or the redeclared one */
	long unknown; /* token of a use that sizes nothing (-1: none) */
};

static bool is_space(const struct agx_glsl_token *t)
{
	return t->kind == AGX_GLSL_TOKEN_SPACE || t->kind == AGX_GLSL_TOKEN_NEWLINE ||
	       t->kind == AGX_GLSL_TOKEN_COMMENT;
}

/* The first token at or after k that is no space, or tokens->count. */
static size_t next(const struct agx_glsl_tokens *tokens, size_t k)
{
	while (k < tokens->count && is_space(&tokens->v[k]))
		k++;
	return k;
}

/* The token before k that is no space, or -1. */
static long prev(const struct agx_glsl_tokens *tokens, long k)
{
	while (--k >= 0 && is_space(&tokens->v[k]))
		;
	return k;
}

static bool is(const struct agx_glsl_tokens *tokens, size_t k, const char *s)
{
	return k < tokens->count && agx_glsl_token_is(&tokens->v[k], s);
}

/* A declaration "const [precision] int NAME = NUMBER ;": NAME's token and the value. */
struct constant {
	const struct agx_glsl_token *name;
	size_t at; /* the name's token index: the first declaration of a name wins */
	long value;
};

/* The shader's integer constants, sorted by name, so that an index looks one up by halves. */
struct constants {
	struct constant *v;
	size_t count;
};

static int compare_names(const struct agx_glsl_token *a, const struct agx_glsl_token *b)
{
	if (a->length != b->length)
		return a->length < b->length ? -1 : 1;
	return memcmp(a->text, b->text, a->length);
}

static int compare_constants(const void *pa, const void *pb)
{
	const struct constant *a = pa, *b = pb;
	int c = compare_names(a->name, b->name);

	return c ? c : a->at < b->at ? -1 : a->at > b->at;
}

/* Whether tokens[i] is the NAME of such a declaration; then *value is its NUMBER. */
static bool constant_at(const struct agx_glsl_tokens *tokens, size_t i, long *value)
{
	size_t j;
	long p;

	if (tokens->v[i].kind != AGX_GLSL_TOKEN_IDENT)
		return false;
	p = prev(tokens, (long)i);
	if (p < 0 || !agx_glsl_token_is(&tokens->v[p], "int"))
		return false;
	p = prev(tokens, p);
	if (p >= 0 && (agx_glsl_token_is(&tokens->v[p], "highp") ||
		       agx_glsl_token_is(&tokens->v[p], "mediump") ||
		       agx_glsl_token_is(&tokens->v[p], "lowp")))
		p = prev(tokens, p);
	if (p < 0 || !agx_glsl_token_is(&tokens->v[p], "const"))
		return false;
	j = next(tokens, i + 1);
	if (!is(tokens, j, "="))
		return false;
	j = next(tokens, j + 1);
	if (j >= tokens->count || tokens->v[j].kind != AGX_GLSL_TOKEN_NUMBER ||
	    !is(tokens, next(tokens, j + 1), ";"))
		return false;
	*value = agx_glsl_token_number(&tokens->v[j]);
	return true;
}

/* One pass over the tokens; -ENOMEM is the only error. */
static int constants_find(const struct agx_glsl_tokens *tokens, struct constants *c)
{
	size_t cap = 0;
	long value;

	c->v = NULL;
	c->count = 0;
	for (size_t i = 0; i < tokens->count; i++) {
		if (!constant_at(tokens, i, &value))
			continue;
		if (c->count == cap) {
			struct constant *v;

			cap = cap ? cap * 2 : 16;
			if (!(v = realloc(c->v, cap * sizeof(*v)))) {
				free(c->v);
				c->v = NULL;
				return -ENOMEM;
			}
			c->v = v;
		}
		c->v[c->count++] = (struct constant){ &tokens->v[i], i, value };
	}
	if (c->count)
		qsort(c->v, c->count, sizeof(c->v[0]), compare_constants);
	return 0;
}

/* The value of the constant named like name; -1 if none. */
static long constant(const struct constants *c, const struct agx_glsl_token *name)
{
	size_t lo = 0, hi = c->count;

	/* the first of equal names: the lowest index where the name is not less */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (compare_names(c->v[mid].name, name) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < c->count && !compare_names(c->v[lo].name, name) ? c->v[lo].value : -1;
}

/* The constant index of "[ INDEX ]" from token k, or -1. */
static long index_at(const struct agx_glsl_tokens *tokens, const struct constants *c, size_t k)
{
	size_t j = next(tokens, k + 1), end = next(tokens, j + 1);
	const struct agx_glsl_token *t = j < tokens->count ? &tokens->v[j] : NULL;

	if (!t || !is(tokens, end, "]"))
		return -1;
	if (t->kind == AGX_GLSL_TOKEN_NUMBER)
		return agx_glsl_token_number(t);
	return t->kind == AGX_GLSL_TOKEN_IDENT ? constant(c, t) : -1;
}

static void find_sizes(const struct agx_glsl_tokens *tokens, const struct constants *c,
		       struct array *a)
{
	long redeclared = -1;

	a->marker = a->unknown = -1;
	a->size = 0;
	for (size_t k = 0; k < tokens->count; k++) {
		size_t j;
		long i, p;

		if (!agx_glsl_token_is(&tokens->v[k], a->name))
			continue;
		j = next(tokens, k + 1);
		p = prev(tokens, (long)k);
		if (is(tokens, j, "[") &&
		    is(tokens, next(tokens, j + 1), AGX_GLSL_IMPLICIT_DISTANCES)) {
			a->marker = (long)next(tokens, j + 1);
			continue;
		}
		i = is(tokens, j, "[") ? index_at(tokens, c, j) : -1;
		if (p >= 0 && agx_glsl_token_is(&tokens->v[p], "float")) {
			redeclared = i; /* the shader's own declaration */
			continue;
		}
		if (i < 0 && a->unknown < 0)
			a->unknown = (long)k;
		if (i >= a->size)
			a->size = i + 1;
	}
	if (a->marker < 0)
		a->size = redeclared > 0 ? redeclared : 0;
}

static char *error_at(const struct agx_glsl_token *t, const char *builtin, const char *what)
{
	return agx_glsl_format("ERROR: 0:%u: '%s' : %s (EXT_clip_cull_distance)\n", t->line,
			       builtin, what);
}

int agx_glsl_size_distances(char **code, char **error)
{
	struct array arrays[2] = { { "agx_ClipDistance", "gl_ClipDistance", 0, 0, 0 },
				   { "agx_CullDistance", "gl_CullDistance", 0, 0, 0 } };
	struct agx_glsl_tokens tokens;
	struct constants constants = { 0 };
	struct agx_glsl_text o = { 0 };
	long drop_from[2] = { -1, -1 }, drop_to[2] = { -1, -1 };
	int ret = 0;

	*error = NULL;
	if (!strstr(*code, AGX_GLSL_IMPLICIT_DISTANCES))
		return 0;
	if ((ret = agx_glsl_tokenize(*code, strlen(*code), &tokens)))
		return ret;
	if ((ret = constants_find(&tokens, &constants)) < 0)
		goto out;
	for (int i = 0; i < 2; i++) {
		struct array *a = &arrays[i];

		find_sizes(&tokens, &constants, a);
		if (a->marker >= 0 && a->unknown >= 0) {
			*error =
			    error_at(&tokens.v[a->unknown], a->builtin,
				     "an array indexed by other than constant integers, or used "
				     "whole, must be redeclared with a size");
			ret = *error ? -EINVAL : -ENOMEM;
			goto out;
		}
	}
	if (arrays[0].size + arrays[1].size > MAX_DISTANCES) {
		const struct array *a = arrays[1].marker >= 0 ? &arrays[1] : &arrays[0];

		*error = agx_glsl_format(
		    "ERROR: 0:%u: 'gl_CullDistance' : gl_ClipDistance's %ld and gl_CullDistance's "
		    "%ld "
		    "elements are more than gl_MaxCombinedClipAndCullDistances (%d) "
		    "(EXT_clip_cull_distance)\n",
		    a->marker >= 0 ? tokens.v[a->marker].line : 0, arrays[0].size, arrays[1].size,
		    MAX_DISTANCES);
		ret = *error ? -EINVAL : -ENOMEM;
		goto out;
	}
	/* an array never used is no declaration: "in|out highp float NAME [ MARKER ] ;" */
	for (int i = 0; i < 2; i++) {
		long q = arrays[i].marker;

		if (q < 0 || arrays[i].size)
			continue;
		for (int n = 0; n < 5 && q >= 0; n++)
			q = prev(&tokens, q);
		if (q >= 0)
			drop_from[i] = q;
		drop_to[i] = (long)next(&tokens, next(&tokens, (size_t)arrays[i].marker + 1) + 1);
	}
	for (size_t k = 0; k < tokens.count; k++) {
		const struct agx_glsl_token *t = &tokens.v[k];
		bool dropped = false;

		for (int i = 0; i < 2; i++)
			dropped |=
			    drop_from[i] >= 0 && (long)k >= drop_from[i] && (long)k <= drop_to[i];
		if (dropped)
			continue;
		if ((long)k == arrays[0].marker || (long)k == arrays[1].marker) {
			char *n = agx_glsl_format(
			    "%ld", (long)k == arrays[0].marker ? arrays[0].size : arrays[1].size);

			if (!n) {
				o.failed = true;
				break;
			}
			agx_glsl_text_puts(&o, n);
			free(n);
		} else {
			agx_glsl_text_add(&o, t->text, t->length);
		}
	}
	if (o.failed) {
		ret = -ENOMEM;
		goto out;
	}
	free(*code);
	*code = o.v;
	o.v = NULL;
out:
	free(o.v);
	free(constants.v);
	agx_glsl_tokens_finish(&tokens);
	return ret;
}
