/*
 * gl_functions.h: every GL entry point this driver implements, by the file
 * that defines it.  gl_table.c names each one to glvnd; a function declared
 * here and missing from the table is never called, so add both together
 * (docs/gles.md, "Adding a GL function").
 */
#ifndef GLES_GL_FUNCTIONS_H
#define GLES_GL_FUNCTIONS_H

#include <GLES3/gl3.h>

/* context.c */
GLenum gles_GetError(void);
const GLubyte *gles_GetString(GLenum name);
const GLubyte *gles_GetStringi(GLenum name, GLuint index);
void gles_GetIntegerv(GLenum pname, GLint *data);
void gles_Flush(void);
void gles_Finish(void);

#endif
