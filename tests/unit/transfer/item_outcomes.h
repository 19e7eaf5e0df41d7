// The outcomes an import reader hands its visitor (engine/transfer/import_reader.h), collected for assertions: one
// helper for the tests of every reader.

#ifndef DYNAPAGE_TESTS_UNIT_TRANSFER_ITEM_OUTCOMES_H_
#define DYNAPAGE_TESTS_UNIT_TRANSFER_ITEM_OUTCOMES_H_

#include <string>
#include <vector>

#include "engine/transfer/import_reader.h"

namespace dynapage {

struct ItemOutcome {
  size_t index;
  bool ok;
  std::string message;
  AttributeMap item;
};

// A visitor that appends each outcome to *out.
inline ImportItemVisitor CollectOutcomes(std::vector<ItemOutcome>* out) {
  return [out](size_t index, const Status& s, AttributeMap* item) {
    out->push_back({index, s.ok(), s.ok() ? "" : s.message(), *item});
  };
}

}  // namespace dynapage

#endif  // DYNAPAGE_TESTS_UNIT_TRANSFER_ITEM_OUTCOMES_H_
