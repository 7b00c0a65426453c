/*
 * gl_functions.h: every GL entry point this driver implements, by the file
 * that defines it.  gl_table.c names each one to glvnd; a function declared
 * here and missing from the table is never called, so add both together
 * (docs/gles.md, "Adding a GL function").
 */
#ifndef GLES_GL_FUNCTIONS_H
#define GLES_GL_FUNCTIONS_H

#include <GLES3/gl3.h>
#include <GLES2/gl2ext.h> /* GLeglImageOES */

#include "debug.h" /* GLDEBUGPROCKHR */

/* context.c */
GLenum gles_GetError(void);
const GLubyte *gles_GetString(GLenum name);
const GLubyte *gles_GetStringi(GLenum name, GLuint index);
void gles_Flush(void);
void gles_Finish(void);

/* state.c */
void gles_Enable(GLenum cap);
void gles_Disable(GLenum cap);
void gles_BlendColor(GLfloat red, GLfloat green, GLfloat blue, GLfloat alpha);
void gles_BlendEquationSeparate(GLenum modeRGB, GLenum modeAlpha);
void gles_BlendEquation(GLenum mode);
void gles_BlendFuncSeparate(GLenum srcRGB, GLenum dstRGB, GLenum srcAlpha, GLenum dstAlpha);
void gles_BlendFunc(GLenum sfactor, GLenum dfactor);
void gles_ColorMask(GLboolean red, GLboolean green, GLboolean blue, GLboolean alpha);
void gles_DepthFunc(GLenum func);
void gles_DepthMask(GLboolean flag);
void gles_DepthRangef(GLfloat n, GLfloat f);
void gles_StencilFuncSeparate(GLenum face, GLenum func, GLint ref, GLuint mask);
void gles_StencilFunc(GLenum func, GLint ref, GLuint mask);
void gles_StencilMaskSeparate(GLenum face, GLuint mask);
void gles_StencilMask(GLuint mask);
void gles_StencilOpSeparate(GLenum face, GLenum sfail, GLenum dpfail, GLenum dppass);
void gles_StencilOp(GLenum fail, GLenum zfail, GLenum zpass);
void gles_ClearColor(GLfloat red, GLfloat green, GLfloat blue, GLfloat alpha);
void gles_ClearDepthf(GLfloat d);
void gles_ClearStencil(GLint s);
void gles_Viewport(GLint x, GLint y, GLsizei width, GLsizei height);
void gles_Scissor(GLint x, GLint y, GLsizei width, GLsizei height);
void gles_PolygonOffset(GLfloat factor, GLfloat units);
void gles_PolygonOffsetClampEXT(GLfloat factor, GLfloat units,
				GLfloat clamp); /* EXT_polygon_offset_clamp */
void gles_LineWidth(GLfloat width);
void gles_SampleCoverage(GLfloat value, GLboolean invert);
void gles_CullFace(GLenum mode);
void gles_FrontFace(GLenum mode);
void gles_Hint(GLenum target, GLenum mode);
void gles_PixelStorei(GLenum pname, GLint param);
void gles_ActiveTexture(GLenum texture);
void gles_VertexAttrib1f(GLuint index, GLfloat x);
void gles_VertexAttrib2f(GLuint index, GLfloat x, GLfloat y);
void gles_VertexAttrib3f(GLuint index, GLfloat x, GLfloat y, GLfloat z);
void gles_VertexAttrib4f(GLuint index, GLfloat x, GLfloat y, GLfloat z, GLfloat w);
void gles_VertexAttrib1fv(GLuint index, const GLfloat *v);
void gles_VertexAttrib2fv(GLuint index, const GLfloat *v);
void gles_VertexAttrib3fv(GLuint index, const GLfloat *v);
void gles_VertexAttrib4fv(GLuint index, const GLfloat *v);
void gles_VertexAttribI4i(GLuint index, GLint x, GLint y, GLint z, GLint w);
void gles_VertexAttribI4iv(GLuint index, const GLint *v);
void gles_VertexAttribI4ui(GLuint index, GLuint x, GLuint y, GLuint z, GLuint w);
void gles_VertexAttribI4uiv(GLuint index, const GLuint *v);

