/* kovctl poweroff and reboot: POWER_OFF / REBOOT (controller only, protocol 1.8). The target
 * answers OK and then goes down, so the connection ends soon after. */
#include <stdio.h>
#include "kovctl/kovctl.h"

int cmd_power(struct kovctl *k)
{
	int rc = kovctl_need_controller(k);
	if (rc)
		return rc;
	bool reboot = k->o->cmd == CMD_REBOOT;
	if (kov_client_power(k->c, reboot))
		return kovctl_client_error(k);
	if (k->o->json) {
		json_begin_object(&k->j);
		json_kv_str(&k->j, "done", reboot ? "reboot" : "poweroff");
		json_end_object(&k->j);
		json_end(&k->j);
	} else {
		printf("%s: %s\n", k->target, reboot ? "restarting" : "powering off");
	}
	return EXIT_OK;
}
