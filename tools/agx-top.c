/*
 * agx-top: agx-scheduler's metrics live in a terminal, as intel_gpu_top
 * and nvtop show theirs: the scheduler's rates, queues and latencies, and
 * its clients by the GPU time they use.
 *
 *   agx-top [--metrics ADDRESS] [--interval MS] [--once] [--iterations N]
 *
 * On a terminal it redraws every interval until q, Ctrl-C or SIGTERM; into
 * a pipe or a file it prints the frames one after another, plain.  --once
 * scrapes twice, an interval apart (rates need two), prints one frame and
 * exits.  Exit status 1 when the endpoint cannot be reached or its answer
 * read.  This file owns the options, the terminal and the loop; the frame
 * and the HTTP client are in top.c and scrape.c.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#include "http.h"
#include "top.h"

#define SCRAPE_TIMEOUT_MS 2000

static int signal_pipe[2] = { -1, -1 };
static struct termios saved_termios;
static bool termios_changed, screen_on;

static void usage(FILE *f)
{
	fprintf(
	    f,
	    "usage: agx-top [--metrics ADDRESS] [--interval MS] [--once] [--iterations N]\n"
	    "  --metrics ADDRESS  the scheduler's endpoint: unix:PATH, IPV4:PORT or [IPV6]:PORT\n"
	    "                     (default " METRICS_HTTP_DEFAULT_ADDRESS ")\n"
	    "  --interval MS      time between frames (default 1000)\n"
	    "  --once             one frame from two scrapes an interval apart, then exit\n"
	    "  --iterations N     exit after N frames\n"
	    "Keys: q quits.\n");
}

static int64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static void on_signal(int sig)
{
	int saved = errno;
	char c = (char)sig;
	ssize_t ignored = write(signal_pipe[1], &c, 1);

	(void)ignored;
	errno = saved;
}

static void terminal_restore(void)
{
	if (screen_on) {
		/* the cursor back, the main screen back */
		fputs("\033[?25h\033[?1049l", stdout);
		fflush(stdout);
		screen_on = false;
	}
	if (termios_changed) {
		tcsetattr(STDIN_FILENO, TCSAFLUSH, &saved_termios);
		termios_changed = false;
	}
}

/* The alternate screen without a cursor, and keys as they are typed. */
static void terminal_setup(void)
{
	struct termios t;

	atexit(terminal_restore);
	if (isatty(STDIN_FILENO) && tcgetattr(STDIN_FILENO, &saved_termios) == 0) {
		t = saved_termios;
		t.c_lflag &= ~(tcflag_t)(ICANON | ECHO); /* ISIG stays: Ctrl-C is SIGINT */
		t.c_cc[VMIN] = 1;
		t.c_cc[VTIME] = 0;
		if (tcsetattr(STDIN_FILENO, TCSAFLUSH, &t) == 0)
			termios_changed = true;
	}
	fputs("\033[?1049h\033[?25l", stdout);
	screen_on = true;
}

/* The client rows that fit the terminal under the header. */
static size_t terminal_rows(void)
{
	struct winsize ws;

	if (ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) < 0 || ws.ws_row <= TOP_HEADER_LINES + 1)
		return 1;
	return ws.ws_row - TOP_HEADER_LINES - 1;
}

/* From the top left, each line cut at the terminal's width and cleared to its end. */
static void draw(const char *text)
{
	struct winsize ws;
	int width = 0;

	if (ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0)
		width = ws.ws_col;
	fputs("\033[H", stdout);
	while (*text) {
		const char *nl = strchr(text, '\n');
		int n = nl ? (int)(nl - text) : (int)strlen(text);

		printf("%.*s\033[K\n", width > 0 && n > width ? width : n, text);
		text += n + (nl != NULL);
	}
	fputs("\033[J", stdout);
	fflush(stdout);
}

/*
 * Waits until deadline (CLOCK_MONOTONIC ms) watching for a signal and, if
 * keys, for q on stdin: true to quit.
 */