/* get.c */
void gles_GetBooleanv(GLenum pname, GLboolean *data);
void gles_GetIntegerv(GLenum pname, GLint *data);
void gles_GetFloatv(GLenum pname, GLfloat *data);
void gles_GetInteger64v(GLenum pname, GLint64 *data);
void gles_GetIntegeri_v(GLenum target, GLuint index, GLint *data);
void gles_GetInteger64i_v(GLenum target, GLuint index, GLint64 *data);
GLboolean gles_IsEnabled(GLenum cap);

/* query.c */
void gles_GenQueries(GLsizei n, GLuint *ids);
void gles_DeleteQueries(GLsizei n, const GLuint *ids);
GLboolean gles_IsQuery(GLuint id);
void gles_BeginQuery(GLenum target, GLuint id);
void gles_EndQuery(GLenum target);
void gles_GetQueryiv(GLenum target, GLenum pname, GLint *params);
void gles_GetQueryObjectuiv(GLuint id, GLenum pname, GLuint *params);

/* xfb.c */
void gles_GenTransformFeedbacks(GLsizei n, GLuint *ids);
void gles_DeleteTransformFeedbacks(GLsizei n, const GLuint *ids);
GLboolean gles_IsTransformFeedback(GLuint id);
void gles_BindTransformFeedback(GLenum target, GLuint id);
void gles_BeginTransformFeedback(GLenum primitiveMode);
void gles_EndTransformFeedback(void);
void gles_PauseTransformFeedback(void);
void gles_ResumeTransformFeedback(void);

/* buffer.c */
void gles_GenBuffers(GLsizei n, GLuint *buffers);
void gles_BindBuffer(GLenum target, GLuint buffer);
GLboolean gles_IsBuffer(GLuint buffer);
void gles_DeleteBuffers(GLsizei n, const GLuint *buffers);
void gles_BufferData(GLenum target, GLsizeiptr size, const void *data, GLenum usage);
void gles_BufferSubData(GLenum target, GLintptr offset, GLsizeiptr size, const void *data);
void *gles_MapBufferRange(GLenum target, GLintptr offset, GLsizeiptr length, GLbitfield access);
void *gles_MapBufferOES(GLenum target, GLenum access);
GLboolean gles_UnmapBuffer(GLenum target);
void gles_FlushMappedBufferRange(GLenum target, GLintptr offset, GLsizeiptr length);
void gles_GetBufferPointerv(GLenum target, GLenum pname, void **params);
void gles_CopyBufferSubData(GLenum readTarget, GLenum writeTarget, GLintptr readOffset,
			    GLintptr writeOffset, GLsizeiptr size);
void gles_GetBufferParameteriv(GLenum target, GLenum pname, GLint *params);
void gles_GetBufferParameteri64v(GLenum target, GLenum pname, GLint64 *params);
void gles_BindBufferBase(GLenum target, GLuint index, GLuint buffer);
void gles_BindBufferRange(GLenum target, GLuint index, GLuint buffer, GLintptr offset,
			  GLsizeiptr size);

/* texture.c */
void gles_GenTextures(GLsizei n, GLuint *textures);
void gles_BindTexture(GLenum target, GLuint texture);
GLboolean gles_IsTexture(GLuint texture);
void gles_DeleteTextures(GLsizei n, const GLuint *textures);
void gles_EGLImageTargetTexture2DOES(GLenum target, GLeglImageOES image);
void gles_TexImage2D(GLenum target, GLint level, GLint internalformat, GLsizei width,
		     GLsizei height, GLint border, GLenum format, GLenum type, const void *pixels);
void gles_TexImage3D(GLenum target, GLint level, GLint internalformat, GLsizei width,
		     GLsizei height, GLsizei depth, GLint border, GLenum format, GLenum type,
		     const void *pixels);
