/*
 * promtext.c: the Prometheus text format parser (promtext.h).  The body is
 * copied once; names and unescaped label values are cut out of the copy
 * in place, so a parse costs three growing arrays and one copy.
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "prom.h"
#include "promtext.h"

struct parser {
	struct promtext *doc;
	struct promtext_error *err;
	unsigned line;
	size_t cap_samples, cap_families, num_labels, cap_labels;
	/* the last family's lines seen so far: a second HELP or TYPE is refused */
	bool last_help, last_type;
};

static int fail(struct parser *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static int fail(struct parser *p, const char *fmt, ...)
{
	va_list ap;

	if (p->err) {
		p->err->line = p->line;
		va_start(ap, fmt);
		vsnprintf(p->err->message, sizeof(p->err->message), fmt, ap);
		va_end(ap);
	}
	return -EINVAL;
}

/* Makes room for one more element of size in *array. */
static bool grow(void **array, size_t count, size_t *cap, size_t size)
{
	void *bigger;
	size_t n;

	if (count < *cap)
		return true;
	n = *cap ? *cap * 2 : 16;
	bigger = realloc(*array, n * size);
	if (!bigger)
		return false;
	*array = bigger;
	*cap = n;
	return true;
}

static bool is_blank(char c)
{
	return c == ' ' || c == '\t';
}

static bool is_digit(char c)
{
	return c >= '0' && c <= '9';
}

/* [a-zA-Z_:][a-zA-Z0-9_:]* for metric names; label names have no colon. */
static bool is_name_start(char c, bool colon)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || (colon && c == ':');
}

static bool is_name_char(char c, bool colon)
{
	return is_name_start(c, colon) || is_digit(c);
}

static char *skip_blanks(char *s)
{
	while (is_blank(*s))
		s++;
	return s;
}

/* A whole token as Go's ParseFloat reads it in decimal, and the infinities and NaN. */
static bool parse_float(const char *s, double *v)
{
	const char *t = s;
	bool digits = false;
	char *end;

	if (*t == '+' || *t == '-')
		t++;
	if (!strcasecmp(t, "inf") || !strcasecmp(t, "infinity")) {
		*v = *s == '-' ? -INFINITY : INFINITY;
		return true;
	}
	if (t == s && !strcasecmp(t, "nan")) {
		*v = NAN;
		return true;
	}
	for (; is_digit(*t); t++)
		digits = true;
	if (*t == '.')
		for (t++; is_digit(*t); t++)
			digits = true;
	if (!digits)
		return false;
	if (*t == 'e' || *t == 'E') {
		t++;
		if (*t == '+' || *t == '-')
			t++;
		if (!is_digit(*t))
			return false;
		while (is_digit(*t))
			t++;
	}
	if (*t)
		return false;
	errno = 0;
	*v = strtod(s, &end);
	/* strtod is locale-dependent: it must have read what was checked above */
	return end == t && !(errno == ERANGE && isinf(*v));
}

static bool parse_int64(const char *s, int64_t *v)
{
	bool negative = *s == '-';
	uint64_t x = 0, limit = negative ? (uint64_t)INT64_MAX + 1 : (uint64_t)INT64_MAX;

	if (negative)
		s++;
	if (!*s)
		return false;
	for (; *s; s++) {
		if (!is_digit(*s) || x > (limit - (uint64_t)(*s - '0')) / 10)
			return false;
		x = x * 10 + (uint64_t)(*s - '0');
	}
	*v = negative ? (int64_t)(0 - x) : (int64_t)x;
	return true;
}

/* Unescapes in place from s up to the closing quote; *s then points past it. */
static int parse_label_value(struct parser *p, char **s, char **value)
{
	char *r = *s, *w = *s;

	*value = r;
	for (;;) {
		if (!*r)
			return fail(p, "a label value without its closing quote");
		if (*r == '"')
			break;
		if (*r != '\\') {
			*w++ = *r++;
			continue;
		}
		r++;
		if (*r == '\\' || *r == '"')
			*w++ = *r;
		else if (*r == 'n')
			*w++ = '\n';
		else if (!*r)
			return fail(p, "a label value without its closing quote");
		else
			return fail(p, "an escape \\%c in a label value (only \\\\, \\\" and \\n)",
				    *r);
		r++;
	}
	*w = '\0'; /* at or before the closing quote, already read */
	*s = r + 1;
	return 0;
}

