#include "engine/read/page_reader.h"

#include "engine/expressions/condition_evaluator.h"
#include "engine/expressions/projection.h"
#include "engine/model/attribute_value_json.h"
#include "engine/model/stored_members.h"
#include "engine/storage/stored_item.h"

namespace dynapage {

namespace {

// An iterator on the first entry the page evaluates (not valid if there is none).
std::unique_ptr<Storage::Iterator> StartPage(const Storage& storage, const PageSpec& spec) {
  std::unique_ptr<Storage::Iterator> it;
  // A client paging through asks next for what follows where its last page stopped: the iterator parked there,
  // if nothing was written since, is on the start key already.
  if (spec.exclusive_start) it = storage.Resume(spec.lower, spec.upper, *spec.exclusive_start);
  if (it) {
    spec.forward ? it->Next() : it->Prev();
    return it;
  }
  it = storage.NewIterator(spec.lower, spec.upper);
  if (spec.forward) {
    if (spec.exclusive_start) {
      it->Seek(*spec.exclusive_start);
      if (it->Valid() && it->key() == *spec.exclusive_start) it->Next();
    } else {
      it->SeekToFirst();
    }
  } else {
    if (spec.exclusive_start) {
      it->SeekForPrev(*spec.exclusive_start);
      if (it->Valid() && it->key() == *spec.exclusive_start) it->Prev();
    } else {
      it->SeekToLast();
    }
  }
  return it;
}

// An empty page's LastEvaluatedKey: a key strictly between the start key and the entry under it (reading backward,
// between the entry and the start key or the range's end). False when there is none.
bool EmptyPageKey(const PageSpec& spec, const Storage::Iterator& it, std::string* key) {
  if (!spec.cut->key_between || !it.Valid()) return false;
  if (spec.forward) return spec.exclusive_start && spec.cut->key_between->Find(*spec.exclusive_start, it.key(), key);
  return spec.cut->key_between->Find(it.key(), spec.exclusive_start ? *spec.exclusive_start : spec.upper, key);
}

}  // namespace

Status ReadPage(const Storage& storage, const PageSpec& spec, ItemSink* sink, PageResult* result) {
  *result = PageResult();
  std::unique_ptr<Storage::Iterator> it = StartPage(storage, spec);
  uint64_t limit = spec.limit;
  std::string last_key;  // with cut->key_on_last: the last evaluated entry's key
  if (spec.cut) {
    std::string empty_key;
    if (spec.cut->empty_page && EmptyPageKey(spec, *it, &empty_key)) {
      result->last_evaluated = std::move(empty_key);
      result->cut_applied = "empty page";
      return it->status();
    }
    if (spec.cut->max_items && (!limit || spec.cut->max_items < limit)) limit = spec.cut->max_items;
  }

  const bool decode = spec.filter || spec.projection || spec.fetch_base;
  AttributeMap item;
  // Built on the first decode: a Document allocates its allocator, and most pages copy items without decoding.
  std::optional<rapidjson::Document> document;
  std::string scratch;
  std::string selected;  // the members needed of the item evaluated (engine/model/stored_members.h)
  // Evaluates the entry under the iterator: counts it, and hands it to the sink if it passes the filter.
  auto evaluate = [&]() -> Status {
    StoredItemView stored;
    if (!ParseStoredItem(it->value(), &stored)) return Status::Internal("corrupt item");
    result->scanned_count++;
    result->bytes_read += stored.size;
    if (!decode) {
      result->count++;
      if (!spec.count_only) sink->AddJson(stored.json);
      return Status::OK();
    }
    // Scalars are read off the text; anything else is parsed (engine/model/stored_members.h).
    bool decoded = spec.needed_attributes && DecodeStoredScalarMembers(stored.json, *spec.needed_attributes, &item);
    if (!decoded) {
      if (!document) document.emplace();
      if (spec.needed_attributes) {
        // Only the members the filter and projection read are parsed, not the whole item.
        std::string_view json = stored.json;
        if (SelectStoredMembers(stored.json, *spec.needed_attributes, &selected)) json = selected;
        decoded = ParseStoredJson(json, &scratch, &*document) &&
                  DecodeStoredAttributes(*document, *spec.needed_attributes, &item);
      } else {
        decoded = ParseStoredJson(stored.json, &scratch, &*document) && DecodeStoredAttributeMap(*document, &item);
      }
    }
    if (!decoded) return Status::Internal("corrupt item");
    if (spec.fetch_base && !spec.fetch_base->Fetch(&item, &result->base_bytes_read)) return Status::OK();
    if (spec.filter && !EvaluateCondition(*spec.filter, item)) return Status::OK();
    result->count++;
    if (spec.count_only) return Status::OK();
    if (spec.projection) {
      sink->AddItem(spec.projection->Apply(item));
    } else if (spec.fetch_base) {
      sink->AddItem(item);
    } else {
      sink->AddJson(stored.json);  // filtered only: the stored form is still the answer
    }
    return Status::OK();
  };
  bool stopped = false;
  while (it->Valid()) {
    DP_RETURN_IF_ERROR(evaluate());
    if ((limit && result->scanned_count >= limit) || result->bytes_read >= spec.max_page_bytes) {
      // The page is complete: stop without moving on (DynamoDB does not look ahead), which counts as stopping
      // on Limit or size unless the range can hold only that one item.
      stopped = !spec.single_item_range;
      if (stopped && limit != spec.limit && (!spec.limit || result->scanned_count < spec.limit) &&
          result->bytes_read < spec.max_page_bytes) {
        result->cut_applied = "short page";
      }
      break;
    }
    if (spec.cut && spec.cut->key_on_last) last_key.assign(it->key());
    spec.forward ? it->Next() : it->Prev();
  }
  DP_RETURN_IF_ERROR(it->status());
  if (!stopped && !last_key.empty() && !spec.single_item_range) {
    // The range ran out: the last entry's key goes out anyway, and the client's next page is empty.
    result->last_evaluated = std::move(last_key);
    result->cut_applied = "key on last item";
    return Status::OK();
  }
  // A stopped page did not move past its last evaluated entry: the next page starts after it.
  if (stopped) {
    result->last_evaluated.emplace(it->key());
    storage.Park(std::move(it));
  }
  return Status::OK();
}

}  // namespace dynapage
