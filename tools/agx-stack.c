/*
 * agx-stack: the whole stack for the current user, without root or systemd.
 *
 *   agx-stack up        start agx-sim, agx-memmgr, agx-fwchan and agx-scheduler,
 *                       each once the one before said READY=1
 *   agx-stack status    what runs (exit 0 if all of it, 3 otherwise)
 *   agx-stack down      stop them, in reverse order
 *   agx-stack top ARGS  agx-top on the scheduler's metrics socket
 *   agx-stack run -- PROGRAM ARGS
 *                       up (quietly, if need be), then PROGRAM with the
 *                       environment that points libagx at this stack
 *
 * It owns the state directory (sockets, NAME.pid, NAME.log) and the
 * daemons' lifecycle there; the daemons themselves are the ones systemd
 * runs (systemd/), found in the build tree next to this program.  They are
 * started in their own sessions and outlive it; the pid files are how a
 * later invocation finds them again.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/file.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#define MAX_SOCKETS 2
#define MAX_ARGS    12

/* How long a daemon may take to say READY=1 (agx-fwchan boots the firmware first). */
#define READY_TIMEOUT_MS 20000
/* How long a daemon may take to exit after SIGTERM, then after SIGKILL. */
#define TERM_TIMEOUT_MS 10000
#define KILL_TIMEOUT_MS 5000
/* The lines of a daemon's log shown when it fails to start. */
#define LOG_TAIL_LINES 20

/*
 * One daemon of the stack.  "$DIR" in an argument stands for the state
 * directory.  The first socket is the one its --socket names; every
 * socket listed must accept connections for the daemon to count as running.
 */
struct daemon {
	const char *name;   /* the program, and how messages call it */
	const char *file;   /* NAME.pid and NAME.log in the state directory */
	const char *binary; /* its path in the build tree */
	const char *sockets[MAX_SOCKETS];
	const char *args[MAX_ARGS];
};

/* In dependency order: each one needs the ones before it. */
static const struct daemon daemons[] = {
	{
	    .name = "agx-sim",
	    .file = "sim",
	    .binary = "sim/agx-sim",
	    .sockets = { "sim.sock" },
	    .args = { "--socket", "$DIR/sim.sock" },
	},
	{
	    .name = "agx-memmgr",
	    .file = "memmgr",
	    .binary = "memmgr/agx-memmgr",
	    .sockets = { "memmgr.sock", "memmgr-priv.sock" },
	    .args = { "--socket", "$DIR/memmgr.sock", "--privileged-socket",
		      "$DIR/memmgr-priv.sock", "--device", "$DIR/sim.sock", "--fwchan",
		      "$DIR/fwchan.sock" },
	},
	{
	    .name = "agx-fwchan",
	    .file = "fwchan",
	    .binary = "fwchan/agx-fwchan",
	    .sockets = { "fwchan.sock" },
	    .args = { "--socket", "$DIR/fwchan.sock", "--device", "$DIR/sim.sock", "--memmgr",
		      "$DIR/memmgr-priv.sock" },
	},
	{
	    .name = "agx-scheduler",
	    .file = "scheduler",
	    .binary = "scheduler/agx-scheduler",
	    .sockets = { "scheduler.sock", "metrics.sock" },
	    .args = { "--socket", "$DIR/scheduler.sock", "--fwchan", "$DIR/fwchan.sock", "--memmgr",
		      "$DIR/memmgr-priv.sock", "--metrics", "unix:$DIR/metrics.sock" },
	},
};

#define NUM_DAEMONS (sizeof(daemons) / sizeof(daemons[0]))

/* The socket agx-top reads, one of the scheduler's above. */
#define METRICS_SOCKET "metrics.sock"
/* Where the daemons being started send READY=1. */
#define NOTIFY_SOCKET "notify.sock"

enum state {
	STOPPED,   /* no pid file */
	DEAD,	   /* a pid file, but its process is gone */
	NOT_READY, /* runs, but one of its sockets refuses connections */
	RUNNING,
};

static const char *const state_names[] = {
	[STOPPED] = "stopped",
	[DEAD] = "dead",
	[NOT_READY] = "not ready",
	[RUNNING] = "running",
};

struct probe {
	enum state state;
	pid_t pid;	     /* from the pid file, 0 without one */
	const char *refused; /* NOT_READY: the socket that refused */
};

/* The state directory and the build tree, for every command. */
struct stack {
	char dir[PATH_MAX];
	char build[PATH_MAX];
};

