/* PLATFORM_GET (since 1.8): the clock the kernel read at boot and its self-report of the
 * platform's paths, as target_load read them (SYS_PLATFORM; they do not change after boot). */
#include "dispatch.h"
#include "dcid.h"
#include "proto/proto_platform.h"

static uint8_t frame[PROTO_HEADER_SIZE + 4096];

void answer_platform(struct client *c, const struct proto_frame *f)
{
	const struct km_platform *p = &target.platform;
	if (!target.has_platform) {
		client_error(c, f->req, f->type, PROTO_E_UNAVAILABLE, "the kernel gave no self-report");
		return;
	}
	/* A clock before 1970 (a Mac's empty battery reads 1904) goes out as 0: fields are
	 * unsigned. */
	struct proto_platform_head h = {
		p->rtc_ok && p->rtc_boot > 0 ? (uint64_t)p->rtc_boot : 0, p->rtc_ok ? 1 : 0,
		p->emulated ? 1 : 0, proto_cstr(p->platform), proto_cstr(p->power_ctl),
	};
	struct proto_builder b;
	int err = proto_begin_platform(&b, frame, sizeof frame, f->req, 0, &h);
	for (uint32_t i = 0; !err && i < p->n_paths && i < KM_PLATFORM_PATHS; i++) {
		struct proto_platform_path r = { (uint8_t)p->paths[i].state,
						 proto_cstr(p->paths[i].name),
						 proto_cstr(p->paths[i].detail) };
		err = proto_add_platform_path(&b, &r);
	}
	int n = err ? -err : proto_finish(&b);
	if (n < 0) {
		client_error(c, f->req, f->type, PROTO_E_INTERNAL, "cannot encode PLATFORM");
		return;
	}
	client_queue(c, frame, (size_t)n);
}
