/*
 * lower.c: the tokenizer of GLSL ES text, and the lowering of a
 * preprocessed 1.00 or 3.00 shader to an equivalent 3.10 one, token by
 * token, for glslang to make SPIR-V of.  Every rule is in docs/compiler.md
 * ("Front end") and has a test in tests/libagx/test-glsl.c.
 *
 * The output starts with "#version 310 es", the declarations the rules
 * need, and "#line 1", so that every line of the shader keeps its number;
 * what a rule removes leaves its newlines behind.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "glsl/lower.h"

char *agx_glsl_format(const char *fmt, ...)
{
	va_list ap;
	char *s;
	int n;

	va_start(ap, fmt);
	n = vasprintf(&s, fmt, ap);
	va_end(ap);
	return n < 0 ? NULL : s;
}

/* Tokenizer */

static bool is_ident_start(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

static bool is_digit(char c)
{
	return c >= '0' && c <= '9';
}

static bool is_ident_char(char c)
{
	return is_ident_start(c) || is_digit(c);
}

static bool is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
}

/* Longest first: a token is the longest of these the text starts with. */
static const char *const punctuators[] = {
	"<<=", ">>=", "++", "--", "<<", ">>", "<=", ">=", "==", "!=", "&&", "||",
	"^^",  "+=",  "-=", "*=", "/=", "%=", "&=", "^=", "|=", "##", "+",  "-",
	"*",   "/",   "%",  "<",  ">",	"=",  "!",  "&",  "|",	"^",  "~",  "?",
	":",   ";",   ",",  ".",  "(",	")",  "[",  "]",  "{",	"}",  "#",
};

static size_t punctuator_length(const char *p, size_t left)
{
	for (size_t i = 0; i < sizeof(punctuators) / sizeof(punctuators[0]); i++) {
		size_t n = strlen(punctuators[i]);

		if (n <= left && !memcmp(p, punctuators[i], n))
			return n;
	}
	return 0;
}

/* "#line N" (or "# line N M"): the number the next line gets, or 0. */
static unsigned line_directive_number(const char *p, size_t n)
{
	size_t i = 1;
	unsigned long v = 0;

	while (i < n && is_blank(p[i]))
		i++;
	if (n - i < 4 || memcmp(p + i, "line", 4) || (n - i > 4 && is_ident_char(p[i + 4])))
		return 0;
	i += 4;
	while (i < n && is_blank(p[i]))
		i++;
	if (i == n || !is_digit(p[i]))
		return 0;
	while (i < n && is_digit(p[i]) && v < 1000000000)
		v = v * 10 + (unsigned long)(p[i++] - '0');
	return (unsigned)v;
}

static size_t scan_token(const char *p, size_t left, bool line_start,
			 enum agx_glsl_token_kind *kind)
{
	size_t n = 1;

	if (*p == '\n') {
		*kind = AGX_GLSL_TOKEN_NEWLINE;
		return 1;
	}
	if (is_blank(*p)) {
		*kind = AGX_GLSL_TOKEN_SPACE;
		while (n < left && is_blank(p[n]))
			n++;
		return n;
	}
	if (left >= 2 && p[0] == '/' && p[1] == '/') {
		*kind = AGX_GLSL_TOKEN_COMMENT;
		while (n < left && p[n] != '\n')
			n++;
		return n;
	}
	if (left >= 2 && p[0] == '/' && p[1] == '*') {
		*kind = AGX_GLSL_TOKEN_COMMENT;
		n = 2;
		while (n < left && !(p[n] == '/' && p[n - 1] == '*' && n >= 3))
			n++;
		return n < left ? n + 1 : left;
	}
	if (*p == '#' && line_start) {
		/* to the end of the line; a backslash before the newline continues it */
		*kind = AGX_GLSL_TOKEN_DIRECTIVE;
		while (n < left && p[n] != '\n') {
			if (p[n] == '\\' && n + 1 < left && p[n + 1] == '\n')
				n++;
			n++;
		}
		return n;
	}
	if (is_ident_start(*p)) {
		*kind = AGX_GLSL_TOKEN_IDENT;
		while (n < left && is_ident_char(p[n]))
			n++;
		return n;
	}
	if (is_digit(*p) || (*p == '.' && left >= 2 && is_digit(p[1]))) {
		*kind = AGX_GLSL_TOKEN_NUMBER;
		while (n < left) {
			if (is_ident_char(p[n]) || p[n] == '.')
				n++;
			else if ((p[n] == '+' || p[n] == '-') &&
				 (p[n - 1] == 'e' || p[n - 1] == 'E'))
				n++;
			else
				break;
		}
		return n;
	}
	n = punctuator_length(p, left);
	if (n) {
		*kind = AGX_GLSL_TOKEN_PUNCT;
		return n;
	}
	*kind = AGX_GLSL_TOKEN_OTHER;
	return 1;
}

int agx_glsl_tokenize(const char *text, size_t length, struct agx_glsl_tokens *out)
{
	size_t pos = 0, cap = 0;
	unsigned line = 1, next_line = 0;
	bool line_start = true;

	out->v = NULL;
	out->count = 0;
	while (pos < length) {
		struct agx_glsl_token *t;
		enum agx_glsl_token_kind kind;
		size_t n = scan_token(text + pos, length - pos, line_start, &kind);

		if (out->count == cap) {
			size_t ncap = cap ? cap * 2 : 256;
			struct agx_glsl_token *v = realloc(out->v, ncap * sizeof(*v));

			if (!v) {
				agx_glsl_tokens_finish(out);
				return -ENOMEM;
			}
			out->v = v;
			cap = ncap;
		}
		t = &out->v[out->count++];
		t->kind = kind;
		t->text = text + pos;
		t->length = n;
		t->line = line;
		for (size_t i = 0; i < n; i++) {
			if (text[pos + i] == '\n')
				line++;
		}
		if (kind == AGX_GLSL_TOKEN_DIRECTIVE)
			next_line = line_directive_number(t->text, n);
		if (kind == AGX_GLSL_TOKEN_NEWLINE) {
			if (next_line)
				line = next_line;
			next_line = 0;
			line_start = true;
		} else if (kind != AGX_GLSL_TOKEN_SPACE && kind != AGX_GLSL_TOKEN_COMMENT) {
			line_start = false;
		}
		pos += n;
	}
	return 0;
}

void agx_glsl_tokens_finish(struct agx_glsl_tokens *t)
{
	free(t->v);
	t->v = NULL;
	t->count = 0;
}

long agx_glsl_token_number(const struct agx_glsl_token *t)
{
	/* the token's own bytes: the text need not end after it, strtol would read on */
	char digits[32];
	size_t n = t->length < sizeof(digits) - 1 ? t->length : sizeof(digits) - 1;

	memcpy(digits, t->text, n);
	digits[n] = '\0';
	return strtol(digits, NULL, 0);
}

bool agx_glsl_token_is(const struct agx_glsl_token *t, const char *s)
{
	size_t n = strlen(s);

	return (t->kind == AGX_GLSL_TOKEN_IDENT || t->kind == AGX_GLSL_TOKEN_PUNCT) &&
	       t->length == n && !memcmp(t->text, s, n);
}

/* Output text (lower.h) */

