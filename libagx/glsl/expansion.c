/*
 * expansion.c: how far a shader's macros can expand, found before glslang
 * expands them.  glslang's preprocessor has no limit: ten lines of macros
 * can expand to 2^30 tokens (it runs out of time and memory), or put a
 * million unary minuses in an #if, which it evaluates recursively (it runs
 * out of stack).
 *
 * This is a preprocessor that counts: it expands every macro use the way
 * a C preprocessor does (object-like and function-like macros, arguments
 * expanded before they are substituted except next to ##, a macro not
 * expanded inside its own expansion) and throws the tokens away.  It
 * over-counts, never under-counts: conditionals are not evaluated (every
 * line counts), every #define of a name is in force everywhere, and a
 * name defined more than once expands to all its bodies one after the
 * other.  What it refuses: more than AGX_GLSL_MAX_EXPANDED_TOKENS tokens
 * in all, more than AGX_GLSL_MAX_IF_TOKENS in one #if or #elif, arguments
 * nested more than AGX_GLSL_MAX_NESTING deep, and more work than a few
 * times the tokens allowed.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "glsl/lower.h"

#define MAX_WORK (4 * (uint64_t)AGX_GLSL_MAX_EXPANDED_TOKENS)

struct tok {
	const char *text;
	uint32_t length;
	bool ident;
};

struct toks {
	struct tok *v;
	size_t count, cap;
};

struct def {
	bool function;
	bool pastes; /* its body has ## */
	unsigned num_params;
	struct tok *params;
	struct toks body;
	struct def *next; /* another #define of the same name */
};

struct name {
	const char *text; /* NULL: free slot */
	uint32_t length;
	struct def *defs;
	unsigned active; /* expansions of it under way */
};

/* A token source: the shader's lines, an argument, or a macro's expansion. */
struct frame {
	struct tok *v;
	size_t pos, count;
	struct name *macro; /* whose expansion this is, active while the frame is */
	bool owned;
};

struct expander {
	struct name *names;
	size_t num_slots;
	char **pasted; /* texts ## made */
	size_t num_pasted;
	uint64_t work, limit_out;
	bool failed, nomem, too_deep, too_long;
	unsigned depth;
};

static bool push_tok(struct expander *x, struct toks *t, struct tok k)
{
	if (t->count == t->cap) {
		size_t cap = t->cap ? t->cap * 2 : 16;
		struct tok *v = realloc(t->v, cap * sizeof(*v));

		if (!v) {
			x->nomem = x->failed = true;
			return false;
		}
		t->v = v;
		t->cap = cap;
	}
	t->v[t->count++] = k;
	return true;
}

static bool tok_is(const struct tok *t, const char *s)
{
	size_t n = strlen(s);

	return t->length == n && !memcmp(t->text, s, n);
}

static uint64_t hash(const char *s, size_t n)
{
	uint64_t h = 0xcbf29ce484222325ull;

	for (size_t i = 0; i < n; i++)
		h = (h ^ (unsigned char)s[i]) * 0x100000001b3ull;
	return h;
}

/* The name's slot; with create, a new one if it has none (the table never fills). */
static struct name *lookup(struct expander *x, const char *s, size_t n, bool create)
{
	size_t i = hash(s, n) & (x->num_slots - 1);

	while (x->names[i].text) {
		if (x->names[i].length == n && !memcmp(x->names[i].text, s, n))
			return &x->names[i];
		i = (i + 1) & (x->num_slots - 1);
	}
	if (!create)
		return NULL;
	x->names[i].text = s;
	x->names[i].length = (uint32_t)n;
	return &x->names[i];
}

/* The solid tokens of a text, as the expander reads them. */
static bool solid_tokens(struct expander *x, const struct agx_glsl_token *v, size_t n,
			 struct toks *out)
{
	for (size_t i = 0; i < n; i++) {
		enum agx_glsl_token_kind kind = v[i].kind;

		if (kind == AGX_GLSL_TOKEN_SPACE || kind == AGX_GLSL_TOKEN_NEWLINE ||
		    kind == AGX_GLSL_TOKEN_COMMENT || kind == AGX_GLSL_TOKEN_DIRECTIVE)
			continue;
		if (!push_tok(x, out,
			      (struct tok){ v[i].text, (uint32_t)v[i].length,
					    kind == AGX_GLSL_TOKEN_IDENT }))
			return false;
	}
	return true;
}

