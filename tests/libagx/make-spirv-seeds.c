/*
 * make-spirv-seeds DIR: the sample module as fuzz-spirv's seed, whole and
 * cut after its header.
 */
#include <stdio.h>

#include "spirv-sample.h"

static int save(const char *dir, const char *name, size_t words)
{
	char path[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "wb");
	if (!f || fwrite(spirv_sample, 4, words, f) != words) {
		perror(path);
		return 1;
	}
	return fclose(f) != 0;
}

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: %s DIR\n", argv[0]);
		return 2;
	}
	return save(argv[1], "sample", SPIRV_SAMPLE_WORDS) || save(argv[1], "header", 5);
}