void agx_glsl_text_add(struct agx_glsl_text *b, const char *s, size_t n)
{
	if (b->failed)
		return;
	if (b->length + n + 1 > b->cap) {
		size_t cap = b->cap ? b->cap : 1024;
		char *v;

		while (cap < b->length + n + 1)
			cap *= 2;
		v = realloc(b->v, cap);
		if (!v) {
			b->failed = true;
			return;
		}
		b->v = v;
		b->cap = cap;
	}
	memcpy(b->v + b->length, s, n);
	b->length += n;
	b->v[b->length] = '\0';
}

void agx_glsl_text_puts(struct agx_glsl_text *b, const char *s)
{
	agx_glsl_text_add(b, s, strlen(s));
}

/* The lowering */

/* 1.00's texture built-ins (core and extensions) and their 3.00 names. */
static const struct {
	const char *from, *to;
} texture_functions[] = {
	{ "texture2D", "texture" },
	{ "texture2DProj", "textureProj" },
	{ "texture2DLod", "textureLod" },
	{ "texture2DProjLod", "textureProjLod" },
	{ "textureCube", "texture" },
	{ "textureCubeLod", "textureLod" },
	/* GL_EXT_shader_texture_lod */
	{ "texture2DLodEXT", "textureLod" },
	{ "texture2DProjLodEXT", "textureProjLod" },
	{ "textureCubeLodEXT", "textureLod" },
	{ "texture2DGradEXT", "textureGrad" },
	{ "texture2DProjGradEXT", "textureProjGrad" },
	{ "textureCubeGradEXT", "textureGrad" },
	/* GL_OES_texture_3D */
	{ "texture3D", "texture" },
	{ "texture3DProj", "textureProj" },
	{ "texture3DLod", "textureLod" },
	{ "texture3DProjLod", "textureProjLod" },
	/* GL_EXT_shadow_samplers */
	{ "shadow2DEXT", "texture" },
	{ "shadow2DProjEXT", "textureProj" },
};

struct span {
	const char *text;
	size_t length;
};

/* The renamed identifiers, in the order they first appear. */
struct renames {
	struct agx_glsl_rename *v;
	unsigned count;
};

struct lowering {
	enum agx_glsl_stage stage;
	int version;
	const struct agx_glsl_tokens *tokens;
	struct span *idents; /* every identifier spelled, sorted, for fresh names */
	size_t num_idents;
	char **reserved_name; /* by reserved-table index: its new name */
	char *frag_color, *frag_data;
	bool frag_color_out, frag_data_out; /* declared as outputs, not plain globals */
	/* EXT_blend_func_extended's gl_SecondaryFragColorEXT, gl_SecondaryFragDataEXT */
	char *secondary_color, *secondary_data;
	/* rule 16: [token index] = 1 + the location placed before it, 0 for none */
	unsigned *place;
	char **placed;
	unsigned num_placed;
	struct renames renames;
	/* framebuffer fetch (rules 19, 20): what fetch.c did before glslang */
	const struct agx_glsl_fetch *fetch;
	size_t main_body;	  /* the "{" of main()'s body, or SIZE_MAX */
	size_t drop_uniform;	  /* the "uniform" of gl_LastFragData's stand-in, or SIZE_MAX */
	const char *fetch_source; /* 1.00: the output array gl_LastFragData copies */
	bool frag_color_array;	  /* gl_FragColor is element 0 of an array of outputs */
	struct agx_glsl_text out;
	bool invariant_all;
	unsigned invariant_all_line;
	unsigned front_facing_invariant_line; /* 1.00's "invariant gl_FrontFacing", 0: none */
	bool failed;
};

static int span_cmp(const void *a, const void *b)
{
	const struct span *x = a, *y = b;

	if (x->length != y->length)
		return x->length < y->length ? -1 : 1;
	return memcmp(x->text, y->text, x->length);
}

static bool spelled(const struct lowering *l, const char *s)
{
	struct span key = { s, strlen(s) };

	return bsearch(&key, l->idents, l->num_idents, sizeof(key), span_cmp) != NULL;
}

static bool assigned(const struct lowering *l, const char *s)
{
	for (unsigned i = 0; i < l->renames.count; i++) {
		if (!strcmp(l->renames.v[i].lowered, s))
			return true;
	}
	return false;
}

/*
 * A new name for original: "agx_" and the name without its "gl_", with a
 * number after it if the shader spells that already.
 */
static char *rename_to(struct lowering *l, const char *original, size_t length)
{
	struct agx_glsl_rename *v;
	const char *base = original;
	size_t base_length = length;
	char *name, *orig;

	if (length > 3 && !memcmp(original, "gl_", 3)) {
		base += 3;
		base_length -= 3;
	}
	name = agx_glsl_format("agx_%.*s", (int)base_length, base);
	for (unsigned n = 2; name && (spelled(l, name) || assigned(l, name)); n++) {
		free(name);
		name = agx_glsl_format("agx_%.*s_%u", (int)base_length, base, n);
	}
	orig = strndup(original, length);
	v = realloc(l->renames.v, (l->renames.count + 1) * sizeof(*v));
	if (!name || !orig || !v) {
		free(name);
		free(orig);
		if (v)
			l->renames.v = v;
		l->failed = true;
		return NULL;
	}
	l->renames.v = v;
	v[l->renames.count].original = orig;
	v[l->renames.count].lowered = name;
	l->renames.count++;
	return name;
}

static void emit_token(struct lowering *l, const struct agx_glsl_token *t)
{
	agx_glsl_text_add(&l->out, t->text, t->length);
}

static bool skippable(const struct agx_glsl_token *t)
{
	return t->kind == AGX_GLSL_TOKEN_SPACE || t->kind == AGX_GLSL_TOKEN_NEWLINE ||
	       t->kind == AGX_GLSL_TOKEN_COMMENT;
}

/* The index of the first token from i on that is not blank, or count. */
static size_t next_solid(const struct lowering *l, size_t i)
{
	while (i < l->tokens->count && skippable(&l->tokens->v[i]))
		i++;
	return i;
}

/* The index of the last token before i that is not blank, or SIZE_MAX. */
static size_t prev_solid(const struct lowering *l, size_t i)
{
	while (i-- > 0) {
		if (!skippable(&l->tokens->v[i]))
			return i;
	}
	return SIZE_MAX;
}

/*
 * #version goes (the prologue has 3.10's), and "#pragma STDGL
 * invariant(all)" comes back: glslang's preprocessor writes a pragma's
 * tokens without the blanks between them, which 3.10 would read as an
 * unknown pragma.  glslang's SPIR-V has no Invariant for it either, so
 * the lowering says it saw one.
 */
static void emit_directive(struct lowering *l, const struct agx_glsl_token *t)
{
	static const char mangled[] = "STDGLinvariant(all)";
	size_t i = 1, n = t->length;

	while (i < n && is_blank(t->text[i]))
		i++;
	if (n - i >= 7 && !memcmp(t->text + i, "version", 7) &&
	    (n - i == 7 || !is_ident_char(t->text[i + 7])))
		return;
	if (n - i >= 6 && !memcmp(t->text + i, "pragma", 6) && n - i > 6 &&
	    is_blank(t->text[i + 6])) {
		size_t j = i + 6, end = n;

		while (j < n && is_blank(t->text[j]))
			j++;
		while (end > j && is_blank(t->text[end - 1]))
			end--;
		if (end - j == sizeof(mangled) - 1 && !memcmp(t->text + j, mangled, end - j)) {
			agx_glsl_text_puts(&l->out, "#pragma STDGL invariant(all)");
			if (!l->invariant_all)
				l->invariant_all_line = t->line;
			l->invariant_all = true;
			return;
		}
	}
	emit_token(l, t);
}

