/* Restarts the machine, like the console's reboot: started by the kernel (workload=reboot) it
 * is privileged and the kernel asks the platform (RTAS, PMU99 or CUDA) to reset; the firmware
 * boots the kernel again.
 *
 * Usage: reboot [delay before, s (0)] */
#include "power_cmd.h"

int main(int argc, char **argv)
{
	return power_cmd(argc, argv, "reboot", POWER_REBOOT);
}