/* Labels from just after '{' to just after '}', appended to the document's labels. */
static int parse_labels(struct parser *p, char **at, size_t *count)
{
	struct promtext *doc = p->doc;
	size_t first = p->num_labels;
	char *s = *at, *key, *key_end, *value;
	int ret;

	for (;;) {
		s = skip_blanks(s);
		if (*s == '}')
			break;
		key = s;
		if (!is_name_start(*s, false))
			return fail(p, "a label name must start with a letter or '_'");
		while (is_name_char(*s, false))
			s++;
		key_end = s;
		s = skip_blanks(s);
		if (*s != '=')
			return fail(p, "no '=' after the label name");
		*key_end = '\0';
		s = skip_blanks(s + 1);
		if (*s != '"')
			return fail(p, "the value of label %.32s is not quoted", key);
		s++;
		ret = parse_label_value(p, &s, &value);
		if (ret < 0)
			return ret;
		for (size_t i = first; i < p->num_labels; i++)
			if (!strcmp(doc->labels[i].key, key))
				return fail(p, "label %.32s given twice", key);
		if (p->num_labels - first == PROMTEXT_MAX_LABELS)
			return fail(p, "more than %d labels", PROMTEXT_MAX_LABELS);
		if (!grow((void **)&doc->labels, p->num_labels, &p->cap_labels,
			  sizeof(*doc->labels)))
			return -ENOMEM;
		doc->labels[p->num_labels++] = (struct promtext_label){ key, value };
		s = skip_blanks(s);
		if (*s == ',')
			s++;
		else if (*s != '}')
			return fail(p,
				    *s ? "no ',' or '}' after a label" : "no '}' after the labels");
	}
	*at = s + 1;
	*count = p->num_labels - first;
	return 0;
}

static int parse_sample(struct parser *p, char *s)
{
	struct promtext *doc = p->doc;
	struct promtext_sample sample = { .name = s, .line = p->line };
	char *end, c;
	int ret;

	if (!is_name_start(*s, true))
		return fail(p, "a line must start with a metric name or '#'");
	while (is_name_char(*s, true))
		s++;
	c = *s;
	if (c != '{' && !is_blank(c))
		return fail(p, c ? "a metric name may only hold letters, digits, '_' and ':'"
				 : "no value after the metric name");
	*s++ = '\0';
	if (c == '{') {
		ret = parse_labels(p, &s, &sample.num_labels);
		if (ret < 0)
			return ret;
		if (*s && !is_blank(*s))
			return fail(p, "no blank between the labels and the value");
	}
	s = skip_blanks(s);
	for (end = s; *end && !is_blank(*end); end++)
		;
	if (end == s)
		return fail(p, "no value");
	c = *end;
	*end = '\0';
	if (!parse_float(s, &sample.value))
		return fail(p, "the value \"%.32s\" is not a number", s);
	s = c ? skip_blanks(end + 1) : end;
	if (*s) {
		for (end = s; *end && !is_blank(*end); end++)
			;
		c = *end;
		*end = '\0';
		if (!parse_int64(s, &sample.timestamp))
			return fail(p, "the timestamp \"%.32s\" is not an integer", s);
		sample.has_timestamp = true;
		if (c && *skip_blanks(end + 1))
			return fail(p, "text after the timestamp");
	}
	if (!grow((void **)&doc->samples, doc->num_samples, &p->cap_samples, sizeof(sample)))
		return -ENOMEM;
	doc->samples[doc->num_samples++] = sample;
	return 0;
}

/* HELP text: \\ and \n are its escapes. */
static int unescape_help(struct parser *p, char *s)
{
	char *w = s;

	for (; *s; s++) {
		if (*s != '\\') {
			*w++ = *s;
			continue;
		}
		s++;
		if (*s == '\\')
			*w++ = '\\';
		else if (*s == 'n')
			*w++ = '\n';
		else
			return fail(p, "an escape \\%c in # HELP (only \\\\ and \\n)",
				    *s ? *s : ' ');
	}
	*w = '\0';
	return 0;
}

