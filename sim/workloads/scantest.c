/* Runs the KM's object scan and prints per-class object counts, then checks that the objects
 * this process caused appear with the right links: its Process has its HAT and Regions as
 * children, each Region an FCM, the program's FCMs its FR, and the HAT its SegmentHATs. */
#include <kov.h>
#include "../../kernel/abi/syscall_nr.h"
#include "../../kernel/abi/scan.h"

#define MAX 4096

static struct scan_record recs[MAX];

static const struct scan_record *find(uint32_t index, int n)
{
	for (int i = 0; i < n; i++)
		if (recs[i].index == index)
			return &recs[i];
	return 0;
}

static int failures;

static void check(int ok, const char *what)
{
	if (!ok) {
		failures++;
		printf("scantest: FAIL %s\n", what);
	}
}

/* Scans until both children are set up: the tree complete (a TreeNode of pid with its two
 * children linked; objects are visible from their creation) and both runtimes registered. */
static long scan_for_tree(int pid, struct scan_totals *t)
{
	long n = 0;
	for (uint64_t start = clock_ns(); clock_ns() - start < 1200000000ull;) {
		n = __syscall(SYS_KM_SCAN, (long)recs, MAX, (long)t, 0, 0);
		for (long i = 0; i < n; i++)
			if (recs[i].pid == (uint32_t)pid && strcmp(recs[i].class_name, "TreeNode") == 0 &&
			    recs[i].nchildren == 2 && t->processes_asked == 2)
				return n;
		yield();
	}
	return n;
}

static void check_user_objects(void)
{
	int tree = spawn("cotree", 0), silent = spawn("cotree", "silent");
	struct scan_totals t;
	long n = scan_for_tree(tree, &t);
	const struct scan_record *root = 0;
	int nodes = 0;
	for (long i = 0; i < n; i++)
		if (recs[i].pid == (uint32_t)tree && strcmp(recs[i].class_name, "TreeNode") == 0) {
			nodes++;
			check(recs[i].flags & SCAN_USER, "tree nodes are marked as user objects");
			check(strcmp(recs[i].process_name, "cotree") == 0, "tree nodes carry the process name");
			if (recs[i].nchildren == 2)
				root = &recs[i];
		}
	printf("scantest: user objects: %u of %u live objects; %u runtimes asked, %u silent (pid %u)\n",
	       t.user_objects, t.objects, t.processes_asked, t.processes_silent, t.silent_pid);
	check(nodes == 3, "three TreeNodes found in the child");
	int linked = 0;
	for (uint32_t k = 0; root && k < 2; k++)
		for (long i = 0; i < n; i++)
			linked += recs[i].pid == (uint32_t)tree && recs[i].index == root->children[k] &&
				  strcmp(recs[i].class_name, "TreeNode") == 0;
	printf("scantest: user tree: root TreeNode %u -> %d linked children\n", root ? root->index : 0,
	       linked);
	check(linked == 2, "the root TreeNode's children are the other two");
	check(t.processes_silent == 1 && t.silent_pid == (uint32_t)silent,
	      "the process that does not answer is reported, not waited for");
	wait_pid(tree, 0);
	wait_pid(silent, 0);
}

/* The KM reads another process's scan records only from pages it has: scanbait claims 4096
 * records in pages it never touched, and a scan must neither return them nor allocate frames
 * for them in scanbait (that was 222 pages read and 453 frames handed out in one scan). */
static void check_no_allocation(void)
{
	struct scan_totals t;
	memset(recs, 0, sizeof recs);   /* the scans' own first touches are not the KM's doing */
	long quiet = meminfo(MEMINFO_PM_FRAMES);
	__syscall(SYS_KM_SCAN, (long)recs, MAX, (long)&t, 0, 0);
	quiet = meminfo(MEMINFO_PM_FRAMES) - quiet;
	uint32_t asked_before = t.processes_asked;
	int bait = spawn("scanbait", 0);
	check(bait > 0, "scanbait started");
	/* Its first scan: frames handed out meanwhile are scanbait's own first touches of its
	 * code after the registration (a few), or the KM's reading (hundreds). */
	long first = 0;
	for (uint64_t start = clock_ns(); bait > 0 && clock_ns() - start < 1200000000ull; yield()) {
		first = meminfo(MEMINFO_PM_FRAMES);
		__syscall(SYS_KM_SCAN, (long)recs, MAX, (long)&t, 0, 0);
		first = meminfo(MEMINFO_PM_FRAMES) - first;
		if (t.processes_asked > asked_before)
			break;
	}
	check(t.processes_asked > asked_before, "scanbait was asked to scan itself");
	check(first < 16, "the first scan of scanbait allocates no pages in it");
	/* The second: scanbait warmed up, so nothing at all. */
	long frames = meminfo(MEMINFO_PM_FRAMES);
	long n = __syscall(SYS_KM_SCAN, (long)recs, MAX, (long)&t, 0, 0);
	frames = meminfo(MEMINFO_PM_FRAMES) - frames;
	int claimed = 0;
	for (long i = 0; i < n; i++)
		claimed += recs[i].pid == (uint32_t)bait && (recs[i].flags & SCAN_USER);
	printf("scantest: a runtime claiming 4096 unwritten records: %d records read; frames handed "
	       "out during the first scan %ld, the second %ld (%ld in a scan without it)\n", claimed,
	       first, frames, quiet);
	check(claimed == 0, "records in pages never written are not read");
	check(frames == 0, "the scan allocates no pages in the scanned process");
	if (bait > 0) {
		__syscall(SYS_KM_SCAN, (long)recs, MAX, (long)&t, 0, 0);   /* scanbait's last */
		wait_pid(bait, 0);
	}
}

