/*
 * make-uat-seeds DIR: seed inputs for fuzz-uat: real page tables, written
 * by the host's page-table writer into the fuzzer's 64 KiB at 0x40000000,
 * with a lookup of a mapped page in front.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "host/pagetable.h"

#define RAM_PADDR 0x40000000ull
#define RAM_SIZE  0x10000u

static uint8_t ram[RAM_SIZE];

static void write_seed(const char *dir, const char *name, uint64_t va, unsigned context)
{
	uint8_t head[16] = { 0 };
	char path[4096];
	FILE *f;

	memcpy(head, &va, 8);
	head[8] = (uint8_t)context;
	head[9] = 1; /* read */
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "wb");
	if (!f || fwrite(head, 1, 16, f) != 16 || fwrite(ram, 1, RAM_SIZE, f) != RAM_SIZE ||
	    fclose(f)) {
		perror(path);
		exit(1);
	}
}

int main(int argc, char **argv)
{
	struct sim_pagetable pt;

	if (argc != 2) {
		fprintf(stderr, "usage: %s DIR\n", argv[0]);
		return 2;
	}
	/* the context table and three tables: one mapping fills the 64 KiB */
	if (sim_pagetable_init(&pt, ram, RAM_PADDR, RAM_SIZE) < 0 ||
	    sim_pagetable_map(&pt, 1, 0x100004000ull, 0x8000000, 1, true, true) < 0)
		return 1;
	write_seed(argv[1], "low-half", 0x100004123ull, 1);
	memset(ram, 0, sizeof(ram));
	if (sim_pagetable_init(&pt, ram, RAM_PADDR, RAM_SIZE) < 0 ||
	    sim_pagetable_map(&pt, 0, 0xffffffa000008000ull, 0x4000, 3, true, false) < 0)
		return 1;
	write_seed(argv[1], "high-half", 0xffffffa000008010ull, 0);
	return 0;
}