static int parse_type(struct parser *p, char *s, enum promtext_type *type)
{
	static const char *const names[] = {
		[PROMTEXT_UNTYPED] = "untyped", [PROMTEXT_COUNTER] = "counter",
		[PROMTEXT_GAUGE] = "gauge",	[PROMTEXT_HISTOGRAM] = "histogram",
		[PROMTEXT_SUMMARY] = "summary",
	};
	char *end;

	s = skip_blanks(s);
	for (end = s; *end && !is_blank(*end); end++)
		;
	if (*skip_blanks(end))
		return fail(p, "text after the type in # TYPE");
	*end = '\0';
	for (unsigned i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		if (!strcmp(s, names[i])) {
			*type = (enum promtext_type)i;
			return 0;
		}
	}
	return fail(p, "unknown type \"%.32s\" in # TYPE", s);
}

/* A comment; "# HELP name text" and "# TYPE name type" say something. */
static int parse_comment(struct parser *p, char *s)
{
	struct promtext *doc = p->doc;
	struct promtext_family *last;
	char *keyword = skip_blanks(s + 1), *name, *rest;
	enum promtext_type type = PROMTEXT_UNTYPED;
	bool help;
	int ret;

	for (s = keyword; *s && !is_blank(*s); s++)
		;
	if (s - keyword != 4 || (strncmp(keyword, "HELP", 4) && strncmp(keyword, "TYPE", 4)))
		return 0;
	help = keyword[0] == 'H';
	name = s = skip_blanks(s);
	if (!is_name_start(*s, true))
		return fail(p, "no metric name after # %s", help ? "HELP" : "TYPE");
	while (is_name_char(*s, true))
		s++;
	if (*s && !is_blank(*s))
		return fail(p, "a metric name may only hold letters, digits, '_' and ':'");
	rest = *s ? s + 1 : s;
	*s = '\0';
	if (help) {
		rest = skip_blanks(rest);
		ret = unescape_help(p, rest);
	} else {
		ret = parse_type(p, rest, &type);
	}
	if (ret < 0)
		return ret;

	last = doc->num_families ? &doc->families[doc->num_families - 1] : NULL;
	if (!last || strcmp(last->name, name)) {
		if (!grow((void **)&doc->families, doc->num_families, &p->cap_families,
			  sizeof(*doc->families)))
			return -ENOMEM;
		last = &doc->families[doc->num_families++];
		*last = (struct promtext_family){ .name = name, .type = PROMTEXT_UNTYPED };
		p->last_help = p->last_type = false;
	}
	if (help ? p->last_help : p->last_type)
		return fail(p, "a second # %s for %.40s", help ? "HELP" : "TYPE", name);
	if (help) {
		last->help = rest;
		p->last_help = true;
	} else {
		last->type = type;
		p->last_type = true;
	}
	return 0;
}

int promtext_parse(const char *data, size_t size, struct promtext *doc, struct promtext_error *err)
{
	struct parser p = { .doc = doc, .err = err };
	size_t offset = 0;
	int ret = 0;

	*doc = (struct promtext){ 0 };
	if (err)
		*err = (struct promtext_error){ 0 };
	doc->text = malloc(size + 1);
	if (!doc->text)
		goto nomem;
	memcpy(doc->text, data, size);
	doc->text[size] = '\0';

	while (offset < size && ret == 0) {
		char *line = doc->text + offset, *nl = memchr(line, '\n', size - offset), *s;
		size_t n = nl ? (size_t)(nl - line) : size - offset;

		p.line++;
		if (!nl) {
			ret = fail(&p, "the last line does not end with a line feed");
			break;
		}
		if (memchr(line, '\0', n)) {
			ret = fail(&p, "a NUL byte");
			break;
		}
		*nl = '\0';
		offset += n + 1;
		s = skip_blanks(line);
		if (*s == '#')
			ret = parse_comment(&p, s);
		else if (*s)
			ret = parse_sample(&p, s);
	}
	if (ret == -ENOMEM)
		goto nomem;
	if (ret < 0) {
		promtext_finish(doc);
		return ret;
	}

	/* every sample's labels follow the one before's */
	for (size_t i = 0, at = 0; i < doc->num_samples; i++) {
		struct promtext_sample *s = &doc->samples[i];

		s->labels = s->num_labels ? doc->labels + at : NULL;
		at += s->num_labels;
	}
	return 0;

nomem:
	promtext_finish(doc);
	if (err) {
		err->line = 0;
		snprintf(err->message, sizeof(err->message), "out of memory");
	}
	return -ENOMEM;
}

