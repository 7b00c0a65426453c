/*
 * extensions.c: the GL extensions this driver implements (extensions.h).
 * A name goes in the list once all of its extension works: everything it
 * adds to the API, with the errors it defines, and to the shading language.
 */
#include <stddef.h>

#include "extensions.h"

/* In the order glGetStringi gives them; none yet. */
static const char *const extensions[] = { NULL };
static const unsigned num_extensions = sizeof(extensions) / sizeof(extensions[0]) - 1;
/* The same names, separated by spaces: the tests compare it with the list. */
static const char extension_string[] = "";

const char *gles_extensions_string(void)
{
	return extension_string;
}

unsigned gles_num_extensions(void)
{
	return num_extensions;
}

const char *gles_extension(unsigned i)
{
	return i < num_extensions ? extensions[i] : NULL;
}