/* "#define NAME BODY" or "#define NAME(A, B) BODY", from its tokens after '#'. */
static void add_define(struct expander *x, const struct agx_glsl_tokens *t)
{
	size_t i = 1;
	struct toks params = { 0 };
	struct def *d;
	struct name *name;

	while (i < t->count && t->v[i].kind == AGX_GLSL_TOKEN_SPACE)
		i++;
	if (i >= t->count || t->v[i].kind != AGX_GLSL_TOKEN_IDENT)
		return;
	d = calloc(1, sizeof(*d));
	if (!d) {
		x->nomem = x->failed = true;
		return;
	}
	name = lookup(x, t->v[i].text, t->v[i].length, true);
	i++;
	if (i < t->count && agx_glsl_token_is(&t->v[i], "(")) {
		d->function = true;
		for (i++; i < t->count && !agx_glsl_token_is(&t->v[i], ")"); i++) {
			if (t->v[i].kind == AGX_GLSL_TOKEN_IDENT)
				push_tok(
				    x, &params,
				    (struct tok){ t->v[i].text, (uint32_t)t->v[i].length, true });
		}
		i++;
		d->params = params.v;
		d->num_params = (unsigned)params.count;
	}
	if (i < t->count)
		solid_tokens(x, t->v + i, t->count - i, &d->body);
	for (size_t k = 0; k < d->body.count; k++)
		d->pastes |= tok_is(&d->body.v[k], "##");
	d->next = name->defs;
	name->defs = d;
}

static int param_index(const struct def *d, const struct tok *t)
{
	for (unsigned p = 0; p < d->num_params; p++) {
		if (t->ident && d->params[p].length == t->length &&
		    !memcmp(d->params[p].text, t->text, t->length))
			return (int)p;
	}
	return -1;
}

/* Frames, read as one stream: the top first, the ones below when it runs out. */
struct stream {
	struct frame *v;
	size_t count, cap;
};

static void pop(struct stream *s)
{
	struct frame *f = &s->v[--s->count];

	if (f->macro)
		f->macro->active--;
	if (f->owned)
		free(f->v);
}

static const struct tok *peek(struct stream *s, size_t floor)
{
	for (size_t k = s->count; k > floor; k--) {
		struct frame *f = &s->v[k - 1];

		if (f->pos < f->count)
			return &f->v[f->pos];
	}
	return NULL;
}

static const struct tok *next(struct expander *x, struct stream *s, size_t floor)
{
	while (s->count > floor) {
		struct frame *f = &s->v[s->count - 1];

		if (f->pos < f->count) {
			x->work++;
			return &f->v[f->pos++];
		}
		pop(s);
	}
	return NULL;
}

static bool push(struct expander *x, struct stream *s, struct frame f)
{
	if (s->count == s->cap) {
		size_t cap = s->cap ? s->cap * 2 : 16;
		struct frame *v = realloc(s->v, cap * sizeof(*v));

		if (!v) {
			if (f.owned)
				free(f.v);
			x->nomem = x->failed = true;
			return false;
		}
		s->v = v;
		s->cap = cap;
	}
	if (f.macro)
		f.macro->active++;
	s->v[s->count++] = f;
	return true;
}

static void expand(struct expander *x, struct toks *in, struct toks *out, uint64_t *emitted,
		   bool condition);

/* The arguments of an invocation, "(" next in the stream; false if it has none. */
static bool collect_args(struct expander *x, struct stream *s, size_t floor, struct toks **args,
			 unsigned *num_args)
{
	struct toks *v = NULL;
	unsigned n = 0, depth = 0;
	const struct tok *t;

	next(x, s, floor); /* ( */
	for (bool comma = true;;) {
		if (comma) {
			struct toks *grown = realloc(v, (n + 1) * sizeof(*v));

			if (!grown) {
				x->nomem = x->failed = true;
				break;
			}
			v = grown;
			v[n++] = (struct toks){ 0 };
			comma = false;
		}
		t = next(x, s, floor);
		if (!t)
			break; /* unterminated: glslang reports it */
		if (depth == 0 && tok_is(t, ",")) {
			comma = true;
			continue;
		}
		if (tok_is(t, "("))
			depth++;
		if (tok_is(t, ")") && depth-- == 0)
			break;
		if (!push_tok(x, &v[n - 1], *t))
			break;
	}
	*args = v;
	*num_args = n;
	return !x->failed;
}

/* Two tokens made one by ##; the text lives until the check ends. */
static struct tok paste(struct expander *x, struct tok a, struct tok b)
{
	char *s = malloc(a.length + b.length + 1), **grown;
	bool ident = a.ident;

