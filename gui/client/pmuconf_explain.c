/* Explaining configurations (gui/client/pmuconf_explain.h). */
#include <stdio.h>
#include <string.h>
#include "client/pmuconf_explain.h"

void kov_pmcs_text(uint8_t pmcs, char *buf, size_t n)
{
	if (!n)
		return;
	buf[0] = 0;
	if (!pmcs)
		return;
	if (pmcs == PMCS_ANY) {
		snprintf(buf, n, "any PMC");
		return;
	}
	size_t at = (size_t)snprintf(buf, n, "PMC ");
	for (int p = 1; p <= 8 && at < n; p++)
		if (pmcs & PMCS(p))
			at += (size_t)snprintf(buf + at, n - at, "%s%d", at > 4 ? "," : "", p);
}

int kov_pmu_fit(const struct pmu_backend *b, const uint32_t *codes, int n, int *pmc_of,
		char *why, size_t why_size)
{
	struct pmu_assignment a;
	if (why && why_size)
		why[0] = 0;
	if (!b) {
		if (why && why_size)
			snprintf(why, why_size, "no PMU backend programs these events");
		return PMU_EBADCODE;
	}
	int rc = b->assign(codes, n, &a, why, why_size);
	for (int i = 0; rc == PMU_OK && i < n; i++)
		pmc_of[i] = a.pmc_of[i];
	return rc;
}

/* Whether the events codes[idx[0..k)] fit; their sentence in why when not. */
static bool subset_fits(const struct pmu_backend *b, const uint32_t *codes, const int *idx, int k,
			char *why, size_t why_size)
{
	uint32_t sub[3];
	int pmc_of[3];
	for (int i = 0; i < k; i++)
		sub[i] = codes[idx[i]];
	return kov_pmu_fit(b, sub, k, pmc_of, why, why_size) == PMU_OK;
}

int kov_pmu_conflict(const struct pmu_backend *b, const uint32_t *codes, int n, int *a, int *b2,
		     int *c, char *why, size_t why_size)
{
	int pmc_of[NUM_PMCS];
	*a = *b2 = *c = -1;
	if (n <= NUM_PMCS && kov_pmu_fit(b, codes, n, pmc_of, why, why_size) == PMU_OK)
		return 0;
	/* Each pair, then each triple, as the checker sees them alone: the smallest set that
	 * does not fit is what the person has to split. */
	for (int i = 0; i < n; i++)
		for (int j = i + 1; j < n; j++)
			if (!subset_fits(b, codes, (int[]){ i, j }, 2, why, why_size)) {
				*a = i;
				*b2 = j;
				return 2;
			}
	for (int i = 0; i < n; i++)
		for (int j = i + 1; j < n; j++)
			for (int k = j + 1; k < n; k++)
				if (!subset_fits(b, codes, (int[]){ i, j, k }, 3, why, why_size)) {
					*a = i;
					*b2 = j;
					*c = k;
					return 3;
				}
	kov_pmu_fit(b, codes, n, pmc_of, why, why_size);   /* the whole group's sentence */
	return n;
}
