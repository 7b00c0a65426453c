/*
 * top.c: agx-top's frame (top.h) from two scrapes of agx-scheduler's
 * metrics, by the names docs/scheduler.md ("Metrics") lists.  Pure: text
 * in, text out.  Counters that went down (the scheduler restarted) count
 * from 0, as Prometheus' rate() does.
 */
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "prom.h"
#include "top.h"

#define NAME_WIDTH 16
#define PID_WIDTH  7

#define M_UPTIME	 "agx_scheduler_uptime_seconds"
#define M_CLIENTS	 "agx_scheduler_clients"
#define M_JOBS		 "agx_scheduler_jobs_total"
#define M_QUEUE_DEPTH	 "agx_scheduler_queue_depth"
#define M_SUBMIT_START	 "agx_scheduler_submit_to_start_seconds"
#define M_START_COMPLETE "agx_scheduler_start_to_complete_seconds"
#define M_FAULTS	 "agx_scheduler_faults_total"
#define M_TIMEOUTS	 "agx_scheduler_timeouts_total"
#define M_RESETS	 "agx_scheduler_resets_total"
#define M_CLIENT_GPU	 "agx_scheduler_client_gpu_seconds_total"
#define M_CLIENT_JOBS	 "agx_scheduler_client_jobs_total"
#define M_CLIENT_QUEUED	 "agx_scheduler_client_jobs_queued"
#define M_CLIENT_FAULTS	 "agx_scheduler_client_faults_total"

enum column { GPU, JOBS, QUEUED, FAULTS, NUM_COLUMNS };

static const char *const client_metrics[NUM_COLUMNS] = {
	[GPU] = M_CLIENT_GPU,
	[JOBS] = M_CLIENT_JOBS,
	[QUEUED] = M_CLIENT_QUEUED,
	[FAULTS] = M_CLIENT_FAULTS,
};

struct row {
	const char *pid, *client; /* labels, in the current scrape */
	double now[NUM_COLUMNS];  /* NaN: not in the scrape */
	double before[NUM_COLUMNS];
	double gpu_used; /* in the interval; NaN without the scrape before */
	double key;	 /* what the rows are sorted by, descending */
};

static double value(const struct promtext *doc, const char *name, const char *const *labels)
{
	const struct promtext_sample *s = doc ? promtext_find(doc, name, labels) : NULL;

	return s ? s->value : NAN;
}

/* How much a counter grew from before to now; NaN when unknown. */
static double growth(double before, double now)
{
	if (isnan(before) || isnan(now))
		return NAN;
	return now >= before ? now - before : now;
}

static double per_second(double amount, double interval)
{
	return interval > 0 ? amount / interval : NAN;
}

/* What goes into a line: printable ASCII only, since label values are anybody's. */
static void sanitize(char *out, size_t width, const char *s)
{
	size_t i = 0;

	for (; s[i] && i < width; i++)
		out[i] = s[i] >= 0x20 && s[i] < 0x7f ? s[i] : '?';
	out[i] = '\0';
}

static const char *fmt_number(char *buf, size_t n, const char *fmt, double v)
{
	if (isnan(v))
		return "-";
	snprintf(buf, n, fmt, v);
	return buf;
}

static const char *fmt_latency(char *buf, size_t n, double s)
{
	if (isnan(s))
		return "-";
	if (s < 1e-3)
		snprintf(buf, n, "%.1fus", s * 1e6);
	else if (s < 1)
		snprintf(buf, n, "%.2fms", s * 1e3);
	else
		snprintf(buf, n, "%.2fs", s);
	return buf;
}

/* GPU time as M:SS.mmm, H:MM:SS past an hour. */
static const char *fmt_gpu_time(char *buf, size_t n, double s)
{
	uint64_t ms;

	if (isnan(s) || s < 0)
		return "-";
	if (s >= 1e9)
		snprintf(buf, n, "%.3gs", s);
	else if (s < 3600) {
		ms = (uint64_t)llround(s * 1000);
		snprintf(buf, n, "%u:%02u.%03u", (unsigned)(ms / 60000), (unsigned)(ms / 1000 % 60),
			 (unsigned)(ms % 1000));
	} else {
		uint64_t sec = (uint64_t)s;

		snprintf(buf, n, "%u:%02u:%02u", (unsigned)(sec / 3600), (unsigned)(sec / 60 % 60),
			 (unsigned)(sec % 60));
	}
	return buf;
}

static const char *fmt_uptime(char *buf, size_t n, double s)
{
	uint64_t sec;

	if (isnan(s) || s < 0 || s >= 1e12)
		return "-";
	sec = (uint64_t)s;
	if (sec >= 86400)
		snprintf(buf, n, "%ud %02u:%02u:%02u", (unsigned)(sec / 86400),
			 (unsigned)(sec / 3600 % 24), (unsigned)(sec / 60 % 60),
			 (unsigned)(sec % 60));
	else
		snprintf(buf, n, "%02u:%02u:%02u", (unsigned)(sec / 3600),
			 (unsigned)(sec / 60 % 60), (unsigned)(sec % 60));
	return buf;
}

