/* <string.h> for lwIP: the kernel's own string functions. */
#include "common/lib/string.h"