int main(void)
{
	struct scan_totals t;
	/* Touch some heap so the process has more than one segment mapped. */
	char *p = sbrk(3 * 4096);
	p[0] = p[8191] = 1;
	/* The first scan also pays for first touches (page-table misses); time the second. */
	__syscall(SYS_KM_SCAN, (long)recs, MAX, (long)&t, 0, 0);
	long n = __syscall(SYS_KM_SCAN, (long)recs, MAX, (long)&t, 0, 0);
	if (n < 0) {
		printf("scantest: scan refused: %ld\n", n);
		return 1;
	}
	const char *names[32];
	int counts[32], classes = 0;
	for (int i = 0; i < n; i++) {
		int c = 0;
		while (c < classes && strcmp(names[c], recs[i].class_name) != 0)
			c++;
		if (c == classes && classes < 32) {
			names[classes] = recs[i].class_name;
			counts[classes++] = 0;
		}
		if (c < 32)
			counts[c]++;
	}
	printf("scantest: %u live objects, %ld records; scan took %lu timebase ticks (%lu per object)\n",
	       t.objects, n, (unsigned long)t.tb_ticks, (unsigned long)(t.tb_ticks / (t.objects ? t.objects : 1)));
	for (int c = 0; c < classes; c++)
		printf("scantest:   %-16s %d\n", names[c], counts[c]);

	int me = getpid();
	const struct scan_record *proc = 0;
	for (int i = 0; i < n; i++)
		if (strcmp(recs[i].class_name, "Process") == 0 && recs[i].pid == (uint32_t)me)
			proc = &recs[i];
	check(proc != 0, "own Process object found");
	if (proc) {
		check(strcmp(proc->process_name, "scantest") == 0, "process name");
		const struct scan_record *hat = find(proc->children[0], (int)n);
		check(hat && strcmp(hat->class_name, "HAT") == 0, "first child is the HAT");
		check(hat && hat->nchildren >= 2, "HAT has SegmentHATs for the text and stack segments");
		for (uint32_t k = 0; hat && k < hat->nchildren; k++) {
			const struct scan_record *s = find(hat->children[k], (int)n);
			check(s && strcmp(s->class_name, "SegmentHAT") == 0 && s->pid == (uint32_t)me,
			      "HAT children are this process's SegmentHATs");
		}
		int regions = 0, fr_links = 0;
		for (uint32_t k = 1; k < proc->nchildren; k++) {
			const struct scan_record *r = find(proc->children[k], (int)n);
			check(r && strcmp(r->class_name, "Region") == 0, "other children are Regions");
			if (!r)
				continue;
			regions++;
			const struct scan_record *f = find(r->children[0], (int)n);
			check(f && strcmp(f->class_name, "FCM") == 0 && f->pid == (uint32_t)me,
			      "each Region's child is its FCM");
			if (f && f->nchildren == 1) {
				const struct scan_record *fr = find(f->children[0], (int)n);
				check(fr && strcmp(fr->class_name, "FR") == 0, "file FCMs link the FR");
				fr_links++;
			}
		}
		printf("scantest: own objects: Process %u (gen %u) -> HAT with %u SegmentHATs, %d Regions, "
		       "%d file-backed FCMs\n", proc->index, proc->generation, hat ? hat->nchildren : 0,
		       regions, fr_links);
		check(regions >= 4, "text, data, heap and stack Regions");
		check(fr_links >= 2, "text and data FCMs read the program file");
	}
	const struct scan_record *annex = 0;
	for (int i = 0; i < n; i++)
		if (strcmp(recs[i].class_name, "ProcessAnnex") == 0)
			annex = &recs[i];
	int listed = 0;
	for (uint32_t k = 0; annex && proc && k < annex->nchildren; k++)
		listed |= annex->children[k] == proc->index;
	check(listed, "the ProcessAnnex lists this process");
	check_no_allocation();
	check_user_objects();
	printf("scantest: %s\n", failures ? "FAILED" : "links as expected");
	return failures ? 1 : 0;
}