/*
 * A 1.00 fragment shader's invariant: 3.00 and later allow it on outputs
 * only, and a fragment input's invariance is the vertex shader's to keep.
 * "invariant varying" loses "invariant"; "invariant a, b;" goes, all but
 * its newlines.  Returns the index of the last token consumed.
 */
static size_t lower_fragment_invariant(struct lowering *l, size_t i)
{
	size_t next = next_solid(l, i + 1);

	if (next < l->tokens->count && agx_glsl_token_is(&l->tokens->v[next], "varying")) {
		while (i + 1 < next && l->tokens->v[i + 1].kind == AGX_GLSL_TOKEN_SPACE)
			i++;
		return i;
	}
	for (; i < l->tokens->count; i++) {
		const struct agx_glsl_token *t = &l->tokens->v[i];

		if (t->kind == AGX_GLSL_TOKEN_NEWLINE)
			emit_token(l, t);
		if (agx_glsl_token_is(t, "gl_FrontFacing") && !l->front_facing_invariant_line)
			l->front_facing_invariant_line = t->line;
		if (agx_glsl_token_is(t, ";"))
			return i;
	}
	return l->tokens->count - 1;
}

static const char *texture_function(const struct agx_glsl_token *t)
{
	for (size_t k = 0; k < sizeof(texture_functions) / sizeof(texture_functions[0]); k++) {
		if (agx_glsl_token_is(t, texture_functions[k].from))
			return texture_functions[k].to;
	}
	return NULL;
}

/* The 1.00 rules for an identifier; false when none applies. */
static bool lower_100_ident(struct lowering *l, size_t *i)
{
	const struct agx_glsl_token *t = &l->tokens->v[*i];
	bool fragment = l->stage == AGX_GLSL_FRAGMENT;
	const char *to;

	if (agx_glsl_token_is(t, "attribute") && !fragment) {
		agx_glsl_text_puts(&l->out, "in");
	} else if (agx_glsl_token_is(t, "varying")) {
		agx_glsl_text_puts(&l->out, fragment ? "in" : "out");
	} else if (agx_glsl_token_is(t, "invariant") && fragment) {
		*i = lower_fragment_invariant(l, *i);
	} else if (agx_glsl_token_is(t, "gl_FragColor") && fragment && l->frag_color) {
		agx_glsl_text_puts(&l->out, l->frag_color);
		/* rule 20: element 0 of the outputs (rule 4 took invariant statements) */
		if (l->frag_color_array)
			agx_glsl_text_puts(&l->out, "[0]");
	} else if (agx_glsl_token_is(t, "gl_FragData") && fragment && l->frag_data) {
		agx_glsl_text_puts(&l->out, l->frag_data);
	} else if (agx_glsl_token_is(t, "gl_SecondaryFragColorEXT") && fragment &&
		   l->secondary_color) {
		agx_glsl_text_puts(&l->out, l->secondary_color);
	} else if (agx_glsl_token_is(t, "gl_SecondaryFragDataEXT") && fragment &&
		   l->secondary_data) {
		agx_glsl_text_puts(&l->out, l->secondary_data);
	} else if (agx_glsl_token_is(t, "gl_FragDepthEXT") && fragment) {
		agx_glsl_text_puts(&l->out, "gl_FragDepth");
	} else if (agx_glsl_token_is(t, "gl_MaxVaryingVectors")) {
		char number[16];

		snprintf(number, sizeof(number), "%d", AGX_GLSL_MAX_VARYING_VECTORS);
		agx_glsl_text_puts(&l->out, number);
	} else if ((to = texture_function(t))) {
		agx_glsl_text_puts(&l->out, to);
	} else {
		return false;
	}
	return true;
}

/* A user identifier 3.10 reserves gets its new name; false if it is not one. */
static bool lower_reserved(struct lowering *l, const struct agx_glsl_token *t)
{
	unsigned flag = l->version == 100 ? AGX_GLSL_RENAME_IN_100 : AGX_GLSL_RENAME_IN_300;
	int k = agx_glsl_reserved_find(t->text, t->length);

	if (k < 0 || !(agx_glsl_reserved[k].versions & flag))
		return false;
	if (!l->reserved_name[k])
		l->reserved_name[k] = rename_to(l, t->text, t->length);
	if (l->reserved_name[k])
		agx_glsl_text_puts(&l->out, l->reserved_name[k]);
	return true;
}

/*
 * SPIR-V has no shared or packed block layout; both are the
 * implementation's to choose, and std140 is ours.  Tracks the parentheses
 * of a 3.00 layout(...) qualifier.
 */
struct layout_state {
	bool pending; /* "layout" seen, "(" not yet */
	unsigned depth;
};

static bool lower_300_layout(struct lowering *l, struct layout_state *s,
			     const struct agx_glsl_token *t)
{
	if (agx_glsl_token_is(t, "layout")) {
		s->pending = true;
		return false;
	}
	if (agx_glsl_token_is(t, "(")) {
		if (s->pending || s->depth)
			s->depth++;
		s->pending = false;
		return false;
	}
	if (skippable(t))
		return false;
	s->pending = false;
	if (agx_glsl_token_is(t, ")") && s->depth) {
		s->depth--;
		return false;
	}
	if (s->depth && (agx_glsl_token_is(t, "shared") || agx_glsl_token_is(t, "packed"))) {
		agx_glsl_text_puts(&l->out, "std140");
		return true;
	}
	return false;
}

/* Every identifier spelled, sorted, and where gl_FragColor and gl_FragData first appear. */
static int scan_idents(struct lowering *l, const struct agx_glsl_token **color,
		       const struct agx_glsl_token **data, bool *secondary_color,
		       bool *secondary_data)
{
	const struct agx_glsl_tokens *tk = l->tokens;
	size_t n = 0;

	*secondary_color = *secondary_data = false;
	*color = *data = NULL;
	l->idents = malloc((tk->count ? tk->count : 1) * sizeof(*l->idents));
	if (!l->idents)
		return -ENOMEM;
	for (size_t i = 0; i < tk->count; i++) {
		const struct agx_glsl_token *t = &tk->v[i];

		if (t->kind != AGX_GLSL_TOKEN_IDENT)
			continue;
		l->idents[n++] = (struct span){ t->text, t->length };
		if (!*color && agx_glsl_token_is(t, "gl_FragColor"))
			*color = t;
		if (!*data && agx_glsl_token_is(t, "gl_FragData"))
			*data = t;
		*secondary_color |= agx_glsl_token_is(t, "gl_SecondaryFragColorEXT");
		*secondary_data |= agx_glsl_token_is(t, "gl_SecondaryFragDataEXT");
	}
	qsort(l->idents, n, sizeof(*l->idents), span_cmp);
	l->num_idents = n;
	return 0;
}

