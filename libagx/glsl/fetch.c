/*
 * fetch.c: the shading-language part of EXT_shader_framebuffer_fetch and
 * EXT_shader_framebuffer_fetch_non_coherent, done on the shader's text
 * before glslang reads it: glslang 12 knows neither extension, and refuses
 * "#extension ... : require" of them, "inout" at global scope, and the
 * "noncoherent" layout.  Rules 17 to 20 in docs/compiler.md ("Front end").
 *
 * The #extension lines become blank lines (their newlines stay, and with
 * them every line's number).  A 3.00 fragment shader's global "inout"
 * output becomes "out", which glslang lets a shader read; its names go to
 * the lowering, which makes each start as the framebuffer's colour.  A
 * 1.00 fragment shader's gl_LastFragData becomes a uniform array of a name
 * of ours for the check, so that glslang refuses a write to it as it does
 * to any uniform, and the lowering makes it a copy of the outputs' first
 * values.  What the extensions forbid is left as it is for glslang to
 * refuse (inout on a vertex output or on gl_FragDepth, gl_LastFragData in
 * 3.00, a noncoherent layout without its extension), or refused here.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "glsl/lower.h"

static const char ext_coherent[] = "GL_EXT_shader_framebuffer_fetch";
static const char ext_non_coherent[] = "GL_EXT_shader_framebuffer_fetch_non_coherent";

/*
 * "#extension NAME : BEHAVIOR" of one of ours: 1 coherent, 2 non-coherent,
 * 0 another directive.  *enable says whether BEHAVIOR enables it.
 */
static int extension_directive(const struct agx_glsl_token *t, bool *enable)
{
	const char *b;
	size_t n;
	bool rest;
	int which;

	if (agx_glsl_extension_line(t, ext_coherent, &b, &n, &rest))
		which = 1;
	else if (agx_glsl_extension_line(t, ext_non_coherent, &b, &n, &rest))
		which = 2;
	else
		return 0;
	*enable = agx_glsl_word_is(b, n, "enable") || agx_glsl_word_is(b, n, "require") ||
		  agx_glsl_word_is(b, n, "warn");
	return which;
}

static bool skippable(const struct agx_glsl_token *t)
{
	return t->kind == AGX_GLSL_TOKEN_SPACE || t->kind == AGX_GLSL_TOKEN_NEWLINE ||
	       t->kind == AGX_GLSL_TOKEN_COMMENT;
}

/* The edit of the text: per token, NULL to keep it, or what it becomes ("" blanks it). */
struct edit {
	const struct agx_glsl_tokens *tokens;
	const char **to;
	size_t *stmt; /* the solid tokens of the global statement being read */
	size_t stmt_length;
	struct agx_glsl_fetch *f;
	int version;
	bool redeclared, redeclared_ok;
	const char *precision;
	char *error;
};

static const struct agx_glsl_token *tok(const struct edit *e, size_t k)
{
	return &e->tokens->v[e->stmt[k]];
}

static bool is_precision(const struct agx_glsl_token *t)
{
	return agx_glsl_token_is(t, "lowp") || agx_glsl_token_is(t, "mediump") ||
	       agx_glsl_token_is(t, "highp");
}

static int add_name(struct agx_glsl_fetch *f, const struct agx_glsl_token *t)
{
	char **grown = realloc(f->inout, (f->num_inout + 1) * sizeof(*grown));

	if (!grown)
		return -ENOMEM;
	f->inout = grown;
	f->inout[f->num_inout] = strndup(t->text, t->length);
	if (!f->inout[f->num_inout])
		return -ENOMEM;
	f->num_inout++;
	return 0;
}

/*
 * A 3.00 global declaration with "inout" (outside parentheses: not a
 * function's parameter).  Its declarators are the identifiers followed by
 * "[", "," or its end.
 */
