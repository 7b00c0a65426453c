/*
 * fwchan.c: agx-fwchan's device and firmware, brought up and watched
 * (fwchan.h).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include <event2/event.h>

#include "agx/mmio.h"
#include "agxipc/client.h"
#include "agxipc/daemon.h"
#include "agxipc/log.h"
#include "agxipc/server.h"
#include "fwchan.h"

#define DEVICE_TIMEOUT_MS 10000
#define RECOVERY_PERIODS  10	      /* ping periods a recovery may take before it starts again */
#define ARENA_SIZE	  (16u << 20) /* initdata, channels, queues, items in flight */

/* --- the firmware's callbacks --------------------------------------------------------- */

static void fw_ready(void *data)
{
	struct fwchan *f = data;
	int fd;

	if (f->recovering) {
		Agx__Fwchan__DeviceReadyEvent again = AGX__FWCHAN__DEVICE_READY_EVENT__INIT;

		f->recovering = false;
		agx_notice("the GPU firmware runs again (recovery %u)", f->recoveries);
		/* every peer, not only contexts' owners: whoever was refused may submit now */
		again.recoveries = f->recoveries;
		if (f->server)
			agx_ipc_server_send_event_all(f->server, AGX_IPC_MSG_FWCHAN_DEVICE_READY,
						      &again.base);
	} else {
		agx_notice("the GPU firmware runs");
	}
	if (f->serving)
		return;
	if (agx_daemon_listen(f->daemon, f->config.socket, &fd) < 0 ||
	    !(f->server = fwchan_server_create(f, fd))) {
		agx_err("cannot serve %s", f->config.socket);
		agx_daemon_quit(f->daemon);
		return;
	}
	f->serving = true;
	agx_daemon_ready(f->daemon, "the firmware runs");
}

static void fw_failed(void *data)
{
	struct fwchan *f = data;

	agx_err("the GPU firmware refused its initdata");
	agx_daemon_quit(f->daemon);
}

static void fw_event(void *data, const struct agx_fw_event *e)
{
	struct fwchan *f = data;

	work_event(&f->work, e);
}

static void fw_drained(void *data)
{
	struct fwchan *f = data;

	work_flush(&f->work);
}

static const struct firmware_ops firmware_ops = {
	.ready = fw_ready,
	.failed = fw_failed,
	.event = fw_event,
	.drained = fw_drained,
};

/* --- RTKit's callbacks ---------------------------------------------------------------- */

static void rtkit_running(void *data)
{
	struct fwchan *f = data;

	agx_info("RTKit runs; starting the GPU firmware");
	firmware_start(&f->fw);
}

static void rtkit_gpu_message(void *data, uint8_t endpoint, uint64_t msg)
{
	struct fwchan *f = data;

	firmware_message(&f->fw, endpoint, msg);
}

/* The reason in a crashlog's 'Cstr' section (Linux rtkit-crashlog.c's layout), if any. */
static void crash_reason(const uint8_t *log, uint64_t size, char *out, size_t out_size)
{
	const uint32_t cstr = (uint32_t)'C' << 24 | 's' << 16 | 't' << 8 | 'r';
	uint64_t at = 0x20;

	snprintf(out, out_size, "the firmware crashed");
	while (log && at + 16 <= size) {
		uint32_t fourcc, length;

		memcpy(&fourcc, log + at, 4);
		memcpy(&length, log + at + 12, 4);
		if (length < 16 || length > size - at)
			return;
		if (fourcc == cstr && length > 20) {
			size_t n = strnlen((const char *)log + at + 20, length - 20);

			while (n && log[at + 20 + n - 1] == '\n')
				n--;
			snprintf(out, out_size, "the firmware crashed: %.*s", (int)n,
				 (const char *)log + at + 20);
			return;
		}
		at += length;
	}
}