/*
 * Which uses of gl_FragColor and gl_FragData write them.  GLSL ES 1.00
 * section 7.2 forbids a shader to *statically assign* both, not to name
 * both: "invariant gl_FragColor; invariant gl_FragData;" is valid (piglit's
 * glsl-es-1.00/compiler/invariant.frag), and so is reading one.  A use
 * assigns when it, or an element or field of it, is the left of an
 * assignment, is incremented or decremented, or is a whole argument in
 * the place of an out or inout parameter of a function of that name (any
 * overload: no types here).  GLSL ES wants a function declared before it
 * is called, but the parameters are collected over the whole shader
 * first; the walk is linear, and the nesting limit bounds the stack.
 */
struct out_param {
	struct span name;
	unsigned index;
};

struct group {
	size_t callee; /* the identifier before a "(", or SIZE_MAX */
	unsigned arg;  /* commas seen inside it */
};

struct output_writes {
	const struct agx_glsl_token *color, *data; /* the first write of each, or NULL */
	/* EXT_blend_func_extended's gl_SecondaryFragColorEXT, gl_SecondaryFragDataEXT */
	const struct agx_glsl_token *secondary_color, *secondary_data;
};

static int out_param_cmp(const void *a, const void *b)
{
	const struct out_param *x = a, *y = b;
	int c = span_cmp(&x->name, &y->name);

	if (c)
		return c;
	return x->index < y->index ? -1 : x->index > y->index;
}

static bool is_assignment(const struct agx_glsl_token *t)
{
	static const char *const ops[] = { "=",	  "+=", "-=", "*=", "/=", "%=", "<<=",
					   ">>=", "&=", "^=", "|=", "++", "--" };

	for (size_t k = 0; k < sizeof(ops) / sizeof(ops[0]); k++) {
		if (agx_glsl_token_is(t, ops[k]))
			return true;
	}
	return false;
}

/* The index of the "]" or ")" that closes the group opened at open, or count. */
static size_t group_end(const struct lowering *l, size_t open)
{
	unsigned depth = 0;

	for (size_t i = open; i < l->tokens->count; i++) {
		const struct agx_glsl_token *t = &l->tokens->v[i];

		if (agx_glsl_token_is(t, "[") || agx_glsl_token_is(t, "("))
			depth++;
		else if ((agx_glsl_token_is(t, "]") || agx_glsl_token_is(t, ")")) && !--depth)
			return i;
	}
	return l->tokens->count;
}

/*
 * The use at i: true if it assigns by itself; *whole_arg says whether it
 * is, indices and fields included, an argument of its own.
 */
static bool assigns_here(const struct lowering *l, size_t i, bool *whole_arg)
{
	const struct agx_glsl_token *v = l->tokens->v;
	size_t n = l->tokens->count, before = prev_solid(l, i), after = next_solid(l, i + 1);

	*whole_arg = false;
	if (before != SIZE_MAX &&
	    (agx_glsl_token_is(&v[before], "++") || agx_glsl_token_is(&v[before], "--")))
		return true;
	while (after < n) {
		if (agx_glsl_token_is(&v[after], "["))
			after = next_solid(l, group_end(l, after) + 1);
		else if (agx_glsl_token_is(&v[after], "."))
			after = next_solid(l, next_solid(l, after + 1) + 1);
		else
			break;
	}
	if (after >= n)
		return false;
	if (is_assignment(&v[after]))
		return true;
	*whole_arg = before != SIZE_MAX &&
		     (agx_glsl_token_is(&v[before], "(") || agx_glsl_token_is(&v[before], ",")) &&
		     (agx_glsl_token_is(&v[after], ")") || agx_glsl_token_is(&v[after], ","));
	return false;
}

/* What the walk found: out and inout parameters, and arguments that may be written. */
struct write_scan {
	struct out_param *params;
	size_t num_params;
	struct use {
		size_t token;
		struct out_param at; /* the callee and the argument's place */
	} * args;
	size_t num_args;
};

static void note_write(const struct lowering *l, struct output_writes *w, size_t i)
{
	const struct agx_glsl_token *t = &l->tokens->v[i];

	if (agx_glsl_token_is(t, "gl_FragColor") && (!w->color || t < w->color))
		w->color = t;
	if (agx_glsl_token_is(t, "gl_FragData") && (!w->data || t < w->data))
		w->data = t;
	if (agx_glsl_token_is(t, "gl_SecondaryFragColorEXT") &&
	    (!w->secondary_color || t < w->secondary_color))
		w->secondary_color = t;
	if (agx_glsl_token_is(t, "gl_SecondaryFragDataEXT") &&
	    (!w->secondary_data || t < w->secondary_data))
		w->secondary_data = t;
}

static void walk_writes(const struct lowering *l, struct write_scan *s, struct output_writes *w)
{
	const struct agx_glsl_token *v = l->tokens->v;
	struct group stack[AGX_GLSL_MAX_NESTING];
	unsigned depth = 0;

	for (size_t i = 0; i < l->tokens->count; i++) {
		const struct agx_glsl_token *t = &v[i];
		struct group *top =
		    depth && depth <= AGX_GLSL_MAX_NESTING ? &stack[depth - 1] : NULL;
		bool whole_arg;

		if (agx_glsl_token_is(t, "(") || agx_glsl_token_is(t, "[")) {
			size_t before = prev_solid(l, i);

			if (depth < AGX_GLSL_MAX_NESTING) {
				stack[depth].callee = agx_glsl_token_is(t, "(") &&
							      before != SIZE_MAX &&
							      v[before].kind == AGX_GLSL_TOKEN_IDENT
							  ? before
							  : SIZE_MAX;
				stack[depth].arg = 0;
			}
			depth++;
		} else if (agx_glsl_token_is(t, ")") || agx_glsl_token_is(t, "]")) {
			if (depth)
				depth--;
		} else if (agx_glsl_token_is(t, ",")) {
			if (top)
				top->arg++;
		} else if (agx_glsl_token_is(t, "out") || agx_glsl_token_is(t, "inout")) {
			if (top && top->callee != SIZE_MAX) {
				const struct agx_glsl_token *f = &v[top->callee];

				s->params[s->num_params++] =
				    (struct out_param){ { f->text, f->length }, top->arg };
			}
		} else if (agx_glsl_token_is(t, "gl_FragColor") ||
			   agx_glsl_token_is(t, "gl_FragData") ||
			   agx_glsl_token_is(t, "gl_SecondaryFragColorEXT") ||
			   agx_glsl_token_is(t, "gl_SecondaryFragDataEXT")) {
			if (assigns_here(l, i, &whole_arg)) {
				note_write(l, w, i);
			} else if (whole_arg && top && top->callee != SIZE_MAX) {
				const struct agx_glsl_token *f = &v[top->callee];

				s->args[s->num_args++] =
				    (struct use){ i, { { f->text, f->length }, top->arg } };
			}
		}
	}
}