static int inout_declaration(struct edit *e)
{
	size_t inout = SIZE_MAX, nc = SIZE_MAX, layout_open = SIZE_MAX, layout_close = SIZE_MAX;
	unsigned paren = 0, bracket = 0, names = 0;
	bool gl_name = false;

	for (size_t k = 0; k < e->stmt_length; k++) {
		const struct agx_glsl_token *t = tok(e, k);

		if (agx_glsl_token_is(t, "(")) {
			if (!paren && k && agx_glsl_token_is(tok(e, k - 1), "layout"))
				layout_open = k;
			paren++;
		} else if (agx_glsl_token_is(t, ")")) {
			paren -= paren > 0;
			if (!paren && layout_open != SIZE_MAX && layout_close == SIZE_MAX)
				layout_close = k;
		} else if (agx_glsl_token_is(t, "[")) {
			bracket++;
		} else if (agx_glsl_token_is(t, "]")) {
			bracket -= bracket > 0;
		} else if (!paren && !bracket && agx_glsl_token_is(t, "inout")) {
			inout = k;
		} else if (paren == 1 && layout_open != SIZE_MAX && layout_close == SIZE_MAX &&
			   agx_glsl_token_is(t, "noncoherent")) {
			nc = k;
		} else if (!paren && !bracket && t->kind == AGX_GLSL_TOKEN_IDENT &&
			   (k + 1 == e->stmt_length || agx_glsl_token_is(tok(e, k + 1), "[") ||
			    agx_glsl_token_is(tok(e, k + 1), ","))) {
			names++;
			gl_name |= t->length > 3 && !memcmp(t->text, "gl_", 3);
		}
	}
	/* not ours to take: glslang refuses inout at global scope, and gl_ names */
	if (inout == SIZE_MAX || !names || gl_name || (!e->f->coherent && !e->f->non_coherent) ||
	    (nc != SIZE_MAX && !e->f->non_coherent))
		return 0;
	if (nc == SIZE_MAX && !e->f->coherent) {
		const struct agx_glsl_token *t = tok(e, inout);

		e->error = agx_glsl_format(
		    "ERROR: 0:%u: 'inout' : a fetched output is layout(noncoherent) where only "
		    "GL_EXT_shader_framebuffer_fetch_non_coherent is enabled\n",
		    t->line);
		return e->error ? -EINVAL : -ENOMEM;
	}
	e->to[e->stmt[inout]] = "out";
	if (nc != SIZE_MAX) {
		/* the only qualifier: the whole layout(...) goes; else it and one comma */
		if (layout_close == nc + 1 && layout_open + 1 == nc) {
			for (size_t k = layout_open - 1; k <= layout_close; k++)
				e->to[e->stmt[k]] = "";
		} else {
			e->to[e->stmt[nc]] = "";
			if (agx_glsl_token_is(tok(e, nc + 1), ","))
				e->to[e->stmt[nc + 1]] = "";
			else if (agx_glsl_token_is(tok(e, nc - 1), ","))
				e->to[e->stmt[nc - 1]] = "";
		}
	}
	paren = bracket = 0;
	for (size_t k = 0; k < e->stmt_length; k++) {
		const struct agx_glsl_token *t = tok(e, k);
		int ret;

		paren += agx_glsl_token_is(t, "(");
		paren -= paren && agx_glsl_token_is(t, ")");
		bracket += agx_glsl_token_is(t, "[");
		bracket -= bracket && agx_glsl_token_is(t, "]");
		if (!paren && !bracket && t->kind == AGX_GLSL_TOKEN_IDENT &&
		    (k + 1 == e->stmt_length || agx_glsl_token_is(tok(e, k + 1), "[") ||
		     agx_glsl_token_is(tok(e, k + 1), ",")) &&
		    (ret = add_name(e->f, t)) < 0)
			return ret;
	}
	return 0;
}

/*
 * A 1.00 redeclaration of gl_LastFragData, to give it a precision (and, with
 * the non-coherent extension, the noncoherent layout):
 * "[layout(noncoherent)] [PRECISION] vec4 gl_LastFragData[gl_MaxDrawBuffers];"
 * The first one the enabled extensions allow goes, its precision kept;
 * anything else is left for glslang to refuse (layout is reserved in 1.00,
 * gl_ names may not be declared).
 */
