/*
 * main.c: agx-sim, the simulated AGX device, as its own process.  It serves
 * the device setup socket (ipc/device.proto, docs/device.md): ATTACH gives
 * the register page and the doorbell and IRQ eventfds to the one host that
 * drives the firmware; DMA_MAP/DMA_UNMAP give the device its memory; INFO
 * and RESET.  The firmware runs on its own thread (rtkit.c).
 *
 *   agx-sim --socket PATH [--memory-size BYTES] [--cores N] [--job-time-limit-ms MS]
 *           [--test-faults]
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "agxipc/daemon.h"
#include "agxipc/log.h"
#include "agxipc/server.h"
#include "device.h"

struct sim {
	struct sim_device *dev;
	uint64_t host;	  /* connection id of the attached host, 0 if none */
	bool test_faults; /* --test-faults: INJECT_FAULT allowed */
};

/* Only processes of our own user may drive the device. */
static int on_connect(struct agx_ipc_conn *conn, void *data)
{
	(void)data;
	return agx_ipc_conn_peer(conn)->uid == getuid() ? 0 : -EPERM;
}

static void on_disconnect(struct agx_ipc_conn *conn, void *data)
{
	struct sim *sim = data;
	uint64_t id = agx_ipc_conn_id(conn);

	sim_device_dma_unmap_owner(sim->dev, id);
	if (sim->host == id) {
		agx_notice("host %s went away: device detached", agx_ipc_conn_name(conn));
		sim_device_detach(sim->dev);
		sim->host = 0;
	}
}

static int dispatch(struct agx_ipc_request *req, void *data)
{
	struct sim *sim = data;
	struct sim_device *dev = sim->dev;
	uint64_t id = agx_ipc_conn_id(req->conn);
	Agx__Ipc__Empty empty = AGX__IPC__EMPTY__INIT;
	int ret;

	switch (req->msg.type) {
	case AGX_IPC_MSG_DEVICE_ATTACH: {
		Agx__Device__AttachReply r = AGX__DEVICE__ATTACH_REPLY__INIT;
		int fds[3];

		if (sim->host)
			return agx_ipc_reply_error(req, AGX__IPC__ERROR_CODE__ERROR_BUSY,
						   "another host is attached");
		ret = sim_device_attach(dev, fds);
		if (ret < 0)
			return ret;
		sim->host = id;
		r.mmio_size = AGX_MMIO_SIZE;
		agx_info("attached %s", agx_ipc_conn_name(req->conn));
		return agx_ipc_reply(req, &r.base, fds, 3);
	}
	case AGX_IPC_MSG_DEVICE_INFO: {
		Agx__Device__InfoReply r = AGX__DEVICE__INFO_REPLY__INIT;

		r.chip_id = dev->chip_id;
		r.generation = dev->generation;
		r.num_cores = dev->cores;
		r.memory_size = dev->memory_size;
		r.firmware_version = "agx-sim RTKit 12";
		r.job_time_limit_ms = (uint32_t)(dev->job_time_limit_ns / 1000000u);
		r.fill_bytes_per_ms = dev->fill_bytes_per_ms;
		return agx_ipc_reply(req, &r.base, NULL, 0);
	}
	case AGX_IPC_MSG_DEVICE_DMA_MAP: {
		const Agx__Device__DmaMap *m = (const Agx__Device__DmaMap *)req->msg.body;

		if (m->protection != AGX__DEVICE__PROTECTION__PROTECTION_READ &&
		    m->protection != AGX__DEVICE__PROTECTION__PROTECTION_READ_WRITE)
			return agx_ipc_reply_error(req,
						   AGX__IPC__ERROR_CODE__ERROR_INVALID_ARGUMENT,
						   "protection must allow reading");
		ret = sim_device_dma_map(
		    dev, m->paddr, m->size, req->msg.fds[0], m->offset,
		    m->protection == AGX__DEVICE__PROTECTION__PROTECTION_READ_WRITE, id);
		if (ret == -EINVAL)
			return agx_ipc_reply_error(
			    req, AGX__IPC__ERROR_CODE__ERROR_INVALID_ARGUMENT,
			    "range 0x%llx+0x%llx: 16 KiB aligned, inside %llu bytes of memory",
			    (unsigned long long)m->paddr, (unsigned long long)m->size,
			    (unsigned long long)dev->memory_size);
		if (ret == -EEXIST)
			return agx_ipc_reply_error(req, AGX__IPC__ERROR_CODE__ERROR_BUSY,
						   "range 0x%llx+0x%llx overlaps a mapping",
						   (unsigned long long)m->paddr,
						   (unsigned long long)m->size);
		return ret < 0 ? ret : agx_ipc_reply(req, &empty.base, NULL, 0);
	}
	case AGX_IPC_MSG_DEVICE_DMA_UNMAP: {
		const Agx__Device__DmaUnmap *m = (const Agx__Device__DmaUnmap *)req->msg.body;

		ret = sim_device_dma_unmap(dev, m->paddr, m->size, id);
		return ret < 0 ? ret : agx_ipc_reply(req, &empty.base, NULL, 0);
	}
	case AGX_IPC_MSG_DEVICE_RESET:
		if (sim->host != id)
			return agx_ipc_reply_error(req,
						   AGX__IPC__ERROR_CODE__ERROR_PERMISSION_DENIED,
						   "only the attached host resets the device");
		ret = sim_device_reset(dev);
		return ret < 0 ? ret : agx_ipc_reply(req, &empty.base, NULL, 0);
	case AGX_IPC_MSG_DEVICE_INJECT_FAULT: {
		const Agx__Device__InjectFault *m = (const Agx__Device__InjectFault *)req->msg.body;
		static const enum sim_fault kinds[] = {
			[AGX__DEVICE__INJECT_FAULT__KIND__KIND_FIRMWARE_CRASH] =
			    SIM_FAULT_FIRMWARE_CRASH,
			[AGX__DEVICE__INJECT_FAULT__KIND__KIND_FIRMWARE_HANG] =
			    SIM_FAULT_FIRMWARE_HANG,
			[AGX__DEVICE__INJECT_FAULT__KIND__KIND_DROP_IRQ] = SIM_FAULT_DROP_IRQ,
			[AGX__DEVICE__INJECT_FAULT__KIND__KIND_BUS_ERROR] = SIM_FAULT_BUS_ERROR,
			[AGX__DEVICE__INJECT_FAULT__KIND__KIND_DELAY_COMPLETION] =
			    SIM_FAULT_DELAY_COMPLETION,
			[AGX__DEVICE__INJECT_FAULT__KIND__KIND_HANG_AT_BOOT] =
			    SIM_FAULT_HANG_AT_BOOT,
		};

		if (!sim->test_faults)
			return agx_ipc_reply_error(
			    req, AGX__IPC__ERROR_CODE__ERROR_PERMISSION_DENIED,
			    "fault injection is off (agx-sim --test-faults)");
		if ((unsigned)m->kind >= sizeof(kinds) / sizeof(kinds[0]))
			return agx_ipc_reply_error(req,
						   AGX__IPC__ERROR_CODE__ERROR_INVALID_ARGUMENT,
						   "no fault kind %d", (int)m->kind);
		ret = sim_device_inject(dev, kinds[m->kind], m->address, m->count, m->delay_ms);
		if (ret == -ENODEV)
			return agx_ipc_reply_error(
			    req, AGX__IPC__ERROR_CODE__ERROR_INVALID_ARGUMENT,
			    "no host is attached: there is no firmware running");
		agx_notice("fault injected: kind %d, address 0x%llx, count %u", (int)m->kind,
			   (unsigned long long)m->address, m->count);
		return ret < 0 ? ret : agx_ipc_reply(req, &empty.base, NULL, 0);
	}
	default:
		return -EOPNOTSUPP;
	}
}