	grown = realloc(x->pasted, (x->num_pasted + 1) * sizeof(*grown));
	if (!s || !grown) {
		free(s);
		if (grown)
			x->pasted = grown;
		x->nomem = x->failed = true;
		return a;
	}
	x->pasted = grown;
	x->pasted[x->num_pasted++] = s;
	memcpy(s, a.text, a.length);
	memcpy(s + a.length, b.text, b.length);
	for (size_t i = 0; i < b.length && ident; i++)
		ident = b.text[i] == '_' || (b.text[i] >= '0' && b.text[i] <= '9') ||
			(b.text[i] >= 'a' && b.text[i] <= 'z') ||
			(b.text[i] >= 'A' && b.text[i] <= 'Z');
	return (struct tok){ s, a.length + b.length, ident };
}

/*
 * One definition's body with its parameters replaced, added to out:
 * expanded arguments, but raw ones next to ##, which pastes.
 */
static void substitute(struct expander *x, const struct def *d, struct toks *raw,
		       struct toks *expanded, struct toks *out)
{
	const struct toks *body = &d->body;

	for (size_t i = 0; i < body->count && !x->failed; i++) {
		const struct tok *t = &body->v[i];
		bool pasted_before = i > 0 && tok_is(&body->v[i - 1], "##");
		bool pasted_after = i + 1 < body->count && tok_is(&body->v[i + 1], "##");
		int p = param_index(d, t);

		if (tok_is(t, "##"))
			continue;
		if (p >= 0) {
			struct toks *a = pasted_before || pasted_after ? &raw[p] : &expanded[p];

			for (size_t k = 0; k < a->count; k++) {
				if (k == 0 && pasted_before && out->count)
					out->v[out->count - 1] =
					    paste(x, out->v[out->count - 1], a->v[0]);
				else
					push_tok(x, out, a->v[k]);
			}
			x->work += a->count;
		} else if (pasted_before && out->count) {
			out->v[out->count - 1] = paste(x, out->v[out->count - 1], *t);
		} else {
			push_tok(x, out, *t);
		}
	}
}

/*
 * A use of a macro name just read from the stream: pushes its expansion
 * (every definition that applies, one after the other).  False when none
 * applies and the name is an ordinary token.
 */
static bool expand_use(struct expander *x, struct stream *s, size_t floor, struct name *name)
{
	const struct tok *after = peek(s, floor);
	bool invoked = after && tok_is(after, "(");
	struct toks body = { 0 }, *raw = NULL, *expanded = NULL;
	unsigned num_args = 0;
	bool any = false;

	for (struct def *d = name->defs; d; d = d->next)
		any |= !d->function || invoked;
	if (!any)
		return false;
	if (!name->defs->next && !name->defs->function && !name->defs->pastes) {
		/* the common case: one object-like body, read where it is */
		struct def *d = name->defs;

		push(x, s, (struct frame){ d->body.v, 0, d->body.count, name, false });
		return true;
	}
	if (invoked && !collect_args(x, s, floor, &raw, &num_args))
		goto out;
	if (num_args) {
		expanded = calloc(num_args, sizeof(*expanded));
		if (!expanded) {
			x->nomem = x->failed = true;
			goto out;
		}
		for (unsigned a = 0; a < num_args && !x->failed; a++) {
			uint64_t emitted = 0;

			expand(x, &raw[a], &expanded[a], &emitted, false);
		}
	}
	for (struct def *d = name->defs; d && !x->failed; d = d->next) {
		if (!d->function)
			substitute(x, d, NULL, NULL, &body);
		else if (invoked && (d->num_params == num_args ||
				     (d->num_params == 0 && num_args == 1 && !raw[0].count)))
			substitute(x, d, raw, expanded, &body);
	}
	if (!x->failed)
		push(x, s, (struct frame){ body.v, 0, body.count, name, true });
	body.v = NULL;
out:
	for (unsigned a = 0; a < num_args; a++) {
		free(raw[a].v);
		if (expanded)
			free(expanded[a].v);
	}
	free(raw);
	free(expanded);
	free(body.v);
	return true;
}

/*
 * Expands in to the end, counting what it emits; with out, keeps it.  In
 * an #if (condition), the operand of "defined" is not expanded.
 */
static void expand(struct expander *x, struct toks *in, struct toks *out, uint64_t *emitted,
		   bool condition)
{
	struct stream s = { 0 };
	const struct tok *t;

	if (++x->depth > AGX_GLSL_MAX_NESTING) {
		x->too_deep = x->failed = true;
		x->depth--;
		return;
	}
	push(x, &s, (struct frame){ in->v, 0, in->count, NULL, false });
	while (!x->failed && (t = next(x, &s, 0))) {
		if (x->work > MAX_WORK) {
			x->too_long = x->failed = true;
			break;
		}
		struct name *name = t->ident ? lookup(x, t->text, t->length, false) : NULL;

		if (condition && tok_is(t, "defined")) {
			const struct tok *operand = next(x, &s, 0);

			if (operand && tok_is(operand, "(")) {
				next(x, &s, 0);
				next(x, &s, 0);
			}
			++*emitted;
			continue;
		}
		if (name && !name->active && name->defs && expand_use(x, &s, 0, name))
			continue;
		if (++*emitted > x->limit_out) {
			x->failed = true;
			break;
		}
		if (out)
			push_tok(x, out, *t);
	}
	while (s.count)
		pop(&s);
	free(s.v);
	x->depth--;
}

