/*
 * extensions.h: the one list of the GL extensions this driver implements
 * -- GL_EXTENSIONS, glGetStringi(GL_EXTENSIONS, i), GL_NUM_EXTENSIONS.
 */
#ifndef GLES_EXTENSIONS_H
#define GLES_EXTENSIONS_H

/* The names, separated by spaces ("" when there are none). */
const char *gles_extensions_string(void);
unsigned gles_num_extensions(void);
/* The i-th name, NULL past the end. */
const char *gles_extension(unsigned i);

#endif
