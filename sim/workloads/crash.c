/* Dies on purpose: a store through a null pointer (or, with argument "exec", a jump into the
 * stack, which is not executable). The kernel must kill it and keep running. */
#include <kov.h>

int main(int argc, char **argv)
{
	if (argc > 1 && strcmp(argv[1], "exec") == 0) {
		static const char *msg = "jumping into the stack\n";
		write(1, msg, strlen(msg));
		static volatile uint64_t desc[3];
		volatile uint32_t code[4] = { 0x4e800020 };   /* blr, on the stack */
		desc[0] = (uint64_t)code;                      /* an ELFv1 function descriptor */
		void (*fn)(void) = (void (*)(void))(uintptr_t)desc;
		fn();
		return 1;
	}
	printf("crash: storing through a null pointer\n");
	*(volatile int *)0 = 1;
	return 1;
}