void gles_TexSubImage2D(GLenum target, GLint level, GLint xoffset, GLint yoffset, GLsizei width,
			GLsizei height, GLenum format, GLenum type, const void *pixels);
void gles_TexSubImage3D(GLenum target, GLint level, GLint xoffset, GLint yoffset, GLint zoffset,
			GLsizei width, GLsizei height, GLsizei depth, GLenum format, GLenum type,
			const void *pixels);
void gles_CompressedTexImage2D(GLenum target, GLint level, GLenum internalformat, GLsizei width,
			       GLsizei height, GLint border, GLsizei imageSize, const void *data);
void gles_CompressedTexImage3D(GLenum target, GLint level, GLenum internalformat, GLsizei width,
			       GLsizei height, GLsizei depth, GLint border, GLsizei imageSize,
			       const void *data);
void gles_CompressedTexSubImage2D(GLenum target, GLint level, GLint xoffset, GLint yoffset,
				  GLsizei width, GLsizei height, GLenum format, GLsizei imageSize,
				  const void *data);
void gles_CompressedTexSubImage3D(GLenum target, GLint level, GLint xoffset, GLint yoffset,
				  GLint zoffset, GLsizei width, GLsizei height, GLsizei depth,
				  GLenum format, GLsizei imageSize, const void *data);
void gles_TexStorage2D(GLenum target, GLsizei levels, GLenum internalformat, GLsizei width,
		       GLsizei height);
void gles_TexStorage3D(GLenum target, GLsizei levels, GLenum internalformat, GLsizei width,
		       GLsizei height, GLsizei depth);
void gles_TexParameteri(GLenum target, GLenum pname, GLint param);
void gles_TexParameterf(GLenum target, GLenum pname, GLfloat param);
void gles_TexParameteriv(GLenum target, GLenum pname, const GLint *params);
void gles_TexParameterfv(GLenum target, GLenum pname, const GLfloat *params);
void gles_GetTexParameteriv(GLenum target, GLenum pname, GLint *params);
void gles_GetTexParameterfv(GLenum target, GLenum pname, GLfloat *params);
void gles_GenerateMipmap(GLenum target);

/* sampler.c */
void gles_GenSamplers(GLsizei count, GLuint *samplers);
GLboolean gles_IsSampler(GLuint sampler);
void gles_BindSampler(GLuint unit, GLuint sampler);
void gles_DeleteSamplers(GLsizei count, const GLuint *samplers);
void gles_SamplerParameteri(GLuint sampler, GLenum pname, GLint param);
void gles_SamplerParameterf(GLuint sampler, GLenum pname, GLfloat param);
void gles_SamplerParameteriv(GLuint sampler, GLenum pname, const GLint *param);
void gles_SamplerParameterfv(GLuint sampler, GLenum pname, const GLfloat *param);
void gles_GetSamplerParameteriv(GLuint sampler, GLenum pname, GLint *params);
void gles_GetSamplerParameterfv(GLuint sampler, GLenum pname, GLfloat *params);

/* renderbuffer.c */
void gles_GenRenderbuffers(GLsizei n, GLuint *renderbuffers);
void gles_BindRenderbuffer(GLenum target, GLuint renderbuffer);
GLboolean gles_IsRenderbuffer(GLuint renderbuffer);
void gles_DeleteRenderbuffers(GLsizei n, const GLuint *renderbuffers);
void gles_EGLImageTargetRenderbufferStorageOES(GLenum target, GLeglImageOES image);
void gles_RenderbufferStorage(GLenum target, GLenum internalformat, GLsizei width, GLsizei height);
void gles_RenderbufferStorageMultisample(GLenum target, GLsizei samples, GLenum internalformat,
					 GLsizei width, GLsizei height);
void gles_GetRenderbufferParameteriv(GLenum target, GLenum pname, GLint *params);
void gles_GetInternalformativ(GLenum target, GLenum internalformat, GLenum pname, GLsizei bufSize,
			      GLint *params);