/* Saves a crashlog where the operator will look: crash-dir/fwchan-crash-TIME-N.bin. */
static void save_crashlog(struct fwchan *f, const uint8_t *log, uint64_t size)
{
	char dir[256], path[320];
	FILE *out;

	if (f->config.crash_dir) {
		snprintf(dir, sizeof(dir), "%s", f->config.crash_dir);
	} else {
		char *slash;

		snprintf(dir, sizeof(dir), "%s", f->config.socket);
		slash = strrchr(dir, '/');
		if (slash)
			*slash = '\0';
		else
			snprintf(dir, sizeof(dir), ".");
	}
	snprintf(path, sizeof(path), "%s/fwchan-crash-%lld-%u.bin", dir, (long long)time(NULL),
		 f->recoveries + 1);
	out = fopen(path, "wb");
	if (!out || fwrite(log, 1, size, out) != size) {
		agx_err("cannot save the crashlog to %s: %s", path, strerror(errno));
		if (out)
			fclose(out);
		return;
	}
	fclose(out);
	agx_notice("crashlog saved to %s", path);
}

static void rtkit_crashed(void *data, const uint8_t *crashlog, uint64_t size)
{
	struct fwchan *f = data;
	char reason[96];

	crash_reason(crashlog, size, reason, sizeof(reason));
	if (crashlog)
		save_crashlog(f, crashlog, size);
	fwchan_recover(f, reason);
}

static void rtkit_pong(void *data, uint64_t cookie)
{
	struct fwchan *f = data;

	if (cookie > f->pong_seen)
		f->pong_seen = cookie;
}

static const struct rtkit_ops rtkit_ops = {
	.running = rtkit_running,
	.gpu_message = rtkit_gpu_message,
	.crashed = rtkit_crashed,
	.pong = rtkit_pong,
};

/* Pings the firmware: one that stops answering is noticed. */
static void on_ping(evutil_socket_t fd, short what, void *arg)
{
	struct fwchan *f = arg;

	(void)fd;
	(void)what;
	if (f->recovering) {
		/* a firmware that hangs while it boots again is reset again */
		if (++f->recovery_periods >= RECOVERY_PERIODS) {
			f->recovering = false;
			fwchan_recover(f, "the firmware did not come back from its reset");
		}
		return;
	}
	if (f->rtkit.state != RTKIT_RUNNING)
		return;
	/* three periods of silence: the firmware hangs */
	if (f->ping_sent >= f->pong_seen + 3) {
		fwchan_recover(f, "the firmware hangs: it stopped answering pings");
		return;
	}
	rtkit_ping(&f->rtkit, ++f->ping_sent);
}

/* --- recovery -------------------------------------------------------------------------- */

static int device_reset(struct fwchan *f)
{
	Agx__Device__Reset m = AGX__DEVICE__RESET__INIT;
	struct agx_ipc_error err = { 0 };
	struct agx_ipc_msg reply;
	int ret = agx_ipc_client_call(f->device, AGX_IPC_MSG_DEVICE_RESET, &m.base, NULL, 0, &reply,
				      DEVICE_TIMEOUT_MS, &err);

	if (ret < 0) {
		agx_err("device: RESET: %s", err.code ? err.message : strerror(-ret));
		return ret;
	}
	agx_ipc_msg_finish(&reply);
	return 0;
}

/* On the loop's next turn, not inside the handler that noticed. */
static void recover_now(evutil_socket_t fd, short what, void *arg)
{
	struct fwchan *f = arg;

	(void)fd;
	(void)what;
	/* the work first: its owners hear of it before anything else happens */
	work_device_lost(&f->work, f->lost_reason);
	/* a reset empties the TLBs: pending invalidations have nothing left to do */
	firmware_fail_pending(&f->fw, -ENODEV);
	f->fw.running = f->fw.starting = false;
	if (device_reset(f) < 0) {
		agx_err("the device cannot be reset; stopping");
		agx_daemon_quit(f->daemon);
		return;
	}
	f->ping_sent = f->pong_seen = 0;
	__atomic_store_n((volatile uint64_t *)((uint8_t *)f->mmio + AGX_MMIO_UAT_TTBAT),
			 f->kmem.context_table, __ATOMIC_RELEASE);
	rtkit_boot(&f->rtkit);
}

