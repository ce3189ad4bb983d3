/* kovctl: parse the command line, connect, run one command. */
#include <stdio.h>
#include <string.h>
#include "kovctl/kovctl.h"

static struct kovctl_opts opts;  /* large (the address list): not on the stack */

int kovctl_client_error(struct kovctl *k)
{
	fprintf(stderr, "kovctl: %s\n", kov_client_error(k->c));
	return kov_client_error_code(k->c) == PROTO_E_NOT_CONTROLLER ? EXIT_NOT_CONTROLLER : EXIT_TARGET;
}

static int run(struct kovctl *k)
{
	switch (k->o->cmd) {
	case CMD_INFO: return cmd_info(k);
	case CMD_SCAN: return cmd_scan(k);
	case CMD_SYMBOLS: return cmd_symbols(k);
	case CMD_WATCH: return cmd_watch(k);
	case CMD_PING: return cmd_ping(k);
	case CMD_STATUS: return cmd_status(k);
	case CMD_STREAM: return cmd_stream(k);
	case CMD_EVENTS: return cmd_events(k);
	case CMD_CONFIGURE: return cmd_configure(k);
	case CMD_START: return cmd_start(k);
	case CMD_STOP: return cmd_stop(k);
	case CMD_COUNTS: return cmd_counts(k);
	case CMD_TOP: return cmd_top(k);
	case CMD_RECORD: return cmd_record(k);
	case CMD_REPLAY: return cmd_replay(k);
	case CMD_LOCKSTAT: return cmd_lockstat(k);
	case CMD_INSTRUMENT: return cmd_instrument(k);
	case CMD_SWAP: return cmd_swap(k);
	case CMD_OPTIMIZE: return cmd_optimize(k);
	case CMD_THROTTLE: return cmd_throttle(k);
	case CMD_POWEROFF:
	case CMD_REBOOT: return cmd_power(k);
	default: return EXIT_USAGE;
	}
}

int main(int argc, char **argv)
{
	char err[512];
	if (kovctl_parse(argc, argv, &opts, err, sizeof err) < 0) {
		fprintf(stderr, "kovctl: %s\n", err);
		return EXIT_USAGE;
	}
	if (opts.help) {
		fputs(kovctl_usage, stdout);
		return EXIT_OK;
	}
	struct kovctl k = { .o = &opts };
	/* A file named on the command line is the user's: its mistakes are usage errors whether
	 * or not the target can be reached. */
	if (opts.cmd == CMD_CONFIGURE) {
		int rc = kovctl_load_conf(opts.file, &k.conf);
		if (rc)
			return rc;
	}
	if (opts.cmd == CMD_EXPORT)     /* a file, no target */
		return cmd_export(&k);
	if (opts.cmd == CMD_REPLAY) {   /* a file, no target */
		json_init(&k.j, stdout, true);
		return cmd_replay(&k);
	}
	bool v6 = strchr(opts.host, ':') != NULL;
	snprintf(k.target, sizeof k.target, v6 ? "[%s]:%s" : "%s:%s", opts.host, opts.port);
	json_init(&k.j, stdout, true);
	/* Commands that read no pushed data say so: their answers never wait behind samples. */
	bool data = opts.cmd == CMD_WATCH || opts.cmd == CMD_STREAM || opts.cmd == CMD_COUNTS ||
	            opts.cmd == CMD_TOP || opts.cmd == CMD_RECORD || opts.cmd == CMD_LOCKSTAT ||
	            opts.cmd == CMD_OPTIMIZE;
	struct kov_client_options co = { .name = KOVCTL_NAME, .token = opts.token,
	                                 .timeout_ms = opts.timeout_ms, .no_data = !data };
	k.c = kov_client_new(&co);
	if (!k.c) {
		fprintf(stderr, "kovctl: out of memory\n");
		return EXIT_TARGET;
	}
	int rc = kov_client_connect(k.c, opts.host, opts.port) ? kovctl_client_error(&k) : run(&k);
	kov_client_free(k.c);
	return rc;
}
