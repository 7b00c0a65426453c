/*
 * pipeline.c: control-stream reading and USC state words for pipeline.h.
 * Every word comes from memory the client wrote: each read is bounded,
 * each field checked, and a word the unit does not understand is refused
 * as malformed, never guessed.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "agx_cmdbuf.h"
#include "device.h"
#include "pipeline.h"

#define MAX_USC_WORDS  64  /* per pipeline */
#define UNIFORM_HALVES 512 /* u0..u255, in 16-bit halves */

void sim_stream_init(struct sim_stream *s, struct sim_device *dev, unsigned context,
		     const char *name, uint64_t encoder, uint64_t encoder_end, uint64_t usc_base)
{
	*s = (struct sim_stream){ .dev = dev,
				  .context = context,
				  .name = name,
				  .at = encoder,
				  .end = encoder_end,
				  .usc_base = usc_base };
}

void sim_stream_begin(struct sim_stream *s, struct usc_cache *programs, struct sim_uat_fault *fault,
		      char *why, size_t why_size)
{
	s->programs = programs;
	s->fault = fault;
	s->why = why;
	s->why_size = why_size;
	why[0] = '\0';
}

enum sim_read sim_stream_malformed(struct sim_stream *s, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(s->why, s->why_size, fmt, ap);
	va_end(ap);
	return SIM_READ_MALFORMED;
}

bool sim_stream_read(struct sim_stream *s, uint64_t va, void *buf, uint64_t size)
{
	return sim_uat_access(s->dev->uat, s->context, false, va, buf, size, SIM_UAT_READ,
			      s->fault);
}

enum sim_read sim_stream_take(struct sim_stream *s, void *buf, unsigned size)
{
	if (!s->linked && (s->at + size > s->end || s->at + size < s->at))
		return sim_stream_malformed(s, "%s stream runs past its end at 0x%llx", s->name,
					    (unsigned long long)s->at);
	if (!sim_stream_read(s, s->at, buf, size))
		return SIM_READ_FAULT;
	s->at += size;
	return SIM_READ_OK;
}

void sim_stream_jump(struct sim_stream *s, uint64_t target)
{
	s->at = target;
	s->linked = true;
}

static bool fetch_code(void *ctx, uint64_t addr, void *dst, unsigned size)
{
	struct sim_stream *s = ctx;
	struct sim_uat_fault fault;

	return sim_uat_access(s->dev->uat, s->context, false, addr, dst, size, SIM_UAT_EXEC,
			      &fault);
}

/* The decoded program at usc_base + offset, fetched with execute rights. */
static enum sim_read shader(struct sim_stream *s, uint64_t offset, const char *what,
			    const struct usc_program **program, uint64_t *va)
{
	uint8_t first[2];

	*va = s->usc_base + offset;
	*program = usc_cache_get(s->programs, *va, fetch_code, s);
	if (*program)
		return SIM_READ_OK;
	/* not even its first bytes: the fault that stopped the fetch */
	if (!sim_uat_access(s->dev->uat, s->context, false, *va, first, 2, SIM_UAT_EXEC, s->fault))
		return SIM_READ_FAULT;
	return sim_stream_malformed(s, "%s at 0x%llx cannot be decoded", what,
				    (unsigned long long)*va);
}

/* Preloads uniform halves [start, start + count) from memory at buffer. */
static enum sim_read load_uniforms(struct sim_stream *s, struct sim_pipeline *p, unsigned start,
				   unsigned count, uint64_t buffer)
{
	if (start + count > UNIFORM_HALVES)
		return sim_stream_malformed(s, "uniforms %u+%u are past u255", start / 2,
					    count / 2);
	if (!sim_stream_read(s, buffer, (uint8_t *)p->uniforms + start * 2, count * 2ull))
		return SIM_READ_FAULT;
	return SIM_READ_OK;
}

/* Bytes of the USC state word with this tag; 0 for a tag nobody documented. */
static unsigned word_length(uint8_t tag)
{
	switch (tag) {
	case AGX_CMD_USC_CONTROL_UNIFORM:
	case AGX_CMD_USC_CONTROL_UNIFORM_HIGH:
	case AGX_CMD_USC_CONTROL_TEXTURE:
	case AGX_CMD_USC_CONTROL_SAMPLER:
		return 8;
	case AGX_CMD_USC_CONTROL_PRESHADER:
		return AGX_CMD_USC_PRESHADER_LENGTH;
	case AGX_CMD_USC_CONTROL_SHADER:
		return AGX_CMD_USC_SHADER_LENGTH;
	case AGX_CMD_USC_CONTROL_SHARED:
		return AGX_CMD_USC_SHARED_LENGTH;
	case AGX_CMD_USC_CONTROL_REGISTERS:
		return AGX_CMD_USC_REGISTERS_LENGTH;
	case AGX_CMD_USC_CONTROL_FRAGMENT_PROPERTIES:
		return AGX_CMD_USC_FRAGMENT_PROPERTIES_LENGTH;
	case AGX_CMD_USC_CONTROL_NO_PRESHADER:
		return AGX_CMD_USC_NO_PRESHADER_LENGTH;
	}
	return 0;
}

