/* A process whose runtime claims scan records it never wrote: it registers a scan area of
 * heap pages it never touches, answers two scan requests with the area's full count and a
 * third with none, and exits. The second is the one to measure: by then the program's own
 * first touches (its code after the registration) are behind it, and its exit is not yet
 * under way. The KM must read nothing from it (those pages do not exist) and allocate nothing in
 * it (scantest checks both: tests/qemu/scantest.sh). */
#include <kov.h>
#include "../../kernel/abi/syscall_nr.h"
#include "../../kernel/abi/scan.h"

#define CLAIMED 4096   /* the most SYS_CO_SCANNER accepts */

int main(void)
{
	/* From a page boundary: the break's page may hold data the program touched. */
	uint64_t brk = (uint64_t)sbrk(0), pad = (4096 - (brk & 4095)) & 4095;
	char *area = sbrk((long)(pad + CLAIMED * sizeof(struct scan_record)));
	if (area == (char *)-1 || __syscall(SYS_CO_SCANNER, (long)(area + pad), CLAIMED, 0, 0, 0) != 0) {
		printf("scanbait: cannot register a scan area\n");
		return 1;
	}
	for (int scan = 0; scan < 3; scan++) {
		if (__syscall(SYS_CO_SCAN_WAIT, 0, 0, 0, 0, 0) < 0)
			return 1;
		__syscall(SYS_CO_SCAN_DONE, scan < 2 ? CLAIMED : 0, 0, 0, 0, 0);
	}
	return 0;
}
