/*
 * make-seeds: seed bodies for fuzz-promtext, written into DIR: scrapes as
 * agx-scheduler writes them (sample-scrape.c, with awkward client names),
 * the format's other forms, and a few malformed bodies to mutate back.
 *
 *   make-seeds DIR
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sample-scrape.h"

static unsigned written;

static void seed(const char *dir, const char *data, size_t size)
{
	char path[4096];
	FILE *f;

	snprintf(path, sizeof(path), "%s/body-%04u", dir, written++);
	f = fopen(path, "wb");
	if (!f || fwrite(data, 1, size, f) != size || fclose(f) != 0) {
		perror(path);
		exit(1);
	}
}

int main(int argc, char **argv)
{
	static const char *const forms[] = {
		"# a comment\n\n# HELP a The \\\\ help\\n.\n# TYPE a counter\na{} 2\n"
		"a{b=\"1\",} 3 1700000000000\n\t a{ b = \"1\" ,\tc=\"2\" }  4  -17  \n",
		"a +Inf\na -Inf\na NaN\na .5\na 5.\na 1E3\na -0\na 1e-300\n",
		"x_bucket{le=\"1\"} 2\nx_bucket{le=\"+Inf\"} 4\nx_bucket{le=\"2\"} 4\nx_sum 5\n"
		"x_count 4\n",
		"# TYPE s summary\ns{quantile=\"0.5\"} 1\ns_sum 2\ns_count 3\n",
		"a{b=\"\\\\\\\"\\n\"} 1\n",
		"a{b=\"1} 2\n",
		"a 1\nb 2",
		"# TYPE a gauge\n# TYPE a counter\n",
	};
	struct sample_scrape v = {
		.uptime = 3600.25,
		.clients = 3,
		.jobs = 123456,
		.faults = 2,
		.timeouts = 1,
		.queue_depth = { 0, 5, 1, 0 },
		.resets = { 1, 1 },
		.client = { { "101", "glmark2", 12.5, 4000, 3, 0 },
			    { "102", "we\\ird \"one\"\nhere", 0.001, 1, 0, 1 },
			    { "103", "", 0, 0, 0, 0 } },
		.num_clients = 3,
	};
	size_t size;
	char *text;

	if (argc != 2) {
		fprintf(stderr, "usage: %s DIR\n", argv[0]);
		return 2;
	}
	for (unsigned i = 0; i < 50; i++) {
		prom_histogram_observe(&v.submit_to_start, 1e-5 * (i + 1));
		prom_histogram_observe(&v.start_to_complete, 1e-3 * (i + 1));
	}
	prom_histogram_observe(&v.start_to_complete, 100);
	text = sample_scrape_write(&v, &size);
	seed(argv[1], text, size);
	free(text);
	v.num_clients = 0;
	text = sample_scrape_write(&v, &size);
	seed(argv[1], text, size);
	free(text);
	for (size_t i = 0; i < sizeof(forms) / sizeof(forms[0]); i++)
		seed(argv[1], forms[i], strlen(forms[i]));
	return 0;
}
