// UtcTime: a moment as the UTC calendar shows it, and the ISO 8601 text of DynamoDB's answers.
//
// Worked out from the proleptic Gregorian calendar, never through the C library's time functions: glibc's first
// gmtime_r() reads the time-zone database (/etc/localtime) even for UTC, ~0.1 ms and a file on a server's first
// answer (its Date header). Any int64 count of milliseconds is accepted; times before 1970 count back from it.

#ifndef DYNAPAGE_ENGINE_BASE_UTC_TIME_H_
#define DYNAPAGE_ENGINE_BASE_UTC_TIME_H_

#include <cstdint>
#include <string>

namespace dynapage {

struct UtcTime {
  int64_t year = 1970;
  int month = 1;  // 1-12
  int day = 1;    // 1-31
  int hour = 0;
  int minute = 0;
  int second = 0;
  int millisecond = 0;
  int weekday = 4;  // 0 is Sunday (1970-01-01 was a Thursday)
};

// The calendar date and time of unix_millis milliseconds after 1970-01-01T00:00:00Z.
UtcTime UtcTimeOfMillis(int64_t unix_millis);

// "2026-11-28T04:30:00.123Z"; without the final "Z" if !zone_designator (a stream's label).
std::string IsoUtcText(int64_t unix_millis, bool zone_designator = true);
// The same for seconds with a fraction (DynamoDB's CreationDateTime and the like), rounded to the millisecond.
std::string IsoUtcTextOfSeconds(double unix_seconds);

}  // namespace dynapage

#endif  // DYNAPAGE_ENGINE_BASE_UTC_TIME_H_