/* framebuffer.c */
void gles_GenFramebuffers(GLsizei n, GLuint *framebuffers);
void gles_BindFramebuffer(GLenum target, GLuint framebuffer);
GLboolean gles_IsFramebuffer(GLuint framebuffer);
void gles_DeleteFramebuffers(GLsizei n, const GLuint *framebuffers);
void gles_FramebufferTexture2D(GLenum target, GLenum attachment, GLenum textarget, GLuint texture,
			       GLint level);
void gles_FramebufferTextureLayer(GLenum target, GLenum attachment, GLuint texture, GLint level,
				  GLint layer);
void gles_FramebufferRenderbuffer(GLenum target, GLenum attachment, GLenum renderbuffertarget,
				  GLuint renderbuffer);
GLenum gles_CheckFramebufferStatus(GLenum target);
void gles_GetFramebufferAttachmentParameteriv(GLenum target, GLenum attachment, GLenum pname,
					      GLint *params);
void gles_DrawBuffers(GLsizei n, const GLenum *bufs);
void gles_ReadBuffer(GLenum src);
void gles_InvalidateFramebuffer(GLenum target, GLsizei numAttachments, const GLenum *attachments);
void gles_FramebufferFetchBarrierEXT(void);
void gles_DiscardFramebufferEXT(GLenum target, GLsizei numAttachments,
				const GLenum *attachments); /* EXT_discard_framebuffer */
void gles_InvalidateSubFramebuffer(GLenum target, GLsizei numAttachments, const GLenum *attachments,
				   GLint x, GLint y, GLsizei width, GLsizei height);

/* vertex_array.c */
void gles_GenVertexArrays(GLsizei n, GLuint *arrays);
void gles_BindVertexArray(GLuint array);
GLboolean gles_IsVertexArray(GLuint array);
void gles_DeleteVertexArrays(GLsizei n, const GLuint *arrays);
void gles_VertexAttribPointer(GLuint index, GLint size, GLenum type, GLboolean normalized,
			      GLsizei stride, const void *pointer);
void gles_VertexAttribIPointer(GLuint index, GLint size, GLenum type, GLsizei stride,
			       const void *pointer);
void gles_EnableVertexAttribArray(GLuint index);
void gles_DisableVertexAttribArray(GLuint index);
void gles_VertexAttribDivisor(GLuint index, GLuint divisor);
void gles_GetVertexAttribfv(GLuint index, GLenum pname, GLfloat *params);
void gles_GetVertexAttribiv(GLuint index, GLenum pname, GLint *params);
void gles_GetVertexAttribIiv(GLuint index, GLenum pname, GLint *params);
void gles_GetVertexAttribIuiv(GLuint index, GLenum pname, GLuint *params);
void gles_GetVertexAttribPointerv(GLuint index, GLenum pname, void **pointer);

/* draw.c */
void gles_DrawArrays(GLenum mode, GLint first, GLsizei count);
void gles_DrawArraysInstanced(GLenum mode, GLint first, GLsizei count, GLsizei instancecount);
void gles_DrawElements(GLenum mode, GLsizei count, GLenum type, const void *indices);
void gles_DrawElementsInstanced(GLenum mode, GLsizei count, GLenum type, const void *indices,
				GLsizei instancecount);
/* GL_EXT_base_instance */
void gles_DrawArraysInstancedBaseInstanceEXT(GLenum mode, GLint first, GLsizei count,
					     GLsizei instancecount, GLuint baseinstance);
void gles_DrawElementsInstancedBaseInstanceEXT(GLenum mode, GLsizei count, GLenum type,
					       const void *indices, GLsizei instancecount,
					       GLuint baseinstance);
void gles_DrawElementsInstancedBaseVertexBaseInstanceEXT(GLenum mode, GLsizei count, GLenum type,
							 const void *indices, GLsizei instancecount,
							 GLint basevertex, GLuint baseinstance);
void gles_DrawRangeElements(GLenum mode, GLuint start, GLuint end, GLsizei count, GLenum type,
			    const void *indices);

