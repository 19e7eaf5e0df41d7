#include "engine/base/messages.h"

#include <cstdio>

namespace dynapage {

std::string TransactItemsLimitMessage(const char* item_type, size_t count) {
  std::string value = "[";
  for (size_t i = 0; i < count; i++) {
    char id[16];
    std::snprintf(id, sizeof id, "%x", static_cast<unsigned>(0x10000001 + i));
    if (i) value += ", ";
    value += std::string("com.amazonaws.dynamodb.v20120810.") + item_type + "@" + id;
  }
  return "Value '" + value + "]' at 'transactItems' failed to satisfy constraint: Member must have length less "
         "than or equal to " + std::to_string(kMaxTransactionActions);
}

}  // namespace dynapage
