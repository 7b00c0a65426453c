/*
 * Levelled logging to stderr.  Under systemd (stderr connected to the
 * journal) each line starts with the syslog priority prefix "<N>" that
 * journald reads; otherwise lines read "ident: level: message".
 */
#ifndef AGXIPC_LOG_H
#define AGXIPC_LOG_H

#include <stdbool.h>
#include <stdint.h>

#include "ipc.h"

/* The syslog priorities. */
enum agx_log_level {
	AGX_LOG_ERR = 3,
	AGX_LOG_WARNING = 4,
	AGX_LOG_NOTICE = 5,
	AGX_LOG_INFO = 6,
	AGX_LOG_DEBUG = 7,
};

/*
 * Names the process in log lines and reads the level from AGX_LOG_LEVEL
 * (err, warning, notice, info, debug; default notice).
 */
AGX_IPC_EXPORT void agx_log_init(const char *ident);
AGX_IPC_EXPORT void agx_log_set_level(int level);
AGX_IPC_EXPORT bool agx_log_enabled(int level);
AGX_IPC_EXPORT void agx_log(int level, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#define agx_err(...)	agx_log(AGX_LOG_ERR, __VA_ARGS__)
#define agx_warn(...)	agx_log(AGX_LOG_WARNING, __VA_ARGS__)
#define agx_notice(...) agx_log(AGX_LOG_NOTICE, __VA_ARGS__)
#define agx_info(...)	agx_log(AGX_LOG_INFO, __VA_ARGS__)
#define agx_dbg(...)                                                                               \
	do {                                                                                       \
		if (agx_log_enabled(AGX_LOG_DEBUG))                                                \
			agx_log(AGX_LOG_DEBUG, __VA_ARGS__);                                       \
	} while (0)

/*
 * Rate limiting, as the kernel's printk_ratelimit and journald do it: a
 * log site prints at most AGX_LOG_RATELIMIT_BURST lines an interval of
 * AGX_LOG_RATELIMIT_INTERVAL_MS, and one peer (a client, named by its
 * pid) at most AGX_LOG_RATELIMIT_PEER_BURST of them, so that one client's
 * flood neither fills the disk nor hides what other clients did.  What a
 * site held back is said in one line, "SITE: N similar messages
 * suppressed", once its interval has ended: at the site's next line, or
 * from agx_log_ratelimit_flush() (the daemons call it from a loop timer,
 * and at exit).  A site is static state: use the macros.
 */
#define AGX_LOG_RATELIMIT_INTERVAL_MS 5000
#define AGX_LOG_RATELIMIT_BURST	      20
#define AGX_LOG_RATELIMIT_PEER_BURST  5
#define AGX_LOG_RATELIMIT_PEERS	      8 /* peers a site tells apart at once */

struct agx_log_ratelimit {
	const char *site; /* named in the "suppressed" line */
	int level;	  /* ... which is printed at the site's level */
	/* private to log.c */
	uint64_t begin_ns; /* the current interval's start; 0: none yet */
	unsigned printed, missed;
	struct {
		long peer;
		unsigned printed;
	} peers[AGX_LOG_RATELIMIT_PEERS];
	unsigned next_peer; /* the entry a new peer takes, in turn */
	bool pending;	    /* on the list of sites with a count to tell */
	struct agx_log_ratelimit *next_pending;
};

#define AGX_LOG_RATELIMIT_INIT(name, lvl)                                                          \
	{                                                                                          \
		.site = (name), .level = (lvl)                                                     \
	}

/*
 * Whether a line of this site (and of peer, or -1 when no peer is known)
 * may be printed now; counts it as suppressed otherwise.  A site whose
 * interval ended prints its "suppressed" line first.
 */
AGX_IPC_EXPORT bool agx_log_ratelimit(struct agx_log_ratelimit *rl, long peer);
/* Prints the "suppressed" line of every site whose interval ended (all: of every site). */
AGX_IPC_EXPORT void agx_log_ratelimit_flush(bool all);
/*
 * The interval in use: AGX_LOG_RATELIMIT_INTERVAL_MS, or what the
 * environment's AGX_LOG_RATELIMIT_MS says (tests shorten it).
 */
AGX_IPC_EXPORT unsigned agx_log_ratelimit_interval_ms(void);
/* The clock rate limiting reads (CLOCK_MONOTONIC in ns); tests pass a fake, NULL restores. */
AGX_IPC_EXPORT void agx_log_set_clock(uint64_t (*now_ns)(void));

/* agx_log() through a rate limit of its own, for a line one client can cause again and again. */
#define agx_log_ratelimited(level, peer, ...)                                                      \
	do {                                                                                       \
		static struct agx_log_ratelimit agx_log_rl_ =                                      \
		    AGX_LOG_RATELIMIT_INIT(__func__, level);                                       \
		if (agx_log_enabled(level) && agx_log_ratelimit(&agx_log_rl_, (long)(peer)))       \
			agx_log(level, __VA_ARGS__);                                               \
	} while (0)

#define agx_err_ratelimited(peer, ...)	  agx_log_ratelimited(AGX_LOG_ERR, peer, __VA_ARGS__)
#define agx_warn_ratelimited(peer, ...)	  agx_log_ratelimited(AGX_LOG_WARNING, peer, __VA_ARGS__)
#define agx_notice_ratelimited(peer, ...) agx_log_ratelimited(AGX_LOG_NOTICE, peer, __VA_ARGS__)

#endif