/*
 * The q-quantile of what a histogram saw in the interval (since the
 * scheduler started without the scrape before); NaN when it saw nothing.
 */
static double interval_quantile(const struct promtext *prev, const struct promtext *cur,
				const char *name, double q)
{
	struct promtext_histogram now, before;

	if (promtext_histogram_get(cur, name, NULL, &now) < 0)
		return NAN;
	if (prev && promtext_histogram_get(prev, name, NULL, &before) == 0 &&
	    before.num_buckets == now.num_buckets &&
	    !memcmp(before.le, now.le, now.num_buckets * sizeof(now.le[0]))) {
		struct promtext_histogram d = now;
		bool reset = false;

		for (size_t i = 0; i < now.num_buckets; i++) {
			reset |= !(now.cumulative[i] >= before.cumulative[i]);
			d.cumulative[i] = now.cumulative[i] - before.cumulative[i];
		}
		if (!reset)
			return promtext_histogram_quantile(&d, q);
	} else if (prev) {
		return NAN; /* nothing to compare with: a frame of totals would mislead */
	}
	return promtext_histogram_quantile(&now, q);
}

static bool is_client_sample(const struct promtext_sample *s, enum column *column)
{
	if (s->num_labels != 2 || !promtext_label(s, "pid") || !promtext_label(s, "client"))
		return false;
	for (unsigned c = 0; c < NUM_COLUMNS; c++) {
		if (!strcmp(s->name, client_metrics[c])) {
			*column = (enum column)c;
			return true;
		}
	}
	return false;
}

static struct row *find_row(struct row *rows, size_t n, const char *pid, const char *client)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(rows[i].pid, pid) && !strcmp(rows[i].client, client))
			return &rows[i];
	return NULL;
}

/* One row per client of the current scrape, with what the scrape before said of it. */
static struct row *collect_rows(const struct promtext *prev, const struct promtext *cur,
				size_t *count)
{
	struct row *rows = NULL, *r;
	size_t n = 0, cap = 0;
	enum column c;

	for (size_t i = 0; i < cur->num_samples; i++) {
		const struct promtext_sample *s = &cur->samples[i];
		const char *pid, *client;

		if (!is_client_sample(s, &c))
			continue;
		pid = promtext_label(s, "pid");
		client = promtext_label(s, "client");
		r = find_row(rows, n, pid, client);
		if (!r) {
			if (n == cap) {
				struct row *more =
				    realloc(rows, (cap = cap ? cap * 2 : 16) * sizeof(*r));

				if (!more) {
					free(rows);
					return NULL;
				}
				rows = more;
			}
			r = &rows[n++];
			*r = (struct row){ .pid = pid, .client = client };
			for (unsigned k = 0; k < NUM_COLUMNS; k++)
				r->now[k] = r->before[k] = NAN;
		}
		r->now[c] = s->value;
	}
	for (size_t i = 0; prev && i < prev->num_samples; i++) {
		const struct promtext_sample *s = &prev->samples[i];

		if (is_client_sample(s, &c) &&
		    (r = find_row(rows, n, promtext_label(s, "pid"), promtext_label(s, "client"))))
			r->before[c] = s->value;
	}
	for (size_t i = 0; i < n; i++) {
		r = &rows[i];
		/* a client that came during the interval used all it has */
		if (prev && isnan(r->before[GPU]))
			r->before[GPU] = 0;
		if (prev && isnan(r->before[JOBS]))
			r->before[JOBS] = 0;
		r->gpu_used = prev ? growth(r->before[GPU], r->now[GPU]) : NAN;
		r->key = prev ? r->gpu_used : r->now[GPU];
		if (isnan(r->key))
			r->key = -1;
	}
	*count = n;
	if (!rows)
		rows = malloc(sizeof(*rows)); /* none, but not out of memory */
	return rows;
}

static int by_gpu_time(const void *a, const void *b)
{
	const struct row *x = a, *y = b;
	unsigned long px = strtoul(x->pid, NULL, 10), py = strtoul(y->pid, NULL, 10);

	if (x->key != y->key)
		return x->key > y->key ? -1 : 1;
	if (px != py)
		return px < py ? -1 : 1;
	return strcmp(x->client, y->client);
}

