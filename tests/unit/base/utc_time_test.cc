// UtcTime: the calendar date of any millisecond count, as the C library's gmtime_r gives it, without reading the
// time-zone database.

#include "engine/base/utc_time.h"

#include <gtest/gtest.h>

#include <ctime>

namespace dynapage {
namespace {

void ExpectSameAsGmtime(int64_t millis) {
  const int64_t seconds = millis >= 0 ? millis / 1000 : -((-millis + 999) / 1000);
  const time_t whole = static_cast<time_t>(seconds);
  tm expected{};
  ASSERT_NE(nullptr, gmtime_r(&whole, &expected)) << millis;
  const UtcTime t = UtcTimeOfMillis(millis);
  EXPECT_EQ(expected.tm_year + 1900, t.year) << millis;
  EXPECT_EQ(expected.tm_mon + 1, t.month) << millis;
  EXPECT_EQ(expected.tm_mday, t.day) << millis;
  EXPECT_EQ(expected.tm_hour, t.hour) << millis;
  EXPECT_EQ(expected.tm_min, t.minute) << millis;
  EXPECT_EQ(expected.tm_sec, t.second) << millis;
  EXPECT_EQ(expected.tm_wday, t.weekday) << millis;
  EXPECT_EQ(millis - seconds * 1000, t.millisecond) << millis;
}

TEST(UtcTimeTest, KnownMoments) {
  UtcTime epoch = UtcTimeOfMillis(0);
  EXPECT_EQ(1970, epoch.year);
  EXPECT_EQ(1, epoch.month);
  EXPECT_EQ(1, epoch.day);
  EXPECT_EQ(4, epoch.weekday);  // Thursday
  EXPECT_EQ("2026-11-28T02:30:00.123Z", IsoUtcText(1795833000123));
  EXPECT_EQ("2024-11-18T14:36:44.149", IsoUtcText(1731940604149, false));
  EXPECT_EQ("2000-02-29T23:59:59.999Z", IsoUtcText(951868799999));  // a leap day of a 400th year
  EXPECT_EQ("2000-03-01T00:00:00.000Z", IsoUtcText(951868800000));
  EXPECT_EQ("2100-03-01T00:00:00.000Z", IsoUtcText(4107542400000));  // 2100 has no 29 February
  EXPECT_EQ("1969-12-31T23:59:59.999Z", IsoUtcText(-1));
  EXPECT_EQ(3, UtcTimeOfMillis(-1).weekday);  // Wednesday
}

TEST(UtcTimeTest, EveryDayOfFourCenturiesMatchesGmtime) {
  // Each day from 1800 to 2400 at a time of day that moves, and the millisecond before and after midnight.
  constexpr int64_t kDay = 86400000;
  for (int64_t day = -62091; day < 157054; ++day) {
    ExpectSameAsGmtime(day * kDay + (day * 7919 % kDay + kDay) % kDay);
    ExpectSameAsGmtime(day * kDay - 1);
    ExpectSameAsGmtime(day * kDay);
    if (HasFailure()) return;
  }
}

TEST(UtcTimeTest, FarMomentsMatchGmtime) {
  for (int64_t millis : {int64_t{253402300799999}, int64_t{-62135596800000}, int64_t{-210866803200000},
                         int64_t{32503680000000}, int64_t{4102444800000}}) {
    ExpectSameAsGmtime(millis);
  }
}

}  // namespace
}  // namespace dynapage
