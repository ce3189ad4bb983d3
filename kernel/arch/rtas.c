#include <stdarg.h>
#include "rtas.h"
#include "hcall.h"
#include "cpu.h"
#include "common/lib/spinlock.h"
#include "common/lib/string.h"

static const char *const rtas_services[] = {
	"start-cpu", "stop-self", "power-off", "system-reboot", "query-cpu-stopped-state",
	"ibm,set-xive", "ibm,int-on", "ibm,int-off", "get-time-of-day",
};
#define RTAS_SERVICES (sizeof rtas_services / sizeof rtas_services[0])

static uint32_t tokens[RTAS_SERVICES];

/* RTAS takes its argument buffer by physical address; one shared buffer, one caller at a time. */
static struct rtas_args {
	uint32_t token, nargs, nret;
	uint32_t args[16];
} args;
static struct spinlock rtas_lock;

void rtas_init(const struct fdt *fdt)
{
	int node = fdt_path(fdt, "/rtas");
	for (unsigned i = 0; i < RTAS_SERVICES; i++)
		if (node < 0 || !fdt_prop_u32(fdt, node, rtas_services[i], &tokens[i]))
			tokens[i] = RTAS_NO_TOKEN;
}

uint32_t rtas_token(const char *name)
{
	for (unsigned i = 0; i < RTAS_SERVICES; i++)
		if (strcmp(rtas_services[i], name) == 0)
			return tokens[i];
	return RTAS_NO_TOKEN;
}

int rtas_call(const char *name, int nargs, int nret, uint32_t *ret, ...)
{
	uint32_t token = rtas_token(name);
	if (token == RTAS_NO_TOKEN || nargs + nret > 16)
		return -1;
	int irq = irq_save();
	spin_lock(&rtas_lock);
	args.token = token;
	args.nargs = (uint32_t)nargs;
	args.nret = (uint32_t)nret;
	va_list ap;
	va_start(ap, ret);
	for (int i = 0; i < nargs; i++)
		args.args[i] = va_arg(ap, uint32_t);
	va_end(ap);
	for (int i = 0; i < nret; i++)
		args.args[nargs + i] = 0;
	hcall(KVMPPC_H_RTAS, phys_of(&args), 0, 0, 0, 0, 0);
	int status = nret > 0 ? (int)args.args[nargs] : 0;
	for (int i = 0; ret && i < nret; i++)
		ret[i] = args.args[nargs + i];
	spin_unlock(&rtas_lock);
	irq_restore(irq);
	return status;
}
