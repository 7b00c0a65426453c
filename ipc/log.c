/*
 * log.c: levelled logging to stderr, journald-aware, and rate limits per
 * log site and peer (see agxipc/log.h).
 */
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "agxipc/log.h"

static const char *const level_names[] = {
	[AGX_LOG_ERR] = "err",	 [AGX_LOG_WARNING] = "warning", [AGX_LOG_NOTICE] = "notice",
	[AGX_LOG_INFO] = "info", [AGX_LOG_DEBUG] = "debug",
};

static struct {
	char ident[64];
	int level;
	bool journal;
	bool initialized;
	unsigned ratelimit_ms;
} state = { .ident = "agx",
	    .level = AGX_LOG_NOTICE,
	    .ratelimit_ms = AGX_LOG_RATELIMIT_INTERVAL_MS };

/* stderr goes to the journal when it is the stream systemd named. */
static bool stderr_is_journal(void)
{
	const char *env = getenv("JOURNAL_STREAM");
	unsigned long dev, ino;
	struct stat st;

	if (!env || sscanf(env, "%lu:%lu", &dev, &ino) != 2 || fstat(2, &st) < 0)
		return false;
	return st.st_dev == dev && st.st_ino == ino;
}

static void init_from_environment(void)
{
	const char *env = getenv("AGX_LOG_RATELIMIT_MS");
	char *end;

	state.initialized = true;
	state.journal = stderr_is_journal();
	if (env) {
		unsigned long ms = strtoul(env, &end, 10);

		if (!*end && end != env && ms > 0 && ms <= 3600000)
			state.ratelimit_ms = (unsigned)ms;
	}
	env = getenv("AGX_LOG_LEVEL");
	if (!env)
		return;
	for (int l = AGX_LOG_ERR; l <= AGX_LOG_DEBUG; l++)
		if (!strcmp(env, level_names[l]))
			state.level = l;
}

void agx_log_init(const char *ident)
{
	snprintf(state.ident, sizeof(state.ident), "%s", ident);
	init_from_environment();
}

void agx_log_set_level(int level)
{
	state.level = level;
}

bool agx_log_enabled(int level)
{
	/* Libraries log before (or without) anyone calling agx_log_init(). */
	if (!state.initialized)
		init_from_environment();
	return level <= state.level;
}

void agx_log(int level, const char *fmt, ...)
{
	char line[1024];
	va_list ap;
	int n;

	if (!agx_log_enabled(level))
		return;
	if (level < AGX_LOG_ERR || level > AGX_LOG_DEBUG)
		level = AGX_LOG_ERR;
	if (state.journal)
		n = snprintf(line, sizeof(line), "<%d>", level);
	else
		n = snprintf(line, sizeof(line), "%s: %s: ", state.ident, level_names[level]);
	va_start(ap, fmt);
	vsnprintf(line + n, sizeof(line) - (size_t)n, fmt, ap);
	va_end(ap);
	/* One write per line, so lines of several processes do not interleave. */
	fprintf(stderr, "%s\n", line);
}

/* --- rate limiting --------------------------------------------------------------------- */

static pthread_mutex_t rl_lock = PTHREAD_MUTEX_INITIALIZER;
static struct agx_log_ratelimit *rl_pending; /* sites that suppressed something */
static uint64_t (*rl_clock)(void);

static uint64_t monotonic_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

void agx_log_set_clock(uint64_t (*now_ns)(void))
{
	pthread_mutex_lock(&rl_lock);
	rl_clock = now_ns;
	pthread_mutex_unlock(&rl_lock);
}

unsigned agx_log_ratelimit_interval_ms(void)
{
	if (!state.initialized)
		init_from_environment();
	return state.ratelimit_ms;
}

/* The site's count, told; a new interval starts at its next line. */
static void report(struct agx_log_ratelimit *rl)
{
	if (rl->missed)
		agx_log(rl->level, "%s: %u similar messages suppressed", rl->site, rl->missed);
	rl->missed = 0;
	rl->begin_ns = 0;
}

static bool interval_over(const struct agx_log_ratelimit *rl, uint64_t now)
{
	return !rl->begin_ns || now - rl->begin_ns >= (uint64_t)state.ratelimit_ms * 1000000u;
}

/*
 * The peer's entry: its own, else one unused this interval, else the
 * oldest taken (a client that forks new pids still meets the site's limit).
 */
static unsigned find_peer(struct agx_log_ratelimit *rl, long peer)
{
	unsigned i;

	for (i = 0; i < AGX_LOG_RATELIMIT_PEERS; i++)
		if (rl->peers[i].printed && rl->peers[i].peer == peer)
			return i;
	for (i = 0; i < AGX_LOG_RATELIMIT_PEERS; i++)
		if (!rl->peers[i].printed)
			break;
	if (i == AGX_LOG_RATELIMIT_PEERS) {
		i = rl->next_peer;
		rl->next_peer = (rl->next_peer + 1) % AGX_LOG_RATELIMIT_PEERS;
	}
	rl->peers[i].peer = peer;
	rl->peers[i].printed = 0;
	return i;
}

bool agx_log_ratelimit(struct agx_log_ratelimit *rl, long peer)
{
	uint64_t now;
	bool ok;

	if (!state.initialized)
		init_from_environment();
	pthread_mutex_lock(&rl_lock);
	now = rl_clock ? rl_clock() : monotonic_ns();

	if (interval_over(rl, now)) {
		report(rl);
		rl->begin_ns = now ? now : 1; /* 0 means "no interval yet" */
		rl->printed = 0;
		for (unsigned i = 0; i < AGX_LOG_RATELIMIT_PEERS; i++)
			rl->peers[i].printed = 0;
	}
	ok = rl->printed < AGX_LOG_RATELIMIT_BURST;
	if (ok && peer >= 0) {
		unsigned i = find_peer(rl, peer);

		ok = rl->peers[i].printed < AGX_LOG_RATELIMIT_PEER_BURST;
		if (ok)
			rl->peers[i].printed++;
	}
	if (ok) {
		rl->printed++;
	} else {
		rl->missed++;
		if (!rl->pending) {
			rl->pending = true;
			rl->next_pending = rl_pending;
			rl_pending = rl;
		}
	}
	pthread_mutex_unlock(&rl_lock);
	return ok;
}

void agx_log_ratelimit_flush(bool all)
{
	uint64_t now;

	pthread_mutex_lock(&rl_lock);
	now = rl_clock ? rl_clock() : monotonic_ns();

	for (struct agx_log_ratelimit **p = &rl_pending; *p;) {
		struct agx_log_ratelimit *rl = *p;

		if (rl->missed && !all && !interval_over(rl, now)) {
			p = &rl->next_pending;
			continue;
		}
		report(rl);
		rl->pending = false;
		*p = rl->next_pending;
	}
	pthread_mutex_unlock(&rl_lock);
}
