/* Calendar dates and seconds since 1970-01-01 00:00 UTC (proleptic Gregorian, no leap
 * seconds): the real-time clocks answer in one form or the other, reports want both. */
#ifndef KOV_CIVIL_TIME_H
#define KOV_CIVIL_TIME_H

#include <stdint.h>
#include <stdbool.h>
#include <stddef.h>

struct civil_time {
	int32_t year;
	uint8_t month, day;              /* 1-12, 1-31 */
	uint8_t hour, minute, second;    /* 0-23, 0-59, 0-59 */
};

/* The Mac's clocks (CUDA, PMU) count seconds from 1904-01-01; this many precede 1970. */
#define MAC_EPOCH_TO_UNIX 2082844800u

struct civil_time civil_from_unix(int64_t seconds);

/* False (and *seconds untouched) if a field is out of range, e.g. 2026-02-30. */
bool civil_to_unix(const struct civil_time *t, int64_t *seconds);

/* "YYYY-MM-DD HH:MM:SS" into buf (20 bytes suffice for years 0-9999); returns buf. */
char *civil_format(const struct civil_time *t, char *buf, size_t size);

#endif