/* clear.c */
void gles_Clear(GLbitfield mask);
void gles_ClearBufferiv(GLenum buffer, GLint drawbuffer, const GLint *value);
void gles_ClearBufferuiv(GLenum buffer, GLint drawbuffer, const GLuint *value);
void gles_ClearBufferfv(GLenum buffer, GLint drawbuffer, const GLfloat *value);
void gles_ClearBufferfi(GLenum buffer, GLint drawbuffer, GLfloat depth, GLint stencil);

/* readpixels.c */
void gles_ReadPixels(GLint x, GLint y, GLsizei width, GLsizei height, GLenum format, GLenum type,
		     void *pixels);

/* copy.c */
void gles_CopyTexImage2D(GLenum target, GLint level, GLenum internalformat, GLint x, GLint y,
			 GLsizei width, GLsizei height, GLint border);
void gles_CopyTexSubImage2D(GLenum target, GLint level, GLint xoffset, GLint yoffset, GLint x,
			    GLint y, GLsizei width, GLsizei height);
void gles_CopyTexSubImage3D(GLenum target, GLint level, GLint xoffset, GLint yoffset, GLint zoffset,
			    GLint x, GLint y, GLsizei width, GLsizei height);
void gles_BlitFramebuffer(GLint srcX0, GLint srcY0, GLint srcX1, GLint srcY1, GLint dstX0,
			  GLint dstY0, GLint dstX1, GLint dstY1, GLbitfield mask, GLenum filter);

/* shader.c */
GLuint gles_CreateShader(GLenum type);
void gles_ShaderSource(GLuint shader, GLsizei count, const GLchar *const *string,
		       const GLint *length);
void gles_CompileShader(GLuint shader);
void gles_GetShaderiv(GLuint shader, GLenum pname, GLint *params);
void gles_GetShaderInfoLog(GLuint shader, GLsizei bufSize, GLsizei *length, GLchar *infoLog);
void gles_GetShaderSource(GLuint shader, GLsizei bufSize, GLsizei *length, GLchar *source);
void gles_DeleteShader(GLuint shader);
GLboolean gles_IsShader(GLuint shader);
void gles_ShaderBinary(GLsizei count, const GLuint *shaders, GLenum binaryformat,
		       const void *binary, GLsizei length);
void gles_ReleaseShaderCompiler(void);
void gles_MaxShaderCompilerThreadsKHR(GLuint count); /* KHR_parallel_shader_compile */
void gles_GetShaderPrecisionFormat(GLenum shadertype, GLenum precisiontype, GLint *range,
				   GLint *precision);

/* program.c */
GLuint gles_CreateProgram(void);
void gles_AttachShader(GLuint program, GLuint shader);
void gles_DetachShader(GLuint program, GLuint shader);
void gles_GetAttachedShaders(GLuint program, GLsizei maxCount, GLsizei *count, GLuint *shaders);
void gles_LinkProgram(GLuint program);
void gles_UseProgram(GLuint program);
void gles_DeleteProgram(GLuint program);
GLboolean gles_IsProgram(GLuint program);
void gles_ValidateProgram(GLuint program);
void gles_GetProgramiv(GLuint program, GLenum pname, GLint *params);
void gles_GetProgramInfoLog(GLuint program, GLsizei bufSize, GLsizei *length, GLchar *infoLog);
void gles_BindAttribLocation(GLuint program, GLuint index, const GLchar *name);
GLint gles_GetAttribLocation(GLuint program, const GLchar *name);
void gles_GetActiveAttrib(GLuint program, GLuint index, GLsizei bufSize, GLsizei *length,
			  GLint *size, GLenum *type, GLchar *name);
GLint gles_GetFragDataLocation(GLuint program, const GLchar *name);
/* EXT_blend_func_extended */
GLint gles_GetFragDataIndexEXT(GLuint program, const GLchar *name);
void gles_BindFragDataLocationIndexedEXT(GLuint program, GLuint colorNumber, GLuint index,
					 const GLchar *name);
