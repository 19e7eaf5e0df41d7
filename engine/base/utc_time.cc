#include "engine/base/utc_time.h"

#include <cmath>
#include <cstdio>

namespace dynapage {

namespace {

constexpr int64_t kMillisPerDay = 86400000;
// The Gregorian calendar repeats every 400 years, which are 146,097 days.
constexpr int64_t kDaysPer400Years = 146097;

int64_t FloorDiv(int64_t a, int64_t b) { return a / b - ((a % b != 0) && ((a < 0) != (b < 0))); }

}  // namespace

UtcTime UtcTimeOfMillis(int64_t unix_millis) {
  UtcTime t;
  const int64_t days = FloorDiv(unix_millis, kMillisPerDay);
  int64_t in_day = unix_millis - days * kMillisPerDay;
  t.millisecond = static_cast<int>(in_day % 1000);
  in_day /= 1000;
  t.second = static_cast<int>(in_day % 60);
  t.minute = static_cast<int>(in_day / 60 % 60);
  t.hour = static_cast<int>(in_day / 3600);
  const int64_t weekday = (days + 4) % 7;  // 1970-01-01 was a Thursday
  t.weekday = static_cast<int>(weekday < 0 ? weekday + 7 : weekday);
  // Count in years that begin on 1 March, so that a leap day is the last day of its year: 2000-03-01 begins an era
  // of 400 such years, 11,017 days after 1970-01-01.
  const int64_t from_era_start = days - 11017;
  const int64_t era = FloorDiv(from_era_start, kDaysPer400Years);
  const int64_t day_of_era = from_era_start - era * kDaysPer400Years;  // 0..146096
  // Every 4th year of an era has 366 days, but not every 100th, except the 400th (the era's last day).
  const int64_t year_of_era =
      (day_of_era - day_of_era / 1460 + day_of_era / 36524 - day_of_era / 146096) / 365;  // 0..399
  const int64_t day_of_year = day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);  // 0..365
  // Months from March have 31, 30, 31, 30, 31 days, twice, then 31 and the rest: 153 days every 5 months.
  const int64_t month_from_march = (5 * day_of_year + 2) / 153;  // 0..11, 0 is March
  t.day = static_cast<int>(day_of_year - (153 * month_from_march + 2) / 5 + 1);
  t.month = static_cast<int>(month_from_march < 10 ? month_from_march + 3 : month_from_march - 9);
  t.year = 2000 + era * 400 + year_of_era + (t.month <= 2 ? 1 : 0);
  return t;
}

std::string IsoUtcText(int64_t unix_millis, bool zone_designator) {
  const UtcTime t = UtcTimeOfMillis(unix_millis);
  char text[64];
  int n = std::snprintf(text, sizeof text, "%04lld-%02d-%02dT%02d:%02d:%02d.%03d%s", static_cast<long long>(t.year),
                        t.month, t.day, t.hour, t.minute, t.second, t.millisecond, zone_designator ? "Z" : "");
  return std::string(text, n > 0 ? static_cast<size_t>(n) : 0);
}

std::string IsoUtcTextOfSeconds(double unix_seconds) { return IsoUtcText(std::llround(unix_seconds * 1000)); }

}  // namespace dynapage
