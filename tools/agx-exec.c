/*
 * agx-exec --shader FILE.bin [--state STATE.json] [--max-instructions N]
 *
 * Runs raw G13 machine code on agx-sim's USC core, one SIMD group, and
 * prints the final state as JSON:
 *
 *   {"lanes": 32,
 *    "regs": {"r0": [32 numbers], "r5l": [...], ...},
 *    "uniforms": {"u0": number, "u3h": number, ...},
 *    "memory": [{"addr": number, "bytes": "hex"}, ...],
 *    "threadgroup_memory": "hex"}
 *
 * Registers are 32-bit; r5l/r5h name the halves.  A number written with a
 * decimal point or an exponent is stored as a float (half for a half
 * register).  The output has the same shape, every register included, plus
 * "status", "pc" and "instructions".  Memory outside the listed ranges
 * faults.
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "fp16.h"
#include "usc.h"

struct region {
	uint64_t addr;
	size_t size;
	uint8_t *bytes;
};

struct memory {
	struct region *regions;
	unsigned count;
};

static struct region *find(struct memory *m, uint64_t addr, unsigned size)
{
	for (unsigned i = 0; i < m->count; i++) {
		struct region *r = &m->regions[i];

		if (addr >= r->addr && addr - r->addr <= r->size &&
		    size <= r->size - (addr - r->addr))
			return r;
	}
	return NULL;
}

static bool mem_read(void *ctx, uint64_t addr, void *dst, unsigned size)
{
	struct region *r = find(ctx, addr, size);

	if (r)
		memcpy(dst, r->bytes + (addr - r->addr), size);
	return r != NULL;
}

static bool mem_write(void *ctx, uint64_t addr, const void *src, unsigned size)
{
	struct region *r = find(ctx, addr, size);

	if (r)
		memcpy(r->bytes + (addr - r->addr), src, size);
	return r != NULL;
}

static void die(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));
static void die(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fputs("agx-exec: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
	exit(1);
}

static uint8_t *read_file(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	uint8_t *buf = NULL;
	size_t cap = 0;

	if (!f)
		die("%s: %s", path, strerror(errno));
	*len = 0;
	for (;;) {
		size_t n;

		if (*len == cap) {
			cap = cap ? cap * 2 : 4096;
			buf = realloc(buf, cap);
			if (!buf)
				die("out of memory");
		}
		n = fread(buf + *len, 1, cap - *len, f);
		if (!n)
			break;
		*len += n;
	}
	fclose(f);
	return buf;
}

/* A register value: integers as given, reals as float (or half) bits. */
static uint32_t value_bits(struct json_object *v, bool half, const char *what)
{
	if (json_object_is_type(v, json_type_double)) {
		double d = json_object_get_double(v);
		float f = (float)d;
		uint32_t u;

		if (half)
			return fp16_from_double(d);
		memcpy(&u, &f, 4);
		return u;
	}
	if (!json_object_is_type(v, json_type_int))
		die("%s: expected a number", what);
	return (uint32_t)json_object_get_int64(v);
}

/* "r12", "r12l", "u3h" -> 32-bit index and half (-1 for the whole register). */
static bool parse_name(const char *name, char file, unsigned max, unsigned *index, int *half)
{
	char *end;
	unsigned long n;

	if (name[0] != file)
		return false;
	n = strtoul(name + 1, &end, 10);
	if (end == name + 1 || n >= max)
		return false;
	*half = *end == 'l' ? 0 : *end == 'h' ? 1 : -1;
	if (*half >= 0)
		end++;
	*index = (unsigned)n;
	return *end == '\0';
}

static void set_half(uint32_t *word, int half, uint32_t v)
{
	if (half < 0)
		*word = v;
	else
		*word = (*word & ~(0xffffu << (16 * half))) | (v & 0xffff) << (16 * half);
}

