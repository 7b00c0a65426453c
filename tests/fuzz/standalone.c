/*
 * standalone.c: runs a libFuzzer-style target without libFuzzer, for builds
 * made with a compiler that has none.  It replays the seed inputs, then
 * feeds mutations of them (bit flips, byte changes, cuts, insertions,
 * splices) from a fixed-seed generator until the time or run budget ends.
 * It accepts the libFuzzer flags the test suite uses:
 *
 *   TARGET [-max_total_time=SECONDS] [-runs=N] [-seed=N] CORPUS_DIR|FILE...
 */
#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerInitialize(int *argc, char ***argv) __attribute__((weak));

#define INPUT_LIMIT (128 * 1024)

struct input {
	uint8_t *data;
	size_t size;
};

static struct input *inputs;
static size_t num_inputs, cap_inputs;
static uint64_t rng = 0x9e3779b97f4a7c15ull;

/* The input being run, written out if it crashes the target. */
static const uint8_t *current;
static size_t current_size;
static char artifact[4096] = "crash-input";

static void on_crash(int sig)
{
	int fd = open(artifact, O_WRONLY | O_CREAT | O_TRUNC, 0644);

	if (fd >= 0) {
		ssize_t ignored = write(fd, current, current_size);

		(void)ignored;
		close(fd);
	}
	signal(sig, SIG_DFL);
	raise(sig);
}

static void run(const uint8_t *data, size_t size)
{
	current = data;
	current_size = size;
	LLVMFuzzerTestOneInput(data, size);
}

static uint64_t next(void)
{
	/* xorshift64*: deterministic, so a failure reproduces with the same seed */
	rng ^= rng >> 12;
	rng ^= rng << 25;
	rng ^= rng >> 27;
	return rng * 0x2545f4914f6cdd1dull;
}

static void add_file(const char *path)
{
	FILE *f = fopen(path, "rb");
	struct input in;

	if (!f)
		return;
	in.data = malloc(INPUT_LIMIT);
	in.size = fread(in.data, 1, INPUT_LIMIT, f);
	fclose(f);
	if (num_inputs == cap_inputs) {
		cap_inputs = cap_inputs ? cap_inputs * 2 : 64;
		inputs = realloc(inputs, cap_inputs * sizeof(*inputs));
	}
	inputs[num_inputs++] = in;
}

static void add_path(const char *path)
{
	struct stat st;
	DIR *d;
	struct dirent *e;

	if (stat(path, &st) < 0)
		return;
	if (!S_ISDIR(st.st_mode)) {
		add_file(path);
		return;
	}
	d = opendir(path);
	while ((e = readdir(d))) {
		char full[4096];

		if (e->d_name[0] == '.')
			continue;
		snprintf(full, sizeof(full), "%s/%s", path, e->d_name);
		add_file(full);
	}
	closedir(d);
}

static size_t mutate(uint8_t *buf, size_t size)
{
	unsigned steps = 1 + next() % 4;

	for (unsigned s = 0; s < steps; s++) {
		size_t pos = size ? next() % size : 0;

		switch (next() % 6) {
		case 0: /* flip a bit */
			if (size)
				buf[pos] ^= (uint8_t)(1u << (next() % 8));
			break;
		case 1: /* set a byte to an interesting value */
			if (size) {
				static const uint8_t vals[] = { 0,    1,    0x7f, 0x80,
								0xff, 0x08, 0x0a, 0x10 };
				buf[pos] = vals[next() % sizeof(vals)];
			}
			break;
		case 2: /* cut the tail */
			size = pos;
			break;
		case 3: /* insert random bytes */
			if (size + 8 < INPUT_LIMIT) {
				unsigned n = 1 + next() % 8;
				memmove(buf + pos + n, buf + pos, size - pos);
				for (unsigned i = 0; i < n; i++)
					buf[pos + i] = (uint8_t)next();
				size += n;
			}
			break;
		case 4: /* erase a range */
			if (size) {
				size_t n = 1 + next() % (size - pos);
				memmove(buf + pos, buf + pos + n, size - pos - n);
				size -= n;
			}
			break;
		case 5: { /* splice in part of another input */
			const struct input *o = &inputs[next() % num_inputs];
			if (o->size) {
				size_t from = next() % o->size, n = 1 + next() % (o->size - from);
				if (pos + n > INPUT_LIMIT)
					n = INPUT_LIMIT - pos;
				memcpy(buf + pos, o->data + from, n);
				if (pos + n > size)
					size = pos + n;
			}
			break;
		}
		}
	}
	return size;
}

int main(int argc, char **argv)
{
	double max_time = 10;
	long runs = -1;
	uint8_t *buf = malloc(INPUT_LIMIT);
	struct timespec t0, t;
	unsigned long executed = 0;

	if (LLVMFuzzerInitialize)
		LLVMFuzzerInitialize(&argc, &argv);
	for (int i = 1; i < argc; i++) {
		if (!strncmp(argv[i], "-max_total_time=", 16))
			max_time = atof(argv[i] + 16);
		else if (!strncmp(argv[i], "-runs=", 6))
			runs = atol(argv[i] + 6);
		else if (!strncmp(argv[i], "-artifact_prefix=", 17))
			snprintf(artifact, sizeof(artifact), "%scrash-input", argv[i] + 17);
		else if (!strncmp(argv[i], "-seed=", 6))
			rng = strtoull(argv[i] + 6, NULL, 0) | 1;
		else if (argv[i][0] != '-')
			add_path(argv[i]);
	}
	if (!num_inputs) {
		/* no seeds: start from the empty input */
		add_file("/dev/null");
	}

	signal(SIGABRT, on_crash);
	signal(SIGSEGV, on_crash);
	signal(SIGBUS, on_crash);
	signal(SIGFPE, on_crash);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (size_t i = 0; i < num_inputs; i++, executed++)
		run(inputs[i].data, inputs[i].size);
	for (;;) {
		const struct input *in = &inputs[next() % num_inputs];
		size_t size;

		if (runs >= 0 && (long)executed >= runs)
			break;
		if ((executed & 255) == 0) {
			clock_gettime(CLOCK_MONOTONIC, &t);
			if ((double)(t.tv_sec - t0.tv_sec) + (t.tv_nsec - t0.tv_nsec) / 1e9 >=
			    max_time)
				break;
		}
		memcpy(buf, in->data, in->size);
		size = mutate(buf, in->size);
		run(buf, size);
		executed++;
	}
	printf("standalone fuzzing: %lu inputs from %zu seeds, no crash\n", executed, num_inputs);
	for (size_t i = 0; i < num_inputs; i++)
		free(inputs[i].data);
	free(inputs);
	free(buf);
	return 0;
}