static int find_output_writes(const struct lowering *l, struct output_writes *w)
{
	size_t n = l->tokens->count ? l->tokens->count : 1;
	struct write_scan s = { malloc(n * sizeof(*s.params)), 0, malloc(n * sizeof(*s.args)), 0 };

	w->color = w->data = w->secondary_color = w->secondary_data = NULL;
	if (!s.params || !s.args) {
		free(s.params);
		free(s.args);
		return -ENOMEM;
	}
	walk_writes(l, &s, w);
	qsort(s.params, s.num_params, sizeof(*s.params), out_param_cmp);
	for (size_t k = 0; k < s.num_args; k++) {
		if (bsearch(&s.args[k].at, s.params, s.num_params, sizeof(*s.params),
			    out_param_cmp))
			note_write(l, w, s.args[k].token);
	}
	free(s.params);
	free(s.args);
	return 0;
}

/*
 * gl_FragColor or gl_FragData's stand-in: an output, or a plain global if
 * never written; at location 0 when the shader has a second blend source.
 */
static void emit_frag_output(struct lowering *l, const char *name, bool out, const char *array)
{
	if (out && (l->secondary_color || l->secondary_data))
		agx_glsl_text_puts(&l->out, "layout(location = 0) ");
	agx_glsl_text_puts(&l->out, out ? "out mediump vec4 " : "mediump vec4 ");
	agx_glsl_text_puts(&l->out, name);
	agx_glsl_text_puts(&l->out, array);
	agx_glsl_text_puts(&l->out, ";\n");
}

/*
 * The prologue: 3.10's version line, the outputs that take the place of
 * gl_FragColor and gl_FragData (mediump, as 1.00 declares them), and the
 * line number back to 1.
 */
static void emit_prologue(struct lowering *l)
{
	agx_glsl_text_puts(&l->out, "#version 310 es\n");
	/* the shader enabled it to name them; the layouts below need it first */
	if (l->secondary_color || l->secondary_data)
		agx_glsl_text_puts(&l->out, "#extension GL_EXT_blend_func_extended : enable\n");
	if (l->frag_color)
		emit_frag_output(l, l->frag_color, l->frag_color_out,
				 l->frag_color_array ? "[gl_MaxDrawBuffers]" : "");
	if (l->frag_data)
		emit_frag_output(l, l->frag_data, l->frag_data_out, "[gl_MaxDrawBuffers]");
	/* the second source of blending: index 1 (EXT_blend_func_extended's outputs) */
	if (l->secondary_color) {
		agx_glsl_text_puts(&l->out, "layout(location = 0, index = 1) out mediump vec4 ");
		agx_glsl_text_puts(&l->out, l->secondary_color);
		agx_glsl_text_puts(&l->out, ";\n");
	}
	if (l->secondary_data) {
		agx_glsl_text_puts(&l->out, "layout(location = 0, index = 1) out mediump vec4 ");
		agx_glsl_text_puts(&l->out, l->secondary_data);
		agx_glsl_text_puts(&l->out, "[gl_MaxDualSourceDrawBuffersEXT];\n");
	}
	agx_glsl_text_puts(&l->out, "#line 1\n");
}

/*
 * Rule 16: a 3.00 fragment shader's outputs declared without a location,
 * when it has more than one output, get placeholder locations -- the
 * lowest free of the explicit ones, in order -- so that glslang's link
 * takes it ("when more than one fragment shader output, all must have
 * location qualifiers").  Which location each takes is the GL layer's at
 * link time (EXT_blend_func_extended's glBindFragDataLocationEXT, or its
 * error when nothing gives one): the result names them (placed).  A
 * declaration of several outputs is left as it is.
 */
struct global_decl {
	size_t first;	      /* its first solid token */
	size_t name;	      /* its (last) declarator's identifier, or SIZE_MAX */
	bool out, layout_loc; /* an output; with layout(... location ...) */
	long location, index, size;
	unsigned declarators;
};

static long number_after(const struct lowering *l, size_t *i)
{
	const struct agx_glsl_token *v = l->tokens->v;
	size_t j = next_solid(l, *i + 1);

	if (j < l->tokens->count && agx_glsl_token_is(&v[j], "="))
		j = next_solid(l, j + 1);
	if (j >= l->tokens->count || v[j].kind != AGX_GLSL_TOKEN_NUMBER)
		return -1;
	*i = j;
	return agx_glsl_token_number(&v[j]);
}

/* The global declaration from token i to its ';' (or the end); *i is left past it. */
static void read_global_decl(const struct lowering *l, size_t *i, struct global_decl *d)
{
	const struct agx_glsl_token *v = l->tokens->v;
	size_t n = l->tokens->count, j = next_solid(l, *i);
	unsigned paren = 0, brace = 0, bracket = 0;
	bool in_layout = false;

	*d = (struct global_decl){
		.first = j, .name = SIZE_MAX, .location = -1, .size = 1, .declarators = 1
	};
	for (; j < n; j++) {
		const struct agx_glsl_token *t = &v[j];

		if (t->kind == AGX_GLSL_TOKEN_DIRECTIVE && !paren && !brace)
			break;
		if (agx_glsl_token_is(t, "(")) {
			paren++;
		} else if (agx_glsl_token_is(t, ")")) {
			paren -= paren > 0;
			in_layout &= paren > 0;
		} else if (agx_glsl_token_is(t, "{")) {
			brace++;
			d->out = false; /* a function or a block: no output of ours */
		} else if (agx_glsl_token_is(t, "}")) {
			brace -= brace > 0;
			if (!brace && !paren)
				break;
		} else if (agx_glsl_token_is(t, "[")) {
			bracket++;
			if (bracket == 1 && !paren && !brace) {
				size_t k = next_solid(l, j + 1);

				d->size = k < n && v[k].kind == AGX_GLSL_TOKEN_NUMBER
					      ? agx_glsl_token_number(&v[k])
					      : -1;
			}
		} else if (agx_glsl_token_is(t, "]")) {
			bracket -= bracket > 0;
		} else if (agx_glsl_token_is(t, ";") && !paren && !brace) {
			break;
		} else if (agx_glsl_token_is(t, ",") && !paren && !brace && !bracket) {
			d->declarators++;
		} else if (agx_glsl_token_is(t, "layout") && !paren) {
			in_layout = true;
		} else if (in_layout && agx_glsl_token_is(t, "location")) {
			d->layout_loc = true;
			d->location = number_after(l, &j);
		} else if (in_layout && agx_glsl_token_is(t, "index")) {
			d->index = number_after(l, &j);
		} else if (!paren && !brace && agx_glsl_token_is(t, "out")) {
			d->out = true;
		} else if (!paren && !brace && !bracket && t->kind == AGX_GLSL_TOKEN_IDENT) {
			d->name = j;
		}
	}
	*i = j;
}

