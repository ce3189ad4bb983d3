/* POWER_OFF and REBOOT (controller only, since 1.8): the OK is sent first and given a moment to
 * leave the machine, then the kernel is asked (SYS_POWER; dcid is privileged) and does not come
 * back. Every platform KOV knows can do both, so a refusal (the console says it) would mean a
 * daemon started unprivileged, which target_load already rules out. */
#include "dispatch.h"
#include "dcid.h"
#include <socket.h>
#include <kov.h>

#define POWER_GRACE_MS 300   /* time for the network to send the OK */

void answer_power(struct client *c, const struct proto_frame *f)
{
	bool off = f->type == PROTO_POWER_OFF;
	uint8_t ok[PROTO_HEADER_SIZE];
	int n = proto_encode_empty(ok, sizeof ok, PROTO_OK, f->req, 0);
	if (n < 0 || !client_queue(c, ok, (size_t)n))
		return;
	client_writable(c);
	printf("dcid: %s asked by the controller\n", off ? "power-off" : "reboot");
	struct pollfd none = { -1, 0, 0 };
	poll(&none, 1, POWER_GRACE_MS);
	int rc = power(off ? POWER_OFF : POWER_REBOOT);
	printf("dcid: the kernel refused the %s: error %d\n", off ? "power-off" : "reboot", -rc);
}
