/* Boot-time self-test of threads and locks (boot argument "selftest=threads"). */
#ifndef KOV_THREAD_TEST_H
#define KOV_THREAD_TEST_H

void thread_selftest(void);

#endif