static void expander_finish(struct expander *x)
{
	for (size_t i = 0; i < x->num_slots; i++) {
		struct def *d = x->names[i].text ? x->names[i].defs : NULL;

		while (d) {
			struct def *n = d->next;

			free(d->params);
			free(d->body.v);
			free(d);
			d = n;
		}
	}
	for (size_t i = 0; i < x->num_pasted; i++)
		free(x->pasted[i]);
	free(x->pasted);
	free(x->names);
}

static bool directive_named(const struct agx_glsl_tokens *t, const char *word, size_t *after)
{
	size_t i = 0;

	while (i < t->count && t->v[i].kind == AGX_GLSL_TOKEN_SPACE)
		i++;
	if (i < t->count && agx_glsl_token_is(&t->v[i], word)) {
		*after = i + 1;
		return true;
	}
	return false;
}

bool agx_glsl_expansion_check(const struct agx_glsl_tokens *source, char **error)
{
	struct expander x = { 0 };
	struct toks lines = { 0 };
	uint64_t emitted = 0;
	unsigned failed_line = 0;
	bool condition_failed = false;

	*error = NULL;
	x.num_slots = 64;
	while (x.num_slots < 2 * source->count + 64)
		x.num_slots *= 2;
	x.names = calloc(x.num_slots, sizeof(*x.names));
	if (!x.names)
		return false;

	/* every #define first: all are in force everywhere */
	for (size_t i = 0; i < source->count && !x.failed; i++) {
		const struct agx_glsl_token *d = &source->v[i];
		struct agx_glsl_tokens t;
		size_t after;

		if (d->kind != AGX_GLSL_TOKEN_DIRECTIVE)
			continue;
		if (agx_glsl_tokenize(d->text + 1, d->length - 1, &t)) {
			x.nomem = x.failed = true;
			break;
		}
		if (directive_named(&t, "define", &after))
			add_define(&x, &t);
		agx_glsl_tokens_finish(&t);
	}

	/* each #if and #elif, then the lines outside directives */
	for (size_t i = 0; i < source->count && !x.failed; i++) {
		const struct agx_glsl_token *d = &source->v[i];
		struct agx_glsl_tokens t;
		struct toks cond = { 0 };
		size_t after;
		uint64_t n = 0;

		if (d->kind != AGX_GLSL_TOKEN_DIRECTIVE)
			continue;
		if (agx_glsl_tokenize(d->text + 1, d->length - 1, &t)) {
			x.nomem = x.failed = true;
			break;
		}
		if ((directive_named(&t, "if", &after) || directive_named(&t, "elif", &after)) &&
		    solid_tokens(&x, t.v + after, t.count - after, &cond)) {
			x.limit_out = AGX_GLSL_MAX_IF_TOKENS;
			expand(&x, &cond, NULL, &n, true);
			if (x.failed && !x.nomem) {
				failed_line = d->line;
				condition_failed = true;
			}
		}
		free(cond.v);
		agx_glsl_tokens_finish(&t);
	}
	if (!x.failed && solid_tokens(&x, source->v, source->count, &lines)) {
		x.limit_out = AGX_GLSL_MAX_EXPANDED_TOKENS;
		expand(&x, &lines, NULL, &emitted, false);
	}
	free(lines.v);
	expander_finish(&x);

	if (!x.failed)
		return true;
	if (x.nomem)
		return false;
	if (x.too_deep)
		*error = agx_glsl_format("ERROR: 0:%u: '' : macro arguments nested more than %u "
					 "deep\n",
					 failed_line, AGX_GLSL_MAX_NESTING);
	else if (x.too_long)
		*error = agx_glsl_format("ERROR: 0:0: '' : the macros take more than %llu steps to "
					 "expand\n",
					 (unsigned long long)MAX_WORK);
	else if (condition_failed)
		*error = agx_glsl_format("ERROR: 0:%u: '#if' : expands to more than %u tokens\n",
					 failed_line, AGX_GLSL_MAX_IF_TOKENS);
	else
		*error = agx_glsl_format("ERROR: 0:0: '' : the macros expand to more than %u "
					 "tokens\n",
					 AGX_GLSL_MAX_EXPANDED_TOKENS);
	return false;
}
