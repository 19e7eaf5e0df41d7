// ClientTokenCache: the ClientRequestTokens of recent successful TransactWriteItems calls, for DynamoDB's
// idempotency. For 10 minutes after a call succeeds, a call with the same token and the same parameters answers
// as that call did without writing again; one with other parameters is IdempotentParameterMismatchException.
//
// A caller holds Lock() from its lookup until it has recorded its outcome, so two concurrent calls with one token
// cannot both write. Calls without a token never take the lock. Time is passed in, so tests need not wait.

#ifndef DYNAPAGE_ENGINE_WRITE_CLIENT_TOKEN_CACHE_H_
#define DYNAPAGE_ENGINE_WRITE_CLIENT_TOKEN_CACHE_H_

#include <chrono>
#include <deque>
#include <map>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "engine/catalog/consumed_capacity.h"

namespace dynapage {

class ClientTokenCache {
 public:
  using Clock = std::chrono::steady_clock;
  static constexpr std::chrono::minutes kLifetime{10};

  struct Entry {
    std::string fingerprint;                 // identifies the request's parameters
    std::vector<ConsumedCapacity> capacity;  // what the call reported
  };

  std::unique_lock<std::mutex> Lock() { return std::unique_lock<std::mutex>(mu_); }

  // REQUIRES: Lock() held. The entry of token if it was inserted less than kLifetime before now, else nullptr.
  const Entry* Find(const std::string& token, Clock::time_point now);
  // REQUIRES: Lock() held; now is not earlier than in any previous call.
  void Insert(const std::string& token, Entry entry, Clock::time_point now);

 private:
  void DropExpired(Clock::time_point now);

  std::mutex mu_;
  std::map<std::string, std::pair<Clock::time_point, Entry>> entries_;  // token -> (expiry, entry)
  std::deque<std::pair<Clock::time_point, std::string>> expiries_;       // in insertion (= expiry) order
};

}  // namespace dynapage

#endif  // DYNAPAGE_ENGINE_WRITE_CLIENT_TOKEN_CACHE_H_
