/* Powers the machine off, like the console's halt: started by the kernel (workload=halt, or
 * by init) it is privileged and the kernel cuts power through the platform (RTAS, PMU99 or
 * CUDA); QEMU exits.
 *
 * Usage: halt [delay before, s (0)] */
#include "power_cmd.h"

int main(int argc, char **argv)
{
	return power_cmd(argc, argv, "halt", POWER_OFF);
}
