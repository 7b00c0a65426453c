/* log.c: levelled logging to stderr, journald-aware (see agxipc/log.h). */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

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
} state = { .ident = "agx", .level = AGX_LOG_NOTICE };

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
	const char *env = getenv("AGX_LOG_LEVEL");

	state.initialized = true;
	state.journal = stderr_is_journal();
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