void fwchan_recover(struct fwchan *f, const char *reason)
{
	if (f->recovering)
		return;
	agx_err("%s; resetting the device (recovery %u)", reason, f->recoveries + 1);
	f->recovering = true;
	f->recovery_periods = 0;
	f->recoveries++;
	f->fw.running = false;
	snprintf(f->lost_reason, sizeof(f->lost_reason), "%s", reason);
	event_active(f->recover_ev, EV_TIMEOUT, 0);
}

/* --- the peers ------------------------------------------------------------------------- */

/*
 * Both links are blocking clients, used from loop callbacks; between
 * calls the loop watches their sockets.  What arrives there then is a
 * reply that came after its call timed out, an event nobody asked for, or
 * the end of the connection: the peer is gone, and with it the firmware's
 * memory (memmgr frees what fwchan's connection held) or the device.
 * Nothing fwchan could do would make its contexts, rings and mappings
 * valid again, so it stops and its service manager starts the chain
 * afresh (systemd: BindsTo= and Restart=on-failure in the units).
 */
static void peer_gone(struct fwchan *f, const char *who, int err)
{
	if (f->peer_lost)
		return;
	f->peer_lost = true;
	agx_err("%s went away (%s): every context and mapping went with it; exiting for the "
		"service manager to restart the chain",
		who, strerror(-err));
	agx_daemon_quit(f->daemon);
}

static void on_memmgr_readable(evutil_socket_t fd, short what, void *arg)
{
	struct fwchan *f = arg;
	int ret = agx_ipc_client_dispatch_events(f->kmem.memmgr, 0);

	if (ret < 0 && ret != -EINTR)
		peer_gone(f, "agx-memmgr", ret);
}

static void on_device_readable(evutil_socket_t fd, short what, void *arg)
{
	struct fwchan *f = arg;
	int ret = agx_ipc_client_dispatch_events(f->device, 0);

	if (ret < 0 && ret != -EINTR)
		peer_gone(f, "the device", ret);
}

static int watch_peers(struct fwchan *f)
{
	f->memmgr_watch = event_new(f->base, agx_ipc_client_fd(f->kmem.memmgr),
				    EV_READ | EV_PERSIST, on_memmgr_readable, f);
	f->device_watch = event_new(f->base, agx_ipc_client_fd(f->device), EV_READ | EV_PERSIST,
				    on_device_readable, f);
	if (!f->memmgr_watch || !f->device_watch || event_add(f->memmgr_watch, NULL) < 0 ||
	    event_add(f->device_watch, NULL) < 0)
		return -ENOMEM;
	return 0;
}

/* --- the device ------------------------------------------------------------------------ */

static int attach(struct fwchan *f)
{
	struct timespec pause = { .tv_nsec = 10 * 1000 * 1000 };
	Agx__Device__Attach m = AGX__DEVICE__ATTACH__INIT;
	struct agx_ipc_error err = { 0 };
	struct agx_ipc_msg reply;
	int ret, mmio_fd;

	for (int waited = 0;; waited += 10) {
		ret =
		    agx_ipc_client_connect(f->config.device, AGX__IPC__INTERFACE__INTERFACE_DEVICE,
					   "agx-fwchan", DEVICE_TIMEOUT_MS, &f->device, NULL);
		if (ret == 0 || waited >= DEVICE_TIMEOUT_MS)
			break;
		nanosleep(&pause, NULL);
	}
	if (ret < 0)
		return ret;
	ret = agx_ipc_client_call(f->device, AGX_IPC_MSG_DEVICE_ATTACH, &m.base, NULL, 0, &reply,
				  DEVICE_TIMEOUT_MS, &err);
	if (ret < 0) {
		agx_err("device: ATTACH: %s", err.code ? err.message : strerror(-ret));
		return ret;
	}
	mmio_fd = agx_ipc_msg_take_fd(&reply, 0);
	f->doorbell_fd = agx_ipc_msg_take_fd(&reply, 1);
	f->irq_fd = agx_ipc_msg_take_fd(&reply, 2);
	agx_ipc_msg_finish(&reply);
	f->mmio = mmap(NULL, AGX_MMIO_SIZE, PROT_READ | PROT_WRITE, MAP_SHARED, mmio_fd, 0);
	close(mmio_fd);
	if (f->mmio == MAP_FAILED) {
		f->mmio = NULL;
		return -errno;
	}
	if (*agx_mmio_u32(f->mmio, AGX_MMIO_ID) != AGX_MMIO_ID_VALUE) {
		agx_err("device: the register page is not an AGX's");
		return -ENODEV;
	}
	return 0;
}

