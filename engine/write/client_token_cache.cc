#include "engine/write/client_token_cache.h"

namespace dynapage {

void ClientTokenCache::DropExpired(Clock::time_point now) {
  while (!expiries_.empty() && expiries_.front().first <= now) {
    auto it = entries_.find(expiries_.front().second);
    // A token re-inserted after expiring has a later expiry: keep that one.
    if (it != entries_.end() && it->second.first <= now) entries_.erase(it);
    expiries_.pop_front();
  }
}

const ClientTokenCache::Entry* ClientTokenCache::Find(const std::string& token, Clock::time_point now) {
  DropExpired(now);
  auto it = entries_.find(token);
  return it == entries_.end() ? nullptr : &it->second.second;
}

void ClientTokenCache::Insert(const std::string& token, Entry entry, Clock::time_point now) {
  DropExpired(now);
  Clock::time_point expiry = now + kLifetime;
  entries_[token] = std::make_pair(expiry, std::move(entry));
  expiries_.emplace_back(expiry, token);
}

}  // namespace dynapage