static bool wait_until(int64_t deadline, bool keys)
{
	for (;;) {
		struct pollfd fds[2] = { { .fd = signal_pipe[0], .events = POLLIN },
					 { .fd = STDIN_FILENO, .events = POLLIN } };
		int64_t left = deadline - now_ms();
		char c;
		int n;

		if (left <= 0)
			return false;
		n = poll(fds, keys ? 2 : 1, (int)left);
		if (n < 0 && errno != EINTR)
			return true;
		if (n <= 0)
			continue;
		if (fds[0].revents)
			return true;
		if (keys && fds[1].revents) {
			ssize_t r = read(STDIN_FILENO, &c, 1);

			if (r <= 0)
				keys = false; /* the terminal went: only signals end it now */
			else if (c == 'q' || c == 'Q')
				return true;
		}
	}
}

/* One scrape, parsed; why it failed in msg. */
static int fetch(const char *address, struct promtext *doc, int64_t *when, char *msg, size_t size)
{
	struct promtext_error perr;
	char *body;
	size_t len;
	int ret;

	*when = now_ms();
	ret = top_scrape(address, SCRAPE_TIMEOUT_MS, &body, &len, msg, size);
	if (ret < 0)
		return ret;
	ret = promtext_parse(body, len, doc, &perr);
	free(body);
	if (ret < 0)
		snprintf(msg, size, "%s: line %u of the metrics: %s", address, perr.line,
			 perr.message);
	return ret;
}

static bool parse_count(const char *s, long min, long max, long *out)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || end == s || *end || v < min || v > max)
		return false;
	*out = v;
	return true;
}

int main(int argc, char **argv)
{
	static const struct option options[] = {
		{ "metrics", required_argument, NULL, 'm' },
		{ "interval", required_argument, NULL, 'i' },
		{ "once", no_argument, NULL, '1' },
		{ "iterations", required_argument, NULL, 'n' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *address = METRICS_HTTP_DEFAULT_ADDRESS;
	long interval = 1000, iterations = 0, frames = 0;
	struct promtext prev, cur;
	struct sigaction sa = { .sa_handler = on_signal };
	char msg[512];
	int64_t t_prev, t_cur;
	bool once = false, live, keys;
	int opt, status = 0;

	while ((opt = getopt_long(argc, argv, "m:i:n:h", options, NULL)) != -1) {
		switch (opt) {
		case 'm':
			address = optarg;
			break;
		case 'i':
			if (!parse_count(optarg, 1, 3600 * 1000, &interval)) {
				fprintf(stderr, "agx-top: --interval takes 1 to 3600000 (ms)\n");
				return 2;
			}
			break;
		case '1':
			once = true;
			break;
		case 'n':
			if (!parse_count(optarg, 1, 1L << 30, &iterations)) {
				fprintf(stderr, "agx-top: --iterations takes a count from 1\n");
				return 2;
			}
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			usage(stderr);
			return 2;
		}
	}
	if (optind != argc) {
		usage(stderr);
		return 2;
	}
	if (once)
		iterations = 1;
	live = !once && isatty(STDOUT_FILENO);
	keys = live && isatty(STDIN_FILENO);

	if (pipe2(signal_pipe, O_CLOEXEC | O_NONBLOCK) < 0) {
		perror("agx-top: pipe");
		return 1;
	}
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);

	if (fetch(address, &prev, &t_prev, msg, sizeof(msg)) < 0) {
		fprintf(stderr, "agx-top: %s\n", msg);
		return 1;
	}
	if (live) {
		/* totals at once; rates from the next frame on */
		char *text = top_render(NULL, &prev, 0, terminal_rows());

		terminal_setup();
		if (text)
			draw(text);
		free(text);
	}
	while (!iterations || frames < iterations) {
		char *text;

		if (wait_until(t_prev + interval, keys))
			break;
		if (fetch(address, &cur, &t_cur, msg, sizeof(msg)) < 0) {
			status = 1;
			break;
		}
		text = top_render(&prev, &cur, (double)(t_cur - t_prev) / 1000,
				  live ? terminal_rows() : 0);
		promtext_finish(&prev);
		prev = cur;
		t_prev = t_cur;
		if (!text) {
			snprintf(msg, sizeof(msg), "out of memory");
			status = 1;
			break;
		}
		if (live) {
			draw(text);
		} else {
			printf("%s%s", frames ? "\n" : "", text);
			fflush(stdout);
		}
		free(text);
		frames++;
	}
	terminal_restore();
	promtext_finish(&prev);
	if (status)
		fprintf(stderr, "agx-top: %s\n", msg);
	return status;
}
