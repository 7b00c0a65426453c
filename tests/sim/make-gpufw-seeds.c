/*
 * make-gpufw-seeds DIR: seed inputs for fuzz-gpufw, packed with the ABI's
 * own packers: a good initdata and channels, with fwctl entries of each op.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "agx_fwabi.h"

#define FWVA 0xffffffa000000000ull

int main(int argc, char **argv)
{
	struct agx_fw_initdata init = { .fwctl = FWVA + 0x4000, .event = FWVA + 0x8000 };
	struct agx_fw_channel fwctl = { .entries = 64, .write_ptr = 3, .ring = FWVA + 0xc000 };
	struct agx_fw_channel event = { .entries = 64, .ring = FWVA + 0x10000 };
	uint8_t seed[64 * 3 + 3 * 32] = { 0 };
	char path[4096];
	FILE *f;

	if (argc != 2) {
		fprintf(stderr, "usage: %s DIR\n", argv[0]);
		return 2;
	}
	agx_fw_initdata_pack(seed, &init);
	agx_fw_channel_pack(seed + 64, &fwctl);
	agx_fw_channel_pack(seed + 128, &event);
	for (unsigned i = 0; i < 3; i++) {
		struct agx_fw_fwctl op = { .op = i + 1,
					   .context = i,
					   .va = 0x100000000ull,
					   .size = 0x4000,
					   .seq = i + 1 };

		agx_fw_fwctl_pack(seed + 192 + i * 32, &op);
	}
	snprintf(path, sizeof(path), "%s/fwctl", argv[1]);
	f = fopen(path, "wb");
	if (!f || fwrite(seed, 1, sizeof(seed), f) != sizeof(seed) || fclose(f)) {
		perror(path);
		return 1;
	}
	return 0;
}
