/* Interned call chains (dci/chains.h). */
#include "dcid.h"
#include "chains.h"
#include "subscribers.h"

#define SLOTS (2 * CHAINS_MAX)            /* hash slots, open addressing: at most half full */

static struct proto_chain *table;         /* CHAINS_MAX entries, made at first use */
static uint32_t used;
static int32_t slot_of[SLOTS];            /* entry index + 1; 0 free */
static uint32_t next_id = 1;
static uint32_t epoch = 1;                /* bumped each time the table is emptied */
static uint8_t sent[DCID_SLOTS][CHAINS_MAX / 8];
static uint32_t sent_epoch[DCID_SLOTS];
static uint8_t out[PROTO_MAX_FRAME];

static uint64_t hash(const struct proto_chain *c)
{
	uint64_t h = 1469598103934665603ull ^ c->pid ^ ((uint64_t)c->depth << 32);
	for (unsigned i = 0; i < c->depth; i++) {
		const struct proto_chain_frame *f = &c->frames[i];
		h = (h ^ f->pc ^ ((uint64_t)f->flags << 56)) * 1099511628211ull;
		h = (h ^ f->coid ^ f->gen) * 1099511628211ull;
	}
	return h;
}

static bool same(const struct proto_chain *a, const struct proto_chain *b)
{
	return a->pid == b->pid && a->depth == b->depth &&
	       proto_chain_frames_equal(a->frames, b->frames, a->depth);
}

void chains_reserve(uint32_t n)
{
	if (used + n <= CHAINS_MAX)
		return;
	used = 0;
	memset(slot_of, 0, sizeof slot_of);
	epoch++;
}

uint32_t chains_intern(const struct proto_chain *c, uint32_t *index)
{
	if (!table && !(table = malloc(CHAINS_MAX * sizeof *table)))
		return 0;
	uint32_t s = (uint32_t)(hash(c) % SLOTS);
	for (;; s = (s + 1) % SLOTS) {
		int32_t e = slot_of[s];
		if (!e)
			break;
		if (same(&table[e - 1], c)) {
			*index = (uint32_t)e - 1;
			return table[e - 1].id;
		}
	}
	if (used == CHAINS_MAX)
		return 0;   /* chains_reserve was not called: no room */
	struct proto_chain *t = &table[used];
	*t = *c;
	t->id = next_id++;
	slot_of[s] = (int32_t)++used;
	*index = used - 1;
	return t->id;
}

void chains_client_reset(struct client *cl)
{
	size_t k = subscriber_slot(cl);
	memset(sent[k], 0, sizeof sent[k]);
	sent_epoch[k] = epoch;
}

bool chains_send(struct client *cl, const uint32_t *index, uint32_t n, uint32_t config_id)
{
	size_t k = subscriber_slot(cl);
	if (sent_epoch[k] != epoch)
		chains_client_reset(cl);
	struct proto_builder b;
	struct proto_samples_head h = { config_id };
	proto_begin_chains(&b, out, sizeof out, 0, 0, &h);
	for (uint32_t i = 0; i < n; i++) {
		uint32_t e = index[i];
		if (e >= used || (sent[k][e / 8] & (1u << (e % 8))))
			continue;
		sent[k][e / 8] |= (uint8_t)(1u << (e % 8));
		int rc = proto_add_chain(&b, &table[e]);
		if (rc == -PROTO_E_NOSPACE || rc == -PROTO_E_TOO_BIG) {
			if (!subscriber_send(cl, out, (size_t)proto_finish(&b)))
				return false;
			proto_begin_chains(&b, out, sizeof out, 0, 0, &h);
			rc = proto_add_chain(&b, &table[e]);
		}
		if (rc)
			printf("dcid: chain %u not encodable (%s)\n", (unsigned)table[e].id,
			       proto_strerror(-rc));
	}
	if (proto_builder_count(&b))
		return subscriber_send(cl, out, (size_t)proto_finish(&b));
	return true;
}
