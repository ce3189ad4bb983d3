/* Boot-time self-test of clustered objects (boot argument "selftest=co"). */
#ifndef KOV_COBJ_TEST_H
#define KOV_COBJ_TEST_H

void cobj_selftest(void);

#endif
