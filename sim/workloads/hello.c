/* The smallest user program: says hello through the write system call and exits with the
 * status given as its first argument (default 0). */
#include <kov.h>

int main(int argc, char **argv)
{
	if (argc > 2 && strcmp(argv[2], "quiet") == 0)
		return 0;
	printf("hello from pid %d on cpu %d, %d argument(s)\n", getpid(), getcpu(), argc);
	for (int i = 0; i < argc; i++)
		printf("argv[%d] = %s\n", i, argv[i]);
	int status = 0;
	if (argc > 1)
		for (const char *p = argv[1]; *p >= '0' && *p <= '9'; p++)
			status = status * 10 + (*p - '0');
	return status;
}
