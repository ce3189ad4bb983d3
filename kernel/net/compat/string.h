/* <string.h> for lwIP: the kernel's own string functions. */
#include "../../lib/string.h"