static void header(FILE *f, const struct promtext *prev, const struct promtext *cur,
		   double interval)
{
	static const char *const priorities[] = { "low", "normal", "high", "realtime" };
	static const char *const kinds[] = { "guilty", "innocent" };
	char a[32], b[32], c[32], d[32];
	double resets = 0;

	fprintf(f, "agx-scheduler  up %s  clients %s  jobs %s/s\n",
		fmt_uptime(a, sizeof(a), value(cur, M_UPTIME, NULL)),
		fmt_number(b, sizeof(b), "%.0f", value(cur, M_CLIENTS, NULL)),
		fmt_number(c, sizeof(c), "%.1f",
			   per_second(growth(value(prev, M_JOBS, NULL), value(cur, M_JOBS, NULL)),
				      interval)));

	fprintf(f, "queued  ");
	for (unsigned i = 0; i < 4; i++)
		fprintf(f, " %s %s", priorities[i],
			fmt_number(a, sizeof(a), "%.0f",
				   value(cur, M_QUEUE_DEPTH,
					 (const char *[]){ "priority", priorities[i], NULL })));
	fprintf(f, "\n");

	fprintf(f, "latency  submit->start p50 %s p99 %s  start->complete p50 %s p99 %s\n",
		fmt_latency(a, sizeof(a), interval_quantile(prev, cur, M_SUBMIT_START, 0.5)),
		fmt_latency(b, sizeof(b), interval_quantile(prev, cur, M_SUBMIT_START, 0.99)),
		fmt_latency(c, sizeof(c), interval_quantile(prev, cur, M_START_COMPLETE, 0.5)),
		fmt_latency(d, sizeof(d), interval_quantile(prev, cur, M_START_COMPLETE, 0.99)));

	for (unsigned i = 0; i < 2; i++)
		resets += value(cur, M_RESETS, (const char *[]){ "kind", kinds[i], NULL });
	fprintf(f, "errors   faults %s  timeouts %s  resets %s (",
		fmt_number(a, sizeof(a), "%.0f", value(cur, M_FAULTS, NULL)),
		fmt_number(b, sizeof(b), "%.0f", value(cur, M_TIMEOUTS, NULL)),
		fmt_number(c, sizeof(c), "%.0f", resets));
	for (unsigned i = 0; i < 2; i++)
		fprintf(
		    f, "%s%s %s", i ? ", " : "", kinds[i],
		    fmt_number(a, sizeof(a), "%.0f",
			       value(cur, M_RESETS, (const char *[]){ "kind", kinds[i], NULL })));
	fprintf(f, ")\n\n");
}

char *top_render(const struct promtext *prev, const struct promtext *cur, double interval,
		 size_t max_rows)
{
	char *text = NULL, pid[PID_WIDTH + 1], name[NAME_WIDTH + 1];
	char busy[32], gpu[32], rate[32], jobs[32], queued[32], faults[32];
	size_t size = 0, n, shown;
	struct row *rows;
	FILE *f;

	rows = collect_rows(prev, cur, &n);
	if (!rows)
		return NULL;
	qsort(rows, n, sizeof(*rows), by_gpu_time);
	/* the line that says how many did not fit is one of max_rows */
	shown = !max_rows || n <= max_rows ? n : max_rows - 1;

	f = open_memstream(&text, &size);
	if (!f) {
		free(rows);
		return NULL;
	}
	header(f, prev, cur, interval);
	fprintf(f, "%*s %-*s %6s %11s %8s %10s %7s %7s\n", PID_WIDTH, "PID", NAME_WIDTH, "NAME",
		"BUSY%", "GPU TIME", "JOBS/S", "JOBS", "QUEUED", "FAULTS");
	for (size_t i = 0; i < shown; i++) {
		const struct row *r = &rows[i];

		sanitize(pid, PID_WIDTH, r->pid);
		sanitize(name, NAME_WIDTH, r->client);
		fprintf(
		    f, "%*s %-*s %6s %11s %8s %10s %7s %7s\n", PID_WIDTH, pid, NAME_WIDTH, name,
		    fmt_number(busy, sizeof(busy), "%.1f", 100 * per_second(r->gpu_used, interval)),
		    fmt_gpu_time(gpu, sizeof(gpu), r->now[GPU]),
		    fmt_number(rate, sizeof(rate), "%.1f",
			       per_second(growth(r->before[JOBS], r->now[JOBS]), interval)),
		    fmt_number(jobs, sizeof(jobs), "%.0f", r->now[JOBS]),
		    fmt_number(queued, sizeof(queued), "%.0f", r->now[QUEUED]),
		    fmt_number(faults, sizeof(faults), "%.0f", r->now[FAULTS]));
	}
	if (shown < n)
		fprintf(f, "(%zu more)\n", n - shown);
	else if (!n)
		fprintf(f, "(no clients)\n");
	free(rows);
	if (ferror(f)) {
		fclose(f);
		free(text);
		return NULL;
	}
	if (fclose(f) != 0) {
		free(text);
		return NULL;
	}
	return text;
}
