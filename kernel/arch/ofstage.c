/* The Open Firmware stage (mac99's OpenBIOS, a real G5's Apple firmware): runs before the
 * kernel owns the machine, in 64-bit real mode, calling the firmware through of_call() in the
 * firmware's own mode. It copies the firmware's device tree into a flattened tree, so that
 * the rest of the kernel sees the same kind of description on every machine, then quiesces
 * the firmware. Nothing here may use the console or per-CPU state: the kernel is not up. */
#include <stdarg.h>
#include <stdint.h>
#include "cpu.h"
#include "../lib/fdt_write.h"
#include "common/lib/string.h"

uint32_t of_call(uint32_t args_phys, uint64_t entry, uint64_t fw_msr);
uint64_t of_stage(uint64_t entry, uint64_t fw_msr);
#include "ofstage.h"

#define OF_FAILED 0xffffffffu
#define FDT_BUF_SIZE (256 * 1024)
#define PROP_MAX (16 * 1024)

static uint64_t of_entry, of_msr;
static uint32_t of_stdout;
static uint8_t fdt_buf[FDT_BUF_SIZE] __attribute__((aligned(8)));
static uint8_t prop_buf[PROP_MAX] __attribute__((aligned(8)));
static uint32_t of_args[16];
struct of_stage_stats of_stage_stats;

/* Firmware addresses are 32-bit physical. */
static uint32_t ofp(const void *p)
{
	return (uint32_t)phys_of(p);
}

/* Calls a client interface service with nargs cells in and nret cells out; returns the first
 * result cell (OF_FAILED if the call itself failed). */
static uint32_t ofw(const char *service, int nargs, int nret, ...)
{
	va_list ap;
	va_start(ap, nret);
	of_args[0] = ofp(service);
	of_args[1] = (uint32_t)nargs;
	of_args[2] = (uint32_t)nret;
	for (int i = 0; i < nargs; i++)
		of_args[3 + i] = va_arg(ap, uint32_t);
	va_end(ap);
	for (int i = 0; i < nret; i++)
		of_args[3 + nargs + i] = OF_FAILED;
	if ((int32_t)of_call(ofp(of_args), of_entry, of_msr) != 0)
		return OF_FAILED;
	return nret > 0 ? of_args[3 + nargs] : 0;
}

static void of_print(const char *s)
{
	if (of_stdout)
		ofw("write", 3, 1, of_stdout, ofp(s), (uint32_t)strlen(s));
}

/* The node's own name: the last component of its full path ("" for the root). */
static void node_name(uint32_t ph, char *name, size_t n)
{
	static char path[512];
	uint32_t len = ofw("package-to-path", 3, 1, ph, ofp(path), (uint32_t)sizeof path - 1);
	if (len == OF_FAILED || len >= sizeof path)
		len = 0;
	path[len] = 0;
	const char *last = path;
	for (const char *p = path; *p; p++)
		if (*p == '/')
			last = p + 1;
	size_t i = 0;
	for (; last[i] && i + 1 < n; i++)
		name[i] = last[i];
	name[i] = 0;
}

/* Firmware-internal nodes a kernel never needs: its configuration variables, support packages
 * and client-interface services. Every client call costs about 0.3 ms on OpenBIOS, so skipping
 * them halves the stage. (A walk done by the firmware's own Forth through one "interpret" call
 * was tried and measured slower still: 0.98 s against 0.43 s for the whole tree.) */
static bool firmware_private(const char *name)
{
	static const char *const skip[] = { "options", "packages", "client-services" };
	for (unsigned i = 0; i < sizeof skip / sizeof skip[0]; i++)
		if (strcmp(name, skip[i]) == 0)
			return true;
	return false;
}

static void flatten_node(struct fdt_writer *w, uint32_t ph, int depth)
{
	char name[64];
	static char prop[32], prev[32];
	node_name(ph, name, sizeof name);
	if (depth > 0 && firmware_private(name))
		return;
	fdt_begin_node(w, depth == 0 ? "" : name);
	prev[0] = 0;
	while ((int32_t)ofw("nextprop", 3, 1, ph, ofp(prev), ofp(prop)) == 1) {
		/* getprop answers the property's full length even when the buffer is smaller. */
		uint32_t len = ofw("getprop", 4, 1, ph, ofp(prop), ofp(prop_buf), PROP_MAX);
		if (len != OF_FAILED && len <= PROP_MAX)
			fdt_add_prop(w, prop, prop_buf, len);
		of_stage_stats.props++;
		memcpy(prev, prop, sizeof prev);
	}
	fdt_add_prop_u32(w, "phandle", ph);
	of_stage_stats.nodes++;
	if (depth < 16) {
		for (uint32_t c = ofw("child", 1, 1, ph); c != 0 && c != OF_FAILED; c = ofw("peer", 1, 1, c))
			flatten_node(w, c, depth + 1);
	}
	fdt_end_node(w);
}

uint64_t of_stage(uint64_t entry, uint64_t fw_msr)
{
	of_entry = entry;
	of_msr = fw_msr;
	uint32_t chosen = ofw("finddevice", 1, 1, ofp("/chosen"));
	if (chosen != OF_FAILED)
		ofw("getprop", 4, 1, chosen, ofp("stdout"), ofp(&of_stdout), 4);
	of_print("kov: flattening the Open Firmware device tree\r\n");

	of_stage_stats.tb_start = mftb();
	struct fdt_writer w;
	uint32_t root = ofw("peer", 1, 1, 0);
	fdt_writer_init(&w, fdt_buf, sizeof fdt_buf);
	flatten_node(&w, root, 0);
	uint32_t size = fdt_writer_finish(&w);
	if (size == 0) {
		of_print("kov: device tree does not fit in 256 KiB; cannot boot\r\n");
		return 0;
	}
	of_stage_stats.tb_flattened = mftb();
	of_stage_stats.fdt_size = size;
	ofw("quiesce", 0, 0);
	of_stage_stats.tb_done = mftb();
	return (uint64_t)fdt_buf;
}
