/*
 * source.c: what the front end checks in a shader's text before glslang
 * reads it, and in glslang's preprocessed code before it parses: the
 * #version line (the gate on versions), and the limits that keep glslang
 * from reading files or recursing past its stack (docs/compiler.md,
 * "Limits").
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "glsl/lower.h"

/* Skips blanks, newlines, comments and line continuations from *i. */
static void skip_blanks(const char *s, size_t n, size_t *i, bool newlines)
{
	while (*i < n) {
		char c = s[*i];

		if (c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f' ||
		    (newlines && c == '\n')) {
			(*i)++;
		} else if (c == '\\' && *i + 1 < n && s[*i + 1] == '\n') {
			*i += 2;
		} else if (c == '/' && *i + 1 < n && s[*i + 1] == '/') {
			while (*i < n && s[*i] != '\n')
				(*i)++;
		} else if (c == '/' && *i + 1 < n && s[*i + 1] == '*') {
			*i += 2;
			while (*i + 1 < n && !(s[*i] == '*' && s[*i + 1] == '/'))
				(*i)++;
			*i = *i + 2 < n ? *i + 2 : n;
		} else {
			return;
		}
	}
}

static bool is_word_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
	       c == '_';
}

/*
 * Reads the #version directive, if the first thing in s (after blanks and
 * comments) is one: *start and *end bound it, from '#' to its newline.
 */
static int scan_version(const char *s, size_t n, char *profile, size_t profile_size, size_t *start,
			size_t *end)
{
	size_t i = 0, word;
	long version = 0;

	if (profile_size)
		profile[0] = '\0';
	*start = *end = 0;
	skip_blanks(s, n, &i, true);
	if (i == n || s[i] != '#')
		return 100;
	word = i++;
	skip_blanks(s, n, &i, false);
	if (n - i < 7 || memcmp(s + i, "version", 7) || (n - i > 7 && is_word_char(s[i + 7])))
		return 100; /* another directive first: glslang judges a later #version */
	i += 7;
	*start = word;
	for (*end = i; *end < n && s[*end] != '\n'; ++*end) {
		if (s[*end] == '\\' && *end + 1 < n && s[*end + 1] == '\n')
			++*end;
	}
	skip_blanks(s, n, &i, false);
	if (i == n || s[i] < '0' || s[i] > '9')
		return 0;
	while (i < n && s[i] >= '0' && s[i] <= '9') {
		version = version * 10 + (s[i++] - '0');
		if (version > 100000)
			return 0;
	}
	if (i < n && is_word_char(s[i]))
		return 0;
	skip_blanks(s, n, &i, false);
	word = i;
	while (i < n && is_word_char(s[i]))
		i++;
	if (profile_size && i - word < profile_size) {
		memcpy(profile, s + word, i - word);
		profile[i - word] = '\0';
	}
	return (int)version;
}

int agx_glsl_source_version(const char *s, size_t n, char *profile, size_t profile_size)
{
	size_t start, end;

	return scan_version(s, n, profile, profile_size, &start, &end);
}

char *agx_glsl_source_version_first(const char *s, size_t n)
{
	size_t start, end;
	unsigned next_line = 2;
	char *out;

	scan_version(s, n, NULL, 0, &start, &end);
	if (!start)
		return strndup(s, n);
	for (size_t i = 0; i < end; i++)
		next_line += s[i] == '\n';
	if (end == n)
		return agx_glsl_format("%.*s\n", (int)(end - start), s + start);
	out = agx_glsl_format("%.*s\n#line %u%.*s", (int)(end - start), s + start, next_line,
			      (int)(n - end), s + end);
	return out;
}

static bool ident_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
	       c == '_';
}

static size_t blanks(const char *s, size_t i)
{
	while (s[i] == ' ' || s[i] == '\t')
		i++;
	return i;
}

