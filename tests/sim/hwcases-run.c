/*
 * hwcases-run: runs the hardware-checked cases (tests/sim/hwcases.py) on
 * agx-sim's USC core, many in one process.  It owns only the setting of a
 * case, the one dougallj/applegpu's hwtest.py ran on an M1: one SIMD group
 * of 32 lanes, uniforms u0_u1 and u2_u3 pointing at the two input buffers
 * the program's prologue loads r0-r3 and r4-r7 from, u20..u22 the grid size
 * (32, 1, 1), sr80 the lane's position in the grid.
 *
 * Input, one command a line:
 *   S INDEX HEX       initial registers: r0..r7 of lanes 0..31, register
 *                     by register, 8 hex digits each (2048 digits)
 *   P INDEX BEGIN END HEX
 *                     run the program HEX with initial registers INDEX;
 *                     [BEGIN, END) are the offsets of the case's own bytes
 * Output, one line per P:
 *   STATUS UNKNOWN HEX
 *                     the usc_status, 1 if our decoder knows no instruction
 *                     at some offset of [BEGIN, END) (else 0), and the final
 *                     r0..r7 in the same layout as S.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "agx/isa.h"
#include "usc.h"

#define NUM_REGS   8
#define MAX_STATES 16
#define MAX_CODE   4096
#define MAX_LINE   (2 * MAX_CODE + 4 * NUM_REGS * USC_LANES * 8)

/* The input buffers, lane-major: lane l's four words at l * 16. */
#define IN0_ADDR 0x10000ull
#define IN1_ADDR 0x20000ull
#define IN_SIZE	 (USC_LANES * 16)

struct buffers {
	uint8_t in[2][IN_SIZE];
};

static uint32_t states[MAX_STATES][NUM_REGS][USC_LANES];

static uint8_t *buffer_at(struct buffers *b, uint64_t addr, unsigned size)
{
	for (unsigned i = 0; i < 2; i++) {
		uint64_t base = i ? IN1_ADDR : IN0_ADDR;

		if (addr >= base && addr - base <= IN_SIZE && size <= IN_SIZE - (addr - base))
			return b->in[i] + (addr - base);
	}
	return NULL;
}

static bool mem_read(void *ctx, uint64_t addr, void *dst, unsigned size)
{
	uint8_t *p = buffer_at(ctx, addr, size);

	if (p)
		memcpy(dst, p, size);
	return p != NULL;
}

static bool mem_write(void *ctx, uint64_t addr, const void *src, unsigned size)
{
	uint8_t *p = buffer_at(ctx, addr, size);

	if (p)
		memcpy(p, src, size);
	return p != NULL;
}

static int hex_digit(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* Reads exactly len bytes of hex from *p; false on a bad digit or short input. */
static bool parse_hex(const char **p, uint8_t *out, size_t len)
{
	const char *s = *p;

	while (*s == ' ')
		s++;
	for (size_t i = 0; i < len; i++) {
		int hi = hex_digit(s[2 * i]), lo = hi < 0 ? -1 : hex_digit(s[2 * i + 1]);

		if (lo < 0)
			return false;
		out[i] = (uint8_t)(hi << 4 | lo);
	}
	*p = s + 2 * len;
	return true;
}

static size_t hex_length(const char *s)
{
	size_t n = 0;

	while (*s == ' ')
		s++;
	while (hex_digit(s[n]) >= 0)
		n++;
	return n;
}

static bool define_state(const char *line)
{
	char *end;
	unsigned long idx = strtoul(line, &end, 10);
	const char *p = end;

	if (end == line || idx >= MAX_STATES)
		return false;
	for (unsigned r = 0; r < NUM_REGS; r++)
		for (unsigned l = 0; l < USC_LANES; l++) {
			uint8_t b[4];

			if (!parse_hex(&p, b, 4))
				return false;
			states[idx][r][l] = (uint32_t)b[0] << 24 | b[1] << 16 | b[2] << 8 | b[3];
		}
	return true;
}

/* Whether every instruction in [begin, end) of code is one our table knows. */
static bool decodes(const uint8_t *code, size_t begin, size_t end)
{
	while (begin < end) {
		struct agx_isa_instr instr;
		unsigned n = agx_isa_decode(code + begin, end - begin, &instr);

		if (!n)
			return false;
		begin += n;
	}
	return true;
}

static void fill_buffers(struct buffers *b, unsigned idx)
{
	for (unsigned l = 0; l < USC_LANES; l++)
		for (unsigned j = 0; j < 4; j++) {
			memcpy(b->in[0] + l * 16 + j * 4, &states[idx][j][l], 4);
			memcpy(b->in[1] + l * 16 + j * 4, &states[idx][4 + j][l], 4);
		}
}

static void set_uniform64(struct usc_state *s, unsigned u, uint64_t v)
{
	s->u[u] = (uint32_t)v;
	s->u[u + 1] = (uint32_t)(v >> 32);
}

static bool run_program(const char *line, struct usc_state *s)
{
	static uint8_t code[MAX_CODE];
	struct buffers bufs;
	char *end;
	unsigned long idx = strtoul(line, &end, 10), begin, stop;
	const char *p;
	size_t len;
	struct usc_program *prog;
	struct usc_result res;

	begin = strtoul(end, &end, 10);
	stop = strtoul(end, &end, 10);
	p = end;
	len = hex_length(p) / 2;
	if (idx >= MAX_STATES || len > MAX_CODE || begin > stop || stop > len ||
	    !parse_hex(&p, code, len))
		return false;

	fill_buffers(&bufs, (unsigned)idx);
	usc_state_init(s, USC_LANES);
	s->memory.read = mem_read;
	s->memory.write = mem_write;
	s->memory.ctx = &bufs;
	set_uniform64(s, 0, IN0_ADDR);
	set_uniform64(s, 2, IN1_ADDR);
	s->u[20] = USC_LANES;
	s->u[21] = 1;
	s->u[22] = 1;

	prog = usc_program_create(code, len);
	if (!prog)
		return false;
	res = usc_run(prog, s, 100000);
	usc_program_destroy(prog);

	printf("%d %d ", (int)res.status, decodes(code, begin, stop) ? 0 : 1);
	for (unsigned r = 0; r < NUM_REGS; r++)
		for (unsigned l = 0; l < USC_LANES; l++)
			printf("%08x", s->r[r][l]);
	putchar('\n');
	return true;
}

int main(void)
{
	static char line[MAX_LINE];
	struct usc_state *s = malloc(sizeof(*s));
	unsigned lineno = 0;

	if (!s)
		return 1;
	while (fgets(line, sizeof(line), stdin)) {
		bool ok;

		lineno++;
		if (line[0] == 'S')
			ok = define_state(line + 1);
		else if (line[0] == 'P')
			ok = run_program(line + 1, s);
		else
			ok = line[0] == '\n';
		if (!ok) {
			fprintf(stderr, "hwcases-run: bad input on line %u\n", lineno);
			return 1;
		}
	}
	fflush(stdout);
	free(s);
	return 0;
}
