/*
 * gl_table.c: the one list of the GL functions this driver implements,
 * which glvnd's libGLdispatch asks for by name (through the vendor's
 * getProcAddress) to fill the dispatch table that libGLESv2's entry points
 * jump through.  A name not here is not ours: glvnd gives the application
 * its no-op for it.
 */
#include <stdlib.h>
#include <string.h>

#include "context.h"
#include "gl_functions.h"

struct gl_proc {
	const char *name;
	void *func;
};

/* In strcmp order: gles_gl_proc() searches it by halves. */
static const struct gl_proc procs[] = {
	{ "glFinish", (void *)gles_Finish },	   { "glFlush", (void *)gles_Flush },
	{ "glGetError", (void *)gles_GetError },   { "glGetIntegerv", (void *)gles_GetIntegerv },
	{ "glGetString", (void *)gles_GetString }, { "glGetStringi", (void *)gles_GetStringi },
};

static int compare(const void *key, const void *entry)
{
	return strcmp(key, ((const struct gl_proc *)entry)->name);
}

void *gles_gl_proc(const char *name)
{
	const struct gl_proc *p =
	    bsearch(name, procs, sizeof(procs) / sizeof(procs[0]), sizeof(procs[0]), compare);

	return p ? p->func : NULL;
}

const char *gles_gl_proc_name(unsigned i)
{
	return i < sizeof(procs) / sizeof(procs[0]) ? procs[i].name : NULL;
}