static void load_state(const char *path, struct usc_state *s, struct memory *m, unsigned *lanes)
{
	struct json_object *root = json_object_from_file(path), *v;

	if (!root)
		die("%s: %s", path, json_util_get_last_err());
	if (json_object_object_get_ex(root, "lanes", &v)) {
		int64_t n = json_object_get_int64(v);

		if (n < 1 || n > USC_LANES)
			die("lanes must be 1 to %d", USC_LANES);
		*lanes = (unsigned)n;
	}
	usc_state_init(s, *lanes);
	if (json_object_object_get_ex(root, "regs", &v)) {
		json_object_object_foreach(v, name, lanes_v)
		{
			unsigned idx;
			int half;

			if (!parse_name(name, 'r', 128, &idx, &half))
				die("unknown register '%s'", name);
			if (!json_object_is_type(lanes_v, json_type_array) ||
			    json_object_array_length(lanes_v) > USC_LANES)
				die("%s: expected an array of up to %d numbers", name, USC_LANES);
			for (size_t l = 0; l < json_object_array_length(lanes_v); l++)
				set_half(&s->r[idx][l], half,
					 value_bits(json_object_array_get_idx(lanes_v, l),
						    half >= 0, name));
		}
	}
	if (json_object_object_get_ex(root, "uniforms", &v)) {
		json_object_object_foreach(v, name, val)
		{
			unsigned idx;
			int half;

			if (!parse_name(name, 'u', 256, &idx, &half))
				die("unknown uniform '%s'", name);
			set_half(&s->u[idx], half, value_bits(val, half >= 0, name));
		}
	}
	if (json_object_object_get_ex(root, "memory", &v)) {
		size_t n = json_object_array_length(v);

		m->regions = calloc(n ? n : 1, sizeof(*m->regions));
		for (size_t i = 0; i < n; i++) {
			struct json_object *e = json_object_array_get_idx(v, i), *a, *b;
			const char *hex;
			struct region *r = &m->regions[m->count++];

			if (!json_object_object_get_ex(e, "addr", &a) ||
			    !json_object_object_get_ex(e, "bytes", &b))
				die("memory[%zu]: needs addr and bytes", i);
			hex = json_object_get_string(b);
			if (strlen(hex) % 2)
				die("memory[%zu]: odd number of hex digits", i);
			r->addr = (uint64_t)json_object_get_int64(a);
			r->size = strlen(hex) / 2;
			r->bytes = malloc(r->size ? r->size : 1);
			for (size_t k = 0; k < r->size; k++) {
				unsigned byte;

				if (sscanf(hex + 2 * k, "%2x", &byte) != 1)
					die("memory[%zu]: bad hex", i);
				r->bytes[k] = (uint8_t)byte;
			}
		}
	}
	if (json_object_object_get_ex(root, "threadgroup_memory", &v)) {
		const char *hex = json_object_get_string(v);

		s->threadgroup_memory_size = strlen(hex) / 2;
		s->threadgroup_memory = calloc(1, s->threadgroup_memory_size + 1);
		for (size_t k = 0; k < s->threadgroup_memory_size; k++) {
			unsigned byte;

			if (sscanf(hex + 2 * k, "%2x", &byte) != 1)
				die("threadgroup_memory: bad hex");
			s->threadgroup_memory[k] = (uint8_t)byte;
		}
	}
	json_object_put(root);
}

static const char *status_name(enum usc_status st)
{
	static const char *const names[] = { "done",	   "fault", "limit",   "bad_instruction",
					     "bad_branch", "trap",  "barrier", "pixel_order" };

	return names[st];
}

static struct json_object *hex_string(const uint8_t *bytes, size_t size)
{
	char *hex = malloc(size * 2 + 1);
	struct json_object *o;

	for (size_t i = 0; i < size; i++)
		sprintf(hex + 2 * i, "%02x", bytes[i]);
	hex[size * 2] = '\0';
	o = json_object_new_string(hex);
	free(hex);
	return o;
}