/* One USC state word into *p; *end once it was the pipeline's last. */
static enum sim_read apply_word(struct sim_stream *s, const uint8_t *raw, uint64_t va,
				bool extended_samplers, struct sim_pipeline *p, bool *end)
{
	union {
		struct agx_cmd_usc_uniform u;
		struct agx_cmd_usc_uniform_high uh;
		struct agx_cmd_usc_shared shared;
		struct agx_cmd_usc_shader sh;
		struct agx_cmd_usc_registers regs;
		struct agx_cmd_usc_texture tex;
		struct agx_cmd_usc_sampler samp;
		struct agx_cmd_usc_fragment_properties props;
		struct agx_cmd_usc_no_preshader none;
		struct agx_cmd_usc_preshader pre;
	} w;
	bool ok = false;

	switch (raw[0]) {
	case AGX_CMD_USC_CONTROL_UNIFORM:
		if (!(ok = agx_cmd_usc_uniform_unpack(raw, &w.u)))
			break;
		return load_uniforms(s, p, (unsigned)w.u.start_halfs, (unsigned)w.u.size_halfs,
				     w.u.buffer);
	case AGX_CMD_USC_CONTROL_UNIFORM_HIGH:
		if (!(ok = agx_cmd_usc_uniform_high_unpack(raw, &w.uh)))
			break;
		return load_uniforms(s, p, 256 + (unsigned)w.uh.start_halfs,
				     (unsigned)w.uh.size_halfs, w.uh.buffer);
	case AGX_CMD_USC_CONTROL_SHARED:
		if (!(ok = agx_cmd_usc_shared_unpack(raw, &w.shared)))
			break;
		p->shared_size =
		    w.shared.uses_shared_memory ? (uint32_t)w.shared.bytes_per_threadgroup : 0;
		return SIM_READ_OK;
	case AGX_CMD_USC_CONTROL_SHADER:
		if (!(ok = agx_cmd_usc_shader_unpack(raw, &w.sh)))
			break;
		return shader(s, w.sh.code, "shader", &p->program, &p->program_va);
	case AGX_CMD_USC_CONTROL_REGISTERS:
		ok = agx_cmd_usc_registers_unpack(raw, &w.regs);
		break; /* the simulated USC has all 128 registers */
	case AGX_CMD_USC_CONTROL_FRAGMENT_PROPERTIES:
		ok = agx_cmd_usc_fragment_properties_unpack(raw, &w.props);
		break; /* hints: agx-sim always tests depth after the shader (docs) */
	case AGX_CMD_USC_CONTROL_TEXTURE:
		if (!(ok = agx_cmd_usc_texture_unpack(raw, &w.tex)))
			break;
		if (w.tex.start + w.tex.count > SIM_GPU_MAX_TEXTURES)
			return sim_stream_malformed(s, "texture state ts%u+%u past ts%u",
						    (unsigned)w.tex.start, (unsigned)w.tex.count,
						    SIM_GPU_MAX_TEXTURES - 1);
		if (!sim_stream_read(s, w.tex.buffer, p->textures[w.tex.start],
				     w.tex.count * 24ull))
			return SIM_READ_FAULT;
		if (w.tex.start + w.tex.count > p->num_textures)
			p->num_textures = (unsigned)(w.tex.start + w.tex.count);
		return SIM_READ_OK;
	case AGX_CMD_USC_CONTROL_SAMPLER: {
		/* extended sampler states carry a 16-byte custom border each */
		unsigned stride = extended_samplers ? 24 : 8;

		if (!(ok = agx_cmd_usc_sampler_unpack(raw, &w.samp)))
			break;
		if (w.samp.start + w.samp.count > SIM_GPU_MAX_SAMPLERS)
			return sim_stream_malformed(s, "sampler state ss%u+%u past ss%u",
						    (unsigned)w.samp.start, (unsigned)w.samp.count,
						    SIM_GPU_MAX_SAMPLERS - 1);
		for (unsigned i = 0; i < w.samp.count; i++)
			if (!sim_stream_read(s, w.samp.buffer + i * stride,
					     p->samplers[w.samp.start + i], stride))
				return SIM_READ_FAULT;
		if (w.samp.start + w.samp.count > p->num_samplers)
			p->num_samplers = (unsigned)(w.samp.start + w.samp.count);
		return SIM_READ_OK;
	}
	case AGX_CMD_USC_CONTROL_PRESHADER:
	case AGX_CMD_USC_CONTROL_NO_PRESHADER:
		ok = raw[0] == AGX_CMD_USC_CONTROL_PRESHADER
			 ? agx_cmd_usc_preshader_unpack(raw, &w.pre)
			 : agx_cmd_usc_no_preshader_unpack(raw, &w.none);
		if (!ok)
			break;
		*end = true;
		if (!p->program)
			return sim_stream_malformed(s, "pipeline ending at 0x%llx has no shader",
						    (unsigned long long)va);
		if (raw[0] == AGX_CMD_USC_CONTROL_PRESHADER)
			return shader(s, w.pre.code, "preshader", &p->preshader, &p->preshader_va);
		return SIM_READ_OK;
	}
	if (!ok)
		return sim_stream_malformed(s,
					    "USC state word 0x%02x at 0x%llx has reserved bits set",
					    raw[0], (unsigned long long)va);
	return SIM_READ_OK;
}

enum sim_read sim_pipeline_read(struct sim_stream *s, uint64_t offset, bool extended_samplers,
				struct sim_pipeline *p)
{
	uint64_t va = s->usc_base + offset;

	memset(p, 0, sizeof(*p));
	for (unsigned n = 0; n < MAX_USC_WORDS; n++) {
		uint8_t raw[8] = { 0 };
		unsigned length;
		bool end = false;
		enum sim_read st;

		if (!sim_stream_read(s, va, raw, 1))
			return SIM_READ_FAULT;
		length = word_length(raw[0]);
		if (!length)
			return sim_stream_malformed(s, "unknown USC state word 0x%02x at 0x%llx",
						    raw[0], (unsigned long long)va);
		if (!sim_stream_read(s, va, raw, length))
			return SIM_READ_FAULT;
		st = apply_word(s, raw, va, extended_samplers, p, &end);
		if (st != SIM_READ_OK || end)
			return st;
		va += length;
	}
	return sim_stream_malformed(s, "pipeline has more than %u words", MAX_USC_WORDS);
}
