/* Between profile.c and profile_names.c: how the names are looked up. */
#ifndef KOV_CLIENT_PROFILE_PRIV_H
#define KOV_CLIENT_PROFILE_PRIV_H

#include "client/profile.h"
#include "client/grow.h"

/* The function covering pc in space's symbol table (0: the kernel), or NULL. */
const char *kov_names_symbol(const struct kov_profile_names *n, uint32_t space, uint64_t pc);
/* The class of object (space, coid) as the last scan listing it said, or NULL. */
const char *kov_names_class(const struct kov_profile_names *n, uint32_t space, uint64_t coid);
/* Process pid's name, or NULL. */
const char *kov_names_process(const struct kov_profile_names *n, uint32_t pid);
/* The catalogue index of event name, or -1. */
int kov_names_event(const struct kov_profile_names *n, const char *name);

#endif