static int place_outputs(struct lowering *l)
{
	struct global_decl *decls = NULL;
	size_t n = 0, cap = 0;
	unsigned outputs = 0, unplaced = 0;
	uint32_t used = 0;
	int ret = 0;

	for (size_t i = 0; i < l->tokens->count; i++) {
		struct global_decl d;

		if (l->tokens->v[i].kind == AGX_GLSL_TOKEN_DIRECTIVE || skippable(&l->tokens->v[i]))
			continue;
		read_global_decl(l, &i, &d);
		if (!d.out)
			continue;
		if (n == cap) {
			struct global_decl *grown;

			cap = cap ? 2 * cap : 8;
			grown = realloc(decls, cap * sizeof(*grown));
			if (!grown) {
				free(decls);
				return -ENOMEM;
			}
			decls = grown;
		}
		decls[n++] = d;
		outputs += d.declarators;
		if (!d.layout_loc)
			unplaced++;
		else if (d.index == 0 && d.location >= 0 && d.location < 32)
			for (long k = 0; k < (d.size > 0 ? d.size : 1) && d.location + k < 32; k++)
				used |= 1u << (d.location + k);
	}
	if (outputs < 2 || !unplaced)
		goto out;
	l->place = calloc(l->tokens->count, sizeof(*l->place));
	l->placed = calloc(unplaced, sizeof(*l->placed));
	if (!l->place || !l->placed) {
		ret = -ENOMEM;
		goto out;
	}
	for (size_t k = 0; k < n; k++) {
		const struct global_decl *d = &decls[k];
		long size = d->size > 0 ? d->size : 1;
		unsigned at = 0;
		uint32_t run = (size >= 32 ? ~0u : (1u << size) - 1);

		if (d->layout_loc || d->declarators > 1 || d->name == SIZE_MAX)
			continue;
		while (at + size <= AGX_GLSL_MAX_DRAW_BUFFERS && (used & (run << at)))
			at++;
		if (at + size > AGX_GLSL_MAX_DRAW_BUFFERS)
			continue; /* no room: glslang says what is wrong */
		used |= run << at;
		l->place[d->first] = at + 1;
		l->placed[l->num_placed] =
		    strndup(l->tokens->v[d->name].text, l->tokens->v[d->name].length);
		if (!l->placed[l->num_placed++]) {
			ret = -ENOMEM;
			goto out;
		}
	}
out:
	free(decls);
	return ret;
}

/* A name as the shader's own identifier would come out: rule 11 applies. */
static void emit_name(struct lowering *l, const char *name)
{
	struct agx_glsl_token t = { AGX_GLSL_TOKEN_IDENT, name, strlen(name), 0 };

	if (!lower_reserved(l, &t))
		agx_glsl_text_puts(&l->out, name);
}

/*
 * Rules 19 and 20, first in main()'s body, on its line: each 3.00 inout
 * output assigned itself, and gl_LastFragData's stand-in assigned the
 * outputs, all read before anything writes them -- what the back end
 * starts as the framebuffer's colour (a fragment output read before it is
 * written is undefined in GLSL ES, so that value is ours to give).  The
 * self-assignment also makes every component of an inout output stored,
 * as its value at entry is when the shader does not write it.
 */
static void emit_fetch_copies(struct lowering *l)
{
	const struct agx_glsl_fetch *f = l->fetch;

	for (unsigned k = 0; l->version == 300 && k < f->num_inout; k++) {
		agx_glsl_text_puts(&l->out, " ");
		emit_name(l, f->inout[k]);
		agx_glsl_text_puts(&l->out, " = ");
		emit_name(l, f->inout[k]);
		agx_glsl_text_puts(&l->out, ";");
	}
	if (l->version == 100 && l->fetch_source) {
		agx_glsl_text_puts(&l->out, " ");
		agx_glsl_text_puts(&l->out, f->last_frag_data);
		agx_glsl_text_puts(&l->out, " = ");
		agx_glsl_text_puts(&l->out, l->fetch_source);
		agx_glsl_text_puts(&l->out, ";");
	}
}

/* The "{" of main()'s definition at global scope, or SIZE_MAX. */
static size_t find_main_body(const struct lowering *l)
{
	const struct agx_glsl_token *v = l->tokens->v;
	size_t n = l->tokens->count;
	unsigned brace = 0;

	for (size_t i = 0; i < n; i++) {
		size_t open, body;

		if (agx_glsl_token_is(&v[i], "{"))
			brace++;
		else if (agx_glsl_token_is(&v[i], "}"))
			brace -= brace > 0;
		if (brace || !agx_glsl_token_is(&v[i], "main"))
			continue;
		open = next_solid(l, i + 1);
		if (open >= n || !agx_glsl_token_is(&v[open], "("))
			continue;
		body = next_solid(l, group_end(l, open) + 1);
		if (body < n && agx_glsl_token_is(&v[body], "{"))
			return body;
	}
	return SIZE_MAX;
}

/*
 * Rule 20: the uniform fetch.c declared for gl_LastFragData ("uniform
 * PRECISION vec4 NAME[...]") becomes a plain global: its "uniform" token,
 * or SIZE_MAX.
 */
static size_t find_last_frag_data_uniform(const struct lowering *l)
{
	const struct agx_glsl_token *v = l->tokens->v;

	for (size_t i = 0; i < l->tokens->count; i++) {
		size_t type, precision, uniform;

		if (!agx_glsl_token_is(&v[i], l->fetch->last_frag_data))
			continue;
		type = prev_solid(l, i);
		precision = type != SIZE_MAX ? prev_solid(l, type) : SIZE_MAX;
		uniform = precision != SIZE_MAX ? prev_solid(l, precision) : SIZE_MAX;
		if (uniform != SIZE_MAX && agx_glsl_token_is(&v[uniform], "uniform") &&
		    agx_glsl_token_is(&v[type], "vec4"))
			return uniform;
		return SIZE_MAX;
	}
	return SIZE_MAX;
}

/*
 * Rule 23: the declarations of a function agree on the precision of its
 * return type (GLSL ES 1.00 section 6.1: a prototype and the definition
 * match in it).  glslang checks the parameters' precisions but not the
 * return type's.  Declarations at global scope are read as "[QUALIFIER...]
 * TYPE NAME (PARAMETERS)" before ";" or "{"; a function is its name and
 * its parameters' types as spelled, so that two spellings of one
 * signature are two functions here and the check says nothing of them.
 */
enum precision_class { PRECISION_NONE, PRECISION_FLOAT, PRECISION_INT };

static enum precision_class precision_class(const struct agx_glsl_token *t)
{
	static const char *const floats[] = { "float", "vec2", "vec3", "vec4",
					      "mat2",  "mat3", "mat4" };
	static const char *const ints[] = { "int", "ivec2", "ivec3", "ivec4" };

	for (size_t k = 0; k < sizeof(floats) / sizeof(floats[0]); k++)
		if (agx_glsl_token_is(t, floats[k]))
			return PRECISION_FLOAT;
	for (size_t k = 0; k < sizeof(ints) / sizeof(ints[0]); k++)
		if (agx_glsl_token_is(t, ints[k]))
			return PRECISION_INT;
	return PRECISION_NONE;
}

static bool is_precision(const struct agx_glsl_token *t)
{
	return agx_glsl_token_is(t, "highp") || agx_glsl_token_is(t, "mediump") ||
	       agx_glsl_token_is(t, "lowp");
}

static bool is_parameter_qualifier(const struct agx_glsl_token *t)
{
	return is_precision(t) || agx_glsl_token_is(t, "const") || agx_glsl_token_is(t, "in") ||
	       agx_glsl_token_is(t, "out") || agx_glsl_token_is(t, "inout");
}

/*
 * The function's key: its name, then each parameter's type and array size
 * (qualifiers and names left out), "f(float,vec2[2])"; "(void)" is "()".
 */