void gles_BindFragDataLocationEXT(GLuint program, GLuint color, const GLchar *name);
void gles_TransformFeedbackVaryings(GLuint program, GLsizei count, const GLchar *const *varyings,
				    GLenum bufferMode);
void gles_GetTransformFeedbackVarying(GLuint program, GLuint index, GLsizei bufSize,
				      GLsizei *length, GLsizei *size, GLenum *type, GLchar *name);
void gles_GetProgramBinary(GLuint program, GLsizei bufSize, GLsizei *length, GLenum *binaryFormat,
			   void *binary);
void gles_ProgramBinary(GLuint program, GLenum binaryFormat, const void *binary, GLsizei length);
void gles_ProgramParameteri(GLuint program, GLenum pname, GLint value);

/* uniform.c */
GLint gles_GetUniformLocation(GLuint program, const GLchar *name);
void gles_Uniform1f(GLint location, GLfloat v0);
void gles_Uniform2f(GLint location, GLfloat v0, GLfloat v1);
void gles_Uniform3f(GLint location, GLfloat v0, GLfloat v1, GLfloat v2);
void gles_Uniform4f(GLint location, GLfloat v0, GLfloat v1, GLfloat v2, GLfloat v3);
void gles_Uniform1i(GLint location, GLint v0);
void gles_Uniform2i(GLint location, GLint v0, GLint v1);
void gles_Uniform3i(GLint location, GLint v0, GLint v1, GLint v2);
void gles_Uniform4i(GLint location, GLint v0, GLint v1, GLint v2, GLint v3);
void gles_Uniform1ui(GLint location, GLuint v0);
void gles_Uniform2ui(GLint location, GLuint v0, GLuint v1);
void gles_Uniform3ui(GLint location, GLuint v0, GLuint v1, GLuint v2);
void gles_Uniform4ui(GLint location, GLuint v0, GLuint v1, GLuint v2, GLuint v3);
void gles_Uniform1fv(GLint location, GLsizei count, const GLfloat *value);
void gles_Uniform2fv(GLint location, GLsizei count, const GLfloat *value);
void gles_Uniform3fv(GLint location, GLsizei count, const GLfloat *value);
void gles_Uniform4fv(GLint location, GLsizei count, const GLfloat *value);
void gles_Uniform1iv(GLint location, GLsizei count, const GLint *value);
void gles_Uniform2iv(GLint location, GLsizei count, const GLint *value);
void gles_Uniform3iv(GLint location, GLsizei count, const GLint *value);
void gles_Uniform4iv(GLint location, GLsizei count, const GLint *value);
void gles_Uniform1uiv(GLint location, GLsizei count, const GLuint *value);
void gles_Uniform2uiv(GLint location, GLsizei count, const GLuint *value);
void gles_Uniform3uiv(GLint location, GLsizei count, const GLuint *value);
void gles_Uniform4uiv(GLint location, GLsizei count, const GLuint *value);
void gles_UniformMatrix2fv(GLint location, GLsizei count, GLboolean transpose,
			   const GLfloat *value);
void gles_UniformMatrix3fv(GLint location, GLsizei count, GLboolean transpose,
			   const GLfloat *value);
void gles_UniformMatrix4fv(GLint location, GLsizei count, GLboolean transpose,
			   const GLfloat *value);
void gles_UniformMatrix2x3fv(GLint location, GLsizei count, GLboolean transpose,
			     const GLfloat *value);
void gles_UniformMatrix3x2fv(GLint location, GLsizei count, GLboolean transpose,
			     const GLfloat *value);
void gles_UniformMatrix2x4fv(GLint location, GLsizei count, GLboolean transpose,
			     const GLfloat *value);
void gles_UniformMatrix4x2fv(GLint location, GLsizei count, GLboolean transpose,
			     const GLfloat *value);
void gles_UniformMatrix3x4fv(GLint location, GLsizei count, GLboolean transpose,
			     const GLfloat *value);
void gles_UniformMatrix4x3fv(GLint location, GLsizei count, GLboolean transpose,
			     const GLfloat *value);