static void last_frag_data_declaration(struct edit *e, size_t end)
{
	size_t k = 0, n = e->stmt_length;
	bool layout = false;
	const char *precision = "mediump";

	if (n >= 4 && agx_glsl_token_is(tok(e, 0), "layout") && agx_glsl_token_is(tok(e, 1), "(") &&
	    agx_glsl_token_is(tok(e, 2), "noncoherent") && agx_glsl_token_is(tok(e, 3), ")")) {
		layout = true;
		k = 4;
	}
	if (k < n && is_precision(tok(e, k))) {
		precision = agx_glsl_token_is(tok(e, k), "lowp")      ? "lowp"
			    : agx_glsl_token_is(tok(e, k), "mediump") ? "mediump"
								      : "highp";
		k++;
	}
	if (n - k != 5 || !agx_glsl_token_is(tok(e, k), "vec4") ||
	    !agx_glsl_token_is(tok(e, k + 1), "gl_LastFragData") ||
	    !agx_glsl_token_is(tok(e, k + 2), "[") || !agx_glsl_token_is(tok(e, k + 4), "]") ||
	    !(agx_glsl_token_is(tok(e, k + 3), "gl_MaxDrawBuffers") ||
	      (tok(e, k + 3)->kind == AGX_GLSL_TOKEN_NUMBER &&
	       agx_glsl_token_number(tok(e, k + 3)) == AGX_GLSL_MAX_DRAW_BUFFERS)))
		return;
	if (e->redeclared || !(layout ? e->f->non_coherent : e->f->coherent)) {
		e->redeclared = true;
		e->redeclared_ok = false;
		return;
	}
	e->redeclared = e->redeclared_ok = true;
	e->precision = precision;
	for (size_t j = e->stmt[0]; j <= end; j++)
		if (!skippable(&e->tokens->v[j]))
			e->to[j] = "";
}

static int statement(struct edit *e, enum agx_glsl_stage stage, size_t end)
{
	int ret = 0;

	if (stage == AGX_GLSL_FRAGMENT && e->version == 300)
		ret = inout_declaration(e);
	else if (stage == AGX_GLSL_FRAGMENT && e->version == 100)
		last_frag_data_declaration(e, end);
	e->stmt_length = 0;
	return ret;
}

/* Walks the global statements (the tokens between ";", "{", "}" and directives at depth 0). */
static int walk(struct edit *e, enum agx_glsl_stage stage)
{
	unsigned brace = 0;
	int ret;

	for (size_t i = 0; i < e->tokens->count; i++) {
		const struct agx_glsl_token *t = &e->tokens->v[i];
		bool enable;
		int which;

		if (t->kind == AGX_GLSL_TOKEN_DIRECTIVE) {
			which = extension_directive(t, &enable);
			if (which == 1)
				e->f->coherent = enable;
			else if (which == 2)
				e->f->non_coherent = enable;
			if (which)
				e->to[i] = "";
			if (!brace)
				e->stmt_length = 0;
			continue;
		}
		if (skippable(t))
			continue;
		if (agx_glsl_token_is(t, "{")) {
			brace++;
			e->stmt_length = 0;
		} else if (agx_glsl_token_is(t, "}")) {
			brace -= brace > 0;
			e->stmt_length = 0;
		} else if (!brace && agx_glsl_token_is(t, ";")) {
			if ((ret = statement(e, stage, i)) < 0)
				return ret;
		} else if (!brace) {
			e->stmt[e->stmt_length++] = i;
		}
	}
	return 0;
}

/* A name of ours the shader does not spell: agx_LastFragData, or with _2, _3 ... */
static char *fresh_name(const struct agx_glsl_tokens *tokens)
{
	char *name = agx_glsl_format("agx_LastFragData");

	for (unsigned n = 2; name; n++) {
		bool spelled = false;

		for (size_t i = 0; i < tokens->count && !spelled; i++)
			spelled = agx_glsl_token_is(&tokens->v[i], name);
		if (!spelled)
			return name;
		free(name);
		name = agx_glsl_format("agx_LastFragData_%u", n);
	}
	return NULL;
}

/* What a token becomes: gone but for its newlines (a directive's continuations), or to. */
static void put_token(const struct agx_glsl_token *t, const char *to, char **out)
{
	char *p = *out;

	if (!to) {
		memcpy(p, t->text, t->length);
		p += t->length;
	} else if (!*to) {
		for (size_t k = 0; k < t->length; k++)
			if (t->text[k] == '\n')
				*p++ = '\n';
	} else {
		memcpy(p, to, strlen(to));
		p += strlen(to);
	}
	*out = p;
}

/*
 * The text with the edits, and for gl_LastFragData the uniform that
 * stands for it declared after the #version line (or first), a #line
 * keeping the numbers.
 */