static char *function_key(const struct lowering *l, size_t name, size_t open, size_t close)
{
	const struct agx_glsl_token *v = l->tokens->v;
	struct agx_glsl_text key = { 0 };
	bool typed = false;
	unsigned depth = 0;

	agx_glsl_text_add(&key, v[name].text, v[name].length);
	agx_glsl_text_puts(&key, "(");
	for (size_t i = open + 1; i < close; i++) {
		const struct agx_glsl_token *t = &v[i];

		if (skippable(t))
			continue;
		if (!depth && agx_glsl_token_is(t, ",")) {
			agx_glsl_text_puts(&key, ",");
			typed = false;
			continue;
		}
		if (agx_glsl_token_is(t, "[") || agx_glsl_token_is(t, "("))
			depth++;
		else if (agx_glsl_token_is(t, "]") || agx_glsl_token_is(t, ")"))
			depth -= depth > 0;
		/* the first word past the qualifiers is the type, a later one outside [] the name
		 */
		if (!depth && t->kind == AGX_GLSL_TOKEN_IDENT) {
			if (typed || is_parameter_qualifier(t))
				continue;
			typed = true;
		}
		agx_glsl_text_add(&key, t->text, t->length);
	}
	agx_glsl_text_puts(&key, ")");
	if (key.failed) {
		free(key.v);
		return NULL;
	}
	if (!strcmp(key.v + v[name].length, "(void)"))
		strcpy(key.v + v[name].length, "()");
	return key.v;
}

struct declared_function {
	char *key;
	const struct agx_glsl_token *precision; /* the effective precision, or NULL */
};

static int check_return_precision(struct lowering *l, char **error)
{
	const struct agx_glsl_token *v = l->tokens->v;
	size_t n = l->tokens->count, start = 0;
	/* the defaults at global scope: GLSL ES 1.00 section 4.5.3 */
	static const struct agx_glsl_token highp = { AGX_GLSL_TOKEN_IDENT, "highp", 5, 0 };
	static const struct agx_glsl_token mediump = { AGX_GLSL_TOKEN_IDENT, "mediump", 7, 0 };
	const struct agx_glsl_token *defaults[3] = { NULL,
						     l->stage == AGX_GLSL_VERTEX ? &highp : NULL,
						     l->stage == AGX_GLSL_VERTEX ? &highp
										 : &mediump };
	struct declared_function *seen = NULL;
	unsigned num_seen = 0, depth = 0;
	int ret = 0;

	*error = NULL;
	for (size_t i = 0; i < n && !ret; i++) {
		const struct agx_glsl_token *t = &v[i], *explicit = NULL, *effective;
		size_t open, close, after, words = 0;
		enum precision_class class = PRECISION_NONE;
		struct declared_function *f = NULL;
		char *key;

		if (skippable(t))
			continue;
		if (t->kind == AGX_GLSL_TOKEN_DIRECTIVE || agx_glsl_token_is(t, "{") ||
		    agx_glsl_token_is(t, "}") || agx_glsl_token_is(t, ";")) {
			if (agx_glsl_token_is(t, "{"))
				depth++;
			else if (agx_glsl_token_is(t, "}"))
				depth -= depth > 0;
			start = i + 1;
			continue;
		}
		if (depth)
			continue;
		/* "precision Q T;" at global scope sets T's default */
		if (i == next_solid(l, start) && agx_glsl_token_is(t, "precision")) {
			size_t q = next_solid(l, i + 1), type = next_solid(l, q + 1);

			if (type < n && is_precision(&v[q]) && precision_class(&v[type]))
				defaults[precision_class(&v[type])] = &v[q];
			continue;
		}
		open = next_solid(l, i + 1);
		if (t->kind != AGX_GLSL_TOKEN_IDENT || open >= n ||
		    !agx_glsl_token_is(&v[open], "("))
			continue;
		/* only words from the statement's start to the name: a declaration's header */
		for (size_t k = next_solid(l, start); k < i; k = next_solid(l, k + 1)) {
			if (v[k].kind != AGX_GLSL_TOKEN_IDENT) {
				words = 0;
				break;
			}
			if (is_precision(&v[k]))
				explicit = &v[k];
			class = precision_class(&v[k]);
			words++;
		}
		close = group_end(l, open);
		after = close < n ? next_solid(l, close + 1) : n;
		if (!words || after >= n ||
		    !(agx_glsl_token_is(&v[after], ";") || agx_glsl_token_is(&v[after], "{"))) {
			i = close < n ? close : n;
			continue;
		}
		effective = explicit ? explicit : defaults[class];
		key = function_key(l, i, open, close);
		if (!key) {
			ret = -ENOMEM;
			break;
		}
		for (unsigned k = 0; k < num_seen; k++)
			if (!strcmp(seen[k].key, key))
				f = &seen[k];
		if (!f) {
			struct declared_function *grown =
			    realloc(seen, (num_seen + 1) * sizeof(*seen));

			if (!grown) {
				free(key);
				ret = -ENOMEM;
				break;
			}
			seen = grown;
			seen[num_seen++] =
			    (struct declared_function){ key, class ? effective : NULL };
		} else {
			if (class && f->precision && effective &&
			    !(f->precision->length == effective->length &&
			      !memcmp(f->precision->text, effective->text, effective->length))) {
				*error = agx_glsl_format(
				    "ERROR: 0:%u: '%.*s' : return precision %.*s differs from "
				    "the %.*s of an earlier declaration (GLSL ES 1.00 section "
				    "6.1)\n",
				    t->line, (int)t->length, t->text, (int)effective->length,
				    effective->text, (int)f->precision->length, f->precision->text);
				ret = *error ? -EINVAL : -ENOMEM;
			}
			free(key);
		}
		i = close;
	}
	for (unsigned k = 0; k < num_seen; k++)
		free(seen[k].key);
	free(seen);
	return ret;
}

static void lower_tokens(struct lowering *l)
{
	struct layout_state layout = { 0 };

	for (size_t i = 0; i < l->tokens->count; i++) {
		const struct agx_glsl_token *t = &l->tokens->v[i];

		if (l->place && l->place[i]) {
			char text[48];

			snprintf(text, sizeof(text), "layout(location = %u) ", l->place[i] - 1);
			agx_glsl_text_puts(&l->out, text);
		}
		if (t->kind == AGX_GLSL_TOKEN_DIRECTIVE) {
			emit_directive(l, t);
			continue;
		}
		if (i == l->drop_uniform)
			continue;
		if (i == l->main_body) {
			emit_token(l, t);
			emit_fetch_copies(l);
			continue;
		}
		if (l->version == 300 && lower_300_layout(l, &layout, t))
			continue;
		if (t->kind != AGX_GLSL_TOKEN_IDENT) {
			emit_token(l, t);
			continue;
		}
		if (l->version == 100 && lower_100_ident(l, &i))
			continue;
		if (!lower_reserved(l, t))
			emit_token(l, t);
	}
}

