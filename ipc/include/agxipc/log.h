/*
 * Levelled logging to stderr.  Under systemd (stderr connected to the
 * journal) each line starts with the syslog priority prefix "<N>" that
 * journald reads; otherwise lines read "ident: level: message".
 */
#ifndef AGXIPC_LOG_H
#define AGXIPC_LOG_H

#include <stdbool.h>

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

#endif