void gles_GetUniformfv(GLuint program, GLint location, GLfloat *params);
void gles_GetUniformiv(GLuint program, GLint location, GLint *params);
void gles_GetUniformuiv(GLuint program, GLint location, GLuint *params);
/* GL_EXT_robustness */
GLenum gles_GetGraphicsResetStatusEXT(void);
void gles_ReadnPixelsEXT(GLint x, GLint y, GLsizei width, GLsizei height, GLenum format,
			 GLenum type, GLsizei buf_size, void *pixels);
void gles_GetnUniformfvEXT(GLuint program, GLint location, GLsizei buf_size, GLfloat *params);
void gles_GetnUniformivEXT(GLuint program, GLint location, GLsizei buf_size, GLint *params);
/* GL_KHR_robustness: the EXT functions under their KHR names, and these */
GLenum gles_GetGraphicsResetStatusKHR(void);
void gles_GetnUniformuivKHR(GLuint program, GLint location, GLsizei buf_size, GLuint *params);
void gles_GetActiveUniform(GLuint program, GLuint index, GLsizei bufSize, GLsizei *length,
			   GLint *size, GLenum *type, GLchar *name);
void gles_GetUniformIndices(GLuint program, GLsizei uniformCount, const GLchar *const *uniformNames,
			    GLuint *uniformIndices);
void gles_GetActiveUniformsiv(GLuint program, GLsizei uniformCount, const GLuint *uniformIndices,
			      GLenum pname, GLint *params);
GLuint gles_GetUniformBlockIndex(GLuint program, const GLchar *uniformBlockName);
void gles_GetActiveUniformBlockiv(GLuint program, GLuint uniformBlockIndex, GLenum pname,
				  GLint *params);
void gles_GetActiveUniformBlockName(GLuint program, GLuint uniformBlockIndex, GLsizei bufSize,
				    GLsizei *length, GLchar *uniformBlockName);
void gles_UniformBlockBinding(GLuint program, GLuint uniformBlockIndex, GLuint uniformBlockBinding);

/* sync.c */
GLsync gles_FenceSync(GLenum condition, GLbitfield flags);
GLboolean gles_IsSync(GLsync sync);
void gles_DeleteSync(GLsync sync);
GLenum gles_ClientWaitSync(GLsync sync, GLbitfield flags, GLuint64 timeout);
void gles_WaitSync(GLsync sync, GLbitfield flags, GLuint64 timeout);
void gles_GetSynciv(GLsync sync, GLenum pname, GLsizei bufSize, GLsizei *length, GLint *values);

/* debug.c: GL_KHR_debug */
void gles_DebugMessageControlKHR(GLenum source, GLenum type, GLenum severity, GLsizei count,
				 const GLuint *ids, GLboolean enabled);
void gles_DebugMessageInsertKHR(GLenum source, GLenum type, GLuint id, GLenum severity,
				GLsizei length, const GLchar *buf);
void gles_DebugMessageCallbackKHR(GLDEBUGPROCKHR callback, const void *userParam);
GLuint gles_GetDebugMessageLogKHR(GLuint count, GLsizei bufSize, GLenum *sources, GLenum *types,
				  GLuint *ids, GLenum *severities, GLsizei *lengths,
				  GLchar *messageLog);
void gles_PushDebugGroupKHR(GLenum source, GLuint id, GLsizei length, const GLchar *message);
void gles_PopDebugGroupKHR(void);
void gles_ObjectLabelKHR(GLenum identifier, GLuint name, GLsizei length, const GLchar *label);
void gles_GetObjectLabelKHR(GLenum identifier, GLuint name, GLsizei bufSize, GLsizei *length,
			    GLchar *label);
void gles_ObjectPtrLabelKHR(const void *ptr, GLsizei length, const GLchar *label);
void gles_GetObjectPtrLabelKHR(const void *ptr, GLsizei bufSize, GLsizei *length, GLchar *label);
void gles_GetPointervKHR(GLenum pname, void **params);

#endif