static void print_state(const struct usc_state *s, const struct memory *m, unsigned lanes,
			const struct usc_result *res)
{
	struct json_object *root = json_object_new_object(), *regs = json_object_new_object();
	struct json_object *uniforms = json_object_new_object(), *mem = json_object_new_array();
	char name[16];

	json_object_object_add(root, "lanes", json_object_new_int((int)lanes));
	json_object_object_add(root, "status", json_object_new_string(status_name(res->status)));
	if (res->message[0])
		json_object_object_add(root, "message", json_object_new_string(res->message));
	json_object_object_add(root, "pc", json_object_new_int64(res->pc));
	json_object_object_add(root, "instructions",
			       json_object_new_int64((int64_t)res->instructions));
	for (unsigned r = 0; r < 128; r++) {
		struct json_object *arr = json_object_new_array();

		for (unsigned l = 0; l < lanes; l++)
			json_object_array_add(arr, json_object_new_int64(s->r[r][l]));
		snprintf(name, sizeof(name), "r%u", r);
		json_object_object_add(regs, name, arr);
	}
	for (unsigned u = 0; u < 256; u++) {
		snprintf(name, sizeof(name), "u%u", u);
		json_object_object_add(uniforms, name, json_object_new_int64(s->u[u]));
	}
	for (unsigned i = 0; i < m->count; i++) {
		struct json_object *e = json_object_new_object();

		json_object_object_add(e, "addr",
				       json_object_new_int64((int64_t)m->regions[i].addr));
		json_object_object_add(e, "bytes",
				       hex_string(m->regions[i].bytes, m->regions[i].size));
		json_object_array_add(mem, e);
	}
	json_object_object_add(root, "regs", regs);
	json_object_object_add(root, "uniforms", uniforms);
	json_object_object_add(root, "memory", mem);
	if (s->threadgroup_memory)
		json_object_object_add(
		    root, "threadgroup_memory",
		    hex_string(s->threadgroup_memory, s->threadgroup_memory_size));
	puts(json_object_to_json_string_ext(root, JSON_C_TO_STRING_PLAIN));
	json_object_put(root);
}

int main(int argc, char **argv)
{
	static const struct option options[] = {
		{ "shader", required_argument, NULL, 's' },
		{ "state", required_argument, NULL, 't' },
		{ "max-instructions", required_argument, NULL, 'm' },
		{ NULL, 0, NULL, 0 },
	};
	const char *shader = NULL, *state_path = NULL;
	uint64_t max = 10000000;
	struct memory mem = { 0 };
	struct usc_program *prog;
	struct usc_result res;
	struct usc_state *s;
	unsigned lanes = USC_LANES;
	uint8_t *code;
	size_t size;
	int opt;

	while ((opt = getopt_long(argc, argv, "", options, NULL)) != -1) {
		if (opt == 's')
			shader = optarg;
		else if (opt == 't')
			state_path = optarg;
		else if (opt == 'm')
			max = strtoull(optarg, NULL, 0);
		else
			return 2;
	}
	if (!shader || optind != argc) {
		fprintf(stderr, "usage: agx-exec --shader FILE.bin [--state STATE.json] "
				"[--max-instructions N]\n");
		return 2;
	}
	s = calloc(1, sizeof(*s));
	code = read_file(shader, &size);
	if (state_path)
		load_state(state_path, s, &mem, &lanes);
	else
		usc_state_init(s, lanes);
	s->memory.read = mem_read;
	s->memory.write = mem_write;
	s->memory.ctx = &mem;
	prog = usc_program_create(code, size);
	if (!prog)
		die("out of memory");
	res = usc_run(prog, s, max);
	print_state(s, &mem, lanes, &res);
	usc_program_destroy(prog);
	for (unsigned i = 0; i < mem.count; i++)
		free(mem.regions[i].bytes);
	free(mem.regions);
	free(s->threadgroup_memory);
	free(s);
	free(code);
	return res.status == USC_DONE ? 0 : 3;
}
