/* kovctl swap: a live object hot-swapped to another class (SWAP, proto/proto_swap.h). */
#include "kovctl/kovctl.h"

static double ms(uint64_t ns)
{
	return (double)ns / 1e6;
}

void kovctl_swapped_report(struct kovctl *k, const struct kov_swapped *s)
{
	const struct proto_swapped *m = &s->m;
	bool ok = m->result == PROTO_SWAP_OK;
	if (k->o->json) {
		json_kv_u64(&k->j, "pid", m->pid);
		json_key(&k->j, "coid");
		json_hex(&k->j, m->coid);
		json_kv_str(&k->j, "from", s->from);
		json_kv_str(&k->j, "to", s->to);
		json_kv_bool(&k->j, "swapped", ok);
		json_kv_str(&k->j, "result", proto_swap_result_name(m->result));
		json_kv_u64(&k->j, "forward_ns", m->forward_ns);
		json_kv_u64(&k->j, "block_ns", m->block_ns);
		json_kv_u64(&k->j, "transfer_ns", m->transfer_ns);
		json_kv_u64(&k->j, "forwarded", m->forwarded);
		json_kv_u64(&k->j, "held", m->held);
		json_kv_u64(&k->j, "walks", m->walks);
	} else if (ok) {
		printf("pid %u object 0x%llx: %s -> %s; forward %.3f ms, block %.3f ms, transfer %.3f "
		       "ms; %llu calls forwarded, %llu held\n", (unsigned)m->pid,
		       (unsigned long long)m->coid, s->from, s->to, ms(m->forward_ns), ms(m->block_ns),
		       ms(m->transfer_ns), (unsigned long long)m->forwarded, (unsigned long long)m->held);
	} else {
		printf("pid %u object 0x%llx: not swapped (%s): %s; it stays a %s\n", (unsigned)m->pid,
		       (unsigned long long)m->coid, s->to, proto_swap_result_name(m->result), s->from);
	}
}

int cmd_swap(struct kovctl *k)
{
	int rc = kovctl_need_controller(k);
	if (rc)
		return rc;
	struct kov_swapped s;
	if (kov_client_swap(k->c, k->o->pid, k->o->coid, k->o->to_class, &s))
		return kovctl_client_error(k);
	if (k->o->json)
		json_begin_object(&k->j);
	kovctl_swapped_report(k, &s);
	if (k->o->json) {
		json_end_object(&k->j);
		json_end(&k->j);
	}
	return s.m.result == PROTO_SWAP_OK ? EXIT_OK : EXIT_TARGET;
}
