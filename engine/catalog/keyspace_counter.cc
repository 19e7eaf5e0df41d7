#include "engine/catalog/keyspace_counter.h"

#include <string>

#include "engine/base/check.h"
#include "engine/catalog/catalog_keys.h"

namespace dynapage {

Status KeyspaceCounter::Load() {
  uint32_t next = 1;
  DP_RETURN_IF_ERROR(ReadStoredCounter(*storage_, kNextKeyspaceKey, "keyspace counter", &next));
  std::lock_guard<std::mutex> lock(mu_);
  next_ = next;
  return Status::OK();
}

Status KeyspaceCounter::Reserve(uint32_t count, uint32_t* first) {
  DP_DCHECK(count > 0);
  std::lock_guard<std::mutex> lock(mu_);
  uint64_t after = static_cast<uint64_t>(next_) + count;
  if (after > UINT32_MAX) return Status::Internal("the store has used up its 2^32 keyspaces");
  Storage::Batch batch;
  batch.Put(kNextKeyspaceKey, std::to_string(after));
  DP_RETURN_IF_ERROR(storage_->Write(&batch));
  *first = next_;
  next_ = static_cast<uint32_t>(after);
  return Status::OK();
}

uint32_t KeyspaceCounter::next() const {
  std::lock_guard<std::mutex> lock(mu_);
  return next_;
}

}  // namespace dynapage
