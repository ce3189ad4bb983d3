/* lwIP's operating-system abstraction on KOV kernel threads: semaphores and mailboxes block
 * in the blocked-thread queues, mutexes are sleep locks. Handles are pointers, NULL invalid. */
#ifndef KOV_LWIP_SYS_ARCH_H
#define KOV_LWIP_SYS_ARCH_H

struct kov_sem;
struct kov_mbox;
struct sleeplock;
struct thread;

typedef struct kov_sem *sys_sem_t;
typedef struct kov_mbox *sys_mbox_t;
typedef struct sleeplock *sys_mutex_t;
typedef struct thread *sys_thread_t;
typedef int sys_prot_t;

#define sys_sem_valid(s) (*(s) != NULL)
#define sys_sem_set_invalid(s) (*(s) = NULL)
#define sys_mbox_valid(m) (*(m) != NULL)
#define sys_mbox_set_invalid(m) (*(m) = NULL)
#define sys_mutex_valid(m) (*(m) != NULL)
#define sys_mutex_set_invalid(m) (*(m) = NULL)

#endif
