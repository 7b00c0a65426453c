/*
 * make-compile-seeds SHADER... DIR: fuzz-compile's seeds: each GLSL ES
 * shader (its stage from the extension) made SPIR-V by the front end and
 * written as the stage byte and the words, and the same with the
 * register budget that makes the allocator spill.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "agx/compiler.h"
#include "agx/glsl.h"

static char *read_file(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *text;
	long size;

	if (!f || fseek(f, 0, SEEK_END) || (size = ftell(f)) < 0 || fseek(f, 0, SEEK_SET)) {
		if (f)
			fclose(f);
		return NULL;
	}
	text = malloc((size_t)size + 1);
	if (text && fread(text, 1, (size_t)size, f) != (size_t)size) {
		free(text);
		text = NULL;
	}
	fclose(f);
	*len = (size_t)size;
	return text;
}

static int save(const char *dir, const char *name, unsigned variant, uint8_t stage,
		const uint32_t *words, size_t count)
{
	const char *base = strrchr(name, '/') ? strrchr(name, '/') + 1 : name;
	char path[1024];
	FILE *f;
	int ok;

	snprintf(path, sizeof(path), "%s/%s.%u", dir, base, variant);
	f = fopen(path, "wb");
	ok = f && fwrite(&stage, 1, 1, f) == 1 && fwrite(words, 4, count, f) == count;
	if (f && fclose(f))
		ok = 0;
	if (!ok)
		perror(path);
	return !ok;
}

int main(int argc, char **argv)
{
	int failed = 0;

	const char *dir = argv[argc - 1];

	if (argc < 2) {
		fprintf(stderr, "usage: %s SHADER... DIR\n", argv[0]);
		return 2;
	}
	for (int i = 1; i < argc - 1; i++) {
		const char *ext = strrchr(argv[i], '.');
		enum agx_glsl_stage glsl;
		enum agx_shader_stage stage;
		struct agx_glsl_result r;
		size_t len = 0;
		char *text;

		if (ext && !strcmp(ext, ".vert"))
			glsl = AGX_GLSL_VERTEX, stage = AGX_SHADER_VERTEX;
		else if (ext && !strcmp(ext, ".frag"))
			glsl = AGX_GLSL_FRAGMENT, stage = AGX_SHADER_FRAGMENT;
		else if (ext && !strcmp(ext, ".comp"))
			glsl = AGX_GLSL_COMPUTE, stage = AGX_SHADER_COMPUTE;
		else
			continue;
		text = read_file(argv[i], &len);
		if (!text) {
			perror(argv[i]);
			return 1;
		}
		/* invalid shaders are left out: they have no SPIR-V */
		if (agx_glsl_to_spirv(glsl, text, len, &r) == 0) {
			failed |= save(dir, argv[i], 0, (uint8_t)stage, r.spirv, r.spirv_words);
			failed |=
			    save(dir, argv[i], 1, (uint8_t)(stage | 4), r.spirv, r.spirv_words);
		}
		agx_glsl_result_finish(&r);
		free(text);
	}
	return failed;
}