int fwchan_start(struct fwchan *f, struct agx_daemon *daemon, const struct fwchan_config *config)
{
	struct timeval period;
	int ret;

	memset(f, 0, sizeof(*f));
	f->config = *config;
	f->daemon = daemon;
	f->base = agx_daemon_base(daemon);
	f->doorbell_fd = f->irq_fd = -1;
	ret = kmem_connect(&f->kmem, config->memmgr, DEVICE_TIMEOUT_MS);
	if (ret < 0) {
		agx_err("cannot reach agx-memmgr at %s: %s", config->memmgr, strerror(-ret));
		return ret;
	}
	ret = kmem_arena(&f->kmem, ARENA_SIZE);
	if (ret < 0)
		return ret;
	ret = attach(f);
	if (ret < 0) {
		agx_err("cannot attach to the device at %s: %s", config->device, strerror(-ret));
		return ret;
	}
	/* the page tables memmgr keeps, where the firmware will look for them */
	__atomic_store_n((volatile uint64_t *)((uint8_t *)f->mmio + AGX_MMIO_UAT_TTBAT),
			 f->kmem.context_table, __ATOMIC_RELEASE);
	ret = rtkit_init(&f->rtkit, f->base, f->mmio, f->doorbell_fd, f->irq_fd, &f->kmem,
			 &rtkit_ops, f);
	if (ret == 0)
		ret = firmware_init(&f->fw, &f->rtkit, &f->kmem, &firmware_ops, f);
	if (ret == 0)
		ret = work_init(&f->work, f->base, &f->fw, &f->kmem);
	if (ret < 0)
		return ret;
	f->recover_ev = event_new(f->base, -1, 0, recover_now, f);
	if (!f->recover_ev || watch_peers(f) < 0)
		return -ENOMEM;
	if (config->ping_ms) {
		period = (struct timeval){ config->ping_ms / 1000, config->ping_ms % 1000 * 1000 };
		f->ping_timer = event_new(f->base, -1, EV_PERSIST, on_ping, f);
		if (!f->ping_timer || event_add(f->ping_timer, &period) < 0)
			return -ENOMEM;
	}
	rtkit_boot(&f->rtkit);
	return 0;
}

void fwchan_stop(struct fwchan *f)
{
	if (f->server)
		agx_ipc_server_destroy(f->server);
	firmware_fail_pending(&f->fw, -ENODEV);
	if (f->work.items)
		work_fini(&f->work);
	if (f->ping_timer)
		event_free(f->ping_timer);
	if (f->recover_ev)
		event_free(f->recover_ev);
	if (f->memmgr_watch)
		event_free(f->memmgr_watch);
	if (f->device_watch)
		event_free(f->device_watch);
	rtkit_fini(&f->rtkit);
	if (f->mmio)
		munmap(f->mmio, AGX_MMIO_SIZE);
	if (f->doorbell_fd >= 0)
		close(f->doorbell_fd);
	if (f->irq_fd >= 0)
		close(f->irq_fd);
	/* detaching stops the firmware; then memmgr may take its memory back */
	if (f->device)
		agx_ipc_client_destroy(f->device);
	kmem_disconnect(&f->kmem);
	memset(f, 0, sizeof(*f));
}