void promtext_finish(struct promtext *doc)
{
	free(doc->samples);
	free(doc->families);
	free(doc->labels);
	free(doc->text);
	*doc = (struct promtext){ 0 };
}

const char *promtext_label(const struct promtext_sample *s, const char *key)
{
	for (size_t i = 0; i < s->num_labels; i++)
		if (!strcmp(s->labels[i].key, key))
			return s->labels[i].value;
	return NULL;
}

/* Exactly labels, and skip (when not NULL) with any value besides. */
static bool has_labels(const struct promtext_sample *s, const char *const *labels, const char *skip)
{
	size_t n = 0, have = s->num_labels;

	if (skip && promtext_label(s, skip))
		have--;
	for (; labels && labels[2 * n]; n++) {
		const char *v = promtext_label(s, labels[2 * n]);

		if (!v || strcmp(v, labels[2 * n + 1]) || (skip && !strcmp(labels[2 * n], skip)))
			return false;
	}
	return n == have;
}

const struct promtext_sample *promtext_find(const struct promtext *doc, const char *name,
					    const char *const *labels)
{
	for (size_t i = 0; i < doc->num_samples; i++)
		if (!strcmp(doc->samples[i].name, name) &&
		    has_labels(&doc->samples[i], labels, NULL))
			return &doc->samples[i];
	return NULL;
}

static bool has_name(const struct promtext_sample *s, const char *name, size_t n,
		     const char *suffix)
{
	return !strncmp(s->name, name, n) && !strcmp(s->name + n, suffix);
}

/* name_sum or name_count, NaN when missing. */
static double suffixed(const struct promtext *doc, const char *name, const char *suffix,
		       const char *const *labels)
{
	size_t n = strlen(name);

	for (size_t i = 0; i < doc->num_samples; i++)
		if (has_name(&doc->samples[i], name, n, suffix) &&
		    has_labels(&doc->samples[i], labels, NULL))
			return doc->samples[i].value;
	return NAN;
}

int promtext_histogram_get(const struct promtext *doc, const char *name, const char *const *labels,
			   struct promtext_histogram *h)
{
	size_t n = strlen(name);

	h->num_buckets = 0;
	for (size_t i = 0; i < doc->num_samples; i++) {
		const struct promtext_sample *s = &doc->samples[i];
		const char *le;
		double bound;
		size_t at;

		if (!has_name(s, name, n, "_bucket") || !has_labels(s, labels, "le"))
			continue;
		le = promtext_label(s, "le");
		if (!le || !parse_float(le, &bound) || isnan(bound))
			return -EINVAL;
		if (h->num_buckets == PROMTEXT_MAX_BUCKETS)
			return -E2BIG;
		/* in order of their bounds, whatever the order of the lines */
		for (at = h->num_buckets; at > 0 && h->le[at - 1] >= bound; at--) {
			if (h->le[at - 1] == bound)
				return -EINVAL;
			h->le[at] = h->le[at - 1];
			h->cumulative[at] = h->cumulative[at - 1];
		}
		h->le[at] = bound;
		h->cumulative[at] = s->value;
		h->num_buckets++;
	}
	if (!h->num_buckets)
		return -ENOENT;
	h->sum = suffixed(doc, name, "_sum", labels);
	h->count = suffixed(doc, name, "_count", labels);
	return 0;
}

double promtext_histogram_quantile(const struct promtext_histogram *h, double q)
{
	return prom_quantile(q, h->le, h->cumulative, h->num_buckets);
}
