/*
 * make-rtkit-seeds DIR: seed inputs for fuzz-rtkit, written with the same
 * packers a host uses: a whole boot as Linux's RTKit driver does it, and
 * pieces of one.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "agx_fwabi.h"
#include "agx_rtkit.h"

struct seed {
	uint8_t bytes[64 * 16];
	size_t size;
};

static void add(struct seed *s, unsigned ep, const uint8_t msg[8])
{
	uint64_t msg1 = ep;

	memcpy(s->bytes + s->size, msg, 8);
	memcpy(s->bytes + s->size + 8, &msg1, 8);
	s->size += 16;
}

static void write_seed(const char *dir, const char *name, const struct seed *s)
{
	char path[4096];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "wb");
	if (!f || fwrite(s->bytes, 1, s->size, f) != s->size || fclose(f)) {
		perror(path);
		exit(1);
	}
}

int main(int argc, char **argv)
{
	struct agx_rtkit_hello_reply hello = { .min_ver = 12, .max_ver = 12 };
	struct agx_rtkit_epmap_reply map0 = { .base = 0, .more = true };
	struct agx_rtkit_epmap_reply map1 = { .base = 1, .last = true };
	struct agx_rtkit_ap_power ap = { .state = AGX_RTKIT_POWER_ON };
	struct agx_rtkit_syslog_log ack = { .index = 0 };
	struct agx_rtkit_ping ping = { .cookie = 0x1234 };
	struct agx_rtkit_ioreport_notify report = { .type = 8, .payload = 1 };
	struct agx_fw_init gpu_init = { .initdata = 0xfa000000000ull };
	struct agx_fw_fwctl_doorbell fwctl = { 0 };
	const unsigned eps[] = { AGX_RTKIT_ENDPOINT_CRASHLOG, AGX_RTKIT_ENDPOINT_SYSLOG,
				 AGX_RTKIT_ENDPOINT_IOREPORT };
	const unsigned pages[] = { 4, 1, 1 };
	struct seed boot = { 0 }, start = { 0 };
	uint8_t m[8];

	if (argc != 2) {
		fprintf(stderr, "usage: %s DIR\n", argv[0]);
		return 2;
	}
	agx_rtkit_hello_reply_pack(m, &hello);
	add(&boot, AGX_RTKIT_ENDPOINT_MANAGEMENT, m);
	agx_rtkit_epmap_reply_pack(m, &map0);
	add(&boot, AGX_RTKIT_ENDPOINT_MANAGEMENT, m);
	agx_rtkit_epmap_reply_pack(m, &map1);
	add(&boot, AGX_RTKIT_ENDPOINT_MANAGEMENT, m);
	start = boot;
	write_seed(argv[1], "handshake", &boot);
	for (unsigned i = 0; i < 3; i++) {
		struct agx_rtkit_startep s = { .ep = eps[i], .flag = true };

		agx_rtkit_startep_pack(m, &s);
		add(&boot, AGX_RTKIT_ENDPOINT_MANAGEMENT, m);
		add(&start, AGX_RTKIT_ENDPOINT_MANAGEMENT, m);
	}
	write_seed(argv[1], "start-endpoints", &start);
	for (unsigned i = 0; i < 3; i++) {
		/* buffers inside the fuzzer's 64 KiB of memory */
		struct agx_rtkit_buffer_request grant = { .iova = 0x4000 * (i + 1),
							  .pages = pages[i] };

		agx_rtkit_buffer_request_pack(m, &grant);
		add(&boot, eps[i], m);
	}
	agx_rtkit_ap_power_pack(m, &ap);
	add(&boot, AGX_RTKIT_ENDPOINT_MANAGEMENT, m);
	agx_rtkit_syslog_log_pack(m, &ack);
	add(&boot, AGX_RTKIT_ENDPOINT_SYSLOG, m);
	agx_rtkit_ping_pack(m, &ping);
	add(&boot, AGX_RTKIT_ENDPOINT_MANAGEMENT, m);
	agx_rtkit_ioreport_notify_pack(m, &report);
	add(&boot, AGX_RTKIT_ENDPOINT_IOREPORT, m);
	write_seed(argv[1], "boot", &boot);
	/* the GPU firmware's messages after the boot */
	agx_fw_init_pack(m, &gpu_init);
	add(&boot, 0x20, m);
	agx_fw_fwctl_doorbell_pack(m, &fwctl);
	add(&boot, 0x21, m);
	write_seed(argv[1], "boot-gpu", &boot);
	return 0;
}
