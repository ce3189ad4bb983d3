/* Loading a program into a new process and entering user mode (exec.c), for process.c. */
#ifndef KOV_EXEC_H
#define KOV_EXEC_H

#include <stdint.h>

struct process;

/* Maps the program's segments, heap and stack into p and writes argv (program, then the
 * comma-separated args) on its stack: 0 or -KOV_ENOEXEC / -KOV_ENOMEM / -KOV_EINVAL. */
long exec_load(struct process *p, const char *program, const char *args);
/* Thread entries: the process's first thread (arg: the process), and a later one (arg: a
 * kmalloc'd struct user_thread_start, freed here). Neither returns. */
void exec_user_start(void *process);
struct user_thread_start { uint64_t entry, toc, sp, arg; };
void exec_user_thread_start(void *start);

#endif
