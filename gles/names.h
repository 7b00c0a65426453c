/*
 * names.h: one object namespace -- the map from GL names (unsigned
 * integers, 0 reserved) to objects that the Gen, Bind, Delete and Is
 * functions of a kind of object work on.  A name is free, reserved (returned by Gen*
 * but no object made yet: GLES 3.0 section 2.9.1, objects are created on
 * first bind) or names an object.  The caller serializes calls (the share
 * group's lock for shared kinds; a context's own namespaces need none).
 */
#ifndef GLES_NAMES_H
#define GLES_NAMES_H

#include <stdbool.h>

#include <GLES3/gl3.h>

struct gles_name_entry;

struct gles_names {
	struct gles_name_entry **buckets;
	unsigned num_buckets, count;
	GLuint next; /* where the search for an unused name starts */
};

void gles_names_init(struct gles_names *names);
/* Frees the table only: the objects are the caller's (gles_names_foreach first). */
void gles_names_finish(struct gles_names *names);

/* Reserves n unused names into out: 0 or -ENOMEM (nothing reserved then). */
int gles_names_gen(struct gles_names *names, unsigned n, GLuint *out);
/* Whether name is reserved or names an object. */
bool gles_names_used(const struct gles_names *names, GLuint name);
/* The object of name, NULL when it is free or only reserved. */
void *gles_names_lookup(const struct gles_names *names, GLuint name);
/* Makes name (reserved or not) name object: 0 or -ENOMEM. */
int gles_names_set(struct gles_names *names, GLuint name, void *object);
/* Frees name; returns the object it named (NULL if none). */
void *gles_names_remove(struct gles_names *names, GLuint name);
/* Calls fn for every object (not the reserved names). */
void gles_names_foreach(const struct gles_names *names, void (*fn)(void *object, void *data),
			void *data);

#endif