int agx_glsl_lower(enum agx_glsl_stage stage, int version, const char *text, size_t length,
		   const struct agx_glsl_fetch *fetch, struct agx_glsl_lowered *out)
{
	struct agx_glsl_tokens tokens;
	struct lowering l = { .stage = stage,
			      .version = version,
			      .tokens = &tokens,
			      .fetch = fetch,
			      .main_body = SIZE_MAX,
			      .drop_uniform = SIZE_MAX };
	bool last_frag_data =
	    stage == AGX_GLSL_FRAGMENT && version == 100 && fetch && fetch->last_frag_data;
	const struct agx_glsl_token *color, *data;
	bool secondary_color, secondary_data;
	int ret;

	memset(out, 0, sizeof(*out));
	if ((version != 100 && version != 300) ||
	    (stage != AGX_GLSL_VERTEX && stage != AGX_GLSL_FRAGMENT))
		return -ENOTSUP;
	ret = agx_glsl_tokenize(text, length, &tokens);
	if (ret)
		return ret;
	l.reserved_name = calloc(agx_glsl_num_reserved, sizeof(*l.reserved_name));
	ret = l.reserved_name ? scan_idents(&l, &color, &data, &secondary_color, &secondary_data)
			      : -ENOMEM;
	if (ret)
		goto out;

	if (version == 100 && stage == AGX_GLSL_FRAGMENT && (color || data) &&
	    (secondary_color || secondary_data)) {
		struct output_writes w;
		const struct agx_glsl_token *a, *b;

		ret = find_output_writes(&l, &w);
		if (ret)
			goto out;
		/* EXT_blend_func_extended: the pairs are FragColor's and FragData's */
		a = w.color && w.secondary_data ? w.color : w.data;
		b = w.color && w.secondary_data ? w.secondary_data : w.secondary_color;
		if (a && b) {
			const struct agx_glsl_token *later = a > b ? a : b;

			out->error = agx_glsl_format(
			    "ERROR: 0:%u: '%.*s' : a shader writing gl_FragColor writes "
			    "gl_SecondaryFragColorEXT, one writing gl_FragData "
			    "gl_SecondaryFragDataEXT (EXT_blend_func_extended)\n",
			    later->line, (int)later->length, later->text);
			ret = out->error ? -EINVAL : -ENOMEM;
			goto out;
		}
	}
	if (version == 100 && stage == AGX_GLSL_FRAGMENT && color && data) {
		struct output_writes w;

		ret = find_output_writes(&l, &w);
		if (ret)
			goto out;
		/* GLSL ES 1.00 section 7.2; glslang does not check it */
		if (w.color && w.data) {
			const struct agx_glsl_token *later = w.color > w.data ? w.color : w.data;

			out->error = agx_glsl_format(
			    "ERROR: 0:%u: '%.*s' : a shader writes gl_FragColor or gl_FragData, "
			    "not both (GLSL ES 1.00 section 7.2)\n",
			    later->line, (int)later->length, later->text);
			ret = out->error ? -EINVAL : -ENOMEM;
			goto out;
		}
		/* the one never written is no output: 3.10 would want locations for two */
		l.frag_color_out = w.color != NULL;
		l.frag_data_out = w.data != NULL;
	} else {
		l.frag_color_out = l.frag_data_out = true;
	}
	if (version == 100 && stage == AGX_GLSL_FRAGMENT) {
		if (color)
			l.frag_color = rename_to(&l, "gl_FragColor", 12);
		if (data)
			l.frag_data = rename_to(&l, "gl_FragData", 11);
	}
	/*
	 * Rule 20: gl_LastFragData copies the outputs of every location: the
	 * gl_FragData stand-in, or gl_FragColor's made an array of them
	 * (element 0 is gl_FragColor), or one of ours when the shader
	 * writes neither.
	 */
	if (last_frag_data) {
		if (!l.frag_data && !l.frag_color)
			l.frag_data = rename_to(&l, "gl_FragData", 11);
		if (l.frag_color && l.frag_color_out && !(l.frag_data && l.frag_data_out)) {
			l.frag_color_array = true;
			l.fetch_source = l.frag_color;
		} else {
			l.frag_data_out = true;
			l.fetch_source = l.frag_data;
		}
		l.drop_uniform = find_last_frag_data_uniform(&l);
	}
	/* without main() there is no program to fetch in (the link says so) */
	if (last_frag_data ||
	    (stage == AGX_GLSL_FRAGMENT && version == 300 && fetch && fetch->num_inout))
		l.main_body = find_main_body(&l);
	if (version == 300 && stage == AGX_GLSL_FRAGMENT && (ret = place_outputs(&l)) < 0)
		goto out;
	if (version == 100 && stage == AGX_GLSL_FRAGMENT) {
		if (secondary_color)
			l.secondary_color = rename_to(&l, "gl_SecondaryFragColorEXT", 24);
		if (secondary_data)
			l.secondary_data = rename_to(&l, "gl_SecondaryFragDataEXT", 23);
	}
	if (version == 100 && (ret = check_return_precision(&l, &out->error)) < 0)
		goto out;
	emit_prologue(&l);
	lower_tokens(&l);
	if (l.failed || l.out.failed) {
		ret = -ENOMEM;
		goto out;
	}
	/*
	 * GLSL ES 1.00 section 4.6.4: "It is an error to declare
	 * gl_FrontFacing as invariant" (its invariance is gl_Position's);
	 * glslang does not check it
	 */
	if (l.front_facing_invariant_line) {
		out->error = agx_glsl_format("ERROR: 0:%u: 'invariant' : gl_FrontFacing cannot be "
					     "declared invariant (GLSL ES 1.00 section 4.6.4)\n",
					     l.front_facing_invariant_line);
		ret = out->error ? -EINVAL : -ENOMEM;
		goto out;
	}
	/* GLSL ES 3.00 section 4.6.1 (1.00 allows it); glslang does not check it */
	if (l.invariant_all && version == 300 && stage == AGX_GLSL_FRAGMENT) {
		out->error = agx_glsl_format("ERROR: 0:%u: '#pragma' : STDGL invariant(all) is not "
					     "allowed in a fragment shader (GLSL ES 3.00 section "
					     "4.6.1)\n",
					     l.invariant_all_line);
		ret = out->error ? -EINVAL : -ENOMEM;
		goto out;
	}
	out->source = l.out.v;
	out->length = l.out.length;
	out->renames = l.renames.v;
	out->num_renames = l.renames.count;
	out->invariant_all = l.invariant_all;
	out->placed = l.placed;
	out->num_placed = l.num_placed;
	l.out.v = NULL;
	l.renames.v = NULL;
	l.renames.count = 0;
	l.placed = NULL;
	l.num_placed = 0;
out:
	for (unsigned i = 0; i < l.num_placed; i++)
		free(l.placed[i]);
	free(l.placed);
	free(l.place);
	for (unsigned i = 0; i < l.renames.count; i++) {
		free(l.renames.v[i].original);
		free(l.renames.v[i].lowered);
	}
	free(l.renames.v);
	free(l.out.v);
	free(l.reserved_name);
	free(l.idents);
	agx_glsl_tokens_finish(&tokens);
	return ret;
}

void agx_glsl_lowered_finish(struct agx_glsl_lowered *l)
{
	for (unsigned i = 0; i < l->num_renames; i++) {
		free(l->renames[i].original);
		free(l->renames[i].lowered);
	}
	free(l->renames);
	for (unsigned i = 0; i < l->num_placed; i++)
		free(l->placed[i]);
	free(l->placed);
	free(l->source);
	free(l->error);
	memset(l, 0, sizeof(*l));
}