static void say(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void say(const char *fmt, ...)
{
	va_list ap;

	fputs("agx-stack: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

static long long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static void sleep_ms(int ms)
{
	struct timespec ts = { ms / 1000, (long)(ms % 1000) * 1000000 };

	nanosleep(&ts, NULL);
}

/* DIR/name into out; false (and said) if it does not fit. */
static bool path_in(char *out, size_t size, const char *dir, const char *name)
{
	if ((size_t)snprintf(out, size, "%s/%s", dir, name) < size)
		return true;
	say("%s/%s: path too long", dir, name);
	return false;
}

/* An argument of the table with "$DIR" replaced by the state directory. */
static char *expand(const char *arg, const char *dir)
{
	const char *var = strstr(arg, "$DIR");
	char *out;

	if (!var)
		return strdup(arg);
	if (asprintf(&out, "%.*s%s%s", (int)(var - arg), arg, dir, var + 4) < 0)
		return NULL;
	return out;
}

/* --- the state directory ------------------------------------------------ */

/*
 * A directory only we can write to, created (0700) if it does not exist.
 * A symlink is refused: /tmp is shared, and someone else could have put
 * one where ours should be.
 */
static int make_private_dir(const char *path)
{
	struct stat st;

	if (mkdir(path, 0700) < 0 && errno != EEXIST) {
		say("cannot create the state directory %s: %s", path, strerror(errno));
		return -errno;
	}
	if (lstat(path, &st) < 0) {
		say("%s: %s", path, strerror(errno));
		return -errno;
	}
	if (!S_ISDIR(st.st_mode)) {
		say("the state directory %s is not a directory", path);
		return -ENOTDIR;
	}
	if (st.st_uid != getuid()) {
		say("the state directory %s belongs to uid %u, not to us (uid %u)", path,
		    (unsigned)st.st_uid, (unsigned)getuid());
		return -EPERM;
	}
	if (st.st_mode & (S_IWGRP | S_IWOTH)) {
		say("the state directory %s is writable by others (mode %03o); refusing it", path,
		    (unsigned)(st.st_mode & 0777));
		return -EPERM;
	}
	return 0;
}

/* XDG_RUNTIME_DIR is usable if it is a directory of ours we can write to. */
static bool xdg_usable(const char *xdg)
{
	struct stat st;

	return xdg && xdg[0] == '/' && stat(xdg, &st) == 0 && S_ISDIR(st.st_mode) &&
	       st.st_uid == getuid() && access(xdg, W_OK | X_OK) == 0;
}

/*
 * $AGX_RUNTIME_DIR, else $XDG_RUNTIME_DIR/agx, else /tmp/agx-$UID; made
 * absolute, since it is handed to daemons, and short enough for every
 * socket's sockaddr_un.
 */
static int find_state_dir(struct stack *s)
{
	const char *env = getenv("AGX_RUNTIME_DIR");
	const char *xdg = getenv("XDG_RUNTIME_DIR");
	char path[PATH_MAX];
	size_t longest = strlen(NOTIFY_SOCKET);
	int ret;

	if (env && env[0])
		snprintf(path, sizeof(path), "%s", env);
	else if (xdg_usable(xdg))
		snprintf(path, sizeof(path), "%s/agx", xdg);
	else
		snprintf(path, sizeof(path), "/tmp/agx-%u", (unsigned)getuid());
	ret = make_private_dir(path);
	if (ret < 0)
		return ret;
	if (!realpath(path, s->dir)) {
		say("%s: %s", path, strerror(errno));
		return -errno;
	}

	for (unsigned i = 0; i < NUM_DAEMONS; i++)
		for (unsigned j = 0; j < MAX_SOCKETS && daemons[i].sockets[j]; j++)
			if (strlen(daemons[i].sockets[j]) > longest)
				longest = strlen(daemons[i].sockets[j]);
	if (strlen(s->dir) + 1 + longest >= sizeof(((struct sockaddr_un *)0)->sun_path)) {
		say("the state directory %s is too long a path for its sockets; set "
		    "AGX_RUNTIME_DIR to a shorter one",
		    s->dir);
		return -ENAMETOOLONG;
	}
	return 0;
}

/* build/, the directory two levels above build/tools/agx-stack. */
static int find_build_tree(struct stack *s)
{
	ssize_t n = readlink("/proc/self/exe", s->build, sizeof(s->build) - 1);
	char *slash;

	if (n <= 0) {
		say("/proc/self/exe: %s", strerror(errno));
		return -errno;
	}
	s->build[n] = '\0';
	for (int i = 0; i < 2; i++) {
		slash = strrchr(s->build, '/');
		if (!slash || slash == s->build) {
			say("%s is not in a build tree", s->build);
			return -ENOENT;
		}
		*slash = '\0';
	}
	return 0;
}

/*
 * Held while up or down changes what runs, so that two of them do not
 * start the same daemons.  Released when the process exits.
 */
static int lock_stack(const struct stack *s)
{
	char path[PATH_MAX];
	int fd;

	if (!path_in(path, sizeof(path), s->dir, "stack.lock"))
		return -ENAMETOOLONG;
	fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
	if (fd < 0) {
		say("%s: %s", path, strerror(errno));
		return -errno;
	}
	if (flock(fd, LOCK_EX | LOCK_NB) < 0) {
		say("another agx-stack is starting or stopping the stack in %s; waiting", s->dir);
		if (flock(fd, LOCK_EX) < 0) {
			say("%s: %s", path, strerror(errno));
			close(fd);
			return -errno;
		}
	}
	return fd;
}

/* --- what runs ----------------------------------------------------------- */

/* The pid in d's pid file; 0 if there is none, -1 if it holds no pid. */
static pid_t read_pid(const struct stack *s, const struct daemon *d)
{
	char path[PATH_MAX], name[64];
	long pid = 0;
	FILE *f;

	snprintf(name, sizeof(name), "%s.pid", d->file);
	if (!path_in(path, sizeof(path), s->dir, name))
		return 0;
	f = fopen(path, "re");
	if (!f)
		return 0;
	if (fscanf(f, "%ld", &pid) != 1 || pid <= 0 || pid > INT_MAX)
		pid = 0;
	fclose(f);
	return pid ? (pid_t)pid : -1;
}

static int write_pid(const struct stack *s, const struct daemon *d, pid_t pid)
{
	char path[PATH_MAX], tmp[PATH_MAX], name[64];
	FILE *f;

	snprintf(name, sizeof(name), "%s.pid", d->file);
	if (!path_in(path, sizeof(path), s->dir, name) ||
	    (size_t)snprintf(tmp, sizeof(tmp), "%s.new", path) >= sizeof(tmp))
		return -ENAMETOOLONG;
	/* written aside and renamed, so that a reader never sees half of it */
	f = fopen(tmp, "we");
	if (!f || fprintf(f, "%d\n", (int)pid) < 0 || fclose(f) != 0 || rename(tmp, path) < 0) {
		say("cannot write %s: %s", path, strerror(errno));
		unlink(tmp);
		return -errno;
	}
	return 0;
}

static void remove_pid(const struct stack *s, const struct daemon *d)
{
	char path[PATH_MAX], name[64];

	snprintf(name, sizeof(name), "%s.pid", d->file);
	if (path_in(path, sizeof(path), s->dir, name))
		unlink(path);
}

/*
 * Whether pid is d serving this state directory: its argv[0] names d's
 * program and its argv[1..2] are "--socket DIR/first-socket", as up
 * started it.  The path of the build tree is not compared, so that
 * another build of the same tree still finds the daemons.  A recycled pid
 * does not match, nor does a zombie (its cmdline reads empty).
 */
static bool is_our_daemon(const struct stack *s, const struct daemon *d, pid_t pid)
{
	char path[64], buf[4096], want[PATH_MAX];
	const char *base = strrchr(d->binary, '/') + 1;
	const char *argv[3] = { NULL };
	const char *prog;
	ssize_t n;
	size_t off = 0;
	int fd;

	/* EPERM too: what we started runs as us */
	if (pid <= 0 || kill(pid, 0) < 0)
		return false;
	snprintf(path, sizeof(path), "/proc/%d/cmdline", (int)pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return false;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return false;
	buf[n] = '\0';
	for (unsigned i = 0; i < 3 && off < (size_t)n; i++) {
		argv[i] = buf + off;
		off += strlen(buf + off) + 1;
	}
	if (!argv[2] || !path_in(want, sizeof(want), s->dir, d->sockets[0]))
		return false;
	prog = strrchr(argv[0], '/') ? strrchr(argv[0], '/') + 1 : argv[0];
	return strcmp(prog, base) == 0 && strcmp(argv[1], "--socket") == 0 &&
	       strcmp(argv[2], want) == 0;
}

/* Whether something accepts connections on the unix socket at path. */
static bool socket_connectable(const char *path)
{
	/* the daemons serve SOCK_SEQPACKET, the metrics endpoint SOCK_STREAM */
	static const int types[] = { SOCK_SEQPACKET, SOCK_STREAM };
	struct sockaddr_un addr = { .sun_family = AF_UNIX };
	bool ok = false;

	if (strlen(path) >= sizeof(addr.sun_path))
		return false;
	strcpy(addr.sun_path, path);
	for (unsigned i = 0; i < 2; i++) {
		int fd = socket(AF_UNIX, types[i] | SOCK_CLOEXEC, 0);
		int err;

		if (fd < 0)
			return false;
		ok = connect(fd, (struct sockaddr *)&addr, sizeof(addr)) == 0;
		err = errno;
		close(fd);
		/* EPROTOTYPE: a socket of the other type */
		if (ok || err != EPROTOTYPE)
			break;
	}
	return ok;
}

static struct probe probe_daemon(const struct stack *s, const struct daemon *d)
{
	struct probe p = { .pid = read_pid(s, d) };
	char path[PATH_MAX];

	if (p.pid == 0) {
		p.state = STOPPED;
		return p;
	}
	if (!is_our_daemon(s, d, p.pid)) {
		p.state = DEAD;
		return p;
	}
	p.state = RUNNING;
	for (unsigned i = 0; i < MAX_SOCKETS && d->sockets[i]; i++) {
		if (!path_in(path, sizeof(path), s->dir, d->sockets[i]) ||
		    !socket_connectable(path)) {
			p.state = NOT_READY;
			p.refused = d->sockets[i];
			break;
		}
	}
	return p;
}

static bool alive(enum state state)
{
	return state == RUNNING || state == NOT_READY;
}

/* Seconds since pid started (from /proc/PID/stat and /proc/uptime); -1 if unknown. */
static long uptime_of(pid_t pid)
{
	char path[64], buf[1024], *p;
	unsigned long long start = 0;
	double up = 0;
	ssize_t n;
	FILE *f;
	int fd;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return -1;
	buf[n] = '\0';
	/* the command name may hold spaces and parentheses: fields count from the last ')' */
	p = strrchr(buf, ')');
	if (!p)
		return -1;
	/* p: the space before field 3 (the state), ..., before field 22 (starttime) */
	for (int field = 3; field <= 22 && p; field++)
		p = strchr(p + 1, ' ');
	if (!p || sscanf(p + 1, "%llu", &start) != 1)
		return -1;

	f = fopen("/proc/uptime", "re");
	if (!f)
		return -1;
	if (fscanf(f, "%lf", &up) != 1)
		up = -1;
	fclose(f);
	if (up < 0)
		return -1;
	up -= (double)start / (double)sysconf(_SC_CLK_TCK);
	return up < 0 ? 0 : (long)up;
}

/* Like ps's etime: [[DD-]HH:]MM:SS. */
static void format_uptime(char *out, size_t size, long secs)
{
	long d = secs / 86400, h = secs / 3600 % 24, m = secs / 60 % 60, sec = secs % 60;

	if (secs < 0)
		snprintf(out, size, "?");
	else if (d)
		snprintf(out, size, "%ld-%02ld:%02ld:%02ld", d, h, m, sec);
	else if (h)
		snprintf(out, size, "%02ld:%02ld:%02ld", h, m, sec);
	else
		snprintf(out, size, "%02ld:%02ld", m, sec);
}

/* --- stopping ------------------------------------------------------------ */

/* Waits (at most timeout_ms) for pid to be gone; reaps it if it is our child. */
static bool wait_gone(const struct stack *s, const struct daemon *d, pid_t pid, int timeout_ms)
{
	long long deadline = now_ms() + timeout_ms;

	for (;;) {
		waitpid(pid, NULL, WNOHANG);
		if (!is_our_daemon(s, d, pid))
			return true;
		if (now_ms() >= deadline)
			return false;
		sleep_ms(10);
	}
}

/*
 * SIGTERM, then SIGKILL if it has not exited TERM_TIMEOUT_MS later.  A
 * killed daemon could not remove its sockets: they go too.  The pid file
 * goes once the process is gone.
 */
static bool stop_daemon(const struct stack *s, const struct daemon *d, pid_t pid)
{
	char path[PATH_MAX];

	if (kill(pid, SIGTERM) < 0 && errno != ESRCH) {
		say("cannot signal %s (pid %d): %s", d->name, (int)pid, strerror(errno));
		return false;
	}
	if (!wait_gone(s, d, pid, TERM_TIMEOUT_MS)) {
		say("%s (pid %d) still runs %d s after SIGTERM; sending SIGKILL", d->name, (int)pid,
		    TERM_TIMEOUT_MS / 1000);
		kill(pid, SIGKILL);
		if (!wait_gone(s, d, pid, KILL_TIMEOUT_MS)) {
			say("%s (pid %d) did not exit after SIGKILL; its pid file stays", d->name,
			    (int)pid);
			return false;
		}
		for (unsigned i = 0; i < MAX_SOCKETS && d->sockets[i]; i++)
			if (path_in(path, sizeof(path), s->dir, d->sockets[i]))
				unlink(path);
	}
	remove_pid(s, d);
	return true;
}

/*
 * Stops, in reverse order, every daemon of the first count that runs,
 * and removes the pid files of those that died, saying what it did.
 * False if one of them could not be stopped.
 */
static bool stop_all(const struct stack *s, unsigned count)
{
	bool ok = true;

	for (unsigned i = count; i-- > 0;) {
		const struct daemon *d = &daemons[i];
		struct probe p = probe_daemon(s, d);

		if (alive(p.state)) {
			if (stop_daemon(s, d, p.pid)) {
				printf("stopped %s (pid %d)\n", d->name, (int)p.pid);
			} else {
				ok = false;
			}
		} else if (p.state == DEAD) {
			remove_pid(s, d);
			printf("%s was not running; removed its stale pid file\n", d->name);
		}
	}
	return ok;
}

/* --- starting ------------------------------------------------------------ */

/* The datagram socket the daemons being started send READY=1 to. */
static int notify_open(const struct stack *s, struct sockaddr_un *addr)
{
	int one = 1, fd;

	addr->sun_family = AF_UNIX;
	if (!path_in(addr->sun_path, sizeof(addr->sun_path), s->dir, NOTIFY_SOCKET))
		return -ENAMETOOLONG;
	fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	if (fd < 0) {
		say("socket: %s", strerror(errno));
		return -errno;
	}
	unlink(addr->sun_path);
	/* SO_PASSCRED: every datagram comes with its sender's pid */
	if (bind(fd, (struct sockaddr *)addr, sizeof(*addr)) < 0 ||
	    setsockopt(fd, SOL_SOCKET, SO_PASSCRED, &one, sizeof(one)) < 0) {
		say("%s: %s", addr->sun_path, strerror(errno));
		close(fd);
		return -errno;
	}
	return fd;
}

/*
 * Forks d in a session of its own, stdin from /dev/null, stdout and stderr
 * appended to its log, told to notify the socket at notify_path and
 * nothing else of a service manager's.  *log_start is where this run's
 * lines begin in the log.
 */
static pid_t spawn_daemon(const struct stack *s, const struct daemon *d, const char *notify_path,
			  off_t *log_start)
{
	char prog[PATH_MAX], log_path[PATH_MAX], name[64];
	char *argv[MAX_ARGS + 2] = { prog };
	int log_fd, null_fd;
	unsigned argc = 1;
	pid_t pid = -1;

	snprintf(name, sizeof(name), "%s.log", d->file);
	if ((size_t)snprintf(prog, sizeof(prog), "%s/%s", s->build, d->binary) >= sizeof(prog) ||
	    !path_in(log_path, sizeof(log_path), s->dir, name))
		return -ENAMETOOLONG;
	if (access(prog, X_OK) < 0) {
		say("cannot run %s: %s", prog, strerror(errno));
		return -errno;
	}
	for (; argc <= MAX_ARGS && d->args[argc - 1]; argc++) {
		argv[argc] = expand(d->args[argc - 1], s->dir);
		if (!argv[argc]) {
			say("out of memory");
			goto out;
		}
	}

	log_fd = open(log_path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0600);
	null_fd = open("/dev/null", O_RDONLY | O_CLOEXEC);
	if (log_fd < 0 || null_fd < 0) {
		say("cannot open %s: %s", log_fd < 0 ? log_path : "/dev/null", strerror(errno));
		goto close;
	}
	*log_start = lseek(log_fd, 0, SEEK_END);

	fflush(NULL);
	pid = fork();
	if (pid == 0) {
		time_t t = time(NULL);
		char when[64];

		/* dup2 clears close-on-exec on the copies */
		if (dup2(null_fd, 0) < 0 || dup2(log_fd, 1) < 0 || dup2(log_fd, 2) < 0)
			_exit(127);
		setsid();
		unsetenv("WATCHDOG_USEC");
		unsetenv("WATCHDOG_PID");
		unsetenv("LISTEN_FDS");
		unsetenv("LISTEN_PID");
		unsetenv("LISTEN_FDNAMES");
		setenv("NOTIFY_SOCKET", notify_path, 1);
		strftime(when, sizeof(when), "%F %T %z", localtime(&t));
		dprintf(2, "--- agx-stack: %s started as pid %d at %s\n", d->name, (int)getpid(),
			when);
		execv(prog, argv);
		dprintf(2, "agx-stack: cannot run %s: %s\n", prog, strerror(errno));
		_exit(127);
	}
	if (pid < 0)
		say("fork: %s", strerror(errno));
close:
	if (log_fd >= 0)
		close(log_fd);
	if (null_fd >= 0)
		close(null_fd);
out:
	for (unsigned i = 1; i < argc; i++)
		free(argv[i]);
	return pid;
}

/* Whether a notification (newline-separated assignments) holds READY=1. */
static bool says_ready(const char *msg)
{
	for (const char *line = msg; *line;) {
		size_t len = strcspn(line, "\n");

		if (len == 7 && strncmp(line, "READY=1", 7) == 0)
			return true;
		line += len;
		if (*line)
			line++;
	}
	return false;
}

/*
 * Reads what is queued on the notify socket; true once pid (by its
 * credentials, which the kernel fills in, so nobody can speak for it)
 * said READY=1.
 */
static bool read_notifications(int fd, pid_t pid)
{
	char buf[4096];
	union {
		struct cmsghdr hdr;
		char space[CMSG_SPACE(sizeof(struct ucred))];
	} control;
	bool ready = false;

	for (;;) {
		struct iovec iov = { buf, sizeof(buf) - 1 };
		struct msghdr msg = {
			.msg_iov = &iov,
			.msg_iovlen = 1,
			.msg_control = &control,
			.msg_controllen = sizeof(control),
		};
		struct ucred cred = { 0 };
		ssize_t n = recvmsg(fd, &msg, MSG_DONTWAIT | MSG_CMSG_CLOEXEC);
		struct cmsghdr *c;

		if (n < 0)
			return ready;
		buf[n] = '\0';
		for (c = CMSG_FIRSTHDR(&msg); c; c = CMSG_NXTHDR(&msg, c)) {
			if (c->cmsg_level == SOL_SOCKET && c->cmsg_type == SCM_CREDENTIALS &&
			    c->cmsg_len == CMSG_LEN(sizeof(cred)))
				memcpy(&cred, CMSG_DATA(c), sizeof(cred));
		}
		if (cred.pid == pid && says_ready(buf))
			ready = true;
	}
}

/* How a child that ended told of its end, for a message. */
static void describe_exit(char *out, size_t size, int status)
{
	if (WIFEXITED(status))
		snprintf(out, size, "exited with status %d", WEXITSTATUS(status));
	else if (WIFSIGNALED(status))
		snprintf(out, size, "was killed by %s", strsignal(WTERMSIG(status)));
	else
		snprintf(out, size, "ended");
}

/* 0 once pid said READY=1; -ECHILD if it exited first, -ETIMEDOUT. */
static int wait_ready(const struct daemon *d, pid_t pid, int notify_fd)
{
	long long deadline = now_ms() + READY_TIMEOUT_MS;
	char why[128];
	int status;

	for (;;) {
		struct pollfd pfd = { notify_fd, POLLIN, 0 };
		long long left = deadline - now_ms();

		if (read_notifications(notify_fd, pid))
			return 0;
		if (waitpid(pid, &status, WNOHANG) == pid) {
			describe_exit(why, sizeof(why), status);
			say("%s (pid %d) %s before it was ready", d->name, (int)pid, why);
			return -ECHILD;
		}
		if (left <= 0) {
			say("%s (pid %d) did not say READY=1 within %d s", d->name, (int)pid,
			    READY_TIMEOUT_MS / 1000);
			return -ETIMEDOUT;
		}
		/* woken by a notification; a short timeout to see an exit soon */
		poll(&pfd, 1, left < 100 ? (int)left : 100);
	}
}

/* The lines this run wrote to d's log, the last LOG_TAIL_LINES of them. */
static void print_log_tail(const struct stack *s, const struct daemon *d, off_t start)
{
	char path[PATH_MAX], name[64], *text, *p;
	struct stat st;
	size_t size;
	int fd, lines = 0;

	snprintf(name, sizeof(name), "%s.log", d->file);
	if (!path_in(path, sizeof(path), s->dir, name))
		return;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0 || fstat(fd, &st) < 0 || st.st_size <= start) {
		if (fd >= 0)
			close(fd);
		return;
	}
	size = (size_t)(st.st_size - start);
	/* the tail of a huge log is enough */
	if (size > 64 * 1024) {
		start = st.st_size - 64 * 1024;
		size = 64 * 1024;
	}
	text = malloc(size + 1);
	if (!text || pread(fd, text, size, start) != (ssize_t)size) {
		free(text);
		close(fd);
		return;
	}
	close(fd);
	text[size] = '\0';
	p = text + size;
	if (p > text && p[-1] == '\n')
		p--;
	while (p > text && lines < LOG_TAIL_LINES) {
		p--;
		if (*p == '\n' && ++lines == LOG_TAIL_LINES)
			p++;
	}
	fprintf(stderr, "--- the end of %s:\n%s", path, p);
	if (size && text[size - 1] != '\n')
		fputc('\n', stderr);
	free(text);
}

static void print_sockets(const struct stack *s, const struct daemon *d)
{
	for (unsigned i = 0; i < MAX_SOCKETS && d->sockets[i]; i++)
		printf("%s%s/%s", i ? ", " : "", s->dir, d->sockets[i]);
}

/* --- commands ------------------------------------------------------------ */

static int cmd_up(const struct stack *s)
{
	struct probe probes[NUM_DAEMONS];
	struct sockaddr_un notify;
	unsigned running = 0, started = 0;
	int lock_fd, notify_fd, ret;
	bool any_alive = false, any_left = false;

	lock_fd = lock_stack(s);
	if (lock_fd < 0)
		return 1;
	for (unsigned i = 0; i < NUM_DAEMONS; i++) {
		probes[i] = probe_daemon(s, &daemons[i]);
		running += probes[i].state == RUNNING;
		any_alive |= alive(probes[i].state);
		any_left |= probes[i].state != STOPPED;
	}
	if (running == NUM_DAEMONS) {
		printf("the stack is already up in %s\n", s->dir);
		for (unsigned i = 0; i < NUM_DAEMONS; i++) {
			printf("%s (pid %d): ", daemons[i].name, (int)probes[i].pid);
			print_sockets(s, &daemons[i]);
			printf("\n");
		}
		close(lock_fd);
		return 0;
	}

	/*
	 * A daemon that was restarted takes its dependents with it (memmgr
	 * exits without the device, fwchan without memmgr): whatever is
	 * missing, what still runs is stopped and everything starts afresh.
	 */
	if (any_left) {
		for (unsigned i = 0; i < NUM_DAEMONS; i++) {
			if (probes[i].state == RUNNING)
				continue;
			printf("%s is %s", daemons[i].name, state_names[probes[i].state]);
			if (probes[i].state == DEAD)
				printf(" (pid %d gone, stale pid file)", (int)probes[i].pid);
			else if (probes[i].state == NOT_READY)
				printf(" (pid %d, %s refuses connections)", (int)probes[i].pid,
				       probes[i].refused);
			printf("\n");
		}
		printf(any_alive ? "stopping the rest to start the whole stack afresh\n"
				 : "starting the whole stack afresh\n");
		if (!stop_all(s, NUM_DAEMONS)) {
			ret = 1;
			goto out;
		}
	}

	notify_fd = notify_open(s, &notify);
	if (notify_fd < 0) {
		ret = 1;
		goto out;
	}
	printf("state directory: %s\n", s->dir);
	for (; started < NUM_DAEMONS; started++) {
		const struct daemon *d = &daemons[started];
		off_t log_start = 0;
		pid_t pid = spawn_daemon(s, d, notify.sun_path, &log_start);

		if (pid < 0)
			break;
		ret = write_pid(s, d, pid);
		if (ret == 0)
			ret = wait_ready(d, pid, notify_fd);
		if (ret < 0) {
			print_log_tail(s, d, log_start);
			/* -ECHILD: it exited and was reaped, its pid may be someone else's now */
			if (ret == -ECHILD)
				remove_pid(s, d);
			else
				stop_daemon(s, d, pid);
			break;
		}
		printf("%s ready (pid %d): ", d->name, (int)pid);
		print_sockets(s, d);
		printf("\n");
	}
	close(notify_fd);
	unlink(notify.sun_path);
	ret = 0;
	if (started < NUM_DAEMONS) {
		say("could not start %s; stopping what was started", daemons[started].name);
		stop_all(s, started);
		ret = 1;
	} else {
		printf("the stack is up; their logs: %s/*.log\n", s->dir);
	}
out:
	close(lock_fd);
	return ret;
}

static int cmd_status(const struct stack *s)
{
	unsigned running = 0;

	printf("state directory: %s\n", s->dir);
	for (unsigned i = 0; i < NUM_DAEMONS; i++) {
		const struct daemon *d = &daemons[i];
		struct probe p = probe_daemon(s, d);
		char up[32];

		printf("%-14s ", d->name);
		switch (p.state) {
		case STOPPED:
			printf("%s", state_names[p.state]);
			break;
		case DEAD:
			printf("%-9s ", state_names[p.state]);
			if (p.pid > 0)
				printf("pid %d is gone (stale pid file)", (int)p.pid);
			else
				printf("(stale pid file)");
			break;
		case NOT_READY:
		case RUNNING:
			format_uptime(up, sizeof(up), uptime_of(p.pid));
			printf("%-9s pid %-7d up %-11s ", state_names[p.state], (int)p.pid, up);
			if (p.state == NOT_READY)
				printf("%s refuses connections", p.refused);
			else
				print_sockets(s, d);
			break;
		}
		printf("\n");
		running += p.state == RUNNING;
	}
	/* like systemctl status: 3 for "not running" */
	return running == NUM_DAEMONS ? 0 : 3;
}

static int cmd_down(const struct stack *s)
{
	bool any = false;
	int lock_fd, ret;

	lock_fd = lock_stack(s);
	if (lock_fd < 0)
		return 1;
	for (unsigned i = 0; i < NUM_DAEMONS; i++)
		any |= probe_daemon(s, &daemons[i]).state != STOPPED;
	if (!any) {
		printf("the stack is not running in %s\n", s->dir);
		close(lock_fd);
		return 0;
	}
	ret = stop_all(s, NUM_DAEMONS) ? 0 : 1;
	if (ret == 0)
		printf("the stack in %s is down\n", s->dir);
	close(lock_fd);
	return ret;
}

static int cmd_top(const struct stack *s, int argc, char **argv)
{
	char prog[PATH_MAX], metrics[PATH_MAX + 8];
	char **args;

	for (unsigned i = 0; i < NUM_DAEMONS; i++) {
		struct probe p = probe_daemon(s, &daemons[i]);

		if (p.state != RUNNING) {
			say("the stack is not up in %s (%s is %s); run './agx up' first", s->dir,
			    daemons[i].name, state_names[p.state]);
			return 1;
		}
	}
	args = calloc((size_t)argc + 4, sizeof(*args));
	if (!args)
		return 1;
	if ((size_t)snprintf(prog, sizeof(prog), "%s/tools/agx-top", s->build) >= sizeof(prog))
		return 1;
	snprintf(metrics, sizeof(metrics), "unix:%s/%s", s->dir, METRICS_SOCKET);
	args[0] = prog;
	args[1] = "--metrics";
	args[2] = metrics;
	for (int i = 0; i < argc; i++)
		args[3 + i] = argv[i];
	fflush(NULL);
	execv(prog, args);
	say("cannot run %s: %s", prog, strerror(errno));
	free(args);
	return 1;
}

/*
 * Brings the stack up unless it runs (what up says goes to stderr: the
 * program's standard output is its own; the copy kept of it is
 * close-on-exec, or the daemons started meanwhile would hold it open),
 * then becomes PROGRAM, with
 * AGX_MEMMGR_SOCKET and AGX_SCHEDULER_SOCKET naming this stack's sockets,
 * and __EGL_VENDOR_LIBRARY_FILENAMES this build's EGL vendor file
 * (gles/meson.build), so that glvnd's libEGL loads libEGL_agx and no other.
 */
static int cmd_run(const struct stack *s, int argc, char **argv)
{
	char memmgr[PATH_MAX], scheduler[PATH_MAX], egl_vendor[PATH_MAX];
	int saved = fcntl(STDOUT_FILENO, F_DUPFD_CLOEXEC, 0), ret;

	if (argc > 0 && strcmp(argv[0], "--") == 0) {
		argc--;
		argv++;
	}
	if (argc < 1) {
		say("run needs a program: agx-stack run -- PROGRAM [ARGS]");
		return 2;
	}
	if (saved < 0 || dup2(STDERR_FILENO, STDOUT_FILENO) < 0)
		return 1;
	ret = cmd_up(s);
	fflush(stdout);
	if (dup2(saved, STDOUT_FILENO) < 0)
		return 1;
	close(saved);
	if (ret != 0)
		return ret;
	if (!path_in(memmgr, sizeof(memmgr), s->dir, "memmgr.sock") ||
	    !path_in(scheduler, sizeof(scheduler), s->dir, "scheduler.sock") ||
	    !path_in(egl_vendor, sizeof(egl_vendor), s->build, "gles/50_agx-uninstalled.json"))
		return 1;
	if (setenv("AGX_MEMMGR_SOCKET", memmgr, 1) < 0 ||
	    setenv("AGX_SCHEDULER_SOCKET", scheduler, 1) < 0 ||
	    setenv("AGX_RUNTIME_DIR", s->dir, 1) < 0 ||
	    setenv("__EGL_VENDOR_LIBRARY_FILENAMES", egl_vendor, 1) < 0)
		return 1;
	execvp(argv[0], argv);
	say("cannot run %s: %s", argv[0], strerror(errno));
	return 127;
}

static void usage(FILE *f)
{
	fprintf(f, "usage: agx-stack up|status|down\n"
		   "       agx-stack top [AGX-TOP-ARGS]\n"
		   "       agx-stack run -- PROGRAM [ARGS]\n"
		   "The state directory: $AGX_RUNTIME_DIR, else $XDG_RUNTIME_DIR/agx, "
		   "else /tmp/agx-$UID.\n");
}

int main(int argc, char **argv)
{
	struct stack s;
	const char *cmd = argc > 1 ? argv[1] : "";

	if (strcmp(cmd, "-h") == 0 || strcmp(cmd, "--help") == 0) {
		usage(stdout);
		return 0;
	}
	if (strcmp(cmd, "up") && strcmp(cmd, "status") && strcmp(cmd, "down") &&
	    strcmp(cmd, "top") && strcmp(cmd, "run")) {
		usage(stderr);
		return 2;
	}
	if (strcmp(cmd, "top") && strcmp(cmd, "run") && argc > 2) {
		usage(stderr);
		return 2;
	}
	if (find_build_tree(&s) < 0 || find_state_dir(&s) < 0)
		return 1;
	/* a daemon's READY=1 and its pid are on stdout in the order they happen */
	setvbuf(stdout, NULL, _IOLBF, 0);

	if (strcmp(cmd, "up") == 0)
		return cmd_up(&s);
	if (strcmp(cmd, "status") == 0)
		return cmd_status(&s);
	if (strcmp(cmd, "down") == 0)
		return cmd_down(&s);
	if (strcmp(cmd, "run") == 0)
		return cmd_run(&s, argc - 2, argv + 2);
	return cmd_top(&s, argc - 2, argv + 2);
}
