// PageReader: one page of a Query or Scan, the loop at the heart of dynapage (docs/behaviour.md §2, §11).
//
// It walks one key range of one keyspace (a table or an index), forward or backward, strictly after (before)
// an exclusive start key, and stops BEFORE reading the next entry once Limit entries have been evaluated or
// once the evaluated entries' sizes reach max_page_bytes — so the entry that crosses the size limit is part
// of the page. Whenever it stopped for either reason it reports the last evaluated key (no look-ahead); only
// when the range ran out does it report none. The filter is applied to evaluated entries (after Limit), then
// the projection; an entry without filter or projection is copied from the store to the sink as stored.

#ifndef DYNAPAGE_ENGINE_READ_PAGE_READER_H_
#define DYNAPAGE_ENGINE_READ_PAGE_READER_H_

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "engine/base/status.h"
#include "engine/model/attribute_value.h"
#include "engine/model/document_path.h"
#include "engine/storage/storage.h"

namespace dynapage {

struct ConditionExpr;
class Projection;

// Receives the items of a page, in order.
class ItemSink {
 public:
  virtual ~ItemSink() = default;
  // An item as stored (canonical JSON object text).
  virtual void AddJson(std::string_view item_json) = 0;
  // An item that was decoded (filtered or projected).
  virtual void AddItem(const AttributeMap& item) = 0;
};

// Fetches the base-table item of an index entry (LSI reads of attributes outside the projection).
class BaseItemFetcher {
 public:
  virtual ~BaseItemFetcher() = default;
  // Replaces *entry with the base item; adds its size to *bytes. Returns false if the item is gone.
  virtual bool Fetch(AttributeMap* entry, uint64_t* bytes) = 0;
};

// Makes storage keys for page chaos's empty pages: a key of the keyspace strictly between two others.
class KeyBetween {
 public:
  virtual ~KeyBetween() = default;
  // Sets *key to a key k with low < k < high and returns true, or returns false when it finds none.
  virtual bool Find(std::string_view low, std::string_view high, std::string* key) const = 0;
};

// Page chaos (docs/testing-pagination.md): a cut of the page at another point that is still legal, so that a client
// following the contract still reads every item exactly once.
struct PageCut {
  // Stop after this many evaluated entries, as a Limit would (0: no such stop). REQUIRES: not 0 with empty_page.
  uint64_t max_items = 0;
  // Return no entry at all, with a LastEvaluatedKey strictly between the start key and the first entry, when
  // key_between finds one; otherwise the cut falls back to max_items.
  bool empty_page = false;
  // When the range runs out within the page, report its last evaluated entry's key anyway: the next page is empty.
  bool key_on_last = false;
  std::unique_ptr<const KeyBetween> key_between;  // null: no empty pages
};

struct PageSpec {
  std::string lower;  // inclusive
  std::string upper;  // exclusive
  bool forward = true;
  std::optional<std::string> exclusive_start;  // storage key; the page begins strictly after (before) it
  uint64_t limit = 0;                          // 0: no Limit
  uint64_t max_page_bytes = 1048576;
  // At most one item can be in the range (a Query by full key of a hash-only table): reaching Limit there
  // exhausts the range rather than stopping the page.
  bool single_item_range = false;
  const ConditionExpr* filter = nullptr;                  // optional
  const Projection* projection = nullptr;                 // optional; nullptr = every attribute
  bool count_only = false;                                // Select=COUNT: nothing goes to the sink
  BaseItemFetcher* fetch_base = nullptr;                  // optional
  // When set, only these top-level attributes are decoded for the filter and projection (a cheaper decode);
  // REQUIRES: they include every attribute the filter and projection refer to.
  const std::vector<std::string>* needed_attributes = nullptr;
  const PageCut* cut = nullptr;  // optional: page chaos
};

struct PageResult {
  uint64_t count = 0;           // items that passed the filter
  uint64_t scanned_count = 0;   // items evaluated
  uint64_t bytes_read = 0;      // Σ sizes of evaluated entries (capacity)
  uint64_t base_bytes_read = 0; // Σ sizes of base items fetched
  std::optional<std::string> last_evaluated;  // storage key of the last evaluated entry, if the page stopped early
  const char* cut_applied = nullptr;  // which PageCut stopped the page ("short page", …), if one did
};

Status ReadPage(const Storage& storage, const PageSpec& spec, ItemSink* sink, PageResult* result);

}  // namespace dynapage

#endif  // DYNAPAGE_ENGINE_READ_PAGE_READER_H_