/* At s + i (the "defined" operator's end): its operand's span end, if a built-in macro. */
static size_t builtin_operand(const char *s, size_t i)
{
	static const char *const names[] = { "__VERSION__", "__LINE__", "__FILE__" };
	bool paren;

	i = blanks(s, i);
	paren = s[i] == '(';
	if (paren)
		i = blanks(s, i + 1);
	for (unsigned k = 0; k < 3; k++) {
		size_t n = strlen(names[k]), j;

		if (strncmp(s + i, names[k], n) || ident_char(s[i + n]))
			continue;
		j = blanks(s, i + n);
		if (!paren)
			return i + n;
		if (s[j] == ')')
			return j + 1;
	}
	return 0;
}

void agx_glsl_source_defined_builtins(char *code)
{
	for (char *line = code; line && *line;
	     line = strchr(line, '\n'), line = line ? line + 1 : NULL) {
		size_t i = blanks(line, 0);

		if (line[i] != '#')
			continue;
		i = blanks(line, i + 1);
		if (strncmp(line + i, "if", 2) || ident_char(line[i + 2]))
			if (strncmp(line + i, "elif", 4) || ident_char(line[i + 4]))
				continue;
		for (; line[i] && line[i] != '\n'; i++) {
			size_t end;

			if (strncmp(line + i, "defined", 7) || ident_char(line[i + 7]) ||
			    (i && ident_char(line[i - 1])))
				continue;
			end = builtin_operand(line, i + 7);
			if (!end)
				continue;
			memset(line + i, ' ', end - i);
			line[i] = '1';
			i = end - 1;
		}
	}
}

/* A copy of s without its line continuations (backslash, newline). */
static char *splice(const char *s, size_t n, size_t *length)
{
	char *out = malloc(n + 1);
	size_t k = 0;

	if (!out)
		return NULL;
	for (size_t i = 0; i < n; i++) {
		if (s[i] == '\\' && i + 1 < n && s[i + 1] == '\n') {
			i++;
			continue;
		}
		if (s[i] == '\\' && i + 2 < n && s[i + 1] == '\r' && s[i + 2] == '\n') {
			i += 2;
			continue;
		}
		out[k++] = s[i];
	}
	out[k] = '\0';
	*length = k;
	return out;
}

static unsigned line_of(const char *s, size_t offset)
{
	unsigned line = 1;

	for (size_t i = 0; i < offset; i++)
		line += s[i] == '\n';
	return line;
}

/*
 * glslang's preprocessor reads an #include from the files around the
 * process when the shader enables one of these: no OpenGL ES extension,
 * and no shader of ours reads files.
 */
static const char *const include_extensions[] = {
	"GL_GOOGLE_include_directive",
	"GL_ARB_shading_language_include",
};

static bool check_includes(const char *s, size_t n, char **error)
{
	for (size_t k = 0; k < sizeof(include_extensions) / sizeof(include_extensions[0]); k++) {
		const char *at = memmem(s, n, include_extensions[k], strlen(include_extensions[k]));

		if (at) {
			*error =
			    agx_glsl_format("ERROR: 0:%u: '%s' : not supported: shaders do not "
					    "read files\n",
					    line_of(s, (size_t)(at - s)), include_extensions[k]);
			return false;
		}
	}
	return true;
}

/* Nesting of (, [ and { over tokens, which the caller keeps across calls. */
static bool nest(const struct agx_glsl_token *t, unsigned *depth)
{
	if (agx_glsl_token_is(t, "(") || agx_glsl_token_is(t, "[") || agx_glsl_token_is(t, "{"))
		return ++*depth <= AGX_GLSL_MAX_NESTING;
	if ((agx_glsl_token_is(t, ")") || agx_glsl_token_is(t, "]") || agx_glsl_token_is(t, "}")) &&
	    *depth)
		--*depth;
	return true;
}

static bool solid(const struct agx_glsl_token *t)
{
	return t->kind != AGX_GLSL_TOKEN_SPACE && t->kind != AGX_GLSL_TOKEN_NEWLINE &&
	       t->kind != AGX_GLSL_TOKEN_COMMENT;
}