static int rebuild(struct edit *e, char **code, const char *declaration)
{
	const struct agx_glsl_tokens *tk = e->tokens;
	size_t size = strlen(*code) + strlen(declaration) + 32, first = 0, after = 0;
	bool version = false;
	char *out, *p;

	/* a stand-in's name may be longer than what it replaces */
	for (size_t i = 0; i < tk->count; i++)
		if (e->f->last_frag_data && agx_glsl_token_is(&tk->v[i], "gl_LastFragData"))
			size += strlen(e->f->last_frag_data);
	out = p = malloc(size);
	if (!out)
		return -ENOMEM;
	while (first < tk->count && tk->v[first].kind == AGX_GLSL_TOKEN_SPACE)
		first++;
	if (first < tk->count && tk->v[first].kind == AGX_GLSL_TOKEN_DIRECTIVE &&
	    tk->v[first].line == 1) {
		const char *q = tk->v[first].text + 1,
			   *end = tk->v[first].text + tk->v[first].length;
		size_t n = agx_glsl_directive_word(&q, end);

		version = agx_glsl_word_is(q, n, "version");
	}
	/* where the declaration goes: after the #version line's newline */
	if (version) {
		after = first + 1;
		if (after < tk->count && tk->v[after].kind == AGX_GLSL_TOKEN_NEWLINE)
			after++;
	}
	for (size_t i = 0; i <= tk->count; i++) {
		if (i == after && *declaration) {
			bool line_next = i < tk->count &&
					 tk->v[i].kind == AGX_GLSL_TOKEN_DIRECTIVE &&
					 !strncmp(tk->v[i].text, "#line", 5);
			char *text = line_next ? agx_glsl_format("%s\n", declaration)
					       : agx_glsl_format("%s\n#line %u\n", declaration,
								 version ? 2u : 1u);

			if (!text) {
				free(out);
				return -ENOMEM;
			}
			memcpy(p, text, strlen(text));
			p += strlen(text);
			free(text);
		}
		if (i < tk->count) {
			const char *to = e->to[i];

			if (!to && e->f->last_frag_data &&
			    agx_glsl_token_is(&tk->v[i], "gl_LastFragData"))
				to = e->f->last_frag_data;
			put_token(&tk->v[i], to, &p);
		}
	}
	*p = '\0';
	free(*code);
	*code = out;
	return 0;
}

int agx_glsl_fetch_prepare(enum agx_glsl_stage stage, int version, char **code,
			   struct agx_glsl_fetch *f, char **error)
{
	struct agx_glsl_tokens tokens;
	struct edit e = { .tokens = &tokens, .f = f, .version = version };
	char *declaration = NULL;
	bool uses = false;
	int ret;

	memset(f, 0, sizeof(*f));
	*error = NULL;
	if (stage == AGX_GLSL_COMPUTE || !strstr(*code, ext_coherent))
		return 0;
	if ((ret = agx_glsl_tokenize(*code, strlen(*code), &tokens)) < 0)
		return ret;
	e.to = calloc(tokens.count + 1, sizeof(*e.to));
	e.stmt = malloc((tokens.count + 1) * sizeof(*e.stmt));
	if (!e.to || !e.stmt) {
		ret = -ENOMEM;
		goto out;
	}
	if ((ret = walk(&e, stage)) < 0) {
		*error = e.error;
		goto out;
	}
	for (size_t i = 0; i < tokens.count && !uses; i++)
		uses = agx_glsl_token_is(&tokens.v[i], "gl_LastFragData") && !e.to[i];
	/* available: as redeclared, or undeclared with the coherent extension */
	if (stage == AGX_GLSL_FRAGMENT && version == 100 && uses &&
	    (e.redeclared ? e.redeclared_ok : f->coherent)) {
		f->last_frag_data = fresh_name(&tokens);
		declaration =
		    f->last_frag_data
			? agx_glsl_format("uniform %s vec4 %s[gl_MaxDrawBuffers];",
					  e.precision ? e.precision : "mediump", f->last_frag_data)
			: NULL;
		if (!declaration) {
			ret = -ENOMEM;
			goto out;
		}
	}
	ret = rebuild(&e, code, declaration ? declaration : "");
out:
	free(declaration);
	free(e.to);
	free(e.stmt);
	agx_glsl_tokens_finish(&tokens);
	return ret;
}

void agx_glsl_fetch_finish(struct agx_glsl_fetch *f)
{
	for (unsigned i = 0; i < f->num_inout; i++)
		free(f->inout[i]);
	free(f->inout);
	free(f->last_frag_data);
	memset(f, 0, sizeof(*f));
}
