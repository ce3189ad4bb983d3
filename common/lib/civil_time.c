/* Day counts by Howard Hinnant's days_from_civil / civil_from_days: eras of 400 years
 * (146097 days) make the Gregorian leap rule exact without tables. */
#include "civil_time.h"
#include "format.h"

static int64_t floor_div(int64_t a, int64_t b)
{
	return a / b - (a % b != 0 && (a < 0) != (b < 0));
}

static int64_t days_from_civil(int64_t y, unsigned m, unsigned d)
{
	y -= m <= 2;
	int64_t era = floor_div(y, 400);
	int64_t yoe = y - era * 400;
	int64_t doy = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + d - 1;
	int64_t doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
	return era * 146097 + doe - 719468;
}

struct civil_time civil_from_unix(int64_t seconds)
{
	int64_t days = floor_div(seconds, 86400), rest = seconds - days * 86400;
	int64_t z = days + 719468, era = floor_div(z, 146097);
	int64_t doe = z - era * 146097;
	int64_t yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
	int64_t doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
	int64_t mp = (5 * doy + 2) / 153;
	unsigned month = (unsigned)(mp < 10 ? mp + 3 : mp - 9);
	struct civil_time t = {
		.year = (int32_t)(yoe + era * 400 + (month <= 2)),
		.month = (uint8_t)month,
		.day = (uint8_t)(doy - (153 * mp + 2) / 5 + 1),
		.hour = (uint8_t)(rest / 3600),
		.minute = (uint8_t)(rest / 60 % 60),
		.second = (uint8_t)(rest % 60),
	};
	return t;
}

static unsigned month_days(int64_t y, unsigned m)
{
	static const uint8_t days[12] = { 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31 };
	bool leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
	return days[m - 1] + (m == 2 && leap);
}

bool civil_to_unix(const struct civil_time *t, int64_t *seconds)
{
	if (t->month < 1 || t->month > 12 || t->day < 1 || t->day > month_days(t->year, t->month) ||
	    t->hour > 23 || t->minute > 59 || t->second > 59)
		return false;
	*seconds = days_from_civil(t->year, t->month, t->day) * 86400 +
		   t->hour * 3600 + t->minute * 60 + t->second;
	return true;
}

char *civil_format(const struct civil_time *t, char *buf, size_t size)
{
	format_buf(buf, size, "%04d-%02u-%02u %02u:%02u:%02u", (int)t->year, t->month, t->day,
		   t->hour, t->minute, t->second);
	return buf;
}