/* One directive line's own nesting. */
static bool check_directive(const struct agx_glsl_token *d, char **error)
{
	struct agx_glsl_tokens tokens;
	unsigned depth = 0;
	bool ok = true;

	if (agx_glsl_tokenize(d->text + 1, d->length - 1, &tokens)) {
		*error = NULL;
		return false;
	}
	for (size_t i = 0; i < tokens.count && ok; i++) {
		if (solid(&tokens.v[i]) && !nest(&tokens.v[i], &depth)) {
			*error =
			    agx_glsl_format("ERROR: 0:%u: '' : more than %u nested (, [ or {\n",
					    d->line, AGX_GLSL_MAX_NESTING);
			ok = false;
		}
	}
	agx_glsl_tokens_finish(&tokens);
	return ok;
}

bool agx_glsl_source_check(const char *source, size_t length, char **error)
{
	struct agx_glsl_tokens tokens = { 0 };
	unsigned depth = 0;
	size_t n;
	char *s;
	bool ok = true;
	const char *nul;

	*error = NULL;
	if (length > AGX_GLSL_MAX_SOURCE) {
		*error = agx_glsl_format("ERROR: 0:0: '' : the source is longer than %u bytes\n",
					 AGX_GLSL_MAX_SOURCE);
		return false;
	}
	nul = memchr(source, '\0', length);
	if (nul) {
		*error = agx_glsl_format("ERROR: 0:%u: '' : a NUL character in the source\n",
					 line_of(source, (size_t)(nul - source)));
		return false;
	}
	s = splice(source, length, &n);
	if (!s)
		return false;
	if (!check_includes(s, n, error) || agx_glsl_tokenize(s, n, &tokens)) {
		free(s);
		return false;
	}
	for (size_t i = 0; i < tokens.count && ok; i++) {
		const struct agx_glsl_token *t = &tokens.v[i];

		if (t->kind == AGX_GLSL_TOKEN_DIRECTIVE) {
			ok = check_directive(t, error);
		} else if (!nest(t, &depth)) {
			*error =
			    agx_glsl_format("ERROR: 0:%u: '' : more than %u nested (, [ or {\n",
					    t->line, AGX_GLSL_MAX_NESTING);
			ok = false;
		}
	}
	if (ok)
		ok = agx_glsl_expansion_check(&tokens, error);
	agx_glsl_tokens_finish(&tokens);
	free(s);
	return ok;
}

bool agx_glsl_preprocessed_check(const char *code, size_t length, char **error)
{
	struct agx_glsl_tokens tokens;
	unsigned depth = 0;
	size_t run = 0;
	bool ok = true;

	*error = NULL;
	if (agx_glsl_tokenize(code, length, &tokens))
		return false;
	for (size_t i = 0; i < tokens.count && ok; i++) {
		const struct agx_glsl_token *t = &tokens.v[i];

		if (!solid(t) || t->kind == AGX_GLSL_TOKEN_DIRECTIVE)
			continue;
		if (agx_glsl_token_is(t, ";") || agx_glsl_token_is(t, "{") ||
		    agx_glsl_token_is(t, "}"))
			run = 0;
		else if (++run > AGX_GLSL_MAX_STATEMENT_TOKENS)
			ok = false;
		if (!ok) {
			*error = agx_glsl_format("ERROR: 0:%u: '' : a statement of more than %u "
						 "tokens\n",
						 t->line, AGX_GLSL_MAX_STATEMENT_TOKENS);
		} else if (!nest(t, &depth)) {
			*error =
			    agx_glsl_format("ERROR: 0:%u: '' : more than %u nested (, [ or {\n",
					    t->line, AGX_GLSL_MAX_NESTING);
			ok = false;
		}
	}
	agx_glsl_tokens_finish(&tokens);
	return ok;
}
