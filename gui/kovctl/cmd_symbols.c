/* kovctl symbols: addresses to "name+offset" through SYMBOL_LOOKUP. */
#include <stdio.h>
#include <stdlib.h>
#include "client/symcache.h"
#include "kovctl/kovctl.h"

int cmd_symbols(struct kovctl *k)
{
	const struct kovctl_opts *o = k->o;
	uint32_t pid = o->has_pid ? o->pid : PROTO_PID_KERNEL;
	struct kov_symcache *sc = kov_symcache_new();
	struct kov_symbol *out = calloc(o->n_addrs, sizeof *out);
	if (!sc || !out) {
		fprintf(stderr, "kovctl: out of memory\n");
		kov_symcache_free(sc);
		free(out);
		return EXIT_TARGET;
	}
	int rc = EXIT_OK;
	if (kov_symcache_lookup(k->c, sc, pid, o->addrs, o->n_addrs, out)) {
		rc = kovctl_client_error(k);
		goto done;
	}
	char text[PROTO_SYMBOL_MAX + 32];
	if (o->json) {
		struct json *j = &k->j;
		json_begin_object(j);
		json_kv_u64(j, "pid", pid);
		json_key(j, "symbols");
		json_begin_array(j);
		for (size_t i = 0; i < o->n_addrs; i++) {
			kov_symbol_format(&out[i], text, sizeof text);
			json_begin_object(j);
			json_kv_hex(j, "addr", out[i].addr);
			json_kv_str(j, "symbol", text);
			json_key(j, "name");
			if (out[i].name[0]) {
				json_str(j, out[i].name);
				json_kv_hex(j, "start", out[i].start);
				json_kv_u64(j, "offset", out[i].addr - out[i].start);
				json_kv_u64(j, "size", out[i].size);
			} else {
				json_null(j);
			}
			json_end_object(j);
		}
		json_end_array(j);
		json_end_object(j);
		json_end(j);
	} else {
		for (size_t i = 0; i < o->n_addrs; i++) {
			kov_symbol_format(&out[i], text, sizeof text);
			printf("0x%016llx  %s\n", (unsigned long long)out[i].addr, text);
		}
	}
done:
	kov_symcache_free(sc);
	free(out);
	return rc;
}