static const struct agx_ipc_server_ops ops = {
	.connect = on_connect,
	.dispatch = dispatch,
	.disconnect = on_disconnect,
};

int main(int argc, char **argv)
{
	static const struct option options[] = {
		{ "socket", required_argument, NULL, 's' },
		{ "memory-size", required_argument, NULL, 'm' },
		{ "cores", required_argument, NULL, 'c' },
		{ "job-time-limit-ms", required_argument, NULL, 'j' },
		{ "test-faults", no_argument, NULL, 't' },
		{ NULL, 0, NULL, 0 },
	};
	struct agx_ipc_server_config config = {
		.interface = AGX__IPC__INTERFACE__INTERFACE_DEVICE,
		.name = "agx-sim",
		.ops = &ops,
	};
	uint64_t memory_size = 4ull << 30;
	long cores = sysconf(_SC_NPROCESSORS_ONLN), time_limit_ms = 5000;
	const char *path = NULL;
	struct agx_ipc_server *server;
	struct agx_daemon *daemon;
	struct sim sim = { 0 };
	int opt, fd, ret;

	/* the default a stack started by agx-stack can be given (the option wins) */
	if (getenv("AGX_SIM_JOB_TIME_LIMIT_MS"))
		time_limit_ms = strtol(getenv("AGX_SIM_JOB_TIME_LIMIT_MS"), NULL, 0);
	while ((opt = getopt_long(argc, argv, "", options, NULL)) != -1) {
		if (opt == 's')
			path = optarg;
		else if (opt == 'm')
			memory_size = strtoull(optarg, NULL, 0);
		else if (opt == 'c')
			cores = strtol(optarg, NULL, 0);
		else if (opt == 'j')
			time_limit_ms = strtol(optarg, NULL, 0);
		else if (opt == 't')
			sim.test_faults = true;
		else
			return 2;
	}
	if (!path || optind != argc || cores < 1 || cores > 256 || time_limit_ms < 0) {
		fprintf(stderr, "usage: agx-sim --socket PATH [--memory-size BYTES] [--cores N] "
				"[--job-time-limit-ms MS] [--test-faults]\n");
		return 2;
	}
	daemon = agx_daemon_create("agx-sim");
	if (!daemon)
		return 1;
	sim.dev = sim_device_create(memory_size, (unsigned)cores);
	if (sim.dev)
		sim.dev->job_time_limit_ns = (uint64_t)time_limit_ms * 1000000u;
	ret = agx_daemon_listen(daemon, path, &fd);
	if (ret < 0 || !sim.dev) {
		agx_err("cannot listen on %s: %s", path, strerror(ret < 0 ? -ret : ENOMEM));
		agx_daemon_destroy(daemon);
		return 1;
	}
	config.data = &sim;
	server = agx_ipc_server_create(agx_daemon_base(daemon), fd, &config);
	if (!server) {
		agx_daemon_destroy(daemon);
		return 1;
	}
	agx_daemon_ready(daemon, "device ready");
	ret = agx_daemon_run(daemon);
	agx_ipc_server_destroy(server);
	sim_device_destroy(sim.dev);
	agx_daemon_destroy(daemon);
	return ret < 0 ? 1 : 0;
}
