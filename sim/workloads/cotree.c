/* A process with a small tree of user-level clustered objects (a root TreeNode with two
 * children), alive for about 2 seconds so that a scan can find it ("forever": until the
 * machine stops, as a workload for kovctl and the viewer). With "silent" it claims a scan
 * area but never answers, so the KM must report it instead of waiting for it. With "touch" it
 * calls the nodes' method until stopped, the root three times, its first child twice and the
 * second once per round (an invocation-counting workload with known proportions). */
#include <kov.h>
#include <cobj.h>
#include "../../kernel/abi/syscall_nr.h"
#include "../../kernel/abi/scan.h"

struct node;
struct node_ops { long (*touch)(struct node *n); };
struct node { const struct node_ops *ops; coid_t kids[2]; int nkids; };

CO_METHOD(long, node_touch, struct node *n)
{
	return n->nkids;
}

static int node_children(void *rep, coid_t *children, int max)
{
	struct node *n = rep;
	for (int i = 0; i < n->nkids && i < max; i++)
		children[i] = n->kids[i];
	return n->nkids;
}

static const struct node_ops ops = { node_touch };
static const struct co_class node_class = { "TreeNode", &ops, 1, node_children };

static void *make_node(struct co_root *root, unsigned int cpu)
{
	(void)root, (void)cpu;
	struct node *n = malloc(sizeof *n);
	if (n)
		n->ops = &ops;
	return n;
}

static void free_node(struct co_root *root, void *rep)
{
	free(rep ? rep : (void *)root);
}

static coid_t new_node(void)
{
	struct co_root *root = malloc(sizeof *root);
	root->cls = &node_class;
	root->kind = CO_SINGLE_REP;
	root->make_rep = make_node;
	root->free = free_node;
	return co_create(root);
}

int main(int argc, char **argv)
{
	if (argc > 1 && strcmp(argv[1], "silent") == 0) {
		static struct scan_record area[4];
		__syscall(SYS_CO_SCANNER, (long)area, 4, 0, 0, 0);
	} else {
		co_register_class(&node_class);
		coid_t root = new_node(), a = new_node(), b = new_node();
		struct node *r = co_rep(root);
		r->kids[0] = a;
		r->kids[1] = b;
		r->nkids = 2;
		CO_CALL(struct node, root, touch);
		if (argc > 1 && strcmp(argv[1], "touch") == 0) {
			for (;;) {
				for (int i = 0; i < 1000; i++) {
					CO_CALL(struct node, root, touch);
					CO_CALL(struct node, root, touch);
					CO_CALL(struct node, root, touch);
					CO_CALL(struct node, a, touch);
					CO_CALL(struct node, a, touch);
					CO_CALL(struct node, b, touch);
				}
				yield();
			}
		}
	}
	if (argc > 1 && strcmp(argv[1], "forever") == 0) {
		static volatile uint32_t never;
		for (;;)
			futex_wait(&never, 0);
	}
	for (uint64_t t = clock_ns(); clock_ns() - t < 2000000000ull;)
		yield();
	return 0;
}
