/*
 * extensions.c: the GLSL ES extensions the front end implements itself,
 * because glslang 12 does not know them ("extension not supported"):
 * before glslang reads a shader, their #extension lines go and their
 * built-ins become declarations of ours (docs/compiler.md, "Extensions
 * of our own").
 *
 * EXT_shader_framebuffer_fetch has a file of its own (fetch.c).
 *
 * GL_EXT_draw_buffers (GLSL ES 1.00): its gl_FragData[gl_MaxDrawBuffers]
 * of 8 is glslang's already; only its #extension lines go.
 *
 * GL_APPLE_clip_distance: a vertex shader writes gl_ClipDistance[i],
 * gl_MaxClipDistances (AGX_GLSL_MAX_CLIP_DISTANCES) of them; GL clips a
 * primitive to where distance i, interpolated, is >= 0, for each plane
 * the application enabled.  The line that enables the extension becomes the declaration
 * of agx_ClipDistance (on the same line: every line keeps its number),
 * gl_ClipDistance is spelled agx_ClipDistance from there on, and
 * gl_MaxClipDistances its value (in fragment shaders too, which have
 * the constant but not the array).  The compiler takes the vertex output
 * of that name as the clip distances (agx_spirv_memory.c).
 *
 * GL_EXT_clip_cull_distance (GLSL ES 3.00 only): gl_ClipDistance and
 * gl_CullDistance are unsized arrays, vertex outputs and fragment inputs,
 * sized by a redeclaration or by the largest constant index used.  The
 * enabling line declares agx_ClipDistance and agx_CullDistance (those the
 * shader does not redeclare) with AGX_GLSL_IMPLICIT_DISTANCES elements,
 * the largest size, for glslang's check; the built-ins are spelled ours
 * from there on, and their gl_Max* constants are numbers.  After the
 * preprocessor, distances.c gives each implicit array its size.  The
 * compiler culls with agx_CullDistance (agx_lower_cull.c).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "glsl/lower.h"

#define CLIP_EXTENSION	       "GL_APPLE_clip_distance"
#define CULL_EXTENSION	       "GL_EXT_clip_cull_distance"
#define DRAW_BUFFERS_EXTENSION "GL_EXT_draw_buffers"
#define STRING_(x)	       #x
#define STRING(x)	       STRING_(x)
#define CLIP_DISTANCES	       STRING(AGX_GLSL_MAX_CLIP_DISTANCES)

/* the macros of these and of fetch.c's EXT_shader_framebuffer_fetch (rule 17) */
#define MACROS                                                                                     \
	"#define " CLIP_EXTENSION " 1\n"                                                           \
	"#define " DRAW_BUFFERS_EXTENSION " 1\n"                                                   \
	"#define GL_EXT_shader_framebuffer_fetch 1\n"                                              \
	"#define GL_EXT_shader_framebuffer_fetch_non_coherent 1\n"

const char *agx_glsl_extension_macros(int version)
{
	/* EXT_clip_cull_distance is a 3.00 one: its macro is not there in 1.00 */
	return version == 300 ? MACROS "#define " CULL_EXTENSION " 1\n" : MACROS;
}

/* Directive words (lower.h) */

static bool is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
}

static bool is_ident_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
	       c == '_';
}

size_t agx_glsl_directive_word(const char **p, const char *end)
{
	const char *s = *p;
	size_t n = 0;

	while (s < end && (is_blank(*s) || (*s == '\\' && s + 1 < end && s[1] == '\n')))
		s += *s == '\\' ? 2 : 1;
	if (s < end && !is_ident_char(*s))
		n = 1; /* ":" of "NAME:BEHAVIOR" too: a word of its own */
	else
		while (s + n < end && is_ident_char(s[n]))
			n++;
	*p = s;
	return n;
}

bool agx_glsl_word_is(const char *p, size_t n, const char *s)
{
	return n == strlen(s) && !memcmp(p, s, n);
}

bool agx_glsl_extension_line(const struct agx_glsl_token *t, const char *name,
			     const char **behavior, size_t *length, bool *rest)
{
	const char *p = t->text + 1, *end = t->text + t->length;
	size_t n = agx_glsl_directive_word(&p, end);

	if (!agx_glsl_word_is(p, n, "extension"))
		return false;
	p += n;
	n = agx_glsl_directive_word(&p, end);
	if (!agx_glsl_word_is(p, n, name))
		return false;
	p += n;
	n = agx_glsl_directive_word(&p, end);
	if (!agx_glsl_word_is(p, n, ":"))
		return false;
	p += n;
	*length = agx_glsl_directive_word(&p, end);
	*behavior = p;
	p += *length;
	*rest = agx_glsl_directive_word(&p, end) != 0;
	return true;
}

/*
 * A directive "#extension NAME : BEHAVIOR" of extension name: 1 when it
 * enables it (require, enable, warn), 0 when it disables it, -1 when it
 * is another directive, another extension's, or not well formed (glslang
 * then says what is wrong with it).
 */
static int extension_directive(const struct agx_glsl_token *t, const char *name)
{
	const char *b;
	size_t n;
	bool rest;

	if (!agx_glsl_extension_line(t, name, &b, &n, &rest) || rest)
		return -1;
	if (agx_glsl_word_is(b, n, "require") || agx_glsl_word_is(b, n, "enable") ||
	    agx_glsl_word_is(b, n, "warn"))
		return 1;
	return agx_glsl_word_is(b, n, "disable") ? 0 : -1;
}

