// BatchWriteItem: up to 25 puts and deletes across tables.
//
// A batch write is applied as one atomic storage batch (stronger than DynamoDB promises, never weaker), so
// nothing is left unprocessed, unless the request's policies say so (page chaos, or a fault rule's
// "unprocessed" share, docs/testing-pagination.md): then a random part of the requests, chosen after every
// check has passed, is not applied at all and is reported back as UnprocessedItems. (BatchGetItem is
// engine/read/batch_get_item.h.)

#ifndef DYNAPAGE_ENGINE_WRITE_BATCH_WRITE_ITEM_H_
#define DYNAPAGE_ENGINE_WRITE_BATCH_WRITE_ITEM_H_

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "engine/base/request_context.h"
#include "engine/catalog/consumed_capacity.h"
#include "engine/expressions/write_condition.h"
#include "engine/model/attribute_value.h"
#include "engine/model/wire_item.h"
#include "engine/write/write_path.h"

namespace dynapage {

constexpr size_t kMaxBatchWriteRequests = 25;

struct BatchWriteRequest {
  struct Entry {
    bool is_put = true;
    AttributeMap item_or_key;
    // A put's item, when the caller could take it as a WireItem (then item_or_key is empty): it is stored
    // without becoming an AttributeMap unless the table has indexes. REQUIRES: its JSON outlives the call.
    std::optional<WireItem> wire_item;
  };
  // table name -> its requests, in request order of tables
  std::vector<std::pair<std::string, std::vector<Entry>>> tables;
  // The requests page chaos or a fault rule leaves unprocessed, one flag per entry in request order, and what that
  // is ("2 of 5 unprocessed"); empty: none. The caller chooses them (ChooseUnprocessed, engine/read/page_chaos.h,
  // which the write layer does not see); they are left out only once every check has passed.
  std::vector<bool> leave_unprocessed;
  std::string unprocessed_note;
};

struct BatchWriteResult {
  std::vector<ConsumedCapacity> capacity;  // one per table
  // The requests not applied, as (position of the table in request.tables, position of the entry in its list).
  std::vector<std::pair<size_t, size_t>> unprocessed;
};

// Takes the request: its items are moved into storage rather than copied. REQUIRES: request.leave_unprocessed is
// empty or holds one flag per entry.
Status BatchWriteItem(WritePath& write_path, const RequestContext& ctx, BatchWriteRequest request,
                      BatchWriteResult* result);

}  // namespace dynapage

#endif  // DYNAPAGE_ENGINE_WRITE_BATCH_WRITE_ITEM_H_
