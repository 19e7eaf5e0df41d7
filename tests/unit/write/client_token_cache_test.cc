// ClientTokenCache: entries live exactly ten minutes.

#include "engine/write/client_token_cache.h"

#include <gtest/gtest.h>

namespace dynapage {
namespace {

TEST(ClientTokenCacheTest, EntriesExpireAfterTenMinutes) {
  ClientTokenCache cache;
  auto lock = cache.Lock();
  const auto t0 = ClientTokenCache::Clock::time_point() + std::chrono::hours(1);
  EXPECT_EQ(nullptr, cache.Find("tok", t0));
  cache.Insert("tok", ClientTokenCache::Entry{"request-a", {}}, t0);
  const ClientTokenCache::Entry* e = cache.Find("tok", t0 + std::chrono::minutes(9));
  ASSERT_NE(nullptr, e);
  EXPECT_EQ("request-a", e->fingerprint);
  EXPECT_EQ(nullptr, cache.Find("other", t0 + std::chrono::minutes(9)));
  EXPECT_EQ(nullptr, cache.Find("tok", t0 + std::chrono::minutes(10)));
}

TEST(ClientTokenCacheTest, ReinsertedTokenKeepsItsNewLifetime) {
  ClientTokenCache cache;
  auto lock = cache.Lock();
  const auto t0 = ClientTokenCache::Clock::time_point() + std::chrono::hours(1);
  cache.Insert("tok", ClientTokenCache::Entry{"first", {}}, t0);
  cache.Insert("tok", ClientTokenCache::Entry{"second", {}}, t0 + std::chrono::minutes(11));
  const ClientTokenCache::Entry* e = cache.Find("tok", t0 + std::chrono::minutes(15));
  ASSERT_NE(nullptr, e);
  EXPECT_EQ("second", e->fingerprint);
  EXPECT_EQ(nullptr, cache.Find("tok", t0 + std::chrono::minutes(21)));
}

}  // namespace
}  // namespace dynapage