/* Whether the identifier at tokens[k] follows the type "float" (a declaration of it). */
static bool declared(const struct agx_glsl_tokens *tokens, size_t k)
{
	while (k-- > 0) {
		const struct agx_glsl_token *t = &tokens->v[k];

		if (t->kind == AGX_GLSL_TOKEN_SPACE || t->kind == AGX_GLSL_TOKEN_NEWLINE ||
		    t->kind == AGX_GLSL_TOKEN_COMMENT)
			continue;
		return agx_glsl_token_is(t, "float");
	}
	return false;
}

static bool declares(const struct agx_glsl_tokens *tokens, const char *name)
{
	for (size_t k = 0; k < tokens->count; k++)
		if (agx_glsl_token_is(&tokens->v[k], name) && declared(tokens, k))
			return true;
	return false;
}

/* What the enabling lines declare, once each. */
struct declarations {
	bool clip, cull; /* still to declare */
	bool marker;	 /* AGX_GLSL_IMPLICIT_DISTANCES declared */
};

static void declare_apple(struct agx_glsl_text *o, int version, struct declarations *d)
{
	if (!d->clip)
		return;
	agx_glsl_text_puts(o, version == 100
				  ? "varying highp float agx_ClipDistance[" CLIP_DISTANCES "];"
				  : "out highp float agx_ClipDistance[" CLIP_DISTANCES "];");
	d->clip = false;
}

static void declare_ext(struct agx_glsl_text *o, enum agx_glsl_stage stage, struct declarations *d)
{
	const char *q = stage == AGX_GLSL_VERTEX ? "out" : "in";

	/* once, and always: distances.c checks the sizes where it finds it */
	if (!d->marker)
		agx_glsl_text_puts(o, "const int " AGX_GLSL_IMPLICIT_DISTANCES " = " CLIP_DISTANCES
				      ";");
	d->marker = true;
	for (int i = 0; i < 2; i++) {
		if (!(i ? d->cull : d->clip))
			continue;
		agx_glsl_text_puts(o, q);
		agx_glsl_text_puts(o, i ? " highp float agx_CullDistance["
					: " highp float agx_ClipDistance[");
		agx_glsl_text_puts(o, AGX_GLSL_IMPLICIT_DISTANCES "];");
	}
	d->clip = d->cull = false;
}

int agx_glsl_source_extensions(enum agx_glsl_stage stage, int version, char **code)
{
	struct agx_glsl_tokens tokens;
	struct agx_glsl_text o = { 0 };
	/* APPLE_clip_distance's array is the vertex shader's; EXT_clip_cull_distance's both stages'
	 */
	bool apple = false, ext = false;
	struct declarations d;
	int ret;

	if (stage == AGX_GLSL_COMPUTE ||
	    (!strstr(*code, CLIP_EXTENSION) && !strstr(*code, DRAW_BUFFERS_EXTENSION) &&
	     (version != 300 || !strstr(*code, CULL_EXTENSION))))
		return 0;
	ret = agx_glsl_tokenize(*code, strlen(*code), &tokens);
	if (ret)
		return ret;
	/* an array the shader declares itself (sized) needs no declaration of ours */
	d.clip = !declares(&tokens, "gl_ClipDistance");
	d.cull = !declares(&tokens, "gl_CullDistance");
	d.marker = false;
	for (size_t k = 0; k < tokens.count; k++) {
		const struct agx_glsl_token *t = &tokens.v[k];
		bool on = apple || ext;
		int e;

		if (t->kind == AGX_GLSL_TOKEN_DIRECTIVE &&
		    extension_directive(t, DRAW_BUFFERS_EXTENSION) >= 0) {
			continue; /* gl_FragData[gl_MaxDrawBuffers] is there already */
		} else if (t->kind == AGX_GLSL_TOKEN_DIRECTIVE &&
			   (e = extension_directive(t, CLIP_EXTENSION)) >= 0) {
			if (e && stage == AGX_GLSL_VERTEX)
				declare_apple(&o, version, &d);
			apple = e;
		} else if (version == 300 && t->kind == AGX_GLSL_TOKEN_DIRECTIVE &&
			   (e = extension_directive(t, CULL_EXTENSION)) >= 0) {
			if (e)
				declare_ext(&o, stage, &d);
			ext = e;
		} else if (((apple && stage == AGX_GLSL_VERTEX) || ext) &&
			   agx_glsl_token_is(t, "gl_ClipDistance")) {
			agx_glsl_text_puts(&o, "agx_ClipDistance");
		} else if (ext && agx_glsl_token_is(t, "gl_CullDistance")) {
			agx_glsl_text_puts(&o, "agx_CullDistance");
		} else if (on && agx_glsl_token_is(t, "gl_MaxClipDistances")) {
			agx_glsl_text_puts(&o, CLIP_DISTANCES);
		} else if (ext && (agx_glsl_token_is(t, "gl_MaxCullDistances") ||
				   agx_glsl_token_is(t, "gl_MaxCombinedClipAndCullDistances"))) {
			agx_glsl_text_puts(&o, CLIP_DISTANCES);
		} else {
			agx_glsl_text_add(&o, t->text, t->length);
		}
	}
	agx_glsl_tokens_finish(&tokens);
	if (o.failed || !o.v) {
		free(o.v);
		return o.failed ? -ENOMEM : 0;
	}
	free(*code);
	*code = o.v;
	return 0;
}
