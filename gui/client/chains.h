/* The call chains a 1.4 target defined on a connection (CHAINS frames, docs/protocol.md):
 * samples (SAMPLES_CHAINED) name them by id. A client notes every CHAINS frame it receives,
 * live or from a recording, and looks chains up by id. */
#ifndef KOV_CLIENT_CHAINS_H
#define KOV_CLIENT_CHAINS_H

#include <stddef.h>
#include "proto/proto.h"

struct kov_chains {
	struct proto_chain *items;       /* sorted by id */
	size_t n, cap;
};

/* Adds the chains of a CHAINS frame (a repeated id replaces the old chain). 0, or -1 when the
 * frame does not decode or memory ran out (the chains added before stay). */
int kov_chains_note(struct kov_chains *t, const struct proto_frame *f);
/* The chain of that id, or NULL when it was never defined. */
const struct proto_chain *kov_chains_get(const struct kov_chains *t, uint32_t id);
void kov_chains_free(struct kov_chains *t);

#endif
