/*
 * names.c: object namespaces (names.h), a chained hash table from name to
 * object that doubles when it fills.
 */
#include <errno.h>
#include <stdlib.h>

#include "names.h"

struct gles_name_entry {
	struct gles_name_entry *next;
	GLuint name;
	void *object; /* NULL: reserved */
};

static unsigned bucket(const struct gles_names *names, GLuint name)
{
	/* Knuth's multiplicative hash: consecutive names spread over the buckets */
	return (unsigned)((name * 2654435761u) % names->num_buckets);
}

void gles_names_init(struct gles_names *names)
{
	*names = (struct gles_names){ .next = 1 };
}

void gles_names_finish(struct gles_names *names)
{
	for (unsigned b = 0; b < names->num_buckets; b++) {
		struct gles_name_entry *e = names->buckets[b], *next;

		for (; e; e = next) {
			next = e->next;
			free(e);
		}
	}
	free(names->buckets);
	*names = (struct gles_names){ .next = 1 };
}

static struct gles_name_entry *find(const struct gles_names *names, GLuint name)
{
	if (!names->num_buckets)
		return NULL;
	for (struct gles_name_entry *e = names->buckets[bucket(names, name)]; e; e = e->next)
		if (e->name == name)
			return e;
	return NULL;
}

static int grow(struct gles_names *names)
{
	unsigned n = names->num_buckets ? names->num_buckets * 2 : 64;
	struct gles_name_entry **buckets = calloc(n, sizeof(*buckets));
	struct gles_names grown = { .buckets = buckets, .num_buckets = n };

	if (!buckets)
		return -ENOMEM;
	for (unsigned b = 0; b < names->num_buckets; b++) {
		struct gles_name_entry *e = names->buckets[b], *next;

		for (; e; e = next) {
			unsigned to = bucket(&grown, e->name);

			next = e->next;
			e->next = buckets[to];
			buckets[to] = e;
		}
	}
	free(names->buckets);
	names->buckets = buckets;
	names->num_buckets = n;
	return 0;
}

static int insert(struct gles_names *names, GLuint name, void *object)
{
	struct gles_name_entry *e;
	unsigned b;

	if (names->count >= names->num_buckets && grow(names) < 0)
		return -ENOMEM;
	e = malloc(sizeof(*e));
	if (!e)
		return -ENOMEM;
	b = bucket(names, name);
	*e = (struct gles_name_entry){ .next = names->buckets[b], .name = name, .object = object };
	names->buckets[b] = e;
	names->count++;
	return 0;
}

int gles_names_gen(struct gles_names *names, unsigned n, GLuint *out)
{
	for (unsigned i = 0; i < n; i++) {
		/* the names below next are mostly taken: look above it, wrapping past 0 */
		while (names->next == 0 || find(names, names->next))
			names->next++;
		if (insert(names, names->next, NULL) < 0) {
			while (i--)
				gles_names_remove(names, out[i]);
			return -ENOMEM;
		}
		out[i] = names->next++;
	}
	return 0;
}

bool gles_names_used(const struct gles_names *names, GLuint name)
{
	return name && find(names, name);
}

void *gles_names_lookup(const struct gles_names *names, GLuint name)
{
	struct gles_name_entry *e = name ? find(names, name) : NULL;

	return e ? e->object : NULL;
}

int gles_names_set(struct gles_names *names, GLuint name, void *object)
{
	struct gles_name_entry *e = find(names, name);

	if (e) {
		e->object = object;
		return 0;
	}
	return insert(names, name, object);
}

void *gles_names_remove(struct gles_names *names, GLuint name)
{
	struct gles_name_entry **p;
	void *object;

	if (!names->num_buckets)
		return NULL;
	for (p = &names->buckets[bucket(names, name)]; *p; p = &(*p)->next) {
		struct gles_name_entry *e = *p;

		if (e->name == name) {
			*p = e->next;
			object = e->object;
			free(e);
			names->count--;
			return object;
		}
	}
	return NULL;
}

void gles_names_foreach(const struct gles_names *names, void (*fn)(void *object, void *data),
			void *data)
{
	for (unsigned b = 0; b < names->num_buckets; b++)
		for (struct gles_name_entry *e = names->buckets[b]; e; e = e->next)
			if (e->object)
				fn(e->object, data);
}
